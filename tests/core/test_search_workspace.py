"""The reusable search workspace: exact arrays, one workspace across many different queries
(where generation stamps go wrong), view lifetimes, the generation wrap-round, argument
conversion of both search entry points, threads, and the compiled twins equal."""

import doctest
import sys
import threading

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwe_fast import HexMap
from gwe_fast._core import search as cy
from gwe_fast._pure import search as py
from random_maps import hex_map

IMPLS = pytest.mark.parametrize("mod", [cy, py], ids=["cython", "pure"])


def line_map(n):
    """A 1-column map 0101..01nn: cell i neighbours i-1 (N) and i+1 (S)."""
    return HexMap((1, 1), (1, n))


def unit_cost(m):
    return np.where(m.neighbors >= 0, 1, -1).astype(np.int16)


@IMPLS
def test_whole_arrays_on_a_line_from_one_workspace(mod):
    m = line_map(6)
    cost = unit_cost(m)
    cost[3, 3] = 3                     # stepping 0104 -> 0105 costs 3
    ws = mod.SearchWorkspace(m.neighbors, n_layers=4)
    assert (ws.n_cells, ws.n_layers) == (6, 4)
    dist, pred = ws.run(cost, [1], limit=4)
    np.testing.assert_array_equal(dist, [[1, 0, 1, 2, -1, -1]])
    np.testing.assert_array_equal(pred, [[1, -1, 1, 2, -1, -1]])
    np.testing.assert_array_equal(ws.reached(), [1, 0, 2, 3])   # sources, then first reached
    dist, pred = ws.run(cost, [5, 1], source_cost=[1, 0])
    np.testing.assert_array_equal(dist, [[1, 0, 1, 2, 2, 1]])
    np.testing.assert_array_equal(pred, [[1, -1, 1, 2, 5, -1]])
    stop = np.array([0, 0, 1, 0, 0, 0], dtype=np.uint8)
    dist, _ = ws.run(cost, [0], stop=stop)
    np.testing.assert_array_equal(dist, [[0, 1, 2, -1, -1, -1]])
    toll = np.array([0, 1, 1, 1, 0, 0], dtype=np.uint8)
    dist, pred = ws.run(unit_cost(m), [0], toll=toll, max_toll=2)
    np.testing.assert_array_equal(dist, [[0, -1, -1, -1, -1, -1],
                                         [-1, 1, -1, -1, -1, -1],
                                         [-1, -1, 2, -1, -1, -1]])
    assert pred[2, 2] == 1 * 6 + 1
    dist, _ = ws.run(unit_cost(m), [0], toll=toll, max_toll=3)
    assert dist.shape == (4, 6) and dist[3, 5] == 5
    dist, pred = ws.run(cost, [])
    assert dist.shape == (1, 6) and (dist == -1).all() and (pred == -1).all()
    assert ws.reached().size == 0


@IMPLS
def test_views_live_until_the_next_search_and_copies_for_ever(mod):
    m = line_map(5)
    cost = unit_cost(m)
    toll = np.array([0, 1, 0, 1, 0], dtype=np.uint8)
    ws = mod.SearchWorkspace(m.neighbors, n_layers=3)
    d1, p1 = ws.run(cost, [0], toll=toll, max_toll=2)
    kept, _ = ws.run(cost, [0], toll=toll, max_toll=2, copy=True)
    np.testing.assert_array_equal(kept, d1)
    with pytest.raises(ValueError):
        d1[0, 0] = 7                   # views are read-only
    kept[0, 0] = 7                     # copies are the caller's
    d2, p2 = ws.run(cost, [4], limit=1)
    # the earlier views now show the new search: its layer, -1 in the layers it did not use
    np.testing.assert_array_equal(d1, [[-1, -1, -1, 1, 0], [-1] * 5, [-1] * 5])
    np.testing.assert_array_equal(p1, [[-1, -1, -1, 4, -1], [-1] * 5, [-1] * 5])
    np.testing.assert_array_equal(d2, d1[:1])
    np.testing.assert_array_equal(p2, p1[:1])
    assert kept[0, 0] == 7 and kept[1, 1] == 1


