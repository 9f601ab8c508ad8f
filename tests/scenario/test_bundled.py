"""The bundled scenarios: they load, and their scenario-level data follow the rulebooks."""

import numpy as np
import pytest

from gwe_fast import Game, bundled_scenarios, load_scenario
from gwe_fast.enums import Side
from gwe_fast.state import Status


HEX_SCENARIOS = sorted(k for k in bundled_scenarios() if not k.startswith("goa/"))


@pytest.mark.parametrize("key", HEX_SCENARIOS)
def test_every_bundled_scenario_loads_and_every_set_up_unit_is_on_the_map(key):
    sc = load_scenario(key)
    sc.map.check_symmetric()
    g = Game(sc)
    placed = sc.units.setup_cell >= 0
    in_play = np.array([not opt for opt in sc.units.option])
    assert (g.state.unit_status[placed & in_play] == Status.ON_MAP).all()
    assert (g.state.unit_cell[placed & in_play] >= 0).all()


@pytest.mark.parametrize("key", sorted(k for k in bundled_scenarios() if k.startswith("goa/")))
def test_every_bundled_guns_of_august_start_loads_and_plays_its_first_month(key):
    from gwe_fast.games.goa.game import GoaGame

    sc = load_scenario(key)
    assert sc.game == "goa" and sc.first_turn <= sc.last_turn
    g = GoaGame(sc, 1, 0)
    months = []
    g.play(lambda month: months.append(month))
    assert months[0] == sc.first_turn


def test_26_1_historical_scenario():
    sc = load_scenario("brusilov/historical")
    assert (sc.first_turn, sc.last_turn, sc.first_player, sc.initial_vp) == (1, 14, Side.ALLIED, 0)
    assert sc.options == {"sga_early": False, "west_front": False, "more_supply_rail": False,
                          "better_commanders": False, "track_limits": True,
                          "unlimited_command": False}


def test_26_3_option_vp_costs():
    vp = lambda **o: load_scenario("brusilov/historical", o).initial_vp  # noqa: E731
    assert vp(sga_early=True) == -6                      # 26.31
    assert vp(west_front=True) == -6                     # 26.32
    assert vp(more_supply_rail=True) == -6               # 26.33
    assert vp(better_commanders=True) == -1              # 26.34: 8KL for 8KA
    assert vp(better_commanders=True, sga_early=True) == -8   # and GGU for GBZ: -1 more
    assert vp(sga_early=True, better_commanders=True, more_supply_rail=True) == -14
    with pytest.raises(Exception, match="cannot be used with 'west_front'"):
        load_scenario("brusilov/historical", {"more_supply_rail": True, "west_front": True})
    sc = load_scenario("brusilov/attack_on_schedule", {"sga_early": True})
    assert sc.initial_vp == -8 - 6                       # 26.25 and 26.31 together


def test_26_31_and_26_34_option_units_play_only_with_their_options():
    def status(options, unit):
        sc = load_scenario("brusilov/historical", options)
        return Game(sc).state.unit_status[sc.units.index(unit)]

    assert status({}, "ru-hq-gbz") == Status.NOT_IN_PLAY
    assert status({"sga_early": True}, "ru-hq-gbz") == Status.PENDING
    assert status({"better_commanders": True}, "ru-hq-ggu") == Status.NOT_IN_PLAY
    assert status({"better_commanders": True, "sga_early": True}, "ru-hq-ggu") == Status.PENDING


def test_26_2_attack_on_schedule():
    sc = load_scenario("brusilov/attack_on_schedule")
    assert (sc.first_turn, sc.last_turn, sc.initial_vp) == (5, 18, -8)
    u, m = sc.units, sc.map
    setup = {m.id_of(u.setup_cell[u.index(i)]) for i in ("ru-xx-9s", "ru-xx-10s", "ru-cav-xx-nc")}
    assert setup == {"0907"}                                                   # 26.21
    assert {m.id_of(u.setup_cell[u.index(i)]) for i in ("ru-xx-45", "ru-xx-46")} == {"1007"}
    assert sorted(m.id_of(u.setup_cell[u.index(i)]) for i in ("ru-depot-8", "ru-depot-9")) == [
        "0908", "2110"]
    schedule = {7: {"BI", "JA", "BH"}, 8: {"1", "108"}, 9: {"3"}, 10: {"61", "GR"}, 11: {"105"},
                12: {"10", "19", "20", "107"}, 13: {"48", "11B", "43R"},
                14: {"44", "1R", "59", "119"}, 15: {"37", "22"}}          # 26.22
    central = u.side == Side.CENTRAL
    got = {}
    for i in np.flatnonzero(central & (u.arrival_turn > 0)):
        if sc.units.utype[i] != 3:                                          # depots: 26.23
            got.setdefault(int(u.arrival_turn[i]), set()).add(u.names[i])
    assert got == schedule
    hist = load_scenario("brusilov/historical")
    assert hist.units.setup_cell[hist.units.index("ru-xx-9s")] == -1       # historical: turn 3
    assert hist.units.arrival_turn[hist.units.index("ru-xx-9s")] == 3


def test_20_0_kaisers_battle_length():
    sc = load_scenario("kaisers_battle/historical")
    assert (sc.first_turn, sc.last_turn, sc.first_player) == (1, 10, Side.CENTRAL)


def test_a_scenario_loads_identically_on_the_pure_python_twins():
    a = load_scenario("brusilov/historical")
    b = load_scenario("brusilov/historical", impl="pure")
    assert b.map.k.name == "pure" and a.map.k.name == "cython"
    for name in ("neighbors", "q", "r", "ids", "terrain", "features", "hexsides"):
        np.testing.assert_array_equal(getattr(a.map, name), getattr(b.map, name))
    assert a.data_hash == b.data_hash
    assert Game(a, seed=4).state.equals(Game(b, seed=4).state)


def _russian_side_of_start_line(sc):
    """Cells reachable from the Russian set-up without crossing a start-line hexside (18.27)."""
    from gwe_fast._core.search import bounded_search
    from gwe_fast.enums import Hexside

    m, u = sc.map, sc.units
    cost = np.where((m.neighbors >= 0) & ~(m.hexsides & Hexside.START_LINE).astype(bool), 1,
                    -1).astype(np.int16)
    russian = u.setup_cell[(u.side == Side.ALLIED) & (u.setup_cell >= 0)]
    dist, _ = bounded_search(m.neighbors, cost, russian)
    return dist[0] >= 0


def test_18_27_start_line_separates_the_set_ups():
    sc = load_scenario("brusilov/historical")
    u = sc.units
    east = _russian_side_of_start_line(sc)
    central = u.setup_cell[(u.side == Side.CENTRAL) & (u.setup_cell >= 0)]
    assert not east[central].any()          # no Central Powers unit east of the start line
    assert east.sum() > 100 and (~east).sum() > 100


def test_25_11_victory_point_towns():
    # Ruling (docs/rulings.md, 25.11/25.3): points only on towns the Central Powers hold at the
    # start, 62 in all, so that a historical result lands near the 29/30 boundary of 25.3.
    sc = load_scenario("brusilov/historical")
    east = _russian_side_of_start_line(sc)
    valued = [p for p in sc.places if p.vp > 0]
    assert sum(p.vp for p in valued) == 62
    assert not any(east[p.cell] for p in valued)
    by_name = {p.name: p.vp for p in sc.places}
    assert (by_name["Lemberg"], by_name["Kowel"], by_name["Czernowitz"], by_name["Luck"]) == (
        10, 8, 5, 4)
