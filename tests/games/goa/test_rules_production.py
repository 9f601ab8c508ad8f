"""Production, P._11-P._19 (seed 003), on the tiny world."""

from tiny import Dice, answers, drive, index, raw, world

from gwe_fast.games.goa import economy, engine, entry, morale
from gwe_fast.games.goa.codes import Kind, Month, Side
from gwe_fast.games.goa.model import (CONSCRIPTED_SINCE, DEMOBILIZED_SINCE, IMPLEMENTED_SINCE,
                                      MOBILIZED_SINCE)

ALLIED, CENTRAL = Side.ALLIED, Side.CENTRAL
PROD = {"production": True, "morale": False, "naval": False, "colonies": False,
        "variable_entry": False}


def test_P_11_declared_last_in_the_reinforcement_phase_and_at_once():
    t, s = world({**PROD, "naval": True})
    germany = index(t, "germany")
    s.supply[germany] = 0
    asks = drive(engine.reinforcement_phase(t, s, Dice(), 0, []),
                 answers({(Kind.ECONOMY, germany): 1}))[:-1]
    kinds = [a.kind for a in asks]
    first_policy = kinds.index(Kind.ECONOMY)
    # every other action of the phase comes before: the gift, the invasion of Belgium
    assert Kind.GIFT in kinds[:first_policy] and Kind.INVADE in kinds[:first_policy]
    assert set(kinds[first_policy:]) <= {Kind.ECONOMY, Kind.CONSCRIPTION}
    # at once: this month's supply includes the increase
    assert s.supply[germany] == 32 + 4 and s.supply_last[germany] == 36
    assert s.mobilized[germany] == 0 and s.since_roll[germany] & MOBILIZED_SINCE


def test_P_12_a_tenth_more_and_again_in_the_12th_24th_36th_48th_month():
    t, s = world(PROD)
    germany = index(t, "germany")
    economy.set_mobilization(t, s, germany, True, 10)
    due = {m: economy.supply_due(t, s, germany, m) for m in range(10, 80)}
    # 32 and a tenth of it rounded up (4): the month of the declaration is the first
    assert due[10] == due[20] == 36
    assert due[21] == 40 and due[32] == 40                 # the 12th month
    assert due[33] == 44 and due[45] == 48 and due[57] == 52 and due[79] == 52
    assert economy.supply_due(t, s, index(t, "austria_hungary"), 30) == 15
    economy.set_mobilization(t, s, index(t, "austria_hungary"), True, 10)
    assert economy.supply_due(t, s, index(t, "austria_hungary"), 10) == 15 + 2


def test_P_13_a_repeal_back_to_the_unmobilized_points_and_a_morale_point():
    t, s = world(PROD)
    germany = index(t, "germany")
    economy.set_mobilization(t, s, germany, True, 0)
    assert economy.supply_due(t, s, germany, 30) == 32 + 12
    economy.set_mobilization(t, s, germany, False, 30)
    assert economy.supply_due(t, s, germany, 30) == 32
    economy.set_mobilization(t, s, germany, True, 31)      # as if never declared before
    assert economy.supply_due(t, s, germany, 31) == 36
    assert s.since_roll[germany] & DEMOBILIZED_SINCE
    # the morale roll: in effect since the last roll (-1), repealed since (-1); with the
    # production variant alone, and once with the morale variant too
    s.since_roll[germany] = MOBILIZED_SINCE | DEMOBILIZED_SINCE
    alone = morale.morale_modifier(t, s, germany, 30)
    t2, s2 = world({**PROD, "production": False})
    s2.since_roll[germany] = MOBILIZED_SINCE | DEMOBILIZED_SINCE
    assert alone == morale.morale_modifier(t2, s2, germany, 30) - 2
    t3, s3 = world({**PROD, "morale": True})
    s3.since_roll[germany] = MOBILIZED_SINCE | DEMOBILIZED_SINCE
    t4, s4 = world({**PROD, "morale": True})
    s4.since_roll[germany] = 0
    assert morale.morale_modifier(t3, s3, germany, 30) == morale.morale_modifier(
        t4, s4, germany, 30) - 2


def test_P_14_conscription_doubles_personnel_and_costs_the_next_roll():
    t, s = world(PROD)
    britain = index(t, "britain")
    entry.join(t, s, britain, ALLIED, 0)
    assert economy.personnel_due(t, s, britain) == 8
    army = int(s.army[britain])
    s.personnel_last[britain] = 8
    s.since_roll[britain] = 0
    economy.set_conscription(t, s, britain, True)
    assert economy.personnel_due(t, s, britain) == 16
    assert s.army[britain] == army + 8                    # at once: this month's points
    assert s.since_roll[britain] == CONSCRIPTED_SINCE | IMPLEMENTED_SINCE
    t2, s2 = world(PROD)
    entry.join(t2, s2, britain, ALLIED, 0)
    s2.since_roll[britain] = 0
    # -1 for implementing, -1 for being in effect (P._16), counted once with M._4
    assert morale.morale_modifier(t, s, britain, 3) == morale.morale_modifier(t2, s2, britain, 3) - 2
    t3, s3 = world({**PROD, "morale": True})
    entry.join(t3, s3, britain, ALLIED, 0)
    s3.since_roll[britain] = 0
    base = morale.morale_modifier(t3, s3, britain, 3)
    economy.set_conscription(t3, s3, britain, True)
    assert morale.morale_modifier(t3, s3, britain, 3) == base - 2


