"""Type stub of the compiled turn-loop kernels (see play.pyx)."""

import numpy as np
import numpy.typing as npt

STOPPED: int
EXITING: int
STAY: int
MOVE: int
EXIT: int
LOG_COLUMNS: int

def draw(rng: np.random.Generator, n: int) -> int: ...
def nth_smallest(cells: npt.NDArray[np.int32], k: int) -> int: ...
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

GWE_DONE: int
GWE_HANDOVER: int
GWE_MOVED: int
GWE_FULL: int
PICK: int
ACTION: int
STOP: int
ENTRAIN: int
RAIL: int
DETRAIN: int
R_UNIT: int
R_TABLE: int
R_ALLOWANCE: int
R_ENTRAIN_TCR: int
R_STACKING: int
R_TRAITS: int
ROSTER_COLUMNS: int
T_HANDOVER: int
T_HQ: int
H_RAIL: int
H_EZOC: int
H_ENEMY: int
H_ENEMY_HQ: int
H_HQ_ALONE: int
HEX_ROWS: int
GWE_LOG_COLUMNS: int

KIND_HQ: int
KIND_CAR: int
KIND_AH: int

def gwe_roster(
    units: npt.NDArray[np.int64], unit_step: npt.NDArray[np.int8],
    unit_status: npt.NDArray[np.uint16], flags: npt.NDArray[np.uint16],
    values: npt.NDArray[np.int16], tcr: npt.NDArray[np.int8], stacking: npt.NDArray[np.int8],
    kind: npt.NDArray[np.uint8], out_of_supply: int, out_of_command: int, off_land: int,
    never_by_rail: bool, roster: npt.NDArray[np.int32], keys: npt.NDArray[np.int32],
) -> int: ...
def gwe_random_moves(
    rng: np.random.Generator, ws: object, tables: npt.NDArray[np.int16],
    rail_table: npt.NDArray[np.int16], limits: npt.NDArray[np.int16],
    track_used: npt.NDArray[np.int16], track_on: bool, roster: npt.NDArray[np.int32],
    done: npt.NDArray[np.uint8], hexes: npt.NDArray[np.uint8], threats: npt.NDArray[np.int32],
    own_combat: npt.NDArray[np.int32], current: int, side: int, rate: int, capacity: int,
    rail_used: npt.NDArray[np.int16], unit_cell: npt.NDArray[np.int32],
    unit_status: npt.NDArray[np.uint16], hex_last: npt.NDArray[np.int8],
    flags: npt.NDArray[np.uint16], spent: npt.NDArray[np.int16],
    rail_hexes: npt.NDArray[np.int16], log: npt.NDArray[np.int32], paths: npt.NDArray[np.int32],
) -> tuple[int, int, int, int]: ...

class AttackPosition:
    def __init__(
        self, neighbors: npt.NDArray[np.int32], prohibited: npt.NDArray[np.uint8],
        halved: npt.NDArray[np.uint8], units: npt.NDArray[np.int32], cell: npt.NDArray[np.int32],
        attack: npt.NDArray[np.int32], cavalry: npt.NDArray[np.uint8],
        nationality: npt.NDArray[np.int32], tcr: npt.NDArray[np.int32], hq: npt.NDArray[np.uint8],
        defense: npt.NDArray[np.int32], full: npt.NDArray[np.uint8], ratios: npt.NDArray[np.int32],
        row_len: npt.NDArray[np.int32], row_of_tcr: npt.NDArray[np.int32], joint_row: int,
        german: int, austro_hungarian: int,
    ) -> None: ...
    def candidates(self, cells: list[int]) -> list[int]: ...
    def reaches(self, attackers: list[int], cells: list[int]) -> bool: ...
    def targets(self, cells: list[int]) -> list[int]: ...
    def options(self, cells: list[int], attackers: list[int], targets: list[int]
                ) -> tuple[bool, list[int], list[int]]: ...

