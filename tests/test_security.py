"""What a colleague's archive, checkpoint, grid file or name can do: write only under runs/, run no code.

Each test feeds one crafted input (an archive with a link, a state.pt with a pickle payload, a grid file with a hostile
neighbour, a name that climbs out of runs/) and checks that it is refused by name and that nothing happened."""
import io
import json
import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]


def _cli(*args, cwd=ROOT, timeout=120) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "IN_TEST"} | {"PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout)


# archives: `python -m hyena_lit.train.runs unpack`
def _archive(path: Path, members: list) -> Path:
    "A .tar.gz of `members`: (name, bytes) a regular file, (name, 'sym'|'hard', target) a link, (name, None) a folder."
    with tarfile.open(path, "w:gz") as tar:
        for m in members:
            info = tarfile.TarInfo(m[0])
            if len(m) == 3:
                info.type, info.linkname = (tarfile.SYMTYPE if m[1] == "sym" else tarfile.LNKTYPE), m[2]
                tar.addfile(info)
            elif m[1] is None:
                info.type = tarfile.DIRTYPE
                tar.addfile(info)
            else:
                info.size = len(m[1])
                tar.addfile(info, io.BytesIO(m[1]))
    return path


def _unpack(tmp: Path, members: list) -> subprocess.CompletedProcess:
    return _cli("-m", "hyena_lit.train.runs", "unpack", str(_archive(tmp / "a.tar.gz", members)), "--root", str(tmp / "runs"))


def _tree(d: Path) -> dict:
    "Every path under `d` (links not followed) with its content or link target: a snapshot to compare."
    out = {}
    for p in sorted(d.rglob("*")):
        out[str(p.relative_to(d))] = ("link", os.readlink(p)) if p.is_symlink() else p.read_bytes() if p.is_file() else "dir"
    return out


@pytest.fixture
def site(tmp_path):
    "A checkout: a library folder and a Makefile beside runs/, which holds one finished run."
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "__init__.py").write_text("x = 1\n")
    (tmp_path / "Makefile").write_text("all:\n")
    run = tmp_path / "runs" / "exp" / "sweep" / "done"
    run.mkdir(parents=True)
    (run / "params.json").write_text("{}")
    (run / "metrics.json").write_text(json.dumps({"best_test_acc": 0.9}))
    return tmp_path


def _refused(r, *names):
    assert r.returncode != 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr and r.stderr.startswith("error:"), r.stderr
    for n in names: assert repr(n) in r.stderr or f"  {n}:" in r.stderr, (n, r.stderr)


def test_unpack_refuses_a_symlink_and_the_file_written_through_it(site):
    before = _tree(site)
    r = _unpack(site, [("runs/l", "sym", "../lib"), ("runs/l/__init__.py", b"import os; os.system('touch pwned')\n")])
    _refused(r, "runs/l", "runs/l/__init__.py")
    assert _tree(site) == before | {"a.tar.gz": (site / "a.tar.gz").read_bytes()}


def test_unpack_refuses_a_hardlink_then_a_file_of_the_same_name(site):
    before = _tree(site)
    r = _unpack(site, [("runs/h", "hard", "Makefile"), ("runs/h", b"pwned\n")])
    _refused(r, "runs/h")
    assert (site / "Makefile").read_text() == "all:\n" and not (site / "runs" / "h").exists()
    assert _tree(site) == before | {"a.tar.gz": (site / "a.tar.gz").read_bytes()}


def test_unpack_refuses_a_lone_metrics_over_a_finished_run(site):
    r = _unpack(site, [("runs/exp/sweep/done/metrics.json", b'{"best_test_acc": 1.0}')])
    _refused(r, "runs/exp/sweep/done/metrics.json")
    assert "finished run" in r.stderr
    assert json.loads((site / "runs/exp/sweep/done/metrics.json").read_text()) == {"best_test_acc": 0.9}


@pytest.mark.parametrize("name", ["runs/../evil.txt", "../evil.txt", "runs/x/../../evil.txt", "/tmp/hyena-evil-abs.txt", "lib/evil.txt"])
def test_unpack_refuses_names_outside_runs(site, name):
    r = _unpack(site, [("runs/ok/params.json", b"{}"), (name, b"pwned\n")])
    _refused(r, name)
    assert not (site / "evil.txt").exists() and not Path("/tmp/hyena-evil-abs.txt").exists() and not (site / "lib/evil.txt").exists()
    assert not (site / "runs" / "ok").exists()  # one refused member: nothing written


