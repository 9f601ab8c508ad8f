"""The Kaiser's Battle 17.0 Special Rules, Game-Turns 1 and 2: 17.1 movement restrictions,
17.5 supply (17.6, breakdown, is in test_kb_13_breakdown.py)."""

from __future__ import annotations

import numpy as np
import pytest

from kb_positions import Scripted, kb_empty_game, kb_put
from gwe_fast.enums import Side
from gwe_fast.games.kb import engine, movement, supply
from gwe_fast.games.kb.game import Flag, KbGame
from gwe_fast.state import Status

FIRST, SECOND = movement.FIRST, movement.SECOND
# 18.1: the German divisions set up in fieldwork hexes (3902 3903 3804 3806 3908 4109 4310
# 4411 4412 4414); no German unit sets up in a redoubt or wire hex
TRENCH_GERMANS = ["ge-xx-88-3", "ge-xx-28-3", "ge-xx-50-9", "ge-xx-45r-9", "ge-xx-238-17",
                  "ge-xx-36-17", "ge-xx-1b-17", "ge-xx-34-4r", "ge-xx-37-4r", "ge-xx-103-4r"]


def real_game(turn=1, policies=None):
    g = KbGame(kb_empty_game().scenario, seed=0, policies=policies, events=True)
    g.state.turn = np.int16(turn)
    return g


def ids(g, us):
    return sorted(g.scenario.units.ids[u] for u in us)


def dice(g, stream="opening"):
    return g.dice.counts().get(stream, 0)


def first_move(d, game):
    return next(o for o in d.options if o[0] == "move")


# --- 17.11 / 17.12 German ---------------------------------------------------------------------

def test_17_11_on_game_turn_1_only_german_units_in_trench_hexes_move():
    g = real_game(turn=1)
    engine.start_of_turn(g)
    flagged = np.flatnonzero(g.arr("flags") & Flag.OPENING)
    assert ids(g, flagged) == sorted(TRENCH_GERMANS)
    engine.set_quotas(g, Side.CENTRAL)
    assert dice(g) == 0 and g.arr("move_quota")[engine.Q_GERMAN] == 0
    assert ids(g, engine.movable(g, Side.CENTRAL, FIRST, set())) == sorted(TRENCH_GERMANS)
    assert set(ids(g, engine.movable(g, Side.CENTRAL, SECOND, set()))) <= set(TRENCH_GERMANS)


def test_17_11_the_trench_units_move_as_far_as_they_like_on_turn_1(monkeypatch):
    pol = Scripted({"kb.move.unit": [], "kb.move.to": first_move})
    g = real_game(turn=1, policies={Side.CENTRAL: pol})
    engine.start_of_turn(g)
    engine.set_quotas(g, Side.CENTRAL)
    for uid in TRENCH_GERMANS[:3]:
        assert g.unit(uid) in engine.movable(g, Side.CENTRAL, FIRST, set())
        engine.move_one(g, g.unit(uid), FIRST)
        assert g.flag(g.unit(uid), Flag.MOVED)
    assert g.arr("move_quota")[engine.Q_GERMAN] == 0        # they did not use any quota
    assert ids(g, engine.movable(g, Side.CENTRAL, FIRST, set())) == sorted(TRENCH_GERMANS[3:])


def test_17_12_on_game_turn_2_the_trench_units_and_a_die_roll_of_others():
    pol = Scripted({"kb.move.unit": [], "kb.move.to": first_move})
    g = kb_empty_game(turn=2, policies={Side.CENTRAL: pol})
    a = kb_put(g, "ge-xx-88-3", "1105")
    g.set_flag(a, Flag.OPENING)                            # in a trench hex on Game-Turn 1
    b = kb_put(g, "ge-xx-113-3", "1305")
    c = kb_put(g, "ge-xx-6-3", "1505")
    d = kb_put(g, "ge-hq-3", "0905")
    g.dice.force("opening", [2])
    engine.set_quotas(g, Side.CENTRAL)
    assert g.arr("move_quota")[engine.Q_GERMAN] == 2
    assert engine.quota_slot(g, a) is None and engine.quota_slot(g, b) == engine.Q_GERMAN
    pol.script["kb.move.unit"] = [c, d, a]
    engine.movement_segment(g, Side.CENTRAL, FIRST)
    opts = [dd.options for dd in pol.seen if dd.kind == "kb.move.unit"]
    assert opts == [[-1, d, a, b, c], [-1, d, a, b], [-1, a]]    # b may no longer move
    assert g.arr("move_quota")[engine.Q_GERMAN] == 0
    assert not g.flag(b, Flag.MOVED)
    assert engine.movable(g, Side.CENTRAL, SECOND, set()) == []


def test_17_12_a_stay_does_not_use_the_quota():
    pol = Scripted({"kb.move.to": [("stay",)]})
    g = kb_empty_game(turn=2, policies={Side.CENTRAL: pol})
    b = kb_put(g, "ge-xx-113-3", "1305")
    g.dice.force("opening", [1])
    engine.set_quotas(g, Side.CENTRAL)
    engine.move_one(g, b, FIRST)
    assert g.arr("move_quota")[engine.Q_GERMAN] == 1
    assert engine.within_limits(g, np.array([b])).tolist() == [True]


