"""Table 4.1's mechanistic tasks beyond recall (33_mechanistic, Table A.1's recipe, 3 CPU minutes a run): majority
and counting at L = 64 and in-context linear regression in 2, 4 and 8 dimensions, for Hyena, attention and Mamba.
Then Figure C.1's arithmetic: Hyena adding numbers of 2 to 16 digits with 1 to 3 layers (4 minutes a run); last, the
same twelve runs with a validation split (`validation`)."""
from grids._common import mechanistic_cells

ARITHMETIC = dict(digits=[2, 4, 8, 16], layers=[1, 2, 3])
NUM_VAL = 200  # a validation split as large as the test set


def cells(root="runs") -> list[dict]:
    return (mechanistic_cells(root, "tasks-cpu", "tasks")
            + mechanistic_cells(root, "arithmetic-cpu", "arithmetic", **ARITHMETIC, max_minutes_per_run=4.0)
            + validation(root))


def validation(root="runs", seeds=(0,), digits=ARITHMETIC["digits"], layers=ARITHMETIC["layers"]) -> list[dict]:
    """Figure C.1 with a validation split (sweep arithmetic-cpu-val): the budget fixed before the run at Table A.1's
    200 epochs with no time cap (the 4-minute cap above cut the planned epochs of the longest runs to 107-176), and
    validation alone stopping a run at its first 100% and choosing the epoch at which the test set is read."""
    return mechanistic_cells(root, "arithmetic-cpu-val", "arithmetic", digits=list(digits), layers=list(layers),
                             seeds=seeds, max_minutes_per_run=0, num_val=NUM_VAL)
