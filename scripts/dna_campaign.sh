#!/usr/bin/env bash
# The DNA CPU campaign of nbs/82_dna.ipynb ("The CPU campaign"): one worker's queue of runs, each a papermill call
# of 82_dna into runs/dna/cpu-v1/<run>/; finished runs are skipped, so the same command resumes a killed queue.
# usage: bash scripts/dna_campaign.sh A|B   (two workers, one thread each; logs in runs/dna/cpu-v1/<run>/run.log)
set -uo pipefail
cd "$(dirname "$0")/.."
SWEEP=cpu-v1; ROOT=runs/dna/$SWEEP
PRE="-p data genomes -p task pretrain -p steps 400 -p tokens_per_step 32768 -p n_test 512"
CLS="-p data genomes -p epochs 4 -p steps_per_epoch 64 -p batch_size 32 -p n_test 1024"
one() {  # one(run name, papermill parameters...)
  local name=$1; shift
  [ -f "$ROOT/$name/metrics.json" ] && { echo "finished: $name"; return 0; }
  mkdir -p "$ROOT/$name"
  echo "$(date -u +%FT%TZ) start: $name"
  python3 -m papermill nbs/82_dna.ipynb "$ROOT/$name/notebook.ipynb" -p sweep $SWEEP "$@" > "$ROOT/$name/run.log" 2>&1 \
    && echo "$(date -u +%FT%TZ) done: $name" || echo "$(date -u +%FT%TZ) FAILED: $name (see $ROOT/$name/run.log)"
}
queue() {  # queue(model): pretrain at 2^10, then species at 2^6..2^10 and S. aureus strains at 2^8..2^10 from it
  local m=$1 init=$ROOT/pretrain_$1_L1024_s0
  one pretrain_${m}_L1024_s0 $PRE -p model $m -p seq_len 1024
  for L in 64 128 256 512 1024; do one species_${m}_L${L}_s0 $CLS -p task species -p model $m -p seq_len $L -p init_from $init; done
  for L in 256 512 1024; do one s_aureus_${m}_L${L}_s0 $CLS -p task s_aureus -p model $m -p seq_len $L -p init_from $init; done
}
case "${1:-}" in
  A) queue hyenadna; one pretrain_hyenadna_L4096_s0 $PRE -p model hyenadna -p seq_len 4096
     one pretrain_transformer++_L4096_s0 $PRE -p model transformer++ -p seq_len 4096 ;;
  B) queue mamba; queue transformer++; one pretrain_mamba_L4096_s0 $PRE -p model mamba -p seq_len 4096 ;;
  *) echo "usage: $0 A|B" >&2; exit 2 ;;
esac
