"""The Kaiser's Battle ladder (``policies.kb``): legal whole games on both sides, the exact
expectation of an attack checked by hand against 8.7, passive and greedy choices on
hand-built positions (declining attacks, losses that cost fewest VP, the best expectation
rather than the best odds), and the scorer's shortcuts checked against the engine.

Positions are on the real map around 2113 (a town; its six neighbours 2012, 2013, 2112,
2114, 2212, 2213 are clear with no hexside feature), a German HQ at 2413 keeping the
attackers in supply (14.13), Game-Turn 3 in clear weather with empty Artillery Tracks.
"""

import doctest
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "kb"))

from kb_positions import Scripted, kb_empty_game, kb_put

from gwe_fast.enums import Side, UnitType
from gwe_fast.games.kb import (
    artillery,
    combat,
    engine,
    invariants,
    movement,
    supply,
    units,
    victory,
)
from gwe_fast.games.kb.driver import new_game
from gwe_fast.games.kb.game import CLEAR, Flag
from gwe_fast.games.kb.zoc import controlled, occupied
from gwe_fast.policies.base import Decision, RandomPolicy
from gwe_fast.policies.kb import scoring
from gwe_fast.policies.kb.base import KbPolicy
from gwe_fast.policies.kb.doctrine import KbDoctrinePolicy
from gwe_fast.policies.kb.greedy import KbGreedyPolicy
from gwe_fast.policies.kb.passive import KbPassivePolicy

GE_DIV = "ge-xx-206-3"          # 30-3-4 / 20-3-4, corps 3
GE_DIV2 = "ge-xx-6-3"
BR_BDE = "br-x-59-20-18"        # 10-4-4 / 5-4-4
BR_BN = "br-ii-5gh-61-18"       # 3-3-4, one step
BR_BN2 = "br-ii-4ob-61-18"      # 3-3-4
BR_COY = "br-i-4sk-58-3"        # 1-3-3
LADDER = {"random": RandomPolicy, "passive": KbPassivePolicy, "greedy": KbGreedyPolicy,
          "doctrine": KbDoctrinePolicy}


@pytest.fixture(scope="module")
def historical():
    import gwe_fast

    return gwe_fast.load_scenario("kaisers_battle/historical")


def position(german=None, allied=None, turn=3):
    g = kb_empty_game(turn=turn, policies={0: allied or Scripted(default="first"),
                                           1: german or Scripted(default="first")})
    g.arr("weather")[0] = CLEAR
    kb_put(g, "ge-hq-3", "2413")
    return g


def cell(g, hexid):
    return g.scenario.map.cell(hexid)


def declared(g, side=1):
    """The next attack the side's policy declares: (attackers, defender hexes)."""
    ob = combat.obligations(g, side)
    out = combat.declare_attack(g, ob)
    if out is None:
        return None
    attackers, cells = out
    return attackers, [g.scenario.map.id_of(c) for c in cells]


# --- whole games -----------------------------------------------------------------------------

def checked(game, phase):
    """``invariants.check``, but a regimental replacement unit that left the map by the
    western edge (20.2) is neither on the map nor in the pool: the checker's pool count does
    not know exits yet (reported to the engine's owner), so that one count is made here."""
    try:
        invariants.check(game, phase)
    except AssertionError as exc:
        if "replacement units lost from the pool" not in str(exc):
            raise
        from gwe_fast.games.kb import units
        from gwe_fast.state import Status

        st, data = game.state, game.data
        on = (st.unit_status & Status.ON_MAP).astype(bool) & data.replacement
        gone = ((st.unit_status & Status.EXITED) > 0) & data.replacement
        assert (units.pool_free(game).size + int(on.sum()) + int(gone.sum())
                == int(data.replacement.sum())), str(exc)


@pytest.mark.parametrize("allied, german, seed", [("passive", "greedy", 0),
                                                   ("greedy", "passive", 1),
                                                   ("random", "passive", 2),
                                                   ("greedy", "random", 3),
                                                   ("doctrine", "doctrine", 4)])
