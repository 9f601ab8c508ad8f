"""Corps attachments (16.0): an attack by units of two or more corps gives the defender +1.

Corps are told apart by nationality and number (German 3 and British 3 are different
formations); a regimental replacement unit belongs to the corps of the division it replaced.
"""

from kb_positions import Scripted, kb_empty_game, kb_put

from gwe_fast.games.kb import combat, units
from gwe_fast.games.kb.game import CLEAR


def kb():
    g = kb_empty_game(turn=3, policies={0: Scripted(default="first"),
                                        1: Scripted(default="first")})
    g.arr("weather")[0] = CLEAR
    return g


def corps_mod(g, attackers, target):
    return combat.attack_modifiers(g, attackers, [g.scenario.map.cell(target)])[3]["corps"]


def test_16_0_two_german_corps_add_1_one_corps_adds_nothing():
    g = kb()
    a = kb_put(g, "ge-xx-206-3", "2012")          # 3 Corps
    b = kb_put(g, "ge-xx-23-3", "1912")           # 3 Corps
    c = kb_put(g, "ge-xx-50-9", "2111")           # 9 Corps
    kb_put(g, "br-x-59-20-18", "2011")
    kb_put(g, "ge-hq-3", "2014")
    assert corps_mod(g, [a, b], "2011") == 0
    assert corps_mod(g, [a, c], "2011") == 1
    assert corps_mod(g, [a, b, c], "2011") == 1         # two or more: still +1
    hq9 = kb_put(g, "ge-hq-9", "2010")
    assert corps_mod(g, [a, b, hq9], "2011") == 1       # an HQ belongs to its corps too


def test_16_0_allied_corps_british_and_french():
    g = kb()
    kb_put(g, "ge-xx-206-3", "2011")
    b18 = kb_put(g, "br-x-59-20-18", "2012")
    b18b = kb_put(g, "br-x-61-20-18", "1912")
    b3 = kb_put(g, "br-x-54-18-3", "2111")
    fr5 = kb_put(g, "fr-iii-25-9-5", "2010")
    assert corps_mod(g, [b18, b18b], "2011") == 0
    assert corps_mod(g, [b18, b3], "2011") == 1
    assert corps_mod(g, [b18, fr5], "2011") == 1


def test_16_0_replacement_unit_keeps_its_division_corps_13_2():
    g = kb()
    div = kb_put(g, "ge-xx-206-3", "2012")              # 3 Corps
    units.lose_steps(g, div, 2, "combat")               # back face, then the replacement
    (rep,) = g.state.units_at(g.scenario.map.cell("2012"))
    rep = int(rep)
    assert g.data.replacement[rep]
    other3 = kb_put(g, "ge-xx-23-3", "1912")
    other9 = kb_put(g, "ge-xx-50-9", "2111")
    kb_put(g, "br-x-59-20-18", "2011")
    assert corps_mod(g, [rep, other3], "2011") == 0
    assert corps_mod(g, [rep, other9], "2011") == 1


def test_16_0_the_plus_1_reaches_the_combat_resolution():
    g = kb()
    kb_put(g, "ge-xx-206-3", "2012")
    kb_put(g, "ge-xx-50-9", "1912")
    kb_put(g, "ge-hq-3", "2014")
    kb_put(g, "br-x-59-20-18", "2011")                  # town +1
    g.dice.force("combat", [1, 1])
    combat.combat_phase(g, 1)
    (ev,) = [e[2] for e in g.events if e[0] == "combat"]
    assert (ev["corps"], ev["terrain"], ev["supply_mod"], ev["def_mod"]) == (1, 1, 0, 2)
    assert ev["quotient"] == 60 // (3 * 10)
