"""The position as the ladder policies weigh it when they move (numpy over the whole map).

A ``PositionMap`` is built once per Movement Phase of a side (the enemy does not move in it)
and refreshed for the side's own units after each of their moves. It prices, for one unit,
every hex it might end its move in, in the currency of ``scoring`` (victory-point
equivalents for the side moving):

* **exposure**: what the enemy expects to gain by attacking the stack there next turn, from
  the CRT (``scoring.expected_attack`` on a typical stack, per column), with the enemy
  strength that can reach it (``threat``: enemy attack strength within ``threat_radius``
  hexes, times ``threat_share``) against the stack's defence doubled by terrain (5.4);
  zero where the enemy would not attack at a profit;
* **attack**: (greedy) what the unit adds to the best attack on an adjacent enemy hex in
  the coming Combat Phase: the expectation at the odds the side's units adjacent to that hex
  reach with it, minus without it (scored per enemy hex with its real defenders);
* **hold**: a hex next to the enemy that no friendly unit holds (a gap in the line);
* **supply** and **command**: a penalty per stacking point for ending out of supply (9.2)
  or outside every friendly command radius (10.4);
* **town**: a valued town taken from (or held against) the enemy;
* **approach**: a pull toward the enemy for units with attack strength, ``aggression``
  times the side's edge in attack strength on the map (none at 3:4 or less, full at 5:4).

HQs are priced by the stacking points of friendly units within their command radius,
depots by the units out of supply they would supply (and never next to the enemy).
"""

from __future__ import annotations

import numpy as np

from gwe_fast.enums import UnitType
from gwe_fast.games.gwe import combat, command, movement, supply
from gwe_fast.games.gwe.zoc import on_map
from gwe_fast.policies.gwe import scoring
from gwe_fast.state import Status

_HQ, _DEPOT, _CAR = int(UnitType.HQ), int(UnitType.DEPOT), int(UnitType.ARMORED_CAR)
NEG = -1e9


