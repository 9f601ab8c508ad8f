"""Personnel and supply points (the Supply and Personnel Points table, P._11-P._19), supply
sent by sea (N.67, N.79) and the land forces they pay for.

Personnel points become land strength points at home (one for one, stand-in for Leon
Tenney's production rules, which are not in the seed); supply points go to a stock that pays
the armies' upkeep and the supply committed to offensives (``land.py``).
"""

from __future__ import annotations

from gwe_fast.games.goa.codes import ALLIED, NEUTRAL, enemy
from gwe_fast.games.goa.model import (CONSCRIPTED_SINCE, DEMOBILIZED_SINCE, IMPLEMENTED_SINCE,
                                      MOBILIZED_SINCE, GoaState, GoaTables)
from gwe_fast.games.goa.world import at_war


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


def receives_points(t: GoaTables, s: GoaState, c: int, month: int) -> bool:
    """A belligerent receives points from its entry, the USA once its last reinforcement has
    arrived (P._19); Japan only with the colonies (C.26)."""
    if not at_war(s, c):
        return False
    if c == t.united_states:
        return month >= us_ready_month(t, s)
    return True


def us_ready_month(t: GoaTables, s: GoaState) -> int:
    """The month the last American reinforcement arrives (P._19: the reinforcements come in
    the ``us_reinforcements[0]`` months from the month of entry), or a large number while
    the USA is not at war."""
    u = t.united_states
    if u < 0 or s.entered[u] < 0:
        return 1 << 20
    return int(s.entered[u]) + max(0, int(t.us_reinforcements[0]) - 1)


