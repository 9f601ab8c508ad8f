"""The sequence of play of The Kaiser's Battle (4.2).

Each Game-Turn: A Weather Stage, B Air Operations Stage, C Reinforcement Stage, D Artillery
Stage (counter-battery, persistent gas, drumfire), E German Player-Turn (breakdown, movement in
two segments, combat), F Allied Player-Turn (movement, combat), G Terminal Phase. ``play``
runs the scenario from the phase the state says to the end; a game saved at a phase boundary
resumes exactly.
"""

from __future__ import annotations

import numpy as np

from gwe_fast import kernels
from gwe_fast.enums import KbPhase, Side, UnitType
from gwe_fast.game import picks_at_random
from gwe_fast.games import GameResult
from gwe_fast.games.kb import movement, units, victory
from gwe_fast.games.kb.game import LOSS_CAUSES, MISSIONS, WEATHER, Flag, KbGame
from gwe_fast.games.kb.zoc import controlled, occupied
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_CENTRAL = int(Side.CENTRAL)
_HQ = int(UnitType.HQ)

(WEATHER_STAGE, AIR_STAGE, REINFORCEMENT_STAGE, ARTILLERY_STAGE, GERMAN_BREAKDOWN,
 GERMAN_MOVEMENT, GERMAN_COMBAT, ALLIED_MOVEMENT, ALLIED_COMBAT, TERMINAL) = (
    KbPhase.WEATHER_STAGE, KbPhase.AIR_STAGE, KbPhase.REINFORCEMENT_STAGE, KbPhase.ARTILLERY_STAGE,
    KbPhase.GERMAN_BREAKDOWN, KbPhase.GERMAN_MOVEMENT, KbPhase.GERMAN_COMBAT,
    KbPhase.ALLIED_MOVEMENT, KbPhase.ALLIED_COMBAT, KbPhase.TERMINAL)
PHASE_NAMES = {WEATHER_STAGE: "weather", AIR_STAGE: "air", REINFORCEMENT_STAGE: "reinforcement",
               ARTILLERY_STAGE: "artillery", GERMAN_BREAKDOWN: "german_breakdown",
               GERMAN_MOVEMENT: "german_movement", GERMAN_COMBAT: "german_combat",
               ALLIED_MOVEMENT: "allied_movement", ALLIED_COMBAT: "allied_combat",
               TERMINAL: "terminal"}
PHASING = {GERMAN_BREAKDOWN: Side.CENTRAL, GERMAN_MOVEMENT: Side.CENTRAL,
           GERMAN_COMBAT: Side.CENTRAL, ALLIED_MOVEMENT: Side.ALLIED,
           ALLIED_COMBAT: Side.ALLIED}
#: the phases of a Game-Turn in playing order (4.2): A-D, the German Player-Turn (E), the
#: Allied Player-Turn (F), G
ORDER = tuple(range(WEATHER_STAGE, TERMINAL + 1))
#: the same with the Allied Player-Turn first: the ``first_player = "allied"`` variant
ALLIED_FIRST = (WEATHER_STAGE, AIR_STAGE, REINFORCEMENT_STAGE, ARTILLERY_STAGE, ALLIED_MOVEMENT,
                ALLIED_COMBAT, GERMAN_BREAKDOWN, GERMAN_MOVEMENT, GERMAN_COMBAT, TERMINAL)


def phase_order(scenario) -> tuple[int, ...]:
    """The phases of each Game-Turn in the order they are played. The rules put the German
    Player-Turn first (4.2, ``first_player = "central"``, the bundled scenario). With
    ``first_player = "allied"`` (a variant for measuring the seat, docs/rulings.md) the
    Allied Player-Turn (F) comes before the German one (E); the stages A-D and the Terminal
    Phase stay where they are."""
    return ALLIED_FIRST if int(scenario.first_player) == int(Side.ALLIED) else ORDER


def second_player(scenario) -> int:
    """The side whose Player-Turn ends each Game-Turn: nothing follows it on the last one."""
    return int(Side.ALLIED) if int(scenario.first_player) == _CENTRAL else _CENTRAL


