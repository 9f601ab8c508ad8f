"""The compiled turn loop: ``kb_random_moves`` against its pure-Python twin.

Group ``kb random segments``: every random Movement Segment of one Kaiser's Battle game
(master seed 0, game 0), recorded as the engine handed them to the kernel, played again from
the same positions and generator states by the compiled kernel (``cython``) and by its twin
(``pure``); their logs, moves and generators are asserted equal. ``extra_info`` holds the
segments and the decisions they drew.
Run: ``pytest benchmarks/bench_play.py --benchmark-enable --benchmark-only``.
"""

import copy

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast._core import play as cy
from gwe_fast._core import search as cy_search
from gwe_fast._pure import play as py
from gwe_fast._pure import search as py_search
from gwe_fast.games.kb import driver


class _Recorder:
    """Stands for the map's ``play`` module and keeps each segment's arguments."""

    def __init__(self, module):
        self._module, self.calls = module, []

    def __getattr__(self, name):
        return getattr(self._module, name)

    def kb_random_moves(self, rng, *args):
        self.calls.append((copy.deepcopy(rng),
                           [a.copy() if isinstance(a, np.ndarray) else a for a in args]))
        return self._module.kb_random_moves(rng, *args)


@pytest.fixture(scope="module")
def segments():
    sc = load_scenario("kaisers_battle/historical")
    rec = _Recorder(sc.map.k.play)
    real, sc.map.k.play = sc.map.k.play, rec
    try:
        driver.play(driver.new_game(sc, 0, 0))
    finally:
        sc.map.k.play = real
    return sc, rec.calls


def _replay(impl, ws, calls):
    out = []
    for rng, args in calls:
        rng = copy.deepcopy(rng)
        args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        args[0] = ws
        rows, status = impl.kb_random_moves(rng, *args)
        out.append((rows, status, args[-1][:rows].copy(), args[-5].copy(),
                    rng.bit_generator.state["state"]["state"]))
    return out


@pytest.mark.parametrize("impl", ["cython", "pure"])
def test_kb_random_segments(benchmark, segments, impl):
    sc, calls = segments
    module, search = (cy, cy_search) if impl == "cython" else (py, py_search)
    ws = search.SearchWorkspace(sc.map.neighbors)
    want = _replay(cy, cy_search.SearchWorkspace(sc.map.neighbors), calls)
    benchmark.group = "kb random segments"
    got = benchmark(_replay, module, ws, calls)
    for (r1, s1, log1, cells1, g1), (r2, s2, log2, cells2, g2) in zip(got, want):
        assert (r1, s1, g1) == (r2, s2, g2)
        assert np.array_equal(log1, log2) and np.array_equal(cells1, cells2)
    benchmark.extra_info.update(segments=len(calls),
                                decisions=int(sum(r for r, *_ in want)))
