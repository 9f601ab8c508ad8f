"""Surrender and conquest (S._11-S._16), and the garrisons a conqueror keeps.

A country is conquered when it surrenders in a Morale Phase, or when the enemy holds every
one of its cities at the start of the Inter-Player Turn (S._12) — but a country with ports
off the map surrenders only in a Morale Phase (N.15). The conqueror garrisons its cities
(S._13): one unit (``corps`` strength points) each, drawn from its armies; the Central Powers
may keep three in each city of Russia, France and Italy (S._14, M._6).
"""

from __future__ import annotations

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Damage
from gwe_fast.games.goa.model import GoaState, GoaTables
from gwe_fast.games.goa.world import at_war


def conquer(t: GoaTables, s: GoaState, c: int, by: int, month: int, by_morale: bool) -> None:
    """``c`` is conquered by side ``by`` this month."""
    if s.conquered[c] >= 0:
        return
    s.conquered[c] = month
    # S._16: every unit the country controlled is eliminated or scuttled; it produces nothing
    s.strength_lost[c] += int(s.army[c]) + int(s.abroad[c].sum())
    s.army[c] = 0
    s.abroad[c, :] = 0
    s.supply[c] = 0
    s.personnel_last[c] = 0          # this month's points are lost with the country
    s.supply_last[c] = 0
    for h in range(t.n_countries):       # forces abroad in it go home (docs/rulings.md, S._16)
        if s.abroad[h, c]:
            s.army[h] += s.abroad[h, c]
            s.abroad[h, c] = 0
    for q in range(t.n_squadrons):
        if s.squadron_country[q] == c and s.squadron_damage[q] < Damage.SUNK:
            s.squadron_damage[q] = Damage.SUNK
            s.squadron_base[q] = -1
            s.squadron_sortie[q] = -1
    for l in range(t.n_colonies):
        s.col_af[l, c] = 0
        s.col_units[l, c] = 0
    # S._13: the conqueror occupies its cities, one unit in each (without the surrender
    # variant: they simply pass to the conqueror)
    for k in range(t.n_cities):
        if t.k_country[k] != c:
            continue
        if s.city[k] != by:
            s.city[k] = by
        if t.options["surrender"] and s.garrison[k] < 1:
            place_garrison(t, s, k, by, 1)


def garrison_payer(t: GoaTables, s: GoaState, side: int) -> int:
    """The country of ``side`` whose army garrisons: the one with the most land strength
    at home (lowest index on a tie), -1 if none."""
    best, strength = -1, 0
    for c in range(t.n_countries):
        if at_war(s, c) and s.side[c] == side and s.army[c] > strength:
            best, strength = c, int(s.army[c])
    return best


def place_garrison(t: GoaTables, s: GoaState, k: int, side: int, units: int) -> None:
    """Bring city ``k``'s garrison up to ``units``, as far as ``side``'s armies allow."""
    while s.garrison[k] < units:
        payer = garrison_payer(t, s, side)
        if payer < 0 or s.army[payer] < t.corps:
            return
        s.army[payer] -= t.corps
        s.garrison[k] += 1


def release_garrison(t: GoaTables, s: GoaState, k: int, side: int, units: int) -> None:
    """Bring city ``k``'s garrison down to ``units``: the units go back to ``side``'s
    strongest army."""
    while s.garrison[k] > units:
        payer = garrison_payer(t, s, side)
        if payer < 0:
            s.garrison[k] = units
            return
        s.army[payer] += t.corps
        s.garrison[k] -= 1


def triple_targets(t: GoaTables, s: GoaState) -> list[int]:
    """Conquered Allied countries whose cities the Central Powers may hold with three units
    each (S._14, M._6): Russia (every city), France and Italy (the objective cities)."""
    return [c for c in (t.russia, t.france, t.italy)
            if c >= 0 and s.conquered[c] >= 0 and s.side[c] == ALLIED]


def set_triple(t: GoaTables, s: GoaState, c: int, on: bool) -> None:
    """Hold ``c``'s cities (S._14: every city of Russia; the objective cities of France and
    Italy) with three units each (``on``) or one."""
    for k in range(t.n_cities):
        if t.k_country[k] != c or s.city[k] != CENTRAL:
            continue
        if c != t.russia and not t.k_objective[k]:
            continue
        if on:
            place_garrison(t, s, k, CENTRAL, 3)
        else:
            release_garrison(t, s, k, CENTRAL, 1)


def occupation_conquests(t: GoaTables, s: GoaState, month: int) -> None:
    """S._12: a country all of whose cities the enemy controls at the start of the
    Inter-Player Turn is conquered; N.15: not one with ports off the map. Japan, which has no
    city on the map, when the enemy holds its home islands (docs/rulings.md, S._12)."""
    for c in range(t.n_countries):
        if not at_war(s, c):
            continue
        if any(t.p_off_map[p] and t.p_country[p] == c and t.p_in_play[p]
               for p in range(t.n_ports)):
            continue
        foe = 1 - int(s.side[c])
        mine = [k for k in range(t.n_cities) if t.k_country[k] == c]
        if mine and all(s.city[k] == foe for k in mine):
            conquer(t, s, c, foe, month, by_morale=False)
        elif c == t.japan and t.japan_area >= 0 and s.colony[t.japan_area] == foe:
            conquer(t, s, c, foe, month, by_morale=False)     # its home islands stand for its cities


def abandoned_off_map_ports(t: GoaTables, s: GoaState, month: int) -> None:
    """S._15: squadrons still in an off-map port of a country conquered before last month
    are scuttled (they had the following month to leave)."""
    for q in range(t.n_squadrons):
        b = int(s.squadron_base[q])
        if b < 0 or b >= t.n_ports or s.squadron_damage[q] == Damage.SUNK:
            continue
        c = t.p_country[b]
        if t.p_off_map[b] and c >= 0 and 0 <= s.conquered[c] < month:
            s.squadron_damage[q] = Damage.SUNK
            s.squadron_base[q] = -1
            s.squadron_sortie[q] = -1
