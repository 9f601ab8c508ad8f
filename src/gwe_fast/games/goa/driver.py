"""The Guns of August behind the common driver (see ``gwe_fast.games``).

Its record has one row per game with the columns of ``record_fields(scenario)``: how and when
the war ended, each country's entry month and side and its surrender month, months of
blockade by sea area and side, months of unrestricted submarine warfare, colonies taken,
morale results, supply lost to blockades; ``--per-turn`` adds one row per game, month and
country (``TURN_FIELDS``). Months are numbered from 0 (August 1914); -1 means never.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter

import numpy as np
import pyarrow as pa

from gwe_fast.games import GameResult
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, NEUTRAL, RESULT_NAMES, Month, Morale, Result, Side
from gwe_fast.games.goa.game import GoaGame
from gwe_fast.games.goa.model import MONTH, RESULT, RESULT_MONTH, state_layout
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

    def columns(self) -> dict[str, list]:
        """The same rows as columns (``TURN_FIELDS``' names), made by numpy from the record
        without a dict a row: what the runner writes."""
        t, months, n = self._t, self._months, len(self._t.c_key)
        h = self._h[:months].reshape(months * n, -1)
        turns = range(t.first_month, t.first_month + months)
        names = [Month.name(m) for m in turns]

        def each(values):                    # a value a month, repeated for each country
            return [v for v in values for _ in range(n)]

        def flag(j):
            return (h[:, j] != 0).tolist()

        return {"turn": each(turns), "month": each(names), "country": list(t.c_key) * months,
                "side": list(map(SIDE_TEXT.__getitem__, h[:, 0].tolist())),
                "limited": flag(1), "conquered": flag(2), "land_strength": h[:, 3].tolist(),
                "supply_stock": h[:, 4].tolist(), "personnel": h[:, 5].tolist(),
                "supply": h[:, 6].tolist(), "cities_held_by_enemy": h[:, 7].tolist(),
                "mobilized": flag(8), "conscription": flag(9),
                "supply_lost_blockade": h[:, 10].tolist(),
                "objectives_held_central": each(self._o[:months].tolist())}

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


def play(game: GoaGame, check=None, per_turn: bool = True) -> GameResult:
    """Play ``game`` to the end; ``check(game, month)`` runs at the end of every month (the
    invariant checker). The per-turn rows come from the compiled core's per-month record,
    or, on the reference engine or under a check, from the state at each month's end; with
    ``per_turn=False`` the compiled core keeps no record and the result has no per-turn rows
    (a run without ``--per-turn``)."""
    t, s = game.t, game.state
    rows: Sequence = []

    if check is None and game.plays_core:
        game.play(record=per_turn)
        if per_turn:
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
    return GameResult(vp=_objectives_central(t, s), level=RESULT_NAMES[Result(result)],
                      winner=winner_of_result(result), turns_played=month - t.first_month + 1,
                      per_turn=rows)


def record(game: GoaGame) -> dict:
    """The game's row of ``record_fields``, by name: the readable twin of ``Recorder``."""
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


class Recorder:
    """The values of ``record_fields(scenario)`` of a game, in that order, as ``record`` gives
    them by name: gathered from the state's one buffer (``GoaState.buffer``) through indices
    worked out once per scenario, not from 168 names and lookups made per game.

    ``recorder(game)`` is a tuple; the runner (``runner.batch.Player``) writes it as the row's
    record columns. ``tests/games/goa/test_recorder.py`` holds it to ``record``.
    """

    def __init__(self, scenario):
        t = scenario.goa
        self.t = t
        layout, size = state_layout(t)
        where = {name: (dtype, shape, offset) for name, dtype, shape, offset in layout}
        if size % 8:
            raise ValueError("the state buffer is not a whole number of 8-byte words")
        gathers: dict[int, list[int]] = {1: [], 2: [], 4: []}   # element indices, by width
        sources: list[tuple[int, int]] = []                     # per column: (width, i)

        def at(name, *index):
            dtype, shape, offset = where[name]
            if offset % dtype.itemsize:
                raise ValueError(f"state array {name} is not aligned to its type")
            flat = int(np.ravel_multi_index(index, shape)) if index else 0
            return dtype.itemsize, offset // dtype.itemsize + flat

        def column(name, *index):
            width, i = at(name, *index)
            sources.append((width, len(gathers[width])))
            gathers[width].append(i)

        # the order of record(): every column's source, a side code a text, the objectives
        names = ["result_month", "objectives_held_central"]
        column("scalars", RESULT_MONTH)
        sources.append((0, 1))                                  # objectives: computed
        side_at: list[int] = []
        for c, key in enumerate(t.c_key):
            names += [f"entry_month_{key}", f"entry_side_{key}", f"surrender_month_{key}",
                      f"supply_lost_blockade_{key}", f"strength_lost_{key}"]
            column("entered", c)
            sources.append((0, 2 + len(side_at)))               # side text: computed
            side_at.append(at("side", c)[1])
            column("conquered", c)
            column("blockade_lost", c)
            column("strength_lost", c)
            for m in (Morale.RR, Morale.D1, Morale.D2):
                names.append(f"morale_{MORALE_NAMES[m]}_{key}")
                column("morale_results", c, int(m))
        for a, key in enumerate(t.a_key):
            for side_i, name in enumerate(SIDES):
                names.append(f"blockade_months_{key}_{name}")
                column("blockade_months", a, side_i)
        for array, label in (("usw_months", "usw_months"), ("colonies_taken", "colonies_taken"),
                             ("sunk", "squadrons_sunk")):
            for side_i, name in enumerate(SIDES):
                names.append(f"{label}_{name}")
                column(array, side_i)
        expect = [f.name for f in record_fields(scenario)]
        if names != expect:
            raise AssertionError("Recorder's columns are not record_fields'")
        self.names = tuple(names)
        if where["side"][0].itemsize != 1 or where["city"][0].itemsize != 1:
            raise AssertionError("side and city codes are expected as int8")
        self._i8 = np.array(gathers[1], np.intp)
        self._i16 = np.array(gathers[2], np.intp)
        self._i32 = np.array(gathers[4], np.intp)
        self._side = np.array(side_at, np.intp)
        self._objectives = where["city"][2] + np.flatnonzero(t.k_objective)
        # the gathered values are laid end to end, computed ones after: [int8s, int16s,
        # int32s, objectives, side texts]; ``order`` takes each column's value from there
        base = {1: 0, 2: len(gathers[1]), 4: len(gathers[1]) + len(gathers[2])}
        n = base[4] + len(gathers[4])
        order = [base[w] + i if w else n + i - 1 for w, i in sources]
        self._order = itemgetter(*order)

    def __call__(self, game: GoaGame) -> tuple:
        b = game.state.buffer
        b8 = b.view(np.int8)
        values = b8[self._i8].tolist()
        values += b.view(np.int16)[self._i16].tolist()
        values += b.view(np.int32)[self._i32].tolist()
        values.append(int(np.count_nonzero(b8[self._objectives] == CENTRAL)))
        values += map(SIDE_TEXT.__getitem__, b8[self._side].tolist())
        return self._order(values)


def recorder(scenario) -> Recorder:
    """The scenario's ``Recorder`` (made once per scenario by the runner)."""
    return Recorder(scenario)


def _objectives_central(t, s) -> int:
    """``objectives_held(t, s, CENTRAL)``, counted by numpy."""
    return int(np.count_nonzero(s.city[t.k_objective != 0] == CENTRAL))


def position_columns(game: GoaGame) -> dict:
    return {}


def vp(game: GoaGame) -> int:
    """The game's VP column: the objective cities the Central Powers hold."""
    return _objectives_central(game.t, game.state)
