"""Record `kind` in the params.json of the finished run folders made before kinds were recorded.

A run's kind is the launcher's Runner that wrote its folder (hyena_lit.launch.KINDS); every runner records it in the
params.json it writes, and the run index reads it. Folders made earlier are given theirs here, once, from what their files
hold. Only finished folders (with metrics.json) are touched: a run still training keeps its files as they are.

A few folders under runs/ are measurements that a script writes, not runs of the launcher: their params.json records
the script's kind (`MEASUREMENTS`), and folders written before that are given it here too, from their files.

    python scripts/migrate_kind.py            # record the missing kinds under runs/
    python scripts/migrate_kind.py --check    # list the finished folders without a kind; exit 1 if any
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hyena_lit.core.paths import run_folders, save_json  # noqa: E402
from hyena_lit.launch import KINDS  # noqa: E402

# the runners whose metrics.json names a `task`, by the run's experiment folder (its first level under runs/)
_TASK_FOLDERS = {"mqar": "mqar", "dna": "dna", "images": "images"}


# kinds of the measurement folders that scripts write (not runs: no metrics.json, no runner) -> the script
MEASUREMENTS = {"gpu_check": "scripts/gpu_check.py", "gpu_bench": "scripts/triton_gpu.py",
                "answer_probe": "scripts/answer_phase_probe.py",
                "step_floor_as_run": "scripts/step_floor.py"}  # runs/gpu/step-floor/as-run/<check>: `--at` its code


def measurement_kind(folder: Path) -> str:
    "The kind of a measurement folder written before kinds were recorded, from what its script writes there."
    p = json.loads((folder / "params.json").read_text())
    if "parts" in p and "deadline_min" in p: return "gpu_check"
    if (folder / "probe.csv").is_file(): return "answer_probe"
    if "minutes" in p and "smoke" in p or any((folder / f).is_file() for f in ("steps.csv", "bench.csv")):
        return "gpu_bench"  # scripts/triton_gpu.py's folder, or the one scripts/collect_gpu.py filled from it
    raise ValueError(f"no measurement kind fits {folder}: params {sorted(p)[:8]}")


def kind_from_files(p: dict, m: dict, experiment: str) -> str:
    """The kind of a run made before kinds were recorded, from its params.json `p`, metrics.json `m` and experiment
    folder: what each runner's files, and only its, hold."""
    if "parametrization" in m: return "associative_recall"
    if "task" in m:
        if experiment == "mechanistic": return "mechanistic_steps" if p.get("protocol") == "mamba" else "mechanistic"
        if experiment in _TASK_FOLDERS: return _TASK_FOLDERS[experiment]
    elif "train" in p: return "lm"
    elif "config" in p: return "quickstart"
    elif "speedup_vs_exact" in m: return "generation"
    elif "machine" in m: return "runtime"
    elif "tasks" in p and "run" in p: return "downstream"
    raise ValueError(f"no kind fits a run in {experiment}/ with metrics {sorted(m)[:8]} and params {sorted(p)[:8]}")


def stamp_kind(run_dir: Path, kind: str):
    "Record `kind` first in `run_dir`/params.json, the rest as it was."
    if kind not in KINDS and kind not in MEASUREMENTS:
        raise ValueError(f"kind must be one of {sorted(KINDS) + sorted(MEASUREMENTS)}, got {kind!r}")
    p = run_dir / "params.json"
    save_json({"kind": kind, **json.loads(p.read_text())}, p)


def missing(root: Path) -> list[Path]:
    "The finished run folders under `root` whose params.json records no kind."
    return [d for d in run_folders(root) if (d / "params.json").is_file()
            and "kind" not in json.loads((d / "params.json").read_text())]


def _is_measurement(folder: Path) -> bool:
    try: return bool(measurement_kind(folder))
    except ValueError: return False  # a run still training, say: left as it is


def measurements_missing(root: Path) -> list[Path]:
    """The measurement folders under `root` (a params.json, no metrics.json, files that one of `MEASUREMENTS`' scripts
    writes) whose params.json records no kind."""
    return sorted(f.parent for f in root.rglob("params.json") if f.is_file() and not f.is_symlink()
                  and not (f.parent / "metrics.json").exists() and "kind" not in json.loads(f.read_text())
                  and _is_measurement(f.parent))


def migrate(root: Path) -> dict[str, str]:
    "Record the kind of every finished folder under `root` that has none; returns {folder below root: kind}."
    done = {}
    for d in missing(root):
        p, m = (json.loads((d / f).read_text()) for f in ("params.json", "metrics.json"))
        kind = kind_from_files(p, m, d.relative_to(root).parts[0])
        stamp_kind(d, kind)
        done[d.relative_to(root).as_posix()] = kind
    for d in measurements_missing(root):
        stamp_kind(d, kind := measurement_kind(d))
        done[d.relative_to(root).as_posix()] = kind
    return done


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=str(ROOT / "runs"), help="the runs folder (default: the project's runs/)")
    ap.add_argument("--check", action="store_true", help="list the finished folders without a kind; write nothing")
    a = ap.parse_args(argv)
    root = Path(a.root).resolve()
    if not root.is_dir():
        print(f"error: --root {a.root} is not a folder", file=sys.stderr)
        return 2
    if a.check:
        left = missing(root) + measurements_missing(root)
        for d in left: print(d.relative_to(root).as_posix())
        print(f"{len(left)} finished run or measurement folder(s) without a kind")
        return 1 if left else 0
    done = migrate(root)
    counts = {}
    for k in done.values(): counts[k] = counts.get(k, 0) + 1
    print(f"recorded the kind of {len(done)} run folder(s)" + (": " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())) if done else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
