"""Artillery (9.0-9.4, 9.8, 17.2): points and tracks, range, counter-battery fire, persistent
gas, drumfire barrage. Rolling and SOS barrages (9.5, 9.6) are tested with combat."""

import numpy as np
import pytest

from kb_positions import Scripted, SecretSpy, kb_empty_game, kb_put
from gwe_fast.enums import Side, Terrain
from gwe_fast.games.kb import artillery, movement
from gwe_fast.games.kb.artillery import (
    after_counter_battery, barrage_choices, barrage_targets, counter_battery_result,
    drumfire_column, drumfire_result, field_in_range,
)
from gwe_fast.games.kb.game import FOG, MISSIONS, Flag
from gwe_fast.state import Status

AL, GE = int(Side.ALLIED), int(Side.CENTRAL)
GHQ, GDIV, GDIV2 = "ge-hq-3", "ge-xx-88-3", "ge-xx-113-3"
AHQ, AHQ2 = "br-hq-18", "br-hq-3"
BN = ["br-ii-5gh-61-18", "br-ii-4ob-61-18", "br-ii-4bk-61-18", "br-ii-6wa-61-18",
      "br-ii-7wa-61-18", "br-ii-8wo-61-18", "br-ii-9rs-61-18", "br-ii-8ar-61-18",
      "br-ii-5gl-61-18", "br-ii-2wl-30-18"]                       # 3-3-4, 2 SP, 1 step
BDE = ["br-x-59-20-18", "br-x-61-20-18", "br-x-60-20-18"]         # 10-4-4, 4 SP, 2 steps


def game(turn, german=None, allied=None, **kw):
    policies = {}
    if german is not None:
        policies[GE] = german
    if allied is not None:
        policies[AL] = allied
    return kb_empty_game(turn=turn, policies=policies or {GE: Scripted(), AL: Scripted()}, **kw)


def cell(g, hexid):
    return g.scenario.map.cell(hexid)


def hexes(g, cells):
    return sorted(g.scenario.map.id_of(int(c)) for c in cells if c is not None)


def spent(g, side, mission):
    return g.arr("arty_spent")[side, MISSIONS.index(mission)].tolist()


def choices(g, kind):
    return [e for e in g.events if e[0] == "choice" and e[2] == kind]


# --- 9.8, 9.81-9.83: points, tracks ---------------------------------------------------------

def test_9_81_9_82_artillery_points_by_game_turn():
    g = game(1)
    want = {1: ([0, 0], [50, 30]), 2: ([0, 0], [50, 30]), 3: ([8, 6], [35, 30]),
            6: ([8, 6], [35, 30]), 7: ([16, 12], [30, 20]), 10: ([16, 12], [30, 20])}
    for turn, (al, ge) in want.items():
        g.state.turn = turn
        artillery.receive(g)
        assert g.arr("arty").tolist() == [al, ge]
        assert artillery.points_left(g, AL) == tuple(al)
        assert artillery.points_left(g, GE) == tuple(ge)


def test_9_84_9_85_tracks_hold_every_turns_points():
    # Allied track boxes 0-16 (one marker a type), German 0-9 with x1 and x10 markers (0-99)
    g = game(1)
    tracks = g.scenario.tables["artillery_tracks"]
    top = {AL: tracks["allied"]["last_box"] * sum(tracks["allied"]["multipliers"]),
           GE: tracks["german"]["last_box"] * sum(tracks["german"]["multipliers"])}
    assert top == {AL: 16, GE: 99}
    for turn in range(1, 11):
        for side in (AL, GE):
            assert max(artillery.schedule(g, side, turn)) <= top[side]


def test_9_0_points_never_accumulated_from_turn_to_turn():
    g = game(3)
    artillery.receive(g)
    artillery.spend(g, GE, 5, 0, "gas")                  # 60 left unused
    g.state.turn = 4
    artillery.receive(g)
    assert g.arr("arty").tolist() == [[8, 6], [35, 30]]


