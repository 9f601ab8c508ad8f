"""Whole random campaigns of The Guns of August: the compiled core against the reference engine.

Group ``goa campaign random-random <world>``: ``core`` is a new ``GoaCore`` from the
scenario's start and its game played with both random players inside the core (seeding
included; each round a new game index); ``game`` is the same through ``GoaGame`` and the
driver (``driver.play``: the runner's path, with the per-month record); ``reference`` is
``GoaGame(engine="reference")`` (few rounds: about half a second a campaign). The worlds: the
tests' tiny world with the default options and with every variant (colonies, the Naval Combat
Chart, land fronts, 1919). Every benchmark asserts that its game is the reference's (the same
final state bytes). ``extra_info`` holds the decisions of a campaign.

Run: ``pytest benchmarks/bench_goa.py --benchmark-enable --benchmark-only``. Without
``--benchmark-enable`` each benchmark plays once, as a test. Instruction counts:
``benchmarks/goa_cpu.py`` under callgrind (its docstring).
"""

import itertools
from pathlib import Path
import sys

import pytest

from gwe_fast._core.goa.engine import GoaCore
from gwe_fast.games.goa import driver
from gwe_fast.games.goa.game import GoaGame
from gwe_fast.games.goa.scenario import scenario_from_raw

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "games" / "goa"))
import tiny  # noqa: E402

WORLDS = {"tiny": {}, "tiny-every-variant": {"colonies": True, "naval_combat_chart": True,
                                             "land": "fronts", "through_1919": True}}
ROUNDS = {"core": 300, "game": 100, "reference": 3}


@pytest.fixture(scope="module", params=list(WORLDS))
def world(request):
    sc = scenario_from_raw(tiny.raw(), WORLDS[request.param])
    ref = GoaGame(sc, 0, 0, engine="reference")
    ref.play()
    return request.param, sc, ref


@pytest.mark.parametrize("how", ["core", "game", "reference"])
def test_random_campaign(benchmark, world, how):
    name, sc, ref = world
    benchmark.group = f"goa campaign random-random {name}"
    t = sc.goa
    index = itertools.count(1)
    last = {}

    def core():
        c = GoaCore(t, seed=0, game_index=next(index))
        c.play(0, 0)
        last["decisions"] = c.decisions

    def game():
        g = GoaGame(sc, 0, next(index), engine="core")
        driver.play(g)
        last["decisions"] = g.decisions

    def reference():
        g = GoaGame(sc, 0, next(index), engine="reference")
        g.play()
        last["decisions"] = g.decisions

    fn = {"core": core, "game": game, "reference": reference}[how]
    benchmark.pedantic(fn, rounds=ROUNDS[how] if benchmark.enabled else 1, iterations=1)
    benchmark.extra_info["decisions"] = last["decisions"]
    # the game of index 0 is the reference's, byte for byte
    if how == "core":
        c = GoaCore(t, seed=0, game_index=0)
        c.play(0, 0)
        assert c.state.equals(ref.state)
    else:
        g = GoaGame(sc, 0, 0, engine="core" if how == "game" else "reference")
        driver.play(g)
        assert g.state.equals(ref.state)
