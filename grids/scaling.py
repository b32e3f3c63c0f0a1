"""Scaling laws at CPU scale (Hyena's Figure 4.2 and Tables 4.3-4.4; the Mamba paper's appendix E.2, Figures 4 left
and 9): does Hyena reach the Transformer's perplexity at equal training compute, and do the improved recipe
(Transformer++, Hyena+, H3+) and Mamba lead, when every model is tuned the same way and no run repeats a token?

The ladder (`cells()`, the CPU's): 0.05M, 0.1M, 0.25M and 0.5M non-embedding parameters (`16_families.config_for`,
each family within 2.5% of the size), trained on 20 tokens per parameter (Chinchilla, as E.2) of the kernel's
documentation (`45_text_corpus`, `make text-data`) in tokens of a byte-level BPE of 1,024 (trained on the train split;
2.13 bytes a token; the training split holds 14.57M tokens, 28,450 windows of 512), context 512,
8 sequences (4,096 tokens) a step (up to 0.5M drawn with replacement, so a run reads some windows twice and others
never: the 0.5M runs read 19,528 windows, 14,048 of them distinct; the 1M rung reads a seeded permutation), 5% warmup and cosine decay, the family's recipe of E.2 (GPT3 for transformer and
hyena; the improved one for transformer++, hyena+, h3+ and mamba). From the smallest size to the largest, parameters and
tokens both grow 10x and training FLOPs 47-56x (1.67-1.74 decades: the head and attention's L^2 terms grow slower
than the parameters), from 0.7-1.4e12 to 3.7-6.8e13. Every run reports validation and test perplexity
and bits per byte.

The tokenizer was chosen by bits per byte at equal training FLOPs (`45_text_corpus`; the runs under
scaling/tokenizer/): at 0.1M, peak lr 3e-3, the transformer reached 4.00 bits per byte on bytes and 3.29 on BPE-1024,
Hyena 2.87 and 2.91. BPE-1024 costs Hyena 1% and saves the transformer 18%: it is the choice that does not
handicap the baseline.

Learning rates: every family at the two smallest sizes sweeps the same peak rates, 1e-3, 3e-3, 1e-2, 3e-2 and 1e-1 (for
the improved recipe `lr` is the peak over 5, the recipe's multiplier), and keeps the rate with the lowest final
validation loss. The grid began with the first three; at 0.05M five of the six families did best at 1e-2, the edge of
that range (validation bits per byte 2.71-3.49 against 3.06-3.59 at 3e-3; transformer++ 3.227 against 3.226), so 3e-2
joined the sweep for every family at both swept sizes. At 0.1M Hyena and H3+ then did best at 3e-2, again the edge
(validation perplexity 54.2 and 53.4), so 1e-1 joined for every family at both swept sizes. The larger sizes take the rate chosen at 0.1M (the largest swept size). Until a family's 0.1M sweep
has finished, its larger cells are left out of the grid (said on stderr). Test loss is read once at the end of every
run and never used to choose.

Cost, measured before launching (one training step of batch 8 x 512 bytes, AdamW, one thread: with the machine's
load average at 2.5-3.5, two threads ran 6-16x slower than one, so the grid runs with `--threads 1`), tokens/s:

| family | 0.1M | 0.25M | 1M |
|---|---|---|---|
| transformer | 31.5k | 11.1k | 3.8k |
| transformer++ | 30.8k | 15.8k | 2.8k |
| hyena | 40.9k | 20.0k | 6.4k |
| hyena+ | 38.6k | 18.4k | 6.9k |
| h3+ | 16.7k | 8.5k | 3.1k |
| mamba | 23.0k | 10.4k | 3.7k |

Scaled to BPE-1024 by the FLOPs of the larger head (the runner measured 19.4k for the transformer and 10.0k for
Hyena at 0.1M, with evaluation), tokens x cells / tokens/s: the 0.05M and 0.1M sweeps (36 cells of 1M and 2M tokens)
about 0.8 h, 0.25M (6 cells of 5M) about 0.9 h, 0.5M (6 cells of 10M) about 3 h, its slowest cell (h3+) about 45
minutes; with evaluation about 5.5 CPU-hours in all. A 1M size (20M tokens a cell, 2-3 h for the slowest) is beyond
the budget of 8 CPU-hours with the sweep.

`cells(ladder="gpu")` (or `SCALING_LADDER=gpu python -m hyena_lit.launch grids/scaling.py ...`) names
Table 12's ladder for a cluster instead: 125M / 350M / 760M / 1.3B (12 / 24 / 24 / 24 layers, width 768 / 1024 / 1536
/ 2048) on 2.5 / 7 / 15 / 26B tokens of The Pile with the GPT-2 tokenizer at context 2048, 0.5M tokens a step (256
sequences), the GPT3 rates 6e-4 / 3e-4 / 2.5e-4 / 2e-4 (5x under the improved recipe, E.2's rule), every family
matched to the transformer's non-embedding count at Table 12's depth.
"""
import json
import os
import sys
from pathlib import Path