@IMPLS
def test_bad_arguments_are_refused_and_leave_the_workspace_usable(mod):
    m = line_map(4)
    cost = unit_cost(m)
    with pytest.raises(ValueError, match="neighbors"):
        mod.SearchWorkspace(m.neighbors[:, :5])
    with pytest.raises(ValueError, match="neighbors"):
        mod.SearchWorkspace(np.where(m.neighbors >= 0, m.neighbors + 1, -1))
    with pytest.raises(ValueError, match="n_layers"):
        mod.SearchWorkspace(m.neighbors, n_layers=0)
    ws = mod.SearchWorkspace(m.neighbors, n_layers=2)
    dist, _ = ws.run(cost, [0])
    with pytest.raises(IndexError):
        ws.run(cost, [4])
    with pytest.raises(ValueError, match="max_toll"):
        ws.run(cost, [0], max_toll=2)
    with pytest.raises(ValueError, match="max_toll"):
        ws.run(cost, [0], max_toll=-1)
    with pytest.raises(ValueError, match="step_cost"):
        ws.run(cost[:3], [0])
    with pytest.raises(ValueError, match="source_cost"):
        ws.run(cost, [0, 1], source_cost=[0])
    with pytest.raises(ValueError, match="source costs"):
        ws.run(cost, [0], source_cost=[-1])
    with pytest.raises(ValueError, match="stop and toll"):
        ws.run(cost, [0], stop=np.zeros(3, dtype=np.uint8))
    np.testing.assert_array_equal(dist, [[0, 1, 2, 3]])   # a refused search changes nothing
    dist, _ = ws.run(cost, [3], limit=1)
    np.testing.assert_array_equal(dist, [[-1, -1, 1, 0]])


@IMPLS
def test_the_generation_wraps_round_and_forgets_old_stamps(mod):
    # a workspace that has run 2**32 searches numbers them from 1 again; stamps from the
    # search that had the same number long ago must not count
    m = HexMap((1, 6), (1, 6))
    cost = unit_cost(m)
    ws = mod.SearchWorkspace(m.neighbors)
    ws._set_generation(4)
    dist, _ = ws.run(cost, [0])                # generation 5 stamps every cell
    assert ws.generation == 5 and (dist >= 0).all()
    ws._set_generation(2 ** 32 - 3)
    seen = []
    for i in range(8):
        dist, pred = ws.run(cost, [i], limit=1)
        seen.append(ws.generation)
        ref_d, ref_p = cy.bounded_search(m.neighbors, cost, [i], limit=1)
        np.testing.assert_array_equal(dist, ref_d)
        np.testing.assert_array_equal(pred, ref_p)
    assert seen == [2 ** 32 - 2, 2 ** 32 - 1, 1, 2, 3, 4, 5, 6]
    with pytest.raises(ValueError):
        ws._set_generation(0)


@IMPLS
def test_large_steps_and_source_spreads_grow_the_queue(mod):
    # the bucket ring starts small and grows mid-search; results must not depend on it
    rng = np.random.default_rng(5)
    m = HexMap((1, 9), (1, 7))
    ws = mod.SearchWorkspace(m.neighbors, n_layers=2)
    for scale in (3, 40, 700, 3, 30000, 5):
        cost = rng.integers(0, scale + 1, m.neighbors.shape).astype(np.int16)
        cost[m.neighbors < 0] = -1
        sources = rng.choice(m.n_cells, 3, replace=False)
        scost = rng.integers(0, 3 * scale, 3)
        toll = (rng.random(m.n_cells) < 0.2).astype(np.uint8)
        args = dict(source_cost=scost, toll=toll, max_toll=1)
        ref = py.bounded_search(m.neighbors, cost, sources, **args)
        for got in (ws.run(cost, sources, **args),
                    mod.bounded_search(m.neighbors, cost, sources, **args)):
            np.testing.assert_array_equal(got[0], ref[0])
            np.testing.assert_array_equal(got[1], ref[1])


