# SplitMix64 streams (games/goa/dice.py) and numpy's SeedSequence for their seeds, in C.
from libc.stdint cimport uint32_t, uint64_t


cdef inline uint64_t sm_next(uint64_t* state) noexcept nogil:
    # SplitMix64: advance the state, return the output
    state[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef inline int below(uint64_t* state, int n) noexcept nogil:
    # 0 .. n-1: the output's upper 32 bits, scaled (Stream.below)
    return <int>(((sm_next(state) >> 32) * <uint64_t>n) >> 32)


cdef inline int die(uint64_t* state) noexcept nogil:
    return 1 + below(state, 6)


# The first 64-bit word of SeedSequence(master, spawn_key=(index, code)).generate_state(1,
# uint64): the starting state of stream `code` of game `index` (dice.seed_state).
cdef uint64_t seed_state(uint64_t master, uint64_t index, uint32_t code) noexcept nogil
