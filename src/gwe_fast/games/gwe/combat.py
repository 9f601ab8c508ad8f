"""Combat (8.0, 8.8, 8.9, 9.21, 9.23, 10.42-10.43, 11.0, 12.2) with the Brusilov Offensive's
joint attacks (17.0), massed artillery (19.2), living off the land (19.42), HQ defensive shift
(21.1), panic (23.1-23.5, in ``panic``) and the armored car (24.1). Retreats are in ``retreat``.

``combat_phase(game, side)`` is the Combat Resolution Segment of the phasing ``side`` (the
engine runs the Combat Phase's Command Control Segment before it). The attacker declares one
attack at a time, every choice among exactly the legal options:

1. ``"gwe.combat.declare"``: a hex to attack, or ``"stop"``. Offered: hexes holding an enemy
   unit other than an HQ (or an undestroyed enemy fortress) not yet attacked this phase (8.14),
   next to a unit that may attack across a hexside that does not prohibit combat, and for
   which some set of such units reaches the lowest odds of the CRT (8.8).
2. ``"gwe.combat.attack"``: ``("unit", u)`` to add an attacker adjacent to every defending
   hex, ``("hex", c)`` to add a defending hex adjacent to every attacker chosen so far (8.23),
   or ``"done"`` once the attack reaches the lowest odds. An option is offered only if the
   attack can still be completed legally after it.
3. ``command.choose_shifts`` (10.21-10.22), ``"gwe.combat.massed_artillery"`` (19.21-19.22:
   a depot of the attacker within three hexes of an attacker, or ``"none"``), then, asked of
   the defender, ``"gwe.combat.defensive_artillery"`` (19.23-19.24, Central Powers only) and
   ``command.choose_defense_shifts`` (21.1).

``resolve_attack(game, combat)`` then resolves it (see its docstring) and asks the owners for
the option of 8.9 (``"gwe.combat.option"``), the affected units of a larger multi-hex force
(``"gwe.combat.affected"``), each step lost (``"gwe.combat.loss"``), retreat paths
(``"gwe.combat.retreat"``, ``"gwe.stacking.retreat_eliminate"``) and advances
(``"gwe.combat.advance"``).

Strengths are exact: only the roundings the rules print are made (9.21 per unit, down but
never below one, also for 10.42; 12.21 on the cavalry's total; 5.36 per unit), and the odds
are rounded in the defender's favour (8.4). Every reading of the rules is in
docs/rulings_combat.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from types import SimpleNamespace

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import Feature, Nationality, Side, UnitType
from gwe_fast.games.gwe import command, panic
from gwe_fast.games.gwe import units as gu
from gwe_fast.games.gwe.data import PROHIBITED, CombatTerrain, UnitLists, gwe_data
from gwe_fast.games.gwe.game import LOSS_CAUSES, Flag, GweGame
from gwe_fast.games.gwe.movement import ARMORED_CAR_BROKEN_DOWN
from gwe_fast.games.gwe.supply import (
    friendly_ground,
    in_supply,
    sources,
)
from gwe_fast.games.gwe.zoc import controlled, occupied, on_map
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ARMORED_CAR = int(UnitType.ARMORED_CAR)
_CAVALRY = int(UnitType.CAVALRY)
_DEPOT = int(UnitType.DEPOT)
_HQ = int(UnitType.HQ)
_FORTRESS = int(Feature.FORTRESS)
_OUT_OF_COMMAND = int(Status.OUT_OF_COMMAND)
_GERMAN, _AUSTRO_HUNGARIAN = int(Nationality.GERMAN), int(Nationality.AUSTRO_HUNGARIAN)

STOP, DONE, NONE = "stop", "done", "none"
FORTRESS_STEPS = 4          #: 11.13: "All fortresses have four Steps"
FORTRESS_STEP_VALUE = 2     #: 11.13: each fortress step absorbs two combat unit steps
FORTRESS_WEAKENED_AFTER = 2  #: 11.14: the smaller Defense Strength after two steps lost
SURROUNDED_LINE = 6         #: 25.13: "a contiguous line of six hexes or less"

# columns of the "fortress" engine array
F_LOST, F_FULL, F_WEAK, F_ATTACKED = range(4)

#: 8.9 option codes (tables.toml crt_options) -> (lose half, lose all, hexes of retreat)
OPTION_EFFECTS = {
    "lose_half_affected_steps": (True, False, 0),
    "lose_all_affected_steps": (False, True, 0),
    "retreat_1": (False, False, 1),
    "retreat_2": (False, False, 2),
    "eliminate_all": (False, True, 0),
    "lose_half_and_retreat_1": (True, False, 1),
    "lose_half_and_retreat_2": (True, False, 2),
}
#: 10.43: one added to a result, "with 3 on the table becoming an E"
WORSE_DEFENDER = {"-": "-", "1": "2", "2": "3", "3": "E", "E": "E"}
WORSE_ATTACKER = {"-": "-", "1": "2", "2": "2"}
#: 12.21: cavalry attack at full strength only against hexes holding only these types
CAVALRY_FULL_AGAINST = (int(UnitType.CAVALRY), int(UnitType.DEPOT), int(UnitType.HQ))
SIDE_KEYS = {Side.ALLIED: "russian", Side.CENTRAL: "central_powers"}


@dataclass
class Combat:
    """One attack: the declaration, then what its resolution found (for the log and tests).

    ``attack`` is exact (a Fraction); ``column`` indexes the CRT columns (0 = leftmost) after
    the shifts; ``odds`` is the printed ratio of that column in the row used.
    """

    side: int
    cells: list[int]
    attackers: list[int]
    depot: int = -1
    defense_depot: int = -1
    shift_right: int = 0
    shift_left: int = 0
    attack: Fraction = Fraction(0)
    defense: int = 0
    row: str = ""
    base_column: int = -1
    column: int = -1
    odds: str = ""
    die: int = 0
    modified_die: int = 0
    attacker_result: str = "-"
    defender_result: str = "-"
    option: str = ""
    attacker_steps: int = 0
    defender_steps: int = 0
    affected: int = 0
    ils_ne_passeront_pas: bool = False
    panic: bool = False
    retreats: dict = field(default_factory=dict)
    panic_paths: dict = field(default_factory=dict)
    resolved: bool = False


# --- compiled terrain effects on combat (5.4) -------------------------------------------------

def combat_terrain(scenario: Scenario) -> CombatTerrain:
    """5.4's effects on combat as arrays, compiled with the scenario (``GweData.combat``)."""
    return gwe_data(scenario).combat


# --- fortresses (11.0) --------------------------------------------------------------------------

def fortress_steps(game: GweGame, cell: int) -> int:
    """Steps the fortress printed in ``cell`` has left (11.13); 0 where there is none."""
    if not game.scenario.map.features[cell] & _FORTRESS:
        return 0
    return max(0, FORTRESS_STEPS - int(game.arr("fortress")[cell, F_LOST]))


def fortress_side(game: GweGame, cell: int) -> int:
    """The side a fortress belongs to: the side of the start line it stands on (18.27)."""
    return Side.ALLIED if game.data.east[cell] else Side.CENTRAL


def fortress_cells(game: GweGame, side: int) -> np.ndarray:
    """``bool[n_cells]``: undestroyed fortresses of ``side`` (11.15)."""
    out = np.zeros(game.scenario.map.n_cells, dtype=bool)
    cells = _fortresses(game.scenario)[int(side)]
    out[cells[game.arr("fortress")[cells, F_LOST] < FORTRESS_STEPS]] = True
    return out


