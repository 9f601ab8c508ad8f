"""Morale, M._1-M._9 (seed 003), and the designer's worked example, on the tiny world."""

from tiny import Dice, answers, drive, index, world

from gwe_fast.games.goa import engine, entry, morale, naval, surrender
from gwe_fast.games.goa.codes import Kind, Month, Morale, Side
from gwe_fast.games.goa.model import (BLOCKADE_LOSS_SINCE, CONSCRIPTED_SINCE,
                                      DEMOBILIZED_SINCE, IMPLEMENTED_SINCE, MOBILIZED_SINCE)

ALLIED, CENTRAL, NEUTRAL = Side.ALLIED, Side.CENTRAL, Side.NEUTRAL
BASE = {"morale": False, "production": False, "naval": False, "colonies": False,
        "variable_entry": False,
        "surrender": False}
VARIANT = {**BASE, "morale": True}
NOV_1918 = Month.of("1918-11")


def mod(t, s, key, month=NOV_1918):
    return morale.morale_modifier(t, s, index(t, key), month)


def test_M_1_each_city_the_enemy_holds_counts_once():
    for options in (BASE, VARIANT):
        t, s = world(options)
        before = mod(t, s, "russia")
        s.city[index(t, "petrograd")] = CENTRAL          # not an objective city
        assert mod(t, s, "russia") == before - 1
        s.city[index(t, "odessa")] = CENTRAL
        assert mod(t, s, "russia") == before - 2


def test_M_1_an_objective_city_lost_since_entry_and_one_taken_from_the_enemy():
    t, s = world(VARIANT)
    before = mod(t, s, "germany")
    s.city[index(t, "warsaw")] = CENTRAL                 # Allied on Germany's entry
    assert mod(t, s, "germany") == before + 1
    s.city[index(t, "brest_litovsk")] = CENTRAL
    assert mod(t, s, "germany") == before + 1            # one, however many
    s.city[index(t, "brussels")] = CENTRAL               # neutral on Germany's entry
    assert mod(t, s, "germany") == before + 1
    # Austria-Hungary counts its side's cities too: Warsaw held, and Metz lost
    s.city[index(t, "metz")] = ALLIED                    # German: objective, friendly at entry
    assert mod(t, s, "germany") == before + 1 - 1 - 1    # lost (-1) and a German city (-1)
    assert mod(t, s, "austria_hungary") == mod(*world(VARIANT), "austria_hungary") + 1 - 1
    # without the variant only the base game's count of the country's own cities
    t, s = world(BASE)
    before = mod(t, s, "germany")
    s.city[index(t, "warsaw")] = CENTRAL
    assert mod(t, s, "germany") == before


def test_M_1_entry_cities_are_those_of_the_first_entry():
    t, s = world(VARIANT)
    italy, trieste = index(t, "italy"), index(t, "trieste")
    entry.join(t, s, italy, ALLIED, 9)
    assert s.entry_city[italy, trieste] == CENTRAL
    before = mod(t, s, "italy", 12)
    s.city[trieste] = ALLIED                              # enemy's on entry, ours now
    assert mod(t, s, "italy", 12) == before + 1
    # Britain's cities on entry are those of its first entry, not of a return to the war
    britain, brussels = index(t, "britain"), index(t, "brussels")
    entry.join(t, s, britain, ALLIED, 9, limited=True)
    entry.leave(t, s, britain)
    s.city[brussels] = CENTRAL
    entry.join(t, s, britain, ALLIED, 20)
    assert s.entry_city[britain, brussels] == NEUTRAL


def test_M_2_and_C_69_a_colony_lost_counts_once():
    t, s = world({**VARIANT, "naval": True, "colonies": True})
    before = mod(t, s, "germany")
    s.colony[index(t, "kamerun")] = ALLIED
    assert mod(t, s, "germany") == before - 1
    s.colony[index(t, "tsingtao")] = ALLIED
    assert mod(t, s, "germany") == before - 1            # once, however many
    assert mod(t, s, "austria_hungary") == mod(*world({**VARIANT, "naval": True,
                                                      "colonies": True}), "austria_hungary")
    # Libya counts as Turkish except for morale (C.66)
    t, s = world({**VARIANT, "naval": True, "colonies": True})
    entry.join(t, s, index(t, "turkey"), CENTRAL, 3)
    before = mod(t, s, "turkey")
    s.colony[index(t, "libya")] = ALLIED
    assert mod(t, s, "turkey") == before
    s.colony[index(t, "syria")] = ALLIED
    assert mod(t, s, "turkey") == before - 1


