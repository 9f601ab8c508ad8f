"""A game: one scenario, one seed, its dice, its state.

Examples
--------
>>> from gwe_fast import load_scenario, Game
>>> g = Game(load_scenario("brusilov/historical"), seed=1, game_index=0)
>>> int(g.state.turn), g.side_name(int(g.state.player))
(1, 'allied')
>>> g.dice.force("combat", [6])
>>> g.dice.roll("combat")
6
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from functools import lru_cache
from importlib import import_module
from operator import attrgetter
from typing import Any, ClassVar

import numpy as np

from gwe_fast.dice import GameDice
from gwe_fast.enums import Side
from gwe_fast.policies.base import Decision, Policy, RandomPolicy, check_choice
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import SCALARS, STATE_ARRAYS, State, Status, initial_state


@lru_cache(maxsize=32)
def _engine_fields(cls: type, scenario: Scenario) -> tuple:
    # the (name, dtype, shape) of each engine array a game of cls keeps for scenario, made
    # once a scenario (State.conform compares them with the record's fields)
    return tuple((name, np.dtype(dtype), tuple(int(x) for x in shape(scenario)))
                 for name, (dtype, shape) in cls.ENGINE_ARRAYS.items())


class Game:
    """One game of a scenario, seeded from ``(seed, game_index)``.

    The state is public and made of numpy arrays; the rules engines (``gwe_fast.games``) add the
    ``legal_*``/``apply_*`` procedures that change it. ``dice`` hands out the game's seeded
    dice by purpose; ``dice.force(stream, values)`` fixes the next rolls for a test.
    """

    def __init__(self, scenario: Scenario, seed: int = 0, game_index: int = 0,
                 state: State | None = None):
        self.scenario = scenario
        self.seed = int(seed)
        self.game_index = int(game_index)
        self.dice = GameDice(self.seed, self.game_index)
        self.state = initial_state(scenario) if state is None else state

    @staticmethod
    def side_name(side: int) -> str:
        return Side(side).name.lower()

    def on_map(self, side: int | None = None) -> np.ndarray:
        """Units on the map, optionally of one side."""
        st = self.state
        mask = (st.unit_status & Status.ON_MAP).astype(bool)
        if side is not None:
            mask &= self.scenario.units.side == side
        return np.flatnonzero(mask)

    def stacking_in(self, cell: int) -> int:
        """Stacking points of the units in ``cell``."""
        return int(self.scenario.units.stacking[self.state.units_at(cell)].sum())

    def unit(self, unit_id: str) -> int:
        return self.scenario.units.index(unit_id)

    def place(self, unit_id: str, hexid: str) -> None:
        """Put a unit on the map at a hex (for building test positions by hand)."""
        i = self.unit(unit_id)
        cell = self.scenario.map.cell(hexid)
        self.state.unit_cell[i] = cell
        self.state.unit_status[i] = (self.state.unit_status[i] & ~np.uint16(
            Status.PENDING | Status.NOT_IN_PLAY | Status.POOL)) | Status.ON_MAP
        self.state.hex_last[cell] = self.scenario.units.side[i]

    def remove(self, unit_id: str) -> None:
        """Take a unit off the map (not eliminated: simply out of the position)."""
        i = self.unit(unit_id)
        self.state.unit_cell[i] = -1
        self.state.unit_status[i] = Status.NOT_IN_PLAY


def picks_at_random(game: Any, side: int, engine: str | None = None) -> bool:
    """Whether ``side`` of ``game`` picks at random: a played game whose policy for the side is
    ``RandomPolicy`` itself (``PlayedGame.ask`` then draws without asking it; the compiled
    turn loop draws the same numbers). With ``engine`` (a rules engine's module name), only
    while that engine hands such a player's choices to its kernels
    (``COMPILED_RANDOM_MOVES``)."""
    policies = getattr(game, "policies", None)
    if policies is None or type(policies.get(int(side))) is not RandomPolicy:
        return False
    if engine is None:
        return True
    module = sys.modules.get(engine) or import_module(engine)
    return bool(module.COMPILED_RANDOM_MOVES)


class PlayedGame(Game):
    """A game played by policies: what every rules engine shares.

    * ``ask(kind, side, options, **context)``: hand a decision to the side's policy and return
      the chosen option, checked in one place (``policies.base.check_choice``);
    * ``begin_phase(phasing, phase)``: called by the engine before each phase; passes the
      news to both policies (``Policy.begin_phase``), which may plan but not act;
    * ``ask_secret(kind, {side: options})``: a simultaneous secret choice (both policies pick
      before either pick is stored anywhere a policy could read it);
    * ``roll(stream, why)``: one die from the game's named stream, logged with its purpose;
    * ``event(kind, **details)``: append to the event log (kept only when ``events=True``);
    * ``arr(name)``: an engine array of the state (the subclass's ``ENGINE_ARRAYS``);
    * ``add_vp(cause, vp)``: change the VP total and book it under one of ``VP_CAUSES``;
    * ``save(path)`` / ``resume(scenario, path)``: a position with its dice and policy
      generators, so a resumed game goes on exactly as the saved one would.

    ``policies`` maps a side (0 allied, 1 central) to a ``Policy``; missing sides get the
    random policy.
    """

    ENGINE_ARRAYS: ClassVar[dict] = {}
    VP_CAUSES: ClassVar[tuple[str, ...]] = ("initial",)
    LOSS_CAUSES: ClassVar[tuple[str, ...]] = ("other",)
    FLAG_DTYPE: ClassVar[type] = np.uint16

    def __init__(self, scenario: Scenario, seed: int = 0, game_index: int = 0,
                 policies: dict | None = None, state: State | None = None,
                 events: bool = False):
        super().__init__(scenario, seed=seed, game_index=game_index, state=state)
        # the record holds every engine array from the start (a state saved before it was
        # fixed, or made for another game's arrays, is copied into one that does)
        self.state = self.state.conform(_engine_fields(type(self), scenario))
        policies = policies or {}
        self.policies = {s: policies.get(s) or RandomPolicy() for s in (Side.ALLIED, Side.CENTRAL)}
        self.rngs = {s: self.dice.policy_rng(Side(s).name.lower()) for s in self.policies}
        self.events: list[tuple] | None = [] if events else None
        self.rejections = 0
        if state is None and "vp_cause" in self.ENGINE_ARRAYS:
            self.arr("vp_cause")[self.VP_CAUSES.index("initial")] = scenario.initial_vp

    # engine arrays ------------------------------------------------------------------------
    def arr(self, name: str) -> np.ndarray:
        return self.state.extra[name]

    def flag(self, unit: int, bit: int) -> bool:
        return bool(self.arr("flags")[unit] & bit)

    def set_flag(self, unit: int, bit: int, on: bool = True) -> None:
        f = self.arr("flags")
        f[unit] = (f[unit] | bit) if on else (f[unit] & ~f.dtype.type(bit))

    # what a policy sees ------------------------------------------------------------------
    def policy_view(self) -> PolicyView:
        """The game as a policy may see it: scenario, compiled data and a state whose arrays
        are read-only views of the live ones (``PolicyView``). Made once per game."""
        view = self.__dict__.get("_policy_view")
        if view is None:
            view = self.__dict__["_policy_view"] = PolicyView(self)
        return view

    # decisions, dice, log -----------------------------------------------------------------
    def ask(self, kind: str, side: int, options, **context: Any):
        """The chosen option of a decision (a single option is taken without asking).

        A player who picks at random (``RandomPolicy`` itself) gets its draw without the
        ``Decision`` being built: the same ``Generator.integers`` on its generator, which
        is all ``RandomPolicy.choose`` reads of a decision (drawn by the map's kernels,
        ``play.draw``), and an answer that is legal."""
        options = list(options)
        if len(options) == 1:
            return options[0]
        side = int(side)
        policy = self.policies[side]
        if type(policy) is RandomPolicy and options:
            i = self.scenario.map.k.play.draw(self.rngs[side], len(options))
        else:
            d = Decision(kind, side, options, context)
            i = self._check(d, policy.choose(d, self, self.rngs[side]), check_choice)
        if self.events is not None:
            self.events.append(("choice", int(self.state.turn), kind, int(side), i))
        return options[i]

    def begin_phase(self, phasing: int, phase: int) -> None:
        """Tell both policies that ``phasing``'s phase ``phase`` (the engine's phase code) is
        about to be played (``Policy.begin_phase``): a look-ahead policy plans there, on a copy
        of the position as it stands at the start of the phase. Nothing a policy does here
        reaches the game."""
        view = None
        for side, policy in self.policies.items():
            if hears_phases(policy):
                view = view or self.policy_view()
                policy.begin_phase(view, int(side), int(phasing), int(phase),
                                   self.rngs[int(side)])

    def _check(self, decision, answer, check_choice) -> int:
        try:
            return check_choice(decision, answer)
        except Exception:
            self.rejections += 1          # counted (issue 6: the count must stay zero)
            raise

    def ask_secret(self, kind: str, options: dict[int, list], **context: Any) -> dict[int, Any]:
        """A simultaneous secret choice: each side in ``options`` picks from its own legal
        options; no pick is stored in the game, the log or the context until every side has
        chosen, so no policy can see the other's choice. Returns ``{side: chosen option}``."""
        picks = {}
        for side, opts in options.items():
            opts = list(opts)
            if len(opts) == 1:
                picks[side] = 0
                continue
            d = Decision(kind, int(side), opts, dict(context, secret=True))
            picks[side] = self._check(
                d, self.policies[int(side)].choose(d, self, self.rngs[int(side)]), check_choice)
        if self.events is not None:                    # revealed together
            for side, i in picks.items():
                self.events.append(("choice", int(self.state.turn), kind, int(side), i))
        return {side: list(options[side])[i] for side, i in picks.items()}

    def roll(self, stream: str, why: str = "") -> int:
        v = self.dice.roll(stream)
        if self.events is not None:
            self.events.append(("die", int(self.state.turn), stream, why, v))
        return v

    def event(self, kind: str, **details: Any) -> None:
        if self.events is not None:
            self.events.append((kind, int(self.state.turn), details))

    # victory points -----------------------------------------------------------------------
    def add_vp(self, cause: str, vp: int) -> None:
        """Change the VP total now and book it under its cause."""
        self.arr("vp_cause")[self.VP_CAUSES.index(cause)] += vp
        self.state.vp = np.int32(self.state.vp + vp)

    # saving and resuming ------------------------------------------------------------------
    def save(self, path) -> None:
        """Write the position with the dice streams and the policies' generators, so that
        ``resume`` goes on exactly as this game would (at a phase boundary)."""
        from gwe_fast.dice import snapshot_generator

        attached = {f"dice:{name}": words for name, words in self.dice.snapshot().items()}
        for side, rng in self.rngs.items():
            attached[f"policy_rng:{int(side)}"] = snapshot_generator(rng)
        attached["seed"] = np.array([self.seed, self.game_index], dtype=np.int64)
        self.state.save(path, **attached)

    @classmethod
    def resume(cls, scenario: Scenario, path, policies: dict | None = None,
               events: bool = False):
        """A game saved by ``save``, ready for its engine's ``play`` to go on."""
        from gwe_fast.dice import restore_generator

        st, attached = State.read(path)
        if "seed" not in attached:
            raise ValueError(f"{path} is a position without its game's seed and dice (saved by "
                             f"State.save, not by a game's save)")
        seed, index = (int(x) for x in attached["seed"])
        dice = {k.split(":", 1)[1]: v for k, v in attached.items() if k.startswith("dice:")}
        rngs = {int(k.split(":", 1)[1]): v for k, v in attached.items()
                if k.startswith("policy_rng:")}
        game = cls(scenario, seed=seed, game_index=index, policies=policies, state=st,
                   events=events)
        game.dice.restore(dice)
        for side, words in rngs.items():
            restore_generator(game.rngs[side], words)
        return game


def _read_only(a: np.ndarray) -> np.ndarray:
    v = a.view()
    v.flags.writeable = False
    return v


class ReadOnlyState:
    """A live, read-only window on a ``State``: every array is a view with
    ``writeable=False`` of the game's own array (so it follows the game as it is played),
    the scalars (turn, phase, player, vp) are read through, and nothing can be assigned.
    ``copy()`` returns an ordinary, writable, detached ``State`` (for playing ahead).

    The views of the state's arrays are made once: a ``State`` changes its arrays in place
    and never replaces them (``State.__setattr__`` refuses), so they stay the game's own.
    """

    __slots__ = ("_state", "_views", "extra", *STATE_ARRAYS)

    def __init__(self, state: State):
        object.__setattr__(self, "_state", state)
        object.__setattr__(self, "_views", {})
        object.__setattr__(self, "extra", _ReadOnlyExtra(self))
        for name in STATE_ARRAYS:
            object.__setattr__(self, name, _read_only(getattr(state, name)))

    def _view(self, name: str, a):
        hit = self._views.get(name)
        if hit is not None and hit[0] is a:
            return hit[1]
        if a.__class__ is not np.ndarray:
            return a                       # numpy scalars are immutable
        self._views[name] = (a, _read_only(a))
        return self._views[name][1]

    def __getattr__(self, name: str):
        return self._view(name, getattr(self._state, name))

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"a policy may not change the game state (tried to set {name!r})")

    def units_at(self, cell: int) -> np.ndarray:
        return State.units_at(self, cell)

    def copy(self) -> State:
        return self._state.copy()


