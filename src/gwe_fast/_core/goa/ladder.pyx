# cython: language_level=3
"""The Guns of August's ladder policies answering inside the compiled core.

Each is a ``chooser_t`` (``engine.pxd``) registered at a ladder level when this module is
imported, and is the compiled twin of a Python policy of ``policies/goa``: it makes exactly
its choices (the same rule functions, from ``rules.pxd``; the same floating-point sums in the
same order; the same tie-breaking), which the parity tests play decision by decision
(``tests/games/goa/test_core_ladder.py``):

* ``PASSIVE`` (level 1): ``GoaPassivePolicy``: option 0 where there is one, else -1
  ('none'), else the first option.
* ``GREEDY`` (level 2): ``GoaGreedyPolicy``, its parameters per side in ``Core.ladder_params``
  (``GoaCore.set_params``) and the gunnery it has sent to each sea area in the month
  (its ``_orders``) in ``Core.ladder_committed``.
* ``HISTORICAL`` (level 3): ``GoaHistoricalPolicy``: the rows of ``historical.toml``,
  compiled by ``history_rows`` against the scenario's countries, where they speak; the greedy
  choice elsewhere.

A subclass of one of these Python policies answers in Python (its ``core_level()`` is
``None``): it may choose otherwise.

Examples
--------
>>> from gwe_fast._core.goa.ladder import PASSIVE, GREEDY, HISTORICAL
>>> PASSIVE, GREEDY, HISTORICAL
(1, 2, 3)
"""

import numpy as np

from libc.stdint cimport int8_t, int32_t, int64_t, uint32_t
from libc.string cimport memset

from gwe_fast._core.goa.codes cimport *
from gwe_fast._core.goa.engine cimport (Core, LADDER_AREAS, LADDER_SQUADRONS, N_HISTORY_COLS,
                                        P_AGGRESSION, P_CAUTION, P_GIFT, P_USW,
                                        register_chooser)
from gwe_fast._core.goa.rules cimport *
from gwe_fast._core.goa.tables cimport GoaS, GoaT

#: the ladder level of each compiled policy (``GoaCore(levels=...)``)
PASSIVE = 1
GREEDY = 2
HISTORICAL = 3

cdef enum:
    # the kinds of historical.toml's rows, as history_rows writes them
    HK_INVADE = 0
    HK_GIFT = 1
    HK_USW = 2
    HK_ECONOMY = 3
    HK_CONSCRIPTION = 4
    HK_OFFENSIVE = 5
    MAX_ROLLS = 256               # the month's rolls: 2 C + 4 at most, C <= 120 (tables)

#: the kinds of ``historical.toml`` the historical policy reads, by their row code
HISTORY_KINDS = ("invade", "gift", "usw", "economy", "conscription", "offensive")
#: the columns of ``history_rows``
HISTORY_COLUMNS = ("kind", "who", "against", "month", "until")


def history_rows(goa, history: dict):
    """The historical choices (``historical.history()``: kind -> rows, months as numbers)
    as the compiled policy reads them: int32[n, 5] (``HISTORY_COLUMNS``), in the file's order
    within each kind. ``who`` is the country's index in ``goa`` (the side for ``gift`` and
    ``usw``), ``against`` an offensive's enemy country (else -1). A row naming a country the
    scenario does not have is left out: the Python policy never matches it either.

    >>> import gwe_fast
    >>> from gwe_fast.policies.goa.historical import history
    >>> t = gwe_fast.load_scenario("goa/campaign").goa
    >>> rows = history_rows(t, history())
    >>> rows.shape[1], rows[0].tolist() == [0, t.c_key.index("belgium"), -1, 0, 0]
    (5, True)
    """
    keys = list(goa.c_key)
    out = []
    for code, kind in enumerate(HISTORY_KINDS):
        for r in history.get(kind, []):
            if kind in ("gift", "usw"):
                if r["side"] not in ("allied", "central"):
                    raise ValueError(f"historical {kind} row {r!r}: side must be allied or "
                                     f"central")
                who, against = (ALLIED if r["side"] == "allied" else CENTRAL), -1
            else:
                if r["country"] not in keys:
                    continue
                who, against = keys.index(r["country"]), -1
                if kind == "offensive":
                    if r["against"] not in keys:
                        continue
                    against = keys.index(r["against"])
            out.append((code, who, against, int(r["month"]), int(r["until"])))
    return np.array(out, np.int32).reshape(-1, N_HISTORY_COLS)


