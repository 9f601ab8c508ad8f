"""Morale: the base game's morale table and modifiers (stand-in), the Morale variant (M._1-M._9)
and the roll trade of V._1/M._7.

A belligerent rolls one die in each Morale Phase (the months of ``roll_months``), adds its
modifiers, and reads the morale table: <= -3 surrender, -2 "D2", -1 "D1", 0 "RR", >= 1 no
effect. The modifiers of every roll of a phase are fixed when the phase begins.
"""

from __future__ import annotations

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Morale, enemy
from gwe_fast.games.goa.economy import ceil_div
from gwe_fast.games.goa.model import (BLOCKADE_LOSS_SINCE, CONSCRIPTED_SINCE,
                                      DEMOBILIZED_SINCE, IMPLEMENTED_SINCE, MOBILIZED_SINCE,
                                      GoaState, GoaTables)
from gwe_fast.games.goa.world import at_war, enemy_held_cities

#: what a roll of the month is: a morale roll or an entry roll (``Roll.kind``)
MORALE_ROLL, ENTRY_ROLL = 0, 1


def roll_month(t: GoaTables, month: int) -> bool:
    """Morale and entry rolls happen this month (V._1: February, May, August, November)."""
    from gwe_fast.games.goa.codes import Month

    return bool(t.roll_months[Month.month_of_year(month)])


def morale_table(t: GoaTables, total: int) -> int:
    """The base game's morale table (stand-in transcription, ``morale_table``: the highest
    modified roll giving surrender, D2, D1, RR; no effect above)."""
    for result, at_most in zip((Morale.SURRENDER, Morale.D2, Morale.D1, Morale.RR),
                               t.morale_table):
        if total <= at_most:
            return result
    return Morale.NONE


def year_modifier(t: GoaTables, month: int) -> int:
    """M._9: +4 in 1914, +3 in 1915, +2 in 1916, +1 in 1917, 0 in 1918, -1 in 1919."""
    from gwe_fast.games.goa.codes import Month

    return int(t.year_modifier[min(Month.year(month) - 1914, len(t.year_modifier) - 1)])


def allied_blockade_holds(t: GoaTables, s: GoaState) -> bool:
    """The base game's "Allied blockade": without the naval variant it holds all war long
    (stand-in); with it, the blockade is the naval rules' own (N.66, N.68)."""
    return not t.options["naval"]


def us_on_map(t: GoaTables, s: GoaState) -> bool:
    """An American land unit is on the map: shipped to a host on the continent."""
    u = t.united_states
    return u >= 0 and any(s.abroad[u, h] > 0 for h in range(t.n_countries))


def morale_modifier(t: GoaTables, s: GoaState, c: int, month: int) -> int:
    """Every modifier of ``c``'s morale roll this month, but the roll trade."""
    side = int(s.side[c])
    foe = enemy(side)
    base = t.base_morale                           # tables.BASE_MORALE
    m = int(base[0]) * enemy_held_cities(t, s, c)  # base game = M._1's first sentence, once
    # the blockade: the base game's modifier, or the naval variant's supply losses (N.68 =
    # M._3, stated twice and applied once)
    if t.options["naval"]:
        if s.since_roll[c] & BLOCKADE_LOSS_SINCE:
            m -= 1
    elif side == CENTRAL and allied_blockade_holds(t, s):
        m += int(base[1])
    if c in (t.britain, t.france):
        u = t.united_states
        if u < 0 or not (at_war(s, u) and s.side[u] == ALLIED):
            m += int(base[2])
        elif us_on_map(t, s):
            m += int(base[3])
    if c == t.russia and t.constantinople >= 0 and s.city[t.constantinople] == ALLIED:
        m += int(base[4])
    if t.options["morale"]:
        m += _variant_modifier(t, s, c, side, foe, month)
    if t.options["production"]:
        m -= policy_modifier(s, c)                   # M._4 = P._13, P._14, P._16, once
    if t.options["surrender"] and side == CENTRAL:
        m -= unheld_surrenders(t, s)               # S._14
    return m