def test_9_8_track_deducted_as_fire_is_declared_never_below_zero():
    g = game(3)
    artillery.receive(g)
    artillery.spend(g, AL, 3, 2, "sos")
    artillery.spend(g, AL, 5, 0, "rolling")
    assert g.arr("arty")[AL].tolist() == [0, 4]
    assert spent(g, AL, "sos") == [3, 2] and spent(g, AL, "rolling") == [5, 0]
    with pytest.raises(ValueError):
        artillery.spend(g, AL, 1, 0, "rolling")          # no Field Point left (9.8)
    assert g.arr("arty")[AL].tolist() == [0, 4]


def test_9_12_three_types_of_fire_each_booked_under_its_mission():
    # counter-battery (9.2), persistent gas (9.3) and barrage fire: drumfire, rolling, SOS
    assert MISSIONS == ("counter_battery", "gas", "drumfire", "rolling", "sos")
    g = game(3)
    artillery.receive(g)
    for k, mission in enumerate(MISSIONS):
        artillery.spend(g, GE, k, 1, mission)
    assert g.arr("arty_spent")[GE].tolist() == [[0, 1], [1, 1], [2, 1], [3, 1], [4, 1]]


def test_9_83_only_german_drumfire_on_game_turns_1_and_2():
    for turn in (1, 2):
        g = game(turn)                      # Scripted(default="fail"): any question fails
        kb_put(g, GHQ, "1510")
        kb_put(g, BN[0], "1516")
        artillery.receive(g)
        assert g.arr("arty")[AL].tolist() == [0, 0]                    # 9.82
        assert artillery.counter_battery_phase(g) == {}                 # 9.2: from turn 3
        assert artillery.gas_phase(g) == 0                              # 17.21
        lim = g.scenario.tables["barrage_limits"]
        assert lim["rolling"][FOG] == lim["rolling_observed"][FOG] == lim["sos"][FOG] == 0
        assert not choices(g, "kb.artillery.counter_battery")
        assert g.arr("arty")[GE].tolist() == [50, 30]
        # the drumfire barrage is the one fire left (9.4): it asks the German player
        g.policies[GE] = Scripted({"kb.artillery.drumfire_target": [None]})
        artillery.drumfire_phase(g)
        assert g.policies[GE].kinds() == ["kb.artillery.drumfire_target"]


# --- 9.11: range ------------------------------------------------------------------------------

def test_9_11_field_points_within_10_hexes_of_a_friendly_hq_heavy_anywhere():
    g = game(1)
    kb_put(g, GHQ, "1510")
    kb_put(g, AHQ, "1521")                  # an enemy HQ gives the German no range
    m = g.scenario.map
    assert m.distance("1510", "1520") == 10 and m.distance("1510", "1521") == 11
    ok = field_in_range(g, GE)
    assert ok[cell(g, "1520")] and not ok[cell(g, "1521")]
    assert ok.sum() == len(m.within("1510", 10))
    g.arr("arty")[GE] = (5, 5)
    assert barrage_choices(g, GE, cell(g, "1521"), 1, 2) == [(0, 1), (0, 2)]
    assert barrage_choices(g, GE, cell(g, "1520"), 1, 2) == [(1, 0), (0, 1), (2, 0), (1, 1),
                                                             (0, 2)]
    g.remove(GHQ)                           # no HQ: Field Points fire nowhere
    assert not field_in_range(g, GE).any()
    # the range follows the HQ as it moves (kept by HQ position: never a stale answer)
    kb_put(g, GHQ, "1510")
    first = field_in_range(g, GE)
    assert not first.flags.writeable and first[cell(g, "1520")]
    kb_put(g, GHQ, "1512")
    moved = field_in_range(g, GE)
    assert moved[cell(g, "1521")] and moved.sum() == len(m.within("1512", 10))
    kb_put(g, GHQ, "1510")
    assert field_in_range(g, GE) is first


# --- 9.2: counter-battery fire ----------------------------------------------------------------

