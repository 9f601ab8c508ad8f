"""The Kaiser's Battle policy kernel ``kb_unit_values`` (``gwe_fast._core.policy``) and its
``KbPricer``: equal to their pure-Python twins bit for bit on random inputs that reach every
branch, and in the positions of played games for every unit over the whole map; the greedy
policy plays the same game on the twin."""

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast._core import policy as cy
from gwe_fast._pure import policy as py
from gwe_fast.games import driver
from gwe_fast.policies.gwe import scoring as gwe_scoring
from gwe_fast.policies.kb.greedy import KbGreedyPolicy
from gwe_fast.policies.kb.position import Board
from gwe_fast.policies.kb.scoring import Snap
from gwe_fast.policies.registry import make_policy
from gwe_fast.state import Status

SEEDS = range(60)


@pytest.fixture(scope="module")
def historical():
    return load_scenario("kaisers_battle/historical")


def _random_args(rng, n):
    """Arguments of ``kb_unit_values`` on ``n`` cells, with signs and flags that reach every
    branch (negative weights give the -0.0 products that must match too)."""
    flag = lambda share: (rng.random(n) < share).astype(np.uint8)         # noqa: E731
    cells = rng.choice(n, int(rng.integers(1, 40)), replace=False)
    here = int(cells[0]) if rng.random() < 0.7 else int(rng.integers(0, n))
    allied = bool(rng.random() < 0.5)
    use_base = bool(rng.random() < 0.2)
    contact_on = bool(rng.random() < 0.7)
    ok = rng.choice(n, int(rng.integers(0, 7)), replace=False) if contact_on else []
    args = dict(
        cells=cells, here=here, sp=float(rng.integers(1, 5)), limit=12.0,
        my_sp=rng.integers(0, 14, n).astype(float), allied=allied,
        dist_west=rng.integers(0, 30, n).astype(float), path_gain=flag(0.1),
        trench=flag(0.3), west_town=flag(0.1), risk=rng.random(n) * (rng.random(n) < 0.8),
        screen_gain=rng.integers(0, 5, n).astype(float),
        adj_enemy=rng.integers(0, 3, n).astype(np.int32), exempt=flag(0.3),
        supply_pen=rng.choice([0.0, 1.0, 2.0, 3.0], n), gas=flag(0.1),
        progress=float(rng.choice([0.3, -0.2, 0.0])), town_w=float(rng.choice([0.8, -0.5])),
        trench_hold=float(rng.choice([0.7, 0.0, -0.3])), town_hold=float(rng.choice([0.4, 0.0])),
        exposure=float(rng.choice([0.5, 0.0, -1.0])), screen=float(rng.choice([0.2, -0.1])),
        screen_on=bool(rng.random() < 0.5), contact=float(rng.choice([1.5, 0.0, -2.0])),
        contact_on=contact_on, ok_cells=ok, supply=float(rng.choice([0.4, 0.0])),
        gas_cost=float(rng.choice([0.04, 0.0, -0.5])), gas_on=bool(rng.random() < 0.3),
        base=rng.normal(size=len(cells)) if use_base else None)
    # the unit's own hex is where staying differs from moving: give it every flag often
    for name in ("path_gain", "trench", "west_town", "exempt", "gas"):
        args[name][here] = rng.random() < 0.5
    args["adj_enemy"][here] = rng.integers(0, 2)
    return args


@pytest.mark.parametrize("seed", SEEDS)
def test_kb_unit_values_twin_equal(historical, seed):
    rng = np.random.default_rng(seed)
    args = _random_args(rng, historical.map.n_cells)
    a = cy.kb_unit_values(**args)
    b = py.kb_unit_values(**args)
    assert a.dtype == b.dtype == np.float64
    np.testing.assert_array_equal(a, b)
    assert np.array_equal(np.signbit(a), np.signbit(b))      # the zeros' signs as well


def test_kb_unit_values_branches():
    # one cell by hand: an Allied unit moving into a trench hex next to the enemy, not
    # planned, in supply trouble, over the limit elsewhere
    n = 4
    z = np.zeros(n)
    u8 = lambda *c: np.array([1 if i in c else 0 for i in range(n)], dtype=np.uint8)  # noqa
    args = dict(cells=[1, 2, 3], here=0, sp=2.0, limit=12.0, my_sp=np.array([2, 0, 11, 0.0]),
                allied=True, dist_west=z, path_gain=u8(), trench=u8(1), west_town=u8(),
                risk=np.array([0, 0.25, 0, 0]), screen_gain=z,
                adj_enemy=np.array([0, 1, 0, 1], dtype=np.int32), exempt=u8(1),
                supply_pen=np.array([0, 1.0, 0, 0]), gas=u8(), progress=0.0, town_w=0.8,
                trench_hold=0.7, town_hold=0.0, exposure=1.0, screen=0.0, screen_on=False,
                contact=1.5, contact_on=True, ok_cells=[], supply=0.4, gas_cost=0.0,
                gas_on=False)
    for k in (cy, py):
        v = k.kb_unit_values(**args)
        # 1: trench 0.7 * 0.75 held, exposure 0.25, exempt from contact, supply 0.4
        assert v[0] == pytest.approx(0.7 * 0.75 - 0.25 - 0.4)
        assert v[1] == -1e9                                  # 11 + 2 Stacking Points > 12
        assert v[2] == -1.5                                  # a compulsory attack
        assert k.kb_unit_values(**{**args, "ok_cells": [3]})[2] == 0.0   # the planned one


