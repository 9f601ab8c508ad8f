# cython: language_level=3
"""Parts of the turn loop played whole in compiled code.

* ``draws``: what ``Generator.integers(n)`` gives for each ``n`` in turn (one draw each; none
  for ``n == 1``, as ``PlayedGame.ask`` asks nobody when there is one option);
* ``kb_random_moves``: a Movement Segment of The Kaiser's Battle (5.0) whose player picks at
  random (``RandomPolicy``): the units offered one at a time, each one's moves, the draws of
  the player's generator in the engine's order, and the moves made.

The draws are numpy's own (``random_bounded_uint64`` of its C library, on the generator's
``bitgen_t``), so a game played here and one played by the Python loop read the same numbers
from the same generator. A segment runs without the GIL once its arguments are checked
(holding the generator's lock), so games in other threads go on meanwhile; each thread needs
a workspace of its own (``kernels.workspace``). Same arguments and results as the
pure-Python twin ``gwe_fast._pure.play``.
"""

import numpy as np
cimport numpy as cnp
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport free, malloc
from numpy.random cimport bitgen_t

from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t
from gwe_fast._core.search cimport SearchWorkspace

cnp.import_array()

cdef extern from "numpy/random/distributions.h":
    uint64_t random_bounded_uint64(bitgen_t *bitgen_state, uint64_t off, uint64_t rng,
                                   uint64_t mask, bint use_masked) nogil

cdef enum:
    _STOPPED = 0
    _EXITING = 1
    _STAY = 0
    _MOVE = 1
    _EXIT = 2
    _LOG_COLUMNS = 7

STOPPED, EXITING = _STOPPED, _EXITING
STAY, MOVE, EXIT = _STAY, _MOVE, _EXIT
LOG_COLUMNS = _LOG_COLUMNS


cdef bitgen_t* _bitgen(object rng) except NULL:
    # the generator's bit generator, through the capsule numpy hands out for this
    capsule = rng.bit_generator.capsule
    return <bitgen_t*>PyCapsule_GetPointer(capsule, "BitGenerator")


cdef inline int64_t _draw(bitgen_t* bg, int64_t n) noexcept nogil:
    # Generator.integers(n) (int64, Lemire's method without the mask), none for one option
    if n <= 1:
        return 0
    return <int64_t>random_bounded_uint64(bg, 0, <uint64_t>(n - 1), 0, 0)


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
            o[i] = _draw(bg, n_v[i])
    return out


cdef cell_t _nth_smallest(cell_t* a, Py_ssize_t n, Py_ssize_t k) noexcept nogil:
    # the k-th smallest (from 0) of n distinct cells, by selection (Hoare's partition around
    # the middle element): the same answer as sorting and reading a[k], in linear time on
    # average; a is reordered
    cdef Py_ssize_t lo = 0, hi = n - 1, i, j
    cdef cell_t pivot, t
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
    cdef dist_t ma, extra, dc
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
                pick = _draw(bg, m + 1)
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
                    # 5.15: one hex always (steps the search did not reach)
                    n_ov = 0
                    for d in range(6):
                        w = nb[6 * here + d]
                        if w >= 0 and tab[6 * here + d] >= 0 and ws.dist_at(w) < 0:
                            ov_cell[n_ov] = w
                            ov_dist[n_ov] = tab[6 * here + d]
                            n_ov += 1
                finally:
                    for d in range(6):
                        tab[6 * here + d] = row[d]
                    stop[here] = ezoc[here]

                # the options, in the engine's order: stay, the hexes in cell order (the one
                # drawn found by selection), exits
                n_moves = 0
                for i in range(ws.buf.n_touched):
                    s = ws.buf.touched[i]
                    if s != here and ws.dist_at(s) > 0:
                        moves[n_moves] = <cell_t>s
                        n_moves += 1
                for i in range(n_ov):
                    if ov_dist[i] > 0:
                        moves[n_moves] = ov_cell[i]
                        n_moves += 1
                n_out = 0
                for d in range(n_exits):         # 20.2 (movement.exit_costs)
                    s = exits[d]
                    dc = ws.dist_at(s)
                    for i in range(n_ov):
                        if ov_cell[i] == s:
                            dc = ov_dist[i]
                    if dc < 0:
                        continue
                    extra = enter[s]
                    if ezoc[s]:
                        if s != here or second:
                            continue
                        extra += ma // 2
                    if dc + extra <= ma:
                        outs[n_out] = <cell_t>s
                        n_out += 1
                n_options = 1 + n_moves + n_out
                to = _draw(bg, n_options)
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
                s = dest
                while s >= 0 and s != here:
                    hex_last[s] = <int8_t>side
                    w = ws.pred_at(s)
                    for i in range(n_ov):                   # a 5.15 step: from the start
                        if ov_cell[i] == s:
                            w = <cell_t>here
                    s = w
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
