"""Combat (8.0-8.8) of The Kaiser's Battle, with 10.0's exemption and 17.3-17.4's opening turns.

Positions are built on the real map in open country around 2012 (all clear hexes, no hexside
features; 2011 and 2113 are towns), at 3808 (a redoubt, 3807 wire) and at 1808 (a river on its
SW and NW hexsides, towards 1709 and 1708). Hex neighbours used below (even columns sit half a
hex lower): 2013 touches 2012, 2113, 2114, 2014, 1914, 1913; 2012 touches 2011, 2112, 2113,
2013, 1913, 1912.
"""

from fractions import Fraction

import numpy as np
import pytest
from kb_positions import Scripted, kb_empty_game, kb_put

from gwe_fast.games.kb import combat, units
from gwe_fast.games.kb.game import CLEAR, FOG, LOSS_CAUSES, MIST, Flag
from gwe_fast.policies.base import RandomPolicy
from gwe_fast.state import Status

GE_DIV = "ge-xx-206-3"        # 30-3-4, corps 3, not stosstruppen
GE_STOSS = "ge-xx-88-3"       # 30-4-5, corps 3, stosstruppen
GE_RGT = "ge-iii-15-13-gyl"   # 10-3-3 / 5-3-3, Gruppe Gayl
GE_RGT2 = "ge-iii-60-13-gyl"
BR_BDE = "br-x-59-20-18"      # 10-4-4 / 5-4-4, 18 Corps
BR_BDE2 = "br-x-61-20-18"
BR_BDE3 = "br-x-60-20-18"
BR_COY = "br-i-4sk-58-3"      # 1-3-3 company
BR_BN = "br-ii-5gh-61-18"     # 3-3-4 battalion


def kb(turn=3, weather=CLEAR, german=None, allied=None, seed=0):
    g = kb_empty_game(turn=turn, seed=seed,
                      policies={0: allied or Scripted(default="first"),
                                1: german or Scripted(default="first")})
    g.arr("weather")[0] = weather
    return g


def C(g, *hexes):
    cells = [g.scenario.map.cell(h) for h in hexes]
    return cells[0] if len(cells) == 1 else cells


def H(g, cells):
    return sorted(g.scenario.map.id_of(int(c)) for c in cells)


def combat_events(g):
    return [e[2] for e in g.events if e[0] == "combat"]


def attacks(g):
    return [e[2] for e in g.events if e[0] == "attack"]


def options_of(policy, kind):
    return [list(d.options) for d in policy.seen if d.kind == kind]


def status(g, uid):
    return int(g.state.unit_status[g.unit(uid)])


def steps_lost(g, side, cause):
    return int(g.arr("steps_lost")[side, LOSS_CAUSES.index(cause)])


# --- 8.0 / 8.7 --------------------------------------------------------------------------------

def test_8_7_worked_example():
    # a British brigade (10, MV 4) and company (1, MV 3) in a town attacked by a German
    # division (30): 4 x 30 = 120; (1 + 1 town) x 11 = 22; 120 // 22 = 5 > 4: one step, the
    # company (owner's choice)
    br = Scripted({"kb.combat.loss": lambda d, g: g.unit(BR_COY)})
    g = kb(allied=br)
    assert g.data.town[C(g, "2011")] and g.data.die_mod[C(g, "2011")] == 1
    kb_put(g, GE_DIV, "2012")
    kb_put(g, "ge-hq-3", "2015")
    kb_put(g, BR_BDE, "2011")
    kb_put(g, BR_COY, "2011")
    g.dice.force("combat", [4, 1])
    combat.combat_phase(g, 1)
    (ev,) = combat_events(g)
    assert (ev["att_die"], ev["att_strength"], ev["att_mod"]) == (4, 30, 0)
    assert (ev["def_die"], ev["def_mod"], ev["def_strength"], ev["terrain"]) == (1, 1, 11, 1)
    assert (ev["quotient"], ev["morale"], ev["result"], ev["steps"]) == (5, 4, "successful", 1)
    assert [d.options for d in br.seen if d.kind == "kb.combat.loss"] == [
        [g.unit(BR_BDE), g.unit(BR_COY)]]
    assert status(g, BR_COY) == Status.ELIMINATED
    assert g.state.unit_step[g.unit(BR_BDE)] == 0
    assert g.state.unit_cell[g.unit(BR_BDE)] == C(g, "2011")        # 8.82: stays in place
    assert g.state.unit_cell[g.unit(GE_DIV)] == C(g, "2012")        # no advance
    assert not [e for e in g.events if e[0] == "advance_die"]


def test_8_0_quotient_drops_fractions_and_dice_attacker_first():
    assert combat.quotient(4, 0, 30, 1, 1, 11) == 5
    assert combat.quotient(1, 0, 10, 6, 0, 11) == 0
    assert combat.quotient(2, 7, 3, 3, 2, 5) == 1          # 27 // 25
    g = kb(german=Scripted(default="first"))
    kb_put(g, GE_DIV, "2012")
    kb_put(g, "ge-hq-3", "2015")
    kb_put(g, BR_BDE, "2011")
    g.dice.force("combat", [2, 5])
    combat.combat_phase(g, 1)
    dice = [e for e in g.events if e[0] == "die"]
    assert [(e[3], e[4]) for e in dice] == [("attacker", 2), ("defender", 5)]
    (ev,) = combat_events(g)
    assert ev["quotient"] == (2 * 30) // ((5 + 1) * 10) == 1


