"""Scenario set-up rules handled by the engine: 26.34 Better Commanders at the start."""

from gwe_fast import load_scenario
from gwe_fast.games.gwe.game import GweGame
from gwe_fast.state import Status


def test_26_34_8kl_replaces_8ka_at_the_start():
    sc = load_scenario("brusilov/historical", {"better_commanders": True})
    g = GweGame(sc)
    u, st = sc.units, g.state
    ka, kl = u.index("ru-hq-8ka"), u.index("ru-hq-8kl")
    assert st.unit_status[ka] == Status.NOT_IN_PLAY and st.unit_cell[ka] == -1
    assert st.unit_status[kl] == Status.ON_MAP
    assert sc.map.id_of(st.unit_cell[kl]) == sc.map.id_of(u.setup_cell[ka]) == "0308"
    plain = GweGame(load_scenario("brusilov/historical"))
    assert plain.state.unit_status[ka] == Status.ON_MAP
    assert plain.state.unit_status[kl] == Status.NOT_IN_PLAY


def test_19_21_a_burned_depot_goes_back_to_the_depot_pool():
    from gwe_fast.games.gwe.combat import burn_depot
    from gwe_fast.games.gwe.reinforcements import depot_pool

    g = GweGame(load_scenario("brusilov/historical"))
    u = g.scenario.units
    d = u.index("ru-depot-1")
    assert g.state.unit_status[d] == Status.ON_MAP and d not in depot_pool(g, 0)
    vp = int(g.state.vp)
    burn_depot(g, d)
    assert g.state.unit_status[d] == Status.POOL and int(g.state.vp) == vp   # no VP (25.2)
    assert d in depot_pool(g, 0)
