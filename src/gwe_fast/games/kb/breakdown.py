"""German divisional breakdown (13.0): a division outside enemy zones of control at the start
of the German Breakdown Phase may become three regimental replacement units from the pool."""

from __future__ import annotations

import numpy as np

from gwe_fast.enums import Side
from gwe_fast.games.kb import units
from gwe_fast.games.kb.game import Flag, KbGame
from gwe_fast.games.kb.zoc import controlled
from gwe_fast.state import Status

REGIMENTS = 3      # 13.11


def eligible(game: KbGame, ezoc: np.ndarray) -> list[int]:
    """Divisions that may break down now: German, on the map, outside the enemy zones of
    control as the phase began (13.11), with three replacement units in the pool (13.23)."""
    st = game.state
    if units.pool_free(game).size < REGIMENTS:
        return []
    ger = units.on_map(game, Side.CENTRAL) & game.data.division
    return [int(u) for u in np.flatnonzero(ger) if not ezoc[int(st.unit_cell[u])]]


def breakdown_phase(game: KbGame) -> None:
    """From Game-Turn 3 (17.6), the German player breaks down as many eligible divisions as
    he likes (13.14), one at a time."""
    if int(game.state.turn) < 3:
        return
    ezoc = controlled(game, Side.ALLIED)           # as the phase begins (13.11)
    while True:
        options = eligible(game, ezoc)
        if not options:
            return
        pick = game.ask("kb.breakdown.division", Side.CENTRAL, [-1] + options)
        if pick < 0:
            return
        break_down(game, pick)


def break_down(game: KbGame, division: int) -> list[int]:
    """Replace the division with three replacement units in its hex (13.11); they may not
    move in the ensuing Movement Phase (13.12); the division is gone for good (13.13). The
    regiments keep the division's corps (16.0) and are never stosstruppen (13.24)."""
    st = game.state
    cell = int(st.unit_cell[division])
    regs = [int(r) for r in units.pool_free(game)[:REGIMENTS]]
    if len(regs) < REGIMENTS:
        raise ValueError("the regimental replacement pool holds fewer than three units")
    corps = game.arr("corps")
    flags = game.arr("flags")
    for r in regs:
        st.unit_cell[r] = cell
        st.unit_status[r] = Status.ON_MAP
        st.unit_step[r] = 0
        corps[r] = corps[division]
        flags[r] = Flag.NO_MOVE
    st.unit_cell[division] = -1
    st.unit_status[division] = Status.NOT_IN_PLAY
    game.arr("broken_down")[0] += 1
    game.event("breakdown", unit=division, into=regs)
    return regs
