# The fixed record of a Guns of August game (GoaTables) and the state's arrays (GoaState),
# as C records for the core and for policies written in C.
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint32_t, uint64_t


cdef struct GoaT:
    # sizes
    int C, K, A, P, B, L, Q, F, M, H, U, E, X, NPL, n_ncc, n_year
    # scalars and options
    int corps, entrench_from, supply_cap, repeal_disband, first_month, last_month
    int usw_from, coast_share
    bint variable_entry, morale, production, victory, surrender, naval, colonies
    bint chart, fronts
    bint ncc_below_one                # a chart roll below 1 does no damage (else row 1)
    bint heavy_home_port              # heavy damage is repaired in a home port only (N.5)
    # named countries, areas and places (-1 when absent)
    int germany, austria_hungary, turkey, bulgaria, france, russia, britain, belgium
    int serbia, montenegro, italy, romania, greece, netherlands, united_states, japan, albania
    int north_sea, north_atlantic, baltic_sea, east_med, west_med, adriatic_sea, black_sea
    int south_atlantic, indian_ocean, east_pacific, west_pacific, south_pacific
    int constantinople, constantinople_port, trieste_port, japan_area, abyssinia, goeben
    # countries
    const int8_t* c_side0
    const int8_t* c_major
    const int16_t* c_personnel
    const int16_t* c_supply
    const int8_t* c_conscription0
    const int8_t* c_table_conscription   # [C] the points table's personnel is with conscription
    const int16_t* c_mobilized0
    const int8_t* c_rolls
    const int8_t* c_may_join          # [C, 2]
    const int8_t* c_group
    const int32_t* c_army0
    const int8_t* c_overseas
    const int8_t* c_host              # [C, C]
    const int8_t* c_home_ports        # [C, P]
    const int16_t* c_entry0
    const int16_t* c_conquered0
    # cities
    const int16_t* k_country
    const int8_t* k_objective
    const int8_t* k_terrain
    const int16_t* k_port
    const int8_t* k_control0
    # sea areas, ports, beaches
    const int8_t* a_in_play
    const int16_t* p_country
    const int8_t* p_area              # [P, A]
    const int8_t* p_off_map
    const int8_t* p_in_play
    const int16_t* p_city
    const int16_t* p_closed_by
    const int16_t* b_country
    const int8_t* b_area              # [B, A]
    const int8_t* b_no_central
    const int16_t* b_city
    # colonies and areas
    const int16_t* l_owner
    const int8_t* l_area              # [L, A]
    const int8_t* l_neighbor          # [L, L]
    const int8_t* l_defense
    const int8_t* l_kind
    const int8_t* l_control0
    const int8_t* l_overland          # [L, C]
    const int8_t* l_no_return
    const int16_t* l_af0              # [L, C]
    const int16_t* l_units0           # [L, C]
    # squadrons
    const int16_t* q_country0
    const int8_t* q_kind
    const int16_t* q_base0
    const int8_t* q_gunnery
    const int8_t* q_protection
    const int16_t* q_arrive
    const int8_t* q_neutral_only
    const int8_t* tenney              # [2]
    const int16_t* ncc_columns        # [n_ncc]
    const int16_t* ncc_far_left       # [6]
    const int16_t* ncc_damage         # [6, n_ncc]
    const int8_t* repair_months       # [3]
    # land
    const int8_t* crt                 # [7, 6]
    const int8_t* land_mods           # [8]
    const int8_t* land_loss           # [7, 2]
    const int16_t* us_reinforcements  # [2]
    const int8_t* japan_pool          # [U, 2]
    const int16_t* f_a
    const int16_t* f_b
    const int8_t* f_helper            # [F, C]
    const int16_t* f_chain            # [F, 2, M]
    const int16_t* h_city
    const int16_t* h_month
    const int8_t* h_to
    # morale, entry, victory
    const int8_t* roll_months         # [13]
    const int8_t* colonial_months     # [13]
    const int8_t* morale_effects      # [4]
    const int8_t* morale_table        # [4] the highest roll giving surrender, D2, D1, RR
    const int8_t* base_morale         # [5] the base game's morale modifiers (tables.BASE_MORALE)
    const int8_t* year_modifier       # [n_year]
    const int16_t* base_entry         # [E, 3]
    const int16_t* base_checks        # [X, 2]

    # -- derived once per scenario (lists are CSR: item i's entries are
    #    list[start[i] .. start[i + 1] - 1], ascending) --------------------------------------
    int n_objectives
    const uint32_t* pl_amask          # [NPL] sea areas in play a place gives access to
    const uint32_t* p_amask_raw       # [P] a port's sea areas, in play or not
    const uint32_t* b_amask_raw       # [B] a beach's sea areas, in play or not
    const uint8_t* a_onmap_port       # [A] some port on the map touches the area (C.43)
    const uint8_t* c_offmap_port      # [C] the country has an off-map port in play (N.15)
    const uint32_t* c_port_areas      # [C] sea areas in play of the country's ports in play (N.66)
    uint32_t a_in_play_mask           # the sea areas in play
    const int32_t* c_city_start       # the cities of each country
    const int32_t* c_city_list
    const int32_t* c_port_start       # the ports of each country
    const int32_t* c_port_list
    const int32_t* c_home_start       # the ports each country's land units sail from
    const int32_t* c_home_list
    const int32_t* c_front_start      # fronts a country is one side of or helps on
    const int32_t* c_front_list
    const int32_t* c_overland_start   # colonies and areas with a C.52/C.64 link for a country
    const int32_t* c_overland_list
    const int32_t* pl_nb_start        # places sharing a sea area in play with a place
    const int32_t* pl_nb_list
    const int32_t* l_out_start        # l's neighbours (l_neighbor[l, x])
    const int32_t* l_out_list
    const int32_t* l_in_start         # colonies having l as neighbour (l_neighbor[x, l])
    const int32_t* l_in_list
    const int32_t* obj_list           # the objective cities
    # sets of places as bit sets of NW 64-bit words (place x: word x // 64, bit x % 64)
    int NW
    const uint64_t* area_places       # [A, NW] the places an area in play touches
    const uint64_t* coast_nb          # [NPL, NW] places sharing an area in play with x and
                                      #     coast-connected to it (naval._coast_connected, N.33)
    int max_options                   # the most options any decision can have


