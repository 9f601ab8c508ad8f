"""Whole campaigns of both games, one core, and batch runs over 1 and 2 worker processes.

Groups:

* ``campaign <game> random-random``: the engine on the compiled kernels (``cython``) and on
  their pure-Python twins (``pure``), the same seeds; every game's per-game row (the
  ``gwe run`` row: result, VP, the driver's record …) is asserted equal to the compiled
  engine's. ``extra_info`` holds the CPU seconds of each seed, for ratios on the same games.
  ``loop`` is the compiled engine with a random player's Movement Segments played by the
  Python loop instead of the ``play`` kernel (what the compiled segment buys, in the same
  run).
* ``campaign <game> <level>-<level>``: each level of the policy ladder above ``random``
  (``passive``, ``greedy``) and the ``doctrine`` policies against themselves, compiled
  kernels; ``campaign <game> lookahead-greedy``: the lookahead at its default budget in
  both seats against greedy (one campaign each: ten to twenty seconds apiece).
* ``batch <game> workers``: ``run_batch`` with 1 and 2 worker processes (240 Brusilov and 384
  Kaiser's Battle games when measuring, 6 and 16 as a test); ``extra_info`` holds
  games per second, the peak memory of a worker and the Parquet bytes per game (the whole
  file over the games, and the marginal bytes of one more game).

Run: ``pytest benchmarks/bench_campaign.py --benchmark-enable --benchmark-only``. Without
``--benchmark-enable`` each benchmark plays once, as a test.
"""

import time

import pyarrow.parquet as pq
import pytest

from gwe_fast import bench, load_scenario
from gwe_fast.runner.batch import play_one, run_batch

GAMES = {"brusilov": "brusilov/historical", "kb": "kaisers_battle/historical"}
SEEDS = (0, 1, 2)
MASTER_SEED = 0
ROUNDS = {"cython": len(SEEDS), "pure": 2}
BATCH_GAMES = {"brusilov": 6, "kb": 16}
# games x this with --benchmark-enable: a batch of about ten CPU seconds, so that the workers'
# start (about half a second each) does not decide the scaling (the Kaiser's Battle went from
# 128 to 384 games when its random games became three times faster, and to 768 when they
# came down to some 15 ms; the Brusilov Offensive from 48 to 240 when they came down to some
# 40 ms)
BATCH_SCALE = {"brusilov": 40, "kb": 48}

_RESULTS: dict = {}     # games per second of the batch runs, by (game, workers)


@pytest.fixture(scope="module")
def scenarios():
    return {(g, impl): load_scenario(name, impl=impl)
            for g, name in GAMES.items() for impl in ("cython", "pure")}


@pytest.fixture(scope="module")
def reference(scenarios):
    """The compiled engine's row of each seed (random policies), played once."""
    return {g: [play_one(scenarios[g, "cython"], MASTER_SEED, s) for s in SEEDS] for g in GAMES}


def _timed_games(benchmark, scenario, spec: str, rounds: int):
    """Benchmark one campaign per round, the seeds in turn; returns (rows, cpu by seed)."""
    policies = {"allied": spec, "central": spec}
    rows, cpu = [], []

    def one():
        s = SEEDS[len(rows) % len(SEEDS)]
        c0 = time.process_time()
        rows.append(play_one(scenario, MASTER_SEED, s, policies))
        cpu.append(time.process_time() - c0)
        return rows[-1]

    benchmark.pedantic(one, rounds=rounds, iterations=1)
    return rows, cpu


@pytest.mark.parametrize("impl", ["cython", "pure"])
@pytest.mark.parametrize("game", list(GAMES))
def test_campaign_random_vs_random(benchmark, scenarios, reference, game, impl):
    sc = scenarios[game, impl]
    benchmark.group = f"campaign {game} random-random"
    rows, cpu = _timed_games(benchmark, sc, "random", ROUNDS[impl])
    benchmark.extra_info.update(turns=sc.n_turns, seeds=list(SEEDS[:len(rows)]),
                                cpu_s_by_seed=[round(c, 4) for c in cpu])
    assert bench.same_rows(rows, reference[game][:len(rows)])
    assert all(r["result"] != "error" and r["turns_played"] == sc.n_turns for r in rows)


@pytest.mark.parametrize("game", list(GAMES))
def test_campaign_random_vs_random_python_loop(benchmark, scenarios, reference, monkeypatch,
                                               game):
    import importlib

    sc = scenarios[game, "cython"]
    engine = importlib.import_module(f"gwe_fast.games.{sc.game}.engine")
    monkeypatch.setattr(engine, "COMPILED_RANDOM_MOVES", False)
    benchmark.group = f"campaign {game} random-random"
    rows, cpu = _timed_games(benchmark, sc, "random", len(SEEDS))
    benchmark.extra_info.update(turns=sc.n_turns, seeds=list(SEEDS[:len(rows)]),
                                cpu_s_by_seed=[round(c, 4) for c in cpu])
    assert bench.same_rows(rows, reference[game][:len(rows)])


