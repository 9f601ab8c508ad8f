# What the compiled cores cimport from play: the attack obligations of a Kaiser's Battle
# Combat Phase as a C record (Obl), which the kernel KbObligations wraps for the Python engine
# and the Kaiser's Battle core (kb/core.pyx) plays on directly; and a Kaiser's Battle exit.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint64_t
from numpy.random cimport bitgen_t

from gwe_fast._core._types cimport cell_t, dist_t, stepcost_t
from gwe_fast._core.bitsearch cimport StepBits
from gwe_fast._core.search cimport SearchWorkspace


cdef struct Obl:
    # the obligations of one position (8.11-8.13, 8.21); room for cap free units, n hexes
    Py_ssize_t n, cap
    Py_ssize_t k                   # free units next to a target
    int32_t* units                 # [k] those units, ascending
    int32_t* adj                   # [6 k] their target hexes, ascending, -1 padded
    int32_t* n_adj                 # [k]
    int32_t* o_idx                 # [n_o] obligated units left: indices into units
    Py_ssize_t n_o
    int32_t* m_cell                # [n_m] obligated stacks left, ascending
    int32_t* m_first               # [n_m + 1] their attackers: att[m_first[i] .. m_first[i+1])
    int32_t* att                   # [6 k]
    Py_ssize_t n_m
    uint8_t* member                # [k] scratch: the members of an attack
    int32_t* cand                  # [k] scratch: the candidates of a declaration
    int32_t* sets                  # [63 k + 1, 7] the targets: size, then up to six hexes


# Outcomes of obl_random_declare besides an attack (its number of attackers, >= 1)
cdef enum:
    OBL_STOP = 0                   # the player stops
    OBL_STUCK = -1                 # obligations left that no attack can meet
    OBL_NEITHER = -2               # a unit that may neither join nor stay out


cdef int obl_alloc(Obl* o, Py_ssize_t n, Py_ssize_t cap) except -1
cdef void obl_release(Obl* o) noexcept nogil
# the position: target[n] the hexes that may be attacked, free_[m] the units that may attack
# (ascending, m <= cap), obligated[n_units] and stacks[n_stacks] (ascending) the phase's
# obligations
cdef void obl_build(Obl* o, const cell_t* nbr, const uint8_t* target, const int32_t* free_,
                    Py_ssize_t m, const int32_t* unit_cell, const uint8_t* obligated,
                    const int32_t* stacks, Py_ssize_t n_stacks) noexcept nogil
# the legal targets into o.sets, by size then hexes; how many
cdef Py_ssize_t obl_targets(Obl* o) noexcept nogil
# a random player's declaration (RandomPolicy): the attackers into attackers, the hexes into
# d (nd of them); each draw among more than one option logged as (decision, options, pick)
# into draws when it is not NULL (room for k + 1), n_draws counting them; returns the number
# of attackers or an OBL_ outcome
cdef Py_ssize_t obl_random_declare(Obl* o, bitgen_t* bg, int32_t* attackers, int32_t* d,
                                   int* nd, int32_t* draws, Py_ssize_t* n_draws) noexcept nogil


# 20.2 (movement.exit_costs): a German unit of allowance ma may leave the map by an exit hex
# it reaches at cost dc (-1: not at all) when entering the hex, enter, fits in what is left; in
# an enemy zone of control only from its own hex in the First Segment, at half its allowance
# more (5.13). The Kaiser's Battle kernel kb_random_moves and its core both ask this.
cdef inline bint exit_allowed(dist_t dc, dist_t enter, bint in_ezoc, bint at_own_hex,
                              bint second, dist_t ma) noexcept nogil:
    if dc < 0:
        return False
    if in_ezoc:
        if not at_own_hex or second:
            return False
        enter += ma // 2
    return dc + enter <= ma


# Whether the searches that have bitboards run on them (always, but for the tests that
# compare them with the other way: play._use_bit_parallel)
cdef bint bit_parallel() noexcept nogil


