#!/usr/bin/env bash
# Issue 16: Figure 4.1's official grid on a GPU node, inside ONE device call. WORKERS copies of recall_grid_campaign.sh
# with DEVICE=cuda share the GPU (each run is a one-thread papermill process; one alone leaves an H100 idle most of the
# time). Measured on an H100 (2026-11-24, 14 workers): 270-430k tokens/s per run, 4-5M together, about 8 minutes for
# an L = 128 run of the official recipe (400 epochs of 4000 examples) and about 15 for L = 256.
# Why one call: the device tool copies the working tree onto the machine at every call and removes the files the tree
# does not have, so the params.json and metrics.json a run wrote during an earlier call vanish (only git-ignored
# folders, the checkpoints, stay). The pilot of 2026-11-24 lost its runs' files that way (runs/associative_recall/
# gpu-pilot-20261124/README.md). So: a deadline CALL_MIN minutes from now stops the workers from starting a run that
# would not end in time; the script waits for them, then packs the finished runs (no checkpoints) into OUT/grid.tgz.
# Unpack it into runs/associative_recall/ here before the next call, and that call's workers skip those runs.
# STOP_SEC (default 570): a hard stop, so the packing happens before the device's 10-minute limit ends the command:
# runs still going then are killed and left out (a run is packed only with its metrics.json; a fresh machine would
# not have its checkpoint anyway). MINUTES_128/MINUTES_256: the length the deadline assumes for a run.
# usage (on the device): CALL_MIN=9 WORKERS=14 bash scripts/gpu_grid.sh "$OUT"
# NOTE (2026-11-26): the device image of that day had no papermill, so this launcher cannot run there without wheels;
# scripts/gpu_grid_direct.py trains the same cells through run_setting directly and brings unfinished runs back with
# their checkpoints (runs/associative_recall/gpu-h200-20261126: 16 L = 256 cells on an H200 in two calls).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: gpu_grid.sh OUT_DIR}
L=runs/associative_recall/.campaign; mkdir -p $L
date -u -d "+${CALL_MIN:-9} minutes" +%FT%TZ > $L/deadline
touch $L/.start
pids=()
for n in $(seq ${WORKERS:-14}); do
  DEVICE=cuda MINUTES_128=${MINUTES_128:-8} MINUTES_256=${MINUTES_256:-15} bash scripts/recall_grid_campaign.sh > $L/gpu-$n.log 2>&1 < /dev/null &
  pids+=($!); sleep 2
done
( sleep ${STOP_SEC:-570}; echo "$(date -u +%FT%TZ) hard stop"; pkill -TERM -f "papermill nbs/31"; pkill -TERM -f ipykernel ) > $L/stopper.log 2>&1 < /dev/null &
stopper=$!
wait "${pids[@]}"
kill $stopper 2>/dev/null
cd runs/associative_recall
{ for m in $(find fig4.1-official -name metrics.json -newer .campaign/.start); do
    r=$(dirname $m); find $r -type f ! -path '*checkpoint*'; ls fig4.1-official/sweep-*-$(basename $r).ipynb; done
  find fig4.1-official -maxdepth 1 -type f ! -name 'sweep-*' -newer .campaign/.start; } | sort -u | tar czf "$OUT/grid.tgz" -T -
tar czf "$OUT/logs.tgz" .campaign/gpu-*.log
grep -h "done:\|FAILED" .campaign/gpu-*.log | sort || true
