"""Pure-Python twins of the ``_core`` kernels: readable first, fast never.

Each function has the signature and results of its compiled namesake; the tests compare the
two on random maps, and the engine can run on either (``gwe_fast.kernels``).
"""
