"""Type stub of the compiled tables of The Guns of August (see tables.pyx)."""

from typing import Callable

import numpy as np
import numpy.typing as npt

from gwe_fast.games.goa.model import GoaTables

STATE_FIELDS: tuple[tuple[str, np.dtype, Callable[..., tuple[int, ...]]], ...]

class CoreTables:
    """A ``GoaTables`` as one C record, with per-scenario lists and the state's layout."""

    state_size: int
    initial: npt.NDArray[np.uint8]
    layout: list[tuple[str, np.dtype, tuple[int, ...], int]]
    def __init__(self, goa: GoaTables) -> None: ...
    @property
    def goa(self) -> GoaTables | None: ...
    @property
    def max_options(self) -> int: ...

def core_tables(goa: GoaTables) -> CoreTables: ...
