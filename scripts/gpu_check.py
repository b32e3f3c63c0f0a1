"""The one command a CUDA machine runs: every experiment notebook at its smoke size, the step profile, the step table,
Figure 4.3 in bf16 against SDPA's FlashAttention, the kernels' benchmark; within a deadline, keeping what finished.

usage: python scripts/gpu_check.py [--out runs/gpu] [--deadline-min 9] [--parts notebooks,profile,steps,figure43,kernels]
                                   [--notebooks 40_pile,...] [--jobs N] [--bundle DIR] [--dry]

On a machine without the package registries, `--bundle DIR` (made by scripts/gpu_bundle.py where they are) first
installs DIR/wheels/ into a temporary folder put on the PYTHONPATH of everything this check starts, and unpacks
DIR/data.tar.xz's caches into the project's data/ folder where that cache is empty (where 43_lm_data's fetchers look
first). The bundled distributions' requirements that the image's versions do not meet are printed and kept in
params.json (bundle.unmet).

Everything goes under OUT/<GPU name>/ (spaces as underscores; `--dry`: OUT/cpu-dry/):
- params.json: the GPU, torch, Triton and CUDA versions, the start, the deadline and the parts asked for, and the code
  (`code`: the commit, from git or HYENA_LIT_CODE; `source_digest`: a hash of the sources, `commit_of_digest`);
- notebooks/<name>.ipynb and notebooks/status.csv: each experiment notebook executed by papermill with IN_TEST set,
  which makes it run its own smoke settings (tiny models, a few steps, a temporary run folder) through the real code
  path (data loading, autocast, checkpoints, resume, evaluation), with `-p device cuda` where the notebook's device
  defaults to the CPU. Cells flagged `#| slow` or `#| eval: false` are left out, as nbdev_test leaves them, and so
  are `#| gpu` cells under `--dry`. A preflight comes first: each notebook's imports (those of the cells it runs,
  outside try blocks, with papermill's and the kernel's) are tried in one process and its data caches (`DATA_NEEDS`)
  looked up or fetched once; a notebook short of any gets the row "missing: <what>" instead of a papermill run;
- profile/kernels.csv, profile/summary.csv, profile/block_ops.csv: one AdamW step of Hyena-125M and GPT-125M at
  L = 2048 and 8192 under torch.profiler (`scripts/step_profile.py`): kernels by time, launches, peak memory; and
  the operators (launches) per block forward+backward (Hyena's also with the Monarch kernel forced);
- steps.csv: tokens/s and MFU of a training step (`step_bench` of 50_runtime, its FLOPs from 14_flops), eager and
  with `compile`, and Hyena's eager steps again with a Monarch kernel forced (`fftconv_impl`, 12_operator; the
  short filter then runs by its Triton kernel too);
- figure43/b<B>-bf16.csv (Figure 4.3 under bf16 autocast, SDPA restricted to its FlashAttention backend) and
  figure43/b<B>.csv (float32), and figure43/backend.json: the SDPA kernel that ran, read from the profiler;
- kernels/short_conv/: the short filter's Triton kernel against PyTorch's convolution at the step's shapes
  (scripts/short_conv_bench.py; `fftconv_impl="auto"` takes the kernel where it won, 24_short_conv's `short_auto`);
- kernels/monarch/: the Monarch kernels (one kernel to 8K, three passes to 64K) against torch.fft from 1K to 64K
  (scripts/monarch_bench.py); kernels/ncu_<L>_<pass>_<kernel>.csv: Nsight Compute's details of their kernels at 4K,
  16K and 1K, one call each (`NCU_PLAN`; where ncu is installed); then kernels/:
  scripts/triton_gpu.py's kernel stage (the first kernel) with what is left.
The notebooks run `--jobs` at once; the step table runs its eager rows before the compiled ones.
Each part runs in its own process group with a share of what is left before the deadline; a part that runs over is
stopped, and the rows it wrote stay. A kernel fault (a misaligned or illegal address) leaves a process's CUDA context
unusable, failing every later call in it: a profile or step row that fails is followed by a probe of the context, and
where the context is gone the part records the row, exits with `POISONED` and is started again in a fresh process
for the rows still missing (at most `RESTARTS` times a part). A second call into the same folder redoes only what is missing: a notebook
whose last status is not ok, a profile, step or Figure 4.3 point without its row. `--dry` runs the whole flow on the CPU at toy sizes (profiler on the CPU, papermill with the notebooks'
smoke settings) to test the script; its notebooks are those of `--notebooks` (default: 19_quickstart)."""
import argparse, ast, contextlib, csv, json, multiprocessing as mp, os, pathlib, signal, subprocess, sys
import tempfile, time

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
if str(ROOT / "scripts") not in sys.path: sys.path.insert(0, str(ROOT / "scripts"))
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])

# the notebooks never run on a GPU first (issue 69's list), then the others
NOTEBOOKS = ["40_pile", "41_wikitext103", "42_pg19", "44_lm_training", "51_generation", "60_downstream", "72_images",
             "82_dna", "35_mqar", "19_quickstart", "31_associative_recall", "33_mechanistic", "50_runtime"]
