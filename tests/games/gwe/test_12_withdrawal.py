"""Cavalry Withdrawal Before Combat: standard 12.1, Brusilov 23.31 (no A-H withdrawal on the
first turn) and 24.2 (the armored car). Tiny hand-built positions, forced dice, scripted
policies."""

import numpy as np
from gwe_positions import position, unit

from gwe_fast import scenario_from_dicts
from gwe_fast.games.gwe import withdrawal
from gwe_fast.games.gwe.game import Flag, GweGame
from gwe_fast.policies.base import Policy
from gwe_fast.state import Status


class Script(Policy):
    """Answers from ``answers``: decision kind -> list of wanted options (taken in order) or a
    function of the decision returning the wanted option. Keeps every decision it was asked;
    a decision it has no answer for fails the test."""

    def __init__(self, answers=None):
        super().__init__()
        self.answers = dict(answers or {})
        self.seen = []

    def choose(self, decision, game, rng):
        self.seen.append(decision)
        a = self.answers[decision.kind]
        want = a.pop(0) if isinstance(a, list) else a(decision)
        return list(decision.options).index(want)

    def kinds(self):
        return [d.kind for d in self.seen]


def gwe(units, allied=None, central=None, first_turn=1, case=None, **kw):
    """A GweGame on a small map (``gwe_positions.position``) with scripted policies."""
    if first_turn == 1 and case is None:
        sc = position(units, **kw).scenario
    else:
        head = {"game": "gwe", "name": "test position", "version": 1,
                "first_turn": first_turn, "last_turn": first_turn + 1,
                "first_player": "allied"}
        if case:
            head["case"] = case
        sc = scenario_from_dicts(scenario={"scenario": head},
                                 map={"map": {"columns": [1, 7], "rows": [1, 7]}},
                                 counters={"unit": units})
    decline = {"gwe.withdrawal.occupy": lambda d: -1}
    return GweGame(sc, policies={0: allied or Script(decline), 1: central or Script(decline)})


def ids(g, cells):
    return [g.scenario.map.id_of(int(c)) for c in cells]


def at(g, uid):
    return g.scenario.map.id_of(int(g.state.unit_cell[g.unit(uid)]))


def paths(g, uid):
    return [tuple(ids(g, p)) for p in withdrawal.withdrawal_paths(g, g.unit(uid))]


def dests(g, uid):
    return sorted({p[1] for p in paths(g, uid)})


def cell(g, hexid):
    return g.scenario.map.cell(hexid)


# 0404 is next to 0405; the unit at 0405 controls 0404, 0505, 0506, 0406, 0306 and 0305. The
# twelve hexes two hexes from 0404: 0402 0503 0603 0604 0605 0506 0406 0306 0205 0204 0203 0303.
RING2 = ["0203", "0204", "0205", "0303", "0306", "0402", "0406", "0503", "0506", "0603",
         "0604", "0605"]


def test_12_11_only_cavalry_adjacent_to_enemy_units_may_try_in_command_or_not():
    g = gwe([unit("cav", "russian", "0404", "cavalry"),
             unit("far", "russian", "0402", "cavalry"),                 # two hexes away
             unit("inf", "russian", "0305"),                            # next to 0405, infantry
             unit("ooc", "russian", "0505", "cavalry"),                 # next to 0405
             unit("ah", "austro_hungarian", "0405")])
    g.state.unit_status[g.unit("ooc")] |= Status.OUT_OF_COMMAND
    assert withdrawal.withdrawal_candidates(g, 0) == [g.unit("cav"), g.unit("ooc")]
    # any enemy unit counts, an HQ alone too
    g = gwe([unit("cav", "russian", "0404", "cavalry"), unit("hq", "austro_hungarian", "0405", "hq")])
    assert withdrawal.withdrawal_candidates(g, 0) == [g.unit("cav")]


def test_12_11_an_entrained_cavalry_unit_does_not_withdraw():
    g = gwe([unit("cav", "russian", "0404", "cavalry"), unit("ah", "austro_hungarian", "0405")])
    g.state.unit_status[g.unit("cav")] |= Status.ENTRAINED
    assert withdrawal.withdrawal_candidates(g, 0) == []


