"""The land war: a stand-in for the base game's map, counters and combat (not in the seed).

Two modes (scenario option ``land``):

* ``historical``: cities change hands in their historical months (``history`` in
  land.toml), each event applying only while the city's holder and the side taking it are
  at war;
* ``fronts``: fronts are borders between two countries, each with a chain of cities on both
  sides from the border inward. Every month each belligerent puts ``main_share`` % of its
  land strength on one front (its main effort) and spreads the rest evenly over all its
  active fronts; a main effort may attack, committing supply points as artillery. An attack
  is one roll on the base game's combat results table at the odds of the two sides' whole
  strength on the front; a defender eliminated (DE) or exchanged (DX) loses the next city of
  the chain. Losses are percentages of the strength engaged.

Strength must be paid for: each belligerent spends one supply point a month per ``upkeep``
strength points; an army short of supply fights at half strength.
"""

from __future__ import annotations

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Land, Terrain, enemy
from gwe_fast.games.goa.economy import ceil_div
from gwe_fast.games.goa.model import GoaState, GoaTables
from gwe_fast.games.goa.world import at_war

#: ``land_mods`` slots
FORT, ENTRENCH, CITY, DEMORALIZED, PER_SP, CAP, MAIN_SHARE, UPKEEP = range(8)
#: by order offset: 0 main effort without attack; 1, 2, 3 attack committing 0, 6, 12 supply
#: points (+1 to the die per 6: the CRT's artillery)
COMMITS = (0, 0, 6, 12)


def historical_events(t: GoaTables, s: GoaState, month: int) -> None:
    """``land=historical``: this month's city changes, where the war allows them: the city
    is held by the side's enemy (not by a neutral) and both sides have belligerents."""
    for i in range(len(t.h_month)):
        if t.h_month[i] != month:
            continue
        k, side = int(t.h_city[i]), int(t.h_to[i])
        holder = int(s.city[k])
        if holder == enemy(side) and side_at_war(t, s, side) and side_at_war(t, s, holder):
            s.city[k] = side


def side_at_war(t: GoaTables, s: GoaState, side: int) -> bool:
    return any(at_war(s, c) and s.side[c] == side for c in range(t.n_countries))


# -- fronts ---------------------------------------------------------------------------------

def front_active(t: GoaTables, s: GoaState, f: int) -> bool:
    a, b = int(t.f_a[f]), int(t.f_b[f])
    return at_war(s, a) and at_war(s, b) and s.side[a] != s.side[b]


def contributes(t: GoaTables, s: GoaState, c: int, f: int) -> bool:
    """``c`` fights on front ``f``: one of its two countries, or a helper on the side of
    one, with strength there (at home, or shipped to one of the two countries when it must
    fight abroad)."""
    if not at_war(s, c) or not front_active(t, s, f):
        return False
    a, b = int(t.f_a[f]), int(t.f_b[f])
    if c == a or c == b:
        return True
    helps = int(t.f_helper[f, c])          # 1 may help a, 2 may help b
    if not ((helps & 1 and s.side[c] == s.side[a]) or (helps & 2 and s.side[c] == s.side[b])):
        return False
    if t.c_overseas[c]:
        host = a if s.side[a] == s.side[c] else b
        return s.abroad[c, host] > 0
    return True


def fronts_of(t: GoaTables, s: GoaState, c: int) -> list[int]:
    return [f for f in range(t.n_fronts) if contributes(t, s, c, f)]


def target_city(t: GoaTables, s: GoaState, f: int, side: int) -> int:
    """The city ``side`` attacks on front ``f``: first the deepest of its own cities the
    enemy holds on the chain, else the enemy's first city from the border; -1 if none."""
    a = int(t.f_a[f])
    mine, theirs = (0, 1) if s.side[a] == side else (1, 0)
    foe = enemy(side)
    chain = t.f_chain[f, mine]
    for i in range(chain.shape[0] - 1, -1, -1):
        k = int(chain[i])
        if k >= 0 and s.city[k] == foe:
            return k
    for k in t.f_chain[f, theirs]:
        k = int(k)
        if k >= 0 and s.city[k] == foe:
            return k
    return -1


def land_options(t: GoaTables, s: GoaState, c: int, month: int) -> list[int]:
    """A country's land orders: 0 (no main effort); ``1 + 4 * f`` (main effort on front
    ``f``, no attack); ``1 + 4 * f + i`` (i = 1..3) attack there committing ``COMMITS[i]``
    supply points. A demoralized country may not attack (stand-in for D1/D2); a limited Britain
    may not attack Germany or Austria-Hungary (V._2)."""
    fronts = fronts_of(t, s, c)
    if not fronts:
        return [0]
    out = [0]
    for f in fronts:
        out.append(1 + 4 * f)
        if s.demoralized[c] >= month:
            continue
        foe_country = t.f_b[f] if s.side[t.f_a[f]] == s.side[c] else t.f_a[f]
        if c == t.britain and s.limited[c] and foe_country in (t.germany, t.austria_hungary):
            continue
        if target_city(t, s, f, int(s.side[c])) < 0:
            continue
        for i in range(1, len(COMMITS)):
            if COMMITS[i] <= s.supply[c]:
                out.append(1 + 4 * f + i)
    return out


def upkeep(t: GoaTables, s: GoaState) -> list[int]:
    """Each belligerent pays its armies' upkeep; returns 1 for those short of supply."""
    short = [0] * t.n_countries
    per = int(t.land_mods[UPKEEP])
    for c in range(t.n_countries):
        if not at_war(s, c):
            continue
        need = ceil_div(int(s.army[c]) + int(s.abroad[c].sum()), per)
        if s.supply[c] >= need:
            s.supply[c] -= need
        else:
            s.supply[c] = 0
            short[c] = 1
    return short


