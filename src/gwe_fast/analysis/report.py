"""Reports over results files: tables with intervals, paired differences, plots, HTML.

The input is any mix of results files written by ``gwe run`` / ``run_batch`` (one row per
game), their per-turn files, and folders of them; a folder written by ``gwe sweep`` is read
through its ``sweep.json`` (cell names, files, baseline). Every statistic is over the games
that finished (result other than ``"error"``); errors are counted apart.

* results by level of victory: share of games with its 95 % Wilson interval;
* the winner: Allied, Central Powers, draw shares with Wilson intervals;
* VP: mean with its 95 % t interval, standard deviation, range;
* paired differences against the baseline over the games both cells played with the same
  master seed and game index (common random numbers): mean VP difference and Allied win-rate
  difference (a draw counts half), each with its 95 % t interval;
* plots: results by level, VP histogram, and, when per-turn files exist, the median and the
  10-90 % band by Game-Turn of the VP and of the steps lost by each side.

Examples
--------
>>> import numpy as np
>>> band = turn_bands({"master_seed": np.array([0, 0, 0, 0]),
...                    "game_index": np.array([0, 0, 1, 1]), "turn": np.array([1, 1, 1, 1]),
...                    "vp": np.array([3, 5, 7, 9])}, "vp")
>>> band["turn"].tolist(), band["median"].tolist()
([1], [7.0])
"""

from __future__ import annotations

import base64
import html
import json
import math
import textwrap
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gwe_fast.analysis.stats import holm, mean_ci, paired_test, wilson

GAME_COLUMNS = ("master_seed", "game_index", "result", "vp")
TURN_COLUMNS = ("master_seed", "game_index", "turn", "vp")
TOWN_COLUMNS = ("master_seed", "game_index", "town", "taken", "held_at_end",
                "first_changed_turn")
ERROR = "error"
SIDES = ("allied", "central")
MANIFEST = "sweep.json"
_NUMERIC = __import__("re").compile(r"^([-+<]?[\d.]|—$|no game differs$|inf)")
WIDTH = 100                 #: the text report's lines are at most this long
MAX_COLUMN = 34             #: a wider column of the text report wraps its text
ALPHA = 0.05                #: the family-wise error rate of the adjusted comparisons
DOMINANT = 0.5              #: a VP cause above this share of the absolute VP is flagged


class ReportError(ValueError):
    """Input a report cannot be made from; the message is one sentence."""


class ReportWriteError(ReportError):
    """The report could not be written where it was asked for."""


@dataclass
class CellData:
    """One cell of a report: a results file, its rows, and its per-turn rows if any."""

    label: str
    path: Path
    games: dict[str, np.ndarray]
    meta: dict
    turns: dict[str, np.ndarray] | None = None
    turns_path: Path | None = None
    towns: dict[str, np.ndarray] | None = None
    towns_path: Path | None = None

    @property
    def scenario(self) -> str:
        s = self.games.get("scenario")
        return str(s[0]) if s is not None and len(s) else str(self.meta.get("scenario", "?"))

    @property
    def finished(self) -> np.ndarray:
        return self.games["result"] != ERROR

    @property
    def n(self) -> int:
        return int(self.finished.sum())

    @property
    def errors(self) -> int:
        return int((~self.finished).sum())

    def allied_score(self) -> np.ndarray | None:
        """Per finished game: 1 for an Allied win, 0.5 for a draw, 0 otherwise."""
        w = self.games.get("winner")
        if w is None:
            return None
        w = w[self.finished]
        return np.where(w == "allied", 1.0, np.where(w == "draw", 0.5, 0.0))


# --- reading --------------------------------------------------------------------------------

