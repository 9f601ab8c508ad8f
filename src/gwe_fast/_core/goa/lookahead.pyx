# cython: language_level=3
"""The Guns of August's ``lookahead`` policy, answering inside the compiled core (level 4).

At a decision of its side of a strategic kind (``STRATEGIC``) it weighs the options by
playing the game on from each, on copies of the core (``engine.core_copy``): the copy takes
the option, then the play-out level (``look_playout``: ``LEVEL_RANDOM`` or a compiled ladder
level, never the lookahead itself) plays both sides for the rest of the month and
``look_horizon`` months more, or to the end of the game, ``look_samples`` times. Each
play-out of an option has its own dice, and the options share them (common random numbers):
play-out ``j`` of every option starts from the same dice and policy streams, drawn once per
decision from the side's own policy stream (``Core.pol``), never from the game's dice. The
end position is scored for the side by ``position_value``; the best mean wins, the first
option (the lowest index) on a tie, so an option that changes nothing loses to the option
before it. Every other decision of the side is answered as the play-out level answers it.

Options weighed: all of them when there are at most ``look_max_options``, else the play-out
level's own pick and ``look_max_options - 1`` others drawn from the policy stream, weighed in
the order of their indices. Play-outs call no Python and never look ahead again (their levels
are the play-out level's), so a decision costs at most ``look_max_options x look_samples``
play-outs of ``look_horizon`` months and a bit.

**The strategic kinds** (``STRATEGIC``): the decisions a belligerent takes once a month or
once a war and whose worth shows only months later, in the position the play-out reaches:
the roll trade (V._1/M._7), the dreadnought gifts (V._4), invading Belgium or the
Netherlands (V._2), economic mobilization and conscription (P._11), unrestricted submarine
warfare (N.64), land orders on the fronts (``land=fronts``), supply sent by sea (N.71-N.79)
and land units shipped (N.81-N.85), marines (N.96), the S._14 garrisons and the attack on
Abyssinia (C.65). Left to the play-out level: squadron orders (about 1,500 a passive
campaign, each worth something only with the orders the other squadrons get in the same
secret phase), submarine and German-roll choices and the damage each side designates
(moments inside one naval combat), C.44 returns and interceptions, colonial moves (many
small steps of one secret order) and amphibious landings (the opponent's landing picks of the
same secret phase are kept where a play-out could not hide them; see below).

**Secret orders** (N.21, C.32): the Allies give their secret orders of a phase before the
Central Powers. When the lookahead plays the Central Powers, each play-out first forgets the
Allied answers already given in the phase and lets the play-out level give them again: the
roll trade pick, the land orders and the supply sent (``_forget_orders``). Land units the
Allies shipped earlier in the Naval Phase stay where they went: the engine makes each move as
it is chosen (``engine.py``) and every policy sees them.

**The value of a position** (``position_value``, to the Allies, negated for the Central
Powers), with each country weighted as greedy weights it (``weight``: its monthly points of
the points table, divided by 10, at least 0.1):

* the war decided: +/- ``V_RESULT`` (100) for a win or a loss: it outweighs everything else;
* objective cities: ``V_OBJECTIVE`` (2) for each one a side holds: what the Victory
  Conditions count, and each changes a country's morale roll;
* each country at war on a side: ``V_ENTRY`` (3) x weight, half for a limited participant:
  its points, army and fleet; a conquered (surrendered) country instead costs its side
  ``V_CONQUERED`` (10) x weight: everything it had, and its points for the rest of the war;
* each city of a country held by the enemy: ``V_CITY`` (0.5): a pip on its morale roll;
* morale results so far: 0.25 (RR), 1 (D1) and 2 (D2) x weight (greedy's ``MORALE_COST``),
  and ``V_DEMORALIZED`` (1) x weight while a country is demoralized (it may not attack);
* land strength: ``V_STRENGTH`` (0.02) a point (Germany's 190 points at the start are worth
  about half of its entry), and ``V_SUPPLY`` (0.01) a supply point in stock;
* colonies and areas held: ``V_COLONY`` (0.5) each (a colony lost is a morale modifier);
* with variable entry, the lean of the neutrals: for each country whose entry is rolled
  (V._1, Britain's V._2), what its next roll would change in the entry terms above, on
  average over the die with today's modifiers, x ``V_LEAN`` (1). A play-out of a few months
  sees at most one or two entry rolls, while unrestricted submarine warfare, the Turkish
  gifts or an invasion move the modifiers of every roll to come: this term lets the value
  see the drift as well as the dice.

Examples
--------
>>> from gwe_fast._core.goa.lookahead import LOOKAHEAD, STRATEGIC
>>> LOOKAHEAD
4
>>> sorted(STRATEGIC)[:3]
['abyssinia', 'conscription', 'economy']
"""