def test_12_13_exactly_two_hexes_never_into_or_through_enemy_zoc_unless_tcr_1():
    g = gwe([unit("cav", "russian", "0404", "cavalry"), unit("ah", "austro_hungarian", "0405")])
    assert paths(g, "cav") == [
        ("0304", "0203"), ("0304", "0204"), ("0304", "0303"),
        ("0403", "0303"), ("0403", "0402"), ("0403", "0503"),
        ("0504", "0503"), ("0504", "0603"), ("0504", "0604")]
    # a German (TCR 1) may go into and through the enemy zone: all but 0406 (behind the enemy)
    g = gwe([unit("cav", "german", "0404", "cavalry"), unit("ru", "russian", "0405")])
    assert dests(g, "cav") == [h for h in RING2 if h != "0406"]
    assert ("0505", "0605") in paths(g, "cav") and ("0305", "0205") in paths(g, "cav")


def test_12_15_a_tcr_1_unit_may_end_its_withdrawal_in_an_enemy_zone_and_be_attacked():
    central = Script({"gwe.withdrawal.unit": lambda d: d.options[1]})
    g = gwe([unit("cav", "german", "0404", "cavalry"), unit("ru", "russian", "0405"),
             unit("ru2", "russian", "0606")], central=central)
    central.answers["gwe.withdrawal.path"] = [(cell(g, "0505"), cell(g, "0605"))]
    assert (cell(g, "0505"), cell(g, "0605")) in withdrawal.withdrawal_paths(g, g.unit("cav"))
    g.state.turn = 2
    g.dice.force("withdrawal", [2])
    withdrawal.withdrawal_phase(g, 1)
    assert at(g, "cav") == "0605"                        # next to ru2 at 0606: attackable
    assert not g.flag(g.unit("cav"), Flag.RETREATED_IN)


def test_12_13_never_through_enemy_units_blocked_hexsides_or_prohibited_terrain():
    g = gwe([unit("cav", "german", "0404", "cavalry"), unit("ru", "russian", "0405"),
             unit("ru2", "russian", "0403")],                           # blocks 0403
            hexsides={"blocked": ["0404-0504"]})
    d = dests(g, "cav")
    assert "0402" not in d                       # only through 0403 (enemy)
    assert not any(p[0] in ("0403", "0504") for p in paths(g, "cav"))
    assert d == ["0203", "0204", "0205", "0303", "0306", "0506", "0604", "0605"]


def test_12_13_toward_the_friendly_supply_source_when_possible():
    # a Russian rail source at 0401-0402 (0401 on the Russian map edge)
    kw = {"edges": {"allied": ["0101..0701"]}, "hexsides": {"rail_single": ["0401-0402"]}}
    g = gwe([unit("cav", "russian", "0404", "cavalry"), unit("ah", "austro_hungarian", "0405")],
            **kw)
    # 0404 is 2 hexes from the source, 0403 one, 0402 none: each hex nearer than the last
    assert paths(g, "cav") == [("0403", "0402")]
    # standing on the source hex nothing is nearer: any hex will do
    g = gwe([unit("cav", "russian", "0402", "cavalry"), unit("ah", "austro_hungarian", "0403")],
            **kw)
    anywhere = np.full(g.scenario.map.n_cells, -1)
    assert withdrawal.withdrawal_paths(g, g.unit("cav")) == withdrawal.withdrawal_paths(
        g, g.unit("cav"), anywhere)
    assert dests(g, "cav") == ["0201", "0202", "0301", "0501", "0601", "0602"]


