"""CPU seconds per whole campaign, for comparing two versions of the code on the same games.

Uses only what every version since the game drivers has (``load_scenario``, ``games.driver``,
``make_policy``), so an older tree can be timed beside the current one::

    git archive <commit> src | tar -x -C /tmp/old
    cp src/gwe_fast/_core/*.so /tmp/old/src/gwe_fast/_core/    # when its .pyx are the same
    PYTHONPATH=/tmp/old/src python benchmarks/campaign_cpu.py brusilov/historical 0 1 2
    python benchmarks/campaign_cpu.py brusilov/historical 0 1 2

prints one line: the scenario, the CPU seconds of each seed's campaign (random against random,
or ``--policy NAME`` on both sides, after one warm-up campaign), and their median. The games
are game ``seed`` of master seed 0. ``--games N`` plays games 0 to N - 1 instead (none with
0: the warm-up alone), ``--impl pure`` on the pure-Python twins. ``--by-decision`` also prints
where the policies' time goes: for each kind of decision, how many a campaign asks and the CPU
its policy takes to answer them (``Policy.choose``, timed around each call; a player who picks
at random is answered without the call, so only the other policies are timed)::

    python benchmarks/campaign_cpu.py brusilov/historical --policy greedy --by-decision

Instruction counts, which this noisy machine repeats, are the difference of two runs under
callgrind, divided by the games (``results/BENCHMARKS.md``)::

    OPENBLAS_NUM_THREADS=1 PYTHONHASHSEED=0 setarch x86_64 -R valgrind --tool=callgrind \
        --callgrind-out-file=/dev/null python3.11 benchmarks/campaign_cpu.py \
        brusilov/historical --games 0
    OPENBLAS_NUM_THREADS=1 PYTHONHASHSEED=0 setarch x86_64 -R valgrind --tool=callgrind \
        --callgrind-out-file=/dev/null python3.11 benchmarks/campaign_cpu.py \
        brusilov/historical --games 4

(``python3.11`` the interpreter itself, not a launcher script that valgrind would count
instead.) One BLAS thread and no address randomisation: OpenBLAS threads spinning under
valgrind, and hashes that depend on addresses, moved the counts by about 1 % from one run
to the next; so they repeat to a few thousand instructions.
"""

import argparse
import statistics
import time

from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy


def campaign_cpu(name: str, seeds, policy: str = "random", impl: str = "cython",
                 by_decision: dict | None = None) -> list[float]:
    """CPU seconds of each seed's campaign; ``by_decision``, when given, is filled with
    ``{kind: [decisions, CPU seconds of the policy's choose]}`` over the seeds' campaigns."""
    sc = load_scenario(name, impl=impl)
    drv = driver(sc.game)

    def play(i: int, timed: bool = False) -> float:
        policies = {0: make_policy(policy), 1: make_policy(policy)}
        if timed and by_decision is not None:
            for p in policies.values():
                _time_choices(p, by_decision)
        g = drv.new_game(sc, 0, i, policies=policies)
        t = time.process_time()
        drv.play(g)
        return time.process_time() - t

    play(99)                                    # warm: compiled data, caches
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


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="CPU seconds per whole campaign.")
    ap.add_argument("scenario")
    ap.add_argument("seeds", nargs="*", type=int, default=[0, 1, 2])
    ap.add_argument("--policy", default="random")
    ap.add_argument("--games", type=int, default=None,
                    help="play games 0 to N-1 instead of the seeds (0: the warm-up alone)")
    ap.add_argument("--impl", choices=("cython", "pure"), default="cython")
    ap.add_argument("--by-decision", action="store_true",
                    help="also print the policies' CPU by kind of decision")
    args = ap.parse_args()
    seeds = args.seeds if args.games is None else list(range(args.games))
    kinds: dict | None = {} if args.by_decision else None
    cpu = campaign_cpu(args.scenario, seeds, args.policy, args.impl, kinds)
    print(args.scenario, args.policy, " ".join(f"{c:.3f}" for c in cpu),
          f"median {statistics.median(cpu):.3f} s" if cpu else "(warm-up only)")
    if kinds and cpu:
        print_by_decision(kinds, len(cpu), sum(cpu))
