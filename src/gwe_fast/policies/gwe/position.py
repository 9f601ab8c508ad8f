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

The pricing of a unit's hexes runs in the policy kernels (``scoring.kernel``:
``score_cells``, ``needed_targets``, ``attack_gains`` of ``gwe_fast._core.policy``, or their
pure-Python twin) over arrays packed once per map and per refresh and bound once in the
kernels' ``CellPricer``; each enemy hex is priced
as a target (``target``) the first time an attack on it is weighed, as before.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast.enums import UnitType
from gwe_fast.games.gwe import combat, command, movement, supply
from gwe_fast.games.gwe.data import DIE_FACES
from gwe_fast.games.gwe.game import Flag
from gwe_fast.games.gwe.zoc import on_map
from gwe_fast.policies.gwe import scoring
from gwe_fast.state import Status

_HQ, _DEPOT, _CAR = int(UnitType.HQ), int(UnitType.DEPOT), int(UnitType.ARMORED_CAR)
#: the flags a unit's attack strength reads (combat.may_attack, combat.unit_attacks and the
#: armored car's broken-down side in combat.current_values)
_ATTACK_FLAGS = int(Flag.ATTACKED | Flag.ADVANCED | Flag.USED_RAIL | Flag.BROKEN_DOWN)
#: a refresh after more of the side's units changed than this makes its sums afresh
_FEW_CHANGED = 8
NEG = -1e9


