"""Load and validate scenario files (see docs/scenarios.md for the format).

Every check appends a located ``Fault`` instead of stopping, so ``validate`` reports all the
problems of a scenario at once; ``load_scenario`` raises ``ScenarioError`` with the full list.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import (GAME_FEATURES, GAME_HEXSIDES, GAME_TERRAIN, Feature, Hexside,
                            Nationality, Side, Size, UnitType)
from gwe_fast.hexmap import HexMap, format_hex_id, parse_hex_id
from gwe_fast.scenario import limits
from gwe_fast.scenario.errors import GIVEN, Fault, ScenarioError
from gwe_fast.scenario.limits import COUNT, TURN, VP, VP_TOTAL
from gwe_fast.scenario.history import check_history
from gwe_fast.scenario.model import (ENTRY_LETTERS, OptionSpec, Place, Scenario, UnitTable)
from gwe_fast.scenario.table_shapes import check_tables, turn_schedule_ends
from gwe_fast.scenario.tomlfile import find_line, read_toml

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
GAMES = ("gwe", "kb")
MAX_STEPS = 4
STEP_FIELDS = {"gwe": ("attack", "defense", "movement"), "kb": ("combat", "morale", "movement")}
SIDE_NAMES = {"allied": Side.ALLIED, "central": Side.CENTRAL}

# game-specific unit fields: name -> kind ("int", "bool", "str")
UNIT_EXTRA = {
    "gwe": {"option": "options", "attack_shift": "int", "command_strength": "int",
            "command_radius": "int", "combat": "int", "heroic": "bool", "army": "str"},
    "kb": {"division": "str", "corps": "str", "stoss": "bool", "pool": "str",
           "third_step": "str", "service_company": "step", "supply_range": "int",
           "communications_range": "int", "field_artillery_range": "int",
           "second_segment": "bool", "option": "options"},
}
UNIT_COMMON = {"id", "name", "side", "nationality", "type", "size", "stacking", "steps", "setup",
               "turn", "entry", "note"}
UNIT_REQUIRED = ("id", "name", "side", "nationality", "type", "size", "stacking", "steps")
UNIT_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")

SCENARIO_KEYS = {"game", "name", "version", "map", "counters", "tables", "first_turn",
                 "last_turn", "first_player", "case", "initial_vp", "description", "extends"}
SCENARIO_REQUIRED = ("game", "name", "version", "map", "counters", "tables", "first_turn",
                     "last_turn", "first_player")
OPTION_KEYS = {"default", "help", "case", "vp", "vp_with", "excludes"}
PLACEMENT_KEYS = {"setup", "turn", "entry", "removed"}
MAP_KEYS = {"name", "columns", "rows", "hex_km", "north", "absent", "source", "turns"}
PLACE_KEYS = {"hex", "name", "kind", "vp", "note"}
EDGE_KEYS = ("allied", "central", "exit")   # friendly supply edges; the exit edge (KB 20.2)
MAP_TOP = {"map", "terrain", "features", "hexsides", "place", "entry", "edges"}


def _name(enum_member) -> str:
    return enum_member.name.lower()


class Checker:
    """Collects faults for one file, finding their lines in its text."""

    def __init__(self, shown: str, text: str, faults: list[Fault]):
        self.shown, self.text, self.faults = shown, text, faults

    def fault(self, key: str, message: str, value: object = None) -> None:
        self.faults.append(Fault(self.shown, key, message, find_line(self.text, key, value)))

    def table(self, data: Any, key: str) -> dict:
        if not isinstance(data, dict):
            self.fault(key, f"must be a table, not {type(data).__name__}")
            return {}
        return data

    def keys(self, data: dict, key: str, allowed: set[str], required=()) -> None:
        prefix = f"{key}." if key else ""
        for k in data:
            if k not in allowed:
                self.fault(prefix + k, f"unknown key {k!r} (allowed: {', '.join(sorted(allowed))})")
        for k in required:
            if k not in data:       # at the table that lacks it; at the key itself at the top
                self.fault(key or k, f"missing required key {k!r}")

    def number(self, value: Any, key: str, kind: limits.Kind, lo: float | None = None,
               hi: float | None = None, label: str = ""):
        """``value`` if it is a number of ``kind`` (within ``lo..hi`` when given), else a
        fault and None. Every number a scenario file holds is checked here (or, in the
        tables file, by ``table_shapes`` through the same ``limits.Kind``)."""
        msg = kind.fault(value, lo, hi)
        if msg is not None:
            self.fault(key, f"{label}{msg}")
            return None
        return value

    def int_(self, value: Any, key: str, kind: limits.Kind, lo: int | None = None,
             hi: int | None = None, label: str = ""):
        return self.number(value, key, kind, lo, hi, label)

    def str_(self, value: Any, key: str, empty: bool = False):
        if not isinstance(value, str) or not (value or empty):
            what = limits.describe(value) if not isinstance(value, str) else "an empty string"
            self.fault(key, f"must be a{'' if empty else ' non-empty'} string, not {what}")
            return None
        return value

    def bool_(self, value: Any, key: str):
        if not isinstance(value, bool):
            self.fault(key, f"must be true or false, not {value!r}")
            return None
        return value

    def choice(self, value: Any, key: str, choices: dict):
        if not isinstance(value, str):
            self.fault(key, f"must be one of {', '.join(choices)}, not {limits.describe(value)}")
            return None
        if value not in choices:
            self.fault(key, f"{value!r} is not one of {', '.join(choices)}", value)
            return None
        return choices[value]

    def hex_(self, value: Any, key: str, hexmap: HexMap | None, what: str = "hex"):
        """A hex id on the map; returns its cell or None."""
        if (hexmap is not None and type(value) is str and len(value) == 4 and value.isascii()
                and value.isdigit()):
            cell = _cells_of(hexmap).get(int(value))
            if cell is not None:                    # the common case: a hex on the map
                return cell
        try:
            h = parse_hex_id(value) if isinstance(value, str) else parse_hex_id(str(value))
        except ValueError:
            self.fault(key, f"{what} {value!r} is not a four-digit hex id XXYY", value)
            return None
        if hexmap is None:
            return None
        cell = _cells_of(hexmap).get(h)
        if cell is None:
            self.fault(key, f"{what} {format_hex_id(h)} is outside the map "
                            f"(columns {hexmap.col0:02d}-{hexmap.col1:02d}, rows "
                            f"{hexmap.row0:02d}-{hexmap.row1:02d}, less absent hexes)", value)
        return cell


def _cells_of(hexmap: HexMap) -> dict[int, int]:
    """Hex id -> cell of the map being checked (one dict per map: a scenario names thousands
    of hexes, and the map's own lookup is made for arrays of them)."""
    hit = _CELLS.get(id(hexmap))
    if hit is None or hit[0] is not hexmap:
        _CELLS.clear()
        hit = _CELLS[id(hexmap)] = (hexmap, {h: c for c, h in enumerate(hexmap.ids.tolist())})
    return hit[1]


_CELLS: dict[int, tuple[HexMap, dict[int, int]]] = {}


def expand_hexes(entry: Any, key: str, chk: Checker, hexmap: HexMap | None) -> list[int]:
    """Cells of one hex-list entry: ``"0809"`` or a range ``"0805..0809"``."""
    if not isinstance(entry, str):
        chk.fault(key, f"must be a hex id string like \"0809\", not {entry!r}")
        return []
    if ".." not in entry:
        c = chk.hex_(entry, key, hexmap)
        return [] if c is None else [c]
    a, _, b = entry.partition("..")
    try:
        ha, hb = parse_hex_id(a), parse_hex_id(b)
    except ValueError:
        chk.fault(key, f"range {entry!r} must be two hex ids like \"0805..0809\"", entry)
        return []
    (ca, ra), (cb, rb) = divmod(ha, 100), divmod(hb, 100)
    if ca == cb:
        ids = [ca * 100 + r for r in range(min(ra, rb), max(ra, rb) + 1)]
    elif ra == rb:
        ids = [c * 100 + ra for c in range(min(ca, cb), max(ca, cb) + 1)]
    else:
        chk.fault(key, f"range {entry!r} must stay in one column or one row", entry)
        return []
    on_map = _cells_of(hexmap) if hexmap is not None else {}
    cells = []
    for h in ids:
        c = on_map.get(h)
        if c is None:       # off the map: the fault, said the usual way
            c = chk.hex_(format_hex_id(h), key, hexmap, what=f"hex {format_hex_id(h)} of range")
        if c is not None:
            cells.append(c)
    return cells


def hex_list(value: Any, key: str, chk: Checker, hexmap: HexMap | None) -> list[int]:
    if not isinstance(value, list):
        chk.fault(key, f"must be a list of hex ids, not {type(value).__name__}")
        return []
    on_map = _cells_of(hexmap) if hexmap is not None else {}
    cells: list[int] = []
    for i, entry in enumerate(value):
        # the common case first: a four-digit id of a hex on the map (parse_hex_id's rule)
        c = (on_map.get(int(entry)) if type(entry) is str and len(entry) == 4
             and entry.isascii() and entry.isdigit() else None)
        if c is not None:
            cells.append(c)
        else:
            cells.extend(expand_hexes(entry, f"{key}[{i}]", chk, hexmap))
    return cells


def check_map(game: str, data: dict, chk: Checker) -> tuple[HexMap | None, dict]:
    """Validate map.toml and build the HexMap; returns (map, extras)."""
    chk.keys(data, "", MAP_TOP, required=("map",))
    meta = chk.table(data.get("map", {}), "map")
    chk.keys(meta, "map", MAP_KEYS, required=("columns", "rows"))
    hexmap = None
    bounds = []
    for k in ("columns", "rows"):
        v = meta.get(k)
        if v is None:
            continue
        if (not isinstance(v, list) or len(v) != 2
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)
                or not 0 <= v[0] <= v[1] <= 99):
            chk.fault(f"map.{k}", f"must be [first, last] with 0 <= first <= last <= 99, not {v!r}")
        else:
            bounds.append(v)
    if "hex_km" in meta:
        chk.number(meta["hex_km"], "map.hex_km", limits.HEX_KM)
    for k in ("name", "source"):
        if k in meta:
            chk.str_(meta[k], f"map.{k}", empty=True)
    track = (TURN.lo, TURN.hi)
    if "turns" in meta:
        v = meta["turns"]
        if (not isinstance(v, list) or len(v) != 2
                or any(TURN.fault(x) is not None for x in v) or v[0] > v[1]):
            chk.fault("map.turns", f"must be [first, last], the Game-Turns of the Turn Record "
                                   f"Track, with {TURN.lo} <= first <= last <= {TURN.hi}, "
                                   f"not {v!r}")
        else:
            track = tuple(v)
    if "north" in meta and (isinstance(meta["north"], bool)
                            or not isinstance(meta["north"], (int, float))
                            or not -180 <= meta["north"] <= 180):
        chk.fault("map.north", f"must be the direction of true north in degrees clockwise from "
                               f"the top of the map, -180 to 180, not {meta['north']!r}")
    if len(bounds) == 2:
        absent = meta.get("absent", [])
        ok_absent = []
        if not isinstance(absent, list):
            chk.fault("map.absent", "must be a list of hex ids")
        else:
            for i, h in enumerate(absent):
                try:
                    hid = parse_hex_id(h)
                except (ValueError, TypeError):
                    chk.fault(f"map.absent[{i}]", f"{h!r} is not a four-digit hex id XXYY", h)
                    continue
                c, r = divmod(hid, 100)
                if not (bounds[0][0] <= c <= bounds[0][1] and bounds[1][0] <= r <= bounds[1][1]):
                    chk.fault(f"map.absent[{i}]", f"hex {h} is outside the map rectangle", h)
                    continue
                ok_absent.append(hid)
        hexmap = HexMap(tuple(bounds[0]), tuple(bounds[1]), ok_absent)

    # terrain: one base terrain per hex
    allowed_t = {_name(t): t for t in GAME_TERRAIN[game]}
    terrain = chk.table(data.get("terrain", {}), "terrain")
    default = terrain.get("default", "clear")
    if not isinstance(default, str):
        chk.fault("terrain.default", f"must be the name of a terrain, not "
                                     f"{limits.describe(default)}")
    elif default not in allowed_t:
        chk.fault("terrain.default", f"terrain {default!r} is not used by this game "
                                     f"(allowed: {', '.join(sorted(allowed_t))})", default)
    elif hexmap is not None:
        hexmap.terrain[:] = int(allowed_t[default])
    seen: dict[int, str] = {}
    for name, value in terrain.items():
        if name == "default":
            continue
        if name not in allowed_t:
            chk.fault(f"terrain.{name}", f"terrain {name!r} is not used by this game "
                                         f"(allowed: {', '.join(sorted(allowed_t))})")
            continue
        cells = hex_list(value, f"terrain.{name}", chk, hexmap)
        for cell in cells:
            if cell in seen and seen[cell] != name:
                chk.fault(f"terrain.{name}", f"hex {hexmap.id_of(cell)} is given two terrains "
                                             f"({seen[cell]} and {name})", hexmap.id_of(cell))
            seen[cell] = name
        if cells:
            hexmap.terrain[np.array(cells)] = int(allowed_t[name])

    allowed_f = {_name(f): f for f in Feature if f & GAME_FEATURES[game]}
    features = chk.table(data.get("features", {}), "features")
    for name, value in features.items():
        if name not in allowed_f:
            chk.fault(f"features.{name}", f"feature {name!r} is not used by this game "
                                          f"(allowed: {', '.join(sorted(allowed_f))})")
            continue
        cells = hex_list(value, f"features.{name}", chk, hexmap)
        if cells:
            hexmap.features[np.array(cells)] |= int(allowed_f[name])

    allowed_h = {_name(h): h for h in Hexside if h & GAME_HEXSIDES[game] and h.bit_count() == 1}
    hexsides = chk.table(data.get("hexsides", {}), "hexsides")
    for name, value in hexsides.items():
        if name not in allowed_h:
            chk.fault(f"hexsides.{name}", f"hexside kind {name!r} is not used by this game "
                                          f"(allowed: {', '.join(sorted(allowed_h))})")
            continue
        if not isinstance(value, list):
            chk.fault(f"hexsides.{name}", "must be a list of hexsides like \"0809-0810\"")
            continue
        for i, entry in enumerate(value):
            key = f"hexsides.{name}[{i}]"
            if not isinstance(entry, str) or "-" not in entry:
                chk.fault(key, f"{entry!r} must be a hexside \"XXYY-XXYY\" or a chain of hexes",
                          entry)
                continue
            cells = [chk.hex_(h, key, hexmap) for h in entry.split("-")]
            if None in cells or hexmap is None:
                continue
            near = hexmap.neighbor_lists
            for a, b in zip(cells, cells[1:]):
                if b not in near[a]:
                    chk.fault(key, f"hexes {hexmap.id_of(a)} and {hexmap.id_of(b)} are not "
                                   f"adjacent, so they share no hexside", entry)
                    continue
                # HexMap.set_hexside, with the direction found in the neighbour lists
                hexmap.k.hexgrid.set_hexside(hexmap.hexsides, hexmap.neighbors, a,
                                             near[a].index(b), int(allowed_h[name]))

    places = []
    place_list = data.get("place", [])
    if not isinstance(place_list, list):
        chk.fault("place", "must be an array of tables [[place]]")
        place_list = []
    names_seen: set[str] = set()
    for i, p in enumerate(place_list):
        key = f"place[{i}]"
        p = chk.table(p, key)
        chk.keys(p, key, PLACE_KEYS, required=("hex", "name", "kind"))
        cell = chk.hex_(p.get("hex"), f"{key}.hex", hexmap) if "hex" in p else None
        name = chk.str_(p.get("name"), f"{key}.name") if "name" in p else None
        kind = p.get("kind")
        if kind is not None and kind not in ("town", "city"):
            chk.fault(f"{key}.kind", f"{kind!r} is not one of town, city", kind)
        vp = chk.int_(p.get("vp", 0), f"{key}.vp", VP)
        if "note" in p:
            chk.str_(p["note"], f"{key}.note", empty=True)
        if name in names_seen:
            chk.fault(f"{key}.name", f"place {name!r} is named twice", name)
        names_seen.add(name)
        if cell is not None and name and kind in ("town", "city") and vp is not None:
            places.append(Place(name, cell, kind, vp))

    entry: dict[str, np.ndarray] = {}
    entries = chk.table(data.get("entry", {}), "entry")
    for letter, value in entries.items():
        if len(letter) != 1 or letter not in ENTRY_LETTERS:
            chk.fault(f"entry.{letter}", f"entry key {letter!r} must be one capital letter")
            continue
        entry[letter] = np.array(hex_list(value, f"entry.{letter}", chk, hexmap), dtype=dtypes.CELL)
        if isinstance(value, list) and not value:
            chk.fault(f"entry.{letter}", f"entry {letter} names no hex: its reinforcements "
                                         f"could not enter")

    edges: dict[str, np.ndarray] = {}
    edge_tab = chk.table(data.get("edges", {}), "edges")
    chk.keys(edge_tab, "edges", EDGE_KEYS)
    for side in EDGE_KEYS:
        if side in edge_tab:
            edges[side] = np.array(hex_list(edge_tab[side], f"edges.{side}", chk, hexmap),
                                   dtype=dtypes.CELL)
    return hexmap, {"places": tuple(places), "entry": entry, "edges": edges, "track": track}