CB_TABLE = {   # 9.25 as printed: die -> results for 10, 20, 30, 40, 50, 60 points
    1: ["3", "4", "5", "All", "All", "All"],
    2: ["2", "3", "4", "5", "All", "All"],
    3: ["-", "2", "3", "4", "5", "All"],
    4: ["-", "-", "2", "3", "4", "5"],
    5: ["-", "-", "-", "2", "3", "4"],
    6: ["-", "-", "-", "-", "2", "3"],
}


def cb_game(turn, german_script, allied_script, spy=False):
    if spy:
        board = {}
        ger, al = SecretSpy(german_script, board=board), SecretSpy(allied_script, board=board)
    else:
        ger, al = Scripted(german_script), Scripted(allied_script)
    g = game(turn, german=ger, allied=al)
    artillery.receive(g)
    return g


def test_9_21_allocation_only_in_multiples_of_10():
    g = game(3)
    g.arr("arty")[AL] = (10, 8)             # the case's 18 points: 10 or nothing
    g.arr("arty")[GE] = (35, 30)
    assert artillery.counter_battery_totals(g, AL) == [0, 10]
    assert artillery.counter_battery_totals(g, GE) == [0, 10, 20, 30, 40, 50, 60]
    g.arr("arty")[AL] = (5, 4)
    assert artillery.counter_battery_totals(g, AL) == [0]


def test_9_22_allocations_secret_and_simultaneous_then_deducted():
    g = cb_game(3, {"kb.artillery.counter_battery": [(20, 0)]},
                {"kb.artillery.counter_battery": [(6, 4)]}, spy=True)
    g.dice.force("artillery", [6, 6])       # 20: "-", 10: "-"
    assert artillery.counter_battery_phase(g) == {GE: "-", AL: "-"}
    # the German is asked first at each stage; the Allied policy, asked second, found no
    # trace of the German pick in the arrays, the log or its context
    assert g.policies[GE].looked == [("kb.artillery.counter_battery", GE, "first")]
    assert g.policies[AL].looked == [("kb.artillery.counter_battery", AL, "second")]
    assert g.arr("arty").tolist() == [[2, 2], [15, 30]]
    assert spent(g, GE, "counter_battery") == [20, 0]
    assert spent(g, AL, "counter_battery") == [6, 4]


def test_9_22_a_pick_stored_before_the_reveal_fails_the_spy_check():
    # the spy check itself can fail: a German pick stored before the Allies choose is seen
    g = cb_game(3, {"kb.artillery.counter_battery": [(20, 0)]},
                {"kb.artillery.counter_battery": [(10, 0)]}, spy=True)

    def ask(side, options):
        d = type("D", (), {"kind": "kb.artillery.counter_battery", "side": side,
                           "options": options, "context": {"secret": True}})()
        return g.policies[side].choose(d, g, None)

    ask(GE, [(0, 0), (10, 0), (20, 0)])
    g.arr("arty_spent")[GE, 0, 0] = 20      # as if the German pick had been stored
    with pytest.raises(AssertionError, match="arty_spent"):
        ask(AL, [(0, 0), (10, 0)])


def test_9_23_example_10_field_8_heavy_result_3_leaves_3_and_2():
    # Game-Turn 7: Allied 16/12 allocates 6 Field + 4 Heavy, keeping the example's 10 and 8;
    # the German allocates 10 Field of his 30/20. German die 1 -> "3" against the Allies;
    # Allied die 2 -> "2" against the German's 20/20 left after his allocation.
    g = cb_game(7, {"kb.artillery.counter_battery": [(10, 0)]},
                {"kb.artillery.counter_battery": [(6, 4)]})
    g.dice.force("artillery", [1, 2])
    assert artillery.counter_battery_phase(g) == {GE: "3", AL: "2"}
    assert g.arr("arty")[AL].tolist() == [3, 2]
    assert g.arr("arty")[GE].tolist() == [10, 10]
    assert g.arr("arty_lost").tolist() == [[7, 6], [10, 10]]
    dice = [e for e in g.events if e[0] == "die"]
    assert [d[2:] for d in dice] == [("artillery", "9.23 counter-battery fire", 1),
                                     ("artillery", "9.23 counter-battery fire", 2)]


