"""Brusilov Offensive command control additions (21.1-21.4) on tiny hand-built positions."""

import numpy as np
from gwe_positions import unit
from test_10_command import TWO, Script, far, gwe, in_radius, never, ooc, status

from gwe_fast import load_scenario
from gwe_fast.enums import Nationality, Side
from gwe_fast.games.gwe import command
from gwe_fast.games.gwe.command import NO_HQ
from gwe_fast.games.gwe.game import GweGame
from gwe_fast.state import Status


def defence_position(extra=(), **kw):
    """Russians at 0403 and 0503 attack the A-H division at 0404 (2 steps) and the A-H
    brigade at 0405 (1 step); Central Powers HQs as given."""
    return gwe([unit("a", "russian", "0403"), unit("b", "russian", "0503"),
                unit("e", "austro_hungarian", "0404"),
                unit("f", "austro_hungarian", "0405", size="brigade", steps=[[1, 2, 4]]),
                *extra], **kw)


# --- 21.1 headquarters defensive shift ----------------------------------------------------

def test_21_11_every_hq_may_also_shift_an_enemy_attack():
    g = defence_position([unit("hq", "austro_hungarian", "0406", "hq", attack_shift=1),
                          unit("gh", "german", "0407", "hq", attack_shift=2)],
                         central=Script(never))
    e = [g.unit("e")]
    assert command.defense_shift_hqs(g, e) == [(g.unit("hq"), 1), (g.unit("gh"), 2)]


def test_21_12_the_defensive_shift_moves_the_odds_to_the_left():
    pol = Script(never)
    g = defence_position([unit("gh", "german", "0407", "hq", attack_shift=2)], central=pol)
    assert command.choose_defense_shifts(g, Side.CENTRAL, [g.unit("e")]) == 2
    assert list(pol.seen[0].options) == [(), (g.unit("gh"),)]
    assert pol.seen[0].kind == "gwe.combat.defense_shift"


def test_21_13_same_restrictions_half_the_steps_in_radius():
    # radius 1 at 0506: the brigade f (1 step) is inside, the division e (2 steps) is not
    g = defence_position([unit("hq", "austro_hungarian", "0506", "hq", command_radius=1)])
    m = g.scenario.map
    assert m.distance("0506", "0405") == 1 and m.distance("0506", "0404") == 2
    assert command.defense_shift_hqs(g, [g.unit("e"), g.unit("f")]) == []
    assert command.defense_shift_hqs(g, [g.unit("f")]) == [(g.unit("hq"), 1)]
    g.state.unit_step[g.unit("e")] = 1                 # one step each: exactly half inside
    assert command.defense_shift_hqs(g, [g.unit("e"), g.unit("f")]) == [(g.unit("hq"), 1)]


def test_21_13_a_lone_depot_or_hq_gets_no_defensive_shift():
    g = defence_position([unit("hq", "austro_hungarian", "0406", "hq"),
                          unit("d", "austro_hungarian", "0305", "depot")])
    assert command.defense_shift_hqs(g, [g.unit("d")]) == []
    assert command.defense_shift_hqs(g, [g.unit("hq")]) == []
    assert command.defense_shift_hqs(g, [g.unit("d"), g.unit("e")]) == [(g.unit("hq"), 1)]


def test_21_13_same_restrictions_once_per_combat_phase_and_one_per_command_level():
    pol = Script(never)
    g = defence_position([unit("a1", "austro_hungarian", "0406", "hq"),
                          unit("a2", "german", "0407", "hq", attack_shift=2),
                          unit("c", "german", "0306", "hq", size="none")], central=pol)
    e = [g.unit("e")]
    a1, a2, c = g.unit("a1"), g.unit("a2"), g.unit("c")
    assert command.choose_defense_shifts(g, Side.CENTRAL, e) == 3        # a2 + c
    assert list(pol.seen[0].options) == [(), (c,), (a1,), (a1, c), (a2,), (a2, c)]
    assert command.defense_shift_hqs(g, e) == [(a1, 1)]
    assert command.choose_defense_shifts(g, Side.CENTRAL, e) == 1
    assert command.defense_shift_hqs(g, e) == []
    command.command_segment(g, Side.ALLIED, for_combat=True)   # the next Combat Phase
    assert [h for h, _ in command.defense_shift_hqs(g, e)] == [a1, a2, c]


