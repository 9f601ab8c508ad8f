"""The sequence of play (4.0) of The Great War in the East, with the Brusilov exclusive rules.

``play(game)`` runs a whole scenario from the state's turn, player and phase to the end and
returns the result. Each Player-Turn is: Movement Phase (initial supply, reinforcements,
command control, movement, attrition), the other player's Cavalry Withdrawal Before Combat
Phase, the Combat Phase (command control, combat resolution) and the Step Replacement Phase;
stacking is enforced at the end of every phase (6.14).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from gwe_fast import kernels
from gwe_fast.enums import GwePhase, Nationality, Side, UnitType
from gwe_fast.game import hears_phases, picks_at_random
from gwe_fast.games.gwe import movement, supply, units, victory
from gwe_fast.games.gwe.data import gwe_data
from gwe_fast.games.gwe.game import LOSS_CAUSES, Flag, GweGame
from gwe_fast.games.gwe.zoc import controlled, occupied
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ALLIED = int(Side.ALLIED)
_AUSTRO_HUNGARIAN = int(Nationality.AUSTRO_HUNGARIAN)
_ARMORED_CAR = int(UnitType.ARMORED_CAR)
_HQ = int(UnitType.HQ)

MOVEMENT, WITHDRAWAL, COMBAT, REPLACEMENT = (
    GwePhase.MOVEMENT, GwePhase.WITHDRAWAL, GwePhase.COMBAT, GwePhase.REPLACEMENT)
PHASE_NAMES = {MOVEMENT: "movement", WITHDRAWAL: "withdrawal", COMBAT: "combat",
               REPLACEMENT: "replacement"}


@dataclass
class GameResult:
    vp: int
    level: str
    turns_played: int
    towns_vp: int
    per_turn: list[dict]

    @property
    def winner(self) -> str:
        """Who won (25.3): the Russians at a Russian level, else the Central Powers."""
        return victory.winner_of(self.level)


def play(game: GweGame, check=None) -> GameResult:
    """Play the scenario to its end. ``check(game, phase_name)``, if given, is called at the
    end of every phase (the invariant checker of the tests)."""
    sc, st = game.scenario, game.state
    per_turn = advance(game, check=check)
    st.turn = np.int16(sc.last_turn)
    towns = victory.score_towns(game)
    return GameResult(int(st.vp), victory.level(game), sc.last_turn - sc.first_turn + 1,
                      towns, per_turn)


def position(scenario, turn: int, side: int, phase: int) -> tuple[int, int, int]:
    """The order of ``phase`` of ``side``'s Player-Turn of Game-Turn ``turn`` in the sequence
    of play, as a tuple that sorts in playing order (``advance``'s ``until``)."""
    return (int(turn), 0 if int(side) == int(scenario.first_player) else 1, int(phase))


def advance(game: GweGame, until: tuple[int, int, int] | None = None,
            check=None) -> list[dict]:
    """Run the phases from the one the state says up to (not including) the phase
    ``until = position(scenario, turn, side, phase)``, or to the end of the last Game-Turn;
    the per-turn record rows of the Player-Turns completed. ``play`` is this and the final
    score; a look-ahead policy plays a copy of the game ahead with it.

    Before each phase both policies hear of it (``PlayedGame.begin_phase``); at ``until`` the
    state is left at the start of that phase (``state.player`` and ``state.phase`` say it).

    When the compiled core plays every phase (both players pick at random, no policy hears
    of the phases, no dice are forced) and there is no check, the whole loop is the core's
    (``GweCore.play_turns``) while ``COMPILED_TURN_LOOP`` is on."""
    sc, st = game.scenario, game.state
    core = game.core
    if (COMPILED_TURN_LOOP and core is not None and check is None
            and (until is None or len(until) == 3) and not _hear_phases(game)):
        rows = core.play_turns(until)
        if rows is not None:
            return [_record_row(numbers) for numbers in rows.tolist()]
    first = int(sc.first_player)
    order = (first, 1 - first)
    per_turn: list[dict] = []
    # a saved game resumes where its state says: state.phase is the next phase to play of
    # state.player in state.turn (0: the start of that Game-Turn)
    resume = (int(st.player), int(st.phase)) if int(st.phase) > 0 else None
    turn = int(st.turn)
    while turn <= sc.last_turn:
        st.turn = np.int16(turn)
        for k, side in enumerate(order):
            start = MOVEMENT
            if resume is not None:
                if side != resume[0]:
                    continue
                start, resume = resume[1], None
            st.player = np.int8(side)
            for phase in (MOVEMENT, WITHDRAWAL, COMBAT, REPLACEMENT):
                if phase < start:
                    continue
                st.phase = np.int16(phase)
                if until is not None and (turn, k, phase) >= until:
                    return per_turn
                game.begin_phase(side, phase)
                core = game.core                       # the whole phase in C, if it may
                if core is None or not core.run_phase(side, phase):
                    run_phase(game, side, phase)
                    enforce_stacking(game)
                if phase < REPLACEMENT:
                    st.phase = np.int16(phase + 1)
                elif side == order[0]:                 # on to the second Player-Turn
                    st.player, st.phase = np.int8(order[1]), np.int16(MOVEMENT)
                else:                                  # on to the next Game-Turn
                    st.player, st.phase = np.int8(order[0]), np.int16(0)
                if check is not None:
                    check(game, PHASE_NAMES[phase])
            per_turn.append(snapshot(game, turn, side))
        turn += 1
        if turn <= sc.last_turn:
            st.turn = np.int16(turn)
    return per_turn


#: let the compiled core play ``advance``'s loop when it plays every phase (the tests turn it
#: off to compare with the loop above, the phases still played by the core one at a time)
COMPILED_TURN_LOOP = True


def _hear_phases(game: GweGame) -> bool:
    """Whether a policy of the game hears of each phase (``PlayedGame.begin_phase``)."""
    return any(hears_phases(p) for p in game.policies.values())


def run_phase(game: GweGame, side: int, phase: int) -> None:
    if phase == MOVEMENT:
        movement_phase(game, side)
    elif phase == WITHDRAWAL:
        from gwe_fast.games.gwe import withdrawal
        withdrawal.withdrawal_phase(game, 1 - side)
    elif phase == COMBAT:
        combat_phase(game, side)
    else:
        from gwe_fast.games.gwe import replacement
        replacement.replacement_phase(game, side)


def enforce_stacking(game: GweGame) -> None:
    from gwe_fast.games.gwe import stacking
    stacking.enforce_stacking(game)


# --- the Movement Phase ---------------------------------------------------------------------

def movement_phase(game: GweGame, side: int) -> None:
    from gwe_fast.games.gwe import attrition, command, rail, reinforcements

    sc = game.scenario
    mine = sc.units.side == side
    flags = game.arr("flags")
    flags[mine] &= ~np.uint16(Flag.MOVED | Flag.USED_RAIL)
    game.arr("mp_spent")[mine] = 0
    rail.start_rail_phase(game, side)
    initial_supply(game, side)                                   # 4.0 A1a
    reinforcements.reinforcement_segment(game, side)             # 4.0 A1b
    command.command_segment(game, side, for_combat=False)        # 4.0 A1c
    st = game.state
    game.arr("ooc_count")[side] = int(((sc.units.side == side)
                                       & (st.unit_status & Status.OUT_OF_COMMAND).astype(bool)).sum())
    movement_segment(game, side)                                 # 4.0 A1d
    rail.end_rail_movement(game, side)                           # 5.31: still entrained
    command.clear_command(game, side)
    attrition.attrition_segment(game, side)                      # 4.0 A1e


def initial_supply(game: GweGame, side: int) -> None:
    """Mark the phasing units out of supply for this Movement Phase (4.0 A1a, 9.11). The
    compiled core plays it when the game has one (``GweGame.core``)."""
    core = game.core
    if core is not None and core.initial_supply(side):
        return
    sc, st = game.scenario, game.state
    ok = supply.in_supply(sc, st, side)
    mine = (sc.units.side == side) & (st.unit_status & Status.ON_MAP).astype(bool)
    out = mine & ~ok & (sc.units.utype != _HQ)          # 10.35: no effect on HQs
    st.unit_status[mine] &= ~np.uint16(Status.OUT_OF_SUPPLY)
    st.unit_status[out] |= np.uint16(Status.OUT_OF_SUPPLY)


def movable(game: GweGame, side: int) -> np.ndarray:
    """``bool[units]``: the units of ``side`` that may act in this Movement Segment."""
    sc, st = game.scenario, game.state
    first_turn = int(st.turn) == sc.first_turn and side == _ALLIED
    status = st.unit_status
    ok = (sc.units.side == side) & ((status & Status.ON_MAP) != 0)
    if first_turn:
        ok &= sc.units.utype == _HQ                              # 18.1
    # 4.0 A1d, 5.35: out of Command Control, only entrained units may still move (by rail)
    ok &= ~(((status & Status.OUT_OF_COMMAND) != 0) & ((status & Status.ENTRAINED) == 0))
    return ok


def movable_units(game: GweGame, side: int, done: set[int]) -> list[int]:
    """Units of ``side`` that may still act in this Movement Segment."""
    return [u for u in movable(game, side).nonzero()[0].tolist() if u not in done]


#: play a random player's Movement Segment in the compiled kernel (``random_segment``); off,
#: the loop below plays it (the parity check compares the two)
COMPILED_RANDOM_MOVES = True
#: play any other player's Movement Segment in the compiled core, which asks the player
#: (``GweCore.movement_segment``); off, the loop below plays it
COMPILED_ASKED_MOVES = True


def movement_segment(game: GweGame, side: int) -> None:
    """The owner moves units one at a time, each as far as it will in one go (5.1-5.3).

    A player who picks at random (``RandomPolicy`` itself) has the segment played by the
    kernel ``gwe_random_moves`` (``random_segment``) while ``COMPILED_RANDOM_MOVES`` is true:
    the same options in the same order, the same draws, moves and events as this loop. When
    the game has its compiled core, the core plays the whole segment
    (``GweCore.movement_segment``), the units the kernel hands back and 10.52 included; it
    asks a player who does not pick at random the questions this loop asks, with the same
    options in the same order (``COMPILED_ASKED_MOVES``)."""
    core = game.core
    if COMPILED_RANDOM_MOVES and picks_at_random(game, side):
        if core is None or not core.movement_segment(side):
            random_segment(game, side)
        return
    if COMPILED_ASKED_MOVES and core is not None and core.movement_segment(side):
        return
    done: set[int] = set()
    while True:
        units_left = movable_units(game, side, done)
        if not units_left:
            return
        pick = game.ask("gwe.move.unit", side, [-1] + units_left)
        if pick < 0:
            return
        move_one_unit(game, pick)
        done.add(pick)


def random_segment(game: GweGame, side: int) -> None:
    """``movement_segment`` for a player who picks at random, played by the kernel
    ``gwe_random_moves``. The units that may move and what of them holds all segment are
    worked out once (``_roster``), what the enemy's position decides on each call (the enemy
    does not move in the segment, but 10.52 may displace or eliminate its HQs when the kernel
    hands back). The kernel draws, searches, moves, entrains, moves by rail and detrains; here
    the choices and actions are logged, and the engine plays what the kernel hands back: the
    whole move of a reduced Austro-Hungarian unit (23.52) or an armored car (24.4), and 10.52
    after a move that threatens an enemy HQ."""
    from gwe_fast.games.gwe import command, rail

    sc, st = game.scenario, game.state
    m, u = sc.map, sc.units
    play = m.k.play
    kernel, ws, rng = play.gwe_random_moves, kernels.workspace(m), game.rngs[side]
    enemy = 1 - side
    flags, spent = game.arr("flags"), game.arr("mp_spent")
    roster, keys = _roster(game, side)
    done = np.zeros(u.n, dtype=np.uint8)
    hexes = np.zeros((play.HEX_ROWS, m.n_cells), dtype=np.uint8)
    hexes[play.H_RAIL] = rail.friendly_rail_hexes(sc, side)
    tables = np.empty((len(keys), m.n_cells, 6), dtype=np.int16)
    track_on = rail.track_limits_on(sc)
    limits = rail.line_limits(sc)[side]
    rate, capacity = rail.rail_rate(sc, side), rail.rail_capacity(sc, side)
    log = np.empty((8 * len(roster) + 16, play.GWE_LOG_COLUMNS), dtype=np.int32)
    paths = np.empty(4 * (rate + 2) * (len(roster) + 1), dtype=np.int32)
    events = game.events
    turn = int(st.turn)
    current = -1
    theirs, seen = u.of_side(enemy), None
    while True:
        # what the enemy's position decides: step costs (movement.step_costs), rail steps,
        # the masks, and its HQs alone (10.52); worked out again only when the enemy's units
        # changed since the last call (10.52 may displace or eliminate its HQs)
        now = (st.unit_cell[theirs].tobytes(), st.unit_status[theirs].tobytes(),
               flags[theirs].tobytes())
        on = (st.unit_status & Status.ON_MAP) != 0
        if now != seen:
            seen = now
            ezoc = controlled(sc, st, enemy)
            anyone = occupied(sc, st, enemy)
            combat = occupied(sc, st, enemy, hq_only_counts=False)
            ezoc_bytes = ezoc.tobytes()
            blocked = {True: anyone.tobytes(), False: combat.tobytes()}
            for i, key in enumerate(keys):
                tables[i] = movement._cost_table(sc, key // 2, False, blocked[bool(key % 2)],
                                                 ezoc_bytes)
            rail_table = rail._rail_table(
                sc, side, rail.rail_closed(sc, st, side, by_last=False).tobytes(), b"")
            hexes[play.H_EZOC] = ezoc
            hexes[play.H_ENEMY] = anyone
            hexes[play.H_HQ_ALONE] = rail.hq_alone(sc, st, enemy)
            hq_cells = st.unit_cell[on & (u.side == enemy) & (u.utype == _HQ)]
            hexes[play.H_ENEMY_HQ] = 0
            hexes[play.H_ENEMY_HQ, hq_cells] = 1
            threats = hq_cells[~combat[hq_cells]].astype(np.int32)
        own_combat = np.flatnonzero(on & (u.side == side) & (u.utype != _HQ)).astype(np.int32)
        rows, status, current, _ = kernel(
            rng, ws, tables, rail_table, limits, game.arr("track_used"), track_on, roster,
            done, hexes, threats, own_combat, current, side, rate, capacity,
            game.arr("rail_used"), st.unit_cell, st.unit_status, st.hex_last, flags, spent,
            game.arr("rail_hexes"), log, paths)
        for decision, n, pick, unit, action, dest, extra in log[:rows].tolist():
            if decision == play.PICK:
                if events is not None:
                    events.append(("choice", turn, "gwe.move.unit", side, pick))
                continue
            if n > 1 and events is not None:
                events.append(("choice", turn, "gwe.move.action", side, pick))
            if events is None or action == play.STOP:
                continue
            if action == play.MOVE:
                game.event("move", unit=unit, to=dest, mp=extra)
            elif action == play.ENTRAIN:
                game.event("entrain", unit=unit, mp=extra)
            elif action == play.RAIL:
                game.event("rail_move", unit=unit,
                           path=paths[extra + 1:extra + 1 + paths[extra]].tolist())
            else:
                game.event("detrain", unit=unit)
        if status == play.GWE_DONE:
            return
        if status == play.GWE_HANDOVER:
            move_one_unit(game, current)
            current = -1
        elif status == play.GWE_MOVED:
            entered_enemy_hq_hex(game, current)
            command.displace_lone_hqs(game, side)


def _roster(game: GweGame, side: int) -> tuple[np.ndarray, list[int]]:
    """The kernel's roster of the units that may move this segment (``movable``), and the
    keys of their step-cost tables: what holds for each of them all segment long (nothing
    the engine does in a segment changes it for a unit not yet moved). One kernel call,
    ``gwe_roster``."""
    from gwe_fast.games.gwe import rail

    sc, st = game.scenario, game.state
    u, play = sc.units, sc.map.k.play
    mine = np.flatnonzero(movable(game, side))
    kind, n_keys = _roster_facts(sc)
    keys = np.empty(n_keys, dtype=np.int32)
    roster = np.empty((mine.size, play.ROSTER_COLUMNS), dtype=np.int32)
    n = play.gwe_roster(
        mine, st.unit_step, st.unit_status, game.arr("flags"), u.values, gwe_data(sc).tcr,
        u.stacking, kind, Status.OUT_OF_SUPPLY, Status.OUT_OF_COMMAND, Flag.LIVING_OFF_LAND,
        side == _ALLIED and int(st.turn) == rail.opening_turn(sc), roster, keys)      # 18.1
    return roster, keys[:n].tolist()


@lru_cache(maxsize=32)
def _roster_facts(scenario) -> tuple[np.ndarray, int]:
    """``(kind, n_keys)`` for ``gwe_roster``: each unit's kind bits (HQ, armored car,
    Austro-Hungarian; read-only) and the room every key of a step-cost table needs (made
    once)."""
    u, play = scenario.units, scenario.map.k.play
    kind = ((u.utype == _HQ) * play.KIND_HQ + (u.utype == _ARMORED_CAR) * play.KIND_CAR
            + (u.nationality == _AUSTRO_HUNGARIAN) * play.KIND_AH).astype(np.uint8)
    kind.flags.writeable = False
    return kind, 2 * max(int(gwe_data(scenario).tcr.max()), 1)


def move_one_unit(game: GweGame, unit: int) -> None:
    """One unit's move: any sequence of ordinary moves, entraining, rail moves and detraining
    the rules allow, until the owner stops (5.1-5.3, 5.17, 5.34, 5.35)."""
    from gwe_fast.games.gwe import command, rail

    sc, st = game.scenario, game.state
    side = int(sc.units.side[unit])
    spent = game.arr("mp_spent")
    hexes = 0          # hexes entered by ordinary movement since the last detraining (23.52)
    while st.unit_status[unit] & Status.ON_MAP:
        options: list[tuple] = [("stop",)]
        entrained = bool(st.unit_status[unit] & Status.ENTRAINED)
        if entrained:
            for dest, hexes in sorted(rail.rail_moves(game, unit).items()):
                options.append(("rail", dest))
            if rail.can_detrain(game, unit):
                options.append(("detrain",))
        else:
            if not st.unit_status[unit] & Status.OUT_OF_COMMAND:
                dist, pred = movement.routes(sc, st, unit, int(spent[unit]))
                here = int(st.unit_cell[unit])
                options += [("move", c) for c in (dist > 0).nonzero()[0].tolist() if c != here]
            if rail.can_entrain(game, unit):
                options.append(("entrain",))
        choice = game.ask("gwe.move.action", side, options, unit=unit)
        kind = choice[0]
        if kind == "stop":
            break
        if kind == "move":
            dest = choice[1]
            before = int(spent[unit])
            path = units.path_to(game, pred, dest)
            game.set_flag(unit, Flag.MOVED)
            for cell in path:                 # hex by hex: 23.52 may stop the unit on the way
                units.move_unit(game, unit, [cell])
                spent[unit] = before + int(dist[cell])
                hexes += 1
                if not rail.reduced_ah_move_check(game, unit, hexes, int(spent[unit])):
                    break
            game.event("move", unit=unit, to=dest, mp=int(spent[unit]) - before)
            if st.unit_status[unit] & Status.ON_MAP:
                entered_enemy_hq_hex(game, unit)
            command.displace_lone_hqs(game, side)
        elif kind == "entrain":
            rail.entrain(game, unit)
            game.set_flag(unit, Flag.MOVED)
        elif kind == "rail":
            rail.move_by_rail(game, unit, choice[1])
            game.set_flag(unit, Flag.MOVED)
            command.displace_lone_hqs(game, side)
        elif kind == "detrain":
            rail.detrain(game, unit)
            hexes = 0
    if (st.unit_status[unit] & Status.ON_MAP and sc.units.utype[unit] == _ARMORED_CAR):
        rail.armored_car_breakdown(game, unit)                   # 24.42


def entered_enemy_hq_hex(game: GweGame, unit: int) -> None:
    """10.52: enemy HQs alone in the hex a unit entered displace at once (or are eliminated
    when they cannot)."""
    from gwe_fast.games.gwe import command

    sc, st = game.scenario, game.state
    here = int(st.unit_cell[unit])
    for other in units.units_in(game, here):
        if sc.units.side[other] != sc.units.side[unit] and sc.units.utype[other] == _HQ:
            if not command.displace_hq(game, int(other)):
                units.eliminate(game, int(other), "other")


# --- the Combat Phase -----------------------------------------------------------------------

def combat_phase(game: GweGame, side: int) -> None:
    from gwe_fast.games.gwe import combat, command

    flags = game.arr("flags")
    flags[:] &= ~np.uint16(Flag.ATTACKED | Flag.DEFENDED | Flag.ADVANCED)
    command.command_segment(game, side, for_combat=True)         # 4.0 A3a
    combat.combat_phase(game, side)                              # 4.0 A3b
    command.clear_command(game, side)
    flags[:] &= ~np.uint16(Flag.RETREATED_IN)


# --- the record -----------------------------------------------------------------------------

def snapshot(game: GweGame, turn: int, side: int) -> dict:
    """One row of the per-turn record, after ``side``'s Player-Turn."""
    sc, st = game.scenario, game.state
    core = game.core
    if core is not None:
        return _core_snapshot(game, core, turn, side)
    on = (st.unit_status & _ON_MAP) != 0
    out_of_supply = on & ((st.unit_status & _OUT_OF_SUPPLY) != 0)
    towns = victory.russian_towns(game)
    held = set(towns)
    towns_vp = sum(p.vp for p in sc.places if p.cell in held)
    # the towns are the only points the end of the game adds (25.11)
    row = {"turn": turn, "side": Side(side).name.lower(), "vp": int(st.vp),
           "vp_if_ended_now": int(st.vp) + towns_vp, "towns_held_allied": len(towns),
           "towns_vp_allied": towns_vp}
    ooc = game.arr("ooc_count").tolist()
    steps_lost, sp_lost = game.arr("steps_lost"), game.arr("sp_lost").sum(axis=1).tolist()
    hexes_held = np.bincount(st.hex_last[st.hex_last >= 0], minlength=2).tolist()
    for s, name in _SIDE_NAMES:
        mine = sc.units.side == s
        lost = steps_lost[s].tolist()
        row[f"units_{name}"] = int(np.count_nonzero(on & mine))
        row[f"out_of_supply_{name}"] = int(np.count_nonzero(out_of_supply & mine))
        row[f"out_of_command_{name}"] = int(ooc[s])
        row[f"hexes_held_{name}"] = int(hexes_held[s])
        row[f"steps_lost_{name}"] = int(sum(lost))
        row[f"sp_lost_{name}"] = int(sp_lost[s])
        for i, cause in enumerate(LOSS_CAUSES):
            row[f"steps_lost_{name}_{cause}"] = int(lost[i])
    return row


def _core_snapshot(game: GweGame, core, turn: int, side: int) -> dict:
    """``snapshot`` from the numbers the compiled core counts (``GweCore.record_row``): the
    same row."""
    return _record_row(core.record_row(turn, side).tolist())


def _record_row(numbers: list[int]) -> dict:
    """A row of the per-turn record from the core's numbers (``GweCore.record_row``, whose
    ``RECORD_COLUMNS`` name them), its keys in ``snapshot``'s order (``_ROW_KEYS``)."""
    turn, side, vp, towns, towns_vp = numbers[:_SIDES]
    values = [turn, _SIDE_NAMES[side][1], vp, vp + towns_vp, towns, towns_vp]
    for at in (_SIDES, _SIDES + _PER_SIDE):
        units, out_of_supply, out_of_command, hexes_held, sp_lost, *lost = \
            numbers[at:at + _PER_SIDE]
        values += (units, out_of_supply, out_of_command, hexes_held, sum(lost), sp_lost, *lost)
    return dict(zip(_ROW_KEYS, values, strict=True))


#: where each side's numbers begin in a row of ``GweCore.record_row``, and how many
_SIDES, _PER_SIDE = 5, 5 + len(LOSS_CAUSES)
#: (side, its name in the record), in the order of ``Side``
_SIDE_NAMES = tuple((int(s), s.name.lower()) for s in Side)
_ON_MAP, _OUT_OF_SUPPLY = int(Status.ON_MAP), int(Status.OUT_OF_SUPPLY)
#: the keys of a row of the per-turn record, in ``snapshot``'s order
_ROW_KEYS = ("turn", "side", "vp", "vp_if_ended_now", "towns_held_allied",
             "towns_vp_allied") + tuple(
    key for _, name in _SIDE_NAMES
    for key in (f"units_{name}", f"out_of_supply_{name}", f"out_of_command_{name}",
                f"hexes_held_{name}", f"steps_lost_{name}", f"sp_lost_{name}",
                *[f"steps_lost_{name}_{cause}" for cause in LOSS_CAUSES]))
