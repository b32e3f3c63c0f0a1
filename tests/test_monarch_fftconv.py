"""The Monarch FFT convolution (`22_monarch_fftconv`): its float64 model against torch.fft, the kernel under Triton's
interpreter against float64 within c u log2 N (forward and every gradient, odd and power-of-two lengths, both plans),
the committed AOT table, the roofline's arithmetic and the benchmark script's dry run. The interpreter runs in a child
process: it must be switched on before anything imports triton."""
import json, math, pathlib, sys
import pandas as pd
import pytest
import torch
from hyena_lit.kernels.monarch_fftconv import (MONARCH_LAUNCH, MONARCH_MAX_L, monarch_conv_model, monarch_cost, monarch_dft,
                                               monarch_launch, monarch_plan, monarch_tile_fft, monarch_tile_ifft,
                                               monarch_transform_flops, spectrum_order)

ROOT = pathlib.Path(__file__).resolve().parents[1]
from interpreter import child, STRIDED


@pytest.mark.parametrize("factors", [(3, 5, 7), (4, 9), (2, 2, 2, 2, 3), (32, 16), (32, 16, 16), (32, 16, 32)])
def test_model_is_the_dft(factors):
    x = torch.randn(2, math.prod(factors), dtype=torch.complex128, generator=torch.Generator().manual_seed(0))
    assert (monarch_dft(x, factors) - torch.fft.fft(x)).abs().max() < 1e-12 * math.prod(factors)

