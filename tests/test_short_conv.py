"""The short filter's Triton kernel (`24_short_conv`): under Triton's interpreter within its bound (every output and
gradient, odd sizes), the committed AOT table against the code and the script, `short_auto`'s reading of committed GPU
tables, and the benchmark script's dry run. The interpreter runs in a child process: it must be on before anything
imports triton."""
import json, pathlib, sys
import pandas as pd
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
from interpreter import child


def test_kernel_within_the_bound_at_odd_sizes():
    out = child("""
import json, torch
from hyena_lit.kernels.short_conv import check_short_conv
rows = []
for B, C, L, K, bias in ((1, 1, 1, 3, True), (3, 7, 513, 3, True), (2, 3, 1025, 2, False), (1, 2, 333, 7, True)):
    for dt in (torch.float32, torch.bfloat16, torch.float16):
        rows.append(check_short_conv(B, C, L, K, dt, bias, seed=B + L))
print(json.dumps(rows))
""")
    rows = json.loads(out.splitlines()[-1])
    assert len(rows) == 12 and all(0 <= v <= 1 for r in rows for v in r.values()), rows
    assert sum(len(r) for r in rows) == 12 * 4 - 3 * 1  # every output and gradient, db where there is a bias

def test_only_the_gradients_asked_for_and_bad_arguments_fail_early():
    child("""
import torch
from hyena_lit.kernels.short_conv import short_conv_triton, short_conv_plain
u = torch.randn(2, 3, 40, requires_grad=True)
w = torch.randn(3, 1, 3)
b = torch.randn(3, requires_grad=True)
short_conv_triton(u, w, b).sum().backward()
u2, b2 = u.detach().double().requires_grad_(), b.detach().double().requires_grad_()
short_conv_plain(u2, w.double(), b2).sum().backward()
# g = 1: du sums at most K = 3 taps, db sums B L = 80 ones (exact in float32); 24_short_conv's bound for du
assert w.grad is None and torch.equal(b.grad.double(), b2.grad)
assert (u.grad.double() - u2.grad).abs().max() <= 4 * torch.finfo(torch.float32).eps / 2 * w.abs().sum(-1).max()
for args in ((torch.randn(3, 40), w), (u, torch.randn(3, 3)), (u, torch.randn(3, 1, 17)), (u, w, torch.randn(2))):
    try: short_conv_triton(*args)
    except ValueError: continue
    raise AssertionError(args)
""")

def test_the_aot_table_holds_every_build_of_the_script_without_spills():
    sys.path.insert(0, str(ROOT / "scripts"))
    import short_conv_aot
    from hyena_lit.kernels.short_conv import SHORT_BLOCK_L, SHORT_WARPS
    t = pd.read_csv(ROOT / "runs" / "triton" / "aot_short_conv.csv")
    built = set(zip(t.sm, t.kernel, t.dtype, t.K, t.block, t.num_warps))
    assert built == set(short_conv_aot.jobs())
    used = t[(t.block == SHORT_BLOCK_L) & (t.num_warps == SHORT_WARPS)]
    assert len(used) == 8 and (used.spill_stack_bytes == 0).all() and used.launches.all()
    # every committed build loads no wider than its addresses' alignment allows (24_short_conv's model)
    from hyena_lit.kernels.short_conv import short_load_model
    elem = {"bf16": 2, "fp16": 2, "fp32": 4}
    assert all(r.global_loads == short_load_model(r.kernel, elem[r.dtype], r.K, r.block, r.num_warps)
               for r in t.itertuples())

