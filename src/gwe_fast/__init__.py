"""gwe_fast: a fast, rules-faithful batch simulator of SPI's The Great War in the East
(Brusilov Offensive) and The Kaiser's Battle.

The public API:

>>> import gwe_fast
>>> sc = gwe_fast.load_scenario("brusilov/historical")
>>> game = gwe_fast.Game(sc, seed=42, game_index=0)
>>> game.state.unit_cell.dtype
dtype('int32')
"""

__version__ = "0.1.0"

from gwe_fast.game import Game  # noqa: E402
from gwe_fast.hexmap import HexMap  # noqa: E402
from gwe_fast.scenario.errors import Fault, ScenarioError  # noqa: E402
from gwe_fast.scenario.loader import (bundled_scenarios, load_scenario,  # noqa: E402
                                      scenario_from_dicts, validate)
from gwe_fast.scenario.model import Scenario  # noqa: E402
from gwe_fast.state import State, Status  # noqa: E402

__all__ = ["Game", "HexMap", "Fault", "ScenarioError", "Scenario", "State", "Status",
           "bundled_scenarios", "load_scenario", "scenario_from_dicts", "validate",
           "__version__"]
