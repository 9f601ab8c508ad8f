"""The policy kernels (``gwe_fast._core.policy``): the compiled kernels equal their pure-Python
twin bit for bit on random inputs; the attack arithmetic equals the engine's own functions
(``combat.attack_strength`` with fractions, ``odds_column``, ``defense_strength``,
``stack_at``, ``die_modifier``, ``unit_attack``) and ``scoring.retreat_exists`` in positions
of played games; and the greedy policy makes the same choices on the twin as on the compiled
kernels."""

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast._core import policy as cy
from gwe_fast._pure import policy as py
from gwe_fast.enums import UnitType
from gwe_fast.games.gwe import combat, engine
from gwe_fast.games.gwe.game import GweGame
from gwe_fast.games.gwe.units import steps_left
from gwe_fast.policies.base import Policy
from gwe_fast.policies.gwe import scoring
from gwe_fast.policies.gwe.greedy import GreedyPolicy
from gwe_fast.policies.gwe.position import PositionMap
from gwe_fast.policies.registry import make_policy
from gwe_fast.state import Status

SEEDS = range(25)
DEPOT, CAVALRY = int(UnitType.DEPOT), int(UnitType.CAVALRY)


@pytest.fixture(scope="module")
def historical():
    return load_scenario("brusilov/historical")


def _random_board(rng, nb):
    """Per-cell arrays as a PositionMap holds them, with values that hit every branch."""
    n = nb.shape[0]
    return {
        "my_sp": rng.integers(0, 9, n).astype(float),
        "my_def": rng.integers(0, 20, n).astype(float),
        "my_steps": rng.integers(0, 6, n).astype(float),
        "mult": 2.0 ** rng.integers(0, 3, n),
        "threat": rng.choice([0.0, 1.5, 4.0, 9.0, 17.5, 30.0], n),
        "dist_enemy": rng.integers(1, 15, n).astype(np.int32),
        "supplied": (rng.random(n) < 0.8).astype(np.uint8),
        "cover": (rng.random(n) < 0.7).astype(np.uint8),
        "hex_last": rng.integers(-1, 2, n).astype(np.int8),
        "town": rng.choice([0.0, 0.0, 0.0, 1.0, 3.0], n),
    }


def _need(rng):
    k = int(rng.integers(1, 9))
    return np.sort(rng.choice([0.25, 1 / 3, 0.5, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0], k,
                              replace=False))


@pytest.mark.parametrize("seed", SEEDS)
def test_score_cells_twin_equal(historical, seed):
    rng = np.random.default_rng(seed)
    nb = historical.map.neighbors
    b = _random_board(rng, nb)
    n_cols = 8
    per_step = rng.random(n_cols) * 3
    cells = rng.integers(0, nb.shape[0], int(rng.integers(1, 80)))
    here = int(cells[0]) if rng.random() < 0.7 else -1
    extra = rng.normal(size=cells.size) if rng.random() < 0.3 else None
    gain = rng.random(cells.size) if extra is None and rng.random() < 0.7 else None
    args = (cells, here, float(rng.integers(0, 4)), 8.0, float(rng.integers(1, 5)),
            float(rng.integers(0, 12)), b["my_sp"], b["my_def"], b["my_steps"], b["mult"],
            b["threat"], _need(rng), per_step, b["dist_enemy"], b["supplied"], b["cover"],
            b["hex_last"], int(rng.integers(0, 2)), b["town"], 0.5, -2.0, -0.4, 0.5)
    kw = {"extra": extra, "gain": gain, "attack_w": float(rng.random()), "pull_c": 0.05,
          "use_pull": bool(rng.random() < 0.5)}
    want = py.score_cells(*args, **kw)
    got = cy.score_cells(*args, **kw)
    np.testing.assert_array_equal(got, want)          # the same bits, not merely close
    assert (want <= -1e8).any() or (b["my_sp"][cells] + args[2] <= 8).all()


