# cython: language_level=3
"""Breadth-first search on bitboards, for the searches whose every step costs 1: the sets of
cells reached level by level, each level made with a few dozen word operations instead of a
visit to each cell.

A set of cells is a bitboard, cell ``c`` bit ``c & 63`` of word ``c >> 6``. On a map stored as
a full rectangle, column by column, a step in one direction moves the cell index by one of at
most two amounts (the columns' parity decides which for the diagonal directions), so all the
steps of a table fall into a few groups by ``v - u`` (eight on a rectangle: the two parities'
diagonals share two amounts). ``StepBits`` keeps, for each amount, the set of cells whose step
by it the table allows; one level of a search is then, for each amount, the frontier masked by
that set and shifted by the amount. Nothing is assumed of the map's shape: the groups come
from the neighbour table itself, and a table of more than ``BITS_MAX_SHIFTS`` groups is marked
unusable (the caller searches the usual way, ``search.SearchWorkspace``).

What a level-by-level search tells is which cells lie within each number of steps: the costs
of Dial's algorithm when every step costs 1, not its predecessors. With tolls (a supply line
through enemy zones of control, 9.14) it tells, for each number of tokens ``t``, the cells a
path paying at most ``t`` reaches within each number of steps: Dial's layers hold the cells
reached paying exactly ``t`` that no path paying fewer reaches as cheaply, so the cells a
layer ``l <= t`` of Dial's reaches within ``d`` are those of this set (see bits_levels).
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from gwe_fast._core._types cimport cell_t, dist_t, stepcost_t

cnp.import_array()


cdef int stepbits_build(StepBits* S, const cell_t* nbr, const stepcost_t* steps,
                        Py_ssize_t n) except -1 nogil:
    # the table's allowed steps grouped by v - u; S must be empty (mask NULL) or freed
    cdef Py_ssize_t nw = (n + 63) >> 6, u, d, i, k, q
    cdef cell_t v
    cdef stepcost_t w
    S.n = n
    S.nw = nw
    S.n_shifts = 0
    S.usable = True
    S.unit = True
    S.pad = 1
    S.mask = <uint64_t*>calloc(BITS_MAX_SHIFTS * nw + 1, sizeof(uint64_t))
    if S.mask == NULL:
        with gil:
            raise MemoryError(f"no memory for the bitboards of a {n}-cell step table")
    for u in range(n):
        for d in range(6):
            v = nbr[6 * u + d]
            w = steps[6 * u + d]
            if v < 0 or w < 0:
                continue
            if w != 1:
                S.unit = False
            k = <Py_ssize_t>v - u
            for i in range(S.n_shifts):
                if S.shift[i] == k:
                    break
            else:
                if S.n_shifts == BITS_MAX_SHIFTS:
                    S.usable = False
                    continue
                i = S.n_shifts
                S.shift[i] = k
                S.n_shifts += 1
            S.mask[(u >> 6) * BITS_MAX_SHIFTS + i] |= (<uint64_t>1) << (u & 63)
    for i in range(S.n_shifts):
        # bit c of word w goes to bit c + k: to word w + (k >> 6) shifted left by k & 63, and
        # what overflows to the word after (the shift rounded down, so for k < 0 too)
        S.word[i] = S.shift[i] >> 6
        S.bit[i] = S.shift[i] & 63
        q = (S.shift[i] if S.shift[i] >= 0 else -S.shift[i]) >> 6
        if q + 1 > S.pad:
            S.pad = q + 1
    return 0


cdef int stepbits_build_back(StepBits* S, const cell_t* nbr, const stepcost_t* steps,
                             Py_ssize_t n) except -1 nogil:
    # the table's steps taken backward: cell x's step d is allowed when its neighbour p that
    # way may step into x, which is p's step (d + 3) % 6 on a neighbour table that leads back
    # (hexgrid); for a search that walks a line from its end to its start
    cdef stepcost_t* back = <stepcost_t*>malloc((6 * n + 1) * sizeof(stepcost_t))
    cdef Py_ssize_t x, d
    cdef cell_t p
    if back == NULL:
        with gil:
            raise MemoryError(f"no memory for the bitboards of a {n}-cell step table")
    for x in range(n):
        for d in range(6):
            p = nbr[6 * x + d]
            back[6 * x + d] = steps[6 * <Py_ssize_t>p + (d + 3) % 6] if p >= 0 else -1
    try:
        stepbits_build(S, nbr, back, n)
    finally:
        free(back)
    return 0


cdef void stepbits_free(StepBits* S) noexcept nogil:
    free(S.mask)
    S.mask = NULL
    S.n_shifts = 0
    S.usable = False


cdef void bits_spread(const StepBits* S, const uint64_t* src, Py_ssize_t lo, Py_ssize_t hi,
                      uint64_t* out) noexcept nogil:
    # Each group's cells of src shifted by its amount, a word of src at a time (a frontier is
    # often a few cells far apart: its empty words are skipped once, not once a group). A
    # step's target is on the map, so a bit never lands beyond the set: the words a shift
    # writes past either end (at most pad of them) only ever get zeros. The word after gets
    # x >> (64 - bit) written as (x >> 1) >> (63 - bit), 0 for bit 0 (a shift by 64 is not C).
    cdef Py_ssize_t i, w, ns = S.n_shifts
    cdef const uint64_t* m
    cdef uint64_t x0, x
    cdef int b
    for w in range(lo, hi):
        x0 = src[w]
        if x0 == 0:
            continue
        m = S.mask + w * BITS_MAX_SHIFTS
        for i in range(ns):
            x = x0 & m[i]
            b = S.bit[i]
            out[w + S.word[i]] |= x << b
            out[w + S.word[i] + 1] |= (x >> 1) >> (63 - b)


cdef void bits_read_by(const StepBits* S, const uint64_t* reached, uint64_t* read,
                       uint64_t* work) noexcept nogil:
    # each level's candidates are the last level's cells spread one step: all of them lie in
    # the set reached spread one step (a search that keeps the set it reached with its within
    # set on these cells gives the same set again while they are unchanged)
    cdef Py_ssize_t w, nw = S.nw, pad = S.pad
    memset(work, 0, (nw + 2 * pad) * sizeof(uint64_t))
    bits_spread(S, reached, 0, nw, work + pad)
    for w in range(nw):
        read[w] = reached[w] | work[pad + w]


cdef void bits_fill(const StepBits* S, const uint64_t* sources, const uint64_t* within,
                    const uint64_t* stop, Py_ssize_t levels, uint64_t* seen,
                    uint64_t* work) noexcept nogil:
    _fill(S, sources, within, stop, levels, seen, work, NULL)


cdef void bits_distances(const StepBits* S, const uint64_t* sources, const uint64_t* within,
                         dist_t* dist, uint64_t* work) noexcept nogil:
    # bits_fill's levels, with no limit and no stop cells, each cell first reached at level
    # d given d: its distance, as a breadth-first search on a queue would give it
    memset(dist, 0xFF, S.n * sizeof(dist_t))      # every byte 0xFF: -1
    _fill(S, sources, within, NULL, -1, work, work + S.nw, dist)


cdef inline void _mark_level(uint64_t f, Py_ssize_t w, dist_t d, dist_t* dist) noexcept nogil:
    # dist[c] = d for each cell c of word w of a set (f)
    while f:
        dist[(w << 6) + __builtin_ctzll(f)] = d
        f &= f - 1


cdef void _fill(const StepBits* S, const uint64_t* sources, const uint64_t* within,
                const uint64_t* stop, Py_ssize_t levels, uint64_t* seen, uint64_t* work,
                dist_t* dist) noexcept nogil:
    # breadth first, level by level: the frontier (the cells first reached at the last level,
    # less the stop cells; all the sources at first) spread one step, kept where within and
    # not seen; with dist, each cell reached given its level. The words a level can touch are
    # those of the frontier widened by pad each side.
    cdef Py_ssize_t nw = S.nw, pad = S.pad, w, lo = nw, hi = 0, a, b
    cdef uint64_t* front = work
    cdef uint64_t* nxt = work + nw + pad      # pad spare words each side
    cdef uint64_t f
    cdef dist_t d = 0
    for w in range(nw):
        f = sources[w]
        seen[w] = f
        front[w] = f
        if f:
            if w < lo:
                lo = w
            hi = w + 1
            if dist != NULL:
                _mark_level(f, w, 0, dist)
    while lo < hi and levels != 0:
        levels -= 1
        d += 1
        a = lo - pad
        b = hi + pad
        memset(nxt + a, 0, (b - a) * sizeof(uint64_t))
        bits_spread(S, front, lo, hi, nxt)
        if a < 0:
            a = 0
        if b > nw:
            b = nw
        lo = nw
        hi = 0
        for w in range(a, b):
            f = nxt[w] & within[w] & ~seen[w]
            seen[w] |= f
            if dist != NULL:
                _mark_level(f, w, d, dist)
            if stop != NULL:
                f &= ~stop[w]
            front[w] = f
            if f:
                if w < lo:
                    lo = w
                hi = w + 1


cdef Py_ssize_t bits_levels(const StepBits* S, const uint64_t* sources, const uint64_t* stop,
                            const uint64_t* toll, int max_toll, Py_ssize_t levels,
                            uint64_t* reach, uint64_t* work) noexcept nogil:
    # The sets A(d, t) (reached within d steps paying at most t tokens), for t = 0 .. max_toll:
    #   A(0, t) = the sources;
    #   A(d + 1, t) = A(d, t) | A(d + 1, t - 1) | one step from the cells of A(d, t) left
    #                 without a toll | one step from the toll cells of A(d, t - 1),
    # a cell "left" when it is not a stop cell or is a source (Dial's rule: a source is always
    # expanded; a source in a toll cell pays on leaving it, as toll_on_exit says). Only a
    # level's frontier is spread: the cells new in A(d + 1, t) that A(d + 1, t - 1) does not
    # hold (a cell reached paying fewer tokens has already been spread, at t - 1 or below, and
    # what its steps reach there is in A(., t) too). Max_toll < BITS_MAX_TOKENS.
    cdef Py_ssize_t nw = S.nw, pad = S.pad, stride = nw + 2 * pad, w, d = 0, lo, hi
    cdef int T = max_toll + 1, t
    cdef uint64_t* F = work                       # [T, nw] the frontiers
    cdef uint64_t* X = work + T * nw              # [T, stride] what they reach, padded
    cdef uint64_t* go = X + T * stride            # the cells a path may leave
    cdef uint64_t* ep = go + nw                   # a frontier's cells left without a toll
    cdef uint64_t* et = ep + nw                   # and with one
    cdef uint64_t* prev
    cdef uint64_t* cur
    cdef uint64_t a, f, below, e
    cdef Py_ssize_t flo[BITS_MAX_TOKENS + 1]
    cdef Py_ssize_t fhi[BITS_MAX_TOKENS + 1]
    cdef bint grew
    lo = nw
    hi = 0
    for w in range(nw):
        go[w] = ~stop[w] | sources[w]
        F[w] = sources[w]
        for t in range(T):
            reach[t * nw + w] = sources[w]
        if sources[w]:
            if w < lo:
                lo = w
            hi = w + 1
    flo[0] = lo
    fhi[0] = hi
    for t in range(1, T):
        flo[t] = nw
        fhi[t] = 0
    while d < levels:
        memset(X, 0, T * stride * sizeof(uint64_t))
        for t in range(T):
            lo = flo[t]
            hi = fhi[t]
            if lo >= hi:
                continue
            for w in range(lo, hi):
                e = F[t * nw + w] & go[w]
                ep[w] = e & ~toll[w]
                et[w] = e & toll[w]
            bits_spread(S, ep, lo, hi, X + t * stride + pad)
            if t + 1 < T:
                bits_spread(S, et, lo, hi, X + (t + 1) * stride + pad)
        prev = reach + d * T * nw
        cur = prev + T * nw
        grew = False
        for t in range(T):
            lo = nw
            hi = 0
            for w in range(nw):
                a = prev[t * nw + w] | X[t * stride + pad + w]
                if t > 0:
                    below = cur[(t - 1) * nw + w]
                    a |= below
                    f = a & ~prev[t * nw + w] & ~below
                else:
                    f = a & ~prev[w]
                cur[t * nw + w] = a
                F[t * nw + w] = f
                if f:
                    if w < lo:
                        lo = w
                    hi = w + 1
            flo[t] = lo
            fhi[t] = hi
            if lo < hi:
                grew = True
        if not grew:
            return d    # A(d + 1) = A(d): so are all the levels after
        d += 1
    return d


# ---------------------------------------------------------------------------------------------
# The Python face

cdef class StepSets:
    """A step table as bitboards (``StepBits``), made once and kept with a scenario's tables.

    Parameters
    ----------
    neighbors : int32[n, 6]
        The neighbour table, -1 off the map.
    steps : int16[n, 6]
        The step table: a step is allowed where it is not negative.
    backward : bool
        Take the steps backward: ``x``'s step ``d`` allowed when its neighbour that way may
        step into ``x`` (a neighbour table that leads back), for walking lines from their
        ends.

    Examples
    --------
    >>> from gwe_fast import HexMap
    >>> m = HexMap((1, 1), (1, 4))          # one column: 0101 .. 0104
    >>> cost = np.where(m.neighbors >= 0, 1, -1).astype(np.int16)
    >>> s = StepSets(m.neighbors, cost)
    >>> s.usable, s.unit, s.shifts
    (True, True, [-1, 1])
    >>> s.reach([0], limit=5)[:, 0]           # the cells within 0, 1, 2, 3 steps of 0101
    array([[1, 0, 0, 0],
           [1, 1, 0, 0],
           [1, 1, 1, 0],
           [1, 1, 1, 1]], dtype=uint8)
    """

    def __cinit__(self, neighbors, steps, bint backward=False):
        nb = np.ascontiguousarray(neighbors, dtype=np.int32)
        st = np.ascontiguousarray(steps, dtype=np.int16)
        if nb.ndim != 2 or nb.shape[1] != 6 or st.shape != nb.shape:
            raise ValueError("neighbors and steps must both have shape (n, 6)")
        cdef Py_ssize_t n = nb.shape[0]
        if nb.size and (nb.min() < -1 or nb.max() >= n):
            raise ValueError(f"neighbors must hold cells 0..{n - 1}, or -1 for no cell")
        self.b.mask = NULL
        if backward:
            stepbits_build_back(&self.b, <const cell_t*>cnp.PyArray_DATA(<cnp.ndarray>nb),
                                <const stepcost_t*>cnp.PyArray_DATA(<cnp.ndarray>st), n)
        else:
            stepbits_build(&self.b, <const cell_t*>cnp.PyArray_DATA(<cnp.ndarray>nb),
                           <const stepcost_t*>cnp.PyArray_DATA(<cnp.ndarray>st), n)

    def __dealloc__(self):
        stepbits_free(&self.b)

    @property
    def usable(self):
        """Whether the table's steps fit in ``BITS_MAX_SHIFTS`` shifts."""
        return bool(self.b.usable)

    @property
    def unit(self):
        """Whether every step allowed costs 1."""
        return bool(self.b.unit)

    @property
    def shifts(self):
        """The amounts (``v - u``) the steps move a cell's index by, ascending."""
        return sorted(self.b.shift[i] for i in range(self.b.n_shifts))

    def distances(self, sources, within=None):
        """The steps from the nearest source to each cell, a path entering only cells of
        ``within`` (None: any), on a table whose every allowed step costs 1: ``int32[n]``,
        -1 where no path reaches (``bits_distances``)."""
        if not self.b.usable or not self.b.unit:
            raise ValueError("distances need a table of steps of cost 1, in few kinds")
        cdef Py_ssize_t n = self.b.n, nw = self.b.nw
        words = np.zeros((2, nw * 64), dtype=np.uint8)
        src = np.asarray(sources, dtype=np.int64)
        if src.size and (src.min() < 0 or src.max() >= n):
            raise ValueError("a source is off the map")
        words[0, src] = 1
        words[1, :n] = 1 if within is None else np.asarray(within, dtype=bool)
        packed = np.ascontiguousarray(
            np.packbits(words, axis=1, bitorder="little").view(np.uint64))
        out = np.empty(n + 1, dtype=np.int32)
        work = np.zeros(bits_distances_work(&self.b), dtype=np.uint64)
        cdef uint64_t[:, ::1] pk = packed
        cdef dist_t[::1] dv = out
        cdef uint64_t[::1] wk = work
        bits_distances(&self.b, &pk[0, 0], &pk[1, 0], &dv[0], &wk[0])
        return out[:n]

    def reach(self, sources, limit, stop=None, toll=None, max_toll=0):
        """The cells reached within each number of steps up to ``limit``, for each number of
        tokens paid up to ``max_toll`` (tolls paid on leaving a cell, one a toll cell; stop
        cells entered but not left unless they are sources): ``uint8[levels, max_toll + 1,
        n]``, ``levels`` at most ``limit + 1`` (fewer when the last adds nothing)."""
        if not self.b.usable:
            raise ValueError("this table has too many kinds of step for bitboards")
        if not 0 <= max_toll < BITS_MAX_TOKENS:
            raise ValueError(f"max_toll must be 0 to {BITS_MAX_TOKENS - 1}")
        if limit < 0:
            raise ValueError("limit must be >= 0")
        cdef Py_ssize_t n = self.b.n, nw = self.b.nw, T = max_toll + 1, d, last
        limit = min(limit, T * n)
        words = np.zeros((4, nw * 64), dtype=np.uint8)
        src = np.asarray(sources, dtype=np.int64)
        if src.size and (src.min() < 0 or src.max() >= n):
            raise ValueError("a source is off the map")
        words[0, src] = 1
        if stop is not None:
            words[1, :n] = np.asarray(stop, dtype=bool)
        if toll is not None:
            words[2, :n] = np.asarray(toll, dtype=bool)
        packed = np.ascontiguousarray(
            np.packbits(words, axis=1, bitorder="little").view(np.uint64))
        reach = np.zeros(((limit + 1) * T, nw), dtype=np.uint64)
        work = np.zeros(bits_levels_work(&self.b, max_toll), dtype=np.uint64)
        cdef uint64_t[:, ::1] pk = packed
        cdef uint64_t[:, ::1] rc = reach
        cdef uint64_t[::1] wk = work
        last = bits_levels(&self.b, &pk[0, 0], &pk[1, 0], &pk[2, 0], max_toll, limit,
                           &rc[0, 0], &wk[0])
        out = np.unpackbits(reach[:(last + 1) * T].view(np.uint8), axis=1, bitorder="little")
        return out[:, :n].reshape(last + 1, T, n)
