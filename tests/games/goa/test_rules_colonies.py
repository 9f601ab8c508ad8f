"""Colonies, C.11-C.68 (seed 003; C.69 is with M._2), on the tiny world."""

import pytest
from tiny import Dice, answers, drive, index, raw, squadron, world

from gwe_fast.games.goa import colonial, economy, engine, entry, naval, naval_combat
from gwe_fast.games.goa.codes import Damage, Kind, Month, Ship, Side
from gwe_fast.games.goa.naval import (COLONY_TO_COLONY, FROM_COLONY, SORTIE, TO_COLONY,
                                      TO_HOST)

ALLIED, CENTRAL, NEUTRAL = Side.ALLIED, Side.CENTRAL, Side.NEUTRAL
DN, BC, BB = Ship.DREADNOUGHT, Ship.BATTLECRUISER, Ship.BATTLESHIP
COL = {"naval": True, "colonies": True, "variable_entry": False}
FEB_1915 = Month.of("1915-02")


def col_world(options=None, data=None):
    t, s = world({**COL, **(options or {})}, data)
    entry.join(t, s, index(t, "britain"), ALLIED, 0)
    return t, s


def l_(t, key):
    return t.l_key.index(key)


def shipping(t, s, c):
    out = {}
    for o in naval.ship_options(t, s, c):
        if o:
            block, i, n = naval.ship_decode(t, o)
            out[(block, i)] = max(n, out.get((block, i), 0))
    return out


def test_C_11_colonies_and_areas_off_the_map_and_their_ports():
    t, s = col_world()
    assert t.n_places == t.n_ports + t.n_colonies
    assert t.p_in_play[t.p_key.index("sydney")] and t.p_in_play[t.p_key.index("san_diego")]
    kinds = {t.l_key[l]: int(t.l_kind[l]) for l in range(t.n_colonies)}
    assert kinds["egypt"] == colonial.COLONY and kinds["persia"] == colonial.SOVEREIGN
    assert kinds["manchuria"] == colonial.CHINA and kinds["japan"] == colonial.JAPAN
    # without the variant they are out of play: no squadron or land unit goes there
    t, s = world({**COL, "colonies": False})
    entry.join(t, s, index(t, "britain"), ALLIED, 0)
    assert not naval.place_usable(t, s, t.n_ports + l_(t, "egypt"), ALLIED)
    assert all(b < 2 for b, _ in shipping(t, s, index(t, "britain")))


def test_C_12_the_colonies_chart_owners_defence_areas_and_neighbours():
    t, s = col_world()
    egypt, syria, libya = l_(t, "egypt"), l_(t, "syria"), l_(t, "libya")
    assert t.l_owner[egypt] == index(t, "britain") and t.l_defense[egypt] == 5
    assert [t.a_key[a] for a in naval.place_areas(t, t.n_ports + egypt)] == [
        "east_mediterranean", "indian_ocean"]
    assert t.l_neighbor[egypt, syria] and t.l_neighbor[syria, egypt]
    # a link the chart gives one way only is a link both ways (libya lists none)
    assert raw()["areas"]["libya"]["neighbors"] == ["egypt"]
    assert t.l_neighbor[egypt, libya] and t.l_neighbor[libya, egypt]
    assert s.colony[egypt] == ALLIED and s.colony[l_(t, "kamerun")] == CENTRAL
    assert s.colony[syria] == NEUTRAL and s.colony[l_(t, "persia")] == NEUTRAL


def test_C_21_the_august_1914_colonial_deployment():
    t, s = col_world()
    britain, germany, japan = index(t, "britain"), index(t, "germany"), index(t, "japan")
    assert s.col_units[l_(t, "egypt"), britain] == 1 and s.col_af[l_(t, "egypt"), britain] == 4
    assert s.col_units[l_(t, "biafra"), britain] == 1
    t0, s0 = world({**COL, "colonies": False})
    assert s.army[britain] == s0.army[britain] + t.corps   # the corps in Sydney
    sydney = t.p_key.index("sydney")
    assert any(s.squadron_base[q] == sydney and t.q_kind[q] == BC
               and s.squadron_country[q] == britain for q in range(t.n_squadrons))
    assert any(s.squadron_base[q] == t.n_ports + l_(t, "tsingtao") and t.q_kind[q] == BC
               and s.squadron_country[q] == germany for q in range(t.n_squadrons))
    home = l_(t, "japan")
    assert s.col_units[home, japan] == 8 and s.col_af[home, japan] == 24   # support excluded
    assert sum(1 for q in range(t.n_squadrons) if s.squadron_country[q] == index(
        t, "united_states") and s.squadron_base[q] == t.p_key.index("san_diego")) == 2


def later_start(key, deployments, countries=None, colonies=None):
    data = raw()
    year = {"1915": "1915-01", "1916": "1916-01", "1917": "1917-01", "1918": "1918-01"}[key]
    data["scenario"] = {"start": year, "last": "1918-12", "start_key": key}
    data["start"] = {"countries": countries or {}, "colonies": colonies or {}}
    data["deployments"] = deployments
    return data


