"""Naval Operations (N.11-N.96): squadrons, naval combat, repair, blockades and unrestricted
submarine warfare, supply and land units by sea, amphibious invasions, marines.

Places are numbered ports first (``0 .. n_ports - 1``), then colonies and areas (``n_ports +
l``): the colonial variant's colonies function as ports (C.41). A squadron is based at a
place (``squadron_base``) and may be sortied into a sea area (``squadron_sortie``) for the
month. Squadron codes of ``Kind.SQUADRON``: 0 stays, ``1 + place`` moves there,
``SORTIE + a`` sorties into area ``a`` to fight, ``SCREEN + a`` sorties into ``a`` without
adding its gunnery to lower the enemy's blockade roll, ``SUPPORT + a`` sorties into ``a``
without adding its gunnery to support an amphibious invasion (N.44, N.63, N.94: a squadron
is used for one of the two; ``screen`` holds 1 and 2 for them).
"""

from __future__ import annotations

import numpy as np

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, NEUTRAL, Damage, Ship, enemy
from gwe_fast.games.goa.economy import ceil_div
from gwe_fast.games.goa.model import BLOCKADE_LOSS_SINCE, GoaState, GoaTables
from gwe_fast.games.goa.world import at_war, port_control, port_usable

SORTIE = 10000
SCREEN = 20000
SUPPORT = 30000
#: ``screen`` values: fights with its gunnery, lowers blockades, supports invasions
FIGHTS, SCREENS, SUPPORTS = 0, 1, 2


def place_areas(t: GoaTables, place: int) -> list[int]:
    """Sea areas a place gives access to (in play)."""
    row = t.p_area[place] if place < t.n_ports else t.l_area[place - t.n_ports]
    return np.flatnonzero(row & t.a_in_play).tolist()


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
    """Squadrons ``side`` gives orders to: afloat, based, of a belligerent (N.31), not on
    their way back from the colonies (C.44)."""
    return [q for q in range(t.n_squadrons)
            if s.squadron_damage[q] < Damage.SUNK and s.squadron_base[q] >= 0
            and s.returning[q] < 0 and at_war(s, int(s.squadron_country[q]))
            and s.side[s.squadron_country[q]] == side]


def squadron_options(t: GoaTables, s: GoaState, q: int, orders: dict | None = None) -> list[int]:
    """N.32-N.35: stay, move, or sortie into an area of its base (not while heavily damaged:
    stand-in for Tenney's module). ``orders`` are the orders given so far this phase (C.26's
    American Pacific margin counts the moves already ordered)."""
    side = int(s.side[s.squadron_country[q]])
    out = [0]
    here = int(s.squadron_base[q])
    for dest in range(t.n_places):
        if may_move(t, s, q, dest, side) and pacific_margin_kept(t, s, q, dest, orders):
            out.append(1 + dest)
    if s.squadron_damage[q] < Damage.HEAVY:
        for a in place_areas(t, here):
            out.extend((SORTIE + a, SCREEN + a, SUPPORT + a))
    return out


def apply_order(s: GoaState, q: int, code: int) -> None:
    s.squadron_sortie[q] = -1
    s.screen[q] = FIGHTS
    if code == 0:
        return
    if code >= SUPPORT:
        s.squadron_sortie[q] = code - SUPPORT
        s.screen[q] = SUPPORTS
    elif code >= SCREEN:
        s.squadron_sortie[q] = code - SCREEN
        s.screen[q] = SCREENS
    elif code >= SORTIE:
        s.squadron_sortie[q] = code - SORTIE
    else:
        s.squadron_base[q] = code - 1
        s.moved[q] = 1


# -- C.26: the American Pacific fleet --------------------------------------------------------

PACIFIC = ("east_pacific", "west_pacific", "south_pacific")


def in_pacific(t: GoaTables, place: int) -> bool:
    """``place`` gives access to the East, West or South Pacific."""
    areas = place_areas(t, place)
    return any(getattr(t, name) in areas for name in PACIFIC if getattr(t, name) >= 0)


