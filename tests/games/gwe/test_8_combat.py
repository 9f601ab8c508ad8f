"""Combat: 8.1-8.9 (with 5.34, 5.36, 5.4), 9.21/9.23, 10.2/10.4/10.5 in combat, 17.0, 19.2,
19.42, 21.1, 24.1, 24.41 and 25.13, on hand-built positions with forced dice.

The board (``combat_positions.board``): Russians on rows 1-4, Central Powers on rows 5-8, a
friendly rail line on each side's map edge, so units near their own edge are in supply. The
combat die is forced; the CRT row of Russian attacks is "tcr23": 1-3 1-2 1-1 2-1 3-1 4-1 5-1
6-1.
"""

from fractions import Fraction

import numpy as np
from combat_positions import (
    board,
    cell,
    column_of,
    combats,
    fight,
    hexid,
    steps_lost,
    unit,
    where,
)

from gwe_fast import load_scenario
from gwe_fast.games.gwe import combat, command
from gwe_fast.games.gwe import units as gu
from gwe_fast.games.gwe.game import LOSS_CAUSES, Flag, GweGame
from gwe_fast.state import Status

BIG = [[13, 4, 4]]


def test_8_4_odds_rounded_in_favour_of_the_defender():
    # the rulebook's example: 26 against 9 is read on the "2-1" column
    g = board([unit("r1", "russian", "0504", steps=BIG), unit("r2", "russian", "0604", steps=BIG),
               unit("g", "german", "0505", steps=[[1, 9, 5]])])
    g.central.add("gwe.combat.option", "retreat_2")
    c = fight(g, ["r1", "r2"], ["0505"], die=1)
    assert c.attack == 26 and c.defense == 9
    assert (c.row, c.odds, c.column) == ("tcr23", "2-1", 3)
    assert (c.attacker_result, c.defender_result) == ("-", "2")   # die 1 in the 2-1 column
    assert where(g, "g") == "0507"                                # two hexes toward its rail
    # the same rounding in every row; 27 to 9 is exactly 3-1
    assert combat.odds_column(g, "tcr23", Fraction(27), 9) == column_of(g, "tcr23", "3-1")
    assert combat.odds_column(g, "tcr1", Fraction(26), 9) == column_of(g, "tcr1", "2-1")
    assert combat.odds_column(g, "tcr4", Fraction(26), 9) == column_of(g, "tcr4", "2-1")
    assert combat.odds_column(g, "tcr23", Fraction(17), 9) == column_of(g, "tcr23", "1-1")


def test_8_8_no_attack_below_the_lowest_odds_the_last_column_above_the_highest():
    g = board([unit("r", "russian", "0504", steps=[[1, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 4, 5]])])
    assert combat.legal_targets(g, 0) == []                   # 1 to 4 is below 1-3
    g = board([unit("r", "russian", "0504", steps=[[2, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 6, 5]])])
    assert combat.legal_targets(g, 0) == [cell(g, "0505")]    # 2 to 6 is 1-3
    # German attacks start at 1-4 (TCR 1 row)
    g = board([unit("r", "russian", "0404", steps=[[1, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 4, 5]])])
    assert combat.legal_targets(g, 1) == [cell(g, "0404")]
    g = board([unit("r", "russian", "0504", steps=[[60, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 1, 5]])])
    c = fight(g, ["r"], ["0505"], die=6)
    assert (c.odds, c.column, c.defender_result) == ("6-1", 7, "1")   # 60-1 reads as 6-1


def test_5_4_major_river_adds_two_to_the_die_only_when_attacking_exclusively_across():
    rivers = {"major_river": ["0504-0505", "0604-0505"]}
    units = [unit("r1", "russian", "0504", steps=[[4, 4, 4]]),
             unit("r2", "russian", "0604", steps=[[4, 4, 4]]),
             unit("r3", "russian", "0404", steps=[[4, 4, 4]]),
             unit("g", "german", "0505", steps=[[1, 2, 5]])]
    g = board(units, hexsides=rivers)
    c = fight(g, ["r1", "r2"], ["0505"], die=1)
    assert c.attack == 4 and c.odds == "2-1"          # both halved across the river
    assert (c.die, c.modified_die) == (1, 3)
    assert (c.attacker_result, c.defender_result) == ("1", "1")   # die 3 in the 2-1 column
    g = board(units, hexsides=rivers)
    c = fight(g, ["r1", "r3"], ["0505"], die=1)       # r3 does not cross: no +2
    assert c.attack == 6 and (c.die, c.modified_die) == (1, 1)


def test_5_4_minor_river_halves_the_attackers_across_it_exactly():
    g = board([unit("r", "russian", "0504", steps=[[3, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 1, 5]])],
              hexsides={"minor_river": ["0504-0505"]})
    c = fight(g, ["r"], ["0505"], die=6)
    assert c.attack == Fraction(3, 2) and c.odds == "1-1"          # 1.5 to 1
    assert c.modified_die == 6                                     # minor rivers add nothing


def test_5_4_defender_doubled_by_terrain_city_and_trench_cumulatively():
    g = board([unit(f"g{h}", "german", h, steps=[[1, 3, 5]])
               for h in ("0205", "0305", "0405", "0505", "0605", "0706", "0206")],
              terrain={"mountain": ["0205", "0305", "0405", "0505"]},
              features={"trench_central": ["0305", "0505", "0605"], "city": ["0405", "0505"],
                        "town": ["0206"]})

    def d(h):
        return combat.defense_strength(g, [cell(g, h)], attacker_side=0)
    assert d("0205") == 6        # mountain
    assert d("0305") == 12       # mountain and trench
    assert d("0405") == 6        # a city in the mountains: the city's doubling only
    assert d("0505") == 12       # city and trench
    assert d("0605") == 6        # trench
    assert d("0706") == 3        # clear
    assert d("0206") == 3        # a town is as the other terrain of its hex


def test_8_9_affected_steps_are_those_of_the_smaller_force():
    g = board([unit("r", "russian", "0504", steps=[[12, 4, 4], [6, 2, 4]]),
               unit("g1", "german", "0505"), unit("g2", "german", "0505"),
               unit("g3", "german", "0505")])
    g.central.add("gwe.combat.option", "lose_half_affected_steps")
    c = fight(g, ["r"], ["0505"], die=2)                     # 12 to 12: 1-1, die 2: 1/1
    assert (c.odds, c.attacker_result, c.defender_result) == ("1-1", "1", "1")
    assert (c.attacker_steps, c.defender_steps, c.affected) == (2, 6, 2)
    assert g.central.options("gwe.combat.option") == [["lose_half_affected_steps", "retreat_1"]]
    assert sum(steps_lost(g, x) for x in ("g1", "g2", "g3")) == 1    # half of 2
    assert steps_lost(g, "r") == 1                                   # half of 2
    assert all(where(g, x) == "0505" for x in ("g1", "g2", "g3"))


