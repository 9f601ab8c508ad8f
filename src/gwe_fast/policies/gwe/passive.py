"""``passive``: the second rung of the ladder for The Great War in the East.

It holds its line, keeps supply and command, takes only high-odds attacks and loses as few
victory points as it can:

* **movement**: units next to the enemy stay where they are unless they are out of supply;
  the others (reserves, reinforcements, HQs, depots) go to the hex the ``PositionMap``
  prices best (gaps in the line, good terrain, in supply and command, never overstacked)
  when it beats staying by ``min_move_gain``; entrained units detrain;
* **combat**: it declares an attack only when its exact expectation (``scoring``) is at
  least ``min_gain`` and the expected enemy steps lost are at least ``min_exchange`` times
  its own; it lends HQ shifts and burns depots only where they pay more than they cost;
* **everything else** is scored the same way: the option of 8.9, the step to lose, the
  units affected, the retreat path, the HQ displacement, stacking eliminations, command
  allocation (``position.command_plan``), defensive shifts and artillery, cavalry
  withdrawal; reinforcements enter at the entry hex nearest the enemy, a Central Powers
  reinforcement is withheld when its victory points (25.16) beat ``withhold_worth`` per
  stacking point; step replacement is always attempted; it never advances after combat
  except into a valued town.

``GreedyPolicy`` (``greedy.py``) is this policy with the attack-minded parameters and the
moves that make attacks.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from gwe_fast.enums import CRT_RESULT_NAMES, UnitType
from gwe_fast.games.gwe import combat, command, rail, reinforcements, supply
from gwe_fast.games.gwe.game import Flag
from gwe_fast.games.gwe.units import steps_left
from gwe_fast.games.gwe.zoc import on_map
from gwe_fast.policies.gwe import scoring
from gwe_fast.policies.gwe.base import GwePolicy
from gwe_fast.policies.gwe.position import NEG, PositionMap, command_plan
from gwe_fast.state import Status

_HQ = int(UnitType.HQ)

STOP, DONE, NONE = combat.STOP, combat.DONE, combat.NONE


class PassivePolicy(GwePolicy):
    """Holds the line; attacks only at high odds; loses as few victory points as it can."""

    name = "passive"
    PARAMS: ClassVar[dict[str, Any]] = {
        "min_gain": 0.5,         # least expected gain (VP equivalents) to declare an attack
        "min_exchange": 2.0,     # least ratio of expected enemy steps lost to own
        "min_move_gain": 0.5,    # least gain over staying put for a unit to move
        "line_moves": False,     # may units next to the enemy move (in supply)?
        "attack": 0.0,           # weight of the attack a move sets up (PositionMap)
        "aggression": 0.0,       # pull toward the enemy per hex
        "hold": 1.0,             # a hex next to the enemy held by no friendly unit
        "supply": 1.0,           # per stacking point ending out of supply
        "command": 0.2,          # per stacking point ending outside every command radius
        "threat_radius": 2,      # hexes from which enemy strength threatens a hex
        "threat_share": 0.5,     # share of that strength expected to attack one hex
        "use_rail": False,       # move reserves by rail
        "rail_margin": 0.5,      # what rail must gain over marching
        "trim": False,           # drop attackers that add nothing to an attack
        "trim_tolerance": 0.05,  # expectation an attacker may be dropped for
        "advance": False,        # advance after combat where it pays (else towns only)
        "withhold_worth": 2.0,   # VP per stacking point a reinforcement is worth keeping
        "withdraw_at": 1.0,      # withdraw cavalry when the enemy expects more than this
        "remain_far": 5,         # stay entrained at least this far from the enemy
    }

    # --- movement ---------------------------------------------------------------------------
    def _move_memory(self, view, side: int) -> dict:
        key = self.phase_key(view, "move")
        mem = self.memory.get("move")
        if mem is None or mem["key"] != key:
            mem = self.memory["move"] = {"key": key, "queue": None, "plans": {}, "done": set(),
                                         "pm": PositionMap(view, side, self.weights, self.p)}
        return mem

    def may_move(self, view, pm: PositionMap, unit: int) -> bool:
        """Passive: units next to the enemy hold, unless out of supply or entrained."""
        if self.p.line_moves:
            return True
        st = view.state
        here = int(st.unit_cell[unit])
        if view.scenario.units.utype[unit] == UnitType.HQ:
            return True
        return (pm.dist_enemy[here] > 1 or not pm.supplied[here]
                or bool(st.unit_status[unit] & Status.ENTRAINED))

    def unit_plan(self, view, pm: PositionMap, unit: int) -> tuple[float, list]:
        """The best gain for a unit this phase and the steps to get it (``("move",)``,
        ``("entrain",)``, ``("rail", cell)``, ``("detrain",)``)."""
        _sc, st = view.scenario, view.state
        status = int(st.unit_status[unit])
        here = int(st.unit_cell[unit])
        tcr1 = int(view.data.tcr[unit]) == 1
        entrained = bool(status & Status.ENTRAINED)
        ooc = bool(status & Status.OUT_OF_COMMAND)
        if ooc:
            stay = float(pm.scores(unit, [here], not entrained)[0])
            cells = s = None
        else:
            dist = pm.reachable(unit, int(view.arr("mp_spent")[unit]))
            cells = (dist > 0).nonzero()[0]
            cells = cells[cells != here]
            if entrained:
                stay = float(pm.scores(unit, [here], False)[0])
                s = pm.scores(unit, cells, True) if cells.size else None
            else:                     # one call: each hex is priced on its own
                both = pm.scores(unit, np.concatenate(([here], cells)), True)
                stay, s = float(both[0]), both[1:]
        best, steps = stay, []
        if not ooc:
            if cells.size:
                j = int(np.argmax(s))
                if s[j] > best:
                    best = float(s[j])
                    steps = ([("detrain",)] if entrained else []) + [("move",)]
            elif entrained:
                steps = [("detrain",)]
        if entrained and not ooc and not steps:
            steps = [("detrain",)]
        if self.p.use_rail and (entrained or rail.can_entrain(view, unit)):
            try:
                cells = rail.rail_destinations(view, unit)[0]
            except ValueError:                         # the engine would have to write
                cells = np.zeros(0, dtype=np.int64)
            if cells.size:
                s = pm.scores(unit, cells, tcr1) - float(self.p.rail_margin)
                j = int(np.argmax(s))
                if s[j] > best:
                    best = float(s[j])
                    steps = ([] if entrained else [("entrain",)]) + [("rail", int(cells[j])),
                                                                     ("detrain",)]
        return best - stay, steps

    def move_plans(self, view, pm: PositionMap, units) -> tuple[list, dict, dict]:
        """The Movement Segment's plan (the reference of the compiled core's
        ``GweCore.move_plans``): ``(queue, plans, gains)``, the units of ``units`` that move,
        best gain first (the lower unit first among equals), their steps (``unit_plan``)
        and their gains, by unit. A unit moves when it may (``may_move``) and its plan gains
        more than ``min_move_gain`` or detrains."""
        order, plans, gains = [], {}, {}
        for u in units:
            if u == -1 or not self.may_move(view, pm, int(u)):
                continue
            gain, steps = self.unit_plan(view, pm, int(u))
            if steps and (gain > self.p.min_move_gain or steps[0] == ("detrain",)):
                order.append((-gain, int(u)))
                plans[int(u)] = steps
                gains[int(u)] = gain
        return [u for _, u in sorted(order)], plans, gains

    def on_move_unit(self, d, view, rng) -> int:
        mem = self._move_memory(view, d.side)
        pm = mem["pm"]
        if mem["queue"] is None:
            core = self._move_core(view, pm)
            if core is not None:
                mem["planner"] = _core_move_planner(core, view, d.side, pm, self)
                queue, plans, _ = _core_move_plans(mem["planner"], d.options)
            else:
                queue, plans, _ = self.move_plans(view, pm, d.options)
            mem["queue"] = queue
            mem["plans"].update(plans)
        while mem["queue"]:
            u = mem["queue"].pop(0)
            if u in d.options:
                mem["done"].add(u)
                return self.index_of(d.options, u)
        return self.index_of(d.options, -1)

    #: the methods of the movement plans the compiled core states as this class does
    #: (core.pyx: MovePlanner): a subclass that overrides one plans in Python
    CORE_MOVES: ClassVar[tuple[str, ...]] = ("may_move", "unit_plan", "move_plans",
                                             "on_move_unit", "_move_memory")

    def _move_core(self, view, pm):
        """The game's compiled core when it may make the movement plans for this policy (see
        ``CORE_MOVES``; on a ``PositionMap`` itself, not a subclass), else None."""
        if not COMPILED_MOVES or type(pm) is not PositionMap or pm.at_once:
            return None
        return self._core_unless_overridden(view, self.CORE_MOVES)

    def on_move_action(self, d, view, rng) -> int:
        opts = d.options
        unit = int(d.context["unit"])
        mem = self.memory.get("move")
        if mem is None or mem["key"] != self.phase_key(view, "move"):
            return self.index_of(opts, ("stop",))
        pm = mem["pm"]
        plan = mem["plans"].get(unit, [])
        pm.refresh()
        planner = mem.get("planner")
        if planner is None:
            scores = pm.scores
        else:                                  # the kept record of the core, brought up to date
            planner.rebind(pm.core_own())
            def scores(unit, cells, may_attack):
                return _core_scores(planner, pm, unit, cells, may_attack)
        st = view.state
        here = int(st.unit_cell[unit])
        may_attack = not view.flag(unit, Flag.USED_RAIL) or int(view.data.tcr[unit]) == 1
        while plan:
            step = plan.pop(0)
            if step[0] == "move":
                moves = [(i, o[1]) for i, o in enumerate(opts) if o[0] == "move"]
                if not moves:
                    continue
                cells = np.array([here] + [c for _, c in moves], dtype=np.int64)
                both = scores(unit, cells, may_attack)         # each hex priced on its own
                stay, s = float(both[0]), both[1:]
                j = int(np.argmax(s))
                if s[j] > stay + self.p.min_move_gain and s[j] > NEG / 2:
                    return moves[j][0]
                continue
            if step[0] == "rail":
                if step in opts:
                    return self.index_of(opts, step)
                rails = [(i, o[1]) for i, o in enumerate(opts) if o[0] == "rail"]
                if rails:
                    cells = np.array([c for _, c in rails], dtype=np.int64)
                    s = scores(unit, cells, int(view.data.tcr[unit]) == 1)
                    return rails[int(np.argmax(s))][0]
                continue
            if step in opts:
                return self.index_of(opts, step)
        return self.index_of(opts, ("stop",))

    def on_rail_remain_entrained(self, d, view, rng) -> int:
        dist = _enemy_distance(view, d.side)
        here = int(view.state.unit_cell[int(d.context["unit"])])
        want = ("remain",) if dist[here] >= int(self.p.remain_far) else ("detrain",)
        return self.index_of(d.options, want)

    # --- command and HQs --------------------------------------------------------------------
    #: the decisions the compiled core answers as this class does (core.pyx: the command
    #: plan in ladder_allocation, the replacement roll always attempted, the withdrawals'
    #: ladder_withdrawal_unit and ladder_safest, no occupation), by their handlers
    CORE_KINDS: ClassVar[dict[str, str]] = {
        "gwe.command.allocate": "on_command_allocate",
        "gwe.replacement.attempt": "on_replacement_attempt",
        "gwe.withdrawal.unit": "on_withdrawal_unit",
        "gwe.withdrawal.path": "on_withdrawal_path",
        "gwe.withdrawal.occupy": "on_withdrawal_occupy",
    }
    #: the other methods an answer of ``CORE_KINDS`` reads, which the core states too
    CORE_READS: ClassVar[dict[str, tuple[str, ...]]] = {
        "gwe.withdrawal.unit": ("evaluations", "_threat_attackers"),
    }

    def core_answers(self, game: str, kind: str) -> bool:
        # unless a subclass answers the kind otherwise, or the kind's switch is off
        handler = self.CORE_KINDS.get(kind) if game == "gwe" else None
        if handler is None or type(self).choose is not GwePolicy.choose:
            return False
        if kind.startswith("gwe.withdrawal.") and not COMPILED_WITHDRAWALS:
            return False
        return all(getattr(type(self), m) is getattr(PassivePolicy, m)
                   for m in (handler, *self.CORE_READS.get(kind, ())))

    def core_answer_params(self, game) -> tuple:
        """What the compiled core answers ``CORE_KINDS`` with: the weights (material,
        ground, town), the victory points per Stacking Point of each side (plain,
        surrounded: ``scoring.vp_values``) and ``withdraw_at``."""
        w, vp = self.weights, scoring.vp_values(game.scenario)
        return ((float(w.material), float(w.ground), float(w.town)),
                (tuple(float(x) for x in vp.per_sp),
                 tuple(float(x) for x in vp.per_sp_surrounded)),
                float(self.p.withdraw_at))

    def on_command_allocate(self, d, view, rng) -> int:
        for_combat = bool(d.context.get("for_combat", False))
        key = self.phase_key(view, f"command-{for_combat}")
        mem = self.memory.get("command")
        if mem is None or mem[0] != key:
            mem = self.memory["command"] = (key, command_plan(view, d.side, for_combat,
                                                             self.weights))
        want = mem[1].get(int(d.context["unit"]), command.NO_HQ)
        if want in d.options:
            return self.index_of(d.options, want)
        return self.index_of(d.options, command.NO_HQ, default=len(d.options) - 1)

    def on_hq_displace_to(self, d, view, rng) -> int:
        return _safest(view, d.side, list(d.options))

    def on_hq_reverse_side(self, d, view, rng) -> int:
        return self.index_of(d.options, True)          # 10.54: survive on the reverse side

    # --- combat: the attacker ---------------------------------------------------------------
    def worth_attacking(self, e: scoring.Expected) -> bool:
        return (e.score >= self.p.min_gain
                and e.defender_steps >= self.p.min_exchange * e.attacker_steps)

    #: the methods of the attack's choice the compiled core states as this class does
    #: (core.pyx: choose_attack, weigh_attack): a subclass that overrides one chooses in Python
    CORE_ATTACK: ClassVar[tuple[str, ...]] = ("attack_plans", "select_attack", "_trim",
                                              "worth_attacking")

    def best_attack(self, view, side: int, targets) -> dict | None:
        """The attack with the best exact expectation on one of ``targets`` with the units
        that may attack it, trimmed of units that add nothing when ``trim`` is on; None
        when none is worth declaring. Asked of the game's compiled core when it has one
        (``GweCore.best_attack``: the same choice, the same numbers); what follows is the
        reference."""
        core = self._attack_core(view)
        if core is not None:
            return _core_best_attack(core, view, side, targets, self.weights, self.p)
        snap = scoring.snapshot(view, self.memory)
        best = self.select_attack(view, self.attack_plans(view, side, targets, snap))
        if best is not None and self.p.trim and len(best["attackers"]) > 1:
            self._trim(view, best, snap)
        return best

    def evaluations(self, view, attackers, cells, variants) -> list[scoring.Expected]:
        """``scoring.evaluate_attack`` of ``attackers`` on ``cells`` for each of ``variants``,
        ``(shift_right, shift_left, depot, defense_depot)``: asked of the game's compiled
        core (``GweCore.evaluate_attacks``, the same numbers) when it has one and the attack
        is on one hex, else the reference on the position's ``Snapshot``. (On several hexes
        the Snapshot keeps the defending force of the hexes in the order it first saw them,
        which the core does not know.)"""
        attackers = [int(x) for x in attackers]
        if COMPILED_ATTACKS and len(cells) == 1 and attackers:
            core = getattr(view, "core", None)
            if core is not None:
                w, vp = self.weights, scoring.vp_values(view.scenario)
                side = int(view.scenario.units.side[attackers[0]])
                got = core.evaluate_attacks(side, attackers, [int(c) for c in cells],
                                            (w.material, w.ground, w.town),
                                            (vp.per_sp, vp.per_sp_surrounded), variants)
                if got is not None:
                    table = scoring.crt(view.scenario)
                    return [core_expected(table, e, o) for e, o in got]
        snap = scoring.snapshot(view, self.memory)
        return [scoring.evaluate_attack(view, attackers, cells, self.weights, shift_right=sr,
                                        shift_left=sl, depot=dp, defense_depot=dd, snap=snap)
                for sr, sl, dp, dd in variants]

    def _attack_core(self, view):
        """The game's compiled core when it may choose the attack for this policy (see
        ``CORE_ATTACK``), else None."""
        if not COMPILED_ATTACKS:
            return None
        return self._core_unless_overridden(view, self.CORE_ATTACK)

    def _core_unless_overridden(self, view, methods: tuple[str, ...]):
        """The game's compiled core, unless this policy's class overrides one of ``methods``
        (the steps the core states as ``PassivePolicy`` does), or the game has none."""
        cls = type(self)
        if any(getattr(cls, m) is not getattr(PassivePolicy, m) for m in methods):
            return None
        return getattr(view, "core", None)

    def attack_plans(self, view, side: int, targets, snap) -> list[dict]:
        """Every target with every unit that may attack it (``combat.attack_positions``, the
        units in ascending order) and the exact expectation."""
        eligible = np.flatnonzero(combat.may_attack(view, side))
        by_cell: dict[int, list[int]] = {}
        for x, c in zip(eligible.tolist(), view.state.unit_cell[eligible].tolist()):
            by_cell.setdefault(c, []).append(x)
        plans = []
        for t in targets:
            cand = sorted(x for c in scoring.attack_neighbors(view.scenario, int(t))
                          for x in by_cell.get(c, ()))
            if cand:
                e = scoring.evaluate_attack(view, cand, [int(t)], self.weights, snap=snap)
                plans.append({"cell": int(t), "attackers": cand, "e": e})
        return plans

    def select_attack(self, view, plans: list[dict]) -> dict | None:
        """The plan of the best expectation (the first of equals), if it is worth making."""
        if not plans:
            return None
        best = max(plans, key=lambda p: p["e"].score)
        return best if self.worth_attacking(best["e"]) else None

    def _trim(self, view, plan: dict, snap) -> None:
        vals = combat.current_values(view)
        order = sorted(plan["attackers"], key=lambda x: (vals[x, 0], x))
        for x in order[:4]:
            rest = [a for a in plan["attackers"] if a != x]
            if not rest:
                break
            e = scoring.evaluate_attack(view, rest, [plan["cell"]], self.weights, snap=snap)
            if e.score >= plan["e"].score - self.p.trim_tolerance and self.worth_attacking(e):
                plan["attackers"], plan["e"] = rest, e

    def on_combat_declare(self, d, view, rng) -> int:
        targets = [c for c in d.options if c != STOP]
        plan = self.best_attack(view, d.side, targets)
        self.memory["attack"] = plan
        if plan is None:
            return self.index_of(d.options, STOP)
        return self.index_of(d.options, plan["cell"])

    def on_combat_attack(self, d, view, rng) -> int:
        plan = self.memory.get("attack") or {"attackers": []}
        have = {int(x) for x in d.context.get("attackers", ())}
        for x in plan["attackers"]:
            if x not in have and ("unit", x) in d.options:
                return self.index_of(d.options, ("unit", x))
        if DONE in d.options:
            return self.index_of(d.options, DONE)
        vals = combat.current_values(view)
        units = [(i, o[1]) for i, o in enumerate(d.options) if o != DONE and o[0] == "unit"]
        if units:
            return max(units, key=lambda t: (vals[t[1], 0], -t[1]))[0]
        return 0

    def on_combat_attack_shift(self, d, view, rng) -> int:
        attackers = list(d.context["attackers"])
        cells = list(d.context["defender_cells"])
        shifts = [sum(command.hq_ratings(view, h)[0] for h in opt) for opt in d.options]
        es = self.evaluations(view, attackers, cells, [(s, 0, -1, -1) for s in shifts])
        scores = [e.score - self.weights.shift * len(opt) for e, opt in zip(es, d.options)]
        i = int(np.argmax(scores))
        # for this combat's massed artillery, if it is asked (the same attack: phase, units
        # and hexes; the engine asks nothing in between)
        self.memory["shift_right"] = (
            self._combat_key(view, attackers, cells),
            sum(command.hq_ratings(view, h)[0] for h in d.options[i]))
        return i

    def _combat_key(self, view, attackers, cells) -> tuple:
        """One attack of this Combat Phase: its units and hexes (a hex defends once in a
        Combat Phase, 8.14)."""
        return (self.phase_key(view, "combat"), tuple(int(x) for x in attackers),
                tuple(int(c) for c in cells))

    def on_combat_massed_artillery(self, d, view, rng) -> int:
        attackers = list(d.context["attackers"])
        cells = list(d.context["defender_cells"])
        known = self.memory.pop("shift_right", None)     # this attack's HQ shift, if asked
        shift = known[1] if known and known[0] == self._combat_key(view, attackers, cells) \
            else 0
        es = self.evaluations(view, attackers, cells,
                              [(shift, 0, -1 if o == NONE else int(o), -1) for o in d.options])
        scores = [e.score - (0.0 if opt == NONE else self.weights.depot)
                  for e, opt in zip(es, d.options)]
        return int(np.argmax(scores))

    def on_combat_advance(self, d, view, rng) -> int:
        town = scoring.town_values(view.scenario)
        side = d.side
        options = [(i, o) for i, o in enumerate(d.options) if o != DONE]
        if not self.p.advance:
            st = view.state
            for i, (x, c) in options:
                if town[c] > 0 and st.hex_last[c] != side:
                    return i
            return self.index_of(d.options, DONE)
        pm = PositionMap(view, side, self.weights, self.p, at_once=True)
        best, gain = None, 0.0
        st = view.state
        for i, (x, c) in options:
            here = int(st.unit_cell[x])
            there, stay = pm.scores(x, [c, here], False)       # each hex priced on its own
            g = float(there - stay)
            g += scoring.hex_value(view, c, 1 - side, self.weights) if pm.my_sp[c] == 0 else 0.0
            if g > gain:
                best, gain = i, g
        return self.index_of(d.options, DONE) if best is None else best

    # --- combat: the defender ---------------------------------------------------------------
    def _threat_attackers(self, view, cells, attacker_side: int, ok=None) -> list[int]:
        """The enemy units that may attack all of ``cells`` (an upper bound of the attack
        when the engine does not say who attacks); ``ok``: ``combat.may_attack`` of the
        attacker's units as indices, when already known for this position."""
        pos = combat.attack_positions(view, cells)
        if ok is None:
            ok = np.flatnonzero(combat.may_attack(view, attacker_side))
        return ok[pos[view.state.unit_cell[ok]]].tolist()

    def on_combat_defensive_artillery(self, d, view, rng) -> int:
        attackers = list(d.context["attackers"])
        cells = list(d.context["defender_cells"])
        self.memory["defended"] = (self.phase_key(view, "combat"), tuple(cells), attackers)
        es = self.evaluations(view, attackers, cells,
                              [(0, 0, -1, -1 if o == NONE else int(o)) for o in d.options])
        scores = [-e.score - (0.0 if opt == NONE else self.weights.depot)
                  for e, opt in zip(es, d.options)]
        i = int(np.argmax(scores))
        self.memory["defense_depot"] = -1 if d.options[i] == NONE else int(d.options[i])
        return i

    def on_combat_defense_shift(self, d, view, rng) -> int:
        st = view.state
        defenders = [int(x) for x in d.context["defenders"]]
        cells = sorted({int(st.unit_cell[x]) for x in defenders})
        known = self.memory.pop("defended", None)
        depot = self.memory.pop("defense_depot", -1)
        # the attackers the defensive artillery was asked about, when it was asked in this
        # combat (this phase, these hexes: a hex defends once in a Combat Phase, 8.14)
        if known and known[0] == self.phase_key(view, "combat") and list(known[1]) == cells:
            attackers = known[2]
        else:
            attackers, depot = self._threat_attackers(view, cells, 1 - d.side), -1
        if not attackers:
            return 0
        shifts = [sum(command.hq_ratings(view, h)[0] for h in opt) for opt in d.options]
        es = self.evaluations(view, attackers, cells, [(0, s, -1, depot) for s in shifts])
        scores = [-e.score - self.weights.shift * len(opt) for e, opt in zip(es, d.options)]
        return int(np.argmax(scores))

    def on_combat_option(self, d, view, rng) -> int:
        cells = list(d.context["defender_cells"])
        force = scoring.snapshot(view, self.memory).defender(cells, 1 - d.side)
        affected = int(d.context["affected"])
        hv = sum(scoring.hex_value(view, c, d.side, self.weights) for c in cells)
        vp = scoring.vp_values(view.scenario)
        values = [scoring.option_outcome(o, force, affected, hv, self.weights, vp).value
                  for o in d.options]
        return int(np.argmin(values))

    def on_combat_affected(self, d, view, rng) -> int:
        def key(o):
            if isinstance(o, tuple):
                return (-2 * combat.fortress_steps(view, o[1]), 0.0)
            return (-steps_left(view, int(o)), float(view.scenario.units.stacking[int(o)]))
        return min(range(len(d.options)), key=lambda i: key(d.options[i]))

    def on_combat_loss(self, d, view, rng) -> int:
        u = view.scenario.units
        vp = scoring.vp_values(view.scenario)
        w = self.weights
        costs = []
        for o in d.options:
            if isinstance(o, tuple):                  # a fortress step absorbs two (11.13)
                costs.append((w.material / 2, 0))
                continue
            x = int(o)
            left = steps_left(view, x)
            c = w.material * float(u.stacking[x]) / max(int(u.n_steps[x]), 1)
            if left <= 1:
                c += abs(vp.per_sp[int(u.side[x])]) * float(u.stacking[x])
            costs.append((c, -left))
        return min(range(len(d.options)), key=lambda i: costs[i])

    def on_combat_retreat(self, d, view, rng) -> int:
        ends = [int(p[-1]) for p in d.options]
        return _safest(view, d.side, ends)

    def _least_valuable(self, d, view) -> int:
        u = view.scenario.units
        w = self.weights

        def value(x):
            x = int(x)
            return (float(u.stacking[x]) * (1 + w.material * steps_left(view, x)
                                            / max(int(u.n_steps[x]), 1)), x)
        return min(range(len(d.options)), key=lambda i: value(d.options[i]))

    def on_stacking_eliminate(self, d, view, rng) -> int:
        return self._least_valuable(d, view)

    def on_stacking_retreat_eliminate(self, d, view, rng) -> int:
        return self._least_valuable(d, view)

    # --- withdrawal before combat (12.1) -------------------------------------------------------
    def on_withdrawal_unit(self, d, view, rng) -> int:
        st = view.state
        u = view.scenario.units
        best, worst = 0, float(self.p.withdraw_at)
        able = None                                 # combat.may_attack, once per decision
        for i, x in enumerate(d.options):
            if x == -1:
                continue
            cell = int(st.unit_cell[x])
            here = [int(y) for y in st.units_at(cell) if u.side[y] == d.side
                    and u.utype[y] != _HQ]
            if here != [int(x)]:
                continue                            # it defends with others: it stays
            if able is None:
                able = np.flatnonzero(combat.may_attack(view, 1 - d.side))
            attackers = self._threat_attackers(view, [cell], 1 - d.side, able)
            if not attackers:
                continue
            e = self.evaluations(view, attackers, [cell], [(0, 0, -1, -1)])[0]
            if e.score > worst:
                best, worst = i, e.score
        return best

    def on_withdrawal_path(self, d, view, rng) -> int:
        return _safest(view, d.side, [int(dest) for _, dest in d.options])

    def on_withdrawal_occupy(self, d, view, rng) -> int:
        return self.index_of(d.options, -1)

    # --- reinforcements, replacements ----------------------------------------------------------
    def on_reinforcement_arrive(self, d, view, rng) -> int:
        sc, st = view.scenario, view.state
        u = sc.units
        unit = int(d.context["unit"])
        if ("withhold",) in d.options and u.utype[unit] != UnitType.HQ:
            vp = reinforcements.withhold_vp(sc, int(st.turn))
            if vp is not None and abs(vp) > self.p.withhold_worth * float(u.stacking[unit]):
                return self.index_of(d.options, ("withhold",))
        return self._entry(d, view)

    def on_reinforcement_depot(self, d, view, rng) -> int:
        return self._entry(d, view)

    def _entry(self, d, view) -> int:
        cells = [(i, o[1]) for i, o in enumerate(d.options) if o[0] == "enter"]
        if not cells:
            return self.index_of(d.options, ("delay",), default=0)
        dist = _enemy_distance(view, d.side)
        return min(cells, key=lambda t: (dist[t[1]], t[1]))[0]

    def on_replacement_attempt(self, d, view, rng) -> int:
        return self.index_of(d.options, True)


