"""The Kaiser's Battle 7.0 Stacking: 7.1 Stacking Points, 7.2 restrictions (only at the end of
a friendly Movement Phase; the owner eliminates the excess; no cost to stack)."""

from __future__ import annotations

import numpy as np
import pytest

from kb_positions import (Scripted, kb_empty_game, kb_put, kb_service_company,
                          kb_without_gas_losses)
from gwe_fast.enums import Side
from gwe_fast.games.kb import engine, movement, stacking, units
from gwe_fast.games.kb.game import LOSS_CAUSES
from gwe_fast.state import Status

BRIGADES = ("br-x-59-20-18", "br-x-61-20-18", "br-x-60-20-18")
BN = "br-ii-5gh-61-18"
BN2 = "br-ii-4ob-61-18"
BN3 = "br-ii-4bk-61-18"


def cell(g, h):
    return g.scenario.map.cell(h)


@pytest.mark.parametrize("uid, points", [
    ("ge-xx-88-3", 12),              # 1. division
    ("br-x-59-20-18", 4),            # 2. brigade
    ("ge-iii-15-13-gyl", 4),         # 2. regiment
    ("fr-iii-25-9-5", 4),
    ("ge-iii-repl-01", 4),           # a regimental replacement unit is a regiment
    (BN, 2),                         # 3. battalion
    ("br-ii-6-3cv-18", 2),
    ("br-i-478-18", 1),              # 4. company
    ("br-i-4sk-58-3", 1),
    ("ge-hq-3", 1),                  # 4. headquarters
    ("fr-hq-5", 1),
])
def test_7_1_stacking_points_by_size(uid, points):
    g = kb_empty_game()
    u = kb_put(g, uid, "1105")
    assert units.stacking(g, u) == points
    if g.data.division[u]:                       # a reduced division is still a division
        g.state.unit_step[u] = 1
        assert units.stacking(g, u) == 12


def test_7_1_a_service_company_is_a_company():
    g = kb_empty_game()
    u = kb_service_company(g, BN, "1105")
    assert units.stacking(g, u) == 1


def test_7_0_at_most_twelve_points_of_one_side_per_hex():
    g = kb_empty_game()
    for uid in BRIGADES:
        kb_put(g, uid, "1105")
    assert stacking.over_limit(g, Side.ALLIED) == []              # 12: the limit
    kb_put(g, "br-i-478-18", "1105")
    assert stacking.over_limit(g, Side.ALLIED) == [cell(g, "1105")]
    assert stacking.over_limit(g, Side.CENTRAL) == []


def test_7_21_the_owner_eliminates_the_excess():
    pol = Scripted({"kb.stacking.eliminate": [None]})
    g = kb_empty_game(policies={Side.ALLIED: pol})
    br = [kb_put(g, uid, "1105") for uid in BRIGADES]
    bns = [kb_put(g, uid, "1105") for uid in (BN, BN2, BN3)]          # 18 points
    other = kb_put(g, "br-i-478-18", "1107")
    pol.script["kb.stacking.eliminate"] = [br[0], bns[1]]
    stacking.enforce(g, Side.ALLIED)
    # the owner chose a brigade (18 -> 14), then a battalion (14 -> 12): then it stops
    assert [d.kind for d in pol.seen] == ["kb.stacking.eliminate"] * 2
    assert sorted(pol.seen[0].options) == sorted(br + bns)
    st = g.state
    assert st.unit_status[br[0]] == Status.ELIMINATED and st.unit_status[bns[1]] == Status.ELIMINATED
    left = [int(u) for u in st.units_at(cell(g, "1105"))]
    assert sorted(left) == sorted(br[1:] + [bns[0], bns[2]])
    assert units.stacking_points(g, left) == 12
    assert st.unit_status[other] == Status.ON_MAP
    lost = g.arr("steps_lost")[Side.ALLIED, LOSS_CAUSES.index("stacking")]
    assert lost == 2 + 1                                          # every step of both


def test_7_21_only_at_the_end_of_a_friendly_movement_phase(monkeypatch):
    kb_without_gas_losses(monkeypatch)
    pol = Scripted({"kb.move.unit": [], "kb.move.to": [], "kb.stacking.eliminate": []})
    g = kb_empty_game(policies={Side.ALLIED: pol})
    br = [kb_put(g, uid, "1106") for uid in BRIGADES]                # 12 points
    a = kb_put(g, BN, "1105")
    b = kb_put(g, BN2, "1104")
    # a passes through the full stack to 1107; b stops in it; then nothing more
    pol.script["kb.move.unit"] = [a, b, -1, -1]
    pol.script["kb.move.to"] = [("move", cell(g, "1107")), ("move", cell(g, "1106"))]
    pol.script["kb.stacking.eliminate"] = [b]
    # mid-phase the hex may hold more: the limit is checked only as the phase ends
    seen_mid = []
    orig = engine.movement_segment

    def segment(game, side, seg):
        orig(game, side, seg)
        seen_mid.append(units.stacking_points(game, game.state.units_at(cell(game, "1106"))))

    monkeypatch.setattr(engine, "movement_segment", segment)
    engine.movement_phase(g, Side.ALLIED)
    assert seen_mid == [14, 14]
    path = [g.scenario.map.id_of(int(c)) for c in np.flatnonzero(g.state.hex_last == Side.ALLIED)]
    assert "1106" in path and g.state.unit_cell[a] == cell(g, "1107")
    assert g.state.unit_status[b] == Status.ELIMINATED
    assert sorted(int(u) for u in g.state.units_at(cell(g, "1106"))) == sorted(br)


def test_7_21_the_enemy_stacks_are_not_checked_in_my_phase():
    g = kb_empty_game()
    for uid in BRIGADES:
        kb_put(g, uid, "1105")
    kb_put(g, BN, "1105")
    stacking.enforce(g, Side.CENTRAL)
    assert len(g.state.units_at(cell(g, "1105"))) == 4


def test_7_22_no_movement_point_cost_to_stack_or_unstack():
    g = kb_empty_game()
    a = kb_put(g, BN, "1105")
    alone = movement.routes(g, a, movement.FIRST)[0].copy()
    for uid in BRIGADES[:2]:
        kb_put(g, uid, "1105")                  # a leaves a stack...
    kb_put(g, BRIGADES[2], "1104")              # ...and may join another
    with_stack = movement.routes(g, a, movement.FIRST)[0]
    assert np.array_equal(alone, with_stack)
    assert with_stack[cell(g, "1104")] == 1


def test_7_21_a_division_eliminated_for_stacking_is_not_replaced():
    # ruling (with combat's 8.71): eliminated whole, it costs no 20.14 point and no pool unit
    pol = Scripted({"kb.stacking.eliminate": [None]})
    g = kb_empty_game(policies={Side.CENTRAL: pol})
    d = kb_put(g, "ge-xx-88-3", "1105")
    kb_put(g, "ge-hq-3", "1105")
    pol.script["kb.stacking.eliminate"] = [d]
    stacking.enforce(g, Side.CENTRAL)
    assert g.state.unit_status[d] == Status.ELIMINATED
    assert int(g.state.vp) == 0 and units.pool_free(g).size == 39
    assert g.arr("steps_lost")[Side.CENTRAL, LOSS_CAUSES.index("stacking")] == 3
