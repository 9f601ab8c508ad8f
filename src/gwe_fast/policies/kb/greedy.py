"""``greedy``: the third rung of The Kaiser's Battle ladder.

The passive policy's machinery with the attack-minded settings:

* **movement**: at the start of the First Movement Segment ``position.plan_attacks`` weighs
  every enemy stack against the units that can reach a hex next to it, by the attack's exact
  expectation (``scoring.expected_attack``: step exchange with the 8.71 elimination and the
  8.74 retreat, the 20.14 and 20.13 VP, the hex won), and sends the fewest strongest units
  that make the best attacks to their hexes (towns and trenches first: no further
  obligation, 8.13), counting what each gives up by leaving its hex (a trench held, a town,
  the pull west); the other units push west through the towns (``progress``, 20.11) or,
  Allied, hold trenches and towns, filling every one they can reach in the last Allied
  Player-Turn, when no German can take them back (``endgame``: 20.11, 20.13), using the
  Second Movement Segment's triple allowance whenever they can (5.22); Germans exit the map
  from the western edge (20.2) and break down divisions near it (13.1: three units exit for
  three times the VP);
* **combat**: every attack with a positive expectation (``min_gain``), the best first, with
  rolling barrages where the expected gain beats the points' worth; it advances after
  combat toward the west (``advance``), stosstruppen through zones of control (8.84);
* **artillery and air**: persistent gas on the largest Allied concentrations out of reach
  (9.3), ground attacks with the air (12.3).

* **the Allied side** (``SIDE_PARAMS``): units outside trench hexes keep a screen of zones of
  control two or three hexes in front of the Germans (``screen``, ``screen_free``: German
  units stop on entering it, 6.21, and may not move through it in the Second Movement
  Segment, 5.22), units in trench hexes hold them (20.13); in the last Allied Player-Turn
  (``endgame``) the currency is the Victory Points alone and ``position.plan_last_word``
  assigns every unit the trench hex and German-held towns on its way that add most.

Being a parameter set of ``KbPassivePolicy``, every decision is scored the same way.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gwe_fast.enums import Side
from gwe_fast.policies.kb.passive import KbPassivePolicy


class KbGreedyPolicy(KbPassivePolicy):
    """Best expected attacks, moves that set them up, a push west through the towns."""

    name = "greedy"
    PARAMS: ClassVar[dict[str, Any]] = {
        **KbPassivePolicy.PARAMS,
        "min_gain": 0.0,
        "max_eliminated": 0.15,
        "plan": True,
        "progress": 0.15,
        "endgame": True,
        "advance": 0.15,
        "gas": 2,
        "air": "ground",
        "breakdown_within": 8,
    }
    #: the Allied player's own defaults: the units outside trench hexes keep a screen of zones
    #: of control in front of the Germans (6.21, 5.22), those in trench hexes hold them (20.13)
    SIDE_PARAMS: ClassVar[dict[int, dict[str, Any]]] = {
        Side.ALLIED: {"screen": 0.15, "screen_free": True},
    }
