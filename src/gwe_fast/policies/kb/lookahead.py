"""``lookahead``: the fourth rung of The Kaiser's Battle ladder.

At the start of each of its own Player-Turns (``begin_phase``, before the German Breakdown
Phase or the Allied Movement Phase) it
weighs ``plans`` candidate plans for that Player-Turn, each a setting of the greedy policy
(``PLANS``, per side: greedy as it is, then the settings below), by playing each forward on
copies of the position with the engine itself (``engine.advance``): its own Player-Turn with
the plan, then greedy players on both sides up to the start of its own Player-Turn
``horizon`` Game-Turns on, or to the end of the game once the end is
``endgame`` Game-Turns away or nearer, ``rollouts`` times, the plans of one rollout on the
same dice (common random numbers). An end position is worth, to the side, the German Victory
Point total if the game ended there (``victory.provisional_vp``: 20.11 towns, 20.13
trenches, and the 20.12 exits and 20.14 divisions already booked) signed for the side, plus
``material`` per point of Combat Strength on the map more than the enemy's; at the end of the
game, the final total alone. It plays the plan with the best mean when that beats greedy's
mean by more than ``margin`` (``plans.best_plan``); every decision outside its own
Player-Turn is greedy's. The budget is ``plans x rollouts`` play-outs per own Player-Turn.

Play-outs run on a ``KbGame`` built from ``view.state.copy()`` (a detached, writable copy):
the real game is never touched, and the dice of each play-out are seeded from the policy's
own generator. The shared machinery is ``plans.PlanLookahead``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from gwe_fast.enums import Side
from gwe_fast.policies.kb.base import WEIGHT_PARAMS, KbPolicy
from gwe_fast.policies.kb.greedy import KbGreedyPolicy
from gwe_fast.policies.plans import PlanLookahead

#: the candidate plans of each side: settings of the greedy policy for one Player-Turn, the
#: greedy defaults first. They were picked by playing single changes of greedy's settings
#: against greedy (docs/policies.md); the look-ahead decides each Player-Turn which to play.
PLANS: dict[int, tuple[dict, ...]] = {
    int(Side.CENTRAL): (
        {},                                                  # greedy as it is
        {"breakdown_within": 12, "advance": 0.3},            # break down earlier, push on
        {"breakdown_within": 16},                            # break down earlier still
        {"breakdown_within": 16, "advance": 0.3},            # and push on
    ),
    int(Side.ALLIED): (
        {},                                                  # greedy as it is
        {"screen": 0.5},                                     # a stronger screen (6.21, 5.22)
        {"screen": 0.3},                                     # a middling screen
        {"screen": 0.5, "exposure": 0.6},                    # strong screen, wary holds
    ),
}


class KbLookaheadPolicy(PlanLookahead, KbPolicy):
    """Greedy plans for each own Player-Turn tried on copies of the position; the best
    played."""

    name = "lookahead"
    PLANS = PLANS
    GREEDY = KbGreedyPolicy
    PARAMS: ClassVar[dict[str, Any]] = dict(PlanLookahead.LOOKAHEAD_PARAMS)

    def __init__(self, **params: Any):
        super().__init__(**params)
        self._weights = {k: getattr(self.p, k) for k in WEIGHT_PARAMS}
        self.check_plan_params()

    def plan_phase(self, side: int) -> int:
        return _own_phases(side)[0]

    def in_own_turn(self, view, side: int) -> bool:
        first, last = _own_phases(side)
        return first <= int(view.state.phase) <= last

    def play_out(self, view, side: int, policies: dict, seed: int) -> float:
        from gwe_fast.games.kb import engine, victory
        from gwe_fast.games.kb.game import KbGame

        sc = view.scenario
        sim = KbGame(sc, seed=seed, game_index=0, state=view.state.copy(), policies=policies)
        sign = 1.0 if side == int(Side.CENTRAL) else -1.0
        stop = self.stop_turn(sc, int(view.state.turn))
        if stop is None:
            engine.advance(sim)
            sim.state.turn = np.int16(sc.last_turn)
            return sign * float(victory.final_score(sim))
        engine.advance(sim, (stop, _own_phases(side)[0]))
        return sign * float(victory.provisional_vp(sim)) + self.material(sim, side)

    def material(self, game, side: int) -> float:
        """``material`` per point of Combat Strength on the map more than the enemy's."""
        from gwe_fast.games.kb import units

        sc = game.scenario
        on = units.on_map(game)
        strength = np.array([units.combat(game, int(u)) for u in np.flatnonzero(on)],
                            dtype=float)
        own = sc.units.side[on] == side
        return self.weights.material * float(strength[own].sum() - strength[~own].sum())


def _own_phases(side: int) -> tuple[int, int]:
    """The first and last phases of the side's Player-Turn (4.2 E1-E3, F1-F2): the German
    one starts with his Breakdown Phase."""
    from gwe_fast.games.kb import engine

    if side == int(Side.CENTRAL):
        return engine.GERMAN_BREAKDOWN, engine.GERMAN_COMBAT
    return engine.ALLIED_MOVEMENT, engine.ALLIED_COMBAT
