"""Naval Operations (N.11-N.96): squadrons, naval combat, repair, blockades and unrestricted
submarine warfare, supply and land units by sea, amphibious invasions, marines.

Places are numbered ports first (``0 .. n_ports - 1``), then colonies and areas (``n_ports +
l``): the colonial variant's colonies function as ports (C.41). A squadron is based at a
place (``squadron_base``) and may be sortied into a sea area (``squadron_sortie``) for the
month. Squadron codes of ``Kind.SQUADRON``: 0 stays, ``1 + place`` moves there,
``SORTIE + a`` sorties into area ``a`` to fight, ``SCREEN + a`` sorties into ``a`` without
adding its gunnery (N.44: to lower the enemy's blockade roll or support an invasion).
"""

from __future__ import annotations

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Damage, Ship, enemy
from gwe_fast.games.goa.economy import ceil_div
from gwe_fast.games.goa.model import BLOCKADE_LOSS_SINCE, GoaState, GoaTables
from gwe_fast.games.goa.world import at_war, port_usable

SORTIE = 10000
SCREEN = 20000


def place_areas(t: GoaTables, place: int) -> list[int]:
    """Sea areas a place gives access to (in play)."""
    if place < t.n_ports:
        row = t.p_area[place]
    else:
        row = t.l_area[place - t.n_ports]
    return [a for a in range(t.n_areas) if row[a] and t.a_in_play[a]]


def place_usable(t: GoaTables, s: GoaState, place: int, side: int) -> bool:
    """``side`` may base squadrons or land units at ``place``: a port it controls and may use
    (N.14, N.15, the chart's notes), or a colony it controls (C.41)."""
    if place < t.n_ports:
        return port_usable(t, s, place, side)
    return bool(t.options["colonies"]) and s.colony[place - t.n_ports] == side


def coast_connected(t: GoaTables, s: GoaState, p1: int, p2: int, side: int) -> bool:
    """N.33's chain of contiguous friendly coastal hexes, without the map (stand-in): two
    ports on the map of the same country, sharing a sea area, held by ``side``."""
    if p1 >= t.n_ports or p2 >= t.n_ports or t.p_off_map[p1] or t.p_off_map[p2]:
        return False
    return (t.p_country[p1] == t.p_country[p2]
            and any(t.p_area[p1, a] and t.p_area[p2, a] for a in range(t.n_areas)))


def may_move(t: GoaTables, s: GoaState, q: int, dest: int, side: int) -> bool:
    """N.33: the new base shares a sea area with the old, is friendly and usable; unless the
    two are coast-connected, a shared area was not blockaded by the enemy last month."""
    here = int(s.squadron_base[q])
    if dest == here or not place_usable(t, s, dest, side):
        return False
    shared = [a for a in place_areas(t, here) if a in place_areas(t, dest)]
    if not shared:
        return False
    if coast_connected(t, s, here, dest, side):
        return True
    foe = enemy(side)
    return any(not s.blockade_prev[a, foe] for a in shared)


def active_squadrons(t: GoaTables, s: GoaState, side: int) -> list[int]:
    """Squadrons ``side`` gives orders to: afloat, based, of a belligerent (N.31), and not
    on their way back to Europe (C.44: such a squadron does nothing else until it arrives)."""
    return [q for q in range(t.n_squadrons)
            if s.squadron_damage[q] < Damage.SUNK and s.squadron_base[q] >= 0
            and s.returning[q] < 0
            and at_war(s, int(s.squadron_country[q]))
            and s.side[s.squadron_country[q]] == side]


def squadron_options(t: GoaTables, s: GoaState, q: int) -> list[int]:
    """N.32-N.35: stay, move, or sortie into an area of its base (not while heavily damaged:
    stand-in for Tenney's module)."""
    side = int(s.side[s.squadron_country[q]])
    out = [0]
    here = int(s.squadron_base[q])
    for dest in range(t.n_places):
        if may_move(t, s, q, dest, side):
            out.append(1 + dest)
    if s.squadron_damage[q] < Damage.HEAVY:
        for a in place_areas(t, here):
            out.append(SORTIE + a)
            out.append(SCREEN + a)
    return out


def apply_order(s: GoaState, q: int, code: int) -> None:
    s.squadron_sortie[q] = -1
    s.screen[q] = 0
    if code == 0:
        return
    if code >= SCREEN:
        s.squadron_sortie[q] = code - SCREEN
        s.screen[q] = 1
    elif code >= SORTIE:
        s.squadron_sortie[q] = code - SORTIE
    else:
        s.squadron_base[q] = code - 1
        s.moved[q] = 1


