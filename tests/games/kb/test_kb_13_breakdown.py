"""The Kaiser's Battle 13.0 German Divisional Breakdown: 13.1 how divisions break down, 13.2
regimental replacement units (and 17.6: none on Game-Turns 1 and 2)."""

from __future__ import annotations

import numpy as np
import pytest

from kb_positions import Scripted, kb_empty_game, kb_put, kb_without_gas_losses
from gwe_fast.enums import Side
from gwe_fast.games.kb import breakdown, engine, movement, units
from gwe_fast.games.kb.game import Flag
from gwe_fast.games.kb.zoc import controlled
from gwe_fast.state import Status

DIV = "ge-xx-88-3"            # a stosstruppen division of the German 3rd Corps
DIV2 = "ge-xx-206-3"
DIV3 = "ge-xx-50-9"
BN = "br-ii-5gh-61-18"
REPS = ["ge-iii-repl-01", "ge-iii-repl-02", "ge-iii-repl-03"]


def game(turn=3, script=None):
    pol = Scripted(script or {})
    return kb_empty_game(turn=turn, policies={Side.CENTRAL: pol}), pol


def test_13_11_a_division_becomes_three_replacement_units_in_its_hex():
    g, pol = game(script={"kb.breakdown.division": [None]})
    d = kb_put(g, DIV, "1105")
    pol.script["kb.breakdown.division"] = [d]
    breakdown.breakdown_phase(g)
    assert [dd.options for dd in pol.seen] == [[-1, d]]
    st = g.state
    assert st.unit_cell[d] == -1 and st.unit_status[d] == Status.NOT_IN_PLAY
    regs = [g.unit(r) for r in REPS]
    assert sorted(int(u) for u in st.units_at(g.scenario.map.cell("1105"))) == regs
    for r in regs:
        assert st.unit_status[r] == Status.ON_MAP and st.unit_step[r] == 0
        assert g.arr("corps")[r] == g.arr("corps")[d]              # 16.0 ruling
        assert g.flag(r, Flag.NO_MOVE) and not g.flag(r, Flag.FROM_DIVISION)
    assert units.pool_free(g).size == 39 - 3
    assert int(g.arr("broken_down")[0]) == 1
    assert int(st.vp) == 0                                       # 20.14: no loss for this


def test_13_11_only_divisions_that_begin_the_phase_outside_enemy_zones():
    g, pol = game()
    d = kb_put(g, DIV, "1105")
    d2 = kb_put(g, DIV2, "1305")
    kb_put(g, BN, "1106")                    # controls 1105, not 1305
    assert controlled(g, Side.ALLIED)[g.scenario.map.cell("1105")]
    assert breakdown.eligible(g, controlled(g, Side.ALLIED)) == [d2]
    pol.script["kb.breakdown.division"] = [-1]
    breakdown.breakdown_phase(g)
    assert pol.seen[0].options == [-1, d2]
    assert g.state.unit_status[d] == Status.ON_MAP


def test_13_11_a_reduced_division_breaks_down_too():
    # ruling: "any of his divisions": the back face as well
    g, _ = game()
    d = kb_put(g, DIV, "1105")
    g.state.unit_step[d] = 1
    assert breakdown.eligible(g, controlled(g, Side.ALLIED)) == [d]
    assert len(breakdown.break_down(g, d)) == 3


def test_13_11_only_divisions():
    g, _ = game()
    for uid in ("ge-iii-15-13-gyl", "ge-hq-3", "ge-iii-repl-04"):
        kb_put(g, uid, "1105")
    assert breakdown.eligible(g, controlled(g, Side.ALLIED)) == []


def test_13_12_the_regiments_may_not_move_in_the_ensuing_movement_phase(monkeypatch):
    kb_without_gas_losses(monkeypatch)
    g, pol = game()
    d = kb_put(g, DIV, "1105")
    other = kb_put(g, DIV2, "1305")
    regs = breakdown.break_down(g, d)
    assert engine.movable(g, Side.CENTRAL, movement.FIRST, set()) == [other]
    assert engine.movable(g, Side.CENTRAL, movement.SECOND, set()) == [other]
    pol.script["kb.move.unit"] = [-1, -1]
    engine.movement_phase(g, Side.CENTRAL)
    assert [dd.options for dd in pol.seen] == [[-1, other], [-1, other]]
    # the next Movement Phase they move as any unit
    assert not any(g.flag(r, Flag.NO_MOVE) for r in regs)
    assert engine.movable(g, Side.CENTRAL, movement.FIRST, set()) == [other] + regs


