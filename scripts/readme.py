"""README.md from nbs/index.ipynb: its markdown cells, with the scoreboard's summary line where the page marks it.
`python scripts/readme.py` writes README.md; `--check` exits 1 when README.md differs from what it would write."""
import json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def render() -> str:
    nb = json.loads((ROOT / "nbs" / "index.ipynb").read_text())
    text = "\n\n".join("".join(c["source"]).strip("\n") for c in nb["cells"] if c["cell_type"] == "markdown") + "\n"
    summary = ROOT / "runs" / "scoreboard" / "summary.md"
    line = summary.read_text().strip() if summary.exists() else ""
    return text.replace("<!-- scoreboard -->\n\n", line + "\n\n" if line else "")

if __name__ == "__main__":
    new = render()
    if "--check" in sys.argv:
        same = (ROOT / "README.md").read_text() == new
        print("README.md is up to date" if same else "README.md differs from nbs/index.ipynb: run `make readme`")
        sys.exit(0 if same else 1)
    (ROOT / "README.md").write_text(new)
