"""Reinforcements: standard rules 14.0 and Brusilov 20.0 (20.1 arrival, 20.2 supply depots),
with 25.16/25.2 permanent withholding and the scenario rules 26.22-26.23, 26.31-26.34."""

import numpy as np

from gwe_positions import Prefer, start_line, unit
from gwe_fast import load_scenario, scenario_from_dicts
from gwe_fast.enums import UnitType
from gwe_fast.games.gwe import rail
from gwe_fast.games.gwe import reinforcements as R
from gwe_fast.games.gwe.game import VP_CAUSES, Flag, GweGame
from gwe_fast.games.gwe.units import eliminate
from gwe_fast.state import Status

COLS, ROWS = (1, 9), (1, 9)
OPTIONS = {"sga_early": False, "west_front": False, "more_supply_rail": False,
           "better_commanders": False, "track_limits": True}


Script = Prefer


def reinf(uid, nationality, turn, entry, type="infantry", **kw):
    """A reinforcement counter: Game-Turn and entry letter instead of a set-up hex."""
    d = unit(uid, nationality, None, type, **kw)
    del d["setup"]
    if turn is not None:
        d.update(turn=turn, entry=entry)
    return d


def board(units, options=None, entry=None, first_turn=1, case=None):
    """A 9x9 GweGame: Russians above row 5 (edge row 1, entry B = 0301 and 0701, where two
    Russian rail lines leave the map), Central Powers below (edge row 9, entry A = 0309 and
    0709)."""
    opts = {k: {"default": v, "help": k} for k, v in {**OPTIONS, **(options or {})}.items()}
    scen = {"game": "gwe", "name": "reinforcement test", "version": 1,
            "first_turn": first_turn, "last_turn": 20, "first_player": "allied"}
    if case:
        scen["case"] = case
    rails = ["0301-0302-0303-0304", "0701-0702-0703-0704",
             "0309-0308-0307-0306-0305", "0709-0708-0707-0706-0705"]
    sc = scenario_from_dicts(
        scenario={"scenario": scen, "options": opts},
        map={"map": {"columns": list(COLS), "rows": list(ROWS)},
             "hexsides": {"start_line": start_line(4, COLS), "rail_single": rails},
             "edges": {"allied": [f"{c:02d}01" for c in range(1, 10)],
                       "central": [f"{c:02d}09" for c in range(1, 10)]},
             "entry": entry or {"A": ["0309", "0709"], "B": ["0301", "0701"]}},
        counters={"unit": units})
    g = GweGame(sc, policies={0: Script(), 1: Script()})
    return g


def segment(g, side, turn, *prefs):
    """Run the side's Reinforcement Segment of ``turn``; return the decisions asked."""
    g.state.turn = np.int16(turn)
    g.policies[side] = pol = Script(*prefs)
    R.reinforcement_segment(g, side)
    return pol.seen


def cell(g, hexid):
    return g.scenario.map.cell(hexid)


def where(g, uid):
    i = g.unit(uid)
    if not g.state.unit_status[i] & Status.ON_MAP:
        return None
    return g.scenario.map.id_of(int(g.state.unit_cell[i]))


def status(g, uid):
    return int(g.state.unit_status[g.unit(uid)])


def depots_on_map(g, side):
    u = g.scenario.units
    return int(((u.side == side) & (u.utype == UnitType.DEPOT)
                & (g.state.unit_status & Status.ON_MAP).astype(bool)).sum())


# ------------------------------------------------------------------------------------------
# 14.1 / 20.1 arrival
# ------------------------------------------------------------------------------------------
def test_14_11_20_11_reinforcements_enter_entrained_at_their_entry_hex():
    g = board([reinf("r", "russian", 3, "B"), unit("x", "russian", "0103")])
    assert segment(g, 0, 2) == [] and status(g, "r") == Status.PENDING       # not yet due
    segment(g, 0, 3)
    r = g.unit("r")
    assert where(g, "r") == "0301"
    assert status(g, "r") == Status.ON_MAP | Status.ENTRAINED                # 14.12, 20.11
    assert int(g.arr("mp_spent")[r]) == 0                                    # 14.11
    assert int(g.arr("rail_used")[0]) == 2 and g.flag(r, Flag.RAIL_COUNTED)  # 18.23, 20.11
    assert not g.flag(r, Flag.USED_RAIL)          # placed, not moved by rail (5.34)
    assert g.state.hex_last[cell(g, "0301")] == 0
    # 14.14: it may move on in the same Movement Phase, by rail or after detraining
    assert {g.scenario.map.id_of(c) for c in rail.rail_moves(g, r)} == {"0302", "0303", "0304"}


