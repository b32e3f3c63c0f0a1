"""Tune the streamed FFT-convolution kernel's launch settings against torch.fft, in one call, within a budget.

usage: python scripts/triton_tune.py --out OUT [--seconds 90] [--smoke] [--profile]

For each setting (BK rows of k1 per block, BC signal rows per step, warps, pipeline stages) of
`_fftconv_stream_kernel`, with bf16 and float32 inputs: the gated convolution's forward and forward+backward
median time at each length, torch.fft's in the same call at the same sizes, and the error against float64
on a small case (a fast setting that computes something else is no win). Settings that do not build (shared
memory, registers) are rows with their error. Writes OUT/tune.csv after every row; the first row is the
committed setting, so every other is read against it.
`--smoke` runs the same plumbing on CPU at toy sizes under Triton's interpreter."""
import argparse, os, pathlib, sys, time

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

# (BK, BC, warps, stages); the first is the committed setting
SETTINGS = [(16, None, 8, 1), (16, None, 4, 1), (32, None, 8, 1), (16, 16, 8, 1), (16, 64, 8, 1),
            (16, None, 8, 2), (32, None, 8, 2), (64, None, 8, 1), (32, 16, 4, 1), (16, None, 16, 1)]

def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--seconds", type=float, default=90.0)
    p.add_argument("--smoke", action="store_true")
    p.add_argument("--profile", action="store_true",
                   help="only run the committed setting's forward twice (bf16, L = 4096): a target for ncu")
    a = p.parse_args()
    if a.smoke: os.environ["TRITON_INTERPRET"] = "1"
    import pandas as pd, torch
    import hyena_lit.kernels.fftconv_triton as ft
    from hyena_lit.kernels.fftconv_checks import time_fns
    from hyena_lit.experiments.runtime import library_fftconv
    if a.profile:  # ncu --launch-skip 1 --launch-count 1 profiles the second, warm launch
        dev, dt = ("cpu", torch.float32) if a.smoke else ("cuda", torch.bfloat16)
        B, C, L = (1, 2, 300) if a.smoke else (4, 768, 4096)
        u, pre, post = (torch.randn(B, C, L, device=dev, dtype=dt) for _ in range(3))
        k, D = torch.randn(C, L, device=dev), torch.randn(C, device=dev, dtype=dt)
        for _ in range(2): ft.fftconv_triton(u, k, D, pre, post, streamed=True)
        if dev == "cuda": torch.cuda.synchronize()
        return
    end = time.time() + a.seconds
    out = pathlib.Path(a.out); out.mkdir(parents=True, exist_ok=True)
    dev = torch.device("cpu" if a.smoke else "cuda")
    lengths, B, C, reps = ((300,), 1, 2, 2) if a.smoke else ((4096, 16384), 16, 768, 10)
    settings = SETTINGS[:2] if a.smoke else SETTINGS
    dtypes = (torch.float32,) if a.smoke else (torch.bfloat16, torch.float32)
    bc0 = dict(ft.STREAM_BC)
    torch.manual_seed(0)
    small = [torch.randn(2, 3, 3001 if not a.smoke else 300, dtype=torch.float64) for _ in range(3)]
    ks, Ds = torch.randn(3, small[0].shape[-1], dtype=torch.float64), torch.randn(3, dtype=torch.float64)
    ref = ft.gated_fftconv_ref(small[0], ks, Ds, small[1], small[2])
    rows, base = [], {}
    for dtype in dtypes:
        for bk, bc, w, s in settings:
            if time.time() > end: break
            ft.STREAM_BK, ft.STREAM_WARPS, ft.STREAM_STAGES = bk, w, s
            ft.STREAM_BC.update(bc0 if bc is None else {k: bc for k in bc0})
            name = dict(BK=bk, BC=bc or bc0[ft.products(dtype)], warps=w, stages=s, dtype=str(dtype).split(".")[1])
            try:
                got = ft.fftconv_triton(*(t.to(dev, dtype) for t in (small[0], ks, Ds)), small[1].to(dev, dtype),
                                        small[2].to(dev, dtype), streamed=True).double().cpu()
                err = ((got - ref).norm() / ref.norm()).item()
            except Exception as e:
                rows.append(name | dict(status=f"error: {type(e).__name__}: {e}"[:200])); continue
            for L in lengths:
                if time.time() > end: break
                u, pre, post = (torch.randn(B, C, L, device=dev, dtype=dtype, requires_grad=True) for _ in range(3))
                k = torch.randn(C, L, device=dev, requires_grad=True)
                D = torch.randn(C, device=dev, requires_grad=True)
                fns = {"triton": lambda: ft.fftconv_triton(u, k, D.to(dtype), pre, post, streamed=True)}
                if (dtype, L) not in base: fns["torch.fft"] = lambda: library_fftconv(u, k, D.to(dtype), pre, post)
                try:
                    f = time_fns(fns, reps=reps, warmup=2, device=dev)
                    fb = time_fns({n: (lambda g=g: g().float().sum().backward()) for n, g in fns.items()},
                                  reps=reps, warmup=2, device=dev)
                except Exception as e:
                    rows.append(name | dict(L=L, status=f"error: {type(e).__name__}: {e}"[:200])); continue
                if "torch.fft" in f: base[(dtype, L)] = (f["torch.fft"]["ms"], fb["torch.fft"]["ms"])
                t0, tb0 = base[(dtype, L)]
                rows.append(name | dict(L=L, B=B, C=C, status="ok", rel_err=err, fwd_ms=f["triton"]["ms"],
                                        fwd_bwd_ms=fb["triton"]["ms"], torch_fft_fwd_ms=t0, torch_fft_fwd_bwd_ms=tb0,
                                        speedup_fwd_bwd=tb0 / fb["triton"]["ms"]))
                print(rows[-1], flush=True)
                del u, pre, post, k, D
                if dev.type == "cuda": torch.cuda.empty_cache()
            pd.DataFrame(rows).to_csv(out / "tune.csv", index=False)
    pd.DataFrame(rows).to_csv(out / "tune.csv", index=False)
    print(pd.DataFrame(rows).to_string())

if __name__ == "__main__":
    main()
