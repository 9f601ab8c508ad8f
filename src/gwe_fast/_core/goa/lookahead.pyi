"""Type stub of the compiled lookahead policy of The Guns of August (see lookahead.pyx)."""

from gwe_fast._core.goa.engine import GoaCore

LOOKAHEAD: int
STRATEGIC: frozenset[str]
WEIGHTS: dict[str, float]
MAX_HORIZON: int
MAX_SAMPLES: int
MAX_OPTIONS: int

def value(core: GoaCore, side: int) -> float: ...
def weigh(core: GoaCore) -> tuple[list[int], list[float], int]: ...
def set_params(
    core: GoaCore, side: int, horizon: int, samples: int, max_options: int, playout: int
) -> None: ...
