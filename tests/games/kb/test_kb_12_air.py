"""Air operations (12.0-12.4): points by weather, secret allocation, interception, ground
attacks and air observation markers."""

import numpy as np

from kb_positions import Scripted, SecretSpy, kb_empty_game, kb_put
from gwe_fast.enums import Side
from gwe_fast.games.kb import air
from gwe_fast.games.kb.game import CLEAR, FOG, MIST, Flag
from gwe_fast.state import Status

AL, GE = int(Side.ALLIED), int(Side.CENTRAL)
GHQ, GHQ2, GDIV = "ge-hq-3", "ge-hq-9", "ge-xx-88-3"
AHQ = "br-hq-18"
BN = ["br-ii-5gh-61-18", "br-ii-4ob-61-18", "br-ii-4bk-61-18", "br-ii-6wa-61-18"]
BDE = ["br-x-59-20-18", "br-x-61-20-18"]


def game(turn=3, weather=CLEAR, german=None, allied=None):
    g = kb_empty_game(turn=turn, policies={GE: german or Scripted(), AL: allied or Scripted()})
    g.arr("weather")[0] = weather
    return g


def cell(g, hexid):
    return g.scenario.map.cell(hexid)


def hexes(g, cells):
    return sorted(g.scenario.map.id_of(int(c)) for c in cells if c is not None)


def position(g):
    kb_put(g, GDIV, "1510")                  # German division: 12 SP, morale 4
    kb_put(g, GHQ, "1512")                   # a German HQ alone (12.33)
    kb_put(g, BDE[0], "1518")                # Y: brigade + battalion, 6 SP, morale 4
    kb_put(g, BN[0], "1518")
    kb_put(g, AHQ, "1516")                   # an Allied HQ alone (12.33)
    kb_put(g, BN[1], "1520")                 # a battalion with an HQ: a target
    kb_put(g, "br-hq-3", "1520")
    kb_put(g, BN[2], "1514")                 # placed this Game-Turn (15.16)
    g.arr("flags")[g.unit(BN[2])] |= Flag.ARRIVED


def test_12_0_air_points_from_game_turn_3_german_8_allied_6():
    g = game(turn=2, weather=CLEAR)
    assert (air.air_points(g, GE), air.air_points(g, AL)) == (0, 0)
    air.air_stage(g)                         # nothing asked (Scripted would fail)
    assert not g.arr("air").any()
    g = game(turn=3, weather=CLEAR)
    assert (air.air_points(g, GE), air.air_points(g, AL)) == (8, 6)


def test_12_1_clear_all_mist_half_fog_none():
    g = game()
    got = {}
    for w in (CLEAR, MIST, FOG):
        g.arr("weather")[0] = w
        got[w] = (air.air_points(g, GE), air.air_points(g, AL))
    assert got == {CLEAR: (8, 6), MIST: (4, 3), FOG: (0, 0)}
    g.arr("weather")[0] = FOG
    air.air_stage(g)                         # fog: no air operations at all
    assert not g.arr("air").any() and not g.policies[GE].seen and not g.policies[AL].seen


def test_12_21_every_point_assigned_observation_at_most_half():
    g = game()
    opts = air.allocation_choices(g, GE)
    assert len(opts) == 35 == len(set(opts))
    assert all(sum(o) == 8 and o[0] <= 4 and min(o) >= 0 for o in opts)
    assert (4, 4, 0) in opts and (5, 3, 0) not in opts and (0, 0, 8) in opts
    g.arr("weather")[0] = MIST               # Allied 3 points: observation at most 1
    assert sorted(air.allocation_choices(g, AL)) == [
        (0, 0, 3), (0, 1, 2), (0, 2, 1), (0, 3, 0), (1, 0, 2), (1, 1, 1), (1, 2, 0)]


def test_12_0_allocation_secret_neither_policy_sees_the_other():
    board = {}
    ger = SecretSpy({"kb.air.allocate": [(4, 4, 0)], "kb.air.ground_attack_target": [None]},
                    board=board)
    al = SecretSpy({"kb.air.allocate": [(3, 0, 3)], "kb.air.interception": [(1, 0)]},
                   board=board)
    g = game(german=ger, allied=al)
    position(g)
    air.air_stage(g)
    # the Allied policy, asked after the German picked, found no trace of the pick
    assert ger.looked == [("kb.air.allocate", GE, "first")]
    assert al.looked == [("kb.air.allocate", AL, "second"), ("kb.air.interception", AL, "first")]
    assert g.arr("air").tolist() == [[3, 0, 3], [3, 0, 0]]


