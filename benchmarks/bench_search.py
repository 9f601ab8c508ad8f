"""Movement-range search: the Cython kernel against its twin, scipy and networkx.

One group per map size; every implementation answers the same query (all hexes reachable
with movement allowance 6 from the centre) and the answers are asserted equal.
Run: ``pytest benchmarks --benchmark-enable --benchmark-only``.
"""

import numpy as np
import pytest

from benchmarks.conftest import movement_case
from gwe_fast._core import search as cy
from gwe_fast._pure import search as py

SIZES = [(31, 21), (40, 30), (80, 60)]
ALLOWANCE = 6


def reference(m, cost, source):
    d, _ = py.bounded_search(m.neighbors, cost, [source], limit=ALLOWANCE)
    return d[0]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("impl", ["cython", "pure", "scipy", "networkx"])
def test_movement_range(benchmark, size, impl):
    m, cost, source = movement_case(*size)
    benchmark.group = f"movement-range {size[0]}x{size[1]}"
    benchmark.extra_info.update(n_cells=m.n_cells, allowance=ALLOWANCE)
    expected = reference(m, cost, source)
    if impl == "cython":
        dist = benchmark(lambda: cy.bounded_search(m.neighbors, cost, [source],
                                                   limit=ALLOWANCE)[0][0])
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
@pytest.mark.parametrize("impl", ["cython", "pure"])
def test_supply_trace_two_tolls(benchmark, size, impl):
    """9.14-style trace: 12 sources, range 5, up to two toll hexes."""
    m, cost, _ = movement_case(*size, seed=1)
    rng = np.random.default_rng(2)
    sources = rng.choice(m.n_cells, 12, replace=False)
    toll = (rng.random(m.n_cells) < 0.1).astype(np.uint8)
    mod = cy if impl == "cython" else py
    benchmark.group = f"supply-trace {size[0]}x{size[1]}"
    benchmark.extra_info.update(n_cells=m.n_cells, sources=12)
    dist, _ = benchmark(lambda: mod.bounded_search(m.neighbors, cost, sources, limit=5,
                                                   toll=toll, max_toll=2))
    ref, _ = py.bounded_search(m.neighbors, cost, sources, limit=5, toll=toll, max_toll=2)
    np.testing.assert_array_equal(dist, ref)


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
