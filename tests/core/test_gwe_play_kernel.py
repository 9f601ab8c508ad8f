"""The compiled Movement Segment of The Great War in the East (``gwe_random_moves`` in
``gwe_fast._core.play``, twin in ``gwe_fast._pure.play``).

* in the positions of played games the kernel gives its twin's log, paths, arrays and draws,
  and the calls cover every action (moves, entraining, rail moves, detraining) and every way
  back to the engine (a unit moved by the engine, 10.52 after a move);
* a random player's segments played by the kernel (``engine.random_segment``) make the same
  games as the engine's Python loop (``movement_segment``): events, records, final states and
  the number of options of every decision, with track limits on and off, in both scenarios;
* what the roster holds for each unit is what the engine's unit-by-unit rules say.
"""

import copy

import numpy as np
import pytest
from played_games import played, same_game, threads_play_as_alone

import gwe_fast.games.gwe.game as gwe_game
from gwe_fast import load_scenario
from gwe_fast._core import play as cy
from gwe_fast._pure import play as py
from gwe_fast._pure import search as pure_search
from gwe_fast.enums import Side
from gwe_fast.games.gwe import driver, engine, movement, rail
from gwe_fast.policies.registry import make_policy
from gwe_fast.state import Status

BRUSILOV = "brusilov/historical"


@pytest.fixture(scope="module")
def historical():
    return load_scenario(BRUSILOV)


class _Recorder:
    """Stands for a map's ``play`` module: keeps a copy of the arguments (and generator) of
    each ``gwe_random_moves`` call, then passes it on to the compiled kernel; ``decisions``
    notes how many options each decision of the kernel's log had (and of each
    ``gwe_random_allocation``'s draws)."""

    def __init__(self, module, decisions=None):
        self._module = module
        self.calls, self.statuses = [], []
        self.decisions = decisions

    def __getattr__(self, name):
        return getattr(self._module, name)

    def gwe_random_allocation(self, rng, cover, stacking, left, status, picks):
        n = self._module.gwe_random_allocation(rng, cover, stacking, left, status, picks)
        if self.decisions is not None:
            self.decisions.extend(("gwe.command.allocate", k) for k, _ in picks[:n].tolist())
        return n

    def gwe_random_moves(self, rng, *args):
        self.calls.append((copy.deepcopy(rng), [a.copy() if isinstance(a, np.ndarray) else a
                                                for a in args]))
        out = self._module.gwe_random_moves(rng, *args)
        self.statuses.append(out[1])
        if self.decisions is not None:
            log = args[-2]
            for decision, n, *_ in log[:out[0]].tolist():
                if n > 1:
                    kind = "gwe.move.unit" if decision == py.PICK else "gwe.move.action"
                    self.decisions.append((kind, n))
        return out


