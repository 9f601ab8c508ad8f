"""Pure-Python twin of ``gwe_fast._core.search``: the same Dial search, step for step.

The searches keep per-state lists stamped with a generation number, as the compiled kernel
does, so that ``SearchWorkspace`` here goes wrong in the same places if its stamps do.
"""

import numpy as np

from gwe_fast import dtypes

GENERATIONS = 2 ** 32   # the compiled stamps are uint32: the generation wraps round here


def _checked(n, step_cost, sources, source_cost, stop, toll, max_toll):
    """The arguments after ``neighbors`` as plain lists, checked as the compiled kernel does."""
    step_cost = np.asarray(step_cost)
    if step_cost.shape != (n, 6):
        raise ValueError(f"step_cost has shape {step_cost.shape}, expected {(n, 6)}")
    sources = [int(s) for s in np.asarray(sources).reshape(-1)]
    costs = (None if source_cost is None
             else [int(c) for c in np.asarray(source_cost).reshape(-1)])
    if costs is not None and len(costs) != len(sources):
        raise ValueError("source_cost must have one entry per source")
    if any(not 0 <= s < n for s in sources):
        raise IndexError(f"a source is not a cell of a map of {n} cells")
    if costs is not None and any(c < 0 for c in costs):
        raise ValueError("source costs must be >= 0")
    stop = None if stop is None else [int(x) for x in np.asarray(stop).reshape(-1)]
    toll = None if toll is None else [int(x) for x in np.asarray(toll).reshape(-1)]
    if stop is not None and len(stop) != n or toll is not None and len(toll) != n:
        raise ValueError("stop and toll must have one entry per cell")
    if max_toll < 0:
        raise ValueError("max_toll must be >= 0")
    return step_cost.tolist(), sources, costs or [0] * len(sources), stop, toll


def _dial(nbr, cost, n, sources, costs, limit, stop, toll, max_toll, on_exit,
          dist, pred, stamp, gen, touched):
    """Dial's algorithm over the states ``layer * n + cell``.

    ``dist[s]`` and ``pred[s]`` count only where ``stamp[s] == gen``; every state stamped is
    appended to ``touched`` (sources first, in cell order). Returns the states settled.
    """
    for s, c in zip(sources, costs):
        if limit >= 0 and c > limit:
            continue
        if stamp[s] == gen:
            if dist[s] <= c:
                continue   # a source given twice keeps its cheapest cost
        else:
            stamp[s] = gen
            touched.append(s)
        dist[s] = c
        pred[s] = -1
    if not touched:
        return 0
    touched.sort()   # queued in cell order, whatever the order of the sources given
    cur = min(dist[s] for s in touched)
    # the ring spans the largest step and the spread of the source costs (its size does not
    # change the order of settling, see _ring_fit in search.pyx)
    span = max([w for row in cost for w in row if w >= 0] + [0])
    span = max(span, max(dist[s] for s in touched) - cur)
    buckets = [[] for _ in range(span + 1)]   # FIFO queues, read from a moving head
    heads = [0] * (span + 1)
    for s in touched:
        buckets[dist[s] % (span + 1)].append(s)
    pending = len(touched)
    settled = 0
    while pending > 0:
        b = cur % (span + 1)
        if heads[b] == len(buckets[b]):
            buckets[b].clear()
            heads[b] = 0
            cur += 1
            continue
        s = buckets[b][heads[b]]
        heads[b] += 1
        pending -= 1
        if dist[s] != cur:
            continue   # stale entry: the state was improved after this push
        settled += 1
        u, layer = s % n, s // n
        if stop is not None and stop[u] and pred[s] >= 0:
            continue   # entered a stopping cell: it ends the path here
        for d in range(6):
            v = nbr[u][d]
            w = cost[u][d]
            if v < 0 or w < 0:
                continue
            nlayer = layer
            if toll is not None:
                nlayer += toll[u] if on_exit else toll[v]
                if nlayer > max_toll:
                    continue
            nd = cur + w
            if limit >= 0 and nd > limit:
                continue
            if any(stamp[k * n + v] == gen and dist[k * n + v] <= nd for k in range(nlayer + 1)):
                continue   # dominated: as cheap with as few tokens already
            ns = nlayer * n + v
            if stamp[ns] != gen:
                stamp[ns] = gen
                touched.append(ns)
            dist[ns] = nd
            pred[ns] = s
            buckets[nd % (span + 1)].append(ns)
            pending += 1
    return settled


def _neighbor_table(neighbors):
    neighbors = np.asarray(neighbors)
    if neighbors.ndim != 2 or neighbors.shape[1] != 6:
        raise ValueError("neighbors must have shape (n, 6)")
    return neighbors


