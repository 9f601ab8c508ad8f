"""Railroad movement (5.3, 18.2, 18.3) and the other checks of the Movement Phase that are not
ordinary movement: the Russian opening turn (18.1), reduced Austro-Hungarian units (23.52-23.53)
and the armored car's breakdown and repair (24.42-24.43).

The lead's movement loop offers each unit "move normally / entrain / move by rail / detrain";
every function here checks its own legality and raises ``IllegalChoice`` when called illegally.

What is kept in the state:

* ``Status.ENTRAINED``: the unit carries an Entrained marker (5.32) until it detrains.
* ``rail_used[side]``: Stacking Points counted toward the side's Rail Capacity this Movement
  Phase (5.31, 18.21-18.23, 20.11); ``Flag.RAIL_COUNTED`` marks the units counted, so a unit
  counts once whatever it does. HQ units never count (5.31).
* ``rail_hexes[unit]``: hexes moved by rail this Game-Turn, against the Railroad Movement Rate.
* ``track_used[cell, direction, line]``: Stacking Points moved across each rail line of each
  hexside this Movement Phase (18.3), kept on both faces of the hexside.
* ``Flag.USED_RAIL``: moved by rail this Movement Phase (5.34: only TCR 1 units may attack in
  the Combat Phase that follows).
* ``rail_turn[side]``: the Game-Turn these counts belong to. The first rail or reinforcement
  call of a side in a new Game-Turn resets them (``start_rail_phase``), so the movement loop
  need not remember to.

All searches are the one kernel (``bounded_search``) on a step-cost array built with numpy.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import Hexside, Nationality, Side, UnitType
from gwe_fast.games.gwe import movement
from gwe_fast.games.gwe import units as unit_ops
from gwe_fast.games.gwe.data import PROHIBITED, gwe_data
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.games.gwe.supply import friendly_ground, position_key, remembered
from gwe_fast.games.gwe.zoc import controlled, occupied
from gwe_fast.policies.base import IllegalChoice
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State, Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ALLIED = int(Side.ALLIED)
_ARMORED_CAR = int(UnitType.ARMORED_CAR)
_AUSTRO_HUNGARIAN = int(Nationality.AUSTRO_HUNGARIAN)
_HQ = int(UnitType.HQ)

SIDE_KEYS = {Side.ALLIED: "russian", Side.CENTRAL: "central_powers"}



# ------------------------------------------------------------------------------------------
# scenario-level lookups (numbers from tables.toml)
# ------------------------------------------------------------------------------------------
def option_effect(scenario: Scenario, rule: str, key: str):
    """A number of ``option_vp_costs`` (26.31-26.34): the effect ``key`` of the option ``rule``."""
    for row in scenario.tables["option_vp_costs"]["option"]:
        if row.get("rule") == rule:
            return row["effects"][key]
    raise KeyError(f"option_vp_costs has no option {rule!r}")


def rail_capacity(scenario: Scenario, side: int) -> int:
    """Stacking Points the side may move by rail per Game-Turn (18.21-18.22); 8 for the
    Russians with Increased Supply and Rail Capacity (26.33)."""
    if side == _ALLIED and scenario.options.get("more_supply_rail"):
        return int(option_effect(scenario, "26.33", "russian_rail_capacity"))
    return int(scenario.tables["rail_capacity"][SIDE_KEYS[Side(side)]]["stacking_points"])


def rail_rate(scenario: Scenario, side: int) -> int:
    """Hexes a unit of the side may move by rail per Game-Turn (18.21-18.22)."""
    return int(scenario.tables["rail_capacity"][SIDE_KEYS[Side(side)]]["hexes"])


def track_limits_on(scenario: Scenario) -> bool:
    """18.3 is optional: it applies when the scenario's ``track_limits`` option is on."""
    return bool(scenario.options.get("track_limits", False))


