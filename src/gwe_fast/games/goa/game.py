"""``GoaGame``: one game of The Guns of August, played by policies through the compiled core
(``gwe_fast._core.goa``, the default) or the reference engine (``engine.py``).

The engine is chosen per game (``GoaGame(..., engine="reference")``) or for the whole process
by the environment variable ``GWE_FAST_GOA_ENGINE`` (``core`` or ``reference``); both play
exactly the same game from the same seed (``tests/games/goa/test_core_parity.py``). With the
core, the sides whose policy is ``RandomPolicy``, or a ladder policy with a compiled twin
(``core_level()``, its parameters from ``core_params()``), are answered inside it (unless the
game records its events); the other sides' decisions come back here, to ``answer``.

A policy answers ``Decision``s (``gwe_fast.policies.base``) whose ``kind`` is
``"goa.<kind>"`` (``codes.Kind``), whose ``options`` are the legal integer codes and whose
``context`` says what the decision is about (``subject``) and whether it is part of a secret
simultaneous choice. The random policy draws from the side's SplitMix64 stream
(``dice.py``), the same numbers the compiled core draws; the ladder's policies
(``gwe_fast.policies.goa``) answer inside the compiled core and, through it, here.
"""

from __future__ import annotations

import os
from types import MappingProxyType
from typing import Any

import numpy as np

from gwe_fast.games.goa import engine
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Kind
from gwe_fast.games.goa.dice import STREAMS, Stream, seed_state
from gwe_fast.games.goa.model import GoaState
from gwe_fast.games.goa.tables import initial_state
from gwe_fast.policies.base import Decision, RandomPolicy, check_choice

KIND_NAMES = {int(k): f"goa.{k.name.lower()}" for k in Kind}
ENGINES = ("core", "reference")
#: the environment variable that chooses the engine of every game that does not name one
ENGINE_VARIABLE = "GWE_FAST_GOA_ENGINE"


def default_engine() -> str:
    """The engine games play on when they do not name one: ``$GWE_FAST_GOA_ENGINE``, else the
    compiled core."""
    name = os.environ.get(ENGINE_VARIABLE, "").strip().lower() or "core"
    if name not in ENGINES:
        raise ValueError(f"{ENGINE_VARIABLE}={name!r} names no engine of The Guns of August "
                         f"(use {' or '.join(ENGINES)})")
    return name


class ReadOnlyGoaState:
    """The state as a policy sees it: read-only views of the live arrays."""

    def __init__(self, s: GoaState):
        for name, a in s.arrays().items():
            v = a.view()
            v.flags.writeable = False
            object.__setattr__(self, name, v)

    def __setattr__(self, name, value):
        raise AttributeError(f"a policy may not change the game state (tried to set {name!r})")


# every fact GoaState gives as a property (month, Japan's conquests, ...), read through the
# same getter: the rule functions a policy calls for its evaluations read them. A setter is
# never reached: __setattr__ refuses first.
for _name, _fact in vars(GoaState).items():
    if isinstance(_fact, property):
        setattr(ReadOnlyGoaState, _name, property(_fact.fget, doc=_fact.__doc__))


class GoaView:
    """What a Python policy reads: the scenario, its tables (``t``) and the read-only state."""

    def __init__(self, game: GoaGame):
        self.scenario = game.scenario
        self.t = game.t
        self.state = ReadOnlyGoaState(game.state)


