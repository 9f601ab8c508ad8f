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
0: the warm-up alone), ``--impl pure`` on the pure-Python twins.

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


def campaign_cpu(name: str, seeds, policy: str = "random", impl: str = "cython") -> list[float]:
    sc = load_scenario(name, impl=impl)
    drv = driver(sc.game)

    def play(i: int) -> float:
        g = drv.new_game(sc, 0, i, policies={0: make_policy(policy), 1: make_policy(policy)})
        t = time.process_time()
        drv.play(g)
        return time.process_time() - t

    play(99)                                    # warm: compiled data, caches
    return [play(s) for s in seeds]


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description="CPU seconds per whole campaign.")
    ap.add_argument("scenario")
    ap.add_argument("seeds", nargs="*", type=int, default=[0, 1, 2])
    ap.add_argument("--policy", default="random")
    ap.add_argument("--games", type=int, default=None,
                    help="play games 0 to N-1 instead of the seeds (0: the warm-up alone)")
    ap.add_argument("--impl", choices=("cython", "pure"), default="cython")
    args = ap.parse_args()
    seeds = args.seeds if args.games is None else list(range(args.games))
    cpu = campaign_cpu(args.scenario, seeds, args.policy, args.impl)
    print(args.scenario, args.policy, " ".join(f"{c:.3f}" for c in cpu),
          f"median {statistics.median(cpu):.3f} s" if cpu else "(warm-up only)")
