"""Seeded, named dice streams: every game has its own, and any game can be replayed.

Game ``i`` of a run with master seed ``S`` draws from ``SeedSequence(S, spawn_key=(i, k))``
where ``k`` is a fixed code of the purpose (combat, attrition, command …). Streams are
independent: a scenario variant that rolls fewer attrition dice still sees the same combat
dice for as long as play has not diverged. A stream hands out six-sided dice from a block
drawn in advance (``BLOCK`` at a time), so the compiled engine and the pure-Python engine,
which read the same blocks, see the same rolls.

Examples
--------
>>> d = GameDice(master_seed=7, game_index=0)
>>> a = [d.roll("combat") for _ in range(5)]
>>> b = GameDice(7, 0)
>>> a == [b.roll("combat") for _ in range(5)]
True
>>> d.force("combat", [6, 1])
>>> d.roll("combat"), d.roll("combat")
(6, 1)
"""

from __future__ import annotations

import zlib
from collections import deque

import numpy as np
from numpy.random.bit_generator import ISeedSequence

try:
    from gwe_fast._core.hexdice import pcg64_seed_words as _seed_words
except ImportError:              # not built: numpy's SeedSequence gives the same words
    _seed_words = None

BLOCK = 256

# Purposes in use. Codes come from the name (CRC-32), so adding a purpose never moves another.
STREAMS = ("combat", "attrition", "command", "replacement", "withdrawal", "panic", "breakdown",
           "reinforcement", "weather", "artillery", "air", "gas", "setup", "opening", "policy-allied",
           "policy-central")


def stream_code(name: str) -> int:
    """The fixed integer code of a stream name."""
    return zlib.crc32(name.encode("utf-8"))


def game_seed_sequence(master_seed: int, game_index: int, stream: str) -> np.random.SeedSequence:
    """The seed sequence of one stream of one game."""
    if master_seed < 0 or game_index < 0:
        raise ValueError("master seed and game index must be >= 0")
    return np.random.SeedSequence(master_seed, spawn_key=(game_index, stream_code(stream)))


class _PresetSeed(ISeedSequence):
    """The seed sequence of one stream of one game with PCG64's four words computed already
    (``hexdice.pcg64_seed_words``): a generator seeded from it is the one
    ``game_seed_sequence`` seeds, at a fifteenth of the cost. Any other request is handed to
    the ``SeedSequence`` itself, made then."""

    __slots__ = ("_key", "_words")

    def __init__(self, key: tuple[int, int, int], words: np.ndarray):
        self._key = key
        self._words = words

    def generate_state(self, n_words, dtype=np.uint32):
        if n_words == 4 and np.dtype(dtype) == np.uint64:
            return self._words.copy()
        master_seed, game_index, code = self._key
        return np.random.SeedSequence(master_seed, spawn_key=(game_index, code)).generate_state(
            n_words, dtype)


def _generator(master_seed: int, game_index: int, stream: str) -> np.random.Generator:
    # Generator(PCG64(game_seed_sequence(...))), its seed words from the compiled kernel
    # when there is one
    if master_seed < 0 or game_index < 0:
        raise ValueError("master seed and game index must be >= 0")
    code = stream_code(stream)
    if _seed_words is None:
        seq = np.random.SeedSequence(master_seed, spawn_key=(game_index, code))
    else:
        seq = _PresetSeed((master_seed, game_index, code),
                          _seed_words(master_seed, (game_index, code)))
    return np.random.Generator(np.random.PCG64(seq))


