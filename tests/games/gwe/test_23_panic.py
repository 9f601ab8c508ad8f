"""Austro-Hungarian panic (Brusilov 23.1-23.4) and reduced A-H units in trenches (23.51).

Game-Turn 1 is the scenario's first turn on the board; the Russians attack from 0504. An A-H
HQ at 0507 keeps the defenders within a command radius, so that 10.43 leaves the results
as printed (Russian row: 1-1 die 1 "-/1", 2-1 die 1 "-/2", 3-1 die 1 "-/3", 5-1 die 1 "-/E").
"""

import numpy as np
from combat_positions import board, cell, fight, hexid, steps_lost, unit, where

from gwe_fast import load_scenario
from gwe_fast.games.gwe import combat, panic
from gwe_fast.games.gwe.game import Flag, GweGame

AH_DIV = [[2, 5, 4], [1, 2, 4]]
HQ = unit("ahq", "austro_hungarian", "0507", "hq")


def attacker(a):
    return unit("r", "russian", "0504", steps=[[a, 4, 4], [a, 2, 4]])


def panic_board(units, turn=1, **kw):
    return board(units + [HQ], turn=turn, **kw)


def test_23_11_panicking_units_defend_with_1_and_no_trench():
    trench = {"trench_central": ["0505", "0405", "0605"]}
    units = [unit("a", "austro_hungarian", "0505", steps=AH_DIV),
             unit("ah-xx-54", "austro_hungarian", "0405", steps=AH_DIV),
             unit("g", "german", "0605", steps=[[2, 4, 5]])]
    g = panic_board(units, features=trench)
    d = {h: combat.defense_strength(g, [cell(g, h)], 0) for h in ("0505", "0405", "0605")}
    assert d == {"0505": 1, "0405": 10, "0605": 8}         # Sud Armee and Germans: normal
    g = panic_board(units, turn=2, features=trench)
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 10


def test_23_12_divisions_lose_a_step_after_the_retreat_brigades_do_not():
    g = panic_board([attacker(2), unit("a", "austro_hungarian", "0505", steps=AH_DIV),
                     unit("b", "austro_hungarian", "0505", steps=[[1, 2, 4]], size="brigade",
                          stacking=1)])
    c = fight(g, ["r"], ["0505"], die=1)                   # 2 to 2: 1-1, die 1: -/1
    assert (c.defense, c.odds, c.defender_result) == (2, "1-1", "1")
    assert g.central.options("gwe.combat.option") == []    # no option: panic
    assert where(g, "a") == where(g, "b") == "0506"
    assert steps_lost(g, "a") == 1 and steps_lost(g, "b") == 0


def test_23_13_panic_retreat_equal_to_result():
    for a, expected in ((1, 1), (2, 2), (3, 3), (5, 4)):   # -/1, -/2, -/3, -/E
        g = panic_board([attacker(a), unit("a", "austro_hungarian", "0505", steps=AH_DIV)])
        c = fight(g, ["r"], ["0505"], die=1)
        path = c.retreats[cell(g, "0505")]
        assert len(path) == expected, (a, c.defender_result)
        assert g.scenario.map.distance("0505", path[-1]) == expected
        assert where(g, "a") == hexid(g, path[-1]) and steps_lost(g, "a") == 1
    assert c.defender_result == "E"                        # retreated four hexes, not killed


def test_23_14_the_whole_stack_panics_even_against_a_smaller_force():
    g = panic_board([unit("r", "russian", "0504", steps=[[2, 4, 4]])]
                    + [unit(f"a{i}", "austro_hungarian", "0505", steps=AH_DIV) for i in range(3)])
    c = fight(g, ["r"], ["0505"], die=1)                   # 2 to 3: 1-2, die 1: 1/1
    assert (c.odds, c.attacker_result, c.defender_result) == ("1-2", "1", "1")
    assert c.affected == 1
    assert all(where(g, f"a{i}") == "0506" and steps_lost(g, f"a{i}") == 1 for i in range(3))
    assert where(g, "r") == "elim"                         # the attacker's loss as usual


def test_23_15_eliminated_only_with_no_path_23_24_through_zones_of_control():
    # every hex around is a Russian unit: no path, eliminated (and surrounded, 25.13)
    g = panic_board([attacker(5), unit("a", "austro_hungarian", "0505", steps=AH_DIV)]
                    + [unit(f"e{h}", "russian", h) for h in ("0604", "0605", "0506", "0405",
                                                            "0404")])
    fight(g, ["r"], ["0505"], die=1)
    assert where(g, "a") == "elim" and int(g.state.vp) == 4
    # every hex around is only Russian-controlled: on Game-Turn 1 they may cross (the ring
    # also cuts the HQ's radius: 10.43 makes the -/1 a -/2)
    ring = [attacker(1), unit("e1", "russian", "0606"), unit("e2", "russian", "0406")]
    g = panic_board(ring + [unit("a", "austro_hungarian", "0505", steps=AH_DIV)])
    c = fight(g, ["r"], ["0505"], die=1)
    assert c.defender_result == "2" and where(g, "a") == "0507"
    assert c.retreats[cell(g, "0505")] == (cell(g, "0506"), cell(g, "0507"))


