"""Tables 4.5 and 4.6 at CPU scale (60_downstream): Hyena and GPT of the `mini` shape trained on 0.5M tokens of
Shakespeare, then scored zero- and few-shot on the repository's fixtures of SuperGLUE and LAMBADA and on a cloze
set built from each model's held-out text. The two trainings come first: each evaluation reads its model's run."""
from hyena_lit.experiments.pile import plan_runs
from grids._common import cell, folder, lm_cells

TASKS = ["lambada_cloze", "hyena_superglue", "hyena_superglue_3shot", "hyena_lambada"]
EVALUATION = dict(tasks=TASKS, data_dir="hyena_lit/eval/lm_eval_tasks/fixtures", num_fewshot=-1, limit=0, batch_size=16, dtype="float32",
                  cloze_examples=500)  # 60_downstream's parameters; `run` is the model's run folder


def cells(root="runs") -> list[dict]:
    models = plan_runs("mini", gpt="auto", tokens="0.5M", out_dir=folder(root, "downstream", "models"))
    scores = [cell("downstream", folder(root, "downstream", "cpu-mini", folder(m.out_dir).name),
                   dict(EVALUATION, run=m.out_dir)) for m in models]
    return lm_cells(models) + scores
