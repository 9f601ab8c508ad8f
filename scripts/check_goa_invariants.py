#!/usr/bin/env python3
"""Run The Guns of August's invariant checker at the end of every month of many random games of
each bundled start, on the compiled core (issue 27: 10,000 games of each start).

    python scripts/check_goa_invariants.py                       # 10,000 games of each start
    python scripts/check_goa_invariants.py --games 500 --starts goa/1916 goa/1917
    python scripts/check_goa_invariants.py --out results/goa/invariants.json

The games of a start go round the pairwise option sets of ``games/goa/parity.py`` (every pair
of two options' values appears), game ``i`` playing set ``i % 15`` with master seed
``--seed`` and game index ``i``; both sides play at random. ``games/goa/invariants.check``
runs at every month's end (no country at war with itself, points never negative, control
consistent, a conquered country produces nothing, each squadron in exactly one place, ...).
Prints one line per failing game and a line per start; with ``--out`` writes the figures as
JSON (and, beside it, the same as a Markdown table). Exits 1 if any game failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

STARTS = ("goa/campaign", "goa/1915", "goa/1916", "goa/1917", "goa/1918")
_SCENARIOS: dict = {}


def _scenario(key: str, n: int):
    """The scenario of start ``key`` under option set ``n`` (loaded once a worker)."""
    from gwe_fast import load_scenario
    from gwe_fast.games.goa.parity import option_combinations

    if (key, n) not in _SCENARIOS:
        _SCENARIOS[key, n] = load_scenario(key, option_combinations()[n])
    return _SCENARIOS[key, n]


def chunk(job) -> tuple[int, int, list[str], float]:
    """Games ``first .. last - 1`` of a start: ``(games, months checked, failures, CPU s)``."""
    key, seed, first, last = job
    from gwe_fast.games.goa import invariants
    from gwe_fast.games.goa.game import GoaGame
    from gwe_fast.games.goa.parity import option_combinations

    n_sets = len(option_combinations())
    t0 = time.process_time()
    months = 0
    failures = []
    for i in range(first, last):
        sc = _scenario(key, i % n_sets)
        game = GoaGame(sc, seed, i)
        seen = []

        def after(month: int) -> None:
            seen.append(month)
            invariants.check(game, month)

        try:
            game.play(after)
            if game.rejections:
                failures.append(f"{key} game {i}: {game.rejections} illegal decisions rejected")
        except Exception as exc:  # noqa: BLE001 - each failure is reported with its game
            failures.append(f"{key} game {i} (option set {i % n_sets}): "
                            f"{type(exc).__name__}: {exc}")
        months += len(seen)
    return last - first, months, failures, time.process_time() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--starts", nargs="+", default=list(STARTS), metavar="SCENARIO")
    ap.add_argument("--games", type=int, default=10_000, help="games of each start")
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", type=Path, help="write the figures here (JSON, and .md beside)")
    a = ap.parse_args(argv)
    if a.games < 1 or a.workers < 1:
        print("check_goa_invariants: --games and --workers must be at least 1", file=sys.stderr)
        return 2
    from gwe_fast import bundled_scenarios

    unknown = [k for k in a.starts if k not in bundled_scenarios() or not k.startswith("goa/")]
    if unknown:
        print(f"check_goa_invariants: not a bundled Guns of August start: {unknown[0]!r}",
              file=sys.stderr)
        return 2
    rows = []
    step = 250
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        for key in a.starts:
            t0 = time.perf_counter()
            jobs = [(key, a.seed, i, min(a.games, i + step)) for i in range(0, a.games, step)]
            games = months = 0
            cpu = 0.0
            failures: list[str] = []
            for g, m, f, c in pool.map(chunk, jobs):
                games, months, cpu = games + g, months + m, cpu + c
                failures += f
            for line in failures:
                print(line)
            row = {"start": key, "games": games, "months_checked": months,
                   "failed": len(failures), "cpu_s": round(cpu, 1),
                   "wall_s": round(time.perf_counter() - t0, 1)}
            rows.append(row)
            print(f"{key}: {games} games, {months} months checked, {len(failures)} failed "
                  f"({cpu:.0f} CPU s)", flush=True)
    failed = sum(r["failed"] for r in rows)
    if a.out:
        a.out.parent.mkdir(parents=True, exist_ok=True)
        meta = {"command": "python scripts/check_goa_invariants.py " + " ".join(argv or sys.argv[1:]),
                "seed": a.seed, "date": datetime.now(timezone.utc).strftime("%Y-%m-%d"),
                "option_sets": "games/goa/parity.option_combinations() (pairwise), game i plays set i % 15",
                "policies": "random, both sides", "engine": "compiled core"}
        a.out.write_text(json.dumps({"meta": meta, "starts": rows}, indent=1) + "\n")
        md = ["# The Guns of August: the invariant checker over random games", "",
              f"`{meta['command']}` ({meta['date']}, seed {a.seed}; {meta['option_sets']}; "
              f"random policies on both sides, the compiled core).", "",
              "| start | games | months checked | failed | CPU s |", "|---|---:|---:|---:|---:|"]
        md += [f"| {r['start']} | {r['games']:,} | {r['months_checked']:,} | {r['failed']} | "
               f"{r['cpu_s']:.0f} |" for r in rows]
        a.out.with_suffix(".md").write_text("\n".join(md) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
