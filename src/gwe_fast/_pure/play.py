"""Pure-Python twin of ``gwe_fast._core.play``: parts of the turn loop, and rules it applies
over and over, readable first.

* ``draw``, ``draws``: what ``Generator.integers(n)`` gives for one ``n`` (``PlayedGame.ask``
  for a random player) and for each ``n`` in turn (one draw each; none for ``n == 1``, as
  ``PlayedGame.ask`` asks nobody when there is one option);
* ``kb_random_moves``: a Movement Segment of The Kaiser's Battle (5.0) whose player picks at
  random (``RandomPolicy``): the units offered one at a time, each one's moves, the draws of
  the player's generator in the engine's order, and the moves made.
* ``gwe_random_moves``: a Movement Segment of The Great War in the East (5.0) whose player
  picks at random: the units offered one at a time and each one's actions (ordinary moves,
  entraining, rail moves with the track limits of 18.3, detraining), handing back to the
  engine for the units whose move rolls dice (23.52, 24.42) and for 10.52.
* ``AttackPosition``: the declaration of a Great War in the East attack in one position
  (8.1-8.2, 8.8, 12.21, 17.0): the units that may attack some hexes together, whether a
  force reaches its CRT row's lowest odds, the hexes that may be attacked and the options of
  each step of a declaration, for every policy.
* ``gwe_supply``: a Great War in the East side's supply in one position (9.1, 19.1): its rail
  supply sources, its supplied depots, and its units in supply (or the hexes in supply,
  25.12), for every policy.
* ``gwe_command_radii``: the command radii of a Great War in the East side's HQs in one
  position (10.33, 10.34, 21.41), for every policy.
* ``gwe_hex_defenses``: the defenders of every hex of a Great War in the East side in one
  position (5.4, 5.36, 8.14, 8.66, 10.53, 12.15): their summed strengths and which hexes
  may still be attacked, for every policy's declaration.
* ``gwe_random_allocation``: a random player's allocation of units to HQs in a Great War in
  the East Command Control Segment (10.31), drawn as ``RandomPolicy`` would.
* ``gwe_withdrawals``: the cavalry withdrawals before combat of some Great War in the East
  units in one position (12.11, 12.13, 24.41), toward a supply source when any are (8.63
  priority 1).
* ``KbObligations``: the attack obligations of a Kaiser's Battle Combat Phase in one
  position (8.11-8.13, 8.21): the legal targets and each step of a declaration, for every
  policy, and a random player's whole declaration drawn as ``RandomPolicy`` would.

The engines' Python loops (``movement_segment`` of ``games.kb.engine`` and
``games.gwe.engine``, and the decisions asked one by one with ``engine.COMPILED_RANDOM_MOVES``
off) are the reference both are checked against, game by game.
"""

from __future__ import annotations

import numpy as np

from gwe_fast.enums import GweFlag, Status

#: what ``kb_random_moves`` returns with the number of rows logged
STOPPED, EXITING = 0, 1
#: the kinds of move in the log
STAY, MOVE, EXIT = 0, 1, 2
#: the columns of a log row: the unit pick and how many options it had (the first is "no
#: more moves"), the unit (-1 for none), the destination pick and how many options it had,
#: the destination cell and the kind of move
LOG_COLUMNS = 7


def draw(rng: np.random.Generator, n: int) -> int:
    """A random option among ``n``, as ``RandomPolicy`` draws it through ``PlayedGame.ask``:
    nothing is drawn when there is a single option."""
    if int(n) < 1:
        raise ValueError(f"cannot draw among {int(n)} options")
    return int(rng.integers(n)) if n > 1 else 0


def draws(rng: np.random.Generator, ns) -> np.ndarray:
    """``draw(rng, n)`` for each of ``ns`` in turn, as ``int64``."""
    out = []
    for n in ns:
        if int(n) < 1:
            raise ValueError(f"cannot draw among {int(n)} options")
        out.append(draw(rng, int(n)))
    return np.array(out, dtype=np.int64)


def kb_random_moves(rng, ws, base, closed, ezoc, second, units, allowance, slot, quota, done,
                    exits, enter, side, unit_cell, hex_last, flags, moved, log):
    """Play a Kaiser's Battle Movement Segment for a player who picks at random, until the
    player stops, no unit is left to move, or a unit is to leave the map.

    Parameters
    ----------
    rng : numpy.random.Generator
        The player's generator (``PlayedGame.rngs[side]``).
    ws : SearchWorkspace
        A workspace on the map (its ``neighbors`` are the map's).
    base : int16[n, 6]
        The step costs with no hex closed (``movement.open_step_costs``: terrain, hexsides
        and gas).
    closed : uint8[n]
        The hexes the segment closes: enemy-occupied, and in the Second Segment the enemy's
        zone of control too (``movement._step_costs`` of the same). No step enters one.
    ezoc : uint8[n]
        The enemy's zone of control.
    second : bool
        The Second Movement Segment (5.22) rather than the First.
    units, allowance, slot : int32[k], int32[k], int8[k]
        The units that may move this segment in ascending order (``engine.free_to_move`` at
        its start), each one's Movement Allowance this segment, and its 17.1 limit
        (``quota`` index, -1 for none).
    quota : int16[4]
        The 17.1 limits (-1 unlimited); decreased as units move.
    done : uint8[k]
        Units already offered their move this segment; set as they are.
    exits, enter : int32[e], int32[n]
        The western edge hexes a unit may leave the map from (20.2; empty for the Allied
        player), and the Movement Points to enter each hex (gas doubled).
    side : int
        The moving side.
    unit_cell, hex_last, flags : the game's arrays, changed as units move.
    moved : int
        ``Flag.MOVED``, set on each unit that moves.
    log : int32[k + 1, LOG_COLUMNS]
        One row per decision taken (see ``LOG_COLUMNS``).

    Returns
    -------
    (rows, status)
        The rows written to ``log`` and ``STOPPED`` or ``EXITING`` (the last row's unit has
        reached its exit hex and is to leave the map: the caller removes it and calls again).
    """
    nb = ws.neighbors
    closed = np.asarray(closed, dtype=bool)
    cost = np.array(base, dtype=np.int16)
    cost[(nb >= 0) & closed[np.maximum(nb, 0)]] = -1          # no step into a closed hex
    rows = 0
    while True:
        offered = [j for j in range(len(units)) if not done[j]
                   and (slot[j] < 0 or quota[slot[j]] == -1 or quota[slot[j]] > 0)]
        if not offered:
            return rows, STOPPED
        pick = draw(rng, len(offered) + 1)
        if pick == 0:                                       # the "no more moves" option
            log[rows] = (0, len(offered) + 1, -1, 0, 0, -1, STAY)
            return rows + 1, STOPPED
        j = offered[pick - 1]
        u = int(units[j])
        done[j] = 1
        here = int(unit_cell[u])
        ma = int(allowance[j])

        # the unit's routes (movement.routes)
        table, stop = cost, None
        if not second:
            stop = np.array(ezoc, dtype=np.uint8)
            stop[here] = 0
            if ezoc[here]:                                  # 5.13: leaving an enemy ZOC
                table = np.array(cost, dtype=np.int16)
                for d in range(6):
                    w = int(nb[here, d])
                    if w >= 0 and ezoc[w]:
                        table[here, d] = -1
                    elif table[here, d] >= 0:
                        table[here, d] += ma // 2
        dist, pred = ws.run(table, [here], limit=ma, stop=stop, copy=True)
        dist, pred = dist[0], pred[0]
        for d in range(6):                                  # 5.15: one hex always
            w, c = int(nb[here, d]), int(table[here, d])
            if w >= 0 and c >= 0 and dist[w] < 0:
                dist[w] = c
                pred[w] = here

        # the options, in the engine's order: stay, the hexes in cell order, the exits
        moves = [int(c) for c in np.flatnonzero(dist > 0) if c != here]
        outs = []
        for c in exits:                                     # 20.2 (movement.exit_costs)
            c = int(c)
            if dist[c] < 0:
                continue
            extra = int(enter[c])
            if ezoc[c]:
                if c != here or second:
                    continue
                extra += ma // 2
            if int(dist[c]) + extra <= ma:
                outs.append(c)
        n_options = 1 + len(moves) + len(outs)
        to = draw(rng, n_options)
        if to == 0:
            kind, dest = STAY, here
        elif to <= len(moves):
            kind, dest = MOVE, moves[to - 1]
        else:
            kind, dest = EXIT, outs[to - 1 - len(moves)]
        log[rows] = (pick, len(offered) + 1, u, to, n_options, dest, kind)
        rows += 1
        if kind == STAY:
            continue

        # the move (units.move_unit, the flag, the 17.1 limit)
        path = []
        s = dest
        while s >= 0 and s != here:
            path.append(s)
            s = int(pred[s])
        if path:
            hex_last[path] = side
            unit_cell[u] = dest
        flags[u] |= moved
        if slot[j] >= 0 and quota[slot[j]] > 0:
            quota[slot[j]] -= 1
        if kind == EXIT:
            return rows, EXITING



