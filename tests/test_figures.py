"""A folder per paper figure or table: figures/<key>/figure.json names its scoreboard tables, its notebooks (the grid's
experiment notebook and the report), the run folders (sweeps) its rows read, and its entries on the site. The results
page, the README's headline table and the site's figures page are generated from these folders, and nothing else lists
which runs make a figure: every run a scoreboard row cites is found through the folder of the row's table alone."""
import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIGURES = {p.parent.name: json.loads(p.read_text()) for p in sorted((ROOT / "figures").glob("*/figure.json"))}
BOARD = list(csv.DictReader(open(ROOT / "runs" / "scoreboard" / "scoreboard.csv", newline="")))


def figure_of(table: str) -> str:
    found = [k for k, f in FIGURES.items() if table in f["tables"]]
    assert len(found) == 1, f"table {table!r} is named by {len(found)} figure folders: {found}"
    return found[0]


def test_every_figure_folder_names_what_exists():
    assert len(FIGURES) >= 15
    assert sorted(f["order"] for f in FIGURES.values()) == list(range(1, len(FIGURES) + 1))
    for k, f in FIGURES.items():
        assert set(f) == {"order", "title", "headline", "tables", "grids", "notebooks", "sweeps", "site"}, k
        for g in f["grids"]: assert (ROOT / g).is_file(), (k, g)
        for nb in f["notebooks"]: assert (ROOT / nb).is_file(), (k, nb)
        for sw in f["sweeps"]: assert (ROOT / "runs" / sw).is_dir(), (k, sw)
        for e in f["site"]: assert e["table"] in f["tables"], (k, e["table"])


def test_every_paper_row_finds_its_runs_through_its_figure_folder():
    "Each scoreboard row's table has one figure folder, and every run the row cites lies in a sweep that folder names."
    assert len(BOARD) >= 300
    lost = {}
    for r in BOARD:
        f = FIGURES[figure_of(r["table"])]
        for run in (x.strip() for x in r["run"].split(",") if x.strip()):
            sweep = "/".join(Path(run).parts[1:-1])
            if sweep not in f["sweeps"]: lost.setdefault(r["id"], []).append(run)
    assert not lost, f"runs cited by rows whose figure folder does not name their sweep: {dict(list(lost.items())[:5])}"
    cited = sum(bool(r["run"].strip()) for r in BOARD)
    assert cited >= 100, cited


def test_the_pages_are_generated_from_the_figure_folders():
    sys.path.insert(0, str(ROOT / "scripts"))
    import docs
    import results_page
    assert [s.key for s in results_page.SECTIONS] == sorted(FIGURES, key=lambda k: FIGURES[k]["order"])
    for s in results_page.SECTIONS:
        f = FIGURES[s.key]
        assert (s.title, s.notebooks, s.sweeps, s.tables, s.headline, s.grids) == (
            f["title"], f["notebooks"], f["sweeps"], f["tables"], f["headline"], f["grids"])
    assert {e.key for e in docs.ENTRIES} == {e["table"] for f in FIGURES.values() for e in f["site"]}
    assert len(docs.ENTRIES) == sum(len(f["site"]) for f in FIGURES.values())


def test_a_figure_names_the_grids_that_make_its_runs():
    "Every run folder a figure names that some grid makes is made by one of the figure's own grids."
    import runpy
    sys.path.insert(0, str(ROOT))
    made = {}
    for g in sorted((ROOT / "grids").glob("[!_]*.py")):
        for c in runpy.run_path(str(g))["cells"]("runs"):
            made.setdefault("/".join(Path(c["run"]).parts[1:-1]), set()).add(f"grids/{g.name}")
    for k, f in FIGURES.items():
        for sw in f["sweeps"]:
            if sw in made: assert made[sw] & set(f["grids"]), (k, sw, sorted(made[sw]))


def test_the_notebook_of_a_run_folder_comes_from_the_figure_folders():
    "The results page points a run folder no figure names to its experiment's notebook, read from the figure folders."
    sys.path.insert(0, str(ROOT / "scripts"))
    import results_page
    nb = results_page.experiment_notebooks(results_page.load_figures())
    assert results_page.NOTEBOOK == nb
    index = list(csv.DictReader(open(ROOT / "runs" / "index.csv", newline="")))
    experiments = {r["experiment"] for r in index}
    assert experiments <= set(nb), sorted(experiments - set(nb))  # none falls back to the front page
    for exp in experiments: assert (ROOT / nb[exp]).is_file(), (exp, nb[exp])
    # a figure folder's own experiment: the notebook most of the folders naming its runs name
    assert nb["mechanistic"] == "nbs/experiments/33_mechanistic.ipynb", nb["mechanistic"]
    assert nb["scaling"] == "nbs/eval/46_scaling_results.ipynb", nb["scaling"]
    figures = [("a", dict(sweeps=["x/1"], notebooks=["n1", "n2"])), ("b", dict(sweeps=["x/2", "y/1"], notebooks=["n2"]))]
    assert results_page.experiment_notebooks(figures) == {"x": "n2", "y": "n2"}
