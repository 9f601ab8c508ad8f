"""The Kaiser's Battle 5.0 Movement: 5.1 restrictions, 5.2 the two Movement Segments, 5.3
terrain, 5.4 other friendly units (and 9.34[1], gas doubling the terrain).

Positions are on the real map; every hex used is checked for its terrain in the test.
"""

from __future__ import annotations

import numpy as np
import pytest

from kb_positions import (Scripted, kb_around, kb_empty_game, kb_put, kb_service_company,
                          kb_step_cost, kb_without_gas_losses)
from gwe_fast.enums import Feature, Side, Terrain
from gwe_fast.games.kb import engine, movement
from gwe_fast.games.kb.game import Flag
from gwe_fast.games.kb.zoc import controlled, occupied

FIRST, SECOND = movement.FIRST, movement.SECOND
BN = "br-ii-5gh-61-18"        # British infantry battalion 3-3-4
BN2 = "br-ii-4ob-61-18"
DIV = "ge-xx-88-3"            # German division 30-4-5
DIV2 = "ge-xx-113-3"
REG = "ge-iii-15-13-gyl"      # German regiment 10-3-3
GHQ = "ge-hq-3"               # German HQ 1-4-4


def cell(g, hexid):
    return g.scenario.map.cell(hexid)


def reach(g, dist):
    """{hex id: Movement Points} of every hex a unit can reach (its own hex included)."""
    m = g.scenario.map
    return {m.id_of(int(c)): int(dist[c]) for c in np.flatnonzero(dist >= 0)}


def assert_plain(g, hexes):
    """Precondition: every hex costs 1 MP and no hexside among them adds anything."""
    m = g.scenario.map
    for h in hexes:
        c = m.cell(h)
        assert g.data.enter_cost[c] == 1, h
        assert not g.data.side_add[c].any(), h


def twin(g, start, ma, stop=(), forbidden=()):
    """An independent, readable twin of the search: least Movement Points (hex cost + hexside
    cost from the chart data) to every hex within ``ma``, never going on from a ``stop`` hex
    (other than the start) and never entering a ``forbidden`` one."""
    import heapq

    m = g.scenario.map
    s = m.cell(start)
    stop = {m.cell(h) for h in stop}
    forbidden = {m.cell(h) for h in forbidden}
    best = {s: 0}
    heap = [(0, s)]
    while heap:
        k, c = heapq.heappop(heap)
        if k > best[c] or (c in stop and c != s):
            continue
        for d, w in enumerate(m.neighbors[c]):
            w = int(w)
            if w < 0 or w in forbidden:
                continue
            nk = k + int(g.data.enter_cost[w]) + int(g.data.side_add[c, d])
            if nk <= ma and nk < best.get(w, 10**9):
                best[w] = nk
                heapq.heappush(heap, (nk, w))
    return {m.id_of(c): v for c, v in best.items()}


# --- 5.1 movement restrictions --------------------------------------------------------------

def test_5_11_a_unit_moves_in_the_first_or_the_second_segment_never_both(monkeypatch):
    kb_without_gas_losses(monkeypatch)
    asked = []

    def pick_unit(d, game):
        asked.append((d.context["segment"], list(d.options)))
        return a if d.context["segment"] == FIRST and a in d.options else -1

    pol = Scripted({"kb.move.unit": pick_unit, "kb.move.to": [("move", 0)]})
    g = kb_empty_game(turn=3, policies={Side.CENTRAL: pol})
    a = kb_put(g, DIV, "1105")
    b = kb_put(g, DIV2, "1305")
    pol.script["kb.move.to"] = [("move", cell(g, "1104"))]
    engine.movement_phase(g, Side.CENTRAL)
    # the first segment offers both; after a has moved, the second offers only b
    assert asked == [(FIRST, [-1, a, b]), (FIRST, [-1, b]), (SECOND, [-1, b])]
    assert g.state.unit_cell[a] == cell(g, "1104") and g.flag(a, Flag.MOVED)
    assert g.state.unit_cell[b] == cell(g, "1305") and not g.flag(b, Flag.MOVED)