def test_9_23_all_no_effect_and_no_roll_without_allocation():
    g = cb_game(3, {"kb.artillery.counter_battery": [(35, 5)]},
                {"kb.artillery.counter_battery": [(0, 0)]})
    g.dice.force("artillery", [1, 5])
    assert artillery.counter_battery_phase(g) == {GE: "All"}
    assert g.arr("arty").tolist() == [[0, 0], [0, 25]]
    assert g.dice.roll("artillery") == 5    # the Allies, with nothing allocated, rolled nothing
    g = cb_game(3, {"kb.artillery.counter_battery": [(10, 0)]},
                {"kb.artillery.counter_battery": [(0, 0)]})
    g.dice.force("artillery", [3])
    assert artillery.counter_battery_phase(g) == {GE: "-"}
    assert g.arr("arty")[AL].tolist() == [8, 6]


def test_9_24_field_or_heavy_allocated_freely_without_range():
    g = cb_game(7, {"kb.artillery.counter_battery": [(0, 0)]},
                {"kb.artillery.counter_battery": [(8, 12)]})
    assert not field_in_range(g, AL).any()           # no HQ on the map at all
    assert artillery.split_choices(g, AL, 10) == [(10 - h, h) for h in range(11)]
    assert artillery.split_choices(g, AL, 20) == [(16 - k, 4 + k) for k in range(9)]
    g.dice.force("artillery", [6])
    artillery.counter_battery_phase(g)
    assert g.arr("arty")[AL].tolist() == [8, 0]
    mixes = g.policies[AL].seen[-1]          # one secret choice of a whole mix (9.22)
    assert mixes.kind == "kb.artillery.counter_battery"
    assert list(mixes.options) == ([(0, 0)] + [(10 - h, h) for h in range(11)]
                                   + [(16 - k, 4 + k) for k in range(9)])


def test_9_25_counter_battery_table_as_printed():
    g = game(3)
    for die, row in CB_TABLE.items():
        for k, want in enumerate(row):
            assert counter_battery_result(g, 10 * (k + 1), die) == want
    assert counter_battery_result(g, 70, 6) == "3"      # ruling: beyond 60 reads 60
    assert counter_battery_result(g, 0, 1) == "-"
    assert after_counter_battery(10, 8, "3") == (3, 2)
    assert after_counter_battery(35, 30, "4") == (8, 7)
    assert after_counter_battery(35, 30, "All") == (0, 0)
    assert after_counter_battery(35, 30, "-") == (35, 30)


# --- 9.3: persistent gas ------------------------------------------------------------------------

def gas_game(turn=3, script=None, arty=(35, 30)):
    g = game(turn, german=Scripted(script or {}))
    kb_put(g, GHQ, "1510")
    kb_put(g, GDIV, "1510")
    g.arr("arty")[GE] = arty
    return g


def test_9_31_9_32_one_marker_per_15_points_deducted_as_placed():
    g = gas_game()
    g.policies[GE] = Scripted({"kb.artillery.gas_markers": [2],
                               "kb.artillery.gas_target": [cell(g, "1517"), cell(g, "1521")],
                               "kb.artillery.gas_points": [(10, 5)]})
    assert artillery.gas_phase(g) == 2
    seen = g.policies[GE].seen
    assert seen[0].kind == "kb.artillery.gas_markers" and list(seen[0].options) == [0, 1, 2, 3, 4]
    # 1517 is in Field range: any mix of 15; 1521 (11 hexes from the HQ) only 15 Heavy, which
    # is the one option and so is not asked
    assert [d.kind for d in seen] == ["kb.artillery.gas_markers", "kb.artillery.gas_target",
                                      "kb.artillery.gas_points", "kb.artillery.gas_target"]
    assert len(seen[2].options) == 16 and (15, 0) in seen[2].options
    assert g.arr("arty")[GE].tolist() == [25, 10]
    assert spent(g, GE, "gas") == [10, 20]
    assert hexes(g, g.arr("gas")[g.arr("gas") >= 0]) == ["1517", "1521"]
    assert int(g.arr("gas_placed")[0]) == 2


