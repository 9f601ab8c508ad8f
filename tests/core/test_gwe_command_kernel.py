"""The command radii of a Great War in the East side on the kernels (``gwe_command_radii`` of
``gwe_fast._core.play``, twin in ``gwe_fast._pure.play``): in the positions of played games
each HQ's radius (10.33) is the bounded search of its own step table, stopped by open enemy
zones of control for HQs of TCR 2-4 (10.34) and for the command of Austro-Hungarian units by a
Central Powers HQ (21.41); the twin gives the kernel's answers."""

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast._core import play as cy
from gwe_fast._pure import play as py
from gwe_fast._pure import search as pure_search
from gwe_fast.games.gwe import command, driver, engine
from gwe_fast.games.gwe.zoc import controlled, occupied


@pytest.fixture(scope="module")
def games():
    """Games stopped at the Combat Phase of some Game-Turns (both sides' HQs on the map)."""
    sc = load_scenario("brusilov/historical")
    out = []
    for seed, turn in ((1, 2), (2, 5), (3, 9)):
        for side in (0, 1):
            g = driver.new_game(sc, seed, seed)
            engine.advance(g, until=engine.position(sc, turn, side, engine.COMBAT))
            out.append(g)
    return out


def _searched(game, hq, stopped):
    # the radius as one search of its own (the engine's former way, hex by hex)
    sc, st = game.scenario, game.state
    m = sc.map
    side = int(sc.units.side[hq])
    t = int(game.data.tcr[hq]) - 1
    enter, sides = command._radius_costs(sc)
    table = m.k.board.step_costs(m.neighbors, enter[t], sides[t],
                                 closed=occupied(sc, st, 1 - side))
    stop = ((controlled(sc, st, 1 - side) & ~occupied(sc, st, side)).astype(np.uint8)
            if stopped else None)
    dist = m.k.search.bounded_search(m.neighbors, table, [int(st.unit_cell[hq])],
                                     limit=command.hq_ratings(game, hq)[2], stop=stop)[0][0]
    return dist >= 0


def test_10_33_radius_cells_is_each_hqs_own_search(games):
    seen = {True: 0, False: 0}
    ah_rule = 0
    for g in games:
        for side in (0, 1):
            for h in command._hqs(g, side).tolist():
                for nat in (None, command._AH):
                    stopped = command._zoc_blocks_radius(g.scenario, h, nat)
                    assert np.array_equal(command.radius_cells(g, h, nat),
                                          _searched(g, h, stopped))
                    seen[stopped] += 1
                ah_rule += (command._zoc_blocks_radius(g.scenario, h, command._AH)
                            != command._zoc_blocks_radius(g.scenario, h, None))
    assert seen[True] and seen[False] and ah_rule      # 10.34 both ways; 21.41 at work


def test_10_34_radii_of_a_side_are_radius_cells(games):
    for g in games:
        for side in (0, 1):
            radii = command._Radii(g, side)
            for k, h in enumerate(radii.hqs):
                assert np.array_equal(radii.plain[k], command.radius_cells(g, h))
                assert np.array_equal(radii.ah[k], command.radius_cells(g, h, command._AH))


@pytest.mark.parametrize("stopped", [0, 1])
def test_twin_gives_the_kernels_radii(games, stopped):
    g = games[3]
    sc, st = g.scenario, g.state
    m = sc.map
    hqs = command._hqs(g, 1)
    args = (command._radius_tables(sc), occupied(sc, st, 0).view(np.uint8),
            st.unit_cell[hqs].astype(np.int32),
            (g.data.tcr[hqs] - 1).astype(np.int32),
            np.array([command.hq_ratings(g, h)[2] for h in hqs], np.int32),
            np.full(hqs.size, stopped, np.uint8),
            (controlled(sc, st, 0) & ~occupied(sc, st, 1)).view(np.uint8))
    a = np.zeros((hqs.size, m.n_cells), np.uint8)
    b = np.zeros((hqs.size, m.n_cells), np.uint8)
    cy.gwe_command_radii(m.k.search.SearchWorkspace(m.neighbors), *args, a)
    py.gwe_command_radii(pure_search.SearchWorkspace(m.neighbors), *args, b)
    assert np.array_equal(a, b) and a.any()


def test_gwe_command_radii_refuses_bad_arguments(games):
    g = games[0]
    m = g.scenario.map
    n = m.n_cells
    ws = m.k.search.SearchWorkspace(m.neighbors)
    tables = np.ones((1, n, 6), np.int16)
    enemy = np.zeros(n, np.uint8)
    ok = (tables, enemy, np.array([0], np.int32), np.array([0], np.int32),
          np.array([2], np.int32), np.zeros(1, np.uint8), np.zeros(n, np.uint8))
    cy.gwe_command_radii(ws, *ok, np.zeros((1, n), np.uint8))
    with pytest.raises(ValueError, match="off the map"):
        cy.gwe_command_radii(ws, tables, enemy, np.array([n], np.int32), *ok[3:],
                             np.zeros((1, n), np.uint8))
    with pytest.raises(ValueError, match="no step table"):
        cy.gwe_command_radii(ws, tables, enemy, ok[2], np.array([1], np.int32), *ok[4:],
                             np.zeros((1, n), np.uint8))
    with pytest.raises(ValueError, match="cover the workspace's map"):
        cy.gwe_command_radii(ws, tables, enemy[:-1], *ok[2:], np.zeros((1, n), np.uint8))
    with pytest.raises(ValueError, match="do not agree"):
        cy.gwe_command_radii(ws, *ok, np.zeros((2, n), np.uint8))


@pytest.mark.parametrize("name", ["brusilov/historical", "kaisers_battle/historical"])
def test_10_33_radii_on_bitboards_are_the_searches(name):
    # the radii searched on the tables' bitboards (bitsearch) are those of the workspace's
    # search, in made-up positions: tables with hexsides refused at random (one of them with
    # steps of cost 2, which is searched the usual way), enemy units and open zones anywhere,
    # HQs in them too, radii of 0 to 9 hexes or none (-1)
    rng = np.random.default_rng(10)
    m = load_scenario(name).map
    n = m.n_cells
    ws = m.k.search.SearchWorkspace(m.neighbors)
    reached = 0
    for _ in range(60):
        tables = np.where(m.neighbors >= 0, 1, -1).astype(np.int16)[None].repeat(3, axis=0)
        tables[rng.random(tables.shape) < rng.uniform(0.0, 0.4)] = -1
        tables[2][(tables[2] > 0) & (rng.random((n, 6)) < 0.2)] = 2
        enemy = (rng.random(n) < rng.uniform(0.0, 0.3)).astype(np.uint8)
        open_zoc = (rng.random(n) < rng.uniform(0.0, 0.4)).astype(np.uint8)
        k = 12
        args = (tables, enemy, rng.integers(0, n, k).astype(np.int32),
                rng.integers(0, 3, k).astype(np.int32),
                rng.integers(-1, 10, k).astype(np.int32),
                rng.integers(0, 2, k).astype(np.uint8), open_zoc)
        a = np.zeros((k, n), np.uint8)
        b = np.zeros((k, n), np.uint8)
        was = cy._use_bit_parallel(True)
        try:
            cy.gwe_command_radii(ws, *args, a)
            cy._use_bit_parallel(False)
            cy.gwe_command_radii(ws, *args, b)
        finally:
            cy._use_bit_parallel(was)
        assert np.array_equal(a, b)
        reached += int(a.sum())
    assert reached > 0
