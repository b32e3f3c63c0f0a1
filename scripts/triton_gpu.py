"""The GPU measurements of issue 44 in one command, everything under one folder, within a time budget.

usage: python scripts/triton_gpu.py --out OUT [--minutes 9] [--stages figure43,step,kernels] [--smoke]

In order, each stage in a child process with its own share of the budget (a stage that runs over is stopped; the
rows it finished are on disk already):
1. Figure 4.3 (`50_runtime`): Hyena operator with torch.fft and with the fused kernels, SDPA, attention written out;
   B = 1 and B = 16; L = 1K..64K; forward and forward+backward  -> OUT/runtime/<gpu>/b<B>.csv
2. A full-size training step: Hyena-125M / -355M and GPT-125M / -355M (SDPA), bf16 autocast, AdamW; tokens/s, MFU,
   peak memory at context 2048, 8192, 16384 where it fits                     -> OUT/pile/<gpu>-step/steps.csv
3. The kernels (`20_fftconv_triton`, checks in `21_fftconv_triton_checks`): correctness against float64 within c u log2 N (float32, float16, bfloat16),
   the operator against the reference, and the benchmark with its roofline (torch.fft, ours fp32, ours bf16,
   FlashFFTConv if installed)  -> OUT/triton/<gpu>/{correctness,operator,bench}.csv, device.json
`--smoke` runs the same plumbing on CPU at toy sizes (Triton's interpreter), to test the script without a GPU."""
import argparse, json, multiprocessing as mp, os, pathlib, signal, sys, time

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))  # hyena_lit from this checkout, installed or not
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])

SHARES = {"figure43": 0.3, "step": 0.25, "kernels": 0.45}  # of the budget, in this order

def _figure43(out, deadline, smoke):
    from hyena_lit.experiments.runtime import gpu_sweep_name, time_points
    f = figure43_settings(smoke)
    parts = [(dt, B) for dt in f["dtypes"] for B in f["batches"]]
    for i, (dt, B) in enumerate(parts):  # each gets an equal part of what is left
        part = time.time() + (deadline - time.time()) / (len(parts) - i)
        time_points(out / f"{gpu_sweep_name(B, dt)}.csv", f["ops"], f["lengths"], B, f["d_model"], f["n_heads"],
                    device="cpu" if smoke else "cuda", reps=f["reps"], memory_budget_gb=f["memory_budget_gb"],
                    deadline=part, dtype=dt)

def figure43_settings(smoke: bool) -> dict:
    "50_runtime's GPU_SWEEP, or toy sizes for --smoke."
    from hyena_lit.experiments.runtime import GPU_SWEEP
    return dict(GPU_SWEEP, ops=["hyena", "sdpa"], d_model=32, n_heads=4, lengths=[256], batches=[1], reps=3,
                dtypes=["float32", "bfloat16"]) if smoke else dict(GPU_SWEEP)

def _step(out, deadline, smoke):
    import pandas as pd, torch
    from hyena_lit.experiments.runtime import step_bench
    plan = [(L, B) for L, B in ((2048, 8), (8192, 2), (16384, 1))]
    sizes, dev, steps, dtype = ("125M", "gpt-125M", "355M", "gpt-355M"), "cuda", 20, torch.bfloat16
    if smoke: plan, sizes, dev, steps, dtype = [(64, 2)], ("tiny", "gpt-tiny"), "cpu", 2, torch.float32
    rows = []
    for L, B in plan:
        for size in sizes:
            if time.time() > deadline: return
            rows.append(step_bench(size, L, B, steps, dev, dtype))
            pd.DataFrame(rows).to_csv(out / "steps.csv", index=False)
            print(rows[-1], flush=True)

def _case(args):
    case, dtype, dev = args
    import torch
    from hyena_lit.kernels.fftconv_checks import correctness_rows
    return correctness_rows([case], [getattr(torch, dtype)], dev)

