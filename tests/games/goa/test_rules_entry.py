"""Variable Entry, V._1-V._9 (seed 003), on the tiny world."""

from tiny import Dice, answers, drive, index, world

from gwe_fast.games.goa import engine, entry, land, morale
from gwe_fast.games.goa.codes import Kind, Month, Side
from gwe_fast.games.goa.naval_combat import invasion_targets

ALLIED, CENTRAL, NEUTRAL = Side.ALLIED, Side.CENTRAL, Side.NEUTRAL
NO_SEA = {"naval": False, "colonies": False}


def at_war(t, s, key, side, month=0, limited=False):
    entry.join(t, s, index(t, key), side, month, limited=limited)


def test_V_1_roll_below_one_joins_the_allies_above_six_the_central_powers():
    t, s = world(NO_SEA)
    italy = index(t, "italy")
    assert entry.entry_outcome(t, s, italy, 0) == (ALLIED, False)
    assert entry.entry_outcome(t, s, italy, -3) == (ALLIED, False)
    for total in range(1, 7):
        assert entry.entry_outcome(t, s, italy, total) == (NEUTRAL, False)
    assert entry.entry_outcome(t, s, italy, 7) == (CENTRAL, False)
    entry.apply_entry_roll(t, s, italy, 0, 9)
    assert s.side[italy] == ALLIED and s.entered[italy] == 9


def test_V_1_the_allied_player_rolls_for_each_neutral_in_february_may_august_november():
    t, s = world(NO_SEA)
    assert [Month.month_of_year(m) for m in range(12) if morale.roll_month(t, m)] == [8, 11, 2, 5]
    rolled = [t.c_key[c] for c in entry.rolls_for_entry(t, s)]
    # the neutrals whose entry is rolled: not Albania (never enters), not Japan (V._6)
    assert rolled == ["turkey", "bulgaria", "britain", "belgium", "italy", "romania", "greece",
                      "netherlands", "united_states"]
    # the engine: in November 1914 one die for each of them, in table order, after the
    # belligerents' morale rolls; Italy's 0 (a 1 less the trade's 1) takes it to the Allies
    italy = index(t, "italy")
    nov = Month.of("1914-11")
    s.scalars[0] = nov
    rolls = engine.month_rolls(t, s, nov)
    n_morale = sum(1 for kind, _, _ in rolls if kind == morale.MORALE_ROLL)
    i_italy = next(i for i, (kind, c, _) in enumerate(rolls)
                   if kind == morale.ENTRY_ROLL and c == italy)
    mod = rolls[i_italy][2]
    i_turkey = next(i for i, (kind, c, _) in enumerate(rolls)
                    if kind == morale.ENTRY_ROLL and c == index(t, "turkey"))
    trade = 1 + i_italy * len(rolls) + i_turkey      # Italy -1 for us, Turkey +1 for them
    assert 1 <= 1 - mod <= 6
    dice = Dice(*([6] * n_morale), *[3] * 9)
    dice.forced[n_morale + rolled.index("italy")] = 1 - mod
    drive(engine.play_month(t, s, dice, nov), answers({Kind.TRADE: [trade, 0]}))
    assert s.side[italy] == ALLIED and s.entered[italy] == nov
    assert not dice.forced
    # without the trade the same die leaves Italy neutral
    t, s = world(NO_SEA)
    s.scalars[0] = nov
    dice = Dice(*([6] * n_morale), *[3] * 9)
    dice.forced[n_morale + rolled.index("italy")] = 1 - mod
    drive(engine.play_month(t, s, dice, nov))
    assert s.side[italy] == NEUTRAL


def test_V_1_trade_one_roll_for_you_one_for_him_where_it_might_change_the_outcome():
    t, s = world(NO_SEA)
    france, italy = index(t, "france"), index(t, "italy")
    rolls = [(morale.MORALE_ROLL, france, 20),   # +20: no die can change its result
             (morale.ENTRY_ROLL, italy, 0),
             (morale.MORALE_ROLL, index(t, "germany"), -3)]
    options = morale.trade_options(t, s, rolls, ALLIED)
    n = len(rolls)
    pairs = {divmod(o - 1, n) for o in options if o}
    # the roll modified for the other player must be one the change might affect: never
    # France's (+20), always Italy's and Germany's (-3: the table's edge); never the same
    # roll twice
    assert pairs == {(0, 1), (0, 2), (1, 2), (2, 1)}
    assert 0 in options
    extra = [0] * n
    morale.apply_trade(t, s, rolls, ALLIED, 1 + 1 * n + 2, extra)
    # Italy's entry roll one lower (toward the Allies), Germany's morale one higher (the
    # Central Powers' favour)
    assert extra == [0, -1, 1]
    # the Central Powers: Germany's morale +1 for them, Italy's entry -1 for the Allies: the
    # same two rolls move twice (the designer's "Zimmermann telegram" case)
    morale.apply_trade(t, s, rolls, CENTRAL, 1 + 2 * n + 1, extra)
    assert extra == [0, -2, 2]


