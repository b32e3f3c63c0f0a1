"""The README's headline table and the results page `runs/results.md`, both computed from the run folders' artifacts:
`runs/index.csv` (one row per finished run), the scoreboard's `runs/scoreboard/scoreboard.csv` (every number of the
papers beside ours) and the report tables that the report notebooks write under `runs/`. No result is typed here:
a section is a figure folder (figures/<key>/figure.json: its notebooks, run folders and scoreboard tables), and every
number in a cell comes from those files.

`python scripts/results_page.py` writes runs/results.md; `--check` exits 1 when the page differs from a rebuild."""
import csv
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "runs" / "results.md"
sys.path.insert(0, str(ROOT))
from hyena_lit.eval.fields import ACCURACY, last_value, load_index  # noqa: E402  (the scoreboard's rule, not a copy)
from hyena_lit.eval.claims import _values  # noqa: E402  (its mean over a configuration's seeds)


class Runs:
    "The artifacts a cell reads: `runs/index.csv` as dicts, the scoreboard rows by id, CSV files under runs/."
    def __init__(self, root: Path = ROOT):
        self.root = root
        self.index = list(csv.DictReader(open(root / "runs" / "index.csv", newline="")))
        self.board = list(csv.DictReader(open(root / "runs" / "scoreboard" / "scoreboard.csv", newline="")))
        for r in self.board:  # "ours" reads "<last evaluations>; best epoch <x>": the headline keeps the first
            r["ours"], _, r["ours_best"] = r["ours"].partition("; best epoch ")
        self.by_id = {r["id"]: r for r in self.board}
        self.frame_all = load_index(root / "runs")
        self.frame = {(r.experiment, r.sweep, r.run): r for _, r in self.frame_all.iterrows()}

    def reported(self, r: dict) -> float:
        """What a run reports under the scoreboard's rule (hyena_lit.eval.fields.last_value): an accuracy at the epoch
        its validation split chose, else the mean of its last five evaluations; any other metric, its last one."""
        run = self.frame[(r["experiment"], r["sweep"], r["run"])]
        v = last_value(run, self.root / "runs") if run["metric"] in ACCURACY else None
        return float(r["final"] or r["best"]) if v is None else v

    def seed_means(self, experiment: str, sweep: str):
        """A row per configuration of a sweep (its runs less the seed): `value`, the reported value's mean over the
        seeds as the scoreboard takes it (hyena_lit.eval.claims._values), `sd`, `seeds`, `config`."""
        runs = self.frame_all.query("experiment == @experiment and sweep == @sweep")
        return _values(runs, "best", self.root / "runs")

    def sb(self, id: str) -> dict:
        if id not in self.by_id: raise ValueError(f"scoreboard row {id!r} is not in runs/scoreboard/scoreboard.csv")
        return self.by_id[id]

    def table(self, name: str) -> list[dict]:
        return [r for r in self.board if r["table"] == name]

    def runs(self, experiment: str, sweep: str | None = None, prefix: bool = False) -> list[dict]:
        ok = (lambda s: s.startswith(sweep)) if prefix else (lambda s: sweep is None or s == sweep)
        return [r for r in self.index if r["experiment"] == experiment and ok(r["sweep"])]

    def csv(self, rel: str) -> list[dict]:
        return list(csv.DictReader(open(self.root / rel, newline="")))


def pct(x) -> str: return f"{100 * float(x):.1f}"
def num(s: str) -> float | None:
    m = re.match(r"\s*(-?\d+(?:\.\d+)?)", s or "")
    return float(m.group(1)) if m else None
def short(s: str) -> str:
    "A scoreboard value in a few characters: '5.0 (requirement not met ...)' -> '5.0', '✓ (perfect)' -> 'perfect'."
    s = s.replace("✓ (perfect)", "perfect").replace("(read: ", "(")
    return s if s.startswith(("high", "low")) else s.split(" (")[0].strip()
