"""Expected outcomes of The Great War in the East, from the scenario's own tables.

Everything a ladder policy weighs is in one currency, *victory-point equivalents* for the
side that decides: victory points as the scenario's ``vp_schedule`` (25.2) awards them, plus
``material`` for each stacking point's worth of steps lost short of elimination, ``ground``
for a hex given up, ``town`` for a valued town taken or lost. A decision's score is the
expected change of that currency.

* ``crt(scenario)``: the combat results table (8.8), its options (8.9) and the chance of every
  result on each column for a six-sided die plus a modifier: the scenario's one compiled
  table (``games.gwe.data.CrtTable``), which the engine and the kernels read too.
* ``Force``: the units on one side of a combat as arrays (steps left, printed steps,
  stacking points), with what decides its fate (surrounded, can it retreat one or two hexes).
* ``loss_value`` / ``cheapest_steps``: what losing ``k`` steps costs a force when its owner
  takes them where they hurt least (the same order the policies answer ``gwe.combat.loss``).
* ``defender_choice``: the option of 8.9 the defender takes for a result (the cheapest).
* ``expected_attack``: the exact expectation of an attack over the die, given the column,
  the die modifier and the 10.43 penalties: the score, the chance of each result, the
  expected steps lost by each side, the expected victory points and the chance the defender
  leaves the hex.
* ``attack_column`` / ``evaluate_attack``: the column and the outcome of a concrete attack in
  the current position, computed with the engine's own strength and odds functions.

Numbers come from the tables; the only fact taken from the engine is the die: six-sided
(``gwe_fast.dice``), read from the table's die range with the modifier.

The arithmetic of a concrete attack runs in the policy kernels (``kernel``:
``gwe_fast._core.policy`` or its pure-Python twin, chosen as the scenario's map chooses its
kernels): the attack strength in half points (equal to twice the engine's exact
``combat.attack_strength``), its odds column and die modifier in one call (``AttackJudge``,
``Snapshot.attack``), the retreats open to a stack and the surrounded map; ``Snapshot`` computes the units' attack and defence strengths
and the stacks once per position. Tests compare each with the engine's own function.

Examples
--------
>>> from gwe_fast import load_scenario
>>> c = crt(load_scenario("brusilov/historical"))
>>> [(round(p, 3), a, d) for p, a, d in c.faces(7, 0)]    # last column: a 1 or 2 eliminates
[(0.333, '-', 'E'), (0.333, '-', '3'), (0.167, '1', '2'), (0.167, '1', '1')]
>>> c.defender_options["2"]
('eliminate_all', 'lose_half_and_retreat_1', 'retreat_2')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from gwe_fast.enums import Feature, Side, UnitType
from gwe_fast.games.gwe import combat, command, retreat, supply
from gwe_fast.games.gwe.data import CrtTable, gwe_data
from gwe_fast.games.gwe.game import Flag
from gwe_fast.games.gwe.units import steps_left
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import Status

_HQ = int(UnitType.HQ)
_FORTRESS = int(Feature.FORTRESS)
_OUT_OF_COMMAND = int(Status.OUT_OF_COMMAND)
_RETREATED_IN, _DEFENDED = int(Flag.RETREATED_IN), int(Flag.DEFENDED)


@lru_cache(maxsize=32)
def kernel(scenario: Scenario):
    """The policy kernels of the scenario's kernel implementation: ``gwe_fast._core.policy``
    with the compiled kernels, its twin ``gwe_fast._pure.policy`` when the scenario's map runs
    on the pure-Python twins (``load_scenario(..., impl="pure")`` or
    ``GWE_FAST_KERNELS=pure``)."""
    if scenario.map.k.name == "pure":
        from gwe_fast._pure import policy
    else:
        from gwe_fast._core import policy
    return policy


def as_flags(a: np.ndarray) -> np.ndarray:
    """A boolean array as the policy kernels' ``uint8`` flags (no copy when it is
    contiguous); both games' policies hand their masks to the kernels this way."""
    return np.ascontiguousarray(a).view(np.uint8)


@dataclass(frozen=True)
class Weights:
    """The exchange rates of the currency, in victory points (named policy parameters).

    ``material``: one stacking point's worth of steps lost without elimination (a division
    of 2 SP and 2 steps loses ``material`` per step). ``ground``: a hex given up to the
    enemy. ``town``: the share of a town's printed VP counted when it changes hands (control
    is scored only at the end, 25.11). ``depot``: a supply depot burnt for massed artillery
    (it leaves the map). ``shift``: an HQ's shift lent to one combat (once per phase).
    """

    material: float = 0.5
    ground: float = 0.25
    town: float = 0.5
    depot: float = 2.0
    shift: float = 0.25


# --- the tables -------------------------------------------------------------------------------