def test_C_22_the_1915_start_tsingtao_conquered_japan_at_war():
    data = later_start("1915", [
        {"start": "1915", "place": "egypt", "country": "britain", "units": [[4, 6, 4, 1]]},
        {"start": "1915", "place": "caucasus", "country": "russia", "units": [[4, 6, 4, 3]],
         "conquered": ["tsingtao"]},
        {"start": "1915", "place": "japan", "country": "japan", "units": [[4, 6, 4, 6]]}],
        countries={"japan": {"side": "allied", "entered": "1914-08"},
                   "britain": {"side": "allied", "entered": "1914-08"}})
    t, s = world(COL, data)
    assert s.colony[l_(t, "tsingtao")] == ALLIED
    assert s.side[index(t, "japan")] == ALLIED and s.colony[l_(t, "korea")] == ALLIED
    assert s.col_units[l_(t, "caucasus"), index(t, "russia")] == 3
    assert s.col_units[l_(t, "biafra"), index(t, "britain")] == 0     # not in this start
    # no fleet in the colonies: the 1914 deployment's squadrons are not there
    assert not any(s.squadron_base[q] >= t.n_ports for q in range(t.n_squadrons)
                   if s.squadron_country[q] in (index(t, "britain"), index(t, "germany")))


def test_C_23_the_1916_start_and_japans_extra_dreadnought():
    data = later_start("1916", [
        {"start": "1916", "place": "japan", "country": "japan", "factors_of": "france",
         "squadrons": [["dreadnought", 2]], "conquered": ["tsingtao", "kamerun"]}],
        countries={"japan": {"side": "allied", "entered": "1914-08"}})
    t, s = world(COL, data)
    assert s.colony[l_(t, "kamerun")] == ALLIED
    japanese = [q for q in range(t.n_squadrons) if s.squadron_country[q] == index(t, "japan")
                and s.squadron_base[q] >= 0]
    assert len(japanese) == 2


def test_C_24_the_1917_start_areas_conquered_by_the_allies():
    data = later_start("1917", [
        {"start": "1917", "place": "egypt", "country": "britain", "units": [[4, 6, 4, 2]],
         "conquered": ["libya", "kamerun"]},
        {"start": "1917", "place": "syria", "country": "turkey", "units": [[4, 6, 4, 1]]}],
        countries={"turkey": {"side": "central", "entered": "1914-11"},
                   "britain": {"side": "allied", "entered": "1914-08"}})
    t, s = world(COL, data)
    # Libya counts as Turkish since Turkey's entry (C.66): conquered, it is the Allies'
    assert s.colony[l_(t, "libya")] == ALLIED and s.colony[l_(t, "kamerun")] == ALLIED
    assert s.col_units[l_(t, "syria"), index(t, "turkey")] == 1
    assert s.col_units[l_(t, "egypt"), index(t, "britain")] == 2


def test_C_25_the_1918_start_a_conqueror_named_where_the_owner_would_mislead():
    data = later_start("1918", [
        {"start": "1918", "place": "caucasus", "country": "turkey", "units": [[4, 6, 4, 1]],
         "conquered": [{"place": "caucasus", "by": "central"}, "syria"]}],
        countries={"turkey": {"side": "central", "entered": "1914-11"}})
    t, s = world(COL, data)
    assert s.colony[l_(t, "caucasus")] == CENTRAL          # Russian: by its enemy
    assert s.colony[l_(t, "syria")] == ALLIED              # Turkish: by its enemy
    data = later_start("1918", [{"start": "1918", "place": "japan", "country": "japan",
                                 "conquered": ["persia"]}])
    with pytest.raises(ValueError, match="persia"):
        world(COL, data)


