"""Railroad movement, standard rules 5.3 (5.31-5.38), with 9.21 and 10.52 as they bear on it."""

import numpy as np
import pytest

from gwe_positions import Prefer, start_line, unit
from gwe_fast import load_scenario, scenario_from_dicts
from gwe_fast.games.gwe import rail
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.games.gwe.movement import reachable
from gwe_fast.games.gwe.zoc import controlled
from gwe_fast.policies.base import IllegalChoice
from gwe_fast.state import Status

COLS, ROWS = (1, 30), (1, 9)
OPTIONS = {"sga_early": False, "west_front": False, "more_supply_rail": False,
           "better_commanders": False, "track_limits": True}


def row_chain(row, c0=1, c1=30):
    """A rail chain along one row: (c, r)-(c+1, r) are neighbours in every column."""
    return "-".join(f"{c:02d}{row:02d}" for c in range(c0, c1 + 1))


Script = Prefer


def board(units, turn=2, options=None, hexsides=None, policies=None, first_turn=1, **kw):
    """A 30x9 GweGame: Russians above row 5, Central Powers below; a Russian rail line along
    row 2 and a Central Powers one along row 8, each the length of the map."""
    hs = {"start_line": start_line(4, COLS), "rail_single": [row_chain(2), row_chain(8)]}
    for k, v in (hexsides or {}).items():
        hs[k] = hs.get(k, []) + v if k == "rail_single" else v
    opts = {k: {"default": v, "help": k} for k, v in {**OPTIONS, **(options or {})}.items()}
    m = {"map": {"columns": list(COLS), "rows": list(ROWS)}, "hexsides": hs,
         "edges": {"allied": [f"{c:02d}01" for c in range(1, 31)],
                   "central": [f"{c:02d}09" for c in range(1, 31)]}}
    m.update(kw)
    sc = scenario_from_dicts(
        scenario={"scenario": {"game": "gwe", "name": "rail test", "version": 1,
                               "first_turn": first_turn, "last_turn": 20,
                               "first_player": "allied"}, "options": opts},
        map=m, counters={"unit": units})
    g = GweGame(sc, policies=policies)
    g.state.turn = np.int16(turn)
    return g


def cell(g, hexid):
    return g.scenario.map.cell(hexid)


def hexes(g, moves):
    """{hex id: rail hexes} of a rail_moves result."""
    return {g.scenario.map.id_of(c): n for c, n in moves.items()}


def test_5_31_rail_capacity_counts_stacking_points_hqs_are_free():
    g = board([unit(f"r{i}", "russian", f"{c:02d}02") for i, c in enumerate((1, 3, 5, 7))]
              + [unit("hq", "russian", "0902", "hq")])
    assert rail.rail_capacity(g.scenario, 0) == 6
    for i in range(3):
        assert rail.entrain(g, g.unit(f"r{i}"))
    assert int(g.arr("rail_used")[0]) == 6 and rail.capacity_left(g, 0) == 0
    r3 = g.unit("r3")
    assert not rail.can_entrain(g, r3) and rail.rail_moves(g, r3) == {}
    with pytest.raises(IllegalChoice):
        rail.entrain(g, r3)
    hq = g.unit("hq")
    assert rail.can_entrain(g, hq) and rail.entrain(g, hq)          # HQs do not count
    assert int(g.arr("rail_used")[0]) == 6 and not g.flag(hq, Flag.RAIL_COUNTED)
    # a unit counts once, however far and however often it moves by rail
    r0 = g.unit("r0")
    rail.move_by_rail(g, r0, cell(g, "0402"))
    rail.move_by_rail(g, r0, cell(g, "0602"))
    assert int(g.arr("rail_used")[0]) == 6


def test_5_31_units_remaining_entrained_count_toward_capacity():
    us = [unit(f"r{i}", "russian", f"{c:02d}02") for i, c in enumerate((1, 3, 5, 7, 9))]
    g = board(us, policies={0: Script(("remain",))})
    for i in range(5):
        g.state.unit_status[g.unit(f"r{i}")] |= Status.ENTRAINED     # entrained last turn
    g.state.unit_status[g.unit("r4")] |= Status.OUT_OF_COMMAND       # may not detrain (5.35)
    rail.move_by_rail(g, g.unit("r0"), cell(g, "0202"))               # counts: 2
    rail.end_rail_movement(g, 0)
    st = g.state.unit_status
    assert [bool(st[g.unit(f"r{i}")] & Status.ENTRAINED) for i in range(5)] == [
        True, True, True, False, True]     # r1, r2 remain (6 in all), r3 must detrain
    # r4 can neither detrain nor fit: it remains entrained and is counted beyond the capacity
    assert int(g.arr("rail_used")[0]) == 8
    assert all(g.flag(g.unit(f"r{i}"), Flag.RAIL_COUNTED) for i in (0, 1, 2, 4))


