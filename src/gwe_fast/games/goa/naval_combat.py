"""Naval combat (N.4 as a stand-in for Tenney's module; N.41-N.46, the Naval Combat Chart) and
amphibious invasions (N.91-N.96, C.63-C.64).
"""

from __future__ import annotations

from gwe_fast.games.goa import naval
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Damage, Kind, Land, Terrain, enemy
from gwe_fast.games.goa.economy import ceil_div
from gwe_fast.games.goa.model import GoaState, GoaTables
from gwe_fast.games.goa.world import at_war, port_usable

LIGHT, HEAVY, SUNK = int(Damage.LIGHT), int(Damage.HEAVY), int(Damage.SUNK)


def fight(t: GoaTables, s: GoaState, dice, a: int, month: int, sub_side: int):
    """The naval combat in area ``a`` (a generator: the players designate the squadrons hit).
    ``sub_side`` is a side attacking with submarines only (N.45), else -1. The side left
    with more squadrons afloat has made a successful sortie (N.43), ``sortie_won``."""
    fleets = {side: naval.sortied(t, s, a, side) for side in (ALLIED, CENTRAL)}
    yield from engage(t, s, dice, fleets, a, sub_side)
    left = [sum(1 for q in fleets[side] if s.squadron_damage[q] < SUNK)
            for side in (ALLIED, CENTRAL)]
    s.sortie_won[a] = 0 if left[0] > left[1] else 1 if left[1] > left[0] else 2