def _read(path: Path) -> tuple[str, dict[str, np.ndarray], dict]:
    """``(kind, columns, metadata)`` of a gwe_fast Parquet file; kind is "games" or "turns".

    The file's page checksums are verified, and a results file must hold each of its games
    once (``check_games``): a damaged file is one sentence naming it, never its numbers."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from gwe_fast.runner.parquet import RowsError, check_games, read_table

    if not path.exists():
        raise ReportError(f"{path} does not exist")
    if path.is_dir():
        raise ReportError(f"{path} is a folder")
    try:
        raw = pq.read_metadata(path).metadata or {}
    except (pa.ArrowException, OSError, ValueError, MemoryError) as exc:
        why = (str(exc).strip().splitlines() or [type(exc).__name__])[0].rstrip(".")
        raise ReportError(f"{path} is not a Parquet file ({why})") from None
    if b"gwe_fast" not in raw:
        raise ReportError(f"{path} is a Parquet file but not a gwe_fast results file (it has no "
                          f"gwe_fast metadata)")
    try:
        meta = json.loads(raw[b"gwe_fast"])
    except ValueError:
        meta = None
    if not isinstance(meta, dict):
        raise ReportError(f"{path} has unreadable gwe_fast metadata")
    try:
        table = read_table(path)
        if "result" in table.column_names and "game_index" in table.column_names:
            check_games(table.column("game_index").to_numpy(), path, meta)
    except RowsError as exc:
        raise ReportError(str(exc)) from None
    names = set(table.column_names)
    if "result" in names:
        kind, need = "games", GAME_COLUMNS
    elif "turn" in names:
        kind, need = "turns", TURN_COLUMNS
    elif "town" in names:
        kind, need = "towns", TOWN_COLUMNS
    else:
        raise ReportError(f"{path} is neither a results file (no 'result' column), a per-turn "
                          f"file (no 'turn' column) nor a town table (no 'town' column)")
    missing = [c for c in need if c not in names]
    if missing:
        raise ReportError(f"{path} lacks the column{'s' if len(missing) > 1 else ''} "
                          f"{', '.join(missing)} that a gwe_fast {kind} file has")
    cols = {}
    for name in table.column_names:
        col = table.column(name)
        if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
            cols[name] = np.array(col.to_pylist(), dtype=object)
        else:
            cols[name] = col.to_numpy()
    return kind, cols, meta


def _manifest_cells(folder: Path) -> tuple[list[tuple[str, Path, Path | None]], str | None]:
    try:
        m = json.loads((folder / MANIFEST).read_text())
        cells = m["cells"]
    except (OSError, ValueError, KeyError, TypeError):
        raise ReportError(f"{folder / MANIFEST} is not a readable sweep manifest") from None
    out = []
    for c in cells:
        f = folder / c["file"]
        if not f.exists():
            continue                      # a cell the sweep has not played yet
        t = folder / c["per_turn"] if c.get("per_turn") else None
        out.append((c["name"], f, t if t is not None and t.exists() else None))
    if not out:
        raise ReportError(f"the sweep in {folder} has no finished cell yet")
    return out, m.get("baseline")


def load_cells(paths: list[Path]) -> tuple[list[CellData], str | None]:
    """Read every input: files, folders of files, sweep folders. Returns the cells and the
    baseline a sweep manifest names (None when there is none or several)."""
    if not paths:
        raise ReportError("give at least one results file or folder")
    named: list[tuple[str | None, Path, Path | None]] = []
    loose_turns: list[Path] = []
    baselines = []
    for p in map(Path, paths):
        if not p.exists():
            raise ReportError(f"{p} does not exist")
        if p.is_dir():
            if (p / MANIFEST).exists():
                cells, base = _manifest_cells(p)
                named += cells
                baselines.append(base)
                continue
            files = sorted(p.glob("*.parquet"))
            if not files:
                raise ReportError(f"folder {p} holds no .parquet file")
            for f in files:
                if f.name.endswith((".turns.parquet", ".towns.parquet")):
                    loose_turns.append(f)
                else:
                    named.append((None, f, None))
        else:
            named.append((None, p, None))
    cells: list[CellData] = []
    for label, f, t in named:
        kind, cols, meta = _read(f)
        if kind in ("turns", "towns"):
            loose_turns.append(f)
            continue
        cells.append(CellData(label or f.stem, f, cols, meta))
        beside = f.parent / meta["per_turn"] if isinstance(meta.get("per_turn"), str) else None
        t = t or (beside if beside is not None and beside.exists() else None)
        if t is not None:
            _attach(cells[-1], t)
        towns = f.parent / meta["towns"] if isinstance(meta.get("towns"), str) else None
        if towns is not None and towns.exists():
            _attach(cells[-1], towns)
    if not cells:
        raise ReportError("no results file among the inputs (only per-turn files)")
    for t in loose_turns:
        if any(p is not None and p.resolve() == t.resolve()
               for c in cells for p in (c.turns_path, c.towns_path)):
            continue                          # already found beside its results file
        _attach(_owner(cells, t), t)
    labels = [c.label for c in cells]
    for c in cells:
        if labels.count(c.label) > 1:
            c.label = str(c.path)
    if len({c.label for c in cells}) < len(cells):
        raise ReportError("the same results file is given twice")
    return cells, (baselines[0] if len(baselines) == 1 else None)


def _owner(cells: list[CellData], turns: Path) -> CellData:
    """The results file a loose per-turn file belongs to: the one its metadata names
    (``games_file``), else ``X.parquet`` for ``X.turns.parquet``, else the only one."""
    from gwe_fast.runner.parquet import read_metadata

    try:
        games_file = read_metadata(turns).get("games_file")
    except ValueError:
        games_file = None
    for c in cells:
        if games_file and c.path.name == games_file and c.path.parent == turns.parent:
            return c
    stem = turns.stem
    for suffix in (".turns.parquet", ".towns.parquet"):
        if turns.name.endswith(suffix):
            stem = turns.name[: -len(suffix)]
    for c in cells:
        if c.path.stem == stem and c.path.parent == turns.parent:
            return c
    for c in cells:
        if c.path.stem == stem:
            return c
    if len(cells) == 1:
        return cells[0]
    raise ReportError(f"cannot tell which results file the per-turn file {turns} belongs to; "
                      f"name it after its results file (X.turns.parquet beside X.parquet)")


def _attach(cell: CellData, path: Path) -> None:
    kind, cols, _ = _read(path)
    if kind == "games":
        raise ReportError(f"{path} is a results file, not a per-turn file or town table")
    what = "per-turn files" if kind == "turns" else "town tables"
    if getattr(cell, kind) is not None:
        raise ReportError(f"{cell.path} has two {what} ({getattr(cell, kind + '_path')} and "
                          f"{path})")
    setattr(cell, kind, cols)
    setattr(cell, kind + "_path", path)


def choose_baseline(cells: list[CellData], baseline: str | None,
                    manifest_baseline: str | None) -> CellData | None:
    """The cell to compare against: the one named (label, file name or path), else the
    manifest's, else the first when all cells are of one scenario. One cell: no baseline."""
    if baseline is not None:
        for c in cells:
            if baseline in (c.label, c.path.name, c.path.stem, str(c.path)):
                return c
        raise ReportError(f"--baseline {baseline!r} names none of the inputs (cells: "
                          f"{', '.join(repr(c.label) for c in cells)})")
    if len(cells) == 1:
        return None
    if manifest_baseline is not None:
        for c in cells:
            if c.label == manifest_baseline:
                return c
    scenarios = sorted({c.scenario for c in cells})
    if len(scenarios) > 1:
        raise ReportError(f"the inputs hold different scenarios ({', '.join(scenarios)}); name "
                          f"the one to compare the others against with --baseline")
    return cells[0]


# --- statistics -----------------------------------------------------------------------------

def level_order(cells: list[CellData]) -> list[str]:
    """Every level of victory seen, in increasing order of the mean VP of its games (levels
    are VP bands, so this is the order of the victory table)."""
    vp: dict[str, list[float]] = {}
    for c in cells:
        ok = c.finished
        for level, v in zip(c.games["result"][ok], c.games["vp"][ok]):
            vp.setdefault(str(level), []).append(float(v))
    return sorted(vp, key=lambda k: (float(np.mean(vp[k])), k))