def _variant_modifier(t: GoaTables, s: GoaState, c: int, side: int, foe: int, month: int) -> int:
    m = 0
    # M._1: an objective city held by the enemy that was ours on entering the war; one of
    # the enemy's then, ours now
    lost = gained = False
    for k in range(t.n_cities):
        if not t.k_objective[k]:
            continue
        if s.entry_city[c, k] == side and s.city[k] == foe:
            lost = True
        elif s.entry_city[c, k] == foe and s.city[k] == side:
            gained = True
    m += (1 if gained else 0) - (1 if lost else 0)
    # M._2 = C.69: a colony of the country's own under enemy control
    if any(t.l_owner[l] == c and s.colony[l] == foe for l in range(t.n_colonies)):
        m -= 1
    # M._3: Russia fed by sea from other Allied countries in each of the last three months
    if c == t.russia and s.fed[c] >= 3:
        m += 1
    m += int(s.joined_with[c])                      # M._5
    m += surrendered_majors(t, s, side)             # M._6
    if s.suffered[c]:                               # M._8
        m -= 1
    m += year_modifier(t, month)                    # M._9
    return m


def policy_modifier(s: GoaState, c: int) -> int:
    """M._4, stated again by P._13, P._14 and P._16 (applied once): one each for economic
    mobilization in effect at some time since the last roll, repealed since, conscription in
    effect since, implemented since. The two policies exist only with the production
    variant, so the modifier applies with it, whether or not the morale variant is used
    (docs/rulings.md, M._4)."""
    bits = int(s.since_roll[c])
    return sum(1 for bit in (MOBILIZED_SINCE, DEMOBILIZED_SINCE, CONSCRIPTED_SINCE,
                             IMPLEMENTED_SINCE) if bits & bit)


def garrisoned(t: GoaTables, s: GoaState, c: int, objectives_only: bool) -> bool:
    """Each city (or each objective city) of ``c`` holds at least three garrison units
    (M._6, S._14)."""
    for k in range(t.n_cities):
        if t.k_country[k] == c and (t.k_objective[k] or not objectives_only):
            if s.garrison[k] < 3:
                return False
    return True


def surrendered_majors(t: GoaTables, s: GoaState, side: int) -> int:
    """M._6: +1 for each of Austria-Hungary, Britain, France, Germany, Italy, Russia and the
    USA that has surrendered to ``side``; the Central Powers count Russia only while three
    units hold each Russian city, France and Italy while three hold each of their objective
    cities."""
    n = 0
    for c in (t.austria_hungary, t.britain, t.france, t.germany, t.italy, t.russia,
              t.united_states):
        if c < 0 or s.conquered[c] < 0 or s.side[c] == side:
            continue
        if side == CENTRAL and c == t.russia and not garrisoned(t, s, c, False):
            continue
        if side == CENTRAL and c in (t.france, t.italy) and not garrisoned(t, s, c, True):
            continue
        n += 1
    return n


def unheld_surrenders(t: GoaTables, s: GoaState) -> int:
    """S._14: -1 if Russia has surrendered and not every Russian city holds three Central
    Powers units; -1 if France or Italy has and not every objective city there does."""
    n = 0
    r = t.russia
    if r >= 0 and s.conquered[r] >= 0 and s.side[r] == ALLIED and not garrisoned(t, s, r, False):
        n += 1
    if any(c >= 0 and s.conquered[c] >= 0 and s.side[c] == ALLIED
           and not garrisoned(t, s, c, True) for c in (t.france, t.italy)):
        n += 1
    return n


def morale_rollers(t: GoaTables, s: GoaState) -> list[int]:
    """Countries that roll for morale: every belligerent."""
    return [c for c in range(t.n_countries) if at_war(s, c)]


