"""`make notebooks`: execute the chapter and report notebooks in place, on CPU, from the committed runs/
artifacts, keeping their outputs, so that the site (`make docs`) shows them.

Each notebook runs in a fresh process through execnb's `CaptureShell`, the machinery of `nbdev_test`
(papermill is not used: it knows nothing of nbdev's `#|` flags), in the notebook's folder and with
`IN_TEST=1` as `nbdev_test` sets it, so a report writes its figures to a temporary folder instead of
rewriting the committed ones under runs/. Cells flagged with settings.ini's `tst_flags` (slow, gpu) are
skipped and keep the outputs they have. Without a GPU `TRITON_INTERPRET=1` is set. The outputs are made
small and deterministic: nbdev_clean's form (no execution counts, only settings.ini's metadata keys), the
repository's absolute path and temporary folders replaced, progress bars and widgets dropped, figures as
PNG, wall times and rates shown as `<t> ms` and `<t> tokens/s` (they change every run; measured timings live in
runs/). Other outputs that look like timings are printed ("timing? ...").

Experiment notebooks run only when their default parameters just read finished runs and plot. None does:

- 19_quickstart: trains a new run (run_name "" is a timestamp)
- 31_associative_recall: train = True launches the fig4.1-cpu sweep (its 96 runs are finished, but the
  notebook rewrites the sweep's aggregate under runs/)
- 33_mechanistic: trains the preset "tasks" into runs/mechanistic/tasks-cpu
- 35_mqar: train = True; 54 of the 72 default settings are not among the committed runs
- 40_pile, 41_wikitext103, 42_pg19: train_runs = True; their samples need checkpoints, which are not committed
- 50_runtime: measures timings into a new run folder
- 51_generation: trains a language model and a recall model into a new run folder
- 60_downstream: evaluates into a new run folder (runs/downstream/mini-500k-lambada_cloze)
- 72_images: trains a run of the sweep digits-cpu-30ep
- 82_dna: trains species_hyenadna_L1024_s0, which is not among the committed runs

`python scripts/notebooks.py` runs every notebook that qualifies; `--only SUBSTRING` (repeatable) a few;
`--list` prints the plan and runs nothing; `--timeout S` is the limit per notebook (default 1800)."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from configparser import ConfigParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN_GENRES = {"chapter", "report"}
READ_ONLY_EXPERIMENTS: set[str] = set()  # experiment notebooks whose defaults only read runs and plot
SKIPPED = {
    "19_quickstart": "trains a new run (run_name '' is a timestamp)",
    "31_associative_recall": "train = True: launches the fig4.1-cpu sweep and rewrites its aggregate",
    "33_mechanistic": "trains the preset 'tasks' into runs/mechanistic/tasks-cpu",
    "35_mqar": "train = True: 54 of the 72 default settings would train",
    "40_pile": "train_runs = True; its samples need checkpoints that are not committed",
    "41_wikitext103": "train_runs = True; needs checkpoints that are not committed",
    "42_pg19": "train_runs = True; needs checkpoints that are not committed",
    "50_runtime": "measures timings into a new run folder",
    "51_generation": "trains two models into a new run folder",
    "60_downstream": "evaluates into a new run folder",
    "72_images": "trains a run of the sweep digits-cpu-30ep",
    "82_dna": "trains a run that is not among the committed ones",
}
TIMING = re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|µs|us|s|sec|seconds|min|minutes)\b(?![-\w])"
                    r"|it/s|s/it|Wall time")


def notebooks(root: Path = ROOT) -> list[Path]:
    """Every notebook under nbs/, recursively, skipping folders that start with _ or . and nbs/fixtures, and the links
    nbs/NN_name.ipynb to the experiment notebooks (each notebook once)."""
    nbs = root / "nbs"
    def keep(p: Path) -> bool:
        parts = p.relative_to(nbs).parts[:-1]
        return not any(d.startswith(("_", ".")) for d in parts) and parts[:1] != ("fixtures",) and not p.is_symlink()
    return sorted((p for p in nbs.rglob("*.ipynb") if keep(p)), key=lambda p: p.relative_to(nbs).as_posix())


def genre(path: Path) -> str:
    return json.loads(path.read_text())["metadata"].get("hyena_lit", {}).get("genre", "")


def decide(path: Path) -> tuple[bool, str]:
    "Whether `make notebooks` executes this notebook, and why."
    g = genre(path)
    if g in RUN_GENRES: return True, g
    if g == "experiment" and path.stem in READ_ONLY_EXPERIMENTS: return True, "experiment: reads runs"
    if g == "experiment": return False, "experiment: " + SKIPPED.get(path.stem, "not reviewed: may train")
    return False, f"{g or 'no genre'}: not executed"


def skip_flags(root: Path = ROOT) -> set[str]:
    cfg = ConfigParser(delimiters=["="])
    cfg.read(root / "settings.ini")
    return set(cfg["DEFAULT"]["tst_flags"].split())


def child_env() -> dict:
    """A notebook's environment: nbdev_test's IN_TEST, no progress bars, no hub requests (their retries print
    waits), Triton's interpreter without a GPU."""
    env = dict(os.environ, IN_TEST="1", TQDM_DISABLE="1", PYTHONHASHSEED="0", MPLBACKEND="agg",
               HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1")
    if shutil.which("nvidia-smi") is None: env["TRITON_INTERPRET"] = "1"
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    return env


# ------------------------------------------------------------------------------ one notebook, in-process
def skipped_cells(path: Path, flags: set[str]) -> set[int]:
    "Indices of the cells nbdev_test skips: markdown, nbdev_export(), `#| eval: false`, the skip flags."
    from nbdev.frontmatter import FrontmatterProc
    from nbdev.process import NBProcessor
    def skip(c) -> bool:
        if c.cell_type != "code" or "nbdev_export(" in c.source: return True
        d = getattr(c, "directives_", {}) or {}
        return d.get("eval:", [""])[0].lower() == "false" or bool(flags & d.keys())
    return {c.idx_ for c in NBProcessor(path, procs=FrontmatterProc, process=True).nb.cells if skip(c)}


DURATION = r"\b\d[\d,]*(?:\.\d+)?\s?(ms|µs|us|s)\b"  # "280.2 ms", "13 s"; not "100 steps"
RATE = r"\b\d[\d,]*(?:\.\d+)?(\s?tokens/s)\b"  # "151 tokens/s", a rate measured as the cell runs


def scrub(text: str) -> str:
    "Out of an output: the repository's path, temporary folders, the Python prefix, clock and wall times, addresses."
    text = text.replace(str(ROOT) + os.sep, "").replace(str(ROOT), ".")
    text = re.sub(re.escape(tempfile.gettempdir()) + r"/tmp[\w-]+", "<tmp>", text)
    text = text.replace(sys.prefix, "<python>")
    text = re.sub(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?", "<time>", text)
    text = re.sub(DURATION, r"<t> \1", text)  # wall times change every run; measured ones live in runs/
    text = re.sub(RATE, r"<t>\1", text)
    text = re.sub(r"\((\d+(?:\.\d+)?)x\)", "(<t>x)", text)
    return re.sub(r" at 0x[0-9a-f]{6,}", "", text)


def lines(text: str) -> list[str]: return text.splitlines(keepends=True)  # as Jupyter stores text


def clean_output(o: dict) -> dict | None:
    "One output made small and stable, or None to drop it (widgets, progress bars)."
    data = o.get("data", {})
    if any(k.startswith("application/vnd.jupyter.widget") for k in data): return None
    if o.get("output_type") == "stream":
        text = "".join(o["text"]) if isinstance(o["text"], list) else o["text"]
        if o.get("name") == "stderr" and "\r" in text: return None
        o["text"] = lines(scrub(text))
    if "image/png" in data:
        for k in [k for k in data if k.startswith("image/") and k != "image/png"]: del data[k]
    for k in [k for k in data if k.startswith("text/")]:
        v = data[k]
        data[k] = lines(scrub("".join(v) if isinstance(v, list) else v))
    if o.get("output_type") == "error": o["traceback"] = [scrub(t) for t in o.get("traceback", [])]
    return o


def timings(nb: dict, ran: set[int]) -> list[str]:
    "Lines of the executed cells' outputs that look like timings: they change from run to run."
    found = []
    for i, c in enumerate(nb["cells"]):
        for o in c.get("outputs", []) if i in ran else []:
            text = o.get("text") or o.get("data", {}).get("text/plain", "")
            for line in ("".join(text) if isinstance(text, list) else text).splitlines():
                if TIMING.search(line): found.append(f"cell {i}: {line.strip()[:100]}")
    return found


def execute(src: Path, dest: Path) -> bool:
    "Run `src` as nbdev_test would, keeping the outputs: the cleaned notebook to `dest` (False on an error)."
    from execnb.nbio import nb2dict, read_nb, write_nb
    from execnb.shell import CaptureShell
    from nbdev.clean import clean_nb
    from nbdev.config import get_config
    nb, skip = read_nb(src), skipped_cells(src, skip_flags())
    os.chdir(src.parent)
    shell = CaptureShell(src, mpl_format="png")
    try: shell.run_all(nb, exc_stop=True, preproc=lambda c: c.idx_ in skip)
    except Exception:
        sys.stderr.write(shell.prettytb(fname=src) + "\n")
        return False
    d = nb2dict(nb)
    for c in d["cells"]:
        if "outputs" in c: c["outputs"] = [o for o in map(clean_output, c["outputs"]) if o is not None]
    cfg = get_config(path=ROOT)
    keys, cell_keys = cfg.get("allowed_metadata_keys").split(), cfg.get("allowed_cell_metadata_keys").split()
    clean_nb(d, False, keys, cell_keys, cfg.clean_ids)
    write_nb(d, dest)
    for line in timings(d, set(range(len(d["cells"]))) - skip): print(f"timing? {src.name} {line}")
    return True


# ---------------------------------------------------------------------------------------- every notebook
def run_one(src: Path, dest: Path, timeout: float) -> tuple[str, float, str]:
    "Execute one notebook in a fresh process: ('ok' or 'failed' or 'timeout', seconds, its printed lines)."
    t0 = time.perf_counter()
    cmd = [sys.executable, str(Path(__file__).resolve()), "--exec", str(src), str(dest)]
    try: r = subprocess.run(cmd, env=child_env(), capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except subprocess.TimeoutExpired: return "timeout", time.perf_counter() - t0, ""
    status = "ok" if r.returncode == 0 else "failed"
    return status, time.perf_counter() - t0, r.stdout + (r.stderr[-3000:] if r.returncode else "")


def plan(only: list[str]) -> list[tuple[Path, bool, str]]:
    rows = [(p, *decide(p)) for p in notebooks()]
    return [r for r in rows if not only or any(s in r[0].as_posix() for s in only)]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", default=[])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--timeout", type=float, default=1800)
    ap.add_argument("--exec", nargs=2, metavar=("SRC", "DEST"))
    a = ap.parse_args(argv)
    if a.exec: return 0 if execute(Path(a.exec[0]).resolve(), Path(a.exec[1]).resolve()) else 1
    rows, failed, t0 = plan(a.only), [], time.perf_counter()
    for path, run, why in rows:
        name = path.relative_to(ROOT).as_posix()
        if not run or a.list:
            print(f"{'run' if run else 'skip':5s} {name:42s} {why}")
            continue
        status, secs, out = run_one(path, path, a.timeout)
        print(f"{status:7s} {name:42s} {secs:7.1f} s  {why}", flush=True)
        if out.strip(): print("  " + out.strip().replace("\n", "\n  "), flush=True)
        if status != "ok": failed.append(name)
    print(f"{sum(r[1] for r in rows)} of {len(rows)} notebooks to execute; {len(failed)} failed "
          f"{failed or ''}; {time.perf_counter() - t0:.0f} s in all")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