def test_5_11_the_phasing_player_may_move_none_of_his_units(monkeypatch):
    kb_without_gas_losses(monkeypatch)
    pol = Scripted({"kb.move.unit": lambda d, game: -1})
    g = kb_empty_game(turn=3, policies={Side.CENTRAL: pol})
    a = kb_put(g, DIV, "1105")
    engine.movement_phase(g, Side.CENTRAL)
    assert pol.kinds() == ["kb.move.unit", "kb.move.unit"]      # asked once per segment
    assert g.state.unit_cell[a] == cell(g, "1105")


def test_5_12_never_into_an_enemy_occupied_hex():
    g = kb_empty_game()
    a = kb_put(g, DIV, "1105")
    kb_service_company(g, BN, "1106")       # occupies 1106 and controls nothing (15.24)
    assert not controlled(g, Side.ALLIED).any()
    assert kb_step_cost(g, a, "1105", "1106") < 0
    r = reach(g, movement.routes(g, a, FIRST)[0])
    assert "1106" not in r
    # everything else within the allowance, the hexes beyond 1106 included (around it)
    assert r == {h: d for h, d in twin(g, "1105", 5, forbidden=["1106"]).items()}
    assert r["1107"] == 3               # 1106 and 1107 share no other neighbour of 1105


def test_5_13_and_6_21_a_unit_stops_on_entering_an_enemy_controlled_hex():
    g = kb_empty_game()
    m = g.scenario.map
    kb_put(g, BN, "1010")
    a = kb_put(g, DIV, "1007")
    ring = kb_around(g, "1010")
    dist, pred = movement.routes(g, a, FIRST)
    r = reach(g, dist)
    assert r == twin(g, "1007", 5, stop=ring, forbidden=["1010"])
    assert r["1009"] == 2 and r["0909"] == 2
    # no path ever goes on from a controlled hex
    assert not [h for h in r if pred[m.cell(h)] >= 0 and m.id_of(int(pred[m.cell(h)])) in ring]
    assert "1012" not in r              # beyond the ring: 5 hexes away, but only through it


@pytest.mark.parametrize("uid, ma, half", [(DIV, 5, 2), (REG, 3, 1), (GHQ, 4, 2)])
def test_5_13_leaving_costs_half_the_allowance_rounded_down_plus_the_terrain(uid, ma, half):
    g = kb_empty_game()
    kb_put(g, BN, "1107")                 # controls 1006 1007 1106 1108 1206 1207
    a = kb_put(g, uid, "1106")
    assert movement.allowance(g, a, FIRST) == ma
    dist, pred = movement.routes(g, a, FIRST)
    r = reach(g, dist)
    for h in ("1005", "1105", "1205"):    # clear, not controlled: 1 + half
        assert r[h] == 1 + half and pred[cell(g, h)] == cell(g, "1106")
    # the controlled neighbours are never entered directly (5.13 "directly into a hex that is
    # not enemy-controlled", 6.23); a unit that has left may enter one later (6.22)
    for h in ("1006", "1206"):
        assert pred[cell(g, h)] != cell(g, "1106")
        assert r.get(h, -1) == (2 + half if 2 + half <= ma else -1)


def test_5_13_leaving_into_woods_pays_the_woods():
    g = kb_empty_game()
    m = g.scenario.map
    assert m.terrain[m.cell("2120")] == Terrain.WOODS
    assert m.terrain[m.cell("2021")] == Terrain.CLEAR
    kb_put(g, BN, "1920")                 # controls 2020, not 2120 or 2021
    a = kb_put(g, REG, "2020")
    r = reach(g, movement.routes(g, a, FIRST)[0])
    assert r["2120"] == 2 + 1 and r["2021"] == 1 + 1


def test_5_13_no_leaving_and_no_entering_in_the_second_segment():
    g = kb_empty_game()
    kb_put(g, BN, "1107")
    a = kb_put(g, DIV, "1106")            # in the zone
    b = kb_put(g, DIV2, "1104")           # outside it
    assert a not in engine.movable(g, Side.CENTRAL, SECOND, set())
    assert a in engine.movable(g, Side.CENTRAL, FIRST, set())
    r = reach(g, movement.routes(g, b, SECOND)[0])
    assert not set(kb_around(g, "1107")) & set(r)


