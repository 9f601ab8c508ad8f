"""Combat cases 8.11, 8.13, 8.22, 8.24, 8.54, 8.72, 8.74 and fortress cases 11.15, 11.21,
played through ``combat.combat_phase`` / ``combat.resolve_attack`` with scripted policies and
forced dice.

The board of ``combat_positions.board``: Russians on rows 1-4, Central Powers on rows 5-8,
rail lines along row 1 and row 8. Russian attacks read the "tcr23" row: 1-3 1-2 1-1 2-1 3-1
4-1 5-1 6-1; German ones the "tcr1" row: 1-4 1-3 1-2 1-1 2-1 3-1 4-1 5-1.
"""

from combat_positions import board, cell, combats, fight, hexid, steps_lost, unit, where

from gwe_fast.games.gwe import combat, replacement, stacking
from gwe_fast.games.gwe.combat import F_FULL, F_LOST, F_WEAK
from gwe_fast.games.gwe.game import Flag
from gwe_fast.games.gwe.supply import in_supply
from gwe_fast.state import Status

TWO = [[2, 4, 4], [1, 2, 4]]


def asked_kinds(script):
    return [k for k, _, _ in script.asked]


# ------------------------------------------------------------------------------------------
# 8.11
# ------------------------------------------------------------------------------------------
def test_8_11_only_units_directly_adjacent_attack_and_only_in_their_own_combat_phase():
    # 0505 touches 0504 and 0404; 0503 is two hexes away
    g = board([unit("r1", "russian", "0504", steps=TWO), unit("r3", "russian", "0404", steps=TWO),
               unit("far", "russian", "0503", steps=[[9, 4, 4]]),
               unit("ge", "german", "0505", steps=[[1, 2, 5]])])
    r1, r3, far = g.unit("r1"), g.unit("r3"), g.unit("far")
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.allied.add("gwe.combat.attack", ("unit", r1), ("unit", r3), "done")
    g.allied.add("gwe.combat.loss", r1)
    g.dice.force("combat", [6])                            # 4 to 2: 2-1, die 6: 1/-
    combat.combat_phase(g, 0)
    asked = g.allied.options("gwe.combat.attack")
    assert set(asked[0]) == {("unit", r1), ("unit", r3)}   # never the unit two hexes away
    assert all(("unit", far) not in opts for opts in asked)
    (ev,) = combats(g)
    assert ev["attackers"] == (r1, r3) and ev["attack"] == "4"
    assert not g.flag(far, Flag.ATTACKED)
    assert "gwe.combat.declare" not in asked_kinds(g.central)   # the defender attacks nothing
    # in the German Combat Phase the German attacks the hexes next to it, never 0503
    assert set(combat.legal_targets(g, 1)) == {cell(g, "0504"), cell(g, "0404")}
    assert cell(g, "0503") not in combat.legal_targets(g, 1)


# ------------------------------------------------------------------------------------------
# 8.13
# ------------------------------------------------------------------------------------------
def test_8_13_a_hex_may_be_attacked_from_all_six_adjacent_hexes():
    # a Russian rail line along row 4 keeps the attackers below it in supply
    around = ["0504", "0604", "0605", "0506", "0405", "0404"]
    units = [unit(f"r{h}", "russian", h, steps=[[1, 4, 4]]) for h in around]
    units += [unit("extra", "russian", "0504", steps=[[1, 4, 4]]),     # a stack of two
              unit("far", "russian", "0503", steps=[[1, 4, 4]]),
              unit("ge", "german", "0505", steps=[[1, 1, 5]])]
    line = "-".join(["0101", "0102", "0103"] + [f"{c:02d}04" for c in range(1, 8)])
    g = board(units, hexsides={"rail_single": [line]})
    six = [g.unit(f"r{h}") for h in around] + [g.unit("extra")]
    nb = g.scenario.map.neighbors[cell(g, "0505")]
    assert sorted(hexid(g, c) for c in nb) == sorted(around)
    assert in_supply(g.scenario, g.state, 0)[six].all()
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.allied.add("gwe.combat.attack", *[("unit", x) for x in six], "done")
    g.dice.force("combat", [1])                            # 7 to 1 reads 6-1, die 1: -/E
    combat.combat_phase(g, 0)
    first = g.allied.options("gwe.combat.attack")[0]
    assert set(first) == {("unit", x) for x in six}        # all seven, from six hexes
    (ev,) = combats(g)
    assert set(ev["attackers"]) == set(six) and ev["attack"] == "7" and ev["odds"] == "6-1"
    assert where(g, "ge") == "elim" and not g.flag(g.unit("far"), Flag.ATTACKED)


