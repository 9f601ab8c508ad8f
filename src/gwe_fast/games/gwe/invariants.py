"""Invariants checked at the end of every phase by the whole-game tests.

They hold in every legal position: no hex over the stacking limit at a phase end (6.14), no
hex holding units of both sides (5.13), every unit's step within its counter, units on the map
exactly those with a cell, the VP total equal to the sum of its causes (25.14), rail capacity
respected (5.31, 18.21-18.22).
"""

from __future__ import annotations

import numpy as np

from gwe_fast.games.gwe.game import GweGame
from gwe_fast.games.gwe.victory import vp_is_consistent
from gwe_fast.state import Status


class InvariantError(AssertionError):
    pass


def check(game: GweGame, where: str = "") -> None:
    """Raise InvariantError naming the first broken invariant."""
    from gwe_fast.games.gwe import stacking

    sc, st = game.scenario, game.state
    u = sc.units
    at = f"turn {int(st.turn)}, player {int(st.player)}, after {where}"
    on = (st.unit_status & Status.ON_MAP).astype(bool)
    if (st.unit_cell[on] < 0).any() or (st.unit_cell[~on] >= 0).any():
        raise InvariantError(f"{at}: units on the map and units with a cell differ")
    over = stacking.stacking_violations(game)
    if over:
        raise InvariantError(f"{at}: hexes over the stacking limit: "
                             f"{[sc.map.id_of(c) for c in over]}")
    for side in (0, 1):
        cells = set(st.unit_cell[on & (u.side == side)].tolist())
        other = set(st.unit_cell[on & (u.side != side)].tolist())
        both = cells & other
        if both:
            raise InvariantError(f"{at}: hexes holding both sides' units: "
                                 f"{[sc.map.id_of(c) for c in sorted(both)]}")
    bad = on & ((st.unit_step < 0) | (st.unit_step >= u.n_steps))
    if bad.any():
        raise InvariantError(f"{at}: step out of range for {[u.ids[i] for i in np.flatnonzero(bad)]}")
    if not vp_is_consistent(game):
        raise InvariantError(f"{at}: VP {int(st.vp)} differ from the sum of their causes "
                             f"{int(game.arr('vp_cause').sum())}")
    from gwe_fast.games.gwe.rail import rail_capacity

    used = game.arr("rail_used") - game.arr("rail_forced")
    cap = np.array([rail_capacity(sc, side) for side in (0, 1)])
    if (used > cap).any():
        raise InvariantError(f"{at}: rail capacity exceeded: {used.tolist()} > {cap.tolist()}")
