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

The three are computed together, for one side and position, with the hexes a unit of the
side's shortest supply range could trace from (25.12, ``supplied_cells``), by the kernel
``gwe_supply`` of the map's kernels (``play``; its pure-Python twin reads as the rules above),
and remembered by position (``remembered``).
"""

from __future__ import annotations

from collections import OrderedDict
from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from gwe_fast import dtypes, kernels
from gwe_fast.enums import Side, Terrain, UnitType
from gwe_fast.games.gwe.data import gwe_data
from gwe_fast.games.gwe.game import Flag
from gwe_fast.games.gwe.zoc import controlled, occupied
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State, Status

TCR1_ZOC_HEXES = 2   # 9.14
# plain ints for numpy (see zoc.py)
DEPOT, ALLIED, _ON_MAP = int(UnitType.DEPOT), int(Side.ALLIED), int(Status.ON_MAP)


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
    """What every supply search of a scenario shares, made once (read-only): ``rail_steps``
    and ``line_steps``, a cost of one for each step a rail line and a supply line may take
    (across a rail hexside; across any hexside but a blocked one into any hex but lake or
    sea), -1 for the others; each unit's search ``layers`` (three for TCR 1, 9.14) and supply
    ``range`` as int32; the depots; each side's ``friendly`` ground (uint8), its
    ``shortest`` supply range and its units (``units_of``, int32)."""
    data = gwe_data(scenario)
    on = scenario.map.neighbors >= 0
    out = SimpleNamespace(
        rail_steps=np.where(data.rail & on, 1, -1).astype(dtypes.STEPCOST),
        line_steps=np.where(_passable(scenario), 1, -1).astype(dtypes.STEPCOST),
        layers=np.where(data.tcr == 1, TCR1_ZOC_HEXES + 1, 1).astype(np.int32),
        range=data.supply_range.astype(np.int32),
        depot=scenario.units.utype == DEPOT,
        friendly=tuple(friendly_ground(scenario, s).view(np.uint8) for s in (0, 1)),
        shortest=tuple(_shortest_range(scenario, s) for s in (0, 1)),
        units_of=tuple(np.flatnonzero(scenario.units.side == s).astype(np.int32)
                       for s in (0, 1)))
    for a in (out.rail_steps, out.line_steps, out.layers, out.range, out.depot, *out.friendly,
              *out.units_of):
        a.flags.writeable = False
    return out


def _shortest_range(scenario: Scenario, side: int) -> int:
    """The side's shortest supply range (``supplied_cells``); -1 when it has no units."""
    ranges = gwe_data(scenario).supply_range[scenario.units.side == side]
    return int(ranges.min()) if ranges.size else -1


def friendly_ground(scenario: Scenario, side: int) -> np.ndarray:
    """Cells on ``side``'s side of the start line (18.27, 19.1)."""
    east = gwe_data(scenario).east
    return east if side == ALLIED else ~east


