# What sibling kernels may cimport from policy: the per-element procedures of the scores.
from gwe_fast._core._types cimport cell_t

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
