"""Entry into the war: Variable Entry (V._1-V._9), the base game's entry, invasions, gifts.

A neutral's entry is one roll of a die, modified (``entry_modifier``): below 1 it joins the
Allies, above 6 the Central Powers, 1-6 it stays neutral (V._1), unless V._9 forbids the
side it would join voluntarily. Britain has its own scale (V._2).
"""

from __future__ import annotations

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, NEUTRAL, Damage, Ship
from gwe_fast.games.goa.model import GoaState, GoaTables
from gwe_fast.games.goa.world import at_war


def join(t: GoaTables, s: GoaState, c: int, side: int, month: int, limited: bool = False) -> None:
    """Country ``c`` enters the war on ``side`` this month (S._11: for good, unless
    conquered; Britain may leave again from limited participation, V._2)."""
    first = s.entered[c] < 0
    s.side[c] = side
    s.limited[c] = 1 if limited else 0
    if first:
        s.entered[c] = month
    for k in range(t.n_cities):
        if t.k_country[k] == c and s.city[k] == NEUTRAL:
            s.city[k] = side
    if first:                         # M._1: control of the cities on its entry into the war
        for k in range(t.n_cities):
            s.entry_city[c, k] = s.city[k]
    for l in range(t.n_colonies):
        own = t.l_owner[l] == c or (c == t.japan and t.l_kind[l] == 5)   # Japan's islands
        if own and s.colony[l] == NEUTRAL:
            s.colony[l] = side
    if limited or not first:
        return
    # M._5: Italy's or the USA's entry lifts the morale of those already at war beside it
    if c in (t.italy, t.united_states):
        for d in range(t.n_countries):
            if d != c and at_war(s, d) and s.side[d] == side and s.entered[d] < month:
                s.joined_with[d] += 1
    # C.66: on Turkish entry, Libya and Darfur count as Turkish colonies, Arabia as a
    # belligerent of the other side
    if c == t.turkey:
        for l in range(t.n_colonies):
            if t.l_kind[l] == 3 and s.colony[l] == NEUTRAL:
                s.colony[l] = side
            elif t.l_kind[l] == 4 and s.colony[l] == NEUTRAL:
                s.colony[l] = 1 - side


def leave(t: GoaTables, s: GoaState, c: int) -> None:
    """Britain becomes neutral again after limited participation (V._2): its cities and the
    colonies it still holds turn neutral, and every British unit withdraws to British
    territory at once (the stand-in has no movement to spread it over): land forces abroad
    and in colonies not British come home, squadrons based outside British ports go to a
    British port sharing a sea area with their base (else the first British port)."""
    s.side[c] = NEUTRAL
    s.limited[c] = 0
    for k in range(t.n_cities):
        if t.k_country[k] == c:
            s.city[k] = NEUTRAL
    for h in range(t.n_countries):
        s.army[c] += s.abroad[c, h]
        s.abroad[c, h] = 0
    for l in range(t.n_colonies):
        if t.l_owner[l] == c:
            if s.colony[l] == ALLIED:
                s.colony[l] = NEUTRAL
        elif s.col_units[l, c]:
            s.army[c] += int(s.col_units[l, c]) * t.corps
            s.col_units[l, c] = 0
            s.col_af[l, c] = 0
    home = [p for p in range(t.n_ports) if t.p_country[p] == c and t.p_in_play[p]]
    for q in range(t.n_squadrons):
        b = int(s.squadron_base[q])
        if s.squadron_country[q] != c or b < 0 or s.squadron_damage[q] == Damage.SUNK:
            continue
        s.squadron_sortie[q] = -1
        s.returning[q] = -1
        if (b < t.n_ports and t.p_country[b] == c) or not home:
            continue
        areas = t.p_area[b] if b < t.n_ports else t.l_area[b - t.n_ports]
        near = [p for p in home if any(t.p_area[p, a] and areas[a] for a in range(t.n_areas))]
        s.squadron_base[q] = (near or home)[0]


def provoked(t: GoaTables, s: GoaState) -> bool:
    """V._2: Germany has invaded Belgium or the Netherlands, or the Central Powers hold a
    city of Britain, Belgium or the Netherlands (they have invaded it)."""
    for c in (t.belgium, t.netherlands):
        if c >= 0 and s.invaded[c]:
            return True
    return any(s.city[k] == CENTRAL and t.k_country[k] in (t.britain, t.belgium,
                                                                  t.netherlands)
               for k in range(t.n_cities))


