"""Naval Operations: ports and sea areas, the Naval Phase, squadron movement, repair and
blockades, N.11-N.35, N.5, N.61-N.69 (seed 003), on the tiny world."""

from tiny import Dice, answers, drive, index, squadron, world

from gwe_fast.games.goa import engine, entry, naval
from gwe_fast.games.goa.codes import Damage, Kind, Month, Ship, Side
from gwe_fast.games.goa.naval import SCREEN, SORTIE, SUPPORT
from gwe_fast.games.goa.naval_combat import invasion_targets
from gwe_fast.games.goa.world import port_control, port_usable

ALLIED, CENTRAL, NEUTRAL = Side.ALLIED, Side.CENTRAL, Side.NEUTRAL
DN, BC, BB = Ship.DREADNOUGHT, Ship.BATTLECRUISER, Ship.BATTLESHIP
OPTS = {"naval": True, "colonies": False, "variable_entry": False}
JAN_1915 = Month.of("1915-01")


def naval_world(options=None):
    t, s = world({**OPTS, **(options or {})})
    entry.join(t, s, index(t, "britain"), ALLIED, 0)
    return t, s


def port(t, key):
    return t.p_key.index(key)


def test_N_11_seven_sea_areas_and_five_more_with_the_colonies():
    t, s = naval_world()
    assert [t.a_key[a] for a in range(t.n_areas) if t.a_in_play[a]] == [
        "baltic_sea", "north_sea", "north_atlantic", "west_mediterranean", "adriatic_sea",
        "east_mediterranean", "black_sea"]
    sydney = port(t, "sydney")
    assert naval.place_areas(t, sydney) == []
    t, s = world({**OPTS, "colonies": True})
    assert sum(t.a_in_play) == 12
    assert [t.a_key[a] for a in naval.place_areas(t, port(t, "sydney"))] == [
        "indian_ocean", "south_pacific"]


def test_N_12_the_ports_their_countries_and_areas_the_colonial_ones_only_with_colonies():
    t, s = naval_world()
    assert t.p_country[port(t, "gibraltar")] == index(t, "britain")
    assert [t.a_key[a] for a in naval.place_areas(t, port(t, "gibraltar"))] == [
        "north_atlantic", "west_mediterranean"]
    assert not t.p_in_play[port(t, "sydney")] and not t.p_in_play[port(t, "san_diego")]
    assert not port_usable(t, s, port(t, "sydney"), ALLIED)
    t, s = world({**OPTS, "colonies": True})
    entry.join(t, s, index(t, "britain"), ALLIED, 0)
    assert port_usable(t, s, port(t, "sydney"), ALLIED)


def test_N_13_beaches_are_landing_places_not_bases():
    t, s = naval_world()
    turkey = index(t, "turkey")
    entry.join(t, s, turkey, CENTRAL, 3)
    # a British squadron may never be based on a beach: the places are ports and colonies
    q = squadron(t, s, "britain", DN)
    assert all(o < 1 + t.n_places for o in naval.squadron_options(t, s, q) if o < SORTIE)
    assert len(t.b_key) == 1 and t.b_key[0] == "gallipoli"
    # but land units may land there (N.91); the Central Powers may not occupy Gallipoli
    s.city[index(t, "constantinople")] = CENTRAL
    entry.join(t, s, index(t, "italy"), ALLIED, 3)       # Venice reaches the East Med.
    assert (0, 0, -1) in invasion_targets(t, s, index(t, "italy"))
    s.city[index(t, "constantinople")] = ALLIED
    entry.join(t, s, index(t, "bulgaria"), CENTRAL, 3)
    assert (0, 0, -1) not in invasion_targets(t, s, index(t, "bulgaria"))


def test_N_14_a_port_is_controlled_as_its_city_is():
    t, s = naval_world()
    calais = port(t, "calais")
    assert port_control(t, s, calais) == ALLIED
    s.city[index(t, "calais")] = CENTRAL
    assert port_control(t, s, calais) == CENTRAL
    q = squadron(t, s, "britain", BB)                    # in London, sharing the North Sea
    assert 1 + calais not in naval.squadron_options(t, s, q)
    g = squadron(t, s, "germany", DN)                    # in Hamburg
    assert 1 + calais in naval.squadron_options(t, s, g)