def test_V_2_germany_invading_belgium_brings_britain_in_at_once_in_full():
    t, s = world(NO_SEA)
    belgium, britain = index(t, "belgium"), index(t, "britain")
    assert entry.invadable(t, s) == [belgium, index(t, "netherlands")]
    entry.invade(t, s, belgium, 0)
    assert s.side[belgium] == ALLIED and s.invaded[belgium]
    assert s.side[britain] == ALLIED and not s.limited[britain] and s.entered[britain] == 0
    # British forces may act the same month: they have land orders in that month's land war
    assert land.land_options(t, s, britain, 0) != [0] or land.fronts_of(t, s, britain) == []
    # a limited Britain becomes a full belligerent too
    t, s = world(NO_SEA)
    at_war(t, s, "britain", ALLIED, limited=True)
    entry.invade(t, s, index(t, "netherlands"), 3)
    assert s.side[britain] == ALLIED and not s.limited[britain]


def test_V_2_britains_roll_one_to_five_limited_below_one_full_above_five_neutral():
    t, s = world(NO_SEA)
    britain = index(t, "britain")
    assert entry.entry_outcome(t, s, britain, 0) == (ALLIED, False)
    for total in range(1, 6):
        assert entry.entry_outcome(t, s, britain, total) == (ALLIED, True)
    assert entry.entry_outcome(t, s, britain, 6) == (NEUTRAL, False)
    assert entry.entry_outcome(t, s, britain, 9) == (NEUTRAL, False)   # never Central (V._9)
    entry.apply_entry_roll(t, s, britain, 3, 0)
    assert s.side[britain] == ALLIED and s.limited[britain]
    # still rolled for while limited: below one it is at war in full
    assert britain in entry.rolls_for_entry(t, s)
    entry.apply_entry_roll(t, s, britain, 0, 3)
    assert not s.limited[britain] and s.entered[britain] == 0
    assert britain not in entry.rolls_for_entry(t, s)                  # S._11


def test_V_2_a_limited_britain_half_points_no_policies_no_move_into_germany():
    from gwe_fast.games.goa import economy

    t, s = world({"colonies": False})
    britain = index(t, "britain")
    at_war(t, s, "britain", ALLIED, limited=True)
    assert economy.supply_due(t, s, britain, 0) == 30 // 2
    assert economy.personnel_due(t, s, britain) == 8 // 2
    assert not economy.may_change_policy(t, s, britain, 0)
    # land: British strength in France defends there but attacks no German front
    s.abroad[britain, index(t, "france")] = 40
    s.supply[britain] = 20
    orders = land.land_options(t, s, britain, 0)
    france_front = 0                                 # germany-france
    assert 1 + 4 * france_front in orders            # a main effort there, defending
    assert all((o - 1) % 4 == 0 for o in orders if o)
    # sea: no landing in Germany (Hamburg) while limited; as a full belligerent it may
    s.blockade[:] = 0
    hamburg = index(t, "hamburg")
    for q in range(t.n_squadrons):                   # no German squadron in port there
        if s.squadron_base[q] == t.p_key.index("hamburg"):
            s.squadron_base[q] = t.p_key.index("konigsberg")
    assert (1, t.p_key.index("hamburg"), -1) not in invasion_targets(t, s, britain)
    s.limited[britain] = 0
    assert (1, t.p_key.index("hamburg"), -1) in invasion_targets(t, s, britain)
    assert t.k_key[hamburg] == "hamburg"


def test_V_2_limited_britains_roll_is_one_lower_and_moves_no_other_roll():
    t, s = world(NO_SEA)
    britain, italy = index(t, "britain"), index(t, "italy")
    before = entry.entry_modifier(t, s, britain)
    italy_before = entry.entry_modifier(t, s, italy)
    at_war(t, s, "britain", ALLIED, limited=True)
    assert entry.entry_modifier(t, s, britain) == before - 1
    assert entry.entry_modifier(t, s, italy) == italy_before        # V._8: not limited
    s.limited[britain] = 0
    assert entry.entry_modifier(t, s, italy) == italy_before - 1


