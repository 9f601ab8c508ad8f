"""Command control and HQ units (10.0), with the Brusilov Offensive changes (21.0).

Radii, displacement paths and the union of radii are all the one bounded search kernel
(``scenario.map.k.search.bounded_search``) over step-cost arrays built with numpy.

What the engine calls, and when:

* ``command_segment(game, side, for_combat)``: the Command Control Segment of the Movement
  Phase (4.0 A1c) or of the Combat Phase (4.0 A3a). It sets ``Status.OUT_OF_COMMAND`` and
  ``Flag.OUT_OF_RADIUS`` on the side's units and clears them on the others; at the start of a
  Combat Phase it also forgets which HQs have lent their shift. ``clear_command`` removes the
  markers again (4.0 A1d).
* ``out_of_radius(game, side)``: units outside every friendly command radius, for 10.43's
  non-phasing units at the instant of combat. ``command_penalty`` applies 10.43 to a force.
* ``shift_hqs`` / ``choose_shifts`` (10.21-10.24) and ``defense_shift_hqs`` /
  ``choose_defense_shifts`` (21.1): the HQs that may shift one combat, the owner's pick, and
  the record that each HQ lends its shift once per Combat Phase (engine array
  ``hq_shift_used``).
* ``hq_combat_strength`` (10.23, 10.51, 10.53): what an HQ adds to a stack's attack/defense.
* ``displace_hq`` (10.52): call it when an enemy unit has entered (or retreated into or
  through) a hex holding only this HQ; it moves the HQ and returns True, or returns False when
  it cannot displace (the caller eliminates it).
* ``displace_lone_hqs(game, moving_side)``: call it after every move (ordinary or rail) of a
  unit of ``moving_side`` during that side's Movement Phase. Every HQ of the other side that
  is not stacked with a friendly combat unit and has an enemy combat unit adjacent displaces
  at once (10.52); one that cannot stays where it is.
* ``eliminate_hq_in_combat`` (10.53, 10.54): an HQ eliminated by combat; army HQs with a
  reverse side may flip and displace instead (``may_displace_instead_of_elimination``).

HQ units themselves are always in Command Control: they are the command, they spend no
Command Strength and are never marked (ruling on 10.35 in docs/rulings_command.md).
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import product

import numpy as np

from gwe_fast import dtypes, kernels
from gwe_fast.enums import Feature, Nationality, Side, Size, UnitType
from gwe_fast.game import picks_at_random
from gwe_fast.games.gwe import stacking
from gwe_fast.games.gwe import units as gwe_units
from gwe_fast.games.gwe.data import PROHIBITED, gwe_data
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.games.gwe.supply import (
    friendly_ground,
    in_supply,
    position_key,
    remembered,
    sources_alone,
)
from gwe_fast.games.gwe.zoc import controlled, occupied, on_map
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ALLIED = int(Side.ALLIED)
_ARMY = int(Size.ARMY)
_CENTRAL = int(Side.CENTRAL)

#: the engine whose ``COMPILED_RANDOM_MOVES`` hands a random player's allocation to a kernel
_ENGINE = "gwe_fast.games.gwe.engine"

# Exclusive rules of the Brusilov Offensive that change the standard command rules.
HQ_DEFENSIVE_SHIFT = True          # 21.1: HQs also shift enemy attacks to the left
RUSSIAN_FIRST_TURN_COMMAND = True  # 21.2: every Russian unit in command, first Combat Phase
DEPOTS_COMMANDED_BY_SUPPLY = True  # 21.3: a depot is in command iff it is in supply
JOINT_CENTRAL_COMMAND = True       # 21.4: German HQs command A-H units and vice versa (21.41)

NO_HQ = -1              #: the allocation option "apply no HQ's Command Strength to this unit"
ARMY_LEVEL, CORPS_LEVEL = 1, 0     #: command levels of 10.22

_HQ, _DEPOT = int(UnitType.HQ), int(UnitType.DEPOT)
_ON_MAP = int(Status.ON_MAP)
_AH = int(Nationality.AUSTRO_HUNGARIAN)

_REVERSE = re.compile(r"reverse side \(10\.54\):\s*(\d+)-(\d+)-(\d+)")


# --- HQ ratings -------------------------------------------------------------------------------

@lru_cache(maxsize=32)
def _reverse_ratings(scenario: Scenario) -> dict[int, tuple[int, int, int]]:
    """The printed reverse-side (shift, strength, radius) of the HQs that have one (10.54).

    The counter schema has no fields for them: the order of battle records them in each HQ's
    note as "reverse side (10.54): a-b-c shift-strength-radius". An HQ with a reverse side
    whose values were lost (German BH) takes the reduction of the one German reverse that
    survived (SA: 2-24-8 to 1-16-6): one shift less, two thirds of the strength (fractions
    dropped), two hexes less radius.
    """
    u = scenario.units
    raw = {d.get("id"): d for d in scenario.raw.get("counters", {}).get("unit", [])
           if isinstance(d, dict)}
    out = {}
    for i in np.flatnonzero((u.utype == _HQ) & (u.n_steps >= 2)):
        m = _REVERSE.search(str(raw.get(u.ids[i], {}).get("note", "")))
        if m:
            out[int(i)] = tuple(int(x) for x in m.groups())
        else:
            s, c, r = (int(u.extra[k][i]) for k in ("attack_shift", "command_strength",
                                                      "command_radius"))
            out[int(i)] = (max(0, s - 1), c * 2 // 3, max(0, r - 2))
    return out


def hq_ratings(game: GweGame, hq: int) -> tuple[int, int, int]:
    """The HQ's current (attack shift, command strength, command radius): the printed front,
    or the reduced reverse once it has flipped (10.54)."""
    front, back = _ratings(game.scenario)
    hq = int(hq)
    if back[hq] is not None and game.state.unit_step[hq] > 0:
        return back[hq]
    return front[hq]


@lru_cache(maxsize=32)
def _ratings(scenario: Scenario) -> tuple[list, list]:
    """``(front, back)``: per unit, the printed (shift, strength, radius), and the reverse
    side's (``_reverse_ratings``) or None, as plain lists (made once)."""
    u = scenario.units
    front = list(zip(*(u.extra[k].astype(np.int64).tolist()
                       for k in ("attack_shift", "command_strength", "command_radius"))))
    rev = _reverse_ratings(scenario)
    return front, [rev.get(i) for i in range(u.n)]


