# cython: language_level=3
"""Board-level procedures over the packed unit and cell arrays, the glue around the search:
which hexes hold a side's units, which hexes a side's zones of control cover, the hexes next
to a set of hexes, one unit's step costs from per-hex and per-hexside costs, and which units
reach a source within their range.

They replace chains of numpy operations (each a few µs on arrays of a few hundred entries)
that the rules engines ran thousands of times a game. Every function has the same arguments
and results as its pure-Python twin ``gwe_fast._pure.board``.

Units are selected by their ``State`` arrays: a unit counts when every ``require`` status bit
is set, no ``forbid`` bit is, it belongs to ``side`` (either side when None), ``eligible``
(when given) is true for it and no ``flags_forbid`` bit of its engine ``flags`` (when given)
is set. A selected unit must stand on the map: its cell is checked.
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset

from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t

cnp.import_array()


# ---------------------------------------------------------------------------------------------
# The nogil procedures (board.pxd)

cdef Py_ssize_t mark_units(const UnitSelect* S, flag_t* out, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i
    cdef cell_t c
    for i in range(S.n_units):
        if unit_selected(S, i):
            c = S.cell[i]
            if c < 0 or c >= n:
                return i
            out[c] = 1
    return -1


cdef Py_ssize_t mark_zoc(const UnitSelect* S, const cell_t* nbr, const flag_t* blocked,
                         flag_t* out, Py_ssize_t n) noexcept nogil:
    # the six hexes around each selected unit, not across a blocked hexside of its hex
    cdef Py_ssize_t i, d, base
    cdef cell_t c, v
    for i in range(S.n_units):
        if unit_selected(S, i):
            c = S.cell[i]
            if c < 0 or c >= n:
                return i
            base = <Py_ssize_t>c * 6
            for d in range(6):
                v = nbr[base + d]
                if v >= 0 and (blocked == NULL or blocked[base + d] == 0):
                    out[v] = 1
    return -1


cdef void mark_adjacent(const cell_t* nbr, const cell_t* cells, Py_ssize_t k,
                        const flag_t* blocked, bint with_cells, flag_t* out) noexcept nogil:
    cdef Py_ssize_t i, d, base
    cdef cell_t v
    for i in range(k):
        base = <Py_ssize_t>cells[i] * 6
        if with_cells:
            out[cells[i]] = 1
        for d in range(6):
            v = nbr[base + d]
            if v >= 0 and (blocked == NULL or blocked[base + d] == 0):
                out[v] = 1


cdef int fill_step_costs(const cell_t* nbr, Py_ssize_t n, const stepcost_t* enter,
                         const stepcost_t* side_add, const flag_t* closed, const flag_t* zoc,
                         int zoc_add, bint strict, stepcost_t* out) except -1 nogil:
    # out[i] for the step i = c * 6 + d into v = nbr[i]: -1 off the map or into a closed hex,
    # and with strict also into a hex or across a hexside of negative cost; otherwise
    # enter[v] + side_add[i] (+ zoc_add into a zoc hex), wrapped to int16 as numpy's astype.
    # (One pass: cachegrind counted fewer instructions and mispredicted branches than for a
    # table of entry costs followed by a branch-free pass.)
    cdef Py_ssize_t i
    cdef cell_t v
    cdef int e, s
    for i in range(n * 6):
        v = nbr[i]
        if v < 0:
            out[i] = -1
            continue
        e = enter[v]
        s = side_add[i] if side_add != NULL else 0
        if (closed != NULL and closed[v]) or (strict and (e < 0 or s < 0)):
            out[i] = -1
            continue
        if zoc != NULL and zoc[v]:
            e += zoc_add
        out[i] = <stepcost_t>(e + s)
    return 0


cdef void fill_step_costs_over(const cell_t* nbr, Py_ssize_t n, const stepcost_t* base,
                               const flag_t* closed, const flag_t* zoc, int zoc_add,
                               stepcost_t* out) noexcept nogil:
    # out = base, with every step into a closed hex -1 and zoc_add added to every step into a
    # zoc hex that base allows (not -1), wrapped to int16. The steps into hex w are found from
    # w's neighbours, the way back (d + 3) % 6 (hexgrid); a neighbour table where that way
    # does not lead back to w is walked step by step instead.
    cdef Py_ssize_t w, d, i
    cdef cell_t c
    cdef bint shut
    memcpy(out, base, 6 * n * sizeof(stepcost_t))
    if closed == NULL and zoc == NULL:
        return
    for w in range(n):
        shut = closed != NULL and closed[w]
        if not shut and not (zoc != NULL and zoc[w]):
            continue
        for d in range(6):                # the steps into w: closed, or into its zone
            c = nbr[6 * w + d]
            if c >= 0:
                i = 6 * <Py_ssize_t>c + (d + 3) % 6
                if nbr[i] != w:
                    _over_by_step(nbr, n, base, closed, zoc, zoc_add, out)
                    return
                if shut:
                    out[i] = -1
                elif out[i] != -1:
                    out[i] = <stepcost_t>(out[i] + zoc_add)


cdef bint keep_step_costs_over(const cell_t* nbr, Py_ssize_t n, const stepcost_t* base,
                               const flag_t* closed, const flag_t* zoc, int zoc_add,
                               flag_t* was_closed, flag_t* was_zoc, bint valid,
                               stepcost_t* out) noexcept nogil:
    # out as fill_step_costs_over(nbr, n, base, closed, zoc, zoc_add) makes it, kept up to
    # date: when valid, out is that table for the marks was_closed and was_zoc, and only the
    # steps into the hexes whose marks changed are made again (the eight hexes of a word
    # compared at once); the marks are then the given ones. Otherwise (or on a neighbour
    # table whose way back does not lead back) the whole table is made. True when patched.
    cdef Py_ssize_t j, w, d, i, end
    cdef uint64_t a, b, x, y
    cdef cell_t c
    if not valid or closed == NULL or zoc == NULL:
        fill_step_costs_over(nbr, n, base, closed, zoc, zoc_add, out)
        _keep_marks(n, closed, zoc, was_closed, was_zoc)
        return False
    j = 0
    while j < n:
        end = j + 8
        if end <= n:
            memcpy(&a, closed + j, 8)
            memcpy(&b, was_closed + j, 8)
            memcpy(&x, zoc + j, 8)
            memcpy(&y, was_zoc + j, 8)
            if a == b and x == y:
                j = end
                continue
        else:
            end = n
        for w in range(j, end):
            if closed[w] == was_closed[w] and zoc[w] == was_zoc[w]:
                continue
            for d in range(6):                # the steps into w, as fill_step_costs_over
                c = nbr[6 * w + d]
                if c < 0:
                    continue
                i = 6 * <Py_ssize_t>c + (d + 3) % 6
                if nbr[i] != w:
                    fill_step_costs_over(nbr, n, base, closed, zoc, zoc_add, out)
                    _keep_marks(n, closed, zoc, was_closed, was_zoc)
                    return False
                if closed[w]:
                    out[i] = -1
                elif zoc[w] and base[i] != -1:
                    out[i] = <stepcost_t>(base[i] + zoc_add)
                else:
                    out[i] = base[i]
            was_closed[w] = closed[w]
            was_zoc[w] = zoc[w]
        j = end
    return True


cdef inline void _keep_marks(Py_ssize_t n, const flag_t* closed, const flag_t* zoc,
                             flag_t* was_closed, flag_t* was_zoc) noexcept nogil:
    if closed != NULL:
        memcpy(was_closed, closed, n)
    else:
        memset(was_closed, 0, n)
    if zoc != NULL:
        memcpy(was_zoc, zoc, n)
    else:
        memset(was_zoc, 0, n)


cdef void _over_by_step(const cell_t* nbr, Py_ssize_t n, const stepcost_t* base,
                        const flag_t* closed, const flag_t* zoc, int zoc_add,
                        stepcost_t* out) noexcept nogil:
    # fill_step_costs_over for any neighbour table: each step in turn
    cdef Py_ssize_t i
    cdef cell_t v
    for i in range(n * 6):
        out[i] = base[i]
        v = nbr[i]
        if v < 0:
            continue
        if closed != NULL and closed[v]:
            out[i] = -1
        elif zoc != NULL and zoc[v] and out[i] != -1:
            out[i] = <stepcost_t>(out[i] + zoc_add)


cdef Py_ssize_t units_within(const dist_t* dist, Py_ssize_t n_layers, Py_ssize_t n,
                             const cell_t* unit_cell, const int32_t* units, Py_ssize_t k,
                             const int32_t* layers, const int32_t* limits,
                             flag_t* out) noexcept nogil:
    # out[j]: some layer l < layers[u] has 0 <= dist[l, cell of u] <= limits[u], u = units[j]
    cdef Py_ssize_t j, l, nl
    cdef int32_t u
    cdef cell_t c
    cdef dist_t x
    for j in range(k):
        u = units[j]
        c = unit_cell[u]
        if c < 0 or c >= n:
            return j
        nl = layers[u]
        if nl > n_layers:
            nl = n_layers
        out[j] = 0
        for l in range(nl):
            x = dist[l * n + c]
            if 0 <= x <= limits[u]:
                out[j] = 1
                break
    return -1


# ---------------------------------------------------------------------------------------------
# Arguments from Python: arrays of the kernel's type and layout are read in place, anything
# else is converted as np.ascontiguousarray(x, dtype) would.

cdef inline bint _usable(object obj, int typenum):
    if not isinstance(obj, cnp.ndarray):
        return False
    cdef cnp.ndarray a = <cnp.ndarray>obj
    return (cnp.PyArray_TYPE(a) == typenum and cnp.PyArray_ISCARRAY_RO(a)
            and cnp.PyArray_ISNOTSWAPPED(a))


cdef inline cnp.ndarray _as_array(object obj, int typenum, object dtype):
    if _usable(obj, typenum):
        return <cnp.ndarray>obj
    return np.ascontiguousarray(obj, dtype=dtype)


cdef inline cnp.ndarray _as_flags(object obj):
    # masks: uint8, or bool read as uint8 (the same bytes)
    if _usable(obj, cnp.NPY_UINT8) or _usable(obj, cnp.NPY_BOOL):
        return <cnp.ndarray>obj
    return np.ascontiguousarray(obj, dtype=np.uint8)


cdef inline cnp.ndarray _bool_zeros(Py_ssize_t n):
    cdef cnp.npy_intp dims[1]
    dims[0] = n
    return cnp.PyArray_ZEROS(1, dims, cnp.NPY_BOOL, 0)


cdef cnp.ndarray _neighbors(object neighbors):
    cdef cnp.ndarray nb = _as_array(neighbors, cnp.NPY_INT32, np.int32)
    if cnp.PyArray_NDIM(nb) != 2 or cnp.PyArray_DIMS(nb)[1] != 6:
        raise ValueError("neighbors must have shape (n, 6)")
    return nb


cdef inline uint16_t _bits(object value, str name) except? 0:
    if not 0 <= value <= 0xFFFF:
        raise ValueError(f"{name} must be a 16-bit mask, not {value}")
    return <uint16_t>value


cdef tuple _select(UnitSelect* S, object unit_cell, object unit_status, object unit_side,
                   object side, object require, object forbid, object eligible, object flags,
                   object flags_forbid):
    # fill S from the Python arguments; returns the arrays S points into, to keep alive
    cdef cnp.ndarray cell = _as_array(unit_cell, cnp.NPY_INT32, np.int32)
    cdef cnp.ndarray status = _as_array(unit_status, cnp.NPY_UINT16, np.uint16)
    cdef cnp.ndarray sides = _as_array(unit_side, cnp.NPY_INT8, np.int8)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(cell)
    if cnp.PyArray_SIZE(status) != n or cnp.PyArray_SIZE(sides) != n:
        raise ValueError("unit_cell, unit_status and unit_side must have one entry per unit")
    cdef cnp.ndarray elig = None, fl = None
    S.eligible = NULL
    S.flags = NULL
    if eligible is not None:
        elig = _as_flags(eligible)
        if cnp.PyArray_SIZE(elig) != n:
            raise ValueError("eligible must have one entry per unit")
        S.eligible = <const flag_t*>cnp.PyArray_DATA(elig)
    if flags is not None:
        fl = _as_array(flags, cnp.NPY_UINT16, np.uint16)
        if cnp.PyArray_SIZE(fl) != n:
            raise ValueError("flags must have one entry per unit")
        S.flags = <const uint16_t*>cnp.PyArray_DATA(fl)
    S.cell = <const cell_t*>cnp.PyArray_DATA(cell)
    S.status = <const uint16_t*>cnp.PyArray_DATA(status)
    S.side = <const int8_t*>cnp.PyArray_DATA(sides)
    S.n_units = n
    S.any_side = side is None
    S.want_side = 0 if side is None else side
    S.require = _bits(require, "require")
    S.forbid = _bits(forbid, "forbid")
    S.flags_forbid = _bits(flags_forbid, "flags_forbid")
    return (cell, status, sides, elig, fl)


cdef inline _off_map(Py_ssize_t unit, const UnitSelect* S, Py_ssize_t n):
    raise IndexError(f"unit {unit} is selected but its cell {S.cell[unit]} is not a cell of "
                     f"a map of {n} cells")


# ---------------------------------------------------------------------------------------------
# The Python face

def occupied_cells(Py_ssize_t n_cells, unit_cell, unit_status, unit_side, side, require=1,
                   forbid=0, eligible=None, flags=None, flags_forbid=0):
    """``bool[n_cells]``: the hexes holding at least one selected unit.

    Parameters
    ----------
    n_cells : int
        Cells of the map.
    unit_cell : int32[n_units]
        Each unit's cell (``State.unit_cell``).
    unit_status : uint16[n_units]
        Status bits (``State.unit_status``).
    unit_side : int8[n_units]
        Each unit's side (``Scenario.units.side``).
    side : int or None
        The side whose units count; None for both.
    require, forbid : int
        Status bits that must all be set (default ``ON_MAP``), and all be clear.
    eligible : bool[n_units], optional
        Units that may count at all (an HQ-less mask, say).
    flags : uint16[n_units], optional
        Engine flags; units with any ``flags_forbid`` bit set do not count.

    Examples
    --------
    >>> cells = np.array([2, 0, 2], dtype=np.int32)
    >>> status = np.array([1, 0, 1], dtype=np.uint16)        # unit 1 is not on the map
    >>> side = np.array([0, 0, 1], dtype=np.int8)
    >>> occupied_cells(4, cells, status, side, 0)
    array([False, False,  True, False])
    >>> occupied_cells(4, cells, status, side, None, require=0)
    array([ True, False,  True, False])
    """
    cdef UnitSelect S
    keep = _select(&S, unit_cell, unit_status, unit_side, side, require, forbid, eligible,
                   flags, flags_forbid)
    out = _bool_zeros(n_cells)
    cdef flag_t* o = <flag_t*>cnp.PyArray_DATA(out)
    cdef Py_ssize_t bad
    with nogil:
        bad = mark_units(&S, o, n_cells)
    if bad >= 0:
        _off_map(bad, &S, n_cells)
    return out


def stacked_points(Py_ssize_t n_cells, unit_cell, unit_status, unit_side, side, points,
                   require=1):
    """``int32[n_cells]``: the sum of ``points`` (int8, one per unit) of the selected units
    in each hex: a side's Stacking Points per hex, or both sides' with ``side`` None.

    Examples
    --------
    >>> cells = np.array([2, 0, 2], dtype=np.int32)
    >>> status = np.array([1, 1, 1], dtype=np.uint16)
    >>> side = np.array([0, 1, 0], dtype=np.int8)
    >>> stacked_points(3, cells, status, side, 0, np.array([3, 2, 4], dtype=np.int8))
    array([0, 0, 7], dtype=int32)
    """
    cdef UnitSelect S
    keep = _select(&S, unit_cell, unit_status, unit_side, side, require, 0, None, None, 0)
    cdef cnp.ndarray pts = _as_array(points, cnp.NPY_INT8, np.int8)
    if cnp.PyArray_SIZE(pts) != S.n_units:
        raise ValueError("points must have one entry per unit")
    cdef const int8_t* p = <const int8_t*>cnp.PyArray_DATA(pts)
    cdef cnp.npy_intp dims[1]
    dims[0] = n_cells
    out = cnp.PyArray_ZEROS(1, dims, cnp.NPY_INT32, 0)
    cdef int32_t* o = <int32_t*>cnp.PyArray_DATA(out)
    cdef Py_ssize_t i, bad = -1
    cdef cell_t c
    with nogil:
        for i in range(S.n_units):
            if unit_selected(&S, i):
                c = S.cell[i]
                if c < 0 or c >= n_cells:
                    bad = i
                    break
                o[c] += p[i]
    if bad >= 0:
        _off_map(bad, &S, n_cells)
    return out


def zoc_cells(neighbors, unit_cell, unit_status, unit_side, side, require=1, forbid=0,
              eligible=None, flags=None, flags_forbid=0, blocked=None):
    """``bool[n_cells]``: the hexes next to a selected unit: its zone of control.

    The units are selected as in ``occupied_cells``; ``blocked[c, d]`` (``bool[n_cells, 6]``,
    optional) marks the hexsides of cell ``c`` that a zone of control does not cross. A unit's
    own hex is not in its zone (a neighbour's may be).

    Examples
    --------
    >>> from gwe_fast import HexMap
    >>> m = HexMap((1, 1), (1, 5))                          # one column 0101 .. 0105
    >>> one = np.ones(1, dtype=np.uint16)
    >>> zoc_cells(m.neighbors, np.array([2], dtype=np.int32), one, np.zeros(1, np.int8), 0)
    array([False,  True, False,  True, False])
    """
    cdef cnp.ndarray nb = _neighbors(neighbors)
    cdef Py_ssize_t n = cnp.PyArray_DIMS(nb)[0]
    cdef UnitSelect S
    keep = _select(&S, unit_cell, unit_status, unit_side, side, require, forbid, eligible,
                   flags, flags_forbid)
    cdef cnp.ndarray bl = None
    cdef const flag_t* blp = NULL
    if blocked is not None:
        bl = _as_flags(blocked)
        if cnp.PyArray_SIZE(bl) != 6 * n:
            raise ValueError("blocked must have shape (n_cells, 6)")
        blp = <const flag_t*>cnp.PyArray_DATA(bl)
    out = _bool_zeros(n)
    cdef flag_t* o = <flag_t*>cnp.PyArray_DATA(out)
    cdef const cell_t* nbp = <const cell_t*>cnp.PyArray_DATA(nb)
    cdef Py_ssize_t bad
    with nogil:
        bad = mark_zoc(&S, nbp, blp, o, n)
    if bad >= 0:
        _off_map(bad, &S, n)
    return out


def adjacent_cells(neighbors, cells, blocked=None, with_cells=False):
    """``bool[n_cells]``: the hexes next to any of ``cells`` (not across a ``blocked``
    hexside of that cell), with ``cells`` themselves when ``with_cells``.

    Examples
    --------
    >>> from gwe_fast import HexMap
    >>> m = HexMap((1, 1), (1, 5))
    >>> adjacent_cells(m.neighbors, [0, 4], with_cells=True)
    array([ True,  True, False,  True,  True])
    """
    cdef cnp.ndarray nb = _neighbors(neighbors)
    cdef Py_ssize_t n = cnp.PyArray_DIMS(nb)[0], i, k
    cdef cnp.ndarray cl = _as_array(cells, cnp.NPY_INT32, np.int32)
    cdef const cell_t* cp = <const cell_t*>cnp.PyArray_DATA(cl)
    k = cnp.PyArray_SIZE(cl)
    for i in range(k):
        if cp[i] < 0 or cp[i] >= n:
            raise IndexError(f"cell {cp[i]} is not a cell of a map of {n} cells")
    cdef cnp.ndarray bl = None
    cdef const flag_t* blp = NULL
    if blocked is not None:
        bl = _as_flags(blocked)
        if cnp.PyArray_SIZE(bl) != 6 * n:
            raise ValueError("blocked must have shape (n_cells, 6)")
        blp = <const flag_t*>cnp.PyArray_DATA(bl)
    out = _bool_zeros(n)
    cdef flag_t* o = <flag_t*>cnp.PyArray_DATA(out)
    cdef const cell_t* nbp = <const cell_t*>cnp.PyArray_DATA(nb)
    cdef bint inc = with_cells
    with nogil:
        mark_adjacent(nbp, cp, k, blp, inc, o)
    return out


cdef tuple _closed_and_zoc(closed, zoc, zoc_add, Py_ssize_t n):
    # the closed and zoc masks of step_costs and step_costs_over (None when not given), read
    # as uint8 and checked, and zoc_add checked to be an int16
    cdef cnp.ndarray cl = None, zc = None
    if closed is not None:
        cl = _as_flags(closed)
        if cnp.PyArray_SIZE(cl) != n:
            raise ValueError("closed must have one entry per cell")
    if zoc is not None:
        zc = _as_flags(zoc)
        if cnp.PyArray_SIZE(zc) != n:
            raise ValueError("zoc must have one entry per cell")
    if not -0x8000 <= zoc_add <= 0x7FFF:
        raise ValueError(f"zoc_add must be an int16, not {zoc_add}")
    return cl, zc


cdef inline const flag_t* _flags_or_null(object mask):
    return NULL if mask is None else <const flag_t*>cnp.PyArray_DATA(<cnp.ndarray>mask)


cdef inline cnp.ndarray _new_step_table(Py_ssize_t n):
    # an uninitialised int16[n, 6] step-cost table (the fill functions write every entry)
    cdef cnp.npy_intp dims[2]
    dims[0] = n
    dims[1] = 6
    return cnp.PyArray_EMPTY(2, dims, cnp.NPY_INT16, 0)


def step_costs(neighbors, enter, side_add=None, closed=None, zoc=None, zoc_add=0,
               strict=True):
    """``int16[n_cells, 6]``: the cost of each step ``c -> neighbors[c, d]`` for one unit.

    The cost is ``enter[v] + side_add[c, d]``, plus ``zoc_add`` when ``zoc[v]``, for the hex
    ``v`` entered; -1 (not allowed) off the map, into a ``closed`` hex and, when ``strict``,
    into a hex or across a hexside whose own cost is negative. Sums are wrapped to int16 as
    ``numpy.astype`` would.

    Parameters
    ----------
    neighbors : int32[n, 6]
    enter : int16[n]
        Cost of entering each hex (other integer types are converted, wrapping).
    side_add : int16[n, 6], optional
        Cost added for crossing each hexside (0 when not given).
    closed : bool[n], optional
        Hexes that may not be entered.
    zoc : bool[n], optional
        Hexes that cost ``zoc_add`` more to enter.

    Examples
    --------
    >>> from gwe_fast import HexMap
    >>> m = HexMap((1, 1), (1, 3))
    >>> enter = np.array([1, 2, 3], dtype=np.int16)
    >>> step_costs(m.neighbors, enter, closed=np.array([0, 0, 1], bool))[:, [0, 3]]
    array([[-1,  2],
           [ 1, -1],
           [ 2, -1]], dtype=int16)
    """
    cdef cnp.ndarray nb = _neighbors(neighbors)
    cdef Py_ssize_t n = cnp.PyArray_DIMS(nb)[0]
    cdef cnp.ndarray en = _as_array(enter, cnp.NPY_INT16, np.int16)
    if cnp.PyArray_SIZE(en) != n:
        raise ValueError("enter must have one entry per cell")
    cdef cnp.ndarray sa = None
    cdef const stepcost_t* sap = NULL
    if side_add is not None:
        sa = _as_array(side_add, cnp.NPY_INT16, np.int16)
        if cnp.PyArray_SIZE(sa) != 6 * n:
            raise ValueError("side_add must have shape (n_cells, 6)")
        sap = <const stepcost_t*>cnp.PyArray_DATA(sa)
    cl, zc = _closed_and_zoc(closed, zoc, zoc_add, n)
    cdef const flag_t* clp = _flags_or_null(cl)
    cdef const flag_t* zcp = _flags_or_null(zc)
    cdef int za = zoc_add
    cdef bint st = strict
    out = _new_step_table(n)
    cdef stepcost_t* o = <stepcost_t*>cnp.PyArray_DATA(out)
    cdef const cell_t* nbp = <const cell_t*>cnp.PyArray_DATA(nb)
    cdef const stepcost_t* enp = <const stepcost_t*>cnp.PyArray_DATA(en)
    with nogil:
        fill_step_costs(nbp, n, enp, sap, clp, zcp, za, st, o)
    return out


def units_in_cell(unit_cell, unit_status, Py_ssize_t cell, require=1):
    """``intp``: the units, ascending, standing in ``cell`` with every ``require`` status bit
    set (``State.units_at``: the units on the map in a hex).

    Examples
    --------
    >>> units_in_cell(np.array([4, 2, 4, 4], np.int32), np.array([1, 1, 0, 1], np.uint16), 4)
    array([0, 3])
    """
    cdef cnp.ndarray uc = _as_array(unit_cell, cnp.NPY_INT32, np.int32)
    cdef cnp.ndarray us = _as_array(unit_status, cnp.NPY_UINT16, np.uint16)
    cdef Py_ssize_t n = cnp.PyArray_SIZE(uc), i, k = 0
    if cnp.PyArray_SIZE(us) != n:
        raise ValueError("unit_cell and unit_status must have one entry per unit")
    cdef uint16_t req = _bits(require, "require")
    cdef const cell_t* c = <const cell_t*>cnp.PyArray_DATA(uc)
    cdef const uint16_t* s = <const uint16_t*>cnp.PyArray_DATA(us)
    for i in range(n):
        if c[i] == cell and (s[i] & req) == req:
            k += 1
    cdef cnp.npy_intp dims[1]
    dims[0] = k
    out = cnp.PyArray_EMPTY(1, dims, cnp.NPY_INTP, 0)
    cdef cnp.npy_intp* o = <cnp.npy_intp*>cnp.PyArray_DATA(out)
    k = 0
    for i in range(n):
        if c[i] == cell and (s[i] & req) == req:
            o[k] = i
            k += 1
    return out


def step_costs_over(neighbors, base, closed=None, zoc=None, zoc_add=0):
    """``step_costs(neighbors, enter, side_add, closed, zoc, zoc_add)`` from ``base =
    step_costs(neighbors, enter, side_add)``, the strict table without closed hexes and
    zones of control (made once per unit kind): ``base`` with every step into a ``closed``
    hex -1 and ``zoc_add`` added (wrapped to int16) to every other step into a ``zoc`` hex
    that ``base`` allows (not -1). In a strict table -1 marks exactly the steps not allowed
    (a sum of two non-negative int16 never wraps to -1), so the two agree.

    Examples
    --------
    >>> from gwe_fast import HexMap
    >>> m = HexMap((1, 1), (1, 3))
    >>> base = step_costs(m.neighbors, np.array([1, 2, 3], dtype=np.int16))
    >>> step_costs_over(m.neighbors, base, np.array([0, 0, 1], bool),
    ...                 np.array([1, 0, 0], bool), 2)[:, [0, 3]]
    array([[-1,  2],
           [ 3, -1],
           [ 2, -1]], dtype=int16)
    """
    cdef cnp.ndarray nb = _neighbors(neighbors)
    cdef Py_ssize_t n = cnp.PyArray_DIMS(nb)[0]
    cdef cnp.ndarray bs = _as_array(base, cnp.NPY_INT16, np.int16)
    if cnp.PyArray_SIZE(bs) != 6 * n:
        raise ValueError("base must have shape (n_cells, 6)")
    cl, zc = _closed_and_zoc(closed, zoc, zoc_add, n)
    cdef const flag_t* clp = _flags_or_null(cl)
    cdef const flag_t* zcp = _flags_or_null(zc)
    cdef int za = zoc_add
    out = _new_step_table(n)
    cdef stepcost_t* o = <stepcost_t*>cnp.PyArray_DATA(out)
    cdef const cell_t* nbp = <const cell_t*>cnp.PyArray_DATA(nb)
    cdef const stepcost_t* bsp = <const stepcost_t*>cnp.PyArray_DATA(bs)
    with nogil:
        fill_step_costs_over(nbp, n, bsp, clp, zcp, za, o)
    return out


def _step_costs_kept(neighbors, base, closed_seq, zoc_seq, zoc_add=0) -> list:
    """The tables ``keep_step_costs_over`` keeps (the compiled core's Movement Segments),
    one after each ``(closed, zoc)`` of the sequences in turn, the first made whole and each
    later one patched from the one before; with whether it was patched (for the tests:
    each must be ``step_costs_over`` of its marks)."""
    cdef cnp.ndarray nb = _neighbors(neighbors)
    cdef Py_ssize_t n = cnp.PyArray_DIMS(nb)[0]
    cdef cnp.ndarray bs = _as_array(base, cnp.NPY_INT16, np.int16)
    if cnp.PyArray_SIZE(bs) != 6 * n:
        raise ValueError("base must have shape (n_cells, 6)")
    table = _new_step_table(n)
    was = np.zeros((2, n), dtype=np.uint8)
    cdef uint8_t[:, ::1] w = was
    cdef stepcost_t* o = <stepcost_t*>cnp.PyArray_DATA(table)
    cdef const cell_t* nbp = <const cell_t*>cnp.PyArray_DATA(nb)
    cdef const stepcost_t* bsp = <const stepcost_t*>cnp.PyArray_DATA(bs)
    cdef cnp.ndarray cl, zc
    cdef bint valid = False, patched
    out = []
    for closed, zoc in zip(closed_seq, zoc_seq):
        cl = _as_flags(closed)
        zc = _as_flags(zoc)
        if cnp.PyArray_SIZE(cl) != n or cnp.PyArray_SIZE(zc) != n:
            raise ValueError("each mask must have one entry per cell")
        patched = keep_step_costs_over(nbp, n, bsp, <const flag_t*>cnp.PyArray_DATA(cl),
                                       <const flag_t*>cnp.PyArray_DATA(zc), zoc_add,
                                       &w[0, 0], &w[1, 0], valid, o)
        valid = True
        out.append((table.copy(), bool(patched)))
    return out


def reach_within(dist, unit_cell, units, layers, limits):
    """``bool[len(units)]``: whether each unit's hex was reached within the unit's limit.

    Unit ``u = units[j]`` is within when some layer ``l < layers[u]`` of ``dist`` (the
    ``int32[n_layers, n_cells]`` result of a search) has ``0 <= dist[l, unit_cell[u]] <=
    limits[u]``: a supply line of at most ``limits[u]`` hexes through at most
    ``layers[u] - 1`` tolls.

    Examples
    --------
    >>> dist = np.array([[0, 1, 2, -1], [-1, -1, -1, 3]], dtype=np.int32)
    >>> cells = np.array([1, 2, 3], dtype=np.int32)
    >>> reach_within(dist, cells, [0, 1, 2], np.array([1, 1, 2]), np.array([1, 1, 3]))
    array([ True, False,  True])
    """
    cdef cnp.ndarray d = _as_array(dist, cnp.NPY_INT32, np.int32)
    if cnp.PyArray_NDIM(d) != 2:
        raise ValueError("dist must have shape (n_layers, n_cells)")
    cdef Py_ssize_t nl = cnp.PyArray_DIMS(d)[0], n = cnp.PyArray_DIMS(d)[1]
    cdef cnp.ndarray cell = _as_array(unit_cell, cnp.NPY_INT32, np.int32)
    cdef cnp.ndarray us = _as_array(units, cnp.NPY_INT32, np.int32)
    cdef cnp.ndarray ly = _as_array(layers, cnp.NPY_INT32, np.int32)
    cdef cnp.ndarray lm = _as_array(limits, cnp.NPY_INT32, np.int32)
    cdef Py_ssize_t nu = cnp.PyArray_SIZE(cell), k = cnp.PyArray_SIZE(us), j
    if cnp.PyArray_SIZE(ly) != nu or cnp.PyArray_SIZE(lm) != nu:
        raise ValueError("unit_cell, layers and limits must have one entry per unit")
    cdef const int32_t* up = <const int32_t*>cnp.PyArray_DATA(us)
    for j in range(k):
        if up[j] < 0 or up[j] >= nu:
            raise IndexError(f"unit {up[j]} is not one of {nu} units")
    out = _bool_zeros(k)
    cdef flag_t* o = <flag_t*>cnp.PyArray_DATA(out)
    cdef const dist_t* dp = <const dist_t*>cnp.PyArray_DATA(d)
    cdef const cell_t* cp = <const cell_t*>cnp.PyArray_DATA(cell)
    cdef const int32_t* lyp = <const int32_t*>cnp.PyArray_DATA(ly)
    cdef const int32_t* lmp = <const int32_t*>cnp.PyArray_DATA(lm)
    cdef Py_ssize_t bad
    with nogil:
        bad = units_within(dp, nl, n, cp, up, k, lyp, lmp, o)
    if bad >= 0:
        raise IndexError(f"unit {up[bad]} is not on one of the {n} cells (cell {cp[up[bad]]})")
    return out
