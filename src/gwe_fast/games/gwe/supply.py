"""Supply (9.1, 19.1): rail supply sources, depot chains, and which units are in supply.

All three are the one bounded search with different pass rules:

* rail sources (9.15, 18.27): from the friendly map-edge hexes where a rail line leaves the
  map, along rail hexsides only, through friendly-side hexes free of enemy units and enemy
  zones of control; a hex reached is a source unless an enemy unit was the last to occupy it;
* depots (9.16): a depot is supplied when within its supply range of a rail source or of a
  supplied depot, on a line free of enemy-occupied and enemy-controlled hexes; depots chain;
* units (9.12-9.14, 9.17, 19.1): a line of at most the unit's supply range (3 hexes for
  Russian and Austro-Hungarian units, 5 for German) from the unit's hex (not counted) to a
  source; never through an enemy-occupied hex (a hex holding only enemy HQs does not count,
  9.17); through at most two enemy-controlled hexes for a unit of TCR 1, none otherwise.
  Friendly units negate enemy zones of control for tracing supply (7.24).
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import Side, Terrain, UnitType
from gwe_fast.games.gwe.data import PROHIBITED, gwe_data
from gwe_fast.games.gwe.game import Flag
from gwe_fast.games.gwe.zoc import controlled, occupied, on_map
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State, Status

TCR1_ZOC_HEXES = 2   # 9.14
DEPOT, ALLIED = int(UnitType.DEPOT), int(Side.ALLIED)   # plain ints for numpy (see zoc.py)


def _passable(scenario: Scenario) -> np.ndarray:
    """Steps of one hex between neighbours that any line may take: not across a blocked
    hexside, not into lake or sea (the chart's prohibited terrain)."""
    data = gwe_data(scenario)
    m = scenario.map
    v = np.maximum(m.neighbors, 0)
    water = np.isin(m.terrain, (int(Terrain.LAKE), int(Terrain.SEA)))
    return (m.neighbors >= 0) & (data.side_add[0] >= 0) & ~water[v]


@lru_cache(maxsize=32)
def _fixed(scenario: Scenario) -> SimpleNamespace:
    """What every supply search of a scenario shares, made once (read-only): ``one``, a
    cost of one to enter any hex; ``line_side`` and ``rail_side``, the hexsides a supply line
    and a rail line may cross (0) or not (-1), for ``board.step_costs``; each unit's search
    ``layers`` (three for TCR 1, 9.14) and supply ``range`` as int32."""
    data = gwe_data(scenario)
    out = SimpleNamespace(
        one=np.ones(scenario.map.n_cells, dtype=dtypes.STEPCOST),
        line_side=np.where(_passable(scenario), 0, PROHIBITED).astype(dtypes.STEPCOST),
        rail_side=np.where(data.rail, 0, PROHIBITED).astype(dtypes.STEPCOST),
        layers=np.where(data.tcr == 1, TCR1_ZOC_HEXES + 1, 1).astype(np.int32),
        range=data.supply_range.astype(np.int32),
        depot=scenario.units.utype == DEPOT)
    for a in vars(out).values():
        a.flags.writeable = False
    return out


def _open_zoc(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """Enemy-controlled hexes that count against ``side``'s supply lines: those not occupied
    by a unit of ``side`` (7.24)."""
    return controlled(scenario, state, 1 - side) & ~occupied(scenario, state, side)


def friendly_ground(scenario: Scenario, side: int) -> np.ndarray:
    """Cells on ``side``'s side of the start line (18.27, 19.1)."""
    east = gwe_data(scenario).east
    return east if side == ALLIED else ~east


def rail_sources(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """``bool[n_cells]``: friendly rail hexes that are supply sources (9.15, 18.27)."""
    return sources(scenario, state, side)[0]


def _rail_sources(scenario: Scenario, state: State, side: int) -> np.ndarray:
    data = gwe_data(scenario)
    m = scenario.map
    ok = (friendly_ground(scenario, side)
          & ~occupied(scenario, state, 1 - side, hq_only_counts=False)
          & ~_open_zoc(scenario, state, side))
    # 1 along a rail hexside into a hex that is ok, else -1
    fx = _fixed(scenario)
    cost = m.k.board.step_costs(m.neighbors, fx.one, fx.rail_side, ~ok)
    starts = data.rail_edge[int(side)]
    starts = starts[ok[starts]]
    reached = m.k.search.bounded_search(m.neighbors, cost, starts)[0][0] >= 0
    return reached & (state.hex_last != 1 - side)


def _line_costs(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """One per hex on a supply line; never into an enemy-occupied hex (9.14), though a hex
    holding only enemy HQs does not count (9.17)."""
    m = scenario.map
    blocked = occupied(scenario, state, 1 - side, hq_only_counts=False)
    fx = _fixed(scenario)
    return m.k.board.step_costs(m.neighbors, fx.one, fx.line_side, blocked)


def supplied_depots(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """``bool[n_units]``: the side's depots that are in supply (9.16), chained from the rail
    sources through other supplied depots, each within its own supply range (19.1)."""
    return sources(scenario, state, side)[1]


def _supplied_depots(scenario: Scenario, state: State, side: int,
                     rail: np.ndarray) -> np.ndarray:
    data = gwe_data(scenario)
    m, u = scenario.map, scenario.units
    depots = np.flatnonzero(on_map(state) & (u.side == side) & _fixed(scenario).depot)
    ok = np.zeros(u.n, dtype=bool)
    if depots.size == 0:
        return ok
    cost = _line_costs(scenario, state, side)
    toll = _open_zoc(scenario, state, side).astype(dtypes.FLAG)
    frontier = np.flatnonzero(rail)
    reach_range = int(data.supply_range[depots].max())
    while frontier.size:
        # distance from the nearest supplied point to every cell on lines free of enemy
        # control: the supplying hex counts, the depot's own hex does not (as in 9.13)
        dist = m.k.search.bounded_search(m.neighbors, cost, frontier, limit=reach_range,
                                         toll=toll, max_toll=0, toll_on_exit=True)[0][0]
        new = [i for i in depots if not ok[i] and 0 <= dist[state.unit_cell[i]]
               <= data.supply_range[i]]
        if not new:
            break
        ok[new] = True
        frontier = state.unit_cell[new]   # the next links of the chain start from these depots
    return ok


#: what a supply line depends on: which units are on the map and where, which are entrained
#: (no zone of control, 5.36), which cavalry lives off the land (19.43), who last held each hex
_LINE_STATUS = Status.ON_MAP | Status.ENTRAINED
_MEMO_SIZE = 192


@lru_cache(maxsize=32)
def _memo(scenario: Scenario) -> OrderedDict:
    """The last ``_MEMO_SIZE`` answers kept for a scenario (``remembered``)."""
    return OrderedDict()


def position_key(state: State, side: int) -> bytes:
    """Everything a supply line reads of the state, as one bytes key (a command radius reads
    the same, and the HQs' steps)."""
    flags = state.extra.get("flags")
    off_land = b"" if flags is None else (flags & Flag.LIVING_OFF_LAND).tobytes()
    return b"".join((bytes((side,)), state.unit_cell.tobytes(),
                     (state.unit_status & _LINE_STATUS).tobytes(), state.hex_last.tobytes(),
                     off_land))


def remembered(scenario: Scenario, key, make):
    """``make()``, or what it gave for the same ``key`` (what was asked and of which position:
    ``position_key``) among the scenario's last answers. The engine and the policies ask the
    same position many times (every phase, every attack, every policy snapshot). The answer
    itself is kept: the caller must not change it."""
    memo = _memo(scenario)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = make()
        if len(memo) > _MEMO_SIZE:
            memo.popitem(last=False)
    else:
        memo.move_to_end(key)
    return hit


def _remembered(what: str, scenario: Scenario, state: State, side: int, make):
    """``remembered`` for the supply functions: the arrays are kept read-only and the caller
    gets a copy."""
    def made():
        hit = make()
        for a in (hit if isinstance(hit, tuple) else (hit,)):
            a.flags.writeable = False
        return hit

    hit = remembered(scenario, (what, position_key(state, side)), made)
    return tuple(a.copy() for a in hit) if isinstance(hit, tuple) else hit.copy()


def sources(scenario: Scenario, state: State, side: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rail_sources, supplied_depots)`` of the position: the two kinds of supply source
    (9.13, 9.15, 9.16)."""
    def make():
        src = _rail_sources(scenario, state, side)
        return src, _supplied_depots(scenario, state, side, src)

    return _remembered("sources", scenario, state, side, make)


def in_supply(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """``bool[n_units]``: the side's units on the map that can trace supply (9.12-9.17, 19.1).
    Entries of other units are False. (Answers are remembered by position: ``_remembered``.)"""
    return _remembered("units", scenario, state, side,
                       lambda: _in_supply(scenario, state, side))


def _in_supply(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """``in_supply`` computed afresh."""
    data = gwe_data(scenario)
    m, u = scenario.map, scenario.units
    rail, depots = sources(scenario, state, side)
    src_cells = np.union1d(np.flatnonzero(rail), state.unit_cell[depots])
    mine = on_map(state) & (u.side == side)
    out = np.zeros(u.n, dtype=bool)
    if src_cells.size == 0 or not mine.any():
        return out
    toll = _open_zoc(scenario, state, side).astype(dtypes.FLAG)
    cost = _line_costs(scenario, state, side)
    limit = int(data.supply_range[mine].max())
    dist, _ = m.k.search.bounded_search(m.neighbors, cost, src_cells, limit=limit, toll=toll,
                                        max_toll=TCR1_ZOC_HEXES, toll_on_exit=True)
    fx = _fixed(scenario)
    dep = mine & fx.depot
    out[dep] = depots[dep]
    # a line within the unit's range, through at most two tolls for TCR 1 (9.14)
    lines = np.flatnonzero(mine & ~fx.depot)
    out[lines] = m.k.board.reach_within(dist, state.unit_cell, lines, fx.layers, fx.range)
    return out


def supplied_cells(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """``bool[n_cells]``: the hexes where a unit of ``side`` of TCR 2-4 with the side's
    shortest supply range could trace supply (town control, 25.12: "the town or city is in
    supply"). (Remembered by position: ``_remembered``.)"""
    return _remembered("cells", scenario, state, side,
                       lambda: _supplied_cells(scenario, state, side))


def _supplied_cells(scenario: Scenario, state: State, side: int) -> np.ndarray:
    data = gwe_data(scenario)
    m, u = scenario.map, scenario.units
    rail, depots = sources(scenario, state, side)
    src_cells = np.union1d(np.flatnonzero(rail), state.unit_cell[depots])
    if src_cells.size == 0:
        return np.zeros(m.n_cells, dtype=bool)
    rng = int(data.supply_range[u.side == side].min())
    toll = _open_zoc(scenario, state, side).astype(dtypes.FLAG)
    cost = _line_costs(scenario, state, side)
    dist, _ = m.k.search.bounded_search(m.neighbors, cost, src_cells, limit=rng, toll=toll,
                                        max_toll=0, toll_on_exit=True)
    return (dist[0] >= 0) & (dist[0] <= rng)
