#!/usr/bin/env bash
# Issue 16, item 4: the budget ablation of MQAR's CPU-reduced grid. The 20-minute cap of scripts/mqar_campaign.sh gives
# Hyena about 10 epochs at L = 64, 4 pairs, width 64, where Zoology trains up to 64; Hyena there reaches 21.4% (lr
# 4.6e-4) against about 52% in Zoology's figure 2. This run trains the same cell at the same lr, data and settings
# for 30 epochs, three times the capped budget (uncapped, so the cosine spans all 30), into runs/mqar/cpu-100k-30ep:
# if the budget is what holds Hyena back, three times the epochs moves it toward Zoology's number. Thirty, not
# Zoology's 64: 30 epochs took 98 minutes beside a second worker (2026-11-25), which fits in one session (a run cut off by
# the end of a session loses its checkpoint here and starts over).
# usage: nohup bash scripts/mqar_budget_ablation.sh > runs/mqar/.campaign/worker-<n>.log 2>&1 &  (deadline as mqar_campaign.sh, which runs it)
cd "$(dirname "$0")/.."
SWEEP=cpu-100k-30ep EPOCHS=30 CAP=0 MINUTES=95 exec bash scripts/mqar_campaign.sh hyena 64 4 64 0.0004641588833612782
