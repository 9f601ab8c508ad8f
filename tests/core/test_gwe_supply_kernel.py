"""The supply of a Great War in the East side on the kernels (``gwe_supply`` of
``gwe_fast._core.play``, twin in ``gwe_fast._pure.play``): in the positions of played games
the compiled kernel and its twin give the same rail sources (9.15, 18.27), supplied depots
(9.16, 19.1), units in supply (9.12-9.14, 9.17) and supplied hexes (25.12); the arguments are
checked."""

import numpy as np
import pytest

from gwe_fast import kernels, load_scenario
from gwe_fast._core import play as cy
from gwe_fast._pure import play as py
from gwe_fast._pure import search as pure_search
from gwe_fast.games.gwe import driver, supply
from gwe_fast.policies.gwe import passive
from gwe_fast.policies.registry import make_policy


class _Recorder:
    """Stands for a map's ``play`` module: keeps a copy of every ``gwe_supply`` call's
    arguments, then passes it on."""

    def __init__(self, module):
        self._module, self.calls = module, []

    def __getattr__(self, name):
        return getattr(self._module, name)

    def gwe_supply(self, ws, *args):
        self.calls.append([a.copy() if isinstance(a, np.ndarray) else a for a in args])
        return self._module.gwe_supply(ws, *args)


@pytest.fixture(scope="module")
def calls():
    sc = load_scenario("brusilov/historical")
    rec = _Recorder(sc.map.k.play)
    real, sc.map.k.play = sc.map.k.play, rec
    # the greedy player's movement plans on the Python reference (PositionMap), whose
    # targets read each side's supply through the kernel: the compiled planner reads the
    # core's own, and these positions are the kernel's to compare
    compiled, passive.COMPILED_MOVES = passive.COMPILED_MOVES, False
    try:
        for seed, policy in ((3, "random"), (4, "greedy")):
            driver.play(driver.new_game(sc, seed, seed, policies={
                0: make_policy(policy), 1: make_policy(policy)}))
    finally:
        sc.map.k.play = real
        passive.COMPILED_MOVES = compiled
    return sc, rec.calls


