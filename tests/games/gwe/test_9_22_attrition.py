"""Attrition: standard 9.11 (when supply is determined), 9.22-9.24, Brusilov 19.41-19.43
(cavalry living off the land south of the Dniester), 25.13 (eliminated while surrounded).
Tiny hand-built positions and forced dice."""

import numpy as np
from gwe_positions import position, unit

from gwe_fast import load_scenario
from gwe_fast.games.gwe import attrition
from gwe_fast.games.gwe.game import LOSS_CAUSES, Flag, GweGame
from gwe_fast.state import Status

CORPS = [[4, 8, 3], [3, 6, 3], [2, 4, 3], [1, 2, 3]]
BRIGADE = [[1, 2, 4]]


def gwe(units, **kw):
    """A GweGame on a small map; with ``supplied=True`` a 9x9 board whose Russian rail line
    runs down column 5 from the Russian map edge (row 1) to 0504."""
    if kw.pop("supplied", False):
        kw.update(cols=(1, 9), rows=(1, 9), edges={"allied": ["0101..0901"]},
                  hexsides={"rail_single": ["0501-0502-0503-0504"], **kw.pop("hexsides", {})})
    return GweGame(position(units, **kw).scenario)


def left(g, uid):
    i = g.unit(uid)
    if g.state.unit_status[i] & Status.ELIMINATED:
        return 0
    return int(g.scenario.units.n_steps[i]) - int(g.state.unit_step[i])


def oos(g, uid):
    return bool(g.state.unit_status[g.unit(uid)] & Status.OUT_OF_SUPPLY)


def test_9_22_attrition_half_steps_rounded_up():
    g = gwe([unit("c4", "russian", "0101", size="corps", steps=CORPS, stacking=4),
             unit("c3", "russian", "0301", size="corps", steps=CORPS, stacking=4),
             unit("d2", "russian", "0501"), unit("d1", "russian", "0701"),
             unit("b", "russian", "0107", size="brigade", steps=BRIGADE)])
    g.state.unit_step[g.unit("c3")] = 1                  # 3 steps left
    g.state.unit_step[g.unit("d1")] = 1                  # 1 step left
    g.dice.force("attrition", [3, 3, 3, 3, 3])
    lost = {u: attrition.roll_attrition(g, g.unit(u)) for u in ("c4", "c3", "d2", "d1", "b")}
    assert lost == {"c4": 2, "c3": 2, "d2": 1, "d1": 1, "b": 1}
    assert {u: left(g, u) for u in lost} == {"c4": 2, "c3": 1, "d2": 1, "d1": 0, "b": 0}
    assert g.arr("steps_lost")[0, LOSS_CAUSES.index("attrition")] == 7


def test_9_22_attrition_only_on_1_2_or_3():
    assert attrition  # the rolls come from tables.toml [attrition]
    for die in range(1, 7):
        g = gwe([unit("d", "russian", "0101")])
        g.dice.force("attrition", [die])
        assert attrition.roll_attrition(g, g.unit("d")) == (1 if die in (1, 2, 3) else 0)
        assert g.scenario.tables["attrition"]["rolls"] == [1, 2, 3]


def test_9_22_only_the_phasing_units_out_of_supply_roll():
    g = gwe([unit("in", "russian", "0302"), unit("out", "russian", "0909"),
             unit("out2", "russian", "0108"), unit("ah", "austro_hungarian", "0707")],
            supplied=True)
    g.dice.force("attrition", [1, 6])
    attrition.attrition_segment(g, 0)
    assert g.dice.stream("attrition").rolled == 2                  # "out" and "out2" only
    assert (left(g, "in"), left(g, "out"), left(g, "out2"), left(g, "ah")) == (2, 1, 2, 2)
    assert (oos(g, "in"), oos(g, "out"), oos(g, "out2")) == (False, True, True)


