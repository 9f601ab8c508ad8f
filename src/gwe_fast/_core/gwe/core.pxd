# The Great War in the East compiled core (core.pyx): the scenario's tables as one read-only
# record (GweT), the game's state as pointers into its State buffer (GweS), the dice, the
# phases it plays so far.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from cpython.ref cimport PyObject
from numpy.random cimport bitgen_t

from gwe_fast._core._types cimport cell_t, flag_t, stepcost_t
from gwe_fast._core.bitsearch cimport StepBits
from gwe_fast._core.hexdice cimport LEVEL_EXTERNAL, LEVEL_RANDOM, DiceStream
from gwe_fast._core.play cimport Atk, GweMoves
from gwe_fast._core.search cimport SearchWorkspace


cdef enum:
    # the core's dice streams (gwe_fast.dice.STREAMS the phases played here roll)
    DS_ATTRITION = 0
    DS_REPLACEMENT = 1
    DS_COMMAND = 2
    DS_WITHDRAWAL = 3
    DS_COMBAT = 4
    DS_BREAKDOWN = 5
    N_DICE = 6
    # the decisions the core answers for a ladder player (Gwe.ladder, Policy.core_answers)
    LADDER_COMMAND = 1            # gwe.command.allocate: position.command_plan
    LADDER_REPLACEMENT = 2        # gwe.replacement.attempt: always attempted
    LADDER_WITHDRAWAL_UNIT = 4    # gwe.withdrawal.unit: the lone unit most threatened
    LADDER_WITHDRAWAL_PATH = 8    # gwe.withdrawal.path: the safest end (passive._safest)
    LADDER_WITHDRAWAL_OCCUPY = 16  # gwe.withdrawal.occupy: never
    MAX_CAR_ROWS = 4              # rows of 24.42's breakdown table the core holds
    MAX_NATIONALITIES = 8
    MAX_TURNS = 64                # Game-Turns a table of the core can hold (0 .. MAX_TURNS - 1)
    TCR1_ZOC_HEXES = 2            # 9.14
    SURROUNDED_LINE = 6           # 25.13
    FORTRESS_STEPS = 4            # 11.13
    FORTRESS_WEAKENED_AFTER = 2   # 11.14
    # the columns of the state's fortress array (combat.F_LOST ...)
    F_LOST = 0
    F_FULL = 1
    F_WEAK = 2
    F_ATTACKED = 3
    MAX_DIE = 32                  # modified dice the core's table holds (0 .. MAX_DIE - 1)
    MAX_DIE_MASKS = 4
    MAX_FACES = 6                 # faces of the die a column's results are weighed over
    # the results of the CRT, as CRT_RESULT_NAMES orders them
    R_NONE = 0
    R_ONE = 1
    R_TWO = 2
    R_THREE = 3
    R_E = 4
    N_RESULTS = 5
    MAX_OPTIONS = 4
    # an option of 8.9 (OPTION_EFFECTS): these bits, and the hexes of retreat in the bits above
    OPT_HALF = 1
    OPT_WHOLE = 2
    OPT_ELIMINATE_ALL = 4
    OPT_HEXES_SHIFT = 4
    LOSS_COMBAT = 0
    LOSS_STACKING = 2
    LOSS_PANIC = 3
    LOSS_RETREAT = 4
    LOSS_MASSED_ARTILLERY = 7
    MAX_PATHS = 256               # retreat paths of one stack (six directions, three hexes)
    MAX_PATH = 4
    MAX_ROUTES = 40               # hexes an advance may reach (8.71, 23.16)
    # the Python engine's LOSS_CAUSES and VP_CAUSES (game.py), in order, as far as used here
    LOSS_ATTRITION = 1
    LOSS_BREAKDOWN = 6
    LOSS_OTHER = 8
    N_LOSS_CAUSES = 9
    VP_CP_SP = 1
    VP_CP_SP_SURROUNDED = 2
    VP_CP_HQ = 3
    VP_RU_SP = 4
    VP_RU_SP_SURROUNDED = 5
    VP_RU_HQ = 6
    VP_WITHHELD = 7
    NO_VP = -1000000              # no withholding on that Game-Turn (25.16)