# -- naval combat ----------------------------------------------------------------------------

def sortied(t: GoaTables, s: GoaState, a: int, side: int, fighting_only: bool = False) -> list[int]:
    return [q for q in range(t.n_squadrons)
            if s.squadron_sortie[q] == a and s.squadron_damage[q] < Damage.SUNK
            and s.side[s.squadron_country[q]] == side
            and not (fighting_only and s.screen[q])]


def combat_areas(t: GoaTables, s: GoaState) -> list[int]:
    """N.41: areas where both sides have sortied squadrons."""
    return [a for a in range(t.n_areas)
            if sortied(t, s, a, ALLIED) and sortied(t, s, a, CENTRAL)]


def submarine_areas(t: GoaTables, s: GoaState, side: int) -> list[int]:
    """N.45: with the chart, areas where only the enemy sortied and ``side`` wages
    unrestricted submarine warfare (whose reach C.43 limits for the Central Powers)."""
    if not t.options["naval_combat_chart"] or s.usw[side] < 0:
        return []
    return [a for a in range(t.n_areas)
            if sortied(t, s, a, enemy(side)) and not sortied(t, s, a, side)
            and usw_reaches(t, side, a)]


def usw_reaches(t: GoaTables, side: int, a: int) -> bool:
    """C.43: the Central Powers' unrestricted submarine warfare reaches only sea areas
    adjacent to ports on the map; the Allies' every sea area."""
    if side == ALLIED:
        return True
    return any(t.p_area[p, a] and not t.p_off_map[p] for p in range(t.n_ports))


def gunnery(t: GoaTables, s: GoaState, squadrons: list[int]) -> int:
    return sum(int(t.q_gunnery[q]) for q in squadrons if not s.screen[q])


def chart_column(t: GoaTables, g: int) -> int:
    """N.43: the column whose heading equals or does not exceed the combined gunnery; -1 is
    the far-left column (no squadrons, N.45, or gunnery below the first heading)."""
    col = -1
    for i in range(len(t.ncc_columns)):
        if t.ncc_columns[i] <= g:
            col = i
    return col


def chart_damage(t: GoaTables, col: int, die: int) -> int:
    """The chart's damage for a modified die; a die below 1 does none (``ncc_below_one``) or
    reads row 1."""
    if die < 1 and t.ncc_below_one:
        return 0
    die = max(1, min(6, die))
    if col < 0:
        return int(t.ncc_far_left[die - 1])
    return int(t.ncc_damage[die - 1, col])


def mostly(t: GoaTables, s: GoaState, squadrons: list[int]) -> bool:
    """N.46: a fleet mostly (more than half) German, British or American."""
    if not squadrons:
        return False
    special = sum(1 for q in squadrons
                  if s.squadron_country[q] in (t.germany, t.britain, t.united_states))
    return 2 * special > len(squadrons)


def budgets(damage: int, r1: int, r2: int) -> tuple[int, int, int]:
    """N.43: the protection factors that may be sunk, sunk or heavily damaged, and damaged at
    all, in tenths: ``damage * r1``, ``damage * (r1 + r2)`` capped at ``10 * damage``."""
    total = 10 * damage
    sunk = min(total, damage * max(0, r1))
    heavy = min(total, sunk + damage * max(0, r2))
    return sunk, heavy, total


def designate_options(t: GoaTables, s: GoaState, targets: list[int], used: int, limit: int,
                      chosen: set[int]) -> list[int]:
    """Enemy squadrons that still fit: protection (in tenths) within ``limit``."""
    return [q for q in targets if q not in chosen
            and used + 10 * int(t.q_protection[q]) <= limit]


def worsen(s: GoaState, q: int, level: int) -> None:
    """Damage adds up: light on light is heavy, any more is sunk (stand-in, N.5)."""
    new = min(int(Damage.SUNK), int(s.squadron_damage[q]) + level)
    s.squadron_damage[q] = new
    s.squadron_repair[q] = 0
    if new == Damage.SUNK:
        s.squadron_base[q] = -1
        s.squadron_sortie[q] = -1
        s.sunk[int(s.side[s.squadron_country[q]])] += 1


