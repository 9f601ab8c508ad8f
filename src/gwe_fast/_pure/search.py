"""Pure-Python twin of ``gwe_fast._core.search``: the same Dial search, step for step."""

import numpy as np

from gwe_fast import dtypes


def bounded_search(neighbors, step_cost, sources, source_cost=None, limit=-1, stop=None,
                   toll=None, max_toll=0, toll_on_exit=False):
    """See ``gwe_fast._core.search.bounded_search``; identical results, predecessors included."""
    neighbors = np.asarray(neighbors)
    step_cost = np.asarray(step_cost)
    if neighbors.ndim != 2 or neighbors.shape[1] != 6:
        raise ValueError("neighbors must have shape (n, 6)")
    if step_cost.shape != neighbors.shape:
        raise ValueError(f"step_cost has shape {step_cost.shape}, expected {neighbors.shape}")
    n = neighbors.shape[0]
    sources = [int(s) for s in np.asarray(sources).reshape(-1)]
    costs = ([0] * len(sources) if source_cost is None
             else [int(c) for c in np.asarray(source_cost).reshape(-1)])
    if len(costs) != len(sources):
        raise ValueError("source_cost must have one entry per source")
    if any(not 0 <= s < n for s in sources):
        raise IndexError(f"a source is not a cell of a map of {n} cells")
    if any(c < 0 for c in costs):
        raise ValueError("source costs must be >= 0")
    stop = [0] * n if stop is None else [int(x) for x in np.asarray(stop).reshape(-1)]
    toll = [0] * n if toll is None else [int(x) for x in np.asarray(toll).reshape(-1)]
    if len(stop) != n or len(toll) != n:
        raise ValueError("stop and toll must have one entry per cell")
    if max_toll < 0:
        raise ValueError("max_toll must be >= 0")
    layers = max_toll + 1
    nbr = neighbors.tolist()
    cost = step_cost.tolist()
    passable = [w for row in cost for w in row if w >= 0]
    span = max(passable) if passable else 0
    if costs:
        span = max(span, max(costs) - min(costs))  # the queue must span the source costs too
    nb = span + 1

    dist = [-1] * (layers * n)
    pred = [-1] * (layers * n)
    cur = -1
    for s, c in zip(sources, costs):
        if limit >= 0 and c > limit:
            continue
        if dist[s] >= 0 and dist[s] <= c:
            continue
        dist[s] = c
        pred[s] = -1
        if cur < 0 or c < cur:
            cur = c
    buckets = [[] for _ in range(nb)]  # FIFO queues, read from a moving head
    heads = [0] * nb
    pending = 0
    if cur >= 0:
        for s in range(n):
            if dist[s] >= 0:
                buckets[dist[s] % nb].append(s)
                pending += 1
    while pending > 0:
        b = cur % nb
        if heads[b] == len(buckets[b]):
            buckets[b].clear()
            heads[b] = 0
            cur += 1
            continue
        s = buckets[b][heads[b]]
        heads[b] += 1
        pending -= 1
        if dist[s] != cur:
            continue
        u, layer = s % n, s // n
        if stop[u] and pred[s] >= 0:
            continue
        for d in range(6):
            v = nbr[u][d]
            if v < 0 or cost[u][d] < 0:
                continue
            nlayer = layer + (toll[u] if toll_on_exit else toll[v])
            if nlayer > max_toll:
                continue
            nd = cur + cost[u][d]
            if limit >= 0 and nd > limit:
                continue
            if any(0 <= dist[k * n + v] <= nd for k in range(nlayer + 1)):
                continue  # dominated: as cheap with as few tokens already
            ns = nlayer * n + v
            dist[ns] = nd
            pred[ns] = s
            buckets[nd % nb].append(ns)
            pending += 1
    return (np.array(dist, dtype=dtypes.DIST).reshape(layers, n),
            np.array(pred, dtype=dtypes.CELL).reshape(layers, n))
