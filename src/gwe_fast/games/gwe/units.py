"""Steps, eliminations and their accounting (8.5, 6.14, 25.2)."""

from __future__ import annotations

import numpy as np

from gwe_fast.enums import Side, UnitType
from gwe_fast.games.gwe.game import LOSS_CAUSES, GweGame
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_CENTRAL = int(Side.CENTRAL)
_HQ = int(UnitType.HQ)


def steps_left(game: GweGame, unit: int) -> int:
    """Steps the unit has left: a corps has four, a division two, most others one (8.5)."""
    if game.state.unit_status[unit] & Status.ELIMINATED:
        return 0
    return int(game.scenario.units.n_steps[unit]) - int(game.state.unit_step[unit])


def lose_steps(game: GweGame, unit: int, n: int, cause: str, surrounded: bool = False) -> int:
    """Take ``n`` steps from a unit (eliminating it when none are left); returns steps lost."""
    if n <= 0:
        return 0
    left = steps_left(game, unit)
    lost = min(n, left)
    side = int(game.scenario.units.side[unit])
    game.arr("steps_lost")[side, LOSS_CAUSES.index(cause)] += lost
    if lost == left:
        _eliminate(game, unit, cause, surrounded)
    else:
        game.state.unit_step[unit] += lost
        game.event("step_loss", unit=unit, steps=lost, cause=cause)
    return lost


def eliminate(game: GweGame, unit: int, cause: str, surrounded: bool = False) -> None:
    """Remove a unit with all its remaining steps (25.2 victory points as it happens)."""
    side = int(game.scenario.units.side[unit])
    game.arr("steps_lost")[side, LOSS_CAUSES.index(cause)] += steps_left(game, unit)
    _eliminate(game, unit, cause, surrounded)


def _eliminate(game: GweGame, unit: int, cause: str, surrounded: bool) -> None:
    u, st = game.scenario.units, game.state
    side = int(u.side[unit])
    sp = int(u.stacking[unit])
    game.arr("sp_lost")[side, LOSS_CAUSES.index(cause)] += sp
    st.unit_status[unit] = Status.ELIMINATED
    st.unit_cell[unit] = -1
    st.unit_step[unit] = u.n_steps[unit]
    who = "central_powers" if side == _CENTRAL else "russian"
    sign = 1 if side == _CENTRAL else -1
    if u.utype[unit] == _HQ:
        game.add_vp(f"{who}_hq_eliminated", sign)                     # 25.2
    elif sp:
        if surrounded:
            game.add_vp(f"{who}_stacking_point_eliminated_surrounded", 2 * sign * sp)
        else:
            game.add_vp(f"{who}_stacking_point_eliminated", sign * sp)
    game.event("eliminated", unit=unit, cause=cause, surrounded=surrounded)


def units_in(game: GweGame, cell: int) -> np.ndarray:
    """The units on the map in ``cell``, ascending (``State.units_at``, by the map's
    kernels: the rules ask it at every stack, attack and retreat)."""
    st = game.state
    return game.scenario.map.k.board.units_in_cell(st.unit_cell, st.unit_status, int(cell),
                                                   Status.ON_MAP)


def move_unit(game: GweGame, unit: int, path) -> None:
    """Put a unit at the end of ``path`` (cells, start excluded or included) and mark every
    hex of the path as last occupied or moved through by its side (9.15, 25.12)."""
    path = [int(c) for c in path]
    if not path:
        return
    side = game.scenario.units.side[unit]
    last = game.state.hex_last
    for c in path:                    # a few hexes: cheaper one by one than by an index array
        last[c] = side
    game.state.unit_cell[unit] = path[-1]


def path_to(game: GweGame, pred: np.ndarray, target: int) -> list[int]:
    """Cells from the search's source (excluded) to ``target`` (included), following the
    single-layer predecessor array of ``bounded_search``."""
    n = game.scenario.map.n_cells
    out = []
    s = int(target)
    while s >= 0:
        out.append(s % n)
        s = int(pred[s])
    out.reverse()
    return out[1:]