def test_13_13_a_broken_down_division_never_comes_back():
    g, _ = game()
    d = kb_put(g, DIV, "1105")
    breakdown.break_down(g, d)
    assert units.steps_left(g, d) == 0
    assert d not in units.pool_free(g) and d not in units.service_free(g)
    assert breakdown.eligible(g, controlled(g, Side.ALLIED)) == []
    # losing its regiments does not restore it
    for r in REPS:
        units.eliminate(g, g.unit(r), "combat")
    assert g.state.unit_status[d] == Status.NOT_IN_PLAY
    assert units.pool_free(g).size == 39


def test_13_14_as_many_eligible_divisions_as_he_desires():
    g, pol = game()
    d1 = kb_put(g, DIV, "1105")
    d2 = kb_put(g, DIV2, "1305")
    d3 = kb_put(g, DIV3, "1505")
    pol.script["kb.breakdown.division"] = [d3, d1, -1]
    breakdown.breakdown_phase(g)
    assert [dd.options for dd in pol.seen] == [[-1, d1, d2, d3], [-1, d1, d2], [-1, d2]]
    assert g.state.unit_status[d2] == Status.ON_MAP
    assert int(g.arr("broken_down")[0]) == 2 and units.pool_free(g).size == 39 - 6


@pytest.mark.parametrize("free, can", [(0, False), (2, False), (3, True)])
def test_13_23_no_breakdown_without_three_replacement_units(free, can):
    # ruling: 13.11 needs three regiments; a pool of one or two cannot give them
    g, _ = game()
    for u in units.pool_free(g)[free:]:
        g.state.unit_status[u] = Status.NOT_IN_PLAY
    d = kb_put(g, DIV, "1105")
    assert breakdown.eligible(g, controlled(g, Side.ALLIED)) == ([d] if can else [])


def test_13_23_breakdown_limited_by_the_pool_within_one_phase():
    g, pol = game()
    for u in units.pool_free(g)[4:]:
        g.state.unit_status[u] = Status.NOT_IN_PLAY          # four left: one breakdown
    d1 = kb_put(g, DIV, "1105")
    d2 = kb_put(g, DIV2, "1305")
    pol.script["kb.breakdown.division"] = [d1]
    breakdown.breakdown_phase(g)
    assert len(pol.seen) == 1                                # then nobody is eligible
    assert g.state.unit_status[d2] == Status.ON_MAP and units.pool_free(g).size == 1


def test_13_24_regiments_from_a_stoss_division_are_not_stoss():
    g, _ = game()
    d = kb_put(g, DIV, "1105")
    stoss = np.asarray(g.scenario.units.extra["stoss"]).astype(bool)
    assert stoss[d]
    regs = breakdown.break_down(g, d)
    assert not stoss[regs].any()


@pytest.mark.parametrize("turn", [1, 2])
def test_17_6_no_breakdown_on_game_turns_1_and_2(turn):
    g, pol = game(turn=turn)                 # an unscripted question would fail the test
    d = kb_put(g, DIV, "1105")
    breakdown.breakdown_phase(g)
    assert pol.seen == [] and g.state.unit_status[d] == Status.ON_MAP


def test_13_21_one_pool_for_breakdowns_and_third_steps():
    g, _ = game()
    for u in units.pool_free(g)[4:]:
        g.state.unit_status[u] = Status.NOT_IN_PLAY              # four in the pool
    d1 = kb_put(g, DIV, "1105")
    d2 = kb_put(g, DIV2, "1305")
    breakdown.break_down(g, d1)                                  # three of them
    g.state.unit_step[d2] = 1
    units.lose_steps(g, d2, 1, "combat")                         # the fourth: a third step
    rep = int(g.state.units_at(g.scenario.map.cell("1305"))[0])
    assert g.data.replacement[rep] and g.flag(rep, Flag.FROM_DIVISION)
    assert units.pool_free(g).size == 0
    assert breakdown.eligible(g, controlled(g, Side.ALLIED)) == []


def test_13_22_a_replacement_unit_has_a_single_step():
    g, _ = game()
    d = kb_put(g, DIV, "1105")
    regs = breakdown.break_down(g, d)
    assert all(units.steps_left(g, r) == 1 for r in regs)
    assert units.lose_steps(g, regs[0], 1, "combat") == 1
    assert g.state.unit_status[regs[0]] == Status.POOL          # 13.23: back to the pool
    assert units.pool_free(g).size == 39 - 2
