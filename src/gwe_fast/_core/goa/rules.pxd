# Every rule of The Guns of August once, as C functions over the tables (GoaT) and the state
# (GoaS), for the core's turn loop and for policies written in C. Each mirrors the function
# of the same name in games/goa/*.py (the module is named in the comment above it).
# Option generators write the legal codes to `out` (room for GoaT.max_options) and return
# how many; functions that roll take the game's dice stream.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

from gwe_fast._core.goa.codes cimport NEUTRAL, SHIP_BATTLECRUISER, SHIP_BATTLESHIP, SHIP_DREADNOUGHT
from gwe_fast._core.goa.tables cimport GoaS, GoaT


# Position facts the naval option generators read, computed by facts_of() in one pass over the
# ports and squadrons; valid until the state changes. The caller owns the arrays.
cdef struct Facts:
    uint8_t* usable                   # [2, NPL] place_usable(place, side)
    uint64_t* usable_bits             # [2, NW] the same as bit sets
    uint32_t* port_areas              # [2, C] sea areas (in play or not) of c's ports side may use
    uint32_t open_[2]                 # areas in play not blockaded against side
    uint32_t foe_prev[2]              # areas side's enemy blockaded last month (N.33)
    uint64_t foe_bits[2][8]           # places holding a squadron (not sunk) of side's enemy


# -- bit sets: the lowest bit set (m != 0) -----------------------------------------------------
cdef extern from *:
    int __builtin_ctz(unsigned int) nogil
    int __builtin_ctzll(unsigned long long) nogil


cdef inline int lowest_bit(uint32_t m) noexcept nogil:
    return __builtin_ctz(m)


cdef inline int lowest_bit64(uint64_t m) noexcept nogil:
    return __builtin_ctzll(m)


# -- arithmetic: Python's floor division, for the few places a sign is not certain -------------
# (b > 0 wherever the rules divide: table counts, percentages, corps)
cdef inline int64_t fdiv(int64_t a, int64_t b) noexcept nogil:
    if a >= 0:
        return a / b
    return -((-a + b - 1) / b)


cdef inline int64_t ceil_div(int64_t a, int64_t b) noexcept nogil:
    if a >= 0:
        return (a + b - 1) / b
    return -((-a) / b)


cdef inline int enemy(int side) noexcept nogil:
    return 1 - side if side < 2 else 2


cdef inline int64_t pmod(int64_t a, int64_t b) noexcept nogil:
    return a - b * fdiv(a, b)


cdef inline int month_of_year(int month) noexcept nogil:
    return <int>pmod(month + 7, 12) + 1


cdef inline int year_of(int month) noexcept nogil:
    return 1914 + <int>fdiv(month + 7, 12)


# -- world.py ---------------------------------------------------------------------------------
cdef inline bint at_war(const GoaS* s, int c) noexcept nogil:
    return c >= 0 and s.side[c] != NEUTRAL and s.conquered[c] < 0


cdef inline bint at_war_with(const GoaS* s, int c, int d) noexcept nogil:
    return at_war(s, c) and at_war(s, d) and s.side[c] != s.side[d]


cdef inline int side_of(const GoaS* s, int c) noexcept nogil:
    return s.side[c] if c >= 0 else NEUTRAL


cdef inline bint port_closed(const GoaT* t, const GoaS* s, int p) noexcept nogil:
    cdef int c = t.p_country[p]
    return t.p_off_map[p] != 0 and c >= 0 and s.conquered[c] >= 0


cdef inline int port_control(const GoaT* t, const GoaS* s, int p) noexcept nogil:
    cdef int k = t.p_city[p]
    if k >= 0:
        return s.city[k]
    return side_of(s, t.p_country[p])


cdef inline bint port_usable(const GoaT* t, const GoaS* s, int p, int side) noexcept nogil:
    if not t.p_in_play[p] or port_closed(t, s, p):
        return False
    if port_control(t, s, p) != side:
        return False
    cdef int closer = t.p_closed_by[p]
    if closer >= 0:
        if at_war(s, closer) and s.side[closer] == enemy(side):
            return False
        if s.conquered[closer] >= 0 and s.side[closer] == side:
            return False
    return True


# naval.place_usable
cdef inline bint place_usable(const GoaT* t, const GoaS* s, int place, int side) noexcept nogil:
    if place < t.P:
        return port_usable(t, s, place, side)
    return t.colonies and s.colony[place - t.P] == side


