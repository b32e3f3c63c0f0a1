"""The package's import graph has no cycle, counting the imports inside functions too (an import moved into a function
only hides a cycle), so every layer can be read, and imported, from the bottom up."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PKG = ROOT / "hyena_lit"


def graph() -> dict[str, set[str]]:
    mods = {p.stem for p in PKG.glob("*.py")} - {"__init__", "_modidx"}
    g = {m: set() for m in mods}
    for m in mods:
        for node in ast.walk(ast.parse((PKG / f"{m}.py").read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                base = node.module.split(".")
                if node.level or base[0] == "hyena_lit":
                    names = [base[-1]] if base[-1] != "hyena_lit" else [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name.split(".")[-1] for a in node.names if a.name.startswith("hyena_lit.")]
            g[m] |= {n for n in names if n in mods and n != m}
    return g


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
