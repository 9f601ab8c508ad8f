"""The Great War in the East's turn loop in C (``GweCore.play_turns``): ``engine.advance``
hands it the whole loop when the core plays every phase, and the game is the one the Python
loop plays, calling the core phase by phase (``COMPILED_TURN_LOOP`` off): every byte of the
state, the per-turn rows, the dice streams (their state, their counts and the order the game
made them in) and the policies' generators, whole games and games stopped at ``until`` and
resumed."""

from __future__ import annotations

import numpy as np
import pytest

import gwe_fast.games.gwe.game as gwe_game
from gwe_fast import load_scenario
from gwe_fast._core.gwe.core import RECORD_COLUMNS
from gwe_fast.enums import GwePhase
from gwe_fast.games import driver
from gwe_fast.games.gwe import engine
from gwe_fast.games.gwe.game import LOSS_CAUSES
from gwe_fast.policies.registry import make_policy

HISTORICAL = "brusilov/historical"
ON_SCHEDULE = "brusilov/attack_on_schedule"
MOVEMENT, WITHDRAWAL, COMBAT, REPLACEMENT = (GwePhase.MOVEMENT, GwePhase.WITHDRAWAL,
                                             GwePhase.COMBAT, GwePhase.REPLACEMENT)


@pytest.fixture(scope="module")
def sc():
    return load_scenario(HISTORICAL)


@pytest.fixture
def loop(monkeypatch):
    """``loop(compiled)`` sets ``engine.COMPILED_TURN_LOOP`` for the rest of the test."""
    return lambda compiled: monkeypatch.setattr(engine, "COMPILED_TURN_LOOP", compiled)


def _game(sc, index: int, seed: int = 7, policies=None):
    return driver("gwe").new_game(sc, seed, index, policies=policies)


def _advance(loop, compiled: bool, game, until=None) -> list[dict]:
    loop(compiled)
    if compiled:                                   # the C loop must not call back into Python
        game.begin_phase = _no_phase_in_python
    try:
        return engine.advance(game, until=until)
    finally:
        game.__dict__.pop("begin_phase", None)


def _no_phase_in_python(side, phase):
    raise AssertionError(f"the Python loop played phase {phase} of side {side}")


def _same(a, b) -> None:
    """Two games are the same game: every byte of the state, the dice streams (state, count
    and the order they were made in) and the policies' generators."""
    assert bytes(a.state.buffer) == bytes(b.state.buffer)
    assert list(a.dice._streams) == list(b.dice._streams)
    assert a.dice.counts() == b.dice.counts()
    sa, sb = a.dice.snapshot(), b.dice.snapshot()
    for name in sa:
        np.testing.assert_array_equal(sa[name], sb[name])
    for side in a.rngs:
        assert a.rngs[side].bit_generator.state == b.rngs[side].bit_generator.state


def _both_loops(loop, sc, index: int, stops=()):
    """The same game played by each loop, stopped at each of ``stops`` in turn and then
    played to the end: the rows of each stretch and the position at each stop are the same."""
    c, p = _game(sc, index), _game(sc, index)
    for until in (*stops, None):
        rows_c = _advance(loop, True, c, until)
        rows_p = _advance(loop, False, p, until)
        assert rows_c == rows_p
        assert [list(r) for r in rows_c] == [list(r) for r in rows_p]      # keys in order
        _same(c, p)
        if until is not None:                      # left at the start of that phase
            turn, k, phase = until
            side = int(sc.first_player) if k == 0 else 1 - int(sc.first_player)
            assert (int(c.state.turn), int(c.state.player), int(c.state.phase)) == (
                turn, side, phase)
    assert (int(c.state.turn), int(c.state.player), int(c.state.phase)) == (
        sc.last_turn, int(sc.first_player), 0)
    return c


@pytest.mark.parametrize("index", range(8))
def test_whole_games_are_the_python_loops(loop, sc, index):
    _both_loops(loop, sc, index)


@pytest.mark.parametrize("index", range(4))
def test_attack_on_schedule_games_are_the_python_loops(loop, index):
    _both_loops(loop, load_scenario(ON_SCHEDULE), index)


@pytest.mark.parametrize("options", [{"sga_early": True, "more_supply_rail": True},
                                     {"track_limits": False, "unlimited_command": True},
                                     {"west_front": True, "better_commanders": True}])
def test_games_with_options_are_the_python_loops(loop, options):
    variant = load_scenario(HISTORICAL, options)
    for index in range(2):
        _both_loops(loop, variant, index)


