"""Expected outcomes of The Kaiser's Battle, from the engine's own tables and functions.

Everything a ladder policy weighs is in one currency, *victory-point equivalents* for the
side that decides: the German VP of 20.1 as they would be booked (a division replaced by a
regimental replacement unit, 20.14; an Allied unit left in a trench hex, 20.13; a town west
of the VP line, 20.11; an exit, 20.12), plus ``material`` per point of Combat Strength lost
and ``unit`` per unit gone from the map. A decision's score is the expected change of that
currency; what one side loses the other gains.

* ``step_costs``: what each of a unit's remaining steps costs its owner, in order (a
  division's back face going to its regimental replacement unit costs the 20.14 VP; an Allied
  unit eliminated in a trench hex costs ``trench``).
* ``cheapest``: the cumulative cost of ``k`` steps taken by the owner where they hurt least
  (the order the policies answer ``kb.combat.loss`` and the barrage/gas step losses).
* ``odds``: ``combat.odds_outcome`` as floats (from ``combat.odds_counts``), cached.
* ``Snap``: one position as the scorer reads it (supply lines, occupation, zones of
  control), made once per position; ``Snap.modifiers`` is ``combat.attack_modifiers`` with
  the supply lines traced once for all the attacks weighed in that position.
* ``expected_attack``: the exact expectation of an attack over the 36 pairs of dice: score,
  the chance of each result, the expected steps lost by each side, the chance the defending
  hexes are emptied.
* ``barrage_value``: the exact expectation of a drumfire barrage or ground attack (9.43-9.45,
  12.31) on one stack; ``counter_battery_value``: the enemy Artillery Points a counter-battery
  allocation removes on average (9.23, 9.25).

Examples
--------
>>> odds(30, 0, 11, 1, 4)[0]          # the 8.7 example: 7 in 36 the division is eliminated
0.19444444444444445
>>> cheapest([[0.5, 1.5], [0.2]], 2)  # two steps: the 0.2 one, then the 0.5 one
[0.0, 0.2, 0.7]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from gwe_fast.enums import Side, UnitType
from gwe_fast.games.kb import artillery, combat, supply, units
from gwe_fast.games.kb.game import FOG, Flag
from gwe_fast.games.kb.zoc import controlled, occupied
from gwe_fast.policies.gwe import scoring as gwe_scoring
from gwe_fast.state import Status

DIE = range(1, 7)
_HQ = int(UnitType.HQ)
_SERVICE = int(Flag.SERVICE)
_ON_MAP = int(Status.ON_MAP)
_ALLIED = int(Side.ALLIED)


@dataclass(frozen=True)
class Weights:
    """The exchange rates of the currency (named policy parameters).

    ``material``: a point of Combat Strength lost. ``unit``: a unit gone from the map (it
    can no longer hold a trench, take a town or exit). ``trench``: an Allied unit leaving a
    trench hex (20.13 counts those still there at the end). ``town``: a town west of the VP
    line changing hands (20.11). ``exit``: the share of an exit's 3 VP counted (20.12).
    ``vp``: a Victory Point booked at once (20.14). ``arty``: a whole Game-Turn's allotment of
    Artillery Points (one point is worth ``arty`` divided by the points received).
    """

    material: float = 0.04
    unit: float = 0.3
    trench: float = 0.7
    town: float = 0.8
    exit: float = 1.0
    vp: float = 1.0
    arty: float = 1.5


# --- a unit's steps --------------------------------------------------------------------------

def vp_of(scenario, cause: str) -> int:
    for row in scenario.tables["vp_schedule"]["row"]:
        if row["cause"] == cause:
            return int(row["vp"])
    raise KeyError(cause)


def step_costs(view, unit: int, w: Weights, pool: int | None = None,
               whole: bool = False) -> list[float]:
    """What each remaining step of ``unit`` costs its owner, in the order they go (8.5).

    A step costs ``material`` per point of Combat Strength it takes off the counter; the last
    one also ``unit``, and ``trench`` for an Allied unit in a trench hex (20.13). A German
    division losing its back face while the pool (``pool`` units, 13.23) can replace it costs
    the 20.14 VP and leaves a one-step regiment. ``whole``: the unit is eliminated at once
    (8.71: no replacement unit, no 20.14 VP): one entry, everything."""
    sc, st = view.scenario, view.state
    u = sc.units
    data = view.data
    # the scenario's faces and the unit's flags as Python values (``_face_tables``)
    values, n_steps, division, service = _face_tables(data, u)
    side = int(u.side[unit])
    cell = int(st.unit_cell[unit])
    last = w.unit + (w.trench if side == _ALLIED and cell >= 0 and data.trench[cell] else 0.0)
    if int(view.arr("flags")[unit]) & _SERVICE:
        return [w.material * float(service[unit][0]) + last]
    k, n = int(st.unit_step[unit]), n_steps[unit]
    faces = values[unit]
    if whole:
        return [w.material * float(max(faces[k][0], 0)) + last]
    out: list[float] = []
    while k < n:
        cur = float(faces[k][0])
        if k + 1 < n:
            out.append(w.material * (cur - float(faces[k + 1][0])))
            k += 1
            continue
        if pool is None:
            pool = int(units.pool_free(view).size)
        if division[unit] and pool > 0:
            rep = float(_replacement_strength(sc))
            out.append(w.material * (cur - rep)
                       + w.vp * abs(_vp_cached(sc, "german_division_replaced")))
            out.append(w.material * rep + last)
        else:
            out.append(w.material * cur + last)
        break
    return out


@lru_cache(maxsize=64)
def _vp_cached(sc, cause: str) -> int:
    """``vp_of``, once per scenario and cause (a scenario is never changed)."""
    return vp_of(sc, cause)


@lru_cache(maxsize=32)
def _replacement_strength(sc) -> int:
    rep = np.flatnonzero(sc.units.utype == int(UnitType.REPLACEMENT))
    return int(sc.units.values[rep[0], 0, 0]) if rep.size else 0


def cheapest(costs: list[list[float]], k: int) -> list[float]:
    """Cumulative cost of the first 0..k steps (fewer if the units run out) when the owner
    takes each step from the unit whose next step costs least."""
    heads = [0] * len(costs)
    out = [0.0]
    total = 0.0
    for _ in range(k):
        best, j = None, -1
        for i, c in enumerate(costs):
            if heads[i] < len(c) and (best is None or c[heads[i]] < best):
                best, j = c[heads[i]], i
        if j < 0:
            break
        heads[j] += 1
        total += best
        out.append(total)
    return out


def cheapest_unit(view, options, w: Weights) -> int:
    """Index of the option (a unit) whose next step costs its owner least; ties go to the
    unit with more steps left, then the lower index."""
    pool = int(units.pool_free(view).size)
    best = None
    for i, x in enumerate(options):
        c = step_costs(view, int(x), w, pool)
        key = (c[0] if c else 0.0, -len(c), i)
        if best is None or key < best:
            best = key
    return best[2]


# --- the dice ----------------------------------------------------------------------------------

_ODDS: dict[tuple, tuple] = {}


def odds(att_strength: int, att_mod: int, def_strength: int, def_mod: int,
         morale: int) -> tuple[float, float, tuple[tuple[int, float], ...]]:
    """``(p attacker eliminated, p unsuccessful, ((steps, p), ...))`` of an attack: the exact
    ``combat.odds_outcome`` as floats (``combat.odds_counts`` over 36), cached."""
    key = (int(att_strength), int(att_mod), int(def_strength), int(def_mod), int(morale))
    hit = _ODDS.get(key)
    if hit is None:
        # the counts of 36 as floats: k / 36 is the float of Fraction(k, 36) (both the
        # correctly rounded quotient)
        elim, fail, success = combat.odds_counts(*key)
        hit = (elim / 36, fail / 36, tuple((int(k), v / 36) for k, v in success.items()))
        if len(_ODDS) > 200_000:
            _ODDS.clear()
        _ODDS[key] = hit
    return hit


# --- one position -----------------------------------------------------------------------------

class Snap:
    """One position as the scorer reads it; everything derived is made once, on demand."""

    def __init__(self, view):
        self.view = view
        self._cache: dict = {}
        self._steps_w: Weights | None = None
        self._steps: dict = {}
        self._rows_w: Weights | None = None
        self._rows: dict = {}

    def _get(self, key, make, *args):
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = make(*args)
        return hit

    def lengths(self, side: int) -> np.ndarray:
        return self._get(("lengths", side), lambda: supply.line_lengths(self.view, side))

    def occ(self, side: int) -> np.ndarray:
        return self._get(("occ", side), lambda: occupied(self.view, side))

    def zoc(self, side: int) -> np.ndarray:
        return self._get(("zoc", side), lambda: controlled(self.view, side))

    def pool(self) -> int:
        return self._get("pool", lambda: int(units.pool_free(self.view).size))

    def step_costs(self, unit: int, w: Weights, whole: bool = False) -> list[float]:
        """``step_costs`` of ``unit`` in this position (the pool as it stands), kept: the
        same unit is priced again for every attack it joins or defends against. The list is
        shared: read it, do not change it. (Kept per exchange rates: the table of the last
        ``w`` asked is found by identity, without hashing the rates again.)"""
        if w is not self._steps_w:
            self._steps = self._cache.setdefault(("steps", w), {})
            self._steps_w = w
        key = (unit, whole)
        hit = self._steps.get(key)
        if hit is None:
            hit = self._steps[key] = step_costs(self.view, unit, w, self.pool(), whole)
        return hit

    def _by_cell(self) -> dict[int, list[int]]:
        def make():
            st = self.view.state
            out: dict[int, list[int]] = {}
            on = np.flatnonzero((st.unit_status & Status.ON_MAP).astype(bool))
            for u, c in zip(on.tolist(), st.unit_cell[on].tolist()):
                out.setdefault(c, []).append(u)
            return out
        return self._get("by_cell", make)

    def units_in(self, cells) -> list[int]:
        """The units on the map in ``cells`` (ascending), as the position stood."""
        by = self._by_cell()
        return sorted(u for c in cells for u in by.get(int(c), ()))

    def supply_state(self, unit: int) -> int:
        """``supply.state_of`` of ``unit`` in this position, kept; a state depends only on
        the side and the length of the unit's line (and the Game-Turn, 17.5), so it is read
        once per side and length."""
        key = ("supply_state", unit)
        hit = self._cache.get(key)
        if hit is None:
            view = self.view
            side = int(view.scenario.units.side[unit])
            lengths = self.lengths(side)
            d = int(lengths[int(view.state.unit_cell[unit])])
            hit = self._cache[key] = self._get(("supply_band", side, d), supply.state_of,
                                               view, lengths, unit)
        return hit

    def face(self, unit: int) -> tuple[int, int, int]:
        """``(combat, morale, steps left)`` of ``unit`` in this position, kept: what
        ``units.combat``, ``units.morale`` and ``units.steps_left`` give (a service company's
        own face and one step; nothing left off the map; a division's third step while the
        pool has a replacement unit, 13.23), read from Python lists of the units' flags,
        steps and status (made once per position) and of the scenario's faces."""
        key = ("face", unit)
        hit = self._cache.get(key)
        if hit is None:
            lists = self._cache.get("unit_lists")
            if lists is None:
                view = self.view
                st = view.state
                lists = self._cache["unit_lists"] = (
                    view.arr("flags").tolist(), st.unit_step.tolist(),
                    st.unit_status.tolist(), _face_tables(view.data, view.scenario.units))
            flags, step, status, (values, n_steps, division, service) = lists
            if flags[unit] & _SERVICE:
                combat_, morale_ = service[unit][0], service[unit][1]
            else:
                row = values[unit][step[unit]]
                combat_, morale_ = row[0], row[1]
            if not status[unit] & _ON_MAP:
                left = 0
            elif flags[unit] & _SERVICE:
                left = 1
            else:
                left = n_steps[unit] - step[unit]
                if division[unit] and self.pool():
                    left += 1
            hit = self._cache[key] = (combat_, morale_, left)
        return hit

    def modifiers(self, attackers, cells, rolling: int = 0, sos=()) -> tuple[int, int, int]:
        """``(att_mod, def_mod, morale)``: ``combat.attack_modifiers`` with this position's
        supply lines (8.3, 8.4, 14.22-14.24, 16.0, 5.32, 8.26, 8.61-8.62)."""
        view = self.view
        worst = max((self.supply_state(a) for a in attackers), default=supply.IN_SUPPLY)
        corps = view.arr("corps")
        mixed = len({int(corps[a]) for a in attackers}) >= 2
        hex_mod, side_mod = combat.terrain_modifier(view, attackers, cells)
        morale = self.defence(tuple(int(c) for c in cells)).morale
        return (*self.die_modifiers(worst, mixed, hex_mod + side_mod, rolling, sos), morale)

    def die_modifiers(self, worst: int, mixed: bool, terrain: int, rolling: int = 0,
                      sos=()) -> tuple[int, int]:
        """``(att_mod, def_mod)`` of an attack whose attackers' worst supply state is
        ``worst``, of two or more corps when ``mixed``, across ``terrain`` (hex plus hexside,
        ``combat.terrain_modifier``), with ``rolling`` Rolling Barrage points and the ``sos``
        points of each defending stack's barrage (8.3, 8.4, 14.22, 16.0, 9.52, 9.62)."""
        att, sos_mod = self.barrage_mods(rolling, sos)
        dfn = (self.supply_mod(worst)
               + sos_mod
               + (self._table_mods()[3] if mixed else 0)
               + terrain)
        return att, dfn

    def barrage_mods(self, rolling: int = 0, sos=()) -> tuple[int, int]:
        """``(att_mod, SOS part of def_mod)``: the attacker's die modifier (fog and ``rolling``
        Rolling Barrage points, 11.2, 9.62) and what the ``sos`` points of each defending
        stack add to the defender's (9.52)."""
        fog, sos_per_die, rolling_per_point, _ = self._table_mods()
        return (fog + int(rolling) * rolling_per_point,
                sum(int(p) // sos_per_die for p in sos))

    def supply_mod(self, state: int) -> int:
        """``supply.die_modifier`` of the attackers' worst supply state (14.22), kept."""
        return self._get(("supply_mod", state), supply.die_modifier, self.view, state)

    def _table_mods(self) -> tuple[int, int, int, int]:
        """``(fog, SOS points per die, die per Rolling Barrage point, two corps)``: the
        modifiers read from the tables, with the weather of this position (11.2, 9.52, 9.62,
        16.0)."""
        def make():
            view = self.view
            tables = view.scenario.tables
            lim = tables["barrage_limits"]
            fog = _row_mod(tables, "attacker_die_modifiers", "fog") \
                if int(view.arr("weather")[0]) == FOG else 0
            return (fog, int(lim["sos_points_per_die"]), int(lim["rolling_die_per_point"]),
                    _row_mod(tables, "defender_die_modifiers", "attack_by_two_or_more_corps"))
        return self._get("table_mods", make)

    def defence(self, cells: tuple[int, ...]) -> Defence:
        """The defending side of an attack on ``cells`` in this position, kept: every attack
        on the same hexes weighed in the position shares it."""
        return self._get(("defence", cells), self._make_defence, cells)

    def _make_defence(self, cells: tuple[int, ...]) -> Defence:
        defenders = self.units_in(cells)
        return Defence(defenders, sum(self.face(d)[0] for d in defenders),
                       max((self.face(u)[1] for u in defenders), default=0))

    def defender_steps(self, cells: tuple[int, ...], w: Weights) -> tuple[int, list[float]]:
        """``(steps, cum)`` of the defenders of ``cells``: their steps in all and ``cheapest``
        of all of them (``cum[k]``: the least ``k`` steps cost their owner; a shorter
        ``cheapest`` is a prefix of it), kept."""
        def make():
            dcost = [self.step_costs(d, w) for d in self.defence(cells).units]
            n_def = sum(len(c) for c in dcost)
            return n_def, cheapest(dcost, n_def)
        return self._get(("defender_steps", cells, w), make)

    def attack_row(self, unit: int, side: int, w: Weights) -> tuple:
        """What the policy kernel's ``kb_attack_values`` reads of ``unit`` attacking for
        ``side`` in this position, kept: ``(combat, supply state, corps, hex, step_costs,
        cost eliminated whole, steps left, steps an unsuccessful attack takes from its
        stack (1, or 2 with no hex to retreat into, 8.74), in a trench hex)``."""
        if w is not self._rows_w:
            self._rows = self._cache.setdefault(("rows", w), {})
            self._rows_w = w
        key = 2 * unit + side
        hit = self._rows.get(key)
        if hit is None:
            view = self.view
            cell = int(view.state.unit_cell[unit])
            combat_, _, left = self.face(unit)
            hit = self._rows[key] = (
                combat_, self.supply_state(unit), int(view.arr("corps")[unit]), cell,
                self.step_costs(unit, w), self.step_costs(unit, w, whole=True)[0], left,
                1 if self.can_retreat(cell, side) else 2, bool(view.data.trench[cell]))
        return hit

    def can_retreat(self, cell: int, side: int) -> bool:
        """Whether a stack of ``side`` in ``cell`` has a hex to retreat into (8.74, 6.33): a
        neighbour neither occupied nor controlled by the enemy."""
        key = ("retreat", cell, side)
        hit = self._cache.get(key)
        if hit is None:
            bad = self._get(("closed", side), lambda: (self.occ(1 - side)
                                                       | self.zoc(1 - side)).tobytes())
            nb = self.view.scenario.map.neighbor_lists[cell]
            hit = self._cache[key] = any(c >= 0 and not bad[c] for c in nb)
        return hit


_FACES: dict[int, tuple] = {}


def _face_tables(data, u) -> tuple[list, list, list, list]:
    """``(values, n_steps, division, service)`` of the units as Python lists: each unit's
    printed faces ``[combat, morale, movement]`` by step, its printed steps, whether it is a
    division, its service-company face; made once per compiled data (kept with it)."""
    hit = _FACES.get(id(data))
    if hit is None or hit[0] is not data or hit[1] is not u:
        if len(_FACES) > 32:
            _FACES.clear()
        hit = _FACES[id(data)] = (data, u, (u.values.tolist(), u.n_steps.tolist(),
                                            data.division.tolist(),
                                            data.service_values.tolist()))
    return hit[2]


def _row_mod(tables, table: str, cause: str) -> int:
    for row in tables[table]["row"]:
        if row["cause"] == cause:
            return int(row["mod"])
    return 0


def fingerprint(view) -> tuple:
    st = view.state
    return (int(st.turn), int(st.phase), int(view.arr("weather")[0]), st.unit_cell.tobytes(),
            st.unit_status.tobytes(), st.unit_step.tobytes())


def snapshot(view, memory: dict | None = None) -> Snap:
    """The ``Snap`` of the position as it stands, reused while nothing has moved."""
    if memory is None:
        return Snap(view)
    key = fingerprint(view)
    hit = memory.get("snap")
    if hit is None or hit[0] != key:
        hit = memory["snap"] = (key, Snap(view))
    return hit[1]


# --- an attack ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Defence:
    """The defenders of a set of hexes in one position: the units (ascending), their Combat
    Strength in all and the highest Morale Value among them (8.61, 8.62)."""

    units: list[int]
    strength: int
    morale: int


@dataclass(frozen=True)
class Expected:
    """The expectation of one attack, in the attacker's currency."""

    score: float
    p_eliminated: float
    p_unsuccessful: float
    p_success: float
    defender_steps: float
    attacker_steps: float
    p_cleared: float


def _success(success, n_def: int, full: list[float], clear_value: float
             ) -> tuple[float, float, float]:
    """``(gain, defender steps, p cleared)`` over the successful results (8.75): ``success``
    as ``odds`` gives it, the defenders' ``n_def`` steps with ``full`` the cheapest of them
    (``Snap.defender_steps``), ``clear_value`` when the defending hexes are emptied."""
    kmax = max((k for k, _ in success), default=0)
    cum = full[:min(kmax, n_def) + 1]
    gain, dsteps, p_clear = 0.0, 0.0, 0.0
    for k, p in success:
        j = min(k, len(cum) - 1)
        gain += p * cum[j]
        dsteps += p * j
        if j >= n_def:
            p_clear += p
            gain += p * clear_value
    return gain, dsteps, p_clear


def expected_attack(snap: Snap, attackers, cells, w: Weights, rolling: int = 0, sos=(),
                    clear_value: float = 0.0, compiled: bool = False) -> Expected:
    """The exact expectation of an attack in the current position (8.7, 8.71-8.75).

    Attacker eliminated (8.71): every attacker with everything it has left. Unsuccessful
    (8.74): each attacking stack loses its cheapest step and retreats, or a second step when
    no hex is open to it; an Allied stack retreating out of a trench hex also gives up
    ``trench`` per unit. Successful (8.75): the defender loses ``quotient - morale`` steps
    where they cost him least; ``clear_value`` is added when the defending hexes are emptied
    (the hex won: the caller prices towns and the advance). ``compiled``: the policy
    kernel's answer (``attack_values``), this code when it declines."""
    if compiled:
        got = attack_values(snap, attackers, cells, w, rolling, sos, clear_value, False)
        if got is not None:
            return got[0]
    view = snap.view
    attackers = [int(a) for a in attackers]
    cells = tuple(int(c) for c in cells)
    defence = snap.defence(cells)
    if not attackers or not defence.units:
        return Expected(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    att_str = sum(snap.face(a)[0] for a in attackers)
    def_str = defence.strength
    if def_str <= 0:
        def_str = 1
    att_mod, def_mod, morale = snap.modifiers(attackers, cells, rolling, sos)
    p_elim, p_fail, success = odds(att_str, att_mod, def_str, def_mod, morale)
    n_def, full = snap.defender_steps(cells, w)
    gain, dsteps, p_clear = _success(success, n_def, full, clear_value)
    side = int(view.scenario.units.side[attackers[0]])
    st = view.state
    stacks: dict[int, list[int]] = {}
    for a in attackers:
        stacks.setdefault(int(st.unit_cell[a]), []).append(a)
    fail, fail_steps = 0.0, 0.0
    for cell, stack in stacks.items():
        k = 1 if snap.can_retreat(cell, side) else 2
        c = cheapest([snap.step_costs(a, w) for a in stack], k)
        fail += c[-1]
        fail_steps += len(c) - 1
        if k == 1 and side == Side.ALLIED and view.data.trench[cell]:
            fail += w.trench * len(stack)
    elim = sum(snap.step_costs(a, w, whole=True)[0] for a in attackers)
    elim_steps = sum(snap.face(a)[2] for a in attackers)
    score = gain - p_fail * fail - p_elim * elim
    return Expected(score, p_elim, p_fail, 1.0 - p_elim - p_fail, dsteps,
                    p_fail * fail_steps + p_elim * elim_steps, p_clear)


def expected_prefixes(snap: Snap, attackers, cells, w: Weights,
                      clear_value: float = 0.0, compiled: bool = False) -> list[Expected]:
    """``expected_attack`` of ``attackers[:1]``, ``attackers[:2]``, ... ``attackers`` on
    ``cells`` (no barrage), each the same as ``expected_attack`` would give, bit for bit: the
    sums run in the same order, the attackers' side (strength, supply, corps, hexsides,
    stacks, eliminations) grows by one unit at a time instead of being summed again for
    every team, and the defending side is the position's (``Snap.defence``).
    ``compiled``: the policy kernel's answer (``attack_values``), this code when it
    declines."""
    if compiled:
        got = attack_values(snap, attackers, cells, w, 0, (), clear_value, True)
        if got is not None:
            return got
    view = snap.view
    attackers = [int(a) for a in attackers]
    cells = tuple(int(c) for c in cells)
    defence = snap.defence(cells)
    if not attackers or not defence.units:
        return [Expected(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0) for _ in attackers]
    def_str = defence.strength if defence.strength > 0 else 1
    n_def, full = snap.defender_steps(cells, w)
    side = int(view.scenario.units.side[attackers[0]])
    st = view.state
    corps = view.arr("corps")
    trench = view.data.trench
    out: list[Expected] = []
    att_str = 0
    worst = supply.IN_SUPPLY
    corps_seen: set[int] = set()
    hex_mod = 0                               # combat.terrain_modifier: the defending hexes'
    across: int | None = None                 # ... and the least hexside so far
    stacks: dict[int, list[int]] = {}         # by attacker hex, in the attackers' order
    stack_fail: dict[int, tuple[float, int, float | None]] = {}
    elim = 0
    elim_steps = 0
    for a in attackers:
        att_str += snap.face(a)[0]
        worst = max(worst, snap.supply_state(a))
        corps_seen.add(int(corps[a]))
        here = int(st.unit_cell[a])
        if here not in stacks:
            # terrain_modifier takes the least over every attacker hex and defending hex
            hex_mod, m = combat.terrain_modifier(view, [a], cells)
            across = m if across is None else min(across, m)
            stacks[here] = []
        stacks[here].append(a)
        k = 1 if snap.can_retreat(here, side) else 2
        c = cheapest([snap.step_costs(x, w) for x in stacks[here]], k)
        extra = w.trench * len(stacks[here]) \
            if k == 1 and side == Side.ALLIED and trench[here] else None
        stack_fail[here] = (c[-1], len(c) - 1, extra)
        elim = elim + snap.step_costs(a, w, whole=True)[0]
        elim_steps = elim_steps + snap.face(a)[2]
        # the attack of the team so far, as expected_attack computes it
        att_mod, dfn = snap.die_modifiers(worst, len(corps_seen) >= 2, hex_mod + (across or 0))
        p_elim, p_fail, success = odds(att_str, att_mod, def_str, dfn, defence.morale)
        gain, dsteps, p_clear = _success(success, n_def, full, clear_value)
        fail, fail_steps = 0.0, 0.0
        for cost, steps, extra in stack_fail.values():
            fail += cost
            fail_steps += steps
            if extra is not None:
                fail += extra
        score = gain - p_fail * fail - p_elim * elim
        out.append(Expected(score, p_elim, p_fail, 1.0 - p_elim - p_fail, dsteps,
                            p_fail * fail_steps + p_elim * elim_steps, p_clear))
    return out


def attack_values(snap: Snap, attackers, cells, w: Weights, rolling: int = 0, sos=(),
                  clear_value: float = 0.0, every: bool = False) -> list[Expected] | None:
    """``[expected_attack(...)]``, or with ``every`` ``expected_prefixes(...)`` (``rolling``
    and ``sos`` too), from the policy kernel (``kb_attack_values``: the dice, the steps and
    the sums in C, in the same order as above): the Python side gathers each attacker's
    ``Snap.attack_row`` and the defence. None, for the code above to answer, when a side
    is empty (its zeros), when the kernel declines (a die whose denominator is not
    positive: the code above raises) or when ``snap`` is a subclass of ``Snap`` (it may
    read the position its own way)."""
    attackers = [int(a) for a in attackers]
    cells = tuple(int(c) for c in cells)
    defence = snap.defence(cells) if type(snap) is Snap and attackers else None
    if defence is None or not defence.units:
        return None
    view = snap.view
    side = int(view.scenario.units.side[attackers[0]])
    rows = [snap.attack_row(a, side, w) for a in attackers]
    states = {r[1] for r in rows}
    # the worst state is always one of the attackers' (the others are never read)
    supply_mods = [snap.supply_mod(s) if s in states else 0 for s in range(4)]
    att_mod, sos_mod = snap.barrage_mods(rolling, sos)
    full = snap.defender_steps(cells, w)[1]
    sc, data = view.scenario, view.data
    got = gwe_scoring.kernel(sc).kb_attack_values(
        rows, cells, sc.map.neighbors, data.side_mod, data.die_mod, side == _ALLIED,
        w.trench, supply_mods, att_mod, sos_mod, snap._table_mods()[3],
        defence.strength if defence.strength > 0 else 1, defence.morale, full,
        float(clear_value), every)
    if got is None:
        return None
    return [Expected(*e) for e in got]


# --- barrages and counter-battery --------------------------------------------------------------

_COLUMNS: dict[tuple, int | None] = {}


def barrage_values(snap: Snap, cell: int, most: int, w: Weights) -> dict[int, float]:
    """``{points: expected cost to its owner}`` of a drumfire barrage or ground attack of 1 to
    ``most`` points on the stack in ``cell`` (9.43-9.45, 12.31): the table's result for each
    die, modified by the hex (9.44), against the stack's Morale Value, the steps taken where
    they hurt the owner least. The same reading of the table as ``artillery.drumfire_result``
    (the tests compare them), with the stack read once."""
    view = snap.view
    here = [int(u) for u in view.state.units_at(int(cell))]
    out = {p: 0.0 for p in range(1, int(most) + 1)}
    if not here:
        return out
    tab = view.scenario.tables["drumfire_barrage"]
    dice = [int(d) for d in tab["die"]]
    sp = units.stacking_points(view, here)
    morale = max(units.morale(view, u) for u in here)
    mod = int(view.data.die_mod[int(cell)])
    cum = cheapest([snap.step_costs(u, w) for u in here], 8)
    by_col: dict[int, float] = {}
    for p in out:
        key = (id(tab), sp, p)
        if key not in _COLUMNS:
            _COLUMNS[key] = artillery.drumfire_column(view, sp, p)
        col = _COLUMNS[key]
        if col is None:
            continue
        if col not in by_col:
            total = 0.0
            for die in DIE:
                roll = min(max(die + mod, dice[0]), dice[-1])
                res = str(tab["results"][dice.index(roll)][col]).strip()
                n = 0 if res == "-" else max(0, int(res) - morale)
                total += cum[min(n, len(cum) - 1)]
            by_col[col] = total / len(DIE)
        out[p] = by_col[col]
    return out


def barrage_value(snap: Snap, cell: int, points: int, w: Weights) -> float:
    """Expected cost to its owner of a barrage of ``points`` on ``cell`` (``barrage_values``)."""
    return barrage_values(snap, cell, points, w)[int(points)]


def counter_battery_value(view, points: int, enemy_field: int, enemy_heavy: int) -> float:
    """Enemy Artillery Points a counter-battery allocation of ``points`` removes on average
    (9.23, 9.25)."""
    if points <= 0:
        return 0.0
    total = 0.0
    for die in DIE:
        res = artillery.counter_battery_result(view, int(points), die)
        f, h = artillery.after_counter_battery(enemy_field, enemy_heavy, res)
        total += (enemy_field - f) + (enemy_heavy - h)
    return total / len(DIE)


def point_value(view, side: int, w: Weights) -> float:
    """What one Artillery Point of ``side`` is worth this Game-Turn: ``arty`` over the points
    the side received (9.81, 9.82)."""
    f, h = artillery.schedule(view, side, int(view.state.turn))
    return w.arty / max(f + h, 1)
