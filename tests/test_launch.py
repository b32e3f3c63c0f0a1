"""The launcher end to end, as a user runs it: a four-cell grid on Ray with two workers, a second launch that skips
all four, the same grid in local processes where Ray is not installed, and a cell killed midway that resumes and ends
where an uninterrupted run ends."""
import json, os, signal, subprocess, sys, time
from pathlib import Path

import pandas as pd
import pytest

from hyena_lit.core.paths import is_finished, run_folders

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "grids" / "tiny.py"


def launch(*args, **kw):
    env = dict(os.environ, RAY_AUTH_MODE="disabled", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "hyena_lit.launch", *map(str, args)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=600, **kw)


def test_four_cells_on_ray_then_skipped(tmp_path):
    runs = tmp_path / "runs"
    first = launch(TINY, "--root", runs, "--workers", 2)
    assert first.returncode == 0, first.stderr[-3000:]
    assert "4 new" in first.stdout and "finished    4" in first.stdout, first.stdout
    done = [d.name for d in run_folders(runs)]
    assert len(done) == 4, done
    for p in runs.rglob("params.json"):
        assert json.loads(p.read_text())["provenance"]["device"] == "cpu"
        m = json.loads((p.parent / "metrics.json").read_text())  # the epoch is chosen on validation, test reported there
        assert 1 <= m["selected_epoch"] <= m["epochs_run"] and 0 <= m["selected_test_acc"] <= 1
    second = launch(TINY, "--root", runs, "--workers", 2)
    assert second.returncode == 0 and "4 finished, 0 unfinished, 0 new" in second.stdout, second.stdout
    assert "every cell is finished" in second.stdout


def test_four_cells_in_processes_without_ray(tmp_path, monkeypatch):
    import hyena_lit.launch as L
    monkeypatch.setattr(L, "_has_ray", lambda: False)
    monkeypatch.setattr(L, "_parallel", lambda *a, **k: pytest.fail("the Ray back end ran without Ray"))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))   # the spawned workers import hyena_lit and grids/ from here
    runs = tmp_path / "runs"
    cells = L.load_cells(TINY, root=runs)
    res = L.launch(cells, workers=2, progress=False)
    assert len(res) == 4 and (res.status == "finished").all(), res
    assert len(list(run_folders(runs))) == 4
    for c in cells:  # each folder records the runner that wrote it
        assert json.loads((c["dir"] / "params.json").read_text())["kind"] == c["experiment"]


def test_killed_cell_resumes_exactly(tmp_path):
    grid = tmp_path / "one.py"
    grid.write_text(TINY.read_text() + "\n_all = cells\ndef cells(root='runs'):\n"
                    "    return [dict(c, params=dict(c['params'], epochs=12)) for c in _all(root)[:1]]\n")
    a, b = tmp_path / "a" / "runs", tmp_path / "b" / "runs"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-m", "hyena_lit.launch", str(grid), "--root", str(a)], cwd=ROOT, env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    t0 = time.time()
    while time.time() - t0 < 300:  # kill once a few epochs are checkpointed
        try: h = list(a.rglob("history.csv"))
        except FileNotFoundError: h = []  # a folder renamed during the walk (checkpoint.tmp -> checkpoint)
        if h and len(pd.read_csv(h[0])) >= 3: break
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    run = next(a.rglob("params.json")).parent
    assert not is_finished(run) and (run / "checkpoint").exists()
    killed_at = len(pd.read_csv(run / "history.csv"))
    assert launch(grid, "--root", a).returncode == 0
    assert launch(grid, "--root", b).returncode == 0          # the same cell, never interrupted
    ha, hb = (pd.read_csv(next(r.rglob("history.csv"))) for r in (a, b))
    cols = [c for c in ha.columns if c not in ("seconds", "tokens_per_second")]
    assert 0 < killed_at < len(ha), killed_at
    pd.testing.assert_frame_equal(ha[cols], hb[cols])        # the resumed run ends where the uninterrupted one does


def test_a_recall_run_started_again_records_its_kind_and_the_abandoned_attempt(tmp_path, monkeypatch):
    """A folder left by an attempt that stopped before its first checkpoint, written before kinds were recorded:
    the recall runner trains it again from its first step and params.json then says so (kind, this start, the
    abandoned attempt), as RunFolder.start does for every runner."""
    import hyena_lit.launch as L
    monkeypatch.setattr(L, "_has_ray", lambda: False)
    cells = L.load_cells(TINY, root=tmp_path / "runs")[:1]
    assert (L.launch(cells, workers=1, progress=False).status == "finished").all()
    d = cells[0]["dir"]
    old = json.loads((d / "params.json").read_text())
    old.pop("kind")
    (d / "params.json").write_text(json.dumps(old))
    (d / "metrics.json").unlink()
    assert not (d / "checkpoint").exists() and not is_finished(d)
    assert (L.launch(cells, workers=1, progress=False).status == "finished").all()
    p = json.loads((d / "params.json").read_text())
    assert p["kind"] == "associative_recall"
    assert p["provenance"]["abandoned"] == [old["provenance"] | {"why": "no checkpoint to resume from"}]
