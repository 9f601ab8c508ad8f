# The integer codes of The Guns of August, mirrored by gwe_fast/games/goa/codes.py and
# model.py (a test holds them together: tests/games/goa/test_core_codes.py).

cdef enum:
    ALLIED = 0
    CENTRAL = 1
    NEUTRAL = 2

# Kind: decision kinds
cdef enum:
    K_TRADE = 0
    K_GIFT = 1
    K_INVADE = 2
    K_ECONOMY = 3
    K_CONSCRIPTION = 4
    K_SQUADRON = 5
    K_SUBMARINE = 6
    K_GERMAN_ROLL = 7
    K_DESIGNATE = 8
    K_USW = 9
    K_SEND_SUPPLY = 10
    K_SHIP = 11
    K_LAND = 12
    K_GARRISON = 13
    K_MARINES = 14
    K_COLONIAL = 15
    K_RETURN = 16
    K_LANDING = 17
    K_INTERCEPT = 18
    K_ABYSSINIA = 19
    N_KINDS = 20

# Morale: results of the morale table
cdef enum:
    MOR_NONE = 0
    MOR_RR = 1
    MOR_D1 = 2
    MOR_D2 = 3
    MOR_SURRENDER = 4

# Land: results of the land combat results table
cdef enum:
    LAND_AE = 0
    LAND_AA = 1
    LAND_AD = 2
    LAND_BD = 3
    LAND_DD = 4
    LAND_DX = 5
    LAND_DE = 6

# Ship: squadron kinds
cdef enum:
    SHIP_DREADNOUGHT = 0
    SHIP_BATTLECRUISER = 1
    SHIP_BATTLESHIP = 2

# Damage
cdef enum:
    DMG_NONE = 0
    DMG_LIGHT = 1
    DMG_HEAVY = 2
    DMG_SUNK = 3

# Terrain
cdef enum:
    TER_CITY = 0
    TER_FORT = 1
    TER_ROUGH = 2
    TER_SWAMP = 3

# Result: how a game ended
cdef enum:
    RES_PLAYING = 0
    RES_CENTRAL_OBJECTIVES = 1
    RES_ALLIED_OBJECTIVES = 2
    RES_CENTRAL_CONQUEST = 3
    RES_ALLIED_CONQUEST = 4
    RES_BASE_ALLIED = 5
    RES_END = 6

# model.py: the scalars of GoaState.scalars
cdef enum:
    SC_MONTH = 0
    SC_RESULT = 1
    SC_RESULT_MONTH = 2
    SC_ALL_OBJECTIVES_SINCE = 3
    SC_JAPAN_CONQUESTS = 4
    SC_JAPAN_PERSONNEL = 5
    SC_JAPAN_POOL = 6
    N_SCALARS = 8

# model.py: since_roll bits
cdef enum:
    MOBILIZED_SINCE = 1
    DEMOBILIZED_SINCE = 2
    CONSCRIPTED_SINCE = 4
    IMPLEMENTED_SINCE = 8
    BLOCKADE_LOSS_SINCE = 16

# naval.py: squadron order codes; morale.py: roll kinds; land.py: land_mods slots
cdef enum:
    SORTIE = 10000
    SCREEN = 20000
    SUPPORT = 30000
    FIGHTS = 0              # screen values: fights with its gunnery, lowers blockades,
    SCREENS = 1             #   supports invasions (N.44, N.63, N.94)
    SUPPORTS = 2
    MORALE_ROLL = 0
    ENTRY_ROLL = 1
    LM_FORT = 0
    LM_ENTRENCH = 1
    LM_CITY = 2
    LM_DEMORALIZED = 3
    LM_PER_SP = 4
    LM_CAP = 5
    LM_MAIN_SHARE = 6
    LM_UPKEEP = 7

# colonial.py: kinds of colonies and areas
cdef enum:
    L_COLONY = 0
    L_SOVEREIGN = 1
    L_CHINA = 2
    L_TURKISH = 3
    L_TURKISH_OPPONENT = 4
    L_JAPAN = 5

# The core's own codes: who answers a side's decisions (a policy level), and what run() stops on
cdef enum:
    LEVEL_EXTERNAL = -1     # a Python policy: run() returns with the decision pending
    LEVEL_RANDOM = 0        # uniform over the options, from the side's policy stream
    N_LEVELS = 8            # levels 1 .. N_LEVELS - 1: compiled ladder policies (registered)

cdef enum:
    RUN_OVER = 0
    RUN_DECISION = 1
    RUN_MONTH_END = 2
