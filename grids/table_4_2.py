"""Table 4.2: associative recall at V = 30 with two layers, Hyena against the other subquadratic mixers (GSS, H3,
AFT, RWKV, Mamba) and attention as the reference. Is Hyena the only one to solve it?

Two grids at L = 256: Table A.1's recipe capped at 6 CPU minutes a run (every position scored), and the official
synthetics configuration, scored at the answer alone. Then the paper's own setting for this table (its appendix A:
"the same associative recall task, using hyperparameters in Table A.1", 2000 examples, 200 epochs), uncapped and
scored at the answer alone, at L = 512 for all seven and at L = 1024 for Hyena, attention, H3, Mamba and RWKV (the
third to pass 90% at 512), and seeds 1 and 2 at L = 512 for the three rivals that pass 90% there (RWKV's margin
over the line, 1.6 points on seed 0, asks for seeds): about
13k steps a run, a GPU's work (`--device cuda --workers 8`: small models share one GPU). Mamba's cells train
on a CPU (`--only '*mamba*'` without `--device cuda`): the library's fused selective scan is C++ for CPUs; its
chunked torch form on a GPU trained at 5-11k tokens/s (the first epochs of mamba_L512, 13 cells sharing an H100).
RWKV's cell, too, is the CPU's: its recurrence is fused in C++ there (`impl='cpp'`, 17_baselines), and its torch scan
trained at 81k tokens/s on the H100 against 130-180k for the other mixers."""
from grids._common import mechanistic_cells

MIXERS = ["hyena", "attention", "gss", "h3", "aft", "rwkv", "mamba"]
LONGEST = ["hyena", "attention", "h3", "mamba", "rwkv"]
SEEDED = ["rwkv", "attention", "mamba"]  # the rivals above 90% at L = 512: is their margin more than a seed's?
A1_ORDER = ["hyena", "attention", "mamba", "h3", "rwkv", "gss", "aft"]  # the launcher's order: the rivals first
SETTING = dict(mixers=MIXERS, seq_lens=[256], vocab_size=30)
OFFICIAL = dict(recipe="official-synthetics", num_train=4000, num_test=500, d_inner=256, embed_dropout=0.1,
                recall_score="last", max_minutes_per_run=0)
TABLE_A1 = dict(vocab_size=30, recipe="paper-synthetics", num_train=2000, num_test=500, recall_score="last",
                max_minutes_per_run=0)


def table_a1(root="runs") -> list[dict]:
    """The paper's recipe for Table 4.2, answer-scored, uncapped: L = 512 for all seven, L = 1024 for five, two more
    seeds at L = 512 for RWKV, attention and Mamba."""
    return (mechanistic_cells(root, "table4.2-a1", "table4.2", mixers=A1_ORDER, seq_lens=[512], **TABLE_A1)
            + mechanistic_cells(root, "table4.2-a1", "table4.2", mixers=LONGEST, seq_lens=[1024], **TABLE_A1)
            + mechanistic_cells(root, "table4.2-a1", "table4.2", mixers=SEEDED, seq_lens=[512], seeds=[1, 2],
                                **TABLE_A1))


def validated(root="runs") -> list[dict]:
    """Table A.1's cells again with a validation split of 500 sequences (sweep table4.2-a1-val), which alone stops a run
    and picks its epoch: the seven at L = 512, Hyena at 1024."""
    a1 = dict(TABLE_A1, num_val=500)
    return (mechanistic_cells(root, "table4.2-a1-val", "table4.2", mixers=A1_ORDER, seq_lens=[512], **a1)
            + mechanistic_cells(root, "table4.2-a1-val", "table4.2", mixers=["hyena"], seq_lens=[1024], **a1))


def cells(root="runs") -> list[dict]:
    return (mechanistic_cells(root, "table4.2-cpu", "table4.2", max_minutes_per_run=6.0, **SETTING)
            + mechanistic_cells(root, "table4.2-official", "table4.2", **SETTING, **OFFICIAL)
            + table_a1(root) + validated(root))
