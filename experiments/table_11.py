"""The Mamba paper's Table 11: induction heads trained at L = 256 and tested at lengths up to 2^14. Which mixers
extrapolate: Hyena, H3, Mamba, attention with learned, rotary or xPos positions? Under Table A.1's recipe with a fresh
training set every epoch (8 CPU minutes a run; then Hyena and Mamba for 40 whole epochs), and under the Mamba paper's
protocol (8192-step epochs of fresh batches, its epochs and lr per model; the attention models capped at 40 CPU minutes)."""
from experiments._common import mechanistic_cells

MIXERS = ["hyena", "h3", "attention", "attention:rope", "attention:xpos", "mamba"]
TO_2_14 = [2**k for k in range(6, 15)]  # 64 ... 16384


def cells(root="runs") -> list[dict]:
    grid = mechanistic_cells(root, "table11-cpu", "table11", max_minutes_per_run=8.0)
    grid += mechanistic_cells(root, "table11-cpu-40ep", "table11", mixers=["hyena", "mamba"], epochs=40, warmup_epochs=2,
                              max_minutes_per_run=0)
    grid += mechanistic_cells(root, "table11-mamba", "table11-mamba", mixers=MIXERS, test_lens=TO_2_14, evals_per_epoch=8,
                              max_minutes_per_run=0)
    capped = dict(evals_per_epoch=8, max_minutes_per_run=40)
    grid += mechanistic_cells(root, "table11-mamba-cpu", "table11-mamba", mixers=["attention"], test_lens=TO_2_14, **capped)
    return grid + mechanistic_cells(root, "table11-mamba-cpu", "table11-mamba", mixers=["attention:rope", "attention:xpos"],
                                    test_lens=TO_2_14[:-1], **capped)  # to 8192: the 16384 test did not fit beside them
