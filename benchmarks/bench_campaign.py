"""Whole campaigns: Brusilov historical, random against random, one core.

The same games on the compiled kernels and on their pure-Python twins (the engine itself is
Python for now); the two must give identical results. Run:
``pytest benchmarks/bench_campaign.py --benchmark-enable --benchmark-only``.
"""

import pytest

from gwe_fast import load_scenario
from gwe_fast.games.gwe import engine
from gwe_fast.games.gwe.game import GweGame

SEEDS = (0, 1, 2)


@pytest.fixture(scope="module")
def scenarios():
    return {impl: load_scenario("brusilov/historical", impl=impl) for impl in ("cython", "pure")}


@pytest.mark.parametrize("impl", ["cython", "pure"])
def test_campaign_random_vs_random(benchmark, scenarios, impl):
    sc = scenarios[impl]
    benchmark.group = "campaign brusilov/historical random-random"
    benchmark.extra_info.update(turns=sc.n_turns, seeds=len(SEEDS))
    counter = iter(range(10**6))

    def one():
        seed = SEEDS[next(counter) % len(SEEDS)]
        return engine.play(GweGame(sc, seed=seed, game_index=seed))

    result = benchmark.pedantic(one, rounds=3, iterations=1)
    assert result.turns_played == sc.n_turns