NAMES = {"attention": "attention", "hyena": "Hyena", "mamba": "Mamba", "h3": "H3", "hyenadna": "HyenaDNA",
         "transformer++": "Transformer++"}
def slash(xs) -> str: return " / ".join(str(x) for x in xs)


def counts(rows: list[dict]) -> str:
    "'3 of 22 reproduced, 2 differ, 4 flagged, 13 not run' for a list of scoreboard rows (statuses at 0 left out)."
    n = {s: sum(r["status"] == s for r in rows) for s in ("reproduced", "differs", "within noise", "by construction",
                                                         "flagged", "not run")}
    return f"{n.pop('reproduced')} of {len(rows)} reproduced" + "".join(
        f", {k} {s.replace('differs', 'differ')}" for s, k in n.items() if k)


def reproduced(rows: list[dict]) -> str:
    "'0 of 43 rows reproduced, 15 flagged' for a list of scoreboard rows."
    f = sum(r["status"] == "flagged" for r in rows)
    return f"{sum(r['status'] == 'reproduced' for r in rows)} of {len(rows)} rows reproduced" + (f", {f} flagged" if f else "")


def best_by(R: Runs, rows: list[dict], key: Callable) -> dict:
    "The run with the highest reported value (R.reported, the scoreboard's rule) for each key(row): a choice on test."
    out = {}
    for r in rows:
        k = key(r)
        if k not in out or R.reported(r) > R.reported(out[k]): out[k] = r
    return out


# ---------------------------------------------------------------------------------------------- the sections
@dataclass
class Section:
    key: str                          # the page's anchor
    title: str                        # the paper's table / figure
    paper: Callable[[Runs], str]      # the paper's number(s), read from the scoreboard
    ours: Callable[[Runs], str]       # ours, computed from the runs
    notebooks: list[str] = field(default_factory=list)
    sweeps: list[str] = field(default_factory=list)   # "experiment/sweep" folders under runs/
    tables: list[str] = field(default_factory=list)   # scoreboard tables shown on the page
    headline: bool = True             # a row of the README's table
    grids: list[str] = field(default_factory=list)    # the grid files that make its runs


def _fig41_paper(R):
    return f"Hyena {short(R.sb('H-F4.1-hyena-L128-V40')['value'])} at every L and vocabulary; " \
           f"{R.sb('H-F4.1-ranking')['row'].removeprefix('ranking: ')}"

def epochs(r: dict) -> str:
    "The epochs a scoreboard row's run trained, from its `our scale` ('21/400 epochs of 4000' -> '21')."
    m = re.search(r"([\d.]+)/[\d.]+ epochs", r["our_scale"])
    return m.group(1) if m else "?"

def epoch_range(rows: list[dict]) -> str:
    es = sorted({float(epochs(r)) for r in rows if epochs(r) != "?"})
    if not es: return "epochs not recorded"
    f = lambda x: f"{x:g}"
    return f"{f(es[0])} epochs" if len(es) == 1 else f"{f(es[0])}-{f(es[-1])} epochs"

def _fig41_ours(R):
    cells = [r for r in R.table("Figure 4.1")
             if r["id"].startswith("H-F4.1-hyena-L") and r["id"].endswith("-V40") and r["ours"]]
    groups = {}
    for r in cells: groups.setdefault(float(epochs(r)) >= 200, []).append(r)
    parts = [f"{slash(r['ours'] for r in g)} at L = {slash(r['column'].removeprefix('L = ') for r in g)} "
             f"({epoch_range(g)})" for _, g in sorted(groups.items(), reverse=True)]
    return f"Hyena at vocabulary 40: {'; '.join(parts)}; {reproduced(R.table('Figure 4.1'))}"

def _ablation(R):
    "the reported accuracy (the scoreboard's rule), mean over seeds, per (step order, step name) and vocabulary"
    out = {}
    for _, c in R.seed_means("associative_recall", "ablation-L128").iterrows():
        m = re.match(r"(\d+)-(.+)_L\d+_V(\d+)$", Path(c.config).name)
        out.setdefault((int(m.group(1)), m.group(2)), {})[m.group(3)] = c.value
    return dict(sorted(out.items()))

