"""The board procedures: complete arrays on tiny maps, Cython == pure-Python twin on random
maps and unit placements, and both equal to the numpy formulas the engines used before."""

import doctest

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwe_fast import HexMap
from gwe_fast._core import board as cy
from gwe_fast._pure import board as py
from random_maps import hex_map

BOTH = pytest.mark.parametrize("mod", [cy, py], ids=["cython", "pure"])
ON, ENTRAINED = 1, 1 << 5


def three_by_three():
    """0101..0303; cells in id order: 0101=0 0102=1 0103=2 0201=3 0202=4 0203=5 0301=6 ..."""
    return HexMap((1, 3), (1, 3))


def units(cells, status, sides):
    return (np.array(cells, dtype=np.int32), np.array(status, dtype=np.uint16),
            np.array(sides, dtype=np.int8))


@BOTH
def test_occupied_cells_whole_array(mod):
    cell, status, side = units([4, 0, 8, 4, 2], [ON, ON, ON, ON | ENTRAINED, 0],
                               [0, 1, 0, 0, 0])
    np.testing.assert_array_equal(mod.occupied_cells(9, cell, status, side, 0),
                                  [0, 0, 0, 0, 1, 0, 0, 0, 1])
    np.testing.assert_array_equal(mod.occupied_cells(9, cell, status, side, 1),
                                  [1, 0, 0, 0, 0, 0, 0, 0, 0])
    np.testing.assert_array_equal(mod.occupied_cells(9, cell, status, side, None),
                                  [1, 0, 0, 0, 1, 0, 0, 0, 1])
    # unit 0 alone in 0202 is not eligible; unit 3 (entrained) still holds it ...
    elig = np.array([0, 1, 1, 1, 1], dtype=bool)
    np.testing.assert_array_equal(mod.occupied_cells(9, cell, status, side, 0, eligible=elig),
                                  [0, 0, 0, 0, 1, 0, 0, 0, 1])
    # ... unless entrained units are left out too
    np.testing.assert_array_equal(
        mod.occupied_cells(9, cell, status, side, 0, ON, ENTRAINED, elig),
        [0, 0, 0, 0, 0, 0, 0, 0, 1])
    # engine flags: unit 2 carries a forbidden flag
    flags = np.array([0, 0, 4, 0, 0], dtype=np.uint16)
    np.testing.assert_array_equal(
        mod.occupied_cells(9, cell, status, side, 0, flags=flags, flags_forbid=4),
        [0, 0, 0, 0, 1, 0, 0, 0, 0])
    # a unit not on the map counts when nothing is required of its status
    np.testing.assert_array_equal(mod.occupied_cells(9, cell, status, side, 0, require=0),
                                  [0, 0, 1, 0, 1, 0, 0, 0, 1])
    # a side that no unit has selects none
    assert not mod.occupied_cells(9, cell, status, side, -1).any()


@BOTH
def test_zoc_cells_whole_array_and_blocked_hexsides(mod):
    m = three_by_three()
    c = m.cell("0202")
    cell, status, side = units([c], [ON], [1])
    expected = np.zeros(9, dtype=bool)
    expected[[m.cell(h) for h in ("0201", "0302", "0303", "0203", "0103", "0102")]] = True
    np.testing.assert_array_equal(mod.zoc_cells(m.neighbors, cell, status, side, 1), expected)
    assert not mod.zoc_cells(m.neighbors, cell, status, side, 0).any()
    blocked = np.zeros((9, 6), dtype=bool)
    blocked[c, 0] = True                                   # the N hexside of 0202
    expected[m.cell("0201")] = False
    np.testing.assert_array_equal(
        mod.zoc_cells(m.neighbors, cell, status, side, 1, blocked=blocked), expected)
    # a unit in a corner: only its neighbours on the map; its own hex is not in its zone
    cell, status, side = units([m.cell("0101"), m.cell("0102")], [ON, ON], [0, 0])
    np.testing.assert_array_equal(
        mod.zoc_cells(m.neighbors, cell, status, side, 0),
        # 0101: 0102, 0201; 0102: 0101, 0103, 0202, 0201 (even columns sit lower)
        [m.id_of(i) in ("0101", "0102", "0103", "0201", "0202") for i in range(9)])


