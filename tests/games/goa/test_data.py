"""gwe_fast.games.goa.data: the bundled GoA files validate, broken copies give located faults,
and the stand-in data keep the properties docs/rulings.md promises."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gwe_fast.games.goa.data import DATA_DIR, SCENARIO_FILES, GoaData, read_goa
from gwe_fast.scenario.errors import ScenarioError


@pytest.fixture(scope="module")
def data() -> GoaData:
    return read_goa("goa/campaign")


@pytest.fixture
def goa_dir(tmp_path) -> Path:
    dest = tmp_path / "goa"
    shutil.copytree(DATA_DIR, dest)
    return dest


def _break(folder: Path, file: str, old: str, new: str, scenario: str = "campaign.toml") -> list:
    path = folder / file
    text = path.read_text()
    assert text.count(old) >= 1, old
    path.write_text(text.replace(old, new, 1))
    with pytest.raises(ScenarioError) as exc:
        read_goa(folder / scenario)
    return exc.value.faults


def _line_of(folder: Path, file: str, needle: str) -> int:
    for i, line in enumerate((folder / file).read_text().splitlines(), start=1):
        if needle in line:
            return i
    raise AssertionError(needle)


# ------------------------------------------------------------------------------ loading


@pytest.mark.parametrize("stem", SCENARIO_FILES)
def test_every_bundled_goa_scenario_validates(stem):
    d = read_goa(f"goa/{stem}")
    assert d.scenario.key == f"goa/{stem}"
    assert d.scenario.version >= 1 and d.scenario.last == "1918-12"
    assert set(d.scenario.countries) == set(d.countries)


def test_read_goa_takes_a_folder_a_scenario_file_or_a_key(goa_dir):
    a = read_goa(goa_dir)
    b = read_goa(goa_dir / "1916.toml")
    assert a.scenario.start == "1914-08" and b.scenario.start == "1916-01"
    assert read_goa(DATA_DIR / "1917.toml").scenario.key == "goa/1917"


def test_the_description_is_frozen_and_keyed_in_file_order(data):
    with pytest.raises(Exception):
        data.countries["germany"] = None  # type: ignore[index]
    with pytest.raises(Exception):
        data.ports["kiel"].country = "x"  # type: ignore[misc]
    assert list(data.ports)[:3] == ["durazzo", "trieste", "antwerp"]
    assert isinstance(data.squadrons, tuple) and isinstance(data.history, tuple)


def test_a_missing_file_is_one_located_fault(goa_dir):
    (goa_dir / "morale.toml").unlink()
    with pytest.raises(ScenarioError) as exc:
        read_goa(goa_dir)
    assert [f.message for f in exc.value.faults] == ["file not found"]
    assert exc.value.faults[0].file.endswith("morale.toml")


def test_bad_toml_is_located(goa_dir):
    faults = _break(goa_dir, "land.toml", "[land]", "[land")
    assert faults[0].line is not None and "not valid TOML" in faults[0].message


# ------------------------------------------------------------------------------ broken copies


def test_unknown_sea_area_in_a_port(goa_dir):
    faults = _break(goa_dir, "naval.toml", 'country = "austria_hungary"\nsea_areas = ["adriatic_sea"',
                    'country = "austria_hungary"\nsea_areas = ["adriatic_sae"')
    f = next(f for f in faults if f.key == "ports.trieste.sea_areas")
    assert "unknown sea area 'adriatic_sae'" in f.message
    assert f.file.endswith("naval.toml") and f.line == _line_of(goa_dir, "naval.toml", "adriatic_sae")


def test_C_12_a_one_way_neighbour_is_refused(goa_dir):
    faults = _break(goa_dir, "colonies.toml",
                    'neighbors = ["libya", "tripolitania", "egypt"]\nruled_neighbors = ["egypt"]',
                    'neighbors = ["libya", "tripolitania"]')
    f = next(f for f in faults if f.key == "colonies.egypt.neighbors")
    assert "one-way neighbour: 'egypt' lists 'cyrenaica'" in f.message
    assert f.line == _line_of(goa_dir, "colonies.toml", '"cyrenaica", "syria", "sudan"')


def test_C_61_a_defense_value_out_of_range(goa_dir):
    faults = _break(goa_dir, "colonies.toml", "neighbors = [\"kenya\", \"uganda\", \"zambia\"]\n"
                    "defense = 7", "neighbors = [\"kenya\", \"uganda\", \"zambia\"]\ndefense = 70")
    f = next(f for f in faults if f.key == "colonies.tanganyika.defense")
    assert "70 is out of range 1..12" in f.message and f.line is not None


def test_unknown_city_in_a_front_chain(goa_dir):
    faults = _break(goa_dir, "land.toml", 'a_cities = ["metz", "strasbourg"',
                    'a_cities = ["mets", "strasbourg"')
    f = next(f for f in faults if f.key == "fronts[0].a_cities")
    assert "unknown city 'mets'" in f.message
    assert f.line == _line_of(goa_dir, "land.toml", '"mets"')


def test_a_front_city_of_the_wrong_country(goa_dir):
    faults = _break(goa_dir, "land.toml", 'a_cities = ["metz", "strasbourg"',
                    'a_cities = ["verdun", "strasbourg"')
    assert any("belongs to 'france', not 'germany'" in f.message for f in faults)


def test_a_history_month_outside_the_war(goa_dir):
    faults = _break(goa_dir, "land.toml", 'city = "liege"\nmonth = "1914-08"',
                    'city = "liege"\nmonth = "1919-03"')
    f = next(f for f in faults if f.key == "history[0].month")
    assert "outside the war" in f.message and f.line == _line_of(goa_dir, "land.toml", "1919-03")


def test_history_out_of_date_order(goa_dir):
    faults = _break(goa_dir, "land.toml", 'city = "liege"\nmonth = "1914-08"',
                    'city = "liege"\nmonth = "1915-08"')
    assert any("date order" in f.message for f in faults)


def test_a_missing_source_tag_on_a_stand_in_number(goa_dir):
    text = (goa_dir / "countries.toml").read_text()
    start = text.index("[countries.germany]")
    line = next(ln for ln in text[start:].splitlines() if ln.startswith("army_source"))
    faults = _break(goa_dir, "countries.toml", line + "\n", "")
    f = next(f for f in faults if f.key == "countries.germany")
    assert "missing source tag 'army_source'" in f.message
    assert f.line == _line_of(goa_dir, "countries.toml", "[countries.germany]")


def test_a_source_without_a_tag(goa_dir):
    faults = _break(goa_dir, "naval.toml", 'source = "standin: light damage',
                    'source = "guess: light damage')
    f = next(f for f in faults if f.key == "repair.source")
    assert "must start with seed, decoded, external: or standin:" in f.message


def test_an_int8_factor_out_of_range(goa_dir):
    faults = _break(goa_dir, "naval.toml", "gunnery = [6, 5, 2]\nprotection = [12, 7, 6]",
                    "gunnery = [600, 5, 2]\nprotection = [12, 7, 6]")
    assert any(f.key == "squadron_kinds.britain.gunnery" and "600 is out of range 0..127"
               in f.message for f in faults)


def test_a_squadron_at_an_unknown_base_and_of_an_unknown_kind(goa_dir):
    faults = _break(goa_dir, "naval.toml", 'kind = "dreadnought"\nbase = "scapa_flow"\ncount = 5',
                    'kind = "superdreadnought"\nbase = "rosyth"\ncount = 5')
    keys = {f.key for f in faults}
    assert {"squadrons[0].kind", "squadrons[0].base"} <= keys


def test_N_31_a_squadron_outside_its_home_ports(goa_dir):
    faults = _break(goa_dir, "naval.toml", 'kind = "dreadnought"\nbase = "scapa_flow"\ncount = 5',
                    'kind = "dreadnought"\nbase = "calais"\ncount = 5')
    assert any("N.31" in f.message and f.key == "squadrons[0].base" for f in faults)


def test_a_port_that_is_no_city(goa_dir):
    faults = _break(goa_dir, "cities.toml", 'port = "varna"', 'port = ""')
    assert any(f.key == "ports.varna" and "every port is a city" in f.message for f in faults)


def test_off_map_ports_of_a_country_must_match_the_ports_chart(goa_dir):
    faults = _break(goa_dir, "countries.toml", 'off_map_ports = ["piraeus"]', "off_map_ports = []")
    assert any(f.key == "countries.greece.off_map_ports" for f in faults)


def test_objective_count_and_swaps_are_checked(goa_dir):
    faults = _break(goa_dir, "cities.toml", 'swap_london_for = "frankfurt"',
                    'swap_london_for = "paris_typo"')
    assert any(f.key == "objectives.swap_london_for" for f in faults)


def test_scenario_start_and_options_are_checked(goa_dir):
    faults = _break(goa_dir, "campaign.toml", 'requires = ["naval"]', 'requires = ["navy"]')
    assert any("names unknown option 'navy'" in f.message for f in faults)
    faults = _break(goa_dir, "1915.toml", "[start.countries.albania]\n",
                    "[start.countries.albanie]\n", scenario="1915.toml")
    msgs = " ".join(f.message for f in faults)
    assert "unknown country 'albanie'" in msgs and "has no [start.countries.albania]" in msgs


def test_every_fault_is_reported_at_once(goa_dir):
    (goa_dir / "naval.toml").write_text((goa_dir / "naval.toml").read_text().replace(
        'base = "scapa_flow"\ncount = 5', 'base = "nowhere"\ncount = 5'))
    faults = _break(goa_dir, "colonies.toml", "defense = 7", "defense = 0")
    assert {"squadrons[0].base", "colonies.tanganyika.defense"} <= {f.key for f in faults}


# ------------------------------------------------------------------------------ rulings


def test_N_43_naval_combat_chart_decoded_and_read(data):
    ch = data.naval_combat_chart
    assert ch.far_left == (-1, 4, 12, 20, 28, 36)
    assert ch.damage[3] == (-1, -1, -1, 45, 47, 47)
    res = ch.resolved()        # rows die 1..6; column 0 the far-left column
    assert [row[0] for row in res] == [0, 4, 12, 20, 28, 36]
    assert [row[1] for row in res] == [7, 7, 7, 7, 7, 7]          # column 1 capped at 7
    assert [row[6] for row in res] == [7, 21, 35, 47, 61, 75]
    assert res[5] == (36, 7, 21, 35, 45, 61, 75)
    for c in range(7):         # "cap" makes damage grow with the die in every column
        assert all(res[d][c] <= res[d + 1][c] for d in range(5))


def _fleet_gunnery(data, country, start="1914", base=None):
    g = 0
    f = data.squadron_kinds.factors
    for s in data.squadrons_at(start, colonies=False):
        if s.country == country and (base is None or s.base == base):
            g += s.count * f[country].gunnery[data.squadron_kinds.kinds.index(s.kind)]
    return g


def test_N_43_stand_in_headings_put_the_historical_fleets_in_sensible_columns(data):
    ch = data.naval_combat_chart
    col = lambda g: ch.column_for(g)  # noqa: E731
    assert col(0) == 0
    assert col(_fleet_gunnery(data, "germany", base="trieste")) == 1          # the Goeben
    assert col(_fleet_gunnery(data, "russia", base="sevastopol")) == 1
    assert col(_fleet_gunnery(data, "austria_hungary")) == 2
    assert col(_fleet_gunnery(data, "italy")) == 2
    assert col(_fleet_gunnery(data, "france")) == 3
    assert col(_fleet_gunnery(data, "united_states")) == 4
    assert col(_fleet_gunnery(data, "germany", base="bremen")) == 5           # High Seas Fleet
    assert col(_fleet_gunnery(data, "britain", base="scapa_flow")) == 6       # Grand Fleet


def test_C_26_japanese_protection_equals_french(data):
    f = data.squadron_kinds.factors
    assert f["japan"].protection == f["france"].protection


def test_V_4_mediterranean_battlecruiser_in_trieste_or_constantinople(data):
    row = next(s for s in data.squadrons if s.alt_base)
    assert (row.country, row.kind, row.base, row.alt_base, row.starts) == (
        "germany", "battlecruiser", "trieste", "constantinople", ("1914",))
    later = read_goa("goa/1915")
    assert any(s.country == "turkey" and s.kind == "battlecruiser"
               for s in later.squadrons_at("1915", colonies=False))


def test_N_31_every_squadron_starts_in_a_home_port(data):
    for s in data.squadrons:
        if s.alt_base:
            continue
        if s.base in data.ports:
            assert data.ports[s.base].country == s.country, s
        else:
            owner = data.colonies[s.base].country if s.base in data.colonies else "japan"
            assert owner == s.country, s


def test_V_8_groups_and_V_9_who_may_join_whom(data):
    c = data.countries
    assert {k for k in c if c[k].entry_group == "west"} == {"belgium", "britain", "italy",
                                                           "netherlands", "united_states"}
    assert {k for k in c if c[k].entry_group == "east"} == {"bulgaria", "greece", "romania",
                                                           "turkey"}
    assert c["netherlands"].may_join == ("central",)
    for k in ("belgium", "britain", "united_states"):
        assert c[k].may_join == ("allied",)
    assert c["albania"].entry == "never"


def test_P_18_conscription_before_entry_except_britain_and_the_united_states(data):
    assert {k for k, c in data.countries.items() if not c.conscription} == {
        "britain", "united_states", "albania"}
    for stem, since in (("campaign", ""), ("1916", ""), ("1917", "1916-08"), ("1918", "1916-08")):
        assert read_goa(f"goa/{stem}").scenario.countries["britain"].conscription_since == since


def test_P_17_economic_mobilization_in_the_1917_and_1918_starts():
    for stem in SCENARIO_FILES:
        sc = read_goa(f"goa/{stem}").scenario
        mob = {k for k, c in sc.countries.items() if c.mobilization_since}
        assert mob == ({"germany", "austria_hungary"} if stem in ("1917", "1918") else set())
        if mob:
            assert sc.countries["germany"].mobilization_since == "1916-11"


def test_victory_twenty_objectives_the_central_powers_hold_some_but_not_all_at_the_start(data):
    obj = {k for k, c in data.cities.items() if c.objective}
    assert len(obj) == 20
    assert {"brest_litovsk", "frankfurt"} <= obj and not {"berlin", "london"} & obj
    side = {k: data.countries[c.country].side for k, c in data.cities.items()}
    side.update(data.scenario.cities)
    central = {k for k in obj if side[k] == "central"}
    assert central and central != obj
    assert data.objectives.swap_berlin_for == "brest_litovsk"
    assert data.objectives.swap_london_for == "frankfurt"


def _replay(data, before: str) -> dict[str, str]:
    held = {}
    for h in data.history:
        if h.month < before:
            held[h.city] = h.to
    return held


@pytest.mark.parametrize("stem", SCENARIO_FILES)
def test_start_cities_are_the_history_before_the_start(stem):
    """Each later start holds exactly what history says, plus every city of a country
    conquered by occupation (Montenegro, January 1916) and Durazzo as an Allied supply source
    until February 1916."""
    d = read_goa(f"goa/{stem}")
    sc = d.scenario
    held = _replay(d, sc.start)
    if sc.start < "1916-02":
        held.setdefault("durazzo", "allied")
    for k, c in sc.countries.items():
        if c.conquered and k in ("serbia", "montenegro"):
            for ck, city in d.cities.items():
                if city.country == k:
                    held.setdefault(ck, "central")
    own = {k: sc.countries[c.country].side for k, c in d.cities.items()}
    expected = {k: v for k, v in held.items() if v != own[k]}
    assert dict(sc.cities) == expected


def test_countries_that_never_fell_keep_a_city_through_the_whole_history(data):
    held = _replay(data, "1919-01")
    lost_all = set()
    for k, c in data.countries.items():
        if c.home_area:
            continue
        mine = [ck for ck, city in data.cities.items() if city.country == k]
        side = "central" if c.side == "central" or k in ("turkey", "bulgaria") else "allied"
        if all(held.get(ck, side) != side for ck in mine):
            lost_all.add(k)
    # Serbia is retaken in 1918 (Belgrade, Nis); Montenegro's liberation came after the
    # Austro-Hungarian armistice and is left out of the history
    assert lost_all == {"montenegro"}
    # at the start of 1916 Serbia and Montenegro had lost everything, and nobody else had
    held = _replay(data, "1916-02")
    out = {k for k in ("serbia", "montenegro", "belgium", "romania", "russia", "france", "italy")
           if all(held.get(ck) == "central" for ck, city in data.cities.items()
                  if city.country == k)}
    assert out == {"serbia", "montenegro"}
    assert not any(h.city in ("ypres", "iasi", "paris", "st_petersburg", "moscow")
                   for h in data.history)


def test_history_months_are_in_the_war_and_in_order(data):
    months = [h.month for h in data.history]
    assert months == sorted(months) and months[0] >= "1914-08" and months[-1] <= "1918-12"
    assert all(h.source.startswith("external:") for h in data.history)
    expected = {("antwerp", "1914-10"), ("lille", "1914-10"), ("warsaw", "1915-08"),
                ("brest_litovsk", "1915-08"), ("cetinje", "1916-01"), ("durazzo", "1916-02"),
                ("bucharest", "1916-12"), ("riga", "1917-09"), ("udine", "1917-10")}
    assert expected <= {(h.city, h.month) for h in data.history}


def test_fronts_cover_every_pair_that_can_fight(data):
    pairs = {frozenset((f.a, f.b)) for f in data.fronts.values()}
    need = [("germany", "france"), ("germany", "belgium"), ("germany", "netherlands"),
            ("germany", "russia"), ("austria_hungary", "russia"), ("austria_hungary", "serbia"),
            ("austria_hungary", "montenegro"), ("austria_hungary", "italy"),
            ("austria_hungary", "romania"), ("bulgaria", "serbia"), ("bulgaria", "romania"),
            ("bulgaria", "greece"), ("russia", "romania"), ("italy", "france"),
            ("greece", "serbia"), ("bulgaria", "turkey"), ("netherlands", "belgium"),
            ("romania", "serbia")]
    assert {frozenset(p) for p in need} == pairs


def test_morale_table_results_and_months(data):
    m = data.morale
    assert m.months == (2, 5, 8, 11)
    assert [m.result(r) for r in (-5, -3, -2, -1, 0, 1, 4)] == [
        "surrender", "surrender", "D2", "D1", "RR", "none", "none"]
    assert m.effects["RR"].personnel_factor_pct == 50
    assert {x.key: x.same_as for x in m.modifiers}["allied_blockade"] == "M._3"


def test_crt_is_the_issue_27_transcription(data):
    crt = data.crt
    assert crt.rows[0] == ("AE", "AA", "AA", "AD", "BD", "BD")
    assert crt.rows[6] == ("DX", "DX", "DE", "DE", "DE", "DE")
    assert dict(crt.modifiers) == {"fort": -2, "entrenchment": -1, "rough": -1, "swamp": -1,
                                   "city": -1, "demoralized_defender": 1,
                                   "artillery_points_per_plus_one": 6, "cap": 3}


def test_colonies_option_requires_naval(data):
    o = data.scenario.options
    assert o["colonies"].requires == ("naval",)
    assert o["naval_combat_chart"].requires == ("naval",)
    assert o["land"].default == "historical" and o["land"].choices == ("historical", "fronts")
