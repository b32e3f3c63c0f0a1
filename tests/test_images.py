"""Images (70_hyena2d, 71_image_models, 72_images): the 2D FFT convolution against its direct definition, parameter
counts against the paper's, and bad parameters refused with a sentence naming them."""
import pytest
import torch


def test_fftconv2d_matches_direct_definition():
    from hyena_lit.hyena2d import fftconv2d, conv2d_direct, ORIGINS
    from hyena_lit.fftconv import rel_err
    g = torch.Generator().manual_seed(1)
    u, k, D = torch.randn(2, 3, 9, 7, generator=g, dtype=torch.float64), torch.randn(3, 9, 7, generator=g, dtype=torch.float64), torch.randn(3, generator=g, dtype=torch.float64)
    for origin in ORIGINS:
        assert rel_err(fftconv2d(u.float(), k.float(), D.float(), origin=origin), conv2d_direct(u, k, D, origin=origin)) < 1e-5


def test_param_counts_within_2_percent_of_paper():
    from hyena_lit.image_models import IMAGE_SIZES, PAPER_PARAMS, count_image_params
    for name in ("hyena-vit-b", "vit-b", "hyena-iso", "s4nd-iso"):
        assert abs(count_image_params(IMAGE_SIZES[name]) / PAPER_PARAMS[name] - 1) < 0.02, name


def test_bad_image_parameters_are_named():
    from hyena_lit.images import check_image_params, load_cifar10
    ok = dict(dataset="digits", data_dir="", model="hyena-vit", size="", image_size=0, patch=2, d_model=16, n_layer=1, d_inner=32, n_heads=2, filter_order=8,
              d_state=8, dropout=0.0, recipe="", epochs=0, batch_size=0, lr=0.0, weight_decay=-1.0, label_smoothing=0.0, num_train=0, seed=0,
              device="cpu", threads=1, sweep="t", run_name="")
    check_image_params(**ok)
    for bad, word in ((dict(model="resnet"), "resnet"), (dict(recipe="nope"), "nope"), (dict(dataset="imagenet"), "data_dir"),
                      (dict(patch=0), "patch"), (dict(device="cuda:9"), "cuda:9")):
        with pytest.raises(ValueError, match=word): check_image_params(**(ok | bad))
    with pytest.raises(FileNotFoundError, match="cifar-10-python.tar.gz"): load_cifar10("/nonexistent")
