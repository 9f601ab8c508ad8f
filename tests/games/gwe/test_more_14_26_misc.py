"""Cases 14.23 (off-map option of blocked reinforcements), 18.32 (the track record of a
Movement Phase), 19.22 (massed artillery range), 24.12 (armored car shift), 25.14-25.15
(victory points as they happen, negative totals) and the historical scenario's 26.11-26.12,
through the engine's segments, ``combat.combat_phase`` and ``engine.play`` with scripted
policies and forced dice."""

import tomllib

import numpy as np
import pytest
from combat_positions import Script, board, cell, combats, start_line, unit, where

from gwe_fast import load_scenario, scenario_from_dicts
from gwe_fast.enums import Side, UnitType
from gwe_fast.games.gwe import combat, engine, rail, victory
from gwe_fast.games.gwe import reinforcements as R
from gwe_fast.games.gwe.game import VP_CAUSES, Flag, GweGame
from gwe_fast.scenario.loader import DATA_DIR
from gwe_fast.state import Status


def gwe(units, cols, rows, hexsides, edges, entry=None, options=None, first_turn=1,
        last_turn=20, first_player="allied", initial_vp=0, allied=None, central=None):
    """A GweGame on a hand-built map with scripted policies (``g.allied``, ``g.central``)."""
    opts = {k: {"default": v, "help": k} for k, v in (options or {}).items()}
    m = {"map": {"columns": list(cols), "rows": list(rows)}, "hexsides": hexsides,
         "edges": edges}
    if entry:
        m["entry"] = entry
    sc = scenario_from_dicts(
        scenario={"scenario": {"game": "gwe", "name": "test", "version": 1,
                               "first_turn": first_turn, "last_turn": last_turn,
                               "first_player": first_player, "initial_vp": initial_vp},
                  "options": opts},
        map=m, counters={"unit": units})
    allied, central = allied or Script(), central or Script()
    g = GweGame(sc, seed=0, policies={0: allied, 1: central}, events=True)
    g.allied, g.central = allied, central
    return g


def reinf(uid, nationality, turn, entry, type="infantry", **kw):
    d = unit(uid, nationality, None, type, **kw)
    del d["setup"]
    d.update(turn=turn, entry=entry)
    return d


def entry_board(units, **kw):
    """9 x 9: Russians above row 5 (edge row 1), Central Powers below (edge row 9, entry A =
    0309 and 0709, where two Central Powers rail lines leave the map)."""
    cols = rows = (1, 9)
    rails = ["0301-0302-0303-0304", "0701-0702-0703-0704",
             "0309-0308-0307-0306-0305", "0709-0708-0707-0706-0705"]
    return gwe(units, cols, rows, {"start_line": start_line(4, cols), "rail_single": rails},
               {"allied": [f"{c:02d}01" for c in range(1, 10)],
                "central": [f"{c:02d}09" for c in range(1, 10)]},
               entry={"A": ["0309", "0709"], "B": ["0301", "0701"]}, **kw)


def kinds(options):
    return {o[0] for o in options}


# ------------------------------------------------------------------------------------------
# 14.23
# ------------------------------------------------------------------------------------------
def test_14_23_no_off_map_option_for_a_blocked_entrained_reinforcement():
    # Russians next to both hexes of entry A block it (14.21); the Brusilov rules link no rail
    # exit, so the German is offered the delay (and withholding), never Off-Map Movement
    units = [reinf("ge", "german", 5, "A", steps=[[4, 6, 5], [2, 4, 5]]),
             unit("x", "german", "0507"), unit("ghq", "german", "0508", "hq"),
             unit("b1", "russian", "0308"), unit("b2", "russian", "0708")]
    g = entry_board(units)
    ge = g.unit("ge")
    g.state.turn = np.int16(5)
    R.reinforcement_segment(g, 1)
    (first,) = g.central.options("gwe.reinforcement.arrive")
    assert first == [("delay",), ("withhold",)]
    assert g.state.unit_status[ge] == Status.PENDING and g.flag(ge, Flag.ENTRY_BLOCKED)
    g.state.turn = np.int16(6)
    R.reinforcement_segment(g, 1)
    _, second = g.central.options("gwe.reinforcement.arrive")
    assert kinds(second) == {"enter", "delay", "withhold"}
    edge = {g.scenario.map.cell(f"{c:02d}09") for c in range(1, 10)}
    entered = [o[1] for o in second if o[0] == "enter"]
    assert entered and set(entered) <= edge                  # an alternate map-edge hex
    assert where(g, "ge") == g.scenario.map.id_of(entered[0])
    # and the bundled map has no exit hexes for off-map movement (5.37)
    assert len(load_scenario("brusilov/historical").edges.get("exit", ())) == 0


