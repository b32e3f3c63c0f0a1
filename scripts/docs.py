"""Build the browsable site: every notebook in nbs/ as an HTML page in _docs/ (or the folder given), and index.html,
the front page (nbs/index.ipynb) followed by a list of every page. Offline: nbconvert only (Quarto is not installable here)."""
import html, json, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def title(nb: dict, default: str) -> str:
    for c in nb["cells"]:
        if c["cell_type"] == "markdown":
            for line in "".join(c["source"]).splitlines():
                if line.startswith("# "): return line[2:].strip()
    return default

def build(out: Path) -> list[Path]:
    import nbformat
    from nbconvert import HTMLExporter
    out.mkdir(parents=True, exist_ok=True)
    exporter = HTMLExporter(template_name="lab")
    pages, links = [], []
    for nb_path in sorted(p for p in (ROOT / "nbs").rglob("*.ipynb") if "fixtures" not in p.parts and ".ipynb_checkpoints" not in p.parts):
        nb = nbformat.read(nb_path, as_version=4)
        body, _ = exporter.from_notebook_node(nb)
        page = out / f"{nb_path.stem}.html"
        page.write_text(body); pages.append(page)
        if nb_path.stem != "index": links.append(f'<li><a href="{page.name}">{html.escape(nb_path.stem)}</a>: {html.escape(title(nb, nb_path.stem))}</li>')
    front = (out / "index.html").read_text()
    nav = '<nav style="margin: 2em"><h2>Every notebook</h2><ul>' + "\n".join(links) + "</ul></nav>"
    (out / "index.html").write_text(front.replace("</body>", nav + "</body>", 1))
    return pages

if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_docs"
    pages = build(out)
    print(f"{len(pages)} pages in {out}")
