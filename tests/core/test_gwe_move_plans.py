"""The ladder's movement plans in the compiled core (``GweCore.move_plans``: ``MovePlanner``
in ``_core/gwe/core.pyx``) are the Python reference's (``PassivePolicy.move_plans``:
``may_move``, ``unit_plan`` and ``PositionMap.scores``, ``reachable``, ``attack_gain``,
``_hq_scores``, ``_depot_scores``): at the first unit chosen of every Movement Segment of
whole greedy and passive games of both Brusilov scenarios, the same queue, the same steps
for each unit (rail moves included) and every gain the same bits; and every price of the
moves offered afterwards (``on_move_action``), from the core's record kept for the segment
(``MovePlanner.scores`` after ``rebind``), the same bits as ``PositionMap.scores``. The
reference plans and prices on a ``PositionMap`` of its own, kept for the segment and
refreshed as the game's, so each prices its targets itself (the core in C,
``MovePlanner.price_target``; the reference ``PositionMap.target``) at the same moments:
after every plan and every price, the targets' arrays (each enemy hex's defence, the
expectation per column, which hexes are priced) are the same bytes."""

from __future__ import annotations

import struct

import pytest

from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.games.gwe import engine
from gwe_fast.policies.gwe import passive
from gwe_fast.policies.gwe.doctrine import BroadFront, DoctrinePolicy
from gwe_fast.policies.gwe.greedy import GreedyPolicy
from gwe_fast.policies.gwe.position import PositionMap
from gwe_fast.policies.registry import make_policy
from gwe_fast.state import Status


def _bits(gains: dict) -> dict:
    """Each gain as the bytes of its double: equal only when bit for bit equal."""
    return {u: struct.pack("<d", g) for u, g in gains.items()}


def _same_rail(planner, view, side: int, seen: dict) -> None:
    """Every unit of ``side`` on the map: the core's rail answer (``rail_cells_of``: None
    when it may not entrain, else its destinations) is ``passive._rail_cells``'s."""
    st = view.state
    for u in (view.scenario.units.side == side).nonzero()[0].tolist():
        if not st.unit_status[u] & Status.ON_MAP:
            continue
        entrained = bool(st.unit_status[u] & Status.ENTRAINED)
        ref = passive._rail_cells(view, u, entrained)
        got = planner.rail_cells_of(u)
        if ref is None:
            assert got is None
            continue
        assert got is not None and got.tolist() == ref.tolist()
        seen["entrain"] += 1
        seen["rail_cells"] += len(ref)


def _same_targets(pm, ref_pm, seen: dict) -> None:
    """The targets the core priced into the game's map are the reference map's, byte for
    byte (the hexes priced, their defence and expectation per column)."""
    assert pm.tgt_known.tobytes() == ref_pm.tgt_known.tobytes()
    assert pm.tgt_def.tobytes() == ref_pm.tgt_def.tobytes()
    assert pm.tgt_ev.tobytes() == ref_pm.tgt_ev.tobytes()
    seen["targets"] = max(seen["targets"], int(pm.tgt_known.sum()))
    seen["priced"] += int(pm.tgt_known.sum())


def _play(monkeypatch, name: str, index: int, policy: str, weigh=None, options=None,
          rail=False, judge=None):
    """One game of ``policy`` on both sides in which every movement plan the core makes, and
    every price of the moves offered after it (``on_move_action``), is compared with the
    Python reference's; what was seen. ``weigh``: a change made to the parameters the core
    is given (to see the test fail); ``judge``: the same of the weights its targets are
    priced with. ``rail``: every unit's rail answer compared too, when the plans are made
    and at each move offered (``_same_rail``)."""
    seen = {"plans": 0, "units": 0, "rail": 0, "ties": 0, "detrain": 0, "scores": 0,
            "hexes": 0, "entrain": 0, "rail_cells": 0, "targets": 0, "priced": 0}
    make_planner, make_plans = passive._core_move_planner, passive._core_move_plans
    core_scores = passive._core_scores
    context = {}

    def planner(core, view, side, pm, policy):
        context["args"] = (view, side, policy)
        context["pm"] = pm
        kept, kept_w = policy.p, policy.weights
        if weigh is not None:
            policy.p = weigh(kept)
        if judge is not None:
            policy.weights = judge(kept_w)
        try:
            return make_planner(core, view, side, pm, policy)
        finally:
            policy.p, policy.weights = kept, kept_w

    def plans(planner, units):
        view, side, policy = context["args"]
        ref_pm = context["ref_pm"] = PositionMap(view, side, policy.weights, policy.p)
        ref = policy.move_plans(view, ref_pm, units)
        if rail:
            _same_rail(planner, view, side, seen)
        got = make_plans(planner, units)
        queue, plans, gains = got
        assert queue == ref[0]
        assert plans == ref[1]
        assert _bits(gains) == _bits(ref[2])
        _same_targets(context["pm"], ref_pm, seen)
        seen["plans"] += 1
        seen["units"] += len(queue)
        seen["rail"] += sum(any(s[0] == "rail" for s in p) for p in plans.values())
        seen["detrain"] += sum(p[0] == ("detrain",) for p in plans.values())
        seen["ties"] += len(gains) - len(set(gains.values()))
        return got

    def scores(planner, pm, unit, cells, may_attack):
        ref_pm = context["ref_pm"]
        assert pm is context["pm"]
        ref_pm.refresh()
        got = core_scores(planner, pm, unit, cells, may_attack)
        ref = ref_pm.scores(unit, cells, may_attack)
        _same_targets(pm, ref_pm, seen)
        if rail:
            _same_rail(planner, context["args"][0], context["args"][1], seen)
        assert got.tobytes() == ref.tobytes()
        seen["scores"] += 1
        seen["hexes"] += len(cells)
        return got

    monkeypatch.setattr(passive, "_core_move_planner", planner)
    monkeypatch.setattr(passive, "_core_move_plans", plans)
    monkeypatch.setattr(passive, "_core_scores", scores)
    sc = load_scenario(name, options)
    g = driver("gwe").new_game(sc, 7, index, policies={0: make_policy(policy, "gwe"),
                                                       1: make_policy(policy, "gwe")})
    assert g.core is not None
    engine.advance(g)
    return seen


