"""Movement cases 5.11, 5.15, 5.16, 5.22 and zones of control 7.25, played through the engine
(``engine.movement_phase``, ``engine.move_one_unit``, ``engine.play``) and its search
functions on tiny hand-built positions with scripted policies.

The board of ``combat_positions.board``: Russians on rows 1-4, Central Powers on rows 5-8, the
start line between rows 4 and 5, a friendly rail line along each side's map edge (row 1, row
8), so that units near their own edge are in supply.
"""

import numpy as np
from combat_positions import Script, board, cell, hexid, unit, where

from gwe_fast import scenario_from_dicts
from gwe_fast.games.gwe import combat, engine, rail, stacking, zoc
from gwe_fast.games.gwe.game import VP_CAUSES, Flag, GweGame
from gwe_fast.games.gwe.movement import reachable, routes, step_costs
from gwe_fast.state import Status


def reach(g, uid, spent=0):
    """{hex id: Movement Points} of the hexes a unit can reach."""
    d = reachable(g.scenario, g.state, g.unit(uid), spent=spent)
    m = g.scenario.map
    return {m.id_of(c): int(d[c]) for c in np.flatnonzero(d >= 0)}


def move_kinds(script):
    return [k for k, _, _ in script.asked if k.startswith("gwe.move")]


# ------------------------------------------------------------------------------------------
# 5.11
# ------------------------------------------------------------------------------------------
def test_5_11_units_move_only_in_their_own_movement_phase():
    g = board([unit("r", "russian", "0403"), unit("rhq", "russian", "0402", "hq"),
               unit("ge", "german", "0606", steps=[[2, 4, 5]]),
               unit("ghq", "german", "0607", "hq")])
    r, ge = g.unit("r"), g.unit("ge")
    g.allied.add("gwe.move.unit", r)
    g.allied.add("gwe.move.action", ("move", cell(g, "0303")), ("stop",))
    engine.movement_phase(g, 0)
    assert where(g, "r") == "0303" and int(g.arr("mp_spent")[r]) == 1
    assert move_kinds(g.central) == []                  # never asked to move in the Russian phase
    assert where(g, "ge") == "0606" and int(g.arr("mp_spent")[ge]) == 0
    # only the Russians' own units were offered
    (first, *_) = g.allied.options("gwe.move.unit")
    assert set(first) == {-1, r, g.unit("rhq")}
    # the Central Powers move in theirs, and only their units are offered
    asked_allied = len(move_kinds(g.allied))
    g.central.add("gwe.move.unit", ge)
    g.central.add("gwe.move.action", ("move", cell(g, "0706")), ("stop",))
    engine.movement_phase(g, 1)
    assert len(move_kinds(g.allied)) == asked_allied
    assert set(g.central.options("gwe.move.unit")[0]) == {-1, ge, g.unit("ghq")}
    assert where(g, "ge") == "0706" and where(g, "r") == "0303"


def test_5_11_retreats_and_advances_are_not_movement_and_spend_no_movement_points():
    # the German has a Movement Allowance of 1 and retreats two rough hexes (2 MP each): a
    # retreat is no move; the Russian advances after combat without spending anything either
    rough = [f"{c:02d}{r:02d}" for c in range(3, 8) for r in (6, 7)]
    g = board([unit("r", "russian", "0504", steps=[[8, 4, 4]]),
               unit("ge", "german", "0505", steps=[[1, 4, 1]])], terrain={"rough": rough})
    r, ge = g.unit("r"), g.unit("ge")
    assert set(reach(g, "ge")) == {"0505", "0604", "0605", "0506", "0405", "0404"}  # 5.17
    g.central.add("gwe.combat.option", "retreat_2")
    g.allied.add("gwe.combat.declare", cell(g, "0505"), "stop")
    g.allied.add("gwe.combat.attack", ("unit", r), "done")
    g.allied.add("gwe.combat.advance", (r, cell(g, "0505")))
    g.dice.force("combat", [1])                          # 8 to 4: 2-1, die 1: -/2
    combat.combat_phase(g, 0)
    assert where(g, "ge") == "0507" and where(g, "r") == "0505"
    for x in (r, ge):
        assert int(g.arr("mp_spent")[x]) == 0 and not g.flag(x, Flag.MOVED)
    assert g.flag(r, Flag.ADVANCED) and g.flag(ge, Flag.RETREATED_IN)


