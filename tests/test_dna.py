"""The DNA experiment (nbs/experiments/82_dna.ipynb) through papermill on the committed fixture: -p parameters reach the run,
artifacts land in a new folder, a finished run is never trained again, bad parameters stop it before any work."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def papermill(tmp_path, *params):
    args = [sys.executable, "-m", "papermill", str(ROOT / "nbs/experiments/82_dna.ipynb"), str(tmp_path / "out.ipynb"), "--cwd", str(ROOT / "nbs")]
    for k, v in params: args += ["-p", k, str(v)]
    env = {k: v for k, v in os.environ.items() if k != "IN_TEST"} | {"PYTHONPATH": str(ROOT)}  # this checkout's code
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


def test_dna_refuses_a_bad_genome_before_training(tmp_path):
    "An empty record before a real one used to fail after training, in the k-mer baseline; now the reader names the file and record."
    genomes = tmp_path / "genomes"
    for sp in ("E.Coli", "S.Aureus"):
        (genomes / sp).mkdir(parents=True)
        (genomes / sp / "a.fa").write_text(">c1\n" + "ACGTTGCA" * 300 + "\n")
    (genomes / "S.Aureus" / "a.fa").write_text(">gap\n>c1\n" + "ACGTTGCA" * 300 + "\n")
    r = papermill(tmp_path, ("data", genomes), ("min_contig", 0), ("task", "species"), ("seq_len", 32), ("epochs", 1), ("steps_per_epoch", 1),
                  ("out_root", tmp_path / "runs"))
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "InputFileError" in out and "S.Aureus/a.fa: record 'gap' has no bases" in out, out[-3000:]
    assert not [p for p in (tmp_path / "runs").rglob("*") if p.is_file()]  # nothing trained, nothing written


def test_dna_pretraining_scores_only_acgt_targets(tmp_path):
    "A genome with N runs: the model and the Markov chains score the same A/C/G/T targets, and the run reports the share left out."
    import math
    genomes = tmp_path / "genomes"
    for i, sp in enumerate(("E.Coli", "S.Aureus")):
        (genomes / sp).mkdir(parents=True)
        seq = "".join(("N" * 8 if j % 3 == 1 else "ACGTTGCAAGCTTCGATTGACCAGTAGGCATC"[i:] + "ACGT"[:i]) for j in range(60))  # 11% N
        (genomes / sp / "a.fa").write_text(">c1\n" + seq.lower() + "\n")  # soft-masked: the same bases
    r = papermill(tmp_path, ("data", genomes), ("min_contig", 0), ("task", "pretrain"), ("seq_len", 32), ("steps", 2),
                  ("tokens_per_step", 64), ("n_test", 16), ("n_regions", 10), ("out_root", tmp_path / "runs"), ("run_name", "p"))
    assert r.returncode == 0, (r.stdout + r.stderr)[-3000:]
    m = json.loads((tmp_path / "runs" / "cpu" / "p" / "metrics.json").read_text())
    assert 0 < m["test_non_acgt_share"] < 0.5, m
    assert all(math.isfinite(m[k]) for k in ("test_bpb", "markov0_bpb", "markov3_bpb", "markov5_bpb")), m
