"""The Guns of August behind the common driver (see ``gwe_fast.games``).

Its record has one row per game with the columns of ``record_fields(scenario)``: how and when
the war ended, each country's entry month and side and its surrender month, months of
blockade by sea area and side, months of unrestricted submarine warfare, colonies taken,
morale results, supply lost to blockades; ``--per-turn`` adds one row per game, month and
country (``TURN_FIELDS``). Months are numbered from 0 (August 1914); -1 means never.
"""

from __future__ import annotations

import pyarrow as pa

from gwe_fast.games import GameResult
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, NEUTRAL, RESULT_NAMES, Month, Morale, Result, Side
from gwe_fast.games.goa.game import GoaGame
from gwe_fast.games.goa.model import RESULT, RESULT_MONTH
from gwe_fast.games.goa.world import objectives_held

GAME_CLASS = GoaGame
SIDES = ("allied", "central")
SIDE_TEXT = {ALLIED: "allied", CENTRAL: "central", NEUTRAL: "neutral"}
#: the VP total of a Guns of August game: the objective cities the Central Powers hold
VP_FOR = "central"
#: the runner's position columns (the hex games' units on the map) do not apply here
POSITION_FIELDS: list = []
_I16, _I32, _STR = pa.int16(), pa.int32(), pa.string()
MORALE_NAMES = {Morale.NONE: "none", Morale.RR: "rr", Morale.D1: "d1", Morale.D2: "d2",
                Morale.SURRENDER: "surrender"}


def record_fields(scenario) -> list[pa.Field]:
    """The game's own columns of the per-game record (they name the scenario's countries and
    sea areas)."""
    t = scenario.goa
    f = [pa.field("result_month", _I16, nullable=False),
         pa.field("objectives_held_central", _I16, nullable=False)]
    for c in t.c_key:
        f += [pa.field(f"entry_month_{c}", _I16, nullable=False),
              pa.field(f"entry_side_{c}", _STR, nullable=False),
              pa.field(f"surrender_month_{c}", _I16, nullable=False),
              pa.field(f"supply_lost_blockade_{c}", _I32, nullable=False),
              pa.field(f"strength_lost_{c}", _I32, nullable=False)]
        f += [pa.field(f"morale_{MORALE_NAMES[m]}_{c}", _I16, nullable=False)
              for m in (Morale.RR, Morale.D1, Morale.D2)]
    for a in t.a_key:
        f += [pa.field(f"blockade_months_{a}_{side}", _I16, nullable=False) for side in SIDES]
    f += [pa.field(f"usw_months_{side}", _I16, nullable=False) for side in SIDES]
    f += [pa.field(f"colonies_taken_{side}", _I16, nullable=False) for side in SIDES]
    f += [pa.field(f"squadrons_sunk_{side}", _I16, nullable=False) for side in SIDES]
    return f


#: the per-turn record: one row per game, month and country
TURN_FIELDS = [
    pa.field("turn", _I16, nullable=False),               # the month, 0 = August 1914
    pa.field("month", _STR, nullable=False),              # "1914-08"
    pa.field("country", _STR, nullable=False),
    pa.field("side", _STR, nullable=False),
    pa.field("limited", pa.bool_(), nullable=False),
    pa.field("conquered", pa.bool_(), nullable=False),
    pa.field("land_strength", _I32, nullable=False),
    pa.field("supply_stock", _I32, nullable=False),
    pa.field("personnel", _I16, nullable=False),
    pa.field("supply", _I16, nullable=False),
    pa.field("cities_held_by_enemy", _I16, nullable=False),
    pa.field("mobilized", pa.bool_(), nullable=False),
    pa.field("conscription", pa.bool_(), nullable=False),
    pa.field("supply_lost_blockade", _I32, nullable=False),
    pa.field("objectives_held_central", _I16, nullable=False),
]


