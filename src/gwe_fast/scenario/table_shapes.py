"""Shape checks for a game's ``tables.toml``: every rules table, transcribed as data.

``check_tables(game, data)`` takes the parsed file (``tomllib.load``) of game ``"gwe"``
(The Great War in the East / Brusilov Offensive) or ``"kb"`` (The Kaiser's Battle) and returns
a list of ``(key_path, message)`` faults, empty when the file is sound. It never raises on bad
data: every fault is reported, not just the first. Every number is checked against the range
of its kind in ``gwe_fast.scenario.limits`` (which fits the dtype that will hold it), so no
integer of a sound file can overflow an array of the engines.

The file format
===============

One top-level TOML table per rules table, named after it, each with a ``case`` key naming the
rule case it transcribes (``case = "8.8"``; a span is written ``"18.21-18.22"``). An ``[about]``
table names the game (``game = "gwe"``). Everything else follows a few conventions:

Matrices
    An array of rows in printed order, with the row and column headings beside it as arrays.
    The combat results table (GWE 8.8) is ::

        [crt]
        case = "8.8"
        die = [1, 2, 3, 4, 5, 6, 7, 8]          # one results row per die roll
        results = [["1/1", "1/1", "-/1", ...], ...]
        [crt.odds]                               # one odds row per TCR group, same length
        tcr1  = ["1-4", "1-3", ...]
        tcr23 = ["1-3", "1-2", ...]
        tcr4  = ["1-2", "1-1", ...]

    A result is ``attacker/defender``: the attacker ``-``, ``1`` or ``2``, the defender ``-``,
    ``1``, ``2``, ``3`` or ``E``. Die lists run 1, 2, 3 ... without gaps. The Kaiser's Battle
    counter-battery (9.25) and drumfire barrage (9.48) tables have the same layout with their
    own headings and result codes.

Terrain effects
    ``[terrain_effects.<name>]`` per terrain, named from a fixed list (clear, forest, broken,
    swamp, rough, mountain, lake, sea, town, city, trench, fortress, hilltop, woods, redoubt,
    fieldwork, wire for hexes; minor_river, major_river, ridge, blocked, canal, excavation, rail
    for hexsides; enemy_zoc, entrain for other costs), with ``kind`` = hex / hexside / other.
    GWE rows give exactly one of ``move`` (cost per TCR 1..4, an array of 4 entries, each an
    integer or ``"P"`` for prohibited), ``move_add`` (4 integers added to the other terrain) or
    ``move_rule`` (``"as_other_terrain"``, or ``"see_case"`` with ``move_see``), a ``combat``
    code (or a list of codes: ``none``, ``defender_doubled``, ``attacker_halved``,
    ``die_plus_N_if_any_across``, ``die_plus_N_if_exclusively_across``, ``prohibited``,
    ``entrained_may_not_attack``, ``see_case`` with ``combat_see``) and ``games``, the game
    letters of the chart (B, C, S, T, V). KB rows give ``move`` or ``move_add`` as one integer,
    ``die_mod`` (the defender's die roll modification) and a matching ``combat`` code
    (``none``, ``defender_die_plus_N`` or ``defender_die_plus_N_if_solely_across``).

Bands
    Turn schedules are arrays of tables with ``first_turn`` and ``last_turn`` (the last band
    may omit ``last_turn``: "and every turn after"). Victory levels and KB supply states are
    arrays of tables with ``min`` and ``max``, omitted at an open end, and a ``level`` (or
    ``state``) code. Bands must be in order, without overlaps or gaps.

Rows
    Victory point schedules are ``[[vp_schedule.row]]`` with ``vp`` (an integer), ``cause`` (a
    snake_case code) and ``text`` (the printed words). ``rolls`` arrays list the successful die
    rolls in ascending order; ``[]`` means "not allowed".

Every table also admits ``printed`` / ``note`` / ``text`` strings where noted; unknown keys are
faults, so a misspelt key never passes silently.
"""

from __future__ import annotations

import re
from typing import Any, Callable

from gwe_fast.scenario import limits
from gwe_fast.scenario.limits import COUNT, MODIFIER, MULTIPLIER, TURN, VP, VP_TOTAL

__all__ = ["check_tables", "turn_schedule_ends", "GAMES", "TERRAIN_NAMES"]

Fault = tuple[str, str]

GAMES = ("gwe", "kb")

HEX_TERRAIN = (
    "clear", "forest", "broken", "swamp", "rough", "mountain", "lake", "sea", "town", "city",
    "trench", "fortress", "hilltop", "woods", "redoubt", "fieldwork", "wire",
)
HEXSIDE_TERRAIN = ("minor_river", "major_river", "ridge", "blocked", "canal", "excavation", "rail")
OTHER_TERRAIN = ("enemy_zoc", "entrain")
TERRAIN_NAMES = HEX_TERRAIN + HEXSIDE_TERRAIN + OTHER_TERRAIN
_TERRAIN_KIND = {
    **{n: "hex" for n in HEX_TERRAIN},
    **{n: "hexside" for n in HEXSIDE_TERRAIN},
    **{n: "other" for n in OTHER_TERRAIN},
}

_CASE_RE = re.compile(r"^\d+\.\d+(-\d+\.\d+)?$")
_CODE_RE = re.compile(r"^[a-z][a-z0-9_]*$")
_RATIO_RE = re.compile(r"^(\d+)-(\d+)$")
_CRT_RESULT_RE = re.compile(r"^(-|1|2)/(-|1|2|3|E)$")
_RANGE_RE = re.compile(r"^(\d+)(?:-(\d+))?$")
_GWE_COMBAT_FIXED = {
    "none", "defender_doubled", "attacker_halved", "prohibited", "see_case",
    "entrained_may_not_attack",
}
_GWE_COMBAT_RE = re.compile(r"^die_plus_[1-9]\d*_if_(any|exclusively)_across$")
_KB_COMBAT_RE = re.compile(r"^defender_die_plus_([1-9]\d*)(_if_solely_across)?$")
_GAME_LETTERS = ("B", "C", "S", "T", "V")
_CRT_OPTION_CODES = (
    "lose_half_affected_steps", "lose_all_affected_steps", "retreat_1", "retreat_2",
    "eliminate_all", "lose_half_and_retreat_1", "lose_half_and_retreat_2",
)
_WEATHER = ("clear", "mist", "fog")


# ---------------------------------------------------------------------------------------------
# fault collection and paths
# ---------------------------------------------------------------------------------------------

class _Faults:
    def __init__(self) -> None:
        self.items: list[Fault] = []

    def add(self, path: str, message: str) -> None:
        self.items.append((path, message))


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def _idx(path: str, i: int) -> str:
    return f"{path}[{i}]"


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a number with a fraction"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "a table"
    return type(v).__name__


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _list_or_none(v: Any) -> list | None:
    return v if isinstance(v, list) else None


