"""The ``lookahead`` policy of The Guns of August (``_core/goa/lookahead.pyx``,
``policies/goa/lookahead.py``): it answers inside the compiled core, the same game for the
same seed; each option's value is the value of its play-outs as Python makes them with
``GoaCore.copy`` (the same streams, the same horizon), and it picks the best; the position
value is its Python twin's; the Central Powers' play-outs do not see the Allies' secret
orders; the policy's parameters and its refusal on the reference engine are one sentence."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gwe_fast._core.goa import (LEVEL_EXTERNAL, LEVEL_RANDOM, RUN_DECISION, RUN_MONTH_END,
                                RUN_OVER)
from gwe_fast._core.goa.engine import GoaCore
from gwe_fast._core.goa.ladder import GREEDY, PASSIVE
from gwe_fast._core.goa.lookahead import (LOOKAHEAD, STRATEGIC, VALUES, set_params, value,
                                          weigh)
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Kind
from gwe_fast.games.goa.dice import MASK, next64
from gwe_fast.games.goa.game import GoaGame
from gwe_fast.games.goa.scenario import scenario_from_raw
from gwe_fast.games.goa.world import objectives_held
from gwe_fast.policies.goa.greedy import GoaPassivePolicy
from gwe_fast.policies.goa.lookahead import GoaLookaheadPolicy, position_value
from gwe_fast.policies.registry import PolicyError, make_policy

import tiny

OPTIONS = {"naval": True, "colonies": True, "land": "fronts"}
SMALL = {"horizon": 1, "samples": 2, "max_options": 3}


@pytest.fixture(scope="module")
def sc():
    return scenario_from_raw(tiny.raw(), OPTIONS)


def _game(sc, seed, policies, **kw) -> GoaGame:
    g = GoaGame(sc, seed, 1, policies=policies, **kw)
    g.play()
    return g


def test_lookahead_answers_inside_the_core_the_same_game_for_a_seed(sc):
    def policies():
        return {ALLIED: GoaLookaheadPolicy(**SMALL), CENTRAL: GoaLookaheadPolicy(**SMALL)}

    a, b = _game(sc, 5, policies()), _game(sc, 5, policies())
    assert a.state.equals(b.state) and a.decisions == b.decisions > 0
    assert a.policy_streams[ALLIED].state == b.policy_streams[ALLIED].state
    core = GoaCore(sc.goa, seed=5, game_index=1, levels=(LOOKAHEAD, LOOKAHEAD))
    for side in (ALLIED, CENTRAL):
        set_params(core, side, 1, 2, 3, GREEDY, 0.0, 1.0, VALUES["vp"])   # its defaults
    assert core.run() == RUN_OVER
    assert core.decisions_in_c == core.decisions > 0
    assert bytes(core.buffer) == bytes(a.state.buffer)       # GoaGame plays the same game


def test_lookahead_plays_other_games_than_its_playout_policy(sc):
    """It weighs and changes choices: over 4 seeds its games are not passive's."""
    differ = 0
    for seed in range(4):
        look = _game(sc, seed, {ALLIED: GoaLookaheadPolicy(**SMALL), CENTRAL: GoaPassivePolicy()})
        meek = _game(sc, seed, {ALLIED: GoaPassivePolicy(), CENTRAL: GoaPassivePolicy()})
        differ += not look.state.equals(meek.state)
    assert differ == 4


def _to_decision(sc, game: int, side: int, kinds, occurrence: int = 1, answer=None):
    """A core at the ``occurrence``-th pending decision of ``side`` of one of ``kinds``,
    every decision before it answered by ``answer(core)`` (a seeded random index)."""
    rng = random.Random(game)
    answer = answer or (lambda core: rng.randrange(len(core.options)))
    core = GoaCore(sc.goa, seed=3, game_index=game, levels=(LEVEL_EXTERNAL, LEVEL_EXTERNAL),
                   stop_at_month_end=True)
    seen = 0
    while True:
        r = core.run()
        if r == RUN_OVER:
            return None
        if r == RUN_DECISION:
            if core.side == side and core.kind in kinds and len(core.options) > 1:
                seen += 1
                if seen == occurrence:
                    return core
            core.choose(answer(core))