@pytest.mark.parametrize("name", [HISTORICAL, ON_SCHEDULE])
def test_games_stopped_and_resumed_are_the_python_loops(loop, name):
    """Stops at every phase of a Player-Turn of each side, at a Game-Turn's start and at the
    last Game-Turn's last phase; each stretch is played by both loops from the same
    position."""
    s = load_scenario(name)
    first, second = int(s.first_player), 1 - int(s.first_player)
    last = s.last_turn
    stops = [engine.position(s, s.first_turn, first, MOVEMENT),     # nothing played
             engine.position(s, s.first_turn, first, WITHDRAWAL),
             engine.position(s, s.first_turn, first, WITHDRAWAL),   # at the stop already
             engine.position(s, s.first_turn, second, MOVEMENT),
             engine.position(s, s.first_turn + 1, first, MOVEMENT),
             engine.position(s, s.first_turn + 2, second, COMBAT),
             engine.position(s, s.first_turn + 3, second, REPLACEMENT),
             engine.position(s, s.first_turn + 4, first, REPLACEMENT),
             engine.position(s, last, second, REPLACEMENT)]
    for index in range(3):
        _both_loops(loop, s, index, stops)


def test_a_stop_behind_the_position_plays_nothing(loop, sc):
    for compiled in (True, False):
        g = _game(sc, 2)
        _advance(loop, compiled, g, engine.position(sc, 4, 1 - int(sc.first_player), COMBAT))
        before = bytes(g.state.buffer)
        assert _advance(loop, compiled, g, engine.position(sc, 2, sc.first_player,
                                                           MOVEMENT)) == []
        assert bytes(g.state.buffer) == before
    # nor does a state past the last Game-Turn, and it makes no dice stream
    for compiled in (True, False):
        g = _game(sc, 2)
        g.state.turn = np.int16(sc.last_turn + 1)
        before = bytes(g.state.buffer)
        assert _advance(loop, compiled, g) == []
        assert bytes(g.state.buffer) == before and not g.dice._streams


def test_the_loops_take_over_from_each_other(loop, sc):
    """A game stopped by one loop and finished by the other is the game either plays."""
    whole = _game(sc, 5)
    rows = _advance(loop, False, whole)
    for first in (True, False):
        g = _game(sc, 5)
        part = _advance(loop, first, g, engine.position(sc, 6, 1 - int(sc.first_player),
                                                        WITHDRAWAL))
        part += _advance(loop, not first, g)
        assert part == rows
        _same(g, whole)


def test_the_python_loop_plays_what_the_core_does_not(loop, sc):
    """A greedy player, a check, a policy that hears of each phase or forced dice: the
    Python loop plays, and the core's loop declines with nothing done."""
    loop(True)
    g = _game(sc, 1, policies={1: make_policy("greedy", "gwe")})
    before = bytes(g.state.buffer)
    assert g.core.play_turns() is None
    assert bytes(g.state.buffer) == before and not g.dice._streams
    seen = []
    g = _game(sc, 1)
    engine.advance(g, until=engine.position(sc, 2, sc.first_player, MOVEMENT),
                   check=lambda game, phase: seen.append(phase))
    assert seen[:4] == ["movement", "withdrawal", "combat", "replacement"]
    g.dice.force("combat", [6])
    before = bytes(g.state.buffer)
    assert g.core.play_turns() is None
    assert bytes(g.state.buffer) == before
    heard = []

    class Listening(type(g.policies[0])):
        def begin_phase(self, view, side, phasing, phase, rng):
            heard.append((phasing, phase))

    g = _game(sc, 1, policies={0: Listening()})
    assert g.core.play_turns(engine.position(sc, 2, 0, MOVEMENT)) is None  # not RandomPolicy
    engine.advance(g, until=engine.position(sc, 2, sc.first_player, MOVEMENT))
    assert len(heard) == 8


def test_record_rows_from_the_cores_numbers(sc, monkeypatch):
    """``GweCore.record_row`` gives ``RECORD_COLUMNS``; the engine reads its sides' parts where
    they are, and the row it makes is ``snapshot``'s of the Python engine, key for key in the
    same order."""
    assert len(RECORD_COLUMNS) == engine._SIDES + 2 * engine._PER_SIDE
    assert RECORD_COLUMNS[engine._SIDES] == "units_allied"
    assert RECORD_COLUMNS[engine._SIDES + engine._PER_SIDE] == "units_central"
    assert engine._PER_SIDE == 5 + len(LOSS_CAUSES)
    g = _game(sc, 3)
    engine.advance(g, until=engine.position(sc, 5, sc.first_player, COMBAT))
    numbers = g.core.record_row(5, 1)
    assert numbers.shape == (len(RECORD_COLUMNS),)
    assert dict(zip(RECORD_COLUMNS[:3], numbers[:3].tolist())) == {
        "turn": 5, "side": 1, "vp": int(g.state.vp)}
    with pytest.raises(ValueError, match="no side 2"):
        g.core.record_row(5, 2)
    for turn, side in ((5, 0), (5, 1)):
        got = engine.snapshot(g, turn, side)
        monkeypatch.setattr(gwe_game, "COMPILED_PHASES", False)
        g._core = False
        want = engine.snapshot(g, turn, side)
        monkeypatch.setattr(gwe_game, "COMPILED_PHASES", True)
        g._core = False
        assert list(got.items()) == list(want.items())
