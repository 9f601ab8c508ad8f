"""Choose between the compiled kernels and their pure-Python twins.

``kernels.get()`` returns a namespace with the ``hexgrid``, ``search``, ``board`` and ``play``
modules. The default is the compiled core; ``get("pure")`` (or the environment variable
``GWE_FAST_KERNELS=pure``) runs everything on the twins, which is how the parity tests and
benchmarks compare them.
"""

import os
import threading
import weakref
from types import SimpleNamespace

IMPLEMENTATIONS = ("cython", "pure")


def get(impl: str | None = None) -> SimpleNamespace:
    """Return the kernel modules of ``impl`` ("cython" or "pure")."""
    impl = impl or os.environ.get("GWE_FAST_KERNELS", "cython")
    if impl == "cython":
        from gwe_fast._core import board, hexgrid, play, search
    elif impl == "pure":
        from gwe_fast._pure import board, hexgrid, play, search
    else:
        raise ValueError(f"unknown kernel implementation {impl!r}; choose one of {IMPLEMENTATIONS}")
    return SimpleNamespace(name=impl, hexgrid=hexgrid, search=search, board=board, play=play)


_WORKSPACES = threading.local()


def workspace(hexmap, layers: int = 1):
    """This thread's ``SearchWorkspace`` on ``hexmap`` (of the map's own kernels) with at least
    ``layers`` layers, made on first use and kept while the map lives: the compiled turn loop
    searches in it (a workspace is not shared between threads)."""
    cache = getattr(_WORKSPACES, "by_map", None)
    if cache is None:
        cache = _WORKSPACES.by_map = weakref.WeakKeyDictionary()
    ws = cache.get(hexmap)
    if ws is None or ws.n_layers < layers:
        ws = cache[hexmap] = hexmap.k.search.SearchWorkspace(hexmap.neighbors,
                                                             max(layers, 1))
    return ws