def _ablation_ours(R):
    steps = _ablation(R)
    (o0, s0), (o1, s1) = list(steps)[0], list(steps)[-1]
    f = lambda d: slash(pct(d[v]) for v in ("30", "40"))
    return f"Hyena, L = 128, vocabulary 30 / 40, last five: Table A.1's recipe (step `{s0}`) " \
           f"{f(steps[(o0, s0)])}; the official recipe (step `{s1}`) {f(steps[(o1, s1)])}; {len(steps)} steps"

def _t42_paper(R):
    rows = R.table("Table 4.2")
    hy = [r for r in rows if r["column"] == "Hyena"]
    others = [num(r["value"]) for r in rows if r["kind"] == "number" and r["column"] != "Hyena" and num(r["value"])]
    return f"vocabulary 30, L = 30k / 64k / 131k: Hyena {slash(r['value'] for r in hy)}; " \
           f"the others {min(others)}-{max(others)}"

def _t42_ours(R):
    c = R.sb("H-T4.2-only-hyena")
    mem = [r for r in R.table("Table 4.2") if r["run"].endswith("memory.csv")]
    return f"{re.sub(r' [(]needs? [^)]*[)]', '', c['ours'].split(';')[0])}; memory: {sum(r['status'] == 'by construction' for r in mem)} of {len(mem)} as the paper's X"

def _tc1(R, col):
    rows = [r for r in R.table("Table C.1") if r["id"].startswith("H-TC.1-Hyena-V")]
    return f"Hyena, vocabulary {slash(r['column'].removeprefix('Acc @ ') for r in rows)}: " \
           f"{slash(short(r[col]) or 'not run' for r in rows)}"

def _tc1_ours(R):
    others = [r for r in R.table("Table C.1") if not r["id"].startswith("H-TC.1-Hyena")]
    rest = "the other models not run" if all(r["status"] == "not run" for r in others) else counts(others)
    hy = [r for r in R.table("Table C.1") if r["id"].startswith("H-TC.1-Hyena-V") and r["ours"]]
    return f"{_tc1(R, 'ours')} (L = 2048, {epoch_range(hy)}); {rest}"

_T11_L = ("1024", "4096", "16384")
def _t11(R, col):
    m = slash(short(R.sb(f"M-T11-Mamba-{L}")[col]) or "not run" for L in _T11_L)
    h = slash(short(R.sb(f"M-T11-Hyena-{L}")[col]) or "not run" for L in ("512", "1024"))
    return f"Mamba {m} at test L = 2^10 / 2^12 / 2^14; Hyena {h} at 2^9 / 2^10"

def _mqar_paper(R):
    side = [r for r in R.csv("runs/synthetics/mqar_zoology_side.csv") if r["seq_len"] == "64" and r["d_model"] == "64"
            and r["zoology"]]  # written by 34h: Zoology's figure 2 read off its plot
    return "L = 64, 4 pairs, width 64 (read off its plot): " + \
           ", ".join(f"{NAMES[r['mixer']]} {float(r['zoology']):.0f}" for r in sorted(side, key=lambda r: -float(r["zoology"])))

def _mqar_ours(R):
    rows = [R.sb(f"Z-F2-{m}-L64-d64") for m in ("attention", "h3", "hyena")]
    same = len({r["n_runs"] for r in rows}) == 1
    out = "that cell, 20 min a run" + (f", best of {rows[0]['n_runs']} rates " if same else ", the best rate ")
    groups = {}  # the rows chosen on validation first, then those chosen on test (flagged)
    for r in rows: groups.setdefault("by test (flagged)" if r["flag"] else "by validation", []).append(r)
    out += "; ".join(f"{how}: " + ", ".join(f"{NAMES[r['id'].split('-')[2]]} {short(r['ours'])}" +
                                            ("" if same else f" (of {r['n_runs']})") for r in g)
                     for how, g in sorted(groups.items(), key=lambda kv: kv[0] != "by validation"))
    z = R.runs("mqar", "cpu-100k-zoology2023")
    if z: out += f"; Hyena, Zoology's recipe, {z[0]['epochs_run']} epochs: {pct(R.reported(z[0]))}"
    return out

