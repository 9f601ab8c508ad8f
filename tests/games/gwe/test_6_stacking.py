"""Stacking: standard 6.11-6.16, Brusilov 16.0 (8 Stacking Points), 18.24 (depots 2),
19.41 (two Stacking Points with cavalry living off the land), 24.31 (armored car 0).
Tiny hand-built positions and scripted policies."""

import tomllib

from gwe_positions import position, unit

from gwe_fast import scenario_from_dicts
from gwe_fast.games.gwe import stacking
from gwe_fast.games.gwe.game import LOSS_CAUSES, Flag, GweGame
from gwe_fast.policies.base import Policy
from gwe_fast.scenario.loader import DATA_DIR
from gwe_fast.state import Status

CORPS = [[4, 8, 3], [3, 6, 3], [2, 4, 3], [1, 2, 3]]


class Script(Policy):
    """Answers with ``answer(decision)`` (an option; default: the first) and keeps the
    decisions it was asked."""

    def __init__(self, answer=None):
        super().__init__()
        self.answer = answer or (lambda d: d.options[0])
        self.seen = []

    def choose(self, decision, game, rng):
        self.seen.append(decision)
        return list(decision.options).index(self.answer(decision))


def gwe(units, allied=None, central=None, **kw):
    sc = position(units, **kw).scenario
    return GweGame(sc, policies={0: allied or Script(), 1: central or Script()})


def corps(uid, nat, hexid, **kw):
    return unit(uid, nat, hexid, size="corps", steps=CORPS, stacking=4, **kw)


def gone(g, uid):
    return bool(g.state.unit_status[g.unit(uid)] & Status.ELIMINATED)


def over(g, **kw):
    return [g.scenario.map.id_of(c) for c in stacking.stacking_violations(g, **kw)]


def test_16_0_no_more_than_8_stacking_points_end_a_phase_in_a_hex():
    g = gwe([corps("c", "russian", "0404"), unit("d1", "russian", "0404"),
             unit("d2", "russian", "0404"),                              # 8: within
             corps("a", "austro_hungarian", "0406"), corps("b", "austro_hungarian", "0406"),
             unit("x", "austro_hungarian", "0406", size="brigade", stacking=1)])   # 9: over
    assert over(g) == ["0406"]
    assert g.scenario.tables["stacking"]["max_points"] == 8


def test_16_0_the_limit_comes_from_the_tables():
    tables = tomllib.loads((DATA_DIR / "brusilov" / "tables.toml").read_text())
    tables["stacking"]["max_points"] = 6
    sc = scenario_from_dicts(
        scenario={"scenario": {"game": "gwe", "name": "t", "version": 1, "first_turn": 1,
                               "last_turn": 1, "first_player": "allied"}},
        map={"map": {"columns": [1, 5], "rows": [1, 5]}},
        counters={"unit": [corps("c", "russian", "0303"), unit("d", "russian", "0303"),
                           unit("e", "russian", "0303", size="brigade", stacking=1)]},
        tables=tables)
    g = GweGame(sc, policies={0: Script(), 1: Script()})
    assert over(g) == ["0303"]
    stacking.enforce_stacking(g)
    assert over(g) == [] and sum(gone(g, u) for u in "cde") == 1


def test_6_14_owner_chooses_eliminations():
    # 10 Stacking Points: the owner picks among the units that have Stacking Points, one at
    # a time, until the hex is within the limit
    allied = Script(lambda d: d.options[-1])
    g = gwe([corps("c", "russian", "0404"), unit("d1", "russian", "0404"),
             unit("d2", "russian", "0404"), unit("b", "russian", "0404", size="brigade",
                                                  stacking=1),
             unit("e", "russian", "0404", size="brigade", stacking=1),
             unit("hq", "russian", "0404", "hq"), unit("ac", "russian", "0404", "armored_car")],
            allied=allied, edges={"allied": ["0101..0701"]},
            hexsides={"rail_single": ["0401-0402"]})             # a supply source nearby
    stacking.enforce_stacking(g)
    assert [d.kind for d in allied.seen] == ["gwe.stacking.eliminate"] * 2
    assert allied.seen[0].options == [g.unit(u) for u in ("c", "d1", "d2", "b", "e")]
    assert allied.seen[1].options == [g.unit(u) for u in ("c", "d1", "d2", "b")]
    assert [u for u in ("c", "d1", "d2", "b", "e", "hq", "ac") if gone(g, u)] == ["b", "e"]
    assert over(g) == []
    side = 0
    assert g.arr("sp_lost")[side, LOSS_CAUSES.index("stacking")] == 2
    assert int(g.state.vp) == -2                       # 25.2: -1 per Russian Stacking Point
    # with no friendly supply source within six hexes they are surrounded (25.13): doubled
    g = gwe([corps("c", "russian", "0404"), corps("c2", "russian", "0404"),
             unit("b", "russian", "0404", size="brigade", stacking=1)],
            allied=Script(lambda d: d.options[-1]))
    stacking.enforce_stacking(g)
    assert gone(g, "b") and int(g.state.vp) == -2