@lru_cache(maxsize=32)
def line_limits(scenario: Scenario) -> np.ndarray:
    """``int16[2, n_cells, 6, 2]``: for each side, the Stacking Points each rail line of each
    hexside carries per Movement Phase (18.31), -1 where there is no such line.

    Line 0 is the double-track line if the hexside has one, else its single-track line; line
    1 is the second line through the same hexside (18.33): a single track beside a double
    one, or the ``rail_extra`` single track beside a single one.
    """
    t = scenario.tables["track_limits"]
    hs = scenario.map.hexsides
    out = np.full((2, scenario.map.n_cells, 6, 2), -1, dtype=np.int16)
    for side in (Side.ALLIED, Side.CENTRAL):
        col = t["sides"].index(SIDE_KEYS[side])
        single = t["stacking_points"][t["railroad"].index("single_track")][col]
        double = t["stacking_points"][t["railroad"].index("double_track")][col]
        lines = [((hs & Hexside.RAIL_DOUBLE) != 0, double),
                 ((hs & Hexside.RAIL_SINGLE) != 0, single),
                 ((hs & Hexside.RAIL_EXTRA) != 0, single)]
        slot = np.zeros(hs.shape, dtype=np.int8)
        for has, limit in lines:
            put = has & (slot < 2)
            for s in (0, 1):
                here = put & (slot == s)
                out[side, ..., s][here] = limit
            slot = slot + put
    return out


@lru_cache(maxsize=64)
def _friendly_rail_hexes(scenario: Scenario, side: int) -> np.ndarray:
    data = gwe_data(scenario)
    return friendly_ground(scenario, side) & data.rail.any(axis=1)


def friendly_rail_hexes(scenario: Scenario, side: int) -> np.ndarray:
    """``bool[n_cells]``: hexes containing a Friendly rail line (5.32, 18.27): a rail hex on
    the side's side of the start line."""
    return _friendly_rail_hexes(scenario, int(side))


def opening_turn(scenario: Scenario) -> int:
    """The Game-Turn of the Russian opening (18.1, 23.52): Game-Turn 1, or 5 in Attack on
    Schedule (26.24); in both, the scenario's first turn."""
    return int(scenario.first_turn)


# ------------------------------------------------------------------------------------------
# per-phase bookkeeping
# ------------------------------------------------------------------------------------------
def start_rail_phase(game: GweGame, side: int) -> None:
    """Reset the side's rail counts at the start of its Movement Phase: Rail Capacity used
    (5.31), hexes moved by rail (18.21), track use (18.32), ``USED_RAIL`` and ``RAIL_COUNTED``."""
    side = int(side)
    game.arr("rail_turn")[side] = int(game.state.turn)
    game.arr("rail_used")[side] = 0
    game.arr("rail_forced")[side] = 0
    game.arr("track_used")[:] = 0
    mine = game.scenario.units.side == side
    game.arr("rail_hexes")[mine] = 0
    flags = game.arr("flags")
    flags[mine] &= np.uint16(0xFFFF ^ (Flag.USED_RAIL | Flag.RAIL_COUNTED))


def sync_rail_phase(game: GweGame, side: int) -> None:
    """Start the side's rail counts afresh if they belong to an earlier Game-Turn."""
    if int(game.arr("rail_turn")[int(side)]) != int(game.state.turn):
        start_rail_phase(game, side)


def capacity_left(game: GweGame, side: int) -> int:
    """Stacking Points the side may still move by rail this Movement Phase."""
    sync_rail_phase(game, side)
    return rail_capacity(game.scenario, side) - int(game.arr("rail_used")[int(side)])


def _counts(game: GweGame, unit: int) -> bool:
    """Does the unit still have to be counted toward Rail Capacity? (HQs never, 5.31)."""
    u = game.scenario.units
    return u.utype[unit] != _HQ and not game.flag(unit, Flag.RAIL_COUNTED)


def has_room(game: GweGame, unit: int) -> bool:
    """Could the unit be counted toward Rail Capacity now (or is it already, or free)?"""
    if not _counts(game, unit):
        return True
    side = int(game.scenario.units.side[unit])
    return int(game.scenario.units.stacking[unit]) <= capacity_left(game, side)