def test_5_15_one_hex_whatever_it_costs():
    g = kb_empty_game()
    m = g.scenario.map
    assert m.terrain[m.cell("1904")] == Terrain.SWAMP and m.terrain[m.cell("1804")] == Terrain.CLEAR
    a = kb_put(g, BN, "1804")             # 4 MP; 1904 is swamp (3) across a river (+2)
    assert kb_step_cost(g, a, "1804", "1904") == 5
    dist, pred = movement.routes(g, a, FIRST)
    assert dist[m.cell("1904")] == 5 and pred[m.cell("1904")] == m.cell("1804")
    # and no further: nothing is reached through 1904
    assert not [c for c in np.flatnonzero(dist >= 0) if pred[c] == m.cell("1904")]


def test_5_15_one_hex_out_of_a_zone_but_never_zone_to_zone():
    g = kb_empty_game()
    kb_put(g, BN, "1805")                 # controls 1705 1706 1804 1806 1905 1906
    a = kb_put(g, REG, "1804")            # 3 MP: leaving costs +1
    # 1704 clear across an excavation (1+1), 1803 clear across a river (1+2), 1904 swamp
    # across a river (3+2); 1705 and 1905 are controlled
    r = reach(g, movement.routes(g, a, FIRST)[0])
    assert r == {"1804": 0, "1704": 3, "1803": 4, "1904": 6}


# --- 5.2 the two Movement Segments ----------------------------------------------------------

def test_5_21_first_segment_up_to_the_movement_allowance():
    g = kb_empty_game()
    a = kb_put(g, BN, "1105")
    m = g.scenario.map
    assert_plain(g, [m.id_of(int(c)) for c in m.within("1105", 4)])
    dist, _ = movement.routes(g, a, FIRST)
    d = m.distances_from("1105")
    assert np.array_equal(dist, np.where(d <= 4, d, -1))        # the whole array


def test_5_22_second_segment_triples_the_allowance():
    g = kb_empty_game()
    m = g.scenario.map
    block = [f"{c:02d}{r:02d}" for c in range(1, 16) for r in range(1, 9)]
    assert_plain(g, block)
    a = kb_put(g, BN, "0204")
    assert movement.allowance(g, a, SECOND) == 12
    dist, _ = movement.routes(g, a, SECOND)
    d = m.distances_from("0204")
    for h in block:
        c = m.cell(h)
        assert dist[c] == (d[c] if d[c] <= 12 else -1), h
    assert dist.max() == 12 and dist[m.cell("1404")] == 12 and dist[m.cell("1504")] == -1


def test_5_22_second_segment_never_in_an_enemy_zone():
    g = kb_empty_game()
    kb_put(g, BN, "1010")
    a = kb_put(g, DIV, "1007")
    ring = kb_around(g, "1010")
    r = reach(g, movement.routes(g, a, SECOND)[0])
    assert not set(ring) & set(r)                      # during and at the end
    assert r == twin(g, "1007", 15, forbidden=ring + ["1010"])
    assert r["1012"] == 7         # round the zone: 1108 1208 1209 1210 1211 1112 1012


def test_5_22_only_units_that_did_not_move_in_the_first_segment():
    g = kb_empty_game()
    a = kb_put(g, DIV, "1104")
    b = kb_put(g, DIV2, "1304")
    g.set_flag(a, Flag.MOVED)
    assert engine.movable(g, Side.CENTRAL, SECOND, set()) == [b]


def test_5_23_headquarters_move_only_in_the_first_segment():
    g = kb_empty_game()
    hq = kb_put(g, GHQ, "1105")
    d = kb_put(g, DIV, "1105")
    bhq = kb_put(g, "br-hq-18", "0905")
    assert engine.movable(g, Side.CENTRAL, FIRST, set()) == [hq, d]
    assert engine.movable(g, Side.CENTRAL, SECOND, set()) == [d]
    assert engine.movable(g, Side.ALLIED, SECOND, set()) == []
    assert engine.movable(g, Side.ALLIED, FIRST, set()) == [bhq]


# --- 5.3 terrain ----------------------------------------------------------------------------

