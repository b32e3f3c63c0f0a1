"""Bits per base by position for every finished pretraining run of a DNA sweep (nbs/experiments/82_dna.ipynb, `pretrain_position_bpb`):
writes position_bpb.csv into each run folder that lacks one and has its checkpoint; 83_dna_results plots them.
usage: python scripts/dna_position_bpb.py [sweep (default cpu-v1)] [--force]"""
import sys
from hyena_lit.experiments.dna import pretrain_position_bpb
from hyena_lit.core.paths import project_root, relative, is_finished

if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    sweep_dir = project_root() / "runs" / "dna" / (args[0] if args else "cpu-v1")
    if not sweep_dir.is_dir(): sys.exit(f"{relative(sweep_dir)} does not exist")
    for d in sorted(sweep_dir.glob("pretrain_*")):
        if not is_finished(d) or ((d / "position_bpb.csv").exists() and "--force" not in sys.argv): continue
        if not (d / "checkpoint" / "model.safetensors").exists(): print(f"skipped {d.name}: no checkpoint here"); continue
        out = pretrain_position_bpb(d)
        print(d.name, " ".join(f"{r.first}-{r.last}:{r.bpb:.3f}" for r in out.itertuples()), flush=True)
