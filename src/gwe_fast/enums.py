"""Integer codes shared by the scenario files, the state arrays and the kernels.

Scenario files use the lower-case names (``forest``, ``minor_river``); arrays hold the codes.
Each game accepts only the names its rulebook uses (``GAME_TERRAIN`` and friends).

Every code here has a compiled twin of the same value in ``_core/codes.pxd`` (``Side.ALLIED``
is ``SIDE_ALLIED``, ``GweFlag.MOVED`` is ``GF_MOVED`` ...), which the kernels ``cimport``;
``tests/core/test_hex_codes.py`` holds the two together, name by name. Add a code in both.
The unit status bits, the engine flags and the phases are plain ``int`` class attributes rather
than ``IntEnum``/``IntFlag`` members: numpy probes an enum operand for its array protocols
through the enum metaclass on every operation, which cost a fifth of a campaign.
"""

from enum import IntEnum, IntFlag


class Side(IntEnum):
    ALLIED = 0   #: Russians (Brusilov); British and French (Kaiser's Battle)
    CENTRAL = 1  #: Germans and Austro-Hungarians


class Nationality(IntEnum):
    RUSSIAN = 0
    GERMAN = 1
    AUSTRO_HUNGARIAN = 2
    BRITISH = 3
    FRENCH = 4


class Terrain(IntEnum):
    """Base terrain: every hex has exactly one."""

    CLEAR = 0
    FOREST = 1
    BROKEN = 2
    SWAMP = 3
    ROUGH = 4
    MOUNTAIN = 5
    LAKE = 6
    SEA = 7
    WOODS = 8
    HILLTOP = 9


class Feature(IntFlag):
    """Hex features: any number per hex."""

    TOWN = 1 << 0
    CITY = 1 << 1
    TRENCH_ALLIED = 1 << 2
    TRENCH_CENTRAL = 1 << 3
    START_LINE = 1 << 4
    FORTRESS = 1 << 5
    REDOUBT = 1 << 6
    FIELDWORK = 1 << 7
    WIRE = 1 << 8
    VP_LINE_WEST = 1 << 9


class Hexside(IntFlag):
    """Hexside features, kept symmetric: both faces of a hexside carry the same bits."""

    MINOR_RIVER = 1 << 0
    MAJOR_RIVER = 1 << 1
    BLOCKED = 1 << 2
    RIDGE = 1 << 3
    RAIL_SINGLE = 1 << 4
    RAIL_DOUBLE = 1 << 5
    CANAL = 1 << 6
    EXCAVATION = 1 << 7
    VP_LINE = 1 << 8
    ROADCUT = 1 << 9
    RAIL_EXTRA = 1 << 10  #: a second single-track line through the same hexside (18.33)
    START_LINE = 1 << 11  #: Brusilov 18.27: the line between the two trench lines

    RAIL = RAIL_SINGLE | RAIL_DOUBLE | RAIL_EXTRA


class Direction(IntEnum):
    """Hex directions in neighbour-table order; the opposite of ``d`` is ``(d + 3) % 6``."""

    N = 0
    NE = 1
    SE = 2
    S = 3
    SW = 4
    NW = 5


def names(enum) -> list[str]:
    """The scenario-file names of an enum's members, in code order."""
    return [m.name.lower() for m in enum if m.name is not None and m.name.lower() != "rail"]


# What each game's rulebook uses (chart 5.4 game letter B; chart 5.32 of The Kaiser's Battle).
GAME_TERRAIN = {
    "gwe": {Terrain.CLEAR, Terrain.FOREST, Terrain.SWAMP, Terrain.ROUGH, Terrain.MOUNTAIN},
    "kb": {Terrain.CLEAR, Terrain.WOODS, Terrain.SWAMP, Terrain.HILLTOP},
}
GAME_FEATURES = {
    "gwe": Feature.TOWN | Feature.CITY | Feature.TRENCH_ALLIED | Feature.TRENCH_CENTRAL
    | Feature.START_LINE | Feature.FORTRESS,
    "kb": Feature.TOWN | Feature.TRENCH_ALLIED | Feature.TRENCH_CENTRAL | Feature.REDOUBT
    | Feature.FIELDWORK | Feature.WIRE | Feature.VP_LINE_WEST,
}
GAME_HEXSIDES = {
    "gwe": Hexside.MINOR_RIVER | Hexside.MAJOR_RIVER | Hexside.BLOCKED | Hexside.RAIL_SINGLE
    | Hexside.RAIL_DOUBLE | Hexside.RAIL_EXTRA | Hexside.START_LINE,
    "kb": Hexside.MINOR_RIVER | Hexside.CANAL | Hexside.EXCAVATION | Hexside.VP_LINE
    | Hexside.ROADCUT | Hexside.RAIL_SINGLE | Hexside.RAIL_DOUBLE,
}


