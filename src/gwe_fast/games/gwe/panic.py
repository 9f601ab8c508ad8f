"""Austro-Hungarian panic (Brusilov 23.1-23.4) and the reduced-unit trench rule (23.51).

Panic is in effect in the Russian Combat Phase of the scenario's first Game-Turn (Game-Turn 1,
or 5 in Attack on Schedule: ``scenario.first_turn``). It concerns the Austro-Hungarian units
other than the five Sud Armee divisions of 23.42, HQs and supply depots (ruling: depots are
the Central Powers' supply, recorded as Austro-Hungarian only for convenience).

* 23.11: they defend with a Defense Strength of 1 and no trench benefit (``combat``).
* 23.12-23.14: any adverse result retreats every such unit of the stack as many hexes as the
  result (E: four), whatever the sizes of the forces; a division then loses a step.
* 23.15, 23.24: eliminated only when no retreat path exists; they may cross enemy zones of
  control when there is no other path.
* 23.16: the Russian attackers may advance along the path of the retreat (``combat``).
* 23.21-23.26: contagion (``contagion``).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast.enums import Nationality, Side, Size, UnitType
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.games.gwe.units import units_in
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ALLIED = int(Side.ALLIED)
_AUSTRO_HUNGARIAN = int(Nationality.AUSTRO_HUNGARIAN)
_DEPOT = int(UnitType.DEPOT)
_DIVISION = int(Size.DIVISION)
_HQ = int(UnitType.HQ)

#: 23.42: the Austro-Hungarian units of the Sud Armee, which defend normally and never panic
#: (54, 55, 38, 19 and 32 I.D.; ids of the Brusilov counters)
SUD_ARMEE = ("ah-xx-54", "ah-xx-55", "ah-xx-38", "ah-xx-19", "ah-xx-32")

#: 23.13: hexes of retreat for each defender result; "E" retreats four hexes
PANIC_RETREAT = {"1": 1, "2": 2, "3": 3, "E": 4}


def panic_in_effect(game: GweGame, side: int) -> bool:
    """23.0: the Russian (phasing ``side``) Combat Phase of the scenario's first Game-Turn."""
    return int(side) == _ALLIED and int(game.state.turn) == int(game.scenario.first_turn)


def subject_to_panic(game: GweGame) -> np.ndarray:
    """``bool[n_units]``: Austro-Hungarian units other than HQs, depots and the Sud Armee
    units of 23.42. (A new array; the scenario's is made once.)"""
    return _subject(game.scenario).copy()


@lru_cache(maxsize=32)
def _subject(scenario) -> np.ndarray:
    # subject_to_panic of the scenario (read-only)
    u = scenario.units
    out = ((u.nationality == _AUSTRO_HUNGARIAN) & (u.utype != _HQ)
           & (u.utype != _DEPOT))
    for uid in SUD_ARMEE:
        try:
            out[u.index(uid)] = False
        except KeyError:
            pass
    out.flags.writeable = False
    return out


def no_trench_benefit(game: GweGame, side: int) -> np.ndarray:
    """``bool[n_units]``: units that get no defensive benefit from a trench in this combat:
    panicking units (23.11) and Austro-Hungarian units that have lost a step (23.51, the
    whole game)."""
    u, st = game.scenario.units, game.state
    out = (u.nationality == _AUSTRO_HUNGARIAN) & (st.unit_step > 0)
    if panic_in_effect(game, side):
        out = out | subject_to_panic(game)
    return out


def panic_retreat(game: GweGame, stack, hexes: int, followers=(), forbidden=(),
                  lose_step: bool = True):
    """Retreat a stack of panicking units ``hexes`` hexes (23.13, 23.24: through enemy zones
    of control only when there is no other path), then take a step from each division
    (23.12); returns the path, or None if the stack had no path and was eliminated (23.15)."""
    from gwe_fast.games.gwe import retreat
    from gwe_fast.games.gwe.combat import lose_steps

    u = game.scenario.units
    stack = [int(x) for x in stack]
    for x in stack:
        game.set_flag(x, Flag.PANICKED)
    path = retreat.retreat_stack(game, stack, hexes, followers=followers, forbidden=forbidden,
                                 may_cross_zoc=frozenset(stack), cause="panic")
    if path is not None and lose_step:
        for x in stack:
            if game.state.unit_status[x] & Status.ON_MAP and u.size[x] == _DIVISION:
                lose_steps(game, x, 1, "panic")
    return path


