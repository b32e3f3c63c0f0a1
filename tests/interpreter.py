"""Children under Triton's interpreter for the kernel tests: the interpreter must be on before anything imports triton,
so a test that launches a kernel on a CPU runs its code in a fresh process."""
import os, pathlib, subprocess, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENV = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))

def child(code: str, timeout: int = 300) -> str:
    "Run `code` with `python -c` in the repository under the interpreter; its stdout (a failure shows its stderr)."
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=timeout)
    assert r.returncode == 0, r.stderr[-3000:]
    return r.stdout


# The strided inputs of a Monarch form (`module`, `fn` and `fn`_packed), a child's code: z = [post | pre | u] whole
# through the packed form (its gradient one tensor), and the plain form on channel slices of larger tensors and on a
# gate whose time steps are not contiguous (copied); every output and gradient within c u log2 N of float64, buffers
# NaN-filled; the packed form saves views of z and refuses a z that is not (B, 3C, L).
STRIDED = """
import math, torch; torch.set_num_threads(1)
import hyena_lit.kernels.fftconv_triton as ft
from hyena_lit.kernels.{module} import {fn}, {fn}_packed
from hyena_lit.kernels.fftconv_checks import error_bound, _rel_err
ft._alloc = lambda shape, dtype, device: torch.full(shape, float("nan"), dtype=dtype, device=device)
g = torch.Generator().manual_seed(0)
def check(build, B, C, L, dt):
    xs = build(B, C, L)  # float64 leaves: (args of gated_fftconv_ref via `ref`, args of the kernel via `kern`)
    exact = [x.clone().requires_grad_() for x in xs]
    low = [x.to(dt).requires_grad_() if x.dtype == torch.float64 else x for x in xs]
    dy = torch.randn(B, C, L, generator=g, dtype=torch.float64)
    y64, y = build.ref(*exact), build.kern(*low)
    y64.backward(dy); y.backward(dy.to(dt))
    errs = [_rel_err(y.detach(), y64.detach())] + [_rel_err(a.grad, b.grad) for a, b in zip(low, exact)]
    assert all(e <= error_bound(dt, L) for e in errs), (build.__name__, B, C, L, dt, errs)
def packed(B, C, L):
    return (torch.randn(B, 3 * C, L, generator=g, dtype=torch.float64),
            torch.randn(C, L + 5, generator=g, dtype=torch.float64) / math.sqrt(L), torch.randn(C, generator=g, dtype=torch.float64))
packed.ref = lambda z, k, D: ft.gated_fftconv_ref(z.split(z.shape[1] // 3, 1)[2], k, D, *z.split(z.shape[1] // 3, 1)[1::-1])
packed.kern = {fn}_packed
def slices(B, C, L):
    return (torch.randn(B, 5 * C, L, generator=g, dtype=torch.float64), torch.randn(B, L, C, generator=g, dtype=torch.float64),
            torch.randn(C, L, generator=g, dtype=torch.float64) / math.sqrt(L), torch.randn(C, generator=g, dtype=torch.float64))
# u and the pre-gate: channel slices of one tensor (batch stride 5CL); the post-gate: time steps C apart (copied)
slices.ref = lambda w, t, k, D: ft.gated_fftconv_ref(w[:, C:2 * C], k, D, w[:, 3 * C:4 * C], t.transpose(1, 2))
slices.kern = lambda w, t, k, D: {fn}(w[:, C:2 * C], k, D, w[:, 3 * C:4 * C], t.transpose(1, 2))
for B, C, L in {cases}:
    for dt in {dtypes}:
        check(packed, B, C, L, dt)
        check(slices, B, C, L, dt)
z = torch.randn(2, 6, 50, requires_grad=True)
y = {fn}_packed(z, torch.randn(2, 50), torch.randn(2))
assert y.grad_fn.saved_tensors[4].data_ptr() == z.data_ptr()  # post, the first third of z: a view, not a copy
for bad in (torch.randn(2, 5, 50), torch.randn(6, 50)):
    try: {fn}_packed(bad, torch.randn(2, 50)); raise AssertionError(tuple(bad.shape))
    except ValueError as e: assert "(B, 3C, L)" in str(e)
"""
