"""Naval combat (N.4 as a stand-in for Tenney's module; N.41-N.46, the Naval Combat Chart) and
amphibious invasions (N.91-N.96, C.63-C.64).
"""

from __future__ import annotations

from gwe_fast.games.goa import naval
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Damage, Kind, Land, enemy
from gwe_fast.games.goa.economy import ceil_div
from gwe_fast.games.goa.model import JAPAN_CONQUESTS, GoaState, GoaTables
from gwe_fast.games.goa.world import at_war

LIGHT, HEAVY, SUNK = int(Damage.LIGHT), int(Damage.HEAVY), int(Damage.SUNK)


def fight(t: GoaTables, s: GoaState, dice, a: int, month: int, sub_side: int):
    """The naval combat in area ``a`` (a generator: the players designate the squadrons hit).
    ``sub_side`` is a side attacking with submarines only (N.45), else -1."""
    fleets = {side: naval.sortied(t, s, a, side) for side in (ALLIED, CENTRAL)}
    for side in fleets:
        for q in fleets[side]:
            if not s.screen[q]:
                s.in_combat[q] = 1
    if t.options["naval_combat_chart"]:
        yield from _chart(t, s, dice, a, fleets, sub_side)
    else:
        yield from _duel(t, s, dice, a, fleets)
    left = [sum(1 for q in fleets[side] if s.squadron_damage[q] < SUNK)
            for side in (ALLIED, CENTRAL)]
    s.sortie_won[a] = 0 if left[0] > left[1] else 1 if left[1] > left[0] else 2


def _chart(t, s, dice, a, fleets, sub_side):
    """N.43-N.46: each side's damage from the chart, then its two rolls for the squadrons sunk
    and heavily damaged; each player designates his opponent's squadrons within them."""
    from gwe_fast.games.goa.engine import ask

    german = 0
    if fleets[CENTRAL] or sub_side == CENTRAL:
        german = yield from ask(Kind.GERMAN_ROLL, CENTRAL, (0, 1), subject=a)
    limits = {}
    for side in (CENTRAL, ALLIED):
        foe = enemy(side)
        if not fleets[side] and side != sub_side:
            limits[side] = (0, 0, 0)
            continue
        col = -1 if side == sub_side else naval.chart_column(t, naval.gunnery(t, s, fleets[side]))
        pen = -1 if naval.mostly(t, s, fleets[foe]) else 0          # N.46
        damage = naval.chart_damage(t, col, dice.die() + pen - german)
        r1 = dice.die() + pen
        r2 = dice.die() + pen
        limits[side] = naval.budgets(damage, r1, r2)
    for side in (CENTRAL, ALLIED):
        targets = fleets[enemy(side)]
        chosen: set[int] = set()
        used = 0
        for level, limit in zip((SUNK, HEAVY, LIGHT), limits[side]):
            while True:
                options = naval.designate_options(t, s, targets, used, limit, chosen)
                if not options:
                    break
                q = yield from ask(Kind.DESIGNATE, side, options, subject=level)
                chosen.add(q)
                used += 10 * int(t.q_protection[q])
                s.hit_level[q] = level
    for q in range(t.n_squadrons):
        if s.hit_level[q]:
            naval.worsen(s, q, int(s.hit_level[q]))
            s.hit_level[q] = 0


def _duel(t, s, dice, a, fleets):
    """N.4 stand-in (Tenney's module is not in the seed): each fighting squadron scores a hit
    on a die of at most half its gunnery (rounded up); for each hit its player designates an
    enemy squadron, which takes heavy damage on a die above half its protection, else light."""
    from gwe_fast.games.goa.engine import ask

    hits = {}
    for side in (CENTRAL, ALLIED):
        hits[side] = sum(1 for q in fleets[side] if not s.screen[q]
                         and dice.die() <= ceil_div(int(t.q_gunnery[q]), int(t.tenney[0])))
    for side in (CENTRAL, ALLIED):
        for _ in range(hits[side]):
            targets = [q for q in fleets[enemy(side)] if s.squadron_damage[q] < SUNK]
            if not targets:
                break
            q = yield from ask(Kind.DESIGNATE, side, targets, subject=0)
            level = HEAVY if dice.die() > int(t.q_protection[q]) // int(t.tenney[1]) else LIGHT
            naval.worsen(s, q, level)


# -- amphibious invasions ------------------------------------------------------------------------

def invasion_targets(t: GoaTables, s: GoaState, c: int) -> list[tuple[int, int]]:
    """``(kind, index)`` of what ``c`` may invade from the sea this month: enemy beaches (0)
    and enemy port cities on the map (1) it can reach (N.81-N.83, N.91), enemy colonies (2)
    with the colonial variant (C.63, C.64). Gallipoli may not be occupied by the Central
    Powers (its Beaches chart note)."""
    side = int(s.side[c])
    foe = enemy(side)
    out = []
    for b in range(len(t.b_key)):
        k = int(t.b_city[b])
        if k >= 0 and s.city[k] == foe and not (side == CENTRAL and t.b_no_central[b]) \
                and _sea_reach(t, s, c, [a for a in range(t.n_areas) if t.b_area[b, a]]):
            out.append((0, b))
    for p in range(t.n_ports):
        k = int(t.p_city[p])
        if k >= 0 and s.city[k] == foe and _sea_reach(t, s, c, naval.place_areas(t, p)):
            out.append((1, p))
    if t.options["colonies"]:
        for l in range(t.n_colonies):
            if s.colony[l] == foe and (_sea_reach(t, s, c, naval.place_areas(t, t.n_ports + l))
                                       or _overland(t, c, l)):
                out.append((2, l))
    return out


