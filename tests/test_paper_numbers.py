"""The papers' numbers are typed once, in nbs/paper_numbers.csv: no module or notebook keeps a copy, and the one loader
(hyena_lit.core.paper) gives every table the reports need."""
import math
import re
from pathlib import Path

import pytest

from hyena_lit.core.paper import paper_numbers, paper_numbers_path, paper_table

ROOT = Path(__file__).resolve().parents[1]
# the copies that used to repeat the CSV, and the asserts that kept them equal to it
REMOVED = ["PAPER_TABLE_4_2", "PAPER_TABLE_C_1", "PAPER_TABLE_A_2", "PAPER_TABLE_11", "PAPER_TABLE_11_PARAMS",
           "TABLE13", "PAPER_TABLE_4_4", "PAPER_TABLE_4_3", "PAPER_TABLE_4_5", "PAPER_TABLE_4_6", "PAPER_LAMBADA",
           "PAPER_TABLE_4_4_FLOPS", "BASELINES_4_5", "BASELINES_4_6", "TABLE_4_7"]


def test_no_copy_of_a_paper_table_remains():
    files = [*(ROOT / "hyena_lit").rglob("*.py"), *(ROOT / "nbs").rglob("*.ipynb"), *(ROOT / "scripts").glob("*.py")]
    found = {f"{p.relative_to(ROOT)}: {name}" for p in files if not p.is_symlink()
             for name in re.findall(r"\b(" + "|".join(REMOVED) + r")\b", p.read_text())}
    assert not found, sorted(found)


def test_no_paper_value_is_typed_in_the_library_or_scripts():
    """Every printed value of the file with three or more digits and a nonzero last decimal (78.5, 1.88, 14.6; not
    4.3, which names a table) appears in no module of hyena_lit/ and no script: a value there is a second copy."""
    values = {v for v in paper_numbers().value if re.fullmatch(r"\d+\.\d*[1-9]", v) and len(v) >= 4}
    assert {"78.5", "1.88", "14.6", "27.9", "97.2"} <= values
    typed = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, sorted(values))) + r")(?:e\d+)?(?![\w.])")
    files = [*(ROOT / "hyena_lit").rglob("*.py"), *(ROOT / "scripts").glob("*.py")]
    found = {f"{p.relative_to(ROOT)}:{i}: {m}" for p in files for i, line in enumerate(p.read_text().splitlines(), 1)
             for m in typed.findall(line)}
    assert not found, sorted(found)


def test_the_csv_is_found_from_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # outside the project: the package's own checkout
    assert paper_numbers_path() == ROOT / "nbs" / "paper_numbers.csv"


@pytest.mark.parametrize("table,row,column,value", [
    ("Table 4.2", "L = 131k", "Hyena", 97.2), ("Table 4.2", "L = 30k", "RWKV", 12.4),
    ("Table C.1", "Hyena", "Acc @ 40", 85.0), ("Table A.2", "L = 131072, vocabulary 30", "CKConv", 14.3),
    ("Table 11", "Hyena (69M params)", "test L = 2^9", 44.1), ("Table 11", "Mamba (74K params)", "test L = 2^20", 100.0),
    ("Table 13", "Mamba (7M)", "L = 2^20", 81.31), ("Table 4.4", "GPT (355M)", "15B", 9.1),
    ("Table 4.3", "Hyena-3-slim (125M)", "Perplexity", 18.5), ("Table 4.5", "Hyena (153M, 137B tokens)", "COPA", 70.0),
    ("Table 4.4", "Hyena-2 (355M)", "FLOPs (1e19)", 3.93), ("Table 4.5", "GPTNeo (125M, 300B tokens)", "WSC", 27.9),
    ("Table 4.5", "RWKV (169M, 332B tokens)", "Average", 40.2),
    ("Table 4.6", "GPTNeo (125M, 300B tokens)", "MultiRC", 22.4),
    ("Table 4.6", "RWKV (169M, 332B tokens)", "COPA", 64.0),
])
def test_the_loader_gives_the_tables_numbers(table, row, column, value):
    assert paper_table(table).loc[row, column] == value


