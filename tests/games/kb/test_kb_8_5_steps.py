"""The Kaiser's Battle 8.5 "Steps" of strength and what losing them does: a division's third
step from the regimental replacement pool (8.5[1], 13.21[2]) or its elimination when the pool
is empty (13.23), the Victory Point it costs (20.14), service companies (15.22, 15.25) and
replacement units going back to the pool (13.23). All through ``units.lose_steps`` and
``units.eliminate``."""

from __future__ import annotations

import numpy as np
import pytest

from kb_positions import kb_empty_game, kb_put, kb_service_company
from gwe_fast.enums import Side
from gwe_fast.games.kb import units
from gwe_fast.games.kb.game import LOSS_CAUSES, VP_CAUSES, Flag
from gwe_fast.state import Status

DIV = "ge-xx-88-3"          # 30-4-5 / 20-4-5, corps "german 3", stosstruppen
DIV2 = "ge-xx-50-9"
BN = "br-ii-5gh-61-18"
POOL_SIZE = 39


def lost(g, side, cause):
    return int(g.arr("steps_lost")[side, LOSS_CAUSES.index(cause)])


def vp(g, cause):
    return int(g.arr("vp_cause")[VP_CAUSES.index(cause)])


def empty_the_pool(g):
    for u in units.pool_free(g):
        g.state.unit_status[u] = Status.NOT_IN_PLAY


def test_8_5_1_a_division_loses_front_then_back_then_its_replacement_unit():
    g = kb_empty_game()
    st = g.state
    d = kb_put(g, DIV, "1105")
    assert units.pool_free(g).size == POOL_SIZE and units.steps_left(g, d) == 3
    assert units.lose_steps(g, d, 1, "combat") == 1
    assert list(units.face(g, d)) == [20, 4, 5] and st.unit_status[d] == Status.ON_MAP
    assert int(st.vp) == 0
    assert units.lose_steps(g, d, 1, "combat") == 1
    # the division counter is removed and a replacement unit takes its hex (8.5[1])
    assert st.unit_status[d] == Status.ELIMINATED and st.unit_cell[d] == -1
    rep = g.unit("ge-iii-repl-01")
    assert st.unit_status[rep] == Status.ON_MAP and st.unit_cell[rep] == g.scenario.map.cell("1105")
    assert list(units.face(g, rep)) == [10, 3, 3]
    assert g.flag(rep, Flag.FROM_DIVISION)
    assert g.arr("corps")[rep] == g.arr("corps")[d]               # 16.0 ruling
    assert units.pool_free(g).size == POOL_SIZE - 1
    assert int(st.vp) == -1 and vp(g, "divisions_replaced") == -1   # 20.14
    # the third and last step: the replacement unit goes back to the pool (13.23)
    assert units.lose_steps(g, rep, 1, "combat") == 1
    assert st.unit_status[rep] == Status.POOL and st.unit_cell[rep] == -1
    assert g.arr("flags")[rep] == 0 and g.arr("corps")[rep] == -1
    assert units.pool_free(g).size == POOL_SIZE
    assert int(st.vp) == -1                                        # 20.14: once
    assert lost(g, Side.CENTRAL, "combat") == 3
    assert int(g.arr("sp_lost")[Side.CENTRAL].sum()) == 12          # the 12 points it had


def test_8_5_1_one_loss_of_several_steps_runs_on_into_the_replacement():
    g = kb_empty_game()
    d = kb_put(g, DIV, "1105")
    assert units.lose_steps(g, d, 5, "combat") == 3               # no more than it has
    assert not units.on_map(g, Side.CENTRAL).any()
    assert units.pool_free(g).size == POOL_SIZE
    assert int(g.state.vp) == -1


def test_8_5_1_eliminate_takes_every_step_but_does_not_replace_the_division():
    # 8.71 / 7.21 "eliminated": every step is lost, the third included, but the division is
    # never "replaced with a regimental replacement unit" (20.14; rulings, combat 8.71)
    g = kb_empty_game()
    d = kb_put(g, DIV, "1105")
    assert units.eliminate(g, d, "combat") == 3
    assert g.state.unit_status[d] == Status.ELIMINATED
    assert lost(g, Side.CENTRAL, "combat") == 3
    assert units.pool_free(g).size == POOL_SIZE and int(g.state.vp) == 0
    assert not units.on_map(g, Side.CENTRAL).any()


def test_20_14_a_division_already_replaced_keeps_its_point_lost():
    g = kb_empty_game()
    d = kb_put(g, DIV, "1105")
    units.lose_steps(g, d, 2, "combat")
    rep = g.unit("ge-iii-repl-01")
    units.eliminate(g, rep, "combat")
    assert int(g.state.vp) == -1 and units.pool_free(g).size == POOL_SIZE


def test_13_23_with_an_empty_pool_a_reduced_division_is_eliminated_instead():
    g = kb_empty_game()
    empty_the_pool(g)
    d = kb_put(g, DIV, "1105")
    assert units.steps_left(g, d) == 2
    assert units.lose_steps(g, d, 2, "combat") == 2
    assert g.state.unit_status[d] == Status.ELIMINATED
    assert not units.on_map(g, Side.CENTRAL).any()
    assert int(g.state.vp) == 0                       # 20.14: not replaced, no point lost


