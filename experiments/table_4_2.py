"""Table 4.2: associative recall at L = 256, V = 30 with two layers, Hyena against the other subquadratic mixers
(GSS, H3, AFT, RWKV, Mamba) and attention as the reference. Is Hyena the only one to solve it? Under Table A.1's
recipe (6 CPU minutes a run), and under the official synthetics configuration, scored at the answer alone."""
from experiments._common import mechanistic_cells

MIXERS = ["hyena", "attention", "gss", "h3", "aft", "rwkv", "mamba"]
SETTING = dict(mixers=MIXERS, seq_lens=[256], vocab_size=30)
OFFICIAL = dict(recipe="official-synthetics", num_train=4000, num_test=500, d_inner=256, embed_dropout=0.1,
                recall_score="last", max_minutes_per_run=0)


def cells(root="runs") -> list[dict]:
    return (mechanistic_cells(root, "table4.2-cpu", "table4.2", max_minutes_per_run=6.0, **SETTING)
            + mechanistic_cells(root, "table4.2-official", "table4.2", **SETTING, **OFFICIAL))
