"""The Kaiser's Battle 6.0 Zones of Control (6.1 effectiveness, 6.2 movement, 6.3 combat and
supply) and 14.1 How to Determine Supply (the supply line and its length, 14.11-14.13; the
effects 14.22-14.24)."""

from __future__ import annotations

import numpy as np
import pytest

from kb_positions import kb_around, kb_empty_game, kb_hexes, kb_put, kb_service_company
from gwe_fast.enums import Hexside, Side, Terrain
from gwe_fast.games.kb import movement, supply
from gwe_fast.games.kb.zoc import controlled, occupied

FIRST, SECOND = movement.FIRST, movement.SECOND
BN = "br-ii-5gh-61-18"
BN2 = "br-ii-4ob-61-18"
BN3 = "br-ii-4bk-61-18"
DIV = "ge-xx-88-3"
DIV2 = "ge-xx-113-3"
REG = "ge-iii-15-13-gyl"
REG2 = "ge-iii-60-13-gyl"
GHQ = "ge-hq-3"
BHQ = "br-hq-18"


def cell(g, h):
    return g.scenario.map.cell(h)


def reach(g, dist):
    m = g.scenario.map
    return {m.id_of(int(c)): int(dist[c]) for c in np.flatnonzero(dist >= 0)}


# --- 6.0 / 6.1 --------------------------------------------------------------------------------

def test_6_0_a_zone_of_control_is_the_six_hexes_around_a_unit():
    g = kb_empty_game()
    kb_put(g, BN, "1106")
    assert kb_hexes(g, controlled(g, Side.ALLIED)) == kb_around(g, "1106")
    assert not controlled(g, Side.CENTRAL).any()


def test_6_0_and_15_24_service_companies_exert_no_zone_of_control():
    g = kb_empty_game()
    kb_service_company(g, BN, "1106")
    assert not controlled(g, Side.ALLIED).any()
    assert occupied(g, Side.ALLIED)[cell(g, "1106")]       # but they occupy their hex
    kb_put(g, BN2, "1110")                                # a battalion beside it does
    assert kb_hexes(g, controlled(g, Side.ALLIED)) == kb_around(g, "1110")
    # a German unit beside the company moves freely (no cost to leave, no stop beside it):
    # 1105 -> 1205 -> 1206 -> 1107, every step next to the company
    a = kb_put(g, DIV, "1105")
    r = reach(g, movement.routes(g, a, FIRST)[0])
    assert r["1005"] == 1 and r["1205"] == 1 and r["1206"] == 2 and r["1107"] == 3


@pytest.mark.parametrize("uid", [GHQ, DIV, REG, "ge-iii-repl-01", BHQ, "br-i-478-18",
                                 "br-ii-6-3cv-18", "br-x-59-20-18"])
def test_6_11_every_unit_exerts_its_zone_at_all_times(uid):
    g = kb_empty_game()
    u = kb_put(g, uid, "1106")
    side = int(g.scenario.units.side[u])
    assert kb_hexes(g, controlled(g, side)) == kb_around(g, "1106")
    assert not controlled(g, 1 - side).any()


def test_6_12_entering_an_enemy_controlled_hex_costs_nothing_extra():
    g = kb_empty_game()
    kb_put(g, BN, "1108")
    a = kb_put(g, DIV, "1104")
    r = reach(g, movement.routes(g, a, FIRST)[0])
    assert r["1107"] == 3 == g.scenario.map.distance("1104", "1107")


def test_6_13_terrain_never_affects_zones_of_control():
    g = kb_empty_game()
    m = g.scenario.map
    assert m.hexside("0713", "0714") & Hexside.MINOR_RIVER
    assert m.hexside("1804", "1904") & Hexside.MINOR_RIVER
    assert m.terrain[m.cell("1904")] == Terrain.SWAMP
    kb_put(g, BN, "0713")
    kb_put(g, BN2, "1804")
    kb_put(g, BN3, "3211")                   # a town in a swamp beside a canal
    assert m.hexside("3211", "3212") & Hexside.CANAL
    zone = set(kb_hexes(g, controlled(g, Side.ALLIED)))
    assert zone == set(kb_around(g, "0713")) | set(kb_around(g, "1804")) | set(kb_around(g, "3211"))
    assert {"0714", "1904", "3212"} <= zone


def test_6_13_no_additional_effect_from_more_than_one_zone():
    g = kb_empty_game()
    kb_put(g, BN, "1107")
    a = kb_put(g, DIV, "1106")
    once = movement.routes(g, a, FIRST)[0].copy()
    kb_put(g, BN2, "1007")                   # 1106 is now controlled twice
    kb_put(g, BN3, "1207")
    twice = movement.routes(g, a, FIRST)[0]
    m = g.scenario.map
    for h in ("1005", "1105", "1205"):
        assert once[m.cell(h)] == twice[m.cell(h)] == 1 + 2