def test_the_kernels_as_built_here_load_no_wider_than_their_alignment():
    """The launch's kernels compiled for sm_90 and sm_80 by the installed Triton (its compiler, not its interpreter):
    the PTX's global loads by width equal `short_load_model`, at K = 3 and at K = 5 (shifts 4, 3: widths 4 and 1)."""
    import subprocess
    code = """
import json
from hyena_lit.kernels.short_conv import short_conv_compile, short_load_model
rows = []
for sm, kernel, dtype, K in ((90, "forward", "bf16", 3), (90, "backward", "bf16", 3), (80, "forward", "fp32", 5),
                             (90, "backward", "fp16", 5)):
    r = short_conv_compile(sm, kernel, dtype, K)
    rows.append((r["global_loads"], short_load_model(kernel, 4 if dtype == "fp32" else 2, K)))
print(json.dumps(rows))
"""
    env = {k: v for k, v in __import__("os").environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = str(ROOT)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    rows = json.loads(r.stdout.splitlines()[-1])
    assert all(got == want for got, want in rows), rows

def _table(root: pathlib.Path, gpu: str, rows: list[tuple]):
    d = root / "runs" / "gpu" / gpu.replace(" ", "_") / "kernels" / "short_conv"
    d.mkdir(parents=True)
    (d / "device.json").write_text(json.dumps(dict(gpu=gpu)))
    pd.DataFrame([dict(B=B, C=2304, L=L, dtype=dt, impl=impl, status="ok", fwd_bwd_ms=ms)
                  for B, L, dt, impl, ms in rows]).to_csv(d / "short_conv.csv", index=False)

def test_auto_takes_the_kernel_only_where_it_won_at_every_shape(tmp_path):
    from hyena_lit.kernels.short_conv import short_auto
    _table(tmp_path, "GPU 1", [(8, 2048, "bfloat16", "torch conv1d", 0.4), (8, 2048, "bfloat16", "triton", 0.1),
                               (2, 8192, "bfloat16", "torch conv1d", 0.4), (2, 8192, "bfloat16", "triton", 0.2),
                               (8, 2048, "float32", "torch conv1d", 0.4), (8, 2048, "float32", "triton", 0.5)])
    assert short_auto("GPU 1", "bfloat16", str(tmp_path))
    assert not short_auto("GPU 1", "float32", str(tmp_path))   # lost at a shape
    assert not short_auto("GPU 2", "bfloat16", str(tmp_path))  # never measured there
    assert not short_auto("GPU 1", "float16", str(tmp_path))

def test_the_operator_keeps_torch_on_cpu_and_names_the_device_when_forced(monkeypatch):
    import torch
    from hyena_lit.core.operator import HyenaOperator
    op = HyenaOperator(8, 16)
    assert op._short_kernel(torch.randn(1, 24, 16)) is False  # 'auto' on a CPU
    op.fftconv_impl = "monarch"
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    assert op._short_kernel(torch.randn(1, 24, 16)) is True  # forced: the kernel, under the interpreter
    monkeypatch.delenv("TRITON_INTERPRET")  # read at the call: a CPU tensor without the interpreter is refused
    with pytest.raises(RuntimeError, match="CUDA GPU.*input is on cpu"): op._short_kernel(torch.randn(1, 24, 16))

def test_bench_dry_run(tmp_path):
    child(f"""
import sys; sys.path.insert(0, "scripts")
import short_conv_bench
args = ["--out", {str(tmp_path)!r}, "--dry", "--reps", "2"]
short_conv_bench.main(args)
import pandas as pd, pathlib
first = pd.read_csv(pathlib.Path(args[1]) / "short_conv.csv")
short_conv_bench.main(args)  # a second call: every row kept, none timed again
assert pd.read_csv(pathlib.Path(args[1]) / "short_conv.csv").equals(first)
""")
    b = pd.read_csv(tmp_path / "short_conv.csv")
    assert set(b.impl) == {"torch conv1d", "torch shifted", "triton"} and (b.status == "ok").all()
    assert (b.fwd_bwd_bytes == 5 * b.B * b.C * b.L * b.dtype.map({"bfloat16": 2, "float32": 4})).all()
    c = pd.read_csv(tmp_path / "short_conv_correctness.csv")
    assert len(c) == 8 and (c.share <= 1).all() and (c.status == "ok").all()
    assert json.loads((tmp_path / "device.json").read_text())["dry"] is True