def test_ladder_policies_play_whole_games_legally(historical, allied, german, seed):
    g = new_game(historical, seed, seed, policies={0: LADDER[allied](), 1: LADDER[german]()})
    result = engine.play(g, check=checked)
    assert g.rejections == 0
    assert result.vp == int(g.arr("vp_cause").sum())


def test_a_ladder_game_replays_exactly_from_its_seed(historical):
    runs = []
    for _ in range(2):
        g = new_game(historical, 5, 1, events=True,
                     policies={0: KbGreedyPolicy(), 1: KbGreedyPolicy()})
        engine.play(g)
        runs.append(g)
    assert runs[0].events == runs[1].events and runs[0].state.equals(runs[1].state)


def test_parameters_are_checked_and_unknown_kinds_get_a_legal_random_answer():
    with pytest.raises(TypeError, match="unknown parameter"):
        KbGreedyPolicy(agression=2)
    with pytest.raises(TypeError, match="must be a number"):
        KbPassivePolicy(min_gain="high")
    p = KbGreedyPolicy(min_gain=1, material=0.1)
    assert p.p.min_gain == 1.0 and p.weights.material == 0.1
    g = position()
    d = Decision("kb.some.new.kind", 1, ("a", "b", "c"))
    assert p.choose(d, g, np.random.default_rng(0)) in (0, 1, 2)
    d = Decision("gwe.combat.loss", 1, ("a", "b"))
    assert KbPolicy().choose(d, g, np.random.default_rng(0)) in (0, 1)


def test_doctrine_settings_follow_the_side_and_a_sweep_overrides_both():
    p = KbDoctrinePolicy(screen=0.1)
    german, allied = p._by_side[1], p._by_side[0]
    assert german.stoss_lead == 1.0 and allied.stoss_lead == 0.0
    assert allied.barrier_gap == 3 and german.barrier_gap == 0
    assert german.screen == allied.screen == 0.1
    g = position()
    div = kb_put(g, GE_DIV, "4001")            # not stosstruppen: may break down
    stoss = kb_put(g, "ge-xx-88-3", "4003")    # stosstruppen: kept whole to lead (13.1)
    d = Decision("kb.breakdown.division", 1, [-1, div, stoss])
    p2 = KbDoctrinePolicy(breakdown_within=60)
    assert d.options[p2.choose(d, g, np.random.default_rng(0))] == div
    d = Decision("kb.breakdown.division", 1, [-1, stoss])
    assert d.options[p2.choose(d, g, np.random.default_rng(0))] == -1


# --- the expectation of an attack, by hand --------------------------------------------------------

def hand_expectation(w, clear_value):
    """A German division (30) in the town 2113 attacks a company (1, MV 3) and a battalion
    (3, MV 3) stacked in clear 2012, in supply, no barrage: the quotient is
    (die x 30) // (die x 4) (8.0); at most 3 it is unsuccessful (8.72: the division loses
    its front face, 30 -> 20, and retreats: 2212 is free), above 3 the defender loses
    quotient - 3 steps (8.75), the company first (1 point and a unit), then the battalion
    (3 points and a unit); both gone: the hex is cleared."""
    company = w.material * 1 + w.unit
    battalion = w.material * 3 + w.unit
    total = 0.0
    for a in range(1, 7):
        for d in range(1, 7):
            q = (a * 30) // (d * 4)
            assert q >= 1                       # never 8.71 at these odds
            if q <= 3:
                total -= w.material * 10
            elif q - 3 == 1:
                total += company
            else:
                total += company + battalion + clear_value
    return total / 36


