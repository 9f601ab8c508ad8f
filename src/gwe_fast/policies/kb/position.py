"""The position as the Kaiser's Battle ladder policies weigh it when they move (numpy over the
whole map), and the attacks a Movement Phase sets up.

A ``Board`` is built once per Movement Segment of a side (the enemy does not move in it) and
refreshed for the side's own units before each of their moves. It prices, for one unit,
every hex it might end its move in, in the currency of ``scoring`` (victory-point
equivalents for the side moving):

* **German**: ``progress`` per hex nearer the western map edge (20.2: exits are 3 VP each),
  a town west of the VP line not yet German (20.11: ``town``; with ``path_towns`` every such
  town on the way counts, since passing through takes it); ending next to an Allied unit
  outside a town or trench hex means a compulsory attack (8.12), priced ``contact`` unless it
  is an attack the phase plans;
* **Allied**: a trench hex held (20.13: ``trench`` times ``hold``), a town west of the VP line
  held (``town`` times ``town_hold``), both discounted by the ``risk`` that German strength
  within ``threat_radius`` hexes takes the hex; the ``screen``: hexes two or three hexes in
  front of the Germans that the unit's zone of control newly covers (6.21: they stop there;
  with ``screen_free`` only from units not in a trench hex);
  German towns on the way taken back (``path_towns``); contact outside towns and trenches
  (a compulsory attack, mostly at poor odds);
* **both**: never over 12 Stacking Points at the end of the phase (7.21), a penalty in a gas
  zone (9.34: a step lost), ``supply`` per supply state worse than in supply (14.13);
* **HQs**: the Stacking Points of friendly units within 6 hexes (a supply line, 14.13),
  half those within 12, and keeping out of contact; in the Allied last word (``endgame``)
  an HQ is a unit like any other for 20.13 and is priced as one.

``plan_attacks`` is the greedy planner: for every enemy stack the units that can reach a hex
next to it in the First Movement Segment, the attack's exact expectation with them
(``scoring.expected_attack``), the best target first, each with the fewest strongest units
that reach (within ``trim_tolerance``) of the whole expectation; its units are given their
hexes and left out of the next targets.
"""

from __future__ import annotations

from array import array

import numpy as np

from gwe_fast.enums import Side, UnitType
from gwe_fast.games.kb import combat, engine, movement, units
from gwe_fast.games.kb.game import Flag
from gwe_fast.policies.gwe import scoring as gwe_scoring
from gwe_fast.policies.gwe.scoring import hex_distances
from gwe_fast.policies.kb import scoring
from gwe_fast.state import Status

_HQ = int(UnitType.HQ)
NEG = -1e9
MAX_TEAM = 99         # attackers weighed for one planned attack (strongest first)


_WEST: dict[int, tuple] = {}


def west_distances(view) -> np.ndarray:
    """``float64[n_cells]``, read-only: the hexes from each hex to the nearest western map
    edge hex, where German units exit (20.2); made once per map and compiled data."""
    data, sc = view.data, view.scenario
    hit = _WEST.get(id(data))
    if hit is None or hit[0] is not data or hit[1] is not sc:
        exits = np.flatnonzero(data.exit_edge)
        west = hex_distances(sc)[exits].min(axis=0).astype(np.float64)
        west.flags.writeable = False
        if len(_WEST) > 32:
            _WEST.clear()
        hit = _WEST[id(data)] = (data, sc, west)
    return hit[2]


