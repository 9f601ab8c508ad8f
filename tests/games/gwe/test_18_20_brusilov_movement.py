"""Brusilov movement restrictions: 18.1 first-turn Russian movement, 18.2 rail capacity and rate,
18.3 track limits, 26.33 rail capacity, 23.52-23.53 reduced Austro-Hungarian units, 24.42-24.43
the armored car."""

import numpy as np
import pytest

from gwe_positions import start_line, unit
from gwe_fast import scenario_from_dicts
from gwe_fast.games.gwe import rail
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.policies.base import IllegalChoice
from gwe_fast.state import Status

COLS, ROWS = (1, 30), (1, 9)
OPTIONS = {"sga_early": False, "west_front": False, "more_supply_rail": False,
           "better_commanders": False, "track_limits": True}
GERMAN = [[4, 6, 5], [2, 4, 5]]


def row_chain(row, c0=1, c1=30):
    return "-".join(f"{c:02d}{row:02d}" for c in range(c0, c1 + 1))


def board(units, turn=2, options=None, rails=None, first_turn=1, case=None):
    """A 30x9 GweGame: Russians above row 5, Central Powers below. ``rails`` maps hexside
    kinds to chains; by default one single-track line along row 2 and one along row 8."""
    hs = {"start_line": start_line(4, COLS)}
    hs.update(rails or {"rail_single": [row_chain(2), row_chain(8)]})
    opts = {k: {"default": v, "help": k} for k, v in {**OPTIONS, **(options or {})}.items()}
    scen = {"game": "gwe", "name": "movement test", "version": 1, "first_turn": first_turn,
            "last_turn": 20, "first_player": "allied"}
    if case:
        scen["case"] = case
    sc = scenario_from_dicts(
        scenario={"scenario": scen, "options": opts},
        map={"map": {"columns": list(COLS), "rows": list(ROWS)}, "hexsides": hs,
             "edges": {"allied": [f"{c:02d}01" for c in range(1, 31)],
                       "central": [f"{c:02d}09" for c in range(1, 31)]}},
        counters={"unit": units})
    g = GweGame(sc)
    g.state.turn = np.int16(turn)
    return g


def cell(g, hexid):
    return g.scenario.map.cell(hexid)


def entrained(g, uid):
    return bool(g.state.unit_status[g.unit(uid)] & Status.ENTRAINED)


# ------------------------------------------------------------------------------------------
# 18.1
# ------------------------------------------------------------------------------------------
def test_18_1_only_russian_hqs_move_on_the_first_turn():
    us = [unit("ru", "russian", "0102"), unit("hq", "russian", "0302", "hq"),
          unit("ah", "austro_hungarian", "0108")]
    g = board(us, turn=1)
    ru, hq, ah = g.unit("ru"), g.unit("hq"), g.unit("ah")
    assert not rail.first_turn_may_move(g, ru)
    assert not rail.can_entrain(g, ru) and rail.rail_moves(g, ru) == {}
    assert rail.first_turn_may_move(g, hq) and rail.can_entrain(g, hq)
    assert rail.first_turn_may_move(g, ah) and rail.can_entrain(g, ah)   # no CP restriction
    g.state.turn = np.int16(2)
    assert rail.first_turn_may_move(g, ru) and rail.can_entrain(g, ru)
    # Attack on Schedule: the rule applies to its first turn, Game-Turn 5 (18.1, 26.24)
    g = board(us, turn=5, first_turn=5, case="26.2")
    assert not rail.first_turn_may_move(g, g.unit("ru"))
    g.state.turn = np.int16(6)
    assert rail.first_turn_may_move(g, g.unit("ru"))


# ------------------------------------------------------------------------------------------
# 18.2
# ------------------------------------------------------------------------------------------
def test_18_21_russian_rail_capacity_6():
    g = board([unit(f"r{i}", "russian", f"{c:02d}02") for i, c in enumerate((1, 3, 5, 7))])
    assert rail.rail_capacity(g.scenario, 0) == 6 and rail.rail_rate(g.scenario, 0) == 20
    assert [rail.can_entrain(g, g.unit(f"r{i}")) and rail.entrain(g, g.unit(f"r{i}"))
            for i in range(4)] == [True, True, True, False]