def test_M_3_a_blockade_loss_since_the_last_roll_and_russia_fed_three_months():
    t, s = world({**VARIANT, "naval": True})
    before = mod(t, s, "germany")
    s.since_roll[index(t, "germany")] |= BLOCKADE_LOSS_SINCE
    assert mod(t, s, "germany") == before - 1
    russia = index(t, "russia")
    before = mod(t, s, "russia")
    s.fed[russia] = 2
    assert mod(t, s, "russia") == before
    s.fed[russia] = 3
    assert mod(t, s, "russia") == before + 1
    # the months count those Russia received points sent by an ally: the Naval Phase's record
    from gwe_fast.games.goa import economy

    s.fed[russia] = 0
    for month in range(3):
        s.received[russia] = 1
        economy.russian_sea_supply(t, s)
    assert s.fed[russia] == 3
    s.received[russia] = 0
    economy.russian_sea_supply(t, s)
    assert s.fed[russia] == 0


def test_N_68_and_M_3_the_blockade_loss_counts_once():
    t, s = world({**VARIANT, "naval": True})
    germany = index(t, "germany")
    clean = mod(t, s, "germany")
    # a real loss: the Allies blockade every sea area Germany's ports reach
    for a in (index(t, "baltic_sea"), index(t, "north_sea")):
        s.blockade[a, ALLIED] = 1
    s.supply[germany] = 50
    naval.apply_blockade_losses(t, s)
    assert s.supply[germany] == 50 - 11                  # a third of 32, rounded up
    assert mod(t, s, "germany") == clean - 1
    # without the naval variant the base game's blockade (-1 for each Central Power) stands
    # in for it, and nothing more
    t, s = world(VARIANT)
    base = mod(t, s, "germany")
    t2, s2 = world({**VARIANT, "naval": True})
    assert base == mod(t2, s2, "germany") - 1


def test_M_4_mobilization_and_conscription_since_the_last_roll():
    t, s = world({**VARIANT, "production": True})
    germany = index(t, "germany")
    s.since_roll[germany] = 0
    zero = mod(t, s, "germany")
    for bits, n in ((MOBILIZED_SINCE, 1), (MOBILIZED_SINCE | DEMOBILIZED_SINCE, 2),
                    (CONSCRIPTED_SINCE, 1), (CONSCRIPTED_SINCE | IMPLEMENTED_SINCE, 2),
                    (MOBILIZED_SINCE | DEMOBILIZED_SINCE | CONSCRIPTED_SINCE
                     | IMPLEMENTED_SINCE, 4)):
        s.since_roll[germany] = bits
        assert mod(t, s, "germany") == zero - n
    # after a roll only what is in effect then carries over
    s.conscription[germany] = 1
    s.mobilized[germany] = -1
    morale.new_roll_period(s, germany)
    assert s.since_roll[germany] == CONSCRIPTED_SINCE
    # at a scenario's start what is in effect counts at the first roll
    t, s = world(VARIANT)
    assert s.since_roll[germany] == CONSCRIPTED_SINCE
    assert s.since_roll[index(t, "britain")] == 0
    # without the production variant there are no such policies: no modifier
    zero = mod(t, s, "germany")
    s.since_roll[germany] = MOBILIZED_SINCE | CONSCRIPTED_SINCE | IMPLEMENTED_SINCE
    assert mod(t, s, "germany") == zero