@BOTH
def test_adjacent_cells_whole_array(mod):
    m = three_by_three()
    got = mod.adjacent_cells(m.neighbors, [m.cell("0303")])       # a corner: N, SW, NW
    np.testing.assert_array_equal(got, [m.id_of(i) in ("0302", "0203", "0202")
                                        for i in range(9)])
    got = mod.adjacent_cells(m.neighbors, np.array([m.cell("0303")]), with_cells=True)
    np.testing.assert_array_equal(got, [m.id_of(i) in ("0302", "0203", "0202", "0303")
                                        for i in range(9)])
    blocked = np.zeros((9, 6), dtype=bool)
    blocked[m.cell("0303"), 5] = True                              # its NW hexside
    got = mod.adjacent_cells(m.neighbors, [m.cell("0303")], blocked)
    np.testing.assert_array_equal(got, [m.id_of(i) in ("0302", "0203") for i in range(9)])
    assert not mod.adjacent_cells(m.neighbors, np.array([], dtype=np.int32)).any()


def river_column():
    """One column 0101-0104 (N is direction 0, S direction 3): entry costs 1, 2, prohibited,
    3, and a river (+2) between 0101 and 0102."""
    m = HexMap((1, 1), (1, 4))
    enter = np.array([1, 2, -1, 3], dtype=np.int16)
    side_add = np.zeros((4, 6), dtype=np.int16)
    side_add[0, 3] = side_add[1, 0] = 2
    return m, enter, side_add


@BOTH
def test_step_costs_whole_array(mod):
    m, enter, side_add = river_column()
    zoc = np.array([0, 0, 0, 1], dtype=bool)
    closed = np.array([1, 0, 0, 0], dtype=bool)
    got = mod.step_costs(m.neighbors, enter, side_add, None, zoc, 5)
    exp = np.full((4, 6), -1, dtype=np.int16)
    exp[0, 3] = 2 + 2          # into 0102 across the river
    exp[1, 0] = 1 + 2          # back into 0101 across it
    exp[1, 3] = -1             # 0103 is prohibited terrain (strict)
    exp[2, 0] = 2
    exp[2, 3] = 3 + 5          # into a zone of control
    exp[3, 0] = -1             # into prohibited terrain
    np.testing.assert_array_equal(got, exp)
    got = mod.step_costs(m.neighbors, enter, side_add, closed, zoc, 5, strict=False)
    exp[0, 3], exp[1, 0], exp[1, 3], exp[3, 0] = 4, -1, -1 + 0, -1 + 0
    np.testing.assert_array_equal(got, exp)
    # without side_add, zoc or closed: the entry cost only, -1 off the map
    got = mod.step_costs(m.neighbors, np.array([1, 1, 1, 1], dtype=np.int32))
    np.testing.assert_array_equal(got[:, [0, 3]], [[-1, 1], [1, 1], [1, 1], [1, -1]])
    assert (got[:, [1, 2, 4, 5]] == -1).all()
    # sums wrap to int16 as numpy's astype does
    big = np.full(4, 32767, dtype=np.int16)
    got = mod.step_costs(m.neighbors, big, side_add, strict=False)
    assert got[0, 3] == np.int16(-32767) and got.dtype == np.int16


