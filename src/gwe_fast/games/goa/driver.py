"""The Guns of August behind the common driver (see ``gwe_fast.games``).

Its record has one row per game with the columns of ``record_fields(scenario)``: how and when
the war ended, each country's entry month and side and its surrender month, months of
blockade by sea area and side, months of unrestricted submarine warfare, colonies taken,
morale results, supply lost to blockades; ``--per-turn`` adds one row per game, month and
country (``TURN_FIELDS``). Months are numbered from 0 (August 1914); -1 means never.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from gwe_fast.games import GameResult
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, NEUTRAL, RESULT_NAMES, Month, Morale, Result, Side
from gwe_fast.games.goa.game import GoaGame
from gwe_fast.games.goa.model import MONTH, RESULT, RESULT_MONTH
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


class MonthRows(Sequence):
    """The per-turn rows of a game played by the compiled core, made from its per-month
    record (``GoaGame.history``) when read: a runner that does not keep them never pays for
    900 dicts a game."""

    def __init__(self, t, history, objectives, months: int):
        self._t, self._h, self._o, self._months = t, history, objectives, months
        self._rows: list[dict] | None = None

    def _all(self) -> list[dict]:
        if self._rows is None:
            t, h, first = self._t, self._h.tolist(), self._t.first_month
            held = self._o.tolist()
            self._rows = [
                {"turn": first + i, "month": Month.name(first + i), "country": key,
                 "side": SIDE_TEXT[r[0]], "limited": bool(r[1]), "conquered": bool(r[2]),
                 "land_strength": r[3], "supply_stock": r[4], "personnel": r[5], "supply": r[6],
                 "cities_held_by_enemy": r[7], "mobilized": bool(r[8]),
                 "conscription": bool(r[9]), "supply_lost_blockade": r[10],
                 "objectives_held_central": held[i]}
                for i in range(self._months) for key, r in zip(t.c_key, h[i])]
        return self._rows

    def __len__(self) -> int:
        return self._months * len(self._t.c_key)

    def __getitem__(self, i):
        return self._all()[i]

    def __eq__(self, other) -> bool:
        return list(self) == list(other)

    def __repr__(self) -> str:
        return f"MonthRows({len(self)} rows)"


def month_row(t, s, month: int, c: int, held: int) -> dict:
    """The per-turn row of country ``c`` at the end of ``month`` (``TURN_FIELDS``)."""
    from gwe_fast.games.goa.world import enemy_held_cities

    return {"turn": month, "month": Month.name(month), "country": t.c_key[c],
            "side": SIDE_TEXT[Side(int(s.side[c]))], "limited": bool(s.limited[c]),
            "conquered": bool(s.conquered[c] >= 0),
            "land_strength": int(s.army[c]) + int(s.abroad[c].sum()),
            "supply_stock": int(s.supply[c]), "personnel": int(s.personnel_last[c]),
            "supply": int(s.supply_last[c]),
            "cities_held_by_enemy": enemy_held_cities(t, s, c),
            "mobilized": bool(s.mobilized[c] >= 0), "conscription": bool(s.conscription[c] == 1),
            "supply_lost_blockade": int(s.blockade_lost[c]),
            "objectives_held_central": held}


def play(game: GoaGame, check=None) -> GameResult:
    """Play ``game`` to the end; ``check(game, month)`` runs at the end of every month (the
    invariant checker). The per-turn rows come from the compiled core's per-month record,
    or, on the reference engine or under a check, from the state at each month's end."""
    t, s = game.t, game.state
    rows: Sequence = []

    if check is None and game.plays_core:
        game.play(record=True)
        months = int(s.scalars[MONTH]) - t.first_month + 1
        rows = MonthRows(t, game.history, game.history_objectives, months)
    else:
        def after_month(month: int) -> None:
            if check is not None:
                check(game, month)
            held = objectives_held(t, s, CENTRAL)
            rows.extend(month_row(t, s, month, c, held) for c in range(t.n_countries))

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
    entered, side, conquered = s.entered.tolist(), s.side.tolist(), s.conquered.tolist()
    lost_blockade, lost, morale = (s.blockade_lost.tolist(), s.strength_lost.tolist(),
                                   s.morale_results.tolist())
    for c, key in enumerate(t.c_key):
        row[f"entry_month_{key}"] = entered[c]
        row[f"entry_side_{key}"] = SIDE_TEXT[side[c]]
        row[f"surrender_month_{key}"] = conquered[c]
        row[f"supply_lost_blockade_{key}"] = lost_blockade[c]
        row[f"strength_lost_{key}"] = lost[c]
        for m in (Morale.RR, Morale.D1, Morale.D2):
            row[f"morale_{MORALE_NAMES[m]}_{key}"] = morale[c][m]
    months = s.blockade_months.tolist()
    for a, key in enumerate(t.a_key):
        for side_i, name in enumerate(SIDES):
            row[f"blockade_months_{key}_{name}"] = months[a][side_i]
    for side_i, name in enumerate(SIDES):
        row[f"usw_months_{name}"] = int(s.usw_months[side_i])
        row[f"colonies_taken_{name}"] = int(s.colonies_taken[side_i])
        row[f"squadrons_sunk_{name}"] = int(s.sunk[side_i])
    return row


def position_columns(game: GoaGame) -> dict:
    return {}


def vp(game: GoaGame) -> int:
    """The game's VP column: the objective cities the Central Powers hold."""
    return objectives_held(game.t, game.state, CENTRAL)
