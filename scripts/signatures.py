#!/usr/bin/env python3
"""Fingerprint whole games, to show that a change meant to be a speed-up plays the same games.

    python scripts/signatures.py --write results/parity/signatures.json    # record them
    python scripts/signatures.py --check results/parity/signatures.json    # compare with them

Plays ``--games`` games (default 12) of each game system (the Brusilov Offensive and The
Kaiser's Battle, historical scenarios) with each of the policies ``random``, ``passive``,
``greedy`` and ``doctrine`` on both sides, master seed ``--seed`` (default 31), with the event
log on, and hashes each game's record, per-turn rows and every event (SHA-256). With the
defaults that is 96 signatures. ``--check`` prints each game that differs and exits 1 if any
does; a change of the rules (a scenario's ``version`` goes up) is expected to change some, a
speed-up none: record them again after a change of the rules. ``--check`` with ``--limit N``
plays only the first N games of each game system and policy (the test suite checks one of
each against the committed file). The games run on ``--workers`` processes (default: every
core).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

SCENARIOS = ("brusilov/historical", "kaisers_battle/historical")
POLICIES = ("random", "passive", "greedy", "doctrine")
#: columns renamed since the signatures were recorded (results format 3 names every side
#: ``allied`` or ``central``): a game is hashed under the names it had then, so that a rename,
#: which changes no game, changes no signature
FORMER_RECORD_NAMES = {
    "vp_central_stacking_point_eliminated": "vp_central_powers_stacking_point_eliminated",
    "vp_central_stacking_point_eliminated_surrounded":
        "vp_central_powers_stacking_point_eliminated_surrounded",
    "vp_central_hq_eliminated": "vp_central_powers_hq_eliminated",
    "vp_allied_stacking_point_eliminated": "vp_russian_stacking_point_eliminated",
    "vp_allied_stacking_point_eliminated_surrounded":
        "vp_russian_stacking_point_eliminated_surrounded",
    "vp_allied_hq_eliminated": "vp_russian_hq_eliminated",
}
FORMER_TURN_NAMES = {"towns_held_allied": "towns_held_russian",
                     "towns_vp_allied": "towns_vp_russian"}


def _former(row: dict, names: dict[str, str]) -> dict:
    """``row`` with its keys as they were named when the signatures were recorded."""
    return {names.get(k, k): v for k, v in row.items()}


def signature(key: str, policy: str, seed: int, index: int) -> str:
    """The SHA-256 of one game's record, per-turn rows and events."""
    from gwe_fast import load_scenario
    from gwe_fast.games import driver
    from gwe_fast.policies.registry import make_policy

    sc = load_scenario(key)
    d = driver(sc.game)
    g = d.new_game(sc, seed, index, events=True,
                   policies={0: make_policy(policy), 1: make_policy(policy)})
    r = d.play(g)
    record = _former(d.record(g), FORMER_RECORD_NAMES)
    per_turn = [_former(t, FORMER_TURN_NAMES) for t in r.per_turn]
    blob = repr((record, r.vp, r.level, r.winner, per_turn, g.events))
    return hashlib.sha256(blob.encode()).hexdigest()


def _one(job: tuple[str, str, int, int]) -> tuple[str, str]:
    key, policy, seed, index = job
    return f"{key} {policy} {seed}:{index}", signature(key, policy, seed, index)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    what = ap.add_mutually_exclusive_group(required=True)
    what.add_argument("--write", type=Path, help="record the signatures in this JSON file")
    what.add_argument("--check", type=Path, help="compare with the signatures in this file")
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--limit", type=int, default=None,
                    help="with --check: only the first N games of each game and policy")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)

    if args.check is not None:
        try:
            ref = json.loads(args.check.read_text())
            seed, games, _ = int(ref["seed"]), int(ref["games"]), dict(ref["signatures"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            print(f"cannot read the signatures in {args.check}: {exc!r}", file=sys.stderr)
            return 2
        if args.limit is not None:
            games = min(games, max(args.limit, 0))
    else:
        seed, games = args.seed, args.games
    jobs = [(k, p, seed, i) for k in SCENARIOS for p in POLICIES for i in range(games)]
    t0 = time.perf_counter()
    if args.workers <= 1:
        sigs = dict(map(_one, jobs))
    else:
        with ProcessPoolExecutor(max_workers=args.workers) as pool:
            sigs = dict(pool.map(_one, jobs, chunksize=1))
    took = time.perf_counter() - t0

    if args.write is not None:
        args.write.parent.mkdir(parents=True, exist_ok=True)
        args.write.write_text(json.dumps({"seed": seed, "games": games, "signatures": sigs},
                                         indent=1, sort_keys=True) + "\n")
        print(f"{len(sigs)} signatures written to {args.write} ({took:.0f} s)")
        return 0
    differ = [k for k in sigs if ref["signatures"].get(k) != sigs[k]]
    for k in differ:
        print(f"differs: {k}")
    print(f"{len(sigs) - len(differ)} of {len(sigs)} game signatures as in {args.check} "
          f"({took:.0f} s)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