def gwe_supply(
    ws: object, rail_side: npt.NDArray[np.int16], line_side: npt.NDArray[np.int16],
    friendly: npt.NDArray[np.uint8], ezoc: npt.NDArray[np.uint8], own: npt.NDArray[np.uint8],
    enemy_combat: npt.NDArray[np.uint8], starts: npt.NDArray[np.int32],
    hex_last: npt.NDArray[np.int8], enemy: int, mine: npt.NDArray[np.int32],
    unit_cell: npt.NDArray[np.int32], depot: npt.NDArray[np.uint8],
    supply_range: npt.NDArray[np.int32], layers: npt.NDArray[np.int32], max_toll: int,
    rail: npt.NDArray[np.uint8], depots: npt.NDArray[np.uint8], supplied: npt.NDArray[np.uint8],
    cell_range: int, cells: npt.NDArray[np.uint8],
) -> None: ...

def gwe_position_key(
    side: int, unit_cell: npt.ArrayLike, unit_status: npt.ArrayLike, line_status: int,
    hex_last: npt.ArrayLike, flags: npt.ArrayLike | None, off_land: int,
) -> bytes: ...
def gwe_command_radii(
    ws: object, tables: npt.NDArray[np.int16], enemy: npt.NDArray[np.uint8],
    hq_cell: npt.NDArray[np.int32],
    hq_table: npt.NDArray[np.int32], hq_radius: npt.NDArray[np.int32],
    hq_stopped: npt.NDArray[np.uint8], open_zoc: npt.NDArray[np.uint8],
    out: npt.NDArray[np.uint8],
) -> None: ...

def gwe_withdrawals(
    neighbors: npt.NDArray[np.int32], side_add: npt.NDArray[np.int16],
    enter_cost: npt.NDArray[np.int16], mountain: npt.NDArray[np.uint8],
    enemy_units: npt.NDArray[np.uint8], enemy_zoc: npt.NDArray[np.uint8],
    to_source: npt.NDArray[np.int32], units: npt.NDArray[np.int32],
    unit_cell: npt.NDArray[np.int32], tcr: npt.NDArray[np.int8], car: npt.NDArray[np.uint8],
    counts: npt.NDArray[np.int32], paths: npt.NDArray[np.int32],
) -> int: ...

def gwe_hex_defenses(
    units: npt.NDArray[np.int32], unit_cell: npt.NDArray[np.int32],
    is_hq: npt.NDArray[np.uint8], flags: npt.NDArray[np.uint16],
    status: npt.NDArray[np.uint16], values: npt.NDArray[np.int16],
    stacking: npt.NDArray[np.int8], hq_combat: npt.NDArray[np.int16],
    panicking: npt.NDArray[np.uint8], no_trench: npt.NDArray[np.uint8],
    doubled: npt.NDArray[np.int8], trench: npt.NDArray[np.int8],
    fortress: npt.NDArray[np.uint8], within: npt.NDArray[np.uint8], retreated_in: int, defended: int, entrained: int, total: npt.NDArray[np.int32],
    attackable: npt.NDArray[np.uint8],
) -> None: ...

ALLOCATED: int
UNALLOCATED: int
FAR: int

def gwe_random_allocation(
    rng: np.random.Generator, cover: npt.NDArray[np.uint8], stacking: npt.NDArray[np.int32],
    left: npt.NDArray[np.int32], status: npt.NDArray[np.int8], picks: npt.NDArray[np.int32],
) -> int: ...

class KbObligations:
    o_left: list[int]
    m_left: list[int]
    def __init__(
        self, neighbors: npt.NDArray[np.int32], target: npt.NDArray[np.uint8],
        free: npt.NDArray[np.int32], unit_cell: npt.NDArray[np.int32],
        obligated: npt.NDArray[np.uint8], stacks: npt.NDArray[np.uint8],
    ) -> None: ...
    def attackers(self) -> list[int]: ...
    def adj(self, unit: int) -> list[int]: ...
    def pending(self) -> bool: ...
    def feasible(self, members: object, cells: object) -> bool: ...
    def compulsory(self, cells: object) -> list[int]: ...
    def candidates(self, cells: object, exclude: object = ()) -> list[int]: ...
    def targets(self) -> list[tuple[int, ...]]: ...
    def random_declare(
        self, rng: np.random.Generator,
    ) -> tuple[tuple[list[int], tuple[int, ...]] | None, list[tuple[int, int, int]]]: ...