def test_V_2_britain_neutral_again_withdraws_every_british_unit_home():
    t, s = world({"colonies": True})
    britain, france = index(t, "britain"), index(t, "france")
    at_war(t, s, "britain", ALLIED, limited=True)
    s.abroad[britain, france] = 12
    army = int(s.army[britain])
    kamerun = index(t, "kamerun")
    s.colony[kamerun] = ALLIED
    s.col_units[kamerun, britain], s.col_af[kamerun, britain] = 2, 8
    calais = t.p_key.index("calais")
    q = next(q for q in range(t.n_squadrons) if s.squadron_country[q] == britain)
    s.squadron_base[q] = calais
    entry.apply_entry_roll(t, s, britain, 6, 2)                      # above five: neutral
    assert s.side[britain] == NEUTRAL and not s.limited[britain]
    assert s.army[britain] == army + 12 + 2 * t.corps
    assert s.abroad[britain].sum() == 0 and s.col_units[kamerun, britain] == 0
    assert t.p_country[s.squadron_base[q]] == britain                # a British port
    assert s.city[index(t, "london")] == NEUTRAL
    assert s.colony[index(t, "egypt")] == NEUTRAL                   # its colonies too
    assert s.colony[kamerun] == ALLIED                              # a conquest stays


def test_V_2_a_central_powers_invasion_ends_limited_participation():
    t, s = world(NO_SEA)
    britain = index(t, "britain")
    at_war(t, s, "britain", ALLIED, limited=True)
    at_war(t, s, "belgium", ALLIED)                                 # joined by its roll
    assert entry.entry_outcome(t, s, britain, 3) == (ALLIED, True)
    s.city[index(t, "brussels")] = CENTRAL                          # then invaded
    assert entry.entry_outcome(t, s, britain, 3) == (ALLIED, False)
    entry.britain_provoked(t, s, 4)
    assert s.side[britain] == ALLIED and not s.limited[britain]
    # the engine makes the check at the Inter-Player Turn of every month
    t, s = world(NO_SEA)
    at_war(t, s, "belgium", ALLIED)
    s.city[index(t, "brussels")] = CENTRAL
    drive(engine.play_month(t, s, Dice(*[6] * 20), 1))
    assert s.side[britain] == ALLIED and s.entered[britain] == 1


def test_V_3_mediterranean_blockades_move_italys_roll():
    t, s = world(NO_SEA)
    italy = index(t, "italy")
    base = entry.entry_modifier(t, s, italy)
    s.med_blockade[ALLIED] = 1
    assert entry.entry_modifier(t, s, italy) == base - 1
    s.med_blockade[CENTRAL] = 1
    assert entry.entry_modifier(t, s, italy) == base
    s.med_blockade[ALLIED] = 0
    assert entry.entry_modifier(t, s, italy) == base + 1
    assert entry.entry_modifier(t, s, index(t, "romania")) == entry.entry_modifier(
        *world(NO_SEA), index(t, "romania"))                    # Italy's roll only


def test_V_3_an_allied_blockade_of_both_seas_counts_until_the_next_roll():
    t, s = world({"colonies": False})
    britain, italy = index(t, "britain"), index(t, "italy")
    at_war(t, s, "britain", ALLIED)
    at_war(t, s, "italy", ALLIED)
    gib = t.p_key.index("gibraltar")
    bq = next(q for q in range(t.n_squadrons) if s.squadron_country[q] == britain
              and t.q_kind[q] == 0)
    s.squadron_base[bq] = gib
    iq = next(q for q in range(t.n_squadrons) if s.squadron_country[q] == italy)
    wmed, emed = index(t, "west_mediterranean"), index(t, "east_mediterranean")
    from gwe_fast.games.goa.naval import SORTIE

    orders = answers({(Kind.SQUADRON, bq): SORTIE + wmed, (Kind.SQUADRON, iq): SORTIE + emed})
    dice = Dice(5, 5)           # the two Allied blockade rolls (+2 each: a dreadnought)
    drive(engine.naval_phase(t, s, dice, 1), orders)
    assert s.blockade[wmed, ALLIED] and s.blockade[emed, ALLIED]
    assert s.med_blockade[ALLIED] == 1 and not dice.forced
    # it moves Italy's next roll (November), then is forgotten
    nov = Month.of("1914-11")
    assert entry.entry_modifier(t, s, italy) <= -1 or s.side[italy] != NEUTRAL
    s.side[italy], s.entered[italy] = NEUTRAL, -1
    s.blockade[:] = 0
    rolls = engine.month_rolls(t, s, nov)
    mod = next(m for kind, c, m in rolls if kind == morale.ENTRY_ROLL and c == italy)
    assert mod == entry.entry_modifier(t, s, italy)
    s.med_blockade[ALLIED] = 1
    gen = engine.reinforcement_phase(t, s, Dice(*[3] * 20), nov, [(italy, mod)])
    drive(gen)
    assert s.med_blockade[ALLIED] == 0


