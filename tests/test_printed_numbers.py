"""One rule for every printed number. The README's headline table, runs/results.md and the figures page print, for an
accuracy of ours, what the scoreboard's rule gives (hyena_lit.eval.fields.last_value: the test accuracy at the epoch a
validation split chose, else the mean of the last five evaluations): a run's best epoch appears only labelled "best
epoch". Each printed number is checked against the values the rule gives for the runs and scoreboard rows of its own
section, so a best epoch, a best final accuracy or any number the rule would not give fails."""
import csv
import html
import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import results_page as rp  # noqa: E402

# an accuracy or perplexity as the pages print it: one decimal, not part of a longer number, a size or a ratio
NUMBER = re.compile(r"(?<![\d.^])(\d+\.\d)(?![\d.MKkBx%e])")
LABELLED = re.compile(r"best epoch (\d+\.\d)")
# sections whose numbers are not accuracies of runs: language-model perplexities (validation loss, nothing chosen on
# test), the downstream fixtures' averages, the runtime benchmark
NOT_ACCURACY = {"figure-42", "downstream", "runtime"}


@pytest.fixture(scope="module")
def R(): return rp.Runs()


def _board_numbers(rows: list[dict]) -> set[str]:
    "The numbers of the scoreboard's `ours` for these rows, less those it labels as a best epoch."
    out = set()
    for r in rows:
        text = r["ours"] + ("; best epoch " + r["ours_best"] if r["ours_best"] else "")
        out |= set(NUMBER.findall(LABELLED.sub("", text)))
    return out


def allowed(R, s) -> tuple[set[str], set[str]]:
    "(what the rule gives for the section's runs and scoreboard rows, their best epochs) as the pages print them."
    runs = [r for sw in s.sweeps for r in R.runs(*sw.split("/")) if "acc" in r["metric"]]
    configs = {}  # the rule over seeds: their mean
    for r in runs: configs.setdefault((r["sweep"], re.sub(r"_s\d+$", "", r["run"])), []).append(R.reported(r))
    rule = {rp.pct(R.reported(r)) for r in runs} | {rp.pct(sum(v) / len(v)) for v in configs.values()}
    rule |= _board_numbers([r for t in s.tables for r in R.table(t)])
    best = {rp.pct(r["best"]) for r in runs if r["best"] and "acc" in r["metric"]}
    return rule, best


def outside_rule(text: str, rule: set[str], best: set[str]) -> list[str]:
    "The numbers of `text` the rule would not give: unlabelled ones not in `rule`, labelled best epochs not in `best`."
    bad = [f"best epoch {x}" for x in LABELLED.findall(text) if x not in best]
    return bad + [x for x in NUMBER.findall(LABELLED.sub("", text)) if x not in rule]


def headline_cells(R) -> dict[str, str]:
    "Each headline section's `ours` cell, as README.md and runs/results.md print it."
    return {s.key: rp.ours(R, s) for s in rp.SECTIONS if s.headline}


def test_the_headline_prints_the_rule(R):
    bad = {}
    for s in (s for s in rp.SECTIONS if s.headline and s.key not in NOT_ACCURACY):
        rule, best = allowed(R, s)
        text = rp.ours(R, s)
        if out := outside_rule(text, rule, best): bad[s.key] = (out, text)
    assert not bad, bad


def test_the_check_fails_on_a_best_epoch(R):
    "The issue's cases: a best epoch printed as the result (curriculum Mamba's 98.1 at 256), a best final accuracy."
    s = next(s for s in rp.SECTIONS if s.key == "selective-copying")
    rule, best = allowed(R, s)
    text = rp.ours(R, s)
    assert not outside_rule(text, rule, best)
    cur = next(r for r in R.runs("mechanistic", "selective-copying-curriculum") if r["seq_len"] == "256")
    reported, top = rp.pct(R.reported(cur)), rp.pct(cur["best"])
    assert (reported, top) == ("61.8", "98.1") and f"{reported} at 256 (best epoch {top})" in text
    assert outside_rule(text.replace(f"{reported} at 256 (best epoch {top})", f"{top} at 256"), rule, best) == [top]
    plain = next(r for r in R.runs("mechanistic", "selective-copying-cpu") if r["mixer"] == "mamba")
    assert outside_rule(f"Mamba {rp.pct(plain['best'])}", rule, best) == ["13.8"]


def test_pages_print_the_board_and_the_rule(R):
    "runs/results.md and README.md hold the headline cells; every run table's `reported` is the rule's value."
    page, readme = (ROOT / "runs" / "results.md").read_text(), (ROOT / "README.md").read_text()
    for key, text in headline_cells(R).items():
        assert rp.cell(text) in page and rp.cell(text) in readme, key
    lines = [l for l in page.splitlines() if l.startswith("| [") and re.search(r"\| test_acc \|", l)]
    assert lines, "no run table with an accuracy on runs/results.md"
    for line in lines:
        path = re.match(r"\| \[([^\]]+)\]", line).group(1)
        exp, *mid, run = path.split("/")
        r = next(x for x in R.index if (x["experiment"], x["sweep"], x["run"]) == (exp, "/".join(mid), run))
        cells = [c.strip() for c in line.split("|")[1:-1]]
        assert cells[5] == rp.pct(R.reported(r)) and cells[6] == rp.pct(r["best"]), line


def test_the_figures_page_prints_the_board(tmp_path):
    "figures.html: every row's `ours` is the scoreboard's, which the rule made."
    spec = importlib.util.spec_from_file_location("docs", ROOT / "scripts" / "docs.py")
    docs = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(docs)
    page = docs.figures_page(tmp_path).read_text()
    board = list(csv.DictReader(open(ROOT / "runs" / "scoreboard" / "scoreboard.csv", newline="")))
    shown = {html.unescape(m) for m in re.findall(r"<tr class=\"[^\"]*\"><td>.*?</td><td>.*?</td><td>.*?</td><td>(.*?)</td>", page)}
    ours = {r["ours"] for r in board}
    assert shown and shown <= ours, sorted(shown - ours)[:5]
    assert "Figure 2 (MQAR)" in page and "Table 1 (selective copying)" in page
