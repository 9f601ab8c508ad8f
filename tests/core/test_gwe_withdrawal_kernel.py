"""Cavalry withdrawal before combat on the kernels (``gwe_withdrawals`` of
``gwe_fast._core.play``, twin in ``gwe_fast._pure.play``): in the positions of played games,
every unit's withdrawals are those a two-hex bounded search finds (12.11, 12.13, 24.41), toward
a supply source as 8.63 priority 1 has it when any are; the twin gives the kernel's answers."""

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast._core import play as cy
from gwe_fast._pure import play as py
from gwe_fast.games.gwe import driver, engine, withdrawal
from gwe_fast.games.gwe.data import PROHIBITED, gwe_data
from gwe_fast.games.gwe.retreat import source_distance, toward_source
from gwe_fast.games.gwe.zoc import controlled, occupied


@pytest.fixture(scope="module")
def games():
    """Games stopped at the Cavalry Withdrawal Phase of some Game-Turns, both sides."""
    sc = load_scenario("brusilov/historical")
    out = []
    for seed, turn in ((1, 1), (2, 3), (3, 6), (4, 10)):
        for side in (0, 1):
            g = driver.new_game(sc, seed, seed)
            engine.advance(g, until=engine.position(sc, turn, side, engine.WITHDRAWAL))
            out.append(g)
    return out


def _searched(game, unit):
    # the withdrawals as the engine used to find them: a bounded search of two hexes on the
    # unit's own step costs, the destinations two hexes away, every hex next to both between
    sc, st = game.scenario, game.state
    m, data = sc.map, gwe_data(sc)
    side, here, t = int(sc.units.side[unit]), int(st.unit_cell[unit]), int(data.tcr[unit]) - 1
    enter = data.enter_cost[t] >= 0
    if sc.units.utype[unit] == withdrawal._ARMORED_CAR:
        enter &= sc.map.terrain != withdrawal._MOUNTAIN                   # 24.41
    enter &= ~occupied(sc, st, 1 - side)
    if t != 0:
        enter &= ~controlled(sc, st, 1 - side)                            # 12.13
    enter[here] = False
    nb = m.neighbors
    cost = np.where((nb >= 0) & (data.side_add[t] >= 0) & enter[np.maximum(nb, 0)], 1,
                    PROHIBITED).astype(np.int16)
    dist = m.k.search.bounded_search(nb, cost, [here], limit=2)[0][0]
    found = []
    for dest in np.flatnonzero(dist == 2).tolist():
        if m.distance(here, dest) != 2:
            continue
        for d in range(6):
            via = int(nb[here, d])
            if via < 0 or cost[here, d] < 0:
                continue
            back = np.flatnonzero(nb[via] == dest)
            if back.size and cost[via, back[0]] >= 0:
                found.append((via, dest))
    to_source = source_distance(game, side)
    toward = [p for p in found if toward_source(p, here, to_source)]
    return sorted(toward or found), bool(toward)


def test_12_11_withdrawals_are_the_two_hex_search_of_every_unit(games):
    seen = {"toward": 0, "any": 0, "none": 0, "tcr1": 0, "car": 0}
    for g in games:
        sc = g.scenario
        for u in np.flatnonzero(withdrawal._on_map(g)).tolist():
            want, toward = _searched(g, u)
            assert withdrawal.withdrawal_paths(g, u) == want, u
            seen["toward" if toward else ("any" if want else "none")] += 1
            seen["tcr1"] += bool(want) and int(g.data.tcr[u]) == 1
            seen["car"] += bool(want) and sc.units.utype[u] == withdrawal._ARMORED_CAR
    # 8.63 priority 1 at work and not, units with nowhere to go, TCR 1 and the armored car
    assert all(seen.values()), seen


def test_12_11_candidates_are_the_units_with_somewhere_to_go(games):
    asked = 0
    for g in games:
        for side in (0, 1):
            got = withdrawal.withdrawal_candidates(g, side)
            for u in got:
                assert withdrawal.withdrawal_paths(g, u)
            asked += len(got)
            if got:
                assert withdrawal.withdrawal_candidates(g, side, tried={got[0]}) == got[1:]
    assert asked


def _arguments(g, side, units):
    sc, st = g.scenario, g.state
    data = gwe_data(sc)
    mountain, car = withdrawal._fixed(sc)
    return (sc.map.neighbors, data.side_add, data.enter_cost, mountain,
            occupied(sc, st, 1 - side).view(np.uint8),
            controlled(sc, st, 1 - side).view(np.uint8),
            source_distance(g, side).astype(np.int32), np.asarray(units, np.int32),
            st.unit_cell, data.tcr, car)


def test_twin_gives_the_kernels_withdrawals(games):
    rows = 0
    for g in games:
        for side in (0, 1):
            units = [u for u in np.flatnonzero(withdrawal._on_map(g)).tolist()
                     if g.scenario.units.side[u] == side]
            args = _arguments(g, side, units)
            out = []
            for k in (cy, py):
                counts = np.zeros(len(units), np.int32)
                paths = np.full((36 * len(units), 2), -7, np.int32)
                n = k.gwe_withdrawals(*args, counts, paths)
                assert n == counts.sum()
                out.append((counts, paths[:n]))
            assert np.array_equal(out[0][0], out[1][0])
            assert np.array_equal(out[0][1], out[1][1])
            rows += int(out[0][0].sum())
    assert rows


def test_gwe_withdrawals_refuses_bad_arguments(games):
    g = games[0]
    units = [int(np.flatnonzero(withdrawal._on_map(g))[0])]
    args = list(_arguments(g, 0, units))
    ok = (np.zeros(1, np.int32), np.zeros((36, 2), np.int32))
    assert cy.gwe_withdrawals(*args, *ok) >= 0
    with pytest.raises(ValueError, match="36 rows"):
        cy.gwe_withdrawals(*args, np.zeros(1, np.int32), np.zeros((35, 2), np.int32))
    bad = list(args)
    bad[7] = np.array([g.scenario.units.n], np.int32)
    with pytest.raises(ValueError, match="not a unit on the map"):
        cy.gwe_withdrawals(*bad, *ok)
    bad = list(args)
    bad[3] = np.zeros(3, np.uint8)
    with pytest.raises(ValueError, match="cover the map"):
        cy.gwe_withdrawals(*bad, *ok)


def test_8_63_source_distance_is_the_graph_search(games):
    # the distances withdrawals and retreats go by: from the rail sources and supplied depots,
    # a step onto the map across no blocked hexside into no lake, sea or hex of enemy units
    # other than HQs (the former numpy way of the engine)
    from gwe_fast.games.gwe.retreat import passable_steps
    from gwe_fast.games.gwe.supply import sources

    reached = 0
    for g in games:
        sc, st = g.scenario, g.state
        m = sc.map
        for side in (0, 1):
            src, depots = sources(sc, st, side)
            src[st.unit_cell[depots]] = True
            blocked = occupied(sc, st, 1 - side, hq_only_counts=False)
            cost = np.where(passable_steps(g) & ~blocked[np.maximum(m.neighbors, 0)], 1,
                            PROHIBITED).astype(np.int16)
            want = m.k.search.bounded_search(m.neighbors, cost, np.flatnonzero(src))[0][0]
            got = source_distance(g, side)
            assert np.array_equal(got, want)
            reached += int((got > 0).sum())
    assert reached
