#!/usr/bin/env bash
# The walk from Table A.1 to the official synthetics recipe (issue 16; nbs/31_associative_recall, -p ablation True):
# Hyena at L = 128 on vocabularies 40 and 30, one ABLATION step per run, in the walk's order, into the one sweep
# runs/associative_recall/ablation-L128. Each run is 200 epochs of 2000 examples (about 30 minutes on one core while
# another run shares the machine). Any number of workers walk the list (flock per run); finished runs are skipped.
# usage: nohup bash scripts/recall_ablation_campaign.sh > runs/associative_recall/.campaign/worker-<n>.log 2>&1 &
# A session that ends at a known time writes it to runs/associative_recall/.campaign/deadline (e.g. 2026-11-24T07:45Z):
# no run starts after it, since a run cut off by the end of a session is lost with its checkpoint.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=runs/associative_recall/ablation-L128
LOCKS=runs/associative_recall/.campaign; mkdir -p $LOCKS
one() {  # one(step index, step name, vocabulary)
  local i=$1 step=$2 V=$3 run=$(printf %02d $1)-$2_L128_V$3_s0
  [ -f "$ROOT/$run/metrics.json" ] && return 0
  if [ -f $LOCKS/deadline ] && [ "$(date -u +%s)" -gt "$(date -u -d "$(cat $LOCKS/deadline)" +%s)" ]; then echo "past the deadline: $run not started"; return 0; fi
  exec 9> "$LOCKS/$run.lock"
  if ! flock -n 9; then exec 9>&-; echo "busy elsewhere: $run"; return 0; fi
  echo "$(date -u +%FT%TZ) start: $run"
  python3 -m papermill nbs/31_associative_recall.ipynb "$ROOT/sweep-$(date -u +%Y%m%d-%H%M)-$step-V$V.ipynb" -p ablation True \
    -y "ablation_steps: [$step]" -y "seq_lens: [128]" -y "vocab_sizes: [$V]" -p sweep ablation-L128 -p num_test 500 -p workers 1 \
    > "$LOCKS/$run.log" 2>&1 && echo "$(date -u +%FT%TZ) done: $run" || echo "$(date -u +%FT%TZ) FAILED: $run (see $LOCKS/$run.log)"
  python3 -c "import sys; from hyena_lit.runs import make_portable; make_portable(sys.argv[1])" "$ROOT"  # no machine paths in artifacts
  exec 9>&-
}
i=3
for step in emb-5 w-10 filter-lr frozen-pos decay-all d-inner-256 embed-dropout beta2; do
  for V in 40 30; do one $i $step $V; done  # 40 first: where the walk's gap is
  i=$((i + 1))
done
