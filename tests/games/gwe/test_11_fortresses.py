"""Fortresses in combat (11.1): their own Defense Strength, four steps worth two each, no
retreat; the rulebook's examples of 11.13. The Brusilov map has no fortress, so the board
gets one at 0505 (Central Powers side) with a Defense Strength of 6, 3 once weakened."""

from combat_positions import board, cell, fight, steps_lost, unit, where

from gwe_fast.games.gwe import combat
from gwe_fast.games.gwe.combat import F_FULL, F_LOST, F_WEAK

CORPS = [[14, 10, 4], [13, 9, 4], [7, 5, 4], [6, 4, 4]]


def fortress_board(units, **kw):
    g = board(units, features={"fortress": ["0505"], **kw.pop("features", {})}, **kw)
    f = g.arr("fortress")[cell(g, "0505")]
    f[F_FULL], f[F_WEAK] = 6, 3
    return g


def lost(g):
    return int(g.arr("fortress")[cell(g, "0505"), F_LOST])


def test_11_11_a_fortress_adds_its_printed_defense_never_doubled():
    g = fortress_board([unit("g", "german", "0505", steps=[[2, 4, 5], [1, 2, 5]])],
                       features={"trench_central": ["0505"]})
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 4 * 2 + 6
    g = fortress_board([unit("r", "russian", "0504")], features={"trench_central": ["0505"]})
    assert combat.defense_strength(g, [cell(g, "0505")], 0) == 6


def test_11_13_example_two_divisions_in_a_fortress_lose_half_of_eight_steps():
    # "two divisions stacked with a fortress (8 Steps: 4 for the fortress and 4 for the two
    # divisions) and the combat result is a 1: ... lose one half of 8 Steps, which would be
    # 4 Steps ... either by losing the two divisions (4 Steps) or by losing 2 fortress Steps"
    def run(*losses):
        g = fortress_board([unit("r1", "russian", "0504", steps=CORPS, size="corps", stacking=4),
                            unit("r2", "russian", "0604", steps=CORPS, size="corps", stacking=4),
                            unit("d1", "german", "0505", steps=[[2, 4, 5], [1, 2, 5]]),
                            unit("d2", "german", "0505", steps=[[2, 4, 5], [1, 2, 5]])])
        g.central.add("gwe.combat.option", "lose_half_affected_steps")
        g.central.add("gwe.combat.loss", *losses)
        c = fight(g, ["r1", "r2"], ["0505"], die=3)       # 28 to 14: 2-1, die 3: 1/1
        assert (c.defense, c.odds, c.defender_result) == (14, "2-1", "1")
        assert (c.attacker_steps, c.defender_steps, c.affected) == (8, 8, 8)
        return g
    g = run(lambda o: o[-1], lambda o: o[-1])              # two fortress steps (last option)
    assert lost(g) == 2 and where(g, "d1") == where(g, "d2") == "0505"
    assert steps_lost(g, "d1") == steps_lost(g, "d2") == 0
    assert combat.fortress_defense(g, cell(g, "0505")) == 3      # 11.14: weakened
    assert steps_lost(g, "r1") + steps_lost(g, "r2") == 4        # half of the 8 affected
    d1, d2 = g.unit("d1"), g.unit("d2")
    g = run(d1, d1, d2, d2)                                # or the two divisions
    assert lost(g) == 0 and where(g, "d1") == where(g, "d2") == "elim"


