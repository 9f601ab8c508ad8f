"""The Great War in the East behind the common driver (see ``gwe_fast.games``)."""

from __future__ import annotations

import pyarrow as pa

from gwe_fast.enums import Side
from gwe_fast.games import GameResult
from gwe_fast.games.gwe.game import LOSS_CAUSES, VP_CAUSES, GweGame

GAME_CLASS = GweGame
SIDES = tuple(s.name.lower() for s in Side)
#: the side whose score the VP total is: the Russian VP total (25.0)
VP_FOR = "allied"
#: what the rules call each side (``allied`` and ``central`` everywhere else)
SIDE_NAMES = {"allied": "Russian", "central": "Central Powers"}


def _column(cause: str) -> str:
    """The results column of a VP cause, its side named ``allied`` or ``central`` as in every
    other column (the causes keep the rulebook's names: 25.2)."""
    for rules, ours in (("central_powers_", "central_"), ("russian_", "allied_")):
        if cause.startswith(rules):
            return f"vp_{ours}{cause[len(rules):]}"
    return f"vp_{cause}"


#: the results column of each VP cause, in ``VP_CAUSES`` order
VP_COLUMNS = tuple(_column(c) for c in VP_CAUSES)

_I32 = pa.int32()
#: the game's own columns of the per-game record: VP by cause (25.2), losses by side and cause
RECORD_FIELDS = (
    [pa.field(name, _I32, nullable=False) for name in VP_COLUMNS]
    + [pa.field(f"steps_lost_{s}_{c}", _I32, nullable=False) for s in SIDES for c in LOSS_CAUSES]
    + [pa.field(f"sp_lost_{s}", _I32, nullable=False) for s in SIDES]
    + [pa.field("towns_held_allied", pa.int16(), nullable=False)]
)

#: the per-turn record (engine.snapshot), one row per Game-Turn and Player-Turn
TURN_FIELDS = (
    [pa.field("turn", pa.int16(), nullable=False), pa.field("side", pa.string(), nullable=False),
     pa.field("vp", _I32, nullable=False),
     pa.field("towns_held_allied", pa.int16(), nullable=False),
     pa.field("towns_vp_allied", _I32, nullable=False)]
    + [pa.field(f"{k}_{s}", _I32, nullable=False) for s in SIDES
       for k in ("units", "out_of_supply", "out_of_command", "hexes_held", "steps_lost",
                 "sp_lost")]
    + [pa.field(f"steps_lost_{s}_{c}", _I32, nullable=False) for s in SIDES for c in LOSS_CAUSES]
)


def winner_of(level: str) -> str:
    """The side that wins at a level of victory (25.3)."""
    from gwe_fast.games.gwe.victory import winner_of

    return winner_of(level)


def end_scoring(game: GweGame) -> list[dict]:
    """The points the end of the game adds (25.11), as the engine adds them: the towns the
    Russian player controls, each with its value (``cells``, ``values``)."""
    from gwe_fast.games.gwe import victory

    value = {p.cell: p.vp for p in game.scenario.places}
    cells = victory.russian_towns(game)
    return [{"cause": "towns", "rule": "25.11", "vp": int(sum(value[c] for c in cells)),
             "what": "towns held by the Russian player", "cells": list(cells),
             "values": [int(value[c]) for c in cells]}]


def town_values(scenario) -> dict[int, int]:
    """The Victory Points each town or city is worth to the Russian player at the end
    (25.11): its own value, by map cell."""
    return {p.cell: p.vp for p in scenario.places if p.vp}


def new_game(scenario, seed: int, index: int, policies=None, events: bool = False) -> GweGame:
    return GweGame(scenario, seed=seed, game_index=index, policies=policies, events=events)


def play(game: GweGame, check=None) -> GameResult:
    from gwe_fast.games.gwe import engine

    r = engine.play(game, check=check)
    return GameResult(vp=r.vp, level=r.level, winner=r.winner, turns_played=r.turns_played,
                      per_turn=r.per_turn)


def record(game: GweGame) -> dict:
    """The game's own columns (``RECORD_FIELDS``) of the position as it stands."""
    from gwe_fast.games.gwe import victory

    row = {name: int(v) for name, v in zip(VP_COLUMNS, game.arr("vp_cause"))}
    lost = game.arr("steps_lost")
    for s, name in enumerate(SIDES):
        for i, c in enumerate(LOSS_CAUSES):
            row[f"steps_lost_{name}_{c}"] = int(lost[s, i])
        row[f"sp_lost_{name}"] = int(game.arr("sp_lost")[s].sum())
    row["towns_held_allied"] = len(victory.russian_towns(game))
    return row