SHARES = {"notebooks": 0.25, "profile": 0.1, "steps": 0.25, "figure43": 0.2, "kernels": 0.2}  # of the deadline
SKIP_FLAGS = ("#| slow", "#| eval: false", "#|eval: false")
# the caches of 43_lm_data's fetchers under the project's data/ (a file that shows one is filled), and their fetchers
DATA = {"shakespeare": "texts/*.txt", "tokenizer": "gpt2.tiktoken"}
FETCHERS = {"shakespeare": "shakespeare_texts", "tokenizer": "gpt2_bpe_file"}
# what each notebook's smoke settings read from those caches (a play; GPT-2 BPE for the LM runners and the harness)
DATA_NEEDS = {"19_quickstart": ("shakespeare",), **{n: ("shakespeare", "tokenizer") for n in
              ("40_pile", "41_wikitext103", "42_pg19", "44_lm_training", "60_downstream")}}
RUNNER_MODULES = ("papermill", "ipykernel")  # what papermill itself needs to run any notebook

def notebook_path(name: str) -> pathlib.Path:
    "nbs/experiments/<name>.ipynb, or the chapter that holds it (60_downstream lives in nbs/eval)."
    for d in ("experiments", "eval"):
        p = ROOT / "nbs" / d / f"{name}.ipynb"
        if p.is_file(): return p
    raise SystemExit(f"error: --notebooks: no notebook {name!r} (known: {', '.join(NOTEBOOKS)})")

def runnable_copy(src: pathlib.Path, dst: pathlib.Path, gpu: bool):
    "`src` without the cells nbdev_test would skip (slow, eval: false; gpu cells off a GPU): what papermill runs."
    nb = json.loads(src.read_text())
    nb["cells"] = kept_cells(src, gpu)
    dst.write_text(json.dumps(nb, indent=1))

def kept_cells(src: pathlib.Path, gpu: bool) -> list[dict]:
    "The cells of notebook `src` that papermill runs here (nbdev_test's skips; `#| gpu` cells only on a GPU)."
    flags = SKIP_FLAGS + (() if gpu else ("#| gpu",))
    return [c for c in json.loads(src.read_text())["cells"]
            if not (c["cell_type"] == "code" and "".join(c["source"]).lstrip().startswith(flags))]

def notebook_imports(src: pathlib.Path, gpu: bool) -> list[str]:
    """The modules the kept code cells of `src` import, outside try blocks (an import that may fail is guarded):
    `import a.b` gives a.b, `from a.b import c` gives a.b; magics and shell lines are skipped."""
    mods = []
    def visit(node):
        if isinstance(node, ast.Try): return
        if isinstance(node, ast.Import): mods.extend(a.name for a in node.names)
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module: mods.append(node.module)
        for child in ast.iter_child_nodes(node): visit(child)
    for c in kept_cells(src, gpu):
        if c["cell_type"] != "code": continue
        code = "\n".join(l for l in "".join(c["source"]).splitlines() if not l.lstrip().startswith(("%", "!")))
        try: visit(ast.parse(code))
        except SyntaxError: continue
    return list(dict.fromkeys(mods))

PREFLIGHT_PROGRAM = """
import importlib, json, sys
spec = json.loads(sys.argv[1])
out = dict(modules={}, data={})
for m in spec["modules"]:
    try: importlib.import_module(m)
    except ImportError as e: out["modules"][m] = getattr(e, "name", None) or str(e).splitlines()[0]
    except Exception as e: pass  # not a missing module: papermill's run shows it
for item, (pattern, fetcher, folder) in spec["data"].items():
    try:
        from pathlib import Path
        if not any(Path(folder).glob(pattern)):
            import hyena_lit.data.lm_data as lm
            getattr(lm, fetcher)(folder)
        if not any(Path(folder).glob(pattern)): raise RuntimeError("the fetcher left it empty")
    except BaseException as e: out["data"][item] = str(e).strip().splitlines()[0][:200]
print(json.dumps(out))
"""

def preflight(names: list[str], gpu: bool, data_root: pathlib.Path = ROOT / "data") -> dict:
    """{notebook: "missing: ..."} for the notebooks that cannot run here: a module their cells import (or papermill
    and the kernel) that fails to import, a data cache under `data_root` that is empty and cannot be fetched. One
    process tries every module once and fetches each cache once (offline, a fetch fails in seconds)."""
    imports = {n: list(RUNNER_MODULES) + notebook_imports(notebook_path(n), gpu) for n in names}
    needs = {n: DATA_NEEDS.get(n, ()) for n in names}
    data = {d: (DATA[d], FETCHERS[d], str(data_root / d)) for n in names for d in needs[n]}
    spec = dict(modules=list(dict.fromkeys(m for n in names for m in imports[n])), data=data)
    r = subprocess.run([sys.executable, "-c", PREFLIGHT_PROGRAM, json.dumps(spec)], capture_output=True, text=True,
                       cwd=ROOT, env=dict(os.environ, IN_TEST="1"))
    if r.returncode: raise RuntimeError(f"the preflight failed: {r.stderr[-800:]}")
    found = json.loads(r.stdout.strip().splitlines()[-1])
    out = {}
    for n in names:
        what = sorted({f"module {found['modules'][m]}" for m in imports[n] if m in found["modules"]})
        what += [f"data/{d} ({found['data'][d]})" for d in needs[n] if d in found["data"]]
        if what: out[n] = "missing: " + "; ".join(what)
    return out

