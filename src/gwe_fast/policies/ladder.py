"""One name per level of the ladder for both games: the policy plays each game with that
game's own implementation of the level.

``make_policy("greedy")`` gives a ``Greedy``; when it is first asked a decision it builds the
implementation for the game being played (``policies.gwe.greedy`` or ``policies.kb.greedy``)
with the parameters it was given. Parameters are checked when the policy is made: a parameter
no implementation of the level knows is refused at once; one that only some games know is
refused when a game that does not know it asks its first decision.

Examples
--------
>>> Greedy(aggression=1.0).params
{'aggression': 1.0}
>>> Greedy(nosuch=1)
Traceback (most recent call last):
...
TypeError: greedy: no implementation takes the parameter(s) nosuch (gwe: ...)
"""

from __future__ import annotations

import importlib
from typing import Any, ClassVar

from gwe_fast.policies.base import Decision, Policy


def _load(target: str) -> type[Policy]:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


class ByGame(Policy):
    """A level of the ladder: ``IMPLS`` maps a game ("gwe", "kb") to ``module:Class``."""

    IMPLS: ClassVar[dict[str, str]] = {}

    def __init__(self, **params: Any):
        super().__init__(**params)
        self._impls: dict[str, Policy] = {}
        self._errors: dict[str, str] = {}
        for game, target in self.IMPLS.items():
            try:
                self._impls[game] = _load(target)(**params)
            except TypeError as exc:
                self._errors[game] = str(exc)
        if params and not self._impls:
            raise TypeError(f"{self.name}: no implementation takes the parameter(s) "
                            f"{', '.join(sorted(params))} ("
                            + "; ".join(f"{g}: {e}" for g, e in self._errors.items()) + ")")

    @classmethod
    def check_for(cls, game: str, params: dict[str, Any]) -> None:
        """Refuse (TypeError, one sentence) parameters that the implementation for ``game``
        does not take, naming only the parameters that one knows."""
        from gwe_fast.games import GAME_TITLES

        target = cls.IMPLS.get(game)
        title = GAME_TITLES.get(game, game)
        if target is None:
            raise TypeError(f"cannot play {title}")
        try:
            impl = _load(target)(**params)
            check = getattr(impl, "check_playable", None)
            if callable(check):                 # e.g. a policy that needs the compiled core
                check()
        except TypeError as exc:
            raise TypeError(f"for {title}: {exc}") from None

    def impl(self, game: str) -> Policy:
        """The implementation that plays ``game`` ("gwe" or "kb")."""
        if game not in self._impls:
            raise TypeError(f"policy {self.name!r} cannot play {game!r} with these parameters: "
                            f"{self._errors.get(game, 'no implementation')}")
        return self._impls[game]

    def choose(self, decision: Decision, game: Any, rng) -> int:
        return self.impl(game.scenario.game).choose(decision, game, rng)

    def begin_phase(self, view: Any, side: int, phasing: int, phase: int, rng) -> None:
        self.impl(view.scenario.game).begin_phase(view, side, phasing, phase, rng)

    def core_answers(self, game: str, kind: str) -> bool:
        if type(self).choose is not ByGame.choose:
            return False
        impl = self._impls.get(game)
        return impl is not None and impl.core_answers(game, kind)

    def core_answer_params(self, game: Any) -> tuple:
        """The weights and parameters the compiled core answers ``game``'s decisions with
        for this policy (``PassivePolicy.core_answer_params``): its implementation's."""
        return self.impl(game.scenario.game).core_answer_params(game)

    # The Guns of August plays its ladder inside the compiled core (games/goa/game.py asks
    # these): what its implementation answers, unless a subclass chooses otherwise.
    def _goa_twin(self) -> Policy | None:
        if type(self).choose is not ByGame.choose:
            return None
        return self._impls.get("goa")

    def core_level(self) -> int | None:
        """The ladder level of the Guns of August implementation's compiled twin, or
        ``None`` (no twin, or a subclass that chooses otherwise)."""
        impl = self._goa_twin()
        level = getattr(impl, "core_level", None)
        return level() if callable(level) else None

    def core_params(self, t) -> dict:
        """What that compiled twin reads (``GoaCore.set_params``)."""
        impl = self._goa_twin()
        params = getattr(impl, "core_params", None)
        return params(t) if callable(params) else {}


class Passive(ByGame):
    name = "passive"
    IMPLS = {"gwe": "gwe_fast.policies.gwe.passive:PassivePolicy",
             "kb": "gwe_fast.policies.kb.passive:KbPassivePolicy",
             "goa": "gwe_fast.policies.goa.greedy:GoaPassivePolicy"}


class Greedy(ByGame):
    name = "greedy"
    IMPLS = {"gwe": "gwe_fast.policies.gwe.greedy:GreedyPolicy",
             "kb": "gwe_fast.policies.kb.greedy:KbGreedyPolicy",
             "goa": "gwe_fast.policies.goa.greedy:GoaGreedyPolicy"}


class Historical(ByGame):
    """The choices the belligerents made (The Guns of August only)."""

    name = "historical"
    IMPLS = {"goa": "gwe_fast.policies.goa.historical:GoaHistoricalPolicy"}


class Doctrine(ByGame):
    name = "doctrine"
    IMPLS = {"gwe": "gwe_fast.policies.gwe.doctrine:DoctrinePolicy",
             "kb": "gwe_fast.policies.kb.doctrine:KbDoctrinePolicy"}


class Lookahead(ByGame):
    name = "lookahead"
    IMPLS = {"gwe": "gwe_fast.policies.gwe.lookahead:LookaheadPolicy",
             "kb": "gwe_fast.policies.kb.lookahead:KbLookaheadPolicy",
             "goa": "gwe_fast.policies.goa.lookahead:GoaLookaheadPolicy"}


class Delay(ByGame):
    """The delay defence of The Kaiser's Battle's Allied side (``policies.kb.delay``), tested
    against a claim from human play (issue 30). It stands outside the ladder: it has no
    German side and no implementation for The Great War in the East."""

    name = "delay"
    IMPLS = {"kb": "gwe_fast.policies.kb.delay:KbDelayPolicy"}

    def impl(self, game: str) -> Policy:
        if game not in self.IMPLS:
            raise TypeError(f"policy 'delay' is an Allied defence of The Kaiser's Battle; it "
                            f"cannot play {game!r} (The Great War in the East)")
        return super().impl(game)
