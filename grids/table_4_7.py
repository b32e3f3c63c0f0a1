"""Table 4.7 at CPU scale (72_images): the paper's image pairs on scikit-learn's 8x8 digits, ViT against Hyena-ViT
(patches of 2), S4ND-ISO against Hyena-ISO (the 2D long convolution) and, on pixel sequences, Hyena against S4D.
Does Hyena match its partner in each pair? A first sweep of 8 to 30 epochs under one recipe, then every model 30
epochs under its own recipe. Then why Hyena-ISO trails S4ND-ISO on digits: the 2D filter's features and decay window
changed one at a time (8 epochs each), and the window at CIFAR's pixel scale for the full 30 epochs."""
from grids._common import cell, folder

BASE = dict(  # 72_images's parameters
    dataset="digits", data_dir="", size="", image_size=0, patch=2, n_layer=4, d_inner=128, n_heads=4, emb_dim=3,
    window_reach=1.0, d_state=64, augment="auto", batch_size=0, lr=0.0, weight_decay=-1.0, label_smoothing=0.0,
    num_train=0, seed=0)
SEQUENCE = dict(d_model=64, filter_order=32, dropout=0.0)
ISOTROPIC = dict(d_model=128, filter_order=64, dropout=0.1)  # near the paper's 202k (Hyena), 268k (S4ND) parameters
MODELS = {  # model: (its widths, the recipe images.default_recipe gives it)
    "vit": (SEQUENCE, "digits-vit"), "hyena-vit": (SEQUENCE, "digits-vit"),
    "hyena-seq": (SEQUENCE, "digits-seq"),
    "s4d-seq": (dict(SEQUENCE, d_state=106), "digits-seq"),  # S4D at Hyena's parameter count
    "hyena-iso": (ISOTROPIC, "digits-iso"),
    "s4nd-iso": (dict(ISOTROPIC, filter_order=32), "digits-iso")}  # S4ND has no filter FFN: the parameter's default


def run(root, sweep, model, name="", **p) -> dict:
    name = name or (f"{model}-s0" if model.endswith("-iso") else f"{model}-p{1 if model.endswith('-seq') else 2}-s0")
    widths, recipe = MODELS[model]
    params = {**BASE, "model": model, "recipe": recipe, **widths, **p}
    return cell("images", folder(root, "images", sweep, name), params)


def cells(root="runs") -> list[dict]:
    first = {"vit": 30, "hyena-vit": 30, "hyena-seq": 12, "hyena-iso": 8, "s4nd-iso": 8}  # epochs, under one recipe
    grid = [run(root, "digits-cpu", m, recipe="digits-cpu", epochs=ep) for m, ep in first.items()]
    grid += [run(root, "digits-cpu-30ep", m, epochs=30) for m in MODELS]
    ablation = [("hyena-iso", "hyena-iso-s0", {}), ("hyena-iso", "hyena-iso-emb9-s0", dict(emb_dim=9)),
                ("hyena-iso", "hyena-iso-reach4-s0", dict(window_reach=4.0)),
                ("hyena-iso", "hyena-iso-nowindow-s0", dict(window_reach=0.0)),
                ("s4nd-iso", "s4nd-iso-s0", dict(filter_order=64))]  # one command line for all five: filter_order 64
    grid += [run(root, "digits-iso-ablation", m, name, epochs=8, **change) for m, name, change in ablation]
    return grid + [run(root, "digits-cpu-30ep-v2", "hyena-iso", "hyena-iso-reach4-s0", epochs=30, window_reach=4.0)]
