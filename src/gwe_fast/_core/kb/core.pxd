# The Kaiser's Battle compiled core (core.pyx): the scenario's tables as one read-only record
# (KbT), the game's state as pointers into its State buffer (KbS), the dice, the phases.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from cpython.ref cimport PyObject
from numpy.random cimport bitgen_t

from gwe_fast._core._types cimport cell_t, flag_t, stepcost_t
from gwe_fast._core.hexdice cimport LEVEL_EXTERNAL, LEVEL_RANDOM, DiceStream
from gwe_fast._core.play cimport Obl
from gwe_fast._core.search cimport Range, SearchWorkspace


cdef enum:
    # the core's dice streams (gwe_fast.dice.STREAMS that the Kaiser's Battle rolls)
    DS_COMBAT = 0
    DS_BREAKDOWN = 1
    DS_REINFORCEMENT = 2
    DS_WEATHER = 3
    DS_ARTILLERY = 4
    DS_AIR = 5
    DS_GAS = 6
    DS_OPENING = 7
    N_DICE = 8
    # weather codes (game.WEATHER)
    W_CLEAR = 0
    W_MIST = 1
    W_FOG = 2
    MAX_WEATHER_ROWS = 16
    MAX_ARTY_BANDS = 16
    MAX_ENTRIES = 8               # entry letters
    REGIMENTS = 3                 # 13.11
    MAX_TABLE = 16                # rows and columns of a printed table


cdef struct KbT:
    # the map
    Py_ssize_t n_cells
    const cell_t* nbr             # [n_cells, 6], -1 off the map
    const uint8_t* trench         # [n_cells] fieldwork, redoubt or wire (10.0)
    const uint8_t* map_edge       # [n_cells]
    const uint8_t* exit_edge      # [n_cells] western edge hexes a German unit may exit by (20.2)
    const uint8_t* entry_hex      # [n_cells] an entry hex of any letter (15.13)
    const int16_t* enter_cost     # [n_cells] Movement Points to enter (5.32)
    const int16_t* side_add       # [n_cells, 6] added for the hexside (5.32)
    const int16_t* open_steps     # [n_cells, 6] a step's cost with no hex closed and no gas
                                  # (movement.open_step_costs; -1 off the map)
    bint nbr_symmetric            # the step back from nbr[c, d] is its direction (d + 3) % 6
    const int32_t* exit_cells     # the exit_edge hexes, ascending
    Py_ssize_t n_exit
    const int32_t* entry_cells    # the entry hexes of every letter, letter by letter
    int32_t entry_start[MAX_ENTRIES + 1]   # letter e's hexes: entry_cells[start[e]:start[e+1]]
    const int32_t* edge_dist      # [n_entry_cells, n_cells] hex distance from each entry hex
    # the units
    Py_ssize_t n_units
    const int8_t* side            # [n_units]
    const int8_t* utype           # [n_units]
    const int16_t* arrival_turn   # [n_units]
    const int8_t* entry           # [n_units] entry letter code, -1 none
    const uint8_t* division       # [n_units] a German-style division (13.0)
    const uint8_t* replacement    # [n_units] a regimental replacement unit (13.2)
    const uint8_t* has_service_face   # [n_units] a British battalion (15.22)
    const int16_t* values         # [n_units, n_rows, 3] combat, morale, movement by step row
    int n_rows
    const int16_t* service_values # [n_units, 3] a service company's face
    const int8_t* stacking        # [n_units] Stacking Points (7.1)
    const int8_t* n_steps         # [n_units] printed faces
    const int16_t* second_segment # [n_units] an HQ that may move in the Second Segment (5.23)
    int stack_limit               # 7.0
    int exit_vp                   # 20.12
    # 17.1: the German die plus on Game-Turn 2, the Allied on Game-Turns 1 and 2, the codes of
    # the two Allied corps limited (-2: none)
    int german_t2_plus, allied_t1_plus, allied_t2_plus, corps_first, corps_second
    int gas_step_loss             # 9.34[2] steps a stack in a gas zone loses
    const int16_t* die_mod        # [n_cells] the defender's die modifier of the hex (5.32)
    const int16_t* q              # [n_cells] axial coordinates
    const int16_t* r
    const int32_t* axial_cell     # [q_span, r_span] the cell at axial (q0 + i, r0 + j), -1 none
    int q0, r0, q_span, r_span
    int field_range               # 9.11: Field points within this many hexes of an HQ
    # 9.2 counter-battery fire: columns' points, dice, results (-1 "-", 0 "All", else divisor)
    int cb_first_turn, cb_multiple, cb_cols, cb_rows
    int cb_points[MAX_TABLE]
    int cb_die[MAX_TABLE]
    int cb_result[MAX_TABLE][MAX_TABLE]
    # 9.3 persistent gas
    int gas_first_turn, gas_per_marker, gas_min_distance, gas_markers_table
    # 9.4, 12.31 drumfire: its turns, points, the stacking rows (lo, hi), the columns of each
    # row (lo, hi; -1 none), dice, results (-1 "-")
    uint32_t df_turns
    int df_min, df_max, df_rows, df_cols, df_dice, df_big_row
    int df_row[MAX_TABLE][2]
    int df_col[MAX_TABLE][MAX_TABLE][2]
    int df_die[MAX_TABLE]
    int df_result[MAX_TABLE][MAX_TABLE]
    # 8.0 combat
    const uint8_t* town           # [n_cells]
    const uint8_t* hilltop        # [n_cells]
    const int16_t* side_mod       # [n_cells, 6] river or excavation hexside modifier (5.32)
    const int16_t* stoss          # [n_units] stosstruppen (8.83)
    int rolling[3]                # 9.51, 9.53 the Rolling Barrage limit by weather, and
    int rolling_observed[3]       #   observed
    int sos[3]                    # 9.61 the SOS Barrage limit by weather
    int rolling_die_per_point, sos_points_per_die
    int hilltop_range[3]          # 9.72 by weather
    int fog_mod, corps_mod        # 8.3 fog; 8.4, 16.0 two or more corps
    int n_bands                   # 14.13 supply states: (min, max, state, defender die)
    int band[MAX_TABLE][4]
    int isolated_die              # 14.22
    double advance_mult[2][3]     # 8.83 [normal, Game-Turns 1-2][stoss, other German, Allied]
    # 20.1 the record's provisional score: the town and the trench VP; 20.11's towns
    const uint8_t* west_of_vp_line    # [n_cells]
    const int32_t* vp_towns       # the towns west of the VP line, ascending (20.11)
    Py_ssize_t n_vp_towns
    int town_vp, trench_vp
    # 12.0 air points
    int air_first_turn, air_divisor, ga_min, ga_max
    int air_points[2]
    int air_available[3]          # by weather: 0 all, 1 half, 2 none (12.1)
    # the turn
    int first_turn, last_turn
    # 11.1 weather
    int weather_first_turn, pm_modifier
    uint32_t auto_fog             # bit t: Game-Turn t is automatically fog (11.13, 17.4)
    uint32_t pm_turns             # bit t: Game-Turn t is a PM turn (11.12)
    int n_weather_rows
    int weather_die[MAX_WEATHER_ROWS]
    int weather_result[MAX_WEATHER_ROWS]
    # 9.81, 9.82 Artillery Points: bands of (first, last, field, heavy) per side
    int n_arty[2]
    int arty_band[2][MAX_ARTY_BANDS][4]
    # 15.21 service companies
    int service_first_turn, service_multiplier
    # 9.35 persistent gas removal: bit d set for a removing die
    uint32_t gas_removal
    int gas_markers


