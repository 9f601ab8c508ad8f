"""Command control and HQ units: standard rules 10.1-10.5 (Brusilov 21.0 is in
test_21_command.py). Tiny hand-built positions, forced dice, scripted policies."""

import numpy as np
import pytest
from gwe_positions import position, unit

from gwe_fast import load_scenario, scenario_from_dicts
from gwe_fast.enums import Side, Terrain
from gwe_fast.games.gwe import combat, command
from gwe_fast.games.gwe.command import NO_HQ
from gwe_fast.games.gwe.data import compile_data
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.policies.base import Policy
from gwe_fast.state import Status


class Script(Policy):
    """Answers every decision with ``answer(decision)`` (default: the first option) and keeps
    the decisions it was asked."""

    def __init__(self, answer=None):
        super().__init__()
        self.answer = answer or (lambda d: 0)
        self.seen = []

    def choose(self, decision, game, rng):
        self.seen.append(decision)
        return self.answer(decision)


def never(decision):
    """Decline: the last option (NO_HQ for allocations, the empty shift set is first)."""
    return len(decision.options) - 1


def gwe(units, allied=None, central=None, terrain_after=None, **kw):
    """A GweGame on a ``position`` map with scripted policies for both sides."""
    sc = position(units, **kw).scenario
    for t, hexes in (terrain_after or {}).items():
        sc.map.set_terrain(hexes, t)
    if terrain_after:
        # a terrain no Brusilov scenario may hold (a lake), set on the loaded map: the tables
        # the loader compiled from the map must be compiled again from the changed one
        object.__setattr__(sc, "core", compile_data(sc))
    return GweGame(sc, policies={0: allied or Script(), 1: central or Script()})


def hexes(g, mask):
    return sorted(g.scenario.map.id_of(int(c)) for c in np.flatnonzero(mask))


def in_radius(g, hq, hexid, nationality=None):
    return bool(command.radius_cells(g, g.unit(hq), nationality)[g.scenario.map.cell(hexid)])


def ooc(g, uid):
    return bool(g.state.unit_status[g.unit(uid)] & Status.OUT_OF_COMMAND)


def far(g, uid):
    return g.flag(g.unit(uid), Flag.OUT_OF_RADIUS)


def status(g):
    """{unit id: (out of command, out of radius)} of the units on the map."""
    return {g.scenario.units.ids[i]: (ooc(g, g.scenario.units.ids[i]),
                                      far(g, g.scenario.units.ids[i]))
            for i in g.on_map()}


COLUMN = {"cols": (1, 1), "rows": (1, 9)}   # one column: the only line is straight down


# --- 10.1 HQ units ------------------------------------------------------------------------

def test_10_11_the_four_ratings_come_from_the_counter():
    g = gwe([unit("hq", "russian", "0404", "hq", attack_shift=2, command_strength=16,
                  command_radius=5, combat=1)])
    assert command.hq_ratings(g, g.unit("hq")) == (2, 16, 5)
    hist = GweGame(load_scenario("brusilov/historical"))
    assert command.hq_ratings(hist, hist.unit("ru-hq-8ka")) == (2, 16, 5)
    assert command.hq_ratings(hist, hist.unit("ge-hq-sa")) == (2, 24, 8)


def test_10_12_heroic_leaders_are_marked_on_the_counter():
    g = gwe([unit("h", "german", "0404", "hq", heroic=True),
             unit("n", "german", "0405", "hq")])
    assert command.is_heroic(g, g.unit("h")) and not command.is_heroic(g, g.unit("n"))
    hist = GweGame(load_scenario("brusilov/historical"))
    hqs = np.flatnonzero(hist.scenario.units.utype == 2)
    assert not any(command.is_heroic(hist, int(h)) for h in hqs)   # none in the Brusilov


# --- 10.3 the command radius --------------------------------------------------------------

def test_10_33_radius_counted_from_the_hq_exclusive_to_the_unit_inclusive():
    g = gwe([unit("hq", "russian", "0404", "hq", command_radius=3)], rows=(1, 9), cols=(1, 9))
    m = g.scenario.map
    r = command.radius_cells(g, g.unit("hq"))
    assert hexes(g, r) == hexes(g, np.isin(np.arange(m.n_cells), m.within("0404", 3)))
    assert in_radius(g, "hq", "0404")                 # a unit stacked with the HQ
    assert in_radius(g, "hq", "0407") and not in_radius(g, "hq", "0408")


def test_10_33_radius_not_through_enemy_units():
    # a German HQ (TCR 1: zones of control do not stop it) down a one-column map
    g = gwe([unit("hq", "german", "0101", "hq"), unit("g", "german", "0103")], **COLUMN)
    assert in_radius(g, "hq", "0103")
    g = gwe([unit("hq", "german", "0101", "hq"), unit("g", "german", "0103"),
             unit("r", "russian", "0102")], **COLUMN)
    assert not in_radius(g, "hq", "0103") and not in_radius(g, "hq", "0102")


