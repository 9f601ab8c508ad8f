"""Movement-range search: the Cython kernel against its twin, scipy and networkx.

One group per map size (three random maps, and the Kaiser's Battle map with its own terrain
and hexside costs, the query of ``gwe bench``); every implementation answers the same query
(all hexes reachable with movement allowance 6 from the centre) and the answers are asserted
equal. "cython" is ``bounded_search`` (allocates its results), "workspace" is
``SearchWorkspace.run`` on buffers made once per map (returns views). The supply-side group
traces supply for a whole side on the Kaiser's Battle map with terrain costs (Dial's
algorithm); the supply-lines groups run the game's own supply-line search (unit steps, walked
breadth-first) in its opening position.
Run: ``pytest benchmarks --benchmark-enable --benchmark-only``.
"""

import numpy as np
import pytest

from benchmarks.conftest import movement_case
from gwe_fast._core import search as cy
from gwe_fast._pure import search as py
from gwe_fast.bench import kb_movement_query

SIZES = [(31, 21), (40, 30), (80, 60)]
ALLOWANCE = 6


def reference(m, cost, source):
    d, _ = py.bounded_search(m.neighbors, cost, [source], limit=ALLOWANCE)
    return d[0]


def _size_id(size):
    return size if isinstance(size, str) else f"{size[0]}x{size[1]}"


@pytest.mark.parametrize("size", [*SIZES, "kaisers-battle-map"], ids=_size_id)
@pytest.mark.parametrize("impl", ["cython", "workspace", "pure", "scipy", "networkx"])
def test_movement_range(benchmark, size, impl):
    m, cost, source = kb_movement_query() if isinstance(size, str) else movement_case(*size)
    benchmark.group = f"movement-range {_size_id(size)}"
    benchmark.extra_info.update(n_cells=m.n_cells, allowance=ALLOWANCE)
    expected = reference(m, cost, source)
    if impl == "cython":
        dist = benchmark(lambda: cy.bounded_search(m.neighbors, cost, [source],
                                                   limit=ALLOWANCE)[0][0])
    elif impl == "workspace":
        ws = cy.SearchWorkspace(m.neighbors)
        dist = benchmark(lambda: ws.run(cost, [source], limit=ALLOWANCE)[0][0])
    elif impl == "pure":
        dist = benchmark(lambda: py.bounded_search(m.neighbors, cost, [source],
                                                   limit=ALLOWANCE)[0][0])
    elif impl == "scipy":
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import dijkstra

        u, d = np.nonzero(cost >= 0)
        g = csr_matrix((cost[u, d].astype(float), (u, m.neighbors[u, d])),
                       shape=(m.n_cells, m.n_cells))

        def run():
            r = dijkstra(g, indices=source, limit=ALLOWANCE)
            return np.where(np.isinf(r), -1, r).astype(np.int32)

        dist = benchmark(run)
    else:
        import networkx as nx

        g = nx.DiGraph()
        u, d = np.nonzero(cost >= 0)
        g.add_weighted_edges_from(zip(u.tolist(), m.neighbors[u, d].tolist(),
                                      cost[u, d].tolist()))

        def run():
            r = nx.single_source_dijkstra_path_length(g, int(source), cutoff=ALLOWANCE)
            out = np.full(m.n_cells, -1, dtype=np.int32)
            out[list(r)] = list(r.values())
            return out

        dist = benchmark(run)
    np.testing.assert_array_equal(dist, expected)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("impl", ["cython", "workspace", "pure"])
def test_supply_trace_two_tolls(benchmark, size, impl):
    """9.14-style trace: 12 sources, range 5, up to two toll hexes."""
    m, cost, _ = movement_case(*size, seed=1)
    rng = np.random.default_rng(2)
    sources = rng.choice(m.n_cells, 12, replace=False)
    toll = (rng.random(m.n_cells) < 0.1).astype(np.uint8)
    benchmark.group = f"supply-trace {size[0]}x{size[1]}"
    benchmark.extra_info.update(n_cells=m.n_cells, sources=12)
    if impl == "workspace":
        ws = cy.SearchWorkspace(m.neighbors, n_layers=3)
        dist, _ = benchmark(lambda: ws.run(cost, sources, limit=5, toll=toll, max_toll=2))
    else:
        mod = cy if impl == "cython" else py
        dist, _ = benchmark(lambda: mod.bounded_search(m.neighbors, cost, sources, limit=5,
                                                       toll=toll, max_toll=2))
    ref, _ = py.bounded_search(m.neighbors, cost, sources, limit=5, toll=toll, max_toll=2)
    np.testing.assert_array_equal(dist, ref)