cdef struct KbS:
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
    int32_t* steps_lost
    int32_t* sp_lost
    int16_t* corps
    int16_t* arty             # [2, 2] side x field/heavy
    int32_t* arty_spent
    int8_t* weather
    int16_t* weather_turns
    int32_t* gas
    int16_t* gas_placed
    int16_t* air
    int8_t* observed
    int8_t* drumfired
    int16_t* move_quota
    int16_t* exited
    int16_t* broken_down
    int16_t* service_placed
    int32_t* arty_lost
    int16_t* arrival_hex


cdef struct Kb:
    const KbT* t
    KbS s
    DiceStream dice[N_DICE]
    bitgen_t* pol[2]              # each side's policy generator
    int level[2]
    int64_t decisions             # decisions asked (one option: not asked)
    PyObject* ask                 # the game's ask (KbCore keeps it): where a Python player
                                  # decides in a segment the core plays (_ask_move_unit)
    flag_t* mask_a                # [n_cells] scratch masks of the phases
    flag_t* mask_b
    int32_t* work                 # [6 n_units + 4 n_cells + 16] scratch lists of the phases
    flag_t* line_seen             # [n_cells] the supply lines' own (has_supply_line)
    flag_t* line_closed
    flag_t* line_want             # [n_cells] the hexes asked of line_lengths (zero between)
    int32_t* line_ask             # [n_units] the hexes a caller asks of it
    int32_t* line_queue           # [n_cells]
    int32_t* line_dist            # [n_cells] the last supply lines' lengths (line_lengths), -1
                                  # where none (where the last search did not reach)
    int32_t* line_reached         # [n_cells] the hexes the last search reached
    Py_ssize_t n_line_reached
    int32_t* attack               # [3 n_units + n_cells + 16] an attack's units and hexes
    flag_t* unit_mask             # [n_units]
    uint8_t* occ                  # [2, n_cells] each side's units in each hex (zoc.occupied)
    uint8_t* zoc                  # [2, n_cells] each side's units exerting a zone on each hex
    # a Movement Segment's step costs: the tables' open_steps, patched for the segment (gas,
    # hexes closed) and put back after it from the log of what was patched
    stepcost_t* steps             # [n_cells, 6]
    int32_t* patched              # [12 n_cells] the step patched
    stepcost_t* was               # [12 n_cells] its cost before
    Py_ssize_t n_patched
    Range rng                     # a unit's movement range
    uint64_t* move_bits           # [(n_cells + 63) / 64] the hexes it may move to (empty between)
    # a Combat Phase's obligations (combat.obligations): fixed at its start, the units and the
    # enemy stacks obligated; then the units that have attacked and the hexes attacked; the
    # position's targets and free units, and its Obl
    flag_t* obligated             # [n_units]
    int32_t* obligated_stacks     # [n_cells] ascending
    flag_t* attacked              # [n_units]
    int32_t* defended             # [n_cells] in the order attacked
    flag_t* target                # [n_cells]
    int32_t* free_units           # [n_units]
    Obl obl
    int error                     # why a phase stopped (ERR_*), 0 none


cdef class KbTables:
    cdef KbT t
    cdef object _keep             # the arrays KbT points into


cdef class KbCore:
    cdef Kb k
    cdef SearchWorkspace ws       # the map's search workspace (kernels.workspace)
    cdef readonly KbTables tables
    cdef object _game
    cdef object _ask              # game.ask, which k.ask borrows
    cdef object _buffer
    cdef object _streams          # the Python DiceStream of each of the core's streams
    cdef object _bind(self, used)
    cdef int _unbind(self, used, fresh) except -1
    cdef int _play(self, int phase) except -1
