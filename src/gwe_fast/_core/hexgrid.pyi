"""Type stub of the compiled hex grid kernels (see hexgrid.pyx for the conventions)."""

import numpy as np
import numpy.typing as npt

def build_cells(
    col0: int, col1: int, row0: int, row1: int, present: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16], npt.NDArray[np.int32]]: ...
def neighbor_table(
    col: npt.NDArray[np.int16], row: npt.NDArray[np.int16], lookup: npt.NDArray[np.int32],
    col0: int, row0: int, nrows: int,
) -> npt.NDArray[np.int32]: ...
def ids_to_cells(
    ids: npt.NDArray[np.int16], lookup: npt.NDArray[np.int32], col0: int, row0: int, nrows: int
) -> npt.NDArray[np.int32]: ...
def cells_to_ids(
    col: npt.NDArray[np.int16], row: npt.NDArray[np.int16], cells: npt.NDArray[np.int32]
) -> npt.NDArray[np.int16]: ...
def axial_coords(
    col: npt.NDArray[np.int16], row: npt.NDArray[np.int16]
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]: ...
def distances_from(
    q: npt.NDArray[np.int16], r: npt.NDArray[np.int16], cell: int
) -> npt.NDArray[np.int32]: ...
def hex_distance(q: npt.NDArray[np.int16], r: npt.NDArray[np.int16], a: int, b: int) -> int: ...
def hex_range(
    col: npt.NDArray[np.int16], row: npt.NDArray[np.int16], lookup: npt.NDArray[np.int32],
    col0: int, row0: int, nrows: int, center: int, radius: int,
) -> npt.NDArray[np.int32]: ...
def hex_ring(
    col: npt.NDArray[np.int16], row: npt.NDArray[np.int16], lookup: npt.NDArray[np.int32],
    col0: int, row0: int, nrows: int, center: int, radius: int,
) -> npt.NDArray[np.int32]: ...
def set_hexside(
    mask: npt.NDArray[np.uint16], neighbors: npt.NDArray[np.int32], cell: int, direction: int,
    bits: int,
) -> None: ...
def find_asymmetry(
    mask: npt.NDArray[np.uint16], neighbors: npt.NDArray[np.int32]
) -> tuple[int, int]: ...