def test_18_21_russian_rail_rate_20_hexes_per_game_turn():
    g = board([unit("r", "russian", "0102")], options={"track_limits": False})
    r = g.unit("r")
    rail.entrain(g, r)
    rail.move_by_rail(g, r, cell(g, "1202"))          # 11
    rail.move_by_rail(g, r, cell(g, "0802"))          # back 4: 15
    moves = rail.rail_moves(g, r)
    assert max(moves.values()) == 5 and cell(g, "1302") in moves and cell(g, "1402") not in moves


def test_18_22_central_powers_rail_capacity_8_and_rate_25():
    us = [unit(f"g{i}", "german", f"{c:02d}08", steps=GERMAN) for i, c in
          enumerate((1, 3, 5, 7, 9))]
    g = board(us)
    assert rail.rail_capacity(g.scenario, 1) == 8 and rail.rail_rate(g.scenario, 1) == 25
    assert [rail.can_entrain(g, g.unit(f"g{i}")) and rail.entrain(g, g.unit(f"g{i}"))
            for i in range(5)] == [True, True, True, True, False]
    assert max(rail.rail_moves(g, g.unit("g0")).values()) == 25


def test_26_33_more_supply_rail_raises_russian_rail_capacity_to_8():
    us = [unit(f"r{i}", "russian", f"{c:02d}02") for i, c in enumerate((1, 3, 5, 7, 9))]
    g = board(us, options={"more_supply_rail": True})
    assert rail.rail_capacity(g.scenario, 0) == 8 and rail.rail_capacity(g.scenario, 1) == 8
    assert [rail.can_entrain(g, g.unit(f"r{i}")) and rail.entrain(g, g.unit(f"r{i}"))
            for i in range(5)] == [True, True, True, True, False]


def test_18_24_depots_count_2_stacking_points_toward_rail_capacity():
    us = [unit("d1", "russian", "0102", "depot"), unit("d2", "russian", "0302", "depot"),
          unit("d3", "russian", "0502", "depot"), unit("d4", "russian", "0702", "depot")]
    g = board(us)
    assert [rail.can_entrain(g, g.unit(f"d{i}")) and rail.entrain(g, g.unit(f"d{i}"))
            for i in range(1, 5)] == [True, True, True, False]
    assert int(g.arr("rail_used")[0]) == 6


def test_18_25_unit_with_allowance_below_its_tcr_entrains_for_its_whole_allowance():
    # a Central Powers depot 0-1-2 (TCR 4) and a broken-down armored car 0-1-1 (TCR 3)
    us = [unit("dp", "austro_hungarian", "0108", "depot", steps=[[0, 1, 2]]),
          unit("d2", "austro_hungarian", "0308", "depot", steps=[[0, 1, 2]]),
          unit("ac", "russian", "0102", "armored_car")]
    g = board(us)
    dp, d2, ac = g.unit("dp"), g.unit("d2"), g.unit("ac")
    assert rail.entrain_cost(g, dp) == 2 and rail.can_entrain(g, dp)
    assert rail.entrain(g, dp) and int(g.arr("mp_spent")[dp]) == 2
    g.arr("mp_spent")[d2] = 1                          # has moved: did not begin here
    assert not rail.can_entrain(g, d2)
    assert rail.entrain_cost(g, ac) == 3               # 1-1-6 in running order
    g.set_flag(ac, Flag.BROKEN_DOWN)
    assert rail.entrain_cost(g, ac) == 1 and rail.can_entrain(g, ac)


def test_18_26_entraining_needs_no_die_roll():
    g = board([unit("r", "russian", "0102"), unit("g", "german", "0108", steps=GERMAN)])
    rail.entrain(g, g.unit("r"))
    rail.entrain(g, g.unit("g"))
    assert sum(g.dice.counts().values()) == 0


