"""Integer codes shared by the scenario files, the state arrays and the kernels.

Scenario files use the lower-case names (``forest``, ``minor_river``); arrays hold the codes.
Each game accepts only the names its rulebook uses (``GAME_TERRAIN`` and friends).
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
