"""The Kaiser's Battle 20.0 Victory Conditions: 20.1 how the German player gains and loses
Victory Points, 20.2 exiting the map, 20.3 the levels of victory."""

from __future__ import annotations

import numpy as np
import pytest

from kb_positions import Scripted, kb_empty_game, kb_hexes, kb_put
from gwe_fast.enums import Side
from gwe_fast.games.kb import engine, movement, units, victory
from gwe_fast.games.kb.game import VP_CAUSES
from gwe_fast.state import Status

FIRST, SECOND = movement.FIRST, movement.SECOND
REG = "ge-iii-15-13-gyl"      # 10-3-3
DIV = "ge-xx-88-3"            # 30-4-5
GHQ = "ge-hq-3"
BN = "br-ii-5gh-61-18"
BN2 = "br-ii-4ob-61-18"


def cell(g, h):
    return g.scenario.map.cell(h)


def vp(g, cause):
    return int(g.arr("vp_cause")[VP_CAUSES.index(cause)])


def test_20_0_the_game_ends_with_game_turn_10():
    g = kb_empty_game()
    assert (g.scenario.first_turn, g.scenario.last_turn) == (1, 10)


# --- 20.11 towns ---------------------------------------------------------------------------

def test_20_11_towns_west_of_the_line_held_or_last_passed_through():
    g = kb_empty_game()
    d = g.data
    assert d.town[cell(g, "0713")] and d.west_of_vp_line[cell(g, "0713")]
    assert d.town[cell(g, "1509")] and d.west_of_vp_line[cell(g, "1509")]
    assert d.town[cell(g, "4202")] and not d.west_of_vp_line[cell(g, "4202")]
    kb_put(g, REG, "0713")                                   # occupied
    kb_put(g, DIV, "4202")                                   # east of the line: nothing
    u = kb_put(g, "ge-xx-113-3", "1409")
    units.move_unit(g, u, [cell(g, "1509"), cell(g, "1609")])  # passed through
    assert kb_hexes(g, victory.german_towns(g)) == ["0713", "1509"]
    assert victory.provisional_vp(g) == 2
    # an Allied unit passing through afterwards takes it back
    b = kb_put(g, BN, "1608")
    units.move_unit(g, b, [cell(g, "1509"), cell(g, "1409")])
    assert kb_hexes(g, victory.german_towns(g)) == ["0713"]
    # an Allied unit in the town denies it, whoever passed last
    kb_put(g, BN2, "1509")
    g.state.hex_last[cell(g, "1509")] = Side.CENTRAL
    assert kb_hexes(g, victory.german_towns(g)) == ["0713"]
    assert victory.final_score(g) == 1 and vp(g, "towns") == 1


def test_20_11_passing_through_in_a_move_counts():
    pol = Scripted({"kb.move.to": lambda d, game: ("move", cell(game, "1511"))})
    g = kb_empty_game(policies={Side.CENTRAL: pol})
    u = kb_put(g, DIV, "1507")
    # straight down column 15, the one 4-MP path, through the town of 1509
    engine.move_one(g, u, FIRST)
    assert [g.state.hex_last[cell(g, h)] for h in ("1508", "1509", "1510", "1511")] == [1] * 4
    assert kb_hexes(g, victory.german_towns(g)) == ["1509"]


# --- 20.12 / 20.2 exits --------------------------------------------------------------------

def test_20_2_only_western_map_edge_hexes():
    g = kb_empty_game()
    assert kb_hexes(g, g.data.exit_edge) == [f"01{r:02d}" for r in range(1, 29)]
    u = kb_put(g, REG, "2001")                                # the northern edge
    dist, _ = movement.routes(g, u, FIRST)
    assert movement.exit_costs(g, u, dist, FIRST) == {}


def test_20_2_a_unit_exits_paying_the_cost_of_the_hex_it_leaves_from():
    g = kb_empty_game()
    m = g.scenario.map
    u = kb_put(g, REG, "0305")                               # 3 MP, clear all round
    dist, _ = movement.routes(g, u, FIRST)
    ex = {m.id_of(c): v for c, v in movement.exit_costs(g, u, dist, FIRST).items()}
    assert ex == {"0104": 3, "0105": 3, "0106": 3}            # 2 to get there + 1 to leave
    g2 = kb_empty_game()
    u2 = kb_put(g2, REG, "0405")                             # three hexes away: 3 + 1 > 3
    dist2, _ = movement.routes(g2, u2, FIRST)
    assert dist2[cell(g2, "0105")] == 3
    assert movement.exit_costs(g2, u2, dist2, FIRST) == {}
    # the Second Segment triples the allowance for exits as for everything else
    dist3, _ = movement.routes(g2, u2, SECOND)
    assert movement.exit_costs(g2, u2, dist3, SECOND)[cell(g2, "0105")] == 4


def test_20_2_gas_doubles_the_cost_of_leaving():
    g = kb_empty_game()
    u = kb_put(g, REG, "0105")
    g.arr("gas")[0] = cell(g, "0105")
    dist, _ = movement.routes(g, u, FIRST)
    assert movement.exit_costs(g, u, dist, FIRST)[cell(g, "0105")] == 2


def test_20_2_only_german_units_exit():
    g = kb_empty_game()
    b = kb_put(g, BN, "0105")
    dist, _ = movement.routes(g, b, FIRST)
    assert movement.exit_costs(g, b, dist, FIRST) == {}


