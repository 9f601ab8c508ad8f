"""Shared inputs of the benchmarks: random hex maps with movement costs, built once."""

import numpy as np

from gwe_fast import HexMap


def movement_case(ncols: int, nrows: int, seed: int = 0):
    """A map with random terrain entry costs 1..3, some prohibited hexsides, one source."""
    rng = np.random.default_rng(seed)
    m = HexMap((1, ncols), (1, nrows))
    enter = rng.choice([1, 1, 1, 2, 2, 3], size=m.n_cells).astype(np.int16)
    cost = np.where(m.neighbors >= 0, enter[np.maximum(m.neighbors, 0)], -1).astype(np.int16)
    blocked = rng.random(cost.shape) < 0.03
    cost[blocked] = -1
    # keep hexside costs symmetric in passability, as the rules' blocked hexsides are
    for u, d in np.argwhere(blocked):
        v = m.neighbors[u, d]
        if v >= 0:
            cost[v, (d + 3) % 6] = -1
    source = m.cell(f"{ncols // 2:02d}{nrows // 2:02d}")
    return m, cost, source

