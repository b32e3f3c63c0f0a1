"""Constant-time generation (13e_distill, 51_generation): the quickstart LM and a recall model distilled into modal
state spaces of order d = 2 to 64, their quality against the exact model, and time per generated token against the
context length (1k to 64k) for exact cached, distilled and attention-with-a-KV-cache generation."""
from grids._common import cell, folder

PARAMS = dict(  # 51_generation's parameters
    lm_steps=400, lm_seconds=150.0, recall_train=1000, recall_epochs=40, orders=[2, 4, 8, 16, 32, 64],
    refine_steps=300, eval_batches=16, contexts=[1024, 4096, 16384, 65536], new_tokens=48, timing_order=16, seed=0)


def cells(root="runs") -> list[dict]:
    return [cell("generation", folder(root, "generation", "cpu", "tiny"), PARAMS)]