def test_8_71_attacker_eliminated_below_1_loses_every_step():
    g = kb()
    kb_put(g, GE_RGT, "2013")
    kb_put(g, "ge-hq-gayl", "2015")
    kb_put(g, BR_BDE, "2012")
    g.dice.force("combat", [1, 2])                # 10 // 20 = 0
    combat.combat_phase(g, 1)
    (ev,) = combat_events(g)
    assert (ev["quotient"], ev["result"]) == (0, "attacker_eliminated")
    assert status(g, GE_RGT) == Status.ELIMINATED
    assert steps_lost(g, 1, "combat") == 2          # both printed steps of the regiment
    assert steps_lost(g, 0, "combat") == 0
    assert g.state.unit_step[g.unit(BR_BDE)] == 0


def test_8_71_a_division_eliminated_loses_its_third_step_too():
    # ruling: "lost all of their steps" includes the replacement step (8.5[1]), but a division
    # removed whole is never "replaced with a regimental replacement unit": no pool unit is
    # used and 20.14 costs nothing (units.eliminate)
    g = kb()
    div = kb_put(g, GE_DIV, "2013")
    hq = kb_put(g, "ge-hq-3", "2015")
    kb_put(g, "br-x-23-8-19", "2012")
    kb_put(g, BR_BDE, "2012")
    kb_put(g, BR_BDE2, "2012")
    pool = len(units.pool_free(g))
    g.dice.force("combat", [1, 6])                # 30 // 180 = 0
    combat.combat_phase(g, 1)
    assert combat_events(g)[0]["result"] == "attacker_eliminated"
    assert g.state.unit_status[div] == Status.ELIMINATED
    assert g.on_map(1).tolist() == [hq]
    assert len(units.pool_free(g)) == pool
    assert steps_lost(g, 1, "combat") == 3
    assert g.arr("vp_cause")[g.VP_CAUSES.index("divisions_replaced")] == 0


def test_8_72_quotient_1_to_morale_is_unsuccessful_above_is_successful():
    assert combat.classify(0, 4) == ("attacker_eliminated", 0)
    assert combat.classify(1, 4) == ("unsuccessful", 0)
    assert combat.classify(4, 4) == ("unsuccessful", 0)
    assert combat.classify(5, 4) == ("successful", 1)
    assert combat.classify(9, 3) == ("successful", 6)


def test_8_74_unsuccessful_stack_loses_a_step_and_retreats_6_33_friends_do_not_negate():
    # the regiment at 2013 attacks the brigade at 2012: 4 x 10 // 1 x 10 = 4 = MV 4. A German
    # regiment in the town 2113 (exempt, 8.13) stays out; 2113 is enemy-controlled, so the
    # retreat may not go there although a friendly unit holds it (6.33)
    ge = Scripted({"kb.combat.join": [False],
                   "kb.combat.retreat": lambda d, g: C(g, "2014")})
    g = kb(german=ge)
    r = kb_put(g, GE_RGT, "2013")
    kb_put(g, GE_RGT2, "2113")
    kb_put(g, "ge-hq-gayl", "2016")
    kb_put(g, BR_BDE, "2012")
    g.dice.force("combat", [4, 1])
    combat.combat_phase(g, 1)
    (ev,) = combat_events(g)
    assert (ev["quotient"], ev["morale"], ev["result"]) == (4, 4, "unsuccessful")
    (opts,) = options_of(ge, "kb.combat.retreat")
    assert H(g, opts) == ["1914", "2014", "2114"]
    assert g.state.unit_step[r] == 1 and g.state.unit_cell[r] == C(g, "2014")
    assert g.flag(r, Flag.ATTACKED)
    assert g.state.unit_cell[g.unit(GE_RGT2)] == C(g, "2113")
    assert g.state.unit_step[g.unit(BR_BDE)] == 0                 # the defender loses nothing
    assert steps_lost(g, 1, "combat") == 1


def test_8_74_8_81_each_attacking_stack_loses_a_step_and_retreats():
    ge = Scripted({"kb.combat.retreat": lambda d, g: min(d.options)})
    g = kb(german=ge)
    a = kb_put(g, GE_RGT, "2013")
    b = kb_put(g, GE_RGT2, "1913")
    kb_put(g, "ge-hq-gayl", "2016")
    kb_put(g, BR_BDE, "2012")
    g.dice.force("combat", [2, 1])                # 2 x 20 // 10 = 4
    combat.combat_phase(g, 1)
    assert combat_events(g)[0]["result"] == "unsuccessful"
    assert [H(g, o) for o in options_of(ge, "kb.combat.retreat")] == [
        ["1812", "1813", "1914"], ["1914", "2014", "2114"]]           # 1913 first (lower cell)
    assert g.state.unit_step[a] == 1 and g.state.unit_step[b] == 1
    assert g.state.unit_cell[a] != C(g, "2013") and g.state.unit_cell[b] != C(g, "1913")