def test_13_23_a_replacement_unit_on_the_map_comes_back_as_soon_as_it_is_eliminated():
    g = kb_empty_game()
    empty_the_pool(g)
    rep = kb_put(g, "ge-iii-repl-01", "1107")        # the only one, on the map
    g.arr("corps")[rep] = 0
    d = kb_put(g, DIV, "1105")
    g.state.unit_step[d] = 1
    assert units.steps_left(g, d) == 1
    units.lose_steps(g, rep, 1, "drumfire")
    assert list(units.pool_free(g)) == [rep]
    assert units.steps_left(g, d) == 2
    units.lose_steps(g, d, 1, "combat")               # now it can take the third step
    assert g.state.unit_status[rep] == Status.ON_MAP
    assert g.state.unit_cell[rep] == g.scenario.map.cell("1105")


def test_20_14_one_victory_point_per_division_replaced_whatever_the_loss():
    g = kb_empty_game()
    d1 = kb_put(g, DIV, "1105")
    d2 = kb_put(g, DIV2, "1305")
    units.lose_steps(g, d1, 2, "combat")
    units.lose_steps(g, d2, 2, "drumfire")
    assert vp(g, "divisions_replaced") == -2 and int(g.state.vp) == -2
    assert lost(g, Side.CENTRAL, "combat") == 2 and lost(g, Side.CENTRAL, "drumfire") == 2


def test_8_5_the_replacement_keeps_what_the_division_did_this_turn():
    # ruling: the third step is the same formation (5.11, 8.14, 8.87, 13.12, 17.12)
    g = kb_empty_game()
    d = kb_put(g, DIV, "1105")
    g.state.unit_step[d] = 1
    keep = Flag.MOVED | Flag.ATTACKED | Flag.DEFENDED | Flag.ADVANCED | Flag.OPENING
    g.arr("flags")[d] = keep
    units.lose_steps(g, d, 1, "combat")
    rep = g.unit("ge-iii-repl-01")
    assert g.arr("flags")[rep] == keep | Flag.FROM_DIVISION


def test_13_24_a_replacement_from_a_stoss_division_is_not_stoss():
    g = kb_empty_game()
    d = kb_put(g, DIV, "1105")
    stoss = np.asarray(g.scenario.units.extra["stoss"]).astype(bool)
    assert stoss[d]
    units.lose_steps(g, d, 2, "combat")
    assert not stoss[g.unit("ge-iii-repl-01")]


@pytest.mark.parametrize("uid", ["br-x-59-20-18", "ge-iii-15-13-gyl", "fr-iii-25-9-5"])
def test_8_5_2_brigades_and_named_regiments_have_two_steps(uid):
    g = kb_empty_game()
    u = kb_put(g, uid, "1105")
    front, back = (list(v) for v in g.scenario.units.values[u, :2])
    assert units.steps_left(g, u) == 2 and list(units.face(g, u)) == front
    units.lose_steps(g, u, 1, "combat")
    assert list(units.face(g, u)) == back and g.state.unit_status[u] == Status.ON_MAP
    units.lose_steps(g, u, 1, "combat")
    assert g.state.unit_status[u] == Status.ELIMINATED
    assert units.pool_free(g).size == POOL_SIZE                   # nothing from the pool


@pytest.mark.parametrize("uid", [BN, "br-i-478-18", "ge-hq-3", "br-ii-6-3cv-18",
                                 "ge-iii-repl-02"])
def test_8_5_3_one_step_units(uid):
    g = kb_empty_game()
    u = kb_put(g, uid, "1105")
    assert units.steps_left(g, u) == 1
    assert units.lose_steps(g, u, 2, "combat") == 1
    assert not g.state.unit_status[u] & Status.ON_MAP


def test_15_22_an_eliminated_infantry_battalion_becomes_a_service_company():
    g = kb_empty_game()
    b = kb_put(g, BN, "1105")
    cav = kb_put(g, "br-ii-6-3cv-18", "1107")
    coy = kb_put(g, "br-i-478-18", "1109")
    assert list(units.service_free(g)) == []
    for u in (b, cav, coy):
        units.lose_steps(g, u, 1, "combat")
    # only the infantry battalion has a service-company back
    assert list(units.service_free(g)) == [b]
    assert g.state.unit_status[b] == Status.ELIMINATED and g.state.unit_step[b] == 0


def test_15_25_a_service_company_eliminated_is_available_again():
    g = kb_empty_game()
    s = kb_service_company(g, BN, "1105")
    assert list(units.face(g, s)) == [1, 1, 3]                    # its reverse (15.22)
    assert units.steps_left(g, s) == 1
    assert list(units.service_free(g)) == []
    assert units.lose_steps(g, s, 1, "ground_attack") == 1
    assert g.state.unit_status[s] == Status.ELIMINATED
    assert not g.flag(s, Flag.SERVICE)
    assert list(units.service_free(g)) == [s]
    assert lost(g, Side.ALLIED, "ground_attack") == 1
    assert int(g.arr("sp_lost")[Side.ALLIED].sum()) == 1          # a company's point
