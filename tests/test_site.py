"""The site and the executed notebooks, cheaply: every report notebook shows a figure, figures.html has an
entry for each of the papers' tables and figures and every image it shows exists, `make notebooks` executes
what it should, and executing a notebook twice gives the same bytes, in the form nbdev_clean leaves alone."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import docs  # noqa: E402
import docs_check  # noqa: E402
import notebooks  # noqa: E402

NAMES = ["Figure 4.1", "Table 4.2", "Table 4.3", "Table 4.4", "Table 4.5", "Table 4.6", "Table 4.7",
         "Table C.1", "Figure C.1", "Figure 4.2", "Figure 4.3", "Figure 4", "Figure 9", "Table 11", "Table 13",
         "Table 1 (selective copying)", "Figure 2 (MQAR)"]
REPORTS = [p for p in notebooks.notebooks() if notebooks.genre(p) == "report"]


@pytest.fixture(scope="module")
def figures(tmp_path_factory) -> Path:
    return docs.figures_page(tmp_path_factory.mktemp("site"))


@pytest.mark.parametrize("nb", REPORTS, ids=[p.stem for p in REPORTS])
def test_report_notebook_has_a_figure(nb):
    "Needs the executed notebooks (`make notebooks`): a report without a figure output is not executed."
    assert docs_check.has_figure_output(nb), f"{nb.name} has no image output: run `make notebooks`"


def test_figures_page_has_every_table_and_figure(figures):
    text = figures.read_text()
    for name in NAMES:
        assert f'id="{docs.anchor(name)}"' in text, f"figures.html has no entry for {name}"
    assert {e.key for e in docs.ENTRIES} == set(NAMES)


def test_every_figure_of_the_figures_page_exists(figures):
    text = figures.read_text()
    srcs = re.findall(r'<img\b[^>]*\bsrc="([^"]*)"', text)
    assert len(srcs) >= len([e for e in docs.ENTRIES if e.figures]), srcs
    for src in srcs:
        assert not re.match(r"[a-z]+:", src), f"not a file of the site: {src}"
        assert (figures.parent / src).is_file(), f"figures.html shows {src}, which is missing"
    for href in re.findall(r'<a href="\.\./([^"#]*)"', text):
        assert (ROOT / href).exists(), f"figures.html links to {href}, which is missing"
    assert not re.search(r'<(script|link|img)\b[^>]*(src|href)="https?:', text)


def test_offline_drops_cdn_scripts():
    page = ('<script src="https://cdnjs.cloudflare.com/ajax/libs/require.js/2.1.10/require.min.js"></script>'
            '<script src="https://cdnjs.cloudflare.com/ajax/libs/mathjax/2.7.7/latest.js?config=TeX">'
            "</script>"
            '<script type="module">const m = await import("https://cdnjs.cloudflare.com/m.mjs");</script>')
    for mathjax in (True, False):
        assert "https:" not in docs.offline(page, mathjax)


def test_plan_executes_chapters_and_reports_only():
    for path, run, why in notebooks.plan([]):
        g = notebooks.genre(path)
        assert run == (g in notebooks.RUN_GENRES or path.stem in notebooks.READ_ONLY_EXPERIMENTS), (path, why)
    assert all(not p.relative_to(ROOT / "nbs").parts[0].startswith(("_", ".", "fixtures"))
               for p in notebooks.notebooks())


def test_executing_a_report_again_changes_nothing(tmp_path):
    """A report re-executed by `make notebooks`' machinery equals its committed copy byte for byte (its runs did
    not change), holds no absolute path, and is in the form nbdev_clean keeps."""
    src = next(p for p in notebooks.notebooks() if p.stem == "34d_figure_c1")
    dest = tmp_path / src.name
    status, secs, log = notebooks.run_one(src, dest, timeout=300)
    assert status == "ok", log
    out = dest.read_bytes()
    assert out == src.read_bytes(), f"{src.name}: executing it again changes its outputs"
    assert docs_check.has_figure_output(dest) and str(ROOT) not in out.decode()
    r = subprocess.run(["nbdev_clean", "--fname", str(dest)], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert dest.read_bytes() == out, "nbdev_clean changes the executed notebook"


def test_notebooks_are_found_in_sub_folders(tmp_path):
    rels = ("index.ipynb", "core/01_a.ipynb", "_draft/x.ipynb", ".ipynb_checkpoints/y.ipynb",
            "fixtures/z.ipynb")
    for rel in rels:
        (tmp_path / "nbs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "nbs" / rel).write_text("{}")
    found = [p.relative_to(tmp_path / "nbs").as_posix() for p in notebooks.notebooks(tmp_path)]
    assert found == ["core/01_a.ipynb", "index.ipynb"]


EXPERIMENTS = [p for p in notebooks.notebooks() if notebooks.genre(p) == "experiment"]


@pytest.fixture(scope="module")
def copies() -> dict:
    return docs.executed_copies()  # reads every notebook under runs/: once for all the cases below


@pytest.mark.parametrize("nb", EXPERIMENTS, ids=[p.stem for p in EXPERIMENTS])
def test_experiment_notebook_links_its_executed_copies(nb, copies):
    "An experiment notebook is kept without outputs; its 'Results' cell names the runs/ folder of its executed copies."
    cell = next((c for c in json.loads(nb.read_text())["cells"] if c.get("id") == "results-link"), None)
    assert cell, f"{nb.name}: no 'results-link' cell"
    link = re.search(r"\]\(((?:\.\./)+)(runs/[^)]+)\)", "".join(cell["source"])).group(2)
    assert any(p.resolve().is_relative_to((ROOT / link).resolve()) for p in copies.get(nb.stem, [])), (nb.name, link)


def test_scrub_blanks_wall_times_and_rates():
    "A rate a cell measures as it runs is blanked like a wall time; a rate's name without a number is kept."
    assert notebooks.scrub("use_cache=True :    151 tokens/s\n") == "use_cache=True :    <t> tokens/s\n"
    assert notebooks.scrub("1,024.5 tokens/s in 13 s") == "<t> tokens/s in <t> s"
    assert notebooks.scrub("training throughput, tokens/s (one thread)") == "training throughput, tokens/s (one thread)"
    assert notebooks.scrub("100 steps, 64 tokens") == "100 steps, 64 tokens"