@dataclass
class Interval:
    """An estimate with its 95 % interval over ``n`` games; ``signed`` for a difference."""

    value: float
    low: float
    high: float
    n: int
    count: float | None = None
    signed: bool = False
    #: a paired difference over games that are all equal (every difference 0)
    no_difference: bool = False

    def _empty(self) -> bool:
        return self.n == 0 or math.isnan(self.value)

    def pct(self) -> str:
        """As a percentage (a difference in percentage points)."""
        if self._empty():
            return "—"
        if self.no_difference:
            return "no game differs"
        if self.signed:
            return f"{100 * self.value:+.1f} pts [{_end(100 * self.low, 1, True)}, " \
                   f"{_end(100 * self.high, 1, True)}]"
        return f"{100 * self.value:.1f} % [{100 * self.low:.1f}, {100 * self.high:.1f}]"

    def num(self, digits: int = 2) -> str:
        if self._empty():
            return "—"
        if self.no_difference:
            return "no game differs"
        v = f"{self.value:+.{digits}f}" if self.signed else f"{self.value:.{digits}f}"
        lo, hi = (_end(x, digits, self.signed) for x in (self.low, self.high))
        return f"{v} [{lo}, {hi}]"


def _end(x: float, digits: int, signed: bool) -> str:
    if math.isinf(x):
        return "-inf" if x < 0 else "inf"
    return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"


def share(count: float, n: int) -> Interval:
    lo, hi = wilson(count, n)
    return Interval(count / n if n else math.nan, lo, hi, n, count)


def level_shares(cell: CellData, levels: list[str]) -> dict[str, Interval]:
    res = cell.games["result"][cell.finished]
    return {lv: share(float(np.count_nonzero(res == lv)), cell.n) for lv in levels}


def winner_shares(cell: CellData) -> dict[str, Interval] | None:
    w = cell.games.get("winner")
    if w is None:
        return None
    w = w[cell.finished]
    return {s: share(float(np.count_nonzero(w == s)), cell.n) for s in ("allied", "central",
                                                                          "draw")}


def allied_rate(cell: CellData) -> Interval | None:
    score = cell.allied_score()
    return None if score is None else share(float(score.sum()), cell.n)


def vp_stats(cell: CellData) -> dict:
    v = cell.games["vp"][cell.finished].astype(float)
    if v.size == 0:
        return {"mean": Interval(math.nan, math.nan, math.nan, 0), "sd": math.nan,
                "min": math.nan, "max": math.nan, "median": math.nan}
    m, lo, hi = mean_ci(v)
    return {"mean": Interval(m, lo, hi, int(v.size)),
            "sd": float(v.std(ddof=1)) if v.size > 1 else math.nan,
            "min": float(v.min()), "max": float(v.max()), "median": float(np.median(v))}


def _keyed(cell: CellData) -> dict[tuple[int, int], int]:
    """Row of each finished game by ``(master_seed, game_index)``."""
    seeds, idx, ok = cell.games["master_seed"], cell.games["game_index"], cell.finished
    return {(int(s), int(i)): r for r, (s, i) in enumerate(zip(seeds, idx)) if ok[r]}


@dataclass
class Paired:
    """A cell against the baseline: ``vp`` and ``allied`` are the 95 % intervals; ``vp_p``,
    ``allied_p`` the p-values of the t test of no difference; ``vp_adj``, ``allied_adj`` the
    intervals and ``vp_holm``, ``allied_holm`` the p-values adjusted for the family of
    comparisons (``adjust_family``)."""

    n: int
    vp: Interval
    allied: Interval | None
    vp_p: float = math.nan
    allied_p: float = math.nan
    vp_adj: Interval | None = None
    allied_adj: Interval | None = None
    vp_holm: float = math.nan
    allied_holm: float = math.nan
    pairs: tuple = ()


def _allied_points(w: np.ndarray) -> np.ndarray:
    return np.where(w == "allied", 1.0, np.where(w == "draw", 0.5, 0.0))


def _diff(a: np.ndarray, b: np.ndarray, n: int, level: float = 0.95) -> tuple[Interval, float]:
    d, lo, hi, p = paired_test(a, b, level)
    same = bool(np.all(a == b)) and n > 0
    return Interval(d, lo, hi, n, signed=True, no_difference=same), p


def paired(cell: CellData, base: CellData) -> Paired:
    """``cell`` minus ``base`` over the games both finished with the same master seed and
    game index: mean VP difference and Allied win-rate difference, 95 % t intervals and the
    p-values of the paired t test."""
    a, b = _keyed(cell), _keyed(base)
    common = sorted(set(a) & set(b))
    ra = np.array([a[k] for k in common], dtype=int)
    rb = np.array([b[k] for k in common], dtype=int)
    n = len(common)
    if n == 0:
        return Paired(0, Interval(math.nan, math.nan, math.nan, 0, signed=True), None)
    va, vb = cell.games["vp"][ra].astype(float), base.games["vp"][rb].astype(float)
    vp, vp_p = _diff(va, vb, n)
    allied, allied_p, pairs = None, math.nan, [(va, vb)]
    if "winner" in cell.games and "winner" in base.games:
        wa = _allied_points(cell.games["winner"][ra])
        wb = _allied_points(base.games["winner"][rb])
        allied, allied_p = _diff(wa, wb, n)
        pairs.append((wa, wb))
    return Paired(n, vp, allied, vp_p, allied_p, pairs=tuple(pairs))


def adjust_family(found: list[Paired], alpha: float = ALPHA) -> int:
    """Adjust every comparison of ``found`` (the VP and the Allied win rate of each cell) for
    the family they make: Holm's step-down p-values (family-wise error rate ``alpha``) and
    Bonferroni intervals (each at level ``1 - alpha / m``, together covering all ``m`` true
    differences at ``1 - alpha``). Returns ``m``, the size of the family."""
    tests = [(p, "vp") for p in found if p.n] + [(p, "allied") for p in found
                                                  if p.n and p.allied is not None]
    m = len(tests)
    if not m:
        return 0
    adjusted = holm([getattr(p, f"{what}_p") for p, what in tests])
    level = 1 - alpha / m
    for (p, what), q in zip(tests, adjusted):
        setattr(p, f"{what}_holm", q)
        a, b = p.pairs[0 if what == "vp" else 1]
        setattr(p, f"{what}_adj", _diff(a, b, p.n, level)[0])
    return m


