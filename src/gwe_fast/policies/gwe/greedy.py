"""``greedy``: the third rung of the ladder for The Great War in the East.

The passive policy's machinery with the attack-minded settings:

* **combat**: at each declaration it scores every attack it may make by its exact expected
  outcome from the CRT (``scoring.evaluate_attack``: step exchange, retreats and whether
  they are possible, victory points with the 25.13 doubling, the hex won), declares the best
  one worth anything (``min_gain``), and drops the attackers that add nothing so that they
  remain for the next attack (non-overlapping attacks: each unit attacks once, 8.14); HQ
  shifts and depots (massed artillery) go where their expected gain beats their cost; it
  advances after combat where the ``PositionMap`` prices the hex above staying;
* **movement**: every unit, line units included, goes where the ``PositionMap`` prices it
  best, which now counts what it adds to the attack on an adjacent enemy hex (``attack``)
  and a pull toward the enemy (``aggression``, scaled by the side's edge in strength);
  reserves far from the front go by rail when that beats marching by ``rail_margin``;
* **reinforcements**: a Central Powers reinforcement is withheld (25.16) when its victory
  points beat ``withhold_worth`` (1.5) per stacking point: the divisions of Game-Turns 5-7.

Being a parameter set of ``PassivePolicy``, every decision is scored the same way.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gwe_fast.policies.gwe.passive import PassivePolicy


class GreedyPolicy(PassivePolicy):
    """Best expected attack each time, moves that set attacks up, rail for reserves."""

    name = "greedy"
    PARAMS: ClassVar[dict[str, Any]] = {
        **PassivePolicy.PARAMS,
        "min_gain": 0.0,
        "min_exchange": 0.0,
        "min_move_gain": 0.1,
        "line_moves": True,
        "attack": 1.0,
        "aggression": 1.0,
        "hold": 0.5,
        "use_rail": True,
        "trim": True,
        "advance": True,
        "withhold_worth": 1.5,
    }
