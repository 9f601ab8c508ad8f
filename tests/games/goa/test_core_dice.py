"""The core's dice: numpy's SeedSequence computed in C gives the reference's stream states,
and its SplitMix64 draws are the reference's."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwe_fast._core.goa.dice import below_draws, game_states, stream_state
from gwe_fast.games.goa.dice import STREAMS, Stream, seed_state


@pytest.mark.parametrize("seed, index", [(0, 0), (1, 0), (0, 1), (2026, 7), (2 ** 32 - 1, 3),
                                         (2 ** 32, 2 ** 32), (2 ** 64 - 1, 2 ** 40),
                                         (12345678901234, 0)])
def test_the_seeding_in_c_is_numpys(seed, index):
    for name in STREAMS:
        assert stream_state(seed, index, name) == seed_state(seed, index, name)
    assert game_states(seed, index) == tuple(seed_state(seed, index, n) for n in STREAMS)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2 ** 64 - 1), st.integers(0, 2 ** 64 - 1), st.text(min_size=1, max_size=20))
def test_the_seeding_in_c_is_numpys_for_any_seed_index_and_stream(seed, index, name):
    assert stream_state(seed, index, name) == seed_state(seed, index, name)


def test_a_seed_out_of_range_is_refused_in_one_sentence():
    with pytest.raises(ValueError, match="master seed and game index"):
        stream_state(-1, 0, "goa")
    with pytest.raises(ValueError, match="master seed and game index"):
        stream_state(0, 2 ** 64, "goa")


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2 ** 64 - 1), st.lists(st.integers(1, 10_000), min_size=1, max_size=50))
def test_the_draws_in_c_are_the_references(state, ns):
    ref = Stream(state)
    expected = [ref.below(n) for n in ns]
    draws, left = below_draws(state, ns)
    assert draws == expected and left == ref.state


def test_dice_are_uniform_enough():
    draws, _ = below_draws(99, [6] * 60_000)
    counts = np.bincount(draws, minlength=6)
    assert counts.min() > 9_500 and counts.max() < 10_500
