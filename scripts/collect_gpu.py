"""Copy what scripts/triton_gpu.py (and scripts/triton_tune.py) wrote on a GPU into runs/, nothing overwritten.

usage: python scripts/collect_gpu.py RESULTS [--parts runtime,step,kernels,tune] [--step-name steps.csv] [--runs runs]

RESULTS is the folder the device run wrote (params.json names the GPU). For each part:
- runtime: runtime/<gpu>/b<B>[-bf16].csv -> a finished run folder runs/runtime/<gpu>/<gpu>-b<B>[-bf16]/ (`gpu_sweep_run`:
  params.json, times.csv, metrics.json, runtime.png), which the scoreboard's Figure 4.3 rows read;
- step: pile/<gpu>-step/steps.csv -> runs/pile/<gpu>-step/<step-name>;
every folder written gets the device run's params.json (GPU, versions, date) if it has none.
- kernels: triton/<gpu>/{correctness,operator,bench}.csv -> runs/triton/<gpu>/;
- tune: tune/tune.csv and ncu.txt -> runs/triton/<gpu>/tune.csv and ncu_stream.txt.
A file that exists already stops the script before anything is written."""
import argparse, json, pathlib, shutil, sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

PARTS = ("runtime", "step", "kernels", "tune")

def plan(res: pathlib.Path, parts, step_name: str, runs: pathlib.Path) -> tuple[dict, list]:
    "(the device run's params, [(kind, source, destination)]) for the parts asked for; nothing is written."
    from hyena_lit.core.paths import path_component
    info = json.loads((res / "params.json").read_text())
    gpu = path_component(str(info["gpu"]), "the GPU's name in params.json")
    short = gpu.removeprefix("NVIDIA_").split("_")[0].lower()  # NVIDIA_H200 -> h200
    todo = []
    if "runtime" in parts:
        for csv in sorted((res / "runtime" / gpu).glob("b*.csv")):  # b16.csv, b16-bf16.csv (gpu_sweep_name)
            todo.append(("sweep", csv, runs / "runtime" / gpu / f"{short}-{csv.stem}"))
    if "step" in parts:
        todo.append(("copy", res / "pile" / f"{gpu}-step" / "steps.csv",
                     runs / "pile" / f"{gpu}-step" / path_component(step_name, "--step-name")))
    if "kernels" in parts:
        todo += [("copy", res / "triton" / gpu / f, runs / "triton" / gpu / f)
                 for f in ("correctness.csv", "operator.csv", "bench.csv")]
    if "tune" in parts:
        todo += [("copy", res / "tune" / "tune.csv", runs / "triton" / gpu / "tune.csv"),
                 ("copy", res / "ncu.txt", runs / "triton" / gpu / "ncu_stream.txt")]
    missing = [str(s) + (" (a link)" if s.is_symlink() else "") for _, s, _ in todo
               if not s.is_file() or s.is_symlink()]
    there = [str(d) for _, _, d in todo if d.exists()]
    if missing or there or not todo:
        raise SystemExit("error: " + "; ".join((["nothing to collect"] if not todo else [])
                                               + [f"missing {m}" for m in missing]
                                               + [f"exists already {t}" for t in there]))
    return info, todo

def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("results")
    p.add_argument("--parts", default=",".join(PARTS))
    p.add_argument("--step-name", default="steps.csv")
    p.add_argument("--runs", default=str(ROOT / "runs"), help="the runs folder to write into")
    a = p.parse_args()
    parts = a.parts.split(",")
    if any(x not in PARTS for x in parts): raise SystemExit(f"error: --parts takes names from {PARTS}, got {a.parts!r}")
    res = pathlib.Path(a.results)
    if not (res / "params.json").is_file(): raise SystemExit(f"error: {res}/params.json not found")
    runs = pathlib.Path(a.runs)
    try: info, todo = plan(res, parts, a.step_name, runs)
    except (ValueError, KeyError, json.JSONDecodeError) as e: raise SystemExit(f"error: {res}/params.json: {e}")
    from hyena_lit.experiments.runtime import GPU_SWEEP, gpu_sweep_run
    from hyena_lit.core.paths import save_json
    keep = {k: info.get(k) for k in ("gpu", "torch", "triton", "cuda", "started")}
    name = info.get("gpu_name") or str(info["gpu"]).replace("_", " ")  # as torch.cuda.get_device_name() gives it
    for kind, src, dst in todo:
        if kind == "sweep":  # results written before params.json recorded the settings used GPU_SWEEP
            m = gpu_sweep_run(src, dst, info.get("figure43") or GPU_SWEEP, keep | dict(device_name=name))
            print(f"{dst}: crossover with SDPA {m['crossover_vs_sdpa']}")
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
        if not (dst.parent / "params.json").exists(): save_json({"kind": "gpu_bench"} | keep, dst.parent / "params.json")
        if kind == "copy" and dst.name == "bench.csv" and not (dst.parent / "device.json").exists():
            # what 20_fftconv_triton's AUTO_WINS check reads
            save_json({k: v for k, v in keep.items() if k != "started"} | dict(gpu=name), dst.parent / "device.json")
        print(f"{dst}")

if __name__ == "__main__":
    main()