class UnitType(IntEnum):
    INFANTRY = 0
    CAVALRY = 1
    HQ = 2
    DEPOT = 3
    ARMORED_CAR = 4
    ARTILLERY = 5
    MACHINE_GUN = 6
    MOUNTAIN = 7
    NAVAL_INFANTRY = 8
    SERVICE = 9
    REPLACEMENT = 10
    TANK = 11
    ENGINEER = 12


class Size(IntEnum):
    NONE = 0
    COMPANY = 1
    BATTALION = 2
    REGIMENT = 3
    BRIGADE = 4
    DIVISION = 5
    CORPS = 6
    ARMY = 7


class Status:
    """Per-unit status bits of ``State.unit_status`` (both hex games)."""

    ON_MAP = 1 << 0
    PENDING = 1 << 1         #: a reinforcement or option unit not yet arrived
    ELIMINATED = 1 << 2
    WITHHELD = 1 << 3        #: permanently withheld reinforcement (25.16)
    NOT_IN_PLAY = 1 << 4     #: belongs to an option that is off, or to an off-map pool
    ENTRAINED = 1 << 5
    OUT_OF_SUPPLY = 1 << 6
    OUT_OF_COMMAND = 1 << 7
    POOL = 1 << 8            #: waiting in an off-map pool (replacements, service companies)
    EXITED = 1 << 9          #: left the map (Kaiser's Battle 20.2)


NO_SIDE = -1                 #: ``State.hex_last`` of a hex no side has occupied


class GweFlag:
    """The Great War in the East's per-unit engine flags (the ``flags`` engine array), reset
    where their case says."""

    MOVED = 1 << 0            #: moved (or entrained) in this Movement Phase (13.0 3)
    USED_RAIL = 1 << 1        #: used rail movement this Movement Phase (5.34)
    ATTACKED = 1 << 2         #: attacked in this Combat Phase (8.14)
    DEFENDED = 1 << 3         #: was attacked in this Combat Phase (8.14)
    RETREATED_IN = 1 << 4     #: retreated or withdrew into its hex this phase (8.66, 12.17)
    IN_COMBAT_LAST_TURN = 1 << 5  #: attacked or defended since its last replacement phase (13.0 2)
    PANICKED = 1 << 6         #: has been panicked (23.26: only once)
    LIVING_OFF_LAND = 1 << 7  #: cavalry living off the land (19.4)
    OUT_OF_RADIUS = 1 << 8    #: outside every friendly HQ's command radius (10.42, 10.43)
    BROKEN_DOWN = 1 << 9      #: armored car broken down (24.42)
    ADVANCED = 1 << 10        #: advanced after combat this phase: may not attack (8.73)
    # 5.31, 14.22 (rail.py, reinforcements.py)
    RAIL_COUNTED = 1 << 14    #: counted toward Rail Capacity this Movement Phase (5.31, 20.11)
    ENTRY_BLOCKED = 1 << 15   #: reinforcement found its entry blocked: alternate hex next (14.22)


class KbFlag:
    """The Kaiser's Battle's per-unit engine flags (the ``flags`` engine array), reset where
    their case says."""

    MOVED = 1 << 0          #: moved in this Movement Phase (5.11: one segment only)
    ATTACKED = 1 << 1       #: attacked in this Combat Phase (8.14)
    DEFENDED = 1 << 2       #: was attacked in this Combat Phase (8.14)
    ADVANCED = 1 << 3       #: advanced adjacent to the enemy: no further combat (8.87)
    NO_MOVE = 1 << 4        #: may not move in this Game-Turn's Movement Phase (13.12, 17.1)
    ARRIVED = 1 << 5        #: placed this Game-Turn as a reinforcement (15.15, 15.16, 17.14)
    SERVICE = 1 << 6        #: a British battalion turned to its service-company face (15.22)
    FROM_DIVISION = 1 << 7  #: a replacement unit that is a division's third step (8.5, 20.14)
    OPENING = 1 << 8        #: a German unit in a trench hex at the start of Game-Turn 1 (17.11)


