"""The Guns of August's fast result row and per-turn columns are the readable ones: the
driver's ``Recorder`` gives ``record``'s values in ``record_fields`` order, ``MonthRows.columns``
the per-turn rows as columns, a game played without its per-turn record the same result, and
the state's views made when first read the same arrays."""

import numpy as np
import pytest

from gwe_fast import load_scenario
from gwe_fast.games.goa import driver as d
from gwe_fast.games.goa.model import GoaState, state_layout

ALL = {"morale": True, "naval": True, "colonies": True, "variable_entry": True,
       "production": True, "surrender": True, "victory": True}
CASES = [("goa/campaign", {}), ("goa/campaign", {**ALL, "land": "fronts"}),
         ("goa/1917", {"naval": True, "colonies": True, "morale": True,
                       "naval_combat_chart": True})]


@pytest.mark.parametrize("key,options", CASES)
def test_recorder_gives_record_values_in_record_fields_order(key, options):
    sc = load_scenario(key, options)
    rec = d.Recorder(sc)
    assert list(rec.names) == [f.name for f in d.record_fields(sc)]
    for i in range(12):
        g = d.new_game(sc, 11, i)
        result = d.play(g, per_turn=False)
        slow = d.record(g)
        fast = rec(g)
        assert sorted(slow) == sorted(rec.names)
        assert list(fast) == [slow[n] for n in rec.names]
        assert [type(v) for v in fast] == [type(slow[n]) for n in rec.names]
        assert result.vp == d.vp(g) == slow["objectives_held_central"]


def test_recorder_reads_a_state_changed_by_hand():
    """Every column follows its own cell of the state (no two columns read one cell)."""
    sc = load_scenario("goa/campaign", ALL)
    rec = d.Recorder(sc)
    g = d.new_game(sc, 0, 0)
    s = g.state
    rng = np.random.default_rng(3)
    for name in ("entered", "conquered", "blockade_lost", "strength_lost", "morale_results",
                 "blockade_months", "usw_months", "colonies_taken", "sunk"):
        a = getattr(s, name)
        a[...] = rng.integers(-1, 100, a.shape)
    s.side[:] = rng.integers(0, 3, s.side.shape)
    s.city[:] = rng.integers(0, 3, s.city.shape)
    slow = d.record(g)
    assert list(rec(g)) == [slow[n] for n in rec.names]


def test_a_side_code_no_side_has_fails_the_record_as_before():
    sc = load_scenario("goa/campaign")
    g = d.new_game(sc, 0, 0)
    g.state.side[0] = 7
    with pytest.raises(KeyError):
        d.record(g)
    with pytest.raises(KeyError):
        d.Recorder(sc)(g)


@pytest.mark.parametrize("key,options", CASES[:2])
def test_month_rows_columns_are_the_rows(key, options):
    sc = load_scenario(key, options)
    names = [f.name for f in d.TURN_FIELDS]
    for i in range(6):
        result = d.play(d.new_game(sc, 4, i))
        rows = list(result.per_turn)
        cols = result.per_turn.columns()
        assert list(cols) == names
        for name in names:
            assert cols[name] == [r[name] for r in rows], name
            assert [type(v) for v in cols[name]] == [type(r[name]) for r in rows], name


def test_a_game_without_its_per_turn_record_ends_the_same():
    sc = load_scenario("goa/campaign", ALL)
    for i in range(5):
        a, b = d.new_game(sc, 2, i), d.new_game(sc, 2, i)
        ra, rb = d.play(a), d.play(b, per_turn=False)
        assert (ra.vp, ra.level, ra.winner, ra.turns_played) == (
            rb.vp, rb.level, rb.winner, rb.turns_played)
        assert len(ra.per_turn) > 0 and len(rb.per_turn) == 0 and b.history is None
        assert a.state.equals(b.state)


def test_state_views_made_when_read_are_the_buffer_arrays():
    sc = load_scenario("goa/campaign")
    layout, size = state_layout(sc.goa)
    buf = np.arange(size, dtype=np.int64).astype(np.uint8)
    s = GoaState(buf, layout)
    for name, dtype, shape, offset in layout:
        v = getattr(s, name)
        n = int(np.prod(shape))
        assert v.dtype == dtype and v.shape == shape
        assert np.shares_memory(v, buf)
        assert v.tobytes() == buf[offset:offset + n * dtype.itemsize].tobytes()
        assert getattr(s, name) is v                      # made once, then kept
    s.entered = 5                                         # filled in place
    assert (s.entered == 5).all()
    with pytest.raises(AttributeError, match="no field 'nothing'"):
        s.nothing
    assert not hasattr(s, "nothing")