class PositionMap:
    """The side's view of the map for one Movement Phase (see the module docstring)."""

    def __init__(self, view, side: int, weights: scoring.Weights, p, at_once: bool = False):
        """``at_once``: the map is used for one decision in this very position (an advance
        after combat): what only attacks and depots need (who is in supply, the units'
        attack strengths) is then computed on first use instead of now."""
        self.view, self.side, self.enemy = view, int(side), 1 - int(side)
        self.at_once = bool(at_once)
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
        self.enemy_row = (combat.crt_row(view, self.enemy_units.tolist())
                          if self.enemy_units.size else self.table.rows[0])
        self.exposure_per_step = self._exposure_table()
        self.mult = _terrain_multiplier(sc)
        self.supplied = supply.supplied_cells(sc, st, self.side)
        self._in_supply = None if self.at_once else self.snap.supplied(self.side)
        radii = command._Radii(view, self.side)
        self.cover = radii.plain.any(axis=0) if radii.hqs else np.zeros(self.n, dtype=bool)
        self.town = scoring.town_values(sc)
        self.targets: dict[int, dict] = {}
        self._costs: dict[tuple, np.ndarray] = {}
        # for the policy kernels (scoring.kernel): each enemy hex's defence and expectation
        # per column once it has been priced as a target, and the kernels with this map's
        # arrays bound (flags as uint8; the own arrays set at every refresh)
        self.need = np.array([a / b for a, b in self.table.pairs[self.enemy_row]])
        self.tgt_known = np.zeros(self.n, dtype=np.uint8)
        self.tgt_def = np.zeros(self.n)
        self.tgt_ev = np.zeros((self.n, self.table.n_cols))
        ct, flags = combat.combat_terrain(sc), scoring.as_flags
        self.pricer = scoring.kernel(sc).CellPricer(
            self.nb, flags(ct.prohibited), flags(ct.halved), self.mult, self.threat, self.need,
            self.exposure_per_step, self.dist_enemy, flags(self.supplied), flags(self.cover),
            self.town, flags(self.enemy_occ), self.tgt_def, self.tgt_ev, self.tgt_known)
        self._rows: dict[int, tuple[str, np.ndarray]] = {}
        self._att_key: tuple | None = None
        self._heroic = bool((u.side[combat._heroic(sc)] == self.side).any())
        self.refresh()

    # --- tables built once ----------------------------------------------------------------
    def _exposure_table(self) -> np.ndarray:
        """The enemy's expected gain per defending step on each column against a typical
        stack (one two-step division of two stacking points, free to retreat). It depends
        on the table, the side and the weights only: made once for each (read-only)."""
        key = (id(self.table), self.side, self.w, id(self.vp))
        hit = _EXPOSURE.get(key)
        if hit is None:
            hit = _EXPOSURE[key] = (self.table, self.vp, self._exposure_values())
        return hit[2]

    def _exposure_values(self) -> np.ndarray:
        out = np.zeros(self.table.n_cols)
        d = scoring.Force(self.side, (2,), (2,), (2,))
        a = scoring.Force(self.enemy, (2, 2), (2, 2), (2, 2))
        for k in range(self.table.n_cols):
            e = scoring.expected_attack(self.table, k, a, d, self.w, self.vp,
                                        hex_value=self.w.ground)
            out[k] = max(0.0, e.score) / 2.0
        out.flags.writeable = False
        return out

    def target(self, cell: int) -> dict:
        """An enemy hex as a target: its defence and the expectation of an attack on each
        column of the CRT (attacker: enough two-step divisions)."""
        t = self.targets.get(cell)
        if t is None:
            view = self.view
            defence = self.snap.defense([cell], self.side)
            force = self.snap.defender([cell], self.side)
            hv = scoring.hex_value(view, cell, self.enemy, self.w)
            ev = _target_values(self.table, self.side, force, self.w, self.vp, hv)
            t = self.targets[cell] = {"defence": float(defence), "ev": ev}
            self.tgt_def[cell] = t["defence"]
            self.tgt_ev[cell] = ev
            self.tgt_known[cell] = 1
        return t

    # --- the side's own units (after every move) ---------------------------------------------
    def refresh(self) -> None:
        """Read the side's own units again (after a move). Nothing is recomputed while the
        arrays it reads (units' hexes, steps, status, flags) and the phase are unchanged.

        After a few of the side's units changed hex, steps or presence on the map, only their
        shares of the sums by hex move: every sum here adds whole numbers held as floats
        (stacking points, steps, strengths), exact in any order, so the result is the same
        bits as sums made afresh (``test_position_map_refreshed_in_place_equals_afresh``)."""
        view = self.view
        sc, st = view.scenario, view.state
        key = (st.unit_cell.tobytes(), st.unit_step.tobytes(), st.unit_status.tobytes(),
               view.arr("flags").tobytes(), int(st.turn), int(st.player), int(st.phase))
        if key == getattr(self, "_refreshed", None):
            return
        self._refreshed = key
        u = sc.units
        on = on_map(st)
        self.mine = np.flatnonzero(on & (u.side == self.side))
        before = getattr(self, "_last", None)
        changed = self._changed_units(before, on)
        self._last = (st.unit_cell.copy(), st.unit_step.copy(), on)
        if changed is None:
            self._own_sums()
        else:
            self._move_own_sums(changed, before)
        self.pricer.set_own(self.my_sp, self.my_def, self.my_steps)
        self._attack_known = False
        if not self.at_once:
            self._attack_strengths(changed, before)

    def _changed_units(self, before, on: np.ndarray) -> np.ndarray | None:
        """The side's units whose hex, steps or presence on the map changed since ``before``
        (the last refresh), or None to make the sums afresh (the first refresh, or many
        changes)."""
        if before is None:
            return None
        st = self.view.state
        cell, step, was_on = before
        changed = np.flatnonzero((st.unit_cell != cell) | (st.unit_step != step)
                                 | (on != was_on))
        changed = changed[self.view.scenario.units.side[changed] == self.side]
        return changed if changed.size <= _FEW_CHANGED else None

    def _own_sums(self) -> None:
        """The side's stacking points, combat units, steps and defence strengths per hex."""
        st, u = self.view.state, self.view.scenario.units
        mine = self.mine
        self.my_sp = np.bincount(st.unit_cell[mine], weights=u.stacking[mine],
                                 minlength=self.n)
        combat_units = mine[u.utype[mine] != _HQ]
        cc = st.unit_cell[combat_units]
        self._combat_n = np.bincount(cc, minlength=self.n)
        self.my_combat = self._combat_n > 0
        steps = u.n_steps[combat_units].astype(float) - st.unit_step[combat_units]
        self.my_steps = np.bincount(cc, weights=steps, minlength=self.n)
        self.my_def = np.bincount(cc, weights=self.vals[combat_units, 1].astype(float),
                                  minlength=self.n)

    def _shares(self, x: int, before) -> list[tuple[int, int, int]]:
        """Where unit ``x`` counted at the last refresh and counts now: ``(hex, steps taken,
        -1 / +1)``."""
        st = self.view.state
        cell, step, was_on = before
        out = []
        if was_on[x]:
            out.append((int(cell[x]), int(step[x]), -1))
        if self._last[2][x]:
            out.append((int(st.unit_cell[x]), int(st.unit_step[x]), 1))
        return out

    def _move_own_sums(self, changed: np.ndarray, before) -> None:
        """``_own_sums`` after ``changed`` units moved: each one's share taken from the hex
        it held and added to the hex it holds."""
        u = self.view.scenario.units
        for x in changed.tolist():
            sp = float(u.stacking[x])
            combat_unit = int(u.utype[x]) != _HQ
            for c, step, sign in self._shares(x, before):
                self.my_sp[c] += sign * sp
                if combat_unit:
                    self._combat_n[c] += sign
                    self.my_combat[c] = self._combat_n[c] > 0
                    self.my_steps[c] += sign * float(int(u.n_steps[x]) - step)
                    self.my_def[c] += sign * float(self.vals[x, 1])

    @property
    def in_supply(self) -> np.ndarray:
        """``bool[n_units]``: the units in supply (9.1) when the map was made."""
        if self._in_supply is None:
            self._in_supply = self.snap.supplied(self.side)
        return self._in_supply

    def _attack_strengths(self, changed: np.ndarray | None = None, before=None) -> None:
        """Each unit's attack strength, per hex and next to each hex (part of ``refresh``;
        ``changed``: the units that moved since ``before``, the refresh whose sums stand).

        A unit's strength reads its status, steps and the flags of ``_ATTACK_FLAGS``, never
        its hex, unless the side has heroic leaders (10.23: a leader attacks when stacked
        with friendly units). So after moves that changed none of those, the strengths of
        the last refresh stand, and only the moved units' shares of the sums by hex move."""
        if self._attack_known:
            return
        self._attack_known = True
        view = self.view
        sc, st = view.scenario, view.state
        u = sc.units
        mine = self.mine
        key = (st.unit_status.tobytes(), st.unit_step.tobytes(),
               (view.arr("flags") & _ATTACK_FLAGS).tobytes())
        if key != self._att_key or self._heroic:
            # combat.unit_attack of every unit that may attack (combat.unit_attacks), 0 for
            # the others
            ok = np.flatnonzero(combat.may_attack(view, self.side))
            att = np.zeros(u.n, dtype=float)
            att[ok] = combat.unit_attacks(view, ok, np.asarray(self.in_supply, dtype=bool)[ok],
                                          self.vals)
            self.unit_att, self._att_key = att, key
            changed = None
        att = self.unit_att
        if changed is None or self.__dict__.get("base_att") is None:
            self.att_cell = np.bincount(st.unit_cell[mine], weights=att[mine],
                                        minlength=self.n)
            # the side's attack strength next to each hex (summed in neighbour order)
            padded = np.append(self.att_cell, 0.0)
            self.base_att = padded[np.where(self.nb >= 0, self.nb, self.n)].sum(axis=1)
        else:
            for x in changed.tolist():
                a = float(att[x])
                if a == 0.0:
                    continue
                for c, _, sign in self._shares(x, before):
                    self.att_cell[c] += sign * a
                    for v in self.nb[c].tolist():       # the hexes next to c
                        if v >= 0:
                            self.base_att[v] += sign * a
        self.pricer.set_attack(self.base_att)

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
        cost = self.step_costs(unit)
        left = max(movement.movement_allowance(sc, st, unit) - spent, 0)
        dist = sc.map.k.search.bounded_search(self.nb, cost, [here], limit=left)[0][0].copy()
        if spent == 0:                                                  # 5.17
            for d in range(6):
                w = int(self.nb[here, d])
                if w >= 0 and cost[here, d] >= 0 and dist[w] < 0:
                    dist[w] = cost[here, d]
        return dist

    def step_costs(self, unit: int) -> np.ndarray:
        """``movement.step_costs`` of ``unit``, shared by every unit of the same TCR and kind:
        they depend on the enemy only, who does not move in this phase."""
        sc, st = self.view.scenario, self.view.state
        key = (int(self.view.data.tcr[unit]), int(sc.units.utype[unit]) == _CAR,
               int(movement.printed_values(sc, st, unit)[0]) > 0)
        cost = self._costs.get(key)
        if cost is None:
            cost = self._costs[key] = movement.step_costs(sc, st, unit)
        return cost

    def core_facts(self) -> dict:
        """The arrays the compiled core's record of this map reads (``GweCore.move_plans``:
        ``MovePlanner``), by name: the enemy's facts, the side's own sums and attack
        strengths as the last refresh left them, and the targets' arrays, which the core
        fills in place as it prices each target as ``target`` does (``price_target``)."""
        view = self.view
        ct = combat.combat_terrain(view.scenario)
        return {
            "nb": self.nb, "prohibited": ct.prohibited, "halved": ct.halved,
            "mult": self.mult, "threat": self.threat, "need": self.need,
            "per_step": self.exposure_per_step, "dist_enemy": self.dist_enemy,
            "supplied": self.supplied, "cover": self.cover, "town": self.town,
            "enemy_occ": self.enemy_occ, "tgt_def": self.tgt_def, "tgt_ev": self.tgt_ev,
            "known": self.tgt_known, "D": self.D, "vals": self.vals,
            "in_supply": self.in_supply, "supply_range": view.data.supply_range,
            "pull": self.pull, "limit": self.limit, "n_cols": self.table.n_cols,
            "n_enemy_cells": int(self.enemy_cells.size), **self.core_own()}

    def core_own(self) -> dict:
        """What of ``core_facts`` a refresh changes: the side's own sums by hex, its attack
        strengths and its units on the map."""
        self._attack_strengths()
        return {"my_sp": self.my_sp, "my_def": self.my_def, "my_steps": self.my_steps,
                "base_att": self.base_att, "my_combat": self.my_combat,
                "unit_att": self.unit_att, "mine": self.mine}

    # --- pricing -----------------------------------------------------------------------------
    def exposure(self, cells: np.ndarray, defence: np.ndarray, steps: np.ndarray) -> np.ndarray:
        """The enemy's expected gain against stacks of ``defence`` (before terrain) and
        ``steps`` in ``cells``."""
        d = np.maximum(defence * self.mult[cells], 0.5)
        ratio = self.threat[cells] / d
        # the odds column of each ratio (8.4), in floats with the policies' tolerance
        col = np.searchsorted(self.need, np.asarray(ratio, dtype=float) + 1e-9, side="right") - 1
        col = np.minimum(col, self.table.n_cols - 1)
        g = np.where(col >= 0, self.exposure_per_step[np.maximum(col, 0)], 0.0)
        return g * steps

    def attack_gain(self, unit: int, cells: np.ndarray, may_attack: bool) -> np.ndarray:
        """What the unit adds, in each of ``cells``, to the best attack on an adjacent enemy
        hex (0 where it has none): the expectation at the odds the side's units next to that
        hex reach with it, minus without it (``attack_gains`` of the policy kernel)."""
        cells = np.asarray(cells, dtype=np.int64)
        if not may_attack or not self.enemy_cells.size:
            return np.zeros(cells.size)
        self._attack_strengths()
        a_u = float(self.unit_att[unit]) if self.unit_att[unit] > 0 else \
            float(max(0, self.vals[unit, 0]))
        if a_u <= 0:
            return np.zeros(cells.size)
        # the targets in reach priced first, lazily and in ascending order as before
        for x in self.pricer.needed_targets(cells):
            self.target(int(x))
        _row, ab = self._row_of(unit)
        here = int(self.view.state.unit_cell[unit])
        return self.pricer.attack_gains(cells, self.D[here], a_u, float(self.unit_att[unit]),
                                        ab, self.table.n_cols)

    def _row_of(self, unit: int) -> tuple[str, np.ndarray]:
        """The unit's odds row alone (``combat.crt_row``; TCR and nationality do not change)
        and its ratios as a float array ``[k, 2]``."""
        hit = self._rows.get(unit)
        if hit is None:
            row = combat.crt_row(self.view, [unit])
            hit = self._rows[unit] = (row, np.array(self.table.pairs[row], dtype=float))
        return hit

    def scores(self, unit: int, cells, may_attack: bool = True) -> np.ndarray:
        """The value of the unit standing in each of ``cells`` at the end of its move,
        relative to the position without it (``NEG`` where it may not end: stacking).
        ``score_cells`` of the policy kernel, but for HQs."""
        view = self.view
        st, u = view.state, view.scenario.units
        cells = np.asarray(cells, dtype=np.int64)
        here = int(st.unit_cell[unit])
        sp = float(u.stacking[unit])
        kind = int(u.utype[unit])
        if kind == _HQ:
            at_home = cells == here
            others_sp = self.my_sp[cells] - np.where(at_home, sp, 0.0)
            out = np.where(others_sp + sp > self.limit, NEG, 0.0)
            return out + self._hq_scores(unit, cells, at_home)
        p, w = self.p, self.w
        extra = gain = None
        use_pull = False
        if kind == _DEPOT:
            extra = self._depot_scores(unit, cells)
        else:
            gain = self.attack_gain(unit, cells, may_attack)
            use_pull = bool(self.pull > 0 and self.vals[unit, 0] > 0)
        return self.pricer.score_cells(
            cells, here, sp, float(self.limit), float(u.n_steps[unit] - st.unit_step[unit]),
            float(self.vals[unit, 1]), st.hex_last, self.side, float(p.hold),
            -float(p.supply) * max(sp, 1.0), -float(p.command) * sp, w.town, extra, gain,
            float(p.attack), 0.05 * self.pull, use_pull)

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
        cover = (per[src] @ (self.D[np.ix_(src, cells)] <= radius) if src.size
                 else np.zeros(cells.size))
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
            out += (self.D[np.ix_(hc, cells)] <= rng).sum(axis=0) * 0.5
        out -= np.where(self.dist_enemy[cells] <= 1, 5.0, 0.0)
        out += np.where((self.dist_enemy[cells] >= 2) & (self.dist_enemy[cells] <= 3), 0.5, 0.0)
        return out


