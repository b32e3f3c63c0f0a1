"""HyenaDNA (appendix E.3 of the Mamba paper, 82_dna): next-base pretraining on 20 bacterial genomes at 2^10 (and
2^12) bases for HyenaDNA, Mamba and Transformer++ of one size, then fine-tuning each pretrained model to tell 5 species
(segments of 2^6 to 2^10 bases) and 5 S. aureus strains (2^8 to 2^10) apart. Does the longer context help the
classifier, and does pretraining? Three controls at 2^8: 16 epochs, 10x the lr, no pretraining. A first, smaller sweep
(`cpu`) checked the pipeline end to end. A fine-tuning cell reads its pretraining run: launch those first."""
from experiments._common import cell, folder

MODELS = ["hyenadna", "mamba", "transformer++"]
DEFAULTS = dict(data="genomes", size=0, steps=0, tokens_per_step=0, slw_from=1024, epochs=0, steps_per_epoch=1024, batch_size=0,
                lr=0.0, micro_batch=0, n_regions=20, min_contig=500_000, kmer_k=6, init_from="", seed=0)  # 82_dna's parameters


def run(root, sweep, name, **p) -> dict:
    return cell("dna", folder(root, "dna", sweep, name), dict(DEFAULTS, **p))


def pretrained(root, sweep, m) -> str: return str(folder(root, "dna", sweep, f"pretrain_{m}_L1024_s0"))


def pipeline_check(root) -> list[dict]:
    sweep = "cpu"
    pre = [run(root, sweep, f"pretrain_{m}_L1024_s0", task="pretrain", model=m, seq_len=1024, steps=30, tokens_per_step=4096, n_test=32)
           for m in MODELS]
    return pre + [run(root, sweep, f"species_{m}_L{L}_s0", task="species", model=m, seq_len=L, epochs=2, steps_per_epoch=16,
                      batch_size=16, lr=1e-3, n_test=256, init_from=pretrained(root, sweep, m)) for m in MODELS for L in (64, 128)]


def cells(root="runs") -> list[dict]:
    sweep = "cpu-v1"
    pre = dict(task="pretrain", steps=400, tokens_per_step=32_768, n_test=512)
    cls = dict(epochs=4, steps_per_epoch=64, batch_size=32, n_test=1024)
    out = [run(root, sweep, f"pretrain_{m}_L{L}_s0", model=m, seq_len=L, **pre) for L in (1024, 4096) for m in MODELS]
    for m in MODELS:
        tune = dict(cls, model=m, init_from=pretrained(root, sweep, m))
        out += [run(root, sweep, f"species_{m}_L{L}_s0", task="species", seq_len=L, **tune) for L in (64, 128, 256, 512, 1024)]
        out += [run(root, sweep, f"s_aureus_{m}_L{L}_s0", task="s_aureus", seq_len=L, **tune) for L in (256, 512, 1024)]
    for m, lr10x in (("hyenadna", 4e-4), ("mamba", 1e-3)):  # the controls, at 2^8
        tune = dict(cls, task="species", model=m, seq_len=256, init_from=pretrained(root, sweep, m))
        out += [run(root, sweep, f"species_{m}_L256_ep16_s0", **dict(tune, epochs=16)),
                run(root, sweep, f"species_{m}_L256_lr10x_s0", **dict(tune, lr=lr10x)),
                run(root, sweep, f"species_{m}_L256_scratch_s0", **dict(tune, init_from=""))]
    return pipeline_check(root) + out
