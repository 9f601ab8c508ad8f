"""The common frame of The Kaiser's Battle ladder policies (mirrors ``policies.gwe.base``).

``KbPolicy.choose`` takes the game's read-only view (``PlayedGame.policy_view``), forgets
its plans when a new game starts, and hands the decision to the method named after its kind
(``kb.combat.loss`` -> ``on_combat_loss``). A kind without a method, or a kind that is not
a Kaiser's Battle one, gets a uniformly random legal option from the policy's own generator
(so a policy still plays legally if the engine grows a new decision).

Parameters are declared in ``PARAMS`` (name -> default) on top of the exchange rates of
``scoring.Weights``; a sweep overrides them by keyword (``KbGreedyPolicy(aggression=2)``);
an unknown name is refused with the list of known ones.
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

    def __init__(self, **params: Any):
        known = {**WEIGHT_PARAMS, **self.PARAMS}
        values = check_params(known, params)
        super().__init__(**params)
        self.p = SimpleNamespace(**values)
        self.weights = Weights(**{k: float(values[k]) for k in WEIGHT_PARAMS})
        self._game_key: tuple | None = None
        self.memory: dict[str, Any] = {}

    # --- the one entry point ----------------------------------------------------------------
    def choose(self, decision: Decision, game: Any, rng: np.random.Generator) -> int:
        view = game.policy_view() if hasattr(game, "policy_view") else game
        key = (id(view), getattr(view, "seed", 0), getattr(view, "game_index", 0))
        if key != self._game_key:
            self._game_key = key
            self.memory = {}
            self.new_game(view)
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