def _run(impl, ws, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    impl.gwe_supply(ws, *args)
    return args[-5:]                       # rail, depots, supplied, cell_range, cells


def test_9_1_twin_gives_the_kernels_supply(calls):
    sc, recorded = calls
    assert len(recorded) > 200
    ws_cy = sc.map.k.search.SearchWorkspace(sc.map.neighbors, 3)
    ws_py = pure_search.SearchWorkspace(sc.map.neighbors, 3)
    seen = {"depots": 0, "out": 0, "cells": 0, "chained": 0}
    for args in recorded[::4]:
        rail1, depots1, units1, cell_range, cells1 = _run(cy, ws_cy, args)
        rail2, depots2, units2, _, cells2 = _run(py, ws_py, args)
        assert np.array_equal(rail1, rail2)
        assert np.array_equal(depots1, depots2)
        assert np.array_equal(units1, units2)
        assert np.array_equal(cells1, cells2)
        mine = args[9]
        depot = args[11]
        seen["depots"] += int(depots1.sum())
        seen["out"] += int((units1[mine] == 0).sum())
        seen["cells"] += int(cells1.sum())
        seen["chained"] += int(sum(1 for u in mine if depot[u] and depots1[u]) > 1)
    assert all(v > 0 for v in seen.values()), seen


def test_9_1_25_12_hexes_in_supply_ride_along_and_change_nothing(calls):
    # the hexes of 25.12 are computed in the same call as the units in supply: asking for
    # them (cell_range >= 0) leaves the rail sources, depots and units as without them
    sc, recorded = calls
    ws = sc.map.k.search.SearchWorkspace(sc.map.neighbors, 3)
    asked = 0
    for args in recorded[::8]:
        cell_range = args[-2]
        if cell_range < 0:
            # supply.py asks for both, but for the sources alone (sources_alone): then it
            # asks of the depots alone
            mine, depot = args[9], args[11]
            assert all(depot[u] for u in mine)
            continue
        asked += 1
        alone = list(args)
        alone[-2] = -1
        rail1, depots1, units1, _, cells1 = _run(cy, ws, args)
        rail2, depots2, units2, _, cells2 = _run(cy, ws, alone)
        assert np.array_equal(rail1, rail2)
        assert np.array_equal(depots1, depots2)
        assert np.array_equal(units1, units2)
        assert not cells2.any()
        for impl, w in ((py, pure_search.SearchWorkspace(sc.map.neighbors, 3)),):
            r3, d3, u3, _, c3 = _run(impl, w, alone)
            assert np.array_equal(u3, units1) and not c3.any()
    assert asked > 20


@pytest.mark.parametrize("impl", ["cython", "pure"])
def test_9_1_sources_alone_are_the_sources_of_the_whole_supply(impl):
    # asked of the depots alone, the kernel searches no line of a unit: the rail sources,
    # supplied depots and 25.12's hexes are those of the whole supply, and the depots are in
    # supply as their chain says, in the positions of a played game (every phase end, both
    # sides)
    sc = load_scenario("brusilov/historical", impl=impl)
    game = driver.new_game(sc, 6, 2)
    seen = {"positions": 0, "depots": 0}

    def check(g, phase):
        st = g.state
        for side in (0, 1):
            supply._memo(sc, "position").clear()
            supply._memo(sc, "sources").clear()
            rail, depots = supply.sources_alone(sc, st, side)
            assert not rail.flags.writeable and not depots.flags.writeable
            whole = supply._supply(sc, st, side)
            assert np.array_equal(rail, whole[0]) and np.array_equal(depots, whole[1])
            alone = supply._supply(sc, st, side, lines=False, hexes=False)
            mine = (sc.units.utype == supply.DEPOT) & (sc.units.side == side)
            assert np.array_equal(alone[2][mine], whole[1][mine])
            assert not alone[3].any()
            # 25.12's hexes without the units' lines: those of the whole supply
            hexes = supply._supply(sc, st, side, lines=False)
            assert np.array_equal(hexes[3], whole[3]) and np.array_equal(hexes[1], whole[1])
            seen["positions"] += 1
            seen["depots"] += int(depots.sum())
            # the position's key: the kernel's bytes are the twin's (numpy's)
            assert supply.position_key(st, side, sc) == py.gwe_position_key(
                side, st.unit_cell, st.unit_status, supply._LINE_STATUS, st.hex_last,
                st.extra.get("flags"), supply.Flag.LIVING_OFF_LAND)
            # with the whole supply remembered, its sources are handed out
            supply.in_supply(sc, st, side)
            kept = supply._memo(sc, "position")[("supply", supply.position_key(st, side, sc))]
            assert supply.sources_alone(sc, st, side)[1] is kept[1]

    driver.play(game, check=check if impl == "cython" else None)
    if impl == "pure":                     # the twins: a few positions are enough
        check(game, "end")
    assert seen["positions"] > 0 and (impl == "pure" or seen["depots"] > 0)


@pytest.mark.parametrize("impl", [cy, py], ids=["cython", "pure"])
def test_gwe_position_key_is_the_bytes_of_the_arrays(impl):
    rng = np.random.default_rng(3)
    cell = rng.integers(-1, 600, 40).astype(np.int32)
    status = rng.integers(0, 1 << 10, 40).astype(np.uint16)
    last = rng.integers(-1, 2, 70).astype(np.int8)
    flags = rng.integers(0, 1 << 16, 40).astype(np.uint16)
    want = (bytes((1,)) + cell.tobytes() + (status & np.uint16(33)).tobytes() + last.tobytes()
            + (flags & np.uint16(128)).tobytes())
    assert impl.gwe_position_key(1, cell, status, 33, last, flags, 128) == want
    assert impl.gwe_position_key(0, cell, status, 33, last, None, 128) == (
        bytes((0,)) + want[1:len(want) - 80])
    # other dtypes and strided views are read as their values
    wide = np.zeros(80, dtype=np.int64)
    wide[::2] = cell
    assert impl.gwe_position_key(1, wide[::2], status.astype(np.int32), 33, list(last),
                                 flags, 128) == want
    with pytest.raises(ValueError):
        impl.gwe_position_key(1, cell, status[:-1], 33, last, flags, 128)
    with pytest.raises(ValueError):
        impl.gwe_position_key(256, cell, status, 33, last, flags, 128)
    with pytest.raises(ValueError):
        impl.gwe_position_key(1, cell, status, 1 << 16, last, flags, 128)


def test_9_1_in_supply_is_the_kernels_answer_remembered(calls):
    # in_supply, sources and supplied_cells hand out copies of the remembered answer
    sc, _ = calls
    game = driver.new_game(sc, 5, 5)
    a = supply.in_supply(sc, game.state, 0)
    a[:] = ~a
    assert not np.array_equal(a, supply.in_supply(sc, game.state, 0))
    rail, depots = supply.sources(sc, game.state, 1)
    assert rail.flags.writeable and depots.flags.writeable
    assert supply.supplied_cells(sc, game.state, 0).any()


def test_gwe_supply_refuses_bad_arguments(calls):
    sc, recorded = calls
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in recorded[0]]
    one_layer = sc.map.k.search.SearchWorkspace(sc.map.neighbors)
    with pytest.raises(ValueError, match="more layers"):
        cy.gwe_supply(one_layer, *args)
    ws = kernels.workspace(sc.map, 3)
    bad = list(args)
    bad[6] = np.array([sc.map.n_cells], np.int32)           # a start off the map
    with pytest.raises(ValueError, match="off the map"):
        cy.gwe_supply(ws, *bad)
    bad = list(args)
    cells = bad[10].copy()
    cells[bad[9][0]] = -1                                    # a unit of the side off the map
    bad[10] = cells
    with pytest.raises(ValueError, match="not a unit on the map"):
        cy.gwe_supply(ws, *bad)


