"""Build the browsable site in _docs/ (or the folder given): one HTML page per notebook (found recursively
under nbs/, as `make notebooks` finds them), index.html (the front page, nbs/index.ipynb, then every page
grouped by genre and folder) and figures.html (each of the papers' tables and figures: the paper's numbers
beside ours, the scoreboard's status, our figures, the run folders). Offline: nbconvert only; the CDN
scripts nbconvert adds are removed, MathJax is copied from Debian's libjs-mathjax when it is installed. The
figures page reads only committed files: nbs/paper_numbers.csv, runs/scoreboard/scoreboard.csv and the PNG
files under runs/."""
import csv
import html
import json
import re
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notebooks import ROOT, genre, notebooks  # noqa: E402

GENRES = [("chapter", "Chapters"), ("experiment", "Experiments"), ("report", "Reports")]
MATHJAX = Path("/usr/share/javascript/mathjax")
MATHJAX_PARTS = ["MathJax.js", "config/TeX-AMS_CHTML-full.js", "config/Safe.js", "extensions",
                 "jax/input/TeX", "jax/output/CommonHTML", "jax/element", "fonts/HTML-CSS/TeX/woff"]
STYLE = ("<style>body{font-family:sans-serif;margin:2em;max-width:75em}"
         " table{border-collapse:collapse;font-size:90%} img{max-width:100%}"
         " td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}"
         " .reproduced,.by-construction{background:#dfd} .differs{background:#fed}"
         " .within-noise{background:#eef}"
         " .not-run{color:#777}</style>")


def title(nb: dict, default: str) -> str:
    for c in nb["cells"]:
        if c["cell_type"] == "markdown":
            for line in "".join(c["source"]).splitlines():
                if line.startswith("# "): return line[2:].strip()
    return default


def offline(page: str, mathjax: bool) -> str:
    "The page without scripts from the network: require.js and the mermaid loader dropped, MathJax local."
    page = re.sub(r'<script[^>]*src="https?://[^"]*require[^"]*"[^>]*>\s*</script>', "", page)
    cdn = r"<script[^>]*>(?:(?!</script>).)*https?://cdn(?:(?!</script>).)*</script>"
    page = re.sub(cdn, "", page, flags=re.S)
    local = '<script src="mathjax/MathJax.js?config=TeX-AMS_CHTML-full,Safe"'
    return re.sub(r'<script[^>]*src="https?://[^"]*mathjax[^"]*"', local if mathjax else "<script", page)


def copy_mathjax(out: Path) -> bool:
    "MathJax 2 for the pages (Debian's libjs-mathjax, the version nbconvert names); False when absent."
    if not (MATHJAX / "MathJax.js").exists(): return False
    for part in MATHJAX_PARTS:
        src, dst = MATHJAX / part, out / "mathjax" / part
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir(): shutil.copytree(src, dst, dirs_exist_ok=True)
        elif src.exists(): shutil.copy(src, dst)
    return True


@dataclass
class Page:
    path: Path        # the notebook
    genre: str
    section: str      # its folder under nbs/ ("" at the top)
    title: str

    @property
    def name(self) -> str: return f"{self.path.stem}.html"


def executed_copies() -> dict[str, list[Path]]:
    "Notebook stem -> its executed copies under runs/ (papermill's input_path names the notebook), oldest first."
    found: dict[str, list[tuple[str, Path]]] = {}
    for p in sorted((ROOT / "runs").rglob("*.ipynb")):
        try: meta = json.loads(p.read_text()).get("metadata", {}).get("papermill", {})
        except (OSError, ValueError): continue
        stem = Path(meta.get("input_path") or "").stem
        if stem: found.setdefault(stem, []).append((meta.get("end_time") or "", p))
    return {stem: [p for _, p in sorted(v)] for stem, v in found.items()}


def banner(text: str) -> str:
    return f'<div style="margin:1em 2em;padding:.5em 1em;background:#eef">{text}</div>'


def last_run_page(exporter, nb_path: Path, copies: list[Path], out: Path, mathjax: bool) -> str:
    """The latest executed copy of an experiment notebook as its own page, `<stem>-last-run.html`; returns the
    banner for the experiment's page, which has no outputs of its own (running it trains)."""
    import nbformat
    last = copies[-1]
    rel = last.relative_to(ROOT).as_posix()
    body, _ = exporter.from_notebook_node(nbformat.read(last, as_version=4))
    head = banner(f'The executed copy <code>{html.escape(rel)}</code> of <a href="{nb_path.stem}.html">'
                  f"{html.escape(nb_path.stem)}</a>, with its outputs.")
    name = f"{nb_path.stem}-last-run.html"
    page = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + head, offline(body, mathjax), count=1)
    (out / name).write_text(page)
    return banner(f"Running this notebook trains; it has {len(copies)} executed cop"
                  f"{'y' if len(copies) == 1 else 'ies'} under <code>runs/</code>. The latest, "
                  f'<a href="{name}">{html.escape(rel)}</a>, shows its outputs and figures.')


