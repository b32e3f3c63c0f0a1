"""Zoology's Figure 2, multi-query associative recall (MQAR): 100k training sequences, lengths 64/128/256 with
4/8/16 key-value pairs, widths 64 and 128, Hyena against attention, Mamba and H3, the best of three learning rates per
cell, each run capped at 20 CPU minutes. Does Hyena's gap to attention close with width, as Zoology reports? Then a
walk on one cell (Hyena, L = 64, width 64) from this reproduction's model to Zoology's, one change at a time, 10
whole epochs each (the last step, Zoology's code of the figure's date, also at its 64 epochs); and a first sweep
with 10k training sequences (attention fits them and not the test set). Last, the grid again with a validation split
as large as the test set (cpu-100k-val): validation alone stops each run, chooses its epoch and the cell's learning
rate, and the test set is read once, at the chosen epoch."""
from hyena_lit.experiments.mqar import ZOOLOGY_SETTINGS, mqar_runs, run_name
from grids._common import cell, folder

# Zoology's np.logspace(-4, -2, 4) less 1e-4 (35_mqar says why), written as the notebook's parameters write them
LO, MID, HI = 0.0004641588833612782, 0.002154434690031882, 0.01
NUM_VAL = 3000  # as many sequences as the test set
ZOOLOGY_MODEL = dict(mlp_ratio=0, param_hints=False, emb_dim=3, l_max_pad=0)  # no MLP, one AdamW group, its filter


def grid(root, sweep, mixers, settings, d_models, lrs, num_train=100_000, epochs=64, early_stop=0.99, batch_size=0,
         max_minutes_per_run=20, **model) -> list[dict]:
    "35_mqar's mqar_runs: mixer x (L, pairs) x width x lr, seed 0, vocabulary 8192, 3000 test sequences."
    runs = mqar_runs(mixers, settings, d_models, list(lrs), [0], 8192, num_train, 3000, epochs, early_stop, batch_size,
                     max_minutes_per_run, **model)
    return [cell("mqar", folder(root, "mqar", sweep, run_name(c)), c) for c in runs]


def walk(root, sweep, lrs, **change) -> list[dict]:
    return grid(root, sweep, ["hyena"], [[64, 4]], [64], lrs, **{"epochs": 10, "max_minutes_per_run": 0, **change})


def cells(root="runs") -> list[dict]:
    zoology_2023 = dict(ZOOLOGY_MODEL, mlp_ratio=4, mlp_activation="tanh", weight_decay=0.01, batch_size=1024,
                        early_stop=None, epochs=64)  # Zoology's blocks and recipe when its figure 2 was made
    return (grid(root, "cpu-100k", ["attention", "hyena", "mamba", "h3"], [list(s) for s in ZOOLOGY_SETTINGS], [64, 128],
                 [LO, MID, HI])
            + grid(root, "cpu-10k", ["attention"], [[64, 4]], [64], [LO, MID], num_train=10_000)
            + walk(root, "cpu-100k-30ep", [LO], epochs=30)
            + walk(root, "cpu-100k-10ep", [HI])
            + walk(root, "cpu-100k-nomlp", [LO], mlp_ratio=0)
            + walk(root, "cpu-100k-onegroup", [HI, LO, MID], param_hints=False)
            + walk(root, "cpu-100k-zoology", [HI, LO, MID], **ZOOLOGY_MODEL)
            + walk(root, "cpu-100k-zoology2023", [HI], **zoology_2023)
            + walk(root, "cpu-100k-zoology2023-10ep", [HI], **dict(zoology_2023, epochs=10))
            + grid(root, "cpu-100k-val", ["attention", "hyena", "mamba", "h3"], [list(s) for s in ZOOLOGY_SETTINGS],
                   [64, 128], [LO, MID, HI], num_val=NUM_VAL))
