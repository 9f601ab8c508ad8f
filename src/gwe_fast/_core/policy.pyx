# cython: language_level=3
"""The hot arithmetic of the Great War in the East ladder policies, over packed arrays.

* ``score_cells``: the price of one unit ending in each of ``cells`` (``PositionMap.scores``
  for a unit other than an HQ);
* ``needed_targets``: the enemy hexes in reach of an attack from ``cells`` whose attack
  table is not known yet;
* ``attack_gains``: what the unit adds, in each of ``cells``, to the best attack on an
  adjacent enemy hex;
* ``CellPricer``: the three above with a ``PositionMap``'s arrays checked and bound once;
* ``AttackJudge``: an attack's exact strength (in half points), its CRT column and its die
  modifiers in one call, as the engine's ``combat.attack_strength`` (with fractions),
  ``combat.odds_column`` and ``combat.die_modifier`` give them, with one position's arrays
  for one attacking side bound once.

The Kaiser's Battle ladder: ``kb_unit_values``, the value of one unit ending its move in
each of ``cells`` (``policies.kb.position.Board.values``), and ``KbPricer``, the same with a
``Board``'s maps checked and bound once; ``kb_side_maps``, what a ``Board``
refreshes before each move of its side; ``kb_path_gains``, the towns taken on the way to each
of some hexes (``Board.path_values``); ``kb_attack_values``, an attack's exact expectation
over the 36 pairs of dice, or that of every team of its first attackers
(``scoring.expected_attack``, ``expected_prefixes``).

Same arguments and results as the pure-Python twin ``gwe_fast._pure.policy``. The
floating-point operations are the twin's (numpy's), one by one and in the same order, so the
results are the same bits (the extension is built without floating-point contraction).
"""

import numpy as np
cimport numpy as cnp
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t

from gwe_fast._core._types cimport cell_t, flag_t

cnp.import_array()

cdef double NEG = -1e9


# ---------------------------------------------------------------------------------------------
# The nogil procedures (policy.pxd)

cdef Py_ssize_t column_of_ratio(const double* need, Py_ssize_t k, double x) noexcept nogil:
    # numpy.searchsorted(need, x, side="right") - 1 for one key: the same binary search
    cdef Py_ssize_t lo = 0, hi = k, mid
    while lo < hi:
        mid = lo + ((hi - lo) >> 1)
        if need[mid] <= x:
            lo = mid + 1
        else:
            hi = mid
    return lo - 1


cdef double exposure_one(double defence, double mult, double threat, double steps,
                         const double* need, Py_ssize_t k, const double* per_step,
                         Py_ssize_t n_cols) noexcept nogil:
    cdef double d = defence * mult
    cdef double ratio, g
    cdef Py_ssize_t col
    if not (d >= 0.5):               # numpy.maximum(d, 0.5), NaN kept
        if d == d:
            d = 0.5
    ratio = threat / d
    col = column_of_ratio(need, k, ratio + 1e-9)
    if col > n_cols - 1:
        col = n_cols - 1
    g = per_step[col] if col >= 0 else 0.0
    return g * steps


cdef Py_ssize_t column_float(const double* ab, Py_ssize_t k, Py_ssize_t n_cols,
                             double attack, double defense) noexcept nogil:
    # scoring.Crt.column_array for one pair: how many ratios the odds reach, minus one
    cdef Py_ssize_t i, n = 0
    if defense <= 0:
        return n_cols - 1
    for i in range(k):
        if attack * ab[2 * i + 1] >= defense * ab[2 * i] - 1e-9:
            n += 1
    return n - 1


cdef double value_at(const double* ev, Py_ssize_t n_cols, cell_t t, Py_ssize_t col
                     ) noexcept nogil:
    cdef double v
    if col < 0:
        return 0.0
    v = ev[<Py_ssize_t>t * n_cols + col]
    return v if v > 0.0 or v != v else 0.0      # numpy.maximum(0.0, v)


# ---------------------------------------------------------------------------------------------
# Argument checks shared by the wrappers

cdef int check_per_cell(Py_ssize_t nc, sizes) except -1:
    for size in sizes:
        if size != nc:
            raise ValueError("the per-cell arrays must all have one entry per cell")
    return 0


cdef object per_asked(object values, Py_ssize_t n, str name):
    # an optional float array with one entry per cell asked
    a = np.ascontiguousarray(values, dtype=np.float64)
    if a.shape[0] != n:
        raise ValueError(f"{name} must have one entry per cell asked")
    return a


cdef int check_sides(const cell_t[:, ::1] nb, const flag_t[:, ::1] other, str names) except -1:
    if nb.shape[1] != 6 or other.shape[0] != nb.shape[0] or other.shape[1] != 6:
        raise ValueError(f"{names} must be [n_cells, 6]")
    return 0


cdef int check_cells(const int64_t[::1] cv, Py_ssize_t nc) except -1:
    cdef Py_ssize_t i
    for i in range(cv.shape[0]):
        if cv[i] < 0 or cv[i] >= nc:
            raise IndexError(f"cell {cv[i]} is not on the map")
    return 0


cdef int check_units(const int64_t[::1] av, const cell_t[::1] unit_cell,
                     Py_ssize_t nc) except -1:
    cdef Py_ssize_t i
    for i in range(av.shape[0]):
        if av[i] < 0 or av[i] >= unit_cell.shape[0]:
            raise IndexError(f"unit {av[i]} does not exist")
        if unit_cell[av[i]] < 0 or unit_cell[av[i]] >= nc:
            raise IndexError(f"unit {av[i]} is not on the map")
    return 0


# ---------------------------------------------------------------------------------------------
# Python wrappers

def score_cells(cells, Py_ssize_t here, double sp, double limit, double steps, double dfn,
                const double[::1] my_sp, const double[::1] my_def, const double[::1] my_steps,
                const double[::1] mult, const double[::1] threat, const double[::1] need,
                const double[::1] per_step, const int32_t[::1] dist_enemy,
                const flag_t[::1] supplied, const flag_t[::1] cover,
                const int8_t[::1] hex_last, int side, const double[::1] town, double hold,
                double supply_pen, double command_pen, double town_w, extra=None, gain=None,
                double attack_w=0.0, double pull_c=0.0, bint use_pull=False):
    """``float64[len(cells)]``: the value of the unit standing in each of ``cells`` (see the
    twin's docstring)."""
    check_per_cell(my_sp.shape[0], (my_def.shape[0], my_steps.shape[0], mult.shape[0],
                                     threat.shape[0], dist_enemy.shape[0], supplied.shape[0],
                                     cover.shape[0], hex_last.shape[0], town.shape[0]))
    return _score_cells(cells, here, sp, limit, steps, dfn, my_sp, my_def, my_steps, mult,
                        threat, need, per_step, dist_enemy, supplied, cover, hex_last, side,
                        town, hold, supply_pen, command_pen, town_w, extra, gain, attack_w,
                        pull_c, use_pull)


