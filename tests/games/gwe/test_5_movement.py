"""Movement: 5.1 restrictions, 5.2 friendly units, 5.4 terrain, 7.2 zones of control, 9.21."""

import numpy as np

from gwe_positions import position, unit
from gwe_fast.games.gwe.movement import movement_allowance, reachable, step_costs
from gwe_fast.state import Status


def reach(g, uid):
    """{hex id: Movement Points} of the hexes a unit can reach."""
    d = reachable(g.scenario, g.state, g.unit(uid))
    m = g.scenario.map
    return {m.id_of(c): int(d[c]) for c in np.flatnonzero(d >= 0)}


def test_5_12_one_movement_point_per_clear_hex():
    g = position([unit("r", "russian", "0404")])            # TCR 3, movement 4
    r = reach(g, "r")
    assert r["0404"] == 0
    assert all(r[h] == 1 for h in ["0403", "0504", "0505", "0405", "0305", "0304"])
    m = g.scenario.map
    assert set(r) == {m.id_of(c) for c in m.within("0404", 4)}
    assert all(v == m.distance("0404", h) for h, v in r.items())


def test_5_4_terrain_costs_depend_on_the_tcr():
    # forest costs 1 for TCR 1-2 and 2 for TCR 3-4; swamp 2,2,2,3; rough 2; mountain 2,2,3,3
    terr = {"forest": ["0304"], "swamp": ["0504"], "rough": ["0403"], "mountain": ["0405"]}
    costs = {}
    for nat in ("german", "russian", "austro_hungarian"):     # TCR 1, 3, 4 (17.0)
        g = position([unit("x", nat, "0404")], terrain=terr)
        c = step_costs(g.scenario, g.state, g.unit("x"))
        m = g.scenario.map
        here = m.cell("0404")
        costs[nat] = {m.id_of(m.neighbors[here, d]): int(c[here, d]) for d in range(6)}
    assert [costs[n]["0304"] for n in ("german", "russian", "austro_hungarian")] == [1, 2, 2]
    assert [costs[n]["0504"] for n in ("german", "russian", "austro_hungarian")] == [2, 2, 3]
    assert [costs[n]["0403"] for n in ("german", "russian", "austro_hungarian")] == [2, 2, 2]
    assert [costs[n]["0405"] for n in ("german", "russian", "austro_hungarian")] == [2, 3, 3]
    assert [costs[n]["0505"] for n in ("german", "russian", "austro_hungarian")] == [1, 1, 1]


def test_5_4_city_replaces_the_terrain_town_does_not_trench_and_rivers_add():
    g = position([unit("ru", "russian", "0404")],
                 terrain={"mountain": ["0403", "0405"], "forest": ["0504"]},
                 features={"city": ["0403"], "town": ["0405"], "trench_central": ["0504"]},
                 hexsides={"minor_river": ["0404-0305"], "major_river": ["0404-0304"]})
    c = step_costs(g.scenario, g.state, g.unit("ru"))
    m = g.scenario.map
    here = m.cell("0404")
    to = {m.id_of(m.neighbors[here, d]): int(c[here, d]) for d in range(6)}
    assert to["0403"] == 1          # city in mountain: the city's 1
    assert to["0405"] == 3          # town in mountain: as the mountain (TCR 3)
    assert to["0504"] == 3          # forest 2 + trench 1
    assert to["0305"] == 2 and to["0304"] == 2   # river hexsides +1
    assert to["0505"] == 1


def test_5_4_blocked_hexsides_are_prohibited():
    g = position([unit("ru", "russian", "0404")], hexsides={"blocked": ["0404-0405"]})
    assert "0405" not in {h for h, v in reach(g, "ru").items() if v == 1}
    assert reach(g, "ru")["0405"] == 2           # around, not across


def test_5_13_never_into_an_enemy_occupied_hex():
    g = position([unit("ru", "russian", "0404"), unit("ah", "austro_hungarian", "0406")])
    r = reach(g, "ru")
    assert "0406" not in r


def test_7_21_one_more_to_enter_an_enemy_controlled_hex_and_7_23_none_to_leave():
    g = position([unit("ru", "russian", "0402"), unit("ah", "austro_hungarian", "0406")])
    r = reach(g, "ru")
    assert r["0404"] == 2                 # clear 1 + ZOC 1 (0404 is adjacent to 0406)
    assert r["0403"] == 1
    g = position([unit("ru", "russian", "0405"), unit("ah", "austro_hungarian", "0407")])
    r = reach(g, "ru")                    # starts in the enemy ZOC: leaving costs nothing
    assert r["0404"] == 1 and r["0403"] == 2


