"""Seeds 1 and 2 for the scoreboard's rows that one seed cannot decide (runs/scoreboard: status "within noise"): an
ordering claim whose margin is under 5 accuracy points (0.05 nats of loss), or a number whose accept band contains
chance or which lies within two binomial standard errors of its band; the one-seed side of an ordering claim whose
other side has three (Table 4.3's Transformer); and the runs of a lead ablation whose one-seed verdict rests on a gap
under the one-seed noise floor (Table 4.4's pair and its rotary GPT). Each cell repeats a committed seed-0 cell with
another seed, nothing else changed, so the scoreboard averages the seeds of one configuration and reports their spread.
Cells already listed by another experiment file (figure_4_1_official's and table_a1_ablation's second seeds) are left to it.
`needing()` lists the rows the scoreboard marks "needs 3 seeds", the most decisive (closest to its boundary) first.
A file of new cells has no finished peer to time them by, so `python grids/seeds.py [cpu|cuda]` prints launch's
estimate with the seed-0 runs (the cells of PEERS) as the measured peers."""
from dataclasses import replace

from hyena_lit.experiments.pile import plan_runs
from grids import table_a1_ablation, figure_4_1_official, figure_4_2, table_4_1_figure_c1, table_4_3
from grids._common import lm_cells, mechanistic_cells, recall_cells, walk_cells
from grids.figure_4_1_official import OFFICIAL, PARAMETRIZATIONS, WALK_CELLS
from grids.figure_4_1_table_a1 import TABLE_A1
from grids.mamba_table_11 import NUM_VAL, TO_2_14

SEEDS = [1, 2]  # seed 0: the committed runs, whose cells are in the files that made them


def official_grid(root) -> list[dict]:
    "Figure 4.1 under the official recipe (claims implicit-beats-explicit-V40, ranking-official, hyena-best-official)."
    skip = {(p, L, V, s) for p, L, V, _ in WALK_CELLS for s in SEEDS}  # Hyena at V = 30, 40: the walk's last step
    grid = recall_cells(root, "fig4.1-official", OFFICIAL, PARAMETRIZATIONS, [128, 256], [10, 20, 30, 40], SEEDS, skip)
    grid += walk_cells(root, "ablation-L128", table_a1_ablation.BASE, ["official"], 128, [30, 40], seeds=SEEDS)
    return grid + walk_cells(root, "official-L256", table_a1_ablation.BASE, ["official"], 256, [30, 40], seeds=SEEDS)


def implicit_vs_explicit(root) -> list[dict]:
    """Figure 4.1's official grid with its validation split at vocabulary 40, every operator the claim
    H-F4.1-implicit-beats-explicit-V40 compares (Hyena, CKConv, Conv1d, FNO), L = 128 first: there the claim's margin is
    under the noise floor on one seed, and CKConv learned the lookup in its twin without validation and not in its
    validation run (at L = 256 the other way round), so only seeds say how often it learns it."""
    return figure_4_1_official.validated(root, ["hyena", "ckconv", "conv1d", "fno"], vocab_sizes=[40], seeds=SEEDS)


def table_a1_grid(root) -> list[dict]:
    "Figure 4.1 under Table A.1's recipe, 3 CPU minutes a run (claim H-F4.1-ranking: margin 4.2 points on one seed)."
    return recall_cells(root, "fig4.1-cpu", dict(TABLE_A1, max_minutes_per_run=3.0), PARAMETRIZATIONS, [128, 256, 512, 1024],
                        [10, 20, 30, 40], SEEDS)


def table_11(root) -> list[dict]:
    """Mamba's Table 11 under its protocol with a validation split, the configuration the rows rest on: Hyena's and H3's
    long lengths sit at chance or within 2 SE of the band, Mamba's extrapolation claim holds by one point, and Mamba's
    two seed-0 runs (one stopped on test, one on validation) left their plateau at 18k and 155k steps."""
    return mechanistic_cells(root, "table11-mamba-val", "table11-mamba", mixers=["hyena", "h3", "mamba"], seeds=SEEDS,
                             max_minutes_per_run=0, test_lens=TO_2_14, evals_per_epoch=8, num_val=NUM_VAL)


