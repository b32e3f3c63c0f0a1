#!/usr/bin/env bash
# Keep unfinished runs across sessions. A session's workers stop when it ends; a run they leave unfinished resumes from
# its checkpoint (one per epoch) when a worker reaches it again, but only if its folder is still there. Between two
# sessions the campaigns' git-ignored folders (runs/*/.campaign) have survived while an untracked run folder did not
# (2026-11-25), so this copies unfinished runs into a git-ignored folder and back:
#   bash scripts/park_runs.sh park     at a session's end, workers stopped (kill them, or SIGSTOP papermill and kernel):
#                                      every run folder under runs/ with a checkpoint and no metrics.json -> runs/.parked/
#   bash scripts/park_runs.sh restore  at a session's start, before any worker: a parked run whose folder is missing, or
#                                      holds fewer finished epochs, is copied back; parked copies of finished runs are removed
set -euo pipefail
cd "$(dirname "$0")/.."
PARK=runs/.parked
epochs() { [ -f "$1/history.csv" ] && echo $(( $(wc -l < "$1/history.csv") - 1 )) || echo 0; }  # finished epochs of a run folder
case "${1:-}" in
  park)
    find runs -path "$PARK" -prune -o -type d -name checkpoint -print | while read -r ck; do
      run=${ck%/checkpoint}; [ -f "$run/metrics.json" ] && continue
      mkdir -p "$PARK/${run#runs/}"; rm -rf "$PARK/${run#runs/}"; mkdir -p "$(dirname "$PARK/${run#runs/}")"
      cp -a "$run" "$PARK/${run#runs/}"; echo "parked $run ($(epochs "$run") epochs)"
    done ;;
  restore)
    [ -d "$PARK" ] || { echo "nothing parked"; exit 0; }
    find "$PARK" -type d -name checkpoint | while read -r ck; do
      p=${ck%/checkpoint}; run=runs/${p#$PARK/}
      if [ -f "$run/metrics.json" ]; then rm -rf "$p"; echo "finished since: $run"; continue; fi
      if [ ! -d "$run" ] || [ "$(epochs "$run")" -lt "$(epochs "$p")" ]; then
        rm -rf "$run"; mkdir -p "$(dirname "$run")"; cp -a "$p" "$run"; echo "restored $run ($(epochs "$run") epochs)"
      else echo "kept $run ($(epochs "$run") epochs, parked $(epochs "$p"))"; fi
    done ;;
  *) echo "usage: bash scripts/park_runs.sh park|restore" >&2; exit 2 ;;
esac