def test_expected_attack_matches_8_7_worked_by_hand():
    g = position()
    ger = kb_put(g, GE_DIV, "2113")
    kb_put(g, BR_COY, "2012")
    kb_put(g, BR_BN2, "2012")
    p = KbGreedyPolicy()
    snap = scoring.Snap(g.policy_view())
    e = scoring.expected_attack(snap, [ger], [cell(g, "2012")], p.weights,
                                clear_value=p.p.clear_value)
    assert e.score == pytest.approx(hand_expectation(p.weights, p.p.clear_value))
    assert e.p_eliminated == 0.0
    # 8.7's worked example through the cached odds: 7 in 36 the division is eliminated
    assert scoring.odds(30, 0, 11, 1, 4)[0] == pytest.approx(7 / 36)


def test_snap_keeps_each_units_step_costs_and_face_for_its_position_as_the_rules_give_them():
    g = position()
    ger = kb_put(g, GE_DIV, "2113")
    coy = kb_put(g, BR_COY, "2012")
    bn = kb_put(g, BR_BN2, "2012")
    w = KbGreedyPolicy().weights
    view = g.policy_view()
    snap = scoring.Snap(view)
    pool = int(units.pool_free(view).size)
    for u in (ger, coy, bn):
        for whole in (False, True):
            got = snap.step_costs(u, w, whole)
            assert got == scoring.step_costs(view, u, w, pool, whole) and got
            assert snap.step_costs(u, w, whole) is got       # kept, not priced again
        assert snap.face(u) == (units.combat(view, u), units.morale(view, u),
                                units.steps_left(view, u))
    assert snap.can_retreat(cell(g, "2012"), 0) is snap.can_retreat(cell(g, "2012"), 0)
    # another position (the division lost a step) is another snap, with its own prices
    g.state.unit_step[ger] += 1
    again = scoring.Snap(g.policy_view())
    assert len(again.step_costs(ger, w)) == len(snap.step_costs(ger, w)) - 1


def test_greedy_declares_the_attack_with_the_best_expectation_not_the_best_odds():
    g = position(german=KbGreedyPolicy())
    ger = kb_put(g, GE_DIV, "2113")            # in a town: free to attack or not (8.13)
    kb_put(g, BR_COY, "2012")                  # 1 + 3 strength, MV 3: two units to win
    kb_put(g, BR_BN2, "2012")
    kb_put(g, BR_BN, "2114")                   # 3, MV 3: better odds, less to win
    w, cv = KbGreedyPolicy().weights, KbGreedyPolicy().p.clear_value
    snap = scoring.Snap(g.policy_view())
    lone = scoring.expected_attack(snap, [ger], [cell(g, "2114")], w, clear_value=cv)
    pair = hand_expectation(w, cv)
    assert lone.p_success > 0.8 and pair > lone.score > 0
    assert declared(g) == ([ger], ["2012"])


def test_passive_declines_an_optional_attack_greedy_takes_and_both_decline_a_low_odds_one():
    for policy, expect in ((KbPassivePolicy(), None), (KbGreedyPolicy(), "2114")):
        g = position(german=policy)
        ger = kb_put(g, GE_DIV, "2113")
        kb_put(g, BR_BN, "2114")               # expectation about +0.3: below passive's 0.5
        got = declared(g)
        assert (got and got[1][0]) == expect, policy
    for policy in (KbPassivePolicy(), KbGreedyPolicy()):
        g = position(german=policy)
        ger = kb_put(g, GE_DIV, "2113")
        kb_put(g, BR_BDE, "2012")              # 10, MV 4: 3 in 36 of 8.71, loses on average
        e = scoring.expected_attack(scoring.Snap(g.policy_view()), [ger], [cell(g, "2012")],
                                    policy.weights)
        assert e.score < 0 and e.p_eliminated == pytest.approx(3 / 36)
        assert declared(g) is None


# --- losses that cost fewest victory points -----------------------------------------------------

