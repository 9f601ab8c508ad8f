"""The bundled tables.toml files: their shape checker, and their values against the rulebooks.

Tests named ``test_<case>_...`` check transcribed values against the printed rule case
(seeds 001 for GWE/Brusilov, 002 for The Kaiser's Battle); docs/rulings_tables.md records
every reading of a garbled cell.
"""

import importlib.util
import copy
import pathlib
import tomllib

import pytest

_ROOT = pathlib.Path(__file__).resolve().parents[2]
_MODULE_PATH = _ROOT / "src" / "gwe_fast" / "scenario" / "table_shapes.py"
_spec = importlib.util.spec_from_file_location("_table_shapes_under_test", _MODULE_PATH)
table_shapes = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(table_shapes)
check_tables = table_shapes.check_tables

GWE_TABLES = _ROOT / "src" / "gwe_fast" / "data" / "brusilov" / "tables.toml"
KB_TABLES = _ROOT / "src" / "gwe_fast" / "data" / "kaisers_battle" / "tables.toml"


def _load(path: pathlib.Path) -> dict:
    with path.open("rb") as fh:
        return tomllib.load(fh)


_GWE = _load(GWE_TABLES)
_KB = _load(KB_TABLES)


@pytest.fixture
def gwe() -> dict:
    return copy.deepcopy(_GWE)


@pytest.fixture
def kb() -> dict:
    return copy.deepcopy(_KB)


def _level(bands: list[dict], value: int, key: str = "level") -> str:
    """The code of the band holding ``value``."""
    hits = [b[key] for b in bands
            if b.get("min", -10**9) <= value <= b.get("max", 10**9)]
    assert len(hits) == 1, f"{value} falls in {len(hits)} bands"
    return hits[0]


def _band_for_turn(bands: list[dict], turn: int) -> dict:
    hits = [b for b in bands if b["first_turn"] <= turn <= b.get("last_turn", 10**9)]
    assert len(hits) == 1, f"turn {turn} falls in {len(hits)} bands"
    return hits[0]


# ---------------------------------------------------------------------------------------------
# the bundled files are sound
# ---------------------------------------------------------------------------------------------

def test_bundled_gwe_tables_have_no_faults():
    assert check_tables("gwe", _load(GWE_TABLES)) == []


def test_bundled_kb_tables_have_no_faults():
    assert check_tables("kb", _load(KB_TABLES)) == []


def test_each_file_names_its_game():
    assert _GWE["about"]["game"] == "gwe"
    assert _KB["about"]["game"] == "kb"


def test_every_table_has_a_case(gwe, kb):
    for data in (gwe, kb):
        for name, table in data.items():
            if name != "about":
                assert isinstance(table.get("case"), str), name


def test_unknown_game_is_a_fault():
    assert check_tables("tannenberg", {}) == [("", "unknown game 'tannenberg'; use one of: gwe, kb.")]


def test_file_of_the_other_game_is_rejected():
    faults = check_tables("kb", _load(GWE_TABLES))
    assert ("about.game", "'gwe' is not allowed here; use one of: kb.") in faults
    assert any(p == "crt" and "unknown table 'crt'" in m for p, m in faults)


# ---------------------------------------------------------------------------------------------
# deliberately broken copies: each gives the expected fault at the right key path
# ---------------------------------------------------------------------------------------------

def _short_crt_row(d):
    d["crt"]["results"][3].pop()


def _unknown_crt_key(d):
    d["crt"]["columns"] = 8


def _bad_result_code(d):
    d["crt"]["results"][2][4] = "1/4"


def _result_code_with_space(d):
    d["crt"]["results"][0][7] = "-/ E"


def _overlapping_levels(d):
    d["victory_levels"]["band"][2]["min"] = 15


def _gap_in_levels(d):
    d["victory_levels"]["band"][3]["min"] = 32


def _closed_top_level(d):
    d["victory_levels"]["band"][-1]["max"] = 99


def _short_tcr_array(d):
    d["terrain_effects"]["forest"]["move"] = [1, 1, 2]


def _long_tcr_add_array(d):
    d["terrain_effects"]["entrain"]["move_add"] = [1, 2, 3, 4, 5]


def _bad_move_entry(d):
    d["terrain_effects"]["blocked"]["move"][2] = "X"


def _two_move_keys(d):
    d["terrain_effects"]["trench"]["move"] = [1, 1, 1, 1]


def _misspelt_terrain(d):
    d["terrain_effects"]["forrest"] = copy.deepcopy(d["terrain_effects"]["forest"])


def _missing_terrain_row(d):
    del d["terrain_effects"]["swamp"]


def _unknown_effect_key(d):
    d["option_vp_costs"]["option"][0]["effects"]["guards_turn"] = 6


def _wrong_kind(d):
    d["terrain_effects"]["major_river"]["kind"] = "hex"


def _unknown_combat_code(d):
    d["terrain_effects"]["city"]["combat"] = "defender_tripled"


def _missing_table(d):
    del d["supply_range"]


def _unknown_table(d):
    d["weather"] = {"case": "11.14"}


def _missing_die_list(d):
    del d["crt"]["die"]


def _die_rows_mismatch(d):
    d["crt"]["die"] = [1, 2, 3, 4, 5, 6]


