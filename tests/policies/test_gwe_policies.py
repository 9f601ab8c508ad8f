"""The Great War in the East ladder: legal whole campaigns, read-only state, the exact
expected outcome of an attack checked by hand against the CRT, passive and greedy choices on
hand-built positions, and the user policy of docs/policies.md run as ``module:Class``."""

import doctest
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "games" / "gwe"))

from combat_positions import board, cell, unit

from gwe_fast import load_scenario
from gwe_fast.games.gwe import combat, engine, invariants
from gwe_fast.games.gwe.combat import NONE
from gwe_fast.games.gwe.game import GweGame
from gwe_fast.policies.base import Decision, RandomPolicy
from gwe_fast.policies.gwe import scoring
from gwe_fast.policies.gwe.base import GwePolicy
from gwe_fast.policies.gwe.greedy import GreedyPolicy
from gwe_fast.policies.gwe.passive import PassivePolicy
from gwe_fast.policies.registry import PolicyError, make_policy

ROOT = Path(__file__).resolve().parents[2]
STRONG = [[10, 4, 4], [5, 2, 4]]          # a Russian division that attacks at 10


@pytest.fixture(scope="module")
def historical():
    return load_scenario("brusilov/historical")


# --- whole campaigns ------------------------------------------------------------------------------

@pytest.mark.parametrize("allied, central, seed", [("passive", "greedy", 0),
                                                    ("greedy", "passive", 1)])
def test_ladder_policies_play_whole_campaigns_legally(historical, allied, central, seed):
    g = GweGame(historical, seed=seed, game_index=seed,
                policies={0: make_policy(allied), 1: make_policy(central)})
    result = engine.play(g, check=invariants.check)
    assert g.rejections == 0
    assert result.turns_played == historical.n_turns
    assert result.vp == int(g.arr("vp_cause").sum())


def test_a_ladder_game_replays_exactly_from_its_seed(historical):
    runs = []
    for _ in range(2):
        g = GweGame(historical, seed=3, game_index=1, events=True,
                    policies={0: make_policy("greedy"), 1: make_policy("greedy")})
        engine.play(g)
        runs.append(g)
    assert runs[0].events == runs[1].events and runs[0].state.equals(runs[1].state)


# --- what a policy may touch ------------------------------------------------------------------

class Vandal(GwePolicy):
    """Tries to change the game through what it is handed."""

    def __init__(self, how):
        super().__init__()
        self.how = how

    def choose(self, decision, game, rng):
        self.how(game.policy_view())
        return 0


@pytest.mark.parametrize("how, error", [
    (lambda v: v.state.unit_step.__setitem__(0, 1), ValueError),
    (lambda v: v.state.unit_cell.fill(0), ValueError),
    (lambda v: v.arr("flags").__setitem__(0, 1), ValueError),
    (lambda v: v.state.extra["vp_cause"].__setitem__(0, 99), ValueError),
    (lambda v: setattr(v.state, "vp", 99), AttributeError),
    (lambda v: setattr(v.state, "unit_cell", v.state.unit_cell.copy()), AttributeError),
    (lambda v: setattr(v, "state", None), AttributeError),
    (lambda v: v.roll("combat"), AttributeError),
    (lambda v: v.add_vp("towns", 5), AttributeError),
])
def test_a_policy_cannot_change_the_game_through_its_view(historical, how, error):
    g = GweGame(historical, seed=0, policies={0: Vandal(how)})
    before = g.state.copy()
    with pytest.raises(error):
        engine.play(g)
    assert int(g.state.vp) == int(before.vp)
    assert np.array_equal(g.state.unit_step, before.unit_step)


def test_the_view_follows_the_game_and_copies_are_writable(historical):
    g = GweGame(historical, seed=0)
    v = g.policy_view()
    assert v is g.policy_view()
    g.state.turn = np.int16(5)
    g.state.unit_step[3] = 1
    assert int(v.state.turn) == 5 and int(v.state.unit_step[3]) == 1
    c = v.state.copy()
    c.unit_step[3] = 0                     # a detached copy, for playing ahead
    assert int(g.state.unit_step[3]) == 1
    flags = g.arr("flags")
    flags[2] = 7
    assert int(v.arr("flags")[2]) == 7 and v.arr("flags") is v.arr("flags")


