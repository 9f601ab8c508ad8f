"""``gwe bench``: the headline figures as a table, within a budget; bad options are one
sentence."""

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from gwe_fast import bench, load_scenario


def gwe(*args):
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          check=False, capture_output=True, text=True, timeout=300)


def table_rows(table: str) -> list[tuple[str, ...]]:
    """The figures of a ``format_table`` table, each cell's wrapped lines joined again (the
    columns are where the dashes of the second line are)."""
    lines = table.splitlines()
    spans = [m.span() for m in re.finditer(r"-+", lines[1])]
    spans[-1] = (spans[-1][0], None)
    rows = []
    for block in "\n".join(lines[2:]).split("\n\n"):
        cells = [[] for _ in spans]
        for line in block.splitlines():
            for cell, (a, b) in zip(cells, spans):
                cell.append(line[a:b].strip())
        rows.append(tuple(" ".join(filter(None, c)) for c in cells))
    return rows


def test_bench_with_a_tiny_budget_prints_the_table_and_leaves_out_what_does_not_fit():
    result = gwe("bench", "--budget", "1", "--games", "1")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["figure", "value", "target", "verdict"]
    assert set(lines[1]) <= {"-", " "}
    rows = [" ".join(cells) for cells in table_rows(result.stdout)]
    text = " ".join(result.stdout.split())
    assert "movement range, allowance 6" in text and "µs workspace" in text
    row = next(x for x in rows if x.startswith("supply lines of a whole side"))
    assert "µs Allied" in row and "µs German" in row and "<= 5 µs" in row
    assert "missed" in row or "met" in row
    for game in ("Brusilov", "Kaiser's Battle"):
        row = next(x for x in rows if x.startswith(f"{game}: random against random"))
        assert "(1 game)" in row and "ms CPU" in row and "<= 2 ms" in row
        assert "missed" in row or "met" in row
        # a campaign on the pure twins takes far more than the budget
        assert any(x.startswith(f"{game}: pure twins") and "skipped (budget)" in x
                   for x in rows)
    assert "Parquet bytes per game" in text and "peak memory" in text
    assert "Traceback" not in result.stderr


def test_bench_refuses_a_bad_option_in_one_message():
    result = gwe("bench", "--games", "0")
    assert result.returncode == 2
    assert "--games" in result.stderr and "Traceback" not in result.stderr


def test_parquet_bytes_separate_the_file_footer_from_the_games():
    sc = load_scenario("kaisers_battle/historical")
    run = bench.play(sc, "random", "cython", 0, range(2))
    assert len(run.rows) == 2 and len(run.cpu) == 2 and min(run.cpu) > 0
    with tempfile.TemporaryDirectory() as tmp:
        per_game, marginal = bench.parquet_bytes(sc, run.rows, Path(tmp))
        one, none = bench.parquet_bytes(sc, run.rows[:1], Path(tmp))
    assert none is None and one > per_game > marginal > 0


def test_rows_are_compared_without_their_wall_time():
    a = [{"game_index": 0, "vp": 3, "wall_time_s": 0.1}]
    assert bench.same_rows(a, [{"game_index": 0, "vp": 3, "wall_time_s": 9.0}])
    assert not bench.same_rows(a, [{"game_index": 0, "vp": 4, "wall_time_s": 0.1}])
    assert not bench.same_rows(a, a + a)


def test_item_11_bench_table_fits_100_columns():
    figs = bench.headline(budget=1, games=1)
    table = bench.format_table(figs)
    lines = table.splitlines()
    assert all(len(ln) <= 100 for ln in lines), max(lines, key=len)
    assert table_rows(table) == [                 # every figure is there, none cut short
        tuple(" ".join(x.split()) for x in (f.name, f.value, f.target, f.verdict))
        for f in figs]


def test_item_11_bench_verdicts_say_met_or_missed_and_by_how_much():
    lower = {1.92: "met", 2.0: "met", 2.02: "missed", 0.5: "met", 226.0: "missed"}
    for value, word in lower.items():
        text = bench._verdict(value, 2.0, higher_is_better=False)
        assert re.fullmatch(rf"{word} \((\S+ of|\S+x) the target\)", text), text
        assert "under" not in text and "over" not in text
    assert bench._verdict(1.92, 2.0, False) == "met (0.96 of the target)"
    assert bench._verdict(226.0, 2.0, False) == "missed (113x the target)"
    assert bench._verdict(42.1, 20.0, True) == "met (2.1x the target)"
    assert bench._verdict(19.98, 20.0, True) == "missed (0.999 of the target)"
    assert bench._verdict(float("nan"), 2.0, False) == "not measured"