@IMPLS
def test_arguments_of_any_dtype_and_layout_give_the_same_search(mod):
    m = HexMap((1, 5), (1, 4))
    rng = np.random.default_rng(3)
    cost = rng.integers(-1, 4, m.neighbors.shape).astype(np.int16)
    stop = (rng.random(m.n_cells) < 0.3).astype(np.uint8)
    toll = (rng.random(m.n_cells) < 0.3).astype(np.uint8)
    args = dict(limit=6, stop=stop, toll=toll, max_toll=1)
    ref = py.bounded_search(m.neighbors, cost, [2, 7], source_cost=[1, 0], **args)
    frozen = [a.copy() for a in (m.neighbors, cost, stop, toll)]
    for a in frozen:
        a.flags.writeable = False              # read-only inputs are fine: nothing is written
    variants = [
        (m.neighbors, cost, [2, 7], [1, 0], stop, toll),
        (frozen[0], frozen[1], (2, 7), (1, 0), frozen[2], frozen[3]),
        (m.neighbors.astype(">i4"), np.asfortranarray(cost.astype(np.int64)),
         np.array([2, 7], dtype=np.int64), np.array([1, 0], dtype=np.uint8),
         stop.astype(bool), toll.astype(np.int32)),
        (m.neighbors.tolist(), cost.tolist(), [np.int64(2), np.int32(7)], [np.int16(1), 0],
         stop.tolist(), toll[::1].tolist()),
        (m.neighbors, cost, np.array([[2], [7]], dtype=np.int32),
         np.array([1, 0], dtype=np.int32), stop.reshape(4, 5), toll),
    ]
    ws = mod.SearchWorkspace(m.neighbors, n_layers=2)
    for nb, c, src, scost, stp, tl in variants:
        kw = dict(args, stop=stp, toll=tl)
        for got in (mod.bounded_search(nb, c, src, source_cost=scost, **kw),
                    ws.run(c, src, source_cost=scost, **kw)):
            np.testing.assert_array_equal(got[0], ref[0])
            np.testing.assert_array_equal(got[1], ref[1])
    # one source given as a bare integer
    np.testing.assert_array_equal(mod.bounded_search(m.neighbors, cost, 7)[0],
                                  mod.bounded_search(m.neighbors, cost, [7])[0])
    np.testing.assert_array_equal(ws.run(cost, 7)[0],
                                  mod.bounded_search(m.neighbors, cost, [7])[0])
    for a, b in zip(frozen, (m.neighbors, cost, stop, toll)):
        np.testing.assert_array_equal(a, b)


@st.composite
def one_map_many_queries(draw):
    """A random map, a layer count and a sequence of queries of different shapes on it."""
    m = hex_map(draw, 10, 10)
    n = m.n_cells
    n_layers = draw(st.integers(1, 4))
    queries = []
    for _ in range(draw(st.integers(1, 8))):
        top = draw(st.sampled_from([5, 5, 5, 40, "unit", "unit"]))
        if top == "unit":
            # steps of 1 (or refused), which the compiled kernel walks breadth-first, now
            # and then with a step of 0 or 2 that hands it over to Dial part way
            cost = np.array(draw(st.lists(st.sampled_from([-1, 1, 1, 1]), min_size=6 * n,
                                          max_size=6 * n)), dtype=np.int16).reshape(n, 6)
            for _ in range(draw(st.sampled_from([0, 0, 1, 2]))):
                cost[draw(st.integers(0, n - 1)), draw(st.integers(0, 5))] = \
                    draw(st.sampled_from([0, 2]))
        else:
            cost = np.array(draw(st.lists(st.integers(-1, top), min_size=6 * n,
                                          max_size=6 * n)), dtype=np.int16).reshape(n, 6)
        cost[m.neighbors < 0] = -1
        k = draw(st.integers(0, 5))
        sources = draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k))
        q = dict(step_cost=cost, sources=sources,
                 limit=draw(st.integers(-1, 25)),
                 max_toll=draw(st.integers(0, n_layers - 1)),
                 toll_on_exit=draw(st.booleans()))
        if draw(st.booleans()):
            same = draw(st.integers(0, 9))
            q["source_cost"] = draw(st.lists(st.sampled_from([same, same, same + 1]),
                                             min_size=k, max_size=k))
        if draw(st.booleans()):
            q["stop"] = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)),
                                 dtype=np.uint8)
        if draw(st.booleans()):
            # with steps of 1, the tolled breadth-first walk (else Dial with tolls)
            q["toll"] = np.array(draw(st.lists(st.integers(0, 2), min_size=n, max_size=n)),
                                 dtype=np.uint8)
        queries.append(q)
    return m, n_layers, queries


@settings(max_examples=150, deadline=None)
@given(one_map_many_queries())
def test_one_workspace_answers_every_query_as_a_fresh_search(case):
    m, n_layers, queries = case
    n = m.n_cells
    wss = [cy.SearchWorkspace(m.neighbors, n_layers), py.SearchWorkspace(m.neighbors, n_layers)]
    earlier = [None, None]
    for q in queries:
        ref_d, ref_p = cy.bounded_search(m.neighbors, **q)
        reached = []
        for i, ws in enumerate(wss):
            dist, pred = ws.run(**q)
            np.testing.assert_array_equal(dist, ref_d)
            np.testing.assert_array_equal(pred, ref_p)
            # views of the last query, of a different shape, show this one and nothing stale
            if earlier[i] is not None:
                old_d, old_p = earlier[i]
                layers = min(len(old_d), len(ref_d))
                np.testing.assert_array_equal(old_d[:layers], ref_d[:layers])
                np.testing.assert_array_equal(old_p[:layers], ref_p[:layers])
                assert (old_d[layers:] == -1).all() and (old_p[layers:] == -1).all()
            earlier[i] = dist, pred
            reached.append(ws.reached())
            assert sorted(reached[-1].tolist()) == np.flatnonzero(ref_d.reshape(-1) >= 0).tolist()
        np.testing.assert_array_equal(reached[0], reached[1])
        assert reached[0].max(initial=-1) < len(ref_d) * n


