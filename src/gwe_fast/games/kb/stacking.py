"""Stacking (7.0): at most 12 Stacking Points of one side per hex at the end of its Movement
Phase; the owner eliminates the excess (7.21). An entry hex may hold more on the Game-Turn
reinforcements are placed in it (15.15): the indicated entry hex, or the map-edge hex they were
placed in instead (15.13), while reinforcements placed there this turn are in it."""

from __future__ import annotations

import numpy as np

from gwe_fast.games.kb import units
from gwe_fast.games.kb.game import Flag, KbGame


def over_limit(game: KbGame, side: int) -> list[int]:
    """Cells where ``side`` is over the stacking limit and no exception applies."""
    st = game.state
    limit = game.data.stack_limit
    mine = np.flatnonzero(units.on_map(game, side))
    sp = np.bincount(st.unit_cell[mine], weights=units.stacking_each(game, mine),
                     minlength=game.scenario.map.n_cells)
    cells = {int(c): int(sp[c]) for c in np.flatnonzero(sp > limit)}
    if not cells:
        return []
    entry = {c for cs in game.data.entry.values() for c in cs}
    arrived_at = game.arr("arrival_hex")
    turn = int(st.turn)
    flags = game.arr("flags")
    out = []
    for c, sp in sorted(cells.items()):
        if sp <= limit:
            continue
        if ((c in entry or arrived_at[c] == turn)
                and any(flags[u] & Flag.ARRIVED for u in st.units_at(c))):
            continue                                                  # 15.13, 15.15
        out.append(c)
    return out


def enforce(game: KbGame, side: int) -> None:
    """The owner eliminates units of each over-stacked hex until it is within the limit."""
    limit = game.data.stack_limit
    for c in over_limit(game, side):
        while True:
            here = [int(u) for u in game.state.units_at(c)
                    if game.scenario.units.side[u] == side]
            if units.stacking_points(game, here) <= limit:
                break
            pick = game.ask("kb.stacking.eliminate", side, here, cell=c)
            game.event("overstacked", unit=pick, cell=c)
            units.eliminate(game, pick, "stacking")
