# The fast entry points of the search kernel, for sibling kernels to cimport.
from libc.stdint cimport uint32_t, uint64_t

from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t


cdef struct SearchBuffers:
    # per state (layer * n + cell): dist and pred hold this search's values where
    # stamp == gen and are stale elsewhere, so a new search starts by bumping gen
    dist_t* dist
    cell_t* pred
    uint32_t* stamp
    uint32_t gen
    cell_t* touched          # the states stamped in this search, in the order stamped
    Py_ssize_t n_touched
    # the bucket queue: a ring of nb FIFO lists threaded through a pool of entries
    cell_t* pool_cell
    cell_t* pool_next
    cell_t* head
    cell_t* tail
    Py_ssize_t nb


cdef class SearchWorkspace:
    cdef readonly Py_ssize_t n_cells
    cdef readonly int n_layers
    cdef readonly object neighbors      # int32[n, 6], a read-only private copy
    cdef SearchBuffers buf
    cdef const cell_t* _nbr
    cdef cell_t* _block                 # dist, pred, touched and the pool, one allocation
    cdef object _out_dist, _out_pred    # dense results of the last search (read-only arrays)
    cdef dist_t* _od
    cdef cell_t* _op
    cdef tuple _views                   # (dist, pred) views of 1 .. n_layers layers
    cdef bint _out_dirty, _busy
    cdef int _layers_used               # layers of the last search

    # Search from the sources; step_cost has n_cells * 6 entries, stop and toll n_cells or
    # NULL (none), source_cost n_sources or NULL (all 0); max_toll < n_layers. Returns the
    # number of states settled. Results: dist_at / pred_at (O(1), no clearing), buf.touched,
    # or write_dense() then the arrays of run(). Not thread-safe: one workspace per thread.
    cdef int search(self, const stepcost_t* step_cost, const cell_t* sources,
                    const dist_t* source_cost, Py_ssize_t n_sources, dist_t limit,
                    const flag_t* stop, const flag_t* toll, int max_toll,
                    bint toll_on_exit) except -1 nogil
    cdef dist_t dist_at(self, Py_ssize_t state) noexcept nogil
    cdef cell_t pred_at(self, Py_ssize_t state) noexcept nogil
    cdef void write_dense(self) noexcept nogil


# Sort cells ascending in place (Shell's sort; nothing when sorted already).
cdef void _sort_cells(cell_t* a, Py_ssize_t k) noexcept nogil


# The last search's cost of state (layer * n + cell), -1 if it did not reach it: dist_at
# without the method call, for kernels reading many states (inlined where it is cimported).
cdef inline dist_t reached_cost(const SearchBuffers* b, Py_ssize_t state) noexcept nogil:
    return b.dist[state] if b.stamp[state] == b.gen else -1


# A unit's movement range: one source at cost 0, no tolls, a limit. Dial's algorithm with its
# FIFO buckets as arrays, one per cost level, and distances reset from the list of cells
# reached instead of stamped: the same distances and predecessors as SearchWorkspace.search
# with the same arguments, for fewer instructions a step.
cdef struct Range:
    Py_ssize_t n
    dist_t* dist             # [n] the cost of each cell reached, RANGE_FAR elsewhere; dist[-1]
                             # is -1 (the "cell" off the map: no step beats it)
    cell_t* pred             # [n] valid where dist is
    cell_t* touched          # [n] the cells reached, the source first, then in order reached
    Py_ssize_t n_touched
    cell_t* level            # [n_levels, n] the cells queued at each cost, in order queued
                             # (so (limit + 1) * n cells: meant for a unit's allowance)
    Py_ssize_t* count        # [n_levels]
    Py_ssize_t n_levels      # cost levels the buffers hold (limit + 1 at most)
    Py_ssize_t n_zero        # cells other than the source reached at cost 0 (with bits)

cdef enum:
    RANGE_FAR = 0x7FFFFFFF   # the distance of a cell not reached

cdef int range_alloc(Range* R, Py_ssize_t n) except -1 nogil
cdef void range_free(Range* R) noexcept nogil
# Search from src (0 <= src < n) within limit (>= 0), step costs [n, 6] (< 0 refused), stop
# cells entered but not left (NULL none; any non-zero byte stops); bits, NULL or a set of
# cells (bit c & 63 of word c >> 6) empty on entry, gets the cells reached at a cost above 0:
# R.n_touched - 1 - R.n_zero of them. Returns the cells settled.
cdef Py_ssize_t range_search(Range* R, const cell_t* nbr, const stepcost_t* step_cost,
                             cell_t src, dist_t limit, const flag_t* stop,
                             uint64_t* bits) except -1 nogil

cdef inline dist_t range_cost(const Range* R, Py_ssize_t c) noexcept nogil:
    # the last range search's cost of cell c, -1 if it did not reach it
    return R.dist[c] if R.dist[c] != RANGE_FAR else -1
