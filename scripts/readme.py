"""README.md from nbs/index.ipynb, and the results page runs/results.md (`scripts/results_page.py`).
The README is the front page's markdown cells with its marks filled in from the run folders: `<!-- verdict -->` three
lines counted from the scoreboard's rows and its status figure, `<!-- scoreboard -->` (where present) the scoreboard's
summary line, `<!-- headline -->` the short table of results (the paper's number beside ours, one row
per table or figure), `<!-- quickstart -->` a sentence on the committed quickstart run.
`python scripts/readme.py` writes both files; `--check` exits 1 when either differs from what it would write."""
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results_page import PAGE, ROOT, Runs, check_or_write, headline_table, render_page  # noqa: E402


def quickstart(R: Runs) -> str:
    "The committed quickstart run in one sentence, from runs/index.csv (empty when there is none)."
    rows = R.runs("quickstart", "cpu")
    if not rows: return ""
    r = rows[-1]
    return (f"The committed run ({int(r['params']) / 1e3:.0f}k parameters) took {r['epochs_run']} steps at "
            f"{float(r['tokens_per_second']) / 1e3:.0f}k tokens/s and ended at a validation loss of "
            f"{R.reported(r):.2f} nats per byte ({R.reported(r) / math.log(2):.2f} bits).")


FIGURE = "runs/scoreboard/status_by_table.png"


def verdict(R: Runs) -> str:
    "Three lines, counted from runs/scoreboard/scoreboard.csv, then the scoreboard's status figure (empty without a board)."
    if not R.board: return ""
    n = {k: [r for r in R.board if r["kind"] == k] for k in ("number", "claim")}
    c = {k: {s: sum(r["status"] == s for r in rows)
             for s in ("reproduced", "differs", "within noise", "by construction", "flagged", "not run")}
         for k, rows in n.items()}
    ran = {k: len(rows) - c[k]["not run"] for k, rows in n.items()}
    gpu = sum(r["status"] == "not run" and any(w in r["note"] + r["command"] for w in ("GPU", "cuda")) for r in n["number"])
    lines = [f"**Verdict.** {ran['number']} of the papers' {len(n['number'])} numbers ran: {c['number']['reproduced']}"
             f" reproduce, {c['number']['differs']} differ (each with a reason), {c['number']['within noise']} within"
             f" noise, {c['number']['by construction']} by construction, {c['number']['flagged']} flagged (chosen on test).",
             f"{ran['claim']} of {len(n['claim'])} claims ran: {c['claim']['reproduced']} hold,"
             f" {c['claim']['differs']} do not, {c['claim']['within noise']} within noise, {c['claim']['flagged']} flagged.",
             f"{c['number']['not run']} numbers not run ({gpu} need a GPU):"
             " [the scoreboard](runs/scoreboard/scoreboard.md) says why and how to run each."]
    figure = f"\n\n![Status by table]({FIGURE})" if (ROOT / FIGURE).exists() else ""
    return "  \n".join(lines) + figure


def render(R: Runs | None = None) -> str:
    R = R or Runs()
    nb = json.loads((ROOT / "nbs" / "index.ipynb").read_text())
    text = "\n\n".join("".join(c["source"]).strip("\n") for c in nb["cells"] if c["cell_type"] == "markdown") + "\n"
    summary = ROOT / "runs" / "scoreboard" / "summary.md"
    line = summary.read_text().strip() if summary.exists() else ""
    text = text.replace("<!-- scoreboard -->\n\n", line + "\n\n" if line else "")
    text = text.replace("<!-- headline -->", headline_table(R))
    text = text.replace("<!-- verdict -->", verdict(R))
    q = quickstart(R)
    return text.replace(" <!-- quickstart -->", " " + q if q else "")


if __name__ == "__main__":
    R, check = Runs(), "--check" in sys.argv
    ok = [check_or_write(ROOT / "README.md", render(R), check), check_or_write(PAGE, render_page(R), check)]
    sys.exit(0 if all(ok) else 1)