def test_M_5_italy_or_the_usa_entering_beside_a_country():
    t, s = world(VARIANT)
    france, britain = index(t, "france"), index(t, "britain")
    before = {k: mod(t, s, k, 9) for k in ("france", "germany")}
    entry.join(t, s, index(t, "italy"), ALLIED, 9)
    assert mod(t, s, "france", 9) == before["france"] + 1
    assert mod(t, s, "germany", 9) == before["germany"]
    assert s.joined_with[index(t, "italy")] == 0         # not the country entering
    entry.join(t, s, britain, ALLIED, 10)                # nor one entering afterwards
    assert s.joined_with[britain] == 0
    entry.join(t, s, index(t, "united_states"), ALLIED, 30)
    assert s.joined_with[france] == 2 and s.joined_with[britain] == 1
    # Italy for the Central Powers lifts theirs
    t, s = world(VARIANT)
    entry.join(t, s, index(t, "italy"), CENTRAL, 9)
    assert s.joined_with[index(t, "germany")] == 1 and s.joined_with[france] == 0


def conquered_russia(t, s, triple):
    russia = index(t, "russia")
    surrender.conquer(t, s, russia, CENTRAL, Month.of("1918-03"), by_morale=True)
    surrender.set_triple(t, s, russia, triple)
    return russia


def test_M_6_a_major_power_conquered_and_the_central_powers_garrisons():
    opts = {**VARIANT, "surrender": True}
    t, s = world(opts)
    before = {k: mod(t, s, k) for k in ("germany", "france")}
    conquered_russia(t, s, triple=True)
    assert all(s.garrison[k] >= 3 for k in range(t.n_cities) if t.k_country[k] == index(t, "russia"))
    assert mod(t, s, "germany") == before["germany"] + 1 + 1   # M._6, and M._1's objective
    t, s = world(opts)
    conquered_russia(t, s, triple=False)
    # without three units in each Russian city: no M._6, and S._14's -1
    assert mod(t, s, "germany") == before["germany"] + 1 - 1
    # the Allies have no garrison condition
    t, s = world(opts)
    surrender.conquer(t, s, index(t, "austria_hungary"), ALLIED, 40, by_morale=True)
    assert mod(t, s, "france") == before["france"] + 1 + 1     # M._6, Vienna/Trieste taken
    # France conquered: its objective cities must hold three each
    t, s = world(opts)
    surrender.conquer(t, s, index(t, "france"), CENTRAL, 40, by_morale=True)
    without = mod(t, s, "germany")
    surrender.set_triple(t, s, index(t, "france"), True)
    assert mod(t, s, "germany") == without + 2                 # M._6 +1, S._14's -1 gone


def test_M_6_the_garrisons_are_offered_with_the_morale_variant_alone():
    t, s = world(VARIANT)
    russia = index(t, "russia")
    surrender.conquer(t, s, russia, CENTRAL, 10, by_morale=True)
    asks = drive(engine.land_phase(t, s, Dice(), 10), answers({Kind.GARRISON: 1}))
    assert any(a.kind == Kind.GARRISON and a.subject == russia for a in asks[:-1])
    assert morale.garrisoned(t, s, russia, False)


def test_M_7_the_roll_trade_moves_a_morale_roll():
    t, s = world(VARIANT)
    germany, austria = index(t, "germany"), index(t, "austria_hungary")
    month = Month.of("1918-11")
    s.scalars[0] = month
    s.since_roll[:] = 0
    rolls = engine.month_rolls(t, s, month)
    n = len(rolls)
    i_de = next(i for i, (k, c, _) in enumerate(rolls) if k == morale.MORALE_ROLL and c == germany)
    i_ah = next(i for i, (k, c, _) in enumerate(rolls) if k == morale.MORALE_ROLL and c == austria)
    m_de = rolls[i_de][2]
    # a die that leaves Germany exactly at 1 (no effect); the Allies' trade takes it to 0
    die = 1 - m_de
    assert 1 <= die <= 6
    options = morale.trade_options(t, s, rolls, ALLIED)
    trade = 1 + i_de * n + i_ah
    assert trade in options
    mr = [m for k, _, m in rolls if k == morale.MORALE_ROLL]
    dice = [6] * len(mr)
    dice[[c for k, c, _ in rolls if k == morale.MORALE_ROLL].index(germany)] = die
    gen = engine.morale_phase(t, s, Dice(*dice), month)
    drive(gen, answers({Kind.TRADE: [trade, 0]}))
    assert s.morale_results[germany, Morale.RR] == 1
    # one trade a side a month: the Allies are asked once
    t, s = world(VARIANT)
    s.scalars[0] = month
    asks = drive(engine.morale_phase(t, s, Dice(*[6] * len(mr)), month))
    assert [a.side for a in asks[:-1] if a.kind == Kind.TRADE] == [ALLIED, CENTRAL]
    assert all(a.secret for a in asks[:-1])
    # and no trade at all in the base game
    t, s = world(BASE)
    s.scalars[0] = month
    asks = drive(engine.morale_phase(t, s, Dice(*[6] * 20), month))
    assert not [a for a in asks[:-1] if a.kind == Kind.TRADE]


