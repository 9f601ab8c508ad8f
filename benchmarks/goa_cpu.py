"""CPU per campaign of The Guns of August on the compiled core (and, with ``--reference``, on
the reference engine), for comparing versions and for instruction counts.

    python benchmarks/goa_cpu.py --games 200                  # the tiny world, every variant
    python benchmarks/goa_cpu.py --games 200 --options colonies=true,land=fronts
    python benchmarks/goa_cpu.py --scenario goa/campaign --games 200
    python benchmarks/goa_cpu.py --scenario goa/campaign --policy greedy --games 50
    python benchmarks/goa_cpu.py --scenario goa/campaign --policy historical --game --games 50
    python benchmarks/goa_cpu.py --scenario goa/campaign --games 5 --allied lookahead --central greedy

prints the CPU milliseconds of each of a few batches of ``--games`` campaigns (games 0 .. of
master seed 0, each from the scenario's start), their median per campaign and the decisions a
campaign asks. ``--policy`` (random, passive, greedy, historical) plays on both sides, unless
``--allied`` / ``--central`` name a side's own (any spec of the ladder, ``lookahead:k=v,...``
too); the core plays alone (a new ``GoaCore`` a game, the ladder policy's parameters given as
``GoaGame`` gives them), or with ``--game`` through ``GoaGame``, the policies made as ``gwe
run`` makes them (``policies.registry.make_policy``): what the game adds around the core (and
a policy that answers in Python, as greedy and historical did before they were compiled).
The world is the tests' tiny world (``tests/games/goa/tiny.py``) unless ``--scenario`` names a
Guns of August scenario.

Instruction counts, which this noisy machine repeats, are the difference of two runs under
callgrind, divided by the games (``results/BENCHMARKS.md``)::

    PYTHONHASHSEED=0 setarch x86_64 -R valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python3.11 benchmarks/goa_cpu.py --games 0
    PYTHONHASHSEED=0 setarch x86_64 -R valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python3.11 benchmarks/goa_cpu.py --games 100 --batches 1

(``python3.11`` the interpreter itself, not a launcher script that valgrind would count
instead.)
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def tables(scenario, options: dict):
    """The ``GoaTables`` of a scenario, or of the tiny world when ``scenario`` is None."""
    if scenario is None:
        sys.path.insert(0, str(ROOT / "tests" / "games" / "goa"))
        import tiny

        from gwe_fast.games.goa.tables import compile_tables

        return compile_tables(tiny.raw(), options)
    from gwe_fast import load_scenario

    return load_scenario(scenario, options).goa


def parse_options(text: str) -> dict:
    out = {}
    for item in filter(None, text.split(",")):
        name, _, value = item.partition("=")
        out[name] = value if name == "land" else value.lower() in ("1", "true", "yes", "on")
    return out


def _compiled(spec: str, t):
    """``(level, params, setup)`` of a policy spec that answers inside the core."""
    from gwe_fast._core.goa import LEVEL_RANDOM
    from gwe_fast.policies.registry import make_policy

    if spec == "random":
        return LEVEL_RANDOM, {}, None
    policy = make_policy(spec)
    impl = policy.impl("goa") if callable(getattr(policy, "impl", None)) else policy
    level = impl.core_level()
    if level is None:
        raise SystemExit(f"policy {spec!r} does not answer inside the compiled core")
    params = impl.core_params(t) if callable(getattr(impl, "core_params", None)) else {}
    return level, params, getattr(impl, "core_setup", None)


def core_campaigns(t, games: int, first: int = 0, policies=("random", "random")) -> int:
    """Play ``games`` campaigns on the core alone, ``policies`` (Allied, Central Powers)
    inside it; the decisions they asked."""
    from gwe_fast._core.goa.engine import GoaCore

    sides = [_compiled(spec, t) for spec in policies]
    n = 0
    for i in range(first, first + games):
        core = GoaCore(t, seed=0, game_index=i, levels=(sides[0][0], sides[1][0]))
        for side, (_, params, setup) in enumerate(sides):
            if params:
                core.set_params(side, **params)
            if setup is not None:
                setup(core, side)
        core.run()
        n += core.decisions
    return n


def game_campaigns(t, games: int, first: int = 0, policy: str = "random",
                   engine: str = "core") -> int:
    """Play ``games`` campaigns through ``GoaGame``, ``policy`` on both sides; the decisions
    they asked."""
    from gwe_fast.games.goa.game import GoaGame
    from gwe_fast.policies.registry import make_policy

    n = 0
    for i in range(first, first + games):
        g = GoaGame(_Scenario(t), 0, i, engine=engine,
                    policies={side: make_policy(policy) for side in (0, 1)})
        g.play()
        n += g.decisions
    return n


class _Scenario:
    """What ``GoaGame`` and the ladder's policies read of a scenario."""

    game = "goa"

    def __init__(self, t):
        self.goa = t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default=None)
    ap.add_argument("--options", default="", help="name=value,... (default: the defaults)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--batches", type=int, default=5)
    ap.add_argument("--reference", action="store_true", help="the reference engine instead")
    ap.add_argument("--policy", default="random",
                    choices=("random", "passive", "greedy", "historical"),
                    help="the ladder policy of both sides (default: random)")
    ap.add_argument("--allied", default=None,
                    help="the Allied policy (a ladder spec, lookahead:k=v,... too); default --policy")
    ap.add_argument("--central", default=None, help="the Central Powers' policy, likewise")
    ap.add_argument("--game", action="store_true",
                    help="through GoaGame, as gwe run plays (default: the core alone)")
    args = ap.parse_args(argv)
    t = tables(args.scenario, parse_options(args.options))
    if args.reference or args.game:
        def play(t, games, first):
            return game_campaigns(t, games, first, args.policy,
                                  "reference" if args.reference else "core")
    else:
        def play(t, games, first):
            return core_campaigns(t, games, first, (args.allied or args.policy,
                                                    args.central or args.policy))
    if args.games == 0:
        play(t, 1, 10_000)            # warm-up only: the baseline of an instruction count
        return 0
    play(t, 1, 10_000)
    per = []
    decisions = 0
    for b in range(args.batches):
        t0 = time.process_time()
        decisions = play(t, args.games, b * args.games)
        per.append((time.process_time() - t0) / args.games * 1e3)
    print(f"{args.scenario or 'tiny'} {args.options or 'defaults'} "
          f"{'reference' if args.reference else ('game' if args.game else 'core')} "
          f"(allied {args.allied or args.policy}, central {args.central or args.policy}): "
          + " ".join(f"{x:.3f}" for x in per)
          + f" ms a campaign; median {statistics.median(per):.3f} ms; "
          f"{decisions / args.games:.0f} decisions a campaign")
    return 0


if __name__ == "__main__":
    sys.exit(main())
