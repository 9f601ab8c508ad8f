"""Pure-Python twin of ``gwe_fast._core.policy``: the hot arithmetic of the Great War in the
East ladder policies, readable first.

* ``score_cells``: the price of one unit ending in each of ``cells`` (``PositionMap.scores``
  for a unit other than an HQ): stacking, the enemy's expected gain against the stack
  (exposure), a gap filled, supply, command, a town, what the unit adds to an attack and the
  pull toward the enemy;
* ``needed_targets``: the enemy hexes next to those of ``cells`` that touch the enemy whose
  attack table is not known yet (ascending);
* ``attack_gains``: what the unit adds, in each of ``cells``, to the best attack on an
  adjacent enemy hex;
* ``CellPricer``: the three above with a ``PositionMap``'s arrays bound once;
* ``AttackJudge``: twice an attack's exact strength (``combat.attack_strength``: rivers
  halve, a burnt depot multiplies, cavalry is cut to a quarter off full hexes), its CRT column
  (``combat.odds_column``) and its die modifiers (``combat.die_modifier``) in one call, with
  one position's arrays bound once.

The Kaiser's Battle ladder:

* ``kb_unit_values``: the value of one unit ending its move in each of ``cells``
  (``policies.kb.position.Board.values``): German progress west and towns, Allied trenches
  and towns held against the risk, towns retaken and the screen, a compulsory attack not
  planned, supply, gas and the stacking limit; ``KbPricer``, the same with a ``Board``'s
  maps bound once;
* ``kb_side_maps``: what a ``Board`` refreshes before each of its side's moves (its
  Stacking Points per hex, those of its combat units, the towns a path takes, the screen);
* ``kb_path_gains``: the towns a unit takes on its way to each of some hexes, along the
  predecessors of its routes (``Board.path_values``);
* ``kb_attack_values``: an attack's exact expectation, or that of every team of its first
  attackers (``scoring.expected_attack``, ``expected_prefixes``), from each attacker's row.

The floating-point operations are those of the numpy code the policies ran before the
compiled kernel, in the same order, so that both give the same bits.
"""

import numpy as np


def _columns(need: np.ndarray, ratio: np.ndarray) -> np.ndarray:
    """The CRT column each ratio reaches (``scoring.Crt.columns``)."""
    return np.searchsorted(need, np.asarray(ratio, dtype=float) + 1e-9, side="right") - 1


def _exposure(cells, defence, steps, mult, threat, need, per_step):
    """The enemy's expected gain against stacks of ``defence`` and ``steps``."""
    d = np.maximum(defence * mult[cells], 0.5)
    col = np.minimum(_columns(need, threat[cells] / d), per_step.size - 1)
    g = np.where(col >= 0, per_step[np.maximum(col, 0)], 0.0)
    return g * steps


def score_cells(cells, here, sp, limit, steps, dfn, my_sp, my_def, my_steps, mult, threat,
                need, per_step, dist_enemy, supplied, cover, hex_last, side, town, hold,
                supply_pen, command_pen, town_w, extra=None, gain=None, attack_w=0.0,
                pull_c=0.0, use_pull=False):
    """``float64[len(cells)]``: the value of the unit standing in each of ``cells``.

    ``supply_pen`` / ``command_pen`` are the (negative) penalties out of supply / out of
    every command radius; ``extra`` (a depot's own price) or ``attack_w * gain`` is added
    after the town; ``pull_c`` times the distance to the enemy (at most 12) is taken off when
    ``use_pull``."""
    cells = np.asarray(cells, dtype=np.int64)
    at_home = cells == here
    others_sp = my_sp[cells] - np.where(at_home, sp, 0.0)
    out = np.where(others_sp + sp > limit, -1e9, 0.0)
    o_def = my_def[cells] - np.where(at_home, dfn, 0.0)
    o_steps = my_steps[cells] - np.where(at_home, steps, 0.0)
    expo = (_exposure(cells, o_def + dfn, o_steps + steps, mult, threat, need, per_step)
            - _exposure(cells, o_def, o_steps, mult, threat, need, per_step))
    out -= expo
    front = dist_enemy[cells] == 1
    alone = o_steps <= 0
    out += np.where(front & alone, hold, 0.0)
    out += np.where(supplied[cells] != 0, 0.0, supply_pen)
    out += np.where(cover[cells] != 0, 0.0, command_pen)
    out += np.where(hex_last[cells] != side, town_w * town[cells], 0.0)
    if extra is not None:
        out += extra
    else:
        if gain is not None:
            out += attack_w * gain
        if use_pull:
            out -= pull_c * np.minimum(dist_enemy[cells], 12)
    return out