def notebook_params(src: pathlib.Path, gpu: bool) -> list[str]:
    "papermill -p arguments: device cuda where the notebook's device parameter defaults to the CPU."
    nb = json.loads(src.read_text())
    cell = next(("".join(c["source"]) for c in nb["cells"] if "parameters" in c.get("metadata", {}).get("tags", [])), "")
    return ["-p", "device", "cuda"] if gpu and any(l.replace(" ", "").startswith('device="cpu"') for l in cell.splitlines()) else []

def run_notebook(name: str, out: pathlib.Path, gpu: bool, timeout: float) -> dict:
    "Execute one notebook by papermill into out/<name>.ipynb within `timeout` seconds; its status row."
    src, dst = notebook_path(name), out / f"{name}.ipynb"
    tmp = out / f".{name}.input.ipynb"
    runnable_copy(src, tmp, gpu)
    env = dict(os.environ, IN_TEST="1", PYTHONPATH=os.environ["PYTHONPATH"])
    cmd = [sys.executable, "-m", "papermill", str(tmp), str(dst), "--cwd", str(src.parent), "--no-progress-bar",
           *notebook_params(src, gpu)]
    t0 = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True)
    try:
        log, _ = p.communicate(timeout=max(1.0, timeout))
        status = "ok" if p.returncode == 0 else "failed"
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        log, _ = p.communicate()
        status = "stopped at the deadline"
    tmp.unlink(missing_ok=True)
    err = "" if status == "ok" else " | ".join(l for l in (log or "").strip().splitlines()[-6:])[-600:]
    return dict(notebook=name, status=status, seconds=round(time.time() - t0, 1), device="cuda" if gpu else "cpu",
                error=err)

# POISONED: a part's (or a benchmark's) exit code after a row failed and left its CUDA context unusable, probed by
# exit_if_poisoned; the caller starts it again in a fresh process, at most RESTARTS times
from monarch_bench import POISONED, exit_if_poisoned
RESTARTS = 3

def _rerun_poisoned(what: str, cmd: list, stop: float, cap_min: float | None = None, hard: bool = False):
    """Run the benchmark `cmd` with `--deadline-min` up to `stop` (at most `cap_min` minutes), and again in a fresh
    process while it exits POISONED and time is left; `hard`: kill it at `stop` (else its own deadline ends it)."""
    for attempt in range(RESTARTS + 1):
        left = stop - time.time()
        if left < 12: return
        m = left / 60 if cap_min is None else min(cap_min, left / 60)
        try: r = subprocess.run(cmd + ["--deadline-min", f"{m:.2f}"], check=False, timeout=left if hard else None)
        except subprocess.TimeoutExpired: print(f"kernels: {what} stopped at its share", flush=True); return
        if r.returncode != POISONED: return
        print(f"kernels: {what} lost its CUDA context; starting it again ({attempt + 1})", flush=True)

def _append(path: pathlib.Path, row: dict):
    "Add `row` to the CSV at `path`; a column the file lacks is added to it (its earlier rows empty there)."
    rows, cols = [], list(row)
    if path.exists() and path.stat().st_size:
        with path.open(newline="") as f:
            r = csv.DictReader(f)
            rows, old = list(r), list(r.fieldnames or [])
        cols = old + [c for c in row if c not in old]
        if cols == old:
            with path.open("a", newline="") as f: csv.DictWriter(f, fieldnames=cols).writerow(row)
            return
    with path.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
        w.writerow(row)

def _finished(path: pathlib.Path) -> set:
    "Notebooks whose last status in `path` is ok."
    if not path.exists(): return set()
    with path.open() as f: last = {r["notebook"]: r["status"] for r in csv.DictReader(f)}
    return {k for k, v in last.items() if v == "ok"}

def part_notebooks(out: pathlib.Path, deadline: float, dry: bool, names: list[str], jobs: int = 1):
    "The notebooks not yet ok, `jobs` at once (each its own papermill process), none started after the deadline."
    from concurrent.futures import ThreadPoolExecutor
    out.mkdir(parents=True, exist_ok=True)
    status, done = out / "status.csv", _finished(out / "status.csv")
    todo = [n for n in names if n not in done]
    t0 = time.time()
    try: missing = preflight(todo, not dry)
    except RuntimeError as e: missing = {}; print(f"preflight: {e}; every notebook goes to papermill", flush=True)
    print(f"preflight: {len(todo) - len(missing)} of {len(todo)} notebooks have their modules and data "
          f"({time.time() - t0:.0f} s)", flush=True)
    for name in todo:
        if name in missing:
            _append(status, dict(notebook=name, status=missing[name], seconds=0, device="cuda" if not dry else "cpu",
                                 error=""))
            print(f"notebook {name}: {missing[name]}", flush=True)
    def one(name):
        left = deadline - time.time()
        if left < 5: return dict(notebook=name, status="not run (deadline)", seconds=0, device="", error="")
        return run_notebook(name, out, not dry, left)
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        for row in pool.map(one, [n for n in todo if n not in missing]):
            _append(status, row)
            print(f"notebook {row['notebook']}: {row['status']} in {row['seconds']} s", flush=True)

