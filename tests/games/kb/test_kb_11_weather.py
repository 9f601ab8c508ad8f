"""Weather (11.0, 17.4): the Weather Stage, the table and the PM modifier, and its effects."""

import pytest

from kb_positions import kb_empty_game
from gwe_fast.games.kb import air, weather
from gwe_fast.games.kb.game import CLEAR, FOG, MIST, WEATHER
from gwe_fast.enums import Side

# 11.14 as printed: die 1-7 (7 only with the PM +1)
PRINTED = {1: "fog", 2: "fog", 3: "mist", 4: "mist", 5: "mist", 6: "clear", 7: "clear"}


def test_11_11_weather_rolled_from_game_turn_3_and_recorded():
    for die, want in ((1, FOG), (3, MIST), (5, MIST), (6, CLEAR)):
        g = kb_empty_game(turn=3)
        g.dice.force("weather", [die])
        assert weather.weather_stage(g) == want
        assert int(g.arr("weather")[0]) == want == weather.current(g)
        counts = [0, 0, 0]
        counts[want] = 1
        assert g.arr("weather_turns").tolist() == counts
        assert [e for e in g.events if e[0] == "die"] == [("die", 3, "weather", "11.11 weather",
                                                           die)]


def test_11_11_weather_turns_count_every_game_turn():
    g = kb_empty_game(turn=3)
    g.dice.force("weather", [6, 1, 4, 6])
    for turn in (3, 4, 5, 6):
        g.state.turn = turn
        weather.weather_stage(g)
    # 3 AM 6 clear, 4 PM 1+1 fog, 5 AM 4 mist, 6 PM 6+1 clear
    assert g.arr("weather_turns").tolist() == [2, 1, 1]


def test_11_12_pm_turns_add_one_ruling_even_game_turns():
    # ruling (tables.toml): Game-Turn 1 is the morning of 21 March, so even turns are PM
    g = kb_empty_game(turn=3)
    assert sorted(g.data.pm_turns) == [2, 4, 6, 8, 10]
    assert int(g.scenario.tables["weather"]["pm_modifier"]) == 1
    for turn in range(3, 11):
        pm = turn % 2 == 0
        assert weather.modified_roll(g, 5, turn) == (6 if pm else 5)
        g2 = kb_empty_game(turn=turn)
        g2.dice.force("weather", [5])
        assert weather.weather_stage(g2) == (CLEAR if pm else MIST)
        g3 = kb_empty_game(turn=turn)
        g3.dice.force("weather", [2])
        assert weather.weather_stage(g3) == (MIST if pm else FOG)


def test_11_13_and_17_4_game_turns_1_and_2_fog_without_a_roll():
    for turn in (1, 2):
        g = kb_empty_game(turn=turn)
        g.arr("weather")[0] = CLEAR
        g.dice.force("weather", [6])          # would be clear if it were rolled
        assert weather.weather_stage(g) == FOG
        assert g.arr("weather_turns").tolist() == [0, 0, 1]
        assert not [e for e in g.events if e[0] == "die"]
        assert g.dice.roll("weather") == 6    # the forced die is still there: nothing rolled
    assert g.scenario.tables["weather"]["automatic_fog_turns"] == [1, 2]


def test_11_14_weather_table_every_die_am_and_pm():
    g = kb_empty_game(turn=3)
    for die in range(1, 7):
        assert WEATHER[weather.weather_of_roll(g, die, 3)] == PRINTED[die]        # AM
        assert WEATHER[weather.weather_of_roll(g, die, 4)] == PRINTED[die + 1]    # PM


def test_11_2_weather_effects_fog_modifier_and_air_points():
    g = kb_empty_game(turn=3)
    got = {}
    for w in (CLEAR, MIST, FOG):
        g.arr("weather")[0] = w
        got[w] = (weather.attacker_die_modifier(g), air.air_points(g, Side.CENTRAL),
                  air.air_points(g, Side.ALLIED))
    # 8.3[1]: +1 to the attacker in fog; 12.1: all, half, none
    assert got == {CLEAR: (0, 8, 6), MIST: (0, 4, 3), FOG: (1, 0, 0)}
    # 9.72 and 9.51-9.61 read the same weather index from the tables
    t = g.scenario.tables
    assert t["observation"]["hilltop_range"] == [6, 3, 0]
    assert t["barrage_limits"]["rolling"][FOG] == t["barrage_limits"]["sos"][FOG] == 0


@pytest.mark.parametrize("turn", [1, 2])
def test_17_4_fog_on_game_turns_1_2_means_no_air_operations(turn):
    g = kb_empty_game(turn=turn)
    weather.weather_stage(g)
    air.air_stage(g)                 # the default Scripted policy is not involved: no asks
    assert g.arr("air").tolist() == [[0, 0, 0], [0, 0, 0]]
    assert not [e for e in g.events if e[0] == "choice"]
