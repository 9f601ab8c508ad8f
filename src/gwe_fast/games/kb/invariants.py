"""What must hold after every phase of a Kaiser's Battle game (the tests' checker)."""

from __future__ import annotations

import numpy as np

from gwe_fast.enums import Side
from gwe_fast.games.kb import stacking, units, victory
from gwe_fast.games.kb.game import Flag, KbGame
from gwe_fast.state import Status

EXCLUSIVE = (Status.ON_MAP, Status.PENDING, Status.ELIMINATED, Status.NOT_IN_PLAY, Status.POOL,
             Status.EXITED)


def check(game: KbGame, phase: str) -> None:
    """Raise AssertionError naming the first broken invariant."""
    sc, st = game.scenario, game.state
    u = sc.units
    status = st.unit_status
    where = f"Game-Turn {int(st.turn)} after {phase}"
    kinds = np.zeros(u.n, dtype=np.int16)
    for bit in EXCLUSIVE:
        kinds += (status & bit).astype(bool)
    bad = np.flatnonzero(kinds != 1)
    assert bad.size == 0, f"{where}: {u.ids[bad[0]]} has status bits {int(status[bad[0]])}"
    on = (status & Status.ON_MAP).astype(bool)
    assert (st.unit_cell[on] >= 0).all() and (st.unit_cell[~on] == -1).all(), \
        f"{where}: a unit's cell disagrees with its status"
    for side in (Side.ALLIED, Side.CENTRAL):                  # no hex held by both sides
        mine = set(st.unit_cell[on & (u.side == side)].tolist())
        theirs = set(st.unit_cell[on & (u.side != side)].tolist())
        assert not mine & theirs, f"{where}: both sides in {sorted(mine & theirs)[:3]}"
    steps = st.unit_step.astype(np.int32)
    flags = game.arr("flags")
    service = (flags & Flag.SERVICE).astype(bool)
    ok = (steps >= 0) & ((steps < u.n_steps) | ~on)
    assert ok.all(), f"{where}: {u.ids[np.flatnonzero(~ok)[0]]} has a step beyond its faces"
    assert not (service & ~game.data.has_service_face).any(), f"{where}: a service face on a unit without one"
    assert victory.vp_is_consistent(game), f"{where}: VP {int(st.vp)} is not the sum of its causes"
    arty = game.arr("arty")
    assert (arty >= 0).all(), f"{where}: negative artillery points {arty.tolist()}"
    gas = game.arr("gas")
    assert ((gas >= -1) & (gas < sc.map.n_cells)).all(), f"{where}: a gas marker off the map"
    rep_on = on & game.data.replacement
    assert (game.arr("corps")[rep_on] >= 0).all(), f"{where}: a replacement unit without a corps"
    if phase.endswith("_movement"):
        side = Side.CENTRAL if phase.startswith("german") else Side.ALLIED
        over = stacking.over_limit(game, int(side))
        assert not over, f"{where}: over-stacked in {[sc.map.id_of(c) for c in over[:3]]}"
    if phase.endswith("_combat"):
        assert not game.arr("observed").any(), f"{where}: air observation markers left on"
    stoss = np.asarray(u.extra["stoss"]).astype(bool)
    assert not (stoss & game.data.replacement).any(), f"{where}: a stoss replacement unit"
    rep_out = (status & Status.EXITED).astype(bool) & game.data.replacement
    assert (units.pool_free(game).size + int(rep_on.sum()) + int(rep_out.sum())
            == int(game.data.replacement.sum())), f"{where}: replacement units lost from the pool"
