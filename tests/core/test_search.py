"""The one bounded multi-source search: exact arrays on tiny maps, twins equal, scipy agrees."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwe_fast import HexMap
from gwe_fast._core import search as cy
from gwe_fast._pure import search as py
from random_maps import hex_map


def line_map(n):
    """A 1-column map 0101..01nn: cell i neighbours i-1 (N) and i+1 (S)."""
    return HexMap((1, 1), (1, n))


@pytest.mark.parametrize("mod", [cy, py], ids=["cython", "pure"])
def test_whole_distance_and_predecessor_arrays_on_a_line(mod):
    m = line_map(6)
    cost = np.where(m.neighbors >= 0, 1, -1).astype(np.int16)
    cost[3, 3] = 3                     # stepping 0104 -> 0105 costs 3
    dist, pred = mod.bounded_search(m.neighbors, cost, [1], limit=4)
    np.testing.assert_array_equal(dist, [[1, 0, 1, 2, -1, -1]])
    np.testing.assert_array_equal(pred, [[1, -1, 1, 2, -1, -1]])
    dist, pred = mod.bounded_search(m.neighbors, cost, [1, 5], source_cost=[0, 1])
    np.testing.assert_array_equal(dist, [[1, 0, 1, 2, 2, 1]])
    np.testing.assert_array_equal(pred, [[1, -1, 1, 2, 5, -1]])


@pytest.mark.parametrize("mod", [cy, py], ids=["cython", "pure"])
def test_stop_cells_are_entered_not_left(mod):
    m = line_map(5)
    cost = np.where(m.neighbors >= 0, 1, -1).astype(np.int16)
    stop = np.array([0, 0, 1, 0, 0], dtype=np.uint8)
    dist, _ = mod.bounded_search(m.neighbors, cost, [0], stop=stop)
    np.testing.assert_array_equal(dist, [[0, 1, 2, -1, -1]])
    # a source in a stopping cell may leave it
    dist, _ = mod.bounded_search(m.neighbors, cost, [2], stop=stop)
    np.testing.assert_array_equal(dist, [[2, 1, 0, 1, 2]])


@pytest.mark.parametrize("mod", [cy, py], ids=["cython", "pure"])
def test_tolls_limit_the_hexes_of_one_kind_a_path_may_cross(mod):
    # 9.14: at most two enemy-controlled hexes on a TCR 1 supply line
    m = line_map(6)
    cost = np.where(m.neighbors >= 0, 1, -1).astype(np.int16)
    toll = np.array([0, 1, 1, 1, 0, 0], dtype=np.uint8)
    dist, pred = mod.bounded_search(m.neighbors, cost, [0], toll=toll, max_toll=2)
    np.testing.assert_array_equal(dist, [[0, -1, -1, -1, -1, -1],
                                         [-1, 1, -1, -1, -1, -1],
                                         [-1, -1, 2, -1, -1, -1]])
    assert pred[2, 2] == 1 * 6 + 1          # state (layer 1, cell 1)
    dist, _ = mod.bounded_search(m.neighbors, cost, [0], toll=toll, max_toll=3)
    assert dist[3, 5] == 5


@pytest.mark.parametrize("mod", [cy, py], ids=["cython", "pure"])
def test_tolls_on_exit_count_the_first_cell_and_not_the_last(mod):
    # traced back from a source: the source's hex counts, the unit's hex does not (9.13)
    m = line_map(4)
    cost = np.where(m.neighbors >= 0, 1, -1).astype(np.int16)
    toll = np.array([1, 0, 1, 1], dtype=np.uint8)
    dist, _ = mod.bounded_search(m.neighbors, cost, [0], toll=toll, max_toll=2,
                                 toll_on_exit=True)
    np.testing.assert_array_equal(dist, [[0, -1, -1, -1],
                                         [-1, 1, 2, -1],
                                         [-1, -1, -1, 3]])


def test_empty_and_unreachable_inputs():
    m = line_map(3)
    cost = np.full((3, 6), -1, dtype=np.int16)
    for mod in (cy, py):
        dist, pred = mod.bounded_search(m.neighbors, cost, [])
        assert (dist == -1).all() and (pred == -1).all()
        dist, _ = mod.bounded_search(m.neighbors, cost, [1])
        np.testing.assert_array_equal(dist, [[-1, 0, -1]])
        with pytest.raises(IndexError):
            mod.bounded_search(m.neighbors, cost, [3])
        with pytest.raises(ValueError):
            mod.bounded_search(m.neighbors, cost[:2], [0])


@st.composite
def search_cases(draw):
    m = hex_map(draw, 12, 12)
    n = m.n_cells
    cost = np.array(draw(st.lists(st.integers(-1, 5), min_size=6 * n, max_size=6 * n)),
                    dtype=np.int16).reshape(n, 6)
    cost[m.neighbors < 0] = -1
    k = draw(st.integers(0, 4))
    sources = draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k))
    scost = draw(st.lists(st.integers(0, 7), min_size=k, max_size=k))
    limit = draw(st.integers(-1, 25))
    stop = np.array(draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), dtype=np.uint8)
    if draw(st.booleans()):
        stop[:] = 0
    toll = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)), dtype=np.uint8)
    max_toll = draw(st.integers(0, 3))
    on_exit = draw(st.booleans())
    return m, cost, sources, scost, limit, stop, toll, max_toll, on_exit


@settings(max_examples=300, deadline=None)
@given(search_cases())
def test_cython_and_pure_searches_are_identical(case):
    m, cost, sources, scost, limit, stop, toll, max_toll, on_exit = case
    args = dict(source_cost=scost, limit=limit, stop=stop, toll=toll, max_toll=max_toll,
                toll_on_exit=on_exit)
    d1, p1 = cy.bounded_search(m.neighbors, cost, sources, **args)
    d2, p2 = py.bounded_search(m.neighbors, cost, sources, **args)
    np.testing.assert_array_equal(d1, d2)
    np.testing.assert_array_equal(p1, p2)
    n = m.n_cells
    # every predecessor link is a real least-cost step
    for state in np.flatnonzero(d1.reshape(-1) >= 0):
        p = p1.reshape(-1)[state]
        if p < 0:
            continue
        u, v = p % n, state % n
        d = int(np.flatnonzero(m.neighbors[u] == v)[0])
        assert d1.reshape(-1)[p] + cost[u, d] == d1.reshape(-1)[state]
        assert p // n + (toll[u] if on_exit else toll[v]) == state // n
        if limit >= 0:
            assert d1.reshape(-1)[state] <= limit


@settings(max_examples=100, deadline=None)
@given(search_cases())
def test_plain_search_agrees_with_scipy_dijkstra(case):
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    m, cost, sources, scost, limit, _, _, _, _ = case
    if not sources:
        return
    n = m.n_cells
    # one virtual super-source carries the source costs
    rows, cols, vals = [], [], []
    for u in range(n):
        for d in range(6):
            if cost[u, d] >= 0:
                rows.append(u)
                cols.append(int(m.neighbors[u, d]))
                vals.append(cost[u, d] + 1e-9)   # explicit zero weights need a nudge
    best = {}
    for s, c in zip(sources, scost):   # csr_matrix would sum duplicate edges: keep the least
        best[s] = min(c, best.get(s, c))
    for s, c in best.items():
        rows.append(n)
        cols.append(s)
        vals.append(c + 1e-9)
    g = csr_matrix((vals, (rows, cols)), shape=(n + 1, n + 1))
    ref = dijkstra(g, indices=n, limit=np.inf)
    ref = np.where(np.isinf(ref), -1, np.round(ref)).astype(int)[:n]
    if limit >= 0:
        ref[ref > limit] = -1
    dist, _ = cy.bounded_search(m.neighbors, cost, sources, source_cost=scost, limit=limit)
    np.testing.assert_array_equal(dist[0], ref)


@pytest.mark.parametrize("odd", [None, 0, 2], ids=["all-1", "a-0-step", "a-2-step"])
def test_unit_steps_walked_breadth_first_match_dial_step_for_step(odd):
    # steps of 1 are walked breadth-first by the compiled kernel; a step of another cost met
    # on the way hands the search over to Dial's algorithm. Either way: the twin's answer,
    # the same predecessors and the same order of first reaching
    rng = np.random.default_rng(5)
    m = HexMap((1, 30), (1, 20))
    n = m.n_cells
    cost = np.where((m.neighbors >= 0) & (rng.random((n, 6)) > 0.2), 1, -1).astype(np.int16)
    sources = [int(x) for x in rng.choice(n, 4, replace=False)]
    if odd is not None:
        ws = py.SearchWorkspace(m.neighbors)
        ws.run(cost, sources)
        order = [int(c) for c in ws.reached() if (cost[c] >= 0).any()]
        far = order[3 * len(order) // 4]                          # reached late in the walk
        cost[far, int(np.flatnonzero(cost[far] >= 0)[0])] = odd
    stop = (rng.random(n) < 0.1).astype(np.uint8)
    for kw in ({}, {"limit": 7}, {"stop": stop}, {"source_cost": [3, 3, 3, 3]}):
        d1, p1 = cy.bounded_search(m.neighbors, cost, sources, **kw)
        d2, p2 = py.bounded_search(m.neighbors, cost, sources, **kw)
        np.testing.assert_array_equal(d1, d2)
        np.testing.assert_array_equal(p1, p2)
        ws1, ws2 = cy.SearchWorkspace(m.neighbors), py.SearchWorkspace(m.neighbors)
        for ws in (ws1, ws2):
            ws.run(cost * 0 + 3, sources[:1])               # an earlier search leaves stamps
            ws.run(cost, sources, **kw)
        np.testing.assert_array_equal(ws1.reached(), ws2.reached())
        if odd is not None and not kw:
            assert d1[0, far] >= 0                      # its odd step was read
        assert (d1 >= 0).sum() > 100            # a real walk, not a few cells


@st.composite
def mostly_unit_cases(draw):
    # searches the breadth-first walk starts and gives up part of the way: steps of 1 but
    # for a few of 0, 2 or 3, every source at one cost
    ncols, nrows = draw(st.integers(2, 14)), draw(st.integers(2, 14))
    m = HexMap((1, ncols), (1, nrows))
    n = m.n_cells
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    odd_share = draw(st.sampled_from([0.0, 0.01, 0.05, 0.2]))
    cost = np.where(rng.random((n, 6)) < 0.15, -1, 1).astype(np.int16)
    odd = rng.random((n, 6)) < odd_share
    cost[odd] = rng.choice(np.array([0, 2, 3], dtype=np.int16), size=int(odd.sum()))
    cost[m.neighbors < 0] = -1
    sources = sorted(set(int(x) for x in rng.choice(n, draw(st.integers(1, 4)))))
    at = draw(st.integers(0, 3))
    stop = (rng.random(n) < draw(st.sampled_from([0.0, 0.1]))).astype(np.uint8)
    limit = draw(st.integers(-1, 12))
    tolls = {}
    if draw(st.booleans()):        # the walk over (tokens, cell) states
        tolls = {"toll": (rng.random(n) < 0.2).astype(np.uint8),
                 "max_toll": draw(st.integers(0, 2)), "toll_on_exit": draw(st.booleans())}
    return m, cost, sources, [at] * len(sources), stop, limit, tolls


@settings(max_examples=300, deadline=None)
@given(mostly_unit_cases())
def test_a_walk_handed_over_to_dial_part_of_the_way_matches_the_twin(case):
    # the compiled kernel keeps what its breadth-first walk settled and queued when it meets
    # a step of another cost, with tolls or without; the twin runs Dial's algorithm from the
    # start. Same distances, predecessors and order of first reaching, from fresh buffers and
    # from used ones
    m, cost, sources, scost, stop, limit, tolls = case
    kw = {"source_cost": scost, "stop": stop, "limit": limit, **tolls}
    d1, p1 = cy.bounded_search(m.neighbors, cost, sources, **kw)
    d2, p2 = py.bounded_search(m.neighbors, cost, sources, **kw)
    np.testing.assert_array_equal(d1, d2)
    np.testing.assert_array_equal(p1, p2)
    layers = 3
    ws1, ws2 = cy.SearchWorkspace(m.neighbors, layers), py.SearchWorkspace(m.neighbors, layers)
    for ws in (ws1, ws2):
        ws.run(cost, [0], limit=3)                      # an earlier search leaves stamps
        ws.run(cost, sources, **kw)
    np.testing.assert_array_equal(ws1.reached(), ws2.reached())
    np.testing.assert_array_equal(ws1.run(cost, sources, **kw)[1], p2)


def test_many_sources_in_any_order_search_as_in_cell_order():
    # past a handful of sources the kernel sorts them with Shell's sort (_sort_cells)
    m = HexMap((1, 40), (1, 40))
    rng = np.random.default_rng(4)
    cost = rng.integers(-1, 4, size=(m.n_cells, 6)).astype(np.int16)
    cost[m.neighbors < 0] = -1
    for k in (17, 150, 1200):
        sources = rng.choice(m.n_cells, size=k, replace=False)
        scost = rng.integers(0, 3, size=k)
        order = np.argsort(sources)
        d1, p1 = cy.bounded_search(m.neighbors, cost, sources, source_cost=scost, limit=9)
        d2, p2 = cy.bounded_search(m.neighbors, cost, sources[order], source_cost=scost[order],
                                   limit=9)
        d3, p3 = py.bounded_search(m.neighbors, cost, sources, source_cost=scost, limit=9)
        np.testing.assert_array_equal(d1, d2)
        np.testing.assert_array_equal(p1, p2)
        np.testing.assert_array_equal(d1, d3)
        np.testing.assert_array_equal(p1, p3)