@BOTH
def test_units_in_cell_are_state_units_at(mod):
    cell, status, _ = units([4, 0, 8, 4, 2, 4], [ON, ON, ON, ON | ENTRAINED, 0, 0],
                            [0, 1, 0, 0, 0, 1])
    got = mod.units_in_cell(cell, status, 4)
    assert got.dtype == np.intp and got.tolist() == [0, 3]
    assert mod.units_in_cell(cell, status, 2).tolist() == []
    assert mod.units_in_cell(cell, status, 4, require=0).tolist() == [0, 3, 5]
    assert mod.units_in_cell(cell, status, 4, require=ON | ENTRAINED).tolist() == [3]
    assert mod.units_in_cell(cell.astype(np.int64), list(status), 8).tolist() == [2]
    with pytest.raises(ValueError):
        mod.units_in_cell(cell, status[:-1], 4)
    with pytest.raises(ValueError):
        mod.units_in_cell(cell, status, 4, require=1 << 16)


@BOTH
def test_step_costs_over_whole_array(mod):
    m, enter, side_add = river_column()
    base = mod.step_costs(m.neighbors, enter, side_add)
    zoc = np.array([0, 1, 0, 1], dtype=bool)
    closed = np.array([1, 0, 0, 0], dtype=bool)
    got = mod.step_costs_over(m.neighbors, base, closed, zoc, 5)
    exp = np.full((4, 6), -1, dtype=np.int16)
    exp[0, 3] = 2 + 2 + 5      # into 0102 across the river, a zone of control
    exp[1, 0] = -1             # back into 0101: closed
    exp[2, 0] = 2 + 5          # into 0102 from 0103
    exp[2, 3] = 3 + 5          # into a zone of control
    np.testing.assert_array_equal(got, exp)
    np.testing.assert_array_equal(got, mod.step_costs(m.neighbors, enter, side_add, closed,
                                                      zoc, 5))
    assert got.dtype == np.int16 and not np.shares_memory(got, base)
    # sums wrap to int16 as numpy's astype does
    big = np.full(4, 32767, dtype=np.int16)
    got = mod.step_costs_over(m.neighbors, mod.step_costs(m.neighbors, big), None,
                              np.ones(4, bool), 1)
    assert got[0, 3] == np.int16(-32768)
    with pytest.raises(ValueError):
        mod.step_costs_over(m.neighbors, base[:3])
    with pytest.raises(ValueError):
        mod.step_costs_over(m.neighbors, base, zoc_add=1 << 15)


@pytest.mark.parametrize("mod", [cy, py], ids=["cython", "pure"])
def test_step_costs_over_a_neighbour_table_that_does_not_lead_back(mod):
    # a table whose way back from a neighbour is not (d + 3) % 6: still each step in turn
    nb = np.array([[1, -1, -1, -1, -1, -1], [-1, 0, -1, -1, -1, -1]], dtype=np.int32)
    enter = np.array([1, 2], dtype=np.int16)
    base = mod.step_costs(nb, enter)
    for closed, zoc in (([1, 0], None), (None, [0, 1]), ([0, 1], [1, 0])):
        closed = None if closed is None else np.array(closed, bool)
        zoc = None if zoc is None else np.array(zoc, bool)
        np.testing.assert_array_equal(mod.step_costs_over(nb, base, closed, zoc, 3),
                                      mod.step_costs(nb, enter, None, closed, zoc, 3))


@pytest.mark.parametrize("seed", range(4))
def test_step_costs_kept_up_to_date_are_made_afresh(seed):
    """The compiled core keeps a Movement Segment's step tables from the side's last one and
    makes again only the steps into hexes whose marks changed (``keep_step_costs_over``):
    after every change of marks, few or many, the table is ``step_costs_over`` made afresh;
    on a neighbour table whose way back does not lead back it is made whole."""
    rng = np.random.default_rng(seed)
    m = HexMap((1, 9 + seed), (1, 7))
    n = m.n_cells
    enter = rng.integers(-1, 4, n).astype(np.int16)
    base = cy.step_costs(m.neighbors, enter)
    closed, zoc = [rng.random(n) < 0.2], [rng.random(n) < 0.3]
    for k in range(12):
        flip = rng.random((2, n)) < (0.02 if k % 3 else 0.5)
        closed.append(closed[-1] ^ flip[0])
        zoc.append(zoc[-1] ^ flip[1])
    closed.append(closed[-1])                          # nothing changed
    zoc.append(zoc[-1])
    kept = cy._step_costs_kept(m.neighbors, base, closed, zoc, 2 + seed)
    for (table, patched), cl, zc, first in zip(kept, closed, zoc, [True] + [False] * 99):
        np.testing.assert_array_equal(table, cy.step_costs_over(m.neighbors, base, cl, zc,
                                                                2 + seed))
        assert patched is not first
    nb = np.array([[1, -1, -1, -1, -1, -1], [-1, 0, -1, -1, -1, -1]], dtype=np.int32)
    base = cy.step_costs(nb, np.array([1, 2], dtype=np.int16))
    masks = [np.array(x, bool) for x in ([1, 0], [0, 1], [1, 1])]
    for (table, patched), cl, zc in zip(cy._step_costs_kept(nb, base, masks, masks[::-1], 3),
                                        masks, masks[::-1]):
        np.testing.assert_array_equal(table, cy.step_costs_over(nb, base, cl, zc, 3))
        assert not patched


