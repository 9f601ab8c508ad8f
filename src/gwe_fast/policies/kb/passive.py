"""``passive``: the second rung of The Kaiser's Battle ladder.

It holds its line, keeps supply, takes only high-odds attacks and loses as few victory
points as it can:

* **movement** (``position.Board``): the Allied player holds trench and town hexes (20.13,
  20.11) where the German strength within reach leaves them a chance, never ends next to a
  German unit outside a town or trench (a compulsory attack, 8.12) and takes back German
  towns on the way; the German player edges west (``progress``) through the towns without
  coming into contact outside towns and trenches; units that can move in the Second
  Movement Segment wait for it (5.22: triple allowance); HQs follow their units (14.13); a
  unit is moved only when some hex within its allowance could beat staying (the engine
  then need not trace its routes);
* **combat**: an optional attack only when its exact expectation (``scoring``) is at least
  ``min_gain`` with at most ``max_eliminated`` chance of 8.71; a compulsory one on the
  target that costs least; attackers that add nothing stay out (``trim_tolerance``);
  rolling and SOS barrages where the expected gain beats the points' worth;
* **everything else** is scored the same way: each step lost where it costs fewest VP
  (``scoring.cheapest_unit``: never a division's back face while a fresh face is there,
  20.14; an Allied unit in a trench last, 20.13), over-stacked units, retreats, advances,
  drumfire, gas, counter-battery, air, breakdown, reinforcement and service-company hexes.

``KbGreedyPolicy`` (``greedy.py``) is this policy with the attack-minded parameters and the
moves that make attacks.
"""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any, ClassVar

import numpy as np

from gwe_fast.enums import Side, UnitType
from gwe_fast.games.kb import artillery, combat, engine, movement, units
from gwe_fast.games.kb.game import FOG, Flag
from gwe_fast.policies.gwe.scoring import hex_distances
from gwe_fast.policies.kb import scoring
from gwe_fast.policies.kb.base import KbPolicy
from gwe_fast.policies.kb.position import (
    NEG,
    Board,
    plan_attacks,
    plan_last_word,
    west_distances,
)
from gwe_fast.state import Status

_HQ = int(UnitType.HQ)
DONE = combat.DONE

#: ``_may_gain`` asks the policy kernel (``Board.may_gain``) instead of pricing in numpy; the
#: numpy code stays the reference, and the tests compare the two with this off
#: (``tests/core/test_kb_move_plans.py``)
COMPILED_MOVES = True

#: the attacks' expectations (``_evaluate``'s and the First Segment's plan's) ask the policy
#: kernel (``scoring.attack_values``) instead of ``scoring.expected_attack`` and
#: ``expected_prefixes``; those stay the reference, and the tests compare the two with this
#: off (``tests/core/test_kb_attack_values.py``)
COMPILED_ATTACKS = True


