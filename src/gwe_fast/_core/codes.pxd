# The integer codes of the two hex games (The Great War in the East, The Kaiser's Battle),
# mirrored by gwe_fast/enums.py: each enum below is the Python class named in its heading,
# a prefix before each member's name. A test holds them together, every name and value both
# ways (tests/core/test_hex_codes.py; codes.c_codes() gives these values to it).
# Kernels cimport what they use: from gwe_fast._core.codes cimport GF_MOVED, ...

# Side: the two sides (units.side, State.player, State.hex_last)
cdef enum:
    SIDE_ALLIED = 0
    SIDE_CENTRAL = 1

# Nationality
cdef enum:
    NAT_RUSSIAN = 0
    NAT_GERMAN = 1
    NAT_AUSTRO_HUNGARIAN = 2
    NAT_BRITISH = 3
    NAT_FRENCH = 4

# Terrain: base terrain of a hex
cdef enum:
    TER_CLEAR = 0
    TER_FOREST = 1
    TER_BROKEN = 2
    TER_SWAMP = 3
    TER_ROUGH = 4
    TER_MOUNTAIN = 5
    TER_LAKE = 6
    TER_SEA = 7
    TER_WOODS = 8
    TER_HILLTOP = 9

# Feature: hex feature bits
cdef enum:
    FEAT_TOWN = 1
    FEAT_CITY = 2
    FEAT_TRENCH_ALLIED = 4
    FEAT_TRENCH_CENTRAL = 8
    FEAT_START_LINE = 16
    FEAT_FORTRESS = 32
    FEAT_REDOUBT = 64
    FEAT_FIELDWORK = 128
    FEAT_WIRE = 256
    FEAT_VP_LINE_WEST = 512

# Hexside: hexside feature bits (HS_RAIL: any rail line)
cdef enum:
    HS_MINOR_RIVER = 1
    HS_MAJOR_RIVER = 2
    HS_BLOCKED = 4
    HS_RIDGE = 8
    HS_RAIL_SINGLE = 16
    HS_RAIL_DOUBLE = 32
    HS_CANAL = 64
    HS_EXCAVATION = 128
    HS_VP_LINE = 256
    HS_ROADCUT = 512
    HS_RAIL_EXTRA = 1024
    HS_START_LINE = 2048
    HS_RAIL = 1072

# Direction: neighbour-table order; the opposite of d is (d + 3) % 6
cdef enum:
    DIR_N = 0
    DIR_NE = 1
    DIR_SE = 2
    DIR_S = 3
    DIR_SW = 4
    DIR_NW = 5

# UnitType
cdef enum:
    UT_INFANTRY = 0
    UT_CAVALRY = 1
    UT_HQ = 2
    UT_DEPOT = 3
    UT_ARMORED_CAR = 4
    UT_ARTILLERY = 5
    UT_MACHINE_GUN = 6
    UT_MOUNTAIN = 7
    UT_NAVAL_INFANTRY = 8
    UT_SERVICE = 9
    UT_REPLACEMENT = 10
    UT_TANK = 11
    UT_ENGINEER = 12

# Size
cdef enum:
    SIZE_NONE = 0
    SIZE_COMPANY = 1
    SIZE_BATTALION = 2
    SIZE_REGIMENT = 3
    SIZE_BRIGADE = 4
    SIZE_DIVISION = 5
    SIZE_CORPS = 6
    SIZE_ARMY = 7

# Status: per-unit status bits of State.unit_status
cdef enum:
    ST_ON_MAP = 1
    ST_PENDING = 2
    ST_ELIMINATED = 4
    ST_WITHHELD = 8
    ST_NOT_IN_PLAY = 16
    ST_ENTRAINED = 32
    ST_OUT_OF_SUPPLY = 64
    ST_OUT_OF_COMMAND = 128
    ST_POOL = 256
    ST_EXITED = 512
    NO_SIDE = -1              # State.hex_last of a hex no side has occupied

# GweFlag: The Great War in the East's engine flags
cdef enum:
    GF_MOVED = 1
    GF_USED_RAIL = 2
    GF_ATTACKED = 4
    GF_DEFENDED = 8
    GF_RETREATED_IN = 16
    GF_IN_COMBAT_LAST_TURN = 32
    GF_PANICKED = 64
    GF_LIVING_OFF_LAND = 128
    GF_OUT_OF_RADIUS = 256
    GF_BROKEN_DOWN = 512
    GF_ADVANCED = 1024
    GF_RAIL_COUNTED = 16384
    GF_ENTRY_BLOCKED = 32768