def part_profile(out: pathlib.Path, deadline: float, dry: bool):
    import step_profile as sp
    out.mkdir(parents=True, exist_ok=True)
    dev = "cpu" if dry else "cuda"
    have = set()  # the block rows made: (block, fftconv_impl); a failed one is kept as its error and not retried
    if (out / "block_ops.csv").exists():
        have = {(r["block"], r.get("fftconv_impl") or "") for r in csv.DictReader((out / "block_ops.csv").open())}
    for block, impl in [("hyena", "auto"), ("attention", "")] + ([] if dry else [("hyena", "monarch")]):  # + forced
        if (block, impl) in have: continue
        if time.time() > deadline: return
        try:
            rows, _ = sp.block_rows(blocks=(block,), d_model=64 if dry else 768, L=64 if dry else 2048, device=dev,
                                    fftconv_impls=(impl,) if impl else ("auto",))
            row = {**rows[0], "status": "ok"}
        except Exception as e:
            row = dict(block=block, fftconv_impl=impl, status=f"error: {type(e).__name__}: {e}"[:300])
        _append(out / "block_ops.csv", row)
        print("profile block:", row, flush=True)
        if row["status"] != "ok" and not dry: exit_if_poisoned(f"the {block} block ({impl})")
    # eager, then the compiled step's launches (inductor's kernels are CUDA events too)
    plan = [("tiny", 64, 1, "off"), ("gpt-tiny", 64, 1, "off")] if dry else [
        ("125M", 2048, 4, "off"), ("gpt-125M", 2048, 4, "off"), ("125M", 8192, 1, "off"), ("gpt-125M", 8192, 1, "off"),
        ("125M", 2048, 4, "default")]
    for size, L, B, comp in plan:
        if time.time() > deadline: return
        if (out / "summary.csv").exists() and any(  # a row from before compile was recorded is eager
                (r["size"], int(r["L"]), r.get("compile") or "off") == (size, L, comp)
                for r in csv.DictReader((out / "summary.csv").open())):
            continue
        try:
            kernels, summary = sp.profile_step(size, L, B, dev, "bfloat16", compile=comp)
        except Exception as e:  # out of memory, a failed op: a row that says so
            kernels, summary = [], dict(size=size, L=L, batch=B, compile=comp,
                                        status=f"error: {type(e).__name__}: {e}"[:300])
        for r in kernels: _append(out / "kernels.csv", r)
        _append(out / "summary.csv", {"status": "ok", **summary} if "status" not in summary else summary)
        print("profile:", summary, flush=True)
        if "status" in summary and not dry: exit_if_poisoned(f"the profiled step {size} L = {L}")

def step_plan(dry: bool) -> list[tuple]:
    """(size, L, batch, compile, fftconv_impl) of the steps part, in order: the eager steps first, each Hyena one beside
    its run with a Monarch kernel forced (one kernel to 8K, three passes beyond: 12_operator), then the compiled ones
    and CUDA graphs (scripts/step_floor.py's default rows hold every size, L and batch of it, for their floors)."""
    if dry: return [("tiny", 64, 2, "off", "auto"), ("gpt-tiny", 64, 2, "off", "auto"), ("micro", 64, 1, "off", "monarch")]
    return ([(s, L, B, "off", "auto") for L, B in ((2048, 8), (8192, 2)) for s in ("125M", "gpt-125M")]
            + [("125M", 2048, 8, "off", "monarch"), ("125M", 8192, 2, "off", "monarch_long")]
            + [(s, 2048, 8, "off", "auto") for s in ("355M", "gpt-355M")] + [("355M", 2048, 8, "off", "monarch")]
            + [(s, 16384, 1, "off", "auto") for s in ("125M", "gpt-125M", "355M")]
            + [("125M", 16384, 1, "off", "monarch_long")]
            + [("gpt-355M", 16384, 1, "off", "auto")] + [(s, 8192, 2, "off", "auto") for s in ("355M", "gpt-355M")]
            + [(s, L, B, "default", "auto") for L, B in ((2048, 8), (8192, 2)) for s in ("125M", "gpt-125M")]
            + [("125M", 2048, 8, "reduce-overhead", "auto")])  # and with CUDA graphs

def part_steps(out: pathlib.Path, deadline: float, dry: bool):
    import torch
    from hyena_lit.experiments.runtime import step_bench
    plan = step_plan(dry)
    path = out / "steps.csv"
    done = set()
    if path.exists():  # rows from before the kernel was a column ran the default, 'auto'
        done = {(r["size"], int(r["L"]), r["compile"], r.get("fftconv_impl") or "auto")
                for r in csv.DictReader(path.open())}
    for size, L, B, comp, impl in plan:
        if (size, L, comp, impl) in done: continue
        if time.time() > deadline: return
        row = step_bench(size, L, B, steps=(1 if impl != "auto" else 2) if dry else 10, device="cpu" if dry else "cuda",
                         dtype=torch.float32 if dry else torch.bfloat16, compile=comp, fftconv_impl=impl)
        _append(path, {k: row.get(k, "") for k in STEP_COLUMNS})
        print("step:", row, flush=True)
        if row.get("status") != "ok" and not dry: exit_if_poisoned(f"the step {size} L = {L} {impl} {comp}")