def test_N_15_ports_off_the_map_belong_to_their_home_country_and_are_never_invaded():
    t, s = naval_world()
    scapa = port(t, "scapa_flow")
    assert port_control(t, s, scapa) == ALLIED
    for c in range(t.n_countries):
        s.side[c] = CENTRAL if s.side[c] == ALLIED and c != index(t, "britain") else s.side[c]
    assert port_control(t, s, scapa) == ALLIED           # whoever holds the map
    germany = index(t, "germany")
    assert all(kind != 1 or not t.p_off_map[i] for kind, i, _ in invasion_targets(t, s, germany))


def test_N_21_squadron_orders_in_secret_then_carried_out_together():
    t, s = naval_world()
    bq = squadron(t, s, "britain", DN)
    north_sea = index(t, "north_sea")
    seen = {}

    def choose(ask):
        if ask.kind == Kind.SQUADRON:
            assert ask.secret
            if ask.side == CENTRAL and "central" not in seen:
                seen["central"] = int(s.squadron_sortie[bq])
            if ask.subject == bq:
                return SORTIE + north_sea
        if ask.kind in (Kind.SHIP, Kind.SEND_SUPPLY, Kind.LANDING):
            assert ask.secret
        return None

    drive(engine.naval_phase(t, s, Dice(*[1] * 10), 1), choose)
    assert seen["central"] == -1                         # not yet carried out when asked
    assert s.squadron_sortie[bq] == north_sea


def test_N_22_combat_repair_blockade_then_sea_movement_and_landings():
    t, s = naval_world()
    britain = index(t, "britain")
    north_sea, atlantic = index(t, "north_sea"), index(t, "north_atlantic")
    gq = squadron(t, s, "germany", BC)                   # in Hamburg: Baltic, North Sea
    bq = squadron(t, s, "britain", BB)                   # in London
    s.squadron_damage[bq] = Damage.LIGHT                 # damaged, in port: repaired
    # Germany blockades the North Sea and the Atlantic this month (a battlecruiser, +3, in
    # the North Sea; submarines cannot reach before 1915: the Atlantic by a second squadron)
    g2 = squadron(t, s, "germany", DN)
    s.squadron_base[g2] = port(t, "antwerp")
    entry.join(t, s, index(t, "belgium"), CENTRAL, 0)    # an artifice: a German Antwerp
    orders = answers({(Kind.SQUADRON, gq): SORTIE + north_sea,
                      (Kind.SQUADRON, g2): SORTIE + atlantic})
    asked = []

    def choose(ask):
        if ask.kind == Kind.SHIP and ask.subject == britain:
            asked.append(list(ask.options))
        return orders(ask)

    dice = Dice(6, 6)                                    # two Central blockade rolls: 9, 8
    drive(engine.naval_phase(t, s, dice, 1), choose)
    assert not dice.forced
    assert s.blockade[north_sea, CENTRAL] and s.blockade[atlantic, CENTRAL]
    assert s.squadron_damage[bq] == Damage.NONE          # repaired before
    # the sea movement came after: Britain could not ship to France this month (it was
    # not even asked: nothing but "none" was left)
    france = index(t, "france")
    assert not naval.host_reachable(t, s, britain, france)
    assert all(naval.ship_decode(t, o)[:2] != (naval.TO_HOST, france)
               for options in asked for o in options if o)


def test_N_31_squadrons_move_only_once_their_country_is_at_war():
    t, s = naval_world()
    italy = index(t, "italy")
    iq = squadron(t, s, "italy", DN)
    assert iq not in naval.active_squadrons(t, s, ALLIED)
    entry.join(t, s, italy, ALLIED, 9)
    assert iq in naval.active_squadrons(t, s, ALLIED)
    assert t.p_country[s.squadron_base[iq]] == italy      # started in a home port


def test_N_32_each_squadron_stays_moves_or_sorties():
    t, s = naval_world()
    q = squadron(t, s, "britain", DN)                    # Scapa Flow
    options = naval.squadron_options(t, s, q)
    assert options[0] == 0
    moves = [o - 1 for o in options if 0 < o < SORTIE]
    sorties = sorted(o - SORTIE for o in options if SORTIE <= o < SCREEN)
    assert {t.p_key[p] for p in moves} == {"london", "calais", "gibraltar", "norfolk"} or \
        {t.p_key[p] for p in moves} >= {"london", "calais", "gibraltar"}
    assert sorties == [index(t, "baltic_sea"), index(t, "north_sea"), index(t, "north_atlantic")]
    assert sorted(o - SCREEN for o in options if SCREEN <= o < SUPPORT) == sorties
    assert sorted(o - SUPPORT for o in options if o >= SUPPORT) == sorties
    naval.apply_order(s, q, 1 + port(t, "london"))
    assert s.squadron_base[q] == port(t, "london") and s.squadron_sortie[q] == -1