def test_C_26_japan_points_forces_fleet_and_the_american_pacific_margin():
    t, s = col_world({"production": True})
    japan, us = index(t, "japan"), index(t, "united_states")
    home = l_(t, "japan")
    assert s.conscription[japan] == 1 and economy.personnel_due(t, s, japan) == 19
    q = next(q for q in range(t.n_squadrons) if s.squadron_country[q] == japan
             and s.squadron_base[q] >= 0)
    assert t.q_protection[q] == raw()["squadron_kinds"]["france"]["protection"][DN]
    # neutral, Japan gets a dreadnought in January 1916 (and none if at war then)
    extra = next(q for q in range(t.n_squadrons) if t.q_neutral_only[q])
    economy.reinforce(t, s, Month.of("1916-01"))
    assert s.squadron_base[extra] == t.n_ports + home
    # at war: points every month, personnel spent on its force pool in order
    entry.join(t, s, japan, ALLIED, 20)
    units = int(s.col_units[home, japan])
    economy.produce(t, s, 21)
    assert s.japan_personnel == 19 and s.supply[japan] == 20
    colonial.japanese_forces(t, s, 21)
    assert s.col_units[home, japan] == units + 4 and s.japan_personnel == 3   # 4-6-4s
    # three 3-5-3 corps a month after the USA enters
    entry.join(t, s, us, ALLIED, 30)
    units = int(s.col_units[home, japan])
    colonial.japanese_forces(t, s, 31)
    assert s.col_units[home, japan] >= units + 3
    # the USA may base a squadron away from the Pacific only while it keeps more there than
    # Japan has: two in San Diego against Japan's two
    norfolk, sd = t.p_key.index("norfolk"), t.p_key.index("san_diego")
    pacific = [q for q in range(t.n_squadrons) if s.squadron_country[q] == us
               and s.squadron_base[q] == sd]
    hawaii = t.n_ports + l_(t, "hawaii")
    assert not naval.pacific_margin_kept(t, s, pacific[0], t.p_key.index("london"), None)
    assert naval.pacific_margin_kept(t, s, pacific[0], hawaii, None)
    s.squadron_damage[extra] = Damage.SUNK                  # Japan down to one
    s.squadron_base[extra] = -1
    assert not naval.pacific_margin_kept(t, s, pacific[0], norfolk, None)   # 1 is not more
    atlantic = next(q for q in range(t.n_squadrons) if s.squadron_country[q] == us
                    and s.squadron_base[q] == norfolk)
    s.squadron_base[atlantic] = hawaii                      # three in the Pacific
    assert naval.pacific_margin_kept(t, s, pacific[0], norfolk, None)
    # ... but not two of them in one phase
    assert not naval.pacific_margin_kept(t, s, pacific[1], norfolk, {pacific[0]: 1 + norfolk})
    # Japan's three corps a month after the USA's entry: not for a conquered Japan (S._16)
    from gwe_fast.games.goa import surrender

    s.entered[us] = 40
    surrender.conquer(t, s, japan, CENTRAL, 40, by_morale=True)
    colonial.japanese_forces(t, s, 41)
    assert s.col_units[home, japan] == 0


def test_C_31_the_colonial_phase_follows_the_naval_phase():
    t, s = col_world()
    asks = drive(engine.play_month(t, s, Dice(*[6] * 80), 1))[:-1]
    kinds = [a.kind for a in asks]
    first_colonial = kinds.index(Kind.COLONIAL)
    assert Kind.SQUADRON in kinds[:first_colonial]
    assert not {Kind.SQUADRON, Kind.SHIP, Kind.LANDING} & set(kinds[first_colonial:])


def test_C_32_colonial_orders_in_secret():
    t, s = col_world()
    entry.join(t, s, index(t, "turkey"), CENTRAL, 0)       # Turkey has orders to give
    russia = index(t, "russia")
    caucasus = l_(t, "caucasus")
    order = next(o for o in colonial.move_options(t, s, russia) if o
                 and colonial.decode_move(t, o)[:2] == (t.n_colonies, caucasus))
    seen = {}

    def choose(ask):
        if ask.kind == Kind.COLONIAL:
            assert ask.secret
            if ask.side == CENTRAL and "central" not in seen:
                seen["central"] = int(s.col_units[caucasus, russia])
            if ask.subject == russia and "russia" not in seen:
                seen["russia"] = 1
                return order
        return None

    drive(colonial.colonial_phase(t, s, Dice(), 1), choose)
    assert seen["central"] == 0                           # not yet carried out when asked
    assert s.col_units[caucasus, russia] == colonial.decode_move(t, order)[2]


def test_C_33_squadrons_move_to_and_from_colonies_first_in_the_one_naval_phase():
    # the Colonial Phase's squadron steps are those of the Naval Phase (docs/rulings.md)
    t, s = col_world()
    bc = squadron(t, s, "britain", BC)                    # Scapa Flow
    s.squadron_base[bc] = t.p_key.index("gibraltar")
    biafra = t.n_ports + l_(t, "biafra")
    assert 1 + biafra in naval.squadron_options(t, s, bc)  # over the North Atlantic
    asks = drive(engine.play_month(t, s, Dice(*[6] * 80), 1),
                 answers({(Kind.SQUADRON, bc): 1 + biafra}))[:-1]
    assert s.squadron_base[bc] == biafra
    assert not [a for a in asks if a.kind == Kind.SQUADRON
                and asks.index(a) > [x.kind for x in asks].index(Kind.COLONIAL)]