from libc.math cimport INFINITY
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc

from gwe_fast._core.goa.codes cimport *
from gwe_fast._core.goa.dice cimport below, sm_next
from gwe_fast._core.goa.engine cimport (Core, GoaCore, core_assign, core_copy, core_free,
                                        level_choice, level_known, register_chooser, run_core)
from gwe_fast._core.goa.rules cimport (any_belligerent, at_war, enemy_held_cities,
                                       entry_modifier, entry_outcome, land_options,
                                       objectives_held, rolls_for_entry, supply_options,
                                       trade_options)
from gwe_fast._core.goa.tables cimport GoaS, GoaT

#: the ladder level of the compiled lookahead (``GoaCore(levels=...)``)
LOOKAHEAD = 4

cdef enum:
    LEVEL = 4

# the weights of position_value (the module's docstring says why each)
cdef double V_RESULT = 100.0
cdef double V_OBJECTIVE = 2.0
cdef double V_ENTRY = 3.0
cdef double V_CONQUERED = 10.0
cdef double V_CITY = 0.5
cdef double V_RR = 0.25
cdef double V_D1 = 1.0
cdef double V_D2 = 2.0
cdef double V_DEMORALIZED = 1.0
cdef double V_STRENGTH = 0.02
cdef double V_SUPPLY = 0.01
cdef double V_COLONY = 0.5
cdef double V_LEAN = 1.0

#: the weights of ``position_value``, by name (for the docs and the Python twin's test)
WEIGHTS = {"result": V_RESULT, "objective": V_OBJECTIVE, "entry": V_ENTRY,
           "conquered": V_CONQUERED, "city": V_CITY, "rr": V_RR, "d1": V_D1, "d2": V_D2,
           "demoralized": V_DEMORALIZED, "strength": V_STRENGTH, "supply": V_SUPPLY,
           "colony": V_COLONY, "lean": V_LEAN}

cdef bint IS_STRATEGIC[N_KINDS]
for _k in range(N_KINDS):
    IS_STRATEGIC[_k] = False
for _k in (K_TRADE, K_GIFT, K_INVADE, K_ECONOMY, K_CONSCRIPTION, K_USW, K_LAND, K_SEND_SUPPLY,
           K_SHIP, K_MARINES, K_GARRISON, K_ABYSSINIA):
    IS_STRATEGIC[_k] = True

#: the decision kinds the lookahead weighs by play-outs (``codes.Kind`` names, lower case)
STRATEGIC = frozenset({"trade", "gift", "invade", "economy", "conscription", "usw", "land",
                       "send_supply", "ship", "marines", "garrison", "abyssinia"})

#: the most of each parameter (``set_params``): a decision costs up to
#: max_options x samples play-outs of horizon + 1 months
MAX_HORIZON = 60
MAX_SAMPLES = 256
MAX_OPTIONS = 256


# -- the value of a position ---------------------------------------------------------------------

cdef inline double weight(const GoaT* t, int c) noexcept nogil:
    # policies/goa/greedy.py weight(): the country's monthly points / 10, at least 0.1
    cdef double w = (<double>t.c_personnel[c] + <double>t.c_supply[c]) / 10.0
    return w if w > 0.1 else 0.1


