"""Compiled kernels of gwe_fast (Cython). Each kernel has a pure-Python twin in ``gwe_fast._pure``."""
