"""The gwe command: help everywhere, clear errors, no tracebacks."""

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from conftest import edit
from gwe_fast.cli import app

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


# gwe run itself (output, resumption, interruptions, policies, dask) is tested in tests/runner.
def test_run_rejects_an_unknown_option(tiny_dir):
    result = gwe("run", str(tiny_dir / "tiny.toml"), "--games", "2", "--option", "nope=1")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "unknown option 'nope' for this scenario (options: guards, slow, depots)" in result.stderr


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
