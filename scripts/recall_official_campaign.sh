#!/usr/bin/env bash
# Issue 16: the official synthetics recipe (400 epochs of 4000 examples) on Hyena where the done-when asks for it:
# L = 256 at vocabulary 30 (the sweep official-L256 has vocabulary 40) and a second seed at L = 128, vocabulary 40 (seed 0:
# 87.8%, the one cell below 90). Runs go through nbs/31_associative_recall (-p ablation True, the walk's last step).
# usage: nohup bash scripts/recall_official_campaign.sh > runs/associative_recall/.campaign/worker-<n>.log 2>&1 &
# Any number of workers share the list (flock per run); finished runs are skipped; runs that would end after
# runs/associative_recall/.campaign/deadline are not started (MINUTES: expected length with two workers, measured).
set -uo pipefail
cd "$(dirname "$0")/.."
LOCKS=runs/associative_recall/.campaign; mkdir -p $LOCKS
source scripts/campaign.sh
official() {  # official(sweep, L, V, seed)
  local run=12-official_L$2_V$3_s$4
  item $LOCKS $run "runs/associative_recall/$1/$run/metrics.json" "runs/associative_recall/$1" -- \
    python3 -m papermill nbs/31_associative_recall.ipynb "runs/associative_recall/$1/sweep-$(date -u +%Y%m%d-%H%M)-official-L$2-V$3-s$4.ipynb" \
    -p ablation True -y "ablation_steps: [official]" -y "seq_lens: [$2]" -y "vocab_sizes: [$3]" -y "seeds: [$4]" -p sweep $1 -p num_test 500 -p workers 1
}
MINUTES=80 official official-L256 256 30 0
MINUTES=42 official ablation-L128 128 40 1