# --- the searches on bitboards (bitsearch) against those of the SearchWorkspace -------------

def _both_ways(ws, args):
    # gwe_supply's results with its searches on bitboards, then with the workspace's
    was = cy._use_bit_parallel(True)
    try:
        fast = _run(cy, ws, args)
        cy._use_bit_parallel(False)
        slow = _run(cy, ws, args)
    finally:
        cy._use_bit_parallel(was)
    return fast, slow


def _same(fast, slow):
    rail1, depots1, units1, _, cells1 = fast
    rail2, depots2, units2, _, cells2 = slow
    return (np.array_equal(rail1, rail2) and np.array_equal(depots1, depots2)
            and np.array_equal(units1, units2) and np.array_equal(cells1, cells2))


def test_9_1_bitboards_give_the_searches_supply_in_played_positions(calls):
    sc, recorded = calls
    ws = sc.map.k.search.SearchWorkspace(sc.map.neighbors, 3)
    for args in recorded[::2]:
        assert _same(*_both_ways(ws, args))


def _random_position(rng, n, neighbors, rail_steps, line_steps, n_units=60):
    # a side's supply asked in a made-up position: friendly ground, enemy zones, its own and
    # the enemy's units, the rail edge, units and depots anywhere with ranges of 0 to 9 hexes
    friendly = (rng.random(n) < rng.uniform(0.5, 1.0)).astype(np.uint8)
    ezoc = (rng.random(n) < rng.uniform(0.0, 0.5)).astype(np.uint8)
    own = (rng.random(n) < rng.uniform(0.0, 0.3)).astype(np.uint8)
    enemy_combat = (rng.random(n) < rng.uniform(0.0, 0.2)).astype(np.uint8)
    edge = np.flatnonzero((neighbors < 0).any(axis=1))
    starts = np.sort(rng.choice(edge, rng.integers(0, 12), replace=False)).astype(np.int32)
    hex_last = rng.integers(-1, 2, n).astype(np.int8)
    unit_cell = rng.integers(0, n, n_units).astype(np.int32)
    k = int(rng.integers(0, n_units))
    mine = np.sort(rng.choice(n_units, k, replace=False)).astype(np.int32)
    depot = (rng.random(n_units) < 0.15).astype(np.uint8)
    supply_range = rng.integers(0, 10, n_units).astype(np.int32)
    layers = rng.integers(1, 4, n_units).astype(np.int32)
    cell_range = int(rng.integers(-1, 8))
    return [rail_steps, line_steps, friendly, ezoc, own, enemy_combat, starts, hex_last,
            int(rng.integers(0, 2)), mine, unit_cell, depot, supply_range, layers, 2,
            np.zeros(n, np.uint8), np.zeros(n_units, np.uint8), np.zeros(n_units, np.uint8),
            cell_range, np.zeros(n, np.uint8)]


def _refusing(rng, neighbors, share):
    # a line's step table with a share of its hexsides refused (each way on its own)
    steps = np.where(neighbors >= 0, 1, -1).astype(np.int16)
    steps[rng.random(steps.shape) < share] = -1
    return steps


@pytest.mark.parametrize(("name", "tables"), [("brusilov/historical", "scenario"),
                                              ("brusilov/historical", "refused"),
                                              ("kaisers_battle/historical", "refused")])