def test_10_33_a_hex_holding_only_enemy_hqs_blocks_the_radius():
    g = gwe([unit("hq", "german", "0101", "hq"), unit("g", "german", "0103"),
             unit("rhq", "russian", "0102", "hq")], **COLUMN)
    assert not in_radius(g, "hq", "0103")


def test_10_33_radius_not_across_blocked_hexsides_nor_prohibited_terrain():
    g = gwe([unit("hq", "german", "0101", "hq")], hexsides={"blocked": ["0102-0103"]}, **COLUMN)
    assert in_radius(g, "hq", "0102") and not in_radius(g, "hq", "0103")
    g = gwe([unit("hq", "german", "0101", "hq")], terrain_after={Terrain.LAKE: ["0102"]},
            **COLUMN)
    assert not in_radius(g, "hq", "0102") and not in_radius(g, "hq", "0103")


# Two columns: column 2 sits half a hex lower, so a unit at (2, r) controls (1, r) and
# (1, r + 1). The Russian at 0202 controls 0102 and 0103 (and 0201, 0203).
TWO = {"cols": (1, 2), "rows": (1, 9)}


def test_10_34_tcr_1_hq_traces_through_enemy_zones_of_control():
    g = gwe([unit("hq", "german", "0101", "hq"), unit("g", "german", "0104"),
             unit("r", "russian", "0202")], **TWO)
    assert in_radius(g, "hq", "0104")


def test_10_34_tcr_2_to_4_hq_not_through_enemy_zones_of_control():
    g = gwe([unit("hq", "austro_hungarian", "0101", "hq"), unit("a", "austro_hungarian", "0104"),
             unit("r", "russian", "0202")], **TWO)
    r = command.radius_cells(g, g.unit("hq"))
    assert not in_radius(g, "hq", "0104")
    # an enemy-controlled hex may end the line (a unit standing there negates the zone) but
    # the line goes no further
    assert hexes(g, r) == ["0101", "0102", "0201"]
    g = gwe([unit("hq", "russian", "0101", "hq"), unit("r", "russian", "0104"),
             unit("a", "austro_hungarian", "0202")], **TWO)
    assert not in_radius(g, "hq", "0104")             # Russian HQs are TCR 3


def test_10_34_friendly_units_negate_the_enemy_zone_of_control():
    base = [unit("hq", "austro_hungarian", "0101", "hq"), unit("a", "austro_hungarian", "0104"),
            unit("r", "russian", "0202")]
    g = gwe(base + [unit("f1", "austro_hungarian", "0102")], **TWO)
    assert not in_radius(g, "hq", "0104")             # 0103 is still open enemy zone
    g = gwe(base + [unit("f1", "austro_hungarian", "0102"),
                    unit("f2", "german", "0103", "hq")], **TWO)
    assert in_radius(g, "hq", "0104")                 # any friendly unit, even an HQ


def test_10_35_hqs_command_when_entrained_or_out_of_supply_and_are_always_in_command():
    g = gwe([unit("hq", "russian", "0101", "hq"), unit("r", "russian", "0103"),
             unit("far", "russian", "0109", "hq")], **COLUMN)
    g.state.unit_status[g.unit("hq")] |= Status.ENTRAINED | Status.OUT_OF_SUPPLY
    assert in_radius(g, "hq", "0103")
    g.dice.force("command", [1])
    command.command_segment(g, Side.ALLIED, for_combat=False)
    assert status(g) == {"hq": (False, False), "r": (False, False), "far": (False, False)}
    assert g.dice.stream("command").rolled == 0


# --- 10.31, 10.32 allocation of Command Strength ------------------------------------------

def test_10_31_command_strength_limits_the_stacking_points_in_command():
    pol = Script()
    g = gwe([unit("hq", "russian", "0404", "hq", command_strength=4),
             unit("a", "russian", "0403"), unit("b", "russian", "0405"),
             unit("c", "russian", "0504"), unit("d", "russian", "0304", size="brigade")],
            allied=pol)
    h = g.unit("hq")
    g.dice.force("command", [1, 1])
    command.command_segment(g, Side.ALLIED, for_combat=False)
    asked = [(d.context["unit"], list(d.options)) for d in pol.seen]
    # a and b take the four points; c's and d's only option left was "none", so nothing was
    # asked; they rolled 1 against TCR 3 and stay out
    assert asked == [(g.unit("a"), [h, NO_HQ]), (g.unit("b"), [h, NO_HQ])]
    assert status(g) == {"hq": (False, False), "a": (False, False), "b": (False, False),
                         "c": (True, False), "d": (True, False)}