def play(game: KbGame, check=None) -> GameResult:
    """Play to the end of the last Game-Turn (20.0). ``check(game, phase_name)``, if given, is
    called at the end of every phase (the invariant checker of the tests)."""
    sc, st = game.scenario, game.state
    per_turn = advance(game, check=check)
    st.turn = np.int16(sc.last_turn)
    victory.final_score(game)
    level = victory.level(game)
    return GameResult(vp=int(st.vp), level=level, winner=victory.winner(level),
                      turns_played=sc.last_turn - sc.first_turn + 1, per_turn=per_turn)


def advance(game: KbGame, until: tuple[int, int] | None = None, check=None) -> list[dict]:
    """Run the phases from the one the state says, up to (not including) phase ``until =
    (turn, phase)``, or to the end of the last Game-Turn; the per-turn record rows of the
    Player-Turns played. ``play`` is this and the final score; a look-ahead policy plays a
    copy of the game ahead with it. Phases are compared in playing order (``phase_order``)."""
    sc, st = game.scenario, game.state
    order = phase_order(sc)
    core = game.core
    if core is not None and until is None and check is None and COMPILED_RANDOM_MOVES:
        rows = core.play_out(order, _PHASING_CODES)               # every phase in C
        if rows is not None:
            return [_record_row(turn, side, vp, weather, numbers)
                    for turn, side, vp, weather, *numbers in rows]
    rank = {ph: i for i, ph in enumerate(order)}
    stop = None if until is None else (int(until[0]), rank[int(until[1])])
    per_turn: list[dict] = []
    turn = int(st.turn)
    start = rank[int(st.phase)] if int(st.phase) > 0 else 0
    while turn <= sc.last_turn:
        st.turn = np.int16(turn)
        for i in range(start, len(order)):
            phase = order[i]
            if stop is not None and (turn, i) >= stop:
                st.phase = np.int16(phase)
                return per_turn
            st.phase = np.int16(phase)
            st.player = np.int8(PHASING.get(phase, Side.CENTRAL))
            game.begin_phase(int(st.player), phase)
            run_phase(game, phase)
            st.phase = np.int16(order[i + 1] if i + 1 < len(order) else 0)
            if check is not None:
                check(game, PHASE_NAMES[phase])
            if phase in (GERMAN_COMBAT, ALLIED_COMBAT):
                per_turn.append(snapshot(game, turn, int(PHASING[phase])))
        start = 0
        turn += 1
        if turn <= sc.last_turn:
            st.turn = np.int16(turn)
    return per_turn


def run_phase(game: KbGame, phase: int) -> None:
    from gwe_fast.games.kb import air, artillery, breakdown, combat, reinforcements, weather

    core = game.core
    if core is not None and (COMPILED_RANDOM_MOVES or phase not in _KERNEL_PHASES):
        if core.run_phase(phase):                                     # the compiled core
            return
    if phase == WEATHER_STAGE:
        start_of_turn(game)
        weather.weather_stage(game)                                   # 4.2 A, 11.1
    elif phase == AIR_STAGE:
        air.air_stage(game)                                           # 4.2 B, 12.0
    elif phase == REINFORCEMENT_STAGE:
        reinforcements.reinforcement_stage(game)                      # 4.2 C, 15.0
    elif phase == ARTILLERY_STAGE:
        artillery.counter_battery_phase(game)                         # 4.2 D1, 9.2
        artillery.gas_phase(game)                                     # 4.2 D2, 9.3
        artillery.drumfire_phase(game)                                # 4.2 D3, 9.4
    elif phase == GERMAN_BREAKDOWN:
        breakdown.breakdown_phase(game)                               # 4.2 E1, 13.1
    elif phase in (GERMAN_MOVEMENT, ALLIED_MOVEMENT):
        movement_phase(game, int(PHASING[phase]))                     # 4.2 E2, F1, 5.0
    elif phase in (GERMAN_COMBAT, ALLIED_COMBAT):
        side = int(PHASING[phase])
        air.deploy_observation(game, side)                            # 12.22
        combat.combat_phase(game, side)                               # 4.2 E3, F2, 8.0
    else:
        artillery.gas_removal(game)                                   # 4.2 G, 9.35
        end_of_turn(game)


