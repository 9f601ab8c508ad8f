"""Run a batch of games of one scenario and stream one row per game to Parquet.

Great War in the East scenarios are played to the end by the engine; a scenario of a game
whose engine does not exist yet (The Kaiser's Battle) is set up — scenario validated, dice
seeded from ``(seed, game index)``, starting position built — and recorded as such.
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
from gwe_fast.state import Status

GAME_SCHEMA = pa.schema([
    pa.field("scenario", pa.string(), nullable=False),
    pa.field("scenario_version", pa.int32(), nullable=False),
    pa.field("data_hash", pa.string(), nullable=False),
    pa.field("options", pa.string(), nullable=False),
    pa.field("policies", pa.string(), nullable=False),
    pa.field("package_version", pa.string(), nullable=False),
    pa.field("master_seed", pa.int64(), nullable=False),
    pa.field("game_index", pa.int32(), nullable=False),
    pa.field("result", pa.string(), nullable=False),
    pa.field("error", pa.string(), nullable=False),
    pa.field("turns_played", pa.int16(), nullable=False),
    pa.field("vp", pa.int32(), nullable=False),
    pa.field("vp_towns", pa.int32(), nullable=False),
    pa.field("vp_units", pa.int32(), nullable=False),
    pa.field("vp_withheld", pa.int32(), nullable=False),
    pa.field("steps_lost_allied", pa.int32(), nullable=False),
    pa.field("steps_lost_central", pa.int32(), nullable=False),
    pa.field("sp_lost_allied", pa.int32(), nullable=False),
    pa.field("sp_lost_central", pa.int32(), nullable=False),
    pa.field("units_on_map_allied", pa.int16(), nullable=False),
    pa.field("units_on_map_central", pa.int16(), nullable=False),
    pa.field("stacking_on_map_allied", pa.int16(), nullable=False),
    pa.field("stacking_on_map_central", pa.int16(), nullable=False),
    pa.field("units_pending_allied", pa.int16(), nullable=False),
    pa.field("units_pending_central", pa.int16(), nullable=False),
    pa.field("wall_time_s", pa.float64(), nullable=False),
])

SETUP_ONLY = "setup-only"
ERROR = "error"
CHUNK = 256


@dataclass
class BatchSummary:
    out: Path
    games: int
    seconds: float
    results: dict[str, int]
    mean_vp: float
    errors: int = 0


def _position_columns(g: Game) -> dict:
    st, units = g.state, g.scenario.units
    row = {}
    for side in Side:
        name = side.name.lower()
        on = g.on_map(int(side))
        row[f"units_on_map_{name}"] = int(on.size)
        row[f"stacking_on_map_{name}"] = int(units.stacking[on].sum())
        pending = (st.unit_status & Status.PENDING).astype(bool) & (units.side == int(side))
        row[f"units_pending_{name}"] = int(np.count_nonzero(pending))
    return row


def play_one(scenario: Scenario, seed: int, index: int) -> dict:
    """Play game ``index`` of a run with master seed ``seed`` and describe it as a row.

    A Great War in the East scenario is played to its end by the engine (random policies);
    a scenario of a game whose engine does not exist yet is set up and recorded as such. A
    game that raises is recorded with its error and the run goes on.
    """
    t0 = time.perf_counter()
    row = {"result": SETUP_ONLY, "error": "", "turns_played": 0, "vp_towns": 0, "vp_units": 0,
           "vp_withheld": 0, "steps_lost_allied": 0, "steps_lost_central": 0,
           "sp_lost_allied": 0, "sp_lost_central": 0}
    if scenario.game == "gwe":
        from gwe_fast.games.gwe import engine
        from gwe_fast.games.gwe.game import VP_CAUSES, GweGame

        g = GweGame(scenario, seed=seed, game_index=index)
        try:
            result = engine.play(g)
            row.update(result=result.level, turns_played=result.turns_played)
        except Exception as exc:  # noqa: BLE001 - recorded with its seed; the run goes on
            row.update(result=ERROR, error=f"{type(exc).__name__}: {exc}")
        causes = dict(zip(VP_CAUSES, g.arr("vp_cause").tolist()))
        row["vp_towns"] = causes["towns"]
        row["vp_withheld"] = causes["reinforcement_withheld"]
        row["vp_units"] = sum(v for k, v in causes.items()
                              if k not in ("initial", "towns", "reinforcement_withheld"))
        for side in Side:
            name = side.name.lower()
            row[f"steps_lost_{name}"] = int(g.arr("steps_lost")[int(side)].sum())
            row[f"sp_lost_{name}"] = int(g.arr("sp_lost")[int(side)].sum())
    else:
        g = Game(scenario, seed=seed, game_index=index)
    row["vp"] = int(g.state.vp)
    row.update(_position_columns(g))
    row["wall_time_s"] = time.perf_counter() - t0
    return row


_WORKER_SCENARIO: Scenario | None = None


def _init_worker(ref: str, options: dict) -> None:
    global _WORKER_SCENARIO
    import signal

    from gwe_fast.scenario.loader import load_scenario

    signal.signal(signal.SIGINT, signal.SIG_IGN)   # the parent handles Ctrl-C and stops us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # and a kill just ends a worker, quietly
    _WORKER_SCENARIO = load_scenario(ref, options)


def _play_indices(args: tuple[int, list[int]]) -> list[dict]:
    seed, indices = args
    return [play_one(_WORKER_SCENARIO, seed, i) for i in indices]


def _rows(scenario: Scenario, games: int, seed: int, workers: int):
    """``(game index, row)`` in game order, played in ``workers`` processes. Game ``i``
    depends only on ``(seed, i)``, so the rows are the same whatever the worker count."""
    if workers <= 1 or scenario.path is None:
        for i in range(games):
            yield i, play_one(scenario, seed, i)
        return
    import multiprocessing

    per = max(1, min(8, games // (4 * workers)))
    chunks = [list(range(a, min(a + per, games))) for a in range(0, games, per)]
    pool = multiprocessing.get_context("fork").Pool(
        workers, initializer=_init_worker, initargs=(scenario.key, dict(scenario.options)))
    try:
        for idx, rows in zip(chunks, pool.imap(_play_indices, [(seed, c) for c in chunks])):
            yield from zip(idx, rows)
        pool.close()
    finally:
        pool.terminate()          # on an interruption, stop the games still being played
        pool.join()


def run_batch(scenario: Scenario, games: int, seed: int, out: Path,
              progress: Callable[[int, int, float], None] | None = None,
              workers: int = 1) -> BatchSummary:
    """Play ``games`` games in ``workers`` processes and write them to ``out``; returns the
    summary."""
    if games < 1:
        raise ValueError("the number of games must be at least 1")
    options = json.dumps(dict(scenario.options), sort_keys=True)
    policies = json.dumps({"allied": "random", "central": "random"}, sort_keys=True)
    fixed = {"scenario": scenario.key, "scenario_version": scenario.version,
             "data_hash": scenario.data_hash, "options": options, "policies": policies,
             "package_version": __version__, "master_seed": seed}
    sink = ParquetSink(out, GAME_SCHEMA)
    t0 = time.perf_counter()
    results: dict[str, int] = {}
    vp_sum = 0
    step = max(1, min(CHUNK, games // 20))          # progress about every 5 %
    try:
        chunk: dict[str, list] = {f.name: [] for f in GAME_SCHEMA}
        for i, played in _rows(scenario, games, seed, workers):
            row = {**fixed, "game_index": i, **played}
            for k in chunk:
                chunk[k].append(row[k])
            results[row["result"]] = results.get(row["result"], 0) + 1
            vp_sum += row["vp"]
            if len(chunk["game_index"]) >= step or i == games - 1:
                sink.write(chunk)                 # a row group about every 5 % of the run
                chunk = {f.name: [] for f in GAME_SCHEMA}
            if progress and ((i + 1) % step == 0 or i == games - 1):
                progress(i + 1, games, time.perf_counter() - t0)
    except BaseException:
        if chunk["game_index"]:
            try:
                sink.write(chunk)     # keep every finished game
            except Exception:  # noqa: BLE001 - the first error is the one to report
                pass
        sink.abort()
        raise
    seconds = time.perf_counter() - t0
    meta = {"format_version": FORMAT_VERSION, "package_version": __version__,
            "scenario": scenario.key, "scenario_name": scenario.name,
            "scenario_version": scenario.version, "data_hash": scenario.data_hash,
            "options": dict(scenario.options), "options_hash": scenario.options_hash,
            "master_seed": seed, "games": games, "policies": json.loads(policies),
            "engine": "gwe" if scenario.game == "gwe" else SETUP_ONLY,
            "workers": workers, "seconds": round(seconds, 3)}
    sink.close(meta)
    return BatchSummary(out, games, seconds, results, vp_sum / games, results.get(ERROR, 0))
