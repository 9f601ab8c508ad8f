# cython: language_level=3
"""The hex games' dice in compiled code (``hexdice.pxd``): a die from a named stream and a
policy's draw, the same numbers as ``gwe_fast.dice`` and ``Generator.integers`` give.

A ``gwe_fast.dice.DiceStream`` draws its dice ``BLOCK`` (256) at a time with
``Generator.integers(1, 7, size=256, dtype=int8)``; here the block is filled by the same
numpy C function on the same bit generator (``random_bounded_uint8_fill``), so the compiled
core and the Python engine roll the same dice. ``bind_stream`` copies a Python stream's
block, position and count into a C stream that shares its bit generator; ``sync_stream``
writes them back, so the Python engine goes on where the core stopped.

``roll_all`` exposes the dice for the tests that hold them to numpy; ``play.draws`` the
policy's draw.

``pcg64_seed_words`` gives the four words with which ``PCG64(SeedSequence(entropy,
spawn_key=...))`` seeds itself: numpy's seed sequence (a pool of four 32-bit words mixed
from the entropy, then hashed out into the state), computed in C, without numpy's
``SeedSequence`` object (about 28 µs a stream of a game, most of it ``generate_state``).
``gwe_fast.dice`` seeds its generators with them; the tests hold them to numpy.
"""

import numpy as np
cimport numpy as cnp
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int8_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy
from numpy.random cimport bitgen_t

cnp.import_array()

cdef extern from "numpy/random/distributions.h":
    uint64_t random_bounded_uint64(bitgen_t *bitgen_state, uint64_t off, uint64_t rng,
                                   uint64_t mask, bint use_masked) nogil
    void random_bounded_uint8_fill(bitgen_t *bitgen_state, uint8_t off, uint8_t rng,
                                   Py_ssize_t cnt, bint use_masked, uint8_t *out) nogil

BLOCK = DICE_BLOCK


cdef int roll(DiceStream* s) noexcept nogil:
    if s.pos >= s.n:
        # Generator.integers(1, 7, size=256, dtype=int8): off 1, range 5, Lemire's method
        random_bounded_uint8_fill(s.bg, 1, 5, DICE_BLOCK, 0, <uint8_t*>s.block)
        s.n = DICE_BLOCK
        s.pos = 0
    s.rolled += 1
    s.pos += 1
    return s.block[s.pos - 1]


cdef int64_t policy_draw(bitgen_t* bg, int64_t n) noexcept nogil:
    if n <= 1:
        return 0
    return <int64_t>random_bounded_uint64(bg, 0, <uint64_t>(n - 1), 0, 0)


cdef bitgen_t* generator_bitgen(object rng) except NULL:
    return <bitgen_t*>PyCapsule_GetPointer(rng.bit_generator.capsule, "BitGenerator")


cdef int bind_stream(DiceStream* s, object stream) except -1:
    if stream._forced:
        raise ValueError("a dice stream with forced values queued cannot be played by the "
                         "compiled core (force dice on the Python engine)")
    s.bg = generator_bitgen(stream._gen)
    cdef int8_t[::1] block = np.ascontiguousarray(stream._block, dtype=np.int8)
    cdef Py_ssize_t n = block.shape[0]
    if n > DICE_BLOCK:
        raise ValueError(f"a dice block of {n} dice (at most {DICE_BLOCK})")
    if n:
        memcpy(s.block, &block[0], n)
    s.n = <int>n
    s.pos = <int>stream._pos
    s.rolled = <int64_t>stream.rolled
    return 0


cdef int sync_stream(const DiceStream* s, object stream) except -1:
    block = np.empty(s.n, dtype=np.int8)
    cdef int8_t[::1] b = block
    if s.n:
        memcpy(&b[0], s.block, s.n)
    stream._block = block
    stream._values = None         # the block as Python ints, made if the engine rolls again
    stream._pos = s.pos
    stream.rolled = s.rolled
    return 0


cdef object bind_streams(DiceStream* streams, list held, object dice, tuple names, used,
                         dict spare=None):
    # bind the C streams used (indices into names) to the game's (dice: a GameDice), each
    # Python stream kept in held[d]; None, with nothing bound, when one has forced values
    # queued. A stream the game has not rolled yet is made here: the set of those is
    # returned, and unbind_streams drops each again if nothing rolled it, as the Python
    # engine makes a stream on its first roll
    for d in used:
        stream = dice._streams.get(names[d])
        if stream is not None and stream._forced:
            return None
    fresh = {d for d in used if names[d] not in dice._streams}
    for d in used:
        if spare and d in fresh and names[d] in spare:
            dice._streams[names[d]] = spare.pop(names[d])
        stream = dice.stream(names[d])
        bind_stream(&streams[d], stream)
        held[d] = stream
    return fresh


