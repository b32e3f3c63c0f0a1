"""Every notebook through nbdev's own test runner (cells flagged slow/gpu are skipped), one pytest test each.

A notebook that starts a Python process (20_fftconv_triton compiles its kernels in one) must get this checkout's
hyena_lit there too: from a folder below the root, `import hyena_lit` resolves through the environment's editable
install, which names whichever checkout last ran `pip install -e .`. PYTHONPATH names this one, and Triton's cache is
the test's own folder."""
import os
from configparser import ConfigParser
from pathlib import Path

import torch

# All notebooks run in this one process. Without a GPU, 20_fftconv_triton runs its kernels in Triton's interpreter,
# which must be on before anything imports triton (torch may, e.g. for meta-device work): Triton's own jit'd helpers
# (tl.sum's combine function) are built at import.
if not torch.cuda.is_available(): os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest
from nbdev import test as nbdev_test  # the module, so pytest does not collect test_nb itself

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted(p for p in (ROOT / "nbs").rglob("[0-9]*.ipynb") if not p.is_symlink())  # nbs/NN_name.ipynb links
cfg = ConfigParser(delimiters=["="]); cfg.read(ROOT / "settings.ini")
SKIP_FLAGS = cfg["DEFAULT"]["tst_flags"].split()  # space-separated, as nbdev_test reads it


def test_found_notebooks():
    assert len(NOTEBOOKS) >= 6, NOTEBOOKS


@pytest.mark.parametrize("nb", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook(nb, monkeypatch, tmp_path):
    monkeypatch.chdir(nb.parent)  # as nbdev_test runs them
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton-cache"))
    ok, secs = nbdev_test.test_nb(nb, skip_flags=SKIP_FLAGS, do_print=False)
    assert ok, f"{nb.name} failed (see the traceback above)"


def test_report_cells_fit_on_a_screen():
    "A report (nbs/eval) is a figure, a table and claims a reader takes in: no code cell of one is over 60 lines."
    import json
    long = [(p.name, c.get("id"), n) for p in sorted((ROOT / "nbs" / "eval").glob("*.ipynb"))
            for c in json.loads(p.read_text())["cells"] if c["cell_type"] == "code"
            for n in [len("".join(c["source"]).split("\n"))] if n > 60]
    assert not long, long
