"""Unpack what one call of scripts/gpu_run.sh brought back from a GPU machine into a new check folder under runs/gpu/.

usage: python scripts/gpu_unpack.py FILES [FILES ...] [--runs runs] [--name NAME] [--dry]

FILES: the folders a device call's $OUT came back as (gpu-<part>.tgz, log-<part>.txt, nvidia-smi.txt,
pip-freeze.txt), one or several calls on one GPU machine. Each tarball holds gpu_check's folder <GPU>/
for its part. Everything goes into one new folder, runs/gpu/<GPU> where that is free, else the first free
runs/gpu/<GPU>-<n> (`--name` names it instead; it must not exist), which 52_gpu_step reads as one more check of that
GPU. The first tarball's params.json (the folders in the order given) stays params.json; a later one's, which every call writes, becomes
params-<part>.json. The logs and nvidia-smi.txt are copied beside them (pip-freeze.txt is left out: it names every
package of the machine). Then every text file is made portable (`make_portable`: no repository root, no
site-packages folder) and the calls' temporary folders (/tmp/tmpXXXXXXXX/, /tmp/tmp.XXXXXXXXXX/) are written <tmp>/.

A tarball is a file from another machine: every member is read before anything is written, and one that is a link,
a device, an absolute path, a path with '..', outside the <GPU>/ folder, or past `MAX_FILES` files or `MAX_BYTES`
bytes in all, stops the script naming the member; so does a file that two tarballs both hold (params.json aside), and
a dry run's tarball (gpu_check --dry on a CPU).
`--dry` prints what would be written."""
import argparse, json, pathlib, re, shutil, sys, tarfile, tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

MAX_FILES = 5000  # members of all the tarballs together
MAX_BYTES = 1 << 30  # their size unpacked
TEMP = re.compile(r"/tmp/tmp[.A-Za-z0-9_]{6,12}/")  # mkdtemp's and mktemp -d's folders
TEXT = (".csv", ".json", ".txt", ".ipynb", ".md", ".err")


def members(tgz: pathlib.Path) -> tuple[str, list[tuple[str, tarfile.TarInfo]]]:
    "(the <GPU> folder, [(path under it, member)] of its files) of one tarball, every member checked; nothing written."
    top, files = None, []
    try:
        with tarfile.open(tgz, "r:gz") as t:
            infos = t.getmembers()
    except (tarfile.TarError, OSError, EOFError) as e:
        raise SystemExit(f"error: {tgz}: not a readable .tgz ({e})")
    for m in infos:
        name = m.name.removeprefix("./")
        parts = pathlib.PurePosixPath(name).parts
        if m.name.startswith("/") or ".." in parts:
            raise SystemExit(f"error: {tgz}: member {m.name!r} leaves the folder it unpacks into")
        if not (m.isfile() or m.isdir()):
            raise SystemExit(f"error: {tgz}: member {m.name!r} is not a plain file or folder (a link or device)")
        if not parts: continue  # "." itself
        if top is None: top = parts[0]
        if parts[0] != top:
            raise SystemExit(f"error: {tgz}: member {m.name!r} is outside its one GPU folder {top!r}")
        if m.isfile():
            if len(parts) < 2: raise SystemExit(f"error: {tgz}: member {m.name!r} is a file beside the GPU folder")
            files.append(("/".join(parts[1:]), m))
    if top is None: raise SystemExit(f"error: {tgz}: empty")
    return top, files


def plan(sources: list[pathlib.Path], runs: pathlib.Path, name: str | None = None) -> dict:
    """What to write: {"dest": runs/gpu/<folder>, "gpu": <GPU>, "files": [(tarball, member, relative path)],
    "copies": [(file, relative path)]}; every check is made here, before anything is written."""
    from hyena_lit.core.paths import path_component
    tgzs = [p for s in sources for p in sorted(s.glob("gpu-*.tgz"))]  # the calls in the order given
    if not tgzs: raise SystemExit(f"error: no gpu-<part>.tgz in {', '.join(map(str, sources))}")
    gpu, files, seen, count, size = None, [], {}, 0, 0
    for tgz in tgzs:
        top, ms = members(tgz)
        path_component(top, f"{tgz}: the GPU folder's name")
        if gpu is None: gpu = top
        if top != gpu: raise SystemExit(f"error: {tgz} holds {top!r}, the others {gpu!r}: one GPU a folder")
        part = tgz.name.removeprefix("gpu-").removesuffix(".tgz")
        for rel, m in ms:
            if rel == "params.json" and "params.json" in seen: rel = f"params-{path_component(part, 'a part name')}.json"
            if rel in seen: raise SystemExit(f"error: {rel} is in both {seen[rel]} and {tgz}: nothing is overwritten")
            seen[rel] = tgz
            count, size = count + 1, size + m.size
            if count > MAX_FILES or size > MAX_BYTES:
                raise SystemExit(f"error: the tarballs hold more than {MAX_FILES} files or {MAX_BYTES} bytes")
            files.append((tgz, m, rel))
    if "params.json" not in seen: raise SystemExit(f"error: no {gpu}/params.json in the tarballs: not a GPU check")
    copies = []
    for s in sources:
        for f in sorted(s.glob("log-*.txt")) + sorted(s.glob("nvidia-smi.txt")):
            rel = f.name if f.name not in seen else f"{f.stem}-{s.name}{f.suffix}"
            if f.is_symlink() or not f.is_file() or rel in seen:
                raise SystemExit(f"error: {f} is not a plain file, or its name {rel} is taken")
            seen[rel] = f
            copies.append((f, rel))
    base = runs / "gpu"
    if name: dest = base / path_component(name, "--name")
    else:
        dest, n = base / gpu, 2
        while dest.exists() or dest.is_symlink(): dest, n = base / f"{gpu}-{n}", n + 1
    if dest.exists() or dest.is_symlink(): raise SystemExit(f"error: {dest} exists: nothing is overwritten")
    if base.is_symlink(): raise SystemExit(f"error: {base} is a link: the check would be written elsewhere")
    return dict(dest=dest, gpu=gpu, files=files, copies=copies)


