"""The three-pass Monarch convolution (`23_monarch_long`): its float64 model against torch.fft over any split of
columns and rows, the kernels under Triton's interpreter against float64 within c u log2 N (forward and every
gradient, L = 100 to 10000 and, marked slow (`--slow`), 65536; odd batches, without gates, a filter longer than L),
the fall-back where a build does not fit, the committed AOT table and the launch chosen from it, and the roofline's
arithmetic. The interpreter runs in a child process: it must be switched on before anything imports triton."""
import math, pathlib, sys
import pandas as pd
import pytest
import torch
from hyena_lit.kernels.fftconv_triton import gated_fftconv_ref
from hyena_lit.kernels.monarch_long import LONG_LAUNCH, LONG_MAX_L, long_conv_model, long_costs, long_launch, long_plan

ROOT = pathlib.Path(__file__).resolve().parents[1]
from interpreter import child, STRIDED
AOT = ROOT / "runs" / "triton" / "aot_monarch_long.csv"

def _child(code: str, timeout: int = 600) -> str:
    return child(code, timeout)

@pytest.mark.parametrize("L", [100, 4096, 8192, 10000, 65536])
def test_model_over_any_split(L):
    g = torch.Generator().manual_seed(L)
    u, k = torch.randn(2, 2, L, generator=g, dtype=torch.float64), torch.randn(2, L, generator=g, dtype=torch.float64)
    ref = gated_fftconv_ref(u, k)
    for parts in (1, 3, 16):
        assert (long_conv_model(u, k, parts=parts) - ref).abs().max() <= 1e-12 * ref.abs().max(), parts

def test_plan():
    for L in (1, 100, 4096, 4097, 8192, 65536):
        P, q1, q2 = long_plan(L)
        assert P * q1 * q2 >= max(2 * L, 8192) and P >= 32 and (q1, q2) == (16, 16)
    assert long_plan(10000, 512) == (64, 16, 32)
    for bad, q in ((0, None), (LONG_MAX_L + 1, None), (2.0, None), (True, None), (100, 300), (8192, 1024)):
        with pytest.raises(ValueError): long_plan(bad, q)

KERNEL = """
import torch; torch.set_num_threads(1)
from hyena_lit.kernels.monarch_fftconv import check_monarch
from hyena_lit.kernels.monarch_long import monarch_long_fftconv
rows = [r for L in {lengths} for dt in {dtypes} for r in check_monarch({batch}, 2, L, dt, impl=monarch_long_fftconv)]
bad = [r for r in rows if not r["error"] <= r["bound"]]
print(len(rows), max(r["share"] for r in rows))
assert len(rows) == 6 * len({lengths}) * len({dtypes}) and not bad, bad
"""

def test_kernel_within_bound_short():
    "L = 100 and 777 (almost all of the 8192-point transform is padding), 3001 (a partial column block); three dtypes."
    _child(KERNEL.format(lengths=(100, 777, 3001), dtypes="(torch.float32, torch.float16, torch.bfloat16)", batch=3))

def test_kernel_within_bound_long():
    """L = 10000 (P = 128), float32 and bfloat16. Two rows a channel, one complex pair (the passes pair rows; the short
    lengths above add a pair's unpaired half)."""
    _child(KERNEL.format(lengths=(10000,), dtypes="(torch.float32, torch.bfloat16)", batch=2), timeout=900)

@pytest.mark.slow
def test_kernel_within_bound_at_the_longest():
    """L = 65536 (P = 512, LONG_MAX_L), float32 (the interpreter's bf16 is slow): about 160 s in the interpreter, so
    marked slow; `scripts/monarch_bench.py` checks this length compiled, in each dtype, on every GPU run (below)."""
    assert LONG_MAX_L == 65536
    _child(KERNEL.format(lengths=(LONG_MAX_L,), dtypes="(torch.float32,)", batch=2), timeout=900)

def test_the_gpu_bench_checks_the_longest():
    "The GPU benchmark's correctness cases of the passes reach LONG_MAX_L, which the CPU's default tests skip."
    sys.path.insert(0, str(ROOT / "scripts"))
    from monarch_bench import LONG_CHECK_CASES
    assert max(L for _, _, L in LONG_CHECK_CASES) == LONG_MAX_L