def _adjacent_targets(cells, dist_enemy, nb, enemy_occ, prohibited):
    cells = np.asarray(cells, dtype=np.int64)
    near = np.flatnonzero(dist_enemy[cells] == 1)
    c = cells[near]
    t = nb[c]
    ok = (t >= 0) & (enemy_occ[np.maximum(t, 0)] != 0) & (prohibited[c] == 0)
    return near, c, t, ok


def needed_targets(cells, dist_enemy, nb, enemy_occ, prohibited, known):
    """``int64[:]``: the enemy hexes next to ``cells`` (those one hex from the enemy, not
    across a prohibited hexside) that are not ``known``, ascending."""
    _, _, t, ok = _adjacent_targets(cells, dist_enemy, nb, enemy_occ, prohibited)
    tt = np.unique(t[ok])
    return tt[known[tt] == 0].astype(np.int64)


def _column_array(ab, n_cols, attack, defense):
    """``scoring.Crt.column_array``."""
    attack = np.asarray(attack, dtype=float)[:, None]
    defense = np.asarray(defense, dtype=float)[:, None]
    reach = attack * ab[None, :, 1] >= defense * ab[None, :, 0] - 1e-9
    return np.where(defense[:, 0] <= 0, n_cols - 1, reach.sum(axis=1) - 1)


def attack_gains(cells, d_here, a_u, att_u, dist_enemy, nb, enemy_occ, prohibited, halved,
                 base_att, tgt_def, tgt_ev, ab, n_cols):
    """``float64[len(cells)]``: what a unit of attack ``a_u`` (``att_u`` in the side's
    strength next to each hex, ``base_att``; ``d_here``: hex distances from its hex) adds to
    the best attack on an adjacent enemy hex (``tgt_def`` / ``tgt_ev``: each target's
    defence and expectation per column, known for every target in reach)."""
    cells = np.asarray(cells, dtype=np.int64)
    out = np.zeros(cells.size)
    near, c, t, ok = _adjacent_targets(cells, dist_enemy, nb, enemy_occ, prohibited)
    if near.size == 0 or not ok.any():
        return out
    tt = t[ok]
    defence = tgt_def[tt]
    ev = tgt_ev[tt]
    a = np.where(halved[c][ok] != 0, a_u / 2, a_u)
    base = base_att[tt] - np.where(d_here[tt] == 1, att_u, 0.0)
    base = np.maximum(base, 0.0)
    k0 = _column_array(ab, n_cols, base, defence)
    k1 = _column_array(ab, n_cols, base + a, defence)
    rows = np.arange(tt.size)
    v0 = np.where(k0 >= 0, np.maximum(0.0, ev[rows, np.maximum(k0, 0)]), 0.0)
    v1 = np.where(k1 >= 0, np.maximum(0.0, ev[rows, np.maximum(k1, 0)]), 0.0)
    gain = np.zeros(ok.shape)
    gain[ok] = v1 - v0
    out[near] = np.maximum(gain.max(axis=1), 0.0)
    return out