@lru_cache(maxsize=32)
def _fortresses(scenario: Scenario) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hexes with a fortress printed in them: ``[side]`` those on each side's ground
    (18.27), ``[2]`` all of them (read-only int64 arrays, made once)."""
    m = scenario.map
    printed = (m.features & _FORTRESS) != 0
    out = tuple(np.flatnonzero(printed & friendly_ground(scenario, s)) for s in (0, 1))
    out += (np.flatnonzero(printed),)
    for a in out:
        a.flags.writeable = False
    return out


def fortress_defense(game: GweGame, cell: int) -> int:
    """11.11, 11.14: the printed Defense Strength, the smaller one after two steps lost."""
    if fortress_steps(game, cell) <= 0:
        return 0
    f = game.arr("fortress")[cell]
    return int(f[F_WEAK] if f[F_LOST] >= FORTRESS_WEAKENED_AFTER else f[F_FULL])


def fortress_lose(game: GweGame, cell: int, n: int) -> int:
    """Take ``n`` fortress steps (11.13, 11.15: never replaced); returns the steps taken."""
    left = fortress_steps(game, cell)
    n = min(max(n, 0), left)
    if n:
        game.arr("fortress")[cell, F_LOST] += n
        game.event("fortress_step_loss", hex=int(cell), steps=n)
    return n


# --- units' values ------------------------------------------------------------------------------

def current_values(game: GweGame) -> np.ndarray:
    """``int16[n_units, 3]``: each unit's printed (attack, defense, movement) on its current
    step (8.52, 8.53: a corps' markers are its step rows). A broken-down armored car shows its
    back, 0-1-1 (24.42). Read-only: the values of the last few positions (steps and cars)
    are kept per scenario and handed out again."""
    st = game.state
    rows, base, last, car, memo = _value_rows(game.scenario)
    key = st.unit_step.tobytes()
    if car is not None:
        flags = game.arr("flags")
        key += bytes([bool(flags[c] & Flag.BROKEN_DOWN) for c in _car_list(game.scenario)])
    vals = memo.get(key)
    if vals is not None:
        return vals
    if car is not None:
        broken = (flags[car] & Flag.BROKEN_DOWN) != 0
    idx = np.minimum(st.unit_step, last)                       # int64, as last is
    np.maximum(idx, 0, out=idx)
    vals = rows[base + idx]                                    # a new array
    if car is not None:
        vals[car[broken]] = ARMORED_CAR_BROKEN_DOWN            # the back (24.42)
    vals.flags.writeable = False
    if len(memo) >= _VALUES_KEPT:
        del memo[next(iter(memo))]                             # the oldest goes
    memo[key] = vals
    return vals


#: positions whose ``current_values`` a scenario keeps
_VALUES_KEPT = 8


@lru_cache(maxsize=32)
def _car_list(scenario: Scenario) -> list[int]:
    """The armored cars' indices as a list (``current_values``' key), made once."""
    return np.flatnonzero(scenario.units.utype == _ARMORED_CAR).tolist()


@lru_cache(maxsize=32)
def _value_rows(scenario: Scenario):
    """``(rows, base, last, car, memo)`` for ``current_values``: the printed values as one row
    per unit and step, each unit's first row, its last step (int64), the armored cars'
    indices (None when there are none), all read-only, and the memo of the last positions'
    values. Made once per scenario."""
    u = scenario.units
    rows = np.ascontiguousarray(u.values).reshape(-1, u.values.shape[-1])
    base = np.arange(u.n, dtype=np.int64) * u.values.shape[1]
    last = u.n_steps.astype(np.int64) - 1
    car = np.flatnonzero(u.utype == _ARMORED_CAR)
    for a in (rows, base, last, car):
        a.flags.writeable = False
    return rows, base, last, car if car.size else None, {}


def steps_of(game: GweGame, units) -> int:
    return sum(gu.steps_left(game, int(x)) for x in units)


@dataclass
class Stack:
    """The defenders of one hex: ``counted`` add their strength and steps; ``passengers``
    retreated (or withdrew) into the hex this phase (8.66, 12.17); ``hqs`` follow the stack
    (10.53); ``fortress`` its steps at the moment of combat."""

    cell: int
    counted: list[int]
    passengers: list[int]
    hqs: list[int]
    fortress: int = 0


def stack_at(game: GweGame, cell: int, side: int) -> Stack:
    """The units of ``side`` in ``cell`` as a defending stack. A unit that retreated or
    withdrew into the hex this phase is a passenger (8.66, 12.17), unless every unit there did
    and the hex has not been attacked yet (12.15: withdrawn cavalry alone defend)."""
    u = game.scenario.units
    flags = game.arr("flags")
    here = [int(x) for x in gu.units_in(game, cell) if u.side[x] == side]
    hqs = [x for x in here if u.utype[x] == _HQ]
    rest = [x for x in here if u.utype[x] != _HQ]
    counted = [x for x in rest if not flags[x] & Flag.RETREATED_IN]
    if not counted:
        counted = [x for x in rest if not flags[x] & Flag.DEFENDED]
    passengers = [x for x in rest if x not in counted]
    fort = fortress_steps(game, cell) if fortress_side(game, cell) == side else 0
    return Stack(int(cell), counted, passengers, hqs, fort)


# --- who may attack, what may be attacked (8.1, 8.2) ------------------------------------------

def may_attack(game: GweGame, side: int) -> np.ndarray:
    """``bool[n_units]``: the side's units that may still attack in this Combat Phase: on the
    map, with an attack strength above zero and not in parentheses (8.12, 10.51: only heroic
    leaders among HQs), not yet attacked (8.14) nor advanced (8.73), not entrained (5.36), and
    not moved by rail in the last Movement Phase unless of TCR 1 (5.34)."""
    sc, st = game.scenario, game.state
    fx = _attack_masks(sc)
    flags = game.arr("flags")
    vals = current_values(game)
    ok = (st.unit_status & _ON_ENTRAINED) == _ON_MAP              # on the map, not entrained
    ok &= fx.side[int(side)]
    ok &= (flags & _ATTACKED_ADVANCED) == 0
    ok &= ((flags & Flag.USED_RAIL) == 0) | fx.tcr1
    out = ok & fx.not_hq
    out &= vals[:, 0] > 0
    heroic = _heroic(sc)
    if heroic.size:
        for h in heroic[ok[heroic]].tolist():
            if command.hq_combat_strength(game, h, True, int(st.unit_cell[h])) > 0:
                out[h] = True
    return out


_ON_MAP = int(Status.ON_MAP)
_ON_ENTRAINED = int(Status.ON_MAP | Status.ENTRAINED)
_ATTACKED_ADVANCED = int(Flag.ATTACKED | Flag.ADVANCED)


@lru_cache(maxsize=32)
def _attack_masks(scenario: Scenario) -> SimpleNamespace:
    """What ``may_attack`` reads of the scenario, made once (read-only): each side's units,
    the units of TCR 1 and the units other than HQs."""
    u = scenario.units
    out = SimpleNamespace(side=tuple(u.side == s for s in (0, 1)),
                          tcr1=gwe_data(scenario).tcr == 1, not_hq=u.utype != _HQ)
    for a in (*out.side, out.tcr1, out.not_hq):
        a.flags.writeable = False
    return out


@lru_cache(maxsize=32)
def _heroic(scenario: Scenario) -> np.ndarray:
    """The heroic leaders among the HQs (10.12, ``command.is_heroic``), ascending."""
    u = scenario.units
    out = np.flatnonzero((u.utype == _HQ) & (u.extra["heroic"] > 0))
    out.flags.writeable = False
    return out


def attack_positions(game: GweGame, cells) -> np.ndarray:
    """``bool[n_cells]``: hexes adjacent to every one of ``cells`` across a hexside that does
    not prohibit combat (8.11, 8.23, 5.4)."""
    m = game.scenario.map
    pro = combat_terrain(game.scenario).prohibited
    out = np.ones(m.n_cells, dtype=bool)
    for c in cells:
        out &= m.k.board.adjacent_cells(m.neighbors, [int(c)], pro)
    return out


def attackable_cells(game: GweGame, side: int, within: np.ndarray | None = None) -> np.ndarray:
    """``bool[n_cells]``: hexes ``side`` may attack, if it has units to: an enemy unit other
    than an HQ (12.33-like: a hex of HQs alone has no strength, 10.53; it is entered, not
    attacked, 10.52) or an undestroyed enemy fortress (11.13), none of them attacked yet this
    phase (8.14): no counted defender of the hex (``stack_at``) has defended, nor its
    fortress, and it has one or the other. ``within``: only those hexes are considered (the
    rest are False). (``hex_facts``.)"""
    return hex_facts(game, side, within)[1]


def hex_facts(game: GweGame, attacker_side: int, within: np.ndarray | None = None
              ) -> tuple[np.ndarray, np.ndarray]:
    """``(total, attackable)`` of every hex of the enemy of ``attacker_side`` at once (the
    kernel ``gwe_hex_defenses``): ``total[c]`` the defense strengths of the hex's counted
    defenders (``stack_at``: 8.66, 12.15, 12.17) and HQs (10.53), each ``unit_defense``,
    summed, without its fortress; ``attackable`` as ``attackable_cells`` says."""
    sc, st = game.scenario, game.state
    m, u = sc.map, sc.units
    vals, no_trench, panicking = _defense_context(game, attacker_side)
    enemy = 1 - int(attacker_side)
    units = np.flatnonzero(on_map(st) & (u.side == enemy)).astype(np.int32)
    fixed = _hex_fixed(sc)
    fortress = fixed.no_fortress
    if fixed.has_fortress:
        forts = fortress_cells(game, enemy)
        fortress = forts.astype(np.uint8)
        fortress[forts & (game.arr("fortress")[:, F_ATTACKED] != 0)] = 2
    ct = combat_terrain(sc)
    total = np.empty(m.n_cells, dtype=np.int32)
    attackable = np.empty(m.n_cells, dtype=np.uint8)
    m.k.play.gwe_hex_defenses(
        units, st.unit_cell, fixed.is_hq, game.arr("flags"), st.unit_status, vals,
        u.stacking, fixed.hq_combat, panicking.view(np.uint8), no_trench.view(np.uint8),
        ct.doubled, ct.trench, fortress,
        fixed.everywhere if within is None else within.view(np.uint8), int(Flag.RETREATED_IN),
        int(Flag.DEFENDED), int(Status.ENTRAINED), total, attackable)
    return total, attackable.view(bool)


@lru_cache(maxsize=32)
def _hex_fixed(scenario: Scenario):
    """What ``hex_facts`` reads of the scenario, made once (read-only): the HQs as uint8,
    their Combat Strengths, a mask of every hex, no fortress anywhere, and whether the map
    has any fortress."""
    m = scenario.map
    out = SimpleNamespace(is_hq=(scenario.units.utype == _HQ).view(np.uint8),
                          hq_combat=np.ascontiguousarray(scenario.units.extra["combat"],
                                                         dtype=np.int16),
                          everywhere=np.ones(m.n_cells, dtype=np.uint8),
                          no_fortress=np.zeros(m.n_cells, dtype=np.uint8),
                          has_fortress=bool((m.features & _FORTRESS).any()))
    for a in (out.is_hq, out.hq_combat, out.everywhere, out.no_fortress):
        a.flags.writeable = False
    return out


# --- strengths (5.4, 9.21, 10.42, 12.21, 19.2, 5.36, 23.11, 23.51) ---------------------------

def _range_mask(game: GweGame, cell: int, hexes: int) -> np.ndarray:
    """Hexes within ``hexes`` of ``cell`` (a range, not a line: nothing blocks it); the
    array is kept per scenario, cell and range, read-only."""
    return _range_of(game.scenario, int(cell), int(hexes))


@lru_cache(maxsize=2048)
def _range_of(scenario: Scenario, cell: int, hexes: int) -> np.ndarray:
    m = scenario.map
    one = np.where(m.neighbors >= 0, 1, PROHIBITED).astype(dtypes.STEPCOST)
    out = m.k.search.bounded_search(m.neighbors, one, [cell], limit=hexes)[0][0] >= 0
    out.flags.writeable = False
    return out


def artillery_range(game: GweGame) -> int:
    return int(game.scenario.tables["massed_artillery"]["range"])


def artillery_multiplier(game: GweGame) -> int:
    return int(game.scenario.tables["massed_artillery"]["multiplier"])


def crosses(game: GweGame, unit_cell: int, cells, mask: np.ndarray) -> list[bool]:
    """For each defending cell adjacent to ``unit_cell``: is the hexside between them in
    ``mask``?"""
    m = game.scenario.map
    around = m.neighbors[int(unit_cell)].tolist()
    out = []
    for c in cells:
        c = int(c)
        if c in around:
            out.append(bool(mask[int(unit_cell), around.index(c)]))
    return out


def cavalry_at_full(game: GweGame, cells) -> bool:
    """12.21: only enemy cavalry, depot or HQ units in every defending hex (a fortress is not
    such a unit)."""
    full = cavalry_full_hexes(game)
    return all(bool(full[int(c)]) for c in cells)


@lru_cache(maxsize=32)
def _not_cavalry_full(scenario: Scenario) -> np.ndarray:
    # the units other than cavalry, depots and HQs (read-only, made once)
    out = ~np.isin(scenario.units.utype, CAVALRY_FULL_AGAINST)
    out.flags.writeable = False
    return out


def cavalry_full_hexes(game: GweGame) -> np.ndarray:
    """``bool[n_cells]``: the hexes cavalry attacks at full strength (12.21): no unit there but
    cavalry, depots and HQs, and no fortress with steps left (11.13)."""
    sc, st = game.scenario, game.state
    m = sc.map
    full = ~m.k.board.occupied_cells(m.n_cells, st.unit_cell, st.unit_status, sc.units.side,
                                     None, Status.ON_MAP, 0, _not_cavalry_full(sc))
    cells = _fortresses(sc)[2]
    full[cells[FORTRESS_STEPS - game.arr("fortress")[cells, F_LOST] > 0]] = False
    return full


def unit_attack(game: GweGame, unit: int, supplied: bool, vals: np.ndarray | None = None
                ) -> int:
    """A unit's attack strength before terrain and support: printed; halved for being out of
    supply (9.21, 19.42) and again for being out of Command Control (10.42), each time down
    but never below one. A heroic leader attacks with its Combat Strength (10.23), never
    halved (10.51)."""
    return int(unit_attacks(game, [unit], np.array([supplied]), vals)[0])


def unit_attacks(game: GweGame, units, supplied: np.ndarray,
                 vals: np.ndarray | None = None) -> np.ndarray:
    """``int32``: ``unit_attack`` of each of ``units``, ``supplied`` saying for each whether
    it is in supply."""
    u, st = game.scenario.units, game.state
    units = np.asarray(units, dtype=np.int64).reshape(-1)
    vals = current_values(game) if vals is None else vals
    a = vals[units, 0].astype(np.int32)
    # halved (down, never below one) once per cause: k halvings of a > 0 give
    # max(1, a >> k); a strength of 0 or less stays 0
    k = (~np.asarray(supplied, dtype=bool)).astype(np.int32)
    k += (st.unit_status[units] & _OUT_OF_COMMAND) != 0
    a = np.where(a > 0, np.maximum(1, a >> k), 0)
    for i in np.flatnonzero(u.utype[units] == _HQ).tolist():
        a[i] = command.hq_combat_strength(game, int(units[i]), True,
                                          int(st.unit_cell[units[i]]))
    return a


def attack_strength(game: GweGame, attackers, cells, supplied: np.ndarray | None = None,
                    depot: int = -1) -> Fraction:
    """The attack's total strength, exact: each unit's ``unit_attack``, halved when it attacks
    across a river hexside into a defending hex (5.4), doubled within range of the burnt
    depot (19.21-19.22); the cavalry's total cut by 75 %, fractions dropped, unless every
    defending hex holds only cavalry, depots or HQs (12.21)."""
    sc, st = game.scenario, game.state
    if not len(attackers):
        return Fraction(0)
    side = int(sc.units.side[attackers[0]])
    if supplied is None:
        supplied = in_supply(sc, st, side)
    ct = combat_terrain(sc)
    vals = current_values(game)
    near = _range_mask(game, int(st.unit_cell[depot]), artillery_range(game)) \
        if depot >= 0 else None
    cav, other = Fraction(0), Fraction(0)
    attackers = [int(x) for x in attackers]
    each = unit_attacks(game, attackers, np.asarray(supplied, dtype=bool)[attackers], vals)
    for x, a in zip(attackers, each.tolist()):
        a = Fraction(a)
        cell = int(st.unit_cell[x])
        if any(crosses(game, cell, cells, ct.halved)):
            a /= 2
        if near is not None and near[cell]:
            a *= artillery_multiplier(game)
        if sc.units.utype[x] == _CAVALRY:
            cav += a
        else:
            other += a
    if cav and not cavalry_at_full(game, cells):
        cav = Fraction(math.floor(cav / 4))
    return cav + other


def unit_defense(game: GweGame, unit: int, cell: int, no_trench: np.ndarray,
                 panicking: bool, vals: np.ndarray) -> int:
    """One defender's strength in ``cell``: printed, or 1 when panicking (23.11); halved,
    rounded down, when entrained (5.36; not HQs, 10.35); doubled by the hex's terrain or city
    and again by a trench (5.4, cumulative), no trench for ``no_trench`` units (23.11,
    23.51). An HQ adds its Combat Strength when stacked with two stacking points of
    defending units (10.53, ``command.hq_combat_strength``)."""
    u, st = game.scenario.units, game.state
    ct = combat_terrain(game.scenario)
    if u.utype[unit] == _HQ:
        d = command.hq_combat_strength(game, unit, False, cell)
    else:
        d = 1 if panicking else int(vals[unit, 1])
        if st.unit_status[unit] & Status.ENTRAINED:
            d //= 2
    times = int(ct.doubled[cell]) + (0 if no_trench[unit] else int(ct.trench[cell]))
    return d << times


def defense_strength(game: GweGame, cells, attacker_side: int, depot: int = -1) -> int:
    """The defending force's total: every counted unit and HQ of each hex (``unit_defense``),
    doubled within range of a depot burnt for defence (19.23), plus each fortress's own
    Defense Strength, never doubled (11.11)."""
    st = game.state
    near = _range_mask(game, int(st.unit_cell[depot]), artillery_range(game)) \
        if depot >= 0 else None
    context = _defense_context(game, attacker_side)
    return sum(_hex_defense(game, int(c), attacker_side, context, near) for c in cells)


def hex_defenses(game: GweGame, cells, attacker_side: int) -> list[int]:
    """``defense_strength`` of each of ``cells`` alone, without depot (a force's is the sum
    over its hexes): its counted defenders and HQs (``hex_facts``) and its fortress
    (11.11)."""
    return _with_fortresses(game, [int(c) for c in cells], attacker_side,
                            hex_facts(game, attacker_side)[0])


def facts_defense(game: GweGame, cells, attacker_side: int, total, depot: int = -1) -> int:
    """``defense_strength`` from ``hex_facts``' totals ``total`` of the position: each hex's
    counted defenders and HQs, doubled within range of a depot burnt for defence (19.23),
    plus each fortress's own Defense Strength, never doubled (11.11)."""
    cells = [int(c) for c in cells]
    out = sum(_with_fortresses(game, cells, attacker_side, total))
    if depot >= 0:
        near = _range_mask(game, int(game.state.unit_cell[depot]), artillery_range(game))
        out += (artillery_multiplier(game) - 1) * sum(int(total[c]) for c in cells if near[c])
    return out


