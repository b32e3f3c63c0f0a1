#!/usr/bin/env bash
# Issue 16: the short explicit filters, an ablation of Figure 4.1 under the official recipe (nbs/31_associative_recall,
# "The short filters"). The paper's Hyena parametrization is an FFN filter with a decay window *and* short explicit
# filters on the projections; CKConv is the FFN alone, and the other four have no short filters either. Under the
# official recipe at L = 128 and vocabulary 40, Hyena reaches 91% and CKConv 44.6%: which of the two additions is it?
# And do the explicit filters fail at 40 for want of their long filter or of the short ones? One run per item, the
# official grid's parameters (campaign.sh OFFICIAL_GRID) plus longconv_short_filter, one sweep folder per value:
# fig4.1-official-short-filters (3: every parametrization gets Hyena's) and fig4.1-official-no-short-filters (0).
# First CKConv and Conv1d with them and Hyena without (2026-11-24), then the middle tier (H3, TransferFunc) with them,
# then FNO, the last parametrization without them in the grid.
# usage: as recall_grid_campaign.sh (any number of workers, flock per run, runs/associative_recall/.campaign/deadline).
set -uo pipefail
cd "$(dirname "$0")/.."
LOCKS=runs/associative_recall/.campaign; mkdir -p $LOCKS
source scripts/campaign.sh
export MINUTES=60  # L = 128 with two workers: 48-63 min
cell() {  # cell(parametrization, L, V, short filter length, sweep)
  local run=$1_L$2_V$3_s0 root=runs/associative_recall/$5
  item $LOCKS $5-$run "$root/$run/metrics.json" "$root" -- \
    python3 -m papermill nbs/31_associative_recall.ipynb "$root/sweep-$(date -u +%Y%m%d-%H%M)-$run.ipynb" \
    "${OFFICIAL_GRID[@]}" -p longconv_short_filter $4 -p sweep $5 \
    -y "parametrizations: [$1]" -y "seq_lens: [$2]" -y "vocab_sizes: [$3]"
}
cell ckconv 128 40 3 fig4.1-official-short-filters   # Hyena without its decay window
cell conv1d 128 40 3 fig4.1-official-short-filters   # the explicit filter with Hyena's short filters
cell hyena 128 40 0 fig4.1-official-no-short-filters # Hyena without its short filters (CKConv with the decay window)
cell h3 128 40 3 fig4.1-official-short-filters       # S4D with the short filters: H3's own shift-and-diagonal design
cell transferfunc 128 40 3 fig4.1-official-short-filters
cell fno 128 40 3 fig4.1-official-short-filters