cdef void facts_of(const GoaT* t, const GoaS* s, Facts* f) noexcept nogil
# the facts that naval combat, blockades and moves change (open_, foe_prev):
# enough after them while no port, city or colony has changed hands (facts_of's usable stands)
cdef void facts_at_sea(const GoaT* t, const GoaS* s, Facts* f) noexcept nogil
cdef int enemy_held_cities(const GoaT* t, const GoaS* s, int c) noexcept nogil
cdef int objectives_held(const GoaT* t, const GoaS* s, int side) noexcept nogil
cdef bint any_belligerent(const GoaT* t, const GoaS* s, int side) noexcept nogil

# -- entry.py ---------------------------------------------------------------------------------
cdef void join(const GoaT* t, GoaS* s, int c, int side, int month, bint limited) noexcept nogil
cdef void leave(const GoaT* t, GoaS* s, int c) noexcept nogil
cdef bint provoked(const GoaT* t, const GoaS* s) noexcept nogil
cdef void britain_provoked(const GoaT* t, GoaS* s, int month) noexcept nogil
cdef int rolls_for_entry(const GoaT* t, const GoaS* s, int32_t* out) noexcept nogil
cdef int entry_modifier(const GoaT* t, const GoaS* s, int c) noexcept nogil
cdef int entry_outcome(const GoaT* t, const GoaS* s, int c, int total, bint* limited) noexcept nogil
cdef void apply_entry_roll(const GoaT* t, GoaS* s, int c, int total, int month) noexcept nogil
cdef void base_entries(const GoaT* t, GoaS* s, int month) noexcept nogil
cdef int invadable(const GoaT* t, const GoaS* s, int32_t* out) noexcept nogil
cdef void invade(const GoaT* t, GoaS* s, int c, int month) noexcept nogil
cdef int gift_options(const GoaT* t, const GoaS* s, int side, int month, int32_t* out) noexcept nogil
cdef void give(const GoaT* t, GoaS* s, int side, int q) noexcept nogil

# -- economy.py -------------------------------------------------------------------------------
cdef int us_ready_month(const GoaT* t, const GoaS* s) noexcept nogil
cdef int supply_due(const GoaT* t, const GoaS* s, int c, int month) noexcept nogil
cdef int personnel_due(const GoaT* t, const GoaS* s, int c) noexcept nogil
cdef void produce(const GoaT* t, GoaS* s, int month) noexcept nogil
cdef void reinforce(const GoaT* t, GoaS* s, int month) noexcept nogil
cdef bint may_change_policy(const GoaT* t, const GoaS* s, int c, int month) noexcept nogil
cdef void set_mobilization(const GoaT* t, GoaS* s, int c, bint on, int month) noexcept nogil
cdef void set_conscription(const GoaT* t, GoaS* s, int c, bint on) noexcept nogil
cdef bint sea_route(const GoaT* t, const GoaS* s, int c, int d) noexcept nogil
# SEND_AMOUNTS: the supply points option i (0-2) of a shipment sends (N.79)
cdef inline int send_amount(int i) noexcept nogil:
    return 2 if i == 0 else (4 if i == 1 else 8)


cdef int supply_options(const GoaT* t, const GoaS* s, const Facts* f, int c, int32_t* out) noexcept nogil
cdef void send_supply(const GoaT* t, GoaS* s, int c, int code) noexcept nogil
cdef void russian_sea_supply(const GoaT* t, GoaS* s) noexcept nogil
cdef int marines_max(const GoaT* t, const GoaS* s, int month) noexcept nogil
cdef void make_marines(const GoaT* t, GoaS* s, int n, int month) noexcept nogil

# -- morale.py --------------------------------------------------------------------------------
cdef bint roll_month(const GoaT* t, int month) noexcept nogil
cdef int morale_table(const GoaT* t, int total) noexcept nogil
cdef int policy_modifier(const GoaS* s, int c) noexcept nogil
cdef int morale_modifier(const GoaT* t, const GoaS* s, int c, int month) noexcept nogil
cdef void apply_morale(const GoaT* t, GoaS* s, int c, int result, int month) noexcept nogil
cdef void new_roll_period(GoaS* s, int c) noexcept nogil
cdef int favour(const GoaS* s, int kind, int c, int side) noexcept nogil
# what each die 1..6 gives on the roll (out[0 .. 5]): a morale result (MOR_*), or for an entry
# roll 2 * the side it joins + 1 if as a limited participant
cdef void outcomes(const GoaT* t, const GoaS* s, int kind, int c, int modifier,
                   int8_t* out) noexcept nogil
