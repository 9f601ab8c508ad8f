"""The Kaiser's Battle compiled core (``_core/kb/core.pyx``, issue 28) plays the phases it
plays exactly as the Python engine does: the same state, the same dice and the same draws,
so whole games are identical with the core and without it; and its dice are numpy's."""

from __future__ import annotations

import numpy as np
import pytest
from played_games import AskRecorder, DrawingPolicy, played_by_core, same_core_game

import gwe_fast.games.kb.game as kb_game
from gwe_fast import load_scenario
from gwe_fast._core.hexdice import BLOCK, roll_all
from gwe_fast._core.play import draws as draw_all
from gwe_fast._core.kb.core import COMPILED, KbCore
from gwe_fast.dice import DiceStream, GameDice, game_seed_sequence
from gwe_fast.enums import KbPhase
from gwe_fast.games import driver
from gwe_fast.games.kb import engine
from gwe_fast.policies.registry import make_policy

KB = "kaisers_battle/historical"


@pytest.fixture(scope="module")
def sc():
    return load_scenario(KB)


def _play(sc, index: int, compiled: bool, policies=None, seed: int = 7):
    """One whole game, its result and its final game (state, dice, generators)."""
    return played_by_core(kb_game, "kb", sc, index, compiled, policies, seed)


_same_game = same_core_game


@pytest.mark.parametrize("index", range(40))
def test_random_games_are_the_python_engines(sc, index):
    _same_game(_play(sc, index, True), _play(sc, index, False))


@pytest.mark.parametrize("allied, central", [("random", "greedy"), ("greedy", "random"),
                                             ("greedy", "greedy")])
@pytest.mark.parametrize("index", range(2))
def test_games_with_python_policies_are_the_python_engines(sc, allied, central, index):
    """A side whose policy is Python's decides in Python: the core plays only the phases in
    which no such side decides, and the game is the same."""
    def policies():
        return {0: make_policy(allied, "kb"), 1: make_policy(central, "kb")}
    _same_game(_play(sc, index, True, policies()), _play(sc, index, False, policies()))


@pytest.mark.parametrize("cell", [{"scenario.first_player": "allied"},
                                  {"tables.service_companies.first_turn": 3},
                                  {"tables.weather.pm_modifier": 3}])
def test_variants_are_the_python_engines(cell):
    """The core reads the scenario's values, not the printed ones: the Allied Player-Turn
    first, service companies from Game-Turn 3 and a larger PM modifier play alike."""
    from gwe_fast.runner.sweep import load_cell_scenario

    variant = load_cell_scenario(KB, {}, cell)
    for index in range(3):
        _same_game(_play(variant, index, True), _play(variant, index, False))


def test_which_phases_the_core_plays(sc):
    g = driver("kb").new_game(sc, 1, 0, policies={1: make_policy("greedy", "kb")})
    core = g.core
    assert isinstance(core, KbCore)
    assert COMPILED == {int(KbPhase.WEATHER_STAGE), int(KbPhase.AIR_STAGE),
                        int(KbPhase.ARTILLERY_STAGE), int(KbPhase.REINFORCEMENT_STAGE),
                        int(KbPhase.GERMAN_COMBAT), int(KbPhase.ALLIED_COMBAT),
                        int(KbPhase.GERMAN_BREAKDOWN), int(KbPhase.GERMAN_MOVEMENT),
                        int(KbPhase.ALLIED_MOVEMENT), int(KbPhase.TERMINAL)}
    assert core.plays(int(KbPhase.WEATHER_STAGE)) and core.plays(int(KbPhase.TERMINAL))
    assert core.plays(int(KbPhase.ALLIED_MOVEMENT))            # a random Allied player
    assert not core.plays(int(KbPhase.GERMAN_BREAKDOWN))       # a greedy German decides
    assert not core.plays(int(KbPhase.GERMAN_MOVEMENT))
    assert not core.plays(int(KbPhase.REINFORCEMENT_STAGE))
    assert not core.plays(int(KbPhase.GERMAN_COMBAT))          # a greedy German attacks
    before = bytes(g.state.buffer)
    assert core.run_phase(int(KbPhase.GERMAN_COMBAT)) is False
    assert bytes(g.state.buffer) == before
    # a game with an event log is played by the Python engine only
    assert driver("kb").new_game(sc, 1, 0, events=True).core is None


def _asked_policies(allied: str, central: str) -> dict:
    def make(name):
        return DrawingPolicy() if name == "drawing" else make_policy(name, "kb")
    return {0: make(allied), 1: make(central)}