def test_unpack_refuses_a_member_under_a_link_on_disk(site):
    (site / "outside").mkdir()
    (site / "runs" / "x").symlink_to(site / "outside")
    r = _unpack(site, [("runs/x/new.txt", b"pwned\n")])
    _refused(r, "runs/x/new.txt")
    assert "link on disk" in r.stderr and list((site / "outside").iterdir()) == []


def test_unpack_still_takes_a_packed_archive(site):
    from hyena_lit.train.archive import pack_runs
    src = site / "other" / "runs" / "exp" / "sweep" / "half"
    (src / "checkpoint").mkdir(parents=True)
    (src / "params.json").write_text("{}")
    (src / "checkpoint" / "state.pt").write_bytes(b"s")
    pack_runs(site / "p.tar.gz", root=site / "other" / "runs")
    r = _cli("-m", "hyena_lit.train.runs", "unpack", str(site / "p.tar.gz"), "--root", str(site / "runs"))
    assert r.returncode == 0, r.stderr
    assert "unpack: 1 run(s)" in r.stdout and (site / "runs/exp/sweep/half/checkpoint/state.pt").read_bytes() == b"s"


# checkpoints: resuming reads checkpoint/state.pt
class _Payload:
    "Unpickled, it makes the folder `marker`: what a crafted state.pt could do instead."
    def __init__(self, marker: Path): self.marker = str(marker)
    def __reduce__(self): return (os.mkdir, (self.marker,))


def _crafted_checkpoint(tmp: Path) -> tuple[Path, Path]:
    from hyena_lit.train.checkpoints import save_checkpoint
    m = torch.nn.Linear(3, 2)
    save_checkpoint(tmp / "ck", m, torch.optim.AdamW(m.parameters()), epoch=1)
    st = torch.load(tmp / "ck" / "state.pt", weights_only=True)
    marker = tmp / "marker"
    torch.save(st | {"epoch": _Payload(marker)}, tmp / "ck" / "state.pt")
    return tmp / "ck", marker


def test_a_crafted_state_pt_is_refused_unread(tmp_path):
    from hyena_lit.train.checkpoints import load_checkpoint
    ck, marker = _crafted_checkpoint(tmp_path)
    m = torch.nn.Linear(3, 2)
    with pytest.raises(RuntimeError) as e: load_checkpoint(ck, m, torch.optim.AdamW(m.parameters()))
    msg = str(e.value)
    assert "state.pt" in msg and "refused unread" in msg and "posix.mkdir" in msg and "\n" not in msg, msg
    assert not marker.exists()


def test_resuming_a_run_with_a_crafted_state_pt_runs_nothing(tmp_path):
    from hyena_lit.train.engine import fit
    from hyena_lit.train.recipes import get_recipe
    run = tmp_path / "run"
    ck, marker = _crafted_checkpoint(tmp_path)
    ck.rename(run / "checkpoint") if run.mkdir() is None else None
    m = torch.nn.Linear(3, 2)
    x = torch.randn(8, 3); y = torch.randint(0, 2, (8,))
    with pytest.raises(RuntimeError, match="refused unread"):
        fit(m, (x, y), get_recipe("paper-synthetics", epochs=2, warmup_epochs=1, batch_size=4), run, progress=False,
            loss_fn=torch.nn.functional.cross_entropy)
    assert not marker.exists()


def test_no_torch_load_reads_pickles():
    "Every torch.load in the notebooks (the library's source) passes weights_only=True."
    import re
    calls = [(nb.name, line.strip()) for nb in (ROOT / "nbs").rglob("*.ipynb") for line in nb.read_text().splitlines()
             if re.search(r"torch\.load\(", line)]
    assert calls, "no torch.load found: the search is broken"
    bad = [c for c in calls if "weights_only=True" not in c[1]]
    assert not bad, bad


