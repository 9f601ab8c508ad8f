"""The fixed, per-scenario arrays of The Kaiser's Battle engine, compiled once (5.32, 7.0,
8.5, 9.0, 11.14, 14.13, 16.0, 20.0)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import Feature, Hexside, Nationality, Size, Terrain, UnitType
from gwe_fast.scenario.model import Scenario

# The chart's hexside rows and the map's hexside bits they apply to. The chart has one river
# row and no canal row; a canal is a river for movement and combat (rulings.md, 5.32).
RIVER_SIDES = Hexside.MINOR_RIVER | Hexside.CANAL
TRENCH_FEATURES = Feature.REDOUBT | Feature.FIELDWORK | Feature.WIRE    # 10.0
HEX_FEATURES = {"town": Feature.TOWN, "redoubt": Feature.REDOUBT,
                "fieldwork": Feature.FIELDWORK, "wire": Feature.WIRE}


@dataclass(frozen=True, eq=False)
class KbData:
    """Arrays derived from a scenario's map, counters and tables.

    ``enter_cost[c]``: Movement Points to enter cell ``c``: the highest cost among its terrain
    and its features (5.32). ``side_add[c, d]``: Movement Points added for crossing the
    hexside (river +2, excavation +1). ``die_mod[c]``: the defender's die modifier of the hex:
    the highest among its terrain and features (5.32). ``side_mod[c, d]``: the modifier of a
    river or excavation hexside, awarded only when the defender is attacked solely across such
    hexsides. ``corps[u]``: a code per (nationality, corps), -1 for the replacement pool.
    """

    enter_cost: np.ndarray
    side_add: np.ndarray
    die_mod: np.ndarray
    side_mod: np.ndarray
    hilltop: np.ndarray
    town: np.ndarray
    trench: np.ndarray
    west_of_vp_line: np.ndarray
    exit_edge: np.ndarray
    map_edge: np.ndarray
    entry: dict
    corps: np.ndarray
    corps_names: tuple
    stack_limit: int
    division: np.ndarray
    replacement: np.ndarray
    service_values: np.ndarray
    has_service_face: np.ndarray
    pm_turns: frozenset


def kb_data(scenario: Scenario) -> KbData:
    """The compiled tables of a Kaiser's Battle scenario (``Scenario.core``, which the loader
    built)."""
    return scenario.compiled("kb", KbData)


def compile_data(scenario: Scenario) -> KbData:
    """The tables of a Kaiser's Battle scenario, derived from its map, counters and text
    tables; the loader calls this once (``Scenario.core``)."""
    m, u, tables = scenario.map, scenario.units, scenario.tables
    te = tables["terrain_effects"]
    n = m.n_cells
    enter = np.zeros(n, dtype=dtypes.STEPCOST)
    mod = np.zeros(n, dtype=np.int16)
    for t in Terrain:
        row = te.get(t.name.lower())
        if row is None or row.get("kind") != "hex":
            continue
        here = m.terrain == int(t)
        enter[here] = row["move"]
        mod[here] = row["die_mod"]
    for name, bit in HEX_FEATURES.items():
        row = te[name]
        here = (m.features & int(bit)).astype(bool)
        enter[here] = np.maximum(enter[here], row["move"])
        mod[here] = np.maximum(mod[here], row["die_mod"])
    river, exc = te["minor_river"], te["excavation"]
    sides = m.hexsides
    is_river = (sides & int(RIVER_SIDES)).astype(bool)
    is_exc = (sides & int(Hexside.EXCAVATION)).astype(bool)
    side_add = (is_river * river["move_add"] + is_exc * exc["move_add"]).astype(dtypes.STEPCOST)
    side_mod = np.maximum(is_river * river["die_mod"], is_exc * exc["die_mod"]).astype(np.int16)

    feats = m.features
    edges = scenario.edges
    exit_edge = np.zeros(n, dtype=bool)
    for c in edges.get("exit", ()):
        exit_edge[c] = True
    map_edge = (m.neighbors < 0).any(axis=1)
    entry = {k: tuple(int(c) for c in v) for k, v in scenario.entry.items()}

    nat = u.nationality
    corps_text = u.text["corps"]
    names: list[tuple[int, str]] = []
    corps = np.full(u.n, -1, dtype=np.int16)
    for i in range(u.n):
        if not corps_text[i]:
            continue
        key = (int(nat[i]), corps_text[i])
        if key not in names:
            names.append(key)
        corps[i] = names.index(key)
    service = np.asarray(u.extra["service_company"], dtype=np.int16)
    pm = tables["weather"].get("pm_turns", ())
    return KbData(
        enter_cost=enter, side_add=side_add, die_mod=mod, side_mod=side_mod,
        hilltop=m.terrain == int(Terrain.HILLTOP),
        town=(feats & int(Feature.TOWN)).astype(bool),
        trench=(feats & int(TRENCH_FEATURES)).astype(bool),
        west_of_vp_line=(feats & int(Feature.VP_LINE_WEST)).astype(bool),
        exit_edge=exit_edge, map_edge=map_edge, entry=entry,
        corps=corps, corps_names=tuple(f"{Nationality(a).name.lower()} {b}" for a, b in names),
        stack_limit=int(tables["stacking"]["max_points"]),
        division=(u.size == int(Size.DIVISION)) & (u.utype != int(UnitType.HQ)),
        replacement=u.utype == int(UnitType.REPLACEMENT),
        service_values=service, has_service_face=service[:, 0] >= 0,
        pm_turns=frozenset(int(t) for t in pm),
    )