@pytest.mark.parametrize("name, index", [("brusilov/historical", 0),
                                         ("brusilov/historical", 1),
                                         ("brusilov/attack_on_schedule", 0),
                                         ("brusilov/attack_on_schedule", 1)])
def test_greedy_move_plans_made_by_the_core_are_the_pythons(monkeypatch, name, index):
    seen = _play(monkeypatch, name, index, "greedy")
    # every Movement Segment of the game (two a Game-Turn), rail moves, detraining, and units
    # of equal gains (queued by unit) in many plans
    assert seen["plans"] >= 20 and seen["units"] >= 250
    assert seen["rail"] >= 10 and seen["detrain"] >= 10 and seen["ties"] >= 50
    # and the moves offered after them, priced from the record kept (own sums moved)
    assert seen["scores"] >= 200 and seen["hexes"] >= 1000
    # with many targets priced in a segment
    assert seen["targets"] >= 10 and seen["priced"] >= 1000


@pytest.mark.parametrize("name, index", [("brusilov/historical", 2),
                                         ("brusilov/attack_on_schedule", 2)])
def test_passive_move_plans_made_by_the_core_are_the_pythons(monkeypatch, name, index):
    seen = _play(monkeypatch, name, index, "passive")
    assert seen["plans"] >= 20 and seen["units"] >= 80 and seen["detrain"] >= 20
    assert seen["scores"] >= 20


@pytest.mark.parametrize("name, index, options", [
    ("brusilov/historical", 3, None),
    ("brusilov/historical", 4, {"track_limits": True}),
    ("brusilov/attack_on_schedule", 3, None),
    ("brusilov/attack_on_schedule", 4, {"track_limits": True})])
def test_5_3_rail_answers_of_the_core_are_the_pythons(monkeypatch, name, index, options):
    """``rail.can_entrain`` and ``rail.rail_destinations`` (5.31-5.35, 18.1, 18.21-18.27,
    18.3 with track limits) as the core's planner answers them: for every unit of the side
    on the map, when the plans are made and at every move offered after (entrained units,
    rail hexes and capacity used, track used), the same None or the same cells in the same
    order."""
    seen = _play(monkeypatch, name, index, "greedy", options=options, rail=True)
    assert seen["entrain"] >= 500 and seen["rail_cells"] >= 5000


def test_a_changed_weight_is_seen(monkeypatch):
    """The comparison can fail: the core given another weight of a gap in the line plans
    otherwise."""
    with pytest.raises(AssertionError):
        _play(monkeypatch, "brusilov/historical", 0, "greedy",
              weigh=lambda p: p.__class__(**{**p.__dict__, "hold": p.hold + 0.25}))


def test_a_changed_weight_of_the_targets_is_seen(monkeypatch):
    """The targets' comparison can fail: the core's targets priced with another weight of
    the ground a defender leaves (which only the targets read) are not the reference's."""
    with pytest.raises(AssertionError):
        _play(monkeypatch, "brusilov/historical", 0, "greedy",
              judge=lambda w: w.__class__(**{**w.__dict__, "ground": w.ground + 0.25}))


def test_policies_that_plan_otherwise_keep_the_python_plans():
    """A subclass that overrides a step of the plans plans in Python, and so does a
    subclass of the ``PositionMap``; the greedy policy and the doctrine's sides (which plan
    moves as greedy does) ask the core; no core, no compiled plans."""

    class Steady(GreedyPolicy):
        def may_move(self, view, pm, unit):
            return False

    class Map(PositionMap):
        pass

    view = driver("gwe").new_game(load_scenario("brusilov/historical"), 1, 0).policy_view()
    assert view.core is not None
    pm = PositionMap(view, 0, GreedyPolicy().weights, GreedyPolicy().p)
    assert GreedyPolicy()._move_core(view, pm) is view.core
    assert BroadFront()._move_core(view, pm) is view.core
    assert Steady()._move_core(view, pm) is None
    sub = Map(view, 0, GreedyPolicy().weights, GreedyPolicy().p)
    assert GreedyPolicy()._move_core(view, sub) is None
    assert GreedyPolicy()._move_core(object(), pm) is None
    doctrine = DoctrinePolicy()
    doctrine.new_game(view)
    assert all(p._move_core(view, pm) is view.core for p in doctrine.sides.values())
