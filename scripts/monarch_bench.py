"""Time the Monarch FFT convolutions (`22_monarch_fftconv`, `23_monarch_long`) against torch.fft on a CUDA GPU, forward and forward+backward.

usage: python scripts/monarch_bench.py --out DIR [--deadline-min 8] [--lengths 1024,...,65536] [--batch 64]
       [--channels 768] [--reps 20] [--impls NAME,...] [--dry]

First the correctness of the compiled kernels (`check_monarch`: every output and gradient against float64 within
c u log2 N, float32/float16/bfloat16, odd sizes; the one-kernel design at `CHECK_CASES`, the three passes at
`LONG_CHECK_CASES`, column `kernel`) -> DIR/monarch_correctness.csv. Then, per length, each contender's
median time with CUDA events (`--reps` >= 20 after 3 warm-up calls; 20th and 80th percentiles too) for the gated
convolution with both gates and the skip -> DIR/monarch_bench.csv, one row per (L, contender), written after every
row. Contenders: torch.fft (the library's `fftconv` with its own backward, float32 inputs: cuFFT has no bfloat16),
torch.fft ref (the kernels' plain reference `gated_fftconv_ref`, rfft/irfft of size 2L under autograd, float32), the
Monarch kernel with bf16 and with float32 inputs, the same with bf16 inputs forming the whole spectral tile at once
(`WHOLE_TILE`: the launch's warps and depth with RB = N1, so that the table's blocks of rows are timed against none),
the three-pass kernel with bf16 and with float32 inputs (`monarch long`, up to `LONG_MAX_L`), and the first fused kernel (`20_fftconv_triton`) with bf16 inputs.
Then the operator's layout (`PACKED`): u and both gates as the thirds of one (B, 3C, L) tensor, as the order-2 step
hands them over: `torch.fft packed` (`gated_fftconv_packed`, float32), `monarch bf16 packed` (`monarch_fftconv_packed`:
the thirds read in place, one gradient) and `monarch bf16 copied` (`monarch_fftconv` on contiguous copies of the
thirds, their gradients concatenated by autograd: how the kernel read them before it took batch strides), and the
same two for the three passes (`monarch long bf16 packed`, `monarch long bf16 copied`): what reading in place saves
inside the training step.
`--impls` times only the named contenders (default: all of them; an unknown name is refused before anything runs); the correctness checks run whatever it names.
A contender that fails is a row with its error; the others still run. A build that does not fit the GPU and falls
back to torch.fft (`KernelFallback`) is such a failure, its timing not recorded (the correctness rows say "fell back"). Every row records
its input dtype and the products' dtype the kernel ran (`products`), and the Monarch rows the launch
(`launch`: warps, spectral rows per block and depth of the forward and the backward, `MONARCH_LAUNCH`); lengths above `MONARCH_MAX_L` are rows with
status "not built" for the Monarch kernel. A length that does not fit in memory is a row with status "out of
memory". Lengths run in the order given (by default every other length first, so that a deadline cuts the
sweep's resolution rather than its range); none starts after the deadline. DIR/device.json names the GPU and the versions.
A second call into the same DIR, with the same settings, keeps what the first wrote: the correctness rows, and the
timed (L, contender) rows, timing only the missing ones. A kernel fault (a misaligned or illegal address) leaves the
process's CUDA context failing every later call: after a failed case or row the context is probed (`cuda_usable`),
and where it is gone the rows so far are written and the script exits with `POISONED` (3), for its caller to start it
again in a fresh process (scripts/gpu_check.py does).
`--dry` runs the same plumbing on CPU under Triton's interpreter at toy sizes (wall-clock timing, lengths up to
`DRY_MAX_L`), to test the script.
Callable as `main(argv)`."""
import argparse, contextlib, json, math, os, pathlib, sys, time, warnings

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

# in the order timed: every other length first, so that a deadline cuts the sweep's resolution, not its range
LENGTHS = (1024, 4096, 16384, 65536, 2048, 8192, 32768)
CHECK_CASES = ((3, 5, 100), (2, 7, 777), (3, 3, 3001), (1, 3, 8192))
LONG_CHECK_CASES = ((3, 5, 100), (3, 3, 3001), (1, 3, 20000), (1, 2, 65536))  # the three-pass kernel (23_monarch_long)
DRY_MAX_L = 300  # --dry times lengths up to this one (the interpreter is slow), and only records the plumbing above
POISONED = 3  # the exit code of a benchmark whose CUDA context a kernel fault left unusable: start it again

