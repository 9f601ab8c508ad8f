# cython: language_level=3
"""The rules of The Guns of August in C, each once (declared in ``rules.pxd``).

Every function mirrors the reference function of the same name in ``games/goa/`` (its module
is named above each group), in the same order of loops, so that options come out in the same
order and dice are rolled in the same order; the parity tests hold the two together. Lists
the reference builds by scanning are read from the per-scenario lists of ``GoaT`` where the
order is the same (ascending).
"""

from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcmp, memset

from gwe_fast._core.goa.codes cimport *
from gwe_fast._core.goa.dice cimport die
from gwe_fast._core.goa.tables cimport GoaS, GoaT


# == world.py ===================================================================================

cdef int enemy_held_cities(const GoaT* t, const GoaS* s, int c) noexcept nogil:
    cdef int own = s.side[c]
    if own == NEUTRAL:
        return 0
    cdef int foe = enemy(own), n = 0, i
    for i in range(t.c_city_start[c], t.c_city_start[c + 1]):
        if s.city[t.c_city_list[i]] == foe:
            n += 1
    return n


cdef int objectives_held(const GoaT* t, const GoaS* s, int side) noexcept nogil:
    cdef int n = 0, i
    for i in range(t.n_objectives):
        if s.city[t.obj_list[i]] == side:
            n += 1
    return n


cdef bint any_belligerent(const GoaT* t, const GoaS* s, int side) noexcept nogil:
    cdef int c
    for c in range(t.C):
        if at_war(s, c) and s.side[c] == side:
            return True
    return False


cdef void facts_of(const GoaT* t, const GoaS* s, Facts* f) noexcept nogil:
    cdef int NPL = t.NPL, C = t.C, side, place, p, ctrl, closer, l
    cdef uint8_t* u0 = f.usable
    cdef uint8_t* u1 = f.usable + NPL
    memset(f.port_areas, 0, 2 * C * sizeof(uint32_t))
    memset(f.usable_bits, 0, 2 * t.NW * sizeof(uint64_t))
    for p in range(t.P):                      # port_usable for both sides, the port's facts once
        u0[p] = 0
        u1[p] = 0
        if not t.p_in_play[p] or port_closed(t, s, p):
            continue
        ctrl = port_control(t, s, p)
        if ctrl > 1:
            continue
        closer = t.p_closed_by[p]
        if closer >= 0:
            if at_war(s, closer) and s.side[closer] == enemy(ctrl):
                continue
            if s.conquered[closer] >= 0 and s.side[closer] == ctrl:
                continue
        f.usable[ctrl * NPL + p] = 1
        f.usable_bits[ctrl * t.NW + (p >> 6)] |= (<uint64_t>1) << (p & 63)
        f.port_areas[ctrl * C + t.p_country[p]] |= t.p_amask_raw[p]
    if t.colonies:                            # colonies function as ports (C.41)
        for l in range(t.L):
            side = s.colony[l]
            u0[t.P + l] = side == ALLIED
            u1[t.P + l] = side == CENTRAL
            if side < 2:
                place = t.P + l
                f.usable_bits[side * t.NW + (place >> 6)] |= (<uint64_t>1) << (place & 63)
    else:
        memset(u0 + t.P, 0, t.L)
        memset(u1 + t.P, 0, t.L)
    facts_at_sea(t, s, f)


cdef void facts_at_sea(const GoaT* t, const GoaS* s, Facts* f) noexcept nogil:
    cdef int NPL = t.NPL, C = t.C, side, q, sd, b, c, i, p
    cdef uint32_t m
    cdef uint32_t shut[2]
    cdef uint32_t shut_prev[2]
    shut[0] = 0
    shut[1] = 0
    shut_prev[0] = 0
    shut_prev[1] = 0
    for b in range(t.A):
        for side in range(2):
            if s.blockade[b * 2 + side]:
                shut[side] |= 1u << b
            if s.blockade_prev[b * 2 + side]:
                shut_prev[side] |= 1u << b
    for side in range(2):
        f.open_[side] = t.a_in_play_mask & ~shut[1 - side]
        f.foe_prev[side] = shut_prev[1 - side]
    memset(f.foe_bits, 0, sizeof(f.foe_bits))
    for q in range(t.Q):                      # _foe_places of each side
        b = s.squadron_base[q]
        sd = s.side[s.squadron_country[q]]
        if b >= 0 and s.squadron_damage[q] < DMG_SUNK and sd < 2:
            f.foe_bits[1 - sd][b >> 6] |= (<uint64_t>1) << (b & 63)


# == entry.py ===================================================================================

cdef void join(const GoaT* t, GoaS* s, int c, int side, int month, bint limited) noexcept nogil:
    cdef bint first = s.entered[c] < 0
    cdef int k, l, d, i
    s.side[c] = side
    s.limited[c] = 1 if limited else 0
    if first:
        s.entered[c] = month
    for i in range(t.c_city_start[c], t.c_city_start[c + 1]):
        k = t.c_city_list[i]
        if s.city[k] == NEUTRAL:
            s.city[k] = side
    if first:                         # M._1: control of the cities on its entry into the war
        for k in range(t.K):
            s.entry_city[c * t.K + k] = s.city[k]
    for l in range(t.L):
        if (t.l_owner[l] == c or (c == t.japan and t.l_kind[l] == L_JAPAN)) \
                and s.colony[l] == NEUTRAL:
            s.colony[l] = side
    if limited or not first:
        return
    if c == t.italy or c == t.united_states:                     # M._5
        for d in range(t.C):
            if d != c and at_war(s, d) and s.side[d] == side and s.entered[d] < month:
                s.joined_with[d] += 1
    if c == t.turkey:                                            # C.66
        for l in range(t.L):
            if t.l_kind[l] == L_TURKISH and s.colony[l] == NEUTRAL:
                s.colony[l] = side
            elif t.l_kind[l] == L_TURKISH_OPPONENT and s.colony[l] == NEUTRAL:
                s.colony[l] = 1 - side


cdef void leave(const GoaT* t, GoaS* s, int c) noexcept nogil:
    cdef int i, h, l, q, b, p, first_home = -1, near
    cdef uint32_t areas
    s.side[c] = NEUTRAL
    s.limited[c] = 0
    for i in range(t.c_city_start[c], t.c_city_start[c + 1]):
        s.city[t.c_city_list[i]] = NEUTRAL
    for h in range(t.C):
        s.army[c] += s.abroad[c * t.C + h]
        s.abroad[c * t.C + h] = 0
    for l in range(t.L):
        if t.l_owner[l] == c:
            if s.colony[l] == ALLIED:
                s.colony[l] = NEUTRAL
        elif s.col_units[l * t.C + c]:
            s.army[c] += s.col_units[l * t.C + c] * t.corps
            s.col_units[l * t.C + c] = 0
            s.col_af[l * t.C + c] = 0
    for p in range(t.P):                      # its ports in play, the first of them
        if t.p_country[p] == c and t.p_in_play[p]:
            first_home = p
            break
    for q in range(t.Q):
        b = s.squadron_base[q]
        if s.squadron_country[q] != c or b < 0 or s.squadron_damage[q] == DMG_SUNK:
            continue
        s.squadron_sortie[q] = -1
        s.returning[q] = -1
        if (b < t.P and t.p_country[b] == c) or first_home < 0:
            continue
        areas = t.p_amask_raw[b] if b < t.P else _l_amask_raw(t, b - t.P)
        near = -1
        for p in range(t.P):                  # a home port sharing a sea area with its base
            if t.p_country[p] == c and t.p_in_play[p] and (t.p_amask_raw[p] & areas):
                near = p
                break
        s.squadron_base[q] = near if near >= 0 else first_home


cdef uint32_t _l_amask_raw(const GoaT* t, int l) noexcept nogil:
    # a colony's sea areas, in play or not
    cdef uint32_t m = 0
    cdef int a
    for a in range(t.A):
        if t.l_area[l * t.A + a]:
            m |= (<uint32_t>1) << a
    return m


cdef bint provoked(const GoaT* t, const GoaS* s) noexcept nogil:
    # V._2: Germany invaded Belgium or the Netherlands, or the Central Powers hold a city of
    # Britain, Belgium or the Netherlands
    cdef int k, kc
    if t.belgium >= 0 and s.invaded[t.belgium]:
        return True
    if t.netherlands >= 0 and s.invaded[t.netherlands]:
        return True
    for k in range(t.K):
        kc = t.k_country[k]
        if s.city[k] == CENTRAL and kc >= 0 and (kc == t.britain or kc == t.belgium
                                                   or kc == t.netherlands):
            return True
    return False


cdef void britain_provoked(const GoaT* t, GoaS* s, int month) noexcept nogil:
    # V._2: once provoked, Britain is at war in full, neutral or limited before
    cdef int b = t.britain
    if b < 0 or s.conquered[b] >= 0 or not (s.side[b] == NEUTRAL or s.limited[b]):
        return
    if not provoked(t, s):
        return
    if s.side[b] == NEUTRAL:
        join(t, s, b, ALLIED, month, False)
    else:
        s.limited[b] = 0


cdef int rolls_for_entry(const GoaT* t, const GoaS* s, int32_t* out) noexcept nogil:
    cdef int n = 0, c
    for c in range(t.C):
        if not t.c_rolls[c] or s.conquered[c] >= 0:
            continue
        if c == t.japan and not t.colonies:
            continue
        if s.side[c] == NEUTRAL or (c == t.britain and s.limited[c]):
            out[n] = c
            n += 1
    return n


cdef bint _colonial_presence(const GoaT* t, const GoaS* s, int only, int side, int area) noexcept nogil:
    # land units or squadrons in colonies on `area` of country `only` (>= 0), or of every
    # Allied belligerent but Japan (only == -1): the squadrons in one pass, then the units
    cdef int l, c, q, b
    for q in range(t.Q):
        b = s.squadron_base[q] - t.P
        if b >= 0 and t.l_area[b * t.A + area] and s.squadron_damage[q] < 3 \
                and _presence_member(t, s, s.squadron_country[q], only):
            return True
    for l in range(t.L):
        if not t.l_area[l * t.A + area]:
            continue
        for c in range(t.C):
            if s.col_units[l * t.C + c] > 0 and _presence_member(t, s, c, only):
                return True
    return False


cdef inline bint _presence_member(const GoaT* t, const GoaS* s, int c, int only) noexcept nogil:
    if only >= 0:
        return c == only
    return c != t.japan and at_war(s, c) and s.side[c] == ALLIED


cdef bint _japan_abroad(const GoaT* t, const GoaS* s) noexcept nogil:
    cdef int j = t.japan, l, a, q, b
    for l in range(t.L):
        if s.col_units[l * t.C + j] > 0:
            for a in range(t.A):
                if t.l_area[l * t.A + a] and a != t.east_pacific:
                    return True
    for q in range(t.Q):
        b = s.squadron_base[q]
        if b < 0 or s.squadron_country[q] != j or s.squadron_damage[q] == DMG_SUNK:
            continue
        for a in range(t.A):
            if (t.p_area[b * t.A + a] if b < t.P else t.l_area[(b - t.P) * t.A + a]) \
                    and a != t.east_pacific:
                return True
    return s.scalars[SC_JAPAN_CONQUESTS] > 1


