"""Table 4.7 at CPU scale (72_images): the paper's image pairs on scikit-learn's 8x8 digits, ViT against Hyena-ViT
(patches of 2), S4ND-ISO against Hyena-ISO (the 2D long convolution) and, for sequential images, Hyena against S4D.
Does Hyena match its partner in each pair? A first sweep at 8 to 30 epochs under one recipe, then every model 30 epochs
under its own recipe; then why Hyena-ISO trails S4ND-ISO on digits: the 2D filter's features and decay window changed one
at a time (8 epochs each), and the window at CIFAR's pixel scale for the full 30 epochs."""
from experiments._common import cell, folder

BASE = dict(dataset="digits", data_dir="", size="", image_size=0, patch=2, n_layer=4, d_inner=128, n_heads=4, emb_dim=3,
            window_reach=1.0, d_state=64, augment="auto", batch_size=0, lr=0.0, weight_decay=-1.0, label_smoothing=0.0,
            num_train=0, seed=0)  # 72_images's parameters
SEQUENCE = dict(d_model=64, filter_order=32, dropout=0.0)  # vit, hyena-vit, hyena-seq, s4d-seq
ISOTROPIC = dict(d_model=128, filter_order=64, dropout=0.1)  # hyena-iso, s4nd-iso: the paper's 202k / 268k parameters
WIDTHS = {"vit": SEQUENCE, "hyena-vit": SEQUENCE, "hyena-seq": SEQUENCE, "s4d-seq": dict(SEQUENCE, d_state=106),  # S4D at Hyena's size
          "hyena-iso": ISOTROPIC, "s4nd-iso": dict(ISOTROPIC, filter_order=32)}  # S4ND has no filter FFN: the parameter's default
RECIPES = {"vit": "digits-vit", "hyena-vit": "digits-vit", "hyena-seq": "digits-seq", "s4d-seq": "digits-seq", "hyena-iso": "digits-iso",
           "s4nd-iso": "digits-iso"}  # images.default_recipe, named


def run(root, sweep, model, name="", **p) -> dict:
    name = name or (f"{model}-s0" if model.endswith("-iso") else f"{model}-p{1 if model.endswith('-seq') else 2}-s0")
    return cell("images", folder(root, "images", sweep, name), {**BASE, "model": model, "recipe": RECIPES[model], **WIDTHS[model], **p})


def cells(root="runs") -> list[dict]:
    first = {"vit": 30, "hyena-vit": 30, "hyena-seq": 12, "hyena-iso": 8, "s4nd-iso": 8}  # epochs, under one recipe
    grid = [run(root, "digits-cpu", m, recipe="digits-cpu", epochs=ep) for m, ep in first.items()]
    grid += [run(root, "digits-cpu-30ep", m, epochs=30) for m in WIDTHS]
    grid += [run(root, "digits-iso-ablation", m, name, epochs=8, **change) for m, name, change in (
        ("hyena-iso", "hyena-iso-s0", {}), ("hyena-iso", "hyena-iso-emb9-s0", dict(emb_dim=9)),
        ("hyena-iso", "hyena-iso-reach4-s0", dict(window_reach=4.0)), ("hyena-iso", "hyena-iso-nowindow-s0", dict(window_reach=0.0)),
        ("s4nd-iso", "s4nd-iso-s0", dict(filter_order=64)))]  # one command line for the five: filter_order 64 for S4ND too
    return grid + [run(root, "digits-cpu-30ep-v2", "hyena-iso", "hyena-iso-reach4-s0", epochs=30, window_reach=4.0)]
