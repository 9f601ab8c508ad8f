"""The Kaiser's Battle ladder's question of which units to move, answered by the policy kernel
(``Board.may_gain``: ``KbPricer.may_gain`` in ``_core/policy.pyx``), is the Python
reference's (``KbPassivePolicy._may_gain`` with ``passive.COMPILED_MOVES`` off:
``Board.values_with_stay`` in numpy): at every unit weighed in every Movement Segment of whole
greedy and passive games, and with the Allied delay defence against greedy, the same answer;
and the queue of units each segment moves (``_queue``) the same list. The kernel's
pure-Python twin (``_pure.policy.KbPricer.may_gain``) is asked the same questions."""

from __future__ import annotations

import pytest
from played_games import KB_LADDER_PAIRS, kb_ladder_game

from gwe_fast import load_scenario
from gwe_fast._pure import policy as twin
from gwe_fast.games import driver
from gwe_fast.policies.kb import passive
from gwe_fast.policies.kb.passive import KbPassivePolicy
from gwe_fast.policies.kb.position import Board

KB = "kaisers_battle/historical"


@pytest.fixture(scope="module")
def sc():
    return load_scenario(KB)


def _play(monkeypatch, sc, index: int, allied: str, central: str, nudge: float = 0.0):
    """One game in which every ``_may_gain`` and every ``_queue`` is asked both ways and
    compared; what was seen. ``nudge``: added to the least gain the kernel is given (to see
    the test fail)."""
    seen = {"asked": 0, "kernel": 0, "moved": 0, "queues": 0}
    may_gain, queue, kernel = (KbPassivePolicy._may_gain, KbPassivePolicy._queue,
                               Board.may_gain)

    def nudged(board, unit, reach, bonus_w, min_gain):
        got = kernel(board, unit, reach, bonus_w, min_gain + nudge)
        if got is not None:
            seen["kernel"] += 1
            # the kernel's pure-Python twin answers alike on the same maps
            compiled = board._pricer
            board._pricer = twin.KbPricer(board.dist_west, board._trench_u8,
                                          board._west_town_u8, board.risk, board.adj_enemy,
                                          board._exempt_u8, board.supply_pen, board._gas_u8)
            board._pricer.set_own(board.my_sp, board._path_gain_u8, board.screen_gain)
            try:
                assert kernel(board, unit, reach, bonus_w, min_gain + nudge) is got
            finally:
                board._pricer = compiled
        return got

    def both(policy, view, board, unit, segment):
        monkeypatch.setattr(passive, "COMPILED_MOVES", False)
        ref = may_gain(policy, view, board, unit, segment)
        monkeypatch.setattr(passive, "COMPILED_MOVES", True)
        got = may_gain(policy, view, board, unit, segment)
        assert type(got) is bool and got == ref, (unit, segment)
        seen["asked"] += 1
        seen["moved"] += got
        return got

    def queues(policy, view, d, mem):
        monkeypatch.setattr(passive, "COMPILED_MOVES", False)
        ref = queue(policy, view, d, mem)
        monkeypatch.setattr(passive, "COMPILED_MOVES", True)
        got = queue(policy, view, d, mem)
        assert got == ref
        seen["queues"] += 1
        return got

    monkeypatch.setattr(Board, "may_gain", nudged)
    monkeypatch.setattr(KbPassivePolicy, "_may_gain", both)
    monkeypatch.setattr(KbPassivePolicy, "_queue", queues)
    # the wrapped steps are the class's own: the kernel is still asked
    monkeypatch.setattr(KbPassivePolicy, "CORE_MOVES", ())
    kb_ladder_game(sc, index, allied, central)
    return seen


@pytest.mark.parametrize("allied, central", KB_LADDER_PAIRS)
@pytest.mark.parametrize("index", range(2))
def test_may_gain_asked_of_the_kernel_is_the_pythons(monkeypatch, sc, allied, central, index):
    seen = _play(monkeypatch, sc, index, allied, central)
    assert seen["queues"] > 0 and seen["asked"] > 100
    # the kernel answered every question that reached it (no HQ is weighed), and both
    # answers came up
    assert 0 < seen["kernel"] <= seen["asked"]
    assert 0 < seen["moved"] < seen["asked"]


def test_a_changed_least_gain_is_seen(monkeypatch, sc):
    with pytest.raises(AssertionError):
        _play(monkeypatch, sc, 0, "greedy", "greedy", nudge=0.5)


def test_policies_that_weigh_otherwise_keep_the_python_answer(monkeypatch, sc):
    """A subclass that overrides ``_may_gain`` and calls it keeps the reference; so does a
    ``Board`` subclass."""
    class Other(KbPassivePolicy):
        def _may_gain(self, view, board, unit, segment):
            return super()._may_gain(view, board, unit, segment)

    def refused(*args):
        raise AssertionError("the kernel was asked")

    monkeypatch.setattr(Board, "may_gain", refused)
    g = driver("kb").new_game(sc, 11, 0, policies={0: Other(), 1: Other()})
    driver("kb").play(g)
    assert not KbPassivePolicy()._core_moves(object.__new__(type("B", (Board,), {})))
    monkeypatch.setattr(passive, "COMPILED_MOVES", False)
    assert not KbPassivePolicy()._core_moves(object.__new__(Board))