def test_10_31_zero_point_units_fit_any_hq_and_strength_is_per_hq():
    pol = Script()
    g = gwe([unit("h1", "russian", "0404", "hq", command_strength=2),
             unit("h2", "russian", "0406", "hq", command_strength=2),
             unit("a", "russian", "0405"), unit("b", "russian", "0405"),
             unit("ac", "russian", "0405", "armored_car")], allied=pol)
    command.command_segment(g, Side.ALLIED, for_combat=False)
    h1, h2 = g.unit("h1"), g.unit("h2")
    opts = {g.scenario.units.ids[d.context["unit"]]: list(d.options) for d in pol.seen}
    assert opts == {"a": [h1, h2, NO_HQ],
                    "b": [h2, NO_HQ],                 # h1's two points went to a
                    "ac": [h1, h2, NO_HQ]}            # no points: any HQ may take it
    assert not any(ooc(g, x) for x in ("a", "b", "ac"))


def test_10_32_the_owner_decides_which_units_receive_strength():
    # strength for one division; the owner gives it to the second unit, not the first
    def pick(d):
        return d.options.index(NO_HQ) if d.context["unit"] == 1 else 0
    g = gwe([unit("hq", "russian", "0404", "hq", command_strength=2),
             unit("a", "russian", "0403"), unit("b", "russian", "0405")], allied=Script(pick))
    g.dice.force("command", [2])
    command.command_segment(g, Side.ALLIED, for_combat=False)
    assert ooc(g, "a") and not ooc(g, "b") and not far(g, "a")


def test_10_32_units_in_command_by_die_roll_do_not_count_against_strength():
    # a, unallocated, passes its roll; b still gets the HQ's whole strength
    def pick(d):
        return d.options.index(NO_HQ) if d.context["unit"] == 1 else 0
    pol = Script(pick)
    g = gwe([unit("hq", "russian", "0404", "hq", command_strength=2),
             unit("a", "russian", "0403"), unit("b", "russian", "0405")], allied=pol)
    g.dice.force("command", [4])
    command.command_segment(g, Side.ALLIED, for_combat=False)
    assert not ooc(g, "a") and not ooc(g, "b")
    assert pol.seen[1].context["strength_left"] == {g.unit("hq"): 2}
    assert g.dice.stream("command").rolled == 1


def unlimited_game(units, on):
    sc = scenario_from_dicts(
        scenario={"scenario": {"game": "gwe", "name": "t", "version": 1, "first_turn": 1,
                               "last_turn": 1, "first_player": "allied"},
                  "options": {"unlimited_command": {"case": "10.32", "default": False,
                                                    "help": "unlimited"}}},
        map={"map": {"columns": [1, 7], "rows": [1, 7]}}, counters={"unit": units},
        options={"unlimited_command": on})
    pol = Script()
    return GweGame(sc, policies={0: pol, 1: Script()}), pol


def test_10_32_optional_unlimited_command_strength():
    units = [unit("hq", "russian", "0404", "hq", command_strength=2),
             unit("a", "russian", "0403"), unit("b", "russian", "0405"),
             unit("c", "russian", "0504"), unit("out", "russian", "0701")]
    g, pol = unlimited_game(units, True)
    g.dice.force("command", [1])
    command.command_segment(g, Side.ALLIED, for_combat=False)
    assert pol.seen == []
    assert status(g) == {"hq": (False, False), "a": (False, False), "b": (False, False),
                         "c": (False, False), "out": (True, True)}   # the radius still counts
    g, pol = unlimited_game(units, False)
    g.dice.force("command", [1, 1, 1])
    command.command_segment(g, Side.ALLIED, for_combat=False)
    assert sum(ooc(g, x) for x in ("a", "b", "c")) == 2


def test_10_36_command_is_determined_anew_for_movement_and_for_combat():
    g = gwe([unit("hq", "russian", "0101", "hq"), unit("r", "russian", "0107")], **COLUMN)
    g.state.turn = 2                                  # not the Russian first turn (21.2)
    g.dice.force("command", [6])
    command.command_segment(g, Side.ALLIED, for_combat=False)
    assert not ooc(g, "r") and far(g, "r")            # in command by the roll, out of radius
    command.clear_command(g, Side.ALLIED)
    assert not far(g, "r")
    g.state.unit_cell[g.unit("r")] = g.scenario.map.cell("0103")   # it moved near its HQ
    command.command_segment(g, Side.ALLIED, for_combat=True)
    assert not ooc(g, "r") and not far(g, "r")
    g.state.unit_cell[g.unit("r")] = g.scenario.map.cell("0108")
    command.command_segment(g, Side.ALLIED, for_combat=True)
    assert ooc(g, "r") and far(g, "r")


def test_10_31_command_lasts_until_the_end_of_the_phase():
    g = gwe([unit("hq", "russian", "0101", "hq"), unit("r", "russian", "0103")], **COLUMN)
    command.command_segment(g, Side.ALLIED, for_combat=False)
    g.state.unit_cell[g.unit("r")] = g.scenario.map.cell("0108")   # it moves away
    assert command.out_of_radius(g, Side.ALLIED)[g.unit("r")]
    assert not ooc(g, "r") and not far(g, "r")        # still in command for this phase


# --- 10.4 out of command ------------------------------------------------------------------

