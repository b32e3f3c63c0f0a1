"""Images (70_hyena2d, 71_image_models, 72_images): the 2D FFT convolution against its direct definition, the S4D
convolution against its recurrence, parameter counts against the paper's, augmentations as pure functions of (seed,
epoch), the loss on mixed targets, every model trained an epoch, and bad parameters refused with a sentence naming them."""
import copy
import json

import pytest
import torch
import torch.nn.functional as F


def test_fftconv2d_matches_direct_definition():
    from hyena_lit.models.hyena2d import fftconv2d, conv2d_direct, ORIGINS
    from hyena_lit.core.fftconv import rel_err
    g = torch.Generator().manual_seed(1)
    u, k, D = torch.randn(2, 3, 9, 7, generator=g, dtype=torch.float64), torch.randn(3, 9, 7, generator=g, dtype=torch.float64), torch.randn(3, generator=g, dtype=torch.float64)
    for origin in ORIGINS:
        assert rel_err(fftconv2d(u.float(), k.float(), D.float(), origin=origin), conv2d_direct(u, k, D, origin=origin)) < 1e-5


def test_param_counts_within_2_percent_of_paper():
    from hyena_lit.models.image_models import IMAGE_SIZES, PAPER_PARAMS, count_image_params
    for name in ("hyena-vit-b", "vit-b", "hyena-iso", "s4nd-iso"):
        assert abs(count_image_params(IMAGE_SIZES[name]) / PAPER_PARAMS[name] - 1) < 0.02, name


OK = dict(dataset="digits", data_dir="", model="hyena-vit", size="", image_size=0, patch=2, d_model=16, n_layer=1, d_inner=32, n_heads=2, filter_order=8,
          d_state=8, dropout=0.0, recipe="", augment="auto", epochs=0, batch_size=0, lr=0.0, weight_decay=-1.0, label_smoothing=0.0, num_train=0, seed=0,
          device="cpu", threads=1, sweep="t", run_name="")


def test_bad_image_parameters_are_named():
    from hyena_lit.experiments.images import check_image_params, load_cifar10
    check_image_params(**OK)
    for bad, word in ((dict(model="resnet"), "resnet"), (dict(recipe="nope"), "nope"), (dict(dataset="imagenet"), "data_dir"),
                      (dict(patch=0), "patch"), (dict(device="cuda:9"), "cuda:9"), (dict(augment="mixup"), "augment")):
        with pytest.raises(ValueError, match=word): check_image_params(**(OK | bad))
    with pytest.raises(FileNotFoundError, match="cifar-10-binary.tar.gz"): load_cifar10("/nonexistent")


@pytest.mark.parametrize("L", [17, 64])
def test_s4d_conv_matches_its_recurrence_with_gradients(L):
    from hyena_lit.models.image_models import S4DConv
    from hyena_lit.core.fftconv import rel_err
    torch.manual_seed(L)
    conv32 = S4DConv(3, d_state=10)
    conv64 = copy.deepcopy(conv32).double()
    u, g = torch.randn(2, 3, L, dtype=torch.float64), torch.randn(2, 3, L, dtype=torch.float64)

    def run(conv, u, ref=False):
        u = u.detach().requires_grad_()
        y = conv(u, ref=ref)
        return [y, *torch.autograd.grad((y * g.to(y.dtype)).sum(), [u, *conv.parameters()])]
    ref, fast64, fast32 = run(conv64, u, ref=True), run(conv64, u), run(conv32, u.float())
    assert len(ref) == 7  # y, du, and the five parameters
    for r, a, b in zip(ref, fast64, fast32):
        assert rel_err(a, r) < 1e-12 and rel_err(b, r) < 2e-5


def test_augmentation_is_a_pure_function_of_seed_and_epoch():
    from hyena_lit.experiments.images import AUGMENTS, augment_images, channel_stats, load_digits_data
    (x, y), _ = load_digits_data(0)
    x, y = x[:20], y[:20]
    mean, std = channel_stats(x)
    for policy in AUGMENTS:
        torch.manual_seed(5); state = torch.get_rng_state()
        a = augment_images(x, y, policy, 1, 2, mean, std, 10, 8)
        assert torch.equal(torch.get_rng_state(), state), policy
        torch.rand(3)
        b, c = augment_images(x, y, policy, 1, 2, mean, std, 10, 8), augment_images(x, y, policy, 1, 3, mean, std, 10, 8)
        assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1]) and (policy == "none") == torch.equal(a[0], c[0]), policy
        assert a[0].shape == x.shape and torch.isfinite(a[0]).all()
        if policy == "randaug-mixup": assert a[1].shape == (20, 10) and torch.allclose(a[1].sum(1), torch.ones(20))