# The Great War in the East's supply in one position (gwe_supply, whose docstring says what
# each argument is), on arguments the caller has checked: what the Great War in the East's
# core (gwe/core.pyx) asks. starts[n_starts], mine[k]; the unit arrays a value a unit; q, r the
# hexes' axial coordinates (NULL: not given), with which sources too far to matter are skipped.
# rail_bits and line_bits: the two step tables as bitboards (NULL: not made), back_bits the
# line table taken backward (StepSets(..., backward=True)), made once by the caller; with them
# the searches run on bitboards when the tables allow it. rail_keep (NULL: none) keeps the rail
# sources' search from one call to the next: [0] whether it holds one, then the hexes a rail
# source may be among rail_cells (the key), then what the search reached; rail_cells holds every
# start and every hex a rail step leaves or enters (what the search reads of the masks).
# depot_keep (NULL: none) keeps each depot's look back for a source the same way, 1 + 3 nw words
# a unit (nw: the words of a cell set).
cdef int supply_run(SearchWorkspace ws, const stepcost_t* rail_steps,
                    const stepcost_t* line_steps, const StepBits* rail_bits,
                    const StepBits* line_bits, const StepBits* back_bits,
                    const uint8_t* friendly, const uint8_t* ezoc,
                    const uint8_t* own, const uint8_t* enemy_combat, const int32_t* starts,
                    Py_ssize_t n_starts, const int8_t* hex_last, int enemy, const int32_t* mine,
                    Py_ssize_t k, const int32_t* unit_cell, const uint8_t* depot,
                    const int32_t* supply_range, const int32_t* layers, int max_toll,
                    uint8_t* rail, uint8_t* depots, uint8_t* supplied, int cell_range,
                    uint8_t* cells, const int16_t* q, const int16_t* r,
                    uint64_t* rail_keep=*, const uint64_t* rail_cells=*,
                    uint64_t* depot_keep=*) except -1


# The Great War in the East's command radii in one position (gwe_command_radii, whose docstring
# says what each argument is) on checked arguments: tables[n_tab, n_cells, 6], the HQs' arrays
# k long, out[k, n_cells]; tab_bits[n_tab] the tables as bitboards (NULL: not made), made once
# by the caller: with them the radii are searched on bitboards when the tables allow it. keep
# (NULL: none) keeps each radius from one call to the next, 1 + 4 nw words a slot (nw: the words
# of a cell set), HQ j's radius in slot[j]: searched again only when it may have changed.
cdef int command_radii_run(SearchWorkspace ws, const stepcost_t* tables, Py_ssize_t n_tab,
                           const StepBits* tab_bits, const uint8_t* enemy,
                           const int32_t* hq_cell, const int32_t* hq_table,
                           const int32_t* hq_radius, const uint8_t* hq_stopped,
                           const uint8_t* open_zoc, Py_ssize_t k, uint8_t* out,
                           uint64_t* keep=*, const int32_t* slot=*) except -1


# A random player's allocation of k units to h HQs (gwe_random_allocation) on checked
# arguments: cover[k, h], picks[k, 2]; each unit's status one of these
cdef enum:
    _ALLOCATED = 0
    _UNALLOCATED = 1
    _FAR = 2

cdef Py_ssize_t allocation_run(bitgen_t* bg, const uint8_t* cover, Py_ssize_t k,
                               Py_ssize_t h, const int32_t* stacking, int32_t* left,
                               int8_t* status, int32_t* picks,
                               const int32_t* plan) noexcept nogil


# The legal withdrawals of k units (gwe_withdrawals, whose docstring says what each argument
# is) on checked arguments: side_add[t, n, 6], enter_cost[t, n], paths[36 k, 2]; the rows
cdef Py_ssize_t withdrawals_run(const cell_t* nbr, Py_ssize_t n, const int16_t* side_add,
                                const int16_t* enter_cost, const uint8_t* mountain,
                                const uint8_t* enemy_units, const uint8_t* enemy_zoc,
                                const int32_t* to_source, const int32_t* units, Py_ssize_t k,
                                const int32_t* unit_cell, const int8_t* tcr, const uint8_t* car,
                                int32_t* counts, int32_t* paths) noexcept nogil