def test_20_12_the_owner_picks_any_entry_hex_of_the_letter():
    g = board([reinf("r", "russian", 3, "B")])
    seen = segment(g, 0, 3, ("enter", cell(g, "0701")))
    assert [d.kind for d in seen] == ["gwe.reinforcement.arrive"]
    assert seen[0].options == [("enter", cell(g, "0301")), ("enter", cell(g, "0701")),
                               ("delay",)]                 # Russians never withhold (25.16)
    assert where(g, "r") == "0701"


def test_14_13_several_reinforcements_may_arrive_stacked():
    g = board([reinf("a", "russian", 3, "B"), reinf("b", "russian", 3, "B"),
               reinf("hq", "russian", 3, "B", "hq")])
    segment(g, 0, 3)
    assert where(g, "a") == where(g, "b") == where(g, "hq") == "0301"


def test_14_21_not_in_an_enemy_occupied_or_controlled_entry_hex():
    # the A-H unit at 0401 controls 0301
    g = board([reinf("r", "russian", 3, "B"), unit("ah", "austro_hungarian", "0401")])
    seen = segment(g, 0, 3)
    assert seen[0].options == [("enter", cell(g, "0701")), ("delay",)]
    assert where(g, "r") == "0701"
    g = board([reinf("r", "russian", 3, "B"), unit("ah", "austro_hungarian", "0401"),
               unit("a2", "austro_hungarian", "0701")])
    assert segment(g, 0, 3) == []                  # no choice: delayed (14.22)
    assert status(g, "r") == Status.PENDING and g.flag(g.unit("r"), Flag.ENTRY_BLOCKED)
    # a hex holding only an enemy HQ is occupied by an enemy unit too
    g = board([reinf("r", "russian", 3, "B"), unit("ah", "austro_hungarian", "0401"),
               unit("hq", "austro_hungarian", "0701", "hq")])
    assert segment(g, 0, 3) == [] and status(g, "r") == Status.PENDING


def test_14_22_blocked_entry_hex():
    # single entry hex 0301, controlled by the A-H unit at 0401; the nearest Russian at 0103
    units = [reinf("r", "russian", 3, "B"), unit("ah", "austro_hungarian", "0401"),
             unit("f", "russian", "0103")]
    g = board(units, entry={"A": ["0309"], "B": ["0301"]})
    assert segment(g, 0, 3) == []                  # blocked: delayed one Game-Turn
    assert status(g, "r") == Status.PENDING
    seen = segment(g, 0, 4)                        # next turn: the alternate edge hex
    assert seen[0].options == [("enter", cell(g, "0201")), ("delay",)]
    assert where(g, "r") == "0201"
    assert status(g, "r") == Status.ON_MAP         # no rail there: not entrained, no capacity
    assert int(g.arr("rail_used")[0]) == 0
    assert not g.flag(g.unit("r"), Flag.ENTRY_BLOCKED)
    # with the nearest friendly unit the other way, the alternate lies the other way
    units[2] = unit("f", "russian", "0903")
    g = board(units, entry={"A": ["0309"], "B": ["0301"]})
    segment(g, 0, 3)
    seen = segment(g, 0, 4)
    assert seen[0].options == [("enter", cell(g, "0601")), ("delay",)]
    # and if the scheduled hex is free again, the unit enters there, entrained
    g = board(units, entry={"A": ["0309"], "B": ["0301"]})
    segment(g, 0, 3)
    g.remove("ah")
    segment(g, 0, 4)
    assert where(g, "r") == "0301" and status(g, "r") & Status.ENTRAINED


def test_14_24_reinforcements_may_be_delayed_from_turn_to_turn():
    g = board([reinf("r", "russian", 3, "B")])
    segment(g, 0, 3, ("delay",))
    assert status(g, "r") == Status.PENDING
    segment(g, 0, 4, ("delay",))
    seen = segment(g, 0, 5)
    assert where(g, "r") == "0301" and seen[0].options[-1] == ("delay",)