def apply_morale(t: GoaTables, s: GoaState, c: int, result: int, month: int) -> None:
    """The morale table's result for ``c`` (its effects are stand-ins: docs/goa.md)."""
    s.morale_results[c, result] += 1
    if result == Morale.NONE:
        return
    if result == Morale.RR:
        s.reduced[c] = 1
        return
    if result in (Morale.D1, Morale.D2):
        pct = int(t.morale_effects[1 if result == Morale.D1 else 2])
        desert(s, c, pct)
        s.demoralized[c] = month + int(t.morale_effects[3])
        s.suffered[c] = 1
        return
    from gwe_fast.games.goa.surrender import conquer

    conquer(t, s, c, enemy(int(s.side[c])), month, by_morale=True)


def desert(s: GoaState, c: int, pct: int) -> None:
    """``pct`` % of ``c``'s land strength, at home and abroad, deserts."""
    lost = ceil_div(int(s.army[c]) * pct, 100)
    s.army[c] -= lost
    s.strength_lost[c] += lost
    for h in range(s.abroad.shape[1]):
        if s.abroad[c, h]:
            x = ceil_div(int(s.abroad[c, h]) * pct, 100)
            s.abroad[c, h] -= x
            s.strength_lost[c] += x


def new_roll_period(s: GoaState, c: int) -> None:
    """After ``c``'s morale roll: what is in effect now is what counts until the next."""
    bits = 0
    if s.mobilized[c] >= 0:
        bits |= MOBILIZED_SINCE
    if s.conscription[c] == 1:
        bits |= CONSCRIPTED_SINCE
    s.since_roll[c] = bits
    s.reduced[c] = 0


# -- the roll trade (V._1 = M._7) -------------------------------------------------------------

def favour(t: GoaTables, s: GoaState, kind: int, c: int, side: int) -> int:
    """The change of a roll that is in ``side``'s favour: entry rolls go down for the
    Allies (below 1 joins them) and up for the Central Powers; a morale roll goes up for
    the country's own side and down for its enemy."""
    if kind == ENTRY_ROLL:
        return -1 if side == ALLIED else 1
    return 1 if s.side[c] == side else -1


def outcomes(t: GoaTables, s: GoaState, kind: int, c: int, modifier: int) -> tuple:
    """What each die 1..6 gives on this roll with this modifier."""
    if kind == MORALE_ROLL:
        return tuple(morale_table(t, d + modifier) for d in range(1, 7))
    from gwe_fast.games.goa.entry import entry_outcome

    return tuple(entry_outcome(t, s, c, d + modifier) for d in range(1, 7))


def might_affect(t: GoaTables, s: GoaState, kind: int, c: int, modifier: int, shift: int) -> bool:
    """A change of ``shift`` to this roll might change its outcome (V._1, M._7: the roll
    modified in the other player's favour must be one where this is so)."""
    return outcomes(t, s, kind, c, modifier) != outcomes(t, s, kind, c, modifier + shift)


def trade_options(t: GoaTables, s: GoaState, rolls: list[tuple[int, int, int]], side: int) -> list[int]:
    """``side``'s legal trades: 0 (none) or ``1 + i * n + j``: roll ``i`` one in its favour,
    roll ``j`` one in the other player's favour, where that might change ``j``'s outcome.
    ``rolls`` are ``(kind, country, modifier)``."""
    n = len(rolls)
    other = enemy(side)
    ok_j = [might_affect(t, s, k, c, m, favour(t, s, k, c, other)) for k, c, m in rolls]
    return [0] + [1 + i * n + j for i in range(n) for j in range(n) if i != j and ok_j[j]]


def apply_trade(t: GoaTables, s: GoaState, rolls: list[tuple[int, int, int]], side: int,
                code: int, extra: list[int]) -> None:
    if code == 0:
        return
    n = len(rolls)
    i, j = divmod(code - 1, n)
    ki, ci, _ = rolls[i]
    kj, cj, _ = rolls[j]
    extra[i] += favour(t, s, ki, ci, side)
    extra[j] += favour(t, s, kj, cj, enemy(side))