cdef struct GweT:
    # the map
    Py_ssize_t n_cells
    const cell_t* nbr             # [n_cells, 6], -1 off the map
    const uint8_t* zoc_blocked    # [n_cells, 6] a zone of control does not cross (7.11)
    const uint8_t* passable       # [n_cells, 6] a step any unit may take (retreat.passable_steps)
    const StepBits* passable_bits # the same as bitboards (bitsearch), for source_distance
    const stepcost_t* rail_steps  # [n_cells, 6] 1 along a rail hexside, else -1 (9.15)
    const stepcost_t* line_steps  # [n_cells, 6] 1 for a step a supply line may take, else -1
    const StepBits* rail_bits     # the two as bitboards (bitsearch), for supply_run
    const uint64_t* rail_cells    # the hexes a rail source search reads (supply_run's rail_keep)
    const StepBits* line_bits
    const StepBits* back_bits     # line_steps taken backward (a depot's look back, 9.16)
    const uint8_t* friendly[2]    # [n_cells] each side's ground (18.27)
    const int32_t* rail_edge[2]   # each side's map-edge rail hexes (9.13, 9.15)
    Py_ssize_t n_rail_edge[2]
    const int32_t* fortress_cells[2]   # the printed fortresses on each side's ground (11.15)
    Py_ssize_t n_fortress[2]
    const int32_t* fortress_all   # every printed fortress, ascending
    Py_ssize_t n_fortress_all
    const int16_t* side_add       # [n_tcr, n_cells, 6] Movement Points to cross, -1 never
    const int16_t* enter_cost     # [n_tcr, n_cells] Movement Points to enter, -1 never
    Py_ssize_t n_tcr
    const uint8_t* mountain       # [n_cells] (24.41)
    int stack_limit               # 16.0
    const uint8_t* off_land_area  # [n_cells] 19.41's area
    int off_land_max_points       # 19.41 Stacking Points in the hex at most, -1 no limit
    # 25.11: the towns and cities with a value, ascending by cell, and their values
    const int32_t* town_cells
    const int32_t* town_vp
    Py_ssize_t n_towns
    # the units
    Py_ssize_t n_units
    const int8_t* side
    const int8_t* utype
    const int8_t* nationality
    const int8_t* n_steps         # printed steps (8.5)
    const int8_t* stacking        # Stacking Points
    const uint8_t* exerts         # exerts a zone of control on the map (7.12, 7.26, 19.3)
    const uint8_t* not_hq
    const uint8_t* depot
    const uint8_t* car            # the armored car (24.0)
    const int32_t* supply_range   # 9.12
    const int32_t* layers         # a supply search's layers: 3 for TCR 1 (9.14), else 1
    int shortest[2]               # each side's shortest supply range, -1 none (25.12)
    const uint8_t* repairable     # a kind whose steps may be replaced (13.0)
    const int8_t* tcr             # 17.0
    # 10.0, 21.0 command: each HQ's step table (TCR - 1), radius and Command Strength on its
    # front and, once flipped, its back (10.54); whether enemy zones of control stop its
    # radius for most units and for Austro-Hungarian ones (10.34, 21.41)
    const int32_t* hq_table
    const int32_t* radius_front
    const int32_t* radius_back
    const int32_t* strength_front
    const int32_t* strength_back
    const uint8_t* stops
    const uint8_t* stops_ah
    const uint8_t* is_ah
    const stepcost_t* radius_tables   # [n_radius_tables, n_cells, 6] (command._radius_tables)
    Py_ssize_t n_radius_tables
    const StepBits* radius_bits       # [n_radius_tables] the same as bitboards (bitsearch)
    Py_ssize_t n_hqs              # HQs in the counter mix
    int first_turn
    bint unlimited_command        # 10.32, optional
    bint russian_first_turn       # 21.2
    bint depots_by_supply         # 21.3
    bint joint_command            # 21.4
    # 9.22: the attrition rolls, bit d for a die d
    uint32_t attrition_rolls
    # 22.11-22.21, 26.24: the replacing rolls of a nationality on a Game-Turn, bit d for die d
    uint32_t replacement_rolls[MAX_NATIONALITIES][MAX_TURNS]
    # combat (8.0, 10.2, 11.0, 12.21, 17.0, 19.2, 21.1, 23.1): the printed values of each unit
    # and step [n_units, max_steps, 3], the broken-down armored car's back (24.42)
    const int16_t* values
    Py_ssize_t max_steps
    int16_t car_back[3]
    const int16_t* q              # [n_cells] axial coordinates (hex distances)
    const int16_t* r
    const uint8_t* east           # [n_cells] east of the start line: a fortress's side (18.27)
    const uint8_t* fortress_printed    # [n_cells]
    const uint8_t* prohibited     # [n_cells, 6] no attack across (5.4)
    const uint8_t* halved         # [n_cells, 6] attackers across halved (5.4)
    const int8_t* doubled         # [n_cells] a defender's doublings by terrain or city
    const int8_t* trench          # [n_cells] and by a trench
    const uint8_t* is_hq          # [n_units]
    const uint8_t* is_depot
    const uint8_t* cavalry
    const uint8_t* cav_full_ok    # cavalry, depots and HQs (12.21)
    const int16_t* hq_combat      # an HQ's Combat Strength (10.23, 10.53)
    const uint8_t* heroic         # 10.12
    const uint8_t* panics         # subject to panic (23.1, 23.42)
    const uint8_t* division       # a division (23.12, 23.21)
    const int32_t* shift_front    # an HQ's attack shift (10.21), and once flipped (10.54)
    const int32_t* shift_back
    const uint8_t* army_level     # 10.22
    const int32_t* crt_ratios     # [rows, crt_cols, 2]
    Py_ssize_t crt_cols
    const int32_t* crt_row_len
    const int32_t* crt_row_of_tcr
    int crt_joint
    int german
    int austro
    int artillery_range           # 19.2
    int artillery_multiplier
    # the results (8.8): [die rows, crt_cols, 2] codes (attacker, defender) of CRT_RESULT_NAMES,
    # the row of each modified die from crt_die_min to crt_die_max
    const int8_t* crt_results
    int crt_die_min
    int crt_die_max
    int32_t crt_die_row[MAX_DIE]
    # 8.9: each defender result's options (OPT_ bits and hexes of retreat), and whether an
    # attacker result loses all the affected steps
    int n_def_options[N_RESULTS]
    int def_option[N_RESULTS][MAX_OPTIONS]
    bint attacker_loses_all[N_RESULTS]
    # the chance of each result of a column over the faces of the die plus a modifier
    # (CrtTable.faces, the same floats): for the modifiers face_lo .. face_lo + n_face_mods - 1
    # (others read as the nearest) and each column, face_n results [n_face_mods, crt_cols],
    # their chances and codes (attacker, defender) [n_face_mods, crt_cols, MAX_FACES]
    int face_lo
    int n_face_mods
    const int8_t* face_n
    const double* face_p
    const int8_t* face_a
    const int8_t* face_d
    # 5.4: the die modifiers, n added when attacking exclusively / at all across a mask's
    # hexsides ([n_cells, 6] each)
    Py_ssize_t n_die_exclusive
    const uint8_t* die_exclusive[MAX_DIE_MASKS]
    int die_exclusive_n[MAX_DIE_MASKS]
    Py_ssize_t n_die_any
    const uint8_t* die_any[MAX_DIE_MASKS]
    int die_any_n[MAX_DIE_MASKS]
    # reinforcements (14.0, 20.2, 25.16, 26.3): each unit's first Game-Turn due (-1 never), in
    # play by the options, replaced by a Better Commanders HQ (26.34); its entry hexes
    # (entry_cells[entry_first[u] .. entry_first[u + 1]]); each side's friendly rail hexes,
    # map edge (14.22), Rail Capacity (5.31), depots due, most a turn and on the map (20.2);
    # the VP of withholding on each Game-Turn (NO_VP: none)
    const int16_t* due_turn
    const uint8_t* playable
    const uint8_t* replaced
    const int32_t* entry_first
    const int32_t* entry_cells
    const uint8_t* friendly_rail[2]
    const int32_t* edge[2]
    Py_ssize_t n_edge[2]
    const uint8_t* water
    int rail_capacity[2]
    int depots_due[2][MAX_TURNS]
    int depots_most[2]
    int withhold_vp[MAX_TURNS]
    bint defensive_artillery[2]   # 19.23
    bint hq_defensive_shift       # 21.1
    # movement (5.1-5.4, 7.2, 24.41): the strict step costs of each TCR before the enemy's
    # hexes and zones of control, for other units and for the armored car [n_tcr, 2, n_cells,
    # 6] (movement._base_table), and the cost of entering an enemy zone of control [n_tcr];
    # each unit's kind bits (MV_KIND_); the tables a segment may need (2 n_tcr keys, twice)
    const stepcost_t* move_base
    const int32_t* zoc_add
    const uint8_t* move_kind
    Py_ssize_t n_move_keys
    # rail movement (5.3, 18.2-18.3): each side's rail hexsides (rail._rail_lines: 0 across
    # one, else -1) and a cost of one to enter any hex [n_cells]; the ground its trains may use
    # (18.27); the track limits of 18.31 [n_cells, 6, 2], applied when track_on; the rail rate
    const stepcost_t* rail_lines[2]
    const stepcost_t* rail_one
    const uint8_t* rail_ground[2]
    const int16_t* track_limits[2]
    bint track_on
    int rail_rate[2]
    # 23.52: a reduced Austro-Hungarian unit rolls when it has entered more hexes and spent
    # more points than these, and is eliminated on these dice (bits) on the opening turn and
    # later; 24.42: an armored car rolls when it spent more than car_safe_mp, on the row of
    # the most points at or below what it spent
    int ah_safe_hexes
    int ah_safe_mp
    uint32_t ah_rolls_opening
    uint32_t ah_rolls_later
    int car_safe_mp
    int n_car_rows
    int car_row_mp[MAX_CAR_ROWS]
    uint32_t car_row_rolls[MAX_CAR_ROWS]