# grid files: `python -m hyena_lit.launch GRID --dry-run`
GRID = '''
def cells():
    return [dict(experiment="associative_recall", run="runs/tiny/g/hyena_L32_V8_s0",
                 params=dict(parametrization="hyena", seq_len=32, vocab_size=8, seed=0, num_train=64, num_test=16,
                             n_layer=1, d_model=16, d_inner=32, emb_dim=3, recipe="paper-synthetics", epochs=3,
                             warmup_epochs=1, batch_size=32))]
'''


def test_dry_run_imports_the_grid_file_and_nothing_beside_it(tmp_path):
    grids = tmp_path / "grids"; grids.mkdir()
    (grids / "grid.py").write_text(GRID)
    marker = tmp_path / "marker"
    (grids / "evil.py").write_text(f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\ndef cells(): return []\n")
    (grids / "another.py").write_text(f"import pathlib\npathlib.Path({str(marker)!r}).write_text('ran')\n")
    r = _cli("-m", "hyena_lit.launch", str(grids / "grid.py"), "--dry-run", "--root", str(tmp_path / "runs"))
    assert r.returncode == 0, r.stderr
    assert "1 cells: 0 finished, 0 unfinished, 1 new" in r.stdout and "no measured peer" in r.stdout, r.stdout
    assert not marker.exists()


def test_peers_come_from_run_folders_not_code(tmp_path):
    "A cell without a peer in its grid is timed by a finished run on disk, read from its params.json and metrics.json."
    from hyena_lit.launch import finished_peers, load_cells, plan
    (tmp_path / "grid.py").write_text(GRID)
    done = tmp_path / "runs" / "associative_recall" / "other" / "hyena_L32_V10_s0"
    done.mkdir(parents=True)
    (done / "params.json").write_text(json.dumps(dict(seq_len=32, num_train=64, epochs=3, device="cpu")))
    (done / "metrics.json").write_text(json.dumps(dict(seconds=12.0, epochs_run=3)))
    cells = load_cells(tmp_path / "grid.py", tmp_path / "runs")
    assert plan(cells).seconds.isna().all()
    p = plan(cells, reference=finished_peers(tmp_path / "runs"))
    assert p.seconds.tolist() == [12.0]  # the same tokens (3 x 64 x 32) at the peer's 512 tokens/s


# names: a sweep, run or experiment name is one folder under runs/
CLIMB = "../../../x"


@pytest.mark.parametrize("kw", [dict(name=CLIMB), dict(sweep=CLIMB), dict(experiment=CLIMB), dict(name="/abs"), dict(sweep="a\\b")])
def test_new_run_dir_refuses_a_name_that_leaves_runs(tmp_path, kw, monkeypatch):
    from hyena_lit.train.runs import new_run_dir
    monkeypatch.chdir(tmp_path)
    args = dict(experiment="quickstart", name="r", sweep="cpu") | kw
    with pytest.raises(ValueError, match="single folder name"): new_run_dir(args.pop("experiment"), **args)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("key", ["sweep", "run_name"])
def test_papermill_names_are_checked_with_the_parameters(key):
    from hyena_lit.train.parameters import check_parameters
    sweep, run_name = "cpu", ""
    declared = dict(sweep=sweep, run_name=run_name)
    with pytest.raises(ValueError, match=f"{key} must be a single folder name"): check_parameters(declared, declared | {key: CLIMB})


@pytest.mark.parametrize("run", ["runs/../../x", "runs/a/../../x", "/runs/x", "runs", "runs/a\\..\\..\\x"])
def test_a_grid_cell_run_path_must_stay_under_runs(tmp_path, run):
    from hyena_lit.launch import load_cells
    (tmp_path / "grid.py").write_text(GRID.replace("runs/tiny/g/hyena_L32_V8_s0", run.replace("\\", "\\\\")))
    with pytest.raises(ValueError, match="must be a path under runs/"): load_cells(tmp_path / "grid.py", tmp_path / "runs")


def test_papermill_sweep_that_climbs_out_is_refused_before_any_folder(tmp_path):
    "Refused by the parameter check; out_root keeps a regression's run inside tmp_path."
    escaped = (ROOT / "nbs" / "experiments" / CLIMB).resolve()
    assert not escaped.exists()
    r = _cli("-m", "papermill", str(ROOT / "nbs/experiments/19_quickstart.ipynb"), str(tmp_path / "o.ipynb"), "--cwd",
             str(ROOT / "nbs/experiments"), "-p", "sweep", CLIMB, "-p", "max_steps", "1", "-p", "out_root", str(tmp_path / "runs"), timeout=300)
    assert r.returncode != 0 and "sweep must be a single folder name" in r.stdout + r.stderr, (r.stdout + r.stderr)[-2000:]
    assert not escaped.exists() and not (tmp_path / "runs").exists()


def test_every_grid_of_the_repository_declares_only_known_settings():
    "The runners' declared parameters cover every cell of every grid file under grids/ (no false refusal)."
    from hyena_lit.launch import load_cells
    files = sorted(p for p in (ROOT / "grids").glob("[a-z]*.py"))
    assert len(files) >= 15
    assert sum(len(load_cells(f)) for f in files) > 300


def test_the_readme_launch_commands_plan():
    for grid in ("figure_4_1_official", "mamba_table_11"):
        r = _cli("-m", "hyena_lit.launch", f"grids/{grid}.py", "--dry-run")
        assert r.returncode == 0 and " cells: " in r.stdout, r.stderr[-2000:]


def test_lm_training_resume_with_a_crafted_state_pt_is_an_error_line(tmp_path):
    ck, marker = _crafted_checkpoint(tmp_path)
    run = tmp_path / "run"; run.mkdir()
    ck.rename(run / "checkpoint")
    text = tmp_path / "play.txt"; text.write_text("To be, or not to be, that is the question.\n" * 200)
    r = _cli("-m", "hyena_lit.experiments.lm_training", "--size", "tiny", "--dataset", str(text), "--seq_len", "64",
             "--global_batch", "8", "--tokens", "4096", "--out_dir", str(run), timeout=300)
    assert r.returncode == 2 and "error: checkpoint file" in r.stderr and "refused unread" in r.stderr, r.stderr[-2000:]
    assert "Traceback" not in r.stderr and not marker.exists()


def test_unpack_takes_an_archive_made_with_tar_from_the_checkout(site):
    "`tar czf a.tar.gz runs/...` writes folder entries, runs/ itself included: harmless, and accepted."
    r = _unpack(site, [("runs", None), ("runs/exp", None), ("runs/exp/s2", None), ("runs/exp/s2/r", None),
                       ("runs/exp/s2/r/params.json", b"{}")])
    assert r.returncode == 0, r.stderr
    assert (site / "runs/exp/s2/r/params.json").read_text() == "{}"


def _first_lm_slice(tmp_path) -> tuple[tuple, Path, Path]:
    "(the command, its corpus, its run folder) after a first slice of 2 steps of a tiny language model."
    text, run = tmp_path / "play.txt", tmp_path / "run"
    text.write_text("To be, or not to be, that is the question.\n" * 200)
    args = ("-m", "hyena_lit.experiments.lm_training", "--size", "tiny", "--dataset", str(text), "--seq_len", "64",
            "--global_batch", "8", "--tokens", "8192", "--max_steps", "2", "--out_dir", str(run))
    first = _cli(*args, timeout=300)
    assert first.returncode == 0, first.stderr[-2000:]
    return args, text, run


def test_lm_training_refuses_to_resume_on_a_rewritten_corpus(tmp_path):
    "A run trained in slices records its tokens' SHA-1; a corpus rewritten between slices is refused by name."
    args, text, run = _first_lm_slice(tmp_path)
    assert len(json.loads((run / "params.json").read_text())["data_sha1"]) == 40
    text.write_text("Whether 'tis nobler in the mind to suffer the slings and arrows.\n" * 200)
    r = _cli(*args, timeout=300)
    assert r.returncode == 2 and "error:" in r.stderr and "its corpus changed since the run started" in r.stderr, r.stderr[-2000:]
    assert "Traceback" not in r.stderr


def test_from_pretrained_is_strict_by_default(tmp_path):
    "A model folder whose safetensors lacks a tensor is refused, not filled with random weights."
    from safetensors.torch import load_file, save_file
    from hyena_lit.models.model import HyenaConfig, HyenaLM
    cfg = HyenaConfig(vocab_size=64, d_model=16, n_layer=1, d_inner=32, l_max=32, filter_order=8)
    HyenaLM(cfg).save_pretrained(tmp_path / "m")
    assert HyenaLM.from_pretrained(tmp_path / "m") is not None
    tensors = load_file(tmp_path / "m" / "model.safetensors")
    dropped = next(k for k in tensors if k.endswith("fc1.weight"))
    save_file({k: v for k, v in tensors.items() if k != dropped}, tmp_path / "m" / "model.safetensors")
    with pytest.raises(RuntimeError, match="fc1.weight"):
        HyenaLM.from_pretrained(tmp_path / "m")
    assert HyenaLM.from_pretrained(tmp_path / "m", strict=False) is not None


# issue 73: no pickle a user's file can reach; bounds before work; no write through a link
def _code_lines():
    "(file, line) of the library's source: the notebooks' code cells and the exported modules."
    for nb in sorted((ROOT / "nbs").rglob("*.ipynb")):
        if ".ipynb_checkpoints" in nb.parts or nb.is_symlink(): continue
        for cell in json.loads(nb.read_text())["cells"]:
            if cell["cell_type"] == "code":
                yield from ((nb.relative_to(ROOT), line) for line in "".join(cell["source"]).splitlines())
    for py in sorted((ROOT / "hyena_lit").rglob("*.py")):
        yield from ((py.relative_to(ROOT), line) for line in py.read_text().splitlines())


def test_no_pickle_reader_in_the_library():
    "No pickle.load(s), no torch.load without weights_only=True, no numpy load with allow_pickle=True."
    import re
    lines = list(_code_lines())
    assert len(lines) > 10_000, "the search found too little source: it is broken"
    bad = [(str(f), l.strip()) for f, l in lines
           if re.search(r"\bpickle\.loads?\(|\bUnpickler\(|allow_pickle\s*=\s*True|\bjoblib\.load\(|\bdill\.load", l)
           or (re.search(r"\btorch\.load\(", l) and "weights_only=True" not in l)]
    assert not bad, bad


def test_the_images_notebook_never_unpickles_cifar(tmp_path):
    "`-p dataset cifar10` on a folder of pickled batches (the python release) is refused unread."
    import pickle
    d = tmp_path / "cifar-10-batches-py"; d.mkdir()
    marker = tmp_path / "marker"
    for name in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]:
        (d / name).write_bytes(pickle.dumps({b"data": _Payload(marker), b"labels": [0]}))
    r = _cli("-m", "papermill", str(ROOT / "nbs/experiments/72_images.ipynb"), str(tmp_path / "o.ipynb"), "--cwd",
             str(ROOT / "nbs/experiments"), "-p", "dataset", "cifar10", "-p", "data_dir", str(d), "-p", "out_root",
             str(tmp_path / "runs"), timeout=300)
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "binary release" in out, out[-2000:]
    assert not marker.exists() and not (tmp_path / "runs").exists()


