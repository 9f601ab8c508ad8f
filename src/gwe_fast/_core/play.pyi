"""Type stub of the compiled turn-loop kernels (see play.pyx)."""

import numpy as np
import numpy.typing as npt

STOPPED: int
EXITING: int
STAY: int
MOVE: int
EXIT: int
LOG_COLUMNS: int

def draws(rng: np.random.Generator, ns: npt.ArrayLike) -> npt.NDArray[np.int64]: ...
def kb_random_moves(
    rng: np.random.Generator, ws: object, base: npt.NDArray[np.int16],
    closed: npt.NDArray[np.uint8], ezoc: npt.NDArray[np.uint8], second: bool, units: npt.NDArray[np.int32],
    allowance: npt.NDArray[np.int32], slot: npt.NDArray[np.int8],
    quota: npt.NDArray[np.int16], done: npt.NDArray[np.uint8], exits: npt.NDArray[np.int32],
    enter: npt.NDArray[np.int32], side: int, unit_cell: npt.NDArray[np.int32],
    hex_last: npt.NDArray[np.int8], flags: npt.NDArray[np.uint16], moved: int,
    log: npt.NDArray[np.int32],
) -> tuple[int, int]: ...
