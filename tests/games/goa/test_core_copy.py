"""Copies of a game in the compiled core (``engine.core_copy`` / ``core_assign``,
``GoaCore.copy``): a copy made at any decision plays on exactly as the original plays on
(state bytes, decisions, dice and policy streams, trace, per-month record), the original is
untouched by the copy's play, and no word of the copy's C record points into the original's
memory (so a pointer field added to ``Core`` and not re-pointed fails here)."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import numpy as np
import pytest

from gwe_fast._core.goa import LEVEL_EXTERNAL, LEVEL_RANDOM, RUN_DECISION, RUN_OVER
from gwe_fast._core.goa.engine import (GoaCore, copy_through_c, core_record_size, record_words,
                                       shared_offsets, stale_pointers)
from gwe_fast.games.goa.codes import Kind
from gwe_fast.games.goa.scenario import scenario_from_raw

import tiny

#: every decision kind occurs in the first games of this world (the test checks it)
OPTIONS = {"naval": True, "colonies": True, "naval_combat_chart": True, "land": "fronts"}


@pytest.fixture(scope="module")
def goa():
    return scenario_from_raw(tiny.raw(), OPTIONS).goa


def _answer(core: GoaCore, rng: random.Random) -> None:
    core.choose(rng.randrange(len(core.options)))


def _to_decision(goa, game: int, kind: int, occurrence: int):
    """A core of game ``game`` (Python answers from a seeded generator) stopped at the
    ``occurrence``-th decision of ``kind``, with the generator; None when the game asks
    fewer."""
    rng = random.Random(game)
    core = GoaCore(goa, seed=11, game_index=game, levels=(LEVEL_EXTERNAL, LEVEL_EXTERNAL),
                   record=True, trace=True)
    seen = 0
    while core.run() == RUN_DECISION:
        if core.kind == kind:
            seen += 1
            if seen == occurrence:
                return core, rng
        _answer(core, rng)
    return None


def _finish(core: GoaCore, rng: random.Random) -> None:
    """Answer the pending decision, then let the compiled random policy play to the end."""
    _answer(core, rng)
    core.set_levels(LEVEL_RANDOM, LEVEL_RANDOM)
    assert core.run() == RUN_OVER


def _same_game(a: GoaCore, b: GoaCore) -> None:
    assert bytes(a.buffer) == bytes(b.buffer)
    assert a.state.equals(b.state)
    assert (a.decisions, a.decisions_in_c, a.streams, a.month, a.result) == \
        (b.decisions, b.decisions_in_c, b.streams, b.month, b.result)
    assert np.array_equal(a.trace_rows, b.trace_rows)
    assert np.array_equal(a.history, b.history)
    assert np.array_equal(a.history_objectives, b.history_objectives)


@pytest.mark.parametrize("kind", list(Kind), ids=[k.name.lower() for k in Kind])
def test_a_copy_at_a_decision_of_every_kind_plays_on_as_the_original(goa, kind):
    # the second of its kind in a game where there is one (a sequence under way), else the first
    found = None
    for occurrence in (2, 1):
        for game in range(40):
            found = _to_decision(goa, game, int(kind), occurrence)
            if found:
                break
        if found:
            break
    assert found, f"no {kind.name} decision in the test world's first games"
    a, rng = found
    b, c = a.copy(), a.copy()
    assert (b.pending, b.kind, b.side, b.subject, b.secret) == \
        (a.pending, a.kind, a.side, a.subject, a.secret)
    assert list(b.options) == list(a.options)
    assert stale_pointers(b, a) == [] and stale_pointers(c, a) == []
    before = (bytes(a.buffer), a.streams, a.decisions, a.trace_rows.copy())
    state = rng.getstate()
    rb, rc = random.Random(), random.Random()
    rb.setstate(state)
    rc.setstate(state)
    _finish(b, rb)                               # the copy first: the original is untouched
    assert (bytes(a.buffer), a.streams, a.decisions) == before[:3]
    assert np.array_equal(a.trace_rows, before[3]) and a.pending
    _finish(a, rng)                              # then the original, then a copy made before
    _finish(c, rc)                               # either played (no memory shared with it)
    _same_game(a, b)
    _same_game(a, c)


def test_a_copy_by_the_c_api_plays_on_as_the_original(goa):
    a, rng = _to_decision(goa, 1, int(Kind.COLONIAL), 3)     # colonial moves of the phase kept
    b, stale = copy_through_c(a)
    assert stale == [] and stale_pointers(b, a) == []
    rb = random.Random()
    rb.setstate(rng.getstate())
    _finish(a, rng)
    _finish(b, rb)
    _same_game(a, b)


def test_a_copy_between_months_plays_on_as_the_original(goa):
    a = GoaCore(goa, seed=4, game_index=2, levels=(LEVEL_RANDOM, LEVEL_RANDOM),
                stop_at_month_end=True, record=True)
    for _ in range(5):
        a.run()
    b = a.copy()
    del a                                        # freed: the copy owns everything it reads
    ref = GoaCore(goa, seed=4, game_index=2, levels=(LEVEL_RANDOM, LEVEL_RANDOM), record=True)
    ref.run()
    while b.run() != RUN_OVER:
        pass
    assert bytes(b.buffer) == bytes(ref.buffer)
    assert b.streams == ref.streams and b.decisions == ref.decisions
    assert np.array_equal(b.history, ref.history)


def test_the_stale_pointer_check_sees_every_pointer_of_the_record(goa):
    """Checked against the original itself, every pointer of the record is 'stale': the
    state's arrays (GoaS), the working lists and the trace are all found, so a pointer left
    unmoved in a copy would be too."""
    a = GoaCore(goa, seed=1, levels=(LEVEL_RANDOM, LEVEL_RANDOM), trace=True,
                stop_at_month_end=True)
    a.run()
    found = stale_pointers(a, a)
    n_state = len(a.tables.layout)               # one pointer per state array
    n_lists = 35                                 # the working lists laid out in the block
    assert len(found) >= n_state + n_lists + 1   # + the trace rows
    assert all(0 <= off < core_record_size() for off in found)


def _mapped() -> list[tuple[int, int]]:
    """The address ranges of the process's writable memory (Linux)."""
    out = []
    for line in Path("/proc/self/maps").read_text().splitlines():
        span, perms = line.split()[:2]
        if "w" in perms:
            lo, hi = (int(x, 16) for x in span.split("-"))
            out.append((lo, hi))
    return out


@pytest.mark.skipif(not Path("/proc/self/maps").exists(), reason="needs /proc/self/maps")
def test_a_copy_shares_no_pointer_with_the_original_but_the_tables(goa):
    """A pointer field added to Core that points to memory of its own (a malloc'd list, say)
    and is not copied by core_assign is the same word in the copy and the original, and it
    points into writable memory: found here, whatever its name."""
    a, rng = _to_decision(goa, 1, int(Kind.COLONIAL), 3)
    b = a.copy()
    mapped = _mapped()
    shared = [off for off, (x, y) in enumerate(zip(record_words(a), record_words(b)))
              if x == y and x and any(lo <= x < hi for lo, hi in mapped)]
    word = struct.calcsize("P")
    assert [word * off for off in shared] == shared_offsets()     # t, found: the check sees