#: the phases whose random players the Python engine hands to kernels while
#: ``COMPILED_RANDOM_MOVES`` is on: the compiled core plays them only then (the tests turn it
#: off to compare the kernels with the engine's own loops)
_KERNEL_PHASES = (GERMAN_MOVEMENT, ALLIED_MOVEMENT, GERMAN_COMBAT, ALLIED_COMBAT)


def start_of_turn(game: KbGame) -> None:
    """Both Artillery Tracks receive this Game-Turn's points (9.81, 9.82); on the first
    Game-Turn the units allowed to move by 17.11 are noted for 17.12."""
    from gwe_fast.games.kb import artillery

    artillery.receive(game)
    st = game.state
    if int(st.turn) == game.scenario.first_turn:
        opening_trench_units(game)


def end_of_turn(game: KbGame) -> None:
    flags = game.arr("flags")
    flags[:] &= ~np.uint16(Flag.ARRIVED)                          # 15.15, 15.16: this turn only
    game.arr("air")[:] = 0


# --- 17.1: movement on Game-Turns 1 and 2 ---------------------------------------------------

OPENING = Flag.OPENING
Q_GERMAN, Q_ALLIED_FIRST, Q_ALLIED_SECOND = 0, 1, 2
UNLIMITED = -1


def opening_trench_units(game: KbGame) -> None:
    """Mark the German units in trench hexes at the start of Game-Turn 1 (17.11)."""
    sc, st = game.scenario, game.state
    flags = game.arr("flags")
    ger = units.on_map(game, Side.CENTRAL)
    in_trench = ger & game.data.trench[np.maximum(st.unit_cell, 0)]
    flags[in_trench] |= np.uint16(OPENING)


def _corps_code(game: KbGame, corps: str) -> int:
    name = f"british {corps}"
    return game.data.corps_names.index(name) if name in game.data.corps_names else -2


def set_quotas(game: KbGame, side: int) -> None:
    """Roll the 17.12/17.13 limits at the start of a Movement Phase of Game-Turn 1 or 2."""
    tab = game.scenario.tables["opening_movement"]
    q = game.arr("move_quota")
    q[:] = UNLIMITED
    turn = int(game.state.turn)
    if turn > 2:                                                      # 17.15
        return
    if side == _CENTRAL:
        if turn == 2:                                                 # 17.12
            q[Q_GERMAN] = game.roll("opening", "17.12 German units") + int(
                tab["german_turn_2_extra_units_die_plus"])
        else:
            q[Q_GERMAN] = 0                                           # 17.11
    else:                                                             # 17.13
        plus = int(tab["allied_turn_1_die_plus"] if turn == 1 else tab["allied_turn_2_die_plus"])
        q[Q_ALLIED_FIRST] = game.roll("opening", "17.13 first corps") + plus
        q[Q_ALLIED_SECOND] = game.roll("opening", "17.13 second corps") + plus
    game.event("quotas", side=side, quotas=q.tolist())


def quota_slot(game: KbGame, unit: int) -> int | None:
    """Which 17.1 limit a unit's move counts against, None if it is free (17.14: Allied
    reinforcements of Game-Turn 2; German units of 17.11 on Game-Turn 2)."""
    turn = int(game.state.turn)
    if turn > 2:
        return None
    side = int(game.scenario.units.side[unit])
    flags = game.arr("flags")
    if side == _CENTRAL:
        if flags[unit] & OPENING:
            return None
        return Q_GERMAN
    if flags[unit] & Flag.ARRIVED:
        return None                                                   # 15.14, 17.14
    tab = game.scenario.tables["opening_movement"]
    corps = int(game.arr("corps")[unit])
    first, second = (str(c) for c in tab["allied_corps"])
    if corps == _corps_code(game, first):
        return Q_ALLIED_FIRST
    if corps == _corps_code(game, second):
        return Q_ALLIED_SECOND
    return None


