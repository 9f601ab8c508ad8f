"""gwe sweep: cells on common random numbers, --until-ci, overrides, located errors."""

import json
import math
import subprocess
import sys
import tomllib
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from gwe_fast.analysis.stats import mean_ci, wilson
from gwe_fast.runner.sweep import (SweepError, interval, load_cell_scenario, next_target,
                                   parse_path, prepare, read_sweep, split_values,
                                   sweep_from_args, toml_dumps)
from gwe_fast.scenario.errors import ScenarioError
from gwe_fast.scenario.loader import DATA_DIR, load_scenario


def gwe(*args, cwd=None):
    """The real console entry point in a subprocess, as a user runs it."""
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


def rows(path: Path) -> dict:
    return pq.read_table(path).to_pydict()


def test_a_brusilov_sweep_plays_every_cell_on_the_same_games(tmp_path):
    out = tmp_path / "sweep"
    r = gwe("sweep", "--scenario", "brusilov/historical", "--vary", "scenario.initial_vp=0,3",
            "--policy", "allied=random", "--policy", "central=random", "--games", "4",
            "--seed", "11", "--workers", "2", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    manifest = json.loads((out / "sweep.json").read_text())
    assert manifest["master_seed"] == 11 and manifest["scenario"] == "brusilov/historical"
    assert [c["name"] for c in manifest["cells"]] == ["scenario.initial_vp=0",
                                                      "scenario.initial_vp=3"]
    assert manifest["baseline"] == "scenario.initial_vp=0"
    base, var = (rows(out / c["file"]) for c in manifest["cells"])
    assert [c["games"] for c in manifest["cells"]] == [4, 4]
    assert all(c["status"] == "done" for c in manifest["cells"])
    # common random numbers: the same seed and game indices in every cell ...
    for t in (base, var):
        assert t["master_seed"] == [11] * 4 and t["game_index"] == [0, 1, 2, 3]
        assert {json.loads(p)["central"] for p in t["policies"]} == {"random"}
    # ... so a variation that changes only the starting VP changes nothing else: game i of
    # one cell is game i of the other, 3 VP higher
    assert [v - b for v, b in zip(var["vp"], base["vp"])] == [3] * 4
    for col in ("turns_played", "steps_lost_allied_combat", "steps_lost_central_combat",
                "sp_lost_allied", "vp_towns"):
        assert var[col] == base[col], col
    # the overridden cell was played from its own scenario files, written beside the results
    cell_scenario = out / manifest["cells"][1]["scenario"]
    assert cell_scenario.exists() and load_scenario(cell_scenario).initial_vp == 3
    assert len(set(base["data_hash"]) | set(var["data_hash"])) == 2

    rep = gwe("report", str(out), "--out", str(tmp_path / "report"))
    assert rep.returncode == 0, rep.stderr
    assert "+3.00 [+3.00, +3.00]" in rep.stdout            # the paired VP difference
    assert (tmp_path / "report" / "report.html").exists()


@pytest.fixture
def tiny_sweep(tiny_dir, tmp_path):
    """A sweep file over the tiny scenario (3 Game-Turns: quick games)."""
    def make(body: str) -> Path:
        f = tmp_path / "tiny_sweep.toml"
        f.write_text(f'[sweep]\nscenario = "{tiny_dir / "tiny.toml"}"\n' + body)
        return f
    return make


def test_until_ci_adds_games_until_the_interval_is_narrow_enough(tiny_sweep, tmp_path):
    f = tiny_sweep('games = 4\nseed = 2\nuntil_ci = 5.0\nmetric = "vp"\nbatch = 4\n'
                   'max_games = 64\n[grid]\n"option.guards" = [false, true]\n')
    out = tmp_path / "ci"
    r = gwe("sweep", str(f), "--workers", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    manifest = json.loads((out / "sweep.json").read_text())
    assert manifest["until_ci"]["width"] == 5.0 and manifest["until_ci"]["metric"] == "vp"
    for cell in manifest["cells"]:
        t = rows(out / cell["file"])
        n = len(t["vp"])
        assert cell["games"] == n and n % 4 == 0 and 4 <= n <= 64
        assert t["game_index"] == list(range(n))          # extended, index by index
        _, lo, hi = mean_ci(t["vp"])
        assert cell["until_ci"]["stopped"] == "width" and hi - lo < 5.0
        assert cell["until_ci"]["width"] == pytest.approx(hi - lo)
        if n > 4:                                          # it needed the games it added
            _, lo4, hi4 = mean_ci(t["vp"][:4])
            assert hi4 - lo4 >= 5.0
        assert f"{cell['name']}: {n} games" in r.stdout


def test_until_ci_stops_at_the_cap(tiny_sweep, tmp_path):
    f = tiny_sweep("games = 3\nuntil_ci = 0.001\nmax_games = 7\nbatch = 2\n")
    out = tmp_path / "cap"
    r = gwe("sweep", str(f), "--workers", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    cell = json.loads((out / "sweep.json").read_text())["cells"][0]
    assert cell["games"] == 7 and cell["until_ci"]["stopped"] == "max_games"
    assert "stopped at the cap" in r.stdout


def test_next_target_projects_the_width_in_whole_batches():
    assert next_target(100, 0.2, 0.1, 50, 10_000) == 400          # (0.2/0.1)^2 = 4x
    assert next_target(100, 0.12, 0.1, 50, 10_000) == 150         # 144, to a whole batch
    assert next_target(100, 0.101, 0.1, 50, 10_000) == 150        # at least one batch
    assert next_target(100, 1.0, 0.1, 50, 10_000) == 400          # at most 4x a round
    assert next_target(100, 1.0, 0.1, 50, 250) == 250             # never past the cap
    assert next_target(10, math.inf, 0.1, 10, 1000) == 40


def test_the_metric_of_until_ci_is_defined_over_finished_games():
    cols = {"result": ["a", "b", "error", "c", "d"], "winner": ["allied", "draw", "error",
                                                                 "central", "allied"],
            "vp": [40, 30, 0, 10, 50]}
    n, value, lo, hi = interval(cols, "allied_win")
    assert n == 4 and value == 2.5 / 4 and (lo, hi) == wilson(2.5, 4)
    n, value, lo, hi = interval(cols, "vp")
    assert n == 4 and (value, lo, hi) == mean_ci([40, 30, 10, 50])


def test_a_cell_file_is_extended_not_replayed_and_another_run_is_refused(tiny_sweep, tmp_path):
    f = tiny_sweep("seed = 4\n")
    out = tmp_path / "ext"
    assert gwe("sweep", str(f), "--games", "3", "--workers", "1", "--out", str(out)
               ).returncode == 0
    first = rows(next(out.glob("*.parquet")))
    took = [c["seconds"] for c in json.loads((out / "sweep.json").read_text())["cells"]]
    assert all(t > 0 for t in took)
    # run again with nothing to play: the manifest keeps the time the cells took
    assert gwe("sweep", str(f), "--games", "3", "--workers", "1", "--out", str(out)
               ).returncode == 0
    assert [c["seconds"] for c in json.loads((out / "sweep.json").read_text())["cells"]] == took
    r = gwe("sweep", str(f), "--games", "5", "--workers", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    more = [c["seconds"] for c in json.loads((out / "sweep.json").read_text())["cells"]]
    assert all(m > t for m, t in zip(more, took))
    again = rows(next(out.glob("*.parquet")))
    assert again["game_index"] == [0, 1, 2, 3, 4]
    for col in ("vp", "result", "steps_lost_allied_combat"):
        assert again[col][:3] == first[col]
    r = gwe("sweep", str(f), "--games", "5", "--seed", "5", "--workers", "1", "--out", str(out))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "cannot resume" in r.stderr and "seed" in r.stderr and "another --out" in r.stderr


def test_the_example_sweep_files_are_valid():
    examples = sorted((Path(__file__).resolve().parents[2] / "examples" / "sweeps").glob("*.toml"))
    assert len(examples) >= 3
    for f in examples:
        sw = read_sweep(f)
        cells = prepare(sw)
        assert len(cells) >= 2 and sw.baseline in {c.name for c, _ in cells}, f.name


def test_an_override_is_checked_by_the_scenario_loader():
    sc = load_cell_scenario("brusilov/historical", {"sga_early": "true"},
                            {"tables.victory_levels.band[2].max": 27,
                             "tables.victory_levels.band[3].min": 28})
    bands = sc.tables["victory_levels"]["band"]
    assert (bands[2]["max"], bands[3]["min"]) == (27, 28) and sc.options["sga_early"] is True
    assert sc.data_hash != load_scenario("brusilov/historical").data_hash
    with pytest.raises(ScenarioError, match="overlaps the band before it"):
        load_cell_scenario("brusilov/historical", {},
                           {"tables.victory_levels.band[2].max": 30})


@pytest.mark.parametrize("part", ["map", "counters", "tables", "historical"])
def test_scenario_data_written_back_as_toml_reads_the_same(part):
    data = tomllib.loads((DATA_DIR / "brusilov" / f"{part}.toml").read_text())
    assert tomllib.loads(toml_dumps(data)) == data


def test_paths_and_command_line_values():
    assert parse_path("counters.unit[ru-xx-77].steps[0][1]") == [
        "counters", "unit", "[ru-xx-77]", "steps", 0, 1]
    for bad in ("a..b", "a.", "[1]", "a[]", "a]b"):
        with pytest.raises(ValueError):
            parse_path(bad)
    assert split_values("policy.central", "random,x:a=1,b=2,y") == ["random", "x:a=1,b=2", "y"]
    assert split_values("option.depots", "1,2,3") == ["1", "2", "3"]
    sw = sweep_from_args("brusilov/historical", vary=["option.sga_early=false,true",
                                                      "tables.victory_levels.band[2].max=29,28"],
                         sets={"scenario.initial_vp": "2"})
    assert len(sw.cells) == 4 and sw.baseline == sw.cells[0].name
    assert sw.cells[1].overrides["tables.victory_levels.band[2].max"].value == 28
    assert sw.cells[0].overrides["scenario.initial_vp"].value == 2


BAD = [
    # (file body after [sweep] scenario = "brusilov/historical", expected located message)
    ("games = 0\n", "bad.toml:3: [sweep.games] must be at least 1, not 0"),
    ("colour = 'red'\n", "bad.toml:3: [sweep.colour] unknown key 'colour'"),
    ('metric = "median"\n', "bad.toml:3: [sweep.metric] unknown metric 'median'"),
    ('until_ci = -1\n', "bad.toml:3: [sweep.until_ci] must be a positive number"),
    ('baseline = "nope"\n[grid]\n"option.sga_early" = [false, true]\n',
     "bad.toml:3: [sweep.baseline] names no cell"),
    ('\n[grid]\n"option.nope" = [1, 2]\n',
     "bad.toml:5: [grid.\"option.nope\"] unknown option 'nope' for this scenario"),
    ('\n[grid]\noption.sga_early = [false, "maybe"]\n',
     "bad.toml:5: [grid.\"option.sga_early\"] option sga_early=maybe: expected true or "
     "false"),
    ('\n[grid]\n"option.sga_early" = true\n',
     "bad.toml:5: [grid.\"option.sga_early\"] axis 'option.sga_early' must be a non-empty list"),
    ('\n[grid]\n"policy.central" = ["random", "nosuch"]\n',
     "bad.toml:5: [grid.\"policy.central\"] unknown policy 'nosuch'"),
    ('\n[base]\npolicies = { prussians = "random" }\n',
     "bad.toml:5: [base.policies.prussians] unknown side 'prussians' (sides: allied, central, "),
    ('\n[[cell]]\nname = "a"\n\n[[cell]]\nname = "a"\n',
     "bad.toml:8: [cell[1].name] two cells are named 'a'"),
    ('\n[[cell]]\nname = "a"\noptions = { west_front = true, more_supply_rail = true }\n',
     "bad.toml:6: [cell[0].options.more_supply_rail] option 'more_supply_rail' cannot be used "
     "with 'west_front'"),
    ('\n[[cell]]\nname = "a"\n\n[[cell]]\nname = "b"\n'
     'set = { "tables.victory_levels.band[9].max" = 30 }\n',
     'bad.toml:9: [cell[1].set."tables.victory_levels.band[9].max"] cannot set '
     'tables.victory_levels.band[9].max: victory_levels.band has 6 entries, so [9] is out of '
     'range'),
    ('\n[[cell]]\nname = "a"\nset = { "tables.victory_levels.band[2].max" = 30 }\n',
     'bad.toml:6: [cell[0].set."tables.victory_levels.band[2].max"] setting '
     'tables.victory_levels.band[2].max = 30 makes the scenario invalid: tables.toml '
     '[victory_levels.band[3]]: band starting at 30 overlaps the band before it'),
    ('\n[[cell]]\nname = "a"\nset = { "tables.victory_levels.band[2].max" = "x" }\n',
     "must be an integer, not a string"),
    ('\n[[cell]]\nname = "a"\nset = { "tables.nosuch.x" = 1 }\n',
     'bad.toml:6: [cell[0].set."tables.nosuch.x"] cannot set tables.nosuch.x: the tables file '
     "has no key 'nosuch'"),
    ('\n[grid]\n"tables.crt.odds[" = [1]\n',
     "bad.toml:5: [grid.\"tables.crt.odds[\"] path 'tables.crt.odds[' is malformed at "
     "character 16"),
]


@pytest.mark.parametrize("body, message", BAD)
def test_a_malformed_sweep_file_gives_a_located_error(tmp_path, body, message):
    f = tmp_path / "bad.toml"
    f.write_text('[sweep]\nscenario = "brusilov/historical"\n' + body)
    with pytest.raises(SweepError) as exc:
        prepare(read_sweep(f))
    assert any(message in str(fault) for fault in exc.value.faults), exc.value.faults
    assert all(str(f) in str(fault) for fault in exc.value.faults)


def test_sweep_errors_on_the_command_line_are_one_sentence_each(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('[sweep]\nscenario = "brusilov/historical"\n\n[grid]\n'
                   '"option.nope" = [1, 2]\n"policy.central" = ["random", "nosuch"]\n')
    r = gwe("sweep", str(bad), "--out", str(tmp_path / "o"))
    assert r.returncode == 2 and "Traceback" not in r.stderr
    lines = r.stderr.strip().splitlines()
    assert lines[-1] == "gwe: the sweep has 2 faults; nothing was run"
    assert any(ln.startswith(f"{bad}:5: ") and "unknown option 'nope'" in ln for ln in lines)
    assert not (tmp_path / "o").exists()
    syntax = tmp_path / "syntax.toml"
    syntax.write_text("[sweep\n")
    r = gwe("sweep", str(syntax))
    assert r.returncode == 2 and f"{syntax}:1: is not valid TOML" in r.stderr
    for args, message in [
        ([], "give a sweep file, or --scenario"),
        (["--scenario", "brusilov/historical", "--vary", "option.sga_early"],
         "[--vary option.sga_early] --vary 'option.sga_early' must look like AXIS=VALUE,VALUE"),
        (["--scenario", "nowhere/else", "--vary", "option.x=1,2"],
         "nowhere/else: is neither a scenario file nor a bundled scenario"),
        (["--scenario", "brusilov/historical", "--vary", "policy.neutral=random"],
         "unknown side 'neutral'"),
        ([str(bad), "--scenario", "brusilov/historical"], "not both"),
        (["--scenario", "brusilov/historical", "--vary", "option.sga_early=true,false",
          "--until-ci", "0"], "must be a positive width"),
    ]:
        r = gwe("sweep", *args)
        assert r.returncode == 2 and "Traceback" not in r.stderr, (args, r.stderr)
        assert message in r.stderr, (args, r.stderr)


def test_sweep_into_a_file_is_refused(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = gwe("sweep", "--scenario", "brusilov/historical", "--vary", "option.sga_early=false,true",
            "--out", str(blocker))
    assert r.returncode == 2 and "is a file" in r.stderr


def test_the_docstring_examples_run():
    import doctest

    import gwe_fast.runner.sweep

    result = doctest.testmod(gwe_fast.runner.sweep, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 5 and result.failed == 0


def test_the_sweep_file_of_the_docs_reads(tmp_path):
    import re

    docs = (Path(__file__).resolve().parents[2] / "docs" / "sweeps.md").read_text()
    body = re.search(r"```toml\n(\[sweep\]\n.*?)```", docs, re.S).group(1)
    f = tmp_path / "doc.toml"
    f.write_text(body)
    sw = read_sweep(f)
    assert len(sw.cells) == 9 and sw.baseline == "historical" and sw.until_ci == 0.05
    with pytest.raises(SweepError) as exc:            # its custom policy is an illustration
        prepare(sw)
    assert [fault.key for fault in exc.value.faults] == ['grid."policy.central"']
    assert "cannot import policy module 'mypolicies'" in str(exc.value)
