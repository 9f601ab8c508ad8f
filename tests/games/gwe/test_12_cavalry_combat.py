"""Cavalry combat limitations (12.21), with the rulebook's example."""

from fractions import Fraction

from combat_positions import board, cell, unit

from gwe_fast.games.gwe import combat


def strength(g, attackers, hexid):
    return combat.attack_strength(g, [g.unit(a) for a in attackers], [cell(g, hexid)])


def cav(uid, hexid, a):
    return unit(uid, "russian", hexid, "cavalry", steps=[[a, 2, 6]])


def test_12_21_example_cavalry_of_four_attack_with_one_against_other_units():
    g = board([cav("c", "0504", 4), unit("g", "german", "0505", steps=[[1, 1, 5]])])
    assert strength(g, ["c"], "0505") == 1


def test_12_21_the_cut_is_made_on_the_cavalry_total_fractions_dropped():
    g = board([cav("c1", "0504", 2), cav("c2", "0604", 2), cav("c3", "0404", 3),
               unit("r", "russian", "0404", steps=[[2, 4, 4]]),
               unit("g", "german", "0505", steps=[[1, 1, 5]])])
    assert strength(g, ["c1", "c2"], "0505") == 1          # 2 + 2 = 4: one, not 0 + 0
    assert strength(g, ["c3"], "0505") == 0                # three quarters: nothing
    assert strength(g, ["c3", "r"], "0505") == 2           # infantry unaffected
    g2 = board([cav("c3", "0404", 3), unit("g", "german", "0505", steps=[[1, 1, 5]])])
    assert combat.legal_targets(g2, 0) == []               # no strength: no attack


def test_12_21_full_strength_against_cavalry_depots_and_hqs_only():
    g = board([cav("c", "0404", 4),
               unit("gc", "german", "0505", "cavalry", steps=[[1, 1, 6]]),
               unit("hq", "german", "0505", "hq"),
               unit("dp", "austro_hungarian", "0405", "depot"),
               unit("gi", "german", "0305", steps=[[1, 1, 5]]),
               unit("gc2", "german", "0305", "cavalry", steps=[[1, 1, 6]])])
    assert strength(g, ["c"], "0505") == 4                 # cavalry and an HQ
    assert strength(g, ["c"], "0405") == 4                 # a depot
    assert strength(g, ["c"], "0305") == 1                 # cavalry with infantry
    both = [cell(g, "0505"), cell(g, "0405")]
    assert combat.attack_strength(g, [g.unit("c")], both) == 4
    assert combat.attack_strength(g, [g.unit("c")], both + [cell(g, "0305")]) == 1


def test_12_21_with_a_river_the_halved_total_is_cut_and_its_fraction_dropped():
    g = board([cav("c", "0504", 6), unit("g", "german", "0505", steps=[[1, 1, 5]])],
              hexsides={"minor_river": ["0504-0505"]})
    assert strength(g, ["c"], "0505") == 0                 # 6 / 2 = 3, a quarter: 0.75
    g = board([cav("c", "0504", 6), unit("g", "german", "0505", "cavalry", steps=[[1, 1, 6]])],
              hexsides={"minor_river": ["0504-0505"]})
    assert strength(g, ["c"], "0505") == Fraction(3)


def test_12_21_a_fortress_is_not_cavalry():
    from gwe_fast.games.gwe.combat import F_FULL
    g = board([cav("c", "0504", 4), unit("gc", "german", "0505", "cavalry", steps=[[1, 1, 6]])],
              features={"fortress": ["0505"]})
    g.arr("fortress")[cell(g, "0505"), F_FULL] = 2
    assert strength(g, ["c"], "0505") == 1