# == passive ===================================================================================

cdef int passive_choose(Core* k, int side) noexcept nogil:
    # GoaPolicy.default: decline (0, else -1) where the options allow it, else the first
    cdef int i
    for i in range(k.n_opts):
        if k.opts[i] == 0:
            return i
    for i in range(k.n_opts):
        if k.opts[i] == -1:
            return i
    return 0


cdef inline int index_of(const Core* k, int code) noexcept nogil:
    # list(d.options).index(code), or -1 when it is not an option
    cdef int i
    for i in range(k.n_opts):
        if k.opts[i] == code:
            return i
    return -1


# == greedy (policies/goa/greedy.py, GoaGreedyPolicy) ==========================================

cdef inline double weight(const GoaT* t, int c) noexcept nogil:
    # greedy.weight: the country's monthly points (the table), at least 1, over 10
    cdef double x = <double>t.c_personnel[c] + <double>t.c_supply[c]
    return (x if x > 1.0 else 1.0) / 10.0


cdef inline double morale_cost(int result) noexcept nogil:
    # MORALE_COST
    if result == MOR_RR:
        return 0.25
    if result == MOR_D1:
        return 1.0
    if result == MOR_D2:
        return 2.0
    if result == MOR_SURRENDER:
        return 12.0
    return 0.0


cdef double outcome_value(const GoaT* t, const GoaS* s, int kind, int c, int outcome,
                          int side) noexcept nogil:
    # _outcome_value (outcome: as rules.outcomes writes it)
    cdef double w = weight(t, c), v
    cdef int joined
    if kind == MORALE_ROLL:
        v = -morale_cost(outcome) * w
        return v if s.side[c] == side else -v
    joined = outcome >> 1
    if joined == NEUTRAL:
        return 0.0
    v = w * (0.5 if outcome & 1 else 1.0)
    return v if joined == side else -v


cdef double roll_value(const GoaT* t, const GoaS* s, int kind, int c, int modifier,
                       int side) noexcept nogil:
    # _roll_value: the expected value to `side` of one roll with this modifier
    cdef int8_t out[6]
    cdef double total = 0.0
    cdef int d
    outcomes(t, s, kind, c, modifier, out)
    for d in range(6):
        total += outcome_value(t, s, kind, c, out[d], side)
    return total / 6.0


cdef int greedy_trade(Core* k, int side) noexcept nogil:
    # the month's rolls are the core's (k.roll_*: engine.month_rolls, made at the month's start)
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef int n = k.n_rolls, i, j, idx, code, kd, c, m
    cdef double base, best = 0.0, v
    cdef double gain[MAX_ROLLS]
    cdef double loss[MAX_ROLLS]
    cdef int best_i = 0
    if n > MAX_ROLLS:
        return -1
    for i in range(n):
        kd, c, m = k.roll_kind[i], k.roll_c[i], k.roll_mod[i]
        base = roll_value(t, s, kd, c, m, side)
        gain[i] = roll_value(t, s, kd, c, m + favour(s, kd, c, side), side) - base
        loss[i] = roll_value(t, s, kd, c, m + favour(s, kd, c, enemy(side)), side) - base
    for idx in range(k.n_opts):
        code = k.opts[idx]
        if code == 0:
            continue
        i = (code - 1) // n
        j = (code - 1) % n
        v = gain[i] + loss[j]
        if v > best + 1e-9:
            best = v
            best_i = idx
    return best_i


cdef int greedy_gift(Core* k, int side) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef int i, q, best_q = -1, best_g = 0, g
    if k.ladder_params[side][P_GIFT] == 0.0:
        i = index_of(k, -1)
        return i if i >= 0 else 0
    if side == CENTRAL:
        return 1 if k.n_opts > 1 else 0
    # the Allies give their weakest dreadnought while Turkey leans to the Central Powers
    if entry_modifier(t, &k.s, t.turkey) <= 0:
        return 0
    for i in range(k.n_opts):                     # min((gunnery, q)): lowest gunnery, then q
        q = k.opts[i]
        if q < 0:
            continue
        g = t.q_gunnery[q]
        if best_q < 0 or g < best_g or (g == best_g and q < best_q):
            best_q, best_g = q, g
    return index_of(k, best_q) if best_q >= 0 else 0


