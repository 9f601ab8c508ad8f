"""The Kaiser's Battle 15.0 Reinforcements: 15.1 pre-determined reinforcements, 15.2 variable
reinforcements (service companies), 15.3 the Allied Reinforcement Schedule."""

from __future__ import annotations

import numpy as np
import pytest

from kb_positions import Scripted, kb_empty_game, kb_hexes, kb_put, kb_service_company
from gwe_fast.enums import Side
from gwe_fast.games.kb import engine, movement, reinforcements, stacking, units
from gwe_fast.games.kb.game import Flag, KbGame
from gwe_fast.games.kb.zoc import controlled
from gwe_fast.state import Status

ENTRY = {"A": "3028", "B": "1428", "C": "1701", "D": "2901"}

# 15.3 as printed, designation -> unit id (counters.toml)
SCHEDULE_15_3 = {
    2: {"8LN/58/3": ("br-ii-8ln-58-3", "A"), "149/50/19": ("br-x-149-50-19", "C"),
        "150/50/19": ("br-x-150-50-19", "C"), "19 Corps HQ": ("br-hq-19", "C")},
    3: {"25/9/5": ("fr-iii-25-9-5", "B"), "26/9/5": ("fr-iii-26-9-5", "B"),
        "27/9/5": ("fr-iii-27-9-5", "B"), "5 Corps HQ": ("fr-hq-5", "B")},
    4: {"23/8/19": ("br-x-23-8-19", "C"), "24/8/19": ("br-x-24-8-19", "C"),
        "25/8/19": ("br-x-25-8-19", "C"), "17/24/19": ("br-x-17-24-19", "D"),
        "72/24/19": ("br-x-72-24-19", "D"), "73/24/19": ("br-x-73-24-19", "D"),
        "1/1Cv/19": ("br-ii-1-1cv-19", "D"), "2/1Cv/19": ("br-ii-2-1cv-19", "D"),
        "9/1Cv/19": ("br-ii-9-1cv-19", "D")},
    6: {"28/10/5": ("fr-iii-28-10-5", "B"), "29/10/5": ("fr-iii-29-10-5", "B"),
        "30/10/5": ("fr-iii-30-10-5", "B")},
    7: {"184/62/5": ("fr-iii-184-62-5", "B"), "185/62/5": ("fr-iii-185-62-5", "B"),
        "186/62/5": ("fr-iii-186-62-5", "B"), "64/22/5": ("fr-iii-64-22-5", "B"),
        "65/22/5": ("fr-iii-65-22-5", "B"), "66/22/5": ("fr-iii-66-22-5", "B")},
}
BN = "br-ii-5gh-61-18"
BNS = ["br-ii-5gh-61-18", "br-ii-4ob-61-18", "br-ii-4bk-61-18", "br-ii-6wa-61-18",
       "br-ii-7wa-61-18"]


def cell(g, h):
    return g.scenario.map.cell(h)


# --- 15.3 and 15.11: the schedule, each unit on its Game-Turn in its entry hex --------------

def test_15_3_every_scheduled_unit_arrives_on_its_turn_at_its_letter():
    g = KbGame(kb_empty_game().scenario, seed=0)          # the real set-up
    st = g.state
    assert g.data.entry == {k: (cell(g, h),) for k, h in ENTRY.items()}
    pending = {g.scenario.units.ids[i] for i in np.flatnonzero(st.unit_status & Status.PENDING)}
    assert pending == {uid for t in SCHEDULE_15_3.values() for uid, _ in t.values()}
    for turn in range(1, 11):
        st.turn = np.int16(turn)
        before = units.on_map(g).copy()
        reinforcements.scheduled_segment(g)
        new = np.flatnonzero(units.on_map(g) & ~before)
        got = {g.scenario.units.ids[u]: g.scenario.map.id_of(int(st.unit_cell[u])) for u in new}
        want = {uid: ENTRY[letter] for uid, letter in SCHEDULE_15_3.get(turn, {}).values()}
        assert got == want, turn
        assert all(g.flag(u, Flag.ARRIVED) for u in new)
        engine.end_of_turn(g)
    assert not (st.unit_status & Status.PENDING).any()