def test_21_13_a_defensive_shift_does_not_use_up_the_next_own_attack_shift():
    # the German HQ shifts a Russian attack in the Russian Combat Phase …
    g = defence_position([unit("gh", "german", "0407", "hq")], central=Script(never))
    assert command.choose_defense_shifts(g, Side.CENTRAL, [g.unit("e")]) == 1
    assert command.defense_shift_hqs(g, [g.unit("e")]) == []
    # … and may still shift a German attack in the Central Powers Combat Phase that follows
    command.command_segment(g, Side.CENTRAL, for_combat=True)
    assert command.shift_hqs(g, [g.unit("e")], [g.scenario.map.cell("0403")]) == [
        (g.unit("gh"), 1)]


# --- 21.2 Russian first-turn command control ----------------------------------------------

def test_21_21_all_russian_units_in_command_for_the_first_russian_combat_phase():
    units = [unit("hq", "russian", "0101", "hq", command_strength=2),
             unit("a", "russian", "0102"), unit("b", "russian", "0103"),
             unit("far", "russian", "0707"), unit("ah", "austro_hungarian", "0505")]
    pol = Script(never)
    g = gwe(units, allied=pol)
    assert int(g.state.turn) == g.scenario.first_turn == 1
    command.command_segment(g, Side.ALLIED, for_combat=True)
    assert status(g) == {"hq": (False, False), "a": (False, False), "b": (False, False),
                         "far": (False, False), "ah": (False, False)}
    assert pol.seen == [] and g.dice.stream("command").rolled == 0
    # not the Movement Phase of that turn, not the Central Powers, not Game-Turn 2
    g.dice.force("command", [1, 1, 1])
    command.command_segment(g, Side.ALLIED, for_combat=False)
    assert ooc(g, "a") and ooc(g, "b") and ooc(g, "far")
    g.dice.force("command", [1])
    command.command_segment(g, Side.CENTRAL, for_combat=True)
    assert ooc(g, "ah") and far(g, "ah")
    g.state.turn = 2
    command.command_segment(g, Side.ALLIED, for_combat=True)
    assert ooc(g, "far") and far(g, "far")


def test_21_21_attack_on_schedule_applies_it_to_game_turn_five():
    sc = load_scenario("brusilov/attack_on_schedule")
    g = GweGame(sc, seed=3)
    assert sc.first_turn == 5 and int(g.state.turn) == 5
    russians = g.on_map(Side.ALLIED)
    command.command_segment(g, Side.ALLIED, for_combat=True)
    assert not (g.state.unit_status[russians] & Status.OUT_OF_COMMAND).any()
    g.state.turn = 6
    command.command_segment(g, Side.ALLIED, for_combat=True)
    assert command.out_of_radius(g, Side.ALLIED).any()      # some are beyond every radius …
    far_ = command.out_of_radius(g, Side.ALLIED)
    assert (g.state.unit_status[far_] & Status.OUT_OF_COMMAND).all()   # … and now out


# --- 21.3 supply depot command control ----------------------------------------------------

def supply_game(units, **kw):
    """A 9x9 map whose Russian edge is row 1, with a Russian rail line 0501-0504."""
    edges = {"allied": [f"{c:02d}01" for c in range(1, 10)],
             "central": [f"{c:02d}09" for c in range(1, 10)]}
    return gwe(units, cols=(1, 9), rows=(1, 9), edges=edges,
               hexsides={"rail_single": ["0501-0502-0503-0504"]}, **kw)