def check_units(game: str, data: dict, chk: Checker, hexmap: HexMap | None,
                entry_letters: set[str] | None, option_names: set[str] | None,
                track: tuple[int, int] = (TURN.lo, TURN.hi)) -> UnitTable | None:
    chk.keys(data, "", {"meta", "unit"}, required=("unit",))
    meta = chk.table(data.get("meta", {}), "meta")
    chk.keys(meta, "meta", {"game", "source"})
    if "game" in meta and meta["game"] != game:
        chk.fault("meta.game", f"counters are for game {meta['game']!r}, the scenario is {game!r}")
    if "source" in meta:
        chk.str_(meta["source"], "meta.source", empty=True)
    units = data.get("unit", [])
    if not isinstance(units, list):
        chk.fault("unit", "must be an array of tables [[unit]]")
        return None
    if len(units) > limits.MAX_UNITS:
        chk.fault("unit", f"has {len(units)} counters; a scenario may have at most "
                          f"{limits.MAX_UNITS}")
        return None
    extra_spec = UNIT_EXTRA[game]
    allowed = UNIT_COMMON | set(extra_spec)
    n = len(units)
    ids: list[str] = []
    names: list[str] = []
    # Python lists while checking (numpy's item assignment is slow), arrays at the end
    side, nat, utype, size, stacking, n_steps = ([0] * n for _ in range(6))
    values = np.full((n, MAX_STEPS, 3), -1, dtype=dtypes.VALUE)
    setup, turn, entry = [-1] * n, [-1] * n, [-1] * n
    option: list[tuple[str, ...]] = [()] * n
    pool: list[str] = [""] * n
    extra: dict[str, list] = {k: [-1] * n for k, kind in extra_spec.items()
                              if kind in ("int", "bool")}
    extra.update({k: [[-1] * 3] * n for k, kind in extra_spec.items() if kind == "step"})
    text = {k: [""] * n for k, kind in extra_spec.items() if kind == "str" and k not in
            ("option", "pool")}
    nats = {_name(x): x for x in Nationality}
    types = {_name(x): x for x in UnitType}
    sizes = {_name(x): x for x in Size}
    coded = (("side", side, SIDE_NAMES), ("nationality", nat, nats), ("type", utype, types),
             ("size", size, sizes))
    seen_ids: dict[str, int] = {}
    for i, u in enumerate(units):
        key = f"unit[{i}]"
        u = chk.table(u, key)
        uid = u.get("id")
        label = f"unit {uid!r}" if isinstance(uid, str) else f"unit #{i + 1}"
        for k in u:
            if k not in allowed:
                chk.fault(f"{key}.{k}", f"{label}: unknown key {k!r} (allowed: "
                                        f"{', '.join(sorted(allowed))})")
        for k in UNIT_REQUIRED:
            if k not in u:
                chk.fault(key, f"{label}: missing required key {k!r}")
        if isinstance(uid, str) and UNIT_ID.match(uid):
            if uid in seen_ids:
                chk.fault(f"{key}.id", f"{label}: id already used by unit #{seen_ids[uid] + 1}",
                          uid)
            seen_ids.setdefault(uid, i)
        elif "id" in u:
            chk.fault(f"{key}.id", f"{label}: id must be lower-case letters, digits and '-'")
        ids.append(uid if isinstance(uid, str) else f"#{i + 1}")
        names.append(u["name"] if isinstance(u.get("name"), str) else "")
        if "name" in u:
            chk.str_(u["name"], f"{key}.name", empty=True)
        if "note" in u:
            chk.str_(u["note"], f"{key}.note", empty=True)
        for field, column, choices in coded:
            if field in u:
                x = chk.choice(u[field], f"{key}.{field}", choices)
                column[i] = -1 if x is None else int(x)
        if "stacking" in u:
            x = chk.int_(u["stacking"], f"{key}.stacking", COUNT, 0, 12)
            stacking[i] = -1 if x is None else x
        if "steps" in u:
            st = u["steps"]
            fields = STEP_FIELDS[game]
            if (not isinstance(st, list) or not 1 <= len(st) <= MAX_STEPS
                    or not all(isinstance(r, list) and len(r) == 3 for r in st)):
                chk.fault(f"{key}.steps", f"{label}: steps must be 1 to {MAX_STEPS} rows of "
                                          f"[{', '.join(fields)}], not {st!r}")
            else:
                bad = [(s_i, f_i, msg) for s_i, row in enumerate(st)
                       for f_i, v in enumerate(row) if (msg := COUNT.fault(v)) is not None]
                for s_i, f_i, msg in bad:
                    chk.fault(f"{key}.steps", f"{label}: step {s_i + 1} {fields[f_i]} {msg}")
                if not bad:
                    values[i, :len(st)] = st
                n_steps[i] = len(st)
        placed = []
        if "setup" in u:
            c = chk.hex_(u["setup"], f"{key}.setup", hexmap, what=f"{label}: set-up hex")
            setup[i] = -1 if c is None else c
            placed.append("setup")
        if "turn" in u:
            t = chk.int_(u["turn"], f"{key}.turn", TURN, label=f"{label}: turn ")
            if t is not None and not track[0] <= t <= track[1]:
                chk.fault(f"{key}.turn", f"{label}: Game-Turn {t} is not on the Turn Record "
                                         f"Track of the map (Game-Turns {track[0]}-{track[1]})")
                t = None
            turn[i] = -1 if t is None else t
            placed.append("turn")
            if "entry" not in u:
                chk.fault(key, f"{label}: a reinforcement turn needs an entry letter")
        if "entry" in u:
            e = u["entry"]
            if not isinstance(e, str) or (entry_letters is not None and e not in entry_letters):
                known = ", ".join(sorted(entry_letters or ())) or "none"
                chk.fault(f"{key}.entry", f"{label}: entry {e!r} is not an entry letter of the "
                                          f"map (map has: {known})", e)
            elif len(e) == 1 and e in ENTRY_LETTERS:
                entry[i] = ENTRY_LETTERS.index(e)
            if "turn" not in u:
                chk.fault(key, f"{label}: an entry letter needs a reinforcement turn")
        if "setup" in u and "turn" in u:
            chk.fault(key, f"{label}: has both a set-up hex and a reinforcement turn")
        for k, kind in extra_spec.items():
            if k not in u:
                continue
            v = u[k]
            if kind == "int":
                x = chk.int_(v, f"{key}.{k}", COUNT)
                if x is not None:
                    extra[k][i] = x
            elif kind == "bool":
                x = chk.bool_(v, f"{key}.{k}")
                if x is not None:
                    extra[k][i] = int(x)
            elif kind == "options":
                opts = [v] if isinstance(v, str) else v
                if (not isinstance(opts, list) or not opts
                        or not all(isinstance(x, str) and x for x in opts)):
                    chk.fault(f"{key}.{k}", f"{label}: option must be an option name or a list "
                                            f"of them, not {v!r}")
                    continue
                option[i] = tuple(opts)
                for x in opts:
                    if option_names is not None and x not in option_names:
                        chk.fault(f"{key}.option", f"{label}: option {x!r} is not declared by "
                                                   f"the scenario", x)
            elif kind == "step":
                if (not isinstance(v, list) or len(v) != 3
                        or not all(COUNT.fault(a) is None for a in v)):
                    chk.fault(f"{key}.{k}", f"{label}: {k} must be three integers "
                                            f"[{', '.join(STEP_FIELDS[game])}], not {v!r}")
                else:
                    extra[k][i] = v
            else:
                x = chk.str_(v, f"{key}.{k}")
                if x is None:
                    continue
                if k == "pool":
                    pool[i] = x
                else:
                    text[k][i] = x
        if "option" in u:
            placed.append("option")
        if "pool" in u:
            placed.append("pool")
        if not placed:
            chk.fault(key, f"{label}: has no set-up hex, reinforcement turn, option or pool")
    small = {k: np.array(v, dtype=dtypes.SMALL) for k, v in (
        ("side", side), ("nationality", nat), ("utype", utype), ("size", size),
        ("stacking", stacking), ("n_steps", n_steps), ("entry", entry))}
    extra_arrays = {k: np.array(v, dtype=dtypes.VALUE).reshape(n, 3) if extra_spec[k] == "step"
                    else np.array(v, dtype=dtypes.VALUE) for k, v in extra.items()}
    return UnitTable(
        ids=tuple(ids), names=tuple(names), **small,
        values=values,
        setup_cell=np.array(setup, dtype=dtypes.CELL),
        arrival_turn=np.array(turn, dtype=dtypes.TURN),
        option=tuple(option), pool=tuple(pool), extra=MappingProxyType(extra_arrays),
        text=MappingProxyType({k: tuple(v) for k, v in text.items()}))