def _int_or_none(v: Any) -> int | None:
    return v if _is_int(v) else None


# ---------------------------------------------------------------------------------------------
# schema nodes
# ---------------------------------------------------------------------------------------------

class _Node:
    what = "a value"

    def accepts(self, v: Any) -> bool:  # the value has the right basic type
        return True

    def check(self, v: Any, path: str, f: _Faults) -> None:
        raise NotImplementedError


class _Int(_Node):
    """An integer of a kind of ``limits`` (its range fits the dtype that holds it), within
    ``lo..hi`` when given."""

    def __init__(self, kind: limits.Kind, lo: int | None = None, hi: int | None = None) -> None:
        self.kind, self.lo, self.hi = kind, lo, hi
        self.what = "an integer"

    def accepts(self, v: Any) -> bool:
        return _is_int(v)

    def check(self, v: Any, path: str, f: _Faults) -> None:
        msg = self.kind.fault(v, self.lo, self.hi)
        if msg is not None:
            f.add(path, msg + ".")


class _Num(_Node):
    """A number of a kind of ``limits`` (finite, in the kind's range)."""

    what = "a number"

    def __init__(self, kind: limits.Kind) -> None:
        self.kind = kind

    def accepts(self, v: Any) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool)

    def check(self, v: Any, path: str, f: _Faults) -> None:
        msg = self.kind.fault(v)
        if msg is not None:
            f.add(path, msg + ".")


class _Bool(_Node):
    what = "true or false"

    def accepts(self, v: Any) -> bool:
        return isinstance(v, bool)

    def check(self, v: Any, path: str, f: _Faults) -> None:
        if not isinstance(v, bool):
            f.add(path, f"must be true or false, not {_kind(v)}.")


class _Str(_Node):
    def __init__(self, choices: tuple[str, ...] | None = None, pattern: re.Pattern | None = None,
                 describe: str | None = None) -> None:
        self.choices, self.pattern, self.describe = choices, pattern, describe
        self.what = "a string"

    def accepts(self, v: Any) -> bool:
        return isinstance(v, str)

    def check(self, v: Any, path: str, f: _Faults) -> None:
        if not isinstance(v, str):
            f.add(path, f"must be a string, not {_kind(v)}.")
        elif self.choices is not None and v not in self.choices:
            f.add(path, f"'{v}' is not allowed here; use one of: {', '.join(self.choices)}.")
        elif self.pattern is not None and not self.pattern.match(v):
            f.add(path, f"'{v}' is not {self.describe or 'in the expected form'}.")


_CASE = _Str(pattern=_CASE_RE, describe='a rule case such as "8.8" or "18.21-18.22"')
_SNAKE = _Str(pattern=_CODE_RE, describe="a snake_case code (lower-case letters, digits and _)")
_TEXT = _Str()


class _Either(_Node):
    """The first node whose basic type fits checks the value."""

    def __init__(self, *nodes: _Node, what: str) -> None:
        self.nodes, self.what = nodes, what

    def accepts(self, v: Any) -> bool:
        return any(n.accepts(v) for n in self.nodes)

    def check(self, v: Any, path: str, f: _Faults) -> None:
        for n in self.nodes:
            if n.accepts(v):
                n.check(v, path, f)
                return
        f.add(path, f"must be {self.what}, not {_kind(v)}.")


class _Lit(_Node):
    def __init__(self, literal: str) -> None:
        self.literal = literal
        self.what = f'"{literal}"'

    def accepts(self, v: Any) -> bool:
        return isinstance(v, str)

    def check(self, v: Any, path: str, f: _Faults) -> None:
        if v != self.literal:
            f.add(path, f"'{v}' is not allowed here; only the string \"{self.literal}\" is.")


class _Arr(_Node):
    def __init__(self, item: _Node, length: int | None = None, min_len: int = 0,
                 length_why: str | None = None, extra: Callable | None = None) -> None:
        self.item, self.length, self.min_len = item, length, min_len
        self.length_why, self.extra = length_why, extra
        self.what = "an array"

    def accepts(self, v: Any) -> bool:
        return isinstance(v, list)

    def check(self, v: Any, path: str, f: _Faults) -> None:
        if not isinstance(v, list):
            f.add(path, f"must be an array, not {_kind(v)}.")
            return
        if self.length is not None and len(v) != self.length:
            why = f" {self.length_why}" if self.length_why else ""
            f.add(path, f"has {len(v)} {'entry' if len(v) == 1 else 'entries'}; "
                        f"it needs exactly {self.length}{why}.")
        elif len(v) < self.min_len:
            f.add(path, f"has {len(v)} entries; it needs at least {self.min_len}.")
        for i, item in enumerate(v):
            self.item.check(item, _idx(path, i), f)
        if self.extra is not None:
            self.extra(v, path, f)


class _Tbl(_Node):
    """A TOML table with known keys; unknown keys are faults unless ``values`` is given."""

    def __init__(self, required: dict[str, _Node] | None = None,
                 optional: dict[str, _Node] | None = None,
                 values: _Node | None = None,
                 extra: Callable[[dict, str, _Faults], None] | None = None) -> None:
        self.required = required or {}
        self.optional = optional or {}
        self.values, self.extra = values, extra
        self.what = "a table"

    def accepts(self, v: Any) -> bool:
        return isinstance(v, dict)

    def check(self, v: Any, path: str, f: _Faults) -> None:
        if not isinstance(v, dict):
            f.add(path, f"must be a table, not {_kind(v)}.")
            return
        for key in self.required:
            if key not in v:
                f.add(_join(path, key), f"required key '{key}' is missing from {path or 'the file'}.")
        allowed = {**self.required, **self.optional}
        for key, value in v.items():
            node = allowed.get(key, self.values)
            if node is None:
                f.add(_join(path, key),
                      f"unknown key '{key}' in {path or 'the file'}; the allowed keys are "
                      f"{', '.join(allowed)}.")
                continue
            node.check(value, _join(path, key), f)
        if self.extra is not None:
            self.extra(v, path, f)


def _rows(node: _Tbl, min_len: int = 1, extra: Callable | None = None) -> _Arr:
    return _Arr(node, min_len=min_len, extra=extra)


# ---------------------------------------------------------------------------------------------
# reusable checks
# ---------------------------------------------------------------------------------------------

def _check_die_list(v: list, path: str, f: _Faults) -> None:
    if all(_is_int(x) for x in v) and v != list(range(1, len(v) + 1)):
        f.add(path, f"die rolls must run 1, 2, 3 ... without gaps or repeats; found {v}.")