def charge_capacity(game: GweGame, unit: int) -> None:
    """Count the unit toward its side's Rail Capacity for this Movement Phase (once)."""
    u = game.scenario.units
    side = int(u.side[unit])
    sync_rail_phase(game, side)
    if _counts(game, unit):
        game.arr("rail_used")[side] += int(u.stacking[unit])
        game.set_flag(unit, Flag.RAIL_COUNTED)


# ------------------------------------------------------------------------------------------
# values and allowances
# ------------------------------------------------------------------------------------------
def current_values(game: GweGame, unit: int) -> np.ndarray:
    """(attack, defense, movement) now (see ``movement.printed_values``)."""
    return movement.printed_values(game.scenario, game.state, unit)


def allowance(game: GweGame, unit: int) -> int:
    """Movement Allowance this phase (see ``movement.movement_allowance``)."""
    return movement.movement_allowance(game.scenario, game.state, unit)


def first_turn_may_move(game: GweGame, unit: int) -> bool:
    """18.1: in his Movement Phase of the opening turn only Russian HQ units may be moved (by
    any means, rail included). No restriction for the Central Powers."""
    u = game.scenario.units
    return not (u.side[unit] == _ALLIED and u.utype[unit] != _HQ
                and int(game.state.turn) == opening_turn(game.scenario))


def entrain_cost(game: GweGame, unit: int) -> int:
    """Movement Points to entrain: the unit's TCR (5.32), or its whole Movement Allowance when
    that is less than its TCR (18.25)."""
    tcr = int(gwe_data(game.scenario).tcr[unit])
    ma = allowance(game, unit)
    return min(tcr, ma)


# ------------------------------------------------------------------------------------------
# entraining, rail movement, detraining
# ------------------------------------------------------------------------------------------
def can_entrain(game: GweGame, unit: int) -> bool:
    """May the unit entrain now (5.32, 5.35, 18.1, 18.25-18.27)?

    On the map and not entrained; in Command Control (5.32, 5.35) and in supply (5.32; an HQ
    need not be, 10.35); allowed to move this turn (18.1); in a hex containing a Friendly rail
    line (18.27) that is not enemy-controlled unless its TCR is 1 (5.32); with Movement Points
    left to pay its TCR (5.32), or, if its allowance is less than its TCR, not yet moved this
    phase (18.25); and with Rail Capacity left for it (5.31). No die roll (18.26).
    """
    sc, st = game.scenario, game.state
    u = sc.units
    status = st.unit_status[unit]
    if not status & Status.ON_MAP or status & (Status.ENTRAINED | Status.OUT_OF_COMMAND):
        return False
    if u.utype[unit] != _HQ and status & Status.OUT_OF_SUPPLY:
        return False
    if not first_turn_may_move(game, unit):
        return False
    side = int(u.side[unit])
    sync_rail_phase(game, side)
    cell = int(st.unit_cell[unit])
    if not friendly_rail_hexes(sc, side)[cell]:
        return False
    tcr = int(gwe_data(sc).tcr[unit])
    if tcr != 1 and controlled(sc, st, 1 - side)[cell]:
        return False
    ma = allowance(game, unit)
    spent = int(game.arr("mp_spent")[unit])
    if ma >= tcr:
        if spent + tcr > ma:
            return False
    elif spent != 0 or game.flag(unit, Flag.USED_RAIL):      # 18.25
        return False
    return has_room(game, unit)


def entrain(game: GweGame, unit: int) -> bool:
    """Entrain the unit (5.32): it pays ``entrain_cost`` Movement Points, counts toward Rail
    Capacity (5.31) and is marked entrained. A reduced Austro-Hungarian unit first rolls as in
    23.52 (23.53); if it is eliminated the Stacking Points stay spent. Returns False if the
    unit was eliminated. ``IllegalChoice`` if it may not entrain."""
    if not can_entrain(game, unit):
        raise IllegalChoice(f"unit {game.scenario.units.ids[unit]} may not entrain now")
    cost = entrain_cost(game, unit)
    game.arr("mp_spent")[unit] += cost
    charge_capacity(game, unit)
    game.set_flag(unit, Flag.MOVED)
    if is_reduced_austro_hungarian(game, unit) and not _survives_roll(game, unit, "23.53"):
        return False
    game.state.unit_status[unit] |= Status.ENTRAINED
    game.event("entrain", unit=unit, mp=cost)
    return True