def test_a_state_changes_its_arrays_in_place_and_never_replaces_them(historical):
    # the views a policy reads are made once: a replaced array would leave them behind
    g = GweGame(historical, seed=0)
    with pytest.raises(AttributeError, match="changed in place"):
        g.state.unit_cell = g.state.unit_cell.copy()
    g.state.vp = np.int32(4)                               # scalars are replaced
    assert int(g.policy_view().state.vp) == 4


def test_ladder_parameters_are_checked():
    assert make_policy("greedy:aggression=2,material=1")._impls["gwe"].p.aggression == 2.0
    with pytest.raises(PolicyError, match="unknown parameter nosuch"):
        make_policy("greedy:nosuch=1")
    with pytest.raises(PolicyError, match="must be a number"):
        make_policy("passive:min_gain=lots")


# --- the expectation of an attack, by hand --------------------------------------------------------

def two_targets(**kw):
    """Germans (TCR 1: no 10.43 penalty) in two hexes. In 0101, the map's corner, a division
    whose only two neighbours hold Russians: it can neither retreat nor trace a line
    (surrounded, 25.13); attacked by 6 + 7 = 13 against 4, 3-1. In 0505 a division free to
    retreat, attacked by 10 + 10 = 20 against 4, 5-1."""
    return board([
        unit("ge-b", "german", "0101"),
        unit("ru-b1", "russian", "0201", steps=[[6, 4, 4], [3, 2, 4]]),
        unit("ru-b2", "russian", "0102", steps=[[7, 4, 4], [3, 2, 4]]),
        unit("ge-a", "german", "0505"),
        unit("ru-a1", "russian", "0504", steps=STRONG),
        unit("ru-a2", "russian", "0604", steps=STRONG),
    ], **kw)


def hand_expectation(results, trapped, w):
    """The attacker's expected gain over the six faces of a column, worked out from the
    printed results for one two-step, two-SP German division (Weights ``w``): attackers lose
    half the two affected steps (one step of a two-step division: ``material``) on a 1; the
    defender takes his cheapest option of 8.9."""
    step = w.material * 2 / 2                       # one step of a 2-SP, 2-step unit
    vp = 2 * (2 if trapped else 1)                  # 25.2, doubled when surrounded (25.13)
    wipe = 2 * step + vp + w.ground                 # all steps, the VP, the hex
    total = 0.0
    for code in results:
        att, dfn = code.split("/")
        gain = -step if att == "1" else 0.0
        if dfn == "E":
            gain += wipe
        elif dfn == "3":        # eliminate all, or lose half and retreat two
            gain += wipe if trapped else min(wipe, step + w.ground)
        elif dfn == "2":        # eliminate all, lose half and retreat one, or retreat two
            gain += wipe if trapped else min(wipe, step + w.ground, w.ground)
        elif dfn == "1":        # lose half, or retreat one
            gain += step if trapped else min(step, w.ground)
        total += gain / 6
    return total


def test_expected_attack_matches_the_crt_worked_by_hand():
    g = two_targets()
    w = scoring.Weights()
    table = g.scenario.tables["crt"]
    row = table["odds"]["tcr23"]
    b = cell(g, "0101")
    a = cell(g, "0505")
    assert combat.is_surrounded(g, g.unit("ge-b")) and not combat.is_surrounded(g, g.unit("ge-a"))
    e_b = scoring.evaluate_attack(g, [g.unit("ru-b1"), g.unit("ru-b2")], [b], w)
    e_a = scoring.evaluate_attack(g, [g.unit("ru-a1"), g.unit("ru-a2")], [a], w)
    assert row[e_b.column] == "3-1" and row[e_a.column] == "5-1"
    faces = [r for r in table["results"][:6]]             # a six-sided die, no modifier
    by_hand_b = hand_expectation([f[e_b.column] for f in faces], True, w)
    by_hand_a = hand_expectation([f[e_a.column] for f in faces], False, w)
    assert e_b.score == pytest.approx(by_hand_b) == pytest.approx(15.25 / 6)
    assert e_a.score == pytest.approx(by_hand_a) == pytest.approx(6.5 / 6)
    # and the expected steps: the trapped division loses both on a 3 or 2, one on a 1
    assert e_b.defender_steps == pytest.approx((2 + 2 + 2 + 1 + 1 + 1) / 6)
    assert e_b.attacker_steps == pytest.approx(4 / 6)


