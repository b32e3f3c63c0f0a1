"""The DNA experiment (nbs/82_dna.ipynb) through papermill on the committed fixture: -p parameters reach the run,
artifacts land in a new folder, a finished run is never trained again, bad parameters stop it before any work."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def papermill(tmp_path, *params):
    args = [sys.executable, "-m", "papermill", str(ROOT / "nbs/82_dna.ipynb"), str(tmp_path / "out.ipynb"), "--cwd", str(ROOT / "nbs")]
    for k, v in params: args += ["-p", k, str(v)]
    env = {k: v for k, v in os.environ.items() if k != "IN_TEST"}
    return subprocess.run(args, capture_output=True, text=True, env=env)


def test_dna_species_on_the_fixture(tmp_path):
    params = [("task", "species"), ("model", "hyenadna"), ("seq_len", 48), ("epochs", 2), ("steps_per_epoch", 2), ("batch_size", 8),
              ("n_test", 40), ("n_regions", 10), ("out_root", tmp_path / "runs"), ("run_name", "r1")]
    r = papermill(tmp_path, *params)
    assert r.returncode == 0, r.stderr[-3000:]
    run = tmp_path / "runs" / "cpu" / "r1"
    assert {p.name for p in run.iterdir()} >= {"params.json", "metrics.json", "history.csv"}
    p, m = json.loads((run / "params.json").read_text()), json.loads((run / "metrics.json").read_text())
    assert p["seq_len"] == 48 and p["recipe"]["name"] == "dna-species" and p["recipe"]["epochs"] == 2
    assert m["classes"] == ["E.Coli", "H.Pylori", "K.Pneumoniae", "S.Aureus", "V.Cholerae"] and 0 <= m["kmer_nb_acc"] <= 1
    again = papermill(tmp_path, *params)
    assert again.returncode != 0 and "FileExistsError" in again.stderr + again.stdout
    assert json.loads((run / "metrics.json").read_text()) == m


def test_dna_rejects_bad_parameters(tmp_path):
    r = papermill(tmp_path, ("model", "gpt"), ("out_root", tmp_path / "runs"))
    assert r.returncode != 0 and "model must be one of" in r.stderr + r.stdout
    assert not (tmp_path / "runs").exists()