def test_8_9_result_2_eliminates_the_smaller_attacking_force():
    g = board([unit("r", "russian", "0504", steps=[[4, 4, 4], [2, 2, 4]]),
               unit("g1", "german", "0505"), unit("g2", "german", "0505"),
               unit("g3", "german", "0505")])
    c = fight(g, ["r"], ["0505"], die=5)                     # 4 to 12: 1-3, die 5: 2/-
    assert (c.odds, c.attacker_result, c.defender_result) == ("1-3", "2", "-")
    assert where(g, "r") == "elim"
    assert int(g.state.vp) == -2                    # two Russian stacking points (25.2)


def test_8_9_defender_options_for_results_2_3_and_e():
    def one(die, option):
        g = board([unit("r", "russian", "0504", steps=[[40, 4, 4]]),
                   unit("g", "german", "0505")])
        if option:
            g.central.add("gwe.combat.option", option)
        c = fight(g, ["r"], ["0505"], die=die)
        return g, c
    g, c = one(3, "lose_half_and_retreat_2")                 # 10-1 reads 6-1; die 3: -/3
    assert c.defender_result == "3"
    assert g.central.options("gwe.combat.option") == [["eliminate_all", "lose_half_and_retreat_2"]]
    assert steps_lost(g, "g") == 1 and where(g, "g") == "0507"
    g, c = one(1, None)                                      # die 1: -/E, no choice
    assert c.defender_result == "E" and g.central.options("gwe.combat.option") == []
    assert (c.affected, steps_lost(g, "g"), where(g, "g")) == (1, 1, "0505")  # one step only
    g = board([unit("r", "russian", "0504", steps=[[40, 4, 4], [20, 2, 4]]),
               unit("g", "german", "0505")])
    c = fight(g, ["r"], ["0505"], die=1)                     # two affected steps: all of g
    assert c.defender_result == "E" and where(g, "g") == "elim"
    g = board([unit("r", "russian", "0504", steps=[[8, 4, 4]]), unit("g", "german", "0505")])
    g.central.add("gwe.combat.option", "retreat_2")
    c = fight(g, ["r"], ["0505"], die=2)                     # 2-1, die 2: 1/2
    assert g.central.options("gwe.combat.option") == [
        ["eliminate_all", "lose_half_and_retreat_1", "retreat_2"]]
    assert where(g, "g") == "0507" and steps_lost(g, "g") == 0


def test_8_53_corps_step_markers():
    # 1GD: 8-15-4, with the "-1 from Full Strength" marker 7-14-4, back 4-8-4, with the
    # "-1 from Half Strength" marker 3-7-4, then eliminated
    corps = unit("c", "russian", "0404", size="corps", stacking=4,
                 steps=[[8, 15, 4], [7, 14, 4], [4, 8, 4], [3, 7, 4]])
    g = board([corps, unit("hq", "russian", "0402", "hq"),
               unit("g", "german", "0505", steps=[[30, 4, 5], [15, 2, 5]])])
    c_ = g.unit("c")
    seen = []
    for k in range(4):
        seen.append((int(combat.current_values(g)[c_, 0]),
                     combat.defense_strength(g, [cell(g, "0404")], attacker_side=1)))
        gu.lose_steps(g, c_, 1, "combat")
    assert seen == [(8, 15), (7, 14), (4, 8), (3, 7)]
    assert where(g, "c") == "elim"
    # in combat: 30 against 15 is 2-1 for the Germans (TCR 1 row); die 4 there: 1/1; two
    # affected steps (the German division's): the corps takes its "-1" marker
    g = board([corps, unit("hq", "russian", "0402", "hq"),
               unit("g", "german", "0505", steps=[[30, 4, 5], [15, 2, 5]])])
    g.allied.add("gwe.combat.option", "lose_half_affected_steps")
    c = fight(g, ["g"], ["0404"], die=4)
    assert (c.row, c.odds, c.affected) == ("tcr1", "2-1", 2)
    assert (c.attacker_result, c.defender_result) == ("1", "1")
    assert steps_lost(g, "c") == 1
    assert combat.defense_strength(g, [cell(g, "0404")], attacker_side=1) == 14
    assert steps_lost(g, "g") == 1


def test_8_12_zero_attack_strength_hqs_and_depots_never_attack():
    g = board([unit("z", "russian", "0504", steps=[[0, 2, 4]]),
               unit("hq", "russian", "0404", "hq"), unit("d", "russian", "0604", "depot"),
               unit("r", "russian", "0403"), unit("g", "german", "0505")])
    ok = combat.may_attack(g, 0)
    assert [bool(ok[g.unit(x)]) for x in ("z", "hq", "d", "r")] == [False, False, False, True]
    assert combat.legal_targets(g, 0) == []          # nobody who may attack is adjacent


def test_5_34_units_that_moved_by_rail_attack_only_with_tcr_1():
    g = board([unit("r", "russian", "0504"), unit("g", "german", "0505")])
    for x in ("r", "g"):
        g.set_flag(g.unit(x), Flag.USED_RAIL)
    assert not combat.may_attack(g, 0)[g.unit("r")]
    assert combat.may_attack(g, 1)[g.unit("g")]


def test_5_36_entrained_units_may_not_attack_defend_at_half_and_detrain_when_attacked():
    g = board([unit("r", "russian", "0504", steps=[[8, 4, 4]]),
               unit("re", "russian", "0604", steps=[[8, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 5, 5]])])
    g.state.unit_status[g.unit("re")] |= Status.ENTRAINED
    g.state.unit_status[g.unit("g")] |= Status.ENTRAINED
    assert not combat.may_attack(g, 0)[g.unit("re")]
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 2      # 5 halved, rounded down
    c = fight(g, ["r"], ["0505"], die=6)
    assert c.defense == 2 and c.odds == "4-1"
    assert not g.state.unit_status[g.unit("g")] & Status.ENTRAINED


