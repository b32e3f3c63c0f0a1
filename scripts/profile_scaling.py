"""Profile the scaling runs whose model-FLOPs utilization is under half of the transformer's at the same size, and
the transformer at each such size (runs/scaling/profile/<run>.csv and .json; existing profiles are kept). Run it on a
quiet machine: `python scripts/profile_scaling.py`."""
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hyena_lit.eval.scaling_results import at_chosen_rate, chosen_rates, scaling_grid, scaling_runs, utilization_check  # noqa: E402
from hyena_lit.experiments.runtime import profile_step  # noqa: E402


def main():
    runs_root = ROOT / "runs"
    peak = json.loads((runs_root / "scaling" / "machine.json").read_text())["matmul_flops"]
    grid = scaling_grid()
    runs = scaling_runs(runs_root / "scaling" / "cpu", grid)
    best = at_chosen_rate(runs, chosen_rates(runs, grid, runs_root), grid)
    out = runs_root / "scaling" / "profile"
    low = utilization_check(best, peak, out)
    low = low[low.under_half] if len(low) else low
    todo = [(f, s) for f, s in zip(low.family, low["size"])] + [("transformer", s) for s in sorted(set(low["size"]))]
    print(f"load average {os.getloadavg()}: profiling {len(todo)} run(s)")
    for fam, size in todo:
        run = best[(best.family == fam) & (best["size"] == size)].run.iloc[0]
        if (out / f"{run}.csv").exists(): continue
        t = profile_step(runs_root / "scaling" / "cpu" / run, out / f"{run}.csv")
        print(run, json.loads((out / f"{run}.json").read_text())["step_ms"], "ms;", ", ".join(t.op[:3]))


if __name__ == "__main__":
    main()