# ------------------------------------------------------------------------------------------
# 5.15
# ------------------------------------------------------------------------------------------
def test_5_15_a_unit_may_leave_an_enemy_controlled_hex_even_into_another_paying_all_costs():
    # the Russian (TCR 3, allowance 4) starts next to the A-H unit in 0406; 0506 (forest) and
    # 0306 (clear) are also next to it, 0404 and 0505 are not
    g = board([unit("r", "russian", "0405"), unit("a", "austro_hungarian", "0406")],
              terrain={"forest": ["0506"]})
    r = g.unit("r")
    here = reach(g, "r")
    assert here["0506"] == 2 + 1          # forest 2 plus 1 for the enemy-controlled hex
    assert here["0306"] == 1 + 1
    assert here["0404"] == 1 and here["0505"] == 1      # leaving costs nothing (7.23)
    # through the engine: into the forest (3), then only hexes costing 1 more remain
    g.allied.add("gwe.move.action", ("move", cell(g, "0506")), ("stop",))
    engine.move_one_unit(g, r)
    assert where(g, "r") == "0506" and int(g.arr("mp_spent")[r]) == 3
    _, after = g.allied.options("gwe.move.action")
    offered = {hexid(g, o[1]) for o in after if o[0] == "move"}
    assert offered == {"0505", "0606", "0605"}          # 0507 (clear + zone = 2) is too dear
    dist, _ = routes(g.scenario, g.state, r, spent=3)
    assert dist[cell(g, "0507")] == -1


# ------------------------------------------------------------------------------------------
# 5.16
# ------------------------------------------------------------------------------------------
def test_5_16_only_units_moving_by_rail_benefit_from_rail_lines():
    forest = {"forest": ["0402", "0403", "0404"]}
    line = {"rail_single": ["0401-0402-0403-0404"]}
    units = [unit("r", "russian", "0401")]
    with_rail = board(units, hexsides=line, terrain=forest)
    without = board(units, terrain=forest)
    i = with_rail.unit("r")
    # ordinary movement pays the terrain whether a rail line runs there or not
    assert np.array_equal(step_costs(with_rail.scenario, with_rail.state, i),
                          step_costs(without.scenario, without.state, i))
    assert reach(with_rail, "r") == reach(without, "r")
    assert reach(with_rail, "r")["0403"] == 4 and "0404" not in reach(with_rail, "r")
    # entrained, the same unit runs down the line for no Movement Points
    rail.entrain(with_rail, i)
    assert int(with_rail.arr("mp_spent")[i]) == 3                   # TCR 3 to entrain
    moves = rail.rail_moves(with_rail, i)
    assert moves[cell(with_rail, "0404")] == 3
    rail.move_by_rail(with_rail, i, cell(with_rail, "0404"))
    assert where(with_rail, "r") == "0404" and int(with_rail.arr("mp_spent")[i]) == 3


# ------------------------------------------------------------------------------------------
# 5.22
# ------------------------------------------------------------------------------------------
def corridor(units, first_player="central", initial_vp=0, allied=None, central=None):
    """A one-column map 0101-0108 (every move runs down the column): Russians above the start
    line (rows 1-4, edge and rail at 0101-0102), Central Powers below (edge and rail at
    0107-0108). One Game-Turn."""
    sc = scenario_from_dicts(
        scenario={"scenario": {"game": "gwe", "name": "corridor", "version": 1,
                               "first_turn": 1, "last_turn": 1, "first_player": first_player,
                               "initial_vp": initial_vp}},
        map={"map": {"columns": [1, 1], "rows": [1, 8]},
             "hexsides": {"start_line": ["0104-0105"],
                          "rail_single": ["0101-0102", "0107-0108"]},
             "edges": {"allied": ["0101"], "central": ["0108"]}},
        counters={"unit": units})
    allied, central = allied or Script(), central or Script()
    g = GweGame(sc, seed=0, policies={0: allied, 1: central}, events=True)
    g.allied, g.central = allied, central
    return g