def test_5_31_rail_counts_start_afresh_each_game_turn():
    g = board([unit("r", "russian", "0102")], turn=2)
    r = g.unit("r")
    rail.entrain(g, r)
    rail.move_by_rail(g, r, cell(g, "1102"))
    assert int(g.arr("rail_hexes")[r]) == 10 and g.flag(r, Flag.USED_RAIL)
    g.state.turn = np.int16(3)
    assert rail.capacity_left(g, 0) == 6
    assert int(g.arr("rail_hexes")[r]) == 0 and not g.flag(r, Flag.USED_RAIL)
    assert max(rail.rail_moves(g, r).values()) == 19          # 1102 to 3002 is the whole rest


def test_5_32_entrain_cost_equals_tcr():
    g = board([unit("ru", "russian", "0102"), unit("ge", "german", "0108",
                                                   steps=[[4, 6, 5], [2, 4, 5]]),
               unit("ah", "austro_hungarian", "0308")])
    for uid, cost in (("ru", 3), ("ge", 1), ("ah", 4)):          # TCR 3, 1, 4 (17.0)
        i = g.unit(uid)
        assert rail.entrain_cost(g, i) == cost
        assert rail.entrain(g, i)
        assert int(g.arr("mp_spent")[i]) == cost
        assert g.state.unit_status[i] & Status.ENTRAINED
        assert g.flag(i, Flag.MOVED)


def test_5_32_entraining_needs_movement_points_left():
    g = board([unit("a", "russian", "0102"), unit("b", "russian", "0302")])
    a, b = g.unit("a"), g.unit("b")
    g.arr("mp_spent")[a] = 1            # 1 + 3 = 4: just enough
    g.arr("mp_spent")[b] = 2            # 2 + 3 > 4
    assert rail.can_entrain(g, a) and not rail.can_entrain(g, b)


def test_5_32_only_in_a_friendly_rail_hex_not_enemy_controlled_unless_tcr_1():
    g = board([unit("off", "russian", "0103"), unit("zoc", "russian", "1102"),
               unit("ah", "austro_hungarian", "1103"),
               unit("ge", "german", "2008", steps=[[4, 6, 5]]), unit("r", "russian", "2007")])
    assert not rail.can_entrain(g, g.unit("off"))                    # no rail in 0103
    assert controlled(g.scenario, g.state, 1)[cell(g, "1102")]
    assert not rail.can_entrain(g, g.unit("zoc"))                    # TCR 3 in an enemy zone
    assert controlled(g.scenario, g.state, 0)[cell(g, "2008")]
    assert rail.can_entrain(g, g.unit("ge"))                         # TCR 1 may


def test_5_32_only_units_in_supply_and_in_command_control_may_entrain():
    g = board([unit("oos", "russian", "0102"), unit("ooc", "russian", "0302"),
               unit("ok", "russian", "0502"), unit("hq", "russian", "0702", "hq")])
    st = g.state.unit_status
    st[g.unit("oos")] |= Status.OUT_OF_SUPPLY
    st[g.unit("ooc")] |= Status.OUT_OF_COMMAND
    st[g.unit("hq")] |= Status.OUT_OF_SUPPLY
    assert not rail.can_entrain(g, g.unit("oos"))
    assert not rail.can_entrain(g, g.unit("ooc"))
    assert rail.can_entrain(g, g.unit("ok"))
    assert rail.can_entrain(g, g.unit("hq"))          # 10.35: supply has no effect on HQs