# ------------------------------------------------------------------------------------------
# 8.22
# ------------------------------------------------------------------------------------------
def test_8_22_stack_mates_may_attack_another_hex_or_not_at_all():
    # three divisions in 0404, next to 0505 and 0405
    g = board([unit("r1", "russian", "0404", steps=[[4, 4, 4], [2, 2, 4]]),
               unit("r2", "russian", "0404", steps=[[4, 4, 4], [2, 2, 4]]),
               unit("r3", "russian", "0404", steps=[[4, 4, 4], [2, 2, 4]]),
               unit("g1", "german", "0505", steps=[[1, 2, 5]]),
               unit("g2", "german", "0405", steps=[[1, 2, 5]])])
    r1, r2, r3 = g.unit("r1"), g.unit("r2"), g.unit("r3")
    g.allied.add("gwe.combat.declare", cell(g, "0505"), cell(g, "0405"), "stop")
    g.allied.add("gwe.combat.attack", ("unit", r1), "done", ("unit", r2), "done")
    g.central.add("gwe.combat.option", "retreat_2")
    g.dice.force("combat", [6, 1])          # 4 to 2: 2-1; die 6: 1/-, then die 1: -/2
    combat.combat_phase(g, 0)
    first, _, third, _ = g.allied.options("gwe.combat.attack")
    assert {o for o in first if o[0] == "unit"} == {("unit", r1), ("unit", r2), ("unit", r3)}
    assert set(third) == {("unit", r2), ("unit", r3)}      # r1 has attacked
    a, b = combats(g)
    assert a["attackers"] == (r1,) and b["attackers"] == (r2,)
    assert (a["result"], b["result"]) == ("1/-", "-/2")
    # the first result falls on r1 only (8.12); r3 never attacked and is untouched
    assert (steps_lost(g, "r1"), steps_lost(g, "r2"), steps_lost(g, "r3")) == (1, 0, 0)
    assert g.flag(r1, Flag.ATTACKED) and g.flag(r2, Flag.ATTACKED)
    assert not g.flag(r3, Flag.ATTACKED) and combat.may_attack(g, 0)[r3]
    assert where(g, "g1") == "0505" and where(g, "g2") != "0405"


# ------------------------------------------------------------------------------------------
# 8.24
# ------------------------------------------------------------------------------------------
def test_8_24_a_unit_attacks_with_its_whole_strength_in_one_combat_only():
    units = [unit("r", "russian", "0404", steps=[[8, 4, 4]]),
             unit("g1", "german", "0505", steps=[[1, 2, 5]]),
             unit("g2", "german", "0405", steps=[[1, 2, 5]])]
    # against one hex: all 8, and then nothing is left for the other hex
    g = board(units)
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.central.add("gwe.combat.option", "retreat_2")
    g.dice.force("combat", [2])                            # 8 to 2: 4-1, die 2: -/2
    combat.combat_phase(g, 0)
    (ev,) = combats(g)
    assert ev["attack"] == "8" and ev["defense"] == 2 and ev["odds"] == "4-1"
    (declared,) = g.allied.options("gwe.combat.declare")
    assert declared[0] == "stop" and set(declared[1:]) == {cell(g, "0405"), cell(g, "0505")}
    assert where(g, "r") == "0404" and where(g, "g2") == "0405"
    assert combat.legal_targets(g, 0) == []                # g2 is next to r, but r is spent
    # against both hexes at once: the whole 8 once, against both whole defenders (2 + 2)
    g = board(units)
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.allied.add("gwe.combat.attack", ("hex", cell(g, "0405")), ("unit", g.unit("r")), "done")
    g.dice.force("combat", [6])                            # 8 to 4: 2-1, die 6: 1/-
    combat.combat_phase(g, 0)
    (ev,) = combats(g)
    assert ev["cells"] == (cell(g, "0505"), cell(g, "0405"))
    assert ev["attack"] == "8" and ev["defense"] == 4 and ev["odds"] == "2-1"
    assert g.flag(g.unit("g1"), Flag.DEFENDED) and g.flag(g.unit("g2"), Flag.DEFENDED)