def _python_weigh(core: GoaCore, horizon: int, samples: int, playout: int,
                  margin: float = 0.0, confidence: float = 0.0, vp_of=None,
                  max_samples: int = 0):
    """The lookahead's weighing restated in Python with GoaCore.copy, with a random play-out
    level: its pick drawn from the side's policy stream, then every option (there are no more
    than max_options), the pick first, each played on the streams the compiled one derives
    from that stream, to the end of the month ``horizon`` months on: ``samples`` times, and
    twice as many (up to ``max_samples``) while the option with the largest mean gain over the
    pick is promising (half the confidence) but not confirmed. With ``vp_of`` (the tables), an end is worth the VP margin (the
    objective cities the Central Powers hold, to them), else ``position_value``. Returns
    (options, totals, play-outs each, the option played)."""
    side = core.side
    pol = core.streams[1 + side]
    pol, z = next64(pol)
    pick = ((z >> 32) * len(core.options)) >> 32          # the random level's pick (below)
    _, base = next64(pol)
    end = core.month + horizon
    cands = [pick] + [i for i in range(len(core.options)) if i != pick]

    def play(i, j):
        c = core.copy()
        st = base ^ (((j + 1) * 0xD1B54A32D192ED03) & MASK)
        st, dice = next64(st)
        st, allied = next64(st)
        st, central = next64(st)
        c.streams = (dice, allied, central)
        c.set_levels(playout, playout)
        c.choose(i)
        while True:
            r = c.run()
            assert r != RUN_DECISION
            if r == RUN_OVER or (r == RUN_MONTH_END and c.month_ended >= end):
                break
        if vp_of is not None:
            vp = objectives_held(vp_of, c.state, CENTRAL)
            return float(vp if side == CENTRAL else -vp)
        return value(c, side)

    def confirmed(gains, z=confidence):
        n = len(gains)
        mean = sum(gains) / n
        if n < 2 or z <= 0:
            return True
        var = (sum(g * g for g in gains) - n * mean * mean) / (n - 1)
        return var <= 0 or mean * mean * n > z ** 2 * var

    most = max(samples, max_samples)
    values = [[] for _ in cands]
    live = [True] * len(cands)
    want = samples
    while True:
        for i, option in enumerate(cands):
            if live[i]:
                values[i] += [play(option, j) for j in range(len(values[i]), want)]
        played, best, top, top_gain = pick, margin, None, margin
        for i in range(1, len(cands)):
            if not live[i]:
                continue
            gains = [v - f for v, f in zip(values[i], values[0])]
            mean = sum(gains) / len(gains)
            if mean <= margin:
                live[i] = False
                continue
            if mean > top_gain:
                top, top_gain = i, mean
            if mean > best and confirmed(gains):
                played, best = cands[i], mean
        if top is None or played == cands[top] or want >= most:
            break
        if not confirmed([v - f for v, f in zip(values[top], values[0])], confidence / 2):
            break                                 # not promising: no more play-outs
        want = min(2 * want, most)
    return cands, [sum(v) for v in values], [len(v) for v in values], played


@pytest.mark.parametrize("kind", [Kind.ECONOMY, Kind.LAND, Kind.SEND_SUPPLY, Kind.TRADE],
                         ids=lambda k: k.name.lower())
def test_each_option_is_worth_its_playouts_and_the_pick_is_kept_unless_beaten(sc, kind):
    """Every option's play-outs as Python makes them; the play-out level's pick is played
    unless another's mean paired gain is the largest above the margin and, with a
    confidence, that many standard errors."""
    for margin, confidence, most in ((0.0, 0.0, 0), (0.5, 1.0, 0), (0.0, 3.0, 0),
                                     (0.0, 1.5, 12), (0.2, 2.5, 7)):
        core = _to_decision(sc, 2, ALLIED, {int(kind)}, occurrence=2)
        assert core is not None
        n = len(core.options)
        set_params(core, ALLIED, 2, 3, n, LEVEL_RANDOM, margin, confidence, VALUES["position"],
                   most)
        expected = _python_weigh(core, 2, 3, LEVEL_RANDOM, margin, confidence,
                                 max_samples=most)
        stream = core.streams[1]
        got = weigh(core)
        assert got[0] == expected[0] and sorted(got[0]) == list(range(n))
        assert got[1] == expected[1]                  # exactly: the same play-outs
        assert got[2:] == expected[2:]
        assert core.streams[1] == next64(next64(stream)[0])[0]   # two draws: pick, base