def test_8_74_no_retreat_possible_second_step():
    # 2114 and 2014 are controlled from 2115, 1914 from 1915: the regiment stays and loses a
    # second step, which eliminates it
    g = kb()
    r = kb_put(g, GE_RGT, "2013")
    kb_put(g, "ge-hq-gayl", "2017")
    kb_put(g, BR_BDE, "2012")
    kb_put(g, BR_BN, "2115")
    kb_put(g, BR_COY, "1915")
    g.dice.force("combat", [4, 1])
    combat.combat_phase(g, 1)
    assert combat_events(g)[0]["result"] == "unsuccessful"
    assert g.state.unit_status[r] == Status.ELIMINATED
    assert steps_lost(g, 1, "combat") == 1 and steps_lost(g, 1, "retreat") == 1


def test_8_74_owner_picks_the_unit_losing_the_step_then_the_stack_retreats_together():
    ge = Scripted({"kb.combat.loss": lambda d, g: g.unit(GE_RGT2),
                   "kb.combat.retreat": lambda d, g: C(g, "1914")})
    g = kb(german=ge)
    a = kb_put(g, GE_RGT, "2013")
    b = kb_put(g, GE_RGT2, "2013")
    kb_put(g, "ge-hq-gayl", "2016")
    kb_put(g, BR_BDE, "2012")
    g.dice.force("combat", [2, 1])
    combat.combat_phase(g, 1)
    assert g.state.unit_step[a] == 0 and g.state.unit_step[b] == 1
    assert g.state.unit_cell[a] == g.state.unit_cell[b] == C(g, "1914")


def test_8_75_successful_defender_loses_difference_owner_picks_never_retreats():
    br = Scripted({"kb.combat.loss": [None, None]})
    br.script["kb.combat.loss"] = lambda d, g: g.unit(BR_BDE) if g.unit(BR_BDE) in d.options \
        else d.options[0]
    g = kb(allied=br)
    kb_put(g, GE_DIV, "2013")
    kb_put(g, "ge-hq-3", "2015")
    kb_put(g, BR_BDE, "2012")
    kb_put(g, BR_BN, "2012")
    g.dice.force("combat", [3, 1])                # 90 // 13 = 6 > 4: two steps
    combat.combat_phase(g, 1)
    (ev,) = combat_events(g)
    assert (ev["quotient"], ev["steps"]) == (6, 2)
    assert status(g, BR_BDE) == Status.ELIMINATED
    assert g.state.unit_cell[g.unit(BR_BN)] == C(g, "2012")
    assert steps_lost(g, 0, "combat") == 2
    assert g.state.unit_cell[g.unit(GE_DIV)] == C(g, "2013")


def test_8_5_division_third_step_is_a_replacement_unit_that_defends_on():
    # three British brigades (30) against a German division in 2013: 6 x 30 // 1 x 30 = 6 > 4:
    # two steps: front to back, back to a regimental replacement unit in the hex (8.5[1])
    g = kb()
    div = kb_put(g, "ge-xx-88-3", "2013")
    kb_put(g, BR_BDE, "2012")
    kb_put(g, BR_BDE2, "1913")
    kb_put(g, BR_BDE3, "2113")
    kb_put(g, "br-hq-18", "2010")
    g.dice.force("combat", [6, 1])
    br = Scripted({"kb.combat.target": lambda d, g: (C(g, "2013"),)}, default="first")
    g.policies[0] = br
    combat.combat_phase(g, 0)
    (ev,) = combat_events(g)
    assert (ev["quotient"], ev["morale"], ev["steps"]) == (6, 4, 2)
    assert status(g, "ge-xx-88-3") == Status.ELIMINATED
    (rep,) = g.state.units_at(C(g, "2013"))
    assert g.data.replacement[rep] and g.flag(int(rep), Flag.DEFENDED)
    assert g.arr("corps")[rep] == g.arr("corps")[div]
    assert not [e for e in g.events if e[0] == "advance_die"]


def test_8_6_8_76_stack_morale_is_the_highest_8_61_and_across_hexes_8_62():
    g = kb()
    kb_put(g, GE_DIV, "2013")
    kb_put(g, "ge-hq-3", "2015")
    kb_put(g, BR_COY, "2012")                      # MV 3
    kb_put(g, BR_BN, "2012")                       # MV 3
    kb_put(g, "br-x-23-8-19", "2113")              # MV 5
    att = [g.unit(GE_DIV)]
    assert combat.attack_modifiers(g, att, [C(g, "2012")])[2] == 3
    assert combat.attack_modifiers(g, att, [C(g, "2113")])[2] == 5
    assert combat.attack_modifiers(g, att, C(g, "2012", "2113"))[2] == 5


# --- 8.1 / 8.2: which units attack ------------------------------------------------------------

def _ask_log(script=None):
    return Scripted(script or {}, default="first")