STEP_COLUMNS = ("size", "mixer", "L", "batch", "steps", "dtype", "compile", "fftconv_impl", "status", "step_ms", "tokens_per_s",
                "model_tflops", "mfu", "peak_gb")

def sdpa_backend(device: str, dtype) -> dict:
    "The kernel SDPA runs under FlashAttention-only selection at (2, 12, 1024, 64), read from the profiler."
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from torch.profiler import ProfilerActivity, profile
    q = torch.randn(2, 12, 1024, 64, device=device, dtype=dtype)
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    try:
        with sdpa_kernel([SDPBackend.FLASH_ATTENTION]), profile(activities=acts) as prof:
            F.scaled_dot_product_attention(q, q, q, is_causal=True)
            if device == "cuda": torch.cuda.synchronize()
    except RuntimeError as e:
        return dict(requested="FLASH_ATTENTION", ran=None, error=str(e)[:300])
    names = sorted({e.name for e in prof.events() if "flash" in e.name.lower() or "attention" in e.name.lower()})
    return dict(requested="FLASH_ATTENTION", ran=names, error=None)

def part_figure43(out: pathlib.Path, deadline: float, dry: bool):
    import pandas as pd, torch
    from torch.nn.attention import SDPBackend, sdpa_kernel
    from hyena_lit.experiments.runtime import GPU_CHECK_SWEEP, GPU_SWEEP, gpu_sweep_name, time_points
    out.mkdir(parents=True, exist_ok=True)
    dev = "cpu" if dry else "cuda"
    f = dict(GPU_SWEEP, ops=["hyena", "sdpa"], d_model=32, n_heads=4, lengths=[128, 256], batches=[1], reps=2) if dry \
        else GPU_CHECK_SWEEP
    if not (out / "backend.json").exists():
        (out / "backend.json").write_text(json.dumps(dict(bfloat16=sdpa_backend(dev, torch.bfloat16),
                                                          settings=f), indent=1) + "\n")
    parts = [(dt, B) for dt in ("bfloat16", "float32") for B in f["batches"]]
    for i, (dt, B) in enumerate(parts):
        csv_path = out / f"{gpu_sweep_name(B, dt)}.csv"
        rows = pd.read_csv(csv_path).to_dict("records") if csv_path.exists() else []  # typed, as time_points wrote them
        part = time.time() + (deadline - time.time()) / (len(parts) - i)
        # bf16: SDPA restricted to FlashAttention (a point it cannot take is an error row, not another kernel)
        with sdpa_kernel([SDPBackend.FLASH_ATTENTION]) if dt == "bfloat16" and not dry else contextlib.nullcontext():
            time_points(csv_path, f["ops"], f["lengths"], B, f["d_model"], f["n_heads"], device=dev, reps=f["reps"],
                        memory_budget_gb=f["memory_budget_gb"], deadline=part, dtype=dt, rows=rows)

NCU_PROGRAM = """
import sys, torch
sys.path[:0] = [{root!r}, {scripts!r}]
from hyena_lit.kernels.monarch_fftconv import monarch_fftconv
from hyena_lit.kernels.monarch_long import monarch_long_fftconv
from monarch_bench import bench_inputs
for L, backward, *kernel in {plan!r}:
    conv = monarch_long_fftconv if kernel == ["monarch_long"] else monarch_fftconv
    u, k, D, pre, post = bench_inputs({B}, {C}, L, torch.bfloat16, {device!r})
    y = conv(u, k, D.to(u.dtype), pre, post)
    if backward: y.float().sum().backward()
    if {device!r} == "cuda": torch.cuda.synchronize()
"""
# what Nsight Compute profiles, most wanted first, one ncu call each (a call cut by the deadline loses only its own):
# both designs' forward at 4K, the three passes' forward and forward+backward at 16K, the one kernel's at 1K
NCU_PLAN = ((4096, False), (4096, False, "monarch_long"), (16384, False, "monarch_long"), (16384, True, "monarch_long"),
            (1024, True))

def ncu_name(entry) -> str:
    "The CSV one NCU_PLAN entry's profile is written to: ncu_<L>_<fwd|fwdbwd>_<monarch|monarch_long>.csv."
    L, backward, *kernel = entry
    return f"ncu_{L}_{'fwdbwd' if backward else 'fwd'}_{kernel[0] if kernel else 'monarch'}.csv"

def ncu_program(plan=NCU_PLAN, B: int = 64, C: int = 768, device: str = "cuda") -> str:
    """The program Nsight Compute profiles: the Monarch kernels on the bench's own inputs (`monarch_bench.bench_inputs`),
    each plan entry (L, backward[, "monarch_long"])."""
    return NCU_PROGRAM.format(root=str(ROOT), scripts=str(ROOT / "scripts"), plan=tuple(plan), B=B, C=C, device=device)

