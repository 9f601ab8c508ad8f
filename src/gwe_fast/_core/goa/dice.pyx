# cython: language_level=3
"""The Guns of August's dice in C: SplitMix64 (``dice.pxd``) and the seeding of its streams.

``seed_state`` is numpy's ``SeedSequence`` (Melissa O'Neill's ``seed_seq_fe``, as numpy
states it) for the one case the game uses: entropy a master seed, spawn key ``(game index,
stream code)``, one 64-bit word out. It costs well under a microsecond against about 100 us
for ``SeedSequence`` itself, which matters when a campaign takes half a millisecond; a test
holds it to numpy's over many seeds.
"""

from libc.stdint cimport uint32_t, uint64_t

from gwe_fast.dice import stream_code
from gwe_fast.games.goa.dice import STREAMS

cdef enum:
    POOL = 4

cdef uint32_t INIT_A = 0x43b0d7e5U
cdef uint32_t MULT_A = 0x931e8875U
cdef uint32_t INIT_B = 0x8b51f9ddU
cdef uint32_t MULT_B = 0x58f38dedU
cdef uint32_t MIX_MULT_L = 0xca01f9ddU
cdef uint32_t MIX_MULT_R = 0x4973f715U


cdef inline uint32_t _hashmix(uint32_t value, uint32_t* hash_const) noexcept nogil:
    value ^= hash_const[0]
    hash_const[0] *= MULT_A
    value *= hash_const[0]
    value ^= value >> 16
    return value


cdef inline uint32_t _mix(uint32_t x, uint32_t y) noexcept nogil:
    cdef uint32_t r = MIX_MULT_L * x - MIX_MULT_R * y
    return r ^ (r >> 16)


cdef int _words(uint64_t x, uint32_t* out) noexcept nogil:
    # an integer as numpy's _int_to_uint32_array: low word first, [0] for 0
    if x == 0:
        out[0] = 0
        return 1
    cdef int n = 0
    while x > 0:
        out[n] = <uint32_t>(x & 0xFFFFFFFFULL)
        x >>= 32
        n += 1
    return n


cdef uint64_t seed_state(uint64_t master, uint64_t index, uint32_t code) noexcept nogil:
    cdef uint32_t entropy[12]
    cdef uint32_t pool[POOL]
    cdef int n = _words(master, entropy)
    cdef int i, j
    while n < POOL:                   # run entropy padded to the pool size (a spawn key follows)
        entropy[n] = 0
        n += 1
    n += _words(index, entropy + n)
    n += _words(code, entropy + n)
    cdef uint32_t h = INIT_A
    for i in range(POOL):
        pool[i] = _hashmix(entropy[i] if i < n else 0, &h)
    for i in range(POOL):
        for j in range(POOL):
            if i != j:
                pool[j] = _mix(pool[j], _hashmix(pool[i], &h))
    for i in range(POOL, n):
        for j in range(POOL):
            pool[j] = _mix(pool[j], _hashmix(entropy[i], &h))
    # generate_state: two 32-bit words, the first the low half of the 64-bit word
    cdef uint32_t out[2]
    cdef uint32_t g = INIT_B
    cdef uint32_t v
    for i in range(2):
        v = pool[i % POOL]
        v ^= g
        g *= MULT_B
        v *= g
        v ^= v >> 16
        out[i] = v
    return (<uint64_t>out[1] << 32) | out[0]


def stream_state(master_seed: int, game_index: int, name: str) -> int:
    """The starting state of one stream of one game (``dice.seed_state``, computed in C).

    >>> from gwe_fast.games.goa.dice import seed_state as reference
    >>> stream_state(7, 3, "goa") == reference(7, 3, "goa")
    True
    """
    if not 0 <= master_seed < 1 << 64 or not 0 <= game_index < 1 << 64:
        raise ValueError("master seed and game index must be in 0 .. 2**64 - 1")
    return seed_state(master_seed, game_index, stream_code(name))


def game_states(master_seed: int, game_index: int) -> tuple:
    """The starting states of a game's three streams, in ``dice.STREAMS`` order."""
    return tuple(stream_state(master_seed, game_index, name) for name in STREAMS)


def below_draws(state: int, ns) -> tuple:
    """``([below(n) for n in ns], the state left)`` drawn in C from a stream at ``state`` (the
    tests hold it to ``dice.Stream``)."""
    cdef uint64_t st = state & 0xFFFFFFFFFFFFFFFF
    out = []
    for n in ns:
        if not 0 < n < 1 << 31:
            raise ValueError(f"cannot draw below {n}")
        out.append(below(&st, n))
    return out, st