def crt(scenario: Scenario) -> CrtTable:
    """The scenario's combat results table, compiled once with it (``GweData.crt``)."""
    return gwe_data(scenario).crt


@dataclass(frozen=True)
class VpValues:
    """25.2 for each side's losses, as the Russian VP change: per stacking point eliminated,
    per stacking point eliminated surrounded (25.13), per HQ."""

    per_sp: tuple[float, float]
    per_sp_surrounded: tuple[float, float]
    per_hq: tuple[float, float]


@lru_cache(maxsize=32)
def vp_values(scenario: Scenario) -> VpValues:
    rows = {r["cause"]: float(r["vp"]) for r in scenario.tables["vp_schedule"]["row"]
            if "first_turn" not in r and "scenario" not in r}
    who = {Side.ALLIED: "russian", Side.CENTRAL: "central_powers"}

    def get(kind):
        return tuple(rows.get(f"{who[s]}_{kind}", 0.0) for s in (Side.ALLIED, Side.CENTRAL))

    return VpValues(get("stacking_point_eliminated"),
                    get("stacking_point_eliminated_surrounded"), get("hq_eliminated"))


def vp_sign(side: int) -> int:
    """+1 when the side gains from a rise of the (Russian) VP total, -1 otherwise."""
    return 1 if int(side) == Side.ALLIED else -1


# --- forces and their losses ---------------------------------------------------------------------

@dataclass
class Force:
    """Units of one side in one combat: ``steps`` left, printed ``n_steps`` and stacking
    points ``sp`` per unit (HQs excluded; plain tuples: these are a handful of units),
    ``fortress`` steps, whether the force would be ``surrounded`` (25.13) if eliminated, and
    whether a retreat of one / two hexes exists."""

    side: int
    steps: tuple
    n_steps: tuple
    sp: tuple
    units: tuple = ()
    fortress: int = 0
    surrounded: bool = False
    retreat: tuple = (True, True)
    hqs: int = 0

    @property
    def total_steps(self) -> int:
        return sum(self.steps) + int(self.fortress)


def force_of(game, units, side: int, surrounded: bool = False, retreat=(True, True),
             fortress: int = 0, hqs: int = 0, left: list[int] | None = None) -> Force:
    """A ``Force`` of the given units (HQs are left out: they have no steps in combat);
    ``left``: ``units.steps_left`` of every unit when known (``Snapshot.steps_left``)."""
    u = game.scenario.units
    if left is None:
        units = [int(x) for x in units if u.utype[x] != _HQ]
        steps = tuple(steps_left(game, x) for x in units)
    else:
        f = combat.unit_lists(game.scenario)
        units = [int(x) for x in units if f.utype[x] != _HQ]
        return Force(side=int(side), steps=tuple(left[x] for x in units),
                     n_steps=tuple(f.n_steps[x] for x in units),
                     sp=tuple(f.sp[x] for x in units),
                     units=tuple(units), fortress=int(fortress), surrounded=surrounded,
                     retreat=tuple(retreat), hqs=hqs)
    return Force(side=int(side), steps=steps,
                 n_steps=tuple(int(u.n_steps[x]) for x in units),
                 sp=tuple(int(u.stacking[x]) for x in units), units=tuple(units),
                 fortress=int(fortress), surrounded=surrounded, retreat=tuple(retreat), hqs=hqs)


def step_costs(force: Force, w: Weights, vp: VpValues) -> list[tuple[float, float]]:
    """Per unit: (material of one step, extra victory points lost when its last step goes),
    both in the owner's currency (positive = bad for the owner)."""
    table = vp.per_sp_surrounded if force.surrounded else vp.per_sp
    per_vp = abs(table[force.side])
    return [(w.material * sp / max(n, 1), per_vp * sp) for sp, n in zip(force.sp, force.n_steps)]


def cheapest_steps(force: Force, k: int, w: Weights, vp: VpValues) -> tuple[list[int], float]:
    """Where the owner takes ``k`` steps so that they cost least (each step from the unit
    where it costs least, a unit's last step costing its victory points too): steps taken per
    unit and the cost. Fortress steps absorb two steps each (11.13) at ``material`` per
    fortress step."""
    n = len(force.steps)
    taken = [0] * n
    cost = 0.0
    if k <= 0:
        return taken, 0.0
    costs = step_costs(force, w, vp)
    left = list(force.steps)
    fort = int(force.fortress)
    while k > 0:
        best, best_cost = -1, math.inf
        for i in range(n):
            if left[i] > 0:
                c = costs[i][0] + (costs[i][1] if left[i] == 1 else 0.0)
                if c < best_cost:
                    best, best_cost = i, c
        if fort > 0 and w.material <= best_cost:
            fort -= 1
            k -= 2
            cost += w.material
        elif best >= 0:
            left[best] -= 1
            taken[best] += 1
            k -= 1
            cost += best_cost
        else:
            break
    return taken, cost


