"""The ``lookahead`` policy of The Guns of August: each strategic decision weighed by playing
the game on from every option, inside the compiled core (``_core/goa/lookahead.pyx``).

At a decision of its side of a strategic kind (the roll trade, gifts, invasions, economic
mobilization and conscription, unrestricted submarine warfare, land orders, supply and land
units by sea, marines, garrisons, Abyssinia: ``STRATEGIC``, or the ``kinds`` named) the core
copies the game once per option and play-out, takes the option and lets the ``playout``
policy play both sides for the rest of the month and ``horizon`` months more (by default to
the end of the war), ``samples`` times on different dice, the same dice for every option. An
end is worth the VP margin the game scores (``value=vp``: the objective cities the Central
Powers hold, to them) or, for short horizons, ``position_value`` (``value=position``).

The play-out policy's own pick is played unless another option beats it on the same dice:
its mean paired gain is the largest, above ``margin``, and more than ``confidence`` standard
errors; with ``max_samples`` an option whose gain is promising (half the confidence) but not
confirmed gets twice the play-outs, up to ``max_samples``. So the lookahead is its play-out
policy, improved where the play-outs show it, not the luckiest of a few noisy means. When
there are more than ``max_options`` options it weighs the play-out policy's pick and
``max_options - 1`` others drawn at random. Every other decision is the play-out policy's.
Its random draws come from the side's own policy stream, so a game is the same for the same
seed.

The whole search runs in C (no Python is called during a play-out), so the policy plays only
on the compiled core: on the reference engine (``GWE_FAST_GOA_ENGINE=reference``), or in a
game that records its decisions as events, it refuses in one sentence.

Examples
--------
>>> p = GoaLookaheadPolicy(horizon=2, samples=1)
>>> p.p["horizon"], p.p["samples"], p.p["playout"]
(2, 1, 'greedy')
>>> GoaLookaheadPolicy(samples=0)
Traceback (most recent call last):
...
TypeError: parameter samples must be 1 .. 256 play-outs per option, not 0
>>> GoaLookaheadPolicy(playout="lookahead")
Traceback (most recent call last):
...
TypeError: parameter playout must be one of greedy, historical, passive, random (a policy the compiled core plays), not 'lookahead'
"""

from __future__ import annotations

from typing import Any

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, NEUTRAL
from gwe_fast.policies.base import Decision
from gwe_fast.policies.goa.greedy import GoaPolicy

#: the play-out policy when none is given: the compiled greedy (``ladder.GREEDY``), the
#: stronger player to play the play-outs with
DEFAULT_PLAYOUT = "greedy"


def position_value(t, s, side: int) -> float:
    """What a position is worth to ``side``: the compiled ``position_value`` of
    ``_core/goa/lookahead.pyx`` (which the play-outs use), restated readably over the state's
    arrays; the weights are its ``WEIGHTS`` and its docstring says why each. A test holds the
    two together."""
    from gwe_fast._core.goa.lookahead import WEIGHTS as W
    from gwe_fast.games.goa.codes import Morale, Result
    from gwe_fast.games.goa.model import RESULT
    from gwe_fast.games.goa.world import enemy_held_cities, objectives_held

    result = int(s.scalars[RESULT])
    v = 0.0
    if result in (Result.CENTRAL_OBJECTIVES, Result.CENTRAL_CONQUEST):
        v -= W["result"]
    elif result in (Result.ALLIED_OBJECTIVES, Result.ALLIED_CONQUEST, Result.BASE_ALLIED):
        v += W["result"]
    v += W["objective"] * (objectives_held(t, s, ALLIED) - objectives_held(t, s, CENTRAL))
    month = int(s.month)
    for c in range(t.n_countries):
        if s.side[c] == NEUTRAL:
            continue
        w = max(0.1, (float(t.c_personnel[c]) + float(t.c_supply[c])) / 10.0)
        if s.conquered[c] >= 0:
            cv = -W["conquered"] * w
        else:
            cv = W["entry"] * w * (0.5 if s.limited[c] else 1.0)
            cv -= W["city"] * enemy_held_cities(t, s, c)
            if s.demoralized[c] >= month:
                cv -= W["demoralized"] * w
            strength = int(s.army[c]) + int(s.abroad[c].sum())
            cv += W["strength"] * strength + W["supply"] * int(s.supply[c])
        r = s.morale_results[c]
        cv -= w * (W["rr"] * int(r[Morale.RR]) + W["d1"] * int(r[Morale.D1])
                   + W["d2"] * int(r[Morale.D2]))
        v += cv if s.side[c] == ALLIED else -cv
    if t.options["colonies"]:
        v += W["colony"] * (int((s.colony == ALLIED).sum()) - int((s.colony == CENTRAL).sum()))
    if t.options["variable_entry"]:
        v += W["lean"] * _entry_lean(t, s)
    return v if side == ALLIED else -v


def _entry_worth(t, c: int, side: int, limited: bool) -> float:
    from gwe_fast._core.goa.lookahead import WEIGHTS as W

    if side == NEUTRAL:
        return 0.0
    w = max(0.1, (float(t.c_personnel[c]) + float(t.c_supply[c])) / 10.0)
    e = W["entry"] * w * (0.5 if limited else 1.0)
    return e if side == ALLIED else -e