cdef int entry_modifier(const GoaT* t, const GoaS* s, int c) noexcept nogil:
    cdef int m = 0, d, group, us = t.united_states
    cdef int joined[2]
    if c == t.britain and s.limited[c]:
        m -= 1                                                   # V._2
    if c == t.italy:                                             # V._3
        m += (1 if s.med_blockade[CENTRAL] else 0) - (1 if s.med_blockade[ALLIED] else 0)
    if c == t.turkey:                                            # V._4
        m += -1 if s.gift_turkey[ALLIED] else 1
        m += 1 if s.gift_turkey[CENTRAL] else 0
    if c == t.japan:                                             # V._6
        if t.germany >= 0 and t.east_pacific >= 0 and _colonial_presence(t, s, t.germany, 0, t.east_pacific):
            m -= 1
        if t.east_pacific >= 0 and _colonial_presence(t, s, -1, ALLIED, t.east_pacific):
            m += 1
        if us >= 0 and at_war(s, us) and s.side[us] == ALLIED:
            m -= 1
    if c == us and t.japan >= 0 and at_war(s, t.japan) and _japan_abroad(t, s):
        m += -1 if s.side[t.japan] == CENTRAL else 1             # V._6
    if c == t.britain or c == us:                                # V._7 = N.64
        m += (1 if s.usw_since_roll[ALLIED] else 0) - (1 if s.usw_since_roll[CENTRAL] else 0)
    group = t.c_group[c]
    if group >= 0:                                               # V._8
        joined[0] = 0
        joined[1] = 0
        for d in range(t.C):
            if d != c and t.c_group[d] == group and s.entered[d] >= 0 and not s.limited[d] \
                    and s.side[d] != NEUTRAL:
                joined[s.side[d]] = 1
        m += joined[CENTRAL] - joined[ALLIED]
    return m


cdef int entry_outcome(const GoaT* t, const GoaS* s, int c, int total, bint* limited) noexcept nogil:
    limited[0] = False
    if c == t.britain:
        if total < 1:
            return ALLIED
        if total <= 5:
            limited[0] = not provoked(t, s)      # V._2: limited only while not provoked
            return ALLIED
        return NEUTRAL
    if total < 1 and t.c_may_join[c * 2 + ALLIED]:
        return ALLIED
    if total > 6 and t.c_may_join[c * 2 + CENTRAL]:
        return CENTRAL
    return NEUTRAL


cdef void apply_entry_roll(const GoaT* t, GoaS* s, int c, int total, int month) noexcept nogil:
    cdef bint limited
    cdef int side = entry_outcome(t, s, c, total, &limited)
    if c == t.britain:
        if side == NEUTRAL:
            if s.limited[c]:
                leave(t, s, c)
        elif not limited:
            join(t, s, c, ALLIED, month, False)
        elif s.side[c] == NEUTRAL:
            join(t, s, c, ALLIED, month, True)
        return
    if side != NEUTRAL:
        join(t, s, c, side, month, False)


cdef void base_entries(const GoaT* t, GoaS* s, int month) noexcept nogil:
    cdef int i, c
    for i in range(t.E):
        c = t.base_entry[i * 3]
        if t.base_entry[i * 3 + 1] == month and s.side[c] == NEUTRAL and s.conquered[c] < 0:
            join(t, s, c, t.base_entry[i * 3 + 2], month, False)


cdef int invadable(const GoaT* t, const GoaS* s, int32_t* out) noexcept nogil:
    if not at_war(s, t.germany):
        return 0
    cdef int n = 0
    if t.belgium >= 0 and s.side[t.belgium] == NEUTRAL and s.conquered[t.belgium] < 0:
        out[n] = t.belgium
        n += 1
    if t.netherlands >= 0 and s.side[t.netherlands] == NEUTRAL and s.conquered[t.netherlands] < 0:
        out[n] = t.netherlands
        n += 1
    return n


cdef void invade(const GoaT* t, GoaS* s, int c, int month) noexcept nogil:
    join(t, s, c, ALLIED, month, False)
    s.invaded[c] = 1
    britain_provoked(t, s, month)


cdef int gift_options(const GoaT* t, const GoaS* s, int side, int month, int32_t* out) noexcept nogil:
    cdef int tur = t.turkey, g, q, n = 0, c
    if tur < 0 or s.side[tur] != NEUTRAL or s.gift_turkey[side]:
        return 0
    if side == CENTRAL:
        g = t.goeben
        if month == 0 and g >= 0 and s.squadron_country[g] == t.germany and s.squadron_damage[g] < 3:
            out[0] = g
            return 1
        return 0
    if month == 0:
        return 0
    for q in range(t.Q):
        c = s.squadron_country[q]
        if s.squadron_base[q] >= 0 and s.squadron_damage[q] < 3 \
                and (t.q_kind[q] == SHIP_DREADNOUGHT or t.q_kind[q] == SHIP_BATTLECRUISER) \
                and at_war(s, c) and s.side[c] == ALLIED:
            out[n] = q
            n += 1
    return n


cdef void give(const GoaT* t, GoaS* s, int side, int q) noexcept nogil:
    s.squadron_country[q] = t.turkey
    s.squadron_base[q] = t.constantinople_port
    s.squadron_sortie[q] = -1
    s.gift_turkey[side] = 1


# == economy.py =================================================================================

cdef bint _receives_points(const GoaT* t, const GoaS* s, int c, int month) noexcept nogil:
    if not at_war(s, c):
        return False
    if c == t.united_states:
        return month >= us_ready_month(t, s)
    return True


cdef int us_ready_month(const GoaT* t, const GoaS* s) noexcept nogil:
    cdef int u = t.united_states
    if u < 0 or s.entered[u] < 0:
        return 1 << 20
    return s.entered[u] + max(0, t.us_reinforcements[0] - 1)     # P._19, from the month of entry


cdef int _mobilization_steps(const GoaT* t, const GoaS* s, int c, int month) noexcept nogil:
    cdef int since = s.mobilized[c]
    if since < 0 or not t.production:
        return 0
    return 1 + <int>min(4, fdiv(month - since + 1, 12))    # the declaration's month is the first


cdef int supply_due(const GoaT* t, const GoaS* s, int c, int month) noexcept nogil:
    cdef int base = t.c_supply[c]
    if c == t.britain and s.limited[c]:
        base = <int>fdiv(base, 2)
    return base + _mobilization_steps(t, s, c, month) * <int>ceil_div(t.c_supply[c], 10)


cdef int personnel_due(const GoaT* t, const GoaS* s, int c) noexcept nogil:
    cdef int pp = t.c_personnel[c], state
    if c == t.britain and s.limited[c]:
        pp = <int>fdiv(pp, 2)
    if t.production:
        state = s.conscription[c]
        if state == 1 and not t.c_table_conscription[c]:
            pp *= 2
        elif state != 1 and t.c_table_conscription[c]:
            pp = <int>fdiv(pp, 2)
    if s.reduced[c]:
        pp = <int>fdiv(pp, 2)
    return pp


cdef void produce(const GoaT* t, GoaS* s, int month) noexcept nogil:
    cdef int c, pp, sp
    for c in range(t.C):
        if not _receives_points(t, s, c, month):
            s.personnel_last[c] = 0
            s.supply_last[c] = 0
            continue
        pp = personnel_due(t, s, c)
        sp = supply_due(t, s, c, month)
        s.personnel_last[c] = pp
        s.supply_last[c] = sp
        if c != t.japan:
            s.army[c] += pp
        else:
            s.scalars[SC_JAPAN_PERSONNEL] += pp
        s.supply[c] = min(s.supply[c] + sp, t.supply_cap * max(sp, 1))


cdef void reinforce(const GoaT* t, GoaS* s, int month) noexcept nogil:
    cdef int q, c, u = t.united_states, k
    for q in range(t.Q):
        if t.q_arrive[q] == month:
            c = s.squadron_country[q]
            if s.conquered[c] < 0 and (not t.q_neutral_only[q] or s.side[c] == NEUTRAL):
                s.squadron_base[q] = t.q_base0[q]
    if u < 0 or not at_war(s, u):
        return
    k = month - s.entered[u]
    if 0 <= k < t.us_reinforcements[0]:
        s.army[u] += t.us_reinforcements[1]


cdef bint may_change_policy(const GoaT* t, const GoaS* s, int c, int month) noexcept nogil:
    if not t.production or not at_war(s, c):
        return False
    if c == t.britain and s.limited[c]:
        return False
    if c == t.united_states and month < us_ready_month(t, s):
        return False
    return True


cdef void set_mobilization(const GoaT* t, GoaS* s, int c, bint on, int month) noexcept nogil:
    cdef int before = supply_due(t, s, c, month)
    if on:
        s.mobilized[c] = month
        s.since_roll[c] |= MOBILIZED_SINCE
    else:
        s.mobilized[c] = -1
        s.since_roll[c] |= DEMOBILIZED_SINCE
    s.supply[c] = max(0, s.supply[c] + supply_due(t, s, c, month) - before)
    s.supply_last[c] = supply_due(t, s, c, month)


cdef void set_conscription(const GoaT* t, GoaS* s, int c, bint on) noexcept nogil:
    cdef int before = personnel_due(t, s, c), lost, delta
    if on:
        s.conscription[c] = 1
        s.since_roll[c] |= CONSCRIPTED_SINCE | IMPLEMENTED_SINCE
    else:
        s.conscription[c] = 2
        lost = <int>ceil_div(<int64_t>s.army[c] * t.repeal_disband, 100)
        s.army[c] -= lost
        s.strength_lost[c] += lost
    delta = personnel_due(t, s, c) - before
    if c != t.japan:
        s.army[c] = max(0, s.army[c] + delta)
    s.personnel_last[c] = personnel_due(t, s, c)


cdef uint32_t _port_areas_of(const GoaT* t, const GoaS* s, int c, int side) noexcept nogil:
    # the sea areas (any, in play or not) on which c has a port usable by `side`
    cdef uint32_t m = 0
    cdef int i, p
    for i in range(t.c_port_start[c], t.c_port_start[c + 1]):
        p = t.c_port_list[i]
        if port_usable(t, s, p, side):
            m |= t.p_amask_raw[p]
    return m


cdef bint sea_route(const GoaT* t, const GoaS* s, int c, int d) noexcept nogil:
    # N.79: c and d each have a usable port on one sea area in play not blockaded against c's side
    cdef int side = s.side[c]
    cdef uint32_t both = (t.a_in_play_mask & ~_blockaded_mask(t, s.blockade, enemy(side))
                          & _port_areas_of(t, s, c, side))
    return both != 0 and (both & _port_areas_of(t, s, d, side)) != 0


cdef int supply_options(const GoaT* t, const GoaS* s, const Facts* f, int c, int32_t* out) noexcept nogil:
    out[0] = 0
    if not t.naval or not at_war(s, c) or c == t.japan:
        return 1
    cdef int n = 1, d, i, side = s.side[c]
    cdef uint32_t both = f.open_[side] & f.port_areas[side * t.C + c]     # sea_route(c, .)
    if not both:
        return 1
    for d in range(t.C):
        if d == c or not at_war(s, d) or s.side[d] != side:
            continue
        if not (both & f.port_areas[side * t.C + d]):
            continue
        for i in range(3):
            if send_amount(i) <= s.supply[c]:
                out[n] = 1 + 3 * d + i
                n += 1
    return n


cdef void send_supply(const GoaT* t, GoaS* s, int c, int code) noexcept nogil:
    if code == 0:
        return
    cdef int d = (code - 1) // 3, i = (code - 1) % 3
    cdef int amount = send_amount(i)
    s.supply[c] -= amount
    s.supply[d] += amount
    s.received[d] = 1


cdef void russian_sea_supply(const GoaT* t, GoaS* s) noexcept nogil:
    cdef int r = t.russia, d
    if r < 0 or not t.naval:
        return
    cdef uint32_t open_, mine
    if at_war(s, r) and s.side[r] == ALLIED:
        open_ = t.a_in_play_mask & ~_blockaded_mask(t, s.blockade, CENTRAL)
        mine = open_ & _port_areas_of(t, s, r, ALLIED)      # sea_route(d, r), r's half once
        if mine:
            for d in range(t.C):
                if at_war(s, d) and d != r and s.side[d] == ALLIED and d != t.japan \
                        and (mine & _port_areas_of(t, s, d, ALLIED)):
                    s.supply[r] += 4
                    break
    s.fed[r] = min(3, s.fed[r] + 1) if s.received[r] else 0


# engine.marines: the most American infantry units that may become marines now (0: no ask)
cdef int marines_max(const GoaT* t, const GoaS* s, int month) noexcept nogil:
    cdef int u = t.united_states
    if u < 0 or not at_war(s, u) or month < us_ready_month(t, s):
        return 0
    cdef int left = 3 - s.marines[0]
    return <int>min(left, min(fdiv(s.army[u], t.corps + 5), fdiv(s.supply[u], 5)))


