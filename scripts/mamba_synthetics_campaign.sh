#!/usr/bin/env bash
# The CPU campaign of the Mamba paper's synthetic tasks (issue 17), each item a papermill call of nbs/33_mechanistic
# under the Mamba protocol (fresh batches every step, constant lr) with a per-run CPU cap:
#   - table11-mamba-cpu: induction heads at 256, the three attention models, 40 minutes each (the paper trains them
#     25-50 epochs of 8192 steps; Hyena, H3 and Mamba solved it uncapped in table11-mamba), tested at 2^6..2^13
#     (RoPE, xPos: the paper's lengths) and 2^6..2^14 (absolute positions);
#   - selective-copying-cpu: Mamba E.1's selective copying at 256, Hyena, H3, attention and Mamba, 20 minutes each at
#     one learning rate 1e-3 (the paper: 1e-4 over 400K steps, 70x the steps a CPU run gets);
#   - selective-copying-cpu-40min: Mamba again with twice the cap (does it catch up with Hyena given more steps?).
# Any number of workers walk one list: a worker skips finished runs (metrics.json) and items another worker holds
# (flock), so the same command resumes a killed campaign (a run restarts from its last checkpoint in this checkout).
# A session that ends at a known time writes it to runs/mechanistic/.campaign/deadline (e.g. 2026-11-24T07:45Z): no
# run starts after it, since a run cut off by the end of a session is lost with its checkpoint.
# usage: nohup bash scripts/mamba_synthetics_campaign.sh > runs/mechanistic/campaign-<n>.log 2>&1 &   (start two)
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=runs/mechanistic
LOCKS=$ROOT/.campaign; mkdir -p $LOCKS
T11=(-p preset table11-mamba -p sweep table11-mamba-cpu -p max_minutes_per_run 40 -p evals_per_epoch 8 -p workers 1)
SC=(-p preset selective-copying -p sweep selective-copying-cpu -p max_minutes_per_run 20 -p evals_per_epoch 16 -p workers 1 -p protocol_lr 0.001 -y "seq_lens: [256]")
source scripts/campaign.sh
one() {  # one(sweep, run folder, tag, papermill parameters...)
  local sweep=$1 run=$2 tag=$3; shift 3
  mkdir -p "$ROOT/$sweep"
  item $LOCKS $run "$ROOT/$sweep/$run/metrics.json" "$ROOT/$sweep" -- \
    python3 -m papermill nbs/33_mechanistic.ipynb "$ROOT/$sweep/run-$(date -u +%Y%m%d-%H%M)-$tag.ipynb" "$@"
}
L13="[64, 128, 256, 512, 1024, 2048, 4096, 8192]"
one table11-mamba-cpu induction_heads_attention-rope_L256_V16_n2_s0 rope "${T11[@]}" -y "mixers: ['attention:rope']" -y "test_lens: $L13"
one table11-mamba-cpu induction_heads_attention_L256_V16_n2_s0 abs "${T11[@]}" -y "mixers: [attention]" -y "test_lens: [64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384]"
one table11-mamba-cpu induction_heads_attention-xpos_L256_V16_n2_s0 xpos "${T11[@]}" -y "mixers: ['attention:xpos']" -y "test_lens: $L13"
for m in mamba hyena h3 attention; do
  one selective-copying-cpu selective_copying_${m}_L256_V16_n2_s0 $m "${SC[@]}" -y "mixers: [$m]"
done
SC40=(-p preset selective-copying -p sweep selective-copying-cpu-40min -p max_minutes_per_run 40 -p evals_per_epoch 16 -p workers 1 -p protocol_lr 0.001 -y "seq_lens: [256]")
one selective-copying-cpu-40min selective_copying_mamba_L256_V16_n2_s0 mamba40 "${SC40[@]}" -y "mixers: [mamba]"
