# Sourced by the campaign scripts: one item of a campaign that any number of workers share.
# item LOCKS NAME DONE PORTABLE -- COMMAND...: skip when DONE (a metrics.json) exists, when the run would end after the
# time in LOCKS/deadline (now + $MINUTES, the run's expected length, default 0) or when another worker holds
# LOCKS/NAME.lock. A run stopped on the same machine resumes from its checkpoint (one per epoch) when a worker reaches
# it again; but checkpoints are git-ignored, and a new session starts from a fresh checkout without them, so there a
# run cut off by the end of the previous session starts over: set the deadline to the session's end (an earlier one
# frees the cores for, say, a full CI run);
# else run COMMAND with its output in LOCKS/NAME.log, then strip machine paths from the text files under PORTABLE.
item() {
  local locks=$1 name=$2 done=$3 portable=$4; shift 5
  [ -f "$done" ] && return 0
  if [ -f "$locks/deadline" ] && [ $(( $(date -u +%s) + 60 * ${MINUTES:-0} )) -gt "$(date -u -d "$(cat "$locks/deadline")" +%s)" ]; then
    echo "$name (${MINUTES:-0} min) would end past the deadline: not started"; return 0; fi
  exec 9> "$locks/$name.lock"
  if ! flock -n 9; then exec 9>&-; echo "busy elsewhere: $name"; return 0; fi
  mkdir -p "$portable"  # the sweep folder papermill writes its notebook into
  echo "$(date -u +%FT%TZ) start: $name"
  "$@" > "$locks/$name.log" 2>&1 && echo "$(date -u +%FT%TZ) done: $name" || echo "$(date -u +%FT%TZ) FAILED: $name (see $locks/$name.log)"
  python3 -c "import sys; from hyena_lit.runs import make_portable; make_portable(sys.argv[1])" "$portable"
  exec 9>&-
}
# The papermill parameters of 31_associative_recall's official-recipe grid (Figure 4.1 under the recipe that learns):
# the official synthetics recipe, model and operator, uncapped, one worker. recall_grid_campaign.sh and the 800-epoch
# single-layer run of recall_official_campaign.sh share them.
OFFICIAL_GRID=(-p recipe official-synthetics -p num_train 4000 -p num_test 500 -p d_inner 256 -p embed_dropout 0.1 -p w 10.0
               -p longconv_gating official -p longconv_ffn_width 64 -p max_minutes_per_run 0 -p workers 1)
# official_cell SWEEP PARAMETRIZATION L V SEED: one run of 31_associative_recall under OFFICIAL_GRID into
# runs/associative_recall/SWEEP (lock SWEEP-<run>; DEVICE cpu unless set; THREADS torch threads, 1 unless set: THREADS=2
# for one worker alone on both cores, whose runs then end in about half the time), the item of the recall campaigns.
official_cell() {
  local root=runs/associative_recall/$1 run=$2_L$3_V$4_s$5
  item runs/associative_recall/.campaign $1-$run "$root/$run/metrics.json" "$root" -- \
    python3 -m papermill nbs/31_associative_recall.ipynb "$root/sweep-$(date -u +%Y%m%d-%H%M)-$run.ipynb" \
    "${OFFICIAL_GRID[@]}" -p sweep $1 -p device ${DEVICE:-cpu} -p threads ${THREADS:-1} \
    -y "parametrizations: [$2]" -y "seq_lens: [$3]" -y "vocab_sizes: [$4]" -y "seeds: [$5]"
}
