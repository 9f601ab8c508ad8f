"""Loading and validating scenario files: every fault found, located and explained."""

import numpy as np
import pytest

from conftest import edit
from gwe_fast import ScenarioError, load_scenario, scenario_from_dicts, validate
from gwe_fast.enums import Feature, Hexside, Side, Terrain, UnitType
from gwe_fast.state import Status


def test_tiny_scenario_loads_with_every_layer(tiny_dir):
    sc = load_scenario(tiny_dir / "tiny.toml")
    m = sc.map
    assert m.n_cells == 15 and not m.contains("0404")
    assert m.terrain[m.cell("0202")] == Terrain.FOREST
    assert m.terrain[m.cell("0301")] == Terrain.SWAMP
    assert m.terrain[m.cell("0101")] == Terrain.CLEAR
    assert m.has_feature("0303", Feature.TOWN)
    assert all(m.has_feature(h, Feature.TRENCH_ALLIED) for h in ["0401", "0402", "0403"])
    assert m.hexside("0302", "0202") == Hexside.MINOR_RIVER
    assert m.hexside("0102", "0103") == Hexside.RAIL_SINGLE
    m.check_symmetric()
    assert [(p.name, m.id_of(p.cell), p.vp) for p in sc.places] == [("Testburg", "0303", 2)]
    assert [m.id_of(c) for c in sc.entry["B"]] == ["0401", "0402"]
    assert [m.id_of(c) for c in sc.edges["central"]] == ["0101", "0102", "0103", "0104"]
    u = sc.units
    assert u.n == 5
    i = u.index("ru-xxx-gd")
    assert u.n_steps[i] == 4 and list(u.values[i, 3]) == [3, 7, 4]
    assert u.side[u.index("ge-xx-19")] == Side.CENTRAL
    assert u.arrival_turn[u.index("ge-xx-19")] == 2 and u.entry[u.index("ge-xx-19")] == 0
    assert u.utype[u.index("ru-hq-8")] == UnitType.HQ
    assert u.extra["command_radius"][u.index("ru-hq-8")] == 5
    assert u.option[i] == ("guards",)
    assert sc.options == {"guards": False, "slow": False, "depots": 1}
    assert sc.initial_vp == 5


def test_options_are_typed_checked_and_adjust_vp(tiny_dir):
    sc = load_scenario(tiny_dir / "tiny.toml", {"guards": "true", "depots": "3"})
    assert sc.options["guards"] is True and sc.options["depots"] == 3
    assert sc.initial_vp == 3            # 5, less 2 for the guards option
    assert sc.options_hash != load_scenario(tiny_dir / "tiny.toml").options_hash
    with pytest.raises(ScenarioError, match="unknown option 'nope'"):
        load_scenario(tiny_dir / "tiny.toml", {"nope": "1"})
    with pytest.raises(ScenarioError, match="option guards=maybe: expected true or false"):
        load_scenario(tiny_dir / "tiny.toml", {"guards": "maybe"})
    with pytest.raises(ScenarioError, match="option depots=two: expected an integer"):
        load_scenario(tiny_dir / "tiny.toml", {"depots": "two"})
    with pytest.raises(ScenarioError, match="'slow' cannot be used with 'guards'"):
        load_scenario(tiny_dir / "tiny.toml", {"guards": "true", "slow": "true"})


def test_a_variant_copied_and_edited_changes_the_data_hash(tiny_dir):
    base = load_scenario(tiny_dir / "tiny.toml")
    edit(tiny_dir / "counters.toml", "steps = [[4, 6, 5], [2, 4, 5]]",
         "steps = [[5, 6, 5], [2, 4, 5]]")
    variant = load_scenario(tiny_dir / "tiny.toml")
    assert variant.data_hash != base.data_hash
    assert variant.units.values[variant.units.index("ge-xx-19"), 0, 0] == 5