cdef void make_marines(const GoaT* t, GoaS* s, int n, int month) noexcept nogil:
    cdef int u = t.united_states
    s.army[u] -= n * (t.corps + 5)
    s.supply[u] -= 5 * n
    s.marines[0] += n
    s.marines[2 + pmod(month + 3, 4)] += n


# == morale.py ==================================================================================

cdef bint roll_month(const GoaT* t, int month) noexcept nogil:
    return t.roll_months[month_of_year(month)] != 0


cdef int morale_table(const GoaT* t, int total) noexcept nogil:
    # the highest modified roll giving surrender, D2, D1, RR (morale_table); no effect above
    if total <= t.morale_table[0]:
        return MOR_SURRENDER
    if total <= t.morale_table[1]:
        return MOR_D2
    if total <= t.morale_table[2]:
        return MOR_D1
    if total <= t.morale_table[3]:
        return MOR_RR
    return MOR_NONE


cdef int _year_modifier(const GoaT* t, int month) noexcept nogil:
    return t.year_modifier[min(year_of(month) - 1914, t.n_year - 1)]


cdef bint _us_on_map(const GoaT* t, const GoaS* s) noexcept nogil:
    cdef int u = t.united_states, h
    if u < 0:
        return False
    for h in range(t.C):
        if s.abroad[u * t.C + h] > 0:
            return True
    return False


cdef bint _garrisoned(const GoaT* t, const GoaS* s, int c, bint objectives_only) noexcept nogil:
    cdef int i, k
    for i in range(t.c_city_start[c], t.c_city_start[c + 1]):
        k = t.c_city_list[i]
        if (t.k_objective[k] or not objectives_only) and s.garrison[k] < 3:
            return False
    return True


cdef int _surrendered_majors(const GoaT* t, const GoaS* s, int side) noexcept nogil:
    cdef int majors[7]
    cdef int n = 0, i, c
    majors[0] = t.austria_hungary
    majors[1] = t.britain
    majors[2] = t.france
    majors[3] = t.germany
    majors[4] = t.italy
    majors[5] = t.russia
    majors[6] = t.united_states
    for i in range(7):
        c = majors[i]
        if c < 0 or s.conquered[c] < 0 or s.side[c] == side:
            continue
        if side == CENTRAL and c == t.russia and not _garrisoned(t, s, c, False):
            continue
        if side == CENTRAL and (c == t.france or c == t.italy) and not _garrisoned(t, s, c, True):
            continue
        n += 1
    return n


cdef int _unheld_surrenders(const GoaT* t, const GoaS* s) noexcept nogil:
    cdef int n = 0, r = t.russia, c, i
    if r >= 0 and s.conquered[r] >= 0 and s.side[r] == ALLIED and not _garrisoned(t, s, r, False):
        n += 1
    for i in range(2):
        c = t.france if i == 0 else t.italy
        if c >= 0 and s.conquered[c] >= 0 and s.side[c] == ALLIED and not _garrisoned(t, s, c, True):
            n += 1
            break
    return n


cdef int _variant_modifier(const GoaT* t, const GoaS* s, int c, int side, int foe,
                           int month) noexcept nogil:
    cdef int m = 0, i, k, l, bits
    cdef bint lost = False, gained = False
    for i in range(t.n_objectives):                      # M._1
        k = t.obj_list[i]
        if s.entry_city[c * t.K + k] == side and s.city[k] == foe:
            lost = True
        elif s.entry_city[c * t.K + k] == foe and s.city[k] == side:
            gained = True
    m += (1 if gained else 0) - (1 if lost else 0)
    for l in range(t.L):                                 # M._2 = C.69
        if t.l_owner[l] == c and s.colony[l] == foe:
            m -= 1
            break
    if c == t.russia and s.fed[c] >= 3:                  # M._3
        m += 1
    m += s.joined_with[c]                                # M._5
    m += _surrendered_majors(t, s, side)                 # M._6
    if s.suffered[c]:                                    # M._8
        m -= 1
    m += _year_modifier(t, month)                        # M._9
    return m


cdef int policy_modifier(const GoaS* s, int c) noexcept nogil:
    # M._4: one each for mobilization in effect since the last roll, repealed since,
    # conscription in effect since, implemented since
    cdef int bits = s.since_roll[c], m = 0
    if bits & MOBILIZED_SINCE:
        m += 1
    if bits & DEMOBILIZED_SINCE:
        m += 1
    if bits & CONSCRIPTED_SINCE:
        m += 1
    if bits & IMPLEMENTED_SINCE:
        m += 1
    return m


cdef int morale_modifier(const GoaT* t, const GoaS* s, int c, int month) noexcept nogil:
    cdef int side = s.side[c], foe = enemy(side), u
    cdef const int8_t* base = t.base_morale              # tables.BASE_MORALE
    cdef int m = base[0] * enemy_held_cities(t, s, c)
    if t.naval:
        if s.since_roll[c] & BLOCKADE_LOSS_SINCE:
            m -= 1
    elif side == CENTRAL:                                # allied_blockade_holds: not naval
        m += base[1]
    if c == t.britain or c == t.france:
        u = t.united_states
        if u < 0 or not (at_war(s, u) and s.side[u] == ALLIED):
            m += base[2]
        elif _us_on_map(t, s):
            m += base[3]
    if c == t.russia and t.constantinople >= 0 and s.city[t.constantinople] == ALLIED:
        m += base[4]
    if t.morale:
        m += _variant_modifier(t, s, c, side, foe, month)
    if t.production:
        m -= policy_modifier(s, c)                       # M._4 = P._13, P._14, P._16, once
    if t.surrender and side == CENTRAL:
        m -= _unheld_surrenders(t, s)                    # S._14
    return m


cdef void _desert(const GoaT* t, GoaS* s, int c, int pct) noexcept nogil:
    cdef int lost = <int>ceil_div(<int64_t>s.army[c] * pct, 100), h, x
    s.army[c] -= lost
    s.strength_lost[c] += lost
    for h in range(t.C):
        if s.abroad[c * t.C + h]:
            x = <int>ceil_div(<int64_t>s.abroad[c * t.C + h] * pct, 100)
            s.abroad[c * t.C + h] -= x
            s.strength_lost[c] += x


cdef void apply_morale(const GoaT* t, GoaS* s, int c, int result, int month) noexcept nogil:
    cdef int pct
    s.morale_results[c * 5 + result] += 1
    if result == MOR_NONE:
        return
    if result == MOR_RR:
        s.reduced[c] = 1
        return
    if result == MOR_D1 or result == MOR_D2:
        pct = t.morale_effects[1 if result == MOR_D1 else 2]
        _desert(t, s, c, pct)
        s.demoralized[c] = month + t.morale_effects[3]
        s.suffered[c] = 1
        return
    conquer(t, s, c, enemy(s.side[c]), month)


cdef void new_roll_period(GoaS* s, int c) noexcept nogil:
    cdef int bits = 0
    if s.mobilized[c] >= 0:
        bits |= MOBILIZED_SINCE
    if s.conscription[c] == 1:
        bits |= CONSCRIPTED_SINCE
    s.since_roll[c] = bits
    s.reduced[c] = 0


cdef int favour(const GoaS* s, int kind, int c, int side) noexcept nogil:
    if kind == ENTRY_ROLL:
        return -1 if side == ALLIED else 1
    return 1 if s.side[c] == side else -1


cdef void outcomes(const GoaT* t, const GoaS* s, int kind, int c, int modifier,
                   int8_t* out) noexcept nogil:
    # what each die 1..6 gives on this roll with this modifier (out[0 .. 5]): a morale
    # table result, or an entry roll's side joined and whether limited, as 2 * side + limited
    cdef int d
    cdef bint limited
    for d in range(1, 7):
        if kind == MORALE_ROLL:
            out[d - 1] = <int8_t>morale_table(t, d + modifier)
        else:
            out[d - 1] = <int8_t>(2 * entry_outcome(t, s, c, d + modifier, &limited) + limited)


cdef bint might_affect(const GoaT* t, const GoaS* s, int kind, int c, int modifier,
                       int shift) noexcept nogil:
    cdef int8_t a[6]
    cdef int8_t b[6]
    outcomes(t, s, kind, c, modifier, a)
    outcomes(t, s, kind, c, modifier + shift, b)
    return memcmp(a, b, 6) != 0


cdef int trade_options(const GoaT* t, const GoaS* s, const int32_t* kinds, const int32_t* countries,
                       const int32_t* mods, int n, int side, int32_t* out) noexcept nogil:
    cdef int other = enemy(side), i, j, m = 1
    out[0] = 0
    # which rolls j may be moved in the other player's favour: ok_j, as bits of a small buffer
    cdef int8_t ok[256]                     # n <= 2 C + 2 <= 256 (CoreTables checks C)
    for j in range(n):
        ok[j] = might_affect(t, s, kinds[j], countries[j], mods[j],
                              favour(s, kinds[j], countries[j], other))
    for i in range(n):
        for j in range(n):
            if i != j and ok[j]:
                out[m] = 1 + i * n + j
                m += 1
    return m


# == surrender.py ===============================================================================

cdef int _garrison_payer(const GoaT* t, const GoaS* s, int side) noexcept nogil:
    cdef int best = -1, strength = 0, c
    for c in range(t.C):
        if at_war(s, c) and s.side[c] == side and s.army[c] > strength:
            best = c
            strength = s.army[c]
    return best


cdef void _place_garrison(const GoaT* t, GoaS* s, int k, int side, int units) noexcept nogil:
    cdef int payer
    while s.garrison[k] < units:
        payer = _garrison_payer(t, s, side)
        if payer < 0 or s.army[payer] < t.corps:
            return
        s.army[payer] -= t.corps
        s.garrison[k] += 1


cdef void _release_garrison(const GoaT* t, GoaS* s, int k, int side, int units) noexcept nogil:
    cdef int payer
    while s.garrison[k] > units:
        payer = _garrison_payer(t, s, side)
        if payer < 0:
            s.garrison[k] = units
            return
        s.army[payer] += t.corps
        s.garrison[k] -= 1


cdef void conquer(const GoaT* t, GoaS* s, int c, int by, int month) noexcept nogil:
    if s.conquered[c] >= 0:
        return
    cdef int h, q, l, i, k, C = t.C
    cdef int64_t total = s.army[c]
    s.conquered[c] = month
    for h in range(C):
        total += s.abroad[c * C + h]
    s.strength_lost[c] += <int32_t>total
    s.army[c] = 0
    for h in range(C):
        s.abroad[c * C + h] = 0
    s.supply[c] = 0
    s.personnel_last[c] = 0
    s.supply_last[c] = 0
    for h in range(C):
        if s.abroad[h * C + c]:
            s.army[h] += s.abroad[h * C + c]
            s.abroad[h * C + c] = 0
    for q in range(t.Q):
        if s.squadron_country[q] == c and s.squadron_damage[q] < DMG_SUNK:
            s.squadron_damage[q] = DMG_SUNK
            s.squadron_base[q] = -1
            s.squadron_sortie[q] = -1
    for l in range(t.L):
        s.col_af[l * C + c] = 0
        s.col_units[l * C + c] = 0
    for i in range(t.c_city_start[c], t.c_city_start[c + 1]):
        k = t.c_city_list[i]
        if s.city[k] != by:
            s.city[k] = by
        if t.surrender and s.garrison[k] < 1:
            _place_garrison(t, s, k, by, 1)


cdef bint triple_target(const GoaT* t, const GoaS* s, int c) noexcept nogil:
    return c >= 0 and s.conquered[c] >= 0 and s.side[c] == ALLIED


cdef void set_triple(const GoaT* t, GoaS* s, int c, bint on) noexcept nogil:
    cdef int i, k
    for i in range(t.c_city_start[c], t.c_city_start[c + 1]):
        k = t.c_city_list[i]
        if s.city[k] != CENTRAL:
            continue
        if c != t.russia and not t.k_objective[k]:
            continue
        if on:
            _place_garrison(t, s, k, CENTRAL, 3)
        else:
            _release_garrison(t, s, k, CENTRAL, 1)


