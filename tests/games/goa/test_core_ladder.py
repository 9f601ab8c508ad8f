"""The ladder policies that answer inside the compiled core (``_core/goa/ladder.pyx``) make the
choices of their Python twins (``policies/goa``): the same games, decision for decision and
byte for byte, on the tiny world under the pairwise option sets and on bundled starts."""

from __future__ import annotations

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast._core.goa.engine import GoaCore
from gwe_fast._core.goa.ladder import GREEDY, HISTORICAL, PASSIVE, history_rows
from gwe_fast.games.goa import parity
from gwe_fast.games.goa.codes import Kind, Month
from gwe_fast.games.goa.game import KIND_NAMES, GoaGame
from gwe_fast.games.goa.scenario import scenario_from_raw
from gwe_fast.policies.base import RandomPolicy
from gwe_fast.policies.goa.greedy import GoaGreedyPolicy, GoaPassivePolicy
from gwe_fast.policies.goa.historical import GoaHistoricalPolicy, history
from gwe_fast.policies.registry import make_policy

import tiny

COMBOS = parity.option_combinations()
KIND_CODES = {name: code for code, name in KIND_NAMES.items()}


def _play(sc, policies, seed: int = 17, index: int = 3, **kw) -> GoaGame:
    g = GoaGame(sc, seed, index, policies=policies, **kw)
    g.play()
    return g


def _same_game(sc, make, seed: int = 17, index: int = 3) -> GoaGame:
    """``make()`` gives the policies; they play once on the reference engine (in Python) and
    once on the core (the ladder and random sides inside it). Every decision (month, kind,
    side, subject, option chosen), the state at the end of every month and at the end must
    be the same, and every decision of the core's game answered inside it."""
    ref_months: list[bytes] = []
    core_months: list[bytes] = []
    ref = GoaGame(sc, seed, index, policies=make(), engine="reference", events=True)
    ref.play(after_month=lambda m: ref_months.append(ref.state.buffer.tobytes()))
    core = GoaGame(sc, seed, index, policies=make(), engine="core")
    core.play(after_month=lambda m: core_months.append(core.state.buffer.tobytes()),
              trace=True)
    ref_choices = [(e[1], KIND_CODES[e[2]], e[3], e[4], e[5]) for e in ref.events
                   if e[0] == "choice"]
    core_choices = [(r[0], r[1], r[2], r[3], r[7]) for r in core.trace.tolist()]
    for i, (a, b) in enumerate(zip(ref_choices, core_choices)):
        if a != b:
            month, kind, side, subject, code = a
            pytest.fail(f"decision {i} ({Month.name(month)}, {Kind(kind).name}, side {side}, "
                        f"subject {subject}): Python chose {code}, the core {b[4]}"
                        + ("" if a[:4] == b[:4] else f" (the core was asked {b[:4]})"))
    assert len(core_choices) == len(ref_choices)
    assert core.decisions == ref.decisions == len(ref_choices) > 0
    assert core.decisions_in_core == core.decisions
    for m, (a, b) in enumerate(zip(ref_months, core_months)):
        assert a == b, f"the state differs at the end of month {m} of the game"
    assert len(core_months) == len(ref_months)
    assert core.state.equals(ref.state)
    return core


def _tiny(n: int, last: str = "1915-12"):
    raw = tiny.raw()
    raw["scenario"]["last"] = last
    return scenario_from_raw(raw, COMBOS[n])


# parameters away from the defaults: each switch both ways, the weights lowered
BOLD = {"usw": 1, "gift": 0, "aggression": 0.5, "caution": 0}
MEEK = {"usw": 0, "caution": 0}


@pytest.mark.parametrize("n", range(len(COMBOS)))
def test_greedy_in_the_core_plays_the_python_greedy_games(n):
    first, second = ({}, BOLD) if n % 2 == 0 else (BOLD, {})
    _same_game(_tiny(n), lambda: {0: GoaGreedyPolicy(**first), 1: GoaGreedyPolicy(**second)},
               seed=17 + n)