def test_23_16_the_russians_advance_along_the_path_of_the_retreat():
    g = panic_board([attacker(2), unit("a", "austro_hungarian", "0505", steps=AH_DIV)])
    r = g.unit("r")
    g.allied.add("gwe.combat.advance", (r, cell(g, "0506")))
    c = fight(g, ["r"], ["0505"], die=1)                   # 2-1 ... -/2
    assert c.retreats[cell(g, "0505")] == (cell(g, "0506"), cell(g, "0507"))
    (opts,) = g.allied.options("gwe.combat.advance")
    assert opts == ["done", (r, cell(g, "0505")), (r, cell(g, "0506"))]  # 0507 is held
    assert where(g, "r") == "0506"
    assert g.state.hex_last[cell(g, "0505")] == 0 and g.flag(r, Flag.ADVANCED)


def test_23_21_contagion_adjacent_units_retreat_one_hex_and_divisions_lose_a_step():
    g = panic_board([attacker(1), unit("a", "austro_hungarian", "0505", steps=AH_DIV),
                     unit("n", "austro_hungarian", "0605", steps=AH_DIV),
                     unit("ah-xx-54", "austro_hungarian", "0405", steps=AH_DIV),
                     unit("f", "austro_hungarian", "0306", steps=AH_DIV),
                     unit("gn", "german", "0506")])
    g.central.add("gwe.combat.retreat", lambda o: o[0])
    c = fight(g, ["r"], ["0505"], die=1)                   # 1 to 1... -/1: a retreats
    assert c.defender_result == "1" and where(g, "a") == "0506"
    assert where(g, "n") in ("0606", "0706") and steps_lost(g, "n") == 1
    assert g.flag(g.unit("n"), Flag.PANICKED)
    assert where(g, "ah-xx-54") == "0405" and steps_lost(g, "ah-xx-54") == 0   # 23.42
    assert where(g, "f") == "0306" and steps_lost(g, "f") == 0                # not adjacent
    assert where(g, "gn") == "0506"                                             # German
    # 23.22: not into the vacated hex nor the path of the retreat; before the advance
    n = g.unit("n")
    (opts,) = [o for k, o, ctx in g.central.asked
               if k == "gwe.combat.retreat" and ctx["units"] == (n,)]
    assert sorted(hexid(g, p[0]) for p in opts) == ["0606", "0706"]
    kinds = [e[2] for e in g.events if e[0] == "choice"]
    assert kinds.index("gwe.combat.retreat") < kinds.index("gwe.combat.advance")


def test_23_25_a_unit_the_retreat_passes_through_retreats_one_hex_undisrupted():
    g = panic_board([attacker(2), unit("a", "austro_hungarian", "0505", steps=AH_DIV),
                     unit("p", "austro_hungarian", "0507", steps=AH_DIV)])
    c = fight(g, ["r"], ["0505"], die=1)                   # -/2: by 0506 into 0507
    assert c.retreats[cell(g, "0505")] == (cell(g, "0506"), cell(g, "0507"))
    assert where(g, "a") == "0507"
    assert where(g, "p") == "0508" and steps_lost(g, "p") == 0
    assert g.flag(g.unit("p"), Flag.PANICKED)
    assert where(g, "ahq") == "0507"                       # the HQ stays with its stack


def test_23_26_a_unit_panics_only_once():
    g = panic_board([attacker(1), unit("a", "austro_hungarian", "0505", steps=AH_DIV),
                     unit("n", "austro_hungarian", "0605", steps=AH_DIV)])
    g.set_flag(g.unit("n"), Flag.PANICKED)
    fight(g, ["r"], ["0505"], die=1)
    assert where(g, "n") == "0605" and steps_lost(g, "n") == 0
    # attacked later in the phase, a panicked unit still panics (23.12)
    g = panic_board([attacker(1), unit("a", "austro_hungarian", "0505", steps=AH_DIV)])
    g.set_flag(g.unit("a"), Flag.PANICKED)
    fight(g, ["r"], ["0505"], die=1)
    assert where(g, "a") == "0506" and steps_lost(g, "a") == 1
    assert g.central.options("gwe.combat.option") == []