def declare(policy, g, side=0):
    opts = [combat.STOP] + combat.legal_targets(g, side)
    i = policy.choose(Decision("gwe.combat.declare", side, opts), g, np.random.default_rng(0))
    return opts[i], opts


def test_greedy_declares_the_attack_with_the_best_expectation_not_the_best_odds():
    g = two_targets()
    pick, opts = declare(GreedyPolicy(), g)
    assert set(opts) == {combat.STOP, cell(g, "0101"), cell(g, "0505")}
    assert pick == cell(g, "0101")            # 3-1 on a trapped division beats 5-1
    # without the trap (a free hex beside it) the 5-1 attack is the better one
    g2 = two_targets()
    g2.remove("ru-b2")
    g2.place("ru-b2", "0302")
    pick2, _ = declare(GreedyPolicy(), g2)
    assert pick2 == cell(g2, "0505")


def test_greedy_then_builds_that_attack_with_its_attackers():
    g = two_targets()
    pol = GreedyPolicy()
    rng = np.random.default_rng(0)
    declare(pol, g)
    chosen = []
    while True:
        opts = [combat.DONE] + [("unit", x) for x in (g.unit("ru-b1"), g.unit("ru-b2"))
                                if x not in chosen]
        o = opts[pol.choose(Decision("gwe.combat.attack", 0, opts,
                                     {"attackers": tuple(chosen)}), g, rng)]
        if o == combat.DONE:
            break
        chosen.append(o[1])
    assert sorted(chosen) == sorted([g.unit("ru-b1"), g.unit("ru-b2")])


def _spy_evaluations(monkeypatch):
    """Every ``scoring.evaluate_attack`` a policy makes: (attackers, cells, shift_right)."""
    seen = []
    real = scoring.evaluate_attack

    def spy(game, attackers, cells, w, **kw):
        seen.append((tuple(int(x) for x in attackers), tuple(int(c) for c in cells),
                     kw.get("shift_right", 0)))
        return real(game, attackers, cells, w, **kw)
    monkeypatch.setattr(scoring, "evaluate_attack", spy)
    return seen


def test_an_hq_shift_weighed_for_one_attack_is_not_lent_to_the_next(monkeypatch):
    # greedy weighs an attack's massed artillery with the HQ shift it chose for that attack
    # (10.21, 19.21); an attack that was offered no HQ shift is weighed with none, not with
    # the last attack's (a Brusilov game of greedy players once carried it over)
    from gwe_fast.games.gwe import command

    g = two_targets()
    pol, rng = GreedyPolicy(), np.random.default_rng(0)
    hq = g.unit("ge-a")                              # any unit: its ratings are given below
    monkeypatch.setattr(command, "hq_ratings", lambda view, h: (2, 0, 0))
    seen = _spy_evaluations(monkeypatch)
    a = {"attackers": (g.unit("ru-a1"), g.unit("ru-a2")), "defender_cells": (cell(g, "0505"),)}
    b = {"attackers": (g.unit("ru-b1"), g.unit("ru-b2")), "defender_cells": (cell(g, "0101"),)}
    depot = g.unit("ru-a1")                          # stands for a depot in range
    i = pol.choose(Decision("gwe.combat.attack_shift", 0, [(), (hq,)], b), g, rng)
    assert i == 1                                    # 3-1 to 5-1 on the trapped division
    seen.clear()
    pol.choose(Decision("gwe.combat.massed_artillery", 0, [NONE, depot], a), g, rng)
    assert seen and all(s == 0 for _, _, s in seen)  # A had no shift
    pol.choose(Decision("gwe.combat.attack_shift", 0, [(), (hq,)], b), g, rng)
    seen.clear()
    pol.choose(Decision("gwe.combat.massed_artillery", 0, [NONE, depot], b), g, rng)
    assert seen and all(s == 2 for _, _, s in seen)  # B's own shift
    seen.clear()
    pol.choose(Decision("gwe.combat.massed_artillery", 0, [NONE, depot], b), g, rng)
    assert seen and all(s == 0 for _, _, s in seen)  # used once