def test_passive_takes_a_step_from_the_fresh_division_not_the_reduced_one():
    # a division losing its back face is replaced by a regiment: 1 VP (20.14)
    g = position()
    reduced = kb_put(g, GE_DIV, "2113")
    fresh = kb_put(g, GE_DIV2, "2113")
    g.state.unit_step[reduced] = 1
    d = Decision("kb.combat.loss", 1, sorted([reduced, fresh]))
    i = KbPassivePolicy().choose(d, g, np.random.default_rng(0))
    assert d.options[i] == fresh


def test_passive_allied_defender_keeps_its_units_in_the_trench():
    # 3808 is a redoubt: a brigade and a battalion there; losing the battalion puts one unit
    # fewer in a trench at the end (20.13): the brigade takes the step
    g = position(allied=KbPassivePolicy())
    assert g.data.trench[cell(g, "3808")]
    bde = kb_put(g, BR_BDE, "3808")
    bn = kb_put(g, BR_BN, "3808")
    before = victory.allied_in_trenches(g)
    combat.take_losses(g, 0, [bde, bn], 1, "combat")
    assert victory.allied_in_trenches(g) == before == 2
    assert int(g.state.unit_step[bde]) == 1 and g.state.unit_status[bn] & 1
    for kind in ("kb.drumfire.step_loss", "kb.gas.step_loss", "kb.ground_attack.step_loss"):
        d = Decision(kind, 0, [bde, bn])
        g.state.unit_step[bde] = 0
        assert d.options[KbPassivePolicy().choose(d, g, np.random.default_rng(0))] == bde


# --- the scorer's shortcuts agree with the engine ------------------------------------------------

def at_each_movement_phase(historical, index, policies, look):
    """Play game ``index`` of master seed 2 and call ``look(game, snap)`` at the start of every
    Movement Phase (``snap``: a fresh ``scoring.Snap`` of the position)."""
    def check(game, phase):
        if phase.endswith("_movement"):
            look(game, scoring.Snap(game.policy_view()))

    engine.play(new_game(historical, 2, index, policies=policies), check=check)


def test_snap_modifiers_equal_the_engines_attack_modifiers(historical):
    g = position()
    a = kb_put(g, GE_DIV, "2113")
    b = kb_put(g, "ge-iii-15-13-gyl", "2012")     # another corps: +1 (16.0)
    kb_put(g, BR_BN, "2013")
    g.arr("observed")[:] = 0
    view = g.policy_view()
    snap = scoring.Snap(view)
    for attackers in ([a], [a, b]):
        for rolling, sos in ((0, ()), (2, (4,)), (1, (3,))):
            want = combat.attack_modifiers(g, attackers, [cell(g, "2013")], rolling, sos)[:3]
            assert snap.modifiers(attackers, [cell(g, "2013")], rolling, sos) == want
    # and in played positions, out of supply and all
    seen = []

    def check(game, s):
        st = game.state
        for side in (0, 1):
            mine = np.flatnonzero((st.unit_status & 1).astype(bool)
                                  & (game.scenario.units.side == side))
            enemy = s.occ(1 - side)
            for x in mine:
                nb = [int(c) for c in game.scenario.map.neighbors[st.unit_cell[x]]
                      if c >= 0 and enemy[c]]
                if nb:
                    assert s.modifiers([int(x)], nb[:1]) == combat.attack_modifiers(
                        game, [int(x)], nb[:1])[:3]
                    seen.append(1)

    at_each_movement_phase(historical, 0, {0: KbPassivePolicy(), 1: KbGreedyPolicy()}, check)
    assert len(seen) > 20