# --- 17.13 / 17.14 Allied ---------------------------------------------------------------------

@pytest.mark.parametrize("turn, rolls, quotas", [(1, [2, 5], (2, 5)), (2, [2, 5], (3, 6)),
                                                 (1, [6, 1], (6, 1)), (2, [6, 1], (7, 2))])
def test_17_13_two_dice_for_18th_and_3rd_corps(turn, rolls, quotas):
    g = real_game(turn=turn)
    g.dice.force("opening", rolls)
    engine.set_quotas(g, Side.ALLIED)
    q = g.arr("move_quota")
    assert (int(q[engine.Q_ALLIED_FIRST]), int(q[engine.Q_ALLIED_SECOND])) == quotas
    assert dice(g) == 2
    eighteen = g.unit("br-ii-5gh-61-18")
    third = g.unit("br-ii-8kr-14-3")
    assert engine.quota_slot(g, eighteen) == engine.Q_ALLIED_FIRST
    assert engine.quota_slot(g, third) == engine.Q_ALLIED_SECOND
    assert engine.quota_slot(g, g.unit("br-hq-18")) == engine.Q_ALLIED_FIRST


def test_17_13_each_corps_moves_only_its_number_of_units():
    pol = Scripted({"kb.move.unit": [], "kb.move.to": first_move})
    g = kb_empty_game(turn=1, policies={Side.ALLIED: pol})
    e1 = kb_put(g, "br-ii-5gh-61-18", "1105")
    e2 = kb_put(g, "br-ii-4ob-61-18", "1107")
    t1 = kb_put(g, "br-ii-8kr-14-3", "1305")
    t2 = kb_put(g, "br-ii-7rb-14-3", "1307")
    g.dice.force("opening", [1, 2])                  # one of 18th Corps, two of 3rd
    engine.set_quotas(g, Side.ALLIED)
    pol.script["kb.move.unit"] = [e2, t1, -1, t2, -1]
    engine.movement_segment(g, Side.ALLIED, FIRST)
    engine.movement_segment(g, Side.ALLIED, SECOND)
    opts = [dd.options for dd in pol.seen if dd.kind == "kb.move.unit"]
    # the quota spans the whole phase: the Second Segment offers what is left
    assert opts == [[-1, e1, e2, t1, t2], [-1, t1, t2], [-1, t2], [-1, t2]]
    assert [bool(g.flag(u, Flag.MOVED)) for u in (e1, e2, t1, t2)] == [False, True, True, True]


def test_17_14_reinforcements_of_game_turn_2_move_freely():
    g = kb_empty_game(turn=2)
    r = kb_put(g, "br-x-149-50-19", "1701")
    g.set_flag(r, Flag.ARRIVED)
    e = kb_put(g, "br-ii-8ln-58-3", "3028")          # a 3rd Corps reinforcement
    g.set_flag(e, Flag.ARRIVED)
    g.dice.force("opening", [1, 1])
    engine.set_quotas(g, Side.ALLIED)
    g.arr("move_quota")[:] = 0                        # even with no quota left
    assert engine.quota_slot(g, r) is None and engine.quota_slot(g, e) is None
    assert engine.movable(g, Side.ALLIED, FIRST, set()) == sorted([r, e])


@pytest.mark.parametrize("side", [Side.ALLIED, Side.CENTRAL])
def test_17_15_from_game_turn_3_every_unit_moves_normally(side):
    g = real_game(turn=3)
    engine.set_quotas(g, side)
    assert dice(g) == 0
    assert (g.arr("move_quota") == engine.UNLIMITED).all()
    on = np.flatnonzero(g.state.unit_status & Status.ON_MAP)
    assert all(engine.quota_slot(g, int(u)) is None for u in on)
    mine = [int(u) for u in on if g.scenario.units.side[u] == side]
    assert engine.movable(g, side, FIRST, set()) == mine


# --- 17.5 supply ------------------------------------------------------------------------------

@pytest.mark.parametrize("turn, german, allied", [
    (1, supply.IN_SUPPLY, supply.ISOLATED), (2, supply.IN_SUPPLY, supply.ISOLATED),
    (3, supply.ISOLATED, supply.ISOLATED)])
def test_17_5_german_units_are_in_supply_on_game_turns_1_and_2(turn, german, allied):
    g = kb_empty_game(turn=turn)
    ge = kb_put(g, "ge-xx-88-3", "1105")              # no HQ anywhere: no line at all
    br = kb_put(g, "br-ii-5gh-61-18", "1505")
    assert supply.state_of(g, supply.line_lengths(g, Side.CENTRAL), ge) == german
    assert supply.state_of(g, supply.line_lengths(g, Side.ALLIED), br) == allied
