"""The project's scripts (``scripts/``, ``benchmarks/``) loaded from their files, for the
tests of this folder: they are not part of the package."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def load_script(relative: str):
    """The module of the file ``relative`` to the project's root, executed afresh."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
