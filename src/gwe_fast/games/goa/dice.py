"""The dice of a Guns of August game: SplitMix64 streams, the same in Python and in C.

A game draws every die from one stream, in the order the rules roll them; each side's
policy has a stream of its own. Stream ``k`` of game ``i`` of master seed ``S`` starts from
``SeedSequence(S, spawn_key=(i, code(k)))``, as the other games' dice do
(``gwe_fast.dice``). SplitMix64 is a few lines of integer arithmetic, so the compiled core
(``_core/goa``) draws exactly the numbers this module draws.

Examples
--------
>>> d = Stream.of(7, 0, "goa")
>>> rolls = [d.die() for _ in range(6)]
>>> all(1 <= r <= 6 for r in rolls), rolls == [Stream.of(7, 0, "goa").die() for _ in range(6)]
(True, True)
"""

from __future__ import annotations

import numpy as np

from gwe_fast.dice import stream_code

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
STREAMS = ("goa", "goa-policy-allied", "goa-policy-central")


def seed_state(master_seed: int, game_index: int, name: str) -> int:
    """The 64-bit starting state of one stream of one game."""
    if master_seed < 0 or game_index < 0:
        raise ValueError("master seed and game index must be >= 0")
    seq = np.random.SeedSequence(master_seed, spawn_key=(game_index, stream_code(name)))
    return int(seq.generate_state(1, np.uint64)[0])


def next64(state: int) -> tuple[int, int]:
    """SplitMix64: ``(new state, output)``."""
    state = (state + GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


class Stream:
    """One stream: ``die()`` is 1..6, ``below(n)`` is 0..n-1 (the upper 32 bits, scaled)."""

    __slots__ = ("state", "forced")

    def __init__(self, state: int):
        self.state = state & MASK
        self.forced: list[int] = []

    @classmethod
    def of(cls, master_seed: int, game_index: int, name: str) -> Stream:
        return cls(seed_state(master_seed, game_index, name))

    def below(self, n: int) -> int:
        self.state, z = next64(self.state)
        return ((z >> 32) * n) >> 32

    def die(self) -> int:
        if self.forced:
            return self.forced.pop(0)
        return 1 + self.below(6)

    def force(self, values) -> None:
        """The next dice are these (tests)."""
        self.forced.extend(int(v) for v in values)
