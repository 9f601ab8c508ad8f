"""Choosing among candidate plans played forward (the ``lookahead`` policies of both games).

Examples
--------
>>> import numpy as np
>>> best_plan(np.array([[1.0, 2.0], [3.0, 3.5], [9.0, 1.0]]), margin=1.0)
2
>>> best_plan(np.array([[1.0, 2.0], [3.0, 3.5], [9.0, 1.0]]), margin=1.0, strict=True)
1
>>> best_plan(np.array([[1.0, 2.0], [1.5, 2.5]]), margin=1.0)
0
>>> best_plan(np.array([[-np.inf, 2.0], [0.0, 0.0], [1.0, 1.0]]), margin=1.0)
2
"""

from __future__ import annotations

import numpy as np

from gwe_fast.policies.base import Policy


def best_plan(values: np.ndarray, margin: float, strict: bool = False) -> int:
    """The plan to play, from ``values[plan, rollout]`` (rollouts on common dice; ``-inf``
    where a play-out failed): the plan with the best mean when it beats plan 0 (the greedy
    plan) by more than ``margin`` on average, else plan 0. With ``strict``, only plans that
    beat plan 0 on every rollout are considered. A plan whose play-out failed is never
    chosen; when the greedy plan's own play-out failed, the plan with the best mean among
    those that never failed."""
    values = np.asarray(values, dtype=float)
    ok = np.isfinite(values).all(axis=1)
    means = np.where(ok, values.mean(axis=1) if values.size else 0.0, -np.inf)
    if not ok[0]:
        return int(np.argmax(means)) if ok.any() else 0
    best, gain = 0, float(margin)
    for k in range(1, values.shape[0]):
        if not ok[k] or (strict and (values[k] - values[0]).min() <= 0):
            continue
        if means[k] - means[0] > gain:
            best, gain = k, float(means[k] - means[0])
    return best


