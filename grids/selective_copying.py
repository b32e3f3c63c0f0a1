"""The Mamba paper's selective copying (its appendix E.1) at L = 256, V = 16: can a mixer copy, in order, the
tokens scattered among noise? Hyena, H3, attention and Mamba under the Mamba protocol with one lr, 1e-3, for every
model, capped at 20 CPU minutes a run; then Mamba with 40 minutes. Mamba stays near chance at L = 256, so the easy
case comes first: Mamba at L = 64 and 128 at both of the paper's learning rates (1e-3 and 1e-4), 15 minutes a run.
Then Mamba at L = 256 with 65 minutes on two threads, about twice the 40-minute run's steps: is its plateau a
budget the longer sequence needs, or a wall? Two ablations at 35 minutes a run bracket it: L = 192 at lr 1e-3
(where between 128, solved, and 256, stuck, does learning stop?) and L = 256 at lr 3e-3 (does a larger step leave
the plateau?). Last, a length curriculum: the same Mamba trained at L = 128, then from those weights at 256, then at
512. If it solves 256 from the 128 weights in the steps that left the model trained from scratch at chance, the wall
is finding the copy mechanism at long L, not holding 16 tokens for 256 steps. And the first grid again with a
validation split (selective-copying-val), each run given the steps its twin reached in 20 minutes: validation alone
chooses the step whose test accuracy a run reports."""
from grids._common import mechanistic_cells

PROTOCOL = dict(seq_lens=[256], evals_per_epoch=16, protocol_lr=1e-3)
NUM_VAL = 200  # a validation split as large as the test set


def easy(root="runs") -> list[dict]:
    "Mamba where the task is easiest: before calling its L = 256 result a failure, does it learn short sequences?"
    return [c for lr in (1e-3, 1e-4)
            for c in mechanistic_cells(root, f"selective-copying-easy-lr{lr:g}", "selective-copying", mixers=["mamba"],
                                       seq_lens=[64, 128], evals_per_epoch=16, protocol_lr=lr, max_minutes_per_run=15)]


def ablations(root="runs") -> list[dict]:
    "Mamba between the solved L = 128 and the stuck L = 256: a length in between, and a larger learning rate."
    return (mechanistic_cells(root, "selective-copying-ablation-L192", "selective-copying", mixers=["mamba"],
                              seq_lens=[192], evals_per_epoch=16, protocol_lr=1e-3, max_minutes_per_run=35)
            + mechanistic_cells(root, "selective-copying-ablation-lr3e-3", "selective-copying", mixers=["mamba"],
                                seq_lens=[256], evals_per_epoch=16, protocol_lr=3e-3, max_minutes_per_run=35))


def curriculum(root="runs", lens=(128, 256, 512), minutes=(20, 35, 35)) -> list[dict]:
    "Mamba at each length of `lens`, each run started from the weights of the one before (lr 1e-3, as the easy case)."
    out = []
    for L, m in zip(lens, minutes):
        c, = mechanistic_cells(root, "selective-copying-curriculum", "selective-copying", mixers=["mamba"], seq_lens=[L],
                               evals_per_epoch=16, protocol_lr=1e-3, max_minutes_per_run=m)
        c["params"].update(keep_checkpoint=True, init_from=out[-1]["run"] if out else "")
        out.append(c)
    return out


def cells(root="runs") -> list[dict]:
    mixers = ["hyena", "h3", "attention", "mamba"]
    return (mechanistic_cells(root, "selective-copying-cpu", "selective-copying", mixers=mixers, max_minutes_per_run=20,
                              **PROTOCOL)
            + mechanistic_cells(root, "selective-copying-cpu-40min", "selective-copying", mixers=["mamba"],
                                max_minutes_per_run=40, **PROTOCOL)
            + easy(root)
            + mechanistic_cells(root, "selective-copying-cpu-65min", "selective-copying", mixers=["mamba"],
                                max_minutes_per_run=65, **PROTOCOL)
            + ablations(root)
            + curriculum(root)
            + validation(root))


# the steps each mixer's 20-minute run of selective-copying-cpu planned (its params.json's steps_used; a test holds them)
TWIN_STEPS = {"hyena": 6382, "h3": 4869, "attention": 4204, "mamba": 3208}


def validation(root="runs") -> list[dict]:
    """The first grid (every mixer, L = 256) with a validation split (sweep selective-copying-val): validation alone
    stops a run and chooses its step, where the test set is read once. Each run trains the steps its twin in
    selective-copying-cpu reached in 20 CPU minutes (`TWIN_STEPS`), not 20 minutes of its own: a cap in time gives
    fewer steps on a slower machine or beside another run, and the two sweeps would differ by more than the split."""
    return [c for mixer, steps in TWIN_STEPS.items()
            for c in mechanistic_cells(root, "selective-copying-val", "selective-copying", mixers=[mixer],
                                       max_minutes_per_run=0, step_budget=steps, num_val=NUM_VAL, **PROTOCOL)]
