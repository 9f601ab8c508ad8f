"""CPU per game of a whole Guns of August sweep cell, as ``gwe run`` plays one: every cost a
game adds to a run, not the core's alone (that is ``goa_cpu.py``).

    python benchmarks/goa_cell.py --games 400
    python benchmarks/goa_cell.py --games 400 --options morale=true,naval=true,colonies=true
    python benchmarks/goa_cell.py --games 100 --per-turn
    python benchmarks/goa_cell.py --games 200 --policy greedy

plays ``--games`` campaigns of ``--scenario`` (default ``goa/campaign``; master seed 0, games
0 ..) through ``runner.batch.run_batch`` into Parquet files in a temporary folder, in this
process, and prints the CPU milliseconds a game (``time.process_time``). That path is the one a
``gwe run --workers N`` worker and its parent take, but for the pipe between them: each game's
set-up (``new_game``, its policies), its play, its row (``record``) and the row's checks, the
parent's buffering and its Parquet and journal writes. The pipe's own work, pickling what a
worker sends and unpickling it in the parent, is added here: each message of the in-process
player goes through ``pickle.dumps``/``pickle.loads`` as ``multiprocessing`` would send it
(the operating system's copy is not counted). Row groups hold 256 games, as a sweep cell's
do (a short run writes one every 5 %). ``--per-turn`` writes the per-turn table too.

Instruction counts, which this noisy machine repeats, are the difference of two runs under
callgrind, divided by the games (``results/BENCHMARKS.md``)::

    PYTHONHASHSEED=0 setarch x86_64 -R valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python3.11 benchmarks/goa_cell.py --games 0
    PYTHONHASHSEED=0 setarch x86_64 -R valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python3.11 benchmarks/goa_cell.py --games 200

(``python3.11`` the interpreter itself, not a launcher script that valgrind would count
instead). ``--games 0`` loads the scenario and plays the one warm-up game every run plays
first, then an empty run (its files opened and closed), so the difference is the games'
own cost. ``--profile`` prints a cProfile of the timed run instead of the time.
"""

import argparse
import pickle
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from goa_cpu import parse_options  # noqa: E402  (the same --options as goa_cpu.py)


def through_pipe(events):
    """The events of an in-process player, each pickled and unpickled as a worker's pipe
    would carry it."""
    for ev in events:
        yield pickle.loads(pickle.dumps(ev, protocol=pickle.DEFAULT_PROTOCOL))


def run(scenario, games: int, first: int, folder: Path, policy: str, per_turn: bool) -> float:
    """Play games ``first .. first + games - 1`` of a run as ``gwe run`` does; the CPU seconds."""
    from gwe_fast.runner import batch

    out = folder / f"g{first}.parquet"
    turns = folder / f"t{first}.parquet" if per_turn else None
    t0 = time.process_time()
    batch.run_batch(scenario, max(1, first + games), 0, out, workers=1, per_turn=turns,
                    policies={"allied": policy, "central": policy},
                    indices=range(first, first + games))
    return time.process_time() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default="goa/campaign")
    ap.add_argument("--options", default="", help="name=value,... (default: the defaults)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--policy", default="random", help="both sides' policy (default: random)")
    ap.add_argument("--per-turn", action="store_true", help="write the per-turn table too")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of the run")
    args = ap.parse_args(argv)

    from gwe_fast import load_scenario
    from gwe_fast.runner import batch

    real = batch._in_process
    batch._in_process = lambda player, todo: through_pipe(real(player, todo))
    # row groups as large as a sweep cell's (256 games), not the 5 % of this short run's
    batch._flush_every = lambda games: 256
    sc = load_scenario(args.scenario, parse_options(args.options))
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        run(sc, 1, 100_000, folder, args.policy, args.per_turn)        # warm-up
        if args.profile:
            import cProfile
            import pstats

            prof = cProfile.Profile()
            prof.enable()
            run(sc, args.games, 0, folder, args.policy, args.per_turn)
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(30)
            return 0
        seconds = run(sc, args.games, 0, folder, args.policy, args.per_turn)
    if args.games:
        print(f"{args.scenario} {args.options or 'defaults'} {args.policy} "
              f"{'per-turn ' if args.per_turn else ''}{args.games} games: "
              f"{seconds / args.games * 1e3:.3f} ms of CPU a game")
    return 0


if __name__ == "__main__":
    sys.exit(main())
