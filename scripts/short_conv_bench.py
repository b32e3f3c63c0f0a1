"""Time the short filter's Triton kernel (`24_short_conv`) against PyTorch's convolution on a CUDA GPU, forward and
forward+backward.

usage: python scripts/short_conv_bench.py --out DIR [--deadline-min 1] [--reps 20] [--dry]

First the kernel's correctness in float32 and bfloat16 on odd sizes (`check_short_conv`: every output and gradient
against float64, as a share of `24_short_conv`'s bound). Then, per shape (`SHAPES`: the short filter's (B, 3D, L) in the training step's table: Hyena-125M at
L = 2048, 8192 and 16384, Hyena-355M at 2048) and input dtype (bfloat16 as under autocast, float32), each contender's
median time with CUDA events (`--reps` >= 20 after 3 warm-up calls; 20th and 80th percentiles too), the taps and bias
in float32 as the operator holds them: `torch conv1d` (`11_fftconv`'s `short_conv`, one convolution op forward and
one backward: the operator's path on CUDA), `torch shifted` (its K multiply-add passes) and `triton` (this kernel).
Each row carries the least bytes the call moves (`short_conv_bytes`), the floor at the GPU's bandwidth and the share
of it reached. Writes DIR/short_conv.csv (after every row), DIR/short_conv_correctness.csv and DIR/device.json; no
shape starts after the deadline. A second call into the same DIR with the same settings keeps what the first wrote and
times only the missing rows; after a failed check or row whose fault left the CUDA context unusable, the rows so far
are written and the script exits with monarch_bench's `POISONED`, for its caller to start it again in a fresh
process. `--dry` runs the same plumbing on CPU under Triton's interpreter at toy sizes (wall-clock timing), to test
the script. Callable as `main(argv)`."""
import argparse, pathlib, sys, time

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

SHAPES = ((8, 2304, 2048), (2, 2304, 8192), (1, 2304, 16384), (8, 3072, 2048))  # (B, 3D, L) of the step table
DRY_SHAPES = ((2, 3, 100), (1, 2, 777))
CHECKS = ((2, 5, 100, 3), (3, 4, 777, 3), (1, 3, 1030, 4))  # (B, C, L, K), odd sizes

def parse(argv=None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="folder for everything this run writes")
    p.add_argument("--deadline-min", type=float, default=1.0, help="no shape starts after this many minutes")
    p.add_argument("--reps", type=int, default=20)
    p.add_argument("--dry", action="store_true", help="on CPU under Triton's interpreter, toy sizes")
    a = p.parse_args(argv)
    if a.reps < (1 if a.dry else 20): p.error(f"--reps must be at least 20 on a GPU, got {a.reps}")
    if not a.deadline_min > 0: p.error(f"--deadline-min must be positive, got {a.deadline_min}")
    return a