_DIE = _Arr(_Int(COUNT, 1), min_len=1, extra=_check_die_list)


def _check_rolls(v: list, path: str, f: _Faults) -> None:
    ints = [x for x in v if _is_int(x)]
    if len(ints) == len(v) and ints != sorted(set(ints)):
        f.add(path, f"die rolls must be listed once each in ascending order; found {v}.")


_ROLLS = _Arr(_Int(COUNT, 1, 6), extra=_check_rolls)


def _check_aligned(heading: str, *others: str) -> Callable[[dict, str, _Faults], None]:
    """Arrays ``others`` must have one entry per entry of array ``heading``."""

    def check(t: dict, path: str, f: _Faults) -> None:
        head = _list_or_none(t.get(heading))
        if head is None:
            return
        for key in others:
            arr = _list_or_none(t.get(key))
            if arr is not None and len(arr) != len(head):
                f.add(_join(path, key), f"has {len(arr)} entries; {heading} has {len(head)}, "
                                        f"and they must pair up one for one.")
    return check


def _check_bands(lo_key: str, hi_key: str, low: str, high: str,
                 code_key: str | None = None) -> Callable[[list, str, _Faults], None]:
    """Ordered, contiguous integer bands. ``low``/``high``: "must" / "may" / "never" be open."""

    def check(rows: list, path: str, f: _Faults) -> None:
        prev_hi: int | None = None
        prev_open = False
        seen: dict[str, int] = {}
        n = len(rows)
        for i, row in enumerate(rows):
            if not isinstance(row, dict):
                continue
            p = _idx(path, i)
            lo, hi = row.get(lo_key), row.get(hi_key)
            if (lo is not None and not _is_int(lo)) or (hi is not None and not _is_int(hi)):
                prev_hi, prev_open = None, False
                continue
            first, last = i == 0, i == n - 1
            # a missing key that is never optional is reported by the row's own table check
            if lo is None and low != "never" and not first:
                f.add(_join(p, lo_key), f"this band has no {lo_key}; only the lowest band may "
                                        f"leave it open.")
            if lo is not None and first and low == "must":
                f.add(_join(p, lo_key), f"the lowest band starts at {lo}, so lower values have no "
                                        f"band; omit {lo_key} to leave the low end open.")
            if hi is None and high != "never" and not last:
                f.add(_join(p, hi_key), f"this band has no {hi_key}; only the highest band may "
                                        f"leave it open.")
            if hi is not None and last and high == "must":
                f.add(_join(p, hi_key), f"the highest band ends at {hi}, so higher values have no "
                                        f"band; omit {hi_key} to leave the high end open.")
            if lo is not None and hi is not None and lo > hi:
                f.add(p, f"band runs from {lo} to {hi}: its {lo_key} is above its {hi_key}.")
            if i > 0 and lo is not None:
                if prev_open:
                    f.add(p, f"band starting at {lo} overlaps the band before it, which has no "
                             f"{hi_key} and so never ends.")
                elif prev_hi is not None and lo <= prev_hi:
                    f.add(p, f"band starting at {lo} overlaps the band before it, which ends at "
                             f"{prev_hi}.")
                elif prev_hi is not None and lo > prev_hi + 1:
                    f.add(p, f"there is a gap before this band: nothing covers {prev_hi + 1} to "
                             f"{lo - 1}.")
            prev_hi, prev_open = hi, hi is None
            if code_key is not None:
                code = row.get(code_key)
                if isinstance(code, str):
                    if code in seen:
                        f.add(_join(p, code_key), f"'{code}' is used twice, here and in band "
                                                  f"{seen[code]}.")
                    seen[code] = i
    return check


def _turn_bands(fields: dict[str, _Node], open_last: bool = True) -> _Arr:
    out = _rows(
        _Tbl(required={"first_turn": _Int(TURN), **fields}, optional={"last_turn": _Int(TURN)}),
        extra=_check_bands("first_turn", "last_turn", "never", "may" if open_last else "never"),
    )
    out.turn_schedule = True        # found by ``turn_schedule_ends``
    return out


def _check_unique(key: str) -> Callable[[list, str, _Faults], None]:
    def check(rows: list, path: str, f: _Faults) -> None:
        seen: dict[Any, int] = {}
        for i, row in enumerate(rows):
            if isinstance(row, dict) and isinstance(row.get(key), (str, int)):
                k = row[key]
                if k in seen:
                    f.add(_join(_idx(path, i), key), f"'{k}' is used twice, here and in row "
                                                     f"{seen[k]}.")
                else:
                    seen[k] = i
    return check


def _check_first_last(t: dict, path: str, f: _Faults) -> None:
    a, b = _int_or_none(t.get("first_turn")), _int_or_none(t.get("last_turn"))
    if a is not None and b is not None and a > b:
        f.add(path, f"first_turn {a} is after last_turn {b}.")


def _check_matrix(t: dict, path: str, f: _Faults, *, rows_key: str, results_key: str,
                  ncols: int | None, cols_what: str) -> None:
    """``results`` must have one row per entry of ``rows_key`` and ``ncols`` entries a row."""
    results = _list_or_none(t.get(results_key))
    row_heads = _list_or_none(t.get(rows_key))
    if results is None:
        return
    rp = _join(path, results_key)
    if row_heads is not None and len(results) != len(row_heads):
        f.add(rp, f"has {len(results)} rows; the {rows_key} list has {len(row_heads)}, and "
                  f"each needs one row.")
    if ncols is None:
        return
    for i, row in enumerate(results):
        if isinstance(row, list) and len(row) != ncols:
            f.add(_idx(rp, i), f"row has {len(row)} entries; the {cols_what} have {ncols} "
                               f"columns.")


def _ratio_value(s: str) -> float | None:
    m = _RATIO_RE.match(s) if isinstance(s, str) else None
    if not m or int(m.group(2)) == 0:
        return None
    return int(m.group(1)) / int(m.group(2))


# ---------------------------------------------------------------------------------------------
# GWE tables
# ---------------------------------------------------------------------------------------------

def _gwe_combat_code(v: Any, path: str, f: _Faults) -> None:
    if not isinstance(v, str):
        f.add(path, f"must be a combat code string, not {_kind(v)}.")
    elif v not in _GWE_COMBAT_FIXED and not _GWE_COMBAT_RE.match(v):
        f.add(path, f"'{v}' is not a known combat effect; use one of "
                    f"{', '.join(sorted(_GWE_COMBAT_FIXED))}, die_plus_N_if_any_across or "
                    f"die_plus_N_if_exclusively_across.")


