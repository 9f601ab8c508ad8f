"""Sweeps: one scenario, a grid of variations, every cell played on the same games.

A sweep names a scenario, the settings shared by every cell (``base``) and the cells: the
cartesian product of a ``grid`` of axes and/or an explicit list of cells. A cell sets
scenario options (``gwe_fast.load_scenario(ref, options)``), the policy of each side, and
any scenario value by its path (``tables.victory_levels.band[2].max = 30``); an overridden
scenario is checked by the scenario loader like a file, so a bad override is a located fault.

Common random numbers: every cell is played with the same master seed and the same game
indices, so game ``i`` of one cell differs from game ``i`` of another only by the variation.
Each cell is written to its own Parquet file, and ``sweep.json`` names the cells and files.
See docs/sweeps.md for the file format.

Examples
--------
>>> sw = sweep_from_args("brusilov/historical", vary=["option.sga_early=false,true"])
>>> [c.name for c in sw.cells], sw.baseline
(['sga_early=false', 'sga_early=true'], 'sga_early=false')
>>> split_values("policy.central", "random,greedy:depth=2,width=3")
['random', 'greedy:depth=2,width=3']
>>> parse_path("tables.victory_levels.band[2].max")
['tables', 'victory_levels', 'band', 2, 'max']
"""

from __future__ import annotations

import copy
import itertools
import json
import math
import os
import re
import stat
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from gwe_fast import __version__
from gwe_fast.analysis.stats import mean_ci, wilson
from gwe_fast.scenario.errors import GIVEN, Fault, ScenarioError
from gwe_fast.scenario.model import Scenario
from gwe_fast.scenario.tomlfile import read_toml

SIDES = ("allied", "central")
PARTS = ("map", "counters", "tables")       # files a scenario names; other paths: the scenario
METRICS = {
    "allied_win": "Allied win rate (a draw counts as half a win), 95 % Wilson interval",
    "vp": "mean VP, 95 % t interval",
}
MANIFEST = "sweep.json"
FORMAT_VERSION = 1
DEFAULT_GAMES = 100
DEFAULT_MAX_GAMES = 10_000
MAX_GROWTH = 4          # an --until-ci round at most quadruples a cell's games

SWEEP_KEYS = {"name", "description", "scenario", "games", "seed", "baseline", "until_ci",
              "metric", "max_games", "batch", "per_turn"}
SETTING_KEYS = {"options", "policies", "set"}
TOP_KEYS = {"sweep", "base", "grid", "cell"}


class SweepError(Exception):
    """A sweep that cannot run; ``faults`` lists every located problem."""

    def __init__(self, faults: list[Fault]):
        self.faults = list(dict.fromkeys(faults))          # the same fault once, in order
        super().__init__("\n".join(str(f) for f in self.faults))


# --- where a setting came from, for located messages ------------------------------------------

@dataclass(frozen=True)
class Source:
    """A place in a sweep file (or on the command line) that a setting came from."""

    file: str
    key: str
    line: int | None = None

    def fault(self, message: str) -> Fault:
        return Fault(self.file, self.key, message, self.line)


@dataclass(frozen=True)
class Setting:
    value: Any
    source: Source


@dataclass
class Cell:
    """One variation: option values, a policy spec per side and scenario overrides by path."""

    name: str
    options: dict[str, Setting] = field(default_factory=dict)
    policies: dict[str, Setting] = field(default_factory=dict)
    overrides: dict[str, Setting] = field(default_factory=dict)

    def policy_specs(self) -> dict[str, str]:
        """The policy spec of each side the cell names (``run_batch`` fills in the others)."""
        return {s: str(self.policies[s].value) for s in SIDES if s in self.policies}

    def describe(self, scenario: Scenario | None = None) -> dict:
        """The cell's settings as plain values (for the manifest); option values as the
        scenario converted them when it is given."""
        opts = {k: s.value for k, s in self.options.items()}
        if scenario is not None:
            opts = {k: scenario.options.get(k, v) for k, v in opts.items()}
        from gwe_fast.runner.batch import resolve_policies

        return {"options": opts,
                "policies": resolve_policies(self.policy_specs(),
                                             scenario.game if scenario else "gwe"),
                "set": {k: s.value for k, s in self.overrides.items()}}


@dataclass
class Sweep:
    """A validated sweep definition (see ``read_sweep`` and ``sweep_from_args``)."""

    name: str
    scenario: str
    cells: list[Cell]
    baseline: str
    games: int = DEFAULT_GAMES
    seed: int = 0
    until_ci: float | None = None
    metric: str = "allied_win"
    max_games: int = DEFAULT_MAX_GAMES
    batch: int | None = None
    per_turn: bool = False
    description: str = ""
    source: Source = Source("command line", "")
    scenario_source: Source = Source("command line", "--scenario")
    #: read scenario files outside the scenario's folder and the bundled data (the command
    #: line's --allow-outside-paths; never from a sweep file)
    allow_outside_paths: bool = False


# --- paths into scenario data ------------------------------------------------------------------

_SEGMENT = re.compile(r"([^.\[\]]+)|\[([^\]]*)\]|(\.)")


