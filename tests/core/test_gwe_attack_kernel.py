"""The declaration of a Great War in the East attack on the kernels (``AttackPosition`` of
``gwe_fast._core.play``, twin in ``gwe_fast._pure.play``), in the positions of played games:

* the compiled class and its twin give the same candidates, targets, CRT answers and
  declaration options;
* "reaches the CRT" (8.8) is exactly what resolution computes: ``odds_column`` of
  ``crt_row`` (17.0) with ``attack_strength`` (5.4 river halving, 12.21 cavalry) against
  ``defense_strength``, not -1;
* the per-hex pieces the class reads (``hex_defenses``, ``cavalry_full_hexes``) are the
  engine's rules hex by hex.
"""

import random

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast._core import play as cy
from gwe_fast._pure import play as py
from gwe_fast.enums import Nationality
from gwe_fast.games.gwe import combat, driver
from gwe_fast.games.gwe.data import gwe_data
from gwe_fast.policies.registry import make_policy

BRUSILOV = "brusilov/historical"


@pytest.fixture(scope="module")
def positions():
    """``(game copy, _Position)`` at the first declaration of every Combat Phase of two
    games (random and greedy), kept as the engine built them (the Python engine's: the
    compiled core declares a random game's attacks on its own record, ``test_gwe_core``)."""
    import gwe_fast.games.gwe.game as gwe_game

    sc = load_scenario(BRUSILOV)
    kept = []
    real = combat._Position.targets
    compiled = gwe_game.COMPILED_PHASES

    def keeping(pos):
        out = real(pos)
        if not getattr(pos, "_kept", False):         # each position once (not by id(): ids
            pos._kept = True                         # of collected objects come back)
            game = pos.game
            copy = driver.new_game(sc, 0, 0)
            copy.state = game.state.copy()
            mirror = combat._Position(copy, pos.side)
            kept.append((copy, mirror))
        return out

    combat._Position.targets = keeping
    gwe_game.COMPILED_PHASES = False
    try:
        for seed, policy in ((1, "random"), (2, "greedy")):
            driver.play(driver.new_game(sc, seed, seed, policies={
                0: make_policy(policy), 1: make_policy(policy)}))
    finally:
        combat._Position.targets = real
        gwe_game.COMPILED_PHASES = compiled
    assert len(kept) > 100
    return kept[::3]


def _twin(pos):
    """The twin class on the same arrays as ``pos``'s compiled one."""
    pos.targets()
    game, el = pos.game, pos.eligible
    sc, st = game.scenario, game.state
    u, m = sc.units, sc.map
    vals = combat.current_values(game)
    ct = combat.combat_terrain(sc)
    t = gwe_data(sc).crt
    ratios, row_len, row_of_tcr, joint = t.ratios, t.row_len, t.row_of_tcr, t.joint
    return py.AttackPosition(
        m.neighbors, ct.prohibited, ct.halved, el, st.unit_cell[el],
        [combat.unit_attack(game, int(x), bool(pos.supplied[x]), vals) for x in el],
        u.utype[el] == combat._CAVALRY, u.nationality[el], game.data.tcr[el],
        u.utype[el] == combat._HQ, pos._defense, combat.cavalry_full_hexes(game), ratios,
        row_len, row_of_tcr, joint, int(Nationality.GERMAN), int(Nationality.AUSTRO_HUNGARIAN))


def _declarations(pos, rng, n):
    """A few random declarations of ``pos``: each step's (cells, attackers)."""
    out = []
    targets = pos.targets()
    for _ in range(n):
        if not targets:
            return out
        cells, att = [rng.choice(targets)], []
        for _ in range(8):
            out.append((list(cells), list(att)))
            done, units, hexes = pos.options(cells, att)
            moves = [("u", x) for x in units] + [("h", t) for t in hexes]
            if not moves or (done and rng.random() < 0.3):
                break
            kind, what = rng.choice(moves)
            (att if kind == "u" else cells).append(what)
    return out


def test_8_8_twin_gives_the_kernels_answers(positions):
    rng = random.Random(5)
    steps = 0
    for game, pos in positions:
        twin = _twin(pos)
        kernel = pos.kernel()
        open_cells = np.flatnonzero(combat.attackable_cells(
            game, pos.side, within=pos.within_reach())).tolist()
        assert twin.targets(open_cells) == kernel.targets(open_cells) == pos.targets()
        for c in open_cells:
            assert twin.candidates([c]) == kernel.candidates([c]) == pos.candidates([c])
        for cells, att in _declarations(pos, rng, 3):
            pos._cover(cells)
            twin.defense[:] = pos._defense.tolist()
            assert twin.options(cells, att, pos.targets()) == kernel.options(
                cells, att, pos.targets())
            assert twin.candidates(cells) == kernel.candidates(cells) == pos.candidates(cells)
            steps += 1
    assert steps > 300