def test_8_11_8_12_8_21_only_options_that_leave_every_obligation_possible():
    # X (2013) touches A (2012) and B (2114); Y (2214) touches only B. X attacking B with Y
    # would leave A unattacked; attacking A and B at once would leave Y nothing (8.25): the
    # legal targets are A alone (X compulsory) and B alone (Y compulsory, X may not join)
    ge = Scripted({"kb.combat.target": lambda d, g: d.options[-1]}, default="first")
    g = kb(german=ge)
    x = kb_put(g, GE_RGT, "2013")
    y = kb_put(g, GE_RGT2, "2214")
    kb_put(g, "ge-hq-gayl", "2016")
    kb_put(g, BR_BDE, "2012")
    kb_put(g, BR_BDE2, "2114")
    g.dice.force("combat", [6, 6, 6, 6])          # both unsuccessful: 60 // 70, 60 // 70 = 0
    combat.combat_phase(g, 1)
    first = options_of(ge, "kb.combat.target")[0]
    assert first == [(C(g, "2012"),), (C(g, "2114"),)]           # no "done", no (A, B)
    assert [(a["attackers"], a["defenders"]) for a in attacks(g)] == [
        ((y,), (C(g, "2114"),)), ((x,), (C(g, "2012"),))]
    assert not options_of(ge, "kb.combat.join")                    # X was never free to join


def test_8_21_a_unit_next_to_two_stacks_may_take_both_at_once():
    # X alone touches A and B: A, B or both (8.25); whichever it picks, the other is left
    # to nobody, so only (A, B) is legal
    ge = _ask_log()
    g = kb(german=ge)
    x = kb_put(g, GE_DIV, "2013")
    kb_put(g, "ge-hq-3", "2016")
    kb_put(g, BR_COY, "2012")
    kb_put(g, BR_BN, "2114")
    g.dice.force("combat", [6, 1, 1])
    combat.combat_phase(g, 1)
    assert [(a["attackers"], a["defenders"]) for a in attacks(g)] == [
        ((x,), tuple(sorted(C(g, "2012", "2114"))))]
    assert not options_of(ge, "kb.combat.target")                # the only legal attack


def test_8_21_8_13_attacking_one_stack_leaves_the_other_to_the_town_unit():
    # X (2013, open) touches A (2012) and B (2114); T (town 2113) touches both and need not
    # attack (8.13). If X attacks A alone, B must still be attacked (8.11, 8.21): T must do it
    ge = Scripted({"kb.combat.target": lambda d, g: d.options[0]}, default="first")
    g = kb(german=ge)
    x = kb_put(g, GE_RGT, "2013")
    t = kb_put(g, GE_RGT2, "2113")
    kb_put(g, "ge-hq-gayl", "2016")
    kb_put(g, BR_BDE, "2012")
    kb_put(g, BR_BN, "2114")
    a, b = C(g, "2012", "2114")
    # X vs A: 60 // 10 = 6 > 4, A eliminated, advance die 1 (no MP); T vs B: 10 // 18 = 0
    g.dice.force("combat", [6, 1, 1, 1, 6])
    combat.combat_phase(g, 1)
    assert options_of(ge, "kb.combat.target") == [[(a,), (b,), (a, b)]]     # no "done"
    # X may join the attack on A; T may not (B would be left to nobody)
    assert [(d.context["unit"], list(d.options)) for d in ge.seen
            if d.kind == "kb.combat.join"] == [(x, [True, False])]
    assert [(e["attackers"], e["defenders"]) for e in attacks(g)] == [
        ((x,), (a,)), ((t,), (b,))]


def test_8_13_town_units_need_not_attack_but_may():
    ge = Scripted({"kb.combat.target": ["done"]})
    g = kb(german=ge)
    kb_put(g, GE_RGT, "2113")                      # town, next to 2012 and 2114
    kb_put(g, "ge-hq-gayl", "2016")
    kb_put(g, BR_BDE, "2012")
    kb_put(g, BR_BN, "2114")
    combat.combat_phase(g, 1)
    (opts,) = options_of(ge, "kb.combat.target")
    a, b = C(g, "2012", "2114")
    assert opts == [(a,), (b,), tuple(sorted((a, b))), "done"]
    assert not attacks(g)


def test_8_13_enemy_next_to_a_town_must_still_attack_it():
    # the British brigade at 2012 (clear) must attack the German regiment in the town 2113
    br = Scripted(default="first")
    g = kb(allied=br)
    kb_put(g, GE_RGT, "2113")
    kb_put(g, BR_BDE, "2012")
    kb_put(g, "br-hq-18", "2010")
    g.dice.force("combat", [1, 6])
    combat.combat_phase(g, 0)
    assert [a["defenders"] for a in attacks(g)] == [(C(g, "2113"),)]


def test_8_13_10_0_trench_units_exempt_and_both_in_trench_or_town_nobody_must():
    # British in the redoubt 3808 next to Germans at 3708: in the Allied phase nobody must
    # attack; in the German phase the Germans in the open must
    br = Scripted({"kb.combat.target": ["done"]})
    g = kb(allied=br)
    assert g.data.trench[C(g, "3808")] and g.data.die_mod[C(g, "3808")] == 2
    kb_put(g, BR_BDE, "3808")
    kb_put(g, "br-hq-18", "3812")
    kb_put(g, GE_RGT, "3708")
    combat.combat_phase(g, 0)
    assert options_of(br, "kb.combat.target") == [[(C(g, "3708"),), "done"]]
    assert not attacks(g)
    ge = Scripted(default="first")
    g.policies[1] = ge
    g.dice.force("combat", [6, 1])
    kb_put(g, "ge-hq-gayl", "3710")
    combat.combat_phase(g, 1)
    assert [a["defenders"] for a in attacks(g)] == [(C(g, "3808"),)]
    assert combat_events(g)[0]["terrain"] == 2                       # redoubt +2 (5.32)


