"""From Table A.1 to the official synthetics configuration, one change at a time (ABLATION of
31_associative_recall): which differences between the paper's recipe and the official code's make Hyena solve
associative recall at L = 128 for vocabularies 30 and 40? Second seeds where the walk moves (vocabulary 30, from the
MLP width on) and at its end. The walk's last step at L = 256 is the official configuration there: these are
Figure 4.1's Hyena cells at vocabularies 30 and 40."""
from hyena_lit.experiments.associative_recall import ABLATION
from grids._common import walk_cells

BASE = dict(num_train=2000, num_test=500, n_layer=2, d_model=64, d_inner=128, embed_dropout=0.0, fresh_data=False)
STEPS = [name for name, _, _ in ABLATION]


def cells(root="runs") -> list[dict]:
    grid = walk_cells(root, "ablation-L128", BASE, STEPS, 128, [30, 40])
    grid += walk_cells(root, "ablation-L128", BASE, STEPS[8:12], 128, [30], seeds=[1])  # d-inner-256 ... linear
    grid += walk_cells(root, "ablation-L128", BASE, ["official"], 128, [40], seeds=[1])
    return grid + walk_cells(root, "official-L256", BASE, ["official"], 256, [30, 40])