@BOTH
def test_reach_within_reads_the_layers_each_unit_may_use(mod):
    dist = np.array([[0, 1, 5, -1],
                     [-1, -1, 2, 3],
                     [-1, -1, -1, 1]], dtype=np.int32)
    cell = np.array([1, 2, 2, 3, 3, 0], dtype=np.int32)
    layers = np.array([1, 1, 2, 1, 3, 9], dtype=np.int32)     # 9: as many as there are
    limits = np.array([1, 3, 3, 5, 1, 0], dtype=np.int32)
    got = mod.reach_within(dist, cell, [0, 1, 2, 3, 4, 5], layers, limits)
    np.testing.assert_array_equal(got, [True, False, True, False, True, True])
    got = mod.reach_within(dist, cell, np.array([4, 0]), layers, limits)
    np.testing.assert_array_equal(got, [True, True])


@BOTH
def test_stacked_points_whole_array(mod):
    cell, status, side = units([4, 0, 4, 4, 2], [ON, ON, ON, ON | ENTRAINED, 0],
                               [0, 1, 0, 1, 0])
    points = np.array([3, 2, 4, 1, 5], dtype=np.int8)       # unit 4 is off the map
    np.testing.assert_array_equal(mod.stacked_points(9, cell, status, side, 0, points),
                                  [0, 0, 0, 0, 7, 0, 0, 0, 0])
    np.testing.assert_array_equal(mod.stacked_points(9, cell, status, side, 1, points),
                                  [2, 0, 0, 0, 1, 0, 0, 0, 0])
    np.testing.assert_array_equal(mod.stacked_points(9, cell, status, side, None, points),
                                  [2, 0, 0, 0, 8, 0, 0, 0, 0])
    # require=0 selects the unit off the map too, and its cell must then be on the map
    np.testing.assert_array_equal(
        mod.stacked_points(9, cell, status, side, 0, points, require=0),
        [0, 0, 5, 0, 7, 0, 0, 0, 0])
    assert mod.stacked_points(9, cell, status, side, 0, points).dtype == np.int32
    with pytest.raises(ValueError, match="one entry per unit"):
        mod.stacked_points(9, cell, status, side, 0, points[:2])
    with pytest.raises(IndexError, match="unit 1 is selected"):
        mod.stacked_points(9, np.array([4, -1], np.int32), status[:2], side[:2], None,
                           points[:2])


