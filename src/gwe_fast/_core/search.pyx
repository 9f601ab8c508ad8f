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

The pure-Python twin, ``gwe_fast._pure.search.bounded_search``, follows the same steps in the
same order, so both give identical distances *and* predecessors.
"""

import numpy as np
cimport numpy as cnp

from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t

cnp.import_array()


cdef inline void _push(cell_t state, Py_ssize_t b, Py_ssize_t e, cell_t* pool_cell,
                       cell_t* pool_next, cell_t* bucket_head, cell_t* bucket_tail) noexcept nogil:
    # append pool entry e (holding state) at the tail of bucket b: buckets are FIFO
    pool_cell[e] = state
    pool_next[e] = -1
    if bucket_tail[b] >= 0:
        pool_next[bucket_tail[b]] = <cell_t>e
    else:
        bucket_head[b] = <cell_t>e
    bucket_tail[b] = <cell_t>e


cdef int dial_search(
    const cell_t* neighbors, const stepcost_t* step_cost, Py_ssize_t n,
    const cell_t* sources, const dist_t* source_cost, Py_ssize_t n_sources,
    dist_t limit, const flag_t* stop, const flag_t* toll, int max_toll, bint toll_on_exit,
    int max_step, dist_t* dist, cell_t* pred, cell_t* pool_cell, cell_t* pool_next,
    cell_t* bucket_head, cell_t* bucket_tail,
) except -1 nogil:
    # dist and pred have (max_toll + 1) * n entries (state = layer * n + cell) and must be -1
    # on entry; bucket_head/tail have max_step + 1 entries set to -1 (max_step also covers the
    # spread of the source costs, so pending costs always fit the ring); the pool has room for
    # n_sources + 6 * (max_toll + 1) * n entries. Returns the number of states settled.
    cdef Py_ssize_t nb = max_step + 1
    cdef Py_ssize_t used = 0, pending = 0, settled = 0
    cdef Py_ssize_t i, e, b
    cdef int d, k, layer, nlayer, dominated
    cdef cell_t u, v, s, ns
    cdef dist_t cur, nd, c
    cdef stepcost_t w

    # seed the sources, cheapest first in the order given
    cur = -1
    for i in range(n_sources):
        s = sources[i]
        c = source_cost[i]
        if limit >= 0 and c > limit:
            continue
        if dist[s] >= 0 and dist[s] <= c:
            continue
        dist[s] = c
        pred[s] = -1
        if cur < 0 or c < cur:
            cur = c
    if cur < 0:
        return 0
    # push in cell order so that the queue order does not depend on the order of sources
    for s in range(n):
        if dist[s] >= 0:
            _push(s, dist[s] % nb, used, pool_cell, pool_next, bucket_head, bucket_tail)
            used += 1
            pending += 1
    # sources are pushed with their own costs; the loop walks cost levels upwards
    while pending > 0:
        b = cur % nb
        e = bucket_head[b]
        if e < 0:
            cur += 1
            continue
        bucket_head[b] = pool_next[e]
        if bucket_head[b] < 0:
            bucket_tail[b] = -1
        pending -= 1
        s = pool_cell[e]
        if dist[s] != cur:
            continue  # stale entry: the state was improved after this push
        settled += 1
        u = s % n
        layer = s // n
        if stop[u] and pred[s] >= 0:
            continue  # entered a stopping cell: it ends the path here
        for d in range(6):
            v = neighbors[u * 6 + d]
            if v < 0:
                continue
            w = step_cost[u * 6 + d]
            if w < 0:
                continue
            nlayer = layer + (toll[u] if toll_on_exit else toll[v])
            if nlayer > max_toll:
                continue
            nd = cur + w
            if limit >= 0 and nd > limit:
                continue
            # a state is kept only if no state of v with as few tokens is as cheap
            dominated = 0
            for k in range(nlayer + 1):
                if dist[k * n + v] >= 0 and dist[k * n + v] <= nd:
                    dominated = 1
                    break
            if dominated:
                continue
            ns = nlayer * n + v
            dist[ns] = nd
            pred[ns] = s
            _push(ns, nd % nb, used, pool_cell, pool_next, bucket_head, bucket_tail)
            used += 1
            pending += 1
    return <int>settled


cdef int _max_step(const stepcost_t[:, ::1] cost) noexcept:
    # the largest allowed step cost sets the size of the circular bucket queue
    cdef Py_ssize_t i, d
    cdef int m = 0
    with nogil:
        for i in range(cost.shape[0]):
            for d in range(cost.shape[1]):
                if cost[i, d] > m:
                    m = cost[i, d]
    return m


def bounded_search(neighbors, step_cost, sources, source_cost=None, limit=-1, stop=None,
                   toll=None, max_toll=0, toll_on_exit=False):
    """Bounded multi-source least-cost search over the hex grid.

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
    """
    nb_arr = np.ascontiguousarray(neighbors, dtype=np.int32)
    sc_arr = np.ascontiguousarray(step_cost, dtype=np.int16)
    if nb_arr.ndim != 2 or nb_arr.shape[1] != 6:
        raise ValueError("neighbors must have shape (n, 6)")
    if sc_arr.shape != nb_arr.shape:
        raise ValueError(f"step_cost has shape {sc_arr.shape}, expected {nb_arr.shape}")
    cdef Py_ssize_t n = nb_arr.shape[0]
    src_arr = np.ascontiguousarray(sources, dtype=np.int32).reshape(-1)
    if source_cost is None:
        srcc_arr = np.zeros(src_arr.shape[0], dtype=np.int32)
    else:
        srcc_arr = np.ascontiguousarray(source_cost, dtype=np.int32).reshape(-1)
    if srcc_arr.shape[0] != src_arr.shape[0]:
        raise ValueError("source_cost must have one entry per source")
    if src_arr.shape[0] and (src_arr.min() < 0 or src_arr.max() >= n):
        raise IndexError(f"a source is not a cell of a map of {n} cells")
    if srcc_arr.shape[0] and srcc_arr.min() < 0:
        raise ValueError("source costs must be >= 0")
    stop_arr = (np.zeros(n, dtype=np.uint8) if stop is None
                else np.ascontiguousarray(stop, dtype=np.uint8).reshape(-1))
    toll_arr = (np.zeros(n, dtype=np.uint8) if toll is None
                else np.ascontiguousarray(toll, dtype=np.uint8).reshape(-1))
    if stop_arr.shape[0] != n or toll_arr.shape[0] != n:
        raise ValueError("stop and toll must have one entry per cell")
    if max_toll < 0:
        raise ValueError("max_toll must be >= 0")
    cdef int layers = max_toll + 1
    cdef int max_step = _max_step(sc_arr)
    if srcc_arr.shape[0]:
        # the circular queue must span the spread of the starting costs too
        max_step = max(max_step, int(srcc_arr.max() - srcc_arr.min()))
    dist_arr = np.full(layers * n, -1, dtype=np.int32)
    pred_arr = np.full(layers * n, -1, dtype=np.int32)
    pool_size = src_arr.shape[0] + 6 * layers * n + 1
    pool_cell_arr = np.empty(pool_size, dtype=np.int32)
    pool_next_arr = np.empty(pool_size, dtype=np.int32)
    head_arr = np.full(max_step + 1, -1, dtype=np.int32)
    tail_arr = np.full(max_step + 1, -1, dtype=np.int32)

    cdef const cell_t[:, ::1] nbv = nb_arr
    cdef const stepcost_t[:, ::1] scv = sc_arr
    cdef const cell_t[::1] srcv = src_arr
    cdef const dist_t[::1] srccv = srcc_arr
    cdef const flag_t[::1] stopv = stop_arr
    cdef const flag_t[::1] tollv = toll_arr
    cdef dist_t[::1] distv = dist_arr
    cdef cell_t[::1] predv = pred_arr
    cdef cell_t[::1] pcv = pool_cell_arr
    cdef cell_t[::1] pnv = pool_next_arr
    cdef cell_t[::1] hv = head_arr
    cdef cell_t[::1] tv = tail_arr
    cdef dist_t lim = limit
    cdef Py_ssize_t ns = src_arr.shape[0]
    cdef int mt = max_toll
    cdef bint exit_mode = toll_on_exit
    if n == 0:
        return dist_arr.reshape(layers, 0), pred_arr.reshape(layers, 0)
    cdef const cell_t* srcp = &srcv[0] if ns else NULL
    cdef const dist_t* srccp = &srccv[0] if ns else NULL
    with nogil:
        dial_search(&nbv[0, 0], &scv[0, 0], n, srcp, srccp, ns, lim, &stopv[0], &tollv[0],
                    mt, exit_mode, max_step, &distv[0], &predv[0], &pcv[0], &pnv[0], &hv[0],
                    &tv[0])
    return dist_arr.reshape(layers, n), pred_arr.reshape(layers, n)
