"""Facts about the position that many rules read: who is at war, who controls what.

Each is one small function of the tables ``t`` and the state ``s``; the rules modules and the
policies share them, and the compiled core has one function for each.
"""

from __future__ import annotations

from gwe_fast.games.goa.codes import NEUTRAL, enemy
from gwe_fast.games.goa.model import GoaState, GoaTables




def at_war(s: GoaState, c: int) -> bool:
    """A belligerent: on a side and not conquered (S._11)."""
    return c >= 0 and s.side[c] != NEUTRAL and s.conquered[c] < 0


def active(s: GoaState, c: int) -> bool:
    """At war as a full or limited participant."""
    return at_war(s, c)


def at_war_with(s: GoaState, c: int, d: int) -> bool:
    """``c`` and ``d`` are belligerents on opposite sides."""
    return at_war(s, c) and at_war(s, d) and s.side[c] != s.side[d]


def side_of(s: GoaState, c: int) -> int:
    return int(s.side[c]) if c >= 0 else NEUTRAL


def cities_of(t: GoaTables, c: int) -> list[int]:
    """The cities of country ``c`` (in file order)."""
    return [k for k in range(t.n_cities) if t.k_country[k] == c]


def enemy_held_cities(t: GoaTables, s: GoaState, c: int) -> int:
    """How many of ``c``'s cities its enemy controls (M._1, base morale)."""
    own = s.side[c]
    if own == NEUTRAL:
        return 0
    foe = enemy(own)
    return sum(1 for k in range(t.n_cities) if t.k_country[k] == c and s.city[k] == foe)


def objectives_held(t: GoaTables, s: GoaState, side: int) -> int:
    """Objective cities ``side`` controls."""
    return sum(1 for k in range(t.n_cities) if t.k_objective[k] and s.city[k] == side)


def n_objectives(t: GoaTables) -> int:
    return int(sum(1 for k in range(t.n_cities) if t.k_objective[k]))


def belligerents(t: GoaTables, s: GoaState, side: int | None = None) -> list[int]:
    """Countries at war (on ``side`` when given), in table order."""
    return [c for c in range(t.n_countries)
            if at_war(s, c) and (side is None or s.side[c] == side)]


def port_usable(t: GoaTables, s: GoaState, p: int, side: int) -> bool:
    """Port ``p`` can be used by ``side``: in play, not closed to it (the Ports chart's
    "only if no enemy units occupy" notes, S._15), and controlled by it (N.14, N.15)."""
    if not t.p_in_play[p] or port_closed(t, s, p):
        return False
    if port_control(t, s, p) != side:
        return False
    closer = t.p_closed_by[p]
    if closer >= 0:
        # the note's hex lies in the closer's territory: an enemy there closes the port
        if at_war(s, closer) and s.side[closer] == enemy(side):
            return False
        if s.conquered[closer] >= 0 and s.side[closer] == side:
            return False     # conquered by the enemy: its garrisons hold the estuary
    return True


def port_closed(t: GoaTables, s: GoaState, p: int) -> bool:
    """An off-map port of a conquered country may not be used by anyone (S._15)."""
    c = t.p_country[p]
    return bool(t.p_off_map[p] and c >= 0 and s.conquered[c] >= 0)


def port_control(t: GoaTables, s: GoaState, p: int) -> int:
    """The side controlling a port: its city's controller on the map (N.14); off the map,
    its home country's side (N.15: only the home country may control it)."""
    k = t.p_city[p]
    if k >= 0:
        return int(s.city[k])
    return side_of(s, int(t.p_country[p]))