def bounded_search(neighbors, step_cost, sources, source_cost=None, limit=-1, stop=None,
                   toll=None, max_toll=0, toll_on_exit=False):
    """See ``gwe_fast._core.search.bounded_search``; identical results, predecessors included."""
    neighbors = _neighbor_table(neighbors)
    n = neighbors.shape[0]
    cost, sources, costs, stop, toll = _checked(n, step_cost, sources, source_cost, stop, toll,
                                                max_toll)
    layers = max_toll + 1
    dist = [-1] * (layers * n)
    pred = [-1] * (layers * n)
    _dial(neighbors.tolist(), cost, n, sources, costs, limit, stop, toll, max_toll,
          toll_on_exit, dist, pred, [0] * (layers * n), 1, [])
    return (np.array(dist, dtype=dtypes.DIST).reshape(layers, n),
            np.array(pred, dtype=dtypes.CELL).reshape(layers, n))


class SearchWorkspace:
    """See ``gwe_fast._core.search.SearchWorkspace``: the same stamps, views and results."""

    def __init__(self, neighbors, n_layers=1):
        nb = np.array(_neighbor_table(neighbors), dtype=dtypes.CELL, order="C", copy=True)
        if n_layers < 1:
            raise ValueError("n_layers must be >= 1")
        n = nb.shape[0]
        if nb.size and (nb.min() < -1 or nb.max() >= n):
            raise ValueError(f"neighbors must hold cells 0..{n - 1}, or -1 for no cell")
        nb.flags.writeable = False
        self.neighbors = nb
        self.n_cells = n
        self.n_layers = n_layers
        self._nbr = nb.tolist()
        states = n_layers * n
        self._dist = [0] * states     # stale until stamped, like the compiled buffers
        self._pred = [0] * states
        self._stamp = [0] * states
        self._gen = 1                 # no stamp holds it: nothing reached yet
        self._touched = []
        self._out_dist = np.full((n_layers, n), -1, dtype=dtypes.DIST)
        self._out_pred = np.full((n_layers, n), -1, dtype=dtypes.CELL)
        self._out_dist.flags.writeable = False
        self._out_pred.flags.writeable = False
        self._out_dirty = False

    def run(self, step_cost, sources, source_cost=None, limit=-1, stop=None, toll=None,
            max_toll=0, toll_on_exit=False, copy=False):
        """See ``gwe_fast._core.search.SearchWorkspace.run``."""
        n = self.n_cells
        cost, sources, costs, stop, toll = _checked(n, step_cost, sources, source_cost, stop,
                                                    toll, max_toll)
        if max_toll >= self.n_layers:
            raise ValueError(f"max_toll {max_toll} needs at least {max_toll + 1} layers; "
                             f"this workspace has {self.n_layers}")
        if self._out_dirty:
            # the dense arrays hold the last search: put back -1 exactly where it reached
            self._write(self._touched, -1, -1)
            self._out_dirty = False
        self._touched = []
        self._gen = (self._gen + 1) % GENERATIONS
        if self._gen == 0:
            # after 2**32 searches the numbers come round again: forget every old stamp
            self._stamp = [0] * len(self._stamp)
            self._gen = 1
        _dial(self._nbr, cost, n, sources, costs, limit, stop, toll, max_toll, toll_on_exit,
              self._dist, self._pred, self._stamp, self._gen, self._touched)
        self._write(self._touched, [self._dist[s] for s in self._touched],
                    [self._pred[s] for s in self._touched])
        self._out_dirty = True
        dist, pred = self._out_dist[:max_toll + 1], self._out_pred[:max_toll + 1]
        if copy:
            return dist.copy(), pred.copy()
        return dist, pred

    def _write(self, states, dist, pred):
        # the dense arrays are read-only to everyone else
        self._out_dist.flags.writeable = self._out_pred.flags.writeable = True
        self._out_dist.reshape(-1)[states] = dist
        self._out_pred.reshape(-1)[states] = pred
        self._out_dist.flags.writeable = self._out_pred.flags.writeable = False

    def reached(self):
        """See ``gwe_fast._core.search.SearchWorkspace.reached``."""
        return np.array(self._touched, dtype=dtypes.CELL)

    @property
    def generation(self):
        """The number of the last search (it wraps round after 2**32 searches)."""
        return self._gen

    def _set_generation(self, generation):
        if not 0 < generation < GENERATIONS:
            raise ValueError("the generation must be in 1 .. 2**32 - 1")
        self._gen = generation