def test_C_34_blockades_after_combat_sea_movement_after_blockades():
    t, s = col_world()
    britain = index(t, "britain")
    sa = index(t, "south_atlantic")
    gq = squadron(t, s, "germany", BC)
    s.squadron_base[gq] = t.n_ports + l_(t, "kamerun")
    bq = squadron(t, s, "britain", BB)
    s.squadron_base[bq] = t.n_ports + l_(t, "biafra")
    g2 = t.goeben
    s.squadron_base[g2] = t.n_ports + l_(t, "kamerun")
    # two German battlecruisers against a British battleship in the South Atlantic (the
    # N.4 stand-in): both hit (1, 1), the British misses (6); heavy and heavy (6, 6): sunk.
    # The German blockade roll comes after, with the winners' +3 +3: 1 + 6 = 7
    orders = answers({(Kind.SQUADRON, gq): SORTIE + sa, (Kind.SQUADRON, g2): SORTIE + sa,
                      (Kind.SQUADRON, bq): SORTIE + sa})
    seen = []

    def choose(ask):
        if ask.kind == Kind.SHIP and ask.subject == britain:
            seen.append(ask.options)
        return orders(ask)

    dice = Dice(1, 1, 6, 6, 6, 1)
    drive(engine.naval_phase(t, s, dice, 1), choose)
    assert not dice.forced
    assert s.squadron_damage[bq] == Damage.SUNK and s.blockade[sa, CENTRAL]
    # Britain's shipping came after: Biafra only over the North Atlantic, still open
    assert (TO_COLONY, l_(t, "biafra")) in shipping(t, s, britain)
    s.blockade[index(t, "north_atlantic"), CENTRAL] = 1
    assert (TO_COLONY, l_(t, "biafra")) not in shipping(t, s, britain)


def test_C_41_colonies_are_ports_but_pass_no_supply_points():
    t, s = col_world()
    britain = index(t, "britain")
    egypt = t.n_ports + l_(t, "egypt")
    assert naval.place_usable(t, s, egypt, ALLIED)
    q = squadron(t, s, "britain", BB)
    s.squadron_base[q] = egypt
    assert SORTIE + index(t, "indian_ocean") in naval.squadron_options(t, s, q)
    # supply points go between the countries' own ports only: Egypt, on the East
    # Mediterranean beside Venice, passes none to Italy once Gibraltar's sea is closed
    italy = index(t, "italy")
    entry.join(t, s, italy, ALLIED, 9)
    s.supply[britain] = 20
    assert economy.sea_route(t, s, britain, italy)               # Gibraltar - Venice
    s.blockade[index(t, "west_mediterranean"), CENTRAL] = 1
    assert not economy.sea_route(t, s, britain, italy)
    # detached: land units in colonies count for N.76
    assert naval.detached_units(t, s, britain) == 2


def test_C_42_the_naval_rules_in_the_colonial_seas():
    t, s = col_world()
    q = squadron(t, s, "britain", BB)
    io = index(t, "indian_ocean")
    s.squadron_base[q] = t.n_ports + l_(t, "egypt")
    naval.apply_order(s, q, SORTIE + io)
    assert naval.blockade_modifier(t, s, io, ALLIED, 1) == 1
    sydney = t.p_key.index("sydney")
    assert naval.may_move(t, s, q, sydney, ALLIED)                  # over the Indian Ocean
    s.blockade_prev[io, CENTRAL] = 1
    assert not naval.may_move(t, s, q, sydney, ALLIED)              # N.33


def test_C_43_central_submarines_reach_only_seas_of_ports_on_the_map():
    t, s = col_world()
    s.usw[CENTRAL] = s.usw[ALLIED] = 6
    io, na = index(t, "indian_ocean"), index(t, "north_atlantic")
    assert naval.usw_bonus(t, s, CENTRAL, io, 6) == 0
    assert naval.usw_bonus(t, s, CENTRAL, na, 6) == 4
    assert naval.usw_bonus(t, s, ALLIED, io, 6) == 4


def test_C_44_a_colonial_battlecruiser_returns_in_three_months_unless_sunk():
    t, s = col_world()
    bc = squadron(t, s, "britain", BC)
    egypt = t.n_ports + l_(t, "egypt")
    s.squadron_base[bc] = egypt
    london = t.p_key.index("london")
    asks = drive(colonial.returns(t, s, Dice(), 10), answers({Kind.RETURN: london}))[:-1]
    assert asks[0].options[0] == -1 and london in asks[0].options
    assert t.p_key.index("norfolk") not in asks[0].options     # European ports only
    assert s.returning[bc] == 10 and bc not in naval.active_squadrons(t, s, ALLIED)
    # the month after, a German battlecruiser intercepts: the N.4 stand-in's combat
    hunter = squadron(t, s, "germany", BC)
    dice = Dice(6, 6)              # the German misses (gunnery 5: 3 or less), the British too
    drive(colonial.returns(t, s, dice, 11), answers({Kind.INTERCEPT: 1}))
    assert not dice.forced and s.moved[hunter]
    drive(colonial.returns(t, s, Dice(), 12))                  # not intercepted
    assert s.squadron_base[bc] == egypt
    drive(colonial.returns(t, s, Dice(), 13))
    assert s.squadron_base[bc] == london and s.returning[bc] == -1
    # the Caucasus and Armenia are barred; a damaged one stays
    caucasus = t.n_ports + l_(t, "caucasus")
    s.squadron_base[bc] = caucasus
    assert not colonial.may_return(t, s, bc)
    s.squadron_base[bc] = egypt
    s.squadron_damage[bc] = Damage.LIGHT
    assert not colonial.may_return(t, s, bc)
    # sunk on the way: the attempt ends
    s.squadron_damage[bc] = Damage.NONE
    drive(colonial.returns(t, s, Dice(), 20), answers({Kind.RETURN: london}))
    s.moved[:] = 0
    dice = Dice(1, 1, 6, 6, 6)     # two hits on the British, its miss; heavy twice: sunk
    drive(colonial.returns(t, s, dice, 21), answers({Kind.INTERCEPT: 2}))
    assert not dice.forced
    assert s.squadron_damage[bc] == Damage.SUNK and s.returning[bc] == -1


