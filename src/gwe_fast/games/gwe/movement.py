"""Movement (5.1, 5.2, 5.4, 7.2, 9.21): step costs for one unit and the hexes it may reach."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import Terrain, UnitType
from gwe_fast.games.gwe.data import PROHIBITED, gwe_data
from gwe_fast.games.gwe.game import Flag
from gwe_fast.games.gwe.zoc import controlled, occupied
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State, Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ARMORED_CAR = int(UnitType.ARMORED_CAR)
_HQ = int(UnitType.HQ)

# 24.32/24.42: the armored car's reverse side is its broken-down state, not a step; the
# counter prints 0-1-1 there and the tables have no cell for it.
ARMORED_CAR_BROKEN_DOWN = (0, 1, 1)


def printed_values(scenario: Scenario, state: State, unit: int) -> np.ndarray:
    """The unit's current printed (attack, defense, movement): the row of its current step,
    or the broken-down armored car's reverse (24.42)."""
    flags = state.extra.get("flags")
    if (scenario.units.utype[unit] == _ARMORED_CAR and flags is not None
            and flags[unit] & Flag.BROKEN_DOWN):
        return np.array(ARMORED_CAR_BROKEN_DOWN, dtype=np.int16)
    return scenario.units.values[unit, int(state.unit_step[unit])]


def movement_allowance(scenario: Scenario, state: State, unit: int) -> int:
    """Movement Points for this Movement Phase: halved, fractions down but never below one,
    when out of supply (9.21); being out of supply has no effect on HQs (10.35), nor on the
    movement of cavalry living off the land (19.42)."""
    ma = int(printed_values(scenario, state, unit)[2])
    flags = state.extra.get("flags")
    living = flags is not None and flags[unit] & Flag.LIVING_OFF_LAND    # 19.42: moves normally
    if (state.unit_status[unit] & Status.OUT_OF_SUPPLY and not living
            and scenario.units.utype[unit] != _HQ):
        ma = max(1, ma // 2)
    return ma


def step_costs(scenario: Scenario, state: State, unit: int) -> np.ndarray:
    """``int16[n_cells, 6]``: Movement Points for ``unit`` to step from each cell to each
    neighbour, negative where it may not (5.13, 5.4, 24.41).

    The cost of a step is the cost of the hex entered for the unit's TCR (5.4), plus a river
    hexside crossed, plus one to enter an enemy-controlled hex (7.21); leaving one costs
    nothing (7.23) and one may go from one to another (7.22). Friendly units cost nothing to
    pass (5.21). Enemy-occupied hexes may not be entered (5.13), except by a unit with an
    attack strength above zero into a hex holding only enemy HQ units (10.52).
    """
    data = gwe_data(scenario)
    u = scenario.units
    t = int(data.tcr[unit]) - 1
    enemy = 1 - int(u.side[unit])
    attack = int(printed_values(scenario, state, unit)[0])
    blocked = occupied(scenario, state, enemy, hq_only_counts=attack <= 0)
    ezoc = controlled(scenario, state, enemy)
    return _cost_table(scenario, t, bool(u.utype[unit] == _ARMORED_CAR),
                       blocked.tobytes(), ezoc.tobytes())


@lru_cache(maxsize=64)
def _cost_table(scenario: Scenario, t: int, car: bool, blocked: bytes, ezoc: bytes
                ) -> np.ndarray:
    # the table of ``step_costs``, read-only: units of one TCR and kind facing the same
    # enemy hexes and zones of control share it (the enemy does not move in a Movement
    # Phase, so a phase's units mostly find it made)
    m = scenario.map
    table = m.k.board.step_costs_over(m.neighbors, _base_table(scenario, t, car),
                                      np.frombuffer(blocked, dtype=bool),
                                      np.frombuffer(ezoc, dtype=bool),
                                      int(gwe_data(scenario).zoc_add[t]))
    table.flags.writeable = False
    return table


@lru_cache(maxsize=32)
def _base_table(scenario: Scenario, t: int, car: bool) -> np.ndarray:
    # the strict table of units of TCR t + 1 (and kind) before the enemy's hexes and zones
    # of control are laid over it (``board.step_costs_over``): read-only, made once
    data = gwe_data(scenario)
    m = scenario.map
    enter = _armored_car_enter(scenario)[t] if car else data.enter_cost[t]     # 24.41
    table = m.k.board.step_costs(m.neighbors, enter, data.side_add[t])
    table.flags.writeable = False
    return table


@lru_cache(maxsize=32)
def _armored_car_enter(scenario: Scenario) -> np.ndarray:
    """``enter_cost`` with mountain hexes prohibited (24.41), made once."""
    enter = gwe_data(scenario).enter_cost.copy()
    enter[:, scenario.map.terrain == Terrain.MOUNTAIN] = PROHIBITED
    enter.flags.writeable = False
    return enter


def routes(scenario: Scenario, state: State, unit: int, spent: int = 0
           ) -> tuple[np.ndarray, np.ndarray]:
    """``(dist, pred)`` of ``unit``'s possible moves: ``dist[c]`` the Movement Points needed to
    reach cell ``c`` (-1 where the unit cannot end this move; its own cell is 0) and ``pred``
    the predecessor cell on a least-cost path (-1 at the start).

    ``spent`` is what the unit has already expended this Movement Phase. A unit that has
    expended nothing may always move at least one hex (5.17), unless it is out of Command
    Control, in which case it may not move at all (4.0 1d, 10.31).
    """
    st = state.unit_status[unit]
    n = scenario.map.n_cells
    if not st & Status.ON_MAP or st & Status.OUT_OF_COMMAND:
        dist = np.full(n, -1, dtype=dtypes.DIST)
        pred = np.full(n, -1, dtype=dtypes.CELL)
        if st & Status.ON_MAP:
            dist[int(state.unit_cell[unit])] = 0
        return dist, pred
    here = int(state.unit_cell[unit])
    cost = step_costs(scenario, state, unit)
    left = movement_allowance(scenario, state, unit) - spent
    nb = scenario.map.neighbors
    d2, p2 = scenario.map.k.search.bounded_search(nb, cost, [here], limit=max(left, 0))
    dist, pred = d2[0], p2[0]
    if spent == 0:                                                  # 5.17
        for d, w in enumerate(nb[here].tolist()):
            c = int(cost[here, d])
            if w >= 0 and c >= 0 and dist[w] < 0:
                dist[w] = c
                pred[w] = here
    return dist, pred


def reachable(scenario: Scenario, state: State, unit: int, spent: int = 0) -> np.ndarray:
    """``int32[n_cells]``: the Movement Points needed to reach each cell, -1 where the unit
    cannot end this move (see ``routes``)."""
    return routes(scenario, state, unit, spent)[0]