def find_ncu():
    "The Nsight Compute command line, on the PATH or in CUDA's usual folders; None where there is none."
    import glob, shutil
    return shutil.which("ncu") or next(iter(sorted(glob.glob("/usr/local/cuda*/bin/ncu") +
                                                  glob.glob("/opt/nvidia/nsight-compute/*/ncu"))), None)

def part_kernels(out: pathlib.Path, deadline: float, dry: bool):
    """The Monarch kernels against torch.fft from 1K to 64K (`scripts/monarch_bench.py`, most of the share), Nsight
    Compute profiles of their kernels (`NCU_PLAN`, one ncu call and one `ncu_name` CSV each; where ncu is installed),
    the short filter's kernel against PyTorch's convolution (`scripts/short_conv_bench.py`, half a minute of shapes),
    then the first kernel's benchmark (`scripts/triton_gpu.py`'s kernel stage) with whatever is left."""
    out.mkdir(parents=True, exist_ok=True)
    def minutes(share): return max(0.2, share * (deadline - time.time()) / 60)
    bench = [sys.executable, str(ROOT / "scripts" / "monarch_bench.py"), "--out", str(out / "monarch")]
    _rerun_poisoned("the Monarch benchmark", bench + (["--dry"] if dry else []), time.time() + minutes(0.6) * 60)
    ncu = None if dry else find_ncu()
    if ncu and deadline - time.time() > 60:
        stop = time.time() + 0.6 * (deadline - time.time())  # the first kernel's benchmark keeps the rest
        for i, entry in enumerate(NCU_PLAN):
            left = stop - time.time()
            if left < 20: print(f"kernels: ncu of {[ncu_name(e) for e in NCU_PLAN[i:]]} not started", flush=True); break
            cmd = [ncu, "--clock-control", "none", "-k", "regex:_monarch|_long_", "--section", "SpeedOfLight",
                   "--section", "MemoryWorkloadAnalysis", "--section", "Occupancy", "--section", "LaunchStats", "--csv",
                   "--page", "details", sys.executable, "-c", ncu_program(plan=(entry,))]
            name = ncu_name(entry)
            try:  # each entry its share of what is left, so that a slow one does not take the others' time
                r = subprocess.run(cmd, capture_output=True, text=True, timeout=max(10, left / (len(NCU_PLAN) - i)))
                (out / name).write_text(r.stdout)
                if r.returncode: (out / name.replace(".csv", ".err")).write_text(r.stderr[-4000:])
            except subprocess.TimeoutExpired:
                (out / name.replace(".csv", ".err")).write_text("stopped at its share of the deadline")
    elif not dry:
        print("kernels: no ncu found", flush=True)
    if deadline - time.time() > 30:  # the short filter's kernel: under a minute (its JIT builds, then fast timings)
        short = [sys.executable, str(ROOT / "scripts" / "short_conv_bench.py"), "--out", str(out / "short_conv")]
        m = min(0.5, minutes(0.5))
        _rerun_poisoned("the short filter's benchmark", short + (["--dry", "--reps", "2"] if dry else []),
                        time.time() + max(30, 90 * m), cap_min=m, hard=True)
    script = ROOT / "scripts" / "triton_gpu.py"
    if deadline - time.time() > 20 and script.is_file():
        cmd = [sys.executable, str(script), "--out", str(out), "--minutes", f"{minutes(0.9):.2f}", "--stages", "kernels"]
        subprocess.run(cmd + (["--smoke"] if dry else []), check=False)

def use_bundle(bundle: pathlib.Path, data_root: pathlib.Path = ROOT / "data") -> dict:
    """Install bundle/wheels/*.whl (no index, no dependency resolution: the bundle is the closure) into a temporary
    folder put on this process's and its children's path, and unpack bundle/data.tar.xz's <cache>/ folders into the
    project's data/ (`data_root`) where that cache is empty. Returns what it did, for params.json."""
    import tarfile
    wheels = sorted((bundle / "wheels").glob("*.whl"))
    site = pathlib.Path(tempfile.mkdtemp(prefix="gpu-check-site-"))
    done = dict(bundle=str(bundle), wheels=len(wheels), site=str(site), data_unpacked=[], error=None)
    if wheels:
        r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--quiet",
                            "--disable-pip-version-check", "--target", str(site), *map(str, wheels)],
                           capture_output=True, text=True)
        if r.returncode: done["error"] = r.stderr.strip()[-500:]
    parts = os.environ["PYTHONPATH"].split(os.pathsep)
    os.environ["PYTHONPATH"] = os.pathsep.join(parts[:1] + [str(site)] + parts[1:])  # the checkout first
    sys.path.insert(1, str(site))
    packed = bundle / "data.tar.xz"
    if packed.is_file():
        with tarfile.open(packed) as tar:
            members = tar.getmembers()
            for item, pattern in DATA.items():
                if any((data_root / item).glob(pattern)): continue
                mine = [m for m in members if m.name == item or m.name.startswith(item + "/")]
                if mine:
                    tar.extractall(data_root, members=mine, filter="data")  # no links out, no absolute paths
                    done["data_unpacked"].append(item)
    done["unmet"] = unmet_requirements(site, bundle)
    print(f"bundle: {len(wheels)} wheels into {site}" + (f" (pip failed: {done['error']})" if done["error"] else "")
          + f"; data unpacked: {', '.join(done['data_unpacked']) or 'none (the caches were filled)'}"
          + "".join(f"\nbundle: unmet: {u}" for u in done["unmet"]), flush=True)
    return done