def quota_slots(game: KbGame, us: np.ndarray) -> np.ndarray:
    """``int8``: ``quota_slot`` of each of the units ``us``, -1 where it is None."""
    out = np.full(len(us), -1, dtype=np.int8)
    if int(game.state.turn) > 2:
        return out
    flags = game.arr("flags")[us]
    german = game.scenario.units.side[us] == _CENTRAL
    out[german & ((flags & OPENING) == 0)] = Q_GERMAN
    allied = ~german & ((flags & Flag.ARRIVED) == 0)
    corps = game.arr("corps")[us]
    first, second = (str(c) for c in game.scenario.tables["opening_movement"]["allied_corps"])
    out[allied & (corps == _corps_code(game, second))] = Q_ALLIED_SECOND
    out[allied & (corps == _corps_code(game, first))] = Q_ALLIED_FIRST    # first as quota_slot
    return out


def within_limits(game: KbGame, us: np.ndarray) -> np.ndarray:
    """``bool``: for each of the units ``us``, whether its 17.1 limit (if any) still allows a
    move: unlimited, or some left."""
    slot = quota_slots(game, us)
    q = game.arr("move_quota")[np.maximum(slot, 0)]
    return (slot < 0) | (q == UNLIMITED) | (q > 0)


# --- the Movement Phase ---------------------------------------------------------------------

def movement_phase(game: KbGame, side: int) -> None:
    """Both Movement Segments (5.2), then stacking (7.21) and gas (9.34[2])."""
    from gwe_fast.games.kb import artillery, stacking

    flags = game.arr("flags")
    mine = game.scenario.units.side == side
    flags[mine] &= ~np.uint16(Flag.MOVED)
    set_quotas(game, side)
    for segment in (movement.FIRST, movement.SECOND):
        movement_segment(game, side, segment)
    stacking.enforce(game, side)                                      # 7.21
    artillery.gas_step_losses(game, side)                             # 9.34[2]
    flags[mine] &= ~np.uint16(Flag.NO_MOVE)                           # 13.12: this phase only


def movable(game: KbGame, side: int, segment: int, done: set[int],
            free: np.ndarray | None = None) -> list[int]:
    """The units the player may still move in the segment: ``free_to_move`` less those
    already offered (``done``) and those over their 17.1 limit. ``free``: ``free_to_move``
    of the segment when the caller has it (``movement_segment`` works it out once: a move
    changes only the moving unit, which is then in ``done``)."""
    if free is None:
        free = free_to_move(game, side, segment)
    if int(game.state.turn) <= 2:          # 17.1: no limit after Game-Turn 2
        free = free[within_limits(game, free)]
    return [u for u in free.tolist() if u not in done]


def free_to_move(game: KbGame, side: int, segment: int,
                 ezoc: np.ndarray | None = None) -> np.ndarray:
    """The side's units on the map that have not moved and may move in the segment (5.11,
    13.12; in the Second, 5.22 and 5.23), ascending, whatever their 17.1 limits. ``ezoc``:
    the enemy's zone of control, when the caller has it."""
    sc, st = game.scenario, game.state
    flags = game.arr("flags")
    free = units.on_map(game, side) & ((flags & (Flag.MOVED | Flag.NO_MOVE)) == 0)
    if segment == movement.SECOND:
        if ezoc is None:
            ezoc = controlled(game, 1 - side)
        hq = sc.units.utype == _HQ
        free &= ~(hq & (sc.units.extra["second_segment"] == 0))       # 5.23
        free &= ~ezoc[st.unit_cell]                                     # 5.22
    return free.nonzero()[0]


def movement_segment(game: KbGame, side: int, segment: int) -> None:
    """The phasing player moves units one at a time, each completing its move (5.0).

    A player who picks at random (``RandomPolicy``) plays the segment in the kernel
    ``kb_random_moves`` (``random_segment``) while ``COMPILED_RANDOM_MOVES`` is true: the same
    options in the same order, the same draws from the player's generator, the same moves and
    events as the loop below. Any other player has the segment played by the compiled core
    when the game has one (``KbCore.movement_segment``, while ``COMPILED_ASKED_MOVES`` is
    true), which asks it the questions of the loop below, with the same options in the same
    order."""
    if COMPILED_RANDOM_MOVES and picks_at_random(game, side):
        random_segment(game, side, segment)
        return
    core = game.core
    if COMPILED_ASKED_MOVES and core is not None and core.movement_segment(side, segment):
        return
    done: set[int] = set()
    # the units free to move, once: a move (or a stay, or an exit, 20.2) changes only the
    # moving unit's hex, flags, status and 17.1 limit, and it is in ``done`` from then on;
    # the enemy, whose zones of control the Second Segment reads (5.22), does not move
    free = free_to_move(game, side, segment)
    while True:
        options = movable(game, side, segment, done, free)
        if not options:
            return
        pick = game.ask("kb.move.unit", side, [-1] + options, segment=segment)
        if pick < 0:
            return
        done.add(pick)
        move_one(game, pick, segment)