def test_snap_faces_steps_supply_and_retreats_equal_the_rules_in_played_positions(historical):
    # Snap.face is units.combat, morale and steps_left as the rules give them (service
    # companies, units off the map, the pool's third step); Snap.step_costs the steps priced
    # from the arrays (8.5, 20.13, 20.14); Snap.supply_state supply.state_of (14.13, 17.5);
    # Snap.can_retreat a neighbour neither occupied nor controlled by the enemy (8.74, 6.33)
    seen = []
    w = KbGreedyPolicy().weights

    def steps_by_hand(view, x, pool, whole):
        # 8.5, 20.13, 20.14 from the arrays, as scoring.step_costs prices them
        sc, st, data = view.scenario, view.state, view.data
        cell = int(st.unit_cell[x])
        allied_dug_in = sc.units.side[x] == Side.ALLIED and cell >= 0 and data.trench[cell]
        last = w.unit + (w.trench if allied_dug_in else 0.0)
        if view.arr("flags")[x] & Flag.SERVICE:
            return [w.material * float(data.service_values[x, 0]) + last]
        k, n = int(st.unit_step[x]), int(sc.units.n_steps[x])
        vals = sc.units.values[x, :, 0]
        if whole:
            return [w.material * float(max(vals[k], 0)) + last]
        out = [w.material * (float(vals[j]) - float(vals[j + 1])) for j in range(k, n - 1)]
        if k < n:
            cur = float(vals[n - 1])
            if data.division[x] and pool > 0:              # 13.23: the regiment's step
                rep = float(sc.units.values[np.flatnonzero(sc.units.utype
                                                           == UnitType.REPLACEMENT)[0], 0, 0])
                vp = abs(scoring.vp_of(sc, "german_division_replaced"))
                out += [w.material * (cur - rep) + w.vp * vp, w.material * rep + last]
            else:
                out.append(w.material * cur + last)
        return out

    def check(game, s):
        st = game.state
        view = game.policy_view()
        nb = game.scenario.map.neighbors
        pool = int(units.pool_free(view).size)
        for x in range(game.scenario.units.n):
            assert s.face(x) == (units.combat(view, x), units.morale(view, x),
                                 units.steps_left(view, x))
            if st.unit_status[x] & 1:
                for whole in (False, True):
                    assert s.step_costs(x, w, whole) == steps_by_hand(view, x, pool, whole)
                side = int(game.scenario.units.side[x])
                assert s.supply_state(x) == supply.state_of(
                    view, supply.line_lengths(view, side), x)
        for side in (0, 1):
            bad = occupied(game, 1 - side) | controlled(game, 1 - side)
            for c in np.unique(st.unit_cell[st.unit_cell >= 0]).tolist():
                want = bool(((nb[c] >= 0) & ~bad[np.maximum(nb[c], 0)]).any())
                assert s.can_retreat(c, side) is want
                seen.append(want)

    at_each_movement_phase(historical, 3, {0: KbGreedyPolicy(), 1: KbGreedyPolicy()}, check)
    assert True in seen and False in seen


def test_expected_prefixes_equal_expected_attack_of_every_team(historical):
    # the planner weighs every prefix of its strongest-first candidates at once: each must
    # be what expected_attack gives that team, bit for bit, in played positions (several
    # attacker hexes and corps, trench hexes, units out of supply)
    w = scoring.Weights()
    seen = []

    def check(game, s):
        st, u = game.state, game.scenario.units
        D = game.scenario.map.neighbors
        for side in (0, 1):
            enemy = s.occ(1 - side)
            mine = [int(x) for x in np.flatnonzero((st.unit_status & 1).astype(bool)
                                                   & (u.side == side))]
            for e in np.flatnonzero(enemy)[::5]:
                around = {int(c) for c in D[e] if c >= 0}
                second = {int(c) for a in around for c in D[a] if c >= 0}
                team = [x for x in mine if int(st.unit_cell[x]) in around | second][:8]
                if not team:
                    continue
                for cv in (0.0, 1.3):
                    got = scoring.expected_prefixes(s, team, [int(e)], w, clear_value=cv)
                    want = [scoring.expected_attack(s, team[:k], [int(e)], w, clear_value=cv)
                            for k in range(1, len(team) + 1)]
                    assert got == want
                seen.append(len(team))

    at_each_movement_phase(historical, 1, {0: KbGreedyPolicy(), 1: KbGreedyPolicy()}, check)
    assert len(seen) > 20 and max(seen) >= 4