def _segment_both_ways(g, side: int, segment: int, allied: str, central: str) -> list:
    """The Movement Segment played by the Python engine's loop, then again from the same
    state by the core (``KbCore.movement_segment``), both players made afresh for each run
    (a policy remembers its plans); asserts the same questions in the same order, the same
    state and generators, and returns the questions."""
    st = g.state
    before = bytes(st.buffer)
    rngs = [g.rngs[s].bit_generator.state for s in (0, 1)]
    ask = g.ask
    runs, after = [], []
    for compiled in (False, True):
        st.buffer[:] = np.frombuffer(before, dtype=np.uint8)
        for s in (0, 1):
            g.rngs[s].bit_generator.state = rngs[s]
        g.policies = _asked_policies(allied, central)
        g.ask = runs.append(AskRecorder(ask)) or runs[-1]
        g._core = False                        # made again: it keeps the game's ask
        saved = engine.COMPILED_ASKED_MOVES
        engine.COMPILED_ASKED_MOVES = compiled
        try:
            engine.movement_segment(g, side, segment)
        finally:
            engine.COMPILED_ASKED_MOVES = saved
        after.append((bytes(st.buffer), [g.rngs[s].bit_generator.state for s in (0, 1)]))
    g.ask = ask
    g._core = False
    assert runs[0].questions == runs[1].questions
    assert after[0] == after[1]
    return runs[0].questions


@pytest.mark.parametrize("allied, central", [("greedy", "greedy"), ("drawing", "drawing"),
                                             ("delay", "greedy"), ("passive", "random")])
def test_movement_segments_of_python_players_are_the_python_engines(sc, allied, central):
    """A player who does not pick at random has its Movement Segments played by the core,
    which asks it (``KbCore.movement_segment``, ``engine.COMPILED_ASKED_MOVES``): which unit
    and where it goes, with the options the Python engine lists, in its
    order; the segment is the Python engine's, a Python player's draws included. Positions
    of games between those players at the start of each Movement Phase of Game-Turns 1-6,
    both segments; the questions must be asked."""
    from gwe_fast.games.kb import movement

    asked = {}
    for seed in range(2):
        g = driver("kb").new_game(sc, seed, 0, policies=_asked_policies(allied, central))
        for turn in range(1, 7):
            for phase, side in ((KbPhase.GERMAN_MOVEMENT, 1), (KbPhase.ALLIED_MOVEMENT, 0)):
                engine.advance(g, until=(turn, int(phase)))
                g.state.phase = int(phase)
                flags = g.arr("flags")
                flags[g.scenario.units.side == side] &= ~np.uint16(kb_game.Flag.MOVED)
                engine.set_quotas(g, side)
                for segment in (movement.FIRST, movement.SECOND):
                    for kind, _, options, _ in _segment_both_ways(g, side, segment, allied,
                                                                  central):
                        if len(options) > 1:
                            asked[kind] = asked.get(kind, 0) + 1
                g.policies = _asked_policies(allied, central)
                engine.advance(g, until=(turn, int(phase) + 1))
    assert asked.get("kb.move.unit", 0) >= 20 and asked.get("kb.move.to", 0) >= 20


def _phase_twice(sc, seed: int, index: int, phase: int, setup=None):
    """The game before ``phase`` (of Game-Turn 3 on), set up by ``setup(game)``, then the
    phase played by the core and by the Python engine: the two games after it."""
    d = driver("kb")
    games = []
    for compiled in (True, False):
        saved = kb_game.COMPILED_PHASES
        kb_game.COMPILED_PHASES = compiled
        try:
            g = d.new_game(sc, seed, index)
            engine.advance(g, until=(3, phase))
            if setup is not None:
                setup(g)
            g.state.phase = phase
            engine.run_phase(g, phase)
        finally:
            kb_game.COMPILED_PHASES = saved
        games.append(g)
    return games


def _to_the_exit(g):
    """German units on the map moved to the western map-edge hexes they may exit by (20.2),
    one a hex, as many as there are hexes."""
    edge = np.flatnonzero(g.data.exit_edge)
    ger = np.flatnonzero(((g.state.unit_status & 1) != 0) & (g.scenario.units.side == 1))
    for u, c in zip(ger[::-1], edge):
        g.state.unit_cell[u] = c


@pytest.mark.parametrize("index", range(12))
def test_exits_in_the_core_are_the_python_engines(sc, index):
    """German units standing on the western edge: a random German player exits some (20.2,
    20.12), and the core books them as the Python engine does."""
    a, b = _phase_twice(sc, 11, index, int(KbPhase.GERMAN_MOVEMENT), _to_the_exit)
    assert bytes(a.state.buffer) == bytes(b.state.buffer)
    assert a.rngs[1].bit_generator.state == b.rngs[1].bit_generator.state
    assert a.dice.counts() == b.dice.counts()