def test_15_11_the_german_player_never_receives_reinforcements():
    g = kb_empty_game()
    pending = np.flatnonzero(KbGame(g.scenario).state.unit_status & Status.PENDING)
    assert (g.scenario.units.side[pending] == Side.ALLIED).all()


def test_15_12_reinforcements_move_normally_from_their_entry_hex():
    g = KbGame(kb_empty_game().scenario, seed=0)
    g.state.turn = np.int16(2)
    reinforcements.scheduled_segment(g)
    hq = g.unit("br-hq-19")                               # 4 MP at 1701
    dist, _ = movement.routes(g, hq, movement.FIRST)
    m = g.scenario.map
    # down column 17, clear hexes with no river between: the entry hex itself costs nothing
    for h in ("1702", "1703", "1704"):
        assert g.data.enter_cost[m.cell(h)] == 1
    assert [int(dist[m.cell(h)]) for h in ("1701", "1702", "1703", "1704")] == [0, 1, 2, 3]


def test_15_12_stacked_if_necessary():
    g = KbGame(kb_empty_game().scenario, seed=0)
    g.state.turn = np.int16(7)
    for uid, _ in SCHEDULE_15_3[6].values():              # already gone from the entry hex
        g.remove(uid)
    reinforcements.scheduled_segment(g)
    b = g.state.units_at(cell(g, "1428"))
    assert len(b) == 6 and units.stacking_points(g, b) == 24


# --- 15.13 blocked entry hexes --------------------------------------------------------------

def edge(h):
    return h[2:] in ("01", "28") or h[:2] in ("01", "46")


def test_15_13_an_enemy_controlled_entry_hex_moves_them_to_an_edge_hex_within_3():
    pol = Scripted({"kb.reinforcement.hex": lambda d, game: d.options[0]})
    g = kb_empty_game(turn=2, policies={Side.ALLIED: pol})
    m = g.scenario.map
    for uid, _ in SCHEDULE_15_3[2].values():
        g.state.unit_status[g.unit(uid)] = Status.PENDING
    kb_put(g, "ge-iii-15-13-gyl", "1702")                 # controls 1701 (C), 1601, 1801
    assert controlled(g, Side.CENTRAL)[cell(g, "1701")]
    reinforcements.scheduled_segment(g)
    want = sorted(m.id_of(int(c)) for c in m.within("1701", 3)
                  if edge(m.id_of(int(c))) and m.id_of(int(c)) not in ("1601", "1701", "1801"))
    assert want == ["1401", "1501", "1901", "2001"]
    asked = [d for d in pol.seen if d.kind == "kb.reinforcement.hex"]
    assert len(asked) == 3                                # the three units of C (A is free)
    for d in asked:
        assert sorted(m.id_of(c) for c in d.options) == want
    # never delayed, never in the controlled hex
    for uid in ("br-x-149-50-19", "br-x-150-50-19", "br-hq-19"):
        u = g.unit(uid)
        assert g.state.unit_status[u] == Status.ON_MAP
        assert m.id_of(int(g.state.unit_cell[u])) == "1401" and g.flag(u, Flag.ARRIVED)
    assert m.id_of(int(g.state.unit_cell[g.unit("br-ii-8ln-58-3")])) == "3028"


def test_15_13_or_more_if_necessary():
    pol = Scripted({"kb.reinforcement.hex": lambda d, game: d.options[-1]})
    g = kb_empty_game(turn=2, policies={Side.ALLIED: pol})
    m = g.scenario.map
    g.state.unit_status[g.unit("br-hq-19")] = Status.PENDING
    for uid, h in (("ge-iii-15-13-gyl", "1502"), ("ge-iii-60-13-gyl", "1702"),
                   ("ge-iii-82-13-gyl", "1902")):
        kb_put(g, uid, h)                                # every edge hex within 3 is held
    blocked = controlled(g, Side.CENTRAL)
    assert all(blocked[c] for c in m.within("1701", 3) if edge(m.id_of(int(c))))
    reinforcements.scheduled_segment(g)
    (d,) = pol.seen
    assert sorted(m.id_of(c) for c in d.options) == ["1301", "2101"]   # the next ring
    assert m.id_of(int(g.state.unit_cell[g.unit("br-hq-19")])) == "2101"


