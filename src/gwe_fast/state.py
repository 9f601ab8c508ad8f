"""The game in progress as one fixed record: every field a numpy view of one contiguous buffer,
cheap to copy, save and hand to kernels.

A ``State`` holds the fields every hex game has (``turn``, ``phase``, ``player``, ``vp`` and
the unit and hex arrays of ``STATE_ARRAYS``) and the engine arrays of its game
(``ENGINE_ARRAYS`` of ``GweGame`` and ``KbGame``: movement points spent, flags, VP by cause
...). Their names, dtypes and shapes are fixed when the state is made (``layout``): a field is
changed in place and never replaced, and no field is added during play. So a copy is one copy
of the buffer, and compiled code reads the whole position through one pointer and the offsets
of the layout.

Examples
--------
>>> from gwe_fast import load_scenario
>>> st = initial_state(load_scenario("brusilov/historical"))
>>> int(st.turn), st.unit_cell.base is not None, "mp_spent" in st.extra
(1, True, True)
>>> st.turn = 2
>>> c = st.copy(); c.turn = 3
>>> int(st.turn), int(c.turn)
(2, 3)
>>> st.extra["mp_spent"] = 0
Traceback (most recent call last):
...
TypeError: 'mappingproxy' object does not support item assignment
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from types import MappingProxyType

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import NO_SIDE, Status  # noqa: F401  (re-exported: their home is enums)
from gwe_fast.scenario.model import Scenario

#: the scalar fields of every state, with their dtypes, in the order of the record
SCALARS = (("turn", np.int16), ("phase", np.int16), ("player", np.int8), ("vp", np.int32))
#: the per-unit and per-hex arrays of every state (its other fields are the scalars above and
#: the game's engine arrays, ``State.extra``)
STATE_ARRAYS = ("unit_cell", "unit_step", "unit_status", "hex_last")
_SCALAR_NAMES = tuple(name for name, _ in SCALARS)
#: every field starts at a multiple of this many bytes of the buffer (so that compiled code
#: may read any of them through an aligned pointer)
ALIGN = 8


def layout_of(fields) -> tuple[tuple, int]:
    """The layout of a record of ``fields`` ((name, dtype, shape) in order): one
    ``(name, dtype, shape, start, stop)`` a field, its bytes ``buffer[start:stop]``, each start
    a multiple of ``ALIGN``; and the buffer's size in bytes."""
    out, at = [], 0
    for name, dtype, shape in fields:
        dt = np.dtype(dtype)
        shape = tuple(int(n) for n in shape)
        size = int(np.prod(shape, dtype=np.int64)) * dt.itemsize
        out.append((name, dt, shape, at, at + size))
        at += -(-size // ALIGN) * ALIGN
    return tuple(out), at


@lru_cache(maxsize=256)
def _fits(layout: tuple, fields: tuple) -> bool:
    # State.conform: the record holds exactly these engine arrays after the scalars and
    # STATE_ARRAYS, each with its dtype and shape
    want = [(n, np.dtype(d), tuple(int(x) for x in s)) for n, d, s in fields]
    have = [(n, d, s) for n, d, s, *_ in layout]
    return have[len(SCALARS) + len(STATE_ARRAYS):] == want


class State:
    """Everything that changes during a game, as one fixed record (see the module).

    Unit arrays are indexed like ``Scenario.units``; hex arrays like ``Scenario.map`` cells.
    ``unit_step`` is the current step row (0 = full strength); ``hex_last`` is the side that
    last occupied or moved through each hex, -1 if none (9.15, 25.12). ``extra`` maps the
    name of each engine array of the game (movement points spent, rail capacity used ...) to
    its view, read-only as a mapping: the arrays are written in place. ``buffer`` is the
    record's bytes and ``layout`` says where each field lies in it (``layout_of``).
    """

    __slots__ = ("buffer", "layout", "extra", *(f"_{n}" for n in _SCALAR_NAMES), *STATE_ARRAYS)

    def __init__(self, buffer: np.ndarray, layout: tuple):
        names = [f[0] for f in layout]
        missing = [n for n in (*_SCALAR_NAMES, *STATE_ARRAYS) if n not in names]
        if missing:
            raise ValueError(f"a state's layout lacks the fields {', '.join(missing)}")
        set_ = object.__setattr__
        set_(self, "buffer", buffer)
        set_(self, "layout", layout)
        extra = {}
        for name, dtype, shape, start, stop in layout:
            view = buffer[start:stop].view(dtype).reshape(shape)
            if name in _SCALAR_NAMES:
                set_(self, f"_{name}", view)
            elif name in STATE_ARRAYS:
                set_(self, name, view)
            else:
                extra[name] = view
        set_(self, "extra", MappingProxyType(extra))

    @classmethod
    def of_arrays(cls, values: dict, extra: dict | None = None) -> State:
        """A new record holding copies of ``values`` (every scalar and array of the state, by
        name) and of the engine arrays ``extra``, each with its own dtype and shape."""
        fields = [(n, np.asarray(values[n]).dtype, np.shape(values[n]))
                  for n in (*_SCALAR_NAMES, *STATE_ARRAYS)]
        fields += [(k, v.dtype, v.shape) for k, v in (extra or {}).items()]
        layout, size = layout_of(fields)
        st = cls(np.zeros(size, dtype=np.uint8), layout)
        for name, *_ in layout:
            st.field(name)[...] = values[name] if name in values else extra[name]
        return st

    def field(self, name: str) -> np.ndarray:
        """The view of one field of the record, by name (a scalar as a 0-d array)."""
        if name in _SCALAR_NAMES:
            return getattr(self, f"_{name}")
        if name in STATE_ARRAYS:
            return getattr(self, name)
        return self.extra[name]

    def __setattr__(self, name: str, value) -> None:
        if name in _SCALAR_NAMES:
            object.__setattr__(self, name, value)          # the property writes the record
        elif name in STATE_ARRAYS or name in ("buffer", "layout", "extra"):
            # the arrays are changed in place and never replaced: read-only views of them
            # (``game.ReadOnlyState``) are made once and must stay the game's own
            raise AttributeError(f"State.{name} is changed in place, never replaced "
                                 f"(assign to State.{name}[...] instead)")
        else:
            raise AttributeError(f"State has no field {name!r}: its fields are fixed when it "
                                 f"is made")

    def conform(self, fields) -> State:
        """This state when its record has exactly ``fields`` ((name, dtype, shape), the engine
        arrays a game needs after the scalars and ``STATE_ARRAYS``); else a new record of them
        holding this one's values, zeros where it had no such field (a state saved before the
        record was fixed held only the engine arrays its game had used). ValueError with one
        sentence when a field it has cannot hold the game's."""
        fields = tuple(fields)
        try:
            if _fits(self.layout, fields):             # asked again and again: remembered
                return self
        except TypeError:                              # a field or shape not hashable
            if _fits.__wrapped__(self.layout, fields):
                return self
        want = [(n, np.dtype(d), tuple(int(x) for x in s)) for n, d, s in fields]
        known = dict(self.extra)
        for name, dtype, shape in want:
            a = known.get(name)
            if a is not None and a.shape != shape:
                raise ValueError(f"the state's engine array {name} has the shape {a.shape}, "
                                 f"where this game has {shape}")
        values = {n: self.field(n) for n in (*_SCALAR_NAMES, *STATE_ARRAYS)}
        extra = {n: known[n].astype(d) if n in known else np.zeros(s, dtype=d)
                 for n, d, s in want}
        return State.of_arrays(values, extra)

    def copy(self) -> State:
        """A detached copy: one copy of the buffer, the same layout."""
        return State(self.buffer.copy(), self.layout)

    def save(self, path: str | Path, **attached: np.ndarray) -> None:
        """Write the state to a ``.npz`` file: each scalar and array under its name, the engine
        arrays under ``x_<name>``; ``attached`` arrays (a game's dice, ``PlayedGame.save``)
        under ``x_<name>`` too, their names holding a ``:`` or being ``seed``
        (``ATTACHED``), which no engine array's does."""
        bad = [k for k in attached if not _attached(k)]
        if bad:
            raise ValueError(f"attached arrays are named with a ':' or 'seed', not {bad}")
        np.savez(path, **{n: self.field(n) for n in (*_SCALAR_NAMES, *STATE_ARRAYS)},
                 **{f"x_{k}": v for k, v in self.extra.items()},
                 **{f"x_{k}": v for k, v in attached.items()})

    @classmethod
    def load(cls, path: str | Path) -> State:
        """Read a state written by ``save``; ValueError with one sentence if it is not one."""
        return cls.read(path)[0]

    @classmethod
    def read(cls, path: str | Path) -> tuple[State, dict[str, np.ndarray]]:
        """``load``, and the arrays attached to the state when it was saved, by name."""
        what = f"{path} is not a game state saved by gwe_fast.State.save"
        try:
            z = np.load(path, allow_pickle=False)
        except FileNotFoundError:
            raise ValueError(f"{path}: file not found") from None
        except (OSError, ValueError) as exc:
            raise ValueError(f"{what} ({exc})") from None
        if not isinstance(z, np.lib.npyio.NpzFile):
            raise ValueError(f"{what} (it is a single array, not a .npz archive)")
        core = (*_SCALAR_NAMES, *STATE_ARRAYS)
        with z:
            missing = [k for k in core if k not in z.files]
            if missing:
                raise ValueError(f"{what} (it lacks the arrays {', '.join(missing)})")
            values = {k: z[k] for k in core}
            odd = [k for k in _SCALAR_NAMES if values[k].ndim != 0] + [
                k for k in STATE_ARRAYS if values[k].ndim == 0]
            if odd:
                raise ValueError(f"{what} (its {', '.join(odd)} have the wrong shape)")
            engine = {k[2:]: z[k] for k in z.files if k.startswith("x_") and not _attached(k[2:])}
            attached = {k[2:]: z[k] for k in z.files if k.startswith("x_") and _attached(k[2:])}
        return cls.of_arrays(values, engine), attached

    def equals(self, other: State) -> bool:
        return (all(np.array_equal(self.field(n), other.field(n))
                    for n in (*_SCALAR_NAMES, *STATE_ARRAYS))
                and self.extra.keys() == other.extra.keys()
                and all(np.array_equal(v, other.extra[k]) for k, v in self.extra.items()))

    def units_at(self, cell: int) -> np.ndarray:
        """Units on the map in ``cell``."""
        here = (self.unit_cell == cell).nonzero()[0]
        return here[(self.unit_status[here] & Status.ON_MAP) != 0]


def _scalar(name: str) -> property:
    key = f"_{name}"

    def get(self):
        return getattr(self, key)[()]

    def put(self, value) -> None:
        getattr(self, key)[()] = value

    return property(get, put, doc=f"the {name} (a numpy scalar; assigning writes the record)")


for _name in _SCALAR_NAMES:
    setattr(State, _name, _scalar(_name))


def _attached(name: str) -> bool:
    """Whether a saved array's name is one attached by ``save``, not an engine array's."""
    return ":" in name or name == "seed"


def engine_fields(scenario: Scenario) -> list[tuple]:
    """(name, dtype, shape) of each engine array of the scenario's game, in its
    ``ENGINE_ARRAYS`` order."""
    from gwe_fast.games import driver

    game = getattr(driver(scenario.game), "GAME_CLASS", None)
    arrays = getattr(game, "ENGINE_ARRAYS", {})
    return [(name, dtype, shape(scenario)) for name, (dtype, shape) in arrays.items()]


def initial_state(scenario: Scenario) -> State:
    """The position at the start of the scenario's first turn.

    Units with a set-up hex are on the map; units with a reinforcement turn are pending; units
    of an option that is off are not in play; units of an option that is on are pending (the
    engine brings them in as the option's case says); pool units wait off the map. Each call
    gives a new record: a copy of the one made for the scenario the first time.
    """
    return _initial_record(scenario).copy()


@lru_cache(maxsize=16)
def _initial_record(scenario: Scenario) -> State:
    """``initial_state``'s record, made once a scenario (never handed out: only copies)."""
    u = scenario.units
    n = u.n
    cell = np.full(n, -1, dtype=dtypes.CELL)
    status = np.zeros(n, dtype=np.uint16)
    for i in range(n):
        opt = u.option[i]
        if opt and not all(scenario.options.get(o) is True for o in opt):
            status[i] = Status.NOT_IN_PLAY
        elif u.pool[i]:
            status[i] = Status.POOL
        elif u.setup_cell[i] >= 0:
            cell[i] = u.setup_cell[i]
            status[i] = Status.ON_MAP
        else:
            status[i] = Status.PENDING
    hex_last = np.full(scenario.map.n_cells, NO_SIDE, dtype=dtypes.SMALL)
    on = cell >= 0
    hex_last[cell[on]] = u.side[on]
    values = dict(turn=np.int16(scenario.first_turn), phase=np.int16(0),
                  player=np.int8(scenario.first_player), vp=np.int32(scenario.initial_vp),
                  unit_cell=cell, unit_step=np.zeros(n, dtype=dtypes.SMALL),
                  unit_status=status, hex_last=hex_last)
    return State.of_arrays(values, {name: np.zeros(shape, dtype=dtype)
                                    for name, dtype, shape in engine_fields(scenario)})