# --- helpers ---------------------------------------------------------------------------------

#: ``PassivePolicy.best_attack`` asks the game's compiled core when it can (the tests turn it
#: off to hold the core to the Python reference)
COMPILED_ATTACKS = True


#: the compiled core answers a ladder player's Cavalry Withdrawal Before Combat Phase
#: (``PassivePolicy.core_answers``; the tests turn it off to hold the core to the reference)
COMPILED_WITHDRAWALS = True


#: ``PassivePolicy.on_move_unit`` asks the game's compiled core for its queue and plans when it
#: can (the tests turn it off to hold the core to the Python reference)
COMPILED_MOVES = True


def _core_move_plans(planner, units):
    """``on_move_unit``'s queue, plans and gains by unit (``move_plans``), as the compiled
    core makes them (``MovePlanner.plans``)."""
    return planner.plans([int(u) for u in units])


def _core_scores(planner, pm: PositionMap, unit: int, cells, may_attack: bool) -> np.ndarray:
    """``pm.scores`` as the compiled core's record of ``pm`` prices them."""
    return planner.scores(int(unit), cells, bool(may_attack))


def _core_move_planner(core, view, side: int, pm: PositionMap, policy):
    """The compiled core's record of ``pm`` (``GweCore.move_planner``), with the policy's
    parameters, the weights and victory points its targets are priced with (``pm.target``
    in C) and the Python it still asks."""
    p, w = policy.p, policy.weights
    params = (bool(p.line_moves), float(p.min_move_gain), bool(p.use_rail),
              float(p.rail_margin), float(p.hold), float(p.supply), float(p.command),
              float(p.attack), float(w.town))
    hooks = (pm.step_costs, lambda u: pm._row_of(u)[1],
             lambda h: int(command.hq_ratings(view, h)[2]),
             lambda u, entrained: _rail_cells(view, u, entrained))
    vp = scoring.vp_values(view.scenario)
    judge = ((w.material, w.ground, w.town), (vp.per_sp, vp.per_sp_surrounded))
    return core.move_planner(side, pm.core_facts(), params, hooks, judge)