def test_M_8_a_country_that_has_suffered_a_minus_one_or_minus_two():
    t, s = world(VARIANT)
    germany = index(t, "germany")
    before = mod(t, s, "germany")
    morale.apply_morale(t, s, germany, Morale.RR, 5)
    assert mod(t, s, "germany") == before                 # RR is not a -1 or -2 result
    morale.apply_morale(t, s, germany, Morale.D1, 5)
    assert mod(t, s, "germany") == before - 1
    morale.apply_morale(t, s, germany, Morale.D2, 8)
    assert mod(t, s, "germany") == before - 1             # once


def test_M_9_the_year_modifier():
    t, s = world(VARIANT)
    france = index(t, "france")
    by_year = [morale.morale_modifier(t, s, france, Month.of(f"{y}-11"))
               for y in range(1914, 1920)]
    assert [m - by_year[4] for m in by_year] == [4, 3, 2, 1, 0, -1]
    t, s = world(BASE)
    assert len({morale.morale_modifier(t, s, france, Month.of(f"{y}-11"))
                for y in range(1914, 1920)}) == 1


def test_designers_example_germany_in_november_1918_nets_minus_two():
    """The designer's notes: Germany holding the historical position in November 1918, -1
    for the blockade, -1 for colony loss, -1 for conscription, -1 for economic mobilization,
    +1 for an Allied objective city held, +1 for Russia's surrender: net -2 (morale, naval,
    colonies; production for the two policies; surrender's garrisons kept)."""
    opts = {"morale": True, "naval": True, "colonies": True, "production": True,
            "surrender": True}
    t, s = world(opts)
    germany = index(t, "germany")
    s.mobilized[germany] = Month.of("1916-11")
    for key in ("italy", "united_states"):
        entry.join(t, s, index(t, key), ALLIED, Month.of("1915-05"))
    s.joined_with[:] = 0                                  # the same for Germany either way
    conquered_russia(t, s, triple=True)                   # Warsaw held: the objective city
    s.colony[index(t, "kamerun")] = ALLIED
    s.colony[index(t, "tsingtao")] = ALLIED
    for a in (index(t, "baltic_sea"), index(t, "north_sea")):
        s.blockade[a, ALLIED] = 1
    s.supply[germany] = 40
    naval.apply_blockade_losses(t, s)
    morale.new_roll_period(s, germany)                    # the previous roll (August 1918)
    naval.apply_blockade_losses(t, s)                     # a loss since it
    assert s.since_roll[germany] == MOBILIZED_SINCE | CONSCRIPTED_SINCE | BLOCKADE_LOSS_SINCE
    assert morale.morale_modifier(t, s, germany, NOV_1918) == -2
    # the base game's own modifiers add nothing: no German city is enemy-held, and the
    # Allied blockade is the naval variant's (N.68 = M._3); but without three units in each
    # Russian city the surrender is worth nothing and costs one (S._14): -4
    surrender.set_triple(t, s, index(t, "russia"), False)
    assert morale.morale_modifier(t, s, germany, NOV_1918) == -4
    # and 1919 takes one more (M._9)
    surrender.set_triple(t, s, index(t, "russia"), True)
    assert morale.morale_modifier(t, s, germany, Month.of("1919-02")) == -3
