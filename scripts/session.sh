#!/usr/bin/env bash
# The campaigns' start and end of a session, in one place (the steps the closing notes used to list by hand).
#   bash scripts/session.sh start HH:MM   restore the runs the last session parked (scripts/park_runs.sh), set the campaigns'
#                                         deadline (UTC; today, or tomorrow once HH:MM has passed; or any date -d time) in runs/{associative_recall,mqar,mechanistic}/.campaign/, and
#                                         list the unfinished runs (params.json, no metrics.json): what the workers resume
#   bash scripts/session.sh end           stop this checkout's workers (campaign scripts, their papermill runs and those
#                                         runs' kernels), wait until they are gone, then park every unfinished run so that
#                                         the next session can resume it
# Launch the workers after `start` (see each campaign script's usage line). Never edit a campaign script while a worker
# runs it: bash reads a script as it goes, so an edit shifts what it reads next.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd -P)
unfinished() {
  find runs -path runs/parked -prune -o -name params.json -print | while read -r p; do
    d=$(dirname "$p"); [ -f "$d/metrics.json" ] && continue
    echo "  $d: $([ -f "$d/history.csv" ] && echo $(( $(wc -l < "$d/history.csv") - 1 )) || echo 0) epochs$([ -d "$d/checkpoint" ] && echo ", checkpoint" || echo ", no checkpoint")"
  done
}
mine() {  # pids of this user's processes matching the pattern whose working directory is this checkout
  for pid in $(pgrep -u "$(id -u)" -f "$1" || true); do [ "$(readlink "/proc/$pid/cwd" 2>/dev/null)" = "$here" ] && echo "$pid"; done; true
}
case "${1:-}" in
  start)
    at=${2:?usage: bash scripts/session.sh start HH:MM (UTC)}
    deadline=$(date -u -d "$at" +%FT%TZ) || { echo "not a time: $at" >&2; exit 2; }
    # a bare HH:MM that has passed today is tomorrow's (a session that crosses midnight UTC)
    if [[ $at =~ ^[0-9]{1,2}:[0-9]{2}$ ]] && [ "$(date -u -d "$deadline" +%s)" -le "$(date -u +%s)" ]; then
      deadline=$(date -u -d "tomorrow $at" +%FT%TZ); fi
    [ "$(date -u -d "$deadline" +%s)" -gt "$(date -u +%s)" ] || echo "warning: the deadline $deadline has passed: no run will start" >&2
    bash scripts/park_runs.sh restore
    for c in associative_recall mqar mechanistic; do mkdir -p runs/$c/.campaign; echo "$deadline" > runs/$c/.campaign/deadline; done
    echo "deadline $deadline (now $(date -u +%FT%TZ)); unfinished runs:"; unfinished ;;
  end)
    scripts=$(mine "bash scripts/[A-Za-z0-9_]*(campaign|walk)\.sh"); runs=$(mine "python3 -m papermill nbs/")
    [ -n "$scripts" ] && kill -TERM $scripts 2>/dev/null  # first the campaign scripts, so that no new run starts
    for pid in $runs; do pkill -TERM -P "$pid" || true; kill -TERM "$pid" 2>/dev/null || true; done  # each run's kernel, then the run
    for _ in $(seq 60); do
      alive=$(for pid in $scripts $runs; do [ -d /proc/$pid ] && echo $pid; done; true); [ -z "$alive" ] && break; sleep 1
    done
    [ -n "${alive:-}" ] && { echo "still running after 60 s: $alive (not parked)" >&2; exit 1; }
    echo "stopped: $(echo $scripts $runs | wc -w) processes"
    bash scripts/park_runs.sh park
    echo "unfinished runs:"; unfinished ;;
  *) echo "usage: bash scripts/session.sh start HH:MM | end" >&2; exit 2 ;;
esac