cdef object _score_cells(cells, Py_ssize_t here, double sp, double limit, double steps,
                         double dfn, const double[::1] my_sp, const double[::1] my_def,
                         const double[::1] my_steps, const double[::1] mult,
                         const double[::1] threat, const double[::1] need,
                         const double[::1] per_step, const int32_t[::1] dist_enemy,
                         const flag_t[::1] supplied, const flag_t[::1] cover,
                         const int8_t[::1] hex_last, int side, const double[::1] town,
                         double hold, double supply_pen, double command_pen, double town_w,
                         extra, gain, double attack_w, double pull_c, bint use_pull):
    # score_cells once the per-cell arrays are known to agree (CellPricer checks them once)
    cdef const int64_t[::1] cv = np.ascontiguousarray(cells, dtype=np.int64)
    cdef Py_ssize_t n = cv.shape[0], nc = my_sp.shape[0], i
    cdef Py_ssize_t k = need.shape[0], n_cols = per_step.shape[0]
    cdef const double[::1] ex
    cdef const double[::1] gn
    cdef bint has_extra = extra is not None, has_gain = gain is not None
    if hex_last.shape[0] != nc:
        raise ValueError("the per-cell arrays must all have one entry per cell")
    if has_extra:
        ex = per_asked(extra, n, "extra")
    if has_gain:
        gn = per_asked(gain, n, "gain")
    check_cells(cv, nc)
    out_arr = np.empty(n, dtype=np.float64)
    cdef double[::1] out = out_arr
    cdef CellFacts f
    cdef UnitTerms u
    f.my_sp, f.my_def, f.my_steps = &my_sp[0], &my_def[0], &my_steps[0]
    f.mult, f.threat, f.town = &mult[0], &threat[0], &town[0]
    f.need, f.k = (&need[0] if k > 0 else NULL), k
    f.per_step, f.n_cols = (&per_step[0] if n_cols > 0 else NULL), n_cols
    f.dist_enemy, f.supplied, f.cover = &dist_enemy[0], &supplied[0], &cover[0]
    u.here, u.sp, u.limit, u.steps, u.dfn = here, sp, limit, steps, dfn
    u.hex_last, u.side, u.hold = &hex_last[0], side, hold
    u.supply_pen, u.command_pen, u.town_w = supply_pen, command_pen, town_w
    u.attack_w, u.pull_c, u.use_pull = attack_w, pull_c, use_pull
    with nogil:
        for i in range(n):
            out[i] = score_one(&f, &u, cv[i], has_extra, ex[i] if has_extra else 0.0,
                               has_gain, gn[i] if has_gain else 0.0)
    return out_arr


cdef double score_one(const CellFacts* f, const UnitTerms* u, int64_t c, bint has_extra,
                      double extra, bint has_gain, double gain) noexcept nogil:
    # one hex of score_cells: the floating-point operations of the twin, in its order
    cdef double o_sp, o_def, o_steps, v, de
    if c == u.here:
        o_sp = f.my_sp[c] - u.sp
        o_def = f.my_def[c] - u.dfn
        o_steps = f.my_steps[c] - u.steps
    else:
        o_sp = f.my_sp[c] - 0.0
        o_def = f.my_def[c] - 0.0
        o_steps = f.my_steps[c] - 0.0
    v = NEG if o_sp + u.sp > u.limit else 0.0
    v -= (exposure_one(o_def + u.dfn, f.mult[c], f.threat[c], o_steps + u.steps, f.need, f.k,
                       f.per_step, f.n_cols)
          - exposure_one(o_def, f.mult[c], f.threat[c], o_steps, f.need, f.k,
                         f.per_step, f.n_cols))
    v += u.hold if (f.dist_enemy[c] == 1 and o_steps <= 0) else 0.0
    v += 0.0 if f.supplied[c] else u.supply_pen
    v += 0.0 if f.cover[c] else u.command_pen
    v += u.town_w * f.town[c] if u.hex_last[c] != u.side else 0.0
    if has_extra:
        v += extra
    else:
        if has_gain:
            v += u.attack_w * gain
        if u.use_pull:
            de = <double>(f.dist_enemy[c] if f.dist_enemy[c] < 12 else 12)
            v -= u.pull_c * de
    return v


def needed_targets(cells, const int32_t[::1] dist_enemy, const cell_t[:, ::1] nb,
                   const flag_t[::1] enemy_occ, const flag_t[:, ::1] prohibited,
                   const flag_t[::1] known):
    """``int64[:]``: the enemy hexes next to ``cells`` (those one hex from the enemy, not
    across a prohibited hexside) that are not ``known``, ascending."""
    check_sides(nb, prohibited, "nb and prohibited")
    check_per_cell(nb.shape[0], (dist_enemy.shape[0], enemy_occ.shape[0], known.shape[0]))
    return _needed_targets(cells, dist_enemy, nb, enemy_occ, prohibited, known)


cdef object _needed_targets(cells, const int32_t[::1] dist_enemy, const cell_t[:, ::1] nb,
                            const flag_t[::1] enemy_occ, const flag_t[:, ::1] prohibited,
                            const flag_t[::1] known):
    cdef const int64_t[::1] cv = np.ascontiguousarray(cells, dtype=np.int64)
    cdef Py_ssize_t n = cv.shape[0], nc = nb.shape[0], i, d
    check_cells(cv, nc)
    seen_arr = np.zeros(nc, dtype=np.uint8)
    cdef uint8_t[::1] seen = seen_arr
    cdef int64_t c
    cdef cell_t t
    cdef Py_ssize_t found = 0
    with nogil:
        for i in range(n):
            c = cv[i]
            if dist_enemy[c] != 1:
                continue
            for d in range(6):
                t = nb[c, d]
                if t >= 0 and enemy_occ[t] and not prohibited[c, d] and not known[t]:
                    if not seen[t]:
                        seen[t] = 1
                        found += 1
    if found == 0:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(seen_arr).astype(np.int64)


def attack_gains(cells, const int16_t[::1] d_here, double a_u, double att_u,
                 const int32_t[::1] dist_enemy, const cell_t[:, ::1] nb,
                 const flag_t[::1] enemy_occ, const flag_t[:, ::1] prohibited,
                 const flag_t[:, ::1] halved, const double[::1] base_att,
                 const double[::1] tgt_def, const double[:, ::1] tgt_ev,
                 const double[:, ::1] ab, Py_ssize_t n_cols):
    """``float64[len(cells)]``: what the unit adds, in each of ``cells``, to the best attack
    on an adjacent enemy hex (see the twin's docstring)."""
    cdef Py_ssize_t nc = nb.shape[0]
    check_sides(nb, prohibited, "nb, prohibited and halved")
    check_sides(nb, halved, "nb, prohibited and halved")
    if tgt_ev.shape[0] != nc:
        raise ValueError("ab must be [k, 2] and tgt_ev [n_cells, n_cols]")
    check_per_cell(nc, (dist_enemy.shape[0], enemy_occ.shape[0], base_att.shape[0],
                        tgt_def.shape[0]))
    return _attack_gains(cells, d_here, a_u, att_u, dist_enemy, nb, enemy_occ, prohibited,
                         halved, base_att, tgt_def, tgt_ev, ab, n_cols)


cdef object _attack_gains(cells, const int16_t[::1] d_here, double a_u, double att_u,
                          const int32_t[::1] dist_enemy, const cell_t[:, ::1] nb,
                          const flag_t[::1] enemy_occ, const flag_t[:, ::1] prohibited,
                          const flag_t[:, ::1] halved, const double[::1] base_att,
                          const double[::1] tgt_def, const double[:, ::1] tgt_ev,
                          const double[:, ::1] ab, Py_ssize_t n_cols):
    # attack_gains once the per-map arrays are known to agree (CellPricer checks them once)
    cdef const int64_t[::1] cv = np.ascontiguousarray(cells, dtype=np.int64)
    cdef Py_ssize_t n = cv.shape[0], nc = nb.shape[0], i, d, k = ab.shape[0]
    if ab.shape[1] != 2 or tgt_ev.shape[1] < n_cols:
        raise ValueError("ab must be [k, 2] and tgt_ev [n_cells, n_cols]")
    if d_here.shape[0] != nc:
        raise ValueError("the per-cell arrays must all have one entry per cell")
    check_cells(cv, nc)
    out_arr = np.zeros(n, dtype=np.float64)
    cdef double[::1] out = out_arr
    cdef const double* abp = &ab[0, 0] if k > 0 else NULL
    cdef CellFacts f
    f.nb, f.prohibited, f.halved = &nb[0, 0], &prohibited[0, 0], &halved[0, 0]
    f.dist_enemy, f.enemy_occ, f.base_att = &dist_enemy[0], &enemy_occ[0], &base_att[0]
    f.tgt_def, f.tgt_ev, f.ev_cols = &tgt_def[0], &tgt_ev[0, 0], tgt_ev.shape[1]
    with nogil:
        for i in range(n):
            if dist_enemy[cv[i]] == 1:
                out[i] = gain_one(&f, cv[i], &d_here[0], a_u, att_u, abp, k, n_cols)
    return out_arr


