"""Runs with and without a validation split as the scoreboard reads them, on tiny settings (seconds): a Mamba-protocol
run (Table 11, selective copying) and an MQAR run with `num_val` report the test accuracy read once at the point
validation chose and are not flagged; the same Mamba run without a split, its early stop read on the test set, is."""
import pandas as pd

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