@pytest.mark.parametrize("nat,fail,success", [("german", 1, 2), ("russian", 3, 4),
                                              ("austro_hungarian", 4, 5)])
def test_10_41_die_roll_greater_than_tcr(nat, fail, success):
    g = gwe([unit("x", nat, "0404"), unit("y", nat, "0406")])   # no HQ: both out of radius
    g.dice.force("command", [fail, success])
    command.command_segment(g, 1 if nat != "russian" else 0, for_combat=False)
    assert ooc(g, "x") and not ooc(g, "y")
    assert far(g, "x") and far(g, "y")                # the roll does not change the radius


def test_10_42_out_of_radius_units_do_not_roll_in_the_combat_phase():
    g = gwe([unit("x", "russian", "0404")])
    g.state.turn = 2
    g.dice.force("command", [6])
    command.command_segment(g, Side.ALLIED, for_combat=True)
    assert ooc(g, "x") and far(g, "x")
    assert g.dice.stream("command").rolled == 0


def test_10_42_units_in_radius_without_strength_roll_in_the_combat_phase():
    g = gwe([unit("hq", "russian", "0404", "hq", command_strength=2),
             unit("a", "russian", "0403"), unit("b", "russian", "0405")])
    g.state.turn = 2
    g.dice.force("command", [4])
    command.command_segment(g, Side.ALLIED, for_combat=True)
    assert not ooc(g, "a") and not ooc(g, "b")        # b: no strength left, rolled 4 > 3
    g.dice.force("command", [3])
    command.command_segment(g, Side.ALLIED, for_combat=True)
    assert ooc(g, "b") and not far(g, "b")


def test_10_43_command_penalty_for_tcr_3_and_4_units():
    g = gwe([unit("hq", "russian", "0101", "hq"), unit("near", "russian", "0102"),
             unit("r", "russian", "0107"), unit("a", "austro_hungarian", "0706"),
             unit("g", "german", "0707")], rows=(1, 7), cols=(1, 7))
    ids = [g.unit(x) for x in ("near", "r")]
    # non-phasing units: out of radius counts, whatever their marker
    assert list(command.command_penalty(g, ids, phasing=False)) == [False, True]
    # phasing units: only the Out of Command Control marker counts
    g.state.unit_status[g.unit("near")] |= Status.OUT_OF_COMMAND
    assert list(command.command_penalty(g, ids, phasing=True)) == [True, False]
    # TCR 1 never; TCR 4 does
    cp = [g.unit("a"), g.unit("g")]
    assert list(command.command_penalty(g, cp, phasing=False)) == [True, False]


def test_out_of_radius_marks_the_units_beyond_every_friendly_radius():
    g = gwe([unit("hq", "russian", "0101", "hq"), unit("hq2", "russian", "0109", "hq"),
             unit("a", "russian", "0104"), unit("b", "russian", "0105"),
             unit("c", "russian", "0106")], **COLUMN)
    far_ = command.out_of_radius(g, Side.ALLIED)
    assert [g.scenario.units.ids[i] for i in np.flatnonzero(far_)] == ["b"]


def test_10_33_radii_kept_for_a_position_follow_every_change_they_read():
    # the radii of a side are kept per position (command._Radii): a unit that moves or an
    # enemy that enters the line is a new position (so are the HQs' steps, 10.54)
    g = gwe([unit("hq", "russian", "0101", "hq", command_radius=4), unit("a", "russian", "0104"),
             unit("g", "german", "0109")], **COLUMN)
    a = g.unit("a")
    first = command.out_of_radius(g, Side.ALLIED)
    assert not first[a]
    again = command._Radii(g, Side.ALLIED)
    assert again.plain is command._Radii(g, Side.ALLIED).plain      # the same position: kept
    assert not again.plain.flags.writeable
    g.state.unit_cell[a] = g.scenario.map.cell("0106")               # beyond 4 hexes
    assert command.out_of_radius(g, Side.ALLIED)[a]
    g.state.unit_cell[a] = g.scenario.map.cell("0104")
    assert not command.out_of_radius(g, Side.ALLIED)[a]
    g.state.unit_cell[g.unit("g")] = g.scenario.map.cell("0103")     # an enemy in the way
    assert command.out_of_radius(g, Side.ALLIED)[a]


def test_4_0_clear_command_removes_the_markers_of_one_side_only():
    g = gwe([unit("r", "russian", "0404"), unit("a", "austro_hungarian", "0707")])
    g.dice.force("command", [1, 1])
    command.command_segment(g, Side.ALLIED, for_combat=False)
    command.command_segment(g, Side.CENTRAL, for_combat=False)
    command.clear_command(g, Side.ALLIED)
    assert status(g) == {"r": (False, False), "a": (True, True)}


# --- 10.2 attack shifts -------------------------------------------------------------------

