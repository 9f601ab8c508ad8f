# The turn loop of The Guns of August as a resumable C state machine (engine.pyx).
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

from gwe_fast._core.goa.rules cimport Facts
from gwe_fast._core.goa.tables cimport CoreTables, GoaS, GoaT


# A compiled policy: the index it picks among core.opts[0 .. n_opts - 1] for the pending
# decision (core.kind, .side, .subject, .secret); -1 when it cannot answer (an error).
ctypedef int (*chooser_t)(Core* core, int side) noexcept nogil


cdef enum:
    # the ladder policies' room in Core (GoaCore refuses tables that exceed it)
    LADDER_AREAS = 32             # sea areas (the tables' own bound)
    LADDER_SQUADRONS = 1024       # squadrons
    N_LADDER_PARAMS = 4           # P_AGGRESSION, P_CAUTION, P_USW, P_GIFT
    P_AGGRESSION = 0
    P_CAUTION = 1
    P_USW = 2
    P_GIFT = 3
    N_HISTORY_COLS = 5            # a historical row: kind, who, against, month, until


cdef struct Core:
    const GoaT* t
    GoaS s                        # every pointer into sbuf
    # the memory of the game (core_copy re-points every pointer into it by its offset):
    void* block                   # the working lists' one allocation (below), block_size bytes
    size_t block_size
    uint8_t* sbuf                 # the state's buffer (a GoaState's), sbuf_size bytes
    size_t sbuf_size
    uint64_t dice                 # the game's dice stream ("goa")
    uint64_t pol[2]               # each side's policy stream ("goa-policy-allied" / "-central")
    int level[2]                  # who answers a side: LEVEL_EXTERNAL, LEVEL_RANDOM, a ladder level
    # the decision being asked (pending when run() returned RUN_DECISION)
    bint pending
    int kind, side, subject
    bint secret
    int n_opts
    int32_t* opts
    int answer                    # the index choose() gave, consumed when the step resumes
    int64_t decisions             # decisions asked (one option: not asked, as the reference)
    int64_t decisions_in_c        # of which answered inside the core
    int error                     # a compiled policy gave a bad index (1)
    # where the month stands
    int pc, month
    int cs, ci, cj                # cursors of the step: side, item, sub-step
    bint stop_month_end
    int month_ended               # the month that ended (RUN_MONTH_END)
    # the month's working lists (one allocation, sized by the tables)
    int n_rolls
    int32_t* roll_kind
    int32_t* roll_c
    int32_t* roll_mod
    int32_t* roll_extra
    int32_t* roll_result
    int picks[2]
    int32_t* orders               # [Q] squadron orders, -1 not ordered
    int8_t* subs                  # [2 A]
    int8_t* forgo                 # [2 A]
    int32_t* sends                # [C], -1 not asked
    int32_t* land_orders          # [C]
    int8_t* short_                # [C]
    int32_t* alloc                # [F C]
    # landings: the month's picks in the order made (country, target kind, index, source,
    # units), at most 6 C (N.85)
    int npicks
    int32_t* pick_c
    int32_t* pick_kind
    int32_t* pick_index
    int32_t* pick_src
    int32_t* pick_n
    int nt                        # the targets of the country being asked: kind, index, source
    int32_t* tkind                # [(B + P + L) (1 + L + C)]
    int32_t* tindex
    int32_t* tsrc
    int32_t* committed            # [1 + L + C] units committed from each source (+1: HOME = -1)
    uint8_t* done                 # [B + P + L] places landed on this phase
    # colonial moves: the rows (side, country, code) in the order asked, and the units already
    # ordered out of each source of the country being asked ([L + 2], colonial.move_options)
    int64_t nmoves, cap_moves
    int32_t* move_rows
    int32_t* mv_pending
    int32_t* work                 # [max(Q, L, 2 C, 2 (1 + L + C), P) + 8]
    Facts facts                   # the naval option generators' position facts
    int32_t* bmods                # [A, 2] blockade modifiers
    int8_t* area_sides            # [A] bit side: side has squadrons sortied into the area
    # naval combat in one area
    int ca, fstage, fsub, german, fside, flevel, fused, flevel_used, fhit
    int nfleet[2]
    int32_t* fleet[2]             # [Q] each
    int limits[2][3]
    int hits[2]
    int8_t* chosen                # [Q]
    int32_t* hunters              # [Q]
    # per-month history (record) and decision trace (trace)
    bint record
    int32_t* hist                 # [months, C, N_HIST] then [months] objectives held
    int n_hist_months
    bint trace
    int32_t* trace_rows           # [n_trace, 8]
    int64_t n_trace, cap_trace
    # the ladder policies (ladder.pyx): fixed-size, no allocation of their own, so that a copy
    # of the struct is a copy of them
    double ladder_params[2][N_LADDER_PARAMS]   # each side's greedy parameters (set_params)
    int ladder_month[2]           # the month the three arrays below hold for each side
    int32_t ladder_committed[2][LADDER_AREAS]  # gunnery a side has sent to each sea area this
                                               #   month (GoaGreedyPolicy._orders)
    int32_t ladder_potential[2][LADDER_AREAS]  # the enemy's gunnery that could sortie into
                                               #   each area, and its ports on it, as at the
    int32_t ladder_ports[2][LADDER_AREAS]      #   side's first squadron order of the month
    const int32_t* historical     # [n_historical, N_HISTORY_COLS], read-only, owned by GoaCore
    int n_historical
    # the lookahead policy's parameters, per side (lookahead.pyx: set_params)
    int look_horizon[2]           # months played on after the decision's month
    int look_samples[2]           # play-outs of each option, each on its own dice
    int look_max_samples[2]       # ... at most, where a gain is seen but not yet confirmed
    int look_max_options[2]       # options weighed at most (the play-out level's pick among them)
    int look_playout[2]           # the level that plays both sides in the play-outs
    double look_margin[2]         # the mean gain over the play-out level's pick another
                                  #   option must show to be played instead
    double look_confidence[2]     # ... and in standard errors of the paired gains
    int look_value[2]             # what a play-out's end is worth: VALUE_POSITION or VALUE_VP
    uint32_t look_kinds[2]        # the decision kinds it weighs, a bit per kind (of STRATEGIC)