def _sc_paper(R):
    return "L = 4096: " + ", ".join(f"{R.sb(f'M-T1-{m}')['row'].split(' (')[0]} {R.sb(f'M-T1-{m}')['value']}"
                                    for m in ("Mamba", "H3", "Hyena"))

def _sc_ours(R):
    rows = [R.sb(f"M-T1-{m}") for m in ("Mamba", "H3", "Hyena")]
    out = "L = 256, the steps of 20-40 CPU minutes a run: " + ", ".join(f"{r['row'].split(' (')[0]} {short(r['ours'])}" for r in rows)
    cur = {r["seq_len"]: r for r in R.runs("mechanistic", "selective-copying-curriculum")}
    if "256" in cur:  # the same Mamba trained at 128 first, then at each length from the weights of the one before
        out += "; Mamba from its L = 128 weights: " + ", ".join(
            f"{pct(R.reported(cur[L]))} at {L} (best epoch {pct(cur[L]['best'])})" for L in sorted(cur, key=int) if L == "256")
    return out

def _lm_paper(R):
    hy = slash(R.sb(f"H-T4.4-Hyena-2(355M)-{t}")["value"] for t in ("5B", "10B", "15B"))
    gpt = slash(R.sb(f"H-T4.4-GPT(355M)-{t}")["value"] for t in ("5B", "10B", "15B"))
    return f"355M, The Pile, 5 / 10 / 15B tokens: Hyena {hy} vs GPT {gpt} perplexity, " \
           f"{R.sb('H-T4.4-Hyena-2(355M)-flops')['value']} vs {R.sb('H-T4.4-GPT(355M)-flops')['value']}e19 FLOPs"

def _lm_ours(R):
    v = R.seed_means("pile", "cpu-mini").assign(tokens=lambda d: d.tokens.astype(int))
    at = v.set_index(["mixer", "tokens"])
    toks = sorted(v.tokens.unique())
    ppl = lambda m: slash(f"{math.exp(at.value[m, t]):.1f}" for t in toks)
    params = int(at.params["hyena", toks[0]])
    return f"{params / 1e6:.1f}M, Shakespeare, {slash(f'{t / 1e6:.1f}' for t in toks)}M tokens (seeds " \
           f"{slash(str(at.seeds['hyena', t]) for t in toks)}): Hyena {ppl('hyena')} vs GPT {ppl('attention')} perplexity; " \
           f"fewer FLOPs for GPT's loss: {R.sb('H-F4.2-fewer-flops')['status']}"

def _downstream_ours(R):
    out, params = [], []
    for name in ("mini-500k", "gpt-mini-500k"):
        t = R.csv(f"runs/downstream/cpu-mini/{name}/table.csv")
        z = [float(r["acc"]) for r in t if not r["task"].endswith("_3shot") and "lambada" not in r["task"]]
        f = [float(r["acc"]) for r in t if r["task"].endswith("_3shot")]
        cl = next(r for r in t if r["task"] == "lambada_cloze")
        params.append(f"{int(t[0]['params']) / 1e6:.1f}M")
        out.append(f"{t[0]['model']} {sum(z) / len(z):.1f} / {sum(f) / len(f):.1f}, cloze {pct(cl['acc'])}")
    n = R.csv("runs/downstream/cpu-mini/mini-500k/table.csv")[1]["n"]
    toks = int(R.csv("runs/downstream/cpu-mini/mini-500k/table.csv")[0]["train_tokens"]) / 1e6
    return f"{slash(params)} params, {toks:.1f}M tokens, SuperGLUE fixtures ({n} per task), zero- / 3-shot: " + \
        "; ".join(out)