class KbPassivePolicy(KbPolicy):
    """Holds the line; attacks only at high odds; loses as few victory points as it can."""

    name = "passive"
    PARAMS: ClassVar[dict[str, Any]] = {
        # combat
        "min_gain": 0.5,          # least expected gain (VP equivalents) of an optional attack
        "max_eliminated": 0.05,   # highest chance of 8.71 for an optional attack
        "trim_tolerance": 0.05,   # expectation an attacker may be left out for
        "clear_value": 0.1,       # emptying the defending hexes, beyond towns and trenches
        "multi_hex": False,       # weigh multi-hex attacks when single-hex ones are offered
        "advance": 0.0,           # per hex nearer the western edge when advancing (German)
        # movement
        "plan": False,            # plan attacks in the First Movement Segment
        "progress": 0.04,         # German: per hex nearer the western edge
        "contact": 2.0,           # ending adjacent to the enemy outside towns/trenches
        "hold": 1.0,              # Allied: share of ``trench`` for a trench hex held
        "town_hold": 0.3,         # Allied: share of ``town`` for a western town held
        "exposure": 0.3,          # Allied: per unit of risk of being attacked
        "screen": 0.0,            # Allied: per hex in front of the Germans newly covered
        "screen_free": False,     # Allied: only units outside trench hexes screen
        "barrier_gap": 0,         # Allied: screen a line this many columns west of the
                                  # westmost German unit (0: hexes 2-3 from any German)
        "risk_scale": 40.0,       # German strength at which a hold is a coin toss (x terrain)
        "threat_radius": 5,       # hexes from which German strength threatens a hex
        "supply": 0.1,            # per supply state worse than in supply (14.13)
        "path_towns": True,       # count the towns on the way (20.11)
        "endgame": False,         # Allied: the last Player-Turn fills every trench and town
        "min_move_gain": 0.05,    # least gain over staying put for a unit to move
        "exit": True,             # German: leave the map from the western edge (20.2)
        # artillery, air, breakdown
        "gas": 0,                 # German: most Persistent Gas markers a Game-Turn (9.3)
        "reserve_points": 20,     # German: points kept back from gas for barrages
        "counter_battery": True,  # fire counter-battery when it pays (9.2)
        "air": "intercept",       # "ground", "intercept" or "observe" (12.0)
        "breakdown_within": 0,    # German: break down divisions this close to the west edge
        "stoss_lead": 0.0,        # German: stosstruppen lead the attacks (and are kept whole)
    }

    #: what the policy kernel answers for: a subclass that overrides one keeps the reference
    CORE_MOVES: ClassVar[tuple[str, ...]] = ("_may_gain",)
    #: the steps that ask the policy kernel for an attack's expectation: a subclass that
    #: overrides one has the reference's
    CORE_ATTACKS: ClassVar[tuple[str, ...]] = ("_evaluate", "_move_memory")

    #: what changes in the last word (``setting``): a compulsory attack costs nothing but its
    #: exact expectation, 8.71 is only its expectation, a town already held needs no holding
    LAST_WORD: ClassVar[dict[str, Any]] = {"contact": 0.0, "max_eliminated": 1.0,
                                           "town_hold": 0.0, "exposure": 0.0, "screen": 0.0}

    # --- the last word ----------------------------------------------------------------------
    @staticmethod
    def last_word(view, side: int, p) -> bool:
        """Whether this is the Allied Player-Turn of the last Game-Turn with ``endgame`` on,
        and the Allied Player-Turn ends the Game-Turn (4.2; not with ``first_player =
        "allied"``): nothing follows it (20.0), so only the Victory Points of 20.1 count."""
        st = view.state
        return (bool(p.endgame) and int(side) == Side.ALLIED
                and engine.second_player(view.scenario) == Side.ALLIED
                and int(st.turn) >= view.scenario.last_turn
                and int(st.phase) in (engine.ALLIED_MOVEMENT, engine.ALLIED_COMBAT))

    def setting(self, p, weights, view, decision):
        """In the last word (``last_word``) the currency is the Victory Points of 20.1 and
        nothing else: a step or a unit lost, an Artillery Point kept are worth nothing once
        the game ends; an Allied unit in a fieldwork, redoubt or wire hex (20.13), a town
        west of the VP line (20.11) and a German division replaced (20.14) are worth their
        VP from the scenario's schedule."""
        if not self.last_word(view, decision.side, p):
            return p, weights
        key = (id(p), weights, id(view.scenario))
        hit = self.memory.get("last_word")
        if hit is None or hit[0] != key:
            sc = view.scenario
            w = replace(weights, material=0.0, unit=0.0, arty=0.0, vp=1.0,
                        trench=float(abs(scoring.vp_of(sc, "allied_unit_in_trench"))),
                        town=float(abs(scoring.vp_of(sc, "town_west_of_vp_line"))))
            q = SimpleNamespace(**{**vars(p), **self.LAST_WORD, "hold": 1.0})
            hit = self.memory["last_word"] = (key, q, w)
        return hit[1], hit[2]

    # --- movement ---------------------------------------------------------------------------
    def _move_memory(self, view, side: int, segment: int) -> dict:
        key = self.phase_key(view, f"move-{segment}")
        mem = self.memory.get("move")
        if mem is None or mem["key"] != key:
            snap = scoring.Snap(view)
            old = self.memory.get("plan")
            plan = old[1] if old is not None and old[0] == self.phase_key(view, "plan") else {}
            board = Board(view, side, self.weights, self.p, snap, plan)
            last = self.memory.get("last_plan")
            last = last[1] if last is not None and last[0] == self.phase_key(view, "last") \
                else {}
            if segment == movement.FIRST and board.last_word:
                movers = [int(x) for x in self._candidates(view, side)]
                last = plan_last_word(view, side, self.weights.trench, self.weights.town,
                                      movers)
                self.memory["last_plan"] = (self.phase_key(view, "last"), last)
            if segment == movement.FIRST and self.p.plan:
                movers = [int(x) for x in self._candidates(view, side) if int(x) not in last]
                plan = plan_attacks(view, side, snap, self.weights, self.p, movers, board,
                                    compiled=self._core_attacks())
                self.memory["plan"] = (self.phase_key(view, "plan"), plan)
                board.set_plan(plan)
            mem = self.memory["move"] = {"key": key, "board": board, "plan": plan,
                                         "queue": None, "segment": segment, "last": last}
        return mem

    @staticmethod
    def _candidates(view, side: int) -> np.ndarray:
        st, u = view.state, view.scenario.units
        flags = view.arr("flags")
        on = (st.unit_status & Status.ON_MAP).astype(bool) & (u.side == side)
        return np.flatnonzero(on & ~(flags & (Flag.MOVED | Flag.NO_MOVE)).astype(bool))

    def _queue(self, view, d, mem) -> list[int]:
        board: Board = mem["board"]
        st, u = view.state, view.scenario.units
        seg = mem["segment"]
        plan = mem["plan"]
        last = mem["last"]
        units_ = [int(x) for x in d.options if x != -1]
        first, rest, hqs = [], [], []
        for x in units_:
            here = int(st.unit_cell[x])
            if x in last:
                if last[x][0] == seg:
                    first.append(x)                # the last word's moves (20.11, 20.13)
                continue
            if u.utype[x] == _HQ:
                hqs.append(x)
                continue
            if x in plan:
                first.append(x)
                continue
            if seg == movement.FIRST:
                ma = units.movement(view, x)
                if not (board.ezoc[here] or board.dist_enemy[here] <= ma + 1):
                    continue                       # waits for the Second Segment (5.22)
            if not self._may_gain(view, board, x, seg):
                continue                           # nothing within reach beats staying
            rest.append(x)
        # western units first (they clear the way), the rest by their distance to the enemy;
        # in the last word the units outside trench hexes first: a unit in one only leaves it
        # for another (and the towns on the way) once the others have taken what they can
        final = board.last_word
        rest.sort(key=lambda x: (final and bool(board.trench[int(st.unit_cell[x])]),
                                 board.dist_west[int(st.unit_cell[x])], x))
        lead = float(self.p.stoss_lead) > 0
        first.sort(key=lambda x: (-(lead and combat.is_stoss(view, x)), -units.combat(view, x), x))
        return first + rest + sorted(hqs)

    def _may_gain(self, view, board: Board, unit: int, segment: int) -> bool:
        """Whether any hex within the unit's allowance (in hexes: a bound on where it can
        end its move) could beat staying put: units that cannot gain are not moved (the
        engine need not trace their routes)."""
        here = int(view.state.unit_cell[unit])
        reach = movement.allowance(view, unit, segment)
        if view.scenario.units.side[unit] == Side.CENTRAL and self.p.exit \
                and board.dist_west[here] <= reach:
            return True
        if self._core_moves(board):
            bonus_w = self.weights.town if self.p.path_towns else 0.0
            ok = board.may_gain(unit, max(reach, 1), bonus_w, float(self.p.min_move_gain))
            if ok is not None:
                return ok
        cells = np.flatnonzero(board.D[here] <= max(reach, 1))
        v, stay = board.values_with_stay(unit, cells)
        bonus = 0.0
        if self.p.path_towns:
            bonus = self.weights.town * float(board.path_gain[cells].sum())
        return float(v.max()) + bonus > stay + float(self.p.min_move_gain)

    def _core_moves(self, board) -> bool:
        """Whether ``_may_gain`` may ask the policy kernel (``Board.may_gain``): the switch
        on, a ``Board`` itself (not a subclass), and no step of ``CORE_MOVES`` overridden."""
        if not COMPILED_MOVES or type(board) is not Board:
            return False
        cls = type(self)
        return all(getattr(cls, m) is getattr(KbPassivePolicy, m) for m in self.CORE_MOVES)

    def _core_attacks(self) -> bool:
        """Whether the attacks' expectations may come from the policy kernel: the switch
        on and no step of ``CORE_ATTACKS`` overridden."""
        if not COMPILED_ATTACKS:
            return False
        cls = type(self)
        return all(getattr(cls, m) is getattr(KbPassivePolicy, m) for m in self.CORE_ATTACKS)

    def on_move_unit(self, d, view, rng) -> int:
        seg = int(d.context.get("segment", movement.FIRST))
        mem = self._move_memory(view, d.side, seg)
        if mem["queue"] is None:
            mem["queue"] = self._queue(view, d, mem)
        opts = {int(x) for x in d.options}
        while mem["queue"]:
            x = mem["queue"].pop(0)
            if x in opts:
                return self.index_of(d.options, x)
        return self.index_of(d.options, -1)

    def on_move_to(self, d, view, rng) -> int:
        unit = int(d.context["unit"])
        seg = int(d.context.get("segment", movement.FIRST))
        mem = self._move_memory(view, d.side, seg)
        board: Board = mem["board"]
        board.refresh()
        st, u = view.state, view.scenario.units
        here = int(st.unit_cell[unit])
        last = mem["last"].get(unit)
        if last is not None and last[0] == seg:
            i = self.index_of(d.options, ("move", last[1]), default=-1)
            if i >= 0:
                return i
        plan = mem["plan"].get(unit)
        if plan is not None:
            dest = plan[1]
            if dest == here:
                return self.index_of(d.options, ("stay",))
            i = self.index_of(d.options, ("move", dest), default=-1)
            if i >= 0:
                return i
        # the options in one pass: each move's index and hex, the exits' indices
        move_at: list[int] = []
        to: list[int] = []
        exits: list[int] = []
        for i, o in enumerate(d.options):
            kind = o[0]
            if kind == "move":
                move_at.append(i)
                to.append(o[1])
            elif kind == "exit":
                exits.append(i)
        cells = np.array(to, dtype=np.int64)
        v, stay = board.values_with_stay(unit, cells)
        best_i, best_v = self.index_of(d.options, ("stay",)), stay + float(self.p.min_move_gain)
        if move_at:
            if self.p.path_towns and board.towns_within(unit, seg):
                v = v + self.weights.town * board.path_values(unit, seg, cells)
            j = int(np.argmax(v))
            if v[j] > best_v and v[j] > NEG / 2:
                best_i, best_v = move_at[j], float(v[j])
                if (seg == movement.FIRST and not board.ezoc[here] and u.utype[unit] != _HQ
                        and not board.ezoc[int(cells[j])] and plan is None):
                    best_i = self.index_of(d.options, ("stay",))    # 5.22: go in Segment 2
        if self.p.exit:
            lengths = board.lengths
            for i in exits:
                val = 3.0 * self.weights.exit if lengths[d.options[i][1]] >= 0 else NEG
                if val > best_v:
                    best_i, best_v = i, val
        return best_i

    # --- combat: the attacker ---------------------------------------------------------------
    def _available(self, view, side: int) -> np.ndarray:
        st, u = view.state, view.scenario.units
        flags = view.arr("flags")
        on = (st.unit_status & Status.ON_MAP).astype(bool) & (u.side == side)
        return np.flatnonzero(on & ~(flags & (Flag.ATTACKED | Flag.ADVANCED)).astype(bool))

    def _clear_value(self, view, side: int, cells) -> float:
        data = view.data
        st = view.state
        v = float(self.p.clear_value)
        for c in cells:
            c = int(c)
            if data.town[c] and data.west_of_vp_line[c]:
                held = st.hex_last[c] == Side.CENTRAL
                if (side == Side.CENTRAL) != held:
                    v += self.weights.town
        return v

    def _sos_guess(self, view, side: int, cells) -> list[int]:
        """The SOS points the enemy of ``side`` can put on each defending stack (9.6)."""
        if int(view.arr("weather")[0]) == FOG:
            return []
        enemy = 1 - side
        lim = combat.sos_limit(view)
        f, h = artillery.points_left(view, enemy)
        field_ok = self._field_ok(view, enemy)
        out = []
        for c in cells:
            pts = min(lim, h + (f if field_ok[int(c)] else 0))
            out.append(pts)
            h = max(0, h - pts)
        return out

    def _field_ok(self, view, side: int) -> np.ndarray:
        key = ("field_ok", side, self.phase_key(view, "f"), view.state.unit_cell.tobytes())
        hit = self.memory.get("field_ok")
        if hit is None or hit[0] != key:
            hit = self.memory["field_ok"] = (key, artillery.field_in_range(view, side))
        return hit[1]

    def _evaluate(self, view, snap, attackers, cells, side: int, rolling: int = 0,
                  sos=None) -> scoring.Expected:
        if sos is None:
            sos = self._sos_guess(view, side, cells)
        return scoring.expected_attack(snap, attackers, cells, self.weights, rolling=rolling,
                                       sos=sos, clear_value=self._clear_value(view, side, cells),
                                       compiled=self._core_attacks())

    def _team(self, view, snap, side, cand, comp, cells):
        """The attackers of ``cells``: every candidate, less those that add nothing."""
        team = list(cand)
        e = self._evaluate(view, snap, team, cells, side)
        order = sorted((x for x in cand if x not in comp),
                       key=lambda x: (units.combat(view, x), x))
        for x in order:
            rest = [y for y in team if y != x]
            if not rest:
                break
            e2 = self._evaluate(view, snap, rest, cells, side)
            if e2.score >= e.score - float(self.p.trim_tolerance):
                team, e = rest, e2
        return team, e

    def on_combat_target(self, d, view, rng) -> int:
        side = d.side
        st = view.state
        snap = scoring.snapshot(view, self.memory)
        nb = view.scenario.map.neighbors
        avail = [int(x) for x in self._available(view, side)]
        exempt = view.data.town | view.data.trench
        enemy_occ = snap.occ(1 - side)
        flags = view.arr("flags")
        defended = np.zeros(view.scenario.map.n_cells, dtype=bool)
        on = (st.unit_status & Status.ON_MAP).astype(bool)
        dcells = st.unit_cell[on & ((flags & Flag.DEFENDED) > 0)]
        defended[dcells] = True
        adj = {}
        for x in avail:
            c = int(st.unit_cell[x])
            a = frozenset(int(v) for v in nb[c] if v >= 0 and enemy_occ[v] and not defended[v])
            if a:
                adj[x] = a
        targets = [(i, o) for i, o in enumerate(d.options) if o != DONE]
        singles = [(i, o) for i, o in targets if len(o) == 1]
        if singles and not self.p.multi_hex:
            targets = singles
        best = None
        for i, t in targets:
            ts = frozenset(t)
            cand = [x for x, a in adj.items() if a >= ts]
            if not cand:
                continue
            comp = {x for x in cand if not exempt[int(st.unit_cell[x])] and adj[x] <= ts}
            team, e = self._team(view, snap, side, cand, comp, list(t))
            if best is None or e.score > best[0].score:
                best = (e, i, t, team)
        if best is None:
            i = self.index_of(d.options, DONE, default=0)
            self.memory["attack"] = None
            return i
        e, i, t, team = best
        if DONE in d.options and (e.score < float(self.p.min_gain)
                                  or e.p_eliminated > float(self.p.max_eliminated)):
            self.memory["attack"] = None
            return self.index_of(d.options, DONE)
        self.memory["attack"] = (tuple(t), set(team))
        return i

    def on_combat_join(self, d, view, rng) -> int:
        plan = self.memory.get("attack")
        want = plan is not None and int(d.context["unit"]) in plan[1]
        return self.index_of(d.options, want, default=0)

    def _mix(self, options, total: int) -> int:
        """Index of the ``(field, heavy)`` option of ``total`` points with the most field
        points (heavy points reach anywhere, 9.11: keep them)."""
        best = None
        for i, (f, h) in enumerate(options):
            if f + h == total and (best is None or f > options[best][0]):
                best = i
        return 0 if best is None else best

    def on_combat_rolling(self, d, view, rng) -> int:
        attackers = [int(x) for x in d.context["attackers"]]
        cells = [int(c) for c in d.context["target"]]
        snap = scoring.snapshot(view, self.memory)
        pv = scoring.point_value(view, d.side, self.weights)
        totals = sorted({f + h for f, h in d.options})
        sos = self._sos_guess(view, d.side, cells)
        scores = {t: self._evaluate(view, snap, attackers, cells, d.side, rolling=t,
                                    sos=sos).score - pv * t for t in totals}
        t = max(totals, key=lambda k: (scores[k], -k))
        return self._mix(d.options, t)

    def on_combat_sos(self, d, view, rng) -> int:
        cell = int(d.context["stack"])
        st = view.state
        u = view.scenario.units
        flags = view.arr("flags")
        nb = {int(c) for c in view.scenario.map.neighbors[cell] if c >= 0}
        on = (st.unit_status & Status.ON_MAP).astype(bool)
        attackers = [int(x) for x in np.flatnonzero(on & (u.side != d.side)
                                                    & ((flags & Flag.ATTACKED) > 0))
                     if int(st.unit_cell[x]) in nb]
        if not attackers:
            return self._mix(d.options, 0)
        snap = scoring.snapshot(view, self.memory)
        pv = scoring.point_value(view, d.side, self.weights)
        totals = sorted({f + h for f, h in d.options})
        per = int(view.scenario.tables["barrage_limits"]["sos_points_per_die"])
        totals = [t for t in totals if t % per == 0] or totals
        scores = {t: -self._evaluate(view, snap, attackers, [cell], 1 - d.side,
                                     sos=[t]).score - pv * t for t in totals}
        t = max(totals, key=lambda k: (scores[k], -k))
        return self._mix(d.options, t)

    # --- losses --------------------------------------------------------------------------------
    def on_combat_loss(self, d, view, rng) -> int:
        return scoring.cheapest_unit(view, d.options, self.weights)

    on_drumfire_step_loss = on_combat_loss
    on_ground_attack_step_loss = on_combat_loss
    on_gas_step_loss = on_combat_loss

    def on_stacking_eliminate(self, d, view, rng) -> int:
        w = self.weights
        vals = [scoring.step_costs(view, int(x), w, whole=True)[0] for x in d.options]
        return int(np.argmin(vals))

    # --- retreat and advance -------------------------------------------------------------------
    def _hex_values(self, view, side: int, cells, unit: int | None = None) -> np.ndarray:
        """A quick price of ending in each of ``cells`` after combat."""
        data = view.data
        st = view.state
        cells = np.asarray(cells, dtype=np.int64)
        west = west_distances(view)[cells]
        town = (data.town & data.west_of_vp_line)[cells]
        hl = st.hex_last[cells]
        if side == Side.CENTRAL:
            v = -float(max(self.p.progress, self.p.advance)) * west
            v = v + self.weights.town * (town & (hl != Side.CENTRAL))
        else:
            v = self.weights.trench * data.trench[cells] + self.weights.town * town * 0.5
            v = v + self.weights.town * (town & (hl == Side.CENTRAL))
        v = v + 0.2 * data.die_mod[cells]
        return v

    def on_combat_retreat(self, d, view, rng) -> int:
        v = self._hex_values(view, d.side, [int(c) for c in d.options])
        return int(np.argmax(v))

    def on_combat_advance(self, d, view, rng) -> int:
        cells = [int(c) for c in d.options]
        v = self._hex_values(view, d.side, cells)
        snap = scoring.snapshot(view, self.memory)
        enemy_occ = snap.occ(1 - d.side)
        nb = view.scenario.map.neighbors
        exempt = view.data.town | view.data.trench
        unit = int(d.context["unit"])
        stoss = combat.is_stoss(view, unit)
        for k, c in enumerate(cells):
            touching = any(v2 >= 0 and enemy_occ[v2] for v2 in nb[c])
            if touching and not exempt[c] and not stoss:
                v[k] -= float(self.p.contact) * 0.5
        if d.side == Side.CENTRAL and float(self.p.advance) <= 0:
            v[1:] -= 0.05                      # passive: only for a town or a trench
        return int(np.argmax(v))

    # --- artillery -------------------------------------------------------------------------------
    def on_artillery_counter_battery(self, d, view, rng) -> int:
        side = d.side
        if not self.p.counter_battery:
            return self.index_of(d.options, (0, 0))
        f, h = artillery.points_left(view, 1 - side)
        mine = scoring.point_value(view, side, self.weights)
        theirs = scoring.point_value(view, 1 - side, self.weights)
        totals = sorted({a + b for a, b in d.options})
        score = {t: scoring.counter_battery_value(view, t, f, h) * theirs - t * mine
                 for t in totals}
        t = max(totals, key=lambda k: (score[k], -k))
        return self._mix(d.options, t)

    def on_artillery_gas_markers(self, d, view, rng) -> int:
        f, h = artillery.points_left(view, d.side)
        per = int(view.scenario.tables["persistent_gas"]["points_per_marker"])
        n = min(int(self.p.gas), max(0, (f + h - int(self.p.reserve_points)) // per))
        return self.index_of(d.options, min(n, max(d.options)))

    def on_artillery_gas_target(self, d, view, rng) -> int:
        st, u = view.state, view.scenario.units
        n = view.scenario.map.n_cells
        on = (st.unit_status & Status.ON_MAP).astype(bool) & (u.side != d.side)
        sp = np.bincount(st.unit_cell[on], weights=u.stacking[on], minlength=n)
        nb = view.scenario.map.neighbors
        padded = np.append(sp, 0.0)
        zone = sp + padded[nb].sum(axis=1)
        cells = np.asarray(d.options, dtype=np.int64)
        return int(np.argmax(zone[cells]))

    def on_artillery_gas_points(self, d, view, rng) -> int:
        return self._mix(d.options, sum(d.options[0]))

    def _barrage_table(self, view, side: int, tag: str) -> dict:
        key = self.phase_key(view, tag)
        mem = self.memory.get(tag)
        if mem is None or mem[0] != key:
            mem = self.memory[tag] = (key, {})
        return mem[1]

    def _best_barrage(self, view, side: int, cells, most: int, tag: str, pv: float):
        snap = scoring.Snap(view)
        table = self._barrage_table(view, side, tag)
        best = None
        for c in cells:
            if c is None:
                continue
            c = int(c)
            if (c, most) not in table:
                table[(c, most)] = scoring.barrage_values(snap, c, most, self.weights)
            for pts, val in table[(c, most)].items():
                s = val - pv * pts
                if best is None or s > best[0]:
                    best = (s, c, pts)
        return best

    def on_artillery_drumfire_target(self, d, view, rng) -> int:
        f, h = artillery.points_left(view, d.side)
        pv = scoring.point_value(view, d.side, self.weights)
        best = self._best_barrage(view, d.side, d.options, min(6, f + h), "drumfire", pv)
        if best is None or best[0] <= 0:
            return self.index_of(d.options, None)
        self.memory["drumfire_points"] = (best[1], best[2])
        return self.index_of(d.options, best[1])

    def on_artillery_drumfire_points(self, d, view, rng) -> int:
        want = self.memory.pop("drumfire_points", None)
        totals = sorted({a + b for a, b in d.options})
        t = want[1] if want is not None and want[1] in totals else totals[-1]
        return self._mix(d.options, t)

    # --- air -------------------------------------------------------------------------------------
    def on_air_allocate(self, d, view, rng) -> int:
        n = sum(d.options[0])
        mode = str(self.p.air)
        if mode == "ground":
            want = (0, n, 0)
        elif mode == "observe":
            o = max(o for o, _, _ in d.options)
            want = (o, n - o, 0)
        else:
            want = (0, 0, n)
        return self.index_of(d.options, want)

    def on_air_interception(self, d, view, rng) -> int:
        return max(range(len(d.options)), key=lambda i: (d.options[i][1], -i))

    def on_air_ground_attack_target(self, d, view, rng) -> int:
        left = int(view.arr("air")[d.side, 1])
        best = self._best_barrage(view, d.side, d.options, min(6, left), f"ground{d.side}", 0.0)
        if best is None or best[0] <= 0:
            return self.index_of(d.options, None)
        self.memory["ground_points"] = best[2]
        return self.index_of(d.options, best[1])

    def on_air_ground_attack_points(self, d, view, rng) -> int:
        want = self.memory.pop("ground_points", None)
        return self.index_of(d.options, want, default=len(d.options) - 1)

    def on_air_observation(self, d, view, rng) -> int:
        st, u = view.state, view.scenario.units
        on = (st.unit_status & Status.ON_MAP).astype(bool) & (u.side == d.side)
        n = view.scenario.map.n_cells
        strength = np.bincount(st.unit_cell[on], weights=u.values[on, 0, 0].clip(0),
                               minlength=n)
        padded = np.append(strength, 0.0)
        nb = view.scenario.map.neighbors
        best, bi = 0.0, self.index_of(d.options, None)
        for i, c in enumerate(d.options):
            if c is None:
                continue
            s = float(padded[nb[int(c)]].sum())
            if s > best:
                best, bi = s, i
        return bi

    # --- breakdown, reinforcements ------------------------------------------------------------
    def on_breakdown_division(self, d, view, rng) -> int:
        within = int(self.p.breakdown_within)
        if within <= 0 or int(view.state.turn) >= view.scenario.last_turn:
            return self.index_of(d.options, -1)
        west = west_distances(view)
        st = view.state
        for i, x in enumerate(d.options):
            if x == -1 or (float(self.p.stoss_lead) > 0 and combat.is_stoss(view, int(x))):
                continue
            if int(west[int(st.unit_cell[x])]) <= within:
                return i
        return self.index_of(d.options, -1)

    def on_reinforcement_hex(self, d, view, rng) -> int:
        v = self._hex_values(view, d.side, [int(c) for c in d.options])
        D = hex_distances(view.scenario)
        snap = scoring.snapshot(view, self.memory)
        enemy = np.flatnonzero(snap.occ(1 - d.side))
        if enemy.size:
            far = D[enemy][:, np.asarray(d.options, dtype=np.int64)].min(axis=0)
            v = v + 0.1 * np.minimum(far, 5)
        return int(np.argmax(v))

    def on_reinforcement_service(self, d, view, rng) -> int:
        st, u = view.state, view.scenario.units
        n = view.scenario.map.n_cells
        on = (st.unit_status & Status.ON_MAP).astype(bool) & (u.side == d.side)
        sp = np.bincount(st.unit_cell[on], weights=u.stacking[on], minlength=n)
        best, bi = None, 0
        for i, c in enumerate(d.options):
            c = int(c)
            key = (sp[c] < view.data.stack_limit, bool(view.data.trench[c]), -sp[c], -c)
            if best is None or key > best:
                best, bi = key, i
        return bi