cdef enum:
    # columns of the per-month history, one row per country
    H_SIDE = 0
    H_LIMITED = 1
    H_CONQUERED = 2
    H_STRENGTH = 3
    H_SUPPLY_STOCK = 4
    H_PERSONNEL = 5
    H_SUPPLY = 6
    H_ENEMY_CITIES = 7
    H_MOBILIZED = 8
    H_CONSCRIPTION = 9
    H_BLOCKADE_LOST = 10
    N_HIST = 11


# run until a decision no compiled policy answers (RUN_DECISION), a month's end when asked
# (RUN_MONTH_END) or the game's end (RUN_OVER)
cdef int run_core(Core* k) noexcept nogil
# a compiled policy for ladder level 1 .. N_LEVELS - 1 (codes.pxd); 0 on success
cdef int register_chooser(int level, chooser_t fn) noexcept nogil
# the index `level` (LEVEL_RANDOM, or a registered ladder level) picks for k's pending
# decision as ask() would have it pick for `side`; -1 when no compiled policy has that level
cdef int level_choice(Core* k, int side, int level) noexcept nogil
# bint: `level` is LEVEL_RANDOM or a registered ladder level
cdef bint level_known(int level) noexcept nogil

# Copies of a game in C (lookahead play-outs). A copy shares the tables (t, read-only) and owns
# everything else: the working block and the state buffer (copied, each pointer into them
# re-pointed by its offset) and the growable rows (deep copies).
# core_copy: a new Core, the struct, its block and its state buffer in one allocation, with
# src's decision trace when `trace` (else it traces nothing); NULL when out of memory. Free
# it with core_free (and only it).
cdef Core* core_copy(const Core* src, bint trace) noexcept nogil
cdef void core_free(Core* k) noexcept nogil
# core_assign: make dst, a Core of the same tables with its own block and state buffer, the
# game of src; with src's trace when `trace`, else dst traces nothing. 0, or -1 when out of
# memory (dst is then not a game: assign again or free it)
cdef int core_assign(Core* dst, const Core* src, bint trace) noexcept nogil


cdef class GoaCore:
    cdef Core k
    cdef readonly CoreTables tables
    cdef object _state                  # the GoaState played (made on first use when not given)
    cdef readonly object buffer         # its buffer, written in place
    cdef void* _block
    cdef object _opts_view
    cdef object _historical             # the int32 rows Core.historical points into