def test_V_4_the_goeben_to_turkey_in_august_1914_else_to_trieste():
    t, s = world(NO_SEA)
    g = t.goeben
    turkey = index(t, "turkey")
    assert entry.gift_options(t, s, CENTRAL, 0) == [g]
    assert entry.gift_options(t, s, CENTRAL, 1) == []                 # August 1914 only
    assert entry.gift_options(t, s, ALLIED, 0) == []                  # not in August 1914
    base = entry.entry_modifier(t, s, turkey)
    entry.give(t, s, CENTRAL, g)
    assert s.squadron_country[g] == turkey
    assert s.squadron_base[g] == t.constantinople_port
    assert entry.entry_modifier(t, s, turkey) == base + 1             # +1 (and +1 for no
    # Allied gift, in the base)
    # declined: the squadron must be placed in Trieste
    t, s = world(NO_SEA)
    s.squadron_base[g] = t.constantinople_port
    drive(engine.reinforcement_phase(t, s, Dice(), 0, []), answers({Kind.GIFT: -1}))
    assert s.squadron_base[g] == t.trieste_port and s.squadron_country[g] == index(t, "germany")


def test_V_4_an_allied_dreadnought_for_turkey_pulls_it_toward_the_allies():
    t, s = world(NO_SEA)
    turkey, britain = index(t, "turkey"), index(t, "britain")
    assert entry.gift_options(t, s, ALLIED, 1) == []          # no Allied belligerent's yet
    no_gift = entry.entry_modifier(t, s, turkey)
    at_war(t, s, "britain", ALLIED, limited=True)             # a partial belligerent's will do
    options = entry.gift_options(t, s, ALLIED, 1)
    assert options and all(s.squadron_country[q] == britain and t.q_kind[q] in (0, 1)
                           for q in options)
    assert not any(t.q_kind[q] == 2 for q in options)         # not an older battleship
    entry.give(t, s, ALLIED, options[0])
    assert entry.entry_modifier(t, s, turkey) == no_gift - 2  # -1 instead of +1
    assert entry.gift_options(t, s, ALLIED, 2) == []          # one squadron
    at_war(t, s, "turkey", CENTRAL)
    assert entry.gift_options(t, s, ALLIED, 2) == []          # Turkey no longer neutral


def test_V_5_greece_enters_by_the_roll_of_the_eastern_group_stand_in():
    # the 2nd edition's Greek entry rule is not in the seed: Greece is rolled for like the
    # other neutrals, in V._8's eastern group (docs/rulings.md, V._5)
    t, s = world(NO_SEA)
    greece = index(t, "greece")
    assert greece in entry.rolls_for_entry(t, s)
    base = entry.entry_modifier(t, s, greece)
    at_war(t, s, "bulgaria", CENTRAL)
    assert entry.entry_modifier(t, s, greece) == base + 1
    entry.apply_entry_roll(t, s, greece, 0, 4)
    assert s.side[greece] == ALLIED


def test_V_6_japan_is_rolled_for_only_with_the_colonies():
    t, s = world({"colonies": False})
    assert index(t, "japan") not in entry.rolls_for_entry(t, s)
    t, s = world({"colonies": True})
    assert index(t, "japan") in entry.rolls_for_entry(t, s)


def test_V_6_japans_roll_german_and_allied_colonial_presence_and_the_usa():
    t, s = world({"colonies": True})
    japan, germany = index(t, "japan"), index(t, "germany")
    tsingtao, hawaii = index(t, "tsingtao"), index(t, "hawaii")
    # the German battlecruiser in Tsingtao (C.21): -1
    assert any(s.squadron_base[q] == t.n_ports + tsingtao and s.squadron_country[q] == germany
               for q in range(t.n_squadrons))
    with_german = entry.entry_modifier(t, s, japan)
    for q in range(t.n_squadrons):
        if s.squadron_base[q] == t.n_ports + tsingtao:
            s.squadron_base[q] = t.p_key.index("hamburg")
    assert entry.entry_modifier(t, s, japan) == with_german + 1
    # German land units in a colony on the East Pacific do the same
    s.col_units[tsingtao, germany] = 1
    assert entry.entry_modifier(t, s, japan) == with_german
    s.col_units[tsingtao, germany] = 0
    # Allied units there: +1
    us = index(t, "united_states")
    at_war(t, s, "united_states", ALLIED)
    s.col_units[hawaii, us] = 1
    # ... and the USA an Allied belligerent: -1
    assert entry.entry_modifier(t, s, japan) == with_german + 1 + 1 - 1


