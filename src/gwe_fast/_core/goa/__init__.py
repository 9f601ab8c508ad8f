"""The compiled core of The Guns of August (Cython).

* ``codes.pxd``: the integer codes of ``games/goa/codes.py`` as ``cdef enum``s;
* ``tables``: ``CoreTables``, every array of a ``GoaTables`` as a typed C record, with the
  per-scenario lists the rules read (each country's ports and cities, each place's sea
  areas ...), built once per scenario; ``GoaS``, the state's arrays as typed pointers into
  the one buffer of a ``GoaState``;
* ``rules``: every rule of the reference engine once, as ``noexcept nogil`` C functions
  (the position facts of ``world.py``, the option generators, the rules' effects), for the
  engine and for policies written in C;
* ``engine``: ``GoaCore``, the month as a resumable C state machine: it runs until a
  decision belongs to a player who answers in Python, offers the legal options as integer
  codes and continues from the chosen index.

The reference engine (``games/goa/engine.py``) is the readable statement of the rules; the
parity tests (``tests/games/goa/test_core_parity.py``) hold the two together decision by
decision, die by die and byte by byte.
"""

#: who answers a side's decisions (``GoaCore(levels=...)``): a Python policy (``run()`` returns
#: with the decision pending), the random policy inside the core; ladder levels 1.. are
#: compiled policies registered with ``engine.register_chooser`` (C)
LEVEL_EXTERNAL, LEVEL_RANDOM = -1, 0
#: what ``GoaCore.run()`` stopped on
RUN_OVER, RUN_DECISION, RUN_MONTH_END = 0, 1, 2