@pytest.mark.parametrize("kind", [Kind.LAND, Kind.TRADE], ids=lambda k: k.name.lower())
def test_with_value_vp_an_end_is_worth_the_vp_margin(sc, kind):
    """(The Allies' decisions: the Python restatement does not forget secret orders.)"""
    for side in (ALLIED,):
        core = _to_decision(sc, 3, side, {int(kind)})
        assert core is not None
        n = len(core.options)
        set_params(core, side, 4, 3, n, LEVEL_RANDOM, 0.0, 0.0, VALUES["vp"])
        expected = _python_weigh(core, 4, 3, LEVEL_RANDOM, vp_of=sc.goa)
        got = weigh(core)
        assert got == expected
        assert all(float(v).is_integer() and v <= 0 for v in got[1])


def test_with_no_margin_the_best_mean_is_played_and_a_tie_keeps_the_pick(sc):
    core = _to_decision(sc, 2, ALLIED, {int(Kind.LAND)}, occurrence=2)
    n = len(core.options)
    set_params(core, ALLIED, 2, 3, n, LEVEL_RANDOM)
    cands, totals, counts, pick = weigh(core)
    assert counts == [3] * n
    best = max(totals)
    assert totals[cands.index(pick)] == best
    assert pick == cands[0] or totals[0] < best   # the pick kept on a tie


def test_a_large_margin_or_confidence_keeps_the_playout_pick(sc):
    for margin, confidence in ((1e9, 0.0), (0.0, 1e9)):
        core = _to_decision(sc, 2, ALLIED, {int(Kind.LAND)}, occurrence=2)
        set_params(core, ALLIED, 2, 3, len(core.options), GREEDY, margin, confidence)
        cands, totals, counts, pick = weigh(core)
        assert pick == cands[0] and len(set(totals)) > 1   # weighed, differed, kept


def test_more_options_than_max_options_weighs_the_playout_pick_and_a_sample(sc):
    core = _to_decision(sc, 1, ALLIED, {int(Kind.SHIP)})
    assert core is not None and len(core.options) > 3
    set_params(core, ALLIED, 1, 1, 3, PASSIVE)
    cands, totals, counts, pick = weigh(core)
    assert len(cands) == 3 and cands[0] == 0      # passive's pick first: ship nothing
    assert cands[1:] == sorted(set(cands[1:])) and 0 not in cands[1:]
    assert pick == cands[int(np.argmax(totals))]


@pytest.mark.parametrize("kind", [Kind.LAND, Kind.TRADE], ids=lambda k: k.name.lower())
def test_central_playouts_do_not_see_the_allies_secret_orders(sc, kind):
    """Two games the same but for the Allies' secret orders of the month (land orders, the
    roll trade): the Central Powers' lookahead weighs its own alike in both."""
    base = _to_decision(sc, 4, ALLIED, {int(kind)})
    assert base is not None
    values = []
    for pick in (0, -1):
        core = base.copy()
        while core.side == ALLIED and core.kind == kind:
            core.choose(pick % len(core.options))
            assert core.run() == RUN_DECISION
        assert (core.side, core.kind) == (CENTRAL, kind)
        set_params(core, CENTRAL, 1, 2, 8, LEVEL_RANDOM)
        values.append(weigh(core)[1])
    assert values[0] == values[1]


def test_position_value_is_its_python_twins(sc):
    assert sc.goa.options["variable_entry"] and sc.goa.options["colonies"]  # every term
    for game in range(3):
        core = GoaCore(sc.goa, seed=8, game_index=game, levels=(LEVEL_RANDOM, LEVEL_RANDOM),
                       stop_at_month_end=True)
        while core.run() != RUN_OVER:
            for side in (ALLIED, CENTRAL):
                v = value(core, side)
                assert v == pytest.approx(position_value(sc.goa, core.state, side), abs=1e-9)
                assert v == -value(core, 1 - side)
        assert abs(value(core, ALLIED)) > 0


