"""The quickstart (19_quickstart): the `tiny` Hyena trained on Shakespeare's bytes for one CPU minute, then
sampled. Does the whole pipeline learn something in a minute?"""
from grids._common import cell, folder

QUICKSTART = dict(  # 19_quickstart's parameters (max_steps, 100_000, is a machine-only setting here)
    size="tiny", seq_len=256, batch_size=16, max_seconds=60.0, lr=1e-3, min_lr=1e-4, warmup_steps=50, weight_decay=0.1,
    eval_every=50, eval_batches=8, dataset="shakespeare", seed=0)


def cells(root="runs") -> list[dict]:
    return [cell("quickstart", folder(root, "quickstart", "cpu", "20261122-foundation"), QUICKSTART)]
