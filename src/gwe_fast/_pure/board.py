"""Pure-Python twin of ``gwe_fast._core.board``: the same procedures, one unit and one hex at
a time, with the same arguments, results and errors."""

import numpy as np

from gwe_fast import dtypes


def _ints(a, dtype) -> list[int]:
    """An array argument as a flat list of ints, converted (and wrapped) to ``dtype`` first."""
    return np.ascontiguousarray(a, dtype=dtype).reshape(-1).tolist()


def _mask(a) -> list[bool]:
    return [bool(x) for x in np.asarray(a).reshape(-1)]


def _neighbors(neighbors) -> tuple[list[list[int]], int]:
    nb = np.asarray(neighbors)
    if nb.ndim != 2 or nb.shape[1] != 6:
        raise ValueError("neighbors must have shape (n, 6)")
    return nb.astype(dtypes.CELL).tolist(), nb.shape[0]


def _bits(value, name: str) -> int:
    if not 0 <= value <= 0xFFFF:
        raise ValueError(f"{name} must be a 16-bit mask, not {value}")
    return int(value)


def _selected(unit_cell, unit_status, unit_side, side, require, forbid, eligible, flags,
              flags_forbid) -> tuple[list[int], list[int]]:
    """The cells of all units, and the indices of the selected units in order."""
    cells = _ints(unit_cell, dtypes.CELL)
    status = _ints(unit_status, np.uint16)
    sides = _ints(unit_side, dtypes.SMALL)
    n = len(cells)
    if len(status) != n or len(sides) != n:
        raise ValueError("unit_cell, unit_status and unit_side must have one entry per unit")
    elig = None if eligible is None else _mask(eligible)
    if elig is not None and len(elig) != n:
        raise ValueError("eligible must have one entry per unit")
    fl = None if flags is None else _ints(flags, np.uint16)
    if fl is not None and len(fl) != n:
        raise ValueError("flags must have one entry per unit")
    want = None if side is None else int(side)
    require = _bits(require, "require")
    forbid = _bits(forbid, "forbid")
    flags_forbid = _bits(flags_forbid, "flags_forbid")
    chosen = []
    for i in range(n):
        if status[i] & require != require or status[i] & forbid:
            continue
        if want is not None and sides[i] != want:
            continue
        if elig is not None and not elig[i]:
            continue
        if fl is not None and fl[i] & flags_forbid:
            continue
        chosen.append(i)
    return cells, chosen


def _check_on_map(unit: int, cells: list[int], n: int) -> None:
    if not 0 <= cells[unit] < n:
        raise IndexError(f"unit {unit} is selected but its cell {cells[unit]} is not a cell of "
                         f"a map of {n} cells")


def _blocked(blocked, n: int) -> list[bool] | None:
    if blocked is None:
        return None
    out = _mask(blocked)
    if len(out) != 6 * n:
        raise ValueError("blocked must have shape (n_cells, 6)")
    return out


def occupied_cells(n_cells, unit_cell, unit_status, unit_side, side, require=1, forbid=0,
                   eligible=None, flags=None, flags_forbid=0):
    """``bool[n_cells]``: the hexes holding at least one selected unit."""
    cells, chosen = _selected(unit_cell, unit_status, unit_side, side, require, forbid,
                              eligible, flags, flags_forbid)
    out = np.zeros(n_cells, dtype=bool)
    for i in chosen:
        _check_on_map(i, cells, n_cells)
        out[cells[i]] = True
    return out


def stacked_points(n_cells, unit_cell, unit_status, unit_side, side, points, require=1):
    """``int32[n_cells]``: the sum of ``points`` of the selected units in each hex."""
    cells, chosen = _selected(unit_cell, unit_status, unit_side, side, require, 0, None, None,
                              0)
    pts = _ints(points, np.int8)
    if len(pts) != len(cells):
        raise ValueError("points must have one entry per unit")
    out = np.zeros(n_cells, dtype=np.int32)
    for i in chosen:
        _check_on_map(i, cells, n_cells)
        out[cells[i]] += pts[i]
    return out


def zoc_cells(neighbors, unit_cell, unit_status, unit_side, side, require=1, forbid=0,
              eligible=None, flags=None, flags_forbid=0, blocked=None):
    """``bool[n_cells]``: the hexes next to a selected unit, not across a blocked hexside."""
    nb, n = _neighbors(neighbors)
    cells, chosen = _selected(unit_cell, unit_status, unit_side, side, require, forbid,
                              eligible, flags, flags_forbid)
    bl = _blocked(blocked, n)
    out = np.zeros(n, dtype=bool)
    for i in chosen:
        _check_on_map(i, cells, n)
        c = cells[i]
        for d in range(6):
            v = nb[c][d]
            if v >= 0 and (bl is None or not bl[6 * c + d]):
                out[v] = True
    return out


def adjacent_cells(neighbors, cells, blocked=None, with_cells=False):
    """``bool[n_cells]``: the hexes next to any of ``cells``, with them when ``with_cells``."""
    nb, n = _neighbors(neighbors)
    cl = _ints(cells, dtypes.CELL)
    for c in cl:
        if not 0 <= c < n:
            raise IndexError(f"cell {c} is not a cell of a map of {n} cells")
    bl = _blocked(blocked, n)
    out = np.zeros(n, dtype=bool)
    for c in cl:
        if with_cells:
            out[c] = True
        for d in range(6):
            v = nb[c][d]
            if v >= 0 and (bl is None or not bl[6 * c + d]):
                out[v] = True
    return out