cdef void occupation_conquests(const GoaT* t, GoaS* s, int month) noexcept nogil:
    cdef int c, foe, i, n
    cdef bint all_held
    for c in range(t.C):
        if not at_war(s, c):
            continue
        if t.c_offmap_port[c]:
            continue
        foe = 1 - s.side[c]
        n = t.c_city_start[c + 1] - t.c_city_start[c]
        all_held = n > 0
        for i in range(t.c_city_start[c], t.c_city_start[c + 1]):
            if s.city[t.c_city_list[i]] != foe:
                all_held = False
                break
        if all_held:
            conquer(t, s, c, foe, month)
        elif c == t.japan and t.japan_area >= 0 and s.colony[t.japan_area] == foe:
            conquer(t, s, c, foe, month)          # its home islands stand for its cities


cdef void abandoned_off_map_ports(const GoaT* t, GoaS* s, int month) noexcept nogil:
    cdef int q, b, c
    for q in range(t.Q):
        b = s.squadron_base[q]
        if b < 0 or b >= t.P or s.squadron_damage[q] == DMG_SUNK:
            continue
        c = t.p_country[b]
        if t.p_off_map[b] and c >= 0 and 0 <= s.conquered[c] < month:
            s.squadron_damage[q] = DMG_SUNK
            s.squadron_base[q] = -1
            s.squadron_sortie[q] = -1


# == victory.py =================================================================================

cdef void finish(GoaS* s, int result, int month) noexcept nogil:
    s.scalars[SC_RESULT] = result
    s.scalars[SC_RESULT_MONTH] = month


cdef bint _side_beaten(const GoaT* t, const GoaS* s, int side) noexcept nogil:
    cdef bint any_entered = False
    cdef int c
    for c in range(t.C):
        if s.side[c] == side and s.entered[c] >= 0:
            any_entered = True
            if at_war(s, c):
                return False
    return any_entered


cdef int _outside_objectives(const GoaT* t, const GoaS* s) noexcept nogil:
    cdef int n = 0, i, k, c
    for i in range(t.n_objectives):
        k = t.obj_list[i]
        c = t.k_country[k]
        if s.city[k] == CENTRAL and c != t.germany and c != t.austria_hungary:
            n += 1
    return n


cdef void victory_check(const GoaT* t, GoaS* s, int month) noexcept nogil:
    cdef int held, i
    if _side_beaten(t, s, CENTRAL):
        finish(s, RES_ALLIED_CONQUEST, month)
        return
    if _side_beaten(t, s, ALLIED):
        finish(s, RES_CENTRAL_CONQUEST, month)
        return
    if t.victory:
        held = objectives_held(t, s, CENTRAL)
        if held == 0:
            finish(s, RES_ALLIED_OBJECTIVES, month)
            return
        if held == t.n_objectives:
            if s.scalars[SC_ALL_OBJECTIVES_SINCE] >= 0:
                finish(s, RES_CENTRAL_OBJECTIVES, month)
                return
            s.scalars[SC_ALL_OBJECTIVES_SINCE] = month
        else:
            s.scalars[SC_ALL_OBJECTIVES_SINCE] = -1
        return
    for i in range(t.X):
        if t.base_checks[i * 2] == month and _outside_objectives(t, s) < t.base_checks[i * 2 + 1]:
            finish(s, RES_BASE_ALLIED, month)
            return


# == land.py ====================================================================================

cdef bint _side_at_war(const GoaT* t, const GoaS* s, int side) noexcept nogil:
    return any_belligerent(t, s, side)


cdef void historical_events(const GoaT* t, GoaS* s, int month) noexcept nogil:
    cdef int i, k, side, holder
    for i in range(t.H):
        if t.h_month[i] != month:
            continue
        k = t.h_city[i]
        side = t.h_to[i]
        holder = s.city[k]
        if holder == enemy(side) and _side_at_war(t, s, side) and _side_at_war(t, s, holder):
            s.city[k] = side


cdef bint contributes(const GoaT* t, const GoaS* s, int c, int f) noexcept nogil:
    if not at_war(s, c) or not front_active(t, s, f):
        return False
    cdef int a = t.f_a[f], b = t.f_b[f], host
    if c == a or c == b:
        return True
    cdef int helps = t.f_helper[f * t.C + c]             # 1 may help a, 2 may help b
    if not ((helps & 1 and s.side[c] == s.side[a]) or (helps & 2 and s.side[c] == s.side[b])):
        return False
    if t.c_overseas[c]:
        host = a if s.side[a] == s.side[c] else b
        return s.abroad[c * t.C + host] > 0
    return True


cdef int fronts_of(const GoaT* t, const GoaS* s, int c, int32_t* out) noexcept nogil:
    cdef int n = 0, i, f
    for i in range(t.c_front_start[c], t.c_front_start[c + 1]):
        f = t.c_front_list[i]
        if contributes(t, s, c, f):
            out[n] = f
            n += 1
    return n


cdef int target_city(const GoaT* t, const GoaS* s, int f, int side) noexcept nogil:
    cdef int a = t.f_a[f], mine, theirs, i, k, M = t.M
    if s.side[a] == side:
        mine, theirs = 0, 1
    else:
        mine, theirs = 1, 0
    cdef int foe = enemy(side)
    cdef const int16_t* chain = t.f_chain + (f * 2 + mine) * M
    for i in range(M - 1, -1, -1):
        k = chain[i]
        if k >= 0 and s.city[k] == foe:
            return k
    chain = t.f_chain + (f * 2 + theirs) * M
    for i in range(M):
        k = chain[i]
        if k >= 0 and s.city[k] == foe:
            return k
    return -1


cdef int land_options(const GoaT* t, const GoaS* s, int c, int month, int32_t* out) noexcept nogil:
    cdef int32_t fronts[64]
    cdef int nf = fronts_of(t, s, c, fronts), n = 1, i, j, f, foe_country
    out[0] = 0
    for i in range(nf):
        f = fronts[i]
        out[n] = 1 + 4 * f
        n += 1
        if s.demoralized[c] >= month:
            continue
        foe_country = t.f_b[f] if s.side[t.f_a[f]] == s.side[c] else t.f_a[f]
        if c == t.britain and s.limited[c] and (foe_country == t.germany
                                                or foe_country == t.austria_hungary):
            continue
        if target_city(t, s, f, s.side[c]) < 0:
            continue
        for j in range(1, 4):
            if land_commit(j) <= s.supply[c]:
                out[n] = 1 + 4 * f + j
                n += 1
    return n


cdef void upkeep(const GoaT* t, GoaS* s, int8_t* short_) noexcept nogil:
    cdef int per = t.land_mods[LM_UPKEEP], c, h
    cdef int64_t total, need
    for c in range(t.C):
        short_[c] = 0
        if not at_war(s, c):
            continue
        total = s.army[c]
        for h in range(t.C):
            total += s.abroad[c * t.C + h]
        need = ceil_div(total, per)
        if s.supply[c] >= need:
            s.supply[c] -= <int32_t>need
        else:
            s.supply[c] = 0
            short_[c] = 1


cdef void _spread(const GoaT* t, int32_t* alloc, int c, int64_t pool, const int32_t* fronts,
                  int nf, int main, int share) noexcept nogil:
    if pool <= 0 or nf == 0:
        return
    cdef bint has_main = False
    cdef int i
    for i in range(nf):
        if fronts[i] == main:
            has_main = True
    cdef int64_t lead = fdiv(pool * share, 100) if has_main else 0
    cdef int64_t rest = pool - lead
    cdef int64_t each = fdiv(rest, nf), extra = rest - each * nf
    for i in range(nf):
        alloc[fronts[i] * t.C + c] += <int32_t>(each + (1 if i < extra else 0)
                                                + (lead if fronts[i] == main else 0))


cdef void _allocate(const GoaT* t, const GoaS* s, const int32_t* orders, int32_t* alloc) noexcept nogil:
    cdef int share = t.land_mods[LM_MAIN_SHARE], c, h, nf, nh, i, main, f
    cdef int32_t fronts[64]
    cdef int32_t here[64]
    memset(alloc, 0, t.F * t.C * sizeof(int32_t))
    for c in range(t.C):
        nf = fronts_of(t, s, c, fronts)
        if nf == 0:
            continue
        main = (orders[c] - 1) // 4 if orders[c] > 0 else -1
        if t.c_overseas[c]:
            for h in range(t.C):
                nh = 0
                for i in range(nf):
                    f = fronts[i]
                    if h == t.f_a[f] or h == t.f_b[f]:
                        here[nh] = f
                        nh += 1
                _spread(t, alloc, c, s.abroad[c * t.C + h], here, nh, main, share)
        else:
            _spread(t, alloc, c, s.army[c], fronts, nf, main, share)


cdef int column(int64_t att, int64_t dfn, int* shift) noexcept nogil:
    if dfn <= 0:
        shift[0] = 1
        return 5
    if att < dfn:
        shift[0] = -1
        return 0
    cdef int64_t r = fdiv(att, dfn)
    if r > 6:
        shift[0] = 1
        return 5
    shift[0] = 0
    return <int>r - 1


cdef int land_modifier(const GoaT* t, const GoaS* s, int k, const int8_t* defender, int commit,
                        int month) noexcept nogil:
    cdef const int8_t* mods = t.land_mods
    cdef int m = mods[LM_FORT] if t.k_terrain[k] == TER_FORT else mods[LM_CITY], c
    if month >= t.entrench_from:
        m += mods[LM_ENTRENCH]
    for c in range(t.C):
        if defender[c] and s.demoralized[c] >= month:
            m += mods[LM_DEMORALIZED]
            break
    m += <int>fdiv(commit, mods[LM_PER_SP])
    cdef int cap = mods[LM_CAP]
    return max(-cap, min(cap, m))


cdef void _losses(const GoaT* t, GoaS* s, int f, const int8_t* who, const int32_t* alloc_f,
                  int pct) noexcept nogil:
    if pct <= 0:
        return
    cdef int c, a, h
    cdef int64_t lost, take
    for c in range(t.C):
        if not who[c]:
            continue
        lost = ceil_div(<int64_t>alloc_f[c] * pct, 100)
        if t.c_overseas[c]:
            a = t.f_a[f]
            h = a if s.side[a] == s.side[c] else t.f_b[f]
            take = min(lost, <int64_t>s.abroad[c * t.C + h])
            s.abroad[c * t.C + h] -= <int32_t>take
            s.strength_lost[c] += <int32_t>take
        else:
            take = min(lost, <int64_t>s.army[c])
            s.army[c] -= <int32_t>take
            s.strength_lost[c] += <int32_t>take


cdef void _attack(const GoaT* t, GoaS* s, int f, int side, int k, const int32_t* alloc_f,
                  int commit, int month, uint64_t* dice, int8_t* mine, int8_t* theirs) noexcept nogil:
    cdef int foe = enemy(side), c, col, shift, d, result
    cdef int64_t att = 0, dfn = 0
    for c in range(t.C):
        mine[c] = alloc_f[c] > 0 and s.side[c] == side
        theirs[c] = alloc_f[c] > 0 and s.side[c] == foe
        if mine[c]:
            att += alloc_f[c]
        if theirs[c]:
            dfn += alloc_f[c]
    if att <= 0:
        return
    if dfn <= 0:
        s.city[k] = side
        return
    col = column(att, dfn, &shift)
    d = die(dice) + shift + land_modifier(t, s, k, theirs, commit, month)
    result = t.crt[max(0, min(6, d)) * 6 + col]
    _losses(t, s, f, mine, alloc_f, t.land_loss[result * 2])
    _losses(t, s, f, theirs, alloc_f, t.land_loss[result * 2 + 1])
    if result == LAND_AD or result == LAND_BD:
        for c in range(t.C):
            if mine[c]:
                s.demoralized[c] = max(<int>s.demoralized[c], month + 1)
    if result == LAND_BD or result == LAND_DD:
        for c in range(t.C):
            if theirs[c]:
                s.demoralized[c] = max(<int>s.demoralized[c], month + 1)
    if result == LAND_DX or result == LAND_DE:
        s.city[k] = side
        if s.garrison[k]:
            s.garrison[k] = 0


