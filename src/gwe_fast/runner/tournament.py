"""Tournaments: every ordered pair of policies on one scenario, with the ladder verdict.

``run_tournament(scenario, specs, games, seed)`` plays ``games`` games for every ordered
pair ``(allied policy, central policy)`` of ``specs``, mirror matches included. Game ``i``
of every pair is seeded from ``(seed, i)``: the pairs share their dice (common random
numbers), so the difference between two pairs on the same game index is due to the
policies, and paired intervals are much narrower than unpaired ones. Each policy is made
afresh for each game from its spec (``policies.registry.make_policy``).

``Tournament.markdown()`` / ``Tournament.to_json()`` give the report: for each pair the
allied and central win rates with Wilson 95 % intervals (a draw counts half), the mean VP
with its 95 % t interval, games, errors and illegal answers (``PlayedGame.rejections``),
and the ladder verdict of ``ladder``.

Policies in ``others`` (a doctrine, say) play every pair too but stand outside the ladder.

**The ladder test.** ``specs`` lists the ladder from the lowest level up. A level ``A``
beats the level ``B`` below it *as a side* when, against the opponent ``B`` in the other
seat, putting ``A`` instead of ``B`` in that seat raises that side's VP margin: the paired
differences ``margin(A in the seat, B) - margin(B, B)`` over the same game indices have a
95 % t interval entirely above zero. The VP margin is the VP total for the side whose score
it is (the driver's ``VP_FOR``: the Russian VP of The Great War in the East, the German VP
of The Kaiser's Battle) and minus it for the other side. The same paired test on the side's game score
(win 1, draw 1/2, loss 0) and the Wilson interval of ``A``'s win rate in that seat are
reported beside it. The ladder holds when every level beats the one below it from both
sides.

Examples
--------
>>> split_specs("random,greedy:aggression=2,attack=1,passive")
['random', 'greedy:aggression=2,attack=1', 'passive']
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from gwe_fast import __version__
from gwe_fast.analysis.stats import mean_ci, paired_diff, wilson
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy
from gwe_fast.scenario.model import Scenario

FORMAT_VERSION = 1
SIDES = ("allied", "central")


def split_specs(text: str) -> list[str]:
    """Policy specs from a comma-separated list; a ``key=value`` item belongs to the spec
    before it (``greedy:aggression=2,attack=1``)."""
    out: list[str] = []
    for item in (x.strip() for x in text.split(",")):
        if not item:
            continue
        if "=" in item and ":" not in item and out:
            out[-1] = f"{out[-1]},{item}"
        else:
            out.append(item)
    return out


@dataclass
class PairResult:
    """The games of one ordered pair, in game-index order."""

    allied: str
    central: str
    vp: list[float] = field(default_factory=list)
    vp_for: str = "allied"
    winner: list[str] = field(default_factory=list)
    rejections: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        return len(self.vp)

    def score(self, side: str) -> list[float]:
        """The side's game score per game: win 1, draw 1/2, loss 0."""
        return [1.0 if w == side else 0.5 if w == "draw" else 0.0 for w in self.winner]

    def margin(self, side: str) -> list[float]:
        """The side's VP margin per game: the VP total for the side whose score it is
        (``vp_for``), minus it for the other."""
        return list(self.vp) if side == self.vp_for else [-v for v in self.vp]

    @property
    def kept_seconds(self) -> float:
        """The games' wall times summed, as the JSON keeps them (to 0.01 s): what the report
        shows, so that a report made again from the JSON is the same."""
        return round(self.seconds, 2)

    def summary(self) -> dict:
        """Win rates and mean VP over the games that ended without an error."""
        ok = [i for i, e in enumerate(self.errors) if not e]
        n = len(ok)
        out = {"allied": self.allied, "central": self.central, "games": self.games,
               "errors": self.games - n, "rejections": int(sum(self.rejections)),
               "seconds": self.kept_seconds}
        for side in SIDES:
            wins = sum(self.score(side)[i] for i in ok)
            lo, hi = wilson(wins, n)
            out[f"{side}_win_rate"] = wins / n if n else math.nan
            out[f"{side}_win_ci"] = [lo, hi]
        m, lo, hi = mean_ci([self.vp[i] for i in ok])
        out["mean_vp"], out["vp_ci"] = m, [lo, hi]
        return out


