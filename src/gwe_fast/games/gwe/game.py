"""``GweGame``: a Game of The Great War in the East with its policies, engine arrays and log.

Everything the procedures need goes through this object:

* ``ask(kind, side, options, **context)``: hand a decision to the side's policy and return
  the chosen option, checked in one place (``policies.base.check_choice``);
* ``roll(stream, why)``: one die from the game's named stream, logged with its purpose;
* ``event(kind, **details)``: append to the event log (kept only when ``events=True``);
* ``arr(name)``: an engine array of the state (``ENGINE_ARRAYS``), created on first use.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from gwe_fast.enums import Side
from gwe_fast.game import Game
from gwe_fast.games.gwe.data import gwe_data
from gwe_fast.policies.base import Decision, Policy, RandomPolicy, check_choice
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State


class Flag:
    """Per-unit engine flags (the ``flags`` engine array), reset where their case says."""

    MOVED = 1 << 0            #: moved (or entrained) in this Movement Phase (13.0 3)
    USED_RAIL = 1 << 1        #: used rail movement this Movement Phase (5.34)
    ATTACKED = 1 << 2         #: attacked in this Combat Phase (8.14)
    DEFENDED = 1 << 3         #: was attacked in this Combat Phase (8.14)
    RETREATED_IN = 1 << 4     #: retreated or withdrew into its hex this phase (8.66, 12.17)
    IN_COMBAT_LAST_TURN = 1 << 5  #: attacked or defended since its last replacement phase (13.0 2)
    PANICKED = 1 << 6         #: has been panicked (23.26: only once)
    LIVING_OFF_LAND = 1 << 7  #: cavalry living off the land (19.4)
    OUT_OF_RADIUS = 1 << 8    #: outside every friendly HQ's command radius (10.42, 10.43)
    BROKEN_DOWN = 1 << 9      #: armored car broken down (24.42)
    ADVANCED = 1 << 10        #: advanced after combat this phase: may not attack (8.73)
    # 5.31, 14.22 (rail.py, reinforcements.py)
    RAIL_COUNTED = 1 << 14    #: counted toward Rail Capacity this Movement Phase (5.31, 20.11)
    ENTRY_BLOCKED = 1 << 15   #: reinforcement found its entry blocked: alternate hex next (14.22)


# Engine arrays kept in State.extra: name -> (dtype, shape as a function of the scenario)
ENGINE_ARRAYS = {
    "flags": (np.uint16, lambda sc: (sc.units.n,)),
    "mp_spent": (np.int16, lambda sc: (sc.units.n,)),
    "rail_hexes": (np.int16, lambda sc: (sc.units.n,)),          # hexes moved by rail (18.21)
    "rail_used": (np.int16, lambda sc: (2,)),                    # stacking points by rail (5.31)
    "track_used": (np.int16, lambda sc: (sc.map.n_cells, 6, 2)),  # per hexside, per line (18.3)
    "vp_cause": (np.int32, lambda sc: (len(VP_CAUSES),)),        # VP total by cause (25.2)
    "steps_lost": (np.int32, lambda sc: (2, len(LOSS_CAUSES))),   # steps lost, side x cause
    "sp_lost": (np.int32, lambda sc: (2, len(LOSS_CAUSES))),      # stacking points lost
    "depots_received": (np.int16, lambda sc: (2,)),              # depots arrived (20.2)
    # 5.31, 18.21, 18.32 (rail.py): the Game-Turn rail_used, rail_hexes, track_used belong to
    "rail_turn": (np.int16, lambda sc: (2,)),
    # 10.11 1 / 21.13 (command.py): the HQ has lent its shift in this Combat Phase
    "hq_shift_used": (np.int8, lambda sc: (sc.units.n,)),
    # 11.0-11.1 (combat.py): per fortress hex: steps lost (0-4, 11.13), Defense Strength at full
    # and after two steps lost (11.14; set by whoever places fortresses: the map format has no
    # field for them), attacked in this Combat Phase (8.14)
    "fortress": (np.int16, lambda sc: (sc.map.n_cells, 4)),
    # 5.31 with 5.35 (rail.py): stacking points counted beyond the Rail Capacity because
    # entrained units out of Command Control could neither detrain nor stay uncounted
    "rail_forced": (np.int16, lambda sc: (2,)),
    # 4.0 A1c (engine.py): units out of Command Control at the side's last Movement Phase
    # Command Control Segment, for the per-turn record
    "ooc_count": (np.int16, lambda sc: (2,)),
}

VP_CAUSES = ("initial", "central_powers_stacking_point_eliminated",
             "central_powers_stacking_point_eliminated_surrounded",
             "central_powers_hq_eliminated", "russian_stacking_point_eliminated",
             "russian_stacking_point_eliminated_surrounded", "russian_hq_eliminated",
             "reinforcement_withheld", "towns")
LOSS_CAUSES = ("combat", "attrition", "stacking", "panic", "retreat", "rail", "breakdown",
               "massed_artillery", "other")


class GweGame(Game):
    """A Great War in the East game with a policy for each side.

    ``policies`` maps a side (0 allied, 1 central) to a ``Policy``; missing sides get the
    random policy.
    """

    def __init__(self, scenario: Scenario, seed: int = 0, game_index: int = 0,
                 policies: dict[int, Policy] | None = None, state: State | None = None,
                 events: bool = False):
        super().__init__(scenario, seed=seed, game_index=game_index, state=state)
        self.data = gwe_data(scenario)
        policies = policies or {}
        self.policies = {s: policies.get(s) or RandomPolicy() for s in (Side.ALLIED, Side.CENTRAL)}
        self.rngs = {s: self.dice.policy_rng(Side(s).name.lower()) for s in self.policies}
        self.events: list[tuple] | None = [] if events else None
        if state is None:
            self.arr("vp_cause")[VP_CAUSES.index("initial")] = scenario.initial_vp
            from gwe_fast.games.gwe.reinforcements import setup_replacements
            setup_replacements(self)                                   # 26.34

    # engine arrays ------------------------------------------------------------------------
    def arr(self, name: str) -> np.ndarray:
        a = self.state.extra.get(name)
        if a is None:
            dtype, shape = ENGINE_ARRAYS[name]
            a = self.state.extra[name] = np.zeros(shape(self.scenario), dtype=dtype)
        return a

    def flag(self, unit: int, bit: int) -> bool:
        return bool(self.arr("flags")[unit] & bit)

    def set_flag(self, unit: int, bit: int, on: bool = True) -> None:
        f = self.arr("flags")
        f[unit] = (f[unit] | bit) if on else (f[unit] & ~np.uint16(bit))

    # decisions, dice, log -----------------------------------------------------------------
    def ask(self, kind: str, side: int, options, **context: Any):
        """The chosen option of a decision (a single option is taken without asking)."""
        options = list(options)
        if len(options) == 1:
            return options[0]
        d = Decision(kind, int(side), options, context)
        i = check_choice(d, self.policies[int(side)].choose(d, self, self.rngs[int(side)]))
        if self.events is not None:
            self.events.append(("choice", int(self.state.turn), kind, int(side), i))
        return options[i]

    def roll(self, stream: str, why: str = "") -> int:
        v = self.dice.roll(stream)
        if self.events is not None:
            self.events.append(("die", int(self.state.turn), stream, why, v))
        return v

    def event(self, kind: str, **details: Any) -> None:
        if self.events is not None:
            self.events.append((kind, int(self.state.turn), details))

    # saving and resuming ------------------------------------------------------------------
    def save(self, path) -> None:
        """Write the position with the dice streams and the policies' generators, so that
        ``GweGame.resume`` goes on exactly as this game would (at a phase boundary)."""
        from gwe_fast.dice import snapshot_generator

        st = self.state.copy()
        for name, words in self.dice.snapshot().items():
            st.extra[f"dice:{name}"] = words
        for side, rng in self.rngs.items():
            st.extra[f"policy_rng:{int(side)}"] = snapshot_generator(rng)
        st.extra["seed"] = np.array([self.seed, self.game_index], dtype=np.int64)
        st.save(path)

    @classmethod
    def resume(cls, scenario: Scenario, path, policies: dict[int, Policy] | None = None,
               events: bool = False) -> "GweGame":
        """A game saved by ``save``, ready for ``engine.play`` to go on from where it stopped."""
        from gwe_fast.dice import restore_generator

        st = State.load(path)
        seed, index = (int(x) for x in st.extra.pop("seed"))
        dice = {k.split(":", 1)[1]: st.extra.pop(k) for k in list(st.extra) if k.startswith("dice:")}
        rngs = {int(k.split(":", 1)[1]): st.extra.pop(k) for k in list(st.extra)
                if k.startswith("policy_rng:")}
        game = cls(scenario, seed=seed, game_index=index, policies=policies, state=st,
                   events=events)
        game.dice.restore(dice)
        for side, words in rngs.items():
            restore_generator(game.rngs[side], words)
        return game

    # victory points -----------------------------------------------------------------------
    def add_vp(self, cause: str, vp: int) -> None:
        """Change the Russian VP total now (25.14) and book it under its cause."""
        self.arr("vp_cause")[VP_CAUSES.index(cause)] += vp
        self.state.vp = np.int32(self.state.vp + vp)
