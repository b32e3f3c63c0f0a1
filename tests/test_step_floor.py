"""scripts/step_floor.py: the roofline floor of a training step, counted on fake tensors; and its committed table
(runs/gpu/step-floor/), which 52_gpu_step reads beside the measured steps."""
import math
import sys
from pathlib import Path

import pandas as pd
import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
FLOOR = ROOT / "runs" / "gpu" / "step-floor"
sys.path.insert(0, str(ROOT / "scripts"))


def test_flops_by_hand():
    import step_floor as sf
    aten = torch.ops.aten
    a, b = torch.ones(3, 5, dtype=torch.bfloat16), torch.ones(5, 7, dtype=torch.bfloat16)
    assert sf.op_flops(aten.mm.default, (a, b), {}, a @ b) == (2 * 3 * 5 * 7, "half")
    x = torch.ones(2, 4, 64)
    X = torch.fft.rfft(x)
    assert sf.op_flops(aten._fft_r2c.default, (x, [2], 0, True), {}, X) == (int(2.5 * 64 * 6 * 8), "fp32")
    assert sf.op_flops(aten._fft_c2r.default, (X, [2], 0, 64), {}, x) == (int(2.5 * 64 * 6 * 8), "fp32")
    q = torch.ones(2, 3, 16, 8, dtype=torch.bfloat16)
    full = 2 * 2 * 2 * 3 * 16 * 16 * 8
    assert sf._attention_flops("_scaled_dot_product_flash_attention", q, causal=False) == full
    assert sf._attention_flops("_scaled_dot_product_flash_attention", q, causal=True) == full // 2
    assert sf._attention_flops("_scaled_dot_product_flash_attention_backward", q, causal=True) == full
    assert sf.op_flops(aten.add.Tensor, (a, a), {}, a + a) == (0, "none")


def test_a_depthwise_convolutions_backward_is_twice_its_forward():
    "torch's formula charges a depthwise input gradient as a dense one; the floor charges both gradients as the forward."
    import step_floor as sf
    aten = torch.ops.aten
    B, C, L, K = 2, 6, 20, 3
    x, w = torch.ones(B, C, L), torch.ones(C, 1, K)
    y = aten.convolution.default(x, w, None, [1], [K - 1], [1], False, [0], C)
    fwd, _ = sf.op_flops(aten.convolution.default, (x, w, None, [1], [K - 1], [1], False, [0], C), {}, y)
    assert fwd == 2 * B * C * K * y.shape[-1]
    args = (y, x, w, [C], [1], [K - 1], [1], False, [0], C, [True, True, False])
    assert sf.op_flops(aten.convolution_backward.default, args, {}, None)[0] == 2 * fwd


@pytest.mark.parametrize("size", ["tiny", "gpt-tiny"])
def test_a_small_steps_floor(size):
    import step_floor as sf
    from hyena_lit.kernels.fftconv_checks import GPU_PEAKS
    rows = {c: sf.step_floor(size, 128, 2, "H200", conv=c) for c in ("torch", "fused")}
    for c, (row, ops) in rows.items():
        assert row["conv"] == c and row["launching_ops"] == sum(o["calls"] for o in ops) - 1  # AdamW apart
        assert row["floor_ms"] == pytest.approx(sum(o["floor_ms"] for o in ops), rel=1e-3, abs=1e-3)
        # no operator is faster than its bytes over the bandwidth
        assert row["floor_ms"] >= 1e3 * row["gb_moved"] * 1e9 / GPU_PEAKS["H200"]["bandwidth"] * 0.99  # (both rounded)
    (t, t_ops), (f, f_ops) = rows["torch"], rows["fused"]
    fused_ops = {o["op"] for o in f_ops if o["op"].startswith("fused ")}
    if size == "tiny":  # Hyena: each block's convolutions become one call each way; the rest is untouched
        assert fused_ops == {f"fused {k} {d}" for k in ("long", "short") for d in ("forward", "backward")}
        assert f["floor_ms"] < t["floor_ms"] and f["gb_moved"] < t["gb_moved"]
    else:
        assert not fused_ops and f["floor_ms"] == t["floor_ms"] and f["launching_ops"] == t["launching_ops"]


