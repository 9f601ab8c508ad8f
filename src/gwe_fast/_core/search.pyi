"""Type stub of the compiled search kernel (see search.pyx)."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

def bounded_search(
    neighbors: npt.ArrayLike,
    step_cost: npt.ArrayLike,
    sources: npt.ArrayLike,
    source_cost: npt.ArrayLike | None = None,
    limit: int = -1,
    stop: npt.ArrayLike | None = None,
    toll: npt.ArrayLike | None = None,
    max_toll: int = 0,
    toll_on_exit: bool = False,
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...

def movement_ranges(
    neighbors: npt.ArrayLike,
    step_cost: npt.ArrayLike,
    queries: Sequence[tuple[int, int]],
    stop: npt.ArrayLike | None = None,
) -> list[tuple[npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int32]]]: ...

class SearchWorkspace:
    """Reusable buffers of searches on one map; ``run`` returns views valid until the next."""

    @property
    def n_cells(self) -> int: ...
    @property
    def n_layers(self) -> int: ...
    @property
    def neighbors(self) -> npt.NDArray[np.int32]: ...
    @property
    def generation(self) -> int: ...
    def __init__(self, neighbors: npt.ArrayLike, n_layers: int = 1) -> None: ...
    def run(
        self,
        step_cost: npt.ArrayLike,
        sources: npt.ArrayLike,
        source_cost: npt.ArrayLike | None = None,
        limit: int = -1,
        stop: npt.ArrayLike | None = None,
        toll: npt.ArrayLike | None = None,
        max_toll: int = 0,
        toll_on_exit: bool = False,
        copy: bool = False,
    ) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]: ...
    def reached(self) -> npt.NDArray[np.int32]: ...
    def _set_generation(self, generation: int) -> None: ...