def _ragged_odds(d):
    d["crt"]["odds"]["tcr4"].append("8-1")


def _odds_out_of_order(d):
    d["crt"]["odds"]["tcr1"][0], d["crt"]["odds"]["tcr1"][1] = "1-3", "1-4"


def _wrong_type(d):
    d["stacking"]["max_points"] = "8"


def _bool_for_int(d):
    d["tcr"]["german"] = True


def _tcr_out_of_range(d):
    d["tcr"]["russian"] = 5


def _overlapping_turns(d):
    d["step_replacement_russian"]["band"][1]["first_turn"] = 2


def _gap_in_turns(d):
    d["step_replacement_austro_hungarian"]["band"][2]["first_turn"] = 6


def _unsorted_rolls(d):
    d["step_replacement_russian"]["band"][1]["rolls"] = [3, 1, 2]


def _roll_seven(d):
    d["attrition"]["rolls"] = [1, 2, 7]


def _cause_not_snake(d):
    d["vp_schedule"]["row"][0]["cause"] = "CP step eliminated"


def _vp_not_int(d):
    d["vp_schedule"]["row"][3]["vp"] = "-1"


def _option_missing_text(d):
    d["crt_options"]["defender"][1]["text"].pop()


def _result_without_option(d):
    d["crt_options"]["defender"] = [r for r in d["crt_options"]["defender"] if r["result"] != "3"]


def _wrong_case(d):
    d["crt"]["case"] = "8.9"


def _track_limits_short_row(d):
    d["track_limits"]["stacking_points"][1] = [8]


def _joint_row_unknown(d):
    d["tcr"]["joint_austro_german_crt_row"] = "tcr2"


def _depots_above_cap(d):
    d["depots"]["central_powers"][1]["depots"] = 3


def _excludes_unknown_option(d):
    d["option_vp_costs"]["option"][2]["excludes"] = ["west_front"]


GWE_BREAKAGES = [
    (_short_crt_row, "crt.results[3]", "row has 7 entries; the odds rows have 8 columns."),
    (_unknown_crt_key, "crt.columns", "unknown key 'columns' in crt"),
    (_bad_result_code, "crt.results[2][4]", "'1/4' is not a valid combat result"),
    (_result_code_with_space, "crt.results[0][7]", "'-/ E' is not a valid combat result"),
    (_overlapping_levels, "victory_levels.band[2]", "overlaps the band before it, which ends at 19"),
    (_gap_in_levels, "victory_levels.band[3]", "gap before this band: nothing covers 30 to 31"),
    (_closed_top_level, "victory_levels.band[5].max", "omit max to leave the high end open"),
    (_short_tcr_array, "terrain_effects.forest.move", "has 3 entries; it needs exactly 4"),
    (_long_tcr_add_array, "terrain_effects.entrain.move_add", "has 5 entries; it needs exactly 4"),
    (_bad_move_entry, "terrain_effects.blocked.move[2]", "only the string \"P\" is"),
    (_two_move_keys, "terrain_effects.trench", "exactly one of move, move_add or move_rule"),
    (_misspelt_terrain, "terrain_effects.forrest", "a terrain row must be named after one of"),
    (_missing_terrain_row, "terrain_effects.swamp", "required terrain row 'swamp' is missing"),
    (_unknown_effect_key, "option_vp_costs.option[0].effects.guards_turn", "unknown key"),
    (_wrong_kind, "terrain_effects.major_river.kind", "major_river is a hexside terrain"),
    (_unknown_combat_code, "terrain_effects.city.combat", "'defender_tripled' is not a known"),
    (_missing_table, "supply_range", "required table 'supply_range' (case 19.1) is missing."),
    (_unknown_table, "weather", "unknown table 'weather'"),
    (_missing_die_list, "crt.die", "required key 'die' is missing from crt."),
    (_die_rows_mismatch, "crt.results", "has 8 rows; the die list has 6"),
    (_ragged_odds, "crt.odds.tcr4", "odds row has 9 columns; odds row tcr1 has 8"),
    (_odds_out_of_order, "crt.odds.tcr1", "odds must rise strictly from left to right."),
    (_wrong_type, "stacking.max_points", "must be an integer, not a string."),
    (_bool_for_int, "tcr.german", "must be an integer, not a boolean."),
    (_tcr_out_of_range, "tcr.russian", "is 5, above the greatest allowed value 4."),
    (_overlapping_turns, "step_replacement_russian.band[1]", "overlaps the band before it"),
    (_gap_in_turns, "step_replacement_austro_hungarian.band[2]", "nothing covers 5 to 5"),
    (_unsorted_rolls, "step_replacement_russian.band[1].rolls", "ascending order"),
    (_roll_seven, "attrition.rolls[2]", "is 7, above the greatest allowed value 6."),
    (_cause_not_snake, "vp_schedule.row[0].cause", "is not a snake_case code"),
    (_vp_not_int, "vp_schedule.row[3].vp", "must be an integer, not a string."),
    (_option_missing_text, "crt_options.defender[1].text", "has 2 entries; options has 3"),
    (_wrong_case, "crt.case", "case is '8.9' but crt transcribes case 8.8."),
    (_track_limits_short_row, "track_limits.stacking_points[1]", "row has 1 entries; the sides"),
    (_joint_row_unknown, "tcr.joint_austro_german_crt_row", "'tcr2' is not allowed here"),
    (_depots_above_cap, "depots.central_powers[1].depots", "more than max_per_turn.central_powers"),
    (_excludes_unknown_option, "option_vp_costs.option[2].excludes[0]", "'west_front' is not the"),
]


