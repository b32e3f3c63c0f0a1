"""The modal form (13e_distill) and the generation helpers (51_generation): the identities in float64 on random poles and
odd lengths, the Hankel fit on filters of known order, and a distilled tiny model against its exact form."""
import pytest
import torch

from hyena_lit.core.fftconv import fftconv
from hyena_lit.experiments.generation import attention_prefill, attention_step
from hyena_lit.inference.distill import (DistilledLM, ModalFilter, distil_filters, distil_lm, fit_residues, hankel_singular_values,
                             kung_modes, modal_filter, modal_recurrence, modal_state, refine, rel_l2, select_modes)
from hyena_lit.models.model import HyenaConfig, HyenaLM

EPS64, EPS32 = torch.finfo(torch.float64).eps, torch.finfo(torch.float32).eps


def _modes(C, m, seed, rmax=0.999):
    g = torch.Generator().manual_seed(seed)
    radius = rmax * torch.rand(C, m, generator=g, dtype=torch.float64) ** 0.25
    angle = 2 * torch.pi * torch.rand(C, m, generator=g, dtype=torch.float64)
    return torch.polar(radius, angle), torch.randn(C, m, generator=g, dtype=torch.complex128)


@pytest.mark.parametrize("L", [1, 2, 63, 257])
def test_recurrence_equals_fft_convolution(L):
    # bound 16 eps L: a few roundings per recurrence step, carried (|lambda| < 1) over at most L steps
    p, R = _modes(3, 5, seed=L)
    u = torch.randn(2, 3, L, generator=torch.Generator().manual_seed(1), dtype=torch.float64)
    y_rec, x = modal_recurrence(u, p, R)
    y_fft = fftconv(u, modal_filter(p, R, L))
    assert (y_rec - y_fft).abs().max() <= 16 * EPS64 * max(L, 2) * y_fft.abs().max()
    assert x.shape == (2, 3, 5)


@pytest.mark.parametrize("T,chunk", [(1, 4), (101, 7), (300, 4096)])
def test_prefill_state_equals_recurrence(T, chunk):
    p, R = _modes(4, 3, seed=T)
    u = torch.randn(3, 4, T, generator=torch.Generator().manual_seed(2), dtype=torch.float64)
    _, x_ref = modal_recurrence(u, p, R)
    x = modal_state(u, p, chunk=chunk)
    assert (x - x_ref).abs().max() <= 16 * EPS64 * T * x_ref.abs().max()


def test_modal_filter_gradients():
    p, R = _modes(2, 3, seed=5, rmax=0.9)
    p, R = p.requires_grad_(), R.requires_grad_()
    assert torch.autograd.gradcheck(lambda p, R: modal_filter(p, R, 11), (p, R))
    # the reference: the powers by repeated multiplication
    ref = torch.stack([(R * p ** t).sum(-1).real for t in range(11)], -1)
    assert (modal_filter(p, R, 11) - ref).abs().max() < 64 * EPS64 * ref.abs().max()


def test_hankel_rank_and_kung_recover_a_modal_filter():
    p, R = _modes(3, 4, seed=7)
    g = modal_filter(p, R, 301)
    s = hankel_singular_values(torch.cat([torch.zeros(3, 1, dtype=torch.float64), g], -1))
    assert (s[:, 7] / s[:, 0] > 1e-10).all() and (s[:, 8] / s[:, 0] < 1e3 * EPS64 * 301).all()
    mu, r = kung_modes(g, 8)
    poles = select_modes(mu, r, 4)
    assert (poles.abs() < 1).all()
    assert (rel_l2(g, poles, fit_residues(g, poles)) < 1e-9).all()


def test_refine_keeps_poles_stable_and_does_not_worsen():
    torch.manual_seed(0)
    h = torch.randn(4, 129, dtype=torch.float64).cumsum(-1) * torch.linspace(1, 0.01, 129, dtype=torch.float64)
    f = distil_filters(h, 6, steps=50)
    assert (f["poles"].abs() < 1).all() and f["poles"].shape == (4, 3)
    assert (f["err"] <= f["err_init"]).all()
    p, R = refine(h[:, 1:], f["poles"], f["residues"], steps=0)
    assert torch.allclose(rel_l2(h[:, 1:], p, R), f["err"])


@pytest.mark.parametrize("d", [0, 3, 2.0, True])
def test_distil_filters_rejects_bad_orders(d):
    with pytest.raises(ValueError, match="d must be an even integer"):
        distil_filters(torch.randn(2, 16), d)