def test_12_42_example_allied_6_interception_reduce_german_by_3():
    # German 4 observation + 4 ground attack; Allied 6 interception -> 3; the Allied player
    # takes all three from observation, leaving 1 (the case's example)
    ger = Scripted({"kb.air.allocate": [(4, 4, 0)], "kb.air.ground_attack_target": [None]})
    al = Scripted({"kb.air.allocate": [(0, 0, 6)], "kb.air.interception": [(3, 0)]})
    g = game(german=ger, allied=al)
    position(g)
    air.air_stage(g)
    cut = [d for d in al.seen if d.kind == "kb.air.interception"]
    assert len(cut) == 1 and list(cut[0].options) == [(3, 0), (2, 1), (1, 2), (0, 3)]
    assert "kb.air.interception" not in ger.kinds()      # nothing to split: 0 interception
    assert g.arr("air")[GE].tolist() == [1, 0, 0]         # ground points used or lost
    ga = [d for d in ger.seen if d.kind == "kb.air.ground_attack_target"]
    assert len(ga) == 1                                   # 4 ground attack points were left
    assert g.arr("air")[AL].tolist() == [0, 0, 6]
    assert air.air_points(g, GE) == 8                     # Air Points never eliminated (12.0)


def test_12_41_quotient_rounded_down_and_only_what_the_enemy_has():
    ger = Scripted({"kb.air.allocate": [(1, 0, 7)]})
    al = Scripted({"kb.air.allocate": [(1, 0, 5)]})
    g = game(german=ger, allied=al)
    position(g)
    air.air_stage(g)
    # Allied 5 interception -> 2, but the German has only 1 observation point to lose;
    # German 7 -> 3, the Allies have 1 observation point
    assert g.arr("air").tolist() == [[0, 0, 5], [0, 0, 7]]
    assert "kb.air.interception" not in ger.kinds() + al.kinds()   # one option each
    assert air.interception_splits(4, 4, 5 // 2) == [(2, 0), (1, 1), (0, 2)]
    assert air.interception_splits(1, 3, 3) == [(1, 2), (0, 3)]


def test_12_31_ground_attacks_as_drumfire_german_first_then_allied():
    g = game()
    position(g)
    y, div = cell(g, "1518"), cell(g, "1510")
    # each side's 2 interception points cut one enemy ground attack point (12.41)
    ger = Scripted({"kb.air.allocate": [(0, 6, 2)], "kb.air.ground_attack_target": [y],
                    "kb.air.ground_attack_points": [5]})
    al = Scripted({"kb.air.allocate": [(0, 4, 2)], "kb.air.ground_attack_target": [div],
                   "kb.air.ground_attack_points": [3],
                   "kb.ground_attack.step_loss": [g.unit(BN[0])]})
    g.policies = {GE: ger, AL: al}
    g.dice.force("air", [1, 1])
    air.air_stage(g)
    # German: 5 points on 6 SP: column 2 (4-5), die 1 -> 5 - morale 4 = 1 step, the Allied
    # player's choice: the battalion. Allied: 3 points on 12 SP: column 2 (2-3), die 1 ->
    # 5 - 4 = 1 step: the division flips.
    assert g.state.unit_status[g.unit(BN[0])] & Status.ELIMINATED
    assert int(g.state.unit_step[g.unit(BDE[0])]) == 0
    assert int(g.state.unit_step[g.unit(GDIV)]) == 1
    ga = [e for e in g.events if e[0] == "ground_attack"]
    assert [(e[2]["cell"], e[2]["points"], e[2]["steps"]) for e in ga] == [(y, 5, 1),
                                                                             (div, 3, 1)]
    tg = [d for d in ger.seen if d.kind == "kb.air.ground_attack_target"][0]
    assert tg.options[0] is None and hexes(g, tg.options) == ["1518", "1520"]  # 12.33, 15.16
    pts = [d for d in ger.seen if d.kind == "kb.air.ground_attack_points"][0]
    assert list(pts.options) == [1, 2, 3, 4, 5]          # 1-6, only the 5 left
    tg = [d for d in al.seen if d.kind == "kb.air.ground_attack_target"][0]
    assert hexes(g, tg.options) == ["1510"]               # the German HQ alone is no target
    pts = [d for d in al.seen if d.kind == "kb.air.ground_attack_points"][0]
    assert list(pts.options) == [1, 2, 3]
    assert g.arr("steps_lost")[:, g.LOSS_CAUSES.index("ground_attack")].tolist() == [1, 1]
    assert [e[2] for e in g.events if e[0] == "die"] == ["air", "air"]


def test_12_31_each_point_once_each_hex_once_per_segment_ruling():
    ger = Scripted({"kb.air.allocate": [(0, 8, 0)], "kb.air.ground_attack_points": [2, 3],
                    "kb.air.ground_attack_target": []})
    al = Scripted({"kb.air.allocate": [(0, 0, 6)], "kb.air.interception": [(0, 3)]})
    g = game(german=ger, allied=al)
    position(g)
    y, z = cell(g, "1518"), cell(g, "1520")
    ger.script["kb.air.ground_attack_target"] = [y, z]
    g.dice.force("air", [6, 6])
    air.air_stage(g)
    # 8 - 3 intercepted = 5: 2 on Y, then Y is not offered again, 3 left for Z
    tg = [d for d in ger.seen if d.kind == "kb.air.ground_attack_target"]
    assert hexes(g, tg[0].options) == ["1518", "1520"]
    assert hexes(g, tg[1].options) == ["1520"]
    pts = [d for d in ger.seen if d.kind == "kb.air.ground_attack_points"]
    assert [list(d.options) for d in pts] == [[1, 2, 3, 4, 5], [1, 2, 3]]
    assert len(tg) == 2                                    # no points left: no third question
    assert g.arr("drumfired")[y] == g.arr("drumfired")[z] == 1


def test_12_32_12_33_15_16_ground_attack_targets():
    g = game()
    position(g)
    ok = air.artillery.barrage_targets(g, GE, hq_only_ok=False)
    assert hexes(g, np.flatnonzero(ok)) == ["1518", "1520"]
    # 1516: Allied HQ alone (12.33); 1514: arrived this turn (15.16); German hexes never
    ok = air.artillery.barrage_targets(g, AL, hq_only_ok=False)
    assert hexes(g, np.flatnonzero(ok)) == ["1510"]


def test_12_22_observation_markers_one_per_enemy_stack_then_spent():
    ger = Scripted({"kb.air.observation": []})
    g = game(german=ger)
    position(g)
    g.arr("air")[GE] = (2, 0, 0)
    ger.script["kb.air.observation"] = [cell(g, "1516"), cell(g, "1518")]
    assert air.deploy_observation(g, GE) == 2
    first, second = ger.seen
    # any enemy stack anywhere, an HQ alone or a fresh reinforcement included; not German
    assert first.options[0] is None
    assert hexes(g, first.options) == ["1514", "1516", "1518", "1520"]
    assert hexes(g, second.options) == ["1514", "1518", "1520"]          # one per stack
    assert hexes(g, np.flatnonzero(g.arr("observed"))) == ["1516", "1518"]
    assert g.arr("air")[GE].tolist() == [0, 0, 0]
    assert air.deploy_observation(g, GE) == 0 and len(ger.seen) == 2     # none left


def test_12_22_markers_may_be_held_back_and_never_exceed_the_stacks():
    ger = Scripted({"kb.air.observation": [None]})
    g = game(german=ger)
    position(g)
    g.arr("air")[GE] = (3, 0, 0)
    assert air.deploy_observation(g, GE) == 0
    assert not g.arr("observed").any() and g.arr("air")[GE, 0] == 0
    al = Scripted({"kb.air.observation": []}, default="last")
    g = game(allied=al)
    kb_put(g, GDIV, "1510")
    g.arr("air")[AL] = (3, 0, 0)
    assert air.deploy_observation(g, AL) == 1             # one German stack, one marker
    assert hexes(g, np.flatnonzero(g.arr("observed"))) == ["1510"]


def test_12_23_12_34_interception_reduces_observation_and_ground_attack():
    ger = Scripted({"kb.air.allocate": [(4, 4, 0)], "kb.air.ground_attack_target": [None]})
    al = Scripted({"kb.air.allocate": [(0, 0, 6)], "kb.air.interception": [(1, 2)]})
    g = game(german=ger, allied=al)
    position(g)
    air.air_stage(g)
    assert g.arr("air")[GE, 0] == 3
    pts = [e for e in g.events if e[0] == "interception"]
    assert pts == [("interception", 3, {"side": AL, "observation": 1, "ground_attack": 2})]
