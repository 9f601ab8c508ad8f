"""Step replacement: standard 13.0, Brusilov 22.0-22.21, the Attack on Schedule tables of
26.24 and armored car repair (24.43). Tiny hand-built positions, forced dice, scripted
policies."""

import pytest
from gwe_positions import position, start_line, unit

from gwe_fast import load_scenario
from gwe_fast.enums import Nationality
from gwe_fast.games.gwe import replacement
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.games.gwe.supply import in_supply
from gwe_fast.policies.base import Policy

RU, GE, AH = Nationality.RUSSIAN, Nationality.GERMAN, Nationality.AUSTRO_HUNGARIAN
CORPS = [[4, 8, 3], [3, 6, 3], [2, 4, 3], [1, 2, 3]]


class Script(Policy):
    """Answers ``gwe.replacement.attempt`` with ``answer(decision)`` (default: yes) and keeps
    the decisions it was asked."""

    def __init__(self, answer=None):
        super().__init__()
        self.answer = answer or (lambda d: True)
        self.seen = []

    def choose(self, decision, game, rng):
        assert decision.kind == "gwe.replacement.attempt"
        self.seen.append(decision)
        return list(decision.options).index(self.answer(decision))


def board(units, allied=None, central=None, turn=3):
    """9x9: Russians above row 5, Central Powers below, a rail line down column 5 from each
    side's map edge, cut at the start line; ``turn`` is the Game-Turn."""
    g = position(units, cols=(1, 9), rows=(1, 9),
                 hexsides={"start_line": start_line(4, (1, 9)),
                           "rail_single": ["0501-0502-0503-0504", "0509-0508-0507-0506-0505"]},
                 edges={"allied": ["0101..0901"], "central": ["0109..0909"]})
    game = GweGame(g.scenario, policies={0: allied or Script(), 1: central or Script()})
    game.state.turn = turn
    return game


def reduced(uid, nat, hexid, lost=1, **kw):
    """A unit that has lost ``lost`` steps."""
    return unit(uid, nat, hexid, **kw) | {"_lost": lost}


def make(units, **kw):
    lost = {u["id"]: u.pop("_lost") for u in units if "_lost" in u}
    g = board(units, **kw)
    for uid, n in lost.items():
        g.state.unit_step[g.unit(uid)] = n
    return g


def step(g, uid):
    return int(g.state.unit_step[g.unit(uid)])


def supplied(g, side=0):
    ok = in_supply(g.scenario, g.state, side)
    return {g.scenario.units.ids[i] for i in range(g.scenario.units.n) if ok[i]}


def test_13_0_division_restored_to_full_strength_on_a_successful_roll():
    for die, after in ((3, 0), (4, 1)):                   # Russians, turns 3-5: 1-3 (22.21)
        g = make([reduced("r", "russian", "0302")])
        assert supplied(g) == {"r"}
        g.dice.force("replacement", [die])
        replacement.replacement_phase(g, 0)
        assert step(g, "r") == after
        assert g.dice.stream("replacement").rolled == 1


def test_13_0_no_enemy_within_distance():
    # 22.0: "not adjacent to any enemy units"; one hex away blocks, two do not
    for enemy_hex, kind, ok in (("0304", "infantry", False), ("0305", "infantry", True),
                                ("0304", "hq", False), ("0304", "depot", False)):
        g = make([reduced("r", "russian", "0303"), unit("x", "austro_hungarian", enemy_hex, kind)])
        assert "r" in supplied(g)
        assert (replacement.eligible(g, 0) == [g.unit("r")]) is ok, (enemy_hex, kind)
    assert replacement.ENEMY_DISTANCE == 1


def test_22_0_only_units_in_supply():
    g = make([reduced("near", "russian", "0302"), reduced("far", "russian", "0101")])
    assert supplied(g) == {"near"}                        # 0101 is 4 hexes from the rail
    assert replacement.eligible(g, 0) == [g.unit("near")]