# ------------------------------------------------------------------------------------------
# 18.32
# ------------------------------------------------------------------------------------------
def rail_board(units):
    """12 x 9 with track limits: a Russian single-track line along row 2 (linked to the edge
    at 0101), a Central Powers one along row 8."""
    cols, rows = (1, 12), (1, 9)

    def row(r):
        return "-".join(f"{c:02d}{r:02d}" for c in range(1, 13))
    return gwe(units, cols, rows,
               {"start_line": start_line(4, cols),
                "rail_single": [row(2), row(8), "0101-0102", "0109-0108"]},
               {"allied": [f"{c:02d}01" for c in range(1, 13)],
                "central": [f"{c:02d}09" for c in range(1, 13)]},
               options={"track_limits": True})


def test_18_32_the_track_used_is_recorded_per_hexside_for_the_movement_phase():
    g = rail_board([unit("a", "russian", "0102"), unit("b", "russian", "0102"),
                    unit("c", "russian", "0602"), unit("rhq", "russian", "0302", "hq"),
                    unit("ge", "german", "1108", steps=[[4, 6, 5]]),
                    unit("ghq", "german", "1208", "hq")])
    a, b, c = g.unit("a"), g.unit("b"), g.unit("c")
    g.state.turn = np.int16(2)
    m = g.scenario.map
    rail.entrain(g, a)
    rail.move_by_rail(g, a, cell(g, "0502"))               # 2 points over 4 hexsides
    used = g.arr("track_used")
    for x, y in (("0102", "0202"), ("0202", "0302"), ("0302", "0402"), ("0402", "0502")):
        assert used[cell(g, x), m.direction(x, y), 0] == 2
        assert used[cell(g, y), m.direction(y, x), 0] == 2
    assert int(used.sum()) == 2 * 2 * 4                     # nothing else is marked
    # the Russian single track is full there for the rest of the phase, not elsewhere
    assert rail.rail_moves(g, b) == {cell(g, "0101"): 1}  # only the spur to the edge
    moves = rail.rail_moves(g, c)
    assert cell(g, "0502") in moves and cell(g, "1202") in moves
    assert cell(g, "0402") not in moves
    # the next Movement Phase starts a new record
    engine.movement_phase(g, 1)
    assert not g.arr("track_used").any()
    g.state.turn = np.int16(3)
    g.allied.add("gwe.move.unit", b)
    g.allied.add("gwe.move.action", ("entrain",), ("rail", cell(g, "0502")), ("stop",))
    engine.movement_phase(g, 0)
    assert where(g, "b") == "0502"
    used = g.arr("track_used")
    assert used[cell(g, "0102"), m.direction("0102", "0202"), 0] == 2
    assert int(used.sum()) == 2 * 2 * 4


# ------------------------------------------------------------------------------------------
# 19.22
# ------------------------------------------------------------------------------------------
def test_19_22_only_attackers_within_three_hexes_of_the_depot_benefit():
    # the depot in 0401 is three hexes from r1 (0504), four from r2 (0604); two blocked
    # hexsides make every path to r1 four hexes long, but "within three hexes" is a range
    g = board([unit("r1", "russian", "0504", steps=[[3, 4, 4]]),
               unit("r2", "russian", "0604", steps=[[3, 4, 4]]),
               unit("dep", "russian", "0401", "depot"), unit("far", "russian", "0101", "depot"),
               unit("ge", "german", "0505", steps=[[1, 3, 5]])],
              hexsides={"blocked": ["0401-0402", "0401-0502"]})
    m = g.scenario.map
    assert (m.distance("0401", "0504"), m.distance("0401", "0604")) == (3, 4)
    assert min(m.distance("0101", h) for h in ("0504", "0604")) > 3
    r1, r2, dep = g.unit("r1"), g.unit("r2"), g.unit("dep")
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.allied.add("gwe.combat.attack", ("unit", r1), ("unit", r2), "done")
    g.allied.add("gwe.combat.massed_artillery", dep)
    g.central.add("gwe.combat.option", "retreat_1")
    g.dice.force("combat", [6])
    combat.combat_phase(g, 0)
    assert g.allied.options("gwe.combat.massed_artillery") == [["none", dep]]   # not "far"
    (ev,) = combats(g)
    assert ev["attack"] == "9" and ev["odds"] == "3-1"     # r1 doubled (6), r2 not (3)
    assert where(g, "dep") == "off" and where(g, "far") == "0101"
    # an attack with only r2 (four hexes away) is offered no depot at all
    g = board([unit("r2", "russian", "0604", steps=[[3, 4, 4]]),
               unit("dep", "russian", "0401", "depot"),
               unit("ge", "german", "0505", steps=[[1, 3, 5]])])
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.central.add("gwe.combat.option", "retreat_1")
    g.dice.force("combat", [6])
    combat.combat_phase(g, 0)
    assert g.allied.options("gwe.combat.massed_artillery") == []
    assert combats(g)[0]["attack"] == "3" and where(g, "dep") == "0401"