class _GweCombat(_Node):
    what = "a combat code or an array of combat codes"

    def accepts(self, v: Any) -> bool:
        return isinstance(v, (str, list))

    def check(self, v: Any, path: str, f: _Faults) -> None:
        if isinstance(v, list):
            if not v:
                f.add(path, "is an empty array; give at least one combat code.")
            for i, x in enumerate(v):
                _gwe_combat_code(x, _idx(path, i), f)
        else:
            _gwe_combat_code(v, path, f)


_TCR4 = "(one per TCR 1 to 4)"


def _gwe_terrain_row_extra(t: dict, path: str, f: _Faults) -> None:
    how = [k for k in ("move", "move_add", "move_rule") if k in t]
    if len(how) != 1:
        f.add(path, "a terrain row needs exactly one of move, move_add or move_rule; it has "
                    f"{', '.join(how) if how else 'none'}.")
    if t.get("move_rule") == "see_case" and "move_see" not in t:
        f.add(_join(path, "move_see"), "move_rule is see_case, so move_see must name the case.")
    if "move_see" in t and t.get("move_rule") != "see_case":
        f.add(_join(path, "move_see"), "move_see is only used with move_rule = \"see_case\".")
    combat = t.get("combat")
    codes = combat if isinstance(combat, list) else [combat]
    if "see_case" in codes and "combat_see" not in t:
        f.add(_join(path, "combat_see"), "combat is see_case, so combat_see must name the case.")
    if "combat_see" in t and "see_case" not in codes:
        f.add(_join(path, "combat_see"), "combat_see is only used with combat = \"see_case\".")
    games = _list_or_none(t.get("games"))
    if games is not None and len(set(map(str, games))) != len(games):
        f.add(_join(path, "games"), "lists a game letter more than once.")


_GWE_TERRAIN_ROW = _Tbl(
    required={
        "kind": _Str(("hex", "hexside", "other")),
        "games": _Arr(_Str(_GAME_LETTERS), min_len=1),
        "combat": _GweCombat(),
    },
    optional={
        "move": _Arr(_Either(_Int(COUNT, 1), _Lit("P"), what='an integer or "P"'), length=4,
                     length_why=_TCR4),
        "move_add": _Arr(_Int(COUNT), length=4, length_why=_TCR4),
        "move_rule": _Str(("as_other_terrain", "see_case")),
        "move_see": _CASE,
        "combat_see": _CASE,
        "printed": _TEXT,
        "note": _TEXT,
    },
    extra=_gwe_terrain_row_extra,
)


class _TerrainTable(_Node):
    """``[terrain_effects]``: meta keys plus one sub-table per terrain name."""

    what = "a table"

    def __init__(self, meta: dict[str, _Node], row: _Tbl, required_rows: tuple[str, ...]) -> None:
        self.meta, self.row, self.required_rows = meta, row, required_rows

    def accepts(self, v: Any) -> bool:
        return isinstance(v, dict)

    def check(self, v: Any, path: str, f: _Faults) -> None:
        if not isinstance(v, dict):
            f.add(path, f"must be a table, not {_kind(v)}.")
            return
        if "case" not in v:
            f.add(_join(path, "case"), f"required key 'case' is missing from {path}.")
        for name in self.required_rows:
            if name not in v:
                f.add(_join(path, name), f"required terrain row '{name}' is missing; the printed "
                                         f"chart has it.")
        rows = 0
        for key, value in v.items():
            p = _join(path, key)
            if key in self.meta:
                self.meta[key].check(value, p, f)
            elif key in _TERRAIN_KIND:
                rows += 1
                self.row.check(value, p, f)
                kind = value.get("kind") if isinstance(value, dict) else None
                if isinstance(kind, str) and kind in ("hex", "hexside", "other") \
                        and kind != _TERRAIN_KIND[key]:
                    f.add(_join(p, "kind"), f"{key} is a {_TERRAIN_KIND[key]} terrain, not a "
                                            f"{kind}.")
            else:
                f.add(p, f"unknown key '{key}' in {path}; a terrain row must be named after one "
                         f"of: {', '.join(TERRAIN_NAMES)}.")
        if rows == 0:
            f.add(path, "has no terrain rows.")


def _crt_extra(t: dict, path: str, f: _Faults) -> None:
    odds = t.get("odds")
    ncols: int | None = None
    if isinstance(odds, dict):
        lengths = {k: len(r) for k, r in odds.items() if isinstance(r, list)}
        if lengths:
            first = next(iter(lengths))
            ncols = lengths[first]
            for k, n in lengths.items():
                if n != ncols:
                    f.add(_join(_join(path, "odds"), k),
                          f"odds row has {n} columns; odds row {first} has {ncols}, and all "
                          f"must match.")
        for k, r in odds.items():
            if not isinstance(r, list):
                continue
            vals = [_ratio_value(x) for x in r]
            if all(x is not None for x in vals) and any(b <= a for a, b in zip(vals, vals[1:])):
                f.add(_join(_join(path, "odds"), k),
                      "odds must rise strictly from left to right.")
    _check_matrix(t, path, f, rows_key="die", results_key="results", ncols=ncols,
                  cols_what="odds rows")


class _CrtResult(_Node):
    what = "a combat result"

    def accepts(self, v: Any) -> bool:
        return isinstance(v, str)

    def check(self, v: Any, path: str, f: _Faults) -> None:
        if not isinstance(v, str):
            f.add(path, f"must be a combat result string such as \"1/1\", not {_kind(v)}.")
        elif not _CRT_RESULT_RE.match(v):
            f.add(path, f"'{v}' is not a valid combat result; write attacker/defender with the "
                        f"attacker one of -, 1, 2 and the defender one of -, 1, 2, 3, E.")


_RATIO = _Str(pattern=_RATIO_RE, describe='a combat ratio such as "1-2" or "3-1"')
_ODDS_ROW = _Arr(_RATIO, min_len=1)

_GWE_CRT = _Tbl(
    required={
        "case": _CASE,
        "die": _DIE,
        "odds": _Tbl(required={"tcr1": _ODDS_ROW, "tcr23": _ODDS_ROW, "tcr4": _ODDS_ROW}),
        "results": _Arr(_Arr(_CrtResult(), min_len=1), min_len=1),
    },
    optional={
        "below_minimum": _Str(("prohibited", "use_first_column")),
        "above_maximum": _Str(("use_last_column", "prohibited")),
    },
    extra=_crt_extra,
)


def _option_row_extra(t: dict, path: str, f: _Faults) -> None:
    opts, text = _list_or_none(t.get("options")), _list_or_none(t.get("text"))
    if opts is not None and text is not None and len(opts) != len(text):
        f.add(_join(path, "text"), f"has {len(text)} entries; options has {len(opts)}, and each "
                                   f"option needs its printed text.")