cdef int unbind_streams(DiceStream* streams, list held, object dice, tuple names, used,
                        object fresh, dict spare=None) except -1:
    # hand the C streams used back to the game's (sync_stream), and drop those bind_streams
    # made that nothing rolled (into spare, when given)
    for d in used:
        sync_stream(&streams[d], held[d])
        if d in fresh and streams[d].rolled == 0:
            stream = dice._streams.pop(names[d])
            if spare is not None:
                spare[names[d]] = stream
    return 0


cdef int bind_policies(bitgen_t** pol, int* level, object game) except -1:
    # each side's policy generator, and who answers its decisions in a hex game's core:
    # LEVEL_RANDOM for RandomPolicy itself, else LEVEL_EXTERNAL (the Python engine asks it)
    from gwe_fast.policies.base import RandomPolicy

    for side in (0, 1):
        level[side] = LEVEL_RANDOM if type(game.policies[side]) is RandomPolicy \
            else LEVEL_EXTERNAL
        pol[side] = generator_bitgen(game.rngs[side])
    return 0


def roll_all(stream, Py_ssize_t n):
    """``n`` dice of a ``gwe_fast.dice.DiceStream`` rolled by the compiled stream, which then
    hands the stream back where it stopped (for the tests)."""
    cdef DiceStream s
    bind_stream(&s, stream)
    out = np.empty(n, dtype=np.int8)
    cdef int8_t[::1] o = out
    cdef Py_ssize_t i
    with stream._gen.bit_generator.lock:
        for i in range(n):
            o[i] = <int8_t>roll(&s)
    sync_stream(&s, stream)
    return out


# numpy's SeedSequence: a pool of four words (DEFAULT_POOL_SIZE), its hash constants
cdef enum:
    POOL = 4
    MAX_ENTROPY = 64
cdef uint32_t INIT_A = 0x43b0d7e5, MULT_A = 0x931e8875
cdef uint32_t INIT_B = 0x8b51f9dd, MULT_B = 0x58f38ded
cdef uint32_t MIX_MULT_L = 0xca01f9dd, MIX_MULT_R = 0x4973f715


cdef inline uint32_t _hashmix(uint32_t value, uint32_t* h) noexcept nogil:
    value ^= h[0]
    h[0] *= MULT_A
    value *= h[0]
    value ^= value >> 16
    return value


cdef inline uint32_t _mix(uint32_t x, uint32_t y) noexcept nogil:
    cdef uint32_t r = MIX_MULT_L * x - MIX_MULT_R * y
    r ^= r >> 16
    return r


cdef int _int_words(object value, uint32_t* out, int n, str what) except -1:
    # a non-negative int as 32-bit words, least significant first; 0 is one word
    if not isinstance(value, int) or value < 0:
        raise ValueError(f"{what} must be a non-negative int, not {value!r}")
    if value == 0:
        if n >= MAX_ENTROPY:
            raise ValueError("too much entropy for a seed")
        out[n] = 0
        return n + 1
    while value > 0:
        if n >= MAX_ENTROPY:
            raise ValueError("too much entropy for a seed")
        out[n] = <uint32_t>(value & 0xFFFFFFFF)
        value >>= 32
        n += 1
    return n


cdef void seed_sequence_words(const uint32_t* entropy, int n_entropy, uint32_t* out,
                              int n_out) noexcept nogil:
    cdef uint32_t pool[POOL]
    cdef uint32_t h, v
    cdef int i, j
    # mix the entropy into the pool
    h = INIT_A
    for i in range(POOL):
        pool[i] = _hashmix(entropy[i] if i < n_entropy else 0, &h)
    for i in range(POOL):
        for j in range(POOL):
            if i != j:
                pool[j] = _mix(pool[j], _hashmix(pool[i], &h))
    for i in range(POOL, n_entropy):
        for j in range(POOL):
            pool[j] = _mix(pool[j], _hashmix(entropy[i], &h))
    # generate_state: the words hashed out of the pool in turn
    h = INIT_B
    for i in range(n_out):
        v = pool[i % POOL] ^ h
        h *= MULT_B
        v *= h
        v ^= v >> 16
        out[i] = v


def pcg64_seed_words(entropy, spawn_key=()):
    """The ``uint64[4]`` that ``SeedSequence(entropy, spawn_key=spawn_key)
    .generate_state(4, np.uint64)`` gives (PCG64's seed and increment), for a non-negative
    int ``entropy`` and a tuple of them ``spawn_key``."""
    cdef uint32_t words[MAX_ENTROPY]
    cdef uint32_t state[2 * POOL]
    cdef int n = _int_words(entropy, words, 0, "the entropy"), i
    if len(spawn_key):
        while n < POOL:                        # the run entropy padded to the pool
            words[n] = 0
            n += 1
        for key in spawn_key:
            n = _int_words(key, words, n, "a spawn key")
    seed_sequence_words(words, n, state, 2 * POOL)
    out = np.empty(POOL, dtype=np.uint64)
    cdef uint64_t* o = <uint64_t*>cnp.PyArray_DATA(out)
    for i in range(POOL):                      # read as four little-endian words
        o[i] = <uint64_t>state[2 * i] | (<uint64_t>state[2 * i + 1] << 32)
    return out
