"""The Kaiser's Battle behind the common driver (see ``gwe_fast.games``)."""

from __future__ import annotations

import pyarrow as pa

from gwe_fast.enums import Side
from gwe_fast.games import GameResult
from gwe_fast.games.kb.game import LOSS_CAUSES, MISSIONS, VP_CAUSES, WEATHER, KbGame

GAME_CLASS = KbGame
SIDES = tuple(s.name.lower() for s in Side)
#: the side whose score the VP total is: the German VP total (20.0)
VP_FOR = "central"
#: what the rules call each side (``allied`` and ``central`` everywhere else)
SIDE_NAMES = {"allied": "Allied", "central": "German"}
_I32, _I16 = pa.int32(), pa.int16()

#: the game's own columns: VP by cause (20.1), losses by side and cause, artillery spent by
#: side and mission (9.0), gas markers placed (9.3), Game-Turns of each weather (11.0), exits
#: (20.2), service companies (15.2) and divisions broken down (13.1)
RECORD_FIELDS = (
    [pa.field(f"vp_{c}", _I32, nullable=False) for c in VP_CAUSES]
    + [pa.field(f"steps_lost_{s}_{c}", _I32, nullable=False) for s in SIDES for c in LOSS_CAUSES]
    + [pa.field(f"sp_lost_{s}", _I32, nullable=False) for s in SIDES]
    + [pa.field("towns_held_central", _I16, nullable=False)]
    + [pa.field(f"artillery_{s}_{m}", _I32, nullable=False) for s in SIDES for m in MISSIONS]
    + [pa.field("gas_markers_placed", _I16, nullable=False)]
    + [pa.field(f"weather_{w}", _I16, nullable=False) for w in WEATHER]
    + [pa.field("exits_central", _I16, nullable=False),
       pa.field("exits_isolated", _I16, nullable=False),
       pa.field("service_companies", _I16, nullable=False),
       pa.field("divisions_broken_down", _I16, nullable=False)]
)

TURN_FIELDS = (
    [pa.field("turn", _I16, nullable=False), pa.field("side", pa.string(), nullable=False),
     pa.field("vp", _I32, nullable=False), pa.field("vp_if_ended_now", _I32, nullable=False),
     pa.field("weather", pa.string(), nullable=False),
     pa.field("gas_markers", _I16, nullable=False),
     pa.field("towns_held_central", _I16, nullable=False),
     pa.field("exits_central", _I16, nullable=False)]
    + [pa.field(f"{k}_{s}", _I32, nullable=False) for s in SIDES
       for k in ("units", "stacking", "steps_lost")]
    + [pa.field(f"steps_lost_{s}_{c}", _I32, nullable=False) for s in SIDES for c in LOSS_CAUSES]
    + [pa.field(f"artillery_{s}_{m}", _I32, nullable=False) for s in SIDES for m in MISSIONS]
)


def winner_of(level: str) -> str:
    """The side that wins at a level of victory (20.3)."""
    from gwe_fast.games.kb.victory import winner

    return winner(level)


def end_scoring(game: KbGame) -> list[dict]:
    """The points the end of the game adds (20.11, 20.13), as the engine adds them: the towns
    west of the VP line the German player holds, and the Allied units in trench hexes."""
    import numpy as np

    from gwe_fast.games.kb import victory

    towns = np.flatnonzero(victory.german_towns(game)).tolist()
    town_vp = int(victory._vp("town_west_of_vp_line", game))
    st = game.state
    on = np.flatnonzero(victory.units.on_map(game, Side.ALLIED))      # as 20.13 counts them
    in_works = [int(i) for i in on if game.data.trench[st.unit_cell[i]]]
    trench_vp = int(victory._vp("allied_unit_in_trench", game))
    return [{"cause": "towns", "rule": "20.11", "vp": len(towns) * town_vp,
             "what": "towns west of the VP line held by the German player", "cells": towns,
             "values": [town_vp] * len(towns)},
            {"cause": "allied_in_trenches", "rule": "20.13", "vp": len(in_works) * trench_vp,
             "what": "Allied units in fieldwork, redoubt or wire hexes", "units": in_works}]


def town_values(scenario) -> dict[int, int]:
    """The Victory Points each town is worth to the German player at the end (20.11): the
    schedule's value for a town west of the VP line, nothing for the others; by map cell."""
    import numpy as np

    from gwe_fast.games.kb.data import kb_data
    from gwe_fast.games.kb.victory import _schedule

    data = kb_data(scenario)
    value = int(_schedule(scenario)["town_west_of_vp_line"])
    return {int(c): value for c in np.flatnonzero(data.town & data.west_of_vp_line)}


def new_game(scenario, seed: int, index: int, policies=None, events: bool = False) -> KbGame:
    return KbGame(scenario, seed=seed, game_index=index, policies=policies, events=events)


def play(game: KbGame, check=None) -> GameResult:
    from gwe_fast.games.kb import engine

    return engine.play(game, check=check)


def record(game: KbGame) -> dict:
    """The game's own columns (``RECORD_FIELDS``) of the position as it stands."""
    from gwe_fast.games.kb import victory

    row = {f"vp_{c}": int(v) for c, v in zip(VP_CAUSES, game.arr("vp_cause"))}
    lost = game.arr("steps_lost")
    spent = game.arr("arty_spent")
    for s, name in enumerate(SIDES):
        for i, c in enumerate(LOSS_CAUSES):
            row[f"steps_lost_{name}_{c}"] = int(lost[s, i])
        row[f"sp_lost_{name}"] = int(game.arr("sp_lost")[s].sum())
        for k, m in enumerate(MISSIONS):
            row[f"artillery_{name}_{m}"] = int(spent[s, k].sum())
    row["towns_held_central"] = int(victory.german_towns(game).sum())
    row["gas_markers_placed"] = int(game.arr("gas_placed")[0])
    for w, name in enumerate(WEATHER):
        row[f"weather_{name}"] = int(game.arr("weather_turns")[w])
    row["exits_central"] = int(game.arr("exited")[0])
    row["exits_isolated"] = int(game.arr("exited")[1])
    row["service_companies"] = int(game.arr("service_placed")[0])
    row["divisions_broken_down"] = int(game.arr("broken_down")[0])
    return row
