# cython: language_level=3
"""``GoaCore``: a game of The Guns of August played by compiled code.

The month is the reference's (``games/goa/engine.py``), phase by phase, as a small state
machine: a program counter (``pc``) names the step the month stands at and a few cursors
(``cs`` the side, ``ci`` the item, ``cj`` a sub-step) say how far the step's loop has come.
A step that must ask a player fills the option buffer and calls ``ask``. When the side's
policy is compiled (``LEVEL_RANDOM``, or a ladder level registered with
``register_chooser``) the answer comes back at once and the step goes on; when it is a
Python policy (``LEVEL_EXTERNAL``) the step returns, ``run()`` returns ``RUN_DECISION``
with the decision described by ``kind``, ``side``, ``subject``, ``secret`` and ``options``,
and after ``choose(index)`` the next ``run()`` re-enters the same step at the same cursor,
computes the same options (nothing changed meanwhile) and takes the chosen index. So the
state a Python policy reads at a decision is the reference's state at the same decision.

The random policy draws ``below(n)`` from the side's own SplitMix64 stream, as
``GoaGame.answer`` does for ``RandomPolicy``; a decision with one option is taken without
asking (and without a draw), as the reference's ``ask``.

Per-month records: with ``record=True`` the core writes one row per country at the end of
each month into ``history`` (``N_HIST`` columns, ``HISTORY_COLUMNS``) and the objective
cities the Central Powers hold into ``history_objectives``; with ``stop_at_month_end=True``
``run()`` also returns ``RUN_MONTH_END`` after each month (``month_ended``), for callers that
look at the whole state then (the invariant checker, the parity tests).

Examples
--------
>>> import gwe_fast, pathlib, sys
>>> sys.path.insert(0, str(pathlib.Path(gwe_fast.__file__).parents[2] / "tests" / "games" / "goa"))
>>> import tiny
>>> from gwe_fast.games.goa.tables import compile_tables
>>> from gwe_fast._core.goa import LEVEL_RANDOM, RUN_OVER
>>> core = GoaCore(compile_tables(tiny.raw()), seed=3, game_index=0)
>>> core.play(LEVEL_RANDOM, LEVEL_RANDOM) == RUN_OVER
True
>>> core.over, core.result > 0, core.decisions > 0
(True, True, True)
"""

import numpy as np
cimport numpy as cnp
from cpython.ref cimport Py_INCREF
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t, uintptr_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from gwe_fast._core.goa.codes cimport *
from gwe_fast._core.goa.dice cimport below, die, seed_state
from gwe_fast._core.goa.rules cimport *
from gwe_fast._core.goa.tables cimport CoreTables, GoaS, GoaT

from gwe_fast._core.goa.tables import core_tables
from gwe_fast.dice import stream_code
from gwe_fast.games.goa.dice import STREAMS
from gwe_fast.games.goa.model import GoaState

cnp.import_array()

cdef enum:
    PC_MONTH = 0
    PC_TRADE = 1
    PC_REINF = 2
    PC_GIFT = 3
    PC_INVADE = 4
    PC_ECONOMY = 5
    PC_MARINES = 6
    PC_NAVAL = 7
    PC_ORDERS = 8
    PC_SUBS = 9
    PC_COMBAT = 10
    PC_USW = 11
    PC_SEA = 12
    PC_LANDING = 13
    PC_COLONIAL = 14
    PC_ABYSSINIA = 15
    PC_RETURNS = 16
    PC_INTERCEPT = 17
    PC_LAND = 18
    PC_LAND_ORDERS = 19
    PC_GARRISON = 20
    PC_MONTH_END = 21
    PC_NEXT = 22
    PC_OVER = 23

cdef enum:
    DONE = 0
    SUSPEND = 1
    STOP = 2

cdef enum:
    TRACE_COLS = 8
    NO_MONTH = -1000000           # ladder_month before the policy's first month

cdef chooser_t CHOOSERS[N_LEVELS]
for _i in range(N_LEVELS):
    CHOOSERS[_i] = NULL

HISTORY_COLUMNS = ("side", "limited", "conquered", "land_strength", "supply_stock", "personnel",
                   "supply", "cities_held_by_enemy", "mobilized", "conscription",
                   "supply_lost_blockade")
TRACE_COLUMNS = ("month", "kind", "side", "subject", "secret", "n_options", "index", "code")


cdef int register_chooser(int level, chooser_t fn) noexcept nogil:
    if level < 1 or level >= N_LEVELS:
        return -1
    CHOOSERS[level] = fn
    return 0


# -- asking ------------------------------------------------------------------------------------

cdef void _trace(Core* k, int i) noexcept nogil:
    cdef int32_t* row
    cdef int64_t cap
    cdef void* grown
    if k.n_trace >= k.cap_trace:
        cap = 1024 if k.cap_trace == 0 else 2 * k.cap_trace
        grown = realloc(k.trace_rows, cap * TRACE_COLS * sizeof(int32_t))
        if grown == NULL:
            k.trace = False                       # out of memory: stop tracing, keep playing
            return
        k.trace_rows = <int32_t*>grown
        k.cap_trace = cap
    row = k.trace_rows + k.n_trace * TRACE_COLS
    row[0] = k.month
    row[1] = k.kind
    row[2] = k.side
    row[3] = k.subject
    row[4] = k.secret
    row[5] = k.n_opts
    row[6] = i
    row[7] = k.opts[i]
    k.n_trace += 1


cdef bint level_known(int level) noexcept nogil:
    return level == LEVEL_RANDOM or (0 < level < N_LEVELS and CHOOSERS[level] != NULL)


cdef int level_choice(Core* k, int side, int level) noexcept nogil:
    if level == LEVEL_RANDOM:
        return below(&k.pol[side], k.n_opts)
    if 0 < level < N_LEVELS and CHOOSERS[level] != NULL:
        return CHOOSERS[level](k, side)
    return -1


cdef int ask(Core* k, int kind, int side, int subject, bint secret) noexcept nogil:
    # the index chosen among k.opts[0 .. k.n_opts - 1], or -1: the step must return SUSPEND
    cdef int n = k.n_opts, i, lv
    if n == 1:
        return 0
    if n > k.t.max_options:                       # the tables' bound is wrong: stop loudly
        k.error = 2
        k.pending = True
        return -1
    k.kind = kind
    k.side = side
    k.subject = subject
    k.secret = secret
    if k.answer >= 0:
        i = k.answer
        k.answer = -1
    else:
        lv = k.level[side]
        if not level_known(lv):                   # a Python policy answers
            k.pending = True
            return -1
        i = level_choice(k, side, lv)
        if i < 0 or i >= n:
            k.error = 1
            k.pending = True
            return -1
        k.decisions_in_c += 1
    k.decisions += 1
    if k.trace:
        _trace(k, i)
    return i


cdef inline int ask_yes_no(Core* k, int kind, int side, int subject, bint secret) noexcept nogil:
    # (0, 1) options: the option chosen, or -1 to suspend
    k.opts[0] = 0
    k.opts[1] = 1
    k.n_opts = 2
    return ask(k, kind, side, subject, secret)


# -- 1. morale (engine.morale_phase) -------------------------------------------------------------

