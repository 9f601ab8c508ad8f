"""Calibration: the value of one scenario knob that makes the game even at a given strength.

``gwe calibrate SCENARIO --knob KNOB --policy SPEC`` answers the designer's first question:
what victory line, option cost or town value makes this scenario even (or gives the Allied
side any other win rate) when both sides play at that strength, and how sure is that?

Knobs (``parse_knob``):

* ``victory_line``: the VP total from which the side whose score it is wins (the Russian VP
  in The Great War in the East, 25.3; the German VP in The Kaiser's Battle, 20.3). It does
  not change play, so one batch of games gives the answer: the line ``L`` at which the
  Allied win rate (``VP >= L`` or ``VP < L``) is nearest the target;
* ``option:NAME``: the VP cost of a scenario option (its ``vp``, 26.3), the option on;
* ``town:NAME``: the victory points of a town (a ``[[place]]``'s ``vp``, 25.11);
* ``schedule:CAUSE``: a row of the victory point schedule (``vp_schedule``, 25.2, 20.1), e.g.
  ``schedule:german_unit_exited`` (20.12) or ``schedule:town_west_of_vp_line`` (20.11, every
  town of The Kaiser's Battle at once).

The last three can change play (the policies price towns and Victory Points), so the games
are replayed at each value tried, on the same seeds (common random numbers: game ``i`` of
every value has the same dice). The search is a bisection on the integers of ``[low,
high]``: the two ends, then the middle of the bracket in which the Allied win rate crosses
the target, until the bracket is two neighbouring values. The estimate is the crossing,
interpolated linearly between them, and the value nearer the target; the **interval** is
every value around the crossing whose 95 % Wilson interval of the win rate contains the
target: the values at which "the game is even" is not rejected at the 5 % level (the test
inverted), found by trying the neighbours outward until that fails. For the victory line the
same interval is read off every line at once. docs/sweeps.md, "Calibration", says more.

Each value's games go to ``OUT/<value>.parquet`` (its scenario under ``OUT/scenarios/``), so
an interrupted calibration run again goes on where it stopped, and ``calibration.json``
records every value tried.

Examples
--------
>>> import numpy as np
>>> vp = np.array([20, 25, 28, 30, 31, 33, 35, 40])
>>> r = even_line(vp, "allied", 0.5)
>>> r.best, r.interval
(31, (26, 35))
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from gwe_fast.analysis.stats import wilson
from gwe_fast.scenario.model import Scenario

KINDS = ("victory_line", "option", "town", "schedule")
FORMAT_VERSION = 1


class CalibrateError(ValueError):
    """A calibration that cannot be run: one sentence saying what and where."""


@dataclass(frozen=True)
class Knob:
    """One scenario value to calibrate. ``path`` is its scenario path (``sweep.parse_path``
    form; None for the victory line, which is not replayed), ``current`` its value in the
    scenario, ``low``/``high`` the default range searched, ``options`` the scenario options
    it needs on (an option's cost counts only with the option on)."""

    kind: str
    name: str
    path: str | None
    current: int
    low: int
    high: int
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def label(self) -> str:
        return self.kind if self.kind == "victory_line" else f"{self.kind}:{self.name}"


def _vp_for(scenario: Scenario) -> str:
    from gwe_fast.games import driver

    return getattr(driver(scenario.game), "VP_FOR", "allied")


def band_winner(game: str, level: str) -> str:
    """Who wins at a level of victory: The Great War in the East's Russian levels and The
    Kaiser's Battle's Allied levels are the Allied side's."""
    if game == "kb":
        from gwe_fast.games.kb.victory import winner

        return winner(level)
    return "allied" if level.startswith("russian") else "central"


def victory_line(scenario: Scenario) -> int:
    """The VP total from which the side whose score the VP are wins (the lowest band of its
    levels); ``CalibrateError`` when the bands do not split at one line."""
    vp_for = _vp_for(scenario)
    bands = scenario.tables["victory_levels"]["band"]
    wins = [band_winner(scenario.game, b["level"]) == vp_for for b in bands]
    if not any(wins) or all(wins) or wins != sorted(wins):
        raise CalibrateError(f"the victory levels of {scenario.key} do not split at one line "
                             f"(the {vp_for} side's levels must all lie above the others)")
    first = wins.index(True)
    return int(bands[first].get("min", -10**9))


def parse_knob(scenario: Scenario, text: str) -> Knob:
    """The knob ``text`` names in ``scenario`` (module docstring), or ``CalibrateError``."""
    kind, _, name = text.strip().partition(":")
    if kind not in KINDS:
        raise CalibrateError(f"--knob {text!r} is not one of victory_line, option:NAME, "
                             f"town:NAME or schedule:CAUSE")
    if kind == "victory_line":
        if name:
            raise CalibrateError(f"--knob {text!r}: victory_line takes no name")
        line = victory_line(scenario)
        return Knob(kind, "", None, line, line, line)
    if not name:
        raise CalibrateError(f"--knob {text!r} needs a name ({kind}:NAME)")
    if kind == "option":
        spec = scenario.option_specs.get(name)
        if spec is None:
            known = ", ".join(scenario.option_specs) or "none"
            raise CalibrateError(f"--knob {text!r}: scenario {scenario.key} has no option "
                                 f"{name!r} (options: {known})")
        if not isinstance(spec.default, bool):
            raise CalibrateError(f"--knob {text!r}: option {name!r} is not an on/off option, "
                                 f"so it has no VP cost to calibrate")
        cur = int(spec.vp)
        return Knob(kind, name, f"options.{name}.vp", cur, cur - 20, cur + 20,
                    ((name, True),))
    if kind == "town":
        if scenario.game == "kb":
            raise CalibrateError(f"--knob {text!r}: The Kaiser's Battle scores every town "
                                 f"west of the VP line alike (20.11); calibrate "
                                 f"schedule:town_west_of_vp_line instead")
        index = _place_index(scenario, name)
        cur = int(next(p.vp for p in scenario.places if p.name == name))
        return Knob(kind, name, f"map.place[{index}].vp", cur, 0, max(10, 3 * cur))
    rows = scenario.tables.get("vp_schedule", {}).get("row", [])
    for i, row in enumerate(rows):
        if row.get("cause") == name:
            cur = int(row["vp"])
            low, high = (0, max(6, 3 * cur)) if cur >= 0 else (min(-6, 3 * cur), 0)
            return Knob(kind, name, f"tables.vp_schedule.row[{i}].vp", cur, low, high)
    causes = ", ".join(str(r.get("cause")) for r in rows) or "none"
    raise CalibrateError(f"--knob {text!r}: the victory point schedule of {scenario.key} has "
                         f"no cause {name!r} (causes: {causes})")


def _place_index(scenario: Scenario, name: str) -> int:
    places = scenario.raw["map"].get("place", [])
    hits = [i for i, p in enumerate(places) if isinstance(p, dict) and p.get("name") == name]
    if len(hits) != 1:
        known = sorted(p.name for p in scenario.places if p.vp > 0)
        raise CalibrateError(f"--knob town:{name}: scenario {scenario.key} has no town "
                             f"{name!r} (towns with points: {', '.join(known)})")
    return hits[0]


# --- outcomes and the search --------------------------------------------------------------

@dataclass
class Outcome:
    """The games of one value: ``n`` finished (errors left out), the Allied ``wins`` (a draw
    half), their mean VP; ``low``/``high`` the Wilson 95 % interval of the win rate."""

    value: int | None          # None: the scenario as it is (the victory line's batch)
    n: int
    wins: float
    mean_vp: float
    errors: int = 0

    @property
    def rate(self) -> float:
        return self.wins / self.n if self.n else math.nan

    @property
    def ci(self) -> tuple[float, float]:
        return wilson(self.wins, self.n)

    def holds(self, target: float) -> bool:
        """Whether "the Allied win rate is ``target``" is not rejected (its interval holds it)."""
        lo, hi = self.ci
        return lo <= target <= hi


@dataclass
class Result:
    """What a calibration found. ``best``: the value whose win rate is nearest the target;
    ``estimate``: the crossing interpolated between the bracket's ends (None when the target
    lies outside the range); ``bracket``: the two neighbouring values between which the
    win rate crosses the target; ``interval``: the values around it at which an even game is
    not rejected (``Outcome.holds``), or the bracket when none is; ``found``: whether the
    range holds the target at all."""

    knob: str
    target: float
    best: int | None
    estimate: float | None
    bracket: tuple[int, int] | None
    interval: tuple[int, int] | None
    found: bool
    tried: list[Outcome] = field(default_factory=list)
    note: str = ""


def _side(o: Outcome, target: float) -> int:
    return 0 if o.rate == target else (1 if o.rate > target else -1)


def find_even(evaluate: Callable[[int], Outcome], low: int, high: int,
              target: float = 0.5, knob: str = "") -> Result:
    """Bisection for the integer value of ``[low, high]`` at which the Allied win rate
    (``evaluate(value)``) crosses ``target``, and the interval of values at which it is not
    told apart from the target (module docstring). Each value is evaluated once."""
    if high <= low:
        raise CalibrateError(f"the range [{low}, {high}] must have its low end below its high end")
    seen: dict[int, Outcome] = {}

    def ev(v: int) -> Outcome:
        if v not in seen:
            seen[v] = evaluate(v)
        return seen[v]

    a, b = ev(low), ev(high)
    sa, sb = _side(a, target), _side(b, target)
    tried = lambda: [seen[v] for v in sorted(seen)]  # noqa: E731
    if sa == sb and sa != 0:
        best = min(seen.values(), key=lambda o: (abs(o.rate - target), o.value))
        return Result(knob, target, best.value, None, None, None, False, tried(),
                      f"the Allied win rate is {a.rate:.2f} at {low} and {b.rate:.2f} at "
                      f"{high}: no value of the range makes it {target:.2f}")
    lo, hi = low, high
    while hi - lo > 1 and _side(seen[lo], target) != 0 and _side(seen[hi], target) != 0:
        mid = (lo + hi) // 2
        sm = _side(ev(mid), target)
        if sm == 0:
            lo = hi = mid
        elif sm == _side(seen[lo], target):
            lo = mid
        else:
            hi = mid
    for v in (lo, hi):
        if _side(seen[v], target) == 0:
            lo = hi = v
    if lo == hi:
        estimate = float(lo)
    else:
        ra, rb = seen[lo].rate, seen[hi].rate
        estimate = lo + (target - ra) / (rb - ra) * (hi - lo) if rb != ra else (lo + hi) / 2
    best = min((seen[lo], seen[hi]), key=lambda o: (abs(o.rate - target), o.value))
    # the interval: outward from the bracket while the target stays inside the win rate's
    # interval (values already tried are not played again)
    left, right = lo, hi
    while left - 1 >= low and ev(left - 1).holds(target):
        left -= 1
    while right + 1 <= high and ev(right + 1).holds(target):
        right += 1
    inside = [v for v in range(left, right + 1) if seen[v].holds(target)]
    interval = (min(inside), max(inside)) if inside else (lo, hi)
    note = "" if inside else ("no value's win rate has the target inside its interval: the "
                              "win rate jumps across it between the bracket's ends")
    return Result(knob, target, best.value, estimate, (lo, hi), interval, True, tried(), note)


def even_line(vp: np.ndarray, vp_for: str, target: float = 0.5) -> Result:
    """The victory line that brings the Allied win rate nearest ``target``, from final VP
    totals (the line does not change play). At line ``L`` the side whose score the VP are
    wins when ``VP >= L``; the Allied win rate is that share for ``vp_for = "allied"``, the
    rest for ``"central"``. The interval: every line whose Wilson interval holds the target.
    """
    vp = np.sort(np.asarray(vp, dtype=np.int64))
    n = int(vp.size)
    if n == 0:
        raise CalibrateError("no finished game to calibrate the victory line on")
    outcomes = []
    for line in range(int(vp[0]), int(vp[-1]) + 2):
        above = float((vp >= line).sum())
        wins = above if vp_for == "allied" else n - above
        outcomes.append(Outcome(line, n, wins, math.nan))      # the games are the same
    best = min(outcomes, key=lambda o: (abs(o.rate - target), o.value))
    inside = [o.value for o in outcomes if o.holds(target)]
    lo_side = [o for o in outcomes if _side(o, target) == _side(outcomes[0], target)]
    found = _side(outcomes[0], target) != _side(outcomes[-1], target)
    if not found:
        return Result("victory_line", target, best.value, None, None, None, False, outcomes,
                      "no victory line gives that win rate")
    a = lo_side[-1].value
    bracket = (a, a + 1)
    ra, rb = outcomes[a - outcomes[0].value].rate, outcomes[a + 1 - outcomes[0].value].rate
    estimate = a + (target - ra) / (rb - ra) if rb != ra else a + 0.5
    if best.rate == target:
        estimate = float(best.value)
    interval = (min(inside), max(inside)) if inside else bracket
    return Result("victory_line", target, best.value, estimate, bracket, interval, True,
                  outcomes, "" if inside else "the win rate jumps across the target")


def outcome_of(rows: dict, value: int | None) -> tuple[Outcome, np.ndarray]:
    """The outcome of the games in ``rows`` (columns ``vp``, ``winner``, ``result``) and their
    final VP, errors left out."""
    ok = [r != "error" for r in rows["result"]]
    vp = np.array([v for v, k in zip(rows["vp"], ok) if k], dtype=np.int64)
    wins = sum(1.0 if w == "allied" else 0.5 if w == "draw" else 0.0
               for w, k in zip(rows["winner"], ok) if k)
    return Outcome(value, int(vp.size), float(wins), float(vp.mean()) if vp.size else math.nan,
                   int(len(ok) - sum(ok))), vp


def read_finished(path: Path, scenario: Scenario) -> tuple[Outcome, np.ndarray, dict]:
    """The games of a finished results file (``gwe run``, or a cell of ``gwe sweep``) played
    on ``scenario``: their outcome, their final VP and the file's metadata, for the victory
    line, which needs no replay. Errors (``result = "error"``) are left out.

    Raises ``CalibrateError``, one sentence naming the file, for a file that is not a finished
    run, or that was played on other scenario data or other options than ``scenario``."""
    from gwe_fast.runner.parquet import RowsError, read_metadata, read_table

    path = Path(path)
    try:
        meta = read_metadata(path)
        rows = read_table(path, columns=["vp", "winner", "result"]).to_pydict()
    except RowsError as exc:
        raise CalibrateError(f"--from: {exc}") from None
    except KeyError:
        raise CalibrateError(f"--from: {path} has no vp, winner or result column: it is not "
                             f"a games file of gwe run") from None
    where = f"--from {path} was played on {meta.get('scenario')!r}"
    if meta.get("table", "games") != "games":
        raise CalibrateError(f"--from: {path} holds {meta.get('table')} rows, not one row per "
                             f"game; give the games file")
    if meta.get("data_hash") != scenario.data_hash:
        raise CalibrateError(f"{where}, whose data differ from those of {scenario.key} (data "
                             f"hash {meta.get('data_hash')}, not {scenario.data_hash})")
    if meta.get("options_hash") != scenario.options_hash:
        raise CalibrateError(f"{where} with options {meta.get('options')}, not "
                             f"{dict(scenario.options)}")
    outcome, vp = outcome_of(rows, None)
    if outcome.n == 0:
        raise CalibrateError(f"--from: {path} has no finished game to calibrate on")
    return outcome, vp, meta


# --- playing the games ----------------------------------------------------------------------

class Calibration:
    """Plays the games of each value of a knob into ``out`` (``OUT/<value>.parquet``,
    resumable) and reads their outcomes back."""

    def __init__(self, ref: str, knob: Knob, policies: dict[str, str], games: int, seed: int,
                 out: Path, options: dict[str, Any] | None = None, workers: int = 1,
                 progress: Callable[[str], None] | None = None):
        self.ref, self.knob, self.policies = ref, knob, dict(policies)
        self.games, self.seed, self.out = int(games), int(seed), Path(out)
        self.options = {**(options or {}), **dict(knob.options)}
        self.workers = max(1, int(workers))
        self.say = progress or (lambda text: None)
        self.vp: dict[int, np.ndarray] = {}

    def scenario_for(self, value: int | None) -> Scenario:
        from gwe_fast.runner.sweep import write_cell_scenario
        from gwe_fast.scenario.loader import load_scenario

        if value is None or self.knob.path is None:
            return load_scenario(self.ref, self.options)
        folder = self.out / "scenarios" / f"{value}"
        path = write_cell_scenario(self.ref, {self.knob.path: int(value)}, folder)
        return load_scenario(path, self.options)

    def play(self, value: int | None) -> Outcome:
        """The games of ``value`` (None: the scenario as it is), played or read back."""
        import pyarrow.parquet as pq

        from gwe_fast.runner.batch import run_batch

        sc = self.scenario_for(value)
        self.out.mkdir(parents=True, exist_ok=True)
        name = "base" if value is None else f"{value}"
        path = self.out / f"{name}.parquet"
        shown = "the scenario as it is" if value is None else f"{self.knob.label} = {value}"
        self.say(f"{shown}: {self.games} games -> {path}")
        summary = run_batch(sc, self.games, self.seed, path, policies=self.policies,
                            workers=self.workers, resume=True)
        if not summary.complete:
            raise CalibrateError(f"some games of {shown} could not be played (a worker died); "
                                 f"run the same command again to play them")
        rows = pq.read_table(summary.rows_path, columns=["vp", "winner", "result"]).to_pydict()
        outcome, vp = outcome_of(rows, None if value is None else int(value))
        self.vp[-10**9 if value is None else value] = vp
        return outcome

    def run(self, target: float = 0.5, low: int | None = None,
            high: int | None = None) -> Result:
        k = self.knob
        if k.kind == "victory_line":
            base = self.play(None)
            if base.n == 0:
                raise CalibrateError("every game ended with an error; see the rows in "
                                     f"{self.out / 'base.parquet'}")
            sc = self.scenario_for(None)
            result = even_line(self.vp[-10**9], _vp_for(sc), target)
            result.tried = [base] + result.tried
            return result
        low = k.low if low is None else int(low)
        high = k.high if high is None else int(high)
        return find_even(self.play, low, high, target, k.label)


def describe(result: Result, knob: Knob, scenario: Scenario, target: float) -> list[str]:
    """The lines ``gwe calibrate`` prints after the table."""
    want = "even" if target == 0.5 else f"an Allied win rate of {target:.2f}"
    if not result.found:
        return [f"{knob.label}: {result.note}."]
    lo, hi = result.interval
    lines = [f"{knob.label}: {want} at {result.best} (now {knob.current}); the crossing lies "
             f"between {result.bracket[0]} and {result.bracket[1]} (interpolated "
             f"{result.estimate:.1f}); 95 % interval {lo} to {hi}: the values at which the "
             f"Allied win rate's interval holds {target:.2f}."]
    if result.note:
        lines.append(f"  note: {result.note}")
    if knob.kind == "victory_line":
        shift = result.best - knob.current
        lines.append(f"  to play it: move every victory band by {shift:+d} "
                     f"(tables.victory_levels; the {_vp_for(scenario)} side then wins from "
                     f"{result.best} VP), or equally give an initial VP of "
                     f"{scenario.initial_vp - shift:+d} (scenario.initial_vp)")
    return lines


def write_json(result: Result, knob: Knob, path: Path, meta: dict) -> Path:
    """``calibration.json``: the knob, the result and every value tried (atomically)."""
    data = {"format": "gwe_fast calibration", "format_version": FORMAT_VERSION, **meta,
            "knob": asdict(knob), "result": {k: v for k, v in asdict(result).items()
                                             if k != "tried"},
            "tried": [{**asdict(o), "rate": o.rate, "ci": list(o.ci)} for o in result.tried]}
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=1, default=str) + "\n")
    os.replace(tmp, path)
    return path