def parse_path(path: str) -> list[str | int]:
    """Split ``a.b[2].c`` into ``["a", "b", 2, "c"]``; ``[name]`` (not a number) selects the
    element of an array of tables whose ``id`` is ``name``, kept as ``"[name]"``."""
    out: list[str | int] = []
    pos, expect_name = 0, True
    text = path.strip()
    if not text:
        raise ValueError("the path is empty")
    while pos < len(text):
        m = _SEGMENT.match(text, pos)
        if m is None or m.end() == pos:
            raise ValueError(f"path {path!r} is malformed at character {pos + 1}")
        name, index, dot = m.groups()
        if name is not None:
            if not expect_name:
                raise ValueError(f"path {path!r} is malformed at character {pos + 1}")
            out.append(name.strip())
            expect_name = False
        elif index is not None:
            if expect_name or not index.strip():
                raise ValueError(f"path {path!r} has a misplaced or empty [...]")
            index = index.strip()
            out.append(int(index) if index.isdigit() else f"[{index}]")
        else:
            if expect_name:
                raise ValueError(f"path {path!r} has an empty name between dots")
            expect_name = True
        pos = m.end()
    if expect_name:
        raise ValueError(f"path {path!r} ends with a dot")
    return out


def _show(parts: list) -> str:
    """``["grid", "option.x", 2]`` -> ``grid."option.x"[2]``."""
    s = ""
    for p in parts:
        if isinstance(p, int):
            s += f"[{p}]"
        elif p.startswith("["):
            s += p
        else:
            name = p if re.fullmatch(r"[A-Za-z0-9_-]+", p) else json.dumps(p)
            s += f".{name}" if s else name
    return s


def set_path(data: dict, parts: list[str | int], value: Any, root: str = "the data") -> None:
    """Set ``value`` at ``parts`` in nested TOML data; every step but a new last key must exist.
    Raises ValueError with a sentence naming the step that does not exist."""
    node: Any = data
    for k, part in enumerate(parts):
        last = k == len(parts) - 1
        here = _show(parts[:k]) or root
        if isinstance(part, int):
            if not isinstance(node, list):
                raise ValueError(f"{here} is not a list, so [{part}] does not apply")
            if part >= len(node):
                raise ValueError(f"{here} has {len(node)} entries, so [{part}] is out of range "
                                 f"(entries count from 0)")
            if last:
                node[part] = value
            node = node[part]
        elif part.startswith("["):
            ident = part[1:-1]
            if not isinstance(node, list):
                raise ValueError(f"{here} is not a list, so {part} does not apply")
            hits = [i for i, x in enumerate(node) if isinstance(x, dict) and x.get("id") == ident]
            if len(hits) != 1:
                raise ValueError(f"{here} has {'no' if not hits else 'several'} entries with "
                                 f"id {ident!r}")
            if last:
                node[hits[0]] = value
            node = node[hits[0]]
        else:
            if not isinstance(node, dict):
                raise ValueError(f"{here} is not a table, so .{part} does not apply")
            if last:
                node[part] = value
            elif part not in node:
                raise ValueError(f"{here} has no key {part!r}")
            node = node[part]


def _part_of(parts: list) -> tuple[str, list]:
    """Which file an override path goes to: ``tables.x`` -> the tables file, key ``x``;
    anything else (``scenario.``, ``options.``, ``placement.``) is a key of the scenario file."""
    if parts and parts[0] in PARTS and len(parts) > 1:
        return parts[0], parts[1:]
    return "scenario", parts


# --- loading a cell's scenario ----------------------------------------------------------------

def _split_overrides(overrides: dict[str, Any] | None) -> tuple[dict, dict]:
    """Overrides of the scenario file (applied before the files it names are read, so that
    ``scenario.map = "other.toml"`` reads that file) and of the named files."""
    first, then = {}, {}
    for text, value in (overrides or {}).items():
        part, keys = _part_of(parse_path(text))
        if part == "scenario" and keys[:2] == ["scenario", "extends"]:
            raise ValueError("scenario.extends cannot be set by a sweep (set the values it "
                             "would change instead)")
        (first if part == "scenario" else then)[text] = value
    return first, then


def _raw_parts(ref: str, overrides: dict[str, Any] | None = None,
               allow_outside_paths: bool = False) -> tuple[str, Path, dict, list[Fault]]:
    """The scenario file (after ``extends``) and the files it names, as TOML data, with the
    overrides of the scenario file applied first: the files are those the overridden
    scenario names, confined to its folder and the bundled data like any scenario's
    (``allow_outside_paths``). Raises ``ScenarioError`` when a file cannot be read, and
    ValueError for an override path that does not exist."""
    from gwe_fast.scenario.loader import read_parts

    first, _ = _split_overrides(overrides)

    def edit(data: dict) -> None:
        for text, value in first.items():
            _, keys = _part_of(parse_path(text))
            set_path(data, keys, copy.deepcopy(value), root="the scenario file")

    key, path, parts, faults = read_parts(ref, allow_outside_paths, edit)
    if parts is None or faults:
        raise ScenarioError(faults)
    return key, path, parts, faults


def load_cell_scenario(ref: str, options: dict[str, Any],
                       overrides: dict[str, Any] | None = None,
                       allow_outside_paths: bool = False) -> Scenario:
    """``load_scenario(ref, options)`` with scenario values replaced by path first.

    The replaced data goes through the same checks as a file: a value of the wrong type, or
    one that breaks a table (victory bands that overlap…), raises ``ScenarioError``; so does
    a file path (``scenario.map`` …) outside the scenario's folder and the bundled data,
    unless ``allow_outside_paths``.

    >>> sc = load_cell_scenario("brusilov/historical", {},
    ...                         {"tables.victory_levels.band[2].max": 30,
    ...                          "tables.victory_levels.band[3].min": 31})
    >>> sc.tables["victory_levels"]["band"][2]["max"], sc.key
    (30, 'brusilov/historical')
    """
    from gwe_fast.scenario.loader import _build, load_scenario

    if not overrides:
        return load_scenario(ref, options, allow_outside_paths=allow_outside_paths)
    key, path, parts, _ = _raw_parts(ref, overrides, allow_outside_paths)
    parts = {k: (copy.deepcopy(d), chk) for k, (d, chk) in parts.items()}
    for text, value in _split_overrides(overrides)[1].items():
        part, keys = _part_of(parse_path(text))
        if part not in parts or parts[part][0] is None:
            raise ValueError(f"the scenario names no {part} file")
        set_path(parts[part][0], keys, copy.deepcopy(value))
    faults = []
    for _, chk in parts.values():
        chk.faults = faults
    scenario, faults = _build(key, path, parts, options, None, faults)
    if faults:
        raise ScenarioError(faults)
    return scenario


