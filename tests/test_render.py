"""`gwe map render` and gwe_fast.render: both games to PNG and SVG, saved positions, errors."""

import doctest
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from conftest import edit
from typer.testing import CliRunner

import gwe_fast
from gwe_fast.cli import app
from gwe_fast.render import mapplot, render_map, stacks
from gwe_fast.state import Status

runner = CliRunner()
DPI = 25                 # modest: the tests check the files, not their looks
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SCENARIOS = ["brusilov/historical", "kaisers_battle/historical"]


def gwe(*args):
    """Run the real console entry point in a subprocess (as a user would)."""
    return subprocess.run([sys.executable, "-c", "from gwe_fast.cli import main; main()", *args],
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.fixture(scope="module")
def scenarios():
    return {key: gwe_fast.load_scenario(key) for key in SCENARIOS}


def svg_texts(path):
    root = ET.parse(path).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return [el.text for el in root.iter("{http://www.w3.org/2000/svg}text") if el.text]


@pytest.mark.parametrize("key", SCENARIOS)
@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_both_bundled_scenarios_render_to_png_and_svg(scenarios, key, suffix, tmp_path):
    sc = scenarios[key]
    out = tmp_path / "maps" / f"map{suffix}"        # the folder is created
    assert render_map(sc, out=out, dpi=DPI) == out
    data = out.read_bytes()
    assert len(data) > 20_000
    if suffix == ".png":
        assert data.startswith(PNG_SIGNATURE)
        return
    texts = svg_texts(out)                          # SVG text stays text: ids and names
    assert sc.map.id_of(0) in texts and sc.map.id_of(sc.map.n_cells - 1) in texts
    assert {p.name for p in sc.places if not p.vp} <= set(texts)
    assert {f"{p.name} ({p.vp})" for p in sc.places if p.vp} <= set(texts)
    on_map = {sc.units.names[i] for units in stacks(gwe_fast.Game(sc).state).values()
              for i in units}
    assert on_map and on_map <= set(texts)
    assert set(sc.entry) <= set(texts)


def test_no_hex_ids_on_request(scenarios, tmp_path):
    sc = scenarios["brusilov/historical"]
    texts = svg_texts(render_map(sc, out=tmp_path / "m.svg", overlay_ids=False))
    assert "0101" not in texts and "3120" not in texts


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_the_same_position_gives_the_same_file(tiny_dir, tmp_path, suffix):
    sc = gwe_fast.load_scenario(tiny_dir / "tiny.toml")
    a = render_map(sc, out=tmp_path / f"a{suffix}", dpi=DPI).read_bytes()
    b = render_map(sc, out=tmp_path / f"b{suffix}", dpi=DPI).read_bytes()
    assert a == b


def test_stacks_follow_the_state(scenarios):
    sc = scenarios["brusilov/historical"]
    game = gwe_fast.Game(sc)
    setup = stacks(game.state)
    assert sum(map(len, setup.values())) == int((game.state.unit_status & Status.ON_MAP).astype(
        bool).sum())
    moved, gone = game.unit("ru-xx-77"), game.unit("ru-hq-8ka")
    old_cell = int(game.state.unit_cell[moved])
    game.place("ru-xx-77", "0101")
    game.state.unit_status[gone] = Status.ELIMINATED
    now = stacks(game.state)
    assert now[sc.map.cell("0101")] == [moved]
    assert moved not in now.get(old_cell, [])
    assert all(gone not in units for units in now.values())
    pending = np.flatnonzero(game.state.unit_status & Status.PENDING)
    assert pending.size and not set(pending.tolist()) & {i for u in now.values() for i in u}


def test_render_a_saved_state_from_the_command_line(scenarios, tmp_path):
    sc = scenarios["brusilov/historical"]
    game = gwe_fast.Game(sc)
    game.place("ru-xx-77", "0101")
    game.state.unit_status[game.unit("ru-hq-8ka")] = Status.ELIMINATED
    game.state.unit_step[game.unit("ru-xx-77")] = 1          # reduced: drawn pale
    game.state.save(tmp_path / "position.npz")
    out = tmp_path / "position.svg"
    result = runner.invoke(app, ["map", "render", "brusilov/historical", "--state",
                                 str(tmp_path / "position.npz"), "--out", str(out)])
    assert result.exit_code == 0, result.output
    texts = svg_texts(out)
    assert "77" in texts and "8KA" not in texts
    assert any(t.startswith("Position: Game-Turn 1") for t in texts)


def test_help_has_an_example():
    for args in (["map", "render", "--help"], ["map", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0 and "Example:" in result.output


def test_a_bad_suffix_is_a_value_error(scenarios, tmp_path):
    with pytest.raises(ValueError, match=r"must end in \.png or \.svg"):
        render_map(scenarios["brusilov/historical"], out=tmp_path / "map.jpg")


@pytest.mark.parametrize("args, message", [
    (["--out", "map.jpg"], "the file name must end in .png or .svg"),
    (["--out", "map.png", "--state", "nowhere.npz"], "--state nowhere.npz: file not found"),
])
def test_cli_mistakes_give_one_sentence_and_exit_2(args, message, tmp_path):
    result = gwe("map", "render", "brusilov/historical", *[
        str(tmp_path / a) if a.endswith((".jpg", ".png", ".npz")) else a for a in args])
    assert result.returncode == 2, result.stderr
    assert message.replace("nowhere.npz", str(tmp_path / "nowhere.npz")) in result.stderr
    assert "Traceback" not in result.stderr
    assert not list(tmp_path.iterdir())


def test_cli_rejects_a_file_that_is_not_a_state(scenarios, tmp_path):
    junk = tmp_path / "junk.npz"
    junk.write_text("not a game state")
    partial = tmp_path / "partial.npz"
    np.savez(partial, turn=1, phase=0)
    other = tmp_path / "kb.npz"
    gwe_fast.Game(scenarios["kaisers_battle/historical"]).state.save(other)
    for state, message in ((junk, f"--state {junk} is not a game state saved by"),
                           (partial, "(it lacks the arrays player, vp, unit_cell"),
                           (other, "saved from another scenario")):
        result = runner.invoke(app, ["map", "render", "brusilov/historical", "--state",
                                     str(state), "--out", str(tmp_path / "m.png")])
        assert result.exit_code == 2
        assert message in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    assert not (tmp_path / "m.png").exists()


def test_cli_bad_scenario_prints_the_faults_and_exits_2(tiny_dir, tmp_path):
    edit(tiny_dir / "counters.toml", 'setup = "0302"', 'setup = "0909"')
    result = gwe("map", "render", str(tiny_dir / "tiny.toml"), "--out", str(tmp_path / "t.png"))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "set-up hex 0909 is outside the map" in result.stderr
    assert "does not load (1 fault); nothing was drawn" in result.stderr


def test_a_user_scenario_renders(tiny_dir, tmp_path):
    out = tmp_path / "tiny.png"
    result = runner.invoke(app, ["map", "render", str(tiny_dir / "tiny.toml"), "--out", str(out),
                                 "--dpi", str(DPI)])
    assert result.exit_code == 0, result.output
    assert out.read_bytes().startswith(PNG_SIGNATURE)


def test_missing_matplotlib_says_how_to_install_it(scenarios, tmp_path, monkeypatch):
    for name in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "matplotlib", None)     # import matplotlib fails
    with pytest.raises(RuntimeError, match=r'pip install "gwe_fast\[render\]"'):
        render_map(scenarios["brusilov/historical"], out=tmp_path / "m.png")
    result = runner.invoke(app, ["map", "render", "brusilov/historical", "--out",
                                 str(tmp_path / "m.png")])
    assert result.exit_code == 2
    assert 'pip install "gwe_fast[render]"' in result.output
    assert not (tmp_path / "m.png").exists()


def test_docstring_examples_run():
    assert doctest.testmod(mapplot, optionflags=doctest.ELLIPSIS).failed == 0