@BOTH
def test_bad_inputs_raise_the_same_errors(mod):
    m = three_by_three()
    cell, status, side = units([4, -1], [ON, ON], [0, 0])
    with pytest.raises(IndexError, match="unit 1 is selected"):
        mod.occupied_cells(9, cell, status, side, 0)
    with pytest.raises(IndexError, match="unit 1 is selected"):
        mod.zoc_cells(m.neighbors, cell, status, side, None)
    with pytest.raises(ValueError, match="one entry per unit"):
        mod.occupied_cells(9, cell, status[:1], side, 0)
    with pytest.raises(ValueError, match="16-bit"):
        mod.occupied_cells(9, cell, status, side, 0, require=1 << 16)
    with pytest.raises(ValueError, match="shape"):
        mod.zoc_cells(m.neighbors[:, :5], cell, status, side, 0)
    with pytest.raises(ValueError, match="blocked"):
        mod.zoc_cells(m.neighbors, cell[:1], status[:1], side[:1], 0,
                      blocked=np.zeros((8, 6), bool))
    with pytest.raises(IndexError):
        mod.adjacent_cells(m.neighbors, [9])
    with pytest.raises(ValueError, match="enter"):
        mod.step_costs(m.neighbors, np.ones(8, np.int16))
    with pytest.raises(ValueError, match="zoc_add"):
        mod.step_costs(m.neighbors, np.ones(9, np.int16), zoc_add=1 << 15)
    with pytest.raises(IndexError):
        mod.reach_within(np.zeros((1, 9), np.int32), cell, [1], [1, 1], [1, 1])
    with pytest.raises(IndexError):
        mod.reach_within(np.zeros((1, 9), np.int32), cell, [2], [1, 1], [1, 1])


def test_read_only_arrays_are_read_in_place():
    """A policy's view of the state holds read-only arrays."""
    m = three_by_three()
    cell, status, side = units([4], [ON], [0])
    for a in (cell, status, side, m.neighbors):
        a.flags.writeable = False
    np.testing.assert_array_equal(cy.zoc_cells(m.neighbors, cell, status, side, 0),
                                  py.zoc_cells(m.neighbors, cell, status, side, 0))


def test_the_compiled_examples_run():
    result = doctest.testmod(cy)
    assert result.attempted > 0 and result.failed == 0


# --- random maps and placements ---------------------------------------------------------------

@st.composite
def boards(draw):
    m = hex_map(draw, 9, 9)
    n = m.n_cells
    k = draw(st.integers(0, 12))
    on = draw(st.lists(st.booleans(), min_size=k, max_size=k))
    cell = np.array([draw(st.integers(0, n - 1)) if o else -1 for o in on], dtype=np.int32)
    status = np.array([(ON if o else 0) | draw(st.sampled_from([0, ENTRAINED, 2]))
                       for o in on], dtype=np.uint16)
    side = np.array(draw(st.lists(st.integers(0, 1), min_size=k, max_size=k)), dtype=np.int8)
    elig = np.array(draw(st.lists(st.booleans(), min_size=k, max_size=k)), dtype=bool)
    flags = np.array(draw(st.lists(st.integers(0, 7), min_size=k, max_size=k)), dtype=np.uint16)
    blocked = np.array(draw(st.lists(st.booleans(), min_size=6 * n, max_size=6 * n)),
                       dtype=bool).reshape(n, 6)
    enter = np.array(draw(st.lists(st.integers(-1, 4), min_size=n, max_size=n)), dtype=np.int16)
    side_add = np.array(draw(st.lists(st.integers(-1, 3), min_size=6 * n, max_size=6 * n)),
                        dtype=np.int16).reshape(n, 6)
    closed = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    zoc = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    return m, cell, status, side, elig, flags, blocked, enter, side_add, closed, zoc


def _selection(status, side, want, elig, flags):
    """The numpy formula of the engines: on the map, of the side, eligible, not entrained,
    no flag 4."""
    return (((status & ON) != 0) & (side == want) & elig & ((status & ENTRAINED) == 0)
            & ((flags & 4) == 0))