def test_9_31_fewer_than_15_points_no_gas():
    g = gas_game(arty=(10, 4))
    assert artillery.gas_phase(g) == 0       # nothing asked (Scripted would fail)


def test_9_33_target_any_terrain_enemy_ok_6_hexes_from_germans_and_in_range():
    g = gas_game()
    kb_put(g, BN[0], "1517")
    ok = artillery.gas_targets(g)
    assert not ok[cell(g, "1515")] and ok[cell(g, "1516")]          # 5 and 6 hexes
    assert ok[cell(g, "1517")]                                       # enemy-occupied
    g.arr("gas")[0] = cell(g, "1517")                    # ruling: a second marker may go there
    assert artillery.gas_targets(g)[cell(g, "1517")]
    g.arr("gas")[0] = -1
    for h in ("1025", "0823", "3801"):                               # hilltop, woods, redoubt
        assert ok[cell(g, h)]
    assert g.scenario.map.terrain[cell(g, "0823")] == int(Terrain.WOODS)
    # only Field Points: only within 10 hexes of the HQ
    g.arr("arty")[GE] = (15, 0)
    ok = artillery.gas_targets(g)
    assert ok[cell(g, "1520")] and not ok[cell(g, "1521")]
    # "at the moment of its placement": a German unit nearer the target forbids it
    kb_put(g, GDIV2, "1520")
    g.arr("arty")[GE] = (35, 30)
    ok = artillery.gas_targets(g)
    assert not ok[cell(g, "1516")] and not ok[cell(g, "1520")]
    assert not ok[cell(g, "1525")] and ok[cell(g, "1526")]


def test_9_34_gas_zone_doubles_movement_costs():
    g = gas_game()
    g.arr("gas")[0] = cell(g, "1515")
    zone = movement.gas_zone(g)
    assert hexes(g, np.flatnonzero(zone)) == hexes(
        g, [cell(g, "1515")] + [int(c) for c in g.scenario.map.neighbors[cell(g, "1515")]])
    cost = movement.enter_costs(g)
    assert cost[cell(g, "1515")] == 2 and cost[cell(g, "1514")] == 2
    assert cost[cell(g, "1513")] == 1


def test_9_34_each_stack_ending_its_movement_in_a_zone_loses_one_step():
    g = gas_game(script={})
    g.policies[AL] = Scripted({"kb.gas.step_loss": [g.unit(BDE[0]), g.unit(BN[3])]})
    g.arr("gas")[0] = cell(g, "1515")
    g.arr("gas")[1] = cell(g, "1517")
    kb_put(g, BDE[0], "1515")
    kb_put(g, BN[0], "1515")                 # a stack of two in the marker's hex: one step
    kb_put(g, BN[1], "1514")                 # in the zone
    kb_put(g, BN[2], "1512")                 # outside
    kb_put(g, BN[3], "1516")                 # in two zones: still one step
    kb_put(g, BN[4], "1516")
    kb_put(g, GDIV2, "1518")                 # German, in a zone, not his phase
    assert artillery.gas_step_losses(g, AL) == 3
    st = g.state
    assert int(st.unit_step[g.unit(BDE[0])]) == 1
    assert st.unit_status[g.unit(BN[0])] & Status.ON_MAP
    assert st.unit_status[g.unit(BN[1])] & Status.ELIMINATED
    assert st.unit_status[g.unit(BN[2])] & Status.ON_MAP
    assert st.unit_status[g.unit(BN[3])] & Status.ELIMINATED
    assert st.unit_status[g.unit(BN[4])] & Status.ON_MAP
    assert int(st.unit_step[g.unit(GDIV2)]) == 0
    assert g.arr("steps_lost")[AL, g.LOSS_CAUSES.index("gas")] == 3
    asked = [d for d in g.policies[AL].seen]
    assert [d.kind for d in asked] == ["kb.gas.step_loss", "kb.gas.step_loss"]
    assert sorted(asked[0].options) == sorted([g.unit(BDE[0]), g.unit(BN[0])])


