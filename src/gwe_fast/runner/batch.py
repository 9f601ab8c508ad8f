"""Run a batch of games of one scenario and stream one row per game to Parquet.

Until the rules engines exist (issues 4 and 5) a game is its set-up: the scenario is loaded
and validated, the game's dice streams are seeded from ``(seed, game index)``, the starting
position is built, and the row records that position. The plumbing (schema, metadata,
atomic output, progress, summary) is the one the full campaigns will use.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from gwe_fast import __version__
from gwe_fast.enums import Side
from gwe_fast.game import Game
from gwe_fast.runner.parquet import FORMAT_VERSION, ParquetSink
from gwe_fast.scenario.model import Scenario

GAME_SCHEMA = pa.schema([
    pa.field("scenario", pa.string(), nullable=False),
    pa.field("scenario_version", pa.int32(), nullable=False),
    pa.field("data_hash", pa.string(), nullable=False),
    pa.field("options", pa.string(), nullable=False),
    pa.field("package_version", pa.string(), nullable=False),
    pa.field("master_seed", pa.int64(), nullable=False),
    pa.field("game_index", pa.int32(), nullable=False),
    pa.field("result", pa.string(), nullable=False),
    pa.field("turns_played", pa.int16(), nullable=False),
    pa.field("vp", pa.int32(), nullable=False),
    pa.field("units_on_map_allied", pa.int16(), nullable=False),
    pa.field("units_on_map_central", pa.int16(), nullable=False),
    pa.field("stacking_on_map_allied", pa.int16(), nullable=False),
    pa.field("stacking_on_map_central", pa.int16(), nullable=False),
    pa.field("units_pending_allied", pa.int16(), nullable=False),
    pa.field("units_pending_central", pa.int16(), nullable=False),
    pa.field("wall_time_s", pa.float64(), nullable=False),
])

SETUP_ONLY = "setup-only"
CHUNK = 256


@dataclass
class BatchSummary:
    out: Path
    games: int
    seconds: float
    results: dict[str, int]
    mean_vp: float


def play_one(scenario: Scenario, seed: int, index: int) -> dict:
    """Set up game ``index`` of a run with master seed ``seed`` and describe it as a row."""
    t0 = time.perf_counter()
    g = Game(scenario, seed=seed, game_index=index)
    st = g.state
    units = scenario.units
    row = {"result": SETUP_ONLY, "turns_played": 0, "vp": int(st.vp)}
    for side in Side:
        name = side.name.lower()
        on = g.on_map(int(side))
        row[f"units_on_map_{name}"] = int(on.size)
        row[f"stacking_on_map_{name}"] = int(units.stacking[on].sum())
        pending = (st.unit_status & 2).astype(bool) & (units.side == int(side))
        row[f"units_pending_{name}"] = int(np.count_nonzero(pending))
    row["wall_time_s"] = time.perf_counter() - t0
    return row


def run_batch(scenario: Scenario, games: int, seed: int, out: Path,
              progress: Callable[[int, int, float], None] | None = None) -> BatchSummary:
    """Play ``games`` games and write them to ``out``; returns the summary."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    options = json.dumps(dict(scenario.options), sort_keys=True)
    fixed = {"scenario": scenario.key, "scenario_version": scenario.version,
             "data_hash": scenario.data_hash, "options": options,
             "package_version": __version__, "master_seed": seed}
    sink = ParquetSink(out, GAME_SCHEMA)
    t0 = time.perf_counter()
    results: dict[str, int] = {}
    vp_sum = 0
    try:
        chunk: dict[str, list] = {f.name: [] for f in GAME_SCHEMA}
        for i in range(games):
            row = {**fixed, "game_index": i, **play_one(scenario, seed, i)}
            for k in chunk:
                chunk[k].append(row[k])
            results[row["result"]] = results.get(row["result"], 0) + 1
            vp_sum += row["vp"]
            if len(chunk["game_index"]) == CHUNK or i == games - 1:
                sink.write(chunk)
                chunk = {f.name: [] for f in GAME_SCHEMA}
                if progress:
                    progress(i + 1, games, time.perf_counter() - t0)
    except BaseException:
        sink.abort()
        raise
    seconds = time.perf_counter() - t0
    meta = {"format_version": FORMAT_VERSION, "package_version": __version__,
            "scenario": scenario.key, "scenario_name": scenario.name,
            "scenario_version": scenario.version, "data_hash": scenario.data_hash,
            "options": dict(scenario.options), "options_hash": scenario.options_hash,
            "master_seed": seed, "games": games, "engine": SETUP_ONLY,
            "seconds": round(seconds, 3)}
    sink.close(meta)
    return BatchSummary(out, games, seconds, results, vp_sum / games)