def test_5_33_rail_moves_follow_the_line_up_to_the_rate():
    g = board([unit("ru", "russian", "0102"), unit("ge", "german", "0108",
                                                   steps=[[4, 6, 5]])])
    ru, ge = g.unit("ru"), g.unit("ge")
    moves = hexes(g, rail.rail_moves(g, ru))                         # before entraining too
    assert moves == {f"{c:02d}02": c - 1 for c in range(2, 22)}      # 20 hexes (18.21)
    moves = hexes(g, rail.rail_moves(g, ge))
    assert moves == {f"{c:02d}08": c - 1 for c in range(2, 27)}      # 25 hexes (18.22)
    rail.entrain(g, ru)
    path = rail.move_by_rail(g, ru, cell(g, "0602"))
    assert [g.scenario.map.id_of(c) for c in path] == ["0102", "0202", "0302", "0402", "0502",
                                                        "0602"]
    assert g.state.unit_cell[ru] == cell(g, "0602")
    assert all(g.state.hex_last[c] == 0 for c in path)               # moved through (25.12)
    assert int(g.arr("mp_spent")[ru]) == 3                           # rail costs no MPs
    # the rest of the rate, from here, in both directions
    left = hexes(g, rail.rail_moves(g, ru))
    assert max(left.values()) == 15 and "2102" in left and "2202" not in left
    # not back the way it came: its 2 Stacking Points filled those single tracks (18.31)
    assert "0502" not in left


def test_5_33_never_into_enemy_controlled_or_last_enemy_occupied_hexes():
    g = board([unit("ru", "russian", "0102"), unit("ah", "austro_hungarian", "0803")])
    # 0803 controls 0802 (its north neighbour): the line stops at 0702
    assert hexes(g, rail.rail_moves(g, g.unit("ru"))) == {
        f"{c:02d}02": c - 1 for c in range(2, 8)}
    # a friendly unit in the controlled hex does not open it (7.24 is for supply only)
    g = board([unit("ru", "russian", "0102"), unit("ah", "austro_hungarian", "0803"),
               unit("r2", "russian", "0802")])
    assert max(rail.rail_moves(g, g.unit("ru")).values()) == 6
    g = board([unit("ru", "russian", "0102")])
    g.state.hex_last[cell(g, "0402")] = 1
    assert hexes(g, rail.rail_moves(g, g.unit("ru"))) == {"0202": 1, "0302": 2}
    g = board([unit("ru", "russian", "0102"), unit("ah", "austro_hungarian", "0402")])
    assert set(hexes(g, rail.rail_moves(g, g.unit("ru")))) == {"0202"}   # 0302 controlled too


def test_10_52_rail_movement_passes_hexes_holding_only_enemy_hqs():
    g = board([unit("ru", "russian", "0102"), unit("hq", "austro_hungarian", "0402", "hq")])
    moves = hexes(g, rail.rail_moves(g, g.unit("ru")))
    assert "0402" not in moves                       # may not end in the HQ's hex
    assert moves["0502"] == 4 and moves["2102"] == 20


def test_5_34_detrain_at_no_cost_then_move_normally_with_what_is_left():
    g = board([unit("ru", "russian", "0102")])
    ru = g.unit("ru")
    rail.entrain(g, ru)
    rail.move_by_rail(g, ru, cell(g, "0602"))
    assert g.flag(ru, Flag.USED_RAIL)                # 5.34: may not attack (TCR 3)
    rail.detrain(g, ru)
    assert not g.state.unit_status[ru] & Status.ENTRAINED
    assert int(g.arr("mp_spent")[ru]) == 3
    d = reachable(g.scenario, g.state, ru, spent=3)
    assert d[cell(g, "0702")] == 1 and d[cell(g, "0802")] == -1
    with pytest.raises(IllegalChoice):
        rail.detrain(g, ru)                          # not entrained any more


def test_5_35_out_of_command_entrained_units_may_only_move_by_rail():
    g = board([unit("ru", "russian", "0102"), unit("r2", "russian", "0302")])
    ru, r2 = g.unit("ru"), g.unit("r2")
    g.state.unit_status[ru] |= Status.ENTRAINED | Status.OUT_OF_COMMAND
    g.state.unit_status[r2] |= Status.OUT_OF_COMMAND
    assert max(rail.rail_moves(g, ru).values()) == 20
    assert not rail.can_detrain(g, ru)
    with pytest.raises(IllegalChoice):
        rail.detrain(g, ru)
    assert not rail.can_entrain(g, r2) and rail.rail_moves(g, r2) == {}
    rail.move_by_rail(g, ru, cell(g, "1002"))
    assert g.state.unit_status[ru] & Status.ENTRAINED


