"""``KbGame``: a game of The Kaiser's Battle with its engine arrays, flags and causes.

What every engine shares (``ask``, ``ask_secret``, ``roll``, ``event``, ``arr``, ``add_vp``,
``save``/``resume``) is in ``gwe_fast.game.PlayedGame``.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast.enums import KbFlag as Flag  # noqa: F401  (re-exported: its home is enums)
from gwe_fast.game import PlayedGame
from gwe_fast.games.kb.data import kb_data
from gwe_fast.policies.base import Policy
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State


# Artillery missions, in the order of the ``arty_spent`` array.
MISSIONS = ("counter_battery", "gas", "drumfire", "rolling", "sos")
WEATHER = ("clear", "mist", "fog")
CLEAR, MIST, FOG = 0, 1, 2
FIELD, HEAVY = 0, 1

# Engine arrays kept in State.extra: name -> (dtype, shape as a function of the scenario)
ENGINE_ARRAYS = {
    "flags": (np.uint16, lambda sc: (sc.units.n,)),
    "vp_cause": (np.int32, lambda sc: (len(VP_CAUSES),)),            # 20.1
    "steps_lost": (np.int32, lambda sc: (2, len(LOSS_CAUSES))),      # side x cause
    "sp_lost": (np.int32, lambda sc: (2, len(LOSS_CAUSES))),
    "corps": (np.int16, lambda sc: (sc.units.n,)),                   # 16.0, at run time
    "arty": (np.int16, lambda sc: (2, 2)),                           # side x field/heavy (9.8)
    "arty_spent": (np.int32, lambda sc: (2, len(MISSIONS), 2)),      # side x mission x type
    "weather": (np.int8, lambda sc: (1,)),                           # this Game-Turn's (11.0)
    "weather_turns": (np.int16, lambda sc: (3,)),                    # Game-Turns of each kind
    "gas": (np.int32, lambda sc: (6,)),                              # marker cells or -1 (9.36)
    "gas_placed": (np.int16, lambda sc: (1,)),
    "air": (np.int16, lambda sc: (2, 3)),                    # side x obs/ground/intercept (12.0)
    "observed": (np.int8, lambda sc: (sc.map.n_cells,)),     # air observation markers (12.22)
    "drumfired": (np.int8, lambda sc: (sc.map.n_cells,)),    # attacked this phase (9.42, 12.31)
    "move_quota": (np.int16, lambda sc: (4,)),               # 17.12-17.13 units still allowed
    "exited": (np.int16, lambda sc: (2,)),                   # exited, of which isolated (20.12)
    "broken_down": (np.int16, lambda sc: (1,)),              # 13.1 divisions broken down
    "service_placed": (np.int16, lambda sc: (1,)),           # 15.21 companies deployed
    "arty_lost": (np.int32, lambda sc: (2, 2)),              # 9.23 side x field/heavy lost
    "arrival_hex": (np.int16, lambda sc: (sc.map.n_cells,)),  # 15.13 15.15 turn reinforced
}

VP_CAUSES = ("initial", "towns", "exits", "allied_in_trenches", "divisions_replaced")
LOSS_CAUSES = ("combat", "retreat", "drumfire", "ground_attack", "gas", "stacking", "other")


class KbGame(PlayedGame):
    """A Kaiser's Battle game with a policy for each side (``PlayedGame``)."""

    ENGINE_ARRAYS = ENGINE_ARRAYS
    VP_CAUSES = VP_CAUSES
    LOSS_CAUSES = LOSS_CAUSES

    def __init__(self, scenario: Scenario, seed: int = 0, game_index: int = 0,
                 policies: dict[int, Policy] | None = None, state: State | None = None,
                 events: bool = False):
        super().__init__(scenario, seed=seed, game_index=game_index, policies=policies,
                         state=state, events=events)
        self.data = kb_data(scenario)
        self._core = False              # the compiled core (``core``), made on first use
        if state is None:
            self.arr("corps")[:] = self.data.corps
            self.arr("gas")[:] = -1
            self.arr("weather")[0] = FOG

    @property
    def core(self):
        """The compiled core playing this game's phases that it plays (``_core.kb.core``), or
        None: when the game keeps an event log (the core keeps none), plays on the pure-Python
        kernels or ``COMPILED_PHASES`` is off. Made on first use; it points into the state's
        buffer."""
        if self._core is False:
            self._core = None
            if COMPILED_PHASES and self.events is None and self.scenario.map.k.name == "cython":
                from gwe_fast._core.kb.core import KbCore

                self._core = KbCore(self, _core_tables(self.scenario))
        return self._core


#: play the phases the compiled core plays there (the tests turn it off to compare with the
#: Python engine)
COMPILED_PHASES = True


@lru_cache(maxsize=16)
def _core_tables(scenario: Scenario):
    """The core's tables of a scenario (``KbTables``), compiled once."""
    from gwe_fast._core.kb.core import KbTables

    return KbTables(scenario)
