"""Compile the Monarch FFT convolution (`22_monarch_fftconv`) ahead of time for sm_90 and sm_80, no GPU needed, into one table.

usage: python scripts/monarch_aot.py [--out runs/triton/aot_monarch.csv] [--lengths 1024,4096,8192,256,2048]
       [--widths]

In order of importance, one compile at a time, the table rewritten after each (a stopped run keeps what it finished):
1. every plan's forward and backward with bf16 products on sm_90 at the launch width the kernel uses (`monarch_warps`);
2. the same on sm_80;
3. tf32x3 products (float32 inputs) on sm_90;
4. with --widths, the other widths (4, 8, 16 warps) on sm_90 with bf16 products.
Columns: registers per thread, spill stack bytes, shared memory, whether it launches, occupancy (the warps an SM holds
at once over its 64 slots, by registers, shared memory and slots), and `used` (the width the kernel launches with)."""
import argparse, os, pathlib, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])

def jobs(lengths, widths: bool) -> list[tuple]:
    "(sm, L, kernel, prec, num_warps) in the order they are compiled."
    from hyena_lit.kernels.monarch_fftconv import monarch_plan, monarch_warps
    w = lambda L, k: monarch_warps(monarch_plan(L), k)
    kernels = ("forward", "backward")
    out = [(sm, L, k, prec, w(L, k)) for sm, prec in ((90, "bf16"), (80, "bf16"), (90, "tf32x3"))
           for L in lengths for k in kernels]
    if widths: out += [(90, L, k, "bf16", n) for L in lengths for k in kernels for n in (4, 8, 16) if n != w(L, k)]
    return out

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "runs" / "triton" / "aot_monarch.csv"))
    p.add_argument("--lengths", default="1024,4096,8192,256,2048")
    p.add_argument("--widths", action="store_true", help="also compile the other launch widths")
    a = p.parse_args(argv)
    try: lengths = [int(x) for x in a.lengths.split(",")]
    except ValueError: raise SystemExit(f"error: --lengths takes comma-separated integers, got {a.lengths!r}")
    import pandas as pd
    from hyena_lit.kernels.monarch_fftconv import MONARCH_MAX_L, monarch_aot, monarch_plan, monarch_warps
    if any(L < 1 or L > MONARCH_MAX_L for L in lengths):
        raise SystemExit(f"error: --lengths must lie in 1..{MONARCH_MAX_L}, got {lengths}")
    out = pathlib.Path(a.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = []
    for job in jobs(lengths, a.widths):
        rows += monarch_aot([job])
        df = pd.DataFrame(rows)
        df["used"] = [r["num_warps"] == monarch_warps(monarch_plan(r["L"]), r["kernel"]) for r in rows]
        df.to_csv(out, index=False)
        print(rows[-1], flush=True)

if __name__ == "__main__":
    main()
