"""Experiments as data: every file under grids/ lists the runs of its grid as cells, and the cells are faithful
to the runs already made. Each finished run folder under runs/ (one holding metrics.json) is the `run` of exactly one
cell, whose `params` agree with the run's params.json both ways: runs.params_conflicts finds nothing, and no setting
the run recorded is missing from the cell, apart from what its runner derives at run time. `python
tests/test_experiments.py` prints, per file, its cells and how many are finished runs, begun but unfinished, and new."""
import json
import runpy
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
from grids._common import EXPERIMENTS, MACHINE  # noqa: E402
from hyena_lit.train.runs import conflicts_text, params_conflicts  # noqa: E402
from hyena_lit.core.paths import is_finished, run_folders

FILES = sorted(p for p in (ROOT / "grids").glob("*.py") if not p.name.startswith("_"))
DERIVED = {  # what each runner adds to its settings in params.json (resolved or measured at run time; folder names)
    "associative_recall": {"epochs_used", "warmup_epochs_used", "params", "model", "torch"},
    "mechanistic": {"epochs_used", "warmup_epochs_used", "params", "model", "torch", "recipe"},
    "mechanistic_steps": {"steps_used", "params", "model", "recipe"},
    "mqar": {"epochs_used", "params", "model", "recipe"},
    "images": {"augmentation", "config", "params", "num_train_used", "num_test", "sweep", "run_name"},
    "dna": {"params", "genomes", "recipe"},
    "lm": set(),
    "quickstart": {"config", "torch", "started"},
    "runtime": {"started"},
    "downstream": {"lambada_cloze", "lm_eval"},
    "generation": {"torch", "machine", "started"},
}
KNOWN = {}  # run folder -> a disagreement a faithful grid has to leave (none)


# files that only order other files' cells (validation.py: every validation re-run, most decisive first); each of
# their cells must be the very cell its own file lists, and it is counted there
COMPOSED = {"validation"}


def load(path: Path, root: str = "runs") -> list[dict]: return runpy.run_path(str(path))["cells"](root)


@pytest.fixture(scope="module")
def grids() -> dict[str, list[dict]]: return {p.stem: load(p) for p in FILES if p.stem not in COMPOSED}


def test_composed_files_repeat_their_cells_exactly(grids):
    own = {c["run"]: c for cs in grids.values() for c in cs}
    for name in COMPOSED:
        cs = load(ROOT / "grids" / f"{name}.py")
        assert cs and len({c["run"] for c in cs}) == len(cs), name
        assert [c["run"] for c in cs if own.get(c["run"]) != c] == [], f"{name}: cells not as their own file lists them"


def finished_runs() -> list[str]:
    "The finished runs the repository holds: those git tracks (a user's own `make run` is not a grid's cell)."
    runs = sorted(str(d.relative_to(ROOT)) for d in run_folders(ROOT / "runs"))
    ls = subprocess.run(["git", "ls-files", "runs"], capture_output=True, text=True, cwd=ROOT).stdout.split()
    tracked = {str(Path(f).parent) for f in ls if f.endswith("/metrics.json")}
    return [r for r in runs if r in tracked] if tracked else runs


def saved_params(c: dict) -> dict:
    p = json.loads((ROOT / c["run"] / "params.json").read_text())
    return p["train"] if c["experiment"] == "lm" else p


def disagreement(c: dict) -> str:
    "params_conflicts' text, then the settings params.json records that the cell lacks (less derived and machine-only)."
    saved = saved_params(c)
    lost = sorted(set(saved) - set(c["params"]) - set(MACHINE) - DERIVED[c["experiment"]] - {"provenance", "kind"})
    return "; ".join(filter(None, [conflicts_text(params_conflicts(saved, c["params"])),
                                   f"recorded but not in the cell: {lost}" if lost else ""]))


def test_cells_are_well_formed(grids):
    assert FILES, "no experiment files"
    twice = [r for r, n in Counter(c["run"] for cs in grids.values() for c in cs).items() if n > 1]
    assert not twice, f"runs named by two cells: {twice}"
    for name, cs in grids.items():
        assert cs, f"{name}: no cells"
        for c in cs:
            assert set(c) == {"experiment", "run", "params"} and c["experiment"] in EXPERIMENTS, (name, c)
            assert c["run"].startswith("runs/") and not set(c["params"]) & set(MACHINE), (name, c["run"])
            json.dumps(c["params"])  # plain data


# grids whose later cells are chosen from the finished runs under their root (scaling.py: the larger sizes take the
# learning rate their family's sweep chose on validation), so an empty root lists only the cells chosen from nothing
READS_ITS_RUNS = {"scaling"}


