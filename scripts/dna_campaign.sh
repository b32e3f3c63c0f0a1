#!/usr/bin/env bash
# The DNA CPU campaign of nbs/82_dna.ipynb ("The CPU campaign"): one list of runs, each a papermill call of 82_dna into
# runs/dna/cpu-v1/<run>/, that any number of workers walk together. A worker skips finished runs (metrics.json) and
# runs another worker holds (a flock on <run>/.lock, or a live papermill on that run's notebook), and waits for a
# classification run's pretrained model; so the same command resumes a killed campaign and two workers share it.
# usage: bash scripts/dna_campaign.sh   (the grid, then the ablations; start two, one thread each; logs in runs/dna/cpu-v1/<run>/run.log)
set -uo pipefail
cd "$(dirname "$0")/.."
SWEEP=cpu-v1; ROOT=runs/dna/$SWEEP
PRE="-p data genomes -p task pretrain -p steps 400 -p tokens_per_step 32768 -p n_test 512"
CLS="-p data genomes -p epochs 4 -p steps_per_epoch 64 -p batch_size 32 -p n_test 1024"
busy() { pgrep -f "$ROOT/$1/notebook.ipynb" > /dev/null; }
one() {  # one(run name, papermill parameters...)
  local name=$1; shift
  [ -f "$ROOT/$name/metrics.json" ] && return 0
  mkdir -p "$ROOT/$name"
  exec 9> "$ROOT/$name/.lock"
  if ! flock -n 9 || busy "$name"; then exec 9>&-; echo "busy elsewhere: $name"; return 0; fi
  echo "$(date -u +%FT%TZ) start: $name"
  python3 -m papermill nbs/82_dna.ipynb "$ROOT/$name/notebook.ipynb" -p sweep $SWEEP "$@" > "$ROOT/$name/run.log" 2>&1 \
    && echo "$(date -u +%FT%TZ) done: $name" || echo "$(date -u +%FT%TZ) FAILED: $name (see $ROOT/$name/run.log)"
  exec 9>&-
}
pretrained() {  # pretrained(model): wait while another worker pretrains it; true once its metrics exist
  local run=pretrain_$1_L1024_s0
  while [ ! -f "$ROOT/$run/metrics.json" ] && { busy $run || ! flock -n "$ROOT/$run/.lock" true 2>/dev/null; }; do sleep 60; done
  [ -f "$ROOT/$run/metrics.json" ] || { echo "skipped: $1 classification (no $run)"; return 1; }
}
classify() {  # classify(model): species at 2^6..2^10 and S. aureus strains at 2^8..2^10 from its 2^10 pretraining
  local m=$1; pretrained $m || return 0
  for L in 64 128 256 512 1024; do one species_${m}_L${L}_s0 $CLS -p task species -p model $m -p seq_len $L -p init_from $ROOT/pretrain_${m}_L1024_s0; done
  for L in 256 512 1024; do one s_aureus_${m}_L${L}_s0 $CLS -p task s_aureus -p model $m -p seq_len $L -p init_from $ROOT/pretrain_${m}_L1024_s0; done
}
for m in hyenadna mamba transformer++; do one pretrain_${m}_L1024_s0 $PRE -p model $m -p seq_len 1024; done
one pretrain_mamba_L4096_s0 $PRE -p model mamba -p seq_len 4096
for m in hyenadna mamba transformer++; do classify $m; done
for m in hyenadna transformer++; do one pretrain_${m}_L4096_s0 $PRE -p model $m -p seq_len 4096; done
# Ablations at 2^8 (5 species): why the models stay below the k-mer baseline. Budget (4x the epochs), learning rate
# (10x the paper's) and pretraining (none), one at a time, for the two sequence models.
ab() { local m=$1 tag=$2; shift 2; one species_${m}_L256_${tag}_s0 $CLS -p task species -p model $m -p seq_len 256 -p run_name species_${m}_L256_${tag}_s0 "$@"; }
for m in hyenadna mamba; do
  init="-p init_from $ROOT/pretrain_${m}_L1024_s0"
  ab $m ep16 $init -p epochs 16
  ab $m lr10x $init -p lr $([ $m = mamba ] && echo 1e-3 || echo 4e-4)
  ab $m scratch
done
