"""Seeded named dice streams: reproducible, independent, forceable."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gwe_fast import dice
from gwe_fast._core.hexdice import pcg64_seed_words
from gwe_fast.dice import BLOCK, STREAMS, GameDice, stream_code


def rolls(d, stream, n):
    return [d.roll(stream) for _ in range(n)]


def test_same_seed_and_index_give_the_same_dice():
    assert rolls(GameDice(5, 17), "combat", 600) == rolls(GameDice(5, 17), "combat", 600)


def test_games_and_seeds_differ():
    base = rolls(GameDice(5, 17), "combat", 50)
    assert rolls(GameDice(5, 18), "combat", 50) != base
    assert rolls(GameDice(6, 17), "combat", 50) != base


def test_streams_are_independent_of_each_other():
    a = GameDice(1, 0)
    rolls(a, "attrition", 37)                 # a variant that rolled more attrition dice …
    b = GameDice(1, 0)
    assert rolls(a, "combat", 40) == rolls(b, "combat", 40)   # … sees the same combat dice


def test_dice_are_fair_and_in_range():
    d = GameDice(123, 4)
    values = np.array(rolls(d, "combat", 6 * BLOCK * 10))
    assert values.min() == 1 and values.max() == 6
    counts = np.bincount(values)[1:]
    assert (abs(counts / values.size - 1 / 6) < 0.02).all()


def test_forced_dice_come_first_then_the_stream_resumes():
    d = GameDice(9, 9)
    expected = rolls(GameDice(9, 9), "command", 3)
    d.force("command", [6, 6, 1])
    assert rolls(d, "command", 6) == [6, 6, 1] + expected
    with pytest.raises(ValueError, match="1..6"):
        d.force("command", [7])
    with pytest.raises(ValueError, match="unknown dice stream"):
        d.roll("luck")


def test_policy_generators_are_separate_and_reproducible():
    d = GameDice(2, 3)
    x = d.policy_rng("allied").random(4)
    np.testing.assert_array_equal(x, GameDice(2, 3).policy_rng("allied").random(4))
    assert not np.array_equal(x, d.policy_rng("central").random(4))
    assert rolls(d, "combat", 10) == rolls(GameDice(2, 3), "combat", 10)


def test_stream_codes_are_fixed():
    # changing these codes would change every recorded game: they are part of the format
    assert stream_code("combat") == 2370954136
    assert len({stream_code(s) for s in STREAMS}) == len(STREAMS)


def test_snapshot_and_restore_resume_every_stream_exactly():
    a = GameDice(4, 2)
    rolls(a, "combat", 300)          # past a block boundary
    rolls(a, "attrition", 5)
    a.force("command", [6, 6])
    saved = a.snapshot()
    expected = {s: rolls(a, s, 400) for s in ("combat", "attrition", "command")}
    b = GameDice(4, 2)
    b.restore(saved)
    assert {s: rolls(b, s, 400) for s in ("combat", "attrition", "command")} == expected
    assert b.stream("combat").rolled == 700


# The generators' seeds: numpy's SeedSequence, its words computed by the compiled kernel

WORDY = st.one_of(st.integers(0, 2 ** 32 + 3), st.integers(0, 2 ** 130))


@settings(max_examples=400, deadline=None)
@given(WORDY, st.lists(WORDY, max_size=6).map(tuple))
def test_the_seed_words_are_numpys_seed_sequence(entropy, spawn_key):
    want = np.random.SeedSequence(entropy, spawn_key=spawn_key).generate_state(4, np.uint64)
    np.testing.assert_array_equal(pcg64_seed_words(entropy, spawn_key), want)


def test_a_games_generators_are_those_of_its_seed_sequences():
    d = GameDice(12, 345)
    for name in ("combat", "weather"):
        want = np.random.Generator(np.random.PCG64(dice.game_seed_sequence(12, 345, name)))
        assert d.stream(name)._gen.bit_generator.state == want.bit_generator.state
    want = np.random.Generator(np.random.PCG64(dice.game_seed_sequence(12, 345, "policy-allied")))
    assert d.policy_rng("allied").integers(1 << 60, size=8).tolist() == \
        want.integers(1 << 60, size=8).tolist()


def test_the_preset_seed_hands_any_other_request_to_the_seed_sequence():
    gen = dice._generator(3, 4, "combat")
    seq = gen.bit_generator.seed_seq
    real = dice.game_seed_sequence(3, 4, "combat")
    for n, dtype in ((4, np.uint64), (8, np.uint32), (3, np.uint64)):
        np.testing.assert_array_equal(seq.generate_state(n, dtype), real.generate_state(n, dtype))


def test_bad_seeds_are_refused():
    with pytest.raises(ValueError, match="non-negative"):
        pcg64_seed_words(-1)
    with pytest.raises(ValueError, match="non-negative"):
        pcg64_seed_words(1, (2, -3))
    with pytest.raises(ValueError, match="too much entropy"):
        pcg64_seed_words(2 ** (32 * 70))
    with pytest.raises(ValueError, match=">= 0"):
        GameDice(-1, 0).stream("combat")
    with pytest.raises(ValueError, match="not both"):
        dice.DiceStream()
