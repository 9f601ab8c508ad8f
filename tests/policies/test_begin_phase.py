"""Both engines tell the policies before each phase (``PlayedGame.begin_phase``), in the
order of play, with the phasing side; ``advance`` stops at the start of a given phase and
going on from there plays the same game as playing straight through."""

from __future__ import annotations

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast.games.gwe import engine as gwe_engine
from gwe_fast.games.gwe.game import GweGame
from gwe_fast.games.kb import engine as kb_engine
from gwe_fast.games.kb.game import KbGame
from gwe_fast.policies.base import RandomPolicy


class _Listener(RandomPolicy):
    """Plays at random and writes down every ``begin_phase`` it hears."""

    def __init__(self):
        super().__init__()
        self.heard: list[tuple] = []

    def begin_phase(self, view, side, phasing, phase, rng):
        assert isinstance(rng, np.random.Generator)
        self.heard.append((int(view.state.turn), side, phasing, phase, int(view.state.phase)))


@pytest.fixture(scope="module")
def brusilov():
    return load_scenario("brusilov/historical")


@pytest.fixture(scope="module")
def kaiser():
    return load_scenario("kaisers_battle/historical")


def test_gwe_policies_hear_of_every_phase_in_the_order_of_play(brusilov):
    a, c = _Listener(), _Listener()
    g = GweGame(brusilov, seed=2, game_index=2, policies={0: a, 1: c})
    gwe_engine.advance(g, gwe_engine.position(brusilov, 3, 0, gwe_engine.MOVEMENT))
    phases = (gwe_engine.MOVEMENT, gwe_engine.WITHDRAWAL, gwe_engine.COMBAT,
              gwe_engine.REPLACEMENT)
    expected = [(turn, phasing, phase) for turn in (1, 2) for phasing in (0, 1)
                for phase in phases]
    assert [(t, p, ph) for t, _, p, ph, _ in a.heard] == expected
    assert [h[1] for h in a.heard] == [0] * len(expected)     # each hears as its own side
    assert [h[1] for h in c.heard] == [1] * len(expected)
    assert all(ph == now for *_, ph, now in a.heard)          # state.phase is the phase


def test_gwe_advance_in_pieces_plays_the_game_play_plays(brusilov):
    whole = GweGame(brusilov, seed=3, game_index=1, events=True)
    r1 = gwe_engine.play(whole)
    pieces = GweGame(brusilov, seed=3, game_index=1, events=True)
    rows = gwe_engine.advance(pieces, gwe_engine.position(brusilov, 4, 1, gwe_engine.COMBAT))
    assert (int(pieces.state.turn), int(pieces.state.player), int(pieces.state.phase)) == (
        4, 1, gwe_engine.COMBAT)
    assert len(rows) == 7                                     # Player-Turns completed
    r2 = gwe_engine.play(pieces)
    assert r1.vp == r2.vp and whole.events == pieces.events
    assert whole.state.equals(pieces.state)
    assert r1.per_turn[7:] == r2.per_turn


def test_kb_policies_hear_of_every_phase_with_the_phasing_side(kaiser):
    a, c = _Listener(), _Listener()
    g = KbGame(kaiser, seed=2, game_index=2, policies={0: a, 1: c})
    kb_engine.advance(g, (2, kb_engine.WEATHER_STAGE))
    assert [h[3] for h in a.heard] == list(range(kb_engine.WEATHER_STAGE,
                                                 kb_engine.TERMINAL + 1))
    by_phase = {h[3]: h[2] for h in c.heard}
    assert by_phase[kb_engine.ALLIED_MOVEMENT] == 0 and by_phase[kb_engine.ALLIED_COMBAT] == 0
    assert by_phase[kb_engine.GERMAN_BREAKDOWN] == 1 and by_phase[kb_engine.GERMAN_COMBAT] == 1
    assert [h[1] for h in c.heard] == [1] * len(c.heard)
