"""Choosing among candidate plans played forward (the ``lookahead`` policies of both games).

Examples
--------
>>> import numpy as np
>>> best_plan(np.array([[1.0, 2.0], [3.0, 3.5], [9.0, 1.0]]), margin=1.0)
1
>>> best_plan(np.array([[1.0, 2.0], [1.5, 2.5]]), margin=1.0)
0
>>> best_plan(np.array([[-np.inf, 2.0], [0.0, 0.0], [1.0, 1.0]]), margin=1.0)
2
"""

from __future__ import annotations

import numpy as np


def best_plan(values: np.ndarray, margin: float) -> int:
    """The plan to play, from ``values[plan, rollout]`` (rollouts on common dice; ``-inf``
    where a play-out failed): plan 0 (the greedy plan) unless another beats it on every
    rollout and by more than ``margin`` on average, in which case the one that beats it by
    most. When the greedy plan's own play-out failed, the plan with the best mean among
    those that never failed."""
    values = np.asarray(values, dtype=float)
    ok = np.isfinite(values).all(axis=1)
    if not ok[0]:
        if not ok.any():
            return 0
        return int(np.argmax(np.where(ok, values.mean(axis=1), -np.inf)))
    best, gain = 0, float(margin)
    for k in range(1, values.shape[0]):
        if not ok[k]:
            continue
        diff = values[k] - values[0]
        if diff.min() > 0 and diff.mean() > gain:
            best, gain = k, float(diff.mean())
    return best
