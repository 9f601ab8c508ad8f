"""The interval estimates the runner, sweeps, tournaments and reports quote.

Examples
--------
>>> lo, hi = wilson(45, 100)
>>> round(lo, 3), round(hi, 3)
(0.356, 0.548)
>>> wilson(0, 0)
(0.0, 1.0)
>>> m, lo, hi = mean_ci([1, 2, 3, 4])
>>> m, round(lo, 2), round(hi, 2)
(2.5, 0.45, 4.55)
>>> d, lo, hi = paired_diff([3, 4, 5], [1, 2, 3])
>>> d, lo, hi
(2.0, 2.0, 2.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Z95 = 1.959963984540054

# two-sided 97.5 % quantiles of Student's t for small samples (df 1..30); beyond, the normal
_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
         2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
         2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom (95 % two-sided)."""
    if df < 1:
        return math.inf
    return _T975[df - 1] if df <= len(_T975) else Z95


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default); ``(0, 1)`` when ``n`` is 0.
    A draw may be counted as half a success."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean with its 95 % t interval: ``(mean, low, high)``; a single value has an infinite
    interval."""
    x = np.asarray(values, dtype=float)
    n = x.size
    if n == 0:
        return math.nan, math.nan, math.nan
    m = float(x.mean())
    if n == 1:
        return m, -math.inf, math.inf
    half = t975(n - 1) * float(x.std(ddof=1)) / math.sqrt(n)
    return m, m - half, m + half


def paired_diff(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """Mean of ``a - b`` over paired games (common random numbers) with its 95 % interval."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired samples differ in length: {a.size} and {b.size}")
    return mean_ci(a - b)