def build_pages(out: Path, mathjax: bool) -> list[Page]:
    import nbformat
    from nbconvert import HTMLExporter
    exporter, pages, copies = HTMLExporter(template_name="lab"), [], executed_copies()
    for nb_path in notebooks():
        nb = nbformat.read(nb_path, as_version=4)
        body = offline(exporter.from_notebook_node(nb)[0], mathjax)
        if genre(nb_path) == "experiment" and copies.get(nb_path.stem):
            top = last_run_page(exporter, nb_path, copies[nb_path.stem], out, mathjax)
            body = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + top, body, count=1)
        (out / f"{nb_path.stem}.html").write_text(body)
        section = nb_path.parent.relative_to(ROOT / "nbs").as_posix()
        section = "" if section == "." else section
        pages.append(Page(nb_path, genre(nb_path), section, title(nb, nb_path.stem)))
    names = [p.name for p in pages]
    assert len(set(names)) == len(names), f"two notebooks share a name: {sorted(names)}"
    return pages


def nav(pages: list[Page]) -> str:
    "Every page but the front, grouped by genre, then by folder."
    parts = ['<nav style="margin: 2em"><h2>Every notebook</h2>',
             '<p><a href="figures.html">The papers\' tables and figures, ours beside them</a></p>']
    others = sorted({p.genre for p in pages} - {g for g, _ in GENRES} - {"front"})
    for g, heading in GENRES + [(x, x) for x in others]:
        group = [p for p in pages if p.genre == g]
        if not group: continue
        parts.append(f"<h3>{html.escape(heading)}</h3>")
        for section in sorted({p.section for p in group}):
            if section: parts.append(f"<h4>{html.escape(section)}</h4>")
            items = [f'<li><a href="{p.name}">{html.escape(p.path.stem)}</a>: {html.escape(p.title)}</li>'
                     for p in group if p.section == section]
            parts.append("<ul>" + "\n".join(items) + "</ul>")
    return "\n".join(parts) + "</nav>"


# ---------------------------------------------------------------------------------------- the figures page
@dataclass
class Entry:
    key: str             # the table's name in paper_numbers.csv and the scoreboard
    paper: str           # Hyena, Mamba or Zoology
    about: str
    figures: list[str]   # globs under runs/ of our figures (the sweep folders' PNGs are added)
    runs: tuple = ()     # globs of run folders beyond those the scoreboard names


def site_entries(root: Path | None = None) -> list[Entry]:
    "The entries of figures.html: each figure folder's `site` list (figures/<key>/figure.json), in the site's order."
    found = [e for d in sorted((root or ROOT / "figures").glob("*/figure.json")) for e in json.loads(d.read_text())["site"]]
    return [Entry(e["table"], e["paper"], e["about"], list(e["figures"]), tuple(e["runs"]))
            for e in sorted(found, key=lambda e: e["site_order"])]


ENTRIES = site_entries()


def anchor(key: str) -> str: return re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")


def read_csv(rel: str) -> list[dict]:
    with open(ROOT / rel, newline="") as f: return list(csv.DictReader(f))


def run_folders(rows: list[dict]) -> list[str]:
    "The run folders the scoreboard rows name (its `run` column lists them, comma-separated)."
    return [r.strip() for row in rows for r in row["run"].split(",") if r.strip()]


def entry_figures(e: Entry, folders: list[str]) -> list[Path]:
    "Our figures of an entry: its globs, then the PNGs in the folders of its runs (sweeps and run folders)."
    found = [p for g in e.figures for p in sorted((ROOT / "runs").glob(g))]
    found += [p for f in folders for p in sorted((ROOT / f).glob("*.png"))]
    return list(dict.fromkeys(found))


def entry_sweeps(e: Entry, runs: list[str]) -> list[str]:
    "The folders holding the entry's runs, relative to the repository (each once)."
    extra = [p for g in e.runs for p in sorted((ROOT / "runs").glob(g)) if p.is_dir()]
    sweeps = [r.rsplit("/", 1)[0] if (ROOT / r / "params.json").exists() else r for r in runs]
    return list(dict.fromkeys(sweeps + [p.relative_to(ROOT).as_posix() for p in extra]))


def cell(s: str) -> str: return html.escape(s or "")


def rows_table(rows: list[dict], paper: dict) -> str:
    "One line per number of the paper: where, the paper's value, ours, the status, the run (or why none)."
    head = ("<tr><th>row</th><th>column</th><th>paper</th><th>ours</th><th>status</th>"
            "<th>run, or why not run</th></tr>")
    lines = [head]
    for r in rows:
        p, runs = paper.get(r["id"], {}), run_folders([r])
        value = f'{p.get("value", r["value"])} {p.get("unit", r["unit"])}'.strip()
        where = (cell(runs[0]) + (f" (+{len(runs) - 1} more)" if len(runs) > 1 else "")) if runs else ""
        why = r["note"] or p.get("not_run", "")
        if why: where += ("; " if where else "") + cell(why)
        status = r["status"] + (f" (would be {r['would_be']}: {r['flag']})" if r.get("would_be") else "")
        tds = [cell(r["row"]), cell(r["column"]), cell(value), cell(r["ours"]), cell(status), where]
        lines.append(f'<tr class="{anchor(r["status"])}">' + "".join(f"<td>{t}</td>" for t in tds) + "</tr>")
    return "<table>" + "\n".join(lines) + "</table>"