def test_6_14_one_large_unit_may_be_chosen():
    allied = Script(lambda d: d.options[0])            # the corps: 4 points at once
    g = gwe([corps("c", "russian", "0404"), corps("c2", "russian", "0404"),
             unit("d", "russian", "0404")], allied=allied)
    stacking.enforce_stacking(g)
    assert len(allied.seen) == 1 and gone(g, "c") and not gone(g, "d")
    assert g.arr("steps_lost")[0, LOSS_CAUSES.index("stacking")] == 4


def test_6_16_losing_steps_does_not_reduce_stacking_points():
    # 6.14 Note, 6.16: a reduced corps still counts 4
    g = gwe([corps("c", "russian", "0404"), corps("c2", "russian", "0404"),
             unit("d", "russian", "0404")])
    g.state.unit_step[g.unit("c")] = 3
    assert over(g) == ["0404"]


def test_6_13_units_of_different_types_and_nationalities_stack_together():
    g = gwe([corps("c", "austro_hungarian", "0404"), unit("g", "german", "0404"),
             unit("cav", "austro_hungarian", "0404", "cavalry"),
             unit("hq", "german", "0404", "hq")])
    assert over(g) == []
    assert stacking.stacking_points(g, 1)[g.scenario.map.cell("0404")] == 8


def test_6_21_only_the_end_of_the_phase_counts():
    # units may pass and even stop over the limit within a phase; only enforce_stacking, run
    # by the engine at each phase end, eliminates
    g = gwe([corps("c", "russian", "0404"), corps("c2", "russian", "0404"),
             unit("d", "russian", "0404")])
    assert over(g) == ["0404"] and not any(gone(g, u) for u in ("c", "c2", "d"))
    stacking.enforce_stacking(g)
    assert over(g) == [] and sum(gone(g, u) for u in ("c", "c2", "d")) == 1


def test_6_22_no_movement_point_cost_to_stack():
    from gwe_fast.games.gwe.movement import step_costs
    g = gwe([unit("r", "russian", "0404"), corps("c", "russian", "0403")])
    cost = step_costs(g.scenario, g.state, g.unit("r"))
    m = g.scenario.map
    here = m.cell("0404")
    assert int(cost[here, list(m.neighbors[here]).index(m.cell("0403"))]) == 1


def test_6_12_and_24_31_fortresses_markers_hqs_and_the_armored_car_count_nothing():
    g = gwe([corps("c", "russian", "0404"), corps("c2", "russian", "0404"),
             unit("hq", "russian", "0404", "hq"), unit("ac", "russian", "0404", "armored_car")],
            features={"fortress": ["0404"]})
    assert over(g) == []
    assert stacking.stacking_points(g, 0)[g.scenario.map.cell("0404")] == 8


def test_18_24_depots_count_two():
    g = gwe([corps("c", "russian", "0404"), unit("d", "russian", "0404"),
             unit("dp", "russian", "0404", "depot"), unit("dp2", "russian", "0404", "depot")])
    assert g.scenario.units.stacking[g.unit("dp")] == 2
    assert over(g) == ["0404"]


def test_6_15_a_unit_forced_to_end_its_retreat_overstacked_is_eliminated():
    allied = Script(lambda d: d.options[0])
    g = gwe([corps("c", "russian", "0404"), unit("d1", "russian", "0404"),
             unit("d2", "russian", "0404"),                              # 8 already there
             unit("r1", "russian", "0404"), unit("r2", "russian", "0404", size="brigade",
                                                  stacking=1)],          # retreated in
            allied=allied)
    out = stacking.retreat_overstack(g, [g.unit("r1"), g.unit("r2")], g.scenario.map.cell("0404"))
    # only the retreating units may go: r1 (first option) and then r2
    assert allied.seen[0].options == [g.unit("r1"), g.unit("r2")]
    assert out == [g.unit("r1"), g.unit("r2")]
    assert not any(gone(g, u) for u in ("c", "d1", "d2"))
    # within the limit nothing happens
    g = gwe([corps("c", "russian", "0404"), unit("r1", "russian", "0404")])
    assert stacking.retreat_overstack(g, [g.unit("r1")], g.scenario.map.cell("0404")) == []


def test_19_41_living_off_the_land_is_no_stacking_limit():
    # 19.41's two Stacking Points are the condition of living off the land (attrition.py):
    # a hex holding living-off-the-land cavalry is held to 16.0's 8 like any other
    g = gwe([unit("cav", "russian", "0404", "cavalry"), corps("c", "russian", "0404")])
    g.set_flag(g.unit("cav"), Flag.LIVING_OFF_LAND)
    assert over(g) == []


def test_6_14_both_sides_and_every_hex():
    g = gwe([corps("c", "russian", "0202"), corps("c2", "russian", "0202"),
             unit("d", "russian", "0202"),
             corps("a", "austro_hungarian", "0606"), corps("a2", "austro_hungarian", "0606"),
             unit("x", "austro_hungarian", "0606")])
    stacking.enforce_stacking(g)
    assert over(g) == [] and len(g.policies[0].seen) == 1 and len(g.policies[1].seen) == 1