def cuda_usable() -> bool:
    "Whether this process's CUDA context still runs work (a kernel fault leaves it failing every call); True off CUDA."
    import torch
    if not torch.cuda.is_available() or not torch.cuda.is_initialized(): return True
    try:
        torch.cuda.synchronize()
        return (torch.ones(1, device="cuda") + 1).item() == 2.0
    except Exception:
        return False

def exit_if_poisoned(what: str, write=None):
    "After a failure: where the CUDA context is gone, `write()` what there is and exit with POISONED."
    if cuda_usable(): return
    if write: write()
    print(f"{what} left the CUDA context unusable: exit {POISONED}, to be started again in a fresh process", flush=True)
    sys.stdout.flush()
    os._exit(POISONED)

def parse(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="folder for everything this run writes")
    p.add_argument("--deadline-min", type=float, default=8.0, help="no length starts after this many minutes")
    p.add_argument("--lengths", default=",".join(map(str, LENGTHS)))
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--channels", type=int, default=768)
    p.add_argument("--reps", type=int, default=20, help="timed calls per measurement (at least 20 on a GPU)")
    p.add_argument("--impls", default=None, help="comma-separated contenders to time (default: all)")
    p.add_argument("--dry", action="store_true", help="toy sizes on CPU under Triton's interpreter")
    a = p.parse_args(argv)
    if a.impls is not None: a.impls = [x.strip() for x in a.impls.split(",")]  # checked against contenders() in main
    if a.deadline_min <= 0: p.error(f"--deadline-min must be positive, got {a.deadline_min}")
    try: a.lengths = [int(x) for x in a.lengths.split(",")]
    except ValueError: p.error(f"--lengths takes comma-separated integers, got {a.lengths!r}")
    if any(L < 1 for L in a.lengths): p.error(f"--lengths must be positive, got {a.lengths}")
    if a.batch < 1 or a.channels < 1: p.error(f"--batch and --channels must be positive, got {a.batch}, {a.channels}")
    if a.reps < (1 if a.dry else 20): p.error(f"--reps must be at least 20 on a GPU, got {a.reps}")
    return a

def timer(fn, reps: int, cuda: bool, warmup: int = 3) -> dict:
    "Median and 20/80th percentile ms of fn() over `reps` calls after `warmup` calls (CUDA events on a GPU)."
    import torch
    for _ in range(warmup): fn()
    ts = []
    for _ in range(reps):
        if cuda:
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); fn(); e.record(); torch.cuda.synchronize()
            ts.append(s.elapsed_time(e))
        else:
            t0 = time.perf_counter(); fn(); ts.append(1e3 * (time.perf_counter() - t0))
    ts.sort()
    q = lambda f: ts[min(len(ts) - 1, int(f * len(ts)))]
    return dict(ms=q(0.5), p20=q(0.2), p80=q(0.8))

@contextlib.contextmanager
def fallbacks():
    """Collects, into the list it yields, the messages of the `KernelFallback` warnings raised inside (a build that did
    not fit the GPU, torch.fft computing in its place); other warnings are printed."""
    from hyena_lit.kernels.monarch_fftconv import KernelFallback
    fell = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield fell
    for w in caught:
        if issubclass(w.category, KernelFallback):
            if str(w.message) not in fell: fell.append(str(w.message))
        else: print(f"warning: {w.category.__name__}: {w.message}", flush=True)