def unpack(p: dict, root: pathlib.Path = ROOT) -> list[pathlib.Path]:
    "Write the plan into a temporary folder beside its destination, make it portable, then move it into place."
    from hyena_lit.core.paths import make_portable
    dest = p["dest"]
    dest.parent.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix=".unpack-", dir=dest.parent))
    try:
        for tgz in dict.fromkeys(t for t, _, _ in p["files"]):  # each tarball read once, its checked members only
            with tarfile.open(tgz, "r:gz") as t:
                for _, m, rel in (x for x in p["files"] if x[0] == tgz):
                    out = work / rel
                    out.parent.mkdir(parents=True, exist_ok=True)
                    with out.open("wb") as f: shutil.copyfileobj(t.extractfile(m), f)
        for f, rel in p["copies"]: shutil.copyfile(f, work / rel)
        make_portable(work, root)
        for f in work.rglob("*"):
            if f.is_file() and f.suffix in TEXT:
                t = f.read_text(errors="surrogateescape")
                if TEMP.search(t): f.write_text(TEMP.sub("<tmp>/", t), errors="surrogateescape")
        info = json.loads((work / "params.json").read_text())  # a check's params.json, or the unpack stops here
        if info.get("dry"): raise SystemExit(f"error: {p['gpu']} is a dry run (CPU): it measured nothing of a GPU")
        work.rename(dest)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    return sorted(f for f in dest.rglob("*") if f.is_file())


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", help="the folders a device call's $OUT came back as")
    ap.add_argument("--runs", default=str(ROOT / "runs"), help="the runs folder (default: the project's)")
    ap.add_argument("--name", default=None, help="the new folder's name under runs/gpu/ (default: <GPU>[-<n>])")
    ap.add_argument("--dry", action="store_true", help="print what would be written, write nothing")
    a = ap.parse_args(argv)
    sources = [pathlib.Path(f) for f in a.files]
    for s in sources:
        if not s.is_dir(): raise SystemExit(f"error: {s} is not a folder")
    try: p = plan(sources, pathlib.Path(a.runs), a.name)
    except ValueError as e: raise SystemExit(f"error: {e}")  # a name that is not one plain folder name
    print(f"{p['dest']}: {len(p['files'])} files of {p['gpu']}/ from "
          f"{len({t for t, _, _ in p['files']})} tarball(s), {len(p['copies'])} logs")
    if a.dry:
        for _, _, rel in p["files"]: print(f"  {rel}")
        for _, rel in p["copies"]: print(f"  {rel}")
        return
    unpack(p)
    print(f"unpacked into {p['dest']}")
    for line in as_run_commands(p["dest"]): print(line)


def as_run_commands(dest: pathlib.Path) -> list[str]:
    """The commands that count the floors of the graph the check in `dest` ran (`scripts/step_floor.py --at`, its
    params.json's `code`), for 52_gpu_step to read beside its measurements; none where the code is not recorded or
    was not a commit (uncommitted changes: '+') or the GPU has no entry in GPU_PEAKS."""
    from hyena_lit.kernels.fftconv_checks import GPU_PEAKS
    info = json.loads((dest / "params.json").read_text())
    code, gpu = str(info.get("code") or ""), str(info.get("gpu") or "")
    peak = next((k for k in GPU_PEAKS if k in gpu), None)
    if not re.fullmatch(r"[0-9a-f]{7,40}", code) or peak is None: return []
    out = f"runs/gpu/step-floor/as-run/{dest.name}"
    return [f"python scripts/step_floor.py --out {out} --gpu {peak} --conv torch --at {code}",
            f"python scripts/step_floor.py --out {out} --operators --gpu {peak} --at {code}"]


if __name__ == "__main__":
    main()