def test_V_6_the_usas_roll_and_japanese_units_beyond_the_east_pacific():
    t, s = world({"colonies": True})
    japan, us = index(t, "japan"), index(t, "united_states")
    base = entry.entry_modifier(t, s, us)
    at_war(t, s, "japan", CENTRAL)
    assert entry.entry_modifier(t, s, us) == base             # all Japanese in the East Pacific
    egypt = index(t, "egypt")
    s.col_units[egypt, japan] = 1                              # on the Indian Ocean
    assert entry.entry_modifier(t, s, us) == base - 1
    s.col_units[egypt, japan] = 0
    s.scalars[4] = 2                                           # two conquests
    assert entry.entry_modifier(t, s, us) == base - 1
    s.scalars[4] = 1
    assert entry.entry_modifier(t, s, us) == base
    q = next(q for q in range(t.n_squadrons) if s.squadron_country[q] == japan
             and s.squadron_base[q] >= 0)
    s.squadron_base[q] = t.n_ports + egypt                     # a squadron counts too
    assert entry.entry_modifier(t, s, us) == base - 1
    s.side[japan] = ALLIED
    assert entry.entry_modifier(t, s, us) == base + 1


def test_V_7_unrestricted_submarine_warfare_moves_britain_and_the_usa_once():
    t, s = world(NO_SEA)
    britain, us, italy = index(t, "britain"), index(t, "united_states"), index(t, "italy")
    base = [entry.entry_modifier(t, s, c) for c in (britain, us, italy)]
    s.usw_since_roll[CENTRAL] = 1
    # -1, once: N.64 states the same modifier again
    assert [entry.entry_modifier(t, s, c) for c in (britain, us, italy)] == [
        base[0] - 1, base[1] - 1, base[2]]
    s.usw_since_roll[ALLIED] = 1
    assert [entry.entry_modifier(t, s, c) for c in (britain, us)] == base[:2]


def test_V_7_declaring_it_counts_until_the_next_entry_roll():
    t, s = world({"colonies": False})
    at_war(t, s, "britain", ALLIED)
    jan = Month.of("1915-01")
    drive(engine.naval_phase(t, s, Dice(*[1] * 40), jan), answers({Kind.USW: 1}))
    assert s.usw_since_roll[CENTRAL] == 1 and s.usw[CENTRAL] == jan
    feb = Month.of("1915-02")
    drive(engine.reinforcement_phase(t, s, Dice(*[3] * 20), feb, []))
    assert s.usw_since_roll[CENTRAL] == 0 and s.usw[CENTRAL] == jan


def test_V_8_western_and_eastern_groups():
    t, s = world(NO_SEA)
    italy, romania, us = index(t, "italy"), index(t, "romania"), index(t, "united_states")
    base = {c: entry.entry_modifier(t, s, c) for c in (italy, romania, us)}
    at_war(t, s, "belgium", ALLIED)
    assert entry.entry_modifier(t, s, italy) == base[italy] - 1
    assert entry.entry_modifier(t, s, us) == base[us] - 1
    assert entry.entry_modifier(t, s, romania) == base[romania]
    at_war(t, s, "netherlands", CENTRAL)
    assert entry.entry_modifier(t, s, italy) == base[italy]      # one each way, not per country
    at_war(t, s, "turkey", CENTRAL)
    at_war(t, s, "bulgaria", CENTRAL)
    assert entry.entry_modifier(t, s, romania) == base[romania] + 1
    at_war(t, s, "greece", ALLIED)
    assert entry.entry_modifier(t, s, romania) == base[romania]


def test_V_9_no_voluntary_entry_on_the_forbidden_side():
    t, s = world(NO_SEA)
    for key in ("belgium", "united_states"):
        assert entry.entry_outcome(t, s, index(t, key), 7) == (NEUTRAL, False)
        assert entry.entry_outcome(t, s, index(t, key), 0) == (ALLIED, False)
    nl = index(t, "netherlands")
    assert entry.entry_outcome(t, s, nl, 0) == (NEUTRAL, False)
    assert entry.entry_outcome(t, s, nl, -5) == (NEUTRAL, False)
    assert entry.entry_outcome(t, s, nl, 7) == (CENTRAL, False)
    # the Netherlands joins the Allies when invaded: not voluntarily
    entry.invade(t, s, nl, 2)
    assert s.side[nl] == ALLIED