def test_the_scorer_examples_run():
    assert doctest.testmod(scoring).failed == 0


def test_barrage_values_read_the_drumfire_table_as_the_engine_does():
    g = position()
    kb_put(g, BR_BDE, "3808")                    # a redoubt: +2 to the die (9.44)
    kb_put(g, BR_BN, "3808")
    kb_put(g, BR_COY, "2012")
    w = scoring.Weights()
    view = g.policy_view()
    snap = scoring.Snap(view)
    for hexid in ("3808", "2012"):
        c = cell(g, hexid)
        here = [int(u) for u in g.state.units_at(c)]
        cum = scoring.cheapest([scoring.step_costs(view, u, w) for u in here], 8)
        vals = scoring.barrage_values(snap, c, 6, w)
        for pts in range(1, 7):
            want = np.mean([cum[min(artillery.drumfire_result(g, c, pts, die), len(cum) - 1)]
                            for die in range(1, 7)])
            assert vals[pts] == pytest.approx(want)


# --- the Allied greedy player: side defaults, the screen, the last word -------------------------

def last_turn_position(policy):
    """Game-Turn 10 (the last), the Allied Movement Phase about to start: a German division
    and HQ far east, the town 3809 (west of the VP line) last passed through by the German
    player, a battalion in the redoubt 3808 next to it, a battalion in clear 3710 and the
    18th Corps HQ in clear 3709."""
    from gwe_fast.enums import Side

    g = kb_empty_game(turn=10, policies={0: policy, 1: Scripted(default="first")})
    g.arr("weather")[0] = CLEAR
    kb_put(g, "ge-hq-3", "4413")
    kb_put(g, GE_DIV, "4412")
    a = kb_put(g, BR_BN, "3710")
    b = kb_put(g, BR_BN2, "3808")
    hq = kb_put(g, "br-hq-18", "3709")
    g.state.hex_last[cell(g, "3809")] = int(Side.CENTRAL)
    g.state.phase = np.int16(engine.ALLIED_MOVEMENT)
    g.state.player = np.int8(0)
    return g, a, b, hq


def test_greedy_takes_side_defaults_and_named_parameters_win_for_both_sides():
    p = KbGreedyPolicy()
    assert p.params_for(0).screen == 0.15 and p.params_for(0).screen_free is True
    assert p.params_for(1).screen == 0.0 and p.params_for(1).screen_free is False
    assert p.params_for(1).min_gain == p.params_for(0).min_gain == 0.0
    q = KbGreedyPolicy(screen=0.4)
    assert q.params_for(0).screen == q.params_for(1).screen == 0.4
    assert KbPassivePolicy().params_for(0).screen == 0.0
    with pytest.raises(TypeError, match="unknown parameter"):
        KbGreedyPolicy(screen_fre=True)


def test_the_last_word_prices_victory_points_only():
    # the Allied Player-Turn of Game-Turn 10: a step, a unit, an Artillery Point are worth
    # nothing once the game ends; a trench hex held (20.13) and a town (20.11) 1 VP each
    g, *_ = last_turn_position(KbGreedyPolicy())
    greedy = KbGreedyPolicy()
    view = g.policy_view()
    d = Decision("kb.move.unit", 0, (-1,), {"segment": 1})
    p, w = greedy.setting(greedy.params_for(0), greedy._home[1], view, d)
    assert (w.material, w.unit, w.arty, w.trench, w.town, w.vp) == (0, 0, 0, 1, 1, 1)
    assert (p.contact, p.max_eliminated, p.hold, p.town_hold, p.screen) == (0, 1, 1, 0, 0)
    # not for the German, not without endgame (passive), not on Game-Turn 9
    for pol, side, turn in ((greedy, 1, 10), (KbPassivePolicy(), 0, 10), (greedy, 0, 9)):
        g.state.turn = np.int16(turn)
        dd = Decision("kb.move.unit", side, (-1,), {"segment": 1})
        assert pol.setting(pol.params_for(side), pol._home[1], view, dd) == \
            (pol.params_for(side), pol._home[1])


