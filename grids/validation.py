"""Every validation re-run behind a scoreboard row, in one grid, the rows with most at stake first. A row whose run
stopped or was chosen on the test set is flagged and cannot count; these cells are that run again with a validation
split disjoint from train and test, the same budget fixed before the run, and validation alone stopping it and
choosing the point where the test set is read once. Each cell is defined in its own experiment file (the sweep named
there, ending in -val); this file only orders them, so that `--workers 2 --stop-at` spends a slice of CPU on the
most decisive cells first:

1. Table 11 under the Mamba protocol (Hyena, H3, Mamba): 27 rows and the extrapolation claims.
2. Figure C.1's arithmetic, twelve runs of minutes each: seven rows flagged.
3. Figure 4.1's official grid, Hyena at L = 128 and 256, the vocabularies the old runs solved fastest first.
4. The single-layer row (V = 40, the official configuration at its own 400 epochs).
5. Mamba's Table 1 (selective copying), every mixer.
6. Figure 4.1's official grid at vocabulary 40, the explicit pair (Conv1d, FNO) and CKConv at L = 128 and 256: the cells
   of the claim that the implicit filters beat the explicit ones (Hyena's are run), then the rest of that grid.
7. Figure 4.1 under Table A.1's recipe, Table 4.2 at L = 512, Table C.1 at L = 2048 and MQAR: the costly rest
   (hours to days of CPU at their budgets; a GPU's work)."""
from fnmatch import fnmatchcase

from grids import (figure_4_1_official, figure_4_1_table_a1, mamba_table_11, selective_copying, single_layer,
                   table_4_1_figure_c1, table_4_2, table_c1, zoology_figure_2)

HYENA_OFFICIAL = [f"*fig4.1-official-val/hyena_L{L}_V{V}_s0" for V in (10, 20, 30, 40) for L in (128, 256)]
IMPLICIT_VS_EXPLICIT = [f"*fig4.1-official-val/{p}_L{L}_V40_s0" for L in (128, 256) for p in ("conv1d", "fno", "ckconv")]

ORDER = [  # (experiment file, glob on the run's path), most decisive first
    (mamba_table_11, "*table11-mamba-val/*"),
    (table_4_1_figure_c1, "*arithmetic-cpu-val/*"),
    *[(figure_4_1_official, g) for g in HYENA_OFFICIAL[:2]],  # V = 10: solved within 25 epochs before
    (single_layer, "*single-layer-official-val/*"),
    *[(figure_4_1_official, g) for g in HYENA_OFFICIAL[2:]],
    (selective_copying, "*selective-copying-val/*"),
    *[(figure_4_1_official, g) for g in IMPLICIT_VS_EXPLICIT],
    (figure_4_1_official, "*fig4.1-official-val/*"),
    (figure_4_1_table_a1, "*fig4.1-a1-val/*"),
    (table_4_2, "*table4.2-a1-val/*"),
    (table_c1, "*-val/*"),
    (zoology_figure_2, "*-val/*"),
]


def cells(root="runs") -> list[dict]:
    out, seen = [], set()
    for module, pattern in ORDER:
        for c in module.cells(root):
            if fnmatchcase(c["run"], pattern) and c["run"] not in seen:
                seen.add(c["run"])
                out.append(c)
    return out
