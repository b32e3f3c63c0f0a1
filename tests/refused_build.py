"""A stand-in for a Triton kernel whose build does not fit the GPU: each launch raises OutOfResources, as loading such a
build does before it runs. The fallback tests' child processes import it (`sys.path` gets tests/)."""
import triton


class Refused:
    def __getitem__(self, grid):
        def launch(*a, **kw): raise triton.runtime.errors.OutOfResources(233472, 232448, "shared memory")
        return launch


def packed_errors(packed, B=3, C=2, L=300):
    """A packed form's (`monarch_fftconv_packed`, ...) errors against float64 and their bound, float32: y, then the
    gradients of z = [post | pre | u], k and D; with a kernel refused, its fallback's (the gradient still one tensor)."""
    import torch
    from hyena_lit.kernels.fftconv_triton import gated_fftconv_ref
    from hyena_lit.kernels.fftconv_checks import error_bound, _rel_err
    g = torch.Generator().manual_seed(2)
    xs = (torch.randn(B, 3 * C, L, generator=g, dtype=torch.float64), torch.randn(C, L, generator=g, dtype=torch.float64)
          / L ** 0.5, torch.randn(C, generator=g, dtype=torch.float64))
    dy = torch.randn(B, C, L, generator=g, dtype=torch.float64)
    exact, low = [x.clone().requires_grad_() for x in xs], [x.float().requires_grad_() for x in xs]
    post, pre, u = exact[0].split(C, 1)
    y64, y = gated_fftconv_ref(u, exact[1], exact[2], pre, post), packed(*low)
    y64.backward(dy); y.backward(dy.float())
    assert low[0].grad.shape == xs[0].shape
    return [_rel_err(y.detach(), y64.detach())] + [_rel_err(a.grad, b.grad) for a, b in zip(low, exact)], \
        error_bound(torch.float32, L)
