"""Combat (8.0), rolling and SOS barrages (9.5, 9.6), observation (9.7), the attacker's supply
(14.0), corps attachments (16.0) and the opening turns' advances and fog (17.3, 17.4).

``combat_phase(game, side)`` plays the phasing side's whole Combat Phase. The attacker
declares and resolves one attack at a time (8.0[5]); each resolution is applied at once.

How the obligations of 8.11, 8.12 and 8.21 are always met
----------------------------------------------------------
At the start of the phase the *obligated units* are the phasing units adjacent to an enemy unit
that are not in a town or trench hex (8.12, 8.13, 10.0), and the *obligated stacks* the enemy
stacks adjacent to an obligated unit (8.11, 8.21). Every obligated unit must take part in one
attack and every obligated stack must be attacked, once (8.14). Advances and retreats move only
units that have attacked, so they create no obligation (an advanced unit may not fight again,
8.87). Units in towns and trenches may attack as they please (8.13).

An attack is a set ``D`` of enemy stacks and a set ``S`` of attackers, each attacker adjacent
to every stack of ``D`` (8.25). The rest of the phase can still meet every obligation exactly
when (``_Obligations.feasible``):

* every obligated unit outside ``S`` that has not attacked is adjacent to an unattacked stack
  outside ``D``, and
* every obligated stack outside ``D`` that has not been attacked is adjacent to a unit outside
  ``S`` that has not attacked.

(These are necessary, and sufficient: give every obligated stack to one adjacent unit; each
unit attacks all the stacks it was given at once; a unit given none joins the attack on an
adjacent stack, split off as an attack of its own if it was part of a multi-hex one.)

So the options offered are:

* ``kb.combat.target``: a tuple of enemy cells ``D`` (one hex, or several with a common
  adjacent attacker) such that every obligated unit whose unattacked neighbours all lie in
  ``D`` (a *compulsory member*: it has nowhere else to attack) is adjacent to all of ``D``,
  the rest stays feasible with the compulsory members in ``S``, and someone can attack;
  ``"done"`` only when no obligation remains;
* ``kb.combat.join`` (``True``/``False``) for every other unit adjacent to all of ``D``:
  ``True`` only if the rest stays feasible with it in ``S`` (so a unit cannot join when an
  enemy stack next to it would then be left with nobody to attack it), ``False`` only if
  someone can still attack ``D``.

Whatever a random policy picks, the phase therefore ends with every obligation met.

Then, per attack: ``kb.combat.rolling`` (attacker, a ``(field, heavy)`` mix, 9.5),
``kb.combat.sos`` (defender, per defending stack, 9.6), two dice, and the result (8.7):
``kb.combat.loss`` (the owner picks the unit losing each step), ``kb.combat.retreat`` (the
destination of an attacking stack, 8.74) and ``kb.combat.advance`` (each victor's destination,
its own hex meaning it stays, 8.83-8.85).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from gwe_fast import kernels
from gwe_fast.enums import Side
from gwe_fast.game import picks_at_random
from gwe_fast.games.kb import artillery, supply, units
from gwe_fast.games.kb.game import FOG, Flag, KbGame
from gwe_fast.games.kb.movement import step_costs
from gwe_fast.games.kb.zoc import controlled, occupied
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_ALLIED = int(Side.ALLIED)
_CENTRAL = int(Side.CENTRAL)

DONE = "done"
ATTACKER_ELIMINATED, UNSUCCESSFUL, SUCCESSFUL = "attacker_eliminated", "unsuccessful", "successful"
# 17.3 "Game-Turns 1 and 2": the turns of the table's ``die_multiplier_turns_1_2`` row.
OPENING_TURNS = (1, 2)
STOSS, OTHER_GERMAN, ALLIED = "stosstruppen", "other_german", "allied"
_PHASE_FLAGS = Flag.ATTACKED | Flag.DEFENDED | Flag.ADVANCED


# --- the arithmetic of 8.0 and 8.7 ------------------------------------------------------------

def quotient(att_die: int, att_mod: int, att_strength: int, def_die: int, def_mod: int,
             def_strength: int) -> int:
    """The attacker's product divided by the defender's, fractions dropped (8.0[2]-[4])."""
    den = (def_die + def_mod) * def_strength
    if den <= 0:
        raise ValueError(f"defender's product is {den}: a defending stack has no strength")
    return ((att_die + att_mod) * att_strength) // den


def classify(q: int, morale: int) -> tuple[str, int]:
    """The result of a quotient against the defender's Morale Value (8.71-8.73) and the steps
    the defender loses (8.75)."""
    if q < 1:
        return ATTACKER_ELIMINATED, 0
    if q <= morale:
        return UNSUCCESSFUL, 0
    return SUCCESSFUL, q - morale


def odds_outcome(att_strength: int, att_mod: int, def_strength: int, def_mod: int,
                 morale: int) -> dict:
    """The exact distribution of the result over the 36 pairs of dice.

    Returns ``{"attacker_eliminated": p, "unsuccessful": p, "success": {k: p}}`` with
    ``Fraction`` probabilities, ``k`` being the steps the defender must lose (before any
    limit by the steps it has).

    Examples
    --------
    >>> o = odds_outcome(30, 0, 11, 1, 4)     # the 8.7 example: a division against 11 in a town
    >>> o["attacker_eliminated"], o["success"][1]
    (Fraction(7, 36), Fraction(1, 18))
    """
    elim, fail, success = odds_counts(att_strength, att_mod, def_strength, def_mod, morale)
    return {ATTACKER_ELIMINATED: Fraction(elim, 36), UNSUCCESSFUL: Fraction(fail, 36),
            "success": {k: Fraction(v, 36) for k, v in success.items()}}


def odds_counts(att_strength: int, att_mod: int, def_strength: int, def_mod: int,
                morale: int) -> tuple[int, int, dict[int, int]]:
    """``(attacker eliminated, unsuccessful, {k: pairs})``: how many of the 36 pairs of dice
    give each result (``odds_outcome`` in whole numbers), the successes by steps ascending.
    The arithmetic of ``quotient`` and ``classify``, written out for the 36 pairs (the
    policies weigh thousands of attacks a game).

    Examples
    --------
    >>> odds_counts(30, 0, 11, 1, 4)
    (7, 25, {1: 2, 2: 1, 4: 1})
    """
    elim = fail = 0
    success: dict[int, int] = {}
    for a in range(1, 7):
        top = (a + att_mod) * att_strength
        for d in range(1, 7):
            den = (d + def_mod) * def_strength
            if den <= 0:
                quotient(a, att_mod, att_strength, d, def_mod, def_strength)    # raises
            q = top // den
            if q < 1:                                       # 8.71
                elim += 1
            elif q <= morale:                               # 8.72-8.74
                fail += 1
            else:                                           # 8.75
                success[q - morale] = success.get(q - morale, 0) + 1
    return elim, fail, dict(sorted(success.items()))


# --- modifiers (8.3, 8.4) ---------------------------------------------------------------------

def _row_mod(game: KbGame, table: str, cause: str) -> int:
    for row in game.scenario.tables[table]["row"]:
        if row["cause"] == cause:
            return int(row["mod"])
    raise KeyError(f"{table} has no row for {cause}")


def _units_in(game: KbGame, cells) -> list[int]:
    """The units on the map in any of ``cells``, ascending."""
    st = game.state
    on = np.flatnonzero(st.unit_status & Status.ON_MAP)
    want = np.zeros(game.scenario.map.n_cells, dtype=bool)
    want[list(cells)] = True
    return on[want[st.unit_cell[on]]].tolist()


def _direction(game: KbGame, a: int, b: int) -> int:
    row = game.scenario.map.neighbor_lists[a]
    for d in range(6):
        if row[d] == b:
            return d
    return -1


def terrain_modifier(game: KbGame, attackers, defender_cells) -> tuple[int, int]:
    """``(hex, hexside)`` terrain modifications of the defender's die (5.32, 8.4): the best hex
    among the defending hexes (8.26), and the river/excavation +1 only when every attacker
    attacks every defending hex across such a hexside ("solely across", 5.32 *)."""
    st = game.state
    cells = [int(c) for c in defender_cells]
    hex_mod = max(int(game.data.die_mod[c]) for c in cells)
    side_mod = game.data.side_mod
    across = None
    for a in sorted({int(st.unit_cell[u]) for u in attackers}):
        for c in cells:
            d = _direction(game, c, a)
            m = int(side_mod[c, d]) if d >= 0 else 0
            across = m if across is None else min(across, m)
    return hex_mod, (across or 0)


def attack_modifiers(game: KbGame, attackers, defender_cells, rolling: int = 0,
                     sos=()) -> tuple[int, int, int, dict]:
    """``(att_mod, def_mod, morale, details)`` of an attack as it would be resolved now.

    Attacker (8.3): +1 in fog (11.2, 17.4); +1 per Rolling Barrage point (9.52). Defender
    (8.4): the attackers' worst supply state (14.22-14.24, determined now, 14.11, with 17.5);
    each SOS barrage's points // 2 (9.62; ``sos`` lists the points of each defending stack's
    barrage); +1 for attackers of two or more corps (16.0); the terrain (5.32, 8.26).
    ``morale`` is the highest Morale Value among all the defending units (8.61, 8.62).
    """
    tables = game.scenario.tables
    attackers = [int(u) for u in attackers]
    cells = [int(c) for c in defender_cells]
    weather = int(game.arr("weather")[0])
    lim = tables["barrage_limits"]
    fog = _row_mod(game, "attacker_die_modifiers", "fog") if weather == FOG else 0
    roll_mod = int(rolling) * int(lim["rolling_die_per_point"])
    worst = supply.worst_state(game, attackers)
    supply_mod = supply.die_modifier(game, worst)
    sos_mod = sum(int(p) // int(lim["sos_points_per_die"]) for p in sos)
    corps = game.arr("corps")
    n_corps = len({int(corps[u]) for u in attackers})
    corps_mod = _row_mod(game, "defender_die_modifiers", "attack_by_two_or_more_corps") \
        if n_corps >= 2 else 0
    hex_mod, side_mod = terrain_modifier(game, attackers, cells)
    defenders = _units_in(game, cells)
    morale = max(units.morale(game, u) for u in defenders)
    details = {"fog": fog, "rolling": roll_mod, "supply": supply.STATE_NAMES[worst],
               "supply_mod": supply_mod, "sos": sos_mod, "corps": corps_mod,
               "terrain": hex_mod, "hexside": side_mod}
    return (fog + roll_mod, supply_mod + sos_mod + corps_mod + hex_mod + side_mod, morale,
            details)


# --- observation (9.7) ------------------------------------------------------------------------

def observed(game: KbGame, attackers, defender_cells) -> bool:
    """Whether an attack's target is observed for its Rolling Barrage (9.7): never in fog
    (9.74); an Air Observation marker on any defending stack (12.22); an attacker on a hilltop
    (9.75); or a line of at most 6 (clear) / 3 (mist) hexes from a participating attacker to a
    hilltop hex, counted like a supply line (attacker's hex exclusive, hilltop inclusive),
    through hexes free of enemy units and of enemy zones of control, a friendly-occupied hex
    negating the zone (9.72, 9.73)."""
    sc, st = game.scenario, game.state
    weather = int(game.arr("weather")[0])
    if weather == FOG:
        return False
    obs = game.arr("observed")
    if any(obs[int(c)] > 0 for c in defender_cells):
        return True
    att_cells = np.unique(st.unit_cell[np.asarray(list(attackers), dtype=np.int64)])
    hill = game.data.hilltop
    if hill[att_cells].any():
        return True
    rng = int(sc.tables["observation"]["hilltop_range"][weather])
    if rng <= 0:
        return False
    side = int(sc.units.side[int(next(iter(attackers)))])
    enemy = 1 - side
    closed = occupied(game, enemy) | (controlled(game, enemy) & ~occupied(game, side))
    m = sc.map
    cost = m.k.board.step_costs(m.neighbors, np.ones(m.n_cells, dtype=np.int16), closed=closed)
    dist, _ = kernels.workspace(m).run(cost, att_cells, limit=rng)
    return bool((hill & (dist[0] >= 0)).any())


# --- barrages (9.5, 9.6) ----------------------------------------------------------------------

def rolling_limit(game: KbGame, is_observed: bool) -> int:
    lim = game.scenario.tables["barrage_limits"]
    w = int(game.arr("weather")[0])
    return int((lim["rolling_observed"] if is_observed else lim["rolling"])[w])


def sos_limit(game: KbGame) -> int:
    return int(game.scenario.tables["barrage_limits"]["sos"][int(game.arr("weather")[0])])


def rolling_barrage(game: KbGame, side: int, attackers, defender_cells) -> int:
    """The attacker's one Rolling Barrage of an attack (9.5): up to 2 points in clear weather,
    1 in mist, 3/2 when observed (9.53), none in fog (9.51); Field points only if a defending
    hex is within range of a friendly HQ (9.11). Returns the points fired."""
    cells = [int(c) for c in defender_cells]
    limit = rolling_limit(game, observed(game, attackers, cells)) if \
        int(game.arr("weather")[0]) != FOG else 0
    if limit <= 0:
        return 0
    field_ok = artillery.field_in_range(game, side)
    target = next((c for c in cells if field_ok[c]), cells[0])
    opts = artillery.barrage_choices(game, side, target, 0, limit, field_ok)
    f, h = game.ask("kb.combat.rolling", side, opts, attackers=tuple(attackers),
                    target=tuple(cells), limit=limit)
    if f or h:
        artillery.spend(game, side, f, h, "rolling")
    return f + h


def sos_barrages(game: KbGame, side: int, defender_cells) -> list[int]:
    """The defender's SOS Barrages, one per defending stack (9.6): up to 4 points in clear
    weather, 2 in mist, none in fog (9.61), the stack within range (9.63). Returns the points
    of each stack's barrage."""
    limit = sos_limit(game)
    if limit <= 0:
        return []
    field_ok = artillery.field_in_range(game, side)
    out = []
    for c in sorted(int(c) for c in defender_cells):
        opts = artillery.barrage_choices(game, side, c, 0, limit, field_ok)
        f, h = game.ask("kb.combat.sos", side, opts, stack=c, limit=limit)
        if f or h:
            artillery.spend(game, side, f, h, "sos")
        out.append(f + h)
    return out


# --- losses, retreats, advances (8.5, 8.74, 8.75, 8.8) ----------------------------------------

def _lose_one(game: KbGame, unit: int, cause: str) -> int:
    """One step from ``unit``; returns the unit that now stands for it (a division's regimental
    replacement unit, 8.5[1], taking over its phase flags) or -1 if it is gone."""
    st = game.state
    cell = int(st.unit_cell[unit])
    before = set(_units_in(game, [cell]))
    units.lose_steps(game, unit, 1, cause)
    if st.unit_status[unit] & Status.ON_MAP:
        return unit
    for r in _units_in(game, [cell]):
        if r not in before:                      # the replacement unit placed in its hex
            flags = game.arr("flags")
            flags[r] |= flags[unit] & np.uint16(_PHASE_FLAGS)
            return r
    return -1


def take_losses(game: KbGame, owner: int, pool: list[int], n: int, cause: str) -> list[int]:
    """``n`` steps from the units of ``pool``, the owner picking the unit of each step
    (``kb.combat.loss``); returns the units left (replacement units in place of divisions)."""
    pool = [int(u) for u in pool]
    for _ in range(n):
        if not pool:
            break
        u = game.ask("kb.combat.loss", owner, sorted(pool), cause=cause)
        r = _lose_one(game, u, cause)
        pool.remove(u)
        if r >= 0:
            pool.append(r)
    return pool


def retreat_options(game: KbGame, cell: int, side: int) -> list[int]:
    """Adjacent hexes neither occupied nor controlled by the enemy (8.74); friendly units do
    not negate enemy zones here (6.33)."""
    enemy = 1 - side
    bad = occupied(game, enemy) | controlled(game, enemy)
    return [int(v) for v in game.scenario.map.neighbors[cell] if v >= 0 and not bad[v]]


def advance_points(game: KbGame, unit: int, die: int) -> int:
    """Movement Points of a unit's advance after combat (8.83, 17.3): the die times the
    multiplier of its kind (stosstruppen, never a replacement unit, 13.24; other German;
    Allied), fractions dropped."""
    sc = game.scenario
    tab = sc.tables["advance_after_combat"]
    key = "die_multiplier_turns_1_2" if int(game.state.turn) in OPENING_TURNS else "die_multiplier"
    if int(sc.units.side[unit]) == _ALLIED:
        kind = ALLIED
    else:
        kind = STOSS if is_stoss(game, unit) else OTHER_GERMAN
    return int(die * float(tab[key][list(tab["units"]).index(kind)]))


def is_stoss(game: KbGame, unit: int) -> bool:
    sc = game.scenario
    return bool(int(sc.units.side[unit]) == _CENTRAL and sc.units.extra["stoss"][unit]
                and not game.data.replacement[unit])


def advance_routes(game: KbGame, unit: int, points: int, vacated) -> dict[int, list[int]]:
    """Where a victorious unit may end its advance (8.84): ``{cell: path}``, the path (cells
    entered) starting with a hex the defenders vacated, at normal Movement Point costs (gas
    doubling them, 9.34[1]); non-stosstruppen stop on entering an enemy-controlled hex,
    stosstruppen ignore zones of control. Its own hex (staying) is not listed."""
    sc, st = game.scenario, game.state
    m = sc.map
    n = m.n_cells
    here = int(st.unit_cell[unit])
    cost = step_costs(game, unit)
    stoss = is_stoss(game, unit)
    ezoc = controlled(game, 1 - int(sc.units.side[unit]))
    out: dict[int, list[int]] = {}
    sources, src_cost = [], []
    for v in sorted(int(c) for c in vacated):
        d = _direction(game, here, v)
        if d < 0 or cost[here, d] < 0 or int(cost[here, d]) > points:
            continue                             # 8.84[1]: cannot enter the first hex
        if not stoss and ezoc[v]:
            out[v] = [v]                         # 8.84[2]: halts at once
            continue
        sources.append(v)
        src_cost.append(int(cost[here, d]))
    if sources:
        stop = None if stoss else ezoc.astype(np.uint8)
        dist, pred = m.k.search.bounded_search(m.neighbors, cost, sources,
                                               source_cost=np.asarray(src_cost, np.int32),
                                               limit=points, stop=stop)
        for c in np.flatnonzero(dist[0] >= 0):
            c = int(c)
            if c == here or c in out:
                continue
            path, s = [], c
            while s >= 0:
                path.append(s % n)
                s = int(pred[0, s])
            out[c] = path[::-1]
    out.pop(here, None)
    return out


def advance(game: KbGame, side: int, victors, vacated) -> None:
    """Advance after combat (8.83-8.87): one die for all; each unit in turn picks where to end
    (``kb.combat.advance``, its own hex to stay, 8.85); a unit ending adjacent to an enemy unit
    may not fight again this phase (8.87, ``Flag.ADVANCED``)."""
    st = game.state
    die = game.roll("combat", "advance after combat")
    game.event("advance_die", side=side, die=die)
    m = game.scenario.map
    for u in sorted(int(x) for x in victors):
        if not st.unit_status[u] & Status.ON_MAP:
            continue
        here = int(st.unit_cell[u])
        pts = advance_points(game, u, die)
        routes = advance_routes(game, u, pts, vacated) if pts > 0 else {}
        dest = game.ask("kb.combat.advance", side, [here] + sorted(routes), unit=u, points=pts)
        if dest == here:
            continue
        units.move_unit(game, u, routes[dest])
        game.event("advance", unit=u, path=tuple(routes[dest]))
        nb = m.neighbors[dest]
        if occupied(game, 1 - side)[nb[nb >= 0]].any():
            game.set_flag(u, Flag.ADVANCED)


# --- one attack -------------------------------------------------------------------------------

def resolve_attack(game: KbGame, side: int, attackers, defender_cells) -> dict:
    """Resolve one declared attack (8.0[1]-[5], 8.7, 8.8) with its barrages; returns what
    happened (``result``, ``quotient``, dice, modifiers)."""
    st = game.state
    flags = game.arr("flags")
    attackers = sorted(int(u) for u in attackers)
    cells = sorted(int(c) for c in defender_cells)
    enemy = 1 - side
    defenders = _units_in(game, cells)
    for u in attackers:
        flags[u] |= np.uint16(Flag.ATTACKED)
    for u in defenders:
        flags[u] |= np.uint16(Flag.DEFENDED)
    game.event("attack", side=side, attackers=tuple(attackers), defenders=tuple(cells))
    rolling = rolling_barrage(game, side, attackers, cells)
    sos = sos_barrages(game, enemy, cells)
    att_mod, def_mod, morale, details = attack_modifiers(game, attackers, cells, rolling, sos)
    att_str = sum(units.combat(game, u) for u in attackers)
    def_str = sum(units.combat(game, u) for u in defenders)
    a = game.roll("combat", "attacker")
    d = game.roll("combat", "defender")
    q = quotient(a, att_mod, att_str, d, def_mod, def_str)
    kind, steps = classify(q, morale)
    out = {"result": kind, "steps": steps, "quotient": q, "att_die": a, "def_die": d,
           "att_mod": att_mod, "def_mod": def_mod, "morale": morale, "att_strength": att_str,
           "def_strength": def_str, **details}
    game.event("combat", **out)
    if kind == ATTACKER_ELIMINATED:                                         # 8.71
        for u in attackers:
            if st.unit_status[u] & Status.ON_MAP:
                units.eliminate(game, u, "combat")
    elif kind == UNSUCCESSFUL:                                              # 8.72, 8.74
        by_cell: dict[int, list[int]] = {}
        for u in attackers:
            by_cell.setdefault(int(st.unit_cell[u]), []).append(u)
        for cell, stack in sorted(by_cell.items()):
            stack = take_losses(game, side, stack, 1, "combat")
            if not stack:
                continue
            opts = retreat_options(game, cell, side)
            if opts:
                dest = game.ask("kb.combat.retreat", side, opts, stack=tuple(stack), cell=cell)
                for u in stack:
                    units.move_unit(game, u, [dest])
                game.event("retreat", units=tuple(stack), to=dest)
            else:
                take_losses(game, side, stack, 1, "retreat")
    else:                                                                   # 8.73, 8.75
        left = take_losses(game, enemy, defenders, steps, "combat")
        for u in left:
            flags[u] |= np.uint16(Flag.DEFENDED)
        if not _units_in(game, cells):                                      # 8.83
            advance(game, side, attackers, cells)
    return out


# --- the phase --------------------------------------------------------------------------------

@dataclass
class _Obligations:
    """The attack obligations of one Combat Phase (8.11, 8.12, 8.13, 8.21) and what is left:
    the questions of the current position are those of the kernel ``KbObligations`` of the
    map's kernels (``play``; its twin reads as the rules), made again by ``refresh``."""

    side: int
    units: frozenset          # obligated units (8.12), fixed at the start of the phase
    stacks: frozenset         # obligated enemy stacks (8.11), fixed at the start
    attacked: set = field(default_factory=set)    # units that have attacked (8.14)
    defended: set = field(default_factory=set)    # cells attacked (8.14, 8.23)
    k: object = None          # the KbObligations of the position
    masks: tuple | None = None  # ``units`` and ``stacks`` as the kernel's uint8 masks

    def refresh(self, game: KbGame) -> None:
        sc, st = game.scenario, game.state
        target = occupied(game, 1 - self.side)
        if self.defended:
            target[list(self.defended)] = False
        flags = game.arr("flags")
        free = ((st.unit_status & Status.ON_MAP) != 0) & (sc.units.side == self.side)
        free &= (flags & (Flag.ATTACKED | Flag.ADVANCED)) == 0
        if self.attacked:
            free[list(self.attacked)] = False
        if self.masks is None:                   # fixed for the phase: made once
            obligated = np.zeros(sc.units.n, dtype=np.uint8)
            obligated[list(self.units)] = 1
            stacks = np.zeros(sc.map.n_cells, dtype=np.uint8)
            stacks[list(self.stacks)] = 1
            self.masks = obligated, stacks
        self.k = sc.map.k.play.KbObligations(sc.map.neighbors, target.view(np.uint8),
                                             np.flatnonzero(free).astype(np.int32),
                                             st.unit_cell, *self.masks)

    @property
    def o_left(self) -> list[int]:
        return self.k.o_left

    @property
    def m_left(self) -> list[int]:
        return self.k.m_left

    def feasible(self, members, d) -> bool:
        return self.k.feasible(members, d)

    def compulsory(self, d) -> list[int]:
        return self.k.compulsory(d)

    def candidates(self, d, exclude=()) -> list[int]:
        return self.k.candidates(d, exclude)

    def targets(self) -> list[tuple[int, ...]]:
        return self.k.targets()

    def pending(self) -> bool:
        return self.k.pending()


def _next_to(game: KbGame, us: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(near, hit)``: the six hexes around each of the units ``us`` (-1 off the map) and
    which of them are in ``mask``."""
    near = game.scenario.map.neighbors[game.state.unit_cell[us]]
    return near, (near >= 0) & mask[near]


def obligations(game: KbGame, side: int) -> _Obligations:
    """The obligations at the start of a Combat Phase: phasing units adjacent to the enemy and
    not in a town or trench hex (8.12, 8.13, 10.0), and the enemy stacks next to them (8.11)."""
    sc, st = game.scenario, game.state
    enemy_occ = occupied(game, 1 - side)
    exempt = game.data.town | game.data.trench
    mine = np.flatnonzero(((st.unit_status & Status.ON_MAP) != 0) & (sc.units.side == side))
    mine = mine[~exempt[st.unit_cell[mine]]]
    near, hit = _next_to(game, mine, enemy_occ)
    ob = _Obligations(side, frozenset(mine[hit.any(axis=1)].tolist()),
                      frozenset(near[hit].tolist()))
    ob.refresh(game)
    return ob


#: the engine whose ``COMPILED_RANDOM_MOVES`` hands a random player's declarations to a kernel
_ENGINE = "gwe_fast.games.kb.engine"
#: the decisions of a declaration, as ``KbObligations.random_declare`` numbers them
_DECLARATION_KINDS = ("kb.combat.target", "kb.combat.join")


def declare_attack(game: KbGame, ob: _Obligations) -> tuple[list[int], tuple[int, ...]] | None:
    """The attacker's next attack: ``(attackers, defender cells)``, or None when he stops. A
    random player's is drawn whole by the kernel (``KbObligations.random_declare``), its
    choices logged as ``PlayedGame.ask`` logs them."""
    side = ob.side
    if picks_at_random(game, side, _ENGINE):
        attack, draws = ob.k.random_declare(game.rngs[side])
        if game.events is not None:
            turn = int(game.state.turn)
            game.events.extend(("choice", turn, _DECLARATION_KINDS[kind], int(side), pick)
                               for kind, _, pick in draws)
        return attack
    opts: list = ob.targets()
    if not ob.pending():
        opts.append(DONE)
    elif not opts:                               # cannot happen: every attack keeps it feasible
        raise RuntimeError(f"combat obligations left that no attack can meet: units "
                           f"{ob.o_left}, stacks {ob.m_left}")
    if not opts:
        return None
    choice = game.ask("kb.combat.target", side, opts, obligations=len(ob.o_left) + len(ob.m_left))
    if choice == DONE:
        return None
    d = frozenset(choice)
    members = set(ob.compulsory(d))
    cands = ob.candidates(d, exclude=members)
    for i, x in enumerate(cands):
        yes = ob.feasible(members | {x}, d)
        no = bool(members) or any(ob.feasible({z}, d) for z in cands[i + 1:])
        pick = game.ask("kb.combat.join", side, [o for o, ok in ((True, yes), (False, no)) if ok],
                        unit=x, target=tuple(sorted(d)))
        if pick:
            members.add(x)
    return sorted(members), tuple(sorted(d))


def combat_phase(game: KbGame, side: int) -> None:
    """The phasing side's whole Combat Phase (4.2 E3/F2, 8.0): attacks declared and resolved
    one at a time until every obligation is met and the attacker stops; then the Air
    Observation markers come off (12.22)."""
    flags = game.arr("flags")
    flags[:] &= ~np.uint16(_PHASE_FLAGS)
    game.event("combat_phase", side=side)
    ob = obligations(game, side)
    while True:
        attack = declare_attack(game, ob)
        if attack is None:
            break
        attackers, cells = attack
        resolve_attack(game, side, attackers, cells)
        ob.attacked.update(attackers)
        ob.defended.update(cells)
        ob.refresh(game)
    game.arr("observed")[:] = 0