def test_the_strategic_kinds_are_decision_kinds():
    assert STRATEGIC <= {k.name.lower() for k in Kind}
    assert {"trade", "gift", "invade", "economy", "conscription", "usw", "land", "send_supply",
            "ship"} <= STRATEGIC


@pytest.mark.parametrize("params, message", [
    ({"horizon": -1}, "parameter horizon must be 0 .. 72 months, not -1"),
    ({"margin": -0.5}, "parameter margin must be a number at least 0, not -0.5"),
    ({"confidence": "high"}, "parameter confidence must be a number, not 'high'"),
    ({"value": "score"}, "parameter value must be one of position, vp, not 'score'"),
    ({"samples": 2.5}, "parameter samples must be 1 .. 256 play-outs per option, not 2.5"),
    ({"max_options": 0}, "parameter max_options must be 1 .. 256 options, not 0"),
    ({"playout": "greedyish"}, "parameter playout must be one of "),
    ({"depth": 2}, "unknown parameter depth"),
])
def test_bad_parameters_are_refused_in_one_sentence(params, message):
    with pytest.raises(TypeError, match="^" + message.replace(".", r"\.")):
        GoaLookaheadPolicy(**params)
    spec = "lookahead:" + ",".join(f"{k}={v}" for k, v in params.items())
    with pytest.raises(PolicyError, match="The Guns of August"):
        make_policy(spec, "goa")


def test_on_the_reference_engine_it_refuses_in_one_sentence(sc, monkeypatch):
    g = GoaGame(sc, 0, 0, policies={ALLIED: make_policy("lookahead")}, engine="reference")
    with pytest.raises(RuntimeError, match="plays only inside the compiled core"):
        g.play()
    monkeypatch.setenv("GWE_FAST_GOA_ENGINE", "reference")
    with pytest.raises(PolicyError, match="GWE_FAST_GOA_ENGINE=reference plays games on the "
                                          "reference engine"):
        make_policy("lookahead", "goa")


def test_an_unconfirmed_but_promising_gain_gets_more_playouts_up_to_max_samples(sc):
    """An option whose gain is above half the confidence but not the confidence is played
    more (2, 4, then 8 times, the pick with it); the exact rule is the Python restatement's
    (test_each_option_is_worth_its_playouts...)."""
    extended = 0
    for game in range(6):
        for occurrence in (1, 2, 3):
            core = _to_decision(sc, game, ALLIED, {int(Kind.LAND), int(Kind.TRADE)},
                                occurrence=occurrence)
            if core is None:
                continue
            set_params(core, ALLIED, 2, 2, 8, LEVEL_RANDOM, 0.0, 3.0, VALUES["position"], 8)
            cands, totals, counts, pick = weigh(core)
            assert set(counts) <= {2, 4, 8} and counts[0] == max(counts)
            extended += max(counts) > 2
    assert extended > 0


def test_with_no_kinds_weighed_it_plays_its_playout_levels_game(sc):
    games = []
    for levels in ((LOOKAHEAD, GREEDY), (GREEDY, GREEDY)):
        core = GoaCore(sc.goa, seed=6, game_index=2, levels=levels)
        set_params(core, ALLIED, 2, 2, 4, GREEDY, kinds=())
        assert core.run() == RUN_OVER
        games.append(bytes(core.buffer))
    assert games[0] == games[1]
    core = GoaCore(sc.goa, seed=6, game_index=2, levels=(LOOKAHEAD, GREEDY))
    set_params(core, ALLIED, 2, 2, 4, GREEDY, kinds=("trade", "land"))
    assert core.run() == RUN_OVER
    assert bytes(core.buffer) != games[1]             # it weighs those and changes choices


def test_a_kind_that_is_not_strategic_is_refused():
    with pytest.raises(TypeError, match=r"^parameter kinds must be all or strategic decision "
                                        r"kinds joined by \+ \(abyssinia\+"):
        GoaLookaheadPolicy(kinds="trade+squadron")
    assert GoaLookaheadPolicy(kinds="trade+usw")._kinds == ["trade", "usw"]