def pacific_margin_kept(t: GoaTables, s: GoaState, q: int, dest: int,
                        orders: dict | None) -> bool:
    """C.26: the USA must keep more squadrons based where the East, West or South Pacific
    can be reached than Japan has before basing one anywhere else: an American move to a
    place off the Pacific is legal only if, after it and the moves ordered before it, the
    American Pacific squadrons still outnumber Japan's squadrons."""
    u, j = t.united_states, t.japan
    if not t.options["colonies"] or u < 0 or j < 0 or s.squadron_country[q] != u \
            or in_pacific(t, dest):
        return True
    afloat = [r for r in range(t.n_squadrons)
              if s.squadron_base[r] >= 0 and s.squadron_damage[r] < Damage.SUNK]
    japanese = sum(1 for r in afloat if s.squadron_country[r] == j)
    american = 0
    for r in afloat:
        if s.squadron_country[r] != u or r == q:
            continue
        base = int(s.squadron_base[r])
        code = (orders or {}).get(r, 0)
        if 0 < code < SORTIE:
            base = code - 1
        if in_pacific(t, base):
            american += 1
    return american > japanese


# -- N.34: squadrons left in a port they do not control ---------------------------------------

def place_control(t: GoaTables, s: GoaState, place: int) -> int:
    """The side controlling a port (N.14, N.15) or colony (C.41)."""
    if place < t.n_ports:
        return port_control(t, s, place)
    return int(s.colony[place - t.n_ports])


def captor_country(t: GoaTables, s: GoaState, place: int, side: int) -> int:
    """The country a squadron taken at ``place`` passes to: the place's own country when it
    is at war on ``side``, else the first belligerent of ``side`` in table order."""
    home = int(t.p_country[place]) if place < t.n_ports else int(t.l_owner[place - t.n_ports])
    if home >= 0 and at_war(s, home) and s.side[home] == side:
        return home
    for c in range(t.n_countries):
        if at_war(s, c) and s.side[c] == side:
            return c
    return -1


def stranded(t: GoaTables, s: GoaState, dice) -> None:
    """N.34, at the end of the Naval Phase: a squadron based in a port (or colony, C.41) that
    its side does not control is scuttled on a die of three or less (removed from the game),
    else it falls to the player controlling the port; in a neutral port, where no player
    takes it, it is interned (removed as well: docs/rulings.md, N.34). Squadrons on their way
    back from the colonies are at sea (C.44)."""
    for q in range(t.n_squadrons):
        b = int(s.squadron_base[q])
        if b < 0 or s.squadron_damage[q] == Damage.SUNK or s.returning[q] >= 0:
            continue
        side = int(s.side[s.squadron_country[q]])
        holder = place_control(t, s, b)
        if holder == side:
            continue
        if side == NEUTRAL and holder == NEUTRAL:
            continue
        captor = captor_country(t, s, b, holder) if holder != NEUTRAL else -1
        if dice.die() <= 3 or captor < 0:
            s.squadron_damage[q] = Damage.SUNK
            s.squadron_base[q] = -1
            s.squadron_sortie[q] = -1
        else:
            s.squadron_country[q] = captor
            s.squadron_sortie[q] = -1


# -- naval combat ----------------------------------------------------------------------------

def sortied(t: GoaTables, s: GoaState, a: int, side: int, fighting_only: bool = False) -> list[int]:
    return [q for q in range(t.n_squadrons)
            if s.squadron_sortie[q] == a and s.squadron_damage[q] < Damage.SUNK
            and s.side[s.squadron_country[q]] == side
            and not (fighting_only and s.screen[q] != FIGHTS)]


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
    """N.43, N.44: the combined gunnery of the squadrons sortied to fight."""
    return sum(int(t.q_gunnery[q]) for q in squadrons if s.screen[q] == FIGHTS)


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
    """N.43, in tenths of protection factors: what may be sunk (``damage * r1 / 10``), what
    may be heavily damaged (``damage * r2 / 10``), and all that may be hit at all
    (``damage``; the sunk and heavily damaged count against it too)."""
    total = 10 * damage
    return min(total, damage * max(0, r1)), min(total, damage * max(0, r2)), total


def designate_options(t: GoaTables, targets: list[int], level_used: int, level_cap: int,
                      used: int, total: int, chosen: set[int]) -> list[int]:
    """N.43: the enemy squadrons that still fit the level being designated: their protection
    (in tenths) within what is left of the level's budget and of the whole damage."""
    out = []
    for q in targets:
        p = 10 * int(t.q_protection[q])
        if q not in chosen and level_used + p <= level_cap and used + p <= total:
            out.append(q)
    return out


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
    """N.63, N.64: ``side``'s blockade roll in area ``a``: + for its squadrons left in the
    area after the naval combat (all of them where there was none, the winner's where there
    was, N.43), - for the enemy's dreadnoughts and battlecruisers sortied there to lower it
    (N.44), not in naval combat; squadrons sortied to support an invasion count for neither
    (N.94: a supporting squadron is not used to modify a blockade roll)."""
    m = 0
    if s.sortie_won[a] in (side, -1):
        for q in sortied(t, s, a, side):
            if s.screen[q] != SUPPORTS:
                m += BLOCKADE_PLUS[int(t.q_kind[q])]
    for q in sortied(t, s, a, enemy(side)):
        if s.screen[q] == SCREENS and not s.in_combat[q]:
            m -= BLOCKADE_MINUS.get(int(t.q_kind[q]), 0)
    return m + usw_bonus(t, s, side, a, month)