def new_game(scenario, seed: int, index: int, policies=None, events: bool = False) -> GoaGame:
    return GoaGame(scenario, seed=seed, game_index=index, policies=policies, events=events)


#: what the rules call each side, for messages
SIDE_NAMES = {"allied": "Allied", "central": "Central Powers"}


def winner_of_result(result: int) -> str:
    """The side a result code is a win for, or ``"draw"``."""
    if result in (Result.CENTRAL_OBJECTIVES, Result.CENTRAL_CONQUEST):
        return "central"
    if result in (Result.ALLIED_OBJECTIVES, Result.ALLIED_CONQUEST, Result.BASE_ALLIED):
        return "allied"
    return "draw"


def winner_of(level: str) -> str:
    """The side a level of victory (a ``RESULT_NAMES`` value) is a win for, or ``"draw"``."""
    codes = {name: code for code, name in RESULT_NAMES.items()}
    return winner_of_result(codes[level]) if level in codes else "draw"


def play(game: GoaGame, check=None) -> GameResult:
    from gwe_fast.games.goa.world import enemy_held_cities

    t, s = game.t, game.state
    rows: list[dict] = []

    def after_month(month: int) -> None:
        if check is not None:
            check(game, month)
        held = objectives_held(t, s, CENTRAL)
        for c, key in enumerate(t.c_key):
            rows.append({
                "turn": month, "month": Month.name(month), "country": key,
                "side": SIDE_TEXT[Side(int(s.side[c]))], "limited": bool(s.limited[c]),
                "conquered": bool(s.conquered[c] >= 0),
                "land_strength": int(s.army[c]) + int(s.abroad[c].sum()),
                "supply_stock": int(s.supply[c]), "personnel": int(s.personnel_last[c]),
                "supply": int(s.supply_last[c]),
                "cities_held_by_enemy": enemy_held_cities(t, s, c),
                "mobilized": bool(s.mobilized[c] >= 0), "conscription": bool(s.conscription[c] == 1),
                "supply_lost_blockade": int(s.blockade_lost[c]),
                "objectives_held_central": held})

    game.play(after_month)
    result = int(s.scalars[RESULT])
    month = int(s.scalars[RESULT_MONTH])
    return GameResult(vp=objectives_held(t, s, CENTRAL), level=RESULT_NAMES[Result(result)],
                      winner=winner_of_result(result), turns_played=month - t.first_month + 1,
                      per_turn=rows)


def record(game: GoaGame) -> dict:
    t, s = game.t, game.state
    row = {"result_month": int(s.scalars[RESULT_MONTH]),
           "objectives_held_central": objectives_held(t, s, CENTRAL)}
    for c, key in enumerate(t.c_key):
        row[f"entry_month_{key}"] = int(s.entered[c])
        row[f"entry_side_{key}"] = SIDE_TEXT[Side(int(s.side[c]))]
        row[f"surrender_month_{key}"] = int(s.conquered[c])
        row[f"supply_lost_blockade_{key}"] = int(s.blockade_lost[c])
        row[f"strength_lost_{key}"] = int(s.strength_lost[c])
        for m in (Morale.RR, Morale.D1, Morale.D2):
            row[f"morale_{MORALE_NAMES[m]}_{key}"] = int(s.morale_results[c, m])
    for a, key in enumerate(t.a_key):
        for side, name in enumerate(SIDES):
            row[f"blockade_months_{key}_{name}"] = int(s.blockade_months[a, side])
    for side, name in enumerate(SIDES):
        row[f"usw_months_{name}"] = int(s.usw_months[side])
        row[f"colonies_taken_{name}"] = int(s.colonies_taken[side])
        row[f"squadrons_sunk_{name}"] = int(s.sunk[side])
    return row


def position_columns(game: GoaGame) -> dict:
    return {}


def vp(game: GoaGame) -> int:
    """The game's VP column: the objective cities the Central Powers hold."""
    return objectives_held(game.t, game.state, CENTRAL)
