"""Issue 29: scenario input that used to pass validation and then crash, hang or reach any
file. Every number is range-checked where it is loaded, every type is checked, scenario paths
stay in the scenario's folder and the bundled data, and option values given by the caller
are blamed on the caller."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import edit
from gwe_fast import load_scenario, validate
from gwe_fast.cli import app
from gwe_fast.scenario.errors import ScenarioError
from gwe_fast.scenario.loader import DATA_DIR

runner = CliRunner()


def cli(*args):
    """``gwe ARGS`` in this process: (exit code, stdout, stderr)."""
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture
def brusilov(tmp_path) -> Path:
    """A copy of the bundled Brusilov folder to break."""
    dest = tmp_path / "brusilov"
    shutil.copytree(DATA_DIR / "brusilov", dest)
    return dest


@pytest.fixture
def kb(tmp_path) -> Path:
    dest = tmp_path / "kaisers_battle"
    shutil.copytree(DATA_DIR / "kaisers_battle", dest)
    return dest


def located(faults, file: str, key: str):
    """The faults of ``file`` (a name) at ``key``, each with its line found."""
    hits = [f for f in faults if Path(f.file).name == file and f.key == key]
    assert hits, "\n".join(map(str, faults))
    assert all(f.line for f in hits), "\n".join(map(str, hits))
    return hits


# --- item 2: numbers in range, values of the right type ------------------------------------

def test_item_2_initial_vp_beyond_int32_is_a_located_fault(brusilov, tmp_path):
    edit(brusilov / "historical.toml", "initial_vp = 0 ", "initial_vp = 2147483648 ")
    (f,) = located(validate(brusilov / "historical.toml"), "historical.toml",
                   "scenario.initial_vp")
    assert "2147483648" in f.message
    code, _, err = cli("validate", brusilov / "historical.toml")
    assert code == 2 and "historical.toml:" in err and "[scenario.initial_vp]" in err
    out = tmp_path / "r.parquet"
    code, _, err = cli("run", brusilov / "historical.toml", "--games", "2", "--workers", "1",
                       "--out", out)
    assert code == 2 and "[scenario.initial_vp]" in err and "nothing was run" in err
    assert not out.exists() and not any(tmp_path.glob("r.parquet*"))


def test_item_2_an_option_vp_beyond_int32_is_a_located_fault(brusilov, tmp_path):
    edit(brusilov / "historical.toml", "vp = -6\nhelp = \"West", "vp = -3000000000\nhelp = \"West")
    located(validate(brusilov / "historical.toml"), "historical.toml", "options.west_front.vp")
    out = tmp_path / "r.parquet"
    code, _, err = cli("run", brusilov / "historical.toml", "--games", "2", "--workers", "1",
                       "--option", "west_front=true", "--out", out)
    assert code == 2 and "[options.west_front.vp]" in err
    assert not any(tmp_path.glob("r.parquet*"))


WRONG_TYPES = [
    # (file, text, replacement, key of the fault)
    ("counters.toml", 'nationality = "russian"', "nationality = []", "unit[0].nationality"),
    ("counters.toml", 'size = "corps"', "size = []", "unit[0].size"),
    ("counters.toml", 'side = "allied"', "side = { a = 1 }", "unit[0].side"),
    ("historical.toml", 'first_player = "allied"', "first_player = []", "scenario.first_player"),
    ("historical.toml", "version = 2", "version = 99999999999", "scenario.version"),
    ("historical.toml", 'map = "map.toml"', "map = 5", "scenario.map"),
    ("historical.toml", 'description = "', 'description = 5 # "', "scenario.description"),
    ("historical.toml", 'case = "26.1"', "case = 26.1", "scenario.case"),
    ("map.toml", 'default = "clear"', "default = []", "terrain.default"),
    ("map.toml", "hex_km = 14", "hex_km = nan", "map.hex_km"),
    ("map.toml", "hex_km = 14", "hex_km = inf", "map.hex_km"),
    ("tables.toml", "german = 5\n", "german = 200\n", "supply_range.german"),
    ("tables.toml", "max_points = 8", "max_points = 99999999999999999999", "stacking.max_points"),
    ("tables.toml", "vp = -6\neffects = { central", "vp = -3000000000\neffects = { central",
     "option_vp_costs.option[1].vp"),
    ("tables.toml", "max = 9\n", "max = 2147483648\n", "victory_levels.band[0].max"),
]


#: faults the loader found before issue 29 too; kept so that the new checks keep them
ALREADY_CAUGHT = [
    ("counters.toml", 'type = "infantry"', "type = 3", "unit[0].type"),
    ("counters.toml", "stacking = 4", 'stacking = "4"', "unit[0].stacking"),
    ("counters.toml", "stacking = 4", "stacking = 4.0", "unit[0].stacking"),
    ("counters.toml", "stacking = 4", "stacking = true", "unit[0].stacking"),
    ("counters.toml", "stacking = 4", "stacking = 200", "unit[0].stacking"),
    ("counters.toml", 'setup = "0809"', "setup = 809.5", "unit[4].setup"),
    ("counters.toml", 'army = "8"', "army = 8", "unit[90].army"),
    ("historical.toml", "first_turn = 1", "first_turn = 1.0", "scenario.first_turn"),
    ("historical.toml", "default = false\nvp = -6\nhelp = \"West",
     "default = []\nvp = -6\nhelp = \"West", "options.west_front.default"),
]


def _ids(cases):
    return [c[3] + "=" + c[2].split("= ")[-1].strip() for c in cases]


@pytest.mark.parametrize("file,old,new,key", ALREADY_CAUGHT, ids=_ids(ALREADY_CAUGHT))
def test_values_of_the_wrong_type_stay_located_faults(brusilov, file, old, new, key):
    edit(brusilov / file, old, new)
    located(validate(brusilov / "historical.toml"), file, key)


@pytest.mark.parametrize("file,old,new,key", WRONG_TYPES, ids=_ids(WRONG_TYPES))
def test_item_2_a_value_of_the_wrong_type_or_range_is_a_located_fault(brusilov, file, old, new,
                                                                      key):
    edit(brusilov / file, old, new)
    faults = validate(brusilov / "historical.toml")
    located(faults, file, key)
    code, _, err = cli("validate", brusilov / "historical.toml")
    assert code == 2 and f"[{key}]" in err and "Traceback" not in err


def test_item_2_kb_numbers_are_range_checked_too(kb):
    edit(kb / "tables.toml", "die_mod = 2", "die_mod = 70000")
    edit(kb / "tables.toml", "field = 50", "field = 1e3")
    edit(kb / "tables.toml", "die_multiplier = [1.0, 0.5, 0.5]",
         "die_multiplier = [1.0, inf, 0.5]")
    faults = validate(kb / "historical.toml")
    keys = {f.key for f in faults}
    assert "artillery_points.german[0].field" in keys, keys
    assert "advance_after_combat.die_multiplier[1]" in keys, keys
    assert any(k.startswith("terrain_effects.") and k.endswith(".die_mod") for k in keys), keys


def test_17_13_the_opening_movement_names_two_allied_corps(kb):
    # the engine rolls for a first and a second corps; one corps validated, then crashed
    edit(kb / "tables.toml", "allied_corps = [18, 3]", "allied_corps = [99]")
    located(validate(kb / "historical.toml"), "tables.toml", "opening_movement.allied_corps")


def test_an_entry_letter_without_hexes_is_refused(kb):
    # a unit of that letter validated, then could not enter (RuntimeError in play)
    text = (kb / "map.toml").read_text()
    line = next(ln for ln in text.splitlines() if ln.startswith("C = ["))
    edit(kb / "map.toml", line, "C = []")
    located(validate(kb / "historical.toml"), "map.toml", "entry.C")


def test_item_2_last_turn_beyond_the_turn_track_is_refused(brusilov, kb, tmp_path):
    edit(brusilov / "historical.toml", "last_turn = 14", "last_turn = 99")
    (f,) = located(validate(brusilov / "historical.toml"), "historical.toml",
                   "scenario.last_turn")
    assert "18" in f.message
    code, _, err = cli("run", brusilov / "historical.toml", "--games", "1", "--workers", "1",
                       "--out", tmp_path / "r.parquet")
    assert code == 2 and "[scenario.last_turn]" in err
    # Attack on Schedule's 18 turns are the longest the Brusilov turn track holds
    assert not validate(brusilov / "attack_on_schedule.toml")
    # The Kaiser's Battle ends with Game-Turn 10 (20.0): its artillery schedule stops there
    edit(kb / "historical.toml", "last_turn = 10", "last_turn = 11")
    located(validate(kb / "historical.toml"), "historical.toml", "scenario.last_turn")
    # a longer Turn Record Track is not enough: Game-Turn 11 has no artillery points
    edit(kb / "map.toml", "turns = [1, 10]", "turns = [1, 12]")
    (f,) = located(validate(kb / "historical.toml"), "historical.toml", "scenario.last_turn")
    assert "artillery_points.german (to Game-Turn 10)" in f.message, f.message


def test_the_kinds_of_number_fit_their_dtypes():
    import doctest

    import numpy as np

    from gwe_fast.scenario import limits

    assert doctest.testmod(limits).failed == 0
    kinds = [k for k in vars(limits).values() if isinstance(k, limits.Kind)]
    assert len(kinds) >= 10
    for k in kinds:
        info = np.iinfo(k.dtype) if k.integer else np.finfo(k.dtype)
        assert info.min <= k.lo <= k.hi <= info.max, k
    # a stack's strength and a game's VP stay inside their dtypes
    assert limits.COUNT.hi * limits.MAX_UNITS <= np.iinfo(np.int32).max
    assert 12 * limits.MAX_UNITS <= np.iinfo(np.int16).max       # stacking on the map
    assert limits.TURN.hi + limits.COUNT.hi <= np.iinfo(limits.TURN.dtype).max   # a delay


def test_item_2_a_reinforcement_turn_beyond_the_turn_track_is_refused(brusilov):
    edit(brusilov / "attack_on_schedule.toml", "[placement.ge-x-37]\nturn = 15",
         "[placement.ge-x-37]\nturn = 40")
    located(validate(brusilov / "attack_on_schedule.toml"), "attack_on_schedule.toml",
            "placement.ge-x-37.turn")


# --- item 3: paths stay in the scenario's folder and the bundled data --------------------------

def _one_fault_at(scenario: Path, key: str) -> str:
    faults = validate(scenario)
    assert len(faults) == 1, "\n".join(map(str, faults))
    (f,) = faults
    assert Path(f.file).name == scenario.name and f.key == key and f.line, str(f)
    code, _, err = cli("validate", scenario)
    assert code == 2 and f"[{key}]" in err
    return f.message


def test_item_3_device_files_are_refused_without_being_read(brusilov):
    for target in ("/dev/zero", "/dev/stdin", "/dev/null"):
        s = brusilov / "historical.toml"
        text = s.read_text()
        edit(s, 'map = "map.toml"', f'map = "{target}"')
        msg = _one_fault_at(s, "scenario.map")
        assert "outside" in msg, msg
        code, _, err = cli("validate", "--allow-outside-paths", s)
        assert code == 2 and "not a regular file" in err, err
        s.write_text(text)


def test_item_3_a_fifo_is_refused_without_hanging(brusilov):
    os.mkfifo(brusilov / "pipe.toml")
    edit(brusilov / "historical.toml", 'map = "map.toml"', 'map = "pipe.toml"')
    r = subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()",
                        "validate", str(brusilov / "historical.toml")],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "[scenario.map]" in r.stderr and "not a regular file" in r.stderr


@pytest.mark.parametrize("key,text", [("scenario.map", 'map = "map.toml"'),
                                      ("scenario.extends", None)])
def test_item_3_paths_outside_say_the_same_whether_they_exist(brusilov, tmp_path, key, text):
    (tmp_path / "secret.toml").write_text('[map]\ncolumns = [1, 2]\nrows = [1, 2]\n')
    s = brusilov / "attack_on_schedule.toml" if key == "scenario.extends" else \
        brusilov / "historical.toml"
    old = 'extends = "historical.toml"' if text is None else text
    name = key.split(".")[1]
    messages = []
    for target in ("../secret.toml", "../nothing-here.toml", "../../../../../../etc/passwd",
                   "../../../../../../etc/no-such-file", str(tmp_path / "secret.toml")):
        original = s.read_text()
        edit(s, old, f'{name} = "{target}"')
        messages.append(_one_fault_at(s, key).replace(target, "<path>"))
        s.write_text(original)
    assert len(set(messages)) == 1, messages
    assert "--allow-outside-paths" in messages[0]


def test_item_3_the_explicit_flag_reads_files_outside(brusilov, tmp_path):
    shutil.move(brusilov / "tables.toml", tmp_path / "shared-tables.toml")
    edit(brusilov / "historical.toml", 'tables = "tables.toml"', 'tables = "../shared-tables.toml"')
    with pytest.raises(ScenarioError, match="outside"):
        load_scenario(brusilov / "historical.toml")
    sc = load_scenario(brusilov / "historical.toml", allow_outside_paths=True)
    assert sc.tables["stacking"]["max_points"] == 8
    assert validate(brusilov / "historical.toml", allow_outside_paths=True) == []
    code, out, _ = cli("validate", "--allow-outside-paths", brusilov / "historical.toml")
    assert code == 0 and out.strip().endswith("ok")
    code, _, err = cli("run", brusilov / "historical.toml", "--games", "1", "--workers", "1",
                       "--out", tmp_path / "r.parquet")
    assert code == 2 and "[scenario.tables]" in err
    code, _, err = cli("run", brusilov / "historical.toml", "--games", "2", "--workers", "2",
                       "--allow-outside-paths", "--out", tmp_path / "r.parquet")
    assert code == 0, err
    assert (tmp_path / "r.parquet").exists()


def test_a_subfolder_and_the_bundled_data_are_inside_the_allowed_folders(brusilov, tmp_path):
    (brusilov / "variants").mkdir()
    shutil.move(brusilov / "map.toml", brusilov / "variants" / "map.toml")
    edit(brusilov / "historical.toml", 'map = "map.toml"', 'map = "variants/map.toml"')
    edit(brusilov / "historical.toml", 'tables = "tables.toml"',
         f'tables = "{DATA_DIR / "brusilov" / "tables.toml"}"')
    assert validate(brusilov / "historical.toml") == []


def test_item_3_a_file_above_the_size_limit_is_refused(brusilov):
    with open(brusilov / "map.toml", "a") as f:
        f.write(("# " + "x" * 98 + "\n") * 50_000)           # 5 MB of comments
    faults = validate(brusilov / "historical.toml")
    assert len(faults) == 1 and "MiB" in faults[0].message, faults
    assert Path(faults[0].file).name == "historical.toml" and faults[0].key == "scenario.map"


def test_item_3_a_sweep_refuses_a_path_outside_its_scenario(tmp_path):
    out = tmp_path / "sweep"
    code, _, err = cli("sweep", "--scenario", "brusilov/historical", "--vary",
                       "scenario.map=map.toml,/etc/passwd", "--games", "1", "--out", out)
    assert code == 2 and "outside" in err, err
    assert not out.exists()
    code, _, err = cli("sweep", "--scenario", "brusilov/historical", "--set",
                       "scenario.map=../../../../../etc/passwd", "--vary",
                       "option.sga_early=false,true", "--games", "1", "--out", out)
    assert code == 2 and "outside" in err
    assert not out.exists() and "root:" not in err


def test_item_3_a_sweep_reads_files_outside_only_when_allowed(brusilov, tmp_path):
    from gwe_fast.runner.sweep import SweepError, prepare, sweep_from_args

    shutil.copy(brusilov / "map.toml", tmp_path / "outside-map.toml")
    sw = sweep_from_args(str(brusilov / "historical.toml"),
                         vary=["scenario.map=map.toml,../outside-map.toml"])
    with pytest.raises(SweepError, match="outside the scenario's folder"):
        prepare(sw)
    sw.allow_outside_paths = True
    assert [c.name for c, _ in prepare(sw)] == ["scenario.map=map.toml",
                                                 "scenario.map=../outside-map.toml"]


def test_item_3_a_sweep_copies_its_inputs_with_their_mode(brusilov, tmp_path):
    private = brusilov / "private-map.toml"
    shutil.copy(brusilov / "map.toml", private)
    private.chmod(0o600)
    edit(brusilov / "historical.toml", "last_turn = 14", "last_turn = 2")
    out = tmp_path / "sweep"
    code, _, err = cli("sweep", "--scenario", brusilov / "historical.toml", "--set",
                       "scenario.map=private-map.toml", "--vary", "scenario.initial_vp=0,1",
                       "--games", "1", "--workers", "1", "--out", out)
    assert code == 0, err
    copies = sorted(out.glob("scenarios/*/map.toml"))
    assert len(copies) == 2
    for c in copies:
        assert c.stat().st_mode & 0o777 == 0o600
        assert c.read_bytes() == private.read_bytes()
    # the map of a cell is the file the override names, checked as a map
    edit(private, "columns = [1, 31]", "columns = [1, 300]")
    code, _, err = cli("sweep", "--scenario", brusilov / "historical.toml", "--set",
                       "scenario.map=private-map.toml", "--vary", "scenario.initial_vp=0,1",
                       "--games", "1", "--out", tmp_path / "sweep2")
    assert code == 2 and "map.columns" in err, err


# --- item 13: an option value given on the command line is blamed on the command line --------

def test_item_13_a_bad_option_value_blames_the_command_line(tmp_path):
    code, _, err = cli("run", "brusilov/historical", "--games", "1", "--option",
                       "sga_early=maybe", "--out", tmp_path / "r.parquet")
    assert code == 2
    assert "--option sga_early=maybe: expected true or false" in err, err
    assert "historical.toml" not in err
    code, _, err = cli("validate", "brusilov/historical", "--option", "sga_early=maybe")
    assert code == 2 and "--option sga_early=maybe: expected true or false" in err, err
    code, _, err = cli("run", "brusilov/historical", "--games", "1", "--option", "nope=1",
                       "--out", tmp_path / "r.parquet")
    assert code == 2 and "--option nope=1: " in err and "historical.toml" not in err, err
    with pytest.raises(ScenarioError, match="option sga_early=maybe: expected true or false"):
        load_scenario("brusilov/historical", {"sga_early": "maybe"})