@dataclass
class Tournament:
    scenario: str
    scenario_name: str
    scenario_version: int
    data_hash: str
    options: dict
    specs: list[str]
    games: int
    seed: int
    pairs: dict[tuple[str, str], PairResult]
    vp_for: str = "allied"
    seconds: float = 0.0
    workers: int = 1
    command: str = ""
    others: list[str] = field(default_factory=list)

    @property
    def all_specs(self) -> list[str]:
        """The ladder, then the policies outside it."""
        return list(self.specs) + list(self.others)

    @classmethod
    def from_json(cls, data: dict) -> Tournament:
        """The tournament a ``to_json`` dict describes (to re-render or combine reports)."""
        if data.get("format_version") != FORMAT_VERSION:
            raise ValueError(f"a tournament JSON of format {data.get('format_version')!r}, "
                             f"not {FORMAT_VERSION}")
        vp_for = data.get("vp_for", "allied")
        pairs = {}
        for p in data["pairs"]:
            pairs[(p["allied"], p["central"])] = PairResult(
                p["allied"], p["central"], vp=[float(v) for v in p["vp"]], vp_for=vp_for,
                winner=list(p["winner"]), rejections=list(p["rejections_per_game"]),
                errors=list(p["error_messages"]), seconds=float(p["seconds"]))
        return cls(scenario=data["scenario"], scenario_name=data["scenario_name"],
                   scenario_version=data["scenario_version"], data_hash=data["data_hash"],
                   options=data["options"], specs=list(data["policies"]),
                   games=data["games_per_pair"], seed=data["master_seed"], pairs=pairs,
                   vp_for=vp_for, seconds=float(data["seconds"]), workers=data["workers"],
                   command=data.get("command", ""), others=list(data.get("others", [])))

    # --- the ladder ---------------------------------------------------------------------------
    def ladder(self) -> list[dict]:
        """For each level above the first, against the level below, from each side: the
        paired VP-margin test (the verdict) and the paired score test (see the module
        docstring)."""
        out = []
        for low, high in zip(self.specs, self.specs[1:]):
            mirror = self.pairs[(low, low)]
            for side in SIDES:
                pair = self.pairs[(high, low) if side == "allied" else (low, high)]
                ok = [i for i in range(min(pair.games, mirror.games))
                      if not pair.errors[i] and not mirror.errors[i]]
                a_m = [pair.margin(side)[i] for i in ok]
                b_m = [mirror.margin(side)[i] for i in ok]
                a_s = [pair.score(side)[i] for i in ok]
                b_s = [mirror.score(side)[i] for i in ok]
                d, lo, hi = paired_diff(a_m, b_m) if ok else (math.nan,) * 3
                ds, slo, shi = paired_diff(a_s, b_s) if ok else (math.nan,) * 3
                wlo, whi = wilson(sum(a_s), len(a_s))
                out.append({"higher": high, "lower": low, "side": side, "games": len(ok),
                            "margin_diff": d, "margin_ci": [lo, hi],
                            "score_diff": ds, "score_ci": [slo, shi],
                            "win_rate": (sum(a_s) / len(a_s)) if a_s else math.nan,
                            "win_ci": [wlo, whi], "mirror_win_rate":
                            (sum(b_s) / len(b_s)) if b_s else math.nan,
                            "beats": bool(ok) and lo > 0})
        return out

    def asymmetry(self) -> list[dict]:
        """Each side's gain from the stronger policy of each ladder step, and the
        difference between the sides (central gain less allied gain).

        For the step ``low`` -> ``high`` and an opponent level (``low``, and ``high`` when
        the tournament has its pairs), a side's gain in game ``i`` is its VP margin with
        ``high`` in its seat less its margin with ``low`` there, the opponent the same; the
        difference of game ``i`` is the central gain less the allied gain. Every game of the
        three or four pairs has the same dice (common random numbers), so the three are
        paired means with 95 % t intervals (``paired_diff``); the same for the game score
        (win 1, draw 1/2). A difference whose interval lies above zero means the stronger
        policy pays more as the central side; below zero, as the allied side.
        """
        out = []
        for low, high in zip(self.specs, self.specs[1:]):
            for opp in (low, high):
                # allied gain: (high, opp) against (low, opp); central: (opp, high) - (opp, low)
                keys = [(high, opp), (low, opp), (opp, high), (opp, low)]
                if not all(k in self.pairs for k in keys):
                    continue
                a_hi, a_lo, c_hi, c_lo = (self.pairs[k] for k in keys)
                n = min(p.games for p in (a_hi, a_lo, c_hi, c_lo))
                ok = [i for i in range(n)
                      if not any(p.errors[i] for p in (a_hi, a_lo, c_hi, c_lo))]
                row = {"higher": high, "lower": low, "opponent": opp, "games": len(ok)}
                for what, get in (("margin", PairResult.margin), ("score", PairResult.score)):
                    ga = [get(a_hi, "allied")[i] - get(a_lo, "allied")[i] for i in ok]
                    gc = [get(c_hi, "central")[i] - get(c_lo, "central")[i] for i in ok]
                    nan3 = (math.nan,) * 3
                    m, lo, hi = mean_ci(ga) if ok else nan3
                    row[f"allied_{what}_gain"], row[f"allied_{what}_ci"] = m, [lo, hi]
                    m, lo, hi = mean_ci(gc) if ok else nan3
                    row[f"central_{what}_gain"], row[f"central_{what}_ci"] = m, [lo, hi]
                    m, lo, hi = paired_diff(gc, ga) if ok else nan3
                    row[f"{what}_difference"], row[f"{what}_difference_ci"] = m, [lo, hi]
                    row[f"{what}_no_game_differs"] = bool(ok) and all(
                        x == 0 for x in ga + gc)
                out.append(row)
        return out

    def ladder_holds(self) -> bool:
        rows = self.ladder()
        return bool(rows) and all(r["beats"] for r in rows)

    # --- output --------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "format_version": FORMAT_VERSION, "package_version": __version__,
            "scenario": self.scenario, "scenario_name": self.scenario_name,
            "scenario_version": self.scenario_version, "data_hash": self.data_hash,
            "options": self.options, "policies": self.specs, "others": self.others,
            "games_per_pair": self.games,
            "vp_for": self.vp_for,
            "master_seed": self.seed, "workers": self.workers, "seconds": round(self.seconds, 1),
            "command": self.command,
            "pairs": [{**p.summary(), "vp": p.vp, "winner": p.winner,
                       "rejections_per_game": p.rejections, "error_messages": p.errors}
                      for p in self.pairs.values()],
            "ladder": self.ladder(), "ladder_holds": self.ladder_holds(),
            "asymmetry": self.asymmetry(),
        }

    def markdown(self) -> str:
        specs = self.all_specs
        lines = [f"# Tournament: {self.scenario_name}", ""]
        if self.command:
            lines += ["Made by:", "", "```sh", self.command, "```", ""]
        lines += [
            (f"Scenario `{self.scenario}` version {self.scenario_version}, data hash "
             f"`{self.data_hash[:12]}`, options {json.dumps(self.options, sort_keys=True)}; "
             f"gwe_fast {__version__}."),
            (f"{self.games} games per ordered pair, master seed {self.seed}: game *i* of every "
             f"pair has the same dice (common random numbers). {len(self.pairs)} pairs"
             f"{'' if len(self.pairs) == len(specs) ** 2 else ' (those the ladder verdict needs; – marks a pair not played)'}, "
             f"{sum(p.games for p in self.pairs.values())} games, "
             f"{sum(p.kept_seconds for p in self.pairs.values()):.0f} s of play (the games' own "
             f"wall times summed); this run took {round(self.seconds, 1):.0f} s on "
             f"{self.workers} worker{'s' if self.workers != 1 else ''} (less when it resumed "
             f"games already played)."),
            "",
            ("Rows: the allied policy; columns: the central policy. Intervals are 95 %: "
             "Wilson for win rates (a draw counts half), Student's t for mean VP."
             + (f" The ladder is {', '.join(f'`{x}`' for x in self.specs)}, lowest first; "
                f"{', '.join(f'`{x}`' for x in self.others)} play every pair but stand "
                f"outside it." if self.others else "")), ""]

        def table(title, cell):
            out = [f"## {title}", "", "| allied \\ central | " + " | ".join(
                f"`{c}`" for c in specs) + " |", "|---" * (len(specs) + 1) + "|"]
            for a in specs:
                out.append(f"| `{a}` | " + " | ".join(
                    cell(self.pairs[(a, c)].summary()) if (a, c) in self.pairs else "–"
                    for c in specs) + " |")
            return out + [""]

        lines += table("Allied win rate", lambda s: (
            f"{s['allied_win_rate']:.2f} [{s['allied_win_ci'][0]:.2f}, "
            f"{s['allied_win_ci'][1]:.2f}]"))
        lines += table("Central win rate", lambda s: (
            f"{s['central_win_rate']:.2f} [{s['central_win_ci'][0]:.2f}, "
            f"{s['central_win_ci'][1]:.2f}]"))
        lines += table(f"Mean VP (the {self.vp_for} side's score)", lambda s: (
            f"{s['mean_vp']:.1f} [{s['vp_ci'][0]:.1f}, {s['vp_ci'][1]:.1f}]"))
        bad = [(k, p.summary()) for k, p in self.pairs.items()
               if any(p.errors) or sum(p.rejections)]
        lines += ["## Illegal answers and errors", ""]
        if bad:
            for (a, c), s in bad:
                lines.append(f"- `{a}` vs `{c}`: {s['rejections']} illegal answers, "
                             f"{s['errors']} games ended by an error")
        else:
            lines.append(f"None: {sum(p.games for p in self.pairs.values())} games, every "
                         f"decision legal (`PlayedGame.rejections` = 0), no errors.")
        lines += ["", "## Ladder verdict", "",
                  ("Each level against the level below it, from each side: the mean paired "
                   "difference of that side's VP margin between the game with the higher "
                   "level in that seat and the mirror game of the lower level, same game "
                   "index and opponent (95 % t interval); the level *beats* the one below "
                   "from that side when the interval lies above zero. The paired difference "
                   "of the side's score (win 1, draw 1/2) and the higher level's win rate in "
                   "that seat (Wilson) are shown beside it. See docs/policies.md."), "",
                  ("| higher | lower | side | games | VP margin gain | score gain | "
                   "win rate (mirror) | beats |"), "|---|---|---|---|---|---|---|---|"]
        def paired(m, ci, fmt):
            # a zero mean with a zero-width interval: every pair of games is equal
            if m == 0 and list(ci) == [0, 0]:
                return "no game differs"
            return f"{m:{fmt}} [{ci[0]:{fmt}}, {ci[1]:{fmt}}]"

        for r in self.ladder():
            lines.append(
                f"| `{r['higher']}` | `{r['lower']}` | {r['side']} | {r['games']} | "
                f"{paired(r['margin_diff'], r['margin_ci'], '+.1f')}"
                f" | {paired(r['score_diff'], r['score_ci'], '+.2f')}"
                f" | {r['win_rate']:.2f} [{r['win_ci'][0]:.2f}, {r['win_ci'][1]:.2f}] "
                f"({r['mirror_win_rate']:.2f}) | {'yes' if r['beats'] else 'no'} |")
        verdict = ("holds: every level beats the one below it from both sides"
                   if self.ladder_holds() else "does not hold (see the rows marked no)")
        lines += ["", f"**The ladder {verdict}.**", ""]
        lines += self._asymmetry_markdown()
        return "\n".join(lines)

    def _asymmetry_markdown(self) -> list[str]:
        rows = self.asymmetry()
        if not rows:
            return []

        def cell(m, ci, nothing, fmt):
            if nothing:
                return "no game differs"
            return f"{m:{fmt}} [{ci[0]:{fmt}}, {ci[1]:{fmt}}]"

        out = ["## Side asymmetry", "",
               ("What each side gains from the stronger policy of each ladder step, against "
                "the same opponent, and the difference between the sides (the central gain "
                "less the allied gain). Game *i* of the pairs compared has the same dice, so "
                "each figure is a paired mean with its 95 % t interval. A difference above "
                "zero means the stronger policy pays more as the central side. See "
                "docs/policies.md."), "",
               ("| higher | lower | opponent | games | allied VP margin gain | central VP "
                "margin gain | central - allied | allied score gain | central score gain "
                "| central - allied (score) |"),
               "|---|---|---|---|---|---|---|---|---|---|"]
        for r in rows:
            nm, ns = r["margin_no_game_differs"], r["score_no_game_differs"]
            out.append(
                f"| `{r['higher']}` | `{r['lower']}` | `{r['opponent']}` | {r['games']} | "
                f"{cell(r['allied_margin_gain'], r['allied_margin_ci'], nm, '+.1f')} | "
                f"{cell(r['central_margin_gain'], r['central_margin_ci'], nm, '+.1f')} | "
                f"{cell(r['margin_difference'], r['margin_difference_ci'], nm, '+.1f')} | "
                f"{cell(r['allied_score_gain'], r['allied_score_ci'], ns, '+.2f')} | "
                f"{cell(r['central_score_gain'], r['central_score_ci'], ns, '+.2f')} | "
                f"{cell(r['score_difference'], r['score_difference_ci'], ns, '+.2f')} |")
        return out + [""]

    def write(self, out: Path) -> tuple[Path, Path]:
        """Write ``out`` (Markdown) and the same name with ``.json``; returns both paths."""
        out = Path(out)
        md = out if out.suffix == ".md" else out.with_suffix(".md")
        js = md.with_suffix(".json")
        md.parent.mkdir(parents=True, exist_ok=True)
        for path, text in ((js, json.dumps(self.to_json(), indent=1, allow_nan=True) + "\n"),
                           (md, self.markdown())):
            tmp = path.with_name(path.name + ".partial")
            tmp.write_text(text)
            os.replace(tmp, path)
        return md, js


