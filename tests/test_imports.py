"""The package's import graph has no cycle, counting the imports inside functions too (an import moved into a function
only hides a cycle), so every layer can be read, and imported, from the bottom up."""
import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "hyena_lit"


def graph() -> dict[str, set[str]]:
    "Module (dotted, below hyena_lit) -> the package's modules it imports, anywhere in its text."
    files = {".".join(p.relative_to(PKG).with_suffix("").parts): p for p in PKG.rglob("*.py")}
    mods = {m for m in files if m.split(".")[-1] not in ("__init__", "_modidx")}
    g = {m: set() for m in mods}
    for m in mods:
        for node in ast.walk(ast.parse(files[m].read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.level:  # nbdev writes relative imports
                pkg = m.split(".")[:-node.level]
                base = ".".join(pkg + (node.module.split(".") if node.module else []))
                names = [f"{base}.{a.name}".lstrip(".") for a in node.names] + [base]
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("hyena_lit"):
                base = node.module.removeprefix("hyena_lit").lstrip(".")
                names = [f"{base}.{a.name}".lstrip(".") for a in node.names] + [base]
            elif isinstance(node, ast.Import):
                names = [a.name.removeprefix("hyena_lit.") for a in node.names if a.name.startswith("hyena_lit.")]
            g[m] |= {n for n in names if n in mods and n != m}
    return g


def layers(g: dict[str, set[str]]) -> dict[str, set[str]]:
    "The same graph between subpackages (core, train, ...)."
    out = {}
    for m, deps in g.items():
        out.setdefault(m.split(".")[0], set()).update(d.split(".")[0] for d in deps if d.split(".")[0] != m.split(".")[0])
    return out


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    state, found = {}, []
    def visit(u, path):
        state[u] = 1
        for v in sorted(g[u]):
            if state.get(v) == 1: found.append(path[path.index(v):] + [v])
            elif v not in state: visit(v, path + [v])
        state[u] = 2
    for m in sorted(g):
        if m not in state: visit(m, [m])
    return found


def test_the_import_graph_has_no_cycle():
    found = cycles(graph())
    assert not found, "import cycles: " + "; ".join(" -> ".join(c) for c in found)


def test_the_cycle_finder_finds_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


def test_the_layers_have_no_cycle():
    "Subpackages import each other in one direction only: core below mixers below train, and so on."
    found = cycles(layers(graph()))
    assert not found, "layer cycles: " + "; ".join(" -> ".join(c) for c in found)


def readme_layers(text: str) -> list[str]:
    "The layers, bottom up, as the README's layout names them (the sentence 'The layers, bottom up, ...: `a`, `b`.')."
    m = re.search(r"The layers,\s+bottom up[^:]*\):\s*((?:`\w+`,?\s*)+)\.", text)
    return re.findall(r"`(\w+)`", m.group(1)) if m else []


LAYERS = readme_layers((ROOT / "README.md").read_text())  # bottom up


def test_the_readme_names_the_layers():
    assert LAYERS[:2] == ["kernels", "core"] and LAYERS[-1] == "launch" and len(set(LAYERS)) == len(LAYERS), LAYERS
    # every notebook folder is a layer, and every notebook exports into its own folder's layer
    folders = sorted(d.name for d in (ROOT / "nbs").iterdir() if d.is_dir() and any(d.glob("*.ipynb")))
    assert set(LAYERS) == set(folders) - {"fixtures"}, (LAYERS, folders)
    for layer in LAYERS:
        for nb in sorted((ROOT / "nbs" / layer).glob("*.ipynb")):
            exp = re.search(r"#\| default_exp ([\w.]+)", nb.read_text())
            assert exp is None or exp.group(1).split(".")[0] == layer, (nb.name, exp.group(1))


def test_each_layer_imports_only_the_layers_below_it():
    g = layers(graph())
    assert set(g) == set(LAYERS), sorted(set(g) ^ set(LAYERS))
    up = {m: sorted(d for d in deps if LAYERS.index(d) > LAYERS.index(m)) for m, deps in g.items()}
    assert not any(up.values()), {m: d for m, d in up.items() if d}


def test_an_upward_import_is_found():
    g = {"core.a": {"train.b"}, "train.b": {"core.a"}}
    up = {m: [d for d in deps if LAYERS.index(d) > LAYERS.index(m)] for m, deps in layers(g).items()}
    assert up == {"core": ["train"], "train": []}


def _calls(f) -> set[str]:
    "The modules of the functions and classes a runner calls: its closure's and the module globals it names."
    seen = [c.cell_contents for c in (f.__closure__ or ())]
    seen += [f.__globals__[n] for n in f.__code__.co_names if n in f.__globals__]
    seen += [x for g in list(seen) if callable(g) and getattr(g, "__module__", "") == f.__module__
             and hasattr(g, "__code__") for x in (c.cell_contents for c in (g.__closure__ or ()))]
    return {getattr(x, "__module__", "") for x in seen if callable(x)}


def test_the_launchers_runners_are_imports():
    """Every runner the launcher uses calls a function of the experiments layer that launch.py imports (no
    "module:function" strings the graph cannot see), and nothing below the launcher imports it."""
    import hyena_lit.launch as L
    runners = {k: f for k, f in L.RUNNERS.items() if f is not None}
    assert len(runners) >= 6 and all(callable(f) for f in runners.values()), L.RUNNERS
    imported = {f"hyena_lit.{m}" for m in graph()["launch"]}
    for name, f in runners.items():
        mods = {m for m in _calls(f) if m.startswith("hyena_lit.experiments.")}
        assert mods and mods <= imported, (name, sorted(mods), sorted(imported))
    assert not [m for m, deps in graph().items() if "launch" in deps]
    assert not re.search(r"hyena_lit\.[\w.]+:\w+", (PKG / "launch.py").read_text())
