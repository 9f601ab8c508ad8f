"""The loaded, fixed description of a game: ``Scenario`` and its ``UnitTable``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np

from gwe_fast.hexmap import HexMap
from gwe_fast.scenario.history import History

ENTRY_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@dataclass(frozen=True)
class Place:
    """A named town or city printed on the map."""

    name: str
    cell: int
    kind: str
    vp: int


@dataclass(frozen=True)
class OptionSpec:
    """A scenario option as declared in the scenario file."""

    name: str
    default: Any
    help: str
    case: str = ""
    vp: int = 0
    excludes: tuple[str, ...] = ()
    vp_with: tuple[tuple[str, int], ...] = ()  #: extra VP when another option is also on


@dataclass(frozen=True, eq=False)
class UnitTable:
    """The counter manifest as struct-of-arrays, one row per counter, in file order.

    ``values[u, s]`` holds the printed numbers of step ``s`` (0 = strongest): attack,
    defense, movement in The Great War in the East; combat, morale, movement in The
    Kaiser's Battle. Unused steps are -1. ``extra`` holds the game-specific numeric fields
    (``attack_shift``, ``command_radius`` …) as int16 arrays, -1 when absent; ``text`` the
    game-specific text fields (``army``, ``division`` …) as tuples of strings.
    """

    ids: tuple[str, ...]
    names: tuple[str, ...]
    side: np.ndarray
    nationality: np.ndarray
    utype: np.ndarray
    size: np.ndarray
    stacking: np.ndarray
    n_steps: np.ndarray
    values: np.ndarray
    setup_cell: np.ndarray
    arrival_turn: np.ndarray
    entry: np.ndarray
    option: tuple[tuple[str, ...], ...]  #: options that must all be on for the unit to play
    pool: tuple[str, ...]
    extra: MappingProxyType
    text: MappingProxyType

    @property
    def n(self) -> int:
        return len(self.ids)

    def index(self, unit_id: str) -> int:
        """Row of a unit id; KeyError if there is none."""
        try:
            return self._index[unit_id]
        except KeyError:
            raise KeyError(f"no unit {unit_id!r} in this scenario") from None

    def of_side(self, side: int) -> np.ndarray:
        """The rows of ``side``'s counters, ascending (int64, read-only, made once)."""
        cache = self.__dict__.get("_of_side_cache")
        if cache is None:
            cache = tuple(np.flatnonzero(self.side == s) for s in (0, 1))
            for a in cache:
                a.flags.writeable = False
            object.__setattr__(self, "_of_side_cache", cache)
        return cache[int(side)]

    @property
    def _index(self) -> dict[str, int]:
        cache = self.__dict__.get("_index_cache")
        if cache is None:
            cache = {u: i for i, u in enumerate(self.ids)}
            object.__setattr__(self, "_index_cache", cache)
        return cache


@dataclass(frozen=True, eq=False)   # identity: a loaded scenario is one object
class Scenario:
    """Everything fixed about a game: map, counters, tables, turns and options.

    Load one with ``gwe_fast.load_scenario``; never mutate it. ``options`` holds the value of
    every declared option (defaults filled in); ``data_hash`` identifies the rules data and
    ``options_hash`` the option values, so a results row can say exactly what was played.
    """

    game: str
    key: str
    name: str
    version: int
    path: Path | None
    map: HexMap
    units: UnitTable
    tables: MappingProxyType
    places: tuple[Place, ...]
    entry: MappingProxyType
    edges: MappingProxyType
    first_turn: int
    last_turn: int
    first_player: int
    initial_vp: int
    option_specs: MappingProxyType
    options: MappingProxyType
    data_hash: str
    options_hash: str
    raw: MappingProxyType = field(repr=False)
    #: what happened in the real campaign (``[history]``), None when the file has none; it
    #: does not affect play and is not part of ``data_hash``
    history: History | None = field(default=None, repr=False)
    #: the game's tables compiled once at load, one frozen record (``games.gwe.data.GweData``,
    #: ``games.kb.data.KbData``); the engines, kernels and policies read their tables there
    core: Any = field(default=None, repr=False)

    @property
    def n_turns(self) -> int:
        return self.last_turn - self.first_turn + 1

    def compiled(self, game: str, kind: type) -> Any:
        """``core``, the tables compiled at load, checked to be ``kind`` for ``game``."""
        if type(self.core) is not kind:
            if self.game != game:
                raise ValueError(f"scenario {self.key} is a {self.game!r} game, not {game!r}")
            raise ValueError(f"scenario {self.key} has no compiled tables: load it with "
                             f"gwe_fast.load_scenario")
        return self.core

    def describe(self) -> str:
        """One line: key, name, turns and the size of the order of battle."""
        return (f"{self.key}: {self.name} (game {self.game}, turns {self.first_turn}-"
                f"{self.last_turn}, {self.units.n} counters, {self.map.n_cells} hexes)")
