"""A row the runner cannot store is caught (``RowCheck``): a number out of its column's range,
a value of another type, a missing value, in the per-game row or a per-turn table. The game
is an error row naming the column and the value, its per-turn rows are not written, and the
run goes on."""

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from gwe_fast import load_scenario
from gwe_fast.games import driver
from gwe_fast.runner.batch import Player, RowCheck, run_batch

FIELDS = [pa.field("a", pa.int16()), pa.field("b", pa.string()), pa.field("c", pa.int32()),
          pa.field("d", pa.bool_()), pa.field("e", pa.float64()), pa.field("f", pa.uint8())]


def test_row_check_passes_a_row_that_fits():
    check = RowCheck(FIELDS)
    assert check.row([-32768, "x", 2**31 - 1, True, 1.5, 255]) is None
    assert check.row([np.int16(3), "", np.int64(-5), np.bool_(False), 2, 0]) is None
    # what pyarrow takes too: other numpy integers, numpy strings, a bool or numpy number
    # in a float column
    assert check.row([np.longlong(3), np.str_("y"), np.uint64(7), True, True, np.intc(1)]) is None
    assert check.row([0, "x", 0, True, np.float32(0.5), 0]) is None
    two = RowCheck(FIELDS[:2])
    assert two.columns({"a": [np.longlong(1), 2], "b": [np.str_("x"), "y"]}) is None
    assert "column a: 40000 does not fit" in check.row(
        [np.longlong(40000), "x", 0, True, 0.0, 0])


@pytest.mark.parametrize("row,words", [
    ([32768, "x", 0, True, 0.0, 0], "column a: 32768 does not fit its type (-32768 to 32767)"),
    ([0, "x", -2**31 - 1, True, 0.0, 0], "column c: -2147483649 does not fit its type"),
    ([0, "x", 0, True, 0.0, 256], "column f: 256 does not fit its type (0 to 255)"),
    ([0, "x", 0, True, 0.0, -1], "column f: -1 does not fit its type (0 to 255)"),
    ([0, "x", 2**70, True, 0.0, 0], "column c: 1180591620717411303424 does not fit"),
    ([None, "x", 0, True, 0.0, 0], "column a has no value"),
    ([0, None, 0, True, 0.0, 0], "column b has no value"),
    ([0, "x", 0, None, 0.0, 0], "column d has no value"),
    ([0, "x", 0, True, None, 0], "column e has no value"),
    ([0, "x", 2.5, True, 0.0, 0], "column c: 2.5 is a float, not a value of its type (int32)"),
    ([True, "x", 0, True, 0.0, 0], "column a: True is a bool"),
    ([0, 3, 0, True, 0.0, 0], "column b: 3 is a int"),
    ([0, "x", 0, 1, 0.0, 0], "column d: 1 is a int"),
    ([0, "x", 0, True, "1", 0], "column e: '1' is a str"),
    ([0, "x", 0, True, 0.0], "the row has 5 values for 6 columns"),
])
def test_row_check_names_the_value_its_column_cannot_hold(row, words):
    assert words in RowCheck(FIELDS).row(row)


def test_row_check_of_a_table_checks_each_column_whole():
    check = RowCheck(FIELDS[:2])
    assert "column a: 1.5 is a float" in check.columns({"a": [1, 1.5], "b": ["x", "y"]})
    assert check.columns({"a": [1, 2, 3], "b": ["x", "y", "z"]}) is None
    assert "column a: 40000 does not fit" in check.columns({"a": [1, 40000], "b": ["x", "y"]})
    assert "column a: -40000 does not fit" in check.columns({"a": [-40000, 40000],
                                                             "b": ["x", "y"]})
    assert "column b has no value" in check.columns({"a": [1, 2], "b": ["x", None]})
    assert "column b is missing" in check.columns({"a": [1, 2]})
    assert "column b has 1 values, not 2" in check.columns({"a": [1, 2], "b": ["x"]})


@pytest.fixture
def goa():
    return load_scenario("goa/campaign")


def _break_record(monkeypatch, column, value, games=(2,)):
    """The GoA recorder gives ``value`` in ``column`` for the games ``games``."""
    d = driver("goa")
    real = d.Recorder

    class Bad(real):
        def __call__(self, game):
            row = list(super().__call__(game))
            if game.game_index in games:
                row[self.names.index(column)] = value
            return tuple(row)

    monkeypatch.setattr(d, "Recorder", Bad)


@pytest.mark.parametrize("column,value,words", [
    ("entry_month_italy", 40000, "column entry_month_italy: 40000 does not fit its type"),
    ("supply_lost_blockade_germany", None, "column supply_lost_blockade_germany has no value"),
    ("entry_side_italy", 1, "column entry_side_italy: 1 is a int"),
])
def test_a_bad_record_value_is_an_error_row_and_the_run_goes_on(goa, tmp_path, monkeypatch,
                                                                column, value, words):
    _break_record(monkeypatch, column, value)
    out, turns = tmp_path / "r.parquet", tmp_path / "t.parquet"
    summary = run_batch(goa, 5, 1, out, workers=1, per_turn=turns)
    assert summary.complete and summary.games == 5 and summary.errors == 1
    rows = pq.read_table(out).to_pylist()
    assert [r["game_index"] for r in rows] == list(range(5))
    bad = rows[2]
    assert bad["result"] == bad["winner"] == "error" and bad["vp"] == 0
    assert bad["error"].startswith("OverflowError: ") and words in bad["error"]
    assert all(r["error"] == "" for r in rows if r["game_index"] != 2)
    kept = set(pq.read_table(turns).column("game_index").to_pylist())
    assert kept == {0, 1, 3, 4}                       # the broken game's turns are not written


def test_a_bad_per_turn_value_is_an_error_row(goa, tmp_path, monkeypatch):
    d = driver("goa")
    real = d.MonthRows.columns

    def columns(self):
        cols = real(self)
        if len(cols["personnel"]) > 40:
            cols["personnel"][40] = 2**15              # int16
        return cols

    monkeypatch.setattr(d.MonthRows, "columns", columns)
    player = Player(goa, 1, {"allied": "random", "central": "random"}, per_turn=True)
    row, turns, _ = player.play(0)
    row = player.row_dict(row)
    assert row["result"] == "error" and turns == {}
    assert "column personnel: 32768 does not fit its type (-32768 to 32767)" in row["error"]


def test_a_good_row_is_not_touched(goa):
    player = Player(goa, 1, {"allied": "random", "central": "random"})
    row, turns, towns = player.play(3)
    assert turns == {} and towns == []
    row = player.row_dict(row)
    assert row["error"] == "" and row["result"] != "error"
    assert list(row) == goa_columns(goa)


def goa_columns(sc):
    from gwe_fast.runner.batch import RUN_FIELDS, game_schema

    return game_schema(sc).names[len(RUN_FIELDS):]