def engage(t: GoaTables, s: GoaState, dice, fleets: dict, subject: int, sub_side: int = -1):
    """Two fleets fight (``fleets[side]``: squadrons), by the chart (N.41-N.46) or by the N.4
    stand-in; the squadrons fighting with their gunnery are "involved in naval combat"
    (``in_combat``, N.63, N.94). ``subject`` is the sea area, or the squadron whose return
    is intercepted (C.44)."""
    for side in fleets:
        for q in fleets[side]:
            if s.screen[q] == naval.FIGHTS:
                s.in_combat[q] = 1
    if t.options["naval_combat_chart"]:
        yield from _chart(t, s, dice, subject, fleets, sub_side)
    else:
        yield from _duel(t, s, dice, subject, fleets)


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
        total = limits[side][2]
        used = 0
        for level, cap in zip((SUNK, HEAVY, LIGHT), limits[side]):
            level_used = 0
            while True:
                options = naval.designate_options(t, targets, level_used, cap, used, total,
                                                  chosen)
                if not options:
                    break
                q = yield from ask(Kind.DESIGNATE, side, options, subject=level)
                chosen.add(q)
                level_used += 10 * int(t.q_protection[q])
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
        hits[side] = sum(1 for q in fleets[side] if s.screen[q] == naval.FIGHTS
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

BEACH, PORT, COLONY = 0, 1, 2
#: the source of a landing: ``HOME``, a colony ``l`` (``0 .. L - 1``), a host ``L + h``
HOME = -1


def landing_sources(t: GoaTables, s: GoaState, c: int) -> list[tuple[int, list[int]]]:
    """Where ``c``'s land units may sail from to land (N.81): ``(source, places)``: its home
    (its embarkation places), each colony of its side where it has units (C.41, C.51), each
    host country where it has a corps (that country's ports on the map)."""
    side = int(s.side[c])
    out = [(HOME, naval.sail_places(t, s, c))]
    if t.options["colonies"]:
        home = naval.home_colony(t, c)
        for l in range(t.n_colonies):
            if l != home and s.col_units[l, c] > 0 and s.colony[l] == side:
                out.append((l, [t.n_ports + l]))
    for h in range(t.n_countries):
        if s.abroad[c, h] >= t.corps:
            ports = [p for p in naval.host_ports(t, h) if port_usable(t, s, p, side)]
            if ports:
                out.append((t.n_colonies + h, ports))
    return out


def invasion_targets(t: GoaTables, s: GoaState, c: int) -> list[tuple[int, int, int]]:
    """``(kind, index, source)`` of what ``c`` may invade from the sea this month, and from
    where: enemy beaches (``BEACH``) and enemy port cities on the map (``PORT``) its land
    units can reach over an unblockaded area (N.81-N.83, N.91), enemy colonies (``COLONY``)
    with the colonial variant (C.63, C.64: the holder of Constantinople's and Russia's
    overland attempts come from home). N.83: no port holding an enemy squadron (C.63 allows
    it for colonies). Gallipoli may not be occupied by the Central Powers (its Beaches chart
    note). A limited Britain lands nothing in Germany or Austria-Hungary (V._2)."""
    side = int(s.side[c])
    foe = enemy(side)
    barred = (t.germany, t.austria_hungary) if c == t.britain and s.limited[c] else ()
    beaches, ports, colonies = [], [], []
    for b in range(len(t.b_key)):
        k = int(t.b_city[b])
        if k < 0 or s.city[k] != foe or (side == CENTRAL and t.b_no_central[b]) \
                or t.b_country[b] in barred or t.k_country[k] in barred:
            continue
        beaches.append((b, [a for a in range(t.n_areas) if t.b_area[b, a]]))
    for p in range(t.n_ports):
        k = int(t.p_city[p])
        if k < 0 or s.city[k] != foe or not t.p_in_play[p] or t.k_country[k] in barred \
                or naval.enemy_squadron_at(t, s, p, side):
            continue
        ports.append((p, naval.place_areas(t, p)))
    if t.options["colonies"]:
        for l in range(t.n_colonies):
            if s.colony[l] == foe:
                colonies.append((l, naval.place_areas(t, t.n_ports + l)))
    out = []
    for src, places in landing_sources(t, s, c):
        for kind, found in ((BEACH, beaches), (PORT, ports), (COLONY, colonies)):
            for index, areas in found:
                if _reach(t, s, c, places, areas) or (
                        kind == COLONY and src == HOME and _overland(t, s, c, index)):
                    out.append((kind, index, src))
    return out


def _reach(t, s, c: int, sources: list[int], areas: list[int]) -> bool:
    """One of ``sources`` reaches one of ``areas`` not blockaded against ``c``'s side."""
    foe = enemy(int(s.side[c]))
    return any(a in areas and not s.blockade[a, foe]
               for p in sources for a in naval.place_areas(t, p))


def _overland(t: GoaTables, s: GoaState, c: int, l: int) -> bool:
    """C.64: the holder of Constantinople may always try Syria, Iraq and Armenia, Russia the
    Caucasus and Vladivostok (``overland`` links of the Colonies chart; Turkey's only while
    its side holds Constantinople)."""
    if not t.l_overland[l, c]:
        return False
    if c == t.turkey and t.constantinople >= 0:
        return s.city[t.constantinople] == s.side[c]
    return True


def invasion_cap(t: GoaTables, kind: int, index: int) -> int:
    """N.93, C.63: at most three units an invasion, six against Japan."""
    return 6 if kind == COLONY and t.l_kind[index] == 5 else 3


def available_units(t: GoaTables, s: GoaState, c: int, src: int = HOME) -> int:
    """Land units that may land from ``src``: at home the army's corps (Japan's units in its
    home islands) and the USA's marines; in a colony its units there; in a host its corps."""
    if src == HOME:
        n = naval.home_units(t, s, c)
        return n + (int(s.marines[1]) if c == t.united_states else 0)
    if src < t.n_colonies:
        return int(s.col_units[src, c])
    return int(s.abroad[c, src - t.n_colonies]) // t.corps


def landing_options(t: GoaTables, s: GoaState, c: int, targets: list, committed: dict,
                    done: set) -> list[int]:
    """``Kind.LANDING``: 0 stops; ``1 + 8 * i + n - 1`` lands ``n`` units on target ``i``
    (each place once a phase, from one source), within N.93's cap, the units at the source
    not yet committed (``committed[src]``) and N.85's capacity left."""
    cap_left = naval.capacity_left(t, s, c) - sum(committed.values())
    out = [0]
    for i, (kind, index, src) in enumerate(targets):
        if (kind, index) in done:
            continue
        left = available_units(t, s, c, src) - committed.get(src, 0)
        n_max = min(invasion_cap(t, kind, index), left, cap_left)
        out.extend(1 + 8 * i + n - 1 for n in range(1, n_max + 1))
    return out


def invasions(t: GoaTables, s: GoaState, dice, month: int):
    """N.91-N.95: each belligerent lands units on as many targets as N.85's capacity allows
    (each side's landings in secret), then every landing is resolved, country by country."""
    from gwe_fast.games.goa.engine import ask

    picks = []
    for side in (ALLIED, CENTRAL):
        for c in range(t.n_countries):
            if not at_war(s, c) or s.side[c] != side:
                continue
            targets = invasion_targets(t, s, c)
            if not targets:
                continue
            committed, done = {}, set()
            while True:
                options = landing_options(t, s, c, targets, committed, done)
                code = yield from ask(Kind.LANDING, side, options, subject=c, secret=True)
                if not code:
                    break
                i, n = divmod(code - 1, 8)
                kind, index, src = targets[i]
                picks.append((c, targets[i], n + 1))
                committed[src] = committed.get(src, 0) + n + 1
                done.add((kind, index))
    picks.sort(key=lambda pick: pick[0])
    for c, (kind, index, src), n in picks:
        if at_war(s, c):
            _land(t, s, dice, c, kind, index, n, month, src)


def _support(t: GoaTables, s: GoaState, side: int, areas: list[int]) -> bool:
    """N.94, C.68: a squadron of the invader's sortied to support an invasion (N.44) into an
    area adjacent to the target, not in naval combat this month, supports the landing (one
    landing: it is used up)."""
    for q in range(t.n_squadrons):
        a = int(s.squadron_sortie[q])
        if a in areas and s.screen[q] == naval.SUPPORTS and not s.in_combat[q] \
                and not s.supported[q] and s.squadron_damage[q] < SUNK \
                and s.side[s.squadron_country[q]] == side:
            s.supported[q] = 1
            return True
    return False


def landing_modifier(t: GoaTables, s: GoaState, kind: int, k: int, supported: bool,
                     month: int) -> int:
    """N.94: the landing gets none of the attacker's modifiers (artillery, a demoralized
    defender) but +1 for a supporting squadron; the defender keeps its own (a port city's
    fort or city, entrenchment; a beach is not a city, N.13); the total within the cap."""
    from gwe_fast.games.goa.land import CAP, CITY, ENTRENCH, FORT

    mods = t.land_mods
    m = 1 if supported else 0
    if kind == PORT:
        m += int(mods[FORT]) if t.k_terrain[k] == Terrain.FORT else int(mods[CITY])
    if month >= t.entrench_from:
        m += int(mods[ENTRENCH])
    cap = int(mods[CAP])
    return max(-cap, min(cap, m))


def _land(t, s, dice, c: int, kind: int, index: int, n: int, month: int,
          src: int = HOME) -> None:
    side = int(s.side[c])
    foe = enemy(side)
    n = min(n, available_units(t, s, c, src), naval.capacity_left(t, s, c))
    if n <= 0:
        return
    s.shipped[c] += n
    marines = 0
    if src == HOME:
        marines = min(n, int(s.marines[1])) if c == t.united_states else 0
        s.marines[1] -= marines
        af = naval.take_home(t, s, c, n - marines) if n > marines else 0
    elif src < t.n_colonies:
        af = naval.take_colony(s, src, c, n)
    else:
        s.abroad[c, src - t.n_colonies] -= n * t.corps
        af = n * t.corps
    attack = marines * 8 + af                                      # N.96: marines attack at 8
    if kind == COLONY:
        from gwe_fast.games.goa.colonial import conquer_colony

        l = index
        areas = naval.place_areas(t, t.n_ports + l)
        mod = attack // 3 + (1 if _support(t, s, side, areas) else 0)   # C.68
        if dice.die() + mod > t.l_defense[l]:
            conquer_colony(t, s, l, side, by_japan=(c == t.japan))
            s.col_units[l, c] += n
            s.col_af[l, c] += attack
        else:
            s.strength_lost[c] += attack                             # N.94
        return
    if kind == BEACH:
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
    supported = _support(t, s, side, areas)
    die = dice.die() + shift + landing_modifier(t, s, kind, k, supported, month)
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