# --- 6.2 zones of control and movement ------------------------------------------------------

def test_6_21_units_cease_movement_on_entering_an_enemy_zone():
    g = kb_empty_game()
    kb_put(g, BN, "1108")
    a = kb_put(g, DIV, "1105")
    dist, pred = movement.routes(g, a, FIRST)
    m = g.scenario.map
    ring = set(kb_around(g, "1108"))
    # every hex reached has a path that never goes on from a ring hex
    for c in np.flatnonzero(dist > 0):
        p = int(pred[c])
        while p != m.cell("1105"):
            assert m.id_of(p) not in ring, m.id_of(int(c))
            p = int(pred[p])


def test_6_22_a_unit_that_has_left_a_zone_may_enter_another_later():
    g = kb_empty_game()
    kb_put(g, BN, "1107")                    # 1106 is in its zone
    kb_put(g, BN2, "1102")                   # controls 1103, not 1104 or 1105
    a = kb_put(g, DIV, "1106")
    r = reach(g, movement.routes(g, a, FIRST)[0])
    # leave to 1105 (1 + 2), then 1104 (4), then into 1102's zone at 1103 (5)
    assert r["1105"] == 3 and r["1104"] == 4 and r["1103"] == 5


def test_6_23_never_directly_from_one_enemy_controlled_hex_to_another():
    g = kb_empty_game()
    kb_put(g, BN, "1107")
    a = kb_put(g, REG, "1106")               # 3 MP: 1006 and 1206 are controlled too
    dist, pred = movement.routes(g, a, FIRST)
    m = g.scenario.map
    for h in ("1006", "1206"):
        assert pred[m.cell(h)] != m.cell("1106")
        assert dist[m.cell(h)] == 3          # only by way of 1005 / 1205 (1 + 1, then 1)


def test_6_24_friendly_units_do_not_negate_enemy_zones_for_movement():
    g = kb_empty_game()
    kb_put(g, BN, "1107")
    kb_put(g, DIV2, "1106")                  # a German unit sits in the zone
    assert controlled(g, Side.ALLIED)[cell(g, "1106")]
    a = kb_put(g, DIV, "1104")
    dist, pred = movement.routes(g, a, FIRST)
    m = g.scenario.map
    assert dist[m.cell("1106")] == 2
    # nothing is reached through 1106: the unit had to stop there
    assert not [c for c in np.flatnonzero(dist > 0) if pred[c] == m.cell("1106")]
    # and one starting there pays to leave
    r = reach(g, movement.routes(g, int(g.unit(DIV2)), FIRST)[0])
    assert r["1105"] == 1 + 2


# --- 6.3 zones of control and supply (14.12) ------------------------------------------------

def line(g, uid, side=Side.CENTRAL):
    return int(supply.line_lengths(g, side)[g.state.unit_cell[g.unit(uid)]])


def test_14_12_the_line_counts_hexes_to_the_hq_inclusive_and_ignores_terrain():
    g = kb_empty_game()
    kb_put(g, GHQ, "1104")
    kb_put(g, DIV, "1105")
    kb_put(g, REG, "1110")
    assert line(g, DIV) == 1 and line(g, REG) == 6
    g2 = kb_empty_game()
    kb_put(g2, GHQ, "0713")                  # a river between, a town, a swamp: no matter
    kb_put(g2, DIV, "0714")
    kb_put(g2, REG, "1904")
    kb_put(g2, REG2, "1804")
    assert line(g2, DIV) == 1
    assert line(g2, REG) == g2.scenario.map.distance("0713", "1904")
    g2.remove(GHQ)
    assert supply.line_lengths(g2, Side.CENTRAL).max() == -1      # no HQ: no line at all


def test_6_31_enemy_occupied_or_controlled_hexes_block_the_line():
    g = kb_empty_game()
    kb_put(g, GHQ, "1104")
    kb_put(g, DIV, "1108")
    assert line(g, DIV) == 4
    kb_put(g, BN, "1206")                    # controls 1106 and 1107
    assert line(g, DIV) == 5                 # 1008 1007 1006 1105 1104
    # an enemy unit in the way blocks its own hex too
    g2 = kb_empty_game()
    kb_put(g2, GHQ, "1104")
    kb_put(g2, DIV, "1108")
    kb_service_company(g2, BN, "1106")       # occupies, controls nothing
    assert line(g2, DIV) == 5


