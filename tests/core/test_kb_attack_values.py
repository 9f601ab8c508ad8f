"""The Kaiser's Battle ladder's attack expectations, answered by the policy kernel
(``scoring.attack_values``: ``kb_attack_values`` in ``_core/policy.pyx``), are the Python
reference's (``scoring.expected_attack`` and ``expected_prefixes``) to the bit: at every
attack weighed in whole greedy and passive games, and with the Allied delay defence against
greedy (the First Segment's plans, the Combat Phase's targets, Rolling Barrages and SOS), every
field of every expectation the same float. The kernel's pure-Python twin
(``_pure.policy.kb_attack_values``) is asked the same questions."""

from __future__ import annotations

from dataclasses import astuple

import pytest
from played_games import KB_LADDER_PAIRS, kb_ladder_game

from gwe_fast import load_scenario
from gwe_fast._core import policy as compiled_kernel
from gwe_fast._pure import policy as twin
from gwe_fast.games import driver
from gwe_fast.policies.gwe import scoring as gwe_scoring
from gwe_fast.policies.kb import passive, scoring
from gwe_fast.policies.kb.passive import KbPassivePolicy
from gwe_fast.policies.registry import make_policy

KB = "kaisers_battle/historical"


@pytest.fixture(scope="module")
def sc():
    return load_scenario(KB)


def _bits(expectations) -> list[tuple[str, ...]]:
    return [tuple(float(x).hex() for x in astuple(e)) for e in expectations]


def _play(monkeypatch, sc, index: int, allied: str, central: str, nudge: float = 0.0):
    """One game in which every attack expectation the policies ask the kernel for is also
    computed by the reference and by the twin, and compared; what was seen. ``nudge``: added
    to the value of a cleared hex the compiled kernel is given (to see the test fail)."""
    seen = {"attacks": 0, "teams": 0, "barrage": 0, "prefix calls": 0, "empty": 0}
    attack_values = scoring.attack_values
    kernel = gwe_scoring.kernel
    kb_attack_values = compiled_kernel.kb_attack_values

    class Nudged:
        @staticmethod
        def kb_attack_values(*args):
            args = list(args)
            args[14] += nudge                                  # clear_value
            return kb_attack_values(*args)

    def both(snap, attackers, cells, w, rolling=0, sos=(), clear_value=0.0, every=False):
        monkeypatch.setattr(gwe_scoring, "kernel", lambda s: Nudged)
        got = attack_values(snap, attackers, cells, w, rolling, sos, clear_value, every)
        monkeypatch.setattr(gwe_scoring, "kernel", lambda s: twin)
        pure = attack_values(snap, attackers, cells, w, rolling, sos, clear_value, every)
        monkeypatch.setattr(gwe_scoring, "kernel", kernel)
        if got is None:
            # only with a side empty: the reference's zeros
            assert pure is None
            assert not attackers or not snap.defence(tuple(int(c) for c in cells)).units
            seen["empty"] += 1
            return None
        if every:
            assert not rolling and not sos
            ref = scoring.expected_prefixes(snap, attackers, cells, w, clear_value)
            seen["prefix calls"] += 1
        else:
            ref = [scoring.expected_attack(snap, attackers, cells, w, rolling, sos,
                                           clear_value)]
        assert pure is not None
        assert _bits(got) == _bits(ref), (attackers, cells, rolling, sos, every)
        assert _bits(pure) == _bits(ref), (attackers, cells, rolling, sos, every)
        seen["attacks"] += 1
        seen["teams"] += len(got)
        seen["barrage"] += bool(rolling or sos)
        return got

    monkeypatch.setattr(scoring, "attack_values", both)
    kb_ladder_game(sc, index, allied, central)
    return seen


@pytest.mark.parametrize("allied, central", KB_LADDER_PAIRS)
@pytest.mark.parametrize("index", range(2))
def test_attack_values_of_the_kernel_are_the_pythons(monkeypatch, sc, allied, central, index):
    seen = _play(monkeypatch, sc, index, allied, central)
    assert seen["attacks"] > 20
    assert seen["barrage"] > 0
    if central == "greedy":
        # the First Segment's plans weigh every team at once
        assert seen["prefix calls"] > 0 and seen["teams"] > seen["attacks"]


def test_a_changed_clear_value_is_seen(monkeypatch, sc):
    with pytest.raises(AssertionError):
        _play(monkeypatch, sc, 0, "greedy", "greedy", nudge=1e-9)


def test_an_attack_the_dice_cannot_divide_is_left_to_the_reference(sc):
    """A defender's die modifier of -9 less the hex's makes every denominator negative: the
    kernels decline (None) where ``combat.quotient`` raises."""
    full = [0.0, 0.1]
    row = (4, 0, 1, 0, [0.1], 0.1, 1, 1, False)
    nb = sc.map.neighbors
    d = sc.core
    for k in (compiled_kernel, twin):
        args = ([row], [int(nb[0][nb[0] >= 0][0])], nb, d.side_mod, d.die_mod, False, 0.7,
                [0, 0, 0, 0], 0, -9 - int(d.die_mod.max()), 0, 3, 2, full, 0.0, False)
        assert k.kb_attack_values(*args) is None
        args = list(args)
        args[9] = 0
        got = k.kb_attack_values(*args)
        assert got is not None and len(got) == 1


def test_policies_that_weigh_otherwise_keep_the_python_answer(monkeypatch, sc):
    """A subclass that overrides ``_evaluate`` or ``_move_memory`` and calls it keeps the
    reference; so does a game with the switch off."""
    class Other(KbPassivePolicy):
        def _evaluate(self, *args, **kw):
            return super()._evaluate(*args, **kw)

    class Planner(KbPassivePolicy):
        def _move_memory(self, *args):
            return super()._move_memory(*args)

    def refused(*args, **kw):
        raise AssertionError("the kernel was asked")

    monkeypatch.setattr(scoring, "attack_values", refused)
    for cls in (Other, Planner):
        assert not cls()._core_attacks()
    g = driver("kb").new_game(sc, 11, 0, policies={0: Other(), 1: Other()})
    driver("kb").play(g)
    monkeypatch.setattr(passive, "COMPILED_ATTACKS", False)
    assert not KbPassivePolicy()._core_attacks()
    g = driver("kb").new_game(sc, 11, 0, policies={0: make_policy("greedy", "kb"),
                                                    1: make_policy("greedy", "kb")})
    driver("kb").play(g)
