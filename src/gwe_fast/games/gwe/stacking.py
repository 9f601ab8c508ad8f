"""Stacking (6.1, 16.0, 24.31): the limit at the end of each phase and its eliminations.

A unit counts its constant Stacking Point value (6.11, 6.16; depots 2, 18.24; the armored
car 0, 24.31) from the counter manifest; HQs count 0 (6.11). Fortresses and game markers are
not units and never count (6.12). No more than ``tables.stacking.max_points`` (8, 16.0) may
end a phase in a hex. Units over the limit at the end of a phase (not a segment) are
eliminated, the owner choosing which (6.14); a unit that must end a retreat overstacked is
eliminated (6.15, ``retreat_overstack``). The two Stacking Points of 19.41 are the condition
of living off the land, applied in the Attrition Segment (``attrition.py``), not a limit.
"""

from __future__ import annotations

import numpy as np

from gwe_fast.enums import Side
from gwe_fast.games.gwe import units as units_mod
from gwe_fast.games.gwe.game import GweGame
from gwe_fast.state import Status


_ON_MAP = int(Status.ON_MAP)


def stacking_points(game: GweGame, side: int) -> np.ndarray:
    """``int32[n_cells]``: the Stacking Points of ``side``'s units on the map in each hex."""
    return _points(game, side)


def _points(game: GweGame, side: int | None) -> np.ndarray:
    # the board kernel: the points of side's units on the map (both sides' with None) per hex
    sc, st = game.scenario, game.state
    m = sc.map
    return m.k.board.stacked_points(m.n_cells, st.unit_cell, st.unit_status, sc.units.side,
                                    side, sc.units.stacking, _ON_MAP)


def points_in_hexes(game: GweGame) -> np.ndarray:
    """``int32[n_cells]``: the Stacking Points of all units on the map in each hex, both
    sides counted (``Game.stacking_in`` of every hex at once)."""
    return _points(game, None)


def _most_points(game: GweGame) -> int:
    """The most Stacking Points either side has in one hex (0 with no unit on the map)."""
    return max(int(_points(game, s).max(initial=0)) for s in (0, 1))


def limit(game: GweGame) -> int:
    """The most Stacking Points that may end a phase in a hex (16.0), from the tables."""
    return int(game.scenario.tables["stacking"]["max_points"])


def stacking_violations(game: GweGame) -> list[int]:
    """Cells (ascending) where a side has more Stacking Points than 16.0 allows (6.14). Used
    by the invariant checker at every phase end."""
    bad = np.zeros(game.scenario.map.n_cells, dtype=bool)
    for side in (Side.ALLIED, Side.CENTRAL):
        bad |= stacking_points(game, side) > limit(game)
    return [int(c) for c in np.flatnonzero(bad)]


def _eliminate_until_within(game: GweGame, side: int, cell: int, most: int,
                            candidates, kind: str, cause: str) -> list[int]:
    """Ask ``side`` which of ``candidates`` (all its units when None) still in ``cell`` and
    with Stacking Points to eliminate, one at a time, until the hex holds no more than
    ``most``."""
    from gwe_fast.games.gwe.attrition import surrounded

    sc = game.scenario
    u = sc.units
    gone: list[int] = []
    while True:
        here = [int(i) for i in units_mod.units_in(game, cell) if u.side[i] == side]
        points = int(u.stacking[here].sum())
        if points <= most:
            return gone
        options = sorted(i for i in here
                         if (candidates is None or i in candidates) and u.stacking[i] > 0)
        if not options:
            return gone
        pick = game.ask(kind, side, options, cell=cell, points=points, limit=most)
        units_mod.eliminate(game, pick, cause, surrounded=surrounded(game, pick))
        gone.append(pick)


def enforce_stacking(game: GweGame) -> None:
    """6.14 at the end of a phase: in every hex over the limit (16.0) the owner eliminates
    units of his choice (decision ``gwe.stacking.eliminate``, one unit at a time, among his
    units there that have Stacking Points) until the hex is within the limit. Eliminations
    book ``stacking`` losses and their victory points (25.2), doubled when the unit is
    surrounded (25.13). The compiled core plays it when every owner who must eliminate
    picks at random (``GweCore.enforce_stacking``)."""
    core = game.core
    if core is not None and core.enforce_stacking():
        return
    lim = limit(game)
    if _most_points(game) <= lim:                 # no hex over the limit: nothing to ask
        return
    for side in (Side.ALLIED, Side.CENTRAL):
        for cell in np.flatnonzero(stacking_points(game, side) > lim):
            _eliminate_until_within(game, side, int(cell), lim, None,
                                    "gwe.stacking.eliminate", "stacking")


def retreat_overstack(game: GweGame, retreating, cell: int) -> list[int]:
    """6.15: units may overstack while retreating, but a unit forced to end its retreat
    overstacked is eliminated. Call when the retreating units (already placed in ``cell``)
    end their retreat there: while the hex is over the limit of 16.0, the owner eliminates
    retreating units of his choice (decision ``gwe.stacking.retreat_eliminate``); the units
    that were there before are never touched. Returns the units eliminated."""
    retreating = [int(i) for i in retreating]
    if not retreating:
        return []
    side = int(game.scenario.units.side[retreating[0]])
    return _eliminate_until_within(game, side, int(cell), limit(game), set(retreating),
                                   "gwe.stacking.retreat_eliminate", "stacking")
