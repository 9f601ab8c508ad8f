"""The hex grid kernels: the documented convention, and Cython == pure-Python twin."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwe_fast import HexMap
from gwe_fast._core import hexgrid as cy
from gwe_fast._pure import hexgrid as py
from gwe_fast.enums import Hexside


def test_neighbors_of_odd_and_even_columns_on_a_3x3_map():
    m = HexMap((1, 3), (1, 3))
    ids = lambda row: [m.id_of(c) if c >= 0 else None for c in row]  # noqa: E731
    # odd column 1: N, NE, SE, S, SW, NW
    assert ids(m.neighbors[m.cell("0102")]) == ["0101", "0201", "0202", "0103", None, None]
    # even columns sit half a hex lower
    assert ids(m.neighbors[m.cell("0202")]) == ["0201", "0302", "0303", "0203", "0103", "0102"]
    assert ids(m.neighbors[m.cell("0101")]) == [None, None, "0201", "0102", None, None]
    assert ids(m.neighbors[m.cell("0303")]) == ["0302", None, None, None, "0203", "0202"]


def test_whole_neighbor_table_of_a_2x2_map():
    m = HexMap((1, 2), (1, 2))   # cells: 0101=0, 0102=1, 0201=2, 0202=3
    expected = np.array([
        [-1, -1, 2, 1, -1, -1],   # 0101
        [0, 2, 3, -1, -1, -1],    # 0102
        [-1, -1, -1, 3, 1, 0],    # 0201
        [2, -1, -1, -1, -1, 1],   # 0202
    ], dtype=np.int32)
    np.testing.assert_array_equal(m.neighbors, expected)


def test_ids_cells_round_trip_with_absent_hexes():
    m = HexMap((3, 5), (10, 12), absent=["0411"])
    assert m.n_cells == 8
    assert list(m.ids) == [310, 311, 312, 410, 412, 510, 511, 512]
    assert not m.contains("0411") and not m.contains("0609") and m.contains("0512")
    with pytest.raises(KeyError, match="0411"):
        m.cell("0411")
    assert m.neighbors[m.cell("0410"), 3] == -1     # S of 0410 is the absent 0411


def test_hex_ids_are_validated():
    m = HexMap((1, 2), (1, 2))
    for bad in ["101", "01011", "ab01", "", "0x01"]:
        with pytest.raises(ValueError, match="four-digit"):
            m.cell(bad)


def test_distance_matches_breadth_first_search():
    m = HexMap((1, 9), (1, 8))
    for start in [m.cell("0101"), m.cell("0504"), m.cell("0908"), m.cell("0605")]:
        bfs = np.full(m.n_cells, -1)
        bfs[start] = 0
        frontier = [start]
        while frontier:
            nxt = []
            for c in frontier:
                for v in m.neighbors[c]:
                    if v >= 0 and bfs[v] < 0:
                        bfs[v] = bfs[c] + 1
                        nxt.append(v)
            frontier = nxt
        np.testing.assert_array_equal(m.distances_from(start), bfs)


def test_range_and_ring_on_an_open_map():
    m = HexMap((1, 15), (1, 15))
    center = m.cell("0808")
    for r in range(5):
        ring = m.ring(center, r)
        assert ring.size == max(1, 6 * r)
        assert (m.distances_from(center)[ring] == r).all()
        within = m.within(center, r)
        assert within.size == 3 * r * (r + 1) + 1
        assert list(within) == sorted(within)
    corner = m.ring("0101", 1)
    assert sorted(m.id_of(c) for c in corner) == ["0102", "0201"]


def test_hexsides_are_symmetric():
    m = HexMap((1, 3), (1, 3))
    m.set_hexside("0202", "0303", Hexside.MINOR_RIVER)
    assert m.hexside("0303", "0202") == Hexside.MINOR_RIVER
    assert m.hexsides[m.cell("0202"), 2] == Hexside.MINOR_RIVER
    assert m.hexsides[m.cell("0303"), 5] == Hexside.MINOR_RIVER
    m.check_symmetric()
    m.hexsides[m.cell("0101"), 3] |= Hexside.BLOCKED      # one face only
    with pytest.raises(ValueError, match="0101-0102"):
        m.check_symmetric()
    with pytest.raises(ValueError, match="not adjacent"):
        m.set_hexside("0101", "0303", Hexside.RIDGE)


# --- Cython versus the pure-Python twin on random maps ---------------------------------------

@st.composite
def random_maps(draw):
    col0 = draw(st.integers(0, 12))
    row0 = draw(st.integers(0, 12))
    ncols = draw(st.integers(1, 14))
    nrows = draw(st.integers(1, 14))
    present = np.array(draw(st.lists(st.booleans(), min_size=ncols * nrows,
                                     max_size=ncols * nrows)), dtype=np.uint8)
    if not present.any():
        present[draw(st.integers(0, ncols * nrows - 1))] = 1
    return col0, col0 + ncols - 1, row0, row0 + nrows - 1, present


@settings(max_examples=150, deadline=None)
@given(random_maps(), st.data())
def test_twins_agree_on_random_maps(spec, data):
    col0, col1, row0, row1, present = spec
    nrows = row1 - row0 + 1
    a = cy.build_cells(col0, col1, row0, row1, present)
    b = py.build_cells(col0, col1, row0, row1, present)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
        assert x.dtype == y.dtype
    col, row, lookup = a
    n = col.shape[0]
    nb_c = cy.neighbor_table(col, row, lookup, col0, row0, nrows)
    nb_p = py.neighbor_table(col, row, lookup, col0, row0, nrows)
    np.testing.assert_array_equal(nb_c, nb_p)
    # neighbour relation is symmetric
    for i in range(n):
        for d in range(6):
            v = nb_c[i, d]
            if v >= 0:
                assert nb_c[v, (d + 3) % 6] == i
    ids = np.array(data.draw(st.lists(st.integers(-1, 2999), max_size=30)), dtype=np.int16)
    np.testing.assert_array_equal(cy.ids_to_cells(ids, lookup, col0, row0, nrows),
                                  py.ids_to_cells(ids, lookup, col0, row0, nrows))
    cells = np.arange(n, dtype=np.int32)
    hexids = cy.cells_to_ids(col, row, cells)
    np.testing.assert_array_equal(hexids, py.cells_to_ids(col, row, cells))
    np.testing.assert_array_equal(cy.ids_to_cells(hexids, lookup, col0, row0, nrows), cells)
    q1, r1 = cy.axial_coords(col, row)
    q2, r2 = py.axial_coords(col, row)
    np.testing.assert_array_equal(q1, q2)
    np.testing.assert_array_equal(r1, r2)
    center = data.draw(st.integers(0, n - 1))
    radius = data.draw(st.integers(0, 6))
    np.testing.assert_array_equal(cy.distances_from(q1, r1, center), py.distances_from(q1, r1, center))
    other = data.draw(st.integers(0, n - 1))
    assert cy.hex_distance(q1, r1, center, other) == py.hex_distance(q1, r1, center, other)
    np.testing.assert_array_equal(
        cy.hex_range(col, row, lookup, col0, row0, nrows, center, radius),
        py.hex_range(col, row, lookup, col0, row0, nrows, center, radius))
    np.testing.assert_array_equal(
        cy.hex_ring(col, row, lookup, col0, row0, nrows, center, radius),
        py.hex_ring(col, row, lookup, col0, row0, nrows, center, radius))
    # range is exactly the cells within the radius
    dist = cy.distances_from(q1, r1, center)
    np.testing.assert_array_equal(
        cy.hex_range(col, row, lookup, col0, row0, nrows, center, radius),
        np.flatnonzero(dist <= radius))
    # random symmetric hexside edits stay symmetric in both
    m1 = np.zeros((n, 6), dtype=np.uint16)
    m2 = np.zeros((n, 6), dtype=np.uint16)
    for _ in range(data.draw(st.integers(0, 20))):
        c = data.draw(st.integers(0, n - 1))
        d = data.draw(st.integers(0, 5))
        bits = data.draw(st.integers(1, 0x7FF))
        cy.set_hexside(m1, nb_c, c, d, bits)
        py.set_hexside(m2, nb_c, c, d, bits)
    np.testing.assert_array_equal(m1, m2)
    assert cy.find_asymmetry(m1, nb_c) == py.find_asymmetry(m2, nb_c) == (-1, -1)
    if n > 1 and (nb_c >= 0).any():
        i, d = np.argwhere(nb_c >= 0)[0]
        m1[i, d] ^= 1
        m2[i, d] ^= 1
        assert cy.find_asymmetry(m1, nb_c) == py.find_asymmetry(m2, nb_c) != (-1, -1)


def test_kernels_reject_bad_arguments_alike():
    col, row, lookup = cy.build_cells(1, 3, 1, 3, np.ones(9, dtype=np.uint8))
    for mod in (cy, py):
        with pytest.raises(IndexError):
            mod.cells_to_ids(col, row, np.array([9], dtype=np.int32))
        with pytest.raises(ValueError):
            mod.hex_range(col, row, lookup, 1, 1, 3, 0, -1)
        with pytest.raises(ValueError):
            mod.build_cells(1, 3, 1, 3, np.ones(8, dtype=np.uint8))
