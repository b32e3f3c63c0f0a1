"""What the grid files share: the cell itself, and the expansions of a notebook's parameters into runs that
more than one grid uses. A cell is {"experiment": the runner, "run": the run folder relative to the repo root,
"params": the runner's settings less the folder and the machine-only settings (threads, workers, device, ...)}."""
from dataclasses import asdict
from pathlib import PurePosixPath

from hyena_lit.launch import KINDS

EXPERIMENTS = tuple(KINDS)  # the launcher's runners, one Runner record each
MACHINE = ("dir", "out_dir", "threads", "workers", "device", "progress", "force", "extend", "max_steps")


def cell(experiment: str, run, params: dict) -> dict:
    "One run: the runner's name, its folder (a repo-relative path), its settings less the folder and machine-only ones."
    if experiment not in EXPERIMENTS: raise ValueError(f"experiment must be one of {EXPERIMENTS}, got {experiment!r}")
    return {"experiment": experiment, "run": str(run), "params": {k: v for k, v in params.items() if k not in MACHINE}}


def folder(root, *parts) -> PurePosixPath:
    "root/parts..., written with forward slashes whatever the platform."
    return PurePosixPath(str(root), *map(str, parts))


def recall_cells(root, sweep: str, shared: dict, parametrizations, seq_lens, vocab_sizes, seeds=(0,),
                 skip=()) -> list[dict]:
    "31_associative_recall's grid: a run_setting cfg per length x vocabulary x parametrization x seed (setting_name)."
    from hyena_lit.experiments.associative_recall import setting_name
    out = []
    for L in sorted(seq_lens):
        for V in vocab_sizes:
            for p in parametrizations:
                for s in seeds:
                    if (p, L, V, s) in skip: continue
                    run = folder(root, "associative_recall", sweep, setting_name(p, L, V, s))
                    cfg = dict(shared, parametrization=p, seq_len=L, vocab_size=V, seed=s)
                    out.append(cell("associative_recall", run, cfg))
    return out


def walk_cells(root, sweep: str, base: dict, steps, seq_len: int, vocab_sizes, seeds=(0,)) -> list[dict]:
    "The walk of ABLATION (ablation_settings) on `base`: named steps x vocabularies x seeds at one length, uncapped."
    from hyena_lit.experiments.associative_recall import ablation_settings, setting_name
    out = []
    for i, name, cfg in ablation_settings(base, list(steps)):
        for V in vocab_sizes:
            for s in seeds:
                run = folder(root, "associative_recall", sweep, f"{i:02d}-{setting_name(name, seq_len, V, s)}")
                cfg = dict(cfg, parametrization="hyena", seq_len=seq_len, vocab_size=V, seed=s, max_minutes_per_run=0)
                out.append(cell("associative_recall", run, cfg))
    return out


def mechanistic_cells(root, sweep: str, preset: str, *, mixers=(), seq_lens=(), vocab_size=0, seeds=(0,),
                      digits=(2, 4, 8), layers=(1, 2), test_lens=(64, 128, 256, 512, 1024, 2048, 4096),
                      icl_dims=(2, 4, 8), num_train=2000, num_test=200, recipe="", epochs=None, batch_size=None,
                      lr=None, weight_decay=None, warmup_epochs=None, embed_dropout=None, recall_score="all",
                      d_model=64, d_inner=128, n_layer=2, steps_per_epoch=8192, evals_per_epoch=1, solved_at=1.0,
                      protocol_lr=None, max_minutes_per_run=3.0, num_val=0, step_budget=0, emb_dim=5,
                      filter_span=None) -> list[dict]:
    """33_mechanistic's sweep of `preset` with its parameters (defaults: the notebook's): a run_task cfg per run.
    `num_val` > 0 draws a validation split disjoint from training and test, which alone stops the run and picks its
    epoch (under the Mamba protocol: its step, where every test length is then read once). `step_budget` > 0 caps a
    Mamba-protocol run in steps, the same on any machine. `emb_dim` and `filter_span` set the Hyena filters'
    positional features (model_config); a bad one stops here, before any run."""
    from hyena_lit.experiments.mechanistic import (PRESETS, model_config, recipe_numbers, run_name, run_options,
                                                   settings_for, sweep_recipe)
    if not isinstance(num_val, int) or isinstance(num_val, bool) or num_val < 0:
        raise ValueError(f"num_val must be a non-negative integer, got {num_val!r}")
    mamba = PRESETS[preset].get("protocol") == "mamba"
    if step_budget and not mamba:
        raise ValueError(f"step_budget caps the Mamba protocol's runs; preset {preset!r} trains by epochs")
    numbers = recipe_numbers(sweep_recipe(preset, recipe, epochs, batch_size, lr, weight_decay, warmup_epochs), recipe)
    common = dict(num_train=num_train, num_test=num_test, **numbers, d_model=d_model, d_inner=d_inner,
                  max_minutes_per_run=max_minutes_per_run,
                  **(dict(steps_per_epoch=steps_per_epoch, evals_per_epoch=evals_per_epoch, solved_at=solved_at)
                     if mamba else {}),
                  **({"protocol_lr": protocol_lr} if protocol_lr is not None else {}),
                  **({"num_val": num_val} if num_val else {}),
                  **({"step_budget": step_budget} if step_budget else {}),
                  **run_options(preset, embed_dropout, recall_score, emb_dim, filter_span))
    out = []
    for s in settings_for(preset, list(mixers), list(seq_lens), vocab_size, list(seeds), list(digits), list(layers),
                          n_layer, list(test_lens), list(icl_dims)):
        cfg = {**common, **s, **({"lr": protocol_lr} if protocol_lr is not None else {})}
        model_config(cfg)  # checks the model's settings now (a filter_span under a test length, on another mixer)
        run = folder(root, "mechanistic", sweep, run_name(cfg))
        out.append(cell("mechanistic_steps" if mamba else "mechanistic", run, cfg))
    return out


def lm_cells(configs) -> list[dict]:
    "A cell per TrainConfig of hyena_lit.experiments.lm_training (a plan_runs plan of hyena_lit.experiments.pile); out_dir is the run folder."
    return [cell("lm", c.out_dir, asdict(c)) for c in configs]