def arithmetic(root) -> list[dict]:
    """Figure C.1, one layer at 4, 8 and 16 digits, with a validation split (the configuration the rows rest on): bands
    that contain chance (10), or within 2 SE of the band."""
    return table_4_1_figure_c1.validation(root, seeds=SEEDS, digits=[4, 8, 16], layers=[1])


def _table_4_3(root, size: str, gpt: str) -> list:
    "grids/table_4_3.py's runs of `size` (and its GPT partner, gpt='auto'), for seeds 1 and 2."
    runs = plan_runs(size, gpt=gpt, **table_4_3.settings(root))
    return [replace(c, seed=s, out_dir=f"{c.out_dir}_s{s}") for c in runs for s in SEEDS]


def slim_vs_base(root) -> list[dict]:
    "Table 4.3's slim shape against the base one (claim H-T4.3-slim-better: 0.014 nats on one seed)."
    return lm_cells(_table_4_3(root, "mini-base", "") + _table_4_3(root, "mini", ""))


def transformer(root) -> list[dict]:
    """Table 4.3's Transformer, whose one run Hyena-3's three seeds are set against (claim
    H-T4.3-hyena-matches-transformer: an ordering, so it carries both sides' spread)."""
    return lm_cells([c for c in _table_4_3(root, "mini-base", "auto") if c.size != "mini-base"])


def pile_lead(root) -> list[dict]:
    """Table 4.4's pair at 0.5M tokens (runs/pile/cpu-mini) and grids/figure_4_2.py's rotary GPT (cpu-mini-lead), the
    three sides of the lead's cause: the claim H-T4.4-hyena-matches-gpt reads Hyena's lead over GPT, and the rotary run
    of seed 0 closes all but 0.016 nats of it, under the one-seed noise floor. Seed 1 of every side before seed 2."""
    sides = ("cpu-mini/mini-500k", "cpu-mini/gpt-mini-500k", "cpu-mini-lead/gpt-mini-rope-500k")
    seed0 = [c for c in figure_4_2.cells(root) if c["run"].endswith(sides)]
    return [dict(c, run=f"{c['run']}_s{s}", params=dict(c["params"], seed=s)) for s in SEEDS for c in seed0]


def cells(root="runs") -> list[dict]:
    taken = {c["run"] for c in figure_4_1_official.cells(root) + table_a1_ablation.cells(root)}
    grid = implicit_vs_explicit(root) + official_grid(root) + table_a1_grid(root) + table_11(root) + arithmetic(root) + slim_vs_base(root) + transformer(root) + pile_lead(root)
    return [c for c in grid if c["run"] not in taken]


def needing(root="runs") -> list[tuple[str, float, str]]:
    """The scoreboard's rows marked "needs 3 seeds" (within twice the noise of a decision boundary on fewer than three
    seeds), most decisive first: (id, distance to the boundary in units of twice the noise, status)."""
    import csv
    from pathlib import Path
    with open(Path(root) / "scoreboard" / "scoreboard.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["seeds_needed"]]
    return sorted(((r["id"], float(r["to_edge"]), r["status"]) for r in rows), key=lambda t: t[1])


PEERS = ["figure_4_1_official", "figure_4_1_table_a1", "table_a1_ablation", "mamba_table_11", "table_4_1_figure_c1", "table_4_3",
         "figure_4_2"]  # the files of the seed-0 runs

if __name__ == "__main__":  # the expected cost: launch's own estimate, with the seed-0 runs (other files' cells) as measured peers
    import sys
    from hyena_lit.launch import describe_plan, load_cells, plan
    device = sys.argv[1] if len(sys.argv) > 1 else "cpu"
    mine = load_cells(__file__)
    p = plan(mine + [c for f in PEERS for c in load_cells(f"{__file__.rsplit('/', 1)[0]}/{f}.py")], device)
    p = p[p.key.isin({c["key"] for c in mine})].assign(sweep=lambda d: d.key.str.rsplit("/", n=1).str[0])
    print(describe_plan(p))
    print(p.groupby("sweep").seconds.agg(["count", "sum"]).assign(hours=lambda d: (d["sum"] / 3600).round(2)).to_string())
    print("\nrows that need 3 seeds, the closest to their decision boundary first (distance in units of twice the noise):")
    print("\n".join(f"  {i}: {d:.2f} ({st})" for i, d, st in needing()))
