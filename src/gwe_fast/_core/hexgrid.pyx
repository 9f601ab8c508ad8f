# cython: language_level=3
"""Hex grid kernels: the map as a flat cell index.

Conventions (documented in docs/scenarios.md and gwe_fast.hexmap):

* SPI hex ids ``XXYY``: column ``XX``, row ``YY``. Flat-topped hexes; hexes of even-numbered
  columns sit half a hex lower than those of odd-numbered columns.
* Cells are numbered column by column, then row by row, so cell order is hex-id order.
* Directions 0..5 are N, NE, SE, S, SW, NW; the opposite of ``d`` is ``(d + 3) % 6``.
* Axial coordinates: ``q = col``, ``r = row - floor((col - 1) / 2)``.

Every function here has a pure-Python twin in ``gwe_fast._pure.hexgrid`` with the same
signature and results.
"""

import numpy as np
cimport numpy as cnp

from gwe_fast._core._types cimport cell_t, coord_t, dist_t, flag_t, hexid_t, hexside_t
from gwe_fast._core.hexgrid cimport axial_distance, axial_r, floor_half

cnp.import_array()

# (dcol, drow) for odd columns and for even columns, in direction order N NE SE S SW NW
cdef int[6] _DC = [0, 1, 1, 0, -1, -1]
cdef int[6] _DR_ODD = [-1, -1, 0, 1, 0, -1]
cdef int[6] _DR_EVEN = [-1, 0, 1, 1, 1, 0]