def test_C_45_colonial_blockades_cost_britain_russia_the_usa_and_japan():
    t, s = col_world()
    britain, russia, us = index(t, "britain"), index(t, "russia"), index(t, "united_states")
    entry.join(t, s, us, ALLIED, 30)
    b = s.blockade
    b[index(t, "south_atlantic"), CENTRAL] = 1
    assert naval.blockade_supply_loss(t, s, britain) == 3
    b[index(t, "indian_ocean"), CENTRAL] = 1
    assert naval.blockade_supply_loss(t, s, britain) == 3    # either or both: three
    b[index(t, "east_pacific"), CENTRAL] = 1
    assert naval.blockade_supply_loss(t, s, britain) == 4
    assert naval.blockade_supply_loss(t, s, russia) == 4
    assert naval.blockade_supply_loss(t, s, us) == 3
    b[index(t, "west_pacific"), CENTRAL] = 1
    assert naval.blockade_supply_loss(t, s, us) == 6
    b[index(t, "north_atlantic"), CENTRAL] = 1               # + a fourth: 8 + 4 > 10
    assert naval.blockade_supply_loss(t, s, britain) == 10   # a third of 30 in all (N.66)
    japan = index(t, "japan")
    entry.join(t, s, japan, ALLIED, 30)
    assert naval.blockade_supply_loss(t, s, japan) == 12


def test_C_51_land_units_by_sea_to_from_and_between_colonies():
    t, s = col_world()
    britain, japan = index(t, "britain"), index(t, "japan")
    egypt, biafra, kamerun = l_(t, "egypt"), l_(t, "biafra"), l_(t, "kamerun")
    L = t.n_colonies
    options = shipping(t, s, britain)
    assert (TO_COLONY, biafra) in options                      # London over the Atlantic
    assert (TO_COLONY, egypt) not in options                   # no British home port there
    assert (FROM_COLONY, biafra) in options
    s.colony[kamerun] = ALLIED
    assert (COLONY_TO_COLONY, biafra * L + kamerun) in shipping(t, s, britain)
    code = naval.ship_code(t, COLONY_TO_COLONY, biafra * L + kamerun, 1)
    naval.ship(t, s, britain, code)
    assert s.col_units[kamerun, britain] == 1 and s.col_af[kamerun, britain] == 4
    # Japan sails from its home islands
    entry.join(t, s, japan, ALLIED, 3)
    korea = l_(t, "korea")
    assert (TO_COLONY, korea) in shipping(t, s, japan)
    naval.ship(t, s, japan, naval.ship_code(t, TO_COLONY, korea, 3))
    assert s.col_units[korea, japan] == 3 and s.col_units[l_(t, "japan"), japan] == 5


def test_C_52_the_russian_and_turkish_railways():
    t, s = col_world()
    russia, turkey = index(t, "russia"), index(t, "turkey")
    L = t.n_colonies
    caucasus, syria = l_(t, "caucasus"), l_(t, "syria")
    moves = {colonial.decode_move(t, o)[:2] for o in colonial.move_options(t, s, russia) if o}
    assert (L, caucasus) in moves
    s.col_units[caucasus, russia] = 2
    moves = {colonial.decode_move(t, o)[:2] for o in colonial.move_options(t, s, russia) if o}
    assert (caucasus, L) in moves
    entry.join(t, s, turkey, CENTRAL, 3)
    moves = {colonial.decode_move(t, o)[:2] for o in colonial.move_options(t, s, turkey) if o}
    assert (L, syria) in moves
    s.city[index(t, "constantinople")] = ALLIED                # Constantinople lost
    moves = {colonial.decode_move(t, o)[:2] for o in colonial.move_options(t, s, turkey) if o}
    assert (L, syria) not in moves