def test_8_13_trench_against_trench_no_obligation():
    # wire 3807 (a trench hex with no die modification) against the redoubt 3808
    ge = Scripted({"kb.combat.target": ["done"]})
    g = kb(german=ge)
    assert g.data.trench[C(g, "3807")] and g.data.die_mod[C(g, "3807")] == 0
    kb_put(g, BR_BDE, "3808")
    kb_put(g, GE_RGT, "3807")
    kb_put(g, "ge-hq-gayl", "3604")
    combat.combat_phase(g, 1)
    assert options_of(ge, "kb.combat.target") == [[(C(g, "3808"),), "done"]]


def test_8_14_no_unit_attacks_twice_no_stack_is_attacked_twice():
    # the brigade at 2012 survives the first attack; the unit at 2113 (town, optional) may not
    # attack it again, and the attackers may not attack anything else
    ge = Scripted({"kb.combat.join": [False]}, default="first")
    g = kb(german=ge)
    kb_put(g, GE_RGT, "2013")
    t = kb_put(g, GE_RGT2, "2113")
    kb_put(g, "ge-hq-gayl", "2016")
    kb_put(g, BR_BDE, "2012")
    g.dice.force("combat", [5, 1])               # 50 // 10 = 5 > 4: one step, it survives
    combat.combat_phase(g, 1)
    assert len(attacks(g)) == 1
    assert g.state.unit_step[g.unit(BR_BDE)] == 1
    assert not g.flag(t, Flag.ATTACKED)
    assert [d.kind for d in ge.seen] == ["kb.combat.join"]        # then nothing left to attack


def test_8_22_8_25_only_units_next_to_every_defending_hex_may_join():
    # target (2012, 2114) from 2013; the unit in the town 2113 touches both and may join; the
    # one in the town 2011 touches 2012 only and may not (both are exempt, 8.13)
    ge = Scripted({"kb.combat.target": lambda d, g: tuple(sorted(C(g, "2012", "2114"))),
                   "kb.combat.join": [True]}, default="first")
    g = kb(german=ge)
    x = kb_put(g, GE_DIV, "2013")
    t = kb_put(g, GE_RGT2, "2113")
    w = kb_put(g, GE_RGT, "2011")
    kb_put(g, "ge-hq-3", "2016")
    kb_put(g, "ge-hq-gayl", "1916")
    kb_put(g, BR_COY, "2012")
    kb_put(g, BR_BN, "2114")
    g.dice.force("combat", [6, 1, 1])
    combat.combat_phase(g, 1)
    joins = [d.context["unit"] for d in ge.seen if d.kind == "kb.combat.join"]
    assert joins == [t]
    first = attacks(g)[0]
    assert first["attackers"] == tuple(sorted((x, t)))
    assert combat_events(g)[0]["att_strength"] == 40
    assert w not in first["attackers"]


def test_8_23_every_unit_in_a_defending_hex_defends():
    g = kb(german=Scripted(default="first"))
    kb_put(g, GE_DIV, "2013")
    kb_put(g, "ge-hq-3", "2015")
    for uid in (BR_BDE, BR_BN, BR_COY):
        kb_put(g, uid, "2012")
    g.dice.force("combat", [1, 1])
    g.policies[0] = Scripted(default="first")
    combat.combat_phase(g, 1)
    assert combat_events(g)[0]["def_strength"] == 14
    for uid in (BR_BDE, BR_BN, BR_COY):
        assert g.flag(g.unit(uid), Flag.DEFENDED)


def test_8_24_units_of_one_hex_may_attack_different_hexes():
    ge = Scripted({"kb.combat.target": lambda d, g: d.options[0],
                   "kb.combat.join": lambda d, g: d.context["unit"] == g.unit(GE_RGT)},
                  default="first")
    g = kb(german=ge)
    a = kb_put(g, GE_RGT, "2013")
    b = kb_put(g, GE_RGT2, "2013")
    kb_put(g, "ge-hq-gayl", "2016")
    kb_put(g, BR_COY, "2012")
    kb_put(g, "br-i-478-18", "2114")
    g.dice.force("combat", [6, 1, 1, 6, 1, 1])
    combat.combat_phase(g, 1)
    assert [a_["attackers"] for a_ in attacks(g)] == [(a,), (b,)]


def test_8_26_multi_hex_defender_takes_the_most_favourable_terrain():
    g = kb()
    kb_put(g, GE_DIV, "2013")
    kb_put(g, "ge-hq-3", "2015")
    kb_put(g, BR_COY, "2012")                      # clear
    kb_put(g, BR_BN, "2113")                       # town +1
    att = [g.unit(GE_DIV)]
    _, d1, _, det1 = combat.attack_modifiers(g, att, [C(g, "2012")])
    _, d2, _, det2 = combat.attack_modifiers(g, att, C(g, "2012", "2113"))
    assert (det1["terrain"], d1) == (0, 0)
    assert (det2["terrain"], d2) == (1, 1)