def _option_rows(results: tuple[str, ...]) -> _Arr:
    return _rows(_Tbl(required={
        "result": _Str(results),
        "options": _Arr(_Str(_CRT_OPTION_CODES), min_len=1),
        "text": _Arr(_TEXT, min_len=1),
    }, extra=_option_row_extra), extra=_check_unique("result"))


_GWE_CRT_OPTIONS = _Tbl(required={
    "case": _CASE,
    "attacker": _option_rows(("1", "2")),
    "defender": _option_rows(("1", "2", "3", "E")),
})

_SIDES_TABLE = _Tbl(required={"russian": _Int(COUNT), "central_powers": _Int(COUNT)})


def _depot_extra(t: dict, path: str, f: _Faults) -> None:
    limits = t.get("max_per_turn")
    if not isinstance(limits, dict):
        return
    for side in ("russian", "central_powers"):
        cap = _int_or_none(limits.get(side))
        rows = _list_or_none(t.get(side))
        if cap is None or rows is None:
            continue
        for i, row in enumerate(rows):
            n = _int_or_none(row.get("depots")) if isinstance(row, dict) else None
            if n is not None and n > cap:
                f.add(_join(_idx(_join(path, side), i), "depots"),
                      f"{n} depots a turn is more than max_per_turn.{side} ({cap}).")


_GWE_DEPOTS = _Tbl(required={
    "case": _CASE,
    "max_per_turn": _SIDES_TABLE,
    "max_on_map": _SIDES_TABLE,
    "russian": _turn_bands({"depots": _Int(COUNT)}),
    "central_powers": _turn_bands({"depots": _Int(COUNT)}),
}, extra=_depot_extra)


def _step_table() -> _Tbl:
    return _Tbl(required={"case": _CASE, "band": _turn_bands({"rolls": _ROLLS})})


_VP_ROW = _Tbl(
    required={"vp": _Int(VP), "cause": _SNAKE, "text": _TEXT},
    optional={"first_turn": _Int(TURN), "last_turn": _Int(TURN), "scenario": _SNAKE,
              "rule": _CASE},
    extra=_check_first_last,
)
_VP_SCHEDULE = _Tbl(required={"case": _CASE, "row": _rows(_VP_ROW)})

_VICTORY_LEVELS = _Tbl(required={
    "case": _CASE,
    "band": _rows(
        _Tbl(required={"level": _SNAKE},
             optional={"min": _Int(VP_TOTAL), "max": _Int(VP_TOTAL), "text": _TEXT}),
        min_len=2,
        extra=_check_bands("min", "max", "must", "must", code_key="level"),
    ),
})


def _track_limits_extra(t: dict, path: str, f: _Faults) -> None:
    sides = _list_or_none(t.get("sides"))
    _check_matrix(t, path, f, rows_key="railroad", results_key="stacking_points",
                  ncols=len(sides) if sides is not None else None, cols_what="sides heading")


def _options_extra(rows: list, path: str, f: _Faults) -> None:
    _check_unique("code")(rows, path, f)
    codes = {r["code"] for r in rows if isinstance(r, dict) and isinstance(r.get("code"), str)}
    for i, row in enumerate(rows):
        if not isinstance(row, dict):
            continue
        for j, other in enumerate(_list_or_none(row.get("excludes")) or []):
            if isinstance(other, str) and other not in codes:
                f.add(_idx(_join(_idx(path, i), "excludes"), j),
                      f"'{other}' is not the code of any option in this table.")


def _breakdown_extra(t: dict, path: str, f: _Faults) -> None:
    safe = _int_or_none(t.get("safe_movement_points"))
    rows = _list_or_none(t.get("row")) or []
    prev = safe
    for i, row in enumerate(rows):
        mp = _int_or_none(row.get("movement_points")) if isinstance(row, dict) else None
        if mp is None:
            continue
        if prev is not None and mp <= prev:
            f.add(_join(_idx(_join(path, "row"), i), "movement_points"),
                  f"{mp} Movement Points must be above {prev}, the value before it.")
        prev = mp


GWE_TABLES: dict[str, tuple[str, _Node]] = {
    "about": ("", _Tbl(required={"game": _Str(("gwe",)), "title": _TEXT, "source": _TEXT})),
    "terrain_effects": ("5.4", _TerrainTable(
        {"case": _CASE, "cumulative": _Bool(), "note": _TEXT}, _GWE_TERRAIN_ROW,
        ("clear", "forest", "broken", "swamp", "rough", "ridge", "mountain", "town", "city",
         "trench", "minor_river", "major_river", "blocked", "lake", "sea", "rail", "fortress",
         "enemy_zoc", "entrain"))),
    "crt": ("8.8", _GWE_CRT),
    "crt_options": ("8.9", _GWE_CRT_OPTIONS),
    "stacking_points": ("6.11", _Tbl(required={
        "case": _CASE, "hq": _Int(COUNT), "regiment": _Int(COUNT), "brigade": _Int(COUNT),
        "division": _Int(COUNT), "corps": _Int(COUNT), "depot": _Int(COUNT),
        "armored_car": _Int(COUNT)})),
    "stacking": ("16.0", _Tbl(required={"case": _CASE, "max_points": _Int(COUNT, 1)},
                              optional={"living_off_land_max_points": _Int(COUNT)})),
    "tcr": ("17.0", _Tbl(required={
        "case": _CASE, "russian": _Int(COUNT, 1, 4), "austro_hungarian": _Int(COUNT, 1, 4),
        "german": _Int(COUNT, 1, 4),
        "joint_austro_german_crt_row": _Str(("tcr1", "tcr23", "tcr4"))})),
    "rail_capacity": ("18.21-18.22", _Tbl(required={
        "case": _CASE,
        "russian": _Tbl(required={"stacking_points": _Int(COUNT), "hexes": _Int(COUNT)}),
        "central_powers": _Tbl(required={"stacking_points": _Int(COUNT), "hexes": _Int(COUNT)})})),
    "track_limits": ("18.31", _Tbl(required={
        "case": _CASE, "optional": _Bool(),
        "sides": _Arr(_Str(("russian", "central_powers")), min_len=1),
        "railroad": _Arr(_Str(("single_track", "double_track")), min_len=1),
        "stacking_points": _Arr(_Arr(_Int(COUNT)), min_len=1)}, extra=_track_limits_extra)),
    "supply_range": ("19.1", _Tbl(required={
        "case": _CASE, "russian": _Int(COUNT), "austro_hungarian": _Int(COUNT),
        "german": _Int(COUNT)})),
    "massed_artillery": ("19.2", _Tbl(required={
        "case": _CASE, "range": _Int(COUNT), "multiplier": _Int(COUNT, 1),
        "defensive_use": _Arr(_Str(("russian", "central_powers")))})),
    "attrition": ("9.22", _Tbl(required={"case": _CASE, "rolls": _ROLLS})),
    "depots": ("20.21-20.23", _GWE_DEPOTS),
    "depots_attack_on_schedule": ("26.23", _GWE_DEPOTS),
    "step_replacement_austro_hungarian": ("22.11", _step_table()),
    "step_replacement_german": ("22.12", _step_table()),
    "step_replacement_russian": ("22.21", _step_table()),
    "step_replacement_austro_hungarian_attack_on_schedule": ("26.24", _step_table()),
    "step_replacement_russian_attack_on_schedule": ("26.24", _step_table()),
    "reduced_austro_hungarian_movement": ("23.52", _Tbl(required={
        "case": _CASE, "safe_hexes": _Int(COUNT), "safe_movement_points": _Int(COUNT),
        "panic_turn_rolls": _ROLLS, "later_rolls": _ROLLS})),
    "armored_car_breakdown": ("24.42", _Tbl(required={
        "case": _CASE, "safe_movement_points": _Int(COUNT),
        "row": _rows(_Tbl(required={"movement_points": _Int(COUNT, 1), "rolls": _ROLLS}))},
        extra=_breakdown_extra)),
    "vp_schedule": ("25.2", _VP_SCHEDULE),
    "victory_levels": ("25.3", _VICTORY_LEVELS),
    "option_vp_costs": ("26.31-26.34", _Tbl(required={
        "case": _CASE,
        "option": _rows(_Tbl(
            required={"rule": _CASE, "code": _SNAKE, "vp": _Int(VP), "text": _TEXT},
            optional={"per": _SNAKE, "excludes": _Arr(_SNAKE), "effects": _Tbl(optional={
                "sga_arrival_turn": _Int(TURN),
                **{k: _Int(COUNT) for k in (
                    "central_powers_reinforcement_delay", "russian_depots_per_turn",
                    "russian_max_depots_on_map", "russian_rail_capacity")}})}),
            extra=_options_extra)})),
}