class CellPricer:
    """The arrays a ``PositionMap`` prices a unit's hexes with, held once: ``score_cells``,
    ``needed_targets`` and ``attack_gains`` with those arrays bound, so that each question
    passes only what changes from unit to unit. ``set_own`` sets the side's stacking points,
    defence strengths and steps per hex (after each refresh), ``set_attack`` its attack
    strength next to each hex; ``tgt_def``, ``tgt_ev`` and ``known`` are read where they
    are, as the caller fills them in."""

    def __init__(self, nb, prohibited, halved, mult, threat, need, per_step, dist_enemy,
                 supplied, cover, town, enemy_occ, tgt_def, tgt_ev, known):
        n = len(nb)
        if any(len(a) != n for a in (prohibited, halved, mult, threat, dist_enemy, supplied,
                                     cover, town, enemy_occ, tgt_def, tgt_ev, known)):
            raise ValueError("the per-cell arrays must all have one entry per cell")
        self.nb, self.prohibited, self.halved = nb, prohibited, halved
        self.mult, self.threat, self.need, self.per_step = mult, threat, need, per_step
        self.dist_enemy, self.supplied, self.cover, self.town = dist_enemy, supplied, cover, town
        self.enemy_occ, self.tgt_def, self.tgt_ev, self.known = enemy_occ, tgt_def, tgt_ev, known
        self.own = self.base_att = None

    def set_own(self, my_sp, my_def, my_steps):
        if any(len(a) != len(self.nb) for a in (my_sp, my_def, my_steps)):
            raise ValueError("the per-cell arrays must all have one entry per cell")
        self.own = (my_sp, my_def, my_steps)

    def set_attack(self, base_att):
        if len(base_att) != len(self.nb):
            raise ValueError("the per-cell arrays must all have one entry per cell")
        self.base_att = base_att

    def score_cells(self, cells, here, sp, limit, steps, dfn, hex_last, side, hold,
                    supply_pen, command_pen, town_w, extra=None, gain=None, attack_w=0.0,
                    pull_c=0.0, use_pull=False):
        if self.own is None:
            raise RuntimeError("set_own must come before score_cells")
        return score_cells(cells, here, sp, limit, steps, dfn, *self.own, self.mult,
                           self.threat, self.need, self.per_step, self.dist_enemy,
                           self.supplied, self.cover, hex_last, side, self.town, hold,
                           supply_pen, command_pen, town_w, extra, gain, attack_w, pull_c,
                           use_pull)

    def needed_targets(self, cells):
        return needed_targets(cells, self.dist_enemy, self.nb, self.enemy_occ,
                              self.prohibited, self.known)

    def attack_gains(self, cells, d_here, a_u, att_u, ab, n_cols):
        if self.base_att is None:
            raise RuntimeError("set_attack must come before attack_gains")
        return attack_gains(cells, d_here, a_u, att_u, self.dist_enemy, self.nb,
                            self.enemy_occ, self.prohibited, self.halved, self.base_att,
                            self.tgt_def, self.tgt_ev, ab, n_cols)


def _attack_halves(attackers, cells, unit_cell, unit_att, is_cav, nb, halved, near=None,
                  multiplier=1):
    """``(cavalry, other)``: twice the attack strength of the cavalry and of the other
    attackers of ``cells``: each unit's ``unit_att``, halved when it attacks across a
    ``halved`` hexside into any of ``cells`` (5.4), times ``multiplier`` when its hex is
    ``near`` the burnt depot (19.21)."""
    cav = other = 0
    targets = [int(c) for c in cells]
    for x in attackers:
        x = int(x)
        here = int(unit_cell[x])
        a = 2 * int(unit_att[x])
        around = [int(v) for v in nb[here]]
        if any(c in around and halved[here, around.index(c)] for c in targets):
            a //= 2
        if near is not None and near[here]:
            a *= int(multiplier)
        if is_cav[x]:
            cav += a
        else:
            other += a
    return cav, other


def _odds_column(attack2, defense, ratios):
    """The last column of ``ratios`` (rows ``(a, b)``: a-b odds) that an attack of
    ``attack2 / 2`` against ``defense`` reaches; -1 below the first; the last when there is
    no defense."""
    if defense <= 0:
        return len(ratios) - 1
    col = -1
    for i in range(len(ratios)):
        if attack2 * int(ratios[i][1]) >= 2 * defense * int(ratios[i][0]):
            col = i
    return col


def _crossings(attackers, cells, unit_cell, nb, mask):
    """``(pairs, marked)``: over every attacker and every one of ``cells`` next to it, how
    many such pairs there are and across how many the hexside is in ``mask``
    (``combat.crosses`` for all attackers at once)."""
    pairs = marked = 0
    for x in attackers:
        here = int(unit_cell[int(x)])
        around = [int(v) for v in nb[here]]
        for c in cells:
            c = int(c)
            if c in around:
                pairs += 1
                marked += bool(mask[here, around.index(c)])
    return pairs, marked


