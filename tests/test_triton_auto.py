"fftconv_impl='auto' follows the measured table, and the roofline's arithmetic (no GPU, no Triton launches)."
import json, pathlib
import pandas as pd
import pytest
import torch
from hyena_lit.kernels.fftconv_triton import AUTO_WINS, auto_uses_triton
from hyena_lit.kernels.fftconv_checks import GPU_PEAKS, conv_bytes, roofline, wins_from_bench

ROOT = pathlib.Path(__file__).resolve().parents[1]

def test_wins_from_bench_takes_runs_of_winning_lengths():
    rows = [dict(L=L, impl="torch.fft", dtype="float32", fwd_bwd_ms=10.0) for L in (1, 2, 3, 4, 5)]
    rows += [dict(L=L, impl="triton bf16", dtype="bfloat16", fwd_bwd_ms=ms) for L, ms in zip((1, 2, 3, 4, 5), (9, 9, 11, 9, 12))]
    assert wins_from_bench(pd.DataFrame(rows), "G") == {("G", "bfloat16"): ((1, 2), (4, 4))}

def test_auto_table_matches_committed_measurements():
    measured = {}
    for dev in sorted((ROOT / "runs" / "triton").glob("*/device.json")):
        measured |= wins_from_bench(pd.read_csv(dev.parent / "bench.csv"), json.loads(dev.read_text())["gpu"])
    assert not measured  # the first kernel's own tables: no forward+backward win
    from hyena_lit.kernels.monarch_fftconv import auto_kernel, auto_wins
    auto_kernel("no such GPU", torch.float32, 1024)  # fills AUTO_WINS from every committed table
    assert AUTO_WINS == auto_wins()

def test_auto_uses_triton_inside_ranges_only(monkeypatch):
    monkeypatch.setitem(AUTO_WINS, ("G", "bfloat16", "forward+backward"), ((1024, 4096, "first"),))
    assert auto_uses_triton("G", torch.bfloat16, 2000) and not auto_uses_triton("G", torch.bfloat16, 8192)
    assert not auto_uses_triton("G", torch.float32, 2000) and not auto_uses_triton("H", torch.bfloat16, 2000)

def test_roofline_h100_l1024():
    h100 = GPU_PEAKS["H100 80GB HBM3"]
    assert conv_bytes(64, 768, 1024, 4, False) == pytest.approx(0.8085e9, rel=1e-3)  # u, gates, y + the filter
    r = roofline(64, 768, 1024, "torch.fft", 4, h100, False)
    assert r["limit_ms"] == r["memory_ms"] == pytest.approx(0.2413, rel=1e-3)  # memory-bound
    half = roofline(64, 768, 1024, "triton bf16", 2, h100, False)
    assert half["memory_ms"] == pytest.approx(r["memory_ms"] / 2)
