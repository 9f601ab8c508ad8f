"""The gwe command: help everywhere, clear errors, no tracebacks, real Parquet output."""

import json
import subprocess
import sys

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from conftest import edit
from gwe_fast.cli import app
from gwe_fast.runner.parquet import read_metadata

runner = CliRunner()


def gwe(*args):
    """Run the real console entry point in a subprocess (as a user would)."""
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=120)


def test_every_command_has_help_with_an_example():
    commands = [c.name or c.callback.__name__.replace("_", "-") for c in app.registered_commands]
    assert {"scenarios", "validate", "copy-scenario", "run"} <= set(commands)
    for name in commands:
        result = runner.invoke(app, [name, "--help"])
        assert result.exit_code == 0, name
        assert "Example:" in result.output, name
    assert "Example:" in runner.invoke(app, ["--help"]).output


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.startswith("gwe_fast ")


def test_validate_a_good_scenario(tiny_dir):
    result = gwe("validate", str(tiny_dir / "tiny.toml"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().endswith("tiny.toml: ok")


def test_validate_a_broken_scenario_prints_every_fault_and_exits_2(tiny_dir):
    edit(tiny_dir / "counters.toml", 'setup = "0302"', 'setup = "0909"')
    edit(tiny_dir / "counters.toml", 'setup = "0402"\n', 'colour = "red"\n')
    edit(tiny_dir / "map.toml", 'forest = ["0202", "0203"]', 'forest = ["0202", "0203", "0505"]')
    result = gwe("validate", str(tiny_dir))        # a folder: every scenario file in it
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[-1] == "gwe: 4 faults found"
    assert any("counters.toml:14: [unit[0].setup] unit 'ru-xx-1': set-up hex 0909 is outside the map"
               in ln for ln in lines)
    assert any("[unit[1].colour]" in ln and "unknown key 'colour'" in ln for ln in lines)
    assert any("[unit[1]]" in ln and "has no set-up hex" in ln for ln in lines)
    assert any("map.toml:11: [terrain.forest[2]]" in ln for ln in lines)


@pytest.mark.parametrize("args, message", [
    (["validate", "nowhere.toml"], "file not found"),
    (["run", "nowhere/else"], "neither a scenario file nor a bundled scenario"),
    (["validate", "--option", "novalue", "x.toml"], "must look like NAME=VALUE"),
])
def test_user_mistakes_give_one_sentence_and_exit_2(args, message):
    result = gwe(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_run_rejects_an_unknown_option(tiny_dir):
    result = gwe("run", str(tiny_dir / "tiny.toml"), "--games", "2", "--option", "nope=1")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "unknown option 'nope' for this scenario (options: guards, slow, depots)" in result.stderr


def test_run_writes_parquet_with_metadata_readable_by_pyarrow_and_pandas(tiny_dir, tmp_path):
    import pandas as pd

    out = tmp_path / "out" / "tiny.parquet"
    result = gwe("run", str(tiny_dir / "tiny.toml"), "--games", "40", "--seed", "11",
                 "--option", "guards=true", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "40 games" in result.stdout and "mean VP" in result.stdout
    assert "40/40 games" in result.stderr          # progress
    table = pq.read_table(out)
    assert table.num_rows == 40
    assert all(not f.nullable for f in table.schema)
    df = pd.read_parquet(out)
    assert list(df.game_index) == list(range(40))
    levels = {"central_powers_decisive", "central_powers_substantive", "central_powers_marginal",
              "russian_marginal", "russian_substantive", "russian_decisive"}
    assert set(df.result) <= levels and (df.error == "").all()
    assert (df.turns_played == 3).all() and (df.master_seed == 11).all()
    # the VP total is the initial 3 (5, less 2 for the guards option) plus its causes
    assert (df.vp == 3 + df.vp_units + df.vp_towns + df.vp_withheld).all()
    assert json.loads(df.options[0]) == {"depots": 1, "guards": True, "slow": False}
    assert json.loads(df.policies[0]) == {"allied": "random", "central": "random"}
    meta = read_metadata(out)
    assert meta["master_seed"] == 11 and meta["games"] == 40 and meta["format_version"] == 1
    assert meta["options"]["guards"] is True and len(meta["data_hash"]) == 16
    assert meta["engine"] == "gwe"
    assert not out.with_name(out.name + ".partial").exists()
    again = tmp_path / "again.parquet"
    gwe("run", str(tiny_dir / "tiny.toml"), "--games", "40", "--seed", "11", "--option",
        "guards=true", "--out", str(again))
    replay = pd.read_parquet(again)
    cols = [c for c in df.columns if c != "wall_time_s"]
    pd.testing.assert_frame_equal(df[cols], replay[cols])          # same seed, same games


def test_run_of_a_game_without_an_engine_records_its_set_up(tmp_path):
    import pandas as pd

    out = tmp_path / "kb.parquet"
    result = gwe("run", "kaisers_battle/historical", "--games", "3", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "setup-only: 3 (100.0%)" in result.stdout and "not built yet" in result.stdout
    df = pd.read_parquet(out)
    assert (df.result == "setup-only").all() and (df.turns_played == 0).all()
    assert (df.units_on_map_central > 0).all() and (df.units_pending_allied > 0).all()


def test_run_into_a_folder_is_refused(tiny_dir, tmp_path):
    result = gwe("run", str(tiny_dir / "tiny.toml"), "--games", "1", "--out", str(tmp_path))
    assert result.returncode == 2 and "is a folder" in result.stderr


def test_run_into_an_unwritable_place_fails_cleanly(tiny_dir, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = gwe("run", str(tiny_dir / "tiny.toml"), "--games", "1", "--out",
                 str(blocker / "sub" / "x.parquet"))
    assert result.returncode == 1
    assert "Traceback" not in result.stderr and "cannot write" in result.stderr


def test_copy_scenario_then_validate_the_copy(tmp_path):
    from gwe_fast import bundled_scenarios

    name = next(iter(bundled_scenarios()))
    dest = tmp_path / "mine"
    result = runner.invoke(app, ["copy-scenario", name, str(dest)])
    assert result.exit_code == 0, result.output
    assert (dest / "counters.toml").exists() and (dest / "tables.toml").exists()
    again = runner.invoke(app, ["copy-scenario", name, str(dest)])
    assert again.exit_code == 2
    unknown = runner.invoke(app, ["copy-scenario", "nope/nope", str(tmp_path / "x")])
    assert unknown.exit_code == 2


def test_a_killed_run_keeps_every_finished_game(tmp_path):
    import signal
    import time

    out = tmp_path / "killed.parquet"
    partial = tmp_path / "killed.parquet.partial"
    proc = subprocess.Popen([sys.executable, "-c", "from gwe_fast.cli import main; main()", "run",
                             "brusilov/historical", "--games", "200", "--workers", "1",
                             "--out", str(out)], stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not partial.exists() or partial.stat().st_size < 2000):
        time.sleep(0.2)                       # until the first games are on disk
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "interrupted; every finished game is kept in" in err and "Traceback" not in err
    assert not out.exists()
    rows = pq.read_table(partial).column("game_index").to_pylist()
    assert len(rows) >= 10 and rows == list(range(len(rows)))