def _rail_step_costs(game: GweGame, unit: int) -> np.ndarray:
    """``int16[n_cells, 6]``: 1 for each rail hexside the entrained unit may cross, else -1.

    Along Friendly rail lines only, both ends on the side's side of the start line (18.27);
    never into an enemy-controlled hex (5.33), an enemy-occupied hex (5.13) or a hex last
    occupied by an enemy unit (5.33), though a hex holding only enemy HQ units does not block
    (10.52); with track limits, only across a hexside with a line that can still carry the
    unit's Stacking Points (18.31, 18.33).
    """
    sc, st = game.scenario, game.state
    u = sc.units
    side = int(u.side[unit])
    sp = int(u.stacking[unit])
    limits = track_limits_on(sc) and sp > 0

    def make():
        room = b""
        if limits:
            left = track_room(game, side)
            room = (np.maximum(left[..., 0], left[..., 1]) >= sp).tobytes()  # faster than max
        return _rail_table(sc, side, rail_closed(sc, st, side).tobytes(), room)

    # the units of a side ask the same position over and over (a policy weighing each of
    # them by rail): the table is kept by what it reads, the position (as supply reads it:
    # rail_closed reads no more) and, with track limits, the track used and the unit's SP
    key = (side, position_key(st, side, sc),
           (sp, game.arr("track_used").tobytes()) if limits else None)
    return remembered(sc, key, make, kind="rail", size=8)


def rail_closed(scenario: Scenario, state: State, side: int, by_last: bool = True
                ) -> np.ndarray:
    """``bool[n_cells]``: the hexes a train of ``side`` may not enter: off its side of the start
    line (18.27), enemy-controlled (5.33), holding enemy combat units (5.13; HQs alone do not
    block, 10.52) or last occupied by the enemy unless only enemy HQs are there (5.33).
    ``by_last=False`` leaves out the hexes closed only by that last clause (the compiled
    segment applies it itself, as its moves change which side last occupied a hex)."""
    enemy = 1 - side
    combat_enemy = occupied(scenario, state, enemy, hq_only_counts=False)
    enter = (friendly_ground(scenario, side) & ~combat_enemy
             & ~controlled(scenario, state, enemy))
    if by_last:
        enter &= (state.hex_last != enemy) | hq_alone(scenario, state, enemy)
    return ~enter


def hq_alone(scenario: Scenario, state: State, side: int) -> np.ndarray:
    """``bool[n_cells]``: hexes holding units of ``side``, all of them HQs."""
    return (occupied(scenario, state, side)
            & ~occupied(scenario, state, side, hq_only_counts=False))


@lru_cache(maxsize=64)
def _rail_table(scenario: Scenario, side: int, closed: bytes, room: bytes) -> np.ndarray:
    # the table of ``_rail_step_costs``, read-only: the side's units facing the same enemy
    # and the same track left share it (``room``: where a line can still carry the unit,
    # empty without track limits)
    m = scenario.map
    one, lines = _rail_lines(scenario, side)
    if room:
        ok = np.frombuffer(room, dtype=bool).reshape(lines.shape)
        lines = np.where((lines >= 0) & ok, 0, PROHIBITED).astype(dtypes.STEPCOST)
    # 1 across a friendly rail hexside into a hex it may enter, else PROHIBITED
    table = m.k.board.step_costs(m.neighbors, one, lines, np.frombuffer(closed, dtype=bool))
    table.flags.writeable = False
    return table