def _entry_lean(t, s) -> float:
    """What the next entry roll of each country that rolls changes in the entry terms, on
    average over the die with today's modifiers (to the Allies)."""
    from gwe_fast.games.goa import entry

    lean = 0.0
    for c in entry.rolls_for_entry(t, s):
        m = entry.entry_modifier(t, s, c)
        after = sum(_entry_worth(t, c, *entry.entry_outcome(t, s, c, d + m)) for d in range(1, 7))
        lean += after / 6.0 - _entry_worth(t, c, int(s.side[c]), bool(s.limited[c]))
    return lean


def playout_levels() -> dict[str, int]:
    """The policies the play-outs may be played by, by name: the random policy and each
    ladder policy compiled into the core (``_core/goa/ladder.pyx``), with their levels."""
    from gwe_fast._core.goa import LEVEL_RANDOM, ladder

    out = {"random": LEVEL_RANDOM}
    for name in ("passive", "greedy", "historical"):
        level = getattr(ladder, name.upper(), None)
        if isinstance(level, int):
            out[name] = level
    return out


class GoaLookaheadPolicy(GoaPolicy):
    """Strategic decisions weighed by play-outs in the compiled core; the others the play-out
    policy's.

    Parameters (docs/goa_play.md has the table): ``horizon`` (months played after the
    decision's month, 0-72), ``samples`` (play-outs per option, 1-256), ``max_options``
    (options weighed at most, 1-256), ``playout`` (the policy that plays both sides in the
    play-outs: ``random`` or a ladder policy compiled into the core), ``margin`` and
    ``confidence`` (the gain over the play-out policy's pick another option must show),
    ``value`` (``vp`` or ``position``), ``max_samples`` (more play-outs for a promising gain;
    0: none) and ``kinds`` (``all``, or strategic kinds joined by ``+``)."""

    name = "lookahead"
    #: why it cannot answer in Python (``GoaGame.play`` refuses a game it cannot play)
    CORE_ONLY = ("the lookahead policy of The Guns of August plays only inside the compiled "
                 "core, not on the reference engine (GWE_FAST_GOA_ENGINE=reference) nor in a "
                 "game that records its decisions as events")
    PARAMS = {"horizon": 72, "samples": 4, "max_options": 4, "playout": DEFAULT_PLAYOUT,
              "margin": 0.0, "confidence": 1.0, "value": "vp", "max_samples": 0,
              "kinds": "all"}

    def __init__(self, **params: Any):
        super().__init__(**params)
        from gwe_fast._core.goa import lookahead

        p = self.p
        for key, low, high, what in (("horizon", 0, lookahead.MAX_HORIZON, "months"),
                                     ("samples", 1, lookahead.MAX_SAMPLES,
                                      "play-outs per option"),
                                     ("max_options", 1, lookahead.MAX_OPTIONS, "options"),
                                     ("max_samples", 0, lookahead.MAX_SAMPLES,
                                      "play-outs per option")):
            v = p[key]
            if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
                raise TypeError(f"parameter {key} must be {low} .. {high} {what}, not {v!r}")
        levels = playout_levels()
        if p["playout"] not in levels:
            raise TypeError(f"parameter playout must be one of {', '.join(sorted(levels))} "
                            f"(a policy the compiled core plays), not {p['playout']!r}")
        self._playout = levels[p["playout"]]
        for key in ("margin", "confidence"):
            v = p[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0:
                raise TypeError(f"parameter {key} must be a number at least 0, not {v!r}")
        kinds = p["kinds"]
        self._kinds = None if kinds == "all" else kinds.split("+")
        if not isinstance(kinds, str) or any(k not in lookahead.STRATEGIC
                                             for k in self._kinds or ()):
            raise TypeError(f"parameter kinds must be all or strategic decision kinds joined "
                            f"by + ({'+'.join(sorted(lookahead.STRATEGIC))}), not {kinds!r}")
        if p["value"] not in lookahead.VALUES:
            raise TypeError(f"parameter value must be one of {', '.join(lookahead.VALUES)}, "
                            f"not {p['value']!r}")

    def check_playable(self) -> None:
        """Refuse (TypeError, one sentence) when games play on the reference engine
        (``GWE_FAST_GOA_ENGINE``): the command line asks before it plays any game."""
        from gwe_fast.games.goa.game import default_engine

        if default_engine() != "core":
            raise TypeError("it plays only inside the compiled core, and "
                            f"GWE_FAST_GOA_ENGINE={default_engine()} plays games on the "
                            "reference engine")

    def core_level(self) -> int:
        """The ladder level of the compiled lookahead (``_core/goa/lookahead.pyx``)."""
        from gwe_fast._core.goa.lookahead import LOOKAHEAD

        return LOOKAHEAD

    def core_setup(self, core, side: int) -> None:
        """Give the core this policy's parameters for ``side`` (``GoaGame.play`` calls it once
        the core is made)."""
        from gwe_fast._core.goa.lookahead import set_params

        p = self.p
        from gwe_fast._core.goa.lookahead import VALUES

        set_params(core, int(side), p["horizon"], p["samples"], p["max_options"],
                   self._playout, float(p["margin"]), float(p["confidence"]),
                   VALUES[p["value"]], p["max_samples"], self._kinds)

    def choose(self, decision: Decision, game: Any, rng) -> int:
        raise RuntimeError(self.CORE_ONLY)
