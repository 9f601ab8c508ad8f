"""gwe report on hand-made results files: the numbers the rows give, paired differences,
per-turn bands, the HTML page and its plots, and one clear sentence for bad input."""

import base64
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from scipy import stats
from typer.testing import CliRunner

from gwe_fast.analysis.report import build_report, load_cells, paired, turn_bands
from gwe_fast.cli import app

POLICIES = json.dumps({"allied": "random", "central": "random"})


def level(vp: int) -> str:
    return ("central_powers_decisive" if vp < 10 else "central_powers_marginal" if vp < 30
            else "russian_marginal" if vp < 50 else "russian_decisive")


def write_games(path: Path, vp, index=None, seed=5, result=None, scenario="brusilov/historical",
                metadata=True, drop=()):
    """A results file as run_batch writes them, with only the columns a report reads."""
    n = len(vp)
    result = result or [level(v) for v in vp]
    winner = ["error" if r == "error" else "allied" if v >= 30 else "central"
              for v, r in zip(vp, result)]
    cols = {"scenario": [scenario] * n, "options": ['{"sga_early": false}'] * n,
            "policies": [POLICIES] * n, "master_seed": [seed] * n,
            "game_index": list(range(n)) if index is None else index, "result": result,
            "winner": winner, "vp": vp, "turns_played": [14] * n}
    table = pa.table({k: v for k, v in cols.items() if k not in drop})
    if metadata:
        table = table.replace_schema_metadata(
            {"gwe_fast": json.dumps({"scenario": scenario, "master_seed": seed, "table": "games"})})
    pq.write_table(table, path)
    return path


def gwe(*args, cwd=None):
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=120, cwd=cwd)


def test_the_level_table_gives_the_wilson_interval_of_the_rows(tmp_path):
    f = write_games(tmp_path / "a.parquet", [35] * 7 + [15] * 12 + [55],
                    result=None)
    rep = build_report([f], out=tmp_path / "rep")
    # the same interval from an independent implementation (scipy's)
    ci = stats.binomtest(7, 20).proportion_ci(confidence_level=0.95, method="wilson")
    expected = f"35.0 % [{100 * ci.low:.1f}, {100 * ci.high:.1f}]"
    assert expected == "35.0 % [18.1, 56.7]"
    line = next(ln for ln in rep.text.splitlines() if ln.startswith("russian_marginal"))
    assert line.split()[1:] == expected.split()
    page = rep.html_path.read_text()
    assert f"<td>{expected}</td>" in page
    # levels in the order of their VP, each share over the 20 games
    assert [ln.split()[0] for ln in rep.text.split("Results by level of victory")[1]
            .splitlines()[3:6]] == ["central_powers_marginal", "russian_marginal",
                                    "russian_decisive"]
    mean = np.mean([35] * 7 + [15] * 12 + [55])
    half = stats.t.ppf(0.975, 19) * np.std([35] * 7 + [15] * 12 + [55], ddof=1) / np.sqrt(20)
    assert f"{mean:.2f} [{mean - half:.2f}, {mean + half:.2f}]" in rep.text