class AttackJudge:
    """An attack's CRT column before shifts and its die modifier in one call, with one
    position's arrays for one attacking side bound once: ``nb``, each unit's hex
    ``unit_cell``, its attack strength ``unit_att`` (0 for units that may not attack),
    ``is_cav``, the ``halved`` hexsides (5.4), the hexes cavalry attacks at full strength
    ``cav_full`` (12.21), and the die modifiers of 5.4 as ``die_masks[k]`` (hexsides),
    ``die_adds[k]`` (what each adds) and ``die_all[k]`` (1: only when every attacker
    crosses one; 0: when any does)."""

    def __init__(self, nb, unit_cell, unit_att, is_cav, halved, cav_full, die_masks,
                 die_adds, die_all):
        n = len(nb)
        if len(halved) != n or len(cav_full) != n:
            raise ValueError("the per-cell arrays must all have one entry per cell")
        if len(unit_att) != len(unit_cell) or len(is_cav) != len(unit_cell):
            raise ValueError("the per-unit arrays must all have one entry per unit")
        if len(die_adds) != len(die_masks) or len(die_all) != len(die_masks):
            raise ValueError("die_masks must be [k, n_cells, 6] with k adds and k flags")
        self.nb, self.unit_cell, self.unit_att, self.is_cav = nb, unit_cell, unit_att, is_cav
        self.halved, self.cav_full = halved, cav_full
        self.die_masks, self.die_adds, self.die_all = die_masks, die_adds, die_all

    def judge(self, attackers, cells, defense, ratios, near=None, multiplier=1):
        """``(column, modifier, attack2)``: ``attack2``, twice the attack strength
        (``_attack_halves``, the cavalry's part cut to a quarter, fractions dropped, unless
        every one of ``cells`` is ``cav_full``); ``_odds_column`` of it against ``defense``;
        and the sum of the die modifiers whose hexsides the attackers cross as
        ``_crossings`` counts them."""
        cav, other = _attack_halves(attackers, cells, self.unit_cell, self.unit_att,
                                   self.is_cav, self.nb, self.halved, near, multiplier)
        if cav and not all(self.cav_full[int(c)] for c in cells):
            cav = 2 * (cav // 8)
        attack2 = cav + other
        column = _odds_column(attack2, defense, ratios)
        modifier = 0
        for mask, add, every in zip(self.die_masks, self.die_adds, self.die_all):
            pairs, marked = _crossings(attackers, cells, self.unit_cell, self.nb, mask)
            if (pairs and marked == pairs) if every else marked:
                modifier += int(add)
        return column, modifier, attack2


def retreat_ways(origin, nb, passable, blocks, open_zoc, through_zoc, d_origin):
    """``(one, two)``: whether a stack in ``origin`` has a retreat of one / of two hexes
    (``scoring.retreat_exists`` for both lengths)."""
    bad = blocks.astype(bool) if through_zoc else (blocks.astype(bool) | open_zoc.astype(bool))
    first = [int(nb[origin, d]) for d in range(6)
             if passable[origin, d] and not bad[nb[origin, d]]]
    two = any(passable[w, d] and not bad[nb[w, d]] and d_origin[nb[w, d]] == 2
              for w in first for d in range(6))
    return bool(first), bool(two)


def surrounded_map(nb, passable, free, target, own, limit):
    """``bool[n_cells]``: hexes from which no line of at most ``limit + 1`` hexes leads to a
    ``target`` hex (25.13): the search of ``scoring.surrounded_cells`` (the bounded search
    from every free target hex over passable steps into free hexes) and its neighbour test."""
    from gwe_fast._pure.search import bounded_search

    passable, free = passable.astype(bool), free.astype(bool)
    target, own = target.astype(bool), own.astype(bool)
    v = np.maximum(nb, 0)
    cost = np.where(passable & free[v], 1, -1).astype(np.int16)
    seeds = np.flatnonzero(target & free).astype(np.int32)
    if seeds.size == 0:
        return ~own
    dist = bounded_search(nb, cost, seeds, limit=limit)[0][0]
    near = (passable & free[v] & (dist[v] >= 0)).any(axis=1)
    return ~(near | own)


def kb_unit_values(cells, here, sp, limit, my_sp, allied, dist_west, path_gain, trench,
                   west_town, risk, screen_gain, adj_enemy, exempt, supply_pen, gas,
                   progress, town_w, trench_hold, town_hold, exposure, screen, screen_on,
                   contact, contact_on, ok_cells, supply, gas_cost, gas_on, base=None):
    """``float64[len(cells)]``: the value of a Kaiser's Battle unit (standing in ``here``,
    ``sp`` Stacking Points) ending its move in each of ``cells``; -1e9 where the stack would
    pass ``limit`` (7.21).

    ``base`` (an HQ's own price) replaces the side's: German ``-progress`` per hex from the
    western edge plus ``town_w`` per town taken; Allied ``trench_hold`` per trench hex and
    ``town_hold`` per town west of the VP line, both times ``1 - risk``, ``town_w`` per town
    retaken elsewhere, ``exposure`` times the risk, and with ``screen_on`` ``screen`` per
    screened hex away from contact. With ``contact_on``, ``contact`` where ending there
    obliges an attack (next to the enemy outside a town or trench hex) except next to the
    planned target (``ok_cells``); then ``supply`` per supply penalty and, with ``gas_on``,
    ``gas_cost`` in a gas zone."""
    cells = np.asarray(cells, dtype=np.int64)
    at_home = cells == here
    room = my_sp[cells] - np.where(at_home, sp, 0.0) + sp <= limit
    if base is not None:
        v = np.asarray(base, dtype=np.float64)
    elif allied:
        safe = 1.0 - risk[cells]
        v = trench_hold * trench[cells].astype(bool) * safe
        v = v + town_hold * west_town[cells].astype(bool) * safe
        v = v + town_w * path_gain[cells].astype(bool) * (~at_home)
        v = v - exposure * risk[cells]
        if screen_on:
            v = v + screen * screen_gain[cells] * (adj_enemy[cells] == 0)
    else:
        v = -progress * dist_west[cells]
        v = v + town_w * path_gain[cells].astype(bool)
    if contact_on:
        forced = (adj_enemy[cells] > 0) & ~exempt[cells].astype(bool)
        if len(ok_cells) and forced.any():
            forced = forced & ~np.isin(cells, np.asarray(ok_cells, dtype=np.int64))
        v = v - contact * forced
    v = v - supply * supply_pen[cells]
    if gas_on:
        v = v - gas[cells].astype(bool) * gas_cost
    return np.where(room, v, -1e9)


class KbPricer:
    """The maps a Kaiser's Battle ``Board`` prices a unit's hexes with, held once: ``values``
    is ``kb_unit_values`` with them bound, so that each question passes only what changes
    from unit to unit. The fixed maps (one Movement Segment's) come with the pricer; the
    side's own Stacking Points, towns to take and screen by ``set_own`` (after each
    refresh)."""

    def __init__(self, dist_west, trench, west_town, risk, adj_enemy, exempt, supply_pen,
                 gas):
        n = len(dist_west)
        if any(len(a) != n for a in (trench, west_town, risk, adj_enemy, exempt, supply_pen,
                                     gas)):
            raise ValueError("the per-cell arrays must all have one entry per cell")
        self.dist_west, self.trench, self.west_town, self.risk = dist_west, trench, west_town, risk
        self.adj_enemy, self.exempt, self.supply_pen, self.gas = adj_enemy, exempt, supply_pen, gas
        self.own = None

    def set_own(self, my_sp, path_gain, screen_gain):
        if any(len(a) != len(self.dist_west) for a in (my_sp, path_gain, screen_gain)):
            raise ValueError("the per-cell arrays must all have one entry per cell")
        self.own = (my_sp, path_gain, screen_gain)

    def values(self, cells, here, sp, limit, allied, progress, town_w, trench_hold, town_hold,
               exposure, screen, screen_on, contact, contact_on, ok_cells, supply, gas_cost,
               gas_on, base=None, with_here=False):
        """``kb_unit_values`` with the bound maps; ``with_here``: of ``cells`` and then of
        ``here`` (one value more, at the end; ``base`` then has one more too)."""
        if self.own is None:
            raise RuntimeError("set_own must come before values")
        my_sp, path_gain, screen_gain = self.own
        if with_here:
            cells = np.append(np.asarray(cells, dtype=np.int64), here)
        return kb_unit_values(cells, here, sp, limit, my_sp, allied, self.dist_west, path_gain,
                              self.trench, self.west_town, self.risk, screen_gain,
                              self.adj_enemy, self.exempt, self.supply_pen, self.gas,
                              progress, town_w, trench_hold, town_hold, exposure, screen,
                              screen_on, contact, contact_on, ok_cells, supply, gas_cost,
                              gas_on, base)

    def may_gain(self, d_here, reach, here, sp, limit, allied, progress, town_w, trench_hold,
                 town_hold, exposure, screen, screen_on, contact, contact_on, ok_cells, supply,
                 gas_cost, bonus_w, min_gain):
        """Whether some hex within ``reach`` hexes of ``here`` (``d_here``: the distances
        from it) is worth more than ``here`` by over ``min_gain``, with ``bonus_w`` per
        town to take among them (``passive._may_gain`` on ``Board.values_with_stay``); gas
        priced (``gas_cost``) when one of the hexes is in a gas zone, for ``here`` only
        when it is in one too."""
        if self.own is None:
            raise RuntimeError("set_own must come before may_gain")
        if len(d_here) != len(self.dist_west):
            raise ValueError("d_here must have one entry per cell")
        cells = np.flatnonzero(np.asarray(d_here) <= reach)
        if cells.size == 0:
            raise ValueError("no hex within reach")
        gas = np.asarray(self.gas, dtype=bool)
        gas_on = bool(gas[cells].any())
        args = (here, sp, limit, allied, progress, town_w, trench_hold, town_hold, exposure,
                screen, screen_on, contact, contact_on, ok_cells, supply, gas_cost)
        if gas_on and not gas[here]:
            v = self.values(cells, *args, True)
            stay = float(self.values([here], *args, False)[0])
        else:
            v = self.values(cells, *args, gas_on, None, True)
            v, stay = v[:-1], float(v[-1])
        towns = int(np.asarray(self.own[1], dtype=bool)[cells].sum())
        return bool(float(v.max()) + bonus_w * float(towns) > stay + min_gain)


def kb_side_maps(unit_cell, unit_status, on_map, unit_side, side, flags, service, stacking,
                 is_hq, nb, band, west_town, hex_last, central, allied, screen=True):
    """``(my_sp, my_combat_sp, path_gain, screen_gain)`` of ``side`` in the position
    (``policies.kb.position.Board.refresh``): Stacking Points per hex of its units on the map
    (status bit ``on_map``; a service company, flag ``service``, counts 1) and of those that
    are not HQs; the towns west of the VP line a path takes (not last held by ``central``
    for the German side, held by it for the Allied); per hex, the ``band`` hexes it and its
    neighbours would newly bring into a zone of control, counting the hexes next to units
    other than service companies as covered (zeros without ``screen``: a side that does not
    screen has no use for it)."""
    n = nb.shape[0]
    on = (unit_status & on_map).astype(bool)
    mine = np.flatnonzero(on & (unit_side == side))
    svc = (flags[mine] & service) != 0
    sp = np.where(svc, 1, stacking[mine]).astype(np.float64)
    cells = unit_cell[mine]
    my_sp = np.bincount(cells, weights=sp, minlength=n)
    combat_units = ~is_hq[mine].astype(bool)
    my_combat_sp = np.bincount(cells[combat_units], weights=sp[combat_units], minlength=n)
    cover = np.zeros(n, dtype=bool)
    ac = np.unique(cells[~svc])
    if ac.size:
        cover[ac] = True
        around = nb[ac]
        cover[around[around >= 0]] = True
    west_town = west_town.astype(bool)
    held = hex_last == central
    path_gain = west_town & (held if allied else ~held)
    if not screen:
        return my_sp, my_combat_sp, path_gain, np.zeros(n)
    unc = (band.astype(bool) & ~cover).astype(np.float64)
    padded = np.append(unc, 0.0)
    screen_gain = unc + padded[nb].sum(axis=1)
    return my_sp, my_combat_sp, path_gain, screen_gain


def kb_path_gains(dist, pred, gain, here, cells):
    """``float64[len(cells)]``: for each of ``cells``, the ``gain`` flags (0/1) of the hexes a
    unit passes through on its way there from ``here``, the start and the hex itself left
    out, along ``pred`` (the predecessor state of each hex, ``layer * n + cell``, as
    ``movement.routes`` gives them with ``dist``). A hex not reached, or ``here``, gets
    minus its own flag (what the sum over the path less the destination gives for an empty
    path). Summed by pointer doubling up the predecessor tree: sums of 0/1 flags are exact in
    any order."""
    n = dist.shape[0]
    gain = np.asarray(gain, dtype=bool)
    reached = dist >= 0
    reached[here] = False
    got = np.where(reached, gain, 0).astype(np.float64)
    up = np.where(reached & (pred >= 0), pred % n, -1)
    up[up == here] = -1
    while True:
        live = np.flatnonzero(up >= 0)
        if live.size == 0:
            break
        above = up[live]
        got[live] += got[above]
        up[live] = up[above]
    cells = np.asarray(cells, dtype=np.int64)
    return got[cells] - gain[cells]



def kb_attack_values(rows, cells, nb, side_mod, die_mod, allied, w_trench, supply_mods,
                     att_mod, dfn_extra, two_corps, def_str, morale, full, clear_value, every):
    """``scoring.expected_attack`` of the attackers of ``rows`` on ``cells`` (``every``
    false: a list of one) or ``scoring.expected_prefixes`` (``every``: of the first one, the
    first two ...), each as a tuple of the ``Expected`` fields; None when a die's
    denominator is not positive. ``rows``: per attacker ``(combat, supply state, corps,
    hex, step costs, cost if eliminated whole, steps left, steps lost unsuccessful, in a
    trench hex)`` (``Snap.attack_row``); the other arguments as the compiled kernel's. The
    dice, the defenders' steps and a stack's cheapest steps are the reference's own
    (``scoring.odds``, ``_success``, ``cheapest``); the attackers' side grows one unit at a
    time as in the kernel."""
    from gwe_fast.policies.kb.scoring import _success, cheapest, odds

    if not rows:
        return []
    cells = [int(c) for c in cells]
    hex_mod = max(int(die_mod[c]) for c in cells)
    n_def = len(full) - 1
    att_str, worst, across, elim, elim_steps = 0, 0, None, 0.0, 0
    corps_seen = set()
    stacks: dict[int, list] = {}          # hex -> [costs of its units], the attackers' order
    fails: dict[int, tuple] = {}          # hex -> (cost, steps, trench given up or None)
    out = []
    for i, (strength, state, corps, here, costs, whole, left, retreat, trench) in \
            enumerate(rows):
        att_str += strength
        worst = max(worst, state)
        corps_seen.add(corps)
        if here not in stacks:
            for c in cells:
                row = [int(x) for x in nb[c]]
                m = int(side_mod[c, row.index(here)]) if here in row else 0
                across = m if across is None else min(across, m)
            stacks[here] = []
        stacks[here].append(costs)
        cum = cheapest(stacks[here], retreat)
        extra = w_trench * len(stacks[here]) if retreat == 1 and allied and trench else None
        fails[here] = (cum[-1], len(cum) - 1, extra)
        elim = elim + whole
        elim_steps += left
        if not every and i < len(rows) - 1:
            continue
        fail = fail_steps = 0.0
        for cost, steps, extra in fails.values():
            fail += cost
            fail_steps += steps
            if extra is not None:
                fail += extra
        dfn = (supply_mods[worst] + dfn_extra + (two_corps if len(corps_seen) >= 2 else 0)
               + hex_mod + across)
        try:
            p_elim, p_fail, success = odds(att_str, att_mod, def_str, dfn, morale)
        except ValueError:                # combat.quotient: a denominator not positive
            return None
        gain, dsteps, p_clear = _success(success, n_def, full, clear_value)
        out.append((gain - p_fail * fail - p_elim * elim, p_elim, p_fail,
                    1.0 - p_elim - p_fail, dsteps, p_fail * fail_steps + p_elim * elim_steps,
                    p_clear))
    return out
