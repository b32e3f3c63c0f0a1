"""The GPU scripts' plumbing, on CPU: scripts/triton_gpu.py --smoke writes what scripts/collect_gpu.py turns into run
folders (a finished Figure 4.3 run with the notebook's metrics), nothing is overwritten, a hostile results folder
writes nothing; scripts/triton_tune.py --smoke times a setting against torch.fft."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}

def run(*args, **kw):
    return subprocess.run([sys.executable, *map(str, args)], cwd=ROOT, env=ENV, capture_output=True, text=True,
                          timeout=600, **kw)

@pytest.fixture(scope="module")
def smoke(tmp_path_factory):
    out = tmp_path_factory.mktemp("gpu") / "out"
    r = run("scripts/triton_gpu.py", "--out", out, "--minutes", "3", "--smoke", "--stages", "figure43,step")
    assert r.returncode == 0, r.stderr[-2000:]
    return out

def test_smoke_writes_the_sweep_and_the_step_table(smoke):
    p = json.loads((smoke / "params.json").read_text())
    assert p["gpu"] == "cpu" and p["gpu_name"] == "cpu" and p["smoke"]
    assert (smoke / "runtime" / "cpu" / "b1.csv").is_file() and (smoke / "pile" / "cpu-step" / "steps.csv").is_file()
    assert (smoke / "runtime" / "cpu" / "b1-bf16.csv").is_file()
    assert not (smoke / "triton").exists()  # a stage not asked for does not run

def test_stages_must_be_known(tmp_path):
    r = run("scripts/triton_gpu.py", "--out", tmp_path / "o", "--smoke", "--stages", "figure43,stepp")
    assert r.returncode != 0 and "--stages" in r.stderr and not (tmp_path / "o").exists()

def test_collect_makes_a_finished_runtime_run_and_refuses_to_overwrite(smoke, tmp_path):
    runs = tmp_path / "runs"
    r = run("scripts/collect_gpu.py", smoke, "--parts", "runtime,step", "--runs", runs)
    assert r.returncode == 0, r.stderr[-2000:]
    d = runs / "runtime" / "cpu" / "cpu-b1"
    m = json.loads((d / "metrics.json").read_text())
    assert {"crossover_vs_sdpa", "speedup_vs_sdpa", "machine", "paper"} <= set(m) and m["batch"] == 1
    assert (d / "times.csv").is_file() and (d / "runtime.png").is_file()
    assert (runs / "pile" / "cpu-step" / "steps.csv").is_file()
    bf = json.loads((runs / "runtime" / "cpu" / "cpu-b1-bf16" / "params.json").read_text())
    assert bf["dtype"] == "bfloat16" and bf["provenance"]["dtype"] == "bfloat16"  # timed under autocast
    before = sorted(p for p in runs.rglob("*"))
    again = run("scripts/collect_gpu.py", smoke, "--parts", "runtime,step", "--runs", runs)
    assert again.returncode != 0 and "exists already" in again.stderr
    assert sorted(p for p in runs.rglob("*")) == before

def test_collect_refuses_a_gpu_name_that_leaves_runs_and_linked_files(smoke, tmp_path):
    bad = tmp_path / "bad"
    (bad / "pile" / "x-step").mkdir(parents=True)
    (bad / "params.json").write_text(json.dumps({"gpu": "../../x"}))
    r = run("scripts/collect_gpu.py", bad, "--parts", "step", "--runs", tmp_path / "runs")
    assert r.returncode != 0 and "single folder name" in r.stderr and not (tmp_path / "runs").exists()
    (bad / "params.json").write_text(json.dumps({"gpu": "x"}))
    (bad / "pile" / "x-step" / "steps.csv").symlink_to(smoke / "pile" / "cpu-step" / "steps.csv")
    r = run("scripts/collect_gpu.py", bad, "--parts", "step", "--runs", tmp_path / "runs")
    assert r.returncode != 0 and "(a link)" in r.stderr and not (tmp_path / "runs").exists()

def test_tune_smoke_times_a_setting_against_torch_fft(tmp_path):
    r = run("scripts/triton_tune.py", "--out", tmp_path, "--seconds", "120", "--smoke")
    assert r.returncode == 0, r.stderr[-2000:]
    import pandas as pd
    t = pd.read_csv(tmp_path / "tune.csv")
    assert (t.status == "ok").all() and (t.rel_err < 1e-5).all() and (t.torch_fft_fwd_bwd_ms > 0).all()


def test_figure43_runs_rebuild_the_committed_runtime_runs(tmp_path):
    "The GPU check's Figure 4.3 CSVs become the runtime runs the scoreboard reads; a dry check's folder is refused."
    import shutil
    sys.path.insert(0, str(ROOT / "scripts"))
    import figure43_runs
    check = tmp_path / "runs" / "gpu" / "NVIDIA_H200"
    shutil.copytree(ROOT / "runs" / "gpu" / "NVIDIA_H200" / "figure43", check / "figure43")
    shutil.copy(ROOT / "runs" / "gpu" / "NVIDIA_H200" / "params.json", check / "params.json")
    made = figure43_runs.figure43_runs(check, tmp_path / "runs")
    assert [m.name for m in made] == ["gpu-check-b64-bf16", "gpu-check-b64"]
    for m in made:
        committed = ROOT / "runs" / "runtime" / "NVIDIA_H200" / m.name
        assert json.loads((m / "metrics.json").read_text()) == json.loads((committed / "metrics.json").read_text())
    assert figure43_runs.figure43_runs(check, tmp_path / "runs") == []  # made once; nothing overwritten
    later = check.with_name("NVIDIA_H200-2")  # a second check of that GPU: its own runs beside the first's
    shutil.copytree(check, later)
    assert [m.name for m in figure43_runs.figure43_runs(later, tmp_path / "runs")] == ["gpu-check-2-b64-bf16",
                                                                                      "gpu-check-2-b64"]
    other = check.with_name("NVIDIA_H100")  # a folder whose name is not its params.json's GPU
    shutil.copytree(check, other)
    with pytest.raises(SystemExit, match="named neither"): figure43_runs.figure43_runs(other, tmp_path / "runs")
    p = json.loads((check / "params.json").read_text())
    (check / "params.json").write_text(json.dumps(dict(p, dry=True)))
    with pytest.raises(SystemExit, match="dry run"): figure43_runs.figure43_runs(check, tmp_path / "runs")