cdef double gain_one(const CellFacts* f, int64_t c, const int16_t* d_here, double a_u,
                     double att_u, const double* ab, Py_ssize_t k, Py_ssize_t n_cols
                     ) noexcept nogil:
    # one hex of attack_gains (one hex from the enemy): the best gain over its enemy
    # neighbours, the twin's operations in its order
    cdef Py_ssize_t d, k0, k1
    cdef cell_t t
    cdef double a, base, best = 0.0, gain, v0, v1, dfc
    for d in range(6):
        t = f.nb[6 * c + d]
        if t < 0 or not f.enemy_occ[t] or f.prohibited[6 * c + d]:
            continue
        a = a_u / 2 if f.halved[6 * c + d] else a_u
        base = f.base_att[t] - (att_u if d_here[t] == 1 else 0.0)
        if not (base >= 0.0) and base == base:
            base = 0.0
        dfc = f.tgt_def[t]
        k0 = column_float(ab, k, n_cols, base, dfc)
        k1 = column_float(ab, k, n_cols, base + a, dfc)
        v0 = value_at(f.tgt_ev, f.ev_cols, t, k0)
        v1 = value_at(f.tgt_ev, f.ev_cols, t, k1)
        gain = v1 - v0
        if gain > best:
            best = gain
    return best


cdef class CellPricer:
    """The arrays a ``PositionMap`` prices a unit's hexes with, checked and held once:
    ``score_cells``, ``needed_targets`` and ``attack_gains`` of this module with those
    arrays bound, so that each question passes only what changes from unit to unit. The
    side's own arrays are set by ``set_own`` (after each refresh) and its attack strengths
    next to each hex by ``set_attack``; ``tgt_def``, ``tgt_ev`` and ``known`` are read where
    they are, as the caller fills them in. Same arguments and answers as the twin's class."""

    cdef const cell_t[:, ::1] nb
    cdef const flag_t[:, ::1] prohibited, halved
    cdef const double[::1] mult, threat, need, per_step, town, tgt_def
    cdef const double[:, ::1] tgt_ev
    cdef const int32_t[::1] dist_enemy
    cdef const flag_t[::1] supplied, cover, enemy_occ, known
    cdef const double[::1] my_sp, my_def, my_steps, base_att
    cdef bint own_set, attack_set

    def __cinit__(self, const cell_t[:, ::1] nb, const flag_t[:, ::1] prohibited,
                  const flag_t[:, ::1] halved, const double[::1] mult,
                  const double[::1] threat, const double[::1] need, const double[::1] per_step,
                  const int32_t[::1] dist_enemy, const flag_t[::1] supplied,
                  const flag_t[::1] cover, const double[::1] town,
                  const flag_t[::1] enemy_occ, const double[::1] tgt_def,
                  const double[:, ::1] tgt_ev, const flag_t[::1] known):
        cdef Py_ssize_t nc = nb.shape[0]
        check_sides(nb, prohibited, "nb, prohibited and halved")
        check_sides(nb, halved, "nb, prohibited and halved")
        check_per_cell(nc, (mult.shape[0], threat.shape[0], dist_enemy.shape[0],
                            supplied.shape[0], cover.shape[0], town.shape[0],
                            enemy_occ.shape[0], tgt_def.shape[0], tgt_ev.shape[0],
                            known.shape[0]))
        self.nb, self.prohibited, self.halved = nb, prohibited, halved
        self.mult, self.threat, self.need, self.per_step = mult, threat, need, per_step
        self.dist_enemy, self.supplied, self.cover, self.town = dist_enemy, supplied, cover, town
        self.enemy_occ, self.tgt_def, self.tgt_ev, self.known = enemy_occ, tgt_def, tgt_ev, known
        self.own_set = self.attack_set = False

    def set_own(self, const double[::1] my_sp, const double[::1] my_def,
                const double[::1] my_steps):
        """The side's stacking points, defence strengths and steps in each hex."""
        check_per_cell(self.nb.shape[0], (my_sp.shape[0], my_def.shape[0], my_steps.shape[0]))
        self.my_sp, self.my_def, self.my_steps = my_sp, my_def, my_steps
        self.own_set = True

    def set_attack(self, const double[::1] base_att):
        """The side's attack strength next to each hex."""
        check_per_cell(self.nb.shape[0], (base_att.shape[0],))
        self.base_att = base_att
        self.attack_set = True

    def score_cells(self, cells, Py_ssize_t here, double sp, double limit, double steps,
                    double dfn, const int8_t[::1] hex_last, int side, double hold,
                    double supply_pen, double command_pen, double town_w, extra=None,
                    gain=None, double attack_w=0.0, double pull_c=0.0, bint use_pull=False):
        """``score_cells`` with the bound arrays."""
        if not self.own_set:
            raise RuntimeError("set_own must come before score_cells")
        return _score_cells(cells, here, sp, limit, steps, dfn, self.my_sp, self.my_def,
                            self.my_steps, self.mult, self.threat, self.need, self.per_step,
                            self.dist_enemy, self.supplied, self.cover, hex_last, side,
                            self.town, hold, supply_pen, command_pen, town_w, extra, gain,
                            attack_w, pull_c, use_pull)

    def needed_targets(self, cells):
        """``needed_targets`` with the bound arrays."""
        return _needed_targets(cells, self.dist_enemy, self.nb, self.enemy_occ,
                               self.prohibited, self.known)

    def attack_gains(self, cells, const int16_t[::1] d_here, double a_u, double att_u,
                     const double[:, ::1] ab, Py_ssize_t n_cols):
        """``attack_gains`` with the bound arrays."""
        if not self.attack_set:
            raise RuntimeError("set_attack must come before attack_gains")
        return _attack_gains(cells, d_here, a_u, att_u, self.dist_enemy, self.nb,
                             self.enemy_occ, self.prohibited, self.halved, self.base_att,
                             self.tgt_def, self.tgt_ev, ab, n_cols)


cdef void sum_halves(const int64_t[::1] av, const int64_t[::1] tv,
                     const cell_t[::1] unit_cell, const int64_t[::1] unit_att,
                     const flag_t[::1] is_cav, const cell_t[:, ::1] nb,
                     const flag_t[:, ::1] halved, const flag_t* near, int64_t multiplier,
                     int64_t* cav, int64_t* other) noexcept nogil:
    # the strength sums: each attacker's strength doubled, halved across a halved hexside
    # into any of the cells (the first direction holding it), times multiplier near the depot
    cdef Py_ssize_t i, j, d
    cdef int64_t a, x
    cdef cell_t here
    cdef bint cut
    cav[0] = 0
    other[0] = 0
    for i in range(av.shape[0]):
        x = av[i]
        here = unit_cell[x]
        a = 2 * unit_att[x]
        cut = False
        for j in range(tv.shape[0]):
            for d in range(6):
                if nb[here, d] == tv[j]:              # the first direction holding it
                    if halved[here, d]:
                        cut = True
                    break
        if cut:
            a = a // 2
        if near != NULL and near[here]:
            a = a * multiplier
        if is_cav[x]:
            cav[0] += a
        else:
            other[0] += a