# --- reading a sweep file ---------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\[?\s*[A-Za-z0-9_\"-][^\]]*\]\]?\s*(#.*)?$")


def _qual(names: list[str]) -> str:
    """A regex for a dotted TOML key: each name bare or quoted; a name with dots may also be
    written as a dotted bare key (``option.sga_early``) or quoted whole."""
    def one(n: str) -> str:
        forms = ['"' + re.escape(n) + '"']
        if re.fullmatch(r"[A-Za-z0-9_.-]+", n):
            forms.append(r"\s*\.\s*".join(re.escape(x) for x in n.split(".")))
        return "(?:" + "|".join(forms) + ")"
    return r"\s*\.\s*".join(one(n) for n in names)


def _locate(text: str, parts: list[str | int]) -> int | None:
    """Best-effort 1-based line of a key path in a sweep file: table headers (``[a]``,
    ``[[a]]`` n-th, ``[a.b]``), then ``key =`` (bare or quoted), then keys of inline tables."""
    lines = text.splitlines()
    start, found, header = 0, None, []
    i = 0
    while i < len(parts):
        p = parts[i]
        if isinstance(p, int):
            i += 1
            continue
        nxt = parts[i + 1] if i + 1 < len(parts) else None
        names = header + [p]
        if isinstance(nxt, int):
            hdr = re.compile(r"^\s*\[\[\s*" + _qual(names) + r"\s*\]\]")
            hits = [j for j in range(start, len(lines)) if hdr.match(lines[j])]
            if nxt < len(hits):
                found, start, header = hits[nxt], hits[nxt] + 1, names
                i += 2
                continue
        hdr = re.compile(r"^\s*\[\s*" + _qual(names) + r"\s*\]")
        hits = [j for j in range(start, len(lines)) if hdr.match(lines[j])]
        if hits:
            found, start, header = hits[0], hits[0] + 1, names
            i += 1
            continue
        key = re.compile(r"(^\s*|[{,]\s*)" + _qual([p]) + r"\s*=")
        hit = None
        for j in range(start, len(lines)):
            if j > start and _HEADER.match(lines[j]):
                break                     # the next table: the key is not in this one
            if key.search(lines[j]):
                hit = j
                break
        if hit is None:
            break
        found = start = hit
        i += 1
    return None if found is None else found + 1


class _Reader:
    """Collects located faults while reading a sweep file."""

    def __init__(self, shown: str, text: str):
        self.shown, self.text = shown, text
        self.faults: list[Fault] = []

    def source(self, parts: list) -> Source:
        return Source(self.shown, _show(parts), _locate(self.text, parts))

    def fault(self, parts: list, message: str) -> None:
        self.faults.append(self.source(parts).fault(message))

    def table(self, value, parts) -> dict:
        if not isinstance(value, dict):
            self.fault(parts, f"must be a table, not {_kind(value)}")
            return {}
        return value

    def keys(self, value: dict, parts: list, allowed: set[str]) -> None:
        for k in value:
            if k not in allowed:
                self.fault(parts + [k], f"unknown key {k!r} (allowed: "
                                        f"{', '.join(sorted(allowed))})")

    def int_(self, value, parts, lo: int) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int):
            self.fault(parts, f"must be an integer, not {_kind(value)}")
            return None
        if value < lo:
            self.fault(parts, f"must be at least {lo}, not {value}")
            return None
        return value


def _kind(value) -> str:
    names = {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
             list: "a list", dict: "a table"}
    return names.get(type(value), type(value).__name__)


def _flatten(value: dict, prefix: str = "") -> dict[str, Any]:
    """``{"option": {"sga_early": [...]}}`` -> ``{"option.sga_early": [...]}``: TOML dotted
    keys and quoted paths say the same thing."""
    out = {}
    for k, v in value.items():
        name = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            out.update(_flatten(v, name))
        else:
            out[name] = v
    return out


def _settings(rd: _Reader, table: dict, where: list) -> tuple[dict, dict, dict]:
    """The options, policies and overrides of a ``[base]`` or ``[[cell]]`` table."""
    options, policies, overrides = {}, {}, {}
    opts = rd.table(table.get("options", {}), where + ["options"])
    for k, v in opts.items():
        options[k] = Setting(v, rd.source(where + ["options", k]))
    pols = rd.table(table.get("policies", {}), where + ["policies"])
    for k, v in pols.items():
        src = rd.source(where + ["policies", k])
        if not isinstance(v, str):
            rd.faults.append(src.fault(f"a policy is a spec string such as \"random\", not "
                                       f"{_kind(v)}"))
        else:
            policies[k] = Setting(v, src)
    sets = rd.table(table.get("set", {}), where + ["set"])
    for k, v in _flatten(sets).items():
        src = rd.source(where + ["set", k])
        try:
            parse_path(k)
        except ValueError as exc:
            rd.faults.append(src.fault(str(exc)))
            continue
        overrides[k] = Setting(v, src)
    return options, policies, overrides


def _axis(name: str) -> tuple[str, str]:
    """``option.X`` -> ("option", "X"); ``policy.SIDE`` -> ("policy", SIDE); else an override
    path -> ("set", path)."""
    head, _, rest = name.partition(".")
    if head in ("option", "policy") and rest:
        return head, rest
    return "set", name


