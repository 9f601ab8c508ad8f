"""Zones of control (7.0), occupation and the hexes each side's presence affects."""

from __future__ import annotations

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import UnitType
from gwe_fast.games.gwe.data import exerts_zoc, gwe_data
from gwe_fast.games.gwe.game import Flag
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State, Status


def on_map(state: State) -> np.ndarray:
    return (state.unit_status & Status.ON_MAP).astype(bool)


def occupied(scenario: Scenario, state: State, side: int, hq_only_counts: bool = True
             ) -> np.ndarray:
    """Cells holding units of ``side``; with ``hq_only_counts=False`` a hex holding only HQ
    units of that side does not count (9.17 supply lines, 10.52 moving into an HQ's hex)."""
    u = scenario.units
    mine = on_map(state) & (u.side == side)
    if not hq_only_counts:
        mine &= u.utype != UnitType.HQ
    out = np.zeros(scenario.map.n_cells, dtype=bool)
    out[state.unit_cell[mine]] = True
    return out


def controlled(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """Cells in the zone of control of ``side`` (7.11): the six hexes around each unit that
    exerts one, not across a prohibited hexside. HQs never exert one (7.26); in the Brusilov
    Offensive depots do (19.3); entrained units do not (5.36), nor cavalry living off the
    land (19.43)."""
    m = scenario.map
    data = gwe_data(scenario)
    u = scenario.units
    st = state.unit_status
    active = (on_map(state) & (u.side == side) & exerts_zoc(scenario)
              & ~(st & Status.ENTRAINED).astype(bool))
    flags = state.extra.get("flags")
    if flags is not None:                       # 19.43: cavalry living off the land
        active &= ~(flags & Flag.LIVING_OFF_LAND).astype(bool)
    cells = np.unique(state.unit_cell[active])
    out = np.zeros(m.n_cells, dtype=bool)
    if cells.size:
        nb = m.neighbors[cells]
        ok = (nb >= 0) & ~data.zoc_blocked[cells]
        out[nb[ok]] = True
    return out


def as_flag(mask: np.ndarray) -> np.ndarray:
    return mask.astype(dtypes.FLAG)
