# cython: language_level=3
"""One bounded multi-source search for movement, supply, command radius, retreat and
"surrounded" checks: Dial's algorithm (a bucket queue for small integer step costs).

The rules differ only in the arrays they pass:

* ``step_cost[u, d]``: the cost of stepping from cell ``u`` to ``neighbors[u, d]``, negative
  for a step that is not allowed (blocked hexside, enemy unit, prohibited terrain …).
* ``stop[v]``: a cell that may be entered but not left (a zone of control that ends movement).
  Sources are always expanded.
* ``toll[v]`` and ``max_toll``: entering ``v`` uses ``toll[v]`` tokens and a path may use at
  most ``max_toll`` (a supply line through at most two enemy-controlled hexes, 9.14). The
  search runs over states ``(cell, tokens used)``; the result has one layer per token count.
  A state is kept only when no state of the same cell with as few tokens is as cheap, so a
  cell's entries across layers always trade cost against tokens.
* ``toll_on_exit``: charge a cell's tokens when the path leaves it rather than enters it, for
  lines traced backwards from their sources (a supply line counts the source's hex, not the
  unit's own).
* ``limit``: the largest total cost kept (``dijkstra(limit=)``); negative for none.

Two speeds of API. ``bounded_search`` is a function that allocates its results.
``SearchWorkspace`` owns the buffers of one map and reuses them from search to search:
generation stamps mark which entries belong to the current search, so a new search clears
nothing of the map's size. Its ``search`` method (``search.pxd``) runs without the GIL for
compiled callers, who read single states with ``dist_at``/``pred_at``; ``run`` is its Python
face, which also copies the result into dense arrays.

When every source starts at the same cost, the search first walks breadth-first, using the
list of reached states as its queue: while every step it reads costs 1 (or is refused) that is
Dial's algorithm exactly, without the bucket queue (a supply line that counts hexes, 14.12, is
such a search: about half the time of the general one). With tolls the walk is over the
states (tokens, cell) and keeps _step's rule for them. At the first step of another cost the
walk hands over to Dial's algorithm where it stands: what it settled stays settled, what it
queued is put in the buckets in its order. Sources already in cell order are not sorted again.

The pure-Python twin, ``gwe_fast._pure.search``, follows the same steps in the same order (it
always runs Dial's algorithm, which settles the states of a unit-step search in the order the
walk does), so both give identical distances *and* predecessors.
"""

import numpy as np
cimport numpy as cnp
from libc.stdint cimport INT32_MAX, INT32_MIN, int32_t, uint16_t, uint32_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memset

from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t

cnp.import_array()

cdef enum:
    RING0 = 16    # buckets of a new ring (a power of two); it doubles when a step or the
                  # spread of the source costs needs more
    SHORT = 32    # a list or tuple of at most this many sources is read without numpy


# ---------------------------------------------------------------------------------------------
# The bucket queue

cdef cell_t* _new_ring(Py_ssize_t nb) noexcept nogil:
    # nb empty buckets (head and tail -1), or NULL when out of memory
    cdef cell_t* block = <cell_t*>malloc(2 * nb * sizeof(cell_t))
    if block != NULL:
        memset(block, 0xFF, 2 * nb * sizeof(cell_t))   # every byte 0xFF: every entry -1
    return block


cdef int _ring_fit(SearchBuffers* B, Py_ssize_t span, dist_t cur) except -1 nogil:
    # make the ring hold costs cur .. cur + span. Its size is a power of two (a bucket is a
    # cost & (nb - 1)). The pending entries all cost cur .. cur + nb - 1, one cost per bucket,
    # so each list moves whole to the bucket of its cost and keeps its order: the ring size
    # never changes which state is settled when.
    if span < B.nb:
        return 0
    cdef Py_ssize_t old_nb = B.nb, nb = 2 * B.nb, ob, c
    cdef cell_t* old = B.head
    cdef cell_t* old_tail = B.tail
    while nb <= span:
        nb *= 2
    cdef cell_t* ring = _new_ring(nb)
    if ring == NULL:
        memset(old, 0xFF, 2 * old_nb * sizeof(cell_t))  # leave an empty ring for the next search
        with gil:
            raise MemoryError("no memory for the search queue")
    for ob in range(old_nb):
        if old[ob] >= 0:
            c = cur + ((ob - cur) & (old_nb - 1))
            ring[c & (nb - 1)] = old[ob]
            ring[nb + (c & (nb - 1))] = old_tail[ob]
    free(old)
    B.head = ring
    B.tail = ring + nb
    B.nb = nb
    return 0


cdef inline void _push(SearchBuffers* B, cell_t state, dist_t cost, Py_ssize_t e) noexcept nogil:
    # append pool entry e (holding state) to the tail of the bucket of cost: buckets are FIFO
    # (used for the sources; _step does the same on _dial's local copies of the pointers)
    cdef Py_ssize_t b = cost & (B.nb - 1)
    B.pool_cell[e] = state
    B.pool_next[e] = -1
    if B.tail[b] >= 0:
        B.pool_next[B.tail[b]] = <cell_t>e
    else:
        B.head[b] = <cell_t>e
    B.tail[b] = <cell_t>e


cdef Py_ssize_t _GAPS[13]       # Ciura's, then each about 2.25 times the one before
_GAPS[:] = [44842, 19930, 8858, 3937, 1750, 701, 301, 132, 57, 23, 10, 4, 1]


cdef void _sort_cells(cell_t* a, Py_ssize_t k) noexcept nogil:
    cdef Py_ssize_t i, j
    cdef cell_t x
    for i in range(1, k):
        if a[i] < a[i - 1]:
            break
    else:
        return      # in order already (the kernels give their sources in cell order)
    # Shell's sort over Ciura's gaps (the last, 1, an insertion sort): no comparison called
    # through a pointer, as qsort's is
    cdef Py_ssize_t g, gap
    for g in range(13):
        gap = _GAPS[g]
        if gap >= k:
            continue
        for i in range(gap, k):
            x = a[i]
            j = i - gap
            while j >= 0 and a[j] > x:
                a[j + gap] = a[j]
                j -= gap
            a[j + gap] = x


# ---------------------------------------------------------------------------------------------
# The search

cdef struct _NoTolls:
    char unused
cdef struct _Tolls:
    char unused

# the search compiled twice: without tolls (the usual case: one layer, no token bookkeeping,
# fewer values competing for registers) and with them
ctypedef fused _Kind:
    _NoTolls
    _Tolls


