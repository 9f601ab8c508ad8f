# cython: language_level=3
"""Parts of the turn loop, and rules it applies over and over, in compiled code.

* ``draws``: what ``Generator.integers(n)`` gives for each ``n`` in turn (one draw each; none
  for ``n == 1``, as ``PlayedGame.ask`` asks nobody when there is one option);
* ``kb_random_moves``: a Movement Segment of The Kaiser's Battle (5.0) whose player picks at
  random (``RandomPolicy``): the units offered one at a time, each one's moves, the draws of
  the player's generator in the engine's order, and the moves made.
* ``gwe_random_moves``: a Movement Segment of The Great War in the East (5.0) whose player
  picks at random: the units offered one at a time and each one's actions (ordinary moves,
  entraining, rail moves with the track limits of 18.3, detraining), handing back to the
  engine for the units whose move rolls dice (23.52, 24.42) and for 10.52.
* ``AttackPosition``: the declaration of a Great War in the East attack in one position
  (8.1-8.2, 8.8, 12.21, 17.0): the units that may attack some hexes together, whether a
  force reaches its CRT row's lowest odds, the hexes that may be attacked and the options of
  each step of a declaration, for every policy.
* ``gwe_supply``: a Great War in the East side's supply in one position (9.1, 19.1): its rail
  supply sources, its supplied depots, and its units in supply (or the hexes in supply,
  25.12), for every policy.
* ``gwe_command_radii``: the command radii of a Great War in the East side's HQs in one
  position (10.33, 10.34, 21.41), for every policy.
* ``gwe_hex_defenses``: the defenders of every hex of a Great War in the East side in one
  position (5.4, 5.36, 8.14, 8.66, 10.53, 12.15): their summed strengths and which hexes
  may still be attacked, for every policy's declaration.
* ``gwe_random_allocation``: a random player's allocation of units to HQs in a Great War in
  the East Command Control Segment (10.31), drawn as ``RandomPolicy`` would.
* ``gwe_withdrawals``: the cavalry withdrawals before combat of some Great War in the East
  units in one position (12.11, 12.13, 24.41), toward a supply source when any are (8.63
  priority 1).
* ``KbObligations``: the attack obligations of a Kaiser's Battle Combat Phase in one
  position (8.11-8.13, 8.21): the legal targets and each step of a declaration, for every
  policy, and a random player's whole declaration drawn as ``RandomPolicy`` would.

The draws are numpy's own (``random_bounded_uint64`` of its C library, on the generator's
``bitgen_t``), so a game played here and one played by the Python loop read the same numbers
from the same generator. A segment runs without the GIL once its arguments are checked
(holding the generator's lock), so games in other threads go on meanwhile; each thread needs
a workspace of its own (``kernels.workspace``). Same arguments and results as the
pure-Python twin ``gwe_fast._pure.play``.
"""

import numpy as np
cimport numpy as cnp
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort
from libc.string cimport memcmp, memcpy, memset
from numpy.random cimport bitgen_t

from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t
from gwe_fast._core.bitsearch cimport (BITS_MAX_TOKENS, StepBits, StepSets, __builtin_ctzll,
                                       bit_at, bits_cells, bits_fill, bits_levels, bits_mark,
                                       bits_pack, bits_read_by)
from gwe_fast._core.codes cimport (GF_MOVED, GF_RAIL_COUNTED, GF_USED_RAIL, ST_ENTRAINED,
                                   ST_OUT_OF_COMMAND)
from gwe_fast._core.hexdice cimport generator_bitgen as _bitgen, policy_draw
from gwe_fast._core.search cimport SearchWorkspace, _sort_cells, reached_cost

cnp.import_array()

cdef enum:
    _STOPPED = 0
    _EXITING = 1
    _STAY = 0
    _MOVE = 1
    _EXIT = 2
    _LOG_COLUMNS = 7

ALLOCATED, UNALLOCATED, FAR = _ALLOCATED, _UNALLOCATED, _FAR
STOPPED, EXITING = _STOPPED, _EXITING
STAY, MOVE, EXIT = _STAY, _MOVE, _EXIT
LOG_COLUMNS = _LOG_COLUMNS


def draw(rng, Py_ssize_t n):
    """``Generator.integers(n)`` as a Python int (0 without a draw for ``n == 1``): one draw
    of ``draws``, for ``PlayedGame.ask``, without the generator's argument handling."""
    if n < 1:
        raise ValueError(f"cannot draw among {n} options")
    cdef bitgen_t* bg = _bitgen(rng)
    cdef int64_t out
    with rng.bit_generator.lock:
        out = policy_draw(bg, n)
    return out


def draws(rng, ns):
    """``Generator.integers(n)`` for each of ``ns`` in turn (0 without a draw for ``n ==
    1``), as ``int64``: the draw the compiled loops make."""
    cdef int64_t[::1] n_v = np.ascontiguousarray(ns, dtype=np.int64)
    out = np.empty(n_v.shape[0], dtype=np.int64)
    cdef int64_t[::1] o = out
    cdef bitgen_t* bg = _bitgen(rng)
    cdef Py_ssize_t i
    with rng.bit_generator.lock:
        for i in range(n_v.shape[0]):
            if n_v[i] < 1:
                raise ValueError(f"cannot draw among {n_v[i]} options")
            o[i] = policy_draw(bg, n_v[i])
    return out


cdef extern from *:
    int __builtin_popcountll(unsigned long long x) nogil