def test_a_config_claiming_a_million_blocks_is_refused_before_any_allocation(tmp_path):
    import time
    from hyena_lit.models.model import HyenaConfig, HyenaLM
    from hyena_lit.inference.pretrained import load_pretrained
    HyenaLM(HyenaConfig(vocab_size=64, d_model=16, n_layer=2, d_inner=32, l_max=32, filter_order=8)).save_pretrained(tmp_path / "m")
    cfg = json.loads((tmp_path / "m" / "config.json").read_text())
    (tmp_path / "m" / "config.json").write_text(json.dumps(cfg | {"n_layer": 10**6}))
    t = time.perf_counter()
    for load in (load_pretrained, HyenaLM.from_pretrained):
        with pytest.raises(ValueError, match="n_layer") as e: load(str(tmp_path / "m"))
        assert "config.json" in str(e.value) and "model.safetensors" in str(e.value)
    assert time.perf_counter() - t < 30


def test_unpack_refuses_an_archive_of_too_many_members_before_writing(site):
    members = [(f"runs/exp/s/r/f{i}", b"x") for i in range(10_001)]
    r = _unpack(site, members)
    _refused(r)
    assert "10,001 members" in r.stderr and not (site / "runs/exp/s").exists(), r.stderr


@pytest.mark.parametrize("name", [".lock", "params.tmp", "params.json"])
def test_a_link_planted_in_a_run_folder_is_never_written_through(tmp_path, name):
    from hyena_lit.train.runs import RunFolder
    outside = tmp_path / "outside"; outside.write_text("root:x:0:0\n")
    run = tmp_path / "run"; run.mkdir()
    if name != "params.json": (run / "params.json").write_text("{}")
    (run / name).symlink_to(outside)
    with pytest.raises(ValueError, match="link") as e:
        with RunFolder(run, {}) as r: r.start()
    assert "root:x" not in str(e.value) and outside.read_text() == "root:x:0:0\n"


