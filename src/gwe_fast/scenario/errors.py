"""Faults found in scenario files, each located by file, key path and (when known) line."""

from __future__ import annotations

from dataclasses import dataclass

#: the ``file`` of a fault in an option value the caller gave (``--option NAME=VALUE`` on the
#: command line, ``options=`` in Python), not in a scenario file; its ``key`` is
#: ``NAME=VALUE``
GIVEN = "<options given>"


@dataclass(frozen=True)
class Fault:
    """One thing wrong with a scenario file.

    ``key`` is a dotted path such as ``unit[12].steps`` or ``terrain.forest[3]``; ``line`` is
    the 1-based line in ``file`` when it could be found.
    """

    file: str
    key: str
    message: str
    line: int | None = None

    def __str__(self) -> str:
        if self.file == GIVEN:
            return f"option {self.key}: {self.message}"
        where = f"{self.file}:{self.line}" if self.line else self.file
        key = f" [{self.key}]" if self.key else ""
        return f"{where}:{key} {self.message}"


class ScenarioError(Exception):
    """A scenario could not be loaded; ``faults`` lists every problem found."""

    def __init__(self, faults: list[Fault]):
        self.faults = list(faults)
        n = len(self.faults)
        head = f"{n} fault{'s' if n != 1 else ''} in scenario files"
        super().__init__(head + ":\n" + "\n".join(f"  {f}" for f in self.faults))