def test_15_13_and_15_15_the_edge_hex_used_instead_is_their_entry_hex():
    # ruling: the map-edge hex of 15.13 takes the place of the entry hex, stacking included
    pol = Scripted({"kb.reinforcement.hex": lambda d, game: d.options[0]})
    g = kb_empty_game(turn=7, policies={Side.ALLIED: pol})
    for uid, _ in SCHEDULE_15_3[7].values():
        g.state.unit_status[g.unit(uid)] = Status.PENDING
    kb_put(g, "ge-iii-15-13-gyl", "1427")                 # controls 1428 (B)
    reinforcements.scheduled_segment(g)
    (c,) = {int(g.state.unit_cell[g.unit(uid)]) for uid, _ in SCHEDULE_15_3[7].values()}
    assert g.scenario.map.id_of(c) != "1428"
    assert stacking.over_limit(g, Side.ALLIED) == []


# --- 15.14 / 15.15 / 15.16 ------------------------------------------------------------------

def test_15_14_and_17_14_turn_2_reinforcements_are_not_counted_against_17_13():
    g = KbGame(kb_empty_game().scenario, seed=0)
    g.state.turn = np.int16(2)
    reinforcements.scheduled_segment(g)
    for uid, _ in SCHEDULE_15_3[2].values():
        assert engine.quota_slot(g, g.unit(uid)) is None
    # 8LN/58/3 is a 3rd Corps battalion: its corps-mates on the map do count
    assert engine.quota_slot(g, g.unit("br-ii-2ln-58-3")) == engine.Q_ALLIED_SECOND


def test_15_15_stacking_may_be_violated_in_the_entry_hex_on_the_turn_of_arrival():
    g = KbGame(kb_empty_game().scenario, seed=0)
    st = g.state
    st.turn = np.int16(6)
    reinforcements.scheduled_segment(g)
    st.turn = np.int16(7)
    reinforcements.scheduled_segment(g)
    b = cell(g, "1428")
    assert units.stacking_points(g, st.units_at(b)) == 36
    assert b not in stacking.over_limit(g, Side.ALLIED)
    # not in any other hex, and not on a later Game-Turn
    for u in st.units_at(b):
        st.unit_cell[u] = cell(g, "1327")
    assert stacking.over_limit(g, Side.ALLIED) == [cell(g, "1327")]
    for u in st.units_at(cell(g, "1327")):
        st.unit_cell[u] = b
    engine.end_of_turn(g)
    st.turn = np.int16(8)
    assert stacking.over_limit(g, Side.ALLIED) == [b]


def test_15_16_arrived_marks_reinforcements_for_their_game_turn_only():
    g = KbGame(kb_empty_game().scenario, seed=0)
    g.state.turn = np.int16(3)
    reinforcements.scheduled_segment(g)
    fr = [g.unit(uid) for uid, _ in SCHEDULE_15_3[3].values()]
    assert all(g.flag(u, Flag.ARRIVED) for u in fr)
    assert not any(g.flag(u, Flag.ARRIVED) for u in np.flatnonzero(units.on_map(g))
                   if u not in fr)
    engine.end_of_turn(g)
    assert not (g.arr("flags") & Flag.ARRIVED).any()


# --- 15.2 service companies ------------------------------------------------------------------

def eliminated_battalions(g, n):
    out = []
    for uid in BNS[:n]:
        u = kb_put(g, uid, "0505")
        units.eliminate(g, u, "combat")
        out.append(u)
    return out


@pytest.mark.parametrize("turn", [1, 3, 5])
def test_15_21_no_service_companies_before_game_turn_6(turn):
    g = kb_empty_game(turn=turn)
    eliminated_battalions(g, 3)
    kb_put(g, "br-hq-18", "1105")
    reinforcements.service_segment(g)
    assert g.dice.counts().get("reinforcement", 0) == 0
    assert not units.on_map(g, Side.ALLIED)[[g.unit(b) for b in BNS[:3]]].any()