def _images_paper(R):
    v = lambda i: R.sb(i)["value"]
    return f"CIFAR-10: Hyena-ISO {v('H-T4.7-Hyena-ISO-CIFAR-10')} vs S4ND-ISO {v('H-T4.7-S4ND-ISO-CIFAR-10')}; " \
           f"ImageNet: Hyena-ViT {v('H-T4.7-Hyena-ViT-16x16')} vs ViT {v('H-T4.7-ViT-16x16')}"

def _images_ours(R):
    b = best_by(R, R.runs("images", "digits-cpu-30ep", prefix=True), lambda r: r["mixer"])
    g = lambda m: pct(R.reported(b[m])) if m in b else "not run"
    return f"8x8 digits, 30 epochs, best of each by test (last five): Hyena-ISO {g('hyena-iso')} vs S4ND-ISO {g('s4nd-iso')}; " \
           f"Hyena-ViT {g('hyena-vit')} vs ViT {g('vit')}; CIFAR-10 and ImageNet not run"

def _dna_paper(R):
    f = lambda m: f"{R.sb(f'M-T13-{m}-1.4M-2^10')['value']} (2^10) to {R.sb(f'M-T13-{m}-1.4M-2^20')['value']} (2^20)"
    return f"great apes, {R.sb('M-T13-HyenaDNA-1.4M-2^10')['unit']}, 1.4M params: HyenaDNA {f('HyenaDNA')}, " \
           f"Mamba {f('Mamba')}"

def _dna_ours(R):
    rows = [r for r in R.runs("dna", "cpu-v1") if re.fullmatch(r"species_.+_L\d+_s0", r["run"])]
    out = []
    for m in ("hyenadna", "mamba", "transformer++"):
        rs = sorted((r for r in rows if r["mixer"] == m), key=lambda r: int(r["seq_len"]))
        out.append(f"{NAMES[m]} {pct(R.reported(rs[0]))} to {pct(R.reported(rs[-1]))}")
    Ls = sorted({int(r["seq_len"]) for r in rows})
    return f"bacterial species, {max(int(r['params']) for r in rows) / 1e6:.2f}M params, " \
           f"L = 2^{Ls[0].bit_length() - 1}-2^{Ls[-1].bit_length() - 1}: " + ", ".join(out)

def _runtime(R, col):
    a, b = R.sb("H-F4.3-crossover-flash"), R.sb("H-F4.3-2x-8K")
    scale = a["paper_scale"] if col == "value" else a["our_scale"]
    return f"crossover with fused attention at L = {a[col]}; at 8K, {b[col]}x its speed ({scale})"

def _gpu_step(R, gpu="NVIDIA_H200"):
    """Tokens/s and model-FLOPs utilization of Hyena and GPT training steps (uncompiled), from the GPU check's
    steps.csv, with Hyena's tokens/s from the first step table (runs/pile/<gpu>-step) beside it where that has the row."""
    rows = [r for r in R.csv(f"runs/gpu/{gpu}/steps.csv") if r["status"] == "ok" and r.get("compile", "off") == "off"]
    first = {(r["size"], int(r["L"])): r for r in R.csv(f"runs/pile/{gpu}-step/steps.csv") if r["status"] == "ok"}
    got = {(r["size"], int(r["L"])): r for r in rows}
    k = lambda r: f"{float(r['tokens_per_s']) / 1e3:.0f}k"
    out = []
    for size in ("125M", "355M"):
        for L in sorted({int(r["L"]) for r in rows}):
            h, g = got.get((size, L)), got.get((f"gpt-{size}", L))
            if not h: continue
            was = f"{k(first[(size, L)])} → " if (size, L) in first else ""
            gpt = f", GPT {k(g)} (Hyena/GPT {float(h['tokens_per_s']) / float(g['tokens_per_s']):.2f})" if g else ""
            out.append(f"{size} at L = {L}: Hyena {was}{k(h)} tokens/s (MFU {pct(h['mfu'])}%){gpt}")
    return f"{gpu.replace('_', ' ')}, bf16 autocast, AdamW: " + "; ".join(out)