def test_20_2_and_5_13_zones_of_control_and_exits():
    g = kb_empty_game()
    m = g.scenario.map
    kb_put(g, BN, "0205")                     # controls 0105 0106 0204 0206 0305 0306
    u = kb_put(g, REG, "0105")                # 3 MP, in the zone
    dist, _ = movement.routes(g, u, FIRST)
    ex = {m.id_of(c): v for c, v in movement.exit_costs(g, u, dist, FIRST).items()}
    # from where it stands: the hex (1) + half of 3 (1); or out to 0104 (1 + 1) and off (1);
    # never by way of 0106 (zone to zone)
    assert ex == {"0105": 2, "0104": 3}
    # a unit that enters a controlled edge hex must stop there: 0105 is reached, no exit
    d = kb_put(g, DIV, "0303")
    g.remove(REG)
    dist, _ = movement.routes(g, d, FIRST)
    assert dist[m.cell("0105")] == 3
    ex = {m.id_of(c): v for c, v in movement.exit_costs(g, d, dist, FIRST).items()}
    assert ex == {"0101": 4, "0102": 3, "0103": 3, "0104": 3}


def test_20_12_three_points_for_each_unit_exited_not_isolated():
    pol = Scripted({"kb.move.to": [("exit", 0)]})
    g = kb_empty_game(turn=3, policies={Side.CENTRAL: pol})
    u = kb_put(g, REG, "0205")
    kb_put(g, GHQ, "0305")
    pol.script["kb.move.to"] = [("exit", cell(g, "0105"))]
    engine.move_one(g, u, FIRST)
    assert g.state.unit_status[u] == Status.EXITED and g.state.unit_cell[u] == -1
    assert vp(g, "exits") == 3 and int(g.state.vp) == 3
    assert g.arr("exited").tolist() == [1, 0]
    assert g.state.hex_last[cell(g, "0105")] == Side.CENTRAL
    # once exited never to return: no longer a unit that moves
    assert u not in engine.movable(g, Side.CENTRAL, FIRST, set())
    assert victory.vp_is_consistent(g)


@pytest.mark.parametrize("turn, points", [(3, 0), (2, 3)])
def test_20_12_an_isolated_unit_exits_for_nothing(turn, points):
    # no HQ anywhere: isolated (14.13[4]) - except on Game-Turns 1 and 2 (17.5)
    pol = Scripted({"kb.move.to": [("exit", 0)]})
    g = kb_empty_game(turn=turn, policies={Side.CENTRAL: pol})
    u = kb_put(g, REG, "0105")
    pol.script["kb.move.to"] = [("exit", cell(g, "0105"))]
    engine.move_one(g, u, FIRST)
    assert g.state.unit_status[u] == Status.EXITED
    assert vp(g, "exits") == points
    assert g.arr("exited").tolist() == [1, 0 if points else 1]


# --- 20.13 / 20.14 ---------------------------------------------------------------------------

def test_20_13_one_point_lost_for_each_allied_unit_in_a_trench_hex():
    g = kb_empty_game()
    assert g.data.trench[cell(g, "2911")] and g.data.trench[cell(g, "3801")]
    for uid, h in ((BN, "2911"), (BN2, "2911"), ("br-i-478-18", "3801"),
                   ("br-ii-4bk-61-18", "0713"), (DIV, "3902")):
        kb_put(g, uid, h)
    assert victory.allied_in_trenches(g) == 3                 # per unit, not per hex
    assert victory.final_score(g) == -3 + 0                   # 0713 is no German town
    assert vp(g, "allied_in_trenches") == -3


def test_20_14_and_20_1_the_total_is_the_sum_of_its_causes():
    g = kb_empty_game(turn=3)
    d = kb_put(g, DIV, "1105")
    units.lose_steps(g, d, 2, "combat")                       # replaced: -1
    kb_put(g, REG, "0713")                                    # a town: +1
    kb_put(g, BN, "2911")                                     # a trench: -1
    g.add_vp("exits", 3)
    assert victory.provisional_vp(g) == -1 + 1 - 1 + 3
    assert victory.final_score(g) == 2
    assert [vp(g, c) for c in ("towns", "exits", "allied_in_trenches", "divisions_replaced")] \
        == [1, 3, -1, -1]
    assert victory.vp_is_consistent(g)


# --- 20.3 ------------------------------------------------------------------------------------

@pytest.mark.parametrize("points, level", [
    (-5, "allied_decisive"), (15, "allied_decisive"), (16, "allied_substantive"),
    (25, "allied_substantive"), (26, "allied_marginal"), (35, "allied_marginal"),
    (36, "german_marginal"), (45, "german_marginal"), (46, "german_substantive"),
    (55, "german_substantive"), (56, "german_decisive"), (90, "german_decisive")])
def test_20_3_levels_of_victory(points, level):
    g = kb_empty_game()
    assert victory.level(g, points) == level
    assert victory.winner(level) == ("central" if points >= 36 else "allied")


def test_20_2_and_13_23_an_exited_replacement_unit_does_not_return_to_the_pool():
    # ruling: 13.23 gives back a replacement unit "eliminated from play"; one that left the map
    # by the western edge is not eliminated, so the pool stays one short, and the checker
    # accounts for it
    from gwe_fast.games.kb import breakdown, invariants

    g = kb_empty_game()
    div = kb_put(g, "ge-xx-88-3", "0305")
    free = units.pool_free(g).size
    regs = breakdown.break_down(g, div)
    assert units.pool_free(g).size == free - 3
    victory.exit_unit(g, regs[0])
    assert g.state.unit_status[regs[0]] == Status.EXITED
    assert units.pool_free(g).size == free - 3
    invariants.check(g, "german_movement")