def test_12_12_withdrawal_die_roll_must_beat_the_tcr():
    for nat, enemy, fail, ok in (("russian", "austro_hungarian", 3, 4),
                                 ("austro_hungarian", "russian", 4, 5),
                                 ("german", "russian", 1, 2)):
        side = 0 if nat == "russian" else 1
        for die, moves in ((fail, False), (ok, True)):
            script = Script({"gwe.withdrawal.unit": lambda d: d.options[1],
                             "gwe.withdrawal.path": lambda d: d.options[0]})
            g = gwe([unit("cav", nat, "0404", "cavalry"), unit("x", enemy, "0405")],
                    **{"allied" if side == 0 else "central": script})
            g.state.turn = 2                                   # not the first turn (23.31)
            g.dice.force("withdrawal", [die])
            withdrawal.withdrawal_phase(g, side)
            assert g.dice.stream("withdrawal").rolled == 1
            assert (at(g, "cav") != "0404") is moves, (nat, die)
            # one die per unit: a unit that failed is not offered again
            assert script.kinds().count("gwe.withdrawal.unit") == 1


def test_12_14_withdrawal_costs_no_movement_points_and_is_not_a_move():
    script = Script({"gwe.withdrawal.unit": lambda d: d.options[1]})
    g = gwe([unit("cav", "russian", "0404", "cavalry"), unit("ah", "austro_hungarian", "0405")],
            allied=script)
    script.answers["gwe.withdrawal.path"] = [(cell(g, "0403"), cell(g, "0402"))]
    g.dice.force("withdrawal", [6])
    withdrawal.withdrawal_phase(g, 0)
    i = g.unit("cav")
    assert at(g, "cav") == "0402"
    assert int(g.arr("mp_spent")[i]) == 0 and not g.flag(i, Flag.MOVED)
    # it moved through 0403 into 0402: both last moved through by the Russians (9.15, 25.12)
    assert g.state.hex_last[cell(g, "0403")] == 0 and g.state.hex_last[cell(g, "0402")] == 0


def test_12_16_phasing_units_move_into_vacated_hex():
    allied = Script({"gwe.withdrawal.unit": lambda d: d.options[1],
                     "gwe.withdrawal.path": lambda d: d.options[0]})
    g = gwe([unit("cav", "russian", "0404", "cavalry"),
             unit("c1", "austro_hungarian", "0405", size="corps", steps=[[4, 4, 3]] * 4),
             unit("c2", "austro_hungarian", "0305", size="corps", steps=[[4, 4, 3]] * 4),
             unit("d", "austro_hungarian", "0505")], allied=allied)
    central = Script({"gwe.withdrawal.occupy": [g.unit("c1"), g.unit("c2")]})
    g.policies[1] = central
    g.state.turn = 2
    g.dice.force("withdrawal", [6])
    withdrawal.withdrawal_phase(g, 0)
    assert at(g, "c1") == "0404" and at(g, "c2") == "0404" and at(g, "d") == "0505"
    assert g.state.hex_last[cell(g, "0404")] == 1
    # asked twice: first all three, then the two that still fit; with both corps in (8
    # Stacking Points) the division no longer fits (16.0) and nobody is asked again
    opts = [list(d.options) for d in central.seen]
    assert opts == [[-1, g.unit("c1"), g.unit("c2"), g.unit("d")], [-1, g.unit("c2"), g.unit("d")]]
    # units moved in are neither moved (13.0 3) nor advanced (8.73)
    assert not g.flag(g.unit("c1"), Flag.MOVED) and not g.flag(g.unit("c1"), Flag.ADVANCED)


def test_12_16_a_hex_still_holding_a_friendly_unit_is_not_vacated():
    allied = Script({"gwe.withdrawal.unit": lambda d: d.options[1],
                     "gwe.withdrawal.path": lambda d: d.options[0]})
    central = Script()
    g = gwe([unit("cav", "russian", "0404", "cavalry"), unit("inf", "russian", "0404"),
             unit("ah", "austro_hungarian", "0405")], allied=allied, central=central)
    g.dice.force("withdrawal", [6])
    withdrawal.withdrawal_phase(g, 0)
    assert at(g, "cav") != "0404" and at(g, "ah") == "0405" and central.seen == []


