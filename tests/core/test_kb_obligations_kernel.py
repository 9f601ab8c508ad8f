"""The attack obligations of a Kaiser's Battle Combat Phase on the kernels (``KbObligations``
of ``gwe_fast._core.play``, twin in ``gwe_fast._pure.play``; 8.11, 8.12, 8.13, 8.21):

* at every declaration of played games the compiled class and its twin give the same
  attackers, hexes, obligations left, legal targets, compulsory members, candidates and
  feasibility of any force on any hexes, and draw the same random declaration;
* a random player's declarations drawn whole by the kernel make the game of the engine's
  ask-by-ask declaration (``engine.COMPILED_RANDOM_MOVES`` off).
"""

import copy
import random

import numpy as np
import pytest
from played_games import played, same_game

from gwe_fast import load_scenario
from gwe_fast._core import play as cy
from gwe_fast._pure import play as py
from gwe_fast.games.kb import driver, engine
from gwe_fast.policies.registry import make_policy


@pytest.fixture(scope="module")
def positions():
    """The arguments of every ``KbObligations`` made in three games (random, greedy) and
    the generator state of the player when a random one declared there."""
    sc = load_scenario("kaisers_battle/historical")
    kept = []
    real = cy.KbObligations

    def keeping(*args):
        kept.append(tuple(np.array(a, copy=True) for a in args))
        return real(*args)

    mp = pytest.MonkeyPatch()
    mp.setattr(sc.map.k.play, "KbObligations", keeping)
    try:
        for seed, policy in ((1, "random"), (2, "random"), (3, "greedy")):
            pols = {0: make_policy(policy), 1: make_policy(policy)}
            driver.play(driver.new_game(sc, seed, seed, policies=pols))
    finally:
        mp.undo()
    return kept


def _same(a, b, rng):
    assert a.attackers() == b.attackers()
    for u in a.attackers():
        assert a.adj(u) == b.adj(u)
    assert (a.o_left, a.m_left, a.pending()) == (b.o_left, b.m_left, b.pending())
    targets = a.targets()
    assert targets == b.targets()
    hexes = sorted({c for u in a.attackers() for c in a.adj(u)})
    units = a.attackers()
    asked = [t for t in targets]
    for _ in range(6):                       # also hexes that are no legal target
        if hexes:
            asked.append(tuple(sorted(rng.sample(hexes, rng.randint(1, min(3, len(hexes)))))))
    for d in asked:
        assert a.compulsory(d) == b.compulsory(d)
        ex = rng.sample(units, min(len(units), rng.randint(0, 2)))
        assert a.candidates(d) == b.candidates(d)
        assert a.candidates(d, ex) == b.candidates(d, ex)
        for _ in range(3):
            members = rng.sample(units, min(len(units), rng.randint(0, 3)))
            assert a.feasible(members, d) == b.feasible(members, d)
    return targets


def test_8_21_twin_gives_the_kernels_answers(positions):
    rng = random.Random(3)
    seen = {"obligated units": 0, "obligated stacks": 0, "compulsory": 0, "targets": 0,
            "join draws": 0, "stops": 0}
    for args in positions:
        a, b = cy.KbObligations(*args), py.KbObligations(*args)
        targets = _same(a, b, rng)
        seen["obligated units"] += bool(a.o_left)
        seen["obligated stacks"] += bool(a.m_left)
        seen["compulsory"] += any(a.compulsory(t) for t in targets)
        seen["targets"] += len(targets)
        for seed in range(3):
            g1, g2 = np.random.default_rng(seed), np.random.default_rng(seed)
            try:
                got = a.random_declare(g1)
            except RuntimeError as e:
                with pytest.raises(RuntimeError, match=str(e)[:40]):
                    b.random_declare(g2)
                continue
            assert got == b.random_declare(g2)
            assert g1.bit_generator.state == g2.bit_generator.state
            attack, draws = got
            seen["join draws"] += sum(kind == 1 for kind, _, _ in draws)
            seen["stops"] += attack is None
            if attack is not None:
                att, cells = attack
                assert tuple(cells) in targets and att == sorted(att)
                assert set(a.compulsory(cells)) <= set(att)
                assert a.feasible(att, cells)
    assert all(seen.values()), seen


def test_8_21_random_declarations_play_the_ask_by_ask_game(monkeypatch):
    sc = load_scenario("kaisers_battle/historical")
    for seed in (6, 7):                      # games with "join" draws
        fast = played(driver, engine, sc, seed, True, monkeypatch)
        slow = played(driver, engine, sc, seed, False, monkeypatch)
        same_game(fast, slow)
        kinds = {e[2] for e in fast[0].events if e[0] == "choice"}
        assert {"kb.combat.target", "kb.combat.join"} <= kinds


def test_kb_obligations_refuses_bad_arguments():
    sc = load_scenario("kaisers_battle/historical")
    m, n_units = sc.map, sc.units.n
    cells = np.zeros(n_units, np.int32)
    ok = (m.neighbors, np.zeros(m.n_cells, np.uint8), np.array([0, 1], np.int32), cells,
          np.zeros(n_units, np.uint8), np.zeros(m.n_cells, np.uint8))
    assert cy.KbObligations(*ok).targets() == []
    with pytest.raises(ValueError, match="ascending"):
        cy.KbObligations(ok[0], ok[1], np.array([1, 0], np.int32), *ok[3:])
    with pytest.raises(ValueError, match="not a unit on the map"):
        cy.KbObligations(ok[0], ok[1], np.array([n_units], np.int32), *ok[3:])
    with pytest.raises(ValueError, match="cover the map"):
        cy.KbObligations(ok[0], ok[1][:-1], *ok[2:])
    with pytest.raises(ValueError, match="a target is at most six hexes"):
        cy.KbObligations(*ok).compulsory(range(7))
