"""Run a batch of games of one scenario and stream one row per game to Parquet.

Any game with a rules engine is played through its driver (``gwe_fast.games.driver``): a
row holds the columns every game shares (``COMMON_FIELDS``) followed by the game's own
(``RECORD_FIELDS`` of its driver); ``per_turn`` adds a second table with one row per Game-Turn
and side (the driver's ``TURN_FIELDS``). A game system without an engine yet is set up and
recorded as such (``result = "setup-only"``).

Game ``i`` of a run with master seed ``S`` depends only on ``(S, i)``, the scenario and the
policy specs: its dice and its policies' generators are seeded from ``(S, i)`` and its policies
are built afresh for it. Rows are therefore the same whatever the worker count, the chunking,
the backend or the number of interruptions and resumptions (``wall_time_s`` aside).

Examples
--------
>>> from gwe_fast import load_scenario
>>> resolve_policies({"russian": "random"}, "gwe")
{'allied': 'random', 'central': 'random'}
>>> [f.name for f in game_schema(load_scenario("brusilov/historical"))][:4]
['scenario', 'scenario_version', 'data_hash', 'options']
"""

from __future__ import annotations

import inspect
import json
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from contextlib import contextmanager
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from gwe_fast import __version__
from gwe_fast.analysis.stats import mean_ci, wilson
from gwe_fast.enums import Side
from gwe_fast.game import Game
from gwe_fast.policies.registry import PolicyError, make_policy, parse_spec, policy_maker
from gwe_fast.runner.parquet import (
    FORMAT_VERSION,
    ParquetSink,
    RowsError,
    journal_path,
    partial_path,
    read_metadata,
    read_rows,
)
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import Status

SIDES = tuple(s.name.lower() for s in Side)             # ("allied", "central")

#: the policies of a side not named in a run (one place to change when stronger ones land)
DEFAULT_POLICIES: dict[str, str] = {"allied": "random", "central": "random"}

#: other names a side may be given by, per game system
SIDE_ALIASES: dict[str, dict[str, str]] = {
    "gwe": {"russian": "allied", "russians": "allied", "russia": "allied",
            "central_powers": "central", "austro-german": "central"},
    "kb": {"british": "allied", "entente": "allied", "german": "central",
           "germans": "central", "central_powers": "central"},
    "goa": {"entente": "allied", "allies": "allied", "central_powers": "central"},
}

_STR, _I16, _I32 = pa.string(), pa.int16(), pa.int32()

#: the columns that are the same on every row of a run
RUN_FIELDS = [
    pa.field("scenario", _STR, nullable=False),
    pa.field("scenario_version", _I32, nullable=False),
    pa.field("data_hash", _STR, nullable=False),
    pa.field("options", _STR, nullable=False),            # JSON: option -> value
    pa.field("policies", _STR, nullable=False),           # JSON: side -> policy spec
    pa.field("package_version", _STR, nullable=False),
    pa.field("master_seed", pa.int64(), nullable=False),
]

#: the columns every game shares, before the driver's RECORD_FIELDS
COMMON_FIELDS = RUN_FIELDS + [
    pa.field("game_index", _I32, nullable=False),
    pa.field("result", _STR, nullable=False),             # level of victory, or "error"
    pa.field("winner", _STR, nullable=False),             # allied, central, draw or error
    pa.field("error", _STR, nullable=False),              # "" unless the game raised
    pa.field("vp", _I32, nullable=False),
    pa.field("turns_played", _I16, nullable=False),
] + [
    # the hex games' position at the end (a driver without units on a map declares its own
    # POSITION_FIELDS, usually none)
    pa.field("units_on_map_allied", _I16, nullable=False),
    pa.field("units_on_map_central", _I16, nullable=False),
    pa.field("stacking_on_map_allied", _I16, nullable=False),
    pa.field("stacking_on_map_central", _I16, nullable=False),
    pa.field("units_pending_allied", _I16, nullable=False),
    pa.field("units_pending_central", _I16, nullable=False),
] + [
    pa.field("wall_time_s", pa.float64(), nullable=False),
]
_N_BASE = len(RUN_FIELDS) + 6          #: COMMON_FIELDS before the position columns
_HEX_POSITION = COMMON_FIELDS[_N_BASE:-1]


def common_fields(driver) -> list[pa.Field]:
    """``COMMON_FIELDS`` with the driver's own position columns (``POSITION_FIELDS``) in
    place of the hex games' units on the map."""
    position = getattr(driver, "POSITION_FIELDS", None)
    if position is None:
        return COMMON_FIELDS
    return COMMON_FIELDS[:_N_BASE] + list(position) + COMMON_FIELDS[-1:]

#: the key columns of a per-turn row, before the driver's TURN_FIELDS
TURN_KEY_FIELDS = [pa.field("master_seed", pa.int64(), nullable=False),
                   pa.field("game_index", _I32, nullable=False)]

SETUP_ONLY = "setup-only"
ERROR = "error"
NO_WINNER = "none"                 # a set-up-only game
FLUSH_SECONDS = 30.0               # a row group at least this often, whatever the run's size
LOCAL_CHUNK = 8                    # games handed to a worker process at a time (at most)
#: the largest master seed (the ``master_seed`` column is an int64)
MAX_SEED = 2**63 - 1
#: the most games in a run (the ``game_index`` column is an int32)
MAX_GAMES = 2**31 - 1
#: the most worker processes of a local run (far more than any machine's cores)
MAX_WORKERS = 1024


# --------------------------------------------------------------------------------------------
# the shape of a run
# --------------------------------------------------------------------------------------------

def _driver(game: str):
    """The game's driver module, or ``None`` when its engine does not exist yet."""
    from gwe_fast.games import DRIVERS, driver

    if game not in DRIVERS:
        return None
    try:
        return driver(game)
    except ModuleNotFoundError as exc:
        if exc.name and DRIVERS[game].startswith(exc.name):
            return None                    # the engine has not been written yet
        raise


def game_schema(scenario: Scenario) -> pa.Schema:
    """The per-game table of a run of ``scenario``: ``COMMON_FIELDS`` + the driver's
    ``RECORD_FIELDS``, all non-null."""
    d = _driver(scenario.game)
    if d is None:
        extra = []
    elif hasattr(d, "record_fields"):
        extra = list(d.record_fields(scenario))
    else:
        extra = list(d.RECORD_FIELDS)
    common = common_fields(d)
    names = {f.name for f in common}
    clash = [f.name for f in extra if f.name in names]
    if clash:
        raise ValueError(f"the {scenario.game} driver's RECORD_FIELDS repeat common columns: "
                         f"{', '.join(clash)}")
    return pa.schema(common + [f.with_nullable(False) for f in extra])


def turn_schema(scenario: Scenario) -> pa.Schema:
    """The per-turn table: ``master_seed``, ``game_index`` + the driver's ``TURN_FIELDS``."""
    d = _driver(scenario.game)
    if d is None:
        raise ValueError(f"{scenario.key}: the {scenario.game} engine is not built yet, so "
                         f"there is no per-turn record")
    return pa.schema(TURN_KEY_FIELDS + [f.with_nullable(False) for f in d.TURN_FIELDS])


def records_towns(driver) -> bool:
    """Whether a game keeps a town record (``TOWN_FIELDS``: the hex games)."""
    return driver is not None and hasattr(driver, "TOWN_FIELDS")


def town_schema(scenario: Scenario) -> pa.Schema | None:
    """The town table (one row per game and Victory Point town): ``master_seed``,
    ``game_index`` + ``gwe_fast.games.towns.TOWN_FIELDS``; None for a game without one."""
    d = _driver(scenario.game)
    if not records_towns(d):
        return None
    return pa.schema(TURN_KEY_FIELDS + [f.with_nullable(False) for f in d.TOWN_FIELDS])


def towns_path_for(out: Path) -> Path:
    """The town table of a run written to ``out``: ``<stem>.towns.parquet``, beside it."""
    out = Path(out)
    return out.with_name(f"{out.stem}.towns{out.suffix or '.parquet'}")


