"""Air operations (12.0): the Air Operations Stage and air observation.

From Game-Turn 3 (12.0) the German player has 8 Air Points and the Allied 6, all of them in
clear weather, half (fractions dropped) in mist, none in fog (12.1). Both players assign every
available point at once and in secret to Air Observation (at most half, 12.21), Ground Attack
or Interception (12.0); each player's interception points, halved, reduce the enemy's
observation and ground-attack points as the intercepting player splits it (12.41-12.42);
ground attacks are then resolved German first (12.31) like drumfire barrages; the observation
points left are markers the owner deploys at the start of his Combat Phase (12.22).

``game.arr("air")[side]`` holds ``[observation, ground attack, interception]`` points after
interception; the ground-attack entry is spent during the Ground Attack Segment and the
observation entry when the markers are deployed.
"""

from __future__ import annotations

import numpy as np

from gwe_fast.enums import Side
from gwe_fast.games.kb import artillery
from gwe_fast.games.kb.game import WEATHER, KbGame
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_CENTRAL = int(Side.CENTRAL)

OBSERVATION, GROUND_ATTACK, INTERCEPTION = 0, 1, 2


def air_points(game: KbGame, side: int) -> int:
    """Air Points ``side`` has this Game-Turn: none before Game-Turn 3 (12.0, 17.4), then all,
    half (fractions dropped) or none by the weather (12.1)."""
    tab = game.scenario.tables["air_points"]
    if int(game.state.turn) < int(tab["first_turn"]):
        return 0
    n = int(tab["german" if side == _CENTRAL else "allied"])
    w = WEATHER[int(game.arr("weather")[0])]
    rule = tab["available"][list(tab["weather"]).index(w)]
    return {"all": n, "half": n // 2, "none": 0}[rule]


def observation_max(game: KbGame, available: int) -> int:
    """At most half the available points (fractions dropped) to Air Observation (12.21)."""
    rule = game.scenario.tables["air_points"]["observation_max"]
    if rule != "half":
        raise ValueError(f"unknown observation_max rule {rule!r} in tables air_points")
    return available // 2


def allocation_choices(game: KbGame, side: int) -> list[tuple[int, int, int]]:
    """Every ``(observation, ground attack, interception)`` assignment of all of ``side``'s
    available Air Points (12.0: each point to one mission; 12.21)."""
    n = air_points(game, side)
    return [(o, g, n - o - g) for o in range(observation_max(game, n) + 1)
            for g in range(n - o + 1)]


def interception_splits(observation: int, ground: int, reduction: int) -> list[tuple[int, int]]:
    """Every ``(observation, ground attack)`` reduction of the enemy's points that uses the
    whole interception quotient as far as they go (12.42)."""
    total = min(reduction, observation + ground)
    return [(o, total - o) for o in range(min(observation, total), -1, -1)
            if total - o <= ground]


def air_stage(game: KbGame) -> None:
    """The Air Operations Stage (4.2 B): allocation (12.0, secret and simultaneous:
    ``kb.air.allocate``), interception (12.41-12.42: ``kb.air.interception``, also both at
    once) and ground attacks, German then Allied (12.31). Nothing before Game-Turn 3 or in
    fog (12.1, 17.4)."""
    air = game.arr("air")
    air[:] = 0
    sides = (Side.CENTRAL, Side.ALLIED)
    if not any(air_points(game, s) for s in sides):
        return
    alloc = game.ask_secret("kb.air.allocate", {s: allocation_choices(game, s) for s in sides})
    for s in sides:
        air[s] = alloc[s]
        game.event("air_allocation", side=int(s), observation=alloc[s][0],
                   ground_attack=alloc[s][1], interception=alloc[s][2])
    divisor = int(game.scenario.tables["air_points"]["interception_divisor"])
    opts = {}
    for s in sides:                                                   # 12.41: both at once
        e = 1 - int(s)
        opts[s] = interception_splits(int(alloc[e][OBSERVATION]), int(alloc[e][GROUND_ATTACK]),
                                      int(alloc[s][INTERCEPTION]) // divisor)
    cuts = game.ask_secret("kb.air.interception", opts)
    for s in sides:                                                   # 12.42, 12.23, 12.34
        e = 1 - int(s)
        air[e, OBSERVATION] -= cuts[s][0]
        air[e, GROUND_ATTACK] -= cuts[s][1]
        if cuts[s] != (0, 0):
            game.event("interception", side=int(s), observation=cuts[s][0],
                       ground_attack=cuts[s][1])
    game.arr("drumfired")[:] = 0
    for s in sides:                                                   # 12.31: German first
        ground_attacks(game, s)


def ground_attacks(game: KbGame, side: int) -> int:
    """``side``'s Ground Attack Segment (12.3): attacks one at a time, each of 1 to 6 of its
    Ground Attack points (12.31), on an enemy-occupied hex (12.32) not held solely by HQs
    (12.33), holding no reinforcement placed this Game-Turn (15.16), attacked once
    (9.42 through 12.31), anywhere on the map; resolved as a drumfire barrage (9.43-9.45).
    Air Points are never lost (12.0). Returns the enemy steps lost."""
    tab = game.scenario.tables["air_points"]
    low, high = int(tab["ground_attack_min_points"]), int(tab["ground_attack_max_points"])
    air = game.arr("air")
    lost = 0
    while int(air[side, GROUND_ATTACK]) >= low:
        targets = np.flatnonzero(artillery.barrage_targets(game, side, hq_only_ok=False))
        if targets.size == 0:
            break
        cell = game.ask("kb.air.ground_attack_target", side, [None] + [int(c) for c in targets])
        if cell is None:
            break
        left = int(air[side, GROUND_ATTACK])
        pts = game.ask("kb.air.ground_attack_points", side,
                       list(range(low, min(high, left) + 1)), cell=cell)
        air[side, GROUND_ATTACK] -= pts
        lost += artillery.barrage_attack(game, cell, pts, "air", "ground_attack")
    air[side, GROUND_ATTACK] = 0                          # unused points are not kept
    return lost


def deploy_observation(game: KbGame, side: int) -> int:
    """At the start of ``side``'s Combat Phase, its Air Observation markers (its observation
    points left after interception) go on enemy stacks anywhere, at most one a stack (12.22;
    ``kb.air.observation``, None to keep the rest back): ``observed[cell] = 1`` for the
    Combat Phase. Returns the markers placed."""
    air = game.arr("air")
    n = int(air[side, OBSERVATION])
    air[side, OBSERVATION] = 0
    if n <= 0:
        return 0
    sc, st = game.scenario, game.state
    observed = game.arr("observed")
    enemy = (st.unit_status & Status.ON_MAP).astype(bool) & (sc.units.side == 1 - side)
    stacks = np.zeros(sc.map.n_cells, dtype=bool)
    stacks[st.unit_cell[enemy]] = True
    placed = 0
    for _ in range(n):
        free = np.flatnonzero(stacks & ~observed.astype(bool))
        if free.size == 0:
            break
        cell = game.ask("kb.air.observation", side, [None] + [int(c) for c in free])
        if cell is None:
            break
        observed[cell] = 1
        placed += 1
        game.event("air_observation", side=int(side), cell=cell)
    return placed
