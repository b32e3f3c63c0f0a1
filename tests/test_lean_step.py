"""The lean training step on CPU: the aten-operator proxy for a GPU's kernel launches holds (scripts/step_profile.py,
before and after in runs/gpu/cpu-proxy/), and HyenaConfig's `compile` option gives the eager model's forward and
gradients."""
import sys
from pathlib import Path

import pandas as pd
import pytest
import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
PROXY = ROOT / "runs" / "gpu" / "cpu-proxy"
sys.path.insert(0, str(ROOT / "scripts"))


# A recount in bfloat16 compares like with like only where oneDNN computes bfloat16 natively (x86 with AVX-512, as
# where the committed counts were taken): elsewhere PyTorch runs a grouped convolution as one convolution per channel
# and a bfloat16 matrix product by a generic loop, each with slices and copies of its own (a Hyena block's forward and
# backward at d = 768, L = 1024 then calls about 97,000 aten operators against 720), which says nothing of a GPU.
native_bf16 = pytest.mark.skipif(
    not torch.ops.mkldnn._is_mkldnn_bf16_supported(),
    reason=f"oneDNN has no native bfloat16 on this processor ({torch.backends.cpu.get_cpu_capability()}): its "
           "bfloat16 operators decompose, so an aten count is not comparable with the committed ones")


def committed(which: str) -> dict:
    t = pd.read_csv(PROXY / which / "aten_ops.csv")
    return dict(zip(t.block, t.aten_ops))


def test_the_committed_after_count_is_below_the_before_count():
    before, after = committed("before"), committed("after")
    assert before["hyena"] == 984 and before["attention"] == 390  # the step before the lean changes
    assert after["hyena"] <= 0.75 * before["hyena"]
    assert after["attention"] == before["attention"]  # the attention block did not change


@native_bf16
def test_a_hyena_block_launches_no_more_ops_than_committed():
    import step_profile as sp
    t = pd.read_csv(PROXY / "after" / "aten_ops.csv").set_index("block")
    r = t.loc["hyena"]
    events, _ = sp.block_events("hyena", int(r.d_model), int(r.L), int(r.batch), r["dtype"])  # r.dtype is the row's own
    n, names = sp.count_aten(events)
    assert n <= r.aten_ops, (n, r.aten_ops, list(names.items())[:10])


def test_the_compiled_block_runs_under_half_the_ops_before_the_lean_step():
    "Compiled, the proxy counts the aten calls left and inductor's generated kernels (one launch each a pass)."
    before = committed("before")["hyena"]
    t = pd.read_csv(PROXY / "compiled" / "aten_ops.csv").set_index("block")
    assert (t.ops == t.aten_ops + t.compiled_kernels).all() and (t.compile == "default").all()
    assert t.loc["hyena", "ops"] <= 0.5 * before


@native_bf16
def test_the_compiled_block_recounted_small_is_no_larger_than_committed():
    "The count is the graph's, not the sizes': recounted small, it is no larger than committed."
    import step_profile as sp
    t = pd.read_csv(PROXY / "compiled" / "aten_ops.csv").set_index("block")
    events, _ = sp.block_events("hyena", 64, 128, 1, "bfloat16", compile="default")
    n, _ = sp.count_aten(events)
    assert 0 < sp.generated_kernels() and n + sp.generated_kernels() <= t.loc["hyena", "ops"], (n, sp.generated_kernels())


def test_a_forced_kernel_is_one_op_a_launch_and_leaves_the_blocks_count():
    """With the Monarch kernel forced, each convolution is one launch forward and one backward (three passes: three
    and five) and the short filter's kernel one and one, counted beside the aten events outside them; the block's count
    stays near that of torch.fft's path (the gates and skip were one autograd node already), a little under it (the
    short filter's autograd bookkeeping goes)."""
    t = pd.read_csv(PROXY / "kernels" / "aten_ops.csv").fillna({"fftconv_impl": ""}).set_index(["block", "fftconv_impl"])
    assert (t.ops == t.aten_ops + t.compiled_kernels + t.triton_launches).all()
    # the convolution's launches (one kernel: 1 + 1; three passes: 3 + 5) and the short filter's (24_short_conv: 1 + 1)
    assert t.loc[("hyena", "monarch"), "triton_launches"] == 4 and t.loc[("hyena", "monarch_long"), "triton_launches"] == 10
    assert t.loc[("hyena", "auto"), "aten_ops"] == committed("after")["hyena"]  # the count is the graph's, not the size's
    hy = t.xs("hyena", level="block").ops
    for forced in (hy.monarch, hy.monarch_long): assert 0.85 * hy.auto <= forced <= hy.auto


@native_bf16
def test_a_forced_kernel_recounted_small_is_no_larger_than_committed():
    "Recounted small, under the interpreter, the forced kernel's block is four launches and no more ops than committed."
    import os, subprocess
    t = pd.read_csv(PROXY / "kernels" / "aten_ops.csv").fillna({"fftconv_impl": ""}).set_index(["block", "fftconv_impl"])
    code = ("import sys; sys.path.insert(0, 'scripts'); import step_profile as sp; "
            "r = sp.block_rows(('hyena',), 64, 128, fftconv_impls=('monarch',))[0][0]; print(r['ops'], r['triton_launches'])")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr[-2000:]
    ops, launches = map(int, r.stdout.split()[-2:])
    assert launches == 4 and ops <= t.loc[("hyena", "monarch"), "ops"], (ops, launches)