def _run(impl, ws, rng, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    args[0] = ws
    return impl.gwe_random_moves(rng, *args), args


@pytest.mark.parametrize("seed", range(2))
def test_gwe_random_moves_twin_equal_in_played_positions(seed, monkeypatch):
    """The kernel and its twin agree in every call of two random games, played with the
    core off (with it, the core plays a random player's segment without calling the
    kernel from Python)."""
    sc = load_scenario(BRUSILOV)
    rec = _Recorder(sc.map.k.play)
    monkeypatch.setattr(sc.map.k, "play", rec)
    monkeypatch.setattr(gwe_game, "COMPILED_PHASES", False)
    driver.play(driver.new_game(sc, seed, seed))
    assert len(rec.calls) >= 40
    ws_cy = sc.map.k.search.SearchWorkspace(sc.map.neighbors)
    ws_py = pure_search.SearchWorkspace(sc.map.neighbors)
    actions = set()
    for rng, args in rec.calls[::2] if seed else rec.calls:      # the twin is slow
        r1, r2 = copy.deepcopy(rng), copy.deepcopy(rng)
        out1, args1 = _run(cy, ws_cy, r1, args)
        out2, args2 = _run(py, ws_py, r2, args)
        assert out1 == out2
        rows, used = out1[0], out1[3]
        assert np.array_equal(args1[-2][:rows], args2[-2][:rows])            # the log
        assert np.array_equal(args1[-1][:used], args2[-1][:used])            # the paths
        for a, b in zip(args1[1:-2], args2[1:-2]):
            if isinstance(a, np.ndarray):
                assert np.array_equal(a, b)     # track, done, cells, status, flags, spent ...
        assert r1.bit_generator.state == r2.bit_generator.state
        actions.update(args1[-2][:rows][args1[-2][:rows, 0] == py.ACTION, 4].tolist())
    assert actions == {py.STOP, py.MOVE, py.ENTRAIN, py.RAIL, py.DETRAIN}
    assert {py.GWE_DONE, py.GWE_HANDOVER} <= set(rec.statuses)


def test_gwe_random_moves_refuses_bad_arguments(historical):
    sc = historical
    game = driver.new_game(sc, 1, 1)
    n, st = sc.map.n_cells, game.state
    ws = sc.map.k.search.SearchWorkspace(sc.map.neighbors)
    unit = int(np.flatnonzero((st.unit_status & Status.ON_MAP) != 0)[0])
    roster = np.zeros((1, cy.ROSTER_COLUMNS), np.int32)
    roster[0, cy.R_UNIT], roster[0, cy.R_ALLOWANCE] = unit, 4
    args = dict(tables=np.ones((1, n, 6), np.int16), rail_table=np.ones((n, 6), np.int16),
                limits=np.full((n, 6, 2), -1, np.int16), track_used=np.zeros((n, 6, 2), np.int16),
                track_on=True, roster=roster, done=np.zeros(sc.units.n, np.uint8),
                hexes=np.zeros((cy.HEX_ROWS, n), np.uint8), threats=np.zeros(0, np.int32),
                own_combat=np.zeros(0, np.int32), current=-1, side=0, rate=12, capacity=6,
                rail_used=np.zeros(2, np.int16), unit_cell=st.unit_cell.copy(),
                unit_status=st.unit_status.copy(), hex_last=st.hex_last.copy(),
                flags=game.arr("flags").copy(), spent=game.arr("mp_spent").copy(),
                rail_hexes=game.arr("rail_hexes").copy(),
                log=np.zeros((4, cy.GWE_LOG_COLUMNS), np.int32), paths=np.zeros(64, np.int32))

    def call(**change):
        a = {k: v.copy() if isinstance(v, np.ndarray) else v
             for k, v in dict(args, **change).items()}
        return cy.gwe_random_moves(np.random.default_rng(0), ws, *a.values())

    call()                                                      # as given, it plays
    cells = st.unit_cell.copy()
    cells[unit] = -1
    with pytest.raises(ValueError, match="not on the map"):
        call(unit_cell=cells)
    bad = roster.copy()
    bad[0, cy.R_TABLE] = 1                                      # one table only
    with pytest.raises(ValueError, match="no step-cost table"):
        call(roster=bad)
    with pytest.raises(ValueError, match="may go on moving"):
        call(current=unit + 1)
    with pytest.raises(ValueError, match="off the map"):
        call(threats=np.array([n], np.int32))
    with pytest.raises(ValueError, match="hexes must be"):
        call(hexes=np.zeros((cy.HEX_ROWS - 1, n), np.uint8))
    with pytest.raises(ValueError, match="rail_used must hold two sides"):
        call(rail_used=np.zeros(3, np.int16))


# --- whole games -------------------------------------------------------------------------------

def _played(sc, seed, compiled, monkeypatch, policies=None):
    return played(driver, engine, sc, seed, compiled, monkeypatch, policies)


_same_game = same_game


@pytest.mark.parametrize("seed", range(3))
def test_random_segments_play_the_loops_game(historical, seed, monkeypatch):
    fast = _played(historical, seed, True, monkeypatch)
    slow = _played(historical, seed, False, monkeypatch)
    _same_game(fast, slow)
    kinds = {e[0] for e in fast[0].events}
    assert {"move", "entrain", "rail_move", "detrain"} <= kinds


@pytest.mark.parametrize("options", [{"track_limits": False}, {"more_supply_rail": True}],
                         ids=["no-track-limits", "more-rail"])
def test_random_segments_play_the_loops_game_with_options(options, monkeypatch):
    sc = load_scenario(BRUSILOV, options)
    _same_game(_played(sc, 4, True, monkeypatch), _played(sc, 4, False, monkeypatch))


def test_attack_on_schedule_plays_the_loops_game(monkeypatch):
    sc = load_scenario("brusilov/attack_on_schedule")
    _same_game(_played(sc, 2, True, monkeypatch), _played(sc, 2, False, monkeypatch))


def test_random_against_greedy_plays_the_loops_game(historical, monkeypatch):
    # only the random side's segments go to the kernel; the greedy side asks as before
    for side in (Side.ALLIED, Side.CENTRAL):
        policies = {int(side): make_policy("greedy")}
        fast = _played(historical, 5, True, monkeypatch, policies)
        slow = _played(historical, 5, False, monkeypatch, policies)
        _same_game(fast, slow)


@pytest.mark.slow
def test_random_segments_on_the_twins_play_the_loops_game(monkeypatch):
    sc = load_scenario(BRUSILOV, impl="pure")
    assert sc.map.k.play is py
    _same_game(_played(sc, 1, True, monkeypatch), _played(sc, 1, False, monkeypatch))


@pytest.mark.parametrize("seed", range(6))
def test_every_decision_has_the_loops_options(seed, monkeypatch):
    # the same number of options at every decision of a Movement Segment, not only the same
    # games: a rule of the kernel that offers one option too many or too few changes the
    # count even where the draw happens to pick the same index
    sc = load_scenario(BRUSILOV)

    def segments(compiled):
        asked = []
        monkeypatch.setattr(engine, "COMPILED_RANDOM_MOVES", compiled)
        rec = _Recorder(sc.map.k.play, asked)
        monkeypatch.setattr(sc.map.k, "play", rec)
        game = driver.new_game(sc, 30 + seed, seed, events=True)
        ask = game.ask

        def noting(kind, side, options, **context):     # the decisions Python asks
            options = list(options)
            if len(options) > 1:
                asked.append((kind, len(options)))
            return ask(kind, side, options, **context)

        game.ask = noting
        driver.play(game)
        monkeypatch.undo()
        return asked, game, rec.statuses

    fast, g1, statuses = segments(True)
    slow, g2, _ = segments(False)
    assert fast == slow
    assert g1.events == g2.events and g1.state.equals(g2.state)
    assert sum(k.startswith("gwe.move.") for k, _ in fast) > 1000
    assert statuses.count(py.GWE_HANDOVER) > 10


def test_ten_fifty_two_after_a_kernel_move(historical, monkeypatch):
    # an enemy HQ alone next to the hexes the moving units can reach: the kernel hands back
    # after the move that threatens it, and the engine displaces it as the loop does
    def position():
        game = driver.new_game(historical, 9, 9, events=True)
        engine.advance(game, until=engine.position(historical, 3, int(Side.ALLIED),
                                                    engine.MOVEMENT))
        st, u = game.state, historical.units
        on = (st.unit_status & Status.ON_MAP) != 0
        hqs = np.flatnonzero(on & (u.side == int(Side.CENTRAL)) & (u.utype == engine._HQ))
        russians = np.flatnonzero(on & (u.side == int(Side.ALLIED)) & (u.utype != engine._HQ))
        # each Central HQ two hexes from a Russian unit, alone
        nb = historical.map.neighbors
        for h, r in zip(hqs, russians):
            c = int(st.unit_cell[r])
            a = int(next(w for w in nb[c] if w >= 0))
            b = int(next(w for w in nb[a] if w >= 0 and w != c))
            st.unit_cell[h] = b
        return game

    moved = 0
    for compiled in (True, False):
        monkeypatch.setattr(engine, "COMPILED_RANDOM_MOVES", compiled)
        rec = _Recorder(historical.map.k.play)
        monkeypatch.setattr(historical.map.k, "play", rec)
        game = position()
        engine.run_phase(game, int(Side.ALLIED), engine.MOVEMENT)
        monkeypatch.undo()
        if compiled:
            fast, moved = game, rec.statuses.count(py.GWE_MOVED)
        else:
            slow = game
    assert fast.events == slow.events
    assert fast.state.equals(slow.state)
    assert moved > 0
    assert any(e[0] == "hq_displaced" for e in fast.events)


# --- the roster against the engine's rules, unit by unit -----------------------------------------

def test_roster_holds_what_the_rules_say(historical, monkeypatch):
    # at the start of every random segment of a game, for each unit the kernel moves: its
    # Movement Allowance (9.21, 10.35, 19.42), its step costs (movement.step_costs), and
    # entraining as rail.can_entrain says once the hex, the points spent and the capacity
    # left are added to what the roster holds
    # (played with the core off, which builds its roster in C without engine._roster)
    from gwe_fast.games.gwe.zoc import controlled, occupied

    monkeypatch.setattr(gwe_game, "COMPILED_PHASES", False)
    play = historical.map.k.play
    seen = {"units": 0, "halved": 0, "never": 0, "may": 0}
    roster_of = engine._roster

    def checking(game, side):
        roster, keys = roster_of(game, side)
        sc, st = game.scenario, game.state
        assert roster[:, play.R_UNIT].tolist() == engine.movable_units(game, side, set())
        ezoc = controlled(sc, st, 1 - side)
        blocked = {h: occupied(sc, st, 1 - side, hq_only_counts=h).tobytes() for h in (0, 1)}
        room = rail.capacity_left(game, side)
        for row in roster.tolist():
            unit = row[play.R_UNIT]
            if row[play.R_TRAITS] & play.T_HANDOVER:
                continue
            seen["units"] += 1
            ma = movement.movement_allowance(sc, st, unit)
            assert row[play.R_ALLOWANCE] == ma
            seen["halved"] += ma < int(movement.printed_values(sc, st, unit)[2])
            key = keys[row[play.R_TABLE]]
            table = movement._cost_table(sc, key // 2, False, blocked[key % 2], ezoc.tobytes())
            assert np.array_equal(table, movement.step_costs(sc, st, unit))
            if st.unit_status[unit] & Status.ENTRAINED:
                continue
            tcr, cell = row[play.R_ENTRAIN_TCR], int(st.unit_cell[unit])
            spent = int(game.arr("mp_spent")[unit])
            may = (tcr > 0 and rail.friendly_rail_hexes(sc, side)[cell]
                   and (tcr == 1 or not ezoc[cell])
                   and (spent + tcr <= ma if ma >= tcr else spent == 0)
                   and (row[play.R_TRAITS] & play.T_HQ or row[play.R_STACKING] <= room))
            assert bool(may) == rail.can_entrain(game, unit)
            seen["never"] += tcr == 0
            seen["may"] += bool(may)
        return roster, keys

    monkeypatch.setattr(engine, "_roster", checking)
    driver.play(driver.new_game(historical, 3, 3))
    assert seen["units"] > 500 and seen["halved"] > 0
    assert seen["never"] > 0 and seen["may"] > 0


def test_roster_kernel_gives_its_twins_roster(historical, monkeypatch):
    # at the start of every random segment of a game (the opening turn's 18.1 among them),
    # the kernel and its twin write the same roster and keys; bad arguments are refused
    # (played with the core off, which calls the roster's C function itself)
    monkeypatch.setattr(gwe_game, "COMPILED_PHASES", False)
    calls = []

    class Recorder:
        def __getattr__(self, name):
            return getattr(cy, name)

        def gwe_roster(self, *args):
            calls.append([a.copy() if isinstance(a, np.ndarray) else a for a in args])
            return cy.gwe_roster(*args)

    monkeypatch.setattr(historical.map.k, "play", Recorder())
    driver.play(driver.new_game(historical, 4, 4))
    monkeypatch.undo()
    assert len(calls) > 20 and any(c[11] for c in calls)
    seen = {"halved": 0, "never": 0, "handover": 0, "hq": 0, "keys": 0}
    for args in calls:
        out = []
        for impl in (cy, py):
            a = [x.copy() if isinstance(x, np.ndarray) else x for x in args]
            n = impl.gwe_roster(*a)
            out.append((n, a[-2], a[-1][:n]))
        (n1, r1, k1), (n2, r2, k2) = out
        assert n1 == n2 and np.array_equal(r1, r2) and np.array_equal(k1, k2)
        units, step, values = args[0], args[1], args[4]
        seen["halved"] += int((r1[:, cy.R_ALLOWANCE] < values[units, step[units], 2]).sum())
        seen["never"] += int((r1[:, cy.R_ENTRAIN_TCR] == 0).sum())
        seen["handover"] += int((r1[:, cy.R_TRAITS] & cy.T_HANDOVER != 0).sum())
        seen["hq"] += int((r1[:, cy.R_TRAITS] & cy.T_HQ != 0).sum())
        seen["keys"] = max(seen["keys"], n1)
    assert all(v > 0 for v in seen.values()), seen
    bad = [x.copy() if isinstance(x, np.ndarray) else x for x in calls[0]]
    bad[-1] = np.zeros(1, np.int32)                       # no room for the keys
    for impl in (cy, py):
        with pytest.raises(ValueError):
            impl.gwe_roster(*bad)


def test_games_in_threads_play_as_alone(historical):
    # the segment kernel runs without the GIL on a workspace of its thread's own
    threads_play_as_alone(driver, historical, 3)
