"""Figure 4.1 under the official synthetics configuration: associative recall by the Hyena operator with each
long-convolution parametrization (Hyena's filter, CKConv, a transfer function, H3's S4D, FNO, an explicit Conv1d),
at lengths 128 and 256 and vocabularies 10 to 40. Does Hyena's implicit filter keep recalling where the others stop
as the vocabulary grows? Then two controls at L = 128, V = 40: every other parametrization with Hyena's short
filters, and Hyena without them. Last, the grid with a validation split (fig4.1-official-val)."""
from grids._common import recall_cells
from hyena_lit.mixers.longconvs import LONG_CONVS

PARAMETRIZATIONS = list(LONG_CONVS)  # hyena, ckconv, transferfunc, h3, fno, conv1d: Figure 4.1's order
OFFICIAL = dict(  # the official 131k synthetics configuration, its recipe's numbers written out
    recipe="official-synthetics", epochs=400, batch_size=32, lr=5e-4, weight_decay=0.1, warmup_epochs=40,
    num_train=4000, num_test=500, n_layer=2, d_model=64, d_inner=256, emb_dim=5, embed_dropout=0.1, w=10.0,
    longconv_gating="official", longconv_ffn_width=64, max_minutes_per_run=0, fresh_data=False)
# Hyena's own cells at vocabularies 30 and 40 are the last step of the walk from Table A.1 (table_a1_ablation.py, 12-official)
WALK_CELLS = {("hyena", L, V, 0) for L in (128, 256) for V in (30, 40)}
SECOND_SEEDS = [("ckconv", 256, 40), ("transferfunc", 128, 30)]  # seed 0 far from another run of the same cell


NUM_VAL = 500  # a validation split as large as the test set: it alone stops a run and picks its epoch


def validated(root="runs", parametrizations=PARAMETRIZATIONS, vocab_sizes=(10, 20, 30, 40), seeds=(0,)) -> list[dict]:
    """The grid again with a validation split (sweep fig4.1-official-val): every parametrization at L = 128 and 256,
    V = 10 to 40, Hyena's own cells included (the walk's last step is this configuration), so no number of the
    grid rests on an epoch or a stop chosen on the test set. grids/seeds.py takes its other seeds from here."""
    return recall_cells(root, "fig4.1-official-val", dict(OFFICIAL, num_val=NUM_VAL), parametrizations, [128, 256],
                        vocab_sizes, seeds)


def cells(root="runs") -> list[dict]:
    return measured(root) + validated(root)


def measured(root="runs") -> list[dict]:
    sweep = "fig4.1-official"
    grid = recall_cells(root, sweep, OFFICIAL, PARAMETRIZATIONS, [128, 256], [10, 20, 30, 40], skip=WALK_CELLS)
    for p, L, V in SECOND_SEEDS: grid += recall_cells(root, sweep, OFFICIAL, [p], [L], [V], seeds=[1])
    short = dict(OFFICIAL, longconv_short_filter=3)  # the length of Hyena's short filters; 0: none
    grid += recall_cells(root, f"{sweep}-short-filters", short, PARAMETRIZATIONS[1:], [128], [40])
    none = dict(short, longconv_short_filter=0)
    return grid + recall_cells(root, f"{sweep}-no-short-filters", none, ["hyena"], [128], [40])