def _gwe_cross(data: dict, f: _Faults) -> None:
    crt = data.get("crt") if isinstance(data.get("crt"), dict) else {}
    # every result used in the CRT must have its options in 8.9
    opts = data.get("crt_options") if isinstance(data.get("crt_options"), dict) else {}
    known: dict[str, set[str]] = {}
    for side in ("attacker", "defender"):
        rows = _list_or_none(opts.get(side))
        if rows is not None:
            known[side] = {r["result"] for r in rows
                           if isinstance(r, dict) and isinstance(r.get("result"), str)}
    results = _list_or_none(crt.get("results")) or []
    for i, row in enumerate(results):
        for j, cell in enumerate(_list_or_none(row) or []):
            m = _CRT_RESULT_RE.match(cell) if isinstance(cell, str) else None
            if not m:
                continue
            for side, code in zip(("attacker", "defender"), m.groups()):
                if code != "-" and side in known and code not in known[side]:
                    f.add(f"crt.results[{i}][{j}]",
                          f"the {side} result '{code}' has no row in crt_options.{side}.")


# ---------------------------------------------------------------------------------------------
# KB tables
# ---------------------------------------------------------------------------------------------

def _kb_terrain_row_extra(t: dict, path: str, f: _Faults) -> None:
    how = [k for k in ("move", "move_add") if k in t]
    if len(how) != 1:
        f.add(path, "a terrain row needs exactly one of move or move_add; it has "
                    f"{', '.join(how) if how else 'none'}.")
    mod, combat = t.get("die_mod"), t.get("combat")
    if not _is_int(mod) or not isinstance(combat, str):
        return
    if combat == "none":
        if mod != 0:
            f.add(_join(path, "combat"), f"is none but die_mod is {mod}; they must agree.")
        return
    if combat == "prohibited":
        return
    m = _KB_COMBAT_RE.match(combat)
    if not m:
        f.add(_join(path, "combat"), f"'{combat}' is not a known combat effect; use none, "
                                     f"prohibited, defender_die_plus_N or "
                                     f"defender_die_plus_N_if_solely_across.")
    elif int(m.group(1)) != mod:
        f.add(_join(path, "combat"), f"says plus {m.group(1)} but die_mod is {mod}; they must "
                                     f"agree.")
    elif m.group(2) and t.get("kind") == "hex":
        f.add(_join(path, "combat"), "only hexsides can be attacked solely across.")


_KB_TERRAIN_ROW = _Tbl(
    required={
        "kind": _Str(("hex", "hexside", "other")),
        "die_mod": _Int(MODIFIER, 0),
        "combat": _Str(),
    },
    optional={"move": _Int(COUNT, 1), "move_add": _Int(COUNT), "printed": _TEXT, "note": _TEXT},
    extra=_kb_terrain_row_extra,
)


def _kb_modifier_rows(rules: tuple[str, ...]) -> _Arr:
    def extra(t: dict, path: str, f: _Faults) -> None:
        how = [k for k in ("mod", "mod_rule") if k in t]
        if len(how) != 1:
            f.add(path, "a modifier row needs exactly one of mod or mod_rule; it has "
                        f"{', '.join(how) if how else 'none'}.")
    return _rows(_Tbl(required={"cause": _SNAKE, "text": _TEXT},
                      optional={"mod": _Int(MODIFIER), "mod_rule": _Str(rules), "rule": _CASE},
                      extra=extra), extra=_check_unique("cause"))


def _counter_battery_extra(t: dict, path: str, f: _Faults) -> None:
    cols = _list_or_none(t.get("artillery_points"))
    _check_matrix(t, path, f, rows_key="die", results_key="results",
                  ncols=len(cols) if cols is not None else None,
                  cols_what="artillery_points headings")
    mult = _int_or_none(t.get("allocation_multiple"))
    if cols is not None and all(_is_int(c) for c in cols):
        if cols != sorted(set(cols)):
            f.add(_join(path, "artillery_points"), "headings must rise from left to right.")
        if mult:
            for i, c in enumerate(cols):
                if c % mult:
                    f.add(_idx(_join(path, "artillery_points"), i),
                          f"{c} is not a multiple of allocation_multiple ({mult}).")


def _parse_range(s: str) -> tuple[int, int] | None:
    m = _RANGE_RE.match(s) if isinstance(s, str) else None
    if not m:
        return None
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) else lo
    return (lo, hi) if lo <= hi else None


