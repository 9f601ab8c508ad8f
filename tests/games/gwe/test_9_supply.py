"""Supply: 9.1 determination, 19.1 ranges and friendly rails, 7.24 negation, 9.17 HQs."""

import numpy as np

from gwe_positions import position, start_line, unit
from gwe_fast.games.gwe.supply import in_supply, rail_sources, supplied_depots

COLS, ROWS = (1, 9), (1, 9)


def board(units, rails_ru=("0501", "0502", "0503", "0504"),
          rails_cp=("0509", "0508", "0507", "0506", "0505"), **kw):
    """A 9x9 map: Russians above row 5, Central Powers below; one rail line down column 5
    from each side's map edge, cut at the start line."""
    hexsides = {"start_line": start_line(4, COLS),
                "rail_single": ["-".join(rails_ru), "-".join(rails_cp)]}
    hexsides.update(kw.pop("hexsides", {}))
    edges = {"allied": [f"{c:02d}01" for c in range(1, 10)],
             "central": [f"{c:02d}09" for c in range(1, 10)]}
    return position(units, cols=COLS, rows=ROWS, hexsides=hexsides, edges=edges, **kw)


def supplied(g, side):
    ok = in_supply(g.scenario, g.state, side)
    return {g.scenario.units.ids[i] for i in np.flatnonzero(ok)}


def cells(g, mask):
    return sorted(g.scenario.map.id_of(c) for c in np.flatnonzero(mask))


def test_9_15_rail_hexes_linked_to_a_friendly_edge_are_sources():
    g = board([unit("r", "russian", "0101"), unit("a", "austro_hungarian", "0909")])
    assert cells(g, rail_sources(g.scenario, g.state, 0)) == ["0501", "0502", "0503", "0504"]
    assert cells(g, rail_sources(g.scenario, g.state, 1)) == [
        "0505", "0506", "0507", "0508", "0509"]


def test_9_15_an_enemy_unit_or_zone_on_the_rail_cuts_it_off_from_the_edge():
    g = board([unit("r", "russian", "0101"), unit("a", "austro_hungarian", "0703")])
    # the A-H unit at 0703 controls 0603 and 0602 but not the rail: sources intact
    assert len(cells(g, rail_sources(g.scenario, g.state, 0))) == 4
    g = board([unit("r", "russian", "0101"), unit("a", "austro_hungarian", "0602")])
    # 0602 (even column) controls 0502 and 0503: the line is cut at 0502
    assert cells(g, rail_sources(g.scenario, g.state, 0)) == ["0501"]
    # a friendly unit negates the enemy zone in its own hex for supply (7.24): one is not
    # enough while 0503 stays enemy-controlled, two are
    g = board([unit("r", "russian", "0502"), unit("a", "austro_hungarian", "0602")])
    assert cells(g, rail_sources(g.scenario, g.state, 0)) == ["0501", "0502"]
    g = board([unit("r", "russian", "0502"), unit("r2", "russian", "0503"),
               unit("a", "austro_hungarian", "0602")])
    assert cells(g, rail_sources(g.scenario, g.state, 0)) == ["0501", "0502", "0503", "0504"]


def test_9_15_a_rail_hex_last_occupied_by_the_enemy_is_no_source():
    g = board([unit("r", "russian", "0101")])
    g.state.hex_last[g.scenario.map.cell("0503")] = 1
    assert cells(g, rail_sources(g.scenario, g.state, 0)) == ["0501", "0502", "0504"]


def test_18_27_only_rails_on_the_friendly_side_of_the_start_line():
    # one rail line runs through the start line: the Russians use only the part east of it
    g = board([unit("r", "russian", "0101")], rails_ru=("0501", "0502", "0503", "0504",
                                                       "0505", "0506"), rails_cp=("0509", "0508"))
    assert cells(g, rail_sources(g.scenario, g.state, 0)) == ["0501", "0502", "0503", "0504"]
    assert cells(g, rail_sources(g.scenario, g.state, 1)) == ["0508", "0509"]