# how each figure's headline cells are computed (the paper's side, ours), by figure folder; its title, notebooks, run
# folders and scoreboard tables are the folder's figures/<key>/figure.json
RENDER = {
    "figure-41": (_fig41_paper, _fig41_ours),
    "table-a1-ablation": (lambda R: f"Figure 4.1, Hyena at L = 128, vocabulary 30 / 40: "
                                    f"{short(R.sb('H-F4.1-hyena-L128-V30')['value'])}", _ablation_ours),
    "table-42": (_t42_paper, _t42_ours),
    "table-c1": (lambda R: _tc1(R, "value"), _tc1_ours),
    "table-11": (lambda R: _t11(R, "value"), lambda R: f"{_t11(R, 'ours')}; {reproduced(R.table('Table 11'))}"),
    "mqar": (_mqar_paper, _mqar_ours),
    "selective-copying": (_sc_paper, _sc_ours),
    "figure-42": (_lm_paper, _lm_ours),
    "downstream": (lambda R: f"Hyena-153M, SuperGLUE average {R.sb('H-T4.5-Average')['value']} zero-shot, "
                             f"{R.sb('H-T4.6-Average')['value']} 3-shot; LAMBADA {R.sb('H-A.3-lambada')['value']}",
                   _downstream_ours),
    "images": (_images_paper, _images_ours),
    "dna": (_dna_paper, _dna_ours),
    "runtime": (lambda R: _runtime(R, "value"), lambda R: _runtime(R, "ours")),
    "gpu-step": (lambda R: "Hyena-125M/355M trained on A100s; no step times given", _gpu_step),
}
FIGURES = ROOT / "figures"


def load_figures(root: Path = FIGURES) -> list[tuple[str, dict]]:
    "(key, figure.json) of every figure folder, in the page's order."
    import json
    found = [(d.name, json.loads((d / "figure.json").read_text())) for d in sorted(root.iterdir()) if (d / "figure.json").is_file()]
    return sorted(found, key=lambda kf: kf[1]["order"])


FIGURE_FOLDERS = load_figures()
SECTIONS = [Section(key, f["title"], *RENDER.get(key, (None, None)), list(f["notebooks"]), list(f["sweeps"]),
                    list(f["tables"]), headline=f["headline"], grids=list(f["grids"])) for key, f in FIGURE_FOLDERS]
SYNTHETICS_REPORTS = ["nbs/eval/34_synthetics_results.ipynb"] + [f"nbs/eval/34{k}.ipynb" for k in (  # the overview, one report per section
    "a_figure_4_1", "b_table_c1", "c_table_4_2", "d_figure_c1", "e_table_11", "f_selective_copying", "g_table_4_1_tasks", "h_mqar")]
REPORTS = {"runs/synthetics": SYNTHETICS_REPORTS, "runs/dna/results": ["nbs/eval/83_dna_results.ipynb"], "runs/scaling": ["nbs/eval/46_scaling_results.ipynb"],  # folder -> the notebooks that write it
           "runs/scoreboard/status_by_table.png": ["nbs/eval/90_scoreboard.ipynb"]}


def experiment_notebooks(figures: list[tuple[str, dict]]) -> dict[str, str]:
    """Experiment folder under runs/ -> the notebook that explains its runs: of the notebooks of the figure folders that
    name a run folder in it, the one most of those folders name (the first named on a tie). A run folder that no figure
    folder names is listed under "Other runs" with this notebook."""
    votes: dict[str, dict[str, int]] = {}
    for _, f in figures:
        for exp in dict.fromkeys(sw.split("/")[0] for sw in f["sweeps"]):
            n = votes.setdefault(exp, {})
            for nb in f["notebooks"]: n[nb] = n.get(nb, 0) + 1
    return {exp: max(n, key=n.get) for exp, n in votes.items()}


