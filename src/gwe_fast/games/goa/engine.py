"""The reference engine of The Guns of August: the month, phase by phase, as a generator.

``play(t, s, dice)`` is a generator: it runs the game until a player must decide, yields an
``Ask`` (the kind of decision, the deciding side, the legal options as integer codes and
what the decision is about), and continues with the index of the chosen option sent back.
It returns when the game is over. This is the readable statement of the sequence of play;
the compiled core (``_core/goa``) follows it decision by decision and die by die, and the
parity tests hold the two together.

The month (a stand-in for the base game's turn, ordered as the variants order their phases):

1. Morale Phase, in the months of ``roll_months``: the roll trade (V._1 = M._7, both sides in
   secret), every belligerent's morale roll (base table, M._1-M._9, S._12, S._14).
2. Reinforcement Phase: American reinforcements; personnel and supply points (P table,
   P._12-P._19); in the roll months the entry rolls (V._1-V._9) or, without the variant,
   the base game's entries; the gift of a dreadnought to Turkey (V._4); Germany's invasion
   of Belgium or the Netherlands (V._2); marines (N.96); last, economic mobilization and
   conscription (P._11: "once they have completed all other actions").
3. Naval Phase (naval variant, N.21-N.22; the colonial variant's squadron steps, C.33-C.34,
   are folded in): squadron orders in secret, naval combat, repair, unrestricted submarine
   warfare, blockades and their supply losses, then in secret supply sent by sea and land
   units moved by sea, amphibious invasions; squadrons left in ports their side does not
   control are scuttled or taken (N.34).
4. Colonial Phase (colonial variant): colonial moves and combat (C.5-C.6).
5. Land Phase (stand-in): the land war, historical or by fronts.
6. Inter-Player Turn: Britain's entry if provoked (V._2), conquest by occupation (S._12),
   S._15, victory.
"""

from __future__ import annotations

from dataclasses import dataclass

from gwe_fast.games.goa import economy, entry, land, morale, naval, surrender, victory
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Kind
from gwe_fast.games.goa.model import MONTH, RESULT, GoaState, GoaTables
from gwe_fast.games.goa.world import at_war, belligerents


@dataclass(frozen=True)
class Ask:
    """A decision: ``kind`` (``codes.Kind``), the deciding ``side``, the legal ``options``
    (integer codes, see each kind's rule module), what it is about (``subject``: a country,
    squadron or area, -1), and whether it is part of a secret simultaneous choice."""

    kind: int
    side: int
    options: tuple
    subject: int = -1
    secret: bool = False


def ask(kind: int, side: int, options, subject: int = -1, secret: bool = False):
    """Ask, unless there is only one option (then it is taken without asking)."""
    options = tuple(options)
    if len(options) == 1:
        return options[0]
    i = yield Ask(kind, side, options, subject, secret)
    return options[i]


def play(t: GoaTables, s: GoaState, dice, after_month=None):
    """The whole game from ``s`` (a generator; see the module's docstring).
    ``after_month(month)`` is called at the end of each month played."""
    month = int(s.scalars[MONTH])
    while s.scalars[RESULT] == 0:
        yield from play_month(t, s, dice, month)
        if s.scalars[RESULT] == 0 and month >= t.last_month:
            victory.end_of_game(t, s, month)
        if after_month is not None:
            after_month(month)
        month += 1
        if s.scalars[RESULT] == 0:
            s.scalars[MONTH] = month


def play_month(t: GoaTables, s: GoaState, dice, month: int):
    s.scalars[MONTH] = month
    s.received[:] = 0
    extra_entry = yield from morale_phase(t, s, dice, month)
    yield from reinforcement_phase(t, s, dice, month, extra_entry)
    if t.options["naval"]:
        yield from naval_phase(t, s, dice, month)
    if t.options["colonies"]:
        from gwe_fast.games.goa import colonial

        yield from colonial.colonial_phase(t, s, dice, month)
    yield from land_phase(t, s, dice, month)
    entry.britain_provoked(t, s, month)              # V._2
    surrender.occupation_conquests(t, s, month)
    surrender.abandoned_off_map_ports(t, s, month)
    victory.check(t, s, month)


# -- 1. morale ---------------------------------------------------------------------------------

def month_rolls(t: GoaTables, s: GoaState, month: int) -> list[tuple[int, int, int]]:
    """The month's rolls, ``(kind, country, modifier)``: the morale rolls of every
    belligerent, then the entry rolls (variable entry variant), modifiers fixed now."""
    rolls = [(morale.MORALE_ROLL, c, morale.morale_modifier(t, s, c, month))
             for c in morale.morale_rollers(t, s)]
    if t.options["variable_entry"]:
        rolls += [(morale.ENTRY_ROLL, c, entry.entry_modifier(t, s, c))
                  for c in entry.rolls_for_entry(t, s)]
    return rolls