cdef double position_value(const GoaT* t, const GoaS* s, int side) noexcept nogil:
    cdef double v = 0.0, w, cv
    cdef int c, h, l, result = s.scalars[SC_RESULT], month = s.scalars[SC_MONTH]
    cdef int64_t strength
    if result == RES_CENTRAL_OBJECTIVES or result == RES_CENTRAL_CONQUEST:
        v -= V_RESULT
    elif result == RES_ALLIED_OBJECTIVES or result == RES_ALLIED_CONQUEST \
            or result == RES_BASE_ALLIED:
        v += V_RESULT
    v += V_OBJECTIVE * (objectives_held(t, s, ALLIED) - objectives_held(t, s, CENTRAL))
    for c in range(t.C):
        if s.side[c] == NEUTRAL:
            continue
        w = weight(t, c)
        if s.conquered[c] >= 0:
            cv = -V_CONQUERED * w
        else:
            cv = V_ENTRY * w * (0.5 if s.limited[c] else 1.0)
            cv -= V_CITY * enemy_held_cities(t, s, c)
            if s.demoralized[c] >= month:
                cv -= V_DEMORALIZED * w
            strength = s.army[c]
            for h in range(t.C):
                strength += s.abroad[c * t.C + h]
            cv += V_STRENGTH * <double>strength + V_SUPPLY * <double>s.supply[c]
        cv -= w * (V_RR * s.morale_results[c * 5 + MOR_RR] + V_D1 * s.morale_results[c * 5 + MOR_D1]
                   + V_D2 * s.morale_results[c * 5 + MOR_D2])
        v += cv if s.side[c] == ALLIED else -cv
    if t.colonies:
        for l in range(t.L):
            if s.colony[l] == ALLIED:
                v += V_COLONY
            elif s.colony[l] == CENTRAL:
                v -= V_COLONY
    if t.variable_entry:
        v += V_LEAN * _entry_lean(t, s)
    return v if side == ALLIED else -v


cdef inline double _entry_worth(const GoaT* t, int c, int side, bint limited) noexcept nogil:
    # a country's entry term of position_value, to the Allies
    if side == NEUTRAL:
        return 0.0
    cdef double e = V_ENTRY * weight(t, c) * (0.5 if limited else 1.0)
    return e if side == ALLIED else -e


cdef double _entry_lean(const GoaT* t, const GoaS* s) noexcept nogil:
    # what the next entry roll of every country that rolls (V._1, V._2) changes in the entry
    # terms, on average over the die, with today's modifiers (to the Allies)
    cdef int32_t* rolling = <int32_t*>malloc((t.C + 1) * sizeof(int32_t))
    cdef int n, i, c, d, m, side
    cdef bint limited
    cdef double lean = 0.0, now, after
    if rolling == NULL:
        return 0.0
    n = rolls_for_entry(t, s, rolling)
    for i in range(n):
        c = rolling[i]
        m = entry_modifier(t, s, c)
        now = _entry_worth(t, c, s.side[c], s.limited[c])
        after = 0.0
        for d in range(1, 7):
            side = entry_outcome(t, s, c, d + m, &limited)
            after += _entry_worth(t, c, side, limited)
        lean += after / 6.0 - now
    free(rolling)
    return lean


def value(GoaCore core, int side) -> float:
    """``position_value`` of the core's position for ``side`` (0 Allies, 1 Central Powers)."""
    if side != ALLIED and side != CENTRAL:
        raise ValueError(f"side must be 0 (Allied) or 1 (Central), not {side}")
    return position_value(core.k.t, &core.k.s, side)


# -- the play-outs --------------------------------------------------------------------------------

cdef int _ask_playout(Core* sc, int kind, int side, int subject, int playout) noexcept nogil:
    # the play-out level's index among sc.opts[0 .. sc.n_opts - 1], as engine.ask asks it
    if sc.n_opts <= 1:
        return 0
    sc.kind = kind
    sc.side = side
    sc.subject = subject
    sc.secret = True
    return level_choice(sc, side, playout)


