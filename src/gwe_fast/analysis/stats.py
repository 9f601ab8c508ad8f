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


# --- tests and intervals at any level, for families of comparisons --------------------------

def t_two_sided_p(t: float, df: int) -> float:
    """P(|T| >= |t|) for Student's t with ``df`` (an integer >= 1) degrees of freedom, from the
    closed form of its distribution for integer degrees of freedom.

    >>> round(t_two_sided_p(2.228, 10), 3)
    0.05
    """
    if df < 1:
        return math.nan
    if math.isinf(t):
        return 0.0
    theta = math.atan(abs(t) / math.sqrt(df))
    s, c2 = math.sin(theta), math.cos(theta) ** 2
    if df % 2:                           # odd: 2/pi (theta + sin cos (1 + 2/3 c2 + ...))
        term = total = 1.0
        for k in range(1, (df - 1) // 2):
            term *= c2 * (2 * k) / (2 * k + 1)
            total += term
        inside = (2 / math.pi) * (theta + (s * math.cos(theta) * total if df > 1 else 0.0))
    else:                                # even: sin (1 + 1/2 c2 + 1.3/2.4 c2^2 + ...)
        term = total = 1.0
        for k in range(1, df // 2):
            term *= c2 * (2 * k - 1) / (2 * k)
            total += term
        inside = s * total
    return min(1.0, max(0.0, 1.0 - inside))


def t_quantile(level: float, df: int) -> float:
    """The multiplier of a two-sided ``level`` interval of Student's t (``t975`` for 0.95),
    by bisection on ``t_two_sided_p``.

    >>> round(t_quantile(0.95, 10), 3)
    2.228
    """
    if df < 1:
        return math.inf
    lo, hi = 0.0, 1.0
    while t_two_sided_p(hi, df) > 1 - level:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > 1 - level:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-10:
            break
    return (lo + hi) / 2


def paired_test(a: Sequence[float], b: Sequence[float],
                level: float = 0.95) -> tuple[float, float, float, float]:
    """Mean of ``a - b`` over paired games, its two-sided ``level`` t interval and the p-value
    of the t test that it is 0: ``(mean, low, high, p)``. Differences all equal give a p of
    1 when they are 0 and of 0 otherwise (no spread: the interval is that single value).

    >>> d, lo, hi, p = paired_test([3, 5, 4, 6], [1, 2, 3, 2])
    >>> d, round(lo, 2), round(hi, 2), round(p, 3)
    (2.5, 0.45, 4.55, 0.03)
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        raise ValueError(f"paired samples differ in length: {a.size} and {b.size}")
    d = a - b
    n = d.size
    if n == 0:
        return math.nan, math.nan, math.nan, math.nan
    m = float(d.mean())
    if n == 1:
        return m, -math.inf, math.inf, math.nan
    se = float(d.std(ddof=1)) / math.sqrt(n)
    if se == 0:
        return m, m, m, 1.0 if m == 0 else 0.0
    half = t_quantile(level, n - 1) * se
    return m, m - half, m + half, t_two_sided_p(m / se, n - 1)


def holm(pvalues: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of a family of p-values (family-wise error rate): the
    k-th smallest is multiplied by ``m - k + 1``, made non-decreasing, capped at 1. NaN stays
    NaN and does not count in the family.

    >>> holm([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    """
    p = [float(x) for x in pvalues]
    live = sorted((x, i) for i, x in enumerate(p) if not math.isnan(x))
    m = len(live)
    out = list(p)
    running = 0.0
    for k, (x, i) in enumerate(live):
        running = max(running, min(1.0, (m - k) * x))
        out[i] = float(f"{running:.12g}")   # 12 significant digits: a tiny p stays above 0
    return out
