"""The compiled turn loop (``gwe_fast._core.play``) and its twin (``gwe_fast._pure.play``).

* ``draw`` and ``draws`` read from a generator exactly what ``Generator.integers(n)`` would,
  leaving it in the same state;
* ``kb_random_moves`` gives the twin's log, moves and draws in the positions of played games;
* a random player's Movement Segments played by the kernel (``engine.random_segment``) make
  the same games as the engine's Python loop (``movement_segment``): events, records and
  final states, on both kernel sets, with units leaving the map (20.2) and the 17.1 limits.
"""

import copy

import numpy as np
import pytest
from played_games import played, same_game, threads_play_as_alone

from gwe_fast import load_scenario
from gwe_fast._core import play as cy
from gwe_fast._pure import play as py
from gwe_fast.dice import GameDice
from gwe_fast.enums import Side
from gwe_fast.games.kb import driver, engine
from gwe_fast.policies.registry import make_policy
from gwe_fast.state import Status

KB = "kaisers_battle/historical"


@pytest.fixture(scope="module")
def historical():
    return load_scenario(KB)


# --- the draw ---------------------------------------------------------------------------------

def draw_sizes(seed):
    """3,000 numbers of options: some 1 (no draw, as ask() asks nobody), some 2, some past 32
    bits (another branch of numpy's)."""
    ns = np.random.default_rng(seed).integers(1, 400, size=3000)
    ns[::5] = 1
    ns[::7] = 2
    ns[::97] = 2**33 + 7
    return ns


@pytest.mark.parametrize("impl", [cy, py], ids=["cython", "pure"])
@pytest.mark.parametrize("seed", range(4))
def test_draws_are_generator_integers(impl, seed):
    ns = draw_sizes(seed)
    ours = GameDice(seed, 3).policy_rng("allied")
    ref = GameDice(seed, 3).policy_rng("allied")
    got = impl.draws(ours, ns)
    want = [0 if n == 1 else int(ref.integers(n)) for n in ns.tolist()]
    assert got.tolist() == want
    assert ours.bit_generator.state == ref.bit_generator.state     # left where numpy leaves it
    assert int(ours.integers(1000)) == int(ref.integers(1000))


@pytest.mark.parametrize("impl", [cy, py], ids=["cython", "pure"])
@pytest.mark.parametrize("seed", range(4))
def test_draw_is_generator_integers(impl, seed):
    ns = draw_sizes(seed)
    ours = GameDice(seed, 4).policy_rng("central")
    ref = GameDice(seed, 4).policy_rng("central")
    got = [impl.draw(ours, n) for n in ns.tolist()]
    want = [0 if n == 1 else int(ref.integers(n)) for n in ns.tolist()]
    assert got == want and all(type(i) is int for i in got)
    assert ours.bit_generator.state == ref.bit_generator.state     # left where numpy leaves it
    assert impl.draw(ours, 1000) == int(ref.integers(1000))


@pytest.mark.parametrize("top", [50, 4095, 4096, 100_000])
def test_nth_smallest_is_sorted_order(top):
    """A random player's pick among n destinations is the k-th in cell order: the kernel's
    selection (a set of bits for cells below 4,096, a partition above) reads what sorting
    reads, for every k, on maps small and large."""
    rng = np.random.default_rng(top)
    for n in (1, 2, 7, 64, 65, 300):
        cells = rng.choice(top + 1, size=min(n, top + 1), replace=False).astype(np.int32)
        want = np.sort(cells)
        for k in range(len(cells)):
            assert cy.nth_smallest(rng.permutation(cells), k) == want[k]
    with pytest.raises(ValueError):
        cy.nth_smallest(np.array([3, 1], dtype=np.int32), 2)


@pytest.mark.parametrize("impl", [cy, py], ids=["cython", "pure"])
def test_draws_refuse_no_option(impl):
    with pytest.raises(ValueError):
        impl.draws(np.random.default_rng(0), [3, 0])
    with pytest.raises(ValueError):
        impl.draw(np.random.default_rng(0), 0)


# --- the kernel against its twin -------------------------------------------------------------

class _Recorder:
    """Stands for a map's ``play`` module: passes every call of ``kb_random_moves`` on to the
    compiled kernel, keeping a copy of its arguments (and of the generator) first."""

    def __init__(self, module):
        self._module = module
        self.calls = []

    def __getattr__(self, name):
        return getattr(self._module, name)

    def kb_random_moves(self, rng, *args):
        keep = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        self.calls.append((copy.deepcopy(rng), keep))
        return self._module.kb_random_moves(rng, *args)


def _run(impl, ws, rng, args):
    args = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    args[0] = ws
    rows, status = impl.kb_random_moves(rng, *args)
    return rows, status, args