cdef int greedy_invade(Core* k, int side) noexcept nogil:
    # Belgium (its bit in the list of invadable countries) once Britain is at war anyway
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef int32_t order[2]
    cdef int n, i, pos = -1, b = t.britain
    if b >= 0 and s.side[b] == ALLIED and t.belgium >= 0 and s.side[t.belgium] == NEUTRAL:
        n = invadable(t, s, order)
        for i in range(n):
            if order[i] == t.belgium:
                pos = i
                break
        if pos < 0:
            return -1                             # the Python policy raises here
        i = index_of(k, 1 << pos)
        if i >= 0:
            return i
    return 0


cdef inline int margin(const Core* k, int c) noexcept nogil:
    # _margin: the worst modified morale roll the country could make now (die 1)
    return 1 + morale_modifier(k.t, &k.s, c, k.s.scalars[SC_MONTH])


cdef int greedy_economy(Core* k, int side) noexcept nogil:
    cdef int c = k.subject, mg = margin(k, c)
    cdef bint on = k.s.mobilized[c] >= 0
    if not on and <double>(mg - 1) >= 1.0 + k.ladder_params[side][P_CAUTION]:
        return 1
    if on and mg <= 0:
        return 1
    return 0


cdef int greedy_conscription(Core* k, int side) noexcept nogil:
    cdef int c = k.subject, mg = margin(k, c)
    if k.s.conscription[c] != 1:
        return 1 if <double>(mg - 2) >= 1.0 + k.ladder_params[side][P_CAUTION] else 0
    return 1 if mg <= -2 and not k.t.c_conscription0[c] else 0


cdef void squadron_facts(Core* k, int side) noexcept nogil:
    # _potential for every area at once: the gunnery of the enemy's undamaged squadrons based
    # where they could sortie into it; and the enemy's ports on each area. The squadron orders
    # of a side are asked one after the other in the Naval Phase, before any is carried out
    # (engine.st_orders): nothing these read changes between them, so they are worked out at
    # the side's first order of the month and read by the others.
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef int32_t* potential = k.ladder_potential[side]
    cdef int32_t* ports = k.ladder_ports[side]
    cdef int foe = enemy(side), r, b, p, a
    cdef uint32_t m
    memset(potential, 0, LADDER_AREAS * sizeof(int32_t))
    memset(ports, 0, LADDER_AREAS * sizeof(int32_t))
    for r in range(t.Q):
        b = s.squadron_base[r]
        if b < 0 or s.squadron_damage[r] != 0 or s.side[s.squadron_country[r]] != foe:
            continue
        m = t.pl_amask[b]                         # place_areas(b)
        while m:
            a = lowest_bit(m)
            m &= m - 1
            potential[a] += t.q_gunnery[r]
    for p in range(t.P):
        if port_control(t, s, p) == foe:
            m = t.p_amask_raw[p]                  # p_area[p, a] != 0
            while m:
                a = lowest_bit(m)
                m &= m - 1
                ports[a] += 1


cdef int greedy_squadron(Core* k, int side) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef int q = k.subject, month = s.scalars[SC_MONTH]
    cdef int base = s.squadron_base[q], c = s.squadron_country[q], i, code, a
    cdef int mine, best_i = 0
    cdef int32_t* committed = k.ladder_committed[side]
    cdef const int32_t* potential = k.ladder_potential[side]
    cdef const int32_t* ports = k.ladder_ports[side]
    cdef double value, best = 0.0
    if k.ladder_month[side] != month:             # the policy's _orders[(month, side)]
        memset(committed, 0, LADDER_AREAS * sizeof(int32_t))
        squadron_facts(k, side)
        k.ladder_month[side] = month
    if s.squadron_damage[q] > 0:                  # damaged: home to repair
        if base < t.P and t.p_country[base] == c:
            return 0
        for i in range(k.n_opts):
            code = k.opts[i]
            if 0 < code < SORTIE and code - 1 < t.P and t.p_country[code - 1] == c:
                return i
        return 0
    for i in range(k.n_opts):
        code = k.opts[i]
        if code < SORTIE:
            continue
        a = code % 10000
        mine = committed[a] + t.q_gunnery[q]
        if code >= SCREEN:
            value = 0.5 if potential[a] > mine and t.q_kind[q] != SHIP_BATTLESHIP else 0.0
        else:
            value = <double>ports[a] * (1.0 if <double>mine >= 1.2 * <double>potential[a]
                                        else -1.0)
        if value > best:
            best = value
            best_i = i
    code = k.opts[best_i]
    if code >= SORTIE:
        committed[code % 10000] += t.q_gunnery[q]
    return best_i