def command_level(game: GweGame, hq: int) -> int:
    """10.22: ARMY_LEVEL for army HQs (counter size ``army``), CORPS_LEVEL for the others
    (German HQ 10, X Corps)."""
    return ARMY_LEVEL if game.scenario.units.size[hq] == _ARMY else CORPS_LEVEL


def is_heroic(game: GweGame, hq: int) -> bool:
    """10.12: an "H" beside the Combat Strength (none in the Brusilov Offensive)."""
    return int(game.scenario.units.extra["heroic"][hq]) > 0


def _hqs(game: GweGame, side: int) -> np.ndarray:
    # the side's HQs on the map, ascending (int64)
    hqs = _side_hqs(game.scenario)[int(side)]
    return hqs[(game.state.unit_status[hqs] & _ON_MAP) != 0]


@lru_cache(maxsize=32)
def _side_hqs(scenario: Scenario) -> tuple[np.ndarray, np.ndarray]:
    """Each side's HQs, ascending (int64, read-only, made once)."""
    u = scenario.units
    out = tuple(np.flatnonzero((u.side == s) & (u.utype == _HQ)) for s in (0, 1))
    for a in out:
        a.flags.writeable = False
    return out


def may_command(game: GweGame, hq: int, unit: int) -> bool:
    """Whether this HQ may command this unit at all: any friendly HQ in the Brusilov
    Offensive (21.4); without 21.4, only HQs of the unit's own nationality."""
    u = game.scenario.units
    if u.side[hq] != u.side[unit]:
        return False
    return JOINT_CENTRAL_COMMAND or u.nationality[hq] == u.nationality[unit]


# --- 10.33, 10.34, 21.41: the command radius -------------------------------------------------

def _zoc_blocks_radius(scenario: Scenario, hq: int, unit_nationality: int | None) -> bool:
    """10.34: only TCR 1 HQs trace through enemy zones of control; 21.41: never for the
    command of Austro-Hungarian units by any Central Powers HQ."""
    if int(gwe_data(scenario).tcr[hq]) != 1:
        return True
    return (JOINT_CENTRAL_COMMAND and scenario.units.side[hq] == _CENTRAL
            and unit_nationality is not None
            and int(unit_nationality) == _AH)


@lru_cache(maxsize=32)
def _radius_stops(scenario: Scenario) -> tuple[list[bool], list[bool]]:
    """``(stopped, for_ah)``: ``_zoc_blocks_radius`` of each HQ (False for other units) for
    most units and for Austro-Hungarian units (21.41), as lists (made once)."""
    n = scenario.units.n
    hq = (scenario.units.utype == _HQ).tolist()
    return ([hq[h] and _zoc_blocks_radius(scenario, h, None) for h in range(n)],
            [hq[h] and _zoc_blocks_radius(scenario, h, _AH) for h in range(n)])


