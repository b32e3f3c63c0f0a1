"The step table of 52_gpu_step: Hyena's rows by the kernel its long convolution ran, each beside GPT's eager row."
import math
import pytest
import pandas as pd
from hyena_lit.eval.gpu_step import step_table

def rows(*r):
    cols = ("size", "mixer", "L", "compile", "fftconv_impl", "status", "tokens_per_s")
    return pd.DataFrame([dict(zip(cols, x)) for x in r])

def test_forced_kernel_rows_are_kept_apart_and_paired_with_gpt():
    before = rows(("125M", "hyena", 2048, "off", None, "ok", 100.0), ("gpt-125M", "attention", 2048, "off", None, "ok", 200.0))
    before = before.drop(columns="fftconv_impl")  # a table from before the kernel was recorded: 'auto'
    after = rows(("125M", "hyena", 2048, "off", "auto", "ok", 150.0), ("gpt-125M", "attention", 2048, "off", "", "ok", 250.0),
                 ("125M", "hyena", 2048, "off", "monarch", "ok", 300.0),
                 ("125M", "hyena", 8192, "off", "monarch_long", "error: x", math.nan))
    t = step_table(before, after, "NVIDIA H200")
    assert list(t.hyena_tok_s) == [100.0, 150.0] and set(t.kernel) == {"auto"}  # the forced row is not the default's
    assert list(t.ratio) == [0.5, 0.6]
    f = step_table(before, after, "NVIDIA H200", kernels=("monarch", "monarch_long")).dropna(subset=["hyena_tok_s"])
    assert list(f.index) == [("after", "eager", "125M", 2048)]  # the failed step is no row
    assert f.iloc[0].kernel == "monarch" and f.iloc[0].gpt_tok_s == 250.0 and f.iloc[0].ratio == 1.2

