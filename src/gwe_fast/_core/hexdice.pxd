# The hex games' dice in C: the same numbers as gwe_fast.dice (a numpy PCG64 a stream, six-sided
# dice drawn DICE_BLOCK at a time) and as a policy's Generator.integers(n).
from libc.stdint cimport int8_t, int64_t, uint32_t, uint64_t
from numpy.random cimport bitgen_t


cdef enum:
    DICE_BLOCK = 256
    # who answers a side's decisions inside a hex game's core (bind_policies)
    LEVEL_EXTERNAL = 0            # a Python policy: the phase is played by the Python engine
    LEVEL_RANDOM = 1              # RandomPolicy: Generator.integers(n) on the side's generator


cdef struct DiceStream:
    bitgen_t* bg                  # the stream's bit generator: numpy's own, its Generator's
    int8_t block[DICE_BLOCK]      # the dice drawn in advance
    int n                         # dice in the block (0: none drawn yet)
    int pos                       # the next die of the block (n: used up)
    int64_t rolled                # dice rolled by the stream, all told


# one die, 1..6 (DiceStream.roll: a new block when the last is used up)
cdef int roll(DiceStream* s) noexcept nogil
# Generator.integers(n) on the policy's bit generator: 0 .. n-1, no draw for n == 1
cdef int64_t policy_draw(bitgen_t* bg, int64_t n) noexcept nogil
# the bit generator of a numpy Generator (its capsule); raises if it has none
cdef bitgen_t* generator_bitgen(object rng) except NULL
# bind a C stream to a gwe_fast.dice.DiceStream (its generator, block, position and count);
# ValueError when it has forced values queued (tests force dice on the reference only)
cdef int bind_stream(DiceStream* s, object stream) except -1
# write the C stream's block, position and count back into the Python stream
cdef int sync_stream(const DiceStream* s, object stream) except -1
# numpy's SeedSequence (pool size 4) from its assembled entropy (the run entropy as 32-bit
# words, low first, padded with zeros to 4 words when a spawn key follows, then the spawn key's
# words): n_out 32-bit words of generate_state into out (two of them make a uint64, low first)
cdef void seed_sequence_words(const uint32_t* entropy, int n_entropy, uint32_t* out,
                              int n_out) noexcept nogil
# bind a core's C streams used (indices into names) to the game's GameDice for a phase,
# keeping each Python stream in held; None when one has forced values queued, else the set of
# streams made here; unbind_streams hands them back and drops those made but not rolled
# (spare, when given, a dict of the streams dropped unrolled before, which a later bind takes
# back instead of making them again: a stream nothing rolled is as new)
cdef object bind_streams(DiceStream* streams, list held, object dice, tuple names, used,
                         dict spare=*)
cdef int unbind_streams(DiceStream* streams, list held, object dice, tuple names, used,
                        object fresh, dict spare=*) except -1
# each side's policy generator and who answers its decisions (LEVEL_) in a hex game's core
cdef int bind_policies(bitgen_t** pol, int* level, object game) except -1