cdef void count_crossings(const int64_t[::1] av, const int64_t[::1] tv,
                          const cell_t[::1] unit_cell, const cell_t[:, ::1] nb,
                          const flag_t[:, ::1] mask, Py_ssize_t* pairs,
                          Py_ssize_t* marked) noexcept nogil:
    # over every attacker and every one of the cells next to it: the pairs, and those
    # across a hexside in mask
    cdef Py_ssize_t i, j, d
    cdef cell_t here
    pairs[0] = 0
    marked[0] = 0
    for i in range(av.shape[0]):
        here = unit_cell[av[i]]
        for j in range(tv.shape[0]):
            for d in range(6):
                if nb[here, d] == tv[j]:              # the first direction holding it
                    pairs[0] += 1
                    if mask[here, d]:
                        marked[0] += 1
                    break


cdef inline int64_t floor_div(int64_t a, int64_t b) noexcept nogil:
    # Python's a // b for b > 0 (the module divides the C way)
    cdef int64_t q = a // b
    if (a % b != 0) and (a < 0):
        q -= 1
    return q


cdef Py_ssize_t odds_index(int64_t attack2, int64_t defense,
                           const int32_t[:, ::1] ratios) noexcept nogil:
    # the last column of ratios that attack2 / 2 against defense reaches (-1: none)
    cdef Py_ssize_t i, col = -1, k = ratios.shape[0]
    if defense <= 0:
        return k - 1
    for i in range(k):
        if attack2 * ratios[i, 1] >= 2 * defense * ratios[i, 0]:
            col = i
    return col


cdef class AttackJudge:
    """An attack's CRT column before shifts and its die modifier in one call, with one
    position's arrays for one attacking side checked and bound once (see the twin)."""

    cdef const cell_t[:, ::1] nb
    cdef const cell_t[::1] unit_cell
    cdef const int64_t[::1] unit_att
    cdef const flag_t[::1] is_cav
    cdef const flag_t[:, ::1] halved
    cdef const flag_t[::1] cav_full
    cdef const flag_t[:, :, ::1] die_masks
    cdef const int64_t[::1] die_adds
    cdef const flag_t[::1] die_all

    def __cinit__(self, const cell_t[:, ::1] nb, const cell_t[::1] unit_cell,
                  const int64_t[::1] unit_att, const flag_t[::1] is_cav,
                  const flag_t[:, ::1] halved, const flag_t[::1] cav_full,
                  const flag_t[:, :, ::1] die_masks, const int64_t[::1] die_adds,
                  const flag_t[::1] die_all):
        check_sides(nb, halved, "nb and halved")
        check_per_cell(nb.shape[0], (cav_full.shape[0],))
        if unit_att.shape[0] != unit_cell.shape[0] or is_cav.shape[0] != unit_cell.shape[0]:
            raise ValueError("the per-unit arrays must all have one entry per unit")
        if (die_masks.shape[1] != nb.shape[0] or die_masks.shape[2] != 6
                or die_adds.shape[0] != die_masks.shape[0]
                or die_all.shape[0] != die_masks.shape[0]):
            raise ValueError("die_masks must be [k, n_cells, 6] with k adds and k flags")
        self.nb, self.unit_cell, self.unit_att, self.is_cav = nb, unit_cell, unit_att, is_cav
        self.halved, self.cav_full = halved, cav_full
        self.die_masks, self.die_adds, self.die_all = die_masks, die_adds, die_all

    def judge(self, attackers, cells, int64_t defense, const int32_t[:, ::1] ratios,
              near=None, int64_t multiplier=1):
        """``(column, modifier, attack2)`` of ``attackers`` attacking ``cells`` (see the
        twin)."""
        cdef const int64_t[::1] av = np.ascontiguousarray(attackers, dtype=np.int64)
        cdef const int64_t[::1] tv = np.ascontiguousarray(cells, dtype=np.int64)
        cdef Py_ssize_t nt = tv.shape[0], nc = self.nb.shape[0]
        cdef Py_ssize_t nk = self.die_masks.shape[0], j, k, col
        cdef const flag_t[::1] nr
        cdef bint has_near = near is not None
        if ratios.shape[1] != 2:
            raise ValueError("ratios must be [k, 2]")
        if has_near:
            nr = np.ascontiguousarray(near, dtype=np.uint8)
            if nr.shape[0] != nc:
                raise ValueError("near must have one entry per cell")
        check_units(av, self.unit_cell, nc)
        for j in range(nt):
            if tv[j] < 0 or tv[j] >= nc:
                raise IndexError(f"cell {tv[j]} is not on the map")
        cdef int64_t cav = 0, other = 0, attack2, mod = 0
        cdef Py_ssize_t pairs = 0, marked = 0
        cdef bint full = True
        cdef const flag_t* near_p = &nr[0] if has_near and nc > 0 else NULL
        with nogil:
            sum_halves(av, tv, self.unit_cell, self.unit_att, self.is_cav, self.nb,
                       self.halved, near_p, multiplier, &cav, &other)
            for j in range(nt):                       # 12.21: a quarter off full hexes
                if not self.cav_full[tv[j]]:
                    full = False
            if cav != 0 and not full:
                cav = 2 * floor_div(cav, 8)
            attack2 = cav + other
            col = odds_index(attack2, defense, ratios)
            for k in range(nk):                       # the die modifiers of 5.4
                count_crossings(av, tv, self.unit_cell, self.nb, self.die_masks[k], &pairs,
                                &marked)
                if self.die_all[k]:
                    if pairs != 0 and marked == pairs:
                        mod += self.die_adds[k]
                elif marked != 0:
                    mod += self.die_adds[k]
        return col, mod, attack2


def retreat_ways(Py_ssize_t origin, const cell_t[:, ::1] nb, const flag_t[:, ::1] passable,
                 const flag_t[::1] blocks, const flag_t[::1] open_zoc, bint through_zoc,
                 const int16_t[::1] d_origin):
    """``(one, two)``: whether a stack in ``origin`` has a retreat of one / of two hexes:
    each hex one further from ``origin`` (``d_origin``: hex distances from it), each step
    ``passable``, never into ``blocks`` nor, unless ``through_zoc``, into ``open_zoc``
    (``scoring.retreat_exists`` for both lengths)."""
    cdef Py_ssize_t nc = nb.shape[0]
    check_sides(nb, passable, "nb and passable")
    check_per_cell(nc, (blocks.shape[0], open_zoc.shape[0], d_origin.shape[0]))
    if origin < 0 or origin >= nc:
        raise IndexError(f"cell {origin} is not on the map")
    cdef bint one = False, two = False
    with nogil:
        retreat_ways_run(origin, &nb[0, 0], &passable[0, 0], &blocks[0], &open_zoc[0],
                         through_zoc, &d_origin[0], &one, &two)
    return bool(one), bool(two)