cdef struct _Walk:
    # the working state of one search, kept in a local of _dial (the compiler keeps its fields
    # in registers once _step is inlined)
    dist_t* dist
    cell_t* pred
    uint32_t* stamp
    uint32_t gen
    cell_t* touched
    Py_ssize_t nt             # states stamped so far
    cell_t* pool_cell
    cell_t* pool_next
    cell_t* head
    cell_t* tail
    Py_ssize_t mask           # ring size - 1
    Py_ssize_t used           # pool entries used
    Py_ssize_t pending        # entries in the ring
    dist_t cur                # the cost level being settled
    dist_t lim                # the limit, or the largest cost when there is none
    Py_ssize_t walk_popped    # where _unit_walk stopped: the states it took from its queue
    Py_ssize_t walk_step      # and the step (cell * 6 + direction) it could not take


cdef inline int _step(_Kind kind, _Walk* W, SearchBuffers* B, Py_ssize_t i, const cell_t* nbr,
                      const stepcost_t* step_cost, Py_ssize_t n, cell_t s, cell_t u, int layer,
                      const flag_t* toll, int max_toll, bint toll_on_exit) except -1 nogil:
    # relax the step i = u * 6 + d out of state s (cell u, tokens layer), settled at W.cur
    cdef stepcost_t w = step_cost[i]
    if w < 0:
        return 0
    cdef cell_t v = nbr[i]
    if v < 0:
        return 0
    cdef dist_t nd = W.cur + w
    if nd > W.lim:
        return 0
    cdef Py_ssize_t ns = v, b
    cdef int k, nlayer
    if _Kind is _NoTolls:
        if W.stamp[ns] == W.gen and W.dist[ns] <= nd:
            return 0
    else:
        nlayer = layer + (toll[u] if toll_on_exit else toll[v])
        if nlayer > max_toll:
            return 0
        # a state is kept only if no state of v with as few tokens is as cheap
        for k in range(nlayer + 1):
            ns = <Py_ssize_t>k * n + v
            if W.stamp[ns] == W.gen and W.dist[ns] <= nd:
                return 0
        ns = <Py_ssize_t>nlayer * n + v
    if W.stamp[ns] != W.gen:
        W.stamp[ns] = W.gen
        W.touched[W.nt] = <cell_t>ns
        W.nt += 1
    W.dist[ns] = nd
    W.pred[ns] = s
    if w > W.mask:
        _ring_fit(B, w, W.cur)
        W.head = B.head
        W.tail = B.tail
        W.mask = B.nb - 1
    # append a pool entry holding ns to the tail of the bucket of nd: buckets are FIFO
    b = nd & W.mask
    W.pool_cell[W.used] = <cell_t>ns
    W.pool_next[W.used] = -1
    if W.tail[b] >= 0:
        W.pool_next[W.tail[b]] = <cell_t>W.used
    else:
        W.head[b] = <cell_t>W.used
    W.tail[b] = <cell_t>W.used
    W.used += 1
    W.pending += 1
    return 0


cdef Py_ssize_t _unit_walk(_Walk* W, const cell_t* nbr, const stepcost_t* step_cost,
                           const flag_t* stop) noexcept nogil:
    # Breadth-first from the seeded sources (W.touched[:W.nt], in cell order, all at W.cur):
    # touched doubles as the queue. While every step it reads costs 1 (or is refused), this
    # is Dial's algorithm exactly: each bucket is settled in the order it was filled, no entry
    # goes stale, and so the same states are reached in the same order with the same costs
    # and predecessors. Returns the states settled, or -1 at the first step read that costs
    # anything else (0 or more than 1): then Dial takes over from there (_walk_to_dial; W.nt
    # says how far the walk went, walk_popped and walk_step where it stopped).
    # The walk's state in locals: written through W's pointers, the compiler would reload
    # W's fields after every store.
    cdef uint32_t* stamp = W.stamp
    cdef uint32_t gen = W.gen
    cdef dist_t* dist = W.dist
    cdef cell_t* pred = W.pred
    cdef cell_t* queue = W.touched
    cdef Py_ssize_t i = 0, nt = W.nt, base, j
    cdef dist_t lim = W.lim, nd
    cdef cell_t u, v
    cdef stepcost_t w
    while i < nt:
        u = queue[i]
        i += 1
        if stop != NULL and stop[u] and pred[u] >= 0:
            continue  # entered a stopping cell: it ends the path here
        nd = dist[u] + 1
        base = <Py_ssize_t>u * 6
        for j in range(base, base + 6):
            w = step_cost[j]
            if w < 0:
                continue
            if w != 1:
                W.nt = nt
                W.walk_popped = i
                W.walk_step = j
                return -1     # read before the limit: Dial would take a 0-cost step there
            v = nbr[j]
            if v < 0 or nd > lim or stamp[v] == gen:
                continue      # a stamped cell was reached at this cost or less
            stamp[v] = gen
            dist[v] = nd
            pred[v] = u
            queue[nt] = v
            nt += 1
    W.nt = nt
    return i