cdef struct GoaS:
    # every array of model.STATE_ARRAYS, pointing into the state's one buffer; pointers only
    # (engine.core_assign moves each, as a word, to the same offset of a copy's buffer)
    int32_t* scalars
    int8_t* side
    int8_t* limited
    int16_t* entered
    int16_t* conquered
    int32_t* army
    int32_t* abroad                   # [C, C]
    int32_t* supply
    int16_t* personnel_last
    int16_t* supply_last
    int16_t* mobilized
    int8_t* conscription
    int8_t* since_roll
    int16_t* demoralized
    int8_t* reduced
    int8_t* suffered
    int8_t* fed
    int8_t* joined_with
    int8_t* invaded
    int8_t* entry_city                # [C, K]
    int8_t* gift_turkey               # [2]
    int8_t* received
    int16_t* marines                  # [6]
    int8_t* shipped                   # [C] land units moved by sea this phase (N.85)
    int8_t* screen
    int8_t* moved
    int8_t* in_combat
    int8_t* supported
    int8_t* hit_level
    int16_t* returning
    int16_t* return_port              # [Q] C.44: the port a squadron returns to, -1
    int8_t* sortie_won                # [A]
    int16_t* sunk                     # [2]
    int16_t* usw                      # [2]
    int8_t* usw_since_roll            # [2]
    int8_t* city                      # [K]
    int16_t* garrison                 # [K]
    int8_t* colony                    # [L]
    int16_t* col_af                   # [L, C]
    int16_t* col_units                # [L, C]
    int8_t* blockade                  # [A, 2]
    int8_t* blockade_prev             # [A, 2]
    int8_t* med_blockade              # [2]
    int16_t* squadron_country
    int16_t* squadron_base
    int16_t* squadron_sortie
    int8_t* squadron_damage
    int8_t* squadron_repair
    int16_t* blockade_months          # [A, 2]
    int16_t* usw_months               # [2]
    int16_t* morale_results           # [C, 5]
    int32_t* blockade_lost
    int16_t* colonies_taken           # [2]
    int32_t* strength_lost


cdef class CoreTables:
    cdef GoaT t
    cdef object _goa                    # a weak reference to the GoaTables
    cdef readonly Py_ssize_t state_size
    cdef readonly object initial        # uint8 buffer of the state at the scenario's start
    cdef readonly object layout         # model.state_layout's list for this scenario
    cdef list _keep                     # the arrays the pointers point into
    cdef Py_ssize_t _off[64]            # byte offset of each GoaS array, in GoaS order
    cdef const void* _ptr(self, object a, object dtype, Py_ssize_t n) except NULL
    cdef int _lists(self, const int32_t** start, const int32_t** entries, list rows) except -1
    # point s at the arrays of a state buffer of this scenario (state_size bytes)
    cdef void bind(self, GoaS* s, uint8_t* buffer) noexcept nogil