def _modal_lm(order, gating, d=8, L=96, seed=0):
    "A float64 tiny HyenaLM whose long filters are exactly of order d."
    torch.manual_seed(seed)
    lm = HyenaLM(HyenaConfig.from_size("tiny", vocab_size=41, l_max=L, order=order, gating=gating)).double().eval()
    for i, blk in enumerate(lm.blocks):
        op = blk.mixer
        p, R = _modes(op.n_filters * op.d_model, d // 2, seed=seed + 10 * i)
        h0 = torch.randn(p.shape[0], dtype=torch.float64)
        op.filter = ModalFilter(p, R, h0, op.filter.bias.detach(), L)
        with torch.no_grad(): op.out_proj.weight.mul_(30)  # let the long convolutions move the logits
    return lm


@pytest.mark.parametrize("order,gating", [(2, "official"), (3, "official"), (2, "paper")])
def test_distilled_model_is_exact_on_modal_filters(order, gating):
    lm = _modal_lm(order, gating)
    dm = DistilledLM(lm, distil_lm(lm, 8, steps=0))
    ids = torch.randint(0, 41, (2, 83), generator=torch.Generator().manual_seed(3))
    with torch.no_grad(): exact = lm(ids)
    tol = 1e-9 * exact.abs().max()  # Kung's eigendecomposition, not rounding, limits the fit
    assert (dm(ids) - exact).abs().max() < tol
    _, lg_exact = lm.generate(ids[:, :29], 40, temperature=0, return_logits=True)
    out, lg = dm.generate(ids[:, :29], 40, temperature=0, return_logits=True)
    assert out.shape == (2, 69) and (lg - lg_exact).abs().max() < tol


def test_distilled_generation_equals_its_sequence_form():
    torch.manual_seed(1)
    lm = HyenaLM(HyenaConfig.from_size("tiny", vocab_size=37, l_max=64, order=3)).eval()
    dm = DistilledLM(lm, distil_lm(lm, 4, steps=10))
    ids = torch.randint(0, 37, (2, 150))  # past the l_max the filters were built for
    full = dm(ids)
    caches = [{} for _ in lm.blocks]
    dm(ids[:, :33], caches)
    steps = torch.stack([dm.step(ids[:, t], caches) for t in range(33, 150)], 1)
    assert (steps - full[:, 33:]).abs().max() < 64 * EPS32 * full.abs().max()
    assert all(x.shape == (2, 64, 2) for c in caches for x in c["x"])  # d/2 complex states per channel
    g = lambda: torch.Generator().manual_seed(0)
    assert torch.equal(dm.generate(ids[:, :5], 20, top_k=3, generator=g()), dm.generate(ids[:, :5], 20, top_k=3, generator=g()))


def test_distil_lm_rejects_attention_models():
    gpt = HyenaLM(HyenaConfig.from_size("gpt-tiny", vocab_size=11, l_max=32))
    with pytest.raises(ValueError, match="mixer"): distil_lm(gpt, 4)


def test_attention_cache_equals_full_forward():
    torch.manual_seed(2)
    gpt = HyenaLM(HyenaConfig.from_size("gpt-tiny", vocab_size=29, l_max=71)).double().eval()
    ids = torch.randint(0, 29, (3, 71))
    with torch.no_grad(): full = gpt(ids)
    last, kv = attention_prefill(gpt, ids[:, :17], 71)
    stepped = torch.stack([attention_step(gpt, ids[:, t], kv) for t in range(17, 70)], 1)
    assert (last - full[:, 16]).abs().max() < 1e-12 * full.abs().max()
    assert (stepped - full[:, 17:70]).abs().max() < 1e-12 * full.abs().max()
    with pytest.raises(ValueError, match="max_len"): attention_prefill(gpt, ids[:, :17], 99)


def test_bad_inputs_are_named():
    lm = HyenaLM(HyenaConfig.from_size("tiny", vocab_size=11, l_max=32))
    with pytest.raises(ValueError, match="fits must have one entry per layer"): DistilledLM(lm, distil_lm(lm, 2, steps=0)[:1])
    with pytest.raises(ValueError, match="h must have shape"): distil_filters(torch.randn(2, 3, 16), 4)
    with pytest.raises(ValueError, match="lm must be a GPT"): attention_prefill(lm, torch.zeros(1, 4, dtype=torch.long), 8)