def _recover_towns(out: Path, towns_out: Path, games: pa.Table | None, expect: dict,
                   schema: pa.Schema, n_towns: int) -> pa.Table | None:
    """The town rows already written for the games in ``games`` (``_recover``'s per-turn
    check, for the town table): every finished game must have its ``n_towns`` rows."""
    if games is None or games.num_rows == 0:
        return None
    done = set(games.column("game_index").to_pylist())
    try:
        towns = read_rows(towns_out, schema, keys=done, one_per_game=False)
    except RowsError as exc:
        raise ResumeError(f"cannot resume: {exc}") from None
    played = set(games.filter(pc.not_equal(games.column("result"), ERROR))
                 .column("game_index").to_pylist())
    have = set(towns.column("game_index").to_pylist()) if towns is not None else set()
    missing = sorted(played - have) if n_towns else []
    if missing:
        raise ResumeError(f"cannot resume {out} with --per-turn: {towns_out} has no town rows "
                          f"for {len(missing)} of its {len(played)} finished games (game "
                          f"{missing[0]} the first); was the run begun by an older gwe_fast?")
    if towns is not None and towns.num_rows and set(
            towns.column("master_seed").unique().to_pylist()) != {expect["master_seed"]}:
        raise ResumeError(f"cannot resume {towns_out}: its rows are not of seed "
                          f"{expect['master_seed']}")
    return towns


def _canonical_spec(spec: str) -> str:
    name, params = parse_spec(spec)
    if not params:
        return name
    text = {True: "true", False: "false"}
    return name + ":" + ",".join(f"{k}={text.get(v, v) if isinstance(v, bool) else v}"
                                 for k, v in sorted(params.items()))


def resolve_policies(policies: dict[str, str] | None, game: str = "gwe") -> dict[str, str]:
    """Policy specs by side (``allied``, ``central``) in canonical form, the defaults filling
    the sides not given. A side may also be named as the game names it (``russian``,
    ``british``, ``german`` …). Raises ``PolicyError`` (a ``ValueError``) for an unknown side
    or a policy that cannot be built.

    >>> resolve_policies({"central": "greedy:min_gain=1,aggression=0.5"})
    {'allied': 'random', 'central': 'greedy:aggression=0.5,min_gain=1'}
    """
    out = dict(DEFAULT_POLICIES)
    aliases = SIDE_ALIASES.get(game, {})
    given: dict[str, str] = {}
    for side, spec in (policies or {}).items():
        key = str(side).strip().lower().replace(" ", "_")
        key = aliases.get(key, key)
        if key not in SIDES:
            names = ", ".join(list(SIDES) + sorted(aliases))
            raise PolicyError(f"unknown side {side!r} (sides: {names})")
        make_policy(spec, game)                     # fails now, not in a worker, if it is bad
        canonical = _canonical_spec(spec)
        if key in given and out[key] != canonical:
            raise PolicyError(f"side {key} is given two policies ({given[key]}={out[key]} and "
                              f"{side}={canonical}); give one")
        given[key], out[key] = str(side), canonical
    return out


# --------------------------------------------------------------------------------------------
# playing games (in this process, a worker process or a dask worker)
# --------------------------------------------------------------------------------------------

