"""scripts/gpu_bundle.py without a network: the plan (the closure of the notebooks' distributions over this
environment's metadata, markers evaluated for the target, extras followed, less what the image has) printed by `--dry`,
which writes nothing, and bad arguments refused before any work; the image's present list by default, the
distributions left out (`LEAVE_OUT`) never imported on the notebooks' path, and a slimmed wheel (`SLIM`) that pip
installs and whose harness still finds our tasks."""
import os
import re
import shutil
import zipfile
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import gpu_bundle as gb  # noqa: E402


def names(rows): return {r["name"] for r in rows}


def run(*args):
    return subprocess.run([sys.executable, "scripts/gpu_bundle.py", *map(str, args)], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=str(ROOT)))


def test_markers_are_evaluated_for_the_target():
    # anyio: exceptiongroup only below Python 3.11 (not installed here, so asked for by its specifier)
    old, new = (gb.plan(["anyio"], gb.target_environment(v, "manylinux_2_28_x86_64")) for v in ("3.10", "3.12"))
    assert "exceptiongroup" in names(old) and "exceptiongroup" not in names(new)
    eg = next(r for r in old if r["name"] == "exceptiongroup")
    assert eg["version"] is None and eg["spec"].startswith("exceptiongroup>=")
    # ipykernel: appnope on macOS only
    assert "appnope" not in names(gb.plan(["ipykernel"], gb.target_environment("3.12", "manylinux_2_28_x86_64")))
    assert "appnope" in names(gb.plan(["ipykernel"], gb.target_environment("3.12", "macosx_11_0_arm64")))


def test_extras_are_followed_and_present_names_left_out():
    env = gb.target_environment("3.12", "manylinux_2_28_x86_64")
    # pytz comes only through typepy[datetime], which pytablewriter asks for
    assert "pytz" in names(gb.plan(["pytablewriter"], env)) and "pytz" not in names(gb.plan(["typepy"], env))
    full = gb.plan(list(gb.ROOTS), env)
    assert {"papermill", "ipykernel", "fastcore", "biopython", "lm-eval", "datasets", "nbclient", "pyzmq"} <= names(full)
    assert "torch" not in names(full)  # nothing the notebooks' roots need brings torch
    cut = gb.plan(list(gb.ROOTS), env, present={"pandas", "numpy", "pyarrow"})
    assert names(full) - names(cut) >= {"pandas", "numpy", "pyarrow"} and "datasets" in names(cut)
    assert all(r["spec"] == f"{r['name']}=={r['version']}" for r in full if r["version"])  # pinned to this venv


def test_a_wheel_built_here_must_suit_the_target():
    t = ("3.12", "manylinux_2_28_x86_64")
    assert gb.suits("sqlitedict-2.1.0-py3-none-any.whl", *t)
    assert gb.suits("hf_xet-1.8.0-cp38-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl", *t)  # abi3, older glibc
    assert not gb.suits("x-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", *t)  # another interpreter
    assert not gb.suits("x-1.0-cp312-cp312-manylinux_2_34_x86_64.whl", *t)  # a newer glibc
    assert not gb.suits("x-1.0-cp312-cp312-linux_x86_64.whl", *t)  # built for this machine only
    assert not gb.suits("x-1.0-cp38-abi3-manylinux2014_aarch64.whl", *t)
    assert gb.target_platforms("manylinux_2_17_x86_64")[:2] == ["manylinux_2_17_x86_64", "manylinux2014_x86_64"]


def test_present_file_takes_freeze_lines(tmp_path):
    f = tmp_path / "present.txt"
    f.write_text("# the image\nNumPy==2.1.0\npyarrow >= 20\ntyping_extensions\n-e git+x#egg=y\n\n")
    assert gb.read_present(f) == {"numpy", "pyarrow", "typing-extensions"}


def test_dry_prints_the_plan_and_writes_nothing(tmp_path):
    present = tmp_path / "present.txt"
    present.write_text("pandas\nscipy\n")
    r = run("--out", tmp_path / "b", "--dry", "--present", present, "--python-version", "3.12")
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.splitlines()
    assert lines[0].startswith("plan: ") and "CPython 3.12" in lines[0] and "2 names present" in lines[0]
    specs = [l.split()[0] for l in lines[1:] if l.startswith("  ")]
    assert "papermill==" + gb.installed_version("papermill") in specs and "biopython==" + gb.installed_version(
        "biopython") in specs
    assert not any(s.startswith(("pandas", "scipy")) for s in specs)
    assert "data.tar.xz" in r.stdout and "data/shakespeare/texts/*.txt" in r.stdout
    assert "data/tokenizer/gpt2.tiktoken" in r.stdout
    assert not (tmp_path / "b").exists()