class Board:
    """One side's view of the map for one Movement Segment (see the module docstring)."""

    def __init__(self, view, side: int, w: scoring.Weights, p, snap: scoring.Snap,
                 planned: dict | None = None):
        self.view, self.side, self.enemy = view, int(side), 1 - int(side)
        self.w, self.p, self.snap = w, p, snap
        sc, st = view.scenario, view.state
        m, u = sc.map, sc.units
        data = view.data
        self.n = n = m.n_cells
        self.nb = m.neighbors
        self.D = hex_distances(sc)
        self.limit = int(data.stack_limit)
        on = (st.unit_status & Status.ON_MAP).astype(bool)
        self.enemy_units = np.flatnonzero(on & (u.side == self.enemy))
        ecells = np.unique(st.unit_cell[self.enemy_units])
        self.enemy_occ = snap.occ(self.enemy)
        self.ezoc = snap.zoc(self.enemy)
        self.dist_enemy = (self.D[ecells].min(axis=0).astype(np.int32) if ecells.size
                           else np.full(n, 99, dtype=np.int32))
        self.adj_enemy = np.zeros(n, dtype=np.int32)         # enemy stacks next to each hex
        if ecells.size:
            nbe = self.nb[ecells]
            np.add.at(self.adj_enemy, nbe[nbe >= 0], 1)
        self.exempt = data.town | data.trench                 # 8.13, 10.0
        self.trench = data.trench
        self.west_town = data.town & data.west_of_vp_line
        self.dist_west = west_distances(view)
        self.die_mod = data.die_mod.astype(np.float64)
        self.gas = movement.gas_zone(view)
        self.gas_any = bool(self.gas.any())
        # the boolean maps as the policy kernel's uint8 flags (views, no copies)
        self._gas_u8 = gwe_scoring.as_flags(self.gas)
        self._trench_u8 = gwe_scoring.as_flags(self.trench)
        self._west_town_u8 = gwe_scoring.as_flags(self.west_town)
        self._exempt_u8 = gwe_scoring.as_flags(self.exempt)
        self.k = gwe_scoring.kernel(sc)
        self._is_hq_u8 = gwe_scoring.as_flags(u.utype == _HQ)
        self.lengths = snap.lengths(self.side)
        L = self.lengths
        self.supply_pen = np.where(L < 0, 3.0, np.where(L > 12, 2.0, np.where(L > 6, 1.0, 0.0)))
        # enemy strength able to reach each hex (risk to an Allied hold)
        strength = np.array([snap.face(int(x))[0] if u.utype[x] != _HQ else 0
                             for x in self.enemy_units], dtype=np.float64)
        per_cell = np.bincount(st.unit_cell[self.enemy_units], weights=strength, minlength=n) \
            if self.enemy_units.size else np.zeros(n)
        src = np.flatnonzero(per_cell > 0)
        if src.size:
            reach = self.D[src] <= int(p.threat_radius)
            self.threat = per_cell[src] @ reach
        else:
            self.threat = np.zeros(n)
        scale = float(p.risk_scale) * (1.0 + self.die_mod)
        self.risk = self.threat / (self.threat + scale)
        # the Allied Player-Turn of the last Game-Turn is the last word (4.2, 20.0): no German
        # can take a hex back, so every trench and town held then counts in full
        self.last_word = (self.side == Side.ALLIED and bool(getattr(p, "endgame", False))
                          and engine.second_player(sc) == Side.ALLIED
                          and int(st.turn) >= sc.last_turn)
        if self.last_word:
            self.risk = np.zeros(n)
        band = (self.dist_enemy >= 2) & (self.dist_enemy <= 3)
        gap = int(getattr(p, "barrier_gap", 0))
        if gap > 0 and self.side == Side.ALLIED and self.enemy_units.size:
            # a line of zones of control across the map ``gap`` columns west of the westmost
            # German unit: German units may not enter it in the Second Segment (5.22, 6.21)
            front = float(self.dist_west[ecells].min())
            col = max(0.0, front - gap)
            band = (self.dist_west == col) & (self.dist_enemy >= 2)
        self.band = band
        self._band_u8 = gwe_scoring.as_flags(band)
        self.planned = planned or {}          # unit -> (target cell, destination cell)
        self.targets = {t for t, _ in self.planned.values()}
        # the maps ``values`` prices with, bound once (the kernel's ``KbPricer``), and the
        # side's prices of the segment (the Board's parameters and rates do not change)
        self._pricer = self.k.KbPricer(self.dist_west, self._trench_u8, self._west_town_u8,
                                       self.risk, self.adj_enemy, self._exempt_u8,
                                       self.supply_pen, self._gas_u8)
        allied = self.side != Side.CENTRAL
        self._prices = (
            allied, 0.0 if allied else float(p.progress), w.town,
            w.trench * float(p.hold) if allied else 0.0,
            w.town * float(p.town_hold) if allied else 0.0,
            float(p.exposure) if allied else 0.0)
        # ``screen_free``: units in trench hexes hold them (20.13) and leave the screen to
        # the others
        self._screen = bool(allied and not self.last_word and float(p.screen))
        self._screen_free = bool(getattr(p, "screen_free", False))
        self._screen_w = float(p.screen)
        self._contact_w = float(p.contact)
        self._supply_w = float(p.supply)
        self._utype = u.utype.tolist()
        self.refresh()

    def set_plan(self, planned: dict) -> None:
        """The attacks the phase plans: ending next to their targets is not priced as a
        compulsory attack (``contact_penalty``)."""
        self.planned = dict(planned)
        self.targets = {t for t, _ in self.planned.values()}

    # --- the side's own units (before every move) ---------------------------------------------
    def refresh(self) -> None:
        view = self.view
        sc, st = view.scenario, view.state
        flags = view.arr("flags")
        # nothing it reads has changed since the last refresh (the unit before stayed put):
        # keep what it made
        key = (st.unit_cell.tobytes(), st.unit_status.tobytes(), flags.tobytes(),
               st.hex_last.tobytes())
        if key == self.__dict__.get("_refreshed"):
            return
        self._refreshed = key
        u = sc.units
        self.my_sp, self.my_combat_sp, self.path_gain, self.screen_gain = self.k.kb_side_maps(
            st.unit_cell, st.unit_status, Status.ON_MAP, u.side, self.side, flags,
            Flag.SERVICE, u.stacking, self._is_hq_u8, self.nb, self._band_u8,
            self._west_town_u8, st.hex_last, int(Side.CENTRAL), self.side != Side.CENTRAL,
            self._screen)
        self._path_gain_u8 = gwe_scoring.as_flags(self.path_gain)
        self._pricer.set_own(self.my_sp, self._path_gain_u8, self.screen_gain)
        self._gain_cells = np.flatnonzero(self.path_gain)

    # --- prices -------------------------------------------------------------------------------
    def values(self, unit: int, cells, contact: bool = True) -> np.ndarray:
        """The value of ``unit`` ending its move in each of ``cells`` (staying included);
        ``contact=False`` leaves out the price of a compulsory attack (for the planner).
        ``kb_unit_values`` of the policy kernel (an HQ's own price in numpy)."""
        cells = np.asarray(cells, dtype=np.int64)
        return self._values(unit, cells, contact, False,
                            bool(self.gas_any and self.gas[cells].any()))

    def values_with_stay(self, unit: int, cells) -> tuple[np.ndarray, float]:
        """``(values(unit, cells), values(unit, [here])[0])``: in one call to the kernel (the
        values are priced hex by hex) unless the two would not price gas alike."""
        cells = np.asarray(cells, dtype=np.int64)
        gas_on = bool(self.gas_any and self.gas[cells].any())
        if self.gas_any:
            here = int(self.view.state.unit_cell[unit])
            if gas_on != bool(self.gas[here]):
                return (self._values(unit, cells, True, False, gas_on),
                        float(self.values(unit, [here])[0]))
        v = self._values(unit, cells, True, True, gas_on)
        return v[:-1], float(v[-1])

    def _values(self, unit: int, cells: np.ndarray, contact: bool, with_here: bool,
                gas_on: bool) -> np.ndarray:
        """``values`` of ``cells`` (and then of the unit's own hex, ``with_here``), with gas
        priced (``gas_on``) or not."""
        view = self.view
        here = int(view.state.unit_cell[unit])
        base = None
        if self._utype[unit] == _HQ and not self.last_word:
            asked = np.append(cells, here) if with_here else cells
            base = self._hq_values(unit, asked, asked == here)
        gas_cost = 0.0
        if gas_on:
            first = scoring.step_costs(view, unit, self.w)
            gas_cost = first[0] if first else 0.0
        return self._pricer.values(cells, *self._unit_terms(unit, here, contact),
                                   self._supply_w, gas_cost, gas_on, base, with_here)

    def _unit_terms(self, unit: int, here: int, contact: bool) -> tuple:
        """The pricer's arguments from ``here`` to ``ok_cells``: the unit's, the side's."""
        sp = float(units.stacking(self.view, unit))
        contact_on = bool(self._utype[unit] != _HQ and contact)
        ok_cells: list[int] = []
        if contact_on and self.targets:
            plan = self.planned.get(int(unit))
            if plan is not None:
                ok_cells = [int(c) for c in self.nb[plan[0]] if c >= 0]
        screen_on = self._screen and not (self._screen_free and self.trench[here])
        allied, progress, town_w, trench_hold, town_hold, exposure = self._prices
        return (here, sp, float(self.limit), allied, progress, town_w, trench_hold, town_hold,
                exposure, self._screen_w if screen_on else 0.0, screen_on, self._contact_w,
                contact_on, ok_cells)

    def may_gain(self, unit: int, reach: int, bonus_w: float, min_gain: float) -> bool | None:
        """``passive._may_gain``'s question in one call to the policy kernel
        (``KbPricer.may_gain``): whether a hex within ``reach`` hexes of the unit's, with
        ``bonus_w`` per town to take among them, beats staying by over ``min_gain``, priced
        as ``values_with_stay`` prices. None for an HQ outside the last word (priced in
        numpy)."""
        if self._utype[unit] == _HQ and not self.last_word:
            return None
        here = int(self.view.state.unit_cell[unit])
        gas_cost = 0.0
        if self.gas_any:
            first = scoring.step_costs(self.view, unit, self.w)
            gas_cost = first[0] if first else 0.0
        return self._pricer.may_gain(self.D[here], reach, *self._unit_terms(unit, here, True),
                                     self._supply_w, gas_cost, bonus_w, min_gain)

    def _hq_values(self, unit: int, cells: np.ndarray, at_home: np.ndarray) -> np.ndarray:
        D = self.D[cells]
        near = (D <= 6).astype(np.float64) @ self.my_combat_sp
        mid = ((D > 6) & (D <= 12)).astype(np.float64) @ self.my_combat_sp
        v = 0.02 * (near + 0.5 * mid)
        de = self.dist_enemy[cells]
        v = v - 5.0 * (de <= 1) - 1.0 * (de == 2) - 0.3 * (de == 3)
        if self.side == Side.ALLIED:
            v = v + 0.3 * self.trench[cells]
        return v

    # --- paths ----------------------------------------------------------------------------------
    def towns_within(self, unit: int, segment: int) -> bool:
        """Whether a town to take lies within the unit's reach this segment (in hexes; a
        cheap bound before tracing the paths)."""
        gain = self._gain_cells
        if gain.size == 0:
            return False
        here = int(self.view.state.unit_cell[unit])
        reach = movement.allowance(self.view, unit, segment)
        return bool(int(self.D[here, gain].min()) <= reach)

    def path_values(self, unit: int, segment: int, cells) -> np.ndarray:
        """Towns taken on the way to each of ``cells`` (20.11: the last side to pass through a
        town holds it), along the engine's own path (the search's predecessors)."""
        dist, pred = movement.routes(self.view, unit, segment)
        here = int(self.view.state.unit_cell[unit])
        # the destination itself is priced by ``values``
        return self.k.kb_path_gains(dist, pred, self._path_gain_u8, here, cells)


