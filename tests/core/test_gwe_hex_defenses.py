"""The per-hex questions of a Great War in the East declaration, asked of every hex at once
(the kernel ``gwe_hex_defenses`` of ``gwe_fast._core.play``, twin in ``gwe_fast._pure.play``):
``hex_defenses`` and ``attackable_cells`` give, at every declaration of played games, what
``stack_at`` and ``_hex_defense`` give hex by hex, and the twin gives the kernel's answers (8.14, 8.66, 10.53, 12.15, 12.17, 5.36, 5.4,
23.11, 23.51)."""

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast._core import play as cy
from gwe_fast._pure import play as py
from gwe_fast.games.gwe import combat, driver
from gwe_fast.games.gwe.game import Flag
from gwe_fast.policies.gwe import passive
from gwe_fast.policies.registry import make_policy
from gwe_fast.state import Status


def _attackable_hex_by_hex(game, side, within):
    # the former way: every hex with an enemy unit other than an HQ or an enemy fortress,
    # then each hex's stack asked whether it may still be attacked
    sc, st = game.scenario, game.state
    u = sc.units
    enemy = 1 - side
    flags, fort = game.arr("flags"), game.arr("fortress")
    live = combat.on_map(st) & (u.side == enemy) & (u.utype != combat._HQ)
    out = np.zeros(sc.map.n_cells, dtype=bool)
    out[st.unit_cell[live]] = True
    out |= combat.fortress_cells(game, enemy)
    out &= within
    for c in np.flatnonzero(out):
        s = combat.stack_at(game, int(c), enemy)
        if (any(flags[x] & Flag.DEFENDED for x in s.counted)
                or (s.fortress and fort[c, combat.F_ATTACKED]) or not (s.counted or s.fortress)):
            out[c] = False
    return out


def test_8_14_hex_questions_at_every_declaration(monkeypatch):
    sc = load_scenario("brusilov/historical")
    seen = dict.fromkeys(("passenger", "defended", "entrained", "panic", "hq", "removed"), 0)
    real = combat._Position.targets

    def checking(pos):
        game, side = pos.game, pos.side
        st, u = game.state, game.scenario.units
        enemy = 1 - side
        cells = np.flatnonzero(combat.occupied(game.scenario, st, enemy)
                               | combat.fortress_cells(game, enemy)).tolist()
        context = combat._defense_context(game, side)
        assert combat.hex_defenses(game, cells, side) == [
            combat._hex_defense(game, c, side, context, None) for c in cells]
        within = pos.within_reach()
        got = combat.attackable_cells(game, side, within=within)
        want = _attackable_hex_by_hex(game, side, within)
        assert np.array_equal(got, want)
        flags = game.arr("flags")
        for c in cells:
            s = combat.stack_at(game, c, enemy)
            seen["passenger"] += bool(s.passengers)
            seen["defended"] += any(flags[x] & Flag.DEFENDED for x in s.counted + s.passengers)
            seen["entrained"] += any(st.unit_status[x] & Status.ENTRAINED for x in s.counted)
            seen["panic"] += bool(context[2][s.counted].any()) if s.counted else 0
            seen["hq"] += bool(s.hqs)
        seen["removed"] += int((combat.attackable_cells(game, side) != (
            combat.occupied(game.scenario, st, enemy, hq_only_counts=False)
            | combat.fortress_cells(game, enemy))).sum())
        return real(pos)

    calls = [0]
    kernel = cy.gwe_hex_defenses          # the map's own (patched below)

    def both(*args):
        # every call of the game's kernel made again by the twin, on copies of the outputs
        *given, total, attackable = args
        kernel(*given, total, attackable)
        t2, a2 = np.full_like(total, -9), np.full_like(attackable, 9)
        py.gwe_hex_defenses(*given, t2, a2)
        assert np.array_equal(total, t2) and np.array_equal(attackable, a2)
        calls[0] += 1

    monkeypatch.setattr(combat._Position, "targets", checking)
    monkeypatch.setattr(sc.map.k.play, "gwe_hex_defenses", both)
    # the greedy player weighs its attacks in Python (the reference), whose Snapshot asks
    # the kernel too, rather than in the compiled core, which does not
    monkeypatch.setattr(passive, "COMPILED_ATTACKS", False)
    for seed, policy in ((1, "random"), (2, "random"), (3, "greedy")):
        game = driver.new_game(sc, seed, seed, policies={0: make_policy(policy),
                                                         1: make_policy(policy)})
        driver.play(game)
    # retreated-in passengers, defenders that fought, entrained defenders, 23.11 panic, HQs
    # in the stack (10.53), hexes no longer open to attack (8.14); the Brusilov map has no
    # fortress (11.11: test_11_fortresses)
    assert all(seen.values()), seen
    assert calls[0] > 1000


def test_gwe_hex_defenses_refuses_bad_arguments():
    sc = load_scenario("brusilov/historical")
    g = driver.new_game(sc, 0, 0)
    st, n = g.state, sc.map.n_cells
    vals, no_trench, panicking = combat._defense_context(g, 0)
    fixed = combat._hex_fixed(sc)
    ct = combat.combat_terrain(sc)
    units = np.flatnonzero(combat.on_map(st) & (sc.units.side == 1)).astype(np.int32)
    args = [units, st.unit_cell, fixed.is_hq, g.arr("flags"), st.unit_status, vals,
            sc.units.stacking, fixed.hq_combat, panicking.view(np.uint8), no_trench.view(np.uint8), ct.doubled, ct.trench,
            fixed.no_fortress, fixed.everywhere, int(Flag.RETREATED_IN), int(Flag.DEFENDED),
            int(Status.ENTRAINED)]
    total, attackable = np.empty(n, np.int32), np.empty(n, np.uint8)
    cy.gwe_hex_defenses(*args, total, attackable)
    assert attackable.any() and total.sum() > 0
    with pytest.raises(ValueError, match="cover the map"):
        cy.gwe_hex_defenses(*args, total[:-1], attackable)
    bad = list(args)
    bad[0] = np.array([sc.units.n], np.int32)
    with pytest.raises(ValueError, match="not a unit on the map"):
        cy.gwe_hex_defenses(*bad, total, attackable)
    bad = list(args)
    bad[8] = bad[8][:-1]
    with pytest.raises(ValueError, match="a row per unit"):
        cy.gwe_hex_defenses(*bad, total, attackable)
