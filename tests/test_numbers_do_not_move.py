"""The engine took over three training loops (synthetics, quickstart, language models): the same settings must give the
committed histories of the old loops. 31_associative_recall checks a synthetic run; this file the other two. Their
history.csv files now hold one row per evaluation (18c_histories, `compact_history`), so the old loops' first optimizer steps,
as those files recorded them one row per step, are kept here."""
import json
import math
from pathlib import Path

import pandas as pd
import torch

ROOT = Path(__file__).resolve().parents[1]

# (loss, lr) of the first steps, from the per-step history.csv of each run before it was compacted
LM_FIRST_STEPS = [(10.809703826904297, 1e-06), (10.831634521484375, 0.001)]                  # runs/pile/cpu-mini/mini-500k
QUICKSTART_FIRST_STEPS = [(5.519150733947754, 1e-06), (5.506885051727295, 2.0980000000000002e-05),
                          (5.497184753417969, 4.096e-05)]                                    # runs/quickstart/cpu/20261122-foundation


def test_lm_run_matches_its_committed_history(tmp_path):
    from hyena_lit.experiments.lm_training import TrainConfig, train
    run = ROOT / "runs/pile/cpu-mini/mini-500k"
    p, old = json.loads((run / "params.json").read_text()), pd.read_csv(run / "history.csv")
    assert old.step.iloc[0] == p["train"]["eval_every"]  # compact: the first row ends the first evaluation interval
    torch.set_num_threads(1)
    new = train(TrainConfig(**{**p["train"], "out_dir": str(tmp_path / "r"), "max_steps": 2}))
    assert len(new) == 2
    for a, (loss, lr) in zip(new, LM_FIRST_STEPS, strict=True):
        assert abs(a["loss"] - loss) <= 1e-6 * abs(loss) and math.isclose(a["lr"], lr, rel_tol=1e-12, abs_tol=1e-15), (a, loss, lr)


def test_quickstart_matches_its_committed_history():
    from hyena_lit.models.model import HyenaConfig, HyenaLM
    from hyena_lit.experiments.quickstart import load_bytes, split, get_batch, quickstart_recipe
    from hyena_lit.train.engine import fit
    run = ROOT / "runs/quickstart/cpu/20261122-foundation"
    p, old = json.loads((run / "params.json").read_text()), pd.read_csv(run / "history.csv")
    torch.set_num_threads(p["threads"])
    torch.manual_seed(p["seed"])
    model = HyenaLM(HyenaConfig(**p["config"]))
    train, _ = split(load_bytes(p["dataset"]))
    gen = torch.Generator().manual_seed(p["seed"])
    r = quickstart_recipe(p["lr"], p["min_lr"], p["warmup_steps"], p["weight_decay"], p["max_steps"], p["batch_size"], p["eval_every"])
    new = fit(model, lambda step: get_batch(train, p["batch_size"], p["seq_len"], gen), r, stop_after=3, progress=False)
    assert old.step.iloc[0] == p["eval_every"]
    for a, (loss, lr) in zip(new, QUICKSTART_FIRST_STEPS, strict=True):  # warmup steps: the old loop's time-estimated cosine does not reach them
        assert abs(a["loss"] - loss) <= 1e-6 * abs(loss) and math.isclose(a["lr"], lr, rel_tol=1e-12), (a, loss, lr)