cdef Py_ssize_t _unit_walk_tolled(_Walk* W, const cell_t* nbr, const stepcost_t* step_cost,
                                  Py_ssize_t n, const flag_t* stop, const flag_t* toll,
                                  int max_toll, bint toll_on_exit) noexcept nogil:
    # _unit_walk over the states (layer * n + cell) of a search with tolls: the same argument
    # holds (every step costs 1, so no state is reached again more cheaply and no entry would
    # go stale; the queue is Dial's settling order), with _step's rules for the tokens: a
    # state is kept only if no state of its cell with as few tokens is as cheap. (Kept apart
    # from _unit_walk: one body over the fused _Kind cost the untolled walk 1 % more
    # instructions under callgrind.)
    cdef uint32_t* stamp = W.stamp
    cdef uint32_t gen = W.gen
    cdef dist_t* dist = W.dist
    cdef cell_t* pred = W.pred
    cdef cell_t* queue = W.touched
    cdef Py_ssize_t i = 0, nt = W.nt, base, j, ns
    cdef dist_t lim = W.lim, nd
    cdef cell_t s, u, v
    cdef stepcost_t w
    cdef int layer, nlayer, k, exit_layer = 0
    cdef bint kept
    while i < nt:
        s = queue[i]
        i += 1
        if s < n:
            u = s
            layer = 0
        else:
            u = s % n
            layer = s // n
        if stop != NULL and stop[u] and pred[s] >= 0:
            continue  # entered a stopping cell: it ends the path here
        if toll_on_exit:
            exit_layer = layer + toll[u]
            if exit_layer > max_toll:
                continue  # every step out of u would spend a token too many: Dial takes none
        nd = dist[s] + 1
        base = <Py_ssize_t>u * 6
        for j in range(base, base + 6):
            w = step_cost[j]
            if w < 0:
                continue
            if w != 1:
                W.nt = nt
                W.walk_popped = i
                W.walk_step = j
                return -1     # as _unit_walk: Dial takes over
            v = nbr[j]
            if v < 0 or nd > lim:
                continue
            nlayer = exit_layer if toll_on_exit else layer + toll[v]
            if nlayer > max_toll:
                continue
            # a state of v with as few tokens already stamped costs nd or less (the queue
            # is in order of cost), so it is as cheap: v is not kept
            kept = True
            for k in range(nlayer + 1):
                if stamp[<Py_ssize_t>k * n + v] == gen:
                    kept = False
                    break
            if not kept:
                continue
            ns = <Py_ssize_t>nlayer * n + v
            stamp[ns] = gen   # not stamped before: it would hold a cost of nd or less
            dist[ns] = nd
            pred[ns] = s
            queue[nt] = <cell_t>ns
            nt += 1
    W.nt = nt
    return i


cdef int _dial(SearchBuffers* B, const cell_t* nbr, const stepcost_t* step_cost, Py_ssize_t n,
               const cell_t* sources, const dist_t* source_cost, Py_ssize_t n_sources,
               dist_t limit, const flag_t* stop, const flag_t* toll, int max_toll,
               bint toll_on_exit) except -1 nogil:
    cdef _NoTolls plain
    cdef _Tolls tolled
    if toll == NULL:
        return _dial_body(plain, B, nbr, step_cost, n, sources, source_cost, n_sources, limit,
                          stop, NULL, 0, False)
    return _dial_body(tolled, B, nbr, step_cost, n, sources, source_cost, n_sources, limit,
                      stop, toll, max_toll, toll_on_exit)


cdef Py_ssize_t _settle(_Kind kind, _Walk* W, SearchBuffers* B, const cell_t* nbr,
                        const stepcost_t* step_cost, Py_ssize_t n, const flag_t* stop,
                        const flag_t* toll, int max_toll, bint toll_on_exit) except -1 nogil:
    # Dial's main loop: settle the queued states level by level, relaxing each one's six
    # steps, until the ring is empty. Returns the states settled.
    cdef Py_ssize_t b, e, base, settled = 0
    cdef int layer
    cdef cell_t u, s
    # walk the cost levels upwards
    while W.pending > 0:
        b = W.cur & W.mask
        e = W.head[b]
        if e < 0:
            W.cur += 1
            continue
        W.head[b] = W.pool_next[e]
        if W.head[b] < 0:
            W.tail[b] = -1
        W.pending -= 1
        s = W.pool_cell[e]
        if W.dist[s] != W.cur:
            continue  # stale entry: the state was improved after this push (s is stamped)
        settled += 1
        if _Kind is _NoTolls or s < n:
            u = s       # layer 0: spare the division
            layer = 0
        else:
            u = s % n
            layer = s // n
        if stop != NULL and stop[u] and W.pred[s] >= 0:
            continue  # entered a stopping cell: it ends the path here
        # the six directions written out: a loop's exit branch is mispredicted at every cell
        base = <Py_ssize_t>u * 6
        _step(kind, W, B, base, nbr, step_cost, n, s, u, layer, toll, max_toll, toll_on_exit)
        _step(kind, W, B, base + 1, nbr, step_cost, n, s, u, layer, toll, max_toll, toll_on_exit)
        _step(kind, W, B, base + 2, nbr, step_cost, n, s, u, layer, toll, max_toll, toll_on_exit)
        _step(kind, W, B, base + 3, nbr, step_cost, n, s, u, layer, toll, max_toll, toll_on_exit)
        _step(kind, W, B, base + 4, nbr, step_cost, n, s, u, layer, toll, max_toll, toll_on_exit)
        _step(kind, W, B, base + 5, nbr, step_cost, n, s, u, layer, toll, max_toll, toll_on_exit)
    return settled


cdef Py_ssize_t _walk_to_dial(_Kind kind, _Walk* W, SearchBuffers* B, const cell_t* nbr,
                              const stepcost_t* step_cost, Py_ssize_t n, const flag_t* stop,
                              const flag_t* toll, int max_toll,
                              bint toll_on_exit) except -1 nogil:
    # Dial's algorithm taking over from a breadth-first walk that met a step of a cost other
    # than 1 at W.walk_step, out of the state s = queue[W.walk_popped - 1] (cell u, tokens
    # layer). Up to there the walk did what Dial does (see _unit_walk, _unit_walk_tolled): the
    # states it took from its queue are settled, and those still queued are what Dial's
    # buckets would hold, in their order: the cost of s, then that plus 1 (FIFO buckets filled
    # in the order of the queue). So they are pushed in that order, the rest of s's steps
    # relaxed, and Dial goes on: the same states, costs and predecessors as Dial from the
    # sources, without settling the walked part twice. Returns the states settled, the walked
    # ones included.
    cdef Py_ssize_t i, popped = W.walk_popped, j = W.walk_step
    cdef cell_t s = W.touched[popped - 1], u = s, q
    cdef int layer = 0
    if _Kind is _Tolls and s >= n:
        u = s % n
        layer = s // n
    cdef Py_ssize_t base = <Py_ssize_t>u * 6
    W.cur = W.dist[s]
    _ring_fit(B, 1, W.cur)
    for i in range(popped, W.nt):
        q = W.touched[i]
        _push(B, q, W.dist[q], W.used)
        W.used += 1
    W.pending = W.used
    W.head = B.head
    W.tail = B.tail
    W.mask = B.nb - 1
    while j < base + 6:
        _step(kind, W, B, j, nbr, step_cost, n, s, u, layer, toll, max_toll, toll_on_exit)
        j += 1
    return popped + _settle(kind, W, B, nbr, step_cost, n, stop, toll, max_toll, toll_on_exit)


