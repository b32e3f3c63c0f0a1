"""Run kinds: every finished run folder's params.json records the launcher's Runner that wrote it (`kind`), the one
its grid cell names; scripts/migrate_kind.py gave the folders made earlier theirs, and leaves unfinished folders alone."""
import json
import runpy
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

from hyena_lit.core.paths import run_folders  # noqa: E402
from hyena_lit.eval.run_index import READERS, run_row  # noqa: E402
from hyena_lit.launch import KINDS  # noqa: E402


def tracked_runs() -> list[Path]:
    ls = subprocess.run(["git", "ls-files", "runs"], capture_output=True, text=True, cwd=ROOT).stdout.split()
    return sorted(ROOT / Path(f).parent for f in ls if f.endswith("/metrics.json"))


def kind(d: Path) -> str | None: return json.loads((d / "params.json").read_text()).get("kind")


def migrate(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "migrate_kind.py"), *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT)


def test_the_index_reads_every_kind_the_launcher_runs():
    assert set(READERS) == set(KINDS)


def test_every_committed_run_records_the_kind_its_cell_names():
    runs = tracked_runs()
    assert len(runs) > 400
    assert [d for d in runs if kind(d) not in KINDS] == []
    cells = {}
    for f in sorted((ROOT / "grids").glob("[!_]*.py")):
        for c in runpy.run_path(str(f))["cells"]("runs"): cells[c["run"]] = c["experiment"]
    listed = [d for d in runs if str(d.relative_to(ROOT)) in cells]
    assert len(listed) > 400
    assert [d for d in listed if kind(d) != cells[str(d.relative_to(ROOT))]] == []


def test_migration_records_each_kind_once_and_leaves_unfinished_runs_alone(tmp_path):
    runs = tmp_path / "runs"
    one_of_each = {}
    for d in tracked_runs(): one_of_each.setdefault(kind(d), d)
    assert set(one_of_each) == set(KINDS)
    for k, d in one_of_each.items():  # each as it was before kinds were recorded
        dest = runs / d.relative_to(ROOT / "runs")
        dest.mkdir(parents=True)
        p = json.loads((d / "params.json").read_text())
        (dest / "params.json").write_text(json.dumps({n: v for n, v in p.items() if n != "kind"}))
        shutil.copy(d / "metrics.json", dest / "metrics.json")
    training = runs / "mechanistic" / "sweep" / "still_training"  # no metrics.json: not to be touched
    training.mkdir(parents=True)
    (training / "params.json").write_text('{"seed": 0}')
    bench = runs / "gpu" / "SOME_GPU"  # a measurement folder scripts/gpu_check.py wrote before kinds were recorded
    bench.mkdir(parents=True)
    p = json.loads((ROOT / "runs" / "gpu" / "NVIDIA_H200" / "params.json").read_text())
    (bench / "params.json").write_text(json.dumps({n: v for n, v in p.items() if n != "kind"}))
    check = migrate("--check", "--root", runs)
    assert check.returncode == 1 and f"{len(KINDS) + 1} finished run or measurement folder(s) without a kind" in check.stdout
    first = migrate("--root", runs)
    assert first.returncode == 0 and f"recorded the kind of {len(KINDS) + 1} run folder(s)" in first.stdout, first.stderr
    assert kind(bench) == "gpu_check"
    for k, d in one_of_each.items():
        dest = runs / d.relative_to(ROOT / "runs")
        assert kind(dest) == k
        assert run_row(dest, runs) == run_row(d, ROOT / "runs")  # the index row the committed folder gives
    assert (training / "params.json").read_text() == '{"seed": 0}'
    assert "recorded the kind of 0 run folder(s)" in migrate("--root", runs).stdout
    assert migrate("--check", "--root", runs).returncode == 0


def test_migration_refuses_a_missing_root(tmp_path):
    r = migrate("--root", tmp_path / "nowhere")
    assert r.returncode == 2 and "error: --root" in r.stderr


def test_a_run_without_a_kind_is_named_by_the_index(tmp_path):
    d = tmp_path / "runs" / "mqar" / "sweep" / "r"
    d.mkdir(parents=True)
    (d / "params.json").write_text("{}")
    (d / "metrics.json").write_text('{"task": "mqar"}')
    try: run_row(d, tmp_path / "runs"); raise AssertionError("no error")
    except ValueError as e: assert "params.json records kind None" in str(e) and "migrate_kind.py" in str(e)
    assert len(run_folders(tmp_path / "runs")) == 1


def test_every_committed_params_json_records_a_kind():
    "Runs record their runner's kind; the measurement folders scripts write record the script's (MEASUREMENTS)."
    sys.path.insert(0, str(ROOT / "scripts"))
    from migrate_kind import MEASUREMENTS
    ls = subprocess.run(["git", "ls-files", "runs"], capture_output=True, text=True, cwd=ROOT).stdout.split()
    files = [ROOT / f for f in ls if f.endswith("/params.json")]
    assert len(files) > 400
    assert [str(f.relative_to(ROOT)) for f in files if kind(f.parent) not in {*KINDS, *MEASUREMENTS}] == []
    for script in MEASUREMENTS.values(): assert (ROOT / script).is_file(), script
