"""Section 4.3's PG-19 experiment at CPU scale (42_pg19): the same Hyena trained at contexts 512 and 4096 on the
same tokens (0.5M of Shakespeare, 4096 a step). Does the longer context lower perplexity?"""
from hyena_lit.experiments.pile import plan_runs
from grids._common import folder, lm_cells

STEP_TOKENS = 4096


def cells(root="runs") -> list[dict]:
    plans = [plan_runs("mini", gpt="", dataset="shakespeare", tokens="0.5M", seq_len=L, global_batch=STEP_TOKENS // L,
                       micro_batch=1, out_dir=folder(root, "pg19", "cpu-mini"), tag=f"-ctx{L}") for L in (512, 4096)]
    return lm_cells([c for plan in plans for c in plan])