def loss_value(force: Force, k: int, w: Weights, vp: VpValues) -> float:
    return cheapest_steps(force, k, w, vp)[1]


def wipe_value(force: Force, w: Weights, vp: VpValues) -> float:
    """Every unit of the force eliminated."""
    costs = step_costs(force, w, vp)
    return (sum(c[0] * s + c[1] for c, s in zip(costs, force.steps) if s > 0)
            + w.material * force.fortress)


def _vp_lost(force: Force, taken, vp: VpValues) -> float:
    """Victory points (owner's loss) of the units the steps ``taken`` eliminate."""
    table = vp.per_sp_surrounded if force.surrounded else vp.per_sp
    per = abs(table[force.side])
    return float(sum(per * sp for sp, s, t in zip(force.sp, force.steps, taken)
                     if s > 0 and t >= s))


@dataclass
class OptionOutcome:
    option: str
    value: float          # the owner's loss in the currency
    steps: float          # steps lost
    vp: float             # victory points lost by the owner
    vacates: bool


def option_outcome(option: str, defender: Force, affected: int, hex_value: float,
                   w: Weights, vp: VpValues) -> OptionOutcome:
    """What one option of 8.9 costs the defender (``combat.OPTION_EFFECTS`` says what each
    code does): steps lost (half rounded up, or all affected), then the retreat, which
    eliminates the survivors when no retreat of that length exists (8.64)."""
    from gwe_fast.games.gwe.combat import OPTION_EFFECTS

    half, whole, hexes = OPTION_EFFECTS[option]
    total = defender.total_steps
    if whole and total <= affected:
        return OptionOutcome(option, wipe_value(defender, w, vp) + hex_value,
                             float(total), _vp_lost(defender, defender.steps, vp), True)
    loss = affected if whole else (-(-affected // 2) if half else 0)
    taken, value = cheapest_steps(defender, loss, w, vp)
    steps, vp_lost = float(sum(taken)), _vp_lost(defender, taken, vp)
    vacates = False
    if hexes:
        if not defender.retreat[min(hexes, 2) - 1]:             # 8.64: no way out
            alive = tuple(s - t for s, t in zip(defender.steps, taken))
            rest = Force(defender.side, alive, defender.n_steps, defender.sp, surrounded=True)
            value += wipe_value(rest, w, vp)
            vp_lost += _vp_lost(rest, alive, vp)
            steps += float(sum(alive))
        value += hex_value
        vacates = True
    elif loss >= total:
        value += hex_value
        vacates = True
    return OptionOutcome(option, value, steps, vp_lost, vacates)


def defender_choice(code: str, defender: Force, affected: int, hex_value: float,
                    w: Weights, vp: VpValues, table: CrtTable) -> OptionOutcome:
    """The cheapest option of 8.9 for a defender result (``E`` eliminates)."""
    if code == "-":
        return OptionOutcome("", 0.0, 0.0, 0.0, False)
    options = ("eliminate_all",) if code == "E" else table.defender_options[code]
    outs = [option_outcome(o, defender, affected, hex_value, w, vp) for o in options]
    return min(outs, key=lambda o: (o.value, o.steps))


@dataclass
class Expected:
    """The expectation of an attack: ``score`` for the attacker (currency), chance of each
    ``(attacker, defender)`` result, expected steps lost, expected Russian VP change and the
    chance that the defender leaves the hex."""

    column: int
    score: float
    attacker_steps: float
    defender_steps: float
    vp: float
    vacate: float
    outcomes: list = field(default_factory=list)


def _signature(f: Force) -> tuple:
    return (f.side, f.steps, f.n_steps, f.sp, f.fortress, f.surrounded, f.retreat)


_MEMO: dict = {}
_MEMO_SIZE = 200_000
#: each side's outcome of one CRT code against one force (``_expected_attack``); an entry
#: holds the table and VP values its key names by id, so the ids stay theirs
_RESULTS: dict = {}


def expected_attack(table: CrtTable, column: int, attacker: Force, defender: Force,
                    w: Weights, vp: VpValues, modifier: int = 0, attacker_penalty: bool = False,
                    defender_penalty: bool = False, hex_value: float = 0.0,
                    advance_value: float = 0.0) -> Expected:
    """The exact expectation over the die of one attack at ``column`` (after shifts).

    ``hex_value`` is what the defender loses by leaving his hex (``ground``, a town), and
    ``advance_value`` what the attacker gains by it besides. 10.43's penalties worsen the
    results as the engine does (``combat.WORSE_ATTACKER`` / ``WORSE_DEFENDER``). The result
    depends only on these values, so it is remembered (the same forces recur all game)."""
    key = (id(table), column, _signature(attacker), _signature(defender), w, id(vp), modifier,
           attacker_penalty, defender_penalty, hex_value, advance_value)
    hit = _MEMO.get(key)
    if hit is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        # the entry holds the table and VP values it was keyed by, so their ids stay theirs
        hit = _MEMO[key] = (table, vp, _expected_attack(
            table, column, attacker, defender, w, vp, modifier, attacker_penalty,
            defender_penalty, hex_value, advance_value))
    return hit[2]


def _expected_attack(table: CrtTable, column: int, attacker: Force, defender: Force,
                     w: Weights, vp: VpValues, modifier: int, attacker_penalty: bool,
                     defender_penalty: bool, hex_value: float,
                     advance_value: float) -> Expected:
    from gwe_fast.games.gwe.combat import WORSE_ATTACKER, WORSE_DEFENDER

    if column < 0:
        return Expected(column, -math.inf, 0.0, 0.0, 0.0, 0.0)
    affected = min(sum(attacker.steps), defender.total_steps)
    sign_a = vp_sign(attacker.side)
    score = a_steps = d_steps = vp_change = vacate = 0.0
    outcomes = []
    # each side's result of a code depends on the code, the force and the steps affected
    # only: remembered across attacks (the same defenders are weighed at many odds)
    base = (affected, w, id(vp), id(table))
    d_base = (_signature(defender), hex_value) + base
    a_base = (_signature(attacker),) + base
    memo = _RESULTS
    if len(memo) >= _MEMO_SIZE:
        memo.clear()
    for p, a, d in table.faces(column, modifier):
        if attacker_penalty:
            a = WORSE_ATTACKER[a]
        if defender_penalty:
            d = WORSE_DEFENDER[d]
        key = (d, True) + d_base
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = (table, vp, defender_choice(d, defender, affected, hex_value, w,
                                                          vp, table))
        dout = hit[2]
        key = (a, False) + a_base
        hit = memo.get(key)
        if hit is None:
            a_loss = 0
            if a != "-":
                whole = table.attacker_options[a][0] == "lose_all_affected_steps"
                a_loss = affected if whole else -(-affected // 2)
            taken, a_cost = cheapest_steps(attacker, a_loss, w, vp)
            hit = memo[key] = (table, vp, (float(sum(taken)), a_cost,
                                           _vp_lost(attacker, taken, vp)))
        aout = hit[2]
        gain = dout.value - aout[1] + (advance_value if dout.vacates else 0.0)
        score += p * gain
        a_steps += p * aout[0]
        d_steps += p * dout.steps
        vp_change += p * sign_a * (dout.vp - aout[2])
        vacate += p * dout.vacates
        outcomes.append((p, a, d, dout.option))
    return Expected(column, score, a_steps, d_steps, vp_change, vacate, outcomes)


# --- facts of one position, computed once per decision -----------------------------------------

class Snapshot:
    """Facts of the current position that many evaluations share, each computed on first
    use: who is in supply (9.1), who is outside every command radius (10.43), in which hexes
    a unit would count as surrounded (25.13), open enemy zones of control (8.64), defending
    forces and strengths. Valid while the position is unchanged: ``snapshot(game, memory)``
    hands out the same one until the position's ``fingerprint`` changes.

    Each fact is kept in ``_cache`` under its own key; the methods asked most (per attack
    weighed) read the cache directly rather than through ``_get``."""

    def __init__(self, game):
        self.game = game
        self._cache: dict = {}
        sc = game.scenario
        self._k = kernel(sc)
        self._terrain = _packed_terrain(sc)
        self._crt = crt(sc)

    def _get(self, key, make):
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = make()
        return v

    def supplied(self, side: int) -> np.ndarray:
        key = ("supplied", side)
        hit = self._cache.get(key)
        if hit is None:
            g = self.game
            hit = self._cache[key] = supply.in_supply(g.scenario, g.state, side)
        return hit

    def out_of_radius(self, side: int) -> np.ndarray:
        key = ("radius", side)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = command.out_of_radius(self.game, side)
        return hit

    def surrounded(self, side: int) -> np.ndarray:
        key = ("surrounded", side)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = surrounded_cells(self.game, side, self.supplied(side))
        return hit

    def open_zoc(self, side: int) -> np.ndarray:
        return self._get(("zoc", side), lambda: retreat.open_enemy_zoc(self.game, side))

    def passable(self) -> np.ndarray:
        """``retreat.passable_steps``: fixed by the scenario's compiled data."""
        return retreat.passable_steps(self.game)

    def blocks(self, side: int) -> np.ndarray:
        return self._get(("blocks", side), lambda: retreat.enemy_blocks(self.game, side))

    def values(self) -> np.ndarray:
        """``combat.current_values`` of the position."""
        hit = self._cache.get("values")
        if hit is None:
            hit = self._cache["values"] = combat.current_values(self.game)
        return hit

    def unit_attack(self, side: int, supplied=None) -> np.ndarray:
        """``int64[n_units]``: ``combat.unit_attack`` of every unit of ``side`` on the map
        (supply as ``supplied``, by default the position's), 0 for the others."""
        if supplied is None or supplied is self._cache.get(("supplied", side)):
            key = ("unit_attack", side)
            hit = self._cache.get(key)
            if hit is None:
                hit = self._cache[key] = _unit_attacks(self.game, side, self.supplied(side),
                                                       self.values())
            return hit
        return _unit_attacks(self.game, side, supplied, self.values())

    def row(self, attackers) -> str:
        """``combat.crt_row`` of the attackers."""
        key = ("row", tuple(attackers))
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = combat.crt_row(self.game, attackers)
        return hit

    def judge(self, side: int):
        """The policy kernel's ``AttackJudge`` of ``side``'s attacks in this position (its
        units' strengths as ``unit_attack(side)``, with the position's supply)."""
        key = ("judge", side)
        hit = self._cache.get(key)
        if hit is None:
            g, t = self.game, self._terrain
            hit = self._cache[key] = self._k.AttackJudge(
                g.scenario.map.neighbors, g.state.unit_cell, self.unit_attack(side), t.is_cav,
                t.halved, as_flags(combat.cavalry_full_hexes(g)), t.die_masks, t.die_adds,
                t.die_all)
        return hit

    def attack(self, attackers, cells, depot: int = -1, defense_depot: int = -1
               ) -> tuple[int, int, int, str]:
        """``(column, modifier, attack2, row)`` of ``attackers`` attacking ``cells`` with the
        position's supply: the odds column before shifts (-1 below the first), the die
        modifier (5.4), twice the attack strength (exact: every strength the rules make is a
        multiple of one half; a burnt ``depot`` multiplies, 19.21) and the CRT row: the
        engine's ``combat.odds_column``, ``die_modifier`` and ``attack_strength`` in one call
        of ``judge``."""
        g = self.game
        side = int(g.scenario.units.side[attackers[0]])
        near, mult = None, 1
        if depot >= 0:
            near = combat._range_mask(g, int(g.state.unit_cell[depot]),
                                      combat.artillery_range(g))
            mult = combat.artillery_multiplier(g)
        row = self.row(attackers)
        column, modifier, attack2 = self.judge(side).judge(
            attackers, cells, self.defense(cells, side, defense_depot), self._crt.row_ratios[row],
            near, mult)
        return column, modifier, attack2, row

    def out_of_command(self) -> list[bool]:
        """Each unit's ``OUT_OF_COMMAND`` status (10.43 for the phasing side), as a list."""
        hit = self._cache.get("ooc")
        if hit is None:
            hit = self._cache["ooc"] = (
                (self.game.state.unit_status & _OUT_OF_COMMAND) != 0).tolist()
        return hit

    def out_of_radius_list(self, side: int) -> list[bool]:
        """``out_of_radius(side)`` as a list."""
        key = ("radius_list", side)
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self.out_of_radius(side).tolist()
        return hit

    def retreat_ways(self, origin: int, side: int, through_zoc: bool) -> tuple[bool, bool]:
        """``retreat_exists`` of a stack of ``side`` in ``origin`` for one and two hexes (the
        policy kernel's ``retreat_ways``)."""
        sc = self.game.scenario
        key = ("u8", side, through_zoc)
        u8 = self._cache.get(key)
        if u8 is None:
            u8 = self._cache[key] = (
                as_flags(self.passable()), as_flags(self.blocks(side)),
                as_flags(self.blocks(side) if through_zoc else self.open_zoc(side)))
        return self._k.retreat_ways(origin, sc.map.neighbors, u8[0], u8[1], u8[2],
                                    through_zoc, hex_distances(sc)[origin])

    def defender(self, cells, attacker_side: int) -> Force:
        key = ("force", tuple(sorted(int(c) for c in cells)), int(attacker_side))
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = defending_force(self.game, cells, attacker_side, self)
        return hit

    def stack(self, cell: int, side: int):
        """``combat.stack_at`` (the defenders of one hex), from the side's units sorted by
        hex once per position."""
        key = ("stack", cell, side)
        hit = self._cache.get(key)
        if hit is None:
            by_key = ("by_cell", side)
            by_cell = self._cache.get(by_key)
            if by_cell is None:
                by_cell = self._cache[by_key] = _units_by_cell(self.game, side)
            hit = self._cache[key] = _stack_at(self.game, cell, side, by_cell)
        return hit

    def steps_left(self) -> list[int]:
        """``units.steps_left`` of every unit (a list of ints)."""
        hit = self._cache.get("steps_left")
        if hit is None:
            st = self.game.state
            left = self.game.scenario.units.n_steps.astype(np.int64) - st.unit_step
            left[(st.unit_status & Status.ELIMINATED) != 0] = 0
            hit = self._cache["steps_left"] = left.tolist()
        return hit

    def defense(self, cells, attacker_side: int, depot: int = -1) -> int:
        """``combat.defense_strength``: the same sum over the same stacks, every hex's
        defenders summed once per position (``combat.hex_facts``)."""
        key = ("defense", tuple(sorted(int(c) for c in cells)), int(attacker_side), int(depot))
        hit = self._cache.get(key)
        if hit is None:
            hit = self._cache[key] = self._defense(list(cells), int(attacker_side), int(depot))
        return hit

    def _defense(self, cells, attacker_side: int, depot: int) -> int:
        g = self.game
        cells = [int(c) for c in cells]
        key = ("hex_defense", attacker_side)
        total = self._cache.get(key)
        if total is None:
            total = self._cache[key] = combat.hex_facts(g, attacker_side)[0]
        return combat.facts_defense(g, cells, attacker_side, total, depot)


def _units_by_cell(game, side: int) -> dict[int, list[int]]:
    """The side's units on the map by hex, each list in index order (as
    ``State.units_at`` lists them)."""
    st = game.state
    on = np.flatnonzero(((st.unit_status & Status.ON_MAP) != 0)
                        & (game.scenario.units.side == side))
    out: dict[int, list[int]] = {}
    for x, c in zip(on.tolist(), st.unit_cell[on].tolist()):
        out.setdefault(c, []).append(x)
    return out


def _stack_at(game, cell: int, side: int, by_cell: dict[int, list[int]]):
    """``combat.stack_at`` on the side's units by hex (``_units_by_cell``)."""
    here = by_cell.get(cell)
    if not here:
        return combat.Stack(int(cell), [], [], [], _fortress_steps(game, cell, side))
    ut = combat.unit_lists(game.scenario).utype
    flags = game.arr("flags")
    hqs = [x for x in here if ut[x] == _HQ]
    rest = [x for x in here if ut[x] != _HQ]
    counted = [x for x in rest if not flags[x] & _RETREATED_IN]
    if not counted:
        counted = [x for x in rest if not flags[x] & _DEFENDED]
    passengers = [x for x in rest if x not in counted]
    return combat.Stack(int(cell), counted, passengers, hqs, _fortress_steps(game, cell, side))


def _fortress_steps(game, cell: int, side: int) -> int:
    """The steps of ``side``'s fortress in ``cell`` (``combat.fortress_steps`` when the
    fortress is the side's, 0 otherwise or without one)."""
    if game.scenario.map.features[cell] & _FORTRESS:       # combat.fortress_steps, _side
        return (combat.fortress_steps(game, cell) if combat.fortress_side(game, cell) == side
                else 0)
    return 0


def attack_neighbors(scenario: Scenario, cell: int) -> tuple[int, ...]:
    """The hexes from which a unit may attack ``cell`` alone (``combat.attack_positions``
    of ``[cell]``: adjacent across a hexside that does not prohibit combat), ascending;
    fixed by the map, made once per hex."""
    memo = _attack_neighbors(scenario)
    hit = memo.get(cell)
    if hit is None:
        m = scenario.map
        pro = combat.combat_terrain(scenario).prohibited
        hit = memo[cell] = tuple(
            np.flatnonzero(m.k.board.adjacent_cells(m.neighbors, [int(cell)], pro)).tolist())
    return hit


@lru_cache(maxsize=32)
def _attack_neighbors(scenario: Scenario) -> dict[int, tuple[int, ...]]:
    return {}


def _unit_attacks(game, side: int, supplied, vals) -> np.ndarray:
    """``combat.unit_attack`` of every unit of ``side`` on the map at once
    (``combat.unit_attacks``), 0 for the others."""
    u, st = game.scenario.units, game.state
    mine = np.flatnonzero(((st.unit_status & Status.ON_MAP) != 0) & (u.side == side))
    a = np.zeros(u.n, dtype=np.int64)
    a[mine] = combat.unit_attacks(game, mine, np.asarray(supplied, dtype=bool)[mine], vals)
    return a


@dataclass(frozen=True)
class PackedTerrain:
    """What the attack kernels read of a scenario, packed once: cavalry units, hexsides that
    halve attackers (5.4), the hexsides that add to the die (5.4). (The odds rows are the
    CRT's: ``CrtTable.row_ratios``.)"""

    is_cav: np.ndarray
    halved: np.ndarray
    #: the die modifiers of 5.4 as ``AttackJudge`` takes them: hexside masks
    #: ``uint8[k, n_cells, 6]``, what each adds ``int64[k]``, and ``uint8[k]``: 1 when it
    #: counts only if every attacker crosses such a hexside, 0 when any does
    die_masks: np.ndarray
    die_adds: np.ndarray
    die_all: np.ndarray


@lru_cache(maxsize=32)
def _packed_terrain(scenario: Scenario) -> PackedTerrain:
    from gwe_fast.games.gwe.combat import combat_terrain

    ct = combat_terrain(scenario)
    die = [(m, n, 1) for m, n in ct.die_exclusive] + [(m, n, 0) for m, n in ct.die_any]
    n_cells = scenario.map.n_cells
    return PackedTerrain(
        is_cav=(scenario.units.utype == int(UnitType.CAVALRY)).astype(np.uint8),
        halved=np.ascontiguousarray(ct.halved).view(np.uint8),
        die_masks=np.ascontiguousarray(
            np.array([np.asarray(m, dtype=bool) for m, _, _ in die], dtype=np.uint8)
            .reshape(len(die), n_cells, 6)),
        die_adds=np.array([int(n) for _, n, _ in die], dtype=np.int64),
        die_all=np.array([a for _, _, a in die], dtype=np.uint8))


def fingerprint(game) -> bytes:
    """Everything the ``Snapshot`` facts depend on, as bytes (cheap to compare)."""
    st = game.state
    parts = [st.unit_cell.tobytes(), st.unit_step.tobytes(), st.unit_status.tobytes(),
             st.hex_last.tobytes(), bytes((int(st.turn) & 0xFF, int(st.player) & 0xFF))]
    for name in ("flags", "fortress"):
        a = st.extra.get(name)
        if a is not None:
            parts.append(a.tobytes())
    return b"".join(parts)


def snapshot(game, memory: dict | None = None) -> Snapshot:
    """The ``Snapshot`` of the position, kept in ``memory`` (a policy's per-game dict) and
    reused for as long as the position is the same."""
    if memory is None:
        return Snapshot(game)
    fp = fingerprint(game)
    hit = memory.get("snapshot")
    if hit is not None and hit[0] == fp:
        return hit[1]
    snap = Snapshot(game)
    memory["snapshot"] = (fp, snap)
    return snap


def surrounded_cells(game, side: int, supplied=None) -> np.ndarray:
    """``bool[n_cells]``: hexes where a unit of ``side`` would be surrounded (25.13), for the
    whole map at once: the engine's ``combat.is_surrounded`` searches from one unit to the
    supply sources, supplied depots and supplied units; this searches once from all of them
    over the same free hexes and looks at each hex's neighbours (a unit's own hex is not
    part of its line; a rail source or supplied depot in it is enough)."""
    from gwe_fast.games.gwe.combat import SURROUNDED_LINE, fortress_cells
    from gwe_fast.games.gwe.retreat import passable_steps
    from gwe_fast.games.gwe.supply import in_supply, sources
    from gwe_fast.games.gwe.zoc import controlled, occupied

    sc, st = game.scenario, game.state
    m = sc.map
    src, depots = sources(sc, st, side)
    own = src.copy()
    own[st.unit_cell[depots]] = True
    sup = in_supply(sc, st, side) if supplied is None else supplied
    target = own.copy()
    target[st.unit_cell[sup]] = True
    enemy_units = occupied(sc, st, 1 - side, hq_only_counts=False)
    negated = occupied(sc, st, side) | fortress_cells(game, side)
    free = ~enemy_units & ~(controlled(sc, st, 1 - side) & ~negated)
    return kernel(sc).surrounded_map(m.neighbors, as_flags(passable_steps(game)),
                                     as_flags(free), as_flags(target), as_flags(own),
                                     SURROUNDED_LINE - 1)


# --- the position --------------------------------------------------------------------------------

@lru_cache(maxsize=32)
def town_values(scenario: Scenario) -> np.ndarray:
    """``float[n_cells]``: the printed victory points of each valued town (25.11), else 0."""
    out = np.zeros(scenario.map.n_cells)
    for p in scenario.places:
        if p.vp > 0:
            out[p.cell] = float(p.vp)
    return out


@lru_cache(maxsize=32)
def hex_distances(scenario: Scenario) -> np.ndarray:
    """``int16[n_cells, n_cells]``: hex distances on the map (computed once per map)."""
    m = scenario.map
    return np.stack([np.asarray(m.distances_from(c), dtype=np.int16)
                     for c in range(m.n_cells)])


def hex_value(game, cell: int, owner: int, w: Weights) -> float:
    """What ``owner`` loses in the currency by leaving ``cell`` to the enemy: ``ground``
    plus ``town`` of the town's VP."""
    return w.ground + w.town * float(town_values(game.scenario)[int(cell)])


def defending_force(game, cells, attacker_side: int, snap: Snapshot | None = None) -> Force:
    """The defenders of ``cells`` as a ``Force``: counted units (8.66), fortress steps,
    surrounded (25.13), and whether a retreat of one and of two hexes exists avoiding open
    enemy zones of control (8.61, 8.64; TCR 1 stacks may cross them)."""
    snap = snap or Snapshot(game)
    enemy = 1 - int(attacker_side)
    units, fort, hqs = [], 0, 0
    ok = [True, True]
    sur = False
    tcr = game.data.tcr
    for c in cells:
        s = snap.stack(int(c), enemy)
        units += s.counted
        fort += s.fortress
        hqs += len(s.hqs)
        if s.counted:
            sur = sur or bool(snap.surrounded(enemy)[int(c)])
            tcr1 = all(int(tcr[x]) == 1 for x in s.counted)
            if ok[0] or ok[1]:                   # retreat_exists for both lengths at once
                one, two = snap.retreat_ways(int(c), enemy, tcr1)
                ok = [ok[0] and one, ok[1] and two]
    return force_of(game, units, enemy, surrounded=sur, retreat=tuple(ok), fortress=fort,
                    hqs=hqs, left=snap.steps_left())


def retreat_exists(game, origin: int, length: int, side: int, snap: Snapshot,
                   through_zoc: bool = False) -> bool:
    """Whether a stack of ``side`` in ``origin`` has a retreat path of ``length`` (1 or 2)
    hexes: each hex one further from the start, never into an enemy unit or undestroyed
    enemy fortress, across a prohibited hexside or into prohibited terrain (8.61, as
    ``retreat.candidate_paths``), nor into an open enemy zone of control unless
    ``through_zoc`` (8.64: TCR 1)."""
    nb = game.scenario.map.neighbors
    passable = snap.passable()
    bad = snap.blocks(side)
    if not through_zoc:
        bad = bad | snap.open_zoc(side)
    D = hex_distances(game.scenario)
    first = [int(nb[origin, d]) for d in range(6) if passable[origin, d]
             and not bad[nb[origin, d]]]
    if length == 1:
        return bool(first)
    for w in first:
        for d in range(6):
            x = int(nb[w, d])
            if passable[w, d] and not bad[x] and D[origin, x] == 2:
                return True
    return False


def attack_column(game, attackers, cells, shift_right: int = 0, shift_left: int = 0,
                  depot: int = -1, defense_depot: int = -1, supplied=None,
                  snap: Snapshot | None = None) -> tuple[int, str]:
    """The CRT column of an attack in the current position (the engine's strength, row and
    odds functions; armored car shift, HQ shifts, clamped to the table) and its row; with
    ``snap`` and the position's supply, the same column by ``Snapshot.attack``."""
    side = int(game.scenario.units.side[attackers[0]])
    if snap is None or not (supplied is None or supplied is snap.supplied(side)):
        a = combat.attack_strength(game, attackers, cells, supplied, depot)
        d = combat.defense_strength(game, cells, side, defense_depot)
        row = combat.crt_row(game, attackers)
        base = combat.odds_column(game, row, a, d)
    else:
        base, _, _, row = snap.attack(attackers, cells, depot, defense_depot)
    return _shifted(game, base, attackers, shift_right, shift_left), row


def _shifted(game, base: int, attackers, shift_right: int, shift_left: int) -> int:
    """An odds column after the armored car (24.11) and HQ shifts, clamped to the table; -1
    stays -1 (below the first column no shift helps)."""
    if base < 0:
        return -1
    col = base + shift_right + combat.armored_car_shift(game, attackers) - shift_left
    return min(max(col, 0), crt(game.scenario).n_cols - 1)


def evaluate_attack(game, attackers, cells, w: Weights, shift_right: int = 0,
                    shift_left: int = 0, depot: int = -1, defense_depot: int = -1,
                    snap: Snapshot | None = None) -> Expected:
    """The exact expected outcome of ``attackers`` attacking ``cells`` now (``snap``: the
    position's shared facts, made here when not given)."""
    snap = snap or Snapshot(game)
    attackers = [int(x) for x in attackers]
    side = int(game.scenario.units.side[attackers[0]])
    enemy = 1 - side
    base, mod, _, _ = snap.attack(attackers, cells, depot, defense_depot)
    col = _shifted(game, base, attackers, shift_right, shift_left)
    if col < 0:
        return Expected(col, -math.inf, 0.0, 0.0, 0.0, 0.0)
    defender = snap.defender(cells, side)
    attacker = force_of(game, attackers, side, left=snap.steps_left())
    tcr = combat.unit_lists(game.scenario).tcr
    ooc = snap.out_of_command()
    a_pen = any(tcr[x] >= 3 and ooc[x] for x in attackers)
    poor = [x for x in defender.units if tcr[x] >= 3]        # only they can be penalised
    if poor:
        oor = snap.out_of_radius_list(enemy)
        d_pen = any(oor[x] for x in poor)
    else:
        d_pen = False
    hv = sum(hex_value(game, c, enemy, w) for c in cells)
    # the hex the defender gives up is the attacker's gain: counted once, in his loss
    return expected_attack(crt(game.scenario), col, attacker, defender, w,
                           vp_values(game.scenario), mod, a_pen, d_pen, hv)