cdef struct GweS:
    int16_t* turn
    int16_t* phase
    int8_t* player
    int32_t* vp
    int32_t* unit_cell
    int8_t* unit_step
    uint16_t* unit_status
    int8_t* hex_last
    uint16_t* flags
    int32_t* vp_cause
    int32_t* steps_lost           # [2, N_LOSS_CAUSES]
    int32_t* sp_lost              # [2, N_LOSS_CAUSES]
    int16_t* fortress             # [n_cells, 4]
    int8_t* hq_shift_used         # [n_units]
    int16_t* mp_spent             # [n_units]
    int16_t* rail_hexes           # [n_units]
    int16_t* rail_used            # [2]
    int16_t* rail_turn            # [2]
    int16_t* rail_forced          # [2]
    int16_t* track_used           # [n_cells, 6, 2]
    int16_t* depots_received      # [2]
    int16_t* ooc_count            # [2]


cdef struct Supply:
    # a side's supply in one position (supply._supply): rail sources and hexes [n_cells],
    # supplied depots and units in supply [n_units]
    uint8_t* rail
    uint8_t* depots
    uint8_t* units
    uint8_t* cells


cdef struct SupplyMemo:
    # a side's supply (Supply's rail, depots, units, and the 25.12 hexes when has_cells) as
    # last worked out, with what it read of the position: the units' hexes and statuses (the
    # bits of LINE_STATUS), which live off the land (19.43), the hexes each side last held;
    # valid once made
    bint valid
    bint has_cells
    int32_t* cell                 # [n_units]
    uint16_t* status              # [n_units] their LINE_STATUS bits
    uint16_t* off_land            # [n_units] their GF_LIVING_OFF_LAND bit
    uint8_t* unit_bytes           # (the block of the arrays below)
    int8_t* hex_last              # [n_cells]
    uint8_t* rail                 # [n_cells]
    uint8_t* depots               # [n_units]
    uint8_t* units
    uint8_t* cells                # [n_cells]
    uint64_t* rail_keep           # supply_run's rail sources as last searched, with their key
    uint64_t* depot_keep          # and each depot's look back for a source (supply_run)