cdef bint might_affect(const GoaT* t, const GoaS* s, int kind, int c, int modifier,
                       int shift) noexcept nogil
cdef int trade_options(const GoaT* t, const GoaS* s, const int32_t* kinds, const int32_t* countries,
                       const int32_t* mods, int n, int side, int32_t* out) noexcept nogil

# -- surrender.py -----------------------------------------------------------------------------
cdef void conquer(const GoaT* t, GoaS* s, int c, int by, int month) noexcept nogil
cdef bint triple_target(const GoaT* t, const GoaS* s, int c) noexcept nogil
cdef void set_triple(const GoaT* t, GoaS* s, int c, bint on) noexcept nogil
cdef void occupation_conquests(const GoaT* t, GoaS* s, int month) noexcept nogil
cdef void abandoned_off_map_ports(const GoaT* t, GoaS* s, int month) noexcept nogil

# -- victory.py -------------------------------------------------------------------------------
cdef void finish(GoaS* s, int result, int month) noexcept nogil
cdef void victory_check(const GoaT* t, GoaS* s, int month) noexcept nogil

# -- land.py ----------------------------------------------------------------------------------
# land.COMMITS: the supply points an order at offset `level` (0-3) commits as artillery
cdef inline int land_commit(int level) noexcept nogil:
    return 6 * (level - 1) if level >= 2 else 0


cdef inline bint front_active(const GoaT* t, const GoaS* s, int f) noexcept nogil:
    cdef int a = t.f_a[f], b = t.f_b[f]
    return at_war(s, a) and at_war(s, b) and s.side[a] != s.side[b]


cdef void historical_events(const GoaT* t, GoaS* s, int month) noexcept nogil
cdef bint contributes(const GoaT* t, const GoaS* s, int c, int f) noexcept nogil
# the fronts c contributes to, ascending (out: room for F)
cdef int fronts_of(const GoaT* t, const GoaS* s, int c, int32_t* out) noexcept nogil
cdef int target_city(const GoaT* t, const GoaS* s, int f, int side) noexcept nogil
cdef int land_options(const GoaT* t, const GoaS* s, int c, int month, int32_t* out) noexcept nogil
cdef void upkeep(const GoaT* t, GoaS* s, int8_t* short_) noexcept nogil
cdef void fight_fronts(const GoaT* t, GoaS* s, const int32_t* orders, const int8_t* short_,
                       int month, uint64_t* dice, int32_t* alloc, int32_t* work) noexcept nogil
cdef int column(int64_t att, int64_t dfn, int* shift) noexcept nogil
# land.modifier (defender[c] != 0: c defends)
cdef int land_modifier(const GoaT* t, const GoaS* s, int k, const int8_t* defender, int commit,
                       int month) noexcept nogil

# -- naval.py ---------------------------------------------------------------------------------
# naval.active_squadrons: the squadrons `side` gives orders to (N.31, C.44)
cdef inline bint active_squadron(const GoaT* t, const GoaS* s, int q, int side) noexcept nogil:
    cdef int c = s.squadron_country[q]
    return s.squadron_damage[q] < 3 and s.squadron_base[q] >= 0 and s.returning[q] < 0 \
        and at_war(s, c) and s.side[c] == side
# orders: the orders given so far this phase (-1 none; C.26), or NULL
cdef int squadron_options(const GoaT* t, const GoaS* s, const Facts* f, int q,
                          const int32_t* orders, int32_t* out) noexcept nogil
cdef bint pacific_margin_kept(const GoaT* t, const GoaS* s, int q, int dest,
                              const int32_t* orders) noexcept nogil
cdef void apply_order(GoaS* s, int q, int code) noexcept nogil
cdef int sortied(const GoaT* t, const GoaS* s, int a, int side, int32_t* out) noexcept nogil
cdef bint has_sortied(const GoaT* t, const GoaS* s, int a, int side) noexcept nogil
# the sides with squadrons (not sunk) sortied into each area: out[a] bit side
cdef void sortie_sides(const GoaT* t, const GoaS* s, int8_t* out) noexcept nogil
cdef bint submarine_area(const GoaT* t, const GoaS* s, int a, int side, int sides) noexcept nogil
cdef int gunnery(const GoaT* t, const GoaS* s, const int32_t* qs, int n) noexcept nogil
cdef int chart_column(const GoaT* t, int g) noexcept nogil
cdef int chart_damage(const GoaT* t, int col, int die) noexcept nogil
cdef bint mostly(const GoaT* t, const GoaS* s, const int32_t* qs, int n) noexcept nogil
cdef void worsen(GoaS* s, int q, int level) noexcept nogil
cdef void repair(const GoaT* t, GoaS* s) noexcept nogil
# BLOCKADE_PLUS, BLOCKADE_MINUS: what a squadron of each kind adds to its side's blockade roll
# and takes from the enemy's (N.63)
cdef inline int blockade_plus(int kind) noexcept nogil:
    return 1 if kind == SHIP_BATTLESHIP else (2 if kind == SHIP_DREADNOUGHT else 3)