def attack_position(extra=(), **kw):
    """Russian attackers at 0403 (division, 2 steps) and 0503 (brigade, 1 step) against an
    A-H unit at 0404; HQs as given."""
    return gwe([unit("a", "russian", "0403"),
                unit("b", "russian", "0503", size="brigade", steps=[[2, 2, 4]]),
                unit("e", "austro_hungarian", "0404"), *extra], **kw)


def test_10_21_half_the_attacking_steps_must_be_within_the_radius():
    # HQ radius 1 at 0402: a (2 steps) inside, b (1 step) outside: 2 of 3 -> eligible
    g = attack_position([unit("hq", "russian", "0402", "hq", command_radius=1)])
    att = [g.unit("a"), g.unit("b")]
    assert command.shift_hqs(g, att, [g.scenario.map.cell("0404")]) == [(g.unit("hq"), 1)]
    # HQ radius 1 at 0603: b inside, a outside: 1 of 3 -> not eligible
    g = attack_position([unit("hq", "russian", "0603", "hq", command_radius=1)])
    att = [g.unit("a"), g.unit("b")]
    assert g.scenario.map.distance("0603", "0403") == 2
    assert command.shift_hqs(g, att, [g.scenario.map.cell("0404")]) == []
    # exactly half: b + a reduced to one step
    g.state.unit_step[g.unit("a")] = 1
    assert command.shift_hqs(g, att, [g.scenario.map.cell("0404")]) == [(g.unit("hq"), 1)]


def test_10_21_hqs_and_depots_do_not_count_among_the_attacking_steps():
    g = attack_position([unit("hq", "russian", "0603", "hq", command_radius=1),
                         unit("d", "russian", "0603", "depot"),
                         unit("h2", "russian", "0602", "hq", attack_shift=0)])
    att = [g.unit("a"), g.unit("b"), g.unit("d"), g.unit("h2")]
    assert command.shift_hqs(g, att, [g.scenario.map.cell("0404")]) == []


def test_10_21_rulebook_example_a_shift_of_2_moves_two_columns():
    # "an HQ unit with an attack Shift of 2 could use it to turn a 2-1 attack into a 4-1"
    g = attack_position([unit("hq", "russian", "0402", "hq", attack_shift=2)],
                        allied=Script(never))
    att = [g.unit("a"), g.unit("b")]
    assert command.choose_shifts(g, Side.ALLIED, att, [g.scenario.map.cell("0404")]) == 2
    tcr3 = g.scenario.tables["crt"]["odds"]["tcr23"]
    assert tcr3[tcr3.index("2-1") + 2] == "4-1"


def test_10_21_each_hq_shifts_one_attack_per_combat_phase():
    g = attack_position([unit("hq", "russian", "0402", "hq")], allied=Script(never))
    att, cells = [g.unit("a"), g.unit("b")], [g.scenario.map.cell("0404")]
    assert command.choose_shifts(g, Side.ALLIED, att, cells) == 1
    assert command.shift_hqs(g, att, cells) == []
    assert command.choose_shifts(g, Side.ALLIED, att, cells) == 0
    command.command_segment(g, Side.ALLIED, for_combat=True)   # the next Combat Phase
    assert command.shift_hqs(g, att, cells) == [(g.unit("hq"), 1)]


def test_10_21_the_attacker_may_keep_the_shift_for_a_later_attack():
    pol = Script(lambda d: 0)          # the empty set is the first option
    g = attack_position([unit("hq", "russian", "0402", "hq")], allied=pol)
    att, cells = [g.unit("a"), g.unit("b")], [g.scenario.map.cell("0404")]
    assert command.choose_shifts(g, Side.ALLIED, att, cells) == 0
    assert list(pol.seen[0].options) == [(), (g.unit("hq"),)]
    assert command.shift_hqs(g, att, cells) == [(g.unit("hq"), 1)]


def test_10_22_one_shift_per_command_level():
    pol = Script(lambda d: len(d.options) - 1)
    g = attack_position([unit("a1", "russian", "0402", "hq"),
                         unit("a2", "russian", "0302", "hq", attack_shift=2),
                         unit("c", "russian", "0502", "hq", size="none", attack_shift=1)],
                        allied=pol)
    att, cells = [g.unit("a"), g.unit("b")], [g.scenario.map.cell("0404")]
    a1, a2, c = g.unit("a1"), g.unit("a2"), g.unit("c")
    assert command.command_level(g, a1) == command.ARMY_LEVEL
    assert command.command_level(g, c) == command.CORPS_LEVEL
    assert command.choose_shifts(g, Side.ALLIED, att, cells) == 3   # a2 (2) + c (1)
    assert list(pol.seen[0].options) == [(), (c,), (a1,), (a1, c), (a2,), (a2, c)]
    assert command.shift_hqs(g, att, cells) == [(a1, 1)]


def test_10_22_command_levels_of_the_brusilov_hqs():
    hist = GweGame(load_scenario("brusilov/historical"))
    u = hist.scenario.units
    levels = {u.ids[h]: command.command_level(hist, int(h))
              for h in np.flatnonzero(u.utype == 2)}
    assert [k for k, v in levels.items() if v == command.CORPS_LEVEL] == ["ge-hq-10"]