def contenders(L: int):
    "{name: (input dtype, products or None, fn(u, k, D, pre, post) or None when not built at L)}"
    import torch
    from hyena_lit.kernels.fftconv_triton import MAX_L, MAX_L_HALF, PREC, fftconv_triton, gated_fftconv_ref, products
    from hyena_lit.kernels.monarch_fftconv import MONARCH_MAX_L, monarch_fftconv, monarch_fftconv_packed
    from hyena_lit.core.fftconv import gated_fftconv_packed
    from hyena_lit.kernels.monarch_long import LONG_MAX_L, monarch_long_fftconv, monarch_long_fftconv_packed
    from hyena_lit.experiments.runtime import library_fftconv
    ours, passes = L <= MONARCH_MAX_L, monarch_long_fftconv if L <= LONG_MAX_L else None
    first = L <= MAX_L
    return {"torch.fft": (torch.float32, "fp32", library_fftconv),
            "torch.fft ref": (torch.float32, "fp32", gated_fftconv_ref),
            "monarch bf16": (torch.bfloat16, products(torch.bfloat16), monarch_fftconv if ours else None),
            "monarch fp32": (torch.float32, products(torch.float32), monarch_fftconv if ours else None),
            WHOLE_TILE: (torch.bfloat16, products(torch.bfloat16), monarch_fftconv if ours else None),
            "monarch long bf16": (torch.bfloat16, products(torch.bfloat16), passes),
            "monarch long fp32": (torch.float32, products(torch.float32), passes),
            "first kernel bf16": (torch.bfloat16, products(torch.bfloat16) if L <= MAX_L_HALF else PREC,
                                  fftconv_triton if first else None),
            "torch.fft packed": (torch.float32, "fp32", gated_fftconv_packed),
            "monarch bf16 packed": (torch.bfloat16, products(torch.bfloat16), monarch_fftconv_packed if ours else None),
            "monarch bf16 copied": (torch.bfloat16, products(torch.bfloat16), _copied if ours else None),
            "monarch long bf16 packed": (torch.bfloat16, products(torch.bfloat16),
                                         monarch_long_fftconv_packed if passes else None),
            "monarch long bf16 copied": (torch.bfloat16, products(torch.bfloat16), _long_copied if passes else None)}

# the contenders called on the operator's layout, fn(z, k, D) with z = [post | pre | u] (B, 3C, L)
PACKED = ("torch.fft packed", "monarch bf16 packed", "monarch bf16 copied", "monarch long bf16 packed",
          "monarch long bf16 copied")

