"""Victory (20.0): the German Victory Point total at the end of Game-Turn 10 and its level."""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast.enums import Side
from gwe_fast.games.kb import supply, units
from gwe_fast.games.kb.game import KbGame
from gwe_fast.games.kb.zoc import occupied
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_CENTRAL = int(Side.CENTRAL)


def german_towns(game: KbGame) -> np.ndarray:
    """Towns west of the German Victory Point line that the German player occupies or was the
    last to pass through (20.11)."""
    st = game.state
    towns = game.data.town & game.data.west_of_vp_line
    ger = occupied(game, Side.CENTRAL)
    allied = occupied(game, Side.ALLIED)
    return towns & (ger | ((st.hex_last == _CENTRAL) & ~allied))


def allied_in_trenches(game: KbGame) -> int:
    """Allied units occupying fieldwork, redoubt or wire hexes (20.13)."""
    st = game.state
    on = units.on_map(game, Side.ALLIED)
    return int(game.data.trench[st.unit_cell[on]].sum())


def exit_unit(game: KbGame, unit: int) -> None:
    """A German unit leaves the map from a western edge hex (20.2): 3 Victory Points if it is
    not isolated as it leaves (20.12, 14.13[4]); it never returns."""
    st = game.state
    lengths = supply.line_lengths(game, Side.CENTRAL)
    isolated = supply.state_of(game, lengths, unit) == supply.ISOLATED
    st.unit_cell[unit] = -1
    st.unit_status[unit] = Status.EXITED
    ex = game.arr("exited")
    ex[0] += 1
    if isolated:
        ex[1] += 1
    else:
        game.add_vp("exits", int(_vp("german_unit_exited", game)))
    game.event("exit", unit=unit, isolated=isolated)


def _vp(cause: str, game: KbGame) -> int:
    return _schedule(game.scenario)[cause]


@lru_cache(maxsize=32)
def _schedule(scenario) -> dict[str, int]:
    """The Victory Points of each cause of the scenario's schedule (20.1), read once."""
    out: dict[str, int] = {}
    for row in scenario.tables["vp_schedule"]["row"]:
        out.setdefault(str(row["cause"]), int(row["vp"]))          # the first row counts
    return out


def provisional_vp(game: KbGame, towns: np.ndarray | None = None) -> int:
    """The German total if the game ended now (``towns``: ``german_towns`` if already made)."""
    towns = german_towns(game) if towns is None else towns
    return (int(game.state.vp) + int(towns.sum()) * _vp("town_west_of_vp_line", game)
            + allied_in_trenches(game) * _vp("allied_unit_in_trench", game))


def final_score(game: KbGame) -> int:
    """Add the end-of-game points: towns (20.11) and Allied units in trenches (20.13); exits
    (20.12) and replaced divisions (20.14) were booked as they happened."""
    towns = int(german_towns(game).sum()) * _vp("town_west_of_vp_line", game)
    trenches = allied_in_trenches(game) * _vp("allied_unit_in_trench", game)
    game.add_vp("towns", towns)
    game.add_vp("allied_in_trenches", trenches)
    return int(game.state.vp)


def level(game: KbGame, vp: int | None = None) -> str:
    """The level of victory of a German total (20.3)."""
    vp = int(game.state.vp) if vp is None else vp
    for band in game.scenario.tables["victory_levels"]["band"]:
        if band.get("min", -10**9) <= vp <= band.get("max", 10**9):
            return band["level"]
    raise ValueError(f"no victory level covers {vp} VP")


def winner(level_name: str) -> str:
    """The side (``allied``, ``central``) that wins at a level of victory (20.3)."""
    return "central" if level_name.startswith("german") else "allied"


winner_of = winner


def vp_is_consistent(game: KbGame) -> bool:
    return int(game.arr("vp_cause").sum()) == int(game.state.vp)
