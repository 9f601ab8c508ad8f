"""``GoaCore``'s Python interface: decisions as data (run, the pending decision, choose), the
policy levels, the per-month record and the decision trace; ``GoaGame``'s engine switch."""

from __future__ import annotations

import numpy as np
import pytest

from gwe_fast._core.goa import engine as core
from gwe_fast._core.goa import (LEVEL_EXTERNAL, LEVEL_RANDOM, RUN_DECISION, RUN_MONTH_END,
                                RUN_OVER)
from gwe_fast._core.goa.engine import HISTORY_COLUMNS, GoaCore
from gwe_fast.games.goa import driver
from gwe_fast.games.goa.codes import Kind
from gwe_fast.games.goa.game import ENGINE_VARIABLE, GoaGame, default_engine
from gwe_fast.games.goa.model import GoaState
from gwe_fast.games.goa.scenario import scenario_from_raw
from gwe_fast.games.goa.tables import compile_tables, initial_state

import tiny


@pytest.fixture(scope="module")
def t():
    return compile_tables(tiny.raw(), {"colonies": True, "land": "fronts"})


def test_a_decision_waits_for_a_python_policy(t):
    c = GoaCore(t, seed=1, levels=(LEVEL_EXTERNAL, LEVEL_EXTERNAL))
    assert c.run() == RUN_DECISION and c.pending
    assert c.kind == Kind.TRADE and c.side == 0 and c.secret and c.subject == -1
    opts = c.options
    assert opts.dtype == np.int32 and opts[0] == 0 and len(opts) > 1
    with pytest.raises(ValueError):
        opts[0] = 5                                  # read-only
    with pytest.raises(RuntimeError, match="choose"):
        c.run()
    with pytest.raises(ValueError, match="option index 9999"):
        c.choose(9999)
    c.choose(0)
    assert not c.pending and c.run() == RUN_DECISION
    assert (c.kind, c.side) == (Kind.TRADE, 1)


def test_choose_without_a_decision_is_refused(t):
    c = GoaCore(t, seed=1)
    with pytest.raises(RuntimeError, match="no decision is pending"):
        c.choose(0)


def test_random_players_play_the_whole_game_inside(t):
    c = GoaCore(t, seed=4, game_index=2)
    assert c.play(LEVEL_RANDOM, LEVEL_RANDOM) == RUN_OVER
    assert c.over and c.result > 0 and c.decisions == c.decisions_in_c > 100
    assert c.run() == RUN_OVER                      # nothing more to play


def test_one_side_random_inside_the_other_answered_here(t):
    c = GoaCore(t, seed=4, levels=(LEVEL_EXTERNAL, LEVEL_RANDOM))
    sides = set()
    while c.run() == RUN_DECISION:
        sides.add(c.side)
        c.choose(len(c.options) - 1)
    assert sides == {0} and c.over and c.decisions > c.decisions_in_c > 0


def test_an_unknown_policy_level_is_refused(t):
    with pytest.raises(ValueError, match="no compiled policy at level 5"):
        GoaCore(t, seed=0, levels=(5, 0))


def test_the_core_plays_a_given_state_in_place(t):
    s = initial_state(t)
    c = GoaCore(t, s, seed=8)
    c.play(0, 0)
    assert c.state is s and s.scalars[1] == c.result != 0
    with pytest.raises(ValueError, match="writeable GoaState"):
        GoaCore(t, GoaState(np.zeros(8, np.uint8), []), seed=0)
    with pytest.raises(ValueError, match="seed"):
        GoaCore(t)


def test_the_month_stops_show_every_month_once(t):
    c = GoaCore(t, seed=2, levels=(0, 0), stop_at_month_end=True)
    months = []
    while (status := c.run()) == RUN_MONTH_END:
        months.append(c.month_ended)
    assert status == RUN_OVER
    assert months == list(range(t.first_month, c.month + 1))


def test_the_history_holds_the_driver_rows_of_every_month(t):
    c = GoaCore(t, seed=6, levels=(0, 0), record=True, stop_at_month_end=True)
    expected = []
    while c.run() == RUN_MONTH_END:
        s = c.state
        held = int(sum(1 for k in range(t.n_cities) if t.k_objective[k] and s.city[k] == 1))
        expected.append([driver.month_row(t, s, c.month_ended, k, held)
                         for k in range(t.n_countries)])
    h, held = c.history, c.history_objectives
    assert h.shape[2] == len(HISTORY_COLUMNS)
    for i, rows in enumerate(expected):
        assert held[i] == rows[0]["objectives_held_central"]
        for k, row in enumerate(rows):
            got = dict(zip(HISTORY_COLUMNS, h[i, k].tolist()))
            assert got["side"] == {"allied": 0, "central": 1, "neutral": 2}[row["side"]]
            for name in HISTORY_COLUMNS[1:]:
                assert got[name] == row[name], (i, k, name)
    assert not h[len(expected):].any()               # months not played stay zero


def test_the_trace_lists_every_decision_asked(t):
    c = GoaCore(t, seed=3, levels=(0, 0), trace=True)
    c.run()
    rows = c.trace_rows
    assert rows.shape == (c.decisions, len(core.TRACE_COLUMNS))
    assert (rows[:, 5] > 1).all()                    # only real choices are asked
    assert (rows[:, 6] < rows[:, 5]).all()


def test_games_play_on_the_core_unless_told(monkeypatch):
    sc = scenario_from_raw(tiny.raw())
    monkeypatch.delenv(ENGINE_VARIABLE, raising=False)
    assert default_engine() == "core" and GoaGame(sc).engine == "core"
    monkeypatch.setenv(ENGINE_VARIABLE, "reference")
    assert GoaGame(sc).engine == "reference"
    assert GoaGame(sc, engine="core").engine == "core"
    monkeypatch.setenv(ENGINE_VARIABLE, "turbo")
    with pytest.raises(ValueError, match="GWE_FAST_GOA_ENGINE='turbo' names no engine"):
        GoaGame(sc)
    with pytest.raises(ValueError, match="no engine 'fast'"):
        GoaGame(sc, engine="fast")


def test_forced_dice_play_on_the_reference_which_reads_them():
    sc = scenario_from_raw(tiny.raw())
    g = GoaGame(sc, 1, 0, engine="core")
    g.dice.force([6] * 5)
    assert not g.plays_core
    g.play()
    assert g.state.scalars[1] != 0


def test_the_game_keeps_its_streams_in_step_with_the_core():
    sc = scenario_from_raw(tiny.raw())
    a = GoaGame(sc, 9, 1, engine="core")
    a.play()
    b = GoaGame(sc, 9, 1, engine="reference")
    b.play()
    assert a.dice.state == b.dice.state
    assert [a.policy_streams[s].state for s in (0, 1)] == [b.policy_streams[s].state for s in (0, 1)]


@pytest.mark.parametrize("name", ["gwe_fast._core.goa.engine", "gwe_fast._core.goa.tables",
                                  "gwe_fast._core.goa.dice", "gwe_fast.games.goa.parity"])
def test_docstring_examples_run(name):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