def test_N_33_a_move_needs_a_shared_area_a_friendly_port_and_no_blockade_last_month():
    t, s = naval_world()
    q = squadron(t, s, "britain", DN)                    # Scapa: Baltic, North Sea, Atlantic
    london, riga = port(t, "london"), port(t, "riga")
    options = naval.squadron_options(t, s, q)
    assert 1 + london in options and 1 + riga in options  # Riga: over the Baltic
    assert 1 + port(t, "trieste") not in options          # no shared area, and enemy
    assert 1 + port(t, "amsterdam") not in options        # neutral
    s.blockade_prev[index(t, "north_sea"), CENTRAL] = 1
    assert 1 + london in naval.squadron_options(t, s, q)  # the Atlantic is still open
    s.blockade_prev[index(t, "north_atlantic"), CENTRAL] = 1
    assert 1 + london not in naval.squadron_options(t, s, q)
    assert 1 + riga in naval.squadron_options(t, s, q)
    # a blockade of this month does not count (the previous turn's)
    s.blockade_prev[:] = 0
    s.blockade[index(t, "north_sea"), CENTRAL] = s.blockade[index(t, "north_atlantic"), CENTRAL] = 1
    assert 1 + london in naval.squadron_options(t, s, q)
    # ports joined by a friendly coast (stand-in: on the map, one country) need no open sea
    g = squadron(t, s, "germany", DN)
    s.blockade_prev[index(t, "baltic_sea"), ALLIED] = 1
    assert 1 + port(t, "konigsberg") in naval.squadron_options(t, s, g)


def test_N_34_a_squadron_left_in_a_port_it_does_not_control_is_scuttled_or_taken():
    t, s = naval_world()
    q = squadron(t, s, "britain", BB)                    # London
    r = squadron(t, s, "britain", BB, 1)
    s.squadron_base[r] = port(t, "calais")
    s.city[index(t, "london")] = CENTRAL                 # London falls
    s.city[index(t, "calais")] = CENTRAL
    f = squadron(t, s, "france", BB)                     # the French one in Calais too
    naval.stranded(t, s, Dice(3, 4, 2))                  # in squadron order
    assert s.squadron_damage[q] == Damage.SUNK and s.squadron_base[q] == -1
    assert s.squadron_damage[f] == Damage.SUNK
    assert s.squadron_base[r] == port(t, "calais") and s.squadron_damage[r] == Damage.NONE
    assert s.squadron_country[r] == index(t, "germany")  # France is not theirs: Germany's
    # taken at a port whose own country is on the captor's side: that country's
    t, s = naval_world()
    q = squadron(t, s, "germany", DN)
    s.city[index(t, "hamburg")] = ALLIED
    naval.stranded(t, s, Dice(6, 6, 6, 6))               # the four in Hamburg
    assert s.squadron_country[q] == index(t, "france")   # the first Allied belligerent
    s.city[index(t, "hamburg")] = CENTRAL
    # in a neutral port no player takes it: interned
    t, s = naval_world()
    f = squadron(t, s, "france", BB)
    s.squadron_base[f] = port(t, "london")
    entry.leave(t, s, index(t, "britain"))
    naval.stranded(t, s, Dice(5))
    assert s.squadron_damage[f] == Damage.SUNK
    # the engine rolls at the end of every Naval Phase, after the squadrons could leave
    t, s = naval_world()
    q = squadron(t, s, "britain", BB)
    s.city[index(t, "london")] = CENTRAL
    r = squadron(t, s, "britain", BB, 1)
    dice = Dice(2)                                       # for the one left in London
    drive(engine.naval_phase(t, s, dice, 1),
          answers({(Kind.SQUADRON, q): 1 + port(t, "scapa_flow")}))
    assert s.squadron_base[q] == port(t, "scapa_flow") and s.squadron_damage[q] == Damage.NONE
    assert s.squadron_damage[r] == Damage.SUNK and not dice.forced