#: play a random player's Movement Segments in the ``play`` kernel (the tests turn it off to
#: compare with the loop of ``movement_segment``)
COMPILED_RANDOM_MOVES = True
#: play any other player's Movement Segments in the compiled core, which asks the player (the
#: tests turn it off to compare with the loop of ``movement_segment``)
COMPILED_ASKED_MOVES = True


def random_segment(game: KbGame, side: int, segment: int) -> None:
    """``movement_segment`` for a player who picks at random, played by the kernel
    ``kb_random_moves``: the units ``movable`` offers, each one's allowance and 17.1 limit are
    worked out here once (nothing a friendly move does changes them, bar the limits, which the
    kernel keeps); the kernel draws, searches and moves; the choices and moves are logged
    here, and a unit leaving the map (20.2) leaves it here before the kernel goes on."""
    sc, st = game.scenario, game.state
    m = sc.map
    second = segment == movement.SECOND
    ezoc = controlled(game, 1 - side)
    closed = occupied(game, 1 - side)
    base = movement.open_step_costs(game)                           # the kernel closes hexes
    if second:
        closed = closed | ezoc                                          # 5.22
    mine = free_to_move(game, side, segment, ezoc).astype(np.int32)
    flags = game.arr("flags")
    allowance = movement.allowances(game, mine, segment)              # 5.22
    slot = quota_slots(game, mine)                                    # 17.1
    exits = (np.flatnonzero(game.data.exit_edge).astype(np.int32) if side == _CENTRAL
             else np.zeros(0, dtype=np.int32))                        # 20.2
    enter = movement.enter_costs(game).astype(np.int32)
    done = np.zeros(mine.size, dtype=np.uint8)
    log = np.empty((mine.size + 1, m.k.play.LOG_COLUMNS), dtype=np.int32)
    kernel, ws, rng = m.k.play.kb_random_moves, kernels.workspace(m), game.rngs[side]
    events = game.events
    turn = int(st.turn)
    while True:
        rows, status = kernel(rng, ws, base, closed.view(np.uint8), ezoc.view(np.uint8),
                              second, mine, allowance, slot,
                              game.arr("move_quota"), done, exits, enter, side, st.unit_cell,
                              st.hex_last, flags, int(Flag.MOVED), log)
        if events is not None:
            for pick, _, unit, to, n_to, dest, kind in log[:rows].tolist():
                events.append(("choice", turn, "kb.move.unit", side, pick))
                if unit < 0:
                    break
                if n_to > 1:
                    events.append(("choice", turn, "kb.move.to", side, to))
                if kind != m.k.play.STAY:
                    game.event("move", unit=unit, to=dest, segment=segment)
        if status != m.k.play.EXITING:
            return
        victory.exit_unit(game, int(log[rows - 1, 2]))                 # 20.2


def move_one(game: KbGame, unit: int, segment: int) -> None:
    """One unit's move: a destination it can reach this segment, off the western edge, or
    staying where it is."""
    sc, st = game.scenario, game.state
    side = int(sc.units.side[unit])
    here = int(st.unit_cell[unit])
    dist, pred = movement.routes(game, unit, segment)
    options: list[tuple] = [("stay",)]
    options += [("move", c) for c in (dist > 0).nonzero()[0].tolist() if c != here]
    exits = movement.exit_costs(game, unit, dist, segment)
    options += [("exit", c) for c in sorted(exits)]
    choice = game.ask("kb.move.to", side, options, unit=unit, segment=segment)
    if choice[0] == "stay":
        return
    dest = choice[1]
    path = units.path_to(game, pred, dest) if dest != here else []
    units.move_unit(game, unit, path)
    game.set_flag(unit, Flag.MOVED)
    slot = quota_slot(game, unit)
    q = game.arr("move_quota")
    if slot is not None and q[slot] > 0:
        q[slot] -= 1
    game.event("move", unit=unit, to=dest, segment=segment)
    if choice[0] == "exit":
        victory.exit_unit(game, unit)                                 # 20.2


