# The fast entry points of the bit-parallel search (bitsearch.pyx), for sibling kernels to
# cimport.
from libc.stdint cimport uint64_t
from libc.string cimport memcpy

from gwe_fast._core._types cimport cell_t, dist_t, stepcost_t


cdef enum:
    BITS_MAX_SHIFTS = 16     # distinct steps (v - u) a table may have: a rectangle has 8
    BITS_MAX_TOKENS = 8      # bits_levels takes a max_toll below this


# A step table as bitboards (cell c is bit c & 63 of word c >> 6): the steps grouped by how
# far they move in the cell index (v - u), each group a shift and the set of cells whose step
# of that shift is allowed. Made once per table (stepbits_build), read-only afterwards.
cdef struct StepBits:
    Py_ssize_t n
    Py_ssize_t nw            # words of a cell set
    Py_ssize_t pad           # spare words each side of a set a spread writes (stepbits_new)
    int n_shifts
    Py_ssize_t shift[BITS_MAX_SHIFTS]
    Py_ssize_t word[BITS_MAX_SHIFTS]    # shift[i] >> 6 (rounded down) and shift[i] & 63
    int bit[BITS_MAX_SHIFTS]
    uint64_t* mask           # [nw, BITS_MAX_SHIFTS]: word w of the cells whose step by
                             # shift[i] is allowed at mask[w * BITS_MAX_SHIFTS + i]
    bint usable              # the table's steps took at most BITS_MAX_SHIFTS shifts
    bint unit                # and every step allowed costs 1 (else only reachability holds)


cdef int stepbits_build(StepBits* S, const cell_t* nbr, const stepcost_t* steps,
                        Py_ssize_t n) except -1 nogil
# the same of the table's steps taken backward (x's step d: the step into x of its neighbour
# that way), on a neighbour table that leads back
cdef int stepbits_build_back(StepBits* S, const cell_t* nbr, const stepcost_t* steps,
                             Py_ssize_t n) except -1 nogil
cdef void stepbits_free(StepBits* S) noexcept nogil

# out |= the cells one allowed step from a cell of src; src is zero outside its words
# lo .. hi - 1; out has S.pad spare words each side (written with zeros only)
cdef void bits_spread(const StepBits* S, const uint64_t* src, Py_ssize_t lo, Py_ssize_t hi,
                      uint64_t* out) noexcept nogil

# The cells a fill that reached `reached` read of its within set, a superset: those reached and
# those one allowed step from them (the candidates of every level), into read[nw]; work holds
# nw + 2 pad words
cdef void bits_read_by(const StepBits* S, const uint64_t* reached, uint64_t* read,
                       uint64_t* work) noexcept nogil

# The cells within levels steps (levels < 0: any number) of the sources by allowed steps,
# entering only cells of within, leaving no stop cell but a source (stop NULL: none): seen
# gets them, the sources among them. work: 2 S.nw + 2 S.pad words.
cdef void bits_fill(const StepBits* S, const uint64_t* sources, const uint64_t* within,
                    const uint64_t* stop, Py_ssize_t levels, uint64_t* seen,
                    uint64_t* work) noexcept nogil

# Breadth first from the sources, entering only cells of within, on a table whose every step
# costs 1: dist[c] (S.n of them) the steps from the nearest source to c, -1 where none
# reaches; a source is 0 (and left) whether or not it is within. work:
# bits_distances_work words.
cdef void bits_distances(const StepBits* S, const uint64_t* sources, const uint64_t* within,
                         dist_t* dist, uint64_t* work) noexcept nogil

cdef inline Py_ssize_t bits_distances_work(const StepBits* S) noexcept nogil:
    return 3 * S.nw + 2 * S.pad

# Breadth-first levels of a search with tolls paid on leaving a cell (one token a toll cell),
# every step costing 1: reach[(d * T + t) * nw ...] gets the cells reached within d steps by a
# path paying at most t tokens (T = max_toll + 1), for d = 0 .. the level returned (at most
# levels; when below, the levels after it are the same, and reach has one more written). A stop cell is entered but not
# left, unless it is a source. stop and toll are cell sets (not NULL); max_toll below
# BITS_MAX_TOKENS. work: bits_levels_work words.
cdef Py_ssize_t bits_levels(const StepBits* S, const uint64_t* sources, const uint64_t* stop,
                            const uint64_t* toll, int max_toll, Py_ssize_t levels,
                            uint64_t* reach, uint64_t* work) noexcept nogil

cdef inline Py_ssize_t bits_levels_work(const StepBits* S, int max_toll) noexcept nogil:
    return (max_toll + 1) * (2 * S.nw + 2 * S.pad) + 4 * S.nw

cdef inline bint bit_at(const uint64_t* bits, Py_ssize_t c) noexcept nogil:
    return (bits[c >> 6] >> (c & 63)) & 1


# A StepBits owned by a Python object (a scenario's tables keep theirs in one)
cdef class StepSets:
    cdef StepBits b


cdef extern from *:
    int __builtin_ctzll(unsigned long long x) nogil

cdef inline Py_ssize_t bits_cells(const uint64_t* bits, Py_ssize_t nw,
                                  cell_t* out) noexcept nogil:
    # the cells of a set into out, ascending; how many
    cdef Py_ssize_t w, m = 0
    cdef uint64_t x
    for w in range(nw):
        x = bits[w]
        while x:
            out[m] = <cell_t>((w << 6) + __builtin_ctzll(x))
            m += 1
            x &= x - 1
    return m

cdef inline void bits_mark(const uint64_t* bits, Py_ssize_t nw, unsigned char* out) noexcept nogil:
    # out[c] = 1 for each cell c of a set (the others left as they are)
    cdef Py_ssize_t w
    cdef uint64_t x
    for w in range(nw):
        x = bits[w]
        while x:
            out[(w << 6) + __builtin_ctzll(x)] = 1
            x &= x - 1

cdef inline void bits_pack(const unsigned char* flags, Py_ssize_t n, uint64_t* out) noexcept nogil:
    # out = the cells c whose flags[c] is not 0, eight at a time: each byte made 0 or 1 (its
    # high bit, or a carry out of its low seven), then the eight gathered into one byte by a
    # multiplication (byte i of x lands in bit 56 + i of x * 0x0102040810204080, no carries)
    cdef Py_ssize_t w, i, c
    cdef uint64_t x, acc
    for w in range(n >> 6):
        acc = 0
        for i in range(8):
            memcpy(&x, flags + (w << 6) + (i << 3), 8)
            x = ((x | ((x & 0x7F7F7F7F7F7F7F7FULL) + 0x7F7F7F7F7F7F7F7FULL)) >> 7) \
                & 0x0101010101010101ULL
            acc |= ((x * 0x0102040810204080ULL) >> 56) << (i << 3)
        out[w] = acc
    if n & 63:
        acc = 0
        for c in range(n & ~63, n):
            acc |= (<uint64_t>(flags[c] != 0)) << (c & 63)
        out[n >> 6] = acc