cdef void fight_fronts(const GoaT* t, GoaS* s, const int32_t* orders, const int8_t* short_,
                       int month, uint64_t* dice, int32_t* alloc, int32_t* work) noexcept nogil:
    # alloc: room for F * C; work: room for 2 C bytes (as int8)
    cdef int c, f, side_i, side, k, commit, spend, o
    cdef bint any_attacker
    _allocate(t, s, orders, alloc)
    for c in range(t.C):
        if short_[c]:
            for f in range(t.F):
                alloc[f * t.C + c] = alloc[f * t.C + c] // 2
    cdef int8_t* mine = <int8_t*>work
    cdef int8_t* theirs = mine + t.C
    for side_i in range(2):
        side = CENTRAL if side_i == 0 else ALLIED
        for f in range(t.F):
            any_attacker = False
            for c in range(t.C):
                o = orders[c]
                if o > 0 and (o - 1) // 4 == f and (o - 1) % 4 > 0 and s.side[c] == side:
                    any_attacker = True
                    break
            if not any_attacker or not front_active(t, s, f):
                continue
            k = target_city(t, s, f, side)
            if k < 0:
                continue
            commit = 0
            for c in range(t.C):
                o = orders[c]
                if o > 0 and (o - 1) // 4 == f and (o - 1) % 4 > 0 and s.side[c] == side:
                    spend = min(land_commit((o - 1) % 4), s.supply[c])
                    s.supply[c] -= spend
                    commit += spend
            _attack(t, s, f, side, k, alloc + f * t.C, commit, month, dice, mine, theirs)


# == naval.py ===================================================================================

cdef uint32_t _blockaded_mask(const GoaT* t, const int8_t* blockade, int side) noexcept nogil:
    # the areas `side` blockades in `blockade` ([A, 2])
    cdef uint32_t m = 0
    cdef int a
    for a in range(t.A):
        if blockade[a * 2 + side]:
            m |= 1u << a
    return m


cdef inline uint32_t _pacific_mask(const GoaT* t) noexcept nogil:
    cdef uint32_t m = 0
    if t.east_pacific >= 0:
        m |= 1u << t.east_pacific
    if t.west_pacific >= 0:
        m |= 1u << t.west_pacific
    if t.south_pacific >= 0:
        m |= 1u << t.south_pacific
    return m


cdef bint pacific_margin_kept(const GoaT* t, const GoaS* s, int q, int dest,
                              const int32_t* orders) noexcept nogil:
    # C.26: an American move off the Pacific keeps more American squadrons based where the
    # Pacific can be reached than Japan has (the moves ordered before it counted)
    cdef int u = t.united_states, j = t.japan, r, base, code, japanese = 0, american = 0
    cdef uint32_t pac = _pacific_mask(t)
    if not t.colonies or u < 0 or j < 0 or s.squadron_country[q] != u \
            or (t.pl_amask[dest] & pac):
        return True
    for r in range(t.Q):
        if s.squadron_base[r] < 0 or s.squadron_damage[r] >= DMG_SUNK:
            continue
        if s.squadron_country[r] == j:
            japanese += 1
        elif s.squadron_country[r] == u and r != q:
            base = s.squadron_base[r]
            code = orders[r] if orders != NULL else 0
            if 0 < code < SORTIE:
                base = code - 1
            if t.pl_amask[base] & pac:
                american += 1
    return american > japanese


cdef int squadron_options(const GoaT* t, const GoaS* s, const Facts* f, int q,
                          const int32_t* orders, int32_t* out) noexcept nogil:
    cdef int side = s.side[s.squadron_country[q]], here = s.squadron_base[q], n = 1, w, a, NW = t.NW
    cdef int dest
    cdef bint margin = t.colonies and s.squadron_country[q] == t.united_states and t.japan >= 0
    cdef uint32_t here_m = t.pl_amask[here], open_m
    cdef uint64_t cand[8]
    cdef uint64_t word
    out[0] = 0
    # may_move: a usable place sharing an area in play with the base, either coast-connected
    # to it or sharing one such area the enemy did not blockade last month (N.33)
    for w in range(NW):
        cand[w] = t.coast_nb[here * NW + w]
    open_m = here_m & ~f.foe_prev[side]
    while open_m:
        a = lowest_bit(open_m)
        open_m &= open_m - 1
        for w in range(NW):
            cand[w] |= t.area_places[a * NW + w]
    cand[here >> 6] &= ~((<uint64_t>1) << (here & 63))
    for w in range(NW):
        word = cand[w] & f.usable_bits[side * NW + w]
        while word:
            dest = w * 64 + lowest_bit64(word)
            word &= word - 1
            if margin and not pacific_margin_kept(t, s, q, dest, orders):
                continue
            out[n] = 1 + dest
            n += 1
    if s.squadron_damage[q] < DMG_HEAVY:
        for a in range(t.A):
            if here_m & (1u << a):
                out[n] = SORTIE + a
                out[n + 1] = SCREEN + a
                out[n + 2] = SUPPORT + a
                n += 3
    return n


cdef void apply_order(GoaS* s, int q, int code) noexcept nogil:
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


cdef int sortied(const GoaT* t, const GoaS* s, int a, int side, int32_t* out) noexcept nogil:
    cdef int n = 0, q
    for q in range(t.Q):
        if s.squadron_sortie[q] == a and s.squadron_damage[q] < DMG_SUNK \
                and s.side[s.squadron_country[q]] == side:
            out[n] = q
            n += 1
    return n


cdef bint has_sortied(const GoaT* t, const GoaS* s, int a, int side) noexcept nogil:
    cdef int q
    for q in range(t.Q):
        if s.squadron_sortie[q] == a and s.squadron_damage[q] < DMG_SUNK \
                and s.side[s.squadron_country[q]] == side:
            return True
    return False


cdef inline bint _usw_reaches(const GoaT* t, int side, int a) noexcept nogil:
    return side == ALLIED or t.a_onmap_port[a] != 0


cdef void sortie_sides(const GoaT* t, const GoaS* s, int8_t* out) noexcept nogil:
    cdef int q, a, sd
    memset(out, 0, t.A)
    for q in range(t.Q):
        a = s.squadron_sortie[q]
        if a >= 0 and s.squadron_damage[q] < DMG_SUNK:
            sd = s.side[s.squadron_country[q]]
            if sd < 2:
                out[a] |= 1 << sd


cdef bint submarine_area(const GoaT* t, const GoaS* s, int a, int side, int sides) noexcept nogil:
    # N.45 (sides: sortie_sides' bits of the area): only the enemy sortied there
    if not t.chart or s.usw[side] < 0:
        return False
    return (sides >> enemy(side)) & 1 and not (sides >> side) & 1 and _usw_reaches(t, side, a)


cdef int gunnery(const GoaT* t, const GoaS* s, const int32_t* qs, int n) noexcept nogil:
    cdef int g = 0, i
    for i in range(n):
        if s.screen[qs[i]] == FIGHTS:
            g += t.q_gunnery[qs[i]]
    return g


cdef int chart_column(const GoaT* t, int g) noexcept nogil:
    cdef int col = -1, i
    for i in range(t.n_ncc):
        if t.ncc_columns[i] <= g:
            col = i
    return col


cdef int chart_damage(const GoaT* t, int col, int d) noexcept nogil:
    if d < 1 and t.ncc_below_one:
        return 0
    d = max(1, min(6, d))
    if col < 0:
        return t.ncc_far_left[d - 1]
    return t.ncc_damage[(d - 1) * t.n_ncc + col]


cdef bint mostly(const GoaT* t, const GoaS* s, const int32_t* qs, int n) noexcept nogil:
    if n == 0:
        return False
    cdef int special = 0, i, c
    for i in range(n):
        c = s.squadron_country[qs[i]]
        if c == t.germany or c == t.britain or c == t.united_states:
            special += 1
    return 2 * special > n


cdef void worsen(GoaS* s, int q, int level) noexcept nogil:
    cdef int new = min(DMG_SUNK, s.squadron_damage[q] + level)
    s.squadron_damage[q] = new
    s.squadron_repair[q] = 0
    if new == DMG_SUNK:
        s.squadron_base[q] = -1
        s.squadron_sortie[q] = -1
        s.sunk[s.side[s.squadron_country[q]]] += 1


cdef void repair(const GoaT* t, GoaS* s) noexcept nogil:
    cdef int q, d, b, c
    for q in range(t.Q):
        d = s.squadron_damage[q]
        if d == DMG_NONE or d == DMG_SUNK or s.squadron_sortie[q] >= 0:
            continue
        b = s.squadron_base[q]
        c = s.squadron_country[q]
        if b < 0 or b >= t.P or not port_usable(t, s, b, s.side[c]):
            continue
        if d == DMG_HEAVY and t.heavy_home_port and t.p_country[b] != c:
            continue
        s.squadron_repair[q] += 1
        if s.squadron_repair[q] >= t.repair_months[d]:
            s.squadron_damage[q] = d - 1
            s.squadron_repair[q] = 0


cdef int blockade_modifier(const GoaT* t, const GoaS* s, int a, int side, int month) noexcept nogil:
    cdef int m = 0, q, sd, foe = enemy(side), won = s.sortie_won[a]
    for q in range(t.Q):
        if s.squadron_sortie[q] != a or s.squadron_damage[q] >= DMG_SUNK:
            continue
        sd = s.side[s.squadron_country[q]]
        if sd == side:
            if (won == side or won == -1) and s.screen[q] != SUPPORTS:
                m += blockade_plus(t.q_kind[q])
        elif sd == foe:
            if s.screen[q] == SCREENS and not s.in_combat[q]:
                m -= blockade_minus(t.q_kind[q])
    if s.usw[side] >= 0 and _usw_reaches(t, side, a):       # usw_bonus
        m += 4 + <int>fdiv(month - s.usw[side], 12)
    return m


cdef void blockade_modifiers(const GoaT* t, const GoaS* s, int month, int32_t* out) noexcept nogil:
    # blockade_modifier of every area and side (out[a * 2 + side]) in one pass over the squadrons
    cdef int q, a, sd, side, won
    memset(out, 0, t.A * 2 * sizeof(int32_t))
    for q in range(t.Q):
        a = s.squadron_sortie[q]
        if a < 0 or s.squadron_damage[q] >= DMG_SUNK:
            continue
        sd = s.side[s.squadron_country[q]]
        if sd > 1:
            continue
        won = s.sortie_won[a]
        if (won == sd or won == -1) and s.screen[q] != SUPPORTS:
            out[a * 2 + sd] += blockade_plus(t.q_kind[q])
        if s.screen[q] == SCREENS and not s.in_combat[q]:
            out[a * 2 + 1 - sd] -= blockade_minus(t.q_kind[q])
    for side in range(2):
        if s.usw[side] >= 0:
            for a in range(t.A):
                if _usw_reaches(t, side, a):
                    out[a * 2 + side] += 4 + <int>fdiv(month - s.usw[side], 12)