def test_10_23_heroic_leaders_add_their_strength_with_two_stacking_points():
    g = gwe([unit("h", "german", "0404", "hq", heroic=True, combat=3),
             unit("n", "german", "0404", "hq", combat=1),
             unit("b", "german", "0404", size="brigade", stacking=1)])
    cell = g.scenario.map.cell("0404")
    h, n = g.unit("h"), g.unit("n")
    assert command.hq_combat_strength(g, h, True, cell) == 0     # one stacking point
    g.place("b", "0505")
    g = gwe([unit("h", "german", "0404", "hq", heroic=True, combat=3),
             unit("n", "german", "0404", "hq", combat=1),
             unit("d", "german", "0404")])
    h, n = g.unit("h"), g.unit("n")
    assert command.hq_combat_strength(g, h, True, cell) == 3
    assert command.hq_combat_strength(g, h, False, cell) == 3
    assert command.hq_combat_strength(g, n, True, cell) == 0     # normal HQs never attack


def test_10_24_heroic_leaders_shift_only_the_combat_they_fight_in():
    g = attack_position([unit("hq", "russian", "0402", "hq", heroic=True, combat=2),
                         unit("x", "russian", "0402")])
    att, cells = [g.unit("a"), g.unit("b")], [g.scenario.map.cell("0404")]
    hq = g.unit("hq")
    assert command.shift_hqs(g, att, cells) == [(hq, 1)]
    g.set_flag(hq, Flag.ATTACKED)                   # it lent its strength to another attack
    assert command.shift_hqs(g, att, cells) == []
    assert command.shift_hqs(g, att + [hq], cells) == [(hq, 1)]   # … or to this one


# --- 10.5 HQs and the enemy ---------------------------------------------------------------

def test_10_51_normal_hqs_defend_with_their_strength_only_with_two_stacking_points():
    g = gwe([unit("n", "russian", "0404", "hq", combat=1),
             unit("b", "russian", "0404", size="brigade", stacking=1)])
    cell = g.scenario.map.cell("0404")
    assert command.hq_combat_strength(g, g.unit("n"), False, cell) == 0
    g = gwe([unit("n", "russian", "0404", "hq", combat=1),
             unit("d", "russian", "0404", "depot")])      # a depot is a combat unit (8.51)
    g.state.unit_status[g.unit("n")] |= Status.OUT_OF_SUPPLY
    assert command.hq_combat_strength(g, g.unit("n"), False, cell) == 1


def test_10_51_attack_shifts_do_not_aid_the_defense_under_the_standard_rules(monkeypatch):
    g = attack_position([unit("ahq", "austro_hungarian", "0405", "hq")])
    assert command.defense_shift_hqs(g, [g.unit("e")]) == [(g.unit("ahq"), 1)]   # 21.1
    monkeypatch.setattr(command, "HQ_DEFENSIVE_SHIFT", False)
    assert command.defense_shift_hqs(g, [g.unit("e")]) == []


def test_10_52_displace_to_the_hex_of_the_nearest_friendly_unit():
    # a Russian unit has entered the hex of a lone German HQ (TCR 1)
    g = gwe([unit("hq", "german", "0101", "hq"), unit("near", "german", "0104"),
             unit("farther", "german", "0107"), unit("e", "russian", "0101")], **COLUMN)
    assert command.displace_hq(g, g.unit("hq"))
    assert g.scenario.map.id_of(int(g.state.unit_cell[g.unit("hq")])) == "0104"


def test_10_52_an_entered_tcr_2_to_4_hq_displaces_only_into_an_adjacent_friendly_hex():
    # the unit that entered controls all six hexes around: a TCR 3 HQ cannot get out …
    g = gwe([unit("hq", "russian", "0101", "hq"), unit("near", "russian", "0103"),
             unit("e", "austro_hungarian", "0101")], **COLUMN)
    assert not command.displace_hq(g, g.unit("hq"))
    assert g.scenario.map.id_of(int(g.state.unit_cell[g.unit("hq")])) == "0101"
    # … except into a neighbouring hex that holds a friendly unit (7.24, as for retreats)
    g = gwe([unit("hq", "russian", "0101", "hq"), unit("near", "russian", "0102"),
             unit("e", "austro_hungarian", "0101")], **COLUMN)
    assert command.displace_hq(g, g.unit("hq"))
    assert g.scenario.map.id_of(int(g.state.unit_cell[g.unit("hq")])) == "0102"


def test_10_52_the_owner_picks_among_equally_near_hexes():
    pol = Script(lambda d: 1)
    g = gwe([unit("hq", "russian", "0404", "hq"), unit("n", "russian", "0402"),
             unit("s", "russian", "0406")], allied=pol)
    assert command.displace_hq(g, g.unit("hq"))
    m = g.scenario.map
    assert sorted(m.id_of(c) for c in pol.seen[0].options) == ["0402", "0406"]
    assert m.id_of(int(g.state.unit_cell[g.unit("hq")])) == m.id_of(pol.seen[0].options[1])