def test_5_32_river_plus_1_only_when_attacked_solely_across_it():
    # 1808 has a river towards 1708 and 1709; 1908 attacks without crossing it
    g = kb()
    kb_put(g, BR_BDE, "1808")
    a = kb_put(g, GE_RGT, "1708")
    b = kb_put(g, GE_RGT2, "1709")
    c = kb_put(g, "ge-iii-82-13-gyl", "1908")
    kb_put(g, "ge-hq-gayl", "1711")
    d = [C(g, "1808")]
    assert combat.terrain_modifier(g, [a, b], d) == (0, 1)
    assert combat.attack_modifiers(g, [a, b], d)[1] == 1
    assert combat.terrain_modifier(g, [a], d) == (0, 1)
    assert combat.terrain_modifier(g, [a, c], d) == (0, 0)
    assert combat.attack_modifiers(g, [a, b, c], d)[1] == 0


def test_8_3_fog_adds_1_to_the_attacker_17_4():
    g = kb(turn=1, weather=FOG)
    kb_put(g, GE_DIV, "2013")
    kb_put(g, BR_BDE, "2012")
    g.arr("arty")[1] = (50, 30)                    # no rolling barrage in fog (17.4)
    g.arr("arty")[0] = (8, 6)
    g.dice.force("combat", [3, 3])
    g.policies[0] = Scripted(default="first")
    combat.combat_phase(g, 1)
    (ev,) = combat_events(g)
    assert (ev["fog"], ev["att_mod"], ev["rolling"], ev["sos"]) == (1, 1, 0, 0)
    assert ev["quotient"] == (3 + 1) * 30 // (3 * 10)
    assert g.arr("arty_spent").sum() == 0
    for w in (CLEAR, MIST):
        g.arr("weather")[0] = w
        assert combat.attack_modifiers(g, [g.unit(GE_DIV)], [C(g, "2012")])[0] == 0


def test_8_4_modifiers_are_cumulative_and_match_the_resolution():
    # isolated attackers (+3), two corps (+1), a town (+1), SOS 3 points (+1): +6
    br = Scripted({"kb.combat.sos": [(2, 1)]}, default="first")
    ge = Scripted({"kb.combat.rolling": [(0, 2)]}, default="first")
    g = kb(german=ge, allied=br)
    a = kb_put(g, GE_DIV, "2012")
    b = kb_put(g, "ge-xx-50-9", "1912")
    kb_put(g, BR_BDE, "2011")
    kb_put(g, "br-hq-18", "2008")
    g.arr("arty")[0] = (8, 6)
    g.arr("arty")[1] = (35, 30)
    att_mod, def_mod, morale, det = combat.attack_modifiers(g, [a, b], [C(g, "2011")],
                                                            rolling=2, sos=[3])
    assert (det["supply_mod"], det["corps"], det["terrain"], det["sos"]) == (3, 1, 1, 1)
    assert (att_mod, def_mod, morale) == (2, 6, 4)
    g.dice.force("combat", [2, 2])
    combat.combat_phase(g, 1)
    (ev,) = combat_events(g)
    assert (ev["att_mod"], ev["def_mod"]) == (2, 6)
    assert ev["quotient"] == (2 + 2) * 60 // ((2 + 6) * 10)


# --- odds_outcome -----------------------------------------------------------------------------

@pytest.mark.parametrize("args", [(30, 0, 11, 1, 4), (10, 3, 14, 6, 3), (3, 1, 30, 0, 5),
                                  (60, 2, 5, 2, 3), (1, 0, 1, 0, 1), (45, 7, 20, 4, 4)])
def test_8_7_odds_outcome_matches_a_brute_force_count(args):
    a_str, a_mod, d_str, d_mod, mv = args
    elim = unsucc = 0
    succ = {}
    for a in range(1, 7):
        for d in range(1, 7):
            q = ((a + a_mod) * a_str) // ((d + d_mod) * d_str)
            if q < 1:
                elim += 1
            elif q <= mv:
                unsucc += 1
            else:
                succ[q - mv] = succ.get(q - mv, 0) + 1
    out = combat.odds_outcome(*args)
    assert out["attacker_eliminated"] == Fraction(elim, 36)
    assert out["unsuccessful"] == Fraction(unsucc, 36)
    assert out["success"] == {k: Fraction(v, 36) for k, v in succ.items()}
    assert out["attacker_eliminated"] + out["unsuccessful"] + sum(out["success"].values()) == 1