def test_9_35_markers_removed_on_a_die_roll_of_1():
    g = gas_game()
    for i, h in enumerate(("1517", "1520", "1525")):
        g.arr("gas")[i] = cell(g, h)
    g.dice.force("gas", [1, 4, 1])
    assert artillery.gas_removal(g) == 2
    assert hexes(g, g.arr("gas")[g.arr("gas") >= 0]) == ["1520"]
    assert g.arr("gas").tolist().count(-1) == 5


def test_9_36_at_most_6_markers_a_removed_one_is_available_again():
    g = gas_game(arty=(35, 30))
    for i, h in enumerate(("1517", "1518", "1519", "1520", "1521", "1522")):
        g.arr("gas")[i] = cell(g, h)
    assert artillery.gas_markers_free(g) == 0
    assert artillery.gas_phase(g) == 0                     # no question asked
    g.dice.force("gas", [1, 2, 2, 2, 2, 2])
    artillery.gas_removal(g)
    assert artillery.gas_markers_free(g) == 1
    g.policies[GE] = Scripted({"kb.artillery.gas_markers": [1],
                               "kb.artillery.gas_target": [cell(g, "1517")],
                               "kb.artillery.gas_points": [(15, 0)]})
    assert artillery.gas_phase(g) == 1
    assert list(g.policies[GE].seen[0].options) == [0, 1]
    assert g.arr("gas")[0] == cell(g, "1517")


def test_17_21_no_persistent_gas_on_game_turns_1_and_2():
    for turn in (1, 2):
        g = gas_game(turn=turn, arty=(50, 30))
        assert artillery.gas_phase(g) == 0
        assert (g.arr("gas") == -1).all()
    g = gas_game(turn=3, script={"kb.artillery.gas_markers": [0]})
    assert artillery.gas_phase(g) == 0
    assert g.policies[GE].kinds() == ["kb.artillery.gas_markers"]


# --- 9.4: drumfire barrage ----------------------------------------------------------------------

# 9.48 as printed: die (modified) -> results of the four columns
DF_TABLE = {1: ["4", "5", "6", "7"], 2: ["3", "4", "5", "6"], 3: ["2", "3", "4", "5"],
            4: ["-", "2", "3", "4"], 5: ["-", "-", "2", "3"], 6: ["-", "-", "-", "2"],
            7: ["-", "-", "-", "-"], 8: ["-", "-", "-", "-"]}


def test_9_43_9_48_column_by_stacking_points_and_artillery_points():
    g = game(1)
    small = {1: None, 2: 0, 3: 0, 4: 1, 5: 1, 6: 2}        # 1-6 SP: 2-3 | 4-5 | 6 | -
    big = {1: 0, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3}             # 7-12 SP: 1 | 2-3 | 4-5 | 6
    for sp in range(1, 7):
        assert {p: drumfire_column(g, sp, p) for p in range(1, 7)} == small
    for sp in range(7, 13):
        assert {p: drumfire_column(g, sp, p) for p in range(1, 7)} == big


def test_9_48_above_12_stacking_points_reads_the_7_12_row():
    g = game(1)
    for sp in (13, 14, 20):
        assert drumfire_column(g, sp, 1) == 0 and drumfire_column(g, sp, 6) == 3
    for u in BDE:                                          # 12 SP + 2 SP = 14
        kb_put(g, u, "1515")
    kb_put(g, BN[0], "1515")
    assert drumfire_result(g, cell(g, "1515"), 6, 1) == 3    # 7 - morale 4