@pytest.mark.parametrize("breakage,path,message", GWE_BREAKAGES,
                         ids=[b[0].__name__.strip("_") for b in GWE_BREAKAGES])
def test_broken_gwe_copy_gives_the_expected_fault(gwe, breakage, path, message):
    breakage(gwe)
    faults = check_tables("gwe", gwe)
    assert [p for p, _ in faults] == [path], faults
    assert message in faults[0][1]


def test_result_without_option_row_is_reported_at_every_cell(gwe):
    _result_without_option(gwe)
    faults = check_tables("gwe", gwe)
    cells = [(i, j) for i, row in enumerate(_GWE["crt"]["results"])
             for j, cell in enumerate(row) if cell.endswith("/3")]
    assert [p for p, _ in faults] == [f"crt.results[{i}][{j}]" for i, j in cells]
    assert faults[0][1] == "the defender result '3' has no row in crt_options.defender."


def _kb_short_counter_battery_row(d):
    d["counter_battery"]["results"][4] = ["-", "-", "2", "3", "4"]


def _kb_bad_counter_battery_code(d):
    d["counter_battery"]["results"][0][3] = "all"


def _kb_drumfire_heading_short(d):
    d["drumfire_barrage"]["artillery_points"]["sp_1_6"].pop()


def _kb_drumfire_heading_missing(d):
    del d["drumfire_barrage"]["artillery_points"]["sp_1_6"]


def _kb_drumfire_short_row(d):
    d["drumfire_barrage"]["results"][6] = ["-", "-", "-"]


def _kb_weather_short(d):
    d["weather"]["result"].pop()


def _kb_weather_bad_state(d):
    d["weather"]["result"][0] = "rain"


def _kb_overlapping_levels(d):
    d["victory_levels"]["band"][4]["min"] = 45


def _kb_open_bottom_missing(d):
    d["victory_levels"]["band"][0]["min"] = 0


def _kb_die_mod_mismatch(d):
    d["terrain_effects"]["redoubt"]["die_mod"] = 1


def _kb_move_list(d):
    d["terrain_effects"]["woods"]["move"] = [2, 2, 2, 2]


def _kb_track_too_small(d):
    d["artillery_tracks"]["german"]["multipliers"] = [1]


def _kb_supply_overlap(d):
    d["supply_states"]["band"][2]["min"] = 12


def _kb_barrage_limits_misaligned(d):
    d["barrage_limits"]["sos"] = [4, 2]


def _kb_artillery_gap(d):
    d["artillery_points"]["allied"][2]["first_turn"] = 8


def _kb_modifier_both(d):
    d["defender_die_modifiers"]["row"][5]["mod"] = 1


KB_BREAKAGES = [
    (_kb_short_counter_battery_row, "counter_battery.results[4]",
     "row has 5 entries; the artillery_points headings have 6 columns."),
    (_kb_bad_counter_battery_code, "counter_battery.results[0][3]", "'all' is not"),
    (_kb_drumfire_heading_short, "drumfire_barrage.artillery_points.sp_1_6",
     "heading row has 3 columns; the first heading row has 4"),
    (_kb_drumfire_heading_missing, "drumfire_barrage.artillery_points",
     "one heading row per stacking_points entry"),
    (_kb_drumfire_short_row, "drumfire_barrage.results[6]", "row has 3 entries"),
    (_kb_weather_short, "weather.result", "has 6 entries; die has 7"),
    (_kb_weather_bad_state, "weather.result[0]", "'rain' is not allowed here"),
    (_kb_overlapping_levels, "victory_levels.band[4]", "overlaps the band before it, which ends at 45"),
    (_kb_open_bottom_missing, "victory_levels.band[0].min", "omit min to leave the low end open"),
    (_kb_die_mod_mismatch, "terrain_effects.redoubt.combat", "says plus 2 but die_mod is 1"),
    (_kb_move_list, "terrain_effects.woods.move", "must be an integer, not an array."),
    (_kb_track_too_small, "artillery_points.german[0].field",
     "50 field points do not fit the german artillery track, which holds at most 9."),
    (_kb_supply_overlap, "supply_states.band[2]", "overlaps the band before it, which ends at 12"),
    (_kb_barrage_limits_misaligned, "barrage_limits.sos", "has 2 entries; weather has 3"),
    (_kb_artillery_gap, "artillery_points.allied[2]", "nothing covers 7 to 7"),
    (_kb_modifier_both, "defender_die_modifiers.row[5]", "exactly one of mod or mod_rule"),
]


@pytest.mark.parametrize("breakage,path,message", KB_BREAKAGES,
                         ids=[b[0].__name__.strip("_") for b in KB_BREAKAGES])