def _coerce_option(spec: OptionSpec, raw: Any) -> Any:
    """Convert a user's option value (often a string from the command line) to the type of
    the option's default; raise ValueError with a sentence if it does not fit."""
    d = spec.default
    if isinstance(d, bool):
        if isinstance(raw, bool):
            return raw
        s = str(raw).strip().lower()
        if s in ("true", "1", "yes", "on"):
            return True
        if s in ("false", "0", "no", "off"):
            return False
        raise ValueError("expected true or false")
    if isinstance(d, int):
        try:
            value = int(raw) if not isinstance(raw, (bool, float)) else None
        except (TypeError, ValueError):
            value = None
        if value is None:
            raise ValueError("expected an integer")
        msg = limits.OPTION_INT.fault(value)
        if msg is not None:
            raise ValueError(f"the value {msg}")
        return value
    if isinstance(d, float):
        try:
            value = float(raw) if not isinstance(raw, bool) else None
        except (TypeError, ValueError):
            value = None
        if value is None:
            raise ValueError("expected a number")
        msg = limits.OPTION_FLOAT.fault(value)
        if msg is not None:
            raise ValueError(f"the value {msg}")
        return value
    return str(raw)


#: The Guns of August's data files beside its scenario files (games/goa/scenario.py)
GOA_DATA_FILES = ("countries", "cities", "naval", "colonies", "land", "morale", "rules")