def mobilization_steps(t: GoaTables, s: GoaState, c: int, month: int) -> int:
    """P._12: one tenth on declaring, and again in the 12th, 24th, 36th and 48th consecutive
    month of mobilization, the month of the declaration being the first (it takes effect at
    once, P._11): 0..5 (docs/rulings.md, P._12)."""
    since = int(s.mobilized[c])
    if since < 0 or not t.options["production"]:
        return 0
    return 1 + min(4, (month - since + 1) // 12)


def supply_due(t: GoaTables, s: GoaState, c: int, month: int) -> int:
    """Supply points ``c`` receives this month before blockade losses (P._12, P._13, V._2)."""
    base = int(t.c_supply[c])
    if c == t.britain and s.limited[c]:
        base //= 2                                            # V._2: half, before modifying
    return base + mobilization_steps(t, s, c, month) * ceil_div(int(t.c_supply[c]), 10)


def personnel_due(t: GoaTables, s: GoaState, c: int) -> int:
    """Personnel points ``c`` receives this month (P._14, P._15, V._2, RR of the morale
    table).

    The table's figure is the country's points with the conscription P._18 gives it before
    its entry: with it for every country but Britain and the USA. Implementing conscription
    doubles the figure of a country the table counts without it; repealing it halves the
    figure of one the table counts with it, until it is implemented again
    (``docs/rulings.md``, P._14-P._15)."""
    pp = int(t.c_personnel[c])
    if c == t.britain and s.limited[c]:
        pp //= 2
    if t.options["production"]:
        state = int(s.conscription[c])
        if state == 1 and not t.c_table_conscription[c]:
            pp *= 2
        elif state != 1 and t.c_table_conscription[c]:
            pp //= 2
    if s.reduced[c]:
        pp //= 2                                              # RR: reduced replacements
    return pp


def produce(t: GoaTables, s: GoaState, month: int) -> None:
    """The Reinforcement Phase's points: each belligerent's personnel become land strength
    at home, its supply goes to its stock (kept up to ``supply_cap`` months' worth)."""
    for c in range(t.n_countries):
        if not receives_points(t, s, c, month):
            s.personnel_last[c] = 0
            s.supply_last[c] = 0
            continue
        pp, sp = personnel_due(t, s, c), supply_due(t, s, c, month)
        s.personnel_last[c] = pp
        s.supply_last[c] = sp
        if c != t.japan:
            s.army[c] += pp
        else:
            s.japan_personnel += pp
        s.supply[c] = min(int(s.supply[c]) + sp, int(t.supply_cap) * max(sp, 1))


def reinforce(t: GoaTables, s: GoaState, month: int) -> None:
    """Squadrons arriving this month (C.26: Japan's dreadnoughts while neutral); American
    reinforcements (stand-in schedule): ``us_reinforcements = (months, strength a month)``
    after entry, at home (Norfolk)."""
    for q in range(t.n_squadrons):
        if t.q_arrive[q] == month:
            c = int(s.squadron_country[q])
            if s.conquered[c] < 0 and (not t.q_neutral_only[q] or s.side[c] == NEUTRAL):
                s.squadron_base[q] = t.q_base0[q]
    u = t.united_states
    if u < 0 or not at_war(s, u):
        return
    k = month - int(s.entered[u])
    if 0 <= k < int(t.us_reinforcements[0]):
        s.army[u] += int(t.us_reinforcements[1])


def may_change_policy(t: GoaTables, s: GoaState, c: int, month: int) -> bool:
    """P._11, P._19, V._2: who may declare or repeal mobilization and conscription."""
    if not t.options["production"] or not at_war(s, c):
        return False
    if c == t.britain and s.limited[c]:
        return False
    if c == t.united_states and month < us_ready_month(t, s):
        return False
    return True


def set_mobilization(t: GoaTables, s: GoaState, c: int, on: bool, month: int) -> None:
    """Declare (``on``) or repeal economic mobilization, at once (P._11-P._13)."""
    before = supply_due(t, s, c, month)
    if on:
        s.mobilized[c] = month
        s.since_roll[c] |= MOBILIZED_SINCE
    else:
        s.mobilized[c] = -1
        s.since_roll[c] |= DEMOBILIZED_SINCE
    s.supply[c] = max(0, int(s.supply[c]) + supply_due(t, s, c, month) - before)
    s.supply_last[c] = supply_due(t, s, c, month)


def set_conscription(t: GoaTables, s: GoaState, c: int, on: bool) -> None:
    """Implement (``on``) or repeal conscription, at once (P._11, P._14, P._15). Repealing
    disbands the infantry with the lowest attack values: ``repeal_disband`` % of the land
    strength (stand-in)."""
    before = personnel_due(t, s, c)
    if on:
        s.conscription[c] = 1
        s.since_roll[c] |= CONSCRIPTED_SINCE | IMPLEMENTED_SINCE
    else:
        s.conscription[c] = 2
        lost = ceil_div(int(s.army[c]) * int(t.repeal_disband), 100)
        s.army[c] -= lost
        s.strength_lost[c] += lost
    delta = personnel_due(t, s, c) - before
    if c != t.japan:
        s.army[c] = max(0, int(s.army[c]) + delta)
    s.personnel_last[c] = personnel_due(t, s, c)


# -- supply by sea (N.67, N.79) -----------------------------------------------------------------

def sea_route(t: GoaTables, s: GoaState, c: int, d: int) -> bool:
    """N.79: ``c`` and ``d`` each control a port they controlled on entering the war (their
    own ports), with access to one sea area not blockaded against their side."""
    side = int(s.side[c])
    foe = enemy(side)
    for a in range(t.n_areas):
        if not t.a_in_play[a] or s.blockade[a, foe]:
            continue
        if _has_port_on(t, s, c, a, side) and _has_port_on(t, s, d, a, side):
            return True
    return False


def _has_port_on(t: GoaTables, s: GoaState, c: int, a: int, side: int) -> bool:
    from gwe_fast.games.goa.world import port_usable

    for p in range(t.n_ports):
        if t.p_country[p] == c and t.p_area[p, a] and port_usable(t, s, p, side):
            return True
    return False


SEND_AMOUNTS = (2, 4, 8)


def supply_options(t: GoaTables, s: GoaState, c: int) -> list[int]:
    """N.79 (N.78: not Japan): 0 sends nothing; ``1 + 3 * d + i`` sends ``SEND_AMOUNTS[i]``
    supply points to ally ``d``."""
    if not t.options["naval"] or not at_war(s, c) or c == t.japan:
        return [0]
    out = [0]
    for d in range(t.n_countries):
        if d == c or not at_war(s, d) or s.side[d] != s.side[c]:
            continue
        if not sea_route(t, s, c, d):
            continue
        for i, amount in enumerate(SEND_AMOUNTS):
            if amount <= s.supply[c]:
                out.append(1 + 3 * d + i)
    return out


def send_supply(t: GoaTables, s: GoaState, c: int, code: int) -> None:
    if code == 0:
        return
    d, i = divmod(code - 1, 3)
    amount = SEND_AMOUNTS[i]
    s.supply[c] -= amount
    s.supply[d] += amount
    s.received[d] = 1


def russian_sea_supply(t: GoaTables, s: GoaState) -> None:
    """N.67: Russia gains four supply points each month it can receive supplies by sea from
    another Allied country; M._3 counts the months it did receive some (``fed``)."""
    r = t.russia
    if r < 0 or not t.options["naval"]:
        return
    if at_war(s, r) and s.side[r] == ALLIED and any(
            at_war(s, d) and d != r and s.side[d] == ALLIED and d != t.japan
            and sea_route(t, s, d, r) for d in range(t.n_countries)):
        s.supply[r] += 4
    s.fed[r] = min(3, int(s.fed[r]) + 1) if s.received[r] else 0