# --- the attacks a Movement Phase sets up -----------------------------------------------------

def plan_attacks(view, side: int, snap: scoring.Snap, w: scoring.Weights, p,
                 movers, board: Board | None = None,
                 compiled: bool = False) -> dict[int, tuple[int, int]]:
    """``{unit: (target cell, destination cell)}``: the attacks the coming Combat Phase should
    make, best expectation first (module docstring). ``movers``: units that may still move
    in the First Movement Segment. With a ``board``, what each attacker gives up by leaving
    its hex for the attack (a trench held, a town, the pull west) is added to the attack's
    expectation. ``compiled``: the expectations from the policy kernel
    (``scoring.attack_values``)."""
    sc, st = view.scenario, view.state
    u, m = sc.units, sc.map
    nb = m.neighbors
    n = m.n_cells
    enemy = 1 - int(side)
    D = hex_distances(sc)
    enemy_occ = snap.occ(enemy)
    ecells = np.flatnonzero(enemy_occ)
    if ecells.size == 0:
        return {}
    dist_enemy = D[ecells].min(axis=0)
    on = (st.unit_status & Status.ON_MAP).astype(bool)
    mine = np.flatnonzero(on & (u.side == side) & (u.utype != _HQ))
    flags = view.arr("flags")
    sp_of = {int(x): float(units.stacking(view, int(x))) for x in mine}
    sp_cell = np.zeros(n)
    np.add.at(sp_cell, st.unit_cell[mine], [sp_of[int(x)] for x in mine])
    limit = float(view.data.stack_limit)
    movers = {int(x) for x in movers}
    reach: dict[int, np.ndarray] = {}
    for x in mine:
        x = int(x)
        here = int(st.unit_cell[x])
        if x in movers and dist_enemy[here] <= units.movement(view, x) + 1:
            dist, _ = movement.routes(view, x, movement.FIRST)
            r = dist >= 0
            r[here] = True
            reach[x] = r
        elif dist_enemy[here] == 1 and not flags[x] & Flag.NO_MOVE:
            r = np.zeros(n, dtype=bool)
            r[here] = True
            reach[x] = r
    if not reach:
        return {}
    exempt = view.data.town | view.data.trench
    adj_count = np.zeros(n, dtype=np.int32)
    nbe = nb[ecells]
    np.add.at(adj_count, nbe[nbe >= 0], 1)
    strength = {x: units.combat(view, x) for x in reach}

    # the same tests as on the arrays, on Python values (spots is asked some 20,000 times a
    # game): a hex next to the target the unit reaches, empty of the enemy, with room. The
    # masks as bytes (0 or 1 per hex) and the stacking as an array of doubles: objects the
    # garbage collector need not walk, where lists of a whole map's values made every
    # collection during the plan go through tens of thousands of entries
    nb_l = sc.map.neighbor_lists
    enemy_l = np.ascontiguousarray(enemy_occ, dtype=bool).tobytes()
    sp_l = array("d", sp_cell.tolist())
    reach_l = {x: r.tobytes() for x, r in reach.items()}
    cell_of = {x: int(st.unit_cell[x]) for x in reach}

    def spots(x: int, e: int) -> list[int]:
        here = cell_of[x]
        r = reach_l[x]
        sp = sp_of[x]
        return [c for c in nb_l[e]
                if c >= 0 and r[c] and not enemy_l[c] and (c == here or sp_l[c] + sp <= limit)]

    def best_spot(x: int, e: int) -> int:
        here = int(st.unit_cell[x])
        cand = spots(x, e)
        return max(cand, key=lambda c: (c == here, exempt[c], -adj_count[c],
                                        int(view.data.die_mod[c]), -c))

    moved: dict[tuple[int, int], float] = {}

    def delta(x: int, e: int) -> float:
        if board is None:
            return 0.0
        c = best_spot(x, e)
        key = (x, c)
        if key not in moved:
            here = int(st.unit_cell[x])
            v = board.values(x, [c, here], contact=False)
            moved[key] = float(v[0] - v[1]) if v[0] > NEG / 2 else NEG
        return moved[key]

    def evaluate(e: int, pool: list[int]):
        cand = [x for x in pool if spots(x, e)]
        if not cand:
            return None
        if board is not None:
            return evaluate_moves(e, cand)
        lead = float(getattr(p, "stoss_lead", 0.0)) > 0
        cand.sort(key=lambda x: (-(lead and bool(combat.is_stoss(view, x))), -strength[x], x))
        full = scoring.expected_attack(snap, cand, [e], w, clear_value=float(p.clear_value),
                                       compiled=compiled)
        best = (full, cand, cand)
        for k in range(1, len(cand)):
            e_k = scoring.expected_attack(snap, cand[:k], [e], w,
                                          clear_value=float(p.clear_value), compiled=compiled)
            if e_k.score >= full.score - float(p.trim_tolerance):
                best = (e_k, cand[:k], cand)
                break
        return best

    def evaluate_moves(e: int, cand: list[int]):
        """Every prefix of the strongest-first candidates, each with what its units give
        up by moving; the best total (the smallest team on a tie)."""
        lead = float(getattr(p, "stoss_lead", 0.0)) > 0
        cand.sort(key=lambda x: (-(lead and bool(combat.is_stoss(view, x))), -strength[x], x))
        best = None
        given_up = 0.0
        top = min(len(cand), MAX_TEAM)
        prefixes = None                  # every team's expectation at once, when one is new
        for k in range(1, top + 1):
            given_up += delta(cand[k - 1], e)
            key = (e, tuple(cand[:k]))
            e_k = cache.get(key)
            if e_k is None:
                if prefixes is None:
                    prefixes = scoring.expected_prefixes(snap, cand[:top], [e], w,
                                                         clear_value=float(p.clear_value),
                                                         compiled=compiled)
                e_k = cache[key] = prefixes[k - 1]
            total = e_k.score + given_up
            if best is None or total > best[0].score + float(p.trim_tolerance):
                best = (scoring.Expected(total, e_k.p_eliminated, e_k.p_unsuccessful,
                                         e_k.p_success, e_k.defender_steps,
                                         e_k.attacker_steps, e_k.p_cleared), cand[:k], cand)
        return best

    cache: dict[tuple, scoring.Expected] = {}
    free = set(reach)
    plan: dict[int, tuple[int, int]] = {}
    scores: dict[int, tuple] = {}
    for e in ecells:
        r = evaluate(int(e), sorted(free))
        if r is not None:
            scores[int(e)] = r
    while scores:
        e = max(scores, key=lambda t: (scores[t][0].score, -t))
        exp, team, _ = scores.pop(e)
        if exp.score < float(p.min_gain) or exp.p_eliminated > float(p.max_eliminated):
            break
        taken = set()
        for x in team:
            where = spots(x, e)
            if not where:
                continue
            c = best_spot(x, e)
            plan[x] = (e, c)
            here = int(st.unit_cell[x])
            sp_cell[here] -= sp_of[x]
            sp_cell[c] += sp_of[x]
            sp_l[here] -= sp_of[x]
            sp_l[c] += sp_of[x]
            free.discard(x)
            taken.add(x)
        for t in list(scores):
            if set(scores[t][2]) & taken:
                r = evaluate(t, sorted(free))
                if r is None:
                    del scores[t]
                else:
                    scores[t] = r
    return plan