def test_18_27_only_friendly_rail_lines():
    # one line down column 5 crosses the start line between 0504 and 0505
    chain = "-".join(f"05{r:02d}" for r in range(1, 10))
    g = board([unit("r", "russian", "0502"), unit("g", "german", "0508", steps=GERMAN),
               unit("rw", "russian", "0208")], rails={"rail_single": [chain, "0108-0208-0308"]})
    moves = {g.scenario.map.id_of(c) for c in rail.rail_moves(g, g.unit("r"))}
    assert moves == {"0501", "0503", "0504"}
    moves = {g.scenario.map.id_of(c) for c in rail.rail_moves(g, g.unit("g"))}
    assert moves == {"0509", "0507", "0506", "0505"}
    assert not rail.can_entrain(g, g.unit("rw"))       # a Russian on a Central Powers line
    assert rail.rail_moves(g, g.unit("rw")) == {}


# ------------------------------------------------------------------------------------------
# 18.3
# ------------------------------------------------------------------------------------------
def test_18_31_single_track_limit():
    us = [unit("a", "russian", "0102"), unit("b", "russian", "0102"),
          unit("x", "russian", "0102", size="brigade")]
    g = board(us, options={"more_supply_rail": True})
    a, b, x = g.unit("a"), g.unit("b"), g.unit("x")
    rail.entrain(g, a)
    rail.move_by_rail(g, a, cell(g, "0502"))
    assert int(g.arr("track_used")[cell(g, "0102"), :, 0].sum()) == 2
    # both faces of each hexside carry the count
    assert int(g.arr("track_used")[cell(g, "0202"), :, 0].sum()) == 4
    assert rail.rail_moves(g, b) == {} and rail.rail_moves(g, x) == {}   # 2 Russian points
    # the Central Powers carry 4 on a single track
    us = [unit(f"g{i}", "german", "0108", steps=GERMAN) for i in range(3)]
    g = board(us)
    for i in range(2):
        gi = g.unit(f"g{i}")
        rail.entrain(g, gi)
        rail.move_by_rail(g, gi, cell(g, "0608"))
    assert rail.rail_moves(g, g.unit("g2")) == {}


def test_18_31_double_track_limit():
    g = board([unit("g", "german", "0108", steps=GERMAN),
               unit("x", "german", "0108", size="brigade", steps=[[1, 2, 5]])],
              rails={"rail_double": [row_chain(8)], "rail_single": [row_chain(2)]})
    face = cell(g, "0108"), g.scenario.map.direction("0108", "0208")
    assert rail.line_limits(g.scenario)[1][face][0] == 8
    rail.start_rail_phase(g, 1)
    g.arr("track_used")[face[0], face[1], 0] = 7                      # 7 of 8 used
    other = cell(g, "0208"), g.scenario.map.direction("0208", "0108")
    g.arr("track_used")[other[0], other[1], 0] = 7
    assert cell(g, "0208") not in rail.rail_moves(g, g.unit("g"))      # 2 more do not fit
    assert cell(g, "0208") in rail.rail_moves(g, g.unit("x"))          # 1 more does
    # the Russians too carry 8 on a double track
    g = board([unit("r", "russian", "0102")], rails={"rail_double": [row_chain(2)]})
    assert rail.line_limits(g.scenario)[0][cell(g, "0102"),
                                           g.scenario.map.direction("0102", "0202"), 0] == 8