cdef int _dial_body(_Kind kind, SearchBuffers* B, const cell_t* nbr,
                    const stepcost_t* step_cost, Py_ssize_t n, const cell_t* sources,
                    const dist_t* source_cost, Py_ssize_t n_sources, dist_t limit,
                    const flag_t* stop, const flag_t* toll, int max_toll,
                    bint toll_on_exit) except -1 nogil:
    # Dial's algorithm over the states (layer * n + cell), layer = tokens used. B.gen must be a
    # generation no entry of B.stamp holds; the ring must be empty (it is again on return);
    # the pool has room for n + 6 * (max_toll + 1) * n entries (every state is expanded at most
    # once and the sources take at most n). Returns the number of states settled.
    cdef _Walk W
    cdef Py_ssize_t i, settled = 0
    cdef cell_t s
    cdef dist_t c, hi
    W.dist = B.dist
    W.pred = B.pred
    W.stamp = B.stamp
    W.gen = B.gen
    W.touched = B.touched
    W.nt = 0
    W.pool_cell = B.pool_cell
    W.pool_next = B.pool_next
    W.used = 0
    W.lim = limit if limit >= 0 else INT32_MAX

    # seed the sources, keeping the cheapest entry of a cell given twice
    for i in range(n_sources):
        s = sources[i]
        c = source_cost[i] if source_cost != NULL else 0
        if c > W.lim:
            continue
        if W.stamp[s] == W.gen:
            if W.dist[s] <= c:
                continue
        else:
            W.stamp[s] = W.gen
            W.touched[W.nt] = s
            W.nt += 1
        W.dist[s] = c
        W.pred[s] = -1
    B.n_touched = W.nt
    if W.nt == 0:
        return 0
    # queue them in cell order, so that the order of the sources given does not matter
    _sort_cells(W.touched, W.nt)
    W.cur = hi = W.dist[W.touched[0]]
    for i in range(1, W.nt):
        c = W.dist[W.touched[i]]
        if c < W.cur:
            W.cur = c
        if c > hi:
            hi = c
    if hi == W.cur:
        # every source at one cost: try the breadth-first walk, which gives the same answer
        # while every step it reads costs 1 (see _unit_walk)
        if _Kind is _NoTolls:
            settled = _unit_walk(&W, nbr, step_cost, stop)
        else:
            settled = _unit_walk_tolled(&W, nbr, step_cost, n, stop, toll, max_toll,
                                        toll_on_exit)
        if settled < 0:
            # a step of another cost: Dial goes on from where the walk stopped
            settled = _walk_to_dial(kind, &W, B, nbr, step_cost, n, stop, toll, max_toll,
                                    toll_on_exit)
        B.n_touched = W.nt
        return <int>settled
    _ring_fit(B, hi - W.cur, W.cur)
    for i in range(W.nt):
        _push(B, W.touched[i], W.dist[W.touched[i]], W.used)
        W.used += 1
    W.pending = W.used
    W.head = B.head
    W.tail = B.tail
    W.mask = B.nb - 1

    settled = _settle(kind, &W, B, nbr, step_cost, n, stop, toll, max_toll, toll_on_exit)
    B.n_touched = W.nt
    return <int>settled


# ---------------------------------------------------------------------------------------------
# A unit's movement range (search.pxd: Range)

cdef int range_alloc(Range* R, Py_ssize_t n) except -1 nogil:
    # dist has a slot before cell 0, for the "cell" -1 off the map: it holds -1, a cost no
    # step can better, so a step off the map is refused by the comparison every step makes
    cdef Py_ssize_t c
    R.n = n
    R.n_touched = 0
    R.n_levels = 0
    R.level = NULL
    R.count = NULL
    R.pred = <cell_t*>malloc((n + 1) * sizeof(cell_t))
    R.touched = <cell_t*>malloc((n + 1) * sizeof(cell_t))
    R.dist = <dist_t*>malloc((n + 1) * sizeof(dist_t))
    if R.dist != NULL:
        R.dist[0] = -1
        R.dist += 1
    if R.dist == NULL or R.pred == NULL or R.touched == NULL:
        range_free(R)
        with gil:
            raise MemoryError(f"no memory for a movement range of {n} cells")
    for c in range(n):
        R.dist[c] = RANGE_FAR
    return 0


cdef void range_free(Range* R) noexcept nogil:
    if R.dist != NULL:
        free(R.dist - 1)
    free(R.pred)
    free(R.touched)
    free(R.level)
    free(R.count)
    R.dist = R.pred = R.touched = R.level = NULL
    R.count = NULL
    R.n_levels = 0


cdef int _range_levels(Range* R, Py_ssize_t levels) except -1 nogil:
    # room for the cells queued at costs 0 .. levels - 1: a cell is queued at most once a cost
    # (only when its cost goes down), so n entries a level
    if levels <= R.n_levels:
        return 0
    cdef cell_t* level = <cell_t*>malloc(levels * R.n * sizeof(cell_t) + sizeof(cell_t))
    cdef Py_ssize_t* count = <Py_ssize_t*>malloc((levels + 1) * sizeof(Py_ssize_t))
    if level == NULL or count == NULL:
        free(level)
        free(count)
        with gil:
            raise MemoryError(f"no memory for a movement range of {levels} cost levels")
    free(R.level)
    free(R.count)
    R.level = level
    R.count = count
    R.n_levels = levels
    return 0


