"""HyenaDNA (the Mamba paper's appendix E.3, 82_dna): next-base pretraining on 20 bacterial genomes at 2^10 (and
2^12) bases for HyenaDNA, Mamba and Transformer++ of one size, then each pretrained model fine-tuned to tell 5
species apart (segments of 2^6 to 2^10 bases) and 5 S. aureus strains (2^8 to 2^10). Does a longer context help the
classifier, and does pretraining? Three controls at 2^8: 16 epochs, 10x the lr, no pretraining. A first, smaller
sweep (`cpu`) checked the pipeline end to end. A fine-tuning cell reads its pretraining run: launch those first."""
from grids._common import cell, folder

MODELS = ["hyenadna", "mamba", "transformer++"]
LR_10X = {"hyenadna": 4e-4, "mamba": 1e-3}  # ten times each model's fine-tuning lr (dna.SPECIES_LR)
DEFAULTS = dict(  # 82_dna's parameters
    data="genomes", size=0, steps=0, tokens_per_step=0, slw_from=1024, epochs=0, steps_per_epoch=1024, batch_size=0,
    lr=0.0, micro_batch=0, n_regions=20, min_contig=500_000, kmer_k=6, init_from="", seed=0)


def run(root, sweep, name, **p) -> dict: return cell("dna", folder(root, "dna", sweep, name), dict(DEFAULTS, **p))


def pretrained(root, sweep, m) -> str: return str(folder(root, "dna", sweep, f"pretrain_{m}_L1024_s0"))


def pipeline_check(root, sweep="cpu") -> list[dict]:
    pre = dict(task="pretrain", seq_len=1024, steps=30, tokens_per_step=4096, n_test=32)
    tune = dict(task="species", epochs=2, steps_per_epoch=16, batch_size=16, lr=1e-3, n_test=256)
    return ([run(root, sweep, f"pretrain_{m}_L1024_s0", model=m, **pre) for m in MODELS]
            + [run(root, sweep, f"species_{m}_L{L}_s0", model=m, seq_len=L, init_from=pretrained(root, sweep, m),
                   **tune) for m in MODELS for L in (64, 128)])


def cells(root="runs") -> list[dict]:
    sweep, pre = "cpu-v1", dict(task="pretrain", steps=400, tokens_per_step=32_768, n_test=512)
    out = [run(root, sweep, f"pretrain_{m}_L{L}_s0", model=m, seq_len=L, **pre) for L in (1024, 4096) for m in MODELS]
    for m in MODELS:
        tune = dict(model=m, init_from=pretrained(root, sweep, m), epochs=4, steps_per_epoch=64, batch_size=32,
                    n_test=1024)
        for task, lengths in (("species", (64, 128, 256, 512, 1024)), ("s_aureus", (256, 512, 1024))):
            out += [run(root, sweep, f"{task}_{m}_L{L}_s0", task=task, seq_len=L, **tune) for L in lengths]
        if m == "transformer++": continue
        control = dict(tune, task="species", seq_len=256)  # the controls, at 2^8
        out += [run(root, sweep, f"species_{m}_L256_ep16_s0", **dict(control, epochs=16)),
                run(root, sweep, f"species_{m}_L256_lr10x_s0", **dict(control, lr=LR_10X[m])),
                run(root, sweep, f"species_{m}_L256_scratch_s0", **dict(control, init_from=""))]
    return pipeline_check(root) + out
