"""The Kaiser's Battle 4.0 Sequence of Play: 4.1 the Game-Turn (a German then an Allied
Player-Turn), 4.2 the outline A-G, and whole games under random play with the invariants
checked after every phase."""

from __future__ import annotations

import numpy as np
import pytest

from kb_positions import kb_scenario
from gwe_fast.enums import Side
from gwe_fast.games.kb import (air, artillery, breakdown, combat, engine, invariants,
                               reinforcements, weather)
from gwe_fast.games.kb.game import KbGame

OUTLINE_4_2 = ["weather", "air", "reinforcement", "artillery", "german_breakdown",
               "german_movement", "german_combat", "allied_movement", "allied_combat",
               "terminal"]


def test_4_2_the_phases_in_the_order_of_the_outline():
    assert [engine.PHASE_NAMES[p] for p in sorted(engine.PHASE_NAMES)] == OUTLINE_4_2
    assert {engine.PHASE_NAMES[p]: int(s) for p, s in engine.PHASING.items()} == {
        "german_breakdown": Side.CENTRAL, "german_movement": Side.CENTRAL,
        "german_combat": Side.CENTRAL, "allied_movement": Side.ALLIED,
        "allied_combat": Side.ALLIED}


def test_4_1_every_game_turn_a_german_then_an_allied_player_turn(monkeypatch):
    seen = []

    def run_phase(game, phase):
        seen.append((int(game.state.turn), engine.PHASE_NAMES[phase], int(game.state.player)))

    monkeypatch.setattr(engine, "run_phase", run_phase)
    g = KbGame(kb_scenario(), seed=0)
    result = engine.play(g)
    want = []
    for turn in range(1, 11):
        for name in OUTLINE_4_2:
            want.append((turn, name, Side.ALLIED if name.startswith("allied") else Side.CENTRAL))
    assert seen == want
    assert result.turns_played == 10
    assert [(r["turn"], r["side"]) for r in result.per_turn] == [
        (t, s) for t in range(1, 11) for s in ("central", "allied")]


def test_4_2_each_stage_calls_its_procedures_in_order(monkeypatch):
    calls = []

    def rec(name, *keep):
        def f(game, *args):
            calls.append((name,) + tuple(int(a) for a in args[:len(keep)]))
        return f

    for mod, fn in ((weather, "weather_stage"), (air, "air_stage"),
                    (reinforcements, "reinforcement_stage"),
                    (artillery, "counter_battery_phase"), (artillery, "gas_phase"),
                    (artillery, "drumfire_phase"), (breakdown, "breakdown_phase"),
                    (artillery, "gas_removal")):
        monkeypatch.setattr(mod, fn, rec(fn))
    monkeypatch.setattr(air, "deploy_observation", rec("deploy_observation", "side"))
    monkeypatch.setattr(combat, "combat_phase", rec("combat_phase", "side"))
    monkeypatch.setattr(engine, "movement_phase", rec("movement_phase", "side"))
    monkeypatch.setattr(engine, "start_of_turn", rec("start_of_turn"))
    monkeypatch.setattr(engine, "end_of_turn", rec("end_of_turn"))
    g = KbGame(kb_scenario(), seed=0)
    for phase in sorted(engine.PHASE_NAMES):
        engine.run_phase(g, phase)
    G, A = int(Side.CENTRAL), int(Side.ALLIED)
    assert calls == [
        ("start_of_turn",), ("weather_stage",),                        # A
        ("air_stage",),                                                # B 1-3
        ("reinforcement_stage",),                                      # C 1-2
        ("counter_battery_phase",), ("gas_phase",), ("drumfire_phase",),   # D 1-3
        ("breakdown_phase",),                                          # E 1
        ("movement_phase", G),                                         # E 2
        ("deploy_observation", G), ("combat_phase", G),                # E 3
        ("movement_phase", A),                                         # F 1
        ("deploy_observation", A), ("combat_phase", A),                # F 2
        ("gas_removal",), ("end_of_turn",),                            # G
    ]


def test_4_2_c_scheduled_reinforcements_before_service_companies(monkeypatch):
    calls = []
    monkeypatch.setattr(reinforcements, "scheduled_segment", lambda g: calls.append("C1"))
    monkeypatch.setattr(reinforcements, "service_segment", lambda g: calls.append("C2"))
    reinforcements.reinforcement_stage(KbGame(kb_scenario(), seed=0))
    assert calls == ["C1", "C2"]