def radius_cells(game: GweGame, hq: int, unit_nationality: int | None = None) -> np.ndarray:
    """``bool[n_cells]``: the cells within the HQ's command radius (10.11 3, 10.33, 10.34).

    The radius is counted from the HQ's hex (exclusive) to the commanded unit's hex
    (inclusive), never into prohibited terrain, across a blocked hexside or into an
    enemy-occupied hex (a hex holding only enemy HQs included). An HQ of TCR 2-4 does not
    trace through an enemy-controlled hex, unless a friendly unit is in it (10.34); such a hex
    can still end the line, as a unit standing there negates the zone. With
    ``unit_nationality`` Austro-Hungarian, a Central Powers HQ of TCR 1 obeys the same
    restriction (21.41). All False when the HQ is not on the map.
    """
    if not game.state.unit_status[hq] & Status.ON_MAP:
        return np.zeros(game.scenario.map.n_cells, dtype=bool)
    return _radii(game, [int(hq)], [_zoc_blocks_radius(game.scenario, hq, unit_nationality)])[0]


def _radii(game: GweGame, hqs: list[int], stopped: list[bool]) -> np.ndarray:
    """``bool[len(hqs), n_cells]``: ``radius_cells`` of each of a side's HQs on the map,
    ``stopped[k]`` whether enemy zones of control stop HQ k's radius (one kernel call,
    ``gwe_command_radii``)."""
    sc, st = game.scenario, game.state
    m = sc.map
    out = np.zeros((len(hqs), m.n_cells), dtype=np.uint8)
    if not hqs:
        return out.view(bool)
    side = int(sc.units.side[hqs[0]])
    at = np.array(hqs, dtype=np.int64)
    table, front, back = _hq_radius_facts(sc)
    # hq_ratings' radius: the reverse side's once flipped (10.54)
    radius = np.where(st.unit_step[at] > 0, back[at], front[at])
    # one per hex, not into prohibited terrain nor across a blocked hexside, nor into the
    # enemy's hexes (closed by the kernel)
    open_zoc = controlled(sc, st, 1 - side)
    open_zoc &= ~occupied(sc, st, side)
    m.k.play.gwe_command_radii(
        kernels.workspace(m), _radius_tables(sc), occupied(sc, st, 1 - side).view(np.uint8),
        st.unit_cell[at], table[at], radius, np.array(stopped, dtype=np.uint8),
        open_zoc.view(np.uint8), out)
    return out.view(bool)