def supply_side_case(n_hq=10, blocked_share=0.15, seed=4):
    """The Kaiser's Battle map (1,288 hexes) with random terrain entry costs 1..3, a random
    share of hexes that supply may not enter (enemy units and their zones of control) and the
    HQ hexes of one side as sources."""
    from gwe_fast import load_scenario

    m = load_scenario("kaisers_battle/historical").map
    rng = np.random.default_rng(seed)
    enter = rng.choice([1, 1, 1, 2, 2, 3], size=m.n_cells).astype(np.int16)
    blocked = rng.random(m.n_cells) < blocked_share
    hq = rng.choice(np.flatnonzero(~blocked), n_hq, replace=False).astype(np.int32)
    into = np.maximum(m.neighbors, 0)
    cost = np.where((m.neighbors >= 0) & ~blocked[into], enter[into], -1).astype(np.int16)
    return m, cost, hq


def whole_side_search(impl, nb, cost, sources, unweighted=False):
    """A function that searches from every source over the whole map with ``impl`` and
    returns each cell's least cost (-1 unreached), as ``bounded_search``'s first layer. scipy
    and networkx get the same graph: an edge for each allowed step (weight 1 with
    ``unweighted``, for a search that counts hexes)."""
    n = nb.shape[0]
    if impl == "cython":
        return lambda: cy.bounded_search(nb, cost, sources)[0][0]
    if impl == "workspace":
        ws = cy.SearchWorkspace(nb)
        return lambda: ws.run(cost, sources)[0][0]
    if impl == "pure":
        return lambda: py.bounded_search(nb, cost, sources)[0][0]
    u, d = np.nonzero(cost >= 0)
    weight = np.ones(len(u)) if unweighted else cost[u, d].astype(float)
    if impl == "scipy":
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import dijkstra

        g = csr_matrix((weight, (u, nb[u, d])), shape=(n, n))

        def run():
            r = dijkstra(g, indices=sources, min_only=True, unweighted=unweighted)
            return np.where(np.isinf(r), -1, r).astype(np.int32)

        return run
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_weighted_edges_from(zip(u.tolist(), nb[u, d].tolist(), weight.tolist()))

    def run():
        out = np.full(n, -1, dtype=np.int32)
        for c, k in nx.multi_source_dijkstra_path_length(g, set(sources.tolist())).items():
            out[c] = k
        return out

    return run


@pytest.mark.parametrize("impl", ["cython", "workspace", "pure", "scipy", "networkx"])
def test_supply_for_a_whole_side(benchmark, impl):
    """Least cost from the nearest of 10 HQs to every hex, unlimited, enemy hexes blocked."""
    m, cost, hq = supply_side_case()
    benchmark.group = "supply-side kaisers-battle"
    benchmark.extra_info.update(n_cells=m.n_cells, sources=len(hq))
    expected = py.bounded_search(m.neighbors, cost, hq)[0][0]
    dist = benchmark(whole_side_search(impl, m.neighbors, cost, hq))
    assert (dist >= 0).sum() > m.n_cells // 2      # most of the map is in supply
    np.testing.assert_array_equal(dist, expected)


def supply_lines_case(side):
    """The supply-line search of The Kaiser's Battle (14.12: hexes counted, terrain never
    matters, enemy units and zones of control closed unless a friendly unit is there) for one
    side in the opening position of the historical scenario, exactly as the engine's
    ``supply.line_lengths`` runs it."""
    from gwe_fast import load_scenario
    from gwe_fast.games import driver
    from gwe_fast.games.kb import supply

    sc = load_scenario("kaisers_battle/historical")
    game = driver(sc.game).new_game(sc, 0, 0)
    return sc.map, *supply.line_search(game, side)


@pytest.mark.parametrize("side", [0, 1], ids=["allied", "german"])
@pytest.mark.parametrize("impl", ["cython", "workspace", "pure", "scipy", "networkx"])
def test_supply_lines_for_a_whole_side(benchmark, impl, side):
    """Every hex's supply line to the nearest HQ of one side: unit steps, walked breadth-first
    by the compiled kernel."""
    m, nb, cost, hq = supply_lines_case(side)
    benchmark.group = f"supply-lines kaisers-battle {['allied', 'german'][side]}"
    benchmark.extra_info.update(n_cells=m.n_cells, sources=len(hq))
    expected = py.bounded_search(nb, cost, hq)[0][0]
    dist = benchmark(whole_side_search(impl, nb, cost, hq, unweighted=True))
    assert (dist >= 0).sum() > m.n_cells * 3 // 4     # most of the map is in supply
    np.testing.assert_array_equal(dist, expected)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("impl", ["cython", "pure"])
def test_build_map(benchmark, size, impl):
    """Cells, neighbour table and axial coordinates of a whole map."""
    from gwe_fast import HexMap

    benchmark.group = f"build-map {size[0]}x{size[1]}"
    m = benchmark(lambda: HexMap((1, size[0]), (1, size[1]), impl=impl))
    assert m.n_cells == size[0] * size[1]
    np.testing.assert_array_equal(m.neighbors,
                                  HexMap((1, size[0]), (1, size[1]), impl="pure").neighbors)