def test_N_35_a_squadron_sorties_from_its_base_and_does_not_also_move():
    t, s = naval_world()
    q = squadron(t, s, "britain", BB)                    # London: North Sea, Atlantic
    options = naval.squadron_options(t, s, q)
    assert {o - SORTIE for o in options if SORTIE <= o < SCREEN} == {
        index(t, "north_sea"), index(t, "north_atlantic")}
    naval.apply_order(s, q, SORTIE + index(t, "north_sea"))
    assert s.squadron_base[q] == port(t, "london") and not s.moved[q]
    s.squadron_damage[q] = Damage.HEAVY                  # stand-in: a wreck stays in port
    assert all(o < SORTIE for o in naval.squadron_options(t, s, q))


def test_N_5_repair_in_a_home_port_without_sortie():
    t, s = naval_world()
    q = squadron(t, s, "britain", BB)                    # London
    s.squadron_damage[q] = Damage.HEAVY
    assert tuple(t.repair_months[1:]) == (1, 2)
    naval.repair(t, s)
    assert s.squadron_damage[q] == Damage.HEAVY
    naval.repair(t, s)
    assert s.squadron_damage[q] == Damage.LIGHT          # two months for heavy damage
    s.squadron_sortie[q] = index(t, "north_sea")
    naval.repair(t, s)
    assert s.squadron_damage[q] == Damage.LIGHT          # not while sortied
    s.squadron_sortie[q] = -1
    s.squadron_base[q] = port(t, "calais")
    naval.repair(t, s)
    assert s.squadron_damage[q] == Damage.NONE           # light damage: any friendly port
    s.squadron_damage[q] = Damage.HEAVY
    naval.repair(t, s)
    naval.repair(t, s)
    assert s.squadron_damage[q] == Damage.HEAVY          # heavy damage: not in a French port
    s.squadron_base[q] = port(t, "london")
    naval.repair(t, s)
    naval.repair(t, s)
    assert s.squadron_damage[q] == Damage.LIGHT


def test_N_61_blockades_are_rolled_after_the_naval_combat_and_repair():
    t, s = naval_world()
    north_sea = index(t, "north_sea")
    bq = [squadron(t, s, "britain", DN, i) for i in range(2)]
    gq = squadron(t, s, "germany", BB)                   # Konigsberg: Baltic only
    s.squadron_base[gq] = port(t, "hamburg")
    orders = answers({**{(Kind.SQUADRON, q): SORTIE + north_sea for q in bq},
                      (Kind.SQUADRON, gq): SORTIE + north_sea})
    # the N.4 stand-in: each British dreadnought hits on 3 or less (gunnery 6), the German
    # battleship on 2 or less; the hit on the battleship: heavy on a die above 1
    dice = Dice(6, 1, 1,           # German miss; two British hits
                2, 1,              # the first heavy, the second light: sunk
                1)                 # the British blockade roll: 1 + 4 (two dreadnoughts) = 5
    drive(engine.naval_phase(t, s, dice, 1), orders)
    assert s.squadron_damage[gq] == Damage.SUNK and s.sortie_won[north_sea] == ALLIED
    assert not dice.forced and not s.blockade[north_sea, ALLIED]


def test_N_62_seven_or_more_imposes_each_area_on_its_own_lifted_unless_renewed():
    t, s = naval_world()
    north_sea, atlantic = index(t, "north_sea"), index(t, "north_atlantic")
    q = squadron(t, s, "britain", BC)                    # +3
    r = squadron(t, s, "britain", DN)                    # +2
    orders = answers({(Kind.SQUADRON, q): SORTIE + north_sea,
                      (Kind.SQUADRON, r): SORTIE + atlantic})
    drive(engine.naval_phase(t, s, Dice(4, 4), 1), orders)   # North Sea 7, Atlantic 6
    assert s.blockade[north_sea, ALLIED] and not s.blockade[atlantic, ALLIED]
    drive(engine.naval_phase(t, s, Dice(), 2))               # nobody sorties: no roll
    assert not s.blockade[north_sea, ALLIED]


