#!/bin/sh
# The balance study of issue 7: every sweep of this folder, then one report per sweep.
# Run from the repository root: sh results/balance/run.sh [WORKERS]  (default: every core).
# A sweep that was interrupted resumes where it stopped when this is run again.
set -e
W=${1:-0}
for s in brusilov_historical_passive brusilov_attack_on_schedule_passive \
         brusilov_historical_greedy brusilov_attack_on_schedule_greedy \
         kaisers_battle_passive kaisers_battle_greedy; do
    gwe sweep "results/balance/$s.toml" --workers "$W" --out "results/balance/$s"
    gwe report "results/balance/$s" --out "results/balance/$s/report" > "results/balance/$s/report.txt"
done
