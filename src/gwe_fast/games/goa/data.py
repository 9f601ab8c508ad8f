"""Read and validate The Guns of August's scenario data (``src/gwe_fast/data/goa/*.toml``).

``read_goa`` reads the six data files (countries, cities, naval, colonies, land, morale) and
one scenario file, checks every field and cross-reference, and returns a frozen, plain-Python
:class:`GoaData`. Every problem becomes a located :class:`~gwe_fast.scenario.errors.Fault`
(file, key path, line); all of them are raised together in one
:class:`~gwe_fast.scenario.errors.ScenarioError`. docs/goa.md explains each slot.

Records are frozen dataclasses; keyed collections are read-only mappings in file order; lists
are tuples. Numbers are checked against the ranges of the dtypes the engine will use: int16
for counts and points, int8 for dice, factors and defense values.

>>> data = read_goa("goa/campaign")
>>> len(data.ports), len(data.colonies), len(data.areas)
(38, 42, 9)
>>> data.countries["germany"].personnel, data.countries["germany"].supply
(38, 32)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping

from gwe_fast.scenario.errors import Fault, ScenarioError
from gwe_fast.scenario.loader import Checker
from gwe_fast.scenario.tomlfile import find_line, read_toml

DATA_DIR = Path(__file__).resolve().parent.parent.parent / "data" / "goa"
DATA_FILES = ("countries", "cities", "naval", "colonies", "land", "morale", "rules")
SCENARIO_FILES = ("campaign", "1915", "1916", "1917", "1918")
SIDES = ("allied", "central", "neutral")
WAR_SIDES = ("allied", "central")
STARTS = ("1914", "1915", "1916", "1917", "1918")
FIRST_MONTH, LAST_MONTH, LAST_MONTH_1919 = "1914-08", "1918-12", "1919-12"
INT8 = (-128, 127)
INT16 = (-32768, 32767)
SOURCE_TAGS = ("seed", "decoded", "external:", "standin:")
TERRAINS = ("city", "fort", "rough", "swamp")
ENTRIES = ("at_war", "roll", "never")
ENTRY_GROUPS = ("", "west", "east")
AREA_KINDS = ("sovereign", "china", "turkish_colony", "turkish_opponent", "home")
AREA_ACTIVATION = ("attack", "turkish_entry", "occupation", "always")
DASH_MODES = ("cap", "zero")
BELOW_ONE = ("none", "row1")

_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
_MONTH = re.compile(r"^(19\d\d)-(0[1-9]|1[0-2])$")
_HEX = re.compile(r"^[A-Z]{1,2}[0-9]{1,2}$")


# --------------------------------------------------------------------------------------------
# Records


@dataclass(frozen=True)
class Country:
    """One country (countries.toml).

    ``key``, ``name``; ``side`` at the campaign start (``allied``/``central``/``neutral``);
    ``major`` (a great power, M._6); ``personnel``, ``supply`` (points a month, P._19) and
    ``points_source``; ``conscription`` (in effect before entry, P._18); ``entry``
    (``at_war``/``roll``/``never``); ``may_join`` (V._9); ``entry_group`` (V._8: ``west``,
    ``east`` or ``""``); ``off_map_ports`` (N.15); ``army`` (land strength points, stand-in)
    and ``army_source``; ``overseas`` (must be shipped to fight on the continent) and
    ``ship_to`` with ``ship_to_source``; ``home_area`` (an area key, Japan) and ``seed_name``
    (the points table's spelling, ``""`` if the same or absent).
    """

    key: str
    name: str
    side: str
    major: bool
    personnel: int
    supply: int
    points_source: str
    conscription: bool
    entry: str
    may_join: tuple[str, ...]
    entry_group: str
    off_map_ports: tuple[str, ...]
    army: int
    army_source: str
    overseas: bool
    ship_to: tuple[str, ...]
    ship_to_source: str
    home_area: str
    seed_name: str


@dataclass(frozen=True)
class City:
    """One city (cities.toml): ``country`` it belongs to, ``terrain`` (city, fort, rough,
    swamp), ``port`` (a port key or ``""``), ``off_map`` (N.15: never occupied), ``objective``
    (one of the twenty), ``source``."""

    key: str
    name: str
    country: str
    terrain: str
    port: str
    off_map: bool
    objective: bool
    source: str


@dataclass(frozen=True)
class Objectives:
    """The objective cities' table: ``count`` (20), the designer's swaps (``berlin`` replaces
    ``swap_berlin_for``, ``london`` replaces ``swap_london_for``) and ``source``."""

    count: int
    swap_berlin_for: str
    swap_london_for: str
    source: str


@dataclass(frozen=True)
class SeaArea:
    """A sea area (N.11); ``colonial`` for the five added by the colonial variant."""

    key: str
    name: str
    colonial: bool


@dataclass(frozen=True)
class Port:
    """A port of the Ports chart (N.12), its note turned into fields.

    ``country``, ``sea_areas``; ``off_map``; ``estuary``; ``colonial`` (colonial variant
    only); ``closed_if_enemy_in`` (a hex, ``""`` if none); ``overland`` (hex of an off-map
    port's overland connection); ``supply_source_limit`` (cities, land units it can supply
    when supplied only by sea; (0, 0) = no limit); ``sortie_reveal_into`` (the sea area whose
    sorties are revealed, ``""`` = any) and ``sortie_reveal_from`` (the ports whose sorties
    are revealed to this port's owner; empty = none); ``units_may_embark`` (Norfolk, San
    Diego); ``starts_allied_supply`` (Durazzo); ``invasion_rule`` (``"greek_entry"`` for
    Salonika); ``belligerent_at`` (starts at which the port's country is an Allied
    belligerent by the chart: Cetinje); ``note``; ``seed_name`` (the chart's spelling).
    """

    key: str
    name: str
    seed_name: str
    country: str
    sea_areas: tuple[str, ...]
    off_map: bool
    estuary: bool
    colonial: bool
    closed_if_enemy_in: str
    overland: str
    supply_source_limit: tuple[int, int]
    sortie_reveal_into: str
    sortie_reveal_from: tuple[str, ...]
    units_may_embark: bool
    starts_allied_supply: bool
    invasion_rule: str
    belligerent_at: tuple[str, ...]
    note: str


@dataclass(frozen=True)
class Beach:
    """A beach of the Beaches chart (N.13): ``hex``, ``country``, ``sea_areas``,
    ``no_central_occupation`` (Gallipoli), ``target_city`` (stand-in) and its ``source``,
    ``note``, ``seed_name``."""

    key: str
    name: str
    seed_name: str
    hex: str
    country: str
    sea_areas: tuple[str, ...]
    no_central_occupation: bool
    target_city: str
    source: str
    note: str


@dataclass(frozen=True)
class SquadronFactors:
    """Gunnery and protection of one country's squadrons, one value per kind in the order of
    :attr:`SquadronKinds.kinds`; ``source``."""

    country: str
    gunnery: tuple[int, ...]
    protection: tuple[int, ...]
    source: str


@dataclass(frozen=True)
class SquadronKinds:
    """The squadron kinds (``kinds`` keys, ``names``) and each navy's factors
    (``factors``: country key -> :class:`SquadronFactors`)."""

    kinds: tuple[str, ...]
    names: tuple[str, ...]
    factors: Mapping[str, SquadronFactors]


@dataclass(frozen=True)
class Squadron:
    """A row of squadrons: ``count`` squadrons of ``country`` and ``kind`` at ``base`` (a port,
    colony or area), present at the ``starts`` listed; ``colonial`` rows play only with the
    colonial variant; ``alt_base`` is V._4's alternative base (``""`` if none); ``source``."""

    country: str
    kind: str
    base: str
    count: int
    colonial: bool
    starts: tuple[str, ...]
    alt_base: str
    source: str


@dataclass(frozen=True)
class Arrival:
    """Squadrons arriving during the campaign (C.26): ``count`` of ``kind`` for ``country`` at
    ``base`` in ``month``; ``while_neutral``: only if the country is then neutral."""

    country: str
    kind: str
    base: str
    month: str
    count: int
    colonial: bool
    while_neutral: bool
    source: str


@dataclass(frozen=True)
class NavalCombatChart:
    """The Naval Combat Chart (N.41-N.46), decoded; every cell editable.

    ``columns``: the lowest combined gunnery of each column (stand-in headings) and
    ``columns_source``; ``far_left``: the far-left column by die 1..6 (N.45); ``damage``:
    ``damage[die - 1][column]``, -1 where the chart prints "-"; ``dash``: how "-" reads
    (``cap``: the last number above it in its column, 0 if none; ``zero``: no damage);
    ``dice_below_one`` (``none``: no damage; ``row1``: read row 1); ``source``.
    """

    columns: tuple[int, ...]
    columns_source: str
    far_left: tuple[int, ...]
    damage: tuple[tuple[int, ...], ...]
    dash: str
    dice_below_one: str
    source: str

    def resolved(self) -> tuple[tuple[int, ...], ...]:
        """The chart with every "-" read by ``dash``: rows die 1..6, column 0 the far-left
        column, then the gunnery columns.

        >>> read_goa("goa/campaign").naval_combat_chart.resolved()[5]
        (36, 7, 21, 35, 45, 61, 75)
        """
        cols = [list(self.far_left)] + [[row[c] for row in self.damage]
                                        for c in range(len(self.columns))]
        out = []
        for col in cols:
            last, filled = 0, []
            for v in col:
                if v >= 0:
                    last = v
                filled.append(v if v >= 0 else (last if self.dash == "cap" else 0))
            out.append(filled)
        return tuple(tuple(col[d] for col in out) for d in range(len(self.far_left)))

    def column_for(self, gunnery: int) -> int:
        """The column (0 = far-left, 1.. = gunnery columns) for a combined gunnery: the
        rightmost heading that does not exceed it (N.43); 0 when no squadron sortied."""
        col = 0
        for i, head in enumerate(self.columns, start=1):
            if gunnery >= head:
                col = i
        return col


@dataclass(frozen=True)
class Repair:
    """Squadron repair (N.5 stand-in): months to repair light and heavy damage, whether heavy
    repair needs a home port, ``source``; naval construction is left out
    (``construction_note``)."""

    months_light: int
    months_heavy: int
    heavy_needs_home_port: bool
    source: str
    construction_note: str


@dataclass(frozen=True)
class Colony:
    """A colony of the Colonies chart (C.12): owner ``country``, ``sea_areas``, ``neighbors``
    (symmetric, including ``ruled_neighbors`` added by ruling), ``defense``, ``seed_name``."""

    key: str
    name: str
    seed_name: str
    country: str
    sea_areas: tuple[str, ...]
    neighbors: tuple[str, ...]
    ruled_neighbors: tuple[str, ...]
    defense: int


@dataclass(frozen=True)
class Area:
    """An area of the Areas chart: ``sea_areas``, ``neighbors`` (with ``ruled_neighbors``),
    ``defense``, ``kind``, ``activated``, ``occupy_without_roll``, ``invasion_limit`` (units in
    one amphibious invasion), ``new_units_here`` (Japan), ``note``."""

    key: str
    name: str
    sea_areas: tuple[str, ...]
    neighbors: tuple[str, ...]
    ruled_neighbors: tuple[str, ...]
    defense: int
    kind: str
    activated: str
    occupy_without_roll: bool
    invasion_limit: int
    new_units_here: bool
    note: str


@dataclass(frozen=True)
class Deployment:
    """Land units of ``country`` at ``place`` (colony, area or off-map port) at ``start``
    (C.21-C.25): ``units`` as (attack, defense, movement, count) rows; ``alternatives``:
    other places allowed for them; ``units_source``."""

    start: str
    place: str
    country: str
    units: tuple[tuple[int, int, int, int], ...]
    alternatives: tuple[str, ...]
    units_source: str


@dataclass(frozen=True)
class Land:
    """Land-war constants: ``corps_strength`` (points of one corps) and the month
    entrenchment begins, each with its source."""

    corps_strength: int
    corps_strength_source: str
    entrenchment_from: str
    entrenchment_source: str


@dataclass(frozen=True)
class Crt:
    """The land combat results table: ``columns`` (odds), ``rows[die - die_min][column]``,
    ``die_min``/``die_max`` (clamp), ``below_first``/``above_last`` (die shifts for odds off
    the table), ``results`` (code -> meaning), ``modifiers`` (name -> value; ``cap`` bounds
    their total, ``artillery_points_per_plus_one``), ``source``."""

    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    die_min: int
    die_max: int
    below_first: int
    above_last: int
    results: Mapping[str, str]
    modifiers: Mapping[str, int]
    source: str


@dataclass(frozen=True)
class Front:
    """A front between countries ``a`` and ``b``: ``helpers_a``/``helpers_b`` (countries that
    may send strength there when on that side) and each side's cities from the border
    inward (``a_cities``, ``b_cities``); ``source``."""

    key: str
    name: str
    a: str
    b: str
    helpers_a: tuple[str, ...]
    helpers_b: tuple[str, ...]
    a_cities: tuple[str, ...]
    b_cities: tuple[str, ...]
    source: str


@dataclass(frozen=True)
class HistoryEvent:
    """A city changing hands in history (land = historical): ``month``, the side it goes
    ``to``, the country whose army took it (``by``), the ``front`` (``""`` if none),
    ``source`` and ``note``."""

    city: str
    month: str
    to: str
    by: str
    front: str
    source: str
    note: str


@dataclass(frozen=True)
class MoraleEffect:
    """What a morale result does (stand-in): ``strength_loss_pct`` of land strength,
    ``no_attack_months``, ``personnel_factor_pct`` (until the next roll), ``help``,
    ``source``."""

    result: str
    help: str
    strength_loss_pct: int
    no_attack_months: int
    personnel_factor_pct: int
    source: str


@dataclass(frozen=True)
class MoraleModifier:
    """A base-game morale modifier: ``value``, ``per`` (``city`` or ``""``), ``who``
    (``each``, ``central`` or country keys), ``while_`` (condition code), ``same_as`` (the
    seed rule restating it: apply once), ``help``, ``source``."""

    key: str
    value: int
    per: str
    who: tuple[str, ...]
    while_: str
    same_as: str
    help: str
    source: str


@dataclass(frozen=True)
class Morale:
    """The morale table: ``months`` of the rolls, ``die`` (low, high), ``results`` as
    (at_most, result) rows (first that holds; none above the last), ``effects`` (result ->
    :class:`MoraleEffect`), ``modifiers``, ``source``."""

    months: tuple[int, ...]
    die: tuple[int, int]
    results: tuple[tuple[int, str], ...]
    effects: Mapping[str, MoraleEffect]
    modifiers: tuple[MoraleModifier, ...]
    source: str

    def result(self, roll: int) -> str:
        """The result of a modified roll (``"none"`` above the last row).

        >>> m = read_goa("goa/campaign").morale
        >>> [m.result(r) for r in (-4, -3, -2, -1, 0, 1)]
        ['surrender', 'surrender', 'D2', 'D1', 'RR', 'none']
        """
        for at_most, name in self.results:
            if roll <= at_most:
                return name
        return "none"


@dataclass(frozen=True)
class Option:
    """A scenario option: ``default`` (bool or str), ``help``, ``case``, ``requires`` (options
    that must be on with it), ``excludes``, ``choices`` (for a text option)."""

    name: str
    default: bool | str
    help: str
    case: str
    requires: tuple[str, ...]
    excludes: tuple[str, ...]
    choices: tuple[str, ...]


@dataclass(frozen=True)
class StartCountry:
    """A country at the start of a scenario: ``side``, ``entered`` (month, ``""`` if not at
    war), ``conquered``, ``conscription_since`` (``"before"``, a month or ``""``),
    ``mobilization_since``, ``usw_since`` (months or ``""``), ``source``."""

    key: str
    side: str
    entered: str
    conquered: bool
    conscription_since: str
    mobilization_since: str
    usw_since: str
    source: str


@dataclass(frozen=True)
class ScenarioInfo:
    """The scenario file's own table: ``key`` (``goa/<stem>``), ``path``, ``name``,
    ``version``, ``start``/``last`` months, ``setup`` (the start key of deployments and
    squadrons), ``case``, ``description``, ``options`` (name -> :class:`Option`), and the
    state at the start: ``countries`` (key -> :class:`StartCountry`), ``cities`` and
    ``colonies`` held by a side other than their owner's (key -> side), ``sources``."""

    key: str
    path: Path | None
    name: str
    version: int
    start: str
    last: str
    setup: str
    case: str
    description: str
    options: Mapping[str, Option]
    countries: Mapping[str, StartCountry]
    cities: Mapping[str, str]
    colonies: Mapping[str, str]
    sources: Mapping[str, str]


@dataclass(frozen=True)
class Rules:
    """The procedures' numbers that are not charts (rules.toml): the land war by fronts
    (``main_share`` %, ``upkeep`` strength per supply point, ``coast_share`` %, ``losses``:
    result -> (attacker %, defender %)); production (``supply_cap_months``,
    ``repeal_disband`` %, ``us_reinforcements`` (months, strength a month), ``japan_pool`` as
    (attack, support, count) rows); the naval war (``usw_from``, ``colonial_months``,
    ``tenney`` = (hit divisor, heavy divisor)); ``morale_years`` (M._9 by year from 1914);
    ``base_entry`` as (country, month, side) and ``base_victory`` as (month, objective cities
    outside Germany and Austria-Hungary) without their variants."""

    main_share: int
    upkeep: int
    coast_share: int
    losses: Mapping[str, tuple[int, int]]
    supply_cap_months: int
    repeal_disband: int
    us_reinforcements: tuple[int, int]
    japan_pool: tuple[tuple[int, int, int], ...]
    usw_from: str
    colonial_months: tuple[int, ...]
    tenney: tuple[int, int]
    morale_years: tuple[int, ...]
    base_entry: tuple[tuple[str, str, str], ...]
    base_victory: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class GoaData:
    """Everything read from the GoA data files and one scenario file, validated.

    ``folder``: where the data files were read; ``countries``, ``cities``, ``sea_areas``,
    ``ports``, ``beaches``, ``colonies``, ``areas``: key -> record in file order;
    ``objectives``; ``squadron_kinds``; ``squadrons`` and ``arrivals`` (tuples of rows);
    ``naval_combat_chart``; ``repair``; ``deployments``; ``land``; ``crt``; ``fronts``
    (key -> :class:`Front`); ``history`` (in date order); ``morale``; ``scenario``.
    """

    folder: Path
    countries: Mapping[str, Country]
    cities: Mapping[str, City]
    objectives: Objectives
    sea_areas: Mapping[str, SeaArea]
    ports: Mapping[str, Port]
    beaches: Mapping[str, Beach]
    squadron_kinds: SquadronKinds
    squadrons: tuple[Squadron, ...]
    arrivals: tuple[Arrival, ...]
    naval_combat_chart: NavalCombatChart
    repair: Repair
    colonies: Mapping[str, Colony]
    areas: Mapping[str, Area]
    deployments: tuple[Deployment, ...]
    land: Land
    crt: Crt
    fronts: Mapping[str, Front]
    history: tuple[HistoryEvent, ...]
    morale: Morale
    scenario: ScenarioInfo
    rules: Rules

    def squadrons_at(self, start: str, colonies: bool) -> tuple[Squadron, ...]:
        """The squadron rows present at ``start`` (``"1914"``..``"1918"``), the colonial ones
        only when ``colonies`` is on."""
        return tuple(s for s in self.squadrons
                     if start in s.starts and (colonies or not s.colonial))

    def deployments_at(self, start: str) -> tuple[Deployment, ...]:
        """The colonial land deployments of ``start`` (C.21-C.25)."""
        return tuple(d for d in self.deployments if d.start == start)


# --------------------------------------------------------------------------------------------
# Field readers: each appends a located fault and returns a safe default on bad input.


def _find_line(text: str, key: str, value: object = None) -> int | None:
    """The line of ``key`` in ``text``: under the longest dotted table header it starts with
    (``[ports.kiel]`` for ``ports.kiel.sea_areas``), else as
    :func:`gwe_fast.scenario.tomlfile.find_line` finds it."""
    parts = key.split(".")
    lines = text.splitlines()
    for n in range(len(parts), 0, -1):
        if any("[" in p for p in parts[:n]):
            continue
        hdr = re.compile(r"^\s*\[\s*" + re.escape(".".join(parts[:n])) + r"\s*\]\s*(#.*)?$")
        hits = [i for i, ln in enumerate(lines) if hdr.match(ln)]
        if not hits:
            continue
        h = hits[0]
        rest = [p for p in parts[n:] if "[" not in p]
        if not rest:
            return h + 1
        end = next((j for j in range(h + 1, len(lines)) if lines[j].lstrip().startswith("[")),
                   len(lines))
        pat = re.compile(r"^\s*(\"?)" + re.escape(rest[0]) + r"\1\s*=")
        for j in range(h + 1, end):
            if pat.match(lines[j]):
                if value is not None:
                    needle = f'"{value}"'
                    for jj in range(j, end):
                        if needle in lines[jj]:
                            return jj + 1
                return j + 1
        return h + 1
    return find_line(text, key, value)


class _Checker(Checker):
    """The project's :class:`Checker`, locating keys under dotted table headers too."""

    def fault(self, key: str, message: str, value: object = None) -> None:
        self.faults.append(Fault(self.shown, key, message, _find_line(self.text, key, value)))


class _Reader:
    """A :class:`Checker` with typed getters that never raise."""

    def __init__(self, chk: Checker):
        self.chk = chk

    def fault(self, key: str, msg: str, value: object = None) -> None:
        self.chk.fault(key, msg, value)

    def table(self, data: Any, key: str) -> dict:
        return self.chk.table(data, key)

    def keys(self, data: dict, key: str, allowed: set[str], required=()) -> None:
        # source keys are checked (and reported missing) by source()
        self.chk.keys(data, key, allowed, [k for k in required if not k.endswith("source")])

    def str_(self, d: dict, k: str, key: str, default: str = "", empty: bool = True) -> str:
        if k not in d:
            return default
        v = d[k]
        if not isinstance(v, str) or (not empty and not v):
            self.fault(f"{key}.{k}", f"must be {'a' if empty else 'a non-empty'} string, not {v!r}")
            return default
        return v

    def bool_(self, d: dict, k: str, key: str, default: bool = False) -> bool:
        if k not in d:
            return default
        v = self.chk.bool_(d[k], f"{key}.{k}")
        return default if v is None else v

    def int_(self, d: dict, k: str, key: str, lo: int, hi: int, default: int = 0) -> int:
        if k not in d:
            return default
        v = self.integer(d[k], f"{key}.{k}", lo, hi)
        return default if v is None else v

    def integer(self, v: Any, key: str, lo: int, hi: int) -> int | None:
        """An integer within ``lo..hi`` (the range of the array that holds it), else a fault."""
        if isinstance(v, bool) or not isinstance(v, int):
            self.fault(key, f"must be an integer, not {v!r}")
            return None
        if not lo <= v <= hi:
            self.fault(key, f"{v} is out of range {lo}..{hi}")
            return None
        return v

    def choice(self, d: dict, k: str, key: str, choices, default: str = "") -> str:
        if k not in d:
            return default
        v = d[k]
        if v not in choices:
            shown = ", ".join(repr(c) if c == "" else c for c in choices)
            self.fault(f"{key}.{k}", f"{v!r} is not one of {shown}", v)
            return default
        return v

    def keylist(self, d: dict, k: str, key: str, known: Mapping | set | tuple | None,
                what: str) -> tuple[str, ...]:
        """A list of keys; each must be in ``known`` (when given) and appear once."""
        if k not in d:
            return ()
        v = d[k]
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            self.fault(f"{key}.{k}", f"must be a list of {what} keys, not {v!r}")
            return ()
        seen: set[str] = set()
        out = []
        for x in v:
            if x in seen:
                self.fault(f"{key}.{k}", f"{what} {x!r} is listed twice", x)
                continue
            seen.add(x)
            if known is not None and x not in known:
                self.fault(f"{key}.{k}", f"unknown {what} {x!r}", x)
                continue
            out.append(x)
        return tuple(out)

    def month(self, d: dict, k: str, key: str, lo: str = FIRST_MONTH, hi: str = LAST_MONTH_1919,
              empty: bool = False, extra: tuple[str, ...] = ()) -> str:
        if k not in d:
            return ""
        v = d[k]
        if isinstance(v, str) and ((empty and v == "") or v in extra):
            return v
        if not isinstance(v, str) or not _MONTH.match(v):
            self.fault(f"{key}.{k}", f"{v!r} is not a month written \"YYYY-MM\"", v)
            return ""
        if not lo <= v <= hi:
            self.fault(f"{key}.{k}", f"month {v} is outside {lo}..{hi}", v)
            return ""
        return v

    def source(self, d: dict, k: str, key: str, required: bool = True) -> str:
        """A source tag: ``seed``, ``decoded``, ``external: <work>`` or ``standin: <reason>``."""
        if k not in d:
            if required:
                self.fault(key, f"missing source tag {k!r} (seed, decoded, external: <work>, "
                                f"standin: <reason>)")
            return ""
        v = d[k]
        if not isinstance(v, str) or not v.startswith(SOURCE_TAGS):
            self.fault(f"{key}.{k}", f"source {v!r} must start with seed, decoded, external: "
                                     f"or standin:", v)
            return ""
        return v

    def key_ok(self, k: str, key: str) -> bool:
        if not _KEY.match(k):
            self.fault(key, f"key {k!r} must be lower_snake_case ASCII")
            return False
        return True

    def int_list(self, d: dict, k: str, key: str, n: int | None, lo: int, hi: int) -> tuple[int, ...]:
        if k not in d:
            self.fault(key, f"missing required key {k!r}")
            return ()
        v = d[k]
        if (not isinstance(v, list) or (n is not None and len(v) != n)
                or not all(isinstance(x, int) and not isinstance(x, bool) for x in v)):
            size = f"{n} " if n is not None else ""
            self.fault(f"{key}.{k}", f"must be a list of {size}integers, not {v!r}")
            return ()
        for x in v:
            if not lo <= x <= hi:
                self.fault(f"{key}.{k}", f"{x} is out of range {lo}..{hi}")
                return ()
        return tuple(v)


def _records(r: _Reader, data: dict, name: str) -> dict[str, dict]:
    """The sub-tables of ``[name.<key>]``, with their keys checked."""
    tab = r.table(data.get(name, {}), name)
    out = {}
    for k, v in tab.items():
        if r.key_ok(k, f"{name}.{k}"):
            out[k] = r.table(v, f"{name}.{k}")
    return out


def _array(r: _Reader, data: dict, name: str) -> list[dict]:
    v = data.get(name, [])
    if not isinstance(v, list):
        r.fault(name, f"must be an array of tables [[{name}]]")
        return []
    return [r.table(x, f"{name}[{i}]") for i, x in enumerate(v)]


# --------------------------------------------------------------------------------------------
# The files


def _countries(r: _Reader, data: dict) -> dict[str, Country]:
    r.keys(data, "", {"countries"}, required=("countries",))
    allowed = {"name", "seed_name", "side", "major", "personnel", "supply", "points_source",
               "conscription", "entry", "may_join", "entry_group", "off_map_ports", "army",
               "army_source", "overseas", "ship_to", "ship_to_source", "home_area"}
    req = ("name", "side", "personnel", "supply", "points_source", "conscription", "entry",
           "may_join", "army", "army_source")
    out = {}
    for k, d in _records(r, data, "countries").items():
        key = f"countries.{k}"
        r.keys(d, key, allowed, req)
        overseas = r.bool_(d, "overseas", key)
        ship_to = d.get("ship_to", [])
        out[k] = Country(
            key=k, name=r.str_(d, "name", key, k, empty=False),
            side=r.choice(d, "side", key, SIDES, "neutral"), major=r.bool_(d, "major", key),
            personnel=r.int_(d, "personnel", key, 0, INT16[1]),
            supply=r.int_(d, "supply", key, 0, INT16[1]),
            points_source=r.source(d, "points_source", key),
            conscription=r.bool_(d, "conscription", key),
            entry=r.choice(d, "entry", key, ENTRIES, "roll"),
            may_join=r.keylist(d, "may_join", key, WAR_SIDES, "side"),
            entry_group=r.choice(d, "entry_group", key, ENTRY_GROUPS, ""),
            off_map_ports=r.keylist(d, "off_map_ports", key, None, "port"),
            army=r.int_(d, "army", key, 0, INT16[1]),
            army_source=r.source(d, "army_source", key),
            overseas=overseas, ship_to=tuple(ship_to) if isinstance(ship_to, list) else (),
            ship_to_source=r.source(d, "ship_to_source", key, required=bool(ship_to)),
            home_area=r.str_(d, "home_area", key), seed_name=r.str_(d, "seed_name", key))
        if overseas and not ship_to:
            r.fault(key, "an overseas country needs ship_to (where its land forces may fight)")
    for k, c in out.items():
        for i, x in enumerate(c.ship_to):
            if x not in out or x == k:
                r.fault(f"countries.{k}.ship_to", f"unknown or own country {x!r}", x)
    return out


def _cities(r: _Reader, data: dict, countries) -> tuple[dict[str, City], Objectives]:
    r.keys(data, "", {"cities", "objectives"}, required=("cities", "objectives"))
    allowed = {"name", "country", "terrain", "port", "off_map", "objective", "source"}
    out = {}
    for k, d in _records(r, data, "cities").items():
        key = f"cities.{k}"
        r.keys(d, key, allowed, ("name", "country", "terrain", "source"))
        country = r.str_(d, "country", key)
        if country not in countries:
            r.fault(f"{key}.country", f"unknown country {country!r}", country)
        out[k] = City(k, r.str_(d, "name", key, k, empty=False), country,
                      r.choice(d, "terrain", key, TERRAINS, "city"), r.str_(d, "port", key),
                      r.bool_(d, "off_map", key), r.bool_(d, "objective", key),
                      r.source(d, "source", key))
    ob = r.table(data.get("objectives", {}), "objectives")
    r.keys(ob, "objectives", {"count", "swap_berlin_for", "swap_london_for", "source"},
           ("count", "swap_berlin_for", "swap_london_for", "source"))
    objectives = Objectives(r.int_(ob, "count", "objectives", 1, INT16[1]),
                            r.str_(ob, "swap_berlin_for", "objectives"),
                            r.str_(ob, "swap_london_for", "objectives"),
                            r.source(ob, "source", "objectives"))
    n = sum(c.objective for c in out.values())
    if n != objectives.count:
        r.fault("objectives.count", f"{n} cities are marked objective, the table says "
                                    f"{objectives.count}")
    for swap, new in (("swap_berlin_for", "berlin"), ("swap_london_for", "london")):
        old = getattr(objectives, swap)
        if old not in out or not out[old].objective:
            r.fault(f"objectives.{swap}", f"{old!r} is not an objective city", old)
        if new not in out:
            r.fault(f"objectives.{swap}", f"there is no city {new!r} to swap in")
        elif out[new].objective:
            r.fault(f"objectives.{swap}", f"{new!r} is already an objective city")
    for k, c in countries.items():
        n = sum(1 for x in out.values() if x.country == k)
        if not c.home_area and not 1 <= n <= 12:
            r.fault("cities", f"country {k!r} has {n} cities (1 to 12 expected; a country "
                              f"without map cities names its home_area)")
    return out, objectives


def _naval(r: _Reader, data: dict, countries, cities, colony_keys, area_keys):
    r.keys(data, "", {"sea_areas", "ports", "beaches", "squadron_kinds", "squadrons", "arrivals",
                      "naval_combat_chart", "repair"},
           required=("sea_areas", "ports", "beaches", "squadron_kinds", "squadrons",
                     "naval_combat_chart", "repair"))
    seas = {}
    for k, d in _records(r, data, "sea_areas").items():
        key = f"sea_areas.{k}"
        r.keys(d, key, {"name", "colonial"}, ("name", "colonial"))
        seas[k] = SeaArea(k, r.str_(d, "name", key, k, empty=False), r.bool_(d, "colonial", key))

    port_allowed = {"name", "seed_name", "country", "sea_areas", "off_map", "estuary",
                    "colonial", "closed_if_enemy_in", "overland", "supply_source_limit",
                    "sortie_reveal", "units_may_embark", "starts_allied_supply",
                    "invasion_rule", "belligerent_at", "note"}
    raw_ports = _records(r, data, "ports")
    ports = {}
    for k, d in raw_ports.items():
        key = f"ports.{k}"
        r.keys(d, key, port_allowed, ("name", "country", "sea_areas"))
        country = r.str_(d, "country", key)
        if country not in countries:
            r.fault(f"{key}.country", f"unknown country {country!r}", country)
        hexes = {}
        for h in ("closed_if_enemy_in", "overland"):
            hexes[h] = r.str_(d, h, key)
            if hexes[h] and not _HEX.match(hexes[h]):
                r.fault(f"{key}.{h}", f"{hexes[h]!r} is not a hex id like \"K7\" or \"GG35\"",
                        hexes[h])
        limit = (0, 0)
        if "supply_source_limit" in d:
            limit = r.int_list(d, "supply_source_limit", key, 2, 0, INT16[1]) or (0, 0)
        into, frm = "", ()
        if "sortie_reveal" in d:
            sr = r.table(d["sortie_reveal"], f"{key}.sortie_reveal")
            r.keys(sr, f"{key}.sortie_reveal", {"into", "from_ports"}, ("into", "from_ports"))
            into = r.str_(sr, "into", f"{key}.sortie_reveal")
            if into and into not in seas:
                r.fault(f"{key}.sortie_reveal.into", f"unknown sea area {into!r}", into)
            frm = r.keylist(sr, "from_ports", f"{key}.sortie_reveal", raw_ports, "port")
        ports[k] = Port(
            key=k, name=r.str_(d, "name", key, k, empty=False), seed_name=r.str_(d, "seed_name", key),
            country=country, sea_areas=r.keylist(d, "sea_areas", key, seas, "sea area"),
            off_map=r.bool_(d, "off_map", key), estuary=r.bool_(d, "estuary", key),
            colonial=r.bool_(d, "colonial", key), closed_if_enemy_in=hexes["closed_if_enemy_in"],
            overland=hexes["overland"], supply_source_limit=tuple(limit),
            sortie_reveal_into=into, sortie_reveal_from=frm,
            units_may_embark=r.bool_(d, "units_may_embark", key),
            starts_allied_supply=r.bool_(d, "starts_allied_supply", key),
            invasion_rule=r.choice(d, "invasion_rule", key, ("", "greek_entry"), ""),
            belligerent_at=r.keylist(d, "belligerent_at", key, STARTS, "start"),
            note=r.str_(d, "note", key))
        p = ports[k]
        if not p.sea_areas:
            r.fault(f"{key}.sea_areas", "a port needs at least one sea area")
        if p.colonial and not p.off_map:
            r.fault(f"{key}.colonial", "a colonial port is off the map (N.12)")
        for x in p.sortie_reveal_from:
            if x == k:
                r.fault(f"{key}.sortie_reveal.from_ports", "a port does not reveal to itself", x)
            elif into and into not in ports.get(x, p).sea_areas and x in ports:
                r.fault(f"{key}.sortie_reveal.from_ports", f"port {x!r} has no access to {into}", x)

    beach_allowed = {"name", "seed_name", "hex", "country", "sea_areas", "no_central_occupation",
                     "target_city", "source", "note"}
    beaches = {}
    for k, d in _records(r, data, "beaches").items():
        key = f"beaches.{k}"
        r.keys(d, key, beach_allowed, ("name", "hex", "country", "sea_areas", "target_city",
                                       "source"))
        h = r.str_(d, "hex", key)
        if not _HEX.match(h):
            r.fault(f"{key}.hex", f"{h!r} is not a hex id like \"J7\"", h)
        country = r.str_(d, "country", key)
        if country not in countries:
            r.fault(f"{key}.country", f"unknown country {country!r}", country)
        target = r.str_(d, "target_city", key)
        if target not in cities:
            r.fault(f"{key}.target_city", f"unknown city {target!r}", target)
        beaches[k] = Beach(k, r.str_(d, "name", key, k, empty=False), r.str_(d, "seed_name", key),
                           h, country, r.keylist(d, "sea_areas", key, seas, "sea area"),
                           r.bool_(d, "no_central_occupation", key), target,
                           r.source(d, "source", key), r.str_(d, "note", key))

    # squadron kinds and factors
    sk = r.table(data.get("squadron_kinds", {}), "squadron_kinds")
    kinds = r.keylist(sk, "kinds", "squadron_kinds", None, "kind")
    if not kinds:
        r.fault("squadron_kinds", "missing or empty list 'kinds'")
    names_v = sk.get("names", list(kinds))
    names = tuple(names_v) if isinstance(names_v, list) and len(names_v) == len(kinds) else kinds
    if names is kinds and "names" in sk:
        r.fault("squadron_kinds.names", f"must name each of the {len(kinds)} kinds")
    factors = {}
    for k, v in sk.items():
        if k in ("kinds", "names"):
            continue
        key = f"squadron_kinds.{k}"
        if k not in countries:
            r.fault(key, f"unknown country {k!r}")
            continue
        d = r.table(v, key)
        r.keys(d, key, {"gunnery", "protection", "source"}, ("gunnery", "protection", "source"))
        factors[k] = SquadronFactors(k, r.int_list(d, "gunnery", key, len(kinds), 0, INT8[1]),
                                     r.int_list(d, "protection", key, len(kinds), 1, INT8[1]),
                                     r.source(d, "source", key))
    squadron_kinds = SquadronKinds(kinds, tuple(names), MappingProxyType(factors))

    bases = set(ports) | set(colony_keys) | set(area_keys)
    sq_allowed = {"country", "kind", "base", "count", "colonial", "starts", "alt_base", "source"}
    squadrons = []
    for i, d in enumerate(_array(r, data, "squadrons")):
        key = f"squadrons[{i}]"
        r.keys(d, key, sq_allowed, ("country", "kind", "base", "count", "starts", "source"))
        s = Squadron(r.str_(d, "country", key), r.str_(d, "kind", key), r.str_(d, "base", key),
                     r.int_(d, "count", key, 1, INT8[1], 1), r.bool_(d, "colonial", key),
                     r.keylist(d, "starts", key, STARTS, "start"), r.str_(d, "alt_base", key),
                     r.source(d, "source", key))
        _check_squadron(r, key, s, countries, factors, kinds, ports, colony_keys, area_keys,
                        bases)
        squadrons.append(s)
    arrivals = []
    ar_allowed = {"country", "kind", "base", "month", "count", "colonial", "while_neutral", "source"}
    for i, d in enumerate(_array(r, data, "arrivals")):
        key = f"arrivals[{i}]"
        r.keys(d, key, ar_allowed, ("country", "kind", "base", "month", "count", "source"))
        a = Arrival(r.str_(d, "country", key), r.str_(d, "kind", key), r.str_(d, "base", key),
                    r.month(d, "month", key), r.int_(d, "count", key, 1, INT8[1], 1),
                    r.bool_(d, "colonial", key), r.bool_(d, "while_neutral", key),
                    r.source(d, "source", key))
        _check_squadron(r, key, a, countries, factors, kinds, ports, colony_keys, area_keys, bases)
        arrivals.append(a)

    ch = r.table(data.get("naval_combat_chart", {}), "naval_combat_chart")
    key = "naval_combat_chart"
    r.keys(ch, key, {"columns", "columns_source", "far_left", "damage", "dash", "dice_below_one",
                     "source"}, ("columns", "columns_source", "far_left", "damage", "dash",
                                 "source"))
    columns = r.int_list(ch, "columns", key, None, 0, INT16[1])
    if any(b <= a for a, b in zip(columns, columns[1:])):
        r.fault(f"{key}.columns", "column headings must increase from left to right")
    far_left = r.int_list(ch, "far_left", key, 6, -1, INT16[1])
    damage = []
    dm = ch.get("damage", [])
    if not isinstance(dm, list) or len(dm) != 6:
        r.fault(f"{key}.damage", "must be six rows, one per die roll 1-6")
        dm = []
    for d_i, row in enumerate(dm):
        if (not isinstance(row, list) or len(row) != len(columns)
                or not all(isinstance(x, int) and not isinstance(x, bool) and -1 <= x <= INT16[1]
                           for x in row)):
            r.fault(f"{key}.damage", f"row for die {d_i + 1} must be {len(columns)} integers "
                                     f"(-1 for a '-'), not {row!r}")
            row = [-1] * len(columns)
        damage.append(tuple(row))
    chart = NavalCombatChart(columns, r.source(ch, "columns_source", key), far_left,
                             tuple(damage), r.choice(ch, "dash", key, DASH_MODES, "cap"),
                             r.choice(ch, "dice_below_one", key, BELOW_ONE, "none"),
                             r.source(ch, "source", key))

    rp = r.table(data.get("repair", {}), "repair")
    r.keys(rp, "repair", {"months_light", "months_heavy", "heavy_needs_home_port", "source",
                          "construction", "construction_note"},
           ("months_light", "months_heavy", "source"))
    repair = Repair(r.int_(rp, "months_light", "repair", 0, INT8[1]),
                    r.int_(rp, "months_heavy", "repair", 0, INT8[1]),
                    r.bool_(rp, "heavy_needs_home_port", "repair"), r.source(rp, "source", "repair"),
                    r.str_(rp, "construction_note", "repair"))
    return seas, ports, beaches, squadron_kinds, tuple(squadrons), tuple(arrivals), chart, repair


def _check_squadron(r, key, s, countries, factors, kinds, ports, colony_keys, area_keys, bases):
    if s.country not in countries:
        r.fault(f"{key}.country", f"unknown country {s.country!r}", s.country)
    elif s.country not in factors:
        r.fault(f"{key}.country", f"country {s.country!r} has no [squadron_kinds.{s.country}] "
                                  f"factors", s.country)
    if s.kind not in kinds:
        r.fault(f"{key}.kind", f"unknown squadron kind {s.kind!r}", s.kind)
    for field in ("base", "alt_base"):
        b = getattr(s, field, "")
        if field == "alt_base" and not b:
            continue
        if b not in bases:
            r.fault(f"{key}.{field}", f"unknown base {b!r} (a port, colony or area)", b)
        elif b in ports and ports[b].colonial and not s.colonial:
            r.fault(f"{key}.{field}", f"port {b!r} is used only with the colonial variant; "
                                      f"the row must be colonial = true", b)
        elif (b in colony_keys or b in area_keys) and not s.colonial:
            r.fault(f"{key}.{field}", f"base {b!r} is a colony or area; the row must be "
                                      f"colonial = true", b)
    # N.31: squadrons start in ports of their home country; V._4 places the German
    # Mediterranean squadron in Trieste or Constantinople (the row with an alt_base).
    b = s.base
    if getattr(s, "alt_base", ""):
        return
    home = (b in ports and ports[b].country == s.country) or \
           (b in colony_keys and colony_keys[b] == s.country) or \
           (s.country in countries and countries[s.country].home_area == b)
    if b in bases and not home:
        r.fault(f"{key}.base", f"base {b!r} is not in {s.country!r}'s home country or its "
                               f"colonies (N.31)", b)


def _colonies(r: _Reader, data: dict, countries, seas, ports):
    r.keys(data, "", {"colonies", "areas", "deployments"},
           required=("colonies", "areas", "deployments"))
    raw_c = _records(r, data, "colonies")
    raw_a = _records(r, data, "areas")
    places = set(raw_c) | set(raw_a)
    for k in set(raw_c) & set(raw_a):
        r.fault(f"areas.{k}", f"{k!r} is both a colony and an area")
    colonies, areas = {}, {}
    c_allowed = {"name", "seed_name", "country", "sea_areas", "neighbors", "ruled_neighbors",
                 "defense"}
    for k, d in raw_c.items():
        key = f"colonies.{k}"
        r.keys(d, key, c_allowed, ("name", "country", "sea_areas", "neighbors", "defense"))
        country = r.str_(d, "country", key)
        if country not in countries:
            r.fault(f"{key}.country", f"unknown country {country!r}", country)
        colonies[k] = Colony(k, r.str_(d, "name", key, k, empty=False),
                             r.str_(d, "seed_name", key), country,
                             r.keylist(d, "sea_areas", key, seas, "sea area"),
                             r.keylist(d, "neighbors", key, places, "colony or area"),
                             r.keylist(d, "ruled_neighbors", key, places, "colony or area"),
                             r.int_(d, "defense", key, 1, 12))
    a_allowed = {"name", "sea_areas", "neighbors", "ruled_neighbors", "defense", "kind",
                 "activated", "occupy_without_roll", "invasion_limit", "new_units_here", "note"}
    for k, d in raw_a.items():
        key = f"areas.{k}"
        r.keys(d, key, a_allowed, ("name", "sea_areas", "neighbors", "defense", "kind",
                                   "activated"))
        areas[k] = Area(k, r.str_(d, "name", key, k, empty=False),
                        r.keylist(d, "sea_areas", key, seas, "sea area"),
                        r.keylist(d, "neighbors", key, places, "colony or area"),
                        r.keylist(d, "ruled_neighbors", key, places, "colony or area"),
                        r.int_(d, "defense", key, 1, 12),
                        r.choice(d, "kind", key, AREA_KINDS, "sovereign"),
                        r.choice(d, "activated", key, AREA_ACTIVATION, "attack"),
                        r.bool_(d, "occupy_without_roll", key),
                        r.int_(d, "invasion_limit", key, 1, INT8[1], 3),
                        r.bool_(d, "new_units_here", key), r.str_(d, "note", key))
    both = {**{k: ("colonies", v) for k, v in colonies.items()},
            **{k: ("areas", v) for k, v in areas.items()}}
    for k, (tab, v) in both.items():
        for x in v.neighbors:
            if x == k:
                r.fault(f"{tab}.{k}.neighbors", f"{k!r} lists itself as a neighbour", x)
            elif x in both and k not in both[x][1].neighbors:
                r.fault(f"{tab}.{k}.neighbors", f"one-way neighbour: {k!r} lists {x!r} but "
                                                f"{x!r} does not list {k!r} (links are "
                                                f"symmetric, C.53, C.61)", x)
        for x in v.ruled_neighbors:
            if x not in v.neighbors:
                r.fault(f"{tab}.{k}.ruled_neighbors", f"{x!r} must also be in neighbors", x)

    dep_allowed = {"start", "place", "country", "units", "alternatives", "units_source"}
    deployments = []
    dep_places = places | {p for p, v in ports.items() if v.off_map}
    for i, d in enumerate(_array(r, data, "deployments")):
        key = f"deployments[{i}]"
        r.keys(d, key, dep_allowed, ("start", "place", "country", "units", "units_source"))
        start = r.choice(d, "start", key, STARTS, "")
        place = r.str_(d, "place", key)
        if place not in dep_places:
            r.fault(f"{key}.place", f"unknown place {place!r} (a colony, area or off-map port)",
                    place)
        country = r.str_(d, "country", key)
        if country not in countries:
            r.fault(f"{key}.country", f"unknown country {country!r}", country)
        units = []
        uv = d.get("units", [])
        if not isinstance(uv, list) or not uv:
            r.fault(f"{key}.units", "must be a non-empty list of [attack, defense, movement, count]")
            uv = []
        for u in uv:
            if (not isinstance(u, list) or len(u) != 4
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in u)
                    or not all(0 <= x <= 99 for x in u[:3]) or not 1 <= u[3] <= 99):
                r.fault(f"{key}.units", f"{u!r} must be [attack, defense, movement, count] with "
                                        f"factors 0..99 and a count 1..99")
                continue
            units.append(tuple(u))
        deployments.append(Deployment(start, place, country, tuple(units),
                                      r.keylist(d, "alternatives", key, dep_places, "place"),
                                      r.source(d, "units_source", key)))
    return colonies, areas, tuple(deployments)


def _land(r: _Reader, data: dict, countries, cities):
    r.keys(data, "", {"land", "crt", "fronts", "history"},
           required=("land", "crt", "fronts", "history"))
    ld = r.table(data.get("land", {}), "land")
    r.keys(ld, "land", {"corps_strength", "corps_strength_source", "entrenchment_from",
                        "entrenchment_source"}, ("corps_strength", "corps_strength_source",
                                                 "entrenchment_from", "entrenchment_source"))
    land = Land(r.int_(ld, "corps_strength", "land", 1, INT16[1], 1),
                r.source(ld, "corps_strength_source", "land"),
                r.month(ld, "entrenchment_from", "land"), r.source(ld, "entrenchment_source", "land"))

    ct = r.table(data.get("crt", {}), "crt")
    r.keys(ct, "crt", {"columns", "rows", "die_min", "die_max", "below_first", "above_last",
                       "source", "results", "modifiers"},
           ("columns", "rows", "die_min", "die_max", "source", "results", "modifiers"))
    cols = ct.get("columns", [])
    if not isinstance(cols, list) or not cols or not all(isinstance(x, str) for x in cols):
        r.fault("crt.columns", "must be a non-empty list of odds like \"1-1\"")
        cols = []
    results = r.table(ct.get("results", {}), "crt.results")
    for k, v in results.items():
        if not isinstance(v, str):
            r.fault(f"crt.results.{k}", "must be the result's meaning")
    die_min = r.int_(ct, "die_min", "crt", INT8[0], INT8[1])
    die_max = r.int_(ct, "die_max", "crt", INT8[0], INT8[1])
    rows = []
    rv = ct.get("rows", [])
    if not isinstance(rv, list) or len(rv) != die_max - die_min + 1:
        r.fault("crt.rows", f"must be {die_max - die_min + 1} rows, die {die_min}..{die_max}")
        rv = []
    for i, row in enumerate(rv):
        if not isinstance(row, list) or len(row) != len(cols):
            r.fault("crt.rows", f"row {i} must have {len(cols)} results")
            continue
        for x in row:
            if x not in results:
                r.fault("crt.rows", f"row {i}: result {x!r} is not in [crt.results]", x)
        rows.append(tuple(row))
    md = r.table(ct.get("modifiers", {}), "crt.modifiers")
    mods = {}
    for k, v in md.items():
        if k == "source":
            continue
        x = r.integer(v, f"crt.modifiers.{k}", INT8[0], INT8[1])
        if x is not None:
            mods[k] = x
    r.source(md, "source", "crt.modifiers")
    crt = Crt(tuple(cols), tuple(rows), die_min, die_max,
              r.int_(ct, "below_first", "crt", INT8[0], INT8[1]),
              r.int_(ct, "above_last", "crt", INT8[0], INT8[1]),
              MappingProxyType(dict(results)), MappingProxyType(mods), r.source(ct, "source", "crt"))

    fronts = {}
    f_allowed = {"key", "name", "a", "b", "helpers_a", "helpers_b", "a_cities", "b_cities",
                 "source"}
    for i, d in enumerate(_array(r, data, "fronts")):
        key = f"fronts[{i}]"
        r.keys(d, key, f_allowed, ("key", "name", "a", "b", "a_cities", "b_cities", "source"))
        fk = r.str_(d, "key", key)
        if not r.key_ok(fk, f"{key}.key"):
            continue
        if fk in fronts:
            r.fault(f"{key}.key", f"front {fk!r} is defined twice", fk)
            continue
        a, b = r.str_(d, "a", key), r.str_(d, "b", key)
        for side, c in (("a", a), ("b", b)):
            if c not in countries:
                r.fault(f"{key}.{side}", f"unknown country {c!r}", c)
        if a == b:
            r.fault(f"{key}.b", "a front is between two different countries")
        chains = {}
        for side, c in (("a", a), ("b", b)):
            chain = r.keylist(d, f"{side}_cities", key, cities, "city")
            for x in chain:
                if cities[x].country != c:
                    r.fault(f"{key}.{side}_cities", f"city {x!r} belongs to "
                                                    f"{cities[x].country!r}, not {c!r}", x)
            if not chain:
                r.fault(f"{key}.{side}_cities", "a front needs at least one city on each side")
            chains[side] = chain
        helpers = {}
        for side, c, other in (("a", a, b), ("b", b, a)):
            h = r.keylist(d, f"helpers_{side}", key, countries, "country")
            for x in h:
                if x in (a, b):
                    r.fault(f"{key}.helpers_{side}", f"{x!r} is a party of the front, not a "
                                                     f"helper", x)
            helpers[side] = h
        fronts[fk] = Front(fk, r.str_(d, "name", key, fk, empty=False), a, b, helpers["a"],
                           helpers["b"], chains["a"], chains["b"], r.source(d, "source", key))

    history = []
    h_allowed = {"city", "month", "to", "by", "front", "source", "note"}
    last = ""
    for i, d in enumerate(_array(r, data, "history")):
        key = f"history[{i}]"
        r.keys(d, key, h_allowed, ("city", "month", "to", "by", "front", "source"))
        city = r.str_(d, "city", key)
        if city not in cities:
            r.fault(f"{key}.city", f"unknown city {city!r}", city)
        month = d.get("month")
        if isinstance(month, str) and _MONTH.match(month) and not FIRST_MONTH <= month <= LAST_MONTH:
            r.fault(f"{key}.month", f"month {month} is outside the war ({FIRST_MONTH}.."
                                    f"{LAST_MONTH})", month)
            month = ""
        else:
            month = r.month(d, "month", key, FIRST_MONTH, LAST_MONTH)
        if month and month < last:
            r.fault(f"{key}.month", f"history is in date order: {month} comes after {last}", month)
        last = max(last, month)
        to = r.choice(d, "to", key, WAR_SIDES, "")
        by = r.str_(d, "by", key)
        if by not in countries:
            r.fault(f"{key}.by", f"unknown country {by!r}", by)
        fk = r.str_(d, "front", key)
        if fk:
            f = fronts.get(fk)
            if f is None:
                r.fault(f"{key}.front", f"unknown front {fk!r}", fk)
            else:
                if city in cities and city not in f.a_cities + f.b_cities:
                    r.fault(f"{key}.city", f"city {city!r} is on neither chain of front {fk!r}",
                            city)
                takers = (f.a, f.b) + f.helpers_a + f.helpers_b
                if by in countries and by not in takers:
                    r.fault(f"{key}.by", f"{by!r} is neither a party nor a helper of front "
                                         f"{fk!r}", by)
        history.append(HistoryEvent(city, month, to, by, fk, r.source(d, "source", key),
                                    r.str_(d, "note", key)))
    return land, crt, fronts, tuple(history)


def _morale(r: _Reader, data: dict, countries) -> Morale:
    r.keys(data, "", {"morale"}, required=("morale",))
    m = r.table(data.get("morale", {}), "morale")
    r.keys(m, "morale", {"months", "months_source", "die", "source", "results", "effects",
                         "modifiers"}, ("months", "months_source", "die", "source", "results",
                                        "effects", "modifiers"))
    months = r.int_list(m, "months", "morale", None, 1, 12)
    if len(set(months)) != len(months):
        r.fault("morale.months", "a month is listed twice")
    r.source(m, "months_source", "morale")
    die = r.int_list(m, "die", "morale", 2, INT8[0], INT8[1]) or (1, 6)
    results = []
    prev = None
    for i, d in enumerate(_array(r, m, "results")):
        key = f"morale.results[{i}]"
        r.keys(d, key, {"at_most", "result"}, ("at_most", "result"))
        at = r.int_(d, "at_most", key, INT8[0], INT8[1])
        name = r.str_(d, "result", key, "", empty=False)
        if prev is not None and at <= prev:
            r.fault(f"{key}.at_most", f"rows must rise: {at} after {prev}")
        prev = at
        results.append((at, name))
    effects = {}
    for k, v in r.table(m.get("effects", {}), "morale.effects").items():
        key = f"morale.effects.{k}"
        d = r.table(v, key)
        r.keys(d, key, {"help", "strength_loss_pct", "no_attack_months", "personnel_factor_pct",
                        "source"}, ("help", "source"))
        effects[k] = MoraleEffect(k, r.str_(d, "help", key), r.int_(d, "strength_loss_pct", key, 0, 100),
                                  r.int_(d, "no_attack_months", key, 0, INT8[1]),
                                  r.int_(d, "personnel_factor_pct", key, 0, 100, 100),
                                  r.source(d, "source", key))
    for at, name in results:
        if name and name not in effects:
            r.fault("morale.effects", f"result {name!r} has no [morale.effects.{name}]")
    mods = []
    for i, d in enumerate(_array(r, m, "modifiers")):
        key = f"morale.modifiers[{i}]"
        r.keys(d, key, {"key", "value", "per", "who", "while", "same_as", "help", "source"},
               ("key", "value", "who", "while", "help", "source"))
        who = d.get("who")
        if who in ("each", "central"):
            who_t: tuple[str, ...] = (who,)
        else:
            who_t = r.keylist(d, "who", key, countries, "country")
            if not who_t:
                r.fault(f"{key}.who", "must be \"each\", \"central\" or a list of countries")
        mods.append(MoraleModifier(r.str_(d, "key", key, "", empty=False),
                                   r.int_(d, "value", key, INT8[0], INT8[1]),
                                   r.choice(d, "per", key, ("", "city"), ""), who_t,
                                   r.str_(d, "while", key, "", empty=False),
                                   r.str_(d, "same_as", key), r.str_(d, "help", key),
                                   r.source(d, "source", key)))
    return Morale(months, tuple(die), tuple(results), MappingProxyType(effects), tuple(mods),
                  r.source(m, "source", "morale"))


def _rules(r: _Reader, data: dict, countries, crt_results) -> Rules:
    r.keys(data, "", {"land_war", "production", "naval_war", "morale_years", "base_entry",
                      "base_victory"}, ("land_war", "production", "naval_war", "morale_years"))
    lw = r.table(data.get("land_war", {}), "land_war")
    r.keys(lw, "land_war", {"main_share", "main_share_source", "upkeep", "upkeep_source",
                            "coast_share", "coast_share_source", "losses", "losses_source"},
           ("main_share", "upkeep", "coast_share", "losses", "main_share_source",
            "upkeep_source", "coast_share_source", "losses_source"))
    for k in ("main_share_source", "upkeep_source", "coast_share_source", "losses_source"):
        r.source(lw, k, "land_war")
    losses = {}
    for name, v in r.table(lw.get("losses", {}), "land_war.losses").items():
        pair = r.int_list({name: v}, name, "land_war.losses", 2, 0, 100)
        if name not in crt_results:
            r.fault(f"land_war.losses.{name}", f"{name!r} is not a result of [crt.results]")
        elif pair:
            losses[name] = pair
    for name in crt_results:
        if name not in losses:
            r.fault("land_war.losses", f"missing the losses of result {name!r}")
    pr = r.table(data.get("production", {}), "production")
    r.keys(pr, "production", {"supply_cap_months", "supply_cap_source", "repeal_disband",
                              "repeal_disband_source", "us_reinforcement_months",
                              "us_reinforcement_strength", "us_reinforcements_source",
                              "japan_pool", "japan_pool_source"},
           ("supply_cap_months", "repeal_disband", "us_reinforcement_months",
            "us_reinforcement_strength", "japan_pool"))
    for k in ("supply_cap_source", "repeal_disband_source", "us_reinforcements_source",
              "japan_pool_source"):
        r.source(pr, k, "production")
    pool = []
    jp = pr.get("japan_pool", [])
    if not isinstance(jp, list):
        r.fault("production.japan_pool", "must be a list of [attack, support, count] rows")
        jp = []
    for i, row in enumerate(jp):
        got = r.int_list({"row": row}, "row", f"production.japan_pool[{i}]", 3, 0, INT8[1])
        if got:
            if got[1] not in (0, 1):
                r.fault(f"production.japan_pool[{i}]", "support must be 0 (combat) or 1")
            pool.append(got)
    nw = r.table(data.get("naval_war", {}), "naval_war")
    r.keys(nw, "naval_war", {"usw_from", "usw_from_source", "colonial_months",
                             "colonial_months_source", "hit_divisor", "heavy_divisor",
                             "tenney_source"},
           ("usw_from", "colonial_months", "hit_divisor", "heavy_divisor"))
    for k in ("usw_from_source", "colonial_months_source", "tenney_source"):
        r.source(nw, k, "naval_war")
    my = r.table(data.get("morale_years", {}), "morale_years")
    r.keys(my, "morale_years", {"values", "source"}, ("values", "source"))
    r.source(my, "source", "morale_years")
    entries = []
    for i, d in enumerate(_array(r, data, "base_entry")):
        key = f"base_entry[{i}]"
        r.keys(d, key, {"country", "month", "side", "source"}, ("country", "month", "side", "source"))
        c = r.str_(d, "country", key, "", empty=False)
        if c and c not in countries:
            r.fault(f"{key}.country", f"unknown country {c!r}", c)
        entries.append((c, r.month(d, "month", key), r.choice(d, "side", key, ("allied", "central"))))
        r.source(d, "source", key)
    checks = []
    for i, d in enumerate(_array(r, data, "base_victory")):
        key = f"base_victory[{i}]"
        r.keys(d, key, {"month", "outside_objectives", "source"},
               ("month", "outside_objectives", "source"))
        checks.append((r.month(d, "month", key), r.int_(d, "outside_objectives", key, 0, INT8[1])))
        r.source(d, "source", key)
    return Rules(
        r.int_(lw, "main_share", "land_war", 0, 100), r.int_(lw, "upkeep", "land_war", 1, INT16[1], 1),
        r.int_(lw, "coast_share", "land_war", 0, 100), MappingProxyType(losses),
        r.int_(pr, "supply_cap_months", "production", 1, INT8[1], 1),
        r.int_(pr, "repeal_disband", "production", 0, 100),
        (r.int_(pr, "us_reinforcement_months", "production", 0, INT8[1]),
         r.int_(pr, "us_reinforcement_strength", "production", 0, INT16[1])),
        tuple(pool), r.month(nw, "usw_from", "naval_war"),
        r.int_list(nw, "colonial_months", "naval_war", None, 1, 12),
        (r.int_(nw, "hit_divisor", "naval_war", 1, INT8[1], 1),
         r.int_(nw, "heavy_divisor", "naval_war", 1, INT8[1], 1)),
        r.int_list(my, "values", "morale_years", 6, INT8[0], INT8[1]) or (4, 3, 2, 1, 0, -1),
        tuple(entries), tuple(checks))


def _scenario(r: _Reader, data: dict, key: str, path, countries, cities, colonies, areas):
    r.keys(data, "", {"scenario", "options", "start"}, required=("scenario", "options", "start"))
    sc = r.table(data.get("scenario", {}), "scenario")
    r.keys(sc, "scenario", {"game", "name", "version", "start", "last", "setup", "case",
                            "description"},
           ("game", "name", "version", "start", "last", "setup"))
    if sc.get("game") != "goa":
        r.fault("scenario.game", f"game {sc.get('game')!r} must be \"goa\"", sc.get("game"))
    start = r.month(sc, "start", "scenario", FIRST_MONTH, LAST_MONTH)
    last = r.month(sc, "last", "scenario", FIRST_MONTH, LAST_MONTH_1919)
    if start and last and last < start:
        r.fault("scenario.last", f"last month {last} comes before the start {start}")
    options = {}
    for name, o in r.table(data.get("options", {}), "options").items():
        okey = f"options.{name}"
        o = r.table(o, okey)
        r.keys(o, okey, {"default", "help", "case", "requires", "excludes", "choices"},
               ("default", "help", "case"))
        default = o.get("default")
        choices = r.keylist(o, "choices", okey, None, "choice")
        if not isinstance(default, (bool, str)):
            r.fault(f"{okey}.default", "must be true, false or a text choice")
            default = False
        elif isinstance(default, str) and default not in choices:
            r.fault(f"{okey}.default", f"{default!r} is not one of its choices", default)
        options[name] = Option(name, default, r.str_(o, "help", okey, "", empty=False),
                               r.str_(o, "case", okey, "", empty=False),
                               r.keylist(o, "requires", okey, None, "option"),
                               r.keylist(o, "excludes", okey, None, "option"), choices)
    for o in options.values():
        for x in o.requires + o.excludes:
            if x not in options:
                r.fault(f"options.{o.name}", f"names unknown option {x!r}", x)
    st = r.table(data.get("start", {}), "start")
    r.keys(st, "start", {"month", "countries", "cities", "colonies", "sources"},
           ("month", "countries", "cities", "colonies"))
    if st.get("month") != start and start:
        r.fault("start.month", f"must equal scenario.start ({start})", st.get("month"))
    sc_countries = {}
    raw = r.table(st.get("countries", {}), "start.countries")
    for k in countries:
        if k not in raw:
            r.fault("start.countries", f"country {k!r} has no [start.countries.{k}]")
    for k, d in raw.items():
        ckey = f"start.countries.{k}"
        if k not in countries:
            r.fault(ckey, f"unknown country {k!r}")
            continue
        d = r.table(d, ckey)
        r.keys(d, ckey, {"side", "entered", "conquered", "conscription_since",
                         "mobilization_since", "usw_since", "source", "conquered_source"},
               ("side", "entered", "conquered", "conscription_since", "mobilization_since",
                "usw_since"))
        side = r.choice(d, "side", ckey, SIDES, "neutral")
        entered = r.month(d, "entered", ckey, FIRST_MONTH, LAST_MONTH, empty=True)
        if (side == "neutral") != (entered == ""):
            r.fault(f"{ckey}.entered", "a country at war has an entry month, a neutral none")
        if entered and start and entered > start:
            r.fault(f"{ckey}.entered", f"entry month {entered} comes after the start {start}",
                    entered)
        conquered = r.bool_(d, "conquered", ckey)
        if conquered:
            r.source(d, "conquered_source", ckey)
        if side != "neutral" and entered and entered != FIRST_MONTH:
            r.source(d, "source", ckey)
        sc_countries[k] = StartCountry(
            k, side, entered, conquered,
            r.month(d, "conscription_since", ckey, FIRST_MONTH, LAST_MONTH, empty=True,
                    extra=("before",)),
            r.month(d, "mobilization_since", ckey, FIRST_MONTH, LAST_MONTH, empty=True),
            r.month(d, "usw_since", ckey, "1915-01", LAST_MONTH, empty=True),
            r.str_(d, "source", ckey))
    held = {}
    for k, v in r.table(st.get("cities", {}), "start.cities").items():
        if k not in cities:
            r.fault(f"start.cities.{k}", f"unknown city {k!r}")
        elif v not in WAR_SIDES:
            r.fault(f"start.cities.{k}", f"{v!r} is not one of allied, central", v)
        else:
            held[k] = v
    held_c = {}
    for k, v in r.table(st.get("colonies", {}), "start.colonies").items():
        if k not in colonies and k not in areas:
            r.fault(f"start.colonies.{k}", f"unknown colony or area {k!r}")
        elif v not in WAR_SIDES:
            r.fault(f"start.colonies.{k}", f"{v!r} is not one of allied, central", v)
        else:
            held_c[k] = v
    sources = r.table(st.get("sources", {}), "start.sources")
    for k in sources:
        r.source(sources, k, "start.sources")
    return ScenarioInfo(key, path, r.str_(sc, "name", "scenario", key, empty=False),
                        r.int_(sc, "version", "scenario", 1, INT16[1], 1), start, last,
                        r.choice(sc, "setup", "scenario", STARTS, ""),
                        r.str_(sc, "case", "scenario"), r.str_(sc, "description", "scenario"),
                        MappingProxyType(options), MappingProxyType(sc_countries),
                        MappingProxyType(held), MappingProxyType(held_c),
                        MappingProxyType({k: v for k, v in sources.items() if isinstance(v, str)}))


def _cross_checks(faults, shown, texts, countries, cities, ports, colonies, areas):
    """Checks between files: ports and cities, off-map ports, home areas."""
    def fault(file, key, msg, value=None):
        _Checker(shown[file], texts[file], faults).fault(key, msg, value)

    port_city = {}
    for k, c in cities.items():
        if not c.port:
            continue
        p = ports.get(c.port)
        if p is None:
            fault("cities", f"cities.{k}.port", f"unknown port {c.port!r}", c.port)
            continue
        if c.port in port_city:
            fault("cities", f"cities.{k}.port", f"port {c.port!r} is already the port of "
                                                f"{port_city[c.port]!r}", c.port)
        port_city[c.port] = k
        if p.country != c.country:
            fault("cities", f"cities.{k}.country", f"city {k!r} is in {c.country!r} but its "
                                                   f"port {c.port!r} in {p.country!r}")
        if p.off_map != c.off_map:
            fault("cities", f"cities.{k}.off_map", f"must match port {c.port!r} (off_map = "
                                                   f"{str(p.off_map).lower()})")
    for k in ports:
        if k not in port_city:
            fault("naval", f"ports.{k}", f"port {k!r} is no city's port: every port is a city "
                                         f"(N.12, N.15)")
    for k, c in countries.items():
        have = tuple(p for p, v in ports.items() if v.country == k and v.off_map)
        if set(have) != set(c.off_map_ports):
            fault("countries", f"countries.{k}.off_map_ports",
                  f"must list the off-map ports of {k!r} in naval.toml: {list(have)}")
        if c.home_area and c.home_area not in areas:
            fault("countries", f"countries.{k}.home_area", f"unknown area {c.home_area!r}",
                  c.home_area)


# --------------------------------------------------------------------------------------------


def _locate(folder_or_scenario: str | Path) -> tuple[Path, Path | None, str]:
    """(data folder, scenario file or None, scenario key) for a folder, a scenario file or a
    bundled key such as ``"goa/1916"``."""
    s = str(folder_or_scenario)
    p = Path(folder_or_scenario)
    if not p.exists() and s.startswith("goa/") and s[4:] in SCENARIO_FILES:
        return DATA_DIR, DATA_DIR / f"{s[4:]}.toml", s
    if p.is_dir():
        sc = p / "campaign.toml"
        return p, sc, "goa/campaign" if p.resolve() == DATA_DIR else str(sc)
    key = f"goa/{p.stem}" if p.parent.resolve() == DATA_DIR else str(p)
    return p.parent, p, key


def read_goa(folder_or_scenario_path: str | Path) -> GoaData:
    """Read and validate the GoA data files and one scenario file.

    ``folder_or_scenario_path`` is a data folder (its ``campaign.toml`` is the scenario), a
    scenario file (the data files are read beside it) or a bundled key such as
    ``"goa/1916"``. Raises :class:`ScenarioError` listing every fault found.
    """
    folder, sc_path, key = _locate(folder_or_scenario_path)
    faults: list[Fault] = []
    parts, texts, shown = {}, {}, {}
    names = DATA_FILES + ("scenario",)
    for name in names:
        path = sc_path if name == "scenario" else folder / f"{name}.toml"
        shown[name] = str(path)
        data, text, f = read_toml(path, shown[name])
        faults += f
        parts[name], texts[name] = data, text
    if any(v is None for v in parts.values()):
        raise ScenarioError(faults)
    rd = {name: _Reader(_Checker(shown[name], texts[name], faults)) for name in names}

    countries = _countries(rd["countries"], parts["countries"])
    cities, objectives = _cities(rd["cities"], parts["cities"], countries)
    col = parts["colonies"]
    colony_owner = {k: v.get("country") for k, v in col.get("colonies", {}).items()
                    if isinstance(v, dict)} if isinstance(col.get("colonies"), dict) else {}
    area_keys = set(col.get("areas", {})) if isinstance(col.get("areas"), dict) else set()
    (seas, ports, beaches, squadron_kinds, squadrons, arrivals, chart,
     repair) = _naval(rd["naval"], parts["naval"], countries, cities, colony_owner, area_keys)
    colonies, areas, deployments = _colonies(rd["colonies"], col, countries, seas, ports)
    land, crt, fronts, history = _land(rd["land"], parts["land"], countries, cities)
    morale = _morale(rd["morale"], parts["morale"], countries)
    rules = _rules(rd["rules"], parts["rules"], countries, crt.results)
    scenario = _scenario(rd["scenario"], parts["scenario"], key, sc_path, countries, cities,
                         colonies, areas)
    _cross_checks(faults, shown, texts, countries, cities, ports, colonies, areas)
    if faults:
        raise ScenarioError(faults)
    return GoaData(
        folder=folder, countries=MappingProxyType(countries), cities=MappingProxyType(cities),
        objectives=objectives, sea_areas=MappingProxyType(seas), ports=MappingProxyType(ports),
        beaches=MappingProxyType(beaches), squadron_kinds=squadron_kinds, squadrons=squadrons,
        arrivals=arrivals, naval_combat_chart=chart, repair=repair,
        colonies=MappingProxyType(colonies), areas=MappingProxyType(areas),
        deployments=deployments, land=land, crt=crt, fronts=MappingProxyType(fronts),
        history=history, morale=morale, scenario=scenario, rules=rules)