def blockade_supply_loss(t: GoaTables, s: GoaState, c: int) -> int:
    """N.66 (and C.45 with the colonies): the supply points ``c`` loses to blockades this
    month, each loss rounded up, in all at most a third of the points due it on entering the
    war (the table's figure), Japan excepted.

    N.66: a third when every sea area its ports reach is blockaded against it; else a tenth
    for each of the East and West Mediterranean blockaded and a fourth for the North Atlantic,
    where it entered the war with a port on that area; Britain a third when the North
    Atlantic and the North Sea are both blockaded. Russia loses nothing (N.67) but C.45's
    four. C.45: the Central Powers' blockade of the South Atlantic or the Indian Ocean costs
    Britain three (once, whether one or both: docs/rulings.md, C.45); of the East Pacific,
    Britain one, Russia four, the USA three; of the West Pacific, the USA three. Japan loses
    twelve when an enemy blockades the East Pacific (C.45's figure for N.66's "half", stated
    twice and applied once)."""
    side = int(s.side[c])
    foe = enemy(side)
    base = int(t.c_supply[c])
    held = [a for a in range(t.n_areas) if s.blockade[a, foe]]
    if c == t.japan:
        return 12 if t.east_pacific >= 0 and t.east_pacific in held else 0
    loss = 0
    if c != t.russia:
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
    if t.options["colonies"] and side == ALLIED:      # C.45
        if c == t.britain and (t.south_atlantic in held or t.indian_ocean in held):
            loss += 3
        if t.east_pacific >= 0 and t.east_pacific in held:
            loss += {t.britain: 1, t.russia: 4, t.united_states: 3}.get(c, 0)
        if c == t.united_states and t.west_pacific >= 0 and t.west_pacific in held:
            loss += 3
    return min(loss, ceil_div(base, 3))


def apply_blockade_losses(t: GoaTables, s: GoaState) -> None:
    """N.66: each belligerent's losses this month, from its stock; N.68 = M._3 remembers
    the loss for the next morale roll."""
    for c in range(t.n_countries):
        if not at_war(s, c):
            continue
        due = blockade_supply_loss(t, s, c)
        if due > 0:
            s.since_roll[c] |= BLOCKADE_LOSS_SINCE
        loss = min(int(s.supply[c]), due)
        s.supply[c] -= loss
        s.blockade_lost[c] += loss


# -- marines (N.96) -------------------------------------------------------------------------

#: months from a marine's conversion to its placement at home
MARINE_DELAY = 3


def marines_arrive(s: GoaState, month: int) -> None:
    """N.96: the marines converted ``MARINE_DELAY`` months ago are ready at home (Norfolk or
    San Diego) this Naval Phase. ``marines``: made, ready, then a ring of four months."""
    s.marines[1] += s.marines[2 + month % 4]
    s.marines[2 + month % 4] = 0


# -- land units by sea (N.8, N.9, C.51, C.63) -------------------------------------------------

def ship_capacity(t: GoaTables, c: int) -> int:
    """N.85: six units a Naval Phase for Britain and the USA, three for the others."""
    return 6 if c in (t.britain, t.united_states) else 3


def capacity_left(t: GoaTables, s: GoaState, c: int) -> int:
    """N.85: units ``c`` may still move by sea this Naval Phase (shipping and landings)."""
    return max(0, ship_capacity(t, c) - int(s.shipped[c]))


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


def home_colony(t: GoaTables, c: int) -> int:
    """The colony or area that is ``c``'s home (Japan's home islands), -1."""
    return t.japan_area if c == t.japan and c >= 0 else -1