def test_7_22_from_one_enemy_controlled_hex_to_another():
    g = position([unit("ru", "russian", "0405"), unit("ah", "austro_hungarian", "0406")])
    r = reach(g, "ru")                    # 0506 and 0306 are next to both units
    assert r["0506"] == 2 and r["0306"] == 2


def test_7_11_no_zone_of_control_across_a_prohibited_hexside():
    g = position([unit("ru", "russian", "0402"), unit("ah", "austro_hungarian", "0405")],
                 hexsides={"blocked": ["0404-0405"]})
    assert reach(g, "ru")["0404"] == 2    # not enemy-controlled: 1 + 1, no ZOC cost


def test_7_26_hqs_exert_no_zone_of_control_19_3_depots_do():
    g = position([unit("ru", "russian", "0402"), unit("hq", "austro_hungarian", "0405", "hq"),
                  unit("dp", "austro_hungarian", "0105", "depot")])
    r = reach(g, "ru")
    assert r["0404"] == 2                 # next to the HQ only: no ZOC
    assert r["0204"] == 4                 # three hexes away, and next to the depot at 0105: +1
    g2 = position([unit("ru", "russian", "0402"), unit("hq", "austro_hungarian", "0405", "hq")])
    assert reach(g2, "ru")["0204"] == 3   # without the depot


def test_5_14_and_5_21_friendly_units_cost_nothing_and_the_allowance_is_a_limit():
    g = position([unit("ru", "russian", "0401"), unit("r2", "russian", "0402"),
                  unit("r3", "russian", "0403")], rows=(1, 9))
    r = reach(g, "ru")
    assert r["0403"] == 2 and r["0405"] == 4 and "0406" not in r


def test_5_17_a_unit_may_always_move_one_hex_but_not_when_out_of_command():
    g = position([unit("ru", "russian", "0404")], terrain={"mountain": ["0403"]},
                 hexsides={"major_river": ["0404-0403"]})
    g.state.unit_status[g.unit("ru")] |= Status.OUT_OF_SUPPLY      # allowance 4 -> 2
    assert movement_allowance(g.scenario, g.state, g.unit("ru")) == 2
    r = reach(g, "ru")
    assert r["0403"] == 4                 # mountain 3 + river 1 > 2, but it is one hex
    after = reachable(g.scenario, g.state, g.unit("ru"), spent=1)
    assert after[g.scenario.map.cell("0403")] == -1
    g.state.unit_status[g.unit("ru")] |= Status.OUT_OF_COMMAND
    assert reach(g, "ru") == {"0404": 0}


def test_9_21_out_of_supply_halves_movement_never_below_one():
    g = position([unit("ru", "russian", "0404"),
                  unit("slow", "russian", "0101", steps=[[1, 1, 1]])])
    for uid, full, half in (("ru", 4, 2), ("slow", 1, 1)):
        i = g.unit(uid)
        assert movement_allowance(g.scenario, g.state, i) == full
        g.state.unit_status[i] |= Status.OUT_OF_SUPPLY
        assert movement_allowance(g.scenario, g.state, i) == half


def test_10_52_a_unit_with_attack_strength_may_enter_a_hex_holding_only_enemy_hqs():
    g = position([unit("ru", "russian", "0404"), unit("zero", "russian", "0402",
                                                      steps=[[0, 1, 4]]),
                  unit("hq", "austro_hungarian", "0405", "hq")])
    assert reach(g, "ru")["0405"] == 1
    assert "0405" not in reach(g, "zero")


def test_24_41_the_armored_car_never_enters_a_mountain():
    g = position([unit("ac", "russian", "0404", "armored_car", size="none")],
                 terrain={"mountain": ["0403"]})
    assert "0403" not in reach(g, "ac")


def test_19_42_and_19_43_cavalry_living_off_the_land_moves_normally_without_a_zoc():
    from gwe_fast.games.gwe.game import Flag
    from gwe_fast.games.gwe.zoc import controlled

    g = position([unit("cav", "russian", "0404", "cavalry"),
                  unit("ah", "austro_hungarian", "0101")])
    i = g.unit("cav")
    g.state.unit_status[i] |= Status.OUT_OF_SUPPLY
    assert movement_allowance(g.scenario, g.state, i) == 3          # halved (9.21)
    assert controlled(g.scenario, g.state, 0)[g.scenario.map.cell("0405")]
    g.state.extra["flags"][i] = Flag.LIVING_OFF_LAND
    assert movement_allowance(g.scenario, g.state, i) == 6          # 19.42: moves normally
    assert not controlled(g.scenario, g.state, 0).any()             # 19.43: no ZOC