def test_root_moves_every_run(grids):
    for p in FILES:
        if p.stem in COMPOSED: continue
        moved = [c["run"] for c in load(p, "elsewhere/runs")]
        expected = ["elsewhere/" + c["run"] for c in grids[p.stem]]
        if p.stem in READS_ITS_RUNS: assert moved and set(moved) <= set(expected), p.name
        else: assert moved == expected, p.name


def test_every_finished_run_has_its_cell(grids):
    cells = {c["run"]: c for cs in grids.values() for c in cs}
    missing = [r for r in finished_runs() if r not in cells]
    assert not missing, f"{len(missing)} finished runs no cell names: {missing[:10]}"
    bad = {r: t for r in finished_runs() if (t := disagreement(cells[r])) != KNOWN.get(r, "")}
    assert not bad, "runs whose cell disagrees with params.json:\n" + "\n".join(f"{r}: {t}" for r, t in bad.items())


def accept(c: dict):
    "The runner's own checks and configuration of cell `c`, short of data and training (notebook runners: none)."
    p, e = c["params"], c["experiment"]
    if e == "associative_recall":
        from hyena_lit.experiments.associative_recall import setting_model, setting_recipe
        setting_model(p, p["seq_len"]); setting_recipe(p)
    elif e in ("mechanistic", "mechanistic_steps"):
        from hyena_lit.experiments.mechanistic import model_config, run_recipe
        model_config(p); run_recipe(p, p["epochs"], p["warmup_epochs"])
    elif e == "mqar":
        from hyena_lit.experiments.mqar import mqar_model_config
        mqar_model_config(p)
    elif e == "images":
        from hyena_lit.experiments.images import _image_config, _resolve_recipe, check_image_params
        run = Path(c["run"])  # the notebook's sweep and run_name name the folder
        check_image_params(**p, device="cpu", threads=1, sweep=run.parent.name, run_name=run.name)
        _image_config(p, 1, 8, 10); _resolve_recipe(p)
    elif e == "dna":
        from hyena_lit.experiments.dna import check_dna_params
        check_dna_params(**dict(p, init_from=""), threads=1)  # a pretraining run's checkpoint/ exists once it has run
    elif e == "lm":
        from hyena_lit.experiments.lm_training import TrainConfig
        TrainConfig(**p)


def test_runners_accept_every_cell(grids):
    for name, cs in grids.items():
        for c in cs:
            try: accept(c)
            except Exception as e: raise AssertionError(f"{name}: {c['run']}: {type(e).__name__}: {e}") from e


def counts(grids: dict) -> list[tuple]:
    "(file, cells, finished, begun but unfinished, new) per file."
    rows, finished = [], set(finished_runs())
    for name, cs in grids.items():
        done = sum(c["run"] in finished for c in cs)
        begun = sum((ROOT / c["run"] / "params.json").exists() and not is_finished(ROOT / c["run"]) for c in cs)
        rows.append((name, len(cs), done, begun, len(cs) - done - begun))
    return rows


def table(rows: list[tuple]) -> str:
    rows = rows + [("total", *(sum(r[i] for r in rows) for i in range(1, 5)))]
    return "\n".join(f"{n:20} {c:4d} cells {f:4d} finished {b:3d} unfinished {w:4d} new" for n, c, f, b, w in rows)


def test_counts(grids):
    rows = counts(grids)
    assert sum(r[2] for r in rows) == len(finished_runs())  # each finished run is counted once
    print("\n" + table(rows))


if __name__ == "__main__":
    print(table(counts({p.stem: load(p) for p in FILES if p.stem not in COMPOSED})), f"\n{len(finished_runs())} finished runs under runs/")


def test_mechanistic_cells_check_the_positional_features_before_any_run(tmp_path):
    from grids._common import mechanistic_cells
    common = dict(mixers=["hyena"], test_lens=[64, 1024], max_minutes_per_run=0, evals_per_epoch=8)
    ok = mechanistic_cells(tmp_path, "s", "table11-mamba", emb_dim=33, filter_span=2**20, **common)
    assert [(c["params"]["emb_dim"], c["params"]["filter_span"]) for c in ok] == [(33, 2**20)]
    assert "emb_dim" not in mechanistic_cells(tmp_path, "s", "table11-mamba", **common)[0]["params"]  # absent at 5
    for bad, words in ((dict(filter_span=512), ("filter_span", ">= l_max = 1024")),
                       (dict(filter_span=2**20, mixers=["attention"]), ("filter_span", "'hyena'")),
                       (dict(emb_dim=4), ("emb_dim", "odd"))):
        with pytest.raises(ValueError) as e:
            mechanistic_cells(tmp_path, "s", "table11-mamba", **{**common, **bad})
        assert all(w in str(e.value) for w in words), str(e.value)
    assert not any(tmp_path.iterdir())  # no folder made