def _with_fortresses(game: GweGame, cells: list[int], attacker_side: int, total) -> list[int]:
    # hex_facts' totals of ``cells`` with each hex's fortress added (11.11)
    enemy = 1 - int(attacker_side)
    if not _hex_fixed(game.scenario).has_fortress:
        return [int(total[c]) for c in cells]
    return [int(total[c]) + (fortress_defense(game, c) if fortress_side(game, c) == enemy
                             else 0) for c in cells]


def _defense_context(game: GweGame, attacker_side: int):
    # what every defender's strength reads: values, 23.11/23.51 trenches, 23.11 panic
    vals = current_values(game)
    no_trench = panic.no_trench_benefit(game, attacker_side)
    panicking = (panic.subject_to_panic(game) if panic.panic_in_effect(game, attacker_side)
                 else np.zeros(game.scenario.units.n, dtype=bool))
    return vals, no_trench, panicking


def _hex_defense(game: GweGame, cell: int, attacker_side: int, context, near) -> int:
    vals, no_trench, panicking = context
    s = stack_at(game, cell, 1 - int(attacker_side))
    total = 0
    for x in s.counted + s.hqs:
        d = unit_defense(game, x, cell, no_trench, bool(panicking[x]), vals)
        if near is not None and near[cell]:
            d *= artillery_multiplier(game)
        total += d
    return total + (fortress_defense(game, cell) if s.fortress else 0)


