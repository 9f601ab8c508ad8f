"""Colonies (C.11-C.69): the colonial land war off the map, Japan's forces (C.26) and the
return of colonial battlecruisers (C.44).

Colonies and areas are places ``n_ports + l`` (C.41: they function as ports). Land units
there are counted per country (``col_units``) with their attack factors (``col_af``, support
units excluded, C.68). Sea movement to and from colonies and amphibious invasions of them
are in the Naval Phase (``naval.py``, ``naval_combat.py``: C.51, C.63, C.64); this phase moves
land units overland (C.52, C.53), rolls the quarterly colonial combat (C.61, C.62, C.65,
C.68) and resolves returns (C.44).
"""

from __future__ import annotations

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, NEUTRAL, Damage, Kind, Month, Ship, enemy
from gwe_fast.games.goa.model import JAPAN_CONQUESTS, JAPAN_POOL, GoaState, GoaTables
from gwe_fast.games.goa.naval import detached_room, take_colony
from gwe_fast.games.goa.world import at_war

COLONY, SOVEREIGN, CHINA, TURKISH, TURKISH_OPPONENT, JAPAN = range(6)


def japanese_forces(t: GoaTables, s: GoaState, month: int) -> None:
    """C.26: belligerent Japan turns its personnel into units of its force pool, in the
    pool's order, each costing its attack factors (stand-in for the production rules); a
    month after the USA enters, Japan receives three 3-5-3 infantry corps."""
    j = t.japan
    home = t.japan_area
    if j < 0 or home < 0 or s.conquered[j] >= 0:      # S._16: a conquered Japan gets none
        return
    u = t.united_states
    if s.conquered[j] >= 0:
        return
    if u >= 0 and s.entered[u] >= 0 and month == s.entered[u] + 1:
        s.col_units[home, j] += 3
        s.col_af[home, j] += 9
    if not at_war(s, j) or s.colony[home] != s.side[j]:
        return
    i = int(s.scalars[JAPAN_POOL])
    while i < t.japan_pool.shape[0]:
        attack, support = int(t.japan_pool[i, 0]), int(t.japan_pool[i, 1])
        cost = max(1, attack)
        if s.japan_personnel < cost:
            break
        s.japan_personnel = s.japan_personnel - cost
        s.col_units[home, j] += 1
        if not support:
            s.col_af[home, j] += attack
        i += 1
    s.scalars[JAPAN_POOL] = i


# -- overland moves (C.52, C.53) ----------------------------------------------------------------

def free_area(t: GoaTables, l: int) -> bool:
    """C.53, C.65: Persia, Shantung, Hopei and Manchuria may be entered while free of enemy
    units, and are rolled for only while enemy units occupy them (Abyssinia, sovereign too,
    is activated only by an announced attack)."""
    return t.l_kind[l] == CHINA or (t.l_kind[l] == SOVEREIGN and l != t.abyssinia)


def rail_link(t: GoaTables, s: GoaState, c: int, l: int) -> bool:
    """C.52: Russia's rail to the Caucasus and Vladivostok; from Constantinople to Armenia,
    Iraq and Syria for the country the link names while its side holds Constantinople."""
    if not t.l_overland[l, c]:
        return False
    if c == t.turkey and t.constantinople >= 0:
        return s.city[t.constantinople] == s.side[c]
    return True


def move_options(t: GoaTables, s: GoaState, c: int, pending=None) -> list[int]:
    """``Kind.COLONIAL`` for ``c``: 0 stops; ``1 + 8 * (src * (L + 1) + dst) + n - 1``: ``n``
    units from ``src`` to ``dst`` (``L`` is home, the country's armies in Europe): C.52's
    rail links both ways (N.76 limits the units sent out to detached sources), and C.53's
    moves to an adjacent colony of the same player, or into Persia, Shantung, Hopei or
    Manchuria while free of enemy units. The engine asks again after each order: a unit
    moves once a phase, so ``pending[src]`` counts the units already ordered out of ``src``
    (index ``L``: home), ``pending[L + 1]`` those sent out to detached sources."""
    L = t.n_colonies
    pending = pending or [0] * (L + 2)
    side = int(s.side[c])
    foe = enemy(side)
    out = [0]
    home_units = int(s.army[c]) // t.corps - pending[L]
    room = detached_room(t, s, c) - pending[L + 1]
    for l in range(L):
        if not rail_link(t, s, c, l):
            continue
        n_out = min(8, home_units, room)
        if s.colony[l] == side and n_out > 0:
            out.extend(_code(L, L, l, n) for n in range(1, n_out + 1))
        have = int(s.col_units[l, c]) - pending[l]
        if have > 0:
            out.extend(_code(L, l, L, n) for n in range(1, min(8, have) + 1))
    for src in range(L):
        have = int(s.col_units[src, c]) - pending[src]
        if have <= 0 or s.colony[src] != side:
            continue
        for dst in range(L):
            if not t.l_neighbor[src, dst]:
                continue
            ok = s.colony[dst] == side
            if free_area(t, dst):
                ok = ok or (s.colony[dst] == NEUTRAL and not enemy_units(t, s, dst, foe))
            if ok:
                out.extend(_code(L, src, dst, n) for n in range(1, min(8, have) + 1))
    return out


