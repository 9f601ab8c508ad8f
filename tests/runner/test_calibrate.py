"""``gwe calibrate`` (runner/calibrate.py): the search finds an even point known by
construction, the victory line is read off final VP, knobs map to real scenario data, each
value is replayed on the same seeds with its own data, and bad arguments give one sentence."""

import json
import math
import subprocess
import sys

import numpy as np
import pyarrow.parquet as pq
import pytest

from gwe_fast import load_scenario
from gwe_fast.runner.calibrate import (
    CalibrateError,
    Calibration,
    Outcome,
    even_line,
    find_even,
    parse_knob,
    victory_line,
)


def gwe(*args):
    """The real console entry point in a subprocess (as a user would run it)."""
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=600)


def gwe_here(*args):
    """The command in this process (typer's runner): quicker for the many small cases."""
    from typer.testing import CliRunner

    from gwe_fast.cli import app

    r = CliRunner().invoke(app, list(args))
    return r.exit_code, r.stdout, r.stderr


def logistic_games(centre, scale=1.5, n=400, seed=7, rising=True):
    """A made-up game whose Allied win chance is a known function of the knob, on common
    random numbers: game i is won at value v when u_i < logistic((v - centre) / scale)."""
    u = np.random.default_rng(seed).random(n)
    calls = []

    def evaluate(v):
        calls.append(v)
        x = (v - centre) / scale * (1 if rising else -1)
        wins = float((u < 1 / (1 + math.exp(-x))).sum())
        return Outcome(v, n, wins, 0.0)

    return evaluate, calls


@pytest.mark.parametrize("centre, rising", [(7.3, True), (12.6, False), (3.0, True)])
def test_find_even_recovers_the_even_point_known_by_construction(centre, rising):
    evaluate, calls = logistic_games(centre, rising=rising)
    r = find_even(evaluate, 0, 20, 0.5, "town:X")
    assert r.found
    assert abs(r.estimate - centre) < 0.6
    assert r.best in (math.floor(centre), math.ceil(centre))
    assert r.bracket[1] - r.bracket[0] <= 1
    assert r.interval[0] <= centre <= r.interval[1] and r.interval[1] - r.interval[0] <= 4
    assert len(calls) == len(set(calls)) <= 12          # each value played once, few values
    # the values just outside the interval are told apart from an even game; inside it,
    # every value is not, unless none is (the win rate jumps across 0.5 within the
    # bracket, which is then the interval)
    by = {o.value: o for o in r.tried}
    for v in (r.interval[0] - 1, r.interval[1] + 1):
        assert v not in by or not by[v].holds(0.5)
    inside = [by[v].holds(0.5) for v in range(r.interval[0], r.interval[1] + 1)]
    assert all(inside) or (not any(inside) and r.interval == r.bracket and "jumps" in r.note)


def test_find_even_reaches_another_target_and_says_when_the_range_holds_none():
    evaluate, _ = logistic_games(7.3)
    r = find_even(evaluate, 0, 20, 0.8)
    assert r.found and abs(r.estimate - (7.3 + 1.5 * math.log(4))) < 0.7
    r = find_even(evaluate, 12, 20, 0.5)
    assert not r.found and r.interval is None and "no value of the range" in r.note
    with pytest.raises(CalibrateError, match="low end below its high end"):
        find_even(evaluate, 5, 5)


@pytest.mark.parametrize("vp_for", ["allied", "central"])
def test_even_line_is_the_line_at_the_median_of_the_final_vp(vp_for):
    vp = np.random.default_rng(3).normal(40, 8, 500).round().astype(int)
    r = even_line(vp, vp_for, 0.5)
    median = float(np.median(vp))
    # VP >= L wins for the side whose score it is: the even line is the median, rounded up
    assert abs(r.best - median) <= 1 and abs(r.estimate - median) <= 1
    assert r.interval[0] <= median <= r.interval[1] <= median + 3
    share = (vp >= r.best).mean() if vp_for == "allied" else (vp < r.best).mean()
    assert abs(share - 0.5) < 0.05