# --- The Great War in the East -------------------------------------------------------------

#: what ``gwe_random_moves`` returns first: the segment is over; the unit just picked is to
#: be moved by the engine (its whole move); the unit under way moved and the engine is to
#: apply 10.52 (then call again with it); the log or the path buffer is full (call again
#: with the unit returned)
GWE_DONE, GWE_HANDOVER, GWE_MOVED, GWE_FULL = 0, 1, 2, 3
#: the decisions in the log: which unit (or none) moves next, and what the unit does
PICK, ACTION = 0, 1
#: the actions of a unit besides an ordinary ``MOVE``: stop, entrain, move by rail, detrain
STOP, ENTRAIN, RAIL, DETRAIN = 0, 2, 3, 4
#: the columns of the roster: the unit, its step-cost table, its Movement Allowance, its TCR
#: if nothing but its hex, its points spent, its rail use and the capacity left may stop it
#: entraining (else 0), its Stacking Points, its traits
R_UNIT, R_TABLE, R_ALLOWANCE, R_ENTRAIN_TCR, R_STACKING, R_TRAITS = range(6)
ROSTER_COLUMNS = 6
#: the traits: the engine plays the unit's whole move (a reduced Austro-Hungarian unit, 23.52;
#: an armored car, 24.4); an HQ (never counted toward Rail Capacity, 5.31; not a combat unit,
#: so its moves threaten no enemy HQ, 10.52)
T_HANDOVER, T_HQ = 1, 2
#: the bits of a unit's kind (``gwe_roster``): an HQ, the armored car, Austro-Hungarian
KIND_HQ, KIND_CAR, KIND_AH = 1, 2, 4
#: the rows of the hex masks: a Friendly rail line, the enemy's zone of control, enemy units
#: (HQs included), enemy HQs, enemy HQs with no other enemy unit
H_RAIL, H_EZOC, H_ENEMY, H_ENEMY_HQ, H_HQ_ALONE = range(5)
HEX_ROWS = 5
#: the columns of a log row: the decision, how many options it had, the option drawn, the
#: unit (-1 for "no more moves"); for an action its kind, the hex it ends in, and the
#: Movement Points spent (a move, entraining) or where its path starts in ``paths`` (rail)
GWE_LOG_COLUMNS = 7


