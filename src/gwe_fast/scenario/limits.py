"""The range of every kind of number a scenario holds, and the dtype that holds it.

A scenario's numbers end up in numpy arrays and Parquet columns of fixed dtypes
(``gwe_fast.dtypes``). Each ``Kind`` below has a range that fits its dtype with room for the
sums the rules make of it (strengths added over a stack, victory points added over a game),
so a number the loader accepts can never overflow an array later. The loader's ``Checker``
and the tables checker (``table_shapes``) both check numbers here, through ``Kind.fault``;
docs/scenarios.md lists the ranges.

>>> COUNT.fault(3) is None
True
>>> COUNT.fault(200)
'is 200, above the greatest allowed value 99 for a count, strength or cost'
>>> TURN.fault(True)
'must be an integer, not a boolean'
>>> MULTIPLIER.fault(float("inf"))
'must be a finite number, not inf'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from gwe_fast import dtypes


def describe(value: Any) -> str:
    """What a TOML value is, in words: ``"a string"``, ``"an array"`` …"""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int):
        return "an integer"
    if isinstance(value, float):
        return "a number with a fraction"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def _fmt(x: float) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


@dataclass(frozen=True)
class Kind:
    """A kind of number: its least and greatest value, whether it must be an integer, and
    the dtype of the arrays that hold it (the range must fit it)."""

    what: str
    lo: float
    hi: float
    dtype: np.dtype
    integer: bool = True

    def __post_init__(self) -> None:
        info = np.iinfo(self.dtype) if self.integer else np.finfo(self.dtype)
        if not info.min <= self.lo <= self.hi <= info.max:
            raise ValueError(f"{self.what}: {self.lo}..{self.hi} does not fit {self.dtype}")

    def fault(self, value: Any, lo: float | None = None, hi: float | None = None) -> str | None:
        """None when ``value`` is a number of this kind within ``lo..hi`` (given bounds narrow
        the kind's own); else what is wrong, as a sentence without its subject."""
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or (self.integer and not isinstance(value, int)):
            return f"must be {'an integer' if self.integer else 'a number'}, not {describe(value)}"
        if isinstance(value, float) and not math.isfinite(value):
            return f"must be a finite number, not {value}"
        if lo is not None and value < lo and lo >= self.lo:
            return f"is {_fmt(value)}, below the least allowed value {_fmt(lo)}"
        if hi is not None and value > hi and hi <= self.hi:
            return f"is {_fmt(value)}, above the greatest allowed value {_fmt(hi)}"
        if value < self.lo:
            return (f"is {_fmt(value)}, below the least allowed value {_fmt(self.lo)} for "
                    f"{self.what}")
        if value > self.hi:
            return (f"is {_fmt(value)}, above the greatest allowed value {_fmt(self.hi)} for "
                    f"{self.what}")
        return None


#: a Game-Turn (``State.turn``, ``UnitTable.arrival_turn``; int16, and a turn plus a delay
#: must still fit)
TURN = Kind("a Game-Turn", 1, 99, dtypes.TURN)
#: printed unit values, stacking points, ranges, costs, counts of steps, depots, markers …
#: (int8 at the narrowest: ``UnitTable.stacking``, ``GweData.supply_range``), small enough
#: that a stack's or a turn's sum fits int16
COUNT = Kind("a count, strength or cost", 0, 99, dtypes.SMALL)
#: a die roll modifier, either sign (int16 arrays of modifiers, summed over causes)
MODIFIER = Kind("a die roll modifier", -99, 99, dtypes.SMALL)
#: the victory points of one cause, place or option (added up over a game into int32)
VP = Kind("the victory points of one cause", -9_999, 9_999, dtypes.VP)
#: a victory point total: the initial VP, the bounds of the levels of victory
VP_TOTAL = Kind("a victory point total", -999_999, 999_999, dtypes.VP)
#: a scenario's version (the int32 column ``scenario_version`` of the results)
VERSION = Kind("a scenario version", 1, 999_999, np.dtype(np.int32))
#: the value of an integer option (written to the results as JSON; int32 for any array)
OPTION_INT = Kind("an integer option", -(2**31), 2**31 - 1, np.dtype(np.int32))
#: a real number in a table: a multiplier of a die roll (float64 arithmetic)
MULTIPLIER = Kind("a multiplier", 0.0, 99.0, np.dtype(np.float64), integer=False)
#: the value of a number option
OPTION_FLOAT = Kind("a number option", -1e9, 1e9, np.dtype(np.float64), integer=False)
#: the scale of a map, kilometres across a hex (drawings only)
HEX_KM = Kind("the width of a hex in kilometres", 0.001, 1000.0, np.dtype(np.float64),
              integer=False)

#: the most counters a scenario may have: ``UnitTable`` indices are int16, and the results'
#: int16 columns sum stacking points (at most 12 a counter) over every counter
MAX_UNITS = 2_000