def _drumfire_extra(t: dict, path: str, f: _Faults) -> None:
    sizes = _list_or_none(t.get("stacking_points"))
    heads = t.get("artillery_points")
    ncols: int | None = None
    ap = _join(path, "artillery_points")
    if isinstance(heads, dict) and sizes is not None:
        wanted = ["sp_" + s.replace("-", "_") for s in sizes if isinstance(s, str)]
        if list(heads) != wanted:
            f.add(ap, f"needs one heading row per stacking_points entry, in the same order: "
                      f"{', '.join(wanted)}.")
        lengths = [len(r) for r in heads.values() if isinstance(r, list)]
        if lengths:
            ncols = lengths[0]
        lo_ok, hi_ok = _int_or_none(t.get("min_points")), _int_or_none(t.get("max_points"))
        for key, row in heads.items():
            if not isinstance(row, list):
                continue
            if len(row) != ncols:
                f.add(_join(ap, key), f"heading row has {len(row)} columns; the first heading "
                                      f"row has {ncols}, and all must match.")
            prev_hi = None
            for j, cell in enumerate(row):
                if cell == "-":
                    continue
                r = _parse_range(cell)
                if r is None:
                    continue  # reported by the item check
                if prev_hi is not None and r[0] <= prev_hi:
                    f.add(_idx(_join(ap, key), j), f"'{cell}' overlaps or comes before the "
                                                   f"column to its left.")
                if (lo_ok is not None and r[0] < lo_ok) or (hi_ok is not None and r[1] > hi_ok):
                    f.add(_idx(_join(ap, key), j), f"'{cell}' lies outside min_points..max_points.")
                prev_hi = r[1]
    for i, s in enumerate(sizes or []):
        if isinstance(s, str) and _parse_range(s) is None:
            f.add(_idx(_join(path, "stacking_points"), i),
                  f"'{s}' is not a range of stacking points such as \"1-6\".")
    _check_matrix(t, path, f, rows_key="die", results_key="results", ncols=ncols,
                  cols_what="artillery point headings")


_AP_HEADING = _Str(pattern=re.compile(r"^(\d+(-\d+)?|-)$"),
                   describe='a number of points such as "4" or "2-3", or "-"')

_KB_AP_BAND = {"field": _Int(COUNT), "heavy": _Int(COUNT)}

KB_TABLES: dict[str, tuple[str, _Node]] = {
    "about": ("", _Tbl(required={"game": _Str(("kb",)), "title": _TEXT, "source": _TEXT})),
    "terrain_effects": ("5.32", _TerrainTable(
        {"case": _CASE, "cumulative": _Bool(), "note": _TEXT}, _KB_TERRAIN_ROW,
        ("clear", "woods", "hilltop", "town", "swamp", "redoubt", "fieldwork", "wire",
         "minor_river", "excavation"))),
    "stacking": ("7.0", _Tbl(required={"case": _CASE, "max_points": _Int(COUNT, 1)})),
    "stacking_points": ("7.1", _Tbl(required={
        "case": _CASE, "division": _Int(COUNT), "brigade": _Int(COUNT), "regiment": _Int(COUNT),
        "battalion": _Int(COUNT), "company": _Int(COUNT), "hq": _Int(COUNT)})),
    "steps": ("8.5", _Tbl(required={
        "case": _CASE, "division": _Int(COUNT, 1), "brigade": _Int(COUNT, 1),
        "regiment": _Int(COUNT, 1), "regimental_replacement": _Int(COUNT, 1),
        "battalion": _Int(COUNT, 1), "company": _Int(COUNT, 1),
        "hq": _Int(COUNT, 1)})),
    "attacker_die_modifiers": ("8.3", _Tbl(required={
        "case": _CASE, "cumulative": _Bool(),
        "row": _kb_modifier_rows(("per_artillery_point",))})),
    "defender_die_modifiers": ("8.4", _Tbl(required={
        "case": _CASE, "cumulative": _Bool(),
        "row": _kb_modifier_rows(("half_artillery_points", "terrain"))})),
    "advance_after_combat": ("8.83", _Tbl(required={
        "case": _CASE, "units": _Arr(_SNAKE, min_len=1),
        "die_multiplier": _Arr(_Num(MULTIPLIER)),
        "die_multiplier_turns_1_2": _Arr(_Num(MULTIPLIER))},
        extra=_check_aligned("units", "die_multiplier", "die_multiplier_turns_1_2"))),
    "artillery_points": ("9.81-9.82", _Tbl(required={
        "case": _CASE, "field_range_from_hq": _Int(COUNT),
        "german": _turn_bands(_KB_AP_BAND), "allied": _turn_bands(_KB_AP_BAND)})),
    "artillery_tracks": ("9.84-9.85", _Tbl(required={
        "case": _CASE,
        **{side: _Tbl(required={"first_box": _Int(COUNT), "last_box": _Int(COUNT),
                                "multipliers": _Arr(_Int(COUNT, 1), min_len=1)})
           for side in ("allied", "german")}})),
    "counter_battery": ("9.25", _Tbl(required={
        "case": _CASE, "first_turn": _Int(TURN), "allocation_multiple": _Int(COUNT, 1),
        "die": _DIE,
        "artillery_points": _Arr(_Int(COUNT, 1), min_len=1),
        "results": _Arr(_Arr(_Str(pattern=re.compile(r"^(-|All|[2-9])$"),
                                  describe='a counter-battery result: "-", a divisor 2 to 9, '
                                           'or "All"'), min_len=1), min_len=1)},
        extra=_counter_battery_extra)),
    "persistent_gas": ("9.3", _Tbl(required={
        "case": _CASE, "first_turn": _Int(TURN), "points_per_marker": _Int(COUNT, 1),
        "min_distance_from_friendly": _Int(COUNT), "markers": _Int(COUNT),
        "movement_multiplier": _Int(COUNT, 1), "step_loss_per_stack": _Int(COUNT),
        "removal_rolls": _ROLLS})),
    "drumfire_barrage": ("9.48", _Tbl(required={
        "case": _CASE, "min_points": _Int(COUNT, 1), "max_points": _Int(COUNT, 1),
        "turns": _Arr(_Int(TURN)),
        "stacking_points": _Arr(_Str(), min_len=1),
        "artillery_points": _Tbl(values=_Arr(_AP_HEADING, min_len=1)),
        "die": _DIE,
        "results": _Arr(_Arr(_Str(pattern=re.compile(r"^(-|[1-9]\d*)$"),
                                  describe='a drumfire result: "-" or a number'), min_len=1),
                        min_len=1)},
        extra=_drumfire_extra)),
    "barrage_limits": ("9.51-9.61", _Tbl(required={
        "case": _CASE, "weather": _Arr(_Str(_WEATHER), min_len=1),
        "rolling": _Arr(_Int(COUNT)), "rolling_observed": _Arr(_Int(COUNT)),
        "sos": _Arr(_Int(COUNT)),
        "rolling_die_per_point": _Int(COUNT), "sos_points_per_die": _Int(COUNT, 1)},
        extra=_check_aligned("weather", "rolling", "rolling_observed", "sos"))),
    "observation": ("9.72", _Tbl(required={
        "case": _CASE, "weather": _Arr(_Str(_WEATHER), min_len=1),
        "hilltop_range": _Arr(_Int(COUNT))}, extra=_check_aligned("weather", "hilltop_range"))),
    "weather": ("11.14", _Tbl(required={
        "case": _CASE, "first_turn": _Int(TURN), "automatic_fog_turns": _Arr(_Int(TURN)),
        "pm_modifier": _Int(MODIFIER), "pm_turns": _Arr(_Int(TURN)), "die": _DIE,
        "result": _Arr(_Str(_WEATHER), min_len=1)},
        extra=_check_aligned("die", "result"))),
    "air_points": ("12.0", _Tbl(required={
        "case": _CASE, "first_turn": _Int(TURN), "german": _Int(COUNT), "allied": _Int(COUNT),
        "weather": _Arr(_Str(_WEATHER), min_len=1),
        "available": _Arr(_Str(("all", "half", "none"))),
        "observation_max": _Str(("all", "half", "none")),
        "interception_divisor": _Int(COUNT, 1),
        "ground_attack_min_points": _Int(COUNT, 1), "ground_attack_max_points": _Int(COUNT, 1)},
        extra=_check_aligned("weather", "available"))),
    "supply_states": ("14.13-14.22", _Tbl(required={
        "case": _CASE,
        "isolated": _Tbl(required={"state": _SNAKE, "defender_die": _Int(MODIFIER, 0)}),
        "band": _rows(_Tbl(required={"state": _SNAKE, "defender_die": _Int(MODIFIER, 0)},
                           optional={"min": _Int(COUNT), "max": _Int(COUNT)}),
                      extra=_check_bands("min", "max", "may", "must", code_key="state"))})),
    "opening_movement": ("17.11-17.13", _Tbl(required={
        "case": _CASE, "german_turn_1": _SNAKE,
        "german_turn_2_extra_units_die_plus": _Int(MODIFIER),
        "allied_corps": _Arr(_Int(COUNT), length=2,
                             length_why="(17.13: the two corps, in the order they move)"), "allied_turn_1_die_plus": _Int(MODIFIER),
        "allied_turn_2_die_plus": _Int(MODIFIER)})),
    "service_companies": ("15.21", _Tbl(required={
        "case": _CASE, "first_turn": _Int(TURN), "die_multiplier": _Int(COUNT)})),
    "vp_schedule": ("20.1", _VP_SCHEDULE),
    "victory_levels": ("20.3", _VICTORY_LEVELS),
}