# KbFlag: The Kaiser's Battle's engine flags
cdef enum:
    KF_MOVED = 1
    KF_ATTACKED = 2
    KF_DEFENDED = 4
    KF_ADVANCED = 8
    KF_NO_MOVE = 16
    KF_ARRIVED = 32
    KF_SERVICE = 64
    KF_FROM_DIVISION = 128
    KF_OPENING = 256

# GwePhase: State.phase of The Great War in the East
cdef enum:
    GP_MOVEMENT = 1
    GP_WITHDRAWAL = 2
    GP_COMBAT = 3
    GP_REPLACEMENT = 4

# KbPhase: State.phase of The Kaiser's Battle
cdef enum:
    KP_WEATHER_STAGE = 1
    KP_AIR_STAGE = 2
    KP_REINFORCEMENT_STAGE = 3
    KP_ARTILLERY_STAGE = 4
    KP_GERMAN_BREAKDOWN = 5
    KP_GERMAN_MOVEMENT = 6
    KP_GERMAN_COMBAT = 7
    KP_ALLIED_MOVEMENT = 8
    KP_ALLIED_COMBAT = 9
    KP_TERMINAL = 10

# GweDecision: decision kinds (enums.GWE_DECISION_KINDS, in order)
cdef enum:
    GD_MOVE_UNIT = 0
    GD_MOVE_ACTION = 1
    GD_RAIL_REMAIN_ENTRAINED = 2
    GD_REINFORCEMENT_ARRIVE = 3
    GD_REINFORCEMENT_DEPOT = 4
    GD_COMMAND_ALLOCATE = 5
    GD_HQ_DISPLACE_TO = 6
    GD_HQ_REVERSE_SIDE = 7
    GD_WITHDRAWAL_UNIT = 8
    GD_WITHDRAWAL_PATH = 9
    GD_WITHDRAWAL_OCCUPY = 10
    GD_COMBAT_DECLARE = 11
    GD_COMBAT_ATTACK = 12
    GD_COMBAT_ATTACK_SHIFT = 13
    GD_COMBAT_DEFENSE_SHIFT = 14
    GD_COMBAT_MASSED_ARTILLERY = 15
    GD_COMBAT_DEFENSIVE_ARTILLERY = 16
    GD_COMBAT_OPTION = 17
    GD_COMBAT_AFFECTED = 18
    GD_COMBAT_LOSS = 19
    GD_COMBAT_RETREAT = 20
    GD_COMBAT_ADVANCE = 21
    GD_STACKING_ELIMINATE = 22
    GD_STACKING_RETREAT_ELIMINATE = 23
    GD_REPLACEMENT_ATTEMPT = 24
    N_GWE_DECISIONS = 25

# KbDecision: decision kinds (enums.KB_DECISION_KINDS, in order)
cdef enum:
    KD_AIR_ALLOCATE = 0
    KD_AIR_INTERCEPTION = 1
    KD_AIR_OBSERVATION = 2
    KD_AIR_GROUND_ATTACK_TARGET = 3
    KD_AIR_GROUND_ATTACK_POINTS = 4
    KD_REINFORCEMENT_HEX = 5
    KD_REINFORCEMENT_SERVICE = 6
    KD_ARTILLERY_COUNTER_BATTERY = 7
    KD_ARTILLERY_GAS_TARGET = 8
    KD_ARTILLERY_GAS_POINTS = 9
    KD_ARTILLERY_GAS_MARKERS = 10
    KD_ARTILLERY_DRUMFIRE_TARGET = 11
    KD_ARTILLERY_DRUMFIRE_POINTS = 12
    KD_BREAKDOWN_DIVISION = 13
    KD_MOVE_UNIT = 14
    KD_MOVE_TO = 15
    KD_COMBAT_TARGET = 16
    KD_COMBAT_JOIN = 17
    KD_COMBAT_ROLLING = 18
    KD_COMBAT_SOS = 19
    KD_COMBAT_LOSS = 20
    KD_COMBAT_RETREAT = 21
    KD_COMBAT_ADVANCE = 22
    KD_STACKING_ELIMINATE = 23
    KD_DRUMFIRE_STEP_LOSS = 24
    KD_GAS_STEP_LOSS = 25
    KD_GROUND_ATTACK_STEP_LOSS = 26
    N_KB_DECISIONS = 27

# CrtResult: one side's result on the CRT (enums.CRT_RESULT_NAMES)
cdef enum:
    CRT_NONE = 0
    CRT_ONE = 1
    CRT_TWO = 2
    CRT_THREE = 3
    CRT_ELIMINATED = 4
    N_CRT_RESULTS = 5
