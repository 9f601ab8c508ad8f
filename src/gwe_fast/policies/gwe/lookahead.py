"""``lookahead``: the fourth rung of the ladder for The Great War in the East.

It moves as the greedy policy does. At the start of each of its Combat Phases (its first
``gwe.combat.declare``) it weighs ``plans`` candidate plans for the combat, each a setting
of the greedy policy (``PLANS``: the greedy defaults; selective; all-out; no advances), by
playing each forward on copies of the state: the whole Combat Phase, and with ``horizon``
2 its Step Replacement Phase and the enemy's whole next Player-Turn, with the plan's greedy
policy for itself and the default greedy policy for the enemy, ``rollouts`` times with dice
drawn from its own generator. The rollouts of all plans share their dice (common
random numbers), so plans are compared on the same luck. Each end position is valued for the
side (``value``): victory points, ``material`` per stacking point of steps on the map of
each side, ``town`` per VP of the towns the Russians would control, and (horizon 1) minus
the enemy's expected gain against the side's stacks next turn (``PositionMap.exposure``).
It then plays the Combat Phase with the greedy plan unless another plan did better on every
shared roll and by more than ``margin`` on average; every other decision is the default
greedy policy's. The budget is ``plans x rollouts`` plays of a Combat Phase (and with
horizon 2 of the enemy's Player-Turn) per own Player-Turn.

Rollouts run the engine's own phase procedures on ``GweGame`` copies built from
``state.copy()`` (a detached, writable copy): the real game is never touched.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from gwe_fast.enums import UnitType
from gwe_fast.games.gwe.zoc import on_map
from gwe_fast.policies.gwe import scoring
from gwe_fast.policies.gwe.base import WEIGHT_PARAMS, GwePolicy
from gwe_fast.policies.gwe.greedy import GreedyPolicy
from gwe_fast.policies.gwe.position import PositionMap

#: the candidate plans: settings of the greedy policy for one Combat Phase
PLANS: tuple[dict, ...] = (
    {},                                                           # greedy as it is
    {"min_gain": 0.5, "min_exchange": 1.0},                       # selective
    {"min_gain": -0.25, "trim": False},                           # all-out
    {"advance": False},                                           # no advances
)


class LookaheadPolicy(GwePolicy):
    """Greedy plans tried on copies of the state; the best one is played."""

    name = "lookahead"
    PARAMS: ClassVar[dict[str, Any]] = {
        "plans": 3,           # candidate plans per Player-Turn (the first of PLANS)
        "rollouts": 2,        # plays of each plan
        "horizon": 2,         # 1: to the end of the own Combat Phase; 2: and the enemy's turn
        "exposure": 1.0,      # weight of the enemy's expected gain next turn (horizon 1)
        "margin": 1.0,        # what another plan must gain over greedy's, on average
    }

    def __init__(self, **params: Any):
        super().__init__(**params)
        if not 1 <= int(self.p.plans) <= len(PLANS):
            raise TypeError(f"parameter plans must be 1..{len(PLANS)}, not {self.p.plans}")
        if int(self.p.rollouts) < 1 or int(self.p.horizon) not in (1, 2):
            raise TypeError("parameter rollouts must be at least 1 and horizon 1 or 2")
        self._weights = {k: getattr(self.p, k) for k in WEIGHT_PARAMS}
        self.chosen: list[int] = []          # the plan picked at each Player-Turn (for study)

    def new_game(self, view) -> None:
        self.variants = [GreedyPolicy(**self._weights, **PLANS[k])
                         for k in range(int(self.p.plans))]
        self.active = self.variants[0]
        self.turn_key = None
        self.chosen = []

    def choose(self, decision, game, rng):
        view = game.policy_view() if hasattr(game, "policy_view") else game
        key = (id(view), getattr(view, "seed", 0), getattr(view, "game_index", 0))
        if key != self._game_key:
            self._game_key = key
            self.memory = {}
            self.new_game(view)
        if not decision.kind.startswith("gwe."):
            return int(rng.integers(len(decision.options)))
        st = view.state
        mine = int(st.player) == decision.side
        if decision.kind == "gwe.combat.declare" and mine:
            tk = (int(st.turn), int(st.player))
            if tk != self.turn_key:
                self.turn_key = tk
                k = self.pick_plan(view, decision.side, rng) if len(self.variants) > 1 else 0
                self.active = self.variants[k]
                self.chosen.append(k)
        delegate = self.active if mine else self.variants[0]
        return delegate.choose(decision, game, rng)

    # --- the plans, played forward ------------------------------------------------------------
    def pick_plan(self, view, side: int, rng) -> int:
        """The plan to play: the greedy plan (0) unless another beats it on every shared
        roll of the dice and by more than ``margin`` on average (so that the noise of a few
        rollouts does not pull play away from greedy)."""
        seeds = [int(s) for s in rng.integers(0, 2**31 - 1, size=int(self.p.rollouts))]
        values = np.array([[self.rollout(view, side, k, seed) for seed in seeds]
                           for k in range(len(self.variants))])
        best, gain = 0, float(self.p.margin)
        for k in range(1, len(self.variants)):
            diff = values[k] - values[0]
            if np.all(np.isfinite(diff)) and diff.min() > 0 and diff.mean() > gain:
                best, gain = k, float(diff.mean())
        if not np.isfinite(values[0]).all() and np.isfinite(values).all(axis=1).any():
            best = int(np.argmax(np.where(np.isfinite(values).all(axis=1),
                                          values.mean(axis=1), -np.inf)))
        return best

    def rollout(self, view, side: int, plan: int, seed: int) -> float:
        """Play the rest of the Combat Phase (and with horizon 2 the enemy's Player-Turn) on
        a copy with plan ``plan`` and value the end position for ``side``; -inf if the copy
        fails."""
        from gwe_fast.games.gwe import combat, command, engine
        from gwe_fast.games.gwe.game import Flag, GweGame

        enemy = 1 - side
        mine = GreedyPolicy(**self._weights, **PLANS[plan])
        theirs = GreedyPolicy(**self._weights)
        sim = GweGame(view.scenario, seed=seed, game_index=0, state=view.state.copy(),
                      policies={side: mine, enemy: theirs})
        st = sim.state
        try:
            combat.combat_phase(sim, side)                    # 4.0 A3b, then as the engine
            command.clear_command(sim, side)
            sim.arr("flags")[:] &= ~np.uint16(Flag.RETREATED_IN)
            engine.enforce_stacking(sim)
            if int(self.p.horizon) >= 2:
                st.phase = np.int16(engine.REPLACEMENT)
                engine.run_phase(sim, side, engine.REPLACEMENT)
                st.player = np.int8(enemy)
                for phase in (engine.MOVEMENT, engine.WITHDRAWAL, engine.COMBAT):
                    st.phase = np.int16(phase)
                    engine.run_phase(sim, enemy, phase)
                    engine.enforce_stacking(sim)
        except Exception:  # noqa: BLE001 - a plan whose play-out fails is not chosen
            return -np.inf
        return self.value(sim, side)

    def value(self, game, side: int) -> float:
        """The side's value of a position (see the module docstring)."""
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
        v = sign * float(st.vp) + w.material * float(material) + sign * w.town * towns
        if int(self.p.horizon) == 1 and self.p.exposure:
            pm = PositionMap(game, side, w, self.variants[0].p)
            cells = np.flatnonzero(pm.my_steps > 0)
            v -= float(self.p.exposure) * float(
                pm.exposure(cells, pm.my_def[cells], pm.my_steps[cells]).sum())
        return v