from grids._common import cell, folder

CORPUS = "data/text/linux-doc-6.1"
TOKENIZER = "bpe-1024"
SIZES = {"0.05M": 0.05e6, "0.1M": 0.1e6, "0.25M": 0.25e6, "0.5M": 0.5e6, "1M": 1e6}
RUNG = "1M"                 # the rung added after the prediction below (rung_cells), not part of cpu_cells
SWEPT = ("0.05M", "0.1M")
# the middle rate first: the most informative cell of each family runs first; 3e-2 and 1e-1 last (added after the
# 0.05M and the 0.1M results)
RATES = (3e-3, 1e-3, 1e-2, 3e-2, 1e-1)
RULE_SIZE = "0.1M"          # the larger sizes take the rate chosen here
TOKENS_PER_PARAM = 20
SEQ_LEN, BATCH = 512, 8
# Table 12 of the Mamba paper: size -> (layers, width, tokens, GPT3 peak lr)
TABLE_12 = {"125M": (12, 768, 2.5e9, 6e-4), "350M": (24, 1024, 7e9, 3e-4), "760M": (24, 1536, 15e9, 2.5e-4),
            "1.3B": (24, 2048, 26e9, 2e-4)}
ROOT = Path(__file__).resolve().parents[1]


def slug(family: str) -> str:
    "A family's name in a folder name ('+' -> 'p': transformerpp, hyenap, h3p)."
    return family.replace("+", "p")


def run_name(family: str, size: str, peak: float) -> str:
    return f"{slug(family)}-{size}-lr{peak:.0e}"


def _params(family: str, size: str, peak: float, mcfg, tokens: float, seq_len: int, batch: int, dataset: str,
            tokenizer: str, micro_batch: int, eval_every: int, seed: int = 0, data_order: str = "random") -> dict:
    "Every TrainConfig setting of one run (the launcher's cell drops the machine-only ones)."
    from dataclasses import asdict
    from hyena_lit.experiments.lm_training import TrainConfig
    from hyena_lit.models.families import config_json, recipe_of
    recipe = recipe_of(family)
    return asdict(TrainConfig(
        size=f"{slug(family)}-{size}", model=config_json(mcfg), tokenizer=tokenizer, dataset=dataset, seq_len=seq_len,
        tokens=int(tokens), global_batch=batch, micro_batch=micro_batch, val_split="validation", test_split="test",
        lr=peak / 5 if recipe == "improved" else peak, recipe=recipe, warmup_frac=0.05, eval_every=eval_every,
        eval_batches=8, ckpt_every=500, final_eval_windows=0, seed=seed, data_order=data_order))


def tokenizer_cells(root="runs") -> list[dict]:
    """The tokenizer's choice (`45_text_corpus`): the transformer and Hyena at 0.1M on bytes and on BPE-1024 at equal
    training FLOPs (20 byte-tokens per parameter's worth), peak lr 3e-3."""
    from dataclasses import asdict
    from hyena_lit.experiments.lm_training import TrainConfig
    from hyena_lit.models.families import config_for, config_json, recipe_of
    from hyena_lit.models.flops import forward_flops
    from hyena_lit.data.text_corpus import vocab_size
    out = []
    for fam in ("transformer", "hyena"):
        budget = None
        for tok in ("bytes", "bpe-1024"):
            mcfg = config_for(fam, 1e5, vocab_size=vocab_size(tok), l_max=SEQ_LEN)
            per_token = 3 * sum(forward_flops(mcfg, SEQ_LEN, "appendix").values()) / SEQ_LEN
            budget = budget or per_token * TOKENS_PER_PARAM * 1e5
            tokens = int(budget / per_token) // (BATCH * SEQ_LEN) * (BATCH * SEQ_LEN)
            p = asdict(TrainConfig(size=f"{slug(fam)}-0.1M", model=config_json(mcfg), tokenizer=tok, dataset=CORPUS,
                                   seq_len=SEQ_LEN, tokens=tokens, global_batch=BATCH, micro_batch=BATCH,
                                   val_split="validation", test_split="test", lr=3e-3, recipe=recipe_of(fam),
                                   warmup_frac=0.05, eval_every=100, final_eval_windows=0))
            out.append(cell("lm", folder(root, "scaling", "tokenizer", f"{slug(fam)}-0.1M-{tok}"), p))
    return out