def gwe_roster(units, unit_step, unit_status, flags, values, tcr, stacking, kind,
               out_of_supply, out_of_command, off_land, never_by_rail, roster, keys):
    """The roster of ``gwe_random_moves`` for ``units``, written into ``roster``, and the keys
    of their step-cost tables, written into ``keys``; returns the keys written.

    Parameters
    ----------
    units : int64[k]
        The units that may move (``engine.movable``), ascending.
    unit_step, unit_status, flags : the game's arrays.
    values, tcr, stacking : int16[units, steps, 3], int8[units], int8[units]
        The printed values of each step, each unit's TCR and Stacking Points.
    kind : uint8[units]
        ``KIND_HQ``, ``KIND_CAR`` (the armored car), ``KIND_AH`` (Austro-Hungarian) bits.
    out_of_supply, out_of_command, off_land : int
        The status bits OUT_OF_SUPPLY, OUT_OF_COMMAND and the flag LIVING_OFF_LAND.
    never_by_rail : bool
        No unit but HQs may entrain this segment (18.1, the Russians' opening turn).
    roster : int32[k, ROSTER_COLUMNS]
        Out: per unit, its step-cost table (the rank of its key among ``keys``), its Movement
        Allowance (halved, fractions down but never below one, out of supply unless an HQ or
        living off the land: 9.21, 10.35, 19.42), its TCR if nothing but the hex, the
        points spent, rail use and capacity may stop it entraining, else 0 (5.32, 5.35,
        10.35, 18.1), its Stacking Points and traits (``T_HANDOVER``: the armored car, 24.4,
        or a reduced Austro-Hungarian unit other than an HQ, 23.52; ``T_HQ``).
    keys : int32[>= 2 * (largest TCR)]
        Out: the keys of the tables in use, ascending: ``(TCR - 1) * 2``, plus one for a unit
        of attack strength 0 or less (it may enter a hex of enemy HQs only, 10.52).
    """
    mine = np.asarray(units, dtype=np.int64)
    flags, status = np.asarray(flags)[mine], np.asarray(unit_status)[mine]
    step = np.asarray(unit_step)[mine].astype(np.intp)
    vals = np.asarray(values)[mine, step]
    kinds = np.asarray(kind)[mine]
    is_hq = (kinds & KIND_HQ) != 0
    allowance = vals[:, 2].astype(np.int32)
    halved = ((status & out_of_supply) != 0) & ~is_hq & ((flags & off_land) == 0)
    allowance[halved] = np.maximum(1, allowance[halved] // 2)
    t = np.asarray(tcr)[mine].astype(np.int32)
    key = (t - 1) * 2 + (vals[:, 0] <= 0)
    if key.size and (int(t.min()) < 1 or int(key.max()) >= len(keys)):
        raise ValueError("a unit's TCR leaves no room for its table's key")
    present = np.bincount(key, minlength=1) > 0
    found, table_of = np.flatnonzero(present), (np.cumsum(present) - 1)[key]
    never = ((status & out_of_command) != 0) | (((status & out_of_supply) != 0) & ~is_hq)
    if never_by_rail:
        never |= ~is_hq
    handover = ((kinds & KIND_CAR) != 0) | (((kinds & KIND_AH) != 0) & ~is_hq & (step > 0))
    roster[:, R_UNIT] = mine
    roster[:, R_TABLE] = table_of
    roster[:, R_ALLOWANCE] = allowance
    roster[:, R_ENTRAIN_TCR] = np.where(never, 0, t)
    roster[:, R_STACKING] = np.asarray(stacking)[mine]
    roster[:, R_TRAITS] = handover * T_HANDOVER + is_hq * T_HQ
    keys[:found.size] = found
    return int(found.size)


def gwe_random_moves(rng, ws, tables, rail_table, limits, track_used, track_on, roster, done,
                     hexes, threats, own_combat, current, side, rate, capacity, rail_used,
                     unit_cell, unit_status, hex_last, flags, spent, rail_hexes, log, paths):
    """Play a Movement Segment of The Great War in the East for a player who picks at random,
    until the segment ends or the engine must act.

    The engine's loop (``games.gwe.engine.movement_segment`` and ``move_one_unit``) offers the
    units that may still move after "no more moves", then each action of the unit picked
    until it stops. A unit not entrained may stop, move to a hex it can reach (in cell order;
    5.1-5.2, 5.17) or entrain (5.32); an entrained one may stop, move by rail to a hex (in
    cell order; 5.33, 18.2-18.3) or detrain (5.34-5.35). Here the same options are drawn in
    the same order from the player's generator and the actions taken, for every unit but
    those the engine moves itself (``T_HANDOVER``).

    Parameters
    ----------
    rng : numpy.random.Generator
        The player's generator (``PlayedGame.rngs[side]``).
    ws : SearchWorkspace
        A workspace on the map.
    tables : int16[t, n, 6]
        Step-cost tables (``movement.step_costs``).
    rail_table : int16[n, 6]
        The side's rail steps into hexes a train may enter (``rail._rail_step_costs`` without
        track limits, nor the hexes the enemy occupied last: the segment's moves change
        those, so they are read from ``hex_last`` here).
    limits, track_used : int16[n, 6, 2]
        What each rail line carries (``rail.line_limits`` of the side) and has carried this
        phase (``track_used``, changed by rail moves); read only when ``track_on`` (18.3).
    roster : int32[k, ROSTER_COLUMNS]
        The units that may move (``engine.movable`` at the segment's start), in ascending
        order; units ``done`` need not be on the map any more.
    done : uint8[units of the game]
        Units already picked this segment; set as they are.
    hexes : uint8[HEX_ROWS, n]
        The hex masks (``H_RAIL`` ...). The enemy does not move in a segment, so they hold
        until the engine acts.
    threats : int32[h]
        The hexes of the enemy HQs with no combat unit of theirs: one with a combat unit of
        ``side`` next to it is displaced (10.52).
    own_combat : int32[c]
        The combat units (not HQs) of ``side`` on the map.
    current : int
        The unit whose move goes on (returned by the call before), or -1.
    side, rate, capacity : int
        The moving side, its rail rate in hexes (18.21) and its Rail Capacity (5.31).
    rail_used : int16[2]
        The Stacking Points counted toward Rail Capacity this phase, per side.
    unit_cell, unit_status, hex_last, flags, spent, rail_hexes : the game's arrays (``spent``
        is ``mp_spent``), changed as units act: the flags ``GweFlag.MOVED``, ``USED_RAIL`` and
        ``RAIL_COUNTED``, the statuses ``Status.ENTRAINED`` and ``OUT_OF_COMMAND``.
    log : int32[r, GWE_LOG_COLUMNS]
        One row per decision drawn (see ``GWE_LOG_COLUMNS``).
    paths : int32[p]
        The rail paths, each its number of cells then the cells from the start.

    Returns
    -------
    (rows, status, unit, used)
        The rows written to ``log``, the status (``GWE_DONE`` ...), the unit whose move is
        under way (-1 for none), and the entries of ``paths`` written.
    """
    nb = ws.neighbors
    moved, used_rail, counted_bit = GweFlag.MOVED, GweFlag.USED_RAIL, GweFlag.RAIL_COUNTED
    entrained_bit, ooc_bit = Status.ENTRAINED, Status.OUT_OF_COMMAND
    units = [int(r[R_UNIT]) for r in roster]
    at = units.index(current) if current in units else -1
    if current >= 0 and (at < 0 or roster[at][R_TRAITS] & T_HANDOVER):
        raise ValueError(f"unit {current} is not a unit the segment may go on moving")
    here_count = np.zeros(hexes.shape[1], dtype=np.int32)
    for u in own_combat:
        here_count[int(unit_cell[u])] += 1
    rows = used = 0
    while True:
        if rows >= len(log) or used + rate + 2 > len(paths):
            return rows, GWE_FULL, units[at] if at >= 0 else -1, used
        if at < 0:                                  # the next unit, or "no more moves"
            offered = [j for j in range(len(units)) if not done[units[j]]]
            if not offered:
                return rows, GWE_DONE, -1, used
            pick = draw(rng, len(offered) + 1)
            log[rows] = (PICK, len(offered) + 1, pick,
                         -1 if pick == 0 else units[offered[pick - 1]], 0, -1, 0)
            rows += 1
            if pick == 0:
                return rows, GWE_DONE, -1, used
            at = offered[pick - 1]
            done[units[at]] = 1
            if roster[at][R_TRAITS] & T_HANDOVER:
                return rows, GWE_HANDOVER, units[at], used
            continue

        # one action of the unit under way
        u = units[at]
        here = int(unit_cell[u])
        ma, sp = int(roster[at][R_ALLOWANCE]), int(roster[at][R_STACKING])
        # rail.has_room: counted already, or never (an HQ), or the capacity left
        counted = bool(roster[at][R_TRAITS] & T_HQ) or bool(flags[u] & counted_bit)
        room = counted or sp <= capacity - int(rail_used[side])
        entrained = bool(unit_status[u] & entrained_bit)
        entrain = detrain = False
        if entrained:
            # rail.rail_moves: along the rail within the rate left, never to a hex holding
            # enemy units
            left = rate - int(rail_hexes[u])
            moves = []
            if room and left > 0:
                # rail._rail_step_costs: no step into a hex the enemy occupied last (unless
                # only its HQs are there, 5.33), nor across a line that cannot carry the unit
                table = np.array(rail_table, dtype=np.int16)
                last = (np.asarray(hex_last) == 1 - side) & ~np.asarray(hexes[H_HQ_ALONE], bool)
                table[(nb >= 0) & last[np.maximum(nb, 0)]] = -1
                if track_on and sp > 0:                                 # 18.31, 18.33
                    carry = np.where(limits >= 0, limits - track_used, -1)
                    table[np.maximum(carry[..., 0], carry[..., 1]) < sp] = -1
                dist, pred = ws.run(table, [here], limit=left, copy=True)
                dist, pred = dist[0], pred[0]
                moves = [int(c) for c in np.flatnonzero(dist > 0)
                         if c != here and not hexes[H_ENEMY][c]]
            detrain = not unit_status[u] & ooc_bit                      # 5.35
            n_options = 1 + len(moves) + (1 if detrain else 0)
        else:
            # movement.routes
            table = tables[int(roster[at][R_TABLE])]
            dist, pred = ws.run(table, [here], limit=max(ma - int(spent[u]), 0), copy=True)
            dist, pred = dist[0], pred[0]
            if spent[u] == 0:                               # 5.17: one hex always
                for d in range(6):
                    w, c = int(nb[here, d]), int(table[here, d])
                    if w >= 0 and c >= 0 and dist[w] < 0:
                        dist[w] = c
                        pred[w] = here
            moves = [int(c) for c in np.flatnonzero(dist > 0) if c != here]
            # rail.can_entrain: what the roster leaves to the hex, the points spent, the rail
            # used and the capacity
            tcr = int(roster[at][R_ENTRAIN_TCR])
            if ma >= tcr:
                points = int(spent[u]) + tcr <= ma
            else:                                                       # 18.25
                points = int(spent[u]) == 0 and not flags[u] & used_rail
            entrain = (tcr > 0 and room and bool(hexes[H_RAIL][here])
                       and (tcr == 1 or not hexes[H_EZOC][here]) and points)
            n_options = 1 + len(moves) + (1 if entrain else 0)
        to = draw(rng, n_options)
        if to == 0:
            log[rows] = (ACTION, n_options, to, u, STOP, here, 0)
            rows += 1
            at = -1
            continue
        if to > len(moves):
            if entrain:                                     # rail.entrain (5.32)
                mp = min(tcr, ma)
                spent[u] += mp
                if not counted:                             # rail.charge_capacity
                    rail_used[side] += sp
                    flags[u] |= counted_bit
                flags[u] |= moved
                unit_status[u] |= entrained_bit
                log[rows] = (ACTION, n_options, to, u, ENTRAIN, here, mp)
            else:                                           # rail.detrain (5.34)
                unit_status[u] &= ~np.uint16(entrained_bit)
                log[rows] = (ACTION, n_options, to, u, DETRAIN, here, 0)
            rows += 1
            continue
        dest = moves[to - 1]
        if entrained:
            # rail.move_by_rail: the path from the start, after its length, into paths
            path = [dest]
            while pred[path[-1]] >= 0:
                path.append(int(pred[path[-1]]))
            path.reverse()
            paths[used] = len(path)
            paths[used + 1:used + 1 + len(path)] = path
            if not counted:                                 # rail.charge_capacity
                rail_used[side] += sp
                flags[u] |= counted_bit
            if track_on and sp > 0:                         # 18.31, 18.33: best fit
                for a, b in zip(path, path[1:]):
                    d = [int(x) for x in nb[a]].index(b)
                    carry = [int(limits[a, d, s]) - int(track_used[a, d, s])
                             if limits[a, d, s] >= 0 else -1 for s in (0, 1)]
                    line = min((s for s in (0, 1) if carry[s] >= sp),
                               key=lambda s: (carry[s], s))
                    track_used[a, d, line] += sp
                    track_used[b, (d + 3) % 6, line] += sp
            rail_hexes[u] += len(path) - 1
            hex_last[path] = side
            flags[u] |= used_rail | moved
            log[rows] = (ACTION, n_options, to, u, RAIL, dest, used)
            used += len(path) + 1
        else:
            mp = int(dist[dest])
            log[rows] = (ACTION, n_options, to, u, MOVE, dest, mp)
            # the move, hex by hex (units.move_unit; 23.52 cannot stop this unit)
            flags[u] |= moved
            s = dest
            while s >= 0 and s != here:
                hex_last[s] = side
                s = int(pred[s])
            spent[u] += mp
        rows += 1
        unit_cell[u] = dest
        if not roster[at][R_TRAITS] & T_HQ:                 # a combat unit moved
            here_count[here] -= 1
            here_count[dest] += 1
        # 10.52: an enemy HQ in the hex entered, or one alone next to a combat unit
        near = [int(w) for t in threats for w in nb[int(t)] if w >= 0]
        if hexes[H_ENEMY_HQ][dest] or any(here_count[w] > 0 for w in near):
            return rows, GWE_MOVED, u, used


# --- The Great War in the East: declaring an attack (8.1-8.2, 8.8, 12.21, 17.0) ----------------

class AttackPosition:
    """What the declaration of an attack reads of one position, with the questions it asks
    (``games.gwe.combat``): which units may attack some hexes together, whether a force
    reaches the lowest odds of its CRT row, which hexes may be attacked, and the options of
    each step of a declaration.

    Parameters
    ----------
    neighbors, prohibited, halved : int32[n, 6], uint8[n, 6], uint8[n, 6]
        The map's neighbours, the hexsides no attack crosses and those halving an attacker
        (``combat.combat_terrain``).
    units, cell, attack, cavalry, nationality, tcr, hq : [k]
        The units that may attack (``combat.may_attack``), ascending, with each one's hex,
        attack strength before terrain and support (``combat.unit_attack``), whether it is
        cavalry, its nationality, its TCR and whether it is an HQ (a heroic leader).
    defense, full : int32[n], uint8[n]
        The defending strength of each hex that may be attacked (``combat.defense_strength``
        of the hex alone; a force's is the sum over its hexes), and the hexes holding only
        cavalry, depots and HQs, with no fortress (12.21).
    ratios, row_len : int32[r, c, 2], int32[r]
        Each CRT odds row's ``(attack, defense)`` ratios (``GweData.crt.ratios``) and how many.
    row_of_tcr : int32[t]
        The row of a force whose worst TCR is the index (-1 for none); ``joint_row`` the
        row of German and Austro-Hungarian units together (17.0), whose nationality codes
        are ``german`` and ``austro_hungarian``.
    """

    def __init__(self, neighbors, prohibited, halved, units, cell, attack, cavalry,
                 nationality, tcr, hq, defense, full, ratios, row_len, row_of_tcr, joint_row,
                 german, austro_hungarian):
        n = len(neighbors)
        if len(prohibited) != n or len(halved) != n or len(defense) != n or len(full) != n:
            raise ValueError("prohibited, halved, defense and full must cover the map")
        k = len(units)
        if any(len(a) != k for a in (cell, attack, cavalry, nationality, tcr, hq)):
            raise ValueError("units, cell, attack, cavalry, nationality, tcr and hq do not agree")
        self.nb = [[int(w) for w in row] for row in neighbors]
        self.prohibited = np.asarray(prohibited, dtype=bool)
        self.halved = np.asarray(halved, dtype=bool)
        self.units = [int(x) for x in units]
        self.cell = [int(c) for c in cell]
        self.attack = [int(a) for a in attack]
        self.cavalry = [bool(c) for c in cavalry]
        self.nat = [int(x) for x in nationality]
        self.tcr = [int(t) for t in tcr]
        self.hq = [bool(h) for h in hq]
        self.defense = [int(d) for d in defense]
        self.full = [bool(f) for f in full]
        self.rows = [[(int(ratios[r][i][0]), int(ratios[r][i][1])) for i in range(int(row_len[r]))]
                     for r in range(len(row_len))]
        self.row_of_tcr = [int(r) for r in row_of_tcr]
        self.joint_row, self.german, self.austro = int(joint_row), int(german), int(austro_hungarian)
        for j in range(k):
            if not 0 <= self.cell[j] < n:
                raise ValueError(f"unit {self.units[j]} is not on the map")
            t = self.tcr[j]
            if not 0 <= t < len(self.row_of_tcr) or self.row_of_tcr[t] < 0:
                raise ValueError(f"unit {self.units[j]} has TCR {t}, which no CRT row names")
        self.n = n

    # -- the questions, on eligible indices ----------------------------------------------------

    def _next_to(self, here, c):
        """attack_positions: next to ``c`` across a hexside that does not prohibit combat."""
        return any(self.nb[c][d] == here and not self.prohibited[c, d] for d in range(6))

    def _candidates(self, cells):
        return [j for j in range(len(self.units))
                if all(self._next_to(self.cell[j], c) for c in cells)]

    def _strength2(self, force, cells):
        """Twice the attack before support: halved across a river (5.4), the cavalry's total
        cut to a quarter, fractions dropped, unless it attacks only cavalry, depots and HQs
        (12.21)."""
        cav2 = other2 = 0
        for j in force:
            here = self.cell[j]
            around = self.nb[here]
            half = any(self.halved[here, around.index(c)] for c in cells if c in around)
            a2 = self.attack[j] if half else 2 * self.attack[j]
            if self.cavalry[j]:
                cav2 += a2
            else:
                other2 += a2
        if cav2 and not all(self.full[c] for c in cells):
            return 2 * (cav2 // 8) + other2
        return cav2 + other2

    def _row(self, force):
        """crt_row: German and Austro-Hungarian units together use the joint row (17.0), any
        other force the row of its worst TCR (8.8); HQs count only when alone."""
        fighters = [j for j in force if not self.hq[j]] or list(force)
        nats = {self.nat[j] for j in fighters}
        if {self.german, self.austro} <= nats:
            return self.joint_row
        return self.row_of_tcr[max(self.tcr[j] for j in fighters)]

    def _reaches(self, force, cells):
        if not force:
            return False
        defense = sum(self.defense[c] for c in cells)
        if defense <= 0:
            return True
        s2 = self._strength2(force, cells)
        return any(s2 * b >= 2 * defense * a for a, b in self.rows[self._row(force)])

    def _feasible(self, chosen, pool, cells):
        """Can ``chosen`` plus some of ``pool`` make a legal attack? The whole pool, and each
        one-nationality completion, are tried (the row depends on the nationalities)."""
        sets = [list(chosen) + list(pool)]
        have = {self.nat[j] for j in chosen}
        for n in have | {self.nat[j] for j in pool}:
            if have <= {n}:
                sets.append(list(chosen) + [j for j in pool if self.nat[j] == n])
        return any(self._reaches(s, cells) for s in sets if s)

    def _index(self, unit):
        if unit not in self.units:
            raise ValueError(f"unit {unit} may not attack in this position")
        return self.units.index(unit)

    def _cells(self, cells, room):
        cells = [int(c) for c in cells]
        if len(cells) > room:
            raise ValueError("too many defending hexes")
        for c in cells:
            if not 0 <= c < self.n:
                raise ValueError(f"cell {c} is off the map")
        return cells

    # -- what the engine asks --------------------------------------------------------------

    def candidates(self, cells):
        """The eligible units next to every one of ``cells``, ascending."""
        return [self.units[j] for j in self._candidates(self._cells(cells, 8))]

    def reaches(self, attackers, cells):
        """Do ``attackers`` (units) reach the lowest odds of their CRT row against ``cells``,
        before any support?"""
        return self._reaches([self._index(int(x)) for x in attackers], self._cells(cells, 8))

    def targets(self, cells):
        """Those of ``cells`` some units can attack alone (step 1 of a declaration)."""
        out = []
        for c in self._cells(cells, len(cells)):
            cand = self._candidates([c])
            if cand and self._feasible([], cand, [c]):
                out.append(c)
        return out

    def options(self, cells, attackers, targets):
        """``(done, units, hexes)``: the options of one step of the declaration of an attack
        on ``cells`` by ``attackers`` (units), ``targets`` the hexes that may be attacked."""
        cells = self._cells(cells, 7)
        att = [self._index(int(x)) for x in attackers]
        done = self._reaches(att, cells)
        pool = [j for j in self._candidates(cells) if j not in att]
        units = [self.units[j] for j in pool
                 if self._feasible(att + [j], [p for p in pool if p != j], cells)]
        hexes = []
        for t in targets:
            t = int(t)
            if t in cells:
                continue
            cells2 = cells + self._cells([t], 1)
            pool2 = self._candidates(cells2)
            if all(a in pool2 for a in att) and self._feasible(
                    att, [p for p in pool2 if p not in att], cells2):
                hexes.append(t)
        return done, units, hexes


# --- The Great War in the East: supply (9.1, 19.1) ----------------------------------------------

def gwe_supply(ws, rail_steps, line_steps, friendly, ezoc, own, enemy_combat, starts, hex_last,
               enemy, mine, unit_cell, depot, supply_range, layers, max_toll, rail, depots,
               supplied, cell_range, cells):
    """A side's supply in one position, written into ``rail``, ``depots`` and ``supplied``
    (and ``cells``).

    Parameters
    ----------
    ws : SearchWorkspace
        A workspace on the map with more than ``max_toll`` layers.
    rail_steps, line_steps : int16[n, 6]
        A cost of one for each step a rail line and a supply line may take on the map, -1 for
        the others (hexsides and terrain; the kernel closes the hexes the position closes).
    friendly, ezoc, own, enemy_combat : uint8[n]
        The side's side of the start line; the enemy's zone of control; hexes holding units
        of the side; hexes holding enemy units other than HQs.
    starts : int32[s]
        The side's map-edge hexes where a rail line leaves the map.
    hex_last, enemy : the side that last occupied each hex, and the enemy side.
    mine : int32[k]
        The side's units on the map, ascending.
    unit_cell, depot, supply_range, layers : per unit of the game
        Each unit's hex, whether it is a depot, its supply range and its search layers (one
        more than the open enemy zones of control its line may cross).
    max_toll : int
        The most open zones any line may cross (9.14).
    rail, depots, supplied : uint8[n], uint8[units], uint8[units]
        Out: the rail supply sources (9.15, 18.27), the supplied depots (9.16, 19.1), the
        units in supply (9.12-9.14, 9.17); of ``mine`` only, the rest untouched. When
        ``mine`` holds depots alone (the sources only are wanted), no line of units is
        searched for.
    cell_range, cells : int, uint8[n]
        With ``cell_range >= 0``, ``cells`` also gets the hexes a line of that many hexes
        from a source reaches, through no open zone (25.12); otherwise it is left at 0.
    """
    nb = ws.neighbors
    n = len(friendly)
    if max_toll < 0 or max_toll >= ws.n_layers:
        raise ValueError(f"max_toll {max_toll} needs a workspace of more layers")
    friendly, ezoc, own, enemy_combat = (np.asarray(a, dtype=bool)
                                         for a in (friendly, ezoc, own, enemy_combat))
    open_zoc = ezoc & ~own                          # 7.24: friendly units negate the zone
    ok = friendly & ~enemy_combat & ~open_zoc
    rail[:] = 0
    cells[:] = 0
    mine = [int(u) for u in mine]
    for u in mine:
        depots[u] = supplied[u] = 0
    into = np.maximum(nb, 0)

    # rail sources: from the friendly rail edge, along rail hexsides, through friendly hexes
    # free of enemy combat units and open enemy zones of control; a hex the enemy occupied
    # last is not a source (9.15, 18.27)
    table = np.array(rail_steps, dtype=np.int16)
    table[(nb >= 0) & ~ok[into]] = -1
    sources = [int(c) for c in starts if ok[int(c)]]
    dist, _ = ws.run(table, sources, copy=True)
    rail[:] = (dist[0] >= 0) & (np.asarray(hex_last) != enemy)

    # a supply line: a hex a step, never into an enemy combat unit's hex (9.14, 9.17)
    line = np.array(line_steps, dtype=np.int16)
    line[(nb >= 0) & enemy_combat[into]] = -1
    toll = open_zoc.astype(np.uint8)

    # depots: within range of a rail source or a supplied depot, on a line free of open
    # enemy zones of control, the depot's own hex not counted; they chain (9.16)
    chain = [u for u in mine if depot[u]]
    frontier = [int(c) for c in np.flatnonzero(rail)]
    limit = max((int(supply_range[u]) for u in chain), default=-1)
    left = len(chain)                   # depots not yet supplied
    while left and frontier:
        dist, _ = ws.run(line, frontier, limit=limit, toll=toll, max_toll=0, toll_on_exit=True,
                         copy=True)
        new = [u for u in chain if not depots[u]
               and 0 <= dist[0, int(unit_cell[u])] <= supply_range[u]]
        for u in new:
            depots[u] = 1
        frontier = [int(unit_cell[u]) for u in new]
        left -= len(new)

    # the sources: rail sources and supplied depots, in cell order
    at = np.asarray(rail, dtype=bool).copy()
    for u in chain:
        if depots[u]:
            at[int(unit_cell[u])] = True
    sources = [int(c) for c in np.flatnonzero(at)]
    if sources and cell_range >= 0:
        # 25.12: the hexes a line of cell_range reaches, through no open zone
        dist, _ = ws.run(line, sources, limit=cell_range, toll=toll, max_toll=0,
                         toll_on_exit=True, copy=True)
        cells[:] = (dist[0] >= 0) & (dist[0] <= cell_range)
    if sources and mine and all(depot[u] for u in mine):
        for u in mine:                  # depots alone: as their chain says, no line searched
            supplied[u] = depots[u]
    elif sources and mine:
        # units: a line of at most the unit's range through at most layers - 1 open enemy
        # zones of control (two for TCR 1, 9.14); a depot as its chain says
        limit = max(int(supply_range[u]) for u in mine)
        dist, _ = ws.run(line, sources, limit=limit, toll=toll, max_toll=max_toll,
                         toll_on_exit=True, copy=True)
        for u in mine:
            if depot[u]:
                supplied[u] = depots[u]
            else:
                c = int(unit_cell[u])
                supplied[u] = any(0 <= dist[lay, c] <= supply_range[u]
                                  for lay in range(int(layers[u])))
    return None


# --- The Great War in the East: command radii (10.33, 10.34, 21.41) ------------------------------

def gwe_position_key(side, unit_cell, unit_status, line_status, hex_last, flags, off_land):
    """The bytes of what a supply line reads of a position (``supply.position_key``): the
    side as one byte, then the bytes of ``unit_cell`` (int32), ``unit_status & line_status``
    (uint16), ``hex_last`` (int8) and, unless ``flags`` is None, ``flags & off_land``
    (uint16)."""
    if not 0 <= side <= 255:
        raise ValueError(f"side {side} does not fit in a byte")
    if not 0 <= line_status <= 0xFFFF or not 0 <= off_land <= 0xFFFF:
        raise ValueError("line_status and off_land must be 16-bit masks")
    cell = np.ascontiguousarray(unit_cell, dtype=np.int32)
    status = np.ascontiguousarray(unit_status, dtype=np.uint16)
    if status.size != cell.size:
        raise ValueError("unit_cell and unit_status must have one entry per unit")
    parts = [bytes((side,)), cell.tobytes(), (status & np.uint16(line_status)).tobytes(),
             np.ascontiguousarray(hex_last, dtype=np.int8).tobytes()]
    if flags is not None:
        parts.append((np.ascontiguousarray(flags, dtype=np.uint16)
                      & np.uint16(off_land)).tobytes())
    return b"".join(parts)


def gwe_command_radii(ws, tables, enemy, hq_cell, hq_table, hq_radius, hq_stopped, open_zoc,
                      out):
    """The command radius of each of a side's HQs in one position, into ``out``.

    Parameters
    ----------
    ws : SearchWorkspace
        A workspace on the map.
    tables : int16[t, n, 6]
        Step tables: one per hex a radius may enter, -1 into prohibited terrain or across a
        blocked hexside (``command._radius_tables``).
    enemy : uint8[n]
        Enemy-occupied hexes (a hex holding only enemy HQs included): no radius enters one.
    hq_cell, hq_table, hq_radius, hq_stopped : [k]
        Each HQ's hex, table, radius (10.33) and whether open enemy zones of control stop
        its radius (10.34, 21.41).
    open_zoc : uint8[n]
        Enemy-controlled hexes holding no unit of the side: a radius that stops there may
        enter one but not go on.
    out : uint8[k, n]
        Out: the hexes within each HQ's radius, its own included.
    """
    nb = np.asarray(ws.neighbors)
    into_enemy = (nb >= 0) & np.asarray(enemy, dtype=bool)[np.maximum(nb, 0)]
    for j in range(len(hq_cell)):
        table = np.where(into_enemy, -1, tables[int(hq_table[j])]).astype(np.int16)
        stop = open_zoc if hq_stopped[j] else None
        dist, _ = ws.run(table, [int(hq_cell[j])], limit=int(hq_radius[j]), stop=stop,
                         copy=True)
        out[j] = dist[0] >= 0


# --- The Great War in the East: cavalry withdrawal before combat (12.11, 12.13, 24.41) -------

def gwe_withdrawals(neighbors, side_add, enter_cost, mountain, enemy_units, enemy_zoc,
                    to_source, units, unit_cell, tcr, car, counts, paths):
    """The legal withdrawals of some units in one position (12.11, 12.13, 24.41).

    Parameters
    ----------
    neighbors : int32[n, 6]
        The map's neighbour table.
    side_add, enter_cost : int16[t, n, 6], int16[t, n]
        Per TCR: what crossing each hexside and entering each hex adds to a move, negative
        where the unit may not (``gwe_data``).
    mountain, enemy_units, enemy_zoc : uint8[n]
        Mountain hexes (the armored car never enters one, 24.41); enemy-occupied hexes;
        enemy-controlled hexes (a unit of TCR 1 may enter and leave them, 12.13).
    to_source : int32[n]
        Hexes from each hex to the nearest friendly supply source, -1 where none
        (``retreat.source_distance``).
    units : int32[k]
        The units asked.
    unit_cell, tcr, car : [n_units]
        Each unit's hex, Troop Combat Rating and whether it is the armored car.
    counts : int32[k]
        Out: how many withdrawals each unit asked has.
    paths : int32[>= 36 k, 2]
        Out: the ``(via, destination)`` of each withdrawal, unit after unit, each unit's
        sorted: a hex next to its own and one next to that and two hexes from its own, both
        enterable across the hexsides crossed, neither enemy-occupied nor (unless its TCR is
        1) enemy-controlled; only those toward a supply source (each hex nearer to one than
        the hex before, 8.63 priority 1) when there are any.

    Returns the rows of ``paths`` written.
    """
    rows = 0
    for j, u in enumerate(int(x) for x in units):
        here, t = int(unit_cell[u]), int(tcr[u]) - 1
        by_zoc, is_car = t != 0, bool(car[u])

        def may_enter(c):
            return (c != here and enter_cost[t, c] >= 0 and not (is_car and mountain[c])
                    and not enemy_units[c] and not (by_zoc and enemy_zoc[c]))

        near = {int(c) for c in neighbors[here]}
        found = []
        for d in range(6):
            via = int(neighbors[here, d])
            if via < 0 or side_add[t, here, d] < 0 or not may_enter(via):
                continue
            for e in range(6):
                dest = int(neighbors[via, e])
                if dest < 0 or side_add[t, via, e] < 0 or not may_enter(dest) or dest in near:
                    continue
                found.append((via, dest))
        last = int(to_source[here])
        toward = [(a, b) for a, b in found
                  if last >= 0 and 0 <= to_source[a] < last and 0 <= to_source[b] < to_source[a]]
        found = sorted(toward or found)
        counts[j] = len(found)
        for a, b in found:
            paths[rows] = (a, b)
            rows += 1
    return rows


# --- The Great War in the East: the defenders of every hex (5.4, 5.36, 8.14, 8.66, 12.15) -------

def gwe_hex_defenses(units, unit_cell, is_hq, flags, status, values, stacking, hq_combat,
                     panicking, no_trench, doubled, trench, fortress, within, retreated_in,
                     defended, entrained, total, attackable):
    """The defenders of every hex of one side in one position, at once.

    Parameters
    ----------
    units : int32[k]
        The side's units on the map.
    unit_cell, is_hq, flags, status : [n_units]
        Each unit's hex, whether it is an HQ, its engine flags and its status.
    values : int16[n_units, 3]
        Each unit's current (attack, defense, movement).
    stacking, hq_combat : int8[n_units], int16[n_units]
        Each unit's stacking points, and an HQ's Combat Strength.
    panicking, no_trench : uint8[n_units]
        Units that defend with 1 (23.11) and that get nothing from a trench (23.11, 23.51).
    doubled, trench : int8[n]
        How many times each hex doubles a defender, and a trench in it again (5.4).
    fortress : uint8[n]
        1 in a hex of an undestroyed fortress of the side, 2 when it has been attacked this
        phase (11.13), 0 elsewhere.
    within : uint8[n]
        The hexes ``attackable`` may be true in.
    retreated_in, defended, entrained : int
        The flag bits of units retreated or withdrawn into their hex (8.66, 12.17) and of
        units that have defended this phase (8.14), and the status bit of entrained units.
    total : int32[n]
        Out: the defense strengths of each hex's counted defenders and HQs, summed: each
        one's defense (1 when panicking), halved down when entrained (5.36); an HQ's Combat
        Strength when the units of the hex not retreated in have two stacking points or more
        (10.53); doubled by the hex and again by its trench (5.4). The fortress is the
        caller's (11.11).
    attackable : uint8[n]
        Out: hexes of ``within`` that may be attacked (8.14): with a counted defender or an
        undestroyed fortress, no counted defender that has defended and no attacked
        fortress. The counted defenders of a hex are its units other than HQs not retreated
        or withdrawn in, or, when all of them were, those that have not defended (12.15).
    """
    n = len(total)
    total[:] = 0
    held = [False] * n
    fought = [False] * n
    plain = [False] * n
    points = [0] * n
    rest = [int(u) for u in units if not is_hq[int(u)]]
    for u in rest:
        if not flags[u] & retreated_in:
            plain[int(unit_cell[u])] = True
            points[int(unit_cell[u])] += int(stacking[u])
    for u in (int(u) for u in units if is_hq[int(u)]):
        c = int(unit_cell[u])
        if points[c] >= 2:
            total[c] += int(hq_combat[u]) << (int(doubled[c]) + (0 if no_trench[u]
                                                                  else int(trench[c])))
    for u in rest:
        c = int(unit_cell[u])
        counted = not flags[u] & (retreated_in if plain[c] else defended)
        if not counted:
            continue
        held[c] = True
        fought[c] = fought[c] or bool(flags[u] & defended)
        d = 1 if panicking[u] else int(values[u, 1])
        if status[u] & entrained:
            d //= 2
        total[c] += d << (int(doubled[c]) + (0 if no_trench[u] else int(trench[c])))
    for c in range(n):
        f = int(fortress[c])
        attackable[c] = 1 if (within[c] and not fought[c] and f != 2 and (held[c] or f)) else 0


# --- The Great War in the East: a random player's command allocation (10.31, 10.32) -----------

#: what ``gwe_random_allocation`` says of each unit
ALLOCATED, UNALLOCATED, FAR = 0, 1, 2


def gwe_random_allocation(rng, cover, stacking, left, status, picks):
    """A random player's allocation of units to HQs in a Command Control Segment (10.31).

    Parameters
    ----------
    rng : numpy.random.Generator
        The player's generator: one ``integers(n)`` for each unit with ``n > 1`` options.
    cover : uint8[k, h]
        For each unit in turn, the HQs whose radius holds it and that may command it.
    stacking : int32[k]
        Each unit's stacking points: the Command Strength it takes (10.31).
    left : int32[h]
        In and out: each HQ's Command Strength left.
    status : int8[k]
        Out: ``ALLOCATED`` to the HQ picked, ``UNALLOCATED`` (none picked, or no HQ with the
        strength left: the unit rolls, 10.41) or ``FAR`` (within no radius, 10.42).
    picks : int32[>= k, 2]
        Out: the number of options and the index picked of each draw.

    The options of a unit are the HQs covering it with the strength left, in order, then
    "none" (``command.NO_HQ``). Returns how many draws were made.
    """
    draws = 0
    for j in range(len(cover)):
        sp = int(stacking[j])
        hqs = [i for i in range(len(left)) if cover[j][i]]
        if not hqs:
            status[j] = FAR
            continue
        options = [i for i in hqs if left[i] >= sp] + [-1]
        if len(options) == 1:
            status[j] = UNALLOCATED
            continue
        pick = int(rng.integers(len(options)))
        picks[draws] = (len(options), pick)
        draws += 1
        if options[pick] < 0:
            status[j] = UNALLOCATED
        else:
            left[options[pick]] -= sp
            status[j] = ALLOCATED
    return draws


# --- The Kaiser's Battle: the attack obligations of a Combat Phase (8.11-8.13, 8.21) ---------

class KbObligations:
    """The attack obligations of one position of a Kaiser's Battle Combat Phase and the
    declarations they allow (8.11, 8.12, 8.13, 8.21).

    Parameters
    ----------
    neighbors : int32[n, 6]
    target : uint8[n]
        Enemy-occupied hexes not attacked yet this phase.
    free : int32[m]
        The phasing units that may still attack, ascending.
    unit_cell : int32[n_units]
    obligated : uint8[n_units]
        The units obligated to attack at the start of the phase (8.12).
    stacks : uint8[n]
        The enemy stacks that must be attacked, as at the start of the phase (8.11).

    An attack on the hexes ``d`` by the units ``members`` is *feasible* when, after it, every
    obligated unit left that is not a member is still next to a target hex outside ``d``, and
    every obligated stack left outside ``d`` still has a free unit next to it that is not a
    member. A target is legal (8.21) when the obligated units all of whose target hexes it
    holds are next to all of it (they must join), and the attack they make is feasible or,
    when there are none, some unit next to all of it may make a feasible one alone.
    """

    def __init__(self, neighbors, target, free, unit_cell, obligated, stacks):
        n = len(neighbors)
        if len(target) != n or len(stacks) != n:
            raise ValueError("neighbors, target and stacks must cover the map")
        if len(obligated) != len(unit_cell):
            raise ValueError("obligated needs a row per unit")
        free = [int(u) for u in free]
        for j, u in enumerate(free):
            if not 0 <= u < len(unit_cell) or not 0 <= int(unit_cell[u]) < n:
                raise ValueError(f"unit {u} is not a unit on the map")
            if j and u <= free[j - 1]:
                raise ValueError("free units must be ascending")
        self._adj: dict[int, frozenset] = {}
        self._attackers_of: dict[int, set] = {}
        for u in free:
            a = frozenset(int(c) for c in neighbors[int(unit_cell[u])] if c >= 0 and target[c])
            if a:
                self._adj[u] = a
                for c in a:
                    self._attackers_of.setdefault(c, set()).add(u)
        self.o_left = [u for u in self._adj if obligated[u]]
        self.m_left = [c for c in range(n) if stacks[c] and target[c]]

    def attackers(self):
        """The free units next to a target hex, ascending."""
        return list(self._adj)

    def adj(self, unit):
        """The target hexes next to ``unit``, ascending (empty for others)."""
        return sorted(self._adj.get(int(unit), ()))

    def pending(self):
        return bool(self.o_left or self.m_left)

    def feasible(self, members, cells):
        """Whether an attack on ``cells`` by ``members`` leaves every obligation possible."""
        members, d = {int(x) for x in members}, {int(c) for c in cells}
        for y in self.o_left:
            if y not in members and not (self._adj[y] - d):
                return False
        for s in self.m_left:
            if s not in d and not (self._attackers_of.get(s, set()) - members):
                return False
        return True

    def compulsory(self, cells):
        """The obligated units left whose every target hex is in ``cells``, ascending."""
        d = {int(c) for c in cells}
        return [y for y in self.o_left if self._adj[y] <= d]

    def candidates(self, cells, exclude=()):
        """The units next to every hex of ``cells``, ascending, but those of ``exclude``."""
        d, ex = {int(c) for c in cells}, {int(x) for x in exclude}
        return sorted(u for u, a in self._adj.items() if a >= d and u not in ex)

    def _legal(self, d):
        comp = self.compulsory(d)
        if any(self._adj[y] != d for y in comp):
            return False                         # a compulsory member not next to all of d
        if not self.feasible(comp, d):
            return False
        if comp:
            return True
        return any(self.feasible({x}, d) for x in self.candidates(d))

    def targets(self):
        """The legal targets: every set of hexes next to one unit that an attack may take
        on now (8.21), by size then hexes."""
        from itertools import combinations

        sets = set()
        for a in set(self._adj.values()):
            cells = sorted(a)
            for k in range(1, len(cells) + 1):
                sets.update(combinations(cells, k))
        return [t for t in sorted(sets, key=lambda t: (len(t), t)) if self._legal(frozenset(t))]

    def random_declare(self, rng):
        """A random player's next declaration, drawn as ``RandomPolicy`` would from ``rng``:
        ``(attack, draws)``, the attack ``(attackers, cells)`` (ascending) or None when the
        player stops, and each draw as ``(decision, options, pick)``, ``decision`` 0 for the
        target (``kb.combat.target``, its options the targets then "done" when no
        obligation is left) and 1 for a unit joining (``kb.combat.join``, its options
        "yes" when the attack with it stays feasible, then "no" when another may still make
        it)."""
        targets = self.targets()
        if self.pending() and not targets:
            raise RuntimeError(f"combat obligations left that no attack can meet: units "
                               f"{self.o_left}, stacks {self.m_left}")
        n_opt = len(targets) + (0 if self.pending() else 1)
        draws = []
        if n_opt == 0:
            return None, draws
        pick = int(rng.integers(n_opt)) if n_opt > 1 else 0
        if n_opt > 1:
            draws.append((0, n_opt, pick))
        if pick == len(targets):
            return None, draws
        cells = targets[pick]
        members = set(self.compulsory(cells))
        cands = self.candidates(cells, exclude=members)
        for i, x in enumerate(cands):
            yes = self.feasible(members | {x}, cells)
            no = bool(members) or any(self.feasible({z}, cells) for z in cands[i + 1:])
            if yes and no:
                pick = int(rng.integers(2))
                draws.append((1, 2, pick))
                if pick == 0:
                    members.add(x)
            elif yes:
                members.add(x)
            elif not no:
                raise RuntimeError("a unit that may neither join nor stay out")
        return (sorted(members), tuple(cells)), draws