def _p(x: float) -> str:
    if x is None or math.isnan(x):
        return "—"
    return "<0.001" if x < 0.001 else f"{x:.3f}"


def turn_bands(turns: dict[str, np.ndarray], column: str) -> dict[str, np.ndarray]:
    """Median and 10-90 % band of ``column`` by Game-Turn, over games, taking each game's last
    row of the turn (the position at the end of the Game-Turn)."""
    seed, game, turn = turns["master_seed"], turns["game_index"], turns["turn"]
    order = np.lexsort((np.arange(turn.size), turn, game, seed))   # stable: file order last
    s, g, t = seed[order], game[order], turn[order]
    last = np.ones(order.size, dtype=bool)
    last[:-1] = (s[1:] != s[:-1]) | (g[1:] != g[:-1]) | (t[1:] != t[:-1])
    rows = order[last]
    values, tt = turns[column][rows].astype(float), turn[rows]
    out_t = np.unique(tt)
    q = [np.percentile(values[tt == x], [10, 50, 90]) for x in out_t]
    q = np.array(q).reshape(-1, 3)
    return {"turn": out_t, "low": q[:, 0], "median": q[:, 1], "high": q[:, 2],
            "games": np.array([int((tt == x).sum()) for x in out_t])}


# --- the report -----------------------------------------------------------------------------

@dataclass
class Report:
    cells: list[CellData]
    baseline: CellData | None
    levels: list[str]
    text: str = ""
    html_path: Path | None = None
    images: list[Path] = field(default_factory=list)