def chosen_rate(family: str, root="runs", size: str = RULE_SIZE) -> float | None:
    "The swept rate with the lowest final validation loss at `size`, once all its rates have finished; else None."
    losses = {}
    for peak in RATES:
        m = ROOT / folder(root, "scaling", "cpu", run_name(family, size, peak)) / "metrics.json"
        if not m.exists(): return None
        losses[peak] = json.loads(m.read_text())["val_loss"]
    return min(losses, key=losses.get)


def cpu_cells(root="runs") -> list[dict]:
    from hyena_lit.models.families import FAMILIES, config_for
    from hyena_lit.data.text_corpus import vocab_size
    out, left = [], []
    for size, n in SIZES.items():
        if size == RUNG: continue
        if size in SWEPT: plan = [(fam, peak) for peak in RATES for fam in FAMILIES]
        else:
            plan = []
            for fam in FAMILIES:
                peak = chosen_rate(fam, root)
                if peak is None: left.append(f"{fam} {size}")
                else: plan.append((fam, peak))
        for fam, peak in plan:
            mcfg = config_for(fam, n, vocab_size=vocab_size(TOKENIZER), l_max=SEQ_LEN)
            steps = TOKENS_PER_PARAM * n / (BATCH * SEQ_LEN)
            p = _params(fam, size, peak, mcfg, TOKENS_PER_PARAM * n, SEQ_LEN, BATCH, CORPUS, TOKENIZER, BATCH,
                        max(50, int(steps) // 10))
            out.append(cell("lm", folder(root, "scaling", "cpu", run_name(fam, size, peak)), p))
    if left:
        print(f"scaling.py: {len(left)} cell(s) wait for their family's {RULE_SIZE} sweep: {', '.join(left)}",
              file=sys.stderr)
    return out


def gpu_cells(root="runs") -> list[dict]:
    from hyena_lit.models.families import FAMILIES, config_for, family_config, non_embedding_params, recipe_of
    out = []
    for size, (layers, width, tokens, gpt3_lr) in TABLE_12.items():
        target = non_embedding_params(family_config("transformer", width, layers, 50257, 2048))
        for fam in FAMILIES:
            peak = gpt3_lr * (5 if recipe_of(fam) == "improved" else 1)  # E.2: the improved recipe's peak is 5x
            mcfg = config_for(fam, target, vocab_size=50257, l_max=2048, depth=layers)
            p = _params(fam, size, peak, mcfg, tokens, 2048, 256, "pile", "gpt2", 8, 500)
            out.append(cell("lm", folder(root, "scaling", "gpu", run_name(fam, size, peak)), p))
    return out


def lead_cells(root="runs", size: str = RULE_SIZE) -> list[dict]:
    """Where Hyena's lead over the transformers at small scale comes from (the rule, written before these runs: if
    Hyena without its short filter loses most of its lead, more than half of the validation-loss gap to the
    Transformer++ at `size`, the short filter's local mixing is the cause): Hyena and Hyena+ with
    short_filter_order = 0 (no width-3 depthwise convolution before the long convolution), at their family's width
    (the short filter's few parameters less) and the rate their family chose at `size`. Left out until that choice
    exists."""
    from hyena_lit.models.families import config_for
    from hyena_lit.models.model import HyenaConfig
    from hyena_lit.data.text_corpus import vocab_size
    out = []
    for fam in ("hyena", "hyena+"):
        peak = chosen_rate(fam, root, size)
        if peak is None: continue
        base = config_for(fam, SIZES[size], vocab_size=vocab_size(TOKENIZER), l_max=SEQ_LEN)
        mcfg = HyenaConfig(**{**base.to_dict(), "short_filter_order": 0})
        steps = TOKENS_PER_PARAM * SIZES[size] / (BATCH * SEQ_LEN)
        p = _params(fam, size, peak, mcfg, TOKENS_PER_PARAM * SIZES[size], SEQ_LEN, BATCH, CORPUS, TOKENIZER, BATCH,
                    max(50, int(steps) // 10))
        out.append(cell("lm", folder(root, "scaling", "lead", f"{run_name(fam, size, peak)}-noshort"), p))
    return out + position_cells(root)


LEAD_SIZES = ("0.1M", "0.25M")


def position_cells(root="runs") -> list[dict]:
    """The other side of the lead (the rule, written before these runs: if the GPT3-recipe transformer with rotary
    positions in place of its learned absolute ones closes more than half of the validation-loss gap to Hyena at a
    size, its learned positions are the cause of Hyena's lead there): the transformer with pos = "rope" at 0.1M and
    0.25M, at the rate its family chose at the rule size, every other setting the family's. The learned position
    table (512 x width) is an embedding, outside the non-embedding count, so the counted size does not change.
    Left out until the transformer's choice exists."""
    from hyena_lit.models.families import config_for
    from hyena_lit.models.model import HyenaConfig
    from hyena_lit.data.text_corpus import vocab_size
    peak = chosen_rate("transformer", root)
    if peak is None: return []
    out = []
    for size in LEAD_SIZES:
        base = config_for("transformer", SIZES[size], vocab_size=vocab_size(TOKENIZER), l_max=SEQ_LEN)
        mcfg = HyenaConfig(**{**base.to_dict(), "pos": "rope"})
        steps = TOKENS_PER_PARAM * SIZES[size] / (BATCH * SEQ_LEN)
        p = _params("transformer", size, peak, mcfg, TOKENS_PER_PARAM * SIZES[size], SEQ_LEN, BATCH, CORPUS,
                    TOKENIZER, BATCH, max(50, int(steps) // 10))
        out.append(cell("lm", folder(root, "scaling", "lead", f"{run_name('transformer', size, peak)}-rope"), p))
    return out


def _ladder_cell(root, sub: str, name: str, fam: str, size: str, peak: float, seed: int = 0,
                 data_order: str = "random", **model) -> dict:
    "One run of `fam` at `size` and peak rate `peak` (model fields overridden by `model`), under runs/scaling/<sub>/."
    from hyena_lit.models.families import config_for
    from hyena_lit.models.model import HyenaConfig
    from hyena_lit.data.text_corpus import vocab_size
    mcfg = config_for(fam, SIZES[size], vocab_size=vocab_size(TOKENIZER), l_max=SEQ_LEN)
    if model: mcfg = HyenaConfig(**{**mcfg.to_dict(), **model})
    steps = TOKENS_PER_PARAM * SIZES[size] / (BATCH * SEQ_LEN)
    p = _params(fam, size, peak, mcfg, TOKENS_PER_PARAM * SIZES[size], SEQ_LEN, BATCH, CORPUS, TOKENIZER, BATCH,
                max(50, int(steps) // 10), seed=seed, data_order=data_order)
    return cell("lm", folder(root, "scaling", sub, name), p)


PRIORITY = ("transformer++", "hyena+")   # the pair whose crossing the rung is run to test: first
SEED_FAMILIES, SEED_SIZE, SEEDS = ("transformer++", "hyena+", "mamba"), "0.5M", (1, 2)
INIT_SIZE = "0.25M"


def rung_cells(root="runs") -> list[dict]:
    """The 1M rung and what reads it, most decisive first, each left out until its family's rate is chosen:
    Transformer++ and Hyena+ at 1M; the init ablation; seeds 1 and 2 at 0.5M of Transformer++, Hyena+ and Mamba; the
    other four families at 1M; then a 3-rate check at 1M for Transformer++ and Hyena+ (the chosen rate's neighbours
    in RATES). Its rule: the held rate stands for a family when its validation bits per byte is the lowest of the
    three (written after Transformer++'s neighbours were read, before any of Hyena+'s).

    1M reads 20 tokens per parameter like every rung, 20.0M tokens, but the training split holds 14.57M (28,450
    windows of 512): in a single pass (`data_order="single_pass"`) it reads every window once and 37% of them a second
    time, in a new order. The 0.5M seeds and the init ablation keep the committed runs' order (`random`, windows drawn
    with replacement), so each differs from the run it is set beside in one thing only.

    The prediction, written before any 1M run was read (`46_scaling_results.rung_prediction`): each family's power
    law of validation bits per byte on executed training FLOPs (`14_flops`, convention "executed"), fitted on its four
    rungs at the chosen rate, log10 on log10, a 95% prediction interval with t on 2 degrees of freedom:

    | family | FLOPs at 1M | predicted bpb (95% interval) | exponent b (95%) |
    |---|---|---|---|
    | transformer | 1.73e14 | 2.00 (1.85-2.15) | 0.103 (0.087-0.119) |
    | transformer++ | 1.73e14 | 1.66 (1.23-2.24) | 0.127 (0.065-0.190) |
    | hyena | 1.36e14 | 1.67 (1.50-1.84) | 0.100 (0.080-0.121) |
    | hyena+ | 1.37e14 | 1.63 (1.45-1.84) | 0.094 (0.070-0.118) |
    | h3+ | 1.27e14 | 1.61 (1.39-1.87) | 0.105 (0.076-0.135) |
    | mamba | 1.50e14 | 1.58 (1.41-1.77) | 0.097 (0.074-0.119) |

    Where the lines cross (Monte Carlo over each fit's coefficients, t on 2 degrees of freedom): Transformer++ reaches
    Hyena+'s bits per byte at 5.5e14 executed FLOPs (a rung of about 2M parameters; 95% interval 1.4e13 to beyond any
    budget: in 9% of draws it never crosses), and Hyena's at 4.0e14 (8.8e12 to beyond any budget; 12% never). The
    rule, written before the runs: at 1M Transformer++ still trails Hyena+ if its measured bpb is above Hyena+'s; the
    prediction holds for a family if its measured bpb lies inside its interval."""
    from hyena_lit.models.families import FAMILIES
    out, later = [], []
    rate = {fam: chosen_rate(fam, root) for fam in FAMILIES}
    ordered = list(PRIORITY) + [f for f in FAMILIES if f not in PRIORITY]
    for fam in ordered:
        if rate[fam] is None: continue
        c = _ladder_cell(root, "cpu", run_name(fam, RUNG, rate[fam]), fam, RUNG, rate[fam], data_order="single_pass")
        (out if fam in PRIORITY else later).append(c)
    if rate["transformer++"] is not None:
        from hyena_lit.models.families import config_for
        d = config_for("transformer++", SIZES[INIT_SIZE], vocab_size=1024, l_max=SEQ_LEN).d_model
        out.append(_ladder_cell(root, "lead", f"{run_name('transformer++', INIT_SIZE, rate['transformer++'])}-init",
                                "transformer++", INIT_SIZE, rate["transformer++"], initializer_range=round(d ** -0.5, 6)))
    for s in SEEDS:
        for fam in SEED_FAMILIES:
            if rate[fam] is None: continue
            out.append(_ladder_cell(root, "seeds", f"{run_name(fam, SEED_SIZE, rate[fam])}-s{s}", fam, SEED_SIZE,
                                    rate[fam], seed=s))
    out += later
    for fam in PRIORITY:
        if rate[fam] is None: continue
        for peak in rate_neighbours(rate[fam]):
            out.append(_ladder_cell(root, "cpu", run_name(fam, RUNG, peak), fam, RUNG, peak, data_order="single_pass"))
    return out


RATES_SORTED = sorted(RATES)


def rate_neighbours(rate: float) -> list[float]:
    "The swept rates next to `rate`, below and above (one at an edge): the 3-rate check's other two cells."
    i = RATES_SORTED.index(rate)
    return RATES_SORTED[max(0, i - 1):i] + RATES_SORTED[i + 1:i + 2]


def cells(root="runs", ladder: str | None = None) -> list[dict]:
    "The CPU ladder, or Table 12's with ladder='gpu' (the launcher passes it as SCALING_LADDER=gpu)."
    ladder = ladder or os.environ.get("SCALING_LADDER", "cpu")
    if ladder not in ("cpu", "gpu"): raise ValueError(f"error: ladder must be 'cpu' or 'gpu', got {ladder!r}")
    return tokenizer_cells(root) + cpu_cells(root) + lead_cells(root) + rung_cells(root) if ladder == "cpu" \
        else gpu_cells(root)


# rung_cells' prediction as data, written with it before any 1M run: family -> (bits per byte, 95% interval low,
# high) at the 1M cell's executed FLOPs. 46_scaling_results refits the four committed rungs and checks it gets these.
PREDICTION = {"transformer": (1.998, 1.853, 2.154), "transformer++": (1.661, 1.232, 2.240),
              "hyena": (1.665, 1.504, 1.843), "hyena+": (1.634, 1.447, 1.844), "h3+": (1.608, 1.386, 1.865),
              "mamba": (1.580, 1.413, 1.767)}