def faults_of(path):
    return [(f.key, f.message, f.line) for f in validate(path)]


def test_every_fault_is_reported_at_once_with_file_key_and_line(tiny_dir):
    edit(tiny_dir / "counters.toml", 'setup = "0302"', 'setup = "0909"')          # off the map
    edit(tiny_dir / "counters.toml", 'setup = "0402"\n', 'colour = "red"\n')      # unknown key, and no set-up
    edit(tiny_dir / "map.toml", 'forest = ["0202", "0203"]', 'forest = ["0202", "0203", "0505"]')
    edit(tiny_dir / "map.toml", '"0203-0303"', '"0201-0303"')                     # not adjacent
    edit(tiny_dir / "tables.toml", '"-/E",  "-/E"],   # die 1', '"-/E"],   # die 1')  # short CRT row
    faults = validate(tiny_dir / "tiny.toml")
    text = "\n".join(str(f) for f in faults)
    by_file = {}
    for f in faults:
        by_file.setdefault(f.file.rsplit("/", 1)[-1], []).append(f)
    assert set(by_file) == {"counters.toml", "map.toml", "tables.toml"}, text
    (off,) = [f for f in by_file["counters.toml"] if "0909" in f.message]
    assert off.key == "unit[0].setup" and "outside the map" in off.message and off.line == 14
    (unknown,) = [f for f in by_file["counters.toml"] if "colour" in f.message]
    assert unknown.key == "unit[1].colour" and "ru-hq-8" in unknown.message and unknown.line == 30
    (nosetup,) = [f for f in by_file["counters.toml"] if "no set-up" in f.message]
    assert nosetup.key == "unit[1]" and "ru-hq-8" in nosetup.message
    (forest,) = [f for f in by_file["map.toml"] if "0505" in f.message]
    assert forest.key == "terrain.forest[2]" and forest.line == 11
    (river,) = [f for f in by_file["map.toml"] if "adjacent" in f.message]
    assert river.key == "hexsides.minor_river[1]" and "0201 and 0303" in river.message
    (crt,) = by_file["tables.toml"]
    assert crt.key.startswith("crt.results") and crt.line is not None


def test_syntax_errors_and_missing_files_are_located(tiny_dir):
    (tiny_dir / "map.toml").write_text('[map]\ncolumns = = 4\n')
    (tiny_dir / "tables.toml").unlink()
    faults = validate(tiny_dir / "tiny.toml")
    msgs = {f.file.rsplit("/", 1)[-1]: f for f in faults}
    assert "is not valid TOML" in msgs["map.toml"].message and msgs["map.toml"].line == 2
    # a file that cannot be read is a fault of the key that names it
    assert msgs["tiny.toml"].key == "scenario.tables" and msgs["tiny.toml"].line == 7
    assert msgs["tiny.toml"].message == "'tables.toml': file not found"
    assert faults_of(tiny_dir / "nothere.toml") == [("", "file not found", None)]
    assert "neither a scenario file" in validate("no/such-scenario")[0].message


def test_scenario_keys_are_checked(tiny_dir):
    edit(tiny_dir / "tiny.toml", "last_turn = 3", "last_turn = 0\nturns = 3")
    edit(tiny_dir / "tiny.toml", 'first_player = "allied"', 'first_player = "russians"')
    keys = {k: m for k, m, _ in faults_of(tiny_dir / "tiny.toml")}
    assert "below the least allowed value 1" in keys["scenario.last_turn"]
    assert "unknown key 'turns'" in keys["scenario.turns"]
    assert "'russians' is not one of allied, central" in keys["scenario.first_player"]


def test_terrain_of_another_game_is_rejected(tiny_dir):
    edit(tiny_dir / "map.toml", "swamp = [", "woods = [")
    (fault,) = validate(tiny_dir / "tiny.toml")
    assert fault.key == "terrain.woods" and "not used by this game" in fault.message


