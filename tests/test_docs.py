"""The front page, README and the HTML site: README.md is generated from nbs/index.ipynb, `make docs` builds a page for
every notebook, and every module of the library has the notebook that exports it (and the other way round)."""
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_is_generated_from_the_front_page():
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "readme.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_docs_build_a_page_per_notebook(tmp_path):
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "docs.py"), str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    notebooks = {p.stem for p in (ROOT / "nbs").glob("*.ipynb")}
    pages = {p.stem for p in tmp_path.glob("*.html")}
    assert notebooks <= pages, notebooks - pages
    front = (tmp_path / "index.html").read_text()
    assert all(f'href="{n}.html"' in front for n in notebooks - {"index"})


def test_every_module_has_its_notebook():
    exported = {}
    for nb in (ROOT / "nbs").glob("*.ipynb"):
        m = re.search(r"#\| default_exp (\S+)", nb.read_text())
        if m: exported[m.group(1).replace("\\n", "").strip('",')] = nb.name
    modules = {p.stem for p in (ROOT / "hyena_lit").glob("*.py")} - {"__init__", "_modidx"}
    assert set(exported) == modules, (sorted(modules - set(exported)), sorted(set(exported) - modules))
