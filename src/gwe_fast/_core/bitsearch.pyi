"""Type stub of the compiled bit-parallel search (see bitsearch.pyx)."""

import numpy as np
import numpy.typing as npt

class StepSets:
    """A step table as bitboards: the steps grouped by how far they move a cell's index."""

    def __init__(
        self, neighbors: npt.ArrayLike, steps: npt.ArrayLike, backward: bool = False
    ) -> None: ...
    @property
    def usable(self) -> bool: ...
    @property
    def unit(self) -> bool: ...
    @property
    def shifts(self) -> list[int]: ...
    def distances(
        self, sources: npt.ArrayLike, within: npt.ArrayLike | None = None
    ) -> npt.NDArray[np.int32]: ...
    def reach(
        self,
        sources: npt.ArrayLike,
        limit: int,
        stop: npt.ArrayLike | None = None,
        toll: npt.ArrayLike | None = None,
        max_toll: int = 0,
    ) -> npt.NDArray[np.uint8]: ...