def test_P_15_a_repeal_halves_personnel_and_disbands_the_weakest_infantry():
    t, s = world(PROD)
    germany, britain = index(t, "germany"), index(t, "britain")
    army = int(s.army[germany])
    economy.set_conscription(t, s, germany, False)
    assert economy.personnel_due(t, s, germany) == 38 // 2
    lost = -(-army * 20 // 100)                          # the stand-in's share of infantry
    assert s.army[germany] == army - lost - 19           # and this month's halved points
    economy.set_conscription(t, s, germany, True)        # until implemented again
    assert economy.personnel_due(t, s, germany) == 38
    # Britain, which entered without it: implemented (doubled) then repealed (halved)
    entry.join(t, s, britain, ALLIED, 0)
    economy.set_conscription(t, s, britain, True)
    economy.set_conscription(t, s, britain, False)
    assert economy.personnel_due(t, s, britain) == 8


def test_P_16_both_policies_cost_a_point_each_while_in_effect():
    t, s = world({**PROD, "morale": True})
    germany = index(t, "germany")
    s.since_roll[germany] = 0
    zero = morale.morale_modifier(t, s, germany, 20)
    s.mobilized[germany] = 3
    s.conscription[germany] = 1
    morale.new_roll_period(s, germany)
    assert morale.morale_modifier(t, s, germany, 20) == zero - 2
    s.conscription[germany] = 2
    s.mobilized[germany] = -1
    morale.new_roll_period(s, germany)
    assert morale.morale_modifier(t, s, germany, 20) == zero


def start_1917() -> dict:
    data = raw()
    data["scenario"] = {"start": "1917-01", "last": "1918-12", "start_key": "1917"}
    data["start"] = {"countries": {
        "germany": {"mobilized": "1916-11"}, "austria_hungary": {"mobilized": "1916-11"},
        "britain": {"side": "allied", "entered": "1914-08", "conscription": True},
        "italy": {"side": "allied", "entered": "1915-05"}}}
    return data


def test_P_17_germany_and_austria_mobilized_since_november_1916_in_the_1917_start():
    t, s = world(PROD, start_1917())
    germany, austria = index(t, "germany"), index(t, "austria_hungary")
    jan = Month.of("1917-01")
    assert s.mobilized[germany] == s.mobilized[austria] == Month.of("1916-11")
    assert s.mobilized[index(t, "france")] == -1 and s.mobilized[index(t, "italy")] == -1
    assert economy.supply_due(t, s, germany, jan) == 36
    assert economy.supply_due(t, s, germany, Month.of("1917-10")) == 40   # its 12th month
    assert s.since_roll[germany] & MOBILIZED_SINCE                          # M._4 at once
    # a country entering the war has not mobilized
    t, s = world(PROD)
    entry.join(t, s, index(t, "italy"), ALLIED, 9)
    assert s.mobilized[index(t, "italy")] == -1


def test_P_18_conscription_before_entry_but_britain_and_the_usa():
    t, s = world(PROD)
    have = {t.c_key[c] for c in range(t.n_countries) if s.conscription[c] == 1}
    assert "britain" not in have and "united_states" not in have
    assert {"germany", "france", "russia", "italy", "turkey", "japan"} <= have
    t, s = world(PROD, start_1917())
    britain = index(t, "britain")
    assert s.conscription[britain] == 1
    assert economy.personnel_due(t, s, britain) == 16      # doubled: implemented in 1916
    assert s.since_roll[britain] & CONSCRIPTED_SINCE


def test_P_19_the_usa_receives_points_and_chooses_policies_from_its_last_reinforcement():
    t, s = world(PROD)
    us, france = index(t, "united_states"), index(t, "france")
    entry.join(t, s, us, ALLIED, 30)
    months, per = (int(x) for x in t.us_reinforcements)
    arrivals = []
    for m in range(30, 30 + months + 3):
        before = int(s.army[us])
        economy.reinforce(t, s, m)
        if s.army[us] > before:
            arrivals.append(m)
    last = arrivals[-1]
    assert last == economy.us_ready_month(t, s) == 30 + months - 1
    assert not economy.receives_points(t, s, us, last - 1)
    assert economy.receives_points(t, s, us, last)
    assert not economy.may_change_policy(t, s, us, last - 1)
    assert economy.may_change_policy(t, s, us, last)
    assert economy.may_change_policy(t, s, france, 0)      # the others at any time
    # the points table (stand-in values are the seed's): Germany 38 personnel, 32 supply
    g = index(t, "germany")
    assert (t.c_personnel[g], t.c_supply[g]) == (38, 32)
    s.supply[g] = 0
    economy.produce(t, s, 0)
    assert s.supply[g] == 32 and s.personnel_last[g] == 38
    assert s.supply[index(t, "italy")] == 0                # neutral: nothing
