"""Experiments as data: every file under experiments/ lists its grid's runs as cells, and the cells are faithful to the
runs already made. Each finished run folder under runs/ (one holding metrics.json) must be the `run` of exactly one cell,
whose `params` agree with the run's params.json (runs.params_conflicts, both ways: no setting the run recorded is
missing from the cell, apart from what the runner derives at run time). `python tests/test_experiments.py` prints,
per file, its cells, how many are finished runs, begun but unfinished, and new."""
import json
import runpy
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
from experiments._common import EXPERIMENTS, MACHINE  # noqa: E402
from hyena_lit.runs import conflicts_text, params_conflicts  # noqa: E402

FILES = sorted(p for p in (ROOT / "experiments").glob("*.py") if not p.name.startswith("_"))
DERIVED = {  # what each runner adds to its settings in params.json (resolved or measured at run time), and folder names
    "associative_recall": {"epochs_used", "warmup_epochs_used", "params", "model", "torch"},
    "mechanistic": {"epochs_used", "warmup_epochs_used", "params", "model", "torch"},
    "mechanistic_steps": {"steps_used", "params", "model", "recipe"},
    "mqar": {"epochs_used", "params", "model", "recipe"},
    "images": {"augmentation", "config", "params", "num_train_used", "num_test", "sweep", "run_name"},
    "dna": {"params", "genomes", "recipe"},
    "lm": set(),
    "quickstart": {"config", "torch", "started"},
    "runtime": {"started"},
    "downstream": {"lambada_cloze", "lm_eval"},
}
# run folder -> the disagreement a faithful grid leaves: 60_downstream records data_dir resolved (data_root's path),
# where the grid names the parameter the notebook takes ("fixtures")
KNOWN = {f"runs/downstream/cpu-mini/{m}-500k": "data_dir: saved 'hyena_lit/lm_eval_tasks/fixtures', asked 'fixtures'" for m in ("mini", "gpt-mini")}


def load(path: Path, root: str = "runs") -> list[dict]: return runpy.run_path(str(path))["cells"](root)


@pytest.fixture(scope="module")
def grids() -> dict[str, list[dict]]: return {p.stem: load(p) for p in FILES}


def finished_runs() -> list[str]: return sorted(str(p.parent.relative_to(ROOT)) for p in (ROOT / "runs").rglob("metrics.json"))


def saved_params(c: dict) -> dict:
    p = json.loads((ROOT / c["run"] / "params.json").read_text())
    return p["train"] if c["experiment"] == "lm" else p


def test_cells_are_well_formed(grids):
    assert FILES, "no experiment files"
    runs = Counter(c["run"] for cs in grids.values() for c in cs)
    assert not [r for r, n in runs.items() if n > 1], f"runs named by two cells: {[r for r, n in runs.items() if n > 1]}"
    for name, cs in grids.items():
        assert cs, f"{name}: no cells"
        for c in cs:
            assert set(c) == {"experiment", "run", "params"} and c["experiment"] in EXPERIMENTS, (name, c)
            assert c["run"].startswith("runs/") and not set(c["params"]) & set(MACHINE), (name, c["run"])
            json.dumps(c["params"])  # plain data


def test_root_moves_every_run(grids):
    for p in FILES:
        moved = load(p, "elsewhere/runs")
        assert [c["run"] for c in moved] == ["elsewhere/" + c["run"] for c in grids[p.stem]], p.name


def test_every_finished_run_has_its_cell(grids):
    cells = {c["run"]: c for cs in grids.values() for c in cs}
    missing = [r for r in finished_runs() if r not in cells]
    assert not missing, f"{len(missing)} finished runs no cell names: {missing[:10]}"
    bad = {}
    for r in finished_runs():
        c = cells[r]; saved = saved_params(c)
        text = conflicts_text(params_conflicts(saved, c["params"]))
        lost = sorted(set(saved) - set(c["params"]) - set(MACHINE) - DERIVED[c["experiment"]])
        if lost: text = "; ".join(filter(None, [text, f"recorded but not in the cell: {lost}"]))
        if text != KNOWN.get(r, ""): bad[r] = text
    assert not bad, "runs whose cell disagrees with params.json:\n" + "\n".join(f"{r}: {t}" for r, t in bad.items())


def counts(grids: dict) -> list[tuple]:
    rows = []
    for name, cs in grids.items():
        fin = sum((ROOT / c["run"] / "metrics.json").exists() for c in cs)
        begun = sum((ROOT / c["run"] / "params.json").exists() and not (ROOT / c["run"] / "metrics.json").exists() for c in cs)
        rows.append((name, len(cs), fin, begun, len(cs) - fin - begun))
    return rows


def test_counts(grids):
    rows = counts(grids)
    assert sum(r[2] for r in rows) == len(finished_runs())
    print("\n" + "\n".join(f"{n:22} {c:4d} cells {f:4d} finished {b:3d} unfinished {w:4d} new" for n, c, f, b, w in rows))


if __name__ == "__main__":
    rows = counts({p.stem: load(p) for p in FILES})
    for n, c, f, b, w in rows: print(f"{n:22} {c:4d} cells {f:4d} finished {b:3d} unfinished {w:4d} new")
    print(f"{'total':22} {sum(r[1] for r in rows):4d} cells {sum(r[2] for r in rows):4d} finished "
          f"{sum(r[3] for r in rows):3d} unfinished {sum(r[4] for r in rows):4d} new; {len(finished_runs())} finished runs under runs/")