cdef inline int blockade_minus(int kind) noexcept nogil:
    return 1 if kind == SHIP_DREADNOUGHT else (2 if kind == SHIP_BATTLECRUISER else 0)


cdef int blockade_modifier(const GoaT* t, const GoaS* s, int a, int side, int month) noexcept nogil
cdef void blockade_modifiers(const GoaT* t, const GoaS* s, int month, int32_t* out) noexcept nogil
cdef void apply_blockade_losses(const GoaT* t, GoaS* s) noexcept nogil
cdef int ship_options(const GoaT* t, const GoaS* s, const Facts* f, int c,
                      int32_t* out) noexcept nogil
cdef void ship(const GoaT* t, GoaS* s, int c, int code) noexcept nogil
cdef int detached_room(const GoaT* t, const GoaS* s, int c) noexcept nogil
cdef int home_units(const GoaT* t, const GoaS* s, int c) noexcept nogil
cdef int take_colony(const GoaT* t, GoaS* s, int l, int c, int n) noexcept nogil
cdef int take_home(const GoaT* t, GoaS* s, int c, int n) noexcept nogil
cdef void put_home(const GoaT* t, GoaS* s, int c, int n, int af) noexcept nogil
cdef bint enemy_squadron_at(const GoaT* t, const GoaS* s, int place, int side) noexcept nogil
cdef uint32_t sail_areas(const GoaT* t, const GoaS* s, int c, bint free_only) noexcept nogil
cdef bint routes_to(const GoaT* t, const GoaS* s, int c, int dest, uint32_t sources) noexcept nogil
cdef void marines_arrive(GoaS* s, int month) noexcept nogil
cdef void stranded(const GoaT* t, GoaS* s, uint64_t* dice) noexcept nogil

# -- naval_combat.py: invasions ---------------------------------------------------------------
# the targets (kind, index, source; HOME = -1, a colony l, a host L + h); work: room for
# 2 * (1 + L + C) entries
cdef int invasion_targets(const GoaT* t, const GoaS* s, int c, int32_t* kinds, int32_t* index,
                          int32_t* source, int32_t* work) noexcept nogil
cdef int available_units(const GoaT* t, const GoaS* s, int c, int src) noexcept nogil
# Kind.LANDING options: committed[src + 1] units committed from each source, done[] the places
# landed on (beaches, then ports, then colonies)
cdef int landing_options(const GoaT* t, const GoaS* s, int c, int nt, const int32_t* kinds,
                         const int32_t* index, const int32_t* source, const int32_t* committed,
                         const uint8_t* done, int32_t* out) noexcept nogil
cdef int landing_modifier(const GoaT* t, int kind, int k, bint supported, int month) noexcept nogil
cdef void land_invasion(const GoaT* t, GoaS* s, uint64_t* dice, int c, int kind, int index,
                        int n, int month, int src) noexcept nogil

# -- colonial.py ------------------------------------------------------------------------------
cdef void japanese_forces(const GoaT* t, GoaS* s, int month) noexcept nogil
cdef int move_options(const GoaT* t, const GoaS* s, int c, const int32_t* pending,
                      int32_t* out) noexcept nogil
cdef void apply_move(const GoaT* t, GoaS* s, int c, int code) noexcept nogil
cdef bint abyssinia_may_attack(const GoaT* t, const GoaS* s, int side) noexcept nogil
cdef bint may_return(const GoaT* t, const GoaS* s, int q) noexcept nogil
cdef int interceptors(const GoaT* t, const GoaS* s, int side, int32_t* out) noexcept nogil
cdef int return_ports(const GoaT* t, const GoaS* s, int q, int32_t* out) noexcept nogil
cdef void colonial_combat(const GoaT* t, GoaS* s, uint64_t* dice, int month,
                          int32_t* work) noexcept nogil