@lru_cache(maxsize=32)
def _hq_radius_facts(scenario: Scenario) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(table, front, back)`` per unit, int32: the step table of its TCR (TCR - 1) and
    ``hq_ratings``' command radius on its front and, once flipped, on its back (the front's
    for a unit without a reverse side). Read-only, made once."""
    front_r, back_r = _ratings(scenario)
    table = (gwe_data(scenario).tcr - 1).astype(np.int32)
    front = np.array([r[2] for r in front_r], dtype=np.int32)
    back = np.array([(b or f)[2] for f, b in zip(front_r, back_r)], dtype=np.int32)
    for a in (table, front, back):
        a.flags.writeable = False
    return table, front, back


@lru_cache(maxsize=32)
def _radius_costs(scenario) -> tuple[np.ndarray, np.ndarray]:
    """Per TCR: 1 to enter a hex its units may enter, else PROHIBITED; 0 to cross a hexside
    they may cross, else PROHIBITED (for ``board.step_costs``; made once, read-only)."""
    data = gwe_data(scenario)
    enter = np.where(data.enter_cost >= 0, 1, PROHIBITED).astype(dtypes.STEPCOST)
    sides = np.where(data.side_add >= 0, 0, PROHIBITED).astype(dtypes.STEPCOST)
    enter.flags.writeable = sides.flags.writeable = False
    return enter, sides


@lru_cache(maxsize=32)
def _radius_tables(scenario) -> np.ndarray:
    """``int16[tcr, n_cells, 6]``: per TCR, 1 to step into a hex its units may enter across
    a hexside they may cross, -1 otherwise (read-only, made once; the radius kernel closes
    the enemy's hexes)."""
    m = scenario.map
    enter, sides = _radius_costs(scenario)
    out = np.stack([m.k.board.step_costs(m.neighbors, enter[t], sides[t])
                    for t in range(len(enter))])
    out.flags.writeable = False
    return out


class _Radii:
    """Every HQ of a side with its radius, computed once for one position: ``plain[k]`` for
    most units, ``ah[k]`` for Austro-Hungarian units (21.41; the same array unless the HQ is
    a Central Powers HQ of TCR 1)."""

    def __init__(self, game: GweGame, side: int):
        self.game = game
        # the engine and the policies ask for the same position many times (every attack's
        # HQ shifts, every command plan): kept by position, as the supply answers are, with
        # the HQs' steps (10.54: a flipped HQ's radius)
        st = game.state
        self.hqs, self.plain, self.ah = remembered(
            game.scenario,
            ("radii", position_key(st, side, game.scenario), st.unit_step.tobytes()),
            lambda: self._make(game, side))

    @staticmethod
    def _make(game: GweGame, side: int) -> tuple[list[int], np.ndarray, np.ndarray]:
        hqs = _hqs(game, side).tolist()
        stops, stops_ah = _radius_stops(game.scenario)
        stopped = [stops[h] for h in hqs]
        for_ah = [stops_ah[h] for h in hqs]
        other = [k for k in range(len(hqs)) if for_ah[k] != stopped[k]]
        # one kernel call: every HQ's radius, then again for those 21.41 restricts
        both = _radii(game, hqs + [hqs[k] for k in other],
                      stopped + [for_ah[k] for k in other])
        plain = ah = both[:len(hqs)]
        if other:
            ah = plain.copy()
            ah[other] = both[len(hqs):]
        plain.flags.writeable = ah.flags.writeable = False
        return hqs, plain, ah

    def cover(self, units: np.ndarray) -> np.ndarray:
        """``bool[len(units), n_hqs]``: unit i stands within HQ k's radius and HQ k may
        command it (21.4)."""
        g = self.game
        u = g.scenario.units
        units = np.asarray(units, dtype=np.int64)
        cells = g.state.unit_cell[units]
        out = self.plain[:, cells].T
        if self.ah is not self.plain:
            is_ah = u.nationality[units] == _AH
            if is_ah.any():
                out = np.where(is_ah[:, None], self.ah[:, cells].T, out)
        out = np.ascontiguousarray(out)
        if not JOINT_CENTRAL_COMMAND and self.hqs:               # see may_command
            out &= u.nationality[units][:, None] == u.nationality[self.hqs][None, :]
        return out


def out_of_radius(game: GweGame, side: int) -> np.ndarray:
    """``bool[n_units]``: the side's units on the map outside the command radius of every
    friendly HQ (10.42, 10.43). HQs are never out of radius (10.35 ruling); a supply depot is
    out of radius exactly when it is out of supply (21.3). Other entries are False."""
    return _outside(game, side, np.arange(game.scenario.units.n))


def command_penalty(game: GweGame, units, phasing: bool) -> np.ndarray:
    """10.43: for each of ``units`` (at the instant of combat), whether it is a unit of TCR
    3 or 4 that is out of Command Control (phasing units: its ``OUT_OF_COMMAND`` status) or
    out of every friendly command radius (non-phasing units). The combat procedure adds one
    to that force's result when any of its units qualifies."""
    units = np.asarray(list(units), dtype=np.int64)
    out = np.zeros(units.size, dtype=bool)
    if units.size == 0:
        return out
    sc, st = game.scenario, game.state
    poor = game.data.tcr[units] >= 3
    if not poor.any():
        return out                 # no unit of TCR 3-4: no penalty whatever the command
    if phasing:
        ooc = (st.unit_status[units] & Status.OUT_OF_COMMAND).astype(bool)
    else:
        side = int(sc.units.side[units[0]])
        ooc = np.zeros(units.size, dtype=bool)
        ooc[poor] = _outside(game, side, units[poor])       # out_of_radius, for these alone
    return poor & ooc


def _outside(game: GweGame, side: int, units: np.ndarray) -> np.ndarray:
    """``out_of_radius(game, side)[units]``, worked out for ``units`` alone (each unit's
    answer is its own): a depot's supply is traced only when a depot is asked, the radii only
    when another unit is. ``out_of_radius`` is this for every unit."""
    sc, st = game.scenario, game.state
    u = sc.units
    out = np.zeros(units.size, dtype=bool)
    mine = (((st.unit_status[units] & _ON_MAP) != 0) & (u.side[units] == side)
            & (u.utype[units] != _HQ))
    if not mine.any():
        return out
    depots = mine & (u.utype[units] == _DEPOT) if DEPOTS_COMMANDED_BY_SUPPLY else \
        np.zeros(units.size, dtype=bool)
    if depots.any():
        out[depots] = ~in_supply(sc, st, side)[units[depots]]
    rest = mine & ~depots
    if rest.any():
        out[rest] = ~_Radii(game, side).cover(units[rest]).any(axis=1)
    return out


# --- 10.3, 10.4, 21.2, 21.3: the Command Control Segment ------------------------------------

def command_segment(game: GweGame, side: int, for_combat: bool) -> None:
    """The Command Control Segment of the Movement Phase (``for_combat=False``) or of the
    Combat Phase (``for_combat=True``) for the phasing ``side``.

    1. HQs are in command. Supply depots are in command exactly when in supply (21.3).
    2. Every other unit within the radius of a friendly HQ that may command it may be placed
       under one such HQ with Command Strength (stacking points) left: the owner is asked,
       unit by unit in counter order, which HQ (``"gwe.command.allocate"``, options: the HQs
       with enough strength left, then ``NO_HQ``). With the option ``unlimited_command``
       (10.32) every unit within a radius is in command without asking.
    3. Each remaining unit rolls one die (stream ``command``): above its TCR it is in command
       and spends no strength (10.41). In the Combat Phase units outside every radius do not
       roll (10.42).
    4. ``Status.OUT_OF_COMMAND`` is set on the units not in command and cleared on the rest;
       ``Flag.OUT_OF_RADIUS`` likewise for units outside every radius.

    In the Russian Combat Phase of the scenario's first Game-Turn every Russian unit is in
    command (21.2). A Combat Phase segment also starts the phase's record of HQ shifts.
    The compiled core plays it when the game has one and no policy of Python's must allocate
    (``GweGame.core``).
    """
    core = game.core
    if core is not None and core.command_segment(side, for_combat):
        return
    sc, st = game.scenario, game.state
    u = sc.units
    if for_combat:
        game.arr("hq_shift_used")[:] = 0          # 10.11 1, 21.13: once per Combat Phase
    mine = (on_map(st) & (u.side == side)).nonzero()[0]
    in_cmd = np.zeros(u.n, dtype=bool)
    far = np.zeros(u.n, dtype=bool)
    hq = u.utype == _HQ
    in_cmd[mine[hq[mine]]] = True
    first_turn = (RUSSIAN_FIRST_TURN_COMMAND and for_combat and side == _ALLIED
                  and int(st.turn) == sc.first_turn)
    if first_turn:                                                  # 21.2
        in_cmd[mine] = True
    else:
        rest = mine[~hq[mine]]
        if DEPOTS_COMMANDED_BY_SUPPLY:                              # 21.3
            depot = u.utype[rest] == _DEPOT
            if depot.any():
                # a depot is in supply as its chain says: the sources alone are worked out,
                # but for the combat that follows, which reads the whole of the supply
                if for_combat:
                    ok = in_supply(sc, st, side)
                else:
                    ok = sources_alone(sc, st, side)[1]
                depots = rest[depot]
                in_cmd[depots] = ok[depots]
                far[depots] = ~ok[depots]
            rest = rest[~depot]
        rest = rest.tolist()
        radii = _Radii(game, side) if rest else None
        unlimited = bool(sc.options.get("unlimited_command", False))   # 10.32 optional
        left = {h: hq_ratings(game, h)[1] for h in radii.hqs} if rest else {}
        unallocated = []
        if rest and not unlimited and picks_at_random(game, side, _ENGINE):
            unallocated = _random_allocation(game, side, rest, radii, left, in_cmd, far)
            rest = []
        # which HQs' radii hold each unit, as Python values (asked unit by unit)
        cover = radii.cover(np.array(rest, dtype=np.int64)).tolist() if rest else None
        stacking = u.stacking[rest].tolist() if rest else None
        for k, i in enumerate(rest):
            hqs = [h for h, ok in zip(radii.hqs, cover[k]) if ok]
            if not hqs:
                far[i] = True
                unallocated.append(i)
                continue
            if unlimited:
                in_cmd[i] = True
                continue
            sp = int(stacking[k])
            options = [h for h in hqs if left[h] >= sp] + [NO_HQ]
            pick = game.ask("gwe.command.allocate", side, options, unit=i,
                            for_combat=for_combat, strength_left=dict(left))
            if pick == NO_HQ:
                unallocated.append(i)
            else:
                left[pick] -= sp
                in_cmd[i] = True
        tcr = game.data.tcr
        for i in unallocated:                                       # 10.41, 10.42
            if for_combat and far[i]:
                continue
            if game.roll("command", f"10.41 {u.ids[i]}") > int(tcr[i]):
                in_cmd[i] = True
    _mark(game, mine, in_cmd, far)


def _random_allocation(game: GweGame, side: int, rest: list[int], radii: _Radii,
                       left: dict[int, int], in_cmd: np.ndarray, far: np.ndarray) -> list[int]:
    """Step 2 of ``command_segment`` for a random player, by the kernel
    ``gwe_random_allocation``: the same options and draws as asking unit by unit, the
    choices logged as ``PlayedGame.ask`` logs them (``left``, each HQ's strength at the
    start, is not changed: nothing reads it after step 2). Returns the units left
    unallocated."""
    u = game.scenario.units
    units = np.array(rest, dtype=np.int64)
    strength = np.array([left[h] for h in radii.hqs], dtype=np.int32)
    status = np.empty(units.size, dtype=np.int8)
    picks = np.empty((units.size, 2), dtype=np.int32)
    play = game.scenario.map.k.play
    n = play.gwe_random_allocation(game.rngs[side], radii.cover(units).view(np.uint8),
                                   u.stacking[units].astype(np.int32), strength, status, picks)
    if game.events is not None:
        turn = int(game.state.turn)
        game.events.extend(("choice", turn, "gwe.command.allocate", int(side), p)
                           for _, p in picks[:n].tolist())
    in_cmd[units[status == play.ALLOCATED]] = True
    far[units[status == play.FAR]] = True
    return units[status != play.ALLOCATED].tolist()


def _mark(game: GweGame, mine: np.ndarray, in_cmd: np.ndarray, far: np.ndarray) -> None:
    st = game.state
    flags = game.arr("flags")
    ooc = np.uint16(Status.OUT_OF_COMMAND)
    bit = np.uint16(Flag.OUT_OF_RADIUS)
    out = mine[~in_cmd[mine]]
    st.unit_status[mine] &= ~ooc
    flags[mine] &= ~bit
    st.unit_status[out] |= ooc
    flags[mine[far[mine]]] |= bit
    if game.events is not None:
        for i in out.tolist():
            game.event("out_of_command", unit=i, out_of_radius=bool(far[i]))


def clear_command(game: GweGame, side: int) -> None:
    """Remove the side's Out of Command Control markers (4.0 A1d) and radius flags."""
    mine = game.scenario.units.side == side
    game.state.unit_status[mine] &= ~np.uint16(Status.OUT_OF_COMMAND)
    game.arr("flags")[mine] &= ~np.uint16(Flag.OUT_OF_RADIUS)


# --- 10.2, 21.1: shifts ----------------------------------------------------------------------

def _counted_steps(game: GweGame, force) -> dict[int, int]:
    """Steps of a force that count for 10.21: not HQs, not depots."""
    u = game.scenario.units
    return {int(a): gwe_units.steps_left(game, int(a)) for a in force
            if u.utype[a] not in (_HQ, _DEPOT)}


def _eligible(game: GweGame, side: int, force, engaged_flag: int) -> list[tuple[int, int]]:
    """HQs of ``side`` whose radius holds at least half the force's counted steps (10.21),
    that have a shift and have not used it this Combat Phase (10.11 1); a heroic leader that
    lends its strength to another combat of this phase may not shift this one (10.24)."""
    steps = _counted_steps(game, force)
    total = sum(steps.values())
    if total == 0:
        return []
    used = game.arr("hq_shift_used")
    shifting = [h for h in _hqs(game, side).tolist()
                if hq_ratings(game, h)[0] > 0 and not used[h]]
    if not shifting or not any(_may_hold_half(game, h, steps, total) for h in shifting):
        return []
    radii = _Radii(game, side)
    force_set = {int(a) for a in force}
    counted = np.array(list(steps), dtype=np.int64)
    n_steps = np.array([steps[a] for a in steps], dtype=np.int64)
    inside = n_steps @ radii.cover(counted)           # counted steps within each HQ's radius
    out = []
    for k, h in enumerate(radii.hqs):
        shift = hq_ratings(game, h)[0]
        if shift <= 0 or used[h]:
            continue
        if is_heroic(game, h) and game.flag(h, engaged_flag) and h not in force_set:
            continue                                                # 10.24
        if 2 * int(inside[k]) >= total:
            out.append((h, shift))
    return out


def _may_hold_half(game: GweGame, hq: int, steps: dict[int, int], total: int) -> bool:
    """Whether the HQ's radius could hold half the force's counted ``steps`` (``total``): it
    holds no unit farther from the HQ than its radius, each step of a radius being one hex.
    (When no HQ could, ``_eligible`` traces no radius.)"""
    q, r = _axial(game.scenario)
    _, front, back = _hq_radius_facts(game.scenario)
    st = game.state
    radius = int(back[hq] if st.unit_step[hq] > 0 else front[hq])
    h = int(st.unit_cell[hq])
    near = 0
    for unit, n in steps.items():
        c = int(st.unit_cell[unit])
        dq, dr = q[c] - q[h], r[c] - r[h]
        if (abs(dq) + abs(dr) + abs(dq + dr)) // 2 <= radius:       # hexgrid.hex_distance
            near += n
    return 2 * near >= total


@lru_cache(maxsize=32)
def _axial(scenario: Scenario) -> tuple[list[int], list[int]]:
    """Each cell's axial coordinates (``HexMap.q``, ``HexMap.r``) as lists, made once."""
    return scenario.map.q.tolist(), scenario.map.r.tolist()


def shift_hqs(game: GweGame, attackers: list[int], defender_cells: list[int]
              ) -> list[tuple[int, int]]:
    """The attacking side's HQs that may lend their attack shift to this attack, as
    ``(hq, shift)``: 10.21 (at least half the attacking steps, HQs and depots excepted,
    within the HQ's radius), once per Combat Phase (10.11 1), 10.24 for heroic leaders.
    10.22 (one shift per command level) limits the *combinations*: see ``choose_shifts``."""
    if not len(attackers):
        return []
    side = int(game.scenario.units.side[attackers[0]])
    return _eligible(game, side, attackers, Flag.ATTACKED)


def defense_shift_hqs(game: GweGame, defender_units: list[int]) -> list[tuple[int, int]]:
    """21.1: the defending side's HQs that may shift this attack to the left, as
    ``(hq, shift)``, under the same restrictions as the attack shift (21.13)."""
    if not HQ_DEFENSIVE_SHIFT or not len(defender_units):
        return []
    side = int(game.scenario.units.side[defender_units[0]])
    return _eligible(game, side, defender_units, Flag.DEFENDED)


def _shift_options(game: GweGame, eligible: list[tuple[int, int]]) -> list[tuple[int, ...]]:
    """Every legal set of HQs: at most one per command level (10.22), none included."""
    levels: dict[int, list[int]] = {ARMY_LEVEL: [], CORPS_LEVEL: []}
    for h, _ in eligible:
        levels[command_level(game, h)].append(h)
    out = []
    for a, c in product([None] + levels[ARMY_LEVEL], [None] + levels[CORPS_LEVEL]):
        out.append(tuple(h for h in (a, c) if h is not None))
    return out


def _choose(game: GweGame, side: int, eligible, kind: str, **context) -> int:
    shifts = dict(eligible)
    options = _shift_options(game, eligible)
    pick = game.ask(kind, side, options, **context)
    used = game.arr("hq_shift_used")
    for h in pick:
        used[h] = 1
        game.event("hq_shift", hq=h, shift=shifts[h], what=kind)
    return sum(shifts[h] for h in pick)


def choose_shifts(game: GweGame, side: int, attackers: list[int], defender_cells: list[int]
                  ) -> int:
    """The attacker picks which eligible HQs lend their shift (``"gwe.combat.attack_shift"``,
    options: tuples of HQs, at most one army-level and one corps-level, the empty tuple
    first); the picks are recorded as used for this Combat Phase. Returns the total number
    of columns to shift right."""
    eligible = shift_hqs(game, attackers, defender_cells)
    if not eligible:
        return 0
    return _choose(game, side, eligible, "gwe.combat.attack_shift",
                   attackers=tuple(attackers), defender_cells=tuple(defender_cells))


def choose_defense_shifts(game: GweGame, side: int, defender_units: list[int]) -> int:
    """21.1: the defender picks which eligible HQs lend their defensive shift
    (``"gwe.combat.defense_shift"``, options as in ``choose_shifts``). Returns the total
    number of columns to shift left."""
    eligible = defense_shift_hqs(game, defender_units)
    if not eligible:
        return 0
    return _choose(game, side, eligible, "gwe.combat.defense_shift",
                   defenders=tuple(defender_units))


# --- 10.23, 10.51, 10.53: HQ combat strength --------------------------------------------------

def hq_combat_strength(game: GweGame, hq: int, attacking: bool, stack_cell: int) -> int:
    """What the HQ adds to its stack in ``stack_cell``: its full Combat Strength (the
    counter's ``combat``) when stacked with two or more stacking points of friendly combat
    units (depots are combat units, 8.51; units that retreated into the hex this phase do not
    defend, 8.66), else 0. Normal HQs never attack (8.12, 10.51); heroic leaders attack and
    defend (10.23). Never halved for supply (10.51) nor for being entrained (10.35)."""
    sc = game.scenario
    u = sc.units
    if attacking and not is_heroic(game, hq):
        return 0
    here = gwe_units.units_in(game, stack_cell)
    here = here[(u.side[here] == u.side[hq]) & (u.utype[here] != _HQ)]
    if not attacking:
        flags = game.arr("flags")
        here = here[(flags[here] & Flag.RETREATED_IN) == 0]
    if int(u.stacking[here].sum()) < 2:
        return 0
    return int(u.extra["combat"][hq])


# --- 10.52, 10.54: displacement ---------------------------------------------------------------

def _combat_units_at(game: GweGame, cell: int, side: int) -> np.ndarray:
    u = game.scenario.units
    here = gwe_units.units_in(game, cell)
    return here[(u.side[here] == side) & (u.utype[here] != _HQ)]


def displacement_targets(game: GweGame, hq: int) -> list[int]:
    """The hexes the HQ may displace to (10.52): the nearest hexes, by the length of a
    displacement path, holding a friendly combat unit (or a fortress on its side of the
    start line with no enemy unit) with room for it under the stacking limit. The path never
    enters an enemy-occupied hex (a hex holding only enemy HQs does not block it, as for
    retreat), prohibited terrain or a blocked hexside; an HQ of TCR 2-4 never enters an
    enemy-controlled hex unless a friendly unit is in it. Empty when the HQ is stacked with
    friendly combat units (it may never displace) or no target can be reached."""
    sc, st, data = game.scenario, game.state, game.data
    m, u = sc.map, sc.units
    if not st.unit_status[hq] & Status.ON_MAP:
        return []
    side = int(u.side[hq])
    here = int(st.unit_cell[hq])
    if _combat_units_at(game, here, side).size:
        return []
    t = int(data.tcr[hq]) - 1
    nb = m.neighbors
    v = np.maximum(nb, 0)
    enemy_here = occupied(sc, st, 1 - side, hq_only_counts=False)
    ok = (nb >= 0) & (data.side_add[t] >= 0) & (data.enter_cost[t][v] >= 0) & ~enemy_here[v]
    if int(data.tcr[hq]) != 1:
        open_zoc = controlled(sc, st, 1 - side) & ~occupied(sc, st, side)
        ok &= ~open_zoc[v]
    cost = np.where(ok, 1, PROHIBITED).astype(dtypes.STEPCOST)
    dist = m.k.search.bounded_search(nb, cost, [here])[0][0]
    friendly = occupied(sc, st, side, hq_only_counts=False)
    fortress = ((m.features & Feature.FORTRESS).astype(bool) & friendly_ground(sc, side)
                & ~occupied(sc, st, 1 - side))
    target = (friendly | fortress) & (dist > 0)
    cells = np.flatnonzero(target)
    if cells.size == 0:
        return []
    limit, sp = game.data.stack_limit, int(u.stacking[hq])
    points = stacking.points_in_hexes(game)
    cells = [int(c) for c in cells.tolist() if points[c] + sp <= limit]
    if not cells:
        return []
    best = min(int(dist[c]) for c in cells)
    return [c for c in cells if int(dist[c]) == best]


def displace_hq(game: GweGame, hq: int) -> bool:
    """Displace the HQ to the nearest friendly unit (10.52); the owner picks among equally
    near hexes (``"gwe.hq.displace_to"``). False, and nothing moves, when it cannot: the
    caller then eliminates it."""
    targets = displacement_targets(game, hq)
    if not targets:
        return False
    side = int(game.scenario.units.side[hq])
    to = game.ask("gwe.hq.displace_to", side, targets, hq=int(hq))
    frm = int(game.state.unit_cell[hq])
    game.state.unit_cell[hq] = to
    game.state.hex_last[to] = side
    game.event("hq_displaced", unit=int(hq), frm=frm, to=int(to))
    return True


def displace_lone_hqs(game: GweGame, moving_side: int) -> list[tuple[int, bool]]:
    """10.52: every HQ of the side not moving that is not stacked with a friendly combat unit
    and has an enemy combat unit (not an HQ) in an adjacent hex displaces now. Returns
    ``(hq, displaced)`` for each such HQ; one that cannot displace stays where it is. The
    compiled core plays it when the HQs' owner picks at random (``GweCore``)."""
    core = game.core
    if core is not None:
        done = core.displace_lone_hqs(int(moving_side))
        if done is not None:
            return done
    sc, st = game.scenario, game.state
    m = sc.map
    other = 1 - int(moving_side)
    hqs = _hqs(game, other)
    if hqs.size == 0:
        return []
    enemy = occupied(sc, st, int(moving_side), hq_only_counts=False)
    nb = m.neighbors[st.unit_cell[hqs]]
    threatened = ((nb >= 0) & enemy[np.maximum(nb, 0)]).any(axis=1)
    if not threatened.any():
        return []
    guarded = occupied(sc, st, other, hq_only_counts=False)
    out = []
    for h in hqs[threatened]:
        h = int(h)
        if guarded[int(st.unit_cell[h])]:
            continue
        out.append((h, displace_hq(game, h)))
    return out


def may_displace_instead_of_elimination(game: GweGame, hq: int) -> bool:
    """10.54: an HQ eliminated as a result of combat that has an unused reverse side (the
    second ``steps`` row of the counter: the army-level HQs) may flip and displace instead,
    if it can displace (10.52)."""
    u = game.scenario.units
    return (u.utype[hq] == _HQ and int(u.n_steps[hq]) >= 2
            and int(game.state.unit_step[hq]) == 0 and bool(displacement_targets(game, hq)))


def _hq_vp(game: GweGame, side: int) -> tuple[str, int]:
    cause = ("central_powers_hq_eliminated" if side == _CENTRAL
             else "russian_hq_eliminated")
    for row in game.scenario.tables["vp_schedule"]["row"]:
        if row["cause"] == cause:
            return cause, int(row["vp"])
    raise KeyError(f"vp_schedule has no row {cause!r}")


def eliminate_hq_in_combat(game: GweGame, hq: int, surrounded: bool = False) -> bool:
    """An HQ eliminated as a result of combat (10.53). When 10.54 allows, the owner chooses
    (``"gwe.hq.reverse_side"``, options True/False) to flip it to its reverse side and
    displace it instead: the enemy still scores the HQ's victory points (25.2), the flip is
    booked as a step lost in combat. Returns True if the HQ survived on its reverse side.
    Call it after the friendly combat units of the HQ's hex have been removed (an HQ stacked
    with friendly combat units may never displace, 10.52)."""
    side = int(game.scenario.units.side[hq])
    if may_displace_instead_of_elimination(game, hq) and game.ask(
            "gwe.hq.reverse_side", side, [True, False], hq=int(hq)):
        gwe_units.lose_steps(game, hq, 1, "combat")
        game.add_vp(*_hq_vp(game, side))
        displace_hq(game, hq)
        return True
    gwe_units.eliminate(game, hq, "combat", surrounded=surrounded)
    return False