def test_kb_unit_values_refuses_bad_arguments(historical):
    rng = np.random.default_rng(1)
    args = _random_args(rng, historical.map.n_cells)
    with pytest.raises(ValueError, match="per-cell"):
        cy.kb_unit_values(**{**args, "risk": args["risk"][:-1]})
    with pytest.raises(IndexError, match="not on the map"):
        cy.kb_unit_values(**{**args, "cells": [historical.map.n_cells]})
    with pytest.raises(ValueError, match="base"):
        cy.kb_unit_values(**{**args, "base": np.zeros(len(args["cells"]) + 1)})


_FIXED = ("dist_west", "trench", "west_town", "risk", "adj_enemy", "exempt", "supply_pen",
          "gas")
_OWN = ("my_sp", "path_gain", "screen_gain")


@pytest.mark.parametrize("seed", SEEDS)
def test_kb_pricer_twin_equal(historical, seed):
    """``KbPricer.values``, compiled and twin, is ``kb_unit_values`` with the maps bound, bit
    for bit, over several units asked of one pricer and after its own maps change."""
    rng = np.random.default_rng(3000 + seed)
    n = historical.map.n_cells
    args = _random_args(rng, n)
    pricers = [k.KbPricer(*(args[name] for name in _FIXED)) for k in (cy, py)]
    for round_ in range(3):
        if round_:
            # the side's own maps after a move: new arrays, the fixed maps kept
            args["my_sp"] = rng.integers(0, 14, n).astype(float)
            args["path_gain"] = (rng.random(n) < 0.1).astype(np.uint8)
            args["screen_gain"] = rng.integers(0, 5, n).astype(float)
        for pricer in pricers:
            pricer.set_own(*(args[name] for name in _OWN))
        for _ in range(4):
            ask = _random_args(rng, n)
            call = {k: v for k, v in ask.items() if k not in _FIXED + _OWN}
            want = py.kb_unit_values(**{**ask, **{k: args[k] for k in _FIXED + _OWN}})
            # with_here: the unit's own hex priced after the others, as one more cell
            here_too = {**ask, "cells": np.append(ask["cells"], ask["here"])}
            if ask["base"] is not None:
                here_too["base"] = np.append(ask["base"], rng.normal())
            want_here = py.kb_unit_values(**{**here_too, **{k: args[k] for k in _FIXED + _OWN}})
            for pricer in pricers:
                got = pricer.values(**call)
                assert got.dtype == np.float64
                np.testing.assert_array_equal(got, want)
                assert np.array_equal(np.signbit(got), np.signbit(want))
                got = pricer.values(**{**call, "base": here_too["base"]}, with_here=True)
                assert got.shape == (len(call["cells"]) + 1,)
                np.testing.assert_array_equal(got, want_here)
                assert np.array_equal(np.signbit(got), np.signbit(want_here))


def test_kb_pricer_refuses_bad_arguments(historical):
    rng = np.random.default_rng(2)
    args = _random_args(rng, historical.map.n_cells)
    call = {k: v for k, v in args.items() if k not in _FIXED + _OWN}
    for k in (cy, py):
        fixed = [args[name] for name in _FIXED]
        with pytest.raises(ValueError, match="per-cell"):
            k.KbPricer(*fixed[:3], args["risk"][:-1], *fixed[4:])
        pricer = k.KbPricer(*fixed)
        with pytest.raises(RuntimeError, match="set_own"):
            pricer.values(**call)
        with pytest.raises(ValueError, match="per-cell"):
            pricer.set_own(args["my_sp"][:-1], args["path_gain"], args["screen_gain"])
    pricer = cy.KbPricer(*(args[name] for name in _FIXED))
    pricer.set_own(*(args[name] for name in _OWN))
    with pytest.raises(IndexError, match="not on the map"):
        pricer.values(**{**call, "cells": [historical.map.n_cells]})
    with pytest.raises(ValueError, match="base"):
        pricer.values(**{**call, "base": np.zeros(len(call["cells"]) + 1)})
    with pytest.raises(ValueError, match="base"):
        pricer.values(**{**call, "base": np.zeros(len(call["cells"]))}, with_here=True)
    with pytest.raises(IndexError, match="not on the map"):
        pricer.values(**{**call, "here": historical.map.n_cells}, with_here=True)


