"""``PlayedGame.ask`` draws a random player's pick without building the ``Decision``: the
same games as ``RandomPolicy.choose`` asked through the ordinary path (a subclass that
changes nothing takes that path), in both games, and the same refusal of a decision without
options."""

import pytest

from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.policies.base import RandomPolicy


class Plain(RandomPolicy):
    """``RandomPolicy`` under another type: asked with a ``Decision`` like any policy."""


@pytest.mark.parametrize("name", ["kaisers_battle/historical", "brusilov/historical"])
def test_random_picks_without_a_decision_are_random_policys_picks(name):
    sc = load_scenario(name)
    d = driver(sc.game)

    def play(policy):
        game = d.new_game(sc, 9, 1, events=True, policies={0: policy(), 1: policy()})
        return game, d.play(game), d.record(game)

    (g1, r1, rec1), (g2, r2, rec2) = play(RandomPolicy), play(Plain)
    assert rec1 == rec2 and r1 == r2
    assert g1.events == g2.events and len(g1.events) > 1000
    assert g1.state.equals(g2.state)
    assert sum(e[0] == "choice" for e in g1.events) > 500


@pytest.mark.parametrize("policy", [RandomPolicy, Plain])
def test_a_decision_without_options_is_refused(policy):
    sc = load_scenario("kaisers_battle/historical")
    game = driver(sc.game).new_game(sc, 1, 1, policies={0: policy(), 1: policy()})
    with pytest.raises(ValueError, match="offers no option"):
        game.ask("demo.pick", 0, [])
