"""A random player's command allocation on the kernels (``gwe_random_allocation`` of
``gwe_fast._core.play``, twin in ``gwe_fast._pure.play``; 10.31, 10.32, 10.41, 10.42):

* in the Command Control Segments of played games the kernel gives its twin's statuses,
  strengths left and draws, from the same generator state;
* a game whose random players allocate on the kernel is the game of the engine's ask-by-ask
  loop (``engine.COMPILED_RANDOM_MOVES`` off): events (every allocation choice logged as
  ``PlayedGame.ask`` logs it), records and final states (``test_gwe_play_kernel`` plays more
  such games, with both kernels at once).
"""

import copy

import numpy as np
import pytest
from played_games import played, same_game

from gwe_fast import load_scenario
from gwe_fast._core import play as cy
from gwe_fast._pure import play as py
from gwe_fast.games.gwe import driver, engine
from gwe_fast.games.gwe import game as gwe_game


@pytest.fixture(scope="module")
def calls():
    """The arguments of every allocation of two random games, kept before the call (the
    generator copied). The games are the Python engine's: the compiled core (``GweGame.core``)
    runs the same allocation without the kernel's Python call."""
    sc = load_scenario("brusilov/historical")
    kept = []
    real = cy.gwe_random_allocation

    def keeping(rng, cover, stacking, left, status, picks):
        kept.append((copy.deepcopy(rng), cover.copy(), stacking.copy(), left.copy()))
        return real(rng, cover, stacking, left, status, picks)

    mp = pytest.MonkeyPatch()
    mp.setattr(sc.map.k.play, "gwe_random_allocation", keeping)
    mp.setattr(gwe_game, "COMPILED_PHASES", False)
    try:
        for seed in (1, 2):
            driver.play(driver.new_game(sc, seed, seed))
    finally:
        mp.undo()
    return kept


def test_10_31_twin_allocates_as_the_kernel(calls):
    seen = {cy.ALLOCATED: 0, cy.UNALLOCATED: 0, cy.FAR: 0}
    draws = 0
    for rng, cover, stacking, left in calls:
        out = []
        for k in (cy, py):
            r, lft = copy.deepcopy(rng), left.copy()
            status = np.full(len(cover), -1, np.int8)
            picks = np.full((len(cover), 2), -1, np.int32)
            n = k.gwe_random_allocation(r, cover, stacking, lft, status, picks)
            out.append((n, status, picks[:n], lft, r.bit_generator.state))
        (n1, s1, p1, l1, g1), (n2, s2, p2, l2, g2) = out
        assert n1 == n2 and g1 == g2
        assert np.array_equal(s1, s2) and np.array_equal(p1, p2) and np.array_equal(l1, l2)
        assert ((p1[:, 0] >= 2) & (p1[:, 1] >= 0) & (p1[:, 1] < p1[:, 0])).all()
        # strength is only ever spent, and never below nothing
        assert (l1 <= left).all() and (l1 >= 0).all()
        for s in s1.tolist():
            seen[s] += 1
        draws += n1
    assert all(seen.values()) and draws > 100, seen


def test_10_31_allocations_play_the_ask_by_ask_game(monkeypatch):
    sc = load_scenario("brusilov/historical")
    fast = played(driver, engine, sc, 6, True, monkeypatch)
    slow = played(driver, engine, sc, 6, False, monkeypatch)
    same_game(fast, slow)
    assert any(e[0] == "choice" and e[2] == "gwe.command.allocate" for e in fast[0].events)


def test_10_32_unlimited_command_asks_nobody(monkeypatch):
    sc = load_scenario("brusilov/historical", {"unlimited_command": True})
    game = played(driver, engine, sc, 3, True, monkeypatch)[0]
    assert not any(e[0] == "choice" and e[2] == "gwe.command.allocate" for e in game.events)


def test_gwe_random_allocation_refuses_bad_arguments():
    rng = np.random.default_rng(1)
    cover = np.ones((3, 2), np.uint8)
    ok = (np.ones(3, np.int32), np.ones(2, np.int32), np.empty(3, np.int8),
          np.empty((3, 2), np.int32))
    assert cy.gwe_random_allocation(rng, cover, *ok) >= 0
    with pytest.raises(ValueError, match="a row per unit"):
        cy.gwe_random_allocation(rng, cover, np.ones(2, np.int32), *ok[1:])
    with pytest.raises(ValueError, match="one per HQ"):
        cy.gwe_random_allocation(rng, cover, ok[0], np.ones(3, np.int32), *ok[2:])
    with pytest.raises(ValueError, match="two columns"):
        cy.gwe_random_allocation(rng, cover, *ok[:3], np.empty(3, np.int32).reshape(3, 1))
