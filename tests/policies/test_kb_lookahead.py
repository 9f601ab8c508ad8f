"""The Kaiser's Battle ``lookahead`` (``policies.kb.lookahead``): its play-outs run on copies
and leave the game alone, one plan is weighed at the start of each own Player-Turn, the plan
rules only its own Player-Turn in a play-out, near the end it plays to the end, and a whole
game is played legally from each side."""

from __future__ import annotations

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast.games.kb import engine
from gwe_fast.games.kb.game import KbGame
from gwe_fast.policies.base import Decision, Policy
from gwe_fast.policies.kb.lookahead import PLANS, KbLookaheadPolicy, _own_phases
from gwe_fast.policies.plans import TurnPlan
from gwe_fast.policies.registry import make_policy


@pytest.fixture(scope="module")
def historical():
    return load_scenario("kaisers_battle/historical")


class _Stop(Exception):
    pass


def _played_to(historical, turn: int, last_phase: str, seed: int = 4) -> KbGame:
    g = KbGame(historical, seed=seed, game_index=seed,
               policies={0: make_policy("greedy"), 1: make_policy("greedy")})

    def stop(game, where):
        if int(game.state.turn) == turn and where == last_phase:
            raise _Stop

    with pytest.raises(_Stop):
        engine.play(g, check=stop)
    return g


def test_lookahead_plays_its_plans_on_copies_and_leaves_the_game_alone(historical):
    g = _played_to(historical, 3, "artillery")           # next: the German Breakdown Phase
    assert int(g.state.phase) == engine.GERMAN_BREAKDOWN
    before, rolls = g.state.copy(), g.dice.counts()
    la = KbLookaheadPolicy(plans=3, rollouts=2, horizon=1)
    view = g.policy_view()
    la.new_game(view)
    values = [[la.rollout(view, 1, k, seed) for seed in (11, 12)] for k in range(3)]
    assert g.state.equals(before) and g.dice.counts() == rolls
    assert all(np.isfinite(v) for row in values for v in row)
    assert values[1] == [la.rollout(view, 1, 1, seed) for seed in (11, 12)]   # same dice
    la.begin_phase(view, 1, 1, engine.GERMAN_BREAKDOWN, np.random.default_rng(5))
    assert len(la.chosen) == 1 and 0 <= la.chosen[0] < 3 and la.turn_key == (3, 1)
    assert g.state.equals(before) and g.dice.counts() == rolls
    la.begin_phase(view, 1, 1, engine.GERMAN_MOVEMENT, np.random.default_rng(5))  # not its start
    la.begin_phase(view, 0, 1, engine.GERMAN_BREAKDOWN, np.random.default_rng(5))  # the enemy's
    assert len(la.chosen) == 1


def test_lookahead_near_the_end_plays_to_the_end_and_values_the_final_total(historical):
    g = _played_to(historical, 9, "allied_combat")        # the last Game-Turn is 10
    la = KbLookaheadPolicy(plans=1, rollouts=1, endgame=2)
    view = g.policy_view()
    la.new_game(view)
    assert la.stop_turn(historical, 9) is None and la.stop_turn(historical, 3) == 4
    german = la.rollout(view, 1, 0, 7)
    allied = la.rollout(view, 0, 0, 7)
    assert german == -allied and german == int(german)    # a VP total, no material term
    sim = KbGame(historical, seed=7, game_index=0, state=view.state.copy(),
                 policies={0: make_policy("greedy"), 1: make_policy("greedy")})
    assert german == engine.play(sim).vp


class _Spy(Policy):
    name = "spy"

    def __init__(self):
        super().__init__()
        self.asked = 0

    def choose(self, decision, game, rng):
        self.asked += 1
        return 0


class _Game:
    def __init__(self, turn, phase):
        self.state = type("S", (), {"turn": np.int16(turn), "phase": np.int16(phase)})()

    def policy_view(self):
        return self


def test_a_plan_rules_only_its_own_player_turn_in_a_play_out():
    plan, rest = _Spy(), _Spy()
    tp = TurnPlan(plan, rest, 0, 5, KbLookaheadPolicy().in_own_turn)
    d0, d1 = Decision("kb.x", 0, [1, 2]), Decision("kb.x", 1, [1, 2])
    tp.choose(d0, _Game(5, engine.ALLIED_MOVEMENT), None)
    tp.choose(d0, _Game(5, engine.ALLIED_COMBAT), None)
    assert (plan.asked, rest.asked) == (2, 0)
    tp.choose(d1, _Game(5, engine.ALLIED_COMBAT), None)       # the enemy's decision
    tp.choose(d0, _Game(6, engine.ALLIED_MOVEMENT), None)     # the next Game-Turn
    tp.choose(d0, _Game(5, engine.AIR_STAGE), None)           # outside the Player-Turn
    assert (plan.asked, rest.asked) == (2, 3)
    assert _own_phases(1) == (engine.GERMAN_BREAKDOWN, engine.GERMAN_COMBAT)


def test_lookahead_parameters_are_checked():
    with pytest.raises(TypeError, match="plans must be"):
        KbLookaheadPolicy(plans=len(PLANS[0]) + 1)
    with pytest.raises(TypeError, match="rollouts"):
        KbLookaheadPolicy(rollouts=0)
    with pytest.raises(TypeError, match="unknown parameter"):
        KbLookaheadPolicy(nosuch=1)


@pytest.mark.slow
@pytest.mark.parametrize("side", [0, 1], ids=["allied", "german"])
def test_lookahead_plays_a_whole_game_legally(historical, side):
    la = make_policy("lookahead:plans=2,rollouts=1,horizon=1")
    g = KbGame(historical, seed=6, game_index=6,
               policies={side: la, 1 - side: make_policy("greedy")})
    result = engine.play(g)
    chosen = la.impl("kb").chosen
    assert g.rejections == 0 and result.turns_played == 10
    assert len(chosen) == 10 and set(chosen) <= {0, 1}    # one plan per own Player-Turn