def test_8_14_no_unit_attacks_twice():
    # r (0404) touches both German hexes; once it has attacked one, the other has no attacker
    g = board([unit("r", "russian", "0404", steps=[[8, 4, 4], [4, 2, 4]]),
               unit("g1", "german", "0505", steps=[[1, 4, 5]]),
               unit("g2", "german", "0405", steps=[[1, 4, 5]])])
    assert combat.legal_targets(g, 0) == sorted([cell(g, "0505"), cell(g, "0405")])
    fight(g, ["r"], ["0505"], die=6)                       # 2-1, die 6: 1/-
    assert g.flag(g.unit("r"), Flag.ATTACKED) and not combat.may_attack(g, 0)[g.unit("r")]
    assert combat.legal_targets(g, 0) == []


def test_8_14_a_hex_that_held_is_not_attacked_again():
    g = board([unit("r", "russian", "0504", steps=[[4, 4, 4]]),
               unit("r2", "russian", "0604", steps=[[8, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 2, 5]])])
    c = fight(g, ["r"], ["0505"], die=6)                   # 2-1, die 6: 1/-
    assert (c.attacker_result, c.defender_result) == ("1", "-")
    assert where(g, "g") == "0505"
    assert combat.may_attack(g, 0)[g.unit("r2")]
    assert combat.legal_targets(g, 0) == []


def test_8_23_multi_hex_attack_every_attacker_adjacent_to_every_defender():
    # 0404 touches 0405 and 0505; 0504 touches only 0505
    g = board([unit("r", "russian", "0404", steps=[[4, 4, 4]]),
               unit("r3", "russian", "0404", steps=[[4, 4, 4]]),
               unit("r2", "russian", "0504", steps=[[8, 4, 4]]),
               unit("d1", "german", "0505", steps=[[1, 2, 5]]),
               unit("d2", "german", "0405", steps=[[1, 2, 5]])])
    r, r2, r3 = g.unit("r"), g.unit("r2"), g.unit("r3")
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.allied.add("gwe.combat.attack", ("hex", cell(g, "0405")), ("unit", r), ("unit", r3),
                 "done")
    g.dice.force("combat", [6])
    combat.combat_phase(g, 0)
    first, second, third = g.allied.options("gwe.combat.attack")   # then "done" alone
    assert "done" not in first
    assert set(first) == {("unit", r), ("unit", r2), ("unit", r3), ("hex", cell(g, "0405"))}
    assert set(second) == {("unit", r), ("unit", r3)}       # r2 does not touch 0405
    assert set(third) == {("unit", r3)} | {"done"}
    (ev,) = combats(g)
    assert ev["cells"] == (cell(g, "0505"), cell(g, "0405"))
    assert ev["attack"] == "8" and ev["defense"] == 4 and ev["odds"] == "2-1"
    assert g.flag(g.unit("d1"), Flag.DEFENDED) and g.flag(g.unit("d2"), Flag.DEFENDED)
    assert not g.flag(r2, Flag.ATTACKED)


def test_8_21_all_units_in_a_hex_defend_together_and_retreat_together():
    g = board([unit("r", "russian", "0504", steps=[[16, 4, 4]]),
               unit("g1", "german", "0505"), unit("g2", "german", "0505")])
    g.central.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["r"], ["0505"], die=4)                   # 16 to 8: 2-1, die 4: 1/1
    assert c.defense == 8 and c.defender_result == "1"
    assert where(g, "g1") == where(g, "g2") == "0506"      # 8.62: one path, one hex


def test_8_63_retreat_priorities_toward_the_nearest_supply_source():
    # from 0405 every hex one nearer the Central Powers rail (row 8) may be taken, no other
    g = board([unit("r", "russian", "0404", steps=[[8, 4, 4]]),
               unit("g", "german", "0405", steps=[[1, 4, 5]])])
    g.central.add("gwe.combat.option", "retreat_1")
    fight(g, ["r"], ["0405"], die=4)                       # 2-1, die 4: 1/1
    (opts,) = g.central.options("gwe.combat.retreat")
    assert sorted(hexid(g, p[0]) for p in opts) == ["0306", "0406", "0506"]


def test_8_63_a_unit_unable_to_observe_the_priorities_still_retreats():
    # a Russian unit in 0506: "toward the source" now goes around it, by 0405 or 0605
    units = [unit("r", "russian", "0504", steps=[[8, 4, 4]]), unit("rb", "russian", "0506"),
             unit("g", "german", "0505", steps=[[1, 4, 5]])]
    g = board(units)
    g.central.add("gwe.combat.option", "retreat_1")
    fight(g, ["r"], ["0505"], die=4)                       # 2-1, die 4: 1/1
    (opts,) = g.central.options("gwe.combat.retreat")
    assert sorted(hexid(g, p[0]) for p in opts) == ["0405", "0605"]
    # with no supply source left at all, any legal hex will do, never the enemy-occupied one
    # (8.61); every one is enemy-controlled, which a TCR 1 unit may enter (8.64)
    g = board(units)
    g.state.hex_last[[cell(g, f"{c:02d}08") for c in range(1, 8)]] = 0
    g.central.add("gwe.combat.option", "retreat_1")
    fight(g, ["r"], ["0505"], die=4)
    (opts,) = g.central.options("gwe.combat.retreat")
    assert sorted(hexid(g, p[0]) for p in opts) == ["0404", "0405", "0604", "0605"]
    assert where(g, "g") in ("0404", "0405", "0604", "0605")


def test_8_64_tcr_2_to_4_never_retreat_into_an_enemy_zone_and_are_eliminated():
    # Russians at 0504, 0606 and 0406 control every hex around 0505. The A-H division (with
    # its HQ, for the command radius of 10.43) cannot retreat: eliminated, and surrounded
    ring = [unit("r", "russian", "0504", steps=[[5, 4, 4]]), unit("e1", "russian", "0606"),
            unit("e2", "russian", "0406")]
    g = board(ring + [unit("a", "austro_hungarian", "0505"),
                      unit("hq", "austro_hungarian", "0505", "hq")])
    g.central.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["r"], ["0505"], die=1)                   # 5 to 5: 1-1, die 1: -/1
    assert (c.defense, c.odds, c.defender_result) == (5, "1-1", "1")
    assert where(g, "a") == "elim" and where(g, "hq") == "elim"     # 10.53: the HQ too
    assert int(g.state.vp) == 2 * 2 + 1       # 25.13 surrounded: 2 per stacking point; HQ 1
    # a German (TCR 1) retreats into the zone toward its supply source
    g = board(ring + [unit("g", "german", "0505", steps=[[1, 5, 5]])])
    g.central.add("gwe.combat.option", "retreat_1")
    fight(g, ["r"], ["0505"], die=1)
    assert where(g, "g") == "0506"