def test_compile_gives_the_eager_forward_and_gradients():
    from hyena_lit.core.fftconv import rel_err
    from hyena_lit.models.model import HyenaConfig, HyenaLM
    torch.manual_seed(0)
    cfg = HyenaConfig.from_size("tiny", vocab_size=61, n_layer=2, d_model=32, d_inner=64, l_max=64)
    eager = HyenaLM(cfg)
    compiled = HyenaLM(HyenaConfig(**{**cfg.to_dict(), "compile": "default"}))
    compiled.load_state_dict(eager.state_dict())
    ids = torch.randint(0, 61, (2, 37))  # odd length
    outs = []
    for m in (eager, compiled):
        y = m(ids)
        F.cross_entropy(y.flatten(0, 1), ids.flatten()).backward()
        outs.append([y.detach()] + [p.grad for p in m.parameters()])
    assert compiled.compiled_blocks() and not any("_orig_mod" in k for k in compiled.state_dict())
    # float32 with the FFTs' depth: a fused kernel may sum in another order
    tol = 64 * torch.finfo(torch.float32).eps * 7
    errs = [rel_err(a, b) for a, b in zip(outs[1], outs[0])]
    assert max(errs) < tol, errs


def test_compile_must_be_a_known_mode():
    from hyena_lit.models.model import HyenaConfig
    with pytest.raises(ValueError, match="compile must be one of"):
        HyenaConfig.from_size("tiny", compile="fast")


# The dispatch counter (`step_profile.dispatch_counts`): operators where they reach the backend, the same on every
# processor, so these tests hold where the profiler's recounts above are skipped.

def dispatch(which: str) -> pd.DataFrame:
    return pd.read_csv(PROXY / "dispatch" / which / "dispatch_ops.csv", dtype={"code": str}).set_index("block")


def test_launching_ops_are_neither_views_nor_allocations():
    import step_profile as sp
    aten = torch.ops.aten
    for op in (aten.view.default, aten.t.default, aten.slice.Tensor, aten.unbind.int, aten.detach.default,
               aten._unsafe_view.default, aten.empty.memory_format, aten.empty_strided.default, aten.view_as_real.default):
        assert not sp._launches(op), op
    for op in (aten.add_.Tensor, aten.mm.default, aten.clone.default, aten._to_copy.default, aten.zero_.default,
               aten._fft_r2c.default, aten.split_with_sizes_copy.default, aten.native_layer_norm.default):
        assert sp._launches(op), op


def test_traffic_counts_inputs_once_and_outputs():
    import step_profile as sp
    x, y = torch.ones(3, 5), torch.ones(5, 2, dtype=torch.float64)
    assert sp._traffic((x, x), None, x + x) == 2 * 15 * 4  # one input read, one output written
    assert sp._traffic((x, y), {}, [torch.ones(2)]) == 15 * 4 + 10 * 8 + 2 * 4
    assert sp._traffic((x[:, :2], x), None, None) == (6 + 15) * 4  # a view counts its own elements
    # a destination is written, not read: out=, and what zero_ or copy_ overwrite
    assert sp._traffic((x, x), {"out": y}, y) == 15 * 4 + 10 * 8
    assert sp._traffic((x,), None, x, "zero_") == 15 * 4 and sp._traffic((x, y), None, x, "copy_") == 15 * 4 + 10 * 8
    assert sp._traffic((x, x), None, x, "mul_") == 2 * 15 * 4  # read, then written in place


def test_the_dispatch_count_before_and_after_the_lean_step():
    before, after = dispatch("before"), dispatch("after")
    assert before.code.str.rstrip("+").eq("744edd1").all()  # the commit before the lean step (518a570)
    for t in (before, after):
        assert (t.d_model == 768).all() and (t.L == 1024).all() and (t.batch == 1).all() and (t["dtype"] == "bfloat16").all()
    hy_b, hy_a, at = before.loc["hyena"], after.loc["hyena"], after.loc["attention"]
    assert hy_a.launching_ops <= 0.85 * hy_b.launching_ops and hy_a.mb_moved < hy_b.mb_moved
    assert (before.loc["attention"] == at).drop(["code"]).all()  # the attention block did not change
    # what remains: about 2.7x attention's launches and twice its bytes, the gap a fused convolution must close
    assert hy_a.launching_ops > 2.5 * at.launching_ops and hy_a.mb_moved > 2 * at.mb_moved
    now = dispatch("now")  # the code since: fewer launches and bytes still, attention's block unchanged
    assert now.loc["hyena"].launching_ops <= hy_a.launching_ops and now.loc["hyena"].mb_moved < hy_a.mb_moved
    assert (now.loc["attention"] == at).drop(["code"]).all()


