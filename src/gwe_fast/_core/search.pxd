# The fast entry point of the search kernel, for sibling kernels to cimport.
from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t

cdef int dial_search(
    const cell_t* neighbors, const stepcost_t* step_cost, Py_ssize_t n,
    const cell_t* sources, const dist_t* source_cost, Py_ssize_t n_sources,
    dist_t limit, const flag_t* stop, const flag_t* toll, int max_toll, bint toll_on_exit,
    int max_step, dist_t* dist, cell_t* pred, cell_t* pool_cell, cell_t* pool_next,
    cell_t* bucket_head, cell_t* bucket_tail,
) except -1 nogil