@pytest.mark.parametrize("seed", range(20))
def test_8_7_odds_counts_are_quotient_and_classify_over_the_36_pairs(seed):
    # odds_counts writes out the arithmetic of quotient and classify: the same counts, on
    # random strengths, modifiers (negative ones too) and Morale Values
    rng = np.random.default_rng(seed)
    for _ in range(50):
        args = (int(rng.integers(0, 120)), int(rng.integers(-2, 9)), int(rng.integers(1, 60)),
                int(rng.integers(0, 9)), int(rng.integers(0, 7)))
        a_str, a_mod, d_str, d_mod, mv = args
        counts = {combat.ATTACKER_ELIMINATED: 0, combat.UNSUCCESSFUL: 0}
        succ = {}
        for a in range(1, 7):
            for d in range(1, 7):
                kind, k = combat.classify(combat.quotient(a, a_mod, a_str, d, d_mod, d_str), mv)
                if kind == combat.SUCCESSFUL:
                    succ[k] = succ.get(k, 0) + 1
                else:
                    counts[kind] += 1
        elim, fail, success = combat.odds_counts(*args)
        assert (elim, fail) == (counts[combat.ATTACKER_ELIMINATED], counts[combat.UNSUCCESSFUL])
        assert success == succ and list(success) == sorted(succ)
    with pytest.raises(ValueError, match="no strength"):
        combat.odds_counts(10, 0, 5, -1, 3)                 # die 1 - 1: a product of 0


# --- 8.8 advances -----------------------------------------------------------------------------

def _advance_game(uid, turn=3, die=4, gas=None, extra=()):
    """``uid`` at 2014 destroys a British company at 2013; a British brigade at 2011 controls
    2010, 2111, 2112, 2012, 1912, 1911. Returns the game and the advance options offered."""
    ge = Scripted({"kb.combat.advance": lambda d, g: d.options[0]})
    g = kb(turn=turn, weather=CLEAR if turn > 2 else FOG, german=ge)
    u = kb_put(g, uid, "2014")
    kb_put(g, "ge-hq-3", "2017")
    kb_put(g, BR_COY, "2013")
    kb_put(g, BR_BDE, "2011")
    for x, h in extra:
        kb_put(g, x, h)
    if gas:
        g.arr("gas")[0] = C(g, gas)
    g.dice.force("combat", [6, 1, die])
    combat.combat_phase(g, 1)
    assert status(g, BR_COY) == Status.ELIMINATED
    opts = options_of(ge, "kb.combat.advance")
    return g, u, (opts[0] if opts else [int(g.state.unit_cell[u])])


def test_8_83_8_86_advance_points_by_kind_and_17_3_on_game_turns_1_and_2():
    g = kb()
    st, div = g.unit(GE_STOSS), g.unit(GE_DIV)
    br = g.unit(BR_BDE)
    units.lose_steps(g, kb_put(g, "ge-xx-5-3", "3010"), 2, "other")       # stoss division
    (rep,) = g.state.units_at(C(g, "3010"))
    for die, want3, want1 in ((5, (5, 2, 2, 2), (10, 5, 5, 2)), (1, (1, 0, 0, 0), (2, 1, 1, 0)),
                              (6, (6, 3, 3, 3), (12, 6, 6, 3))):
        g.state.turn = 3
        assert tuple(combat.advance_points(g, u, die) for u in (st, div, rep, br)) == want3
        for turn in (1, 2):
            g.state.turn = turn
            assert tuple(combat.advance_points(g, u, die) for u in (st, div, rep, br)) == want1


def test_8_83_13_24_replacement_from_a_stoss_division_is_not_stoss():
    g = kb()
    units.lose_steps(g, kb_put(g, "ge-xx-5-3", "3010"), 2, "other")
    (rep,) = g.state.units_at(C(g, "3010"))
    assert g.data.replacement[rep] and not combat.is_stoss(g, int(rep))
    assert combat.is_stoss(g, g.unit(GE_STOSS)) and not combat.is_stoss(g, g.unit(GE_DIV))


def test_8_84_non_stoss_halts_on_entering_an_enemy_zone_first_hex_the_vacated_one():
    # die 4, turn 3: the non-stoss division has 2 MP: 2013 (1), then one more hex; 2012 is
    # controlled from 2011
    g, u, opts = _advance_game(GE_DIV, die=4)
    assert opts[0] == C(g, "2014")                                  # staying is first
    assert H(g, opts[1:]) == ["1913", "1914", "2012", "2013", "2113", "2114"]
    routes = combat.advance_routes(g, u, 2, [C(g, "2013")])
    assert all(p[0] == C(g, "2013") for p in routes.values())


def test_8_84_stosstruppen_ignore_zones_of_control():
    # stoss, turn 1-2 x2 = 4 MP... on turn 3, die 4 = 4 MP: 2013, 2012, 1912, 1911 reachable
    g, u, opts = _advance_game(GE_STOSS, die=4)
    assert C(g, "1911") in opts
    assert C(g, "2011") not in opts                                  # enemy-occupied
    path = combat.advance_routes(g, u, 4, [C(g, "2013")])[C(g, "1911")]
    assert len(path) == 4 and path[0] == C(g, "2013") and path[-1] == C(g, "1911")
    # a non-stoss unit with as many Movement Points cannot get there (17.3: turn 1, die 4)
    g, u, opts = _advance_game(GE_DIV, turn=1, die=4)
    assert combat.advance_points(g, u, 4) == 4
    assert C(g, "1911") not in opts and C(g, "2012") in opts


