"""Steps, faces, eliminations and their accounting (8.5, 13.2, 15.22, 15.25, 20.14).

A unit's ``unit_step`` counts the printed faces it has lost: a division or a brigade/named
regiment has two faces, everything else one. A German division that loses the step of its
back face is replaced by a regimental replacement unit from the pool (its third step), or
eliminated when the pool is empty (13.23). An eliminated British infantry battalion becomes a
service company waiting to be deployed (15.22); a service company on the map is the same
counter showing its reverse (``Flag.SERVICE``). An eliminated replacement unit goes back to
the pool (13.23).
"""

from __future__ import annotations

import numpy as np

from gwe_fast.games.kb.game import LOSS_CAUSES, Flag, KbGame
from gwe_fast.state import Status

_SERVICE = int(Flag.SERVICE)

COMBAT, MORALE, MOVEMENT = 0, 1, 2


def face(game: KbGame, unit: int) -> np.ndarray:
    """The unit's current printed values ``[combat, morale, movement]``."""
    if game.arr("flags")[unit] & Flag.SERVICE:
        return game.data.service_values[unit]
    return game.scenario.units.values[unit, game.state.unit_step[unit]]


def combat(game: KbGame, unit: int) -> int:
    return int(face(game, unit)[COMBAT])


def morale(game: KbGame, unit: int) -> int:
    return int(face(game, unit)[MORALE])


def movement(game: KbGame, unit: int) -> int:
    return int(face(game, unit)[MOVEMENT])


def movement_each(game: KbGame, us) -> np.ndarray:
    """``int32``: ``movement`` of each of the units ``us`` (a service company's own face)."""
    us = np.asarray(us, dtype=np.int64).reshape(-1)
    ma = game.scenario.units.values[us, game.state.unit_step[us], MOVEMENT].astype(np.int32)
    service = (game.arr("flags")[us] & Flag.SERVICE) != 0
    ma[service] = game.data.service_values[us[service], MOVEMENT]
    return ma


def stacking(game: KbGame, unit: int) -> int:
    """Stacking Points (7.1): a service company is a company (1)."""
    if game.arr("flags")[unit] & Flag.SERVICE:
        return 1
    return int(game.scenario.units.stacking[unit])


def stacking_points(game: KbGame, units) -> int:
    """The Stacking Points of ``units`` together (``stacking`` of each, summed)."""
    # a hex's handful of units: summed one by one (stacking_each's rule)
    flags, points = game.arr("flags"), game.scenario.units.stacking
    units = units.tolist() if isinstance(units, np.ndarray) else units
    return sum(1 if flags[x] & _SERVICE else int(points[x]) for x in units)


def stacking_each(game: KbGame, units) -> np.ndarray:
    """``int64``: ``stacking`` of each of ``units`` (a service company counts 1)."""
    units = np.asarray(units, dtype=np.int64).reshape(-1)
    service = (game.arr("flags")[units] & Flag.SERVICE) != 0
    return np.where(service, 1, game.scenario.units.stacking[units]).astype(np.int64)


def pool_free(game: KbGame) -> np.ndarray:
    """Regimental replacement units waiting in the pool (13.23)."""
    st = game.state
    return (game.data.replacement & ((st.unit_status & Status.POOL) != 0)).nonzero()[0]


def service_free(game: KbGame) -> np.ndarray:
    """Eliminated British battalions whose reverse may be deployed as a service company
    (15.22, 15.25)."""
    st = game.state
    return np.flatnonzero(game.data.has_service_face
                          & (st.unit_status & Status.ELIMINATED).astype(bool))


def steps_left(game: KbGame, unit: int) -> int:
    """Steps the unit has left: a division's third step counts while the pool can give it."""
    st = game.state
    if not st.unit_status[unit] & Status.ON_MAP:
        return 0
    if game.arr("flags")[unit] & Flag.SERVICE:
        return 1
    left = int(game.scenario.units.n_steps[unit]) - int(st.unit_step[unit])
    if game.data.division[unit] and pool_free(game).size:
        left += 1
    return left