def _table(head: list[str], rows: list[list[str]], width: int = WIDTH) -> str:
    """A text table at most ``width`` columns wide: a column wider than ``MAX_COLUMN`` wraps
    its text over several lines, and columns that still do not fit go on to a further block,
    which repeats the first column."""
    data = [[str(x) for x in r] for r in [head] + rows]
    natural = [max(len(r[i]) for r in data) for i in range(len(head))]
    widths = [min(MAX_COLUMN, w) for w in natural]
    widths[0] = min(widths[0], width // 3)
    spare = width - sum(widths) - 2 * (len(widths) - 1)
    for i, w in enumerate(natural):              # room left: unwrap the wrapped columns
        if spare > 0 and w > widths[i]:
            more = min(spare, w - widths[i])
            widths[i] += more
            spare -= more
    numeric = [bool(rows) and all(_NUMERIC.match(r[i]) for r in data[1:])
               for i in range(len(head))]
    groups: list[list[int]] = [[]]
    used = widths[0]
    for i in range(1, len(head)):
        if groups[-1] and used + 2 + widths[i] > width:
            groups.append([])
            used = widths[0]
        groups[-1].append(i)
        used += 2 + widths[i]

    def lines(row: list[str], idx: list[int]) -> list[str]:
        cells = [textwrap.wrap(row[i], widths[i], break_on_hyphens=False) or [""] for i in idx]
        out = []
        for k in range(max(len(c) for c in cells)):
            parts = [(c[k] if k < len(c) else "") for c in cells]
            out.append("  ".join(x.rjust(widths[i]) if j and numeric[i] else x.ljust(widths[i])
                                 for j, (x, i) in enumerate(zip(parts, idx))).rstrip())
        return out

    blocks = []
    for idx in ([0] + g for g in groups):
        text = lines(data[0], idx) + ["  ".join("-" * widths[i] for i in idx)]
        for r in data[1:]:
            text += lines(r, idx)
        blocks.append("\n".join(text))
    return "\n\n".join(blocks)


def tables(rep: Report) -> list[tuple[str, list[str], list[list[str]], str]]:
    """Every table of the report: ``(title, header, rows, note)``."""
    cells, out = rep.cells, []
    labels = [c.label for c in cells]
    rows = []
    for c in cells:
        meta = c.meta
        rows.append([c.label, c.path.name, c.scenario, str(len(c.games["result"])), str(c.errors),
                     ", ".join(sorted({str(int(s)) for s in c.games["master_seed"]})),
                     overrides(c),
                     _short_json(c.games.get("policies"), meta.get("policies"))])
    out.append(("Inputs", ["cell", "file", "scenario", "games", "errors", "master seed",
                           "options changed", "policies"], rows,
                "Statistics below are over finished games (errors excluded). 'options "
                "changed': the options whose value differs from the scenario's default "
                "('defaults': none does)."))
    lacks = [[c.label, str(c.meta.get("format_version", "?")), "; ".join(what)]
             for c in cells for what in [lacking(c)] if what]
    if lacks:
        out.append(("What the inputs lack", ["cell", "results format", "left out"], lacks,
                    "Files written before a column or table existed (results format 2, such as "
                    "the committed results/balance/, or format 3 before the town table) are "
                    "reported without it."))
    shares = {c.label: level_shares(c, rep.levels) for c in cells}
    rows = [[lv] + [shares[c.label][lv].pct() for c in cells] for lv in rep.levels]
    out.append(("Results by level of victory", ["level"] + labels, rows,
                "Share of finished games, 95 % Wilson interval; levels in increasing order of "
                "their mean VP."))
    ws = {c.label: winner_shares(c) for c in cells}
    if all(w is not None for w in ws.values()):
        rows = [[side] + [ws[c.label][side].pct() for c in cells]
                for side in ("allied", "central", "draw")
                if any(ws[c.label][side].count for c in cells)]
        rows.append(["allied win rate"] + [allied_rate(c).pct() for c in cells])
        out.append(("Winner", ["winner"] + labels, rows,
                    "95 % Wilson intervals; the Allied win rate counts a draw as half a win."))
    rows = []
    for c in cells:
        v = vp_stats(c)
        rows.append([c.label, str(c.n), v["mean"].num(), _f(v["sd"]), _f(v["median"], 1),
                     f"{_f(v['min'], 0)} .. {_f(v['max'], 0)}"])
    out.append(("Victory points", ["cell", "games", "mean VP [95 % t]", "sd", "median", "range"],
                rows, "Final VP total of each finished game; the interval is Student's t."))
    out.extend(cause_tables(cells))
    if rep.baseline is not None and len(cells) > 1:
        found = [(c, paired(c, rep.baseline)) for c in cells if c is not rep.baseline]
        m = adjust_family([p for _, p in found])
        rows = []
        for c, p in found:
            adj = [p.vp_adj.num() if p.vp_adj else "—", _p(p.vp_holm)]
            if p.allied is not None:
                adj_a = [p.allied_adj.pct() if p.allied_adj else "—", _p(p.allied_holm)]
            else:
                adj_a = ["—", "—"]
            rows.append([c.label, str(p.n), p.vp.num(), *adj,
                         p.allied.pct() if p.allied is not None else "—", *adj_a])
        out.append((f"Paired differences against {rep.baseline.label!r}",
                    ["cell", "paired games", "Δ mean VP [95 %]", "Δ VP [adjusted]",
                     "p (Holm)", "Δ Allied win rate [95 %]", "Δ win rate [adjusted]",
                     "p (Holm)"],
                    rows, "Cell minus baseline over the games both played with the same master "
                          "seed and game index (common random numbers); 95 % t intervals of "
                          f"the mean paired difference. The {m} comparisons of this table are "
                          f"one family: 'p (Holm)' is the p-value of the paired t test adjusted "
                          f"by Holm's step-down method (family-wise error rate "
                          f"{ALPHA:.0%}); '[adjusted]' is the Bonferroni interval (each at "
                          f"{100 * (1 - ALPHA / max(m, 1)):.2f} %, all {m} together at "
                          f"{1 - ALPHA:.0%}). Call a difference measured only when its Holm "
                          f"p-value is below {ALPHA}. 'no game differs': every pair of games "
                          f"ended alike."))
    out.extend(turn_tables(cells))
    out.extend(town_tables(cells))
    out.extend(loss_tables(cells))
    return out


# --- what a designer asks: ended-now VP, towns, causes, losses against history ----------

_SCENARIOS: dict[str, object] = {}


def scenario_of(cell: CellData):
    """The cell's scenario, loaded with its defaults (for option defaults and ``history``);
    None when it cannot be loaded (a scenario file moved away, another version's data)."""
    key = cell.scenario
    if key not in _SCENARIOS:
        from gwe_fast import load_scenario

        try:
            _SCENARIOS[key] = load_scenario(key)
        except Exception:  # noqa: BLE001 - the report goes on without what it would give
            _SCENARIOS[key] = None
    return _SCENARIOS[key]


def overrides(cell: CellData) -> str:
    """The cell's options that differ from its scenario's defaults (``defaults`` if none),
    or every option when the scenario cannot be loaded."""
    col = cell.games.get("options")
    values = sorted({str(x) for x in col}) if col is not None and len(col) else []
    if len(values) > 1:
        return f"{len(values)} different"
    try:
        opts = json.loads(values[0]) if values else cell.meta.get("options")
    except ValueError:
        return values[0]
    if not isinstance(opts, dict):
        return "?"
    sc = scenario_of(cell)
    if sc is None:
        return ", ".join(f"{k}={_v(v)}" for k, v in opts.items()) or "defaults"
    default = dict(sc.options)
    changed = {k: v for k, v in opts.items() if k not in default or default[k] != v}
    return ", ".join(f"{k}={_v(v)}" for k, v in changed.items()) or "defaults"


def ended_now(cell: CellData) -> tuple[np.ndarray | None, str]:
    """The per-turn VP if the game ended then, and how it was found: the per-turn file's
    ``vp_if_ended_now``, or, in a Brusilov file of format 3 written before that column,
    ``vp`` plus ``towns_vp_allied`` (25.11, the only points the end of that game adds). A
    format 2 file has none (None, and the reason)."""
    t = cell.turns
    if t is None:
        return None, "no per-turn file"
    if "vp_if_ended_now" in t:
        return t["vp_if_ended_now"], ""
    if "towns_vp_allied" in t:
        return t["vp"] + t["towns_vp_allied"], "ended-now VP derived as vp + towns_vp_allied"
    return None, "no vp_if_ended_now: only the running VP by Game-Turn"


def lacking(cell: CellData) -> list[str]:
    """What the report leaves out for this cell because its files lack it."""
    out = []
    if cell.turns is None:
        out.append("no per-turn file: no VP by Game-Turn")
    else:
        v, how = ended_now(cell)
        if v is None or how:
            out.append(how)
    if cell.towns is None and cell.turns is not None:
        out.append("no town table (<stem>.towns.parquet): no town statistics")
    if not any(k.startswith("vp_") for k in cell.games):
        out.append("no vp_* columns: no VP by cause")
    return out


def vp_causes(cell: CellData) -> dict[str, tuple[float, float]]:
    """Per VP cause (the ``vp_*`` columns): its mean over finished games and its share of the
    absolute VP (the sum over games and causes of the points' sizes, whatever their sign)."""
    ok = cell.finished
    cols = {k[3:]: cell.games[k][ok].astype(float) for k in cell.games if k.startswith("vp_")}
    total = sum(float(np.abs(v).sum()) for v in cols.values())
    return {k: (float(v.mean()) if v.size else math.nan,
                float(np.abs(v).sum()) / total if total else 0.0) for k, v in cols.items()}


def cause_tables(cells: list[CellData]) -> list[tuple]:
    causes: dict[str, dict[str, tuple[float, float]]] = {c.label: vp_causes(c) for c in cells}
    names = list(dict.fromkeys(k for c in cells for k in causes[c.label]))
    if not names:
        return []
    rows, flags = [], []
    for k in names:
        row = [k.replace("_", " ")]
        for c in cells:
            got = causes[c.label].get(k)
            if got is None:
                row.append("—")
                continue
            mean, share = got
            mark = ", dominates" if share > DOMINANT else ""
            row.append(f"{mean:+.1f} ({100 * share:.0f} %{mark})")
            if share > DOMINANT:
                flags.append(f"in {c.label!r} {k.replace('_', ' ')} makes {100 * share:.0f} % "
                             f"of the absolute VP")
        rows.append(row)
    note = ("Mean VP of each cause per game, and its share of the absolute VP (the points of "
            "every cause counted whatever their sign). ")
    if flags:
        note += ("One cause dominates the score (over half of it): " + "; ".join(flags)
                 + ". The result then says more about that cause than about the rest of the "
                   "game.")
    else:
        note += "No cause makes over half of the absolute VP."
    return [("VP by cause", ["cause"] + [c.label for c in cells], rows, note)]


def turn_tables(cells: list[CellData]) -> list[tuple]:
    """Median running VP and ended-now VP by Game-Turn, per cell with a per-turn file."""
    have = [c for c in cells if c.turns is not None]
    if not have:
        return []
    series = {}
    for c in have:
        running = turn_bands(c.turns, "vp")
        now, _ = ended_now(c)
        ended = turn_bands({**c.turns, "_now": now}, "_now") if now is not None else None
        series[c.label] = (running, ended)
    turns = sorted({int(t) for r, _ in series.values() for t in r["turn"]})
    rows = []
    for t in turns:
        row = [str(t)]
        for c in have:
            running, ended = series[c.label]
            k = np.flatnonzero(running["turn"] == t)
            run = _f(float(running["median"][k[0]]), 1) if k.size else "—"
            if ended is not None and k.size:
                row.append(f"{run} / {_f(float(ended['median'][k[0]]), 1)}")
            else:
                row.append(f"{run} / —")
        rows.append(row)
    return [("VP by Game-Turn", ["turn"] + [c.label for c in have], rows,
             "Median over games at the end of each Game-Turn: the running VP (points scored so "
             "far) / the VP if the game ended then (the running VP and every point the end of "
             "the game adds: towns 25.11 in the Brusilov Offensive; towns 20.11 and Allied "
             "units in trench hexes 20.13 in The Kaiser's Battle). The last Game-Turn's ended-"
             "now VP is the final score.")]


def town_stats(cell: CellData) -> dict[str, dict]:
    """Per town: its value, the share of finished games in which it changed hands and in
    which it was held at the end by its taker (Wilson intervals), and the median Game-Turn it
    first changed hands in the games it did."""
    t = cell.towns
    ok = set(_keyed(cell))
    keep = np.array([(int(s), int(g)) in ok for s, g in zip(t["master_seed"], t["game_index"])],
                    dtype=bool)
    out: dict[str, dict] = {}
    n = len(ok)
    names = t["town"][keep]
    for name in dict.fromkeys(names.tolist()):
        m = names == name
        taken = t["taken"][keep][m].astype(bool)
        held = t["held_at_end"][keep][m].astype(bool)
        first = t["first_changed_turn"][keep][m][taken]
        value = int(t["value"][keep][m][0]) if "value" in t else 0
        out[name] = {"value": value, "taken": share(float(taken.sum()), n),
                     "held": share(float(held.sum()), n),
                     "median_turn": float(np.median(first)) if first.size else math.nan}
    return out


def _history_turn(th) -> str:
    if th is None:
        return "—"
    if th.outcome == "never":
        return "never"
    if th.outcome == "after":
        return f"after the game ({th.date})" if th.date else "after the game"
    a, b = th.turns if th.turns else (None, None)
    text = "?" if a is None else (str(a) if a == b else f"{a}-{b}")
    return text + (f", retaken {th.retaken}" if th.retaken is not None else "")


def town_tables(cells: list[CellData]) -> list[tuple]:
    have = [c for c in cells if c.towns is not None]
    if not have:
        return []
    stats = {c.label: town_stats(c) for c in have}
    sc = scenario_of(have[0])
    history = getattr(sc, "history", None)
    names = list(dict.fromkeys(k for c in have for k in stats[c.label]))
    shown = [k for k in names if any(stats[c.label].get(k, {}).get("taken", Interval(
        0, 0, 0, 0, 0)).count for c in have) or (history and history.town(k))]
    value = {k: next(stats[c.label][k]["value"] for c in have if k in stats[c.label])
             for k in names}
    shown.sort(key=lambda k: (-value[k], k))
    rows = []
    for k in shown:
        row = [k, str(value[k]), _history_turn(history.town(k) if history else None)]
        for c in have:
            st = stats[c.label].get(k)
            if st is None:
                row.append("—")
                continue
            turn = "—" if math.isnan(st["median_turn"]) else f"{st['median_turn']:g}"
            row.append(f"{100 * st['taken'].value:.0f} % / {100 * st['held'].value:.0f} % / "
                       f"{turn}")
        rows.append(row)
    left = len(names) - len(shown)
    note = ("Per town: the share of games in which it changed hands (taken), the share in which "
            "its taker held it at the end (held), and the median Game-Turn it first changed "
            "hands in the games it did; 'history' is the Game-Turn it changed hands in the real "
            "campaign (the scenario's [history] table, its sources in the scenario file). "
            "Towns in order of value.")
    if left:
        note += f" {left} town{'s' if left > 1 else ''} never taken and without history left out."
    if history is None:
        note += " The scenario has no [history] table."
    head = ["town", "VP", "history"] + [f"{c.label}: taken / held / turn" for c in have]
    return [("Towns", head, rows, note)]


def _ratio_ci(num: np.ndarray, den: np.ndarray, seed: int = 0) -> tuple[float, float, float]:
    """The ratio of the means ``num / den`` with a 95 % percentile bootstrap interval over
    games (2000 resamples, a fixed seed: the same input gives the same interval)."""
    num, den = np.asarray(num, dtype=float), np.asarray(den, dtype=float)
    if not num.size or den.sum() == 0:
        return math.nan, math.nan, math.nan
    r = float(num.mean() / den.mean())
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, num.size, size=(2000, num.size))
    d = den[idx].mean(axis=1)
    boot = np.where(d > 0, num[idx].mean(axis=1) / np.where(d > 0, d, 1), np.inf)
    # order statistics, not interpolation: a resample with no allied loss is an infinite
    # ratio, and inf - inf between two of them is no number (a tiny run of a few games)
    lo = np.percentile(boot, 2.5, method="lower")
    hi = np.percentile(boot, 97.5, method="higher")
    return r, float(lo), float(hi)