cdef Py_ssize_t range_search(Range* R, const cell_t* nbr, const stepcost_t* step_cost,
                             cell_t src, dist_t limit, const flag_t* stop,
                             uint64_t* bits) except -1 nogil:
    # Dial's algorithm from src, as _dial_body does it: the cost levels settled upwards, each
    # level's cells in the order they were queued (a bucket is FIFO, a step of cost 0 queues
    # behind the cells already there), a cell queued again only at a lower cost (its older
    # entry then stale), a stop cell other than the source settled but not left. The buckets
    # are the rows of R.level, one per cost up to the limit, so none is shared and no entry is
    # linked; the distances of the last search are put back to RANGE_FAR from its list of
    # cells reached rather than stamped, so a step reads one array to compare its cost.
    # With bits (a cell set, empty on entry), the cells reached at a cost above 0 are added
    # to it as they are first reached (R.n_zero: those others reached, at cost 0).
    # A step's cost is read as unsigned: a refused one (< 0) is then dearer than any limit,
    # so one comparison refuses it or takes it beyond the limit; the limit is below 2**15.
    cdef dist_t* dist = R.dist
    cdef cell_t* pred = R.pred
    cdef cell_t* touched = R.touched
    cdef Py_ssize_t n = R.n, i, nt, settled = 0, pending, cur, base, j
    cdef cell_t u, v
    cdef cell_t* row
    cdef cell_t* level
    cdef Py_ssize_t* count
    cdef dist_t nd
    for i in range(R.n_touched):
        dist[touched[i]] = RANGE_FAR
    R.n_touched = 0
    if limit < 0 or limit >= 0x8000:
        with gil:
            raise ValueError(f"a movement range needs a limit of 0 to 32767, not {limit}")
    _range_levels(R, <Py_ssize_t>limit + 1)
    count = R.count
    level = R.level
    memset(count, 0, (<Py_ssize_t>limit + 1) * sizeof(Py_ssize_t))
    dist[src] = 0
    pred[src] = -1
    touched[0] = src
    nt = 1
    level[0] = src
    count[0] = 1
    pending = 1
    cur = 0
    while pending > 0:
        row = level + cur * n
        i = 0
        while i < count[cur]:           # grows while it is read: steps of cost 0
            u = row[i]
            i += 1
            pending -= 1
            if dist[u] != cur:
                continue                # stale: u was queued again at a lower cost
            settled += 1
            if stop != NULL and stop[u] and u != src:
                continue                # entered a stopping cell: it ends the path here
            base = <Py_ssize_t>u * 6
            for j in range(base, base + 6):
                nd = <dist_t>cur + <uint16_t>step_cost[j]
                if nd > limit:
                    continue            # refused, or beyond the limit
                v = nbr[j]
                if dist[v] <= nd:
                    continue            # as cheap already (dist[-1], off the map, is -1)
                if dist[v] == RANGE_FAR:
                    touched[nt] = v
                    nt += 1
                    if bits != NULL:
                        bits[v >> 6] |= (<uint64_t>1) << (v & 63)
                dist[v] = nd
                pred[v] = u
                level[nd * n + count[nd]] = v
                count[nd] += 1
                pending += 1
        cur += 1
    R.n_touched = nt
    R.n_zero = 0
    if bits != NULL and count[0] > 1:
        # cells reached at cost 0 (steps of cost 0 from the source) are no moves
        for i in range(1, count[0]):
            v = level[i]
            if dist[v] == 0:
                bits[v >> 6] &= ~((<uint64_t>1) << (v & 63))
                R.n_zero += 1
    return settled


def movement_ranges(neighbors, step_cost, queries, stop=None):
    """The search a compiled core runs for a unit's movement range (``Range``), from Python.

    ``queries`` is a sequence of ``(source, limit)``, searched in turn on one ``Range`` as a
    core does. Returns one ``(dist, pred, moves)`` a query: int32 arrays of one value a
    cell, -1 where not reached, ``bounded_search(neighbors, step_cost, [source],
    limit=limit, stop=stop)``'s single layer, which tests hold it to; and the cells of the
    search's cell set (reached at a cost above 0), ascending.
    """
    nb = np.ascontiguousarray(neighbors, dtype=np.int32)
    sc = np.ascontiguousarray(step_cost, dtype=np.int16)
    if nb.ndim != 2 or nb.shape[1] != 6 or sc.shape != nb.shape:
        raise ValueError("neighbors and step_cost must both have shape (n, 6)")
    cdef Py_ssize_t n = nb.shape[0], c
    if nb.size and (nb.min() < -1 or nb.max() >= n):
        raise ValueError(f"neighbors must hold cells 0..{n - 1}, or -1 for no cell")
    cdef cnp.ndarray st = None
    cdef const flag_t* stopp = NULL
    if stop is not None:
        st = _as_flags(stop)
        if cnp.PyArray_SIZE(st) != n:
            raise ValueError("stop must have one entry per cell")
        stopp = <const flag_t*>cnp.PyArray_DATA(st)
    cdef Range R
    cdef int32_t* d
    cdef int32_t* p
    cdef cell_t source
    cdef dist_t limit
    cdef Py_ssize_t n_words = (n + 63) // 64
    cdef uint64_t* bits = <uint64_t*>malloc((n_words + 1) * sizeof(uint64_t))
    if bits == NULL:
        raise MemoryError()
    out = []
    range_alloc(&R, n)
    try:
        for source, limit in queries:
            if not 0 <= source < n:
                raise IndexError(f"source {source} is not a cell of a map of {n} cells")
            memset(bits, 0, n_words * sizeof(uint64_t))
            range_search(&R, <const cell_t*>cnp.PyArray_DATA(nb),
                         <const stepcost_t*>cnp.PyArray_DATA(sc), source, limit, stopp, bits)
            dist = np.full(n, -1, dtype=np.int32)
            pred = np.full(n, -1, dtype=np.int32)
            d = <int32_t*>cnp.PyArray_DATA(<cnp.ndarray>dist)
            p = <int32_t*>cnp.PyArray_DATA(<cnp.ndarray>pred)
            for c in range(R.n_touched):
                d[R.touched[c]] = R.dist[R.touched[c]]
                p[R.touched[c]] = R.pred[R.touched[c]]
            moves = np.array([c for c in range(n) if bits[c >> 6] >> (c & 63) & 1],
                             dtype=np.int32)
            if len(moves) != R.n_touched - 1 - R.n_zero:
                raise AssertionError("the cell set and its count disagree")
            out.append((dist, pred, moves))
    finally:
        range_free(&R)
        free(bits)
    return out


cdef int _check_sources(const cell_t* sources, const dist_t* source_cost, Py_ssize_t k,
                        Py_ssize_t n) except -1 nogil:
    cdef Py_ssize_t i
    for i in range(k):
        if sources[i] < 0 or sources[i] >= n:
            with gil:
                raise IndexError(f"a source is not a cell of a map of {n} cells")
    if source_cost != NULL:
        for i in range(k):
            if source_cost[i] < 0:
                with gil:
                    raise ValueError("source costs must be >= 0")
    return 0


# ---------------------------------------------------------------------------------------------
# Arguments from Python: arrays that already have the kernel's type and layout are read in
# place; anything else is converted as np.ascontiguousarray(x, dtype) would.

cdef struct _IntArg:
    int32_t short[SHORT]
    const int32_t* ptr
    Py_ssize_t size