def britain_provoked(t: GoaTables, s: GoaState, month: int) -> None:
    """V._2: once provoked, Britain is at war in full, neutral or limited before."""
    b = t.britain
    if b < 0 or s.conquered[b] >= 0 or not (s.side[b] == NEUTRAL or s.limited[b]):
        return
    if not provoked(t, s):
        return
    if s.side[b] == NEUTRAL:
        join(t, s, b, ALLIED, month)
    else:
        s.limited[b] = 0


def rolls_for_entry(t: GoaTables, s: GoaState) -> list[int]:
    """The countries whose entry is rolled for this month (V._1), in table order: every
    neutral that may enter by a roll, and Britain while a limited participant (V._2)."""
    out = []
    for c in range(t.n_countries):
        if not t.c_rolls[c] or s.conquered[c] >= 0:
            continue
        if c == t.japan and not t.options["colonies"]:
            continue          # V._6: Japan's entry is rolled only with the colonial variant
        if s.side[c] == NEUTRAL or (c == t.britain and s.limited[c]):
            out.append(c)
    return out


def entry_modifier(t: GoaTables, s: GoaState, c: int) -> int:
    """The modifiers of ``c``'s entry roll (negative pulls toward the Allies)."""
    m = 0
    if c == t.britain and s.limited[c]:
        m -= 1                                                     # V._2
    if c == t.italy:                                               # V._3
        m += (1 if s.med_blockade[CENTRAL] else 0) - (1 if s.med_blockade[ALLIED] else 0)
    if c == t.turkey:                                              # V._4
        m += -1 if s.gift_turkey[ALLIED] else 1
        m += 1 if s.gift_turkey[CENTRAL] else 0
    if c == t.japan:                                               # V._6
        m -= 1 if _in_pacific_colonies(t, s, t.germany) else 0
        m += 1 if _allied_in_pacific_colonies(t, s) else 0
        m -= 1 if (t.united_states >= 0 and at_war(s, t.united_states)
                   and s.side[t.united_states] == ALLIED) else 0
    if c == t.united_states and t.japan >= 0 and at_war(s, t.japan) and _japan_abroad(t, s):
        m += -1 if s.side[t.japan] == CENTRAL else 1          # V._6
    if c in (t.britain, t.united_states):                          # V._7 = N.64
        m += (1 if s.usw_since_roll[ALLIED] else 0) - (1 if s.usw_since_roll[CENTRAL] else 0)
    group = t.c_group[c]
    if group >= 0:                                                 # V._8
        joined = [0, 0]
        for d in range(t.n_countries):
            if d != c and t.c_group[d] == group and s.entered[d] >= 0 and not s.limited[d] \
                    and s.side[d] != NEUTRAL:
                joined[s.side[d]] = 1
        m += joined[CENTRAL] - joined[ALLIED]
    return m


def entry_outcome(t: GoaTables, s: GoaState, c: int, total: int) -> tuple[int, bool]:
    """``(side, limited)`` a modified entry roll gives: V._1, Britain's scale (V._2), V._9."""
    if c == t.britain:
        if total < 1:
            return ALLIED, False
        if total <= 5:
            # V._2: a limited participant only while the Central Powers have invaded
            # neither Britain, Belgium nor the Netherlands (else it is at war in full)
            return ALLIED, not provoked(t, s)
        return NEUTRAL, False
    if total < 1 and t.c_may_join[c, ALLIED]:
        return ALLIED, False
    if total > 6 and t.c_may_join[c, CENTRAL]:
        return CENTRAL, False
    return NEUTRAL, False


def apply_entry_roll(t: GoaTables, s: GoaState, c: int, total: int, month: int) -> None:
    side, limited = entry_outcome(t, s, c, total)
    if c == t.britain:
        if side == NEUTRAL:
            if s.limited[c]:
                leave(t, s, c)
        elif not limited:
            join(t, s, c, ALLIED, month)
        elif s.side[c] == NEUTRAL:
            join(t, s, c, ALLIED, month, limited=True)
        return
    if side != NEUTRAL:
        join(t, s, c, side, month)


def base_entries(t: GoaTables, s: GoaState, month: int) -> None:
    """Without the variable entry variant: the base game's entries (stand-in: the historical
    months, ``base_entry``)."""
    for i in range(t.base_entry.shape[0]):
        c, m, side = (int(x) for x in t.base_entry[i])
        if m == month and s.side[c] == NEUTRAL and s.conquered[c] < 0:
            join(t, s, c, side, month)


