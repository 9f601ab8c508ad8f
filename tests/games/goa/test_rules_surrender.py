"""Surrender, S._11-S._16, and the Victory Conditions (seed 003), on the tiny world."""

from tiny import Dice, drive, index, world

from gwe_fast.games.goa import economy, engine, entry, morale, naval, surrender, victory
from gwe_fast.games.goa.codes import Damage, Morale, Result, Side
from gwe_fast.games.goa.model import RESULT, RESULT_MONTH
from gwe_fast.games.goa.world import at_war, port_usable

ALLIED, CENTRAL, NEUTRAL = Side.ALLIED, Side.CENTRAL, Side.NEUTRAL
OPTS = {"surrender": True, "naval": True, "colonies": False, "variable_entry": True}


def test_S_11_a_full_belligerent_stays_at_war_until_conquered():
    t, s = world(OPTS)
    italy, britain = index(t, "italy"), index(t, "britain")
    entry.apply_entry_roll(t, s, italy, 0, 9)
    assert italy not in entry.rolls_for_entry(t, s)
    entry.join(t, s, britain, ALLIED, 0)
    entry.apply_entry_roll(t, s, britain, 6, 3)          # a full Britain is not rolled for,
    assert s.side[britain] == ALLIED                     # and a roll would change nothing
    surrender.conquer(t, s, italy, CENTRAL, 20, by_morale=True)
    assert not at_war(s, italy) and s.side[italy] == ALLIED and s.conquered[italy] == 20


def test_S_12_conquest_by_surrender_in_a_morale_phase_or_by_holding_every_city():
    t, s = world(OPTS)
    serbia, belgium = index(t, "serbia"), index(t, "belgium")
    morale.apply_morale(t, s, serbia, Morale.SURRENDER, 5)
    assert s.conquered[serbia] == 5
    entry.join(t, s, belgium, ALLIED, 0)
    for key in ("brussels", "antwerp"):
        s.city[index(t, key)] = CENTRAL
    surrender.occupation_conquests(t, s, 3)
    assert s.conquered[belgium] == -1                    # Ypres still Allied
    s.city[index(t, "ypres")] = CENTRAL
    surrender.occupation_conquests(t, s, 3)
    assert s.conquered[belgium] == 3
    # the engine checks at the Inter-Player Turn, after the month's land war
    t, s = world({**OPTS, "variable_entry": False})
    monte = index(t, "montenegro")
    s.city[index(t, "cetinje")] = CENTRAL
    drive(engine.play_month(t, s, Dice(*[6] * 40), 1))
    assert s.conquered[monte] == 1


def test_S_12_japan_is_conquered_with_its_home_islands():
    t, s = world({**OPTS, "colonies": True})
    japan = index(t, "japan")
    entry.join(t, s, japan, ALLIED, 3)
    surrender.occupation_conquests(t, s, 4)
    assert s.conquered[japan] == -1
    s.colony[t.l_key.index("japan")] = CENTRAL
    surrender.occupation_conquests(t, s, 5)
    assert s.conquered[japan] == 5


def test_S_12_and_N_15_a_country_with_ports_off_the_map_surrenders_only_by_morale():
    t, s = world(OPTS)
    britain = index(t, "britain")
    entry.join(t, s, britain, ALLIED, 0)
    s.city[index(t, "london")] = CENTRAL                 # every British city on the map
    surrender.occupation_conquests(t, s, 3)
    assert s.conquered[britain] == -1
    morale.apply_morale(t, s, britain, Morale.SURRENDER, 5)
    assert s.conquered[britain] == 5


def test_S_13_the_conqueror_garrisons_each_city_with_one_unit():
    t, s = world(OPTS)
    serbia, austria = index(t, "serbia"), index(t, "austria_hungary")
    germany = index(t, "germany")
    army = int(s.army[germany])                          # Germany's is the largest
    surrender.conquer(t, s, serbia, CENTRAL, 12, by_morale=True)
    cities = [k for k in range(t.n_cities) if t.k_country[k] == serbia]
    assert all(s.city[k] == CENTRAL and s.garrison[k] == 1 for k in cities)
    assert s.army[germany] == army - len(cities) * t.corps
    assert s.army[austria] == t.c_army0[austria]
    # a city of a conquered country belongs to whoever occupies it: retaken, it is Allied
    s.city[cities[0]] = ALLIED
    surrender.occupation_conquests(t, s, 13)
    assert s.city[cities[0]] == ALLIED