def test_7_24_a_friendly_unit_negates_the_enemy_zone_for_a_retreat():
    g = board([unit("r", "russian", "0504", steps=[[5, 4, 4]]), unit("e1", "russian", "0606"),
               unit("e2", "russian", "0406"), unit("a", "austro_hungarian", "0505"),
               unit("hq", "austro_hungarian", "0505", "hq"),
               unit("f", "austro_hungarian", "0506")])
    g.central.add("gwe.combat.option", "retreat_1")
    fight(g, ["r"], ["0505"], die=1)
    assert where(g, "a") == where(g, "hq") == where(g, "f") == "0506"


def test_8_65_retreat_through_friendly_units_without_disturbing_them():
    g = board([unit("r", "russian", "0504", steps=[[8, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 2, 5]]), unit("f", "german", "0506")])
    g.central.add("gwe.combat.option", "retreat_2")
    fight(g, ["r"], ["0505"], die=2)                       # 2-1, die 2: 1/2
    assert where(g, "g") == "0507" and where(g, "f") == "0506"


def test_6_15_a_retreat_never_ends_overstacked():
    full = [unit(f"f{i}", "german", "0506") for i in range(4)]         # 8 stacking points
    g = board([unit("r", "russian", "0504", steps=[[8, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 4, 5]])] + full)
    g.central.add("gwe.combat.option", "retreat_1")
    fight(g, ["r"], ["0505"], die=4)                       # 2-1, die 4: 1/1
    (opts,) = g.central.options("gwe.combat.retreat")
    assert cell(g, "0506") not in [p[0] for p in opts]
    # when the full hex is the only way out, the retreating unit is eliminated there
    g = board([unit("r", "russian", "0504", steps=[[8, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 4, 5]])] + full
              + [unit(f"e{h}", "russian", h) for h in ("0604", "0605", "0404", "0405")])
    g.central.add("gwe.combat.option", "retreat_1")
    fight(g, ["r"], ["0505"], die=4)
    assert where(g, "g") == "elim" and all(where(g, f"f{i}") == "0506" for i in range(4))


def test_8_66_retreated_units_add_nothing_and_share_the_fate_of_the_stack():
    def setup():
        g = board([unit("r", "russian", "0504", steps=[[8, 4, 4], [4, 2, 4]]),
                   unit("b", "german", "0505", steps=[[1, 2, 5], [1, 1, 5]]),
                   unit("a", "german", "0505", steps=[[1, 6, 5], [1, 3, 5]])])
        g.set_flag(g.unit("a"), Flag.RETREATED_IN | Flag.DEFENDED)      # retreated in earlier
        return g
    g = setup()
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 2
    g.central.add("gwe.combat.option", "retreat_2")
    c = fight(g, ["r"], ["0505"], die=4)                   # 8 to 2: 4-1, die 4: 1/2
    assert (c.defense, c.defender_steps) == (2, 2)          # a's steps do not count either
    assert c.defender_result == "2"
    g = setup()
    g.central.add("gwe.combat.option", "retreat_2")
    fight(g, ["r"], ["0505"], die=4)
    assert where(g, "b") == "0507" and where(g, "a") == "elim"
    g = setup()
    g.central.add("gwe.combat.option", "lose_half_and_retreat_1")
    fight(g, ["r"], ["0505"], die=4)
    assert where(g, "a") == "elim"
    g = setup()                                            # result 1: b loses half, a too
    g.central.add("gwe.combat.option", "lose_half_affected_steps")
    c = fight(g, ["r"], ["0505"], die=5)                   # 4-1, die 5: 1/1
    assert c.defender_result == "1"
    assert steps_lost(g, "b") == 1 and steps_lost(g, "a") == 1
    assert where(g, "a") == where(g, "b") == "0505"


def test_8_71_advance_into_the_vacated_hex_within_the_stacking_limit():
    g = board([unit(f"r{i}", "russian", h, steps=[[6, 4, 4]], size="corps", stacking=4)
               for i, h in enumerate(("0404", "0504", "0604"))]
              + [unit("g", "german", "0505", steps=[[1, 2, 5], [1, 1, 5]])])
    r0, r1, r2 = (g.unit(f"r{i}") for i in range(3))
    v = cell(g, "0505")
    g.central.add("gwe.combat.option", "lose_half_and_retreat_2")
    g.allied.add("gwe.combat.advance", (r0, v), (r1, v))
    fight(g, ["r0", "r1", "r2"], ["0505"], die=4)          # 18-2: 6-1, die 4: -/3
    first, second = g.allied.options("gwe.combat.advance")  # then none: 8 stacking points
    assert first == ["done", (r0, v), (r1, v), (r2, v)]
    assert second == ["done", (r1, v), (r2, v)]
    assert where(g, "r0") == where(g, "r1") == "0505" and where(g, "r2") == "0604"
    assert g.flag(r0, Flag.ADVANCED) and not combat.may_attack(g, 0)[r0]   # 8.73


def test_8_75_ils_ne_passeront_pas():
    def run(option, die=1, cut=False, steps=None):
        g = board([unit("r", "russian", "0504", steps=[[8, 4, 4]]),
                   unit("g", "german", "0505", steps=steps or [[1, 1, 5]])])
        if cut:                   # the Central Powers rail hexes were last held by Russians
            g.state.hex_last[[cell(g, f"{c:02d}08") for c in range(1, 8)]] = 0
        if option:
            g.central.add("gwe.combat.option", option)
        c = fight(g, ["r"], ["0505"], die=die)
        return g, c
    g, c = run("eliminate_all", die=2)                     # 8-1 reads 6-1, die 2: -/E
    assert c.defender_result == "E" and g.allied.options("gwe.combat.advance")  # E: advance
    g, c = run("eliminate_all", die=4)                     # die 4: -/3, option 1
    assert c.defender_result == "3" and c.ils_ne_passeront_pas
    assert where(g, "g") == "elim" and g.allied.options("gwe.combat.advance") == []
    g, c = run("eliminate_all", die=4, cut=True)           # out of supply: advance allowed
    assert not c.ils_ne_passeront_pas and g.allied.options("gwe.combat.advance")
    g, c = run("lose_half_and_retreat_2", die=4)           # a one-step unit dies anyway
    assert where(g, "g") == "elim" and g.allied.options("gwe.combat.advance")


