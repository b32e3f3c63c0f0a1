"""Figure 4.2 and Table 4.4 at CPU scale (40_pile): perplexity against training tokens for Hyena and its GPT
partner of the same shape, at 0.5M, 1M and 2M tokens of Shakespeare (the `mini` sizes, context 512, Table A.3's
recipe). Does Hyena keep pace with attention as the budget grows?"""
from hyena_lit.experiments.pile import plan_runs
from grids._common import folder, lm_cells


def cells(root="runs") -> list[dict]:
    return lm_cells(plan_runs("mini", gpt="auto", tokens="0.5M,1M,2M", out_dir=folder(root, "pile", "cpu-mini")))
