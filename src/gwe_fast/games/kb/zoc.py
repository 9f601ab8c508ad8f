"""Zones of control (6.0) and occupation."""

from __future__ import annotations

import numpy as np

from gwe_fast.games.kb.game import Flag, KbGame
from gwe_fast.state import Status


def occupied(game: KbGame, side: int) -> np.ndarray:
    """Cells holding units of ``side``."""
    st, sc = game.state, game.scenario
    return sc.map.k.board.occupied_cells(sc.map.n_cells, st.unit_cell, st.unit_status,
                                         sc.units.side, side, Status.ON_MAP)


def controlled(game: KbGame, side: int) -> np.ndarray:
    """Cells in the zone of control of ``side``: the six hexes around every unit (6.0), at all
    times (6.11), whatever the terrain (6.13); service companies exert none (15.24)."""
    st, sc = game.state, game.scenario
    return sc.map.k.board.zoc_cells(sc.map.neighbors, st.unit_cell, st.unit_status,
                                    sc.units.side, side, Status.ON_MAP, 0, None,
                                    game.arr("flags"), Flag.SERVICE)


def adjacent_cells(game: KbGame, cells) -> np.ndarray:
    """Mask of the cells adjacent to any of ``cells``."""
    m = game.scenario.map
    cells = np.asarray(cells, dtype=np.int64).reshape(-1)
    return m.k.board.adjacent_cells(m.neighbors, cells)