# --- the CRT (8.4, 8.8, 17.0) ----------------------------------------------------------------

def crt_row(game: GweGame, attackers) -> str:
    """The odds row: the attackers' TCR (8.8); Austro-Hungarian and German units attacking
    together use the row 17.0 names ("TCR 2 and 3"); any other mix the worst TCR."""
    f = unit_lists(game.scenario)
    fighters = [int(x) for x in attackers if f.utype[x] != _HQ] or [int(x) for x in attackers]
    nats = {f.nationality[x] for x in fighters}
    crt = game.data.crt
    if _GERMAN in nats and _AUSTRO_HUNGARIAN in nats:
        return crt.rows[crt.joint]
    t = max(f.tcr[x] for x in fighters)
    row = crt.tcr_row[t]
    if row is None:
        raise KeyError(f"the CRT has no odds row for TCR {t}")
    return row


def unit_lists(scenario: Scenario) -> UnitLists:
    """Each unit's attributes as tuples, compiled with the scenario (``GweData.unit_lists``)."""
    return gwe_data(scenario).unit_lists


def odds_column(game: GweGame, row: str, attack: Fraction, defense: int) -> int:
    """The rightmost column of ``row`` whose ratio the odds reach, rounding in the
    defender's favour (8.4); -1 below the first column (8.8: no attack), the last above it."""
    ratios = game.data.crt.pairs[row]
    if defense <= 0:
        return len(ratios) - 1
    attack = Fraction(attack)
    num, den = attack.numerator, attack.denominator      # attack * b >= defense * a, exactly
    col = -1
    for i, (a, b) in enumerate(ratios):
        if num * b >= defense * a * den:
            col = i
    return col


def crt_result(game: GweGame, die: int, column: int) -> tuple[str, str]:
    """The printed results (attacker, defender) of a modified die on a column (8.8)."""
    return game.data.crt.result(die, column)