cdef int _forget_orders(Core* sc, int playout) noexcept nogil:
    # The Central Powers are asked a secret order after the Allies gave theirs: the play-out
    # level gives the Allies' answers again, in the order the engine asks them. 0, or -1.
    cdef const GoaT* t = sc.t
    cdef GoaS* s = &sc.s
    cdef int kind = sc.kind, c, i
    if kind == K_TRADE:
        if (t.variable_entry or t.morale) and any_belligerent(t, s, ALLIED):
            sc.n_opts = trade_options(t, s, sc.roll_kind, sc.roll_c, sc.roll_mod, sc.n_rolls,
                                      ALLIED, sc.opts)
            i = _ask_playout(sc, K_TRADE, ALLIED, -1, playout)
            if i < 0 or i >= sc.n_opts:
                return -1
            sc.picks[ALLIED] = sc.opts[i]
    elif kind == K_LAND:
        for c in range(t.C):
            if at_war(s, c) and s.side[c] == ALLIED:
                sc.n_opts = land_options(t, s, c, sc.month, sc.opts)
                i = _ask_playout(sc, K_LAND, ALLIED, c, playout)
                if i < 0 or i >= sc.n_opts:
                    return -1
                sc.land_orders[c] = sc.opts[i]
    elif kind == K_SEND_SUPPLY or kind == K_SHIP:
        for c in range(t.C):
            if at_war(s, c) and s.side[c] == ALLIED:
                sc.n_opts = supply_options(t, s, &sc.facts, c, sc.opts)
                i = _ask_playout(sc, K_SEND_SUPPLY, ALLIED, c, playout)
                if i < 0 or i >= sc.n_opts:
                    return -1
                sc.sends[c] = sc.opts[i]
    return 0


cdef double _play_out(Core* sc, const Core* k, int side, int index, int playout, int end,
                      uint64_t seed, bint* failed) noexcept nogil:
    # the game of k, option `index` taken, played by the play-out level to the end of month
    # `end` (or of the game) on the streams of `seed`: the end position's value to `side`
    cdef int r
    cdef uint64_t st = seed
    if core_assign(sc, k, False) < 0:
        failed[0] = True
        return 0.0
    sc.level[0] = playout
    sc.level[1] = playout
    sc.record = False
    sc.stop_month_end = True
    sc.dice = sm_next(&st)
    sc.pol[0] = sm_next(&st)
    sc.pol[1] = sm_next(&st)
    if side == CENTRAL and k.secret:
        if _forget_orders(sc, playout) < 0:
            failed[0] = True
            return 0.0
    # the step that asked runs again from its cursors, computes the same options and takes
    # this one (as after GoaCore.choose)
    sc.answer = index
    sc.pending = False
    while True:
        r = run_core(sc)
        if r == RUN_OVER:
            break
        if r == RUN_MONTH_END:
            if sc.month_ended >= end:
                break
            continue
        failed[0] = True                          # a play-out level gave no valid answer
        return 0.0
    return position_value(sc.t, &sc.s, side)


cdef int _weigh(Core* k, int side, int playout, int32_t* out_cands, double* out_totals,
                int* out_m) noexcept nogil:
    # the option picked (-1 on failure); with out_*, the options weighed, their play-outs'
    # total values and how many (room for n_opts each)
    cdef int n = k.n_opts, m, i, j, pick, tmp, best_i = -1
    cdef int samples = k.look_samples[side], cap = k.look_max_options[side]
    cdef int end = k.month + k.look_horizon[side]
    cdef double total, best = -INFINITY
    cdef bint failed = False
    cdef uint64_t base, mix
    cdef int32_t* cands
    cdef Core* sc
    if samples < 1 or cap < 1 or k.look_horizon[side] < 0:
        return -1                                 # set_params was not called for this side
    cands = <int32_t*>malloc(n * sizeof(int32_t))
    if cands == NULL:
        return -1
    for i in range(n):
        cands[i] = i
    m = n
    if n > cap:
        # the play-out level's own pick, and cap - 1 others drawn without replacement
        pick = level_choice(k, side, playout)
        if pick < 0 or pick >= n:
            free(cands)
            return -1
        cands[0] = pick
        cands[pick] = 0
        for i in range(1, cap):
            j = i + below(&k.pol[side], n - i)
            tmp = cands[i]
            cands[i] = cands[j]
            cands[j] = tmp
        m = cap
        if m == 1:                                # nothing to weigh
            if out_m != NULL:
                out_m[0] = 1
                out_cands[0] = pick
                out_totals[0] = 0.0
            free(cands)
            return pick
        for i in range(1, m):                     # in the order of their indices
            tmp = cands[i]
            j = i - 1
            while j >= 0 and cands[j] > tmp:
                cands[j + 1] = cands[j]
                j -= 1
            cands[j + 1] = tmp
    base = sm_next(&k.pol[side])
    sc = core_copy(k, False)
    if sc == NULL:
        free(cands)
        return -1
    for i in range(m):
        total = 0.0
        for j in range(samples):
            mix = base ^ (<uint64_t>(j + 1) * 0xD1B54A32D192ED03ULL)
            total += _play_out(sc, k, side, cands[i], playout, end, mix, &failed)
            if failed:
                break
        if failed:
            break
        if out_m != NULL:
            out_cands[i] = cands[i]
            out_totals[i] = total
        if total > best:
            best = total
            best_i = cands[i]
    if out_m != NULL:
        out_m[0] = m
    core_free(sc)
    free(cands)
    return -1 if failed else best_i