def test_18_33_a_second_line_through_a_hexside_carries_its_own_limit():
    us = [unit(f"r{i}", "russian", "0102") for i in range(3)]
    g = board(us, options={"more_supply_rail": True},
              rails={"rail_single": [row_chain(2)], "rail_extra": ["0102-0202"]})
    for i in range(2):
        ri = g.unit(f"r{i}")
        rail.entrain(g, ri)
        rail.move_by_rail(g, ri, cell(g, "0202"))
    face = cell(g, "0102"), g.scenario.map.direction("0102", "0202")
    assert list(g.arr("track_used")[face]) == [2, 2]
    assert cell(g, "0202") not in rail.rail_moves(g, g.unit("r2"))
    # beside a double track the unit takes the single line first (best fit), keeping the 8
    g = board([unit("r", "russian", "0102")],
              rails={"rail_double": [row_chain(2)], "rail_single": ["0102-0202"]})
    rail.entrain(g, g.unit("r"))
    rail.move_by_rail(g, g.unit("r"), cell(g, "0302"))
    face = cell(g, "0102"), g.scenario.map.direction("0102", "0202")
    assert rail.line_limits(g.scenario)[0][face].tolist() == [8, 2]
    assert list(g.arr("track_used")[face]) == [0, 2]
    face2 = cell(g, "0202"), g.scenario.map.direction("0202", "0302")
    assert list(g.arr("track_used")[face2]) == [2, 0]


def test_18_3_track_limits_apply_only_with_the_option():
    us = [unit(f"r{i}", "russian", "0102") for i in range(3)]
    g = board(us, options={"track_limits": False})
    for i in range(3):
        ri = g.unit(f"r{i}")
        rail.entrain(g, ri)
        rail.move_by_rail(g, ri, cell(g, "0502"))
    assert not g.arr("track_used").any()
    assert int(g.arr("rail_used")[0]) == 6


# ------------------------------------------------------------------------------------------
# 23.52-23.53
# ------------------------------------------------------------------------------------------
def reduced_ah(turn=2, first_turn=1):
    g = board([unit("ah", "austro_hungarian", "0108"), unit("ge", "german", "0308",
                                                             steps=GERMAN)],
              turn=turn, first_turn=first_turn)
    g.state.unit_step[g.unit("ah")] = 1
    g.state.unit_step[g.unit("ge")] = 1
    return g


def test_23_52_a_reduced_unit_may_move_one_hex_or_two_clear_hexes_safely():
    g = reduced_ah()
    ah = g.unit("ah")
    for hexes_moved, mp in ((1, 1), (1, 3), (2, 2), (1, 4)):
        assert rail.reduced_ah_move_check(g, ah, hexes_moved, mp)
    assert sum(g.dice.counts().values()) == 0
    g.dice.force("breakdown", [6, 6])
    assert rail.reduced_ah_move_check(g, ah, 2, 3)     # forest then clear: rolls
    assert rail.reduced_ah_move_check(g, ah, 3, 3)     # third clear hex: rolls again
    assert g.dice.counts() == {"breakdown": 2}


def test_23_52_eliminated_on_1_2_on_the_opening_turn_and_on_1_afterwards():
    g = reduced_ah(turn=1)
    g.dice.force("breakdown", [2])
    assert not rail.reduced_ah_move_check(g, g.unit("ah"), 3, 3)
    assert g.state.unit_status[g.unit("ah")] & Status.ELIMINATED
    assert int(g.state.vp) == 2                        # 2 Central Powers Stacking Points
    g = reduced_ah(turn=2)
    g.dice.force("breakdown", [2, 1])
    assert rail.reduced_ah_move_check(g, g.unit("ah"), 3, 3)
    assert not rail.reduced_ah_move_check(g, g.unit("ah"), 4, 4)
    # Attack on Schedule: its opening turn is Game-Turn 5
    g = reduced_ah(turn=5, first_turn=5)
    g.dice.force("breakdown", [2])
    assert not rail.reduced_ah_move_check(g, g.unit("ah"), 2, 3)


def test_23_52_full_strength_and_german_units_never_roll():
    g = reduced_ah()
    g.state.unit_step[g.unit("ah")] = 0
    assert rail.reduced_ah_move_check(g, g.unit("ah"), 4, 4)
    assert rail.reduced_ah_move_check(g, g.unit("ge"), 5, 5)
    assert sum(g.dice.counts().values()) == 0