def test_the_defensive_shift_weighs_this_combats_attackers_only(monkeypatch):
    # 21.1: greedy weighs its defensive shift against the attackers its defensive artillery
    # was asked about in the same combat; a later Combat Phase's attack on the same hex is
    # weighed against the units that may attack it now (a Brusilov game once weighed units
    # eliminated since, and failed)
    g = two_targets()
    pol, rng = GreedyPolicy(), np.random.default_rng(0)
    seen = _spy_evaluations(monkeypatch)
    here = (cell(g, "0505"),)
    only_a1 = (g.unit("ru-a1"),)
    depot = g.unit("ge-b")                           # stands for a depot in range
    pol.choose(Decision("gwe.combat.defensive_artillery", 1, [NONE, depot],
                        {"attackers": only_a1, "defender_cells": here}), g, rng)
    defenders = {"defenders": (g.unit("ge-a"),)}
    seen.clear()
    pol.choose(Decision("gwe.combat.defense_shift", 1, [(), ()], defenders), g, rng)
    assert {s[0] for s in seen} == {only_a1}         # the same combat: its attackers
    pol.choose(Decision("gwe.combat.defensive_artillery", 1, [NONE, depot],
                        {"attackers": only_a1, "defender_cells": here}), g, rng)
    g.state.turn = np.int16(int(g.state.turn) + 1)   # a later Combat Phase, the same hex
    seen.clear()
    pol.choose(Decision("gwe.combat.defense_shift", 1, [(), ()], defenders), g, rng)
    both = tuple(sorted((g.unit("ru-a1"), g.unit("ru-a2"))))
    assert {s[0] for s in seen} == {both}            # who may attack it now


def test_the_game_that_carried_stale_attackers_plays_to_the_end(historical):
    # random Russians against greedy Central Powers, seed 92, game 164: the defensive shift
    # was weighed against an attacker of an earlier Combat Phase's attack on the same hex,
    # eliminated since, and the game failed (scripts/check_parity.py found it)
    g = GweGame(historical, seed=92, game_index=164,
                policies={0: RandomPolicy(), 1: make_policy("greedy")})
    engine.play(g)
    assert int(g.state.turn) == historical.last_turn


def trapped_at(attack):
    """The trapped German division of 0101 attacked by two Russians of ``attack`` each."""
    return board([
        unit("ge-b", "german", "0101"),
        unit("ru-b1", "russian", "0201", steps=[[attack, 4, 4], [1, 2, 4]]),
        unit("ru-b2", "russian", "0102", steps=[[attack, 4, 4], [1, 2, 4]]),
    ])


def test_passive_declines_a_low_odds_attack_that_greedy_takes():
    g = trapped_at(4)                                   # 8 against 4: 2-1
    w = scoring.Weights()
    e = scoring.evaluate_attack(g, [g.unit("ru-b1"), g.unit("ru-b2")], [cell(g, "0101")], w)
    assert g.scenario.tables["crt"]["odds"]["tcr23"][e.column] == "2-1"
    assert e.score > 0 and e.defender_steps < 2 * e.attacker_steps
    assert declare(GreedyPolicy(), g)[0] == cell(g, "0101")
    assert declare(PassivePolicy(), g)[0] == combat.STOP
    g3 = trapped_at(8)                                  # 16 against 4: 4-1
    assert declare(PassivePolicy(), g3)[0] == cell(g3, "0101")


