"""Supply in combat (14.1-14.2, 17.5): the attackers' worst supply state, determined when the
attack is resolved, adds to the defender's die roll.

Column 20 of the map is open country from 2009 to 2026 (no hexside features), so a supply line
straight down the column is as long as the hex distance and is the only line of that length.
"""

from kb_positions import Scripted, kb_empty_game, kb_put

from gwe_fast.games.kb import combat
from gwe_fast.games.kb.game import CLEAR, FOG

GE_RGT = "ge-iii-15-13-gyl"
GE_RGT2 = "ge-iii-60-13-gyl"
BR_BDE = "br-x-59-20-18"
BR_COY = "br-i-4sk-58-3"


def kb(turn=3, weather=CLEAR, german=None, allied=None):
    g = kb_empty_game(turn=turn, policies={0: allied or Scripted(default="first"),
                                           1: german or Scripted(default="first")})
    g.arr("weather")[0] = weather
    return g


def C(g, h):
    return g.scenario.map.cell(h)


def supply_of(g, attackers, target):
    _, _def_mod, _, det = combat.attack_modifiers(g, [g.unit(a) for a in attackers],
                                                 [C(g, target)])
    return det["supply"], det["supply_mod"]


def test_14_13_14_22_supply_states_by_line_length():
    for row, want in ((19, ("in_supply", 0)), (20, ("out_of_communications", 1)),
                      (25, ("out_of_communications", 1)), (26, ("out_of_supply", 2))):
        g = kb()
        kb_put(g, GE_RGT, "2013")
        kb_put(g, BR_BDE, "2012")
        kb_put(g, "ge-hq-gayl", f"20{row:02d}")
        assert g.scenario.map.distance("2013", f"20{row:02d}") == row - 13
        assert supply_of(g, [GE_RGT], "2012") == want
    g = kb()
    kb_put(g, GE_RGT, "2013")
    kb_put(g, BR_BDE, "2012")
    assert supply_of(g, [GE_RGT], "2012") == ("isolated", 3)


def test_14_12_enemy_zone_blocks_the_line_unless_a_friendly_unit_holds_the_hex():
    # HQ 6 hexes down the column; a British company at 2116 controls 2015 and 2016: the line
    # must go round (7+ hexes); a German unit in each of those hexes negates the zone (6.32)
    g = kb()
    kb_put(g, GE_RGT, "2013")
    kb_put(g, BR_BDE, "2012")
    kb_put(g, "ge-hq-gayl", "2019")
    assert supply_of(g, [GE_RGT], "2012") == ("in_supply", 0)
    kb_put(g, BR_COY, "2116")
    assert supply_of(g, [GE_RGT], "2012") == ("out_of_communications", 1)
    kb_put(g, GE_RGT2, "2015")
    assert supply_of(g, [GE_RGT], "2012") == ("out_of_communications", 1)
    kb_put(g, "ge-iii-82-13-gyl", "2016")
    assert supply_of(g, [GE_RGT], "2012") == ("in_supply", 0)


def test_14_23_14_24_one_unit_suffices_and_the_worst_state_applies():
    g = kb()
    kb_put(g, GE_RGT, "2013")            # 6 from the HQ
    kb_put(g, GE_RGT2, "1913")           # 1913-2019: 7 hexes
    kb_put(g, BR_BDE, "2012")
    kb_put(g, "ge-hq-gayl", "2019")
    assert g.scenario.map.distance("1913", "2019") == 7
    assert supply_of(g, [GE_RGT], "2012") == ("in_supply", 0)
    assert supply_of(g, [GE_RGT, GE_RGT2], "2012") == ("out_of_communications", 1)


def test_17_5_germans_in_supply_on_game_turns_1_and_2_allies_not():
    for turn in (1, 2):
        g = kb(turn=turn, weather=FOG)
        kb_put(g, GE_RGT, "2013")
        kb_put(g, BR_BDE, "2012")
        assert supply_of(g, [GE_RGT], "2012") == ("in_supply", 0)
        assert supply_of(g, [BR_BDE], "2013") == ("isolated", 3)
    g = kb(turn=3)
    kb_put(g, GE_RGT, "2013")
    kb_put(g, BR_BDE, "2012")
    assert supply_of(g, [GE_RGT], "2012") == ("isolated", 3)


def test_14_11_supply_is_determined_when_the_attack_is_resolved():
    # Y (2111) traces 2112 ... 2117 (6 hexes) to the HQ, but 2112 and 2113 are controlled from
    # the company A at 2012. Attacked first by X (2013) and destroyed, A no longer blocks Y's
    # line when Y's own attack on B (2110) is resolved; in the other order Y is out of
    # communications
    for first, want in (("2012", "in_supply"), ("2110", "out_of_communications")):
        ge = Scripted({"kb.combat.target": lambda d, g, f=first: (
            (C(g, f),) if (C(g, f),) in d.options else d.options[0])}, default="first")
        g = kb(german=ge)
        x = kb_put(g, GE_RGT, "2013")
        y = kb_put(g, GE_RGT2, "2111")
        kb_put(g, "ge-hq-gayl", "2117")
        kb_put(g, BR_COY, "2012")
        kb_put(g, "br-i-478-18", "2110")
        # each attack: 6 x 10 // 1 x 1: the company is destroyed; advance die 1 (0 MP)
        g.dice.force("combat", [6, 1, 1, 6, 1, 1])
        combat.combat_phase(g, 1)
        ev = {e[2]["attackers"]: e for e in g.events if e[0] == "attack"}
        assert set(ev) == {(x,), (y,)}
        combats = [e[2] for e in g.events if e[0] == "combat"]
        order = [e[2]["attackers"] for e in g.events if e[0] == "attack"]
        by_unit = dict(zip(order, combats))
        assert by_unit[(y,)]["supply"] == want
        assert by_unit[(x,)]["supply"] == "in_supply"