# the scalar fields (turn, phase, player, vp) read through to the live state: numpy scalars
# are immutable, so they are handed out as they are
for _name, _ in SCALARS:
    setattr(ReadOnlyState, _name,
            property(attrgetter(f"_state.{_name}"), doc=f"``State.{_name}``, read through"))


class _ReadOnlyExtra(Mapping):
    """``State.extra`` as a read-only mapping of read-only views."""

    __slots__ = ("_ro",)

    def __init__(self, ro: ReadOnlyState):
        self._ro = ro

    def __getitem__(self, name: str) -> np.ndarray:
        return self._ro._view("extra:" + name, self._ro._state.extra[name])

    def __iter__(self):
        return iter(self._ro._state.extra)

    def __len__(self) -> int:
        return len(self._ro._state.extra)


class PolicyView:
    """What a policy is handed to read: ``scenario``, the engine's compiled ``data`` (when
    the game has it), ``state`` (a ``ReadOnlyState``), ``arr``/``flag`` for engine arrays
    (read-only), and the read-only helpers of ``Game``. It has no dice, no ``ask``, no
    ``add_vp``: a policy changes the game only through the choices it returns.

    Examples
    --------
    >>> from gwe_fast import load_scenario
    >>> from gwe_fast.games.gwe.game import GweGame
    >>> view = GweGame(load_scenario("brusilov/historical"), seed=1).policy_view()
    >>> view.state.unit_step[0] = 1
    Traceback (most recent call last):
    ...
    ValueError: assignment destination is read-only
    >>> hasattr(view, "roll"), int(view.state.turn)
    (False, 1)
    """

    __slots__ = ("_arrs", "_game", "data", "scenario", "state")

    def __init__(self, game: PlayedGame):
        object.__setattr__(self, "_game", game)
        object.__setattr__(self, "_arrs", {})      # name -> read-only view of the engine array
        object.__setattr__(self, "state", ReadOnlyState(game.state))
        object.__setattr__(self, "scenario", game.scenario)
        object.__setattr__(self, "data", getattr(game, "data", None))

    def __setattr__(self, name: str, value) -> None:
        raise AttributeError(f"a policy may not change the game (tried to set {name!r})")

    @property
    def seed(self) -> int:
        return self._game.seed

    @property
    def game_index(self) -> int:
        return self._game.game_index

    @property
    def core(self):
        """The game's compiled core (``GweGame.core``), or None: a policy may ask it the
        questions it answers without playing (``GweCore.best_attack``), nothing else."""
        return getattr(self._game, "core", None)

    def arr(self, name: str) -> np.ndarray:
        """An engine array, read-only."""
        hit = self._arrs.get(name)
        if hit is None:
            hit = self._arrs[name] = _read_only(self._game.state.extra[name])
        return hit

    def flag(self, unit: int, bit: int) -> bool:
        return bool(self.arr("flags")[unit] & bit)

    side_name = staticmethod(Game.side_name)
    on_map = Game.on_map
    stacking_in = Game.stacking_in
    unit = Game.unit


def hears_phases(policy) -> bool:
    """Whether ``policy`` hears of each phase (overrides ``Policy.begin_phase``): a game
    whose policies all do not may play its phases without telling them."""
    return type(policy).begin_phase is not Policy.begin_phase