def test_knobs_map_to_the_scenarios_own_data():
    bru = load_scenario("brusilov/historical")
    kb = load_scenario("kaisers_battle/historical")
    assert victory_line(bru) == 30 and victory_line(kb) == 36           # 25.3, 20.3
    k = parse_knob(bru, "option:sga_early")
    assert (k.path, k.current, k.options) == ("options.sga_early.vp", -6, (("sga_early", True),))
    k = parse_knob(bru, "town:Luck")
    assert k.current == 4 and k.path.startswith("map.place[")
    index = int(k.path.split("[")[1].split("]")[0])
    assert bru.raw["map"]["place"][index]["name"] == "Luck"
    k = parse_knob(kb, "schedule:german_unit_exited")                      # 20.12
    assert (k.path, k.current) == ("tables.vp_schedule.row[1].vp", 3)
    assert parse_knob(kb, "victory_line").current == 36


@pytest.mark.parametrize("scenario, knob, message", [
    ("brusilov/historical", "town:Lutsk", "has no town 'Lutsk'"),
    ("brusilov/historical", "option:nosuch", "has no option 'nosuch'"),
    ("brusilov/historical", "schedule:nosuch", "has no cause 'nosuch'"),
    ("brusilov/historical", "speed", "is not one of victory_line"),
    ("brusilov/historical", "town", "needs a name"),
    ("kaisers_battle/historical", "town:Roye", "scores every town west of the VP line alike"),
])
def test_a_knob_that_names_nothing_in_the_scenario_is_refused(scenario, knob, message):
    with pytest.raises(CalibrateError, match=message):
        parse_knob(load_scenario(scenario), knob)


def test_each_value_is_replayed_on_the_same_seeds_with_its_own_data(tmp_path):
    sc = load_scenario("brusilov/historical")
    k = parse_knob(sc, "town:Luck")
    cal = Calibration("brusilov/historical", k, {"allied": "random", "central": "random"},
                      3, 11, tmp_path)
    a, b = cal.play(2), cal.play(9)
    assert a.n == b.n == 3
    ra = pq.read_table(tmp_path / "2.parquet").to_pydict()
    rb = pq.read_table(tmp_path / "9.parquet").to_pydict()
    assert set(ra["master_seed"]) == set(rb["master_seed"]) == {11}
    assert ra["game_index"] == rb["game_index"] == [0, 1, 2]
    assert ra["data_hash"][0] != rb["data_hash"][0]
    played = load_scenario(tmp_path / "scenarios" / "9" / "historical.toml")
    assert next(p.vp for p in played.places if p.name == "Luck") == 9
    # run again: the games are read back, not played again (their wall times unchanged)
    assert cal.play(2).wins == a.wins
    again = pq.read_table(tmp_path / "2.parquet").to_pydict()
    assert again["wall_time_s"] == ra["wall_time_s"]