def test_N_63_blockade_modifiers_by_squadron_kind():
    t, s = naval_world()
    a = index(t, "north_sea")
    ships = {k: squadron(t, s, "britain", k) for k in (DN, BC, BB)}
    for q in ships.values():
        naval.apply_order(s, q, SORTIE + a)
    assert naval.blockade_modifier(t, s, a, ALLIED, 1) == 2 + 3 + 1
    # the Central Powers' roll against them: dreadnoughts left there to lower it
    gdn, gbc = squadron(t, s, "germany", DN), squadron(t, s, "germany", BC)
    gbb = squadron(t, s, "germany", BB)
    for q in (gdn, gbc, gbb):
        naval.apply_order(s, q, SORTIE + a)
    for q in ships.values():
        naval.apply_order(s, q, SCREEN + a)
    # British screens: dreadnought -1, battlecruiser -2, an old battleship nothing
    assert naval.blockade_modifier(t, s, a, CENTRAL, 1) == (2 + 3 + 1) - 1 - 2
    s.in_combat[ships[BC]] = 1                           # one that fought does not count
    assert naval.blockade_modifier(t, s, a, CENTRAL, 1) == (2 + 3 + 1) - 1
    naval.apply_order(s, ships[DN], SUPPORT + a)         # kept to support a landing
    assert naval.blockade_modifier(t, s, a, CENTRAL, 1) == 2 + 3 + 1
    # after a combat only the winner's squadrons raise its roll
    s.sortie_won[a] = ALLIED
    assert naval.blockade_modifier(t, s, a, CENTRAL, 1) == 0
    assert naval.blockade_modifier(t, s, a, ALLIED, 1) == 3 + 1   # not the supporter


def test_N_64_unrestricted_submarine_warfare_from_january_1915():
    t, s = naval_world()
    asks = drive(engine.naval_phase(t, s, Dice(), JAN_1915 - 1))[:-1]
    assert not [a for a in asks if a.kind == Kind.USW]
    a = index(t, "north_sea")
    dice = Dice(*[1] * 14)                               # every roll of both: 1 + 4 = 5
    drive(engine.naval_phase(t, s, dice, JAN_1915), answers({(Kind.USW): [1, 1]}))
    assert s.usw[CENTRAL] == JAN_1915 and s.usw[ALLIED] == JAN_1915
    assert naval.blockade_modifier(t, s, a, CENTRAL, JAN_1915) == 4
    assert naval.blockade_modifier(t, s, a, CENTRAL, JAN_1915 + 11) == 4
    assert naval.blockade_modifier(t, s, a, CENTRAL, JAN_1915 + 12) == 5   # twelve months
    assert naval.blockade_modifier(t, s, a, CENTRAL, JAN_1915 + 24) == 6
    # renewed each month, else it lapses
    drive(engine.naval_phase(t, s, Dice(*[1] * 7), JAN_1915 + 1),
          answers({Kind.USW: [1, 0]}))                   # the Allies' seven rolls
    assert s.usw[ALLIED] == JAN_1915 and s.usw[CENTRAL] == -1
    assert naval.blockade_modifier(t, s, a, CENTRAL, JAN_1915 + 1) == 0
    # and the entry of Britain and the USA: V._7's modifier, once
    from gwe_fast.games.goa import entry as e

    s.usw_since_roll[:] = 0
    us = index(t, "united_states")
    before = e.entry_modifier(t, s, us)
    s.usw_since_roll[CENTRAL] = 1
    assert e.entry_modifier(t, s, us) == before - 1


def test_N_65_a_blockaded_area_is_closed_to_the_enemy_until_the_renewal_roll():
    t, s = naval_world()
    britain, france = index(t, "britain"), index(t, "france")
    assert naval.host_reachable(t, s, britain, france)
    s.blockade[index(t, "north_sea"), CENTRAL] = s.blockade[index(t, "north_atlantic"), CENTRAL] = 1
    assert not naval.host_reachable(t, s, britain, france)
    # the blockader's own side is not hindered
    assert naval.sea_link(t, s, index(t, "germany"), [port(t, "hamburg")], port(t, "calais"))
    # it holds through the next month's squadron moves (N.33's "previous turn"), until
    # the renewal is attempted; not renewed, the sea is open for that month's shipping
    q = squadron(t, s, "britain", BB)
    seen = []

    def choose(ask):
        if ask.kind == Kind.SQUADRON and ask.subject == q:
            seen.append(1 + port(t, "calais") in ask.options)
        return None

    drive(engine.naval_phase(t, s, Dice(), 1), choose)
    assert seen == [False]                               # London -> Calais: still closed
    assert naval.host_reachable(t, s, britain, france)