class DiceStream:
    """Six-sided dice from one seeded stream, drawn a block at a time: from ``seq``, a seed
    sequence, or ``gen``, a generator seeded already."""

    def __init__(self, seq: np.random.SeedSequence | None = None,
                 gen: np.random.Generator | None = None):
        if (seq is None) == (gen is None):
            raise ValueError("a dice stream needs a seed sequence or a generator, not both")
        self._gen = gen if gen is not None else np.random.Generator(np.random.PCG64(seq))
        self._block = np.empty(0, dtype=np.int8)
        # the block as Python ints, read by roll(); None until roll() needs it when the
        # compiled core handed the stream back (hexdice.sync_stream)
        self._values: list[int] | None = []
        self._pos = 0
        self._forced: deque[int] = deque()
        self.rolled = 0

    def roll(self) -> int:
        """One die, 1..6 (a forced value first, if any)."""
        self.rolled += 1
        if self._forced:
            return self._forced.popleft()
        values = self._values
        if values is None:                    # handed back by the compiled core: read lazily
            values = self._values = self._block.tolist()
        if self._pos == len(values):
            self._block = self._gen.integers(1, 7, size=BLOCK, dtype=np.int8)
            values = self._values = self._block.tolist()
            self._pos = 0
        v = values[self._pos]
        self._pos += 1
        return v

    def snapshot(self) -> np.ndarray:
        """The stream's whole state as ``uint64`` words (generator, block, position, count)."""
        return _pack(self._gen, self._block, self._pos, self.rolled, self._forced)

    def restore(self, words: np.ndarray) -> None:
        self._block, self._pos, self.rolled, forced = _unpack(self._gen, words)
        self._values = self._block.tolist()
        self._forced = deque(forced)

    def force(self, values) -> None:
        """Queue values that the next rolls return, before the stream resumes (for tests)."""
        for v in values:
            if not 1 <= int(v) <= 6:
                raise ValueError(f"a die shows 1..6, not {v}")
            self._forced.append(int(v))


class GameDice:
    """All the dice of one game, by purpose, plus the policies' own generators."""

    def __init__(self, master_seed: int, game_index: int):
        self.master_seed = int(master_seed)
        self.game_index = int(game_index)
        self._streams: dict[str, DiceStream] = {}

    def stream(self, name: str) -> DiceStream:
        if name not in STREAMS:
            raise ValueError(f"unknown dice stream {name!r}; known: {', '.join(STREAMS)}")
        s = self._streams.get(name)
        if s is None:
            s = self._streams[name] = DiceStream(
                gen=_generator(self.master_seed, self.game_index, name))
        return s

    def roll(self, name: str) -> int:
        """One die from the named stream."""
        s = self._streams.get(name)            # stream() makes it (or refuses the name)
        return (s or self.stream(name)).roll()

    def force(self, name: str, values) -> None:
        """Make the next rolls of a stream return ``values`` (tests build positions this way)."""
        self.stream(name).force(values)

    def policy_rng(self, side: str) -> np.random.Generator:
        """The generator handed to one side's policy; it never touches the game's dice."""
        return _generator(self.master_seed, self.game_index, f"policy-{side}")

    def snapshot(self) -> dict[str, np.ndarray]:
        """Every stream's state by name (streams not used yet are absent)."""
        return {name: s.snapshot() for name, s in self._streams.items()}

    def restore(self, saved: dict[str, np.ndarray]) -> None:
        """Put the streams back as ``snapshot`` found them, so play resumes identically."""
        for name, words in saved.items():
            self.stream(name).restore(words)

    def counts(self) -> dict[str, int]:
        """How many dice each stream has rolled (for records and replays)."""
        return {k: s.rolled for k, s in self._streams.items()}


def _pack(gen: np.random.Generator, block: np.ndarray, pos: int, rolled: int, forced) -> np.ndarray:
    st = gen.bit_generator.state
    mask = (1 << 64) - 1
    s, inc = st["state"]["state"], st["state"]["inc"]
    head = [s >> 64, s & mask, inc >> 64, inc & mask, st["has_uint32"], st["uinteger"],
            pos, rolled, block.shape[0], len(forced)]
    return np.array(head + [int(v) for v in block] + [int(v) for v in forced], dtype=np.uint64)


def _unpack(gen: np.random.Generator, words: np.ndarray):
    w = [int(x) for x in words]
    st = gen.bit_generator.state
    st["state"]["state"] = (w[0] << 64) | w[1]
    st["state"]["inc"] = (w[2] << 64) | w[3]
    st["has_uint32"], st["uinteger"] = w[4], w[5]
    gen.bit_generator.state = st
    pos, rolled, nblock, nforced = w[6], w[7], w[8], w[9]
    block = np.array(w[10:10 + nblock], dtype=np.int8)
    forced = w[10 + nblock:10 + nblock + nforced]
    return block, pos, rolled, forced


def snapshot_generator(gen: np.random.Generator) -> np.ndarray:
    """A policy generator's state as ``uint64`` words."""
    return _pack(gen, np.zeros(0, dtype=np.int8), 0, 0, ())


def restore_generator(gen: np.random.Generator, words: np.ndarray) -> None:
    _unpack(gen, words)
