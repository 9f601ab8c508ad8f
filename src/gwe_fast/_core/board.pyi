"""Type stub of the compiled board procedures (see board.pyx)."""

import numpy as np
import numpy.typing as npt

def occupied_cells(
    n_cells: int, unit_cell: npt.ArrayLike, unit_status: npt.ArrayLike,
    unit_side: npt.ArrayLike, side: int | None, require: int = 1, forbid: int = 0,
    eligible: npt.ArrayLike | None = None, flags: npt.ArrayLike | None = None,
    flags_forbid: int = 0,
) -> npt.NDArray[np.bool_]: ...
def stacked_points(
    n_cells: int, unit_cell: npt.ArrayLike, unit_status: npt.ArrayLike,
    unit_side: npt.ArrayLike, side: int | None, points: npt.ArrayLike, require: int = 1,
) -> npt.NDArray[np.int32]: ...
def zoc_cells(
    neighbors: npt.ArrayLike, unit_cell: npt.ArrayLike, unit_status: npt.ArrayLike,
    unit_side: npt.ArrayLike, side: int | None, require: int = 1, forbid: int = 0,
    eligible: npt.ArrayLike | None = None, flags: npt.ArrayLike | None = None,
    flags_forbid: int = 0, blocked: npt.ArrayLike | None = None,
) -> npt.NDArray[np.bool_]: ...
def adjacent_cells(
    neighbors: npt.ArrayLike, cells: npt.ArrayLike, blocked: npt.ArrayLike | None = None,
    with_cells: bool = False,
) -> npt.NDArray[np.bool_]: ...
def step_costs(
    neighbors: npt.ArrayLike, enter: npt.ArrayLike, side_add: npt.ArrayLike | None = None,
    closed: npt.ArrayLike | None = None, zoc: npt.ArrayLike | None = None, zoc_add: int = 0,
    strict: bool = True,
) -> npt.NDArray[np.int16]: ...
def units_in_cell(
    unit_cell: npt.ArrayLike, unit_status: npt.ArrayLike, cell: int, require: int = 1,
) -> npt.NDArray[np.intp]: ...
def step_costs_over(
    neighbors: npt.ArrayLike, base: npt.ArrayLike, closed: npt.ArrayLike | None = None,
    zoc: npt.ArrayLike | None = None, zoc_add: int = 0,
) -> npt.NDArray[np.int16]: ...
def reach_within(
    dist: npt.ArrayLike, unit_cell: npt.ArrayLike, units: npt.ArrayLike,
    layers: npt.ArrayLike, limits: npt.ArrayLike,
) -> npt.NDArray[np.bool_]: ...