def test_duplicate_ids_and_bad_steps(tiny_dir):
    edit(tiny_dir / "counters.toml", 'id = "ah-xx-7"', 'id = "ru-xx-1"')
    edit(tiny_dir / "counters.toml", "steps = [[2, 4, 4], [1, 2, 4]]", "steps = [[2, 4], [1, 2, 4]]")
    msgs = [m for _, m, _ in faults_of(tiny_dir / "tiny.toml")]
    assert any("id already used by unit #1" in m for m in msgs)
    assert any("steps must be 1 to 4 rows of [attack, defense, movement]" in m for m in msgs)


def test_placement_overrides_in_a_scenario(tiny_dir):
    (tiny_dir / "tiny.toml").write_text((tiny_dir / "tiny.toml").read_text() + '''
[placement.ge-xx-19]
setup = "0103"

[placement.ru-xx-1]
removed = true
''')
    sc = load_scenario(tiny_dir / "tiny.toml")
    assert "ru-xx-1" not in sc.units.ids
    assert sc.map.id_of(sc.units.setup_cell[sc.units.index("ge-xx-19")]) == "0103"
    assert sc.units.arrival_turn[sc.units.index("ge-xx-19")] == -1


def test_tiny_position_built_in_memory():
    sc = scenario_from_dicts(
        scenario={"scenario": {"game": "gwe", "name": "t", "version": 1, "first_turn": 1,
                               "last_turn": 1, "first_player": "central"}},
        map={"map": {"columns": [1, 2], "rows": [1, 2]}},
        counters={"unit": [{"id": "a", "name": "A", "side": "allied", "nationality": "russian",
                            "type": "infantry", "size": "division", "stacking": 2,
                            "steps": [[2, 4, 4]], "setup": "0101"}]})
    assert sc.map.n_cells == 4 and sc.units.n == 1
    with pytest.raises(ScenarioError, match=r"<counters>: \[unit\[0\].setup\].*0303 is outside"):
        scenario_from_dicts(
            scenario={"scenario": {"game": "gwe", "name": "t", "version": 1, "first_turn": 1,
                                   "last_turn": 1, "first_player": "central"}},
            map={"map": {"columns": [1, 2], "rows": [1, 2]}},
            counters={"unit": [{"id": "a", "name": "A", "side": "allied",
                                "nationality": "russian", "type": "infantry",
                                "size": "division", "stacking": 2, "steps": [[2, 4, 4]],
                                "setup": "0303"}]})


def test_initial_state_places_units_by_their_placement(tiny_dir):
    from gwe_fast import Game

    g = Game(load_scenario(tiny_dir / "tiny.toml"), seed=3)
    st, u = g.state, g.scenario.units
    assert st.unit_status[u.index("ru-xx-1")] == Status.ON_MAP
    assert g.scenario.map.id_of(st.unit_cell[u.index("ah-xx-7")]) == "0202"
    assert st.unit_status[u.index("ge-xx-19")] == Status.PENDING
    assert st.unit_status[u.index("ru-xxx-gd")] == Status.NOT_IN_PLAY
    assert st.hex_last[g.scenario.map.cell("0202")] == Side.CENTRAL
    assert int(st.vp) == 5 and int(st.turn) == 1
    on = Game(load_scenario(tiny_dir / "tiny.toml", {"guards": "on"})).state
    assert on.unit_status[u.index("ru-xxx-gd")] == Status.PENDING
    g.place("ru-xxx-gd", "0302")
    assert g.stacking_in(g.scenario.map.cell("0302")) == 6
    copy = g.state.copy()
    assert copy.equals(g.state)
    copy.unit_cell[0] = 0
    assert not copy.equals(g.state)
    np.testing.assert_array_equal(g.on_map(int(Side.ALLIED)), [0, 1, 4])