def test_C_53_to_an_adjacent_colony_of_the_same_player_or_a_free_area():
    t, s = col_world()
    russia, britain = index(t, "russia"), index(t, "britain")
    caucasus, persia, egypt = l_(t, "caucasus"), l_(t, "persia"), l_(t, "egypt")
    abyssinia, syria = l_(t, "abyssinia"), l_(t, "syria")
    s.col_units[caucasus, russia] = 2
    moves = {colonial.decode_move(t, o)[:2] for o in colonial.move_options(t, s, russia) if o}
    assert (caucasus, persia) in moves
    germany = index(t, "germany")
    s.col_units[persia, germany] = 1                           # enemy units there
    moves = {colonial.decode_move(t, o)[:2] for o in colonial.move_options(t, s, russia) if o}
    assert (caucasus, persia) not in moves
    # Egypt: neither Syria (not the same player's) nor Abyssinia (entered only by an
    # announced attack)
    moves = {colonial.decode_move(t, o)[:2] for o in colonial.move_options(t, s, britain) if o}
    assert (egypt, syria) not in moves and (egypt, abyssinia) not in moves
    # one step a phase: units ordered out are not ordered again
    s.col_units[persia, germany] = 0
    pending = [0] * (t.n_colonies + 2)
    pending[caucasus] = 2
    assert colonial.move_options(t, s, russia, pending) == [0] + [
        o for o in colonial.move_options(t, s, russia, pending)[1:]
        if colonial.decode_move(t, o)[0] != caucasus]
    assert not [o for o in colonial.move_options(t, s, russia, pending)[1:]
                if colonial.decode_move(t, o)[0] == caucasus]


def test_C_54_american_units_sail_from_norfolk_or_san_diego():
    t, s = col_world()
    us = index(t, "united_states")
    entry.join(t, s, us, ALLIED, 30)
    economy.reinforce(t, s, 30)
    assert s.army[us] >= t.corps
    hawaii = l_(t, "hawaii")
    places = naval.sail_places(t, s, us)
    assert set(places) == {t.p_key.index("norfolk"), t.p_key.index("san_diego")}
    assert (TO_COLONY, hawaii) in shipping(t, s, us)            # over the West Pacific
    assert (TO_HOST, index(t, "france")) in shipping(t, s, us)  # over the Atlantic


def test_C_61_quarterly_allied_roll_against_central_colonies():
    t, s = col_world()
    kamerun, tsingtao = l_(t, "kamerun"), l_(t, "tsingtao")
    assert colonial.allied_targets(t, s) == [kamerun, tsingtao]
    # Kamerun: the corps in Biafra (4 attack factors): +1; 5 + 1 > 5. Tsingtao: 4, not > 4
    colonial.colonial_combat(t, s, Dice(5, 4), FEB_1915)
    assert s.colony[kamerun] == ALLIED and s.colony[tsingtao] == CENTRAL
    assert s.colonies_taken[ALLIED] == 1
    colonial.colonial_combat(t, s, Dice(), FEB_1915 + 1)        # March: no roll
    # then the Central Powers' rolls, against Allied colonies next to theirs
    t, s = col_world()
    entry.join(t, s, index(t, "turkey"), CENTRAL, 3)
    egypt, syria, arabia, libya = l_(t, "egypt"), l_(t, "syria"), l_(t, "arabia"), l_(t, "libya")
    assert colonial.allied_targets(t, s) == [kamerun, syria, tsingtao, libya]
    biafra = l_(t, "biafra")
    assert colonial.central_targets(t, s) == [egypt, biafra, arabia]
    dice = Dice(1, 1, 1, 1,        # the Allied rolls
                6, 5, 6)           # Egypt: 6 > 5, taken; Biafra 5 and Arabia 6: held
    colonial.colonial_combat(t, s, dice, FEB_1915)
    assert not dice.forced
    assert s.colony[egypt] == CENTRAL and s.colony[arabia] == ALLIED
    assert s.colony[biafra] == ALLIED
    assert s.col_units[egypt, index(t, "britain")] == 0         # its corps lost


def test_C_62_no_roll_from_a_colony_taken_from_the_enemy():
    t, s = col_world()
    entry.join(t, s, index(t, "turkey"), CENTRAL, 3)
    egypt, abyssinia = l_(t, "egypt"), l_(t, "abyssinia")
    s.colony[egypt] = CENTRAL                                   # taken by the Central Powers
    s.colony[abyssinia] = ALLIED                                # announced by them: Allied
    assert abyssinia not in colonial.central_targets(t, s)      # only Egypt is next to it
    # from an occupied area (Manchuria) they do roll
    japan, germany = index(t, "japan"), index(t, "germany")
    entry.join(t, s, japan, ALLIED, 3)
    manchuria, korea = l_(t, "manchuria"), l_(t, "korea")
    s.colony[manchuria] = CENTRAL
    s.col_units[manchuria, germany] = 1
    assert korea in colonial.central_targets(t, s)