def test_9_12_and_19_1_supply_ranges_3_and_5_hexes():
    # Russian and Austro-Hungarian units within 3 hexes of a friendly rail line; Germans 5
    g = board([unit("r3", "russian", "0203"), unit("r4", "russian", "0103"),
               unit("a3", "austro_hungarian", "0807"), unit("a4", "austro_hungarian", "0907"),
               unit("g5", "german", "0105"), unit("g6", "german", "0106"),
               unit("g5b", "german", "0909")])
    m = g.scenario.map
    assert m.distance("0203", "0503") == 3 and m.distance("0103", "0503") == 4
    assert supplied(g, 0) == {"r3"}
    assert min(m.distance("0807", h) for h in ("0505", "0506", "0507", "0508")) == 3
    assert min(m.distance("0907", h) for h in ("0506", "0507", "0508", "0509")) == 4
    assert {"a3", "g5"} <= supplied(g, 1) and "a4" not in supplied(g, 1)


def test_9_13_the_units_own_hex_is_not_counted():
    # a Russian unit standing in an enemy zone of control, next to its rail line
    g = board([unit("r", "russian", "0404"), unit("a", "austro_hungarian", "0405")])
    assert "r" in supplied(g, 0)


def line_board(units):
    """Two columns, nine rows; Russian edge at the top, Central Powers edge at the bottom, a
    Central Powers rail from 0109 to 0108. Column 2 sits half a hex lower, so a unit at
    (2, r) controls (1, r) and (1, r + 1)."""
    edges = {"allied": ["0101", "0201"], "central": ["0109", "0209"]}
    return position(units, cols=(1, 2), rows=(1, 9), edges=edges,
                    hexsides={"start_line": start_line(4, (1, 2)),
                              "rail_single": ["0109-0108"]})


def test_9_14_tcr_1_units_trace_through_at_most_two_enemy_controlled_hexes():
    # German (TCR 1, range 5) at 0103, five hexes from the rail at 0108
    g = line_board([unit("g", "german", "0103"), unit("r", "russian", "0205")])
    assert "g" in supplied(g, 1)                     # through 0105 and 0106
    g = line_board([unit("g", "german", "0103"), unit("r", "russian", "0205"),
                    unit("r2", "russian", "0203")])
    assert "g" not in supplied(g, 1)                 # every way crosses three
    g = line_board([unit("g", "german", "0103"), unit("r", "russian", "0205"),
                    unit("r2", "russian", "0203"), unit("g2", "german", "0105")])
    assert "g" in supplied(g, 1)                     # 7.24: 0105 no longer counts


def test_9_14_other_units_trace_through_no_enemy_controlled_hex():
    # the Russian at 0207 controls 0107 and 0108, so the rail source is 0109 alone
    for nat, expected in (("german", True), ("austro_hungarian", False)):
        g = line_board([unit("x", nat, "0106"), unit("r", "russian", "0207")])
        assert cells(g, rail_sources(g.scenario, g.state, 1)) == ["0109"]
        assert ("x" in supplied(g, 1)) is expected, nat


def test_9_14_never_through_an_enemy_occupied_hex():
    g = line_board([unit("g", "german", "0103"), unit("r", "russian", "0105"),
                    unit("r2", "russian", "0205")])
    assert "g" not in supplied(g, 1)


def test_9_17_a_hex_with_only_enemy_hqs_does_not_block_supply():
    # every way from 0106 to the rail at 0108 passes 0107 or 0207
    g = line_board([unit("a", "austro_hungarian", "0106"), unit("h1", "russian", "0107", "hq"),
                    unit("h2", "russian", "0207", "hq")])
    assert "a" in supplied(g, 1)
    g = line_board([unit("a", "austro_hungarian", "0106"), unit("i", "russian", "0107"),
                    unit("h2", "russian", "0207", "hq")])
    assert "a" not in supplied(g, 1)


