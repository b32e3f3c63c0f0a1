"""Compile the Monarch FFT convolution (`22_monarch_fftconv`) ahead of time for sm_90 and sm_80, no GPU needed, into one table.

usage: python scripts/monarch_aot.py [--out runs/triton/aot_monarch.csv] [--lengths 256,512,1024,2048,4096,8192]
       [--parts 1,2,3,4,5] [--widths 4,8,16] [--relabel]

Each compile is specialised as a launch on aligned tensors with B, C, L multiples of 16 (`monarch_compile`). In order
of importance, one compile at a time in one child process a batch of `BATCH`, the table rewritten after each batch:
1. every plan's forward and backward with bf16 products on sm_90 at the launch width and depth the kernel uses
   (`monarch_warps`, `MONARCH_STAGES`);
2. the same on sm_80;
3. tf32x3 products (float32 inputs) on sm_90, then on sm_80;
4. the backward at Triton's default pipelining depth (3) on sm_90, bf16 and tf32x3: what a launch without
   `MONARCH_STAGES` asks;
5. the other widths of --widths with bf16 products on sm_90;
6. the same on sm_80.
--parts picks among 1-6 (in the order given). A row replaces the row of the same build (target, length, kernel,
products, width, depth and Triton version) and every other row is kept, so a run may add a few builds to the table;
--relabel compiles nothing and rewrites the `used` column from the code (after `MONARCH_WARPS` or `MONARCH_STAGES`
changed). `monarch_choose_warps` picks the launch widths from the builds the table holds for both targets.
Columns: the Triton version that compiled it, registers per thread, spill stack bytes, shared memory, whether it
launches (shared memory within the block limit), occupancy (the warps an SM holds at once over its 64 slots, by
registers, shared memory and slots), and `used` (the width and depth the kernel launches with). Running the script
with another Triton first on PYTHONPATH adds that version's rows beside these."""
import argparse, os, pathlib, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])

BATCH = 12  # compiles a child process runs before the table is rewritten
KEY = ["sm", "L", "kernel", "prec", "num_warps", "num_stages", "triton"]  # one build

def jobs(lengths, parts=(1, 2, 3, 4, 5), widths=(4, 8, 16)) -> list[tuple]:
    "(sm, L, kernel, prec, num_warps, num_stages) in the order they are compiled."
    from hyena_lit.kernels.monarch_fftconv import MONARCH_STAGES, monarch_plan, monarch_warps
    w = lambda L, k, prec: monarch_warps(monarch_plan(L), k, prec)
    kernels = ("forward", "backward")
    launched = lambda targets: [(sm, L, k, prec, w(L, k, prec), MONARCH_STAGES[k]) for sm, prec in targets
                                for L in lengths for k in kernels]
    others = lambda sm: [(sm, L, k, "bf16", n, MONARCH_STAGES[k]) for L in lengths for k in kernels for n in widths
                         if n != w(L, k, "bf16")]
    part = {1: launched([(90, "bf16")]), 2: launched([(80, "bf16")]), 3: launched([(90, "tf32x3"), (80, "tf32x3")]),
            4: [(90, L, "backward", prec, w(L, "backward", prec), 3) for prec in ("bf16", "tf32x3") for L in lengths
                if MONARCH_STAGES["backward"] != 3],
            5: others(90), 6: others(80)}
    return [j for p in parts for j in part[p]]

def used(r: dict) -> bool:
    "Whether row r is built as the kernel launches: its width and its depth."
    from hyena_lit.kernels.monarch_fftconv import MONARCH_STAGES, monarch_plan, monarch_warps
    return r["num_warps"] == monarch_warps(monarch_plan(r["L"]), r["kernel"], r["prec"]) and \
        r["num_stages"] == MONARCH_STAGES[r["kernel"]]

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "runs" / "triton" / "aot_monarch.csv"))
    p.add_argument("--lengths", default="256,512,1024,2048,4096,8192")
    p.add_argument("--parts", default="1,2,3,4,5", help="which of the parts 1-6 to compile, in this order")
    p.add_argument("--widths", default="4,8,16", help="the launch widths of parts 5 and 6")
    p.add_argument("--relabel", action="store_true", help="only rewrite the `used` column from the code")
    a = p.parse_args(argv)
    try: lengths, parts, widths = ([int(x) for x in v.split(",")] for v in (a.lengths, a.parts, a.widths))
    except ValueError: raise SystemExit(f"error: --lengths, --parts and --widths take comma-separated integers, got "
                                        f"{a.lengths!r}, {a.parts!r}, {a.widths!r}")
    if not set(parts) <= {1, 2, 3, 4, 5, 6}: raise SystemExit(f"error: --parts must name parts among 1-6, got {a.parts!r}")
    if not set(widths) <= {1, 2, 4, 8, 16, 32}: raise SystemExit(f"error: --widths must be powers of two up to 32, got {a.widths!r}")
    import pandas as pd
    from hyena_lit.kernels.monarch_fftconv import MONARCH_MAX_L, monarch_aot
    if any(L < 1 or L > MONARCH_MAX_L for L in lengths):
        raise SystemExit(f"error: --lengths must lie in 1..{MONARCH_MAX_L}, got {lengths}")
    out = pathlib.Path(a.out)
    if a.relabel:
        if not out.is_file(): raise SystemExit(f"error: --out {out} does not exist: nothing to relabel")
        t = pd.read_csv(out)
        t["used"] = [used(r) for r in t.to_dict("records")]
        t.to_csv(out, index=False)
        print(f"{out}: {int(t.used.sum())} of {len(t)} rows used")
        return
    todo = jobs(lengths, parts, widths)
    import triton
    version, rows = triton.__version__, []  # the child compiles with the Triton this process imports
    for i in range(0, len(todo), BATCH):
        rows += [dict(r, triton=version) for r in monarch_aot(todo[i:i + BATCH])]
        df = pd.DataFrame(rows)
        kept = pd.read_csv(out, dtype={"triton": str}) if out.exists() else df.iloc[:0]
        new = set(map(tuple, df[KEY].astype(str).values))
        kept = kept[[k not in new for k in map(tuple, kept[KEY].astype(str).values)]]
        t = pd.concat([kept, df], ignore_index=True)
        t["used"] = [used(r) for r in t.to_dict("records")]
        out.parent.mkdir(parents=True, exist_ok=True)
        t.to_csv(out, index=False)
        print(f"{len(rows)} of {len(todo)} compiled; last: {rows[-1]}", flush=True)

if __name__ == "__main__":
    main()