@pytest.mark.parametrize("args,word", [(("--python-version", "312"), "--python-version"),
                                       (("--platform", "Linux x86"), "--platform"),
                                       (("--present", "no-such-file.txt"), "--present"),
                                       (("--roots", "papermill,not-a-distribution"), "--roots"),
                                       (("--max-mb", "0"), "--max-mb"),
                                       (("--build-python", "no-such-python3"), "--build-python")])
def test_bad_arguments_are_refused_before_any_work(tmp_path, args, word):
    r = run("--out", tmp_path / "b", *args)
    assert r.returncode != 0 and r.stderr.startswith("error: ") and word in r.stderr
    assert not (tmp_path / "b").exists()


def test_the_default_present_file_is_the_images_list():
    present = gb.read_present(gb.PRESENT)
    lines = gb.PRESENT.read_text().splitlines()
    assert lines[0].startswith("# ") and not any(l.startswith("#") for l in lines[1:])  # a one-line header
    assert {"torch", "triton", "numpy", "pandas", "tiktoken", "huggingface-hub", "pytest"} <= present
    assert not present & {"papermill", "ipykernel", "fastcore", "biopython", "lm-eval", "datasets", "dill"}
    rows = gb.plan(list(gb.ROOTS), gb.target_environment("3.12", "manylinux_2_28_x86_64"), present, set(gb.LEAVE_OUT))
    assert not names(rows) & present and {"papermill", "ipykernel", "ipython", "lm-eval", "datasets"} <= names(rows)
    # left out with what only they bring (parso through jedi, nltk through rouge-score)
    assert not names(rows) & {"debugpy", "jedi", "parso", "rouge-score", "nltk"}


def test_what_is_left_out_is_never_imported_on_the_notebooks_path(tmp_path):
    "The kernel, IPython's shell and the harness with our tasks import with every LEAVE_OUT module unimportable."
    shadow = tmp_path / "shadow"
    for dist in list(gb.LEAVE_OUT) + ["parso", "nltk"]:  # and what only they bring
        for mod in (md_top_level(dist) or [dist.replace("-", "_")]):
            (shadow / mod).mkdir(parents=True, exist_ok=True)
            message = f"No module named {mod!r}"  # Python's own wording, quoted safely below
            (shadow / mod / "__init__.py").write_text(f"raise ModuleNotFoundError({message!r}, name={mod!r})\n")
    # the stand-ins themselves must raise what a missing module raises (an IPython that tries `import jedi` at
    # import time catches ImportError only)
    for mod in sorted(p.name for p in shadow.iterdir()):
        probe = subprocess.run([sys.executable, "-c", f"import {mod}"], capture_output=True, text=True,
                               env=dict(os.environ, PYTHONPATH=str(shadow)))
        assert "ModuleNotFoundError" in probe.stderr and "SyntaxError" not in probe.stderr, probe.stderr
    prog = ("import ipykernel.ipkernel, ipykernel.kernelapp, IPython, IPython.core.completer, papermill, lm_eval, "
            "lm_eval.evaluator, lm_eval.api.metrics\n"
            "from hyena_lit.eval.downstream import task_manager\n"
            "tm = task_manager('fixtures')\n"
            "assert 'hyena_superglue' in tm.all_tasks, sorted(tm.all_tasks)[:5]\nprint('ok')")
    r = subprocess.run([sys.executable, "-c", prog], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONPATH=f"{shadow}{os.pathsep}{ROOT}"))
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stderr[-2000:]


def md_top_level(dist):
    "The top-level modules of installed distribution `dist` (None where it is not installed here)."
    import importlib.metadata as md
    try: text = md.distribution(dist).read_text("top_level.txt")
    except md.PackageNotFoundError: return None
    return [l.strip() for l in (text or "").splitlines() if l.strip()] or None