def bundled_scenarios() -> dict[str, Path]:
    """Bundled scenarios by key (``"brusilov/historical"``), in a stable order."""
    out = {}
    for game_dir in sorted(p for p in DATA_DIR.iterdir() if p.is_dir()):
        for f in sorted(game_dir.glob("*.toml")):
            if f.stem in ("map", "counters", "tables") or f.stem in GOA_DATA_FILES:
                continue
            out[f"{game_dir.name}/{f.stem}"] = f
    return out


def resolve(name_or_path: str | Path) -> tuple[str, Path]:
    """Return ``(key, path)`` for a bundled scenario key or a path to a scenario file."""
    bundled = bundled_scenarios()
    s = str(name_or_path)
    if s in bundled:
        return s, bundled[s]
    p = Path(name_or_path)
    if p.is_dir():
        raise ScenarioError([Fault(str(p), "", "is a folder: name one scenario file in it "
                                               "(for example historical.toml)")])
    if p.exists() or p.suffix == ".toml":
        return str(p), p
    known = ", ".join(bundled) or "none"
    raise ScenarioError([Fault(s, "", f"is neither a scenario file nor a bundled scenario "
                                      f"(bundled: {known})")])


def _hash(obj: Any) -> str:
    blob = json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


OUTSIDE = ("is outside the scenario's folder and the bundled data, so it is not read; to read "
           "files elsewhere, give --allow-outside-paths to gwe validate, run or sweep "
           "(allow_outside_paths=True in Python)")


