"""Whole games played twice and compared: with and without a compiled random segment (the
helpers of the segment kernels' tests, ``test_play_kernel``, ``test_gwe_play_kernel``), and
with and without a game's compiled core (``played_by_core``, ``same_core_game``: the cores'
tests, ``test_kb_core``, ``test_gwe_core``)."""

import numpy as np

from gwe_fast.policies.base import RandomPolicy


def played(driver, engine, sc, seed, compiled, monkeypatch, policies=None):
    """``(game, result, record)`` of game ``seed`` of master seed ``seed``, with events, the
    game's ``engine.COMPILED_RANDOM_MOVES`` set to ``compiled``."""
    monkeypatch.setattr(engine, "COMPILED_RANDOM_MOVES", compiled)
    game = driver.new_game(sc, seed, seed, policies=policies, events=True)
    result = driver.play(game)
    return game, result, driver.record(game)


def same_game(a, b):
    """Two ``played`` games are the same game: record, result, events and final state."""
    (g1, r1, rec1), (g2, r2, rec2) = a, b
    assert rec1 == rec2
    assert r1 == r2
    assert g1.events == g2.events
    assert g1.state.equals(g2.state)


def threads_play_as_alone(driver, sc, games):
    """Games ``0 .. games - 1`` of master seed 12 played by two threads at once are the games
    played alone (the segment kernels run without the GIL, each thread on its own
    workspace)."""
    from concurrent.futures import ThreadPoolExecutor

    def one(i):
        game = driver.new_game(sc, 12, i, events=True)
        result = driver.play(game)
        return result, driver.record(game), game.events, game.state

    alone = [one(i) for i in range(games)]
    with ThreadPoolExecutor(max_workers=2) as pool:
        together = list(pool.map(one, range(games)))
    for (r1, rec1, ev1, st1), (r2, rec2, ev2, st2) in zip(alone, together):
        assert r1 == r2 and rec1 == rec2 and ev1 == ev2
        assert st1.equals(st2)


def played_by_core(game_module, name, sc, index, compiled, policies=None, seed=7):
    """``(result, game)`` of one whole game of the driver ``name``, the game module's
    ``COMPILED_PHASES`` (its compiled core) set to ``compiled``."""
    from gwe_fast.games import driver

    d = driver(name)
    saved = game_module.COMPILED_PHASES
    game_module.COMPILED_PHASES = compiled
    try:
        game = d.new_game(sc, seed, index, policies=policies)
        result = d.play(game)
    finally:
        game_module.COMPILED_PHASES = saved
    assert (game.core is not None) == compiled
    return result, game


def same_core_game(a, b):
    """Two ``played_by_core`` games are the same game: result, per-turn rows, every byte of
    the state, the dice and the policies' generators."""
    (ra, ga), (rb, gb) = a, b
    assert (ra.vp, ra.level, ra.winner) == (rb.vp, rb.level, rb.winner)
    assert ra.per_turn == rb.per_turn
    assert bytes(ga.state.buffer) == bytes(gb.state.buffer)
    assert ga.dice.counts() == gb.dice.counts()
    for name, words in ga.dice.snapshot().items():
        np.testing.assert_array_equal(words, gb.dice.snapshot()[name])
    for side in ga.rngs:
        assert ga.rngs[side].bit_generator.state == gb.rngs[side].bit_generator.state


class DrawingPolicy(RandomPolicy):
    """Picks at random, but is not ``RandomPolicy`` itself: a Python player, whom a core asks
    through the game's ``ask`` (the cores' asked Movement Segments)."""


class AskRecorder:
    """Stands in for ``game.ask``: records each question (kind, side, options, context) and
    passes it on."""

    def __init__(self, ask):
        self.ask, self.questions = ask, []

    def __call__(self, kind, side, options, **context):
        self.questions.append((kind, side, list(options), context))
        return self.ask(kind, side, options, **context)


#: the pairs of ladder policies (Allied, German) the Kaiser's Battle kernels' tests play
KB_LADDER_PAIRS = [("greedy", "greedy"), ("passive", "passive"), ("delay", "greedy")]


def kb_ladder_game(sc, index, allied, central, seed=11):
    """Game ``index`` of master seed ``seed`` of The Kaiser's Battle played whole by two
    ladder policies (``allied``, ``central``: their names), for the tests that wrap a
    policy's steps to compare the policy kernels with the reference at every question."""
    from gwe_fast.games import driver
    from gwe_fast.policies.registry import make_policy

    d = driver("kb")
    game = d.new_game(sc, seed, index,
                      policies={0: make_policy(allied, "kb"), 1: make_policy(central, "kb")})
    d.play(game)
    return game
