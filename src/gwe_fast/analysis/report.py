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
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from gwe_fast.analysis.stats import mean_ci, paired_diff, wilson

GAME_COLUMNS = ("master_seed", "game_index", "result", "vp")
TURN_COLUMNS = ("master_seed", "game_index", "turn", "vp")
ERROR = "error"
SIDES = ("allied", "central")
MANIFEST = "sweep.json"


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
    """``(kind, columns, metadata)`` of a gwe_fast Parquet file; kind is "games" or "turns"."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if not path.exists():
        raise ReportError(f"{path} does not exist")
    if path.is_dir():
        raise ReportError(f"{path} is a folder")
    try:
        raw = pq.read_metadata(path).metadata or {}
    except (pa.ArrowInvalid, OSError) as exc:
        raise ReportError(f"{path} is not a Parquet file ({str(exc).rstrip('.')})") from None
    if b"gwe_fast" not in raw:
        raise ReportError(f"{path} is a Parquet file but not a gwe_fast results file (it has no "
                          f"gwe_fast metadata)")
    try:
        meta = json.loads(raw[b"gwe_fast"])
    except ValueError:
        raise ReportError(f"{path} has unreadable gwe_fast metadata") from None
    table = pq.read_table(path)
    names = set(table.column_names)
    if "result" in names:
        kind, need = "games", GAME_COLUMNS
    elif "turn" in names:
        kind, need = "turns", TURN_COLUMNS
    else:
        raise ReportError(f"{path} is neither a results file (no 'result' column) nor a "
                          f"per-turn file (no 'turn' column)")
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
                if f.name.endswith(".turns.parquet"):
                    loose_turns.append(f)
                else:
                    named.append((None, f, None))
        else:
            named.append((None, p, None))
    cells: list[CellData] = []
    for label, f, t in named:
        kind, cols, meta = _read(f)
        if kind == "turns":
            loose_turns.append(f)
            continue
        cells.append(CellData(label or f.stem, f, cols, meta))
        beside = f.parent / meta["per_turn"] if isinstance(meta.get("per_turn"), str) else None
        t = t or (beside if beside is not None and beside.exists() else None)
        if t is not None:
            _attach(cells[-1], t)
    if not cells:
        raise ReportError("no results file among the inputs (only per-turn files)")
    for t in loose_turns:
        if any(c.turns_path is not None and c.turns_path.resolve() == t.resolve()
               for c in cells):
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
    stem = turns.name[: -len(".turns.parquet")] if turns.name.endswith(".turns.parquet") \
        else turns.stem
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
    if kind != "turns":
        raise ReportError(f"{path} is a results file, not a per-turn file")
    if cell.turns is not None:
        raise ReportError(f"{cell.path} has two per-turn files ({cell.turns_path} and {path})")
    cell.turns, cell.turns_path = cols, path


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

    def _empty(self) -> bool:
        return self.n == 0 or math.isnan(self.value)

    def pct(self) -> str:
        """As a percentage (a difference in percentage points)."""
        if self._empty():
            return "—"
        if self.signed:
            return f"{100 * self.value:+.1f} pts [{_end(100 * self.low, 1, True)}, " \
                   f"{_end(100 * self.high, 1, True)}]"
        return f"{100 * self.value:.1f} % [{100 * self.low:.1f}, {100 * self.high:.1f}]"

    def num(self, digits: int = 2) -> str:
        if self._empty():
            return "—"
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
    n: int
    vp: Interval
    allied: Interval | None


def paired(cell: CellData, base: CellData) -> Paired:
    """``cell`` minus ``base`` over the games both finished with the same master seed and
    game index: mean VP difference and Allied win-rate difference, 95 % t intervals."""
    a, b = _keyed(cell), _keyed(base)
    common = sorted(set(a) & set(b))
    ra = np.array([a[k] for k in common], dtype=int)
    rb = np.array([b[k] for k in common], dtype=int)
    n = len(common)
    if n == 0:
        return Paired(0, Interval(math.nan, math.nan, math.nan, 0, signed=True), None)
    d, lo, hi = paired_diff(cell.games["vp"][ra].astype(float), base.games["vp"][rb].astype(float))
    vp = Interval(d, lo, hi, n, signed=True)
    allied = None
    if "winner" in cell.games and "winner" in base.games:
        def score(w):
            return np.where(w == "allied", 1.0, np.where(w == "draw", 0.5, 0.0))
        d, lo, hi = paired_diff(score(cell.games["winner"][ra]), score(base.games["winner"][rb]))
        allied = Interval(d, lo, hi, n, signed=True)
    return Paired(n, vp, allied)


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


def _table(head: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [head] + rows) for i in range(len(head))]
    line = lambda r: "  ".join(str(x).ljust(w) if i == 0 else str(x).rjust(w)  # noqa: E731
                               for i, (x, w) in enumerate(zip(r, widths))).rstrip()
    return "\n".join([line(head), line(["-" * w for w in widths])] + [line(r) for r in rows])


def tables(rep: Report) -> list[tuple[str, list[str], list[list[str]], str]]:
    """Every table of the report: ``(title, header, rows, note)``."""
    cells, out = rep.cells, []
    labels = [c.label for c in cells]
    rows = []
    for c in cells:
        meta = c.meta
        rows.append([c.label, c.path.name, c.scenario, str(len(c.games["result"])), str(c.errors),
                     ", ".join(sorted({str(int(s)) for s in c.games["master_seed"]})),
                     _short_json(c.games.get("options"), meta.get("options")),
                     _short_json(c.games.get("policies"), meta.get("policies"))])
    out.append(("Inputs", ["cell", "file", "scenario", "games", "errors", "master seed",
                           "options", "policies"], rows,
                "Statistics below are over finished games (errors excluded)."))
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
    if rep.baseline is not None and len(cells) > 1:
        rows = []
        for c in cells:
            if c is rep.baseline:
                continue
            p = paired(c, rep.baseline)
            rows.append([c.label, str(p.n), p.vp.num(),
                         p.allied.pct() if p.allied is not None else "—"])
        out.append((f"Paired differences against {rep.baseline.label!r}",
                    ["cell", "paired games", "Δ mean VP [95 %]", "Δ Allied win rate [95 %]"],
                    rows, "Cell minus baseline over the games both played with the same master "
                          "seed and game index (common random numbers); 95 % t intervals of "
                          "the mean paired difference."))
    return out


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
        parts.append(f"{title}\n{_table(head, rows)}\n({note})")
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


def _band(ax, cells, column, title):
    for j, c in enumerate(cells):
        if c.turns is None or column not in c.turns:
            continue
        b = turn_bands(c.turns, column)
        ax.fill_between(b["turn"], b["low"], b["high"], color=f"C{j % 10}", alpha=0.2)
        ax.plot(b["turn"], b["median"], color=f"C{j % 10}", label=c.label)
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("Game-Turn")
    ax.set_title(title, fontsize=10)


def plot_turn_vp(rep: Report, path: Path) -> Path:
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    _band(ax, rep.cells, "vp", "VP by Game-Turn: median and 10-90 % band")
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
img{max-width:100%;border:1px solid #eee;margin:.5em 0}"""


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