def main(argv=None):
    a = parse(argv)
    from monarch_bench import exit_if_poisoned, start, timer
    peaks = None
    if not a.dry:  # (with --dry nothing may import triton before `start` turns the interpreter on)
        import torch
        from hyena_lit.kernels.fftconv_checks import gpu_peaks
        peaks = gpu_peaks(torch.cuda.get_device_name()) if torch.cuda.is_available() else None
    out, dev, deadline, t0 = start(a, bandwidth=peaks and peaks["bandwidth"])
    import torch
    import pandas as pd
    from hyena_lit.core.fftconv import short_conv
    from hyena_lit.kernels.short_conv import check_short_conv, short_conv_bytes, short_conv_floor, short_conv_triton
    cuda = dev == "cuda"
    corr, corr_path = [], out / "short_conv_correctness.csv"
    if corr_path.exists():  # a second call: the first's checks stand
        corr = pd.read_csv(corr_path).to_dict("records")
    for B, C, L, K in [] if corr_path.exists() else CHECKS[:1] if a.dry else CHECKS:
        for dt in (torch.float32, torch.bfloat16):
            try: shares = check_short_conv(B, C, L, K, dt, device=dev)
            except Exception as e:  # a kernel that does not run: a row that says so
                corr.append(dict(B=B, C=C, L=L, K=K, dtype=str(dt).split(".")[1], output="all",
                                 status=f"error: {type(e).__name__}: {e}"[:300]))
                exit_if_poisoned(f"the check {(B, C, L, K)} {dt}", lambda: pd.DataFrame(corr).to_csv(corr_path, index=False))
                continue
            corr += [dict(B=B, C=C, L=L, K=K, dtype=str(dt).split(".")[1], output=k, share=v, status="ok")
                     for k, v in shares.items()]
    pd.DataFrame(corr).to_csv(corr_path, index=False)
    checked = [r for r in corr if r.get("status", "ok") == "ok"]
    print(f"correctness: largest share of the bound {max((r['share'] for r in checked), default=float('nan')):.3f}; "
          f"{len(corr) - len(checked)} check(s) failed", flush=True)
    contenders = {"torch conv1d": lambda u, w, b: short_conv(u, w, b, one_op=True),
                  "torch shifted": lambda u, w, b: short_conv(u, w, b, one_op=False),
                  "triton": short_conv_triton}
    bench_path = out / "short_conv.csv"
    rows = pd.read_csv(bench_path).to_dict("records") if bench_path.exists() else []  # a second call: kept
    done = {(int(r["B"]), int(r["C"]), int(r["L"]), r["dtype"], r["impl"]) for r in rows}
    for B, C, L in DRY_SHAPES if a.dry else SHAPES:
        for dt in (torch.bfloat16, torch.float32):
            if time.time() > deadline: print(f"deadline: shape {(B, C, L)} {dt} not started", flush=True); break
            elem = torch.finfo(dt).bits // 8
            u = torch.randn(B, C, L, device=dev).to(dt).requires_grad_()
            w = torch.randn(C, 1, 3, device=dev, requires_grad=True)
            b = torch.randn(C, device=dev, requires_grad=True)
            gy = torch.randn(B, C, L, device=dev).to(dt)
            for name, fn in contenders.items():
                if (B, C, L, str(dt).split(".")[1], name) in done: continue
                row = dict(B=B, C=C, L=L, K=3, dtype=str(dt).split(".")[1], impl=name, reps=a.reps,
                           fwd_bytes=short_conv_bytes(B, C, L, elem, False), fwd_bwd_bytes=short_conv_bytes(B, C, L, elem, True))
                try:
                    with torch.no_grad(): f = timer(lambda: fn(u, w, b), a.reps, cuda, 1 if a.dry else 3)
                    fb = timer(lambda: torch.autograd.grad(fn(u, w, b), [u, w, b], gy), a.reps, cuda, 1 if a.dry else 3)
                    row |= dict(status="ok", fwd_ms=f["ms"], fwd_p20=f["p20"], fwd_p80=f["p80"],
                                fwd_bwd_ms=fb["ms"], fwd_bwd_p20=fb["p20"], fwd_bwd_p80=fb["p80"])
                    if peaks:
                        for p, backward in (("fwd", False), ("fwd_bwd", True)):
                            row[f"{p}_floor_ms"] = short_conv_floor(B, C, L, elem, backward, peaks["bandwidth"])
                            row[f"{p}_share"] = row[f"{p}_floor_ms"] / row[f"{p}_ms"]
                except torch.OutOfMemoryError: row |= dict(status="out of memory")
                except Exception as e: row |= dict(status=f"error: {type(e).__name__}: {e}"[:300])
                rows.append(row)
                print(row, flush=True)
                pd.DataFrame(rows).to_csv(bench_path, index=False)
                if row["status"] not in ("ok", "out of memory"): exit_if_poisoned(f"{name} at {(B, C, L)} {dt}")
            u = w = b = gy = None
            if cuda: torch.cuda.empty_cache()
    bench = pd.DataFrame(rows)
    bench.to_csv(bench_path, index=False)
    ok = bench[bench.status == "ok"] if "status" in bench else bench.iloc[:0]
    if len(ok):
        t = ok.pivot_table(index=["dtype", "B", "C", "L"], columns="impl", values="fwd_bwd_ms")
        if "torch conv1d" in t and "triton" in t: t["torch conv1d / triton"] = t["torch conv1d"] / t["triton"]
        print(t.round(4).to_string(), flush=True)
    print(f"total {time.time() - t0:.0f} s; results under {out}")
    return bench

if __name__ == "__main__":
    main()