def morale_phase(t: GoaTables, s: GoaState, dice, month: int):
    """Returns the entry rolls with their trade modifiers, for the Reinforcement Phase."""
    if not morale.roll_month(t, month):
        return []
    rolls = month_rolls(t, s, month)
    extra = [0] * len(rolls)
    picks = {}
    trade = t.options["variable_entry"] or t.options["morale"]
    for side in (ALLIED, CENTRAL):        # V._1 = M._7, in secret
        if trade and belligerents(t, s, side):
            picks[side] = yield from ask(Kind.TRADE, side,
                                         morale.trade_options(t, s, rolls, side), secret=True)
    for side, code in picks.items():
        morale.apply_trade(t, s, rolls, side, code, extra)
    results = []
    for i, (kind, c, mod) in enumerate(rolls):
        if kind == morale.MORALE_ROLL:
            results.append((c, morale.morale_table(t, dice.die() + mod + extra[i])))
    for c, result in results:
        morale.new_roll_period(s, c)
        morale.apply_morale(t, s, c, result, month)
    return [(c, mod + extra[i]) for i, (kind, c, mod) in enumerate(rolls)
            if kind == morale.ENTRY_ROLL]


# -- 2. reinforcements ---------------------------------------------------------------------------

def reinforcement_phase(t: GoaTables, s: GoaState, dice, month: int, entry_rolls):
    economy.reinforce(t, s, month)
    economy.produce(t, s, month)
    if t.options["colonies"]:
        from gwe_fast.games.goa import colonial

        colonial.japanese_forces(t, s, month)
    if t.options["variable_entry"]:
        if morale.roll_month(t, month):
            for c, mod in entry_rolls:
                if s.conquered[c] < 0:
                    entry.apply_entry_roll(t, s, c, dice.die() + mod, month)
            s.med_blockade[:] = 0
            s.usw_since_roll[:] = 0
    else:
        entry.base_entries(t, s, month)
    for side in (CENTRAL, ALLIED):        # V._4
        options = entry.gift_options(t, s, side, month)
        if options:
            q = yield from ask(Kind.GIFT, side, [-1] + options)
            if q >= 0:
                entry.give(t, s, side, q)
            elif side == CENTRAL and month == 0 and t.goeben >= 0:
                s.squadron_base[t.goeben] = t.trieste_port
    options = entry.invadable(t, s)                  # V._2
    if options:
        bits = [0] + [1 << i for i in range(len(options))]
        if len(options) == 2:
            bits.append(3)
        pick = yield from ask(Kind.INVADE, CENTRAL, bits)
        for i, c in enumerate(options):
            if pick & (1 << i):
                entry.invade(t, s, c, month)
    if t.options["naval"]:
        yield from marines(t, s, month)
    for side in (ALLIED, CENTRAL):         # P._11: last of the phase
        for c in belligerents(t, s, side):
            if not economy.may_change_policy(t, s, c, month):
                continue
            on = s.mobilized[c] >= 0
            if (yield from ask(Kind.ECONOMY, side, (0, 1), subject=c)):
                economy.set_mobilization(t, s, c, not on, month)
            on = s.conscription[c] == 1
            if (yield from ask(Kind.CONSCRIPTION, side, (0, 1), subject=c)):
                economy.set_conscription(t, s, c, not on)