@lru_cache(maxsize=32)
def _terrain_multiplier(scenario) -> np.ndarray:
    """Each hex's defence multiplier (5.4: doubled terrain, trenches), made once
    (read-only)."""
    ct = combat.combat_terrain(scenario)
    out = 2.0 ** (ct.doubled.astype(np.int64) + ct.trench.astype(np.int64))
    out.flags.writeable = False
    return out


_TARGETS: dict = {}
#: ``PositionMap._exposure_table`` by (table, side, weights, VP values); an entry holds the
#: table and VP values, so their ids stay theirs
_EXPOSURE: dict = {}


def _target_values(table, side: int, force, w, vp, hv: float) -> np.ndarray:
    """The expectation of an attack on ``force`` on each column of the CRT (attacker: enough
    two-step divisions), remembered by the force's values like ``scoring.expected_attack``.
    Read-only: every target of that force shares it."""
    key = (id(table), side, scoring._signature(force), w, id(vp), hv)
    hit = _TARGETS.get(key)
    if hit is None:
        if len(_TARGETS) >= 50_000:
            _TARGETS.clear()
        k = max(1, -(-force.total_steps // 2))
        att = scoring.Force(side, (2,) * k, (2,) * k, (2,) * k)
        ev = np.array([scoring.expected_attack(table, c, att, force, w, vp, hex_value=hv).score
                       for c in range(table.n_cols)])
        ev.flags.writeable = False
        # the entry holds the table and VP values it was keyed by, so their ids stay theirs
        hit = _TARGETS[key] = (table, vp, ev)
    return hit[2]


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
    fail = tcr[mine].astype(float) / len(DIE_FACES)
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