def test_9_48_results_as_printed_every_column_and_modified_die():
    # service companies (1-1-3, 1 SP) give Morale 1, so a result n is n - 1 steps; in the
    # redoubt 3801 (+2) the die reaches rows 7 and 8
    g = game(1)
    flags = g.arr("flags")
    for u in BN[:8]:
        flags[g.unit(u)] |= Flag.SERVICE
    kb_put(g, BN[7], "1515")                               # 1 SP: the 1-6 row
    for u in BN[:7]:
        kb_put(g, u, "3801")                               # 7 SP: the 7-12 row
    assert int(g.data.die_mod[cell(g, "1515")]) == 0
    assert int(g.data.die_mod[cell(g, "3801")]) == 2

    def steps(res):
        return 0 if res == "-" else int(res) - 1

    for die in range(1, 7):
        for pts, col in ((2, 0), (4, 1), (6, 2)):
            assert drumfire_result(g, cell(g, "1515"), pts, die) == steps(DF_TABLE[die][col])
        for pts, col in ((1, 0), (2, 1), (4, 2), (6, 3)):
            assert drumfire_result(g, cell(g, "3801"), pts, die) == steps(
                DF_TABLE[die + 2][col])


def test_9_48_one_point_against_1_6_stacking_points_ruling_no_effect_no_roll():
    g = game(1)
    kb_put(g, BN[0], "1515")
    assert drumfire_column(g, 2, 1) is None
    assert all(drumfire_result(g, cell(g, "1515"), 1, d) == 0 for d in range(1, 7))
    g.dice.force("artillery", [1])
    assert artillery.barrage_attack(g, cell(g, "1515"), 1, "artillery", "drumfire") == 0
    assert g.dice.roll("artillery") == 1                   # not rolled
    assert g.arr("drumfired")[cell(g, "1515")] == 1        # the hex's one attack is used


def test_9_44_terrain_modifies_the_die_never_a_hexside():
    g = game(1)
    places = {"1515": 3, "0518": 2, "1025": 2, "3801": 1, "1016": 3}
    # clear; town +1; hilltop +1; redoubt +2; clear with river hexsides (no modifier, 5.32 *)
    assert g.data.side_mod[cell(g, "1016")].max() == 1
    for u, h in zip(BN, places, strict=False):
        kb_put(g, u, h)
    for h, want in places.items():
        assert drumfire_result(g, cell(g, h), 6, 1) == want, h   # column 3: 6/5/4 vs morale 3


def test_9_45_and_8_61_result_against_the_stacks_highest_morale():
    g = game(1)
    kb_put(g, BDE[0], "1515")                # morale 4
    kb_put(g, BN[0], "1515")                 # morale 3: 6 SP, stack morale 4
    kb_put(g, BN[1], "1513")                 # morale 3 alone
    c, c2 = cell(g, "1515"), cell(g, "1513")
    assert artillery.stack_morale(g, c) == 4
    assert drumfire_result(g, c, 4, 2) == 0                # 4 = morale: unsuccessful
    assert drumfire_result(g, c, 4, 1) == 1                # 5 - 4
    assert drumfire_result(g, c2, 4, 2) == 1               # 4 - 3
    assert drumfire_result(g, c, 4, 4) == 0                # "-"


def drumfire_position(g):
    kb_put(g, GHQ, "1510")
    kb_put(g, GDIV, "1511")
    kb_put(g, BDE[0], "1512")                 # X: adjacent to the German division (9.47)
    kb_put(g, BDE[1], "1518")                 # Y
    kb_put(g, BN[0], "1518")
    kb_put(g, BN[1], "0301")                  # Z: 15 hexes from the HQ, Heavy only
    kb_put(g, AHQ, "1516")                    # an HQ alone: a drumfire target (12.33 is air)
    kb_put(g, BN[2], "1514")                  # a reinforcement placed this turn (15.16)
    g.arr("flags")[g.unit(BN[2])] |= Flag.ARRIVED


