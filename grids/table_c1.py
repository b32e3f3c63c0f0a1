"""Table C.1: Hyena's associative-recall accuracy at vocabularies 10 to 40, the column the paper sets beside loss
on The Pile, here at L = 2048. Does accuracy fall with the vocabulary as the table reports? Under Table A.1's recipe
(each run cut to 8 CPU minutes), and under the official synthetics configuration, without and with a validation
split (tableC1-official-val: validation alone stops a run and picks its epoch)."""
from grids._common import recall_cells
from grids.figure_4_1_official import NUM_VAL, OFFICIAL
from grids.figure_4_1_table_a1 import TABLE_A1

VOCABULARIES = [10, 20, 30, 40]


def cells(root="runs") -> list[dict]:
    return (recall_cells(root, "tableC1-cpu", dict(TABLE_A1, max_minutes_per_run=8.0), ["hyena"], [2048], VOCABULARIES)
            + recall_cells(root, "tableC1-official", OFFICIAL, ["hyena"], [2048], VOCABULARIES)
            + recall_cells(root, "tableC1-official-val", dict(OFFICIAL, num_val=NUM_VAL), ["hyena"], [2048], VOCABULARIES))
