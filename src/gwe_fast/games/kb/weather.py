"""Weather (11.0, 17.4): the Weather Stage and what the weather of the Game-Turn is.

Game-Turns 1 and 2 are automatically fog (11.13, 17.4); from Game-Turn 3 the German player
rolls a die on the Weather Table (11.14), adding 1 on PM Game-Turns (11.12). The result holds
for the rest of the Game-Turn (11.11) in ``game.arr("weather")[0]``; its effects are read by
air operations (12.1), observation and barrages (9.51-9.74) and combat (8.3).
"""

from __future__ import annotations

from gwe_fast.games.kb.game import FOG, WEATHER, KbGame


def weather_stage(game: KbGame) -> int:
    """Set this Game-Turn's weather (4.2 A, 11.1) and count it; returns it (CLEAR/MIST/FOG)."""
    tab = game.scenario.tables["weather"]
    turn = int(game.state.turn)
    if turn in tab["automatic_fog_turns"] or turn < int(tab["first_turn"]):
        w, die = FOG, 0                                              # 11.13, 17.4
    else:
        die = game.roll("weather", "11.11 weather")
        w = weather_of_roll(game, die, turn)
    game.arr("weather")[0] = w
    game.arr("weather_turns")[w] += 1
    game.event("weather", weather=WEATHER[w], die=die)
    return w


def modified_roll(game: KbGame, die: int, turn: int) -> int:
    """The die plus 1 on PM Game-Turns (11.12)."""
    tab = game.scenario.tables["weather"]
    return die + (int(tab["pm_modifier"]) if turn in game.data.pm_turns else 0)


def weather_of_roll(game: KbGame, die: int, turn: int) -> int:
    """The Weather Table's result for a die rolled on ``turn`` (11.14)."""
    tab = game.scenario.tables["weather"]
    rows = [int(d) for d in tab["die"]]
    roll = min(max(modified_roll(game, die, turn), rows[0]), rows[-1])
    return WEATHER.index(tab["result"][rows.index(roll)])


def current(game: KbGame) -> int:
    """This Game-Turn's weather (CLEAR, MIST or FOG)."""
    return int(game.arr("weather")[0])


def attacker_die_modifier(game: KbGame) -> int:
    """What the weather adds to the attacker's combat resolution die roll: +1 in fog (8.3[1],
    11.2)."""
    if current(game) != FOG:
        return 0
    for row in game.scenario.tables["attacker_die_modifiers"]["row"]:
        if row["cause"] == "fog":
            return int(row["mod"])
    return 0