def _scenario_ref(scenario: Scenario) -> str:
    """How a worker loads the scenario: the bundled name, else the file's absolute path."""
    from gwe_fast.scenario.loader import bundled_scenarios

    if scenario.key in bundled_scenarios():
        return scenario.key
    if scenario.path is None:
        raise ValueError(f"scenario {scenario.key} was not loaded from a file; workers "
                         f"cannot load it (use workers=1)")
    return str(Path(scenario.path).resolve())


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to play games of a run: picklable, small."""

    ref: str
    options: tuple
    data_hash: str
    seed: int
    policies: tuple
    per_turn: bool

    @classmethod
    def of(cls, scenario: Scenario, seed: int, policies: dict[str, str], per_turn: bool):
        return cls(_scenario_ref(scenario), tuple(sorted(dict(scenario.options).items())),
                   scenario.data_hash, int(seed), tuple(sorted(policies.items())), per_turn)


class Player:
    """Plays games of one run: ``play(index)`` gives ``(row, turns, towns)``: the row's
    values in the order of ``columns`` (every column but the run's constant ones,
    ``RUN_FIELDS``), the game's per-turn table as columns (``{name: values}``, ``{}``
    without ``per_turn``) and its town rows (the hex games, with ``per_turn``).

    ``play`` always gives a row: a game that raises, while it is set up (``new_game``), played
    or recorded, is a row with ``result = "error"`` and the error's message, and so is a game
    whose row or per-turn table holds a value its column cannot store (``RowCheck``: a number
    out of its type's range, a value of another type, a missing one); the run, and the worker
    playing it, go on.

    What does not change from game to game is worked out here, once: the columns and their
    checks, the policy specs read, the driver's ``recorder`` (its record as values in column
    order, for a driver that has one; ``record(game)``'s dict otherwise)."""

    def __init__(self, scenario: Scenario, seed: int, policies: dict[str, str],
                 per_turn: bool = False):
        self.scenario = scenario
        self.seed = int(seed)
        self.specs = dict(policies)
        # a policy that cannot be made here fails the worker's start, not each of its games
        self._makers = {int(Side[s.upper()]): policy_maker(spec)
                        for s, spec in self.specs.items()}
        for make in self._makers.values():
            make()
        self.per_turn = per_turn
        self.driver = d = _driver(scenario.game)
        fields = list(game_schema(scenario))[len(RUN_FIELDS):]
        head = common_fields(d)[len(RUN_FIELDS):]
        #: the row's columns, in the order of the values ``play`` gives
        self.columns = tuple(f.name for f in fields)
        self.record_fields = fields[len(head):]
        self._head = tuple(f.name for f in head)
        self._zeros = [_zero(f.type) for f in fields]
        self._record_zeros = [(f.name, _zero(f.type)) for f in self.record_fields]
        self._wall = self.columns.index("wall_time_s")
        self._check = RowCheck(fields)
        self._turn_fields = (list(turn_schema(scenario))[len(TURN_KEY_FIELDS):]
                             if per_turn and d is not None else [])
        self._turn_check = RowCheck(self._turn_fields)
        self._recorder = None
        if d is not None:
            self._record_takes_result = len(inspect.signature(d.record).parameters) > 1
            self._play_per_turn = "per_turn" in inspect.signature(d.play).parameters
            make_recorder = getattr(d, "recorder", None)
            if callable(make_recorder):
                self._recorder = make_recorder(scenario)
                if tuple(self._recorder.names) != tuple(f.name for f in self.record_fields):
                    raise ValueError(f"the {scenario.game} driver's recorder gives other "
                                     f"columns than its record fields")
        #: the town record goes with the per-turn record, for a game that keeps one
        self.towns = per_turn and records_towns(d)

    def play(self, index: int) -> tuple[tuple, dict, list]:
        t0 = time.perf_counter()
        try:
            head, record, turns, towns = self._play(index)
            row = [head[k] for k in self._head]
            row += record
            bad = self._check.row(row) or (turns and self._turn_check.columns(turns))
            if bad:
                raise OverflowError(bad)
        except _Broken as exc:
            row, turns, towns = self._error_row(index, exc.error, exc.turns_played), {}, []
        except Exception as exc:  # noqa: BLE001 - whatever went wrong, the game is a row
            row, turns, towns = self._error_row(index, f"{type(exc).__name__}: {exc}"), {}, []
        row[self._wall] = time.perf_counter() - t0
        return tuple(row), turns, towns

    def row_dict(self, row: Sequence) -> dict:
        """A row of ``play`` by column name."""
        return dict(zip(self.columns, row, strict=True))

    def _error_row(self, index: int, error: str, turns_played: int = 0) -> list:
        """The row of a game that broke before it could be recorded: zeros but its index."""
        row = list(self._zeros)
        at = self.columns.index
        row[at("game_index")], row[at("error")] = int(index), error
        row[at("result")] = row[at("winner")] = ERROR
        row[at("turns_played")] = turns_played
        return row

    def _play(self, index: int) -> tuple[dict, list, dict, list]:
        """``(head, record, turns, towns)``: the columns every game shares by name, the
        record's values in column order, the per-turn table as columns, the town rows."""
        d = self.driver
        turns: dict = {}
        towns: list = []
        row: dict = {"game_index": int(index), "error": "", "wall_time_s": 0.0}
        record: list = []
        try:
            if d is None:
                g = Game(self.scenario, seed=self.seed, game_index=index)
                row.update(result=SETUP_ONLY, winner=NO_WINNER, turns_played=0)
            else:
                policies = {side: make() for side, make in self._makers.items()}
                g = d.new_game(self.scenario, self.seed, index, policies=policies)
        except Exception as exc:  # noqa: BLE001 - a game that cannot start is a row too
            raise _Broken(f"set-up: {type(exc).__name__}: {exc}") from None
        if d is not None:
            result = None
            try:
                if self.towns:
                    result = d.play(g, towns=True)
                elif self._play_per_turn:
                    result = d.play(g, per_turn=self.per_turn)
                else:
                    result = d.play(g)
                row.update(result=result.level, winner=result.winner,
                           turns_played=int(result.turns_played))
                if self.per_turn:
                    turns = self._turn_columns(result.per_turn)
                if self.towns:
                    towns = [dict(r) for r in result.towns or ()]
            except Exception as exc:  # noqa: BLE001 - recorded with its index; the run goes on
                row.update(result=ERROR, winner=ERROR, error=f"{type(exc).__name__}: {exc}",
                           turns_played=max(0, _turn(g) - self.scenario.first_turn))
            try:
                if self._recorder is not None:
                    record = list(self._recorder(g))
                else:
                    rec = d.record(g, result) if self._record_takes_result else d.record(g)
                    record = [rec.get(name, zero) for name, zero in self._record_zeros]
            except Exception as exc:  # noqa: BLE001 - a record of a broken game may fail too
                if row["result"] != ERROR:
                    row.update(result=ERROR, winner=ERROR,
                               error=f"record: {type(exc).__name__}: {exc}")
                record = [zero for _, zero in self._record_zeros]
        try:
            if d is not None and hasattr(d, "position_columns"):
                row["vp"] = int(d.vp(g))
                row.update(d.position_columns(g))
            else:
                row["vp"] = int(g.state.vp)
                row.update(_position_columns(g))
        except Exception:  # noqa: BLE001 - the position of a broken game may be broken too
            if row.get("result") == ERROR:
                raise _Broken(row["error"], row["turns_played"]) from None
            raise
        return row, record, turns, towns

    def _turn_columns(self, rows) -> dict[str, list]:
        """A game's per-turn rows as columns: the driver's own (``per_turn.columns()``), or
        made from its rows (dicts); a column a row lacks stays short, and ``RowCheck`` says
        so."""
        columns = getattr(rows, "columns", None)
        if callable(columns):
            return columns()
        rows = list(rows)
        return {f.name: [r[f.name] for r in rows if f.name in r] for f in self._turn_fields}


class _Broken(Exception):
    """A game that broke before its row could be made (``Player._error_row``)."""

    def __init__(self, error: str, turns_played: int = 0):
        super().__init__(error)
        self.error, self.turns_played = error, turns_played


def _flush_every(games: int) -> int:
    """The games of a row group: about every 5 % of a run, at most 256."""
    return max(1, min(256, games // 20))


def _turn(g) -> int:
    """The Game-Turn (or month) a game stands at."""
    turn = getattr(g, "turn", None)
    return int(turn if turn is not None else g.state.turn)


#: the Python types a column of each kind takes at once; a value of another type is then
#: judged by ``_KIND_TEST``. (pyarrow would take a float in an integer column, truncated, and
#: refuse a bool there; neither is let through.)
_INTEGER_TYPES = frozenset({int, np.int8, np.int16, np.int32, np.int64,
                            np.uint8, np.uint16, np.uint32, np.uint64})
_KIND_TYPES = {"int": _INTEGER_TYPES, "bool": frozenset({bool, np.bool_}),
               "string": frozenset({str}),
               "float": frozenset({float, int, bool, np.float32, np.float64})}
_KIND_TEST = {
    "int": lambda v: isinstance(v, (int, np.integer)) and not isinstance(v, bool),
    "bool": lambda v: isinstance(v, (bool, np.bool_)),
    "string": lambda v: isinstance(v, str),
    "float": lambda v: isinstance(v, (float, int, np.floating, np.integer)),
}


def _kind(t: pa.DataType) -> str | None:
    if pa.types.is_integer(t):
        return "int"
    if pa.types.is_boolean(t):
        return "bool"
    if pa.types.is_floating(t):
        return "float"
    if pa.types.is_string(t):
        return "string"
    return None


class RowCheck:
    """Finds a value that its column cannot hold, in a row (``row``: values in the order of
    ``fields``) or a table (``columns``: ``{name: values}``): a number outside its integer
    type's range, a value of another type than its column's, a missing value (``None``, or a
    column shorter than the others). One sentence names the column and the value.

    Worked out once per run; a row is checked with one numpy comparison over its integer
    columns and a set of the types of each kind of column, not column by column; only a
    row found bad is walked to name its culprit."""

    def __init__(self, fields: list[pa.Field]):
        self.fields = list(fields)
        self.names = [f.name for f in fields]
        kind: dict[str, list[int]] = {"int": [], "bool": [], "string": [], "float": []}
        lo, hi = [], []
        for i, f in enumerate(fields):
            k = _kind(f.type)
            if k is not None:
                kind[k].append(i)
            if k == "int":
                low, high = _int_range(f.type)
                lo.append(max(low, -2**63))
                hi.append(min(high, 2**63 - 1))
        self._lo, self._hi = np.array(lo, np.int64), np.array(hi, np.int64)
        self._take = {k: _getter(ix) for k, ix in kind.items()}
        self._bounds = {f.name: _int_range(f.type) for f in fields
                        if pa.types.is_integer(f.type)}

    def row(self, values: Sequence) -> str | None:
        """The sentence naming the first value of ``values`` its column cannot hold, or None."""
        if len(values) != len(self.names):
            return f"the row has {len(values)} values for {len(self.names)} columns"
        ints = self._take["int"](values)
        if not _INTEGER_TYPES.issuperset(map(type, ints)):
            return self._culprit(values)
        try:
            a = np.array(ints, dtype=np.int64)
        except (OverflowError, ValueError, TypeError):
            return self._culprit(values)
        if a.size and ((a < self._lo) | (a > self._hi)).any():
            return self._culprit(values)
        for k in ("bool", "string", "float"):
            if not _KIND_TYPES[k].issuperset(map(type, self._take[k](values))):
                return self._culprit(values)
        return None

    def _culprit(self, values: Sequence) -> str | None:
        for f, v in zip(self.fields, values):
            bad = self._misfit(f, [v])
            if bad:
                return bad
        return None

    def columns(self, table: dict[str, Sequence]) -> str | None:
        """The sentence naming the first value of ``table`` its column cannot hold, or
        None; each column checked as a whole."""
        n = None
        for f in self.fields:
            values = table.get(f.name)
            if values is None:
                return f"column {f.name} is missing"
            if n is None:
                n = len(values)
            elif len(values) != n:
                return f"column {f.name} has {len(values)} values, not {n}: some are missing"
            bad = self._misfit(f, values)
            if bad:
                return bad
        return None

    def _misfit(self, f: pa.Field, values: Sequence) -> str | None:
        """The sentence naming the first value of ``values`` (one column's) that ``f``
        cannot hold, or None."""
        t = f.type
        k = _kind(t)
        if k is None:
            return None
        if not _KIND_TYPES[k].issuperset(map(type, values)):
            test = _KIND_TEST[k]
            v = next((v for v in values if not test(v)), None)
            if v is not None or None in values:
                if v is None:
                    return f"column {f.name} has no value"
                return (f"column {f.name}: {v!r} is a {type(v).__name__}, not a value of its "
                        f"type ({t})")
        if k == "int" and len(values):
            lo, hi = self._bounds[f.name]
            low, high = min(values), max(values)
            if not lo <= low <= high <= hi:
                v = low if low < lo else high
                return f"column {f.name}: {v} does not fit its type ({lo} to {hi})"
        return None


def _getter(index: list[int]) -> Callable[[Sequence], tuple]:
    """What takes the values at ``index`` out of a sequence, as a tuple (of any length)."""
    if not index:
        return lambda values: ()
    if len(index) == 1:
        i = index[0]
        return lambda values: (values[i],)
    return itemgetter(*index)


def _int_range(t: pa.DataType) -> tuple[int, int]:
    """The lowest and highest value of an integer type."""
    bits = t.bit_width
    if pa.types.is_signed_integer(t):
        return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    return 0, 2**bits - 1


def _zero(t: pa.DataType):
    if pa.types.is_string(t):
        return ""
    if pa.types.is_boolean(t):
        return False
    return 0.0 if pa.types.is_floating(t) else 0


def _position_columns(g: Game) -> dict:
    st, units = g.state, g.scenario.units
    row = {}
    for side in Side:
        name = side.name.lower()
        on = g.on_map(int(side))
        row[f"units_on_map_{name}"] = int(on.size)
        row[f"stacking_on_map_{name}"] = int(units.stacking[on].sum())
        pending = (st.unit_status & Status.PENDING).astype(bool) & (units.side == int(side))
        row[f"units_pending_{name}"] = int(np.count_nonzero(pending))
    return row


def _run_columns(scenario: Scenario, seed: int, policies: dict[str, str]) -> dict:
    return {"scenario": scenario.key, "scenario_version": int(scenario.version),
            "data_hash": scenario.data_hash,
            "options": json.dumps(dict(scenario.options), sort_keys=True),
            "policies": json.dumps(policies, sort_keys=True),
            "package_version": __version__, "master_seed": int(seed)}


def play_one(scenario: Scenario, seed: int, index: int,
             policies: dict[str, str] | None = None) -> dict:
    """Game ``index`` of a run with master seed ``seed``, played to its end, as a complete
    per-game row (a game that raises is recorded with ``result = "error"``)."""
    specs = resolve_policies(policies, scenario.game)
    player = Player(scenario, seed, specs)
    row, _, _ = player.play(index)
    return {**_run_columns(scenario, seed, specs), **player.row_dict(row)}


_PLAYERS: dict[Job, Player] = {}


def player_for(job: Job) -> Player:
    """The player of a job in this process (the scenario is loaded once per process)."""
    p = _PLAYERS.get(job)
    if p is None:
        from gwe_fast.scenario.loader import load_scenario

        # the process that started the run checked where the scenario's files are (and the
        # user may have allowed files elsewhere); the data hash below proves it is the same
        sc = load_scenario(job.ref, dict(job.options), allow_outside_paths=True)
        if sc.data_hash != job.data_hash:
            raise RuntimeError(f"scenario {job.ref} here differs from the one the run was "
                               f"started with (data hash {sc.data_hash}, not {job.data_hash})")
        p = _PLAYERS[job] = Player(sc, job.seed, dict(job.policies), job.per_turn)
    return p


def rss_mb() -> float:
    """The peak resident memory of this process, in MB.

    On Linux, the high-water mark of the process's own memory (``VmHWM``): ``ru_maxrss``
    there keeps the peak of the process it was forked from, so a worker spawned by a large
    parent would report the parent's size (a spawned worker is forked, then runs a new
    interpreter). Elsewhere ``ru_maxrss``."""
    import resource

    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def play_chunk(job: Job, indices: Sequence[int]) -> tuple[list[tuple], float]:
    """Play some games of a job: ``([(index, row, turns, towns)], peak memory in MB)``
    (``Player.play``)."""
    p = player_for(job)
    return [(i, *p.play(i)) for i in indices], rss_mb()


# --------------------------------------------------------------------------------------------
# where games are played: events ("game", i, row, turns, towns) (``Player.play``),
# ("lost", [i], why), ("rss", mb)
# --------------------------------------------------------------------------------------------

class WorkerError(RuntimeError):
    """A worker could not start playing (it could not load the scenario or a policy)."""


def _in_process(player: Player, todo: Sequence[int]) -> Iterator[tuple]:
    for i in todo:
        yield ("game", i, *player.play(i))
    yield ("rss", rss_mb())


def _worker_main(conn, job: Job) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C and stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # and a kill just ends a worker, quietly
    try:
        player = player_for(job)
    except Exception as exc:  # noqa: BLE001 - reported by the parent as one sentence
        conn.send(("fail", f"{type(exc).__name__}: {exc}"))
        return
    conn.send(("ready", rss_mb()))
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):                # the parent is gone
            return
        if chunk is None:
            return
        for i in chunk:
            played = player.play(i)
            try:
                conn.send(("game", i, *played))
            except OSError:
                return
        conn.send(("done", rss_mb()))


@dataclass
class _Worker:
    proc: multiprocessing.Process
    conn: object
    held: list[int] = field(default_factory=list)     # sent to it, not returned yet
    stopping: bool = False
    ready: bool = False                               # it loaded the scenario and said so


#: worker processes in a row that may die before they are ready, before the run gives up
START_DEATHS = 3
#: the most worker deaths a pool takes, however many games it has, before it stops starting
#: workers (a pool of N workers starts at most N + MAX_DEATHS processes in all)
MAX_DEATHS = 20


def _death(proc) -> str:
    code = proc.exitcode
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        hint = " (killed, perhaps by the out-of-memory killer)" if -code == 9 else ""
        return f"worker process {proc.pid} died of {name}{hint}"
    return f"worker process {proc.pid} ended unexpectedly (exit status {code})"


def _local_pool(job: Job, todo: Sequence[int], workers: int,
                target: Callable | None = None) -> Iterator[tuple]:
    """Play ``todo`` in ``workers`` processes, streaming each game as it ends.

    A worker that dies loses only the game it was playing (reported as lost); the games it had
    not started go back to the queue and a new worker takes its place. After too many deaths
    (3 + one per 100 games, never more than ``MAX_DEATHS``) the games still queued are
    reported as lost too and the run stops at what is done. Workers that die before they are
    even ready (``START_DEATHS`` in a row: a broken installation, no memory to start one) are
    not replaced again and again: the run stops with ``WorkerError``. Whatever happens, the
    pool starts at most ``workers + MAX_DEATHS`` processes. ``target`` is what a worker runs
    (``_worker_main``).
    """
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("spawn")      # no fork of a possibly threaded parent
    per = max(1, min(LOCAL_CHUNK, len(todo) // (4 * workers)))
    queue = deque(list(todo[a:a + per]) for a in range(0, len(todo), per))
    live: list[_Worker] = []
    deaths, limit = 0, min(3 + len(todo) // 100, MAX_DEATHS)
    start_deaths = 0                                # in a row, before a worker was ready
    starts, most = 0, workers + limit               # processes started, and the most allowed

    def start() -> None:
        nonlocal starts
        starts += 1
        here, there = ctx.Pipe()
        proc = ctx.Process(target=target or _worker_main, args=(there, job), daemon=True,
                           name="gwe-worker")
        proc.start()
        there.close()
        live.append(_Worker(proc, here))

    def hand_out(w: _Worker) -> None:
        if queue:
            w.held = queue.popleft()
            w.conn.send(list(w.held))
        else:
            w.stopping = True
            w.conn.send(None)

    try:
        for _ in range(min(workers, len(queue))):
            start()
        while live:
            ready = set(wait([x for w in live for x in (w.conn, w.proc.sentinel)]))
            for w in list(live):
                if w.conn not in ready and w.proc.sentinel not in ready:
                    continue
                ended = False
                try:
                    while w.conn.poll():
                        msg = w.conn.recv()
                        if msg[0] == "game":
                            w.held.remove(msg[1])
                            yield msg
                        elif msg[0] in ("ready", "done"):
                            if msg[0] == "ready":
                                w.ready, start_deaths = True, 0
                            yield ("rss", msg[1])
                            hand_out(w)
                        elif msg[0] == "fail":
                            raise WorkerError(msg[1])
                except (EOFError, OSError):
                    ended = True
                if not ended and w.proc.is_alive():
                    continue
                w.proc.join(5)
                w.conn.close()
                live.remove(w)
                if w.stopping and not w.held:
                    continue
                deaths += 1
                if not w.ready:
                    start_deaths += 1
                    if start_deaths >= START_DEATHS:
                        raise WorkerError(f"{start_deaths} worker processes in a row died "
                                          f"before they could play ({_death(w.proc)})")
                if w.held:                              # the game it was playing is lost
                    yield ("lost", w.held[:1], _death(w.proc))
                    if w.held[1:]:
                        queue.appendleft(w.held[1:])    # those it had not started go back
                if deaths > limit:
                    if queue:
                        lost = [i for c in queue for i in c]
                        queue.clear()
                        yield ("lost", lost, f"{deaths} worker processes died, the last "
                                             f"one: {_death(w.proc)}, so the run stopped")
                elif queue and len(live) < workers and starts < most:
                    start()
        if queue:                   # never silently: games no worker was left to play
            yield ("lost", [i for c in queue for i in c], f"{deaths} worker processes died, "
                                                          f"so the run stopped")
    finally:
        for w in live:
            if w.proc.is_alive():
                w.proc.terminate()
        for w in live:
            w.proc.join(5)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join()
            w.conn.close()


# --------------------------------------------------------------------------------------------
# the run
# --------------------------------------------------------------------------------------------

class ResumeError(ValueError):
    """An existing results file that is not the same run (or not a run at all)."""


class OutputBusy(ValueError):
    """Another run is writing the same results file."""


class OutputClash(ValueError):
    """Output files of one run that would write into each other."""


#: the endings of the files a run writes beside a results file ``X``: ``X.partial``,
#: ``X.partial.journal`` (and ``.new`` while it is replaced), ``X.partial.sorted`` and the
#: lock ``.X.lock``; no results file may be named so, and then no run's files can be another's
SIDE_FILE_ENDINGS = (".partial", ".journal", ".new", ".sorted", ".lock")


def check_outputs(out: Path, per_turn: Path | None = None) -> None:
    """Refuse (``OutputClash``, one sentence) output names that would make a run write into
    its own files: a results or per-turn file named like the files a run writes beside one,
    or a per-turn file that is the results file itself, however spelled."""
    for flag, p in (("--out", out), ("--turns-out", per_turn)):
        if p is None:
            continue
        p = Path(p)
        ending = next((e for e in SIDE_FILE_ENDINGS if p.name.endswith(e)), None)
        if ending is not None:
            raise OutputClash(f"{flag} {p} ends in {ending}, as the files a run writes beside "
                              f"its --out file do (.partial, .partial.journal, the lock); "
                              f"choose another name")
    if per_turn is not None and _same_file(towns_path_for(Path(out)), Path(per_turn)):
        raise OutputClash(f"--turns-out {per_turn} is the town table the run writes beside "
                          f"{out}; choose another name")
    if per_turn is not None and _same_file(Path(out), Path(per_turn)):
        raise OutputClash(f"--turns-out {per_turn} is the --out file {out}: the per-turn rows "
                          f"need a file of their own (by default "
                          f"{turns_path_for(Path(out)).name})")


def _same_file(a: Path, b: Path) -> bool:
    if Path(os.path.realpath(a)) == Path(os.path.realpath(b)):
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def lock_path(out: Path) -> Path:
    """The lock a run holds on a file it writes: ``.<name>.lock`` beside it."""
    out = Path(out)
    return out.with_name(f".{out.name}.lock")


@contextmanager
def output_lock(out: Path, *more: Path) -> Iterator[None]:
    """Hold the lock of every results file a run writes (``lock_path`` of ``out`` and of each
    of ``more``, its per-turn file), and so of their partial files and journals: a second run
    writing any of them (a second terminal, a job started twice, the same ``--turns-out``)
    stops at once with ``OutputBusy`` instead of writing into the first run's files.

    The locks go with the process, however it ends; a run that ends removes its lock files
    (a process killed outright leaves them, empty, and the next run takes them over). Without
    ``fcntl`` (Windows) there is no lock."""
    try:
        import fcntl
    except ImportError:                                     # pragma: no cover - not POSIX
        yield
        return
    held: list[tuple[Path, int]] = []
    try:
        for n, p in enumerate(dict.fromkeys(Path(x) for x in (out, *more))):
            held.append((lock_path(p), _lock(fcntl, p, "--out" if n == 0 else "--turns-out")))
        yield
    finally:
        for path, fd in reversed(held):
            _unlock(path, fd)


def _lock(fcntl, target: Path, flag: str) -> int:
    """An open descriptor holding the lock of ``target``; ``OutputBusy`` if another run has it.

    A run that ends removes its lock file before it lets go of the lock (``_unlock``). So a
    run that opened the file just before that, and gets the lock just after, holds the lock of
    a file no later run will see: a run starting then creates a new file and locks that one.
    Two runs would both think they hold the lock. To close that gap a lock counts only if the
    file at ``lock_path(target)`` is still the one locked; if not, try again with the file that
    is there now."""
    path = lock_path(target)
    while True:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:                   # the results cannot be written there either
            raise BatchWriteError(exc, target, partial_path(target), 0) from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise OutputBusy(f"another run is writing {target} (it holds {path}); wait for it "
                             f"to end or choose another {flag}") from None
        if _is_file_of(path, fd):
            return fd
        os.close(fd)                             # removed by the run that held it: again


def _is_file_of(path: Path, fd: int) -> bool:
    """Whether ``path`` names the open file ``fd``."""
    try:
        st = os.stat(path)
    except OSError:
        return False
    mine = os.fstat(fd)
    return (st.st_dev, st.st_ino) == (mine.st_dev, mine.st_ino)


def _unlock(path: Path, fd: int) -> None:
    """Remove a lock file while still holding its lock, then let go of the lock.

    In that order, a run that opened the file before its removal finds, once it has the lock,
    that the file is gone, and tries again (``_lock``); removing it after letting go would let
    such a run hold the lock of a removed file while a third locks a new one. The file is
    removed only if it is still ours (someone may have deleted it by hand)."""
    try:
        if _is_file_of(path, fd):
            os.unlink(path)
    except OSError:
        pass                                     # an unwritable folder: the file stays
    finally:
        os.close(fd)                             # and the lock with it


class BatchInterrupted(KeyboardInterrupt):
    """A run stopped by Ctrl-C or SIGTERM: every finished game is in ``partial``."""

    def __init__(self, partial: Path, kept: int):
        super().__init__(f"interrupted; {kept} finished games are kept in {partial}")
        self.partial, self.kept = partial, kept


class BatchWriteError(OSError):
    """The results could not be written (full disk, unwritable place): the games already
    written are in ``partial``."""

    def __init__(self, exc: OSError, path: Path, partial: Path, kept: int):
        super().__init__(exc.errno, exc.strerror or str(exc), str(path))
        self.partial, self.kept = partial, kept
        #: the file or folder the system refused, when it is not ``path`` itself
        self.culprit = exc.filename if exc.filename not in (None, str(path)) else None


@dataclass
class BatchSummary:
    """What a run did.

    ``out`` is the file asked for; ``rows_path`` is where the rows are now: ``out`` when the
    run is complete, ``<out>.partial`` when games are missing (``not_played``: a worker died
    playing them; ``--resume`` plays them). ``games`` counts the rows in that file (with those
    of an earlier run being resumed), ``played`` the games played by this call, ``results``
    and ``winners`` count rows by level of victory and by winner, ``mean_vp``/``vp_ci`` are
    the mean VP and its 95 % interval, ``errors`` the games that raised.
    """

    out: Path
    games: int
    seconds: float
    results: dict[str, int]
    mean_vp: float
    errors: int = 0
    rows_path: Path | None = None
    played: int = 0
    winners: dict[str, int] = field(default_factory=dict)
    vp_ci: tuple[float, float] = (math.nan, math.nan)
    not_played: list[int] = field(default_factory=list)
    lost_because: list[str] = field(default_factory=list)
    turns_path: Path | None = None
    worker_rss_mb: float | None = None
    seed: int | None = None
    #: what a resumed run found amiss and mended (a journal damaged or cut short)
    notes: list[str] = field(default_factory=list)
    #: the town table (``<stem>.towns.parquet``), written with the per-turn rows
    towns_path: Path | None = None

    @property
    def complete(self) -> bool:
        return not self.not_played

    def intervals(self, what: str = "results") -> dict[str, tuple[int, float, float]]:
        """``{level: (games, low, high)}``: the Wilson 95 % interval of each share (or of
        each winner with ``what="winners"``), most frequent first."""
        counts = getattr(self, what)
        return {k: (n, *wilson(n, self.games))
                for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))}


def same_scenario(recorded: str, key: str) -> bool:
    """Whether a run that recorded the scenario ``recorded`` is of the scenario loaded as
    ``key``: the same bundled name, or the same file however its path is spelled (relative
    to the current folder or absolute, through symbolic links)."""
    if recorded == key:
        return True
    from gwe_fast.scenario.loader import bundled_scenarios

    bundled = bundled_scenarios()
    if recorded in bundled or key in bundled:
        return False
    try:
        return _same_file(Path(recorded), Path(key)) and Path(key).is_file()
    except (OSError, ValueError):
        return False


def _check_same_run(rows: pa.Table, path: Path, expect: dict) -> None:
    """One sentence naming the first difference between ``rows`` and the run asked for."""
    what = {"scenario": "scenario", "data_hash": "scenario data (hash)",
            "options": "options", "policies": "policies", "master_seed": "seed",
            "package_version": "gwe_fast version", "scenario_version": "scenario version"}
    for col, label in what.items():
        values = set(rows.column(col).unique().to_pylist())
        if col == "scenario" and len(values) == 1 and same_scenario(next(iter(values)),
                                                                     expect[col]):
            continue
        if values != {expect[col]}:
            found = ", ".join(str(v) for v in sorted(values, key=str))
            raise ResumeError(f"cannot resume {path}: it is a run with {label} {found}, not "
                              f"{expect[col]}")


def _recover(out: Path, turns_out: Path | None, expect: dict, game_sch: pa.Schema,
             turn_sch: pa.Schema | None, notes: list[str] | None = None
             ) -> tuple[pa.Table | None, pa.Table | None]:
    try:
        games = read_rows(out, game_sch, notes=notes)
    except RowsError as exc:
        raise ResumeError(f"cannot resume: {exc}") from None
    if games is None or games.num_rows == 0:
        return None, None
    _check_same_run(games, out, expect)
    done = set(games.column("game_index").to_pylist())
    had_turns = None
    if out.exists():
        try:
            had_turns = read_metadata(out).get("per_turn")
        except ValueError:
            had_turns = None
    default_turns = turns_path_for(out)
    if turns_out is None:
        default_towns = towns_path_for(out)
        if had_turns or any(p.exists() for t in (default_turns, default_towns)
                            for p in (t, partial_path(t), journal_path(t))):
            raise ResumeError(f"cannot resume {out}: it recorded per-turn rows; resume it "
                              f"with --per-turn")
        return games, None
    try:
        turns = read_rows(turns_out, turn_sch, keys=done, notes=notes, one_per_game=False)
    except RowsError as exc:
        raise ResumeError(f"cannot resume: {exc}") from None
    played = set(games.filter(pc.not_equal(games.column("result"), ERROR))
                 .column("game_index").to_pylist())
    recorded = any(p.exists() for p in (turns_out, partial_path(turns_out),
                                        journal_path(turns_out)))
    if played and not recorded:
        raise ResumeError(f"cannot resume {out} with --per-turn: no per-turn rows were "
                          f"recorded for its {len(played)} games (at {turns_out})")
    if turns is not None and set(turns.column("master_seed").unique().to_pylist()) != {
            expect["master_seed"]}:
        raise ResumeError(f"cannot resume {turns_out}: its rows are not of seed "
                          f"{expect['master_seed']}")
    # A game's per-turn rows are written whole, in one journal record (ParquetSink), so a game
    # either has them all or none. A game whose rows were lost (a damaged per-turn journal)
    # is played again, rather than kept without them.
    lost = played - set(turns.column("game_index").to_pylist() if turns is not None else ())
    if lost:
        games = games.filter(pc.invert(pc.is_in(games.column("game_index"),
                                                pa.array(sorted(lost), games.schema.field(
                                                    "game_index").type))))
    return (games if games.num_rows else None), turns


def turns_path_for(out: Path) -> Path:
    """The default per-turn table of a run written to ``out``: ``<stem>.turns.parquet``."""
    out = Path(out)
    return out.with_name(f"{out.stem}.turns{out.suffix or '.parquet'}")


def run_batch(scenario: Scenario, games: int, seed: int, out: Path, *,
              policies: dict[str, str] | None = None, workers: int = 1,
              per_turn: Path | None = None, resume: bool = False,
              progress: Callable[[int, int, float], None] | None = None,
              backend: str = "local", scheduler: str | None = None,
              indices: Sequence[int] | None = None) -> BatchSummary:
    """Play games ``0 .. games-1`` (or only ``indices``) of ``scenario`` with master seed
    ``seed`` and write one row per game to ``out``.

    Parameters
    ----------
    policies
        Policy spec per side (``"allied"``/``"central"``, or the game's names for them), as
        ``make_policy`` takes them; sides not given play ``DEFAULT_POLICIES``.
    workers
        Processes playing games (1: in this process). Ignored by the dask backend.
    per_turn
        Also write one row per game, Game-Turn and side to this Parquet file, and (a hex
        game) one row per game and Victory Point town to ``towns_path_for(out)``.
    resume
        Keep the games already in ``out`` (complete) or ``<out>.partial`` and play only the
        missing indices; with a larger ``games`` this extends a finished run. The file must
        be a run of the same scenario, data, options, policies, seed and gwe_fast version
        (``ResumeError`` otherwise). Without ``resume`` an existing ``out`` is replaced.
    progress
        Called as ``progress(done, total, seconds)`` after every game played by this call.
    backend, scheduler
        ``"local"``, or ``"dask"`` with the address of a dask.distributed scheduler.
    indices
        Play these game indices only (each below ``games``), e.g. one share of a run split
        across jobs: ``indices=range(k, games, n)``.

    Rows stream to ``<out>.partial`` and the file is renamed to ``out`` when every game is in
    it, sorted by ``game_index``. An interruption raises ``BatchInterrupted``, a write
    failure ``BatchWriteError``; either way every game already written stays in
    ``<out>.partial`` for ``resume``. A game that raises is a row with ``result = "error"``.
    While another run writes ``out`` or ``per_turn`` (``output_lock``), ``OutputBusy`` and
    nothing is done; output names that would write into each other, ``OutputClash``. A game
    count, seed or index out of range is a ``ValueError`` before anything is done.
    """
    check_arguments(games, seed, workers)
    check_outputs(Path(out), Path(per_turn) if per_turn is not None else None)
    # the per-turn file and the town table written with it (towns_path_for) share the lock
    more = [Path(per_turn), towns_path_for(Path(out))] if per_turn is not None else []
    with output_lock(Path(out), *more):
        return _run_batch(scenario, games, seed, Path(out), policies=policies, workers=workers,
                          per_turn=per_turn, resume=resume, progress=progress, backend=backend,
                          scheduler=scheduler, indices=indices)


def check_arguments(games: int, seed: int, workers: int = 1) -> None:
    """Refuse (``ValueError``, one sentence) a game count or master seed out of range (the
    columns that hold them are an int32 and an int64), or a worker count that is."""
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"the number of games must be 1 to {MAX_GAMES}, not {games}")
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"the master seed must be 0 to {MAX_SEED}, not {seed}")
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"the number of worker processes must be 1 to {MAX_WORKERS}, not "
                         f"{workers}")


