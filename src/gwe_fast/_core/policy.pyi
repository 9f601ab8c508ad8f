"""Type stub of the compiled policy kernels (see policy.pyx)."""

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

def score_cells(
    cells: npt.ArrayLike, here: int, sp: float, limit: float, steps: float, dfn: float,
    my_sp: npt.NDArray[np.float64], my_def: npt.NDArray[np.float64],
    my_steps: npt.NDArray[np.float64], mult: npt.NDArray[np.float64],
    threat: npt.NDArray[np.float64], need: npt.NDArray[np.float64],
    per_step: npt.NDArray[np.float64], dist_enemy: npt.NDArray[np.int32],
    supplied: npt.NDArray[np.uint8], cover: npt.NDArray[np.uint8],
    hex_last: npt.NDArray[np.int8], side: int, town: npt.NDArray[np.float64], hold: float,
    supply_pen: float, command_pen: float, town_w: float,
    extra: npt.ArrayLike | None = None, gain: npt.ArrayLike | None = None,
    attack_w: float = 0.0, pull_c: float = 0.0, use_pull: bool = False,
) -> npt.NDArray[np.float64]: ...
def needed_targets(
    cells: npt.ArrayLike, dist_enemy: npt.NDArray[np.int32], nb: npt.NDArray[np.int32],
    enemy_occ: npt.NDArray[np.uint8], prohibited: npt.NDArray[np.uint8],
    known: npt.NDArray[np.uint8],
) -> npt.NDArray[np.int64]: ...
def attack_gains(
    cells: npt.ArrayLike, d_here: npt.NDArray[np.int16], a_u: float, att_u: float,
    dist_enemy: npt.NDArray[np.int32], nb: npt.NDArray[np.int32],
    enemy_occ: npt.NDArray[np.uint8], prohibited: npt.NDArray[np.uint8],
    halved: npt.NDArray[np.uint8], base_att: npt.NDArray[np.float64],
    tgt_def: npt.NDArray[np.float64], tgt_ev: npt.NDArray[np.float64],
    ab: npt.NDArray[np.float64], n_cols: int,
) -> npt.NDArray[np.float64]: ...
class CellPricer:
    def __init__(
        self, nb: npt.NDArray[np.int32], prohibited: npt.NDArray[np.uint8],
        halved: npt.NDArray[np.uint8], mult: npt.NDArray[np.float64],
        threat: npt.NDArray[np.float64], need: npt.NDArray[np.float64],
        per_step: npt.NDArray[np.float64], dist_enemy: npt.NDArray[np.int32],
        supplied: npt.NDArray[np.uint8], cover: npt.NDArray[np.uint8],
        town: npt.NDArray[np.float64], enemy_occ: npt.NDArray[np.uint8],
        tgt_def: npt.NDArray[np.float64], tgt_ev: npt.NDArray[np.float64],
        known: npt.NDArray[np.uint8],
    ) -> None: ...
    def set_own(
        self, my_sp: npt.NDArray[np.float64], my_def: npt.NDArray[np.float64],
        my_steps: npt.NDArray[np.float64],
    ) -> None: ...
    def set_attack(self, base_att: npt.NDArray[np.float64]) -> None: ...
    def score_cells(
        self, cells: npt.ArrayLike, here: int, sp: float, limit: float, steps: float,
        dfn: float, hex_last: npt.NDArray[np.int8], side: int, hold: float, supply_pen: float,
        command_pen: float, town_w: float, extra: npt.ArrayLike | None = None,
        gain: npt.ArrayLike | None = None, attack_w: float = 0.0, pull_c: float = 0.0,
        use_pull: bool = False,
    ) -> npt.NDArray[np.float64]: ...
    def needed_targets(self, cells: npt.ArrayLike) -> npt.NDArray[np.int64]: ...
    def attack_gains(
        self, cells: npt.ArrayLike, d_here: npt.NDArray[np.int16], a_u: float, att_u: float,
        ab: npt.NDArray[np.float64], n_cols: int,
    ) -> npt.NDArray[np.float64]: ...

class AttackJudge:
    def __init__(
        self, nb: npt.NDArray[np.int32], unit_cell: npt.NDArray[np.int32],
        unit_att: npt.NDArray[np.int64], is_cav: npt.NDArray[np.uint8],
        halved: npt.NDArray[np.uint8], cav_full: npt.NDArray[np.uint8],
        die_masks: npt.NDArray[np.uint8], die_adds: npt.NDArray[np.int64],
        die_all: npt.NDArray[np.uint8],
    ) -> None: ...
    def judge(
        self, attackers: npt.ArrayLike, cells: npt.ArrayLike, defense: int,
        ratios: npt.NDArray[np.int32], near: npt.ArrayLike | None = None, multiplier: int = 1,
    ) -> tuple[int, int, int]: ...
