"""Type stub of the compiled ladder policies of The Guns of August (see ladder.pyx)."""

import numpy as np
import numpy.typing as npt

from gwe_fast.games.goa.model import GoaTables

PASSIVE: int
GREEDY: int
HISTORICAL: int
HISTORY_KINDS: tuple[str, ...]
HISTORY_COLUMNS: tuple[str, ...]

def history_rows(goa: GoaTables, history: dict) -> npt.NDArray[np.int32]: ...