def test_step_floor_refuses_what_it_does_not_know(tmp_path):
    import step_floor as sf
    with pytest.raises(ValueError, match="conv must be"):
        sf.step_floor("tiny", 64, 1, conv="triton")
    with pytest.raises(ValueError, match="gpu must be one of"):
        sf.step_floor("tiny", 64, 1, gpu="TPU")
    for bad, msg in ((["--rows", "tiny:64"], "size:L:batch"), (["--rows", "tiny:0:1"], "size:L:batch"),
                     (["--rows", "huge:64:1"], "unknown size"), (["--gpu", "TPU"], "--gpu takes"),
                     (["--conv", "torch,torch"], "--conv takes"), (["--dtype", "float32"], "--dtype must")):
        with pytest.raises(SystemExit, match=msg):
            sf.main(["--out", str(tmp_path), *bad])
    (tmp_path / "floor.csv").write_text("x\n")
    with pytest.raises(SystemExit, match="exists"):
        sf.main(["--out", str(tmp_path), "--rows", "tiny:64:1"])


def floors() -> pd.DataFrame:
    f = pd.read_csv(FLOOR / "floor.csv")
    return f.assign(tokens_per_s=f.L * f.batch / f.floor_ms * 1e3)


def test_the_committed_floors_cover_the_step_tables_rows():
    f = floors()
    assert set(f.gpu) == {"H200", "A100-SXM4-80GB"} and set(f.conv) == {"torch", "fused"}
    assert len(f) == len(f.drop_duplicates(["size", "L", "batch", "conv", "gpu"]))
    for (size, L, batch) in [("125M", 2048, 8), ("gpt-125M", 2048, 8), ("125M", 8192, 2), ("gpt-125M", 8192, 2),
                             ("125M", 16384, 1), ("gpt-125M", 16384, 1), ("355M", 2048, 8), ("gpt-355M", 2048, 8)]:
        assert len(f[(f["size"] == size) & (f.L == L) & (f.batch == batch)]) == 4, (size, L, batch)
    att, hy = f[f.mixer == "attention"], f[f.mixer == "hyena"]
    key = ["size", "L", "batch", "gpu"]
    a = att.pivot_table(index=key, columns="conv", values="floor_ms")
    assert (a.torch == a.fused).all()  # fusing Hyena's convolutions leaves GPT alone
    h = hy.pivot_table(index=key, columns="conv", values="floor_ms")
    assert (h.fused < h.torch).all()


def test_a_measured_step_is_no_faster_than_its_floor():
    "Every H200 step measured (before and after the lean step) took longer than the floor of its graph as it is now."
    f = floors()
    f = f[(f.gpu == "H200") & (f.conv == "torch")].set_index(["size", "L", "batch"]).floor_ms
    for path in ("runs/pile/NVIDIA_H200-step/steps.csv", "runs/gpu/NVIDIA_H200-2/steps.csv"):
        m = pd.read_csv(ROOT / path)
        m = m[(m.status == "ok") & (m.get("fftconv_impl", pd.Series("auto", index=m.index)).fillna("") .isin(["auto", ""]))]
        seen = 0
        for r in m.itertuples():
            if (r.size, r.L, r.batch) in f.index:
                assert r.step_ms > f[(r.size, r.L, r.batch)], (path, r.size, r.L)
                seen += 1
        assert seen >= 4, path


def test_the_default_rows_hold_every_step_the_gpu_check_measures():
    import gpu_check
    import step_floor as sf
    rows = set(sf.parse_rows(sf.ROWS))
    assert {(s, L, B) for s, L, B, _, _ in gpu_check.step_plan(dry=False)} <= rows
    committed = {(r.size, r.L, r.batch) for r in floors().itertuples()}
    assert rows == committed  # the committed table is the default rows'


def test_the_floor_counts_a_gpus_graph_unblocked():
    "At 4K and beyond 12_operator mixes channels in blocks on a CPU only: the floor counts one call a layer each way."
    import step_floor as sf
    from hyena_lit.models.model import HyenaConfig
    _, ops = sf.step_floor("tiny", 4096, 1, conv="fused")
    calls = {o["op"]: o["calls"] for o in ops}
    n = HyenaConfig.from_size("tiny").n_layer
    assert all(calls[f"fused {k} {d}"] == n for k in ("long", "short") for d in ("forward", "backward")), calls


def test_an_operators_floor():
    "Figure 4.3's points: fusing the convolutions lowers Hyena's floor and leaves SDPA's; a backward costs more."
    import step_floor as sf
    f = {(op, c, b): sf.operator_floor(op, 2048, 8, conv=c, d_model=128, n_heads=2, backward=b)[0]["floor_ms"]
         for op in ("hyena", "sdpa") for c in ("torch", "fused") for b in (False, True)}
    for b in (False, True):
        assert f[("hyena", "fused", b)] < f[("hyena", "torch", b)] and f[("sdpa", "fused", b)] == f[("sdpa", "torch", b)]
    assert all(f[(op, c, True)] > f[(op, c, False)] for op in ("hyena", "sdpa") for c in ("torch", "fused"))
    with pytest.raises(ValueError, match="op must be"):
        sf.operator_floor("attention", 64)
    with pytest.raises(SystemExit, match="--lengths takes"):
        sf.main(["--out", "unused", "--operators", "--lengths", "1024,x"])