NOTEBOOK = experiment_notebooks(FIGURE_FOLDERS)


# ---------------------------------------------------------------------------------------------- rendering
def ours(R: Runs, s: Section) -> str:
    "The section's own cell, or 'not run' when none of its sweeps has a finished run and no scoreboard row a value."
    if not s.sweeps and not s.tables: return s.ours(R)  # reads files of its own (a GPU's step table)
    ran = any(R.runs(*sw.split("/")) for sw in s.sweeps) or any(r["ours"] for t in s.tables for r in R.table(t))
    return s.ours(R) if ran else "not run"

def cell(s: str) -> str: return s.replace("|", "\\|").replace("\n", " ")

def headline_table(R: Runs, page: str = "runs/results.md") -> str:
    "The README's short table: one row per paper section, the paper's number beside ours, a link to its details."
    out = ["| paper | the paper reports | ours |", "|---|---|---|"]
    for s in (s for s in SECTIONS if s.headline):
        out.append(f"| [{cell(s.title)}]({page}#{s.key}) | {cell(s.paper(R))} | {cell(ours(R, s))} |")
    return "\n".join(out)

def _link(path: str, base: str = "runs/") -> str:
    "A markdown link from runs/results.md to a path given from the repository root."
    rel = path.removeprefix(base) if path.startswith(base) else "../" + path
    return f"[{path.removeprefix(base)}]({rel})"

def _metric(r: dict, v: str) -> str:
    if v == "": return ""
    x = float(v)
    if "acc" in r["metric"]: return pct(x)
    if r["metric"].endswith("loss"): return f"{x:.3f} (ppl {math.exp(x):.1f})"
    return f"{x:.4g}"

