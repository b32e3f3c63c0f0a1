"""Compile the Monarch FFT convolution (`22_monarch_fftconv`) ahead of time for sm_90 and sm_80, no GPU needed, into one table.

usage: python scripts/monarch_aot.py [--out runs/triton/aot_monarch.csv] [--lengths 256,512,1024,2048,4096,8192]
       [--parts 1,2,3,4,5] [--widths 4,8,16] [--missing] [--relabel]

Each compile is specialised as a launch on aligned tensors with B, C, L multiples of 16 (`monarch_compile`). In order
of importance, one compile at a time in one child process a batch of `BATCH`, the table rewritten after each batch:
1. every plan's forward and backward with bf16 products on sm_90 at the launch the kernel uses (`MONARCH_LAUNCH`:
   warps, spectral rows per block, pipelining depth);
2. the same on sm_80;
3. tf32x3 products (float32 inputs) on sm_90, then on sm_80;
4. every candidate launch with bf16 products on sm_90, then on sm_80: the widths of --widths, rows per block from 16
   to N1 in powers of two, the forward at depth 1 and 3, the backward at depth 1 (deeper, its loop over pairs
   buffers more shared memory than a block may use);
5. the candidates with tf32x3 products, fewer of them: 8 or 16 warps (4 as well up to L = 512), and at L = 4096
   16 rows per block only (its operands split in two, so tf32x3 needs the fewest values live; more rows spill more;
   at L = 8192 no 16-row build fits a block's shared memory, so every rows count is built there).
--parts picks among 1-5 (in the order given). A row replaces the row of the same build (target, length, kernel,
products, width, rows, depth and Triton version) and every other row is kept, so a run may add a few builds to the
table; --missing compiles only the builds the table lacks (for this Triton version): after the kernel's code
changed, run without it, so that every row is rebuilt; --relabel compiles nothing and rewrites the `used` column from the code (after `MONARCH_LAUNCH` changed).
`monarch_choose_launch` picks the launches from the builds the table holds for both targets.
Columns: the Triton version that compiled it, registers per thread, spill stack bytes, shared memory, whether it
launches (shared memory within the block limit), occupancy (the warps an SM holds at once over its 64 slots, by
registers, shared memory and slots), and `used` (the launch the kernel makes). Running the script with another
Triton first on PYTHONPATH adds that version's rows beside these. `runs/triton/aot_monarch_v1.csv` holds the builds
of the kernel's first version (the whole spectral tile at once), the one an H200 measured."""
import argparse, os, pathlib, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])

BATCH = 12  # compiles a child process runs before the table is rewritten
KEY = ["sm", "L", "kernel", "prec", "num_warps", "num_stages", "rows", "triton"]  # one build: a job and its Triton

def jobs(lengths, parts=(1, 2, 3, 4, 5), widths=(4, 8, 16)) -> list[tuple]:
    "(sm, L, kernel, prec, num_warps, num_stages, rows) in the order they are compiled."
    from hyena_lit.kernels.monarch_fftconv import monarch_launch, monarch_plan
    kernels = ("forward", "backward")
    def job(sm, L, k, prec, w=None, r=None, s=None):
        lw, lr, ls = monarch_launch(monarch_plan(L), k, prec)
        return (sm, L, k, prec, w or lw, s or ls, r or lr)
    launched = lambda targets: [job(sm, L, k, prec) for sm, prec in targets for L in lengths for k in kernels]
    def candidates(sm, prec, lean):
        out = []
        for L in lengths:
            n1 = monarch_plan(L)[0]
            for r in [r for r in (16, 32, 64) if r <= n1 and (r == 16 or not lean or L != 4096)]:
                for w in [w for w in widths if not lean or w != 4 or L <= 512]:
                    out += [job(sm, L, "backward", prec, w, r, 1)] + [job(sm, L, "forward", prec, w, r, s) for s in (1, 3)]
        return out
    part = {1: launched([(90, "bf16")]), 2: launched([(80, "bf16")]), 3: launched([(90, "tf32x3"), (80, "tf32x3")]),
            4: candidates(90, "bf16", False) + candidates(80, "bf16", False),
            5: candidates(90, "tf32x3", True) + candidates(80, "tf32x3", True)}
    seen, out = set(), []
    for j in (j for p in parts for j in part[p]):
        if j not in seen: seen.add(j); out.append(j)
    return out

def used(r: dict) -> bool:
    "Whether row r is built as the kernel launches: its width, rows per block and depth."
    from hyena_lit.kernels.monarch_fftconv import monarch_launch, monarch_plan
    return monarch_launch(monarch_plan(int(r["L"])), r["kernel"], r["prec"]) == (r["num_warps"], r["rows"], r["num_stages"])

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "runs" / "triton" / "aot_monarch.csv"))
    p.add_argument("--lengths", default="256,512,1024,2048,4096,8192")
    p.add_argument("--parts", default="1,2,3,4,5", help="which of the parts 1-5 to compile, in this order")
    p.add_argument("--widths", default="4,8,16", help="the launch widths of parts 4 and 5")
    p.add_argument("--missing", action="store_true", help="compile only the builds the table lacks")
    p.add_argument("--relabel", action="store_true", help="only rewrite the `used` column from the code")
    a = p.parse_args(argv)
    try: lengths, parts, widths = ([int(x) for x in v.split(",")] for v in (a.lengths, a.parts, a.widths))
    except ValueError: raise SystemExit(f"error: --lengths, --parts and --widths take comma-separated integers, got "
                                        f"{a.lengths!r}, {a.parts!r}, {a.widths!r}")
    if not set(parts) <= {1, 2, 3, 4, 5}: raise SystemExit(f"error: --parts must name parts among 1-5, got {a.parts!r}")
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
    if a.missing: todo = missing(todo, out, KEY, version)
    for i in range(0, len(todo), BATCH):
        rows += [dict(r, triton=version) for r in monarch_aot(todo[i:i + BATCH])]
        t = merged(rows, out, KEY)
        t["used"] = [used(r) for r in t.to_dict("records")]
        t.to_csv(out, index=False)
        print(f"{len(rows)} of {len(todo)} compiled; last: {rows[-1]}", flush=True)

def missing(todo: list, out: pathlib.Path, key: list, version: str) -> list:
    "The jobs of `todo` whose build (`key` but its last column, the Triton version) the table `out` lacks for `version`."
    import pandas as pd
    if not out.is_file(): return todo
    have = pd.read_csv(out, dtype={"triton": str})
    have = set(have[have.triton == version][key[:-1]].itertuples(index=False, name=None))
    todo = [j for j in todo if j not in have]
    print(f"{len(todo)} builds missing from {out}", flush=True)
    return todo

def merged(rows: list, out: pathlib.Path, key: list):
    "The table `out` (its folder made) with `rows` in place of its rows of the same build (`key`), the others kept."
    import pandas as pd
    df = pd.DataFrame(rows)
    kept = pd.read_csv(out, dtype={"triton": str}) if out.exists() else df.iloc[:0]
    new = set(map(tuple, df[key].astype(str).values))
    kept = kept[[k not in new for k in map(tuple, kept[key].astype(str).values)]]
    out.parent.mkdir(parents=True, exist_ok=True)
    return pd.concat([kept, df], ignore_index=True)

if __name__ == "__main__":
    main()
