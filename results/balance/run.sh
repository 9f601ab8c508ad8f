#!/bin/sh
# The balance study of issue 30: every sweep of this folder, one report per sweep, then
# SUMMARY.md (every cell, and the even victory line of each scenario at each strength).
# The sweep files are written by scripts/balance_sweeps.py (delay_claim_*.toml by hand).
# Run from the repository root: sh results/balance/run.sh [WORKERS]  (default: every core).
# A sweep that was interrupted resumes where it stopped when this is run again; a finished
# one is read back, not replayed.
set -e
W=${1:-0}
B=results/balance
SWEEPS="brusilov_historical_random brusilov_historical_greedy brusilov_historical_lookahead
        brusilov_attack_on_schedule_random brusilov_attack_on_schedule_greedy
        brusilov_attack_on_schedule_lookahead
        kaisers_battle_random kaisers_battle_greedy kaisers_battle_lookahead
        brusilov_historical_towns_random brusilov_historical_towns_greedy
        brusilov_attack_on_schedule_towns_random brusilov_attack_on_schedule_towns_greedy
        delay_claim_greedy delay_claim_lookahead"
for s in $SWEEPS; do
    gwe sweep "$B/$s.toml" --workers "$W" --out "$B/$s"
    gwe report "$B/$s" --out "$B/$s/report" > "$B/$s/report.txt"
done
python3 scripts/balance_summary.py $(for s in $SWEEPS; do echo "$B/$s"; done) > "$B/SUMMARY.md"
