"""The game in progress as struct-of-arrays numpy: cheap to copy, save and hand to kernels."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import NO_SIDE, Status  # noqa: F401  (re-exported: their home is enums)
from gwe_fast.scenario.model import Scenario


@dataclass
class State:
    """Everything that changes during a game.

    Unit arrays are indexed like ``Scenario.units``; hex arrays like ``Scenario.map`` cells.
    ``unit_step`` is the current step row (0 = full strength); ``hex_last`` is the side that
    last occupied or moved through each hex, -1 if none (9.15, 25.12). ``extra`` holds the
    arrays a game's engine adds (movement points spent, rail capacity used …), by name; they
    are copied, saved and compared with the rest.
    """

    turn: np.int16
    phase: np.int16
    player: np.int8
    vp: np.int32
    unit_cell: np.ndarray
    unit_step: np.ndarray
    unit_status: np.ndarray
    hex_last: np.ndarray
    extra: dict[str, np.ndarray] = field(default_factory=dict)

    def __setattr__(self, name: str, value) -> None:
        # the arrays are changed in place and never replaced: read-only views of them
        # (``game.ReadOnlyState``) are made once and must stay the game's own
        if name in STATE_ARRAYS and name in self.__dict__:
            raise AttributeError(f"State.{name} is changed in place, never replaced "
                                 f"(assign to State.{name}[...] instead)")
        object.__setattr__(self, name, value)

    def _core(self):
        return [f.name for f in fields(self) if f.name != "extra"]

    def copy(self) -> State:
        return State(**{k: np.copy(getattr(self, k)) for k in self._core()},
                     extra={k: v.copy() for k, v in self.extra.items()})

    def save(self, path: str | Path) -> None:
        """Write the state to a ``.npz`` file (engine arrays under ``x_<name>``)."""
        np.savez(path, **{k: getattr(self, k) for k in self._core()},
                 **{f"x_{k}": v for k, v in self.extra.items()})

    @classmethod
    def load(cls, path: str | Path) -> State:
        """Read a state written by ``save``; ValueError with one sentence if it is not one."""
        what = f"{path} is not a game state saved by gwe_fast.State.save"
        try:
            z = np.load(path, allow_pickle=False)
        except FileNotFoundError:
            raise ValueError(f"{path}: file not found") from None
        except (OSError, ValueError) as exc:
            raise ValueError(f"{what} ({exc})") from None
        if not isinstance(z, np.lib.npyio.NpzFile):
            raise ValueError(f"{what} (it is a single array, not a .npz archive)")
        core = [f.name for f in fields(cls) if f.name != "extra"]
        with z:
            missing = [k for k in core if k not in z.files]
            if missing:
                raise ValueError(f"{what} (it lacks the arrays {', '.join(missing)})")
            values = {k: z[k][()] if z[k].ndim == 0 else z[k].copy() for k in core}
            extra = {k[2:]: z[k].copy() for k in z.files if k.startswith("x_")}
        return cls(**values, extra=extra)

    def equals(self, other: State) -> bool:
        return (all(np.array_equal(getattr(self, k), getattr(other, k)) for k in self._core())
                and self.extra.keys() == other.extra.keys()
                and all(np.array_equal(v, other.extra[k]) for k, v in self.extra.items()))

    def units_at(self, cell: int) -> np.ndarray:
        """Units on the map in ``cell``."""
        here = (self.unit_cell == cell).nonzero()[0]
        return here[(self.unit_status[here] & Status.ON_MAP) != 0]


#: the per-unit and per-hex arrays of a ``State`` (its other fields are numpy scalars)
STATE_ARRAYS = tuple(f.name for f in fields(State) if f.type == "np.ndarray")


def initial_state(scenario: Scenario) -> State:
    """The position at the start of the scenario's first turn.

    Units with a set-up hex are on the map; units with a reinforcement turn are pending; units
    of an option that is off are not in play; units of an option that is on are pending (the
    engine brings them in as the option's case says); pool units wait off the map.
    """
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
    return State(
        turn=np.int16(scenario.first_turn), phase=np.int16(0),
        player=np.int8(scenario.first_player), vp=np.int32(scenario.initial_vp),
        unit_cell=cell, unit_step=np.zeros(n, dtype=dtypes.SMALL), unit_status=status,
        hex_last=hex_last)