cdef void retreat_ways_run(Py_ssize_t origin, const cell_t* nb, const flag_t* passable,
                           const flag_t* blocks, const flag_t* open_zoc, bint through_zoc,
                           const int16_t* d_origin, bint* one, bint* two) noexcept nogil:
    # retreat_ways on checked arguments (nb and passable [n_cells, 6])
    cdef Py_ssize_t d, e
    cdef cell_t w, x
    one[0] = False
    two[0] = False
    for d in range(6):
        w = nb[6 * origin + d]
        if not passable[6 * origin + d] or w < 0:
            continue
        if blocks[w] or (not through_zoc and open_zoc[w]):
            continue
        one[0] = True
        for e in range(6):
            x = nb[6 * <Py_ssize_t>w + e]
            if not passable[6 * <Py_ssize_t>w + e] or x < 0:
                continue
            if blocks[x] or (not through_zoc and open_zoc[x]):
                continue
            if d_origin[x] == 2:
                two[0] = True
                break
        if two[0]:
            break


def surrounded_map(const cell_t[:, ::1] nb, const flag_t[:, ::1] passable,
                   const flag_t[::1] free, const flag_t[::1] target, const flag_t[::1] own,
                   int limit):
    """``bool[n_cells]``: hexes from which no line of at most ``limit + 1`` hexes leads to a
    ``target`` hex (25.13): a breadth-first search from every ``free`` target hex over
    ``passable`` steps into ``free`` hexes, at most ``limit`` steps; a hex is not surrounded
    when a passable step leads from it into a free hex the search reached, or when it is
    ``own`` (``scoring.surrounded_cells`` after its masks)."""
    cdef Py_ssize_t n = nb.shape[0]
    check_sides(nb, passable, "nb and passable")
    check_per_cell(n, (free.shape[0], target.shape[0], own.shape[0]))
    out_arr = np.empty(n, dtype=bool)
    dist_arr = np.empty(n, dtype=np.int32)
    queue_arr = np.empty(n, dtype=np.int32)
    if n == 0:
        return out_arr
    cdef uint8_t[::1] out = out_arr.view(np.uint8)
    cdef int32_t[::1] dist = dist_arr
    cdef int32_t[::1] queue = queue_arr
    with nogil:
        surrounded_run(n, &nb[0, 0], &passable[0, 0], &free[0], &target[0], &own[0], limit,
                       &dist[0], &queue[0], &out[0])
    return out_arr


cdef void surrounded_run(Py_ssize_t n, const cell_t* nb, const flag_t* passable,
                         const flag_t* free, const flag_t* target, const flag_t* own,
                         int limit, int32_t* dist, int32_t* queue,
                         uint8_t* out) noexcept nogil:
    # surrounded_map on checked arguments (nb and passable [n, 6]; dist and queue scratch of
    # n each)
    cdef Py_ssize_t i, d, head = 0, tail = 0
    cdef cell_t c, w
    cdef bint near
    for i in range(n):
        dist[i] = -1
    for i in range(n):
        if target[i] and free[i]:
            dist[i] = 0
            queue[tail] = <int32_t>i
            tail += 1
    if tail == 0:
        for i in range(n):
            out[i] = 0 if own[i] else 1
        return
    while head < tail:
        c = queue[head]
        head += 1
        if dist[c] >= limit:
            continue
        for d in range(6):
            w = nb[6 * <Py_ssize_t>c + d]
            if w >= 0 and passable[6 * <Py_ssize_t>c + d] and free[w] and dist[w] < 0:
                dist[w] = dist[c] + 1
                queue[tail] = w
                tail += 1
    for i in range(n):
        near = False
        for d in range(6):
            w = nb[6 * i + d]
            if w >= 0 and passable[6 * i + d] and free[w] and dist[w] >= 0:
                near = True
                break
        out[i] = 0 if (near or own[i]) else 1


def kb_unit_values(cells, Py_ssize_t here, double sp, double limit, const double[::1] my_sp,
                   bint allied, const double[::1] dist_west, const flag_t[::1] path_gain,
                   const flag_t[::1] trench, const flag_t[::1] west_town,
                   const double[::1] risk, const double[::1] screen_gain,
                   const int32_t[::1] adj_enemy, const flag_t[::1] exempt,
                   const double[::1] supply_pen, const flag_t[::1] gas, double progress,
                   double town_w, double trench_hold, double town_hold, double exposure,
                   double screen, bint screen_on, double contact, bint contact_on, ok_cells,
                   double supply, double gas_cost, bint gas_on, base=None):
    """``float64[len(cells)]``: the value of a Kaiser's Battle unit ending its move in each
    of ``cells`` (see the twin's docstring)."""
    check_per_cell(my_sp.shape[0], (dist_west.shape[0], path_gain.shape[0], trench.shape[0],
                                    west_town.shape[0], risk.shape[0], screen_gain.shape[0],
                                    adj_enemy.shape[0], exempt.shape[0], supply_pen.shape[0],
                                    gas.shape[0]))
    return _kb_unit_values(cells, here, sp, limit, my_sp, allied, dist_west, path_gain, trench,
                           west_town, risk, screen_gain, adj_enemy, exempt, supply_pen, gas,
                           progress, town_w, trench_hold, town_hold, exposure, screen,
                           screen_on, contact, contact_on, ok_cells, supply, gas_cost, gas_on,
                           base)


cdef object _kb_unit_values(cells, Py_ssize_t here, double sp, double limit,
                            const double[::1] my_sp, bint allied, const double[::1] dist_west,
                            const flag_t[::1] path_gain, const flag_t[::1] trench,
                            const flag_t[::1] west_town, const double[::1] risk,
                            const double[::1] screen_gain, const int32_t[::1] adj_enemy,
                            const flag_t[::1] exempt, const double[::1] supply_pen,
                            const flag_t[::1] gas, double progress, double town_w,
                            double trench_hold, double town_hold, double exposure,
                            double screen, bint screen_on, double contact, bint contact_on,
                            ok_cells, double supply, double gas_cost, bint gas_on, base,
                            bint with_here=False):
    # the per-cell arrays are checked by the callers (one size); ``with_here``: one more
    # value at the end, for the unit's own hex
    cdef const int64_t[::1] cv = np.ascontiguousarray(cells, dtype=np.int64)
    cdef const int64_t[::1] okv
    cdef Py_ssize_t n_cells = cv.shape[0], nc = my_sp.shape[0], i, j, n_ok = 0
    cdef Py_ssize_t n = n_cells + (1 if with_here else 0)
    cdef const double[::1] bv
    cdef bint has_base = base is not None, forced
    if contact_on and len(ok_cells):
        okv = np.ascontiguousarray(ok_cells, dtype=np.int64)
        n_ok = okv.shape[0]
    if has_base:
        bv = per_asked(base, n, "base")
    check_cells(cv, nc)
    if with_here and (here < 0 or here >= nc):
        raise IndexError(f"cell {here} is not on the map")
    out_arr = np.empty(n, dtype=np.float64)
    cdef double[::1] out = out_arr
    cdef int64_t c
    cdef double v, safe
    with nogil:
        for i in range(n):
            c = cv[i] if i < n_cells else here
            # the operations of the twin's numpy expressions, one by one and in their order
            if has_base:
                v = bv[i]
            elif allied:
                safe = 1.0 - risk[c]
                v = trench_hold * (1.0 if trench[c] else 0.0) * safe
                v = v + town_hold * (1.0 if west_town[c] else 0.0) * safe
                v = v + town_w * (1.0 if path_gain[c] else 0.0) * (0.0 if c == here else 1.0)
                v = v - exposure * risk[c]
                if screen_on:
                    v = v + screen * screen_gain[c] * (1.0 if adj_enemy[c] == 0 else 0.0)
            else:
                v = -progress * dist_west[c]
                v = v + town_w * (1.0 if path_gain[c] else 0.0)
            if contact_on:
                forced = adj_enemy[c] > 0 and not exempt[c]
                if forced:      # (then the twin's ``forced.any()`` holds too)
                    for j in range(n_ok):
                        if okv[j] == c:
                            forced = False
                            break
                v = v - contact * (1.0 if forced else 0.0)
            v = v - supply * supply_pen[c]
            if gas_on:
                v = v - (1.0 if gas[c] else 0.0) * gas_cost
            out[i] = v if my_sp[c] - (sp if c == here else 0.0) + sp <= limit else NEG
    return out_arr