cdef struct Fight:
    # the Combat Phase's scratch: the position of a declaration (combat._Position) as the
    # record atk reads it, with the eligible units' arrays [n_units]; the hexes' facts [n_cells];
    # the declaration made
    Atk atk
    int32_t* e_first              # [n_cells] atk's eligible units by hex (Atk.first, next_)
    int32_t* e_next               # [n_units]
    Py_ssize_t n_listed           # the eligible units listed there (their e_cell)
    int32_t* e_units
    int32_t* e_cell
    int32_t* e_attack
    int32_t* e_nat
    int32_t* e_tcr
    uint8_t* e_cav
    uint8_t* e_hq
    int16_t* values               # [n_units, 3] combat.current_values
    uint8_t* panicking            # [n_units]
    uint8_t* no_trench            # [n_units]
    int32_t* defense              # [n_cells]
    uint8_t* full
    int32_t* total
    uint8_t* attackable
    uint8_t* within
    uint8_t* fort
    uint8_t* mark                 # [5 n_cells]
    int32_t* targets              # [n_cells]
    Py_ssize_t n_targets
    int32_t* opt_units            # [n_units + 1]
    int32_t* opt_hexes            # [n_cells + 1]
    int32_t* att                  # [n_units + 1] the attackers, eligible indices
    Py_ssize_t na
    int32_t cells[8]              # the defending hexes
    Py_ssize_t m
    int32_t* defenders            # [n_units]
    Py_ssize_t n_defenders
    int32_t* steps                # [n_units] a force's counted steps (10.21)
    int32_t depot
    int32_t defense_depot
    int shift_right
    int shift_left
    # the resolution's: the attackers left (9.23), each side's supply at the instant of combat
    # [n_units], the defending stacks (combat.Stack: their units in stk_units), 8.75
    int32_t* live
    Py_ssize_t n_live
    uint8_t* att_sup
    uint8_t* def_sup
    int32_t* stk_units
    int32_t stk_cell[8]
    int stk_fort[8]
    Py_ssize_t stk_c0[8]
    Py_ssize_t stk_nc[8]
    Py_ssize_t stk_p0[8]
    Py_ssize_t stk_np[8]
    Py_ssize_t stk_h0[8]
    Py_ssize_t stk_nh[8]
    bint holds
    int32_t* chosen               # [n_units]
    int32_t* pool                 # [n_units + 8]
    int32_t* paths                # [MAX_PATHS, MAX_PATH] a retreat's paths
    int32_t* cand                 # [MAX_PATHS]
    uint8_t* uses_zoc             # [MAX_PATHS]
    int32_t* opts                 # [16 n_units] an advance's options
    int32_t* hexlist              # [n_cells]
    int32_t* geo
    int32_t* queue
    int32_t* hdist
    int32_t* points
    uint8_t* near_a               # [n_cells]
    uint8_t* near_b
    uint8_t* bad
    uint8_t* zoc
    # the panic (23.1-23.2): in effect; each unit's hex at the moment of combat when contagion
    # could reach it, else -1 [n_units]; each stack's retreat path (length 0: none) and the
    # stacks Austro-Hungarian units retreated from, in order; the queue of contagion's paths
    # [n_units + 16, MAX_PATH + 1]; the hexes forbidden to its retreats; routes of advance
    bint panic
    int32_t* snap
    int32_t stk_path[8][MAX_PATH]
    int stk_path_len[8]
    bint stk_panicked[8]
    int32_t ah_from[8]
    Py_ssize_t n_ah_from
    int32_t* queue_paths
    int32_t* forbid               # [n_cells]
    Py_ssize_t n_forbid
    uint8_t* left_by              # [n_cells] 23.23: hexes contagion emptied
    int32_t* adv_opts             # [2 MAX_ROUTES n_units] an advance's options
    int32_t route_dest[MAX_ROUTES]
    int route_len[MAX_ROUTES]
    int32_t route[MAX_ROUTES][MAX_PATH + 1]