def marines(t: GoaTables, s: GoaState, month: int):
    """N.96: once every American reinforcement has arrived, the Allies may convert up to
    three American infantry units into marines (five personnel and five supply points
    each), placed at home three months later."""
    u = t.united_states
    if u < 0 or not at_war(s, u) or month < economy.us_ready_month(t, s):
        return
    left = 3 - int(s.marines[0])
    n_max = min(left, int(s.army[u]) // (t.corps + 5), int(s.supply[u]) // 5)
    if n_max <= 0:
        return
    n = yield from ask(Kind.MARINES, ALLIED, range(n_max + 1), subject=u)
    if n:
        s.army[u] -= n * (t.corps + 5)
        s.supply[u] -= 5 * n
        s.marines[0] += n
        s.marines[2 + (month + naval.MARINE_DELAY) % 4] += n


# -- 3. naval ----------------------------------------------------------------------------------

def naval_phase(t: GoaTables, s: GoaState, dice, month: int):
    naval.marines_arrive(s, month)                  # N.96
    s.blockade_prev[:] = s.blockade
    s.screen[:] = 0
    s.moved[:] = 0
    s.in_combat[:] = 0
    s.supported[:] = 0
    s.sortie_won[:] = -1
    s.squadron_sortie[:] = -1
    s.shipped[:] = 0
    # N.21, N.32-N.35: every squadron's order, each side in secret
    orders = {}
    for side in (ALLIED, CENTRAL):
        for q in naval.active_squadrons(t, s, side):
            orders[q] = yield from ask(Kind.SQUADRON, side,
                                       naval.squadron_options(t, s, q, orders),
                                       subject=q, secret=True)
    for q, code in orders.items():
        naval.apply_order(s, q, code)
    # N.4 / N.41-N.46: naval combat, area by area
    from gwe_fast.games.goa import naval_combat

    forgo = [[0] * t.n_areas for _ in range(2)]
    subs = {}
    for side in (ALLIED, CENTRAL):         # N.45
        for a in naval.submarine_areas(t, s, side):
            subs[(side, a)] = yield from ask(Kind.SUBMARINE, side, (0, 1), subject=a)
    for a in range(t.n_areas):
        both = naval.sortied(t, s, a, ALLIED) and naval.sortied(t, s, a, CENTRAL)
        sub_side = next((side for side in (ALLIED, CENTRAL) if subs.get((side, a))), -1)
        if both or sub_side >= 0:
            if sub_side >= 0:
                forgo[sub_side][a] = 1
            yield from naval_combat.fight(t, s, dice, a, month, sub_side)
    naval.repair(t, s)
    # N.64: unrestricted submarine warfare, after all naval combat
    if month >= t.usw_from:
        for side in (ALLIED, CENTRAL):
            if not belligerents(t, s, side):
                continue
            on = yield from ask(Kind.USW, side, (0, 1))
            if on:
                if s.usw[side] < 0:
                    s.usw[side] = month
                s.usw_since_roll[side] = 1
                s.usw_months[side] += 1
            else:
                s.usw[side] = -1
    # N.61-N.63, N.69: blockades imposed or renewed, else lifted
    for a in range(t.n_areas):
        for side in (ALLIED, CENTRAL):
            s.blockade[a, side] = 0
            if not t.a_in_play[a] or forgo[side][a] or not belligerents(t, s, side):
                continue
            mod = naval.blockade_modifier(t, s, a, side, month)
            if 6 + mod >= 7 and dice.die() + mod >= 7:
                s.blockade[a, side] = 1
                s.blockade_months[a, side] += 1
    for side in (ALLIED, CENTRAL):         # V._3
        if t.east_med >= 0 and s.blockade[t.east_med, side] and s.blockade[t.west_med, side]:
            s.med_blockade[side] = 1
    naval.apply_blockade_losses(t, s)                # N.66, C.45
    # N.71-N.79, N.81-N.85: supply and land units by sea, each side in secret (a side's
    # shipping changes nothing the other side may choose, so each move is made as it is
    # chosen, and the engine asks again until the player stops or N.85's capacity is used)
    sends = {}
    for side in (ALLIED, CENTRAL):
        for c in belligerents(t, s, side):
            sends[c] = yield from ask(Kind.SEND_SUPPLY, side, economy.supply_options(t, s, c),
                                      subject=c, secret=True)
            while True:
                code = yield from ask(Kind.SHIP, side, naval.ship_options(t, s, c),
                                      subject=c, secret=True)
                if not code:
                    break
                naval.ship(t, s, c, code)
    for c, code in sends.items():
        economy.send_supply(t, s, c, code)
    economy.russian_sea_supply(t, s)
    yield from naval_combat.invasions(t, s, dice, month)
    naval.stranded(t, s, dice)                       # N.34, at the end of the phase


# -- 5. land -----------------------------------------------------------------------------------

def land_phase(t: GoaTables, s: GoaState, dice, month: int):
    if t.options["land"] == "historical":
        land.historical_events(t, s, month)
    else:
        short = land.upkeep(t, s)
        orders = [0] * t.n_countries
        for side in (ALLIED, CENTRAL):     # in secret
            for c in belligerents(t, s, side):
                orders[c] = yield from ask(Kind.LAND, side, land.land_options(t, s, c, month),
                                           subject=c, secret=True)
        land.fight_fronts(t, s, orders, short, month, dice.die)
    if t.options["surrender"] or t.options["morale"]:    # S._14, M._6
        for c in surrender.triple_targets(t, s):
            triple = yield from ask(Kind.GARRISON, CENTRAL, (0, 1), subject=c)
            surrender.set_triple(t, s, c, bool(triple))