def invadable(t: GoaTables, s: GoaState) -> list[int]:
    """Neutrals Germany may invade (V._2): Belgium and the Netherlands, while neutral and
    Germany is at war."""
    if not at_war(s, t.germany):
        return []
    return [c for c in (t.belgium, t.netherlands)
            if c >= 0 and s.side[c] == NEUTRAL and s.conquered[c] < 0]


def invade(t: GoaTables, s: GoaState, c: int, month: int) -> None:
    """Germany invades ``c``: it joins the Allies (V._9 forbids nothing here: it does not
    join voluntarily), and Britain enters the war on the Allied side in full, able to act
    this same month (V._2)."""
    join(t, s, c, ALLIED, month)
    s.invaded[c] = 1
    britain_provoked(t, s, month)


def gift_options(t: GoaTables, s: GoaState, side: int, month: int) -> list[int]:
    """V._4: the squadrons ``side`` may give to Turkey this month.

    The Central Powers: the German battlecruiser squadron in the Mediterranean, in August
    1914 only (else it must be placed in Trieste). The Allies: a dreadnought battleship or
    battlecruiser squadron of a full or partial Allied belligerent, any month after August
    1914 while Turkey is neutral, once."""
    tur = t.turkey
    if tur < 0 or s.side[tur] != NEUTRAL or s.gift_turkey[side]:
        return []
    if side == CENTRAL:
        g = t.goeben
        if month == 0 and g >= 0 and s.squadron_country[g] == t.germany and s.squadron_damage[g] < 3:
            return [g]
        return []
    if month == 0:
        return []
    return [q for q in range(t.n_squadrons)
            if s.squadron_base[q] >= 0 and s.squadron_damage[q] < 3
            and t.q_kind[q] in (Ship.DREADNOUGHT, Ship.BATTLECRUISER)
            and at_war(s, int(s.squadron_country[q]))
            and s.side[s.squadron_country[q]] == ALLIED]


def give(t: GoaTables, s: GoaState, side: int, q: int) -> None:
    """Squadron ``q`` becomes Turkish and is based in Constantinople (V._4)."""
    s.squadron_country[q] = t.turkey
    s.squadron_base[q] = t.constantinople_port
    s.squadron_sortie[q] = -1
    s.gift_turkey[side] = 1


def _colonial_presence(t: GoaTables, s: GoaState, countries, area: int) -> bool:
    """Land units or squadrons of ``countries`` in colonies adjacent to sea area ``area``."""
    for l in range(t.n_colonies):
        if not t.l_area[l, area]:
            continue
        for c in countries:
            if s.col_units[l, c] > 0:
                return True
        for q in range(t.n_squadrons):
            if s.squadron_base[q] == t.n_ports + l and s.squadron_country[q] in countries \
                    and s.squadron_damage[q] < 3:
                return True
    return False


def _in_pacific_colonies(t, s, c) -> bool:
    return c >= 0 and t.east_pacific >= 0 and _colonial_presence(t, s, (c,), t.east_pacific)


def _allied_in_pacific_colonies(t, s) -> bool:
    allies = [c for c in range(t.n_countries) if c != t.japan and at_war(s, c)
              and s.side[c] == ALLIED]
    return t.east_pacific >= 0 and _colonial_presence(t, s, allies, t.east_pacific)


def _japan_abroad(t: GoaTables, s: GoaState) -> bool:
    """V._6: Japanese units anywhere adjacent to a sea area other than the East Pacific, or
    Japanese conquests of more than one colony or area."""
    j = t.japan
    for l in range(t.n_colonies):
        if s.col_units[l, j] > 0 and any(t.l_area[l, a] and a != t.east_pacific
                                        for a in range(t.n_areas)):
            return True
    for q in range(t.n_squadrons):
        b = int(s.squadron_base[q])
        if b < 0 or s.squadron_country[q] != j or s.squadron_damage[q] == Damage.SUNK:
            continue
        areas = t.p_area[b] if b < t.n_ports else t.l_area[b - t.n_ports]
        if any(areas[a] and a != t.east_pacific for a in range(t.n_areas)):
            return True
    return s.japan_conquests > 1


__all__ = ["join", "leave", "provoked", "britain_provoked", "rolls_for_entry", "entry_modifier", "entry_outcome",
           "apply_entry_roll", "base_entries", "invadable", "invade", "gift_options", "give"]