def test_separate_workspaces_search_in_threads_at_once():
    # the search runs without the GIL; each thread has its own workspace
    rng = np.random.default_rng(11)
    m = HexMap((1, 30), (1, 20))
    cases = []
    for _ in range(12):
        cost = rng.integers(-1, 4, m.neighbors.shape).astype(np.int16)
        cases.append((cost, rng.choice(m.n_cells, 4, replace=False)))
    refs = [cy.bounded_search(m.neighbors, c, s)[0] for c, s in cases]
    failures = []

    def work(offset):
        ws = cy.SearchWorkspace(m.neighbors)
        for rep in range(200):
            i = (rep + offset) % len(cases)
            if not np.array_equal(ws.run(*cases[i])[0], refs[i]):
                failures.append((offset, rep))
            if not np.array_equal(cy.bounded_search(m.neighbors, *cases[i])[0], refs[i]):
                failures.append((offset, rep, "bounded_search"))

    threads = [threading.Thread(target=work, args=(k,)) for k in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_docstring_examples_of_the_compiled_kernel_run():
    result = doctest.testmod(cy, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 10 and result.failed == 0


CALLER = '''
# cython: language_level=3, boundscheck=False, wraparound=False
from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t
from gwe_fast._core.search cimport SearchWorkspace


def search_and_read(SearchWorkspace ws, const stepcost_t[:, ::1] cost, const cell_t[::1] src,
                    const flag_t[::1] toll, int max_toll, dist_t limit):
    """What a compiled caller does: search without the GIL, read states one at a time."""
    cdef Py_ssize_t i, states = (max_toll + 1) * ws.n_cells
    cdef int settled
    with nogil:
        settled = ws.search(&cost[0, 0], &src[0], NULL, src.shape[0], limit, NULL,
                            &toll[0], max_toll, False)
    return ([ws.dist_at(i) for i in range(states)], [ws.pred_at(i) for i in range(states)],
            [ws.buf.touched[i] for i in range(ws.buf.n_touched)], settled)
'''


@pytest.mark.slow
def test_a_compiled_caller_cimports_the_workspace_and_searches_without_the_gil(tmp_path):
    # the C entry of search.pxd, as the compiled turn loop will use it (builds a module)
    pyximport = pytest.importorskip("pyximport")
    (tmp_path / "search_caller.pyx").write_text(CALLER)
    importer = pyximport.install(setup_args={"include_dirs": np.get_include()},
                                 build_dir=str(tmp_path / "build"), language_level=3)
    sys.path.insert(0, str(tmp_path))
    try:
        import search_caller
    finally:
        sys.path.remove(str(tmp_path))
        pyximport.uninstall(*importer)
    rng = np.random.default_rng(8)
    m = HexMap((1, 7), (1, 6))
    ws = cy.SearchWorkspace(m.neighbors, n_layers=3)
    for _ in range(5):
        cost = rng.integers(-1, 4, m.neighbors.shape).astype(np.int16)
        src = rng.choice(m.n_cells, 2, replace=False).astype(np.int32)
        toll = (rng.random(m.n_cells) < 0.3).astype(np.uint8)
        dist, pred, touched, settled = search_caller.search_and_read(ws, cost, src, toll, 2, 6)
        ref_d, ref_p = cy.bounded_search(m.neighbors, cost, src, limit=6, toll=toll,
                                         max_toll=2)
        np.testing.assert_array_equal(dist, ref_d.reshape(-1))
        np.testing.assert_array_equal(pred, ref_p.reshape(-1))
        assert sorted(touched) == np.flatnonzero(ref_d.reshape(-1) >= 0).tolist()
        assert 0 < settled <= len(touched)
        # the Python face of the same workspace afterwards agrees
        np.testing.assert_array_equal(ws.run(cost, src, limit=6, toll=toll, max_toll=2)[0],
                                      ref_d)
    with pytest.raises(IndexError):
        search_caller.search_and_read(ws, cost, np.array([m.n_cells], dtype=np.int32), toll,
                                      0, -1)
    with pytest.raises(ValueError, match="max_toll"):
        search_caller.search_and_read(ws, cost, src, toll, 3, -1)