def test_23_42_sud_armee_units_defend_normally_23_41_germans_too():
    for uid, nat in (("ah-xx-54", "austro_hungarian"), ("g", "german")):
        g = panic_board([attacker(5), unit(uid, nat, "0505", steps=AH_DIV),
                         unit("n", "austro_hungarian", "0605", steps=AH_DIV)])
        g.central.add("gwe.combat.option", "retreat_1")
        c = fight(g, ["r"], ["0505"], die=1)               # 5 to 5: 1-1, die 1: -/1
        assert (c.defense, c.defender_result) == (5, "1")
        assert g.central.options("gwe.combat.option") == [["lose_half_affected_steps",
                                                           "retreat_1"]]
        assert where(g, uid) == "0506" and steps_lost(g, uid) == 0
        contagious = nat == "austro_hungarian"             # 23.21: "including those in 23.42"
        assert (where(g, "n") != "0605") is contagious


def test_23_0_panic_only_in_the_russian_combat_phase_of_the_scenarios_first_turn():
    g = panic_board([attacker(2), unit("a", "austro_hungarian", "0505", steps=AH_DIV)], turn=2)
    assert not panic.panic_in_effect(g, 0)
    g.central.add("gwe.combat.option", "retreat_1")
    fight(g, ["r"], ["0505"], die=1)                       # 2 to 5: 1-3 ... asked normally
    assert g.central.options("gwe.combat.option")
    aos = GweGame(load_scenario("brusilov/attack_on_schedule"))
    assert int(aos.state.turn) == 5 and panic.panic_in_effect(aos, 0)
    assert not panic.panic_in_effect(aos, 1)
    aos.state.turn = np.int16(6)
    assert not panic.panic_in_effect(aos, 0)


def test_23_51_reduced_austro_hungarian_units_get_no_trench_benefit():
    g = board([unit("a", "austro_hungarian", "0505", steps=AH_DIV),
               unit("g", "german", "0605", steps=[[2, 4, 5], [1, 2, 5]])],
              features={"trench_central": ["0505", "0605"]})
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 10
    g.state.unit_step[[g.unit("a"), g.unit("g")]] = 1
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 2
    assert combat.defense_strength(g, [cell(g, "0605")], 0) == 4       # Germans keep it


def test_23_16_an_advance_along_the_path_displaces_enemy_hqs_alone_in_a_hex():
    g = panic_board([attacker(2), unit("a", "austro_hungarian", "0505", steps=AH_DIV),
                     unit("h2", "austro_hungarian", "0506", "hq")])
    r = g.unit("r")
    g.allied.add("gwe.combat.advance", (r, cell(g, "0506")))
    fight(g, ["r"], ["0505"], die=1)                       # -/2: by 0506 into 0507
    assert where(g, "r") == "0506"
    assert where(g, "h2") == "0507"                        # 10.52: to the nearest friend


def test_23_0_depots_do_not_panic_terrain_still_doubles_a_panicking_1():
    g = panic_board([attacker(1), unit("dp", "austro_hungarian", "0505", "depot")])
    g.central.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["r"], ["0505"], die=1)                   # 1 to 1: -/1
    assert c.defender_result == "1" and g.central.options("gwe.combat.option")
    g = panic_board([unit("a", "austro_hungarian", "0505", steps=AH_DIV)],
                    terrain={"mountain": ["0505"]}, features={"trench_central": ["0505"]})
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 2


def test_23_41_in_a_mixed_stack_the_germans_take_an_option_of_their_own():
    g = panic_board([unit("r", "russian", "0504", steps=[[5, 4, 4], [5, 2, 4]]),
                     unit("g", "german", "0505", steps=[[1, 4, 5], [1, 2, 5]]),
                     unit("a", "austro_hungarian", "0505", steps=AH_DIV)])
    g.central.add("gwe.combat.option", "lose_half_affected_steps")
    c = fight(g, ["r"], ["0505"], die=1)                   # 5 to 5: 1-1, die 1: -/1
    assert (c.defense, c.defender_result) == (5, "1")
    assert where(g, "a") == "0506" and steps_lost(g, "a") == 1
    assert where(g, "g") == "0505" and steps_lost(g, "g") == 1   # half of min(2, 2)
    assert g.allied.options("gwe.combat.advance") == []


def test_23_23_no_advance_into_a_hex_vacated_by_contagion():
    # p stands in 0506, next to the defender: the defender retreats through it (-/2), then p
    # panics by contagion and leaves 0506: the Russians may advance into 0505 only
    g = panic_board([attacker(2), unit("a", "austro_hungarian", "0505", steps=AH_DIV),
                     unit("p", "austro_hungarian", "0506", steps=AH_DIV)])
    r = g.unit("r")
    c = fight(g, ["r"], ["0505"], die=1)
    assert c.retreats[cell(g, "0505")] == (cell(g, "0506"), cell(g, "0507"))
    assert where(g, "p") not in ("0505", "0506", "0507") and steps_lost(g, "p") == 1
    assert g.allied.options("gwe.combat.advance") == [["done", (r, cell(g, "0505"))]]