TERRAIN_CASES = [
    # what, from, into, expected MP (5.32)
    ("clear", "1104", "1105", 1),
    ("woods", "0822", "0823", 2),
    ("hilltop", "1722", "1723", 2),
    ("town", "0903", "0904", 1),
    ("swamp", "1805", "1905", 3),
    ("redoubt", "3701", "3801", 2),
    ("fieldwork", "2802", "2902", 2),
    ("wire", "3703", "3704", 2),
    ("river", "0713", "0714", 1 + 2),
    ("river", "0714", "0713", 1 + 2),       # a town across the river, the other way
    ("excavation", "1604", "1705", 1 + 1),
    ("canal", "3211", "3212", 1 + 2),       # ruling: a canal is a river
    ("town in woods", "1024", "1125", 2),   # ruling: the highest cost of the hex
    ("town in swamp", "1908", "2008", 3),
    ("redoubt on a hilltop", "3605", "3705", 2),
]
WHAT = {"woods": (Terrain.WOODS, 0), "hilltop": (Terrain.HILLTOP, 0),
        "town": (Terrain.CLEAR, Feature.TOWN), "swamp": (Terrain.SWAMP, 0),
        "redoubt": (Terrain.CLEAR, Feature.REDOUBT), "fieldwork": (Terrain.CLEAR, Feature.FIELDWORK),
        "wire": (Terrain.CLEAR, Feature.WIRE), "clear": (Terrain.CLEAR, 0),
        "town in woods": (Terrain.WOODS, Feature.TOWN), "town in swamp": (Terrain.SWAMP, Feature.TOWN),
        "redoubt on a hilltop": (Terrain.HILLTOP, Feature.REDOUBT)}
SIDE = {"river": "MINOR_RIVER", "excavation": "EXCAVATION", "canal": "CANAL"}


@pytest.mark.parametrize("what, a, b, mp", TERRAIN_CASES,
                         ids=[f"{w}-{a}-{b}" for w, a, b, _ in TERRAIN_CASES])
def test_5_31_5_32_terrain_effects_chart(what, a, b, mp):
    from gwe_fast.enums import Hexside

    g = kb_empty_game()
    m = g.scenario.map
    side = m.hexside(a, b)
    if what in SIDE:
        assert side & getattr(Hexside, SIDE[what])
        assert m.terrain[m.cell(b)] == Terrain.CLEAR
    else:
        terrain, feature = WHAT[what]
        assert m.terrain[m.cell(b)] == terrain
        assert int(m.features[m.cell(b)]) & int(Feature.TOWN | Feature.REDOUBT | Feature.FIELDWORK
                                                | Feature.WIRE) == int(feature)
        assert not side & (Hexside.MINOR_RIVER | Hexside.CANAL | Hexside.EXCAVATION)
    # the same for both sides and every unit type (10.0: trenches "apply to both Players")
    g2 = kb_empty_game()
    for uid, gg in ((BN, g), (DIV, g2)):
        u = kb_put(gg, uid, a)
        assert kb_step_cost(gg, u, a, b) == mp


def test_5_32_the_vp_line_has_no_effect_on_movement():
    from gwe_fast.enums import Hexside

    g = kb_empty_game()
    m = g.scenario.map
    assert m.hexside("3601", "3701") & Hexside.VP_LINE
    u = kb_put(g, DIV, "3601")
    assert kb_step_cost(g, u, "3601", "3701") == 1


def test_9_34_1_persistent_gas_doubles_the_terrain_of_seven_hexes():
    g = kb_empty_game()
    m = g.scenario.map
    g.arr("gas")[0] = m.cell("1106")
    zone = sorted(kb_around(g, "1106") + ["1106"])
    cost = movement.enter_costs(g)
    assert sorted(m.id_of(int(c)) for c in np.flatnonzero(cost != g.data.enter_cost)) == zone
    assert (cost[[m.cell(h) for h in zone]] == 2).all()
    u = kb_put(g, BN, "1104")
    r = reach(g, movement.routes(g, u, FIRST)[0])
    assert r["1105"] == 2 and r["1106"] == 4           # 1104 -> 1105 (2) -> 1106 (2)


# --- 5.4 other friendly units ---------------------------------------------------------------

