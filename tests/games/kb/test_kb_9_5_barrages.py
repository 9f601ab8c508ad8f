"""Rolling barrages (9.5), SOS barrages (9.6), observation (9.7) and the end of air
observation markers (12.22), in the Combat Phase.

The attacks are made in the open country round 2012 (no hilltop within 6 hexes); observation
from hilltops is tested at 1025, a lone hilltop with clear country to its north (column 10,
rows 17-22) and no other hilltop within 7 hexes of that column.
"""

import pytest
from kb_positions import Scripted, kb_empty_game, kb_put

from gwe_fast.games.kb import combat
from gwe_fast.games.kb.game import CLEAR, FOG, MISSIONS, MIST

GE_RGT = "ge-iii-15-13-gyl"
BR_BDE = "br-x-59-20-18"
BR_BN = "br-ii-5gh-61-18"


def kb(weather=CLEAR, german=None, allied=None, turn=3):
    g = kb_empty_game(turn=turn, policies={0: allied or Scripted(default="first"),
                                           1: german or Scripted(default="first")})
    g.arr("weather")[0] = weather
    return g


def C(g, h):
    return g.scenario.map.cell(h)


def options_of(policy, kind):
    return [list(d.options) for d in policy.seen if d.kind == kind]


def one_attack(weather=CLEAR, ge_hq="2016", br_hq="2009", observed=False, rolling=None,
               sos=None, second_stack=False, dice=(1, 1)):
    """A German regiment at 2013 attacks a British brigade at 2012 (and, with ``second_stack``,
    a battalion at 2114 too, in one attack); both sides have Artillery Points."""
    ge = Scripted({"kb.combat.rolling": rolling} if rolling else {}, default="first")
    br = Scripted({"kb.combat.sos": sos} if sos else {}, default="first")
    g = kb(weather, german=ge, allied=br)
    kb_put(g, GE_RGT, "2013")
    kb_put(g, BR_BDE, "2012")
    if second_stack:
        kb_put(g, BR_BN, "2114")
    if ge_hq:
        kb_put(g, "ge-hq-gayl", ge_hq)
    if br_hq:
        kb_put(g, "br-hq-18", br_hq)
    g.arr("arty")[1] = (35, 30)
    g.arr("arty")[0] = (8, 6)
    if observed:
        g.arr("observed")[C(g, "2012")] = 1
    g.dice.force("combat", list(dice) + [1])
    combat.combat_phase(g, 1)
    (ev,) = [e[2] for e in g.events if e[0] == "combat"]
    return g, ge, br, ev


def mixes(n, field=True):
    return [(f, t - f) for t in range(n + 1) for f in range(t if field else 0, -1, -1)]


# --- 9.5 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("weather, observed, limit", [(CLEAR, False, 2), (MIST, False, 1),
                                                      (CLEAR, True, 3), (MIST, True, 2)])
def test_9_51_9_53_rolling_barrage_limits_by_weather_and_observation(weather, observed, limit):
    _g, ge, _br, _ev = one_attack(weather, observed=observed)
    assert options_of(ge, "kb.combat.rolling") == [mixes(limit)]


def test_9_51_17_4_no_rolling_or_sos_barrage_in_fog():
    g, ge, br, _ev = one_attack(FOG, observed=True)
    assert not options_of(ge, "kb.combat.rolling") and not options_of(br, "kb.combat.sos")
    assert g.arr("arty_spent").sum() == 0


def test_9_52_each_rolling_point_adds_1_to_the_attacker_and_is_spent():
    g, _ge, _br, ev = one_attack(observed=True, rolling=[(1, 2)], dice=(2, 1))
    assert (ev["rolling"], ev["att_mod"]) == (3, 3)
    assert ev["quotient"] == (2 + 3) * 10 // ((1 + ev["def_mod"]) * 10)
    k = MISSIONS.index("rolling")
    assert g.arr("arty_spent")[1, k].tolist() == [1, 2]
    assert g.arr("arty")[1].tolist() == [34, 28]


def test_9_11_rolling_field_points_only_within_10_hexes_of_a_friendly_hq():
    # no German HQ on the map: Heavy points only
    _g, ge, _br, _ev = one_attack(ge_hq=None)
    assert options_of(ge, "kb.combat.rolling") == [[(0, 0), (0, 1), (0, 2)]]
    # an HQ 11 hexes from the target: still Heavy only; 10 hexes: Field too
    g, ge, _br, _ev = one_attack(ge_hq="2023")
    assert g.scenario.map.distance("2023", "2012") == 11
    assert options_of(ge, "kb.combat.rolling") == [[(0, 0), (0, 1), (0, 2)]]
    g, ge, _br, _ev = one_attack(ge_hq="2022")
    assert options_of(ge, "kb.combat.rolling") == [mixes(2)]


def test_9_5_one_rolling_barrage_per_attack_even_multi_hex():
    _g, ge, _br, _ev = one_attack(second_stack=True)
    assert len(options_of(ge, "kb.combat.rolling")) == 1


