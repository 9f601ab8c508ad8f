"""The ladder's choice of an attack in the compiled core (``GweCore.best_attack``:
``choose_attack`` and ``weigh_attack`` in ``_core/gwe/core.pyx``) is the Python reference's
(``PassivePolicy.best_attack`` with ``COMPILED_ATTACKS`` off: ``attack_plans``,
``scoring.evaluate_attack``, ``select_attack``, ``_trim``): at every declaration of whole
greedy games, the same hex, the same attackers and every number of the ``Expected`` the
same bits, for the plan chosen and for every target's plan. The core states for itself
what only the Python policy stated (the expectation over the die, the defender's cheapest
option of 8.9, the steps taken where they cost least, 25.13's map of surrounded hexes), so
these games are the test that holds them to it."""

from __future__ import annotations

import pytest

from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.games.gwe import engine
from gwe_fast.policies.gwe import passive, scoring
from gwe_fast.policies.gwe.doctrine import BroadFront
from gwe_fast.policies.gwe.greedy import GreedyPolicy
from gwe_fast.policies.registry import make_policy


def _numbers(plan):
    """Everything of a plan that must be equal: hex, attackers, each field of ``Expected``."""
    if plan is None:
        return None
    e = plan["e"]
    return (plan["cell"], list(plan["attackers"]), e.column, e.score, e.attacker_steps,
            e.defender_steps, e.vp, e.vacate, e.outcomes)


def _every_plan(policy, view, side, targets):
    """Each target's plan by the Python reference and by the core (``weigh_attacks``)."""
    snap = scoring.snapshot(view, policy.memory)
    ref = [_numbers(p) for p in
           passive.PassivePolicy.attack_plans(policy, view, side, targets, snap)]
    vp = scoring.vp_values(view.scenario)
    w = policy.weights
    table = scoring.crt(view.scenario)
    got = [(cell, units, *e, passive.core_expected(table, e, outcomes).outcomes)
           for cell, units, e, outcomes in view.core.weigh_attacks(
               side, [int(t) for t in targets], (w.material, w.ground, w.town),
               (vp.per_sp, vp.per_sp_surrounded))]
    return ref, got


def _greedy_game(monkeypatch, name: str, index: int, until_turn: int | None = None):
    """One greedy-greedy game of ``name`` in which every declaration is chosen both ways and
    compared; the declarations, those where an attack is chosen, and the plans weighed."""
    seen = {"asked": 0, "chosen": 0, "trimmed": 0, "plans": 0}
    best_attack = passive.PassivePolicy.best_attack

    def both(policy, view, side, targets):
        assert view.core is not None
        monkeypatch.setattr(passive, "COMPILED_ATTACKS", False)
        ref = best_attack(policy, view, side, targets)
        monkeypatch.setattr(passive, "COMPILED_ATTACKS", True)
        got = best_attack(policy, view, side, targets)
        assert _numbers(got) == _numbers(ref)
        every_ref, every_got = _every_plan(policy, view, side, targets)
        assert every_got == every_ref
        seen["asked"] += 1
        seen["plans"] += len(every_ref)
        if ref is not None:
            seen["chosen"] += 1
            full = next(p for p in every_ref if p[0] == ref["cell"])
            seen["trimmed"] += len(full[1]) > len(ref["attackers"])
        return ref

    monkeypatch.setattr(passive.PassivePolicy, "best_attack", both)
    sc = load_scenario(name)
    g = driver("gwe").new_game(sc, 5, index, policies={0: make_policy("greedy", "gwe"),
                                                       1: make_policy("greedy", "gwe")})
    if until_turn is None:
        engine.advance(g)
    else:
        engine.advance(g, until=engine.position(sc, until_turn, 0, 0))
    return seen


@pytest.mark.parametrize("name, index", [("brusilov/historical", 0),
                                         ("brusilov/historical", 1),
                                         ("brusilov/attack_on_schedule", 0),
                                         ("brusilov/attack_on_schedule", 1)])
def test_greedy_attacks_chosen_by_the_core_are_the_pythons(monkeypatch, name, index):
    seen = _greedy_game(monkeypatch, name, index)
    # the games declare many attacks, pass on some declarations and trim some attacks
    assert seen["chosen"] >= 20 and seen["asked"] > seen["chosen"]
    assert seen["trimmed"] >= 1 and seen["plans"] >= 200


def _expected_numbers(e):
    return (e.column, e.score, e.attacker_steps, e.defender_steps, e.vp, e.vacate, e.outcomes)


@pytest.mark.parametrize("name, index, allied", [("brusilov/historical", 2, "greedy"),
                                                 ("brusilov/historical", 3, "random"),
                                                 ("brusilov/attack_on_schedule", 2, "greedy"),
                                                 ("brusilov/attack_on_schedule", 3, "random")])
def test_support_and_withdrawal_weighed_by_the_core_as_in_python(monkeypatch, name, index,
                                                                 allied):
    """The attacks the ladder weighs for HQ shifts, massed artillery of both sides and
    cavalry withdrawal (``PassivePolicy.evaluations``: shifts, depots, the enemy's threat)
    have the same ``Expected`` from the core (``GweCore.evaluate_attacks``) as from
    ``scoring.evaluate_attack``, at every such decision of whole games, greedy on the
    Central Powers' side against greedy or random (whose attacks on several hexes the
    reference weighs)."""
    seen = {"core": 0, "python": 0, "variants": 0}
    evaluations = passive.PassivePolicy.evaluations

    def both(policy, view, attackers, cells, variants):
        monkeypatch.setattr(passive, "COMPILED_ATTACKS", False)
        ref = evaluations(policy, view, attackers, cells, variants)
        monkeypatch.setattr(passive, "COMPILED_ATTACKS", True)
        got = evaluations(policy, view, attackers, cells, variants)
        assert [_expected_numbers(e) for e in got] == [_expected_numbers(e) for e in ref]
        compiled = len(cells) == 1 and view.core.evaluate_attacks(
            int(view.scenario.units.side[int(attackers[0])]), [int(x) for x in attackers],
            [int(c) for c in cells], (0.5, 0.25, 0.5), ((-1.0, 1.0), (-2.0, 2.0)),
            variants) is not None
        seen["core" if compiled else "python"] += 1
        seen["variants"] += len(variants) if compiled else 0
        return ref

    monkeypatch.setattr(passive.PassivePolicy, "evaluations", both)
    sc = load_scenario(name)
    g = driver("gwe").new_game(sc, 5, index, policies={0: make_policy(allied, "gwe"),
                                                       1: make_policy("greedy", "gwe")})
    engine.advance(g)
    assert seen["core"] >= 20 and seen["variants"] > seen["core"]


def test_policies_that_choose_otherwise_keep_the_python_choice():
    """A subclass that overrides a step of the choice (the doctrine's broad front, its own
    ``select_attack``) chooses in Python; the greedy policy asks the core; no core, no
    compiled choice."""
    view = driver("gwe").new_game(load_scenario("brusilov/historical"), 1, 0).policy_view()
    assert view.core is not None
    assert GreedyPolicy()._attack_core(view) is view.core
    assert BroadFront()._attack_core(view) is None
    assert GreedyPolicy()._attack_core(object()) is None