def test_the_exits_are_played(sc):
    # the test above is not vacuous: units exit, some isolated (no VP) and some not (3 VP)
    exited = isolated = vp = 0
    for index in range(12):
        a, _ = _phase_twice(sc, 11, index, int(KbPhase.GERMAN_MOVEMENT), _to_the_exit)
        exited += int(a.arr("exited")[0])
        isolated += int(a.arr("exited")[1])
        vp += int(a.arr("vp_cause")[2])
    assert exited >= 5 and 0 < isolated < exited
    assert vp == 3 * (exited - isolated)


@pytest.mark.parametrize("index", range(6))
def test_supply_lines_are_the_python_engines(sc, index):
    from gwe_fast.games.kb import supply

    g = driver("kb").new_game(sc, 5, index)
    for turn in (3, 6, 9):
        engine.advance(g, until=(turn, int(KbPhase.GERMAN_COMBAT)))
        for side in (0, 1):
            want = supply.line_lengths(g, side) >= 0
            got = [g.core.has_supply_line(side, c) for c in range(sc.map.n_cells)]
            np.testing.assert_array_equal(got, want)


def test_a_game_resumed_from_a_save_plays_on_in_the_core(sc, tmp_path):
    d = driver("kb")
    g = d.new_game(sc, 3, 5)
    engine.advance(g, until=(4, int(KbPhase.REINFORCEMENT_STAGE)))
    path = tmp_path / "kb.npz"
    g.save(path)
    a = type(g).resume(sc, path)
    saved = kb_game.COMPILED_PHASES
    kb_game.COMPILED_PHASES = False
    try:
        b = type(g).resume(sc, path)
        rb = d.play(b)
    finally:
        kb_game.COMPILED_PHASES = saved
    ra = d.play(a)
    assert a.core is not None and b.core is None
    _same_game((ra, a), (rb, b))


def test_forced_dice_stay_with_the_python_engine(sc):
    g = driver("kb").new_game(sc, 1, 0)
    g.state.turn = 3
    g.dice.force("weather", [6])
    assert g.core.run_phase(int(KbPhase.WEATHER_STAGE)) is False
    engine.run_phase(g, int(KbPhase.WEATHER_STAGE))                # the Python engine's
    assert g.dice.stream("weather").rolled == 1 and int(g.arr("weather")[0]) == 0  # 6+0: clear


@pytest.mark.parametrize("before", [0, 1, BLOCK - 1, BLOCK, BLOCK + 3])
def test_compiled_dice_are_the_streams_dice(before):
    """The compiled stream rolls what the Python stream would, from wherever the Python
    stream stands, and hands it back there: the rolls after it go on alike."""
    a = DiceStream(game_seed_sequence(5, 2, "combat"))
    b = DiceStream(game_seed_sequence(5, 2, "combat"))
    for _ in range(before):
        a.roll(), b.roll()
    n = 2 * BLOCK + 5
    np.testing.assert_array_equal(roll_all(a, n), [b.roll() for _ in range(n)])
    assert a.rolled == b.rolled
    assert [a.roll() for _ in range(BLOCK)] == [b.roll() for _ in range(BLOCK)]


def test_compiled_draws_are_the_generators():
    ns = np.array([1, 2, 3, 6, 7, 36, 1000, 2**31 + 5, 1, 5], dtype=np.int64)
    a = GameDice(3, 1).policy_rng("allied")
    b = GameDice(3, 1).policy_rng("allied")
    want = [0 if n == 1 else int(b.integers(n)) for n in ns]
    np.testing.assert_array_equal(draw_all(a, ns), want)
    assert a.integers(1 << 40) == b.integers(1 << 40)


def test_a_whole_game_in_the_core_only_when_it_plays_every_phase(sc):
    """``KbCore.play_out`` plays nothing and says None when a phase is not its to play (a
    greedy player) or a stream has forced dice; the game then goes phase by phase."""
    from gwe_fast.policies.registry import make_policy

    order, phasing = engine.phase_order(sc), engine._PHASING_CODES
    g = driver("kb").new_game(sc, 2, 0, policies={0: make_policy("greedy"),
                                                  1: make_policy("random")})
    before = bytes(g.state.buffer)
    assert g.core.play_out(order, phasing) is None
    assert bytes(g.state.buffer) == before and not g.dice._streams
    g = driver("kb").new_game(sc, 2, 0)
    g.dice.force("combat", [6, 1])
    before = bytes(g.state.buffer)
    assert g.core.play_out(order, phasing) is None
    assert bytes(g.state.buffer) == before and list(g.dice._streams) == ["combat"]


def test_a_whole_game_in_the_core_keeps_the_streams_the_engine_makes(sc):
    """After ``play_out`` the game holds the streams the Python engine would have made (a
    stream never rolled is not made), each at the same place."""
    a = _play(sc, 11, True)[1]
    b = _play(sc, 11, False)[1]
    assert sorted(a.dice._streams) == sorted(b.dice._streams)
    assert "breakdown" not in a.dice._streams