def _label(kind: str, target: str) -> str:
    if kind != "set":
        return target
    parts = parse_path(target)
    part, keys = _part_of(parts)
    return _show(keys) if part != "scenario" else target


def _literal(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else json.dumps(value, default=str)


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), default=str)


def _grid_cells(axes: list[tuple[str, list, Source]], base: Cell, rd_fault) -> list[Cell]:
    """The cartesian product of the axes, each cell a copy of ``base`` with one value per axis."""
    checked = []
    for name, values, src in axes:
        kind, target = _axis(name)
        if kind == "set":
            try:
                parse_path(target)
            except ValueError as exc:
                rd_fault(src, str(exc))
                continue
        if kind == "policy" and not all(isinstance(v, str) for v in values):
            rd_fault(src, "policy values are spec strings such as \"random\"")
            continue
        shown = [_fmt(v) for v in values]
        if len(set(shown)) != len(shown):
            rd_fault(src, f"axis {name!r} lists a value twice")
            continue
        checked.append((kind, target, values, src))
    cells = []
    for combo in itertools.product(*[a[2] for a in checked]):
        cell = Cell("", dict(base.options), dict(base.policies), dict(base.overrides))
        words = []
        for (kind, target, values, src), value in zip(checked, combo):
            getattr(cell, {"option": "options", "policy": "policies", "set": "overrides"}[kind]
                    )[target] = Setting(value, src)
            if len(values) > 1:          # a one-value axis is a shared setting, not a name
                words.append(f"{_label(kind, target)}={_fmt(value)}")
        cell.name = " ".join(words) or "base"
        cells.append(cell)
    return cells


def read_sweep(path: str | Path) -> Sweep:
    """Read and check a sweep file; raise ``SweepError`` listing every located fault.

    This checks the file's own structure; ``prepare`` then loads each cell's scenario.
    """
    path = Path(path)
    shown = str(path)
    data, text, faults = read_toml(path, shown)
    if data is None:
        raise SweepError(faults)
    rd = _Reader(shown, text)
    rd.keys(data, [], TOP_KEYS)
    if "sweep" not in data:
        rd.fault([], "has no [sweep] table (it names the scenario: [sweep] scenario = \"…\")")
        raise SweepError(rd.faults)
    sw = rd.table(data["sweep"], ["sweep"])
    rd.keys(sw, ["sweep"], SWEEP_KEYS)
    where = ["sweep"]
    ref = sw.get("scenario")
    if not isinstance(ref, str) or not ref.strip():
        rd.fault(where + (["scenario"] if "scenario" in sw else []),
                 "must name the scenario (a bundled name such as \"brusilov/historical\" or "
                 "a scenario file relative to this file)")
        ref = ""
    else:
        from gwe_fast.scenario.loader import bundled_scenarios
        near = path.parent / ref          # a file is named relative to the sweep file
        if ref not in bundled_scenarios() and not Path(ref).is_absolute() and (
                near.exists() or near.suffix == ".toml"):
            ref = str(near.resolve())
    kw: dict[str, Any] = {}
    for k, lo in (("games", 1), ("seed", 0), ("max_games", 1), ("batch", 1)):
        if k in sw:
            v = rd.int_(sw[k], where + [k], lo)
            if v is not None:
                kw[k] = v
    if "until_ci" in sw:
        v = sw["until_ci"]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0:
            rd.fault(where + ["until_ci"], f"must be a positive number (the widest 95 % "
                                           f"interval accepted), not {v!r}")
        else:
            kw["until_ci"] = float(v)
    if "metric" in sw:
        if sw["metric"] not in METRICS:
            rd.fault(where + ["metric"], f"unknown metric {sw['metric']!r} (metrics: "
                                         f"{', '.join(METRICS)})")
        else:
            kw["metric"] = sw["metric"]
    for k in ("name", "description", "baseline"):
        if k in sw and not isinstance(sw[k], str):
            rd.fault(where + [k], f"must be a string, not {_kind(sw[k])}")
    if "per_turn" in sw:
        if not isinstance(sw["per_turn"], bool):
            rd.fault(where + ["per_turn"], f"must be true or false, not {_kind(sw['per_turn'])}")
        else:
            kw["per_turn"] = sw["per_turn"]

    base_t = rd.table(data.get("base", {}), ["base"])
    rd.keys(base_t, ["base"], SETTING_KEYS)
    base = Cell("base", *_settings(rd, base_t, ["base"]))

    axes = []
    grid = rd.table(data.get("grid", {}), ["grid"])
    for name, values in _flatten(grid).items():
        src = rd.source(["grid", name])
        if not isinstance(values, list) or not values:
            rd.faults.append(src.fault(f"axis {name!r} must be a non-empty list of values"))
            continue
        axes.append((name, values, src))
    cells = _grid_cells(axes, base, lambda s, m: rd.faults.append(s.fault(m))) if axes else []
    origins: list[list] = [["grid"]] * len(cells)

    explicit = data.get("cell", [])
    if not isinstance(explicit, list):
        rd.fault(["cell"], "must be an array of tables ([[cell]] … )")
        explicit = []
    for i, ct in enumerate(explicit):
        w = ["cell", i]
        ct = rd.table(ct, w)
        rd.keys(ct, w, SETTING_KEYS | {"name"})
        name = ct.get("name", f"cell-{i + 1}")
        if not isinstance(name, str) or not name.strip():
            rd.fault(w + ["name"], "must be a non-empty string")
            name = f"cell-{i + 1}"
        o, p, s = _settings(rd, ct, w)
        cells.append(Cell(name.strip(), {**base.options, **o}, {**base.policies, **p},
                          {**base.overrides, **s}))
        origins.append(w + ["name"])
    if not cells and not rd.faults:
        cells, origins = [base], [[]]
    seen: set[str] = set()
    for c, where_from in zip(cells, origins):
        if c.name in seen:
            rd.fault(where_from, f"two cells are named {c.name!r}; cell names must differ")
        seen.add(c.name)
    baseline = sw.get("baseline") if isinstance(sw.get("baseline"), str) else None
    if baseline is not None and cells and baseline not in seen:
        rd.fault(where + ["baseline"], f"names no cell (cells: "
                                       f"{', '.join(repr(c.name) for c in cells)})")
    if rd.faults:
        raise SweepError(rd.faults)
    return Sweep(name=sw.get("name") or path.stem, scenario=ref, cells=cells,
                 baseline=baseline or cells[0].name, description=sw.get("description", ""),
                 source=Source(shown, ""), scenario_source=rd.source(["sweep", "scenario"]),
                 **kw)