def _code(L: int, src: int, dst: int, n: int) -> int:
    return 1 + 8 * (src * (L + 1) + dst) + n - 1


def decode_move(t: GoaTables, code: int) -> tuple[int, int, int]:
    """``(src, dst, n)`` of a ``Kind.COLONIAL`` code other than 0 (``L``: home)."""
    pair, n = divmod(code - 1, 8)
    src, dst = divmod(pair, t.n_colonies + 1)
    return src, dst, n + 1


def enemy_units(t: GoaTables, s: GoaState, l: int, foe: int) -> bool:
    """Land units of side ``foe`` in colony or area ``l``."""
    return any(s.col_units[l, d] > 0 and s.side[d] == foe for d in range(t.n_countries))


def apply_move(t: GoaTables, s: GoaState, c: int, code: int) -> None:
    """One move. C.65: entering a free area occupies it; when both sides enter one in the
    same phase the Central Powers' occupation takes precedence (their moves are applied
    first, and an Allied move into an area that has just become theirs does not happen)."""
    if code == 0:
        return
    L = t.n_colonies
    src, dst, n = decode_move(t, code)
    side = int(s.side[c])
    if dst < L and s.colony[dst] not in (side, NEUTRAL):
        return
    if src == L:
        s.army[c] -= n * t.corps
        af = n * t.corps
    else:
        af = take_colony(s, src, c, n)
    if dst == L:
        s.army[c] += n * t.corps
        return
    s.col_units[dst, c] += n
    s.col_af[dst, c] += af
    if s.colony[dst] == NEUTRAL and free_area(t, dst):
        s.colony[dst] = side                      # C.65: occupied without a roll
        s.colonies_taken[side] += 1
        if c == t.japan:
            s.scalars[JAPAN_CONQUESTS] += 1       # V._6: a conquest of Japan's


# -- colonial combat (C.61, C.62, C.65, C.68) ---------------------------------------------------

def allied_targets(t: GoaTables, s: GoaState) -> list[int]:
    """C.61: every Central Powers colony not yet conquered; C.65: China and Persia only while
    Central Powers units occupy them, Abyssinia once announced; Darfur and Libya once
    Turkish (C.66)."""
    out = []
    for l in range(t.n_colonies):
        if s.colony[l] != CENTRAL:
            continue
        kind = t.l_kind[l]
        if kind == COLONY and (t.l_owner[l] < 0 or s.side[t.l_owner[l]] != CENTRAL):
            continue                              # an Allied colony the CP took: not rolled
        if free_area(t, l) and not enemy_units(t, s, l, CENTRAL):
            continue
        if kind == JAPAN:
            continue                              # Japan falls only to invasion (its notes)
        out.append(l)
    return out


def central_targets(t: GoaTables, s: GoaState) -> list[int]:
    """C.61, C.62: each Allied colony adjacent to a colony the Central Powers control and
    held on their country's entry (or an occupied area such as Abyssinia or Manchuria)."""
    out = []
    for l in range(t.n_colonies):
        if s.colony[l] != ALLIED or t.l_kind[l] == JAPAN:
            continue
        if free_area(t, l) and not enemy_units(t, s, l, ALLIED):
            continue
        bases = [b for b in range(t.n_colonies) if t.l_neighbor[b, l]
                 and s.colony[b] == CENTRAL and _home_colony(t, s, b, CENTRAL)]
        if bases:
            out.append(l)
    return out