def allowed_roots(path: Path, allow_outside_paths: bool) -> tuple[Path, ...] | None:
    """The folders the files a scenario names must lie in: its own folder (and below) and the
    bundled data; None when the caller allows any path."""
    if allow_outside_paths:
        return None
    return (Path(os.path.realpath(path.parent)), Path(os.path.realpath(DATA_DIR)))


def named_file(ref: Path, rel: str, roots: tuple[Path, ...] | None) -> Path | str:
    """The file that ``rel``, named in the scenario file ``ref``, stands for (relative to
    ``ref``'s folder, links followed), or a message saying why it is not read. The message
    is the same whether a file outside the allowed folders exists or not: nothing is looked
    at there."""
    if not rel or "\0" in rel:
        return "is not a file path"
    target = ref.parent / rel
    if roots is None:
        return target
    try:
        real = Path(os.path.realpath(target))
    except (OSError, ValueError):
        return OUTSIDE
    if not any(real == r or real.is_relative_to(r) for r in roots):
        return OUTSIDE
    return target


def read_named(ref: Path, chk: Checker, key: str, rel: str,
               roots: tuple[Path, ...] | None) -> tuple[Path | None, dict | None, str]:
    """Read the TOML file ``rel`` named at ``key`` of the scenario file ``ref`` (checked by
    ``chk``): ``(path, data, text)``, data None after a fault. A file that cannot be read is
    a fault at ``key``; a TOML syntax error one in the file itself."""
    target = named_file(ref, rel, roots)
    if isinstance(target, str):
        chk.fault(key, f"{rel!r} {target}", rel)
        return None, None, ""
    data, text, f = read_toml(target, str(target))
    for fault in f:
        if fault.line is None and not text:         # not read at all: blame the key naming it
            chk.fault(key, f"{rel!r}: {fault.message}", rel)
        else:
            chk.faults.append(fault)
    return target, data, text