def test_8_84_not_enough_points_for_the_first_hex_no_advance():
    # an Allied advance into woods (0823, 2 MP): die 3 gives 1 MP; die 4 gives 2 MP
    for die, want in ((3, []), (4, ["0823"])):
        br = Scripted({"kb.combat.advance": lambda d, g: d.options[-1]})
        g = kb(allied=br)
        kb_put(g, BR_BDE, "0822")
        kb_put(g, "br-hq-18", "0820")
        kb_put(g, GE_RGT, "0823")
        g.dice.force("combat", [6, 1, die])
        combat.combat_phase(g, 0)
        (opts,) = options_of(br, "kb.combat.advance") or [[C(g, "0822")]]
        assert H(g, opts[1:]) == want
        assert g.state.unit_cell[g.unit(BR_BDE)] == C(g, "0822" if not want else "0823")


def test_8_84_9_34_gas_doubles_advance_costs():
    # the stoss division with 2 MP (die 2): 2013 costs 2 under gas, so it stops there
    g, _u, opts = _advance_game(GE_STOSS, die=2, gas="2013")
    assert H(g, opts[1:]) == ["2013"]
    g, _u, opts = _advance_game(GE_STOSS, die=2)
    assert len(opts) > 2


def test_8_85_victors_may_stay_and_8_87_advanced_next_to_enemy_fight_no_more():
    g, u, _opts = _advance_game(GE_DIV, die=4)
    assert g.state.unit_cell[u] == C(g, "2014") and not g.flag(u, Flag.ADVANCED)
    ge = Scripted({"kb.combat.advance": lambda d, g: C(g, "2012")})
    g = kb(german=ge)
    u = kb_put(g, GE_DIV, "2014")
    kb_put(g, "ge-hq-3", "2017")
    kb_put(g, BR_COY, "2013")
    kb_put(g, BR_BDE, "2011")
    g.dice.force("combat", [6, 1, 4])
    combat.combat_phase(g, 1)
    assert g.state.unit_cell[u] == C(g, "2012")
    assert g.flag(u, Flag.ADVANCED) and g.flag(u, Flag.ATTACKED)
    assert len(attacks(g)) == 1                  # the brigade at 2011 is not attacked again
    assert g.state.hex_last[C(g, "2013")] == 1   # passed through (20.11)


def test_8_83_advance_only_when_every_defender_is_gone():
    g = kb()
    kb_put(g, GE_DIV, "2014")
    kb_put(g, "ge-hq-3", "2017")
    kb_put(g, BR_COY, "2013")
    kb_put(g, "br-i-478-18", "2114")
    ge = Scripted({"kb.combat.target": lambda d, g: tuple(sorted(C(g, "2013", "2114")))},
                  default="first")
    g.policies[1] = ge
    g.policies[0] = Scripted(default="first")
    g.dice.force("combat", [6, 1, 5])           # 180 // 2: both companies gone; advance 5
    combat.combat_phase(g, 1)
    (opts,) = options_of(ge, "kb.combat.advance")
    assert C(g, "2013") in opts and C(g, "2114") in opts      # either vacated hex first


# --- the whole phase under random policies ----------------------------------------------------

def _melee(seed):
    """A dense random position in the open country and towns between columns 18 and 27, rows
    9 to 17: German and British units (stacks too) in disjoint hexes, HQs among them."""
    rng = np.random.default_rng(seed)
    turn, weather = ((1, FOG), (3, CLEAR), (4, MIST))[seed % 3]
    g = kb_empty_game(turn=turn, seed=seed, policies={0: RandomPolicy(), 1: RandomPolicy()})
    g.arr("weather")[0] = weather
    g.arr("arty")[:] = [[8, 6], [35, 30]]
    hexes = [f"{c:02d}{r:02d}" for c in range(18, 28) for r in range(9, 18)]
    rng.shuffle(hexes)
    ge_hexes, br_hexes = hexes[:16], hexes[16:36]
    ids = g.scenario.units.ids
    german = [ids[i] for i in range(36)]
    british = [ids[i] for i in range(75, 160)]
    for pool, where, n in ((german, ge_hexes, 18), (british, br_hexes, 26)):
        for uid in rng.choice(pool, size=n, replace=False):
            kb_put(g, str(uid), str(rng.choice(where)))
    return g


@pytest.mark.parametrize("seed", range(24))
def test_8_11_8_12_8_14_random_policies_always_meet_every_obligation(seed, monkeypatch):
    """Whatever a random policy picks, every obligated unit attacks once, every obligated
    stack is attacked once, all attackers touch all defenders (8.25), no choice is ever
    rejected; both sides in turn, on dense random positions."""
    g = _melee(seed)
    declared = []
    real = combat.resolve_attack

    def spy(game, side, attackers, cells):
        nb = game.scenario.map.neighbors
        for u in attackers:
            assert set(cells) <= {int(v) for v in nb[int(game.state.unit_cell[u])]}
        declared.append((tuple(attackers), tuple(cells)))
        return real(game, side, attackers, cells)

    monkeypatch.setattr(combat, "resolve_attack", spy)
    total = 0
    for side in (1, 0):
        declared.clear()
        ob = combat.obligations(g, side)
        combat.combat_phase(g, side)
        att = [u for a, _ in declared for u in a]
        dfd = [c for _, cells in declared for c in cells]
        assert len(att) == len(set(att)) and len(dfd) == len(set(dfd))
        assert set(ob.units) <= set(att)
        assert set(ob.stacks) <= set(dfd)
        total += len(ob.units)
    assert g.rejections == 0
    assert total > 0