def lose_steps(game: KbGame, unit: int, n: int, cause: str) -> int:
    """Take ``n`` steps from a unit; returns the steps lost. A division losing its last
    printed face is replaced by a regimental replacement unit in its hex (8.5[1]), which
    costs the German player a Victory Point (20.14) and takes any further step."""
    st, u = game.state, game.scenario.units
    lost = 0
    while n > 0 and st.unit_status[unit] & Status.ON_MAP:
        side = int(u.side[unit])
        flags = game.arr("flags")
        printed_left = int(u.n_steps[unit]) - int(st.unit_step[unit])
        if flags[unit] & Flag.SERVICE or printed_left > 1:
            if flags[unit] & Flag.SERVICE:
                _remove(game, unit, cause)
            else:
                st.unit_step[unit] += 1
                game.event("step_loss", unit=unit, cause=cause)
            game.arr("steps_lost")[side, LOSS_CAUSES.index(cause)] += 1
            n -= 1
            lost += 1
            continue
        game.arr("steps_lost")[side, LOSS_CAUSES.index(cause)] += 1
        n -= 1
        lost += 1
        if game.data.division[unit]:
            free = pool_free(game)
            if free.size:                                         # 8.5[1], 13.21[2]
                rep = int(free[0])
                cell = int(st.unit_cell[unit])
                _remove(game, unit, cause)
                st.unit_cell[rep] = cell
                st.unit_status[rep] = Status.ON_MAP
                st.unit_step[rep] = 0
                game.arr("corps")[rep] = game.arr("corps")[unit]
                # the division's third step is the same formation: it keeps what the division
                # did this turn (moved 5.11, attacked/defended 8.14, advanced 8.87, may not
                # move 13.12, allowed to move by 17.11 for 17.12)
                flags[rep] = flags[unit] | Flag.FROM_DIVISION
                # the map lost the division's Stacking Points less the regiment's (7.1)
                game.arr("sp_lost")[side, LOSS_CAUSES.index(cause)] -= stacking(game, rep)
                game.add_vp("divisions_replaced", -1)             # 20.14
                game.event("replaced", unit=unit, by=rep)
                unit = rep
                continue
        _remove(game, unit, cause)
    return lost


def eliminate(game: KbGame, unit: int, cause: str) -> int:
    """Remove a unit with every step it has left (8.71, 7.21). A division removed whole
    counts its third step as lost but is never replaced by a regimental replacement unit, so
    it costs no Victory Point under 20.14 (only a division "replaced with a regimental
    replacement unit" does) and takes nothing from the pool."""
    st = game.state
    if not game.data.division[unit] or not st.unit_status[unit] & Status.ON_MAP:
        return lose_steps(game, unit, steps_left(game, unit), cause)
    n = steps_left(game, unit)
    side = int(game.scenario.units.side[unit])
    game.arr("steps_lost")[side, LOSS_CAUSES.index(cause)] += n
    _remove(game, unit, cause)
    return n


def _remove(game: KbGame, unit: int, cause: str) -> None:
    u, st = game.scenario.units, game.state
    side = int(u.side[unit])
    game.arr("sp_lost")[side, LOSS_CAUSES.index(cause)] += stacking(game, unit)
    flags = game.arr("flags")
    st.unit_cell[unit] = -1
    if game.data.replacement[unit]:
        st.unit_status[unit] = Status.POOL                        # 13.23: available again
        flags[unit] = 0
        game.arr("corps")[unit] = -1
    else:
        st.unit_status[unit] = Status.ELIMINATED                  # 15.22, 15.25
        flags[unit] &= ~np.uint16(Flag.SERVICE)
        st.unit_step[unit] = 0 if game.data.has_service_face[unit] else u.n_steps[unit]
    game.event("eliminated", unit=unit, cause=cause)


def move_unit(game: KbGame, unit: int, path) -> None:
    """Put a unit at the end of ``path`` (cells, start excluded) and mark every hex of the path
    as last passed through by its side (20.11)."""
    path = [int(c) for c in path]
    if not path:
        return
    game.state.hex_last[path] = game.scenario.units.side[unit]
    game.state.unit_cell[unit] = path[-1]


def path_to(game: KbGame, pred: np.ndarray, target: int) -> list[int]:
    """Cells from the search's source (excluded) to ``target`` (included)."""
    n = game.scenario.map.n_cells
    out = []
    s = int(target)
    while s >= 0:
        out.append(s % n)
        s = int(pred[s])
    out.reverse()
    return out[1:]


def on_map(game: KbGame, side: int | None = None) -> np.ndarray:
    st = game.state
    mask = (st.unit_status & Status.ON_MAP).astype(bool)
    if side is not None:
        mask &= game.scenario.units.side == side
    return mask