def repair(t: GoaTables, s: GoaState) -> None:
    """N.5 (stand-in for Tenney's module): a damaged squadron in a usable friendly port, not
    sortied this month, repairs one level after ``repair_months`` of that level; heavy
    damage only in a port of its own country (``heavy_home_port``)."""
    for q in range(t.n_squadrons):
        d = int(s.squadron_damage[q])
        if d == Damage.NONE or d == Damage.SUNK or s.squadron_sortie[q] >= 0:
            continue
        b = int(s.squadron_base[q])
        c = int(s.squadron_country[q])
        if b >= t.n_ports or not port_usable(t, s, b, int(s.side[c])):
            continue
        if d == Damage.HEAVY and t.heavy_home_port and t.p_country[b] != c:
            continue
        s.squadron_repair[q] += 1
        if s.squadron_repair[q] >= t.repair_months[d]:
            s.squadron_damage[q] = d - 1
            s.squadron_repair[q] = 0


# -- blockades (N.6) ---------------------------------------------------------------------------

BLOCKADE_PLUS = {Ship.BATTLESHIP: 1, Ship.DREADNOUGHT: 2, Ship.BATTLECRUISER: 3}   # N.63
BLOCKADE_MINUS = {Ship.DREADNOUGHT: 1, Ship.BATTLECRUISER: 2}                     # N.63


def usw_bonus(t: GoaTables, s: GoaState, side: int, a: int, month: int) -> int:
    """N.64: +4 while waging unrestricted submarine warfare, +1 more for every twelve
    consecutive months; C.43 limits its reach."""
    if s.usw[side] < 0 or not usw_reaches(t, side, a):
        return 0
    return 4 + (month - int(s.usw[side])) // 12


def blockade_modifier(t: GoaTables, s: GoaState, a: int, side: int, month: int) -> int:
    """N.63, N.64: ``side``'s blockade roll in area ``a``."""
    m = 0
    if s.sortie_won[a] in (side, -1):
        for q in sortied(t, s, a, side):
            m += BLOCKADE_PLUS[int(t.q_kind[q])]
    for q in sortied(t, s, a, enemy(side)):
        if s.screen[q] and not s.supported[q] and not s.in_combat[q]:
            m -= BLOCKADE_MINUS.get(int(t.q_kind[q]), 0)
    return m + usw_bonus(t, s, side, a, month)


def blockade_supply_loss(t: GoaTables, s: GoaState, c: int) -> int:
    """N.66 (and C.45 with the colonies): the supply points ``c`` loses to blockades this
    month, rounded up, at most a third of the points due it on entering the war."""
    if c == t.russia and not t.options["colonies"]:
        return 0                                          # N.67
    side = int(s.side[c])
    foe = enemy(side)
    base = int(t.c_supply[c])
    held = [a for a in range(t.n_areas) if s.blockade[a, foe]]
    loss = 0
    if c != t.russia and c != t.japan:
        mine = {a for p in range(t.n_ports) if t.p_country[p] == c and t.p_in_play[p]
                for a in range(t.n_areas) if t.p_area[p, a] and t.a_in_play[a]}
        if mine and all(a in held for a in mine):
            loss = ceil_div(base, 3)
        else:
            for a in (t.east_med, t.west_med):
                if a >= 0 and a in held and a in mine:
                    loss += ceil_div(base, 10)
            if t.north_atlantic >= 0 and t.north_atlantic in held and t.north_atlantic in mine:
                loss += ceil_div(base, 4)
        if c == t.britain and t.north_atlantic in held and t.north_sea in held:
            loss = max(loss, ceil_div(base, 3))
        loss = min(loss, ceil_div(base, 3))
    if t.options["colonies"] and side == ALLIED:      # C.45
        for a, losses in ((t.south_atlantic, {t.britain: 3}), (t.indian_ocean, {t.britain: 3}),
                          (t.east_pacific, {t.britain: 1, t.russia: 4, t.united_states: 3}),
                          (t.west_pacific, {t.united_states: 3})):
            if a >= 0 and s.blockade[a, CENTRAL] and c in losses:
                loss += losses[c]
    if c == t.japan and t.east_pacific >= 0 and s.blockade[t.east_pacific, foe]:
        loss += 12                                        # C.45 (N.66's half, for Japan)
    return loss


def apply_blockade_losses(t: GoaTables, s: GoaState) -> None:
    for c in range(t.n_countries):
        if not at_war(s, c):
            continue
        loss = min(int(s.supply[c]), blockade_supply_loss(t, s, c))
        if blockade_supply_loss(t, s, c) > 0:
            s.since_roll[c] |= BLOCKADE_LOSS_SINCE
        s.supply[c] -= loss
        s.blockade_lost[c] += loss


# -- land units by sea (N.8, N.9, C.51, C.63) -------------------------------------------------

def ship_capacity(t: GoaTables, c: int) -> int:
    """N.85: six units a Naval Phase for Britain and the USA, three for the others."""
    return 6 if c in (t.britain, t.united_states) else 3