cdef struct Troops:
    # scoring.Force: n units of side (steps left, printed steps, Stacking Points), the
    # fortress's steps, whether its units would be surrounded (25.13) and whether a retreat
    # of one / of two hexes exists
    int side
    Py_ssize_t n
    int32_t* steps
    int32_t* n_steps
    int32_t* sp
    int fortress
    bint surrounded
    bint retreat[2]


cdef struct Outcome:
    # scoring.OptionOutcome: what an option of 8.9 costs the defender (the currency), the
    # steps and victory points he loses, whether he leaves the hex
    double value
    double steps
    double vp
    bint vacates


cdef struct Expected:
    # scoring.Expected: the column (-1: no attack), the attacker's score, the expected steps
    # lost by each side, Russian victory points and chance the defender leaves; each face's
    # result: chance, codes (after 10.43), the defender's option (an index of his options,
    # -1 for none)
    int column
    double score
    double attacker_steps
    double defender_steps
    double vp
    double vacate
    int n_out
    double out_p[MAX_FACES]
    int8_t out_a[MAX_FACES]
    int8_t out_d[MAX_FACES]
    int8_t out_option[MAX_FACES]


cdef struct Judge:
    # the attacks weighed at a declaration (scoring.evaluate_attack, PassivePolicy.best_attack)
    # in the position attack_position made: the policy's weights and parameters, each side's
    # victory points per Stacking Point eliminated, and surrounded (25.2, 25.13: the Russian
    # change); the defender's facts (attack_facts): 25.13's hexes (scoring.surrounded_cells),
    # the hexes that block his retreat and the open zones of control (8.61, 8.64), his units
    # out of every command radius (10.43) once asked; scratch
    double material
    double ground
    double town
    double min_gain
    double min_exchange
    double trim_tolerance
    bint trim
    double per_sp[2]
    double per_sp_surrounded[2]
    uint8_t* surrounded           # [n_cells]
    uint8_t* blocks
    uint8_t* open_zoc
    int16_t* d_origin             # [n_cells] hex distances from one hex (retreat_ways)
    int32_t* sdist                # [n_cells] scratch of surrounded_run
    int32_t* squeue
    uint8_t* oor                  # [n_units]
    bint oor_known
    uint8_t* outside              # [n_units] units_outside's answers
    int32_t* poor                 # [n_units] the units it is asked of
    int32_t* cand                 # [n_units] eligible indices: a target's candidates,
    int32_t* plan                 # the best plan, a plan trimmed
    int32_t* rest
    int32_t* order
    int32_t* units                # [n_units] the units of a force weighed
    int32_t* d_units              # [n_units] the defenders counted
    int32_t* a_steps              # [n_units] each force's (Troops) arrays
    int32_t* a_n_steps
    int32_t* a_sp
    int32_t* d_steps
    int32_t* d_n_steps
    int32_t* d_sp
    int32_t* left                 # [n_units] cheapest_steps' scratch
    int32_t* taken
    int32_t* alive


