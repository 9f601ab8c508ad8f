# What sibling kernels cimport from hexgrid: the inline geometry helpers.
from gwe_fast._core._types cimport cell_t, coord_t, dist_t

cdef inline int floor_half(int x) noexcept nogil:
    # floor(x / 2) for negative x too (C division truncates toward zero)
    return (x - (x & 1)) // 2

cdef inline coord_t axial_r(coord_t col, coord_t row) noexcept nogil:
    # even-numbered columns sit half a hex lower: r_axial = row - floor((col - 1) / 2)
    return <coord_t>(row - floor_half(col - 1))

cdef inline dist_t axial_distance(int q1, int r1, int q2, int r2) noexcept nogil:
    cdef int dq = q1 - q2
    cdef int dr = r1 - r2
    cdef int ds = dq + dr
    if dq < 0:
        dq = -dq
    if dr < 0:
        dr = -dr
    if ds < 0:
        ds = -ds
    return <dist_t>((dq + dr + ds) // 2)