def loss_tables(cells: list[CellData]) -> list[tuple]:
    rows = []
    for c in cells:
        g, ok = c.games, c.finished
        for what, cols in (("SP eliminated", ("sp_lost_central", "sp_lost_allied")),
                           ("steps lost", ("steps_lost_central_", "steps_lost_allied_"))):
            if what == "steps lost":
                parts = [[k for k in g if k.startswith(p)] for p in cols]
                if not all(parts):
                    continue
                cen = sum(g[k][ok].astype(float) for k in parts[0])
                al = sum(g[k][ok].astype(float) for k in parts[1])
            else:
                if not all(k in g for k in cols):
                    continue
                cen, al = g[cols[0]][ok].astype(float), g[cols[1]][ok].astype(float)
            r, lo, hi = _ratio_ci(cen, al)
            ratio = "—" if math.isnan(r) else f"{r:.2f} [{_end(lo, 2, False)}, {_end(hi, 2, False)}]"
            rows.append([f"{c.label}: {what}", f"{cen.mean():.1f}",
                         f"{al.mean():.1f}", ratio, "the game"])
    sc = scenario_of(cells[0])
    history = getattr(sc, "history", None)
    periods: dict[tuple, dict[str, object]] = {}
    if history is not None and history.losses:
        for x in history.losses:
            periods.setdefault(x.turns, {})[x.side] = x
        for turns, by in periods.items():
            cen, al = by.get("central"), by.get("allied")

            def men(x):
                if x is None:
                    return "—"
                return f"{x.low:,}" if x.low == x.high else f"{x.low:,}-{x.high:,}"
            ratio = "—"
            if cen is not None and al is not None and al.low > 0:
                lo, hi = cen.low / al.high, cen.high / al.low
                ratio = f"{cen.low / al.low:.2f}" if lo == hi else f"{lo:.2f}-{hi:.2f}"
            period = (cen or al).period
            what = "; ".join(f"{x.side}: {x.what} ({x.confidence} confidence)"
                             for x in (cen, al) if x is not None)
            rows.append([f"history, {period}: {what}", men(cen), men(al), ratio,
                         f"Game-Turns {turns[0]}-{turns[1]}"])
    if not rows:
        return []
    note = ("Losses of the Central Powers (the Germans) against those of the Allies (the "
            "Russians; the British and French): the game's mean per game over finished games "
            "(SP eliminated: stacking points of the units eliminated; steps lost: all causes), "
            "the ratio of the means with a 95 % bootstrap interval; below, the historical "
            "figures of the scenario's [history] table, in men, with their ratio where the "
            "sources give both sides for the same period (a range when a figure is a range). "
            "Stacking points and men are not the same unit: compare the ratios, not the "
            "numbers.")
    if history is None:
        note += " The scenario has no [history] table."
    elif not any(len(by) == 2 for by in periods.values()):
        note += (" The scenario's sources give no figures of both sides for the same period, "
                 "so there is no historical ratio to set beside the game's.")
    return [("Losses against history", ["what", "central", "allied", "central : allied",
                                          "period"], rows, note)]