def test_6_31_and_14_13_4_surrounded_by_zones_a_unit_is_isolated():
    g = kb_empty_game()
    kb_put(g, GHQ, "1102")
    kb_put(g, DIV, "1106")
    kb_put(g, BN, "1105")
    kb_put(g, BN2, "1107")                   # every hex around 1106 is controlled
    assert line(g, DIV) == -1
    u = g.unit(DIV)
    assert supply.state_of(g, supply.line_lengths(g, Side.CENTRAL), u) == supply.ISOLATED
    # 6.32 "not friendly Zones of Control": a German zone on 1005 does not open it
    kb_put(g, REG, "0905")
    assert controlled(g, Side.CENTRAL)[cell(g, "1005")]
    assert line(g, DIV) == -1


def test_6_32_friendly_units_negate_enemy_zones_for_supply():
    g = kb_empty_game()
    kb_put(g, GHQ, "1102")
    kb_put(g, DIV, "1106")
    kb_put(g, BN, "1105")
    kb_put(g, BN2, "1107")
    kb_put(g, REG, "1005")                   # a German unit in a controlled hex
    assert controlled(g, Side.ALLIED)[cell(g, "1005")]
    # 1106 -> 1005 -> 0905 -> 0904 -> 1003 -> 1103 -> 1102: six hexes (1004 is controlled)
    assert line(g, DIV) == 6


def test_6_33_friendly_units_do_not_negate_enemy_zones_for_retreats():
    # a retreat (8.74, combat) asks zoc.controlled, which ignores who occupies the hex
    g = kb_empty_game()
    kb_put(g, BN, "1107")
    kb_put(g, DIV, "1106")
    assert controlled(g, Side.ALLIED)[cell(g, "1106")]


# --- 14.13 supply states, 14.22-14.24 effects -----------------------------------------------

@pytest.mark.parametrize("hexid, hexes, state", [
    ("1105", 1, supply.IN_SUPPLY), ("1110", 6, supply.IN_SUPPLY),
    ("1111", 7, supply.OUT_OF_COMMUNICATIONS), ("1116", 12, supply.OUT_OF_COMMUNICATIONS),
    ("1117", 13, supply.OUT_OF_SUPPLY), ("1124", 20, supply.OUT_OF_SUPPLY)])
def test_14_13_supply_states_by_the_length_of_the_line(hexid, hexes, state):
    g = kb_empty_game(turn=3)
    kb_put(g, GHQ, "1104")
    u = kb_put(g, DIV, hexid)
    lengths = supply.line_lengths(g, Side.CENTRAL)
    assert lengths[cell(g, hexid)] == hexes
    assert supply.state_of(g, lengths, u) == state
    # the Allies the same
    g2 = kb_empty_game(turn=3)
    kb_put(g2, BHQ, "1104")
    b = kb_put(g2, BN, hexid)
    assert supply.state_of(g2, supply.line_lengths(g2, Side.ALLIED), b) == state


def test_14_12_any_friendly_hq_of_any_corps_or_nation():
    g = kb_empty_game(turn=3)
    kb_put(g, "fr-hq-5", "1104")             # a French HQ supplies a British battalion
    b = kb_put(g, BN, "1106")
    assert supply.state_of(g, supply.line_lengths(g, Side.ALLIED), b) == supply.IN_SUPPLY
    assert supply.line_lengths(g, Side.CENTRAL).max() == -1          # not an enemy's


def test_14_22_defender_die_modifiers_by_state():
    g = kb_empty_game()
    assert [supply.die_modifier(g, s) for s in range(4)] == [0, 1, 2, 3]


def test_14_23_14_24_the_worst_state_among_the_attackers_applies():
    g = kb_empty_game(turn=3)
    kb_put(g, GHQ, "1104")
    a = kb_put(g, DIV, "1105")               # in supply
    b = kb_put(g, REG, "1112")               # 8 hexes: out of communications
    c = kb_put(g, REG2, "1120")              # 16 hexes: out of supply
    assert supply.worst_state(g, [a]) == supply.IN_SUPPLY
    assert supply.worst_state(g, [a, b]) == supply.OUT_OF_COMMUNICATIONS
    assert supply.worst_state(g, [a, b, c]) == supply.OUT_OF_SUPPLY
    g.remove(GHQ)
    assert supply.worst_state(g, [a, b, c]) == supply.ISOLATED


def test_6_32_a_service_company_is_a_friendly_unit_for_supply():
    # ruling: it exerts no zone (15.24) but is a unit, so it opens the hex it occupies
    g = kb_empty_game()
    kb_put(g, BHQ, "1102")
    kb_put(g, BN, "1106")
    kb_put(g, "ge-xx-88-3", "1105")
    kb_put(g, "ge-xx-113-3", "1107")              # every hex around 1106 is German-controlled
    assert line(g, BN, Side.ALLIED) == -1
    kb_service_company(g, BN2, "1005")
    assert line(g, BN, Side.ALLIED) == 6
