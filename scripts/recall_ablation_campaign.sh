#!/usr/bin/env bash
# The walk from Table A.1 to the official synthetics recipe (issue 16; nbs/31_associative_recall, -p ablation True):
# Hyena at L = 128 on vocabularies 30 and 40, one ABLATION step per run, in the walk's order, into the one sweep
# runs/associative_recall/ablation-L128. Steps 00-12 at seed 0 are done (this list's first part is steps 05-10); its
# second part is a second seed of steps 08-11 at vocabulary 30, where seed 0 fell from 93.0% (08) to 68.4% when step 09
# added embedding dropout and came back to 85.8% and 80.2% (10, 11): the dropout, or the seed?
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
one() {  # one(step index, step name, vocabulary[, seed])
  local seed=${4:-0} run=$(printf %02d $1)-$2_L128_V$3_s${4:-0}
  item $LOCKS $run "$ROOT/$run/metrics.json" "$ROOT" -- \
    python3 -m papermill nbs/31_associative_recall.ipynb "$ROOT/sweep-$(date -u +%Y%m%d-%H%M)-$2-V$3-s$seed.ipynb" -p ablation True \
    -y "ablation_steps: [$2]" -y "seq_lens: [128]" -y "vocab_sizes: [$3]" -y "seeds: [$seed]" -p sweep ablation-L128 -p num_test 500 -p workers 1
}
i=5
for step in filter-lr frozen-pos decay-all d-inner-256 embed-dropout beta2; do
  for V in 30 40; do MINUTES=17 one $i $step $V; done  # 30 first: where the walk moves (at 40 steps 03-05 change nothing)
  i=$((i + 1))
done
i=8
for step in d-inner-256 embed-dropout beta2 linear; do MINUTES=17 one $i $step 30 1; i=$((i + 1)); done
