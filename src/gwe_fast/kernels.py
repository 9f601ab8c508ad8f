"""Choose between the compiled kernels and their pure-Python twins.

``kernels.get()`` returns a namespace with the ``hexgrid``, ``search``, ``board`` and ``play``
modules. The default is the compiled core; ``get("pure")`` (or the environment variable
``GWE_FAST_KERNELS=pure``) runs everything on the twins, which is how the parity tests and
benchmarks compare them.
"""

import os
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