def test_a_link_in_a_corpus_folder_that_leaves_it_is_refused(tmp_path):
    from hyena_lit.data.lm_data import load_corpus
    (tmp_path / "secret.txt").write_text("a private line\n")
    (tmp_path / "corpus").mkdir(); (tmp_path / "corpus" / "a.txt").write_text("a document\n")
    (tmp_path / "corpus" / "b.txt").symlink_to(tmp_path / "secret.txt")
    with pytest.raises(ValueError, match="link") as e: load_corpus(str(tmp_path / "corpus"))
    assert "b.txt" in str(e.value) and "private" not in str(e.value)


def test_the_readme_says_a_grid_file_is_a_program():
    text = " ".join((ROOT / "README.md").read_text().split())
    assert "grid file is a program" in text and "Makefile" in text


def test_a_resume_without_data_sha1_is_refused_and_nothing_written(tmp_path):
    "A hand-edited params.json without data_sha1 cannot show the resume reads the same tokens: refused, the folder as it was."
    args, _, run = _first_lm_slice(tmp_path)
    p = json.loads((run / "params.json").read_text()); del p["data_sha1"]
    (run / "params.json").write_text(json.dumps(p))
    before = _tree(run)
    r = _cli(*args, timeout=300)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr[-2000:]
    assert "params.json records no data_sha1" in r.stderr.splitlines()[-1], r.stderr[-2000:]
    assert _tree(run) == before  # no failed.txt, no resume recorded


