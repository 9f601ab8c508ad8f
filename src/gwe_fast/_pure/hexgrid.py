"""Pure-Python twin of ``gwe_fast._core.hexgrid``."""

import numpy as np

from gwe_fast import dtypes

# (dcol, drow) in direction order N NE SE S SW NW, for odd and for even columns
DCOL = (0, 1, 1, 0, -1, -1)
DROW_ODD = (-1, -1, 0, 1, 0, -1)
DROW_EVEN = (-1, 0, 1, 1, 1, 0)


def _axial_r(col, row):
    return row - (col - 1) // 2


def _axial_distance(q1, r1, q2, r2):
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def build_cells(col0, col1, row0, row1, present):
    ncols, nrows = col1 - col0 + 1, row1 - row0 + 1
    if ncols <= 0 or nrows <= 0:
        raise ValueError("empty rectangle")
    if len(present) != ncols * nrows:
        raise ValueError(f"present has {len(present)} entries, expected {ncols * nrows}")
    lookup = np.full(ncols * nrows, -1, dtype=dtypes.CELL)
    cols, rows = [], []
    for i in range(ncols * nrows):
        if present[i]:
            lookup[i] = len(cols)
            cols.append(col0 + i // nrows)
            rows.append(row0 + i % nrows)
    return np.array(cols, dtype=dtypes.COORD), np.array(rows, dtype=dtypes.COORD), lookup


def _lookup(lookup, col0, row0, nrows, c, r):
    ncols = len(lookup) // nrows
    if not (col0 <= c < col0 + ncols and row0 <= r < row0 + nrows):
        return -1
    return int(lookup[(c - col0) * nrows + (r - row0)])


def neighbor_table(col, row, lookup, col0, row0, nrows):
    out = np.empty((len(col), 6), dtype=dtypes.CELL)
    for i, (c, r) in enumerate(zip(col.tolist(), row.tolist())):
        drow = DROW_ODD if c % 2 else DROW_EVEN
        for d in range(6):
            out[i, d] = _lookup(lookup, col0, row0, nrows, c + DCOL[d], r + drow[d])
    return out


def ids_to_cells(ids, lookup, col0, row0, nrows):
    out = [(-1 if h < 0 else _lookup(lookup, col0, row0, nrows, h // 100, h % 100))
           for h in np.asarray(ids).tolist()]
    return np.array(out, dtype=dtypes.CELL)


def cells_to_ids(col, row, cells):
    out = []
    for c in np.asarray(cells).tolist():
        if not 0 <= c < len(col):
            raise IndexError(f"cell {c} is not on a map of {len(col)} cells")
        out.append(int(col[c]) * 100 + int(row[c]))
    return np.array(out, dtype=dtypes.HEXID)


def axial_coords(col, row):
    q = np.array(col, dtype=dtypes.COORD)
    r = np.array([_axial_r(c, w) for c, w in zip(col.tolist(), row.tolist())], dtype=dtypes.COORD)
    return q, r


def distances_from(q, r, cell):
    if not 0 <= cell < len(q):
        raise IndexError(f"cell {cell} is not on a map of {len(q)} cells")
    q0, r0 = int(q[cell]), int(r[cell])
    return np.array([_axial_distance(q0, r0, a, b) for a, b in zip(q.tolist(), r.tolist())],
                    dtype=dtypes.DIST)


def hex_distance(q, r, a, b):
    if not (0 <= a < len(q) and 0 <= b < len(q)):
        raise IndexError(f"cells {a}, {b}: not both on a map of {len(q)} cells")
    return _axial_distance(int(q[a]), int(r[a]), int(q[b]), int(r[b]))


def _within(col, row, lookup, col0, row0, nrows, center, rmin, rmax):
    if not 0 <= center < len(col):
        raise IndexError(f"cell {center} is not on a map of {len(col)} cells")
    if rmax < 0:
        raise ValueError("radius must be >= 0")
    qc = int(col[center])
    rc = _axial_r(qc, int(row[center]))
    out = []
    for c in range(qc - rmax, qc + rmax + 1):
        for ra in range(rc - rmax, rc + rmax + 1):
            if rmin <= _axial_distance(qc, rc, c, ra) <= rmax:
                cell = _lookup(lookup, col0, row0, nrows, c, ra + (c - 1) // 2)
                if cell >= 0:
                    out.append(cell)
    return np.array(out, dtype=dtypes.CELL)


def hex_range(col, row, lookup, col0, row0, nrows, center, radius):
    return _within(col, row, lookup, col0, row0, nrows, center, 0, radius)


def hex_ring(col, row, lookup, col0, row0, nrows, center, radius):
    return _within(col, row, lookup, col0, row0, nrows, center, radius, radius)


def set_hexside(mask, neighbors, cell, direction, bits):
    if not (0 <= cell < mask.shape[0] and 0 <= direction <= 5):
        raise IndexError(f"no hexside ({cell}, {direction})")
    mask[cell, direction] |= bits
    other = neighbors[cell, direction]
    if other >= 0:
        mask[other, (direction + 3) % 6] |= bits


def find_asymmetry(mask, neighbors):
    for i in range(mask.shape[0]):
        for d in range(6):
            other = neighbors[i, d]
            if other >= 0 and mask[i, d] != mask[other, (d + 3) % 6]:
                return i, d
    return -1, -1