cdef struct Moves:
    # a Movement Segment's (movement_segment): the kernel's record, and what it points into:
    # the step-cost tables [2 n_move_keys, n_cells, 6], the rail table [n_cells, 6], the hex
    # masks [MV_HEX_ROWS, n_cells], the enemy's combat units [n_cells], the roster
    # [n_units, MV_ROSTER_COLUMNS], its keys and ranks [n_move_keys + 1], the units and the
    # threatened HQs' hexes [n_units + 1], done [n_units], the kernel's scratch, one rail path
    GweMoves p
    stepcost_t* tables            # each side's [2 n_move_keys, n_cells, 6]
    stepcost_t* rail_table        # each side's [n_cells, 6]
    stepcost_t* rail_base         # each side's rail table with no hex closed
    uint8_t* was_closed           # [2, 2 n_move_keys + 1, n_cells] the marks each side's
    uint8_t* was_zoc              # tables were last made for (keep_step_costs_over)
    uint8_t* table_ok             # [2, 2 n_move_keys + 1] made once
    uint8_t* no_zoc               # [n_cells] zeros (the rail table's zones)
    uint8_t* hexes
    uint8_t* combat
    uint8_t* need
    int32_t* roster
    int32_t* keys
    int32_t* rank
    int32_t* units
    int32_t* threats
    uint8_t* done
    cell_t* offered
    int32_t* here_count
    stepcost_t* fit
    int32_t* paths