def _rail_cells(view, unit: int, entrained: bool):
    """``unit_plan``'s rail destinations of ``unit``; None when it may not go by rail."""
    if not (entrained or rail.can_entrain(view, unit)):
        return None
    try:
        return rail.rail_destinations(view, unit)[0]
    except ValueError:                                 # the engine would have to write
        return np.zeros(0, dtype=np.int64)


def _core_best_attack(core, view, side: int, targets, w: scoring.Weights, p) -> dict | None:
    """``best_attack``'s plan as the compiled core chooses it, with its ``Expected``."""
    vp = scoring.vp_values(view.scenario)
    got = core.best_attack(side, [int(t) for t in targets], (w.material, w.ground, w.town),
                           (p.min_gain, p.min_exchange, p.trim, p.trim_tolerance),
                           (vp.per_sp, vp.per_sp_surrounded))
    if got is None:
        return None
    cell, attackers, e, outcomes = got
    return {"cell": cell, "attackers": attackers,
            "e": core_expected(scoring.crt(view.scenario), e, outcomes)}


def core_expected(table, e, outcomes) -> scoring.Expected:
    """A ``scoring.Expected`` of the core's numbers (``GweCore.best_attack``): the results
    and the defender's options by name."""
    names = CRT_RESULT_NAMES
    out = []
    for p, a, d, k in outcomes:
        d = names[d]
        option = "" if k < 0 else ("eliminate_all" if d == "E"
                                   else table.defender_options[d][k])
        out.append((p, names[a], d, option))
    return scoring.Expected(*e, out)

