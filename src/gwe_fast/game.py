"""A game: one scenario, one seed, its dice, its state.

Examples
--------
>>> from gwe_fast import load_scenario, Game
>>> g = Game(load_scenario("brusilov/historical"), seed=1, game_index=0)
>>> int(g.state.turn), g.side_name(int(g.state.player))
(1, 'allied')
>>> g.dice.force("combat", [6])
>>> g.dice.roll("combat")
6
"""

from __future__ import annotations

import numpy as np

from gwe_fast.dice import GameDice
from gwe_fast.enums import Side
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State, Status, initial_state


class Game:
    """One game of a scenario, seeded from ``(seed, game_index)``.

    The state is public and made of numpy arrays; the rules engines (issues 4 and 5) add the
    ``legal_*``/``apply_*`` procedures that change it. ``dice`` hands out the game's seeded
    dice by purpose; ``dice.force(stream, values)`` fixes the next rolls for a test.
    """

    def __init__(self, scenario: Scenario, seed: int = 0, game_index: int = 0,
                 state: State | None = None):
        self.scenario = scenario
        self.seed = int(seed)
        self.game_index = int(game_index)
        self.dice = GameDice(self.seed, self.game_index)
        self.state = initial_state(scenario) if state is None else state

    @staticmethod
    def side_name(side: int) -> str:
        return Side(side).name.lower()

    def on_map(self, side: int | None = None) -> np.ndarray:
        """Units on the map, optionally of one side."""
        st = self.state
        mask = (st.unit_status & Status.ON_MAP).astype(bool)
        if side is not None:
            mask &= self.scenario.units.side == side
        return np.flatnonzero(mask)

    def stacking_in(self, cell: int) -> int:
        """Stacking points of the units in ``cell``."""
        return int(self.scenario.units.stacking[self.state.units_at(cell)].sum())

    def unit(self, unit_id: str) -> int:
        return self.scenario.units.index(unit_id)

    def place(self, unit_id: str, hexid: str) -> None:
        """Put a unit on the map at a hex (for building test positions by hand)."""
        i = self.unit(unit_id)
        cell = self.scenario.map.cell(hexid)
        self.state.unit_cell[i] = cell
        self.state.unit_status[i] = (self.state.unit_status[i] & ~np.uint16(
            Status.PENDING | Status.NOT_IN_PLAY | Status.POOL)) | Status.ON_MAP
        self.state.hex_last[cell] = self.scenario.units.side[i]

    def remove(self, unit_id: str) -> None:
        """Take a unit off the map (not eliminated: simply out of the position)."""
        i = self.unit(unit_id)
        self.state.unit_cell[i] = -1
        self.state.unit_status[i] = Status.NOT_IN_PLAY