# ------------------------------------------------------------------------------------------
# 24.12
# ------------------------------------------------------------------------------------------
def test_24_12_the_car_shifts_only_with_two_russian_units_participating():
    def attack(with_):
        g = board([unit("car", "russian", "0504", "armored_car", size="none"),
                   unit("r", "russian", "0504", steps=[[1, 4, 4]]),
                   unit("r2", "russian", "0404", steps=[[1, 4, 4]]),
                   unit("ge", "german", "0505", steps=[[1, 1, 5]])])
        g.allied.add("gwe.combat.declare", cell(g, "0505"))
        g.allied.add("gwe.combat.attack", *[("unit", g.unit(x)) for x in with_], "done")
        g.dice.force("combat", [1])
        combat.combat_phase(g, 0)
        (ev,) = combats(g)
        return ev["attack"], ev["odds"]
    # the car alone, its stack-mate standing by: 1 to 1, no shift
    assert attack(["car"]) == ("1", "1-1")
    # the car and one other Russian unit: 2 to 1 is 2-1, shifted to 3-1
    assert attack(["car", "r"]) == ("2", "3-1")
    assert attack(["car", "r2"]) == ("2", "3-1")
    # two Russian units without the car: no shift
    assert attack(["r", "r2"]) == ("2", "2-1")


# ------------------------------------------------------------------------------------------
# 25.14
# ------------------------------------------------------------------------------------------
def test_25_14_central_powers_gains_reduce_the_russian_total_as_they_happen():
    g = board([unit("r1", "russian", "0504", steps=[[1, 1, 4]]),
               unit("r2", "russian", "0304", steps=[[1, 1, 4]]),
               unit("g1", "german", "0505", steps=[[8, 4, 5]]),
               unit("g2", "german", "0305", steps=[[8, 4, 5]])])
    seen = []

    def second(options):                 # the next declaration, after the first combat
        seen.append(int(g.state.vp))
        return cell(g, "0304")
    g.central.add("gwe.combat.declare", cell(g, "0504"), second, "stop")
    g.dice.force("combat", [1, 1])                         # 8 to 1: 5-1 (TCR 1), die 1: -/E
    combat.combat_phase(g, 1)
    assert [e["result"] for e in combats(g)] == ["-/E", "-/E"]
    assert seen == [-2]                                    # already down when the next begins
    assert int(g.state.vp) == -4
    assert int(g.arr("vp_cause")[VP_CAUSES.index("russian_stacking_point_eliminated")]) == -4
    # a reinforcement permanently withheld costs its points in the Reinforcement Segment,
    # before the Movement Segment that follows it
    units = [reinf("w", "german", 5, "A", steps=[[4, 6, 5], [2, 4, 5]]),
             unit("x", "german", "0507"), unit("ghq", "german", "0508", "hq"),
             unit("rr", "russian", "0302")]
    g = entry_board(units)
    g.state.turn = np.int16(5)
    moving = []
    g.central.add("gwe.reinforcement.arrive", ("withhold",))
    g.central.add("gwe.move.unit", lambda o: (moving.append(int(g.state.vp)), -1)[1])
    engine.movement_phase(g, 1)
    assert moving == [-4] and g.state.unit_status[g.unit("w")] == Status.WITHHELD


