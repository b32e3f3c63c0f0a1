#!/usr/bin/env bash
# Issue 16: Table C.1 (Hyena at L = 2048) at a budget that can reach a plateau. The runs of sweep tableC1-cpu had a
# 3-minute cap (5-7 of Table A.1's 200 epochs, the filter-FFN bug included); here Hyena trains under the recipe that
# learns, the Figure 4.1 grid's (OFFICIAL_GRID: 400 epochs of 4000 examples, early stop at 100%), one run per
# vocabulary, into runs/associative_recall/tableC1-official. Vocabulary 10 first: at L = 256 it solved in 12 epochs.
# An epoch at L = 2048 is 8.2M tokens, about 3.5 minutes on one of two busy cores, so a run that does not solve early
# is a day of CPU: vocabularies 20-40 are listed with that length (MINUTES) and so start only under a deadline that
# far away, or on a GPU node (DEVICE=cuda).
# usage: nohup bash scripts/recall_tableC1_campaign.sh > runs/associative_recall/.campaign/worker-<n>.log 2>&1 &
set -uo pipefail
cd "$(dirname "$0")/.."
LOCKS=runs/associative_recall/.campaign; mkdir -p $LOCKS
source scripts/campaign.sh
MINUTES=${MINUTES_V10:-120} official_cell tableC1-official hyena 2048 10 0
for V in 20 30 40; do MINUTES=${MINUTES_LONG:-1440} official_cell tableC1-official hyena 2048 $V 0; done
