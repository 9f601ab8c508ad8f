"""The compiled cores' movement range (search.pxd ``Range``) against the general search.

A core searches a unit's range with ``range_search``: one source, no tolls, a limit, buckets
as arrays and distances reset from the cells reached. It must give the distances *and* the
predecessors of ``bounded_search`` (FIFO Dial), since the path a unit takes marks the hexes
it entered; every query of a sequence on one ``Range`` must answer as a fresh search.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwe_fast import HexMap
from gwe_fast._core import search as cy
from random_maps import hex_map


@st.composite
def range_cases(draw):
    m = hex_map(draw, 10, 10)
    n = m.n_cells
    # steps of 0 (queued behind their own level), refusals of any negative value, and
    # costs left on steps off the map (refused all the same)
    cost = np.array(draw(st.lists(st.sampled_from([-3, -1, 0, 1, 1, 2, 3, 5, 9]),
                                  min_size=6 * n, max_size=6 * n)), dtype=np.int16).reshape(n, 6)
    if draw(st.booleans()):
        cost[m.neighbors < 0] = -1
    stop = None
    if draw(st.booleans()):
        stop = np.array(draw(st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=n,
                                      max_size=n)), dtype=np.uint8)
    queries = [(draw(st.integers(0, n - 1)), draw(st.integers(0, 30)))
               for _ in range(draw(st.integers(1, 6)))]
    return m, cost, stop, queries


@settings(max_examples=300, deadline=None)
@given(range_cases())
def test_each_range_is_the_general_search_from_its_hex(case):
    m, cost, stop, queries = case
    got = cy.movement_ranges(m.neighbors, cost, queries, stop=stop)
    assert len(got) == len(queries)
    for (source, limit), (dist, pred, moves) in zip(queries, got):
        d, p = cy.bounded_search(m.neighbors, cost, [source], limit=limit, stop=stop)
        np.testing.assert_array_equal(dist, d[0])
        np.testing.assert_array_equal(pred, p[0])
        # the cell set a random player draws from: every hex reached at a cost above 0
        np.testing.assert_array_equal(moves, np.flatnonzero(d[0] > 0))


def test_a_zone_of_control_is_entered_not_left_and_the_source_is_left():
    m = HexMap((1, 1), (1, 5))                  # one column: 0101 .. 0105
    cost = np.where(m.neighbors >= 0, 1, -1).astype(np.int16)
    stop = np.zeros(m.n_cells, dtype=np.uint8)
    stop[[0, 2]] = 1                            # the source's own hex stops nothing
    [(dist, pred, moves)] = cy.movement_ranges(m.neighbors, cost, [(0, 9)], stop=stop)
    assert dist.tolist() == [0, 1, 2, -1, -1]
    assert pred.tolist() == [-1, 0, 1, -1, -1]
    assert moves.tolist() == [1, 2]


def test_hexes_reached_at_no_cost_are_not_moves():
    m = HexMap((1, 1), (1, 4))
    cost = np.where(m.neighbors >= 0, 0, -1).astype(np.int16)
    cost[1] = np.where(m.neighbors[1] >= 0, 2, -1)     # out of 0102: 2 a step
    [(dist, _, moves)] = cy.movement_ranges(m.neighbors, cost, [(0, 5)])
    assert dist.tolist() == [0, 0, 2, 2]
    assert moves.tolist() == [2, 3]


def test_bad_queries_are_refused():
    m = HexMap((1, 1), (1, 3))
    cost = np.where(m.neighbors >= 0, 1, -1).astype(np.int16)
    with pytest.raises(IndexError, match="not a cell"):
        cy.movement_ranges(m.neighbors, cost, [(3, 2)])
    with pytest.raises(ValueError, match="limit of 0 to 32767"):
        cy.movement_ranges(m.neighbors, cost, [(0, -1)])
    with pytest.raises(ValueError, match="limit of 0 to 32767"):
        cy.movement_ranges(m.neighbors, cost, [(0, 40000)])
    with pytest.raises(ValueError, match="shape"):
        cy.movement_ranges(m.neighbors, cost[:2], [(0, 1)])
    with pytest.raises(ValueError, match="one entry per cell"):
        cy.movement_ranges(m.neighbors, cost, [(0, 1)], stop=[0, 1])
