"""Cavalry Withdrawal Before Combat (12.1; Brusilov 23.31 and 24.2).

In the Cavalry Withdrawal Before Combat Phase (4.0 A2) the non-phasing player picks, one at a
time, which of his units try to withdraw (decision ``gwe.withdrawal.unit``; -1 stops):

* cavalry adjacent to an enemy unit, in Command Control or not (12.11), except
  Austro-Hungarian cavalry on the scenario's first Game-Turn (23.31; Game-Turn 5 of Attack on
  Schedule, 26.24) and entrained units; each unit tries once, on one die from the
  ``withdrawal`` stream that must roll higher than its TCR (12.12);
* the armored car adjacent to an enemy unit, which withdraws without a die (24.21, 24.22).

A unit that succeeds moves exactly two hexes (12.11, 12.13): to a hex two hexes from where it
stands, through one hex adjacent to both, never into or through an enemy-occupied hex, across a
prohibited hexside or into prohibited terrain (the armored car never into a mountain, 24.41),
and never into or through an enemy-controlled hex unless its TCR is 1 (12.13; friendly units
do not negate that zone, as 7.24 covers supply and retreat after combat only). The owner picks
the path (decision ``gwe.withdrawal.path``, options ``(via, destination)`` cells) among those
that go toward a friendly supply source, each hex nearer to one than the hex before, as 8.63
priority 1 is played for retreats, or among all of them when none does (12.13). It costs no
Movement Points and is not a move (12.14, 5.11). A unit that withdraws into a hex holding
friendly units is marked ``Flag.RETREATED_IN`` (12.17, 8.66).
When the hex it left is left empty, the phasing player may move any of his units adjacent to
it into it, one at a time (decision ``gwe.withdrawal.occupy``; -1 stops), within the stacking
limit (12.16).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast.enums import Nationality, Terrain, UnitType
from gwe_fast.games.gwe import units as units_mod
from gwe_fast.games.gwe.data import gwe_data
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.games.gwe.zoc import controlled, occupied
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ARMORED_CAR = int(UnitType.ARMORED_CAR)
_AUSTRO_HUNGARIAN = int(Nationality.AUSTRO_HUNGARIAN)
_CAVALRY = int(UnitType.CAVALRY)
_MOUNTAIN = int(Terrain.MOUNTAIN)


def _on_map(game: GweGame) -> np.ndarray:
    return (game.state.unit_status & Status.ON_MAP).astype(bool)


def _adjacent_to(game: GweGame, cells_mask: np.ndarray) -> np.ndarray:
    """``bool[n_cells]``: hexes next to a hex of ``cells_mask`` (across any hexside)."""
    m = game.scenario.map
    return m.k.board.adjacent_cells(m.neighbors, np.flatnonzero(cells_mask))


def _may_enter(scenario, unit: int, cell: int) -> bool:
    """Whether the terrain of ``cell`` lets the unit enter it (5.4; 24.41: never a mountain
    hex for the armored car)."""
    data = gwe_data(scenario)
    if data.enter_cost[int(data.tcr[unit]) - 1, cell] < 0:
        return False
    return not (_fixed(scenario)[0][cell] and scenario.units.utype[unit] == _ARMORED_CAR)


@lru_cache(maxsize=32)
def _fixed(scenario) -> tuple[np.ndarray, np.ndarray]:
    """``(mountain, car)``: the mountain hexes and the armored cars (uint8, read-only)."""
    mountain = (scenario.map.terrain == _MOUNTAIN).view(np.uint8)
    car = (scenario.units.utype == _ARMORED_CAR).view(np.uint8)
    mountain.flags.writeable = car.flags.writeable = False
    return mountain, car


def source_distance(game: GweGame, side: int) -> np.ndarray:
    """``int32[n_cells]``: hexes from each hex to the nearest friendly supply source, as for
    the retreat priority 1 of 8.63 (``retreat.source_distance``: rail sources, 9.15, and
    supplied depots, 9.16; never through an enemy-occupied hex); -1 where none."""
    from gwe_fast.games.gwe.retreat import source_distance as distance
    return distance(game, side)


def _withdrawals(game: GweGame, side: int, units: list[int], to_source: np.ndarray | None = None
                 ) -> list[list[tuple[int, int]]]:
    """``withdrawal_paths`` of each of ``units`` (all of ``side``), in one kernel call
    (``gwe_withdrawals``)."""
    if to_source is None:
        to_source = source_distance(game, side)
    sc, st = game.scenario, game.state
    m = sc.map
    data = gwe_data(sc)
    mountain, car = _fixed(sc)
    k = len(units)
    counts = np.zeros(k, dtype=np.int32)
    paths = np.empty((36 * k, 2), dtype=np.int32)
    n = m.k.play.gwe_withdrawals(
        m.neighbors, data.side_add, data.enter_cost, mountain,
        occupied(sc, st, 1 - side).view(np.uint8), controlled(sc, st, 1 - side).view(np.uint8),
        np.asarray(to_source, dtype=np.int32), np.asarray(units, dtype=np.int32), st.unit_cell,
        data.tcr, car, counts, paths)
    rows = paths[:n].tolist()
    out, at = [], 0
    for c in counts.tolist():
        out.append([(a, b) for a, b in rows[at:at + c]])
        at += c
    return out


def withdrawal_paths(game: GweGame, unit: int, to_source: np.ndarray | None = None
                     ) -> list[tuple[int, int]]:
    """The legal withdrawals of ``unit``: ``(via, destination)`` cells, sorted (12.11, 12.13,
    24.41): a hex next to the unit's and one next to that, two hexes from the unit's, each
    entered across a hexside the unit may cross, into terrain it may enter, neither
    enemy-occupied nor (unless its TCR is 1) enemy-controlled; only those toward a friendly
    supply source (each hex nearer to one than the hex before, 8.63 priority 1) when there
    are any: nearer by ``to_source``, by default ``source_distance``. (The kernel
    ``gwe_withdrawals``; its twin reads as this.)"""
    unit = int(unit)
    return _withdrawals(game, int(game.scenario.units.side[unit]), [unit], to_source)[0]


def withdrawal_candidates(game: GweGame, side: int, tried=()) -> list[int]:
    """Units of ``side`` that may try to withdraw now, ascending: cavalry (12.11) and the
    armored car (24.21) adjacent to an enemy unit with somewhere to go, not entrained, not
    already tried this phase, and no Austro-Hungarian cavalry on the first Game-Turn (23.31)."""
    sc, st = game.scenario, game.state
    u = sc.units
    kinds = (u.utype == _CAVALRY) | (u.utype == _ARMORED_CAR)
    ok = (_on_map(game) & (u.side == side) & kinds
          & ~(st.unit_status & Status.ENTRAINED).astype(bool))
    if int(st.turn) == sc.first_turn:                                          # 23.31
        ok &= ~((u.utype == _CAVALRY)
                & (u.nationality == _AUSTRO_HUNGARIAN))
    if not ok.any():
        return []
    ok &= _adjacent_to(game, occupied(sc, st, 1 - side))[np.maximum(st.unit_cell, 0)]
    asked = [i for i in np.flatnonzero(ok).tolist() if i not in tried]
    if not asked:
        return []
    # whether a unit has a path does not depend on the distances to the sources (they only
    # narrow a unit's paths when some go toward a source): none are searched for here
    return [i for i, p in zip(asked, _withdrawals(game, int(side), asked, _no_sources(sc)))
            if p]


@lru_cache(maxsize=32)
def _no_sources(scenario) -> np.ndarray:
    """``int32[n_cells]`` of -1: no hex reaches a source (``_withdrawals`` then keeps every
    path). Read-only, made once."""
    out = np.full(scenario.map.n_cells, -1, dtype=np.int32)
    out.flags.writeable = False
    return out


def withdraw(game: GweGame, unit: int, via: int, dest: int) -> None:
    """Move a unit that withdraws through ``via`` to ``dest`` (12.13): no Movement Points and
    not a move (12.14), the hexes marked as last moved through by its side (9.15, 25.12), and
    ``Flag.RETREATED_IN`` when friendly units were already in ``dest`` (12.17)."""
    u = game.scenario.units
    side = int(u.side[unit])
    friends = any(int(u.side[i]) == side for i in units_mod.units_in(game, dest))
    units_mod.move_unit(game, unit, [via, dest])
    if friends:
        game.set_flag(unit, Flag.RETREATED_IN)
    game.event("withdrawal", unit=unit, via=via, to=dest)


def occupants_for(game: GweGame, phasing: int, cell: int) -> list[int]:
    """Units of the phasing side that may move into ``cell``, vacated by a withdrawal (12.16):
    on the map next to it across a hexside they may cross, able to enter its terrain, not
    entrained, and not taking the hex over the stacking limit (16.0)."""
    sc, st = game.scenario, game.state
    u = sc.units
    data = gwe_data(sc)
    limit = int(sc.tables["stacking"]["max_points"])
    here = units_mod.units_in(game, cell)
    if any(int(u.side[i]) != phasing for i in here):
        return []
    room = limit - int(u.stacking[here].sum())
    nb = sc.map.neighbor_lists
    around = nb[cell]
    cells = st.unit_cell.tolist()
    out = []
    for i in np.flatnonzero(_on_map(game) & (u.side == phasing)
                            & ~(st.unit_status & Status.ENTRAINED).astype(bool)).tolist():
        c = cells[i]
        if c not in around:                          # not next to it (nor in it)
            continue
        if data.side_add[int(data.tcr[i]) - 1, c, nb[c].index(cell)] < 0:
            continue
        if not _may_enter(sc, i, cell):
            continue
        if int(u.stacking[i]) > room:
            continue
        out.append(i)
    return out


def occupy_vacated(game: GweGame, phasing: int, cell: int) -> None:
    """12.16: if ``cell`` holds no unit any more, the phasing player may move adjacent units
    into it, one at a time, at no cost (not a move, 5.11)."""
    if units_mod.units_in(game, cell).size:
        return
    while True:
        options = occupants_for(game, phasing, cell)
        if not options:
            return
        pick = game.ask("gwe.withdrawal.occupy", phasing, [-1] + options, cell=cell)
        if pick < 0:
            return
        units_mod.move_unit(game, pick, [cell])
        game.event("occupy_vacated", unit=pick, to=cell)


def withdrawal_phase(game: GweGame, withdrawing_side: int) -> None:
    """The Cavalry Withdrawal Before Combat Phase (4.0 A2) of the non-phasing
    ``withdrawing_side`` (see the module docstring). The compiled core plays it when the
    game has one and both players pick at random (``GweGame.core``)."""
    core = game.core
    if core is not None and core.withdrawal_phase(withdrawing_side):
        return
    sc = game.scenario
    u = sc.units
    data = gwe_data(sc)
    side = int(withdrawing_side)
    phasing = 1 - side
    tried: set[int] = set()
    while True:
        options = withdrawal_candidates(game, side, tried)
        if not options:
            return
        pick = game.ask("gwe.withdrawal.unit", side, [-1] + options)
        if pick < 0:
            return
        tried.add(pick)
        if u.utype[pick] != _ARMORED_CAR:                              # 24.22
            die = game.roll("withdrawal", f"12.12 {u.ids[pick]}")
            if die <= int(data.tcr[pick]):                                      # 12.12
                game.event("withdrawal_failed", unit=pick, die=die)
                continue
        paths = withdrawal_paths(game, pick)
        via, dest = game.ask("gwe.withdrawal.path", side, paths, unit=pick)
        origin = int(game.state.unit_cell[pick])
        withdraw(game, pick, via, dest)
        occupy_vacated(game, phasing, origin)
