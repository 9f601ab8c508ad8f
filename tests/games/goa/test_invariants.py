"""Random games of the tiny world under the invariant checker, every month, for each kind of
option combination (the colonial variant needs the naval one)."""

from __future__ import annotations

import itertools

import pytest

from gwe_fast.games.goa import invariants
from gwe_fast.games.goa.game import GoaGame
from gwe_fast.games.goa.scenario import scenario_from_raw

import tiny

COMBOS = [
    {"variable_entry": ve, "morale": mo, "naval": nav, "colonies": col, "land": land,
     "naval_combat_chart": chart, "surrender": mo, "production": ve, "victory": not ve}
    for ve, mo, (nav, col, chart), land in itertools.product(
        (True, False), (True, False),
        ((True, True, True), (True, False, False), (False, False, False)),
        ("historical", "fronts"))
]


@pytest.mark.parametrize("options", COMBOS, ids=lambda o: "-".join(
    k for k, v in o.items() if v is True) + "-" + o["land"])
def test_random_games_keep_every_invariant(options):
    sc = scenario_from_raw(tiny.raw(), options)
    for index in range(2):
        g = GoaGame(sc, 2026, index)
        g.play(lambda month: invariants.check(g, month))
        assert g.state.scalars[1] != 0            # the game ended


def test_the_checker_catches_a_sunk_squadron_left_at_sea():
    sc = scenario_from_raw(tiny.raw(), {})
    g = GoaGame(sc, 1, 0)
    g.state.squadron_damage[0] = 3
    g.state.squadron_base[0] = -1
    g.state.squadron_sortie[0] = 1
    with pytest.raises(invariants.InvariantError, match="sunk squadron 0"):
        invariants.check(g, 0)


def test_the_checker_catches_a_conquered_country_with_an_army():
    sc = scenario_from_raw(tiny.raw(), {})
    g = GoaGame(sc, 1, 0)
    g.state.conquered[sc.goa.serbia] = 0
    with pytest.raises(invariants.InvariantError, match="conquered serbia"):
        invariants.check(g, 0)
