"""Attrition (9.22-9.24), cavalry living off the land (19.41-19.43), "surrounded" (25.13).

* ``attrition_segment(game, side)``: the Attrition Segment of ``side``'s Movement Phase
  (4.0 A1e). Supply is determined afresh for the phasing units (9.11 2); every phasing unit
  out of supply rolls one attrition die (9.22), except HQs (9.24) and cavalry living off the
  land (19.41: in the area, no more than two Stacking Points in its hex), which this segment
  marks with ``Flag.LIVING_OFF_LAND``.
* ``roll_attrition(game, unit)``: one 9.22 check (also used by combat for 9.23 and 19.42).
* ``living_off_land_area(scenario)``: the hexes south of both the Dniester and hex row 1900.
* ``surrounded(game, unit)``: 25.13, for the victory points of an elimination (25.2).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast.enums import Hexside, UnitType
from gwe_fast.games.gwe import supply
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.games.gwe.units import lose_steps, steps_left
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_CAVALRY = int(UnitType.CAVALRY)
_HQ = int(UnitType.HQ)

#: 19.41 "south of ... hex row 1900": the hexes 19xx, the real north-south line through
#: column 19 (the Brusilov map is turned a quarter turn; docs/rulings.md, docs/maps.md)
HEX_ROW_1900 = 19


@lru_cache(maxsize=32)
def _living_off_land_area(scenario: Scenario) -> np.ndarray:
    m = scenario.map
    major = (m.hexsides & Hexside.MAJOR_RIVER).astype(bool)
    area = np.zeros(m.n_cells, dtype=bool)
    at = {int(h): i for i, h in enumerate(m.ids)}
    # walk each hex row (a real north-south line) southward from hex row 1900: a hex is south
    # of the Dniester once the walk has crossed a major river hexside (the first one met south
    # of column 19 is the Dniester; the Prut lies beyond it)
    for r in range(m.row0, m.row1 + 1):
        crossed = False
        prev = -1
        for c in range(HEX_ROW_1900, m.col1 + 1):
            cell = at.get(c * 100 + r, -1)
            if cell < 0:
                prev = -1
                continue
            if prev >= 0:
                d = 2 if (c - 1) % 2 else 1        # (c-1, r) -> (c, r): SE from odd, NE from even
                crossed |= bool(major[prev, d])
            area[cell] = crossed
            prev = cell
    area.setflags(write=False)
    return area


def living_off_land_area(scenario: Scenario) -> np.ndarray:
    """``bool[n_cells]``: hexes "south of both the Dniester River and hex row 1900" (19.41).

    Walking a hex row from hex row 1900 (column 19) toward higher columns (the real south),
    every hex after the first major river hexside crossed lies south of the Dniester. Column 19
    itself is never in the area.
    """
    return _living_off_land_area(scenario)


def surrounded(game: GweGame, unit: int) -> bool:
    """25.13, for the victory points of an elimination (25.2): the unit cannot trace a line of
    six hexes or less, free of enemy units and their zones of control, to a friendly supply
    source or a supplied friendly unit. One implementation serves every cause of loss:
    ``combat.is_surrounded``."""
    from gwe_fast.games.gwe.combat import is_surrounded
    return bool(is_surrounded(game, unit))


def roll_attrition(game: GweGame, unit: int) -> int:
    """One attrition check (9.22): a die from the ``attrition`` stream; on a roll listed in
    ``tables.attrition.rolls`` (1-3) the unit loses half its remaining steps, fractions
    rounded up. Returns the steps lost. HQs are immune and roll nothing (9.24). The caller
    decides that the unit must check (out of supply in the Attrition Segment, 9.22; an
    attacker out of supply at the instant of combat, 9.23, 19.42)."""
    u = game.scenario.units
    if u.utype[unit] == _HQ:                                          # 9.24
        return 0
    left = steps_left(game, unit)
    if left <= 0:
        return 0
    die = game.roll("attrition", f"9.22 {u.ids[unit]}")
    if die not in game.scenario.tables["attrition"]["rolls"]:
        return 0
    n = (left + 1) // 2
    sur = n >= left and u.stacking[unit] > 0 and surrounded(game, unit)
    return lose_steps(game, unit, n, "attrition", surrounded=sur)


def living_off_land(game: GweGame, side: int, out_of_supply: np.ndarray) -> np.ndarray:
    """``bool[n_units]``: the side's cavalry that lives off the land (19.41): out of supply
    (``out_of_supply``), in the ``living_off_land_area``, in a hex holding no more than
    ``tables.stacking.living_off_land_max_points`` (2) Stacking Points of units."""
    sc, st = game.scenario, game.state
    u = sc.units
    cav = out_of_supply & (u.utype == _CAVALRY) & (u.side == side)
    if not cav.any():
        return cav
    on = (st.unit_status & Status.ON_MAP).astype(bool) & (u.side == side)
    points = np.bincount(st.unit_cell[on], weights=u.stacking[on], minlength=sc.map.n_cells)
    most = sc.tables["stacking"].get("living_off_land_max_points")
    cell = np.maximum(st.unit_cell, 0)
    ok = cav & living_off_land_area(sc)[cell]
    if most is not None:
        ok &= points[cell] <= int(most)
    return ok


def attrition_segment(game: GweGame, side: int) -> None:
    """The Attrition Segment (4.0 A1e, 9.22) of ``side``'s Movement Phase.

    Supply is determined now (9.11 2) and recorded in ``Status.OUT_OF_SUPPLY`` of the side's
    units on the map (HQs are never marked, as in the Initial Supply Segment). Cavalry that
    lives off the land (19.41, ``living_off_land``) rolls nothing and is marked
    ``Flag.LIVING_OFF_LAND`` (no zone of control, 19.43; attacks as out of supply, 19.42)
    until the side's next Attrition Segment; the mark is cleared on every other unit of the
    side. Every other unit out of supply, except HQs (9.24), rolls once (``roll_attrition``),
    in unit order. The compiled core plays it when the game has one (``GweGame.core``).
    """
    core = game.core
    if core is not None and core.attrition_segment(side):
        return
    sc, st = game.scenario, game.state
    u = sc.units
    mine = (st.unit_status & Status.ON_MAP).astype(bool) & (u.side == side)
    out = mine & ~supply.in_supply(sc, st, side) & (u.utype != _HQ)
    st.unit_status[mine] &= ~np.uint16(Status.OUT_OF_SUPPLY)
    st.unit_status[out] |= np.uint16(Status.OUT_OF_SUPPLY)
    lol = living_off_land(game, side, out)
    flags = game.arr("flags")
    flags[u.side == side] &= ~np.uint16(Flag.LIVING_OFF_LAND)
    flags[lol] |= np.uint16(Flag.LIVING_OFF_LAND)
    for i in np.flatnonzero(out & ~lol):
        if st.unit_status[i] & Status.ON_MAP:
            roll_attrition(game, int(i))