@pytest.mark.parametrize("seed", range(3))
def test_kb_random_moves_twin_equal_in_played_positions(seed, monkeypatch):
    import gwe_fast.games.kb.game as kb_game

    sc = load_scenario(KB)
    rec = _Recorder(sc.map.k.play)
    monkeypatch.setattr(sc.map.k, "play", rec)
    monkeypatch.setattr(kb_game, "COMPILED_PHASES", False)   # the Python engine's segments
    driver.play(driver.new_game(sc, seed, seed))
    assert len(rec.calls) >= 40                   # both sides, both segments, every turn
    ws_cy = sc.map.k.search.SearchWorkspace(sc.map.neighbors)
    from gwe_fast._pure import search as pure_search
    ws_py = pure_search.SearchWorkspace(sc.map.neighbors)
    moves = 0
    for rng, args in rec.calls:
        r1, r2 = copy.deepcopy(rng), copy.deepcopy(rng)
        rows1, st1, out1 = _run(cy, ws_cy, r1, args)
        rows2, st2, out2 = _run(py, ws_py, r2, args)
        assert (rows1, st1) == (rows2, st2)
        log1, log2 = out1[-1][:rows1], out2[-1][:rows2]
        assert np.array_equal(log1, log2)
        moves += int((log1[:, 6] != py.STAY).sum())
        for a, b in zip(out1[1:-1], out2[1:-1]):
            if isinstance(a, np.ndarray):
                assert np.array_equal(a, b)       # quota, done, cells, hex_last, flags
        assert np.array_equal(out1[1], args[1])   # the open step costs are left as they were
        assert r1.bit_generator.state == r2.bit_generator.state
    assert moves > 100


def test_kb_random_moves_refuses_bad_arguments(historical):
    sc = historical
    game = driver.new_game(sc, 1, 1)
    ws = sc.map.k.search.SearchWorkspace(sc.map.neighbors)
    n = sc.map.n_cells
    st = game.state
    args = dict(base=np.zeros((n, 6), np.int16), closed=np.zeros(n, np.uint8),
                ezoc=np.zeros(n, np.uint8), second=False,
                units=np.array([0], np.int32), allowance=np.array([4], np.int32),
                slot=np.array([-1], np.int8), quota=np.full(4, -1, np.int16),
                done=np.zeros(1, np.uint8), exits=np.zeros(0, np.int32),
                enter=np.ones(n, np.int32), side=0, unit_cell=st.unit_cell.copy(),
                hex_last=st.hex_last.copy(), flags=game.arr("flags").copy(), moved=1,
                log=np.zeros((2, cy.LOG_COLUMNS), np.int32))
    unit_cell = args["unit_cell"]
    unit_cell[0] = -1                              # a unit off the map cannot be moved
    with pytest.raises(ValueError, match="not a unit on the map"):
        cy.kb_random_moves(np.random.default_rng(0), ws, *args.values())
    unit_cell[0] = 5
    args["log"] = np.zeros((1, cy.LOG_COLUMNS), np.int32)       # no room for two rows
    with pytest.raises(ValueError, match="do not agree"):
        cy.kb_random_moves(np.random.default_rng(0), ws, *args.values())
    args["log"] = np.zeros((2, cy.LOG_COLUMNS), np.int32)
    args["exits"] = np.array([n], np.int32)
    with pytest.raises(ValueError, match="off the map"):
        cy.kb_random_moves(np.random.default_rng(0), ws, *args.values())


# --- whole games -------------------------------------------------------------------------------

def _played(sc, seed, compiled, monkeypatch, policies=None):
    return played(driver, engine, sc, seed, compiled, monkeypatch, policies)


_same_game = same_game


@pytest.mark.parametrize("seed", range(4))
def test_random_segments_play_the_loops_game(historical, seed, monkeypatch):
    fast = _played(historical, seed, True, monkeypatch)
    slow = _played(historical, seed, False, monkeypatch)
    _same_game(fast, slow)
    kinds = {e[0] for e in fast[0].events}
    assert {"move", "quotas"} <= kinds            # units moved; 17.1 limits were rolled


def test_random_against_greedy_plays_the_loops_game(historical, monkeypatch):
    # only the random side's segments go to the kernel; the greedy side asks as before
    for side in (Side.ALLIED, Side.CENTRAL):
        policies = {int(side): make_policy("greedy")}
        fast = _played(historical, 5, True, monkeypatch, policies)
        slow = _played(historical, 5, False, monkeypatch, policies)
        _same_game(fast, slow)


@pytest.mark.slow
def test_random_segments_on_the_twins_play_the_loops_game(monkeypatch):
    sc = load_scenario(KB, impl="pure")
    assert sc.map.k.play is py
    _same_game(_played(sc, 2, True, monkeypatch), _played(sc, 2, False, monkeypatch))