def _f(x: float, digits: int = 2) -> str:
    return "—" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def _short_json(col, meta_value) -> str:
    if col is not None and len(col):
        values = sorted({str(x) for x in col})
        if len(values) == 1:
            try:
                d = json.loads(values[0])
            except ValueError:
                return values[0]
            return ", ".join(f"{k}={_v(v)}" for k, v in d.items()) if isinstance(d, dict) \
                else str(d)
        return f"{len(values)} different"
    if isinstance(meta_value, dict):
        return ", ".join(f"{k}={_v(v)}" for k, v in meta_value.items())
    return "?"


def _v(v) -> str:
    return str(v).lower() if isinstance(v, bool) else str(v)


def text_report(rep: Report) -> str:
    parts = []
    for title, head, rows, note in tables(rep):
        parts.append(f"{title}\n{_table(head, rows)}\n{textwrap.fill(f'({note})', WIDTH)}")
    return "\n\n".join(parts) + "\n"


# --- plots ----------------------------------------------------------------------------------

def _figure(w: float, h: float):
    from matplotlib.figure import Figure

    return Figure(figsize=(w, h), dpi=100, layout="constrained")


def plot_results(rep: Report, path: Path) -> Path:
    fig = _figure(max(6.0, 1.2 * len(rep.levels) + 2), 4.2)
    ax = fig.add_subplot()
    k = len(rep.cells)
    width = 0.8 / k
    x = np.arange(len(rep.levels))
    for j, c in enumerate(rep.cells):
        sh = level_shares(c, rep.levels)
        v = np.array([sh[lv].value for lv in rep.levels]) * 100
        lo = np.array([sh[lv].low for lv in rep.levels]) * 100
        hi = np.array([sh[lv].high for lv in rep.levels]) * 100
        ax.bar(x - 0.4 + width * (j + 0.5), v, width, label=c.label, color=f"C{j % 10}",
               yerr=[np.clip(v - lo, 0, None), np.clip(hi - v, 0, None)], capsize=2,
               error_kw={"elinewidth": 0.8})
    ax.set_xticks(x, [lv.replace("_", " ") for lv in rep.levels], rotation=20, ha="right",
                  fontsize=8)
    ax.set_ylabel("share of games (%)")
    ax.set_title("Results by level of victory (95 % Wilson intervals)")
    ax.legend(fontsize=8)
    fig.savefig(path)
    return path


def plot_vp(rep: Report, path: Path) -> Path:
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    allv = np.concatenate([c.games["vp"][c.finished] for c in rep.cells]).astype(float)
    if allv.size:
        lo, hi = math.floor(allv.min()), math.ceil(allv.max())
        most = max(c.n for c in rep.cells)
        bins = min(60, max(10, math.ceil(2 * most ** (1 / 3))))    # Rice's rule, bounded
        step = max(1, math.ceil((hi - lo + 1) / bins))
        bins = np.arange(lo - 0.5, hi + step + 0.5, step)
        for j, c in enumerate(rep.cells):
            v = c.games["vp"][c.finished].astype(float)
            ax.hist(v, bins=bins, histtype="step", linewidth=1.5, color=f"C{j % 10}",
                    label=f"{c.label} (mean {v.mean():.1f})" if v.size else c.label)
    from matplotlib.ticker import MaxNLocator

    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("final VP")
    ax.set_ylabel("games")
    ax.set_title("VP distribution")
    ax.legend(fontsize=8)
    fig.savefig(path)
    return path