def _run_batch(scenario: Scenario, games: int, seed: int, out: Path, *,
               policies: dict[str, str] | None, workers: int, per_turn: Path | None,
               resume: bool, progress: Callable[[int, int, float], None] | None,
               backend: str, scheduler: str | None,
               indices: Sequence[int] | None) -> BatchSummary:
    """``run_batch`` with its files locked."""
    if backend not in ("local", "dask"):
        raise ValueError(f"unknown backend {backend!r} (local or dask)")
    if backend == "dask" and not scheduler:
        raise ValueError("the dask backend needs the address of a scheduler")
    if indices is None:
        target = list(range(games))
    else:
        target = sorted({int(i) for i in indices})
        bad = [i for i in target if not 0 <= i < games]
        if bad:
            raise ValueError(f"game index {bad[0]} is outside 0..{games - 1}")
    specs = resolve_policies(policies, scenario.game)
    fixed = _run_columns(scenario, seed, specs)
    game_sch = game_schema(scenario)
    turn_sch = turn_schema(scenario) if per_turn is not None else None
    per_turn = Path(per_turn) if per_turn is not None else None
    town_sch = town_schema(scenario) if per_turn is not None else None
    towns_out = towns_path_for(out) if town_sch is not None else None

    prior_games = prior_turns = prior_towns = None
    notes: list[str] = []
    if resume:
        prior_games, prior_turns = _recover(out, per_turn, fixed, game_sch, turn_sch, notes)
        if prior_games is not None:          # the scenario as the run recorded it (its path
            fixed["scenario"] = prior_games.column("scenario")[0].as_py()   # spelled so)
        if town_sch is not None:
            n_towns = len(_driver(scenario.game).town_values(scenario))
            prior_towns = _recover_towns(out, towns_out, prior_games, fixed, town_sch, n_towns)
    done = set(prior_games.column("game_index").to_pylist()) if prior_games is not None else set()
    todo = [i for i in target if i not in done]

    results: dict[str, int] = {}
    winners: dict[str, int] = {}
    vps: list[int] = []
    if prior_games is not None:
        for col, counts in (("result", results), ("winner", winners)):
            for v in prior_games.column(col).to_pylist():
                counts[v] = counts.get(v, 0) + 1
        vps.extend(prior_games.column("vp").to_pylist())

    job = Job.of(scenario, seed, specs, per_turn is not None) if (
        backend == "dask" or workers > 1) else None
    if not todo:
        events: Iterator[tuple] = iter(())
    elif backend == "dask":
        from gwe_fast.runner.dask_backend import dask_games

        events = dask_games(job, todo, scheduler)        # connects now
    elif job is None or len(todo) == 1:
        events = _in_process(Player(scenario, seed, specs, per_turn is not None), todo)
    else:
        events = _local_pool(job, todo, min(workers, len(todo)))
    sinks: list[ParquetSink] = []
    try:
        if per_turn is not None:           # the turns first: a game's row follows its turns
            sinks.append(ParquetSink(per_turn, turn_sch, prior_turns))
        if towns_out is not None:          # and its towns
            sinks.append(ParquetSink(towns_out, town_sch, prior_towns))
        sinks.append(ParquetSink(out, game_sch, prior_games))
    except OSError as exc:
        for s in sinks:
            s.abort()
        getattr(events, "close", lambda: None)()
        raise BatchWriteError(exc, out, partial_path(out), 0) from exc
    game_sink = sinks[-1]
    turn_sink = sinks[0] if per_turn is not None else None
    town_sink = sinks[-2] if towns_out is not None else None

    t0 = time.perf_counter()
    step = _flush_every(len(target))
    # a game's row comes as its values in the order of ``columns`` (``Player.play``), its
    # per-turn table as columns; a row group is made column by column
    columns = game_sch.names[len(RUN_FIELDS):]
    at_result, at_winner, at_vp = (columns.index(c) for c in ("result", "winner", "vp"))
    run_names = [f.name for f in RUN_FIELDS]
    turn_names = turn_sch.names[len(TURN_KEY_FIELDS):] if turn_sch is not None else []
    buf: list[tuple] = []
    tbuf: dict[str, list] = {name: [] for name in turn_sch.names} if turn_sch else {}
    townbuf: list[dict] = []
    last_flush = time.monotonic()
    lost: list[int] = []
    why: list[str] = []
    peak: float | None = None
    played = 0

    def flush() -> None:
        nonlocal buf, tbuf, townbuf, last_flush
        with _signals_deferred():        # a row group is written whole, or not at all
            try:
                if turn_sink is not None and tbuf["game_index"]:
                    turn_sink.write(tbuf)
                if town_sink is not None and townbuf:
                    town_sink.write({f.name: [r[f.name] for r in townbuf] for f in town_sch})
                if buf:
                    data = {name: [fixed[name]] * len(buf) for name in run_names}
                    data.update(zip(columns, zip(*buf)))
                    game_sink.write(data)
            except OSError as exc:           # a full disk, a file system gone read-only …
                raise BatchWriteError(exc, out, partial_path(out), game_sink.rows) from exc
            finally:
                buf, townbuf, last_flush = [], [], time.monotonic()
                tbuf = {name: [] for name in tbuf}

    try:
        try:
            for ev in events:
                if ev[0] == "rss":
                    peak = max(peak or 0.0, ev[1])
                    continue
                if ev[0] == "lost":
                    lost.extend(ev[1])
                    why.append(ev[2])
                    continue
                _, i, row, turns, towns = ev
                buf.append(row)
                if turns and turn_names:        # checked whole by the player (RowCheck)
                    n = len(turns[turn_names[0]])
                    tbuf["master_seed"] += [seed] * n
                    tbuf["game_index"] += [i] * n
                    for name in turn_names:
                        tbuf[name] += turns[name]
                townbuf.extend({"master_seed": seed, "game_index": i, **t} for t in towns)
                result, winner = row[at_result], row[at_winner]
                results[result] = results.get(result, 0) + 1
                winners[winner] = winners.get(winner, 0) + 1
                vps.append(row[at_vp])
                played += 1
                if len(buf) >= step or time.monotonic() - last_flush > FLUSH_SECONDS:
                    flush()
                if progress:
                    progress(played, len(todo), time.perf_counter() - t0)
            flush()
        finally:
            close = getattr(events, "close", None)
            if close is not None:
                close()                          # stop the workers still playing
    except KeyboardInterrupt:
        _keep(flush, sinks)
        raise BatchInterrupted(partial_path(out), game_sink.rows) from None
    except BatchWriteError:
        for s in sinks:
            s.abort()
        raise
    except BaseException as exc:
        _keep(flush, sinks)
        if isinstance(exc, BACKEND_ERRORS):
            exc.partial, exc.kept = partial_path(out), game_sink.rows
        raise
    seconds = time.perf_counter() - t0
    meta = {"format_version": FORMAT_VERSION, "package_version": __version__,
            "scenario": fixed["scenario"], "scenario_name": scenario.name,
            "game": scenario.game,
            "scenario_version": scenario.version, "data_hash": scenario.data_hash,
            "options": dict(scenario.options), "options_hash": scenario.options_hash,
            "master_seed": seed, "games": game_sink.rows, "policies": specs,
            "engine": scenario.game if _driver(scenario.game) is not None else SETUP_ONLY,
            "per_turn": per_turn.name if per_turn is not None else None,
            "towns": towns_out.name if towns_out is not None else None,
            "backend": backend, "workers": workers if backend == "local" else None,
            "seconds": round(seconds, 3), "resumed_from": len(done),
            "max_worker_rss_mb": round(peak, 1) if peak is not None else None}
    if indices is not None:
        meta["indices"] = f"{len(target)} of 0..{games - 1}"
    rows_path = partial_path(out)
    try:
        with _signals_deferred():            # finish the files, then hear a late Ctrl-C
            if lost:
                for s in sinks:
                    s.abort()
            else:
                if turn_sink is not None:
                    turn_sink.close({**meta, "table": "turns", "games_file": out.name})
                if town_sink is not None:
                    town_sink.close({**meta, "table": "towns", "games_file": out.name})
                rows_path = game_sink.close({**meta, "table": "games"})
    except OSError as exc:
        for s in sinks:
            s.abort()
        raise BatchWriteError(exc, out, partial_path(out), game_sink.rows) from exc
    m, lo, hi = mean_ci(vps) if vps else (math.nan, math.nan, math.nan)
    summary = BatchSummary(out, game_sink.rows, seconds, results, m, results.get(ERROR, 0),
                           rows_path, played, winners, (lo, hi), sorted(lost), why,
                           per_turn, peak, seed, notes)
    summary.towns_path = towns_out
    return summary


