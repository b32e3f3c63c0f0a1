"""The Mamba paper's selective copying (its Table 1 task, appendix E.1) at L = 256, V = 16: can a mixer copy the
tokens scattered among noise, in order? Hyena, H3, attention and Mamba under the Mamba protocol with one lr, 1e-3, for
every model, capped at 20 CPU minutes a run; Mamba again with 40 minutes."""
from experiments._common import mechanistic_cells

SHARED = dict(seq_lens=[256], evals_per_epoch=16, protocol_lr=1e-3)


def cells(root="runs") -> list[dict]:
    return (mechanistic_cells(root, "selective-copying-cpu", "selective-copying", mixers=["hyena", "h3", "attention", "mamba"],
                              max_minutes_per_run=20, **SHARED)
            + mechanistic_cells(root, "selective-copying-cpu-40min", "selective-copying", mixers=["mamba"], max_minutes_per_run=40,
                                **SHARED))