@pytest.mark.parametrize("seed", SEEDS)
def test_kb_side_maps_twin_equal(historical, seed):
    rng = np.random.default_rng(1000 + seed)
    m, u = historical.map, historical.units
    n = m.n_cells
    args = dict(
        unit_cell=rng.integers(0, n, u.n).astype(np.int32),
        unit_status=rng.choice([0, 1, 1, 1, 2, 33], u.n).astype(np.uint16), on_map=1,
        unit_side=u.side, side=int(rng.integers(0, 2)),
        flags=rng.choice([0, 0, 0, 8, 64], u.n).astype(np.uint16), service=8,
        stacking=u.stacking, is_hq=(rng.random(u.n) < 0.1).astype(np.uint8),
        nb=m.neighbors, band=(rng.random(n) < 0.3).astype(np.uint8),
        west_town=(rng.random(n) < 0.1).astype(np.uint8),
        hex_last=rng.integers(-1, 2, n).astype(np.int8), central=1,
        allied=bool(rng.random() < 0.5))
    a, b = cy.kb_side_maps(**args), py.kb_side_maps(**args)
    for x, y in zip(a, b):
        assert x.dtype == y.dtype and x.shape == y.shape == (n,)
        np.testing.assert_array_equal(x, y)
    assert a[0].sum() > 0 and a[3].sum() > 0
    # without the screen: the same maps, and zeros for the screen
    for k in (cy, py):
        off = k.kb_side_maps(**args, screen=False)
        for x, y in zip(off[:3], a[:3]):
            assert x.dtype == y.dtype
            np.testing.assert_array_equal(x, y)
        assert off[3].dtype == np.float64 and off[3].shape == (n,) and not off[3].any()


def test_kb_side_maps_refuses_bad_arguments(historical):
    m, u = historical.map, historical.units
    n = m.n_cells
    args = dict(unit_cell=np.full(u.n, -1, dtype=np.int32),
                unit_status=np.zeros(u.n, dtype=np.uint16), on_map=1, unit_side=u.side, side=0,
                flags=np.zeros(u.n, dtype=np.uint16), service=8, stacking=u.stacking,
                is_hq=np.zeros(u.n, dtype=np.uint8), nb=m.neighbors,
                band=np.zeros(n, dtype=np.uint8), west_town=np.zeros(n, dtype=np.uint8),
                hex_last=np.zeros(n, dtype=np.int8), central=1, allied=True)
    cy.kb_side_maps(**args)                        # nobody on the map: fine
    with pytest.raises(ValueError, match="per-unit"):
        cy.kb_side_maps(**{**args, "flags": args["flags"][:-1]})
    with pytest.raises(ValueError, match="per-cell"):
        cy.kb_side_maps(**{**args, "band": args["band"][:-1]})
    on = args["unit_status"].copy()
    on[np.flatnonzero(u.side == 0)[0]] = 1           # on the map at cell -1
    with pytest.raises(IndexError, match="not on a cell"):
        cy.kb_side_maps(**{**args, "unit_status": on})


def _random_routes(rng, n, layers):
    """A search's ``(dist, pred, here)`` over ``n`` cells: a random tree of predecessors
    rooted at ``here`` over some of the cells (states ``layer * n + cell``), the others not
    reached."""
    here = int(rng.integers(0, n))
    dist = np.full(n, -1, dtype=np.int32)
    pred = np.full(n, -1, dtype=np.int32)
    dist[here] = 0
    tree = [here]
    for c in rng.permutation(n)[: int(rng.integers(1, n))].tolist():
        if c == here:
            continue
        p = tree[int(rng.integers(0, len(tree)))]
        dist[c] = dist[p] + 1
        pred[c] = int(rng.integers(0, layers)) * n + p
        tree.append(c)
    return dist, pred, here


@pytest.mark.parametrize("seed", SEEDS)
def test_kb_path_gains_twin_equal(seed):
    rng = np.random.default_rng(2000 + seed)
    n = int(rng.integers(5, 300))
    dist, pred, here = _random_routes(rng, n, layers=int(rng.integers(1, 3)))
    gain = (rng.random(n) < 0.3).astype(np.uint8)
    # every cell, the start and hexes not reached included, some twice, in any order
    cells = np.concatenate([rng.permutation(n), rng.integers(0, n, 10)])
    got = cy.kb_path_gains(dist, pred, gain, here, cells)
    want = py.kb_path_gains(dist, pred, gain, here, cells)
    assert got.dtype == want.dtype == np.float64
    np.testing.assert_array_equal(got, want)
    # and as the definition says: the flags strictly between the start and the hex
    for c in cells[:40].tolist():
        if dist[c] < 0 or c == here:
            assert got[list(cells).index(c)] == -float(gain[c])
            continue
        on_way, at = 0, int(pred[c]) % n
        while at != here:
            on_way += int(gain[at])
            at = int(pred[at]) % n
        assert got[list(cells).index(c)] == on_way


