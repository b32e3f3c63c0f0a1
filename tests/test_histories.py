"""history.csv at evaluation cadence (18c_histories, `compact_history`): the committed histories stay small, and compacting keeps
every evaluation row, averages the training loss over each interval, and is done once."""
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from hyena_lit.train.histories import KEEP_PER_STEP, compact_histories, compact_history, is_stepwise

ROOT = Path(__file__).resolve().parents[1]


def _committed() -> list[Path]:
    ls = subprocess.run(["git", "ls-files", "runs"], capture_output=True, text=True, cwd=ROOT)
    if ls.returncode != 0: pytest.skip("not a git checkout")
    return [ROOT / f for f in ls.stdout.split() if f.endswith("history.csv")]


def test_committed_histories_are_small_and_compact():
    """A history at evaluation cadence is tens of KB (the largest, 800 epochs with validation, 85 KB) and one kept per
    step is MBs: each stays under 200 KB and they average under 20 KB, a bound that grows with the number of runs, not
    with their steps (a fixed total of 5 MB was reached by 506 histories averaging 10 KB)."""
    files = _committed()
    sizes = {f: f.stat().st_size for f in files}
    big = {str(f.relative_to(ROOT)): n for f, n in sizes.items() if n > 200_000}
    assert not big, big
    assert sum(sizes.values()) < 20_000 * len(files)
    kept = [f for f in files if any(f.parent.match(k) for k in KEEP_PER_STEP)]
    for f in set(files) - set(kept):
        h = pd.read_csv(f)
        assert len(compact_history(h)) == len(h), f"{f.relative_to(ROOT)} is not at evaluation cadence"


def _steps(n=10, every=4):
    return pd.DataFrame([dict(step=s, tokens=8 * s, loss=float(100 - s), lr=1e-3 * s, tokens_per_second=float(s),
                              **({"test_acc": s / 100, "test_loss": 1 / s} if s % every == 0 else {})) for s in range(1, n + 1)])


def test_compaction_keeps_evaluations_and_averages_the_loss():
    h = _steps()
    c = compact_history(h)
    ev = h.dropna(subset=["test_acc"])
    assert c.step.tolist() == [4, 8, 10]                   # each evaluation, and the last step
    pd.testing.assert_frame_equal(c.iloc[:2][["step", "tokens", "lr", "test_acc", "test_loss"]].reset_index(drop=True),
                                  ev[["step", "tokens", "lr", "test_acc", "test_loss"]].reset_index(drop=True))
    assert c.loss.tolist() == [h.loss[:4].mean(), h.loss[4:8].mean(), h.loss[8:].mean()]
    secs = 8 / h.tokens_per_second                      # 8 tokens a step
    assert c.tokens_per_second.tolist() == pytest.approx([32 / secs[:4].sum(), 32 / secs[4:8].sum(), 16 / secs[8:].sum()], rel=1e-12)
    assert (8 * (c.tokens.diff().fillna(c.tokens[0]) / 8) / c.tokens_per_second).sum() == pytest.approx(secs.sum(), rel=1e-12)
    assert compact_history(c).equals(c)
    epochs = pd.DataFrame(dict(epoch=[1, 2], train_loss=[2.0, 1.0], test_acc=[0.1, 0.2]))
    assert not is_stepwise(epochs) and compact_history(epochs).equals(epochs)


def test_migration_is_idempotent(tmp_path):
    for run in ("lm/cpu/a", "mechanistic/cpu/b"): (tmp_path / run).mkdir(parents=True); _steps(12, 3).to_csv(tmp_path / run / "history.csv", index=False)
    (tmp_path / "dna/cpu/pretrain_x").mkdir(parents=True); _steps().to_csv(tmp_path / "dna/cpu/pretrain_x/history.csv", index=False)
    (tmp_path / "ar/cpu/c").mkdir(parents=True); pd.DataFrame(dict(epoch=[1], train_loss=[1.0])).to_csv(tmp_path / "ar/cpu/c/history.csv", index=False)
    first = compact_histories(tmp_path)
    assert sorted(f.parent.name for f in first) == ["a", "b"]   # per-epoch and KEEP_PER_STEP histories left as they are
    after = {f: f.read_bytes() for f in tmp_path.rglob("history.csv")}
    assert compact_histories(tmp_path) == [] and after == {f: f.read_bytes() for f in tmp_path.rglob("history.csv")}
    assert len(pd.read_csv(tmp_path / "lm/cpu/a/history.csv")) == 4 and len(pd.read_csv(tmp_path / "dna/cpu/pretrain_x/history.csv")) == 10
    assert not list(tmp_path.rglob("*.tmp"))
