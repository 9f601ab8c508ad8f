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
"""

import numpy as np
from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int8_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy
from numpy.random cimport bitgen_t

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
    stream._values = block.tolist()
    stream._pos = s.pos
    stream.rolled = s.rolled
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
