"""Naval combat: the Naval Combat Chart (N.41-N.46, seed 003) and the N.4 stand-in, on the
tiny world."""

from tiny import Dice, answers, drive, index, squadron, world

from gwe_fast.games.goa import engine, entry, naval, naval_combat
from gwe_fast.games.goa.codes import Damage, Kind, Ship, Side
from gwe_fast.games.goa.naval import SCREEN, SORTIE, SUPPORT

ALLIED, CENTRAL = Side.ALLIED, Side.CENTRAL
DN, BC, BB = Ship.DREADNOUGHT, Ship.BATTLECRUISER, Ship.BATTLESHIP
CHART = {"naval": True, "colonies": False, "variable_entry": False, "naval_combat_chart": True}


def adriatic(options=CHART):
    """Italy's dreadnought (Venice) against Austria-Hungary's dreadnought and the German
    battlecruiser (Trieste), all able to sortie into the Adriatic."""
    t, s = world(options)
    entry.join(t, s, index(t, "italy"), ALLIED, 9)
    return t, s, squadron(t, s, "italy", DN), squadron(t, s, "austria_hungary", DN), t.goeben


def test_N_41_combat_only_where_both_sides_sortied():
    t, s, it, ah, gb = adriatic()
    a = index(t, "adriatic_sea")
    # Italy alone in the Adriatic: no combat, no die (its blockade roll: 1 + 2 = 3)
    drive(engine.naval_phase(t, s, Dice(1), 10), answers({(Kind.SQUADRON, it): SORTIE + a}))
    assert s.sortie_won[a] == -1 and not s.in_combat[it]
    t, s, it, ah, gb = adriatic()
    orders = answers({(Kind.SQUADRON, it): SORTIE + a, (Kind.SQUADRON, ah): SORTIE + a})
    # the chart: three dice a side (damage 7: each dreadnought lightly damaged); a tie, so
    # neither side's squadrons raise its blockade roll, and nobody rolls (N.43)
    dice = Dice(1, 1, 1, 1, 1, 1)
    asks = drive(engine.naval_phase(t, s, dice, 10), orders)
    assert not dice.forced and s.sortie_won[a] == 2
    assert s.squadron_damage[it] == s.squadron_damage[ah] == Damage.LIGHT
    assert s.in_combat[it] and s.in_combat[ah]
    assert any(x.kind == Kind.GERMAN_ROLL for x in asks[:-1])


def test_N_42_the_chart_replaces_the_n_4_stand_in_when_chosen():
    t, s, it, ah, gb = adriatic({**CHART, "naval_combat_chart": False})
    a = index(t, "adriatic_sea")
    for q in (it, ah):
        naval.apply_order(s, q, SORTIE + a)
    # the stand-in: a die for each fighting squadron (3 or less hits), then one for the hit
    dice = Dice(6, 2, 6)            # Austrian misses; Italian hits, heavy (6 > 3)
    drive(naval_combat.fight(t, s, dice, a, 10, -1))
    assert s.squadron_damage[ah] == Damage.HEAVY and not dice.forced
    t, s, it, ah, gb = adriatic()
    for q in (it, ah):
        naval.apply_order(s, q, SORTIE + a)
    dice = Dice(1, 1, 1, 1, 1, 1)   # the chart: damage, sunk and heavy rolls, each side
    drive(naval_combat.fight(t, s, dice, a, 10, -1))
    assert not dice.forced


def test_N_43_damage_from_the_chart_and_the_squadrons_sunk_and_damaged_within_it():
    t, s, it, ah, gb = adriatic()
    a = index(t, "adriatic_sea")
    for q in (it, ah, gb):
        naval.apply_order(s, q, SORTIE + a)
    # columns: the highest heading not above the combined gunnery
    assert naval.chart_column(t, 6) == 0 and naval.chart_column(t, 11) == 1
    assert naval.chart_column(t, 0) == -1 and naval.chart_column(t, 99) == 5
    # the Central Powers (gunnery 6 + 5 = 11: column 2) roll 6: damage 21; the sunk roll 2
    # (4.2 protection), the heavy roll 2 (4.2): the Italian dreadnought (protection 6) is
    # neither sunk nor heavily damaged, but lightly (within 21)
    # the Allies (gunnery 6: column 1) roll 4: damage 7; the sunk roll 6 (4.2): the
    # battlecruiser (protection 4) is sunk; the heavy roll 3 (2.1): nothing more fits
    dice = Dice(6, 2, 2, 4, 6, 3)
    drive(naval_combat.fight(t, s, dice, a, 10, -1))
    assert not dice.forced
    assert s.squadron_damage[it] == Damage.LIGHT
    assert s.squadron_damage[gb] == Damage.SUNK and s.squadron_base[gb] == -1
    assert s.squadron_damage[ah] == Damage.NONE          # 4 + 6 would exceed 7
    assert s.sortie_won[a] == 2                          # one squadron left each: a tie
    # the budgets, in tenths
    assert naval.budgets(21, 2, 2) == (42, 42, 210)
    assert naval.budgets(7, 6, 3) == (42, 21, 70)


