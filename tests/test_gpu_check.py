"""scripts/gpu_check.py's dry mode on the CPU: the whole flow at toy sizes (one notebook through papermill, the step
profile, the step table, Figure 4.3 in both dtypes with the SDPA backend recorded), a deadline that stops it cleanly,
a second call that redoes only what is missing, and bad arguments refused before any work."""
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if k != "IN_TEST"} | {"PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}


def run(*args, timeout=600):
    return subprocess.run([sys.executable, "scripts/gpu_check.py", *map(str, args)], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def dry(tmp_path_factory):
    out = tmp_path_factory.mktemp("gpu")
    r = run("--dry", "--out", out, "--deadline-min", 8, "--parts", "notebooks,profile,steps,figure43")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return out / "cpu-dry"


def rows(path):
    with open(path) as f: return list(csv.DictReader(f))


def test_dry_run_writes_every_part(dry):
    p = json.loads((dry / "params.json").read_text())
    assert p["dry"] and p["gpu"] == "cpu-dry" and p["notebooks"] == ["19_quickstart"]
    nb = rows(dry / "notebooks" / "status.csv")
    assert [(r["notebook"], r["status"]) for r in nb] == [("19_quickstart", "ok")]
    out = json.loads((dry / "notebooks" / "19_quickstart.ipynb").read_text())
    assert any(c.get("outputs") for c in out["cells"] if c["cell_type"] == "code")  # executed, outputs kept
    summary = rows(dry / "profile" / "summary.csv")
    assert {r["size"] for r in summary} == {"tiny", "gpt-tiny"} and all(int(r["launches"]) > 0 for r in summary)
    assert rows(dry / "profile" / "kernels.csv") and rows(dry / "profile" / "block_ops.csv")
    steps = rows(dry / "steps.csv")
    assert {r["size"] for r in steps} == {"tiny", "gpt-tiny"} and all(float(r["tokens_per_s"]) > 0 for r in steps)
    backend = json.loads((dry / "figure43" / "backend.json").read_text())
    assert backend["bfloat16"]["requested"] == "FLASH_ATTENTION"  # recorded, whichever kernel ran (none on a CPU)
    for name in ("b1-bf16.csv", "b1.csv"):
        t = rows(dry / "figure43" / name)
        assert {r["op"] for r in t} == {"hyena", "sdpa"} and {r["status"] for r in t} == {"ok"}


def test_a_second_call_redoes_only_what_is_missing(dry):
    before = {p: p.stat().st_mtime for p in dry.rglob("*.csv")}
    r = run("--dry", "--out", dry.parent, "--deadline-min", 3, "--parts", "notebooks,steps")
    assert r.returncode == 0, r.stderr[-2000:]
    assert {p: p.stat().st_mtime for p in dry.rglob("*.csv")} == before  # nothing was missing: nothing rewritten
    assert (dry / "params.json").exists() and len(list(dry.glob("params-*.json"))) == 1  # the call is recorded


def test_the_deadline_stops_cleanly(tmp_path):
    r = run("--dry", "--out", tmp_path, "--deadline-min", 0.3, "--parts", "steps,figure43")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "results under" in r.stdout  # it reached its end within the deadline, keeping what finished


@pytest.mark.parametrize("args,word", [(("--parts", "steps,profil"), "--parts"), (("--deadline-min", 0), "--deadline-min"),
                                       (("--notebooks", "99_none"), "--notebooks")])
def test_bad_arguments_are_refused_before_any_work(tmp_path, args, word):
    r = run("--dry", "--out", tmp_path / "o", *args, timeout=120)
    assert r.returncode != 0 and word in r.stderr and not (tmp_path / "o").exists()