def test_23_53_a_reduced_unit_rolls_to_entrain():
    g = reduced_ah(turn=3)
    ah = g.unit("ah")
    g.dice.force("breakdown", [4])
    assert rail.entrain(g, ah) and entrained(g, "ah")
    assert g.dice.counts() == {"breakdown": 1}
    rail.move_by_rail(g, ah, cell(g, "0508"))          # rail movement itself rolls nothing
    assert g.dice.counts() == {"breakdown": 1}
    g = reduced_ah(turn=3)
    ah = g.unit("ah")
    g.dice.force("breakdown", [1])
    assert not rail.entrain(g, ah)
    assert g.state.unit_status[ah] & Status.ELIMINATED
    assert int(g.arr("rail_used")[1]) == 2             # its Rail Stacking Points are spent


# ------------------------------------------------------------------------------------------
# 24.42-24.43
# ------------------------------------------------------------------------------------------
def test_24_42_armored_car_breakdown():
    g = board([unit("ac", "russian", "0405", "armored_car")])
    ac = g.unit("ac")
    mp = g.arr("mp_spent")
    for spent, die, broken in ((4, None, False), (5, 2, False), (5, 1, True), (6, 3, False),
                               (6, 2, True)):
        g.set_flag(ac, Flag.BROKEN_DOWN, False)
        mp[ac] = spent
        before = g.dice.counts().get("breakdown", 0)
        if die:
            g.dice.force("breakdown", [die])
        assert rail.armored_car_breakdown(g, ac) is broken
        assert g.dice.counts().get("breakdown", 0) - before == (1 if die else 0)
        assert g.flag(ac, Flag.BROKEN_DOWN) is broken
    assert list(rail.current_values(g, ac)) == [0, 1, 1]     # the flipped counter
    assert not rail.armored_car_breakdown(g, ac)              # already broken: no roll


def test_24_42_current_values_follow_steps_and_broken_down_cars():
    # combat.current_values keeps the values of the last positions per scenario: each
    # position (the units' steps, the cars broken down or not) must still give every unit's
    # printed values, the car's back 0-1-1 while broken down
    from gwe_fast.games.gwe import combat, movement

    g = board([unit("ac", "russian", "0405", "armored_car"), unit("r", "russian", "0102"),
               unit("a", "austro_hungarian", "0805")])
    ac, r = g.unit("ac"), g.unit("r")

    def printed():
        return [list(movement.printed_values(g.scenario, g.state, x))
                for x in range(g.scenario.units.n)]

    first = combat.current_values(g)
    assert not first.flags.writeable
    assert first.tolist() == printed() and combat.current_values(g) is first
    g.set_flag(ac, Flag.BROKEN_DOWN)
    broken = combat.current_values(g)
    assert broken.tolist() == printed() and list(broken[ac]) == [0, 1, 1]
    g.state.unit_step[r] = 1
    assert combat.current_values(g).tolist() == printed()
    g.state.unit_step[r] = 0
    assert combat.current_values(g) is broken              # a position seen before
    g.set_flag(ac, Flag.BROKEN_DOWN, False)
    assert combat.current_values(g) is first and list(first[ac]) != [0, 1, 1]


def test_24_43_armored_car_repair_hook():
    g = board([unit("ac", "russian", "0405", "armored_car"), unit("r", "russian", "0102")])
    ac = g.unit("ac")
    assert not rail.armored_car_needs_repair(g, ac)
    with pytest.raises(IllegalChoice):
        rail.repair_armored_car(g, ac)
    g.set_flag(ac, Flag.BROKEN_DOWN)
    assert rail.armored_car_needs_repair(g, ac)
    assert not rail.armored_car_needs_repair(g, g.unit("r"))
    rail.repair_armored_car(g, ac)
    assert list(rail.current_values(g, ac)) == [1, 1, 6]


def test_flag_bits_are_distinct():
    bits = [v for k, v in vars(Flag).items() if k.isupper()]
    assert all(b > 0 and b & (b - 1) == 0 for b in bits)
    assert len(set(bits)) == len(bits)
