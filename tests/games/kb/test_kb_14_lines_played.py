"""Supply lines (14.12) and observation lines (9.72, 9.73) in the positions of played games:
the workspace searches the engine runs give what the plain graph searches of the rules give
(a supply line never leaves an enemy-occupied or enemy-controlled hex without a friendly unit;
an observation line never enters one)."""

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast.games.kb import combat, driver, engine, supply
from gwe_fast.games.kb.game import FOG
from gwe_fast.games.kb.zoc import controlled, occupied


@pytest.fixture(scope="module")
def games():
    """Games stopped at the start of some Combat Phases, both sides."""
    sc = load_scenario("kaisers_battle/historical")
    out = []
    for seed, turn in ((1, 2), (2, 4), (3, 7), (4, 11)):
        for phase in (engine.GERMAN_COMBAT, engine.ALLIED_COMBAT):
            g = driver.new_game(sc, seed, seed)
            engine.advance(g, until=(turn, phase))
            out.append(g)
    return out


def test_14_12_line_lengths_are_the_graph_search(games):
    reached = 0
    for g in games:
        m = g.scenario.map
        for side in (0, 1):
            nb, cost, sources = supply.line_search(g, side)
            want = m.k.search.bounded_search(nb, cost, sources)[0][0]
            got = supply.line_lengths(g, side)
            assert np.array_equal(got, want)
            reached += int((got > 0).sum())
            # the lengths handed out are the caller's to keep
            again = supply.line_lengths(g, 1 - side)
            assert np.array_equal(got, want) and again is not got
    assert reached


def _observed_by_graph(g, attackers, cells):
    # 9.72, 9.73 as a graph: a step into a hex neither enemy-occupied nor enemy-controlled
    # (a friendly unit there negating the zone), at most the weather's range from an attacker
    sc, st = g.scenario, g.state
    weather = int(g.arr("weather")[0])
    if weather == FOG:
        return False, "fog"
    if any(g.arr("observed")[c] > 0 for c in cells):
        return True, "marker"
    att = np.unique(st.unit_cell[list(attackers)])
    hill = g.data.hilltop
    if hill[att].any():
        return True, "hilltop"
    rng = int(sc.tables["observation"]["hilltop_range"][weather])
    if rng <= 0:
        return False, "range"
    side = int(sc.units.side[attackers[0]])
    ok = ~occupied(g, 1 - side) & (~controlled(g, 1 - side) | occupied(g, side))
    nb = sc.map.neighbors
    cost = np.where((nb >= 0) & ok[np.maximum(nb, 0)], 1, -1).astype(np.int16)
    dist = sc.map.k.search.bounded_search(nb, cost, att, limit=rng)[0][0]
    return bool((hill & (dist >= 0)).any()), "line"


def test_9_72_observed_is_the_graph_search(games):
    seen = {True: 0, False: 0}
    for g in games:
        st = g.state
        side = int(st.player)
        ob = combat.obligations(g, side)
        for u in ob.k.attackers():                 # each free unit and the hexes next to it
            cells = sorted(ob.k.adj(u))
            got = combat.observed(g, [u], cells)
            want, how = _observed_by_graph(g, [u], cells)
            assert got == want, (u, cells)
            if how == "line":
                seen[got] += 1
    assert seen[True] and seen[False], seen          # lines found and not found
