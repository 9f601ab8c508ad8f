"""The policy interface: the engine asks, a policy picks, the engine checks.

Every choice a player makes is a ``Decision``: its ``kind`` (a dotted name such as
``"gwe.move.unit"``), the deciding ``side``, the legal ``options`` (a non-empty sequence) and
read-only ``context``. A policy returns the *index* of its pick; the engine validates it in
one place (``check_choice``) and applies the option. A policy is handed its own
``numpy.random.Generator`` and never touches the game's dice.

Examples
--------
>>> import numpy as np
>>> d = Decision("demo.pick", side=0, options=("a", "b", "c"))
>>> RandomPolicy().choose(d, None, np.random.default_rng(1)) in (0, 1, 2)
True
>>> check_choice(d, 3)
Traceback (most recent call last):
...
gwe_fast.policies.base.IllegalChoice: policy answered 3 to demo.pick, which has 3 options (0..2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np


class IllegalChoice(Exception):
    """A policy answered something that is not one of the legal options."""


@dataclass(frozen=True)
class Decision:
    kind: str
    side: int
    options: Sequence[Any]
    context: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self):
        if len(self.options) == 0:
            raise ValueError(f"decision {self.kind} offers no option")


def check_choice(decision: Decision, choice: Any) -> int:
    """The one place where a policy's answer is checked: an index into the options."""
    if isinstance(choice, (bool, np.bool_)) or not isinstance(choice, (int, np.integer)):
        raise IllegalChoice(f"policy answered {choice!r} to {decision.kind}; an option index "
                            f"(int) is required")
    n = len(decision.options)
    if not 0 <= int(choice) < n:
        raise IllegalChoice(f"policy answered {choice} to {decision.kind}, which has {n} "
                            f"options (0..{n - 1})")
    return int(choice)


class Policy:
    """Base class. Subclasses override ``choose``; parameters come in as keyword arguments."""

    name = "base"

    def __init__(self, **params: Any):
        self.params = dict(params)

    def choose(self, decision: Decision, game: Any, rng: np.random.Generator) -> int:
        raise NotImplementedError

    def begin_phase(self, view: Any, side: int, phasing: int, phase: int,
                    rng: np.random.Generator) -> None:
        """Called before each phase of the game (``PlayedGame.begin_phase``): this policy
        plays ``side``; ``phasing``'s phase ``phase`` (the engine's code) is about to start.
        ``view`` is the read-only game, ``rng`` this policy's own generator. A policy that
        plans ahead does it here; the default does nothing (and is never called)."""

    def core_answers(self, game: str, kind: str) -> bool:
        """Whether this policy answers every decision of ``kind`` (in ``game``: "gwe", "kb")
        exactly as the game's compiled core answers it for a ladder player, so that the
        core may answer it itself without asking: the same option every time, from the
        position alone, and nothing of the policy's own changed by being asked. False
        unless a policy says so; a subclass that answers otherwise must not inherit a
        True."""
        return False

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.params.items())
        return f"{type(self).__name__}({args})"


def check_params(known: Mapping[str, Any], params: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter in ``known`` (name -> default) with the given values: unknown names
    and non-numbers for numeric defaults are refused (TypeError); ints become floats where the
    default is a float."""
    unknown = sorted(set(params) - set(known))
    if unknown:
        import difflib

        close = sorted({m for u in unknown for m in difflib.get_close_matches(u, known, n=2)})
        hint = f"; did you mean {' or '.join(close)}?" if close else ""
        raise TypeError(f"unknown parameter{'s' if len(unknown) > 1 else ''} "
                        f"{', '.join(unknown)} (known: {', '.join(sorted(known))}){hint}")
    values = {}
    for k, default in known.items():
        v = params.get(k, default)
        if isinstance(default, float) and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        if isinstance(default, (int, float)) and not isinstance(default, bool) and (
                isinstance(v, bool) or not isinstance(v, (int, float))):
            raise TypeError(f"parameter {k} must be a number, not {v!r}")
        values[k] = v
    return values


class RandomPolicy(Policy):
    """A uniformly random legal option at every decision: the baseline. It takes no
    parameters (a subclass takes what it likes, in ``self.params``)."""

    name = "random"

    def __init__(self, **params: Any):
        if params and type(self) is RandomPolicy:
            raise TypeError(f"unknown parameter{'s' if len(params) > 1 else ''} "
                            f"{', '.join(sorted(params))} (random takes none)")
        super().__init__(**params)

    def choose(self, decision: Decision, game: Any, rng: np.random.Generator) -> int:
        return int(rng.integers(len(decision.options)))
