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
end position is worth ``end_value`` to the side: the VP margin the game scores (``VALUE_VP``:
the objective cities the Central Powers hold, to them, and minus that to the Allies), or the
broader ``position_value`` (``VALUE_POSITION``, below), which a short horizon needs.

**Which option is played.** The play-out level's own pick is weighed first and is played
unless another option beats it on the same dice: the mean of its paired gains (its play-out
``j`` less the pick's play-out ``j``) must be the largest, above ``look_margin``, and more than
``look_confidence`` standard errors of those gains. Picking the best of a few noisy means
favours the luckiest option (the winner's curse); the paired test keeps the play-out level's
choice where the play-outs cannot tell the options apart, so that the lookahead is its play-out
level improved where the evidence says so. Every other decision of the side is answered as the
play-out level answers it.

Options weighed: all of them when there are at most ``look_max_options``, else the play-out
level's pick and ``look_max_options - 1`` others drawn from the policy stream, the others
weighed in the order of their indices. Play-outs call no Python and never look ahead again
(their levels are the play-out level's), so a decision costs at most ``look_max_options x
look_samples`` play-outs of ``look_horizon`` months and a bit.

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
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t
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
    VALUE_POSITION = 0
    VALUE_VP = 1

#: what a play-out's end is worth (``set_params(value=)``): ``position_value``, or the VP
#: margin the game scores
VALUES = {"position": VALUE_POSITION, "vp": VALUE_VP}

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

#: each strategic kind's code (``codes.Kind``), for ``set_params(kinds=)``
KIND_CODES = {"trade": K_TRADE, "gift": K_GIFT, "invade": K_INVADE, "economy": K_ECONOMY,
              "conscription": K_CONSCRIPTION, "usw": K_USW, "land": K_LAND,
              "send_supply": K_SEND_SUPPLY, "ship": K_SHIP, "marines": K_MARINES,
              "garrison": K_GARRISON, "abyssinia": K_ABYSSINIA}

#: the decision kinds the lookahead weighs by play-outs (``codes.Kind`` names, lower case)
STRATEGIC = frozenset(KIND_CODES)

#: the most of each parameter (``set_params``): a decision costs up to
#: max_options x samples play-outs of horizon + 1 months
MAX_HORIZON = 72
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
                      int how, uint64_t seed, bint* failed) noexcept nogil:
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
    return end_value(sc.t, &sc.s, side, how)


cdef double end_value(const GoaT* t, const GoaS* s, int side, int how) noexcept nogil:
    # what a play-out's end position is worth to `side`: position_value, or the VP margin the
    # game scores (the objective cities the Central Powers hold, to them; minus it to the Allies)
    cdef int vp
    if how == VALUE_VP:
        vp = objectives_held(t, s, CENTRAL)
        return <double>vp if side == CENTRAL else -<double>vp
    return position_value(t, s, side)


cdef inline bint _confirmed(double sum_d, double sum_dd, int n, double z) noexcept nogil:
    # the mean of n paired gains is more than z standard errors above zero
    cdef double mean = sum_d / n, var
    if n < 2 or z <= 0.0:
        return True
    var = (sum_dd - n * mean * mean) / (n - 1)
    return var <= 0.0 or mean * mean * n > z * z * var


cdef int _weigh(Core* k, int side, int playout, int32_t* out_cands, double* out_totals,
                int32_t* out_counts, int* out_m) noexcept nogil:
    # the option picked (-1 on failure); with out_*, the options weighed (the play-out
    # level's pick first), their play-outs' total values, how many play-outs each and how
    # many options (room for n_opts each)
    cdef int n = k.n_opts, m, i, j, pick, tmp, best_i, want, top
    cdef int cap = k.look_max_options[side], most = k.look_max_samples[side]
    cdef int end = k.month + k.look_horizon[side], how = k.look_value[side]
    cdef double v, d, mean, best_gain, top_gain
    cdef double margin = k.look_margin[side], z = k.look_confidence[side]
    cdef bint failed = False
    cdef uint64_t base, mix
    cdef int32_t* cands
    cdef int32_t* count                           # [m] play-outs made of each option
    cdef bint* live                               # [m] still weighed
    cdef double* vals                             # [m, most] each play-out's value
    cdef double* sum_d                            # [m] its paired gains over the pick's
    cdef double* sum_dd
    cdef Core* sc
    if k.look_samples[side] < 1 or cap < 1 or k.look_horizon[side] < 0:
        return -1                                 # set_params was not called for this side
    if most < k.look_samples[side]:
        most = k.look_samples[side]
    pick = level_choice(k, side, playout)
    if pick < 0 or pick >= n:
        return -1
    if cap == 1 or n == 1:                        # nothing to weigh
        if out_m != NULL:
            out_m[0] = 1
            out_cands[0] = pick
            out_totals[0] = 0.0
            out_counts[0] = 0
        return pick
    m = n if n < cap else cap
    cands = <int32_t*>malloc(n * sizeof(int32_t))
    count = <int32_t*>malloc(m * sizeof(int32_t))
    live = <bint*>malloc(m * sizeof(bint))
    vals = <double*>malloc(m * most * sizeof(double))
    sum_d = <double*>malloc(m * sizeof(double))
    sum_dd = <double*>malloc(m * sizeof(double))
    sc = NULL
    if cands == NULL or count == NULL or live == NULL or vals == NULL or sum_d == NULL \
            or sum_dd == NULL:
        best_i = -1
        failed = True
    else:
        # the play-out level's pick first, then the others: all of them, or cap - 1 drawn
        # without replacement; each in the order of their indices
        for i in range(n):
            cands[i] = i
        cands[0] = pick
        cands[pick] = 0
        if n > cap:
            for i in range(1, cap):
                j = i + below(&k.pol[side], n - i)
                tmp = cands[i]
                cands[i] = cands[j]
                cands[j] = tmp
        for i in range(2, m):
            tmp = cands[i]
            j = i - 1
            while j >= 1 and cands[j] > tmp:
                cands[j + 1] = cands[j]
                j -= 1
            cands[j + 1] = tmp
        base = sm_next(&k.pol[side])
        sc = core_copy(k, False)
        failed = sc == NULL
        best_i = pick
    if not failed:
        for i in range(m):
            count[i] = 0
            live[i] = True
            sum_d[i] = 0.0
            sum_dd[i] = 0.0
        want = k.look_samples[side]
        while True:
            # play the live options (the pick among them) up to `want` play-outs each
            for i in range(m):
                if not live[i]:
                    continue
                for j in range(count[i], want):
                    mix = base ^ (<uint64_t>(j + 1) * 0xD1B54A32D192ED03ULL)
                    v = _play_out(sc, k, side, cands[i], playout, end, how, mix, &failed)
                    if failed:
                        break
                    vals[i * most + j] = v
                    if i > 0:
                        d = v - vals[j]           # the same dice: a paired gain
                        sum_d[i] += d
                        sum_dd[i] += d * d
                if failed:
                    break
                count[i] = want
            if failed:
                break
            # An option stays weighed while its mean gain is above the margin. The one with
            # the largest mean gain is played once it is confirmed (z standard errors); while
            # it is not, but is promising (z / 2), the live options get more play-outs, up to
            # `most`; then the confirmed option with the largest mean gain is played, or the
            # pick.
            best_i = pick                         # the confirmed one with the largest mean
            best_gain = margin
            top = -1                              # the live one with the largest mean
            top_gain = margin
            for i in range(1, m):
                if not live[i]:
                    continue
                mean = sum_d[i] / count[i]
                if mean <= margin:
                    live[i] = False
                    continue
                if mean > top_gain:
                    top_gain = mean
                    top = i
                if mean > best_gain and _confirmed(sum_d[i], sum_dd[i], count[i], z):
                    best_gain = mean
                    best_i = cands[i]
            if top < 0 or best_i == cands[top] or want >= most \
                    or not _confirmed(sum_d[top], sum_dd[top], count[top], z / 2.0):
                break
            want = 2 * want if 2 * want < most else most
    if out_m != NULL and not failed:
        out_m[0] = m
        for i in range(m):
            out_cands[i] = cands[i]
            out_counts[i] = count[i]
            out_totals[i] = 0.0
            for j in range(count[i]):
                out_totals[i] += vals[i * most + j]
    if sc != NULL:
        core_free(sc)
    free(cands)
    free(count)
    free(live)
    free(vals)
    free(sum_d)
    free(sum_dd)
    return -1 if failed else best_i


cdef int lookahead_choose(Core* k, int side) noexcept nogil:
    cdef int playout = k.look_playout[side]
    if playout == LEVEL or not level_known(playout):
        return -1                                 # never itself: no recursion
    if k.kind < 0 or k.kind >= N_KINDS or not (k.look_kinds[side] >> k.kind) & 1:
        return level_choice(k, side, playout)
    return _weigh(k, side, playout, NULL, NULL, NULL, NULL)


def weigh(GoaCore core) -> tuple:
    """Weigh the options of the core's pending decision as the lookahead of its side would
    (its parameters from ``set_params``): ``(the options weighed, as indices, the play-out
    level's pick first; the total value of each one's play-outs; how many play-outs each; the
    index picked)``. It draws from the side's policy stream as the lookahead does. For tests
    and for studying a decision."""
    cdef Core* k = &core.k
    cdef int side = k.side, n = k.n_opts, m = 0, pick
    if not k.pending or k.error:
        raise RuntimeError("no decision is pending")
    playout = k.look_playout[side]
    if playout == LEVEL or not level_known(playout) or k.look_samples[side] < 1:
        raise RuntimeError(f"the lookahead of side {side} has no parameters (set_params)")
    cdef int32_t* cands = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
    cdef double* totals = <double*>malloc(max(n, 1) * sizeof(double))
    cdef int32_t* counts = <int32_t*>malloc(max(n, 1) * sizeof(int32_t))
    if cands == NULL or totals == NULL or counts == NULL:
        free(cands)
        free(totals)
        free(counts)
        raise MemoryError()
    try:
        k.pending = False                         # as inside ask(), where the policy is asked
        pick = _weigh(k, side, playout, cands, totals, counts, &m)
        k.pending = True
        if pick < 0:
            raise RuntimeError("a play-out failed (out of memory, or a play-out level gave "
                               "no valid answer)")
        return ([cands[i] for i in range(m)], [totals[i] for i in range(m)],
                [counts[i] for i in range(m)], pick)
    finally:
        free(cands)
        free(totals)
        free(counts)


def set_params(GoaCore core, int side, int horizon, int samples, int max_options,
               int playout, double margin=0.0, double confidence=0.0,
               int value=VALUE_POSITION, int max_samples=0, kinds=None) -> None:
    """Give ``side`` of ``core`` the lookahead's parameters (``GoaLookaheadPolicy`` does it
    for a game): months played on after the decision's month, play-outs per option, options
    weighed at most, the level that plays the play-outs (``LEVEL_RANDOM`` or a compiled
    ladder level, not ``LOOKAHEAD``), the gain over that level's pick an option must show
    (``margin``, in value units, and ``confidence``, in standard errors), what an end is
    worth (``VALUES``) and the play-outs an option may get at most while its gain is not yet
    confirmed (``max_samples``; 0 or less than ``samples``: ``samples``) and the strategic
    kinds it weighs (``kinds``, names of ``STRATEGIC``; None: all of them; the play-out level
    answers the others)."""
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
    if not margin >= 0.0 or not confidence >= 0.0:
        raise ValueError(f"margin and confidence must be at least 0, not {margin} and "
                         f"{confidence}")
    if not 0 <= max_samples <= MAX_SAMPLES:
        raise ValueError(f"max_samples must be 0 .. {MAX_SAMPLES}, not {max_samples}")
    if value not in (VALUE_POSITION, VALUE_VP):
        raise ValueError(f"value must be one of {sorted(VALUES.values())}, not {value}")
    cdef uint32_t mask = 0
    for name in (STRATEGIC if kinds is None else kinds):
        if name not in KIND_CODES:
            raise ValueError(f"kinds must be strategic decision kinds "
                             f"({', '.join(sorted(STRATEGIC))}), not {name!r}")
        mask |= (<uint32_t>1) << <int>KIND_CODES[name]
    core.k.look_horizon[side] = horizon
    core.k.look_samples[side] = samples
    core.k.look_max_samples[side] = max_samples if max_samples > samples else samples
    core.k.look_max_options[side] = max_options
    core.k.look_playout[side] = playout
    core.k.look_margin[side] = margin
    core.k.look_confidence[side] = confidence
    core.k.look_value[side] = value
    core.k.look_kinds[side] = mask


if register_chooser(LOOKAHEAD, lookahead_choose) != 0:
    raise RuntimeError("the compiled core refused the lookahead policy's ladder level")
