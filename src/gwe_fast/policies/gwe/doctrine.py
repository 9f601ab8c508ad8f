"""``doctrine``: a policy per side of the Brusilov Offensive, from its history.

* **Russian (allied): Brusilov's broad-front assault.** June 1916: every army of the front
  attacks at once, so that the defender cannot tell where the main blow falls nor move his
  reserves to it. Played as the greedy policy that, when it chooses the next attack of a
  Combat Phase, adds ``breadth`` per hex (up to six) between the target and the nearest
  attack already made in that phase: attacks spread along the front instead of piling up.
  (A harder pull toward the enemy, attacks at a small expected loss and readier massed
  artillery were tried and did worse than greedy in a handful of games.)
* **Central Powers (central): reserves shifted by rail to threatened sectors.** The line
  holds (``line_moves`` false, no pull toward the enemy); reserves go where the enemy's
  expected gain against the line is highest, by rail whenever rail is at least as good as
  marching (``rail_margin`` 0), and fill every gap (``hold`` 1.5); it counterattacks only
  at a clear gain (``min_gain`` 0.5) and withholds reinforcements as greedy does.

Any parameter of the greedy policy may still be given; it applies to both sides. In a game
other than The Great War in the East it answers at random, like every ladder policy.
"""

from __future__ import annotations

from typing import Any, ClassVar

from gwe_fast.enums import Side
from gwe_fast.policies.gwe import scoring
from gwe_fast.policies.gwe.base import GwePolicy
from gwe_fast.policies.gwe.greedy import GreedyPolicy

BROAD_FRONT = {"breadth": 0.25}
RAIL_RESERVES = {"line_moves": False, "aggression": 0.0, "rail_margin": 0.0, "hold": 1.5,
                 "min_gain": 0.5}


class BroadFront(GreedyPolicy):
    """Greedy with ``breadth``: attacks spread along the front (see the module docstring)."""

    name = "broad-front"
    PARAMS: ClassVar[dict[str, Any]] = {**GreedyPolicy.PARAMS, "breadth": 0.25}

    def select_attack(self, view, plans: list[dict]) -> dict | None:
        """The attack worth making with the best expectation plus ``breadth`` per hex (up to
        six) from the nearest attack already made in this Combat Phase."""
        key = self.phase_key(view, "declared")
        done = self.memory.get("declared")
        if done is None or done[0] != key:
            done = self.memory["declared"] = (key, [])
        ok = [p for p in plans if self.worth_attacking(p["e"])]
        if not ok:
            return None
        D = scoring.hex_distances(view.scenario)

        def spread(p):
            if not done[1]:
                return 0.0
            return float(self.p.breadth) * min(6, int(min(D[p["cell"], c] for c in done[1])))

        best = max(ok, key=lambda p: p["e"].score + spread(p))
        done[1].append(best["cell"])
        return best


class DoctrinePolicy(GwePolicy):
    """The Russian broad-front assault or the Central Powers' rail-borne reserves, by side."""

    name = "doctrine"
    PARAMS: ClassVar[dict[str, Any]] = {**GreedyPolicy.PARAMS, "breadth": 0.25}

    def __init__(self, **params: Any):
        super().__init__(**params)
        self.params_given = dict(params)

    def new_game(self, view) -> None:
        given = self.params_given
        self.sides = {
            Side.ALLIED: BroadFront(**{**BROAD_FRONT, **given}),
            Side.CENTRAL: GreedyPolicy(**{**RAIL_RESERVES,
                                          **{k: v for k, v in given.items() if k != "breadth"}}),
        }

    def choose(self, decision, game, rng):
        view = game.policy_view() if hasattr(game, "policy_view") else game
        key = (id(view), getattr(view, "seed", 0), getattr(view, "game_index", 0))
        if key != self._game_key:
            self._game_key = key
            self.memory = {}
            self.new_game(view)
        if not decision.kind.startswith("gwe."):
            return int(rng.integers(len(decision.options)))
        return self.sides[Side(decision.side)].choose(decision, game, rng)