def test_9_1_bitboards_give_the_searches_supply_in_random_positions(name, tables):
    # the rail sources, depots, units in supply and 25.12's hexes are the same both ways in
    # made-up positions: Brusilov's tables (rails and lines) and, on both maps, tables with
    # hexsides refused at random (The Kaiser's Battle's map has none of its own)
    rng = np.random.default_rng(28)
    sc = load_scenario(name)
    nbr = sc.map.neighbors
    n = sc.map.n_cells
    if tables == "scenario":
        fx = supply._fixed(sc)
        rail_steps, line_steps = fx.rail_steps, fx.line_steps
    ws = sc.map.k.search.SearchWorkspace(nbr, 3)
    seen = {"rail": 0, "depots": 0, "supplied": 0, "out": 0, "tolls": 0, "cells": 0}
    for _ in range(150):
        if tables == "refused":
            rail_steps = _refusing(rng, nbr, rng.uniform(0.3, 0.9))
            line_steps = _refusing(rng, nbr, rng.uniform(0.0, 0.3))
        args = _random_position(rng, n, nbr, rail_steps, line_steps)
        fast, slow = _both_ways(ws, args)
        assert _same(fast, slow)
        rail, depots, units, _, cells = fast
        mine, layers = args[9], args[13]
        seen["rail"] += int(rail.sum())
        seen["depots"] += int(depots.sum())
        seen["supplied"] += int(units[mine].sum())
        seen["out"] += int((units[mine] == 0).sum())
        seen["cells"] += int(cells.sum())
        # units in supply only through open zones (the search with tolls): without the
        # layers beyond the first they are out
        one = list(args)
        one[13] = np.ones_like(layers)
        seen["tolls"] += int((units[mine] & ~_run(cy, ws, one)[2][mine]).sum())
    assert all(v > 0 for v in seen.values()), seen


@pytest.mark.parametrize("name", ["brusilov/historical", "kaisers_battle/historical"])
def test_bitsearch_levels_are_dials_costs(name):
    # StepSets.reach: the cells within d steps paying at most t tokens are those whose
    # cheapest state in Dial's layers 0 .. t costs at most d (tolls paid on leaving a hex,
    # stop hexes entered but not left unless they are sources)
    from gwe_fast._core.bitsearch import StepSets
    from gwe_fast._core.search import bounded_search

    rng = np.random.default_rng(11)
    sc = load_scenario(name)
    nbr = sc.map.neighbors
    n = sc.map.n_cells
    for _ in range(40):
        steps = _refusing(rng, nbr, rng.uniform(0.0, 0.4))
        sets = StepSets(nbr, steps)
        assert sets.usable and sets.unit and len(sets.shifts) == 8
        sources = np.sort(rng.choice(n, rng.integers(1, 6), replace=False))
        stop = rng.random(n) < rng.uniform(0.0, 0.3)
        stop[sources[:1]] = True                  # a source in a stop hex is left all the same
        toll = rng.random(n) < rng.uniform(0.0, 0.4)
        max_toll, limit = int(rng.integers(0, 3)), int(rng.integers(0, 25))
        got = sets.reach(sources, limit, stop, toll, max_toll)
        dist, _ = bounded_search(nbr, steps, sources, limit=limit, stop=stop.astype(np.uint8),
                                 toll=toll.astype(np.uint8), max_toll=max_toll,
                                 toll_on_exit=True)
        best = np.where(dist >= 0, dist, limit + 1)
        best = np.minimum.accumulate(best, axis=0)   # cheapest with at most t tokens
        for d in range(limit + 1):
            want = (best <= d).astype(np.uint8)
            assert np.array_equal(got[min(d, len(got) - 1)], want), (d, max_toll)


def _queue_distances(neighbors, steps, sources, within):
    # the twin of StepSets.distances: breadth first on a queue, entering only hexes within
    dist = np.full(len(neighbors), -1, dtype=np.int32)
    dist[sources] = 0
    queue = list(sources)
    for c in queue:                      # the list grows as it is read
        for d in range(6):
            v = neighbors[c, d]
            if v >= 0 and steps[c, d] >= 0 and within[v] and dist[v] < 0:
                dist[v] = dist[c] + 1
                queue.append(v)
    return dist


@pytest.mark.parametrize("name", ["brusilov/historical", "kaisers_battle/historical"])
def test_bitsearch_distances_are_breadth_firsts(name):
    # StepSets.distances (bits_distances, source_distance's search): each hex's steps from
    # the nearest source, as a queue counts them, with sources outside within kept
    from gwe_fast._core.bitsearch import StepSets

    rng = np.random.default_rng(13)
    sc = load_scenario(name)
    nbr = sc.map.neighbors
    n = sc.map.n_cells
    far = 0
    for _ in range(30):
        steps = _refusing(rng, nbr, rng.uniform(0.0, 0.4))
        sets = StepSets(nbr, steps)
        sources = np.sort(rng.choice(n, rng.integers(0, 6), replace=False))
        within = rng.random(n) >= rng.uniform(0.0, 0.3)
        within[sources[:1]] = False
        got = sets.distances(sources, within)
        want = _queue_distances(nbr, steps, sources.tolist(), within)
        np.testing.assert_array_equal(got, want)
        far = max(far, int(got.max()))
    np.testing.assert_array_equal(sets.distances([]), np.full(n, -1, dtype=np.int32))
    assert far > 10                      # searches that went some way


def test_bitsearch_docstring_examples_run():
    import doctest

    from gwe_fast._core import bitsearch

    result = doctest.testmod(bitsearch, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0