@lru_cache(maxsize=64)
def _rail_lines(scenario: Scenario, side: int) -> tuple[np.ndarray, np.ndarray]:
    """``(one, lines)`` for ``board.step_costs``: a cost of 1 to enter any hex, and 0 across
    the rail hexsides of the side's friendly hexes, else PROHIBITED (made once, read-only)."""
    data = gwe_data(scenario)
    one = np.ones(scenario.map.n_cells, dtype=dtypes.STEPCOST)
    mine = friendly_ground(scenario, side)
    lines = np.where(data.rail & mine[:, None], 0, PROHIBITED).astype(dtypes.STEPCOST)
    one.flags.writeable = lines.flags.writeable = False
    return one, lines


def track_room(game: GweGame, side: int) -> np.ndarray:
    """``int16[n_cells, 6, 2]``: Stacking Points each rail line of each hexside can still carry
    for the side this Movement Phase (18.31-18.33), -1 where there is no line."""
    limits = line_limits(game.scenario)[int(side)]
    return np.where(limits >= 0, limits - game.arr("track_used"), -1)


def _reach(game: GweGame, unit: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Hexes along the rail from the unit's hex within its remaining rate, and predecessors."""
    sc = game.scenario
    side = int(sc.units.side[unit])
    left = rail_rate(sc, side) - int(game.arr("rail_hexes")[unit])
    here = int(game.state.unit_cell[unit])
    n = sc.map.n_cells
    if left <= 0:
        out = np.full(n, -1, dtype=np.int32)
        out[here] = 0
        return out, np.full(n, -1, dtype=np.int32), here
    dist, pred = sc.map.k.search.bounded_search(sc.map.neighbors, _rail_step_costs(game, unit),
                                                [here], limit=left)
    return dist[0], pred[0], here


def may_move_by_rail(game: GweGame, unit: int) -> bool:
    """Is the unit entrained (or able to entrain) and allowed rail movement now? Entrained
    units out of Command Control may still move by rail (5.35); being out of supply has no
    effect on rail movement (9.21)."""
    st = game.state.unit_status[unit]
    if not st & Status.ON_MAP:
        return False
    if st & Status.ENTRAINED:
        ok = first_turn_may_move(game, unit)
    else:
        ok = can_entrain(game, unit)
    return ok and has_room(game, unit)


def rail_moves(game: GweGame, unit: int) -> dict[int, int]:
    """``{destination cell: rail hexes used}`` for an entrained unit, or for a unit that could
    entrain where it stands (as if it had). Empty when it may not move by rail. Destinations
    never include the unit's own hex or a hex holding enemy units (5.13)."""
    cells, hexes = rail_destinations(game, unit)
    return dict(zip(cells.tolist(), hexes.tolist()))


def rail_destinations(game: GweGame, unit: int) -> tuple[np.ndarray, np.ndarray]:
    """``rail_moves`` as two arrays: the destination cells, ascending, and the rail hexes
    each uses (both empty when the unit may not move by rail)."""
    if not may_move_by_rail(game, unit):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    dist, _, here = _reach(game, unit)
    side = int(game.scenario.units.side[unit])
    ends = (dist > 0) & ~occupied(game.scenario, game.state, 1 - side)
    ends[here] = False
    cells = np.flatnonzero(ends)
    return cells, dist[cells].astype(np.int64)


def _path(pred: np.ndarray, dest: int) -> list[int]:
    path = [dest]
    while pred[path[-1]] >= 0:
        path.append(int(pred[path[-1]]))
    return path[::-1]


def move_by_rail(game: GweGame, unit: int, dest: int) -> list[int]:
    """Move an entrained unit along the rail to ``dest`` (a key of ``rail_moves``). It counts
    toward Rail Capacity (5.31), uses rail hexes of its rate (18.21), the track of every
    hexside it crosses (18.31) and is marked ``USED_RAIL`` (5.34); the hexes it passes become
    last occupied by its side. Returns the path of cells, from the start hex to ``dest``."""
    sc, st = game.scenario, game.state
    u = sc.units
    if not st.unit_status[unit] & Status.ENTRAINED:
        raise IllegalChoice(f"unit {u.ids[unit]} is not entrained")
    dest = int(dest)
    if dest not in rail_moves(game, unit):
        raise IllegalChoice(f"unit {u.ids[unit]} may not move by rail to "
                            f"{sc.map.id_of(dest) if 0 <= dest < sc.map.n_cells else dest}")
    _, pred, _ = _reach(game, unit)
    path = _path(pred, dest)
    side = int(u.side[unit])
    charge_capacity(game, unit)
    sp = int(u.stacking[unit])
    if track_limits_on(sc) and sp > 0:
        used = game.arr("track_used")
        room = track_room(game, side)
        nb = sc.map.neighbors
        for a, b in pairwise(path):
            d = int(np.flatnonzero(nb[a] == b)[0])
            fits = [s for s in (0, 1) if room[a, d, s] >= sp]
            line = min(fits, key=lambda s: (room[a, d, s], s))   # best fit (18.33)
            used[a, d, line] += sp
            used[b, (d + 3) % 6, line] += sp
    game.arr("rail_hexes")[unit] += len(path) - 1
    st.unit_cell[unit] = dest
    st.hex_last[np.array(path)] = side
    game.set_flag(unit, Flag.USED_RAIL)
    game.set_flag(unit, Flag.MOVED)
    game.event("rail_move", unit=unit, path=path)
    return path


def can_detrain(game: GweGame, unit: int) -> bool:
    """An entrained unit may detrain, at no cost, unless it is out of Command Control (5.35)."""
    st = game.state.unit_status[unit]
    return bool(st & Status.ON_MAP and st & Status.ENTRAINED and not st & Status.OUT_OF_COMMAND)


def detrain(game: GweGame, unit: int) -> None:
    """Detrain the unit at no Movement Point cost (5.34); it may then move normally with any
    Movement Points it has left. ``IllegalChoice`` if it may not (5.35)."""
    if not can_detrain(game, unit):
        raise IllegalChoice(f"unit {game.scenario.units.ids[unit]} may not detrain now")
    game.state.unit_status[unit] &= ~np.uint16(Status.ENTRAINED)
    game.event("detrain", unit=unit)


def end_rail_movement(game: GweGame, side: int) -> None:
    """End of the Movement Segment (5.31): units that remain entrained without having moved
    count toward Rail Capacity. Where the capacity left is too small the owner chooses which
    of them detrain (ask ``gwe.rail.remain_entrained``: ``("remain",)`` / ``("detrain",)``). A
    unit that may neither (out of Command Control, 5.35) remains entrained and is counted
    even beyond the capacity."""
    sc, st = game.scenario, game.state
    u = sc.units
    sync_rail_phase(game, side)
    todo = np.flatnonzero((u.side == side) & (st.unit_status & Status.ON_MAP).astype(bool)
                          & (st.unit_status & Status.ENTRAINED).astype(bool))
    for i in todo:
        i = int(i)
        if not _counts(game, i):
            continue
        opts = []
        if has_room(game, i):
            opts.append(("remain",))
        if can_detrain(game, i):
            opts.append(("detrain",))
        if not opts:
            # 5.35 leaves it no choice: it stays entrained and is counted, capacity or not
            if not has_room(game, i):
                game.arr("rail_forced")[side] += int(u.stacking[i])
            charge_capacity(game, i)
            continue
        pick = game.ask("gwe.rail.remain_entrained", side, opts, unit=i)
        if pick == ("remain",):
            charge_capacity(game, i)
        else:
            detrain(game, i)


def entrained_defense(game: GweGame, unit: int, defense: int) -> int:
    """5.36: an entrained unit defends at half its Defense Strength, rounded down (an HQ's
    combat strength is unaffected, 10.35). ``defense`` is the strength before this rule."""
    if (game.state.unit_status[unit] & Status.ENTRAINED
            and game.scenario.units.utype[unit] != _HQ):
        return int(defense) // 2
    return int(defense)


def detrain_attacked(game: GweGame, unit: int) -> None:
    """5.36: an entrained unit that is attacked is automatically detrained (after the combat
    in which it defended at half strength), whatever its command status."""
    game.state.unit_status[unit] &= ~np.uint16(Status.ENTRAINED)


# ------------------------------------------------------------------------------------------
# 23.52-23.53 reduced Austro-Hungarian units
# ------------------------------------------------------------------------------------------
def is_reduced_austro_hungarian(game: GweGame, unit: int) -> bool:
    """An Austro-Hungarian unit that has lost a step (23.5); HQs are not (their reverse side is
    a displacement, 10.54)."""
    u = game.scenario.units
    return bool(u.nationality[unit] == _AUSTRO_HUNGARIAN
                and u.utype[unit] != _HQ and game.state.unit_step[unit] > 0)


def _survives_roll(game: GweGame, unit: int, case: str) -> bool:
    t = game.scenario.tables["reduced_austro_hungarian_movement"]
    rolls = (t["panic_turn_rolls"] if int(game.state.turn) == opening_turn(game.scenario)
             else t["later_rolls"])
    d = game.roll("breakdown", f"{case} reduced Austro-Hungarian unit")
    if d in rolls:
        unit_ops.eliminate(game, unit, "breakdown")
        return False
    return True


def reduced_ah_move_check(game: GweGame, unit: int, hexes_moved: int, mp_spent: int) -> bool:
    """23.52: call after each hex a unit enters by normal movement, with the hexes it has
    entered and the Movement Points it has spent entering them this Movement Phase (after
    detraining, only what it moved since, 23.53). A reduced Austro-Hungarian unit that has
    moved more than one hex *and* spent more than two Movement Points rolls one die
    (``breakdown`` stream): eliminated on 1-2 on the opening turn, on 1 afterwards (counting
    for the Russian VP total). Returns True if the unit survives (always, for other units)."""
    if not is_reduced_austro_hungarian(game, unit):
        return True
    t = game.scenario.tables["reduced_austro_hungarian_movement"]
    if hexes_moved <= int(t["safe_hexes"]) or mp_spent <= int(t["safe_movement_points"]):
        return True
    return _survives_roll(game, unit, "23.52")


# ------------------------------------------------------------------------------------------
# 24.42-24.43 the armored car
# ------------------------------------------------------------------------------------------
def armored_car_breakdown(game: GweGame, unit: int) -> bool:
    """24.42: at the end of its Movement Phase, an armored car that spent more than four
    Movement Points (``mp_spent``, entraining included) rolls one die (``breakdown`` stream):
    5 points spent breaks it down on 1, 6 on 1-2. A broken-down car is flipped
    (``Flag.BROKEN_DOWN``; ``current_values`` gives its reverse). Returns True if it broke
    down now."""
    sc = game.scenario
    if (sc.units.utype[unit] != _ARMORED_CAR
            or not game.state.unit_status[unit] & Status.ON_MAP
            or game.flag(unit, Flag.BROKEN_DOWN)):
        return False
    t = sc.tables["armored_car_breakdown"]
    spent = int(game.arr("mp_spent")[unit])
    rows = [r for r in t["row"] if int(r["movement_points"]) <= spent]
    if spent <= int(t["safe_movement_points"]) or not rows:
        return False
    row = max(rows, key=lambda r: int(r["movement_points"]))
    d = game.roll("breakdown", "24.42 armored car breakdown")
    if d in row["rolls"]:
        game.set_flag(unit, Flag.BROKEN_DOWN)
        game.event("broken_down", unit=unit)
        return True
    return False


def armored_car_needs_repair(game: GweGame, unit: int) -> bool:
    """24.43: a broken-down armored car is repaired like a Russian unit replacing a step: the
    step replacement phase treats it as eligible when this is True."""
    return (game.scenario.units.utype[unit] == _ARMORED_CAR
            and game.flag(unit, Flag.BROKEN_DOWN))


def repair_armored_car(game: GweGame, unit: int) -> None:
    """24.43: the successful 'step replacement' of the armored car flips it back."""
    if not armored_car_needs_repair(game, unit):
        raise IllegalChoice(f"unit {game.scenario.units.ids[unit]} is not a broken-down "
                            f"armored car")
    game.set_flag(unit, Flag.BROKEN_DOWN, False)
    game.event("repaired", unit=unit)
