"""The common frame of The Kaiser's Battle ladder policies (mirrors ``policies.gwe.base``).

``KbPolicy.choose`` takes the game's read-only view (``PlayedGame.policy_view``), forgets
its plans when a new game starts, and hands the decision to the method named after its kind
(``kb.combat.loss`` -> ``on_combat_loss``). A kind without a method, or a kind that is not
a Kaiser's Battle one, gets a uniformly random legal option from the policy's own generator
(so a policy still plays legally if the engine grows a new decision).

Parameters are declared in ``PARAMS`` (name -> default) on top of the exchange rates of
``scoring.Weights``; a sweep overrides them by keyword (``KbGreedyPolicy(aggression=2)``);
an unknown name is refused with the list of known ones. ``SIDE_PARAMS`` (side -> {name:
value}) gives one side other defaults (the greedy Allied player, the doctrines): a parameter
given by name applies to both sides and wins over them. Before each decision ``setting``
may swap in the parameters and exchange rates of a special moment (the Allied Player-Turn of
the last Game-Turn, ``KbPassivePolicy.setting``).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np

from gwe_fast.policies.base import Decision, Policy, check_params
from gwe_fast.policies.kb.scoring import Weights

#: parameters every ladder policy takes: the exchange rates of scoring.Weights
WEIGHT_PARAMS = {k: v.default for k, v in Weights.__dataclass_fields__.items()}


class KbPolicy(Policy):
    """Base class of the Kaiser's Battle ladder: parameters, the read-only view, dispatch."""

    name = "kb"
    PREFIX = "kb."
    PARAMS: ClassVar[dict[str, Any]] = {}
    SIDE_PARAMS: ClassVar[dict[int, dict[str, Any]]] = {}

    def __init__(self, **params: Any):
        known = {**WEIGHT_PARAMS, **self.PARAMS}
        values = check_params(known, params)
        super().__init__(**params)
        self.p = SimpleNamespace(**values)
        self.weights = Weights(**{k: float(values[k]) for k in WEIGHT_PARAMS})
        # each side's parameters: its SIDE_PARAMS over PARAMS, the named ones over both
        self._by_side: dict[int, SimpleNamespace] = {}
        for s, over in self.SIDE_PARAMS.items():
            side_values = check_params(known, {**{k: v for k, v in over.items()
                                                  if k not in params}, **params})
            self._by_side[int(s)] = SimpleNamespace(**side_values)
        self._home = (self.p, self.weights)
        self._game_key: tuple | None = None
        self.memory: dict[str, Any] = {}

    def params_for(self, side: int) -> SimpleNamespace:
        """The parameters ``side`` plays with (``SIDE_PARAMS``)."""
        return self._by_side.get(int(side), self._home[0])

    def setting(self, p: SimpleNamespace, weights: Weights, view: Any,
                decision: Decision) -> tuple[SimpleNamespace, Weights]:
        """The parameters and exchange rates for this decision (the side's, by default)."""
        return p, weights

    # --- the one entry point ----------------------------------------------------------------
    def choose(self, decision: Decision, game: Any, rng: np.random.Generator) -> int:
        view = game.policy_view() if hasattr(game, "policy_view") else game
        key = (id(view), getattr(view, "seed", 0), getattr(view, "game_index", 0))
        if key != self._game_key:
            self._game_key = key
            self.memory = {}
            self.new_game(view)
        self.p, self.weights = self.setting(self.params_for(decision.side), self._home[1],
                                            view, decision)
        if not decision.kind.startswith(self.PREFIX):
            return int(rng.integers(len(decision.options)))
        handler = getattr(self, "on_" + decision.kind[len(self.PREFIX):].replace(".", "_"), None)
        if handler is None:
            return int(rng.integers(len(decision.options)))
        return int(handler(decision, view, rng))

    def new_game(self, view: Any) -> None:
        """Called before the first decision of each game (plans start afresh)."""

    # --- small helpers ----------------------------------------------------------------------
    @staticmethod
    def index_of(options, wanted, default: int = 0) -> int:
        """The index of ``wanted`` among the options, or ``default``."""
        for i, o in enumerate(options):
            if o == wanted:
                return i
        return default

    @staticmethod
    def phase_key(view: Any, tag: str) -> tuple:
        st = view.state
        return (tag, int(st.turn), int(st.player), int(st.phase))