# The declaration of a Great War in the East attack in one position (AttackPosition, whose
# docstrings say what each question answers), as a C record: the eligible units' arrays are
# k long (indexed by eligible index j), the map's [n, 6] or [n]; ratios [rows, n_cols, 2];
# a, b, c scratch of k + 1 each
cdef struct Atk:
    const cell_t* nb
    const uint8_t* prohibited
    const uint8_t* halved
    const int32_t* units
    const int32_t* cell
    const int32_t* attack
    const uint8_t* cavalry
    const int32_t* nat
    const int32_t* tcr
    const uint8_t* hq
    const int32_t* defense
    const uint8_t* full
    const int32_t* ratios
    Py_ssize_t n_cols
    const int32_t* row_len
    const int32_t* row_of_tcr
    int joint_row
    int german
    int austro
    Py_ssize_t k
    Py_ssize_t n
    int32_t* a
    int32_t* b
    int32_t* c
    # NULL, or the eligible units by hex: first[cell] the lowest index there (-1: none),
    # next_[j] the next index in the same hex (-1: none)
    const int32_t* first
    const int32_t* next_

# the eligible indices next to every one of cells[m] into out; how many
cdef Py_ssize_t atk_candidates(const Atk* p, const int32_t* cells, Py_ssize_t m,
                               int32_t* out) noexcept nogil
# the force s[ns] (eligible indices) reaches its row's lowest odds against cells[m]
cdef bint atk_reaches(const Atk* p, const int32_t* s, Py_ssize_t ns, const int32_t* cells,
                      Py_ssize_t m) noexcept nogil
# twice the attack strength of s[ns] against cells[m] before support (5.4, 12.21; near: the
# hexes within range of a depot burnt for it, whose units' strengths multiplier multiplies,
# 19.21; NULL none), its CRT row (8.8, 17.0; ns > 0), its odds column before support (-1
# below the first) and the column of twice an attack against a defence on a row
cdef int64_t atk_strength2(const Atk* p, const int32_t* s, Py_ssize_t ns, const int32_t* cells,
                           Py_ssize_t m, const uint8_t* near, int64_t multiplier) noexcept nogil
cdef int atk_row(const Atk* p, const int32_t* s, Py_ssize_t ns) noexcept nogil
cdef Py_ssize_t atk_column(const Atk* p, const int32_t* s, Py_ssize_t ns, const int32_t* cells,
                           Py_ssize_t m) noexcept nogil
cdef Py_ssize_t atk_odds(const Atk* p, int row, int64_t attack2, int64_t defense) noexcept nogil
# rail.track_room: what line `line` (0 or 1) of hexside d of hex c can still carry this
# Movement Phase, -1 where there is none (18.31-18.33); limits and used are [n, 6, 2]
cdef inline int16_t track_room(const int16_t* limits, const int16_t* used, Py_ssize_t c,
                               Py_ssize_t d, int line) noexcept nogil:
    cdef Py_ssize_t i = (6 * c + d) * 2 + line
    if limits[i] < 0:
        return -1
    return <int16_t>(limits[i] - used[i])