# --- 9.6 --------------------------------------------------------------------------------------

@pytest.mark.parametrize("weather, limit", [(CLEAR, 4), (MIST, 2)])
def test_9_61_sos_limits_by_weather(weather, limit):
    _g, _ge, br, _ev = one_attack(weather)
    assert options_of(br, "kb.combat.sos") == [mixes(limit)]


def test_9_62_sos_points_halved_fractions_dropped_and_spent():
    for pts, mod in (((1, 0), 0), ((2, 1), 1), ((2, 2), 2), ((0, 2), 1)):
        g, _ge, _br, ev = one_attack(sos=[pts])
        assert ev["sos"] == mod
        assert g.arr("arty_spent")[0, MISSIONS.index("sos")].tolist() == list(pts)


def test_9_6_one_sos_barrage_per_defending_stack_ruling_they_add_up():
    g, _ge, br, ev = one_attack(second_stack=True, sos=[(2, 1), (2, 2)])
    asked = [d.context["stack"] for d in br.seen if d.kind == "kb.combat.sos"]
    assert asked == sorted([C(g, "2012"), C(g, "2114")])
    assert ev["sos"] == 1 + 2
    assert g.arr("arty")[0].tolist() == [4, 3]


def test_9_63_sos_field_points_only_within_range_of_the_defender_hq():
    _g, _ge, br, _ev = one_attack(br_hq=None)
    assert options_of(br, "kb.combat.sos") == [[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]]


# --- 9.7 --------------------------------------------------------------------------------------

def obs(g, att_hex, def_hex):
    return combat.observed(g, [g.unit(GE_RGT)] if att_hex is None else
                           [kb_put(g, GE_RGT, att_hex)], [C(g, def_hex)])


@pytest.mark.parametrize("weather, att, tgt, want", [
    (CLEAR, "1019", "1018", True),       # 6 hexes to 1025
    (CLEAR, "1018", "1017", False),      # 7
    (MIST, "1022", "1021", True),        # 3
    (MIST, "1021", "1020", False),       # 4
    (FOG, "1024", "1023", False),        # 9.74
])
def test_9_72_hilltop_line_length_by_weather(weather, att, tgt, want):
    g = kb(weather)
    assert g.data.hilltop[C(g, "1025")]
    kb_put(g, BR_BDE, tgt)
    assert obs(g, att, tgt) is want


def test_9_72_enemy_zone_blocks_the_line_9_73_a_friendly_unit_negates_it():
    # mist, 3 hexes 1022-1023-1024-1025 (the only line that short); a British battalion at
    # 1123 controls 1023
    g = kb(MIST)
    kb_put(g, BR_BDE, "1021")
    assert obs(g, "1022", "1021")
    kb_put(g, BR_BN, "1123")
    assert not obs(g, None, "1021")
    kb_put(g, "ge-iii-60-13-gyl", "1023")
    assert obs(g, None, "1021")


def test_9_72_an_enemy_unit_in_the_line_blocks_it():
    # a British battalion at 1024 sits in the one 3-hex line and controls the hilltop 1025
    g = kb(MIST)
    kb_put(g, BR_BDE, "1021")
    kb_put(g, BR_BN, "1024")
    assert not obs(g, "1022", "1021")
    kb_put(g, "ge-iii-60-13-gyl", "1025")         # holding the hilltop negates its zone (9.73)
    assert not obs(g, None, "1021")               # but 1024 stays enemy-occupied
    g.arr("weather")[0] = CLEAR                   # 6 hexes: a line round 1024 exists
    assert obs(g, None, "1021")
    g.remove("ge-iii-60-13-gyl")                  # the hilltop is enemy-controlled again
    assert not obs(g, None, "1021")


def test_9_75_attacker_on_a_hilltop_observes_but_never_in_fog():
    for weather, want in ((CLEAR, True), (MIST, True), (FOG, False)):
        g = kb(weather)
        kb_put(g, BR_BDE, "1026")
        assert obs(g, "1025", "1026") is want


def test_9_71_12_22_air_marker_on_the_defending_stack_observes_and_is_removed_at_phase_end():
    g = kb(CLEAR)
    kb_put(g, BR_BDE, "2012")
    kb_put(g, GE_RGT, "2013")
    assert not combat.observed(g, [g.unit(GE_RGT)], [C(g, "2012")])
    g.arr("observed")[C(g, "2012")] = 1
    g.arr("observed")[C(g, "3010")] = 1           # a marker that went unused
    assert combat.observed(g, [g.unit(GE_RGT)], [C(g, "2012")])
    g.arr("weather")[0] = FOG
    assert not combat.observed(g, [g.unit(GE_RGT)], [C(g, "2012")])
    g.arr("weather")[0] = CLEAR
    g.dice.force("combat", [1, 1])
    combat.combat_phase(g, 1)
    assert not g.arr("observed").any()
