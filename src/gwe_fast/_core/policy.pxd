# What sibling kernels may cimport from policy: the per-element procedures of the scores.
from libc.stdint cimport int16_t, int32_t, uint8_t

from gwe_fast._core._types cimport cell_t, flag_t

# numpy.searchsorted(need[:k], x, side="right") - 1
cdef Py_ssize_t column_of_ratio(const double* need, Py_ssize_t k, double x) noexcept nogil
# the enemy's expected gain against one stack (PositionMap.exposure for one hex)
cdef double exposure_one(double defence, double mult, double threat, double steps,
                         const double* need, Py_ssize_t k, const double* per_step,
                         Py_ssize_t n_cols) noexcept nogil
# scoring.Crt.column_array for one (attack, defense); ab holds k rows (a, b)
cdef Py_ssize_t column_float(const double* ab, Py_ssize_t k, Py_ssize_t n_cols,
                             double attack, double defense) noexcept nogil
# numpy.maximum(0.0, ev[t, col]), 0 when col < 0
cdef double value_at(const double* ev, Py_ssize_t n_cols, cell_t t, Py_ssize_t col
                     ) noexcept nogil
# retreat_ways on checked arguments: nb and passable [n_cells, 6], d_origin the hex distances
# from origin (read at the hexes two steps away)
cdef void retreat_ways_run(Py_ssize_t origin, const cell_t* nb, const flag_t* passable,
                           const flag_t* blocks, const flag_t* open_zoc, bint through_zoc,
                           const int16_t* d_origin, bint* one, bint* two) noexcept nogil
# surrounded_map on checked arguments: nb and passable [n, 6], dist and queue scratch of n
cdef void surrounded_run(Py_ssize_t n, const cell_t* nb, const flag_t* passable,
                         const flag_t* free, const flag_t* target, const flag_t* own,
                         int limit, int32_t* dist, int32_t* queue,
                         uint8_t* out) noexcept nogil