def _band(ax, cells, column, title, ended=False):
    for j, c in enumerate(cells):
        if c.turns is None or column not in c.turns:
            continue
        b = turn_bands(c.turns, column)
        now = ended_now(c)[0] if ended else None
        if now is not None:           # the ended-now VP, banded; the running VP dashed
            e = turn_bands({**c.turns, "_now": now}, "_now")
            ax.fill_between(e["turn"], e["low"], e["high"], color=f"C{j % 10}", alpha=0.2)
            ax.plot(e["turn"], e["median"], color=f"C{j % 10}",
                    label=f"{c.label}: if the game ended then")
            ax.plot(b["turn"], b["median"], color=f"C{j % 10}", linestyle="--",
                    label=f"{c.label}: running")
            continue
        ax.fill_between(b["turn"], b["low"], b["high"], color=f"C{j % 10}", alpha=0.2)
        ax.plot(b["turn"], b["median"], color=f"C{j % 10}", label=c.label)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("Game-Turn")
    ax.set_title(title, fontsize=10)


def plot_turn_vp(rep: Report, path: Path) -> Path:
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    _band(ax, rep.cells, "vp", "VP by Game-Turn if the game ended then (solid, 10-90 % band) "
                               "and running (dashed): medians", ended=True)
    ax.set_ylabel("VP")
    ax.legend(fontsize=8)
    fig.savefig(path)
    return path


def plot_turn_losses(rep: Report, path: Path) -> Path:
    fig = _figure(10, 4)
    axes = fig.subplots(1, 2, sharey=True)
    for ax, side in zip(axes, SIDES):
        _band(ax, rep.cells, f"steps_lost_{side}",
              f"Steps lost by the {side.capitalize()} side (cumulative): median, 10-90 %")
    axes[0].set_ylabel("steps lost")
    axes[0].legend(fontsize=8)
    fig.savefig(path)
    return path


# --- HTML -----------------------------------------------------------------------------------

_CSS = """body{font-family:system-ui,sans-serif;margin:2em auto;max-width:72em;color:#222}
table{border-collapse:collapse;margin:.5em 0 .3em}td,th{border:1px solid #ccc;padding:.25em .6em}
th{background:#f0f0f0}td{text-align:right;font-variant-numeric:tabular-nums}
td:first-child,th:first-child{text-align:left}p.note{color:#555;font-size:.9em;margin-top:0}
img{max-width:100%;border:1px solid #eee;margin:.5em 0}
table{display:block;overflow-x:auto;max-width:100%}"""


def _html(rep: Report, images: list[tuple[str, Path]]) -> str:
    h = html.escape
    body = [f"<h1>gwe_fast report</h1><p>{len(rep.cells)} cell(s); baseline: "
            f"{h(rep.baseline.label) if rep.baseline else 'none'}.</p>"]
    for title, head, rows, note in tables(rep):
        body.append(f"<h2>{h(title)}</h2><table><tr>" + "".join(f"<th>{h(x)}</th>" for x in head)
                    + "</tr>" + "".join("<tr>" + "".join(f"<td>{h(str(x))}</td>" for x in r)
                                        + "</tr>" for r in rows) + f"</table><p class=note>"
                    f"{h(note)}</p>")
    if images:
        body.append("<h2>Plots</h2>")
    for title, p in images:
        data = base64.b64encode(p.read_bytes()).decode("ascii")
        body.append(f"<h3>{h(title)}</h3><img alt=\"{h(title)}\" src=\"data:image/png;base64,"
                    f"{data}\">")
    return (f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>gwe_fast report"
            f"</title><style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n")


def default_out(inputs: list[Path]) -> Path:
    """Where ``gwe report`` writes without ``--out``: ``results/reports/<name>``, named after
    the first input (a folder's name, a file's stem), a git-ignored folder of the user's own,
    so that a report of a committed study never overwrites the committed report.

    >>> str(default_out([Path("results/sweeps/sga_early")]))
    'results/reports/sga_early'
    >>> str(default_out([Path("results/a.parquet"), Path("results/b.parquet")]))
    'results/reports/a-and-1-more'
    """
    first = Path(inputs[0])
    name = first.name if first.is_dir() or not first.suffix else first.name.split(".")[0]
    if len(inputs) > 1:
        name += f"-and-{len(inputs) - 1}-more"
    return Path("results") / "reports" / (name or "report")


def build_report(paths: list[Path], baseline: str | None = None,
                 out: Path | None = None) -> Report:
    """Read the inputs, compute the tables, draw the plots and write ``out/report.html``
    (PNG files beside it, also embedded in the page). ``out`` None: tables only."""
    cells, manifest_base = load_cells([Path(p) for p in paths])
    base = choose_baseline(cells, baseline, manifest_base)
    if base is not None:                         # the baseline first, in tables and plots
        cells = [base] + [c for c in cells if c is not base]
    rep = Report(cells, base, level_order(cells))
    rep.text = text_report(rep)
    if out is None:
        return rep
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        images = [("Results by level of victory", plot_results(rep, out / "results.png")),
                  ("VP distribution", plot_vp(rep, out / "vp_histogram.png"))]
        if any(c.turns is not None for c in cells):
            images.append(("VP by Game-Turn", plot_turn_vp(rep, out / "turn_vp.png")))
            if any(c.turns is not None and "steps_lost_allied" in c.turns for c in cells):
                images.append(("Losses by Game-Turn",
                               plot_turn_losses(rep, out / "turn_losses.png")))
        rep.images = [p for _, p in images]
        rep.html_path = out / "report.html"
        rep.html_path.write_text(_html(rep, images), encoding="utf-8")
    except OSError as exc:
        raise ReportWriteError(f"cannot write the report to {out}: {exc.strerror or exc}"
                               ) from None
    return rep