def _closed_and_zoc(closed, zoc, zoc_add, n):
    """The ``closed`` and ``zoc`` masks of ``step_costs`` and ``step_costs_over`` as lists
    (None when not given), checked, and ``zoc_add`` checked to be an int16."""
    cl = None if closed is None else _mask(closed)
    if cl is not None and len(cl) != n:
        raise ValueError("closed must have one entry per cell")
    zc = None if zoc is None else _mask(zoc)
    if zc is not None and len(zc) != n:
        raise ValueError("zoc must have one entry per cell")
    if not -0x8000 <= zoc_add <= 0x7FFF:
        raise ValueError(f"zoc_add must be an int16, not {zoc_add}")
    return cl, zc


def step_costs(neighbors, enter, side_add=None, closed=None, zoc=None, zoc_add=0,
               strict=True):
    """``int16[n_cells, 6]``: ``enter[v] + side_add[c, d]`` (+ ``zoc_add`` into a zoc hex)
    for each step into ``v``; -1 off the map, into a closed hex and, when ``strict``, where
    the hex's or the hexside's own cost is negative."""
    nb, n = _neighbors(neighbors)
    en = _ints(enter, dtypes.STEPCOST)
    if len(en) != n:
        raise ValueError("enter must have one entry per cell")
    sa = None if side_add is None else _ints(side_add, dtypes.STEPCOST)
    if sa is not None and len(sa) != 6 * n:
        raise ValueError("side_add must have shape (n_cells, 6)")
    cl, zc = _closed_and_zoc(closed, zoc, zoc_add, n)
    zoc_add = int(zoc_add)
    out = []
    for c in range(n):
        for d in range(6):
            v = nb[c][d]
            s = sa[6 * c + d] if sa is not None else 0
            if v < 0 or (cl is not None and cl[v]) or (strict and (en[v] < 0 or s < 0)):
                out.append(-1)
                continue
            out.append(en[v] + (zoc_add if zc is not None and zc[v] else 0) + s)
    # int16 sums wrap as numpy's astype wraps them
    return np.array(out, dtype=np.int64).reshape(n, 6).astype(dtypes.STEPCOST)


def units_in_cell(unit_cell, unit_status, cell, require=1):
    """``intp``: the units, ascending, in ``cell`` with every ``require`` status bit set."""
    cells = _ints(unit_cell, dtypes.CELL)
    status = _ints(unit_status, np.uint16)
    if len(status) != len(cells):
        raise ValueError("unit_cell and unit_status must have one entry per unit")
    req = _bits(require, "require")
    return np.array([i for i, (c, s) in enumerate(zip(cells, status))
                     if c == cell and s & req == req], dtype=np.intp)


def step_costs_over(neighbors, base, closed=None, zoc=None, zoc_add=0):
    """``base`` (a strict ``step_costs`` table without closed hexes and zones of control)
    with every step into a ``closed`` hex -1 and ``zoc_add`` added to every other step into
    a ``zoc`` hex that ``base`` allows (not -1), wrapped to int16."""
    nb, n = _neighbors(neighbors)
    b = _ints(base, dtypes.STEPCOST)
    if len(b) != 6 * n:
        raise ValueError("base must have shape (n_cells, 6)")
    cl, zc = _closed_and_zoc(closed, zoc, zoc_add, n)
    out = []
    for c in range(n):
        for d in range(6):
            x, v = b[6 * c + d], nb[c][d]
            if v >= 0 and cl is not None and cl[v]:
                x = -1
            elif v >= 0 and zc is not None and zc[v] and x != -1:
                x += int(zoc_add)
            out.append(x)
    return np.array(out, dtype=np.int64).reshape(n, 6).astype(dtypes.STEPCOST)


def reach_within(dist, unit_cell, units, layers, limits):
    """``bool[len(units)]``: some layer ``l < layers[u]`` of ``dist`` reaches unit ``u``'s hex
    within ``limits[u]``."""
    d = np.asarray(dist)
    if d.ndim != 2:
        raise ValueError("dist must have shape (n_layers, n_cells)")
    nl, n = d.shape
    rows = d.astype(dtypes.DIST).tolist()
    cells = _ints(unit_cell, dtypes.CELL)
    us = _ints(units, np.int32)
    ly = _ints(layers, np.int32)
    lm = _ints(limits, np.int32)
    if len(ly) != len(cells) or len(lm) != len(cells):
        raise ValueError("unit_cell, layers and limits must have one entry per unit")
    for u in us:
        if not 0 <= u < len(cells):
            raise IndexError(f"unit {u} is not one of {len(cells)} units")
    out = np.zeros(len(us), dtype=bool)
    for j, u in enumerate(us):
        c = cells[u]
        if not 0 <= c < n:
            raise IndexError(f"unit {u} is not on one of the {n} cells (cell {c})")
        out[j] = any(0 <= rows[l][c] <= lm[u] for l in range(min(ly[u], nl)))
    return out
