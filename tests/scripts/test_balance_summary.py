"""scripts/balance_summary.py: the study's summary (issue 30)."""

from types import SimpleNamespace

import numpy as np
from script_files import load_script


def _cell(vp, vp_initial):
    n = len(vp)
    return SimpleNamespace(games={"master_seed": np.zeros(n, dtype=np.int64),
                                  "game_index": np.arange(n),
                                  "vp": np.asarray(vp), "vp_initial": np.asarray(vp_initial)},
                           finished=np.ones(n, dtype=bool))


def test_vp_in_play_says_no_game_differs_when_every_pair_is_equal():
    """Scored again, not played again: a town's value at the random floor moves the final VP
    and the start's, never the VP earned in play; the summary says so in words, not as
    +0.0 [+0.0, +0.0]."""
    effect = load_script("scripts/balance_summary.py").effect
    base = _cell([10, 20, 30], [0, 0, 0])
    assert effect(_cell([14, 24, 34], [4, 4, 4]), base) == "no game differs"
    moved = effect(_cell([11, 20, 33], [0, 0, 0]), base)
    assert moved.startswith("+1.3 [") and moved != "no game differs"
