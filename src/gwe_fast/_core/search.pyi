"""Type stub of the compiled search kernel (see search.pyx)."""

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