def test_20_11_rail_capacity_limits_the_arrivals():
    units = [reinf(f"r{i}", "russian", 3, "B") for i in range(4)]
    units += [reinf("hq", "russian", 3, "B", "hq"), unit("x", "russian", "0302")]
    g = board(units)
    seen = segment(g, 0, 3)
    assert [where(g, f"r{i}") for i in range(4)] == ["0301", "0301", "0301", None]
    assert len(seen) == 4                          # r3 could only be delayed: not asked
    assert status(g, "r3") == Status.PENDING
    assert where(g, "hq") == "0301"                # HQs do not count (5.31)
    assert int(g.arr("rail_used")[0]) == 6
    assert not rail.can_entrain(g, g.unit("x"))    # 18.23: nothing left for the others


# ------------------------------------------------------------------------------------------
# 25.16 / 25.2 permanent withholding
# ------------------------------------------------------------------------------------------
def test_25_16_permanently_withheld_reinforcements_cost_the_russians_vp():
    g = board([reinf("c3", "german", 3, "A"), reinf("c5", "german", 5, "A"),
               reinf("c8", "austro_hungarian", 8, "A"),
               reinf("c13", "german", 13, "A")])
    seen = segment(g, 1, 3, ("withhold",), ("delay",))
    assert ("withhold",) not in seen[0].options      # no VP row covers Game-Turn 3
    assert status(g, "c3") == Status.PENDING
    seen = segment(g, 1, 5, ("withhold",))           # c3 (delayed) and c5: 4 each
    assert [d.options[-1] for d in seen] == [("withhold",), ("withhold",)]
    assert status(g, "c3") == status(g, "c5") == Status.WITHHELD
    assert int(g.state.vp) == -8
    assert segment(g, 1, 6, ("withhold",)) == []     # never offered again
    segment(g, 1, 8, ("withhold",))
    assert int(g.state.vp) == -10                    # Game-Turns 8-12: 2
    seen = segment(g, 1, 13, ("withhold",))
    assert ("withhold",) not in seen[0].options and where(g, "c13") == "0309"
    assert int(g.arr("vp_cause")[VP_CAUSES.index("reinforcement_withheld")]) == -10


def test_26_22_attack_on_schedule_every_withheld_unit_costs_4():
    g = board([reinf("c", "german", 13, "A")], first_turn=5, case="26.2")
    assert R.withhold_vp(g.scenario, 13) == -4 and R.withhold_vp(g.scenario, 5) == -4
    segment(g, 1, 13, ("withhold",))
    assert int(g.state.vp) == -4 and status(g, "c") == Status.WITHHELD


# ------------------------------------------------------------------------------------------
# 20.2 supply depots
# ------------------------------------------------------------------------------------------
def depot_board(n_ru=3, n_cp=5, **kw):
    units = [reinf(f"rd{i}", "russian", 9, "B", "depot") for i in range(n_ru)]
    units += [reinf(f"cd{i}", "austro_hungarian", 9, "A", "depot", steps=[[0, 1, 2]])
              for i in range(n_cp)]
    return board(units, **kw)


def test_20_21_depot_arrivals():
    g = depot_board()
    # the turn printed on the blank counters (9) plays no part: 20.21 drives the arrivals
    assert segment(g, 0, 1) == [] and depots_on_map(g, 0) == 0
    assert [d.kind for d in segment(g, 0, 2)] == ["gwe.reinforcement.depot"]
    assert depots_on_map(g, 0) == 1
    assert status(g, "rd0") == Status.ON_MAP | Status.ENTRAINED and where(g, "rd0") == "0301"
    assert int(g.arr("rail_used")[0]) == 2                                # 18.24, 20.11
    assert len(segment(g, 0, 3)) == 1 and depots_on_map(g, 0) == 2        # one a turn (20.22)
    assert len(segment(g, 1, 1)) == 1 and depots_on_map(g, 1) == 1
    assert len(segment(g, 1, 2)) == 1 and depots_on_map(g, 1) == 2
    assert len(segment(g, 1, 3)) == 2 and depots_on_map(g, 1) == 4        # two from turn 3
    assert list(g.arr("depots_received")) == [2, 4]


def test_20_13_depots_may_not_be_delayed_but_may_be_declined():
    g = depot_board()
    seen = segment(g, 0, 2, ("decline",))
    assert seen[0].options == [("enter", cell(g, "0301")), ("enter", cell(g, "0701")),
                               ("decline",)]
    assert depots_on_map(g, 0) == 0
    assert len(segment(g, 0, 3, ("decline",))) == 1      # 20.22: not accumulated
    assert status(g, "rd0") == Status.PENDING            # the counter stays in the pool