def test_8_8_reaches_is_resolutions_lowest_column(positions):
    # the declaration's test in whole numbers against resolution's exact arithmetic: 5.4
    # (rivers), 12.21 (cavalry), 17.0 (the joint row), 10.23 (heroic leaders)
    rng = random.Random(7)
    checked = joint = cavalry = 0
    for game, pos in positions[::2]:
        kernel = pos.kernel()
        for cells, _ in _declarations(pos, rng, 2):
            pool = pos.candidates(cells)
            for _ in range(4):
                force = rng.sample(pool, rng.randint(1, len(pool))) if pool else []
                if not force:
                    continue
                pos._cover(cells)
                row = combat.crt_row(game, force)
                strength = combat.attack_strength(game, force, cells, pos.supplied)
                defense = combat.defense_strength(game, cells, pos.side)
                want = combat.odds_column(game, row, strength, defense) != -1
                assert kernel.reaches(force, cells) == want
                checked += 1
                joint += row == game.scenario.tables["tcr"]["joint_austro_german_crt_row"]
                cavalry += any(game.scenario.units.utype[x] == combat._CAVALRY for x in force)
    assert checked > 200 and joint > 0 and cavalry > 0


def test_8_8_hex_defenses_add_up_to_defense_strength(positions):
    for game, pos in positions[::5]:
        cells = pos.targets()[:4]
        each = combat.hex_defenses(game, cells, pos.side)
        assert sum(each) == combat.defense_strength(game, cells, pos.side)
        assert each == [combat.defense_strength(game, [c], pos.side) for c in cells]


def test_12_21_cavalry_full_hexes_hex_by_hex(positions):
    seen = set()
    for game, _ in positions[::4]:
        st, u = game.state, game.scenario.units
        full = combat.cavalry_full_hexes(game)
        for c in range(game.scenario.map.n_cells):
            want = (all(int(u.utype[x]) in combat.CAVALRY_FULL_AGAINST for x in st.units_at(c))
                    and not combat.fortress_steps(game, c))
            assert bool(full[c]) == want
            if st.units_at(c).size:
                seen.add(want)
    assert seen == {True, False}


def test_attack_position_refuses_bad_arguments(positions):
    game, pos = positions[0]
    kernel = pos.kernel()
    with pytest.raises(ValueError, match="off the map"):
        kernel.candidates([game.scenario.map.n_cells])
    with pytest.raises(ValueError, match="may not attack"):
        kernel.reaches([-5], pos.targets()[:1])
    with pytest.raises(ValueError, match="too many"):
        kernel.options(list(range(8)), [], [])
    n = game.scenario.map.n_cells
    with pytest.raises(ValueError, match="cover the map"):
        cy.AttackPosition(game.scenario.map.neighbors, np.zeros((n, 6), np.uint8),
                          np.zeros((n, 6), np.uint8), *[np.zeros(0, np.int32)] * 3,
                          np.zeros(0, np.uint8), *[np.zeros(0, np.int32)] * 2,
                          np.zeros(0, np.uint8), np.zeros(n - 1, np.int32),
                          np.zeros(n, np.uint8), np.zeros((1, 1, 2), np.int32),
                          np.ones(1, np.int32), np.zeros(2, np.int32), 0, 1, 2)


@pytest.mark.parametrize("impl", [cy, py], ids=["cython", "pure"])
def test_17_0_joint_row_and_hqs_counted_only_alone(impl):
    # a German and an Austro-Hungarian unit together use the "TCR 2 and 3" row (17.0), not
    # the Austro-Hungarian TCR 4 row; an HQ's TCR counts only when no other unit attacks
    # (crt_row). Odds of 4 half-points against 2 x 5: 1-2.5, within tcr23's 1-3 column,
    # short of tcr4's 1-2.
    sc = load_scenario(BRUSILOV)
    m = sc.map
    n = m.n_cells
    target = n // 2
    w = int(next(x for x in m.neighbors[target] if x >= 0))
    t = gwe_data(sc).crt
    ratios, row_len, row_of_tcr, joint = t.ratios, t.row_len, t.row_of_tcr, t.joint
    german, ah = int(Nationality.GERMAN), int(Nationality.AUSTRO_HUNGARIAN)
    defense = np.zeros(n, np.int32)
    defense[target] = 5

    def position(nats, tcrs, hqs):
        k = len(nats)
        return impl.AttackPosition(
            m.neighbors, np.zeros((n, 6), np.uint8), np.zeros((n, 6), np.uint8),
            np.arange(k, dtype=np.int32), np.full(k, w, np.int32), np.ones(k, np.int32),
            np.zeros(k, np.uint8), np.array(nats, np.int32), np.array(tcrs, np.int32),
            np.array(hqs, np.uint8), defense, np.ones(n, np.uint8), ratios, row_len,
            row_of_tcr, joint, german, ah)

    both = position([german, ah], [1, 4], [0, 0])
    assert both.reaches([0, 1], [target])                       # the joint row: 1-3 reached
    assert not position([ah, ah], [4, 4], [0, 0]).reaches([0, 1], [target])     # tcr4: 1-2
    # an HQ of TCR 4 with a TCR 1 unit: the TCR 1 row (its 1-4 column is reached)
    with_hq = position([german, german], [1, 4], [0, 1])
    assert with_hq.reaches([0, 1], [target])
    assert not position([german, german], [1, 4], [0, 0]).reaches([0, 1], [target])
    # the declaration offers the AH unit to a German force only through the joint row
    done, units, _ = both.options([target], [0], [target])
    assert units == [1] and not done                             # one unit alone: 2 vs 10
