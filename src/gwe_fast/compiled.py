"""Which of gwe_fast's Python modules run compiled, and the rule that keeps them honest.

The rules and the policies (``games/``, ``policies/``, ``game.py``, ``state.py``, ``dice.py``,
``hexmap.py``, ``kernels.py``) are plain Python. The build also compiles each of them with
Cython exactly as it stands: no declarations, the same code and the same semantics, run
without the interpreter's dispatch. ``setup.py`` lists them (``RULES``) and writes
``_compiled.json`` beside this file: each module it compiled, with the SHA-256 of the source it
compiled. (``GWE_FAST_COMPILE_RULES=0`` at build time compiles none of them.)

A compiled module is used only while its source is the one it was compiled from. A module that
has both a source file and a compiled file runs from its source when:

* the source changed since the build (an edit in an editable install takes effect at once, as
  it would without compilation; rebuild to compile it again);
* the manifest does not list it (a compiled file left behind by an older build);
* ``GWE_FAST_INTERPRETED=1`` is set: every module runs from its source, for profilers that
  read Python frames (cProfile, py-spy) and for debuggers.

The kernels in ``_core/`` are not concerned: they have no Python source.

``install()`` (called by ``gwe_fast/__init__.py`` before anything else is imported) puts the
finder first on ``sys.meta_path``; ``status()`` says how each module runs and ``summary()``
says it in one line (``gwe bench`` prints it).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

#: the manifest the build writes beside this file
MANIFEST = "_compiled.json"
#: set to 1 to run every module from its source
INTERPRETED_ENV = "GWE_FAST_INTERPRETED"
_PACKAGE = __name__.rpartition(".")[0]
_HERE = Path(__file__).resolve().parent


def read_manifest(directory: Path = _HERE) -> dict[str, str]:
    """``{module name: SHA-256 of its source when compiled}`` from the build's manifest;
    empty without one, or when it cannot be read (then every module runs from its source)."""
    try:
        data = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
        modules = data["modules"]
    except (OSError, ValueError, KeyError, TypeError):
        return {}
    if not isinstance(modules, dict):
        return {}
    return {str(k): str(v) for k, v in modules.items()}


def source_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, as the build computes it."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


class SourceWhenChanged:
    """A ``sys.meta_path`` finder for gwe_fast's modules that have both a source file and a
    compiled file: it hands out the source's spec whenever the compiled file may not be used
    (see the module docstring), and otherwise leaves the import to the usual finders, which
    prefer the compiled file. ``reasons`` says why each module it redirected runs from its
    source."""

    def __init__(self, manifest: dict[str, str], interpreted: bool, package: str = _PACKAGE):
        self.manifest = manifest
        self.interpreted = interpreted
        self.prefix = package + "."
        self.reasons: dict[str, str] = {}

    def find_spec(self, fullname, path=None, target=None):
        if not fullname.startswith(self.prefix) or not path:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            source = Path(folder) / f"{leaf}.py"
            if source.is_file():
                break
        else:
            return None
        if not any((source.parent / f"{leaf}{s}").is_file()
                   for s in importlib.machinery.EXTENSION_SUFFIXES):
            return None                                  # nothing compiled: the usual import
        digest = self.manifest.get(fullname)
        if self.interpreted:
            why = f"{INTERPRETED_ENV}=1"
        elif digest is None:
            why = "not compiled by the last build"
        else:
            try:
                if source_digest(source) == digest:
                    return None                          # the compiled module is current
            except OSError:
                return None
            why = "source changed since the build"
        self.reasons[fullname] = why
        return importlib.util.spec_from_file_location(fullname, source)


_FINDER: SourceWhenChanged | None = None


def install() -> SourceWhenChanged:
    """Put the finder first on ``sys.meta_path`` (once per process) and return it."""
    global _FINDER
    if _FINDER is None:
        _FINDER = SourceWhenChanged(read_manifest(),
                                    os.environ.get(INTERPRETED_ENV, "") == "1")
        sys.meta_path.insert(0, _FINDER)
    return _FINDER


def status() -> dict[str, str]:
    """Each module the build compiled and how it runs in this process: ``"compiled"``, or why
    it runs from its source, or ``"not imported"``. Empty when the build compiled none."""
    finder = install()
    out = {}
    for name in sorted(finder.manifest):
        module = sys.modules.get(name)
        if module is None:
            out[name] = "not imported"
        elif str(getattr(module, "__file__", "")).endswith(
                tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            out[name] = "compiled"
        else:
            out[name] = finder.reasons.get(name, "from its source")
    return out


def summary() -> str:
    """One line on how the rules and policies modules run, for reports."""
    st = status()
    if not st:
        return "rules and policies interpreted (the build compiled none)"
    imported = {k: v for k, v in st.items() if v != "not imported"}
    compiled = [k for k, v in imported.items() if v == "compiled"]
    other = sorted(k for k, v in imported.items() if v != "compiled")
    line = f"rules and policies: {len(compiled)} of {len(imported)} imported modules compiled"
    if other:
        whys = sorted({imported[k] for k in other})
        line += f"; {len(other)} from source ({', '.join(whys)})"
    return line
