"""Compile the Monarch FFT convolution (`22_monarch_fftconv`) ahead of time for sm_90 and sm_80, no GPU needed, into one table.

usage: python scripts/monarch_aot.py [--out runs/triton/aot_monarch.csv] [--lengths 256,512,1024,2048,4096,8192]
       [--parts 1,2,3,4] [--widths]

Each compile is specialised as a launch on aligned tensors with B, C, L multiples of 16 (`monarch_compile`). In order
of importance, one compile at a time, the table rewritten after each (a stopped run keeps what it finished):
1. every plan's forward and backward with bf16 products on sm_90 at the launch width and depth the kernel uses
   (`monarch_warps`, `MONARCH_STAGES`);
2. the same on sm_80;
3. tf32x3 products (float32 inputs) on sm_90, then on sm_80;
4. the backward at Triton's default pipelining depth (3) on sm_90, bf16 and tf32x3: what a launch without
   `MONARCH_STAGES` asks;
5. with --widths, the other widths (4, 8, 16 warps) on sm_90 with bf16 products.
--parts picks among 1-4 (in the order given).
Columns: the Triton version that compiled it, registers per thread, spill stack bytes, shared memory, whether it
launches (shared memory within the block limit), occupancy (the warps an SM holds at once over its 64 slots, by
registers, shared memory and slots), and `used` (the width and depth the kernel launches with). Rows that another
Triton version compiled are kept, so running the script again with another Triton first on PYTHONPATH adds its
rows beside these."""
import argparse, os, pathlib, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])

def jobs(lengths, widths: bool, parts=(1, 2, 3, 4)) -> list[tuple]:
    "(sm, L, kernel, prec, num_warps, num_stages) in the order they are compiled."
    from hyena_lit.kernels.monarch_fftconv import MONARCH_STAGES, monarch_plan, monarch_warps
    w = lambda L, k: monarch_warps(monarch_plan(L), k)
    kernels = ("forward", "backward")
    launched = lambda targets: [(sm, L, k, prec, w(L, k), MONARCH_STAGES[k]) for sm, prec in targets
                                for L in lengths for k in kernels]
    part = {1: launched([(90, "bf16")]), 2: launched([(80, "bf16")]), 3: launched([(90, "tf32x3"), (80, "tf32x3")]),
            4: [(90, L, "backward", prec, w(L, "backward"), 3) for prec in ("bf16", "tf32x3") for L in lengths
                if MONARCH_STAGES["backward"] != 3]}
    out = [j for p in parts for j in part[p]]
    if widths:
        out += [(90, L, k, "bf16", n, MONARCH_STAGES[k]) for L in lengths for k in kernels for n in (4, 8, 16)
                if n != w(L, k)]
    return out

def used(r: dict) -> bool:
    "Whether row r is built as the kernel launches: its width and its depth."
    from hyena_lit.kernels.monarch_fftconv import MONARCH_STAGES, monarch_plan, monarch_warps
    return r["num_warps"] == monarch_warps(monarch_plan(r["L"]), r["kernel"]) and \
        r["num_stages"] == MONARCH_STAGES[r["kernel"]]

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "runs" / "triton" / "aot_monarch.csv"))
    p.add_argument("--lengths", default="256,512,1024,2048,4096,8192")
    p.add_argument("--parts", default="1,2,3,4", help="which of the parts 1-4 to compile, in this order")
    p.add_argument("--widths", action="store_true", help="also compile the other launch widths")
    a = p.parse_args(argv)
    try: lengths, parts = [int(x) for x in a.lengths.split(",")], [int(x) for x in a.parts.split(",")]
    except ValueError: raise SystemExit(f"error: --lengths and --parts take comma-separated integers, got "
                                        f"{a.lengths!r}, {a.parts!r}")
    if not set(parts) <= {1, 2, 3, 4}: raise SystemExit(f"error: --parts must name parts among 1-4, got {a.parts!r}")
    import pandas as pd
    from hyena_lit.kernels.monarch_fftconv import MONARCH_MAX_L, monarch_aot
    if any(L < 1 or L > MONARCH_MAX_L for L in lengths):
        raise SystemExit(f"error: --lengths must lie in 1..{MONARCH_MAX_L}, got {lengths}")
    out = pathlib.Path(a.out)
    todo = jobs(lengths, a.widths, parts)
    import triton
    version, rows = triton.__version__, []  # the child compiles with the Triton this process imports
    for job in todo:
        rows += [dict(r, triton=version) for r in monarch_aot([job])]
        kept = pd.DataFrame()
        if out.exists():
            old = pd.read_csv(out)
            kept = old[old["triton"].astype(str) != version] if "triton" in old else old.iloc[:0]
        df = pd.DataFrame(rows)
        df["used"] = [used(r) for r in rows]
        out.parent.mkdir(parents=True, exist_ok=True)
        pd.concat([kept, df], ignore_index=True).to_csv(out, index=False)
        print(rows[-1], flush=True)

if __name__ == "__main__":
    main()