def test_13_0_not_in_combat_during_the_preceding_game_turn():
    for bit in (Flag.IN_COMBAT_LAST_TURN, Flag.ATTACKED, Flag.DEFENDED):
        g = make([reduced("r", "russian", "0302"), reduced("r2", "russian", "0202")])
        g.set_flag(g.unit("r"), bit)
        assert replacement.eligible(g, 0) == [g.unit("r2")]


def test_13_0_in_combat_flag_covers_one_game_turn_and_is_cleared_by_the_phase():
    g = make([reduced("r", "russian", "0302"), reduced("a", "austro_hungarian", "0307")])
    for uid in ("r", "a"):
        g.set_flag(g.unit(uid), Flag.IN_COMBAT_LAST_TURN)
    replacement.replacement_phase(g, 0)
    assert step(g, "r") == 1 and g.dice.stream("replacement").rolled == 0
    assert not g.flag(g.unit("r"), Flag.IN_COMBAT_LAST_TURN)      # the Russian phase ends
    assert g.flag(g.unit("a"), Flag.IN_COMBAT_LAST_TURN)          # the other side's stays
    g.dice.force("replacement", [1])
    replacement.replacement_phase(g, 0)                           # a Game-Turn later
    assert step(g, "r") == 0


def test_13_0_not_moved_in_the_movement_phase_of_this_game_turn():
    g = make([reduced("r", "russian", "0302"), reduced("r2", "russian", "0202")])
    g.set_flag(g.unit("r"), Flag.MOVED)
    assert replacement.eligible(g, 0) == [g.unit("r2")]


def test_13_0_corps_that_lost_one_or_two_steps_return_to_full_strength():
    g = make([reduced("c1", "russian", "0302", 1, size="corps", steps=CORPS, stacking=4),
              reduced("c2", "russian", "0202", 2, size="corps", steps=CORPS, stacking=4),
              reduced("c3", "russian", "0402", 3, size="corps", steps=CORPS, stacking=4)])
    assert replacement.eligible(g, 0) == [g.unit("c1"), g.unit("c2")]
    g.dice.force("replacement", [1, 2])
    replacement.replacement_phase(g, 0)
    assert (step(g, "c1"), step(g, "c2"), step(g, "c3")) == (0, 0, 3)


def test_13_0_cavalry_depots_and_hqs_are_not_eligible():
    g = make([reduced("cav", "russian", "0302", type="cavalry"),
              reduced("hq", "russian", "0202", type="hq", steps=[[0, 1, 6], [0, 1, 6]]),
              unit("dp", "russian", "0402", "depot"),
              reduced("r", "russian", "0203")])
    assert replacement.eligible(g, 0) == [g.unit("r")]


def test_22_0_any_or_all_units_the_owner_chooses_which_roll():
    g = make([reduced("r1", "russian", "0302"), reduced("r2", "russian", "0202")],
             allied=Script(lambda d: d.context["unit"] != 0))      # not the first unit
    g.dice.force("replacement", [1])
    replacement.replacement_phase(g, 0)
    assert (step(g, "r1"), step(g, "r2")) == (1, 0)
    assert g.dice.stream("replacement").rolled == 1


def test_22_11_austro_hungarian_replacement_table():
    sc = position([unit("a", "austro_hungarian", "0101")]).scenario
    got = {t: replacement.replacement_rolls(sc, AH, t) for t in range(1, 15)}
    assert got == {1: (), 2: (), 3: (1,), 4: (1,), 5: (1, 2), 6: (1, 2), 7: (1, 2),
                   **{t: (1, 2, 3) for t in range(8, 15)}}
    # in play: not allowed on turn 2 (no die, no decision); on turn 3 only a 1 succeeds
    script = Script()
    g = make([reduced("a", "austro_hungarian", "0306")], central=script, turn=2)
    assert "a" in supplied(g, 1)
    replacement.replacement_phase(g, 1)
    assert script.seen == [] and g.dice.stream("replacement").rolled == 0
    for die, after in ((2, 1), (1, 0)):
        g = make([reduced("a", "austro_hungarian", "0306")], turn=3)
        g.dice.force("replacement", [die])
        replacement.replacement_phase(g, 1)
        assert step(g, "a") == after