def _kernels(out, deadline, smoke):
    import pandas as pd, torch
    from hyena_lit.kernels.fftconv_checks import GPU_CASES, GPU_DTYPES, benchmark
    from hyena_lit.experiments.runtime import library_fftconv, operator_check
    cases, dev, lengths, B, C = GPU_CASES, "cuda", (1024, 2048, 4096, 8192, 16384), 64, 768
    if smoke: cases, dev, lengths, B, C = ((1, 3, 100, None),), "cpu", (256,), 1, 4
    jobs = [(c, str(d).split(".")[1], dev) for c in cases for d in GPU_DTYPES]
    with mp.get_context("spawn").Pool(1 if smoke else min(12, len(jobs))) as pool:  # compiles in parallel
        rows = [r for part in pool.map(_case, jobs) for r in part]
    corr = pd.DataFrame(rows); corr.to_csv(out / "correctness.csv", index=False)
    print(f"correctness: largest share of the bound {corr.share.max():.3f}, all within: {(corr.triton <= corr.bound).all()}", flush=True)
    if not smoke:
        op = pd.DataFrame(operator_check(dev)); op.to_csv(out / "operator.csv", index=False); print(op.to_string(), flush=True)
    bench = pd.DataFrame(benchmark(lengths, B, C, dev, reps=3 if smoke else 10, deadline=deadline, torch_fft=library_fftconv))
    bench.to_csv(out / "bench.csv", index=False)
    print(bench.to_string(), flush=True)

def _run(stage, out, deadline, smoke):
    os.setsid()  # one process group with the workers it starts, so that the parent can stop them all
    if smoke: os.environ["TRITON_INTERPRET"] = "1"  # before anything imports triton
    out.mkdir(parents=True, exist_ok=True)
    {"figure43": _figure43, "step": _step, "kernels": _kernels}[stage](out, deadline, smoke)

def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="folder for everything this run writes")
    p.add_argument("--minutes", type=float, default=9.0, help="total budget; each stage gets its share")
    p.add_argument("--smoke", action="store_true", help="toy sizes on CPU under Triton's interpreter")
    p.add_argument("--stages", default=",".join(SHARES), help="which stages, comma-separated; the budget is shared"
                   " among them in proportion to their shares")
    a = p.parse_args()
    if a.minutes <= 0: raise ValueError(f"--minutes must be positive, got {a.minutes}")
    stages = a.stages.split(",")
    if not stages or any(s not in SHARES for s in stages):
        raise SystemExit(f"--stages takes names from {list(SHARES)}, got {a.stages!r}")
    if a.smoke: os.environ["TRITON_INTERPRET"] = "1"
    import torch
    if not a.smoke and not torch.cuda.is_available(): raise SystemExit("no CUDA GPU: run with --smoke to test the script on CPU")
    gpu = "cpu" if a.smoke else torch.cuda.get_device_name().replace(" ", "_")
    root, t0 = pathlib.Path(a.out), time.time()
    dirs = {"figure43": root / "runtime" / gpu, "step": root / "pile" / f"{gpu}-step", "kernels": root / "triton" / gpu}
    root.mkdir(parents=True, exist_ok=True)
    import triton
    (root / "params.json").write_text(json.dumps(dict(kind="gpu_bench", minutes=a.minutes, smoke=a.smoke, gpu=gpu,
                                                      gpu_name="cpu" if a.smoke else torch.cuda.get_device_name(), torch=torch.__version__,
                                                      triton=triton.__version__, cuda=torch.version.cuda,
                                                      figure43=figure43_settings(a.smoke),
                                                      started=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())), indent=1) + "\n")
    end, total = t0 + 60 * a.minutes, sum(SHARES[s] for s in stages)
    for i, stage in enumerate(stages):
        later = sum(SHARES[s] for s in stages[i + 1:]) / total * 60 * a.minutes
        budget = end - time.time() - later  # its share plus whatever the stages before it left unused
        if budget < 10: print(f"{stage}: no time left", flush=True); continue
        proc = mp.get_context("spawn").Process(target=_run, args=(stage, dirs[stage], time.time() + 0.8 * budget, a.smoke))
        proc.start(); proc.join(budget)
        if proc.is_alive():  # the stage and its workers form one process group (_run)
            os.killpg(proc.pid, signal.SIGKILL); proc.join(10)
            print(f"{stage}: stopped at its budget ({budget:.0f} s)", flush=True)
        print(f"{stage}: {time.time() - t0:.0f} s in; exit code {proc.exitcode}", flush=True)
    print(f"total {time.time() - t0:.0f} s; results under {root}")

if __name__ == "__main__":
    main()