def read_parts(name_or_path, allow_outside_paths: bool = False,
               edit: Callable[[dict], None] | None = None):
    """Read a scenario file (after ``extends``) and the map, counters and tables files it
    names: ``(key, path, parts, faults)``, ``parts`` as ``_build`` takes them (None when the
    scenario file itself could not be read). ``edit`` changes the scenario data before its
    files are read (a sweep's overrides of the scenario file: the files then read are the
    ones the overrides name, confined like any other)."""
    faults: list[Fault] = []
    try:
        key, path = resolve(name_or_path)
    except ScenarioError as exc:
        return None, None, None, exc.faults
    shown = str(path)
    data, text, f = read_toml(path, shown)
    faults += f
    if data is None:
        return key, path, None, faults
    roots = allowed_roots(path, allow_outside_paths)
    data, text, shown = _extend(data, path, text, faults, roots)
    if data is None:
        return key, path, None, faults
    if edit is not None:
        edit(data)
    if isinstance(data.get("scenario"), dict) and data["scenario"].get("game") == "goa":
        return key, path, {"goa": data}, faults      # The Guns of August reads its own files
    chk = Checker(shown, text, faults)
    parts = {"scenario": (data, chk)}
    sc = data.get("scenario", {})
    for part in ("map", "counters", "tables"):
        rel = sc.get(part) if isinstance(sc, dict) else None
        if not isinstance(rel, str):
            continue
        ppath, pdata, ptext = read_named(path, chk, f"scenario.{part}", rel, roots)
        parts[part] = (pdata, Checker(str(ppath), ptext, faults))
    return key, path, parts, faults


def _load(name_or_path, options: dict[str, Any] | None, impl: str | None,
          allow_outside_paths: bool = False):
    """Read a scenario file and the files it names; return (scenario or None, faults)."""
    key, path, parts, faults = read_parts(name_or_path, allow_outside_paths)
    if parts is None:
        return None, faults
    if "goa" in parts:
        from gwe_fast.games.goa.scenario import load_goa

        try:
            return load_goa(key, path, parts["goa"], options), faults
        except ScenarioError as exc:
            return None, faults + exc.faults
    return _build(key, path, parts, options, impl, faults)


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def _extend(data: dict, path: Path, text: str, faults: list[Fault],
            roots: tuple[Path, ...] | None, depth: int = 0):
    """Apply ``scenario.extends``: the named scenario file, with this file's tables on top.
    Returns ``(data, text, shown)`` of the file whose checks locate the scenario keys (this
    file), data None after a fault."""
    shown = str(path)
    sc = data.get("scenario")
    if not isinstance(sc, dict) or "extends" not in sc:
        return data, text, shown
    chk = Checker(shown, text, faults)
    rel = sc["extends"]
    if not isinstance(rel, str):
        chk.fault("scenario.extends", f"must be the path of a scenario file, not "
                                      f"{limits.describe(rel)}")
        return None, text, shown
    if depth >= 4:
        chk.fault("scenario.extends", "scenarios extend each other in a loop or too deeply "
                                      "(more than 4)")
        return None, text, shown
    base_path, base, base_text = read_named(path, chk, "scenario.extends", rel, roots)
    if base is None:
        return None, text, shown
    base, _, _ = _extend(base, base_path, base_text, faults, roots, depth + 1)
    if base is None:
        return None, text, shown
    merged = _merge(base, data)
    if not isinstance(merged.get("scenario"), dict):
        chk.fault("scenario", "must be a table")
        return None, text, shown
    merged["scenario"] = {k: v for k, v in merged["scenario"].items() if k != "extends"}
    return merged, text, shown


def scenario_from_dicts(scenario: dict, map: dict, counters: dict, tables: dict | None = None,
                        options: dict[str, Any] | None = None, impl: str | None = None,
                        ) -> Scenario:
    """Build a scenario from in-memory tables, checked exactly like files.

    This is how tests build a tiny position by hand: a few hexes, a few units. ``scenario``
    is the content of a scenario file (its ``[scenario]`` table need not name files);
    ``tables`` defaults to the bundled tables of the game.
    """
    faults: list[Fault] = []
    sc = dict(scenario.get("scenario", {}))
    for part in ("map", "counters", "tables"):
        sc.setdefault(part, f"<{part}>")
    scenario = {**scenario, "scenario": sc}
    game = sc.get("game")
    if tables is None and game in GAMES:
        folder = {"gwe": "brusilov", "kb": "kaisers_battle"}[game]
        tables, _, f = read_toml(DATA_DIR / folder / "tables.toml", f"{folder}/tables.toml")
        faults += f
    parts = {"scenario": (scenario, Checker("<scenario>", "", faults)),
             "map": (map, Checker("<map>", "", faults)),
             "counters": (counters, Checker("<counters>", "", faults)),
             "tables": (tables, Checker("<tables>", "", faults))}
    result, faults = _build("<in memory>", None, parts, options, impl, faults)
    if faults:
        raise ScenarioError(faults)
    return result