@pytest.mark.parametrize("n", range(len(COMBOS)))
def test_historical_in_the_core_plays_the_python_historical_games(n):
    # the historical policy on each side in turn, against a greedy one with other parameters
    if n % 2 == 0:
        make = lambda: {0: GoaHistoricalPolicy(), 1: GoaGreedyPolicy(**MEEK)}  # noqa: E731
    else:
        make = lambda: {0: GoaGreedyPolicy(**BOLD), 1: GoaHistoricalPolicy()}  # noqa: E731
    _same_game(_tiny(n), make, seed=30 + n)


@pytest.mark.parametrize("n", range(len(COMBOS)))
def test_greedy_in_the_core_against_random_plays_the_python_games(n):
    # the ladder's own wrapper (``gwe run --policy greedy:...`` makes it), its parameters passed
    # to the core by GoaGame
    spec = "greedy:usw=0,caution=0" if n % 2 == 0 else "greedy:gift=0,aggression=0.5"
    make = lambda: ({0: make_policy(spec), 1: RandomPolicy()} if n % 3  # noqa: E731
                    else {0: RandomPolicy(), 1: make_policy(spec)})
    _same_game(_tiny(n), make, seed=50 + n)


def test_the_compiled_ladder_plays_the_python_campaign():
    # every variant (the scenario's defaults): the Allies historical, the Central Powers greedy
    sc = load_scenario("goa/campaign")
    assert all(sc.options[o] for o in ("variable_entry", "morale", "production", "victory",
                                       "surrender", "naval", "colonies", "naval_combat_chart"))
    _same_game(sc, lambda: {0: GoaHistoricalPolicy(), 1: GoaGreedyPolicy()}, seed=5, index=0)


def test_the_compiled_ladder_plays_the_python_1918_start_on_fronts():
    # a later start, with the land war of fronts (the policies' offensives and attacks)
    sc = load_scenario("goa/1918", {"land": "fronts"})
    _same_game(sc, lambda: {0: GoaGreedyPolicy(**BOLD), 1: GoaHistoricalPolicy()}, seed=8,
               index=2)


@pytest.mark.parametrize("n", range(len(COMBOS)))
def test_passive_in_the_core_plays_the_python_passive_games(n):
    sc = _tiny(n, last="1916-12")
    _same_game(sc, lambda: {0: GoaPassivePolicy(), 1: GoaPassivePolicy()})
    _same_game(sc, lambda: {0: RandomPolicy(), 1: GoaPassivePolicy()})


def test_passive_in_the_core_plays_the_python_passive_campaign():
    sc = load_scenario("goa/campaign")
    _same_game(sc, lambda: {0: GoaPassivePolicy(), 1: RandomPolicy()})


def test_the_ladder_answers_inside_the_core_and_a_subclass_in_python():
    class Bolder(GoaPassivePolicy):
        def on_usw(self, d, view, rng):
            return len(d.options) - 1

    class Greedier(GoaGreedyPolicy):
        pass

    class Later(GoaHistoricalPolicy):
        pass

    assert GoaPassivePolicy().core_level() == PASSIVE
    assert GoaGreedyPolicy().core_level() == GREEDY
    assert GoaHistoricalPolicy().core_level() == HISTORICAL
    assert Bolder().core_level() is None
    assert Greedier().core_level() is None
    assert Later().core_level() is None
    sc = scenario_from_raw(tiny.raw(), {})
    for level in (PASSIVE, GREEDY, HISTORICAL):
        core = GoaCore(sc.goa, seed=1, game_index=0)
        core.play(level, level)
        assert core.over and core.decisions_in_c == core.decisions > 0
    bold = _play(sc, {0: Bolder(), 1: Bolder()})
    meek = _play(sc, {0: GoaPassivePolicy(), 1: GoaPassivePolicy()})
    assert not bold.state.equals(meek.state)          # the subclass's own choice was played
    assert bold.decisions_in_core == 0 < bold.decisions
    assert meek.decisions_in_core == meek.decisions > 0
    sub = _play(sc, {0: Greedier(), 1: Later()})
    assert sub.decisions_in_core == 0 < sub.decisions