def test_N_66_supply_lost_to_blockades():
    t, s = naval_world()
    germany, britain, austria = index(t, "germany"), index(t, "britain"), index(t, "austria_hungary")
    italy = index(t, "italy")
    entry.join(t, s, italy, ALLIED, 9)
    b = s.blockade
    b[index(t, "baltic_sea"), ALLIED] = 1
    assert naval.blockade_supply_loss(t, s, germany) == 0    # the North Sea is still open
    b[index(t, "north_sea"), ALLIED] = 1
    assert naval.blockade_supply_loss(t, s, germany) == 11   # all its areas: a third of 32
    b[:] = 0
    b[index(t, "east_mediterranean"), ALLIED] = 1
    assert naval.blockade_supply_loss(t, s, austria) == 2    # a tenth of 15, rounded up
    b[index(t, "west_mediterranean"), ALLIED] = 1
    assert naval.blockade_supply_loss(t, s, austria) == 4
    b[index(t, "adriatic_sea"), ALLIED] = 1
    assert naval.blockade_supply_loss(t, s, austria) == 5    # all: a third
    b[:] = 0
    b[index(t, "north_atlantic"), CENTRAL] = 1
    assert naval.blockade_supply_loss(t, s, britain) == 8    # a fourth of 30
    b[index(t, "west_mediterranean"), CENTRAL] = 1           # Gibraltar: + a tenth
    assert naval.blockade_supply_loss(t, s, britain) == 10   # 11, capped at a third
    b[:] = 0
    b[index(t, "north_sea"), CENTRAL] = b[index(t, "north_atlantic"), CENTRAL] = 1
    assert naval.blockade_supply_loss(t, s, britain) == 10   # both: a third
    assert naval.blockade_supply_loss(t, s, italy) == 0
    # the loss is taken from the stock, at most what there is
    s.supply[britain] = 4
    naval.apply_blockade_losses(t, s)
    assert s.supply[britain] == 0 and s.blockade_lost[britain] == 4


def test_N_66_japan_loses_twelve_when_the_east_pacific_is_blockaded():
    t, s = world({**OPTS, "colonies": True})
    japan = index(t, "japan")
    entry.join(t, s, japan, ALLIED, 3)
    s.blockade[index(t, "east_pacific"), CENTRAL] = 1
    assert naval.blockade_supply_loss(t, s, japan) == 12     # stated twice: applied once


def test_N_67_russia_never_loses_and_gains_four_by_sea():
    t, s = naval_world()
    russia = index(t, "russia")
    for a in range(t.n_areas):
        s.blockade[a, CENTRAL] = 1
    assert naval.blockade_supply_loss(t, s, russia) == 0
    from gwe_fast.games.goa import economy

    s.supply[russia] = 0
    economy.russian_sea_supply(t, s)
    assert s.supply[russia] == 0                          # no ally can reach it
    s.blockade[:] = 0
    economy.russian_sea_supply(t, s)
    assert s.supply[russia] == 4                          # Britain over the Baltic


def test_N_69_a_blockade_not_renewed_lapses_but_its_morale_point_stays():
    from gwe_fast.games.goa.model import BLOCKADE_LOSS_SINCE

    t, s = naval_world()
    germany = index(t, "germany")
    s.supply[germany] = 50
    for a in (index(t, "baltic_sea"), index(t, "north_sea")):
        s.blockade[a, ALLIED] = 1
    naval.apply_blockade_losses(t, s)
    assert s.supply[germany] == 39
    drive(engine.naval_phase(t, s, Dice(), 2))            # not renewed
    assert s.supply[germany] == 39
    assert s.since_roll[germany] & BLOCKADE_LOSS_SINCE


def test_N_12_antwerp_is_closed_while_the_netherlands_holds_the_scheldt_against_its_side():
    t, s = naval_world()
    antwerp = port(t, "antwerp")
    entry.join(t, s, index(t, "belgium"), ALLIED, 0)
    assert port_usable(t, s, antwerp, ALLIED)
    entry.join(t, s, index(t, "netherlands"), CENTRAL, 3)
    assert not port_usable(t, s, antwerp, ALLIED)
    q = squadron(t, s, "britain", BB)                    # London: shares the North Sea
    assert 1 + antwerp not in naval.squadron_options(t, s, q)
    # the Netherlands on the Allied side and conquered by the Central Powers: closed too
    t, s = naval_world()
    entry.join(t, s, index(t, "belgium"), ALLIED, 0)
    entry.join(t, s, index(t, "netherlands"), ALLIED, 0)
    assert port_usable(t, s, antwerp, ALLIED)
    s.conquered[index(t, "netherlands")] = 5
    assert not port_usable(t, s, antwerp, ALLIED)
