"""scripts/gpu_unpack.py: a device call's tarballs into a new check folder under runs/gpu/, read whole before anything
is written, portable after; hostile members refused by name."""
import io, json, sys, tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import gpu_unpack


def tgz(path: Path, files: dict, extra=()):
    "A gzip tarball at `path` of {member name: text} (and `extra` TarInfos: links and the like)."
    with tarfile.open(path, "w:gz") as t:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
        for info in extra: t.addfile(info)


def call(out: Path, part: str, files: dict, extra=()):
    "One gpu_run.sh call's OUT: its tarball, its log and nvidia-smi.txt."
    out.mkdir(parents=True, exist_ok=True)
    tgz(out / f"gpu-{part}.tgz", files, extra)
    (out / f"log-{part}.txt").write_text(f"gpu_check --parts {part}\n")
    (out / "nvidia-smi.txt").write_text("NVIDIA H200\n")
    (out / "pip-freeze.txt").write_text("torch==2.11\n")


PARAMS = json.dumps(dict(kind="gpu_check", gpu="NVIDIA H200", dry=False, started="2026-01-01T00:00:00Z"))


def test_two_calls_become_one_new_check_beside_the_first(tmp_path):
    runs = tmp_path / "runs"
    (runs / "gpu" / "NVIDIA_H200").mkdir(parents=True)  # the first check: kept as it is
    a, b = tmp_path / "a", tmp_path / "b"
    call(a, "profile-steps", {"./NVIDIA_H200/params.json": PARAMS,
                              "./NVIDIA_H200/steps.csv": "size,status\n125M,ok\n",
                              "./NVIDIA_H200/notebooks/status.csv": "notebook,error\n44,/tmp/tmp.5hI96OhLor/x.ipynb\n"})
    call(b, "kernels", {"./NVIDIA_H200/params.json": PARAMS,
                        "./NVIDIA_H200/kernels/monarch/monarch_bench.csv": f"L,note\n1024,{ROOT}/runs/x /tmp/tmpab12_d34/y\n"})
    gpu_unpack.main([str(a), str(b), "--runs", str(runs)])
    dest = runs / "gpu" / "NVIDIA_H200-2"
    got = sorted(str(f.relative_to(dest)) for f in dest.rglob("*") if f.is_file())
    assert got == ["kernels/monarch/monarch_bench.csv", "log-kernels.txt", "log-profile-steps.txt",
                   "notebooks/status.csv", "nvidia-smi-b.txt", "nvidia-smi.txt", "params-kernels.json",
                   "params.json", "steps.csv"]
    # the calls' temporary folders and the repository's root are gone from the text
    assert "<tmp>/x.ipynb" in (dest / "notebooks" / "status.csv").read_text()
    assert (dest / "kernels/monarch/monarch_bench.csv").read_text() == "L,note\n1024,runs/x <tmp>/y\n"
    assert not list((runs / "gpu").glob(".unpack-*")) and not list((runs / "gpu" / "NVIDIA_H200").iterdir())
    with pytest.raises(SystemExit, match="exists"):  # a name that is taken: nothing overwritten
        gpu_unpack.main([str(a), "--runs", str(runs), "--name", "NVIDIA_H200-2"])


@pytest.mark.parametrize("bad,words", [
    (dict(names={"./NVIDIA_H200/params.json": PARAMS, "./NVIDIA_H200/../../evil.txt": "x"}), "leaves the folder"),
    (dict(names={"/etc/NVIDIA_H200/params.json": PARAMS}), "leaves the folder"),
    (dict(names={"./NVIDIA_H200/params.json": PARAMS, "./other/x.csv": "x"}), "outside its one GPU folder"),
    (dict(names={"./NVIDIA_H200/params.json": PARAMS}, link=True), "not a plain file"),
    (dict(names={"./NVIDIA_H200/steps.csv": "x"}), "no NVIDIA_H200/params.json"),
])
def test_a_hostile_or_foreign_tarball_is_refused_before_anything_is_written(tmp_path, bad, words):
    extra = []
    if bad.get("link"):
        info = tarfile.TarInfo("./NVIDIA_H200/steps.csv")
        info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
        extra.append(info)
    call(tmp_path / "a", "main", bad["names"], extra)
    runs = tmp_path / "runs"
    with pytest.raises(SystemExit, match=words):
        gpu_unpack.main([str(tmp_path / "a"), "--runs", str(runs)])
    assert not runs.exists() or not any(runs.rglob("*"))


def test_a_file_in_two_tarballs_and_a_bad_name_are_refused(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    call(a, "steps", {"./NVIDIA_H200/params.json": PARAMS, "./NVIDIA_H200/steps.csv": "x"})
    call(b, "main", {"./NVIDIA_H200/params.json": PARAMS, "./NVIDIA_H200/steps.csv": "y"})
    with pytest.raises(SystemExit, match="steps.csv is in both"):
        gpu_unpack.main([str(a), str(b), "--runs", str(tmp_path / "runs")])
    with pytest.raises(SystemExit, match="single folder name"):
        gpu_unpack.main([str(a), "--runs", str(tmp_path / "runs"), "--name", "../x"])
    gpu_unpack.main([str(a), "--runs", str(tmp_path / "runs"), "--dry"])  # prints, writes nothing
    assert not (tmp_path / "runs").exists()


def test_a_link_in_the_way_is_not_followed(tmp_path):
    a, runs = tmp_path / "a", tmp_path / "runs"
    call(a, "main", {"./NVIDIA_H200/params.json": PARAMS})
    (runs / "gpu").mkdir(parents=True)
    (runs / "gpu" / "NVIDIA_H200").symlink_to(tmp_path / "elsewhere")  # dangling: taken, not written through
    gpu_unpack.main([str(a), "--runs", str(runs)])
    assert (runs / "gpu" / "NVIDIA_H200-2" / "params.json").is_file() and not (tmp_path / "elsewhere").exists()
    other = tmp_path / "runs2"
    other.mkdir()
    (other / "gpu").symlink_to(tmp_path / "elsewhere2", target_is_directory=True)
    with pytest.raises(SystemExit, match="is a link"): gpu_unpack.main([str(a), "--runs", str(other)])
    assert not (tmp_path / "elsewhere2").exists()


def test_the_unpacked_check_names_the_commands_for_the_floors_of_its_code(tmp_path):
    "A check that recorded a clean commit gets the two `step_floor --at` commands; one that did not, none."
    sys.path.insert(0, str(ROOT / "scripts"))
    import gpu_unpack
    dest = tmp_path / "NVIDIA_H200-3"
    dest.mkdir()
    for code, gpu, n in (("abc1234", "NVIDIA H200", 2), ("abc1234+", "NVIDIA H200", 0), (None, "NVIDIA H200", 0),
                         ("abc1234", "Some Other GPU", 0), ("--help", "NVIDIA H200", 0)):
        (dest / "params.json").write_text(json.dumps(dict(gpu=gpu, code=code)))
        cmds = gpu_unpack.as_run_commands(dest)
        assert len(cmds) == n, (code, gpu, cmds)
        assert all(c.endswith("--at abc1234") and "as-run/NVIDIA_H200-3" in c and "--gpu H200" in c for c in cmds)