def test_9_11_supply_is_determined_again_in_the_attrition_segment():
    g = gwe([unit("in", "russian", "0302"), unit("out", "russian", "0909")], supplied=True)
    st = g.state.unit_status
    st[g.unit("in")] |= Status.OUT_OF_SUPPLY                       # stale marks from 4.0 A1a
    st[g.unit("out")] &= ~np.uint16(Status.OUT_OF_SUPPLY)
    g.dice.force("attrition", [2])
    attrition.attrition_segment(g, 0)
    assert g.dice.stream("attrition").rolled == 1
    assert (left(g, "in"), left(g, "out")) == (2, 1)
    assert (oos(g, "in"), oos(g, "out")) == (False, True)


def test_9_24_hqs_immune():
    g = gwe([unit("hq", "russian", "0101", "hq", steps=[[0, 1, 6], [0, 1, 6]]),
             unit("d", "russian", "0301")])
    attrition.attrition_segment(g, 0)                              # both out of supply
    assert g.dice.stream("attrition").rolled == 1                  # the division only
    assert attrition.roll_attrition(g, g.unit("hq")) == 0
    assert g.dice.stream("attrition").rolled == 1 and left(g, "hq") == 2
    assert not oos(g, "hq")                                        # HQs are never marked


def test_9_22_depots_are_not_immune():
    g = gwe([unit("dp", "russian", "0101", "depot")])
    g.dice.force("attrition", [1])
    attrition.attrition_segment(g, 0)
    assert g.state.unit_status[g.unit("dp")] & Status.ELIMINATED


def test_9_23_roll_attrition_serves_attackers_out_of_supply():
    # combat calls roll_attrition for each attacker out of supply (9.23), living-off-the-land
    # cavalry included (19.42)
    g = gwe([unit("cav", "russian", "2102", "cavalry")], cols=(18, 22), rows=(1, 4),
            hexsides={"major_river": ["2001-2101", "2002-2102", "2003-2103", "2004-2104"]})
    attrition.attrition_segment(g, 0)
    assert g.flag(g.unit("cav"), Flag.LIVING_OFF_LAND)
    g.dice.force("attrition", [2])
    assert attrition.roll_attrition(g, g.unit("cav")) == 1


# A map of columns 18-22 with a major river between columns 20 and 21: south of it are
# columns 21 and 22 (column 20 even: its NE neighbour is (21, r), across the river).
DNIESTER = {"major_river": ["2001-2101", "2002-2102", "2003-2103", "2004-2104"]}


def test_19_41_living_off_the_land():
    g = gwe([unit("cav", "russian", "2102", "cavalry"),       # south of the river: lives off it
             unit("cav2", "russian", "2002", "cavalry"),      # north bank
             unit("inf", "russian", "2202"),                  # not cavalry
             unit("ahc", "austro_hungarian", "2204", "cavalry")],
            cols=(18, 22), rows=(1, 4), hexsides=DNIESTER)
    g.dice.force("attrition", [1, 1])
    attrition.attrition_segment(g, 0)
    assert g.dice.stream("attrition").rolled == 2                 # cav2 and inf
    assert (left(g, "cav"), left(g, "cav2"), left(g, "inf")) == (2, 1, 1)
    flags = {u: g.flag(g.unit(u), Flag.LIVING_OFF_LAND) for u in ("cav", "cav2", "inf", "ahc")}
    assert flags == {"cav": True, "cav2": False, "inf": False, "ahc": False}
    assert oos(g, "cav")                                          # still out of supply (19.42)
    # the Central Powers' own segment: their cavalry there lives off the land as well
    attrition.attrition_segment(g, 1)
    assert g.flag(g.unit("ahc"), Flag.LIVING_OFF_LAND) and g.flag(g.unit("cav"), Flag.LIVING_OFF_LAND)
    # the mark lasts until the side's next Attrition Segment: moved north, it rolls again
    g.state.unit_cell[g.unit("cav")] = g.scenario.map.cell("2001")
    g.dice.force("attrition", [4, 4, 4])
    attrition.attrition_segment(g, 0)
    assert not g.flag(g.unit("cav"), Flag.LIVING_OFF_LAND)
    assert g.dice.stream("attrition").rolled == 5