def test_9_21_out_of_supply_attack_halved_never_below_one_9_23_attrition_first():
    def run(att, attrition_die, die=6):
        g = board([unit("r", "russian", "0504", steps=att),
                   unit("g", "german", "0505", steps=[[1, 1, 5]])])
        g.state.hex_last[[cell(g, f"{c:02d}01") for c in range(1, 8)]] = 1   # no Russian rail
        g.dice.force("attrition", [attrition_die])
        return g, fight(g, ["r"], ["0505"], die=die)
    att = LOSS_CAUSES.index("attrition")
    g, c = run([[5, 4, 4], [2, 2, 4]], attrition_die=4)    # no attrition: 5 halved is 2
    assert c.attack == 2 and c.odds == "2-1" and g.arr("steps_lost")[0, att] == 0
    assert g.dice.stream("attrition").rolled == 1
    g, c = run([[1, 4, 4]], attrition_die=4)               # 1 halved stays 1
    assert c.attack == 1
    g, c = run([[5, 4, 4], [2, 2, 4]], attrition_die=3)    # half the steps, rounded up: 1
    assert g.arr("steps_lost")[0, att] == 1 and c.attack == 1 and c.odds == "1-1"
    g, c = run([[5, 4, 4]], attrition_die=1)               # a one-step unit dies: no attack
    assert where(g, "r") == "elim" and not c.odds and combats(g) == []
    assert g.flag(g.unit("r"), Flag.ATTACKED) and g.flag(g.unit("g"), Flag.DEFENDED)


def test_9_24_hqs_never_check_attrition():
    g = board([unit("hq", "russian", "0404", "hq")])
    g.dice.force("attrition", [1])
    assert combat.attrition_check(g, g.unit("hq")) == 0 and where(g, "hq") == "0404"


def test_19_42_cavalry_living_off_the_land_attack_at_half_and_check_attrition():
    g = board([unit("c", "russian", "0504", "cavalry", steps=[[4, 2, 6]]),
               unit("g", "german", "0505", "cavalry", steps=[[1, 1, 6]])])
    g.state.hex_last[[cell(g, f"{c:02d}01") for c in range(1, 8)]] = 1
    g.set_flag(g.unit("c"), Flag.LIVING_OFF_LAND)
    g.dice.force("attrition", [5])
    c = fight(g, ["c"], ["0505"], die=6)
    assert c.attack == 2 and g.dice.stream("attrition").rolled == 1


def test_10_42_out_of_command_attackers_halved_and_quartered_when_also_unsupplied():
    g = board([unit("r", "russian", "0504", steps=[[8, 4, 4]]),
               unit("w", "russian", "0604", steps=[[1, 4, 4]])])
    r, w = g.unit("r"), g.unit("w")
    assert combat.unit_attack(g, r, True) == 8
    g.state.unit_status[[r, w]] |= np.uint16(Status.OUT_OF_COMMAND)
    assert combat.unit_attack(g, r, True) == 4
    assert combat.unit_attack(g, r, False) == 2                     # 1/4 of 8
    assert combat.unit_attack(g, w, False) == 1                     # never below one


def test_10_42_9_21_each_halving_rounds_down_to_at_least_one_and_zero_stays_zero():
    # halved twice, each time down but never below one: 5 -> 2 -> 1, 3 -> 1 -> 1, 7 -> 3 -> 1
    g = board([unit("a", "russian", "0504", steps=[[5, 4, 4]]),
               unit("b", "russian", "0604", steps=[[3, 4, 4]]),
               unit("c", "russian", "0704", steps=[[7, 4, 4]]),
               unit("z", "russian", "0502", steps=[[0, 4, 4]])])
    units = [g.unit(x) for x in "abcz"]
    assert combat.unit_attacks(g, units, np.ones(4, bool)).tolist() == [5, 3, 7, 0]
    assert combat.unit_attacks(g, units, np.zeros(4, bool)).tolist() == [2, 1, 3, 0]
    g.state.unit_status[units] |= np.uint16(Status.OUT_OF_COMMAND)
    assert combat.unit_attacks(g, units, np.ones(4, bool)).tolist() == [2, 1, 3, 0]
    assert combat.unit_attacks(g, units, np.zeros(4, bool)).tolist() == [1, 1, 1, 0]


def test_10_43_tcr_3_and_4_units_out_of_command_worsen_their_result():
    # defender: an A-H unit outside every command radius; -/3 becomes -/E
    g = board([unit("r", "russian", "0504", steps=[[10, 4, 4], [5, 2, 4]]),
               unit("a", "austro_hungarian", "0505", steps=[[1, 2, 4], [0, 1, 4]])])
    c = fight(g, ["r"], ["0505"], die=3)                   # 5-1, die 3: -/3
    assert c.odds == "5-1"
    assert (c.attacker_result, c.defender_result) == ("-", "E")
    assert where(g, "a") == "elim" and g.central.options("gwe.combat.option") == []
    # the same with an HQ in range: the printed result
    g = board([unit("r", "russian", "0504", steps=[[10, 4, 4]]),
               unit("a", "austro_hungarian", "0505", steps=[[1, 2, 4], [0, 1, 4]]),
               unit("hq", "austro_hungarian", "0507", "hq")])
    g.central.add("gwe.combat.option", "lose_half_and_retreat_2")
    c = fight(g, ["r"], ["0505"], die=3)
    assert c.defender_result == "3"
    # a German (TCR 1) outside every radius: no effect
    g = board([unit("r", "russian", "0504", steps=[[10, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 2, 5]])])
    g.central.add("gwe.combat.option", "lose_half_and_retreat_2")
    assert fight(g, ["r"], ["0505"], die=3).defender_result == "3"
    # attacker out of Command Control: halved, and 1 becomes 2
    g = board([unit("r", "russian", "0504", steps=[[10, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 1, 5]])])
    g.state.unit_status[g.unit("r")] |= Status.OUT_OF_COMMAND
    c = fight(g, ["r"], ["0505"], die=6)                   # 5 to 1: 5-1, die 6: 1/1
    assert c.attack == 5 and (c.attacker_result, c.defender_result) == ("2", "1")