def _home_colony(t: GoaTables, s: GoaState, b: int, side: int) -> bool:
    owner = t.l_owner[b]
    if t.l_kind[b] in (SOVEREIGN, CHINA):
        return True                                   # an occupied area (C.62)
    if t.l_kind[b] in (TURKISH, TURKISH_OPPONENT):
        return True                                   # a colony by C.66 since Turkey's entry
    return owner >= 0 and s.side[owner] == side


def attack_modifier(t: GoaTables, s: GoaState, l: int, side: int) -> tuple[int, int]:
    """C.68: +1 per three attack factors of friendly land units (support units excluded) in
    one adjacent colony, the attacker's best: ``(modifier, that colony or -1)``."""
    best, base = 0, -1
    for b in range(t.n_colonies):
        if t.l_neighbor[b, l] and s.colony[b] == side:
            af = sum(int(s.col_af[b, d]) for d in range(t.n_countries)
                     if s.side[d] == side and at_war(s, d))
            if af // 3 > best:
                best, base = af // 3, b
    return best, base


def conquer_colony(t: GoaTables, s: GoaState, l: int, side: int, by_japan: bool = False) -> None:
    """``side`` conquers colony or area ``l``: enemy land units there are lost; enemy
    squadrons based there are scuttled or taken at the end of the next Naval Phase unless
    they leave (N.34, ``naval.stranded``). ``by_japan``: Japanese units took part (V._6
    counts Japan's conquests)."""
    foe = enemy(side)
    s.colony[l] = side
    s.colonies_taken[side] += 1
    for d in range(t.n_countries):
        if s.side[d] == foe and s.col_units[l, d]:
            s.strength_lost[d] += int(s.col_af[l, d])
            s.col_units[l, d] = 0
            s.col_af[l, d] = 0
    if by_japan:
        s.scalars[JAPAN_CONQUESTS] += 1


def colonial_combat(t: GoaTables, s: GoaState, dice, month: int) -> None:
    """C.61: in February, May, August and November, the Allied rolls, then the Central
    Powers' (once per colony attacked)."""
    if not t.colonial_months[Month.month_of_year(month)]:
        return
    for l in allied_targets(t, s):
        mod, base = attack_modifier(t, s, l, ALLIED)
        if dice.die() + mod > t.l_defense[l]:
            conquer_colony(t, s, l, ALLIED, _japanese(t, s, base))
    for l in central_targets(t, s):
        if s.colony[l] != ALLIED:
            continue
        mod, base = attack_modifier(t, s, l, CENTRAL)
        if dice.die() + mod > t.l_defense[l]:
            conquer_colony(t, s, l, CENTRAL, _japanese(t, s, base))


def _japanese(t: GoaTables, s: GoaState, base: int) -> bool:
    return base >= 0 and t.japan >= 0 and s.col_units[base, t.japan] > 0


# -- C.44: colonial battlecruisers returning ---------------------------------------------------

COLONIAL_AREAS = ("south_atlantic", "indian_ocean", "east_pacific", "west_pacific",
                  "south_pacific")


def may_return(t: GoaTables, s: GoaState, q: int) -> bool:
    """An undamaged battlecruiser based in a colony (not Armenia or the Caucasus), not
    already returning, that did nothing else this month."""
    b = int(s.squadron_base[q])
    return (b >= t.n_ports and t.q_kind[q] == Ship.BATTLECRUISER
            and s.squadron_damage[q] == Damage.NONE and s.returning[q] < 0
            and not t.l_no_return[b - t.n_ports] and s.squadron_sortie[q] < 0
            and not s.moved[q])


def interceptors(t: GoaTables, s: GoaState, side: int) -> list[int]:
    """Battlecruisers of ``side`` that did nothing else this month (C.44)."""
    return [q for q in range(t.n_squadrons)
            if t.q_kind[q] == Ship.BATTLECRUISER and s.squadron_damage[q] < Damage.HEAVY
            and s.squadron_base[q] >= 0 and s.squadron_sortie[q] < 0 and not s.moved[q]
            and s.returning[q] < 0 and at_war(s, int(s.squadron_country[q]))
            and s.side[s.squadron_country[q]] == side]