# a unit of sp Stacking Points may cross hexside i (6 * hex + side) by rail: one of its two
# lines can still carry it (18.31, 18.33)
cdef inline bint track_carries(const int16_t* limits, const int16_t* used, Py_ssize_t i,
                               int sp) noexcept nogil:
    return (track_room(limits, used, i // 6, i % 6, 0) >= sp
            or track_room(limits, used, i // 6, i % 6, 1) >= sp)
# Attack strength in halves (5.4, 12.21, 19.21-19.22), stated once for the declaration
# (atk_strength2) and the resolution (the GWE core's attack_strength2):
# combat.crosses of a unit in here against the defending hexes cells[m]: whether the first
# hexside facing any of them has mask set; seen[0] += the hexes of cells next to here
cdef inline bint crosses_into(const cell_t* nb, const uint8_t* mask, Py_ssize_t here,
                              const int32_t* cells, Py_ssize_t m, int* seen) noexcept nogil:
    cdef Py_ssize_t i
    cdef int d
    cdef bint out = False
    for i in range(m):
        for d in range(6):
            if nb[6 * here + d] == cells[i]:
                seen[0] += 1
                if mask[6 * here + d]:
                    out = True
                break
    return out
# one attacker's strength in halves: halved across a river into a defending hex (5.4), times
# multiplier within range of the depot burnt for the attack (19.21-19.22)
cdef inline int64_t attacker2(int64_t attack, bint halved, bint near,
                              int64_t multiplier) noexcept nogil:
    cdef int64_t a2 = attack if halved else 2 * attack
    return a2 * multiplier if near else a2
# the force's strength in halves from its cavalry's and other units' totals: the cavalry's cut
# to a quarter, fractions dropped, when cut (a defending hex holds more than cavalry, depots
# and HQs: 12.21)
cdef inline int64_t force2(int64_t cav2, int64_t other2, bint cut) noexcept nogil:
    return (2 * (cav2 // 8) if cut else cav2) + other2
# 8.4: twice the attack strength attack2 against defense reaches the ratio (attack, defense)
cdef inline bint odds_reached(int64_t attack2, int64_t defense, const int32_t* ratio) noexcept nogil:
    return attack2 * ratio[1] >= 2 * defense * ratio[0]
# the hex may be attacked now (step 1 of a declaration)
cdef bint atk_target(const Atk* p, int32_t cell) noexcept nogil
# one step of a declaration on hexes[m] (room for m + 1) by att[na] (eligible indices, room for
# na + 1): the units that may join into units (eligible indices), the targets[n_targets] that
# may join into out; whether the force may stop here ("done")
cdef bint atk_options(const Atk* p, int32_t* hexes, Py_ssize_t m, int32_t* att, Py_ssize_t na,
                      const int32_t* targets, Py_ssize_t n_targets, int32_t* units,
                      Py_ssize_t* n_units, int32_t* out, Py_ssize_t* n_out) noexcept nogil


# The defenders of every hex of one side (gwe_hex_defenses, whose docstring says what each
# argument is) on checked arguments: values [n_units, v_cols]; mark room for n bytes and n int32
cdef void hex_defenses_run(const int32_t* units, Py_ssize_t k, const int32_t* unit_cell,
                           const uint8_t* is_hq, const uint16_t* flags, const uint16_t* status,
                           const int16_t* values, Py_ssize_t v_cols, const int8_t* stacking,
                           const int16_t* hq_combat, const uint8_t* panicking,
                           const uint8_t* no_trench, const int8_t* doubled, const int8_t* trench,
                           const uint8_t* fortress, const uint8_t* within, Py_ssize_t n,
                           int retreated_in, int defended, int entrained, int32_t* total,
                           uint8_t* attackable, uint8_t* mark) noexcept nogil


# A Great War in the East Movement Segment for a player who picks at random (gwe_random_moves,
# whose docstring and its twin's say what each argument is) as a C record, on checked
# arguments: the facts of the enemy's position, the roster, the state it moves, the scratch.
# gwe_moves_run plays it until the segment ends or the caller must act, and leaves at, rows
# and used for the next call. The Great War in the East's core (gwe/core.pyx) plays on it
# directly, with the two hooks set: the units the kernel would hand back (23.52, 24.42) are
# then played here, the hooks rolling their dice.
cdef enum:
    MV_DONE = 0                    # the statuses (GWE_DONE ...)
    MV_HANDOVER = 1
    MV_MOVED = 2
    MV_FULL = 3
    MV_ROSTER_COLUMNS = 6          # the roster (ROSTER_COLUMNS, R_UNIT ...)
    MV_R_UNIT = 0
    MV_R_TABLE = 1
    MV_R_ALLOWANCE = 2
    MV_R_ENTRAIN_TCR = 3
    MV_R_STACKING = 4
    MV_R_TRAITS = 5
    MV_T_HANDOVER = 1              # the traits (T_HANDOVER, T_HQ), and one the core sets:
    MV_T_HQ = 2
    MV_T_HEXWISE = 4               # moved hex by hex, asking survives after each (23.52)
    MV_HEX_ROWS = 5                # the hex masks (H_RAIL ...)
    MV_H_RAIL = 0
    MV_H_EZOC = 1
    MV_H_ENEMY = 2
    MV_H_ENEMY_HQ = 3
    MV_H_HQ_ALONE = 4
    MV_LOG_COLUMNS = 7
    MV_KIND_HQ = 1                 # a unit's kind bits (gwe_roster)
    MV_KIND_CAR = 2
    MV_KIND_AH = 4
    MV_ENTRAIN = 1                 # the last option of an action, for decide
    MV_DETRAIN = 2

cdef struct GweMoves:
    bitgen_t* bg                   # the player's generator
    const cell_t* nb               # [n, 6]
    Py_ssize_t n
    const stepcost_t* tables       # [n_tab, n, 6]
    Py_ssize_t n_tab
    const stepcost_t* rail_table   # [n, 6]
    const int16_t* limits          # [n, 6, 2]
    int16_t* track_used            # [n, 6, 2]
    bint track_on
    const int32_t* roster          # [k, MV_ROSTER_COLUMNS]
    Py_ssize_t k
    uint8_t* done                  # [n_units]
    const uint8_t* hexes           # [MV_HEX_ROWS, n]
    const int32_t* threats
    Py_ssize_t n_threats
    int side
    int rate
    int capacity
    int16_t* rail_used             # [2]
    cell_t* unit_cell              # [n_units]
    uint16_t* unit_status
    int8_t* hex_last               # [n]
    uint16_t* flags
    int16_t* spent
    int16_t* rail_hexes
    int32_t* log                   # [cap, MV_LOG_COLUMNS]; NULL: nothing logged
    Py_ssize_t cap
    int32_t* paths                 # [n_paths]; with no log, scratch for one rail path
    Py_ssize_t n_paths
    cell_t* offered                # scratch [k + 1 + n]
    int32_t* here_count            # [n] the player's combat units in each hex (the caller's)
    stepcost_t* fit                # scratch [6 n]
    int32_t* rail_list             # scratch [6 n + 1]: the steps of the rail table
    Py_ssize_t n_rail_fixed        # -1, or: rail_list holds this many steps, every one the
                                   # rail table may open, and fit is -1 at every other step
    # carried from call to call: the roster row under way (-1 none), log rows and path
    # entries used, the unit that moved last (10.52), hexes entered since the unit under way
    # was picked or detrained (23.52)
    Py_ssize_t at
    Py_ssize_t rows
    Py_ssize_t used
    Py_ssize_t moved
    int hexes_moved
    # the hooks (NULL: hand such units back): after each hex a hexwise unit enters, with the
    # hexes and the points spent, or on entraining it (hexes -1): False when it was eliminated
    # (23.52-23.53); when a unit handed over before stops (24.42)
    void* ctx
    bint (*survives)(void* ctx, Py_ssize_t u, int hexes, int spent) noexcept nogil
    void (*stopped)(void* ctx, Py_ssize_t u) noexcept nogil
    # who decides (NULL: the player picks at random, a draw on bg): the index, in the order
    # the Python engine lists them, of the unit picked (u = -1; the roster rows offered in
    # moves, n_moves of them) or of the action of unit u (stop, the n_moves hexes of moves in
    # any order, then MV_ENTRAIN or MV_DETRAIN as last says, or neither: 0). It may use the
    # search workspace and the scratch, so the kernel lists the options again before it
    # plays the answer (pending: an answer got and not yet played, -1 none).
    int64_t (*decide)(void* ctx, Py_ssize_t u, const cell_t* moves, Py_ssize_t n_moves,
                      int last) except -1 nogil
    int64_t pending

cdef int gwe_moves_run(GweMoves* p, SearchWorkspace ws) except -1 nogil

# movement.movement_allowance: the printed allowance halved out of supply, down but never
# below one (9.21), but for an HQ (10.35) and cavalry living off the land (19.42)
cdef inline int mv_allowance(int printed, uint16_t status, uint16_t flags, bint hq,
                             uint16_t out_of_supply, uint16_t off_land) noexcept nogil:
    if status & out_of_supply and not hq and not flags & off_land:
        return printed // 2 if printed // 2 > 1 else 1
    return printed

# gwe_roster on checked arguments: units[k] ascending, values [n_units, max_steps, v_cols],
# rank scratch of n_keys; returns the keys written
cdef Py_ssize_t roster_run(const int32_t* units, Py_ssize_t k, const int8_t* unit_step,
                           const uint16_t* unit_status, const uint16_t* flags,
                           const int16_t* values, Py_ssize_t max_steps, Py_ssize_t v_cols,
                           const int8_t* tcr,
                           const int8_t* stacking, const uint8_t* kind, int out_of_supply,
                           int out_of_command, int off_land, bint never_by_rail,
                           int32_t* roster, int32_t* keys, Py_ssize_t n_keys,
                           int32_t* rank) noexcept nogil