def _build(key: str, path: Path | None, parts: dict, options, impl, faults: list[Fault]):
    data, chk = parts["scenario"]
    shown = chk.shown
    chk.keys(data, "", {"scenario", "options", "placement", "history"}, required=("scenario",))
    sc = chk.table(data.get("scenario", {}), "scenario")
    chk.keys(sc, "scenario", SCENARIO_KEYS, required=SCENARIO_REQUIRED)
    game = sc.get("game")
    if "game" in sc and game not in GAMES:
        chk.fault("scenario.game", f"game {game!r} is not one of {', '.join(GAMES)}", game)
        return None, faults
    if game is None:
        return None, faults
    version = chk.int_(sc.get("version", 1), "scenario.version", limits.VERSION)
    first = chk.int_(sc.get("first_turn", 1), "scenario.first_turn", TURN)
    last = chk.int_(sc.get("last_turn", 1), "scenario.last_turn", TURN)
    if first is not None and last is not None and last < first:
        chk.fault("scenario.last_turn", f"last turn {last} comes before first turn {first}")
    first_player = chk.choice(sc.get("first_player", "allied"), "scenario.first_player",
                              SIDE_NAMES)
    initial_vp = chk.int_(sc.get("initial_vp", 0), "scenario.initial_vp", VP_TOTAL)
    name = chk.str_(sc.get("name", "?"), "scenario.name")
    for k in ("case", "description"):
        if k in sc:
            chk.str_(sc[k], f"scenario.{k}", empty=True)
    for k in ("map", "counters", "tables"):
        if k in sc and not isinstance(sc[k], str):
            chk.fault(f"scenario.{k}", f"must be the path of the {k} file, not "
                                       f"{limits.describe(sc[k])}")

    # options declared by the scenario
    specs: dict[str, OptionSpec] = {}
    opts = chk.table(data.get("options", {}), "options")
    for oname, o in opts.items():
        okey = f"options.{oname}"
        o = chk.table(o, okey)
        chk.keys(o, okey, OPTION_KEYS, required=("default", "help"))
        default = o.get("default")
        if "default" in o and not isinstance(default, (bool, int, float, str)):
            chk.fault(f"{okey}.default", f"must be a boolean, number or string, not "
                                         f"{limits.describe(default)}")
            continue
        if isinstance(default, int) and not isinstance(default, bool) and \
                chk.int_(default, f"{okey}.default", limits.OPTION_INT) is None:
            continue
        if isinstance(default, float) and \
                chk.number(default, f"{okey}.default", limits.OPTION_FLOAT) is None:
            continue
        for k in ("help", "case"):
            if k in o:
                chk.str_(o[k], f"{okey}.{k}", empty=True)
        vp = chk.int_(o.get("vp", 0), f"{okey}.vp", VP)
        excl = o.get("excludes", [])
        if not isinstance(excl, list) or not all(isinstance(x, str) for x in excl):
            chk.fault(f"{okey}.excludes", "must be a list of option names")
            excl = []
        vp_with = o.get("vp_with", {})
        if not isinstance(vp_with, dict):
            chk.fault(f"{okey}.vp_with", "must be a table of option name = extra VP")
            vp_with = {}
        for other, v in list(vp_with.items()):
            if chk.int_(v, f"{okey}.vp_with.{other}", VP) is None:
                vp_with = {}
                break
        specs[oname] = OptionSpec(oname, o.get("default"), str(o.get("help", "")),
                                  str(o.get("case", "")), vp or 0, tuple(excl),
                                  tuple(sorted(vp_with.items())))
    for s in specs.values():
        for x in s.excludes + tuple(k for k, _ in s.vp_with):
            if x not in specs:
                chk.fault(f"options.{s.name}", f"names unknown option {x!r}", x)

    # [history] does not affect play: it stays out of the data hash (scenario/history.py)
    raws = {"scenario": {k: v for k, v in data.items() if k != "history"}}
    for part in ("map", "counters", "tables"):
        if part in parts:
            raws[part] = parts[part][0]
    hexmap, extras = None, {"places": (), "entry": {}, "edges": {}, "track": (TURN.lo, TURN.hi)}
    if parts.get("map", (None,))[0] is not None:
        mdata, mchk = parts["map"]
        hexmap, extras = check_map(game, mdata, mchk)
        if hexmap is not None and impl not in (None, "cython"):
            hexmap = _rebuild_map(hexmap, impl)
    track = extras["track"]
    units = None
    if parts.get("counters", (None,))[0] is not None:
        cdata, cchk = parts["counters"]
        units = check_units(game, cdata, cchk, hexmap,
                            set(extras["entry"]) if hexmap is not None else None, set(specs),
                            track)
    tables = {}
    if parts.get("tables", (None,))[0] is not None:
        tdata, tchk = parts["tables"]
        tfaults = check_tables(game, tdata)
        for tkey, msg in tfaults:
            tchk.fault(tkey, msg.rstrip("."))
        tables = tdata
        if not tfaults and last is not None:
            # 26.2, 20.0 …: a scenario may not outlast the turn-indexed schedules of its tables
            short = [(tkey, end) for tkey, end in turn_schedule_ends(game, tdata)
                     if end is not None and last > end]
            if short:
                names = ", ".join(f"{tkey} (to Game-Turn {end})" for tkey, end in short)
                chk.fault("scenario.last_turn", f"Game-Turn {last} has no data in the "
                                                f"schedule{'s' if len(short) > 1 else ''} "
                                                f"{names} of {Path(tchk.shown).name}")
    # the scenario's turns must be on the game's Turn Record Track (map.toml [map] turns)
    if first is not None and first < track[0]:
        chk.fault("scenario.first_turn", f"Game-Turn {first} is not on the Turn Record Track "
                                         f"of the map (Game-Turns {track[0]}-{track[1]})")
    if last is not None and last > track[1]:
        chk.fault("scenario.last_turn", f"Game-Turn {last} is not on the Turn Record Track of "
                                        f"the map, which ends with Game-Turn {track[1]}")

    history = check_history(data.get("history"), chk, extras["places"], first, last)

    # scenario placement overrides
    placement = chk.table(data.get("placement", {}), "placement")
    if units is not None:
        setup, turn, entry = (units.setup_cell.copy(), units.arrival_turn.copy(),
                              units.entry.copy())
        removed = np.zeros(units.n, dtype=bool)
        for uid, pl in placement.items():
            pkey = f"placement.{uid}"
            pl = chk.table(pl, pkey)
            chk.keys(pl, pkey, PLACEMENT_KEYS)
            try:
                i = units.index(uid)
            except KeyError:
                chk.fault(pkey, f"no unit {uid!r} in the counters file", uid)
                continue
            if "setup" in pl:
                c = chk.hex_(pl["setup"], f"{pkey}.setup", hexmap, what=f"unit {uid!r}: set-up hex")
                setup[i], turn[i], entry[i] = (-1 if c is None else c), -1, -1
            if "turn" in pl:
                t = chk.int_(pl["turn"], f"{pkey}.turn", TURN)
                if t is not None and not track[0] <= t <= track[1]:
                    chk.fault(f"{pkey}.turn", f"Game-Turn {t} is not on the Turn Record Track "
                                              f"of the map (Game-Turns {track[0]}-{track[1]})")
                    t = None
                setup[i], turn[i] = -1, (-1 if t is None else t)
            if "entry" in pl:
                e = pl["entry"]
                if not isinstance(e, str) or e not in extras["entry"]:
                    chk.fault(f"{pkey}.entry", f"entry {e!r} is not an entry letter of the map", e)
                else:
                    entry[i] = ENTRY_LETTERS.index(e)
            if "removed" in pl and chk.bool_(pl["removed"], f"{pkey}.removed"):
                removed[i] = True
        if placement:
            units = _replace_units(units, setup, turn, entry, removed)

    # option values: a fault in a value the caller gave is the caller's (GIVEN), not the file's
    values = {k: s.default for k, s in specs.items()}
    given = dict(options or {})
    for oname, raw in given.items():
        if oname not in specs:
            known = ", ".join(specs) or "none"
            faults.append(Fault(GIVEN, f"{oname}={raw}",
                                f"unknown option {oname!r} for this scenario (options: {known})"))
            continue
        try:
            values[oname] = _coerce_option(specs[oname], raw)
        except ValueError as exc:
            faults.append(Fault(GIVEN, f"{oname}={raw}", str(exc)))
    for oname, s in specs.items():
        if values.get(oname) and not isinstance(values[oname], str):
            for x in s.excludes:
                if values.get(x):
                    mine = [o for o in (oname, x) if o in given]
                    where = ((GIVEN, f"{mine[0]}={given[mine[0]]}") if mine
                             else (shown, f"options.{oname}"))
                    faults.append(Fault(*where, f"option {oname!r} cannot be used with {x!r} "
                                                f"(case {s.case or '?'})"))
    vp_total = initial_vp  # each option switched on adjusts the initial VP (26.3)
    for k, s in specs.items():
        if values.get(k) is True and vp_total is not None:
            vp_total += s.vp + sum(v for other, v in s.vp_with if values.get(other) is True)
    if vp_total is not None and VP_TOTAL.fault(vp_total) is not None:
        on = [k for k in specs if values.get(k) is True]
        chk.fault("scenario.initial_vp", f"with the options {', '.join(on)} on, the initial VP "
                                         f"total {VP_TOTAL.fault(vp_total)}")
    if faults:
        return None, faults
    scenario = Scenario(
        game=game, key=key, name=name, version=version, path=path, map=hexmap, units=units,
        tables=MappingProxyType(tables), places=extras["places"],
        entry=MappingProxyType(extras["entry"]), edges=MappingProxyType(extras["edges"]),
        first_turn=first, last_turn=last, first_player=int(first_player),
        initial_vp=vp_total, option_specs=MappingProxyType(specs),
        options=MappingProxyType(values), data_hash=_hash(raws), options_hash=_hash(values),
        raw=MappingProxyType(raws), history=history)
    compile_data = _CORE_TABLES.get(game)
    if compile_data is not None:
        object.__setattr__(scenario, "core", importlib.import_module(compile_data).compile_data(
            scenario))
    return scenario, []