def test_image_loss_on_mixed_targets_is_the_mixture_of_losses():
    from hyena_lit.experiments.images import image_loss
    torch.manual_seed(0)
    logits, a, b = torch.randn(5, 7, dtype=torch.float64), torch.randint(0, 7, (5,)), torch.randint(0, 7, (5,))
    soft = 0.25 * F.one_hot(a, 7).double() + 0.75 * F.one_hot(b, 7).double()
    assert torch.allclose(image_loss(logits, soft), 0.25 * F.cross_entropy(logits, a) + 0.75 * F.cross_entropy(logits, b), rtol=1e-12)
    assert torch.allclose(image_loss(logits, soft, 0.1), -((0.9 * soft + 0.1 / 7) * logits.log_softmax(-1)).sum(-1).mean(), rtol=1e-12)


@pytest.mark.parametrize("model", ["vit", "hyena-vit", "hyena-seq", "s4d-seq", "hyena-iso", "s4nd-iso"])
def test_every_model_trains_an_epoch_on_digits_with_its_recipe(model, tmp_path):
    from hyena_lit.experiments.images import load_digits_data, run_images, resolve_augment, default_recipe
    (x, y), test = load_digits_data(0)
    torch.set_num_threads(1)
    m = run_images(OK | dict(model=model, epochs=1, d_state=8, num_train=64), tmp_path / "r", ((x[:64], y[:64]), test), 10)
    p = json.loads((tmp_path / "r" / "params.json").read_text())
    assert m["epochs_run"] == 1 and 0 <= m["final_test_acc"] <= 1 and (tmp_path / "r" / "history.csv").exists()
    assert p["augmentation"] == resolve_augment("auto", default_recipe("digits", model)) and p["augment"] == "auto"


def test_2d_filter_family_at_init_on_8x8():
    """Why Hyena-ISO trains slowly on 8x8 digits (72_images): with emb_dim 3 the filter FFN combines ~3 functions of position
    (t_i, t_j and a constant), with bands up to 3 cycles about 20; and the window, written in units of the image, is 4x narrower in
    pixels at 8x8 than at 32x32, which window_reach=4 undoes exactly."""
    import math
    from hyena_lit.models.hyena2d import Hyena2DFilter
    from hyena_lit.models.image_models import ImageConfig, IsoNet

    def rank(emb_dim):
        torch.manual_seed(0)
        f = Hyena2DFilter(128, 8, 8, filter_order=64, emb_dim=emb_dim)
        zh, zw = f.pos_h(8)[0], f.pos_w(8)[0]
        z = torch.cat([zh[:, None].expand(-1, 8, -1), zw[None].expand(8, -1, -1)], -1).reshape(64, -1)
        with torch.no_grad(): s = torch.linalg.svdvals(f.ffn[:-1](z))
        return int((s > 1e-2 * s[0]).sum())
    assert rank(3) <= 3 and rank(9) >= 15

    def filt(reach, side):
        torch.manual_seed(0)
        return IsoNet(ImageConfig("hyena-iso", side, 1, 10, d_model=8, n_layer=1, filter_order=8, window_reach=reach)).blocks[0].conv.filter
    f8, f32 = filt(4.0, 8), filt(1.0, 32)
    for di, dj in ((0, 1), (2, 3), (-4, -4)):
        w8 = torch.exp(-f8.r.view(8, 8)[4 + di, 4 + dj] * f8.modulation.deltas.abs())
        w32 = torch.exp(-f32.r.view(32, 32)[16 + di, 16 + dj] * f32.modulation.deltas.abs())
        assert torch.allclose(w8, w32, rtol=1e-5)
    assert not filt(0.0, 8).modulation.modulate
    assert math.isclose(filt(1.0, 8).modulation.deltas.abs().max().item(), -math.log(1e-2) / 0.3, rel_tol=1e-6)  # A.4's window unchanged


def test_filter_settings_are_parameters_and_recorded(tmp_path):
    from hyena_lit.experiments.images import check_image_params, load_digits_data, run_images
    for bad, word in ((dict(emb_dim=4), "emb_dim"), (dict(emb_dim=1), "emb_dim"), (dict(window_reach=-0.5), "window_reach")):
        with pytest.raises(ValueError, match=word): check_image_params(**(OK | bad))
    (x, y), test = load_digits_data(0)
    torch.set_num_threads(1)
    run_images(OK | dict(model="hyena-iso", epochs=1, num_train=64, emb_dim=5, window_reach=0.0), tmp_path / "r", ((x[:64], y[:64]), test), 10)
    cfg = json.loads((tmp_path / "r" / "params.json").read_text())["config"]
    assert cfg["emb_dim"] == 5 and cfg["window_reach"] == 0.0