cdef int _blockade_supply_loss(const GoaT* t, const GoaS* s, int c) noexcept nogil:
    cdef int side = s.side[c], foe = enemy(side), base = t.c_supply[c], loss = 0
    cdef uint32_t held = _blockaded_mask(t, s.blockade, foe), mine = t.c_port_areas[c]
    if c == t.japan:                                           # C.45's figure for N.66's half
        return 12 if t.east_pacific >= 0 and (held & (1u << t.east_pacific)) else 0
    if c != t.russia:                                          # N.67
        if mine and (mine & ~held) == 0:
            loss = <int>ceil_div(base, 3)
        else:
            if t.east_med >= 0 and (held & mine & (1u << t.east_med)):
                loss += <int>ceil_div(base, 10)
            if t.west_med >= 0 and (held & mine & (1u << t.west_med)):
                loss += <int>ceil_div(base, 10)
            if t.north_atlantic >= 0 and (held & mine & (1u << t.north_atlantic)):
                loss += <int>ceil_div(base, 4)
        if c == t.britain and t.north_atlantic >= 0 and t.north_sea >= 0 \
                and (held & (1u << t.north_atlantic)) and (held & (1u << t.north_sea)):
            loss = max(loss, <int>ceil_div(base, 3))
    if t.colonies and side == ALLIED:                          # C.45
        if c == t.britain and ((t.south_atlantic >= 0 and (held & (1u << t.south_atlantic)))
                               or (t.indian_ocean >= 0 and (held & (1u << t.indian_ocean)))):
            loss += 3
        if t.east_pacific >= 0 and (held & (1u << t.east_pacific)):
            if c == t.britain:
                loss += 1
            elif c == t.russia:
                loss += 4
            elif c == t.united_states:
                loss += 3
        if c == t.united_states and t.west_pacific >= 0 and (held & (1u << t.west_pacific)):
            loss += 3
    return min(loss, <int>ceil_div(base, 3))


cdef void apply_blockade_losses(const GoaT* t, GoaS* s) noexcept nogil:
    cdef int c, due, loss
    for c in range(t.C):
        if not at_war(s, c):
            continue
        due = _blockade_supply_loss(t, s, c)            # pure: the reference's two calls, once
        loss = min(s.supply[c], due)
        if due > 0:
            s.since_roll[c] |= BLOCKADE_LOSS_SINCE
        s.supply[c] -= loss
        s.blockade_lost[c] += loss


cdef inline int _ship_capacity(const GoaT* t, int c) noexcept nogil:
    return 6 if (c == t.britain or c == t.united_states) else 3


cdef inline int capacity_left(const GoaT* t, const GoaS* s, int c) noexcept nogil:
    # N.85: units c may still move by sea this Naval Phase (shipping and landings)
    return max(0, _ship_capacity(t, c) - s.shipped[c])


cdef inline bint _detached(const GoaT* t, int c, int host) noexcept nogil:
    if host == c:
        return False
    if host == t.france and (c == t.britain or c == t.united_states):
        return False
    if host == t.britain and c == t.united_states:
        return False
    return True


cdef inline int _detached_limit(const GoaT* t, int c) noexcept nogil:
    return 12 if (c == t.britain or c == t.united_states) else 6


cdef inline int home_colony(const GoaT* t, int c) noexcept nogil:
    # naval.home_colony: Japan's home islands, -1
    return t.japan_area if (c == t.japan and c >= 0) else -1


cdef int _detached_units(const GoaT* t, const GoaS* s, int c) noexcept nogil:
    # N.76: abroad outside its home countries, in colonies and areas but its home islands
    cdef int n = 0, h, l, home = home_colony(t, c)
    for h in range(t.C):
        if s.abroad[c * t.C + h] > 0 and _detached(t, c, h):
            n += s.abroad[c * t.C + h] // t.corps
    for l in range(t.L):
        if l != home:
            n += s.col_units[l * t.C + c]
    return n


cdef int detached_room(const GoaT* t, const GoaS* s, int c) noexcept nogil:
    return max(0, _detached_limit(t, c) - _detached_units(t, s, c))


cdef int home_units(const GoaT* t, const GoaS* s, int c) noexcept nogil:
    cdef int home = home_colony(t, c)
    if home >= 0:
        return s.col_units[home * t.C + c]
    return <int>fdiv(s.army[c], t.corps)


cdef int take_colony(const GoaT* t, GoaS* s, int l, int c, int n) noexcept nogil:
    # n of c's units leave colony l with their share of its attack factors (C.68's ruling)
    cdef int af = <int>fdiv(<int64_t>s.col_af[l * t.C + c] * n, s.col_units[l * t.C + c])
    s.col_units[l * t.C + c] -= n
    s.col_af[l * t.C + c] -= af
    return af


cdef int take_home(const GoaT* t, GoaS* s, int c, int n) noexcept nogil:
    cdef int home = home_colony(t, c)
    if home < 0:
        s.army[c] -= n * t.corps
        return n * t.corps
    return take_colony(t, s, home, c, n)


cdef void put_home(const GoaT* t, GoaS* s, int c, int n, int af) noexcept nogil:
    cdef int home = home_colony(t, c)
    if home < 0:
        s.army[c] += n * t.corps
    else:
        s.col_units[home * t.C + c] += n
        s.col_af[home * t.C + c] += af


cdef bint enemy_squadron_at(const GoaT* t, const GoaS* s, int place, int side) noexcept nogil:
    cdef int foe = enemy(side), q
    for q in range(t.Q):
        if s.squadron_base[q] == place and s.squadron_damage[q] < DMG_SUNK \
                and s.side[s.squadron_country[q]] == foe:
            return True
    return False


cdef uint32_t sail_areas(const GoaT* t, const GoaS* s, int c, bint free_only) noexcept nogil:
    # the sea areas in play of naval.sail_places (c's embarkation places); free_only: of those
    # holding no enemy squadron
    cdef int home = home_colony(t, c), side = s.side[c], i, p
    cdef uint32_t m = 0
    if home >= 0:
        if s.colony[home] == side and not (free_only and enemy_squadron_at(t, s, t.P + home, side)):
            return t.pl_amask[t.P + home]
        return 0
    for i in range(t.c_home_start[c], t.c_home_start[c + 1]):
        p = t.c_home_list[i]
        if port_usable(t, s, p, side) and not (free_only and enemy_squadron_at(t, s, p, side)):
            m |= t.pl_amask[p]
    return m


cdef inline uint32_t _open_for(const GoaT* t, const GoaS* s, int c) noexcept nogil:
    # the areas in play not blockaded against c's side
    return t.a_in_play_mask & ~_blockaded_mask(t, s.blockade, enemy(s.side[c]))


cdef bint routes_to(const GoaT* t, const GoaS* s, int c, int dest, uint32_t sources) noexcept nogil:
    # N.81-N.83: dest friendly and usable, no enemy squadron there, sharing an unblockaded
    # area with the sources (their sea areas)
    cdef uint64_t foe[8]
    _foe_places(t, s, s.side[c], foe)
    return _routes(t, s, s.side[c], dest, sources & _open_for(t, s, c), foe)


cdef inline bint _routes(const GoaT* t, const GoaS* s, int side, int dest,
                         uint32_t open_sources, const uint64_t* foe) noexcept nogil:
    # routes_to with the sources' unblockaded areas and the places holding an enemy squadron
    # (foe, _foe_places) worked out (pure tests, cheapest first)
    if (open_sources & t.pl_amask[dest]) == 0:
        return False
    return place_usable(t, s, dest, side) and not ((foe[dest >> 6] >> (dest & 63)) & 1)


cdef void _foe_places(const GoaT* t, const GoaS* s, int side, uint64_t* out) noexcept nogil:
    # the places where a squadron (not sunk) of side's enemy is based, as NW words
    cdef int q, b, w, foe = enemy(side)
    for w in range(t.NW):
        out[w] = 0
    for q in range(t.Q):
        b = s.squadron_base[q]
        if b >= 0 and s.squadron_damage[q] < DMG_SUNK and s.side[s.squadron_country[q]] == foe:
            out[b >> 6] |= (<uint64_t>1) << (b & 63)


cdef inline bint _host_port(const GoaT* t, int p, int h) noexcept nogil:
    return t.p_country[p] == h and not t.p_off_map[p]


cdef inline int _ship_code(const GoaT* t, int block, int index, int n) noexcept nogil:
    cdef int start = 0
    if block == 1:
        start = t.C
    elif block == 2:
        start = 2 * t.C
    elif block == 3:
        start = 2 * t.C + t.L
    elif block == 4:
        start = 2 * t.C + 2 * t.L
    return 1 + 8 * (start + index) + n - 1


cdef inline void _reach(const GoaT* t, uint32_t areas, const uint64_t* ok,
                        uint64_t* out) noexcept nogil:
    # the places touching one of `areas` (sea areas in play), among `ok` (NW words): the
    # destinations _routes allows from sources whose unblockaded areas are `areas`
    cdef int a, w, NW = t.NW
    for w in range(NW):
        out[w] = 0
    while areas:
        a = lowest_bit(areas)
        areas &= areas - 1
        for w in range(NW):
            out[w] |= t.area_places[a * NW + w]
    for w in range(NW):
        out[w] &= ok[w]


cdef inline bint _has(const uint64_t* bits, int x) noexcept nogil:
    return (bits[x >> 6] >> (x & 63)) & 1


cdef int ship_options(const GoaT* t, const GoaS* s, const Facts* f, int c,
                      int32_t* out) noexcept nogil:
    # naval.ship_options: TO_HOST, FROM_HOST, TO_COLONY, FROM_COLONY, COLONY_TO_COLONY blocks.
    # f: facts_of's usable places and the foe's squadrons (valid through the sea movement
    # phase, which moves land units only); the routes of N.81-N.83 as bit sets of places
    out[0] = 0
    if not t.naval or not at_war(s, c):
        return 1
    cdef int cap = capacity_left(t, s, c)
    if cap <= 0:
        return 1
    cdef int L = t.L, NW = t.NW, room = detached_room(t, s, c), at_home = home_units(t, s, c)
    cdef int side = s.side[c], home = home_colony(t, c), n = 1, h, p, k, n_max, there, l, dst
    cdef int have, place, i, w
    cdef uint32_t homes = sail_areas(t, s, c, False), free_homes, opn = f.open_[side]
    cdef bint reach, back, free_done = False
    cdef uint64_t ok[8]
    cdef uint64_t from_home[8]
    cdef uint64_t from_col[8]
    cdef uint64_t bits
    cdef const uint64_t* usable = f.usable_bits + side * NW
    for w in range(NW):                                       # usable, no enemy squadron
        ok[w] = usable[w] & ~f.foe_bits[side][w]
    _reach(t, homes & opn, ok, from_home)
    for h in range(t.C):
        if t.c_host[c * t.C + h] and at_war(s, h) and s.side[h] == side:
            reach = False                                     # host_reachable
            for i in range(t.c_port_start[h], t.c_port_start[h + 1]):
                p = t.c_port_list[i]
                if not t.p_off_map[p] and _has(from_home, p):
                    reach = True
                    break
            if reach:
                n_max = min(cap, min(at_home, room if _detached(t, c, h) else cap))
                for k in range(1, n_max + 1):
                    out[n] = _ship_code(t, 0, h, k)
                    n += 1
        there = s.abroad[c * t.C + h] // t.corps
        if there > 0:
            if not free_done:
                free_homes = sail_areas(t, s, c, True)
                free_done = True
            back = False                                      # home_reachable_from_host
            for i in range(t.c_port_start[h], t.c_port_start[h + 1]):
                p = t.c_port_list[i]
                if not t.p_off_map[p] and _has(usable, p) \
                        and (free_homes & t.pl_amask[p] & opn):
                    back = True
                    break
            if back:
                for k in range(1, min(cap, there) + 1):
                    out[n] = _ship_code(t, 1, h, k)
                    n += 1
    if not t.colonies:
        return n
    for l in range(L):
        if l == home:
            continue
        place = t.P + l
        if _has(from_home, place):
            n_max = min(cap, min(at_home, room))
            for k in range(1, n_max + 1):
                out[n] = _ship_code(t, 2, l, k)
                n += 1
        have = s.col_units[l * t.C + c]
        if have <= 0 or s.colony[l] != side:
            continue
        if t.pl_amask[place] & homes & opn:
            for k in range(1, min(cap, have) + 1):
                out[n] = _ship_code(t, 3, l, k)
                n += 1
        _reach(t, t.pl_amask[place] & opn, ok, from_col)
        n_max = min(cap, have)
        for w in range(t.P >> 6, NW):                         # the colonies it reaches, in order
            bits = from_col[w]
            while bits:
                dst = (w << 6) + lowest_bit64(bits) - t.P
                bits &= bits - 1
                if dst < 0 or dst == l or dst == home:
                    continue
                for k in range(1, n_max + 1):
                    out[n] = _ship_code(t, 4, l * L + dst, k)
                    n += 1
    return n