cdef class KbPricer:
    """The maps a Kaiser's Battle ``Board`` prices a unit's hexes with, checked and held
    once: ``values`` is ``kb_unit_values`` with them bound, so that each question passes only
    what changes from unit to unit. The fixed maps (one Movement Segment's) come with the
    pricer; the side's own Stacking Points, towns to take and screen by ``set_own`` (after
    each refresh). Same arguments and answers as the twin's class."""

    cdef const double[::1] dist_west, risk, supply_pen, my_sp, screen_gain
    cdef const flag_t[::1] trench, west_town, exempt, gas, path_gain
    cdef const int32_t[::1] adj_enemy
    cdef bint own_set

    def __cinit__(self, const double[::1] dist_west, const flag_t[::1] trench,
                  const flag_t[::1] west_town, const double[::1] risk,
                  const int32_t[::1] adj_enemy, const flag_t[::1] exempt,
                  const double[::1] supply_pen, const flag_t[::1] gas):
        check_per_cell(dist_west.shape[0], (trench.shape[0], west_town.shape[0],
                                            risk.shape[0], adj_enemy.shape[0],
                                            exempt.shape[0], supply_pen.shape[0],
                                            gas.shape[0]))
        self.dist_west, self.trench, self.west_town, self.risk = dist_west, trench, west_town, risk
        self.adj_enemy, self.exempt, self.supply_pen, self.gas = adj_enemy, exempt, supply_pen, gas
        self.own_set = False

    def set_own(self, const double[::1] my_sp, const flag_t[::1] path_gain,
                const double[::1] screen_gain):
        """The side's Stacking Points, towns a path takes and screen in each hex."""
        check_per_cell(self.dist_west.shape[0], (my_sp.shape[0], path_gain.shape[0],
                                                 screen_gain.shape[0]))
        self.my_sp, self.path_gain, self.screen_gain = my_sp, path_gain, screen_gain
        self.own_set = True

    def values(self, cells, Py_ssize_t here, double sp, double limit, bint allied,
               double progress, double town_w, double trench_hold, double town_hold,
               double exposure, double screen, bint screen_on, double contact,
               bint contact_on, ok_cells, double supply, double gas_cost, bint gas_on,
               base=None, bint with_here=False):
        """``kb_unit_values`` with the bound maps; ``with_here``: of ``cells`` and then of
        ``here`` (one value more, at the end; ``base`` then has one more too)."""
        if not self.own_set:
            raise RuntimeError("set_own must come before values")
        return _kb_unit_values(cells, here, sp, limit, self.my_sp, allied, self.dist_west,
                               self.path_gain, self.trench, self.west_town, self.risk,
                               self.screen_gain, self.adj_enemy, self.exempt,
                               self.supply_pen, self.gas, progress, town_w, trench_hold,
                               town_hold, exposure, screen, screen_on, contact, contact_on,
                               ok_cells, supply, gas_cost, gas_on, base, with_here)

    def may_gain(self, const int16_t[::1] d_here, int reach, Py_ssize_t here, double sp,
                 double limit, bint allied, double progress, double town_w,
                 double trench_hold, double town_hold, double exposure, double screen,
                 bint screen_on, double contact, bint contact_on, ok_cells, double supply,
                 double gas_cost, double bonus_w, double min_gain):
        """Whether some hex within ``reach`` hexes of ``here`` (``d_here``: the distances
        from it) is worth more than ``here`` by over ``min_gain``, with ``bonus_w`` per
        town to take among them (``passive._may_gain`` on ``Board.values_with_stay``):
        ``values`` of those hexes and of ``here``, their best plus the bonus against the
        last; gas priced (``gas_cost``) when one of the hexes is in a gas zone, for
        ``here`` only when it is in one too."""
        if not self.own_set:
            raise RuntimeError("set_own must come before may_gain")
        cdef Py_ssize_t nc = self.dist_west.shape[0], i, n = 0, towns = 0
        cdef bint gas_on = False
        if d_here.shape[0] != nc:
            raise ValueError("d_here must have one entry per cell")
        if here < 0 or here >= nc:
            raise IndexError(f"cell {here} is not on the map")
        cells_arr = np.empty(nc, dtype=np.int64)
        cdef int64_t[::1] cells = cells_arr
        # the hexes in ascending order, as ``np.flatnonzero`` lists them
        for i in range(nc):
            if d_here[i] <= reach:
                cells[n] = i
                n += 1
                if self.path_gain[i]:
                    towns += 1
                if self.gas[i]:
                    gas_on = True
        if n == 0:
            raise ValueError("no hex within reach")
        # ``values_with_stay``: one call with ``here`` at the end unless the two would not
        # price gas alike
        cdef bint apart = gas_on and not self.gas[here]
        v_arr = _kb_unit_values(cells_arr[:n], here, sp, limit, self.my_sp, allied,
                                self.dist_west, self.path_gain, self.trench, self.west_town,
                                self.risk, self.screen_gain, self.adj_enemy, self.exempt,
                                self.supply_pen, self.gas, progress, town_w, trench_hold,
                                town_hold, exposure, screen, screen_on, contact, contact_on,
                                ok_cells, supply, gas_cost, gas_on, None, not apart)
        cdef const double[::1] v = v_arr
        cdef double best = v[0], stay
        for i in range(1, n):
            if v[i] > best:
                best = v[i]
        if apart:
            cells[0] = here
            stay_arr = _kb_unit_values(cells_arr[:1], here, sp, limit, self.my_sp, allied,
                                       self.dist_west, self.path_gain, self.trench,
                                       self.west_town, self.risk, self.screen_gain,
                                       self.adj_enemy, self.exempt, self.supply_pen,
                                       self.gas, progress, town_w, trench_hold, town_hold,
                                       exposure, screen, screen_on, contact, contact_on,
                                       ok_cells, supply, gas_cost, False, None, False)
            stay = stay_arr[0]
        else:
            stay = v[n]
        # ``float(v.max()) + bonus > stay + float(min_gain)``, bonus ``bonus_w * towns``
        return best + bonus_w * <double>towns > stay + min_gain


# --- The Kaiser's Battle: an attack's exact expectation (policies.kb.scoring) ---------------

