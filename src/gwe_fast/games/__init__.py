"""The rules engines, one package per game system, each behind the same small driver.

A driver module (``gwe_fast.games.<game>.driver``) is what the runner, the policies'
tournaments and the benchmarks see of a game:

* ``new_game(scenario, seed, index, policies=None, events=False)``: a ``PlayedGame``;
* ``play(game, check=None)``: plays it to the end and returns a ``GameResult``;
* ``RECORD_FIELDS``: the game's own columns of the one-row-per-game record (pyarrow fields,
  non-null), which ``record(game, result)`` fills;
* ``TURN_FIELDS``: the columns of the one-row-per-turn-and-side record; ``GameResult.per_turn``
  holds those rows;
* ``TOWN_FIELDS`` (the hex games): the columns of the one-row-per-game-and-town record, which
  ``play(game, towns=True)`` puts in ``GameResult.towns``.

A driver may also offer, for speed (The Guns of August does): ``play(game, per_turn=False)``,
which keeps no per-turn record when a run does not write one; ``recorder(scenario)``, made once
per scenario, whose call on a game gives ``record``'s values as a tuple in the order of the
record fields (its ``names``); and a ``per_turn`` record with a ``columns()`` method giving the
per-turn rows as ``{column: values}``.

Examples
--------
>>> from gwe_fast.games import driver
>>> driver("gwe").__name__
'gwe_fast.games.gwe.driver'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType

DRIVERS = {"gwe": "gwe_fast.games.gwe.driver", "kb": "gwe_fast.games.kb.driver",
           "goa": "gwe_fast.games.goa.driver"}
#: each game system's name, for messages
GAME_TITLES = {"gwe": "The Great War in the East", "kb": "The Kaiser's Battle",
               "goa": "The Guns of August"}


@dataclass
class GameResult:
    """How a game ended: the final VP total, the level of victory and who won it
    (``"allied"``, ``"central"`` or ``"draw"``), the Game-Turns played and the per-turn
    record rows."""

    vp: int
    level: str
    winner: str
    turns_played: int
    per_turn: list[dict] = field(default_factory=list)
    #: the town record (``gwe_fast.games.towns``), when asked for (``play(..., towns=True)``)
    towns: list[dict] | None = None


def driver(game: str) -> ModuleType:
    """The driver module of a game system (``"gwe"`` or ``"kb"``)."""
    try:
        return importlib.import_module(DRIVERS[game])
    except KeyError:
        raise ValueError(f"no rules engine for game {game!r} (known: {', '.join(DRIVERS)})") from None
