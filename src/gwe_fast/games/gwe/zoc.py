"""Zones of control (7.0), occupation and the hexes each side's presence affects.

Both are the board kernels (``scenario.map.k.board``) over the state's unit arrays: they run
thousands of times a game.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import UnitType
from gwe_fast.games.gwe.data import exerts_zoc, gwe_data
from gwe_fast.games.gwe.game import Flag
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State, Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_HQ = int(UnitType.HQ)


@lru_cache(maxsize=32)
def unit_masks(scenario: Scenario) -> tuple[np.ndarray, np.ndarray]:
    """``(not_hq, exerts)``: read-only per-unit masks of the scenario, made once."""
    not_hq = scenario.units.utype != _HQ
    exerts = exerts_zoc(scenario)
    for a in (not_hq, exerts):
        a.flags.writeable = False
    return not_hq, exerts


def on_map(state: State) -> np.ndarray:
    return (state.unit_status & Status.ON_MAP).astype(bool)


def occupied(scenario: Scenario, state: State, side: int, hq_only_counts: bool = True
             ) -> np.ndarray:
    """Cells holding units of ``side``; with ``hq_only_counts=False`` a hex holding only HQ
    units of that side does not count (9.17 supply lines, 10.52 moving into an HQ's hex)."""
    m = scenario.map
    return m.k.board.occupied_cells(m.n_cells, state.unit_cell, state.unit_status,
                                    scenario.units.side, side, Status.ON_MAP, 0,
                                    None if hq_only_counts else unit_masks(scenario)[0])


def controlled(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """Cells in the zone of control of ``side`` (7.11): the six hexes around each unit that
    exerts one, not across a prohibited hexside. HQs never exert one (7.26); in the Brusilov
    Offensive depots do (19.3); entrained units do not (5.36), nor cavalry living off the
    land (19.43)."""
    m = scenario.map
    # 19.43: cavalry living off the land (the flags array exists once the engine made it)
    return m.k.board.zoc_cells(m.neighbors, state.unit_cell, state.unit_status,
                               scenario.units.side, side, Status.ON_MAP, Status.ENTRAINED,
                               unit_masks(scenario)[1], state.extra.get("flags"),
                               Flag.LIVING_OFF_LAND, gwe_data(scenario).zoc_blocked)


def as_flag(mask: np.ndarray) -> np.ndarray:
    return mask.astype(dtypes.FLAG)