# --- the last word: every trench hex and town the Allied units can reach ----------------------

def path_towns(view, unit: int, segment: int, towns: np.ndarray):
    """``(dist, hits)`` of the unit's moves this segment: ``dist`` as ``movement.routes``,
    ``hits[c]`` the indices (into ``towns``, a list of cells) of the towns its move to ``c``
    passes through or ends in, along the engine's own path (the search's predecessors,
    ``units.path_to``: 20.11, the last side to pass through a town holds it)."""
    dist, pred = movement.routes(view, unit, segment)
    n = view.scenario.map.n_cells
    where = {int(c): i for i, c in enumerate(towns)}
    here = int(view.state.unit_cell[unit])
    reach = np.flatnonzero(dist >= 0)
    order = reach[np.argsort(dist[reach], kind="stable")]
    got: dict[int, tuple] = {here: ()}
    for c in order:
        c = int(c)
        if c == here:
            continue
        s = int(pred[c])
        prev = got.get(s % n, ()) if s >= 0 else ()
        got[c] = prev + ((where[c],) if c in where else ())
    return dist, got


def plan_last_word(view, side: int, vp_trench: float, vp_town: float,
                   movers) -> dict[int, tuple[int, int]]:
    """``{unit: (segment, destination)}``: the moves of the Allied Player-Turn of the last
    Game-Turn that put the most Victory Points on the board (20.11, 20.13), nothing after
    them to fear. A unit ending in a fieldwork, redoubt or wire hex is worth ``vp_trench``;
    each town west of the VP line the German holds now (last passed through, not occupied)
    that a move passes through or ends in, ``vp_town``, once. Each unit has its First
    Segment moves (5.21) and, out of enemy zones of control, its Second Segment ones (5.22,
    tripled, never in a zone; not HQs without it, 5.23); stacking stays within the limit
    (7.21). The assignment is greedy on the gain over where the unit stands (a unit already
    in a trench hex gives that up by leaving), lazily re-evaluated (gains only fall as
    towns are taken): a unit that can only take a town takes it, one in a trench hex leaves
    only for another with towns on the way."""
    import heapq

    sc, st = view.scenario, view.state
    data = view.data
    u = sc.units
    n = sc.map.n_cells
    flags = view.arr("flags")
    ger = scoring.Snap(view).occ(1 - int(side))
    ezoc = scoring.Snap(view).zoc(1 - int(side))
    towns = np.flatnonzero(data.town & data.west_of_vp_line
                           & (st.hex_last == Side.CENTRAL) & ~ger)
    trench = data.trench.astype(np.float64) * float(vp_trench)
    limit = float(data.stack_limit)
    on = (st.unit_status & Status.ON_MAP).astype(bool) & (u.side == side)
    sp_cell = np.zeros(n)
    sp_of = {}
    for x in np.flatnonzero(on):
        sp_of[int(x)] = float(units.stacking(view, int(x)))
        sp_cell[int(st.unit_cell[x])] += sp_of[int(x)]
    options: dict[int, list] = {}          # unit -> [(segment, cell, towns), ...]
    for x in movers:
        x = int(x)
        if flags[x] & (Flag.MOVED | Flag.NO_MOVE):
            continue
        here = int(st.unit_cell[x])
        segs = [movement.FIRST]
        if not ezoc[here] and not (u.utype[x] == _HQ
                                   and int(u.extra["second_segment"][x]) == 0):
            segs.append(movement.SECOND)
        opts = []
        for seg in segs:
            dist, hits = path_towns(view, x, seg, towns)
            for c in np.flatnonzero(dist > 0):
                c = int(c)
                if c == here:
                    continue
                h = hits.get(c, ())
                if trench[c] > 0 or h:
                    opts.append((seg, c, frozenset(h)))
        if opts:
            options[x] = opts
    taken: set[int] = set()

    def best(x: int):
        here = int(st.unit_cell[x])
        stay = trench[here]
        top = None
        for seg, c, h in options[x]:
            if sp_cell[c] + sp_of[x] > limit:
                continue
            g = trench[c] + float(vp_town) * len(h - taken) - stay
            key = (g, seg == movement.SECOND, -c)      # ties: the Second Segment, low cell
            if top is None or key > top[0]:
                top = (key, seg, c, h)
        return top

    heap = []
    for x in sorted(options):
        b = best(x)
        if b is not None and b[0][0] > 1e-9:
            heapq.heappush(heap, (-b[0][0], x))
    plan: dict[int, tuple[int, int]] = {}
    while heap:
        _, x = heapq.heappop(heap)
        b = best(x)
        if b is None or b[0][0] <= 1e-9:
            continue
        if heap and b[0][0] < -heap[0][0] - 1e-12:
            heapq.heappush(heap, (-b[0][0], x))          # fell behind: weigh it again later
            continue
        _, seg, c, h = b
        plan[x] = (seg, c)
        taken |= h
        sp_cell[int(st.unit_cell[x])] -= sp_of[x]
        sp_cell[c] += sp_of[x]
    return plan