def test_C_63_an_amphibious_invasion_of_a_colony():
    t, s = col_world()
    britain, germany = index(t, "britain"), index(t, "germany")
    kamerun = l_(t, "kamerun")
    s.col_units[kamerun, germany], s.col_af[kamerun, germany] = 1, 4
    gq = squadron(t, s, "germany", DN)
    s.squadron_base[gq] = t.n_ports + kamerun                   # C.63: no bar (N.83)
    assert (naval_combat.COLONY, kamerun, naval_combat.HOME) in naval_combat.invasion_targets(t, s, britain)
    # three corps: 12 attack factors, +4; die 2 + 4 > 5
    naval_combat._land(t, s, Dice(2), britain, naval_combat.COLONY, kamerun, 3, 1)
    assert s.colony[kamerun] == ALLIED and s.col_units[kamerun, britain] == 3
    assert s.col_units[kamerun, germany] == 0
    # failed (one corps, +1: 4 + 1 is not above 5): the units are lost (N.94)
    t, s = col_world()
    army = int(s.army[britain])
    naval_combat._land(t, s, Dice(4), britain, naval_combat.COLONY, kamerun, 1, 1)
    assert s.colony[kamerun] == CENTRAL and s.army[britain] == army - t.corps


def test_C_64_the_holder_of_constantinople_may_always_invade_syria():
    t, s = col_world()
    turkey = index(t, "turkey")
    entry.join(t, s, turkey, CENTRAL, 3)
    syria = l_(t, "syria")
    s.colony[syria] = ALLIED
    for side in (ALLIED, CENTRAL):
        s.blockade[index(t, "east_mediterranean"), side] = 1
        s.blockade[index(t, "black_sea"), side] = 1
    assert (naval_combat.COLONY, syria, naval_combat.HOME) in naval_combat.invasion_targets(t, s, turkey)
    s.city[index(t, "constantinople")] = ALLIED
    assert (naval_combat.COLONY, syria, naval_combat.HOME) not in naval_combat.invasion_targets(t, s, turkey)
    # Russia the Caucasus
    russia = index(t, "russia")
    s.colony[l_(t, "caucasus")] = CENTRAL
    assert (naval_combat.COLONY, l_(t, "caucasus"), naval_combat.HOME) in naval_combat.invasion_targets(t, s, russia)


def test_C_65_china_and_persia_occupied_by_moving_abyssinia_by_announcement():
    t, s = col_world()
    russia, germany, britain = index(t, "russia"), index(t, "germany"), index(t, "britain")
    caucasus, persia, egypt = l_(t, "caucasus"), l_(t, "persia"), l_(t, "egypt")
    abyssinia = l_(t, "abyssinia")
    s.col_units[caucasus, russia] = 2
    code = next(o for o in colonial.move_options(t, s, russia) if o
                and colonial.decode_move(t, o)[:2] == (caucasus, persia))
    colonial.apply_move(t, s, russia, code)
    assert s.colony[persia] == ALLIED                           # occupied, no roll
    assert persia not in colonial.central_targets(t, s)         # no enemy... it is theirs
    # never rolled for unless enemy units occupy it
    s.colony[persia] = CENTRAL
    s.col_units[persia, russia] = 0
    assert persia not in colonial.allied_targets(t, s)
    s.col_units[persia, germany] = 1
    assert persia in colonial.allied_targets(t, s)
    # entering together: the Central Powers' occupation takes precedence
    turkey = index(t, "turkey")
    # (no Turkish colony touches Persia in the tiny world: Syria is made to)
    data = raw()
    data["areas"]["persia"]["neighbors"] = ["caucasus", "syria"]
    t, s = col_world(data=data)
    entry.join(t, s, turkey, CENTRAL, 3)
    s.col_units[caucasus, russia] = 1
    syria = l_(t, "syria")
    s.col_units[syria, turkey], s.col_af[syria, turkey] = 1, 4
    r_move = next(o for o in colonial.move_options(t, s, russia) if o
                  and colonial.decode_move(t, o)[:2] == (caucasus, persia))
    t_move = next(o for o in colonial.move_options(t, s, turkey) if o
                  and colonial.decode_move(t, o)[:2] == (syria, persia))
    drive(colonial.colonial_phase(t, s, Dice(), 1),
          answers({(Kind.COLONIAL, russia): [r_move, 0], (Kind.COLONIAL, turkey): [t_move, 0]}))
    assert s.colony[persia] == CENTRAL and s.col_units[persia, turkey] == 1
    assert s.col_units[persia, russia] == 0 and s.col_units[caucasus, russia] == 1
    # Abyssinia: activated as an enemy colony when a player announces an attack
    t, s = col_world()
    assert s.colony[abyssinia] == NEUTRAL
    asks = drive(colonial.colonial_phase(t, s, Dice(), 1), answers({Kind.ABYSSINIA: 1}))[:-1]
    assert [a.side for a in asks if a.kind == Kind.ABYSSINIA] == [ALLIED]   # from Egypt
    assert s.colony[abyssinia] == CENTRAL
    assert abyssinia in colonial.allied_targets(t, s)           # then rolled for
    assert s.col_units[egypt, britain] == 1


