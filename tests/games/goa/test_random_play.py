"""Random play on the tiny world: every legal combination of the variants plays without an
error, and a few invariants hold every month."""

import itertools
import random

import pytest
from tiny import raw

from gwe_fast.games.goa import engine
from gwe_fast.games.goa.codes import Damage, Side
from gwe_fast.games.goa.dice import Stream
from gwe_fast.games.goa.model import MONTH, RESULT
from gwe_fast.games.goa.tables import compile_tables, initial_state

VARIANTS = ("variable_entry", "morale", "production", "victory", "surrender", "naval",
            "colonies", "naval_combat_chart")


def legal_combinations():
    """Every combination of the variants the seed allows (colonies only with naval)."""
    for bits in itertools.product((False, True), repeat=len(VARIANTS)):
        options = dict(zip(VARIANTS, bits))
        if options["colonies"] and not options["naval"]:
            continue
        yield options


def check(t, s) -> None:
    """Invariants of any position."""
    assert (s.supply >= 0).all() and (s.army >= 0).all() and (s.abroad >= 0).all()
    assert (s.col_units >= 0).all() and (s.col_af >= 0).all() and (s.garrison >= 0).all()
    for c in range(t.n_countries):
        if s.conquered[c] >= 0:
            assert s.army[c] == 0 and s.abroad[c].sum() == 0 and s.col_units[:, c].sum() == 0
    for q in range(t.n_squadrons):
        afloat = s.squadron_damage[q] < Damage.SUNK and s.squadron_base[q] >= 0
        assert afloat or s.squadron_sortie[q] == -1
        if s.squadron_damage[q] == Damage.SUNK:
            assert s.squadron_base[q] == -1
    assert set(s.side.tolist()) <= {Side.ALLIED, Side.CENTRAL, Side.NEUTRAL}
    assert (s.shipped <= 6).all()


def play(options: dict, seed: int, last: str | None = None) -> int:
    """One game with random answers; returns the number of decisions."""
    data = raw()
    if last:
        data["scenario"]["last"] = last
    t = compile_tables(data, options)
    s = initial_state(t)
    rng = random.Random(seed)
    gen = engine.play(t, s, Stream.of(seed, 0, "goa"))
    n, month = 0, -1
    try:
        ask = next(gen)
        while True:
            if s.scalars[MONTH] != month:
                month = int(s.scalars[MONTH])
                check(t, s)
            n += 1
            ask = gen.send(rng.randrange(len(ask.options)))
    except StopIteration:
        pass
    check(t, s)
    assert s.scalars[RESULT] != 0
    return n


COMBINATIONS = list(legal_combinations())


@pytest.mark.parametrize("i", range(0, len(COMBINATIONS), len(COMBINATIONS) // 10))
def test_random_games_of_the_variants_play_through(i):
    options = dict(COMBINATIONS[i])
    options["land"] = ("historical", "fronts")[i % 2]
    assert play(options, seed=i, last="1915-02") > 0


def test_every_variant_on_plays_two_years():
    options = {v: True for v in VARIANTS}
    options["land"] = "fronts"
    assert play(options, seed=7, last="1916-08") > 100
