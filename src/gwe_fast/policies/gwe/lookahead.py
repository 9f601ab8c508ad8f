"""``lookahead``: the fourth rung of the ladder for The Great War in the East.

At the start of each of its own Player-Turns (``begin_phase``, before its Movement Phase) it
weighs ``plans`` candidate plans for the whole Player-Turn, each a setting of the greedy
policy (``PLANS``, per side: greedy as it is, then the settings below), by playing each
forward on copies of the position with the engine itself (``engine.advance``): its own
Player-Turn with the plan, then greedy players on both sides up to the start of its next
Player-Turn (``horizon`` Game-Turns ahead), or to the end of the game once the end is
``endgame`` Game-Turns away or nearer, ``rollouts`` times, with dice drawn from its own
generator. The plans of one rollout share their dice (common random numbers), so plans are
compared on the same luck. An end position is worth, to the side, the Russian Victory Point
total signed for the side, plus ``material`` per stacking point of steps on the map more
than the enemy's and ``town`` per VP of the towns the Russians would control (25.12); at the
end of the game, the final total alone. It plays the plan with the best mean when that beats
greedy's mean by more than ``margin`` (``plans.best_plan``); every decision outside its own
Player-Turn is greedy's. The budget is ``plans x rollouts`` play-outs per own Player-Turn.

Play-outs run on a ``GweGame`` built from ``view.state.copy()`` (a detached, writable copy):
the real game is never touched. The shared machinery is ``plans.PlanLookahead``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from gwe_fast.enums import Side, UnitType
from gwe_fast.games.gwe.zoc import on_map
from gwe_fast.policies.gwe import scoring
from gwe_fast.policies.gwe.base import WEIGHT_PARAMS, GwePolicy
from gwe_fast.policies.gwe.greedy import GreedyPolicy
from gwe_fast.policies.plans import PlanLookahead

#: the candidate plans of each side: settings of the greedy policy for one Player-Turn, the
#: greedy defaults first. They were picked by playing single changes of greedy's settings
#: against greedy (docs/policies.md); the look-ahead decides each Player-Turn which to play.
PLANS: dict[int, tuple[dict, ...]] = {
    int(Side.ALLIED): (
        {},                                                       # greedy as it is
        {"aggression": 2.0},                                      # press harder
        {"aggression": 3.0},                                      # all-out
        {"aggression": 2.0, "hold": 1.0},                         # press, keep the line shut
    ),
    int(Side.CENTRAL): (
        {},                                                       # greedy as it is
        {"withhold_worth": 0.5},                                  # withhold more (25.16)
        {"withhold_worth": 0.5, "threat_share": 0.25},            # and stand closer
        {"threat_share": 0.25},                                   # stand closer
    ),
}


class LookaheadPolicy(PlanLookahead, GwePolicy):
    """Greedy plans for each own Player-Turn tried on copies of the position; the best one
    is played."""

    name = "lookahead"
    PLANS = PLANS
    GREEDY = GreedyPolicy
    PARAMS: ClassVar[dict[str, Any]] = dict(PlanLookahead.LOOKAHEAD_PARAMS)

    def __init__(self, **params: Any):
        super().__init__(**params)
        self._weights = {k: getattr(self.p, k) for k in WEIGHT_PARAMS}
        self.check_plan_params()

    def plan_phase(self, side: int) -> int:
        from gwe_fast.games.gwe import engine

        return engine.MOVEMENT

    def in_own_turn(self, view, side: int) -> bool:
        return int(view.state.player) == side

    def play_out(self, view, side: int, policies: dict, seed: int) -> float:
        from gwe_fast.games.gwe import engine, victory
        from gwe_fast.games.gwe.game import GweGame

        sc = view.scenario
        sim = GweGame(sc, seed=seed, game_index=0, state=view.state.copy(), policies=policies)
        stop = self.stop_turn(sc, int(view.state.turn))
        if stop is None:
            engine.advance(sim)
            sim.state.turn = np.int16(sc.last_turn)
            victory.score_towns(sim)
            return scoring.vp_sign(side) * float(sim.state.vp)
        engine.advance(sim, engine.position(sc, stop, side, engine.MOVEMENT))
        return self.value(sim, side)

    def value(self, game, side: int) -> float:
        """The side's value of a position before the end (see the module docstring)."""
        from gwe_fast.games.gwe import victory

        sc, st = game.scenario, game.state
        u = sc.units
        w = self.weights
        sign = scoring.vp_sign(side)
        on = on_map(st) & (u.utype != int(UnitType.HQ))
        left = u.n_steps.astype(float) - st.unit_step
        worth = left * u.stacking / np.maximum(u.n_steps, 1)
        material = (worth[on & (u.side == side)].sum() - worth[on & (u.side != side)].sum())
        town = scoring.town_values(sc)
        towns = float(sum(town[c] for c in victory.russian_towns(game)))
        return sign * float(st.vp) + w.material * float(material) + sign * w.town * towns