def test_kb_path_gains_refuses_bad_arguments():
    dist = np.zeros(4, dtype=np.int32)
    pred = np.full(4, -1, dtype=np.int32)
    gain = np.zeros(4, dtype=np.uint8)
    with pytest.raises(ValueError, match="one entry per cell"):
        cy.kb_path_gains(dist, pred[:3], gain, 0, [1])
    with pytest.raises(ValueError, match="off the map"):
        cy.kb_path_gains(dist, pred, gain, 4, [1])
    with pytest.raises(IndexError, match="not on the map"):
        cy.kb_path_gains(dist, pred, gain, 0, [4])


@pytest.fixture(scope="module")
def positions(historical):
    """Positions of a greedy game at the start of each Movement Phase."""
    d = driver(historical.game)
    g = d.new_game(historical, 0, 3, policies={0: make_policy("greedy"),
                                               1: make_policy("greedy")})
    out = []
    orig = g.begin_phase

    def keep(phase, side):
        out.append(g.state.copy())
        return orig(phase, side)

    g.begin_phase = keep
    d.play(g)
    return out[::7]


def test_board_values_on_the_twin_equal(historical, positions, monkeypatch):
    """``Board.values`` of every unit of both sides over every hex, in played positions,
    with the compiled kernel and with the twin."""
    pol = KbGreedyPolicy()
    d = driver(historical.game)
    cells = np.arange(historical.map.n_cells)
    checked = 0
    for st in positions:
        g = d.new_game(historical, 0, 0)
        g.state = st.copy()
        view = g.policy_view()
        out = {}
        for k in ("cython", "pure"):
            if k == "pure":
                monkeypatch.setattr(gwe_scoring, "kernel", lambda scenario: py)
            for side in (0, 1):
                board = Board(view, side, pol.weights, pol.params_for(side), Snap(view))
                mine = np.flatnonzero((historical.units.side == side)
                                      & ((st.unit_status & Status.ON_MAP) != 0))
                out[k, side] = np.stack([board.values(int(x), cells) for x in mine])
                out[k, side, "maps"] = np.stack([board.my_sp, board.my_combat_sp,
                                                 board.path_gain, board.screen_gain])
            monkeypatch.undo()
        for side in (0, 1):
            np.testing.assert_array_equal(out["cython", side], out["pure", side])
            np.testing.assert_array_equal(out["cython", side, "maps"],
                                          out["pure", side, "maps"])
            checked += out["cython", side].size
    assert checked > 100_000


def test_board_values_with_stay_are_the_two_calls(historical, positions):
    """``Board.values_with_stay`` gives what ``values`` of the hexes and of the unit's own hex
    give, bit for bit, in played positions (gas zones included) for every unit."""
    pol = KbGreedyPolicy()
    d = driver(historical.game)
    rng = np.random.default_rng(5)
    n = historical.map.n_cells
    gassed = 0
    for st in positions:
        g = d.new_game(historical, 0, 0)
        g.state = st.copy()
        view = g.policy_view()
        for side in (0, 1):
            board = Board(view, side, pol.weights, pol.params_for(side), Snap(view))
            gassed += board.gas_any
            mine = np.flatnonzero((historical.units.side == side)
                                  & ((st.unit_status & Status.ON_MAP) != 0))
            for x in mine.tolist():
                here = int(st.unit_cell[x])
                near = np.flatnonzero(board.D[here] <= int(rng.integers(0, 8)))
                for cells in (near, near[near != here], rng.choice(n, 30), near[:0]):
                    v, stay = board.values_with_stay(x, cells)
                    want = board.values(x, cells)
                    assert v.dtype == want.dtype and v.shape == want.shape
                    np.testing.assert_array_equal(v, want)
                    assert np.array_equal(np.signbit(v), np.signbit(want))
                    assert stay == board.values(x, [here])[0]
    assert gassed


def test_greedy_plays_the_same_on_the_twin(historical, monkeypatch):
    def play():
        d = driver(historical.game)
        g = d.new_game(historical, 0, 5, events=True,
                       policies={0: make_policy("greedy"), 1: make_policy("greedy")})
        d.play(g)
        return g

    a = play()
    monkeypatch.setattr(gwe_scoring, "kernel", lambda scenario: py)
    b = play()
    assert a.events == b.events and a.state.equals(b.state)