def _sea_reach(t, s, c: int, areas: list[int]) -> bool:
    side = int(s.side[c])
    foe = enemy(side)
    for p in range(t.n_ports):
        if not t.c_home_ports[c, p] or not naval.port_usable(t, s, p, side):
            continue
        for a in naval.place_areas(t, p):
            if a in areas and not s.blockade[a, foe]:
                return True
    return False


def _overland(t: GoaTables, c: int, l: int) -> bool:
    """C.64: the holder of Constantinople may always try Syria, Iraq and Armenia, Russia the
    Caucasus and Vladivostok."""
    return bool(t.l_overland[l, c])


def invasion_units(t: GoaTables, s: GoaState, c: int, kind: int, index: int) -> int:
    """N.93, C.63: at most three units, six against Japan."""
    cap = 6 if kind == 2 and t.l_kind[index] == 5 else 3
    return min(cap, available_units(t, s, c))


def available_units(t: GoaTables, s: GoaState, c: int) -> int:
    """Land units at home that may land: corps of the army, and the USA's marines."""
    n = int(s.army[c]) // t.corps
    return n + (int(s.marines[1]) if c == t.united_states else 0)


def invasions(t: GoaTables, s: GoaState, dice, month: int):
    """N.91-N.95: each belligerent may land units on one target a month, resolved at once."""
    from gwe_fast.games.goa.engine import ask

    picks = {}
    for side in (ALLIED, CENTRAL):
        for c in range(t.n_countries):
            if not at_war(s, c) or s.side[c] != side:
                continue
            targets = invasion_targets(t, s, c)
            options = [0]
            for i, (kind, index) in enumerate(targets):
                n_max = invasion_units(t, s, c, kind, index)
                options.extend(1 + 8 * i + n - 1 for n in range(1, n_max + 1))
            code = yield from ask(Kind.LANDING, side, options, subject=c, secret=True)
            if code:
                i, n = divmod(code - 1, 8)
                picks[c] = (targets[i], n + 1)
    for c in range(t.n_countries):
        if c in picks and at_war(s, c):
            (kind, index), n = picks[c]
            _land(t, s, dice, c, kind, index, n, month)


def _support(t: GoaTables, s: GoaState, side: int, areas: list[int]) -> bool:
    """N.94, C.68: a squadron of the invader's, sortied as a screen into an area adjacent to
    the target, not in naval combat this month, supports the landing (and is used up)."""
    for q in range(t.n_squadrons):
        a = int(s.squadron_sortie[q])
        if a in areas and s.screen[q] and not s.in_combat[q] and not s.supported[q] \
                and s.squadron_damage[q] < SUNK and s.side[s.squadron_country[q]] == side:
            s.supported[q] = 1
            return True
    return False


def _land(t, s, dice, c: int, kind: int, index: int, n: int, month: int) -> None:
    side = int(s.side[c])
    foe = enemy(side)
    n = min(n, available_units(t, s, c))
    if n <= 0:
        return
    marines = min(n, int(s.marines[1])) if c == t.united_states else 0
    attack = marines * 8 + (n - marines) * t.corps                 # N.96: marines attack at 8
    s.army[c] -= (n - marines) * t.corps
    s.marines[1] -= marines
    if kind == 2:
        l = index
        areas = naval.place_areas(t, t.n_ports + l)
        mod = attack // 3 + (1 if _support(t, s, side, areas) else 0)   # C.68
        if dice.die() + mod > t.l_defense[l]:
            s.colony[l] = side
            s.col_units[l, c] += n
            s.col_af[l, c] += attack
            s.colonies_taken[side] += 1
            if c == t.japan:
                s.scalars[JAPAN_CONQUESTS] += 1
        else:
            s.strength_lost[c] += attack                             # N.94
        return
    if kind == 0:
        k = int(t.b_city[index])
        areas = [a for a in range(t.n_areas) if t.b_area[index, a]]
    else:
        k = int(t.p_city[index])
        areas = naval.place_areas(t, index)
    holder = int(t.k_country[k])
    defence = int(s.garrison[k]) * t.corps
    if at_war(s, holder) and s.side[holder] == foe:
        defence += ceil_div(int(s.army[holder]) * int(t.coast_share), 100)
    from gwe_fast.games.goa.land import column

    col, shift = column(attack, defence)
    die = dice.die() + shift + (1 if _support(t, s, side, areas) else 0)   # N.94
    result = int(t.crt[max(0, min(6, die)), col])
    if result in (Land.DX, Land.DE):
        s.city[k] = side
        s.garrison[k] = n
        if at_war(s, holder) and s.side[holder] == foe:
            lost = ceil_div(defence * int(t.land_loss[result, 1]), 100)
            lost = min(lost, int(s.army[holder]))
            s.army[holder] -= lost
            s.strength_lost[holder] += lost
    else:
        s.strength_lost[c] += attack                                 # N.94: eliminated
