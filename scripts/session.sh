#!/usr/bin/env bash
# The campaigns' start and end of a session, in one place (the steps the closing notes used to list by hand).
#   bash scripts/session.sh start HH:MM   restore the runs the last session parked (scripts/park_runs.sh), set the campaigns'
#                                         deadline (UTC, today) in runs/{associative_recall,mqar,mechanistic}/.campaign/, and
#                                         list the unfinished runs (params.json, no metrics.json): what the workers resume
#   bash scripts/session.sh end           stop the workers (campaign scripts, their papermill runs and kernels), then park
#                                         every unfinished run so that the next session can resume it
# Launch the workers after `start` (see each campaign script's usage line). Never edit a campaign script while a worker
# runs it: bash reads a script as it goes, so an edit shifts what it reads next.
set -euo pipefail
cd "$(dirname "$0")/.."
unfinished() {
  find runs -path runs/parked -prune -o -name params.json -print | while read -r p; do
    d=$(dirname "$p"); [ -f "$d/metrics.json" ] && continue
    echo "  $d: $([ -f "$d/history.csv" ] && echo $(( $(wc -l < "$d/history.csv") - 1 )) || echo 0) epochs$([ -d "$d/checkpoint" ] && echo ", checkpoint" || echo ", no checkpoint")"
  done
}
case "${1:-}" in
  start)
    at=${2:?usage: bash scripts/session.sh start HH:MM (UTC)}
    deadline=$(date -u -d "$at" +%FT%TZ)
    bash scripts/park_runs.sh restore
    for c in associative_recall mqar mechanistic; do mkdir -p runs/$c/.campaign; echo "$deadline" > runs/$c/.campaign/deadline; done
    echo "deadline $deadline (now $(date -u +%FT%TZ)); unfinished runs:"; unfinished ;;
  end)
    pkill -TERM -f "scripts/[A-Za-z0-9_]*campaign\.sh|scripts/mqar_hyena_walk\.sh" || true
    pkill -TERM -f "papermill nbs/" || true; sleep 3; pkill -TERM -f ipykernel_launcher || true; sleep 2
    bash scripts/park_runs.sh park
    echo "unfinished runs:"; unfinished ;;
  *) echo "usage: bash scripts/session.sh start HH:MM | end" >&2; exit 2 ;;
esac
