"""Step replacement (13.0; Brusilov 22.0, 22.11-22.21, 26.24) and armored car repair (24.43).

In his Step Replacement Phase (4.0 A4) the phasing player may roll for any or all of his
units (22.0) that have lost steps and meet every condition:

1. no enemy unit within ``ENEMY_DISTANCE`` hexes: 22.0 "not adjacent to any enemy units"
   (13.0 1 leaves the distance to the exclusive rules);
2. in supply now (22.0);
3. no part in combat, attacking or defending, during the preceding Game-Turn (13.0 2, 22.0):
   ``Flag.IN_COMBAT_LAST_TURN``, which combat sets on every unit that attacks or defends and
   this phase clears on the side's units when it ends, so that it covers the Game-Turn's
   worth of play since the side's previous Step Replacement Phase (also ``Flag.ATTACKED`` and
   ``Flag.DEFENDED`` of the Combat Phase just played);
4. not moved in the Movement Phase of this Game-Turn (13.0 3, 22.0): ``Flag.MOVED``.

A division that has lost one step and a corps that has lost one or two (any unit that has
lost no more than half its steps) are eligible; cavalry, depots and HQs never are (13.0).
One die per unit from the ``replacement`` stream; a roll listed for the unit's nationality
and the Game-Turn in ``step_replacement_<nationality>`` (``..._attack_on_schedule`` in that
scenario, 26.24) returns it to full strength (13.0). The broken-down armored car is repaired
in the same way on the Russian table (24.43).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import Nationality, UnitType
from gwe_fast.games.gwe import supply
from gwe_fast.games.gwe.data import NATIONALITY_KEYS
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.games.gwe.retreat import _one_per_hex
from gwe_fast.games.gwe.zoc import occupied
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ARMORED_CAR = int(UnitType.ARMORED_CAR)

#: 22.0: "provided the unit is not adjacent to any enemy units"
ENEMY_DISTANCE = 1
#: 26.24: the Attack on Schedule scenario (case 26.2) has its own tables
ATTACK_ON_SCHEDULE_CASE = "26.2"
ATTACK_ON_SCHEDULE_SUFFIX = "_attack_on_schedule"

NOT_ELIGIBLE = (UnitType.CAVALRY, UnitType.DEPOT, UnitType.HQ)          # 13.0
COMBAT_FLAGS = Flag.IN_COMBAT_LAST_TURN | Flag.ATTACKED | Flag.DEFENDED


def is_attack_on_schedule(scenario: Scenario) -> bool:
    """The scenario is Attack on Schedule (26.2): its scenario file gives case 26.2, or it is
    the bundled ``…/attack_on_schedule``."""
    case = str(scenario.raw.get("scenario", {}).get("scenario", {}).get("case", ""))
    return case == ATTACK_ON_SCHEDULE_CASE or scenario.key.endswith("attack_on_schedule")


def replacement_table(scenario: Scenario, nationality: int) -> dict:
    """The step replacement table of a nationality in this scenario: 22.11, 22.12, 22.21, or
    the Attack on Schedule tables of 26.24 when the scenario has one for that nationality
    (26.24 gives none for the Germans: 22.12 holds "throughout the game")."""
    key = f"step_replacement_{NATIONALITY_KEYS[Nationality(nationality)]}"
    tables = scenario.tables
    if is_attack_on_schedule(scenario) and key + ATTACK_ON_SCHEDULE_SUFFIX in tables:
        key += ATTACK_ON_SCHEDULE_SUFFIX
    return tables[key]


def replacement_rolls(scenario: Scenario, nationality: int, turn: int) -> tuple[int, ...]:
    """The die rolls that replace steps on ``turn`` ("Not Allowed" is the empty tuple)."""
    for band in replacement_table(scenario, nationality)["band"]:
        if band["first_turn"] <= turn <= band.get("last_turn", turn):
            return tuple(int(r) for r in band["rolls"])
    return ()


def _repairable(game: GweGame) -> np.ndarray:
    """``bool[n_units]``: units with something to replace: a division or corps that has lost
    no more than half its steps (13.0), or a broken-down armored car (24.43)."""
    kinds, half, car = _replaceable_kinds(game.scenario)
    lost = game.state.unit_step
    steps = kinds & (lost > 0) & (lost <= half)
    return steps | (car & ((game.arr("flags") & Flag.BROKEN_DOWN) != 0))


@lru_cache(maxsize=32)
def _replaceable_kinds(scenario: Scenario) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(kinds, half, car)`` of ``_repairable``, per unit (read-only, made once): the kinds
    whose steps may be replaced (13.0: not cavalry, depots, HQs, nor the armored car), half
    the unit's steps, and the armored cars (24.43)."""
    u = scenario.units
    kinds = ~np.isin(u.utype, NOT_ELIGIBLE) & (u.utype != _ARMORED_CAR)
    half = (u.n_steps // 2).astype(np.int32)
    car = u.utype == _ARMORED_CAR
    for a in (kinds, half, car):
        a.flags.writeable = False
    return kinds, half, car


def near_enemy(game: GweGame, side: int, distance: int = ENEMY_DISTANCE) -> np.ndarray:
    """``bool[n_cells]``: hexes within ``distance`` hexes of an enemy unit (any unit, HQs and
    depots included; hexes are counted across any hexside)."""
    sc, st = game.scenario, game.state
    m = sc.map
    enemy = np.flatnonzero(occupied(sc, st, 1 - side)).astype(dtypes.CELL)
    if enemy.size == 0:
        return np.zeros(m.n_cells, dtype=bool)
    return m.k.search.bounded_search(m.neighbors, _one_per_hex(m), enemy,
                                     limit=distance)[0][0] >= 0


def eligible(game: GweGame, side: int) -> list[int]:
    """Units of ``side`` that may roll for replacement now (13.0 1-3, 22.0), ascending."""
    sc, st = game.scenario, game.state
    u = sc.units
    flags = game.arr("flags")
    ok = ((st.unit_status & Status.ON_MAP).astype(bool) & (u.side == side) & _repairable(game)
          & ~(flags & COMBAT_FLAGS).astype(bool) & ~(flags & Flag.MOVED).astype(bool))
    if not ok.any():
        return []
    ok &= ~near_enemy(game, side)[np.maximum(st.unit_cell, 0)]
    ok &= supply.in_supply(sc, st, side)
    turn = int(st.turn)
    return [int(i) for i in np.flatnonzero(ok)
            if replacement_rolls(sc, int(u.nationality[i]), turn)]


def replacement_phase(game: GweGame, side: int) -> None:
    """The Step Replacement Phase (4.0 A4) of ``side``: for each eligible unit in turn the
    owner decides whether to roll (decision ``gwe.replacement.attempt``, options True/False,
    22.0 "any or all of his units"); a successful roll restores the unit to full strength or
    repairs the armored car. At the end ``Flag.IN_COMBAT_LAST_TURN`` is cleared on the side's
    units: the next phase looks only at the combat that follows this one. The compiled core
    plays it when the game has one and the player picks at random (``GweGame.core``)."""
    core = game.core
    if core is not None and core.replacement_phase(side):
        return
    sc, st = game.scenario, game.state
    u = sc.units
    for unit in eligible(game, side):
        if not game.ask("gwe.replacement.attempt", side, (True, False), unit=unit):
            continue
        rolls = replacement_rolls(sc, int(u.nationality[unit]), int(st.turn))
        die = game.roll("replacement", f"13.0 {u.ids[unit]}")
        if die not in rolls:
            game.event("replacement_failed", unit=unit, die=die)
            continue
        if u.utype[unit] == _ARMORED_CAR:
            game.set_flag(unit, Flag.BROKEN_DOWN, False)                     # 24.43
        else:
            st.unit_step[unit] = 0                                             # 13.0
        game.event("replacement", unit=unit, die=die)
    flags = game.arr("flags")
    flags[u.side == side] &= ~np.uint16(Flag.IN_COMBAT_LAST_TURN)
