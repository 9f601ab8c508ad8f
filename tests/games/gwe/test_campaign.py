"""Whole campaigns under the random policy: they finish, every invariant holds at every phase
end, and a game replays exactly from its seed."""

import pytest

from gwe_fast import load_scenario
from gwe_fast.games.gwe import engine, invariants
from gwe_fast.games.gwe.game import GweGame

SEEDS = range(6)


@pytest.fixture(scope="module")
def historical():
    return load_scenario("brusilov/historical")


@pytest.mark.parametrize("seed", SEEDS)
def test_random_campaigns_finish_with_every_invariant_holding(historical, seed):
    g = GweGame(historical, seed=seed, game_index=seed)
    phases = []

    def check(game, where):
        invariants.check(game, where)
        phases.append(where)

    result = engine.play(g, check=check)
    assert len(phases) == 4 * 2 * historical.n_turns
    assert result.level in {b["level"] for b in historical.tables["victory_levels"]["band"]}
    assert result.vp == int(g.state.vp) == int(g.arr("vp_cause").sum())
    assert len(result.per_turn) == 2 * historical.n_turns


def test_a_game_replays_exactly_from_its_seed(historical):
    a = GweGame(historical, seed=11, game_index=3, events=True)
    b = GweGame(historical, seed=11, game_index=3, events=True)
    ra, rb = engine.play(a), engine.play(b)
    assert ra.vp == rb.vp and ra.per_turn == rb.per_turn
    assert a.events == b.events and a.state.equals(b.state)
    c = GweGame(historical, seed=11, game_index=4)
    engine.play(c)
    assert not c.state.equals(a.state)


def test_the_engine_on_the_pure_python_twins_plays_the_same_games(historical):
    pure = load_scenario("brusilov/historical", impl="pure")
    for seed in (0, 7):
        a = GweGame(historical, seed=seed, game_index=seed, events=True)
        b = GweGame(pure, seed=seed, game_index=seed, events=True)
        ra, rb = engine.play(a), engine.play(b)
        assert ra.per_turn == rb.per_turn and ra.vp == rb.vp
        assert a.events == b.events and a.state.equals(b.state)


class _Stop(Exception):
    pass


def test_a_game_saved_at_a_phase_end_resumes_exactly(historical, tmp_path):
    full = GweGame(historical, seed=5, game_index=2)
    end = engine.play(full)
    path = tmp_path / "turn3.npz"
    part = GweGame(historical, seed=5, game_index=2)

    def stop_after_turn_3_combat(game, where):
        if int(game.state.turn) == 3 and where == "combat":
            game.save(path)
            raise _Stop

    with pytest.raises(_Stop):
        engine.play(part, check=stop_after_turn_3_combat)
    resumed = GweGame.resume(historical, path)
    assert int(resumed.state.turn) == 3 and int(resumed.state.phase) == engine.REPLACEMENT
    rest = engine.play(resumed)
    assert rest.vp == end.vp and rest.level == end.level
    assert resumed.state.equals(full.state)
    assert rest.per_turn == end.per_turn[-len(rest.per_turn):]


def test_4_0_first_player_central_variant_puts_the_central_player_turn_first():
    # Standard Rules 4.0: the Exclusive Rules name the first player (26.1: the Russian);
    # the scenario value first_player swaps the two Player-Turns of every Game-Turn
    from gwe_fast.runner.sweep import load_cell_scenario

    sc = load_cell_scenario("brusilov/historical", {}, {"scenario.first_player": "central"})
    g = GweGame(sc, seed=2, game_index=2)
    order = []

    def check(game, where):
        invariants.check(game, where)
        if where == "movement":
            order.append((int(game.state.turn), int(game.state.player)))

    result = engine.play(g, check=check)
    assert order == [(t, s) for t in range(1, 15) for s in (1, 0)]
    assert [(r["turn"], r["side"]) for r in result.per_turn][:2] == [(1, "central"),
                                                                   (1, "allied")]
    assert result.vp == int(g.arr("vp_cause").sum())