TINY_GRID = """def cells():
    return [dict(experiment="associative_recall", run="runs/t/g/hyena_L32_V8_s0",
                 params=dict(parametrization="hyena", seq_len=32, vocab_size=8, seed=0, num_train=256, num_test=16, n_layer=1,
                             d_model=16, d_inner=32, emb_dim=3, recipe="paper-synthetics", epochs=2000, warmup_epochs=1,
                             batch_size=32))]
"""


def test_ctrl_c_in_the_launcher_exits_130_with_one_line_and_no_half_written_file(tmp_path):
    import signal, time
    grid, root = tmp_path / "grid.py", tmp_path / "runs"
    grid.write_text(TINY_GRID)
    # no deadline inherited from the calling process: the cell must still be training when Ctrl-C comes
    env = {k: v for k, v in os.environ.items() if k not in ("IN_TEST", "HYENA_LIT_STOP_AT")} | {"PYTHONPATH": str(ROOT)}
    # Ctrl-C as in a terminal: a parent that ignores SIGINT passes that on through exec, and Python then raises no
    # KeyboardInterrupt. A test suite started as a background job of a non-interactive shell (`make test &`) is such
    # a parent: POSIX shells start asynchronous commands with SIGINT ignored. The child gets the default back
    p = subprocess.Popen([sys.executable, "-m", "hyena_lit.launch", str(grid), "--root", str(root)], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    run = root / "t/g/hyena_L32_V8_s0"
    deadline = time.time() + 240
    while not (run / "checkpoint").exists() and p.poll() is None and time.time() < deadline: time.sleep(0.2)
    assert p.poll() is None, p.communicate()[1][-2000:]  # still training: the grid's 2000 epochs take minutes
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode == 130 and "Traceback" not in err, err[-2000:]
    assert err.strip().splitlines()[-1].startswith("interrupted: "), err[-2000:]
    left = [q.name for q in root.rglob("*") if q.name.endswith((".tmp", "~")) or ".tmp-" in q.name]
    assert not left and (run / "params.json").is_file(), left
    assert not (run / "metrics.json").exists()  # unfinished: the same command resumes it