def test_5_41_friendly_units_cost_nothing_to_pass_or_join():
    g = kb_empty_game()
    m = g.scenario.map
    a = kb_put(g, BN, "1105")
    alone = movement.routes(g, a, FIRST)[0].copy()
    # a full stack (12 points) and other units on the way
    for uid, h in (("br-x-59-20-18", "1106"), ("br-x-61-20-18", "1106"),
                   ("br-x-60-20-18", "1106"), (BN2, "1104"), ("br-hq-18", "1205")):
        kb_put(g, uid, h)
    assert g.stacking_in(m.cell("1106")) == 12
    assert np.array_equal(movement.routes(g, a, FIRST)[0], alone)


def test_5_42_friendly_controlled_hexes_never_interfere():
    g = kb_empty_game()
    a = kb_put(g, DIV, "1105")
    alone = movement.routes(g, a, SECOND)[0].copy()
    for uid, h in ((DIV2, "1107"), (REG, "1303"), (GHQ, "0904")):
        kb_put(g, uid, h)                             # their zones cover the way
    assert controlled(g, Side.CENTRAL)[cell(g, "1106")]
    assert np.array_equal(movement.routes(g, a, SECOND)[0], alone)


def test_5_0_move_one_offers_staying_and_every_reachable_hex():
    seen = []

    def to(d, game):
        seen.append(list(d.options))
        return ("move", cell(game, "1103"))

    pol = Scripted({"kb.move.to": to})
    g = kb_empty_game(policies={Side.ALLIED: pol})
    a = kb_put(g, BN, "1105")
    dist, _ = movement.routes(g, a, FIRST)
    engine.move_one(g, a, FIRST)
    want = [("stay",)] + [("move", int(c)) for c in np.flatnonzero(dist > 0)]
    assert seen == [want]
    assert g.state.unit_cell[a] == cell(g, "1103") and g.flag(a, Flag.MOVED)
    # the hexes it passed through are marked as its side's (20.11)
    assert g.state.hex_last[cell(g, "1104")] == Side.ALLIED


def test_5_0_a_segment_works_out_the_units_free_to_move_once(monkeypatch):
    # movement_segment works out free_to_move once per segment (a move changes only the
    # moving unit, which is then offered no more): at every offer the units are those the
    # position gives afresh, 17.1 limits included, in greedy games of both sides
    from gwe_fast import load_scenario
    from gwe_fast.games import driver
    from gwe_fast.policies.registry import make_policy

    orig = engine.movable
    seen = []

    def check(game, side, segment, done, free=None):
        assert free is not None
        got = orig(game, side, segment, done, free)
        assert got == orig(game, side, segment, done)
        seen.append((int(game.state.turn), len(got)))
        return got

    monkeypatch.setattr(engine, "movable", check)
    sc = load_scenario("kaisers_battle/historical")
    d = driver(sc.game)
    for i in range(2):
        d.play(d.new_game(sc, 4, i, policies={0: make_policy("greedy"),
                                               1: make_policy("greedy")}))
    assert len(seen) > 500 and {t for t, _ in seen} >= {1, 2, 3}


def test_5_12_6_21_routes_see_the_enemy_as_it_stands_now():
    # routes keeps the enemy's occupied and controlled hexes while its units stand still
    # (movement._enemy_masks): moved, turned to a service company or gone, they are read
    # again, and the routes are those of a search from nothing kept
    g = kb_empty_game(turn=3)
    a = kb_put(g, DIV, "2014")
    b = kb_put(g, BN, "2012")

    def fresh():
        movement._MASKS.clear()
        movement._routes.cache_clear()
        return movement.routes(g, a, FIRST)[0].copy()

    seen = [movement.routes(g, a, FIRST)[0].copy()]
    for change in ("move", "service", "gone"):
        if change == "move":
            g.state.unit_cell[b] = cell(g, "2011")           # one hex further
        elif change == "service":
            g.arr("flags")[b] |= Flag.SERVICE                 # no zone of control (15.24)
        else:
            g.state.unit_status[b] = 0                        # off the map
        for side in (0, 1):
            assert movement._enemy_masks(g, side) == (occupied(g, side).tobytes(),
                                                      controlled(g, side).tobytes())
        got = movement.routes(g, a, FIRST)[0].copy()
        np.testing.assert_array_equal(got, fresh())
        seen.append(got)
    assert any(not np.array_equal(x, y) for x, y in zip(seen, seen[1:]))