def test_5_22_units_pass_through_and_may_overstack_within_the_phase_only_its_end_counts():
    full = [unit(f"f{i}", "german", "0106", steps=[[1, 2, 5]]) for i in range(4)]   # 8 points
    units = full + [unit("m1", "german", "0105", steps=[[1, 2, 5]]),
                    unit("m2", "german", "0105", steps=[[1, 2, 5]]),
                    unit("n", "german", "0105", steps=[[1, 2, 5]]),
                    unit("ghq", "german", "0107", "hq", command_strength=20),
                    unit("r", "russian", "0101"), unit("rhq", "russian", "0101", "hq")]
    g = corridor(units)
    m1, m2, n, f0 = g.unit("m1"), g.unit("m2"), g.unit("n"), g.unit("f0")
    c6 = cell(g, "0106")
    inside: list[tuple] = []

    def stop(options):                   # the last question of the Movement Segment
        gone = int((g.state.unit_status & Status.ELIMINATED).astype(bool).sum())
        inside.append((int(stacking.stacking_points(g, 1)[c6]), gone))
        return -1
    g.central.add("gwe.move.unit", m1, m2, n, stop)
    g.central.add("gwe.move.action", ("move", cell(g, "0107")), ("stop",),
                  ("move", cell(g, "0108")), ("stop",), ("move", c6), ("stop",))
    g.central.add("gwe.stacking.eliminate", f0)
    ends: list[tuple] = []

    def check(game, phase):
        if not ends:                     # the end of the Central Powers Movement Phase
            ends.append((phase, int(stacking.stacking_points(game, 1)[c6]),
                         stacking.stacking_violations(game)))
    engine.play(g, check=check)
    # two units passed through the full hex, a third stopped there: 10 points in the segment
    assert where(g, "m1") == "0107" and where(g, "m2") == "0108"
    assert inside == [(10, 0)]
    # at the end of the phase the owner's choice goes (6.14): within the limit again
    assert ends == [("movement", 8, [])]
    assert where(g, "f0") == "elim" and where(g, "n") == "0106"
    assert g.arr("sp_lost")[1].sum() == 2 and int(g.state.vp) == 2
    assert all(where(g, x) != "elim" for x in ("m1", "m2", "n", "f1", "f2", "f3"))
    assert int(g.arr("vp_cause")[VP_CAUSES.index("central_powers_stacking_point_eliminated")]) == 2


# ------------------------------------------------------------------------------------------
# 7.25
# ------------------------------------------------------------------------------------------
def test_7_25_both_zones_coexist_and_more_than_one_unit_adds_nothing():
    # 0404 is next to the Russian in 0304 and to the A-H units in 0505 and 0405
    units = [unit("r", "russian", "0304"), unit("m", "russian", "0403"),
             unit("a", "austro_hungarian", "0505"), unit("a2", "austro_hungarian", "0405")]
    g = board(units)
    c = cell(g, "0404")
    assert zoc.controlled(g.scenario, g.state, 0)[c] and zoc.controlled(g.scenario, g.state, 1)[c]
    # a Russian pays one more to enter, however many enemy units control it, and his own
    # side's zone there changes nothing; the same for an A-H unit entering it
    assert reach(g, "m")["0404"] == 2
    assert reach(g, "a")["0404"] == 2
    alone = board([units[1], units[2]])                  # one enemy unit, no Russian zone
    assert reach(alone, "m")["0404"] == 2
    m_here = cell(g, "0403")
    d = list(g.scenario.map.neighbors[m_here]).index(c)
    assert int(step_costs(g.scenario, g.state, g.unit("m"))[m_here, d]) == 2


def test_7_25_a_mutually_controlled_hex_is_still_closed_to_a_tcr_2_to_4_retreat():
    # the Russians in 0504, 0606 and 0406 control every hex around 0505; the A-H unit there
    # controls them too, which does not open them to its retreat (7.24: friendly zones of
    # control never negate, only friendly units do)
    ring = [unit("r", "russian", "0504", steps=[[6, 4, 4], [3, 2, 4]]),
            unit("e", "russian", "0606"), unit("e2", "russian", "0406"),
            unit("d", "austro_hungarian", "0505", steps=[[1, 2, 4], [1, 1, 4]]),
            unit("hq", "austro_hungarian", "0505", "hq")]

    def run(extra):
        g = board(ring + extra)
        g.central.add("gwe.combat.option", "lose_half_and_retreat_1")
        g.allied.add("gwe.combat.declare", cell(g, "0505"), "stop")
        g.allied.add("gwe.combat.attack", ("unit", g.unit("r")), "done")
        g.dice.force("combat", [1])             # 6 to 3 (the HQ adds 1): 2-1, die 1: -/2
        combat.combat_phase(g, 0)
        return g
    g = board(ring)
    around = [c for c in g.scenario.map.neighbors[cell(g, "0505")] if c != cell(g, "0504")]
    mine = zoc.controlled(g.scenario, g.state, 1)[around]
    theirs = zoc.controlled(g.scenario, g.state, 0)[around]
    assert len(around) == 5 and mine.all() and theirs.all()     # 0504: the attacker's hex
    g = run([])
    assert where(g, "d") == "elim" and where(g, "hq") == "elim"
    assert g.central.options("gwe.combat.retreat") == []
    # a friendly unit in 0506 (not a friendly zone) opens that hex (7.24)
    g = run([unit("f", "austro_hungarian", "0506")])
    assert where(g, "d") == where(g, "hq") == "0506"
    assert g.state.unit_step[g.unit("d")] == 1
    assert g.state.unit_status[g.unit("d")] & Status.ON_MAP