def test_4_2_e2_first_then_second_segment_then_stacking(monkeypatch):
    from gwe_fast.games.kb import stacking

    calls = []
    monkeypatch.setattr(engine, "movement_segment",
                        lambda g, side, seg: calls.append(("segment", seg)))
    monkeypatch.setattr(stacking, "enforce", lambda g, side: calls.append(("stacking",)))
    monkeypatch.setattr(artillery, "gas_step_losses", lambda g, side: calls.append(("gas",)))
    g = KbGame(kb_scenario(), seed=0)
    g.state.turn = np.int16(3)
    engine.movement_phase(g, Side.CENTRAL)
    assert calls == [("segment", 1), ("segment", 2), ("stacking",), ("gas",)]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_4_0_whole_games_under_random_play_keep_every_invariant(seed):
    phases = []

    def check(game, phase):
        invariants.check(game, phase)
        phases.append((int(game.state.turn), phase))

    g = KbGame(kb_scenario(), seed=seed)
    result = engine.play(g, check=check)
    assert phases == [(t, p) for t in range(1, 11) for p in OUTLINE_4_2]
    assert result.turns_played == 10 and g.rejections == 0
    assert result.level in {"allied_decisive", "allied_substantive", "allied_marginal",
                            "german_marginal", "german_substantive", "german_decisive"}
    assert result.vp == int(g.arr("vp_cause").sum())


def test_4_2_advance_stops_before_a_phase_and_play_goes_on_as_if_never_stopped():
    from gwe_fast.policies.base import RandomPolicy

    def game():
        return KbGame(kb_scenario(), seed=3, game_index=2,
                      policies={0: RandomPolicy(), 1: RandomPolicy()})

    whole = game()
    r1 = engine.play(whole)
    g = game()
    rows = engine.advance(g, until=(4, engine.ALLIED_MOVEMENT))
    assert (int(g.state.turn), int(g.state.phase)) == (4, engine.ALLIED_MOVEMENT)
    assert [(r["turn"], r["side"]) for r in rows][-1] == (4, "central")
    assert len(rows) == 7                       # Game-Turns 1-3 both sides, 4 German
    r2 = engine.play(g)
    assert rows + r2.per_turn == r1.per_turn
    assert (r2.vp, r2.level) == (r1.vp, r1.level) and g.state.equals(whole.state)


# --- the first_player variant (issue 30): the Allied Player-Turn first --------------------------

def allied_first():
    from gwe_fast.runner.sweep import load_cell_scenario

    return load_cell_scenario("kaisers_battle/historical", {},
                              {"scenario.first_player": "allied"})


def test_4_1_first_player_allied_variant_plays_the_allied_player_turn_first(monkeypatch):
    # the variant swaps E and F only: A-D before both Player-Turns, G after them
    seen = []

    def run_phase(game, phase):
        seen.append((int(game.state.turn), engine.PHASE_NAMES[phase], int(game.state.player)))

    monkeypatch.setattr(engine, "run_phase", run_phase)
    sc = allied_first()
    assert sc.data_hash != kb_scenario().data_hash
    assert engine.second_player(sc) == Side.CENTRAL
    assert engine.second_player(kb_scenario()) == Side.ALLIED
    result = engine.play(KbGame(sc, seed=0))
    swapped = OUTLINE_4_2[:4] + OUTLINE_4_2[7:9] + OUTLINE_4_2[4:7] + OUTLINE_4_2[9:]
    assert seen == [(t, name, Side.ALLIED if name.startswith("allied") else Side.CENTRAL)
                    for t in range(1, 11) for name in swapped]
    assert [(r["turn"], r["side"]) for r in result.per_turn] == [
        (t, s) for t in range(1, 11) for s in ("allied", "central")]


def test_4_1_first_player_allied_variant_stops_and_resumes_in_playing_order():
    sc = allied_first()
    g = KbGame(sc, seed=3)
    engine.advance(g, until=(2, engine.GERMAN_BREAKDOWN))
    # stopped after the Allied Player-Turn of Game-Turn 2, before the German one
    assert int(g.state.turn) == 2 and int(g.state.phase) == engine.GERMAN_BREAKDOWN
    whole = KbGame(sc, seed=3)
    a, b = engine.play(g), engine.play(whole)
    assert (a.vp, a.level) == (b.vp, b.level)


@pytest.mark.parametrize("seed", [0, 1])
def test_4_1_first_player_allied_variant_random_games_keep_every_invariant(seed):
    g = KbGame(allied_first(), seed=seed, game_index=seed)
    result = engine.play(g, check=invariants.check)
    assert result.vp == int(g.arr("vp_cause").sum())