def test_last_word_plan_fills_trench_hexes_and_retakes_towns_once():
    from gwe_fast.policies.kb.position import plan_last_word

    g, a, b, hq = last_turn_position(KbGreedyPolicy())
    plan = plan_last_word(g.policy_view(), 0, 1.0, 1.0, [a, b, hq])
    # the HQ (a unit for 20.13) goes through the town into the redoubt 3811: +2; the
    # battalion in the open to the fieldwork 3009 by the Second Segment's tripled allowance
    # (5.22): +1; the one in 3808 gains nothing by leaving it (the town is taken): stays
    assert plan == {hq: (movement.FIRST, cell(g, "3811")), a: (movement.SECOND, cell(g, "3009"))}
    assert g.data.trench[cell(g, "3811")] and g.data.trench[cell(g, "3009")]
    _, pred = movement.routes(g, hq, movement.FIRST)
    assert cell(g, "3809") in units.path_to(g, pred, cell(g, "3811"))
    assert (victory.allied_in_trenches(g), int(victory.german_towns(g).sum())) == (1, 1)
    engine.movement_phase(g, 0)
    assert (victory.allied_in_trenches(g), int(victory.german_towns(g).sum())) == (3, 0)
    assert int(g.state.unit_cell[b]) == cell(g, "3808")
    assert [int(g.state.unit_cell[x]) for x in (hq, a)] == [cell(g, "3811"), cell(g, "3009")]


def test_last_word_plan_a_trench_unit_leaves_only_for_another_with_a_town_on_the_way():
    from gwe_fast.policies.kb.position import plan_last_word

    g, a, b, hq = last_turn_position(KbGreedyPolicy())
    for x in (a, hq):
        g.remove(g.scenario.units.ids[x])
    plan = plan_last_word(g.policy_view(), 0, 1.0, 1.0, [b])
    seg, dest = plan[b]                        # 3808 -> 3809 -> a trench hex: +1 town
    assert g.data.trench[dest] and dest != cell(g, "3808")
    _, pred = movement.routes(g, b, seg)
    assert cell(g, "3809") in units.path_to(g, pred, dest)
    g.state.hex_last[cell(g, "3809")] = 0      # nothing to take: it stays
    assert plan_last_word(g.policy_view(), 0, 1.0, 1.0, [b]) == {}


def test_greedy_allied_screen_comes_from_units_outside_trench_hexes():
    # a German division at 3213: the hexes 2-3 from it are the screen band (6.21, 5.22); a
    # battalion in the clear prices the hexes by the band hexes its zone would newly cover,
    # one in the fieldwork 3009 (20.13) does not screen at all
    from gwe_fast.policies.kb.position import Board

    g = position()
    kb_put(g, GE_DIV, "3213")
    free = kb_put(g, BR_BN, "2813")
    dug = kb_put(g, BR_BN2, "3009")
    assert g.data.trench[cell(g, "3009")] and not g.data.trench[cell(g, "2813")]
    greedy = KbGreedyPolicy()
    view = g.policy_view()
    p, w = greedy.params_for(0), greedy.weights
    board = Board(view, 0, w, p, scoring.Snap(view))
    off = Board(view, 0, w, KbPassivePolicy().params_for(0), scoring.Snap(view))
    cells = np.array([cell(g, h) for h in ("2913", "3011", "2020")])
    gain = board.screen_gain[cells] * (board.adj_enemy[cells] == 0)
    assert gain[0] > 0 and gain[2] == 0
    np.testing.assert_allclose(board.values(free, cells) - off.values(free, cells),
                               0.15 * gain)
    np.testing.assert_allclose(board.values(dug, cells), off.values(dug, cells))