cdef bint kb_expect(int64_t att_str, int64_t att_mod, int64_t def_str, int64_t def_mod,
                    int64_t morale, Py_ssize_t n_def, const double* full, double clear_value,
                    double fail, double fail_steps, double elim, int64_t elim_steps,
                    KbExpect* out) noexcept nogil:
    # scoring.odds (combat.odds_counts over the 36 pairs of dice), scoring._success and the
    # score of scoring.expected_attack, given the attackers' costs: ``fail`` and
    # ``fail_steps`` if unsuccessful (8.74), ``elim`` and ``elim_steps`` if eliminated
    # (8.71); ``full`` the defenders' cheapest cumulative costs, n_def + 1 of them. False
    # when a die's denominator is not positive (combat.quotient raises: the caller leaves
    # that attack to the reference).
    cdef int64_t ks[36]
    cdef int64_t a, d, top, den, q, k, j
    cdef int n_succ = 0, n_elim = 0, n_fail = 0, i, t, cnt
    for a in range(1, 7):
        top = (a + att_mod) * att_str
        for d in range(1, 7):
            den = (d + def_mod) * def_str
            if den <= 0:
                return False
            q = floor_div(top, den)
            if q < 1:                                   # 8.71
                n_elim += 1
            elif q <= morale:                           # 8.72-8.74
                n_fail += 1
            else:                                       # 8.75: kept ascending
                t = n_succ
                while t > 0 and ks[t - 1] > q - morale:
                    ks[t] = ks[t - 1]
                    t -= 1
                ks[t] = q - morale
                n_succ += 1
    # _success: each distinct number of steps once, ascending, with its chance
    cdef double gain = 0.0, dsteps = 0.0, p_clear = 0.0, p
    i = 0
    while i < n_succ:
        k = ks[i]
        cnt = 1
        while i + cnt < n_succ and ks[i + cnt] == k:
            cnt += 1
        p = cnt / 36.0
        j = k if k < n_def else n_def
        gain += p * full[j]
        dsteps += p * <double>j
        if j >= n_def:
            p_clear += p
            gain += p * clear_value
        i += cnt
    cdef double p_elim = n_elim / 36.0, p_fail = n_fail / 36.0
    out.score = gain - p_fail * fail - p_elim * elim
    out.p_eliminated = p_elim
    out.p_unsuccessful = p_fail
    out.p_success = 1.0 - p_elim - p_fail
    out.defender_steps = dsteps
    out.attacker_steps = p_fail * fail_steps + p_elim * <double>elim_steps
    out.p_cleared = p_clear
    return True


cdef double kb_cheapest(const double* costs, const Py_ssize_t* start, const Py_ssize_t* length,
                        const Py_ssize_t* members, Py_ssize_t n, Py_ssize_t k,
                        Py_ssize_t* heads, Py_ssize_t* taken) noexcept nogil:
    # scoring.cheapest(...)[-1] of the units ``members`` (their cost lists at ``start``,
    # ``length`` in ``costs``): k times the unit whose next step costs least, the first on a
    # tie; ``taken`` the steps it found (fewer than k when the units run out)
    cdef Py_ssize_t step, i, j, u
    cdef double total = 0.0, best = 0.0
    for i in range(n):
        heads[i] = 0
    taken[0] = 0
    for step in range(k):
        j = -1
        for i in range(n):
            u = members[i]
            if heads[i] < length[u] and (j < 0 or costs[start[u] + heads[i]] < best):
                best = costs[start[u] + heads[i]]
                j = i
        if j < 0:
            break
        heads[j] += 1
        total += best
        taken[0] += 1
    return total


def kb_attack_values(list rows, cells, const cell_t[:, ::1] nb,
                     const int16_t[:, ::1] side_mod, const int16_t[::1] die_mod, bint allied,
                     double w_trench, supply_mods, int64_t att_mod, int64_t dfn_extra,
                     int64_t two_corps, int64_t def_str, int64_t morale, list full,
                     double clear_value, bint every):
    """``scoring.expected_attack`` of the attackers of ``rows`` on ``cells`` (``every``
    false: a list of one) or ``scoring.expected_prefixes`` (``every``: of the first one,
    the first two ...), each as a tuple of the ``Expected`` fields; None when a die's
    denominator is not positive (the reference raises). ``rows``: per attacker, in order,
    ``(combat, supply state, corps, hex, step costs, cost if eliminated whole, steps left,
    steps lost unsuccessful (1, or 2 with no retreat), in a trench hex)``
    (``Snap.attack_row``); ``supply_mods[s]`` the defender's die modifier of the worst state
    ``s`` (14.22); ``att_mod`` the attacker's die modifier (fog, Rolling Barrage), and
    ``dfn_extra`` the SOS part of the defender's (``Snap.die_modifiers``); ``def_str``
    positive; ``full`` the defenders' cheapest cumulative step costs (``Snap.defender_steps``,
    ``len(full) - 1`` steps in all)."""
    cdef Py_ssize_t n = len(rows), nc = len(cells), n_def = len(full) - 1
    cdef Py_ssize_t i, s, c, d, m, n_st = 0, n_costs = 0, n_mem
    if n == 0:
        return []
    if n_def < 0:
        raise ValueError("full must hold at least the cost of no step")
    cdef list costs_of = [None] * n
    for i in range(n):
        costs_of[i] = <list>(rows[i][4])
        n_costs += len(<list>costs_of[i])
    # one block: the attackers' values, then the stacks', then the costs
    cdef int64_t* ints = <int64_t*>PyMem_Malloc((7 * n + nc) * sizeof(int64_t))
    cdef Py_ssize_t* idx = <Py_ssize_t*>PyMem_Malloc((8 * n) * sizeof(Py_ssize_t))
    cdef double* dbl = <double*>PyMem_Malloc((4 * n + n_costs + n_def + 1) * sizeof(double))
    if ints == NULL or idx == NULL or dbl == NULL:
        PyMem_Free(ints)
        PyMem_Free(idx)
        PyMem_Free(dbl)
        raise MemoryError()
    cdef int64_t* strength = ints
    cdef int64_t* state = ints + n
    cdef int64_t* corps = ints + 2 * n
    cdef int64_t* here = ints + 3 * n
    cdef int64_t* left = ints + 4 * n
    cdef int64_t* retreat = ints + 5 * n
    cdef int64_t* in_trench = ints + 6 * n
    cdef int64_t* dcell = ints + 7 * n
    cdef Py_ssize_t* start = idx
    cdef Py_ssize_t* length = idx + n
    cdef Py_ssize_t* members = idx + 2 * n          # of one stack, in the attackers' order
    cdef Py_ssize_t* heads = idx + 3 * n
    cdef Py_ssize_t* stack_of = idx + 4 * n
    cdef Py_ssize_t* stack_cell = idx + 5 * n
    cdef Py_ssize_t* stack_steps = idx + 6 * n
    cdef Py_ssize_t* has_extra = idx + 7 * n        # an Allied stack leaving a trench hex
    cdef double* whole = dbl
    cdef double* stack_cost = dbl + n
    cdef double* stack_extra = dbl + 2 * n
    cdef double* costs = dbl + 4 * n
    cdef double* fullp = dbl + 4 * n + n_costs
    cdef bint mixed = False
    cdef int64_t att_str = 0, worst = 0, hex_mod = 0, across = 0, elim_steps = 0
    cdef int64_t mods[4]
    cdef double elim = 0.0, fail, fail_steps
    cdef Py_ssize_t taken
    cdef KbExpect e
    cdef list out = []
    cdef tuple row
    try:
        n_costs = 0
        for i in range(n):
            row = <tuple>rows[i]
            strength[i], state[i], corps[i], here[i] = row[0], row[1], row[2], row[3]
            whole[i], left[i], retreat[i], in_trench[i] = row[5], row[6], row[7], row[8]
            if state[i] < 0 or state[i] > 3:
                raise ValueError(f"supply state {state[i]} out of range")
            if here[i] < 0 or here[i] >= nb.shape[0]:
                raise IndexError(f"attacker hex {here[i]} is not on the map")
            start[i] = n_costs
            length[i] = len(<list>costs_of[i])
            for m in range(length[i]):
                costs[n_costs] = (<list>costs_of[i])[m]
                n_costs += 1
        for s in range(4):
            mods[s] = supply_mods[s]
        for i in range(n_def + 1):
            fullp[i] = full[i]
        for c in range(nc):
            dcell[c] = cells[c]
            if dcell[c] < 0 or dcell[c] >= nb.shape[0]:
                raise IndexError(f"defending hex {dcell[c]} is not on the map")
            # combat.terrain_modifier: the best hex among the defending hexes
            if c == 0 or die_mod[dcell[c]] > hex_mod:
                hex_mod = die_mod[dcell[c]]
        for i in range(n):
            att_str += strength[i]
            if state[i] > worst:
                worst = state[i]
            if corps[i] != corps[0]:
                mixed = True
            s = 0
            while s < n_st and stack_cell[s] != here[i]:
                s += 1
            if s == n_st:
                # a new attacking hex: the least hexside modifier across which it attacks
                # each defending hex (combat.terrain_modifier, "solely across", 5.32)
                for c in range(nc):
                    m = 0
                    for d in range(6):
                        if nb[dcell[c], d] == here[i]:
                            m = side_mod[dcell[c], d]
                            break
                    if (s == 0 and c == 0) or m < across:
                        across = m
                stack_cell[s] = here[i]
                n_st += 1
            stack_of[i] = s
            # the stack's unsuccessful cost (8.74) with this unit in it
            n_mem = 0
            for m in range(i + 1):
                if stack_of[m] == s:
                    members[n_mem] = m
                    n_mem += 1
            stack_cost[s] = kb_cheapest(costs, start, length, members, n_mem, retreat[i],
                                        heads, &taken)
            stack_steps[s] = taken
            has_extra[s] = retreat[i] == 1 and allied and in_trench[i] != 0
            if has_extra[s]:
                stack_extra[s] = w_trench * <double>n_mem
            elim = elim + whole[i]
            elim_steps += left[i]
            if not every and i < n - 1:
                continue
            fail = 0.0
            fail_steps = 0.0
            for s in range(n_st):
                fail += stack_cost[s]
                fail_steps += <double>stack_steps[s]
                if has_extra[s]:
                    fail += stack_extra[s]
            # Snap.die_modifiers
            if not kb_expect(att_str, att_mod, def_str,
                             mods[worst] + dfn_extra + (two_corps if mixed else 0)
                             + hex_mod + across, morale, n_def, fullp, clear_value, fail,
                             fail_steps, elim, elim_steps, &e):
                return None
            out.append((e.score, e.p_eliminated, e.p_unsuccessful, e.p_success,
                        e.defender_steps, e.attacker_steps, e.p_cleared))
        return out
    finally:
        PyMem_Free(ints)
        PyMem_Free(idx)
        PyMem_Free(dbl)


