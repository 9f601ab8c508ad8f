"""The ladder policies that answer inside the compiled core (``_core/goa/ladder.pyx``) make the
choices of their Python twins (``policies/goa``): the same games, decision for decision and
byte for byte, on the tiny world under the pairwise option sets and on a bundled start."""

from __future__ import annotations

import pytest

from gwe_fast import load_scenario
from gwe_fast._core.goa.engine import GoaCore
from gwe_fast._core.goa.ladder import PASSIVE
from gwe_fast.games.goa import parity
from gwe_fast.games.goa.game import GoaGame
from gwe_fast.games.goa.scenario import scenario_from_raw
from gwe_fast.policies.base import RandomPolicy
from gwe_fast.policies.goa.greedy import GoaPassivePolicy

import tiny

COMBOS = parity.option_combinations()


def _play(sc, policies, **kw) -> GoaGame:
    g = GoaGame(sc, 17, 3, policies=policies, **kw)
    g.play()
    return g


def _same_game(sc, make) -> None:
    """``make()`` gives the policies; they play once on the reference engine (in Python) and
    once on the core (the passive sides inside it, the random ones too)."""
    ref = _play(sc, make(), engine="reference")
    core = _play(sc, make(), engine="core")
    assert core.state.equals(ref.state)
    assert core.decisions == ref.decisions


@pytest.mark.parametrize("n", range(len(COMBOS)))
def test_passive_in_the_core_plays_the_python_passive_games(n):
    raw = tiny.raw()
    raw["scenario"]["last"] = "1916-12"
    sc = scenario_from_raw(raw, COMBOS[n])
    _same_game(sc, lambda: {0: GoaPassivePolicy(), 1: GoaPassivePolicy()})
    _same_game(sc, lambda: {0: RandomPolicy(), 1: GoaPassivePolicy()})


def test_passive_in_the_core_plays_the_python_passive_campaign():
    sc = load_scenario("goa/campaign")
    _same_game(sc, lambda: {0: GoaPassivePolicy(), 1: RandomPolicy()})


def test_passive_answers_inside_the_core_and_a_subclass_in_python():
    class Bolder(GoaPassivePolicy):
        def on_usw(self, d, view, rng):
            return len(d.options) - 1

    assert GoaPassivePolicy().core_level() == PASSIVE
    assert Bolder().core_level() is None
    sc = scenario_from_raw(tiny.raw(), {})
    core = GoaCore(sc.goa, seed=1, game_index=0)
    core.play(PASSIVE, PASSIVE)
    assert core.decisions_in_c == core.decisions > 0
    bold = _play(sc, {0: Bolder(), 1: Bolder()})
    meek = _play(sc, {0: GoaPassivePolicy(), 1: GoaPassivePolicy()})
    assert not bold.state.equals(meek.state)          # the subclass's own choice was played
