"""Compile the short filter's Triton kernels (`24_short_conv`) ahead of time for sm_90 and sm_80, no GPU needed, into one
table.

usage: python scripts/short_conv_aot.py [--out runs/triton/aot_short_conv.csv]

Both kernels (forward, backward) for K = 3 with bf16 and fp32 inputs, at 256, 512 and 1024 positions a program and 2,
4 and 8 warps (`short_conv_compile`: registers, spill stack, shared memory, occupancy), in a child process without
Triton's interpreter; the table is written whole at the end, refusing to overwrite an existing one."""
import argparse, os, pathlib, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [os.environ.get("PYTHONPATH")] if p])

def jobs() -> list[tuple]:
    "(sm, kernel, dtype, K, block, warps) in the order they are compiled."
    return [(sm, k, d, 3, blk, w) for sm in (90, 80) for k in ("forward", "backward") for d in ("bf16", "fp32")
            for blk in (256, 512, 1024) for w in (2, 4, 8)]

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", default=str(ROOT / "runs" / "triton" / "aot_short_conv.csv"))
    a = p.parse_args(argv)
    out = pathlib.Path(a.out)
    if out.exists(): raise SystemExit(f"error: {out} exists: move it away to rebuild the table")
    import pandas as pd
    from hyena_lit.kernels.monarch_fftconv import monarch_aot
    rows = monarch_aot(jobs(), "hyena_lit.kernels.short_conv.short_conv_compile")
    bad = [r for r in rows if "error" in r]
    if bad: raise SystemExit(f"error: {len(bad)} builds failed, the first: {bad[0]}")
    out.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows).to_csv(out, index=False)
    print(f"{len(rows)} builds -> {out}")

if __name__ == "__main__":
    main()