def test_the_committed_operator_floors_cover_the_gpu_checks_figure():
    import step_floor as sf
    from hyena_lit.experiments.runtime import GPU_CHECK_SWEEP
    f = pd.read_csv(FLOOR / "operator_floor.csv")
    assert set(GPU_CHECK_SWEEP["ops"]) == set(f.operator) == set(sf.OPS)
    assert set(GPU_CHECK_SWEEP["lengths"]) == set(f.L) and set(f.B) == {64} and set(f.D) == {GPU_CHECK_SWEEP["d_model"]}
    assert len(f) == len(f.drop_duplicates(["operator", "pass", "L", "conv", "gpu"])) == 3 * 2 * 6 * 2 * 2


def test_a_checks_measurements_are_read_beside_the_floor_of_the_graph_it_ran():
    """runs/gpu/step-floor/as-run/<check>/: the floors of the code a GPU check ran (the last commit before it started),
    each recording that commit; the check's steps and Figure 4.3 points are no faster than them."""
    import json, subprocess
    base = FLOOR / "as-run"
    for check in ("NVIDIA_H200", "NVIDIA_H200-2"):
        p = json.loads((base / check / "params.json").read_text())
        started = json.loads((ROOT / p["check"] / "params.json").read_text())["started"]
        assert p["check"] == f"runs/gpu/{check}" and p["check_started"] == started
        tables = [pd.read_csv(f, dtype={"code": str}) for f in sorted((base / check).glob("*floor.csv"))]
        assert tables and all((t.code == p["code"]).all() and (t.gpu == "H200").all() for t in tables)
        log = subprocess.run(["git", "log", "-1", "--format=%h", f"--before={started}", "--abbrev=7"], cwd=ROOT,
                             capture_output=True, text=True)
        if log.returncode == 0 and log.stdout.strip():  # a clone with its history: the commit is the last before
            assert log.stdout.strip() == p["code"], (check, log.stdout)
    steps = pd.read_csv(ROOT / "runs/gpu/NVIDIA_H200/steps.csv")
    steps = steps[(steps.status == "ok") & (steps["compile"] == "off")]
    ran = pd.read_csv(base / "NVIDIA_H200" / "floor.csv").set_index(["size", "L", "batch"]).floor_ms
    assert len(steps) >= 8 and all(r.step_ms > ran[(r.size, r.L, r.batch)] for r in steps.itertuples())
    fig = pd.read_csv(ROOT / "runs/gpu/NVIDIA_H200-2/figure43/b64-bf16.csv")
    ops = pd.read_csv(base / "NVIDIA_H200-2" / "operator_floor.csv")
    ops = ops[(ops.conv == "torch")].set_index(["operator", "pass", "L"]).floor_ms
    fig = fig[fig.status == "ok"].rename(columns={"pass": "part"})  # `pass` is no attribute name
    assert len(fig) >= 20 and all(r.ms > ops[(r.op, r.part, r.L)] for r in fig.itertuples())


def test_a_floor_counts_the_code_of_a_commit(tmp_path):
    """--at counts another commit's code with these counting scripts, in a worktree removed after; a name that is no
    commit (or looks like an option) is refused before any work."""
    import subprocess
    import step_floor as sf
    git = lambda *a: subprocess.run(["git", *a], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    head, trees = git("rev-parse", "--short=7", "HEAD"), git("worktree", "list")
    sf.main(["--out", str(tmp_path / "f"), "--rows", "tiny:64:2", "--gpu", "H200", "--conv", "torch", "--at", "HEAD"])
    t = pd.read_csv(tmp_path / "f" / "floor.csv", dtype={"code": str})  # a commit like 6e42901 is no float
    assert len(t) == 1 and (t.code.str.rstrip("+") == head).all() and git("worktree", "list") == trees
    for bad in ("-h", "no-such-commit", ""):
        with pytest.raises(SystemExit, match="is not a commit"):
            sf.main(["--out", str(tmp_path / "g"), f"--at={bad}"])
    assert not (tmp_path / "g").exists()