def test_a_step_whose_kernel_fell_back_is_an_error_row():
    "step_bench with a forced kernel whose build does not fit: an error row naming the fallback, not a timing."
    import os, pathlib, subprocess, sys
    root = pathlib.Path(__file__).resolve().parents[1]
    code = """
import sys, torch
import hyena_lit.kernels.monarch_fftconv as M
from hyena_lit.experiments.runtime import step_bench
sys.path.insert(0, "tests"); from refused_build import Refused
M._monarch_bwd_kernel = Refused()
row = step_bench("micro", 64, 1, steps=1, device="cpu", dtype=torch.float32, fftconv_impl="monarch")
print(row["status"]); print(row.get("tokens_per_s"))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=600,
                       env=dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(root)))
    assert r.returncode == 0, r.stderr[-2000:]
    status, tps = r.stdout.splitlines()[-2:]
    assert status.startswith("error: KernelFallback: monarch_fftconv: the backward kernel at L = 64") and tps == "None"

def test_the_forced_table_compares_with_the_same_runs_default():
    from hyena_lit.eval.gpu_step import forced_table
    after = rows(("125M", "hyena", 2048, "off", "auto", "ok", 150.0), ("gpt-125M", "attention", 2048, "off", "", "ok", 250.0),
                 ("125M", "hyena", 2048, "off", "monarch", "ok", 300.0), ("125M", "hyena", 8192, "off", "monarch_long", "ok", 90.0))
    before = rows(("125M", "hyena", 2048, "off", "auto", "ok", 100.0))
    f = forced_table(before, after, "NVIDIA H200")
    assert list(f.index) == [("eager", "125M", 2048), ("eager", "125M", 8192)]
    assert list(f.kernel) == ["monarch", "monarch_long"] and f.speed_up.iloc[0] == 2.0 and pd.isna(f.speed_up.iloc[1])
    assert f.ratio.iloc[0] == 1.2 and pd.isna(f.gpt_tok_s.iloc[1])  # no GPT step at 8K in this run
    assert forced_table(before, after.iloc[:2], "NVIDIA H200").empty  # no forced step: an empty table

def test_the_checks_of_one_gpu_are_found_in_the_order_they_ran(tmp_path, monkeypatch):
    import json
    import hyena_lit.eval.gpu_step as gs
    def check(name, started, gpu_override="NVIDIA H200", dry_run=False):
        d = tmp_path / "runs" / "gpu" / name
        d.mkdir(parents=True)
        (d / "params.json").write_text(json.dumps(dict(gpu=gpu_override, dry=dry_run, started=started)))
    check("NVIDIA_H200", started="2026-01-02T00:00:00Z")
    check("NVIDIA_H200-2", started="2026-01-01T00:00:00Z")  # unpacked second, ran first
    check("NVIDIA_H200-x", started="2026-01-04T00:00:00Z")  # not a check's name
    check("NVIDIA_H200-5", started="2026-01-06T00:00:00Z", gpu_override="NVIDIA H100")  # another GPU's params
    check("NVIDIA_H200-6", started="2026-01-07T00:00:00Z", dry_run=True)  # a dry run on a CPU
    monkeypatch.setattr(gs, "project_root", lambda: tmp_path)
    checks = gs.gpu_checks("NVIDIA_H200")
    assert checks == ["runs/gpu/NVIDIA_H200-2", "runs/gpu/NVIDIA_H200"]
    (tmp_path / "runs/gpu/NVIDIA_H200/profile").mkdir()
    (tmp_path / "runs/gpu/NVIDIA_H200/profile/summary.csv").write_text("")  # empty: a profile that crashed
    (tmp_path / "runs/gpu/NVIDIA_H200-2/profile").mkdir()
    (tmp_path / "runs/gpu/NVIDIA_H200-2/profile/summary.csv").write_text("size\n125M\n")
    assert gs.newest_with(checks, "profile/summary.csv") == "runs/gpu/NVIDIA_H200-2"
    assert gs.newest_with(checks, "steps.csv") is None

def test_two_checks_sit_side_by_side_with_one_before():
    from hyena_lit.eval.gpu_step import checks_step_table
    before = rows(("125M", "hyena", 2048, "off", "auto", "ok", 100.0), ("gpt-125M", "attention", 2048, "off", "", "ok", 200.0))
    a1 = rows(("125M", "hyena", 2048, "off", "auto", "ok", 150.0), ("gpt-125M", "attention", 2048, "off", "", "ok", 250.0))
    a2 = rows(("125M", "hyena", 2048, "off", "auto", "ok", 140.0), ("gpt-125M", "attention", 2048, "off", "", "ok", 280.0),
              ("125M", "hyena", 8192, "off", "auto", "error: x", math.nan))
    t = checks_step_table(before, {"H200": a1, "H200-2": a2}, "NVIDIA H200")
    assert list(t.index.get_level_values("measured")) == ["before", "H200", "H200-2"]
    assert list(t.ratio) == [0.5, 0.6, 0.5]


def test_a_checks_missing_as_run_floor_names_the_command():
    from hyena_lit.eval.gpu_step import as_run_floor
    assert len(as_run_floor("runs/gpu/NVIDIA_H200-2", "operator_floor.csv"))
    with pytest.raises(FileNotFoundError, match="scripts/step_floor.py --out runs/gpu/step-floor/as-run/NO_GPU --at"):
        as_run_floor("runs/gpu/NO_GPU", "floor.csv")


def test_a_commit_column_reads_as_text(tmp_path, monkeypatch):
    "A `code` column keeps a short commit as written, even one that reads as a number (6e42901, 1234567)."
    import hyena_lit.eval.gpu_step as gs
    monkeypatch.setattr(gs, "project_root", lambda: tmp_path)
    for code in ("6e42901", "1234567", "0123456", "abcdef0+"):  # one commit a file, as a check writes it
        (tmp_path / "f.csv").write_text(f"L,code\n64,{code}\n128,{code}\n")
        assert gs.read_run_csv("f.csv").code.tolist() == [code, code]
