"""Pure-Python twin of ``gwe_fast._core.play``: parts of the turn loop played whole, readable
first.

* ``draws``: what ``Generator.integers(n)`` gives for each ``n`` in turn (one draw each; none
  for ``n == 1``, as ``PlayedGame.ask`` asks nobody when there is one option);
* ``kb_random_moves``: a Movement Segment of The Kaiser's Battle (5.0) whose player picks at
  random (``RandomPolicy``): the units offered one at a time, each one's moves, the draws of
  the player's generator in the engine's order, and the moves made.

The engine's Python loop (``games.kb.engine.movement_segment``) is the reference both are
checked against, game by game.
"""

from __future__ import annotations

import numpy as np

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