def die_modifier(game: GweGame, attackers, cells) -> int:
    """5.4: +N when every attacker attacks only across such hexsides (major rivers, +2), +N
    when any attacker attacks across one (ridges; none in the Brusilov Offensive)."""
    ct = combat_terrain(game.scenario)
    st = game.state
    mod = 0
    for mask, n in ct.die_exclusive:
        flags = [f for x in attackers for f in crosses(game, int(st.unit_cell[x]), cells, mask)]
        if flags and all(flags):
            mod += n
    for mask, n in ct.die_any:
        if any(f for x in attackers for f in crosses(game, int(st.unit_cell[x]), cells, mask)):
            mod += n
    return mod


def armored_car_shift(game: GweGame, attackers) -> int:
    """24.11-24.12: one column right when the armored car attacks with at least one other
    unit of its nationality (two Russian units in the attack, the car included)."""
    u = game.scenario.units
    cars = [x for x in attackers if u.utype[x] == _ARMORED_CAR]
    if not cars:
        return 0
    nat = u.nationality[cars[0]]
    return 1 if sum(1 for x in attackers if u.nationality[x] == nat) >= 2 else 0


# --- eliminations, steps, surrounded (25.13), attrition (9.23) ---------------------------------

def is_surrounded(game: GweGame, unit: int) -> bool:
    """25.13: the unit cannot trace a line of at most six hexes, free of enemy units and
    enemy-controlled hexes, from its hex (not counted) to a friendly supply source (a rail
    source, 9.15, or a supplied depot) or to a supplied friendly unit in another hex. Enemy
    HQs alone do not block the line (10.52); a friendly unit (or fortress) negates an enemy
    zone in its hex (7.24); prohibited hexsides and terrain are never crossed."""
    from gwe_fast.games.gwe.retreat import passable_steps

    sc, st = game.scenario, game.state
    m, u = sc.map, sc.units
    if not st.unit_status[unit] & Status.ON_MAP:
        return False
    side = int(u.side[unit])
    cell = int(st.unit_cell[unit])
    src, depots = sources(sc, st, side)
    target = src.copy()
    target[st.unit_cell[depots]] = True
    sup = in_supply(sc, st, side) & (st.unit_cell != cell)
    target[st.unit_cell[sup]] = True
    enemy_units = occupied(sc, st, 1 - side, hq_only_counts=False)
    negated = occupied(sc, st, side) | fortress_cells(game, side)
    free = ~enemy_units & ~(controlled(sc, st, 1 - side) & ~negated)
    v = np.maximum(m.neighbors, 0)
    cost = np.where(passable_steps(game) & free[v], 1, PROHIBITED).astype(dtypes.STEPCOST)
    dist = m.k.search.bounded_search(m.neighbors, cost, [cell], limit=SURROUNDED_LINE)[0][0]
    return not bool((target & (dist >= 0)).any())


def lose_steps(game: GweGame, unit: int, n: int, cause: str) -> int:
    """``units.lose_steps`` with the 25.13 test made when the loss eliminates the unit."""
    if n <= 0:
        return 0
    left = gu.steps_left(game, unit)
    sur = is_surrounded(game, unit) if n >= left else False
    return gu.lose_steps(game, unit, n, cause, surrounded=sur)


def eliminate_units(game: GweGame, units, cause: str) -> None:
    """Eliminate units (combat units first, then HQs, which may flip and displace instead,
    10.53-10.54), each with its 25.13 test."""
    u, st = game.scenario.units, game.state
    live = [int(x) for x in units if st.unit_status[x] & Status.ON_MAP]
    for x in [x for x in live if u.utype[x] != _HQ]:
        if st.unit_status[x] & Status.ON_MAP:
            gu.eliminate(game, x, cause, surrounded=is_surrounded(game, x))
    for x in [x for x in live if u.utype[x] == _HQ]:
        if st.unit_status[x] & Status.ON_MAP:
            command.eliminate_hq_in_combat(game, x, surrounded=is_surrounded(game, x))


