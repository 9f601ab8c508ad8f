"""Supply (14.0): the length of a supply line from an attacking unit to a friendly HQ.

A supply line runs from the unit's hex (exclusive) to a friendly HQ's hex (inclusive) through
hexes neither enemy-occupied nor enemy-controlled, unless a friendly unit occupies them (6.31,
6.32, 14.12); terrain never matters. Its length in hexes gives the state (14.13).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast import dtypes, kernels
from gwe_fast.enums import Side, UnitType
from gwe_fast.games.kb.game import KbGame
from gwe_fast.games.kb.zoc import controlled, occupied
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_CENTRAL = int(Side.CENTRAL)
_HQ = int(UnitType.HQ)

IN_SUPPLY, OUT_OF_COMMUNICATIONS, OUT_OF_SUPPLY, ISOLATED = 0, 1, 2, 3
STATE_NAMES = ("in_supply", "out_of_communications", "out_of_supply", "isolated")


def line_lengths(game: KbGame, side: int) -> np.ndarray:
    """``int32[n_cells]``: the shortest supply line (hexes) from each cell to a friendly HQ of
    ``side``, -1 where none can be traced; 0 in an HQ's own hex. (``line_sources`` searched
    on the map's workspace: a closed hex is reached but never left.)"""
    m = game.scenario.map
    found = line_sources(game, side)
    if found is None:
        return np.full(m.n_cells, -1, dtype=np.int32)
    sources, closed = found
    dist, _ = kernels.workspace(m).run(unit_steps(game.scenario), sources,
                                       stop=closed.view(np.uint8), copy=True)
    return dist[0]


def line_sources(game: KbGame, side: int) -> tuple[np.ndarray, np.ndarray] | None:
    """``(sources, closed)`` of the supply lines of ``side``, traced from its HQs outward (the
    line runs the other way, but every step costs one hex and terrain never matters): the
    HQs' hexes, and the hexes a line may reach but not pass through, enemy-occupied or
    enemy-controlled without a friendly unit in them; None when the side has no HQ on the
    map. (The attacking unit's own hex, where a line ends, is friendly-occupied.)"""
    sc, st = game.scenario, game.state
    hq = ((st.unit_status & Status.ON_MAP).astype(bool) & (sc.units.side == side)
          & (sc.units.utype == _HQ))
    if not hq.any():
        return None
    enemy = 1 - side
    closed = ~occupied(game, side) & (occupied(game, enemy) | controlled(game, enemy))
    return np.unique(st.unit_cell[hq]), closed


def line_search(game: KbGame, side: int):
    """``(neighbors, step_cost, sources)``: the search of ``line_lengths`` as a graph (a step
    out of a closed hex not allowed), for the benchmarks that race other search libraries on
    it; None when the side has no HQ on the map."""
    found = line_sources(game, side)
    if found is None:
        return None
    sources, closed = found
    nb = game.scenario.map.neighbors
    cost = np.where((nb >= 0) & ~closed[:, None], 1, -1).astype(dtypes.STEPCOST)
    return nb, cost, sources


@lru_cache(maxsize=32)
def unit_steps(scenario) -> np.ndarray:
    """``int16[n_cells, 6]``: one for every step onto the map, -1 off it (read-only, made
    once per scenario)."""
    nb = scenario.map.neighbors
    out = np.where(nb >= 0, 1, -1).astype(dtypes.STEPCOST)
    out.flags.writeable = False
    return out


def state_of(game: KbGame, lengths: np.ndarray, unit: int) -> int:
    """The supply state of one unit from ``line_lengths`` (14.13), German units being in supply
    on Game-Turns 1 and 2 (17.5)."""
    sc = game.scenario
    if auto_supplied(game, int(sc.units.side[unit])):
        return IN_SUPPLY
    d = int(lengths[int(game.state.unit_cell[unit])])
    if d < 0:
        return ISOLATED
    for band in sc.tables["supply_states"]["band"]:
        if band.get("min", 0) <= d <= band.get("max", 10**9):
            return STATE_NAMES.index(band["state"])
    raise ValueError(f"no supply state covers a line of {d} hexes")


def auto_supplied(game: KbGame, side: int) -> bool:
    """17.5: all German units are automatically in supply during Game-Turns 1 and 2."""
    return side == _CENTRAL and int(game.state.turn) in (1, 2)


def die_modifier(game: KbGame, state: int) -> int:
    """What the state adds to the defender's die roll (14.22)."""
    tab = game.scenario.tables["supply_states"]
    if state == ISOLATED:
        return int(tab["isolated"]["defender_die"])
    for band in tab["band"]:
        if band["state"] == STATE_NAMES[state]:
            return int(band["defender_die"])
    raise ValueError(f"unknown supply state {state}")


def worst_state(game: KbGame, attackers) -> int:
    """The state most disadvantageous to the attacker among its units (14.23, 14.24)."""
    attackers = [int(a) for a in attackers]
    if not attackers:
        return IN_SUPPLY
    side = int(game.scenario.units.side[attackers[0]])
    if auto_supplied(game, side):
        return IN_SUPPLY                                  # 17.5: no line to trace
    lengths = line_lengths(game, side)
    return max(state_of(game, lengths, a) for a in attackers)
