# What sibling kernels cimport from board: the unit selection and the nogil procedures.
from libc.stdint cimport int8_t, int32_t, uint16_t

from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t


# Which units a procedure looks at. The unit arrays are the State's: unit_status and the
# engine flags are uint16 bit masks, unit_side is the int8 side code of Scenario.units.
cdef struct UnitSelect:
    const cell_t* cell           # unit_cell
    const uint16_t* status       # unit_status
    const int8_t* side           # units.side
    const flag_t* eligible       # nonzero for units that may count at all; NULL: every unit
    const uint16_t* flags        # engine flags; NULL: none
    Py_ssize_t n_units
    bint any_side                # every side, else only want_side
    int want_side
    uint16_t require             # status bits that must all be set
    uint16_t forbid              # status bits that must all be clear
    uint16_t flags_forbid        # flag bits that must all be clear


cdef inline bint unit_selected(const UnitSelect* S, Py_ssize_t i) noexcept nogil:
    cdef uint16_t st = S.status[i]
    if (st & S.require) != S.require or (st & S.forbid) != 0:
        return False
    if not S.any_side and S.side[i] != S.want_side:
        return False
    if S.eligible != NULL and S.eligible[i] == 0:
        return False
    if S.flags != NULL and (S.flags[i] & S.flags_forbid) != 0:
        return False
    return True


# Each returns -1, or the first selected unit whose cell is not one of the n cells (the
# caller raises; out is then partly written).
cdef Py_ssize_t mark_units(const UnitSelect* S, flag_t* out, Py_ssize_t n) noexcept nogil
cdef Py_ssize_t mark_zoc(const UnitSelect* S, const cell_t* nbr, const flag_t* blocked,
                         flag_t* out, Py_ssize_t n) noexcept nogil

cdef void mark_adjacent(const cell_t* nbr, const cell_t* cells, Py_ssize_t k,
                        const flag_t* blocked, bint with_cells, flag_t* out) noexcept nogil
cdef int fill_step_costs(const cell_t* nbr, Py_ssize_t n, const stepcost_t* enter,
                         const stepcost_t* side_add, const flag_t* closed, const flag_t* zoc,
                         int zoc_add, bint strict, stepcost_t* out) except -1 nogil
cdef void fill_step_costs_over(const cell_t* nbr, Py_ssize_t n, const stepcost_t* base,
                               const flag_t* closed, const flag_t* zoc, int zoc_add,
                               stepcost_t* out) noexcept nogil
cdef bint keep_step_costs_over(const cell_t* nbr, Py_ssize_t n, const stepcost_t* base,
                               const flag_t* closed, const flag_t* zoc, int zoc_add,
                               flag_t* was_closed, flag_t* was_zoc, bint valid,
                               stepcost_t* out) noexcept nogil
# -1, or the first position j whose unit units[j] is not on one of the n cells
cdef Py_ssize_t units_within(const dist_t* dist, Py_ssize_t n_layers, Py_ssize_t n,
                             const cell_t* unit_cell, const int32_t* units, Py_ssize_t k,
                             const int32_t* layers, const int32_t* limits,
                             flag_t* out) noexcept nogil