def test_the_reports_read_their_tables_from_the_csv():
    from hyena_lit.eval.downstream import paper_superglue
    from hyena_lit.eval.synthetics_results import paper_table_11, paper_table_11_sizes
    from hyena_lit.experiments.pile import paper_perplexity
    t11 = paper_table_11()
    assert t11.shape == (15, 6) and t11.loc[1024, "hyena"] == 12.5 and math.isnan(t11.loc[2 ** 15, "attention"])
    assert paper_table_11_sizes()["hyena"] == "69M"
    assert paper_perplexity()["355M"] == {5e9: 11.3, 10e9: 9.8, 15e9: 9.2}
    assert paper_superglue("Table 4.6")["multirc"] == 26.7 and len(paper_superglue("Table 4.5")) == 8
    with pytest.raises(ValueError, match="has no row"): paper_table("Table 4.4", rows={"GPT (1.3B)": "x"})


def test_flops_and_superglue_baselines_come_from_the_csv():
    from hyena_lit.eval.downstream import paper_beside, paper_superglue
    from hyena_lit.models.flops import paper_table_4_4_flops
    flops = paper_table_4_4_flops()
    assert list(flops) == ["GPT (125M)", "Hyena-2 (153M)", "GPT (355M)", "Hyena-2 (355M)"]
    assert flops["GPT (355M)"] == pytest.approx(4.77e19) and flops["Hyena-2 (153M)"] == pytest.approx(1.87e19)
    assert paper_superglue("Table 4.5", "RWKV-169M")["wsc"] == 13.4
    assert paper_superglue("Table 4.6", "GPTNeo-125M")["rte"] == 53.8
    with pytest.raises(ValueError, match="is not one of"): paper_superglue("Table 4.5", "GPT-2")
    import pandas as pd
    board = paper_beside(pd.DataFrame(columns=["task", "run", "n", "acc"]))
    cb0 = board[(board.task == "cb") & (board.shots == 0)].iloc[0]
    assert (cb0["GPTNeo-125M"], cb0["RWKV-169M"], cb0["Hyena-153M"]) == (41.1, 25.0, 39.3)


def test_reference_rows_are_not_scored():
    """GPTNeo's and RWKV's rows (kind `reference`) are in the file for the reports, not rows to reproduce: the
    scoreboard reads the same rows as its committed output."""
    import csv
    from hyena_lit.eval.fields import load_paper
    every, scored = paper_numbers(), load_paper()
    reference = every[every.kind == "reference"]
    assert len(reference) == 36 and set(reference.table) == {"Table 4.5", "Table 4.6"}
    assert set(scored.kind) == {"number", "claim"} and len(scored) == len(every) - len(reference)
    with open(ROOT / "runs" / "scoreboard" / "scoreboard.csv", newline="") as f:
        board_ids = [r["id"] for r in csv.DictReader(f)]
    assert board_ids == list(scored.id) and not set(board_ids) & set(reference.id)


def test_the_image_and_pg19_reports_read_the_csv():
    from hyena_lit.experiments.images import paper_table_4_7
    t = paper_table_4_7()
    assert t["vit"] == dict(acc="78.5 (16x16) / 80.0 (8x8)", data="ImageNet-1k", params="87M")
    assert t["hyena-iso"] == dict(acc="91.2", data="CIFAR-10", params="202k") and t["s4d-seq"]["acc"] == "91 (S4)"
    pg19 = paper_table("App. A.2 (PG-19, 1.3B, 153M)")
    assert pg19.loc["Hyena-153M on PG-19, context 16K", "test perplexity"] == 14.6


def test_selectors_filter_columns_and_no_run_folder_dict_remains():
    """A selector is a filter on columns of runs/index.csv, never a substring search; what a run was made with
    or despite (a defect, a budget raised after a result) lives in its own files, not in a dict of folders."""
    from hyena_lit.eval.run_index import COLUMNS
    sel = paper_numbers().selector
    prose = sel.str.contains(r"str\.contains", regex=True)
    assert not prose.any(), list(sel[prose])[:3]
    named = {w for s in sel for w in re.findall(r"\b([a-z_]+)\s*(?:==|!=|>=|<=|<|>|\bin\b|\bnot in\b)", s)}
    assert named <= set(COLUMNS), sorted(named - set(COLUMNS))
    code = "\n".join(p.read_text() for p in (ROOT / "hyena_lit").rglob("*.py"))
    assert not re.search(r"\b(DEFECTS|BUDGET_AFTER_RESULT)\s*=", code)
