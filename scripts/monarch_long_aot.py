"""Compile the three passes of the long Monarch convolution (`23_monarch_long`) ahead of time for sm_90 and sm_80, no GPU
needed, into one table.

usage: python scripts/monarch_long_aot.py [--out runs/triton/aot_monarch_long.csv] [--lengths 4096,8192,16384,32768,65536]
       [--kernels a,b,c,b_bwd,c_bwd] [--missing]

Each compile is specialised as a launch on aligned tensors with B, C, L multiples of 16 (`long_compile`), one child
process a batch of `BATCH`, the table rewritten after each batch. The candidates, per target, products (bf16, tf32x3)
and length: the column passes ('a', 'c', 'c_bwd') at 4, 8 and 16 warps, 16, 32 and 64 columns a program, 16 spectral
rows a block (and 32 at 32 columns, 4 and 8 warps); the row passes ('b', 'b_bwd') at 8 and 16 warps, depth 1 and 2. A row replaces
the row of the same build; --missing compiles only the builds the table lacks (for this Triton version); --kernels
compiles only those passes (after a change to the code of some passes: the others' rows stay as they are).
`long_choose_launch` picks the launches (`LONG_LAUNCH`) from it."""
import argparse, os, pathlib, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))
from monarch_aot import merged, missing  # the table's bookkeeping, shared with the one-kernel design's script
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])

BATCH = 16
KEY = ["sm", "L", "kernel", "prec", "num_warps", "num_stages", "rows", "cols", "triton"]

KERNELS = ("a", "b", "c", "b_bwd", "c_bwd")

def jobs(lengths, kernels=KERNELS) -> list[tuple]:
    """(sm, L, kernel, prec, num_warps, num_stages, rows, cols) of the passes `kernels` in the order they are compiled:
    sm_90 first, bf16 first."""
    out = []
    for sm in (90, 80):
        for prec in ("bf16", "tf32x3"):
            for L in lengths:
                for k in ("b", "b_bwd"):
                    out += [(sm, L, k, prec, w, s, 16, 0) for w in (8, 16) for s in (1, 2)]
                for k in ("a", "c", "c_bwd"):
                    out += [(sm, L, k, prec, w, 1, 16, cb) for w in (4, 8, 16) for cb in (16, 32, 64)]
                    out += [(sm, L, k, prec, w, 1, 32, 32) for w in (4, 8)]
    return [j for j in out if j[2] in kernels]

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "runs" / "triton" / "aot_monarch_long.csv"))
    p.add_argument("--lengths", default="4096,8192,16384,32768,65536")
    p.add_argument("--kernels", default=",".join(KERNELS), help="the passes to compile, among " + ", ".join(KERNELS))
    p.add_argument("--missing", action="store_true", help="compile only the builds the table lacks")
    a = p.parse_args(argv)
    try: lengths = [int(x) for x in a.lengths.split(",")]
    except ValueError: raise SystemExit(f"error: --lengths takes comma-separated integers, got {a.lengths!r}")
    kernels = a.kernels.split(",")
    if not kernels or not set(kernels) <= set(KERNELS):
        raise SystemExit(f"error: --kernels must name passes among {', '.join(KERNELS)}, got {a.kernels!r}")
    import triton
    from hyena_lit.kernels.monarch_fftconv import monarch_aot
    from hyena_lit.kernels.monarch_long import LONG_MAX_L
    if any(L < 1 or L > LONG_MAX_L for L in lengths):
        raise SystemExit(f"error: --lengths must lie in 1..{LONG_MAX_L}, got {lengths}")
    out, version, rows = pathlib.Path(a.out), triton.__version__, []
    todo = jobs(lengths, kernels)
    if a.missing: todo = missing(todo, out, KEY, version)
    for i in range(0, len(todo), BATCH):
        rows += [dict(r, triton=version) for r in monarch_aot(todo[i:i + BATCH], "hyena_lit.kernels.monarch_long.long_compile")]
        merged(rows, out, KEY).to_csv(out, index=False)
        print(f"{len(rows)} of {len(todo)} compiled; last: {rows[-1]}", flush=True)

if __name__ == "__main__":
    main()