def detached(t: GoaTables, c: int, host: int) -> bool:
    """N.76: a host that is not the unit's home country (France is home for British and
    American units, Britain for American)."""
    if host == c:
        return False
    if host == t.france and c in (t.britain, t.united_states):
        return False
    if host == t.britain and c == t.united_states:
        return False
    return True


def detached_units(t: GoaTables, s: GoaState, c: int) -> int:
    n = sum(int(s.abroad[c, h]) // t.corps for h in range(t.n_countries) if detached(t, c, h))
    return n + sum(int(s.col_units[l, c]) for l in range(t.n_colonies))


def detached_limit(t: GoaTables, c: int) -> int:
    return 12 if c in (t.britain, t.united_states) else 6


def routes_to(t: GoaTables, s: GoaState, c: int, dest: int) -> bool:
    """N.81-N.83: a port ``c``'s land units sail from (its home ports) and place ``dest``
    share a sea area not blockaded against its side; ``dest`` is friendly, usable and holds
    no enemy squadron."""
    side = int(s.side[c])
    foe = enemy(side)
    if not place_usable(t, s, dest, side):
        return False
    if any(s.squadron_base[q] == dest and s.squadron_damage[q] < Damage.SUNK
           and s.side[s.squadron_country[q]] == foe for q in range(t.n_squadrons)):
        return False
    dest_areas = place_areas(t, dest)
    for p in range(t.n_ports):
        if not t.c_home_ports[c, p] or not port_usable(t, s, p, side):
            continue
        for a in place_areas(t, p):
            if a in dest_areas and not s.blockade[a, foe]:
                return True
    return False


def host_reachable(t: GoaTables, s: GoaState, c: int, h: int) -> bool:
    """``c`` can ship land units to host ``h``: one of ``h``'s ports on the map."""
    return any(t.p_country[p] == h and not t.p_off_map[p] and routes_to(t, s, c, p)
               for p in range(t.n_ports))


def ship_options(t: GoaTables, s: GoaState, c: int) -> list[int]:
    """``Kind.SHIP`` for country ``c``: 0 none, ``1 + 8 * dest + (n - 1)``: ``n`` units to
    ``dest``: a host country (``h``), home from a host (``C + h``), a colony of its side
    (``2C + l``), home from a colony (``2C + L + l``). One destination a Naval Phase
    (docs/rulings.md, N.85)."""
    if not t.options["naval"] or not at_war(s, c):
        return [0]
    C, L = t.n_countries, t.n_colonies
    cap = ship_capacity(t, c)
    room = detached_limit(t, c) - detached_units(t, s, c)
    home_units = int(s.army[c]) // t.corps
    out = [0]
    for h in range(C):
        if t.c_host[c, h] and at_war(s, h) and s.side[h] == s.side[c] and host_reachable(t, s, c, h):
            n_max = min(cap, home_units, room if detached(t, c, h) else cap)
            out.extend(1 + 8 * h + n - 1 for n in range(1, n_max + 1))
        there = int(s.abroad[c, h]) // t.corps
        if there > 0:
            out.extend(1 + 8 * (C + h) + n - 1 for n in range(1, min(cap, there) + 1))
    if t.options["colonies"]:
        for l in range(L):
            if routes_to(t, s, c, t.n_ports + l):
                n_max = min(cap, home_units, room)
                out.extend(1 + 8 * (2 * C + l) + n - 1 for n in range(1, n_max + 1))
            if s.col_units[l, c] > 0 and s.colony[l] == s.side[c]:
                n_max = min(cap, int(s.col_units[l, c]))
                out.extend(1 + 8 * (2 * C + L + l) + n - 1 for n in range(1, n_max + 1))
    return out


def ship(t: GoaTables, s: GoaState, c: int, code: int) -> None:
    if code == 0:
        return
    C, L = t.n_countries, t.n_colonies
    dest, n = divmod(code - 1, 8)
    n += 1
    if dest < C:
        s.army[c] -= n * t.corps
        s.abroad[c, dest] += n * t.corps
    elif dest < 2 * C:
        h = dest - C
        move = min(n * t.corps, int(s.abroad[c, h]))
        s.abroad[c, h] -= move
        s.army[c] += move
    elif dest < 2 * C + L:
        l = dest - 2 * C
        s.army[c] -= n * t.corps
        s.col_units[l, c] += n
        s.col_af[l, c] += n * t.corps
    else:
        l = dest - 2 * C - L
        af = int(s.col_af[l, c]) * n // int(s.col_units[l, c])
        s.col_units[l, c] -= n
        s.col_af[l, c] -= af
        s.army[c] += n * t.corps