# --- the same sweep from the command line -----------------------------------------------------

def split_values(axis: str, text: str) -> list[str]:
    """The comma-separated values of a ``--vary AXIS=V1,V2`` axis. For a policy axis a piece
    ``key=value`` after a spec with parameters belongs to that spec
    (``random,greedy:depth=2,width=3`` is two policies)."""
    pieces = [p.strip() for p in text.split(",")]
    if _axis(axis)[0] != "policy":
        return pieces
    out: list[str] = []
    for p in pieces:
        if out and "=" in p and ":" not in p and ":" in out[-1] and "=" in out[-1]:
            out[-1] += "," + p
        else:
            out.append(p)
    return out


def _cli_value(text: str) -> Any:
    """A scenario value typed on the command line: a TOML value (``30``, ``true``,
    ``[1, 2]``, ``"x"``), or else the text itself."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def sweep_from_args(scenario: str, vary: list[str] | None = None,
                    options: dict[str, str] | None = None,
                    policies: dict[str, str] | None = None,
                    sets: dict[str, str] | None = None, **kw) -> Sweep:
    """A sweep given on the command line: ``--vary AXIS=V1,V2`` axes over the base settings
    (``--option``, ``--policy SIDE=SPEC``, ``--set PATH=VALUE``); the first cell (the first
    value of every axis) is the baseline unless ``baseline`` names another."""
    cli = "command line"
    faults: list[Fault] = []
    base = Cell("base")
    for k, v in (options or {}).items():
        base.options[k] = Setting(v, Source(cli, f"--option {k}"))
    for k, v in (policies or {}).items():
        base.policies[k] = Setting(v, Source(cli, f"--policy {k}"))
    for k, v in (sets or {}).items():
        src = Source(cli, f"--set {k}")
        try:
            parse_path(k)
        except ValueError as exc:
            faults.append(src.fault(str(exc)))
        base.overrides[k] = Setting(_cli_value(v), src)
    axes = []
    for item in vary or []:
        name, eq, values = item.partition("=")
        src = Source(cli, f"--vary {name.strip() or item}")
        if not eq or not name.strip() or not values.strip():
            faults.append(src.fault(f"--vary {item!r} must look like AXIS=VALUE,VALUE (for "
                                    f"example option.sga_early=true,false)"))
            continue
        name = name.strip()
        vals = split_values(name, values)
        if _axis(name)[0] == "set":
            vals = [_cli_value(v) for v in vals]
        axes.append((name, vals, src))
    cells = _grid_cells(axes, base, lambda s, m: faults.append(s.fault(m))) if axes else [base]
    baseline = kw.pop("baseline", None)
    if baseline is not None and cells and baseline not in {c.name for c in cells}:
        faults.append(Source(cli, "--baseline").fault(
            f"names no cell (cells: {', '.join(repr(c.name) for c in cells)})"))
    if faults:
        raise SweepError(faults)
    name = kw.pop("name", None) or Path(str(scenario)).stem
    return Sweep(name=name, scenario=scenario, cells=cells,
                 baseline=baseline or cells[0].name, **kw)


# --- checking every cell against its scenario -------------------------------------------------

def _relocate(fault: Fault, cell: Cell, base_faults: set) -> Fault:
    """A loader fault caused by a cell's setting, re-told at the place the setting came from."""
    key = fault.key
    if fault.file == GIVEN:                     # an option value of the cell
        name = key.split("=", 1)[0]
        if name not in cell.options:
            return fault
        # an unknown name is one fault whatever its values; a bad value names itself
        named = fault.message.startswith(("unknown option", "option "))
        return cell.options[name].source.fault(fault.message if named else str(fault))
    if key.startswith("options."):
        name = key.split(".", 1)[1]
        if name in cell.options:
            return cell.options[name].source.fault(fault.message)
    if fault in base_faults or not cell.overrides:
        return fault
    # a fault the scenario does not have without the overrides: name the override(s)
    best = None
    for path, s in cell.overrides.items():
        part, keys = _part_of(parse_path(path))
        shown = _show(keys)
        if fault.key.startswith(shown) or shown.startswith(fault.key.split("[")[0]):
            best = (path, s)
            break
    if best is None and len(cell.overrides) == 1:
        best = next(iter(cell.overrides.items()))
    where = f"{Path(fault.file).name} [{fault.key}]" if fault.key else Path(fault.file).name
    if best is None:
        return Fault(fault.file, fault.key, f"{fault.message} (after the overrides of cell "
                                            f"{cell.name!r})", fault.line)
    path, s = best
    return s.source.fault(f"setting {path} = {_literal(s.value)} makes the scenario invalid: "
                          f"{where}: {fault.message}")


