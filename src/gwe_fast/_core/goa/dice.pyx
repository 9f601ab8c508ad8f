# cython: language_level=3
"""The Guns of August's dice in C: SplitMix64 (``dice.pxd``) and the seeding of its streams.

``seed_state`` is numpy's ``SeedSequence`` (Melissa O'Neill's ``seed_seq_fe``, as numpy
states it) for the one case the game uses: entropy a master seed, spawn key ``(game index,
stream code)``, one 64-bit word out. It costs well under a microsecond against about 100 us
for ``SeedSequence`` itself, which matters when a campaign takes half a millisecond; a test
holds it to numpy's over many seeds. The seed sequence itself is stated once, in
``hexdice.seed_sequence_words``, which the hex games' streams share.
"""

from libc.stdint cimport uint32_t, uint64_t

from gwe_fast._core.hexdice cimport seed_sequence_words

from gwe_fast.dice import stream_code
from gwe_fast.games.goa.dice import STREAMS

cdef enum:
    POOL = 4          # SeedSequence's pool (hexdice.seed_sequence_words)


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
    cdef int n = _words(master, entropy)
    while n < POOL:                   # run entropy padded to the pool size (a spawn key follows)
        entropy[n] = 0
        n += 1
    n += _words(index, entropy + n)
    n += _words(code, entropy + n)
    # generate_state: two 32-bit words, the first the low half of the 64-bit word
    cdef uint32_t out[2]
    seed_sequence_words(entropy, n, out, 2)
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