def test_10_52_no_displacement_when_surrounded_by_enemy_units():
    ring = ["0403", "0504", "0505", "0405", "0305", "0304"]
    g = gwe([unit("hq", "russian", "0404", "hq"), unit("f", "russian", "0101")]
            + [unit(f"e{i}", "austro_hungarian", h) for i, h in enumerate(ring)])
    assert not command.displace_hq(g, g.unit("hq"))
    assert g.scenario.map.id_of(int(g.state.unit_cell[g.unit("hq")])) == "0404"


def test_10_52_only_tcr_1_hqs_displace_through_enemy_zones_of_control():
    # the Russian at 0202 controls 0102 and 0103; the friendly unit is at 0105
    for nat, enemy, ok in (("german", "russian", True), ("austro_hungarian", "russian", False),
                           ("russian", "german", False)):
        g = gwe([unit("hq", nat, "0101", "hq"), unit("f", nat, "0105"),
                 unit("e", enemy, "0202")], **TWO)
        assert command.displace_hq(g, g.unit("hq")) is ok, nat
    # a friendly unit in the controlled hex opens the way (7.24, as for retreats)
    g = gwe([unit("hq", "austro_hungarian", "0101", "hq"), unit("f", "austro_hungarian", "0105"),
             unit("f2", "austro_hungarian", "0103", "hq"), unit("f3", "german", "0102", "hq"),
             unit("e", "russian", "0202")], **TWO)
    assert command.displace_hq(g, g.unit("hq"))
    assert g.scenario.map.id_of(int(g.state.unit_cell[g.unit("hq")])) == "0105"


def test_10_52_lone_hqs_displace_when_enemy_units_are_adjacent():
    g = gwe([unit("hq", "austro_hungarian", "0404", "hq"),
             unit("stk", "austro_hungarian", "0406", "hq"), unit("f", "austro_hungarian", "0406"),
             unit("base", "austro_hungarian", "0101"),
             unit("r", "russian", "0604")])
    assert command.displace_lone_hqs(g, Side.ALLIED) == []          # nobody adjacent yet
    g.state.unit_cell[g.unit("r")] = g.scenario.map.cell("0405")    # next to both HQs
    moved = command.displace_lone_hqs(g, Side.ALLIED)
    assert moved == [(g.unit("hq"), True)]           # the one stacked with f never displaces
    # f at 0406 is two hexes away, but both ways pass a hex the Russian controls (0505,
    # 0305): a TCR 4 HQ goes round to the next nearest friendly unit instead
    assert g.scenario.map.id_of(int(g.state.unit_cell[g.unit("hq")])) == "0101"


def test_10_52_an_enemy_hq_alone_next_to_a_lone_hq_forces_nothing():
    g = gwe([unit("hq", "austro_hungarian", "0404", "hq"), unit("f", "austro_hungarian", "0101"),
             unit("rhq", "russian", "0405", "hq")])
    assert command.displace_lone_hqs(g, Side.ALLIED) == []


def test_10_52_a_lone_hq_that_cannot_displace_stays():
    ring = ["0403", "0504", "0505", "0405", "0305", "0304"]
    g = gwe([unit("hq", "russian", "0404", "hq"), unit("f", "russian", "0101")]
            + [unit(f"e{i}", "austro_hungarian", h) for i, h in enumerate(ring)])
    assert command.displace_lone_hqs(g, Side.CENTRAL) == [(g.unit("hq"), False)]
    assert g.state.unit_status[g.unit("hq")] & Status.ON_MAP


def test_10_52_hqs_may_displace_to_a_friendly_fortress():
    g = gwe([unit("hq", "russian", "0101", "hq"), unit("f", "russian", "0107")],
            features={"fortress": ["0103"]}, **COLUMN)
    assert command.displace_hq(g, g.unit("hq"))
    assert g.scenario.map.id_of(int(g.state.unit_cell[g.unit("hq")])) == "0103"


def test_10_53_hqs_defend_only_with_two_stacking_points_of_defending_units():
    g = gwe([unit("n", "russian", "0404", "hq", combat=1), unit("d", "russian", "0404"),
             unit("r", "russian", "0404", size="brigade", stacking=1)])
    cell = g.scenario.map.cell("0404")
    assert command.hq_combat_strength(g, g.unit("n"), False, cell) == 1
    g.set_flag(g.unit("d"), Flag.RETREATED_IN)     # 8.66: it does not defend here
    assert command.hq_combat_strength(g, g.unit("n"), False, cell) == 0