def test_both_decline_an_attack_that_loses_on_average():
    g = board([unit("ge-a", "german", "0505"),
               unit("ru-a1", "russian", "0504"), unit("ru-a2", "russian", "0604")])
    e = scoring.evaluate_attack(g, [g.unit("ru-a1"), g.unit("ru-a2")], [cell(g, "0505")],
                                scoring.Weights())
    assert e.score < 0
    assert declare(GreedyPolicy(), g)[0] == combat.STOP
    assert declare(PassivePolicy(), g)[0] == combat.STOP


def test_the_defender_takes_the_cheapest_option_and_loses_the_cheapest_step():
    g = two_targets()
    pol = PassivePolicy()
    rng = np.random.default_rng(0)
    opts = ["eliminate_all", "lose_half_and_retreat_1", "retreat_2"]
    d = Decision("gwe.combat.option", 1, opts, {"result": "2", "affected": 2,
                                                "defender_cells": (cell(g, "0505"),)})
    assert opts[pol.choose(d, g, rng)] == "retreat_2"         # free to go: no step lost
    g.state.unit_step[g.unit("ru-a1")] = 1                    # one step left: its loss is VP
    d = Decision("gwe.combat.loss", 0, [g.unit("ru-a1"), g.unit("ru-a2")],
                 {"role": "attacker", "steps": 1})
    assert d.options[pol.choose(d, g, rng)] == g.unit("ru-a2")


def test_surrounded_and_retreat_shortcuts_agree_with_the_engine_in_played_positions(historical):
    from gwe_fast.games.gwe import retreat

    g = GweGame(historical, seed=2, game_index=2)
    seen = []

    def check(game, where):
        if where != "combat" or int(game.state.turn) % 3:
            return
        snap = scoring.Snapshot(game)
        for side in (0, 1):
            fast = scoring.surrounded_cells(game, side)
            zoc = retreat.open_enemy_zoc(game, side)
            for x in game.on_map(side):
                c = int(game.state.unit_cell[x])
                assert fast[c] == combat.is_surrounded(game, int(x))
                for n in (1, 2):
                    paths = retreat.candidate_paths(game, c, n, side)
                    free = [p for p in paths if not zoc[list(p)].any()]
                    assert scoring.retreat_exists(game, c, n, side, snap) == bool(free)
                    assert scoring.retreat_exists(game, c, n, side, snap, True) == bool(paths)
                    seen.append(bool(free))

    engine.play(g, check=check)
    assert any(seen) and len(seen) > 200


# --- a user's own policy: docs/policies.md --------------------------------------------------------

def _user_module(tmp_path) -> str:
    text = (ROOT / "docs" / "policies.md").read_text()
    block = re.search(r"```python\n# my_policies\.py\n(.*?)```", text, re.DOTALL)
    assert block, "docs/policies.md shows my_policies.py"
    (tmp_path / "my_policies.py").write_text(block.group(1))
    return "my_policies"