def rail_sources(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """``bool[n_cells]``: friendly rail hexes that are supply sources (9.15, 18.27)."""
    return sources(scenario, state, side)[0]


def supplied_depots(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """``bool[n_units]``: the side's depots that are in supply (9.16), chained from the rail
    sources through other supplied depots, each within its own supply range (19.1)."""
    return sources(scenario, state, side)[1]


def _supply(scenario: Scenario, state: State, side: int, lines: bool = True,
            hexes: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(rail sources, supplied depots, units in supply, hexes in supply)`` of the position,
    computed afresh by the kernel ``gwe_supply`` (see the module docstring); the hexes are
    those a line of the side's shortest supply range from a source reaches (25.12,
    ``supplied_cells``). With ``lines=False`` the units' lines are not worked out (the units
    in supply are the supplied depots): the kernel asked of the depots alone searches no
    line of a unit; with ``hexes=False`` no hex is in supply."""
    data = gwe_data(scenario)
    m, u = scenario.map, scenario.units
    fx = _fixed(scenario)
    enemy = 1 - int(side)
    rail = np.zeros(m.n_cells, dtype=np.uint8)
    depots = np.zeros(u.n, dtype=np.uint8)
    units = np.zeros(u.n, dtype=np.uint8)
    cells = np.zeros(m.n_cells, dtype=np.uint8)
    mine = fx.units_of[int(side)]
    mine = mine[(state.unit_status[mine] & _ON_MAP) != 0]
    if not lines:
        mine = mine[fx.depot[mine]]
    m.k.play.gwe_supply(
        kernels.workspace(m, TCR1_ZOC_HEXES + 1), fx.rail_steps, fx.line_steps,
        fx.friendly[int(side)], controlled(scenario, state, enemy).view(np.uint8),
        occupied(scenario, state, int(side)).view(np.uint8),
        occupied(scenario, state, enemy, hq_only_counts=False).view(np.uint8),
        data.rail_edge[int(side)], state.hex_last, enemy, mine, state.unit_cell,
        fx.depot.view(np.uint8), fx.range, fx.layers, TCR1_ZOC_HEXES, rail, depots, units,
        fx.shortest[int(side)] if hexes else -1, cells)
    return rail.view(bool), depots.view(bool), units.view(bool), cells.view(bool)


#: what a supply line depends on: which units are on the map and where, which are entrained
#: (no zone of control, 5.36), which cavalry lives off the land (19.43), who last held each hex
_LINE_STATUS = Status.ON_MAP | Status.ENTRAINED
_MEMO_SIZE = 192


@lru_cache(maxsize=64)
def _memo(scenario: Scenario, kind: str) -> OrderedDict:
    """The last answers of one kind kept for a scenario (``remembered``)."""
    return OrderedDict()


def position_key(state: State, side: int, scenario: Scenario) -> bytes:
    """Everything a supply line reads of the state, as one bytes key (a command radius reads
    the same, and the HQs' steps): the side, the units' hexes, their statuses on the map and
    entrained, who last held each hex and which cavalry lives off the land, made by the
    kernel ``gwe_position_key`` of the scenario's map."""
    return scenario.map.k.play.gwe_position_key(
        int(side), state.unit_cell, state.unit_status, _LINE_STATUS, state.hex_last,
        state.extra.get("flags"), Flag.LIVING_OFF_LAND)


def remembered(scenario: Scenario, key, make, kind: str = "position",
               size: int = _MEMO_SIZE):
    """``make()``, or what it gave for the same ``key`` (what was asked and of which position:
    ``position_key``) among the scenario's last ``size`` answers of this ``kind`` (each kind
    has a memo of its own, so that one kind cannot push another's answers out). The engine and
    the policies ask the same position many times (every phase, every attack, every policy
    snapshot). The answer itself is kept: the caller must not change it."""
    memo = _memo(scenario, kind)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = make()
        if len(memo) > size:
            memo.popitem(last=False)
    else:
        memo.move_to_end(key)
    return hit


def _kept_supply(scenario: Scenario, state: State, side: int):
    """``_supply`` remembered by position (read-only arrays: callers copy what they hand
    out)."""
    def made():
        hit = _supply(scenario, state, side)
        for a in hit:
            a.flags.writeable = False
        return hit

    return remembered(scenario, ("supply", position_key(state, side, scenario)), made)


def sources(scenario: Scenario, state: State, side: int) -> tuple[np.ndarray, np.ndarray]:
    """``(rail_sources, supplied_depots)`` of the position: the two kinds of supply source
    (9.13, 9.15, 9.16). (Remembered by position, with ``in_supply``.)"""
    rail, depots, _, _ = _kept_supply(scenario, state, side)
    return rail.copy(), depots.copy()


def sources_alone(scenario: Scenario, state: State, side: int
                  ) -> tuple[np.ndarray, np.ndarray]:
    """``sources``, for a caller that reads nothing else of the position's supply: when the
    position's whole supply is not known yet, the sources are worked out alone (no line of a
    unit is searched for) and remembered apart. (Read-only arrays.)"""
    key = position_key(state, side, scenario)
    hit = _memo(scenario, "position").get(("supply", key))
    if hit is not None:
        return hit[0], hit[1]

    def made():
        hit = _supply(scenario, state, side, lines=False, hexes=False)[:2]
        for a in hit:
            a.flags.writeable = False
        return hit

    return remembered(scenario, ("sources", key), made, kind="sources")


def in_supply(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """``bool[n_units]``: the side's units on the map that can trace supply (9.12-9.17, 19.1).
    Entries of other units are False. (Remembered by position, with ``sources``.)"""
    return _kept_supply(scenario, state, side)[2].copy()


def supplied_cells(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """``bool[n_cells]``: the hexes where a unit of ``side`` of TCR 2-4 with the side's
    shortest supply range could trace supply (town control, 25.12: "the town or city is in
    supply"). (Remembered by position, with ``in_supply``.)"""
    return _kept_supply(scenario, state, side)[3].copy()
