#!/usr/bin/env python3
"""Play games on the compiled kernels and on their pure-Python twins and compare them.

    python scripts/check_parity.py --scenario kaisers_battle/historical --games 500 --seed 1
    python scripts/check_parity.py --scenario brusilov/historical --games 50 --seed 2 \
        --policy allied=greedy --policy central=greedy --log results/parity/parity.jsonl

Each game is played twice from the same seed and index, once on each implementation of the
kernels (``load_scenario(..., impl="pure")``), and must give the same record
(``driver.record``), the same per-turn rows, the same result and the same final state. Prints
one line per game that differs and a summary; with ``--log``, appends the summary as one JSON
line (the figures quoted in results/BENCHMARKS.md come from that file). Exits 1 if any game
differs or fails. The test suite plays three such games every time (tests/test_engine_parity.py);
this script is for the thousands.

With ``--reference engine`` the second game is played by the Python engine, the compiled core
(``games.kb.game.COMPILED_PHASES``, issue 28) off: it holds the core to the reference.

With ``--reference loop`` the second game is played on the compiled kernels too, but with a
random player's choices asked one by one by the engine's Python loops instead of drawn by the
kernels (the game's ``engine.COMPILED_RANDOM_MOVES`` off): the Movement Segments
(``kb_random_moves`` or ``gwe_random_moves``), The Great War in the East's command allocations
(``gwe_random_allocation``) and The Kaiser's Battle's declarations of attacks
(``KbObligations.random_declare``). It checks those kernels over many games, at compiled
speed.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from functools import lru_cache

from gwe_fast import __version__, load_scenario
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy


REFERENCES = {"pure": "on the pure-Python twins",
              "loop": "with the Python loops for a random player's choices",
              "engine": "with the Python engine instead of the compiled core"}


@lru_cache(maxsize=4)
def _scenario(key: str, options: tuple, impl: str | None):
    """The scenario, loaded once a worker (not again for every game)."""
    return load_scenario(key, dict(options), impl=impl)


def _play(scenario, seed: int, index: int, specs: dict[int, str]):
    d = driver(scenario.game)
    game = d.new_game(scenario, seed, index,
                      policies={s: make_policy(spec) for s, spec in specs.items()})
    result = d.play(game)
    return game, result, d.record(game)


def one(args) -> tuple[int, str, float, float]:
    """``(index, difference or error, seconds compiled, seconds of the reference)``."""
    key, options, seed, index, specs, reference = args
    try:
        fast = _scenario(key, tuple(sorted(options.items())), None)
        slow = _scenario(key, tuple(sorted(options.items())),
                         "pure" if reference == "pure" else None)
        t0 = time.process_time()
        g1, r1, rec1 = _play(fast, seed, index, specs)
        t1 = time.process_time()
        if reference == "loop":
            engine = importlib.import_module(f"gwe_fast.games.{fast.game}.engine")
            engine.COMPILED_RANDOM_MOVES = False
        elif reference == "engine":
            module = importlib.import_module(f"gwe_fast.games.{fast.game}.game")
            module.COMPILED_PHASES = False
        try:
            g2, r2, rec2 = _play(slow, seed, index, specs)
        finally:
            if reference == "loop":
                engine.COMPILED_RANDOM_MOVES = True
            elif reference == "engine":
                module.COMPILED_PHASES = True
        t2 = time.process_time()
    except Exception as exc:  # noqa: BLE001 - every failure is reported with its game
        return index, f"{type(exc).__name__}: {exc}", 0.0, 0.0
    diffs = []
    if rec1 != rec2:
        keys = sorted(k for k in set(rec1) | set(rec2) if rec1.get(k) != rec2.get(k))
        diffs.append(f"record differs in {', '.join(keys[:6])}")
    if r1.per_turn != r2.per_turn:
        diffs.append("per-turn rows differ")
    if (r1.vp, r1.level, r1.winner) != (r2.vp, r2.level, r2.winner):
        diffs.append(f"result {r1.vp} {r1.level} against {r2.vp} {r2.level}")
    if not g1.state.equals(g2.state):
        diffs.append("final states differ")
    if g1.rejections or g2.rejections:
        diffs.append(f"{g1.rejections} and {g2.rejections} illegal answers")
    return index, "; ".join(diffs), t1 - t0, t2 - t1


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="kaisers_battle/historical")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--first", type=int, default=0, help="first game index (default 0)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--option", action="append", default=[], help="NAME=VALUE")
    p.add_argument("--policy", action="append", default=[], help="SIDE=SPEC, SIDE allied|central")
    p.add_argument("--reference", choices=("pure", "loop", "engine"), default="pure",
                   help="play the second game on the pure-Python twins (default), with the "
                        "Python loops for a random player's choices, or with the Python "
                        "engine instead of the compiled core (The Kaiser's Battle)")
    p.add_argument("--log", help="append the summary as a JSON line to this file")
    a = p.parse_args()
    try:
        options = dict(o.split("=", 1) for o in a.option)
        sides = {"allied": 0, "central": 1}
        specs = {0: "random", 1: "random"}
        for spec in a.policy:
            side, value = spec.split("=", 1)
            if side not in sides:
                raise ValueError(f"unknown side {side!r} in --policy {spec} (allied or central)")
            specs[sides[side]] = value
            make_policy(value)
        game = load_scenario(a.scenario, options).game
        if a.reference == "engine" and not hasattr(
                importlib.import_module(f"gwe_fast.games.{game}.game"), "COMPILED_PHASES"):
            raise ValueError("--reference engine compares the hex games' compiled cores only "
                             f"(the game {game!r} has its own parity check)")
    except Exception as exc:  # noqa: BLE001 - a user's mistake: one sentence, exit 2
        print(f"check_parity: bad argument: {exc}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    failed, cpu_fast, cpu_pure = 0, [], []
    jobs = [(a.scenario, options, a.seed, i, specs, a.reference)
            for i in range(a.first, a.first + a.games)]
    with ProcessPoolExecutor(max_workers=a.workers) as pool:
        for index, error, tf, tp in pool.map(one, jobs, chunksize=1):
            if error:
                failed += 1
                print(f"seed {a.seed} game {index}: {error}", flush=True)
            else:
                cpu_fast.append(tf)
                cpu_pure.append(tp)
    wall = time.perf_counter() - t0
    ratio = sum(cpu_pure) / sum(cpu_fast) if cpu_fast else float("nan")
    print(f"{a.games} games of {a.scenario} (seed {a.seed}, indices {a.first}-"
          f"{a.first + a.games - 1}, options {options}, policies {specs[0]} v {specs[1]}) on "
          f"the compiled kernels and {REFERENCES[a.reference]}: {failed} differ or failed; "
          f"CPU {sum(cpu_fast):.0f} s compiled, {sum(cpu_pure):.0f} s {a.reference} "
          f"({ratio:.1f}x); {wall:.0f} s")
    if a.log:
        row = {"when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
               "version": __version__, "scenario": a.scenario, "options": options,
               "policies": {"allied": specs[0], "central": specs[1]}, "seed": a.seed,
               "first": a.first, "games": a.games, "reference": a.reference,
               "differ_or_failed": failed,
               "cpu_compiled_s": round(sum(cpu_fast), 2),
               f"cpu_{a.reference}_s": round(sum(cpu_pure), 2)}
        with open(a.log, "a") as f:
            f.write(json.dumps(row) + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