def prepare(sweep: Sweep) -> list[tuple[Cell, Scenario]]:
    """Load every cell's scenario and make every cell's policies; raise ``SweepError`` with
    every located fault (an unknown option, a bad override, an unknown policy …)."""
    from gwe_fast.policies.registry import PolicyError, make_policy
    from gwe_fast.scenario.loader import load_scenario

    faults: list[Fault] = []
    game = None
    outside = sweep.allow_outside_paths
    try:
        game = load_scenario(sweep.scenario, allow_outside_paths=outside).game
        base_faults: set = set()
    except ScenarioError as exc:
        if all(f.key == "" and f.line is None for f in exc.faults):   # no such scenario
            raise SweepError([sweep.scenario_source.fault(
                f"scenario {f.file}: {f.message}") for f in exc.faults]) from None
        base_faults = set(exc.faults)
    out = []
    checked: set[str] = set()
    for cell in sweep.cells:
        cell.policies, bad = _canonical_sides(cell.policies, game)
        faults += bad
        for s in cell.policies.values():
            if s.value in checked:
                continue
            checked.add(s.value)
            try:
                make_policy(s.value, game)
            except PolicyError as exc:
                faults.append(s.source.fault(str(exc)))
        options = {k: s.value for k, s in cell.options.items()}
        overrides = {k: s.value for k, s in cell.overrides.items()}
        try:
            sc = load_cell_scenario(sweep.scenario, options, overrides, outside)
        except ScenarioError as exc:
            faults += [_relocate(f, cell, base_faults) for f in exc.faults]
            continue
        except ValueError as exc:      # an override path that does not exist
            bad = _bad_override(sweep.scenario, options, cell, outside)
            faults.append(bad if bad is not None else sweep.source.fault(str(exc)))
            continue
        out.append((cell, sc))
    if faults:
        raise SweepError(faults)
    return out


def _canonical_sides(policies: dict[str, Setting], game: str | None
                     ) -> tuple[dict[str, Setting], list[Fault]]:
    """Policies keyed ``allied``/``central``, whatever name of a side the user gave (the
    game's own, ``russian``, ``german`` …, as ``run_batch`` takes them); a later setting of a
    side (a grid axis, a cell) wins over an earlier one (the base)."""
    from gwe_fast.runner.batch import SIDE_ALIASES

    aliases = SIDE_ALIASES.get(game or "", {})
    out: dict[str, Setting] = {}
    faults = []
    for side, s in policies.items():
        key = side.strip().lower().replace(" ", "_")
        key = aliases.get(key, key)
        if key not in SIDES:
            faults.append(s.source.fault(f"unknown side {side!r} (sides: "
                                         f"{', '.join(list(SIDES) + sorted(aliases))})"))
            continue
        out.pop(key, None)
        out[key] = s
    return out, faults


def _bad_override(ref: str, options: dict, cell: Cell,
                  allow_outside_paths: bool = False) -> Fault | None:
    """The first override of a cell whose path does not exist in the scenario data."""
    for path, s in cell.overrides.items():
        try:
            _split_overrides({path: s.value})
        except ValueError as exc:
            return s.source.fault(f"cannot set {path}: {exc}")
    try:
        _, _, parts, _ = _raw_parts(ref, allow_outside_paths=allow_outside_paths)
    except ScenarioError:
        return None
    parts = {k: copy.deepcopy(d) for k, (d, _) in parts.items()}
    for path, s in cell.overrides.items():
        part, keys = _part_of(parse_path(path))
        try:
            if part not in parts or parts[part] is None:
                raise ValueError(f"the scenario names no {part} file")
            set_path(parts[part], keys, copy.deepcopy(s.value), root=f"the {part} file")
        except ValueError as exc:
            return s.source.fault(f"cannot set {path}: {exc}")
    return None


# --- writing a cell's scenario to files -------------------------------------------------------

def _toml_key(k: str) -> str:
    return k if re.fullmatch(r"[A-Za-z0-9_-]+", k) else json.dumps(k, ensure_ascii=False)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) \
            else repr(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v.items()) + "}"
    if hasattr(v, "isoformat"):
        return v.isoformat()
    raise TypeError(f"cannot write {type(v).__name__} as TOML")


def toml_dumps(data: dict) -> str:
    """TOML text of parsed TOML data: top-level tables as ``[name]`` sections, everything
    below them inline. ``tomllib.loads(toml_dumps(d)) == d``.

    >>> print(toml_dumps({"a": 1, "t": {"b": [1, 2], "c": {"d": "x y"}}}), end="")
    a = 1
    <BLANKLINE>
    [t]
    b = [1, 2]
    c = {d = "x y"}
    """
    lines = [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in data.items()
             if not isinstance(v, dict)]
    for k, v in data.items():
        if isinstance(v, dict):
            lines += ["", f"[{_toml_key(k)}]"]
            lines += [f"{_toml_key(kk)} = {_toml_value(vv)}" for kk, vv in v.items()]
    return "\n".join(lines).lstrip("\n") + "\n"


def write_cell_scenario(ref: str, overrides: dict[str, Any], folder: Path,
                        allow_outside_paths: bool = False) -> Path:
    """Write a scenario with overrides applied as files in ``folder`` (the scenario file, and
    the map, counters and tables files it names: copied, or rewritten when overridden), so
    that worker processes and later runs load it like any scenario file, and the folder
    keeps a record of the cell's inputs. Only the files the loader reads are copied (in the
    scenario's folder or the bundled data, unless ``allow_outside_paths``), and each copy
    keeps the permissions of its source. Returns the scenario file."""
    from gwe_fast.scenario.tomlfile import read_text

    key, path, parts, faults = _raw_parts(ref, overrides, allow_outside_paths)
    data = {k: copy.deepcopy(d) for k, (d, _) in parts.items()}
    sources = {k: Path(chk.shown) for k, (_, chk) in parts.items() if k != "scenario"}
    touched = set()
    for text, value in _split_overrides(overrides)[1].items():
        part, keys = _part_of(parse_path(text))
        set_path(data[part], keys, copy.deepcopy(value), root=f"the {part} file")
        touched.add(part)
    folder.mkdir(parents=True, exist_ok=True)
    scenario = data["scenario"]
    for part in PARTS:
        if part not in data or data[part] is None:
            continue
        name = f"{part}.toml"
        target = folder / name
        mode = _mode(sources[part])
        if part in touched:
            _write_checked(target, data[part], mode)
        else:
            _write_text(target, read_text(sources[part]), mode)
        scenario["scenario"][part] = name
    out = folder / f"{Path(path).stem}.toml"
    _write_checked(out, scenario, _mode(Path(path)))
    return out


