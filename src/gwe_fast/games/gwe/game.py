"""``GweGame``: a Game of The Great War in the East with its policies, engine arrays and log.

Everything the procedures need goes through this object; what every engine shares (``ask``,
``ask_secret``, ``roll``, ``event``, ``arr``, ``add_vp``, ``save``/``resume``) is in
``gwe_fast.game.PlayedGame``; this module declares the game's engine arrays, flags and causes.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast.enums import GweFlag as Flag  # noqa: F401  (re-exported: its home is enums)
from gwe_fast.game import PlayedGame
from gwe_fast.games.gwe.data import gwe_data
from gwe_fast.policies.base import Policy
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State


# Engine arrays kept in State.extra: name -> (dtype, shape as a function of the scenario)
ENGINE_ARRAYS = {
    "flags": (np.uint16, lambda sc: (sc.units.n,)),
    "mp_spent": (np.int16, lambda sc: (sc.units.n,)),
    "rail_hexes": (np.int16, lambda sc: (sc.units.n,)),          # hexes moved by rail (18.21)
    "rail_used": (np.int16, lambda sc: (2,)),                    # stacking points by rail (5.31)
    "track_used": (np.int16, lambda sc: (sc.map.n_cells, 6, 2)),  # per hexside, per line (18.3)
    "vp_cause": (np.int32, lambda sc: (len(VP_CAUSES),)),        # VP total by cause (25.2)
    "steps_lost": (np.int32, lambda sc: (2, len(LOSS_CAUSES))),   # steps lost, side x cause
    "sp_lost": (np.int32, lambda sc: (2, len(LOSS_CAUSES))),      # stacking points lost
    "depots_received": (np.int16, lambda sc: (2,)),              # depots arrived (20.2)
    # 5.31, 18.21, 18.32 (rail.py): the Game-Turn rail_used, rail_hexes, track_used belong to
    "rail_turn": (np.int16, lambda sc: (2,)),
    # 10.11 1 / 21.13 (command.py): the HQ has lent its shift in this Combat Phase
    "hq_shift_used": (np.int8, lambda sc: (sc.units.n,)),
    # 11.0-11.1 (combat.py): per fortress hex: steps lost (0-4, 11.13), Defense Strength at full
    # and after two steps lost (11.14; set by whoever places fortresses: the map format has no
    # field for them), attacked in this Combat Phase (8.14)
    "fortress": (np.int16, lambda sc: (sc.map.n_cells, 4)),
    # 5.31 with 5.35 (rail.py): stacking points counted beyond the Rail Capacity because
    # entrained units out of Command Control could neither detrain nor stay uncounted
    "rail_forced": (np.int16, lambda sc: (2,)),
    # 4.0 A1c (engine.py): units out of Command Control at the side's last Movement Phase
    # Command Control Segment, for the per-turn record
    "ooc_count": (np.int16, lambda sc: (2,)),
}

VP_CAUSES = ("initial", "central_powers_stacking_point_eliminated",
             "central_powers_stacking_point_eliminated_surrounded",
             "central_powers_hq_eliminated", "russian_stacking_point_eliminated",
             "russian_stacking_point_eliminated_surrounded", "russian_hq_eliminated",
             "reinforcement_withheld", "towns")
LOSS_CAUSES = ("combat", "attrition", "stacking", "panic", "retreat", "rail", "breakdown",
               "massed_artillery", "other")


class GweGame(PlayedGame):
    """A Great War in the East game with a policy for each side (``PlayedGame``).

    ``policies`` maps a side (0 allied, 1 central) to a ``Policy``; missing sides get the
    random policy.
    """

    ENGINE_ARRAYS = ENGINE_ARRAYS
    VP_CAUSES = VP_CAUSES
    LOSS_CAUSES = LOSS_CAUSES

    def __init__(self, scenario: Scenario, seed: int = 0, game_index: int = 0,
                 policies: dict[int, Policy] | None = None, state: State | None = None,
                 events: bool = False):
        super().__init__(scenario, seed=seed, game_index=game_index, policies=policies,
                         state=state, events=events)
        self.data = gwe_data(scenario)
        self._core = False              # the compiled core (``core``), made on first use
        if state is None:
            from gwe_fast.games.gwe.reinforcements import setup_replacements
            setup_replacements(self)                                   # 26.34

    @property
    def core(self):
        """The compiled core playing the parts of this game's phases that it plays
        (``_core.gwe.core``), or None: when the game keeps an event log (the core keeps
        none), plays on the pure-Python kernels or ``COMPILED_PHASES`` is off. Made on first
        use; it points into the state's buffer, so it is made again for a state put in the
        place of the game's."""
        core = self._core
        if core is False or (core is not None and core.buffer is not self.state.buffer):
            self._core = None
            if COMPILED_PHASES and self.events is None and self.scenario.map.k.name == "cython":
                from gwe_fast._core.gwe.core import GweCore

                self._core = GweCore(self, _core_tables(self.scenario))
        return self._core


#: play the parts of the phases the compiled core plays there (the tests turn it off to
#: compare with the Python engine)
COMPILED_PHASES = True


@lru_cache(maxsize=16)
def _core_tables(scenario: Scenario):
    """The core's tables of a scenario (``GweTables``), compiled once."""
    from gwe_fast._core.gwe.core import GweTables

    return GweTables(scenario)