cdef inline bint _usable(object obj, int typenum):
    # an ndarray of this type that the kernel can read as it is: C order, aligned, native
    if not isinstance(obj, cnp.ndarray):
        return False
    cdef cnp.ndarray a = <cnp.ndarray>obj
    return (cnp.PyArray_TYPE(a) == typenum and cnp.PyArray_ISCARRAY_RO(a)
            and cnp.PyArray_ISNOTSWAPPED(a))


cdef inline cnp.ndarray _as_array(object obj, int typenum, object dtype):
    if _usable(obj, typenum):
        return <cnp.ndarray>obj
    return np.ascontiguousarray(obj, dtype=dtype)


cdef inline cnp.ndarray _as_flags(object obj):
    # stop and toll: uint8, or bool read as uint8 (the same bytes)
    if _usable(obj, cnp.NPY_UINT8) or _usable(obj, cnp.NPY_BOOL):
        return <cnp.ndarray>obj
    return np.ascontiguousarray(obj, dtype=np.uint8)


cdef object _read_ints(object obj, _IntArg* out):
    # the source cells or costs as int32: a short list or tuple of integers is copied into
    # out.short; anything else becomes (or already is) an int32 array, returned to be kept
    # alive while out.ptr is in use
    cdef Py_ssize_t i, k
    cdef long long v
    cdef cnp.ndarray a
    if type(obj) is list or type(obj) is tuple:
        k = len(obj)
        if k <= SHORT:
            for i in range(k):
                item = obj[i]
                if type(item) is not int:
                    if not isinstance(item, np.integer):
                        break
                    item = int(item)
                try:
                    v = item        # compared as a C integer: no Python comparison
                except OverflowError:
                    break
                if v < INT32_MIN or v > INT32_MAX:
                    break   # numpy says what is wrong with it
                out.short[i] = <int32_t>v
            else:
                out.ptr = out.short
                out.size = k
                return None
    a = _as_array(obj, cnp.NPY_INT32, np.int32)
    out.ptr = <const int32_t*>cnp.PyArray_DATA(a)
    out.size = cnp.PyArray_SIZE(a)
    return a


cdef inline cnp.ndarray _new_result(Py_ssize_t layers, Py_ssize_t n):
    # an int32[layers, n] array of -1
    cdef cnp.npy_intp dims[2]
    dims[0] = layers
    dims[1] = n
    cdef cnp.ndarray a = cnp.PyArray_EMPTY(2, dims, cnp.NPY_INT32, 0)
    memset(cnp.PyArray_DATA(a), 0xFF, layers * n * sizeof(int32_t))
    return a


def bounded_search(neighbors, step_cost, sources, source_cost=None, limit=-1, stop=None,
                   toll=None, max_toll=0, toll_on_exit=False):
    """Bounded multi-source least-cost search over the hex grid.

    Arrays that already have the listed dtype and are C-contiguous are read in place; others
    are converted. ``neighbors`` is trusted (a ``HexMap``'s table); ``SearchWorkspace``
    checks it once.

    Parameters
    ----------
    neighbors : int32[n, 6]
        The neighbour table, -1 off the map.
    step_cost : int16[n, 6]
        Cost of each step; negative means the step is not allowed.
    sources : int32[k]
        Starting cells.
    source_cost : int32[k], optional
        Starting cost of each source (default 0).
    limit : int
        Largest total cost kept; negative for no limit.
    stop : uint8[n], optional
        Cells that may be entered but not left.
    toll : uint8[n], optional
        Tokens used on entering each cell; with ``max_toll`` the most a path may use.
    toll_on_exit : bool
        Charge a cell's tokens on leaving it instead of entering it: the first cell of a path
        pays and the last does not (a supply line traced back from its sources to a unit,
        counting the source's hex and not the unit's, 9.13-9.14).

    Returns
    -------
    dist : int32[max_toll + 1, n]
        Least cost to reach each cell having used exactly that many tokens, -1 if unreachable.
    pred : int32[max_toll + 1, n]
        Predecessor state (``layer * n + cell``) on a least-cost path, -1 at a source or if
        unreachable.

    Examples
    --------
    >>> from gwe_fast import HexMap
    >>> m = HexMap((1, 1), (1, 4))          # one column: 0101 .. 0104
    >>> cost = np.where(m.neighbors >= 0, 1, -1).astype(np.int16)
    >>> dist, pred = bounded_search(m.neighbors, cost, [1], limit=1)
    >>> dist
    array([[ 1,  0,  1, -1]], dtype=int32)
    >>> pred
    array([[ 1, -1,  1, -1]], dtype=int32)
    """
    cdef cnp.ndarray nb_arr = _as_array(neighbors, cnp.NPY_INT32, np.int32)
    if cnp.PyArray_NDIM(nb_arr) != 2 or cnp.PyArray_DIMS(nb_arr)[1] != 6:
        raise ValueError("neighbors must have shape (n, 6)")
    cdef Py_ssize_t n = cnp.PyArray_DIMS(nb_arr)[0]
    cdef cnp.ndarray sc_arr = _as_array(step_cost, cnp.NPY_INT16, np.int16)
    if (cnp.PyArray_NDIM(sc_arr) != 2 or cnp.PyArray_DIMS(sc_arr)[0] != n
            or cnp.PyArray_DIMS(sc_arr)[1] != 6):
        raise ValueError(f"step_cost has shape {(<object>sc_arr).shape}, "
                         f"expected {(<object>nb_arr).shape}")
    cdef _IntArg src, srcc
    cdef const dist_t* costp = NULL
    keep_src = _read_ints(sources, &src)
    if source_cost is not None:
        keep_cost = _read_ints(source_cost, &srcc)
        if srcc.size != src.size:
            raise ValueError("source_cost must have one entry per source")
        costp = srcc.ptr
    _check_sources(src.ptr, costp, src.size, n)
    cdef cnp.ndarray stop_arr = None, toll_arr = None
    cdef const flag_t* stopp = NULL
    cdef const flag_t* tollp = NULL
    if stop is not None:
        stop_arr = _as_flags(stop)
        stopp = <const flag_t*>cnp.PyArray_DATA(stop_arr)
    if toll is not None:
        toll_arr = _as_flags(toll)
        tollp = <const flag_t*>cnp.PyArray_DATA(toll_arr)
    if ((stop_arr is not None and cnp.PyArray_SIZE(stop_arr) != n)
            or (toll_arr is not None and cnp.PyArray_SIZE(toll_arr) != n)):
        raise ValueError("stop and toll must have one entry per cell")
    if max_toll < 0:
        raise ValueError("max_toll must be >= 0")
    cdef int mt = max_toll
    cdef dist_t lim = limit
    cdef bint on_exit = toll_on_exit
    cdef Py_ssize_t states = (<Py_ssize_t>mt + 1) * n
    dist_arr = _new_result(mt + 1, n)
    pred_arr = _new_result(mt + 1, n)
    if src.size == 0:
        return dist_arr, pred_arr

    # the results are written in place; fresh stamps (all 0) with generation 1
    cdef SearchBuffers B
    cdef Py_ssize_t pool = n + 6 * states
    B.dist = <dist_t*>cnp.PyArray_DATA(dist_arr)
    B.pred = <cell_t*>cnp.PyArray_DATA(pred_arr)
    B.gen = 1
    B.n_touched = 0
    B.nb = RING0
    B.stamp = <uint32_t*>calloc(states, sizeof(uint32_t))
    cdef cell_t* block = <cell_t*>malloc((states + 2 * pool) * sizeof(cell_t))
    B.head = _new_ring(RING0)
    if B.stamp == NULL or block == NULL or B.head == NULL:
        free(B.stamp)
        free(block)
        free(B.head)
        raise MemoryError(f"no memory for a search of {states} states")
    B.tail = B.head + RING0
    B.touched = block
    B.pool_cell = block + states
    B.pool_next = block + states + pool
    cdef const cell_t* nbp = <const cell_t*>cnp.PyArray_DATA(nb_arr)
    cdef const stepcost_t* scp = <const stepcost_t*>cnp.PyArray_DATA(sc_arr)
    try:
        with nogil:
            _dial(&B, nbp, scp, n, src.ptr, costp, src.size, lim, stopp, tollp, mt, on_exit)
    finally:
        free(B.stamp)
        free(block)
        free(B.head)
    return dist_arr, pred_arr