def _kb_cross(data: dict, f: _Faults) -> None:
    tracks = data.get("artillery_tracks")
    points = data.get("artillery_points")
    if isinstance(tracks, dict) and isinstance(points, dict):
        for side in ("allied", "german"):
            track = tracks.get(side)
            if not isinstance(track, dict):
                continue
            last = _int_or_none(track.get("last_box"))
            mults = _list_or_none(track.get("multipliers"))
            if last is None or mults is None or not all(_is_int(m) for m in mults):
                continue
            capacity = last * sum(mults)
            for i, band in enumerate(_list_or_none(points.get(side)) or []):
                if not isinstance(band, dict):
                    continue
                for kind in ("field", "heavy"):
                    n = _int_or_none(band.get(kind))
                    if n is not None and n > capacity:
                        f.add(f"artillery_points.{side}[{i}].{kind}",
                              f"{n} {kind} points do not fit the {side} artillery track, which "
                              f"holds at most {capacity}.")
    supply = data.get("supply_states")
    if isinstance(supply, dict):
        mods = [b.get("defender_die") for b in _list_or_none(supply.get("band")) or []
                if isinstance(b, dict)]
        iso = supply.get("isolated")
        if isinstance(iso, dict):
            mods.append(iso.get("defender_die"))
        if all(_is_int(m) for m in mods) and mods != sorted(mods):
            f.add("supply_states", "defender_die must not fall as the supply line gets longer "
                                   "(in supply, ..., isolated).")


# ---------------------------------------------------------------------------------------------
# entry point
# ---------------------------------------------------------------------------------------------

_SPECS: dict[str, tuple[dict[str, tuple[str, _Node]], Callable[[dict, _Faults], None]]] = {
    "gwe": (GWE_TABLES, _gwe_cross),
    "kb": (KB_TABLES, _kb_cross),
}


def turn_schedule_ends(game: str, data: dict) -> list[tuple[str, int | None]]:
    """Every schedule of Game-Turn bands in a sound tables file of ``game``, with the last
    Game-Turn it covers (None: its last band runs on for ever), e.g.
    ``("artillery_points.german", 10)``. A scenario may not outlast one."""
    out: list[tuple[str, int | None]] = []

    def walk(node: _Node, value: Any, path: str) -> None:
        if getattr(node, "turn_schedule", False) and isinstance(value, list) and value:
            last = value[-1]
            out.append((path, last.get("last_turn") if isinstance(last, dict) else None))
        elif isinstance(node, _Tbl) and isinstance(value, dict):
            for key, sub in {**node.required, **node.optional}.items():
                if key in value:
                    walk(sub, value[key], _join(path, key))

    tables, _ = _SPECS.get(game, ({}, None))
    for name, (_, node) in tables.items():
        if isinstance(data, dict) and name in data:
            walk(node, data[name], name)
    return out


def check_tables(game: str, data: dict) -> list[tuple[str, str]]:
    """Check the parsed ``tables.toml`` of ``game`` ("gwe" or "kb").

    Returns a list of ``(key_path, message)`` faults, one sentence each, empty when the file
    is sound. Key paths use dots for tables and ``[i]`` for array positions, counted from 0:
    ``"crt.results[3]"`` is the fourth results row of the combat results table.
    """
    f = _Faults()
    if game not in _SPECS:
        f.add("", f"unknown game '{game}'; use one of: {', '.join(GAMES)}.")
        return f.items
    if not isinstance(data, dict):
        f.add("", f"the tables file must be a TOML table, not {_kind(data)}.")
        return f.items
    tables, cross = _SPECS[game]
    for name, (case, _node) in tables.items():
        if name not in data:
            what = f" (case {case})" if case else ""
            f.add(name, f"required table '{name}'{what} is missing.")
    for name, value in data.items():
        if name not in tables:
            f.add(name, f"unknown table '{name}'; the {game} tables are: {', '.join(tables)}.")
            continue
        case, node = tables[name]
        node.check(value, name, f)
        if case and isinstance(value, dict) and isinstance(value.get("case"), str) \
                and _CASE_RE.match(value["case"]) and value["case"] != case:
            f.add(_join(name, "case"), f"case is '{value['case']}' but {name} transcribes "
                                       f"case {case}.")
    cross(data, f)
    return f.items