def _runs_table(R: Runs, rows: list[dict]) -> list[str]:
    "One line per run: what it reports under the scoreboard's rule, then its best evaluation, labelled, as secondary."
    out = ["| run | model | L | params | metric | reported | best epoch (secondary) | epochs or steps |",
           "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        path = f"runs/{r['experiment']}/{r['sweep']}/{r['run']}"
        g = lambda v: "" if not v else str(int(float(v))) if float(v).is_integer() else f"{float(v):.3g}"
        ep = f"{g(r['epochs_run'])}/{g(r['epochs_planned'])}" if r["epochs_planned"] else g(r["epochs_run"])
        out.append(f"| {_link(path)} | {r['mixer']} | {r['seq_len']} | {r['params']} | {r['metric']} | "
                   f"{_metric(r, str(R.reported(r)))} | {_metric(r, r['best'])} | {ep} |")
    return out

def _board_table(rows: list[dict]) -> list[str]:
    out = ["| row | column | paper | ours | our scale | status | flag | run |", "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        runs = [p.strip() for p in r["run"].split(",") if p.strip()]
        links = ", ".join(_link(p) for p in runs[:2]) + (f" (+{len(runs) - 2} more)" if len(runs) > 2 else "")
        out.append(f"| {cell(r['row'])} | {cell(r['column'])} | {cell(r['value'])} | {cell(r['ours'])} | "
                   f"{cell(r['our_scale'])} | {r['status']}{' (would be ' + r['would_be'] + ')' if r['would_be'] else ''} | "
                   f"{cell(r['flag'])} | {links} |")
    return out

def section_md(R: Runs, s: Section) -> list[str]:
    out = [f'<a id="{s.key}"></a>', "", f"## {s.title}", ""]
    if s.paper: out += [f"- **Paper:** {s.paper(R)}", f"- **Ours:** {ours(R, s)}"]
    out.append(f"- **Figure folder:** {_link(f'figures/{s.key}/figure.json')}"
               + (" (grids: " + ", ".join(_link(g) for g in s.grids) + ")" if s.grids else ""))
    if s.notebooks: out.append("- **Notebooks:** " + ", ".join(_link(n) for n in s.notebooks))
    reports = [p for p, nbs in REPORTS.items() if set(nbs) & set(s.notebooks) and (R.root / p).exists()]
    if reports: out.append("- **Report figures and tables:** " + ", ".join(_link(p) for p in reports))
    folders = [(sw, R.runs(*sw.split("/"))) for sw in s.sweeps]
    if folders:
        out.append("- **Run folders:** " + ", ".join(f"{_link('runs/' + sw)} ({len(rs)} run{'s' * (len(rs) != 1)})" for sw, rs in folders))
    rows = [r for t in s.tables for r in R.table(t)]
    shown = [r for r in rows if r["status"] != "not run"]
    if shown: out += ["", *_board_table(shown)]
    if rows:
        out += ["", f"Scoreboard: {counts(rows)}; every row, with the reason a row differs or is not run and the "
                    f"command that would run it, is in {_link('runs/scoreboard/scoreboard.md')}."]
    if not shown and folders:
        out += ["", *_runs_table(R, [r for _, rs in folders for r in rs])]
    return out + [""]

def render_page(R: Runs | None = None) -> str:
    R = R or Runs()
    summary = (R.root / "runs" / "scoreboard" / "summary.md")
    out = ["# Results", "",
           "> Generated by `scripts/results_page.py` (`make readme`) from `runs/index.csv`, the run folders and "
           "`runs/scoreboard/`. Do not edit: `tests/test_docs.py` fails when this page differs from a rebuild.", ""]
    if summary.exists(): out += [summary.read_text().strip().replace("](runs/", "]("), ""]
    out += ["Every number below is read from a committed run folder; the paper's number sits beside ours, and each "
            "section names the notebook that explains the runs. Our runs are far smaller than the paper's: the "
            "`our scale` column and each run's `params.json` say how much.", "",
            headline_table(R, page=""), ""]
    if any("†" in r["our_scale"] or "‡" in r["our_scale"] for r in R.board):
        out += ["In `our scale`, † marks runs trained while the Hyena and CKConv filter FFN read 3 positional features and "
                "w = 1 whatever its configuration said (since fixed, `nbs/mixers/15_longconvs.ipynb`); ‡ marks Mamba runs "
                "trained while the model-wide initialization re-drew Mamba's projections (since fixed, "
                "`nbs/mixers/17_baselines.ipynb`).", ""]
    for s in SECTIONS: out += section_md(R, s)
    covered = {sw for s in SECTIONS for sw in s.sweeps}
    left = sorted({f"{r['experiment']}/{r['sweep']}" for r in R.index} - covered)
    tables = {t for s in SECTIONS for t in s.tables}
    left_tables = list(dict.fromkeys(r["table"] for r in R.board if r["table"] not in tables))
    if left or left_tables:
        out += ['<a id="other"></a>', "", "## Other runs and tables", ""]
        for t in left_tables: out += [f"### {t}", "", *_board_table(R.table(t)), ""]
        for sw in left:
            exp = sw.split("/")[0]
            out += [f"### {sw}", "", f"Notebook: {_link(NOTEBOOK.get(exp, 'nbs/index.ipynb'))}", "",
                    *_runs_table(R, R.runs(*sw.split("/"))), ""]
    return "\n".join(out).rstrip("\n") + "\n"


def check_or_write(path: Path, new: str, check: bool) -> bool:
    "Write `new` to `path`, or with `check` say whether `path` already holds it."
    if not check:
        path.write_text(new)
        return True
    same = path.exists() and path.read_text() == new
    print(f"{path.relative_to(ROOT)} is up to date" if same else f"{path.relative_to(ROOT)} differs: run `make readme`")
    return same


if __name__ == "__main__":
    sys.exit(0 if check_or_write(PAGE, render_page(), "--check" in sys.argv) else 1)