@contextmanager
def _signals_deferred():
    """Hold Ctrl-C and SIGTERM back while a row group is written (so that the Parquet file and
    its journal never differ by half a write), then deliver them."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    sigs = (signal.SIGINT, signal.SIGTERM)
    before = {s: signal.signal(s, lambda signum, frame: caught.append(signum)) for s in sigs}
    try:
        yield
    finally:
        for s, handler in before.items():
            signal.signal(s, signal.SIG_DFL if handler is None else handler)
        for s in caught[:1]:
            signal.raise_signal(s)           # the restored handler acts on it now


def _keep(flush: Callable[[], None], sinks: list[ParquetSink]) -> None:
    """On the way out: write the finished games still buffered, close the partial files."""
    try:
        flush()
    except Exception:  # noqa: BLE001 - the first error is the one to report
        pass
    for s in sinks:
        s.abort()


def worker_count(requested: int) -> int:
    """``requested`` processes, or one per usable core for 0 (at most ``MAX_WORKERS``)."""
    if requested > 0:
        return requested
    try:
        return min(len(os.sched_getaffinity(0)), MAX_WORKERS)
    except AttributeError:
        return min(os.cpu_count() or 1, MAX_WORKERS)


from gwe_fast.runner.dask_backend import BackendError  # noqa: E402 - no dask import needed

#: failures of the machinery that plays games (not of a game): one sentence each
BACKEND_ERRORS = (WorkerError, BackendError)


# --------------------------------------------------------------------------------------------
# names and words for the command line
# --------------------------------------------------------------------------------------------

def run_name(scenario: Scenario) -> str:
    """A file-name-friendly name of a scenario: ``brusilov-historical``, or ``<folder>-<file
    stem>`` for a scenario file (the folder it is really in, however its path is given)."""
    from gwe_fast.scenario.loader import bundled_scenarios

    if scenario.key in bundled_scenarios():
        return scenario.key.replace("/", "-")
    p = Path(os.path.realpath(scenario.path or scenario.key))   # however its path is spelled
    return f"{p.parent.name}-{p.stem}" if p.parent.name else p.stem


def default_out(folder: Path, scenario: Scenario, seed: int, now: float | None = None) -> Path:
    """``<folder>/<scenario>-seed<S>-<YYYYmmdd-HHMMSS>.parquet``."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    return Path(folder) / f"{run_name(scenario)}-seed{seed}-{stamp}.parquet"