def test_10_21_hq_attack_shift_and_21_1_defensive_shift():
    g = board([unit("r", "russian", "0504", steps=[[4, 4, 4]]),
               unit("hq", "russian", "0402", "hq"),
               unit("g", "german", "0505", steps=[[1, 2, 5]]),
               unit("ghq", "german", "0507", "hq")])
    hq, ghq = g.unit("hq"), g.unit("ghq")
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.allied.add("gwe.combat.attack", ("unit", g.unit("r")), "done")
    g.allied.add("gwe.combat.attack_shift", (hq,))
    g.central.add("gwe.combat.defense_shift", ())
    g.dice.force("combat", [6])
    combat.combat_phase(g, 0)
    assert combats(g)[0]["odds"] == "3-1"                  # 2-1 shifted one column right
    g = board([unit("r", "russian", "0504", steps=[[4, 4, 4]]),
               unit("hq", "russian", "0402", "hq"),
               unit("g", "german", "0505", steps=[[1, 2, 5]]),
               unit("ghq", "german", "0507", "hq")])
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.allied.add("gwe.combat.attack", ("unit", g.unit("r")), "done")
    g.allied.add("gwe.combat.attack_shift", (hq,))
    g.central.add("gwe.combat.defense_shift", (ghq,))
    g.dice.force("combat", [6])
    combat.combat_phase(g, 0)
    assert combats(g)[0]["odds"] == "2-1"                  # one right, one left


def test_10_53_hq_defends_with_two_stacking_points_and_shares_the_stack_fate():
    g = board([unit("r", "russian", "0504", steps=[[10, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 4, 5]]),
               unit("hq", "german", "0505", "hq")])
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 5
    g = board([unit("r", "russian", "0504", steps=[[15, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 4, 5]]),
               unit("hq", "german", "0505", "hq")])
    g.central.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["r"], ["0505"], die=4)                   # 15 to 5: 3-1, die 4: 1/1
    assert c.defender_result == "1"
    assert where(g, "g") == where(g, "hq") == "0506"
    # with one stacking point only, the HQ adds nothing
    g = board([unit("g", "german", "0505", steps=[[1, 4, 5]], size="brigade", stacking=1),
               unit("hq", "german", "0505", "hq")])
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 4
    # eliminated with its stack (25.2: one VP for the HQ)
    g = board([unit("r", "russian", "0504", steps=[[40, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 4, 5]]),
               unit("hq", "german", "0505", "hq")])
    fight(g, ["r"], ["0505"], die=1)                       # 6-1, die 1: -/E
    assert where(g, "g") == where(g, "hq") == "elim"
    assert int(g.state.vp) == 2 + 1


def test_10_54_an_army_hq_may_flip_and_displace_instead_of_elimination():
    hq = unit("hq", "german", "0505", "hq", steps=[[0, 1, 8], [0, 1, 8]])
    g = board([unit("r", "russian", "0504", steps=[[40, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 4, 5]]), hq,
               unit("far", "german", "0207")])
    g.central.add("gwe.hq.reverse_side", True)
    fight(g, ["r"], ["0505"], die=1)                       # -/E
    assert where(g, "g") == "elim" and where(g, "hq") == "0207"
    assert steps_lost(g, "hq") == 1
    assert int(g.state.vp) == 2 + 1                        # the VP are scored all the same


def test_17_0_joint_austro_hungarian_german_attacks_use_the_tcr_2_and_3_row():
    g = board([unit("g", "german", "0505", steps=[[4, 4, 5]]),
               unit("a", "austro_hungarian", "0405", steps=[[4, 4, 4]]),
               unit("r", "russian", "0404", steps=[[1, 4, 4]]),
               unit("hq", "russian", "0402", "hq")])
    G, A = g.unit("g"), g.unit("a")
    assert combat.crt_row(g, [G]) == "tcr1"
    assert combat.crt_row(g, [A]) == "tcr4"
    assert combat.crt_row(g, [G, A]) == "tcr23"
    g.allied.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["g", "a"], ["0404"], die=6)              # 8 to 4: 2-1 in the TCR 2/3 row
    assert (c.row, c.odds, c.column) == ("tcr23", "2-1", 3)


def test_19_21_massed_artillery_doubles_attackers_within_three_hexes_and_burns_the_depot():
    g = board([unit("r1", "russian", "0504", steps=[[3, 4, 4], [1, 2, 4]]),
               unit("r2", "russian", "0604", steps=[[3, 4, 4], [1, 2, 4]]),
               unit("dep", "russian", "0401", "depot"),
               unit("g", "german", "0505", steps=[[1, 3, 5]])])
    m = g.scenario.map
    assert m.distance("0401", "0504") == 3 and m.distance("0401", "0604") == 4
    g.central.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["r1", "r2"], ["0505"], die=6, depot="dep")
    assert c.attack == 9 and c.odds == "3-1"               # r1 doubled, r2 out of range
    assert where(g, "dep") == "off"
    assert g.state.unit_status[g.unit("dep")] & Status.POOL
    assert int(g.state.vp) == 0                            # burnt, not eliminated


def test_19_21_the_attacker_is_offered_only_depots_in_range():
    g = board([unit("r1", "russian", "0504", steps=[[3, 4, 4]]),
               unit("near", "russian", "0401", "depot"), unit("far", "russian", "0101", "depot"),
               unit("g", "german", "0505", steps=[[1, 3, 5]])])
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.allied.add("gwe.combat.attack", ("unit", g.unit("r1")), "done")
    g.allied.add("gwe.combat.massed_artillery", g.unit("near"))
    g.dice.force("combat", [6])
    combat.combat_phase(g, 0)
    assert g.allied.options("gwe.combat.massed_artillery") == [["none", g.unit("near")]]
    assert combats(g)[0]["attack"] == "6" and where(g, "near") == "off"