def allocate(t: GoaTables, s: GoaState, orders: list[int]) -> list[list[int]]:
    """Strength of each country on each front: ``alloc[f][c]``. A country's strength at
    home goes to its own fronts, its strength abroad to the fronts of its host."""
    share = int(t.land_mods[MAIN_SHARE])
    alloc = [[0] * t.n_countries for _ in range(t.n_fronts)]
    for c in range(t.n_countries):
        fronts = fronts_of(t, s, c)
        if not fronts:
            continue
        main = (orders[c] - 1) // 4 if orders[c] > 0 else -1
        if t.c_overseas[c]:
            for h in range(t.n_countries):
                pool = int(s.abroad[c, h])
                here = [f for f in fronts if h in (t.f_a[f], t.f_b[f])]
                _spread(alloc, c, pool, here, main, share)
        else:
            _spread(alloc, c, int(s.army[c]), fronts, main, share)
    return alloc


def _spread(alloc, c: int, pool: int, fronts: list[int], main: int, share: int) -> None:
    if pool <= 0 or not fronts:
        return
    lead = pool * share // 100 if main in fronts else 0
    rest = pool - lead
    each, extra = divmod(rest, len(fronts))
    for i, f in enumerate(fronts):
        alloc[f][c] += each + (1 if i < extra else 0) + (lead if f == main else 0)


def column(att: int, dfn: int) -> tuple[int, int]:
    """The odds column (0 = 1-1 … 5 = 6-1) and the die shift of odds beyond the table."""
    if dfn <= 0:
        return 5, 1
    if att < dfn:
        return 0, -1
    r = att // dfn
    if r > 6:
        return 5, 1
    return r - 1, 0


def modifier(t: GoaTables, s: GoaState, k: int, defenders: list[int], commit: int, month: int) -> int:
    """The land combat die modifiers (fort or city, entrenchment, a demoralized defender,
    supply committed as artillery), capped at ``CAP``."""
    mods = t.land_mods
    m = int(mods[FORT]) if t.k_terrain[k] == Terrain.FORT else int(mods[CITY])
    if month >= t.entrench_from:
        m += int(mods[ENTRENCH])
    if any(s.demoralized[c] >= month for c in defenders):
        m += int(mods[DEMORALIZED])
    m += commit // int(mods[PER_SP])
    cap = int(mods[CAP])
    return max(-cap, min(cap, m))


def fight_fronts(t: GoaTables, s: GoaState, orders: list[int], short: list[int], month: int,
                 roll) -> None:
    """Every attack of the month: the Central Powers' first, then the Allies', front by
    front in table order (stand-in for the base game's player turns)."""
    alloc = allocate(t, s, orders)
    for c in range(t.n_countries):
        if short[c]:
            for f in range(t.n_fronts):
                alloc[f][c] //= 2
    for side in (CENTRAL, ALLIED):
        for f in range(t.n_fronts):
            attackers = [c for c in range(t.n_countries)
                         if orders[c] > 0 and (orders[c] - 1) // 4 == f
                         and (orders[c] - 1) % 4 > 0 and s.side[c] == side]
            if not attackers or not front_active(t, s, f):
                continue
            k = target_city(t, s, f, side)
            if k < 0:
                continue
            commit = 0
            for c in attackers:
                spend = min(COMMITS[(orders[c] - 1) % 4], int(s.supply[c]))
                s.supply[c] -= spend
                commit += spend
            _attack(t, s, f, side, k, alloc[f], commit, month, roll)


def _attack(t, s, f, side, k, alloc_f, commit, month, roll) -> None:
    foe = enemy(side)
    mine = [c for c in range(t.n_countries) if alloc_f[c] > 0 and s.side[c] == side]
    theirs = [c for c in range(t.n_countries) if alloc_f[c] > 0 and s.side[c] == foe]
    att = sum(alloc_f[c] for c in mine)
    dfn = sum(alloc_f[c] for c in theirs)
    if att <= 0:
        return
    if dfn <= 0:
        s.city[k] = side                     # an undefended front: the city falls
        return
    col, shift = column(att, dfn)
    die = roll() + shift + modifier(t, s, k, theirs, commit, month)
    result = int(t.crt[max(0, min(6, die)), col])
    _losses(t, s, f, mine, alloc_f, int(t.land_loss[result, 0]))
    _losses(t, s, f, theirs, alloc_f, int(t.land_loss[result, 1]))
    if result in (Land.AD, Land.BD):
        for c in mine:
            s.demoralized[c] = max(int(s.demoralized[c]), month + 1)
    if result in (Land.BD, Land.DD):
        for c in theirs:
            s.demoralized[c] = max(int(s.demoralized[c]), month + 1)
    if result in (Land.DX, Land.DE):
        s.city[k] = side
        if s.garrison[k]:
            s.garrison[k] = 0


def _losses(t, s, f: int, countries: list[int], alloc_f: list[int], pct: int) -> None:
    """Each country loses ``pct`` % (rounded up) of the strength it had on front ``f``, from
    its army at home, or from its strength in the host when it fights abroad."""
    if pct <= 0:
        return
    for c in countries:
        lost = ceil_div(alloc_f[c] * pct, 100)
        if t.c_overseas[c]:
            a = int(t.f_a[f])
            h = a if s.side[a] == s.side[c] else int(t.f_b[f])
            take = min(lost, int(s.abroad[c, h]))
            s.abroad[c, h] -= take
            s.strength_lost[c] += take
        else:
            take = min(lost, int(s.army[c]))
            s.army[c] -= take
            s.strength_lost[c] += take