def _mode(path: Path) -> int:
    """The permission bits of ``path`` (a copy keeps them: a private file stays private)."""
    return stat.S_IMODE(os.stat(path).st_mode)


def _write_text(path: Path, text: str, mode: int | None = None) -> None:
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    if mode is not None:
        os.chmod(tmp, mode)
    os.replace(tmp, path)


def _write_checked(path: Path, data: dict, mode: int | None = None) -> None:
    text = toml_dumps(data)
    if tomllib.loads(text) != data:          # never a silently different scenario
        raise RuntimeError(f"writing {path} does not reproduce its data")
    _write_text(path, text, mode)


# --- running ----------------------------------------------------------------------------------

def cell_files(sweep: Sweep) -> dict[str, str]:
    """The Parquet file name of every cell: its number and a slug of its name."""
    out = {}
    for i, c in enumerate(sweep.cells):
        slug = re.sub(r"[^A-Za-z0-9.=+-]+", "_", c.name).strip("_.")[:60] or "cell"
        out[c.name] = f"{i:02d}-{slug}.parquet"
    return out


def interval(table, metric: str) -> tuple[int, float, float, float]:
    """``(n, value, low, high)`` of a cell's result over its finished games (result not
    ``"error"``): the Allied win rate with its Wilson interval (a draw is half a win), or the
    mean VP with its t interval."""
    cols = table if isinstance(table, dict) else table.to_pydict()
    ok = [r != "error" for r in cols["result"]]
    if metric == "vp":
        vp = [v for v, k in zip(cols["vp"], ok) if k]
        if not vp:
            return 0, math.nan, -math.inf, math.inf
        m, lo, hi = mean_ci(vp)
        return len(vp), m, lo, hi
    winners = [w for w, k in zip(cols["winner"], ok) if k]
    n = len(winners)
    wins = sum(1.0 if w == "allied" else 0.5 if w == "draw" else 0.0 for w in winners)
    lo, hi = wilson(wins, n)
    return n, (wins / n if n else math.nan), lo, hi


def next_target(n: int, width: float, goal: float, batch: int, max_games: int) -> int:
    """How many games a cell should have next under --until-ci: the number that its width
    projects (width shrinks as 1/sqrt(n)), at least one batch more, at most MAX_GROWTH times
    as many, rounded up to a whole batch, never above ``max_games``."""
    want = n * (width / goal) ** 2 if math.isfinite(width) else n * MAX_GROWTH
    want = min(max(want, n + batch), n * MAX_GROWTH)
    want = math.ceil(want / batch) * batch
    return int(min(max_games, max(want, n + 1)))


@dataclass
class CellRun:
    cell: Cell
    scenario: Scenario
    file: Path
    per_turn: Path | None
    games: int = 0
    errors: int = 0
    seconds: float = 0.0
    value: float = math.nan
    low: float = math.nan
    high: float = math.nan
    stopped: str = ""


def _relative(path: str, folder: Path) -> str:
    try:
        return str(Path(path).relative_to(folder.resolve()))
    except ValueError:
        return path


def write_manifest(sweep: Sweep, runs: list[CellRun], out: Path) -> Path:
    """Write ``sweep.json`` (atomically): the sweep, its cells, their files and games."""
    cells = []
    for r in runs:
        entry = {"name": r.cell.name, "file": r.file.name,
                 "scenario": _relative(r.scenario.key, out) if r.cell.overrides
                 else sweep.scenario,
                 "per_turn": r.per_turn.name if r.per_turn else None,
                 **r.cell.describe(r.scenario), "data_hash": r.scenario.data_hash,
                 "games": r.games, "errors": r.errors, "seconds": round(r.seconds, 3),
                 "status": "done" if r.stopped else "pending"}
        if r.stopped and sweep.until_ci is not None:
            entry["until_ci"] = {"metric": sweep.metric, "value": r.value, "low": r.low,
                                 "high": r.high, "width": r.high - r.low, "stopped": r.stopped}
        cells.append(entry)
    manifest = {
        "format": "gwe_fast sweep", "format_version": FORMAT_VERSION,
        "package_version": __version__, "name": sweep.name, "description": sweep.description,
        "sweep_file": sweep.source.file if sweep.source.file != "command line" else None,
        "scenario": sweep.scenario, "master_seed": sweep.seed, "games": sweep.games,
        "baseline": sweep.baseline,
        "until_ci": None if sweep.until_ci is None else {
            "width": sweep.until_ci, "metric": sweep.metric, "metric_text": METRICS[sweep.metric],
            "max_games": sweep.max_games, "batch": sweep.batch or sweep.games},
        "cells": cells,
    }
    path = out / MANIFEST
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, default=str) + "\n")
    os.replace(tmp, path)
    return path


class CellIncomplete(RuntimeError):
    """Some games of a cell could not be played (a worker process died playing them)."""


def default_folder(sweep: Sweep) -> Path:
    """Where ``gwe sweep`` writes without ``--out``: ``results/sweeps/<name>`` (git-ignored)."""
    return Path("results") / "sweeps" / sweep.name.replace("/", "-")