cdef void ship(const GoaT* t, GoaS* s, int c, int code) noexcept nogil:
    if code == 0:
        return
    cdef int C = t.C, L = t.L, dest = (code - 1) // 8, n = (code - 1) % 8 + 1, index, af
    cdef int there, move, src, dst
    s.shipped[c] += n
    if dest >= 2 * C + 2 * L:                                 # COLONY_TO_COLONY
        index = dest - (2 * C + 2 * L)
        src = index // L
        dst = index % L
        af = take_colony(t, s, src, c, n)
        s.col_units[dst * C + c] += n
        s.col_af[dst * C + c] += af
    elif dest >= 2 * C + L:                                   # FROM_COLONY
        index = dest - (2 * C + L)
        af = take_colony(t, s, index, c, n)
        put_home(t, s, c, n, af)
    elif dest >= 2 * C:                                       # TO_COLONY
        index = dest - 2 * C
        af = take_home(t, s, c, n)
        s.col_units[index * C + c] += n
        s.col_af[index * C + c] += af
    elif dest >= C:                                           # FROM_HOST
        index = dest - C
        there = s.abroad[c * C + index]
        move = there if n >= there // t.corps else n * t.corps
        s.abroad[c * C + index] -= move
        s.army[c] += move
    else:                                                     # TO_HOST
        take_home(t, s, c, n)
        s.abroad[c * C + dest] += n * t.corps


cdef void marines_arrive(GoaS* s, int month) noexcept nogil:
    # N.96: the marines converted MARINE_DELAY months ago are ready at home
    cdef int slot = 2 + <int>pmod(month, 4)
    s.marines[1] += s.marines[slot]
    s.marines[slot] = 0


# -- N.34: squadrons left in a port they do not control ----------------------------------------

cdef int _place_control(const GoaT* t, const GoaS* s, int place) noexcept nogil:
    if place < t.P:
        return port_control(t, s, place)
    return s.colony[place - t.P]


cdef int _captor_country(const GoaT* t, const GoaS* s, int place, int side) noexcept nogil:
    cdef int home = t.p_country[place] if place < t.P else t.l_owner[place - t.P], c
    if home >= 0 and at_war(s, home) and s.side[home] == side:
        return home
    for c in range(t.C):
        if at_war(s, c) and s.side[c] == side:
            return c
    return -1


cdef void stranded(const GoaT* t, GoaS* s, uint64_t* dice) noexcept nogil:
    cdef int q, b, side, holder, captor, d
    for q in range(t.Q):
        b = s.squadron_base[q]
        if b < 0 or s.squadron_damage[q] == DMG_SUNK or s.returning[q] >= 0:
            continue
        side = s.side[s.squadron_country[q]]
        holder = _place_control(t, s, b)
        if holder == side:
            continue
        if side == NEUTRAL and holder == NEUTRAL:
            continue
        captor = _captor_country(t, s, b, holder) if holder != NEUTRAL else -1
        d = die(dice)
        if d <= 3 or captor < 0:
            s.squadron_damage[q] = DMG_SUNK
            s.squadron_base[q] = -1
            s.squadron_sortie[q] = -1
        else:
            s.squadron_country[q] = captor
            s.squadron_sortie[q] = -1


# == naval_combat.py: invasions =================================================================

cdef int landing_sources(const GoaT* t, const GoaS* s, int c, int32_t* src,
                         uint32_t* areas) noexcept nogil:
    # naval_combat.landing_sources: (source, the sea areas of its places); HOME = -1
    cdef int side = s.side[c], n = 1, l, h, p, home
    cdef uint32_t m
    cdef bint found
    src[0] = -1
    areas[0] = sail_areas(t, s, c, False)
    if t.colonies:
        home = home_colony(t, c)
        for l in range(t.L):
            if l != home and s.col_units[l * t.C + c] > 0 and s.colony[l] == side:
                src[n] = l
                areas[n] = t.pl_amask[t.P + l]
                n += 1
    for h in range(t.C):
        if s.abroad[c * t.C + h] >= t.corps:
            m = 0
            found = False
            for p in range(t.P):
                if _host_port(t, p, h) and port_usable(t, s, p, side):
                    m |= t.pl_amask[p]
                    found = True
            if found:
                src[n] = t.L + h
                areas[n] = m
                n += 1
    return n


cdef inline bint _overland(const GoaT* t, const GoaS* s, int c, int l) noexcept nogil:
    # C.52, C.64 (naval_combat._overland, colonial.rail_link)
    if not t.l_overland[l * t.C + c]:
        return False
    if c == t.turkey and t.constantinople >= 0:
        return s.city[t.constantinople] == s.side[c]
    return True


cdef int invasion_targets(const GoaT* t, const GoaS* s, int c, int32_t* kinds, int32_t* index,
                          int32_t* source, int32_t* work) noexcept nogil:
    # (kind, index, source) of what c may invade this month, sources first, then beaches,
    # ports, colonies (naval_combat.invasion_targets); work: room for 1 + L + C sources.
    # The places that may be invaded from some source are found once, as bit sets (beaches;
    # ports and colonies by place), then each source keeps those its open areas reach
    cdef int side = s.side[c], foe = enemy(side), n = 0, ns, i, b, k, p, l, x, w
    cdef bint barred = c == t.britain and s.limited[c]
    cdef uint32_t opn = _open_for(t, s, c), m
    cdef uint32_t* sareas = <uint32_t*>(work + 1 + t.L + t.C)
    cdef uint64_t foe_at[8]
    cdef uint64_t beaches[8]
    cdef uint64_t places[8]
    cdef uint64_t bits
    _foe_places(t, s, side, foe_at)
    ns = landing_sources(t, s, c, work, sareas)
    if ns == 0:
        return 0
    memset(beaches, 0, sizeof(beaches))
    memset(places, 0, sizeof(places))
    for b in range(t.B):
        k = t.b_city[b]
        if k < 0 or s.city[k] != foe or (side == CENTRAL and t.b_no_central[b]):
            continue
        if barred and (t.b_country[b] == t.germany or t.b_country[b] == t.austria_hungary
                       or t.k_country[k] == t.germany or t.k_country[k] == t.austria_hungary):
            continue
        beaches[b >> 6] |= (<uint64_t>1) << (b & 63)
    for p in range(t.P):
        k = t.p_city[p]
        if k < 0 or s.city[k] != foe or not t.p_in_play[p]:
            continue
        if barred and (t.k_country[k] == t.germany or t.k_country[k] == t.austria_hungary):
            continue
        if not ((foe_at[p >> 6] >> (p & 63)) & 1):
            places[p >> 6] |= (<uint64_t>1) << (p & 63)
    if t.colonies:
        for l in range(t.L):
            if s.colony[l] == foe:
                x = t.P + l
                places[x >> 6] |= (<uint64_t>1) << (x & 63)
    for i in range(ns):
        m = sareas[i] & opn
        for w in range((t.B + 63) >> 6):
            bits = beaches[w]
            while bits:
                b = (w << 6) + lowest_bit64(bits)
                bits &= bits - 1
                if m & t.b_amask_raw[b]:
                    kinds[n] = 0
                    index[n] = b
                    source[n] = work[i]
                    n += 1
        for w in range(t.NW):
            bits = places[w]
            while bits:
                x = (w << 6) + lowest_bit64(bits)
                bits &= bits - 1
                if x < t.P:
                    if m & t.pl_amask[x]:
                        kinds[n] = 1
                        index[n] = x
                        source[n] = work[i]
                        n += 1
                else:
                    l = x - t.P
                    if (m & t.pl_amask[x]) or (work[i] == -1 and _overland(t, s, c, l)):
                        kinds[n] = 2
                        index[n] = l
                        source[n] = work[i]
                        n += 1
    return n


cdef int available_units(const GoaT* t, const GoaS* s, int c, int src) noexcept nogil:
    if src == -1:
        return home_units(t, s, c) + (s.marines[1] if c == t.united_states else 0)
    if src < t.L:
        return s.col_units[src * t.C + c]
    return s.abroad[c * t.C + src - t.L] // t.corps


cdef inline int invasion_cap(const GoaT* t, int kind, int index) noexcept nogil:
    return 6 if (kind == 2 and t.l_kind[index] == L_JAPAN) else 3


cdef inline int _done_slot(const GoaT* t, int kind, int index) noexcept nogil:
    return index if kind == 0 else (t.B + index if kind == 1 else t.B + t.P + index)


cdef int landing_options(const GoaT* t, const GoaS* s, int c, int nt, const int32_t* kinds,
                         const int32_t* index, const int32_t* source, const int32_t* committed,
                         const uint8_t* done, int32_t* out) noexcept nogil:
    # committed[src + 1]: units committed from each source; done[_done_slot]: places landed on
    cdef int cap_left = capacity_left(t, s, c), n = 1, i, left, n_max, u, x
    for x in range(1 + t.L + t.C):
        cap_left -= committed[x]
    out[0] = 0
    for i in range(nt):
        if done[_done_slot(t, kinds[i], index[i])]:
            continue
        left = available_units(t, s, c, source[i]) - committed[source[i] + 1]
        n_max = min(invasion_cap(t, kinds[i], index[i]), min(left, cap_left))
        for u in range(n_max):
            out[n] = 1 + 8 * i + u
            n += 1
    return n


cdef bint _support(const GoaT* t, GoaS* s, int side, uint32_t areas) noexcept nogil:
    cdef int q, a
    for q in range(t.Q):
        a = s.squadron_sortie[q]
        if a >= 0 and (areas & (1u << a)) and s.screen[q] == SUPPORTS and not s.in_combat[q] \
                and not s.supported[q] and s.squadron_damage[q] < DMG_SUNK \
                and s.side[s.squadron_country[q]] == side:
            s.supported[q] = 1
            return True
    return False


cdef int landing_modifier(const GoaT* t, int kind, int k, bint supported, int month) noexcept nogil:
    # N.94: +1 for a supporting squadron; the defender's fort or city (a port), entrenchment
    cdef int m = 1 if supported else 0, cap = t.land_mods[LM_CAP]
    if kind == 1:
        m += t.land_mods[LM_FORT] if t.k_terrain[k] == TER_FORT else t.land_mods[LM_CITY]
    if month >= t.entrench_from:
        m += t.land_mods[LM_ENTRENCH]
    return max(-cap, min(cap, m))


cdef void land_invasion(const GoaT* t, GoaS* s, uint64_t* dice, int c, int kind, int index,
                        int n, int month, int src) noexcept nogil:
    cdef int side = s.side[c], foe = enemy(side), marines = 0, attack, l, mod, k, holder, col
    cdef int shift, d, result, af
    cdef bint supported
    cdef uint32_t areas
    cdef int64_t defence, lost
    n = min(n, min(available_units(t, s, c, src), capacity_left(t, s, c)))
    if n <= 0:
        return
    s.shipped[c] += n
    if src == -1:
        marines = min(n, <int>s.marines[1]) if c == t.united_states else 0
        s.marines[1] -= marines
        af = take_home(t, s, c, n - marines) if n > marines else 0
    elif src < t.L:
        af = take_colony(t, s, src, c, n)
    else:
        s.abroad[c * t.C + src - t.L] -= n * t.corps
        af = n * t.corps
    attack = marines * 8 + af                                 # N.96: marines attack at 8
    if kind == 2:
        l = index
        areas = t.pl_amask[t.P + l]
        mod = <int>fdiv(attack, 3) + (1 if _support(t, s, side, areas) else 0)     # C.68
        if die(dice) + mod > t.l_defense[l]:
            _conquer_colony(t, s, l, side, c == t.japan)
            s.col_units[l * t.C + c] += n
            s.col_af[l * t.C + c] += attack
        else:
            s.strength_lost[c] += attack
        return
    if kind == 0:
        k = t.b_city[index]
        areas = t.b_amask_raw[index]
    else:
        k = t.p_city[index]
        areas = t.pl_amask[index]
    holder = t.k_country[k]
    defence = <int64_t>s.garrison[k] * t.corps
    if at_war(s, holder) and s.side[holder] == foe:
        defence += ceil_div(<int64_t>s.army[holder] * t.coast_share, 100)
    col = column(attack, defence, &shift)
    supported = _support(t, s, side, areas)
    d = die(dice) + shift + landing_modifier(t, kind, k, supported, month)
    result = t.crt[max(0, min(6, d)) * 6 + col]
    if result == LAND_DX or result == LAND_DE:
        s.city[k] = side
        s.garrison[k] = n
        if at_war(s, holder) and s.side[holder] == foe:
            lost = ceil_div(defence * t.land_loss[result * 2 + 1], 100)
            lost = min(lost, <int64_t>s.army[holder])
            s.army[holder] -= <int32_t>lost
            s.strength_lost[holder] += <int32_t>lost
    else:
        s.strength_lost[c] += attack