class PlanLookahead:
    """The ``lookahead`` of both games, less what is particular to a game (a mixin before
    the game's ladder base class).

    At the start of each of its own Player-Turns (``begin_phase`` of ``plan_phase(side)``)
    it plays each of its side's candidate plans (``PLANS[side]``, settings of the game's
    greedy policy ``GREEDY``, the greedy defaults first) forward on copies of the position,
    ``rollouts`` times with dice drawn from its own generator, the plans of one rollout on
    the same dice (common random numbers), and plays the plan ``best_plan`` picks for the
    rest of that Player-Turn; every other decision is greedy's. A game's class gives
    ``PLANS``, ``GREEDY``, ``plan_phase``, ``in_own_turn`` and ``play_out`` (which plays a
    copy with the given policies to the horizon and values the end position for the side).
    """

    PLANS: dict[int, tuple[dict, ...]] = {}
    GREEDY: type = object
    LOOKAHEAD_PARAMS: dict = {
        "plans": 4,           # candidate plans per Player-Turn (the first ones of PLANS)
        "rollouts": 3,        # play-outs of each plan
        "horizon": 1,         # Game-Turns played ahead
        "endgame": 2,         # play to the end when the last Game-Turn is this near
        "margin": 0.5,        # what another plan must gain over greedy's, on average
        "strict": False,      # and only if it does better on every rollout
    }

    def check_plan_params(self) -> None:
        """Refuse a budget the plans cannot give (TypeError, as for any bad parameter)."""
        most = min(len(p) for p in self.PLANS.values())
        if not 1 <= int(self.p.plans) <= most:
            raise TypeError(f"parameter plans must be 1..{most}, not {self.p.plans}")
        if int(self.p.rollouts) < 1 or int(self.p.horizon) < 1 or int(self.p.endgame) < 0:
            raise TypeError("parameters rollouts and horizon must be at least 1 and endgame "
                            "at least 0")
        self.chosen: list[int] = []          # the plan played in each Player-Turn (for study)

    def greedy_with(self, plan: dict):
        """The game's greedy policy with this policy's exchange rates (``_weights``, set by
        the game's class) and ``plan``."""
        return self.GREEDY(**self._weights, **plan)

    def new_game(self, view) -> None:
        self.greedy = self.greedy_with({})
        self.variants: list = []                 # this side's plans, made at first use
        self.active = self.greedy
        self.turn_key: tuple | None = None
        self.chosen = []

    def _same_game(self, view) -> None:
        key = (id(view), getattr(view, "seed", 0), getattr(view, "game_index", 0))
        if key != self._game_key:
            self._game_key = key
            self.memory = {}
            self.new_game(view)

    def begin_phase(self, view, side: int, phasing: int, phase: int, rng) -> None:
        if phasing != side or phase != self.plan_phase(side):
            return
        self._same_game(view)
        if not self.variants:
            self.variants = [self.greedy_with(plan)
                             for plan in self.PLANS[side][:int(self.p.plans)]]
        self.turn_key = (int(view.state.turn), side)
        k = self.pick_plan(view, side, rng) if len(self.variants) > 1 else 0
        self.active = self.variants[k]
        self.chosen.append(k)

    def choose(self, decision, game, rng) -> int:
        view = game.policy_view() if hasattr(game, "policy_view") else game
        self._same_game(view)
        st = view.state
        own = (self.turn_key == (int(st.turn), decision.side)
               and self.in_own_turn(view, decision.side))
        return (self.active if own else self.greedy).choose(decision, game, rng)

    def core_answers(self, game: str, kind: str) -> bool:
        # every decision goes to one of its greedy policies, all of one class
        return (type(self).choose is PlanLookahead.choose
                and self.greedy_with({}).core_answers(game, kind))

    def core_answer_params(self, game) -> tuple:
        # the decisions the core answers with parameters (a cavalry withdrawal's) are the
        # side's outside its own Player-Turn, which greedy as it is answers
        return self.greedy_with({}).core_answer_params(game)

    def pick_plan(self, view, side: int, rng) -> int:
        """The plan to play (an index of ``self.variants``; see ``best_plan``)."""
        seeds = [int(s) for s in rng.integers(0, 2**31 - 1, size=int(self.p.rollouts))]
        values = np.array([[self.rollout(view, side, k, seed) for seed in seeds]
                           for k in range(len(self.variants))])
        return best_plan(values, float(self.p.margin), bool(self.p.strict))

    def rollout(self, view, side: int, plan: int, seed: int) -> float:
        """Plan ``plan`` for this Player-Turn, greedy for everything else, played on a copy
        to the horizon: the end position's value for ``side`` (-inf if the copy fails)."""
        turn = int(view.state.turn)
        mine = TurnPlan(self.greedy_with(self.PLANS[side][plan]), self.greedy_with({}), side,
                        turn, self.in_own_turn)
        try:
            return float(self.play_out(view, side, {side: mine, 1 - side: self.greedy_with({})},
                                       seed))
        except Exception:  # noqa: BLE001 - a plan whose play-out fails is not chosen
            return -np.inf

    def stop_turn(self, scenario, turn: int) -> int | None:
        """The Game-Turn at whose start of the side's Player-Turn a play-out stops, or
        ``None`` (the end of the game) when the end is ``endgame`` Game-Turns away or
        nearer."""
        stop = turn + int(self.p.horizon)
        if stop > scenario.last_turn or scenario.last_turn - turn <= int(self.p.endgame):
            return None
        return stop

    # what a game gives --------------------------------------------------------------------
    def plan_phase(self, side: int) -> int:
        raise NotImplementedError

    def in_own_turn(self, view, side: int) -> bool:
        raise NotImplementedError

    def play_out(self, view, side: int, policies: dict, seed: int) -> float:
        raise NotImplementedError


class TurnPlan(Policy):
    """In a play-out: ``plan`` for ``side``'s decisions in its Player-Turn of Game-Turn
    ``turn`` (``in_own_turn(view, side)``), ``rest`` for every other decision."""

    name = "lookahead-plan"

    def __init__(self, plan, rest, side: int, turn: int, in_own_turn):
        super().__init__()
        self.plan, self.rest, self.side, self.turn = plan, rest, side, turn
        self.in_own_turn = in_own_turn

    def core_answers(self, game: str, kind: str) -> bool:
        return (type(self).choose is TurnPlan.choose and self.plan.core_answers(game, kind)
                and self.rest.core_answers(game, kind))

    def core_answer_params(self, game) -> tuple:
        # the decisions the core answers with parameters (a cavalry withdrawal's) are the
        # side's outside its own Player-Turn: ``rest``'s
        return self.rest.core_answer_params(game)

    def choose(self, decision, game, rng) -> int:
        view = game.policy_view()
        now = (decision.side == self.side and int(view.state.turn) == self.turn
               and self.in_own_turn(view, self.side))
        return (self.plan if now else self.rest).choose(decision, game, rng)