def run_sweep(sweep: Sweep, out: Path, workers: int = 1,
              log: Callable[[str], None] | None = None,
              progress: Callable[[int, int, float], None] | None = None,
              prepared: list[tuple[Cell, Scenario]] | None = None) -> list[CellRun]:
    """Play every cell of a sweep into ``out`` (one Parquet file per cell, ``sweep.json``).

    Every cell uses the sweep's master seed and game indices 0, 1, … (common random numbers).
    A cell file already in ``out`` (complete, or partial after an interruption) is resumed
    and extended, never replayed; one of another cell or seed is refused (``SweepError``).
    With ``sweep.until_ci`` a cell grows in rounds until the 95 % interval of its result
    (``interval``) is narrower than ``until_ci`` or it has ``max_games`` games.

    A cell with overrides is written as scenario files under ``out/scenarios/`` and played
    from them, so worker processes load exactly the scenario that was checked. ``prepared``
    is what ``prepare(sweep)`` returned, if the caller has it already.
    """
    from gwe_fast.runner.batch import ResumeError, run_batch
    from gwe_fast.scenario.loader import load_scenario

    log = log or (lambda msg: None)
    cells = prepared if prepared is not None else prepare(sweep)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    names = cell_files(sweep)
    runs = []
    for cell, sc in cells:
        stem = names[cell.name][: -len(".parquet")]
        if cell.overrides:
            folder = (out / "scenarios" / stem).resolve()
            ref = write_cell_scenario(sweep.scenario, {k: s.value for k, s in
                                                       cell.overrides.items()}, folder,
                                      sweep.allow_outside_paths)
            sc = load_scenario(ref, {k: s.value for k, s in cell.options.items()})
        runs.append(CellRun(cell, sc, out / names[cell.name],
                            out / f"{stem}.turns.parquet" if sweep.per_turn else None))
    # a resumed sweep keeps the time its finished cells took in earlier runs
    earlier = _earlier_seconds(out / MANIFEST)
    for run in runs:
        run.seconds = earlier.get(run.cell.name, 0.0)
    write_manifest(sweep, runs, out)
    batch = sweep.batch or sweep.games
    for run in runs:
        cell = run.cell
        have = pq.read_metadata(run.file).num_rows if run.file.exists() else 0
        first = min(sweep.games, sweep.max_games) if sweep.until_ci is not None else sweep.games
        target = max(first, have)
        label = f"cell {cell.name!r}"
        while True:
            log(f"{label}: games 0-{target - 1}" + (f" ({have} already played)" if have else "")
                + f" -> {run.file}")
            try:
                summary = run_batch(run.scenario, target, sweep.seed, run.file,
                                    policies=cell.policy_specs(), workers=workers,
                                    per_turn=run.per_turn, resume=True, progress=progress)
            except ResumeError as exc:
                raise SweepError([Fault(str(run.file), "", f"{exc}; remove it or give "
                                                           f"another --out")]) from None
            except ValueError as exc:           # e.g. per-turn rows of a game without engine
                raise SweepError([sweep.source.fault(f"{label}: {exc}")]) from None
            run.seconds += summary.seconds
            if not summary.complete:
                raise CellIncomplete(
                    f"{label}: {len(summary.not_played)} games could not be played "
                    f"({'; '.join(summary.lost_because)}); the others are kept in "
                    f"{summary.rows_path}; run the sweep again to play them")
            cols = pq.read_table(run.file, columns=["result", "winner", "vp"]).to_pydict()
            have = run.games = len(cols["result"])
            run.errors = sum(r == "error" for r in cols["result"])
            n, run.value, run.low, run.high = interval(cols, sweep.metric)
            width = run.high - run.low
            if sweep.until_ci is None:
                run.stopped = "games"
                break
            if width < sweep.until_ci:
                run.stopped = "width"
                break
            if run.games >= sweep.max_games:
                run.stopped = "max_games"
                break
            target = next_target(run.games, width, sweep.until_ci, batch, sweep.max_games)
            log(f"{label}: {n} games, interval {_pct(run, sweep.metric)} is not narrower "
                f"than {sweep.until_ci:g}; going on to {target} games")
        write_manifest(sweep, runs, out)
    return runs


def _earlier_seconds(path: Path) -> dict[str, float]:
    """``{cell name: seconds}`` from the ``sweep.json`` of an earlier run of this sweep (the
    wall time each cell had taken when that run last wrote it); empty when there is none or
    it cannot be read (it is rewritten anyway)."""
    try:
        cells = json.loads(path.read_text())["cells"]
        return {str(c["name"]): float(c.get("seconds") or 0.0) for c in cells}
    except (OSError, ValueError, KeyError, TypeError):
        return {}


def _pct(run: CellRun, metric: str) -> str:
    if math.isnan(run.value):
        return "— (no finished game)"
    if metric == "vp":
        return f"{run.value:.2f} [{run.low:.2f}, {run.high:.2f}]"
    return f"{100 * run.value:.1f} % [{100 * run.low:.1f}, {100 * run.high:.1f}]"


def describe_run(run: CellRun, metric: str, until_ci: float | None) -> str:
    """One line per cell for the terminal: games, result and why it stopped."""
    if run.stopped == "width":
        why = f", interval narrower than {until_ci:g}"
    elif run.stopped == "max_games":
        why = f", stopped at the cap with the interval still {run.high - run.low:.3g} wide"
    else:
        why = ""
    err = f", {run.errors} errors" if run.errors else ""
    what = "mean VP" if metric == "vp" else "Allied win rate"
    return (f"{run.cell.name}: {run.games} games{err}, {what} {_pct(run, metric)}{why} -> "
            f"{run.file.name}")