# --- the record -----------------------------------------------------------------------------

def snapshot(game: KbGame, turn: int, side: int) -> dict:
    """One row of the per-turn record, after ``side``'s Player-Turn."""
    core = game.core
    if core is not None:
        return _core_snapshot(game, core, turn, side)
    sc, st = game.scenario, game.state
    towns = victory.german_towns(game)
    row = {"turn": turn, "side": _SIDE_NAMES[side], "vp": int(st.vp),
           "vp_if_ended_now": victory.provisional_vp(game, towns),
           "weather": WEATHER[int(game.arr("weather")[0])],
           "gas_markers": int((game.arr("gas") >= 0).sum()),
           "towns_held_central": int(towns.sum()),
           "exits_central": int(game.arr("exited")[0])}
    lost = game.arr("steps_lost").tolist()
    spent = game.arr("arty_spent")
    spent = spent.reshape(spent.shape[0], spent.shape[1], -1).sum(axis=2).tolist()
    on = np.flatnonzero(st.unit_status & Status.ON_MAP)
    side_of = sc.units.side[on]
    n_units = np.bincount(side_of, minlength=len(_SIDE_NAMES)).tolist()
    points = np.bincount(side_of, weights=units.stacking_each(game, on),
                         minlength=len(_SIDE_NAMES)).tolist()
    for s, (n_key, sp_key, lost_key, cause_keys, mission_keys) in enumerate(_SIDE_KEYS):
        row[n_key] = int(n_units[s])
        row[sp_key] = int(points[s])
        row[lost_key] = int(sum(lost[s]))
        row.update(zip(cause_keys, (int(x) for x in lost[s])))
        row.update(zip(mission_keys, (int(x) for x in spent[s])))
    return row


def _core_snapshot(game: KbGame, core, turn: int, side: int) -> dict:
    """``snapshot`` from the numbers the compiled core counts (``KbCore.record_numbers``):
    the same row, in the same order of keys."""
    return _record_row(turn, side, int(game.state.vp), int(game.arr("weather")[0]),
                       core.record_numbers())


def _record_row(turn: int, side: int, vp: int, weather: int, numbers) -> dict:
    """A row of the per-turn record from the score, the weather's code and the numbers of
    ``KbCore.record_numbers`` as they stood after ``side``'s Player-Turn: its towns, its
    score if the game ended now, gas markers, exits, then each side's units, stacking, steps
    lost (all, then by cause) and artillery points spent by mission (``_ROW_KEYS``)."""
    towns, ended, gas, exits, *rest = numbers
    return dict(zip(_ROW_KEYS, (turn, _SIDE_NAMES[side], vp, ended, WEATHER[weather], gas,
                                towns, exits, *rest), strict=True))


_SIDE_NAMES = tuple(s.name.lower() for s in Side)
#: the phasing side of each phase, by plain codes (``KbCore.play_out``)
_PHASING_CODES = {int(ph): int(side) for ph, side in PHASING.items()}
#: each side's keys of a record row: units, stacking, steps lost (all, then by cause), the
#: artillery points spent by mission
_SIDE_KEYS = tuple((f"units_{name}", f"stacking_{name}", f"steps_lost_{name}",
                    tuple(f"steps_lost_{name}_{cause}" for cause in LOSS_CAUSES),
                    tuple(f"artillery_{name}_{mission}" for mission in MISSIONS))
                   for name in _SIDE_NAMES)
#: the keys of a record row, in order: the turn's, then each side's
_ROW_KEYS = ("turn", "side", "vp", "vp_if_ended_now", "weather", "gas_markers",
             "towns_held_central", "exits_central") + tuple(
    key for n_key, sp_key, lost_key, causes, missions in _SIDE_KEYS
    for key in (n_key, sp_key, lost_key, *causes, *missions))


__all__ = ["play", "run_phase", "movement_phase", "snapshot", "PHASE_NAMES", "Status"]