@pytest.mark.parametrize("block", ["hyena", "attention"])
def test_a_block_recounted_at_dispatch_is_no_larger_than_committed(block):
    """On any processor: at the committed size no more launches or bytes than committed; at a small size the same
    launches (the graph's, not the size's), and computed tensors give the fakes' counts and bytes."""
    import step_profile as sp
    r = dispatch("now").loc[block]
    ops, other, _, nbytes = sp.dispatch_counts(block, int(r.d_model), int(r.L), int(r.batch), r["dtype"])
    assert ops <= r.launching_ops and sum(nbytes.values()) / 1e6 <= r.mb_moved + 0.05, (ops, sum(nbytes.values()))
    small = sp.dispatch_counts(block, 64, 128)
    assert small[0] == ops and small[1] == other
    assert sp.dispatch_counts(block, 64, 128, fake=False) == small


def test_the_dispatch_counter_refuses_what_it_does_not_count(tmp_path):
    import step_profile as sp
    for extra in (["--compile", "default"], ["--fftconv-impl", "monarch"], ["--reps", "2"]):
        with pytest.raises(SystemExit, match="counts the eager block"):
            sp.main(["--out", str(tmp_path), "--counter", "dispatch", *extra])
    with pytest.raises(SystemExit, match="--counter must be"):
        sp.main(["--out", str(tmp_path), "--counter", "perf"])


def test_the_dispatch_counter_counts_a_blocked_block_twice_alike():
    "At 8K the operator runs its channels in blocks, with index tensors it caches: a second count sees the same graph."
    import step_profile as sp
    first = sp.dispatch_counts("hyena", 768, 8192)
    assert first[0] > sp.dispatch_counts("hyena", 768, 1024)[0]  # the blocks' launches
    assert sp.dispatch_counts("hyena", 768, 8192) == first


def test_a_projection_weight_is_cast_once_whatever_the_batch():
    """Under autocast the Hyena block casts its projections' weights before they are broadcast over the batch
    (`product_operands`): no operator forward or backward writes a batch of copies of a weight (the cast of an
    expanded weight did, and so did the float32 cast of its gradient), and the weights' casts are the batch's
    none the more."""
    import step_profile as sp
    from hyena_lit.models.model import Block, HyenaConfig
    d, L = 48, 100  # no activation's shape is a weight's
    cfg = HyenaConfig.from_size("125M", d_model=d, d_inner=4 * d, n_heads=1, l_max=2 * L)
    with sp.fake_mode():
        m = Block(cfg)
    weights = {tuple(p.shape) for p in m.parameters() if p.ndim == 2}
    for B in (1, 4):
        outs = []
        for p in m.parameters(): p.grad = None  # as a training step's zero_grad: nothing accumulates
        with sp.fake_mode():
            h, g = torch.randn(B, L, d, requires_grad=True), torch.randn(B, L, d)
            with sp.counting_mode(lambda f, a, k, out: outs.append((f.overloadpacket.__name__, tuple(out.shape)))
                                  if sp._launches(f) and isinstance(out, torch.Tensor) else None):
                with torch.autocast("cpu", dtype=torch.bfloat16):
                    y = m(h)
                y.backward(g.to(y.dtype))
        batched = [(n, s) for n, s in outs if len(s) == 3 and s[0] == B and s[1:] in weights]
        # only a product's per-sample weight gradients and their sum over the batch, in the product's dtype
        assert {n for n, _ in batched} <= {"bmm", "baddbmm", "sum"}, batched
        if B == 1: one = sorted(outs)
    assert [n for n, _ in sorted(outs)] == [n for n, _ in one]  # the same operators at any batch


def test_the_hyena_blocks_backward_copies_no_spectrum_and_concatenates_nothing():
    """Under bf16 autocast one Hyena block's forward+backward forms no conjugate spectrum of the batch's size (dk's
    correlation is read from the reversed signal's transform), no concatenation of the split's gradients (the order-2
    convolution takes the short filter's output whole) and no separate float32 skip before its cast."""
    import step_profile as sp
    _, _, names, _ = sp.dispatch_counts("hyena", 48, 100, batch=3)
    assert "cat" not in names
    B, C, L = 3, 48, 100
    seen = []
    from hyena_lit.models.model import Block, HyenaConfig
    cfg = HyenaConfig.from_size("125M", d_model=C, d_inner=4 * C, n_heads=1, l_max=2 * L)
    with sp.fake_mode():
        m = Block(cfg)
        h, g = torch.randn(B, L, C, requires_grad=True), torch.randn(B, L, C)
        with sp.counting_mode(lambda f, a, k, out: seen.append((f.overloadpacket.__name__, out))):
            with torch.autocast("cpu", dtype=torch.bfloat16):
                y = m(h)
            y.backward(g.to(y.dtype))
    clones = [o for n, o in seen if n == "clone" and o.is_complex() and o.shape[0] == B]
    assert not clones, [tuple(o.shape) for o in clones]
    skips = [o for n, o in seen if n == "addcmul" and o.shape == (B, C, L)]
    assert len(skips) == 2 and all(o.dtype == torch.bfloat16 for o in skips)  # forward and backward, written in bf16