def test_board_refresh_follows_each_move_and_keeps_its_arrays_while_nothing_moved():
    # the Board's own-side stacking and screen cover are made again after a unit moves (and
    # when a town changes hands, 20.11); while nothing it reads changed, refresh keeps them
    from gwe_fast.policies.kb.position import Board

    g = position()
    kb_put(g, GE_DIV, "3213")
    bn = kb_put(g, BR_BN, "2813")
    greedy = KbGreedyPolicy()
    view = g.policy_view()
    board = Board(view, 0, greedy.weights, greedy.params_for(0), scoring.Snap(view))
    a, b = cell(g, "2813"), cell(g, "2913")
    before = board.my_sp
    assert before[a] > 0 and before[b] == 0
    board.refresh()
    assert board.my_sp is before                       # nothing moved: kept
    g.state.unit_cell[bn] = b
    board.refresh()
    assert board.my_sp is not before and board.my_sp[a] == 0 and board.my_sp[b] == before[a]
    gain = board.path_gain.copy()
    town = int(np.flatnonzero(g.data.town & g.data.west_of_vp_line)[0])
    g.state.hex_last[town] = 1 if g.state.hex_last[town] != 1 else 0
    board.refresh()
    assert bool(board.path_gain[town]) != bool(gain[town])


@pytest.mark.parametrize("impl", ["cython", "pure"])
def test_path_values_count_the_towns_on_the_engines_own_path(historical, impl, monkeypatch):
    # Board.path_values sums the towns a unit would take on its way to each hex (the policy
    # kernel kb_path_gains, or its twin); here each path is walked back hex by hex from the
    # engine's own predecessors (movement.routes), for every third unit in played positions,
    # German and Allied
    from gwe_fast._pure import policy as pure_policy
    from gwe_fast.policies.gwe import scoring as gwe_scoring
    from gwe_fast.policies.kb.position import Board

    if impl == "pure":
        monkeypatch.setattr(gwe_scoring, "kernel", lambda scenario: pure_policy)

    seen = []

    def check(game, s):
        st = game.state
        view = game.policy_view()
        greedy = KbGreedyPolicy()
        for side in (0, 1):
            board = Board(view, side, greedy.weights, greedy.params_for(side), s)
            gain = board.path_gain
            mine = np.flatnonzero((st.unit_status & 1).astype(bool)
                                  & (game.scenario.units.side == side))
            for x in mine[::3].tolist():
                for seg in (movement.FIRST, movement.SECOND):
                    dist, pred = movement.routes(view, x, seg)
                    here = int(st.unit_cell[x])
                    cells = np.flatnonzero(dist > 0)
                    want = []
                    for c in cells.tolist():
                        on_way, at = 0.0, int(pred[c])
                        while at >= 0 and at != here:        # the hexes before c, start out
                            on_way += float(gain[at])
                            at = int(pred[at])
                        want.append(on_way)
                    got = board.path_values(x, seg, cells)
                    assert got.tolist() == want
                    seen.append(max(want, default=0.0))

    at_each_movement_phase(historical, 3, {0: KbGreedyPolicy(), 1: KbGreedyPolicy()}, check)
    assert len(seen) > 200 and max(seen) >= 2.0          # paths through two towns and more


def test_the_last_word_only_when_the_allied_player_turn_ends_the_game():
    # with first_player = "allied" (issue 30's variant) the German Player-Turn follows the
    # Allied one on Game-Turn 10: the Allied player's move is not the last word
    from gwe_fast.games.kb.game import KbGame
    from gwe_fast.runner.sweep import load_cell_scenario

    p = KbGreedyPolicy().params_for(0)
    for first, last in (("central", True), ("allied", False)):
        sc = load_cell_scenario("kaisers_battle/historical", {},
                                {"scenario.first_player": first})
        g = KbGame(sc, seed=0)
        g.state.turn = np.int16(10)
        g.state.phase = np.int16(engine.ALLIED_MOVEMENT)
        assert KbPassivePolicy.last_word(g, 0, p) is last