@pytest.mark.parametrize("seed", SEEDS)
def test_targets_and_attack_gains_twin_equal(historical, seed):
    rng = np.random.default_rng(100 + seed)
    nb = historical.map.neighbors
    n = nb.shape[0]
    dist_enemy = rng.integers(0, 4, n).astype(np.int32)
    enemy_occ = (rng.random(n) < 0.3).astype(np.uint8)
    prohibited = (rng.random((n, 6)) < 0.1).astype(np.uint8)
    halved = (rng.random((n, 6)) < 0.2).astype(np.uint8)
    known = (rng.random(n) < 0.5).astype(np.uint8)
    cells = rng.integers(0, n, int(rng.integers(1, 120)))
    want = py.needed_targets(cells, dist_enemy, nb, enemy_occ, prohibited, known)
    got = cy.needed_targets(cells, dist_enemy, nb, enemy_occ, prohibited, known)
    np.testing.assert_array_equal(got, want)
    assert got.dtype == np.int64 and (np.diff(got) > 0).all() and not known[got].any()
    n_cols = 8
    ab = np.array([[1, 4], [1, 3], [1, 2], [1, 1], [2, 1], [3, 1], [4, 1], [5, 1]], float)
    d_here = rng.integers(0, 5, n).astype(np.int16)
    base_att = rng.integers(0, 30, n).astype(float)
    tgt_def = rng.integers(0, 25, n).astype(float)
    tgt_ev = rng.normal(size=(n, n_cols))
    a_u = float(rng.integers(1, 12))
    args = (cells, d_here, a_u, float(rng.integers(0, 12)), dist_enemy, nb, enemy_occ,
            prohibited, halved, base_att, tgt_def, tgt_ev, ab, n_cols)
    want = py.attack_gains(*args)
    np.testing.assert_array_equal(cy.attack_gains(*args), want)
    assert (want >= 0).all()


@pytest.mark.parametrize("seed", range(10))
def test_cell_pricer_answers_as_the_kernels_it_binds(historical, seed):
    # CellPricer (both implementations) gives the module functions' answers with the same
    # arrays, and sees the target arrays the caller fills in after it was made
    rng = np.random.default_rng(200 + seed)
    nb = historical.map.neighbors
    n = nb.shape[0]
    b = _random_board(rng, nb)
    need, n_cols = _need(rng), 8
    per_step = rng.random(n_cols) * 3
    enemy_occ = (rng.random(n) < 0.3).astype(np.uint8)
    prohibited = (rng.random((n, 6)) < 0.1).astype(np.uint8)
    halved = (rng.random((n, 6)) < 0.2).astype(np.uint8)
    b["dist_enemy"] = rng.integers(0, 4, n).astype(np.int32)
    ab = np.array([[1, 4], [1, 3], [1, 2], [1, 1], [2, 1], [3, 1], [4, 1], [5, 1]], float)
    for impl in (cy, py):
        known = np.zeros(n, np.uint8)
        tgt_def, tgt_ev = np.zeros(n), np.zeros((n, n_cols))
        pricer = impl.CellPricer(nb, prohibited, halved, b["mult"], b["threat"], need,
                                 per_step, b["dist_enemy"], b["supplied"], b["cover"],
                                 b["town"], enemy_occ, tgt_def, tgt_ev, known)
        with pytest.raises(RuntimeError):
            pricer.score_cells([0], 0, 1.0, 8.0, 1.0, 1.0, b["hex_last"], 0, 0.5, -2.0, -0.4,
                               0.5)
        cells = rng.integers(0, n, int(rng.integers(1, 80)))
        first = pricer.needed_targets(cells)
        np.testing.assert_array_equal(first, py.needed_targets(
            cells, b["dist_enemy"], nb, enemy_occ, prohibited, known))
        known[first] = 1                                   # filled in, as target() does
        tgt_def[first] = rng.integers(0, 25, first.size)
        tgt_ev[first] = rng.normal(size=(first.size, n_cols))
        assert pricer.needed_targets(cells).size == 0
        pricer.set_own(b["my_sp"], b["my_def"], b["my_steps"])
        base_att = rng.integers(0, 30, n).astype(float)
        pricer.set_attack(base_att)
        here = int(cells[0])
        gain = rng.random(cells.size)
        got = pricer.score_cells(cells, here, 2.0, 8.0, 2.0, 3.0, b["hex_last"], 1, 0.5, -2.0,
                                 -0.4, 0.5, None, gain, 1.0, 0.05, True)
        want = py.score_cells(cells, here, 2.0, 8.0, 2.0, 3.0, b["my_sp"], b["my_def"],
                              b["my_steps"], b["mult"], b["threat"], need, per_step,
                              b["dist_enemy"], b["supplied"], b["cover"], b["hex_last"], 1,
                              b["town"], 0.5, -2.0, -0.4, 0.5, None, gain, 1.0, 0.05, True)
        np.testing.assert_array_equal(got, want)
        d_here = rng.integers(0, 5, n).astype(np.int16)
        got = pricer.attack_gains(cells, d_here, 5.0, 3.0, ab, n_cols)
        want = py.attack_gains(cells, d_here, 5.0, 3.0, b["dist_enemy"], nb, enemy_occ,
                               prohibited, halved, base_att, tgt_def, tgt_ev, ab, n_cols)
        np.testing.assert_array_equal(got, want)
    with pytest.raises(ValueError):
        cy.CellPricer(nb, prohibited, halved, b["mult"][:-1], b["threat"], need, per_step,
                      b["dist_enemy"], b["supplied"], b["cover"], b["town"], enemy_occ,
                      np.zeros(n), np.zeros((n, 8)), np.zeros(n, np.uint8))


