"""Retreat after combat (8.6, 6.15, 10.52-10.53, 23.24, 24.41).

``retreat_stack(game, units, length, ...)`` retreats one stack ``length`` hexes: it lists the
legal paths, narrows them by the case's constraints and priorities, asks the owner to pick one
(``"gwe.combat.retreat"``, options: tuples of cells, the hexes entered in order) and carries it
out. The geometry is the one bounded search kernel: the hexes ``i`` steps from the start
(a retreat moves one hex further away with each hex, ruling on 8.61) and the distance of every
hex to the nearest friendly supply source (priority 1 of 8.63). The paths themselves are short
(at most four hexes, 23.13) and are enumerated over those arrays.

The order of the narrowing, each step applied only when it leaves at least one path:

1. legality (8.61): never into or through an enemy unit (a hex holding only enemy HQs does not
   block, 10.52, and they displace when entered), an undestroyed enemy fortress (5.13), a
   prohibited hexside or prohibited terrain, nor a hex the caller forbids (23.22);
2. zones of control (8.64, 7.24): a unit of TCR 2-4 never enters an enemy-controlled hex that
   no friendly unit or fortress occupies; when every path does, a stack with TCR 1 units (or,
   in the panic turn, Austro-Hungarian units, 23.24) takes one and the other units are
   eliminated; a stack of TCR 1 units only may take such paths, last in priority 2;
3. the armored car never enters a mountain hex (24.41): paths avoiding mountains first, else
   it is eliminated;
4. stacking (8.63, 6.15): a path ending where the stack fits under the stacking limit; when
   none does, the owner eliminates retreating units until the end hex fits;
5. priority 1 (8.63): every hex of the path nearer to a friendly supply source than the last;
6. priority 2 (8.63): for a stack of TCR 1 units, a path free of enemy-controlled hexes.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast import dtypes, kernels
from gwe_fast.enums import Terrain, UnitType
from gwe_fast.games.gwe import stacking
from gwe_fast.games.gwe import units as gu
from gwe_fast.games.gwe.data import PROHIBITED, gwe_data
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.games.gwe.supply import position_key, remembered, sources_alone
from gwe_fast.games.gwe.zoc import controlled, occupied
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ARMORED_CAR = int(UnitType.ARMORED_CAR)
_HQ = int(UnitType.HQ)
_MOUNTAIN = int(Terrain.MOUNTAIN)


def passable_steps(game: GweGame) -> np.ndarray:
    """``bool[n_cells, 6]``: steps any unit may take: onto the map, not across a blocked
    hexside, not into prohibited terrain (lake, sea). Made once per scenario, read-only."""
    return _passable_steps(game.scenario)


@lru_cache(maxsize=32)
def _passable_steps(scenario) -> np.ndarray:
    m = scenario.map
    out = m.k.board.step_costs(m.neighbors, *_step_parts(scenario)) >= 0
    out.flags.writeable = False
    return out


@lru_cache(maxsize=32)
def _step_parts(scenario) -> tuple[np.ndarray, np.ndarray]:
    """``passable_steps`` as the parts ``board.step_costs`` adds: 1 to enter a hex, -1 into
    lake or sea; 0 to cross a hexside, -1 across a blocked one (read-only)."""
    data, m = gwe_data(scenario), scenario.map
    water = (data.enter_cost[0] < 0) & (data.enter_cost[3] < 0)
    enter = np.where(water, PROHIBITED, 1).astype(dtypes.STEPCOST)
    across = np.where(data.side_add[0] >= 0, 0, PROHIBITED).astype(dtypes.STEPCOST)
    enter.flags.writeable = across.flags.writeable = False
    return enter, across


def enemy_blocks(game: GweGame, side: int) -> np.ndarray:
    """``bool[n_cells]``: hexes a unit of ``side`` may never retreat or advance into: a unit
    of the other side other than an HQ (8.61, 10.52), or an undestroyed fortress of the other
    side (5.13)."""
    from gwe_fast.games.gwe.combat import fortress_cells

    sc, st = game.scenario, game.state
    out = occupied(sc, st, 1 - side, hq_only_counts=False)
    out |= fortress_cells(game, 1 - side)
    return out


def open_enemy_zoc(game: GweGame, side: int) -> np.ndarray:
    """Enemy-controlled hexes that count against a retreat of ``side``: those no friendly
    unit or fortress occupies (7.24)."""
    from gwe_fast.games.gwe.combat import fortress_cells

    sc, st = game.scenario, game.state
    negated = occupied(sc, st, side) | fortress_cells(game, side)
    return controlled(sc, st, 1 - side) & ~negated


def source_distance(game: GweGame, side: int) -> np.ndarray:
    """``int32[n_cells]``: hexes from each hex to the nearest friendly supply source (a rail
    source of 9.15 or a supplied depot, 9.13), never through an enemy-occupied hex; -1 where
    none can be reached (8.63 priority 1). Remembered by position, read-only."""
    sc, st = game.scenario, game.state

    def make() -> np.ndarray:
        m = sc.map
        rail, depots = sources_alone(sc, st, side)
        at = rail.copy()
        at[st.unit_cell[depots]] = True
        cells = np.flatnonzero(at).astype(dtypes.CELL)
        if cells.size == 0:
            out = np.full(m.n_cells, -1, dtype=dtypes.DIST)
        else:
            # passable_steps, and never into a hex of enemy units other than HQs
            enter, across = _step_parts(sc)
            cost = m.k.board.step_costs(m.neighbors, enter, across,
                                        closed=occupied(sc, st, 1 - side, hq_only_counts=False))
            out = kernels.workspace(m).run(cost, cells, copy=True)[0][0]
        out.flags.writeable = False
        return out

    # what it reads is what a supply line reads (the sources, the enemy's units)
    return remembered(sc, ("source_distance", position_key(st, side, sc)), make)


@lru_cache(maxsize=32)
def _one_per_hex(hexmap) -> np.ndarray:
    """Step costs of one across every hexside of the map (read-only, made once)."""
    out = np.where(hexmap.neighbors >= 0, 1, PROHIBITED).astype(dtypes.STEPCOST)
    out.flags.writeable = False
    return out


def candidate_paths(game: GweGame, origin: int, length: int, side: int,
                    forbidden=()) -> list[tuple[int, ...]]:
    """Every path of ``length`` hexes a stack of ``side`` may retreat along from ``origin``
    (8.61): the ``i``-th hex is ``i`` hexes from the start, and no hex is enemy-occupied (other
    than by HQs only), an undestroyed enemy fortress, reached across a prohibited hexside,
    prohibited terrain or in ``forbidden``."""
    m = game.scenario.map
    ok = passable_steps(game)
    geo = m.k.search.bounded_search(m.neighbors, _one_per_hex(m), [int(origin)],
                                    limit=length)[0][0]
    bad = enemy_blocks(game, side)
    if len(forbidden):
        bad = bad.copy()
        bad[np.asarray(list(forbidden), dtype=np.int64)] = True
    out: list[tuple[int, ...]] = []

    def walk(cell: int, path: tuple[int, ...]) -> None:
        i = len(path) + 1
        for d in range(6):
            w = int(m.neighbors[cell, d])
            if w < 0 or not ok[cell, d] or geo[w] != i or bad[w]:
                continue
            if i == length:
                out.append(path + (w,))
            else:
                walk(w, path + (w,))

    if length > 0:
        walk(int(origin), ())
    return out


def toward_source(path, origin: int, to_source: np.ndarray) -> bool:
    """8.63 priority 1: every hex of the path nearer to a friendly supply source (distances
    ``to_source``, -1 where none can be reached) than the hex before it."""
    last = int(to_source[origin])
    for c in path:
        d = int(to_source[c])
        if d < 0 or last < 0 or d >= last:
            return False
        last = d
    return True


def retreat_stack(game: GweGame, stack, length: int, followers=(), forbidden=(),
                  may_cross_zoc=frozenset(), cause: str = "retreat"):
    """Retreat the units ``stack`` (all in one hex, 8.62) ``length`` hexes, with the HQs
    ``followers`` (10.53); returns the path taken (a tuple of cells) or ``None`` when there was
    none and the stack was eliminated (8.64, 23.15).

    ``may_cross_zoc``: units that may enter open enemy-controlled hexes when no other path
    exists although their TCR is not 1 (23.24). Units that retreat get ``Flag.RETREATED_IN``
    (8.66); HQs of the enemy alone in a hex of the path displace or are eliminated (10.52).
    """
    from gwe_fast.games.gwe import command
    from gwe_fast.games.gwe.combat import eliminate_units

    sc, st, data = game.scenario, game.state, game.data
    u = sc.units
    stack = [int(x) for x in stack if st.unit_status[x] & Status.ON_MAP]
    followers = [int(x) for x in followers if st.unit_status[x] & Status.ON_MAP]
    if not stack:
        return None
    origin = int(st.unit_cell[stack[0]])
    side = int(u.side[stack[0]])
    paths = candidate_paths(game, origin, length, side, forbidden)
    zoc = open_enemy_zoc(game, side)
    uses_zoc = {p: bool(zoc[list(p)].any()) for p in paths}
    tcr1 = [x for x in stack if data.tcr[x] == 1]
    crossers = [x for x in stack if data.tcr[x] == 1 or x in may_cross_zoc]
    doomed: list[int] = []
    free = [p for p in paths if not uses_zoc[p]]
    if len(tcr1) == len(stack):
        cand = paths                                          # 8.63 priority 2 below
    elif free:
        cand = free
    elif crossers and paths:                                  # 8.64, 23.24: forced through
        cand = paths
        doomed = [x for x in stack if x not in crossers]
    else:
        cand = []
    if not cand:
        eliminate_units(game, stack + followers, cause)
        game.event("retreat_blocked", units=tuple(stack), length=length)
        return None
    # 24.41: the armored car never enters a mountain hex
    cars = [x for x in stack if u.utype[x] == _ARMORED_CAR and x not in doomed]
    mountain = sc.map.terrain == _MOUNTAIN
    if cars:
        flat = [p for p in cand if not mountain[list(p)].any()]
        cand = flat or cand
    # 6.15, 8.63: end where the stack fits under the stacking limit
    sp = int(u.stacking[[x for x in stack if x not in doomed]].sum())
    limit = data.stack_limit
    points = stacking.points_in_hexes(game)
    fits = [p for p in cand if points[p[-1]] + sp <= limit]
    cand = fits or cand
    # 8.63 priority 1: toward the nearest friendly supply source; priority 2: units of TCR 1
    # into hexes not enemy-controlled. Each keeps one path of several, so a single path
    # stands as it is (and the distances, a search, are not needed)
    if len(cand) > 1:
        dsrc = source_distance(game, side)
        cand = [p for p in cand if toward_source(p, origin, dsrc)] or cand
        if len(tcr1) == len(stack):
            cand = [p for p in cand if not uses_zoc[p]] or cand
    path = game.ask("gwe.combat.retreat", side, cand, units=tuple(stack), length=length)
    if doomed:
        eliminate_units(game, doomed, cause)
    movers = [x for x in stack if st.unit_status[x] & Status.ON_MAP]
    on_mountain = bool(mountain[list(path)].any())
    for x in movers + followers:
        gu.move_unit(game, x, path)
        game.set_flag(x, Flag.RETREATED_IN)
    game.event("retreat", units=tuple(movers + followers), path=tuple(path))
    # 10.52: enemy HQs alone in a hex entered displace (or are eliminated)
    for c in path:
        for other in gu.units_in(game, c):
            if (u.side[other] != side and u.utype[other] == _HQ
                    and not command.displace_hq(game, int(other))):
                eliminate_units(game, [int(other)], cause)
    if on_mountain:                                          # 24.41
        eliminate_units(game, [x for x in movers if u.utype[x] == _ARMORED_CAR], cause)
    # 6.15: a retreat may not end overstacked; the owner eliminates retreating units
    stacking.retreat_overstack(game, [x for x in movers if st.unit_status[x] & Status.ON_MAP],
                               int(path[-1]))
    return tuple(int(c) for c in path)
