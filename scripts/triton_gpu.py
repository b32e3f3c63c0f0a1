"""nbs/20_fftconv_triton's GPU checks on a GPU node, with Triton's compiles spread over processes.

usage: python3 scripts/triton_gpu.py OUT_DIR [PROCESSES] [PARTS, default correctness,operator,bench]
The notebook's `gpu` cell runs `gpu_report` in one process, which compiles every kernel specialization one after the
other. Here the correctness cases run in parallel processes (each compiles its own kernels into Triton's shared cache),
then one process per benchmark length warms the cache, then `benchmark` and `operator_check` run alone on the GPU so
that the timings see no other work. The CSVs are those of `gpu_report` (correctness.csv, operator.csv, bench.csv,
device.json)."""
import json, multiprocessing as mp, pathlib, sys, time

def _case(args):
    case, dtype = args
    import torch
    from hyena_lit.fftconv_triton import gpu_correctness
    return gpu_correctness(cases=(case,), dtypes=(getattr(torch, dtype),))

def _warm(L):
    import torch
    from hyena_lit.fftconv_triton import fftconv_triton, ONE_TILE_MAX_L
    u, pre, post = (torch.randn(1, 768, L, device="cuda", requires_grad=True) for _ in range(3))
    k, D = torch.randn(768, L, device="cuda", requires_grad=True), torch.randn(768, device="cuda", requires_grad=True)
    for streamed in ((None, True) if 512 <= L <= ONE_TILE_MAX_L else (None,)):
        fftconv_triton(u, k, D, pre, post, streamed=streamed).sum().backward()
    torch.cuda.synchronize()
    return L

if __name__ == "__main__":
    out = pathlib.Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
    procs = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    parts = sys.argv[3].split(",") if len(sys.argv) > 3 else ["correctness", "operator", "bench"]
    import pandas as pd
    from hyena_lit.fftconv_triton import GPU_CASES, GPU_DTYPES, benchmark, operator_check, gpu_info
    (out / "device.json").write_text(json.dumps(gpu_info(), indent=1) + "\n")
    ctx = mp.get_context("spawn")
    t0 = time.time()
    with ctx.Pool(procs) as pool:
        if "correctness" in parts:
          rows = [r for part in pool.map(_case, [(c, str(d).split(".")[1]) for c in GPU_CASES for d in GPU_DTYPES]) for r in part]
          pd.DataFrame(rows).to_csv(out / "correctness.csv", index=False)
          print(f"correctness: {len(rows)} rows, {time.time() - t0:.0f} s", flush=True)
          print(pd.DataFrame(rows).pivot_table(index=["L", "kernel", "dtype"], columns="output", values="ratio").round(2).to_string(), flush=True)
        lengths = (1024, 2048, 4096, 8192, 16384)
        pool.map(_warm, lengths)
        print(f"warm: {time.time() - t0:.0f} s", flush=True)
    if "operator" in parts: op = pd.DataFrame(operator_check()); op.to_csv(out / "operator.csv", index=False) or print(op.to_string(), flush=True)
    bench = pd.DataFrame(benchmark(lengths)); bench.to_csv(out / "bench.csv", index=False)
    print(bench.pivot_table(index="L", columns="impl", values=["fwd_ms", "fwd_bwd_ms"]).to_string(), flush=True)
    print(f"total {time.time() - t0:.0f} s")