def test_22_12_german_units_replace_on_1_to_3_throughout():
    sc = position([unit("g", "german", "0101")]).scenario
    assert {replacement.replacement_rolls(sc, GE, t) for t in range(1, 19)} == {(1, 2, 3)}
    g = make([reduced("g", "german", "0306")], turn=1)
    g.dice.force("replacement", [3])
    replacement.replacement_phase(g, 1)
    assert step(g, "g") == 0


def test_22_21_russian_replacement_table():
    sc = position([unit("r", "russian", "0101")]).scenario
    got = {t: replacement.replacement_rolls(sc, RU, t) for t in range(1, 15)}
    assert got == {1: (), 2: (), 3: (1, 2, 3), 4: (1, 2, 3), 5: (1, 2, 3),
                   **{t: (1, 2) for t in range(6, 15)}}
    g = make([reduced("r", "russian", "0302")], turn=6)
    g.dice.force("replacement", [3])
    replacement.replacement_phase(g, 0)
    assert step(g, "r") == 1


def test_26_24_attack_on_schedule_replacement_tables():
    aos = load_scenario("brusilov/attack_on_schedule")
    hist = load_scenario("brusilov/historical")
    assert replacement.is_attack_on_schedule(aos) and not replacement.is_attack_on_schedule(hist)
    ah = {t: replacement.replacement_rolls(aos, AH, t) for t in range(5, 19)}
    assert ah == {5: (), 6: (), 7: (1,), 8: (1,), 9: (1, 2), 10: (1, 2), 11: (1, 2),
                  **{t: (1, 2, 3) for t in range(12, 19)}}
    ru = {t: replacement.replacement_rolls(aos, RU, t) for t in range(5, 19)}
    assert ru == {5: (), 6: (), 7: (1, 2, 3), 8: (1, 2, 3), 9: (1, 2, 3),
                  **{t: (1, 2) for t in range(10, 19)}}
    # 26.24 has no German table: 22.12 holds "throughout the game"
    assert {replacement.replacement_rolls(aos, GE, t) for t in range(5, 19)} == {(1, 2, 3)}
    # the historical game keeps 22.11 and 22.21
    assert replacement.replacement_rolls(hist, AH, 7) == (1, 2)
    assert replacement.replacement_rolls(hist, RU, 7) == (1, 2)


def test_24_43_armored_car_repair_follows_russian_step_replacement():
    for turn, die, moved, repaired in ((3, 3, False, True), (3, 4, False, False),
                                       (6, 3, False, False), (2, 1, False, False),
                                       (3, 1, True, False)):
        g = make([unit("ac", "russian", "0302", "armored_car")], turn=turn)
        ac = g.unit("ac")
        g.set_flag(ac, Flag.BROKEN_DOWN)
        g.set_flag(ac, Flag.MOVED, moved)
        g.dice.force("replacement", [die])
        replacement.replacement_phase(g, 0)
        assert g.flag(ac, Flag.BROKEN_DOWN) is not repaired, (turn, die, moved)
    g = make([unit("ac", "russian", "0302", "armored_car")])
    assert replacement.eligible(g, 0) == []               # nothing to repair


@pytest.mark.parametrize("seed", range(5))
def test_13_0_random_policy_plays_the_phase(seed):
    g = make([reduced("r1", "russian", "0302"), reduced("r2", "russian", "0202"),
              reduced("c", "russian", "0402", 2, size="corps", steps=CORPS, stacking=4)])
    g = GweGame(g.scenario, seed=seed, state=g.state)
    replacement.replacement_phase(g, 0)
    assert all(step(g, u) in (0, 1, 2) for u in ("r1", "r2", "c"))