def test_paired_differences_match_games_by_seed_and_index(tmp_path):
    base = write_games(tmp_path / "base.parquet", [10, 20, 30, 40, 50, 60])
    # the variation: rows in another order, index 0 missing, index 6 extra, game 3 an error
    var = write_games(tmp_path / "var.parquet", [70, 45, 0, 26, 25, 99],
                      index=[5, 4, 3, 2, 1, 6],
                      result=[level(70), level(45), "error", level(26), level(25), level(99)])
    other_seed = write_games(tmp_path / "seed9.parquet", [10, 20, 30], seed=9)
    rep = build_report([base, var, other_seed], baseline="base", out=tmp_path / "r")
    cells = {c.label: c for c in rep.cells}
    assert rep.baseline is cells["base"] and rep.cells[0] is cells["base"]
    p = paired(cells["var"], cells["base"])
    d = np.array([25 - 20, 26 - 30, 45 - 50, 70 - 60])          # games 1, 2, 4, 5
    half = stats.t.ppf(0.975, 3) * d.std(ddof=1) / 2
    assert p.n == 4 and p.vp.value == pytest.approx(1.5)
    assert (p.vp.low, p.vp.high) == pytest.approx((1.5 - half, 1.5 + half), abs=2e-3)
    w = np.array([0 - 0, 0 - 1, 1 - 1, 1 - 1])                  # Allied wins (VP >= 30)
    half_w = stats.t.ppf(0.975, 3) * w.std(ddof=1) / 2
    assert p.allied.value == pytest.approx(-0.25)
    assert (p.allied.low, p.allied.high) == pytest.approx((-0.25 - half_w, -0.25 + half_w),
                                                          abs=1e-3)
    section = rep.text.split("Paired differences against 'base'")[1]
    row = next(ln for ln in section.splitlines() if ln.startswith("var "))
    assert "+1.50 [-10.01, +13.01]" in row and "-25.0 pts [-104.6, +54.5]" in row
    assert row.split()[1] == "4"
    # a file of another master seed shares no game with the baseline
    assert paired(cells["seed9"], cells["base"]).n == 0
    seed_row = next(ln for ln in section.splitlines() if ln.startswith("seed9 "))
    assert seed_row.split()[1] == "0" and "—" in seed_row
    # the error is counted apart, and left out of the statistics
    assert cells["var"].n == 5 and cells["var"].errors == 1


def test_per_turn_bands_take_the_end_of_each_game_turn(tmp_path):
    rows = []
    for g, (vps, lost) in enumerate([([1, 2, 5, 6], [0, 1, 2, 3]),
                                     ([3, 4, 9, 10], [1, 1, 4, 4]),
                                     ([5, 8, 1, 2], [0, 2, 2, 6])]):
        for k, (turn, side) in enumerate([(1, "allied"), (1, "central"), (2, "allied"),
                                          (2, "central")]):
            rows.append({"master_seed": 5, "game_index": g, "turn": turn, "side": side,
                         "vp": vps[k], "steps_lost_allied": lost[k],
                         "steps_lost_central": 2 * lost[k]})
    turns = pa.Table.from_pylist(rows).replace_schema_metadata(
        {"gwe_fast": json.dumps({"table": "turns", "games_file": "g.parquet"})})
    band = turn_bands({k: np.array(v) for k, v in turns.to_pydict().items()}, "vp")
    assert band["turn"].tolist() == [1, 2]
    assert band["median"].tolist() == [4.0, 6.0]                 # of 2, 4, 8 and of 6, 10, 2
    assert band["low"].tolist() == pytest.approx([np.percentile([2, 4, 8], 10),
                                                  np.percentile([6, 10, 2], 10)])
    assert band["high"].tolist() == pytest.approx([np.percentile([2, 4, 8], 90),
                                                   np.percentile([6, 10, 2], 90)])
    games = write_games(tmp_path / "g.parquet", [6, 10, 2])
    pq.write_table(turns, tmp_path / "turns-of-g.parquet")     # found by its games_file
    rep = build_report([games, tmp_path / "turns-of-g.parquet"], out=tmp_path / "r")
    assert rep.cells[0].turns is not None
    names = sorted(p.name for p in rep.images)
    assert names == ["results.png", "turn_losses.png", "turn_vp.png", "vp_histogram.png"]
    page = rep.html_path.read_text()
    embedded = re.findall(r'src="data:image/png;base64,([^"]+)"', page)
    assert len(embedded) == 4
    for p in rep.images:                              # the page holds the very PNG files
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert base64.b64encode(p.read_bytes()).decode() in embedded
    assert "src=\"http" not in page and "<link" not in page      # self-contained