def adjacent_snapshot(game: GweGame) -> dict[int, int]:
    """{unit: cell} of the units that contagion could reach, taken at the moment of combat
    (23.21, 23.25): on the map, subject to panic, not yet panicked."""
    st = game.state
    cand = np.flatnonzero(subject_to_panic(game) & (st.unit_status & Status.ON_MAP).astype(bool)
                          & ((game.arr("flags") & Flag.PANICKED) == 0))
    return {int(x): int(st.unit_cell[x]) for x in cand}


def contagion(game: GweGame, snapshot: dict[int, int], retreated_from, paths,
              forbidden) -> None:
    """23.21-23.26 after a combat of the panic turn in which Austro-Hungarian units retreated
    from the hexes ``retreated_from`` along ``paths``.

    1. 23.21-23.22: every unit of ``snapshot`` (taken at the moment of combat) adjacent to one
       of those hexes, and not itself a defender of the combat, retreats one hex, before the
       Russian advance; a division first loses a step. The retreat may not enter the hexes of
       the Russian advance (``forbidden``: the vacated hexes and the retreat paths).
    2. 23.25: a unit not adjacent at the moment of combat in a hex into or through which an
       Austro-Hungarian unit retreats (in 1, or in 2 itself) retreats one hex, losing nothing.
    3. 23.26: each unit is panicked once only (``Flag.PANICKED``).
    """
    from gwe_fast.games.gwe.combat import lose_steps

    sc, st = game.scenario, game.state
    m, u = sc.map, sc.units
    src = {int(c) for c in retreated_from}
    near = set()
    for c in src:
        near.update(int(w) for w in m.neighbors[c] if w >= 0)
    flags = game.arr("flags")

    def live(x: int) -> bool:
        return bool(st.unit_status[x] & Status.ON_MAP) and not flags[x] & Flag.PANICKED

    # 1. contagion proper: units adjacent at the moment of combat, stack by stack
    groups: dict[int, list[int]] = {}
    for x, cell in snapshot.items():
        if cell in near and cell not in src and live(x) and int(st.unit_cell[x]) == cell:
            groups.setdefault(cell, []).append(x)
    queue: list[tuple[int, ...]] = []
    for cell in sorted(groups):
        stack = groups[cell]
        for x in stack:
            game.set_flag(x, Flag.PANICKED)
            if u.size[x] == _DIVISION:
                lose_steps(game, x, 1, "panic")                        # 23.21
        stack = [x for x in stack if st.unit_status[x] & Status.ON_MAP]
        game.event("panic_contagion", hex=cell, units=tuple(stack))
        path = _retreat_one(game, stack, forbidden)
        if path:
            queue.append(path)
    for p in paths:
        if p:
            queue.append(tuple(p))
    # 2. 23.25: units in hexes an Austro-Hungarian retreat passes into or through
    adjacent_then = {x for x, cell in snapshot.items() if cell in near}
    while queue:
        path = queue.pop(0)
        for c in path:
            here = [int(x) for x in units_in(game, c) if int(x) in snapshot
                    and int(x) not in adjacent_then and live(int(x))]
            if not here:
                continue
            for x in here:
                game.set_flag(x, Flag.PANICKED)
            game.event("panic_passed", hex=int(c), units=tuple(here))
            p2 = _retreat_one(game, here, forbidden)
            if p2:
                queue.append(p2)


def _retreat_one(game: GweGame, stack, forbidden):
    """One hex of panic retreat for a stack (23.21, 23.25), with the HQs of the hex when the
    stack is all the combat units there (10.53)."""
    from gwe_fast.games.gwe import retreat

    st, u = game.state, game.scenario.units
    if not stack:
        return None
    cell = int(st.unit_cell[stack[0]])
    here = units_in(game, cell)
    side = int(u.side[stack[0]])
    others = [int(x) for x in here if u.side[x] == side and u.utype[x] != _HQ
              and int(x) not in stack]
    hqs = [] if others else [int(x) for x in here if u.side[x] == side
                              and u.utype[x] == _HQ]
    return retreat.retreat_stack(game, stack, 1, followers=hqs, forbidden=forbidden,
                                 may_cross_zoc=frozenset(stack), cause="panic")