cdef int lookahead_choose(Core* k, int side) noexcept nogil:
    cdef int playout = k.look_playout[side]
    if playout == LEVEL or not level_known(playout):
        return -1                                 # never itself: no recursion
    if k.kind < 0 or k.kind >= N_KINDS or not IS_STRATEGIC[k.kind]:
        return level_choice(k, side, playout)
    return _weigh(k, side, playout, NULL, NULL, NULL)


def weigh(GoaCore core) -> tuple:
    """Weigh the options of the core's pending decision as the lookahead of its side would
    (its parameters from ``set_params``): ``(the options weighed, as indices; the total value
    of each one's play-outs; the index picked)``. It draws from the side's policy stream as
    the lookahead does. For tests and for studying a decision."""
    cdef Core* k = &core.k
    cdef int side = k.side, n = k.n_opts, m = 0, pick
    if not k.pending or k.error:
        raise RuntimeError("no decision is pending")
    playout = k.look_playout[side]
    if playout == LEVEL or not level_known(playout) or k.look_samples[side] < 1:
        raise RuntimeError(f"the lookahead of side {side} has no parameters (set_params)")
    cdef int32_t* cands = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
    cdef double* totals = <double*>malloc(max(n, 1) * sizeof(double))
    if cands == NULL or totals == NULL:
        free(cands)
        free(totals)
        raise MemoryError()
    try:
        k.pending = False                         # as inside ask(), where the policy is asked
        pick = _weigh(k, side, playout, cands, totals, &m)
        k.pending = True
        if pick < 0:
            raise RuntimeError("a play-out failed (out of memory, or a play-out level gave "
                               "no valid answer)")
        return [cands[i] for i in range(m)], [totals[i] for i in range(m)], pick
    finally:
        free(cands)
        free(totals)


def set_params(GoaCore core, int side, int horizon, int samples, int max_options,
               int playout) -> None:
    """Give ``side`` of ``core`` the lookahead's parameters (``GoaLookaheadPolicy`` does it
    for a game): months played on after the decision's month, play-outs per option, options
    weighed at most, and the level that plays the play-outs (``LEVEL_RANDOM`` or a compiled
    ladder level, not ``LOOKAHEAD``)."""
    if side != ALLIED and side != CENTRAL:
        raise ValueError(f"side must be 0 (Allied) or 1 (Central), not {side}")
    if not 0 <= horizon <= MAX_HORIZON:
        raise ValueError(f"horizon must be 0 .. {MAX_HORIZON} months, not {horizon}")
    if not 1 <= samples <= MAX_SAMPLES:
        raise ValueError(f"samples must be 1 .. {MAX_SAMPLES}, not {samples}")
    if not 1 <= max_options <= MAX_OPTIONS:
        raise ValueError(f"max_options must be 1 .. {MAX_OPTIONS}, not {max_options}")
    if playout == LEVEL or not level_known(playout):
        raise ValueError(f"the play-out level must be the random policy or a compiled ladder "
                         f"level other than the lookahead's, not {playout}")
    core.k.look_horizon[side] = horizon
    core.k.look_samples[side] = samples
    core.k.look_max_options[side] = max_options
    core.k.look_playout[side] = playout


if register_chooser(LOOKAHEAD, lookahead_choose) != 0:
    raise RuntimeError("the compiled core refused the lookahead policy's ladder level")