@pytest.mark.parametrize("level", ["passive", "greedy", "doctrine"])
@pytest.mark.parametrize("game", list(GAMES))
def test_campaign_policy_level(benchmark, scenarios, game, level):
    sc = scenarios[game, "cython"]
    benchmark.group = f"campaign {game} {level}-{level}"
    spec = bench.GREEDY[sc.game] if level == "greedy" else level
    rows, cpu = _timed_games(benchmark, sc, spec, len(SEEDS))
    benchmark.extra_info.update(policy=spec, seeds=list(SEEDS[:len(rows)]),
                                cpu_s_by_seed=[round(c, 4) for c in cpu])
    assert all(r["result"] != "error" and r["turns_played"] == sc.n_turns for r in rows)


@pytest.mark.parametrize("seat", ["allied", "central"])
@pytest.mark.parametrize("game", list(GAMES))
def test_campaign_lookahead(benchmark, scenarios, game, seat):
    if benchmark.disabled:
        pytest.skip("lookahead campaigns take 10-20 s; they run with --benchmark-enable "
                    "(tests/policies covers their play)")
    sc = scenarios[game, "cython"]
    benchmark.group = f"campaign {game} lookahead-greedy"
    policies = {"allied": "greedy", "central": "greedy", seat: "lookahead"}
    rows, cpu = [], []

    def one():
        c0 = time.process_time()
        rows.append(play_one(sc, MASTER_SEED, SEEDS[0], policies))
        cpu.append(time.process_time() - c0)

    benchmark.pedantic(one, rounds=1, iterations=1)
    benchmark.extra_info.update(policies=policies, seed=SEEDS[0],
                                cpu_s=round(cpu[0], 3))
    assert rows[0]["result"] != "error" and rows[0]["turns_played"] == sc.n_turns


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("game", list(GAMES))
def test_batch_workers(benchmark, scenarios, game, workers, tmp_path):
    sc = scenarios[game, "cython"]
    # long enough when measuring that the workers' start (about half a second each) does not
    # decide the scaling; short when the benchmark only runs as a test
    n = BATCH_GAMES[game] * (1 if benchmark.disabled else BATCH_SCALE[game])
    benchmark.group = f"batch {game} workers"
    out = tmp_path / "run.parquet"
    summaries = []

    def run():
        summaries.append(run_batch(sc, n, MASTER_SEED, out, workers=workers))

    benchmark.pedantic(run, rounds=1, iterations=1)
    s = summaries[-1]
    assert s.complete and s.games == n and s.errors == 0
    rows = pq.read_table(out).to_pylist()
    per_game, marginal = bench.parquet_bytes(sc, rows, tmp_path)
    gps = n / s.seconds
    _RESULTS[game, workers] = gps
    info = {"games": n, "workers": workers, "games_per_s": round(gps, 3),
            "peak_rss_mb": round(s.worker_rss_mb, 1) if s.worker_rss_mb else None,
            "rss_of": "worker processes" if workers > 1 else "this process (in-process run)",
            "parquet_bytes_per_game": round(per_game), "parquet_marginal_bytes": round(marginal)}
    if workers > 1 and (game, 1) in _RESULTS:
        info["scaling_over_1_worker"] = round(gps / _RESULTS[game, 1], 3)
    benchmark.extra_info.update(info)


@pytest.mark.parametrize("impl", ["cython", "pure"])
def test_greedy_position_scores(benchmark, scenarios, impl, monkeypatch):
    """Group ``policy scores brusilov``: the greedy policy pricing every hex of the map for
    every unit of the side to move (``PositionMap.scores``, the Movement Phase's hot loop)
    in the position of the first Russian Movement Phase, on the compiled policy kernels and
    on their pure-Python twin; the prices are asserted equal to the compiled ones."""
    import numpy as np

    from gwe_fast._pure import policy as pure_policy
    from gwe_fast.games.gwe.game import GweGame
    from gwe_fast.policies.gwe import scoring
    from gwe_fast.policies.gwe.greedy import GreedyPolicy
    from gwe_fast.policies.gwe.position import PositionMap
    from gwe_fast.state import Status

    sc = scenarios["brusilov", "cython"]
    g = GweGame(sc, seed=MASTER_SEED)
    p = GreedyPolicy()
    units = np.flatnonzero((sc.units.side == 0) & ((g.state.unit_status & Status.ON_MAP) != 0))
    cells = np.arange(sc.map.n_cells)

    def price():
        pm = PositionMap(g.policy_view(), 0, p.weights, p.p)
        return np.stack([pm.scores(int(x), cells) for x in units])

    want = price()
    if impl == "pure":
        monkeypatch.setattr(scoring, "kernel", lambda scenario: pure_policy)
    benchmark.group = "policy scores brusilov"
    got = benchmark(price)
    benchmark.extra_info.update(units=int(units.size), cells=int(sc.map.n_cells))
    np.testing.assert_array_equal(got, want)