def test_9_16_depots_chain_supply_from_the_railway():
    g = board([unit("d1", "russian", "0104", "depot"), unit("d2", "russian", "0107", "depot"),
               unit("r", "russian", "0108"), unit("far", "russian", "0109")],
              rails_ru=("0401", "0402", "0403", "0404"), rails_cp=("0908", "0909"),
              hexsides={"start_line": []})
    ok = supplied_depots(g.scenario, g.state, 0)
    assert {g.scenario.units.ids[i] for i in np.flatnonzero(ok)} == {"d1", "d2"}
    assert {"d1", "d2", "r", "far"} == supplied(g, 0)


def test_9_16_a_depot_beyond_its_range_or_behind_an_enemy_zone_is_not_supplied():
    g = board([unit("d1", "russian", "0107", "depot")], rails_ru=("0401", "0402", "0403",
                                                                 "0404"),
              rails_cp=("0908", "0909"), hexsides={"start_line": []})
    assert min(g.scenario.map.distance("0107", h) for h in ("0401", "0402", "0403", "0404")) == 4
    assert not supplied_depots(g.scenario, g.state, 0).any()
    # an Austro-Hungarian depot three hexes up the line from the rail at 0108: supplied, until
    # a Russian unit at 0206 controls 0106 and 0107 between them
    g = line_board([unit("d", "austro_hungarian", "0105", "depot")])
    assert supplied_depots(g.scenario, g.state, 1)[g.unit("d")]
    g = line_board([unit("d", "austro_hungarian", "0105", "depot"),
                    unit("r", "russian", "0206")])
    assert not supplied_depots(g.scenario, g.state, 1)[g.unit("d")]


def test_9_1_every_unit_is_in_supply_at_the_historical_set_up():
    # the reconstructed map, its rails and the manifest's set-up agree: nobody starts cut off
    from gwe_fast import Game, load_scenario
    from gwe_fast.state import Status

    g = Game(load_scenario("brusilov/historical"))
    on = (g.state.unit_status & Status.ON_MAP).astype(bool)
    for side in (0, 1):
        ok = in_supply(g.scenario, g.state, side)
        mine = on & (g.scenario.units.side == side)
        assert ok[mine].all(), [g.scenario.units.ids[i] for i in np.flatnonzero(mine & ~ok)]


def test_9_1_supply_is_remembered_by_position_and_follows_every_change_of_it():
    """The answers are kept per position (a speed-up): the same game asked again after a
    unit moves, after a hex changes hands (9.15) or after a unit entrains (5.36) gets the
    answer of the new position, and changing a returned array changes nothing kept."""
    from gwe_fast.games.gwe import supply
    from gwe_fast.state import Status

    g = board([unit("r", "russian", "0101"), unit("a", "austro_hungarian", "0909")])
    sc, st = g.scenario, g.state
    first = rail_sources(sc, st, 0)
    first[:] = False                                         # a copy: the memo is intact
    assert cells(g, rail_sources(sc, st, 0)) == ["0501", "0502", "0503", "0504"]
    a = g.unit("a")
    st.unit_cell[a] = sc.map.cell("0602")                    # now controls 0502 and 0503
    assert cells(g, rail_sources(sc, st, 0)) == ["0501"]
    st.unit_status[a] |= Status.ENTRAINED                    # entrained: no zone of control
    assert cells(g, rail_sources(sc, st, 0)) == ["0501", "0502", "0503", "0504"]
    st.unit_status[a] &= np.uint16(~Status.ENTRAINED & 0xFFFF)
    st.unit_cell[a] = sc.map.cell("0909")
    st.hex_last[sc.map.cell("0503")] = 1
    assert cells(g, rail_sources(sc, st, 0)) == ["0501", "0502", "0504"]
    for _ in range(2):                                       # fresh and remembered agree
        assert (supply.in_supply(sc, st, 0) == supply._supply(sc, st, 0)[2]).all()
