"""CPU seconds per whole campaign, for comparing two versions of the code on the same games.

The work is ``src/gwe_fast/campaign_cpu.py``, which ``gwe bench --instructions`` also runs;
this script loads that file from its own tree, not from the ``gwe_fast`` on the path, and it
uses only what every version since the game drivers has (``load_scenario``, ``games.driver``,
``make_policy``), so an older tree can be timed beside the current one::

    git archive <commit> src | tar -x -C /tmp/old
    cp src/gwe_fast/_core/*.so /tmp/old/src/gwe_fast/_core/    # when its .pyx are the same
    PYTHONPATH=/tmp/old/src python benchmarks/campaign_cpu.py brusilov/historical 0 1 2
    python benchmarks/campaign_cpu.py brusilov/historical 0 1 2

prints one line: the scenario, the CPU seconds of each seed's campaign (random against random,
or ``--policy NAME`` on both sides, after one warm-up campaign), and their median. The games
are game ``seed`` of master seed 0 (``--master-seed M`` for another). ``--games N`` plays
games 0 to N - 1 instead (none with 0: the warm-up alone), ``--impl pure`` on the pure-Python
twins. ``--by-decision`` also prints where the policies' time goes: for each kind of decision,
how many a campaign asks and the CPU its policy takes to answer them (``Policy.choose``, timed
around each call; a player who picks at random is answered without the call, so only the
other policies are timed)::

    python benchmarks/campaign_cpu.py brusilov/historical --policy greedy --by-decision

Instruction counts, which this noisy machine repeats, are the difference of two runs under
callgrind, divided by the games (``gwe bench --instructions`` does it for the bundled
scenarios; ``results/BENCHMARKS.md``)::

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

import importlib.util
from pathlib import Path

# by its path, so that the games are played as this tree plays them whatever the path holds
_FILE = Path(__file__).resolve().parents[1] / "src" / "gwe_fast" / "campaign_cpu.py"
_spec = importlib.util.spec_from_file_location("_campaign_cpu_of_this_tree", _FILE)
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)

campaign_cpu = _shared.campaign_cpu
print_by_decision = _shared.print_by_decision

if __name__ == "__main__":
    _shared.main()