def test_5_36_entrained_units_defend_at_half_and_exert_no_zone_of_control():
    g = board([unit("ru", "russian", "0102", steps=[[2, 5, 4]]),
               unit("hq", "russian", "0302", "hq")])
    ru, hq = g.unit("ru"), g.unit("hq")
    assert controlled(g.scenario, g.state, 0)[cell(g, "0202")]
    assert rail.entrained_defense(g, ru, 5) == 5
    rail.entrain(g, ru)
    rail.entrain(g, hq)
    assert not controlled(g.scenario, g.state, 0)[cell(g, "0202")]
    assert rail.entrained_defense(g, ru, 5) == 2                      # rounded down
    assert rail.entrained_defense(g, hq, 1) == 1                      # 10.35
    g.state.unit_status[ru] |= Status.OUT_OF_COMMAND
    rail.detrain_attacked(g, ru)                                     # automatic, even so
    assert not g.state.unit_status[ru] & Status.ENTRAINED


def test_9_21_out_of_supply_has_no_effect_on_rail_movement():
    g = board([unit("ru", "russian", "0102")])
    ru = g.unit("ru")
    rail.entrain(g, ru)
    g.state.unit_status[ru] |= Status.OUT_OF_SUPPLY
    assert max(rail.rail_moves(g, ru).values()) == 20


def test_5_33_move_by_rail_checks_its_own_legality():
    g = board([unit("ru", "russian", "0102")])
    ru = g.unit("ru")
    with pytest.raises(IllegalChoice):
        rail.move_by_rail(g, ru, cell(g, "0502"))          # not entrained
    rail.entrain(g, ru)
    with pytest.raises(IllegalChoice):
        rail.entrain(g, ru)                                # already entrained
    for bad in ("0103", "2202", "0102"):
        with pytest.raises(IllegalChoice):
            rail.move_by_rail(g, ru, cell(g, bad))
    assert g.state.unit_cell[ru] == cell(g, "0102") and int(g.arr("rail_hexes")[ru]) == 0


def test_5_37_no_off_map_rail_movement_on_the_brusilov_map():
    # 5.37-5.38 apply "in some games" whose map links rail exits; the Brusilov map links none
    sc = load_scenario("brusilov/historical")
    assert len(sc.edges.get("exit", ())) == 0
    g = GweGame(sc)
    g.state.turn = np.int16(2)
    entry = int(sc.entry["B"][0])                        # a rail line leaving the map
    g.place("ru-xx-9s", sc.map.id_of(entry))
    moves = rail.rail_moves(g, g.unit("ru-xx-9s"))
    assert moves and all(0 <= c < sc.map.n_cells for c in moves)
    assert max(moves.values()) <= 20


def test_5_33_rail_step_costs_kept_by_position_are_those_made_afresh():
    """The rail step costs a unit is given (kept for recent positions) are the table made
    afresh from the position (5.33: friendly lines, no enemy-controlled, enemy-occupied or
    last enemy-occupied hex; 18.31-18.33: the track left), at every decision of random
    Brusilov campaigns with track limits, for units that may move by rail."""
    from gwe_fast.games.gwe import engine
    from gwe_fast.policies.base import Policy

    sc = load_scenario("brusilov/historical", options={"track_limits": True})
    checked = [0]

    class Checker(Policy):
        name = "checker"

        def choose(self, decision, game, rng):
            if decision.kind.startswith("gwe.move"):
                st = game.state
                for x in np.flatnonzero((st.unit_status & Status.ON_MAP) != 0)[::7]:
                    x = int(x)
                    side = int(sc.units.side[x])
                    sp = int(sc.units.stacking[x])
                    room = b""
                    if rail.track_limits_on(sc) and sp > 0:
                        left = rail.track_room(game, side)
                        room = (np.maximum(left[..., 0], left[..., 1]) >= sp).tobytes()
                    want = rail._rail_table(sc, side, rail.rail_closed(sc, st, side).tobytes(),
                                            room)
                    assert np.array_equal(rail._rail_step_costs(game, x), want)
                    checked[0] += 1
            return int(rng.integers(len(decision.options)))

    for seed in (1, 2):
        g = GweGame(sc, seed=seed, game_index=seed, policies={0: Checker(), 1: Checker()})
        engine.play(g)
    assert checked[0] > 500
