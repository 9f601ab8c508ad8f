"""``GoaGame``: one game of The Guns of August, played by policies through the reference engine
or the compiled core.

A policy answers ``Decision``s (``gwe_fast.policies.base``) whose ``kind`` is
``"goa.<kind>"`` (``codes.Kind``), whose ``options`` are the legal integer codes and whose
``context`` says what the decision is about (``subject``) and whether it is part of a secret
simultaneous choice. The random policy draws from the side's SplitMix64 stream
(``dice.py``), the same numbers the compiled core draws; the ladder's policies
(``gwe_fast.policies.goa``) answer inside the compiled core and, through it, here.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import numpy as np

from gwe_fast.games.goa import engine
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Kind, Side
from gwe_fast.games.goa.dice import Stream
from gwe_fast.games.goa.model import GoaState
from gwe_fast.games.goa.tables import initial_state
from gwe_fast.policies.base import Decision, RandomPolicy, check_choice

KIND_NAMES = {int(k): f"goa.{k.name.lower()}" for k in Kind}


class ReadOnlyGoaState:
    """The state as a policy sees it: read-only views of the live arrays."""

    def __init__(self, s: GoaState):
        for name, a in s.arrays().items():
            v = a.view()
            v.flags.writeable = False
            object.__setattr__(self, name, v)

    def __setattr__(self, name, value):
        raise AttributeError(f"a policy may not change the game state (tried to set {name!r})")

    @property
    def month(self) -> int:
        return int(self.scalars[0])


class GoaView:
    """What a Python policy reads: the scenario, its tables (``t``) and the read-only state."""

    def __init__(self, game: GoaGame):
        self.scenario = game.scenario
        self.t = game.t
        self.state = ReadOnlyGoaState(game.state)


class GoaGame:
    """A game of ``scenario`` seeded from ``(seed, game_index)``, played by ``policies``
    (side -> ``Policy``; random for sides not given)."""

    def __init__(self, scenario, seed: int = 0, game_index: int = 0, policies: dict | None = None,
                 events: bool = False):
        self.scenario = scenario
        self.t = scenario.goa
        self.seed = int(seed)
        self.game_index = int(game_index)
        self.state = initial_state(self.t)
        self.dice = Stream.of(self.seed, self.game_index, "goa")
        self.policy_streams = {side: Stream.of(self.seed, self.game_index,
                                               f"goa-policy-{Side(side).name.lower()}")
                               for side in (ALLIED, CENTRAL)}
        policies = policies or {}
        self.policies = {s: policies.get(s) or RandomPolicy() for s in (ALLIED, CENTRAL)}
        self.rngs = {s: np.random.default_rng([self.seed, self.game_index, 7919 + int(s)])
                     for s in self.policies}
        self.events: list | None = [] if events else None
        self.decisions = 0
        self.rejections = 0
        self._view = None
        self.per_month: list[dict] = []

    def view(self) -> GoaView:
        if self._view is None:
            self._view = GoaView(self)
        return self._view

    def answer(self, ask: engine.Ask) -> int:
        """The index the side's policy picks among ``ask.options``."""
        self.decisions += 1
        policy = self.policies[ask.side]
        if type(policy) is RandomPolicy:
            i = self.policy_streams[ask.side].below(len(ask.options))
        else:
            d = Decision(KIND_NAMES[ask.kind], int(ask.side), ask.options,
                         MappingProxyType({"subject": ask.subject, "secret": ask.secret,
                                           "month": self.state.month}))
            try:
                i = check_choice(d, policy.choose(d, self.view(), self.rngs[ask.side]))
            except Exception:
                self.rejections += 1
                raise
        if self.events is not None:
            self.events.append(("choice", self.state.month, KIND_NAMES[ask.kind], int(ask.side),
                                int(ask.subject), int(ask.options[i])))
        return i

    def play(self, after_month=None) -> None:
        """Play to the end with the reference engine; ``after_month(month)`` is called at the
        end of each month."""
        gen = engine.play(self.t, self.state, self.dice, after_month)
        try:
            ask = next(gen)
            while True:
                ask = gen.send(self.answer(ask))
        except StopIteration:
            pass

    @property
    def turn(self) -> int:
        return self.state.month


def play_reference(scenario, seed: int, index: int, answers: Any = None) -> GoaGame:
    """A whole game with random policies on the reference engine (tests, parity)."""
    g = GoaGame(scenario, seed, index)
    g.play()
    return g