cdef int greedy_designate(Core* k, int side) noexcept nogil:
    # the highest (blockade value, protection); the first of equals
    cdef const GoaT* t = k.t
    cdef int i, q, score, best = -1, best_i = 0
    for i in range(k.n_opts):
        q = k.opts[i]
        score = blockade_plus(t.q_kind[q]) * 10 + t.q_protection[q]
        if score > best:
            best = score
            best_i = i
    return best_i


cdef int greedy_german_roll(Core* k, int side) noexcept nogil:
    # the subject is read as a sea area, as the Python policy does (C.44's interceptions give
    # a squadron: no squadron has sortied into that "area" unless it is one)
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef int32_t qs[LADDER_SQUADRONS]
    cdef int a = k.subject, n, mine, theirs
    n = sortied(t, s, a, CENTRAL, qs)
    mine = gunnery(t, s, qs, n)
    n = sortied(t, s, a, ALLIED, qs)
    theirs = gunnery(t, s, qs, n)
    return 1 if mine < theirs else 0


cdef int greedy_submarine(Core* k, int side) noexcept nogil:
    return 1 if blockade_modifier(k.t, &k.s, k.subject, enemy(side), k.s.scalars[SC_MONTH]) > 0 \
        else 0


cdef int greedy_usw(Core* k, int side) noexcept nogil:
    # wage it while no neutral whose entry it moves (Britain, the USA: V._7) could be tipped
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef double p = k.ladder_params[side][P_USW]
    cdef int i, c, shift = -1 if side == CENTRAL else 1
    if p == 0.0 or p == 1.0:
        return <int>p
    for i in range(2):
        c = t.britain if i == 0 else t.united_states
        if c < 0 or s.side[c] != NEUTRAL:
            continue
        if might_affect(t, s, ENTRY_ROLL, c, entry_modifier(t, s, c), shift):
            return 0
    return 1


cdef int greedy_send_supply(Core* k, int side) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef int c = k.subject, i, code, r, amount, best_i = 0
    cdef int due = supply_due(t, s, c, s.scalars[SC_MONTH])
    cdef double need, value, best = 0.0
    for i in range(k.n_opts):
        code = k.opts[i]
        if code == 0:
            continue
        r = (code - 1) // 3
        amount = send_amount((code - 1) % 3)
        if s.supply[c] - amount < due:
            continue
        need = 2.0 if (r == t.russia and s.fed[r] < 3) else 0.0
        value = need - 0.1 * amount
        if value > best:
            best = value
            best_i = i
    return best_i


cdef int greedy_ship(Core* k, int side) noexcept nogil:
    # every unit it may, to the host with the most active fronts
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef int i, code, dest, n, f, fronts, score, best = 0, best_i = 0
    cdef int active[128]                          # the active fronts each country is one side of
    memset(active, 0, sizeof(active))
    for f in range(t.F):
        if front_active(t, s, f):                 # its two countries differ
            active[t.f_a[f]] += 1
            active[t.f_b[f]] += 1
    for i in range(k.n_opts):
        code = k.opts[i]
        if code == 0:
            continue
        dest = (code - 1) // 8
        n = (code - 1) % 8
        if dest >= t.C:
            continue
        fronts = active[dest]
        score = fronts * 10 + n + 1
        if fronts and score > best:
            best = score
            best_i = i
    return best_i