def test_19_41_no_more_than_two_stacking_points_in_the_hex():
    # the cavalry lives off the land only in a hex of at most 2 Stacking Points (HQs and the
    # armored car count 0); otherwise it rolls like any unit out of supply
    g = gwe([unit("cav", "russian", "2102", "cavalry"), unit("hq", "russian", "2102", "hq"),
             unit("cav2", "russian", "2202", "cavalry"),
             unit("b", "russian", "2202", size="brigade", steps=BRIGADE, stacking=1)],
            cols=(18, 22), rows=(1, 4), hexsides=DNIESTER)
    assert g.scenario.tables["stacking"]["living_off_land_max_points"] == 2
    g.dice.force("attrition", [6, 6])
    attrition.attrition_segment(g, 0)
    assert g.flag(g.unit("cav"), Flag.LIVING_OFF_LAND)
    assert not g.flag(g.unit("cav2"), Flag.LIVING_OFF_LAND)
    assert g.dice.stream("attrition").rolled == 2                 # cav2 and the brigade


def test_19_41_south_of_both_the_dniester_and_hex_row_1900():
    g = gwe([unit("x", "russian", "1801")], cols=(17, 22), rows=(1, 4), hexsides=DNIESTER)
    area = attrition.living_off_land_area(g.scenario)
    m = g.scenario.map
    assert sorted(m.id_of(int(c)) for c in np.flatnonzero(area)) == [
        f"{c}{r:02d}" for c in (21, 22) for r in range(1, 5)]
    # a major river west of hex row 1900 (between columns 18 and 19) does not count
    river = {"major_river": ["1701-1801", "1702-1802", "1703-1803", "1704-1804"]}
    g = gwe([unit("x", "russian", "1801")], cols=(17, 22), rows=(1, 4), hexsides=river)
    assert not attrition.living_off_land_area(g.scenario).any()


def test_19_41_the_bundled_map():
    sc = load_scenario("brusilov/historical")
    area = attrition.living_off_land_area(sc)
    m = sc.map
    assert area.any() and (m.col[area] >= 20).all()
    places = {p.name: bool(area[p.cell]) for p in sc.places}
    for town in ("Kolomea", "Czernowitz", "Stanislau", "Nadworna", "Kuty", "Sniatyn",
                 "Horodenka", "Delatyn", "Storozynetz", "Stryj", "Kalusz"):
        assert places[town], town
    for town in ("Tarnopol", "Buczacz", "Czortkow", "Kamenez-Podolsk", "Lemberg", "Brzezany",
                 "Podhajce", "Proskurow", "Luck"):
        assert not places[town], town


def test_25_13_eliminated_by_attrition_while_surrounded_counts_double():
    for enemy, vp in (([], -1), ([unit("ah", "austro_hungarian", "0202")], -2)):
        g = gwe([unit("b", "russian", "0101", size="brigade", steps=BRIGADE, stacking=1)] + enemy,
                supplied=True)
        assert attrition.surrounded(g, g.unit("b")) is bool(enemy)
        g.dice.force("attrition", [1])
        attrition.attrition_segment(g, 0)
        assert left(g, "b") == 0 and int(g.state.vp) == vp


def test_25_13_a_line_of_six_hexes_at_most():
    # 0909 is 7 hexes from the rail at 0504, 0908 six: a line of six is enough
    g = gwe([unit("a", "russian", "0909"), unit("b", "russian", "0908")], supplied=True)
    assert attrition.surrounded(g, g.unit("b")) is False
    g = gwe([unit("a", "russian", "0909")], supplied=True)
    assert attrition.surrounded(g, g.unit("a")) is True