class GwePhase:
    """The phases of a Great War in the East Player-Turn (4.0), the values of
    ``State.phase``; 0 is "none begun" (a new game)."""

    MOVEMENT = 1
    WITHDRAWAL = 2
    COMBAT = 3
    REPLACEMENT = 4


class KbPhase:
    """The stages and phases of a Kaiser's Battle Game-Turn (4.2, A-G), the values of
    ``State.phase``; 0 is "none begun" (a new game)."""

    WEATHER_STAGE = 1
    AIR_STAGE = 2
    REINFORCEMENT_STAGE = 3
    ARTILLERY_STAGE = 4
    GERMAN_BREAKDOWN = 5
    GERMAN_MOVEMENT = 6
    GERMAN_COMBAT = 7
    ALLIED_MOVEMENT = 8
    ALLIED_COMBAT = 9
    TERMINAL = 10


#: The kinds of decision a Great War in the East engine asks a policy (``PlayedGame.ask``), in
#: the order of their codes (``GweDecision``).
GWE_DECISION_KINDS = (
    "gwe.move.unit", "gwe.move.action", "gwe.rail.remain_entrained",
    "gwe.reinforcement.arrive", "gwe.reinforcement.depot", "gwe.command.allocate",
    "gwe.hq.displace_to", "gwe.hq.reverse_side", "gwe.withdrawal.unit", "gwe.withdrawal.path",
    "gwe.withdrawal.occupy", "gwe.combat.declare", "gwe.combat.attack",
    "gwe.combat.attack_shift", "gwe.combat.defense_shift", "gwe.combat.massed_artillery",
    "gwe.combat.defensive_artillery", "gwe.combat.option", "gwe.combat.affected",
    "gwe.combat.loss", "gwe.combat.retreat", "gwe.combat.advance", "gwe.stacking.eliminate",
    "gwe.stacking.retreat_eliminate", "gwe.replacement.attempt",
)

#: The same for The Kaiser's Battle (``KbDecision``).
KB_DECISION_KINDS = (
    "kb.air.allocate", "kb.air.interception", "kb.air.observation",
    "kb.air.ground_attack_target", "kb.air.ground_attack_points",
    "kb.reinforcement.hex", "kb.reinforcement.service", "kb.artillery.counter_battery",
    "kb.artillery.gas_target", "kb.artillery.gas_points", "kb.artillery.gas_markers",
    "kb.artillery.drumfire_target", "kb.artillery.drumfire_points", "kb.breakdown.division",
    "kb.move.unit", "kb.move.to", "kb.combat.target", "kb.combat.join", "kb.combat.rolling",
    "kb.combat.sos", "kb.combat.loss", "kb.combat.retreat", "kb.combat.advance",
    "kb.stacking.eliminate", "kb.drumfire.step_loss", "kb.gas.step_loss",
    "kb.ground_attack.step_loss",
)


def _kind_name(kind: str) -> str:
    # "gwe.combat.attack_shift" -> "COMBAT_ATTACK_SHIFT"
    return kind.split(".", 1)[1].replace(".", "_").upper()


#: A decision's kind as a code: ``GweDecision.COMBAT_LOSS`` is ``"gwe.combat.loss"``, whose
#: place in ``GWE_DECISION_KINDS`` is its value (``GWE_DECISION_KINDS[code]`` names it).
GweDecision = IntEnum("GweDecision",
                      [(_kind_name(k), i) for i, k in enumerate(GWE_DECISION_KINDS)],
                      module=__name__)
KbDecision = IntEnum("KbDecision", [(_kind_name(k), i) for i, k in enumerate(KB_DECISION_KINDS)],
                     module=__name__)


class CrtResult(IntEnum):
    """A result of The Great War in the East's combat results table (8.8) for one side, as
    the compiled table holds it (``games.gwe.data.CrtTable``); ``CRT_RESULT_NAMES`` are the
    printed codes (``tables.toml``: attacker ``-``, ``1``, ``2``; defender also ``3``, ``E``)."""

    NONE = 0
    ONE = 1
    TWO = 2
    THREE = 3
    ELIMINATED = 4


CRT_RESULT_NAMES = ("-", "1", "2", "3", "E")