def test_12_17_withdrawn_into_a_friendly_hex_is_marked():
    for dest, marked in (("0402", True), ("0503", False)):
        allied = Script({"gwe.withdrawal.unit": lambda d: d.options[1]})
        g = gwe([unit("cav", "russian", "0404", "cavalry"), unit("inf", "russian", "0402"),
                 unit("ah", "austro_hungarian", "0405")], allied=allied)
        allied.answers["gwe.withdrawal.path"] = [(cell(g, "0403"), cell(g, dest))]
        g.dice.force("withdrawal", [6])
        withdrawal.withdrawal_phase(g, 0)
        assert at(g, "cav") == dest
        assert g.flag(g.unit("cav"), Flag.RETREATED_IN) is marked
        assert not g.flag(g.unit("inf"), Flag.RETREATED_IN)


def test_12_1_the_owner_may_decline_and_each_unit_is_asked_in_turn():
    allied = Script({"gwe.withdrawal.unit": [-1]})
    g = gwe([unit("cav", "russian", "0404", "cavalry"), unit("cav2", "russian", "0305", "cavalry"),
             unit("ah", "austro_hungarian", "0405")], allied=allied)
    withdrawal.withdrawal_phase(g, 0)
    assert at(g, "cav") == "0404" and g.dice.stream("withdrawal").rolled == 0
    assert allied.seen[0].options == [-1, g.unit("cav"), g.unit("cav2")]


def test_24_21_and_24_22_armored_car_withdraws_without_a_die():
    allied = Script({"gwe.withdrawal.unit": lambda d: d.options[1],
                     "gwe.withdrawal.path": lambda d: d.options[-1]})
    g = gwe([unit("ac", "russian", "0404", "armored_car"), unit("ah", "austro_hungarian", "0405")],
            allied=allied)
    assert withdrawal.withdrawal_candidates(g, 0) == [g.unit("ac")]
    withdrawal.withdrawal_phase(g, 0)
    assert at(g, "ac") == "0604" and g.dice.stream("withdrawal").rolled == 0


def test_24_41_the_armored_car_never_withdraws_into_or_through_a_mountain():
    g = gwe([unit("ac", "russian", "0404", "armored_car"), unit("ah", "austro_hungarian", "0405")],
            terrain={"mountain": ["0403", "0604"]})
    assert paths(g, "ac") == [("0304", "0203"), ("0304", "0204"), ("0304", "0303"),
                              ("0504", "0503"), ("0504", "0603")]


def test_23_31_no_austro_hungarian_cavalry_withdrawal_on_the_first_turn():
    units = [unit("ahc", "austro_hungarian", "0404", "cavalry"),
             unit("gec", "german", "0204", "cavalry"),
             unit("ru", "russian", "0405"), unit("ru2", "russian", "0205")]
    g = gwe(units)
    assert withdrawal.withdrawal_candidates(g, 1) == [g.unit("gec")]
    g.state.turn = 2
    assert withdrawal.withdrawal_candidates(g, 1) == [g.unit("ahc"), g.unit("gec")]
    # Attack on Schedule: the rules of Game-Turn 1 hold on its first turn, 5 (26.24)
    g = gwe(units, first_turn=5, case="26.2")
    assert int(g.state.turn) == 5
    assert withdrawal.withdrawal_candidates(g, 1) == [g.unit("gec")]
    g.state.turn = 6
    assert withdrawal.withdrawal_candidates(g, 1) == [g.unit("ahc"), g.unit("gec")]


def test_12_1_random_policies_play_the_phase_legally():
    units = [unit(f"c{i}", "russian", h, "cavalry") for i, h in enumerate(
        ["0303", "0403", "0503", "0404"])] + [
        unit(f"a{i}", "austro_hungarian", h) for i, h in enumerate(["0305", "0405", "0505"])]
    for seed in range(20):
        sc = position(units).scenario
        g = GweGame(sc, seed=seed)
        withdrawal.withdrawal_phase(g, 0)
        on = (g.state.unit_status & Status.ON_MAP).astype(bool)
        for side in (0, 1):
            mine = set(g.state.unit_cell[on & (sc.units.side == side)].tolist())
            theirs = set(g.state.unit_cell[on & (sc.units.side != side)].tolist())
            assert not mine & theirs
        assert np.all(g.state.unit_cell[on] >= 0)
