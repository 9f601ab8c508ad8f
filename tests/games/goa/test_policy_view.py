"""What a Python policy of The Guns of August reads: the state, read-only, with every fact the
engine's rule functions read from it (the policies call those functions for their
evaluations)."""

import pytest

from gwe_fast import load_scenario
from gwe_fast.games.goa.driver import new_game, play
from gwe_fast.games.goa.game import ReadOnlyGoaState
from gwe_fast.games.goa.model import GoaState
from gwe_fast.policies.registry import make_policy

ALL = {v: "true" for v in ("variable_entry", "morale", "production", "victory", "surrender",
                           "naval", "colonies", "naval_combat_chart")}


def test_the_read_only_state_has_every_fact_of_the_state():
    facts = {n for n, v in vars(GoaState).items() if isinstance(v, property)}
    sc = load_scenario("goa/campaign")
    g = new_game(sc, 0, 0)
    view = ReadOnlyGoaState(g.state)
    for name in facts:
        assert getattr(view, name) == getattr(g.state, name), name
    with pytest.raises(AttributeError, match="may not change the game state"):
        view.japan_personnel = 3


def test_a_historical_game_in_which_japan_conquers_plays_to_its_end():
    # game 6 of seed 27 with every variant: the historical policies' entry evaluation reads
    # Japan's conquests (V._6), which the read-only state lacked
    sc = load_scenario("goa/campaign", ALL)
    pol = {0: make_policy("historical"), 1: make_policy("historical")}
    result = play(new_game(sc, 27, 6, policies=pol))
    assert result.level != "error"