# ------------------------------------------------------------------------------------------
# 8.54
# ------------------------------------------------------------------------------------------
def test_8_54_first_number_attacker_second_defender_the_defender_applies_first():
    def setup():
        g = board([unit("r", "russian", "0504", steps=[[8, 4, 4], [4, 2, 4]]),
                   unit("ge", "german", "0505", steps=[[1, 4, 5], [1, 2, 5]])])
        return g, g.unit("r"), g.unit("ge")

    def order(g, r, ge):
        """Indexes in the event log of the defender's and the attacker's results."""
        ev = g.events
        d = next(i for i, e in enumerate(ev) if e[0] in ("retreat", "step_loss", "eliminated")
                 and ge in e[2].get("units", (e[2].get("unit"),)))
        a = next(i for i, e in enumerate(ev) if e[0] in ("step_loss", "eliminated")
                 and e[2].get("unit") == r)
        return d, a
    g, r, ge = setup()
    g.central.add("gwe.combat.option", "retreat_2")
    c = fight(g, ["r"], ["0505"], die=2)                   # 8 to 4: 2-1, die 2: 1/2
    assert (c.attacker_result, c.defender_result) == ("1", "2")
    assert g.central.options("gwe.combat.option") == [
        ["eliminate_all", "lose_half_and_retreat_1", "retreat_2"]]     # 8.9, result 2
    assert where(g, "ge") == "0507" and steps_lost(g, "ge") == 0
    assert where(g, "r") == "0504" and steps_lost(g, "r") == 1   # attackers never retreat
    d, a = order(g, r, ge)
    assert d < a                                           # the defender's result first
    # the same when the defender takes his result in steps
    g, r, ge = setup()
    g.central.add("gwe.combat.option", "lose_half_affected_steps")
    c = fight(g, ["r"], ["0505"], die=4)                   # 2-1, die 4: 1/1
    assert (c.attacker_result, c.defender_result) == ("1", "1")
    assert steps_lost(g, "ge") == 1 and steps_lost(g, "r") == 1 and where(g, "r") == "0504"
    d, a = order(g, r, ge)
    assert d < a
    # the attacker's options never hold a retreat
    opts = {o for row in g.scenario.tables["crt_options"]["attacker"] for o in row["options"]}
    assert opts == {"lose_half_affected_steps", "lose_all_affected_steps"}


# ------------------------------------------------------------------------------------------
# 8.72
# ------------------------------------------------------------------------------------------
def test_8_72_advancing_units_ignore_enemy_zones_of_control():
    # the German in 0405 controls both the Russian's hex (0404) and the vacated 0505: the
    # Russian advances from one enemy-controlled hex into another, at no cost
    g = board([unit("r", "russian", "0404", steps=[[8, 4, 4]]),
               unit("ge", "german", "0505", steps=[[1, 4, 5]]),
               unit("h", "german", "0405", steps=[[1, 4, 5]])])
    r = g.unit("r")
    from gwe_fast.games.gwe.zoc import controlled
    ezoc = controlled(g.scenario, g.state, 1)
    c5 = cell(g, "0505")
    assert ezoc[cell(g, "0404")]
    g.central.add("gwe.combat.option", "retreat_2")
    g.allied.add("gwe.combat.advance", (r, c5))
    c = fight(g, ["r"], ["0505"], die=1)                   # 8 to 4: 2-1, die 1: -/2
    assert c.defender_result == "2" and where(g, "ge") == "0507"
    assert controlled(g.scenario, g.state, 1)[c5]          # still controlled by h
    assert g.allied.options("gwe.combat.advance") == [["done", (r, c5)]]
    assert where(g, "r") == "0505" and int(g.arr("mp_spent")[r]) == 0
    # a TCR 3 unit could not have retreated into that hex (8.64): the advance is no retreat
    from gwe_fast.games.gwe.retreat import open_enemy_zoc
    g2 = board([unit("h", "german", "0405", steps=[[1, 4, 5]])])
    assert open_enemy_zoc(g2, 0)[c5]


