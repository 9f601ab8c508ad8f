"""Movement (5.0), zones of control and movement (6.2), exiting the map (20.2).

``step_costs`` gives every step's Movement Point cost for a unit; the movement, advance and
retreat procedures add their own zone-of-control rules as stopping or forbidden cells and
search with the one kernel.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast import dtypes
from gwe_fast.games.kb import units
from gwe_fast.games.kb.data import kb_data
from gwe_fast.games.kb.game import KbGame
from gwe_fast.games.kb.zoc import controlled, occupied
from gwe_fast.scenario.model import Scenario

FIRST, SECOND = 1, 2


def gas_zone(game: KbGame) -> np.ndarray:
    """The Zones of Effectiveness of the Persistent Gas markers on the map: each marker's hex
    and the six around it (9.34)."""
    m = game.scenario.map
    cells = game.arr("gas")
    return m.k.board.adjacent_cells(m.neighbors, cells[cells >= 0], None, True)


def enter_costs(game: KbGame) -> np.ndarray:
    """Movement Points to enter each hex (5.32), doubled inside a gas zone (9.34[1])."""
    cost = game.data.enter_cost.astype(np.int32)
    if not (game.arr("gas") >= 0).any():
        return cost
    return np.where(gas_zone(game), 2 * cost, cost)


def step_costs(game: KbGame, unit: int) -> np.ndarray:
    """``int16[n_cells, 6]``: Movement Points for ``unit`` to step from each cell into each
    neighbour: the hex's cost (doubled by gas) plus the hexside's; negative off the map and
    into enemy-occupied hexes (5.12). Friendly units cost nothing (5.41); entering an
    enemy-controlled hex costs nothing extra (6.12): callers apply 5.13 and 6.2."""
    enemy = 1 - int(game.scenario.units.side[unit])
    return _step_costs(game, occupied(game, enemy))


def _step_costs(game: KbGame, closed: np.ndarray) -> np.ndarray:
    """The table of ``step_costs`` with ``closed`` hexes, read-only: the same gas markers and
    closed hexes give the same table, so a side's units share it while the enemy stands."""
    gas = game.arr("gas")
    return _cost_table(game.scenario, tuple(sorted(int(c) for c in gas[gas >= 0])),
                       np.ascontiguousarray(closed, dtype=bool).tobytes())


def open_step_costs(game: KbGame) -> np.ndarray:
    """``step_costs`` with no hex closed (terrain, hexsides and gas only), read-only: the
    table the ``play`` kernel closes hexes in for itself."""
    return _step_costs(game, _no_hex(game.scenario.map.n_cells))


@lru_cache(maxsize=8)
def _no_hex(n: int) -> np.ndarray:
    out = np.zeros(n, dtype=bool)
    out.flags.writeable = False
    return out


@lru_cache(maxsize=64)
def _cost_table(scenario: Scenario, gas: tuple[int, ...], closed: bytes) -> np.ndarray:
    # enter (doubled in the gas zones, 9.34[1]) + hexside, -1 off the map and into the
    # closed hexes whatever their own costs; sums wrap to int16 as enter_costs' would
    m, data = scenario.map, kb_data(scenario)
    enter = data.enter_cost
    if gas:
        zone = m.k.board.adjacent_cells(m.neighbors, list(gas), None, True)
        enter = np.where(zone, 2 * enter, enter).astype(dtypes.STEPCOST)
    table = m.k.board.step_costs(m.neighbors, enter, data.side_add,
                                 np.frombuffer(closed, dtype=bool), None, 0, False)
    table.flags.writeable = False
    return table


def allowance(game: KbGame, unit: int, segment: int) -> int:
    """The unit's Movement Allowance in a segment: tripled in the Second (5.22)."""
    ma = units.movement(game, unit)
    return 3 * ma if segment == SECOND else ma


def allowances(game: KbGame, us, segment: int) -> np.ndarray:
    """``int32``: ``allowance`` of each of the units ``us``."""
    ma = units.movement_each(game, us)
    return 3 * ma if segment == SECOND else ma