def test_21_31_a_depot_is_in_command_as_long_as_it_is_in_supply():
    pol = Script()
    g = supply_game([unit("hq", "russian", "0303", "hq", command_strength=2),
                     unit("d", "russian", "0304", "depot"), unit("r", "russian", "0302"),
                     unit("cut", "russian", "0109", "depot")], allied=pol)
    g.state.turn = 2
    m = g.scenario.map
    assert m.distance("0109", "0504") == 7            # beyond the depot's 3 hexes
    g.dice.force("command", [6])
    command.command_segment(g, Side.ALLIED, for_combat=False)
    # the supplied depot needs no HQ and takes none of its strength: r is asked, d is not
    assert [m.id_of(int(g.state.unit_cell[d.context["unit"]])) for d in pol.seen] == ["0302"]
    assert list(pol.seen[0].options) == [g.unit("hq"), NO_HQ]
    assert not ooc(g, "d") and not far(g, "d") and not ooc(g, "r")
    # the unsupplied one is out, within the radius or not, and does not roll (the 6 is left)
    assert ooc(g, "cut") and far(g, "cut")
    assert g.dice.stream("command").rolled == 0
    assert list(np.flatnonzero(command.out_of_radius(g, Side.ALLIED))) == [g.unit("cut")]


def test_21_31_an_unsupplied_depot_next_to_an_hq_is_still_out_of_command():
    g = supply_game([unit("hq", "russian", "0108", "hq"), unit("cut", "russian", "0109", "depot")])
    g.state.turn = 2
    assert in_radius(g, "hq", "0109")
    command.command_segment(g, Side.ALLIED, for_combat=True)
    assert ooc(g, "cut")


# --- 21.4 Central Powers command control --------------------------------------------------

def test_21_41_german_hqs_command_austro_hungarian_units_and_vice_versa():
    g = gwe([unit("gh", "german", "0101", "hq", command_strength=2),
             unit("a", "austro_hungarian", "0102"),
             unit("ah", "austro_hungarian", "0707", "hq", command_strength=2),
             unit("g", "german", "0706")])
    g.dice.force("command", [1, 1])
    command.command_segment(g, Side.CENTRAL, for_combat=False)
    assert not ooc(g, "a") and not ooc(g, "g")


def test_21_41_without_21_4_hqs_command_only_their_own_nationality(monkeypatch):
    monkeypatch.setattr(command, "JOINT_CENTRAL_COMMAND", False)
    g = gwe([unit("gh", "german", "0101", "hq"), unit("a", "austro_hungarian", "0102")])
    g.dice.force("command", [1])
    command.command_segment(g, Side.CENTRAL, for_combat=False)
    assert ooc(g, "a") and far(g, "a")


def test_21_41_austro_hungarian_command_not_through_russian_zoc():
    # the Russian at 0202 controls 0102 and 0103; a German HQ (TCR 1) at 0101
    units = [unit("gh", "german", "0101", "hq", command_radius=4),
             unit("a", "austro_hungarian", "0104"), unit("g", "german", "0105"),
             unit("r", "russian", "0202")]
    g = gwe(units, **TWO)
    ah = int(Nationality.AUSTRO_HUNGARIAN)
    assert in_radius(g, "gh", "0105") and in_radius(g, "gh", "0104")
    assert not in_radius(g, "gh", "0104", ah)
    g.state.turn = 2
    command.command_segment(g, Side.CENTRAL, for_combat=True)
    assert status(g)["g"] == (False, False) and status(g)["a"] == (True, True)
    # unless the controlled hexes are occupied by friendly units
    g = gwe(units + [unit("f1", "austro_hungarian", "0102"), unit("f2", "german", "0103")], **TWO)
    assert in_radius(g, "gh", "0104", ah)


def test_21_41_applies_to_the_attack_shift_too():
    # A-H attackers beyond the Russian zone count as outside the German HQ's radius
    g = gwe([unit("gh", "german", "0101", "hq"), unit("a", "austro_hungarian", "0104"),
             unit("r", "russian", "0202"), unit("t", "russian", "0105")], **TWO)
    assert command.shift_hqs(g, [g.unit("a")], [g.scenario.map.cell("0105")]) == []
    g = gwe([unit("gh", "german", "0101", "hq"), unit("a", "german", "0104"),
             unit("r", "russian", "0202"), unit("t", "russian", "0105")], **TWO)
    assert command.shift_hqs(g, [g.unit("a")], [g.scenario.map.cell("0105")]) == [
        (g.unit("gh"), 1)]