cdef double attack_value(const Core* k, int c, int f, int side, int commit, double aggression,
                         const int64_t* strength) noexcept nogil:
    # _attack_value (strength[d]: _strength_on, the same on every front)
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef int city = target_city(t, s, f, side), d, col, shift, mod, die, r, foe = enemy(side)
    cdef int64_t mine = 0, theirs = 0
    cdef int8_t defenders[128]                    # C <= 120 (tables)
    cdef double take = 0.0, lost = 0.0, worth
    if city < 0:
        return 0.0
    for d in range(t.C):
        defenders[d] = 0
        if s.side[d] == side and contributes(t, s, d, f):
            mine += strength[d]
    mine += fdiv(<int64_t>s.army[c] * t.land_mods[LM_MAIN_SHARE], 100)
    for d in range(t.C):
        if s.side[d] == foe and contributes(t, s, d, f):
            theirs += strength[d]
            defenders[d] = 1
    col = column(mine, theirs, &shift)
    mod = land_modifier(t, s, city, defenders, commit, s.scalars[SC_MONTH]) + shift
    for die in range(1, 7):
        r = t.crt[max(0, min(6, die + mod)) * 6 + col]
        if r == LAND_DX or r == LAND_DE:
            take += 1
        lost += (<double>(t.land_loss[r * 2] * mine) / 100.0
                 - <double>(t.land_loss[r * 2 + 1] * theirs) / 100.0)
    worth = 3.0 if t.k_objective[city] else 1.0
    return (take / 6.0) * worth * 10.0 * aggression - lost / 6.0 - commit / 6.0


cdef int greedy_land(Core* k, int side) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef int c = k.subject, csd = s.side[c], i, code, f, level, d, nf, h, best_i = 0
    cdef int32_t fronts[64]                       # F <= 64 (tables)
    cdef int64_t strength[128]
    cdef int64_t pool
    cdef double value, best = 0.0
    for d in range(t.C):                          # _strength_on, once for every country
        nf = fronts_of(t, s, d, fronts)
        strength[d] = 0
        if nf == 0:
            continue
        if not t.c_overseas[d]:
            pool = s.army[d]
        else:
            pool = 0
            for h in range(t.C):
                pool += s.abroad[d * t.C + h]
        strength[d] = fdiv(pool, nf)
    for i in range(k.n_opts):
        code = k.opts[i]
        if code == 0:
            continue
        f = (code - 1) // 4
        level = (code - 1) % 4
        if level == 0:
            continue
        value = attack_value(k, c, f, csd, land_commit(level),
                             k.ladder_params[side][P_AGGRESSION], strength)
        if value > best:
            best = value
            best_i = i
    return best_i


cdef int greedy_garrison(Core* k, int side) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef const GoaS* s = &k.s
    cdef int c = k.subject, d
    cdef int64_t total = 0, need
    for d in range(t.C):
        if s.side[d] == CENTRAL:
            total += s.army[d]
    need = 3 * t.corps * (t.c_city_start[c + 1] - t.c_city_start[c])
    return 1 if total >= 4 * need else 0


cdef int greedy_choose(Core* k, int side) noexcept nogil:
    cdef int kind = k.kind
    if kind == K_TRADE:
        return greedy_trade(k, side)
    if kind == K_GIFT:
        return greedy_gift(k, side)
    if kind == K_INVADE:
        return greedy_invade(k, side)
    if kind == K_ECONOMY:
        return greedy_economy(k, side)
    if kind == K_CONSCRIPTION:
        return greedy_conscription(k, side)
    if kind == K_MARINES or kind == K_INTERCEPT:
        return k.n_opts - 1
    if kind == K_SQUADRON:
        return greedy_squadron(k, side)
    if kind == K_DESIGNATE:
        return greedy_designate(k, side)
    if kind == K_GERMAN_ROLL:
        return greedy_german_roll(k, side)
    if kind == K_SUBMARINE:
        return greedy_submarine(k, side)
    if kind == K_USW:
        return greedy_usw(k, side)
    if kind == K_SEND_SUPPLY:
        return greedy_send_supply(k, side)
    if kind == K_SHIP:
        return greedy_ship(k, side)
    if kind == K_LAND:
        return greedy_land(k, side)
    if kind == K_GARRISON:
        return greedy_garrison(k, side)
    if kind == K_LANDING or kind == K_COLONIAL:
        return 0
    if kind == K_RETURN:
        return 1
    return passive_choose(k, side)                # on_abyssinia: GoaPolicy.default