# ------------------------------------------------------------------------------------------
# 8.74
# ------------------------------------------------------------------------------------------
def test_8_74_victorious_defenders_never_advance():
    g = board([unit("r", "russian", "0504", steps=[[1, 4, 4]]),
               unit("ge", "german", "0505", steps=[[1, 3, 5]])])
    g.allied.add("gwe.combat.declare", cell(g, "0505"))
    g.dice.force("combat", [5])                            # 1 to 3: 1-3, die 5: 2/-
    combat.combat_phase(g, 0)
    (ev,) = combats(g)
    assert ev["odds"] == "1-3" and ev["result"] == "2/-"
    assert where(g, "r") == "elim"                         # 0504 is vacated
    assert where(g, "ge") == "0505" and not g.flag(g.unit("ge"), Flag.ADVANCED)
    assert "gwe.combat.advance" not in asked_kinds(g.central)
    assert "gwe.combat.advance" not in asked_kinds(g.allied)
    assert not [e for e in g.events if e[0] == "advance"]


# ------------------------------------------------------------------------------------------
# 11.15, 11.21
# ------------------------------------------------------------------------------------------
def fortress_board(units, where_="0505", **kw):
    g = board(units, features={"fortress": [where_], **kw.pop("features", {})}, **kw)
    f = g.arr("fortress")[cell(g, where_)]
    f[F_FULL], f[F_WEAK] = 6, 3
    return g


def test_11_15_a_fortress_step_lost_is_never_replaced():
    g = fortress_board([unit("r", "russian", "0504", steps=[[14, 10, 4], [7, 5, 4]]),
                        unit("d", "german", "0505", steps=[[2, 4, 5], [1, 2, 5]])])
    c5 = cell(g, "0505")
    g.central.add("gwe.combat.option", "lose_half_affected_steps")
    g.central.add("gwe.combat.loss", ("fortress", c5))
    c = fight(g, ["r"], ["0505"], die=3)                   # 14 to 10: 1-1, die 3: 1/1
    assert (c.odds, c.defender_result, c.affected) == ("1-1", "1", 2)
    assert int(g.arr("fortress")[c5, F_LOST]) == 1 and steps_lost(g, "d") == 0
    # a Game-Turn later, out of contact and in supply, the division has lost a step: the
    # Step Replacement Phase restores the division, never the fortress
    g.remove("r")
    g.arr("flags")[:] = 0
    g.state.unit_step[g.unit("d")] = 1
    g.state.turn = 5
    g.dice.force("replacement", [1])                        # 22.12: German 1-3
    assert replacement.eligible(g, 1) == [g.unit("d")]
    replacement.replacement_phase(g, 1)
    assert steps_lost(g, "d") == 0
    assert int(g.arr("fortress")[c5, F_LOST]) == 1 and combat.fortress_steps(g, c5) == 3
    # a destroyed fortress stays destroyed: no steps, no strength, no longer a fortress
    combat.fortress_lose(g, c5, 3)
    replacement.replacement_phase(g, 1)
    assert combat.fortress_steps(g, c5) == 0 and combat.fortress_defense(g, c5) == 0
    assert not combat.fortress_cells(g, 1)[c5]


def test_11_21_fortresses_never_count_against_stacking_limits():
    # a fortress hex holding three German divisions (6 points) takes a retreating division:
    # 8 points, the limit, the fortress counting nothing
    units = [unit("r", "russian", "0504", steps=[[8, 4, 4], [4, 2, 4]]),
             unit("ge", "german", "0505", steps=[[1, 4, 5]])]
    units += [unit(f"f{i}", "german", "0506") for i in range(3)]
    g = fortress_board(units, where_="0506")
    c6 = cell(g, "0506")
    g.central.add("gwe.combat.option", "retreat_1")
    c = fight(g, ["r"], ["0505"], die=4)                   # 8 to 4: 2-1, die 4: 1/1
    assert c.defender_result == "1"
    assert where(g, "ge") == "0506" and stacking.stacking_points(g, 1)[c6] == 8
    assert stacking.stacking_violations(g) == []
    stacking.enforce_stacking(g)
    assert all(where(g, x) == "0506" for x in ("ge", "f0", "f1", "f2"))
    # one more division would be over the limit, fortress or no fortress
    g = fortress_board(units + [unit("f3", "german", "0506")], where_="0506")
    assert stacking.stacking_violations(g) == []           # 8 points: within
    g.place("ge", "0506")
    assert stacking.stacking_violations(g) == [c6]
    assert g.state.unit_status[g.unit("ge")] & Status.ON_MAP