def test_10_53_the_declaration_counts_hqs_as_resolution_does():
    # the declaration sums every hex's defenders at once (combat.hex_defenses, the kernel
    # gwe_hex_defenses): the HQ's strength only with two stacking points that defend
    g = gwe([unit("n", "russian", "0404", "hq", combat=3), unit("d", "russian", "0404"),
             unit("r", "russian", "0404", size="brigade", stacking=1)])
    cell = g.scenario.map.cell("0404")
    vals, no_trench = combat.current_values(g), np.zeros(g.scenario.units.n, dtype=bool)
    hq_part = combat.unit_defense(g, g.unit("n"), cell, no_trench, False, vals)
    d_part = combat.unit_defense(g, g.unit("d"), cell, no_trench, False, vals)
    assert hq_part > 0 and d_part > 0
    with_hq = combat.hex_defenses(g, [cell], 1)
    assert with_hq == [combat.defense_strength(g, [cell], 1)]
    g.set_flag(g.unit("d"), Flag.RETREATED_IN)     # one stacking point defends: no HQ
    assert combat.unit_defense(g, g.unit("n"), cell, no_trench, False, vals) == 0
    alone = combat.hex_defenses(g, [cell], 1)
    assert alone == [combat.defense_strength(g, [cell], 1)] == [with_hq[0] - hq_part - d_part]


def test_10_53_an_hq_without_a_reverse_side_is_eliminated_with_its_stack():
    g = gwe([unit("hq", "german", "0404", "hq"), unit("f", "german", "0101")])
    vp = int(g.state.vp)
    assert not command.eliminate_hq_in_combat(g, g.unit("hq"))
    assert g.state.unit_status[g.unit("hq")] & Status.ELIMINATED
    assert int(g.state.vp) == vp + 1                  # 25.2: +1 per Central Powers HQ


REV = {"steps": [[0, 1, 6], [0, 1, 6]],
       "note": "reverse side (10.54): 1-12-4 shift-strength-radius"}


def test_10_54_army_hqs_flip_to_their_reverse_and_displace_the_enemy_still_scores():
    g = gwe([unit("hq", "russian", "0404", "hq", attack_shift=2, command_strength=16,
                  command_radius=5, **REV), unit("f", "russian", "0101"),
             unit("e", "austro_hungarian", "0405")])
    hq = g.unit("hq")
    assert command.may_displace_instead_of_elimination(g, hq)
    assert command.eliminate_hq_in_combat(g, hq)
    assert int(g.state.unit_step[hq]) == 1 and g.state.unit_status[hq] & Status.ON_MAP
    assert g.scenario.map.id_of(int(g.state.unit_cell[hq])) == "0101"
    assert int(g.state.vp) == -1                       # 25.2: -1 per Russian HQ eliminated
    assert command.hq_ratings(g, hq) == (1, 12, 4)
    # a second elimination is final, and scores again
    assert not command.may_displace_instead_of_elimination(g, hq)
    assert not command.eliminate_hq_in_combat(g, hq)
    assert g.state.unit_status[hq] & Status.ELIMINATED and int(g.state.vp) == -2


def test_10_54_the_owner_may_decline_and_a_trapped_hq_is_eliminated():
    g = gwe([unit("hq", "russian", "0404", "hq", **REV), unit("f", "russian", "0101")],
            allied=Script(lambda d: 1))
    assert not command.eliminate_hq_in_combat(g, g.unit("hq"))
    assert int(g.state.vp) == -1
    ring = ["0403", "0504", "0505", "0405", "0305", "0304"]
    g = gwe([unit("hq", "russian", "0404", "hq", **REV), unit("f", "russian", "0101")]
            + [unit(f"e{i}", "austro_hungarian", h) for i, h in enumerate(ring)])
    assert not command.may_displace_instead_of_elimination(g, g.unit("hq"))
    assert not command.eliminate_hq_in_combat(g, g.unit("hq"))
    assert int(g.state.vp) == -1                       # scored once, not twice


def test_10_54_reverse_ratings_of_the_brusilov_hqs():
    hist = GweGame(load_scenario("brusilov/historical"))
    want = {"ru-hq-8ka": (1, 12, 4), "ru-hq-11sa": (0, 8, 3), "ru-hq-9le": (1, 12, 4),
            "ge-hq-sa": (1, 16, 6), "ge-hq-bh": (1, 13, 6), "ah-hq-7ba": (0, 12, 3)}
    for uid, rev in want.items():
        h = hist.unit(uid)
        hist.state.unit_step[h] = 1
        assert command.hq_ratings(hist, h) == rev, uid
    assert not command.may_displace_instead_of_elimination(hist, hist.unit("ru-hq-8ka"))
    assert int(hist.scenario.units.n_steps[hist.unit("ge-hq-10")]) == 1   # no reverse


def test_10_54_a_flipped_hq_commands_with_its_reduced_radius_and_strength():
    g = gwe([unit("hq", "russian", "0101", "hq", command_radius=5, command_strength=16, **REV),
             unit("r", "russian", "0106")], **COLUMN)
    assert in_radius(g, "hq", "0106")
    g.state.unit_step[g.unit("hq")] = 1
    assert in_radius(g, "hq", "0105") and not in_radius(g, "hq", "0106")