# == historical (policies/goa/historical.py, GoaHistoricalPolicy) ===============================

cdef inline const int32_t* hrow(const Core* k, int i) noexcept nogil:
    return k.historical + i * N_HISTORY_COLS


cdef inline bint now(const int32_t* r, int kind, int month) noexcept nogil:
    # _now: a row of this kind standing this month
    return r[0] == kind and r[3] <= month <= r[4]


cdef int historical_invade(Core* k, int side) noexcept nogil:
    cdef int32_t order[2]
    cdef int n = invadable(k.t, &k.s, order), i, j, bits = 0, month = k.s.scalars[SC_MONTH]
    cdef const int32_t* r
    for i in range(k.n_historical):
        r = hrow(k, i)
        if not now(r, HK_INVADE, month):
            continue
        for j in range(n):
            if order[j] == r[1]:
                bits |= 1 << j
                break
    i = index_of(k, bits)
    return i if i >= 0 else 0


cdef bint wanted_now(const Core* k, int kind, int side) noexcept nogil:
    # any(r["side"] == side for r in _now(kind, month))
    cdef int i, month = k.s.scalars[SC_MONTH]
    cdef const int32_t* r
    for i in range(k.n_historical):
        r = hrow(k, i)
        if now(r, kind, month) and r[1] == side:
            return True
    return False


cdef int historical_measure(Core* k, int side, int kind) noexcept nogil:
    # _measure: the measure in effect from the first historical month on; greedy for a
    # country history does not name
    cdef int c = k.subject, i, month = k.s.scalars[SC_MONTH]
    cdef bint named = False, want = False, on
    cdef const int32_t* r
    for i in range(k.n_historical):
        r = hrow(k, i)
        if r[0] == kind and r[1] == c:
            named = True
            if r[3] <= month:
                want = True
    if not named:
        return greedy_economy(k, side) if kind == HK_ECONOMY else greedy_conscription(k, side)
    on = k.s.mobilized[c] >= 0 if kind == HK_ECONOMY else k.s.conscription[c] == 1
    return 1 if want != on else 0


cdef inline bint on_front(const GoaT* t, int f, int c) noexcept nogil:
    return c == t.f_a[f] or c == t.f_b[f]


cdef int historical_land(Core* k, int side) noexcept nogil:
    # an attack, committing supply if it may, on the front against the historical enemy
    cdef const GoaT* t = k.t
    cdef int c = k.subject, i, j, code, foe, month = k.s.scalars[SC_MONTH]
    cdef const int32_t* r
    for i in range(k.n_historical):
        r = hrow(k, i)
        if not now(r, HK_OFFENSIVE, month) or r[1] != c:
            continue
        foe = r[2]
        for j in range(k.n_opts):
            code = k.opts[j]
            if code != 0 and (code - 1) % 4 >= 2 and on_front(t, (code - 1) // 4, foe):
                return j
        for j in range(k.n_opts):
            code = k.opts[j]
            if code != 0 and (code - 1) % 4 == 1 and on_front(t, (code - 1) // 4, foe):
                return j
    if k.s.side[c] == ALLIED or k.s.side[c] == CENTRAL:
        return 0
    return greedy_land(k, side)


cdef int historical_choose(Core* k, int side) noexcept nogil:
    cdef int kind = k.kind
    if kind == K_INVADE:
        return historical_invade(k, side)
    if kind == K_GIFT:
        return 1 if wanted_now(k, HK_GIFT, side) and k.n_opts > 1 else 0
    if kind == K_USW:
        return 1 if wanted_now(k, HK_USW, side) else 0
    if kind == K_ECONOMY:
        return historical_measure(k, side, HK_ECONOMY)
    if kind == K_CONSCRIPTION:
        return historical_measure(k, side, HK_CONSCRIPTION)
    if kind == K_LAND:
        return historical_land(k, side)
    return greedy_choose(k, side)


if register_chooser(PASSIVE, passive_choose) != 0:
    raise RuntimeError("the compiled core refused the passive policy's ladder level")
if register_chooser(GREEDY, greedy_choose) != 0:
    raise RuntimeError("the compiled core refused the greedy policy's ladder level")
if register_chooser(HISTORICAL, historical_choose) != 0:
    raise RuntimeError("the compiled core refused the historical policy's ladder level")