def test_11_13_example_an_unoccupied_fortress_with_a_result_of_3_loses_three_steps():
    # "lose 3/2 (150%) of four Steps which would be 6 Steps ... absorbed by 3 fortress Steps"
    def run(option):
        g = fortress_board([unit("r", "russian", "0504", steps=[[18, 9, 4], [13, 7, 4],
                                                               [9, 5, 4], [5, 3, 4]],
                                 size="corps", stacking=4)])
        assert combat.legal_targets(g, 0) == [cell(g, "0505")]
        g.central.add("gwe.combat.option", option)
        c = fight(g, ["r"], ["0505"], die=1)               # 18 to 6: 3-1, die 1: -/3
        assert (c.odds, c.defender_result, c.affected) == ("3-1", "3", 4)
        return g
    g = run("lose_half_and_retreat_2")
    assert g.central.options("gwe.combat.option") == [["eliminate_all", "lose_half_and_retreat_2"]]
    assert lost(g) == 3
    assert g.allied.options("gwe.combat.advance") == []   # 5.13: an undestroyed fortress
    assert combat.legal_targets(g, 0) == []                 # 8.14: attacked once
    g = run("eliminate_all")
    assert lost(g) == 4 and not combat.fortress_cells(g, 1)[cell(g, "0505")]
    assert g.allied.options("gwe.combat.advance")           # destroyed: the hex is open


def test_11_12_a_fortress_never_retreats_it_loses_steps_instead():
    g = fortress_board([unit("r1", "russian", "0504", steps=CORPS, size="corps", stacking=4),
                        unit("r2", "russian", "0604", steps=CORPS, size="corps", stacking=4),
                        unit("d1", "german", "0505", steps=[[2, 4, 5], [1, 2, 5]]),
                        unit("d2", "german", "0505", steps=[[2, 4, 5], [1, 2, 5]])])
    g.central.add("gwe.combat.option", "retreat_1")
    fight(g, ["r1", "r2"], ["0505"], die=3)                # 1/1
    assert where(g, "d1") == where(g, "d2") == "0506"
    assert lost(g) == 1                                    # one hex: half its 4 steps, 2 = 1
    assert g.allied.options("gwe.combat.advance") == []


def test_11_14_the_smaller_defense_strength_after_two_steps_lost():
    g = fortress_board([])
    c = cell(g, "0505")
    assert combat.fortress_defense(g, c) == 6
    combat.fortress_lose(g, c, 1)
    assert combat.fortress_defense(g, c) == 6
    combat.fortress_lose(g, c, 1)
    assert combat.fortress_defense(g, c) == 3
    combat.fortress_lose(g, c, 5)
    assert combat.fortress_steps(g, c) == 0 and combat.fortress_defense(g, c) == 0


def test_11_22_a_unit_feeding_off_a_fortress_holds_to_the_last_man_8_75():
    g = fortress_board([unit("r1", "russian", "0504", steps=CORPS, size="corps", stacking=4),
                        unit("r2", "russian", "0604", steps=CORPS, size="corps", stacking=4),
                        unit("d", "german", "0505", steps=[[1, 2, 5]])])
    g.state.hex_last[[cell(g, f"{c:02d}08") for c in range(1, 8)]] = 0   # no German rail
    g.central.add("gwe.combat.option", "eliminate_all")
    c = fight(g, ["r1", "r2"], ["0505"], die=1)            # 28 to 8: 3-1, die 1: -/3
    assert c.defender_result == "3" and c.ils_ne_passeront_pas
    assert where(g, "d") == "elim" and lost(g) == 4
    assert g.allied.options("gwe.combat.advance") == []


def test_11_11_a_fortress_hex_for_the_declaration():
    # the declaration asks every hex at once (hex_defenses, attackable_cells): the fortress's
    # own strength, never doubled; a fortress alone may be attacked, not once it has been
    g = fortress_board([unit("g", "german", "0505", steps=[[2, 4, 5], [1, 2, 5]]),
                        unit("r", "russian", "0504")],
                       features={"trench_central": ["0505"]})
    c = cell(g, "0505")
    assert combat.hex_defenses(g, [c], 0) == [4 * 2 + 6]
    g = fortress_board([unit("r", "russian", "0504")])
    assert combat.hex_defenses(g, [c], 0) == [6]
    assert combat.attackable_cells(g, 0)[c]
    g.arr("fortress")[c, combat.F_ATTACKED] = 1
    assert not combat.attackable_cells(g, 0)[c]