@pytest.mark.parametrize("L", [64, 100, 777, 1024, 3001, 4096, 8192])
def test_tile_transforms_with_implicit_padding(L):
    f = monarch_plan(L)
    n1, m = f[0], math.prod(f[1:])
    x = torch.zeros(n1 * m, dtype=torch.complex128)
    x[:L] = torch.randn(L, dtype=torch.complex128, generator=torch.Generator().manual_seed(L))
    tile = monarch_tile_fft(x[: n1 // 2 * m].view(n1 // 2, m), f)
    assert (tile.flatten() - torch.fft.fft(x)[spectrum_order(f)]).abs().max() < 1e-12 * n1 * m
    assert (monarch_tile_ifft(tile, f).flatten() / (n1 * m) - x[: n1 // 2 * m]).abs().max() < 1e-12
    assert all(16 <= n <= 64 for n in f) and math.prod(f) >= 2 * L

@pytest.mark.parametrize("L", [100, 777, 2048, 3001, 8192])
def test_blocks_of_rows_sum_to_the_convolution(L):
    "The spectrum formed, filtered and inverted RB rows at a time (the kernel's blocks): the shares sum to the whole."
    from hyena_lit.kernels.fftconv_triton import gated_fftconv_ref
    g = torch.Generator().manual_seed(L)
    u, k = torch.randn(2, 2, L, generator=g, dtype=torch.float64), torch.randn(2, L, generator=g, dtype=torch.float64)
    ref = gated_fftconv_ref(u, k)
    for rb in [r for r in (16, 32, 64) if r <= monarch_plan(L)[0]]:
        assert (monarch_conv_model(u, k, rb) - ref).abs().max() <= 1e-12 * ref.abs().max(), rb

def test_plan_refuses_what_is_not_built():
    for bad in (0, MONARCH_MAX_L + 1, 2.0):
        with pytest.raises(ValueError): monarch_plan(bad)

KERNEL = """
import torch; torch.set_num_threads(1)
from hyena_lit.kernels.monarch_fftconv import check_monarch
rows = [r for L in {lengths} for dt in (torch.float32, torch.float16, torch.bfloat16) for r in check_monarch(3, 2, L, dt)]
bad = [r for r in rows if not r["error"] <= r["bound"]]
print(len(rows), max(r["share"] for r in rows))
assert len(rows) == 18 * len({lengths}) and not bad, bad
"""

def test_kernel_within_bound_two_factors():
    "L = 64, 100, 777, 1024: N = 512 and 2048, two factors; B = 3 leaves the last pair one row."
    child(KERNEL.format(lengths=(64, 100, 777, 1024)))

def test_kernel_within_bound_three_factors():
    "L = 3001, 4096 (N = 32 x 16 x 16) and 8192 (32 x 16 x 32)."
    child(KERNEL.format(lengths=(3001, 4096, 8192)))

def test_kernel_in_blocks_of_rows():
    "The kernel at 16 rows a block and at the whole tile (N1 rows), whatever the launch table picks, within bound."
    child("""
import torch; torch.set_num_threads(1)
import hyena_lit.kernels.monarch_fftconv as M
for rb in (16, None):
    with M.monarch_rows(rb):
        assert all(r == (rb or M.monarch_plan(N // 2)[0]) for t in M.MONARCH_LAUNCH.values() for k in t.values()
                   for N, (w, r, s) in k.items())
        rows = [r for L in (100, 2048, 3001) for dt in (torch.float32, torch.bfloat16) for r in M.check_monarch(3, 2, L, dt)]
    assert len(rows) == 36 and all(r["error"] <= r["bound"] for r in rows), (rb, [r for r in rows if not r["error"] <= r["bound"]])
""")

def test_kernel_without_gates_and_with_pairs():
    child("""
import torch
from hyena_lit.kernels.monarch_fftconv import monarch_fftconv
from hyena_lit.kernels.fftconv_triton import gated_fftconv_ref
from hyena_lit.kernels.fftconv_checks import error_bound
u, k, D = torch.randn(5, 3, 300), torch.randn(3, 320), torch.randn(3)
g = torch.randn(5, 3, 300)
for kw, ref in ((dict(), gated_fftconv_ref(u.double(), k.double(), D.double())),
                (dict(pregate=g), gated_fftconv_ref(u.double(), k.double(), D.double(), g.double())),
                (dict(postgate=g, pairs=2), gated_fftconv_ref(u.double(), k.double(), D.double(), None, g.double()))):
    y = monarch_fftconv(u, k, D, **kw)
    err = ((y.double() - ref).abs().max() / ref.abs().max()).item()
    assert err <= error_bound(torch.float32, 300), (kw, err)
for bad in (dict(u=torch.randn(2, 3)), dict(k=torch.randn(4, 100)), dict(pairs=0),
            dict(u=torch.randn(1, 3, 9000), k=torch.randn(3, 9000)), dict(precision="double")):
    args = dict(u=torch.randn(1, 3, 100), k=torch.randn(3, 100), D=torch.randn(3)) | bad
    try: monarch_fftconv(**args)
    except ValueError: continue
    raise AssertionError(f"no error for {list(bad)}")
""")

def test_packed_and_strided_inputs_within_bound():
    """The kernels read each tensor by a batch stride: z = [post | pre | u] (B, 3C, L) through `monarch_fftconv_packed`
    (read in place, the gradient one tensor the backward fills: NaN-filled, odd B, both plans, float32 and bf16), and
    `monarch_fftconv` on channel slices of larger tensors and on a gate whose time steps are not contiguous (copied):
    every output and gradient within c u log2 N of float64."""
    child(STRIDED.format(module="monarch_fftconv", fn="monarch_fftconv",
                         cases="((3, 2, 100), (1, 3, 777), (3, 2, 3001))", dtypes="(torch.float32, torch.bfloat16)"),
          timeout=900)

AOT = ROOT / "runs" / "triton" / "aot_monarch.csv"
AOT_V1 = ROOT / "runs" / "triton" / "aot_monarch_v1.csv"  # the first version (whole spectral tile), as the H200 ran it

def test_aot_table_matches_the_plans_and_widths():
    t = pd.read_csv(AOT)
    assert len(t)
    assert "error" not in t or t.error.isna().all()  # every compile built
    assert (t.factors == ["x".join(map(str, monarch_plan(int(L)))) for L in t.L]).all()
    assert (t.used == [monarch_launch(monarch_plan(int(r.L)), r.kernel, r.prec) == (r.num_warps, r.rows, r.num_stages)
                       for r in t.itertuples()]).all()
    assert t.occupancy.between(0, 1).all() and (t.registers <= 255).all()
    # the two-factor forward at L = 1024 holds everything in registers on sm_90
    fwd = t[(t.sm == 90) & (t.prec == "bf16") & (t.kernel == "forward") & (t.L == 1024) & t.used]
    assert len(fwd) == 1 and fwd.spill_stack_bytes.item() == 0 and fwd.launches.item()
    assert all(set(MONARCH_LAUNCH[p][k]) == {512, 1024, 2048, 4096, 8192, 16384}
               for p in ("bf16", "tf32x3") for k in ("forward", "backward"))
    assert monarch_launch((32, 16), "forward", "fp16") == monarch_launch((32, 16), "forward", "bf16")  # same tiles
    assert all(16 <= r and monarch_plan(N // 2)[0] % r == 0 for p in MONARCH_LAUNCH.values() for k in p.values()
               for N, (w, r, s) in k.items())

def test_launches_are_the_tables_choice():
    """MONARCH_LAUNCH is what `monarch_choose_launch` reads from the committed table for every plan, kernel and
    products (least spill on the worse target, then the best occupancy, the most rows, the fewest warps, the deeper
    pipeline)."""
    from hyena_lit.kernels.monarch_fftconv import monarch_choose_launch
    t = pd.read_csv(AOT, dtype={"triton": str})
    choice = monarch_choose_launch(t)
    every = {(p, k, N) for p in ("bf16", "tf32x3") for k in ("forward", "backward") for N in MONARCH_LAUNCH[p][k]}
    assert set(choice) == every
    assert choice == {key: monarch_launch(monarch_plan(key[2] // 2), key[1], key[0]) for key in choice}

# the launched builds that spill (sm, products, kernel, L), named in the chapter: with bf16 products none of the
# two-factor plans (L <= 2048) but sm_80's backward at 2048 (16 B), and every launch built for the three-factor plans
# (L = 4096, 8192); with tf32x3 products (operands split in two) the backward at every length and the forward from 4096
SPILLS = ({(80, "bf16", "backward", 2048)}
          | {(sm, "bf16", k, L) for sm in (80, 90) for k in ("forward", "backward") for L in (4096, 8192)}
          | {(sm, "tf32x3", "backward", L) for sm in (80, 90) for L in (256, 512, 1024, 2048, 4096, 8192)}
          | {(sm, "tf32x3", "forward", L) for sm in (80, 90) for L in (4096, 8192)})

def test_launched_builds_spill_only_where_documented():
    "0 spill bytes in every build the kernel launches, but for exactly the documented exceptions (SPILLS)."
    t = pd.read_csv(AOT, dtype={"triton": str})
    used = t[t.used & (t.triton == "3.6.0")]
    spilled = {(int(r.sm), r.prec, r.kernel, int(r.L)) for r in used.itertuples() if r.spill_stack_bytes > 0}
    assert spilled == SPILLS, spilled ^ SPILLS

SHARED_LIMIT = {90: 232448, 80: 166912}  # bytes of shared memory a block may use: H100/H200, A100

# the targets and products compiled at every plan (COMPLETE)
COMPLETE = {(90, "bf16"), (90, "tf32x3"), (80, "bf16"), (80, "tf32x3")}

# the launched builds beyond sm_80's shared memory (the kernel would fall back to torch.fft there, with a warning)
SM80_OVER = set()

def test_every_length_sent_to_the_backward_fits():
    """Every plan of L = 1..MONARCH_MAX_L, built as launched, fits the block's shared memory on sm_90; on sm_80 every
    one but the documented exceptions (SM80_OVER)."""
    t = pd.read_csv(AOT, dtype={"triton": str})
    plans = sorted({"x".join(map(str, monarch_plan(L))) for L in range(1, MONARCH_MAX_L + 1)})
    groups = t[t.used].groupby(["triton", "sm", "prec", "kernel"])
    assert {(90, "bf16", "backward"), (80, "bf16", "backward")} <= {g[1:] for g in groups.groups}
    for (version, sm, prec, kernel), b in groups:
        if (sm, prec) in COMPLETE:  # every plan a length up to MONARCH_MAX_L takes
            assert sorted(b.factors) == plans, (version, sm, prec, kernel)
        assert set(b.factors) <= set(plans) and (b.launches == (b.shared_bytes <= SHARED_LIMIT[sm])).all(), b
        over = {(prec, kernel, int(L)) for L in b[~b.launches].L}
        assert over == (SM80_OVER & {(prec, kernel, L) for L in b.L} if sm == 80 else set()), (sm, over)

def test_default_depth_is_what_failed_on_the_h200():
    """The first version's backward (the one the H200 ran, `aot_monarch_v1.csv`) built at Triton's default depth (3)
    with the H200's Triton asks the very shared memory the H200 refused (the bench's error), and the launched depth
    fits: the AOT table models the launch."""
    import re
    bench = pd.read_csv(ROOT / "runs" / "gpu" / "NVIDIA_H200" / "kernels" / "monarch" / "monarch_bench.csv")
    version = json.loads((ROOT / "runs" / "gpu" / "NVIDIA_H200" / "kernels" / "monarch" / "device.json").read_text())
    t = pd.read_csv(AOT_V1, dtype={"triton": str})
    t = t[(t.triton == version["triton"]) & (t.sm == 90) & (t.kernel == "backward")]
    prec = {"monarch bf16": "bf16", "monarch fp32": "tf32x3"}
    failed = [(int(r.L), prec[r.impl], int(re.search(r"Required: (\d+)", r.status).group(1)))
              for r in bench[bench.impl.isin(list(prec))].itertuples()]
    assert len(failed) >= 4
    for L, p, need in failed:
        row = t[(t.L == L) & (t.prec == p) & (t.num_stages == 3)]
        assert row.shared_bytes.tolist() == [need], (L, p, need, row)
        assert (t[(t.L == L) & (t.prec == p) & t.used].shared_bytes <= SHARED_LIMIT[90]).all()

def test_kernels_fall_back_where_the_build_does_not_fit():
    """A build that does not fit raises OutOfResources when loaded: the output or the gradients come from torch.fft,
    named, in bound."""
    child("""
import sys, warnings, torch
from hyena_lit.kernels.monarch_fftconv import KernelFallback
import hyena_lit.kernels.monarch_fftconv as M
sys.path.insert(0, "tests"); from refused_build import Refused, packed_errors
for name, says in (("_monarch_bwd_kernel", ("backward kernel at L = 300", "monarch_backward_torch_fft")),
                   ("_monarch_fwd_kernel", ("forward kernel at L = 300", "gated_fftconv_ref"))):
    kernel = getattr(M, name)
    setattr(M, name, Refused())
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        rows = M.check_monarch(3, 2, 300, torch.float32) + M.check_monarch(3, 2, 300, torch.bfloat16)
        errs, bound = packed_errors(M.monarch_fftconv_packed)  # the packed form's fallback: one gradient tensor still
    assert all(r["error"] <= r["bound"] for r in rows) and max(errs) <= bound, (name, rows, errs)
    assert any(all(t in str(x.message) for t in says) and x.category is KernelFallback for x in w), \
        (name, [(x.category, str(x.message)) for x in w])
    setattr(M, name, kernel)
""")

def test_bench_keeps_a_fallback_out_of_the_timings(tmp_path):
    """A build that does not fit falls back to torch.fft with a KernelFallback warning: the bench records that as the
    row's failure, with no timing, and the correctness rows say so, so that no fallback is ever timed as the kernel."""
    child(f"""
import sys; sys.path.insert(0, "scripts")
import monarch_bench, hyena_lit.kernels.monarch_fftconv as M
sys.path.insert(0, "tests"); from refused_build import Refused
M._monarch_bwd_kernel = Refused()
monarch_bench.main(["--out", {str(tmp_path)!r}, "--dry", "--reps", "1", "--lengths", "100",
                    "--impls", "monarch bf16,monarch fp32,monarch long bf16"])
""", timeout=600)
    b = pd.read_csv(tmp_path / "monarch_bench.csv").set_index("impl")
    for impl in ("monarch bf16", "monarch fp32"):
        assert b.loc[impl, "status"].startswith("forward only; backward error: RuntimeError: fell back: monarch_fftconv")
        assert b.loc[impl, "fwd_ms"] > 0 and pd.isna(b.loc[impl, "fwd_bwd_ms"])
    assert b.loc["monarch long bf16", "status"] == "ok" and b.loc["monarch long bf16", "fwd_bwd_ms"] > 0
    c = pd.read_csv(tmp_path / "monarch_correctness.csv")
    one, long = c[c.kernel == "monarch"], c[c.kernel == "monarch long"]
    assert len(one) and one.status.str.startswith("fell back: monarch_fftconv: the backward kernel").all()
    assert len(long) and (long.status == "ok").all()
    assert set(b.index) == {"monarch bf16", "monarch fp32", "monarch long bf16"}  # --impls: only these timed

def test_bench_names_its_contenders(tmp_path):
    "`--impls` picks among contenders()' names, every one listed when a name is unknown, before anything is written."
    sys.path.insert(0, str(ROOT / "scripts"))
    import monarch_bench
    assert monarch_bench.parse(["--out", "x", "--dry", "--impls", "torch.fft, monarch bf16"]).impls == [
        "torch.fft", "monarch bf16"]
    with pytest.raises(SystemExit) as e:
        monarch_bench.main(["--out", str(tmp_path / "out"), "--dry", "--impls", "torch.fft,cufft"])
    assert "['cufft']" in str(e.value) and all(repr(n) in str(e.value) for n in monarch_bench.contenders(100))
    assert not (tmp_path / "out").exists()

def _bench(rows):
    cols = ["L", "impl", "dtype", "fwd_ms", "fwd_p20", "fwd_p80", "fwd_bwd_ms", "fwd_bwd_p20", "fwd_bwd_p80"]
    return pd.DataFrame([dict(zip(cols, r)) for r in rows])

def test_auto_wins_from_tables(tmp_path):
    "Ranges of consecutive winning lengths; p80 < torch.fft's p20 where held; a win in every table; the faster kernel."
    from hyena_lit.kernels.monarch_fftconv import auto_wins
    mon = tmp_path / "runs" / "gpu" / "G" / "kernels" / "monarch"
    first = tmp_path / "runs" / "gpu" / "G" / "kernels" / "triton" / "G"
    for d in (mon, first): d.mkdir(parents=True)
    (mon / "device.json").write_text(json.dumps(dict(gpu="GPU 1")))
    (mon.parent / "params.json").write_text(json.dumps(dict(gpu_name="GPU 1")))
    nan = float("nan")
    t = [(L, "torch.fft", "float32", 10, 9.9, 10.1, 30, 29, 31) for L in (1, 2, 3, 4, 5, 6)]
    _bench(t + [(1, "monarch bf16", "bfloat16", 5, 4.9, 5.1, 20, 19, 21),
                (2, "monarch bf16", "bfloat16", 5, 4.9, 5.1, 20, 19, 29.5),      # fwd+bwd p80 over torch's p20
                (3, "monarch bf16", "bfloat16", 9.8, 9.7, 10.0, nan, nan, nan),  # median wins, p80 not below p20
                (4, "monarch bf16", "bfloat16", 5, 4.9, 5.1, nan, nan, nan),
                (5, "monarch bf16", "bfloat16", 8, 7.9, 8.1, nan, nan, nan),
                (6, "monarch bf16", "bfloat16", 8, 7.9, 8.1, nan, nan, nan),
                (5, "first kernel bf16", "bfloat16", 4, 3.9, 4.1, 25, 24, 26),
                (6, "first kernel bf16", "bfloat16", 4, 3.9, 4.1, 25, 24, 26)]).to_csv(mon / "monarch_bench.csv", index=False)
    # the first kernel's own table: no percentiles, a loss at 6 (it must win in every table that timed it)
    pd.DataFrame([dict(L=L, impl=i, dtype=d, fwd_ms=f, fwd_bwd_ms=b) for L, i, d, f, b in
                  ((5, "torch.fft", "float32", 10, 30), (6, "torch.fft", "float32", 10, 30),
                   (5, "triton bf16", "bfloat16", 5, 29), (6, "triton bf16", "bfloat16", 11, 29))]
                 ).to_csv(first / "bench.csv", index=False)
    assert auto_wins(tmp_path) == {
        ("GPU 1", "bfloat16", "forward"): ((1, 2, "monarch"), (4, 4, "monarch"), (5, 5, "first"), (6, 6, "monarch")),
        ("GPU 1", "bfloat16", "forward+backward"): ((1, 1, "monarch"), (5, 6, "first"))}
    assert auto_wins(tmp_path / "nothing") == {}

def test_auto_picks_the_kernel_exactly_where_the_table_says(monkeypatch):
    """HyenaOperator(fftconv_impl='auto') on a (mocked) H200: the Monarch kernel at the lengths between the committed
    table's first and last forward win when no gradient is needed, and where forward+backward won when one is."""
    import types
    from hyena_lit.core.operator import HyenaOperator
    import hyena_lit.core.operator as operator_module
    from hyena_lit.kernels.monarch_fftconv import monarch_fftconv
    b = pd.read_csv(ROOT / "runs" / "gpu" / "NVIDIA_H200" / "kernels" / "monarch" / "monarch_bench.csv")
    ref, mon = (b[b.impl == i].set_index("L") for i in ("torch.fft", "monarch bf16"))
    expect = {}
    for grad, col in ((False, "fwd"), (True, "fwd_bwd")):
        won = [L for L in mon.index if mon.loc[L, f"{col}_ms"] < ref.loc[L, f"{col}_ms"]
               and mon.loc[L, f"{col}_p80"] < ref.loc[L, f"{col}_p20"]]
        expect[grad] = (min(won), max(won)) if won else None
    assert expect[False] is not None  # the table holds forward wins to dispatch on
    monkeypatch.setattr(operator_module, "_gpu_name", lambda index: "NVIDIA H200")  # asked once a device
    op = HyenaOperator(8, 16)
    for L in range(1, 2 * MONARCH_MAX_L):
        v = types.SimpleNamespace(is_cuda=True, device=torch.device("cuda", 0), dtype=torch.bfloat16, shape=(2, 8, L))
        for grad in (False, True):
            kern = op._fused(v, None, grad)
            inside = expect[grad] is not None and expect[grad][0] <= L <= expect[grad][1]
            assert kern is (monarch_fftconv if inside else None), (L, grad, kern)
        v.dtype = torch.float32
        assert op._fused(v, None, False) is None  # no float32 row won
    op.fftconv_impl = "torch"
    assert op._fused(v, None, False) is None

def test_the_auto_rules_ask_a_devices_name_once(monkeypatch):
    "'auto' reads the GPU's name on every forward of every layer: the operator asks CUDA once a device, then remembers."
    from hyena_lit.core import operator as operator_module
    asked = []
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda index=None: asked.append(index) or f"GPU {index}")
    operator_module._gpu_name.cache_clear()
    try:
        names = [operator_module._gpu_name(i) for i in (0, 1, 0, 1, 0)]
    finally:
        operator_module._gpu_name.cache_clear()  # no mocked name outlives the test
    assert names == ["GPU 0", "GPU 1", "GPU 0", "GPU 1", "GPU 0"] and asked == [0, 1]

def test_operator_runs_a_forced_kernel_within_the_bound():
    """HyenaOperator(fftconv_impl='monarch' / 'monarch_long') calls that kernel for each of its convolutions (at order 2
    with the official gating either kernel's packed entry, once) and the
    short filter's kernel (24_short_conv) once, and its output and every gradient (input and parameters) stay within c u log2 N of float64, as torch.fft's do: float32, and
    bfloat16 autocast (where the convolution's inputs are bfloat16 and the filters float32); either gating."""
    out = child("""
import torch; torch.set_num_threads(1)
from hyena_lit.core.operator import HyenaOperator
from hyena_lit.kernels.fftconv_checks import error_bound
import hyena_lit.kernels.monarch_fftconv as mf, hyena_lit.kernels.monarch_long as ml
calls = []
import hyena_lit.kernels.short_conv as sc
for mod, name in ((mf, "monarch_fftconv_packed"), (mf, "monarch_fftconv"), (ml, "monarch_long_fftconv_packed"),
                  (ml, "monarch_long_fftconv"), (sc, "short_conv_triton")):
    setattr(mod, name, lambda *a, _f=getattr(mod, name), _n=name, **k: (calls.append(_n), _f(*a, **k))[1])
mf.monarch_fftconv.packed = mf.monarch_fftconv_packed  # the order-2 path's entries, counted
ml.monarch_long_fftconv.packed = ml.monarch_long_fftconv_packed
def grads(op, u, dtype, autocast):
    op.to(dtype).zero_grad()
    x = u.to(dtype).clone().requires_grad_()
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
        y = op(x)
    y.float().backward(torch.ones(y.shape))
    return [y.detach().double(), x.grad.double()] + [p.grad.double() for p in op.parameters()]
# the gating decides the calls, not the kernel: each kernel with one gating (the three passes cost the interpreter most)
for order, gating, kernel in ((2, "official", "monarch_long"), (3, "paper", "monarch"), (2, "official", "monarch")):
    torch.manual_seed(order)
    op, u = HyenaOperator(4, 128, order=order, gating=gating), torch.randn(3, 100, 4)  # the interpreter's time grows with the channels
    op.fftconv_impl = "ref"
    exact = grads(op, u, torch.float64, False)
    for impl in ("torch", kernel):
        for autocast in (False, True):
            op.fftconv_impl = impl
            calls.clear()
            got = grads(op, u, torch.float32, autocast)
            err = max(((a - b).abs().max() / b.abs().max()).item() for a, b in zip(got, exact) if b.abs().max() > 0)
            bound = error_bound(torch.bfloat16 if autocast else torch.float32, 100)
            short = calls.count("short_conv_triton")
            calls[:] = [c for c in calls if c != "short_conv_triton"]
            print(order, impl, autocast, short, len(calls), set(calls), err / bound)
""", timeout=900)
    rows = [l.split(" ", 5) for l in out.splitlines()]
    assert len(rows) == 12
    for order, impl, autocast, short, n, rest in rows:
        assert int(short) == (0 if impl == "torch" else 1), (order, impl, short)  # the short filter's kernel with it
        kernels, share = rest.rsplit(" ", 1)
        # one call per convolution (order 2 official: one filter; order 3 paper: three), the forced kernel's own
        # order 2 official: the kernel's packed entry, the projections read in place
        want = {"torch": 0, "monarch": 1 if order == "2" else 3, "monarch_long": 1 if order == "2" else 3}[impl]
        name = impl + ("_fftconv_packed" if order == "2" else "_fftconv")
        assert int(n) == want and (impl == "torch" or kernels == "{'%s'}" % name), (order, impl, n, kernels)
        assert float(share) <= 1, (order, impl, autocast, share)

def test_forced_kernel_is_checked_before_any_work(monkeypatch):
    from hyena_lit.core.operator import HyenaOperator
    with pytest.raises(ValueError, match="runs to L = 8192, got l_max = 16384.*'monarch_long' runs to 65536"):
        HyenaOperator(8, 16384, fftconv_impl="monarch")
    with pytest.raises(ValueError, match="runs to L = 65536, got l_max = 65537"):
        HyenaOperator(8, 65537, fftconv_impl="monarch_long")
    op = HyenaOperator(8, 16, fftconv_impl="monarch_long")
    monkeypatch.delenv("TRITON_INTERPRET", raising=False)  # read at the call: without it a CPU input is refused
    with pytest.raises(RuntimeError, match="CUDA GPU.*input is on cpu"): op(torch.randn(1, 16, 8))

def test_operator_tells_whether_a_gradient_is_needed(monkeypatch):
    from hyena_lit.core.operator import HyenaOperator
    seen = []
    monkeypatch.setattr(HyenaOperator, "_fused", lambda self, v, ci, grad=True: seen.append(grad))
    op, u = HyenaOperator(8, 16), torch.randn(2, 16, 8)
    op(u)
    with torch.no_grad(): op(u)
    op.requires_grad_(False); op(u)
    op(u.requires_grad_())
    assert seen == [True, False, False, True]

def test_roofline_arithmetic():
    # (32, 64): N = 2048; 4 N N1 + 8 N N2 real FLOPs a transform; no twiddles after the last factor
    assert monarch_transform_flops((32, 64)) == dict(tensor=4 * 2048 * 32 + 8 * 2048 * 64, vector=6 * 2048)
    assert monarch_transform_flops((32, 16, 32))["tensor"] == 16384 * (4 * 32 + 8 * 48)
    c = monarch_cost(64, 768, 1024, 2, backward=False)
    assert c["bytes"] == 2 * 4 * 64 * 768 * 1024 + 8 * 768 * 2048
    assert c["tensor_flops"] == 32 * 768 * 2 * monarch_transform_flops((32, 64))["tensor"]

def test_bench_dry_run(tmp_path):
    child(f"""
import sys; sys.path.insert(0, "scripts")
import monarch_bench
args = ["--out", {str(tmp_path)!r}, "--dry", "--reps", "2", "--lengths", "100,1024,9000"]
monarch_bench.main(args)
# a second call into the folder with the same settings keeps every row and times nothing again; other settings: refused
import pandas as pd, pathlib
first = pd.read_csv(pathlib.Path(args[1]) / "monarch_bench.csv")
monarch_bench.main(args)
assert pd.read_csv(pathlib.Path(args[1]) / "monarch_bench.csv").equals(first)
try: monarch_bench.main(args[:4] + ["3"] + args[5:]); raise AssertionError("other --reps accepted")
except SystemExit as e: assert "other settings" in str(e) and "reps" in str(e), e
""", timeout=600)
    b = pd.read_csv(tmp_path / "monarch_bench.csv")
    ok = b[b.status == "ok"]
    assert set(ok.impl) >= {"torch.fft ref", "monarch bf16", "monarch fp32", "monarch bf16 whole tile", "first kernel bf16",
                            "monarch long bf16", "monarch long fp32", "torch.fft packed", "monarch bf16 packed",
                            "monarch bf16 copied", "monarch long bf16 packed", "monarch long bf16 copied"}
    assert (ok.L == 100).all()
    # the whole-tile contender: the table's warps and depth, RB = N1 (recorded at lengths the dry run does not time)
    w, r, s = monarch_launch(monarch_plan(1024), "backward", "bf16")
    tile = b[b.L == 1024].set_index("impl").launch
    assert f"backward w{w} r{r} s{s}" in tile["monarch bf16"]
    assert f"backward w{w} r{monarch_plan(1024)[0]} s{s}" in tile["monarch bf16 whole tile"] and r < monarch_plan(1024)[0]
    assert (ok.fwd_ms > 0).all() and (ok.fwd_bwd_ms > 0).all() and ok.products.notna().all()
    assert set(b[b.L == 9000].set_index("impl").status.items()) >= {("monarch bf16", "not built"),
                                                                     ("monarch fp32", "not built"),
                                                                     ("monarch long bf16", "not timed (dry run)")}
    assert "b_bwd w" in b[(b.L == 9000) & (b.impl == "monarch long bf16")].launch.item()
    corr = pd.read_csv(tmp_path / "monarch_correctness.csv")
    assert len(corr) == 36 and (corr.error <= corr.bound).all() and set(corr.kernel) == {"monarch", "monarch long"}
    assert json.loads((tmp_path / "device.json").read_text())["dry"] is True

def test_aot_table_holds_every_build_the_script_plans():
    """`scripts/monarch_aot.py`'s plan (parts 1-5 at its default lengths and widths) is what the committed table holds:
    the launched builds are among the candidates, and no candidate is missing (the choice saw them all)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try: import monarch_aot
    finally: sys.path.remove(str(ROOT / "scripts"))
    lengths = [256, 512, 1024, 2048, 4096, 8192]
    assert set(monarch_aot.jobs(lengths, (1, 2, 3))) <= set(monarch_aot.jobs(lengths, (4, 5)))
    t = pd.read_csv(AOT, dtype={"triton": str})
    have = set(t[t.triton == "3.6.0"][monarch_aot.KEY[:-1]].itertuples(index=False, name=None))
    assert set(monarch_aot.jobs(lengths)) <= have, set(monarch_aot.jobs(lengths)) - have