def attrition_check(game: GweGame, unit: int, cause: str = "attrition") -> int:
    """9.22-9.24 for one unit: one die (stream ``attrition``); on a roll the ``attrition``
    table lists, it loses half its remaining steps, rounded up. HQs are immune. Returns the
    steps lost. ``attrition.roll_attrition`` is used instead when that module provides it."""
    try:
        from gwe_fast.games.gwe import attrition as _att
    except ImportError:
        _att = None
    if _att is not None and hasattr(_att, "roll_attrition"):
        return int(_att.roll_attrition(game, unit))
    u = game.scenario.units
    if u.utype[unit] == _HQ:
        return 0
    roll = game.roll("attrition", f"9.23 {u.ids[unit]}")
    if roll not in game.scenario.tables["attrition"]["rolls"]:
        return 0
    n = -(-gu.steps_left(game, unit) // 2)
    return lose_steps(game, unit, n, cause)


def burn_depot(game: GweGame, depot: int) -> None:
    """19.21: a depot used for Massed Artillery Fire leaves play after the attack. It goes
    back to the depot pool (``Status.POOL``, no victory points: it is not eliminated); its
    step and stacking points are booked under ``massed_artillery``."""
    st, u = game.state, game.scenario.units
    if not st.unit_status[depot] & Status.ON_MAP:
        return
    side = int(u.side[depot])
    k = LOSS_CAUSES.index("massed_artillery")
    game.arr("steps_lost")[side, k] += gu.steps_left(game, depot)
    game.arr("sp_lost")[side, k] += int(u.stacking[depot])
    st.unit_status[depot] = Status.POOL
    st.unit_cell[depot] = -1
    st.unit_step[depot] = 0
    game.event("depot_burnt", unit=int(depot))


def allocate_losses(game: GweGame, side: int, pool, n: int, cause: str, role: str,
                    fortresses=()) -> int:
    """Take ``n`` combat steps from ``pool`` (units) and ``fortresses`` (cells; each fortress
    step counts two, 11.13), one step at a time as the owner picks (``"gwe.combat.loss"``,
    options: units, then ``("fortress", cell)``); everything when the pool holds no more.
    Returns the combat steps taken."""
    st = game.state
    taken = 0
    while taken < n:
        units = [int(x) for x in pool if st.unit_status[x] & Status.ON_MAP
                 and gu.steps_left(game, int(x)) > 0]
        forts = [int(c) for c in fortresses if fortress_steps(game, int(c)) > 0]
        room = steps_of(game, units) + FORTRESS_STEP_VALUE * sum(
            fortress_steps(game, c) for c in forts)
        if room == 0:
            break
        if room <= n - taken:
            for x in units:
                taken += lose_steps(game, x, gu.steps_left(game, x), cause)
            for c in forts:
                taken += FORTRESS_STEP_VALUE * fortress_lose(game, c, fortress_steps(game, c))
            break
        options = units + [("fortress", c) for c in forts]
        pick = game.ask("gwe.combat.loss", side, options, role=role, steps=n - taken)
        if isinstance(pick, tuple):
            taken += FORTRESS_STEP_VALUE * fortress_lose(game, pick[1], 1)
        else:
            taken += lose_steps(game, int(pick), 1, cause)
    return taken


# --- declaration -------------------------------------------------------------------------------

class _Position:
    """What the declaration of one attack needs, computed once for the current position: the
    questions themselves are the ``AttackPosition`` of the map's kernels (``play``)."""

    def __init__(self, game: GweGame, side: int):
        self.game, self.side = game, int(side)
        sc, st = game.scenario, game.state
        self.supplied = in_supply(sc, st, side)
        self.eligible = np.flatnonzero(may_attack(game, side))
        self.cells_of = st.unit_cell
        self._targets: list[int] | None = None
        self._kernel = None
        self._defense = np.zeros(sc.map.n_cells, dtype=np.int32)
        self._known = np.zeros(sc.map.n_cells, dtype=bool)
        self._hex_facts = None

    def candidates(self, cells) -> list[int]:
        """The eligible units next to every one of ``cells`` (``AttackPosition``)."""
        return self.kernel().candidates(cells)

    def within_reach(self) -> np.ndarray:
        """``bool[n_cells]``: the hexes some eligible unit is next to across a hexside that
        does not prohibit combat: exactly those for which ``candidates([c])`` is not empty
        (hexside masks are symmetric, ``HexMap.check_symmetric``, so reading them from the
        units' side is reading them from the target's, as ``attack_positions`` does)."""
        m = self.game.scenario.map
        if self.eligible.size == 0:
            return np.zeros(m.n_cells, dtype=bool)
        # (a hex given twice marks the same neighbours twice)
        return m.k.board.adjacent_cells(m.neighbors, self.cells_of[self.eligible],
                                        combat_terrain(self.game.scenario).prohibited)

    def _facts(self) -> tuple[np.ndarray, np.ndarray]:
        # hex_facts of the position within reach, made once
        if self._hex_facts is None:
            self._hex_facts = hex_facts(self.game, self.side, self.within_reach())
        return self._hex_facts

    def _cover(self, cells) -> None:
        # the defending strength of these hexes (``hex_defenses``), made once each
        new = [int(c) for c in cells if not self._known[int(c)]]
        if new:
            self._defense[new] = _with_fortresses(self.game, new, self.side,
                                                  self._facts()[0])
            self._known[new] = True

    def kernel(self):
        """The ``AttackPosition`` of this position, made at first use: each eligible unit's
        ``unit_attack``, hex, kind, nationality and TCR; the hexes' defending strengths (as
        they are asked) and 12.21; the CRT's rows."""
        if self._kernel is None:
            game = self.game
            sc, st = game.scenario, game.state
            m, u, el = sc.map, sc.units, self.eligible
            vals = current_values(game)
            attack = unit_attacks(game, el, self.supplied[el], vals)
            ct = combat_terrain(sc)
            crt = game.data.crt
            self._kernel = m.k.play.AttackPosition(
                m.neighbors, ct.prohibited.view(np.uint8), ct.halved.view(np.uint8),
                el.astype(np.int32), st.unit_cell[el].astype(np.int32), attack,
                (u.utype[el] == _CAVALRY).view(np.uint8), u.nationality[el].astype(np.int32),
                game.data.tcr[el].astype(np.int32), (u.utype[el] == _HQ).view(np.uint8),
                self._defense, cavalry_full_hexes(game).view(np.uint8), crt.ratios,
                crt.row_len, crt.row_of_tcr, crt.joint, int(Nationality.GERMAN),
                int(Nationality.AUSTRO_HUNGARIAN))
        return self._kernel

    def targets(self) -> list[int]:
        """Hexes that can be attacked now (step 1 of the declaration): those some eligible
        units can attack alone at the CRT's lowest odds (8.8 note)."""
        if self._targets is None:
            cells = np.flatnonzero(self._facts()[1]).tolist()
            self._cover(cells)
            self._targets = self.kernel().targets(cells)
        return self._targets

    def options(self, cells, attackers) -> tuple[bool, list[int], list[int]]:
        """``(done, units, hexes)`` of the next step of declaring an attack on ``cells`` by
        ``attackers`` (see ``declare_attack``)."""
        targets = self.targets()
        self._cover(cells)
        return self.kernel().options(cells, attackers, targets)


def declare_attack(game: GweGame, side: int, cell: int, pos: _Position | None = None) -> Combat:
    """The attacker builds one attack on ``cell`` (see the module docstring, step 2)."""
    pos = pos or _Position(game, side)
    cells, att = [int(cell)], []
    while True:
        # "done" once the force reaches the CRT; a unit next to every hex that leaves a
        # legal attack possible; a hex that may be attacked, next to every attacker, that
        # leaves one possible (AttackPosition.options)
        done, units, hexes = pos.options(cells, att)
        options: list = ([DONE] if done else []) + [("unit", x) for x in units] \
            + [("hex", t) for t in hexes]
        if not options:
            raise RuntimeError("no legal way to go on declaring this attack")
        pick = game.ask("gwe.combat.attack", side, options, defender_cells=tuple(cells),
                        attackers=tuple(att))
        if pick == DONE:
            return Combat(side=int(side), cells=cells, attackers=att)
        if pick[0] == "unit":
            att.append(int(pick[1]))
        else:
            cells.append(int(pick[1]))


def choose_support(game: GweGame, combat: Combat) -> None:
    """HQ shifts (10.21-10.22), the attacker's massed artillery (19.21-19.22), then the
    defender's massed artillery (19.23-19.24) and defensive shift (21.1)."""
    sc, st = game.scenario, game.state
    u = sc.units
    side, enemy = combat.side, 1 - combat.side
    combat.shift_right = command.choose_shifts(game, side, combat.attackers, combat.cells)
    rng = artillery_range(game)
    depots = [int(d) for d in np.flatnonzero(on_map(st) & (u.side == side)
                                             & (u.utype == _DEPOT))]
    usable = [d for d in depots
              if any(_range_mask(game, int(st.unit_cell[d]), rng)[st.unit_cell[combat.attackers]])]
    if usable:
        pick = game.ask("gwe.combat.massed_artillery", side, [NONE] + usable,
                        attackers=tuple(combat.attackers), defender_cells=tuple(combat.cells))
        combat.depot = -1 if pick == NONE else int(pick)
    defenders = [x for c in combat.cells for x in stack_at(game, c, enemy).counted]
    if SIDE_KEYS[Side(enemy)] in sc.tables["massed_artillery"]["defensive_use"] and defenders:
        flags = game.arr("flags")
        mine = [int(d) for d in np.flatnonzero(on_map(st) & (u.side == enemy)
                                               & (u.utype == _DEPOT))
                if not flags[d] & Flag.DEFENDED and int(st.unit_cell[d]) not in combat.cells]
        usable = [d for d in mine if any(_range_mask(game, int(st.unit_cell[d]), rng)[combat.cells])]
        if usable:
            pick = game.ask("gwe.combat.defensive_artillery", enemy, [NONE] + usable,
                            attackers=tuple(combat.attackers),
                            defender_cells=tuple(combat.cells))
            combat.defense_depot = -1 if pick == NONE else int(pick)
    if defenders:
        combat.shift_left = command.choose_defense_shifts(game, enemy, defenders)


def combat_phase(game: GweGame, side: int) -> None:
    """The Combat Resolution Segment of ``side`` (4.0 A3b): attacks declared and resolved one
    at a time until the attacker stops or has nothing left to attack with. When both players
    pick at random, the compiled core declares each attack and its support
    (``GweCore.declare_attack``: the same options, in the same order, drawn alike) and
    resolves it (``GweCore.resolve_declared``), but in the panic of 23.0."""
    flags = game.arr("flags")
    flags[:] &= ~np.uint16(Flag.ATTACKED | Flag.DEFENDED | Flag.ADVANCED)
    game.arr("fortress")[:, F_ATTACKED] = 0
    while True:
        core = game.core
        declared = core.declare_attack(side) if core is not None else None
        if declared is not None:                  # the compiled core declared it
            if declared is False:
                return
            if core.resolve_declared(side):
                continue
            cells, attackers, depot, defense_depot, right, left = declared
            resolve_attack(game, Combat(side=int(side), cells=cells, attackers=attackers,
                                        depot=depot, defense_depot=defense_depot,
                                        shift_right=right, shift_left=left))
            continue
        pos = _Position(game, side)
        targets = pos.targets()
        if not targets:
            return
        pick = game.ask("gwe.combat.declare", side, [STOP] + targets)
        if pick == STOP:
            return
        combat = declare_attack(game, side, int(pick), pos)
        choose_support(game, combat)
        resolve_attack(game, combat)


# --- resolution --------------------------------------------------------------------------------

def resolve_attack(game: GweGame, combat: Combat) -> Combat:
    """Resolve a declared attack (8.4-8.7); returns ``combat`` with what was found.

    1. 8.14: the attackers and every unit (and fortress) of the defending hexes are marked.
    2. 9.11, 9.23: supply is determined now; each attacker out of supply (not an HQ) rolls for
       attrition before the odds (19.42 likewise); units it eliminates do not attack.
    3. The strengths, the row (17.0), the column rounded in the defender's favour (8.4): below
       the first column now (attrition, defensive artillery) it is the first column; shifts
       right (HQs, 10.21; armored car, 24.11) and left (21.1); kept within the table (8.8).
    4. One die (stream ``combat``) plus the terrain's modifiers (5.4); the result; 10.43 adds
       one to the result of a force holding a unit of TCR 3-4 out of command (attacker) or
       out of every command radius (defender).
    5. 8.54: the defender's result first (panic, 23.1; else an option of 8.9), entrained
       defenders detrain (5.36); contagion (23.2); the attacker's result; the advance (8.7).
    6. 19.21: the burnt depots leave play.
    """
    sc, st = game.scenario, game.state
    u = sc.units
    side, enemy = combat.side, 1 - combat.side
    stacks = [stack_at(game, c, enemy) for c in combat.cells]
    for x in combat.attackers:
        game.set_flag(x, Flag.ATTACKED | Flag.IN_COMBAT_LAST_TURN)
    for s in stacks:
        for x in s.counted + s.passengers + s.hqs:
            game.set_flag(x, Flag.DEFENDED | Flag.IN_COMBAT_LAST_TURN)
        if s.fortress:
            game.arr("fortress")[s.cell, F_ATTACKED] = 1
    combat.panic = panic.panic_in_effect(game, side)
    snapshot = panic.adjacent_snapshot(game) if combat.panic else {}
    supplied = in_supply(sc, st, side)
    def_supplied = _SupplyNow(game, enemy)
    for s in stacks:                                         # 11.22: one unit feeds off it
        if s.fortress:
            hungry = [x for x in s.counted if not def_supplied[x]]
            if hungry:
                def_supplied[hungry[0]] = True
    for x in list(combat.attackers):                         # 9.23
        if u.utype[x] != _HQ and not supplied[x]:
            attrition_check(game, int(x))
    attackers = [int(x) for x in combat.attackers if st.unit_status[x] & Status.ON_MAP]
    if not attackers:
        game.event("attack_void", cells=tuple(combat.cells))
        _burn(game, combat)
        combat.resolved = True
        return combat
    combat.attack = attack_strength(game, attackers, combat.cells, supplied, combat.depot)
    combat.defense = defense_strength(game, combat.cells, side, combat.defense_depot)
    for s in stacks:                                         # 5.36: detrained when attacked
        for x in s.counted + s.hqs:
            st.unit_status[x] &= ~np.uint16(Status.ENTRAINED)
    combat.row = crt_row(game, attackers)
    combat.base_column = odds_column(game, combat.row, combat.attack, combat.defense)
    crt = game.data.crt
    n_cols = len(crt.pairs[combat.row])
    col = max(combat.base_column, 0) + combat.shift_right + armored_car_shift(game, attackers)
    col -= combat.shift_left
    combat.column = min(max(col, 0), n_cols - 1)
    combat.odds = crt.labels[combat.row][combat.column]
    combat.die = game.roll("combat", f"8.4 {combat.odds}")
    combat.modified_die = combat.die + die_modifier(game, attackers, combat.cells)
    a_res, d_res = crt_result(game, combat.modified_die, combat.column)
    if command.command_penalty(game, attackers, phasing=True).any():      # 10.43
        a_res = WORSE_ATTACKER[a_res]
    counted = [x for s in stacks for x in s.counted]
    if counted and command.command_penalty(game, counted, phasing=False).any():
        d_res = WORSE_DEFENDER[d_res]
    combat.attacker_result, combat.defender_result = a_res, d_res
    combat.attacker_steps = steps_of(game, [x for x in attackers if u.utype[x] != _HQ])
    combat.defender_steps = steps_of(game, counted) + sum(s.fortress for s in stacks)
    combat.affected = min(combat.attacker_steps, combat.defender_steps)
    game.event("combat", cells=tuple(combat.cells), attackers=tuple(attackers),
               attack=str(combat.attack), defense=combat.defense, row=combat.row,
               odds=combat.odds, die=combat.die, modified_die=combat.modified_die,
               result=f"{a_res}/{d_res}")
    vacated, paths, retreated_ah = _defender_result(game, combat, stacks, def_supplied)
    contagion_left: set[int] = set()
    if combat.panic and retreated_ah:                          # 23.21-23.26
        before = {x: int(st.unit_cell[x]) for x in snapshot}
        forbid = set(vacated) | {c for p in combat.panic_paths.values() for c in p}   # 23.22
        ah_paths = [paths[c] for c in retreated_ah if c in paths]
        panic.contagion(game, snapshot, retreated_ah, ah_paths, sorted(forbid))
        contagion_left = {cell for x, cell in before.items()      # 23.23
                          if int(st.unit_cell[x]) != cell and cell not in combat.cells}
    _attacker_result(game, combat, attackers)
    _advance(game, combat, attackers, vacated, contagion_left)
    _burn(game, combat)
    combat.resolved = True
    return combat


class _SupplyNow:
    """``in_supply(side)`` of the position at the moment of combat, indexed by unit, worked out
    when first read: the defender's supply is read only by a fortress's stack (11.22) and by
    8.75 after the result, which most combats never reach. Until then what a supply line
    reads of the position (``supply.position_key``) is kept aside, so that a late reading is
    the position's as it stood."""

    def __init__(self, game: GweGame, side: int):
        self._scenario, self._side = game.scenario, int(side)
        self._kept = game.state.copy()          # one copy of the record's buffer
        self._supplied = None

    def _read(self) -> np.ndarray:
        if self._supplied is None:
            self._supplied = in_supply(self._scenario, self._kept, self._side)
        return self._supplied

    def __getitem__(self, unit):
        return self._read()[unit]

    def __setitem__(self, unit, value) -> None:
        self._read()[unit] = value


def _burn(game: GweGame, combat: Combat) -> None:
    for d in (combat.depot, combat.defense_depot):
        if d >= 0:
            burn_depot(game, d)


def _hq_fate(game: GweGame, cell: int, side: int) -> None:
    """10.53: HQs left in a hex whose combat units are all gone are eliminated (10.54: or
    flip and displace)."""
    u = game.scenario.units
    here = [int(x) for x in gu.units_in(game, cell) if u.side[x] == side]
    if here and all(u.utype[x] == _HQ for x in here):
        eliminate_units(game, here, "combat")


def _defender_result(game: GweGame, combat: Combat, stacks: list[Stack], def_supplied):
    """The defender's result (8.54 first). Returns the hexes vacated, the retreat path from
    each hex, and the hexes Austro-Hungarian units retreated from (for 23.2)."""
    sc = game.scenario
    u = sc.units
    enemy = 1 - combat.side
    code = combat.defender_result
    paths: dict[int, tuple[int, ...]] = {}
    retreated_ah: list[int] = []
    if code == "-":
        return [], paths, retreated_ah
    std = []
    subject = panic.subject_to_panic(game)
    for s in stacks:
        if combat.panic:
            pan = [x for x in s.counted if subject[x]]
            if pan:
                rest = [x for x in s.counted if x not in pan]
                followers = s.hqs if not rest and not s.fortress else []
                path = panic.panic_retreat(game, pan, panic.PANIC_RETREAT[code], followers)
                eliminate_units(game, s.passengers, "combat")           # 8.66
                s.passengers = []
                if path is not None:
                    paths[s.cell] = path
                    combat.retreats[s.cell] = path
                    combat.panic_paths[s.cell] = path
                    retreated_ah.append(s.cell)
                if followers:
                    s.hqs = []
                s.counted = rest
        if s.counted or s.fortress:
            std.append(s)
    if std:
        _standard_defender(game, combat, std, code, def_supplied, paths, retreated_ah)
    for s in stacks:
        _hq_fate(game, s.cell, enemy)
    vacated = [s.cell for s in stacks
               if not any(u.side[x] == enemy for x in gu.units_in(game, s.cell))
               and not fortress_cells(game, enemy)[s.cell]]
    return vacated, paths, retreated_ah


def _standard_defender(game: GweGame, combat: Combat, stacks: list[Stack], code: str,
                       def_supplied, paths: dict, retreated_ah: list) -> None:
    """8.9 for the defending force (or what panic left of it): the defender's option, the
    affected units when his force is the larger (8.9 Explanation), the step losses (fortress
    steps count two, 11.13, and a fortress that cannot retreat loses steps instead, 11.12),
    8.66 for passengers, 8.75, the retreats (8.6)."""
    from gwe_fast.games.gwe import retreat

    sc, st = game.scenario, game.state
    u = sc.units
    enemy = 1 - combat.side
    units = [x for s in stacks for x in s.counted]
    forts = [s.cell for s in stacks if s.fortress]
    d_steps = steps_of(game, units) + sum(s.fortress for s in stacks)
    affected = min(combat.attacker_steps, d_steps)
    if code == "E":
        option = "eliminate_all"
    else:
        option = game.ask("gwe.combat.option", enemy, list(game.data.crt.defender_options[code]),
                          result=code,
                          affected=affected, defender_cells=tuple(s.cell for s in stacks))
    combat.option = option
    half, whole, hexes = OPTION_EFFECTS[option]
    chosen_units, chosen_forts = units, forts
    if d_steps > affected and len(stacks) > 1:                  # the owner picks the affected
        chosen_units, chosen_forts, got = [], [], 0
        while got < affected:
            options = [x for x in units if x not in chosen_units] + [
                ("fortress", c) for c in forts if c not in chosen_forts]
            pick = game.ask("gwe.combat.affected", enemy, options, steps=affected - got)
            if isinstance(pick, tuple):
                chosen_forts.append(pick[1])
                got += fortress_steps(game, pick[1])
            else:
                chosen_units.append(int(pick))
                got += gu.steps_left(game, int(pick))
    cells = {int(st.unit_cell[x]) for x in chosen_units} | set(chosen_forts)
    fort_at_moment = {s.cell: s.fortress for s in stacks}
    if whole and d_steps <= affected:                             # all affected eliminated
        eliminate_units(game, chosen_units, "combat")
        for c in chosen_forts:
            fortress_lose(game, c, FORTRESS_STEPS)
    else:
        loss = affected if whole else (-(-affected // 2) if half else 0)
        allocate_losses(game, enemy, chosen_units, loss, "combat", "defender", chosen_forts)
    if hexes:                                                     # 11.12-11.13
        for c in chosen_forts:
            per_hex = -(-fort_at_moment[c] // 2)
            fortress_lose(game, c, -(-(hexes * per_hex) // FORTRESS_STEP_VALUE))
    for s in stacks:                                              # 8.66
        if s.cell not in cells or not s.passengers:
            continue
        left = [x for x in s.counted if st.unit_status[x] & Status.ON_MAP]
        if hexes or not left:
            eliminate_units(game, s.passengers, "combat")
        elif half:
            allocate_losses(game, enemy, s.passengers, -(-steps_of(game, s.passengers) // 2),
                            "combat", "retreated")
    if (option == "eliminate_all" and code in ("2", "3") and units   # 8.75
            and not any(st.unit_status[x] & Status.ON_MAP for x in units)
            and all(def_supplied[x] for x in units)):
        combat.ils_ne_passeront_pas = True
    if hexes:
        ah = Nationality.AUSTRO_HUNGARIAN
        for s in stacks:
            if s.cell not in cells:
                continue
            movers = [x for x in s.counted if st.unit_status[x] & Status.ON_MAP]
            if not movers:
                continue
            moving_ah = any(u.nationality[x] == ah for x in movers)
            path = retreat.retreat_stack(game, movers, hexes, followers=s.hqs)
            if path is not None:
                paths.setdefault(s.cell, path)
                combat.retreats.setdefault(s.cell, path)
                if moving_ah and s.cell not in retreated_ah:
                    retreated_ah.append(s.cell)


def _attacker_result(game: GweGame, combat: Combat, attackers) -> None:
    """8.9, attacking units: half the affected steps (rounded up) or all of them, taken
    from the attacking force as its owner chooses."""
    code = combat.attacker_result
    if code == "-":
        return
    u = game.scenario.units
    _, whole, _ = OPTION_EFFECTS[game.data.crt.attacker_options[code][0]]
    loss = combat.affected if whole else -(-combat.affected // 2)
    pool = [x for x in attackers if u.utype[x] != _HQ]
    allocate_losses(game, combat.side, pool, loss, "combat", "attacker")


def _advance(game: GweGame, combat: Combat, attackers, vacated, contagion_left) -> None:
    """8.71-8.75: surviving attackers may advance into each vacated defending hex, within the
    stacking limit, ignoring enemy zones of control (8.72); never after 8.75. 23.16: against
    panicking units, along the path of their retreat, stopping anywhere before a hex holding
    an enemy unit other than HQs or vacated by contagion (23.23); enemy HQs alone in a hex
    entered displace (10.52). Asked one unit at a time
    (``"gwe.combat.advance"``: ``(unit, hex)`` or ``"done"``); an advanced unit is marked
    (8.73)."""
    from gwe_fast.games.gwe.retreat import enemy_blocks

    if combat.ils_ne_passeront_pas or not vacated:
        return
    sc, st = game.scenario, game.state
    u = sc.units
    side = combat.side
    limit = game.data.stack_limit
    routes: dict[int, tuple[int, ...]] = {}     # each hex: the hexes entered to reach it
    for v in vacated:
        routes[v] = (v,)
        if v in combat.panic_paths:
            blocked = enemy_blocks(game, side)
            prev = (v,)
            for c in combat.panic_paths[v]:
                if blocked[c] or c in contagion_left:
                    break
                prev = prev + (int(c),)
                routes.setdefault(int(c), prev)
    movers = [int(x) for x in attackers]
    while True:
        options: list = []
        for x in movers:
            if not st.unit_status[x] & Status.ON_MAP:
                continue
            for c in routes:
                if game.stacking_in(c) + int(u.stacking[x]) <= limit:
                    options.append((x, c))
        if not options:
            return
        pick = game.ask("gwe.combat.advance", side, [DONE] + options,
                        defender_cells=tuple(combat.cells))
        if pick == DONE:
            return
        x, c = pick
        gu.move_unit(game, x, routes[c])
        game.set_flag(x, Flag.ADVANCED)
        game.event("advance", unit=x, path=routes[c])
        movers.remove(x)
        for h in routes[c]:                     # 10.52: enemy HQs alone there displace
            for other in gu.units_in(game, h):
                if (u.side[other] != side and u.utype[other] == _HQ
                        and not command.displace_hq(game, int(other))):
                    eliminate_units(game, [int(other)], "combat")


def legal_targets(game: GweGame, side: int) -> list[int]:
    """The hexes ``side`` may declare an attack on now (the options of
    ``"gwe.combat.declare"`` besides ``"stop"``)."""
    return _Position(game, side).targets()