def retreat_ways(
    origin: int, nb: npt.NDArray[np.int32], passable: npt.NDArray[np.uint8],
    blocks: npt.NDArray[np.uint8], open_zoc: npt.NDArray[np.uint8], through_zoc: bool,
    d_origin: npt.NDArray[np.int16],
) -> tuple[bool, bool]: ...
def surrounded_map(
    nb: npt.NDArray[np.int32], passable: npt.NDArray[np.uint8], free: npt.NDArray[np.uint8],
    target: npt.NDArray[np.uint8], own: npt.NDArray[np.uint8], limit: int,
) -> npt.NDArray[np.bool_]: ...
def kb_unit_values(
    cells: npt.ArrayLike, here: int, sp: float, limit: float, my_sp: npt.NDArray[np.float64],
    allied: bool, dist_west: npt.NDArray[np.float64], path_gain: npt.NDArray[np.uint8],
    trench: npt.NDArray[np.uint8], west_town: npt.NDArray[np.uint8],
    risk: npt.NDArray[np.float64], screen_gain: npt.NDArray[np.float64],
    adj_enemy: npt.NDArray[np.int32], exempt: npt.NDArray[np.uint8],
    supply_pen: npt.NDArray[np.float64], gas: npt.NDArray[np.uint8], progress: float,
    town_w: float, trench_hold: float, town_hold: float, exposure: float, screen: float,
    screen_on: bool, contact: float, contact_on: bool, ok_cells: npt.ArrayLike, supply: float,
    gas_cost: float, gas_on: bool, base: npt.ArrayLike | None = None,
) -> npt.NDArray[np.float64]: ...
class KbPricer:
    def __init__(
        self, dist_west: npt.NDArray[np.float64], trench: npt.NDArray[np.uint8],
        west_town: npt.NDArray[np.uint8], risk: npt.NDArray[np.float64],
        adj_enemy: npt.NDArray[np.int32], exempt: npt.NDArray[np.uint8],
        supply_pen: npt.NDArray[np.float64], gas: npt.NDArray[np.uint8],
    ) -> None: ...
    def set_own(
        self, my_sp: npt.NDArray[np.float64], path_gain: npt.NDArray[np.uint8],
        screen_gain: npt.NDArray[np.float64],
    ) -> None: ...
    def values(
        self, cells: npt.ArrayLike, here: int, sp: float, limit: float, allied: bool,
        progress: float, town_w: float, trench_hold: float, town_hold: float, exposure: float,
        screen: float, screen_on: bool, contact: float, contact_on: bool,
        ok_cells: npt.ArrayLike, supply: float, gas_cost: float, gas_on: bool,
        base: npt.ArrayLike | None = None, with_here: bool = False,
    ) -> npt.NDArray[np.float64]: ...
    def may_gain(
        self, d_here: npt.NDArray[np.int16], reach: int, here: int, sp: float, limit: float,
        allied: bool, progress: float, town_w: float, trench_hold: float, town_hold: float,
        exposure: float, screen: float, screen_on: bool, contact: float, contact_on: bool,
        ok_cells: npt.ArrayLike, supply: float, gas_cost: float, bonus_w: float,
        min_gain: float,
    ) -> bool: ...
def kb_attack_values(
    rows: list[tuple[int, int, int, int, list[float], float, int, int, bool]],
    cells: Sequence[int], nb: npt.NDArray[np.int32], side_mod: npt.NDArray[np.int16],
    die_mod: npt.NDArray[np.int16], allied: bool, w_trench: float, supply_mods: Sequence[int],
    att_mod: int, dfn_extra: int, two_corps: int, def_str: int, morale: int,
    full: list[float], clear_value: float, every: bool,
) -> list[tuple[float, float, float, float, float, float, float]] | None: ...
def kb_side_maps(
    unit_cell: npt.NDArray[np.int32], unit_status: npt.NDArray[np.uint16], on_map: int,
    unit_side: npt.NDArray[np.int8], side: int, flags: npt.NDArray[np.uint16], service: int,
    stacking: npt.NDArray[np.int8], is_hq: npt.NDArray[np.uint8], nb: npt.NDArray[np.int32],
    band: npt.NDArray[np.uint8], west_town: npt.NDArray[np.uint8],
    hex_last: npt.NDArray[np.int8], central: int, allied: bool, screen: bool = True,
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.bool_],
           npt.NDArray[np.float64]]: ...
def kb_path_gains(
    dist: npt.NDArray[np.int32], pred: npt.NDArray[np.int32], gain: npt.NDArray[np.uint8],
    here: int, cells: npt.ArrayLike,
) -> npt.NDArray[np.float64]: ...
