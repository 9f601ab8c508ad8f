"""Reinforcements (14.0, 20.0): the Reinforcement Segment of a Movement Phase.

Which units are due on a Game-Turn:

* counters with a reinforcement turn (``scenario.units.arrival_turn``) enter on that turn at
  their entry letter (14.0, 26.11; the scenario's placements give Attack on Schedule's turns,
  26.22); with West Front Offensive every Central Powers one comes a turn later (26.32);
* the units of an option marked SGA come on the turn of 26.31 (``option_vp_costs``), at the
  side's entry letter; with Better Commanders GGU comes instead of GBZ (26.34);
* supply depots come from the schedule of 20.21 (table ``depots``; ``depots_attack_on_schedule``
  in Attack on Schedule, 26.23), not from the turns printed on the blank counters: each
  arrival takes a depot counter of the side not on the map (one not yet used, else one burned
  up or eliminated, 19.21), within the caps of 20.22-20.23 (two Russian a turn with 26.33);
  with West Front Offensive the Central Powers schedule runs a turn late (26.32).

Every reinforcement enters entrained (20.11) in an entry hex of its letter chosen by its owner
(20.12), counting toward Rail Capacity (18.23, 20.11); an entry hex that is enemy-occupied or
enemy-controlled may not be used (14.21). A unit may be delayed (14.24) and, by the Central
Powers Player, permanently withheld for the victory points of 25.2 (25.16); a depot may not be
delayed but may be declined (20.13, 20.22).

Decisions (``game.ask``):

* ``gwe.reinforcement.depot``: ``("enter", cell)`` or ``("decline",)``, context ``unit``;
* ``gwe.reinforcement.arrive``: ``("enter", cell)``, ``("delay",)`` or ``("withhold",)``,
  context ``unit``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast.enums import Side, Terrain, UnitType
from gwe_fast.games.gwe import rail
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.games.gwe.zoc import controlled, occupied
from gwe_fast.scenario.model import ENTRY_LETTERS, Scenario
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ALLIED = int(Side.ALLIED)
_CENTRAL = int(Side.CENTRAL)
_DEPOT = int(UnitType.DEPOT)
_HQ = int(UnitType.HQ)

ATTACK_ON_SCHEDULE = "attack_on_schedule"


def scenario_tag(scenario: Scenario) -> str | None:
    """``"attack_on_schedule"`` for the Attack on Schedule scenario (its case, 26.2, names
    it, so a copied variant keeps it), else None."""
    sc = scenario.raw.get("scenario", {}).get("scenario", {})
    return ATTACK_ON_SCHEDULE if str(sc.get("case", "")) == "26.2" else None


# ------------------------------------------------------------------------------------------
# who is due when
# ------------------------------------------------------------------------------------------
@lru_cache(maxsize=32)
def due_turns(scenario: Scenario) -> np.ndarray:
    """``int16[n_units]``: the Game-Turn each unit is first due as a reinforcement, -1 for
    units that never are (set up, depots, options that bring no reinforcement)."""
    u = scenario.units
    out = np.full(u.n, -1, dtype=np.int16)
    sga = (int(rail.option_effect(scenario, "26.31", "sga_arrival_turn"))
           if scenario.options.get("sga_early") else -1)
    delay = (int(rail.option_effect(scenario, "26.32", "central_powers_reinforcement_delay"))
             if scenario.options.get("west_front") else 0)
    for i in range(u.n):
        if u.utype[i] == _DEPOT:
            continue
        t = int(u.arrival_turn[i])
        if t < 0 and "sga_early" in u.option[i]:
            t = sga
        if t < 0:
            continue
        if u.side[i] == _CENTRAL:
            t += delay
        out[i] = t
    return out


@lru_cache(maxsize=32)
def replaced_hqs(scenario: Scenario) -> np.ndarray:
    """``bool[n_units]``: HQs replaced by a Better Commanders HQ of the same army (26.34):
    with the option on, an in-play HQ whose options include ``better_commanders`` replaces the
    other HQ of its side with the same ``army`` (GGU replaces GBZ; 8KL replaces 8KA)."""
    u = scenario.units
    out = np.zeros(u.n, dtype=bool)
    if not scenario.options.get("better_commanders"):
        return out
    army = u.text.get("army", ("",) * u.n)
    for j in range(u.n):
        if (u.utype[j] != _HQ or "better_commanders" not in u.option[j]
                or not all(scenario.options.get(o) is True for o in u.option[j]) or not army[j]):
            continue
        for i in range(u.n):
            if (i != j and u.utype[i] == _HQ and u.side[i] == u.side[j]
                    and army[i] == army[j] and "better_commanders" not in u.option[i]):
                out[i] = True
    return out


@lru_cache(maxsize=64)
def _side_letters(scenario: Scenario, side: int) -> tuple[str, ...]:
    u = scenario.units
    codes = sorted({int(e) for e in u.entry[(u.side == side) & (u.entry >= 0)]})
    letters = tuple(ENTRY_LETTERS[e] for e in codes if ENTRY_LETTERS[e] in scenario.entry)
    return letters or tuple(sorted(scenario.entry))


def entry_cells(scenario: Scenario, unit: int) -> np.ndarray:
    """The entry hexes of a unit (20.12: any hex of its letter). A unit with no letter (option
    units, depots set up on the map) uses the letters of its side's reinforcements.
    (Read-only: made once per scenario and unit.)"""
    return _entry_cells(scenario, int(unit))


@lru_cache(maxsize=4096)
def _entry_cells(scenario: Scenario, unit: int) -> np.ndarray:
    e = int(scenario.units.entry[unit])
    letters = ((ENTRY_LETTERS[e],) if e >= 0
               else _side_letters(scenario, int(scenario.units.side[unit])))
    return _letter_cells(scenario, letters)


@lru_cache(maxsize=64)
def _letter_cells(scenario: Scenario, letters: tuple[str, ...]) -> np.ndarray:
    # the hexes of these entry letters, ascending (read-only; units of the same letters
    # share it)
    cells = [np.asarray(scenario.entry[x]) for x in letters if x in scenario.entry]
    out = np.unique(np.concatenate(cells)) if cells else np.zeros(0, dtype=np.int32)
    out.flags.writeable = False
    return out


def due_units(game: GweGame, side: int) -> np.ndarray:
    """Units of ``side`` waiting to enter on this Game-Turn or delayed from an earlier one."""
    sc, st = game.scenario, game.state
    t = due_turns(sc)
    return np.flatnonzero((sc.units.side == side) & (st.unit_status & Status.PENDING).astype(bool)
                          & (t >= 0) & (t <= int(st.turn)))


def withhold_vp(scenario: Scenario, turn: int) -> int | None:
    """Victory points for permanently withholding one reinforcement on ``turn`` (25.2, 25.16):
    -4 on Game-Turns 5-7 and -2 on 8-12; -4 on every turn in Attack on Schedule (26.22 Note).
    None when no row of the schedule covers the turn: no permanent withholding then."""
    rows = [r for r in scenario.tables["vp_schedule"]["row"]
            if r.get("cause") == "reinforcement_withheld"]
    tag = scenario_tag(scenario)
    use = [r for r in rows if tag is not None and r.get("scenario") == tag]
    if not use:
        use = [r for r in rows if "scenario" not in r]
    for r in use:
        if r.get("first_turn", turn) <= turn <= r.get("last_turn", turn):
            return int(r["vp"])
    return None


def depot_schedule(scenario: Scenario, side: int, turn: int) -> tuple[int, int, int]:
    """(depots due this turn, most a turn, most on the map) for ``side`` (20.21-20.23;
    26.23 in Attack on Schedule; 26.33 raises the Russian depots to two a turn, at most 11 on
    the map; with 26.32 the Central Powers depots, reinforcements like any other (20.21),
    follow their schedule one Game-Turn late)."""
    name = "depots" if scenario_tag(scenario) is None else f"depots_{ATTACK_ON_SCHEDULE}"
    t = scenario.tables[name]
    key = rail.SIDE_KEYS[Side(side)]
    if side == _CENTRAL and scenario.options.get("west_front"):
        turn -= int(rail.option_effect(scenario, "26.32", "central_powers_reinforcement_delay"))
    n = 0
    for band in t[key]:
        if band["first_turn"] <= turn <= band.get("last_turn", turn):
            n = int(band["depots"])
    per_turn = int(t["max_per_turn"][key])
    on_map = int(t["max_on_map"][key])
    if side == _ALLIED and scenario.options.get("more_supply_rail"):
        per_turn = int(rail.option_effect(scenario, "26.33", "russian_depots_per_turn"))
        on_map = int(rail.option_effect(scenario, "26.33", "russian_max_depots_on_map"))
        if n > 0:
            n = per_turn
    return min(n, per_turn), per_turn, on_map


# ------------------------------------------------------------------------------------------
# entry hexes
# ------------------------------------------------------------------------------------------
def blocked_entry(game: GweGame, side: int) -> np.ndarray:
    """``bool[n_cells]``: hexes a reinforcement of ``side`` may not enter (14.21):
    enemy-occupied or enemy-controlled."""
    sc, st = game.scenario, game.state
    return occupied(sc, st, 1 - side) | controlled(sc, st, 1 - side)


def _edge_cells(scenario: Scenario, side: int) -> np.ndarray:
    edge = scenario.edges.get(Side(side).name.lower())
    if edge is None or len(edge) == 0:
        edge = np.flatnonzero((scenario.map.neighbors < 0).any(axis=1))
    return np.asarray(edge)


def alternate_hexes(game: GweGame, side: int, scheduled: np.ndarray,
                    blocked: np.ndarray) -> list[int]:
    """14.22: for each blocked scheduled entry hex, the nearest unblocked hex of the side's
    map edge in the direction of the nearest friendly unit: among the edge hexes not farther
    from that unit than the scheduled hex, those nearest the scheduled hex (then nearest the
    unit). The union over the scheduled hexes; empty if the side has no unit on the map."""
    sc, st = game.scenario, game.state
    m = sc.map
    mine = np.flatnonzero((sc.units.side == side) & (st.unit_status & Status.ON_MAP).astype(bool))
    if mine.size == 0:
        return []
    friends = np.unique(st.unit_cell[mine])
    edge = _edge_cells(sc, side)
    water = np.isin(m.terrain, (Terrain.LAKE, Terrain.SEA))
    edge = edge[~blocked[edge] & ~water[edge]]
    if edge.size == 0:
        return []
    out: set[int] = set()
    for h in scheduled:
        dh = m.distances_from(int(h))
        near = friends[dh[friends] == dh[friends].min()]
        df = np.min([m.distances_from(int(f)) for f in near], axis=0)
        ok = edge[df[edge] <= df[int(h)]]
        if ok.size == 0:
            continue
        best = ok[dh[ok] == dh[ok].min()]
        best = best[df[best] == df[best].min()]
        out.update(int(c) for c in best)
    return sorted(out)


def _place(game: GweGame, unit: int, cell: int) -> None:
    """Put a reinforcement on the map: entrained where a Friendly rail line runs (14.12,
    20.11) and then counted toward Rail Capacity; no Movement Points spent (14.11)."""
    sc, st = game.scenario, game.state
    side = int(sc.units.side[unit])
    entrained = bool(rail.friendly_rail_hexes(sc, side)[cell])
    st.unit_cell[unit] = cell
    st.unit_status[unit] = Status.ON_MAP | (Status.ENTRAINED if entrained else 0)
    st.unit_step[unit] = 0
    st.hex_last[cell] = side
    game.arr("mp_spent")[unit] = 0
    game.arr("rail_hexes")[unit] = 0
    game.arr("flags")[unit] = 0
    if entrained:
        rail.charge_capacity(game, unit)
    game.event("reinforcement", unit=unit, cell=cell, entrained=entrained)


# ------------------------------------------------------------------------------------------
# the segment
# ------------------------------------------------------------------------------------------
@lru_cache(maxsize=32)
def _playable(scenario: Scenario) -> np.ndarray:
    u = scenario.units
    return np.array([all(scenario.options.get(o) is True for o in u.option[i])
                     for i in range(u.n)], dtype=bool)


def depot_pool(game: GweGame, side: int) -> np.ndarray:
    """The side's depot counters that may arrive: not yet used first, then those taken off
    the map, burned up (19.21, status POOL) or eliminated, in manifest
    order. Depots of an option that is off never are."""
    sc, st = game.scenario, game.state
    s = st.unit_status
    u = sc.units
    mine = ((u.side == side) & (u.utype == _DEPOT) & _playable(sc)
            & ~(s & (Status.WITHHELD | Status.ON_MAP)).astype(bool))
    fresh = np.flatnonzero(mine & (s & Status.PENDING).astype(bool))
    used = np.flatnonzero(mine & (s & (Status.ELIMINATED | Status.NOT_IN_PLAY | Status.POOL))
                          .astype(bool))      # POOL: burned for massed artillery (19.21)
    return np.concatenate([fresh, used]).astype(np.int64)


def _receive_depots(game: GweGame, side: int, blocked: np.ndarray) -> None:
    sc, st = game.scenario, game.state
    u = sc.units
    n, _, cap = depot_schedule(sc, side, int(st.turn))
    on_map = int(((u.side == side) & (u.utype == _DEPOT)
                  & (st.unit_status & Status.ON_MAP).astype(bool)).sum())
    pool = depot_pool(game, side)
    n = min(n, cap - on_map, pool.size)
    for k in range(max(n, 0)):
        d = int(pool[k])
        cells = entry_cells(sc, d)
        opts: list[tuple] = []
        if rail.has_room(game, d):
            opts += [("enter", int(c)) for c in cells[~blocked[cells]]]
        opts.append(("decline",))
        pick = game.ask("gwe.reinforcement.depot", side, opts, unit=d)
        if pick[0] == "enter":
            _place(game, d, pick[1])
            game.arr("depots_received")[side] += 1
        else:
            game.event("depot_declined", unit=d)


def _offer(game: GweGame, unit: int, side: int, blocked: np.ndarray) -> None:
    sc, st = game.scenario, game.state
    turn = int(st.turn)
    cells = entry_cells(sc, unit)
    open_cells = cells[~blocked[cells]]
    opts: list[tuple] = []
    if open_cells.size:
        if rail.has_room(game, unit):
            opts += [("enter", int(c)) for c in open_cells]
    elif game.flag(unit, Flag.ENTRY_BLOCKED):
        on_rail = rail.friendly_rail_hexes(sc, side)
        room = rail.has_room(game, unit)
        opts += [("enter", c) for c in alternate_hexes(game, side, cells, blocked)
                 if room or not on_rail[c]]
    else:
        game.set_flag(unit, Flag.ENTRY_BLOCKED)           # 14.22: delayed one Game-Turn
        game.event("entry_blocked", unit=unit)
    opts.append(("delay",))
    vp = withhold_vp(sc, turn) if side == _CENTRAL else None
    if vp is not None:
        opts.append(("withhold",))
    pick = game.ask("gwe.reinforcement.arrive", side, opts, unit=unit)
    if pick[0] == "enter":
        _place(game, unit, pick[1])
    elif pick[0] == "withhold":
        st.unit_status[unit] = Status.WITHHELD                        # 25.16
        game.add_vp("reinforcement_withheld", vp)
        game.event("withheld", unit=unit, vp=vp)
    else:
        game.event("delayed", unit=unit)


def reinforcement_segment(game: GweGame, side: int) -> None:
    """The Reinforcement Segment of ``side``'s Movement Phase (4.0 1b): first the supply
    depots due (20.2; each entered or declined), then, in manifest order, every unit due now or
    delayed from an earlier turn (entered, delayed, or permanently withheld). The compiled
    core plays it for a player who picks at random (``GweCore.reinforcement_segment``)."""
    side = int(side)
    core = game.core
    if core is not None and core.reinforcement_segment(side):
        return
    sc, st = game.scenario, game.state
    rail.sync_rail_phase(game, side)
    blocked = blocked_entry(game, side)
    _receive_depots(game, side, blocked)
    gone = replaced_hqs(sc)
    for i in due_units(game, side):
        i = int(i)
        if gone[i]:
            st.unit_status[i] = Status.NOT_IN_PLAY                    # 26.34
            continue
        _offer(game, i, side, blocked)


def setup_replacements(game: GweGame) -> None:
    """26.34 at the start of the game: a Better Commanders HQ takes the place of the HQ it
    replaces when that HQ starts on the map (8KL for 8KA); the replaced HQ leaves play. A
    replaced HQ that has not yet arrived (GBZ with the Guards option) is handled on arrival."""
    sc, st = game.scenario, game.state
    u = sc.units
    army = u.text.get("army", ("",) * u.n)
    for i in np.flatnonzero(replaced_hqs(sc)):
        if not st.unit_status[i] & Status.ON_MAP:
            continue
        for j in range(u.n):
            if (j != i and u.utype[j] == _HQ and army[j] == army[i]
                    and "better_commanders" in u.option[j]
                    and all(sc.options.get(o) is True for o in u.option[j])):
                st.unit_cell[j] = st.unit_cell[i]
                st.unit_status[j] = Status.ON_MAP
                st.unit_cell[i] = -1
                st.unit_status[i] = Status.NOT_IN_PLAY
                game.event("replaced", unit=int(i), by=j)
                break