def _enemy_distance(view, side: int) -> np.ndarray:
    """Hexes from each hex to the nearest enemy unit other than an HQ (99 when none)."""
    sc, st = view.scenario, view.state
    u = sc.units
    enemy = on_map(st) & (u.side != side) & (u.utype != UnitType.HQ)
    cells = np.unique(st.unit_cell[enemy])
    if cells.size == 0:
        return np.full(sc.map.n_cells, 99, dtype=np.int32)
    return scoring.hex_distances(sc)[cells].min(axis=0).astype(np.int32)


def _safest(view, side: int, cells: list[int]) -> int:
    """Index of the safest of ``cells`` to end in: in supply, far from the enemy (up to
    three hexes), among friendly units, within the stacking limit."""
    sc, st = view.scenario, view.state
    dist = _enemy_distance(view, side)
    ok = supply.supplied_cells(sc, st, side)
    limit = int(view.data.stack_limit)
    u = sc.units
    mine = on_map(st) & (u.side == side)
    sp = np.bincount(st.unit_cell[mine], weights=u.stacking[mine], minlength=sc.map.n_cells)

    def score(c):
        return (2.0 * ok[c] + min(int(dist[c]), 3) + 0.5 * (sp[c] > 0)
                - 10.0 * (sp[c] > limit - 2))
    return max(range(len(cells)), key=lambda i: (score(cells[i]), -i))