def test_20_22_a_depot_with_every_entry_hex_blocked_is_not_received():
    g = depot_board()
    g.place("cd0", "0401")                               # controls 0301
    g.place("cd1", "0701")
    assert segment(g, 0, 2) == [] and depots_on_map(g, 0) == 0
    assert not g.flag(g.unit("rd0"), Flag.ENTRY_BLOCKED)
    g.remove("cd1")
    assert len(segment(g, 0, 3)) == 1 and depots_on_map(g, 0) == 1


def test_20_23_depots_on_the_map_are_capped():
    units = [unit(f"rs{i}", "russian", f"0{1 + i % 9}0{2 + i // 9}", "depot") for i in range(10)]
    units += [reinf(f"rd{i}", "russian", 9, "B", "depot") for i in range(2)]
    g = board(units)
    assert len(segment(g, 0, 2)) == 1 and depots_on_map(g, 0) == 11
    assert segment(g, 0, 3) == [] and depots_on_map(g, 0) == 11
    assert status(g, "rd1") == Status.PENDING


def test_19_21_burned_up_depots_come_back_as_new_arrivals():
    g = board([unit("d", "russian", "0103", "depot")])
    eliminate(g, g.unit("d"), "massed_artillery")
    assert status(g, "d") == Status.ELIMINATED
    segment(g, 0, 2)
    assert where(g, "d") == "0301" and status(g, "d") == Status.ON_MAP | Status.ENTRAINED
    assert int(g.state.unit_step[g.unit("d")]) == 0
    # a depot taken out of play without elimination (19.21) comes back the same way; fresh
    # counters come first
    g = board([unit("d", "russian", "0103", "depot"), reinf("d2", "russian", 9, "B", "depot")])
    g.remove("d")
    segment(g, 0, 2)
    assert where(g, "d2") == "0301" and status(g, "d") == Status.NOT_IN_PLAY
    segment(g, 0, 3)
    assert where(g, "d") == "0301"


def test_26_23_attack_on_schedule_depot_schedule():
    g = depot_board(first_turn=5, case="26.2")
    assert segment(g, 0, 5) == []
    assert len(segment(g, 0, 6)) == 1
    assert len(segment(g, 1, 5)) == 1 and len(segment(g, 1, 6)) == 1
    assert len(segment(g, 1, 7)) == 2
    assert R.depot_schedule(g.scenario, 0, 18) == (1, 1, 11)


def test_26_33_more_supply_rail_brings_two_russian_depots_a_turn():
    g = depot_board(options={"more_supply_rail": True})
    assert segment(g, 0, 1) == []
    assert len(segment(g, 0, 2)) == 2 and depots_on_map(g, 0) == 2
    assert R.depot_schedule(g.scenario, 0, 2) == (2, 2, 11)
    assert R.depot_schedule(g.scenario, 1, 2) == (1, 2, 10)        # Central Powers unchanged


# ------------------------------------------------------------------------------------------
# 26.3 scenario variations
# ------------------------------------------------------------------------------------------
def test_26_32_west_front_delays_central_powers_reinforcements():
    units = [reinf("c", "german", 3, "A"), reinf("r", "russian", 3, "B"),
             reinf("cd", "austro_hungarian", 9, "A", "depot")]
    g = board(units, options={"west_front": True})
    assert segment(g, 1, 1) == []                  # the depot of turn 1 comes on turn 2 (20.21)
    assert len(segment(g, 1, 2)) == 1
    segment(g, 0, 3)
    segment(g, 1, 3)
    assert where(g, "r") == "0301" and status(g, "c") == Status.PENDING
    segment(g, 1, 4)
    assert where(g, "c") == "0309"
    g = board(units)
    segment(g, 1, 3)
    assert where(g, "c") == "0309"