def test_a_sweep_folder_is_read_through_its_manifest(tmp_path):
    work, tmp_path = tmp_path, tmp_path / "sga"          # a sweep folder, and a working one
    tmp_path.mkdir()
    write_games(tmp_path / "00-a.parquet", [10, 20, 30])
    write_games(tmp_path / "01-b.parquet", [12, 22, 32])
    (tmp_path / "sweep.json").write_text(json.dumps({
        "format": "gwe_fast sweep", "baseline": "b", "cells": [
            {"name": "a", "file": "00-a.parquet", "per_turn": None},
            {"name": "b", "file": "01-b.parquet", "per_turn": None},
            {"name": "c", "file": "02-c.parquet", "per_turn": None}]}))   # not played yet
    cells, base = load_cells([tmp_path])
    assert [c.label for c in cells] == ["a", "b"] and base == "b"
    r = gwe("report", str(tmp_path), cwd=work)
    assert r.returncode == 0, r.stderr
    assert "Paired differences against 'b'" in r.stdout
    assert "-2.00 [-2.00, -2.00]" in r.stdout
    # by default in the working folder's results/reports/, named after the sweep
    assert (work / "results" / "reports" / "sga" / "report.html").exists()
    assert not (tmp_path / "report").exists()


def test_bad_input_is_one_sentence_and_a_non_zero_exit(tmp_path):
    write_games(tmp_path / "a.parquet", [10, 20])
    write_games(tmp_path / "kb.parquet", [1, 2], scenario="kaisers_battle/historical")
    write_games(tmp_path / "plain.parquet", [1], metadata=False)
    write_games(tmp_path / "novp.parquet", [1], drop=("vp",))
    (tmp_path / "notes.parquet").write_text("not parquet at all")
    (tmp_path / "empty").mkdir()
    cases = [
        ([tmp_path / "missing.parquet"], f"{tmp_path / 'missing.parquet'} does not exist"),
        ([tmp_path / "notes.parquet"], "notes.parquet is not a Parquet file"),
        ([tmp_path / "plain.parquet"], "plain.parquet is a Parquet file but not a gwe_fast "
                                       "results file"),
        ([tmp_path / "novp.parquet"], "novp.parquet lacks the column vp"),
        ([tmp_path / "empty"], "holds no .parquet file"),
        ([tmp_path / "a.parquet", tmp_path / "kb.parquet"],
         "the inputs hold different scenarios (brusilov/historical, kaisers_battle/historical); "
         "name the one to compare the others against with --baseline"),
        ([tmp_path / "a.parquet", tmp_path / "kb.parquet", "--baseline", "zz"],
         "--baseline 'zz' names none of the inputs"),
    ]
    for args, message in cases:
        r = CliRunner().invoke(app, ["report", *map(str, args), "--out", str(tmp_path / "out")])
        assert r.exit_code == 2, (args, r.output)
        assert r.exception is None or isinstance(r.exception, SystemExit)
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr
        assert message in r.stderr, (message, r.stderr)
    r = gwe("report", str(tmp_path / "notes.parquet"))          # the real entry point too
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert r.stderr.startswith(f"gwe: {tmp_path / 'notes.parquet'} is not a Parquet file (")
    r = CliRunner().invoke(app, ["report", str(tmp_path / "a.parquet"),
                                 str(tmp_path / "kb.parquet"), "--baseline", "a",
                                 "--out", str(tmp_path / "out")])
    assert r.exit_code == 0, r.output
    assert "Paired differences against 'a'" in r.stdout


def test_the_docstring_examples_run():
    import doctest

    import gwe_fast.analysis.report

    result = doctest.testmod(gwe_fast.analysis.report)
    assert result.attempted >= 2 and result.failed == 0


def test_an_unwritable_report_folder_fails_cleanly(tmp_path):
    f = write_games(tmp_path / "a.parquet", [10, 20])
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = CliRunner().invoke(app, ["report", str(f), "--out", str(blocker / "sub")])
    assert r.exit_code == 1 and r.stderr.startswith("gwe: cannot write the report to ")
    r = CliRunner().invoke(app, ["report", str(f), "--out", str(blocker)])
    assert r.exit_code == 2 and "is a file" in r.stderr
