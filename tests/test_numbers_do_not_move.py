"""The engine took over three training loops (synthetics, quickstart, language models): the same settings must give the
committed histories of the old loops. 31_associative_recall checks a synthetic run; this file the other two."""
import json
import math
from pathlib import Path

import pandas as pd
import torch

ROOT = Path(__file__).resolve().parents[1]


def test_lm_run_matches_its_committed_history(tmp_path):
    from hyena_lit.experiments.lm_training import TrainConfig, train
    run = ROOT / "runs/pile/cpu-mini/mini-500k"
    p, old = json.loads((run / "params.json").read_text()), pd.read_csv(run / "history.csv")
    torch.set_num_threads(1)
    new = train(TrainConfig(**{**p["train"], "out_dir": str(tmp_path / "r"), "max_steps": 2}))
    assert len(new) == 2
    for a, (_, b) in zip(new, old.iterrows()):
        assert abs(a["loss"] - b.loss) <= 1e-6 * abs(b.loss) and math.isclose(a["lr"], b.lr, rel_tol=1e-12, abs_tol=1e-15), (a, dict(b))


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
    for a, (_, b) in zip(new, old.iterrows()):  # warmup steps: the old loop's time-estimated cosine does not reach them
        assert abs(a["loss"] - b.train_loss) <= 1e-6 * abs(b.train_loss) and math.isclose(a["lr"], b.lr, rel_tol=1e-12), (a, dict(b))