def test_S_14_central_powers_morale_without_triple_garrisons():
    t, s = world({**OPTS, "morale": False})
    germany, russia = index(t, "germany"), index(t, "russia")
    before = morale.morale_modifier(t, s, germany, 40)
    serbia = morale.morale_modifier(t, s, index(t, "serbia"), 40)
    surrender.conquer(t, s, russia, CENTRAL, 30, by_morale=True)
    after = morale.morale_modifier(t, s, germany, 40)
    assert after == before - 1
    surrender.set_triple(t, s, russia, True)
    assert morale.morale_modifier(t, s, germany, 40) == before
    # France and Italy: one point for the two together, their objective cities only
    entry.join(t, s, index(t, "italy"), ALLIED, 9)
    for key in ("france", "italy"):
        surrender.conquer(t, s, index(t, key), CENTRAL, 35, by_morale=True)
    assert morale.morale_modifier(t, s, germany, 40) == before - 1
    surrender.set_triple(t, s, index(t, "france"), True)
    assert morale.morale_modifier(t, s, germany, 40) == before - 1
    surrender.set_triple(t, s, index(t, "italy"), True)
    assert morale.morale_modifier(t, s, germany, 40) == before
    rome = index(t, "rome")                               # not an objective city
    assert s.garrison[rome] == 1
    # the Allies' morale is not concerned
    for key in ("france", "italy"):
        surrender.set_triple(t, s, index(t, key), False)
    assert morale.morale_modifier(t, s, index(t, "serbia"), 40) == serbia


def test_S_15_units_in_a_conquered_countrys_ports_off_the_map_leave_within_a_month():
    t, s = world(OPTS)
    britain, us = index(t, "britain"), index(t, "united_states")
    entry.join(t, s, britain, ALLIED, 0)
    entry.join(t, s, us, ALLIED, 0)
    scapa = t.p_key.index("scapa_flow")
    norfolk = t.p_key.index("norfolk")
    q = next(q for q in range(t.n_squadrons) if s.squadron_country[q] == us)
    s.squadron_base[q] = scapa
    surrender.conquer(t, s, britain, CENTRAL, 10, by_morale=True)
    assert not port_usable(t, s, scapa, ALLIED) and not port_usable(t, s, scapa, CENTRAL)
    surrender.abandoned_off_map_ports(t, s, 10)
    assert s.squadron_damage[q] == Damage.NONE           # the following month to leave
    # leaving is allowed (to a port sharing an area), returning not
    assert 1 + norfolk in naval.squadron_options(t, s, q)
    surrender.abandoned_off_map_ports(t, s, 11)
    assert s.squadron_damage[q] == Damage.SUNK and s.squadron_base[q] == -1


def test_S_16_a_conquered_country_loses_its_units_and_produces_nothing():
    t, s = world(OPTS)
    russia, britain = index(t, "russia"), index(t, "britain")
    entry.join(t, s, britain, ALLIED, 0)
    s.abroad[britain, russia] = 8                        # British forces in Russia go home
    s.abroad[russia, britain] = 4
    s.supply[russia] = 30
    army_gb = int(s.army[britain])
    surrender.conquer(t, s, russia, CENTRAL, 20, by_morale=True)
    assert s.army[russia] == 0 and s.abroad[russia].sum() == 0 and s.supply[russia] == 0
    assert s.army[britain] == army_gb + 8
    assert all(s.squadron_damage[q] == Damage.SUNK for q in range(t.n_squadrons)
               if s.squadron_country[q] == russia)
    economy.produce(t, s, 21)
    assert s.army[russia] == 0 and s.supply[russia] == 0


def test_victory_conditions_every_objective_for_a_month_or_none():
    t, s = world({"victory": True})
    objectives = [k for k in range(t.n_cities) if t.k_objective[k]]
    for k in objectives:
        s.city[k] = CENTRAL
    victory.check(t, s, 10)
    assert s.scalars[RESULT] == Result.PLAYING           # held at one check...
    victory.check(t, s, 11)
    assert s.scalars[RESULT] == Result.CENTRAL_OBJECTIVES and s.scalars[RESULT_MONTH] == 11
    t, s = world({"victory": True})
    for k in objectives:
        s.city[k] = CENTRAL
    victory.check(t, s, 10)
    s.city[objectives[0]] = ALLIED                        # ... not held through the month
    victory.check(t, s, 11)
    for k in objectives:
        s.city[k] = CENTRAL
    victory.check(t, s, 12)
    assert s.scalars[RESULT] == Result.PLAYING
    t, s = world({"victory": True})
    for k in objectives:
        s.city[k] = ALLIED
    victory.check(t, s, 7)
    assert s.scalars[RESULT] == Result.ALLIED_OBJECTIVES and s.scalars[RESULT_MONTH] == 7
