"""Runs with and without a validation split as the scoreboard reads them, on tiny settings (seconds): a Mamba-protocol
run (Table 11, selective copying) and an MQAR run with `num_val` report the test accuracy read once at the point
validation chose and are not flagged; the same Mamba run without a split, its early stop read on the test set, is."""
import pandas as pd
import pytest

from hyena_lit.eval.fields import has_validation, last_value
from hyena_lit.eval import rules
from hyena_lit.eval.run_index import run_row
from hyena_lit.experiments.mechanistic import run_task_steps
from hyena_lit.experiments.mqar import mqar_runs, run_mqar

STEPS = dict(task="induction_heads", mixer="hyena", seq_len=16, vocab_size=6, n_layer=1, seed=0, test_lens=[16, 32],
             protocol="mamba", epochs=2, steps_per_epoch=4, evals_per_epoch=2, lr=1e-3, batch_size=8,
             weight_decay=0.0, num_test=16, d_model=16, d_inner=32, max_minutes_per_run=0, solved_at=1.0)


def index_row(root, *parts) -> pd.Series:
    return pd.Series(run_row(root.joinpath(*parts), root))


def test_mamba_protocol_run_without_validation_is_flagged(tmp_path):
    run_task_steps(dict(STEPS, dir=str(tmp_path / "mechanistic" / "s" / "noval")))
    row = index_row(tmp_path, "mechanistic", "s", "noval")
    assert not has_validation(row, tmp_path)
    flags = rules.test_choices(row, tmp_path)
    assert len(flags) == 1 and flags[0].startswith("no validation split"), flags


def test_mamba_protocol_run_with_validation_reads_test_once(tmp_path):
    m = run_task_steps(dict(STEPS, num_val=16, dir=str(tmp_path / "mechanistic" / "s" / "val")))
    row = index_row(tmp_path, "mechanistic", "s", "val")
    assert has_validation(row, tmp_path) and rules.test_choices(row, tmp_path) == []
    assert last_value(row, tmp_path) == m["selected_test_acc"] == m["test_len_acc"]["16"]
    assert m["test_read"].startswith("once") and set(m["test_len_acc"]) == {"16", "32"}


def test_mqar_run_with_validation_is_not_flagged(tmp_path):
    c, = mqar_runs(["hyena"], [[16, 2]], [16], [3e-3], [0], 64, 64, 16, 2, 0.99, 8, 0.0, num_val=16)
    m = run_mqar(dict(c, dir=str(tmp_path / "mqar" / "s" / "val")))
    row = index_row(tmp_path, "mqar", "s", "val")
    assert has_validation(row, tmp_path) and rules.test_choices(row, tmp_path) == []
    assert last_value(row, tmp_path) == m["selected_test_acc"] == m["final_test_acc"]


def test_a_step_budget_caps_a_mamba_protocol_run_and_is_checked_first(tmp_path):
    "step_budget: the run plans at most that many steps (a cap the same on any machine); a bad value writes nothing."
    m = run_task_steps(dict(STEPS, num_val=16, step_budget=3, dir=str(tmp_path / "mechanistic" / "s" / "cap")))
    assert m["steps_run"] == 3
    for bad in (-1, 2.5, True):
        d = tmp_path / "mechanistic" / "s" / f"bad{bad}"
        with pytest.raises(ValueError, match="step_budget"): run_task_steps(dict(STEPS, step_budget=bad, dir=str(d)))
        assert not d.exists()
    from hyena_lit.experiments.mechanistic import run_task
    epochs = {k: v for k, v in STEPS.items() if k != "protocol"}
    with pytest.raises(ValueError, match="step_budget"): run_task(dict(epochs, step_budget=3, dir=str(tmp_path / "e")))
    assert not (tmp_path / "e").exists()


def test_the_selective_copying_validation_runs_train_their_twins_steps():
    "Each run of selective-copying-val is given the steps its 20-minute twin of selective-copying-cpu planned."
    import json
    from pathlib import Path
    from hyena_lit.launch import load_cells
    root = Path(__file__).resolve().parents[1]
    cells = [c for c in load_cells(root / "grids" / "selective_copying.py") if "/selective-copying-val/" in c["run"]]
    assert len(cells) == 4
    for c in cells:
        twin = root / c["run"].replace("selective-copying-val", "selective-copying-cpu") / "params.json"
        assert c["params"]["step_budget"] == json.loads(twin.read_text())["steps_used"], c["key"]
        assert c["params"]["max_minutes_per_run"] == 0 and c["params"]["num_val"] > 0


def test_the_launcher_plans_a_mamba_protocol_cell_by_its_steps():
    from hyena_lit.launch import _tokens
    p = dict(protocol="mamba", epochs=49, steps_per_epoch=8192, batch_size=64, seq_len=256, num_train=2000)
    assert _tokens(p) == 49 * 8192 * 64 * 256
    assert _tokens(dict(p, step_budget=100)) == 100 * 64 * 256
    assert _tokens({k: v for k, v in p.items() if k != "protocol"}) == 49 * 2000 * 256  # the epoch protocol


def test_the_launcher_measures_a_step_budgeted_run_by_its_steps(tmp_path):
    "A finished run's tokens/s: its steps x batch x length over its seconds, whatever budget stopped it."
    import json
    from hyena_lit.launch import _measured
    saved = dict(protocol="mamba", epochs=49, steps_per_epoch=8192, batch_size=64, seq_len=256, num_train=2000,
                 step_budget=4096)
    (tmp_path / "metrics.json").write_text(json.dumps(dict(seconds=100.0, epochs_run=0.5)))
    assert _measured(tmp_path, saved)["tps"] == 4096 * 64 * 256 / 100.0