def kb_side_maps(const cell_t[::1] unit_cell, const uint16_t[::1] unit_status, int on_map,
                 const int8_t[::1] unit_side, int side, const uint16_t[::1] flags,
                 int service, const int8_t[::1] stacking, const flag_t[::1] is_hq,
                 const cell_t[:, ::1] nb, const flag_t[::1] band, const flag_t[::1] west_town,
                 const int8_t[::1] hex_last, int central, bint allied, bint screen=True):
    """``(my_sp, my_combat_sp, path_gain, screen_gain)`` of ``side`` (see the twin's
    docstring). Every sum is of small whole numbers, exact in any order."""
    cdef Py_ssize_t n = nb.shape[0], n_units = unit_cell.shape[0], i, d
    if nb.shape[1] != 6:
        raise ValueError("nb must be [n_cells, 6]")
    check_per_cell(n, (band.shape[0], west_town.shape[0], hex_last.shape[0]))
    for size in (unit_status.shape[0], unit_side.shape[0], flags.shape[0], stacking.shape[0],
                 is_hq.shape[0]):
        if size != n_units:
            raise ValueError("the per-unit arrays must all have one entry per unit")
    sp_arr = np.zeros(n, dtype=np.float64)
    combat_arr = np.zeros(n, dtype=np.float64)
    gain_arr = np.empty(n, dtype=bool)
    cdef double[::1] my_sp = sp_arr, my_combat = combat_arr
    cdef uint8_t[::1] gain = gain_arr.view(np.uint8)
    # the screen's work space (only with ``screen``)
    cdef double[::1] screen_v, unc
    cdef uint8_t[::1] cover
    if screen:
        screen_arr = np.empty(n, dtype=np.float64)
        cover_arr = np.zeros(n, dtype=np.uint8)
        unc_arr = np.empty(n, dtype=np.float64)
        screen_v, cover, unc = screen_arr, cover_arr, unc_arr
    else:
        screen_arr = np.zeros(n, dtype=np.float64)
    cdef cell_t c, w
    cdef double spv, total
    for i in range(n_units):
        if (unit_status[i] & on_map) and unit_side[i] == side:
            c = unit_cell[i]
            if c < 0 or c >= n:
                raise IndexError(f"unit {i} is on the map but not on a cell of it")
    with nogil:
        for i in range(n_units):
            if not (unit_status[i] & on_map) or unit_side[i] != side:
                continue
            c = unit_cell[i]
            if flags[i] & service:
                spv = 1.0
            else:
                spv = <double>stacking[i]
                if screen:
                    cover[c] = 1
                    for d in range(6):
                        w = nb[c, d]
                        if w >= 0:
                            cover[w] = 1
            my_sp[c] += spv
            if not is_hq[i]:
                my_combat[c] += spv
        for c in range(n):
            gain[c] = west_town[c] and ((hex_last[c] == central) == allied)
        if screen:
            for c in range(n):
                unc[c] = 1.0 if band[c] and not cover[c] else 0.0
            for c in range(n):
                total = 0.0
                for d in range(6):
                    w = nb[c, d]
                    total += unc[w] if w >= 0 else 0.0
                screen_v[c] = unc[c] + total
    return sp_arr, combat_arr, gain_arr, screen_arr


def kb_path_gains(const int32_t[::1] dist, const int32_t[::1] pred, const flag_t[::1] gain,
                  Py_ssize_t here, cells):
    """``float64[len(cells)]``: the towns (``gain`` flags) on the way from ``here`` to each of
    ``cells`` along ``pred``, the start and the hex itself left out (see the twin's
    docstring). Each path is walked up to the first hex already summed, then summed back
    down: every reached hex once at most."""
    cdef Py_ssize_t n = dist.shape[0]
    if pred.shape[0] != n or gain.shape[0] != n:
        raise ValueError("dist, pred and gain must have one entry per cell")
    if here < 0 or here >= n:
        raise ValueError(f"cell {here} is off the map")
    cdef const int64_t[::1] cv = np.ascontiguousarray(cells, dtype=np.int64)
    cdef Py_ssize_t k = cv.shape[0], i, c, top, s
    check_cells(cv, n)
    out_arr = np.empty(k, dtype=np.float64)
    cdef double[::1] out = out_arr
    # got[c]: the flags from c (included) back to here (excluded), -1 while not summed
    got_arr = np.full(n, -1, dtype=np.int32)
    walk_arr = np.empty(n, dtype=np.int32)
    cdef int32_t[::1] got = got_arr
    cdef int32_t[::1] walk = walk_arr
    cdef int32_t acc
    for i in range(k):
        c = cv[i]
        if dist[c] < 0 or c == here:
            out[i] = -<double>(gain[c] != 0)
            continue
        top = 0
        s = c
        while s >= 0 and s != here and got[s] < 0:     # up to a hex already summed
            walk[top] = <int32_t>s
            top += 1
            s = pred[s]
            if s >= 0:
                s = s % n
        acc = got[s] if (s >= 0 and s != here) else 0
        while top > 0:                                 # and back down, summing
            top -= 1
            acc += gain[walk[top]] != 0
            got[walk[top]] = acc
        out[i] = <double>(got[c] - (gain[c] != 0))
    return out_arr
