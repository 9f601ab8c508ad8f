"""The compiled turn loop: ``kb_random_moves`` and ``gwe_random_moves`` against their
pure-Python twins.

Groups ``kb random segments`` and ``gwe random segments``: every call of the kernel in one
random game (master seed 0, game 0; The Kaiser's Battle, the Brusilov Offensive), recorded as
the engine made it, played again from the same positions and generator states by the
compiled kernel (``cython``) and by its twin (``pure``); their logs, moves and generators are
asserted equal. ``extra_info`` holds the calls and the decisions they drew.
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
from gwe_fast.games import driver


class _Recorder:
    """Stands for the map's ``play`` module and keeps the arguments of each call of the
    kernel ``name``."""

    def __init__(self, module, name):
        self._module, self._name, self.calls = module, name, []

    def __getattr__(self, name):
        kernel = getattr(self._module, name)
        if name != self._name:
            return kernel

        def keeping(rng, *args):
            self.calls.append((copy.deepcopy(rng),
                               [a.copy() if isinstance(a, np.ndarray) else a for a in args]))
            return kernel(rng, *args)

        return keeping


def _recorded(key, name):
    sc = load_scenario(key)
    rec = _Recorder(sc.map.k.play, name)
    real, sc.map.k.play = sc.map.k.play, rec
    try:
        d = driver(sc.game)
        d.play(d.new_game(sc, 0, 0))
    finally:
        sc.map.k.play = real
    return sc, rec.calls


@pytest.fixture(scope="module")
def segments():
    return _recorded("kaisers_battle/historical", "kb_random_moves")


@pytest.fixture(scope="module")
def gwe_segments():
    return _recorded("brusilov/historical", "gwe_random_moves")


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


def _replay_gwe(impl, ws, calls):
    out = []
    for rng, args in calls:
        rng = copy.deepcopy(rng)
        args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        args[0] = ws
        rows, status, unit, used = impl.gwe_random_moves(rng, *args)
        out.append(((rows, status, unit, used), args[-2][:rows].copy(), args[-1][:used].copy(),
                    [a for a in args if isinstance(a, np.ndarray)],
                    rng.bit_generator.state["state"]["state"]))
    return out


@pytest.mark.parametrize("impl", ["cython", "pure"])
def test_gwe_random_segments(benchmark, gwe_segments, impl):
    sc, calls = gwe_segments
    module, search = (cy, cy_search) if impl == "cython" else (py, py_search)
    ws = search.SearchWorkspace(sc.map.neighbors)
    want = _replay_gwe(cy, cy_search.SearchWorkspace(sc.map.neighbors), calls)
    benchmark.group = "gwe random segments"
    got = benchmark(_replay_gwe, module, ws, calls)
    for (o1, log1, path1, arr1, g1), (o2, log2, path2, arr2, g2) in zip(got, want):
        assert (o1, g1) == (o2, g2)
        assert np.array_equal(log1, log2) and np.array_equal(path1, path2)
        assert all(np.array_equal(a, b) for a, b in zip(arr1, arr2))
    benchmark.extra_info.update(calls=len(calls),
                                decisions=int(sum(o[0] for o, *_ in want)))
