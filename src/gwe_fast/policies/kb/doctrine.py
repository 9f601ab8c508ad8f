"""``doctrine``: the fifth rung of The Kaiser's Battle ladder, a doctrine per scenario side.

The greedy policy's machinery with settings that follow each side's doctrine of March 1918:

* **German: infiltration.** Stosstruppen lead: the attacks a Movement Phase plans take them
  first (``stoss_lead``), they move first, advance deep after combat regardless of zones of
  control (8.83-8.84, 17.3: ``advance``), and are never broken down (13.1); the other
  divisions follow and break down near the western edge to exit three units for one (13.1,
  20.2); ``progress`` pulls everyone west, gas falls on the Allied rear (9.3).
* **Allied: defence in depth.** Redoubts and trenches are held (``hold``: 20.13, the Allied
  Player-Turn of the last Game-Turn filling every trench it can reach), a screen of zones of
  control is kept across the map a few columns west of the German spearhead (``barrier_gap``,
  ``screen``: German units may not enter it in the Second Movement Segment, 5.22, and must
  stop on entering it, 6.21), and only weak spots are counter-attacked (``min_gain`` and
  ``max_eliminated``: isolated, reduced or replacement German units).

``SIDE_PARAMS`` holds each side's settings over ``KbGreedyPolicy``'s (its side settings
included); parameters given by name (a sweep) apply to both sides and win over both.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gwe_fast.enums import Side
from gwe_fast.policies.kb.greedy import KbGreedyPolicy


class KbDoctrinePolicy(KbGreedyPolicy):
    """German infiltration led by stosstruppen; Allied defence in depth."""

    name = "doctrine"
    SIDE_PARAMS: ClassVar[dict[int, dict[str, Any]]] = {
        Side.CENTRAL: {**KbGreedyPolicy.SIDE_PARAMS.get(Side.CENTRAL, {}),
                       "stoss_lead": 1.0, "advance": 0.3, "progress": 0.2, "contact": 0.4,
                       "gas": 3},
        Side.ALLIED: {**KbGreedyPolicy.SIDE_PARAMS.get(Side.ALLIED, {}),
                      "hold": 1.5, "barrier_gap": 3, "screen": 0.3, "min_gain": 0.2,
                      "max_eliminated": 0.05, "endgame": True},
    }
