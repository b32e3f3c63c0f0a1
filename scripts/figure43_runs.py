"""Figure 4.3's runs from what the GPU check measured: each `figure43/b<B>[-bf16].csv` that `scripts/gpu_check.py`
wrote under runs/gpu/<GPU>/ becomes a finished runtime run folder runs/runtime/<GPU>/gpu-check-<stem>/ (params.json,
times.csv, metrics.json, runtime.png, by 50_runtime's `gpu_sweep_run`), the runs the scoreboard's Figure 4.3 rows
read. A later check of the same GPU, unpacked beside the first as runs/gpu/<GPU>-<n>, makes gpu-check-<n>-<stem>/. The
settings are the check's (`figure43/backend.json`), the provenance its params.json plus the attention kernels the
profiler saw run. A folder that exists is left as it is.

usage: python scripts/figure43_runs.py runs/gpu/NVIDIA_H200 [--runs runs]"""
import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))


def figure43_runs(check: pathlib.Path, runs: pathlib.Path) -> list[pathlib.Path]:
    "Make the missing runtime run folders of one GPU check folder `check`; returns the folders made."
    from hyena_lit.core.paths import path_component
    from hyena_lit.experiments.runtime import gpu_sweep_run
    fig, made = check / "figure43", []
    for f in ("params.json", "figure43/backend.json"):
        if not (check / f).is_file(): raise SystemExit(f"error: {check / f} not found: not a GPU check's folder")
    info = json.loads((check / "params.json").read_text())
    backend = json.loads((fig / "backend.json").read_text())
    if info.get("dry"): raise SystemExit(f"error: {check} is a dry run (CPU): it times nothing of Figure 4.3")
    gpu = path_component(str(info["gpu"]).replace(" ", "_"), "the GPU's name in params.json")
    if check.name == gpu: prefix = "gpu-check-"
    elif check.name.startswith(gpu + "-") and check.name[len(gpu) + 1:].isdigit():
        prefix = f"gpu-check-{check.name[len(gpu) + 1:]}-"  # a later check of that GPU: its runs beside the first's
    else: raise SystemExit(f"error: {check} is named neither {gpu} nor {gpu}-<n>, as its params.json's GPU would be")
    for csv in sorted(fig.glob("b*.csv")):
        run = runs / "runtime" / gpu / f"{prefix}{path_component(csv.stem, 'a sweep file name')}"
        if run.exists(): continue
        dtype = "bfloat16" if csv.stem.endswith("-bf16") else "float32"
        ran = (backend.get(dtype) or {}).get("ran")
        provenance = dict(gpu=info["gpu"], device_name=info["gpu"], torch=info.get("torch"), triton=info.get("triton"),
                          cuda=info.get("cuda"), started=info.get("started"), check=check.relative_to(runs).as_posix(),
                          **({"sdpa_kernels": ran} if ran else {}))
        gpu_sweep_run(csv, run, backend["settings"], provenance, made_by="scripts/gpu_check.py")
        made.append(run)
    return made


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("check", help="a GPU check's folder, runs/gpu/<GPU>")
    ap.add_argument("--runs", default=str(ROOT / "runs"), help="the runs folder the check's folder is in")
    a = ap.parse_args(argv)
    check, runs = pathlib.Path(a.check).resolve(), pathlib.Path(a.runs).resolve()
    if not check.is_relative_to(runs): raise SystemExit(f"error: {a.check} is not under {a.runs}")
    for run in figure43_runs(check, runs):
        m = json.loads((run / "metrics.json").read_text())
        print(f"{run.relative_to(runs)}: crossover with SDPA {m['crossover_vs_sdpa']}")


if __name__ == "__main__":
    main()