def test_N_43_the_player_designates_and_the_side_left_with_more_squadrons_won():
    t, s, it, ah, gb = adriatic()
    a = index(t, "adriatic_sea")
    fr = squadron(t, s, "france", BB)
    s.squadron_base[fr] = t.p_key.index("venice")
    for q in (it, fr, ah):
        naval.apply_order(s, q, SORTIE + a)
    # Allied gunnery 6 + 2 = 8 (column 2) rolls 6: damage 21, sunk roll 3 (6.3): either
    # Austrian fits... there is one; the Austrians (6: column 1) roll 1: damage 7,
    # sunk 1 (0.7): nothing; heavy 5 (3.5): the French battleship (protection 2) or nothing
    dice = Dice(1, 1, 5, 6, 3, 1)
    asks = drive(naval_combat.fight(t, s, dice, a, 10, -1))[:-1]
    assert s.squadron_damage[ah] == Damage.SUNK
    assert s.squadron_damage[fr] == Damage.HEAVY
    assert s.sortie_won[a] == ALLIED
    assert naval.blockade_modifier(t, s, a, ALLIED, 10) == 2 + 1
    assert naval.blockade_modifier(t, s, a, CENTRAL, 10) == 0
    assert not [x for x in asks if x.kind == Kind.DESIGNATE]    # one choice each: taken


def test_N_44_squadrons_kept_for_blockades_or_landings_add_no_gunnery_but_may_be_hit():
    t, s, it, ah, gb = adriatic()
    a = index(t, "adriatic_sea")
    naval.apply_order(s, it, SORTIE + a)
    naval.apply_order(s, ah, SORTIE + a)
    naval.apply_order(s, gb, SCREEN + a)
    assert naval.gunnery(t, s, naval.sortied(t, s, a, CENTRAL)) == 6
    naval.apply_order(s, gb, SUPPORT + a)
    assert naval.gunnery(t, s, naval.sortied(t, s, a, CENTRAL)) == 6
    # the Allies' damage 7, sunk roll 6: the supporting battlecruiser may be sunk
    dice = Dice(1, 1, 1, 4, 6, 1)
    drive(naval_combat.fight(t, s, dice, a, 10, -1), answers({Kind.DESIGNATE: gb}))
    assert s.squadron_damage[gb] == Damage.SUNK
    assert s.in_combat[ah] and not s.in_combat[gb]


def test_N_45_submarines_alone_fight_on_the_far_left_column_and_forgo_the_blockade():
    t, s = world(CHART)
    entry.join(t, s, index(t, "britain"), ALLIED, 0)
    a = index(t, "north_sea")
    q = squadron(t, s, "britain", BB)
    s.usw[CENTRAL] = 5
    orders = answers({(Kind.SQUADRON, q): SORTIE + a, (Kind.SUBMARINE, a): 1,
                      Kind.USW: [0, 1]})
    # far-left by die: 4, 12, ...; the British fleet is British: the German rolls are one
    # lower (N.46): damage die 3 -> 2: 12; sunk roll 6 -> 5: 6.0 protection: the British
    # battleship (3) sunk
    asked = []

    def choose(ask):
        asked.append(ask.kind)
        return orders(ask)

    # then the blockades: the Central Powers roll where their submarines reach (+4), but
    # not in the North Sea, forgone; the British battleship is gone
    dice = Dice(3, 6, 1,            # the Central Powers: damage, sunk, heavy
                1, 1, 1,            # the British (nothing to hit)
                *[1] * 6)           # six blockade rolls
    drive(engine.naval_phase(t, s, dice, 6), choose)
    assert Kind.SUBMARINE in asked
    assert s.squadron_damage[q] == Damage.SUNK
    assert not s.blockade[a, CENTRAL]
    assert not dice.forced                              # six blockade rolls, not seven
    assert naval.submarine_areas(t, s, ALLIED) == []    # the Allies wage none


def test_N_46_fleets_mostly_german_british_or_american_and_the_german_option():
    t, s = world(CHART)
    entry.join(t, s, index(t, "britain"), ALLIED, 0)
    a = index(t, "north_sea")
    brits = [squadron(t, s, "britain", DN, i) for i in range(2)]
    fr = squadron(t, s, "france", BB)
    assert naval.mostly(t, s, brits + [fr])
    assert not naval.mostly(t, s, brits[:1] + [fr])     # half is not mostly
    g = squadron(t, s, "germany", BB)
    s.squadron_base[g] = t.p_key.index("hamburg")
    for q in brits[:1] + [fr]:
        naval.apply_order(s, q, SORTIE + a)
    naval.apply_order(s, g, SORTIE + a)
    # the German fleet is German: the Allied rolls are one lower; the German option takes
    # one from both initial rolls. Central: die 2 - 1 (option) -> 1: column of gunnery 3
    # (col 1: 7); Allied (gunnery 6 + 2 = 8: col 2) die 3 - 1 - 1 -> 1: 7
    dice = Dice(2, 6, 1, 3, 1, 1)
    drive(naval_combat.fight(t, s, dice, a, 10, -1), answers({Kind.GERMAN_ROLL: 1}))
    # Central damage 7, sunk 6 (4.2): the French battleship (2); Allied sunk and heavy
    # rolls 1 - 1 = 0: the German battleship only lightly damaged (within 7)
    assert s.squadron_damage[fr] == Damage.SUNK
    assert s.squadron_damage[g] == Damage.LIGHT
    assert not dice.forced
