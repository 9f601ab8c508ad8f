"""Zones of control (6.0) and occupation."""

from __future__ import annotations

import numpy as np

from gwe_fast.games.kb.game import Flag, KbGame
from gwe_fast.state import Status


def occupied(game: KbGame, side: int) -> np.ndarray:
    """Cells holding units of ``side``."""
    st = game.state
    mine = (st.unit_status & Status.ON_MAP).astype(bool) & (game.scenario.units.side == side)
    out = np.zeros(game.scenario.map.n_cells, dtype=bool)
    out[st.unit_cell[mine]] = True
    return out


def controlled(game: KbGame, side: int) -> np.ndarray:
    """Cells in the zone of control of ``side``: the six hexes around every unit (6.0), at all
    times (6.11), whatever the terrain (6.13); service companies exert none (15.24)."""
    st, m = game.state, game.scenario.map
    active = ((st.unit_status & Status.ON_MAP).astype(bool)
              & (game.scenario.units.side == side)
              & ~(game.arr("flags") & Flag.SERVICE).astype(bool))
    out = np.zeros(m.n_cells, dtype=bool)
    cells = np.unique(st.unit_cell[active])
    if cells.size:
        nb = m.neighbors[cells]
        out[nb[nb >= 0]] = True
    return out


def adjacent_cells(game: KbGame, cells) -> np.ndarray:
    """Mask of the cells adjacent to any of ``cells``."""
    m = game.scenario.map
    out = np.zeros(m.n_cells, dtype=bool)
    cells = np.asarray(cells, dtype=np.int64).reshape(-1)
    if cells.size:
        nb = m.neighbors[cells]
        out[nb[nb >= 0]] = True
    return out
