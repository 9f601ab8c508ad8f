"""Integer codes of The Guns of August engine: sides, months, decisions, results.

The compiled core declares the same codes in ``_core/goa/codes.pxd``; a test holds the two
together. Arrays hold these codes; scenario files and results use the lower-case names.
"""

from __future__ import annotations

from enum import IntEnum


class Side(IntEnum):
    ALLIED = 0
    CENTRAL = 1
    NEUTRAL = 2      #: a country not at war, a city or colony no belligerent controls


#: the sides as plain ints, for the rules' hot loops (an IntEnum attribute is slow to read)
ALLIED, CENTRAL, NEUTRAL = 0, 1, 2


def enemy(side: int) -> int:
    """The other belligerent side (``NEUTRAL`` has none and gives ``NEUTRAL``)."""
    return 1 - side if side < 2 else 2


class Kind(IntEnum):
    """Decision kinds: what the engine asks a player (``Decision.kind`` is ``goa.<name>``)."""

    TRADE = 0          #: V._1/M._7: the month's roll trade (one roll +1 for you, one for him)
    GIFT = 1           #: V._4: a dreadnought squadron given to Turkey
    INVADE = 2         #: V._2: invade Belgium or the Netherlands
    ECONOMY = 3        #: P._11: declare or repeal economic mobilization
    CONSCRIPTION = 4   #: P._11: implement or repeal conscription
    SQUADRON = 5       #: N.32: a squadron stays, moves to a port or sorties
    SUBMARINE = 6      #: N.45: attack the enemy's sortie with submarines only
    GERMAN_ROLL = 7    #: N.46: the German option to reduce both fleets' first roll
    DESIGNATE = 8      #: N.43 / N.4: which enemy squadron takes the next damage
    USW = 9            #: N.64: declare or renew unrestricted submarine warfare
    SEND_SUPPLY = 10   #: N.79: supply points sent by sea to an ally
    SHIP = 11          #: N.8: land units moved by sea
    LAND = 12          #: the land war: a country's main effort and its supply committed
    GARRISON = 13      #: S._14 / M._6: keep three units in each city of a conquered country
    MARINES = 14       #: N.96: American infantry converted into marines
    COLONIAL = 15      #: C.5 / C.6: colonial moves and attacks
    RETURN = 16        #: C.44: a colonial battlecruiser tries to return to Europe
    LANDING = 17       #: N.91, C.63: an amphibious invasion (target and units)
    INTERCEPT = 18     #: C.44: battlecruisers sent to intercept a returning squadron
    ABYSSINIA = 19     #: C.65: announce an attack on Abyssinia (it becomes an enemy colony)


class Month:
    """Month numbers: 0 is August 1914."""

    FIRST_YEAR = 1914
    FIRST_MONTH = 8

    @staticmethod
    def of(text: str) -> int:
        """``"1915-01"`` -> 5."""
        y, m = text.split("-")
        return (int(y) - 1914) * 12 + int(m) - 8

    @staticmethod
    def name(month: int) -> str:
        """5 -> ``"1915-01"``."""
        return f"{Month.year(month)}-{Month.month_of_year(month):02d}"

    @staticmethod
    def year(month: int) -> int:
        return 1914 + (month + 7) // 12

    @staticmethod
    def month_of_year(month: int) -> int:
        """1 (January) .. 12 (December)."""
        return (month + 7) % 12 + 1


class Morale(IntEnum):
    """Results of the morale table (base game, stand-in transcription)."""

    NONE = 0          #: modified roll >= 1
    RR = 1            #: 0: reduced replacements
    D1 = 2            #: -1
    D2 = 3            #: -2
    SURRENDER = 4     #: <= -3


class Land(IntEnum):
    """Results of the land combat results table."""

    AE = 0   #: attacker eliminated
    AA = 1   #: attacker attrition
    AD = 2   #: attacker demoralized
    BD = 3   #: both demoralized
    DD = 4   #: defender demoralized
    DX = 5   #: defender exchange
    DE = 6   #: defender eliminated


class Ship(IntEnum):
    """Squadron kinds."""

    DREADNOUGHT = 0    #: dreadnought battleship squadron
    BATTLECRUISER = 1  #: (dreadnought) battlecruiser squadron
    BATTLESHIP = 2     #: older, non-dreadnought battleship squadron


class Damage(IntEnum):
    NONE = 0
    LIGHT = 1
    HEAVY = 2
    SUNK = 3


class Terrain(IntEnum):
    """What defends a city on the land combat results table."""

    CITY = 0
    FORT = 1
    ROUGH = 2
    SWAMP = 3


class Result(IntEnum):
    """How a game ended."""

    PLAYING = 0
    CENTRAL_OBJECTIVES = 1   #: the Central Powers held all twenty objective cities a month
    ALLIED_OBJECTIVES = 2    #: the Central Powers held no objective city
    CENTRAL_CONQUEST = 3     #: every Allied belligerent conquered
    ALLIED_CONQUEST = 4      #: every Central Power conquered
    BASE_ALLIED = 5          #: the base game's check failed for the Central Powers (stand-in)
    END = 6                  #: the last month was played with neither side winning


RESULT_NAMES = {
    Result.PLAYING: "playing", Result.CENTRAL_OBJECTIVES: "central_objectives",
    Result.ALLIED_OBJECTIVES: "allied_objectives", Result.CENTRAL_CONQUEST: "central_conquest",
    Result.ALLIED_CONQUEST: "allied_conquest", Result.BASE_ALLIED: "allied_base_victory",
    Result.END: "undecided",
}
