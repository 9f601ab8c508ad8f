"""Both engines play the same games on the compiled kernels and on their pure-Python twins:
the same records (``driver.record``), per-turn rows, results, event logs and final states.

The pure twins are slow (seconds per game), so the sample is small; the benchmark
``benchmarks/bench_campaign.py`` plays more and measures the ratio.
"""

import pytest

from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy

CASES = [("kaisers_battle/historical", 3), ("kaisers_battle/historical", 11),
         ("brusilov/historical", 5)]


def play(scenario, seed: int):
    drv = driver(scenario.game)
    game = drv.new_game(scenario, seed, seed, events=True,
                        policies={0: make_policy("random"), 1: make_policy("random")})
    return game, drv.play(game), drv.record(game)


@pytest.mark.slow
@pytest.mark.parametrize("name, seed", CASES, ids=[f"{n.split('/')[0]}-{s}" for n, s in CASES])
def test_compiled_and_pure_kernels_play_identical_games(name, seed):
    fast = load_scenario(name)
    slow = load_scenario(name, impl="pure")
    assert fast.map.k.name == "cython" and slow.map.k.name == "pure"
    g1, r1, rec1 = play(fast, seed)
    g2, r2, rec2 = play(slow, seed)
    assert rec1 == rec2
    assert r1.per_turn == r2.per_turn and len(r1.per_turn) > 0
    assert (r1.vp, r1.level, r1.winner, r1.turns_played) == (r2.vp, r2.level, r2.winner,
                                                             r2.turns_played)
    assert g1.events == g2.events and len(g1.events) > 100
    assert g1.state.equals(g2.state)