def _copied(z, k, D, long: bool = False):
    """`monarch_fftconv` (`long`: `monarch_long_fftconv`) on contiguous copies of z's thirds, its gradients
    concatenated by autograd: the kernel as it read its inputs before it took batch strides (the ablation of reading
    in place)."""
    from hyena_lit.kernels.monarch_fftconv import monarch_fftconv
    from hyena_lit.kernels.monarch_long import monarch_long_fftconv
    post, pre, u = (t.contiguous() for t in z.split(z.shape[1] // 3, dim=1))
    return (monarch_long_fftconv if long else monarch_fftconv)(u, k, D, pregate=pre, postgate=post)

def _long_copied(z, k, D):
    return _copied(z, k, D, long=True)

WHOLE_TILE = "monarch bf16 whole tile"  # the same launch with RB = N1 (`monarch_rows()`): what the blocks cost or save

def launch_of(L: int, prec: str, passes: bool = False) -> str:
    """The Monarch kernel's launch at L with products `prec`: warps, spectral rows per block, depth, forward / backward;
    with `passes`, each pass's of the three-pass kernel (`LONG_LAUNCH`: warps, rows, columns, depth)."""
    from hyena_lit.kernels.monarch_fftconv import monarch_launch, monarch_plan
    if passes:
        from hyena_lit.kernels.monarch_long import LONG_KERNELS, long_launch, long_plan
        N = math.prod(long_plan(L))
        return " / ".join("{} w{} r{} c{} s{}".format(k, *long_launch(N, k, prec)) for k in LONG_KERNELS)
    return " / ".join("{} w{} r{} s{}".format(k, *monarch_launch(monarch_plan(L), k, prec)) for k in ("forward", "backward"))

def bench_inputs(B: int, C: int, L: int, dtype, device: str, seed: int = 0) -> tuple:
    """The timed problem, the same in the bench and in the profile (`gpu_check.NCU_PROGRAM`): u, k, D, pre, post of
    the gated convolution y = post * (k * (pre * u) + D pre u), u and the gates in `dtype`, k and D in float32, all
    requiring gradients, drawn from one seeded generator."""
    import torch
    g = torch.Generator(device=device).manual_seed(seed)
    u, pre, post = (torch.randn(B, C, L, device=device, dtype=dtype, generator=g).requires_grad_() for _ in range(3))
    k = torch.randn(C, L, device=device, generator=g).requires_grad_()
    D = torch.randn(C, device=device, generator=g).requires_grad_()
    return u, k, D, pre, post

def start(a: argparse.Namespace, **fields) -> tuple:
    """The benchmarks' common start (this script's and short_conv_bench's): Triton's interpreter on for `--dry` (before
    anything imports triton), a CUDA GPU required otherwise, the folder `a.out` made and its device.json written (the
    GPU, the versions, `a.dry`, `a.reps`, the start and `fields`). Returns (out folder, device, deadline, start time)."""
    if a.dry: os.environ["TRITON_INTERPRET"] = "1"
    import torch, triton
    cuda = not a.dry
    if cuda and not torch.cuda.is_available(): raise SystemExit("error: no CUDA GPU: run with --dry to test the script on CPU")
    t0, out = time.time(), pathlib.Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    info = dict(gpu=torch.cuda.get_device_name() if cuda else "cpu", torch=torch.__version__, triton=triton.__version__,
                cuda=torch.version.cuda, dry=a.dry, reps=a.reps, **fields)
    f = out / "device.json"
    if f.exists():  # a second call: the same GPU, versions and settings, or nothing is mixed into the first's tables
        earlier = json.loads(f.read_text())
        differ = {k: (earlier.get(k), v) for k, v in info.items() if earlier.get(k) != v}
        if differ: raise SystemExit(f"error: {out} holds a benchmark with other settings ({differ}): use another --out")
        print(f"{out}: going on from the call started {earlier.get('started')}", flush=True)
    else:
        f.write_text(json.dumps(info | dict(started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())), indent=1) + "\n")
    return out, "cuda" if cuda else "cpu", t0 + 60 * a.deadline_min, t0

def main(argv=None):
    a = parse(argv)
    known = list(contenders(1))  # every contender's name, in the order timed: --impls picks among them
    if a.impls is not None and (unknown := [x for x in a.impls if x not in known]):
        raise SystemExit(f"--impls takes names of {known}, got {unknown}")  # before anything is written
    B, C, lengths, cases, long_cases = a.batch, a.channels, a.lengths, CHECK_CASES, LONG_CHECK_CASES
    # --dry: the checks at three rows (a pair and an unpaired row) of two channels; the timings, plumbing only, on
    # one pair of rows of one channel (the interpreter's time grows with the programs launched)
    if a.dry: B, C, cases, long_cases = min(B, 2), min(C, 1), ((3, 2, 100),), ((3, 2, 100),)
    out, dev, deadline, t0 = start(a, B=B, C=C)
    import pandas as pd, torch
    from hyena_lit.kernels.monarch_fftconv import check_monarch, monarch_rows
    from hyena_lit.kernels.monarch_long import monarch_long_fftconv
    cuda = dev == "cuda"
    warmup = 1 if a.dry else 3
    corr, corr_path = [], out / "monarch_correctness.csv"
    cases_all = [(kernel, impl, Bc, Cc, L, dt) for kernel, impl, kcases in
                 (("monarch", None, cases), ("monarch long", monarch_long_fftconv, long_cases))
                 for Bc, Cc, L in kcases for dt in (torch.float32, torch.float16, torch.bfloat16)]
    if corr_path.exists():  # a second call: the first's checks stand
        corr = pd.read_csv(corr_path).to_dict("records")
        print(f"correctness: kept from the earlier call ({len(corr)} rows)", flush=True)
    for i, (kernel, impl, Bc, Cc, L, dt) in enumerate([] if corr_path.exists() else cases_all):
        try:
            with fallbacks() as fell: got = check_monarch(Bc, Cc, L, dt, device=dev, impl=impl)
            # a build that did not fit: torch.fft's numbers, not the kernel's (status not ok)
            corr += [r | dict(kernel=kernel) | (dict(status=f"fell back: {fell[0]}"[:300]) if fell else {})
                     for r in got]
        except Exception as e:  # a build that does not launch (shared memory): a row that says so
            corr.append(dict(B=Bc, C=Cc, L=L, dtype=str(dt).split(".")[1], output="all", kernel=kernel,
                             status=f"error: {type(e).__name__}: {e}"[:300]))
            lost = lambda: [dict(B=b_, C=c_, L=l_, dtype=str(d_).split(".")[1], output="all", kernel=k_,  # noqa: E731
                                 status="not run: an earlier case left the CUDA context unusable")
                            for k_, _, b_, c_, l_, d_ in cases_all[i + 1:]]
            exit_if_poisoned(f"the correctness case {kernel} {(Bc, Cc, L)} {dt}",
                             lambda: pd.DataFrame([r if "status" in r else r | dict(status="ok") for r in corr + lost()])
                             .to_csv(corr_path, index=False))
    corr = [r if "status" in r else r | dict(status="ok") for r in corr]
    pd.DataFrame(corr).to_csv(corr_path, index=False)
    checked = [r for r in corr if r["status"] == "ok"]
    worst = max(checked, key=lambda r: r["share"], default=dict(share=float("nan"), dtype="-", L="-", output="-"))
    print(f"correctness (both kernels): all within the bound: {all(r['error'] <= r['bound'] for r in checked)};"
          f" {len(corr) - len(checked)} case(s) did not run;"
          f" largest share {worst['share']:.3f} ({worst['dtype']}, L = {worst['L']}, {worst['output']})", flush=True)
    bench_path = out / "monarch_bench.csv"
    rows = pd.read_csv(bench_path).to_dict("records") if bench_path.exists() else []  # a second call: kept
    done = {(int(r["L"]), r["impl"]) for r in rows}
    for L in lengths:
        if time.time() > deadline:
            print(f"deadline: lengths {lengths[lengths.index(L):]} not started", flush=True); break
        for name, (dtype, prec, fn) in contenders(L).items():
            if (L, name) in done or (a.impls is not None and name not in a.impls): continue
            row = dict(L=L, impl=name, dtype=str(dtype).split(".")[1], products=prec, B=B, C=C, reps=a.reps)
            if fn is None: rows.append(row | dict(status="not built")); continue
            scope = monarch_rows if name == WHOLE_TILE else contextlib.nullcontext  # a new context each use
            if name.startswith("monarch"):
                with scope(): row["launch"] = launch_of(L, prec, passes=name.startswith("monarch long"))
            if a.dry and L > DRY_MAX_L: rows.append(row | dict(status="not timed (dry run)")); continue
            try:
                u, k, D, pre, post = bench_inputs(B, C, L, dtype, dev)
                if name in PACKED:  # the same values, stacked as the operator's step hands them over
                    z = torch.cat([post, pre, u], 1).detach().requires_grad_()
                    u = pre = post = None
                    call = lambda: fn(z, k, D.to(dtype))
                else: call = lambda: fn(u, k, D.to(dtype), pre, post)
                with scope():  # the whole-tile contender's launches, forward and backward
                    # a timing during which a build fell back to torch.fft is not the kernel's: not recorded
                    with fallbacks() as fell: f = timer(call, a.reps, cuda, warmup)
                    if fell: raise RuntimeError(f"fell back: {fell[0]}")
                    row |= dict(status="ok", fwd_ms=f["ms"], fwd_p20=f["p20"], fwd_p80=f["p80"])
                    try:
                        with fallbacks() as fell: fb = timer(lambda: call().float().sum().backward(), a.reps, cuda, warmup)
                        if fell: raise RuntimeError(f"fell back: {fell[0]}")
                    except Exception as e:  # the forward's timing stays; the backward's failure is recorded
                        row |= dict(status=f"forward only; backward error: {type(e).__name__}: {e}"[:300])
                    else: row |= dict(fwd_bwd_ms=fb["ms"], fwd_bwd_p20=fb["p20"], fwd_bwd_p80=fb["p80"])
            except torch.OutOfMemoryError:
                row |= dict(status="out of memory")
            except Exception as e:
                row |= dict(status=f"error: {type(e).__name__}: {e}"[:300])
            finally:
                u = pre = post = k = D = z = None
                if cuda: torch.cuda.empty_cache()
            rows.append(row)
            print(row, flush=True)
            pd.DataFrame(rows).to_csv(bench_path, index=False)
            if row["status"] not in ("ok", "out of memory"): exit_if_poisoned(f"{name} at L = {L}")
    bench = pd.DataFrame(rows)
    bench.to_csv(bench_path, index=False)
    ok = bench[bench.status == "ok"] if "fwd_bwd_ms" in bench else bench.iloc[:0]
    if len(ok):
        t = ok.pivot_table(index="L", columns="impl", values="fwd_bwd_ms")
        if "torch.fft" in t:
            for c in [c for c in t.columns if c != "torch.fft"]: t[f"torch.fft / {c}"] = t["torch.fft"] / t[c]
        print(t.round(3).to_string(), flush=True)
    print(f"total {time.time() - t0:.0f} s; results under {out}")
    return bench

if __name__ == "__main__":
    main()