cdef struct Occupancy:
    # the position's facts of occupation and zones of control, kept up to date as units move
    # (sync_occupancy, at every question): what each unit counted for at the last sync (its
    # hex, -1 when off the map; whether it exerts a zone of control there), and per side and
    # hex [2, n_cells] the units on the map, those other than HQs and the zones over it, as
    # counts and as the masks occupied and controlled give out; and the Stacking Points
    bint valid
    int32_t* cell                 # [n_units]
    uint8_t* zoc_on               # [n_units]
    int32_t* seen_cell            # [n_units] the units' hexes, statuses and flags at the
    uint16_t* seen_status         # last sync
    uint16_t* seen_flags
    int16_t* n_all                # [2, n_cells]
    int16_t* n_combat
    int16_t* n_zoc
    flag_t* all_f                 # [2, n_cells]
    flag_t* combat_f
    flag_t* zoc_f
    int32_t* points               # [2, n_cells] the side's Stacking Points in the hex
    int32_t n_over[2]             # the side's hexes over the stacking limit (6.14)


cdef struct Gwe:
    const GweT* t
    GweS s
    DiceStream dice[N_DICE]
    bitgen_t* pol[2]              # each side's policy generator
    int level[2]
    uint32_t ladder[2]            # the decisions (LADDER_) the side's policy answers as
                                  # the ladder does (Policy.core_answers): the core answers
    double ladder_weights[2][3]   # each ladder side's Weights (material, ground, town), the
    double ladder_vp[2][4]        # per-SP victory points (plain, surrounded: scoring.
    double withdraw_at[2]         # vp_values) and withdraw_at (PassivePolicy.core_answer_params)
    int64_t decisions             # decisions asked (one option: not asked)
    PyObject* ask                 # the game's ask (GweCore keeps it): where a Python player
                                  # decides in a segment the core plays (_ask_move)
    flag_t* mask_a                # [n_cells] scratch masks
    flag_t* mask_b
    flag_t* mask_c
    flag_t* mask_d
    int32_t* work                 # scratch lists (GweCore says how
                                  # they are laid out)
    flag_t* unit_mask             # [n_units]
    flag_t* unit_mask_b           # [n_units]
    int32_t* town_value           # [n_towns] the values of the towns russian_towns found
    int32_t* dist                 # [n_cells] hexes to a supply source (source_distance)
    uint64_t* dist_bits           # its cell sets and work on bitboards
    int32_t* w_counts             # [n_units] withdrawal paths of each unit asked
    int32_t* w_paths              # [36 n_units, 2] the paths
    # a Command Control Segment's: the radii of up to 2 n_hqs HQs [2 n_hqs, n_cells], the
    # HQs' cells, tables, radii, stops, strengths left [2 n_hqs], the cover of each unit
    # [n_units, n_hqs], the units' statuses [n_units] and the draws [n_units, 2]
    uint8_t* radii
    int32_t* hq_cell
    int32_t* hq_tab
    int32_t* hq_radius
    uint8_t* hq_stopped
    int32_t* hq_slot              # each radius's slot in radii_keep: 2 u, or 2 u + 1 (21.41)
    uint64_t* radii_keep          # command_radii_run's keep
    int32_t* hq_left
    int32_t* hq_of
    uint8_t* cover
    int8_t* alloc_status
    int32_t* alloc_picks
    int32_t* alloc_sp
    Supply sup
    SupplyMemo memo[2]
    Occupancy* occ                # (a pointer: kept up to date even through a const Gwe*)
    int64_t supply_searches       # supplies worked out (not read from memo)
    Fight f
    Judge j
    Moves mv
