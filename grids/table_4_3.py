"""Table 4.3 at CPU scale (41_wikitext103): Hyena-3 (order 3) at the Transformer's shape and Hyena-3-slim (1.5x
the layers, half the MLP width) beside GPT, on 0.5M tokens of Shakespeare at context 512. Does the slim shape help?"""
from hyena_lit.experiments.pile import plan_runs
from grids._common import folder, lm_cells


def settings(root="runs") -> dict:
    "What the grid's runs share (plan_runs' arguments but the size): grids/seeds.py repeats them with other seeds."
    return dict(dataset="shakespeare", tokens="0.5M", seq_len=512, order=3, tag="-o3", out_dir=folder(root, "wikitext103", "cpu-mini"))


def cells(root="runs") -> list[dict]:
    common = settings(root)
    return lm_cells(plan_runs("mini-base", gpt="auto", **common) + plan_runs("mini", gpt="", **common))
