#!/usr/bin/env python3
"""Play many random-policy campaigns with the invariant checker run at every phase end.

    python scripts/check_invariants.py --games 1000 --seed 1 --workers 2
    python scripts/check_invariants.py --scenario brusilov/attack_on_schedule --option sga_early=true
    python scripts/check_invariants.py --scenario kaisers_battle/historical --games 2000
    python scripts/check_invariants.py --scenario goa/campaign --option colonies=true --games 10000

Prints one line per failing game (seed, game index, the broken invariant) and a summary; exits
1 if any game failed. The test suite runs a few such games every time; this script is for the
thousands.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor

import importlib

from gwe_fast import load_scenario
from gwe_fast.games import driver


def one(args):
    key, options, seed, index = args
    sc = load_scenario(key, options)
    d = driver(sc.game)
    invariants = importlib.import_module(f"gwe_fast.games.{sc.game}.invariants")
    try:
        game = d.new_game(sc, seed, index)
        d.play(game, check=invariants.check)
        if game.rejections:
            return index, f"{game.rejections} illegal decisions rejected"
        return index, ""
    except Exception as exc:  # noqa: BLE001 - every failure is reported with its game
        return index, f"{type(exc).__name__}: {exc}"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="brusilov/historical")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--option", action="append", default=[], help="NAME=VALUE")
    a = p.parse_args()
    options = dict(o.split("=", 1) for o in a.option)
    t0 = time.perf_counter()
    failed = 0
    jobs = [(a.scenario, options, a.seed, i) for i in range(a.games)]
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        for index, error in pool.map(one, jobs, chunksize=4):
            if error:
                failed += 1
                print(f"seed {a.seed} game {index}: {error}")
    print(f"{a.games} games of {a.scenario} (seed {a.seed}, options {options}) under the "
          f"invariant checker: {failed} failed, {time.perf_counter() - t0:.0f} s")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
