"""Both engines play the same games on the compiled kernels and on their pure-Python twins:
the same records (``driver.record``), per-turn rows, results, event logs and final states.

The pure twins are slow (seconds per game), so the sample is small; the benchmark
``benchmarks/bench_campaign.py`` plays more and measures the ratio, and
``scripts/check_parity.py`` plays thousands (``results/parity/parity.jsonl``). The sample
includes the Brusilov Offensive's variations (26.31-26.34) and optional rules (10.32 unlimited
command, 18.3 without track limits), whose paths the historical games never take.
"""

import pytest

from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.policies.registry import make_policy

CASES = [("kaisers_battle/historical", 3), ("kaisers_battle/historical", 11),
         ("brusilov/historical", 5)]
#: Brusilov option sets for the twins (26.33 may not be played with 26.32)
OPTION_CASES = [
    ({"sga_early": True, "west_front": True, "better_commanders": True, "track_limits": False,
      "unlimited_command": True}, 7),
    ({"more_supply_rail": True, "sga_early": True}, 8),
]


def play(scenario, seed: int):
    drv = driver(scenario.game)
    game = drv.new_game(scenario, seed, seed, events=True,
                        policies={0: make_policy("random"), 1: make_policy("random")})
    return game, drv.play(game), drv.record(game)


@pytest.mark.slow
@pytest.mark.parametrize("name, seed", CASES, ids=[f"{n.split('/')[0]}-{s}" for n, s in CASES])
def test_compiled_and_pure_kernels_play_identical_games(name, seed):
    assert_identical_games(load_scenario(name), load_scenario(name, impl="pure"), seed)


@pytest.mark.slow
@pytest.mark.parametrize("options, seed", OPTION_CASES,
                         ids=["26_31-26_32-26_34-10_32-18_3-off", "26_33-26_31"])
def test_variations_and_optional_rules_play_identical_games_on_the_twins(options, seed):
    fast = load_scenario("brusilov/historical", options)
    slow = load_scenario("brusilov/historical", options, impl="pure")
    assert all(fast.options[k] == v and slow.options[k] == v for k, v in options.items())
    record = assert_identical_games(fast, slow, seed)
    # the options changed the game: the same seed plays otherwise without them
    assert play(load_scenario("brusilov/historical"), seed)[2] != record


def assert_identical_games(fast, slow, seed: int):
    """Play game ``seed`` on both; the record, for callers that compare it further."""
    assert fast.map.k.name == "cython" and slow.map.k.name == "pure"
    g1, r1, rec1 = play(fast, seed)
    g2, r2, rec2 = play(slow, seed)
    assert rec1 == rec2
    assert r1.per_turn == r2.per_turn and len(r1.per_turn) > 0
    assert (r1.vp, r1.level, r1.winner, r1.turns_played) == (r2.vp, r2.level, r2.winner,
                                                             r2.turns_played)
    assert g1.events == g2.events and len(g1.events) > 100
    assert g1.state.equals(g2.state)
    return rec1
