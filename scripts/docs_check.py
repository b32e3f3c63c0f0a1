"""`make docs-check`: open the built site (_docs/, or the folder given) in headless Chromium and fail when it
is broken.

Chromium is installed with apt-get when it is missing (as root). The index, figures.html and three other
pages (a chapter, a report, an experiment) are each screenshot into _docs/screenshots/ and loaded once more
with a small script that lists the images that did not load (naturalWidth 0). Every page is also checked
without a browser: every <img> src is a data: URI that decodes or a file that exists, and the page of a
report notebook that has a figure output shows at least one image. Prints the page count, the figure count
and the screenshots' names; exits 1 on a problem."""
import base64
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from notebooks import ROOT, genre, notebooks  # noqa: E402

IMG = re.compile(r"<img\b[^>]*?\bsrc=\"([^\"]*)\"", re.I)
PROBE = ("<script>window.addEventListener('load', () => setTimeout(() => {const bad = [...document.images]"
         ".filter(i => !i.complete || i.naturalWidth === 0).map(i => i.src.slice(0, 80));"
         " document.body.setAttribute('data-broken', JSON.stringify(bad));}, 500));</script>")


def chromium() -> str:
    "The Chromium binary, installed with apt-get when missing."
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found: return found
    if os.geteuid() != 0: sys.exit("chromium is missing: apt-get install -y chromium (as root)")
    subprocess.run("apt-get update && apt-get install -y chromium", shell=True, check=True)
    return shutil.which("chromium")


def browse(exe: str, page: Path, *args: str) -> str:
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=1280,2000",
           "--virtual-time-budget=10000", *args, page.resolve().as_uri()]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180).stdout


def static_problems(page: Path) -> tuple[list[str], int]:
    "A page's images that cannot load (a data: URI that does not decode, a missing file), and their count."
    text = page.read_text()
    srcs, bad = IMG.findall(text), []
    if re.search(r'<(script|link)\b[^>]*(src|href)="https?:', text):
        bad.append(f"{page.name}: a script or stylesheet from the network")
    for src in srcs:
        if src.startswith("data:"):
            try: ok = len(base64.b64decode(src.split(",", 1)[1], validate=True)) > 0
            except Exception: ok = False
            if not ok: bad.append(f"{page.name}: a data: URI does not decode")
        elif re.match(r"[a-z]+:", src): bad.append(f"{page.name}: an image from the network: {src[:80]}")
        elif not (page.parent / src.split("#")[0].split("?")[0]).is_file():
            bad.append(f"{page.name}: no file {src}")
    return bad, len(srcs)


def has_figure_output(nb: Path) -> bool:
    cells = json.loads(nb.read_text())["cells"]
    return any("image/png" in o.get("data", {}) for c in cells for o in c.get("outputs", []))


def chosen(site: Path) -> list[Path]:
    "index.html, figures.html, and the first chapter, report and experiment (preferring pages with figures)."
    picks = [site / "index.html", site / "figures.html"]
    for g in ("chapter", "report", "experiment"):
        nbs = [p for p in notebooks() if genre(p) == g]
        nbs.sort(key=lambda p: not has_figure_output(p))
        if nbs: picks.append(site / f"{nbs[0].stem}.html")
    return picks


def browser_problems(exe: str, page: Path, shots: Path) -> list[str]:
    "Screenshot the page, then load a copy with PROBE and read back the images that did not load."
    shot = shots / f"{page.stem}.png"
    browse(exe, page, f"--screenshot={shot}")
    if not shot.is_file() or shot.stat().st_size == 0: return [f"{page.name}: no screenshot"]
    probe = page.with_name(f".probe-{page.name}")
    probe.write_text(page.read_text().replace("</body>", PROBE + "</body>", 1))
    try: dom = browse(exe, probe, "--dump-dom")
    finally: probe.unlink()
    m = re.search(r'data-broken="([^"]*)"', dom)
    if not m: return [f"{page.name}: the page did not finish loading"]
    broken = json.loads(m.group(1).replace("&quot;", '"'))
    return [f"{page.name}: image did not load: {b}" for b in broken]


def main(site: Path) -> int:
    pages = sorted(site.glob("*.html"))
    if not (site / "index.html").exists() or not (site / "figures.html").exists():
        sys.exit(f"no site in {site}: run `python scripts/docs.py {site}` first")
    problems, n_img = [], 0
    for page in pages:
        bad, n = static_problems(page)
        problems += bad
        n_img += n
    for nb in (p for p in notebooks() if genre(p) == "report" and has_figure_output(p)):
        if static_problems(site / f"{nb.stem}.html")[1] == 0: problems.append(f"{nb.stem}.html: no figure")
    exe, shots = chromium(), site / "screenshots"
    shots.mkdir(exist_ok=True)
    for page in chosen(site): problems += browser_problems(exe, page, shots)
    n_fig = len(IMG.findall((site / "figures.html").read_text()))
    print(f"{len(pages)} pages, {n_img} images ({n_fig} on figures.html)")
    print("screenshots: " + ", ".join(p.relative_to(site).as_posix() for p in sorted(shots.glob("*.png"))))
    print("\n".join(problems) if problems else "no problem found")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "_docs"))