@settings(max_examples=200, deadline=None)
@given(boards(), st.integers(0, 1))
def test_twins_agree_with_each_other_and_with_the_numpy_formulas(case, want):
    m, cell, status, side, elig, flags, blocked, enter, side_add, closed, zoc = case
    n, nb = m.n_cells, m.neighbors
    sel = _selection(status, side, want, elig, flags)
    args = (cell, status, side, want, ON, ENTRAINED, elig, flags, 4)

    for c in range(min(n, 12)):                              # State.units_at before
        here = (cell == c).nonzero()[0]
        here = here[(status[here] & ON) != 0]
        for mod in (cy, py):
            np.testing.assert_array_equal(mod.units_in_cell(cell, status, c, ON), here)

    occ = np.zeros(n, dtype=bool)
    occ[cell[sel]] = True
    for mod in (cy, py):
        np.testing.assert_array_equal(mod.occupied_cells(n, *args), occ)

    points = (np.arange(cell.size) % 5).astype(np.int8)     # stacking.stacking_points before
    mine = ((status & ON) != 0) & (side == want)
    ref = np.bincount(cell[mine], weights=points[mine], minlength=n).astype(np.int32)
    for mod in (cy, py):
        np.testing.assert_array_equal(mod.stacked_points(n, cell, status, side, want, points,
                                                         ON), ref)

    ref = np.zeros(n, dtype=bool)                            # zoc.controlled before
    cells = np.unique(cell[sel])
    if cells.size:
        around = nb[cells]
        ok = (around >= 0) & ~blocked[cells]
        ref[around[ok]] = True
    for mod in (cy, py):
        np.testing.assert_array_equal(mod.zoc_cells(nb, *args, blocked), ref)

    ref = np.zeros(n, dtype=bool)                            # gas zones before
    if cells.size:
        ref[cells] = True
        around = nb[cells]
        ref[around[around >= 0]] = True
    for mod in (cy, py):
        np.testing.assert_array_equal(mod.adjacent_cells(nb, cells, with_cells=True), ref)

    v = np.maximum(nb, 0)                                    # movement.step_costs before
    cost = enter[v] + side_add + np.where(zoc[v], np.int16(2), 0)
    bad = (nb < 0) | (enter[v] < 0) | (side_add < 0) | closed[v]
    strict = np.where(bad, -1, cost).astype(np.int16)
    loose = np.where((nb < 0) | closed[v], -1, enter[v] + side_add).astype(np.int16)
    for mod in (cy, py):
        np.testing.assert_array_equal(mod.step_costs(nb, enter, side_add, closed, zoc, 2),
                                      strict)
        np.testing.assert_array_equal(
            mod.step_costs(nb, enter.astype(np.int32), side_add, closed, strict=False), loose)
        # the same table from the strict table without closed hexes and zones (movement)
        base = mod.step_costs(nb, enter, side_add)
        np.testing.assert_array_equal(mod.step_costs_over(nb, base, closed, zoc, 2), strict)
        np.testing.assert_array_equal(mod.step_costs_over(nb, base), base)
        np.testing.assert_array_equal(mod.step_costs_over(nb, base, closed=closed),
                                      mod.step_costs(nb, enter, side_add, closed))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 3), st.integers(1, 30), st.data())
def test_reach_within_twins_agree_with_the_per_unit_loop(n_layers, n, data):
    dist = np.array(data.draw(st.lists(st.integers(-1, 8), min_size=n_layers * n,
                                       max_size=n_layers * n)), dtype=np.int32)
    dist = dist.reshape(n_layers, n)
    k = data.draw(st.integers(0, 10))
    cell = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=k, max_size=k)),
                    dtype=np.int32)
    layers = np.array(data.draw(st.lists(st.integers(0, 4), min_size=k, max_size=k)))
    limits = np.array(data.draw(st.lists(st.integers(0, 8), min_size=k, max_size=k)))
    chosen = np.array(data.draw(st.lists(st.integers(0, max(k - 1, 0)), max_size=k if k else 0)),
                      dtype=np.int64)
    ref = []
    for i in chosen:                                         # supply.in_supply before
        d = dist[:layers[i], cell[i]]
        d = d[d >= 0]
        ref.append(d.size > 0 and d.min() <= limits[i])
    for mod in (cy, py):
        np.testing.assert_array_equal(mod.reach_within(dist, cell, chosen, layers, limits),
                                      np.array(ref, dtype=bool))