def test_C_66_turkish_entry_makes_libya_turkish_and_arabia_its_enemys():
    t, s = col_world()
    libya, arabia = l_(t, "libya"), l_(t, "arabia")
    assert s.colony[libya] == s.colony[arabia] == NEUTRAL
    entry.join(t, s, index(t, "turkey"), CENTRAL, 3)
    assert s.colony[libya] == CENTRAL and s.colony[arabia] == ALLIED
    t, s = col_world()
    entry.join(t, s, index(t, "turkey"), ALLIED, 3)
    assert s.colony[libya] == ALLIED and s.colony[arabia] == CENTRAL


def test_C_67_conquered_colonies_need_no_garrison():
    t, s = col_world()
    britain = index(t, "britain")
    kamerun, biafra = l_(t, "kamerun"), l_(t, "biafra")
    colonial.conquer_colony(t, s, kamerun, ALLIED)
    s.col_units[kamerun, britain] = 1
    s.col_af[kamerun, britain] = 4
    code = next(o for o in colonial.move_options(t, s, britain) if o
                and colonial.decode_move(t, o)[:2] == (kamerun, biafra))
    colonial.apply_move(t, s, britain, code)
    assert s.col_units[kamerun, britain] == 0 and s.colony[kamerun] == ALLIED
    colonial.colonial_combat(t, s, Dice(1), FEB_1915)           # Tsingtao only
    assert s.colony[kamerun] == ALLIED


def test_C_68_three_attack_factors_a_point_from_one_adjacent_colony_or_the_landing():
    t, s = col_world()
    britain, france = index(t, "britain"), index(t, "france")
    kamerun, biafra = l_(t, "kamerun"), l_(t, "biafra")
    assert colonial.attack_modifier(t, s, kamerun, ALLIED) == (1, biafra)
    s.col_af[biafra, france] = 5                                # 4 + 5 = 9: +3
    s.col_units[biafra, france] = 2
    assert colonial.attack_modifier(t, s, kamerun, ALLIED) == (3, biafra)
    # support units do not count: Japan's artillery in its home islands
    assert s.col_af[l_(t, "japan"), index(t, "japan")] == 6 * 4
    # only one adjacent colony counts: the best
    data = raw()
    data["colonies"]["kamerun"]["neighbors"] = ["biafra", "egypt"]
    t, s = col_world(data=data)
    egypt = l_(t, "egypt")
    s.col_af[egypt, britain] = 8
    assert colonial.attack_modifier(t, s, kamerun, ALLIED) == (2, egypt)
    # a landing: its own attack factors, and +1 for a supporting squadron
    t, s = col_world()
    q = squadron(t, s, "britain", BB)
    naval.apply_order(s, q, naval.SUPPORT + index(t, "south_atlantic"))
    naval_combat._land(t, s, Dice(2), britain, naval_combat.COLONY, kamerun, 1, 1)
    assert s.colony[kamerun] == CENTRAL                          # 2 + 1 + 1 = 4, not > 5
    naval_combat._land(t, s, Dice(3), britain, naval_combat.COLONY, kamerun, 1, 1)
    assert s.colony[kamerun] == CENTRAL                          # the squadron is used up
    naval.apply_order(s, q, naval.SUPPORT + index(t, "south_atlantic"))
    s.supported[q] = 0
    naval_combat._land(t, s, Dice(4), britain, naval_combat.COLONY, kamerun, 1, 1)
    assert s.colony[kamerun] == ALLIED                           # 4 + 1 + 1 = 6 > 5


def test_C_63_and_N_81_landings_sail_from_home_a_colony_or_a_host_country():
    t, s = col_world()
    britain, turkey, italy = index(t, "britain"), index(t, "turkey"), index(t, "italy")
    entry.join(t, s, turkey, CENTRAL, 3)
    egypt = l_(t, "egypt")
    gallipoli = (naval_combat.BEACH, 0)
    froms = {src for kind, i, src in naval_combat.invasion_targets(t, s, britain)
             if (kind, i) == gallipoli}
    assert froms == {egypt}                         # not from home: no British home port
    # the corps in Italy may too, from Venice
    entry.join(t, s, italy, ALLIED, 9)
    s.abroad[britain, italy] = 2 * t.corps
    froms = {src for kind, i, src in naval_combat.invasion_targets(t, s, britain)
             if (kind, i) == gallipoli}
    assert froms == {egypt, t.n_colonies + italy}
    targets = naval_combat.invasion_targets(t, s, britain)
    i = targets.index((*gallipoli, t.n_colonies + italy))
    options = naval_combat.landing_options(t, s, britain, targets, {}, set())
    assert max((o - 1) % 8 + 1 for o in options if o and (o - 1) // 8 == i) == 2
    # landing from Egypt: its one corps, against Constantinople's coast (Turkey's army 60:
    # 6): 4 against 6, 1-1 shifted -1; die 6 - 1: DD; held, the corps lost
    naval_combat._land(t, s, Dice(6), britain, naval_combat.BEACH, 0, 1, 1, egypt)
    assert s.col_units[egypt, britain] == 0 and s.city[index(t, "constantinople")] == CENTRAL
