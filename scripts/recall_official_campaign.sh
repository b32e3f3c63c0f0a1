#!/usr/bin/env bash
# Issue 16: Hyena under the official synthetics recipe (400 epochs of 4000 examples) where the issue asks for it:
# L = 256 at vocabulary 30 (the sweep official-L256 has vocabulary 40), a second seed at L = 128, vocabulary 40 (seed 0:
# 87.8%, the one cell below 90), and single-layer recall (Appendix C: one Hyena layer of width 64 solves vocabulary 40).
# Runs go through nbs/31_associative_recall (-p ablation True, the walk's last step). After its list it runs
# scripts/recall_ablation_campaign.sh (the walk's second seeds) and single-layer recall at twice the budget. Run it before
# scripts/recall_grid_campaign.sh: `bash scripts/recall_official_campaign.sh; bash scripts/recall_grid_campaign.sh`.
# usage: nohup bash scripts/recall_official_campaign.sh > runs/associative_recall/.campaign/worker-<n>.log 2>&1 &
# Any number of workers share the list (flock per run); finished runs are skipped; runs that would end after
# runs/associative_recall/.campaign/deadline are not started (MINUTES: expected length with two workers, measured
# 2026-11-24: 52.5 min at L = 128, 110.5 at L = 256).
set -uo pipefail
cd "$(dirname "$0")/.."
LOCKS=runs/associative_recall/.campaign; mkdir -p $LOCKS
source scripts/campaign.sh
official() {  # official(sweep, L, V, seed, more papermill parameters...)
  local sweep=$1 L=$2 V=$3 seed=$4 run=12-official_L$2_V$3_s$4; shift 4
  item $LOCKS $sweep-$run "runs/associative_recall/$sweep/$run/metrics.json" "runs/associative_recall/$sweep" -- \
    python3 -m papermill nbs/31_associative_recall.ipynb "runs/associative_recall/$sweep/sweep-$(date -u +%Y%m%d-%H%M)-official-L$L-V$V-s$seed.ipynb" \
    -p ablation True -y "ablation_steps: [official]" -y "seq_lens: [$L]" -y "vocab_sizes: [$V]" -y "seeds: [$seed]" -p sweep $sweep -p num_test 500 -p workers 1 "$@"
}
MINUTES=112 official official-L256 256 30 0
MINUTES=55 official ablation-L128 128 40 1
MINUTES=35 official single-layer-official 128 40 0 -p n_layer 1
bash scripts/recall_ablation_campaign.sh  # then the walk (its second seeds at vocabulary 30; finished runs are skipped)
# Single-layer recall with twice the official budget (800 epochs, warmup 80): is one layer's 75.0% at 400 epochs the
# budget? The grid's `hyena` with the official gating and FFN width 64 is the official operator (asserted in 31).
S1=runs/associative_recall/single-layer-official-800ep
MINUTES=60 item $LOCKS single-layer-official-800ep "$S1/hyena_L128_V40_s0/metrics.json" $S1 -- \
  python3 -m papermill nbs/31_associative_recall.ipynb "$S1/sweep-$(date -u +%Y%m%d-%H%M)-hyena-L128-V40-s0.ipynb" \
  "${OFFICIAL_GRID[@]}" -p n_layer 1 -p epochs 800 -p warmup_epochs 80 -p sweep single-layer-official-800ep -y "parametrizations: [hyena]" -y "seq_lens: [128]" -y "vocab_sizes: [40]"