def test_item_17_west_front_delays_the_central_powers_depots_too():
    """26.32 delays "all Central Powers reinforcements", and 20.21 gives each side its depots
    "as a reinforcement": the Central Powers depot schedule moves one Game-Turn later (in
    Attack on Schedule too, 26.23); the Russian one does not move."""
    on, off = (depot_board(options={"west_front": w}) for w in (True, False))
    assert [R.depot_schedule(on.scenario, 1, t)[0] for t in range(1, 6)] == [0, 1, 1, 2, 2]
    assert [R.depot_schedule(off.scenario, 1, t)[0] for t in range(1, 6)] == [1, 1, 2, 2, 2]
    assert ([R.depot_schedule(on.scenario, 0, t)[0] for t in range(1, 6)]
            == [R.depot_schedule(off.scenario, 0, t)[0] for t in range(1, 6)] == [0, 1, 1, 1, 1])
    g = depot_board(first_turn=5, case="26.2", options={"west_front": True})
    assert [R.depot_schedule(g.scenario, 1, t)[0] for t in range(5, 10)] == [0, 1, 1, 2, 2]
    assert segment(g, 1, 5) == [] and len(segment(g, 1, 6)) == 1
    assert len(segment(g, 1, 7)) == 1 and len(segment(g, 1, 8)) == 2
    # the rule change is a change of the game: the scenarios that offer the option say so
    for key in ("brusilov/historical", "brusilov/attack_on_schedule"):
        assert load_scenario(key).version == 2, key


def sga_units():
    return [reinf("gd", "russian", None, None, size="corps", option="sga_early"),
            reinf("gbz", "russian", None, None, "hq", option="sga_early", army="Guards"),
            reinf("ggu", "russian", None, None, "hq", option=["better_commanders", "sga_early"],
                  army="Guards"),
            reinf("r", "russian", 9, "B")]


def test_26_31_sga_early_brings_the_sga_units_on_turn_6():
    g = board(sga_units(), options={"sga_early": True})
    assert segment(g, 0, 5) == [] and status(g, "gd") == Status.PENDING
    seen = segment(g, 0, 6)
    assert seen[0].options[0] == ("enter", cell(g, "0301"))    # the Russian letter, B
    assert where(g, "gd") == "0301" and where(g, "gbz") == "0301"
    assert int(g.arr("rail_used")[0]) == 4                     # a corps: 4 Stacking Points
    assert status(g, "ggu") == Status.NOT_IN_PLAY
    g = board(sga_units())
    assert status(g, "gd") == Status.NOT_IN_PLAY
    assert segment(g, 0, 6) == [] and status(g, "gd") == Status.NOT_IN_PLAY


def test_26_34_ggu_replaces_gbz():
    g = board(sga_units(), options={"sga_early": True, "better_commanders": True})
    segment(g, 0, 6)
    assert where(g, "ggu") == "0301"
    assert status(g, "gbz") == Status.NOT_IN_PLAY


# ------------------------------------------------------------------------------------------
# the bundled schedules, played by random policies
# ------------------------------------------------------------------------------------------
def test_20_0_the_bundled_schedules_play_legally():
    for key, opts in (("brusilov/historical", {}),
                      ("brusilov/attack_on_schedule", {"sga_early": True,
                                                       "better_commanders": True}),
                      ("brusilov/historical", {"more_supply_rail": True}),
                      ("brusilov/historical", {"west_front": True})):
        sc = load_scenario(key, opts)
        g = GweGame(sc, seed=5)
        u = sc.units
        due = R.due_turns(sc)
        vp0 = int(g.state.vp)
        for t in range(sc.first_turn, sc.last_turn + 1):
            g.state.turn = np.int16(t)
            for side in (0, 1):
                R.reinforcement_segment(g, side)
                for i in np.flatnonzero((g.state.unit_status & Status.ENTRAINED).astype(bool)
                                        & (u.side == side)):
                    moves = rail.rail_moves(g, int(i))
                    if moves:
                        rail.move_by_rail(g, int(i), max(moves, key=moves.get))
                rail.end_rail_movement(g, side)
                assert 0 <= int(g.arr("rail_used")[side]) <= rail.rail_capacity(sc, side)
                assert depots_on_map(g, side) <= R.depot_schedule(sc, side, t)[2]
        st = g.state.unit_status
        # every scheduled unit is on the map, still waiting, withheld or (GBZ) replaced
        for i in np.flatnonzero((due >= 0) & (due <= sc.last_turn)):
            assert st[i] & (Status.ON_MAP | Status.PENDING | Status.WITHHELD
                            | Status.NOT_IN_PLAY), u.ids[i]
        withheld = int((st & Status.WITHHELD).astype(bool).sum())
        vp = int(g.state.vp) - vp0
        assert vp == int(g.arr("vp_cause")[VP_CAUSES.index("reinforcement_withheld")])
        assert (withheld == 0) == (vp == 0)
        assert not (st[u.side == 0] & Status.WITHHELD).any()    # Russians never withhold
