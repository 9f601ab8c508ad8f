"""CPU seconds per whole campaign, and the program that callgrind counts for ``gwe bench
--instructions``: ``python -m gwe_fast.campaign_cpu SCENARIO ...``.

The campaigns are played the plainest way every version since the game drivers can
(``load_scenario``, ``games.driver``, ``make_policy``): game ``i`` of master seed ``seed``,
the same policy on both sides, after one warm-up campaign (game 99) that builds the
scenario's compiled tables and fills the caches. ``benchmarks/campaign_cpu.py`` runs this file
as it is in its own tree against whichever ``gwe_fast`` is on the path, so an older tree can
be timed beside the current one.

Instructions per campaign are the difference of two runs under callgrind, the second with
``--games N`` and the first with ``--games 0`` (the warm-up alone), over ``N``: what the
interpreter's start-up and the warm-up cost cancels (``gwe_fast.bench.count_instructions``
does this). One BLAS thread and no address randomisation (``setarch -R``) make the counts
repeat to a few thousand instructions, as long as the modules' bytecode is cached in the same
way (none cached moved a random Brusilov campaign by 0.4 %); ``results/BENCHMARKS.md`` has
the command by hand.

Examples
--------
>>> cpu = campaign_cpu("kaisers_battle/historical", [0])
>>> len(cpu), cpu[0] > 0
(1, True)
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Iterable, Sequence

from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy

#: the game played first, unmeasured, in every run
WARM_UP_GAME = 99


def campaign_cpu(name: str, seeds: Iterable[int], policy: str = "random",
                 impl: str = "cython", by_decision: dict | None = None,
                 master_seed: int = 0) -> list[float]:
    """CPU seconds of the campaign of each game index in ``seeds`` (games of master seed
    ``master_seed``), after the warm-up game; ``by_decision``, when given, is filled with
    ``{kind: [decisions, CPU seconds of the policy's choose]}`` over the measured campaigns."""
    sc = load_scenario(name, impl=impl)
    drv = driver(sc.game)

    def play(i: int, timed: bool = False) -> float:
        policies = {0: make_policy(policy), 1: make_policy(policy)}
        if timed and by_decision is not None:
            for p in policies.values():
                _time_choices(p, by_decision)
        g = drv.new_game(sc, master_seed, i, policies=policies)
        t = time.process_time()
        drv.play(g)
        return time.process_time() - t

    play(WARM_UP_GAME)                          # warm: compiled data, caches
    return [play(s, timed=True) for s in seeds]


def _time_choices(policy, into: dict) -> None:
    """Time every ``choose`` of ``policy`` by the kind of its decision (an attribute of the
    instance; ``type(policy)`` stays the same, so the engines treat it as before)."""
    choose = policy.choose

    def timed(decision, game, rng):
        t = time.process_time()
        try:
            return choose(decision, game, rng)
        finally:
            row = into.setdefault(decision.kind, [0, 0.0])
            row[0] += 1
            row[1] += time.process_time() - t

    policy.choose = timed


def print_by_decision(by_decision: dict, games: int, campaign_s: float) -> None:
    """The table of ``--by-decision``: per campaign, each kind's decisions, the policy's
    milliseconds, microseconds a decision and share of the campaign's CPU, most costly first."""
    print(f"{'decision':34s} {'per game':>9s} {'ms':>8s} {'us each':>9s} {'share':>6s}")
    total = 0.0
    for kind, (n, s) in sorted(by_decision.items(), key=lambda kv: -kv[1][1]):
        total += s
        print(f"{kind:34s} {n / games:9.0f} {1e3 * s / games:8.1f} {1e6 * s / n:9.1f} "
              f"{s / campaign_s:6.1%}")
    print(f"{'all decisions':34s} {'':9s} {1e3 * total / games:8.1f} {'':9s} "
          f"{total / campaign_s:6.1%}")


def main(argv: Sequence[str] | None = None) -> None:
    """The command line: one line, the scenario, the policy, the CPU seconds of each campaign
    and their median (``(warm-up only)`` with ``--games 0``)."""
    ap = argparse.ArgumentParser(description="CPU seconds per whole campaign.")
    ap.add_argument("scenario")
    ap.add_argument("seeds", nargs="*", type=int, default=[0, 1, 2],
                    help="the game indices to play (default 0 1 2)")
    ap.add_argument("--policy", default="random")
    ap.add_argument("--games", type=int, default=None,
                    help="play games 0 to N-1 instead of the seeds (0: the warm-up alone)")
    ap.add_argument("--master-seed", type=int, default=0,
                    help="the master seed of the games (default 0)")
    ap.add_argument("--impl", choices=("cython", "pure"), default="cython")
    ap.add_argument("--by-decision", action="store_true",
                    help="also print the policies' CPU by kind of decision")
    args = ap.parse_args(argv)
    seeds = args.seeds if args.games is None else list(range(args.games))
    kinds: dict | None = {} if args.by_decision else None
    cpu = campaign_cpu(args.scenario, seeds, args.policy, args.impl, kinds, args.master_seed)
    print(args.scenario, args.policy, " ".join(f"{c:.3f}" for c in cpu),
          f"median {statistics.median(cpu):.3f} s" if cpu else "(warm-up only)")
    if kinds and cpu:
        print_by_decision(kinds, len(cpu), sum(cpu))


if __name__ == "__main__":
    main()