def test_kernel_without_gates_and_odd_shapes():
    _child("""
import torch
from hyena_lit.kernels.monarch_long import monarch_long_fftconv, long_plan
from hyena_lit.kernels.fftconv_triton import gated_fftconv_ref
from hyena_lit.kernels.fftconv_checks import error_bound
u, k, D, g = torch.randn(5, 3, 300), torch.randn(3, 320), torch.randn(3), torch.randn(5, 3, 300)
for kw, ref in ((dict(), gated_fftconv_ref(u.double(), k.double(), D.double())),
                (dict(pregate=g), gated_fftconv_ref(u.double(), k.double(), D.double(), g.double())),
                (dict(postgate=g), gated_fftconv_ref(u.double(), k.double(), D.double(), None, g.double()))):
    y = monarch_long_fftconv(u, k, D, **kw)
    err = ((y.double() - ref).abs().max() / ref.abs().max()).item()
    assert err <= error_bound(torch.float32, 300), (kw, err)
v, kv = torch.randn(1, 1, 5000), torch.randn(1, 5000)  # q = 512: a plan of 32 x 16 x 32
ref = gated_fftconv_ref(v.double(), kv.double())
assert (monarch_long_fftconv(v, kv, q=512).double() - ref).abs().max() <= error_bound(torch.float32, 5000) * ref.abs().max()
x, kk = torch.randn(1, 2, 50, requires_grad=True), torch.randn(2, 70, requires_grad=True)
gx, gk = torch.autograd.grad(monarch_long_fftconv(x, kk).square().sum(), [x, kk])
rx, rk = torch.autograd.grad(gated_fftconv_ref(x, kk).square().sum(), [x, kk])
assert gk.shape == (2, 70) and (gk[:, 50:] == 0).all()
assert (gx - rx).abs().max() <= error_bound(torch.float32, 50) * rx.abs().max()
assert (gk - rk).abs().max() <= error_bound(torch.float32, 50) * rk.abs().max()
for bad in (dict(u=torch.randn(2, 3)), dict(k=torch.randn(4, 100)), dict(q=100),
            dict(u=torch.randn(1, 3, 70000), k=torch.randn(3, 70000)), dict(precision="double")):
    args = dict(u=torch.randn(1, 3, 100), k=torch.randn(3, 100), D=torch.randn(3)) | bad
    try: monarch_long_fftconv(**args)
    except ValueError: continue
    raise AssertionError(f"no error for {list(bad)}")
""")

def test_packed_and_strided_inputs_within_bound():
    """The passes read each tensor by a batch stride, as `22_monarch_fftconv`'s kernels do: z = [post | pre | u]
    through `monarch_long_fftconv_packed` (read in place, one gradient tensor), channel slices of larger tensors, a gate
    whose time steps are not contiguous (copied); NaN-filled buffers, odd B, a partial column block (3001), float32 and
    bf16, every output and gradient within c u log2 N of float64."""
    _child(STRIDED.format(module="monarch_long", fn="monarch_long_fftconv",
                          cases="((3, 2, 100), (1, 3, 3001))", dtypes="(torch.float32, torch.bfloat16)"), timeout=900)

def test_passes_fall_back_where_a_build_does_not_fit():
    _child("""
import sys, warnings, torch
from hyena_lit.kernels.monarch_fftconv import KernelFallback
import hyena_lit.kernels.monarch_long as M
sys.path.insert(0, "tests"); from refused_build import Refused, packed_errors
for name, says in (("_long_b_bwd_kernel", ("backward pass at L = 300", "monarch_backward_torch_fft")),
                   ("_long_b_kernel", ("forward pass at L = 300", "gated_fftconv_ref"))):
    kernel = getattr(M, name)
    setattr(M, name, Refused())
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        from hyena_lit.kernels.monarch_fftconv import check_monarch
        rows = check_monarch(3, 2, 300, torch.float32, impl=M.monarch_long_fftconv)
        errs, bound = packed_errors(M.monarch_long_fftconv_packed)  # the packed form's fallback: one gradient tensor
    assert all(r["error"] <= r["bound"] for r in rows) and max(errs) <= bound, (name, rows, errs)
    assert any(all(t in str(x.message) for t in says) and x.category is KernelFallback for x in w), \
        (name, [(x.category, str(x.message)) for x in w])
    setattr(M, name, kernel)
""")

