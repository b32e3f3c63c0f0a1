"""The fused CPU selective scan (hyena_lit/mixers/selective_scan_cpu.py, explained in nbs/mixers/17_baselines.ipynb): gradients by
finite differences, strided and broadcast inputs, thread-count independence, argument errors. Skipped where the
extension cannot be built (the Mamba module then falls back to its torch scan)."""
import pytest
import torch
import torch.nn.functional as F

from hyena_lit.mixers import selective_scan_cpu as ssc
from hyena_lit.mixers.baselines import Mamba, mamba_ref, selective_scan_ref

needs_ext = pytest.mark.skipif(not ssc.cpp_available(), reason=f"extension not built: {ssc.build_error()}")


def _inputs(Bsz, L, E, N, dtype=torch.float64, seed=0):
    g = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=g, dtype=dtype)
    return [r(Bsz, L, E), F.softplus(r(Bsz, L, E)), -3 * torch.rand(E, N, generator=g, dtype=dtype) - 0.05, r(Bsz, L, N), r(Bsz, L, N)]


@needs_ext
@pytest.mark.parametrize("L,chunk", [(9, 4), (8, 4), (3, 64)])
def test_gradcheck(L, chunk):
    ins = [t.requires_grad_() for t in _inputs(2, L, 3, 5)]
    assert torch.autograd.gradcheck(lambda *a: ssc.selective_scan(*a, chunk=chunk), ins)


@needs_ext
def test_strided_and_broadcast_B_C_match_reference():
    x, dt, A, B, C = _inputs(2, 21, 9, 6)
    BC = torch.cat([B, C, torch.randn(2, 21, 3, dtype=torch.float64)], -1)  # B, C as views with a row stride of 15
    Bv, Cv = BC[..., :6], BC[..., 6:12]
    torch.testing.assert_close(ssc.selective_scan(x, dt, A, Bv, Cv, chunk=8), selective_scan_ref(x, dt, A, B, C), rtol=1e-12, atol=1e-12)
    Be, Ce = B[:1, :1].expand(2, 21, 6), C[:1, :1].expand(2, 21, 6)  # stride 0 in batch and time (the LTI case)
    torch.testing.assert_close(ssc.selective_scan(x, dt, A, Be, Ce, chunk=8), selective_scan_ref(x, dt, A, Be, Ce), rtol=1e-12, atol=1e-12)


@needs_ext
def test_results_do_not_depend_on_threads():
    ins = [t.float().requires_grad_() for t in _inputs(5, 70, 40, 16)]
    gy = torch.randn(5, 70, 40)
    threads, out = torch.get_num_threads(), []
    try:
        for n in (1, 2):
            torch.set_num_threads(n)
            y = ssc.selective_scan(*ins, chunk=16)
            out.append([y.detach(), *torch.autograd.grad(y, ins, gy)])
    finally:
        torch.set_num_threads(threads)
    assert all(torch.equal(a, b) for a, b in zip(*out))


@needs_ext
def test_mamba_cpp_is_default_and_matches_reference():
    torch.manual_seed(0)
    m = Mamba(5, 64, d_state=7, chunk=8).double()
    assert m.impl == "cpp"
    u = torch.randn(2, 19, 5, dtype=torch.float64)
    torch.testing.assert_close(m(u), mamba_ref(m, u), rtol=1e-10, atol=1e-12)


@needs_ext
def test_argument_errors():
    x, dt, A, B, C = _inputs(1, 4, 2, 3)
    with pytest.raises(TypeError): ssc.selective_scan(x.float(), dt, A, B, C)
    with pytest.raises(ValueError): ssc.selective_scan(x, dt, A[:, :2], B, C)
    with pytest.raises(ValueError): ssc.selective_scan(x.to("meta"), dt.to("meta"), A.to("meta"), B.to("meta"), C.to("meta"))
