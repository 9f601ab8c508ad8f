"""The compiled core plays exactly the reference engine's games: the same decisions in the same
order with the same options, the same dice, the same state bytes at every decision and at the
end of every month (``games/goa/parity.py``), on the tiny world, for a set of option values
covering every pair of two options' values, at several game lengths and starts, and through
``GoaGame`` and the driver with Python policies. ``scripts/check_goa_parity.py`` plays every
option combination and thousands of games."""

from __future__ import annotations

import pytest

from gwe_fast.games.goa import driver, parity
from gwe_fast.games.goa.game import GoaGame
from gwe_fast.games.goa.scenario import scenario_from_raw
from gwe_fast.games.goa.tables import compile_tables
from gwe_fast.policies.goa.greedy import GoaGreedyPolicy, GoaPassivePolicy

import tiny

COMBOS = parity.option_combinations()
#: (start, last month) of the games of each combination, and the seeds played at each
LENGTHS = [("1914-08", "1914-12", range(8)), ("1915-11", "1916-08", range(3))]


def _tables(options, start="1914-08", last="1918-12"):
    raw = tiny.raw()
    raw["scenario"] = {"start": start, "last": last}
    return compile_tables(raw, options)


def _id(options) -> str:
    on = [k for k, v in options.items() if v is True]
    return "-".join(on) + "-" + options["land"]


def test_the_option_sets_cover_every_pair_of_values():
    names = list(parity.OPTION_VALUES)
    rows = [{**o, "sea": (o["naval"], o["colonies"], o["naval_combat_chart"])} for o in COMBOS]
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            seen = {(r[a], r[b]) for r in rows}
            assert len(seen) == len(parity.OPTION_VALUES[a]) * len(parity.OPTION_VALUES[b])


@pytest.mark.slow
@pytest.mark.parametrize("n", range(len(COMBOS)))
def test_core_plays_the_reference_games(n):
    """15 option sets x 11 or 12 games: about 170 games, every decision and month compared;
    a whole war (to the end of 1918 or 1919) for every third set."""
    options = COMBOS[n]
    lengths = LENGTHS + ([("1914-08", "1918-12", range(1))] if n % 3 == 0 else [])
    for start, last, seeds in lengths:
        t = _tables(options, start, last)
        for seed in seeds:
            assert parity.compare(t, 2026 + seed, seed) is None, (_id(options), start, last, seed)


BUNDLED = ("goa/campaign", "goa/1915", "goa/1916", "goa/1917", "goa/1918")


@pytest.mark.slow
@pytest.mark.parametrize("i, scenario", list(enumerate(BUNDLED)))
def test_core_plays_the_reference_games_of_each_bundled_start(i, scenario):
    """Each bundled start, under three of the pairwise option sets (a different three for each
    start, so the five starts together play all fifteen): the whole war, every decision and
    month compared. ``scripts/check_goa_parity.py --scenario`` plays many more."""
    from gwe_fast import load_scenario

    for j in range(3):
        options = COMBOS[(3 * i + j) % len(COMBOS)]
        t = load_scenario(scenario, options).goa
        assert parity.compare(t, 31 + i, j) is None, (scenario, _id(options))


def test_core_plays_the_reference_game_with_every_variant():
    t = _tables({"colonies": True, "naval_combat_chart": True, "land": "fronts",
                 "through_1919": True, "swap_berlin": True, "swap_london": True})
    assert parity.compare(t, 7, 3) is None


def test_a_difference_is_reported_in_one_sentence(monkeypatch):
    """A change to one rule of the reference shows up as a located difference."""
    from gwe_fast.games.goa import economy

    t = _tables({}, last="1914-12")
    real = economy.produce

    def more_supply(t, s, month):
        real(t, s, month)
        s.supply[0] += 1

    monkeypatch.setattr(economy, "produce", more_supply)
    found = parity.compare(t, 1, 0)
    assert found is not None and "supply[0]" in found


def test_games_record_the_same_rows_on_either_engine():
    sc = scenario_from_raw(tiny.raw(), {"colonies": True, "land": "fronts"})
    ref = GoaGame(sc, 11, 4, engine="reference")
    r_ref = driver.play(ref)
    g = GoaGame(sc, 11, 4, engine="core")
    r = driver.play(g)
    assert g.state.equals(ref.state)
    assert (r.vp, r.level, r.winner, r.turns_played) == (
        r_ref.vp, r_ref.level, r_ref.winner, r_ref.turns_played)
    assert list(r.per_turn) == list(r_ref.per_turn)
    assert len(r.per_turn) == len(r_ref.per_turn) == r.turns_played * sc.goa.n_countries
    assert driver.record(g) == driver.record(ref)
    assert g.decisions == ref.decisions


@pytest.mark.parametrize("allied, central", [(GoaGreedyPolicy, None), (None, GoaPassivePolicy),
                                             (GoaGreedyPolicy, GoaGreedyPolicy)])
def test_python_policies_play_the_same_game_on_the_core(allied, central):
    """A Python policy answers the core's decisions and reads the same state there."""
    raw = tiny.raw()
    raw["scenario"]["last"] = "1916-06"
    sc = scenario_from_raw(raw, {"colonies": True})

    def policies():
        return {side: cls() for side, cls in ((0, allied), (1, central)) if cls is not None}

    ref = GoaGame(sc, 5, 1, policies=policies(), events=True, engine="reference")
    ref.play()
    core = GoaGame(sc, 5, 1, policies=policies(), events=True, engine="core")
    core.play()
    assert core.events == ref.events
    assert core.state.equals(ref.state)
    quiet = GoaGame(sc, 5, 1, policies=policies(), engine="core")      # random sides inside
    quiet.play()
    assert quiet.state.equals(ref.state) and quiet.decisions == ref.decisions


def test_the_invariant_checker_sees_the_same_months_on_either_engine():
    raw = tiny.raw()
    raw["scenario"]["last"] = "1916-06"
    sc = scenario_from_raw(raw, {"colonies": True, "land": "fronts"})
    seen = {}
    for engine in ("core", "reference"):
        g = GoaGame(sc, 3, 3, engine=engine)
        states = []
        g.play(lambda month: states.append((month, g.state.buffer.tobytes())))
        seen[engine] = states
    assert seen["core"] == seen["reference"] and len(seen["core"]) > 10
