"""CPU per random campaign of The Guns of August on the compiled core (and, with
``--reference``, on the reference engine), for comparing versions and for instruction counts.

    python benchmarks/goa_cpu.py --games 200                  # the tiny world, every variant
    python benchmarks/goa_cpu.py --games 200 --options colonies=true,land=fronts
    python benchmarks/goa_cpu.py --scenario goa/campaign --games 200
    python benchmarks/goa_cpu.py --scenario goa/campaign --games 5 --allied lookahead --central passive

prints the CPU milliseconds of each of a few batches of ``--games`` campaigns (games 0 .. of
master seed 0, random against random unless ``--allied`` / ``--central`` name a policy that
answers inside the core, each a new ``GoaCore`` from the scenario's start), their
median per campaign and the decisions a campaign asks. The world is the tests' tiny world
(``tests/games/goa/tiny.py``) unless ``--scenario`` names a Guns of August scenario.

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


#: the policies of both sides in the core's campaigns (``--allied`` / ``--central``)
POLICIES = {"allied": "random", "central": "random"}


def _compiled(spec: str):
    """``(level, setup)`` of a policy spec that answers inside the core (random, passive,
    lookahead[:params])."""
    from gwe_fast._core.goa import LEVEL_RANDOM

    if spec == "random":
        return LEVEL_RANDOM, None
    from gwe_fast.policies.registry import make_policy

    policy = make_policy(spec, "goa").impl("goa")
    level = policy.core_level()
    if level is None:
        raise SystemExit(f"policy {spec!r} does not answer inside the compiled core")
    return level, getattr(policy, "core_setup", None)


def core_campaigns(t, games: int, first: int = 0) -> int:
    """Play ``games`` campaigns on the core (random policies unless ``POLICIES`` says
    otherwise); the decisions they asked."""
    from gwe_fast._core.goa.engine import GoaCore

    sides = [_compiled(POLICIES["allied"]), _compiled(POLICIES["central"])]
    n = 0
    for i in range(first, first + games):
        core = GoaCore(t, seed=0, game_index=i, levels=(sides[0][0], sides[1][0]))
        for side, (_, setup) in enumerate(sides):
            if setup is not None:
                setup(core, side)
        core.run()
        n += core.decisions
    return n


def reference_campaigns(t, games: int, first: int = 0) -> int:
    from gwe_fast.games.goa.game import GoaGame

    n = 0
    for i in range(first, first + games):
        g = GoaGame(_Scenario(t), 0, i, engine="reference")
        g.play()
        n += g.decisions
    return n


class _Scenario:
    def __init__(self, t):
        self.goa = t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default=None)
    ap.add_argument("--options", default="", help="name=value,... (default: the defaults)")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--batches", type=int, default=5)
    ap.add_argument("--reference", action="store_true", help="the reference engine instead")
    ap.add_argument("--allied", default="random",
                    help="the Allied policy in the core: random, passive, lookahead[:k=v,...]")
    ap.add_argument("--central", default="random", help="the Central Powers' policy, likewise")
    args = ap.parse_args(argv)
    POLICIES.update(allied=args.allied, central=args.central)
    t = tables(args.scenario, parse_options(args.options))
    play = reference_campaigns if args.reference else core_campaigns
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
          f"{'reference' if args.reference else 'core'} "
          f"(allied {args.allied}, central {args.central}): "
          + " ".join(f"{x:.3f}" for x in per)
          + f" ms a campaign; median {statistics.median(per):.3f} ms; "
          f"{decisions / args.games:.0f} decisions a campaign")
    return 0


if __name__ == "__main__":
    sys.exit(main())