def test_states_copy_save_and_load_with_engine_arrays(tiny_dir, tmp_path):
    from gwe_fast import Game, State
    from gwe_fast.games.gwe.game import ENGINE_ARRAYS

    g = Game(load_scenario(tiny_dir / "tiny.toml"), seed=3)
    # the record holds every engine array of the game from the start, in its order
    assert list(g.state.extra) == list(ENGINE_ARRAYS)
    assert g.state.extra["mp_spent"].dtype == np.int16 and not g.state.extra["mp_spent"].any()
    g.state.extra["mp_spent"][:] = np.arange(5)
    g.state.turn = 4
    path = tmp_path / "s.npz"
    g.state.save(path)
    back = State.load(path)
    assert back.equals(g.state) and back.extra["mp_spent"].dtype == np.int16
    assert back.layout == g.state.layout and int(back.turn) == 4
    c = g.state.copy()
    c.extra["mp_spent"][0] = 9
    c.turn = 5
    assert not c.equals(g.state) and g.state.extra["mp_spent"][0] == 0
    assert int(g.state.turn) == 4
    np.save(tmp_path / "one.npy", np.zeros(3))
    with pytest.raises(ValueError, match="single array"):
        State.load(tmp_path / "one.npy")


def test_a_state_is_one_fixed_record(tiny_dir):
    """Every field is a view of the one buffer, at an aligned offset; no field is added or
    replaced during play, and a copy is a copy of the buffer."""
    from gwe_fast import Game
    from gwe_fast.state import ALIGN

    st = Game(load_scenario(tiny_dir / "tiny.toml"), seed=3).state
    base = st.buffer.ctypes.data
    for name, dtype, shape, start, stop in st.layout:
        view = st.field(name)
        assert view.ctypes.data == base + start and start % ALIGN == 0, name
        assert view.dtype == dtype and view.shape == shape and view.nbytes == stop - start
    with pytest.raises(TypeError):
        st.extra["mp_spent"] = np.zeros(5, dtype=np.int16)
    with pytest.raises(AttributeError, match="fields are fixed"):
        st.moves = 3
    with pytest.raises(AttributeError, match="in place"):
        st.unit_cell = st.unit_cell.copy()
    st.vp = 7                                   # a scalar is written into the record
    assert st.field("vp").base is not None and int(st.field("vp")) == 7
    c = st.copy()
    assert c.buffer is not st.buffer and bytes(c.buffer) == bytes(st.buffer)


def test_a_state_saved_with_some_engine_arrays_plays_with_all(tiny_dir, tmp_path):
    """A state saved before the record was fixed held only the engine arrays its game had
    made: a game given it holds it in the full record, zeros where it had none."""
    from gwe_fast.games.gwe.game import ENGINE_ARRAYS, GweGame

    sc = load_scenario(tiny_dir / "tiny.toml")
    g = GweGame(sc, seed=3)
    st = g.state
    path = tmp_path / "old.npz"
    np.savez(path, turn=st.turn, phase=st.phase, player=st.player, vp=st.vp,
             unit_cell=st.unit_cell, unit_step=st.unit_step, unit_status=st.unit_status,
             hex_last=st.hex_last, x_flags=np.full(sc.units.n, 3, dtype=np.uint16))
    from gwe_fast import State

    old = State.load(path)
    assert list(old.extra) == ["flags"]
    h = GweGame(sc, seed=3, state=old)
    assert list(h.state.extra) == list(ENGINE_ARRAYS)
    assert (h.arr("flags") == 3).all() and not h.arr("mp_spent").any()
    np.savez(path, turn=st.turn, phase=st.phase, player=st.player, vp=st.vp,
             unit_cell=st.unit_cell, unit_step=st.unit_step, unit_status=st.unit_status,
             hex_last=st.hex_last, x_flags=np.zeros(sc.units.n + 1, dtype=np.uint16))
    with pytest.raises(ValueError, match="engine array flags has the shape"):
        GweGame(sc, seed=3, state=State.load(path))