# == colonial.py ================================================================================

cdef void japanese_forces(const GoaT* t, GoaS* s, int month) noexcept nogil:
    cdef int j = t.japan, home = t.japan_area, u = t.united_states, i, attack, support, cost
    if j < 0 or home < 0 or s.conquered[j] >= 0:        # S._16: a conquered Japan gets none
        return
    if u >= 0 and s.entered[u] >= 0 and month == s.entered[u] + 1:
        s.col_units[home * t.C + j] += 3
        s.col_af[home * t.C + j] += 9
    if not at_war(s, j) or s.colony[home] != s.side[j]:
        return
    i = s.scalars[SC_JAPAN_POOL]
    while i < t.U:
        attack = t.japan_pool[i * 2]
        support = t.japan_pool[i * 2 + 1]
        cost = max(1, attack)
        if s.scalars[SC_JAPAN_PERSONNEL] < cost:
            break
        s.scalars[SC_JAPAN_PERSONNEL] -= cost
        s.col_units[home * t.C + j] += 1
        if not support:
            s.col_af[home * t.C + j] += attack
        i += 1
    s.scalars[SC_JAPAN_POOL] = i


cdef bint _enemy_units(const GoaT* t, const GoaS* s, int l, int foe) noexcept nogil:
    cdef int d
    for d in range(t.C):
        if s.col_units[l * t.C + d] > 0 and s.side[d] == foe:
            return True
    return False


cdef inline int _move_code(int L, int src, int dst, int n) noexcept nogil:
    return 1 + 8 * (src * (L + 1) + dst) + n - 1


cdef inline bint free_area(const GoaT* t, int l) noexcept nogil:
    # C.53, C.65: Persia, Shantung, Hopei, Manchuria (Abyssinia only when announced)
    return t.l_kind[l] == L_CHINA or (t.l_kind[l] == L_SOVEREIGN and l != t.abyssinia)


cdef int move_options(const GoaT* t, const GoaS* s, int c, const int32_t* pending,
                      int32_t* out) noexcept nogil:
    # colonial.move_options: pending[src] units already ordered out of src (L: home),
    # pending[L + 1] those sent out to detached sources
    cdef int L = t.L, C = t.C, side = s.side[c], foe = enemy(side), n = 1, i, l, k, src, dst
    cdef int have, n_out, home_left = <int>fdiv(s.army[c], t.corps) - pending[L]
    cdef int room = detached_room(t, s, c) - pending[L + 1]
    cdef bint ok
    out[0] = 0
    for i in range(t.c_overland_start[c], t.c_overland_start[c + 1]):
        l = t.c_overland_list[i]
        if c == t.turkey and t.constantinople >= 0 and s.city[t.constantinople] != side:
            continue
        n_out = min(8, min(home_left, room))
        if s.colony[l] == side and n_out > 0:
            for k in range(1, n_out + 1):
                out[n] = _move_code(L, L, l, k)
                n += 1
        have = s.col_units[l * C + c] - pending[l]
        if have > 0:
            for k in range(1, min(8, have) + 1):
                out[n] = _move_code(L, l, L, k)
                n += 1
    for src in range(L):
        have = s.col_units[src * C + c] - pending[src]
        if have <= 0 or s.colony[src] != side:
            continue
        for i in range(t.l_out_start[src], t.l_out_start[src + 1]):
            dst = t.l_out_list[i]
            ok = s.colony[dst] == side
            if free_area(t, dst):
                ok = ok or (s.colony[dst] == NEUTRAL and not _enemy_units(t, s, dst, foe))
            if ok:
                for k in range(1, min(8, have) + 1):
                    out[n] = _move_code(L, src, dst, k)
                    n += 1
    return n


cdef void apply_move(const GoaT* t, GoaS* s, int c, int code) noexcept nogil:
    # C.65: a move into an area that has just become the enemy's does not happen
    if code == 0:
        return
    cdef int L = t.L, C = t.C, pair = (code - 1) // 8, n = (code - 1) % 8 + 1
    cdef int src = pair // (L + 1), dst = pair % (L + 1), af, side = s.side[c]
    if dst < L and s.colony[dst] != side and s.colony[dst] != NEUTRAL:
        return
    if src == L:
        s.army[c] -= n * t.corps
        af = n * t.corps
    else:
        af = take_colony(t, s, src, c, n)
    if dst == L:
        s.army[c] += n * t.corps
        return
    s.col_units[dst * C + c] += n
    s.col_af[dst * C + c] += af
    if s.colony[dst] == NEUTRAL and free_area(t, dst):
        s.colony[dst] = side                      # C.65: occupied without a roll
        s.colonies_taken[side] += 1
        if c == t.japan:
            s.scalars[SC_JAPAN_CONQUESTS] += 1


cdef bint abyssinia_may_attack(const GoaT* t, const GoaS* s, int side) noexcept nogil:
    # colonial_phase: Abyssinia neutral and next to a colony of `side` with its land units
    cdef int ab = t.abyssinia, i, b, d
    cdef int64_t af
    if ab < 0 or s.colony[ab] != NEUTRAL:
        return False
    for i in range(t.l_in_start[ab], t.l_in_start[ab + 1]):
        b = t.l_in_list[i]
        if s.colony[b] != side:
            continue
        af = 0
        for d in range(t.C):
            if s.side[d] == side:
                af += s.col_af[b * t.C + d]
        if af:
            return True
    return False


cdef bint _home_colony(const GoaT* t, const GoaS* s, int b, int side) noexcept nogil:
    cdef int owner = t.l_owner[b], kind = t.l_kind[b]
    if kind == L_SOVEREIGN or kind == L_CHINA:
        return True
    if kind == L_TURKISH or kind == L_TURKISH_OPPONENT:
        return True
    return owner >= 0 and s.side[owner] == side


cdef int _allied_targets(const GoaT* t, const GoaS* s, int32_t* out) noexcept nogil:
    cdef int n = 0, l, kind, owner
    for l in range(t.L):
        if s.colony[l] != CENTRAL:
            continue
        kind = t.l_kind[l]
        owner = t.l_owner[l]
        if kind == L_COLONY and (owner < 0 or s.side[owner] != CENTRAL):
            continue
        if free_area(t, l) and not _enemy_units(t, s, l, CENTRAL):
            continue
        if kind == L_JAPAN:
            continue
        out[n] = l
        n += 1
    return n


cdef int _central_targets(const GoaT* t, const GoaS* s, int32_t* out) noexcept nogil:
    cdef int n = 0, l, i, b, kind
    cdef bint base
    for l in range(t.L):
        kind = t.l_kind[l]
        if s.colony[l] != ALLIED or kind == L_JAPAN:
            continue
        if free_area(t, l) and not _enemy_units(t, s, l, ALLIED):
            continue
        base = False
        for i in range(t.l_in_start[l], t.l_in_start[l + 1]):
            b = t.l_in_list[i]
            if s.colony[b] == CENTRAL and _home_colony(t, s, b, CENTRAL):
                base = True
                break
        if base:
            out[n] = l
            n += 1
    return n


cdef int _attack_modifier(const GoaT* t, const GoaS* s, int l, int side, int* base) noexcept nogil:
    cdef int best = 0, i, b, d
    cdef int64_t af
    base[0] = -1
    for i in range(t.l_in_start[l], t.l_in_start[l + 1]):
        b = t.l_in_list[i]
        if s.colony[b] != side:
            continue
        af = 0
        for d in range(t.C):
            if s.side[d] == side and at_war(s, d):
                af += s.col_af[b * t.C + d]
        if fdiv(af, 3) > best:
            best = <int>fdiv(af, 3)
            base[0] = b
    return best


cdef void _conquer_colony(const GoaT* t, GoaS* s, int l, int side, bint by_japan) noexcept nogil:
    cdef int foe = enemy(side), d, q
    s.colony[l] = side
    s.colonies_taken[side] += 1
    for d in range(t.C):
        if s.side[d] == foe and s.col_units[l * t.C + d]:
            s.strength_lost[d] += s.col_af[l * t.C + d]
            s.col_units[l * t.C + d] = 0
            s.col_af[l * t.C + d] = 0
    if by_japan:
        s.scalars[SC_JAPAN_CONQUESTS] += 1


cdef inline bint _japanese(const GoaT* t, const GoaS* s, int base) noexcept nogil:
    return base >= 0 and t.japan >= 0 and s.col_units[base * t.C + t.japan] > 0


cdef void colonial_combat(const GoaT* t, GoaS* s, uint64_t* dice, int month,
                          int32_t* work) noexcept nogil:
    if not t.colonial_months[month_of_year(month)]:
        return
    cdef int n, i, l, mod, base
    n = _allied_targets(t, s, work)
    for i in range(n):
        l = work[i]
        mod = _attack_modifier(t, s, l, ALLIED, &base)
        if die(dice) + mod > t.l_defense[l]:
            _conquer_colony(t, s, l, ALLIED, _japanese(t, s, base))
    n = _central_targets(t, s, work)
    for i in range(n):
        l = work[i]
        if s.colony[l] != ALLIED:
            continue
        mod = _attack_modifier(t, s, l, CENTRAL, &base)
        if die(dice) + mod > t.l_defense[l]:
            _conquer_colony(t, s, l, CENTRAL, _japanese(t, s, base))


cdef bint may_return(const GoaT* t, const GoaS* s, int q) noexcept nogil:
    cdef int b = s.squadron_base[q]
    return (b >= t.P and t.q_kind[q] == SHIP_BATTLECRUISER
            and s.squadron_damage[q] == DMG_NONE and s.returning[q] < 0
            and not t.l_no_return[b - t.P] and s.squadron_sortie[q] < 0 and not s.moved[q])


cdef int interceptors(const GoaT* t, const GoaS* s, int side, int32_t* out) noexcept nogil:
    cdef int n = 0, q, c
    for q in range(t.Q):
        c = s.squadron_country[q]
        if t.q_kind[q] == SHIP_BATTLECRUISER and s.squadron_damage[q] < DMG_HEAVY \
                and s.squadron_base[q] >= 0 and s.squadron_sortie[q] < 0 and not s.moved[q] \
                and s.returning[q] < 0 and at_war(s, c) and s.side[c] == side:
            out[n] = q
            n += 1
    return n


cdef int return_ports(const GoaT* t, const GoaS* s, int q, int32_t* out) noexcept nogil:
    # C.44: the European ports on the North Atlantic (not American, not reaching only colonial
    # areas) the squadron's side may use
    cdef int side = s.side[s.squadron_country[q]], na = t.north_atlantic, n = 0, p, a
    cdef uint32_t colonial = 0, raw
    if na < 0:
        return 0
    cdef int areas[5]
    areas[0] = t.south_atlantic
    areas[1] = t.indian_ocean
    areas[2] = t.east_pacific
    areas[3] = t.west_pacific
    areas[4] = t.south_pacific
    for p in range(5):
        if areas[p] >= 0:
            colonial |= 1u << areas[p]
    for p in range(t.P):
        if not t.p_area[p * t.A + na] or t.p_country[p] == t.united_states:
            continue
        raw = t.p_amask_raw[p]
        if (raw & ~colonial) == 0:
            continue
        if port_usable(t, s, p, side):
            out[n] = p
            n += 1
    return n