def _on_the_edge(sc, seed):
    """A game on Game-Turn 3 with German units on every other western edge hex (20.2) and
    Allied units on some of the hexes between, so that some start in an enemy zone of control
    (5.13 on leaving) and some edge hexes may be entered but not left."""
    game = driver.new_game(sc, seed, seed, events=True)
    st = game.state
    st.turn = np.int16(3)
    edge = np.flatnonzero(game.data.exit_edge)
    on = (st.unit_status & Status.ON_MAP) != 0
    german = np.flatnonzero(on & (sc.units.side == int(Side.CENTRAL)))[:14]
    allied = np.flatnonzero(on & (sc.units.side == int(Side.ALLIED)))[:4]
    st.unit_cell[german] = edge[::2][:german.size]
    st.unit_cell[allied] = edge[3::6][:allied.size]
    return game


class _Counting(_Recorder):
    """The ``play`` module, noting how many options each decision of the kernel's log had."""

    def kb_random_moves(self, rng, *args):
        rows, status = self._module.kb_random_moves(rng, *args)
        for pick, offered, unit, to, n_to, dest, kind in args[-1][:rows].tolist():
            self.calls.append(("kb.move.unit", offered))
            if unit >= 0 and n_to > 1:
                self.calls.append(("kb.move.to", n_to))
        return rows, status


def test_units_leave_the_map_as_in_the_loop(monkeypatch):
    # the same events and positions, and the same number of options at every decision: a
    # wrong exit rule changes the options even where the draw happens to pick the same index
    sc = load_scenario(KB)
    exits = 0
    for seed in range(16):
        asked = []
        monkeypatch.setattr(engine, "COMPILED_RANDOM_MOVES", False)
        slow = _on_the_edge(sc, seed)
        ask = slow.ask

        def noting(kind, side, options, **context):     # the decisions the loop asks
            options = list(options)
            if len(options) > 1:
                asked.append((kind, len(options)))
            return ask(kind, side, options, **context)

        slow.ask = noting
        engine.movement_phase(slow, int(Side.CENTRAL))
        monkeypatch.undo()
        counting = _Counting(sc.map.k.play)
        monkeypatch.setattr(sc.map.k, "play", counting)
        fast = _on_the_edge(sc, seed)
        engine.movement_phase(fast, int(Side.CENTRAL))
        monkeypatch.undo()
        assert counting.calls == [a for a in asked if a[0].startswith("kb.move.")]
        assert fast.events == slow.events
        assert fast.state.equals(slow.state)
        assert fast.rngs[1].bit_generator.state == slow.rngs[1].bit_generator.state
        exits += sum(e[0] == "exit" for e in fast.events)
    assert exits > 0


def test_quota_slots_are_quota_slot(historical):
    # the 17.1 limit of every unit on Game-Turns 1 and 2 (and none after), as random_segment
    # hands them to the kernel, against the engine's quota_slot unit by unit
    game = driver.new_game(historical, 4, 4)
    seen = set()
    for turn, phase in ((1, engine.ALLIED_MOVEMENT), (2, engine.GERMAN_MOVEMENT),
                        (2, engine.ALLIED_MOVEMENT), (3, engine.GERMAN_MOVEMENT)):
        engine.advance(game, until=(turn, phase))
        every = np.arange(historical.units.n)
        want = [-1 if (q := engine.quota_slot(game, int(u))) is None else q for u in every]
        assert engine.quota_slots(game, every).tolist() == want
        seen.update(want)
    assert {-1, engine.Q_GERMAN, engine.Q_ALLIED_FIRST, engine.Q_ALLIED_SECOND} <= seen


def test_allowances_are_allowance(historical):
    # the Movement Allowance of every unit in both segments (5.22), service companies (15.24)
    # and reduced units included, as random_segment hands them to the kernel, against the
    # engine's allowance unit by unit
    from gwe_fast.games.kb import movement, units
    from gwe_fast.games.kb.game import Flag

    game = driver.new_game(historical, 6, 6)
    seen = set()
    for turn in (3, 6, 9):
        engine.advance(game, until=(turn, engine.ALLIED_MOVEMENT))
        every = np.arange(historical.units.n)
        flags = game.arr("flags")
        seen.update(("service" if flags[u] & Flag.SERVICE else "step", int(game.state.unit_step[u]))
                    for u in every)
        for segment in (movement.FIRST, movement.SECOND):
            want = [movement.allowance(game, int(u), segment) for u in every]
            assert movement.allowances(game, every, segment).tolist() == want
        # and the Stacking Points the per-turn rows and 7.21 sum the same way
        assert units.stacking_each(game, every).tolist() == [units.stacking(game, int(u))
                                                             for u in every]
    assert {("step", 0), ("step", 1)} <= seen and any(k == "service" for k, _ in seen)


def test_games_in_threads_play_as_alone(historical):
    # the segment kernel runs without the GIL on a workspace of its thread's own
    threads_play_as_alone(driver, historical, 6)
