"""`ranked` with `by`: tiers judged within each group (a task), the margin the smallest gap over the groups where every
operator ran, a group short of an operator named and not counted."""
import math

import pandas as pd

import hyena_lit.eval.claims as C

TIERS = [["a", "b"], ["c", "d"], ["e", "f"]]


def _frame(rows):
    "Values as `_values` gives them: one row per configuration."
    return pd.DataFrame([dict(mixer=m, task=t, seq_len=L, vocab_size=V, value=x, src=f"runs/{t}/{m}", sd=math.nan,
                              seeds=1) for t, L, V, m, x in rows])


def _judge(monkeypatch, rows, **kw):
    monkeypatch.setattr(C, "_values", lambda runs, field, root: _frame(rows))
    return C.ranked(None, {"field": "best%"}, None, TIERS, **kw)


def test_each_task_judged_apart(monkeypatch):
    # majority and counting share (L, V): without `by` their cells would be one
    rows = [("majority", 64, 10, m, x) for m, x in zip("abcdef", (90, 80, 70, 60, 50, 40))]
    rows += [("counting", 64, 10, m, x) for m, x in zip("abcdef", (30, 29, 20, 25, 10, 5))]
    ok, text, used, margin = _judge(monkeypatch, rows, by=["task"])
    assert ok and margin == 4  # counting: min(30, 29) - max(20, 25) = 4; majority's gaps are 10
    assert text.startswith("counting: mean over 1 cells: a 30.0, b 29.0 > c 20.0, d 25.0 > e 10.0, f 5.0 ✓; majority:")
    assert len(used) == 12
    # one tier inverted on one task: the claim fails there, by that gap
    rows[-4] = ("counting", 64, 10, "c", 31)
    ok, text, _, margin = _judge(monkeypatch, rows, by=["task"])
    assert not ok and margin == 29 - 31 and "counting: mean over 1 cells" in text and "✗" in text


def test_a_task_short_of_an_operator_is_named_not_counted(monkeypatch):
    rows = [("majority", 64, 10, m, x) for m, x in zip("abcdef", (90, 80, 70, 60, 50, 40))]
    rows += [("addition", 12, 10, m, x) for m, x in zip("abcde", (1, 2, 3, 4, 5))]  # f has not run, a inverted
    ok, text, used, margin = _judge(monkeypatch, rows, by=["task"])
    assert ok and margin == 10 and len(used) == 6
    assert text.endswith("not every operator has run on addition (not counted)")
    # no group with every operator: no verdict
    assert _judge(monkeypatch, rows[6:], by=["task"])[0] is None


def test_without_by_the_cells_pool_as_before(monkeypatch):
    rows = [("majority", 64, 10, m, x) for m, x in zip("abcdef", (90, 80, 70, 60, 50, 40))]
    rows += [("addition", 12, 10, m, x) for m, x in zip("abcdef", (30, 29, 20, 25, 10, 5))]
    ok, text, _, margin = _judge(monkeypatch, rows)
    assert ok and text.startswith("mean over 2 cells: a 60.0, b 54.5 > c 45.0, d 42.5 > e 30.0, f 22.5")
    assert margin == 54.5 - 45.0


def test_an_expected_task_without_runs_is_named(monkeypatch):
    rows = [("majority", 64, 10, m, x) for m, x in zip("abcdef", (90, 80, 70, 60, 50, 40))]
    ok, text, _, margin = _judge(monkeypatch, rows, by=["task"], expect=["addition", "majority", "counting"])
    assert ok and margin == 10 and text.endswith("; no runs on addition, counting")
    assert not _judge(monkeypatch, rows, by=["task"], expect=["majority"])[1].count("no runs")
