"""Table 4.1's mechanistic tasks beyond recall (33_mechanistic, Table A.1's recipe, 3 CPU minutes a run): majority
and counting at L = 64 and in-context linear regression in 2, 4 and 8 dimensions, for Hyena, attention and Mamba.
Then Figure C.1's arithmetic: Hyena adding numbers of 2 to 16 digits with 1 to 3 layers (4 minutes a run)."""
from grids._common import mechanistic_cells


def cells(root="runs") -> list[dict]:
    arithmetic = dict(digits=[2, 4, 8, 16], layers=[1, 2, 3], max_minutes_per_run=4.0)
    return (mechanistic_cells(root, "tasks-cpu", "tasks")
            + mechanistic_cells(root, "arithmetic-cpu", "arithmetic", **arithmetic))
