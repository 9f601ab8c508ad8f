"""``lookahead``: the fourth rung of The Kaiser's Battle ladder.

It plays as the greedy policy does, except that at the start of each of its own Player-Turns
(its first Movement Segment's first pick, 5.2) it weighs ``plans`` candidate plans for that
Player-Turn, each a setting of the greedy policy (``PLANS``: greedy as it is; cautious;
bold; no attack-planning moves), by playing each forward on copies of the state with the
engine: its own Movement and Combat Phases with the plan, then the game with greedy players
on both sides until its own next Movement Phase (``horizon`` 1; ``horizon`` H: H Game-Turns
ahead; 0: to the end of the game), ``rollouts`` times, the plans of one rollout on the same
dice (common random numbers). An end position is worth, to the side, the German Victory
Point total if the game ended there (``victory.provisional_vp``: 20.11 towns, 20.13 trenches,
and the 20.12 exits and 20.14 divisions already booked; the final total at the end of the
game) plus ``material`` per point of Combat Strength on the map more than the enemy's. It
plays the plan that did best unless that is not better than greedy's on every rollout and by
more than ``margin`` on average: the noise of a few rollouts does not pull it off greedy. The
budget is ``plans x rollouts`` play-outs per own Player-Turn.

Play-outs run the engine's own phases (``engine.advance``) on a ``KbGame`` built from
``view.state.copy()`` (a detached, writable copy): the real game is never touched, and the
dice of each play-out are seeded from the policy's own generator.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from gwe_fast.enums import Side
from gwe_fast.policies.kb.base import WEIGHT_PARAMS, KbPolicy
from gwe_fast.policies.kb.greedy import KbGreedyPolicy
from gwe_fast.policies.plans import best_plan

#: the candidate plans: settings of the greedy policy for one Player-Turn
PLANS: tuple[dict, ...] = (
    {},                                                  # greedy as it is
    {"min_gain": 0.5, "max_eliminated": 0.05},           # cautious: high-odds attacks only
    {"min_gain": -0.25, "max_eliminated": 0.3},          # bold: every attack near even
    {"plan": False},                                     # no moves made for attacks
)


class _TurnPlan(KbPolicy):
    """In a play-out: ``plan`` for ``side``'s decisions in its Player-Turn ``turn``, ``rest``
    for every other decision."""

    name = "lookahead-plan"

    def __init__(self, plan, rest, side: int, turn: int, phases: tuple[int, int]):
        super().__init__()
        self.plan, self.rest, self.side, self.turn, self.phases = plan, rest, side, turn, phases

    def choose(self, decision, game, rng) -> int:
        st = game.state
        now = (decision.side == self.side and int(st.turn) == self.turn
               and self.phases[0] <= int(st.phase) <= self.phases[1])
        return (self.plan if now else self.rest).choose(decision, game, rng)


class KbLookaheadPolicy(KbPolicy):
    """Greedy plans for each own Player-Turn tried on copies of the state; the best played."""

    name = "lookahead"
    PARAMS: ClassVar[dict[str, Any]] = {
        "plans": 3,          # candidate plans per Player-Turn (the first of PLANS)
        "rollouts": 2,       # play-outs of each plan
        "horizon": 1,        # Game-Turns played ahead (0: to the end of the game)
        "margin": 0.5,       # what another plan must gain over greedy's, on average
    }

    def __init__(self, **params: Any):
        super().__init__(**params)
        if not 1 <= int(self.p.plans) <= len(PLANS):
            raise TypeError(f"parameter plans must be 1..{len(PLANS)}, not {self.p.plans}")
        if int(self.p.rollouts) < 1 or int(self.p.horizon) < 0:
            raise TypeError("parameter rollouts must be at least 1 and horizon at least 0")
        self._weights = {k: getattr(self.p, k) for k in WEIGHT_PARAMS}
        self.chosen: list[int] = []          # the plan played in each Player-Turn (for study)

    def new_game(self, view) -> None:
        self.variants = [KbGreedyPolicy(**self._weights, **PLANS[k])
                         for k in range(int(self.p.plans))]
        self.active = self.variants[0]
        self.turn_key: tuple | None = None
        self.chosen = []

    def choose(self, decision, game, rng) -> int:
        from gwe_fast.games.kb.movement import FIRST

        view = game.policy_view() if hasattr(game, "policy_view") else game
        key = (id(view), getattr(view, "seed", 0), getattr(view, "game_index", 0))
        if key != self._game_key:
            self._game_key = key
            self.memory = {}
            self.new_game(view)
        st = view.state
        phase, side = int(st.phase), int(decision.side)
        move, fight = _own_phases(side)
        if (decision.kind == "kb.move.unit" and phase == move
                and decision.context.get("segment") == FIRST):
            tk = (int(st.turn), side)
            if tk != self.turn_key:
                self.turn_key = tk
                k = self.pick_plan(view, side, rng) if len(self.variants) > 1 else 0
                self.active = self.variants[k]
                self.chosen.append(k)
        own = move <= phase <= fight and self.turn_key == (int(st.turn), side)
        return (self.active if own else self.variants[0]).choose(decision, game, rng)

    # --- the plans, played forward ------------------------------------------------------------
    def pick_plan(self, view, side: int, rng) -> int:
        """The plan to play (an index of ``self.variants``; see ``plans.best_plan``)."""
        seeds = [int(s) for s in rng.integers(0, 2**31 - 1, size=int(self.p.rollouts))]
        values = np.array([[self.rollout(view, side, k, seed) for seed in seeds]
                           for k in range(len(self.variants))])
        return best_plan(values, float(self.p.margin))

    def rollout(self, view, side: int, plan: int, seed: int) -> float:
        """Play plan ``plan`` for this Player-Turn on a copy, then greedy on both sides up to
        the horizon; the end position's value for ``side`` (-inf if the copy fails)."""
        from gwe_fast.games.kb import engine, victory
        from gwe_fast.games.kb.game import KbGame

        sc = view.scenario
        turn = int(view.state.turn)
        move, fight = _own_phases(side)
        mine = _TurnPlan(KbGreedyPolicy(**self._weights, **PLANS[plan]),
                         KbGreedyPolicy(**self._weights), side, turn, (move, fight))
        theirs = KbGreedyPolicy(**self._weights)
        sim = KbGame(sc, seed=seed, game_index=0, state=view.state.copy(),
                     policies={side: mine, 1 - side: theirs})
        h = int(self.p.horizon)
        until = (turn + h, move) if h > 0 and turn + h <= sc.last_turn else None
        try:
            engine.advance(sim, until)
            if until is None:
                sim.state.turn = np.int16(sc.last_turn)
                victory.final_score(sim)
                vp = float(sim.state.vp)
            else:
                vp = float(victory.provisional_vp(sim))
        except Exception:  # noqa: BLE001 - a plan whose play-out fails is not chosen
            return -np.inf
        return self.value(sim, side, vp)

    def value(self, game, side: int, vp: float) -> float:
        """``side``'s worth of a position whose German total would be ``vp``."""
        from gwe_fast.games.kb import units

        sign = 1.0 if side == int(Side.CENTRAL) else -1.0
        sc, st = game.scenario, game.state
        on = units.on_map(game)
        strength = np.array([units.combat(game, int(u)) for u in np.flatnonzero(on)], dtype=float)
        own = sc.units.side[on] == side
        material = float(strength[own].sum() - strength[~own].sum())
        return sign * vp + self.weights.material * material


def _own_phases(side: int) -> tuple[int, int]:
    """The side's Movement and Combat Phases (4.2 E2-E3, F1-F2)."""
    from gwe_fast.games.kb import engine

    if side == int(Side.CENTRAL):
        return engine.GERMAN_MOVEMENT, engine.GERMAN_COMBAT
    return engine.ALLIED_MOVEMENT, engine.ALLIED_COMBAT