def test_15_21_15_23_the_die_gives_the_number_placed_on_allied_hqs():
    pol = Scripted({"kb.reinforcement.service": [None]})
    g = kb_empty_game(turn=6, policies={Side.ALLIED: pol})
    bns = eliminated_battalions(g, 5)
    h1 = cell(g, "1105")
    h2 = cell(g, "2005")
    kb_put(g, "br-hq-18", "1105")
    kb_put(g, "fr-hq-5", "2005")
    kb_put(g, "ge-xx-88-3", "2006")                      # the French HQ is in a German zone
    pol.script["kb.reinforcement.service"] = [h2, h1, h2]
    g.dice.force("reinforcement", [3])
    reinforcements.service_segment(g)
    assert [d.options for d in pol.seen] == [[h1, h2]] * 3
    on = [u for u in bns if g.state.unit_status[u] == Status.ON_MAP]
    assert on == bns[:3]                                  # 15.22: any will do; the first ones
    assert [int(g.state.unit_cell[u]) for u in on] == [h2, h1, h2]
    for u in on:
        assert g.flag(u, Flag.SERVICE) and units.stacking(g, u) == 1
        assert list(units.face(g, u)) == [1, 1, 3]
    assert int(g.arr("service_placed")[0]) == 3
    # 15.24: they control nothing
    assert kb_hexes(g, controlled(g, Side.ALLIED)) == sorted(
        set(kb_hexes(g, g.scenario.map.neighbors[h1])) | set(
            kb_hexes(g, g.scenario.map.neighbors[h2])))


def test_15_23_no_allied_hq_on_the_map_no_service_companies():
    g = kb_empty_game(turn=6)
    bns = eliminated_battalions(g, 2)
    g.dice.force("reinforcement", [4])
    reinforcements.service_segment(g)
    assert all(g.state.unit_status[u] == Status.ELIMINATED for u in bns)
    assert int(g.arr("service_placed")[0]) == 0


def test_15_25_no_more_companies_than_eliminated_battalions():
    g = kb_empty_game(turn=6)
    bns = eliminated_battalions(g, 2)
    kb_put(g, "br-hq-18", "1105")
    g.dice.force("reinforcement", [6])
    reinforcements.service_segment(g)
    assert all(g.state.unit_status[u] == Status.ON_MAP for u in bns)
    assert int(g.arr("service_placed")[0]) == 2
    # a company eliminated is available again at once (and only battalions count: the
    # companies on the map are not free)
    assert list(units.service_free(g)) == []
    units.lose_steps(g, bns[0], 1, "combat")
    assert list(units.service_free(g)) == [bns[0]]
    g.dice.force("reinforcement", [6])
    reinforcements.service_segment(g)
    assert g.state.unit_status[bns[0]] == Status.ON_MAP and g.flag(bns[0], Flag.SERVICE)
    assert int(g.arr("service_placed")[0]) == 3


def test_15_22_cavalry_companies_and_french_units_give_no_service_company():
    g = kb_empty_game(turn=6)
    for uid in ("br-ii-6-3cv-18", "br-i-478-18", "fr-iii-25-9-5", "br-x-59-20-18"):
        units.eliminate(g, kb_put(g, uid, "0505"), "combat")
    kb_put(g, "br-hq-18", "1105")
    g.dice.force("reinforcement", [6])
    reinforcements.service_segment(g)
    assert int(g.arr("service_placed")[0]) == 0


def test_15_24_a_service_company_on_the_map_blocks_nothing():
    g = kb_empty_game(turn=6)
    kb_service_company(g, BN, "1106")
    a = kb_put(g, "ge-xx-88-3", "1105")
    dist, _ = movement.routes(g, a, movement.SECOND)
    assert dist[cell(g, "1205")] == 1 and dist[cell(g, "1107")] == 3