# ---------------------------------------------------------------------------------------------
# The reusable workspace

cdef class SearchWorkspace:
    """The buffers of searches on one map, reused from search to search.

    Distances, predecessors, the bucket queue and its pool are allocated once. Each search
    takes a new generation number and an entry counts only if its stamp holds that number, so
    starting a search clears nothing of the map's size. The dense arrays that ``run`` returns
    are rewritten only where the last two searches reached (swept whole when a search reached
    a quarter of them or more). Same results as ``bounded_search``, predecessors included.

    Parameters
    ----------
    neighbors : int32[n, 6]
        The neighbour table, -1 off the map; checked and copied.
    n_layers : int
        Layers of states kept: searches may use ``max_toll`` up to ``n_layers - 1``.

    Notes
    -----
    ``run`` returns read-only views into the workspace, valid until its next search: keep
    them longer with ``copy=True`` or ``.copy()``. One workspace per thread: the search runs
    without the GIL and a second search on the same workspace while one runs is refused.
    Compiled callers ``cimport`` it and call ``search`` (``gwe_fast/_core/search.pxd``)
    without the GIL.

    Examples
    --------
    >>> from gwe_fast import HexMap
    >>> m = HexMap((1, 1), (1, 4))          # one column: 0101 .. 0104
    >>> cost = np.where(m.neighbors >= 0, 1, -1).astype(np.int16)
    >>> ws = SearchWorkspace(m.neighbors)
    >>> dist, pred = ws.run(cost, [0], limit=2)
    >>> dist
    array([[ 0,  1,  2, -1]], dtype=int32)
    >>> ws.run(cost, [3])[0]                # the same arrays, now for the new search
    array([[3, 2, 1, 0]], dtype=int32)
    >>> dist
    array([[3, 2, 1, 0]], dtype=int32)
    """

    def __cinit__(self, neighbors, int n_layers=1):
        nb = np.array(neighbors, dtype=np.int32, order="C", copy=True)
        if nb.ndim != 2 or nb.shape[1] != 6:
            raise ValueError("neighbors must have shape (n, 6)")
        if n_layers < 1:
            raise ValueError("n_layers must be >= 1")
        cdef Py_ssize_t n = nb.shape[0]
        if nb.size and (nb.min() < -1 or nb.max() >= n):
            raise ValueError(f"neighbors must hold cells 0..{n - 1}, or -1 for no cell")
        nb.flags.writeable = False
        self.neighbors = nb
        self._nbr = <const cell_t*>cnp.PyArray_DATA(<cnp.ndarray>nb)
        self.n_cells = n
        self.n_layers = n_layers
        cdef Py_ssize_t states = n_layers * n, pool = n + 6 * states
        self._block = <cell_t*>malloc((3 * states + 2 * pool + 1) * sizeof(cell_t))
        self.buf.stamp = <uint32_t*>calloc(states + 1, sizeof(uint32_t))
        self.buf.head = _new_ring(RING0)
        if self._block == NULL or self.buf.stamp == NULL or self.buf.head == NULL:
            raise MemoryError(f"no memory for a search workspace of {states} states")
        self.buf.tail = self.buf.head + RING0
        self.buf.nb = RING0
        self.buf.dist = <dist_t*>self._block
        self.buf.pred = self._block + states
        self.buf.touched = self._block + 2 * states
        self.buf.pool_cell = self._block + 3 * states
        self.buf.pool_next = self._block + 3 * states + pool
        self.buf.gen = 1          # no stamp holds it: nothing reached yet
        self.buf.n_touched = 0
        od = np.full((n_layers, n), -1, dtype=np.int32)
        op = np.full((n_layers, n), -1, dtype=np.int32)
        self._od = <dist_t*>cnp.PyArray_DATA(<cnp.ndarray>od)
        self._op = <cell_t*>cnp.PyArray_DATA(<cnp.ndarray>op)
        od.flags.writeable = False    # written through the pointers above only
        op.flags.writeable = False
        self._out_dist = od
        self._out_pred = op
        self._views = tuple((od[:k], op[:k]) for k in range(1, n_layers + 1))

    def __dealloc__(self):
        free(self._block)
        free(self.buf.stamp)
        free(self.buf.head)

    cdef int search(self, const stepcost_t* step_cost, const cell_t* sources,
                    const dist_t* source_cost, Py_ssize_t n_sources, dist_t limit,
                    const flag_t* stop, const flag_t* toll, int max_toll,
                    bint toll_on_exit) except -1 nogil:
        cdef Py_ssize_t i, s
        if max_toll < 0 or max_toll >= self.n_layers:
            with gil:
                raise ValueError(f"max_toll {max_toll} needs at least {max_toll + 1} layers; "
                                 f"this workspace has {self.n_layers}")
        _check_sources(sources, source_cost, n_sources, self.n_cells)
        if self._out_dirty:
            # the dense arrays hold the last search: put back -1 where it reached, or sweep
            # its layers whole when it reached much of them (faster than scattered writes)
            if 4 * self.buf.n_touched >= self._layers_used * self.n_cells:
                memset(self._od, 0xFF, self._layers_used * self.n_cells * sizeof(dist_t))
                memset(self._op, 0xFF, self._layers_used * self.n_cells * sizeof(cell_t))
            else:
                for i in range(self.buf.n_touched):
                    s = self.buf.touched[i]
                    self._od[s] = -1
                    self._op[s] = -1
            self._out_dirty = False
        self._layers_used = max_toll + 1
        self.buf.n_touched = 0
        self.buf.gen += 1
        if self.buf.gen == 0:
            # after 2**32 searches the numbers come round again: forget every old stamp
            memset(self.buf.stamp, 0, self.n_layers * self.n_cells * sizeof(uint32_t))
            self.buf.gen = 1
        return _dial(&self.buf, self._nbr, step_cost, self.n_cells, sources, source_cost,
                     n_sources, limit, stop, toll, max_toll, toll_on_exit)

    cdef dist_t dist_at(self, Py_ssize_t state) noexcept nogil:
        # the last search's cost of state (layer * n + cell), -1 if it did not reach it
        return reached_cost(&self.buf, state)

    cdef cell_t pred_at(self, Py_ssize_t state) noexcept nogil:
        return self.buf.pred[state] if self.buf.stamp[state] == self.buf.gen else -1

    cdef void write_dense(self) noexcept nogil:
        # copy the last search into the dense arrays that run() returns (they are -1 on entry)
        cdef Py_ssize_t i, s, states = self._layers_used * self.n_cells
        cdef uint32_t gen = self.buf.gen
        cdef const uint32_t* stamp = self.buf.stamp
        cdef const dist_t* dist = self.buf.dist
        cdef const cell_t* pred = self.buf.pred
        cdef dist_t* od = self._od
        cdef cell_t* op = self._op
        cdef int32_t keep
        if 4 * self.buf.n_touched >= states:
            for s in range(states):   # reached much of its layers: one branch-free sweep
                keep = -<int32_t>(stamp[s] == gen)     # all ones for this search's states
                od[s] = (dist[s] & keep) | ~keep        # else -1
                op[s] = (pred[s] & keep) | ~keep
        else:
            for i in range(self.buf.n_touched):
                s = self.buf.touched[i]
                self._od[s] = self.buf.dist[s]
                self._op[s] = self.buf.pred[s]
        self._out_dirty = True

    def run(self, step_cost, sources, source_cost=None, limit=-1, stop=None, toll=None,
            max_toll=0, toll_on_exit=False, copy=False):
        """Search as ``bounded_search`` does, on this workspace's map.

        Takes the arguments of ``bounded_search`` after ``neighbors``, with ``max_toll`` at
        most ``n_layers - 1``. Returns ``(dist, pred)`` of shape ``(max_toll + 1, n)``:
        read-only views valid until the next search on this workspace, or new arrays with
        ``copy=True``.
        """
        cdef Py_ssize_t n = self.n_cells
        cdef cnp.ndarray sc_arr = _as_array(step_cost, cnp.NPY_INT16, np.int16)
        if (cnp.PyArray_NDIM(sc_arr) != 2 or cnp.PyArray_DIMS(sc_arr)[0] != n
                or cnp.PyArray_DIMS(sc_arr)[1] != 6):
            raise ValueError(f"step_cost has shape {(<object>sc_arr).shape}, expected {(n, 6)}")
        cdef _IntArg src, srcc
        cdef const dist_t* costp = NULL
        keep_src = _read_ints(sources, &src)
        if source_cost is not None:
            keep_cost = _read_ints(source_cost, &srcc)
            if srcc.size != src.size:
                raise ValueError("source_cost must have one entry per source")
            costp = srcc.ptr
        cdef cnp.ndarray stop_arr = None, toll_arr = None
        cdef const flag_t* stopp = NULL
        cdef const flag_t* tollp = NULL
        if stop is not None:
            stop_arr = _as_flags(stop)
            stopp = <const flag_t*>cnp.PyArray_DATA(stop_arr)
        if toll is not None:
            toll_arr = _as_flags(toll)
            tollp = <const flag_t*>cnp.PyArray_DATA(toll_arr)
        if ((stop_arr is not None and cnp.PyArray_SIZE(stop_arr) != n)
                or (toll_arr is not None and cnp.PyArray_SIZE(toll_arr) != n)):
            raise ValueError("stop and toll must have one entry per cell")
        if max_toll < 0:
            raise ValueError("max_toll must be >= 0")
        cdef int mt = max_toll
        cdef dist_t lim = limit
        cdef bint on_exit = toll_on_exit
        cdef const stepcost_t* scp = <const stepcost_t*>cnp.PyArray_DATA(sc_arr)
        if self._busy:
            raise RuntimeError("this SearchWorkspace is searching in another thread; "
                               "use one workspace per thread")
        self._busy = True
        try:
            with nogil:
                self.search(scp, src.ptr, costp, src.size, lim, stopp, tollp, mt, on_exit)
                self.write_dense()
        finally:
            self._busy = False
        if copy:
            d, p = self._views[mt]
            return d.copy(), p.copy()
        return self._views[mt]

    def reached(self):
        """The states (``layer * n + cell``) the last search reached: its sources in cell
        order, then the others in the order first reached. A new array."""
        cdef cnp.ndarray out = _new_result(1, self.buf.n_touched)
        cdef Py_ssize_t i
        cdef cell_t* o = <cell_t*>cnp.PyArray_DATA(out)
        for i in range(self.buf.n_touched):
            o[i] = self.buf.touched[i]
        return out.reshape(-1)

    @property
    def generation(self):
        """The number of the last search (it wraps round after 2**32 searches)."""
        return self.buf.gen

    def _set_generation(self, generation):
        # for tests: pretend many searches have run, to exercise the wrap-round; stamps are
        # left as they are, as they would be
        if not 0 < generation < 2 ** 32:
            raise ValueError("the generation must be in 1 .. 2**32 - 1")
        self.buf.gen = generation