# --- playing ------------------------------------------------------------------------------------

def _slug(spec: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_=." else "_" for ch in spec)


def pair_path(games_dir: Path, allied: str, central: str) -> Path:
    """The Parquet file of the pair (``allied`` policy, ``central`` policy) in ``games_dir``:
    named after the pair, so another tournament (or a ``--resume``) finds its games."""
    return Path(games_dir) / f"{_slug(allied)}--{_slug(central)}.parquet"


def default_out(scenario: Scenario, folder: Path = Path("results") / "tournaments") -> Path:
    """Where ``gwe tournament`` writes without ``--out``: ``results/tournaments/<scenario>.md``,
    a folder of the user's own (git-ignored), never the committed studies in ``results/``.

    >>> from gwe_fast import load_scenario
    >>> str(default_out(load_scenario("brusilov/historical")))
    'results/tournaments/brusilov-historical.md'
    """
    from gwe_fast.runner.batch import run_name

    return Path(folder) / f"{run_name(scenario)}.md"


def games_dir_for(out: Path) -> Path:
    """Where a tournament written to ``out`` keeps the Parquet file of each pair."""
    out = Path(out)
    return out.with_name(out.stem + "-games")


def ladder_pairs(specs: list[str]) -> list[tuple[str, str]]:
    """The ordered pairs the ladder verdict needs: each level against the one below it in
    both seats, and the mirror match of the lower one.

    >>> ladder_pairs(["random", "greedy", "lookahead"])
    [('random', 'random'), ('greedy', 'random'), ('random', 'greedy'), ('greedy', 'greedy'), ('lookahead', 'greedy'), ('greedy', 'lookahead')]
    """
    out: list[tuple[str, str]] = []
    for low, high in zip(specs, specs[1:]):
        out += [(low, low), (high, low), (low, high)]
    return out


def run_tournament(scenario: Scenario, specs: list[str], games: int, seed: int,
                   games_dir: Path, workers: int = 1, resume: bool = False,
                   progress: Callable[[int, int, float], None] | None = None,
                   command: str = "", ladder_only: bool = False,
                   others: list[str] | None = None) -> Tournament:
    """Play every ordered pair of ``specs`` (see the module docstring), or with
    ``ladder_only`` only the pairs of ``ladder_pairs``, with ``runner.batch.run_batch``, one
    Parquet file per pair in ``games_dir`` named after the pair; ``others`` play every pair
    too (not with ``ladder_only``) but stand outside the ladder (every column of a batch
    run: VP by cause, losses …); ``resume`` keeps the games already there, so a full
    tournament resumed in the folder of a ladder-only one plays only the missing pairs. An
    illegal answer ends its game with an ``IllegalChoice`` error (the engine counts it in
    ``PlayedGame.rejections`` and raises), so each such game counts one rejection."""
    from gwe_fast.runner.batch import run_batch
    from gwe_fast.runner.parquet import read_table

    if games < 1:
        raise ValueError("the number of games per pair must be at least 1")
    others = list(others or [])
    if not specs or len(set(specs + others)) != len(specs) + len(others):
        raise ValueError("give at least one policy, each once")
    if ladder_only and others:
        raise ValueError("a ladder-only tournament plays no policy outside the ladder")
    if ladder_only and len(specs) < 2:
        raise ValueError("a ladder-only tournament needs at least two policies")
    for s in specs + others:
        make_policy(s, scenario.game)        # a bad spec fails here, before any game
    vp_for = getattr(driver(scenario.game), "VP_FOR", "allied")
    games_dir = Path(games_dir)
    games_dir.mkdir(parents=True, exist_ok=True)
    everyone = specs + others
    order = (ladder_pairs(specs) if ladder_only
             else [(a, c) for a in everyone for c in everyone])
    pairs = {(a, c): PairResult(a, c, vp_for=vp_for) for a, c in order}
    total = len(pairs) * games
    t0 = time.perf_counter()
    for k, ((a, c), pair) in enumerate(pairs.items()):
        path = pair_path(games_dir, a, c)
        before = k * games

        def step(done, todo, seconds, before=before):
            if progress:
                progress(before + games - todo + done, total, time.perf_counter() - t0)

        summary = run_batch(scenario, games, seed, path, policies={"allied": a, "central": c},
                            workers=workers, resume=resume, progress=step)
        rows = read_table(summary.rows_path,
                          columns=["game_index", "vp", "winner", "error", "wall_time_s"])
        rows = rows.sort_by("game_index").to_pydict()
        for vp, winner, error, sec in zip(rows["vp"], rows["winner"], rows["error"],
                                          rows["wall_time_s"]):
            pair.vp.append(float(vp))
            pair.winner.append(winner)
            pair.errors.append(error)
            pair.rejections.append(1 if error.startswith("IllegalChoice") else 0)
            pair.seconds += float(sec)
    return Tournament(scenario=scenario.key, scenario_name=scenario.name,
                      scenario_version=scenario.version, data_hash=scenario.data_hash,
                      options=dict(scenario.options), specs=list(specs), games=games, seed=seed,
                      pairs=pairs, vp_for=vp_for, seconds=time.perf_counter() - t0,
                      workers=max(1, workers), command=command, others=others)
