#!/usr/bin/env bash
# Issue 16: Figure 4.1 under the recipe that learns (nbs/31_associative_recall, "Figure 4.1 under the recipe that
# learns"): the six parametrizations in the official operator under the official synthetics recipe, one run per item,
# into runs/associative_recall/fig4.1-official. Order: the paper's question (vocabulary 40 at L = 128), Conv1d and FNO
# at vocabulary 10 (before calling them failures at 40, the easy case: do they learn at all?), vocabulary 30, the
# small vocabularies, L = 256 (Hyena's small vocabularies there come first: cheap, and Hyena is the paper's question).
# Hyena at vocabularies 30 and 40 is not here: under this recipe it is the walk's last
# step (ablation-L128, official-L256), the same run bit for bit (asserted in 31).
# usage: nohup bash scripts/recall_grid_campaign.sh > runs/associative_recall/.campaign/worker-<n>.log 2>&1 &
# Any number of workers share the list (flock per run); finished runs are skipped; a run that would end after
# runs/associative_recall/.campaign/deadline is not started (MINUTES: its expected length with two workers, from the
# official-recipe runs of 2026-11-24/25: 48-82 min at L = 128 for all 400 epochs (H3 the slowest), 110.5 at L = 256).
set -uo pipefail
cd "$(dirname "$0")/.."
LOCKS=runs/associative_recall/.campaign; mkdir -p $LOCKS
source scripts/campaign.sh
DEVICE=${DEVICE:-cpu}  # DEVICE=cuda on a GPU node (scripts/gpu_grid.sh): many workers share the GPU
SKIP=${SKIP:-}         # runs to leave to other workers, by run name, e.g. SKIP="conv1d_L128_V10_s0 fno_L128_V10_s0"
cell() {  # cell(parametrization, L, V[, seed]): seed 0 unless given
  case " $SKIP " in *" $1_L$2_V$3_s${4:-0} "*) return 0;; esac
  official_cell fig4.1-official $1 $2 $3 ${4:-0}
}
FIVE="conv1d fno ckconv transferfunc h3"
# Hyena first at every length (the paper's question): its cells at vocabularies 30 and 40 come from the walk, and at L = 128
# vocabulary 10 solves in 21 epochs, so L = 256's small vocabularies are cheap and come before the five others there.
MINUTES=${MINUTES_256:-120}; for V in 10 20; do cell hyena 256 $V; done
for L in 128 256; do
  [ $L = 128 ] && export MINUTES=${MINUTES_128:-85} || export MINUTES=${MINUTES_256:-120}  # a run's length (2 CPU workers; GPU: gpu_grid.sh)
  for p in $FIVE; do cell $p $L 40; done
  for p in conv1d fno; do cell $p $L 10; done  # the easy case of the explicit filters, which fail at 40
  for p in $FIVE; do cell $p $L 30; done
  for V in 10 20; do for p in hyena $FIVE; do cell $p $L $V; done; done
  [ $L = 128 ] && cell transferfunc 128 30 1  # a second seed: seed 0 reached 22.6 here, the GPU pilot's run of it 53.0
done
