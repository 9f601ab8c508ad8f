"""Naval Operations: supply by sea, sea movement, amphibious invasions and marines, N.71-N.96
(seed 003), on the tiny world."""

from tiny import Dice, answers, drive, index, raw, squadron, world

from gwe_fast.games.goa import economy, engine, entry, land, naval, naval_combat
from gwe_fast.games.goa.codes import Kind, Month, Ship, Side
from gwe_fast.games.goa.naval import FROM_HOST, SORTIE, SUPPORT, TO_COLONY, TO_HOST

ALLIED, CENTRAL = Side.ALLIED, Side.CENTRAL
DN, BC, BB = Ship.DREADNOUGHT, Ship.BATTLECRUISER, Ship.BATTLESHIP
OPTS = {"naval": True, "colonies": False, "variable_entry": False}


def naval_world(options=None, data=None):
    t, s = world({**OPTS, **(options or {})}, data)
    entry.join(t, s, index(t, "britain"), ALLIED, 0)
    return t, s


def port(t, key):
    return t.p_key.index(key)


def sends_to(t, s, c, d):
    return [o for o in economy.supply_options(t, s, c) if o and (o - 1) // 3 == d]


def shipping(t, s, c):
    """``{(block, index): most units}`` of ``c``'s shipping options."""
    out = {}
    for o in naval.ship_options(t, s, c):
        if o:
            block, i, n = naval.ship_decode(t, o)
            out[(block, i)] = max(n, out.get((block, i), 0))
    return out


def test_N_71_supply_is_sent_after_the_blockades_of_the_month():
    t, s = naval_world()
    britain, russia = index(t, "britain"), index(t, "russia")
    baltic = index(t, "baltic_sea")
    s.supply[britain] = 10
    assert sends_to(t, s, britain, russia)               # Scapa Flow and Riga: the Baltic
    g = squadron(t, s, "germany", BC)                    # +3 in the Baltic
    asked = []

    def choose(ask):
        if ask.kind == Kind.SEND_SUPPLY:
            asked.append((ask.subject, ask.options))
        return SORTIE + baltic if (ask.kind, ask.subject) == (Kind.SQUADRON, g) else None

    drive(engine.naval_phase(t, s, Dice(4), 1), choose)  # 4 + 3: the Baltic blockaded
    assert s.blockade[baltic, CENTRAL]
    assert not any(c == britain and any(o and (o - 1) // 3 == russia for o in options)
                   for c, options in asked)
    assert s.supply[russia] == 0                          # nor N.67's four


def test_N_72_from_a_port_supplied_overland_or_off_the_map_over_an_open_area():
    t, s = naval_world()
    britain, france, russia = index(t, "britain"), index(t, "france"), index(t, "russia")
    for c in (britain, france):
        s.supply[c] = 10
    assert sends_to(t, s, britain, russia)               # from Scapa Flow, off the map
    assert not sends_to(t, s, france, russia)            # Calais and Riga share no area
    assert sends_to(t, s, france, britain)
    s.city[index(t, "calais")] = CENTRAL                 # France's only port taken
    assert not sends_to(t, s, france, britain)
    s.city[index(t, "calais")] = ALLIED
    s.blockade[index(t, "north_sea"), CENTRAL] = 1
    assert sends_to(t, s, france, britain)               # the Atlantic is open
    s.blockade[index(t, "north_atlantic"), CENTRAL] = 1
    assert not sends_to(t, s, france, britain)


def test_N_73_points_sent_by_sea_serve_the_receiver_that_month():
    t, s = naval_world({"land": "fronts"})
    britain, russia = index(t, "britain"), index(t, "russia")
    s.supply[britain], s.supply[russia] = 10, 0
    code = sends_to(t, s, britain, russia)[-1]           # eight points
    economy.send_supply(t, s, britain, code)
    assert s.supply[russia] == 8 and s.received[russia] == 1
    # this month's land war may spend them (an attack committing six)
    assert any(o and (o - 1) % 4 == 2 for o in land.land_options(t, s, russia, 1))
    s.supply[russia] = 0
    assert not any(o and (o - 1) % 4 >= 2 for o in land.land_options(t, s, russia, 1))


def test_N_74_ports_off_the_map_always_send():
    t, s = naval_world()
    us, britain = index(t, "united_states"), index(t, "britain")
    entry.join(t, s, us, ALLIED, 30)
    s.supply[us] = 10
    assert all(t.p_off_map[p] for p in range(t.n_ports) if t.p_country[p] == us
               and t.p_in_play[p])
    assert sends_to(t, s, us, britain)                   # Norfolk: off the map, always in supply


def test_N_75_a_landing_holds_its_port_with_the_units_that_landed():
    # stand-in: a port taken from the sea is held by the (at most three) units landed, within
    # N.75's sea-supply limits (6 on a beach, 12 in a city, 24 in an objective city)
    t, s = naval_world()
    britain = index(t, "britain")
    entry.join(t, s, index(t, "netherlands"), CENTRAL, 0)
    amsterdam = port(t, "amsterdam")
    naval_combat._land(t, s, Dice(6), britain, naval_combat.PORT, amsterdam, 3, 1)
    k = index(t, "amsterdam")
    assert s.city[k] == ALLIED and s.garrison[k] == 3 <= 12


def test_N_76_detached_supply_limits_six_units_twelve_for_britain_and_the_usa():
    t, s = naval_world()
    britain, france, italy = index(t, "britain"), index(t, "france"), index(t, "italy")
    entry.join(t, s, italy, ALLIED, 9)
    assert naval.detached(t, britain, italy) and not naval.detached(t, britain, france)
    s.army[britain] = 100 * t.corps
    s.abroad[britain, italy] = 11 * t.corps
    # Italy is reached by no British home port in the tiny world; Belgium is
    entry.join(t, s, index(t, "belgium"), ALLIED, 0)
    belgium = index(t, "belgium")
    assert shipping(t, s, britain)[(TO_HOST, belgium)] == 1      # 11 detached already
    assert shipping(t, s, britain)[(TO_HOST, france)] == 6       # France is home: N.85 only
    assert naval.detached_limit(t, france) == 6
    # units in colonies count (C.41), but not Japan's in its home islands
    t, s = world({**OPTS, "colonies": True})
    japan = index(t, "japan")
    entry.join(t, s, japan, ALLIED, 3)
    assert naval.detached_units(t, s, japan) == 0
    assert naval.home_units(t, s, japan) == 8
    russia = index(t, "russia")
    s.col_units[index(t, "caucasus"), russia] = 6
    from gwe_fast.games.goa import colonial

    assert colonial.move_options(t, s, russia) == [0] + [
        o for o in colonial.move_options(t, s, russia)[1:]
        if colonial.decode_move(t, o)[0] != t.n_colonies]       # no more sent out by rail


def test_N_77_fleets_are_always_in_supply():
    t, s = naval_world()
    q = squadron(t, s, "russia", BB)                      # Riga
    s.blockade[index(t, "baltic_sea"), CENTRAL] = 1
    s.blockade_prev[index(t, "baltic_sea"), CENTRAL] = 1
    s.supply[index(t, "russia")] = 0
    assert SORTIE + index(t, "baltic_sea") in naval.squadron_options(t, s, q)


def test_N_78_japan_sends_no_supply_points():
    data = raw()
    data["ports"]["yokohama"] = {"country": "japan", "sea_areas": ["north_atlantic"],
                                 "off_map": True}        # an artifice: a shared sea area
    t, s = naval_world({"colonies": True}, data)
    japan, britain = index(t, "japan"), index(t, "britain")
    entry.join(t, s, japan, ALLIED, 3)
    s.supply[japan] = s.supply[britain] = 20
    assert economy.sea_route(t, s, japan, britain)
    assert economy.supply_options(t, s, japan) == [0]
    assert sends_to(t, s, britain, japan)                # it may receive


def test_N_79_both_ports_their_own_on_a_sea_not_blockaded():
    t, s = naval_world()
    britain, russia = index(t, "britain"), index(t, "russia")
    s.supply[britain] = 10
    assert economy.sea_route(t, s, britain, russia)
    s.blockade[index(t, "baltic_sea"), CENTRAL] = 1
    assert not economy.sea_route(t, s, britain, russia)
    s.blockade[:] = 0
    s.city[index(t, "riga")] = CENTRAL                   # Riga lost: Odessa is on the Black Sea
    assert not economy.sea_route(t, s, britain, russia)
    assert [o for o in economy.supply_options(t, s, britain) if o and (o - 1) // 3 == russia] == []


def test_N_81_land_units_sail_after_the_blockades_of_the_month():
    t, s = naval_world()
    britain, france = index(t, "britain"), index(t, "france")
    g = [squadron(t, s, "germany", BC), squadron(t, s, "germany", DN)]
    s.squadron_base[g[1]] = port(t, "calais")            # an artifice to reach the Atlantic
    s.city[index(t, "calais")] = CENTRAL
    orders = answers({(Kind.SQUADRON, g[0]): SORTIE + index(t, "north_sea"),
                      (Kind.SQUADRON, g[1]): SORTIE + index(t, "north_atlantic")})
    seen = []

    def choose(ask):
        if ask.kind == Kind.SHIP and ask.subject == britain:
            seen.append(ask.options)
        return orders(ask)

    drive(engine.naval_phase(t, s, Dice(6, 6, 1), 1), choose)   # + N.34 for the French BB
    assert not [o for options in seen for o in options
                if o and naval.ship_decode(t, o)[:2] == (TO_HOST, france)]


def test_N_82_the_destination_shares_an_open_sea_area_with_the_embarkation():
    t, s = naval_world()
    britain, france, italy = index(t, "britain"), index(t, "france"), index(t, "italy")
    entry.join(t, s, italy, ALLIED, 9)
    s.army[britain] = 40 * t.corps
    assert (TO_HOST, france) in shipping(t, s, britain)
    assert (TO_HOST, italy) not in shipping(t, s, britain)   # Venice: no British sea there
    s.blockade[index(t, "north_sea"), CENTRAL] = 1
    assert (TO_HOST, france) in shipping(t, s, britain)
    s.blockade[index(t, "north_atlantic"), CENTRAL] = 1
    assert (TO_HOST, france) not in shipping(t, s, britain)
    # coming home from France needs the open sea too
    s.abroad[britain, france] = 8
    assert (FROM_HOST, france) not in shipping(t, s, britain)
    s.blockade[:] = 0
    assert shipping(t, s, britain)[(FROM_HOST, france)] == 2
    army = int(s.army[britain])
    s.abroad[britain, france] = 2 * t.corps + 3          # after losses: odd points
    naval.ship(t, s, britain, naval.ship_code(t, FROM_HOST, france, 2))
    assert s.abroad[britain, france] == 0 and s.army[britain] == army + 2 * t.corps + 3


def test_N_83_not_to_a_port_holding_enemy_squadrons():
    t, s = naval_world()
    britain = index(t, "britain")
    hamburg = port(t, "hamburg")
    targets = [x[:2] for x in naval_combat.invasion_targets(t, s, britain)]
    assert (naval_combat.PORT, hamburg) not in targets   # the High Seas Fleet is there
    assert (naval_combat.PORT, port(t, "konigsberg")) not in targets
    for q in range(t.n_squadrons):
        if s.squadron_base[q] in (hamburg, port(t, "konigsberg")):
            s.squadron_base[q] = port(t, "trieste")
    targets = [x[:2] for x in naval_combat.invasion_targets(t, s, britain)]
    assert (naval_combat.PORT, hamburg) in targets
    # nor to a friendly colony where an enemy squadron lies (with the colonies)
    t, s = naval_world({"colonies": True})
    biafra = index(t, "biafra")
    assert (TO_COLONY, biafra) in shipping(t, s, britain)
    g = squadron(t, s, "germany", DN)
    s.squadron_base[g] = t.n_ports + biafra
    assert (TO_COLONY, biafra) not in shipping(t, s, britain)


def test_N_84_units_may_embark_at_a_port_off_the_map_joined_overland():
    t, s = naval_world()
    britain, belgium = index(t, "britain"), index(t, "belgium")
    entry.join(t, s, belgium, ALLIED, 0)
    s.blockade[index(t, "north_sea"), CENTRAL] = s.blockade[index(t, "north_atlantic"), CENTRAL] = 1
    assert (TO_HOST, belgium) in shipping(t, s, britain)  # from Scapa Flow, over the Baltic
    data = raw()
    data["ports"]["scapa_flow"]["units_may_embark"] = False
    t, s = naval_world(data=data)
    entry.join(t, s, belgium, ALLIED, 0)
    s.blockade[index(t, "north_sea"), CENTRAL] = s.blockade[index(t, "north_atlantic"), CENTRAL] = 1
    assert (TO_HOST, belgium) not in shipping(t, s, britain)
    # the units are corps of the stand-in (attack above three): less than a corps stays
    s.blockade[:] = 0
    s.army[britain] = t.corps - 1
    assert shipping(t, s, britain) == {}


def test_N_85_six_units_a_phase_for_britain_and_the_usa_three_for_the_others():
    t, s = naval_world()
    britain, france, belgium = index(t, "britain"), index(t, "france"), index(t, "belgium")
    entry.join(t, s, belgium, ALLIED, 0)
    s.army[britain] = s.army[france] = 50 * t.corps
    assert shipping(t, s, britain)[(TO_HOST, france)] == 6
    assert naval.ship_capacity(t, france) == 3
    # several moves in a phase, until the capacity is used; landings share it
    choices = [naval.ship_code(t, TO_HOST, france, 4), naval.ship_code(t, TO_HOST, belgium, 1)]
    asks = drive(engine.naval_phase(t, s, Dice(), 1),
                 answers({(Kind.SHIP, britain): choices + [0]}))[:-1]
    assert s.abroad[britain, france] == 4 * t.corps and s.abroad[britain, belgium] == t.corps
    assert s.shipped[britain] == 5
    landing = [a for a in asks if a.kind == Kind.LANDING and a.subject == britain]
    assert not landing or max(((o - 1) % 8) + 1 for o in landing[0].options if o) <= 1


def landing_world():
    t, s = naval_world()
    britain = index(t, "britain")
    entry.join(t, s, index(t, "netherlands"), CENTRAL, 0)
    return t, s, britain, port(t, "amsterdam"), index(t, "amsterdam")


def test_N_91_landing_in_an_enemy_port_is_a_combat():
    t, s, britain, p, k = landing_world()
    netherlands = index(t, "netherlands")
    army = int(s.army[britain])
    defence = -(-int(s.army[netherlands]) * 10 // 100)   # the coast's share (stand-in)
    assert defence == 3
    # three corps (12) against 3: 4-1 (column 4); die 3 - 1 (city) = 2: BD, held
    naval_combat._land(t, s, Dice(3), britain, naval_combat.PORT, p, 3, 1)
    assert s.city[k] == CENTRAL and s.army[britain] == army - 3 * t.corps
    assert s.strength_lost[britain] == 3 * t.corps       # N.94: the landing is lost
    # die 6 - 1 = 5: DE, taken
    naval_combat._land(t, s, Dice(6), britain, naval_combat.PORT, p, 3, 1)
    assert s.city[k] == ALLIED and s.garrison[k] == 3


def test_N_92_landings_are_resolved_in_the_naval_phase():
    t, s, britain, p, k = landing_world()
    targets = naval_combat.invasion_targets(t, s, britain)
    i = targets.index((naval_combat.PORT, p, naval_combat.HOME))
    drive(engine.naval_phase(t, s, Dice(6), 1), answers({(Kind.LANDING, britain): [1 + 8 * i + 2, 0]}))
    assert s.city[k] == ALLIED                            # before the month's land war


def test_N_93_three_units_a_landing_six_against_japan():
    t, s, britain, p, k = landing_world()
    s.army[britain] = 50 * t.corps
    targets = naval_combat.invasion_targets(t, s, britain)
    options = naval_combat.landing_options(t, s, britain, targets, {}, set())
    i = targets.index((naval_combat.PORT, p, naval_combat.HOME))
    assert max((o - 1) % 8 + 1 for o in options if o and (o - 1) // 8 == i) == 3
    t, s = world({**OPTS, "colonies": True})
    assert naval_combat.invasion_cap(t, naval_combat.COLONY, t.l_key.index("japan")) == 6
    assert naval_combat.invasion_cap(t, naval_combat.COLONY, index(t, "tsingtao")) == 3


def test_N_94_landings_get_only_a_supporting_squadrons_plus_one():
    t, s, britain, p, k = landing_world()
    jan = Month.of("1915-01")
    # a port city: the defender's -1 (city; a fort -2), entrenchment from 1915 -1
    assert naval_combat.landing_modifier(t, s, naval_combat.PORT, k, False, 1) == -1
    assert naval_combat.landing_modifier(t, s, naval_combat.PORT, k, True, jan) == -1
    antwerp = index(t, "antwerp")
    assert naval_combat.landing_modifier(t, s, naval_combat.PORT, antwerp, False, jan) == -3
    # a beach is not a city
    assert naval_combat.landing_modifier(t, s, naval_combat.BEACH, k, True, 1) == 1
    # no help from a demoralized defender
    s.demoralized[index(t, "netherlands")] = 5
    assert naval_combat.landing_modifier(t, s, naval_combat.PORT, k, False, 1) == -1
    # the supporting squadron: sortied to support, not in combat, once
    q = squadron(t, s, "britain", BB)
    naval.apply_order(s, q, SUPPORT + index(t, "north_sea"))
    areas = naval.place_areas(t, p)
    assert naval_combat._support(t, s, ALLIED, areas)
    assert not naval_combat._support(t, s, ALLIED, areas)
    r = squadron(t, s, "britain", BB, 1)
    naval.apply_order(s, r, SORTIE + index(t, "north_sea"))   # a fighting sortie does not
    assert not naval_combat._support(t, s, ALLIED, areas)
    # supported, die 2 + 1 - 1 = 2 on 4-1: BD, and the landing is eliminated
    naval.apply_order(s, r, SUPPORT + index(t, "north_sea"))
    army = int(s.army[britain])
    naval_combat._land(t, s, Dice(2), britain, naval_combat.PORT, p, 3, 1)
    assert s.city[k] == CENTRAL and s.army[britain] == army - 3 * t.corps


def test_N_95_only_combat_units_land():
    # the stand-in's land units are corps (combat units): a landing takes whole corps from
    # the army and attacks with their strength; the marines with eight each (N.96)
    t, s, britain, p, k = landing_world()
    s.army[britain] = 2 * t.corps + 3                    # two corps and some odd points
    assert naval_combat.available_units(t, s, britain) == 2
    targets = naval_combat.invasion_targets(t, s, britain)
    options = naval_combat.landing_options(t, s, britain, targets, {}, set())
    assert max((o - 1) % 8 + 1 for o in options if o) == 2


def test_N_96_american_marines():
    t, s = naval_world()
    us = index(t, "united_states")
    entry.join(t, s, us, ALLIED, 20)
    ready = economy.us_ready_month(t, s)
    s.army[us] = 20 * t.corps
    s.supply[us] = 30
    assert drive(engine.marines(t, s, ready - 1)) == [None]     # not before every arrival
    ready_by_month = []
    for m in range(ready, ready + 5):
        if m == ready:
            asks = drive(engine.marines(t, s, m), answers({Kind.MARINES: 2}))
            assert asks[0].options == (0, 1, 2, 3)
            assert s.army[us] == 20 * t.corps - 2 * (t.corps + 5)   # the unit, 5 personnel
            assert s.supply[us] == 30 - 10
        if m == ready + 1:
            asks = drive(engine.marines(t, s, m), answers({Kind.MARINES: 1}))
            assert asks[0].options == (0, 1)                        # three at most
        naval.marines_arrive(s, m)                                  # the Naval Phase
        ready_by_month.append(int(s.marines[1]))
    assert ready_by_month == [0, 0, 0, 2, 3]                        # three months later
    # they land with an attack of eight each
    entry.join(t, s, index(t, "netherlands"), CENTRAL, 20)
    s.army[us] = 0
    s.abroad[:] = 0
    p = port(t, "amsterdam")
    assert naval_combat.available_units(t, s, us) == 3
    # 24 against 3 (8-1: the 6-1 column and +1), city and entrenchment -2: die 4 -> 3: DE
    naval_combat._land(t, s, Dice(4), us, naval_combat.PORT, p, 3, ready + 4)
    assert s.city[index(t, "amsterdam")] == ALLIED and s.marines[1] == 0
