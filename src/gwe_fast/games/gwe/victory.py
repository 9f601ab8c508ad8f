"""Victory (25.0): town control at the end of the game and the level of victory."""

from __future__ import annotations

import numpy as np

from gwe_fast.enums import Side
from gwe_fast.games.gwe.game import GweGame
from gwe_fast.games.gwe.zoc import occupied
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ALLIED = int(Side.ALLIED)


def russian_towns(game: GweGame) -> list[int]:
    """Cells of the valued towns and cities the Russian Player controls (25.11-25.12): a
    Russian unit was the last to occupy or move through it, or occupies it now, and the town
    is in supply, i.e. a Russian unit there could trace supply (9.1, 19.1)."""
    from gwe_fast.games.gwe.supply import supplied_cells

    sc, st = game.scenario, game.state
    valued = [p.cell for p in sc.places if p.vp > 0]
    if not valued:
        return []
    russians_there = occupied(sc, st, Side.ALLIED)
    central_there = occupied(sc, st, Side.CENTRAL)
    mine = [c for c in valued if (st.hex_last[c] == _ALLIED or russians_there[c])
            and not central_there[c]]
    if not mine:
        return []
    ok = supplied_cells(sc, st, Side.ALLIED)
    return [c for c in mine if ok[c]]


def score_towns(game: GweGame) -> int:
    """Add the points of the towns the Russians control at the end of the game (25.11)."""
    value = {p.cell: p.vp for p in game.scenario.places}
    vp = sum(value[c] for c in russian_towns(game))
    game.add_vp("towns", vp)
    return vp


def level(game: GweGame, vp: int | None = None) -> str:
    """The level of victory of a Russian VP total (25.3), from the scenario's bands."""
    vp = int(game.state.vp) if vp is None else vp
    for band in game.scenario.tables["victory_levels"]["band"]:
        if band.get("min", -10**9) <= vp <= band.get("max", 10**9):
            return band["level"]
    raise ValueError(f"no victory level covers {vp} VP")


def winner_of(level: str) -> str:
    """The side (``allied``, ``central``) that wins at a level of victory (25.3): the Russians
    at a Russian level, else the Central Powers."""
    return "allied" if level.startswith("russian") else "central"


def vp_is_consistent(game: GweGame) -> bool:
    """The VP total equals the sum of its causes (an invariant)."""
    return int(game.arr("vp_cause").sum()) == int(game.state.vp)


def units_on_map(game: GweGame, side: int) -> np.ndarray:
    st = game.state
    return np.flatnonzero((st.unit_status & Status.ON_MAP).astype(bool)
                          & (game.scenario.units.side == side))