def unmet_requirements(site: pathlib.Path, bundle: pathlib.Path) -> list[str]:
    """The requirements of the distributions installed in `site` that this interpreter's path (`site` first, then the
    image's) does not meet, as "datasets 5.2.0 needs huggingface-hub<3.0,>=1.31.0 (here 0.36.0)": a bundle built
    against other versions than the image's. Those the bundle left out on purpose (plan.json's leave_out) are
    skipped."""
    import importlib.metadata as md
    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.utils import canonicalize_name
    try: left_out = set(json.loads((bundle / "plan.json").read_text()).get("leave_out", []))
    except (OSError, ValueError): left_out = set()
    out = []
    for dist in md.distributions(path=[str(site)]):
        for s in dist.requires or []:
            try: req = Requirement(s)
            except InvalidRequirement: continue
            if canonicalize_name(req.name) in left_out or (req.marker and not req.marker.evaluate({"extra": ""})):
                continue
            try: have = md.version(req.name)
            except md.PackageNotFoundError: have = None
            if have is None or not req.specifier.contains(have, prereleases=True):
                out.append(f"{dist.metadata['Name']} {dist.version} needs {req.name}{req.specifier} "
                           f"(here {have or 'none'})")
    return sorted(set(out))

PARTS = {"notebooks": part_notebooks, "profile": part_profile, "steps": part_steps, "figure43": part_figure43,
         "kernels": part_kernels}

def _run(part, out, deadline, dry, names, jobs=1):
    os.setsid()  # one process group with whatever it starts: the parent stops them all at the deadline
    if dry: os.environ["TRITON_INTERPRET"] = "1"
    args = (out, deadline, dry) + ((names, jobs) if part == "notebooks" else ())
    PARTS[part](*args)

def supervise(part, out, until, dry, names, jobs, restarts=RESTARTS, target=None) -> list:
    '''Run `part` in a process of its own (spawned: a fresh CUDA context) until `until`, stopping its process group
    there; where it exits with POISONED and time is left, start it again (at most `restarts` times), as a second call
    into the same folder would: it redoes only the rows still missing. Returns the exit codes, one a process.'''
    codes = []
    for attempt in range(restarts + 1):
        budget = until - time.time()
        if budget < 5: break
        proc = mp.get_context("spawn").Process(target=target or _run,
                                               args=(part, out, time.time() + 0.9 * budget, dry, names, jobs))
        proc.start(); proc.join(budget)
        if proc.is_alive():
            os.killpg(proc.pid, signal.SIGKILL); proc.join(10)
            print(f"{part}: stopped at its budget ({budget:.0f} s)", flush=True)
        codes.append(proc.exitcode)
        print(f"{part}: exit code {proc.exitcode}", flush=True)
        if proc.exitcode != POISONED: break
    return codes

