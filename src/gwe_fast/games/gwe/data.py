"""The fixed, per-scenario tables of the Great War in the East engine, compiled once.

``GweData`` is the one frozen record of a scenario's derived tables: movement costs, each
unit's TCR and supply range, the combat results table (``CrtTable``) ... The loader builds it
with the scenario (``Scenario.core``); the engine, the kernels and the policies read it there
(``gwe_data``), never from the scenario's text tables at play time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np

from gwe_fast import dtypes, kernels
from gwe_fast.enums import (CRT_RESULT_NAMES, Feature, Hexside, Nationality, Side, Terrain,
                            UnitType)
from gwe_fast.scenario.model import Scenario

PROHIBITED = -1
#: The engine's dice are six-sided (``gwe_fast.dice.DiceStream.roll`` gives 1..6).
DIE_FACES = tuple(range(1, 7))
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


@dataclass(frozen=True, eq=False)
class CrtTable:
    """The combat results table (8.8) with its odds rows (8.4, 17.0) and options (8.9),
    compiled from ``tables.toml`` once per scenario.

    ``results[i, c]``: the ``CrtResult`` codes (attacker, defender) of the modified die
    ``die[i]`` (``die_row`` the other way) on column ``c``; ``text`` the same as the printed
    codes (``"-"``, ``"1"`` ..., ``"E"``). ``rows``: the odds rows' names, in file order (``row_index`` the other way);
    ``ratios[r, c]``: the ``(attack, defense)`` ratio of column ``c`` of row ``r``, zero past
    its ``row_len[r]`` columns (``row_ratios[name]``: a row's own ``int32[k, 2]``, a view);
    ``pairs`` and ``labels`` the same by row name, as Python
    ints and as printed (``"3-1"``). ``row_of_tcr[t]``: the row a force whose worst TCR is
    ``t`` uses (the first whose name holds it), -1 for none (``tcr_row[t]`` its name, None);
    ``joint`` the joint
    Austro-German row (17.0). ``defender_options[code]`` / ``attacker_options[code]``: the
    options of 8.9 for a result. ``faces``: the chance of each result of a column.
    """

    die: tuple[int, ...]
    die_row: MappingProxyType
    results: np.ndarray
    text: tuple[tuple[tuple[str, str], ...], ...]
    n_cols: int
    rows: tuple[str, ...]
    row_index: MappingProxyType
    ratios: np.ndarray
    row_len: np.ndarray
    row_ratios: MappingProxyType
    pairs: MappingProxyType
    labels: MappingProxyType
    row_of_tcr: np.ndarray
    tcr_row: tuple
    joint: int
    defender_options: MappingProxyType
    attacker_options: MappingProxyType
    face_mods: tuple[int, int]
    _faces: tuple = field(repr=False)

    def faces(self, column: int, modifier: int = 0) -> tuple[tuple[float, str, str], ...]:
        """``(probability, attacker code, defender code)`` of a column over the faces of one
        die (``DIE_FACES``) plus ``modifier``, the same results merged, in the order of the
        faces that first give them. A modifier beyond ``face_mods`` reads as its nearest
        (every face is then off the table on the same side)."""
        lo, hi = self.face_mods
        return self._faces[min(max(modifier, lo), hi) - lo][column]

    def result(self, die: int, column: int) -> tuple[str, str]:
        """The printed results (attacker, defender) of a modified die on a column; a die off
        the table reads its nearest row (8.8)."""
        die = min(max(die, self.die[0]), self.die[-1])
        return self.text[self.die_row[die]][column]


def _crt(tables, tcr: np.ndarray) -> CrtTable:
    t, opts = tables["crt"], tables["crt_options"]
    die = tuple(int(d) for d in t["die"])
    codes = {name: i for i, name in enumerate(CRT_RESULT_NAMES)}
    results = np.array([[[codes[x.strip()] for x in cell.split("/")] for cell in row]
                        for row in t["results"]], dtype=np.int8)
    text = tuple(tuple((CRT_RESULT_NAMES[a], CRT_RESULT_NAMES[d]) for a, d in row.tolist())
                 for row in results)
    rows = tuple(t["odds"])
    pairs = {r: tuple(tuple(int(x) for x in ratio.split("-")) for ratio in t["odds"][r])
             for r in rows}
    ratios = np.zeros((len(rows), max(len(p) for p in pairs.values()), 2), dtype=np.int32)
    row_len = np.zeros(len(rows), dtype=np.int32)
    for i, r in enumerate(rows):
        row_len[i] = len(pairs[r])
        ratios[i, :len(pairs[r])] = pairs[r]
    top = int(tcr.max()) + 1 if tcr.size else 0
    row_of_tcr = np.array([next((i for i, r in enumerate(rows) if str(x) in r[3:]), -1)
                           for x in range(top)], dtype=np.int32)
    for a in (results, ratios, row_len, row_of_tcr):
        a.flags.writeable = False
    # each modifier from the one that puts every face on the first die row to the one that
    # puts every face on the last; every face the same weight, added up in face order
    mods = (die[0] - DIE_FACES[-1], die[-1] - DIE_FACES[0])
    die_row = {d: i for i, d in enumerate(die)}
    faces = []
    for m in range(mods[0], mods[1] + 1):
        by_column = []
        for c in range(results.shape[1]):
            acc: dict[tuple[str, str], float] = {}
            for f in DIE_FACES:
                r = text[die_row[min(max(f + m, die[0]), die[-1])]][c]
                acc[r] = acc.get(r, 0.0) + 1.0 / len(DIE_FACES)
            by_column.append(tuple((p, a, d) for (a, d), p in acc.items()))
        faces.append(tuple(by_column))
    return CrtTable(
        die=die, die_row=MappingProxyType(die_row), results=results,
        text=text, n_cols=results.shape[1], rows=rows,
        row_index=MappingProxyType({r: i for i, r in enumerate(rows)}), ratios=ratios,
        row_len=row_len,
        row_ratios=MappingProxyType({r: ratios[i, :row_len[i]] for i, r in enumerate(rows)}),
        pairs=MappingProxyType(pairs),
        labels=MappingProxyType({r: tuple(t["odds"][r]) for r in rows}),
        row_of_tcr=row_of_tcr,
        tcr_row=tuple(rows[i] if i >= 0 else None for i in row_of_tcr.tolist()), joint=rows.index(tables["tcr"]["joint_austro_german_crt_row"]),
        defender_options=MappingProxyType({r["result"]: tuple(r["options"])
                                           for r in opts["defender"]}),
        attacker_options=MappingProxyType({r["result"]: tuple(r["options"])
                                           for r in opts["attacker"]}),
        face_mods=mods, _faces=tuple(faces))


@dataclass(frozen=True, eq=False)
class CombatTerrain:
    """5.4's effects on combat as arrays: ``doubled[c]`` the doublings of a defender in hex
    ``c`` by its terrain or city (a city replaces the terrain), ``trench[c]`` by a trench;
    ``halved[c, d]`` attackers across that hexside are halved; ``die_exclusive`` /
    ``die_any``: ``(mask[c, d], n)`` pairs, n added to the die when attacking exclusively /
    at all across such hexsides; ``prohibited[c, d]`` no attack across."""

    doubled: np.ndarray
    trench: np.ndarray
    halved: np.ndarray
    die_exclusive: tuple
    die_any: tuple
    prohibited: np.ndarray


_HEXSIDE_KINDS = {"minor_river": Hexside.MINOR_RIVER, "major_river": Hexside.MAJOR_RIVER,
                  "ridge": Hexside.RIDGE, "blocked": Hexside.BLOCKED, "canal": Hexside.CANAL}


def _codes(entry) -> list[str]:
    c = (entry or {}).get("combat", "none")
    return [c] if isinstance(c, str) else list(c)


def _combat_terrain(m, te) -> CombatTerrain:
    # 5.4 Terrain Effects Chart, its combat column
    doubled = np.zeros(m.n_cells, dtype=np.int8)
    for t in Terrain:
        if "defender_doubled" in _codes(te.get(t.name.lower())):
            doubled[m.terrain == t] += 1
    city = (m.features & Feature.CITY).astype(bool)
    doubled[city] = _codes(te.get("city")).count("defender_doubled")
    trench = np.zeros(m.n_cells, dtype=np.int8)
    tr = (m.features & (Feature.TRENCH_ALLIED | Feature.TRENCH_CENTRAL)).astype(bool)
    trench[tr] = _codes(te.get("trench")).count("defender_doubled")
    halved = np.zeros((m.n_cells, 6), dtype=bool)
    prohibited = np.zeros((m.n_cells, 6), dtype=bool)
    excl, anyx = [], []
    for kind, bit in _HEXSIDE_KINDS.items():
        mask = (m.hexsides & bit).astype(bool)
        for code in _codes(te.get(kind)):
            if code == "attacker_halved":
                halved |= mask
            elif code == "prohibited":
                prohibited |= mask
            elif code.startswith("die_plus_"):
                n = int(code.split("_")[2])
                (excl if code.endswith("_exclusively_across") else anyx).append((mask, n))
    return CombatTerrain(doubled, trench, halved, tuple(excl), tuple(anyx), prohibited)


@dataclass(frozen=True, eq=False)
class UnitLists:
    """Each unit's ``utype``, ``nationality``, ``tcr``, printed ``n_steps`` and stacking
    points ``sp`` as tuples of Python ints: for code that reads a few units at a time
    (``combat.crt_row``, the policies' forces), where indexing numpy arrays costs more."""

    utype: tuple[int, ...]
    nationality: tuple[int, ...]
    tcr: tuple[int, ...]
    n_steps: tuple[int, ...]
    sp: tuple[int, ...]


@dataclass(frozen=True, eq=False)
class GweData:
    """Arrays derived from a scenario's map, counters and tables.

    ``enter_cost[t, c]``: Movement Points for a unit of TCR ``t + 1`` to enter cell ``c``
    (terrain, or the city's own cost, plus a trench's), PROHIBITED where it may not.
    ``side_add[t, c, d]``: Movement Points added for crossing the hexside (rivers), PROHIBITED
    for a blocked hexside. ``zoc_add[t]``: the extra cost of entering an enemy-controlled hex
    (7.21). ``tcr[u]``: each unit's Tactical Competence Rating (17.0). ``east[c]``: the cell
    lies on the Russian side of the start line (18.27). ``crt``: the combat results table;
    ``combat``: the terrain's effects on combat (5.4); ``unit_lists``: unit attributes as
    tuples.
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
    crt: CrtTable
    combat: CombatTerrain
    unit_lists: UnitLists


def compile_data(scenario: Scenario) -> GweData:
    """The tables of a Great War in the East scenario, derived from its map, counters and
    text tables; the loader calls this once (``Scenario.core``)."""
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
                   stack_limit=limit, crt=_crt(tables, tcr),
                   combat=_combat_terrain(m, te),
                   unit_lists=UnitLists(
                       utype=tuple(u.utype.tolist()), nationality=tuple(u.nationality.tolist()),
                       tcr=tuple(int(t) for t in tcr), n_steps=tuple(u.n_steps.tolist()),
                       sp=tuple(u.stacking.tolist())))


def gwe_data(scenario: Scenario) -> GweData:
    """The compiled tables of a Great War in the East scenario (``Scenario.core``, which the
    loader built)."""
    return scenario.compiled("gwe", GweData)


def exerts_zoc(scenario: Scenario) -> np.ndarray:
    """Units that exert a zone of control when on the map (7.12, 7.26, 19.3)."""
    t = scenario.units.utype
    out = t != UnitType.HQ
    if not DEPOTS_EXERT_ZOC:
        out &= t != UnitType.DEPOT
    return out