def test_19_23_central_powers_massed_artillery_on_defence_19_24_not_an_attacked_depot():
    def setup():
        g = board([unit("r", "russian", "0504", steps=[[12, 4, 4]]),
                   unit("r2", "russian", "0604", steps=[[12, 4, 4]]),
                   unit("g", "german", "0505", steps=[[1, 3, 5]]),
                   unit("dep", "austro_hungarian", "0507", "depot"),
                   unit("dep2", "austro_hungarian", "0605", "depot")])
        return g
    g = setup()
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.allied.add("gwe.combat.attack", ("unit", g.unit("r")), "done")
    g.central.add("gwe.combat.defensive_artillery", g.unit("dep"))
    g.central.add("gwe.combat.option", "retreat_1")
    g.dice.force("combat", [6])
    g.allied.add("gwe.combat.declare", "stop")
    combat.combat_phase(g, 0)
    (opts,) = g.central.options("gwe.combat.defensive_artillery")
    assert opts == ["none", g.unit("dep"), g.unit("dep2")]
    assert combats(g)[0]["defense"] == 6 and combats(g)[0]["odds"] == "2-1"
    assert where(g, "dep") == "off"
    # 19.24: a depot attacked in this Combat Phase is not offered
    g = setup()
    g.allied.add("gwe.combat.declare", cell(g, "0605"), cell(g, "0505"), "stop")
    g.allied.add("gwe.combat.attack", ("unit", g.unit("r2")), "done", ("unit", g.unit("r")),
                 "done")
    g.central.add("gwe.combat.defensive_artillery", "none", "none")
    g.dice.force("combat", [6, 6])
    combat.combat_phase(g, 0)
    first, second = g.central.options("gwe.combat.defensive_artillery")
    assert first == ["none", g.unit("dep")]                # dep2 is the one attacked
    assert second == ["none", g.unit("dep")]


def test_19_23_the_russians_never_use_massed_artillery_on_defence():
    g = board([unit("g", "german", "0505", steps=[[8, 4, 5]]),
               unit("r", "russian", "0404", steps=[[1, 4, 4]]),
               unit("hq", "russian", "0402", "hq"),
               unit("dep", "russian", "0403", "depot")])
    g.central.add("gwe.combat.declare", cell(g, "0404"))
    g.central.add("gwe.combat.attack", ("unit", g.unit("g")), "done")
    g.dice.force("combat", [6])
    combat.combat_phase(g, 1)
    assert g.allied.options("gwe.combat.defensive_artillery") == []
    assert len(combats(g)) == 1


def test_24_11_armored_car_shift_with_at_least_two_russian_units():
    g = board([unit("car", "russian", "0504", "armored_car", size="none"),
               unit("r", "russian", "0604", steps=[[3, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 2, 5]])])
    car, r = g.unit("car"), g.unit("r")
    assert combat.armored_car_shift(g, [car]) == 0
    assert combat.armored_car_shift(g, [car, r]) == 1
    g.central.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["car", "r"], ["0505"], die=6)           # 4 to 2: 2-1, one column right
    assert c.attack == 4 and c.base_column == 3 and c.odds == "3-1"
    g.set_flag(car, Flag.BROKEN_DOWN)                      # 24.42: the back is 0-1-1
    assert not combat.may_attack(g, 0)[car]


def test_24_41_the_armored_car_is_eliminated_when_forced_to_retreat_into_a_mountain():
    g = board([unit("car", "russian", "0404", "armored_car", size="none"),
               unit("rb", "russian", "0404", steps=[[1, 1, 4]], size="brigade", stacking=1),
               unit("hq", "russian", "0402", "hq"),
               unit("g", "german", "0405", steps=[[1, 4, 5]])],
              terrain={"mountain": ["0403", "0504", "0304"]})
    g.allied.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["g"], ["0404"], die=1)                   # 1 to 2: 1-2 (TCR 1), die 1: -/1
    assert (c.odds, c.defender_result) == ("1-2", "1")
    assert where(g, "car") == "elim" and where(g, "rb") in ("0403", "0504", "0304")


def test_25_13_surrounded_means_no_free_line_of_six_hexes_to_supply():
    g = board([unit("g", "german", "0505"), unit("far", "russian", "0101")])
    assert not combat.is_surrounded(g, g.unit("g"))
    ring = [unit(f"e{h}", "russian", h) for h in ("0504", "0606", "0406")]
    g = board([unit("g", "german", "0505")] + ring)
    assert combat.is_surrounded(g, g.unit("g"))
    g = board([unit("g", "german", "0505"), unit("f", "german", "0506")] + ring)
    assert not combat.is_surrounded(g, g.unit("g"))       # the friend negates the zone


def test_combat_phase_under_random_policies_keeps_the_position_legal():
    sc = load_scenario("brusilov/historical")
    for seed in range(3):
        g = GweGame(sc, seed=seed, game_index=seed)
        for side in (0, 1):
            command.command_segment(g, side, for_combat=True)
            combat.combat_phase(g, side)
            command.clear_command(g, side)
            on = (g.state.unit_status & Status.ON_MAP).astype(bool)
            u = sc.units
            both = set(g.state.unit_cell[on & (u.side == 0)]) & set(
                g.state.unit_cell[on & (u.side == 1)])
            assert not both
            assert (g.state.unit_cell[on] >= 0).all() and (g.state.unit_cell[~on] < 0).all()
            assert int(g.state.vp) == int(g.arr("vp_cause").sum())


def test_17_0_a_german_attack_legal_alone_is_offered_even_when_a_joint_one_is_not():
    # the Germans alone reach 1-4 on their row (2 to 8); with the A-H unit, halved across a
    # river, the joint attack (TCR 2/3 row) is 2.5 to 8, below 1-3: the A-H unit is never
    # offered, the German always
    g = board([unit("r", "russian", "0404", steps=[[1, 8, 4]]),
               unit("hq", "russian", "0402", "hq"),
               unit("g", "german", "0405", steps=[[2, 4, 5]]),
               unit("a", "austro_hungarian", "0305", steps=[[1, 4, 4]])],
              hexsides={"minor_river": ["0305-0404"]})
    g.central.add("gwe.combat.declare", cell(g, "0404"))
    g.dice.force("combat", [6])
    combat.combat_phase(g, 1)
    assert g.central.options("gwe.combat.attack") == []    # one option each time: no question
    (ev,) = combats(g)
    assert ev["attackers"] == (g.unit("g"),) and (ev["row"], ev["odds"]) == ("tcr1", "1-4")


def test_8_8_odds_below_the_lowest_at_resolution_use_the_first_column():
    # 2 to 6 is 1-3, legal; the defender's massed artillery makes it 2 to 12
    g = board([unit("r", "russian", "0504", steps=[[2, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 6, 5]]),
               unit("dep", "austro_hungarian", "0507", "depot")])
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.central.add("gwe.combat.defensive_artillery", g.unit("dep"))
    g.dice.force("combat", [6])
    combat.combat_phase(g, 0)
    (ev,) = combats(g)
    assert ev["defense"] == 12 and ev["odds"] == "1-3"
    # a shift to the left of the first column stays on the first column
    g = board([unit("r", "russian", "0504", steps=[[2, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 6, 5]])])
    c = fight(g, ["r"], ["0505"], die=6, left=2)
    assert (c.base_column, c.column, c.odds) == (0, 0, "1-3")