def return_ports(t: GoaTables, s: GoaState, q: int) -> list[int]:
    """The European ports adjacent to the North Atlantic (not American, not reaching only
    colonial sea areas) that the squadron's side may use: where it may return."""
    from gwe_fast.games.goa.world import port_usable

    side = int(s.side[s.squadron_country[q]])
    na = t.north_atlantic
    colonial = {getattr(t, name) for name in COLONIAL_AREAS}
    out = []
    for p in range(t.n_ports):
        if na < 0 or not t.p_area[p, na] or t.p_country[p] == t.united_states:
            continue
        if all(a in colonial for a in range(t.n_areas) if t.p_area[p, a]):
            continue
        if port_usable(t, s, p, side):
            out.append(p)
    return out


def returns(t: GoaTables, s: GoaState, dice, month: int):
    """C.44: announcements (the destination chosen with them), then for each squadron on
    its way, in each of the three months after its announcement, the enemy's interception
    (naval combat between the returning squadron and the interceptors, ``engage``); one not
    sunk by the end of the third month is based at its port (or, if the enemy has taken it,
    at another it may use; else the attempt fails and it stays where it was)."""
    from gwe_fast.games.goa.engine import ask
    from gwe_fast.games.goa.naval_combat import engage

    for side in (ALLIED, CENTRAL):
        for q in range(t.n_squadrons):
            if s.squadron_damage[q] < Damage.SUNK and s.squadron_base[q] >= 0 \
                    and at_war(s, int(s.squadron_country[q])) \
                    and s.side[s.squadron_country[q]] == side and may_return(t, s, q):
                ports = return_ports(t, s, q)
                if ports:
                    p = yield from ask(Kind.RETURN, side, [-1] + ports, subject=q)
                    if p >= 0:
                        s.returning[q] = month
                        s.return_port[q] = p
    for q in range(t.n_squadrons):
        if s.returning[q] < 0:
            continue
        if s.squadron_damage[q] == Damage.SUNK:
            s.returning[q] = -1
            continue
        side = int(s.side[s.squadron_country[q]])
        foe = enemy(side)
        if month > s.returning[q]:
            hunters = interceptors(t, s, foe)
            if hunters:
                n = yield from ask(Kind.INTERCEPT, foe, range(len(hunters) + 1), subject=q)
                if n:
                    for h in hunters[:n]:
                        s.moved[h] = 1           # its activity this month
                    yield from engage(t, s, dice, {side: [q], foe: hunters[:n]}, q)
        if s.squadron_damage[q] == Damage.SUNK:
            s.returning[q] = -1
        elif month - s.returning[q] >= 3:
            ports = return_ports(t, s, q)
            p = int(s.return_port[q])
            if p not in ports:
                p = ports[0] if ports else -1
            if p >= 0:
                s.squadron_base[q] = p
            s.returning[q] = -1
            s.return_port[q] = -1


# -- the phase ---------------------------------------------------------------------------------

def colonial_phase(t: GoaTables, s: GoaState, dice, month: int):
    """C.3: after the Naval Phase: overland moves (each side's in secret, C.32; the engine
    asks again after each order), Abyssinia announced (C.65), the returns (C.44), then the
    quarterly combat (C.61)."""
    from gwe_fast.games.goa.engine import ask

    L = t.n_colonies
    moves = {ALLIED: [], CENTRAL: []}
    for side in (ALLIED, CENTRAL):
        for c in range(t.n_countries):
            if not (at_war(s, c) and s.side[c] == side):
                continue
            pending = [0] * (L + 2)
            while True:
                code = yield from ask(Kind.COLONIAL, side, move_options(t, s, c, pending),
                                      subject=c, secret=True)
                if not code:
                    break
                moves[side].append((c, code))
                src, dst, n = decode_move(t, code)
                pending[src] += n
                if src == L:
                    pending[L + 1] += n
    for side in (CENTRAL, ALLIED):      # C.65: the Central Powers' take precedence
        for c, code in moves[side]:
            if at_war(s, c):
                apply_move(t, s, c, code)
    ab = t.abyssinia
    if ab >= 0 and s.colony[ab] == NEUTRAL:
        for side in (ALLIED, CENTRAL):
            if s.colony[ab] == NEUTRAL and any(
                    t.l_neighbor[b, ab] and s.colony[b] == side and
                    sum(int(s.col_af[b, d]) for d in range(t.n_countries) if s.side[d] == side)
                    for b in range(t.n_colonies)):
                if (yield from ask(Kind.ABYSSINIA, side, (0, 1), subject=ab)):
                    s.colony[ab] = enemy(side)    # activated as an enemy colony (C.65)
    yield from returns(t, s, dice, month)
    colonial_combat(t, s, dice, month)
