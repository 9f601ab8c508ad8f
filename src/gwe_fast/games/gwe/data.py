"""The fixed, per-scenario arrays of the Great War in the East engine, compiled once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from gwe_fast import dtypes, kernels
from gwe_fast.enums import Feature, Hexside, Nationality, Side, Terrain, UnitType
from gwe_fast.scenario.model import Scenario

PROHIBITED = -1
NATIONALITY_KEYS = {Nationality.RUSSIAN: "russian", Nationality.GERMAN: "german",
                    Nationality.AUSTRO_HUNGARIAN: "austro_hungarian"}

# Exclusive rules of the Brusilov Offensive that change a standard-rules procedure.
DEPOTS_EXERT_ZOC = True   # 19.3, an exception to 7.26


def _tcr_costs(entry: dict, key: str) -> np.ndarray | None:
    """A chart row's four per-TCR costs, PROHIBITED for "P"; None if the row has no such key."""
    if key not in entry:
        return None
    return np.array([PROHIBITED if c == "P" else int(c) for c in entry[key]],
                    dtype=dtypes.STEPCOST)


@dataclass(frozen=True)
class GweData:
    """Arrays derived from a scenario's map, counters and tables.

    ``enter_cost[t, c]``: Movement Points for a unit of TCR ``t + 1`` to enter cell ``c``
    (terrain, or the city's own cost, plus a trench's), PROHIBITED where it may not.
    ``side_add[t, c, d]``: Movement Points added for crossing the hexside (rivers), PROHIBITED
    for a blocked hexside. ``zoc_add[t]``: the extra cost of entering an enemy-controlled hex
    (7.21). ``tcr[u]``: each unit's Tactical Competence Rating (17.0). ``east[c]``: the cell
    lies on the Russian side of the start line (18.27).
    """

    enter_cost: np.ndarray
    side_add: np.ndarray
    zoc_add: np.ndarray
    zoc_blocked: np.ndarray
    tcr: np.ndarray
    supply_range: np.ndarray
    east: np.ndarray
    rail: np.ndarray
    rail_edge: tuple[np.ndarray, np.ndarray]
    stack_limit: int


@lru_cache(maxsize=32)
def _compile(scenario: Scenario) -> GweData:
    m, u, tables = scenario.map, scenario.units, scenario.tables
    te = tables["terrain_effects"]
    n = m.n_cells

    # 5.4: the base terrain of each hex …
    enter = np.zeros((4, n), dtype=dtypes.STEPCOST)
    for t in Terrain:
        name = t.name.lower()
        if name not in te:
            continue
        costs = _tcr_costs(te[name], "move")
        if costs is not None:
            enter[:, m.terrain == t] = costs[:, None]
    # … a city replaces it with its own cost (a town moves as the other terrain) …
    city = (m.features & Feature.CITY).astype(bool)
    enter[:, city] = _tcr_costs(te["city"], "move")[:, None]
    # … and a trench adds to it.
    trench = (m.features & (Feature.TRENCH_ALLIED | Feature.TRENCH_CENTRAL)).astype(bool)
    add = _tcr_costs(te["trench"], "move_add")
    enter[:, trench] = np.where(enter[:, trench] < 0, PROHIBITED, enter[:, trench] + add[:, None])

    side_add = np.zeros((4, n, 6), dtype=dtypes.STEPCOST)
    for kind, bit in (("minor_river", Hexside.MINOR_RIVER), ("major_river", Hexside.MAJOR_RIVER)):
        crossing = (m.hexsides & bit).astype(bool)
        side_add[:, crossing] += _tcr_costs(te[kind], "move_add")[:, None]
    blocked = (m.hexsides & Hexside.BLOCKED).astype(bool)
    side_add[:, blocked] = PROHIBITED

    tcr = np.array([tables["tcr"][NATIONALITY_KEYS[Nationality(x)]] for x in u.nationality],
                   dtype=dtypes.SMALL)
    rng = np.array([tables["supply_range"][NATIONALITY_KEYS[Nationality(x)]]
                    for x in u.nationality], dtype=dtypes.SMALL)

    # 18.27: the Russian side of the start line: what the Russian map edge (or, on a map
    # without one, the Russian set-up) reaches without crossing it
    k = kernels.get(m.k.name)
    no_cross = np.where((m.neighbors >= 0) & ~(m.hexsides & Hexside.START_LINE).astype(bool),
                        1, -1).astype(dtypes.STEPCOST)
    seeds = scenario.edges.get("allied")
    if seeds is None or seeds.size == 0:
        seeds = u.setup_cell[(u.side == Side.ALLIED) & (u.setup_cell >= 0)]
    east = k.search.bounded_search(m.neighbors, no_cross, seeds)[0][0] >= 0

    rail = (m.hexsides & Hexside.RAIL).astype(bool)
    has_rail = rail.any(axis=1)
    # 9.13/9.15: friendly map-edge hexes where a friendly rail line leaves the map
    rail_edge = tuple(
        np.array([c for c in scenario.edges.get(side, ()) if has_rail[c]], dtype=dtypes.CELL)
        for side in ("allied", "central"))
    limit = int(tables["stacking"]["max_points"])   # 16.0
    return GweData(enter_cost=enter, side_add=side_add,
                   zoc_add=_tcr_costs(te["enemy_zoc"], "move_add"), zoc_blocked=blocked,
                   tcr=tcr, supply_range=rng, east=east, rail=rail, rail_edge=rail_edge,
                   stack_limit=limit)


def gwe_data(scenario: Scenario) -> GweData:
    """The compiled arrays of a Great War in the East scenario (cached per scenario)."""
    if scenario.game != "gwe":
        raise ValueError(f"scenario {scenario.key} is a {scenario.game!r} game, not 'gwe'")
    return _compile(scenario)


def exerts_zoc(scenario: Scenario) -> np.ndarray:
    """Units that exert a zone of control when on the map (7.12, 7.26, 19.3)."""
    t = scenario.units.utype
    out = t != UnitType.HQ
    if not DEPOTS_EXERT_ZOC:
        out &= t != UnitType.DEPOT
    return out