def latest_run(folder: Path, scenario: Scenario, seed: int) -> Path | None:
    """The newest default-named run of ``scenario`` and ``seed`` in ``folder`` (complete or
    partial), as the ``out`` path to resume; ``None`` if there is none."""
    prefix = f"{run_name(scenario)}-seed{seed}-"
    found = set()
    for p in Path(folder).glob(prefix + "*.parquet*"):
        name = p.name
        for suffix in (".partial.journal", ".partial"):
            if name.endswith(suffix):
                name = name[: -len(suffix)]
        stamp = name[len(prefix):]
        if (name.endswith(".parquet") and ".turns." not in name and ".towns." not in name
                and stamp[:8].isdigit()):
            found.add(name)
    return Path(folder) / max(found) if found else None


def plural(n: int, word: str) -> str:
    """``1 game``, ``2 games``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def format_seconds(s: float) -> str:
    """``42 s``, ``3 min 05 s``, ``2 h 07 min``."""
    if not math.isfinite(s):
        return "?"
    s = int(round(s))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"


def side_words(scenario: Scenario) -> tuple[dict[str, str], str | None, Callable | None]:
    """What the game's rules call each side (``{"allied": "Russian", ...}``), the side whose
    score the VP total is, and the function giving the winner of a level of victory; the
    side names alone for a game without an engine."""
    d = _driver(scenario.game)
    names = {side: side.capitalize() for side in SIDES}
    if d is None:
        return names, None, None
    return ({**names, **getattr(d, "SIDE_NAMES", {})}, getattr(d, "VP_FOR", None),
            getattr(d, "winner_of", None))


def format_summary(summary: BatchSummary, scenario: Scenario) -> list[str]:
    """The lines ``gwe run`` prints at the end of a run. Sides are ``allied`` and ``central``
    as in the columns, with the game's own name for each; a level of victory keeps the
    rulebook's name and says which side it is a win for."""
    n = summary.games
    rate = summary.played / summary.seconds if summary.seconds > 0 else 0.0
    now = f", {summary.played} played now" if summary.played != n else ""
    lines = [f"{scenario.name} ({scenario.key}), seed {_seed_of(summary)}: "
             f"{plural(n, 'game')}{now}, in {format_seconds(summary.seconds)} "
             f"({rate:.2f} games/s) -> {summary.rows_path}"]
    names, vp_for, winner_of = side_words(scenario)
    if n:
        levels = levels_of(scenario, summary.results)
        def side_of(lv: str) -> str:
            if not winner_of or lv in (ERROR, SETUP_ONLY):
                return ""
            w = winner_of(lv)
            return f"{w} wins" if w in SIDES else "no winner"
        sides = {lv: side_of(lv) for lv in levels}
        width = max(len(k) for k in ["level of victory", *levels])
        sw = max(len(v) for v in ["side", *sides.values()])
        lines.append(f"  {'level of victory':<{width}}  {'side':<{sw}}  games   share   "
                     f"95 % interval")
        for level in levels:
            k = summary.results.get(level, 0)
            lo, hi = wilson(k, n)
            lines.append(f"  {level:<{width}}  {sides[level]:<{sw}}  {k:5d}  "
                         f"{100 * k / n:5.1f}%   {100 * lo:5.1f}% - {100 * hi:5.1f}%")
        seen = summary.intervals("winners")
        both = {w: seen.get(w, (0, *wilson(0, n))) for w in SIDES}    # a side with no win too
        wins = ", ".join(f"{w}{f' ({names[w]})' if w in names else ''} {100 * k / n:.1f}% "
                         f"({100 * lo:.1f}-{100 * hi:.1f}%)"
                         for w, (k, lo, hi) in {**both, **seen}.items())
        lines.append(f"  wins: {wins}")
        lo, hi = summary.vp_ci
        ci = f" (95 % interval {lo:.2f} to {hi:.2f})" if math.isfinite(lo) else ""
        whose = f" ({names[vp_for]} VP, the {vp_for} side's score)" if vp_for else ""
        lines.append(f"  mean VP{whose}: {summary.mean_vp:.2f}{ci}")
    lines.append(f"  errors: {summary.errors}")
    if summary.not_played:
        lines.append(f"  not played: {len(summary.not_played)} "
                     f"({'; '.join(dict.fromkeys(summary.lost_because))})")
    if summary.turns_path is not None:
        where = summary.turns_path if summary.complete else partial_path(summary.turns_path)
        lines.append(f"  per-turn rows: {where}")
    if summary.towns_path is not None:
        where = summary.towns_path if summary.complete else partial_path(summary.towns_path)
        lines.append(f"  town rows: {where}")
    if summary.worker_rss_mb is not None:
        lines.append(f"  peak memory per worker process: {summary.worker_rss_mb:.0f} MB")
    if summary.results and set(summary.results) == {SETUP_ONLY}:
        lines.append("  (this game's engine is not built yet: games were set up, not played)")
    return lines


def levels_of(scenario: Scenario, results: dict[str, int]) -> list[str]:
    """The scenario's levels of victory in the order of its table, then any other result
    (``error``, ``setup-only``) seen in ``results``."""
    bands = scenario.tables.get("victory_levels", {}).get("band", [])
    levels = [b["level"] for b in bands if "level" in b]
    return levels + sorted(k for k in results if k not in levels)


def _seed_of(summary: BatchSummary) -> str:
    return str(summary.seed) if summary.seed is not None else "?"
