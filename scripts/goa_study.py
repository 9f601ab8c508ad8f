#!/usr/bin/env python3
"""The Guns of August study: each of Sabatine's variants alone and all together, at two
policy settings, with common random numbers; then the prices of single choices.

    python3 scripts/goa_study.py --games 1000 --workers 2            # the committed study
    python3 scripts/goa_study.py --games 40 --out /tmp/goa-study     # a quick look

Every cell is `gwe run goa/campaign` with the same master seed, so game i of one cell and
game i of another start from the same dice: differences are measured game by game. The games
go to ``<out>/runs/`` (ignored by git); the summary to ``<out>/study.json`` and its tables
to ``<out>/tables.md``. Results are conditional on the stand-in land war (docs/goa.md).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from gwe_fast import load_scenario
from gwe_fast.games.goa.codes import Month
from gwe_fast.runner.batch import run_batch

VARIANTS = ("variable_entry", "morale", "production", "victory", "surrender", "naval")
OFF = {v: False for v in VARIANTS} | {"colonies": False, "naval_combat_chart": False}
ALL = {v: True for v in VARIANTS} | {"colonies": True, "naval_combat_chart": True}
#: the historical entry months (rules.toml's base_entry, Romania's side as it happened)
HISTORY = {"britain": ("1914-08", "allied"), "japan": ("1914-08", "allied"),
           "turkey": ("1914-11", "central"), "italy": ("1915-05", "allied"),
           "bulgaria": ("1915-10", "central"), "romania": ("1916-08", "allied"),
           "united_states": ("1917-04", "allied"), "greece": ("1917-06", "allied")}
STYLES = {"greedy": {"allied": "greedy", "central": "greedy"},
          "historical": {"allied": "historical", "central": "historical"}}


def cells() -> list[tuple[str, dict, dict]]:
    """``(name, options, policies)`` of every cell."""
    out = []
    for style, pol in STYLES.items():
        out.append((f"{style}/base", dict(OFF), pol))
        for v in VARIANTS:
            opts = dict(OFF, **{v: True})
            out.append((f"{style}/{v}", opts, pol))
        out.append((f"{style}/naval+colonies", dict(OFF, naval=True, colonies=True), pol))
        out.append((f"{style}/all", dict(ALL), pol))
        out.append((f"{style}/all+fronts", dict(ALL, land="fronts"), pol))
        out.append((f"{style}/all+1919", dict(ALL, through_1919=True), pol))
    greedy = STYLES["greedy"]
    out.append(("price/no_usw", dict(ALL), dict(greedy, central="greedy:usw=0")))
    out.append(("price/always_usw", dict(ALL), dict(greedy, central="greedy:usw=1")))
    out.append(("price/no_gifts", dict(ALL), {"allied": "greedy:gift=0", "central": "greedy:gift=0"}))
    out.append(("price/no_colonies", dict(ALL, colonies=False), greedy))
    return out


def run(cells_, games: int, seed: int, workers: int, runs: Path) -> dict[str, Path]:
    paths = {}
    for name, options, policies in cells_:
        out = runs / (name.replace("/", "__") + ".parquet")
        paths[name] = out
        if out.exists() and pq.read_metadata(out).num_rows >= games:
            continue
        sc = load_scenario("goa/campaign", options)
        t0 = time.perf_counter()
        run_batch(sc, games, seed, out, policies=policies, workers=workers,
                  resume=out.exists() or Path(str(out) + ".partial").exists())
        print(f"{name}: {games} games in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return paths


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def summarise(path: Path) -> dict:
    t = pq.read_table(path).to_pydict()
    n = len(t["game_index"])
    out = {"games": n, "results": {}, "entries": {}, "surrenders": {}}
    for r in set(t["result"]):
        k = sum(1 for x in t["result"] if x == r)
        out["results"][r] = {"share": k / n, "ci": wilson(k, n)}
    ended = [m for m, r in zip(t["result_month"], t["result"]) if r not in ("undecided", "error")]
    out["median_end"] = Month.name(int(np.median(ended))) if ended else ""
    for c, (hist_month, hist_side) in HISTORY.items():
        months = t.get(f"entry_month_{c}")
        sides = t.get(f"entry_side_{c}")
        if months is None:
            continue
        joined = [(m, s) for m, s in zip(months, sides) if m >= 0]
        allied = sum(1 for _, s in joined if s == "allied")
        central = sum(1 for _, s in joined if s == "central")
        near = sum(1 for m, s in joined if abs(m - Month.of(hist_month)) <= 3 and s == hist_side)
        out["entries"][c] = {
            "entered": len(joined) / n, "allied": allied / n, "central": central / n,
            "median_month": Month.name(int(np.median([m for m, _ in joined]))) if joined else "",
            "within_3_months_of_history": near / n, "history": f"{hist_month} {hist_side}"}
    for c in ("germany", "austria_hungary", "turkey", "bulgaria", "russia", "france", "italy",
              "britain"):
        months = t.get(f"surrender_month_{c}")
        if months is None:
            continue
        fell = [m for m in months if m >= 0]
        out["surrenders"][c] = {"share": len(fell) / n,
                                "median": Month.name(int(np.median(fell))) if fell else ""}
    return out


def paired(a: Path, b: Path, column: str = "winner", value: str = "central") -> dict:
    """The change in the share of ``column == value`` from cell ``a`` to cell ``b``, game by
    game (common random numbers), with a 95 % interval."""
    ta, tb = pq.read_table(a).to_pydict(), pq.read_table(b).to_pydict()
    ia = dict(zip(ta["game_index"], ta[column]))
    ib = dict(zip(tb["game_index"], tb[column]))
    common = sorted(set(ia) & set(ib))
    d = np.array([(ib[i] == value) - (ia[i] == value) for i in common], dtype=float)
    if len(d) == 0:
        return {"games": 0}
    mean = float(d.mean())
    if np.all(d == d[0]):
        return {"games": len(d), "change": mean, "ci": None, "note": "no game differs"}
    se = float(d.std(ddof=1) / math.sqrt(len(d)))
    return {"games": len(d), "change": mean, "ci": (mean - 1.96 * se, mean + 1.96 * se)}


def _pct(x: float) -> str:
    return f"{100 * x:.0f} %"


def tables_md(report: dict) -> str:
    """The study's tables in Markdown: how each cell's war ended, each country's entry against
    history, the surrenders, the prices of single choices."""
    cells_ = report["cells"]
    out = ["# The Guns of August study: tables", "",
           f"`{report['command']}` (master seed {report['seed']}; every cell plays the same "
           f"game indices: common random numbers). Results are conditional on the stand-in "
           f"base game, above all its land war (docs/goa.md).", ""]
    levels = sorted({r for c in cells_.values() for r in c["results"]})
    out += ["## How the war ended", "",
            "| cell | games | " + " | ".join(levels) + " | median month of a decided war |",
            "|---|---:|" + "---:|" * len(levels) + "---|"]
    for name, c in cells_.items():
        row = [_pct(c["results"][lv]["share"]) if lv in c["results"] else "0 %" for lv in levels]
        out.append(f"| {name} | {c['games']} | " + " | ".join(row) + f" | {c['median_end'] or '-'} |")
    out += ["", "## Entries against history", "",
            "Share of games the country entered, on the Allied / Central Powers side, the median "
            "entry month, and the share entering on its historical side within three months of "
            "its historical entry (history in the column head).", ""]
    countries = list(HISTORY)
    out += ["| cell | " + " | ".join(f"{c} ({HISTORY[c][0]} {HISTORY[c][1]})" for c in countries)
            + " |", "|---|" + "---|" * len(countries)]
    for name, c in cells_.items():
        row = []
        for k in countries:
            e = c["entries"].get(k)
            row.append("-" if e is None else
                       f"{_pct(e['allied'])} A / {_pct(e['central'])} C, "
                       f"{e['median_month'] or '-'}, near {_pct(e['within_3_months_of_history'])}")
        out.append(f"| {name} | " + " | ".join(row) + " |")
    out += ["", "## Surrenders", "", "Share of games the country was conquered (by morale or "
            "by occupation), and the median month.", ""]
    falls = list(next(iter(cells_.values()))["surrenders"]) if cells_ else []
    out += ["| cell | " + " | ".join(falls) + " |", "|---|" + "---|" * len(falls)]
    for name, c in cells_.items():
        out.append(f"| {name} | " + " | ".join(
            f"{_pct(c['surrenders'][k]['share'])} {c['surrenders'][k]['median']}".strip()
            for k in falls) + " |")
    if report.get("prices"):
        out += ["", "## Prices of single choices (against greedy/all, paired)", "",
                "| cell | games | change in Central Powers wins [95 %] |", "|---|---:|---|"]
        for name, p in report["prices"].items():
            ci = p.get("ci")
            what = (p.get("note") or "") if ci is None else (
                f"{100 * p['change']:+.1f} points [{100 * ci[0]:+.1f}, {100 * ci[1]:+.1f}]")
            out.append(f"| {name} | {p.get('games', 0)} | {what} |")
    return "\n".join(out) + "\n"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=27)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", type=Path, default=Path("results/goa"))
    p.add_argument("--only", default="", help="run only the cells whose name starts with this")
    a = p.parse_args()
    runs = a.out / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    todo = [c for c in cells() if c[0].startswith(a.only)]
    run(todo, a.games, a.seed, a.workers, runs)
    # the summary covers every cell whose games are in runs/, not only those of this call
    # (--only runs a part of the study at a time)
    paths = {name: runs / (name.replace("/", "__") + ".parquet") for name, _, _ in cells()}
    paths = {name: path for name, path in paths.items() if path.exists()}
    summary = {name: summarise(path) for name, path in paths.items()}
    prices = {}
    base = paths.get("greedy/all")
    for name in ("price/no_usw", "price/always_usw", "price/no_gifts", "price/no_colonies"):
        if base and name in paths:
            prices[name] = paired(base, paths[name])
    report = {"games": a.games, "seed": a.seed, "cells": summary, "prices": prices,
              "command": " ".join(sys.argv)}
    (a.out / "study.json").write_text(json.dumps(report, indent=1, sort_keys=True) + "\n")
    (a.out / "tables.md").write_text(tables_md(report))
    print(json.dumps({k: v["results"] for k, v in summary.items()}, indent=1)[:4000])
    return 0


if __name__ == "__main__":
    sys.exit(main())