cdef int st_month(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int m = k.month, n = 0, ne, i, c
    s.scalars[SC_MONTH] = m
    memset(s.received, 0, t.C)
    k.n_rolls = 0
    if not roll_month(t, m):
        k.pc = PC_REINF
        return DONE
    for c in range(t.C):                              # month_rolls: morale, then entry
        if at_war(s, c):
            k.roll_kind[n] = MORALE_ROLL
            k.roll_c[n] = c
            k.roll_mod[n] = morale_modifier(t, s, c, m)
            n += 1
    if t.variable_entry:
        ne = rolls_for_entry(t, s, k.work)
        for i in range(ne):
            c = k.work[i]
            k.roll_kind[n] = ENTRY_ROLL
            k.roll_c[n] = c
            k.roll_mod[n] = entry_modifier(t, s, c)
            n += 1
    k.n_rolls = n
    memset(k.roll_extra, 0, n * sizeof(int32_t))
    k.picks[0] = -1
    k.picks[1] = -1
    k.cs = 0
    k.pc = PC_TRADE
    return DONE


cdef int st_trade(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, i, j, code, n = k.n_rolls, m = k.month
    while k.cs < 2:                                   # V._1 = M._7, in secret
        side = k.cs
        if (t.variable_entry or t.morale) and any_belligerent(t, s, side):
            k.n_opts = trade_options(t, s, k.roll_kind, k.roll_c, k.roll_mod, n, side, k.opts)
            i = ask(k, K_TRADE, side, -1, True)
            if i < 0:
                return SUSPEND
            k.picks[side] = k.opts[i]
        k.cs += 1
    for side in range(2):                             # morale.apply_trade
        code = k.picks[side]
        if code <= 0:
            continue
        i = (code - 1) // n
        j = (code - 1) % n
        k.roll_extra[i] += favour(s, k.roll_kind[i], k.roll_c[i], side)
        k.roll_extra[j] += favour(s, k.roll_kind[j], k.roll_c[j], enemy(side))
    for i in range(n):
        if k.roll_kind[i] == MORALE_ROLL:
            k.roll_result[i] = morale_table(t, die(&k.dice) + k.roll_mod[i] + k.roll_extra[i])
    for i in range(n):
        if k.roll_kind[i] == MORALE_ROLL:
            new_roll_period(s, k.roll_c[i])
            apply_morale(t, s, k.roll_c[i], k.roll_result[i], m)
    k.pc = PC_REINF
    return DONE


# -- 2. reinforcements (engine.reinforcement_phase) ----------------------------------------------

cdef int st_reinf(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int m = k.month, i, c
    reinforce(t, s, m)
    produce(t, s, m)
    if t.colonies:
        japanese_forces(t, s, m)
    if t.variable_entry:
        if roll_month(t, m):
            for i in range(k.n_rolls):
                if k.roll_kind[i] != ENTRY_ROLL:
                    continue
                c = k.roll_c[i]
                if s.conquered[c] < 0:
                    apply_entry_roll(t, s, c, die(&k.dice) + k.roll_mod[i] + k.roll_extra[i], m)
            s.med_blockade[0] = 0
            s.med_blockade[1] = 0
            s.usw_since_roll[0] = 0
            s.usw_since_roll[1] = 0
    else:
        base_entries(t, s, m)
    k.cs = 0
    k.pc = PC_GIFT
    return DONE


cdef int st_gift(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, n, i, q, m = k.month
    while k.cs < 2:                                   # V._4: the Central Powers first
        side = CENTRAL if k.cs == 0 else ALLIED
        n = gift_options(t, s, side, m, k.opts + 1)
        if n > 0:
            k.opts[0] = -1
            k.n_opts = n + 1
            i = ask(k, K_GIFT, side, -1, False)
            if i < 0:
                return SUSPEND
            q = k.opts[i]
            if q >= 0:
                give(t, s, side, q)
            elif side == CENTRAL and m == 0 and t.goeben >= 0:
                s.squadron_base[t.goeben] = t.trieste_port
        k.cs += 1
    k.pc = PC_INVADE
    return DONE


cdef int st_invade(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int n = invadable(t, s, k.work), i, pick
    if n > 0:                                         # V._2
        k.opts[0] = 0
        for i in range(n):
            k.opts[1 + i] = 1 << i
        k.n_opts = 1 + n
        if n == 2:
            k.opts[3] = 3
            k.n_opts = 4
        i = ask(k, K_INVADE, CENTRAL, -1, False)
        if i < 0:
            return SUSPEND
        pick = k.opts[i]
        for i in range(n):
            if pick & (1 << i):
                invade(t, s, k.work[i], k.month)
    k.pc = PC_MARINES
    return DONE


cdef int st_economy(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, c, i, m = k.month
    cdef bint on
    while k.cs < 2:                                   # P._11, last of the phase
        side = k.cs
        while k.ci < t.C:
            c = k.ci
            if at_war(s, c) and s.side[c] == side and may_change_policy(t, s, c, m):
                if k.cj == 0:
                    on = s.mobilized[c] >= 0
                    i = ask_yes_no(k, K_ECONOMY, side, c, False)
                    if i < 0:
                        return SUSPEND
                    if k.opts[i]:
                        set_mobilization(t, s, c, not on, m)
                    k.cj = 1
                on = s.conscription[c] == 1
                i = ask_yes_no(k, K_CONSCRIPTION, side, c, False)
                if i < 0:
                    return SUSPEND
                if k.opts[i]:
                    set_conscription(t, s, c, not on)
                k.cj = 0
            k.ci += 1
        k.ci = 0
        k.cs += 1
    if t.naval:
        k.pc = PC_NAVAL
    elif t.colonies:
        _begin_colonial(k)
    else:
        k.pc = PC_LAND
    return DONE


cdef int st_marines(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int n_max, i, n
    if t.naval:                                       # N.96
        n_max = marines_max(t, s, k.month)
        if n_max > 0:
            for i in range(n_max + 1):
                k.opts[i] = i
            k.n_opts = n_max + 1
            i = ask(k, K_MARINES, ALLIED, t.united_states, False)
            if i < 0:
                return SUSPEND
            n = k.opts[i]
            if n:
                make_marines(t, s, n, k.month)
    k.cs = 0
    k.ci = 0
    k.cj = 0
    k.pc = PC_ECONOMY
    return DONE


# -- 3. naval (engine.naval_phase) ------------------------------------------------------------------

cdef int st_naval(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int q, a
    marines_arrive(s, k.month)                        # N.96
    memcpy(s.blockade_prev, s.blockade, t.A * 2)
    memset(s.screen, 0, t.Q)
    memset(s.moved, 0, t.Q)
    memset(s.in_combat, 0, t.Q)
    memset(s.supported, 0, t.Q)
    for a in range(t.A):
        s.sortie_won[a] = -1
    for q in range(t.Q):
        s.squadron_sortie[q] = -1
        k.orders[q] = -1
    memset(s.shipped, 0, t.C)
    facts_of(t, s, &k.facts)
    k.cs = 0
    k.ci = 0
    k.pc = PC_ORDERS
    return DONE


cdef int st_orders(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, q, i, a
    while k.cs < 2:                                   # N.21, N.32-N.35, in secret
        side = k.cs
        while k.ci < t.Q:
            q = k.ci
            if active_squadron(t, s, q, side):
                k.n_opts = squadron_options(t, s, &k.facts, q, k.orders, k.opts)
                i = ask(k, K_SQUADRON, side, q, True)
                if i < 0:
                    return SUSPEND
                k.orders[q] = k.opts[i]
            k.ci += 1
        k.ci = 0
        k.cs += 1
    for q in range(t.Q):
        if k.orders[q] >= 0:
            apply_order(s, q, k.orders[q])
    sortie_sides(t, s, k.area_sides)
    memset(k.subs, 0, 2 * t.A)
    k.cs = 0
    k.ci = 0
    k.pc = PC_SUBS
    return DONE


cdef int st_subs(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, a, i
    while k.cs < 2:                                   # N.45
        side = k.cs
        while k.ci < t.A:
            a = k.ci
            if submarine_area(t, s, a, side, k.area_sides[a]):
                i = ask_yes_no(k, K_SUBMARINE, side, a, False)
                if i < 0:
                    return SUSPEND
                k.subs[side * t.A + a] = <int8_t>k.opts[i]
            k.ci += 1
        k.ci = 0
        k.cs += 1
    memset(k.forgo, 0, 2 * t.A)
    k.ca = 0
    k.fstage = 0
    k.pc = PC_COMBAT
    return DONE


cdef void _budgets(int damage, int r1, int r2, int* out) noexcept nogil:
    # naval.budgets: what may be sunk, heavily damaged, and hit at all (tenths)
    cdef int total = 10 * damage
    out[0] = min(total, damage * max(0, r1))
    out[1] = min(total, damage * max(0, r2))
    out[2] = total


cdef int _designate_options(Core* k, int side) noexcept nogil:
    # naval.designate_options: enemy squadrons not yet chosen whose protection still fits the
    # level's budget and the whole damage
    cdef const GoaT* t = k.t
    cdef int foe = enemy(side), n = 0, i, q, p
    cdef int cap = k.limits[side][k.flevel], total = k.limits[side][2]
    for i in range(k.nfleet[foe]):
        q = k.fleet[foe][i]
        p = 10 * t.q_protection[q]
        if not k.chosen[q] and k.flevel_used + p <= cap and k.fused + p <= total:
            k.opts[n] = q
            n += 1
    return n


cdef void _engage_begin(Core* k) noexcept nogil:
    # naval_combat.engage, up to its first decision: the fleets are in k.fleet / k.nfleet
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, i, j, q, hits
    for side in range(2):
        for i in range(k.nfleet[side]):
            q = k.fleet[side][i]
            if s.screen[q] == FIGHTS:
                s.in_combat[q] = 1
    if t.chart:
        k.fstage = 1
        return
    for j in range(2):                                # _duel: every hit roll first
        side = CENTRAL if j == 0 else ALLIED
        hits = 0
        for i in range(k.nfleet[side]):
            q = k.fleet[side][i]
            if s.screen[q] == FIGHTS and die(&k.dice) <= ceil_div(t.q_gunnery[q], t.tenney[0]):
                hits += 1
        k.hits[side] = hits
    k.fside = 0
    k.fhit = 0
    k.fstage = 5


cdef int _engage(Core* k, int subject) noexcept nogil:
    # the rest of naval_combat.engage (stages 1, 2: the chart; 5: the duel); stage 9 when done
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, foe, i, j, q, n, col, pen, damage, r1, r2, level
    cdef int levels[3]
    levels[0] = DMG_SUNK
    levels[1] = DMG_HEAVY
    levels[2] = DMG_LIGHT
    if k.fstage == 1:                                 # _chart: N.46's German option
        k.german = 0
        if k.nfleet[CENTRAL] > 0 or k.fsub == CENTRAL:
            i = ask_yes_no(k, K_GERMAN_ROLL, CENTRAL, subject, False)
            if i < 0:
                return SUSPEND
            k.german = k.opts[i]
        for j in range(2):
            side = CENTRAL if j == 0 else ALLIED
            foe = enemy(side)
            if k.nfleet[side] == 0 and side != k.fsub:
                k.limits[side][0] = 0
                k.limits[side][1] = 0
                k.limits[side][2] = 0
                continue
            col = -1 if side == k.fsub else chart_column(t, gunnery(t, s, k.fleet[side], k.nfleet[side]))
            pen = -1 if mostly(t, s, k.fleet[foe], k.nfleet[foe]) else 0
            damage = chart_damage(t, col, die(&k.dice) + pen - k.german)
            r1 = die(&k.dice) + pen
            r2 = die(&k.dice) + pen
            _budgets(damage, r1, r2, k.limits[side])
        k.fside = 0
        k.flevel = 0
        k.fused = 0
        k.flevel_used = 0
        memset(k.chosen, 0, t.Q)
        k.fstage = 2
    if k.fstage == 2:                                 # each player designates within them
        while k.fside < 2:
            side = CENTRAL if k.fside == 0 else ALLIED
            while k.flevel < 3:
                n = _designate_options(k, side)
                if n == 0:
                    k.flevel += 1
                    k.flevel_used = 0
                    continue
                k.n_opts = n
                i = ask(k, K_DESIGNATE, side, levels[k.flevel], False)
                if i < 0:
                    return SUSPEND
                q = k.opts[i]
                k.chosen[q] = 1
                k.fused += 10 * t.q_protection[q]
                k.flevel_used += 10 * t.q_protection[q]
                s.hit_level[q] = levels[k.flevel]
            k.fside += 1
            k.flevel = 0
            k.fused = 0
            k.flevel_used = 0
            memset(k.chosen, 0, t.Q)
        for q in range(t.Q):
            if s.hit_level[q]:
                worsen(s, q, s.hit_level[q])
                s.hit_level[q] = 0
        k.fstage = 9
    if k.fstage == 5:                                 # _duel: a target for each hit
        while k.fside < 2:
            side = CENTRAL if k.fside == 0 else ALLIED
            foe = enemy(side)
            while k.fhit < k.hits[side]:
                n = 0
                for i in range(k.nfleet[foe]):
                    q = k.fleet[foe][i]
                    if s.squadron_damage[q] < DMG_SUNK:
                        k.opts[n] = q
                        n += 1
                if n == 0:
                    break
                k.n_opts = n
                i = ask(k, K_DESIGNATE, side, 0, False)
                if i < 0:
                    return SUSPEND
                q = k.opts[i]
                level = DMG_HEAVY if die(&k.dice) > t.q_protection[q] // t.tenney[1] else DMG_LIGHT
                worsen(s, q, level)
                k.fhit += 1
            k.fside += 1
            k.fhit = 0
        k.fstage = 9
    return DONE


cdef int st_combat(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int a, side, i
    cdef int left[2]
    while k.ca < t.A:                                 # N.4 / N.41-N.46, area by area
        a = k.ca
        if k.fstage == 0:
            k.fsub = ALLIED if k.subs[a] else (CENTRAL if k.subs[t.A + a] else -1)
            # both sides sortied here (fights in other areas touch no squadron of this one)
            if not (k.area_sides[a] == 3 or k.fsub >= 0):
                k.ca += 1
                continue
            if k.fsub >= 0:
                k.forgo[k.fsub * t.A + a] = 1
            for side in range(2):                     # naval_combat.fight
                k.nfleet[side] = sortied(t, s, a, side, k.fleet[side])
            _engage_begin(k)
        if k.fstage != 9:
            if _engage(k, a) == SUSPEND:
                return SUSPEND
        for side in range(2):
            left[side] = 0
            for i in range(k.nfleet[side]):
                if s.squadron_damage[k.fleet[side][i]] < DMG_SUNK:
                    left[side] += 1
        s.sortie_won[a] = 0 if left[0] > left[1] else (1 if left[1] > left[0] else 2)
        k.fstage = 0
        k.ca += 1
    repair(t, s)
    k.cs = 0
    k.pc = PC_USW
    return DONE


cdef int st_usw(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, i, a, mod, m = k.month, c
    if m >= t.usw_from:                               # N.64, after all naval combat
        while k.cs < 2:
            side = k.cs
            if any_belligerent(t, s, side):
                i = ask_yes_no(k, K_USW, side, -1, False)
                if i < 0:
                    return SUSPEND
                if k.opts[i]:
                    if s.usw[side] < 0:
                        s.usw[side] = m
                    s.usw_since_roll[side] = 1
                    s.usw_months[side] += 1
                else:
                    s.usw[side] = -1
            k.cs += 1
    blockade_modifiers(t, s, m, k.bmods)             # what the loop reads, it does not change
    cdef bint at_war_side[2]
    at_war_side[0] = any_belligerent(t, s, ALLIED)
    at_war_side[1] = any_belligerent(t, s, CENTRAL)
    for a in range(t.A):                              # N.61-N.63, N.69
        for side in range(2):
            s.blockade[a * 2 + side] = 0
            if not t.a_in_play[a] or k.forgo[side * t.A + a] or not at_war_side[side]:
                continue
            mod = k.bmods[a * 2 + side]
            if 6 + mod >= 7 and die(&k.dice) + mod >= 7:
                s.blockade[a * 2 + side] = 1
                s.blockade_months[a * 2 + side] += 1
    for side in range(2):                             # V._3
        if t.east_med >= 0 and t.west_med >= 0 and s.blockade[t.east_med * 2 + side] \
                and s.blockade[t.west_med * 2 + side]:
            s.med_blockade[side] = 1
    apply_blockade_losses(t, s)                       # N.66, C.45
    for c in range(t.C):
        k.sends[c] = -1
    # no port, city or colony has changed hands since st_naval's facts_of: the naval
    # combat, repair, USW and blockades change squadrons, blockades and supply only
    facts_at_sea(t, s, &k.facts)
    k.cs = 0
    k.ci = 0
    k.cj = 0
    k.pc = PC_SEA
    return DONE


cdef int st_sea(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, c, i, code
    while k.cs < 2:                                   # N.71-N.79, N.81-N.85, in secret
        side = k.cs
        while k.ci < t.C:
            c = k.ci
            if at_war(s, c) and s.side[c] == side:
                if k.cj == 0:
                    k.n_opts = supply_options(t, s, &k.facts, c, k.opts)
                    i = ask(k, K_SEND_SUPPLY, side, c, True)
                    if i < 0:
                        return SUSPEND
                    k.sends[c] = k.opts[i]
                    k.cj = 1
                while True:                           # each move made as chosen, until 0
                    k.n_opts = ship_options(t, s, &k.facts, c, k.opts)
                    i = ask(k, K_SHIP, side, c, True)
                    if i < 0:
                        return SUSPEND
                    code = k.opts[i]
                    if not code:
                        break
                    ship(t, s, c, code)
                k.cj = 0
            k.ci += 1
        k.ci = 0
        k.cs += 1
    for side in range(2):                             # in the order asked
        for c in range(t.C):
            if k.sends[c] >= 0 and s.side[c] == side:
                send_supply(t, s, c, k.sends[c])
    russian_sea_supply(t, s)
    k.npicks = 0
    k.cs = 0
    k.ci = 0
    k.cj = 0
    k.pc = PC_LANDING
    return DONE


cdef int st_landing(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, c, i, j, code, n, x
    while k.cs < 2:                                   # N.91-N.95, each side in secret
        side = k.cs
        while k.ci < t.C:
            c = k.ci
            if at_war(s, c) and s.side[c] == side:
                if k.cj == 0:
                    k.nt = invasion_targets(t, s, c, k.tkind, k.tindex, k.tsrc, k.work)
                    memset(k.committed, 0, (1 + t.L + t.C) * sizeof(int32_t))
                    memset(k.done, 0, t.B + t.P + t.L)
                    k.cj = 1
                while k.nt > 0:
                    k.n_opts = landing_options(t, s, c, k.nt, k.tkind, k.tindex, k.tsrc,
                                               k.committed, k.done, k.opts)
                    i = ask(k, K_LANDING, side, c, True)
                    if i < 0:
                        return SUSPEND
                    code = k.opts[i]
                    if not code:
                        break
                    j = (code - 1) // 8
                    n = (code - 1) % 8 + 1
                    x = k.npicks
                    k.pick_c[x] = c
                    k.pick_kind[x] = k.tkind[j]
                    k.pick_index[x] = k.tindex[j]
                    k.pick_src[x] = k.tsrc[j]
                    k.pick_n[x] = n
                    k.npicks += 1
                    k.committed[k.tsrc[j] + 1] += n
                    if k.tkind[j] == 0:
                        x = k.tindex[j]
                    elif k.tkind[j] == 1:
                        x = t.B + k.tindex[j]
                    else:
                        x = t.B + t.P + k.tindex[j]
                    k.done[x] = 1
                k.cj = 0
            k.ci += 1
        k.ci = 0
        k.cs += 1
    for c in range(t.C):                              # resolved country by country
        for x in range(k.npicks):
            if k.pick_c[x] == c and at_war(s, c):
                land_invasion(t, s, &k.dice, c, k.pick_kind[x], k.pick_index[x], k.pick_n[x],
                              k.month, k.pick_src[x])
    stranded(t, s, &k.dice)                           # N.34, at the end of the phase
    if t.colonies:
        _begin_colonial(k)
    else:
        k.pc = PC_LAND
    return DONE


# -- 4. colonies (colonial.colonial_phase) --------------------------------------------------------

cdef void _begin_colonial(Core* k) noexcept nogil:
    k.nmoves = 0
    k.cs = 0
    k.ci = 0
    k.cj = 0
    k.pc = PC_COLONIAL


cdef int _push_move(Core* k, int side, int c, int code) noexcept nogil:
    cdef int64_t cap
    cdef void* grown
    if k.nmoves >= k.cap_moves:
        cap = 64 if k.cap_moves == 0 else 2 * k.cap_moves
        grown = realloc(k.move_rows, cap * 3 * sizeof(int32_t))
        if grown == NULL:
            return -1
        k.move_rows = <int32_t*>grown
        k.cap_moves = cap
    k.move_rows[3 * k.nmoves] = side
    k.move_rows[3 * k.nmoves + 1] = c
    k.move_rows[3 * k.nmoves + 2] = code
    k.nmoves += 1
    return 0


cdef int st_colonial(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, c, i, code, L = t.L, pair, src, n, x, j
    while k.cs < 2:                                   # C.52, C.53, in secret (C.32)
        side = k.cs
        while k.ci < t.C:
            c = k.ci
            if at_war(s, c) and s.side[c] == side:
                if k.cj == 0:
                    memset(k.mv_pending, 0, (L + 2) * sizeof(int32_t))
                    k.cj = 1
                while True:                           # asked again after each order
                    k.n_opts = move_options(t, s, c, k.mv_pending, k.opts)
                    i = ask(k, K_COLONIAL, side, c, True)
                    if i < 0:
                        return SUSPEND
                    code = k.opts[i]
                    if not code:
                        break
                    if _push_move(k, side, c, code) < 0:
                        k.error = 3
                        k.pending = True
                        return SUSPEND
                    pair = (code - 1) // 8
                    n = (code - 1) % 8 + 1
                    src = pair // (L + 1)
                    k.mv_pending[src] += n
                    if src == L:
                        k.mv_pending[L + 1] += n
                k.cj = 0
            k.ci += 1
        k.ci = 0
        k.cs += 1
    for j in range(2):                                # C.65: the Central Powers' first
        side = CENTRAL if j == 0 else ALLIED
        for x in range(k.nmoves):
            if k.move_rows[3 * x] == side:
                c = k.move_rows[3 * x + 1]
                if at_war(s, c):
                    apply_move(t, s, c, k.move_rows[3 * x + 2])
    k.cs = 0
    k.pc = PC_ABYSSINIA
    return DONE


cdef int st_abyssinia(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, i
    while k.cs < 2:                                   # C.65
        side = k.cs
        if abyssinia_may_attack(t, s, side):
            i = ask_yes_no(k, K_ABYSSINIA, side, t.abyssinia, False)
            if i < 0:
                return SUSPEND
            if k.opts[i]:
                s.colony[t.abyssinia] = enemy(side)
        k.cs += 1
    k.cs = 0
    k.ci = 0
    k.pc = PC_RETURNS
    return DONE


cdef int st_returns(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, q, c, i, n, p
    while k.cs < 2:                                   # C.44: announcements and destinations
        side = k.cs
        while k.ci < t.Q:
            q = k.ci
            c = s.squadron_country[q]
            if s.squadron_damage[q] < DMG_SUNK and s.squadron_base[q] >= 0 and at_war(s, c) \
                    and s.side[c] == side and may_return(t, s, q):
                n = return_ports(t, s, q, k.opts + 1)
                if n > 0:
                    k.opts[0] = -1
                    k.n_opts = n + 1
                    i = ask(k, K_RETURN, side, q, False)
                    if i < 0:
                        return SUSPEND
                    p = k.opts[i]
                    if p >= 0:
                        s.returning[q] = k.month
                        s.return_port[q] = p
            k.ci += 1
        k.ci = 0
        k.cs += 1
    k.ci = 0
    k.cj = 0
    k.fstage = 0
    k.pc = PC_INTERCEPT
    return DONE


cdef int st_intercept(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int q, side, foe, nh, i, n, p, np, m = k.month
    cdef bint ok
    while k.ci < t.Q:
        q = k.ci
        if k.cj == 0:
            if s.returning[q] < 0:
                k.ci += 1
                continue
            if s.squadron_damage[q] == DMG_SUNK:
                s.returning[q] = -1
                k.ci += 1
                continue
        side = s.side[s.squadron_country[q]]
        foe = enemy(side)
        if k.cj == 0 and m > s.returning[q]:
            nh = interceptors(t, s, foe, k.hunters)
            if nh:
                for i in range(nh + 1):
                    k.opts[i] = i
                k.n_opts = nh + 1
                i = ask(k, K_INTERCEPT, foe, q, False)
                if i < 0:
                    return SUSPEND
                n = k.opts[i]
                if n:
                    for i in range(n):
                        s.moved[k.hunters[i]] = 1     # its activity this month
                    k.nfleet[side] = 1
                    k.fleet[side][0] = q
                    k.nfleet[foe] = n
                    for i in range(n):
                        k.fleet[foe][i] = k.hunters[i]
                    k.fsub = -1
                    _engage_begin(k)
                    k.cj = 1
        if k.cj == 1:
            if k.fstage != 9:
                if _engage(k, q) == SUSPEND:
                    return SUSPEND
            k.fstage = 0
            k.cj = 0
        if s.squadron_damage[q] == DMG_SUNK:
            s.returning[q] = -1
        elif m - s.returning[q] >= 3:
            np = return_ports(t, s, q, k.work)
            p = s.return_port[q]
            ok = False
            for i in range(np):
                if k.work[i] == p:
                    ok = True
                    break
            if not ok:
                p = k.work[0] if np > 0 else -1
            if p >= 0:
                s.squadron_base[q] = p
            s.returning[q] = -1
            s.return_port[q] = -1
        k.ci += 1
    colonial_combat(t, s, &k.dice, m, k.work)        # C.61
    k.pc = PC_LAND
    return DONE


# -- 5. land (engine.land_phase) -------------------------------------------------------------------

cdef int st_land(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int c
    if not t.fronts:
        historical_events(t, s, k.month)
        k.ci = 0
        k.pc = PC_GARRISON
        return DONE
    upkeep(t, s, k.short_)
    for c in range(t.C):
        k.land_orders[c] = 0
    k.cs = 0
    k.ci = 0
    k.pc = PC_LAND_ORDERS
    return DONE


cdef int st_land_orders(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int side, c, i
    while k.cs < 2:                                   # in secret
        side = k.cs
        while k.ci < t.C:
            c = k.ci
            if at_war(s, c) and s.side[c] == side:
                k.n_opts = land_options(t, s, c, k.month, k.opts)
                i = ask(k, K_LAND, side, c, True)
                if i < 0:
                    return SUSPEND
                k.land_orders[c] = k.opts[i]
            k.ci += 1
        k.ci = 0
        k.cs += 1
    fight_fronts(t, s, k.land_orders, k.short_, k.month, &k.dice, k.alloc, k.work)
    k.ci = 0
    k.pc = PC_GARRISON
    return DONE


cdef int st_garrison(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int c, i
    if t.surrender or t.morale:                       # S._14, M._6
        while k.ci < 3:
            c = t.russia if k.ci == 0 else (t.france if k.ci == 1 else t.italy)
            if triple_target(t, s, c):
                i = ask_yes_no(k, K_GARRISON, CENTRAL, c, False)
                if i < 0:
                    return SUSPEND
                set_triple(t, s, c, k.opts[i] != 0)
            k.ci += 1
    k.pc = PC_MONTH_END
    return DONE


# -- 6. the Inter-Player Turn, and the month's record -----------------------------------------

cdef void _record_month(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int i = k.month - t.first_month, c, h
    cdef int64_t strength
    cdef int32_t* row
    if i < 0 or i >= k.n_hist_months:
        return
    for c in range(t.C):
        row = k.hist + (i * t.C + c) * N_HIST
        strength = s.army[c]
        for h in range(t.C):
            strength += s.abroad[c * t.C + h]
        row[H_SIDE] = s.side[c]
        row[H_LIMITED] = s.limited[c]
        row[H_CONQUERED] = 1 if s.conquered[c] >= 0 else 0
        row[H_STRENGTH] = <int32_t>strength
        row[H_SUPPLY_STOCK] = s.supply[c]
        row[H_PERSONNEL] = s.personnel_last[c]
        row[H_SUPPLY] = s.supply_last[c]
        row[H_ENEMY_CITIES] = enemy_held_cities(t, s, c)
        row[H_MOBILIZED] = 1 if s.mobilized[c] >= 0 else 0
        row[H_CONSCRIPTION] = 1 if s.conscription[c] == 1 else 0
        row[H_BLOCKADE_LOST] = s.blockade_lost[c]
    k.hist[k.n_hist_months * t.C * N_HIST + i] = objectives_held(t, s, CENTRAL)


cdef int st_month_end(Core* k) noexcept nogil:
    cdef const GoaT* t = k.t
    cdef GoaS* s = &k.s
    cdef int m = k.month
    britain_provoked(t, s, m)                         # V._2
    occupation_conquests(t, s, m)                     # S._12
    abandoned_off_map_ports(t, s, m)                  # S._15
    victory_check(t, s, m)
    if s.scalars[SC_RESULT] == 0 and m >= t.last_month:
        finish(s, RES_END, m)
    if k.record:
        _record_month(k)
    k.pc = PC_NEXT
    if k.stop_month_end:
        k.month_ended = m
        return STOP
    return DONE


cdef int run_core(Core* k) noexcept nogil:
    cdef int r, pc
    if k.pending or k.error:
        return RUN_DECISION
    while True:
        pc = k.pc
        if pc == PC_MONTH:
            r = st_month(k)
        elif pc == PC_TRADE:
            r = st_trade(k)
        elif pc == PC_REINF:
            r = st_reinf(k)
        elif pc == PC_GIFT:
            r = st_gift(k)
        elif pc == PC_INVADE:
            r = st_invade(k)
        elif pc == PC_ECONOMY:
            r = st_economy(k)
        elif pc == PC_MARINES:
            r = st_marines(k)
        elif pc == PC_NAVAL:
            r = st_naval(k)
        elif pc == PC_ORDERS:
            r = st_orders(k)
        elif pc == PC_SUBS:
            r = st_subs(k)
        elif pc == PC_COMBAT:
            r = st_combat(k)
        elif pc == PC_USW:
            r = st_usw(k)
        elif pc == PC_SEA:
            r = st_sea(k)
        elif pc == PC_LANDING:
            r = st_landing(k)
        elif pc == PC_COLONIAL:
            r = st_colonial(k)
        elif pc == PC_ABYSSINIA:
            r = st_abyssinia(k)
        elif pc == PC_RETURNS:
            r = st_returns(k)
        elif pc == PC_INTERCEPT:
            r = st_intercept(k)
        elif pc == PC_LAND:
            r = st_land(k)
        elif pc == PC_LAND_ORDERS:
            r = st_land_orders(k)
        elif pc == PC_GARRISON:
            r = st_garrison(k)
        elif pc == PC_MONTH_END:
            r = st_month_end(k)
        elif pc == PC_NEXT:
            k.month += 1
            if k.s.scalars[SC_RESULT] == 0:
                k.s.scalars[SC_MONTH] = k.month
                k.pc = PC_MONTH
            else:
                k.pc = PC_OVER
            r = DONE
        else:
            return RUN_OVER
        if r == SUSPEND:
            return RUN_DECISION
        if r == STOP:
            return RUN_MONTH_END


# == copies ======================================================================================

cdef inline void* _moved(const void* p, const void* old, void* new) noexcept nogil:
    # a pointer into the block at `old`, pointing to the same offset of the block at `new`
    return <char*>new + (<const char*>p - <const char*>old)


cdef int _copy_rows(int32_t** dst, int64_t* cap, const int32_t* src, int64_t n,
                    int64_t width) noexcept nogil:
    # n rows of `width` int32s into dst's own allocation, grown when too small
    cdef void* grown
    if n > cap[0]:
        grown = realloc(dst[0], n * width * sizeof(int32_t))
        if grown == NULL:
            return -1
        dst[0] = <int32_t*>grown
        cap[0] = n
    if n > 0:
        memcpy(dst[0], src, n * width * sizeof(int32_t))
    return 0


cdef int core_assign(Core* dst, const Core* src, bint trace) noexcept nogil:
    # dst's own memory, kept across the copy of the struct
    cdef void* block = dst.block
    cdef uint8_t* sbuf = dst.sbuf
    cdef int32_t* trace_rows = dst.trace_rows
    cdef int64_t cap_trace = dst.cap_trace
    cdef int32_t* move_rows = dst.move_rows
    cdef int64_t cap_moves = dst.cap_moves
    cdef const void* ob = src.block
    cdef size_t i, nw
    cdef uintptr_t w, lo, hi
    if dst.t != src.t or dst.block_size != src.block_size or dst.sbuf_size != src.sbuf_size:
        return -1                                 # not a Core of the same tables
    memcpy(dst, src, sizeof(Core))                # the struct by value: cursors, streams ...
    dst.block = block
    dst.sbuf = sbuf
    dst.trace_rows = trace_rows
    dst.cap_trace = cap_trace
    dst.move_rows = move_rows
    dst.cap_moves = cap_moves
    memcpy(block, src.block, src.block_size)
    memcpy(sbuf, src.sbuf, src.sbuf_size)
    # the state: GoaS is nothing but pointers into the state buffer (tables.pxd), each moved
    # by its offset (as words, through memcpy: no pointer type is assumed)
    nw = sizeof(GoaS) // sizeof(uintptr_t)
    lo = <uintptr_t>src.sbuf
    hi = lo + src.sbuf_size
    for i in range(nw):
        memcpy(&w, (<char*>&dst.s) + i * sizeof(uintptr_t), sizeof(uintptr_t))
        if lo <= w <= hi:
            w = w - lo + <uintptr_t>sbuf
            memcpy((<char*>&dst.s) + i * sizeof(uintptr_t), &w, sizeof(uintptr_t))
    # the working lists: every pointer into the block, by its offset (GoaCore.__init__ lays
    # them out; tests/games/goa/test_core_copy.py fails when one is missed here)
    dst.opts = <int32_t*>_moved(src.opts, ob, block)
    dst.roll_kind = <int32_t*>_moved(src.roll_kind, ob, block)
    dst.roll_c = <int32_t*>_moved(src.roll_c, ob, block)
    dst.roll_mod = <int32_t*>_moved(src.roll_mod, ob, block)
    dst.roll_extra = <int32_t*>_moved(src.roll_extra, ob, block)
    dst.roll_result = <int32_t*>_moved(src.roll_result, ob, block)
    dst.orders = <int32_t*>_moved(src.orders, ob, block)
    dst.subs = <int8_t*>_moved(src.subs, ob, block)
    dst.forgo = <int8_t*>_moved(src.forgo, ob, block)
    dst.sends = <int32_t*>_moved(src.sends, ob, block)
    dst.land_orders = <int32_t*>_moved(src.land_orders, ob, block)
    dst.short_ = <int8_t*>_moved(src.short_, ob, block)
    dst.alloc = <int32_t*>_moved(src.alloc, ob, block)
    dst.pick_c = <int32_t*>_moved(src.pick_c, ob, block)
    dst.pick_kind = <int32_t*>_moved(src.pick_kind, ob, block)
    dst.pick_index = <int32_t*>_moved(src.pick_index, ob, block)
    dst.pick_src = <int32_t*>_moved(src.pick_src, ob, block)
    dst.pick_n = <int32_t*>_moved(src.pick_n, ob, block)
    dst.tkind = <int32_t*>_moved(src.tkind, ob, block)
    dst.tindex = <int32_t*>_moved(src.tindex, ob, block)
    dst.tsrc = <int32_t*>_moved(src.tsrc, ob, block)
    dst.committed = <int32_t*>_moved(src.committed, ob, block)
    dst.done = <uint8_t*>_moved(src.done, ob, block)
    dst.mv_pending = <int32_t*>_moved(src.mv_pending, ob, block)
    dst.work = <int32_t*>_moved(src.work, ob, block)
    dst.facts.usable = <uint8_t*>_moved(src.facts.usable, ob, block)
    dst.facts.usable_bits = <uint64_t*>_moved(src.facts.usable_bits, ob, block)
    dst.facts.port_areas = <uint32_t*>_moved(src.facts.port_areas, ob, block)
    dst.bmods = <int32_t*>_moved(src.bmods, ob, block)
    dst.area_sides = <int8_t*>_moved(src.area_sides, ob, block)
    dst.fleet[0] = <int32_t*>_moved(src.fleet[0], ob, block)
    dst.fleet[1] = <int32_t*>_moved(src.fleet[1], ob, block)
    dst.chosen = <int8_t*>_moved(src.chosen, ob, block)
    dst.hunters = <int32_t*>_moved(src.hunters, ob, block)
    dst.hist = <int32_t*>_moved(src.hist, ob, block)
    # the growable rows: the colonial moves of the phase are part of the game; the trace is a
    # record, copied when asked
    if _copy_rows(&dst.move_rows, &dst.cap_moves, src.move_rows, src.nmoves, 3) < 0:
        return -1
    if trace and src.trace:
        if _copy_rows(&dst.trace_rows, &dst.cap_trace, src.trace_rows, src.n_trace,
                      TRACE_COLS) < 0:
            return -1
    else:
        dst.trace = False
        dst.n_trace = 0
    return 0


cdef inline size_t _aligned(size_t n) noexcept nogil:
    return (n + 15) & ~(<size_t>15)


cdef Core* core_copy(const Core* src, bint trace) noexcept nogil:
    cdef size_t head = _aligned(sizeof(Core)), body = _aligned(src.block_size)
    cdef char* mem = <char*>malloc(head + body + src.sbuf_size + 1)
    cdef Core* k = <Core*>mem
    if mem == NULL:
        return NULL
    memset(k, 0, sizeof(Core))
    k.t = src.t
    k.block = mem + head
    k.block_size = src.block_size
    k.sbuf = <uint8_t*>(mem + head + body)
    k.sbuf_size = src.sbuf_size
    if core_assign(k, src, trace) < 0:
        core_free(k)
        return NULL
    return k


cdef void core_free(Core* k) noexcept nogil:
    if k == NULL:
        return
    free(k.trace_rows)
    free(k.move_rows)
    free(k)


# == the Python API ==============================================================================

cdef class GoaCore:
    """A game of ``goa`` (a ``GoaTables``) played by the compiled core on ``state`` (a
    ``GoaState`` of those tables, played in place; a new one at the scenario's start when
    ``None``).

    The dice and the random policies' streams start from ``(seed, game_index)`` as
    ``GoaGame``'s do, or from explicit 64-bit stream states (``streams``: the ``goa``, the
    Allied and the Central policy streams, as ``dice.Stream.state``).

    ``levels``: who answers each side (Allied, Central): ``LEVEL_RANDOM`` (0, inside the
    core), ``LEVEL_EXTERNAL`` (-1: ``run()`` returns with the decision pending), or a ladder
    level registered in C.
    """

    def __init__(self, goa, state=None, seed=None, game_index=0, streams=None,
                 levels=(-1, -1), record=False,
                 stop_at_month_end=False, trace=False):
        cdef CoreTables ct = core_tables(goa)
        cdef GoaT* t = &ct.t
        cdef cnp.ndarray buf
        self.tables = ct
        if state is None:
            buf = ct.initial.copy()                 # one copy; the GoaState's views when asked
        else:
            buf = state.buffer
            if buf.dtype != np.uint8 or buf.ndim != 1 or buf.shape[0] != ct.state_size \
                    or not buf.flags.c_contiguous or not buf.flags.writeable:
                raise ValueError("the state is not a writeable GoaState of these tables")
        self._state = state
        self.buffer = buf
        ct.bind(&self.k.s, <uint8_t*>cnp.PyArray_DATA(buf))
        self.k.t = t
        if streams is not None:
            self.k.dice, self.k.pol[0], self.k.pol[1] = (int(x) & 0xFFFFFFFFFFFFFFFF for x in streams)
        elif seed is not None:
            if not 0 <= seed < 1 << 64 or not 0 <= game_index < 1 << 64:
                raise ValueError("master seed and game index must be in 0 .. 2**64 - 1")
            self.k.dice = seed_state(seed, game_index, stream_code(STREAMS[0]))
            self.k.pol[0] = seed_state(seed, game_index, stream_code(STREAMS[1]))
            self.k.pol[1] = seed_state(seed, game_index, stream_code(STREAMS[2]))
        else:
            raise ValueError("give a seed (and game index) or the streams' states")
        self.set_levels(*levels)
        # the ladder policies' fixed room in Core (LADDER_*), and their defaults
        if t.A > LADDER_AREAS:
            raise ValueError(f"the compiled ladder policies handle at most {LADDER_AREAS} sea "
                             f"areas, not {t.A}")
        if t.Q > LADDER_SQUADRONS:
            raise ValueError(f"the compiled ladder policies handle at most {LADDER_SQUADRONS} "
                             f"squadrons, not {t.Q}")
        for side in range(2):
            self.set_params(side)
            self.k.ladder_month[side] = NO_MONTH
        self.k.historical = NULL
        self.k.n_historical = 0
        # the working lists, one allocation
        cdef Py_ssize_t C = t.C, Q = t.Q, A = t.A, L = t.L, F = t.F
        cdef Py_ssize_t R = 2 * C + 4, T = (t.B + t.P + L) * (1 + L + C) + 1
        cdef Py_ssize_t W = max(Q, L, 2 * C, 2 * (1 + L + C), t.P) + 8
        cdef Py_ssize_t NP = 6 * C + 1                              # landings a month (N.85)
        cdef Py_ssize_t months = max(1, t.last_month - t.first_month + 1)
        cdef Py_ssize_t n32 = (t.max_options + 5 * R + Q + 3 * C + F * C + 5 * NP + 3 * T + W
                               + (1 + L + C) + (L + 2)
                               + 2 * Q + Q + months * C * N_HIST + months)
        cdef Py_ssize_t NPL = t.NPL
        n32 += 2 * C + 2 * A + 4 * t.NW + 2                         # facts, bmods
        cdef Py_ssize_t n8 = 4 * A + C + Q + 2 * NPL + A + (t.B + t.P + L)
        self._block = malloc(n32 * sizeof(int32_t) + n8 + 16)
        if self._block == NULL:
            raise MemoryError()
        self.k.block = self._block
        self.k.block_size = n32 * sizeof(int32_t) + n8 + 16
        self.k.sbuf = <uint8_t*>cnp.PyArray_DATA(buf)
        self.k.sbuf_size = ct.state_size
        cdef int32_t* p = <int32_t*>self._block
        self.k.facts.usable_bits = <uint64_t*>p; p += 4 * t.NW      # first: 8-byte aligned
        self.k.opts = p; p += t.max_options
        self.k.roll_kind = p; p += R
        self.k.roll_c = p; p += R
        self.k.roll_mod = p; p += R
        self.k.roll_extra = p; p += R
        self.k.roll_result = p; p += R
        self.k.orders = p; p += Q
        self.k.sends = p; p += C
        self.k.land_orders = p; p += C
        self.k.alloc = p; p += F * C
        self.k.pick_c = p; p += NP
        self.k.pick_kind = p; p += NP
        self.k.pick_index = p; p += NP
        self.k.pick_src = p; p += NP
        self.k.pick_n = p; p += NP
        self.k.tkind = p; p += T
        self.k.tindex = p; p += T
        self.k.tsrc = p; p += T
        self.k.committed = p; p += 1 + L + C
        self.k.mv_pending = p; p += L + 2
        self.k.work = p; p += W
        self.k.fleet[0] = p; p += Q
        self.k.fleet[1] = p; p += Q
        self.k.hunters = p; p += Q
        self.k.hist = p; p += months * C * N_HIST + months
        self.k.facts.port_areas = <uint32_t*>p; p += 2 * C
        self.k.bmods = p; p += 2 * A
        self.k.n_hist_months = <int>months
        cdef int8_t* b = <int8_t*>p
        self.k.subs = b; b += 2 * A
        self.k.forgo = b; b += 2 * A
        self.k.short_ = b; b += C
        self.k.chosen = b; b += Q
        self.k.facts.usable = <uint8_t*>b; b += 2 * NPL
        self.k.area_sides = b; b += A
        self.k.done = <uint8_t*>b; b += t.B + t.P + L
        memset(self.k.hist, 0, (months * C * N_HIST + months) * sizeof(int32_t))
        self.k.answer = -1
        self.k.record = record
        self.k.stop_month_end = stop_at_month_end
        self.k.trace = trace
        self.k.month = self.k.s.scalars[SC_MONTH]
        self.k.month_ended = -1
        self.k.pc = PC_MONTH if self.k.s.scalars[SC_RESULT] == 0 else PC_OVER

    def __dealloc__(self):
        free(self._block)
        free(self.k.trace_rows)
        free(self.k.move_rows)

    def copy(self):
        """A new ``GoaCore`` playing on from this game exactly as this one would (the same
        state, dice, policy streams, levels, pending decision and trace), on its own state
        (a new ``GoaState`` buffer) and working lists; the tables are shared. Neither game
        touches the other afterwards.

        >>> import gwe_fast, pathlib, sys
        >>> sys.path.insert(0, str(pathlib.Path(gwe_fast.__file__).parents[2] / "tests" / "games" / "goa"))
        >>> import tiny
        >>> from gwe_fast.games.goa.tables import compile_tables
        >>> from gwe_fast._core.goa import LEVEL_RANDOM
        >>> a = GoaCore(compile_tables(tiny.raw()), seed=3, levels=(LEVEL_RANDOM, LEVEL_RANDOM),
        ...             stop_at_month_end=True)
        >>> a.run(), a.month_ended
        (2, 0)
        >>> b = a.copy()
        >>> _ = a.play(LEVEL_RANDOM, LEVEL_RANDOM), b.play(LEVEL_RANDOM, LEVEL_RANDOM)
        >>> bytes(a.buffer) == bytes(b.buffer), b.buffer is a.buffer
        (True, False)
        """
        cdef GoaCore c = GoaCore.__new__(GoaCore)
        c.tables = self.tables
        c._historical = self._historical            # Core.historical points into it
        c._state = None
        c.buffer = np.empty(self.k.sbuf_size, np.uint8)
        c._block = malloc(self.k.block_size)
        if c._block == NULL:
            raise MemoryError()
        c.k.t = self.k.t
        c.k.block = c._block
        c.k.block_size = self.k.block_size
        c.k.sbuf = <uint8_t*>cnp.PyArray_DATA(c.buffer)
        c.k.sbuf_size = self.k.sbuf_size
        if core_assign(&c.k, &self.k, True) < 0:
            raise MemoryError()
        return c

    def set_levels(self, allied: int, central: int) -> None:
        """Who answers each side: ``LEVEL_RANDOM``, ``LEVEL_EXTERNAL`` or a ladder level."""
        for lv in (allied, central):
            lv = int(lv)
            if lv != LEVEL_EXTERNAL and lv != LEVEL_RANDOM and not (
                    0 < lv < N_LEVELS and CHOOSERS[lv] != NULL):
                raise ValueError(f"no compiled policy at level {lv}")
        self.k.level[0] = int(allied)
        self.k.level[1] = int(central)

    def set_params(self, side, aggression=1.0, caution=1.0, usw=-1.0, gift=-1.0,
                   history=None) -> None:
        """The parameters of the compiled ladder policy answering ``side`` (0 Allied, 1
        Central): those of ``GoaGreedyPolicy`` (its ``PARAMS``; the defaults are its own), and
        for the historical policy its compiled rows (``ladder.history_rows``, int32[n, 5];
        shared by both sides, kept alive here). ``GoaGame`` passes a policy's
        ``core_params()``."""
        cdef cnp.ndarray rows
        if side not in (0, 1):
            raise ValueError(f"side must be 0 (Allied) or 1 (Central), not {side!r}")
        values = (aggression, caution, usw, gift)
        for name, v in zip(("aggression", "caution", "usw", "gift"), values):
            if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
                raise TypeError(f"parameter {name} must be a number, not {v!r}")
        for i, v in enumerate(values):
            self.k.ladder_params[side][i] = float(v)
        if history is not None:
            given = np.array(history, dtype=np.int32)           # our own copy, read-only
            if given.ndim != 2 or given.shape[1] != N_HISTORY_COLS:
                raise ValueError(f"the historical rows must be int32[n, {N_HISTORY_COLS}], not "
                                 f"of shape {given.shape}")
            rows = given
            rows.flags.writeable = False
            self._historical = rows
            self.k.historical = <const int32_t*>cnp.PyArray_DATA(rows)
            self.k.n_historical = rows.shape[0]

    def params(self, side) -> dict:
        """The ladder parameters ``side``'s compiled policy reads (``set_params``)."""
        if side not in (0, 1):
            raise ValueError(f"side must be 0 (Allied) or 1 (Central), not {side!r}")
        return {name: self.k.ladder_params[side][i]
                for i, name in enumerate(("aggression", "caution", "usw", "gift"))}

    @property
    def history_rows(self):
        """The historical policy's rows the core reads (``set_params(history=...)``), or
        ``None``."""
        return self._historical

    def run(self) -> int:
        """Play until a decision waits for a Python policy (``RUN_DECISION``, 1), the end of a
        month when ``stop_at_month_end`` (``RUN_MONTH_END``, 2) or the end of the game
        (``RUN_OVER``, 0)."""
        cdef int r
        if self.k.pending:
            raise RuntimeError("a decision is pending: choose() first")
        with nogil:
            r = run_core(&self.k)
        if self.k.error == 2:
            raise RuntimeError(f"a decision of kind {self.k.kind} had {self.k.n_opts} options, "
                               f"more than the core's room ({self.k.t.max_options})")
        if self.k.error:
            raise RuntimeError(f"the compiled policy of level {self.k.level[self.k.side]} "
                               f"gave no valid option for a decision of kind {self.k.kind}")
        return r

    def play(self, allied: int = 0, central: int = 0) -> int:
        """Set the sides' levels and ``run()``."""
        self.set_levels(allied, central)
        return self.run()

    def choose(self, index: int) -> None:
        """Answer the pending decision with the index of an option."""
        if not self.k.pending:
            raise RuntimeError("no decision is pending")
        if not 0 <= index < self.k.n_opts:
            raise ValueError(f"option index {index} is not in 0 .. {self.k.n_opts - 1}")
        self.k.answer = int(index)
        self.k.pending = False

    # -- the pending decision ------------------------------------------------------------------
    @property
    def pending(self) -> bool:
        return bool(self.k.pending)

    @property
    def kind(self) -> int:
        return self.k.kind

    @property
    def side(self) -> int:
        return self.k.side

    @property
    def subject(self) -> int:
        return self.k.subject

    @property
    def secret(self) -> bool:
        return bool(self.k.secret)

    @property
    def options(self):
        """The legal option codes of the pending decision: a read-only int32 view, valid until
        the game goes on."""
        cdef cnp.npy_intp n = self.k.n_opts if self.k.pending else 0
        arr = cnp.PyArray_SimpleNewFromData(1, &n, cnp.NPY_INT32, <void*>self.k.opts)
        Py_INCREF(self)
        cnp.PyArray_SetBaseObject(arr, self)
        arr.flags.writeable = False
        return arr

    # -- the game ------------------------------------------------------------------------------
    @property
    def state(self):
        """The ``GoaState`` played (views of ``buffer``)."""
        if self._state is None:
            self._state = GoaState(self.buffer, self.tables.layout)
        return self._state

    @property
    def month(self) -> int:
        """The month being played (the last one once the game is over)."""
        return self.k.s.scalars[SC_MONTH]

    @property
    def month_ended(self) -> int:
        return self.k.month_ended

    @property
    def over(self) -> bool:
        return self.k.pc == PC_OVER

    @property
    def result(self) -> int:
        return self.k.s.scalars[SC_RESULT]

    @property
    def decisions(self) -> int:
        """Decisions asked so far (a decision with one option is not asked)."""
        return self.k.decisions

    @property
    def decisions_in_c(self) -> int:
        """Of which answered inside the core."""
        return self.k.decisions_in_c

    @property
    def streams(self) -> tuple:
        """The current states of the dice and the two policy streams (settable: a copy
        played on other dice)."""
        return (self.k.dice, self.k.pol[0], self.k.pol[1])

    @streams.setter
    def streams(self, states) -> None:
        dice, allied, central = (int(x) & 0xFFFFFFFFFFFFFFFF for x in states)
        self.k.dice, self.k.pol[0], self.k.pol[1] = dice, allied, central

    @property
    def history(self):
        """The per-month record (``record=True``): int32[months, countries, N_HIST] (columns
        ``HISTORY_COLUMNS``), months from the scenario's first; rows of months not played are
        zero."""
        cdef const GoaT* t = self.k.t
        m, c = self.k.n_hist_months, t.C
        flat = np.asarray(<int32_t[:m * c * N_HIST + m]>self.k.hist).copy()
        return flat[:m * c * N_HIST].reshape(m, c, N_HIST)

    @property
    def history_objectives(self):
        """The objective cities the Central Powers held at the end of each month (``record``)."""
        m, c = self.k.n_hist_months, self.k.t.C
        flat = np.asarray(<int32_t[:m * c * N_HIST + m]>self.k.hist).copy()
        return flat[m * c * N_HIST:]

    @property
    def trace_rows(self):
        """Every decision asked (``trace=True``): int32[n, 8] (``TRACE_COLUMNS``)."""
        if self.k.n_trace == 0:
            return np.zeros((0, TRACE_COLS), np.int32)
        return np.asarray(<int32_t[:self.k.n_trace * TRACE_COLS]>self.k.trace_rows).copy().reshape(-1, TRACE_COLS)


cdef list _stale(const Core* copy, const Core* a):
    # the byte offsets of the words of the record `copy` that point into a's memory
    cdef const char* rec = <const char*>copy
    cdef uintptr_t w
    cdef size_t i
    ranges = [(<uintptr_t>a.block, a.block_size), (<uintptr_t>a.sbuf, a.sbuf_size)]
    if a.trace_rows != NULL:
        ranges.append((<uintptr_t>a.trace_rows, a.cap_trace * TRACE_COLS * sizeof(int32_t)))
    if a.move_rows != NULL:
        ranges.append((<uintptr_t>a.move_rows, a.cap_moves * 3 * sizeof(int32_t)))
    out = []
    for i in range(sizeof(Core) // sizeof(uintptr_t)):
        memcpy(&w, rec + i * sizeof(uintptr_t), sizeof(uintptr_t))
        if any(lo <= w <= lo + n for lo, n in ranges):
            out.append(int(i * sizeof(uintptr_t)))
    return out


def stale_pointers(GoaCore copy, GoaCore original) -> list:
    """The byte offsets of the words of ``copy``'s C record (``Core``) that point into the
    memory of ``original`` (its working block, state buffer, decision trace or colonial move
    rows): empty for a true copy. Every aligned word of the record is looked at, so a pointer
    field added to ``Core`` later and not re-pointed by ``core_assign`` is found (the copy
    tests, ``tests/games/goa/test_core_copy.py``)."""
    return _stale(&copy.k, &original.k)


def copy_through_c(GoaCore core) -> tuple:
    """``core`` copied by the C API as the lookahead copies it (``core_copy``), then that copy
    copied into a new ``GoaCore`` and freed (``core_free``): ``(the new GoaCore, the stale
    pointers of the C copy)`` (for the copy tests)."""
    cdef Core* c = core_copy(&core.k, True)
    if c == NULL:
        raise MemoryError()
    try:
        stale = _stale(c, &core.k)
        out = core.copy()
        if core_assign(&(<GoaCore>out).k, c, True) < 0:
            raise MemoryError()
    finally:
        core_free(c)
    return out, stale


def core_record_size() -> int:
    """``sizeof(Core)``, the C record of a game (for the copy tests)."""
    return sizeof(Core)


def record_words(GoaCore core) -> list:
    """Every aligned 64-bit word of the core's C record, in order (for the copy tests: a word
    a copy shares with its original that points into memory is a pointer left shared)."""
    cdef const char* rec = <const char*>&core.k
    cdef uintptr_t w
    cdef size_t i
    out = []
    for i in range(sizeof(Core) // sizeof(uintptr_t)):
        memcpy(&w, rec + i * sizeof(uintptr_t), sizeof(uintptr_t))
        out.append(int(w))
    return out


def shared_offsets() -> list:
    """The byte offsets of the record's fields a copy shares with its original on purpose:
    the tables (``t``, read-only)."""
    cdef Core k
    return [int(<char*>&k.t - <char*>&k)]


def c_codes() -> dict:
    """The values of the core's ``codes.pxd`` enums, by the name of the reference's code (for
    the test that holds the two together)."""
    return {
        "Side.ALLIED": ALLIED, "Side.CENTRAL": CENTRAL, "Side.NEUTRAL": NEUTRAL,
        "Kind.TRADE": K_TRADE, "Kind.GIFT": K_GIFT, "Kind.INVADE": K_INVADE,
        "Kind.ECONOMY": K_ECONOMY, "Kind.CONSCRIPTION": K_CONSCRIPTION,
        "Kind.SQUADRON": K_SQUADRON, "Kind.SUBMARINE": K_SUBMARINE,
        "Kind.GERMAN_ROLL": K_GERMAN_ROLL, "Kind.DESIGNATE": K_DESIGNATE, "Kind.USW": K_USW,
        "Kind.SEND_SUPPLY": K_SEND_SUPPLY, "Kind.SHIP": K_SHIP, "Kind.LAND": K_LAND,
        "Kind.GARRISON": K_GARRISON, "Kind.MARINES": K_MARINES, "Kind.COLONIAL": K_COLONIAL,
        "Kind.RETURN": K_RETURN, "Kind.LANDING": K_LANDING, "Kind.INTERCEPT": K_INTERCEPT,
        "Kind.ABYSSINIA": K_ABYSSINIA,
        "Morale.NONE": MOR_NONE, "Morale.RR": MOR_RR, "Morale.D1": MOR_D1, "Morale.D2": MOR_D2,
        "Morale.SURRENDER": MOR_SURRENDER,
        "Land.AE": LAND_AE, "Land.AA": LAND_AA, "Land.AD": LAND_AD, "Land.BD": LAND_BD,
        "Land.DD": LAND_DD, "Land.DX": LAND_DX, "Land.DE": LAND_DE,
        "Ship.DREADNOUGHT": SHIP_DREADNOUGHT, "Ship.BATTLECRUISER": SHIP_BATTLECRUISER,
        "Ship.BATTLESHIP": SHIP_BATTLESHIP,
        "Damage.NONE": DMG_NONE, "Damage.LIGHT": DMG_LIGHT, "Damage.HEAVY": DMG_HEAVY,
        "Damage.SUNK": DMG_SUNK,
        "Terrain.CITY": TER_CITY, "Terrain.FORT": TER_FORT, "Terrain.ROUGH": TER_ROUGH,
        "Terrain.SWAMP": TER_SWAMP,
        "Result.PLAYING": RES_PLAYING, "Result.CENTRAL_OBJECTIVES": RES_CENTRAL_OBJECTIVES,
        "Result.ALLIED_OBJECTIVES": RES_ALLIED_OBJECTIVES,
        "Result.CENTRAL_CONQUEST": RES_CENTRAL_CONQUEST,
        "Result.ALLIED_CONQUEST": RES_ALLIED_CONQUEST, "Result.BASE_ALLIED": RES_BASE_ALLIED,
        "Result.END": RES_END,
        "model.MONTH": SC_MONTH, "model.RESULT": SC_RESULT, "model.RESULT_MONTH": SC_RESULT_MONTH,
        "model.ALL_OBJECTIVES_SINCE": SC_ALL_OBJECTIVES_SINCE,
        "model.JAPAN_CONQUESTS": SC_JAPAN_CONQUESTS, "model.JAPAN_PERSONNEL": SC_JAPAN_PERSONNEL,
        "model.JAPAN_POOL": SC_JAPAN_POOL, "model.N_SCALARS": N_SCALARS,
        "model.MOBILIZED_SINCE": MOBILIZED_SINCE, "model.DEMOBILIZED_SINCE": DEMOBILIZED_SINCE,
        "model.CONSCRIPTED_SINCE": CONSCRIPTED_SINCE,
        "model.IMPLEMENTED_SINCE": IMPLEMENTED_SINCE,
        "model.BLOCKADE_LOSS_SINCE": BLOCKADE_LOSS_SINCE,
        "naval.SORTIE": SORTIE, "naval.SCREEN": SCREEN,
        "morale.MORALE_ROLL": MORALE_ROLL, "morale.ENTRY_ROLL": ENTRY_ROLL,
        "land.FORT": LM_FORT, "land.ENTRENCH": LM_ENTRENCH, "land.CITY": LM_CITY,
        "land.DEMORALIZED": LM_DEMORALIZED, "land.PER_SP": LM_PER_SP, "land.CAP": LM_CAP,
        "land.MAIN_SHARE": LM_MAIN_SHARE, "land.UPKEEP": LM_UPKEEP,
        "colonial.COLONY": L_COLONY, "colonial.SOVEREIGN": L_SOVEREIGN,
        "colonial.CHINA": L_CHINA, "colonial.TURKISH": L_TURKISH,
        "colonial.TURKISH_OPPONENT": L_TURKISH_OPPONENT, "colonial.JAPAN": L_JAPAN,
        "core.LEVEL_EXTERNAL": LEVEL_EXTERNAL, "core.LEVEL_RANDOM": LEVEL_RANDOM,
        "core.RUN_OVER": RUN_OVER, "core.RUN_DECISION": RUN_DECISION,
        "core.RUN_MONTH_END": RUN_MONTH_END,
    }
