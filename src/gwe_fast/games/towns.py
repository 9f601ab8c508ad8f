"""The town record of the hex games: which Victory Point towns changed hands, when, and who
held them at the end (one row per game and town: ``<stem>.towns.parquet``).

A ``TownWatch`` follows the towns that score at the end of the game (the Brusilov Offensive's
valued towns and cities, 25.11; The Kaiser's Battle's towns west of the German VP line,
20.11). After every phase it asks the game who controls each of them, as the victory rule
counts control: the side that scores towns holds one when its units occupy it, or were the
last to occupy or move through it and no enemy unit occupies it now (25.12 without its supply
condition, which is counted in ``vp``; 20.11). A town no unit has entered belongs to the
other side. It watches through the engine's ``check`` hook, so it reads the game and never
changes it: the games played are the same with it and without it.

Examples
--------
>>> [f.name for f in TOWN_FIELDS][:4]
['town', 'hex', 'value', 'owner_start']
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pyarrow as pa

SIDE_NAMES = ("allied", "central")
_I16, _I32, _STR, _BOOL = pa.int16(), pa.int32(), pa.string(), pa.bool_()

#: the columns of a town row, after ``master_seed`` and ``game_index``
TOWN_FIELDS = [
    pa.field("town", _STR, nullable=False),                # the name printed on the map
    pa.field("hex", _STR, nullable=False),                 # its hex, SPI's four digits
    pa.field("value", _I32, nullable=False),               # VP it is worth at the end
    pa.field("owner_start", _STR, nullable=False),         # allied or central, at the set-up
    pa.field("owner", _STR, nullable=False),               # allied or central, at the end
    pa.field("first_changed_turn", _I16, nullable=False),  # Game-Turn; 0: it never did
    pa.field("changes", _I16, nullable=False),             # times it changed hands
    pa.field("taken", _BOOL, nullable=False),              # it changed hands at least once
    pa.field("held_at_end", _BOOL, nullable=False),        # taken, and its taker held it
    pa.field("vp", _I32, nullable=False),                  # VP it gave at the end
]


class TownWatch:
    """Who holds each scoring town, phase by phase.

    ``held(game, cells)`` says, per cell, whether the scoring side (``scorer``: 0 allied,
    1 central) controls it now. Pass the watch as the engine's ``check`` (``chain`` keeps
    another check too); ``rows(game, scored)`` gives the town rows once the game is over,
    ``scored`` being the VP each town gave at the end, by cell.
    """

    def __init__(self, game, values: dict[int, int], held: Callable, scorer: int):
        sc = game.scenario
        self.cells = np.array(sorted(values), dtype=np.int64)
        self.values = [int(values[c]) for c in self.cells]
        names: dict[int, str] = {}
        for p in sc.places:
            names.setdefault(int(p.cell), p.name)
        self.names = [names.get(int(c), sc.map.id_of(int(c))) for c in self.cells]
        self.hexes = [sc.map.id_of(int(c)) for c in self.cells]
        self.held, self.scorer = held, int(scorer)
        self.start = np.asarray(held(game, self.cells), dtype=bool).copy()
        self.now = self.start.copy()
        self.first = np.zeros(self.cells.size, dtype=np.int16)
        self.changes = np.zeros(self.cells.size, dtype=np.int16)

    def __call__(self, game, phase_name: str | None = None) -> None:
        if not self.cells.size:
            return
        now = np.asarray(self.held(game, self.cells), dtype=bool)
        moved = now != self.now
        if moved.any():
            self.changes += moved
            self.first[moved & (self.first == 0)] = int(game.state.turn)
            self.now = now.copy()

    def chain(self, check: Callable | None) -> Callable:
        """A ``check`` that watches the towns, then calls ``check`` (if any)."""
        if check is None:
            return self

        def both(game, phase_name):
            self(game, phase_name)
            check(game, phase_name)
        return both

    def owner(self, held: bool) -> str:
        return SIDE_NAMES[self.scorer if held else 1 - self.scorer]

    def rows(self, game, scored: dict[int, int]) -> list[dict]:
        """One row per town (``TOWN_FIELDS``), the position as it stands (the end)."""
        self(game)
        out = []
        for k, c in enumerate(self.cells.tolist()):
            start, end = bool(self.start[k]), bool(self.now[k])
            n = int(self.changes[k])
            out.append({"town": self.names[k], "hex": self.hexes[k], "value": self.values[k],
                        "owner_start": self.owner(start), "owner": self.owner(end),
                        "first_changed_turn": int(self.first[k]), "changes": n,
                        "taken": n > 0, "held_at_end": n > 0 and end != start,
                        "vp": int(scored.get(c, 0))})
        return out