class PositionMap:
    """The side's view of the map for one Movement Phase (see the module docstring)."""

    def __init__(self, view, side: int, weights: scoring.Weights, p):
        self.view, self.side, self.enemy = view, int(side), 1 - int(side)
        self.w, self.p = weights, p
        sc, st = view.scenario, view.state
        m, u = sc.map, sc.units
        self.n = m.n_cells
        self.table = scoring.crt(sc)
        self.vp = scoring.vp_values(sc)
        self.D = scoring.hex_distances(sc)
        self.nb = m.neighbors
        self.limit = int(view.data.stack_limit)
        self.vals = combat.current_values(view)
        self.snap = scoring.Snapshot(view)
        on = on_map(st)
        self.enemy_units = np.flatnonzero(on & (u.side == self.enemy) & (u.utype != _HQ))
        ecells = np.unique(st.unit_cell[self.enemy_units])
        self.enemy_cells = ecells
        self.enemy_occ = np.zeros(self.n, dtype=bool)
        self.enemy_occ[ecells] = True
        self.dist_enemy = (self.D[ecells].min(axis=0).astype(np.int32) if ecells.size
                           else np.full(self.n, 99, dtype=np.int32))
        # enemy strength that can reach each hex next turn
        att = self.vals[self.enemy_units, 0].astype(float)
        oos = (st.unit_status[self.enemy_units] & Status.OUT_OF_SUPPLY).astype(bool)
        att = np.where(oos, np.maximum(1.0, np.floor(att / 2)), att)
        att[self.vals[self.enemy_units, 0] <= 0] = 0.0
        per_cell = np.bincount(st.unit_cell[self.enemy_units], weights=att, minlength=self.n)
        src = np.flatnonzero(per_cell > 0)
        reach = self.D[src] <= int(p.threat_radius)
        self.threat = (per_cell[src] @ reach) * float(p.threat_share) if src.size else \
            np.zeros(self.n)
        # the pull toward the enemy grows with the side's edge in attack strength on the map:
        # none at 3:4 or less, full at 5:4
        mine_att = self.vals[on & (u.side == self.side) & (u.utype != _HQ), 0].clip(0).sum()
        ratio = float(mine_att) / max(float(self.vals[self.enemy_units, 0].clip(0).sum()), 1.0)
        self.pull = float(p.aggression) * min(1.0, max(0.0, 2.0 * (ratio - 0.75)))
        self.enemy_row = (combat.crt_row(view, [int(x) for x in self.enemy_units])
                          if self.enemy_units.size else next(iter(self.table.odds)))
        self.exposure_per_step = self._exposure_table()
        ct = combat.combat_terrain(sc)
        self.mult = (2.0 ** (ct.doubled.astype(np.int64) + ct.trench.astype(np.int64)))
        self.halved = ct.halved
        self.prohibited = ct.prohibited
        self.supplied = supply.supplied_cells(sc, st, self.side)
        self.in_supply = self.snap.supplied(self.side)
        radii = command._Radii(view, self.side)
        self.cover = radii.plain.any(axis=0) if radii.hqs else np.zeros(self.n, dtype=bool)
        self.town = scoring.town_values(sc)
        self.targets: dict[int, dict] = {}
        self._costs: dict[tuple, np.ndarray] = {}
        self.refresh()

    # --- tables built once ----------------------------------------------------------------
    def _exposure_table(self) -> np.ndarray:
        """The enemy's expected gain per defending step on each column against a typical
        stack (one two-step division of two stacking points, free to retreat)."""
        out = np.zeros(self.table.n_cols)
        d = scoring.Force(self.side, (2,), (2,), (2,))
        a = scoring.Force(self.enemy, (2, 2), (2, 2), (2, 2))
        for k in range(self.table.n_cols):
            e = scoring.expected_attack(self.table, k, a, d, self.w, self.vp,
                                        hex_value=self.w.ground)
            out[k] = max(0.0, e.score) / 2.0
        return out

    def target(self, cell: int) -> dict:
        """An enemy hex as a target: its defence and the expectation of an attack on each
        column of the CRT (attacker: enough two-step divisions)."""
        t = self.targets.get(cell)
        if t is None:
            view = self.view
            defence = combat.defense_strength(view, [cell], self.side)
            force = self.snap.defender([cell], self.side)
            k = max(1, -(-force.total_steps // 2))
            att = scoring.Force(self.side, (2,) * k, (2,) * k, (2,) * k)
            hv = scoring.hex_value(view, cell, self.enemy, self.w)
            ev = np.array([scoring.expected_attack(self.table, c, att, force, self.w, self.vp,
                                                   hex_value=hv).score
                           for c in range(self.table.n_cols)])
            t = self.targets[cell] = {"defence": float(defence), "ev": ev}
        return t

    # --- the side's own units (after every move) ---------------------------------------------
    def refresh(self) -> None:
        view = self.view
        sc, st = view.scenario, view.state
        u = sc.units
        on = on_map(st)
        mine = np.flatnonzero(on & (u.side == self.side))
        self.mine = mine
        cells = st.unit_cell[mine]
        self.my_sp = np.bincount(cells, weights=u.stacking[mine], minlength=self.n)
        combat_units = mine[u.utype[mine] != _HQ]
        cc = st.unit_cell[combat_units]
        self.my_combat = np.zeros(self.n, dtype=bool)
        self.my_combat[cc] = True
        steps = u.n_steps[combat_units].astype(float) - st.unit_step[combat_units]
        self.my_steps = np.bincount(cc, weights=steps, minlength=self.n)
        self.my_def = np.bincount(cc, weights=self.vals[combat_units, 1].astype(float),
                                  minlength=self.n)
        # combat.unit_attack for every unit at once: halved (down, never below one) out of
        # supply (9.21) and again out of command (10.42); HQs only if heroic (10.23)
        ok = combat.may_attack(view, self.side)
        att = self.vals[:, 0].astype(float).clip(0)
        ooc = (st.unit_status & Status.OUT_OF_COMMAND).astype(bool)
        att = np.where(self.in_supply | (att <= 0), att, np.maximum(1.0, np.floor(att / 2)))
        att = np.where(ooc & (att > 0), np.maximum(1.0, np.floor(att / 2)), att)
        att[~ok] = 0.0
        for x in np.flatnonzero(ok & (u.utype == _HQ)):
            att[x] = combat.unit_attack(view, int(x), True, self.vals)
        self.unit_att = att
        self.att_cell = np.bincount(st.unit_cell[mine], weights=att[mine], minlength=self.n)
        # the side's attack strength next to each hex (summed in neighbour order)
        padded = np.append(self.att_cell, 0.0)
        self.base_att = padded[np.where(self.nb >= 0, self.nb, self.n)].sum(axis=1)

    def reachable(self, unit: int, spent: int) -> np.ndarray:
        """``movement.reachable`` with the step costs shared by every unit of the same TCR
        and kind: they depend on the enemy only, who does not move in this phase."""
        sc, st = self.view.scenario, self.view.state
        u = sc.units
        here = int(st.unit_cell[unit])
        if st.unit_status[unit] & Status.OUT_OF_COMMAND:
            out = np.full(self.n, -1, dtype=np.int32)
            out[here] = 0
            return out
        key = (int(self.view.data.tcr[unit]), int(u.utype[unit]) == _CAR,
               int(movement.printed_values(sc, st, unit)[0]) > 0)
        cost = self._costs.get(key)
        if cost is None:
            cost = self._costs[key] = movement.step_costs(sc, st, unit)
        left = max(movement.movement_allowance(sc, st, unit) - spent, 0)
        dist = sc.map.k.search.bounded_search(self.nb, cost, [here], limit=left)[0][0].copy()
        if spent == 0:                                                  # 5.17
            for d in range(6):
                w = int(self.nb[here, d])
                if w >= 0 and cost[here, d] >= 0 and dist[w] < 0:
                    dist[w] = cost[here, d]
        return dist

    # --- pricing -----------------------------------------------------------------------------
    def exposure(self, cells: np.ndarray, defence: np.ndarray, steps: np.ndarray) -> np.ndarray:
        """The enemy's expected gain against stacks of ``defence`` (before terrain) and
        ``steps`` in ``cells``."""
        d = np.maximum(defence * self.mult[cells], 0.5)
        ratio = self.threat[cells] / d
        col = self.table.columns(self.enemy_row, ratio)
        col = np.minimum(col, self.table.n_cols - 1)
        g = np.where(col >= 0, self.exposure_per_step[np.maximum(col, 0)], 0.0)
        return g * steps

    def attack_gain(self, unit: int, cells: np.ndarray, may_attack: bool) -> np.ndarray:
        """What the unit adds, in each of ``cells``, to the best attack on an adjacent enemy
        hex (0 where it has none)."""
        out = np.zeros(cells.size)
        a_u = float(self.unit_att[unit]) if self.unit_att[unit] > 0 else \
            float(max(0, self.vals[unit, 0]))
        if not may_attack or a_u <= 0 or not self.enemy_cells.size:
            return out
        view = self.view
        here = int(view.state.unit_cell[unit])
        row = combat.crt_row(view, [unit])
        near = np.flatnonzero(self.dist_enemy[cells] == 1)
        if near.size == 0:
            return out
        c = cells[near]
        t = self.nb[c]                                            # [k, 6] adjacent hexes
        ok = (t >= 0) & self.enemy_occ[np.maximum(t, 0)] & ~self.prohibited[c]
        if not ok.any():
            return out
        tt = t[ok]
        for x in np.unique(tt):
            self.target(int(x))
        defence = np.array([self.targets[int(x)]["defence"] for x in tt])
        ev = np.array([self.targets[int(x)]["ev"] for x in tt])
        a = np.where(self.halved[c][ok], a_u / 2, a_u)
        base = self.base_att[tt] - np.where(self.D[here, tt] == 1, float(self.unit_att[unit]), 0.0)
        base = np.maximum(base, 0.0)
        k0 = self.table.column_array(row, base, defence)
        k1 = self.table.column_array(row, base + a, defence)
        rows = np.arange(tt.size)
        v0 = np.where(k0 >= 0, np.maximum(0.0, ev[rows, np.maximum(k0, 0)]), 0.0)
        v1 = np.where(k1 >= 0, np.maximum(0.0, ev[rows, np.maximum(k1, 0)]), 0.0)
        gain = np.zeros(ok.shape)
        gain[ok] = v1 - v0
        out[near] = np.maximum(gain.max(axis=1), 0.0)
        return out

    def scores(self, unit: int, cells, may_attack: bool = True) -> np.ndarray:
        """The value of the unit standing in each of ``cells`` at the end of its move,
        relative to the position without it (``NEG`` where it may not end: stacking)."""
        view = self.view
        st, u = view.state, view.scenario.units
        cells = np.asarray(cells, dtype=np.int64)
        here = int(st.unit_cell[unit])
        sp = float(u.stacking[unit])
        kind = int(u.utype[unit])
        at_home = cells == here
        others_sp = self.my_sp[cells] - np.where(at_home, sp, 0.0)
        out = np.where(others_sp + sp > self.limit, NEG, 0.0)
        if kind == _HQ:
            return out + self._hq_scores(unit, cells, at_home)
        steps = float(u.n_steps[unit] - st.unit_step[unit])
        dfn = float(self.vals[unit, 1])
        o_def = self.my_def[cells] - np.where(at_home, dfn, 0.0)
        o_steps = self.my_steps[cells] - np.where(at_home, steps, 0.0)
        expo = (self.exposure(cells, o_def + dfn, o_steps + steps)
                - self.exposure(cells, o_def, o_steps))
        out -= expo
        p, w = self.p, self.w
        front = self.dist_enemy[cells] == 1
        alone = o_steps <= 0
        out += np.where(front & alone, float(p.hold), 0.0)
        out += np.where(self.supplied[cells], 0.0, -float(p.supply) * max(sp, 1.0))
        out += np.where(self.cover[cells], 0.0, -float(p.command) * sp)
        hex_last = st.hex_last[cells]
        out += np.where(hex_last != self.side, w.town * self.town[cells], 0.0)
        if kind == _DEPOT:
            out += self._depot_scores(unit, cells)
        else:
            out += float(p.attack) * self.attack_gain(unit, cells, may_attack)
            if self.pull > 0 and self.vals[unit, 0] > 0:
                out -= 0.05 * self.pull * np.minimum(self.dist_enemy[cells], 12)
        return out

    def _hq_scores(self, unit: int, cells: np.ndarray, at_home: np.ndarray) -> np.ndarray:
        """An HQ: stacking points of friendly units within its radius (front units count
        double), never alone next to the enemy (10.52)."""
        view = self.view
        st, u = view.state, view.scenario.units
        radius = command.hq_ratings(view, unit)[2]
        combat_units = self.mine[u.utype[self.mine] != _HQ]
        where = st.unit_cell[combat_units]
        weight = u.stacking[combat_units] * np.where(self.dist_enemy[where] <= 2, 2.0, 1.0)
        per = np.bincount(where, weights=weight, minlength=self.n)
        src = np.flatnonzero(per > 0)
        cover = per[src] @ (self.D[src][:, cells] <= radius) if src.size else np.zeros(cells.size)
        guarded = self.my_combat[cells]
        danger = (self.dist_enemy[cells] <= 1) & ~guarded
        return 0.05 * cover - np.where(danger, 5.0, 0.0) + np.where(guarded, 0.2, 0.0)

    def _depot_scores(self, unit: int, cells: np.ndarray) -> np.ndarray:
        """A depot: friendly units now out of supply within its supply range (9.16), never
        next to the enemy; a little nearer the front for massed artillery (19.2)."""
        view = self.view
        st, u = view.state, view.scenario.units
        rng = int(view.data.supply_range[unit])
        hungry = self.mine[~self.in_supply[self.mine] & (u.utype[self.mine] != _HQ)
                           & (u.utype[self.mine] != _DEPOT)]
        out = np.zeros(cells.size)
        if hungry.size:
            hc = st.unit_cell[hungry]
            out += (self.D[hc][:, cells] <= rng).sum(axis=0) * 0.5
        out -= np.where(self.dist_enemy[cells] <= 1, 5.0, 0.0)
        out += np.where((self.dist_enemy[cells] >= 2) & (self.dist_enemy[cells] <= 3), 0.5, 0.0)
        return out


def command_plan(view, side: int, for_combat: bool, w: scoring.Weights) -> dict[int, int]:
    """Which HQ to give each unit's Command Strength to (10.3): the units that gain most
    from command first (per stacking point), each to the covering HQ with most strength
    left. A unit's gain: the chance its die would fail (TCR in six) times its stake: in the
    Combat Phase its attack strength if it is next to the enemy (halved and 10.43 otherwise);
    in the Movement Phase one for reserves that need to move, a half for units in the line.
    Returns ``{unit: hq or command.NO_HQ}``."""
    sc, st = view.scenario, view.state
    u = sc.units
    mine = np.flatnonzero(on_map(st) & (u.side == side) & (u.utype != _HQ) & (u.utype != _DEPOT))
    if mine.size == 0:
        return {}
    radii = command._Radii(view, side)
    if not radii.hqs:
        return {int(i): command.NO_HQ for i in mine}
    cover = radii.cover(mine)
    enemy = np.flatnonzero(on_map(st) & (u.side != side) & (u.utype != _HQ))
    D = scoring.hex_distances(sc)
    dist = (D[np.unique(st.unit_cell[enemy])].min(axis=0) if enemy.size
            else np.full(sc.map.n_cells, 99))
    vals = combat.current_values(view)
    tcr = view.data.tcr
    fail = tcr[mine].astype(float) / len(scoring.DIE_FACES)
    near = dist[st.unit_cell[mine]] <= 1
    if for_combat:
        stake = np.where(near, vals[mine, 0].astype(float) + 1.0, 0.0)
    else:
        stake = np.where(near, 0.5, 1.0) * np.maximum(vals[mine, 0], 1)
    sp = np.maximum(u.stacking[mine].astype(float), 0.5)
    gain = fail * stake / sp
    left = {h: command.hq_ratings(view, h)[1] for h in radii.hqs}
    plan = {int(i): command.NO_HQ for i in mine}
    for k in np.argsort(-gain, kind="stable"):
        if gain[k] <= 0:
            break
        need = int(u.stacking[mine[k]])
        best = None
        for j, h in enumerate(radii.hqs):
            if cover[k, j] and left[h] >= need and (best is None or left[h] > left[best]):
                best = h
        if best is not None:
            left[best] -= need
            plan[int(mine[k])] = best
    return plan
