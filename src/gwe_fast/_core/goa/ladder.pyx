# cython: language_level=3
"""The Guns of August's ladder policies answering inside the compiled core.

Each is a ``chooser_t`` (``engine.pxd``) registered at a ladder level when this module is
imported, and is the compiled twin of a Python policy of ``policies/goa`` (the parity tests,
``tests/games/goa/test_core_ladder.py``, play the same games with either):

* ``PASSIVE`` (level 1): ``GoaPassivePolicy``: option 0 where there is one, else -1
  ('none'), else the first option.

``greedy`` and ``historical`` still answer in Python (issue 27, item 3).

Examples
--------
>>> from gwe_fast._core.goa.ladder import PASSIVE
>>> PASSIVE
1
"""

from gwe_fast._core.goa.engine cimport Core, register_chooser

#: the ladder level of each compiled policy (``GoaCore(levels=...)``)
PASSIVE = 1


cdef int passive_choose(Core* k, int side) noexcept nogil:
    # GoaPolicy.default: decline (0, else -1) where the options allow it, else the first
    cdef int i
    for i in range(k.n_opts):
        if k.opts[i] == 0:
            return i
    for i in range(k.n_opts):
        if k.opts[i] == -1:
            return i
    return 0


if register_chooser(PASSIVE, passive_choose) != 0:
    raise RuntimeError("the compiled core refused the passive policy's ladder level")