def test_the_docs_page_examples_run(tmp_path, monkeypatch):
    _user_module(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = doctest.testfile(str(ROOT / "docs" / "policies.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


def test_the_user_policy_runs_as_module_class_from_the_command_line(tmp_path, tiny_dir):
    import subprocess

    _user_module(tmp_path)
    out = tmp_path / "t.md"
    r = subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()",
                        "tournament", str(tiny_dir / "tiny.toml"), "--policies",
                        "random,my_policies:HighOdds:min_column=4", "--games", "2",
                        "--workers", "1", "--out", str(out)],
                       check=False, capture_output=True, text=True, timeout=300,
                       cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "`my_policies:HighOdds:min_column=4`" in out.read_text()


def test_an_unknown_decision_kind_gets_a_legal_random_answer():
    pol = GreedyPolicy()
    rng = np.random.default_rng(1)
    d = Decision("gwe.something.new", 0, ["a", "b", "c"])
    assert all(0 <= pol.choose(d, None, rng) < 3 for _ in range(20))
    assert isinstance(RandomPolicy().choose(d, None, rng), int)
    assert not math.isnan(scoring.Weights().material)


# --- lookahead --------------------------------------------------------------------------------

class _Stop(Exception):
    pass


def _before_movement(historical, turn: int, side: int, seed: int = 4) -> GweGame:
    """A greedy game stopped at the start of ``side``'s Movement Phase of ``turn``."""
    g = GweGame(historical, seed=seed, game_index=seed,
                policies={0: make_policy("greedy"), 1: make_policy("greedy")})
    engine.advance(g, engine.position(historical, turn, side, engine.MOVEMENT))
    assert (int(g.state.turn), int(g.state.player), int(g.state.phase)) == (
        turn, side, engine.MOVEMENT)
    return g


def test_lookahead_plays_its_plans_on_copies_and_leaves_the_game_alone(historical):
    from gwe_fast.policies.gwe.lookahead import LookaheadPolicy

    g = _before_movement(historical, 3, 0)
    before, rolls = g.state.copy(), g.dice.counts()
    la = LookaheadPolicy(plans=3, rollouts=2, horizon=1)
    view = g.policy_view()
    la.new_game(view)
    values = [[la.rollout(view, 0, k, seed) for seed in (11, 12)] for k in range(3)]
    assert g.state.equals(before) and g.dice.counts() == rolls
    assert all(np.isfinite(v) for row in values for v in row)
    assert values[1] == [la.rollout(view, 0, 1, seed) for seed in (11, 12)]   # same dice
    la.begin_phase(view, 0, 0, engine.MOVEMENT, np.random.default_rng(5))
    assert len(la.chosen) == 1 and 0 <= la.chosen[0] < 3
    assert la.turn_key == (3, 0) and g.state.equals(before) and g.dice.counts() == rolls
    la.begin_phase(view, 0, 1, engine.MOVEMENT, np.random.default_rng(5))   # not its turn
    la.begin_phase(view, 0, 0, engine.COMBAT, np.random.default_rng(5))     # not its start
    assert len(la.chosen) == 1


def test_lookahead_near_the_end_plays_to_the_end_and_values_the_final_total(historical):
    from gwe_fast.policies.gwe.lookahead import LookaheadPolicy

    last = historical.last_turn
    g = _before_movement(historical, last - 1, 1)
    la = LookaheadPolicy(plans=1, rollouts=1, endgame=2)
    view = g.policy_view()
    la.new_game(view)
    assert la.stop_turn(historical, last - 1) is None
    assert la.stop_turn(historical, last - 5) == last - 4
    central = la.rollout(view, 1, 0, 7)
    allied = la.rollout(view, 0, 0, 7)
    # the final Russian total, signed for the side: no material or provisional-town term
    assert central == int(central) and allied == int(allied)
    sim = GweGame(historical, seed=7, game_index=0, state=view.state.copy(),
                  policies={0: make_policy("greedy"), 1: make_policy("greedy")})
    assert allied == engine.play(sim).vp


def test_lookahead_parameters_are_checked():
    from gwe_fast.policies.gwe.lookahead import PLANS, LookaheadPolicy

    with pytest.raises(TypeError, match="plans must be"):
        LookaheadPolicy(plans=len(PLANS[0]) + 1)
    with pytest.raises(TypeError, match="rollouts"):
        LookaheadPolicy(rollouts=0)
    with pytest.raises(TypeError, match="unknown parameter"):
        LookaheadPolicy(nosuch=1)


def test_lookahead_plays_a_whole_campaign_legally_with_one_plan_per_player_turn(historical):
    la = make_policy("lookahead:plans=2,rollouts=1,horizon=1")
    g = GweGame(historical, seed=5, game_index=5, policies={0: la, 1: make_policy("greedy")})
    result = engine.play(g)
    assert g.rejections == 0 and result.turns_played == historical.n_turns
    chosen = la.impl("gwe").chosen
    assert len(chosen) == historical.n_turns and set(chosen) <= {0, 1}


# --- doctrine ---------------------------------------------------------------------------------

def test_the_broad_front_spreads_its_attacks_along_the_front():
    from gwe_fast.policies.gwe.doctrine import BroadFront

    g = board([unit("ge-a", "german", "0505")])
    near, far, first = cell(g, "0305"), cell(g, "0705"), cell(g, "0105")

    def plan(c, score):
        return {"cell": c, "attackers": [], "e": scoring.Expected(4, score, 0.1, 1.0, 0, 0)}

    plans = [plan(near, 1.0), plan(far, 0.8)]
    bf = BroadFront(breadth=0.5)
    assert bf.select_attack(g, [plan(first, 1.0)])["cell"] == first      # the first: best
    assert bf.select_attack(g, plans)["cell"] == far                      # then: away from it
    assert GreedyPolicy().select_attack(g, plans)["cell"] == near
    assert BroadFront(breadth=0).select_attack(g, plans)["cell"] == near


def test_doctrine_plays_each_side_by_its_doctrine_legally(historical):
    doc = make_policy("doctrine")
    g = GweGame(historical, seed=6, game_index=6, policies={0: doc, 1: make_policy("doctrine")})
    result = engine.play(g)
    assert g.rejections == 0 and result.turns_played == historical.n_turns
    gwe_doc = doc._impls["gwe"]              # the ladder name dispatches per game
    assert gwe_doc.sides[0].p.breadth == 0.25 and gwe_doc.sides[1].p.line_moves is False


def test_position_map_refreshed_in_place_equals_afresh(historical, monkeypatch):
    """A ``PositionMap`` refreshed after a few moves moves only the moved units' shares of its
    sums by hex; the sums are those made afresh, bit for bit, after every refresh of whole
    greedy campaigns (and the neighbour table they rely on is symmetric)."""
    from gwe_fast.policies.gwe import position
    from gwe_fast.state import Status

    nb = historical.map.neighbors
    for c in range(nb.shape[0]):
        for v in nb[c][nb[c] >= 0]:
            assert c in nb[v]
    counts = {"in place": 0, "afresh": 0}
    original = position.PositionMap.refresh

    def checked(pm):
        before = getattr(pm, "_last", None)
        original(pm)
        st, u = pm.view.state, pm.view.scenario.units
        on = (st.unit_status & Status.ON_MAP) != 0
        mine = np.flatnonzero(on & (u.side == pm.side))
        n = pm.n
        cc_units = mine[u.utype[mine] != int(position._HQ)]
        cc = st.unit_cell[cc_units]
        want = {
            "my_sp": np.bincount(st.unit_cell[mine], weights=u.stacking[mine], minlength=n),
            "my_steps": np.bincount(cc, weights=u.n_steps[cc_units].astype(float)
                                    - st.unit_step[cc_units], minlength=n),
            "my_def": np.bincount(cc, weights=pm.vals[cc_units, 1].astype(float),
                                  minlength=n),
            "my_combat": np.bincount(cc, minlength=n) > 0,
        }
        if not pm.at_once:
            att = np.bincount(st.unit_cell[mine], weights=pm.unit_att[mine], minlength=n)
            want["att_cell"] = att
            want["base_att"] = np.append(att, 0.0)[np.where(nb >= 0, nb, n)].sum(axis=1)
        for name, a in want.items():
            got = getattr(pm, name)
            assert got.tobytes() == a.astype(got.dtype).tobytes(), name
        if before is not None and pm._last is not before:
            moved = pm._changed_units(before, pm._last[2])
            counts["in place" if moved is not None and moved.size else "afresh"] += 1

    monkeypatch.setattr(position.PositionMap, "refresh", checked)
    for seed in (3, 4):
        g = GweGame(historical, seed=seed, game_index=seed,
                    policies={0: make_policy("greedy"), 1: make_policy("greedy")})
        engine.play(g)
    assert counts["in place"] > 100, counts