def test_gwe_calibrate_victory_line_end_to_end_the_kaisers_battle(tmp_path):
    out = tmp_path / "cal"
    r = gwe("calibrate", "kaisers_battle/historical", "--knob", "victory_line", "--policy",
            "random", "--games", "4", "--workers", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "victory_line: even at" in r.stdout and "95 % interval" in r.stdout
    data = json.loads((out / "calibration.json").read_text())
    assert data["result"]["found"] and data["games"] == 4 and data["target"] == 0.5
    assert (out / "base.parquet").exists()


def test_gwe_calibrate_victory_line_end_to_end_brusilov(tmp_path):
    out = tmp_path / "cal"
    code, stdout, stderr = gwe_here("calibrate", "brusilov/historical", "--knob",
                                    "victory_line", "--policy", "random", "--games", "3",
                                    "--workers", "1", "--out", str(out))
    assert code == 0, stderr
    assert "move every victory band by" in stdout
    assert json.loads((out / "calibration.json").read_text())["knob"]["current"] == 30


def test_gwe_calibrate_replays_a_schedule_value_end_to_end(tmp_path):
    out = tmp_path / "exits"
    code, stdout, stderr = gwe_here(
        "calibrate", "kaisers_battle/historical", "--knob", "schedule:german_unit_exited",
        "--policy", "allied=random", "--policy", "central=random", "--games", "3",
        "--range", "0", "2", "--workers", "1", "--out", str(out))
    assert code in (0, 1), stderr
    data = json.loads((out / "calibration.json").read_text())
    assert {t["value"] for t in data["tried"]} >= {0, 2}
    assert (out / "scenarios" / "2" / "tables.toml").exists()
    if code == 1:
        assert "no value of the range gives" in stderr


@pytest.mark.parametrize("args, message", [
    (["--knob", "victory_line", "--target", "half"], "must be even or an Allied win rate"),
    (["--knob", "victory_line", "--target", "1.5"], "must be even or an Allied win rate"),
    (["--knob", "victory_line", "--range", "0", "9"], "does not apply to victory_line"),
    (["--knob", "town:Luck", "--range", "9", "2"], "the low end must be below"),
    (["--knob", "town:Nowhere"], "has no town 'Nowhere'"),
    (["--knob", "victory_line", "--policy", "nosuch"], "--policy: unknown policy"),
])
def test_gwe_calibrate_bad_arguments_give_one_sentence(tmp_path, args, message):
    code, _, stderr = gwe_here("calibrate", "brusilov/historical", *args, "--out",
                               str(tmp_path / "x"))
    assert code == 2
    assert message in stderr and "Traceback" not in stderr
    assert not (tmp_path / "x").exists()


def test_gwe_calibrate_victory_line_from_a_finished_file_equals_playing_the_batch(tmp_path):
    played, read = tmp_path / "played", tmp_path / "read"
    code, stdout, stderr = gwe_here("calibrate", "kaisers_battle/historical", "--knob",
                                    "victory_line", "--policy", "random", "--games", "6",
                                    "--seed", "3", "--workers", "1", "--out", str(played))
    assert code == 0, stderr
    code, again, stderr = gwe_here("calibrate", "kaisers_battle/historical", "--knob",
                                   "victory_line", "--from", str(played / "base.parquet"),
                                   "--out", str(read))
    assert code == 0, stderr
    a = json.loads((played / "calibration.json").read_text())
    b = json.loads((read / "calibration.json").read_text())
    assert b["result"] == a["result"] and b["tried"] == a["tried"]
    assert (b["policies"], b["games"], b["master_seed"]) == (a["policies"], 6, 3)
    assert b["from"] == str(played / "base.parquet")
    assert again.splitlines()[1:-1] == stdout.splitlines()[1:-1]
    assert not (read / "base.parquet").exists()        # nothing was played


def test_gwe_calibrate_from_a_file_played_with_options_takes_its_options(tmp_path):
    from gwe_fast.runner.batch import run_batch

    sc = load_scenario("brusilov/historical", {"sga_early": True})
    run_batch(sc, 3, 5, tmp_path / "sga.parquet", policies={"allied": "random",
                                                            "central": "random"}, workers=1)
    code, stdout, stderr = gwe_here("calibrate", "brusilov/historical", "--knob",
                                    "victory_line", "--from", str(tmp_path / "sga.parquet"),
                                    "--out", str(tmp_path / "cal"))
    assert code == 0, stderr
    data = json.loads((tmp_path / "cal" / "calibration.json").read_text())
    assert data["options"]["sga_early"] is True and data["games"] == 3


@pytest.mark.parametrize("args, message", [
    (["brusilov/historical", "--knob", "victory_line"], "whose data differ from those of "
                                                         "brusilov/historical"),
    (["kaisers_battle/historical", "--knob", "schedule:german_unit_exited"],
     "--from applies to victory_line only"),
    (["kaisers_battle/historical", "--knob", "victory_line", "--games", "9"],
     "so --games cannot be given with it"),
    (["kaisers_battle/historical", "--knob", "victory_line", "--policy", "greedy"],
     "so --policy cannot be given with it"),
])
def test_gwe_calibrate_from_refuses_a_file_that_does_not_fit(tmp_path, args, message):
    from gwe_fast.runner.batch import run_batch

    sc = load_scenario("kaisers_battle/historical")
    run_batch(sc, 2, 1, tmp_path / "kb.parquet", policies={"allied": "random",
                                                           "central": "random"}, workers=1)
    code, _, stderr = gwe_here("calibrate", *args, "--from", str(tmp_path / "kb.parquet"),
                               "--out", str(tmp_path / "x"))
    assert code == 2
    assert message in stderr and "Traceback" not in stderr
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("name, message", [
    ("missing.parquet", "does not exist"),
    ("notes.txt", "is not a readable Parquet file"),
    ("run.turns.parquet", "holds turns rows, not one row per game"),
])
def test_gwe_calibrate_from_a_file_that_is_not_a_games_file_is_refused(tmp_path, name, message):
    from gwe_fast.runner.batch import run_batch

    sc = load_scenario("kaisers_battle/historical")
    run_batch(sc, 2, 1, tmp_path / "run.parquet", policies={"allied": "random",
                                                            "central": "random"},
              workers=1, per_turn=tmp_path / "run.turns.parquet")
    (tmp_path / "notes.txt").write_text("not parquet\n")
    code, _, stderr = gwe_here("calibrate", "kaisers_battle/historical", "--knob",
                               "victory_line", "--from", str(tmp_path / name))
    assert code == 2
    assert message in stderr and "Traceback" not in stderr


def _known_rates(vp0: np.ndarray, per_unit: np.ndarray, line: int, vp_for: str):
    """The Allied win count at knob value v of games whose final VP is ``vp0 + v * per_unit``
    (random players do not look at the VP, so changing a VP value changes nothing else)."""
    def wins(v: int) -> float:
        above = float(((vp0 + v * per_unit) >= line).sum())
        return above if vp_for == "allied" else float(vp0.size) - above
    return wins


def _assert_bracket_is_the_crossing(bracket, wins, values, half):
    """The bracket is a value at which exactly half the games are won, or, when no value is,
    the two neighbours between which the known win count crosses half."""
    lo, hi = bracket
    if any(wins(v) == half for v in values):
        assert lo == hi and wins(lo) == half
    else:
        assert hi == lo + 1 and (wins(lo) - half) * (wins(hi) - half) < 0


def test_an_options_even_cost_is_found_where_the_games_say_it_lies(tmp_path):
    """Brusilov, random players: an option's VP cost is booked at the start and nothing else
    depends on it, so game i ends at VP0_i + cost. The even cost is then known from one batch
    played at cost 0; the bisection must find the bracket around it, and every value tried
    must score exactly what the batch at cost 0 says it scores."""
    sc = load_scenario("brusilov/historical")
    k = parse_knob(sc, "option:sga_early")
    cal = Calibration("brusilov/historical", k, {"allied": "random", "central": "random"},
                      12, 4, tmp_path)
    base = cal.play(0)
    vp0 = cal.vp[0].astype(np.int64)
    wins = _known_rates(vp0, np.ones_like(vp0), victory_line(sc), "allied")
    r = cal.run(0.5, 0, 120)
    assert r.found
    for o in r.tried:
        assert o.n == base.n and o.wins == wins(o.value), o.value
    _assert_bracket_is_the_crossing(r.bracket, wins, range(0, 121), 6)


def test_a_town_values_even_point_is_found_where_the_games_say_it_lies(tmp_path):
    """The Kaiser's Battle, random players: game i ends at VP_rest_i + v * towns_i when each
    town west of the VP line (20.11) is worth v, so the Allied win rate at every v is known
    from the batches at 0 and 1; the bisection lands on it."""
    sc = load_scenario("kaisers_battle/historical")
    k = parse_knob(sc, "schedule:town_west_of_vp_line")
    cal = Calibration("kaisers_battle/historical", k, {"allied": "random", "central": "random"},
                      12, 6, tmp_path)
    base = cal.play(0)
    cal.play(1)
    towns = [np.array(pq.read_table(tmp_path / f"{v}.parquet").to_pydict()["vp_towns"],
                      dtype=np.int64) for v in (0, 1)]
    per_town = towns[1] - towns[0]
    assert not towns[0].any() and per_town.any()             # worth 0, then 1 a town
    wins = _known_rates(cal.vp[0].astype(np.int64), per_town, victory_line(sc), "central")
    r = cal.run(0.5, 0, 40)
    for o in r.tried:
        assert o.n == base.n and o.wins == wins(o.value), o.value
    assert r.found
    _assert_bracket_is_the_crossing(r.bracket, wins, range(0, 41), 6)