def test_5_4_a_unit_attacking_across_a_river_into_any_defending_hex_is_halved():
    g = board([unit("r", "russian", "0404", steps=[[8, 4, 4]]),
               unit("d1", "german", "0505", steps=[[1, 1, 5]]),
               unit("d2", "german", "0405", steps=[[1, 1, 5]])],
              hexsides={"minor_river": ["0404-0405"]})
    cells = [cell(g, "0505"), cell(g, "0405")]
    assert combat.attack_strength(g, [g.unit("r")], cells) == 4
    assert combat.attack_strength(g, [g.unit("r")], cells[:1]) == 8


def test_8_9_a_larger_defending_force_chooses_its_affected_units():
    g = board([unit("r", "russian", "0404", steps=[[16, 4, 4], [8, 2, 4]]),
               unit("d1", "german", "0505"), unit("d2", "german", "0405")])
    d1, d2 = g.unit("d1"), g.unit("d2")
    g.central.add("gwe.combat.option", "retreat_1")
    g.central.add("gwe.combat.affected", d2)
    c = fight(g, ["r"], ["0505", "0405"], die=4)           # 16 to 8: 2-1, die 4: 1/1
    assert (c.attacker_steps, c.defender_steps, c.affected) == (2, 4, 2)
    assert g.central.options("gwe.combat.affected") == [[d1, d2]]
    assert where(g, "d1") == "0505" and where(g, "d2") != "0405"   # only d2's stack retreats


def test_8_64_a_mixed_stack_forced_through_a_zone_keeps_only_its_tcr_1_units():
    ring = [unit("r", "russian", "0504", steps=[[9, 4, 4], [5, 2, 4]]),
            unit("e1", "russian", "0606"), unit("e2", "russian", "0406")]
    g = board(ring + [unit("g", "german", "0505", steps=[[1, 4, 5]]),
                      unit("a", "austro_hungarian", "0505", steps=[[1, 4, 4]]),
                      unit("ahq", "austro_hungarian", "0505", "hq")])
    g.central.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["r"], ["0505"], die=1)                   # 9 to 9: 1-1, die 1: -/1
    assert c.defender_result == "1"
    assert where(g, "g") == where(g, "ahq") == "0506" and where(g, "a") == "elim"


def test_8_66_12_17_withdrawn_units_alone_in_a_hex_defend_normally():
    g = board([unit("r", "russian", "0504", steps=[[8, 4, 4]]),
               unit("c", "german", "0505", "cavalry", steps=[[1, 2, 6]])])
    g.set_flag(g.unit("c"), Flag.RETREATED_IN)             # withdrew before combat (12.15)
    assert combat.legal_targets(g, 0) == [cell(g, "0505")]
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 2


def test_10_52_a_retreat_displaces_enemy_hqs_alone_in_a_hex():
    # the Russian retreats into 0403, where a German HQ stands alone: it displaces to the
    # nearest German unit (TCR 1: through zones of control)
    g = board([unit("g", "german", "0405", steps=[[8, 4, 5]]),
               unit("r", "russian", "0404", steps=[[1, 4, 4]]),
               unit("hq", "russian", "0402", "hq"), unit("ghq", "german", "0403", "hq")])
    g.allied.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["g"], ["0404"], die=4)                   # 8 to 4: 2-1 (TCR 1), die 4: 1/1
    assert (c.odds, c.defender_result) == ("2-1", "1")
    assert where(g, "r") == "0403" and where(g, "ghq") == "0405"
    # a Russian HQ (TCR 3) in the German's way cannot displace through the German's zone:
    # eliminated (one VP to the Central Powers)
    g = board([unit("r", "russian", "0504", steps=[[8, 4, 4], [4, 2, 4]]),
               unit("rhq", "russian", "0506", "hq"),
               unit("g", "german", "0505", steps=[[1, 4, 5]])])
    g.central.add("gwe.combat.option", "retreat_1")
    fight(g, ["r"], ["0505"], die=4)
    assert where(g, "g") == "0506" and where(g, "rhq") == "elim" and int(g.state.vp) == -1


def test_10_53_a_hex_of_hqs_alone_is_not_attacked_and_hqs_are_no_steps():
    g = board([unit("r", "russian", "0504", steps=[[8, 4, 4]]),
               unit("hq", "german", "0505", "hq")])
    assert combat.legal_targets(g, 0) == []
    g = board([unit("r", "russian", "0504", steps=[[10, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 4, 5]]),
               unit("hq", "german", "0505", "hq")], features={"trench_central": ["0505"]})
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 8 + 2   # the HQ doubled too
    g.central.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["r"], ["0505"], die=6)
    assert c.defender_steps == 1


def test_8_11_targets_are_sought_only_next_to_units_that_may_attack_across_open_hexsides(
        monkeypatch):
    # 8.11: a unit attacks only hexes adjacent to it; the declaration looks for targets only
    # next to the units that may attack (``_Position.within_reach``), which must be exactly
    # the hexes with a candidate attacker, also when a hexside prohibits combat (5.4)
    from dataclasses import replace

    g = board([unit("r1", "russian", "0304", steps=BIG), unit("r2", "russian", "0604", steps=BIG),
               unit("g1", "german", "0305", steps=[[1, 4, 5]]),
               unit("g2", "german", "0605", steps=[[1, 4, 5]]),
               unit("g3", "german", "0307", steps=[[1, 4, 5]])])
    terrain = combat.combat_terrain(g.scenario)
    m = g.scenario.map
    a, b = cell(g, "0604"), cell(g, "0605")
    d = int(np.flatnonzero(m.neighbors[a] == b)[0])
    pro = terrain.prohibited.copy()
    pro[a, d] = pro[b, (d + 3) % 6] = True          # no combat across the hexside 0604-0605
    monkeypatch.setattr(combat, "combat_terrain", lambda sc: replace(terrain, prohibited=pro))
    pos = combat._Position(g, 0)
    near = pos.within_reach()
    for c in range(m.n_cells):
        assert bool(near[c]) == bool(pos.candidates([c])), hexid(g, c)
    assert near[cell(g, "0305")] and not near[b] and not near[cell(g, "0307")]
    assert pos.targets() == [cell(g, "0305")]
    assert combat.legal_targets(g, 0) == [cell(g, "0305")]
