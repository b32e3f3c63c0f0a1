"""The experiment path users take: papermill with -p parameters, artifacts in a fresh run folder, never overwritten."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def papermill(tmp_path, *params):
    out = tmp_path / "out.ipynb"
    args = [sys.executable, "-m", "papermill", str(ROOT / "nbs/experiments/19_quickstart.ipynb"), str(out), "--cwd", str(tmp_path)]
    for k, v in params: args += ["-p", k, str(v)]
    env = {k: v for k, v in os.environ.items() if k != "IN_TEST"}  # nbdev's runner sets it in this process
    return subprocess.run(args, capture_output=True, text=True, env=env)


def test_quickstart_papermill_writes_a_run_and_refuses_to_overwrite(tmp_path):
    text = tmp_path / "corpus.txt"
    text.write_text("to be, or not to be, that is the question.\n" * 400)
    params = [("dataset", text), ("out_root", tmp_path / "runs"), ("run_name", "r1"), ("max_steps", 40),
              ("warmup_steps", 10), ("max_seconds", 600), ("seq_len", 64), ("eval_every", 10), ("eval_batches", 2), ("batch_size", 8)]
    r = papermill(tmp_path, *params)
    assert r.returncode == 0, r.stderr[-3000:]
    run = tmp_path / "runs" / "r1"
    assert {p.name for p in run.iterdir()} >= {"params.json", "metrics.json", "history.csv", "loss_curve.png", "sample.txt"}
    p, m = json.loads((run / "params.json").read_text()), json.loads((run / "metrics.json").read_text())
    assert p["seq_len"] == 64 and p["max_steps"] == 40  # the -p values reached the notebook
    assert m["steps"] == 40 and m["final_val_loss"] < m["init_val_loss"] - 1.0
    again = papermill(tmp_path, *params)
    assert again.returncode != 0 and "FileExistsError" in again.stderr + again.stdout
    assert json.loads((run / "metrics.json").read_text()) == m  # untouched


def test_quickstart_rejects_bad_parameters(tmp_path):
    r = papermill(tmp_path, ("seq_len", 0), ("out_root", tmp_path / "runs"))
    assert r.returncode != 0 and "seq_len must be an integer >= 1, got 0" in r.stderr + r.stdout