def detached_units(t: GoaTables, s: GoaState, c: int) -> int:
    """N.76: ``c``'s land units served by detached supply sources: abroad outside its home
    countries, and in colonies and areas (C.41) other than its own home islands."""
    n = sum(int(s.abroad[c, h]) // t.corps for h in range(t.n_countries) if detached(t, c, h))
    home = home_colony(t, c)
    return n + sum(int(s.col_units[l, c]) for l in range(t.n_colonies) if l != home)


def detached_limit(t: GoaTables, c: int) -> int:
    return 12 if c in (t.britain, t.united_states) else 6


def detached_room(t: GoaTables, s: GoaState, c: int) -> int:
    """N.76: how many more land units ``c`` may put where detached sources supply them."""
    return max(0, detached_limit(t, c) - detached_units(t, s, c))


def home_units(t: GoaTables, s: GoaState, c: int) -> int:
    """Land units ``c`` has at home: corps of its army, Japan's units in its home islands."""
    home = home_colony(t, c)
    if home >= 0:
        return int(s.col_units[home, c])
    return int(s.army[c]) // t.corps


def take_home(t: GoaTables, s: GoaState, c: int, n: int) -> int:
    """``n`` land units leave ``c``'s home; returns their attack factors."""
    home = home_colony(t, c)
    if home < 0:
        s.army[c] -= n * t.corps
        return n * t.corps
    return take_colony(s, home, c, n)


def put_home(t: GoaTables, s: GoaState, c: int, n: int, af: int) -> None:
    home = home_colony(t, c)
    if home < 0:
        s.army[c] += n * t.corps
    else:
        s.col_units[home, c] += n
        s.col_af[home, c] += af


def take_colony(s: GoaState, l: int, c: int, n: int) -> int:
    """``n`` of ``c``'s land units leave colony ``l`` with their share of its attack
    factors (the units are counted, not told apart: docs/rulings.md, C.68)."""
    af = int(s.col_af[l, c]) * n // int(s.col_units[l, c])
    s.col_units[l, c] -= n
    s.col_af[l, c] -= af
    return af


def sail_places(t: GoaTables, s: GoaState, c: int) -> list[int]:
    """Places ``c``'s land units at home embark at: its ports on the map and the off-map
    ports its units may use (N.84: an overland connection; C.54: Norfolk, San Diego), while
    usable; Japan's home islands."""
    home = home_colony(t, c)
    if home >= 0:
        return [t.n_ports + home] if s.colony[home] == s.side[c] else []
    side = int(s.side[c])
    return [p for p in range(t.n_ports) if t.c_home_ports[c, p] and port_usable(t, s, p, side)]


def sea_link(t: GoaTables, s: GoaState, c: int, sources: list[int], dest: int) -> bool:
    """N.82: one of ``sources`` and ``dest`` reach one sea area not blockaded against
    ``c``'s side."""
    foe = enemy(int(s.side[c]))
    dest_areas = place_areas(t, dest)
    return any(a in dest_areas and not s.blockade[a, foe]
               for p in sources for a in place_areas(t, p))


def enemy_squadron_at(t: GoaTables, s: GoaState, place: int, side: int) -> bool:
    foe = int(enemy(side))
    sunk = int(Damage.SUNK)
    return any(s.squadron_base[q] == place and s.squadron_damage[q] < sunk
               and s.side[s.squadron_country[q]] == foe for q in range(t.n_squadrons))


def routes_to(t: GoaTables, s: GoaState, c: int, dest: int, sources: list[int] | None = None) -> bool:
    """N.81-N.83: ``c``'s land units may sail from ``sources`` (its home's by default) to
    ``dest``: friendly and usable, holding no enemy squadron, sharing an unblockaded sea
    area with a source."""
    side = int(s.side[c])
    if not place_usable(t, s, dest, side) or enemy_squadron_at(t, s, dest, side):
        return False
    return sea_link(t, s, c, sail_places(t, s, c) if sources is None else sources, dest)


def host_ports(t: GoaTables, h: int) -> list[int]:
    return [p for p in range(t.n_ports) if t.p_country[p] == h and not t.p_off_map[p]]


def host_reachable(t: GoaTables, s: GoaState, c: int, h: int) -> bool:
    """``c`` can ship land units to host ``h``: one of ``h``'s ports on the map."""
    return any(routes_to(t, s, c, p) for p in host_ports(t, h))


def home_reachable_from_host(t: GoaTables, s: GoaState, c: int, h: int) -> bool:
    """``c``'s units in host ``h`` can sail home: from a usable port of ``h`` on the map to
    one of ``c``'s embarkation places, over an unblockaded area."""
    side = int(s.side[c])
    homes = [p for p in sail_places(t, s, c) if not enemy_squadron_at(t, s, p, side)]
    return any(port_usable(t, s, p, side) and sea_link(t, s, c, homes, p)
               for p in host_ports(t, h))


#: ``Kind.SHIP`` destination blocks (see ``ship_options``)
TO_HOST, FROM_HOST, TO_COLONY, FROM_COLONY, COLONY_TO_COLONY = range(5)


def ship_code(t: GoaTables, block: int, index: int, n: int) -> int:
    C, L = t.n_countries, t.n_colonies
    starts = (0, C, 2 * C, 2 * C + L, 2 * C + 2 * L)
    return 1 + 8 * (starts[block] + index) + n - 1


def ship_decode(t: GoaTables, code: int) -> tuple[int, int, int]:
    """``(block, index, n)`` of a ``Kind.SHIP`` code other than 0."""
    C, L = t.n_countries, t.n_colonies
    dest, n = divmod(code - 1, 8)
    for block, start in ((COLONY_TO_COLONY, 2 * C + 2 * L), (FROM_COLONY, 2 * C + L),
                         (TO_COLONY, 2 * C), (FROM_HOST, C), (TO_HOST, 0)):
        if dest >= start:
            return block, dest - start, n + 1
    raise ValueError(code)


def ship_options(t: GoaTables, s: GoaState, c: int) -> list[int]:
    """``Kind.SHIP`` for country ``c``: 0 stops; else ``ship_code(block, index, n)``: ``n``
    units to host country ``index`` (``TO_HOST``), home from host ``index`` (``FROM_HOST``),
    from home to colony ``index`` (``TO_COLONY``), home from colony ``index``
    (``FROM_COLONY``), or between colonies ``index = src * L + dst`` (``COLONY_TO_COLONY``,
    C.51). The engine asks again after each move, until 0 or N.85's capacity is used; N.76
    limits the units put where detached sources supply them."""
    if not t.options["naval"] or not at_war(s, c):
        return [0]
    L = t.n_colonies
    cap = capacity_left(t, s, c)
    if cap <= 0:
        return [0]
    room = detached_room(t, s, c)
    at_home = home_units(t, s, c)
    side = int(s.side[c])
    home = home_colony(t, c)
    out = [0]
    for h in range(t.n_countries):
        if t.c_host[c, h] and at_war(s, h) and s.side[h] == side and host_reachable(t, s, c, h):
            n_max = min(cap, at_home, room if detached(t, c, h) else cap)
            out.extend(ship_code(t, TO_HOST, h, n) for n in range(1, n_max + 1))
        there = int(s.abroad[c, h]) // t.corps
        if there > 0 and home_reachable_from_host(t, s, c, h):
            out.extend(ship_code(t, FROM_HOST, h, n) for n in range(1, min(cap, there) + 1))
    if not t.options["colonies"]:
        return out
    homes = sail_places(t, s, c)
    for l in range(L):
        if l == home:
            continue
        place = t.n_ports + l
        if routes_to(t, s, c, place):
            n_max = min(cap, at_home, room)
            out.extend(ship_code(t, TO_COLONY, l, n) for n in range(1, n_max + 1))
        have = int(s.col_units[l, c])
        if have <= 0 or s.colony[l] != side:
            continue
        if any(sea_link(t, s, c, [place], p) for p in homes):
            out.extend(ship_code(t, FROM_COLONY, l, n) for n in range(1, min(cap, have) + 1))
        for dst in range(L):
            if dst != l and dst != home and routes_to(t, s, c, t.n_ports + dst, [place]):
                out.extend(ship_code(t, COLONY_TO_COLONY, l * L + dst, n)
                           for n in range(1, min(cap, have) + 1))
    return out


def ship(t: GoaTables, s: GoaState, c: int, code: int) -> None:
    """Carry out one ``Kind.SHIP`` order of ``c`` (it counts against N.85's capacity)."""
    if code == 0:
        return
    block, index, n = ship_decode(t, code)
    L = t.n_colonies
    s.shipped[c] += n
    if block == TO_HOST:
        take_home(t, s, c, n)
        s.abroad[c, index] += n * t.corps
    elif block == FROM_HOST:
        # strength points, not corps, abroad: the last corps brings any odd points home
        there = int(s.abroad[c, index])
        move = there if n >= there // t.corps else n * t.corps
        s.abroad[c, index] -= move
        s.army[c] += move
    elif block == TO_COLONY:
        af = take_home(t, s, c, n)
        s.col_units[index, c] += n
        s.col_af[index, c] += af
    elif block == FROM_COLONY:
        af = take_colony(s, index, c, n)
        put_home(t, s, c, n, af)
    else:
        src, dst = divmod(index, L)
        af = take_colony(s, src, c, n)
        s.col_units[dst, c] += n
        s.col_af[dst, c] += af