def build_cells(int col0, int col1, int row0, int row1, const flag_t[::1] present):
    """Number the hexes present in the rectangle ``col0..col1 x row0..row1``.

    ``present`` is indexed ``(col - col0) * nrows + (row - row0)``. Returns ``(col, row,
    lookup)`` where ``lookup`` maps that rectangle index to a cell index or -1.
    """
    cdef int ncols = col1 - col0 + 1
    cdef int nrows = row1 - row0 + 1
    if ncols <= 0 or nrows <= 0:
        raise ValueError("empty rectangle")
    if present.shape[0] != ncols * nrows:
        raise ValueError(f"present has {present.shape[0]} entries, expected {ncols * nrows}")
    lookup_arr = np.full(ncols * nrows, -1, dtype=np.int32)
    cdef cell_t[::1] lookup = lookup_arr
    cdef Py_ssize_t i
    cdef cell_t n = 0
    with nogil:
        for i in range(ncols * nrows):
            if present[i]:
                lookup[i] = n
                n += 1
    col_arr = np.empty(n, dtype=np.int16)
    row_arr = np.empty(n, dtype=np.int16)
    cdef coord_t[::1] col = col_arr
    cdef coord_t[::1] row = row_arr
    with nogil:
        for i in range(ncols * nrows):
            if lookup[i] >= 0:
                col[lookup[i]] = <coord_t>(col0 + i // nrows)
                row[lookup[i]] = <coord_t>(row0 + i % nrows)
    return col_arr, row_arr, lookup_arr


cdef inline cell_t _lookup(const cell_t[::1] lookup, int col0, int row0, int ncols, int nrows,
                           int c, int r) noexcept nogil:
    if c < col0 or r < row0 or c >= col0 + ncols or r >= row0 + nrows:
        return -1
    return lookup[(c - col0) * nrows + (r - row0)]


def neighbor_table(const coord_t[::1] col, const coord_t[::1] row, const cell_t[::1] lookup,
                   int col0, int row0, int nrows):
    """Return the ``int32[n_cells, 6]`` neighbour table, -1 where the neighbour is off the map."""
    cdef Py_ssize_t n = col.shape[0]
    cdef int ncols = lookup.shape[0] // nrows
    out_arr = np.empty((n, 6), dtype=np.int32)
    cdef cell_t[:, ::1] out = out_arr
    cdef Py_ssize_t i
    cdef int d, c, r
    with nogil:
        for i in range(n):
            c = col[i]
            r = row[i]
            for d in range(6):
                if c & 1:
                    out[i, d] = _lookup(lookup, col0, row0, ncols, nrows, c + _DC[d], r + _DR_ODD[d])
                else:
                    out[i, d] = _lookup(lookup, col0, row0, ncols, nrows, c + _DC[d], r + _DR_EVEN[d])
    return out_arr


def ids_to_cells(const hexid_t[::1] ids, const cell_t[::1] lookup, int col0, int row0, int nrows):
    """Map SPI hex ids (``XXYY`` as integers) to cell indices, -1 for a hex not on the map."""
    cdef Py_ssize_t n = ids.shape[0]
    cdef int ncols = lookup.shape[0] // nrows
    out_arr = np.empty(n, dtype=np.int32)
    cdef cell_t[::1] out = out_arr
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            if ids[i] < 0:
                out[i] = -1
            else:
                out[i] = _lookup(lookup, col0, row0, ncols, nrows, ids[i] // 100, ids[i] % 100)
    return out_arr


def cells_to_ids(const coord_t[::1] col, const coord_t[::1] row, const cell_t[::1] cells):
    """Map cell indices to SPI hex ids; raises IndexError for a cell outside the map."""
    cdef Py_ssize_t n = cells.shape[0]
    cdef Py_ssize_t ncells = col.shape[0]
    out_arr = np.empty(n, dtype=np.int16)
    cdef hexid_t[::1] out = out_arr
    cdef Py_ssize_t i
    cdef Py_ssize_t bad = -1
    with nogil:
        for i in range(n):
            if cells[i] < 0 or cells[i] >= ncells:
                bad = i
                break
            out[i] = <hexid_t>(col[cells[i]] * 100 + row[cells[i]])
    if bad >= 0:
        raise IndexError(f"cell {cells[bad]} is not on a map of {ncells} cells")
    return out_arr


def axial_coords(const coord_t[::1] col, const coord_t[::1] row):
    """Return axial ``(q, r)`` arrays of the cells."""
    cdef Py_ssize_t n = col.shape[0]
    q_arr = np.empty(n, dtype=np.int16)
    r_arr = np.empty(n, dtype=np.int16)
    cdef coord_t[::1] q = q_arr
    cdef coord_t[::1] r = r_arr
    cdef Py_ssize_t i
    with nogil:
        for i in range(n):
            q[i] = col[i]
            r[i] = axial_r(col[i], row[i])
    return q_arr, r_arr


def distances_from(const coord_t[::1] q, const coord_t[::1] r, cell_t cell):
    """Hex distance (ignoring terrain) from ``cell`` to every cell."""
    cdef Py_ssize_t n = q.shape[0]
    if cell < 0 or cell >= n:
        raise IndexError(f"cell {cell} is not on a map of {n} cells")
    out_arr = np.empty(n, dtype=np.int32)
    cdef dist_t[::1] out = out_arr
    cdef Py_ssize_t i
    cdef int q0 = q[cell], r0 = r[cell]
    with nogil:
        for i in range(n):
            out[i] = axial_distance(q0, r0, q[i], r[i])
    return out_arr


def hex_distance(const coord_t[::1] q, const coord_t[::1] r, cell_t a, cell_t b):
    """Hex distance between two cells."""
    cdef Py_ssize_t n = q.shape[0]
    if a < 0 or a >= n or b < 0 or b >= n:
        raise IndexError(f"cells {a}, {b}: not both on a map of {n} cells")
    return axial_distance(q[a], r[a], q[b], r[b])


cdef Py_ssize_t _within(const coord_t[::1] col, const coord_t[::1] row, const cell_t[::1] lookup,
                        int col0, int row0, int nrows, cell_t center, int rmin, int rmax,
                        cell_t[::1] out) noexcept nogil:
    # Cells at distance rmin..rmax from center, written to out in column-major order.
    cdef int ncols = lookup.shape[0] // nrows
    cdef int qc = col[center]
    cdef int rc = axial_r(col[center], row[center])
    cdef int c, ra, rr, d
    cdef cell_t cell
    cdef Py_ssize_t k = 0
    for c in range(qc - rmax, qc + rmax + 1):
        if c < col0 or c >= col0 + ncols:
            continue
        for ra in range(rc - rmax, rc + rmax + 1):
            d = axial_distance(qc, rc, c, ra)
            if d < rmin or d > rmax:
                continue
            rr = ra + floor_half(c - 1)
            cell = _lookup(lookup, col0, row0, ncols, nrows, c, rr)
            if cell >= 0:
                out[k] = cell
                k += 1
    return k


def hex_range(const coord_t[::1] col, const coord_t[::1] row, const cell_t[::1] lookup,
              int col0, int row0, int nrows, cell_t center, int radius):
    """Cells within ``radius`` hexes of ``center`` (inclusive), ascending."""
    if center < 0 or center >= col.shape[0]:
        raise IndexError(f"cell {center} is not on a map of {col.shape[0]} cells")
    if radius < 0:
        raise ValueError("radius must be >= 0")
    buf_arr = np.empty(3 * radius * (radius + 1) + 1, dtype=np.int32)
    cdef cell_t[::1] buf = buf_arr
    cdef Py_ssize_t k
    with nogil:
        k = _within(col, row, lookup, col0, row0, nrows, center, 0, radius, buf)
    return buf_arr[:k].copy()


def hex_ring(const coord_t[::1] col, const coord_t[::1] row, const cell_t[::1] lookup,
             int col0, int row0, int nrows, cell_t center, int radius):
    """Cells exactly ``radius`` hexes from ``center``, ascending."""
    if center < 0 or center >= col.shape[0]:
        raise IndexError(f"cell {center} is not on a map of {col.shape[0]} cells")
    if radius < 0:
        raise ValueError("radius must be >= 0")
    buf_arr = np.empty(max(6 * radius, 1), dtype=np.int32)
    cdef cell_t[::1] buf = buf_arr
    cdef Py_ssize_t k
    with nogil:
        k = _within(col, row, lookup, col0, row0, nrows, center, radius, radius, buf)
    return buf_arr[:k].copy()


def set_hexside(hexside_t[:, ::1] mask, const cell_t[:, ::1] neighbors, cell_t cell, int direction,
                hexside_t bits):
    """Set ``bits`` on the hexside of ``cell`` in ``direction`` and on its other face."""
    if cell < 0 or cell >= mask.shape[0] or direction < 0 or direction > 5:
        raise IndexError(f"no hexside ({cell}, {direction})")
    mask[cell, direction] |= bits
    cdef cell_t other = neighbors[cell, direction]
    if other >= 0:
        mask[other, (direction + 3) % 6] |= bits


def find_asymmetry(const hexside_t[:, ::1] mask, const cell_t[:, ::1] neighbors):
    """Return the first ``(cell, direction)`` whose two faces differ, or ``(-1, -1)``."""
    cdef Py_ssize_t n = mask.shape[0]
    cdef Py_ssize_t i
    cdef int d
    cdef cell_t other
    cdef cell_t bad_cell = -1
    cdef int bad_dir = -1
    with nogil:
        for i in range(n):
            for d in range(6):
                other = neighbors[i, d]
                if other >= 0 and mask[i, d] != mask[other, (d + 3) % 6]:
                    bad_cell = <cell_t>i
                    bad_dir = d
                    break
            if bad_cell >= 0:
                break
    return bad_cell, bad_dir