@pytest.mark.parametrize("seed", SEEDS)
def test_attack_arithmetic_twin_equal(historical, seed):
    rng = np.random.default_rng(200 + seed)
    nb = historical.map.neighbors
    n, nu = nb.shape[0], 60
    unit_cell = rng.integers(0, n, nu).astype(np.int32)
    target = int(unit_cell[0])
    # half the units next to the target, so that hexsides are crossed
    around = nb[target][nb[target] >= 0]
    unit_cell[1:nu // 2] = rng.choice(around, nu // 2 - 1)
    unit_att = rng.integers(0, 13, nu).astype(np.int64)
    is_cav = (rng.random(nu) < 0.3).astype(np.uint8)
    halved = (rng.random((n, 6)) < 0.4).astype(np.uint8)
    near = (rng.random(n) < 0.5).astype(np.uint8) if rng.random() < 0.5 else None
    attackers = rng.choice(np.arange(1, nu), int(rng.integers(1, 12)), replace=False)
    cells = [target] + ([int(rng.choice(around))] if rng.random() < 0.3 else [])
    ratios = np.array([[1, 3], [1, 2], [1, 1], [2, 1], [3, 1], [4, 1], [5, 1], [6, 1]],
                      dtype=np.int32)
    # the judge: the same strength, column and die modifiers in one call, worked here by hand
    k = int(rng.integers(0, 4))
    masks = np.ascontiguousarray((rng.random((k, n, 6)) < 0.5).astype(np.uint8))
    adds = rng.integers(-2, 3, k).astype(np.int64)
    every = (rng.random(k) < 0.5).astype(np.uint8)
    cav_full = (rng.random(n) < 0.5).astype(np.uint8)
    judges = [m.AttackJudge(nb, unit_cell, unit_att, is_cav, halved, cav_full, masks, adds,
                            every) for m in (cy, py)]
    cav = other = 0
    for x in attackers:                        # 5.4 rivers halve, 19.21 the depot multiplies
        here = int(unit_cell[x])
        around = nb[here].tolist()
        a = 2 * int(unit_att[x])
        if any(c in around and halved[here, around.index(c)] for c in cells):
            a //= 2
        if near is not None and near[here]:
            a *= 2
        if is_cav[x]:
            cav += a
        else:
            other += a
    if cav and not all(cav_full[c] for c in cells):
        cav = 2 * (cav // 8)                   # 12.21
    attack2 = cav + other
    mod = 0
    for i in range(k):
        crossed = [bool(masks[i, int(unit_cell[x]), nb[int(unit_cell[x])].tolist().index(c)])
                   for x in attackers for c in cells if c in nb[int(unit_cell[x])].tolist()]
        if (crossed and all(crossed)) if every[i] else any(crossed):
            mod += int(adds[i])
    for d in (0, 1, 4, 7, 12, 30):
        got = [j.judge(attackers, cells, d, ratios, near, 2) for j in judges]
        assert got[0] == got[1]
        column = len(ratios) - 1 if d <= 0 else max(
            [i for i, (p, q) in enumerate(ratios) if attack2 * q >= 2 * d * p], default=-1)
        assert got[0] == (column, mod, attack2)
    passable = (rng.random((n, 6)) < 0.8).astype(np.uint8) & (nb >= 0)
    blocks = (rng.random(n) < 0.3).astype(np.uint8)
    zoc = (rng.random(n) < 0.3).astype(np.uint8)
    d_origin = scoring.hex_distances(historical)[target]
    for through in (False, True):
        assert cy.retreat_ways(target, nb, passable, blocks, zoc, through, d_origin) == \
            py.retreat_ways(target, nb, passable, blocks, zoc, through, d_origin)


def test_kernels_refuse_bad_arguments(historical):
    nb = historical.map.neighbors
    n = nb.shape[0]
    with pytest.raises(IndexError):
        cy.needed_targets([n], np.ones(n, np.int32), nb, np.zeros(n, np.uint8),
                          np.zeros((n, 6), np.uint8), np.zeros(n, np.uint8))
    with pytest.raises(ValueError):
        cy.needed_targets([0], np.ones(n - 1, np.int32), nb, np.zeros(n, np.uint8),
                          np.zeros((n, 6), np.uint8), np.zeros(n, np.uint8))
    judge = cy.AttackJudge(nb, np.zeros(3, np.int32), np.zeros(3, np.int64),
                           np.zeros(3, np.uint8), np.zeros((n, 6), np.uint8),
                           np.zeros(n, np.uint8), np.zeros((1, n, 6), np.uint8),
                           np.zeros(1, np.int64), np.zeros(1, np.uint8))
    with pytest.raises(IndexError):
        judge.judge([5], [0], 1, np.ones((3, 2), np.int32))          # no unit 5
    with pytest.raises(IndexError):
        judge.judge([0], [n], 1, np.ones((3, 2), np.int32))          # no cell n
    with pytest.raises(ValueError):
        judge.judge([0], [0], 1, np.ones((3, 3), np.int32))
    with pytest.raises(ValueError):
        cy.AttackJudge(nb, np.zeros(3, np.int32), np.zeros(3, np.int64),
                       np.zeros(3, np.uint8), np.zeros((n, 6), np.uint8),
                       np.zeros(n, np.uint8), np.zeros((1, n, 6), np.uint8),
                       np.zeros(2, np.int64), np.zeros(1, np.uint8))


# --- the kernels against the engine, in positions of played games ------------------------------

class _Recorder(Policy):
    """Random play that keeps a copy of the position at every combat decision."""

    name = "recorder"

    def __init__(self, positions):
        super().__init__()
        self.positions = positions

    def choose(self, decision, game, rng):
        if decision.kind.startswith("gwe.combat.") and rng.random() < 0.5:
            self.positions.append(game.state.copy())
        return int(rng.integers(len(decision.options)))


@pytest.fixture(scope="module")
def positions(historical):
    out = []
    for seed in (1, 2):
        g = GweGame(historical, seed=seed, game_index=seed,
                    policies={0: _Recorder(out), 1: _Recorder(out)})
        engine.play(g)
    return out


def test_attack_strength_column_defense_equal_the_engine(historical, positions):
    """``Snapshot.attack`` gives ``combat.odds_column``, ``combat.die_modifier`` and exactly
    twice ``combat.attack_strength`` (fractions), ``Snapshot.defense`` is ``defense_strength``,
    with and without burnt depots, for every attackable hex of many played positions."""
    rng = np.random.default_rng(7)
    checked = cavalry_cut = rivers = 0
    for st in positions[::3]:
        g = GweGame(historical, seed=0, state=st.copy())
        u = historical.units
        for side in (0, 1):
            snap = scoring.Snapshot(g)
            supplied = snap.supplied(side)
            may = np.flatnonzero(combat.may_attack(g, side))
            depots = np.flatnonzero((u.side == side) & (u.utype == DEPOT)
                                    & ((st.unit_status & Status.ON_MAP) != 0))
            edepots = np.flatnonzero((u.side != side) & (u.utype == DEPOT)
                                     & ((st.unit_status & Status.ON_MAP) != 0))
            for t in np.flatnonzero(combat.attackable_cells(g, side)):
                pos = combat.attack_positions(g, [int(t)])
                cand = [int(x) for x in may if pos[st.unit_cell[x]]]
                if not cand:
                    continue
                sub = [int(x) for x in rng.permutation(cand)[:int(rng.integers(1, 6))]]
                depot = int(rng.choice(depots)) if depots.size and rng.random() < 0.3 else -1
                ddep = int(rng.choice(edepots)) if edepots.size and rng.random() < 0.3 else -1
                exact = combat.attack_strength(g, sub, [int(t)], supplied, depot)
                d = combat.defense_strength(g, [int(t)], side, ddep)
                assert snap.defense([int(t)], side, ddep) == d
                row = combat.crt_row(g, sub)
                assert snap.attack(sub, [int(t)], depot, ddep) == (
                    combat.odds_column(g, row, exact, d),
                    combat.die_modifier(g, sub, [int(t)]), 2 * exact, row), (sub, t, depot)
                assert (scoring.attack_column(g, sub, [int(t)], depot=depot,
                                              defense_depot=ddep, snap=snap)
                        == scoring.attack_column(g, sub, [int(t)], depot=depot,
                                                 defense_depot=ddep))
                checked += 1
                cavalry_cut += any(u.utype[x] == CAVALRY for x in sub)
                rivers += exact.denominator == 2
    assert checked > 300 and cavalry_cut > 20 and rivers > 0


def test_stacks_unit_values_and_retreats_equal_the_engine(historical, positions):
    """``Snapshot.stack`` is ``combat.stack_at``, ``Snapshot.unit_attack`` is
    ``combat.unit_attack``, ``Snapshot.steps_left`` is ``units.steps_left`` and
    ``Snapshot.retreat_ways`` is ``scoring.retreat_exists`` for both lengths, everywhere."""
    u = historical.units
    passengers = 0
    for st in positions[::4]:
        g = GweGame(historical, seed=0, state=st.copy())
        snap = scoring.Snapshot(g)
        on = (st.unit_status & Status.ON_MAP) != 0
        left = snap.steps_left()
        assert [int(v) for v in left] == [steps_left(g, x) for x in range(u.n)]
        for side in (0, 1):
            ua = snap.unit_attack(side)
            sup = snap.supplied(side)
            vals = combat.current_values(g)
            for x in np.flatnonzero(on & (u.side == side)):
                assert ua[x] == combat.unit_attack(g, int(x), bool(sup[x]), vals)
            for c in np.unique(st.unit_cell[on]):
                a, b = snap.stack(int(c), side), combat.stack_at(g, int(c), side)
                assert (a.counted, a.passengers, a.hqs, a.fortress) == \
                    (b.counted, b.passengers, b.hqs, b.fortress)
                passengers += bool(b.passengers)
                for through in (False, True):
                    assert snap.retreat_ways(int(c), side, through) == tuple(
                        scoring.retreat_exists(g, int(c), n, side, snap, through)
                        for n in (1, 2))
    assert passengers > 0


# --- the policy on the twin plays as on the compiled kernels ------------------------------------

def _play(historical, monkeypatch, impl, seed):
    if impl == "pure":
        monkeypatch.setattr(scoring, "kernel", lambda scenario: py)
    g = GweGame(historical, seed=0, game_index=seed, events=True,
                policies={0: make_policy("greedy"), 1: make_policy("greedy")})
    engine.play(g)
    monkeypatch.undo()
    return g


@pytest.mark.parametrize("seed", [0, 5])
def test_greedy_plays_the_same_on_the_twin(historical, monkeypatch, seed):
    """A whole greedy campaign with the policy kernels' pure-Python twin: the same choices,
    dice and end position as with the compiled kernels."""
    a = _play(historical, monkeypatch, "cython", seed)
    b = _play(historical, monkeypatch, "pure", seed)
    assert a.events == b.events and a.state.equals(b.state)
    assert sum(1 for e in a.events if e[0] == "choice") > 1000


def test_policy_kernel_follows_the_scenario_kernels():
    sc = load_scenario("brusilov/historical", impl="pure")
    assert scoring.kernel(sc) is py
    assert scoring.kernel(load_scenario("brusilov/historical")) is cy


def test_position_scores_on_the_twin_equal(historical, positions, monkeypatch):
    """``PositionMap.scores`` for every unit of both sides over every hex of the map, in
    played positions, with the compiled kernels and with the twin."""
    p = GreedyPolicy()
    for st in positions[::25]:
        g = GweGame(historical, seed=0, state=st.copy())
        out = {}
        for impl in ("cython", "pure"):
            if impl == "pure":
                monkeypatch.setattr(scoring, "kernel", lambda scenario: py)
            for side in (0, 1):
                pm = PositionMap(g.policy_view(), side, p.weights, p.p)
                units = np.flatnonzero((historical.units.side == side)
                                       & ((st.unit_status & Status.ON_MAP) != 0))
                cells = np.arange(historical.map.n_cells)
                out[impl, side] = np.stack([pm.scores(int(x), cells) for x in units])
            monkeypatch.undo()
        for side in (0, 1):
            np.testing.assert_array_equal(out["cython", side], out["pure", side])


@pytest.mark.parametrize("seed", SEEDS)
def test_surrounded_map_twin_equal(historical, seed):
    rng = np.random.default_rng(300 + seed)
    nb = historical.map.neighbors
    n = nb.shape[0]
    passable = ((rng.random((n, 6)) < 0.9) & (nb >= 0)).astype(np.uint8)
    free = (rng.random(n) < rng.uniform(0.4, 0.95)).astype(np.uint8)
    target = (rng.random(n) < rng.choice([0.0, 0.02, 0.1])).astype(np.uint8)
    own = (rng.random(n) < 0.05).astype(np.uint8)
    limit = int(rng.integers(0, 7))
    want = py.surrounded_map(nb, passable, free, target, own, limit)
    got = cy.surrounded_map(nb, passable, free, target, own, limit)
    assert got.dtype == bool
    np.testing.assert_array_equal(got, want)
