"""Figure 4.2 and Table 4.4 at CPU scale (40_pile): perplexity against training tokens for Hyena and its GPT
partner of the same shape, at 0.5M, 1M and 2M tokens of Shakespeare (the `mini` sizes, context 512, Table A.3's
recipe). Does Hyena keep pace with attention as the budget grows?

`lead_cells` asks where Hyena's lead on this pair comes from (seed 0: validation perplexity 343.7 against GPT's 391.3 at
0.5M tokens, both at Table A.3's peak rate 6e-4). The rule, written before these runs: a candidate cause is the cause
when removing it closes more than half of the validation-loss gap between the pair at 0.5M tokens.
- the learning rate: both models again at a peak of 2e-3; each side keeps the better of its two rates on validation.
- the learned absolute positions: GPT-mini with rotary positions (pos = "rope"), at 6e-4, against Hyena at 6e-4.
The scaling grid (grids/scaling.py, `position_cells`) asks the second question again with tuned rates, on a corpus no
run repeats."""
from dataclasses import replace

from hyena_lit.experiments.pile import plan_runs
from grids._common import folder, lm_cells

LEAD_RATE = 2e-3


def lead_cells(root="runs") -> list[dict]:
    from hyena_lit.models.families import config_json
    from hyena_lit.models.model import HyenaConfig
    out = folder(root, "pile", "cpu-mini-lead")
    hyena, gpt = plan_runs("mini", gpt="auto", tokens="0.5M", out_dir=out)
    rope = config_json(HyenaConfig.from_size("gpt-mini", pos="rope"))
    return lm_cells([replace(hyena, lr=LEAD_RATE, out_dir=f"{out}/mini-lr2e-03-500k"),
                     replace(gpt, lr=LEAD_RATE, out_dir=f"{out}/gpt-mini-lr2e-03-500k"),
                     replace(gpt, model=rope, out_dir=f"{out}/gpt-mini-rope-500k")])


def improved_cells(root="runs") -> list[dict]:
    """Mamba Figure 9's recipe claim on this pair (M-F9-improved-recipe): Hyena-mini at 0.5M tokens under the improved
    recipe, beside cpu-mini's run under Table A.3's."""
    return lm_cells(plan_runs("mini", gpt="", tokens="0.5M", recipe="improved", out_dir=folder(root, "pile", "cpu-improved")))


def cells(root="runs") -> list[dict]:
    return lm_cells(plan_runs("mini", gpt="auto", tokens="0.5M,1M,2M", out_dir=folder(root, "pile", "cpu-mini"))) \
        + lead_cells(root) + improved_cells(root)