def test_broken_kb_copy_gives_the_expected_fault(kb, breakage, path, message):
    breakage(kb)
    faults = check_tables("kb", kb)
    # a too-small German track also fails the heavy points and later bands: check the first
    assert faults and faults[0][0] == path, faults
    assert message in faults[0][1]
    if breakage is not _kb_track_too_small:
        assert [p for p, _ in faults] == [path], faults


def _leaf_paths(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _leaf_paths(v, path + (k,))
    elif isinstance(node, list) and node:
        for i, v in enumerate(node):
            yield from _leaf_paths(v, path + (i,))
    else:
        yield path


def _set(data, path, value):
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


@pytest.mark.parametrize("game,base", [("gwe", _GWE), ("kb", _KB)])
def test_any_value_of_the_wrong_type_is_reported_and_never_crashes(game, base):
    for path in _leaf_paths(base):
        if not path:
            continue
        data = copy.deepcopy(base)
        _set(data, path, {"bogus": None})
        faults = check_tables(game, data)
        assert faults, f"replacing {path} went unnoticed"
        for p, m in faults:
            assert isinstance(p, str) and isinstance(m, str) and m.endswith(".")


@pytest.mark.parametrize("game,base", [("gwe", _GWE), ("kb", _KB)])
def test_any_table_of_the_wrong_type_is_reported_and_never_crashes(game, base):
    for name in base:
        for bad in (7, "x", [], [1, 2], True):
            data = copy.deepcopy(base)
            data[name] = bad
            faults = check_tables(game, data)
            assert (name, f"must be a table, not {table_shapes._kind(bad)}.") in faults


# ---------------------------------------------------------------------------------------------
# GWE standard rules and Brusilov exclusive rules: values against the rulebook (seed 001)
# ---------------------------------------------------------------------------------------------

def test_5_4_terrain_effects_movement_per_tcr(gwe):
    te = gwe["terrain_effects"]
    assert te["clear"]["move"] == [1, 1, 1, 1]
    assert te["forest"]["move"] == [1, 1, 2, 2]
    assert te["broken"]["move"] == [1, 2, 2, 2]      # the Notes' own example
    assert te["swamp"]["move"] == [2, 2, 2, 3]
    assert te["rough"]["move"] == [2, 2, 2, 2]
    assert te["mountain"]["move"] == [2, 2, 3, 3]
    assert te["city"]["move"] == [1, 1, 1, 1]
    assert te["fortress"]["move"] == [1, 1, 1, 1]
    assert te["town"]["move_rule"] == "as_other_terrain"
    assert te["trench"]["move_add"] == [1, 1, 1, 1]
    assert te["minor_river"]["move_add"] == [1, 1, 1, 1]
    assert te["major_river"]["move_add"] == [1, 1, 1, 1]
    assert te["enemy_zoc"]["move_add"] == [1, 1, 1, 1]   # 7.21
    for name in ("blocked", "lake", "sea"):
        assert te[name]["move"] == ["P", "P", "P", "P"]
        assert te[name]["combat"] == "prohibited"
    assert (te["rail"]["move_rule"], te["rail"]["move_see"]) == ("see_case", "5.3")


def test_5_4_terrain_effects_combat(gwe):
    te = gwe["terrain_effects"]
    assert te["mountain"]["combat"] == "defender_doubled"
    assert te["city"]["combat"] == "defender_doubled"
    assert te["trench"]["combat"] == "defender_doubled"
    assert te["minor_river"]["combat"] == "attacker_halved"
    assert te["major_river"]["combat"] == ["attacker_halved", "die_plus_2_if_exclusively_across"]
    assert te["ridge"]["combat"] == "die_plus_1_if_any_across"
    assert (te["fortress"]["combat"], te["fortress"]["combat_see"]) == ("see_case", "11.1")
    assert te["entrain"]["combat"] == "entrained_may_not_attack"
    for name in ("clear", "forest", "broken", "swamp", "rough", "town", "rail", "enemy_zoc"):
        assert te[name]["combat"] == "none", name
    assert te["cumulative"] is True


def test_5_4_terrain_in_brusilov(gwe):
    te = gwe["terrain_effects"]
    in_b = {k for k, v in te.items() if isinstance(v, dict) and "B" in v["games"]}
    assert in_b == {"clear", "forest", "swamp", "rough", "mountain", "town", "city", "trench",
                    "minor_river", "major_river", "blocked", "rail", "fortress", "enemy_zoc",
                    "entrain"}
    assert te["ridge"]["games"] == ["C"]
    assert te["broken"]["games"] == ["S", "T", "V"]
    assert te["lake"]["games"] == te["sea"]["games"] == ["C", "T"]


def test_5_32_entraining_costs_the_units_tcr(gwe):
    assert gwe["terrain_effects"]["entrain"]["move_add"] == [1, 2, 3, 4]


def test_8_8_crt_odds_rows(gwe):
    odds = gwe["crt"]["odds"]
    assert odds["tcr1"] == ["1-4", "1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1"]
    assert odds["tcr23"] == ["1-3", "1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1"]
    assert odds["tcr4"] == ["1-2", "1-1", "2-1", "3-1", "4-1", "5-1", "6-1", "7-1"]
    # each row is the one above shifted one column: a better TCR needs one column less
    assert odds["tcr1"][1:] == odds["tcr23"][:-1]
    assert odds["tcr23"][1:] == odds["tcr4"][:-1]
    assert gwe["crt"]["die"] == [1, 2, 3, 4, 5, 6, 7, 8]


def test_8_8_crt_tcr1_row_die6(gwe):
    crt = gwe["crt"]
    row = crt["results"][crt["die"].index(6)]
    assert row == ["2/-", "2/-", "1/-", "1/-", "1/1", "1/1", "1/1", "1/1"]
    col = crt["odds"]["tcr1"].index("2-1")
    assert row[col] == "1/1"
    assert row[crt["odds"]["tcr1"].index("1-4")] == "2/-"


def test_8_8_crt_die1_and_die8(gwe):
    res = gwe["crt"]["results"]
    assert res[0] == ["1/1", "1/1", "-/1", "-/2", "-/3", "-/3", "-/E", "-/E"]
    assert res[7] == ["2/-", "2/-", "2/-", "2/-", "1/-", "1/-", "1/-", "1/1"]


def test_8_8_crt_every_row(gwe):
    assert gwe["crt"]["results"][1:7] == [
        ["1/1", "1/1", "1/1", "1/2", "-/2", "-/2", "-/E", "-/E"],
        ["1/-", "1/1", "1/1", "1/1", "1/2", "1/2", "-/3", "-/3"],
        ["1/-", "1/-", "1/1", "1/1", "1/1", "1/2", "1/2", "-/3"],
        ["2/-", "1/-", "1/-", "1/1", "1/1", "1/1", "1/1", "1/2"],
        ["2/-", "2/-", "1/-", "1/-", "1/1", "1/1", "1/1", "1/1"],
        ["2/-", "2/-", "2/-", "1/-", "1/-", "1/1", "1/1", "1/1"],
    ]


def test_8_8_crt_is_monotone(gwe):
    """A higher die never helps the attacker, a higher odds column never hurts him."""
    sev = {"-": 0, "1": 1, "2": 2, "3": 3, "E": 4}
    res = [[tuple(sev[x] for x in cell.split("/")) for cell in row] for row in gwe["crt"]["results"]]
    for r in range(len(res) - 1):
        for c in range(len(res[r])):
            assert res[r + 1][c][0] >= res[r][c][0] and res[r + 1][c][1] <= res[r][c][1], (r, c)
    for r in range(len(res)):
        for c in range(len(res[r]) - 1):
            assert res[r][c + 1][0] <= res[r][c][0] and res[r][c + 1][1] >= res[r][c][1], (r, c)


def test_8_9_crt_options(gwe):
    opts = gwe["crt_options"]
    att = {r["result"]: r["options"] for r in opts["attacker"]}
    dfd = {r["result"]: r["options"] for r in opts["defender"]}
    assert att == {"1": ["lose_half_affected_steps"], "2": ["lose_all_affected_steps"]}
    assert dfd == {
        "1": ["lose_half_affected_steps", "retreat_1"],
        "2": ["eliminate_all", "lose_half_and_retreat_1", "retreat_2"],
        "3": ["eliminate_all", "lose_half_and_retreat_2"],
        "E": ["eliminate_all"],
    }


def test_6_11_stacking_points(gwe):
    sp = gwe["stacking_points"]
    assert (sp["hq"], sp["regiment"], sp["brigade"], sp["division"], sp["corps"]) == (0, 1, 1, 2, 4)
    assert sp["depot"] == 2          # 18.24
    assert sp["armored_car"] == 0    # 24.31


def test_16_0_stacking_limit(gwe):
    assert gwe["stacking"]["max_points"] == 8
    assert gwe["stacking"]["living_off_land_max_points"] == 2   # 19.41


def test_17_0_tactical_competence_ratings(gwe):
    t = gwe["tcr"]
    assert (t["russian"], t["austro_hungarian"], t["german"]) == (3, 4, 1)
    assert t["joint_austro_german_crt_row"] == "tcr23"


def test_18_21_18_22_rail_capacity(gwe):
    r = gwe["rail_capacity"]
    assert r["russian"] == {"stacking_points": 6, "hexes": 20}
    assert r["central_powers"] == {"stacking_points": 8, "hexes": 25}


def test_18_31_track_limits(gwe):
    t = gwe["track_limits"]
    assert t["optional"] is True
    table = {(rail, side): t["stacking_points"][i][j]
             for i, rail in enumerate(t["railroad"]) for j, side in enumerate(t["sides"])}
    assert table == {("single_track", "russian"): 2, ("single_track", "central_powers"): 4,
                     ("double_track", "russian"): 8, ("double_track", "central_powers"): 8}


def test_19_1_supply_ranges(gwe):
    s = gwe["supply_range"]
    assert (s["russian"], s["austro_hungarian"], s["german"]) == (3, 3, 5)


def test_19_2_massed_artillery(gwe):
    m = gwe["massed_artillery"]
    assert (m["range"], m["multiplier"], m["defensive_use"]) == (3, 2, ["central_powers"])


def test_9_22_attrition(gwe):
    assert gwe["attrition"]["rolls"] == [1, 2, 3]


def test_20_21_20_23_depot_limits(gwe):
    d = gwe["depots"]
    assert d["max_per_turn"] == {"russian": 1, "central_powers": 2}
    assert d["max_on_map"] == {"russian": 11, "central_powers": 10}
    assert [_band_for_turn(d["russian"], t)["depots"] for t in range(1, 15)] == [0] + [1] * 13
    assert [_band_for_turn(d["central_powers"], t)["depots"] for t in range(1, 15)] == \
        [1, 1] + [2] * 12


def test_26_23_attack_on_schedule_depots(gwe):
    d = gwe["depots_attack_on_schedule"]
    assert [_band_for_turn(d["russian"], t)["depots"] for t in range(5, 19)] == [0] + [1] * 13
    assert [_band_for_turn(d["central_powers"], t)["depots"] for t in range(5, 19)] == \
        [1, 1] + [2] * 12


def _rolls_by_turn(table: dict, turns: range) -> list[list[int]]:
    return [_band_for_turn(table["band"], t)["rolls"] for t in turns]


def test_22_11_austro_hungarian_step_replacement(gwe):
    got = _rolls_by_turn(gwe["step_replacement_austro_hungarian"], range(1, 15))
    assert got == [[], [], [1], [1], [1, 2], [1, 2], [1, 2]] + [[1, 2, 3]] * 7


def test_22_12_german_step_replacement(gwe):
    assert _rolls_by_turn(gwe["step_replacement_german"], range(1, 19)) == [[1, 2, 3]] * 18


def test_22_21_russian_step_replacement(gwe):
    got = _rolls_by_turn(gwe["step_replacement_russian"], range(1, 15))
    assert got == [[], [], [1, 2, 3], [1, 2, 3], [1, 2, 3]] + [[1, 2]] * 9


def test_26_24_attack_on_schedule_step_replacement_is_shifted_four_turns(gwe):
    for nat in ("austro_hungarian", "russian"):
        hist = gwe[f"step_replacement_{nat}"]
        aos = gwe[f"step_replacement_{nat}_attack_on_schedule"]
        assert _rolls_by_turn(aos, range(5, 19)) == _rolls_by_turn(hist, range(1, 15)), nat
    assert _rolls_by_turn(gwe["step_replacement_austro_hungarian_attack_on_schedule"],
                          range(5, 13)) == [[], [], [1], [1], [1, 2], [1, 2], [1, 2], [1, 2, 3]]
    assert _rolls_by_turn(gwe["step_replacement_russian_attack_on_schedule"],
                          range(5, 11)) == [[], [], [1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2]]


def test_23_52_reduced_austro_hungarian_movement(gwe):
    r = gwe["reduced_austro_hungarian_movement"]
    assert (r["safe_hexes"], r["safe_movement_points"]) == (1, 2)
    assert (r["panic_turn_rolls"], r["later_rolls"]) == ([1, 2], [1])


def test_24_42_armored_car_breakdown(gwe):
    a = gwe["armored_car_breakdown"]
    assert a["safe_movement_points"] == 4
    assert [(r["movement_points"], r["rolls"]) for r in a["row"]] == [(5, [1]), (6, [1, 2])]


def test_25_2_victory_point_schedule(gwe):
    rows = [r for r in gwe["vp_schedule"]["row"] if "scenario" not in r]
    assert [(r["vp"], r["cause"]) for r in rows] == [
        (1, "central_powers_stacking_point_eliminated"),
        (2, "central_powers_stacking_point_eliminated_surrounded"),
        (1, "central_powers_hq_eliminated"),
        (-1, "russian_stacking_point_eliminated"),
        (-2, "russian_stacking_point_eliminated_surrounded"),
        (-1, "russian_hq_eliminated"),
        (-4, "reinforcement_withheld"),
        (-2, "reinforcement_withheld"),
    ]
    assert [(r.get("first_turn"), r.get("last_turn")) for r in rows[6:]] == [(5, 7), (8, 12)]


def test_26_22_attack_on_schedule_withheld_reinforcements(gwe):
    rows = [r for r in gwe["vp_schedule"]["row"] if r.get("scenario") == "attack_on_schedule"]
    assert [(r["vp"], r["cause"], r["rule"]) for r in rows] == [(-4, "reinforcement_withheld", "26.22")]


def test_25_3_levels_of_victory(gwe):
    bands = gwe["victory_levels"]["band"]
    expected = {
        -40: "central_powers_decisive", 9: "central_powers_decisive",
        10: "central_powers_substantive", 19: "central_powers_substantive",
        20: "central_powers_marginal", 29: "central_powers_marginal",
        30: "russian_marginal", 39: "russian_marginal",
        40: "russian_substantive", 49: "russian_substantive",
        50: "russian_decisive", 500: "russian_decisive",
    }
    assert {vp: _level(bands, vp) for vp in expected} == expected


def test_26_31_26_34_option_vp_costs(gwe):
    opts = {o["code"]: o for o in gwe["option_vp_costs"]["option"]}
    assert {c: (o["rule"], o["vp"]) for c, o in opts.items()} == {
        "early_guards_army": ("26.31", -6),
        "west_front_offensive": ("26.32", -6),
        "increased_supply_and_rail": ("26.33", -6),
        "better_commanders": ("26.34", -1),
    }
    assert opts["better_commanders"]["per"] == "hq_replaced"
    assert opts["increased_supply_and_rail"]["excludes"] == ["west_front_offensive"]
    assert opts["increased_supply_and_rail"]["effects"]["russian_rail_capacity"] == 8
    assert opts["increased_supply_and_rail"]["effects"]["russian_depots_per_turn"] == 2
    assert opts["early_guards_army"]["effects"]["sga_arrival_turn"] == 6


# ---------------------------------------------------------------------------------------------
# The Kaiser's Battle: values against the rulebook (seed 002)
# ---------------------------------------------------------------------------------------------

def test_5_32_kb_terrain_effects(kb):
    te = kb["terrain_effects"]
    table = {k: (v["kind"], v.get("move"), v.get("move_add"), v["die_mod"], v["combat"])
             for k, v in te.items() if isinstance(v, dict)}
    assert table == {
        "clear": ("hex", 1, None, 0, "none"),
        "woods": ("hex", 2, None, 0, "none"),
        "hilltop": ("hex", 2, None, 1, "defender_die_plus_1"),
        "town": ("hex", 1, None, 1, "defender_die_plus_1"),
        "swamp": ("hex", 3, None, 0, "none"),
        "redoubt": ("hex", 2, None, 2, "defender_die_plus_2"),
        "fieldwork": ("hex", 2, None, 1, "defender_die_plus_1"),
        "wire": ("hex", 2, None, 0, "none"),
        "minor_river": ("hexside", None, 2, 1, "defender_die_plus_1_if_solely_across"),
        "excavation": ("hexside", None, 1, 1, "defender_die_plus_1_if_solely_across"),
    }


def test_8_7_example_town_adds_one_to_the_defenders_die(kb):
    """8.7 example: brigade (CS 10, MV 4) and company (CS 1) in a town, German division CS 30;
    German rolls 4, British 1 "becoming a 2 because of the presence of the town": 120 // 22 = 5,
    one more than the Morale Value, so one step is lost."""
    die = 1 + kb["terrain_effects"]["town"]["die_mod"]
    assert die == 2
    quotient = (4 * 30) // (die * (10 + 1))
    assert quotient == 5 and quotient - 4 == 1


def test_7_0_7_1_kb_stacking(kb):
    assert kb["stacking"]["max_points"] == 12
    sp = kb["stacking_points"]
    assert (sp["division"], sp["brigade"], sp["regiment"], sp["battalion"], sp["company"],
            sp["hq"]) == (12, 4, 4, 2, 1, 1)


def test_8_5_kb_steps(kb):
    s = kb["steps"]
    assert (s["division"], s["brigade"], s["regiment"], s["regimental_replacement"],
            s["battalion"], s["company"], s["hq"]) == (3, 2, 2, 1, 1, 1, 1)


def test_8_3_8_4_kb_die_modifiers(kb):
    att = {r["cause"]: r.get("mod", r.get("mod_rule")) for r in kb["attacker_die_modifiers"]["row"]}
    assert att == {"fog": 1, "rolling_barrage": "per_artillery_point"}
    dfd = {r["cause"]: r.get("mod", r.get("mod_rule")) for r in kb["defender_die_modifiers"]["row"]}
    assert dfd == {
        "attacker_isolated": 3, "attacker_out_of_supply": 2,
        "attacker_out_of_communications": 1, "sos_barrage": "half_artillery_points",
        "attack_by_two_or_more_corps": 1, "defender_terrain": "terrain",
    }
    assert kb["defender_die_modifiers"]["cumulative"] is True


def test_8_83_17_3_advance_after_combat(kb):
    a = kb["advance_after_combat"]
    assert dict(zip(a["units"], a["die_multiplier"])) == \
        {"stosstruppen": 1.0, "other_german": 0.5, "allied": 0.5}
    assert dict(zip(a["units"], a["die_multiplier_turns_1_2"])) == \
        {"stosstruppen": 2.0, "other_german": 1.0, "allied": 0.5}


def test_9_25_counter_battery_table(kb):
    cb = kb["counter_battery"]
    assert cb["die"] == [1, 2, 3, 4, 5, 6]
    assert cb["artillery_points"] == [10, 20, 30, 40, 50, 60]
    assert cb["allocation_multiple"] == 10
    assert cb["results"] == [
        ["3", "4", "5", "All", "All", "All"],
        ["2", "3", "4", "5", "All", "All"],
        ["-", "2", "3", "4", "5", "All"],
        ["-", "-", "2", "3", "4", "5"],
        ["-", "-", "-", "2", "3", "4"],
        ["-", "-", "-", "-", "2", "3"],
    ]
    # each die row is the one above shifted one column right
    for above, below in zip(cb["results"], cb["results"][1:]):
        assert below[1:] == above[:-1]


def test_9_25_counter_battery_example_of_9_23(kb):
    """9.23: 10 Field and 8 Heavy points hit by a result of 3 keep 3 and 2."""
    assert (10 // 3, 8 // 3) == (3, 2)
    assert "3" in kb["counter_battery"]["results"][0]


def test_9_48_drumfire_barrage_table(kb):
    db = kb["drumfire_barrage"]
    assert (db["min_points"], db["max_points"]) == (1, 6)
    assert db["stacking_points"] == ["7-12", "1-6"]
    assert db["artillery_points"] == {"sp_7_12": ["1", "2-3", "4-5", "6"],
                                      "sp_1_6": ["2-3", "4-5", "6", "-"]}
    assert db["die"] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert db["results"] == [
        ["4", "5", "6", "7"], ["3", "4", "5", "6"], ["2", "3", "4", "5"], ["-", "2", "3", "4"],
        ["-", "-", "2", "3"], ["-", "-", "-", "2"], ["-", "-", "-", "-"], ["-", "-", "-", "-"],
    ]


def test_9_51_9_61_barrage_limits(kb):
    b = kb["barrage_limits"]
    assert b["weather"] == ["clear", "mist", "fog"]
    assert (b["rolling"], b["rolling_observed"], b["sos"]) == ([2, 1, 0], [3, 2, 0], [4, 2, 0])
    assert (b["rolling_die_per_point"], b["sos_points_per_die"]) == (1, 2)


def test_9_72_observation(kb):
    o = kb["observation"]
    assert dict(zip(o["weather"], o["hilltop_range"])) == {"clear": 6, "mist": 3, "fog": 0}


def test_9_3_persistent_gas(kb):
    g = kb["persistent_gas"]
    assert (g["points_per_marker"], g["min_distance_from_friendly"], g["markers"],
            g["removal_rolls"], g["first_turn"]) == (15, 6, 6, [1], 3)


def test_9_81_9_82_artillery_points_schedule(kb):
    ap = kb["artillery_points"]
    german = [(b["field"], b["heavy"]) for b in (_band_for_turn(ap["german"], t) for t in range(1, 11))]
    allied = [(b["field"], b["heavy"]) for b in (_band_for_turn(ap["allied"], t) for t in range(1, 11))]
    assert german == [(50, 30)] * 2 + [(35, 30)] * 4 + [(30, 20)] * 4
    assert allied == [(0, 0)] * 2 + [(8, 6)] * 4 + [(16, 12)] * 4
    assert ap["field_range_from_hq"] == 10


def test_9_84_9_85_artillery_tracks(kb):
    t = kb["artillery_tracks"]
    assert t["allied"] == {"first_box": 0, "last_box": 16, "multipliers": [1]}
    assert t["german"] == {"first_box": 0, "last_box": 9, "multipliers": [1, 10]}


def test_11_14_weather_table(kb):
    w = kb["weather"]
    assert dict(zip(w["die"], w["result"])) == {
        1: "fog", 2: "fog", 3: "mist", 4: "mist", 5: "mist", 6: "clear", 7: "clear"}
    assert w["pm_modifier"] == 1                # 11.12
    assert w["automatic_fog_turns"] == [1, 2]   # 11.13
    assert w["first_turn"] == 3


def test_12_0_air_points(kb):
    a = kb["air_points"]
    assert (a["german"], a["allied"], a["first_turn"]) == (8, 6, 3)
    assert dict(zip(a["weather"], a["available"])) == {"clear": "all", "mist": "half", "fog": "none"}
    assert (a["observation_max"], a["interception_divisor"]) == ("half", 2)
    assert (a["ground_attack_min_points"], a["ground_attack_max_points"]) == (1, 6)


def test_14_13_14_22_supply_states(kb):
    s = kb["supply_states"]
    got = {n: _level(s["band"], n, key="state") for n in (0, 6, 7, 12, 13, 40)}
    assert got == {0: "in_supply", 6: "in_supply", 7: "out_of_communications",
                   12: "out_of_communications", 13: "out_of_supply", 40: "out_of_supply"}
    mods = {b["state"]: b["defender_die"] for b in s["band"]}
    mods[s["isolated"]["state"]] = s["isolated"]["defender_die"]
    assert mods == {"in_supply": 0, "out_of_communications": 1, "out_of_supply": 2, "isolated": 3}


def test_15_21_service_companies(kb):
    assert (kb["service_companies"]["first_turn"], kb["service_companies"]["die_multiplier"]) == (6, 1)


def test_17_11_17_13_opening_movement(kb):
    m = kb["opening_movement"]
    assert m["allied_corps"] == [18, 3]
    assert (m["allied_turn_1_die_plus"], m["allied_turn_2_die_plus"]) == (0, 1)


def test_20_1_kb_victory_points(kb):
    assert [(r["vp"], r["cause"], r["rule"]) for r in kb["vp_schedule"]["row"]] == [
        (1, "town_west_of_vp_line", "20.11"),
        (3, "german_unit_exited", "20.12"),
        (-1, "allied_unit_in_trench", "20.13"),
        (-1, "german_division_replaced", "20.14"),
    ]


def test_20_3_kb_levels_of_victory(kb):
    bands = kb["victory_levels"]["band"]
    expected = {
        -5: "allied_decisive", 15: "allied_decisive",
        16: "allied_substantive", 25: "allied_substantive",
        26: "allied_marginal", 35: "allied_marginal",
        36: "german_marginal", 45: "german_marginal",
        46: "german_substantive", 55: "german_substantive",
        56: "german_decisive", 200: "german_decisive",
    }
    assert {vp: _level(bands, vp) for vp in expected} == expected
