"""Reinforcements (15.0): the Allied schedule (15.1, 15.3) and service companies (15.2).

The German player never receives reinforcements.
"""

from __future__ import annotations

import numpy as np

from gwe_fast.enums import Side, UnitType
from gwe_fast.games.kb import units
from gwe_fast.games.kb.game import Flag, KbGame
from gwe_fast.games.kb.zoc import controlled, occupied
from gwe_fast.scenario.model import ENTRY_LETTERS
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_HQ = int(UnitType.HQ)

ALTERNATE_RADIUS = 3   # 15.13: "any mapedge hex within 3 hexes (or more, if necessary)"


def reinforcement_stage(game: KbGame) -> None:
    scheduled_segment(game)                                           # 4.2 C1
    service_segment(game)                                             # 4.2 C2


def scheduled_segment(game: KbGame) -> None:
    """Place every Allied unit due this Game-Turn in its entry hex (15.11, 15.12), or on a
    map-edge hex within 3 hexes (or more if necessary) when the entry hex is enemy-occupied or
    enemy-controlled (15.13); never delayed."""
    sc, st = game.scenario, game.state
    turn = int(st.turn)
    due = np.flatnonzero((st.unit_status & Status.PENDING).astype(bool)
                         & (sc.units.arrival_turn == turn))
    for u in due:
        u = int(u)
        side = int(sc.units.side[u])
        letter = ENTRY_LETTERS[int(sc.units.entry[u])]
        cells = game.data.entry[letter]
        blocked = occupied(game, 1 - side) | controlled(game, 1 - side)
        ok = [c for c in cells if not blocked[c]]
        if not ok:
            ok = alternate_hexes(game, cells, blocked)
        if not ok:
            raise RuntimeError(f"no map-edge hex free of the enemy for {sc.units.ids[u]}")
        cell = game.ask("kb.reinforcement.hex", side, ok, unit=u)
        place(game, u, cell)
        game.set_flag(u, Flag.ARRIVED)
        game.arr("arrival_hex")[cell] = turn          # its entry hex this turn (15.15)
        game.event("arrive", unit=u, at=cell)


def alternate_hexes(game: KbGame, cells, blocked: np.ndarray) -> list[int]:
    """Map-edge hexes free of the enemy nearest the entry hex: within 3 hexes, or the nearest
    ring beyond that holds any (15.13)."""
    m = game.scenario.map
    best: dict[int, int] = {}
    for c in cells:
        d = m.distances_from(int(c))
        for e in np.flatnonzero(game.data.map_edge & ~blocked):
            best[int(e)] = min(best.get(int(e), 10**6), int(d[e]))
    if not best:
        return []
    radius = max(ALTERNATE_RADIUS, min(best.values()))
    return sorted(c for c, d in best.items() if d <= radius)


def place(game: KbGame, unit: int, cell: int) -> None:
    st = game.state
    st.unit_cell[unit] = cell
    st.unit_status[unit] = Status.ON_MAP
    st.hex_last[cell] = game.scenario.units.side[unit]


def service_segment(game: KbGame) -> None:
    """From Game-Turn 6 the Allied player rolls a die for the number of service companies
    (15.21), limited to the eliminated British battalions (15.25), each placed on any Allied
    HQ on the map, even in an enemy zone of control (15.23)."""
    sc, st = game.scenario, game.state
    tab = sc.tables["service_companies"]
    if int(st.turn) < int(tab["first_turn"]):
        return
    n = game.roll("reinforcement", "15.21 service companies") * int(tab["die_multiplier"])
    hqs = np.flatnonzero(units.on_map(game, Side.ALLIED) & (sc.units.utype == _HQ))
    if hqs.size == 0:
        return                                                        # 15.23
    cells = sorted({int(st.unit_cell[h]) for h in hqs})
    for _ in range(n):
        free = units.service_free(game)
        if free.size == 0:
            return                                                    # 15.25
        company = int(free[0])                                        # 15.22: all identical
        cell = game.ask("kb.reinforcement.service", Side.ALLIED, cells)
        place(game, company, cell)
        flags = game.arr("flags")
        flags[company] = Flag.SERVICE
        st.unit_step[company] = 0
        game.arr("service_placed")[0] += 1
        game.event("service_company", unit=company, at=cell)