def test_costs_count_the_scratch():
    "The forward moves the inputs and output (6 BCL elements) and the scratch four times; flops as the factors say."
    B, C, L, e = 4, 3, 4096, 2
    f = long_costs(B, C, L, e, backward=False)
    N, S = 8192, 2 * C * 2 * 8192 * e
    assert sum(c["bytes"] for c in f) == 6 * B * C * L * e + 4 * S + 8 * C * N
    # a pair and channel: two half-width 32-point products (4 N P each) and two row transforms (8 N (16 + 16) each)
    assert sum(c["tensor"] for c in f) == 2 * C * (2 * 4 * N * 32 + 2 * 8 * N * 32)
    b = long_costs(B, C, L, e, backward=True)
    assert [c["name"] for c in b] == ["a x2", "b_bwd", "c_bwd", "c (dk)"]
    # inputs x, dz (4 BCL), gradients (3 BCL) and the epilogue's re-reads (4 BCL); two scratch tiles, each written,
    # read and written, read; the filter's spectrum; dk's tile written and read; dk
    assert sum(c["bytes"] for c in b) == 11 * B * C * L * e + 8 * S + 8 * C * N + 4 * C * N * e + 4 * C * L

def test_auto_takes_the_passes_where_a_table_says_they_win(monkeypatch):
    "A table row 'monarch long bf16' that beat torch.fft maps to 'monarch_long', and the operator calls the passes there."
    import types
    import hyena_lit.kernels.fftconv_triton as ft
    from hyena_lit.core.operator import HyenaOperator
    import hyena_lit.core.operator as operator_module
    from hyena_lit.kernels.monarch_fftconv import AUTO_KERNELS
    from hyena_lit.kernels.monarch_long import monarch_long_fftconv
    assert AUTO_KERNELS["monarch long bf16"] == AUTO_KERNELS["monarch long fp32"] == "monarch_long"
    monkeypatch.setattr(ft, "AUTO_WINS", {("NVIDIA H200", "bfloat16", "forward+backward"): ((16384, 65536, "monarch_long"),)})
    monkeypatch.setattr(ft, "AUTO_WINS_FILLED", True)
    monkeypatch.setattr(operator_module, "_gpu_name", lambda index: "NVIDIA H200")  # asked once a device
    op = HyenaOperator(8, 16)
    for L, want in ((8192, None), (16384, monarch_long_fftconv), (65536, monarch_long_fftconv)):
        v = types.SimpleNamespace(is_cuda=True, device=torch.device("cuda", 0), dtype=torch.bfloat16, shape=(2, 8, L))
        assert op._fused(v, None, True) is want, L

def test_launches_are_the_tables_choice():
    "LONG_LAUNCH is what `long_choose_launch` reads from the committed table, for every pass, N and products."
    from hyena_lit.kernels.monarch_long import long_choose_launch
    t = pd.read_csv(AOT, dtype={"triton": str})
    choice = long_choose_launch(t)
    every = {(p, k, N) for p in LONG_LAUNCH for k in LONG_LAUNCH[p] for N in LONG_LAUNCH[p][k]}
    assert set(choice) == every and choice == {key: long_launch(key[2], key[1], key[0]) for key in choice}
    assert every >= {(p, k, N) for p in ("bf16", "tf32x3") for k in ("a", "b", "c", "b_bwd", "c_bwd")
                     for N in (8192, 16384, 32768, 65536, 131072)}

def test_launched_builds_do_not_spill():
    "Every pass's launched build, at every N, products and target, holds everything in registers (0 spill bytes)."
    t = pd.read_csv(AOT, dtype={"triton": str})
    t = t[t.triton == "3.6.0"]
    used = t[[long_launch(math.prod(long_plan(int(r.L))), r.kernel, r.prec) == (r.num_warps, r.rows, r.cols, r.num_stages)
              for r in t.itertuples()]]
    assert set(used.sm) == {80, 90} and len(used) == 2 * 2 * 5 * 5  # every pass, N, products and target
    spilled = {(int(r.sm), r.prec, r.kernel, int(r.L)) for r in used.itertuples() if r.spill_stack_bytes > 0}
    assert not spilled and used.launches.all(), spilled