def copy_figure(png: Path, out: Path) -> str:
    "Copy a figure under out/figures/ (named after its path under runs/) and return its relative address."
    name = png.relative_to(ROOT / "runs").as_posix().replace("/", "__")
    (out / "figures").mkdir(parents=True, exist_ok=True)
    shutil.copy(png, out / "figures" / name)
    return f"figures/{name}"


def entry_html(e: Entry, board: list[dict], paper: dict, out: Path) -> str:
    rows = [r for r in board if r["table"] == e.key and r["paper"] == e.paper]
    folders = entry_sweeps(e, run_folders(rows))
    counts = {s: sum(r["status"] == s for r in rows) for s in dict.fromkeys(r["status"] for r in rows)}
    empty = "no number of the paper's to score; our runs below" if folders else "not on the scoreboard: not run"
    status = ", ".join(f"{n} {s}" for s, n in counts.items()) or empty
    parts = [f'<section id="{anchor(e.key)}"><h2>{e.paper} {cell(e.key)}: {cell(e.about)}</h2>',
             f"<p><b>Scoreboard:</b> {cell(status)} ({len(rows)} numbers)</p>"]
    none = "<p>The paper's numbers are not in nbs/paper_numbers.csv.</p>"
    parts.append(rows_table(rows, paper) if rows else none)
    figs = entry_figures(e, folders)
    parts += [f'<figure><img src="{copy_figure(f, out)}" alt="{cell(f.name)}"><figcaption>'
              f'{cell(f.relative_to(ROOT).as_posix())}</figcaption></figure>' for f in figs]
    if not figs: parts.append("<p>No figure of ours.</p>")
    links = [f'<li><a href="../{cell(f)}/">{cell(f)}</a></li>' for f in folders]
    none = "<p>No run folder: not run.</p>"
    parts.append("<p><b>Run folders:</b></p><ul>" + "".join(links) + "</ul>" if links else none)
    return "\n".join(parts) + "</section>"


def figures_page(out: Path) -> Path:
    "figures.html: an entry for each of ENTRIES, from the committed paper numbers, scoreboard and figures."
    board = read_csv("runs/scoreboard/scoreboard.csv")
    paper = {r["id"]: r for r in read_csv("nbs/paper_numbers.csv")}
    toc = "".join(f'<li><a href="#{anchor(e.key)}">{e.paper} {cell(e.key)}</a>: {cell(e.about)}</li>'
                  for e in ENTRIES)
    body = "\n".join(entry_html(e, board, paper, out) for e in ENTRIES)
    page = out / "figures.html"
    page.write_text('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>Tables and figures</title>'
                    f'{STYLE}</head><body><p><a href="index.html">Index</a></p>'
                    "<h1>The papers' tables and figures</h1><p>The paper's numbers (nbs/paper_numbers.csv) "
                    "beside ours (runs/scoreboard/scoreboard.csv), "
                    f"with our figures and run folders.</p><ul>{toc}</ul>\n{body}\n</body></html>\n")
    return page


def front_page(pages: list[Page]) -> str:
    """index.html: README.md (nbs/index.ipynb with the scoreboard's line and the results table filled in) as HTML,
    its links made to work from _docs/ (a notebook's link goes to its page), then every page."""
    import mistune
    body = mistune.create_markdown(plugins=["table"])((ROOT / "README.md").read_text())
    stems = {p.path.stem for p in pages}

    def link(m: re.Match) -> str:
        href = html.unescape(m.group(1))
        stem = Path(href.split("#")[0]).stem
        if href.split("#")[0].endswith(".ipynb") and stem in stems: return f'href="{stem}.html"'
        if re.match(r"[a-z]+:|#", href): return m.group(0)
        return f'href="../{html.escape(href)}"'
    body = re.sub(r'href="([^"]*)"', link, body)
    figures = '<p><a href="figures.html">Each table and figure of both papers, ours beside it</a></p>'
    body = body.replace("</h1>", "</h1>" + figures, 1)
    head = f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>hyena_lit</title>{STYLE}</head>"
    return f"{head}<body>{body}{nav(pages)}</body></html>"


def build(out: Path) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    pages = build_pages(out, copy_mathjax(out))
    (out / "index.html").write_text(front_page(pages))
    return [out / p.name for p in pages] + [figures_page(out)]


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_docs"
    pages = build(out)
    n_fig = len(list((out / "figures").glob("*.png")))
    print(f"{len(pages)} pages in {out}, {n_fig} figures on figures.html")