#: the module whose ``compile_data(scenario)`` builds each game's one record of tables
_CORE_TABLES = {"gwe": "gwe_fast.games.gwe.data", "kb": "gwe_fast.games.kb.data"}


def _rebuild_map(m: HexMap, impl: str) -> HexMap:
    absent = [c * 100 + r for c in range(m.col0, m.col1 + 1) for r in range(m.row0, m.row1 + 1)
              if not m.contains(c * 100 + r)]
    out = HexMap((m.col0, m.col1), (m.row0, m.row1), absent, impl=impl)
    out.terrain[:], out.features[:], out.hexsides[:] = m.terrain, m.features, m.hexsides
    return out


def _replace_units(units: UnitTable, setup, turn, entry, removed) -> UnitTable:
    keep = np.flatnonzero(~removed)
    sel = lambda a: a[keep]  # noqa: E731
    pick = lambda t: tuple(t[i] for i in keep)  # noqa: E731
    return UnitTable(
        ids=pick(units.ids), names=pick(units.names), side=sel(units.side),
        nationality=sel(units.nationality), utype=sel(units.utype), size=sel(units.size),
        stacking=sel(units.stacking), n_steps=sel(units.n_steps), values=sel(units.values),
        setup_cell=sel(setup), arrival_turn=sel(turn), entry=sel(entry),
        option=pick(units.option), pool=pick(units.pool),
        extra=MappingProxyType({k: sel(v) for k, v in units.extra.items()}),
        text=MappingProxyType({k: pick(v) for k, v in units.text.items()}))


def load_scenario(name_or_path: str | Path, options: dict[str, Any] | None = None,
                  impl: str | None = None, *, allow_outside_paths: bool = False) -> Scenario:
    """Load a bundled scenario (``"brusilov/historical"``) or a scenario file by path.

    ``options`` maps option names to values (strings are converted to the option's type).
    The files a scenario names (``map``, ``counters``, ``tables``, ``extends``) must lie in
    its own folder (or below) or in the bundled data, unless ``allow_outside_paths``; only
    regular files of at most 4 MiB are read. Raises ``ScenarioError`` listing every fault
    found.
    """
    scenario, faults = _load(name_or_path, options, impl, allow_outside_paths)
    if faults:
        raise ScenarioError(faults)
    return scenario


def validate(name_or_path: str | Path, options: dict[str, Any] | None = None, *,
             allow_outside_paths: bool = False) -> list[Fault]:
    """Every fault of a scenario and the files it names; an empty list means it loads.
    (``allow_outside_paths`` as in ``load_scenario``.)"""
    return _load(name_or_path, options, None, allow_outside_paths)[1]
