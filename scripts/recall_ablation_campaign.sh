#!/usr/bin/env bash
# The walk from Table A.1 to the official synthetics recipe (issue 16; nbs/31_associative_recall, -p ablation True):
# Hyena at L = 128 on vocabularies 30 and 40, one ABLATION step per run, in the walk's order, into the one sweep
# runs/associative_recall/ablation-L128. Steps 00-04 (and 05 at 40), 11 and 12 are done; this list is steps 05-10.
# Each run is 200 epochs of 2000 examples (10-17 minutes on one core, measured 2026-11-24 with two workers). Any
# number of workers walk the list (flock per run); finished runs are skipped.
# usage: nohup bash scripts/recall_ablation_campaign.sh > runs/associative_recall/.campaign/worker-<n>.log 2>&1 &
# A session that ends at a known time writes it to runs/associative_recall/.campaign/deadline (e.g. 2026-11-24T07:45Z):
# no run starts that would end after it (MINUTES), since a run cut off by the end of a session is lost with its checkpoint.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=runs/associative_recall/ablation-L128
LOCKS=runs/associative_recall/.campaign; mkdir -p $LOCKS
source scripts/campaign.sh
one() {  # one(step index, step name, vocabulary)
  local run=$(printf %02d $1)-$2_L128_V$3_s0
  item $LOCKS $run "$ROOT/$run/metrics.json" "$ROOT" -- \
    python3 -m papermill nbs/31_associative_recall.ipynb "$ROOT/sweep-$(date -u +%Y%m%d-%H%M)-$2-V$3.ipynb" -p ablation True \
    -y "ablation_steps: [$2]" -y "seq_lens: [128]" -y "vocab_sizes: [$3]" -p sweep ablation-L128 -p num_test 500 -p workers 1
}
i=5
for step in filter-lr frozen-pos decay-all d-inner-256 embed-dropout beta2; do
  for V in 30 40; do MINUTES=17 one $i $step $V; done  # 30 first: where the walk moves (at 40 steps 03-05 change nothing)
  i=$((i + 1))
done
