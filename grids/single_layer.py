"""Associative recall with one Hyena block instead of two (L = 128): can a single order-2 operator recall? Under
Table A.1's recipe (vocabularies 20 and 40), under the official configuration (the ablation walk's last step,
V = 40), and under the official configuration trained twice as long (a budget added after 400 epochs left V = 40
unsolved, so the scoreboard flags it). Last, the official configuration at its own 400 epochs with a validation split
(single-layer-official-val): the budget fixed before the run, validation alone stopping it and picking its epoch."""
from grids._common import recall_cells, walk_cells
from grids.table_a1_ablation import BASE
from grids.figure_4_1_official import NUM_VAL, OFFICIAL
from grids.figure_4_1_table_a1 import TABLE_A1


def cells(root="runs") -> list[dict]:
    table_a1 = dict(TABLE_A1, n_layer=1, max_minutes_per_run=0)
    official_800 = dict(OFFICIAL, n_layer=1, epochs=800, warmup_epochs=80)
    return (recall_cells(root, "single-layer-cpu", table_a1, ["hyena"], [128], [20, 40])
            + walk_cells(root, "single-layer-official", dict(BASE, n_layer=1), ["official"], 128, [40])
            + recall_cells(root, "single-layer-official-800ep", official_800, ["hyena"], [128], [40])
            + recall_cells(root, "single-layer-official-val", dict(OFFICIAL, n_layer=1, num_val=NUM_VAL), ["hyena"], [128],
                           [40]))