@pytest.mark.parametrize("spec, level", [("passive", PASSIVE), ("greedy", GREEDY),
                                         ("historical", HISTORICAL)])
def test_the_ladder_names_play_inside_the_core(spec, level):
    # what ``gwe run --policy NAME`` makes (policies/ladder.py) forwards its twin's level and
    # parameters, so that its games are answered inside the core
    sc = load_scenario("goa/1918")
    policy = make_policy(spec)
    assert policy.core_level() == level
    g = _play(sc, {0: make_policy(spec), 1: make_policy(spec)}, seed=3, index=1)
    assert g.decisions_in_core == g.decisions > 0


def test_ladder_parameters_reach_the_core():
    sc = load_scenario("goa/1918")
    policy = make_policy("greedy:usw=0,gift=0,aggression=0.5,caution=2")
    assert policy.core_params(sc.goa) == {"aggression": 0.5, "caution": 2, "usw": 0,
                                          "gift": 0}
    core = GoaCore(sc.goa, seed=1, game_index=0)
    assert core.params(1) == {"aggression": 1.0, "caution": 1.0, "usw": -1.0, "gift": -1.0}
    core.set_params(1, **policy.core_params(sc.goa))
    assert core.params(1) == {"aggression": 0.5, "caution": 2.0, "usw": 0.0, "gift": 0.0}
    assert core.params(0)["usw"] == -1.0 and core.history_rows is None
    rows = make_policy("historical").core_params(sc.goa)["history"]
    assert rows is make_policy("historical").core_params(sc.goa)["history"]   # compiled once
    mine = rows.copy()
    core.set_params(0, history=mine)
    assert np.array_equal(core.history_rows, rows)
    assert mine.flags.writeable and not core.history_rows.flags.writeable    # the core's copy
    with pytest.raises(ValueError, match="side must be 0"):
        core.set_params(2)
    with pytest.raises(TypeError, match="caution must be a number"):
        core.set_params(0, caution="high")
    with pytest.raises(ValueError, match=r"int32\[n, 5\]"):
        core.set_params(0, history=np.zeros((2, 3), np.int32))


def test_historical_rows_are_compiled_against_the_scenario():
    t = load_scenario("goa/campaign").goa
    rows = history_rows(t, history())
    c = t.c_key.index
    assert rows.dtype == np.int32 and rows.shape[1] == 5
    # invade (0): Belgium in August 1914; gift (1) and usw (2) by side; the measures by country
    assert rows[0].tolist() == [0, c("belgium"), -1, Month.of("1914-08"), Month.of("1914-08")]
    assert rows[rows[:, 0] == 1].tolist() == [[1, 1, -1, Month.of("1914-08"), Month.of("1914-08")]]
    assert rows[rows[:, 0] == 2][:, 3:].tolist() == [[Month.of("1915-02"), Month.of("1915-09")],
                                                     [Month.of("1917-02"), Month.of("1919-12")]]
    assert [c("britain"), Month.of("1916-01")] in rows[rows[:, 0] == 4][:, [1, 3]].tolist()
    first = rows[rows[:, 0] == 5][0].tolist()
    assert first == [5, c("germany"), c("france"), Month.of("1914-08"), Month.of("1914-11")]
    # a row naming a country the scenario lacks is left out, as the Python policy never
    # matches it
    lacking = {"conscription": [{"country": "atlantis", "month": 3, "until": 3}],
               "offensive": [{"country": "germany", "against": "atlantis", "month": 3,
                              "until": 4}]}
    assert history_rows(t, lacking).shape == (0, 5)
    with pytest.raises(ValueError, match="side must be allied or central"):
        history_rows(t, {"usw": [{"side": "neutral", "month": 3, "until": 4}]})