# ------------------------------------------------------------------------------------------
# 25.15
# ------------------------------------------------------------------------------------------
def test_25_15_the_total_may_be_negative_and_a_scenario_may_start_below_zero():
    sc = load_scenario("brusilov/attack_on_schedule")
    g = GweGame(sc)
    assert sc.initial_vp == -8 and int(g.state.vp) == -8
    assert int(g.arr("vp_cause")[VP_CAUSES.index("initial")]) == -8
    assert victory.level(g) == "central_powers_decisive"
    # a one-turn game from -3 in which the Germans destroy a Russian division (-2): -5
    units = [unit("ge", "german", "0105", steps=[[8, 4, 5]]), unit("ghq", "german", "0106", "hq"),
             unit("r", "russian", "0104", steps=[[1, 1, 4]]), unit("rhq", "russian", "0101", "hq")]
    g = gwe(units, (1, 1), (1, 8), {"start_line": ["0104-0105"],
                                    "rail_single": ["0101-0102", "0107-0108"]},
            {"allied": ["0101"], "central": ["0108"]}, last_turn=1, first_player="central",
            initial_vp=-3)
    g.central.add("gwe.combat.declare", cell(g, "0104"))
    g.dice.force("combat", [1])                            # 8 to 1: 5-1, die 1: -/E
    result = engine.play(g)
    assert where(g, "r") == "elim"
    assert result.vp == -5 and int(g.state.vp) == -5
    assert result.level == "central_powers_decisive"
    assert [row["vp"] for row in result.per_turn] == [-5, -5]
    assert victory.vp_is_consistent(g)


# ------------------------------------------------------------------------------------------
# 26.11, 26.12
# ------------------------------------------------------------------------------------------
def printed_turns():
    """{unit id: turn} as printed on the Brusilov counters (counters.toml), depots aside."""
    data = tomllib.loads((DATA_DIR / "brusilov" / "counters.toml").read_text())
    return {u["id"]: u["turn"] for u in data["unit"]
            if "turn" in u and u["type"] != "depot" and not u.get("option")}


def test_26_11_reinforcements_arrive_on_the_turn_printed_on_the_counters():
    sc = load_scenario("brusilov/historical")
    printed = printed_turns()
    assert printed                                         # there are reinforcements
    g = GweGame(sc)
    ids = sc.units.ids
    due_before = {0: set(), 1: set()}
    for turn in range(sc.first_turn, sc.last_turn + 1):
        g.state.turn = np.int16(turn)
        for side in (Side.ALLIED, Side.CENTRAL):
            due = {ids[i] for i in R.due_units(g, side)}
            new = due - due_before[side]
            assert new == {k for k, t in printed.items()
                           if t == turn and sc.units.side[sc.units.index(k)] == side}, turn
            due_before[side] = due
    # and the segment offers exactly those units on their turn (all delayed here)
    delay = Script(default=lambda kind, options: next(
        (i for i, o in enumerate(options) if o in (("delay",), ("decline",))), 0))
    g = GweGame(sc, policies={0: delay, 1: Script()}, events=True)
    g.state.turn = np.int16(3)
    R.reinforcement_segment(g, Side.ALLIED)
    offered = {ids[e[2]["unit"]] for e in g.events if e[0] in ("delayed", "reinforcement")
               and sc.units.utype[e[2]["unit"]] != UnitType.DEPOT}
    assert offered == {k for k, t in printed.items()
                       if t == 3 and sc.units.side[sc.units.index(k)] == Side.ALLIED}
    assert len(offered) == 3


class _Stop(Exception):
    pass


def test_26_12_the_historical_game_starts_at_0_vp():
    sc = load_scenario("brusilov/historical")
    assert sc.initial_vp == 0
    g = GweGame(sc, seed=1)
    assert int(g.state.vp) == 0 and not g.arr("vp_cause").any()
    first = []

    def check(game, phase):              # stop after the first phase of Game-Turn 1
        first.append((int(game.state.turn), phase, int(game.state.vp)))
        raise _Stop
    with pytest.raises(_Stop):
        engine.play(g, check=check)
    assert first == [(1, "movement", 0)]        # 18.1: only HQs move; nothing has scored
    # the other scenario of the game starts elsewhere (26.25), so the 0 is the scenario's
    assert load_scenario("brusilov/attack_on_schedule").initial_vp == -8
