#!/usr/bin/env bash
# Keep unfinished runs across sessions. A session's workers stop when it ends; a run they leave unfinished resumes from
# its checkpoint (one per epoch) when a worker reaches it again, but only if its folder, checkpoint included, is still
# there. What outlives a session has varied: on 2026-11-25 (morning) the git-ignored campaign folders (runs/*/.campaign)
# survived while an untracked run folder did not; that evening the untracked files of two unfinished runs (params.json,
# history.csv, the sweep notebook) survived while every git-ignored file did not, their checkpoints (*.pt,
# *.safetensors) included. So this packs each unfinished run, checkpoint and all, into one tar file in runs/parked/,
# which git does not ignore (a file there is untracked: never commit it; `git add` runs by path, never runs/ whole):
#   bash scripts/park_runs.sh park     at a session's end, workers stopped (scripts/session.sh end does both): every run
#                                      folder under runs/ with a checkpoint and no metrics.json -> runs/parked/<its path,
#                                      / as __>.tgz, unless the parked copy there has more finished epochs
#   bash scripts/park_runs.sh restore  at a session's start, before any worker: a parked run whose folder is missing,
#                                      holds fewer finished epochs or has no checkpoint is unpacked back; parked copies of
#                                      finished runs are removed
set -euo pipefail
cd "$(dirname "$0")/../runs"
PARK=parked
epochs() { [ -f "$1/history.csv" ] && echo $(( $(wc -l < "$1/history.csv") - 1 )) || echo 0; }  # finished epochs of a run folder
parked_epochs() { local n; n=$(tar xzOf "$1" "$2/history.csv" 2>/dev/null | wc -l); echo $(( n > 0 ? n - 1 : 0 )); }
running() { pgrep -f "papermill nbs/" > /dev/null; }  # a worker's run would race a restore, and its folder changes under a park
case "${1:-}" in
  park)
    running && { echo "a papermill run is still going: stop the workers first (scripts/session.sh end)" >&2; exit 1; }
    mkdir -p $PARK
    # a run killed between save_checkpoint's two renames has only checkpoint.old, its last good epoch: make it the checkpoint
    find . -path "./$PARK" -prune -o -type d -name checkpoint.old -print | while read -r old; do
      [ -d "${old%.old}" ] || mv "$old" "${old%.old}"; done
    find . -path "./$PARK" -prune -o -type d -name checkpoint -print | sort | while read -r ck; do
      run=${ck#./}; run=${run%/checkpoint}; [ -f "$run/metrics.json" ] && continue
      t="$PARK/${run//\//__}.tgz"
      if [ -f "$t" ] && [ "$(parked_epochs "$t" "$run")" -gt "$(epochs "$run")" ]; then
        echo "kept the parked runs/$run ($(parked_epochs "$t" "$run") epochs; the folder has $(epochs "$run"))"; continue; fi
      if tar czf "$t.part" "$run"; then mv "$t.part" "$t"; echo "parked runs/$run ($(epochs "$run") epochs, $(du -h "$t" | cut -f1))"
      else rm -f "$t.part"; echo "FAILED to park runs/$run" >&2; fi
    done ;;
  restore)
    running && { echo "a papermill run is going: restore before any worker starts" >&2; exit 1; }
    [ -d $PARK ] && ls $PARK/*.tgz > /dev/null 2>&1 || { echo "nothing parked"; exit 0; }
    for t in $PARK/*.tgz; do
      run=$(basename "$t" .tgz); run=${run//__//}
      if [ -f "$run/metrics.json" ]; then rm -f "$t"; echo "finished since: runs/$run"; continue; fi
      tmp=$(mktemp -d); tar xzf "$t" -C "$tmp"
      if [ ! -d "$run" ] || [ "$(epochs "$run")" -lt "$(epochs "$tmp/$run")" ] || [ ! -d "$run/checkpoint" ]; then
        rm -rf "$run"; mkdir -p "$(dirname "$run")"; mv "$tmp/$run" "$run"; echo "restored runs/$run ($(epochs "$run") epochs)"
      else echo "kept runs/$run ($(epochs "$run") epochs, parked $(epochs "$tmp/$run"))"; fi
      rm -rf "$tmp"
    done ;;
  *) echo "usage: bash scripts/park_runs.sh park|restore" >&2; exit 2 ;;
esac