def routes(game: KbGame, unit: int, segment: int) -> tuple[np.ndarray, np.ndarray]:
    """``(dist, pred)`` of the unit's possible moves in a Movement Segment: ``dist[c]`` the
    Movement Points to reach cell ``c`` (-1 where it cannot end its move; 0 its own hex).

    First Segment (5.13, 5.21, 6.2): the unit stops on entering an enemy-controlled hex; one
    that starts in one may leave only directly into a hex that is not, paying half its
    Movement Allowance (fractions down) on top of the terrain, and may later enter another.
    Second Segment (5.22): tripled allowance, never in an enemy-controlled hex. A unit may
    always move one hex, though not from one enemy-controlled hex to another (5.15).

    The arrays are read-only and shared: the search depends only on the unit's hex, its
    allowance, the enemy's hexes and zone of control and the gas markers (friendly units
    cost nothing, 5.41), so the same ones are handed out again while those stay the same
    (the engine's move, the policy's look at it and its plan all ask the same routes).
    """
    sc, st = game.scenario, game.state
    here = int(st.unit_cell[unit])
    side = int(sc.units.side[unit])
    enemy_here, ezoc = _enemy_masks(game, 1 - side)
    ma = allowance(game, unit, segment)
    gas = game.arr("gas")
    return _routes(sc, here, segment, ma, tuple(sorted(int(c) for c in gas[gas >= 0])),
                   enemy_here, ezoc)


#: per side: the scenario, the side's units' hexes, status and flags, and the bytes of the
#: hexes they occupy and control (``_enemy_masks``)
_MASKS: dict[int, tuple] = {}


def _enemy_masks(game: KbGame, side: int) -> tuple[bytes, bytes]:
    """The bytes of ``occupied`` and ``controlled`` of ``side`` (bool masks), kept while its
    units stand as they did (their hexes, status and flags: all that the two read). The same
    bytes objects are handed out again, so ``_routes``' cache hashes them once."""
    sc, st = game.scenario, game.state
    mine = sc.units.of_side(side)
    key = (st.unit_cell.take(mine).tobytes(), st.unit_status.take(mine).tobytes(),
           game.arr("flags").take(mine).tobytes())
    hit = _MASKS.get(side)
    if hit is None or hit[0] is not sc or hit[1] != key:
        hit = _MASKS[side] = (sc, key,
                              np.ascontiguousarray(occupied(game, side), dtype=bool).tobytes(),
                              np.ascontiguousarray(controlled(game, side), dtype=bool).tobytes())
    return hit[2], hit[3]


@lru_cache(maxsize=256)
def _routes(scenario: Scenario, here: int, segment: int, ma: int, gas: tuple[int, ...],
            enemy_here: bytes, ezoc: bytes) -> tuple[np.ndarray, np.ndarray]:
    """``routes`` of a unit in ``here`` with allowance ``ma``, the enemy in the hexes
    ``enemy_here`` (bytes of a bool mask) with zone of control ``ezoc``, the gas markers in
    the cells ``gas``; read-only."""
    m = scenario.map
    nb = m.neighbors
    ezoc_a = np.frombuffer(ezoc, dtype=bool)
    if segment == SECOND:
        closed = np.frombuffer(enemy_here, dtype=bool) | ezoc_a
        cost = _cost_table(scenario, gas, closed.tobytes())          # 5.22
        stop = None
    else:
        cost = _cost_table(scenario, gas, enemy_here)
        stop = ezoc_a.astype(np.uint8)
        stop[here] = 0
        if ezoc_a[here]:                                             # 5.13, 6.22, 6.23
            cost = cost.copy()
            row = cost[here]
            for d, w in enumerate(nb[here].tolist()):
                if w >= 0 and ezoc_a[w]:
                    row[d] = -1
                elif row[d] >= 0:
                    row[d] += ma // 2
    d2, p2 = m.k.search.bounded_search(nb, cost, [here], limit=ma, stop=stop)
    dist, pred = d2[0], p2[0]
    for d, w in enumerate(nb[here].tolist()):                        # 5.15
        c = int(cost[here, d])
        if w >= 0 and c >= 0 and dist[w] < 0:
            dist[w] = c
            pred[w] = here
    dist.flags.writeable = False
    pred.flags.writeable = False
    return dist, pred


def exit_costs(game: KbGame, unit: int, dist: np.ndarray, segment: int) -> dict[int, int]:
    """Western map-edge hexes from which the unit may leave the map this move, with the
    Movement Points spent in all (20.2): German units only, paying the cost of the hex left,
    not after entering an enemy-controlled hex (5.13) and, for a unit that starts in one, with
    the 5.13 surcharge."""
    sc, st = game.scenario, game.state
    if int(sc.units.side[unit]) != 1:                # only German units may exit (20.2)
        return {}
    edge = (game.data.exit_edge & (dist >= 0)).nonzero()[0]
    if edge.size == 0:                               # no edge hex within reach
        return {}
    ma = allowance(game, unit, segment)
    here = int(st.unit_cell[unit])
    ezoc = controlled(game, 0)
    enter = enter_costs(game)
    out = {}
    for c in edge:
        c = int(c)
        extra = int(enter[c])
        if ezoc[c]:
            if c != here or segment == SECOND:
                continue
            extra += ma // 2
        total = int(dist[c]) + extra
        if total <= ma:
            out[c] = total
    return out
