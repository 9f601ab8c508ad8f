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
    values = mapplot.town_values(sc)                # KB: towns west of the VP line score
    assert {p.name for p in sc.places if not values.get(p.cell)} <= set(texts)
    assert {f"{p.name} ({values[p.cell]})" for p in sc.places if values.get(p.cell)} <= set(
        texts)
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
    with pytest.raises(RuntimeError, match=r"a dependency of gwe_fast .*pip install matplotlib"):
        render_map(scenarios["brusilov/historical"], out=tmp_path / "m.png")
    result = runner.invoke(app, ["map", "render", "brusilov/historical", "--out",
                                 str(tmp_path / "m.png")])
    assert result.exit_code == 2
    assert "pip install matplotlib" in result.output
    assert not (tmp_path / "m.png").exists()


def test_docstring_examples_run():
    assert doctest.testmod(mapplot, optionflags=doctest.ELLIPSIS).failed == 0


# --- what a wargamer reads on the map (item 15 of the hardening issue) -----------------------

@pytest.fixture(scope="module")
def svgs(scenarios, tmp_path_factory):
    """Each bundled scenario's set-up drawn once to SVG: ``{key: (texts, svg text)}``."""
    folder = tmp_path_factory.mktemp("svgs")
    out = {}
    for key, sc in scenarios.items():
        path = render_map(sc, out=folder / f"{sc.game}.svg")
        out[key] = (svg_texts(path), path.read_text())
    return out


def _lab(colour: str) -> np.ndarray:
    """CIE L*a*b* of a #rrggbb colour (D65)."""
    rgb = np.array([int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)])
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ lin / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 0.008856, np.cbrt(xyz), 7.787 * xyz + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _apart(a: str, b: str) -> float:
    return float(np.linalg.norm(_lab(a) - _lab(b)))


def _expected_values(sc, i, step=0):
    """The numbers printed on counter ``i``, as one text: strengths and movement, and an
    HQ's own values (The Great War in the East: attack shift, command strength/radius,
    then combat-movement; The Kaiser's Battle: the values, then its three ranges)."""
    u = sc.units
    a, b, m = (int(v) for v in u.values[i, step])
    extra = {k: int(np.asarray(v[i]).reshape(-1)[0]) for k, v in u.extra.items()}
    if extra.get("command_strength", -1) >= 0:               # a Great War in the East HQ
        heroic = "H" if extra.get("heroic", 0) > 0 else ""
        return (f"+{extra['attack_shift']} {extra['command_strength']}/"
                f"{extra['command_radius']} {b}{heroic}-{m}")
    if extra.get("supply_range", -1) >= 0:                   # a Kaiser's Battle HQ
        return (f"{a}-{b}-{m} {extra['supply_range']}/{extra['communications_range']}/"
                f"{extra['field_artillery_range']}")
    return f"{a}-{b}-{m}"


@pytest.mark.parametrize("key", SCENARIOS)
def test_item_15_counters_show_strength_movement_and_a_type_symbol(scenarios, svgs, key):
    sc = scenarios[key]
    texts, svg = svgs[key]
    shown = [i for units in stacks(gwe_fast.Game(sc).state).values()
             for i in units[:mapplot.MAX_SHOWN - 1]]
    assert len(shown) > 50
    for i in shown:
        assert sc.units.names[i] in texts and _expected_values(sc, i) in texts, sc.units.ids[i]
    assert 'id="unit-symbols"' in svg                     # the NATO-style type symbols
    for kind in ("infantry", "cavalry", "HQ"):
        assert any(t.startswith(kind) for t in texts), kind


def test_item_15_the_brusilov_map_says_where_north_is(svgs):
    texts = svgs["brusilov/historical"][0]
    assert "N" in texts                                   # the compass rose
    assert any("north is to the left" in t.lower() for t in texts), texts[:20]
    assert "N" in svgs["kaisers_battle/historical"][0]


def test_item_15_kaisers_battle_towns_show_their_value_and_the_vp_line(scenarios, svgs):
    from gwe_fast.enums import Feature

    sc = scenarios["kaisers_battle/historical"]
    texts = svgs["kaisers_battle/historical"][0]
    value = next(int(r["vp"]) for r in sc.tables["vp_schedule"]["row"]
                 if r["cause"] == "town_west_of_vp_line")
    west = sc.map.features.astype(np.int64) & int(Feature.VP_LINE_WEST)
    scoring = [p for p in sc.places if west[p.cell]]
    assert value > 0 and 20 < len(scoring) < len(sc.places)
    for p in sc.places:
        assert (f"{p.name} ({value})" if west[p.cell] else p.name) in texts, p.name
    assert any("VP line" in t for t in texts)
    assert any("west of the VP line" in t for t in texts)


def test_item_15_palette_keeps_map_symbols_apart_from_counters(svgs):
    from gwe_fast.enums import Feature, Hexside, Nationality, Side

    units = mapplot.NATIONALITY_COLOURS
    rivers = [mapplot.HEXSIDE_STYLES[h][0] for h in (Hexside.MAJOR_RIVER, Hexside.MINOR_RIVER)]
    for nat in (Nationality.GERMAN, Nationality.AUSTRO_HUNGARIAN):
        for river in rivers:
            assert _apart(units[nat], river) >= 25, (nat, river)
    for nat in (Nationality.BRITISH, Nationality.RUSSIAN, Nationality.FRENCH):
        for side in Side:
            assert _apart(units[nat], mapplot.rim_style(Feature.REDOUBT, side)[0]) >= 25
    german = mapplot.rim_style(Feature.FIELDWORK, Side.CENTRAL)
    british = mapplot.rim_style(Feature.FIELDWORK, Side.ALLIED)
    assert _apart(german[0], british[0]) >= 25
    texts = svgs["kaisers_battle/historical"][0]
    assert "German fieldwork" in texts and "British fieldwork" in texts


def test_a_map_file_may_say_where_north_is_and_a_bad_value_is_a_located_fault(tiny_dir,
                                                                             tmp_path):
    from gwe_fast.scenario.loader import validate

    sc = gwe_fast.load_scenario(tiny_dir / "tiny.toml")
    assert mapplot.north_bearing(sc) is None                 # no compass without it
    edit(tiny_dir / "map.toml", "[map]\n", "[map]\nnorth = -90\n")
    sc = gwe_fast.load_scenario(tiny_dir / "tiny.toml")
    assert mapplot.north_bearing(sc) == -90.0
    texts = svg_texts(render_map(sc, out=tmp_path / "t.svg"))
    assert "N" in texts and any("North is to the left" in t for t in texts)
    edit(tiny_dir / "map.toml", "north = -90\n", "north = 400\n")
    faults = [str(f) for f in validate(str(tiny_dir / "tiny.toml"), {})]
    assert any("[map.north]" in f and "-180 to 180" in f for f in faults), faults