def source_digest(root: pathlib.Path = ROOT) -> str:
    """sha256 over the Python sources of hyena_lit/ and scripts/ under `root` (each file's path and bytes, in path
    order): the code a check ran, which `commit_of_digest` finds again where the copy it ran in had no git history."""
    import hashlib
    h = hashlib.sha256()
    for f in sorted(p for d in ("hyena_lit", "scripts") for p in (root / d).rglob("*.py")):
        rel = f.relative_to(root).as_posix()
        if "__pycache__" in rel or ".ipynb_checkpoints" in rel: continue
        h.update(rel.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()

def _git(*args, root: pathlib.Path = ROOT, **kw) -> subprocess.CompletedProcess:
    "git's answer, or a failed one where the machine has no git (a GPU image may not)."
    try: return subprocess.run(["git", *args], cwd=root, capture_output=True, **kw)
    except FileNotFoundError: return subprocess.CompletedProcess(["git", *args], 127, "" if kw.get("text") else b"", "")

def code_commit(root: pathlib.Path = ROOT) -> str | None:
    """The commit a check runs: git's HEAD (with '+' where hyena_lit/ or scripts/ differ from it), else the environment's
    HYENA_LIT_CODE (a copy without its history: `HYENA_LIT_CODE=<commit> bash scripts/gpu_run.sh ...`), else None."""
    head = _git("rev-parse", "--short=7", "HEAD", root=root, text=True)
    if head.returncode == 0 and head.stdout.strip():
        dirty = _git("status", "--porcelain", "--untracked-files=no", "hyena_lit", "scripts", root=root, text=True).stdout
        return head.stdout.strip() + ("+" if dirty.strip() else "")
    return os.environ.get("HYENA_LIT_CODE") or None

def commit_of_digest(digest: str, root: pathlib.Path = ROOT, last: int = 300) -> str | None:
    "The newest of the `last` commits of `root`'s history whose sources give `digest` (`source_digest`), or None."
    import hashlib
    commits = _git("rev-list", f"--max-count={last}", "HEAD", root=root, text=True).stdout.split()
    for c in commits:
        files = []
        for line in _git("ls-tree", "-r", c, "--", "hyena_lit", "scripts", root=root, text=True).stdout.splitlines():
            meta, path = line.split("\t", 1)
            if path.endswith(".py") and meta.split()[1] == "blob": files.append((path, meta.split()[2]))
        files.sort()
        out = _git("cat-file", "--batch", root=root, input="".join(f"{b}\n" for _, b in files).encode()).stdout
        h, at = hashlib.sha256(), 0
        for path, _ in files:  # each object: "<id> blob <size>\n", its bytes, "\n"
            eol = out.index(b"\n", at)
            size = int(out[at:eol].split()[2])
            h.update(path.encode() + b"\0" + out[eol + 1:eol + 1 + size] + b"\0")
            at = eol + 1 + size + 1
        if h.hexdigest() == digest: return c[:7]
    return None

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "runs" / "gpu"), help="the folder that gets <GPU name>/")
    p.add_argument("--deadline-min", type=float, default=9.0, help="stop cleanly before this many minutes")
    p.add_argument("--parts", default=",".join(PARTS))
    p.add_argument("--notebooks", default="", help="comma-separated names (default: all; --dry: 19_quickstart)")
    p.add_argument("--jobs", type=int, default=None,
                   help="notebooks run at once (default: 1 with --dry, else half the CPUs, at most 7)")
    p.add_argument("--bundle", default="", help="a folder made by scripts/gpu_bundle.py: wheels and data caches")
    p.add_argument("--dry", action="store_true", help="the whole flow on the CPU at toy sizes")
    a = p.parse_args(argv)
    bundle = pathlib.Path(a.bundle) if a.bundle else None
    if bundle and not ((bundle / "wheels").is_dir() or (bundle / "data.tar.xz").is_file()):
        raise SystemExit(f"error: --bundle: {a.bundle} has no wheels/ folder or data.tar.xz (scripts/gpu_bundle.py "
                         "makes them)")
    parts = [s for s in a.parts.split(",") if s]
    if not parts or any(s not in PARTS for s in parts):
        raise SystemExit(f"error: --parts takes names from {list(PARTS)}, got {a.parts!r}")
    if not a.deadline_min > 0: raise SystemExit(f"error: --deadline-min must be positive, got {a.deadline_min}")
    names = [s for s in a.notebooks.split(",") if s] or (["19_quickstart"] if a.dry else NOTEBOOKS)
    for n in names: notebook_path(n)
    jobs = a.jobs if a.jobs is not None else (1 if a.dry else max(1, min(7, (os.cpu_count() or 2) // 2)))
    if jobs < 1: raise SystemExit(f"error: --jobs must be at least 1, got {a.jobs}")
    t0 = time.time()
    end = t0 + 60 * a.deadline_min - 15  # 15 s to spare for the last writes
    import torch
    if not a.dry and not torch.cuda.is_available(): raise SystemExit("error: no CUDA GPU: run with --dry to test on CPU")
    bundled = use_bundle(bundle) if bundle else None
    from hyena_lit.core.paths import path_component
    gpu_name = "cpu-dry" if a.dry else torch.cuda.get_device_name()
    root = pathlib.Path(a.out) / path_component(gpu_name.replace(" ", "_"), "the GPU's name")
    root.mkdir(parents=True, exist_ok=True)
    try: import triton; triton_v = triton.__version__
    except ImportError: triton_v = None
    info = dict(kind="gpu_check", gpu=gpu_name, torch=torch.__version__, triton=triton_v, cuda=torch.version.cuda, dry=a.dry,
                deadline_min=a.deadline_min, parts=parts, notebooks=names, bundle=bundled,
                started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), code=code_commit(),
                source_digest=source_digest())
    name = "params.json" if not (root / "params.json").exists() else f"params-{int(t0)}.json"
    (root / name).write_text(json.dumps(info, indent=1) + "\n")
    total = sum(SHARES[s] for s in parts)
    dirs = {"notebooks": root / "notebooks", "profile": root / "profile", "steps": root, "figure43": root / "figure43",
            "kernels": root / "kernels"}
    for i, part in enumerate(parts):
        later = sum(SHARES[s] for s in parts[i + 1:]) / total * (end - t0)
        budget = end - time.time() - later  # its share plus whatever the parts before it left
        if budget < 5: print(f"{part}: no time left", flush=True); continue
        supervise(part, dirs[part], time.time() + budget, a.dry, names, jobs)
        print(f"{part}: {time.time() - t0:.0f} s in", flush=True)
    from hyena_lit.core.paths import make_portable
    make_portable(root)  # tracebacks and warnings name files relative to the repository and <site-packages>/
    print(f"total {time.time() - t0:.0f} s; results under {root}")

if __name__ == "__main__":
    main()