cdef cell_t _nth_smallest(cell_t* a, Py_ssize_t n, Py_ssize_t k) noexcept nogil:
    # the k-th smallest (from 0) of n distinct cells, as sorting and reading a[k] gives it:
    # the cells as a set of bits, counted a word at a time up to the k-th; or, for cells past
    # the set's reach, by selection (Hoare's partition around the middle element), a reordered
    cdef uint64_t bits[64]
    cdef uint64_t x
    cdef Py_ssize_t lo = 0, hi = n - 1, i, j, w, top = 0
    cdef cell_t pivot, t
    for i in range(n):
        if a[i] > top:
            top = a[i]
    if top < 64 * 64:
        for w in range((top >> 6) + 1):
            bits[w] = 0
        for i in range(n):
            bits[a[i] >> 6] |= (<uint64_t>1) << (a[i] & 63)
        w = 0
        while True:
            j = __builtin_popcountll(bits[w])
            if k < j:
                x = bits[w]
                while k > 0:
                    x &= x - 1
                    k -= 1
                return <cell_t>((w << 6) + __builtin_ctzll(x))
            k -= j
            w += 1
    while lo < hi:
        pivot = a[lo + (hi - lo) // 2]
        i, j = lo, hi
        while i <= j:
            while a[i] < pivot:
                i += 1
            while a[j] > pivot:
                j -= 1
            if i <= j:
                t = a[i]
                a[i] = a[j]
                a[j] = t
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            return a[k]
    return a[k]


def nth_smallest(cell_t[::1] cells, Py_ssize_t k) -> int:
    """The ``k``-th smallest (from 0) of distinct cells, as the random players' draws read
    it (for the tests; ``cells`` is reordered)."""
    if not 0 <= k < cells.shape[0]:
        raise ValueError(f"no {k}-th of {cells.shape[0]} cells")
    for i in range(cells.shape[0]):
        if cells[i] < 0:
            raise ValueError(f"cell {cells[i]} is off the map")
    return int(_nth_smallest(&cells[0], cells.shape[0], k))


# --- what both games' segments share ---------------------------------------------------------

cdef int _one_hex_steps(SearchWorkspace ws, const cell_t* nb, const stepcost_t* tab,
                        Py_ssize_t here, cell_t* ov_cell, dist_t* ov_dist) noexcept nogil:
    # the steps from ``here`` the last search did not reach but a unit may always take (one
    # hex, whatever its allowance: KB 5.15, GWE 5.17), with their costs; returns how many
    cdef int n_ov = 0, d
    cdef cell_t w
    for d in range(6):
        w = nb[6 * here + d]
        if w >= 0 and tab[6 * here + d] >= 0 and reached_cost(&ws.buf, w) < 0:
            ov_cell[n_ov] = w
            ov_dist[n_ov] = tab[6 * here + d]
            n_ov += 1
    return n_ov


cdef Py_ssize_t _destinations(SearchWorkspace ws, Py_ssize_t here, const cell_t* ov_cell,
                              const dist_t* ov_dist, int n_ov, cell_t* moves) noexcept nogil:
    # the hexes the unit may move to (reached at a cost above 0, its own excepted), then the
    # one-hex steps; unordered (the draw picks the k-th in cell order by selection)
    cdef Py_ssize_t n_moves = 0, i, s
    for i in range(ws.buf.n_touched):
        s = ws.buf.touched[i]
        if s != here and reached_cost(&ws.buf, s) > 0:
            moves[n_moves] = <cell_t>s
            n_moves += 1
    for i in range(n_ov):
        if ov_dist[i] > 0:
            moves[n_moves] = ov_cell[i]
            n_moves += 1
    return n_moves


cdef void _mark_path(SearchWorkspace ws, Py_ssize_t here, Py_ssize_t dest,
                     const cell_t* ov_cell, int n_ov, int8_t* hex_last,
                     int side) noexcept nogil:
    # every hex of the path from here (excluded) to dest last held by ``side`` (units.move_unit);
    # a one-hex step comes straight from the start
    cdef Py_ssize_t s = dest, i
    cdef cell_t w
    while s >= 0 and s != here:
        hex_last[s] = <int8_t>side
        w = ws.pred_at(s)
        for i in range(n_ov):
            if ov_cell[i] == s:
                w = <cell_t>here
        s = w


def kb_random_moves(rng, SearchWorkspace ws, const stepcost_t[:, ::1] base,
                    const flag_t[::1] closed, const flag_t[::1] ezoc, bint second,
                    const int32_t[::1] units, const int32_t[::1] allowance,
                    const int8_t[::1] slot, int16_t[::1] quota, uint8_t[::1] done,
                    const int32_t[::1] exits, const int32_t[::1] enter, int side,
                    cell_t[::1] unit_cell, int8_t[::1] hex_last, uint16_t[::1] flags,
                    int moved, int32_t[:, ::1] log):
    """Play a Kaiser's Battle Movement Segment for a player who picks at random, until the
    player stops, no unit is left to move, or a unit is to leave the map.

    The arguments and results are those of the twin (``gwe_fast._pure.play``). The segment's
    step costs are made here from ``base`` and ``closed`` (a private table, changed for a unit
    leaving an enemy zone of control, 5.13). Returns ``(rows logged, STOPPED or
    EXITING)``.
    """
    cdef Py_ssize_t n = ws.n_cells, k = units.shape[0], n_exits = exits.shape[0]
    if (base.shape[0] != n or base.shape[1] != 6 or closed.shape[0] != n
            or ezoc.shape[0] != n or enter.shape[0] != n):
        raise ValueError("base, closed, ezoc and enter must cover the workspace's map")
    if (allowance.shape[0] != k or slot.shape[0] != k or done.shape[0] != k
            or log.shape[0] < k + 1 or log.shape[1] != _LOG_COLUMNS or quota.shape[0] < 4):
        raise ValueError("units, allowance, slot, done and log do not agree")
    if hex_last.shape[0] != n:
        raise ValueError("hex_last must cover the workspace's map")
    cdef Py_ssize_t j
    for j in range(k):
        if (units[j] < 0 or units[j] >= unit_cell.shape[0] or units[j] >= flags.shape[0]
                or slot[j] >= 4 or allowance[j] < 0):
            raise ValueError(f"unit {units[j]} is not a unit on the map")
        if not done[j] and (unit_cell[units[j]] < 0 or unit_cell[units[j]] >= n):
            raise ValueError(f"unit {units[j]} is not a unit on the map")
    for j in range(n_exits):
        if exits[j] < 0 or exits[j] >= n:
            raise ValueError(f"exit cell {exits[j]} is off the map")
    if ws._busy:
        raise RuntimeError("this SearchWorkspace is searching in another thread; "
                           "use one workspace per thread")

    cdef bitgen_t* bg = _bitgen(rng)
    cdef const cell_t* nb = <const cell_t*>cnp.PyArray_DATA(<cnp.ndarray>ws.neighbors)
    cdef cell_t* offered = <cell_t*>malloc((k + 1 + n + n_exits) * sizeof(cell_t))
    cdef uint8_t* stop = <uint8_t*>malloc(n * sizeof(uint8_t))
    cdef stepcost_t* tab = <stepcost_t*>malloc(6 * n * sizeof(stepcost_t))
    if offered == NULL or stop == NULL or tab == NULL:
        free(offered)
        free(stop)
        free(tab)
        raise MemoryError("no memory for a movement segment")
    cdef cell_t* moves = offered + k + 1
    cdef cell_t* outs = moves + n
    cdef Py_ssize_t rows = 0, m, i, d, n_moves, n_out, n_options, pick, to
    cdef Py_ssize_t here, dest, s, u
    cdef int status = _STOPPED, kind, sl
    cdef dist_t ma, dc
    cdef stepcost_t row[6]
    cdef cell_t ov_cell[6]
    cdef dist_t ov_dist[6]
    cdef cell_t w
    cdef int n_ov
    cdef const flag_t* stopp
    cdef cell_t src
    cdef Py_ssize_t c
    for i in range(n):
        stop[i] = ezoc[i]
    for c in range(n):                  # the segment's step costs: none into a closed hex
        for d in range(6):
            w = nb[6 * c + d]
            tab[6 * c + d] = -1 if (w >= 0 and closed[w]) else base[c, d]
    ws._busy = True
    try:
        with rng.bit_generator.lock, nogil:     # C data only: other threads may run
            while True:
                m = 0
                for j in range(k):
                    sl = slot[j]
                    if not done[j] and (sl < 0 or quota[sl] == -1 or quota[sl] > 0):
                        offered[m] = <cell_t>j
                        m += 1
                if m == 0:
                    break
                pick = policy_draw(bg, m + 1)
                if pick == 0:                                   # "no more moves"
                    log[rows, 0] = 0
                    log[rows, 1] = <int32_t>(m + 1)
                    log[rows, 2] = -1
                    log[rows, 3] = 0
                    log[rows, 4] = 0
                    log[rows, 5] = -1
                    log[rows, 6] = _STAY
                    rows += 1
                    break
                j = offered[pick - 1]
                u = units[j]
                done[j] = 1
                here = unit_cell[u]
                ma = allowance[j]

                # the unit's routes (movement.routes)
                for d in range(6):
                    row[d] = tab[6 * here + d]
                stopp = NULL
                if not second:
                    stop[here] = 0
                    stopp = stop
                    if ezoc[here]:                              # 5.13: leaving an enemy ZOC
                        for d in range(6):
                            w = nb[6 * here + d]
                            if w >= 0 and ezoc[w]:
                                tab[6 * here + d] = -1
                            elif tab[6 * here + d] >= 0:
                                tab[6 * here + d] = <stepcost_t>(tab[6 * here + d] + ma // 2)
                src = <cell_t>here
                try:
                    ws.search(tab, &src, NULL, 1, ma, stopp, NULL, 0, False)
                    n_ov = _one_hex_steps(ws, nb, tab, here, ov_cell, ov_dist)     # 5.15
                finally:
                    for d in range(6):
                        tab[6 * here + d] = row[d]
                    stop[here] = ezoc[here]

                # the options, in the engine's order: stay, the hexes in cell order (the one
                # drawn found by selection), exits
                n_moves = _destinations(ws, here, ov_cell, ov_dist, n_ov, moves)
                n_out = 0
                for d in range(n_exits):         # 20.2 (movement.exit_costs)
                    s = exits[d]
                    dc = reached_cost(&ws.buf, s)
                    for i in range(n_ov):
                        if ov_cell[i] == s:
                            dc = ov_dist[i]
                    if exit_allowed(dc, enter[s], ezoc[s] != 0, s == here, second, ma):
                        outs[n_out] = <cell_t>s
                        n_out += 1
                n_options = 1 + n_moves + n_out
                to = policy_draw(bg, n_options)
                if to == 0:
                    kind = _STAY
                    dest = here
                elif to <= n_moves:
                    kind = _MOVE
                    dest = _nth_smallest(moves, n_moves, to - 1)
                else:
                    kind = _EXIT
                    dest = outs[to - 1 - n_moves]
                log[rows, 0] = <int32_t>pick
                log[rows, 1] = <int32_t>(m + 1)
                log[rows, 2] = <int32_t>u
                log[rows, 3] = <int32_t>to
                log[rows, 4] = <int32_t>n_options
                log[rows, 5] = <int32_t>dest
                log[rows, 6] = kind
                rows += 1
                if kind == _STAY:
                    continue

                # the move (units.move_unit, the flag, the 17.1 limit)
                _mark_path(ws, here, dest, ov_cell, n_ov, &hex_last[0], side)
                unit_cell[u] = <cell_t>dest
                flags[u] = <uint16_t>(flags[u] | moved)
                sl = slot[j]
                if sl >= 0 and quota[sl] > 0:
                    quota[sl] -= 1
                if kind == _EXIT:
                    status = _EXITING
                    break
    finally:
        ws._busy = False
        free(offered)
        free(stop)
        free(tab)
    return rows, status



# --- The Great War in the East -------------------------------------------------------------

cdef enum:
    _GWE_DONE = MV_DONE                 # the statuses, the log and the roster (play.pxd)
    _GWE_HANDOVER = MV_HANDOVER
    _GWE_MOVED = MV_MOVED
    _GWE_FULL = MV_FULL
    _PICK = 0
    _ACTION = 1
    _STOP = 0                           # the actions (_MOVE as for The Kaiser's Battle)
    _ENTRAIN = 2
    _RAIL = 3
    _DETRAIN = 4
    _R_UNIT = MV_R_UNIT
    _R_TABLE = MV_R_TABLE
    _R_ALLOWANCE = MV_R_ALLOWANCE
    _R_ENTRAIN_TCR = MV_R_ENTRAIN_TCR
    _R_STACKING = MV_R_STACKING
    _R_TRAITS = MV_R_TRAITS
    _ROSTER_COLUMNS = MV_ROSTER_COLUMNS
    _HANDOVER = MV_T_HANDOVER           # the traits
    _HQ = MV_T_HQ
    _HEXWISE = MV_T_HEXWISE
    _H_RAIL = MV_H_RAIL                 # the rows of the hex masks
    _H_EZOC = MV_H_EZOC
    _H_ENEMY = MV_H_ENEMY
    _H_ENEMY_HQ = MV_H_ENEMY_HQ
    _H_HQ_ALONE = MV_H_HQ_ALONE
    _HEX_ROWS = MV_HEX_ROWS
    _GWE_LOG_COLUMNS = MV_LOG_COLUMNS
    _KIND_HQ = MV_KIND_HQ               # a unit's kind bits (gwe_roster)
    _KIND_CAR = MV_KIND_CAR
    _KIND_AH = MV_KIND_AH

GWE_DONE, GWE_HANDOVER, GWE_MOVED, GWE_FULL = _GWE_DONE, _GWE_HANDOVER, _GWE_MOVED, _GWE_FULL
PICK, ACTION = _PICK, _ACTION
STOP, ENTRAIN, RAIL, DETRAIN = _STOP, _ENTRAIN, _RAIL, _DETRAIN
R_UNIT, R_TABLE, R_ALLOWANCE, R_ENTRAIN_TCR, R_STACKING, R_TRAITS = (
    _R_UNIT, _R_TABLE, _R_ALLOWANCE, _R_ENTRAIN_TCR, _R_STACKING, _R_TRAITS)
ROSTER_COLUMNS = _ROSTER_COLUMNS
T_HANDOVER, T_HQ = _HANDOVER, _HQ
KIND_HQ, KIND_CAR, KIND_AH = _KIND_HQ, _KIND_CAR, _KIND_AH
H_RAIL, H_EZOC, H_ENEMY, H_ENEMY_HQ, H_HQ_ALONE, HEX_ROWS = (
    _H_RAIL, _H_EZOC, _H_ENEMY, _H_ENEMY_HQ, _H_HQ_ALONE, _HEX_ROWS)
GWE_LOG_COLUMNS = _GWE_LOG_COLUMNS


def gwe_roster(const int64_t[::1] units, const int8_t[::1] unit_step,
               const uint16_t[::1] unit_status, const uint16_t[::1] flags,
               const int16_t[:, :, ::1] values, const int8_t[::1] tcr,
               const int8_t[::1] stacking, const uint8_t[::1] kind, int out_of_supply,
               int out_of_command, int off_land, bint never_by_rail,
               int32_t[:, ::1] roster, int32_t[::1] keys):
    """The roster of ``gwe_random_moves`` for ``units`` (ascending) and the keys of their
    step-cost tables, as ``engine._roster`` wants them. Same arguments and results as the
    twin (``gwe_fast._pure.play``); returns the keys written."""
    cdef Py_ssize_t k = units.shape[0], n_units = unit_step.shape[0], n_keys = keys.shape[0]
    cdef Py_ssize_t j, u, key, c
    if (unit_status.shape[0] != n_units or flags.shape[0] != n_units
            or values.shape[0] != n_units or values.shape[2] < 3 or tcr.shape[0] != n_units
            or stacking.shape[0] != n_units or kind.shape[0] != n_units):
        raise ValueError("the unit arrays must have one row per unit (values [units, steps, 3])")
    if roster.shape[0] != k or roster.shape[1] != _ROSTER_COLUMNS:
        raise ValueError(f"roster must be int32[{k}, {_ROSTER_COLUMNS}]")
    for j in range(k):
        u = units[j]
        if u < 0 or u >= n_units:
            raise ValueError(f"unit {u} is not a unit of the game")
        if unit_step[u] < 0 or unit_step[u] >= values.shape[1]:
            raise ValueError(f"unit {u} is on step {unit_step[u]}, with no values")
        key = (tcr[u] - 1) * 2 + 1
        if tcr[u] < 1 or key >= n_keys:
            raise ValueError(f"unit {u} has TCR {tcr[u]}: no room for its table's key")
    cdef int32_t* rank = <int32_t*>calloc(n_keys + 1, sizeof(int32_t))
    cdef int32_t* mine = <int32_t*>malloc((k + 1) * sizeof(int32_t))
    if rank == NULL or mine == NULL:
        free(rank)
        free(mine)
        raise MemoryError("no memory for a roster")
    for j in range(k):
        mine[j] = <int32_t>units[j]
    with nogil:
        c = roster_run(mine, k, &unit_step[0], &unit_status[0], &flags[0], &values[0, 0, 0],
                       values.shape[1], values.shape[2], &tcr[0], &stacking[0], &kind[0],
                       out_of_supply, out_of_command, off_land, never_by_rail,
                       &roster[0, 0] if k else NULL, &keys[0] if n_keys else NULL, n_keys,
                       rank)
    free(rank)
    free(mine)
    return c


cdef Py_ssize_t roster_run(const int32_t* units, Py_ssize_t k, const int8_t* unit_step,
                           const uint16_t* unit_status, const uint16_t* flags,
                           const int16_t* values, Py_ssize_t max_steps, Py_ssize_t v_cols,
                           const int8_t* tcr, const int8_t* stacking, const uint8_t* kind,
                           int out_of_supply, int out_of_command, int off_land,
                           bint never_by_rail, int32_t* roster, int32_t* keys,
                           Py_ssize_t n_keys, int32_t* rank) noexcept nogil:
    cdef uint16_t oos = <uint16_t>out_of_supply, ooc = <uint16_t>out_of_command
    cdef uint16_t lol = <uint16_t>off_land, st
    cdef int s, ma
    cdef bint hq, never, handover
    cdef Py_ssize_t j, u, key, c
    cdef const int16_t* v
    cdef int32_t* row
    for key in range(n_keys):
        rank[key] = 0
    for j in range(k):
        u = units[j]
        s = unit_step[u]
        st = unit_status[u]
        hq = (kind[u] & _KIND_HQ) != 0
        v = values + (u * max_steps + s) * v_cols
        ma = mv_allowance(v[2], st, flags[u], hq, oos, lol)
        # movement.step_costs: one table per TCR and "may enter a hex of enemy HQs only"
        key = (tcr[u] - 1) * 2 + (1 if v[0] <= 0 else 0)
        rank[key] = 1
        # rail.can_entrain, but for the hex, the points spent, rail used and the capacity
        never = ((st & ooc) != 0 or ((st & oos) != 0 and not hq)
                 or (never_by_rail and not hq))
        handover = ((kind[u] & _KIND_CAR) != 0                                # 24.4
                    or ((kind[u] & _KIND_AH) != 0 and not hq and s > 0))      # 23.52
        row = roster + j * _ROSTER_COLUMNS
        row[_R_UNIT] = <int32_t>u
        row[_R_TABLE] = <int32_t>key            # a key until the ranks are known
        row[_R_ALLOWANCE] = ma
        row[_R_ENTRAIN_TCR] = 0 if never else tcr[u]
        row[_R_STACKING] = stacking[u]
        row[_R_TRAITS] = (_HANDOVER if handover else 0) + (_HQ if hq else 0)
    c = 0
    for key in range(n_keys):
        if rank[key]:
            keys[c] = <int32_t>key
            rank[key] = <int32_t>c
            c += 1
    for j in range(k):
        roster[j * _ROSTER_COLUMNS + _R_TABLE] = rank[roster[j * _ROSTER_COLUMNS + _R_TABLE]]
    return c


def gwe_random_moves(rng, SearchWorkspace ws, const stepcost_t[:, :, ::1] tables,
                     const stepcost_t[:, ::1] rail_table, const int16_t[:, :, ::1] limits,
                     int16_t[:, :, ::1] track_used, bint track_on,
                     const int32_t[:, ::1] roster, uint8_t[::1] done,
                     const uint8_t[:, ::1] hexes, const int32_t[::1] threats,
                     const int32_t[::1] own_combat, int current, int side, int rate,
                     int capacity, int16_t[::1] rail_used, cell_t[::1] unit_cell,
                     uint16_t[::1] unit_status, int8_t[::1] hex_last, uint16_t[::1] flags,
                     int16_t[::1] spent, int16_t[::1] rail_hexes, int32_t[:, ::1] log,
                     int32_t[::1] paths):
    """Play a Movement Segment of The Great War in the East for a player who picks at random,
    until the segment ends or the engine must act (a unit whose move is played in Python, a
    move after which 10.52 displaces or eliminates an enemy HQ, or a full log).

    The arguments and results are those of the twin (``gwe_fast._pure.play``). Returns
    ``(rows logged, status, unit, path entries used)``, ``unit`` the one whose move is under
    way (-1 for none).
    """
    cdef Py_ssize_t n = ws.n_cells, k = roster.shape[0], n_units = done.shape[0]
    cdef Py_ssize_t n_tab = tables.shape[0], cap = log.shape[0], n_paths = paths.shape[0]
    if tables.shape[1] != n or tables.shape[2] != 6:
        raise ValueError("tables must be int16[t, n_cells, 6] on the workspace's map")
    if (rail_table.shape[0] != n or rail_table.shape[1] != 6 or limits.shape[0] != n
            or limits.shape[1] != 6 or limits.shape[2] != 2 or track_used.shape[0] != n
            or track_used.shape[1] != 6 or track_used.shape[2] != 2):
        raise ValueError("rail_table, limits and track_used must cover the workspace's map")
    if hexes.shape[0] != _HEX_ROWS or hexes.shape[1] != n or hex_last.shape[0] != n:
        raise ValueError(f"hexes must be uint8[{_HEX_ROWS}, n_cells] and hex_last cover the map")
    if roster.shape[1] != _ROSTER_COLUMNS:
        raise ValueError(f"roster must be int32[units, {_ROSTER_COLUMNS}]")
    if (unit_cell.shape[0] != n_units or unit_status.shape[0] != n_units
            or flags.shape[0] != n_units or spent.shape[0] != n_units
            or rail_hexes.shape[0] != n_units):
        raise ValueError("done, unit_cell, unit_status, flags, spent and rail_hexes must have "
                         "a row per unit")
    if rail_used.shape[0] != 2 or side < 0 or side > 1:
        raise ValueError("rail_used must hold two sides and side be 0 or 1")
    if log.shape[1] != _GWE_LOG_COLUMNS or cap < 1 or rate < 0:
        raise ValueError(f"log must be int32[rows >= 1, {_GWE_LOG_COLUMNS}] and rate >= 0")
    cdef Py_ssize_t j, at = -1, u
    for j in range(k):
        u = roster[j, _R_UNIT]
        if u < 0 or u >= n_units:
            raise ValueError(f"unit {u} is not a unit of the game")
        if not done[u] and (unit_cell[u] < 0 or unit_cell[u] >= n):
            raise ValueError(f"unit {u} is not on the map")
        if (not roster[j, _R_TRAITS] & _HANDOVER
                and (roster[j, _R_TABLE] < 0 or roster[j, _R_TABLE] >= n_tab)):
            raise ValueError(f"unit {u} has no step-cost table")
        if u == current:
            at = j
    if current >= 0 and (at < 0 or roster[at, _R_TRAITS] & _HANDOVER):
        raise ValueError(f"unit {current} is not a unit the segment may go on moving")
    for j in range(threats.shape[0]):
        if threats[j] < 0 or threats[j] >= n:
            raise ValueError(f"threatened HQ cell {threats[j]} is off the map")
    for j in range(own_combat.shape[0]):
        if (own_combat[j] < 0 or own_combat[j] >= n_units or unit_cell[own_combat[j]] < 0
                or unit_cell[own_combat[j]] >= n):
            raise ValueError(f"unit {own_combat[j]} is not a unit on the map")
    if ws._busy:
        raise RuntimeError("this SearchWorkspace is searching in another thread; "
                           "use one workspace per thread")

    cdef GweMoves p
    p.bg = _bitgen(rng)
    p.nb = <const cell_t*>cnp.PyArray_DATA(<cnp.ndarray>ws.neighbors)
    p.n = n
    p.tables = &tables[0, 0, 0] if n_tab else NULL
    p.n_tab = n_tab
    p.rail_table = &rail_table[0, 0]
    p.limits = &limits[0, 0, 0]
    p.track_used = &track_used[0, 0, 0]
    p.track_on = track_on
    p.roster = &roster[0, 0] if k else NULL
    p.k = k
    p.done = &done[0]
    p.hexes = &hexes[0, 0]
    p.threats = &threats[0] if threats.shape[0] else NULL
    p.n_threats = threats.shape[0]
    p.side, p.rate, p.capacity = side, rate, capacity
    p.rail_used = &rail_used[0]
    p.unit_cell = &unit_cell[0]
    p.unit_status = &unit_status[0]
    p.hex_last = &hex_last[0]
    p.flags = &flags[0]
    p.spent = &spent[0]
    p.rail_hexes = &rail_hexes[0]
    p.log = &log[0, 0]
    p.cap = cap
    p.paths = &paths[0] if n_paths else NULL
    p.n_paths = n_paths
    p.at, p.rows, p.used, p.moved, p.hexes_moved = at, 0, 0, -1, 0
    p.ctx = NULL
    p.survives = NULL
    p.stopped = NULL
    p.decide = NULL
    p.pending = -1
    p.offered = <cell_t*>malloc((k + 1 + n) * sizeof(cell_t))
    p.here_count = <int32_t*>malloc(n * sizeof(int32_t))
    p.fit = <stepcost_t*>malloc(6 * n * sizeof(stepcost_t))
    p.rail_list = <int32_t*>malloc((6 * n + 1) * sizeof(int32_t))
    p.n_rail_fixed = -1
    if p.offered == NULL or p.here_count == NULL or p.fit == NULL or p.rail_list == NULL:
        free(p.offered)
        free(p.here_count)
        free(p.fit)
        free(p.rail_list)
        raise MemoryError("no memory for a movement segment")
    cdef Py_ssize_t i
    cdef int status = _GWE_DONE
    for i in range(n):
        p.here_count[i] = 0
    for j in range(own_combat.shape[0]):
        p.here_count[unit_cell[own_combat[j]]] += 1
    ws._busy = True
    try:
        with rng.bit_generator.lock, nogil:     # C data only: other threads may run
            status = gwe_moves_run(&p, ws)
    finally:
        ws._busy = False
        free(p.offered)
        free(p.here_count)
        free(p.fit)
        free(p.rail_list)
    at = p.at
    return p.rows, status, (roster[at, _R_UNIT] if at >= 0 else -1), p.used


cdef inline void _log_row(GweMoves* p, int32_t a, int32_t b, int32_t c, int32_t d, int32_t e,
                          int32_t f, int32_t h) noexcept nogil:
    cdef int32_t* row
    if p.log != NULL:
        row = p.log + p.rows * _GWE_LOG_COLUMNS
        row[0], row[1], row[2], row[3], row[4], row[5], row[6] = a, b, c, d, e, f, h
    p.rows += 1


cdef inline dist_t _cost_to(SearchWorkspace ws, Py_ssize_t s, const cell_t* ov_cell,
                            const dist_t* ov_dist, int n_ov) noexcept nogil:
    # the points to reach s: the search's, or a one-hex step's (5.17)
    cdef dist_t mp = reached_cost(&ws.buf, s)
    cdef int i
    for i in range(n_ov):
        if ov_cell[i] == s:
            mp = ov_dist[i]
    return mp


cdef int gwe_moves_run(GweMoves* p, SearchWorkspace ws) except -1 nogil:
    # gwe_random_moves on its record (play.pxd); the status
    cdef const cell_t* nb = p.nb
    cdef Py_ssize_t n = p.n, k = p.k
    cdef const int32_t* roster = p.roster
    cdef const int32_t* row
    cdef const uint8_t* hexes = p.hexes
    cdef uint8_t* done = p.done
    cdef cell_t* unit_cell = p.unit_cell
    cdef uint16_t* unit_status = p.unit_status
    cdef uint16_t* flags = p.flags
    cdef int16_t* spent = p.spent
    cdef int8_t* hex_last = p.hex_last
    cdef int32_t* here_count = p.here_count
    cdef stepcost_t* fit = p.fit
    cdef cell_t* offered = p.offered
    cdef cell_t* moves = offered + k + 1
    cdef int32_t* paths = p.paths
    cdef bint logging = p.log != NULL, played = p.survives != NULL
    cdef int side = p.side
    cdef Py_ssize_t at = p.at, m, i, j, d, n_moves, n_options, pick, to, here, dest
    cdef Py_ssize_t s, a, b, line, length, u, base
    cdef int status = _GWE_DONE, tcr = 0, sp, ma, traits
    # the engine flags and status bits it reads and sets (gwe_fast.enums, _core/codes.pxd)
    cdef uint16_t moved = GF_MOVED, used_rail = GF_USED_RAIL, counted_bit = GF_RAIL_COUNTED
    cdef uint16_t entrained_bit = ST_ENTRAINED, ooc_bit = ST_OUT_OF_COMMAND
    cdef bint entrain, detrain, act, counted, room, alive
    cdef dist_t left, mp, before
    cdef int16_t r0, r1
    cdef const stepcost_t* tab
    cdef cell_t ov_cell[6]
    cdef dist_t ov_dist[6]
    cdef cell_t w, src
    cdef int n_ov
    cdef int32_t* rail_list = p.rail_list
    cdef Py_ssize_t n_rail = -1             # rail steps listed (-1: not yet, this call)
    while True:
        if not logging:                     # no log: the path buffer holds one rail path
            p.used = 0
        elif p.rows >= p.cap or p.used + p.rate + 2 > p.n_paths:
            status = _GWE_FULL
            break
        if at < 0:                          # the next unit, or "no more moves"
            m = 0
            for j in range(k):
                if not done[roster[j * _ROSTER_COLUMNS + _R_UNIT]]:
                    offered[m] = <cell_t>j
                    m += 1
            if m == 0:
                status = _GWE_DONE
                break
            if p.decide == NULL:
                pick = policy_draw(p.bg, m + 1)
            else:                           # the roster rows offered: no scratch to redo
                pick = p.decide(p.ctx, -1, offered, m, 0)
            _log_row(p, _PICK, <int32_t>(m + 1), <int32_t>pick,
                     -1 if pick == 0 else roster[offered[pick - 1] * _ROSTER_COLUMNS + _R_UNIT],
                     0, -1, 0)
            if pick == 0:
                status = _GWE_DONE
                break
            at = offered[pick - 1]
            row = roster + at * _ROSTER_COLUMNS
            done[row[_R_UNIT]] = 1
            p.hexes_moved = 0
            if row[_R_TRAITS] & _HANDOVER and not played:
                status = _GWE_HANDOVER
                break
            continue

        # one action of the unit under way
        row = roster + at * _ROSTER_COLUMNS
        u = row[_R_UNIT]
        traits = row[_R_TRAITS]
        here = unit_cell[u]
        ma = row[_R_ALLOWANCE]
        sp = row[_R_STACKING]
        # rail.has_room: counted already, or never (an HQ), or the capacity left
        counted = (traits & _HQ) != 0 or (flags[u] & counted_bit) != 0
        room = counted or sp <= p.capacity - p.rail_used[side]
        n_moves = 0
        n_ov = 0
        entrain = detrain = False
        if unit_status[u] & entrained_bit:
            # rail.rail_moves: along the rail within the rate left, never to a hex holding
            # enemy units
            left = p.rate - p.rail_hexes[u]
            if room and left > 0:
                # rail._rail_step_costs: no step into a hex the enemy occupied last (unless
                # only its HQs are there, 5.33), nor across a line that cannot carry the unit
                # (18.31, 18.33)
                if n_rail < 0 and p.n_rail_fixed >= 0:     # listed once for all
                    n_rail = p.n_rail_fixed
                elif n_rail < 0:                # the rail steps (the rest stay closed)
                    n_rail = 0
                    for i in range(6 * n):
                        fit[i] = -1
                        if p.rail_table[i] >= 0 and nb[i] >= 0:
                            rail_list[n_rail] = <int32_t>i
                            n_rail += 1
                for j in range(n_rail):
                    i = rail_list[j]
                    w = nb[i]
                    fit[i] = p.rail_table[i]
                    if hex_last[w] == 1 - side and not hexes[_H_HQ_ALONE * n + w]:
                        fit[i] = -1
                    elif p.track_on and sp > 0 and not track_carries(p.limits, p.track_used,
                                                                     i, sp):
                        fit[i] = -1
                src = <cell_t>here
                ws.search(fit, &src, NULL, 1, left, NULL, NULL, 0, False)
                for i in range(ws.buf.n_touched):
                    s = ws.buf.touched[i]
                    if (s != here and reached_cost(&ws.buf, s) > 0
                            and not hexes[_H_ENEMY * n + s]):
                        moves[n_moves] = <cell_t>s
                        n_moves += 1
            detrain = not unit_status[u] & ooc_bit                     # 5.35
            n_options = 1 + n_moves + (1 if detrain else 0)
        else:
            # movement.routes
            tab = p.tables + row[_R_TABLE] * 6 * n
            left = ma - spent[u]
            src = <cell_t>here
            ws.search(tab, &src, NULL, 1, left if left > 0 else 0, NULL, NULL, 0, False)
            if spent[u] == 0:               # 5.17: one hex always, when nothing spent
                n_ov = _one_hex_steps(ws, nb, tab, here, ov_cell, ov_dist)
            n_moves = _destinations(ws, here, ov_cell, ov_dist, n_ov, moves)
            # rail.can_entrain: what the roster leaves to the hex, the points spent, the rail
            # used and the capacity
            tcr = row[_R_ENTRAIN_TCR]
            entrain = (tcr > 0 and room and hexes[_H_RAIL * n + here] != 0
                       and (tcr == 1 or not hexes[_H_EZOC * n + here])
                       and ((ma >= tcr and spent[u] + tcr <= ma)
                            or (ma < tcr and spent[u] == 0
                                and not flags[u] & used_rail)))                # 18.25
            n_options = 1 + n_moves + (1 if entrain else 0)
        if p.decide == NULL:
            to = policy_draw(p.bg, n_options)
        elif p.pending >= 0:                # the answer, on the options listed again
            to = p.pending
            p.pending = -1
        else:
            p.pending = p.decide(p.ctx, u, moves, n_moves,
                                 MV_ENTRAIN if entrain else (MV_DETRAIN if detrain else 0))
            continue
        if to == 0:                                             # stop
            _log_row(p, _ACTION, <int32_t>n_options, 0, <int32_t>u, _STOP, <int32_t>here, 0)
            at = -1
            if played and traits & _HANDOVER:                   # 24.42
                p.stopped(p.ctx, u)
            continue
        if to > n_moves:
            if entrain:                                         # rail.entrain (5.32)
                mp = tcr if tcr < ma else ma
                spent[u] = <int16_t>(spent[u] + mp)
                if not counted:                                 # rail.charge_capacity
                    p.rail_used[side] = <int16_t>(p.rail_used[side] + sp)
                    flags[u] = <uint16_t>(flags[u] | counted_bit)
                flags[u] = <uint16_t>(flags[u] | moved)
                _log_row(p, _ACTION, <int32_t>n_options, <int32_t>to, <int32_t>u, _ENTRAIN,
                         <int32_t>here, <int32_t>mp)
                if played and traits & _HEXWISE and not p.survives(p.ctx, u, -1, spent[u]):
                    here_count[here] -= 1                       # 23.53: eliminated
                    at = -1
                    continue
                unit_status[u] = <uint16_t>(unit_status[u] | entrained_bit)
            else:                                               # rail.detrain (5.34)
                unit_status[u] = <uint16_t>(unit_status[u] & ~entrained_bit)
                p.hexes_moved = 0                               # 23.53
                _log_row(p, _ACTION, <int32_t>n_options, <int32_t>to, <int32_t>u, _DETRAIN,
                         <int32_t>here, 0)
            continue
        dest = _nth_smallest(moves, n_moves, to - 1)
        alive = True
        if unit_status[u] & entrained_bit:
            # rail.move_by_rail: the path from the start into paths, after its length
            base = p.used
            length = reached_cost(&ws.buf, dest) + 1
            paths[base] = <int32_t>length
            s = dest
            for i in range(length, 0, -1):
                paths[base + i] = <int32_t>s
                s = ws.pred_at(s)
            if not counted:                                     # rail.charge_capacity
                p.rail_used[side] = <int16_t>(p.rail_used[side] + sp)
                flags[u] = <uint16_t>(flags[u] | counted_bit)
            if p.track_on and sp > 0:                           # 18.31, 18.33: best fit
                for i in range(1, length):
                    a = paths[base + i]
                    b = paths[base + i + 1]
                    d = 0
                    while nb[6 * a + d] != b:
                        d += 1
                    r0 = track_room(p.limits, p.track_used, a, d, 0)
                    r1 = track_room(p.limits, p.track_used, a, d, 1)
                    line = 0 if (r0 >= sp and (r1 < sp or r0 <= r1)) else 1
                    p.track_used[(6 * a + d) * 2 + line] += sp
                    p.track_used[(6 * b + (d + 3) % 6) * 2 + line] += sp
            p.rail_hexes[u] = <int16_t>(p.rail_hexes[u] + length - 1)
            for i in range(1, length + 1):
                hex_last[paths[base + i]] = <int8_t>side
            flags[u] = <uint16_t>(flags[u] | used_rail | moved)
            _log_row(p, _ACTION, <int32_t>n_options, <int32_t>to, <int32_t>u, _RAIL,
                     <int32_t>dest, <int32_t>base)
            p.used += length + 1
        else:
            mp = _cost_to(ws, dest, ov_cell, ov_dist, n_ov)
            _log_row(p, _ACTION, <int32_t>n_options, <int32_t>to, <int32_t>u, _MOVE,
                     <int32_t>dest, <int32_t>mp)
            flags[u] = <uint16_t>(flags[u] | moved)
            if played and traits & _HEXWISE:
                # hex by hex: 23.52 may stop the unit on the way (the path, reversed, into
                # moves, whose options are drawn)
                length = 0
                s = dest
                while s >= 0 and s != here:
                    moves[length] = <cell_t>s
                    length += 1
                    w = ws.pred_at(s)
                    for i in range(n_ov):
                        if ov_cell[i] == s:
                            w = <cell_t>here
                    s = w
                before = spent[u]
                for i in range(length - 1, -1, -1):
                    s = moves[i]
                    hex_last[s] = <int8_t>side
                    unit_cell[u] = <cell_t>s
                    spent[u] = <int16_t>(before + _cost_to(ws, s, ov_cell, ov_dist, n_ov))
                    p.hexes_moved += 1
                    if not p.survives(p.ctx, u, p.hexes_moved, spent[u]):
                        alive = False
                        break
            else:
                # the move (units.move_unit; 23.52 cannot stop this unit)
                _mark_path(ws, here, dest, ov_cell, n_ov, hex_last, side)
                spent[u] = <int16_t>(spent[u] + mp)
        p.moved = u
        if alive:
            unit_cell[u] = <cell_t>dest
        else:
            at = -1                         # eliminated on the way: its move is over
        if not traits & _HQ:                # a combat unit moved
            here_count[here] -= 1
            if alive:
                here_count[dest] += 1
        # 10.52: an enemy HQ in the hex entered, or one alone next to a combat unit
        act = alive and hexes[_H_ENEMY_HQ * n + dest] != 0
        for i in range(p.n_threats):
            for d in range(6):
                w = nb[6 * p.threats[i] + d]
                if w >= 0 and here_count[w] > 0:
                    act = True
        if act:
            status = _GWE_MOVED
            break
    p.at = at
    return status


# --- The Great War in the East: declaring an attack (8.1-8.2, 8.8, 12.21, 17.0) ----------------

cdef class AttackPosition:
    """What the declaration of an attack reads of one position, with the questions it asks
    (``games.gwe.combat``): which units may attack some hexes together, whether a force
    reaches the lowest odds of its CRT row, which hexes may be attacked, and the options of
    each step of a declaration. Same arguments and answers as the twin's class. The
    questions are the C functions ``atk_*`` (play.pxd) on the record ``Atk``, which the Great
    War in the East's core asks too."""

    cdef Atk p
    cdef object _keep                   # the arrays the record points into
    cdef int32_t* _scratch

    def __cinit__(self, const cell_t[:, ::1] neighbors, const uint8_t[:, ::1] prohibited,
                  const uint8_t[:, ::1] halved, const int32_t[::1] units,
                  const int32_t[::1] cell, const int32_t[::1] attack,
                  const uint8_t[::1] cavalry, const int32_t[::1] nationality,
                  const int32_t[::1] tcr, const uint8_t[::1] hq, const int32_t[::1] defense,
                  const uint8_t[::1] full, const int32_t[:, :, ::1] ratios,
                  const int32_t[::1] row_len, const int32_t[::1] row_of_tcr, int joint_row,
                  int german, int austro_hungarian):
        self._scratch = NULL
        cdef Py_ssize_t n = neighbors.shape[0], k = units.shape[0], j
        if (neighbors.shape[1] != 6 or prohibited.shape[0] != n or prohibited.shape[1] != 6
                or halved.shape[0] != n or halved.shape[1] != 6 or defense.shape[0] != n
                or full.shape[0] != n):
            raise ValueError("prohibited, halved, defense and full must cover the map")
        if (cell.shape[0] != k or attack.shape[0] != k or cavalry.shape[0] != k
                or nationality.shape[0] != k or tcr.shape[0] != k or hq.shape[0] != k):
            raise ValueError("units, cell, attack, cavalry, nationality, tcr and hq do not agree")
        if ratios.shape[2] != 2 or row_len.shape[0] != ratios.shape[0]:
            raise ValueError("ratios must be int32[rows, columns, 2] with a length per row")
        for j in range(ratios.shape[0]):
            if row_len[j] < 0 or row_len[j] > ratios.shape[1]:
                raise ValueError(f"row {j} has {row_len[j]} ratios")
        for j in range(row_of_tcr.shape[0]):
            if row_of_tcr[j] >= ratios.shape[0]:
                raise ValueError(f"TCR {j} names row {row_of_tcr[j]}, past the table")
        if joint_row < 0 or joint_row >= ratios.shape[0]:
            raise ValueError(f"the joint row {joint_row} is past the table")
        for j in range(k):
            if cell[j] < 0 or cell[j] >= n:
                raise ValueError(f"unit {units[j]} is not on the map")
            if tcr[j] < 0 or tcr[j] >= row_of_tcr.shape[0] or row_of_tcr[tcr[j]] < 0:
                raise ValueError(f"unit {units[j]} has TCR {tcr[j]}, which no CRT row names")
        self._keep = (neighbors, prohibited, halved, units, cell, attack, cavalry, nationality,
                      tcr, hq, defense, full, ratios, row_len, row_of_tcr)
        self._scratch = <int32_t*>malloc((3 * k + 3) * sizeof(int32_t))
        if self._scratch == NULL:
            raise MemoryError("no memory for an attack position")
        cdef Atk* p = &self.p
        p.first = p.next_ = NULL             # (the units not listed by hex: atk scans them)
        p.nb = &neighbors[0, 0] if n else NULL
        p.prohibited = &prohibited[0, 0] if n else NULL
        p.halved = &halved[0, 0] if n else NULL
        p.defense = &defense[0] if n else NULL
        p.full = &full[0] if n else NULL
        p.units = &units[0] if k else NULL
        p.cell = &cell[0] if k else NULL
        p.attack = &attack[0] if k else NULL
        p.cavalry = &cavalry[0] if k else NULL
        p.nat = &nationality[0] if k else NULL
        p.tcr = &tcr[0] if k else NULL
        p.hq = &hq[0] if k else NULL
        p.ratios = &ratios[0, 0, 0] if ratios.shape[0] and ratios.shape[1] else NULL
        p.n_cols = ratios.shape[1]
        p.row_len = &row_len[0]
        p.row_of_tcr = &row_of_tcr[0] if row_of_tcr.shape[0] else NULL
        p.joint_row, p.german, p.austro = joint_row, german, austro_hungarian
        p.k, p.n = k, n
        p.a = self._scratch
        p.b = p.a + k + 1
        p.c = p.b + k + 1

    def __dealloc__(self):
        free(self._scratch)

    cdef Py_ssize_t _index(self, int unit) except -1:
        cdef Py_ssize_t j
        for j in range(self.p.k):
            if self.p.units[j] == unit:
                return j
        raise ValueError(f"unit {unit} may not attack in this position")

    cdef Py_ssize_t _cells(self, object cells, int32_t* out, Py_ssize_t room) except -1:
        cdef Py_ssize_t m = 0
        for c in cells:
            if m == room:
                raise ValueError("too many defending hexes")
            if c < 0 or c >= self.p.n:
                raise ValueError(f"cell {c} is off the map")
            out[m] = <int32_t>c
            m += 1
        return m

    # -- what the engine asks --------------------------------------------------------------

    def candidates(self, cells):
        """The eligible units next to every one of ``cells``, ascending."""
        cdef int32_t hexes[8]
        cdef Py_ssize_t m = self._cells(cells, hexes, 8)
        cdef Py_ssize_t count = atk_candidates(&self.p, hexes, m, self.p.a), j
        return [int(self.p.units[self.p.a[j]]) for j in range(count)]

    def reaches(self, attackers, cells):
        """Do ``attackers`` (units) reach the lowest odds of their CRT row against
        ``cells``, before any support?"""
        cdef int32_t hexes[8]
        cdef Py_ssize_t m = self._cells(cells, hexes, 8), ns = 0
        for x in attackers:
            if ns == self.p.k:
                raise ValueError("more attackers than eligible units")
            self.p.c[ns] = <int32_t>self._index(x)
            ns += 1
        return bool(atk_reaches(&self.p, self.p.c, ns, hexes, m))

    def targets(self, cells):
        """Those of ``cells`` some units can attack alone: some eligible unit is next to it
        and some of them reach the CRT (step 1 of a declaration)."""
        cdef int32_t hexes[1]
        out = []
        for c in cells:
            self._cells((c,), hexes, 1)
            if atk_target(&self.p, hexes[0]):
                out.append(int(c))
        return out

    def options(self, cells, attackers, targets):
        """The options of one step of the declaration of an attack on ``cells`` by
        ``attackers`` (units), ``targets`` the hexes that may be attacked: ``(done,
        units, hexes)``: "done" when the force reaches the CRT; each unit next to every
        hex that may join and still leave a legal attack possible; each target that may
        join the defending hexes with every attacker next to it and a legal attack still
        possible."""
        cdef int32_t hexes[8]
        cdef Py_ssize_t m = self._cells(cells, hexes, 7), na = 0, n_units, n_hexes, i
        for a in attackers:
            if na == self.p.k:
                raise ValueError("more attackers than eligible units")
            self.p.b[na] = <int32_t>self._index(a)
            na += 1
        cdef int32_t[::1] tg = np.ascontiguousarray(targets, dtype=np.int32)
        for i in range(tg.shape[0]):
            if tg[i] < 0 or tg[i] >= self.p.n:
                raise ValueError(f"cell {tg[i]} is off the map")
        out_units = np.empty(self.p.k + 1, dtype=np.int32)
        out_hexes = np.empty(tg.shape[0] + 1, dtype=np.int32)
        cdef int32_t[::1] ou = out_units, oh = out_hexes
        done = atk_options(&self.p, hexes, m, self.p.b, na,
                           &tg[0] if tg.shape[0] else NULL, tg.shape[0], &ou[0], &n_units,
                           &oh[0], &n_hexes)
        return (bool(done), [int(self.p.units[ou[i]]) for i in range(n_units)],
                [int(oh[i]) for i in range(n_hexes)])


# The questions of a declaration (play.pxd), on the record of one position

cdef inline bint _atk_next_to(const Atk* p, Py_ssize_t here, Py_ssize_t c) noexcept nogil:
    # attack_positions: next to c across a hexside that does not prohibit combat
    cdef int d
    for d in range(6):
        if p.nb[6 * c + d] == here and not p.prohibited[6 * c + d]:
            return True
    return False


cdef Py_ssize_t atk_candidates(const Atk* p, const int32_t* cells, Py_ssize_t m,
                               int32_t* out) noexcept nogil:
    cdef Py_ssize_t j, i, count = 0, c0
    cdef int d, e
    cdef cell_t v
    cdef int32_t x
    cdef bint ok
    if p.first != NULL and m > 0:
        # the units in the hexes next to the first cell (each hex once), those next to every
        # other cell kept, in ascending order: what the scan below finds
        c0 = cells[0]
        for d in range(6):
            v = p.nb[6 * c0 + d]
            if v < 0 or p.prohibited[6 * c0 + d]:
                continue
            ok = True
            for e in range(d):
                if p.nb[6 * c0 + e] == v and not p.prohibited[6 * c0 + e]:
                    ok = False
            if not ok:
                continue
            x = p.first[v]
            while x >= 0:
                ok = True
                for i in range(1, m):
                    if not _atk_next_to(p, v, cells[i]):
                        ok = False
                        break
                if ok:
                    j = count
                    while j > 0 and out[j - 1] > x:
                        out[j] = out[j - 1]
                        j -= 1
                    out[j] = x
                    count += 1
                x = p.next_[x]
        return count
    for j in range(p.k):
        ok = True
        for i in range(m):
            if not _atk_next_to(p, p.cell[j], cells[i]):
                ok = False
                break
        if ok:
            out[count] = <int32_t>j
            count += 1
    return count


cdef int64_t atk_strength2(const Atk* p, const int32_t* s, Py_ssize_t ns, const int32_t* cells,
                           Py_ssize_t m, const uint8_t* near, int64_t multiplier) noexcept nogil:
    # twice the attack before support but massed artillery (attacker2, force2), with each
    # unit's attack as the record holds it and the defending hexes' cavalry-only marks
    cdef int64_t cav2 = 0, other2 = 0, a2
    cdef Py_ssize_t i, x, here
    cdef int seen = 0
    cdef bint cut = False
    for x in range(ns):
        here = p.cell[s[x]]
        a2 = attacker2(p.attack[s[x]], crosses_into(p.nb, p.halved, here, cells, m, &seen),
                       near != NULL and near[here], multiplier)
        if p.cavalry[s[x]]:
            cav2 += a2
        else:
            other2 += a2
    if cav2:
        for i in range(m):
            if not p.full[cells[i]]:
                cut = True
                break
    return force2(cav2, other2, cut)


cdef int atk_row(const Atk* p, const int32_t* s, Py_ssize_t ns) noexcept nogil:
    # crt_row: German and Austro-Hungarian units together use the joint row (17.0),
    # any other force the row of its worst TCR (8.8); HQs count only when alone
    cdef Py_ssize_t x, fighters = 0
    cdef bint g = False, a = False
    cdef int t = -1
    for x in range(ns):
        if not p.hq[s[x]]:
            fighters += 1
    for x in range(ns):
        if fighters and p.hq[s[x]]:
            continue
        g = g or p.nat[s[x]] == p.german
        a = a or p.nat[s[x]] == p.austro
        if p.tcr[s[x]] > t:
            t = p.tcr[s[x]]
    if g and a:
        return p.joint_row
    return p.row_of_tcr[t]


cdef bint atk_reaches(const Atk* p, const int32_t* s, Py_ssize_t ns, const int32_t* cells,
                      Py_ssize_t m) noexcept nogil:
    # the lowest odds of the CRT row, before support (8.8), in whole numbers
    if ns == 0:
        return False
    cdef int64_t defense = 0, s2
    cdef Py_ssize_t i
    for i in range(m):
        defense += p.defense[cells[i]]
    if defense <= 0:
        return True
    s2 = atk_strength2(p, s, ns, cells, m, NULL, 1)
    cdef int r = atk_row(p, s, ns)
    for i in range(p.row_len[r]):
        if odds_reached(s2, defense, p.ratios + 2 * (r * p.n_cols + i)):
            return True
    return False


cdef Py_ssize_t atk_column(const Atk* p, const int32_t* s, Py_ssize_t ns, const int32_t* cells,
                           Py_ssize_t m) noexcept nogil:
    # combat.odds_column of the force s[ns] (ns > 0) against cells[m] before support
    cdef int64_t defense = 0
    cdef Py_ssize_t i
    for i in range(m):
        defense += p.defense[cells[i]]
    return atk_odds(p, atk_row(p, s, ns), atk_strength2(p, s, ns, cells, m, NULL, 1), defense)


cdef Py_ssize_t atk_odds(const Atk* p, int row, int64_t attack2, int64_t defense) noexcept nogil:
    # combat.odds_column (8.4, 8.8): the rightmost column of the row that twice the attack
    # attack2 reaches against defense, -1 below the first, the last against no defence
    cdef Py_ssize_t i, col = -1
    if defense <= 0:
        return p.row_len[row] - 1
    for i in range(p.row_len[row]):
        if odds_reached(attack2, defense, p.ratios + 2 * (row * p.n_cols + i)):
            col = i
    return col


cdef bint _atk_feasible(const Atk* p, const int32_t* chosen, Py_ssize_t nc, const int32_t* pool,
                    Py_ssize_t np_, const int32_t* cells, Py_ssize_t m) noexcept nogil:
    # chosen with the whole pool, or with the pool's units of one nationality (the row
    # depends on the nationalities, 17.0) when chosen are all of that nationality
    cdef int32_t* s = p.c
    cdef Py_ssize_t i, x, ns
    cdef int n_have = 0, have = -1, nat
    for x in range(nc):
        s[x] = chosen[x]
        if n_have == 0 or p.nat[chosen[x]] != have:
            if n_have == 0:
                have = p.nat[chosen[x]]
            n_have = 1 if p.nat[chosen[x]] == have else 2
    for x in range(np_):
        s[nc + x] = pool[x]
    if nc + np_ and atk_reaches(p, s, nc + np_, cells, m):
        return True
    if n_have == 2:
        return False
    for i in range(nc + np_):              # each nationality present, once
        nat = p.nat[chosen[i] if i < nc else pool[i - nc]]
        if n_have == 1 and nat != have:
            continue
        x = 0
        while x < i and p.nat[chosen[x] if x < nc else pool[x - nc]] != nat:
            x += 1
        if x < i:
            continue
        ns = nc
        for x in range(np_):
            if p.nat[pool[x]] == nat:
                s[ns] = pool[x]
                ns += 1
        if ns and atk_reaches(p, s, ns, cells, m):
            return True
    return False


cdef bint atk_target(const Atk* p, int32_t cell) noexcept nogil:
    cdef Py_ssize_t count = atk_candidates(p, &cell, 1, p.a)
    return count > 0 and _atk_feasible(p, p.b, 0, p.a, count, &cell, 1)


cdef bint atk_options(const Atk* p, int32_t* hexes, Py_ssize_t m, int32_t* att, Py_ssize_t na,
                      const int32_t* targets, Py_ssize_t n_targets, int32_t* units,
                      Py_ssize_t* n_units, int32_t* out, Py_ssize_t* n_out) noexcept nogil:
    cdef int32_t* pool = p.a
    cdef Py_ssize_t npool, i, j, x, count, t
    cdef bint seen, inside
    cdef int32_t keep
    cdef bint done = atk_reaches(p, att, na, hexes, m)
    count = atk_candidates(p, hexes, m, pool)
    npool = 0
    for i in range(count):                      # the pool: candidates not attacking yet
        seen = False
        for x in range(na):
            if att[x] == pool[i]:
                seen = True
        if not seen:
            pool[npool] = pool[i]
            npool += 1
    n_units[0] = 0
    for i in range(npool):                      # joined by one more unit
        att[na] = pool[i]
        keep = pool[i]
        for x in range(i, npool - 1):
            pool[x] = pool[x + 1]
        if _atk_feasible(p, att, na + 1, pool, npool - 1, hexes, m):
            units[n_units[0]] = keep
            n_units[0] += 1
        for x in range(npool - 1, i, -1):
            pool[x] = pool[x - 1]
        pool[i] = keep
    n_out[0] = 0
    for t in range(n_targets):                  # joined by one more hex
        inside = False
        for i in range(m):
            if hexes[i] == targets[t]:
                inside = True
        if inside:
            continue
        hexes[m] = targets[t]
        count = atk_candidates(p, hexes, m + 1, pool)
        npool = 0
        seen = True
        for x in range(na):                     # every attacker next to it too
            j = 0
            while j < count and pool[j] != att[x]:
                j += 1
            if j == count:
                seen = False
        if not seen:
            continue
        for i in range(count):
            inside = False
            for x in range(na):
                if att[x] == pool[i]:
                    inside = True
            if not inside:
                pool[npool] = pool[i]
                npool += 1
        if _atk_feasible(p, att, na, pool, npool, hexes, m + 1):
            out[n_out[0]] = targets[t]
            n_out[0] += 1
    return done


# --- The Great War in the East: supply (9.1, 19.1) ----------------------------------------------

cdef void _closing(stepcost_t* tab, const stepcost_t* steps, const cell_t* nb,
                   const uint8_t* mask, uint8_t closed, Py_ssize_t n) noexcept nogil:
    # tab = steps, less every step into a hex whose mask is ``closed``: the step into w
    # from its neighbour in direction d goes the opposite way, (d + 3) % 6 (hexgrid)
    cdef Py_ssize_t w, d
    cdef cell_t c
    memcpy(tab, steps, 6 * n * sizeof(stepcost_t))
    for w in range(n):
        if (mask[w] != 0) == (closed != 0):
            for d in range(6):
                c = nb[6 * w + d]
                if c >= 0:
                    tab[6 * c + (d + 3) % 6] = -1


cdef bint _source_near(const cell_t* nb, const stepcost_t* steps, const uint8_t* tolled,
                       const uint8_t* closed, const uint8_t* source, cell_t start, int reach,
                       uint32_t* seen, uint32_t mark, cell_t* queue,
                       int32_t* depth) noexcept nogil:
    # Whether a cell of source lies within reach steps of start by a line of steps
    # p -> ... -> start that enters no closed cell and leaves no tolled cell (start itself may
    # be tolled; it is never closed, nor is a source): the line a depot's supply traces to a
    # source (9.16), walked backward from the depot, breadth first. The step p -> x into x
    # from its neighbour p in direction d goes the opposite way, (d + 3) % 6 (hexgrid).
    cdef Py_ssize_t head = 0, tail = 1, d
    cdef cell_t x, p
    cdef int32_t j
    if source[start]:
        return True
    seen[start] = mark
    queue[0] = start
    depth[0] = 0
    while head < tail:
        x = queue[head]
        j = depth[head]
        head += 1
        if j >= reach:
            continue
        for d in range(6):
            p = nb[6 * <Py_ssize_t>x + d]
            if p < 0 or seen[p] == mark or tolled[p] or closed[p]:
                continue
            if steps[6 * <Py_ssize_t>p + (d + 3) % 6] < 0:
                continue
            if source[p]:
                return True
            seen[p] = mark
            queue[tail] = p
            depth[tail] = j + 1
            tail += 1
    return False


# The step tables' bitboards gwe_supply and gwe_command_radii were given last, each kept with
# its workspace's neighbour table and a copy of the step table: the engine passes the same few
# tables (made once a scenario) call after call, and comparing one costs a small part of
# building its bitboards again
cdef list _sets_made = []


cdef StepSets _step_sets(object neighbors, const stepcost_t[:, ::1] steps, bint backward):
    cdef Py_ssize_t size = steps.shape[0] * 6 * sizeof(stepcost_t)
    cdef cnp.ndarray kept
    for entry in _sets_made:
        kept = entry[1]
        if (entry[0] is neighbors and entry[2] == backward
                and cnp.PyArray_DIMS(kept)[0] == steps.shape[0]
                and (size == 0 or memcmp(cnp.PyArray_DATA(kept), &steps[0, 0], size) == 0)):
            return entry[3]
    sets = StepSets(neighbors, steps, backward)
    _sets_made.insert(0, (neighbors, np.array(steps, dtype=np.int16, copy=True), backward, sets))
    del _sets_made[16:]
    return sets


def gwe_supply(SearchWorkspace ws, const stepcost_t[:, ::1] rail_steps,
               const stepcost_t[:, ::1] line_steps, const uint8_t[::1] friendly,
               const uint8_t[::1] ezoc, const uint8_t[::1] own, const uint8_t[::1] enemy_combat,
               const int32_t[::1] starts, const int8_t[::1] hex_last, int enemy,
               const int32_t[::1] mine, const int32_t[::1] unit_cell, const uint8_t[::1] depot,
               const int32_t[::1] supply_range, const int32_t[::1] layers, int max_toll,
               uint8_t[::1] rail, uint8_t[::1] depots, uint8_t[::1] supplied,
               int cell_range, uint8_t[::1] cells):
    """A side's supply in one position: its rail supply sources (9.15, 18.27), its supplied
    depots (9.16, 19.1), which of its units are in supply (9.12-9.14, 9.17) and, when
    ``cell_range >= 0``, the hexes within ``cell_range`` of a source (25.12). The arguments
    and results are those of the twin (``gwe_fast._pure.play``).

    Two facts of a hex map are taken as given, as the engine's tables have them: a step
    costs 1 or is refused (``-1``: a line counts hexes), and the neighbour table leads back
    (the step from ``v`` to ``u`` is direction ``(d + 3) % 6`` of ``u``'s step ``d`` to
    ``v``). The depots' chain is walked backward from each depot (breadth first, counting
    steps) while the twin searches forward from the sources: on such a map both reach the
    same depots."""
    cdef Py_ssize_t n = ws.n_cells, n_units = unit_cell.shape[0], k = mine.shape[0]
    if (rail_steps.shape[0] != n or rail_steps.shape[1] != 6 or line_steps.shape[0] != n
            or line_steps.shape[1] != 6):
        raise ValueError("rail_steps and line_steps must be int16[n_cells, 6] of the map")
    if (friendly.shape[0] != n or ezoc.shape[0] != n or own.shape[0] != n
            or enemy_combat.shape[0] != n or hex_last.shape[0] != n or rail.shape[0] != n
            or cells.shape[0] != n):
        raise ValueError("the hex masks and results must cover the workspace's map")
    if (depot.shape[0] != n_units or supply_range.shape[0] != n_units
            or layers.shape[0] != n_units or depots.shape[0] != n_units
            or supplied.shape[0] != n_units):
        raise ValueError("depot, supply_range, layers and the results need a row per unit")
    if max_toll < 0 or max_toll >= ws.n_layers:
        raise ValueError(f"max_toll {max_toll} needs a workspace of more layers")
    cdef Py_ssize_t i, j, u, c, ns
    for i in range(starts.shape[0]):
        if starts[i] < 0 or starts[i] >= n:
            raise ValueError(f"start cell {starts[i]} is off the map")
    for j in range(k):
        u = mine[j]
        if u < 0 or u >= n_units or unit_cell[u] < 0 or unit_cell[u] >= n:
            raise ValueError(f"unit {u} is not a unit on the map")
        if not depot[u] and (layers[u] < 1 or layers[u] > max_toll + 1):
            raise ValueError(f"unit {u} has {layers[u]} layers, not 1 to {max_toll + 1}")
    # the tables' bitboards (the core keeps its own, made once a scenario)
    cdef StepSets rail_bits = _step_sets(ws.neighbors, rail_steps, False)
    cdef StepSets line_bits = _step_sets(ws.neighbors, line_steps, False)
    cdef StepSets back_bits = _step_sets(ws.neighbors, line_steps, True)
    supply_run(ws, &rail_steps[0, 0], &line_steps[0, 0], &rail_bits.b, &line_bits.b,
               &back_bits.b, &friendly[0], &ezoc[0], &own[0],
               &enemy_combat[0], &starts[0] if starts.shape[0] else NULL, starts.shape[0],
               &hex_last[0], enemy, &mine[0] if k else NULL, k, &unit_cell[0] if n_units else NULL,
               &depot[0] if n_units else NULL, &supply_range[0] if n_units else NULL,
               &layers[0] if n_units else NULL, max_toll, &rail[0],
               &depots[0] if n_units else NULL, &supplied[0] if n_units else NULL, cell_range,
               &cells[0], NULL, NULL)


cdef void _cells_within(SearchWorkspace ws, Py_ssize_t n, dist_t cell_range,
                        const uint8_t* closed, uint8_t* cells) noexcept nogil:
    # the hexes the last search reached within cell_range on layer 0 (25.12), less the closed
    # ones (the search stopped in them: a line never enters them)
    cdef Py_ssize_t c
    cdef dist_t dc
    for c in range(n):
        dc = reached_cost(&ws.buf, c)
        if 0 <= dc <= cell_range and not closed[c]:
            cells[c] = 1


cdef Py_ssize_t _sources_near(cell_t* src, Py_ssize_t ns, const int16_t* q, const int16_t* r,
                              const int32_t* mine, Py_ssize_t k, const uint8_t* depot,
                              const uint8_t* supplied, const int32_t* layers,
                              const int32_t* unit_cell, const int32_t* supply_range
                              ) noexcept nogil:
    # the sources src[ns] within range (in hexes) of a unit that may still be supplied through
    # open zones, kept in order at the front; how many
    cdef Py_ssize_t i, j, m = 0
    cdef int32_t c, u
    cdef int dq, dr
    for i in range(ns):
        c = src[i]
        for j in range(k):
            u = mine[j]
            if depot[u] or supplied[u] or layers[u] <= 1:
                continue
            dq = q[c] - q[unit_cell[u]]
            dr = r[c] - r[unit_cell[u]]
            if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= supply_range[u]:
                src[m] = c
                m += 1
                break
    return m


# Whether supply_run searches on bitboards when its tables allow (bitsearch): always, but for
# the tests that compare it with the searches of SearchWorkspace (_use_bit_parallel)
cdef bint _bit_parallel = True


cdef bint bit_parallel() noexcept nogil:
    return _bit_parallel


def _use_bit_parallel(bint on):
    """For tests: make supply_run (and the cores' other searches that have bitboards) search
    on bitboards (``True``, as they do) or always the other way (``False``). Returns the
    setting before."""
    global _bit_parallel
    cdef bint was = _bit_parallel
    _bit_parallel = on
    return was


cdef int supply_run(SearchWorkspace ws, const stepcost_t* rail_steps,
                    const stepcost_t* line_steps, const StepBits* rail_bits,
                    const StepBits* line_bits, const StepBits* back_bits,
                    const uint8_t* friendly, const uint8_t* ezoc,
                    const uint8_t* own, const uint8_t* enemy_combat, const int32_t* starts,
                    Py_ssize_t n_starts, const int8_t* hex_last, int enemy, const int32_t* mine,
                    Py_ssize_t k, const int32_t* unit_cell, const uint8_t* depot,
                    const int32_t* supply_range, const int32_t* layers, int max_toll,
                    uint8_t* rail, uint8_t* depots, uint8_t* supplied, int cell_range,
                    uint8_t* cells, const int16_t* q, const int16_t* r,
                    uint64_t* rail_keep=NULL, const uint64_t* rail_cells=NULL,
                    uint64_t* depot_keep=NULL) except -1:
    # gwe_supply on checked arguments (play.pxd): what the Great War in the East's core asks
    cdef Py_ssize_t n = ws.n_cells, i, j, u, c, ns, w, nw = (n + 63) >> 6
    if ws._busy:
        raise RuntimeError("this SearchWorkspace is searching in another thread; "
                           "use one workspace per thread")
    # The searches run on bitboards (bitsearch) when the tables have them: a line counts
    # hexes, so its search is breadth first, and the rail search only asks what it reaches
    # (any step costs would do). Else, or for the tests that compare, with the workspace.
    # (The depots' chain too, on the line table taken backward: it counts steps.)
    cdef bint fast = (_bit_parallel and rail_bits != NULL and line_bits != NULL
                      and back_bits != NULL and rail_bits.usable and line_bits.usable
                      and back_bits.usable and line_bits.unit and rail_bits.n == n
                      and line_bits.n == n and back_bits.n == n and max_toll < BITS_MAX_TOKENS)
    # the most levels a line search needs: the longest line read (a search with tolls ends
    # within (max_toll + 1) * n levels: each adds a (cell, tokens) pair)
    cdef Py_ssize_t most = cell_range, T = max_toll + 1, words = 0, pad = 0
    for j in range(k):
        if supply_range[mine[j]] > most:
            most = supply_range[mine[j]]
    if most > T * n:
        most = T * n
    if most < 0:
        most = 0
    if fast:
        pad = rail_bits.pad if rail_bits.pad > line_bits.pad else line_bits.pad
        if back_bits.pad > pad:
            pad = back_bits.pad
        # seven sets, the fill's work, the levels' work and their results
        words = (7 * nw + 2 * nw + 2 * pad + T * (2 * nw + 2 * pad) + 4 * nw
                 + (most + 1) * T * nw + nw + 2 * pad)
    cdef const cell_t* nb = <const cell_t*>cnp.PyArray_DATA(<cnp.ndarray>ws.neighbors)
    # the byte masks and the depots' walks of the searches with the workspace
    cdef uint8_t* open_zoc = NULL
    cdef uint32_t* seen = NULL
    cdef int32_t* depth = NULL
    if not fast:
        open_zoc = <uint8_t*>malloc(3 * n * sizeof(uint8_t))
        seen = <uint32_t*>calloc(n, sizeof(uint32_t))
        depth = <int32_t*>malloc(n * sizeof(int32_t))
    cdef cell_t* src = <cell_t*>malloc((2 * n + k + n_starts + 1) * sizeof(cell_t))
    cdef uint64_t* bits = <uint64_t*>malloc((words + 1) * sizeof(uint64_t))
    if (src == NULL or bits == NULL
            or not fast and (open_zoc == NULL or seen == NULL or depth == NULL)):
        free(open_zoc)
        free(src)
        free(seen)
        free(depth)
        free(bits)
        raise MemoryError("no memory for a supply search")
    cdef cell_t* queue = src + n + k + n_starts + 1
    cdef uint32_t mark = 0
    cdef uint8_t* shut = open_zoc + 2 * n
    cdef uint8_t* ok = open_zoc + n
    # the cell sets: ok (then the hexes a depot's line may enter, then scratch), the enemy
    # combat units' hexes, the open zones, the rail search's sources (then all the sources),
    # what it reaches (then the rail sources), a depot's hex and what its line reaches; the
    # work
    cdef uint64_t* b_ok = bits
    cdef uint64_t* b_stop = bits + nw
    cdef uint64_t* b_toll = bits + 2 * nw
    cdef uint64_t* b_src = bits + 3 * nw
    cdef uint64_t* b_rail = bits + 4 * nw
    cdef uint64_t* b_one = bits + 5 * nw
    cdef uint64_t* b_near = bits + 6 * nw
    cdef uint64_t* b_work = bits + 7 * nw
    cdef uint64_t* reach = b_work + 2 * nw + 2 * pad + T * (2 * nw + 2 * pad) + 4 * nw
    cdef uint64_t* b_around = reach + (most + 1) * T * nw + pad    # pad spare words each side
    cdef uint64_t* kp
    cdef const uint64_t* found
    cdef uint64_t key
    cdef uint64_t x
    cdef uint8_t oz, okc
    cdef dist_t limit, dc
    cdef Py_ssize_t last = 0, lv
    cdef int l
    cdef bint any_new, lines, kept
    ws._busy = True
    try:
        with nogil:
            memset(rail, 0, n)
            memset(cells, 0, n)
            if fast:
                # the hexes as cell sets, straight from the masks (b_one, b_near scratch):
                # 7.24, friendly units negate enemy zones of control for supply; ok the hexes
                # a rail source may be
                bits_pack(ezoc, n, b_toll)
                bits_pack(own, n, b_one)
                bits_pack(friendly, n, b_ok)
                bits_pack(enemy_combat, n, b_stop)
                for w in range(nw):
                    b_toll[w] &= ~b_one[w]
                    b_ok[w] &= ~(b_stop[w] | b_toll[w])
                    b_src[w] = 0
            else:
                for c in range(n):
                    # 7.24: friendly units negate enemy zones of control for supply
                    oz = (ezoc[c] != 0) & (own[c] == 0)
                    okc = (friendly[c] != 0) & (enemy_combat[c] == 0) & (oz == 0)
                    open_zoc[c] = oz
                    ok[c] = okc
                    shut[c] = 1 - okc
            for j in range(k):
                depots[mine[j]] = 0
                supplied[mine[j]] = 0

            # rail sources: from the friendly rail edge, along rail hexsides, through
            # friendly hexes free of enemy combat units and open enemy zones of control; a
            # hex the enemy occupied last is not a source (9.15, 18.27). The other hexes
            # stop the search (it goes no further from them) and are left out after it: the
            # hexes it reaches among the rest are those it reaches with them closed, which
            # is what the fill on bitboards reaches (it never enters them)
            if fast:
                # What the fill reads of ok is its bits at the starts and at the hexes a rail
                # step enters (rail_cells): with those as at the kept search, it reaches what
                # that search reached
                kept = rail_keep != NULL and rail_keep[0] != 0
                if rail_keep != NULL:
                    for w in range(nw):
                        x = b_ok[w] & rail_cells[w]
                        if x != rail_keep[1 + w]:
                            kept = False
                        rail_keep[1 + w] = x
                if kept:
                    memcpy(b_rail, rail_keep + 1 + nw, nw * sizeof(uint64_t))
                else:
                    for i in range(n_starts):
                        c = starts[i]
                        b_src[c >> 6] |= (<uint64_t>1) << (c & 63)
                    for w in range(nw):
                        b_src[w] &= b_ok[w]
                    bits_fill(rail_bits, b_src, b_ok, NULL, -1, b_rail, b_work)
                    if rail_keep != NULL:
                        memcpy(rail_keep + 1 + nw, b_rail, nw * sizeof(uint64_t))
                        rail_keep[0] = 1
                for w in range(nw):
                    x = b_rail[w]
                    while x:
                        c = (w << 6) + __builtin_ctzll(x)
                        x &= x - 1
                        if hex_last[c] != enemy:
                            rail[c] = 1
                        else:
                            b_rail[w] &= ~((<uint64_t>1) << (c & 63))
            else:
                ns = 0
                for i in range(n_starts):
                    if ok[starts[i]]:
                        src[ns] = starts[i]
                        ns += 1
                ws.search(rail_steps, src, NULL, ns, -1, shut, NULL, 0, False)
                for c in range(n):
                    if ok[c] and reached_cost(&ws.buf, c) >= 0 and hex_last[c] != enemy:
                        rail[c] = 1

            # a supply line: a hex a step, never into an enemy combat unit's hex (9.14, 9.17):
            # the searches stop in such a hex (they reach it, and go no further) and what
            # they tell of it is not read

            # depots: within range of a rail source or a supplied depot, on a line free of
            # open enemy zones of control, the depot's own hex not counted; they chain (9.16).
            # Each depot not yet supplied looks back along such lines for a source (ok now
            # marks the sources: the rail sources, then each supplied depot's hex) until a
            # round supplies none: the depots a search from the sources would supply, round
            # after round, as the twin does. On bitboards a depot's look back is a fill from
            # its hex, supply_range steps of the line table taken backward, into hexes free
            # of open zones and enemy combat units (its own hex left all the same); b_src
            # marks the sources
            if fast:
                for w in range(nw):
                    b_ok[w] = ~(b_toll[w] | b_stop[w])
                    b_src[w] = b_rail[w]
                    b_one[w] = 0
            else:
                memcpy(ok, rail, n)
            any_new = True
            while any_new:
                any_new = False
                for j in range(k):
                    u = mine[j]
                    if depot[u] and not depots[u]:
                        if fast:
                            c = unit_cell[u]
                            lv = supply_range[u] if supply_range[u] > 0 else 0
                            # The fill reads ok only in the hexes one step (backward) from
                            # those it reaches: with ok as before there, from the same hex
                            # as far, it reaches what it reached (depot_keep, a unit's: its
                            # hex and range, those hexes, ok in them, what it reached)
                            kp = NULL
                            key = ((<uint64_t>c) << 32) | ((<uint64_t>lv) << 1) | 1
                            if depot_keep != NULL:
                                kp = depot_keep + u * (1 + 3 * nw)
                            found = NULL
                            if kp != NULL and kp[0] == key:
                                found = kp + 1 + 2 * nw
                                for w in range(nw):
                                    if (b_ok[w] & kp[1 + w]) != kp[1 + nw + w]:
                                        found = NULL
                                        break
                            if found == NULL:
                                b_one[c >> 6] = (<uint64_t>1) << (c & 63)
                                bits_fill(back_bits, b_one, b_ok, NULL, lv, b_near, b_work)
                                b_one[c >> 6] = 0
                                found = b_near
                                if kp != NULL:
                                    bits_read_by(back_bits, b_near, kp + 1, b_around - pad)
                                    for w in range(nw):
                                        kp[1 + nw + w] = b_ok[w] & kp[1 + w]
                                        kp[1 + 2 * nw + w] = b_near[w]
                                    kp[0] = key
                            for w in range(nw):
                                if found[w] & b_src[w]:
                                    depots[u] = 1
                                    b_src[c >> 6] |= (<uint64_t>1) << (c & 63)
                                    any_new = True
                                    break
                            continue
                        mark += 1
                        if _source_near(nb, line_steps, open_zoc, enemy_combat, ok,
                                        unit_cell[u], supply_range[u], seen, mark, queue,
                                        depth):
                            depots[u] = 1
                            ok[unit_cell[u]] = 1
                            any_new = True

            # the sources: rail sources and supplied depots, in cell order
            if fast:
                for w in range(nw):
                    b_src[w] = b_rail[w]
                for j in range(k):
                    if depots[mine[j]]:
                        c = unit_cell[mine[j]]
                        b_src[c >> 6] |= (<uint64_t>1) << (c & 63)
                ns = bits_cells(b_src, nw, src)
            else:
                memcpy(open_zoc + n, rail, n)          # ok is no longer needed
                for j in range(k):
                    if depots[mine[j]]:
                        open_zoc[n + unit_cell[mine[j]]] = 1
                ns = 0
                for c in range(n):
                    if open_zoc[n + c]:
                        src[ns] = <cell_t>c
                        ns += 1
            lines = False       # a unit other than a depot asked: the search of lines
            for j in range(k):
                if not depot[mine[j]]:
                    lines = True
                    break
            if ns and k and not lines:
                for j in range(k):          # depots alone: as their chain says
                    supplied[mine[j]] = depots[mine[j]]
            if ns and lines:
                # units: a line of at most the unit's range through at most layers - 1 open
                # enemy zones of control (two for TCR 1, 9.14); a depot as its chain says.
                # First the lines through no open zone (layer 0 of the search with tolls,
                # whose distances the higher layers do not change), which are also the
                # search of 25.12's hexes; then, only for the units they leave out of supply
                # that may pass open zones, the search with tolls, as far as their ranges
                limit = cell_range
                for j in range(k):
                    if supply_range[mine[j]] > limit:
                        limit = supply_range[mine[j]]
                if fast:
                    # the hexes within each number of steps (reach, a set a level)
                    last = bits_levels(line_bits, b_src, b_stop, b_toll, 0, most, reach,
                                       b_work)
                    if cell_range >= 0:
                        lv = cell_range if cell_range < last else last
                        for w in range(nw):
                            b_ok[w] = reach[lv * nw + w] & ~b_stop[w]
                        bits_mark(b_ok, nw, cells)
                else:
                    ws.search(line_steps, src, NULL, ns, limit, enemy_combat, open_zoc, 0,
                              True)
                    if cell_range >= 0:
                        _cells_within(ws, n, cell_range, enemy_combat, cells)
                limit = -1
                for j in range(k):
                    u = mine[j]
                    if depot[u]:
                        supplied[u] = depots[u]
                        continue
                    if fast:
                        lv = supply_range[u] if supply_range[u] < last else last
                        if (supply_range[u] >= 0 and not enemy_combat[unit_cell[u]]
                                and bit_at(reach + lv * nw, unit_cell[u])):
                            supplied[u] = 1
                        elif layers[u] > 1 and supply_range[u] > limit:
                            limit = supply_range[u]
                        continue
                    dc = -1 if enemy_combat[unit_cell[u]] else reached_cost(&ws.buf, unit_cell[u])
                    if 0 <= dc <= supply_range[u]:
                        supplied[u] = 1
                    elif layers[u] > 1 and supply_range[u] > limit:
                        limit = supply_range[u]
                if limit >= 0 and max_toll > 0:
                    # a line takes a hex a step: a source farther (in hexes) from every unit
                    # left than its range supplies none of them, and is left out when the
                    # hexes' coordinates are given
                    if q != NULL:
                        ns = _sources_near(src, ns, q, r, mine, k, depot, supplied, layers,
                                           unit_cell, supply_range)
                    if fast:
                        # What is read here is whether some layer l of 1 .. layers - 1 of
                        # Dial's search reaches the unit's hex within its range. Dial keeps a
                        # state (l, v) only when no state of v with fewer tokens is as cheap,
                        # so its layer l holds v at cost D(l, v), the cost of the cheapest
                        # line paying at most l tokens, exactly when D(l, v) < D(l - 1, v).
                        # The units read have D(0, v) beyond their range (the search above,
                        # from these sources or more, left them out of supply), so some such
                        # layer is within the range exactly when D(layers - 1, v) is: when
                        # the hex is in the set of the lines paying at most layers - 1
                        # tokens within the range, which is what bits_levels gives. (Its
                        # sets are not Dial's layers, which keep only the states that trade
                        # cost against tokens; the units' verdicts are the same.)
                        for w in range(nw):
                            b_src[w] = 0
                        for i in range(ns):
                            b_src[src[i] >> 6] |= (<uint64_t>1) << (src[i] & 63)
                        last = bits_levels(line_bits, b_src, b_stop, b_toll, max_toll,
                                           limit if limit < most else most, reach, b_work)
                    else:
                        ws.search(line_steps, src, NULL, ns, limit, enemy_combat, open_zoc,
                                  max_toll, True)
                    for j in range(k):
                        u = mine[j]
                        if depot[u] or supplied[u] or enemy_combat[unit_cell[u]]:
                            continue
                        if fast:
                            l = layers[u] - 1 if layers[u] - 1 < max_toll else max_toll
                            lv = supply_range[u] if supply_range[u] < last else last
                            if (l >= 1 and supply_range[u] >= 0
                                    and bit_at(reach + (lv * T + l) * nw, unit_cell[u])):
                                supplied[u] = 1
                            continue
                        for l in range(1, layers[u]):
                            dc = reached_cost(&ws.buf, <Py_ssize_t>l * n + unit_cell[u])
                            if 0 <= dc <= supply_range[u]:
                                supplied[u] = 1
                                break
            elif ns and cell_range >= 0:
                # 25.12 alone: the hexes a line of cell_range reaches, through no open zone
                if fast:
                    last = bits_levels(line_bits, b_src, b_stop, b_toll, 0, most, reach,
                                       b_work)
                    lv = cell_range if cell_range < last else last
                    for w in range(nw):
                        b_ok[w] = reach[lv * nw + w] & ~b_stop[w]
                    bits_mark(b_ok, nw, cells)
                else:
                    ws.search(line_steps, src, NULL, ns, cell_range, enemy_combat, open_zoc,
                              0, True)
                    _cells_within(ws, n, cell_range, enemy_combat, cells)
    finally:
        ws._busy = False
        free(open_zoc)
        free(src)
        free(seen)
        free(depth)
        free(bits)
    return 0


# --- The Great War in the East: what a supply line reads of a position -------------------------

cdef cnp.ndarray _flat(object a, int typenum, object dtype):
    # a as an array of that type the kernel can read byte for byte: itself when it is one (C
    # order, aligned, native byte order: the test of search's and board's _usable), else
    # np.ascontiguousarray's copy, as the twin reads it
    if (cnp.PyArray_Check(a) and cnp.PyArray_TYPE(<cnp.ndarray>a) == typenum
            and cnp.PyArray_ISCARRAY_RO(<cnp.ndarray>a)
            and cnp.PyArray_ISNOTSWAPPED(<cnp.ndarray>a)):
        return <cnp.ndarray>a
    return np.ascontiguousarray(a, dtype=dtype)


def gwe_position_key(int side, unit_cell, unit_status, int line_status, hex_last, flags,
                     int off_land):
    """The bytes of what a supply line reads of a position, made at once (``supply.
    position_key``): ``side`` as one byte, then the bytes of ``unit_cell`` (int32),
    ``unit_status & line_status`` (uint16), ``hex_last`` (int8) and, unless ``flags`` is
    None, ``flags & off_land`` (uint16), native byte order, as the twin's numpy arrays give
    them."""
    if side < 0 or side > 255:
        raise ValueError(f"side {side} does not fit in a byte")
    if not 0 <= line_status <= 0xFFFF or not 0 <= off_land <= 0xFFFF:
        raise ValueError("line_status and off_land must be 16-bit masks")
    cdef cnp.ndarray cell = _flat(unit_cell, cnp.NPY_INT32, np.int32)
    cdef cnp.ndarray status = _flat(unit_status, cnp.NPY_UINT16, np.uint16)
    cdef cnp.ndarray last = _flat(hex_last, cnp.NPY_INT8, np.int8)
    cdef cnp.ndarray fl = None if flags is None else _flat(flags, cnp.NPY_UINT16, np.uint16)
    cdef Py_ssize_t nu = cnp.PyArray_SIZE(cell), nc = cnp.PyArray_SIZE(last), i
    cdef Py_ssize_t nf = 0 if fl is None else cnp.PyArray_SIZE(fl)
    if cnp.PyArray_SIZE(status) != nu:
        raise ValueError("unit_cell and unit_status must have one entry per unit")
    out = PyBytes_FromStringAndSize(NULL, 1 + 4 * nu + 2 * nu + nc + 2 * nf)
    cdef char* b = PyBytes_AS_STRING(out)
    cdef const uint16_t* st = <const uint16_t*>cnp.PyArray_DATA(status)
    cdef const uint16_t* f
    cdef uint16_t x, ls = <uint16_t>line_status, ol = <uint16_t>off_land
    b[0] = <char>side
    b += 1
    memcpy(b, cnp.PyArray_DATA(cell), 4 * nu)
    b += 4 * nu
    for i in range(nu):
        x = st[i] & ls
        memcpy(b + 2 * i, &x, 2)
    b += 2 * nu
    memcpy(b, cnp.PyArray_DATA(last), nc)
    b += nc
    if fl is not None:
        f = <const uint16_t*>cnp.PyArray_DATA(fl)
        for i in range(nf):
            x = f[i] & ol
            memcpy(b + 2 * i, &x, 2)
    return out


# --- The Great War in the East: command radii (10.33, 10.34, 21.41) ------------------------------

def gwe_command_radii(SearchWorkspace ws, const stepcost_t[:, :, ::1] tables,
                      const uint8_t[::1] enemy, const int32_t[::1] hq_cell,
                      const int32_t[::1] hq_table, const int32_t[::1] hq_radius,
                      const uint8_t[::1] hq_stopped, const uint8_t[::1] open_zoc,
                      uint8_t[:, ::1] out):
    """The command radius of each of a side's HQs in one position: ``out[k]`` the hexes within
    ``hq_radius[k]`` steps of ``hq_cell[k]`` on step table ``tables[hq_table[k]]`` with the
    hexes of ``enemy`` closed, a path ending at the first hex of ``open_zoc`` it enters when
    ``hq_stopped[k]``. Same arguments and results as the twin (``gwe_fast._pure.play``)."""
    cdef Py_ssize_t n = ws.n_cells, k = hq_cell.shape[0], n_tab = tables.shape[0], j, i, s
    if (tables.shape[1] != n or tables.shape[2] != 6 or enemy.shape[0] != n
            or open_zoc.shape[0] != n):
        raise ValueError("tables, enemy and open_zoc must cover the workspace's map")
    if (hq_table.shape[0] != k or hq_radius.shape[0] != k or hq_stopped.shape[0] != k
            or out.shape[0] != k or out.shape[1] != n):
        raise ValueError("hq_cell, hq_table, hq_radius, hq_stopped and out do not agree")
    for j in range(k):
        if hq_cell[j] < 0 or hq_cell[j] >= n:
            raise ValueError(f"HQ cell {hq_cell[j]} is off the map")
        if hq_table[j] < 0 or hq_table[j] >= n_tab:
            raise ValueError(f"HQ {j} has no step table")
    # the tables' bitboards (the core keeps its own, made once a scenario)
    cdef list sets = [_step_sets(ws.neighbors, tables[i], False) for i in range(n_tab)]
    cdef StepBits* bits = <StepBits*>malloc((n_tab + 1) * sizeof(StepBits))
    if bits == NULL:
        raise MemoryError("no memory for the command radii")
    for i in range(n_tab):
        bits[i] = (<StepSets>sets[i]).b        # a copy of the record: the masks stay theirs
    try:
        command_radii_run(ws, &tables[0, 0, 0], n_tab, bits, &enemy[0],
                          &hq_cell[0] if k else NULL,
                          &hq_table[0] if k else NULL, &hq_radius[0] if k else NULL,
                          &hq_stopped[0] if k else NULL, &open_zoc[0], k,
                          &out[0, 0] if k else NULL)
    finally:
        free(bits)


cdef int command_radii_run(SearchWorkspace ws, const stepcost_t* tables, Py_ssize_t n_tab,
                           const StepBits* tab_bits, const uint8_t* enemy,
                           const int32_t* hq_cell, const int32_t* hq_table,
                           const int32_t* hq_radius, const uint8_t* hq_stopped,
                           const uint8_t* open_zoc, Py_ssize_t k, uint8_t* out,
                           uint64_t* keep=NULL, const int32_t* slot=NULL) except -1:
    # gwe_command_radii on checked arguments (play.pxd); out[k, n_cells]
    cdef Py_ssize_t n = ws.n_cells, j, i, s, w, nw = (n + 63) >> 6, pad = 1
    if ws._busy:
        raise RuntimeError("this SearchWorkspace is searching in another thread; "
                           "use one workspace per thread")
    cdef const cell_t* nb = <const cell_t*>cnp.PyArray_DATA(<cnp.ndarray>ws.neighbors)
    # A radius counts steps (every step 1, or refused): a table that has its bitboards is
    # searched on them, breadth first, the enemy's hexes never entered; else with the
    # workspace on the table with the steps into them closed, made once, at its first HQ.
    if tab_bits != NULL:
        for i in range(n_tab):
            if tab_bits[i].pad > pad:
                pad = tab_bits[i].pad
    cdef stepcost_t* closed = <stepcost_t*>malloc((6 * n * n_tab + 1) * sizeof(stepcost_t))
    cdef uint8_t* made = <uint8_t*>calloc(n_tab + 1, sizeof(uint8_t))
    # the sets: the hexes that may be entered, the open zones, the source, the radius; work
    cdef uint64_t* bits = <uint64_t*>malloc((7 * nw + 4 * pad + 1) * sizeof(uint64_t))
    if closed == NULL or made == NULL or bits == NULL:
        free(closed)
        free(made)
        free(bits)
        raise MemoryError("no memory for the command radii")
    cdef uint64_t* b_free = bits
    cdef uint64_t* b_zoc = bits + nw
    cdef uint64_t* b_src = bits + 2 * nw
    cdef uint64_t* b_out = bits + 3 * nw
    cdef uint64_t* b_work = bits + 4 * nw
    cdef uint64_t* b_around = bits + 6 * nw + 3 * pad          # pad spare words each side
    cdef uint64_t* kp
    cdef uint64_t key, x
    cdef bint hit
    cdef const StepBits* S
    cdef cell_t src
    cdef Py_ssize_t t
    cdef bint sets = False
    ws._busy = True
    try:
        with nogil:
            for j in range(k):
                t = hq_table[j]
                memset(out + j * n, 0, n)
                src = hq_cell[j]
                S = &tab_bits[t] if tab_bits != NULL and _bit_parallel else NULL
                if S != NULL and S.usable and S.unit and S.n == n:
                    if not sets:
                        bits_pack(enemy, n, b_free)
                        bits_pack(open_zoc, n, b_zoc)
                        for w in range(nw):
                            b_free[w] = ~b_free[w]     # (a bit past the map never reached)
                            b_src[w] = 0
                        sets = True
                    # The fill reads the closed hexes only one step from those it reaches,
                    # and the open zones only where it reaches: with both as before there,
                    # from the same hex as far on the same table, it reaches what it reached
                    # (keep: slot[j]'s hex, radius, table and stop, those hexes, the sets in
                    # them, what it reached)
                    kp = NULL
                    hit = False
                    key = (((<uint64_t>src) << 32) | ((<uint64_t>(hq_radius[j] & 0xFFFF)) << 16)
                           | ((<uint64_t>(t & 0x3FFF)) << 2) | (2 if hq_stopped[j] else 0) | 1)
                    if keep != NULL:
                        kp = keep + slot[j] * (1 + 4 * nw)
                        if kp[0] == key:
                            hit = True
                            for w in range(nw):
                                if ((b_free[w] & kp[1 + w]) != kp[1 + nw + w]
                                        or (hq_stopped[j] and (b_zoc[w] & kp[1 + 3 * nw + w])
                                            != kp[1 + 2 * nw + w])):
                                    hit = False
                                    break
                    if hit:
                        bits_mark(kp + 1 + 3 * nw, nw, out + j * n)
                        continue
                    b_src[src >> 6] = (<uint64_t>1) << (src & 63)
                    bits_fill(S, b_src, b_free, b_zoc if hq_stopped[j] else NULL,
                              hq_radius[j], b_out, b_work)
                    b_src[src >> 6] = 0
                    bits_mark(b_out, nw, out + j * n)
                    if kp != NULL:
                        bits_read_by(S, b_out, kp + 1, b_around - pad)
                        for w in range(nw):
                            kp[1 + nw + w] = b_free[w] & kp[1 + w]
                            kp[1 + 2 * nw + w] = b_zoc[w] & b_out[w] if hq_stopped[j] else 0
                            kp[1 + 3 * nw + w] = b_out[w]
                        kp[0] = key
                    continue
                if not made[t]:
                    _closing(closed + 6 * n * t, tables + 6 * n * t, nb, enemy, 1, n)
                    made[t] = 1
                ws.search(closed + 6 * n * t, &src, NULL, 1, hq_radius[j],
                          open_zoc if hq_stopped[j] else NULL, NULL, 0, False)
                for i in range(ws.buf.n_touched):
                    s = ws.buf.touched[i]
                    if reached_cost(&ws.buf, s) >= 0:
                        out[j * n + s] = 1
    finally:
        ws._busy = False
        free(closed)
        free(made)
        free(bits)
    return 0


# --- The Great War in the East: cavalry withdrawal before combat (12.11, 12.13, 24.41) -------

cdef inline Py_ssize_t _withdraw_step(Py_ssize_t c, int d, Py_ssize_t here, int t, bint car,
                                      bint by_zoc, const cell_t* nbr, Py_ssize_t n,
                                      const int16_t* side_add, const int16_t* enter_cost,
                                      const uint8_t* mountain, const uint8_t* enemy_units,
                                      const uint8_t* enemy_zoc) noexcept nogil:
    # the hex a withdrawing unit enters from c across side d, -1 when it may not: across a
    # hexside it may cross, into terrain it may enter (the car never a mountain), never into
    # an enemy unit's hex, nor an enemy zone of control unless of TCR 1, nor back home
    cdef Py_ssize_t v = nbr[6 * c + d]
    if (v < 0 or v == here or side_add[(t * n + c) * 6 + d] < 0 or enter_cost[t * n + v] < 0
            or (car and mountain[v]) or enemy_units[v] or (by_zoc and enemy_zoc[v])):
        return -1
    return v


cdef inline bint _toward(const int32_t* to_source, Py_ssize_t here, Py_ssize_t via,
                         Py_ssize_t dest) noexcept nogil:
    return (to_source[here] >= 0 and 0 <= to_source[via] < to_source[here]
            and 0 <= to_source[dest] < to_source[via])


def gwe_withdrawals(const cell_t[:, ::1] neighbors, const int16_t[:, :, ::1] side_add,
                    const int16_t[:, ::1] enter_cost, const uint8_t[::1] mountain,
                    const uint8_t[::1] enemy_units, const uint8_t[::1] enemy_zoc,
                    const int32_t[::1] to_source, const int32_t[::1] units,
                    const int32_t[::1] unit_cell, const int8_t[::1] tcr,
                    const uint8_t[::1] car, int32_t[::1] counts, int32_t[:, ::1] paths):
    """The legal withdrawals of some units in one position (12.11, 12.13, 24.41): for unit
    ``units[j]``, ``counts[j]`` rows of ``paths`` in turn, each ``(via, destination)``, sorted;
    only those toward a supply source when there are any. Returns the rows written. Same
    arguments and results as the twin (``gwe_fast._pure.play``)."""
    cdef Py_ssize_t n = neighbors.shape[0], k = units.shape[0], n_units = unit_cell.shape[0]
    if neighbors.shape[1] != 6 or side_add.shape[1] != n or side_add.shape[2] != 6:
        raise ValueError("neighbors and side_add must be [n_cells, 6] and [t, n_cells, 6]")
    if (enter_cost.shape[1] != n or enter_cost.shape[0] != side_add.shape[0]
            or mountain.shape[0] != n or enemy_units.shape[0] != n
            or enemy_zoc.shape[0] != n or to_source.shape[0] != n):
        raise ValueError("enter_cost and the hex masks must cover the map")
    if (tcr.shape[0] != n_units or car.shape[0] != n_units or counts.shape[0] != k
            or paths.shape[1] != 2 or paths.shape[0] < 36 * k):
        raise ValueError("tcr and car need a row per unit, counts one per unit asked, "
                         "paths 36 rows per unit asked")
    cdef Py_ssize_t j, u, rows
    for j in range(k):
        u = units[j]
        if u < 0 or u >= n_units or unit_cell[u] < 0 or unit_cell[u] >= n:
            raise ValueError(f"unit {u} is not a unit on the map")
        if tcr[u] < 1 or tcr[u] > side_add.shape[0]:
            raise ValueError(f"unit {u} has TCR {tcr[u]}, with no terrain row")
    with nogil:
        rows = withdrawals_run(&neighbors[0, 0], n, &side_add[0, 0, 0], &enter_cost[0, 0],
                               &mountain[0], &enemy_units[0], &enemy_zoc[0], &to_source[0],
                               &units[0] if k else NULL, k, &unit_cell[0] if n_units else NULL,
                               &tcr[0] if n_units else NULL, &car[0] if n_units else NULL,
                               &counts[0] if k else NULL, &paths[0, 0] if k else NULL)
    return rows


cdef Py_ssize_t withdrawals_run(const cell_t* nbr, Py_ssize_t n, const int16_t* side_add,
                                const int16_t* enter_cost, const uint8_t* mountain,
                                const uint8_t* enemy_units, const uint8_t* enemy_zoc,
                                const int32_t* to_source, const int32_t* units, Py_ssize_t k,
                                const int32_t* unit_cell, const int8_t* tcr, const uint8_t* car,
                                int32_t* counts, int32_t* paths) noexcept nogil:
    # gwe_withdrawals on checked arguments (play.pxd): side_add[t, n, 6], enter_cost[t, n],
    # paths[36 k, 2]; the rows written
    cdef Py_ssize_t j, u, here, d, e, via, dest, rows = 0, first, i, a, b
    cdef int t
    cdef bint by_zoc, is_car
    cdef int32_t tmp0, tmp1
    for j in range(k):
        u = units[j]
        here = unit_cell[u]
        t = tcr[u] - 1
        by_zoc = tcr[u] != 1                                      # 12.13
        is_car = car[u] != 0                                      # 24.41
        first = rows
        for d in range(6):
            via = _withdraw_step(here, d, here, t, is_car, by_zoc, nbr, n, side_add,
                                 enter_cost, mountain, enemy_units, enemy_zoc)
            if via < 0:
                continue
            for e in range(6):
                dest = _withdraw_step(via, e, here, t, is_car, by_zoc, nbr, n, side_add,
                                      enter_cost, mountain, enemy_units, enemy_zoc)
                if dest < 0:
                    continue
                for i in range(6):                 # exactly two hexes away (12.11)
                    if nbr[6 * here + i] == dest:
                        break
                else:
                    paths[2 * rows] = <int32_t>via
                    paths[2 * rows + 1] = <int32_t>dest
                    rows += 1
        # 8.63 priority 1, as for retreats: each hex nearer to a source than the last;
        # those kept, moved up in place, when there are any (nothing moves otherwise)
        b = first
        for i in range(first, rows):
            if _toward(to_source, here, paths[2 * i], paths[2 * i + 1]):
                paths[2 * b] = paths[2 * i]
                paths[2 * b + 1] = paths[2 * i + 1]
                b += 1
        if b > first:
            rows = b
        # sorted by (via, destination): an insertion sort of at most 36 rows
        for i in range(first + 1, rows):
            tmp0 = paths[2 * i]
            tmp1 = paths[2 * i + 1]
            a = i - 1
            while a >= first and (paths[2 * a] > tmp0
                                  or (paths[2 * a] == tmp0 and paths[2 * a + 1] > tmp1)):
                paths[2 * a + 2] = paths[2 * a]
                paths[2 * a + 3] = paths[2 * a + 1]
                a -= 1
            paths[2 * a + 2] = tmp0
            paths[2 * a + 3] = tmp1
        counts[j] = <int32_t>(rows - first)
    return rows


# --- The Great War in the East: the defenders of every hex (5.4, 5.36, 8.14, 8.66, 12.15) -------

def gwe_hex_defenses(const int32_t[::1] units, const int32_t[::1] unit_cell,
                     const uint8_t[::1] is_hq, const uint16_t[::1] flags,
                     const uint16_t[::1] status, const int16_t[:, ::1] values,
                     const int8_t[::1] stacking, const int16_t[::1] hq_combat,
                     const uint8_t[::1] panicking, const uint8_t[::1] no_trench,
                     const int8_t[::1] doubled, const int8_t[::1] trench,
                     const uint8_t[::1] fortress, const uint8_t[::1] within, int retreated_in,
                     int defended, int entrained, int32_t[::1] total, uint8_t[::1] attackable):
    """The defenders of every hex of one side in one position, at once: ``total[c]`` the sum
    of the defense strengths of its counted defenders and HQs in hex ``c`` (its fortress
    not included), and
    ``attackable[c]`` whether hex ``c`` of ``within`` may be attacked (a counted defender or
    an undestroyed fortress, none of which has been attacked yet). Same arguments and
    results as the twin (``gwe_fast._pure.play``)."""
    cdef Py_ssize_t n = total.shape[0], k = units.shape[0], n_units = unit_cell.shape[0]
    if (doubled.shape[0] != n or trench.shape[0] != n or fortress.shape[0] != n
            or within.shape[0] != n or attackable.shape[0] != n):
        raise ValueError("doubled, trench, fortress, within, total and attackable must cover "
                         "the map")
    if (is_hq.shape[0] != n_units or flags.shape[0] != n_units or status.shape[0] != n_units
            or values.shape[0] != n_units or values.shape[1] < 2
            or stacking.shape[0] != n_units or hq_combat.shape[0] != n_units
            or panicking.shape[0] != n_units or no_trench.shape[0] != n_units):
        raise ValueError("the unit arrays need a row per unit (values two columns or more)")
    cdef Py_ssize_t j, u, c
    for j in range(k):
        u = units[j]
        if u < 0 or u >= n_units or unit_cell[u] < 0 or unit_cell[u] >= n:
            raise ValueError(f"unit {u} is not a unit on the map")
    cdef uint8_t* mark = <uint8_t*>malloc(n * (sizeof(uint8_t) + sizeof(int32_t)))
    if mark == NULL:
        raise MemoryError("no memory for the hexes' defenders")
    with nogil:
        hex_defenses_run(&units[0] if k else NULL, k, &unit_cell[0] if n_units else NULL,
                         &is_hq[0] if n_units else NULL, &flags[0] if n_units else NULL,
                         &status[0] if n_units else NULL,
                         &values[0, 0] if n_units else NULL,
                         values.strides[0] // <Py_ssize_t>sizeof(int16_t),
                         &stacking[0] if n_units else NULL, &hq_combat[0] if n_units else NULL,
                         &panicking[0] if n_units else NULL,
                         &no_trench[0] if n_units else NULL, &doubled[0] if n else NULL,
                         &trench[0] if n else NULL, &fortress[0] if n else NULL,
                         &within[0] if n else NULL, n, retreated_in, defended, entrained,
                         &total[0] if n else NULL, &attackable[0] if n else NULL, mark)
    free(mark)


cdef void hex_defenses_run(const int32_t* units, Py_ssize_t k, const int32_t* unit_cell,
                           const uint8_t* is_hq, const uint16_t* flags, const uint16_t* status,
                           const int16_t* values, Py_ssize_t v_cols, const int8_t* stacking,
                           const int16_t* hq_combat, const uint8_t* panicking,
                           const uint8_t* no_trench, const int8_t* doubled, const int8_t* trench,
                           const uint8_t* fortress, const uint8_t* within, Py_ssize_t n,
                           int retreated_in, int defended, int entrained, int32_t* total,
                           uint8_t* attackable, uint8_t* mark) noexcept nogil:
    # gwe_hex_defenses on checked arguments (play.pxd); mark: room for n bytes and n int32
    cdef int32_t* points = <int32_t*>(mark + n)
    cdef Py_ssize_t j, u, c
    cdef int d, times
    cdef bint counted
    for c in range(n):
        mark[c] = 0            # 1: a unit not retreated in; 2: a counted one; 4: defended
        points[c] = 0          # stacking points of the units not retreated in
        total[c] = 0
    for j in range(k):
        u = units[j]
        if not is_hq[u] and not (flags[u] & retreated_in):
            mark[unit_cell[u]] |= 1
            points[unit_cell[u]] += stacking[u]
    for j in range(k):
        u = units[j]
        c = unit_cell[u]
        if is_hq[u]:
            # 10.53: an HQ adds its Combat Strength with two stacking points of
            # defending units (8.66: not those retreated in), never halved (10.35)
            if points[c] >= 2:
                total[c] += <int32_t>hq_combat[u] << (doubled[c] + (
                    0 if no_trench[u] else trench[c]))
            continue
        # 8.66, 12.17: units retreated or withdrawn in are passengers, unless all are
        # (12.15: then those that have not defended yet count)
        if mark[c] & 1:
            counted = not (flags[u] & retreated_in)
        else:
            counted = not (flags[u] & defended)
        if not counted:
            continue
        mark[c] |= 2
        if flags[u] & defended:
            mark[c] |= 4
        d = 1 if panicking[u] else values[u * v_cols + 1]              # 23.11
        if status[u] & entrained:
            d = d // 2                                              # 5.36
        times = doubled[c] + (0 if no_trench[u] else trench[c])     # 5.4, 23.51
        total[c] += d << times
    for c in range(n):
        # 8.14: no counted defender has defended, the fortress not attacked (11.13)
        attackable[c] = 1 if (within[c] and not (mark[c] & 4) and fortress[c] != 2
                              and (mark[c] & 2 or fortress[c])) else 0


# --- The Great War in the East: a random player's command allocation (10.31, 10.32) -----------

def gwe_random_allocation(rng, const uint8_t[:, ::1] cover, const int32_t[::1] stacking,
                          int32_t[::1] left, int8_t[::1] status, int32_t[:, ::1] picks):
    """A random player's allocation of units to HQs in a Command Control Segment (10.31):
    each unit in turn, ``cover[j]`` the HQs whose radius holds unit ``j`` and that may
    command it; the options are those HQs with ``stacking[j]`` Command Strength ``left``,
    then "none", drawn as ``RandomPolicy`` would. Returns how many draws were made, each
    one's number of options and pick in a row of ``picks``. Same arguments and results as
    the twin (``gwe_fast._pure.play``)."""
    cdef Py_ssize_t k = cover.shape[0], h = cover.shape[1], draws
    if (stacking.shape[0] != k or status.shape[0] != k or picks.shape[0] < k
            or picks.shape[1] != 2 or left.shape[0] != h):
        raise ValueError("stacking, status and picks (two columns) need a row per unit, "
                         "left one per HQ")
    cdef bitgen_t* bg = _bitgen(rng)
    with rng.bit_generator.lock:
        draws = allocation_run(bg, &cover[0, 0] if k and h else NULL, k, h,
                               &stacking[0] if k else NULL, &left[0] if h else NULL,
                               &status[0] if k else NULL, &picks[0, 0] if k else NULL, NULL)
    return draws


cdef Py_ssize_t allocation_run(bitgen_t* bg, const uint8_t* cover, Py_ssize_t k,
                               Py_ssize_t h, const int32_t* stacking, int32_t* left,
                               int8_t* status, int32_t* picks,
                               const int32_t* plan) noexcept nogil:
    # gwe_random_allocation on checked arguments (play.pxd): cover[k, h], picks[k, 2]. With
    # plan (a ladder player, plan[k] an HQ's index or -1) each question is answered from it,
    # as PassivePolicy.on_command_allocate answers: the plan's HQ when it is offered, else
    # none; no draw, and picks (NULL then) is not written
    cdef Py_ssize_t j, i, n_opt, pick, draws = 0
    cdef int32_t sp
    for j in range(k):
        sp = stacking[j]
        n_opt = 1                                      # "none" is always an option
        for i in range(h):
            if cover[j * h + i] and left[i] >= sp:
                n_opt += 1
        for i in range(h):
            if cover[j * h + i]:
                break
        else:
            status[j] = _FAR                           # within no HQ's radius
            continue
        if n_opt == 1:
            status[j] = _UNALLOCATED                   # no HQ has the strength left
            continue
        draws += 1
        if plan != NULL:
            i = plan[j]
            if i >= 0 and cover[j * h + i] and left[i] >= sp:
                left[i] -= sp
                status[j] = _ALLOCATED
            else:
                status[j] = _UNALLOCATED
            continue
        pick = policy_draw(bg, n_opt)
        picks[2 * draws - 2] = <int32_t>n_opt
        picks[2 * draws - 1] = <int32_t>pick
        if pick == n_opt - 1:
            status[j] = _UNALLOCATED
            continue
        for i in range(h):
            if cover[j * h + i] and left[i] >= sp:
                if pick == 0:
                    left[i] -= sp
                    break
                pick -= 1
        status[j] = _ALLOCATED
    return draws


# --- The Kaiser's Battle: the attack obligations of a Combat Phase (8.11-8.13, 8.21) ---------

# --- the attack obligations of a Kaiser's Battle Combat Phase (8.11-8.13, 8.21) -----------

cdef int obl_alloc(Obl* o, Py_ssize_t n, Py_ssize_t cap) except -1:
    o.n, o.cap, o.k, o.n_o, o.n_m = n, cap, 0, 0, 0
    o.units = <int32_t*>malloc((11 * cap + 2 * n + 2) * sizeof(int32_t))
    o.sets = <int32_t*>malloc((63 * cap + 1) * 7 * sizeof(int32_t))
    o.member = <uint8_t*>malloc(cap + 1)
    if o.units == NULL or o.sets == NULL or o.member == NULL:
        obl_release(o)
        raise MemoryError("no memory for the obligations")
    o.adj = o.units + cap
    o.n_adj = o.adj + 6 * cap
    o.o_idx = o.n_adj + cap
    o.cand = o.o_idx + cap
    o.att = o.cand + cap
    o.m_cell = o.att + 6 * cap
    o.m_first = o.m_cell + n
    return 0


cdef void obl_release(Obl* o) noexcept nogil:
    free(o.units)
    free(o.sets)
    free(o.member)
    o.units = o.sets = NULL
    o.member = NULL


cdef void obl_build(Obl* o, const cell_t* nbr, const uint8_t* target, const int32_t* free_,
                    Py_ssize_t m, const int32_t* unit_cell, const uint8_t* obligated,
                    const int32_t* stacks, Py_ssize_t n_stacks) noexcept nogil:
    cdef Py_ssize_t j, d, i, u, c, a, e, pos = 0
    cdef int32_t row[6]
    o.k = 0
    for j in range(m):                       # the free units next to a target, their hexes
        u = free_[j]
        a = 0
        for d in range(6):
            c = nbr[6 * unit_cell[u] + d]
            if c >= 0 and target[c]:
                row[a] = <int32_t>c
                a += 1
        if not a:
            continue
        _sort_cells(row, a)
        o.units[o.k] = <int32_t>u
        o.n_adj[o.k] = <int32_t>a
        for i in range(6):
            o.adj[6 * o.k + i] = row[i] if i < a else -1
        o.k += 1
    o.n_o = 0
    for j in range(o.k):
        if obligated[o.units[j]]:
            o.o_idx[o.n_o] = <int32_t>j
            o.n_o += 1
    o.n_m = 0
    for i in range(n_stacks):
        c = stacks[i]
        if target[c]:
            o.m_cell[o.n_m] = <int32_t>c
            o.n_m += 1
    for i in range(o.n_m):                   # each obligated stack's attackers (a unit is
        o.m_first[i] = <int32_t>pos          # next to at most six: 6 k entries are room)
        for j in range(o.k):
            for e in range(o.n_adj[j]):
                if o.adj[6 * j + e] == o.m_cell[i]:
                    o.att[pos] = <int32_t>j
                    pos += 1
                    break
    o.m_first[o.n_m] = <int32_t>pos


# sets of hexes (at most six) and of units (a flag by unit index)

cdef bint _subset_of_d(const Obl* o, Py_ssize_t j, const int32_t* d, int nd) noexcept nogil:
    # adj of unit index j within d
    cdef int e, f
    for e in range(o.n_adj[j]):
        for f in range(nd):
            if d[f] == o.adj[6 * j + e]:
                break
        else:
            return False
    return True


cdef bint _holds_d(const Obl* o, Py_ssize_t j, const int32_t* d, int nd) noexcept nogil:
    # adj of unit index j holds all of d
    cdef int e, f
    for f in range(nd):
        for e in range(o.n_adj[j]):
            if d[f] == o.adj[6 * j + e]:
                break
        else:
            return False
    return True


cdef bint _feasible(const Obl* o, const uint8_t* member, const int32_t* d, int nd) noexcept nogil:
    # 8.11, 8.12: after this attack every obligated unit left can still attack a hex not in
    # d, and every obligated stack left not in d still has an attacker not in it
    cdef Py_ssize_t i, j, e
    cdef int f
    cdef bint found
    for i in range(o.n_o):
        j = o.o_idx[i]
        if not member[j] and _subset_of_d(o, j, d, nd):
            return False
    for i in range(o.n_m):
        for f in range(nd):
            if d[f] == o.m_cell[i]:
                break
        else:
            found = False
            for e in range(o.m_first[i], o.m_first[i + 1]):
                if not member[o.att[e]]:
                    found = True
                    break
            if not found:
                return False
    return True


cdef Py_ssize_t _index(const Obl* o, int32_t u) noexcept nogil:
    # the index of unit u among units (ascending), -1 if it is not next to a target
    cdef Py_ssize_t lo = 0, hi = o.k - 1, mid
    while lo <= hi:
        mid = (lo + hi) // 2
        if o.units[mid] == u:
            return mid
        if o.units[mid] < u:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


cdef bint _legal(const Obl* o, const int32_t* d, int nd, uint8_t* member) noexcept nogil:
    # 8.21: the compulsory members (obligated units all of whose targets d holds) next to all
    # of d and their attack feasible, or with none, some unit next to all of d feasible alone
    cdef Py_ssize_t i, j, n_comp = 0
    for j in range(o.k):
        member[j] = 0
    for i in range(o.n_o):
        j = o.o_idx[i]
        if _subset_of_d(o, j, d, nd):
            if o.n_adj[j] != nd:
                return False               # a compulsory member not next to all of d
            member[j] = 1
            n_comp += 1
    if not _feasible(o, member, d, nd):
        return False
    if n_comp:
        return True
    for j in range(o.k):
        if _holds_d(o, j, d, nd):
            member[j] = 1
            if _feasible(o, member, d, nd):
                member[j] = 0
                return True
            member[j] = 0
    return False


cdef Py_ssize_t obl_targets(Obl* o) noexcept nogil:
    # every set of hexes next to one unit, by size then hexes, once each; the legal ones kept
    cdef Py_ssize_t j, i, n_sets = 0, n_legal = 0
    cdef int a, mask, e, nd
    cdef int32_t* sets = o.sets
    for j in range(o.k):
        a = o.n_adj[j]
        for mask in range(1, 1 << a):
            nd = 0
            for e in range(a):
                if mask & (1 << e):
                    sets[7 * n_sets + 1 + nd] = o.adj[6 * j + e]
                    nd += 1
            for e in range(nd, 6):
                sets[7 * n_sets + 1 + e] = -1
            sets[7 * n_sets] = nd
            n_sets += 1
    qsort(sets, n_sets, 7 * sizeof(int32_t), _cmp_set)
    for i in range(n_sets):
        if i and memcmp(&sets[7 * i], &sets[7 * (i - 1)], 7 * sizeof(int32_t)) == 0:
            continue
        if _legal(o, &sets[7 * i + 1], sets[7 * i], o.member):
            if n_legal != i:
                memcpy(&sets[7 * n_legal], &sets[7 * i], 7 * sizeof(int32_t))
            n_legal += 1
    return n_legal


cdef Py_ssize_t obl_random_declare(Obl* o, bitgen_t* bg, int32_t* attackers, int32_t* d,
                                   int* nd, int32_t* draws, Py_ssize_t* n_draws) noexcept nogil:
    # RandomPolicy's declaration: a target among the legal ones (then "done" when nothing is
    # owed); the compulsory members; each other unit next to all of it in turn asked to join,
    # "yes" offered when the attack with it stays feasible, "no" when another may still make it
    cdef Py_ssize_t n_t = obl_targets(o), i, j, z, n_c = 0, n_members = 0
    cdef bint pending = o.n_o > 0 or o.n_m > 0, yes, no
    cdef int64_t n_opt = n_t + (0 if pending else 1), pick
    cdef uint8_t* member = o.member
    cdef int e
    n_draws[0] = 0
    if pending and n_t == 0:
        return OBL_STUCK
    if n_opt == 0:
        return OBL_STOP
    pick = policy_draw(bg, n_opt)
    if n_opt > 1:
        _log_draw(draws, n_draws, 0, n_opt, pick)
    if pick == n_t:
        return OBL_STOP
    nd[0] = o.sets[7 * pick]
    for e in range(nd[0]):
        d[e] = o.sets[7 * pick + 1 + e]
    for j in range(o.k):
        member[j] = 0
    for i in range(o.n_o):
        j = o.o_idx[i]
        if _subset_of_d(o, j, d, nd[0]):
            member[j] = 1
            n_members += 1
    for j in range(o.k):
        if not member[j] and _holds_d(o, j, d, nd[0]):
            o.cand[n_c] = <int32_t>j
            n_c += 1
    for i in range(n_c):
        j = o.cand[i]
        member[j] = 1
        yes = _feasible(o, member, d, nd[0])
        member[j] = 0
        no = n_members > 0
        if not no:
            for z in range(i + 1, n_c):
                member[o.cand[z]] = 1
                no = _feasible(o, member, d, nd[0])
                member[o.cand[z]] = 0
                if no:
                    break
        if yes and no:
            pick = policy_draw(bg, 2)
            _log_draw(draws, n_draws, 1, 2, pick)
            if pick == 0:
                member[j] = 1
                n_members += 1
        elif yes:
            member[j] = 1
            n_members += 1
        elif not no:
            return OBL_NEITHER
    n_members = 0
    for j in range(o.k):
        if member[j]:
            attackers[n_members] = o.units[j]
            n_members += 1
    return n_members


cdef inline void _log_draw(int32_t* draws, Py_ssize_t* n_draws, int kind, int64_t n,
                           int64_t pick) noexcept nogil:
    if draws != NULL:
        draws[3 * n_draws[0]] = kind
        draws[3 * n_draws[0] + 1] = <int32_t>n
        draws[3 * n_draws[0] + 2] = <int32_t>pick
    n_draws[0] += 1


cdef class KbObligations:
    """The attack obligations of one position of a Kaiser's Battle Combat Phase and the
    declarations they allow (8.11, 8.12, 8.13, 8.21): the free attackers next to each target
    hex, the obligated units and stacks left, the legal targets, and for a random player a
    whole declaration drawn as ``RandomPolicy`` would. Same arguments, methods and answers as
    the twin (``gwe_fast._pure.play.KbObligations``); the rules are the ``obl_`` functions,
    which the Kaiser's Battle core plays on directly."""
    cdef Obl o

    def __cinit__(self, const cell_t[:, ::1] neighbors, const uint8_t[::1] target,
                  const int32_t[::1] free, const int32_t[::1] unit_cell,
                  const uint8_t[::1] obligated, const uint8_t[::1] stacks):
        cdef Py_ssize_t n = neighbors.shape[0], m = free.shape[0], j
        if neighbors.shape[1] != 6 or target.shape[0] != n or stacks.shape[0] != n:
            raise ValueError("neighbors, target and stacks must cover the map")
        if obligated.shape[0] != unit_cell.shape[0]:
            raise ValueError("obligated needs a row per unit")
        for j in range(m):
            if (free[j] < 0 or free[j] >= unit_cell.shape[0] or unit_cell[free[j]] < 0
                    or unit_cell[free[j]] >= n):
                raise ValueError(f"unit {free[j]} is not a unit on the map")
            if j and free[j] <= free[j - 1]:
                raise ValueError("free units must be ascending")
        obl_alloc(&self.o, n, m)
        cdef Py_ssize_t c, n_stacks = 0
        for c in range(n):       # the stacks as a list, ascending, in m_cell (obl_build keeps
                                 # those of them that are targets, in place)
            if stacks[c]:
                self.o.m_cell[n_stacks] = <int32_t>c
                n_stacks += 1
        obl_build(&self.o, &neighbors[0, 0] if n else NULL, &target[0] if n else NULL,
                  &free[0] if m else NULL, m, &unit_cell[0] if unit_cell.shape[0] else NULL,
                  &obligated[0] if obligated.shape[0] else NULL, self.o.m_cell, n_stacks)

    def __dealloc__(self):
        obl_release(&self.o)

    cdef int _d_of(self, object cells, int32_t* d) except -1:
        cdef int nd = 0
        for c in sorted(set(int(x) for x in cells)):
            if nd == 6:
                raise ValueError("a target is at most six hexes")
            d[nd] = <int32_t>c
            nd += 1
        return nd

    # -- the questions ---------------------------------------------------------------------

    def attackers(self):
        """The free units next to a target hex, ascending."""
        return [int(self.o.units[j]) for j in range(self.o.k)]

    @property
    def o_left(self):
        """The obligated units that must still attack, ascending."""
        return [int(self.o.units[self.o.o_idx[i]]) for i in range(self.o.n_o)]

    @property
    def m_left(self):
        """The obligated enemy stacks still to be attacked, ascending."""
        return [int(self.o.m_cell[i]) for i in range(self.o.n_m)]

    def adj(self, int unit):
        """The target hexes next to ``unit``, ascending (empty for others)."""
        cdef Py_ssize_t j = _index(&self.o, unit)
        return [] if j < 0 else [int(self.o.adj[6 * j + e]) for e in range(self.o.n_adj[j])]

    def pending(self):
        return bool(self.o.n_o or self.o.n_m)

    def feasible(self, members, cells):
        """Whether an attack on ``cells`` by ``members`` leaves every obligation possible."""
        cdef int32_t d[6]
        cdef int nd = self._d_of(cells, d)
        cdef Py_ssize_t j
        for j in range(self.o.k):
            self.o.member[j] = 0
        for x in members:
            j = _index(&self.o, int(x))
            if j >= 0:
                self.o.member[j] = 1
        return bool(_feasible(&self.o, self.o.member, d, nd))

    def compulsory(self, cells):
        """The obligated units left whose every target hex is in ``cells``, ascending."""
        cdef int32_t d[6]
        cdef int nd = self._d_of(cells, d)
        cdef Py_ssize_t i
        return [int(self.o.units[self.o.o_idx[i]]) for i in range(self.o.n_o)
                if _subset_of_d(&self.o, self.o.o_idx[i], d, nd)]

    def candidates(self, cells, exclude=()):
        """The units next to every hex of ``cells``, ascending, but those of ``exclude``."""
        cdef int32_t d[6]
        cdef int nd = self._d_of(cells, d)
        cdef Py_ssize_t j
        ex = set(int(x) for x in exclude)
        return [int(self.o.units[j]) for j in range(self.o.k)
                if _holds_d(&self.o, j, d, nd) and int(self.o.units[j]) not in ex]

    def _sets(self, Py_ssize_t n_t):
        return [tuple(int(self.o.sets[7 * i + 1 + e]) for e in range(self.o.sets[7 * i]))
                for i in range(n_t)]

    def targets(self):
        """The legal targets: every set of hexes next to one unit that an attack may take
        on now (8.21), by size then hexes."""
        return self._sets(obl_targets(&self.o))

    def random_declare(self, rng):
        """A random player's next declaration, drawn as ``RandomPolicy`` would from
        ``rng``: ``(attack, draws)``, the attack ``(attackers, cells)`` (ascending) or None
        when the player stops, and each draw as ``(decision, options, pick)``, ``decision``
        0 for the target (``kb.combat.target``) and 1 for a unit joining
        (``kb.combat.join``)."""
        cdef bitgen_t* bg = _bitgen(rng)
        cdef int32_t d[6]
        cdef int nd = 0
        cdef Py_ssize_t n_draws = 0, n_att, i
        cdef int32_t* buf = <int32_t*>malloc((4 * self.o.k + 8) * sizeof(int32_t))
        if buf == NULL:
            raise MemoryError("no memory for a declaration")
        try:
            with rng.bit_generator.lock:
                n_att = obl_random_declare(&self.o, bg, buf, d, &nd, buf + self.o.k + 1,
                                           &n_draws)
            draws = [(int(buf[self.o.k + 1 + 3 * i]), int(buf[self.o.k + 2 + 3 * i]),
                      int(buf[self.o.k + 3 + 3 * i])) for i in range(n_draws)]
            if n_att == OBL_STUCK:
                raise RuntimeError(f"combat obligations left that no attack can meet: units "
                                   f"{self.o_left}, stacks {self.m_left}")
            if n_att == OBL_NEITHER:
                raise RuntimeError("a unit that may neither join nor stay out")
            if n_att == OBL_STOP:
                return None, draws
            return ([int(buf[i]) for i in range(n_att)],
                    tuple(int(d[e]) for e in range(nd))), draws
        finally:
            free(buf)


cdef int _cmp_set(const void* a, const void* b) noexcept nogil:
    # by size, then hexes
    cdef const int32_t* x = <const int32_t*>a
    cdef const int32_t* y = <const int32_t*>b
    cdef int i
    for i in range(7):
        if x[i] != y[i]:
            return -1 if x[i] < y[i] else 1
    return 0