def test_9_41_9_42_9_46_9_47_drumfire_phase_one_attack_at_a_time():
    g = game(1)
    drumfire_position(g)
    x, z = cell(g, "1512"), cell(g, "0301")
    g.policies[GE] = Scripted({"kb.artillery.drumfire_target": [x, z, None],
                               "kb.artillery.drumfire_points": [(3, 3), (0, 6)]})
    artillery.receive(g)
    g.arr("drumfired")[x] = 1                 # left from an earlier phase: cleared
    g.dice.force("artillery", [3, 6])         # X: col 3 die 3 -> 4 = morale; Z: "-"
    assert artillery.drumfire_phase(g) == 0
    seen = g.policies[GE].seen
    assert [d.kind for d in seen] == ["kb.artillery.drumfire_target",
                                      "kb.artillery.drumfire_points"] * 2 + [
                                          "kb.artillery.drumfire_target"]
    assert seen[0].options[0] is None
    assert hexes(g, seen[0].options) == ["0301", "1512", "1516", "1518"]
    assert hexes(g, seen[4].options) == ["1516", "1518"]          # once per phase (9.42)
    # 9.42 and 9.46: 1-6 points, Field and Heavy mixed; 9.11: Heavy only at Z
    assert len(seen[1].options) == 27 and (3, 3) in seen[1].options
    assert {f + h for f, h in seen[1].options} == set(range(1, 7))
    assert list(seen[3].options) == [(0, p) for p in range(1, 7)]
    assert g.arr("arty")[GE].tolist() == [47, 21]                # deducted as declared
    assert spent(g, GE, "drumfire") == [3, 9]
    assert g.arr("drumfired")[x] == 1 and g.arr("drumfired")[z] == 1
    assert int(g.state.unit_step[g.unit(BDE[0])]) == 0


def test_9_45_drumfire_losses_taken_by_the_owner():
    g = game(2)
    drumfire_position(g)
    y = cell(g, "1518")
    g.policies[GE] = Scripted({"kb.artillery.drumfire_target": [y, None],
                               "kb.artillery.drumfire_points": [(6, 0)]})
    g.policies[AL] = Scripted({"kb.drumfire.step_loss": [g.unit(BN[0]), g.unit(BDE[1])]})
    artillery.receive(g)
    g.dice.force("artillery", [1])            # 6 SP, 6 points: column 3, die 1 -> 6 - 4 = 2
    assert artillery.drumfire_phase(g) == 2
    assert g.state.unit_status[g.unit(BN[0])] & Status.ELIMINATED
    assert int(g.state.unit_step[g.unit(BDE[1])]) == 1
    assert g.arr("steps_lost")[AL, g.LOSS_CAUSES.index("drumfire")] == 2
    assert g.arr("arty")[GE].tolist() == [44, 30]


def test_9_41_no_points_no_attack_and_stop_any_time():
    g = game(1)
    drumfire_position(g)
    g.arr("arty")[GE] = (2, 1)
    g.policies[GE] = Scripted({"kb.artillery.drumfire_target": [cell(g, "1518"), None],
                               "kb.artillery.drumfire_points": [(2, 1)]})
    g.dice.force("artillery", [6])
    artillery.drumfire_phase(g)
    pts = g.policies[GE].seen[1]
    assert max(f + h for f, h in pts.options) == 3          # only what is left
    assert g.policies[GE].kinds() == ["kb.artillery.drumfire_target",
                                      "kb.artillery.drumfire_points"]   # then nothing left


def test_15_16_reinforcements_placed_this_turn_never_drumfired():
    g = game(2)
    drumfire_position(g)
    ok = barrage_targets(g, GE)
    assert not ok[cell(g, "1514")] and ok[cell(g, "1512")]
    kb_put(g, BN[3], "1512")                 # an arrived unit in a stack protects the stack
    g.arr("flags")[g.unit(BN[3])] |= Flag.ARRIVED
    assert not barrage_targets(g, GE)[cell(g, "1512")]


def test_17_22_drumfire_only_on_game_turns_1_and_2():
    g = game(3)
    drumfire_position(g)
    artillery.receive(g)
    g.arr("drumfired")[cell(g, "1512")] = 1
    assert artillery.drumfire_phase(g) == 0                  # no question asked
    assert not g.arr("drumfired").any()
    assert artillery.drumfire_turns(g) == (1, 2)