def fake_wheel(folder: Path) -> Path:
    "A pure-Python wheel with a package, a data folder under it, and its RECORD."
    whl = folder / "slimprobe-1.0-py3-none-any.whl"
    info = "slimprobe-1.0.dist-info"
    files = {"slimprobe/__init__.py": "VALUE = 1\n", "slimprobe/tasks/__init__.py": "",
             "slimprobe/tasks/manager.py": "M = 2\n",
             "slimprobe/tasks/big/task.yaml": "task: big\n", "slimprobe/tasks/big/sub/utils.py": "",
             f"{info}/METADATA": "Metadata-Version: 2.1\nName: slimprobe\nVersion: 1.0\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    with zipfile.ZipFile(whl, "w") as z:
        for name, text in files.items(): z.writestr(name, text)
        z.writestr(f"{info}/RECORD", "".join(f"{n},,\n" for n in files) + f"{info}/RECORD,,\n")
    return whl


def test_a_slimmed_wheel_drops_its_folders_and_their_record_lines_and_installs(tmp_path):
    whl = fake_wheel(tmp_path)
    assert gb.slim_wheel(whl, r"slimprobe/tasks/[^/]+/") == (2, len("task: big\n"))  # the yaml and the utils
    with zipfile.ZipFile(whl) as z:
        kept = set(z.namelist())
        record = z.read("slimprobe-1.0.dist-info/RECORD").decode()
    assert "slimprobe/tasks/manager.py" in kept and not any(n.startswith("slimprobe/tasks/big") for n in kept)
    assert "slimprobe/tasks/big" not in record and "slimprobe/tasks/manager.py,," in record
    assert gb.slim_wheel(fake_wheel(tmp_path), r".*")[0] == 5  # the .dist-info always stays: everything else may go
    whl = fake_wheel(tmp_path)
    gb.slim_wheel(whl, r"slimprobe/tasks/[^/]+/")
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "-q", "--target",
                        str(tmp_path / "site2"), str(whl)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "site2" / "slimprobe" / "tasks" / "manager.py").is_file()
    assert not (tmp_path / "site2" / "slimprobe" / "tasks" / "big").exists()


def test_without_the_harness_task_folders_our_tasks_still_load(tmp_path):
    "lm_eval as SLIM leaves it (its own task folders gone): our TaskManager builds our tasks from the fixtures."
    import importlib.util
    src = Path(importlib.util.find_spec("lm_eval").origin).parent
    pattern = re.compile(gb.SLIM["lm-eval"][0])
    def ignore(folder, entries):
        rel = Path(folder).relative_to(src.parent).as_posix() + "/"
        return [e for e in entries
                if e == "__pycache__" or (Path(folder, e).is_dir() and pattern.match(rel + e + "/"))]
    shutil.copytree(src, tmp_path / "site" / "lm_eval", ignore=ignore)
    kept = tmp_path / "site" / "lm_eval" / "tasks"
    assert (kept / "manager.py").is_file() and not [p for p in kept.iterdir() if p.is_dir()]
    prog = ("import lm_eval; assert lm_eval.__file__.startswith(%r)\n"
            "from hyena_lit.eval.downstream import task_manager\n"
            "tm = task_manager('fixtures')\n"
            "d = tm.load(['hyena_wsc', 'hyena_lambada'])\n"
            "assert set(d['tasks']) == {'hyena_wsc', 'hyena_lambada'}, d\n"
            "assert 'hyena_superglue' in tm.all_tasks and not [t for t in tm.all_tasks if 'hellaswag' in t]\n"
            "print('ok')") % str(tmp_path / "site")
    r = subprocess.run([sys.executable, "-c", prog], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONPATH=f"{tmp_path / 'site'}{os.pathsep}{ROOT}",
                                HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1"))
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout[-1000:] + r.stderr[-2000:]


def test_the_defaults_are_the_images_list_the_left_out_and_slimmed_wheels_and_20_mib(tmp_path):
    r = run("--out", tmp_path / "b", "--dry")
    assert r.returncode == 0, r.stderr[-2000:]
    assert f"({len(gb.read_present(gb.PRESENT))} names present on the image)" in r.stdout.splitlines()[0]
    assert "left out (never imported on the notebooks' path): debugpy, jedi, rouge-score" in r.stdout
    assert "slimmed: lm-eval without lm_eval/tasks/[^/]+/" in r.stdout
    assert "[--max-mb 20]" in gb.__doc__ and not (tmp_path / "b").exists()
