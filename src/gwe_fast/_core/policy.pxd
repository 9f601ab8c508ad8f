# What sibling kernels may cimport from policy: the per-element procedures of the scores.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t

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


# A map's arrays for pricing a unit's hexes (score_cells, attack_gains), as pointers: the
# CellPricer's, or the compiled core's record of a position map (gwe/core.pyx)
cdef struct CellFacts:
    const cell_t* nb               # [n, 6]
    const flag_t* prohibited       # [n, 6]
    const flag_t* halved           # [n, 6]
    const double* mult
    const double* threat
    const double* need             # [k]
    Py_ssize_t k
    const double* per_step         # [n_cols]
    Py_ssize_t n_cols
    const int32_t* dist_enemy
    const flag_t* supplied
    const flag_t* cover
    const double* town
    const flag_t* enemy_occ
    const double* tgt_def
    const double* tgt_ev           # [n, ev_cols]
    Py_ssize_t ev_cols
    const flag_t* known
    const double* my_sp
    const double* my_def
    const double* my_steps
    const double* base_att

# One unit's terms of score_cells
cdef struct UnitTerms:
    int64_t here
    double sp
    double limit
    double steps
    double dfn
    const int8_t* hex_last
    int side
    double hold
    double supply_pen
    double command_pen
    double town_w
    double attack_w
    double pull_c
    bint use_pull

# score_cells for one hex c (extra and gain read when has_extra / has_gain)
cdef double score_one(const CellFacts* f, const UnitTerms* u, int64_t c, bint has_extra,
                      double extra, bint has_gain, double gain) noexcept nogil
# attack_gains for one hex c: ab holds k rows (a, b)
cdef double gain_one(const CellFacts* f, int64_t c, const int16_t* d_here, double a_u,
                     double att_u, const double* ab, Py_ssize_t k, Py_ssize_t n_cols
                     ) noexcept nogil


# The Kaiser's Battle: the expectation of one attack (policies.kb.scoring.Expected's fields)
cdef struct KbExpect:
    double score
    double p_eliminated
    double p_unsuccessful
    double p_success
    double defender_steps
    double attacker_steps
    double p_cleared

# scoring.odds, scoring._success and expected_attack's score from the attackers' costs if
# unsuccessful and if eliminated; False (nothing written) when a denominator is not positive
cdef bint kb_expect(int64_t att_str, int64_t att_mod, int64_t def_str, int64_t def_mod,
                    int64_t morale, Py_ssize_t n_def, const double* full, double clear_value,
                    double fail, double fail_steps, double elim, int64_t elim_steps,
                    KbExpect* out) noexcept nogil
