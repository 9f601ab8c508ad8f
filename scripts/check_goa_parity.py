#!/usr/bin/env python3
"""Play games of The Guns of August on the reference engine and on the compiled core and
compare them decision by decision, die by die and byte by byte (``games/goa/parity.py``).

    python scripts/check_goa_parity.py --every --games 1            # every option combination
    python scripts/check_goa_parity.py --games 200 --seed 7 --workers 2
    python scripts/check_goa_parity.py --scenario goa/campaign --games 100

Each game is played three times from the same seed and index: on the reference engine, on the
core with every decision answered in Python, and on the core with its random players inside
(``parity.compare``). The world is the tests' tiny world (``tests/games/goa/tiny.py``) unless
``--scenario`` names a Guns of August scenario; the option sets are a set covering every pair
of two options' values, or with ``--every`` all 2,560 legal combinations; ``--games`` games
are played for each. Prints one line per game that differs, then a summary (games played,
games different, CPU seconds); with ``--log``, appends the summary as one JSON line. Exits 1
if any game differs or fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _tables(scenario: str | None, options: dict):
    if scenario is None:
        sys.path.insert(0, str(ROOT / "tests" / "games" / "goa"))
        import tiny

        from gwe_fast.games.goa.tables import compile_tables

        return compile_tables(tiny.raw(), options)
    from gwe_fast import load_scenario

    return load_scenario(scenario, options).goa


def one(job) -> tuple[int, dict, int, str | None, float]:
    """``(combination number, options, game index, difference or None, CPU seconds)``."""
    n, options, scenario, seed, index = job
    from gwe_fast.games.goa.parity import compare

    t0 = time.process_time()
    try:
        found = compare(_tables(scenario, options), seed, index)
    except Exception as exc:  # noqa: BLE001 - a failure is reported with its game
        found = f"failed: {type(exc).__name__}: {exc}"
    return n, options, index, found, time.process_time() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Example: python scripts/check_goa_parity.py --every --games 1")
    ap.add_argument("--scenario", default=None,
                    help="a Guns of August scenario (key or file); default: the tiny world")
    ap.add_argument("--every", action="store_true",
                    help="every legal option combination (2,560) instead of a pairwise cover")
    ap.add_argument("--games", type=int, default=10, help="games for each option set")
    ap.add_argument("--seed", type=int, default=1, help="master seed")
    ap.add_argument("--first", type=int, default=0, help="first game index")
    ap.add_argument("--workers", type=int, default=1, help="processes")
    ap.add_argument("--log", type=Path, default=None, help="append the summary here (JSON line)")
    args = ap.parse_args(argv)
    if args.games < 1 or args.workers < 1 or args.seed < 0 or args.first < 0:
        print("error: --games and --workers must be at least 1, --seed and --first at least 0",
              file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT / "src"))
    from gwe_fast.games.goa.parity import option_combinations

    combos = option_combinations(every=args.every)
    jobs = [(n, o, args.scenario, args.seed, args.first + (n * args.games + g))
            for n, o in enumerate(combos) for g in range(args.games)]
    t0 = time.time()
    cpu = 0.0
    differ = 0
    done = 0
    pool = ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    results = pool.map(one, jobs, chunksize=4) if pool else map(one, jobs)
    try:
        for n, options, index, found, seconds in results:
            done += 1
            cpu += seconds
            if found is not None:
                differ += 1
                print(f"option set {n} {options} game {index}: {found}", flush=True)
            if done % 100 == 0:
                print(f"... {done}/{len(jobs)} games, {differ} different, "
                      f"{time.time() - t0:.0f} s", file=sys.stderr, flush=True)
    finally:
        if pool:
            pool.shutdown()
    summary = {"when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
               "scenario": args.scenario or "tiny", "option_sets": len(combos),
               "every": args.every, "seed": args.seed, "games": done, "different": differ,
               "cpu_seconds": round(cpu, 1), "wall_seconds": round(time.time() - t0, 1)}
    print(f"{done} games ({len(combos)} option sets x {args.games}, seed {args.seed}) on the "
          f"reference engine and the core: {differ} different; {cpu:.0f} CPU seconds")
    if args.log is not None:
        with open(args.log, "a") as f:
            f.write(json.dumps(summary) + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