class GoaGame:
    """A game of ``scenario`` seeded from ``(seed, game_index)``, played by ``policies``
    (side -> ``Policy``; random for sides not given) on ``engine`` (``"core"`` or
    ``"reference"``; ``default_engine()`` when not given)."""

    def __init__(self, scenario, seed: int = 0, game_index: int = 0, policies: dict | None = None,
                 events: bool = False, engine: str | None = None):
        self.scenario = scenario
        self.t = scenario.goa
        self.seed = int(seed)
        self.game_index = int(game_index)
        self.engine = default_engine() if engine is None else str(engine)
        if self.engine not in ENGINES:
            raise ValueError(f"no engine {self.engine!r} for The Guns of August "
                             f"(use {' or '.join(ENGINES)})")
        if self.engine == "core":
            from gwe_fast._core.goa.dice import game_states
            from gwe_fast._core.goa.tables import core_tables

            # the core's seeding (numpy's SeedSequence in C: the same states, 100x sooner)
            # and the scenario's start state, copied
            states = game_states(self.seed, self.game_index)
            ct = core_tables(self.t)
            self.state = GoaState(ct.initial.copy(), ct.layout)
        else:
            states = tuple(seed_state(self.seed, self.game_index, name) for name in STREAMS)
            self.state = initial_state(self.t)
        self.dice = Stream(states[0])
        self.policy_streams = {ALLIED: Stream(states[1]), CENTRAL: Stream(states[2])}
        policies = policies or {}
        self.policies = {s: policies.get(s) or RandomPolicy() for s in (ALLIED, CENTRAL)}
        self._rngs: dict | None = None
        self.events: list | None = [] if events else None
        self.decisions = 0
        self.rejections = 0
        self._view = None
        self.per_month: list[dict] = []
        #: the core's per-month record (``play(record=True)``): int32[months, countries,
        #: columns] (``_core.goa.engine.HISTORY_COLUMNS``) and the objective cities the
        #: Central Powers held at the end of each month; ``None`` otherwise
        self.history = None
        self.history_objectives = None
        #: the decisions asked, as the core traces them (``play(trace=True)``), or ``None``
        self.trace = None
        #: of ``decisions``, those answered inside the compiled core
        self.decisions_in_core = 0

    @property
    def rngs(self) -> dict:
        """Each side's ``numpy.random.Generator`` for its Python policy (made when first used)."""
        if self._rngs is None:
            self._rngs = {s: np.random.default_rng([self.seed, self.game_index, 7919 + int(s)])
                          for s in self.policies}
        return self._rngs

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

    def _implementation(self, side: int):
        """The policy that plays ``side``: a level of the ladder (``policies.ladder``) is its
        Guns of August implementation (whose compiled twin may answer inside the core)."""
        policy = self.policies[side]
        impl = getattr(policy, "impl", None)
        return impl(self.scenario.game) if callable(impl) else policy

    @property
    def plays_core(self) -> bool:
        """This game is played by the compiled core (dice forced by a test play on the
        reference, which reads them)."""
        return self.engine == "core" and not self.dice.forced

    def play(self, after_month=None, record: bool = False, trace: bool = False) -> None:
        """Play to the end; ``after_month(month)`` is called at the end of each month. With
        the core and ``record``, ``history`` holds the per-month record afterwards; with the
        core and ``trace``, ``trace`` holds every decision asked (``GoaCore.trace_rows``:
        month, kind, side, subject, secret, number of options, index, code)."""
        if not self.plays_core or self.events is not None:
            for side in (ALLIED, CENTRAL):
                policy = self._implementation(side)
                if getattr(policy, "CORE_ONLY", None):        # it answers only in the core
                    raise RuntimeError(policy.CORE_ONLY)
        if not self.plays_core:
            gen = engine.play(self.t, self.state, self.dice, after_month)
            try:
                ask = next(gen)
                while True:
                    ask = gen.send(self.answer(ask))
            except StopIteration:
                pass
            return
        from gwe_fast._core import goa as core_codes
        from gwe_fast._core.goa.engine import GoaCore

        # who answers inside the core: the random policy, and a ladder policy with a compiled
        # twin (its ``core_level()``, its parameters given by its ``core_setup(core, side)``);
        # the others, in Python (and every side when events are recorded, which the core does
        # not do)
        levels = []
        for side in (ALLIED, CENTRAL):
            policy = self._implementation(side)
            level = None
            if self.events is None:
                if type(policy) is RandomPolicy:
                    level = core_codes.LEVEL_RANDOM
                elif callable(getattr(policy, "core_level", None)):
                    level = policy.core_level()
            levels.append(core_codes.LEVEL_EXTERNAL if level is None else level)
        inside = [lv != core_codes.LEVEL_EXTERNAL for lv in levels]
        core = GoaCore(
            self.t, self.state, streams=(self.dice.state, self.policy_streams[ALLIED].state,
                                         self.policy_streams[CENTRAL].state),
            levels=levels, record=record, stop_at_month_end=after_month is not None,
            trace=trace)
        # a compiled ladder policy's parameters (``core_params``: greedy's, the historical
        # policy's rows) and its own set-up (``core_setup``: the lookahead's)
        for i, side in enumerate((ALLIED, CENTRAL)):
            if not inside[i] or levels[i] == core_codes.LEVEL_RANDOM:
                continue
            impl = self._implementation(side)
            params = getattr(impl, "core_params", None)
            if callable(params):
                core.set_params(int(side), **params(self.t))
            setup = getattr(impl, "core_setup", None)
            if callable(setup):
                setup(core, side)
        try:
            while True:
                status = core.run()
                if status == core_codes.RUN_DECISION:
                    core.choose(self.answer(engine.Ask(
                        core.kind, core.side, tuple(core.options.tolist()), core.subject,
                        core.secret)))
                elif status == core_codes.RUN_MONTH_END:
                    after_month(core.month_ended)
                else:
                    break
        finally:
            streams = core.streams
            self.dice.state = streams[0]
            for i, side in enumerate((ALLIED, CENTRAL)):
                if inside[i]:
                    self.policy_streams[side].state = streams[1 + i]
            self.decisions += core.decisions_in_c
            self.decisions_in_core += core.decisions_in_c
            if record:
                self.history = core.history
                self.history_objectives = core.history_objectives
            if trace:
                self.trace = core.trace_rows

    @property
    def turn(self) -> int:
        return self.state.month


def play_reference(scenario, seed: int, index: int, answers: Any = None) -> GoaGame:
    """A whole game with random policies on the reference engine (tests, parity)."""
    g = GoaGame(scenario, seed, index, engine="reference")
    g.play()
    return g
