"""The GoA charts as data against the seed text itself (N.11-N.13, C.11-C.12, C.21-C.25, the
Supply and Personnel Points table and the Naval Combat Chart's cell stream).

The seed (../shared/seeds/003_0cfefb5190474234.txt) is read at test time; the tests skip when
it is not beside the repository. Rows are found by the chart's own spelling (``seed_name``),
and each row's text is parsed independently of the data: country, sea areas, neighbours,
defense value and the note's rules.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from gwe_fast.games.goa.data import read_goa

ROOT = Path(__file__).resolve().parents[3]
_CANDIDATES = [Path(os.environ["GWE_SEEDS"])] if os.environ.get("GWE_SEEDS") else []
_CANDIDATES += [ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds"]
SEED = next((p / "003_0cfefb5190474234.txt" for p in _CANDIDATES
             if (p / "003_0cfefb5190474234.txt").exists()), None)
needs_seed = pytest.mark.skipif(SEED is None, reason="the seed 003 is not beside the repository "
                                                     "(set GWE_SEEDS to its folder)")

# The OCR spellings inside chart rows that differ from the row names (docs/rulings.md).
SEA_VARIANTS = {"West Mediterranen": "west_mediterranean",
                "East Meditteranean": "east_mediterranean"}
PLACE_VARIANTS = {"Bechuanlaland": "bechuanaland", "Somaliliand": "somaliland",
                  "the Caucasus": "caucasus"}
NUMBERS = {"three": 3, "five": 5, "seven": 7, "eight": 8, "nine": 9, "twenty-five": 25,
           "thirty-five": 35, "forty-two": 42}


@pytest.fixture(scope="module")
def data():
    return read_goa("goa/campaign")


@pytest.fixture(scope="module")
def seed():
    return SEED.read_text(encoding="utf-8") if SEED else ""


def _segment(text: str, start: str, end: str) -> str:
    i = text.index(start)
    return text[i + len(start):text.index(end, i)].strip()


def _rows(segment: str, names: list[str]) -> list[str]:
    """Split a chart segment into rows at the given row names, in order; every character of
    the segment must belong to a row (a row missing from the data would show up inside the
    previous row's text)."""
    assert segment.startswith(names[0] + " "), segment[:40]
    starts, pos = [], 0
    for name in names:
        i = segment.index(name + " ", pos) if name != names[-1] or (name + " ") in segment[pos:] \
            else segment.index(name, pos)
        starts.append(i)
        pos = i + len(name)
    starts.append(len(segment))
    rows = [segment[a:b].strip() for a, b in zip(starts, starts[1:])]
    assert "".join(r.replace(" ", "") for r in rows) == segment.replace(" ", "")
    return [r[len(n):].strip() for r, n in zip(rows, names)]


def _sea_names(data) -> dict[str, str]:
    out = {s.name: k for k, s in data.sea_areas.items()}
    out.update(SEA_VARIANTS)
    return out


def _take_seas(rest: str, seas: dict[str, str]) -> tuple[list[str], str]:
    """Sea areas at the start of ``rest`` (separated by ", " or "; "), and what follows."""
    found = []
    while True:
        for name in sorted(seas, key=len, reverse=True):
            if rest.startswith(name) and (len(rest) == len(name) or rest[len(name)] in " ,;"):
                found.append(seas[name])
                rest = rest[len(name):]
                break
        else:
            return found, rest.strip()
        if rest[:2] in (", ", "; ") and any(rest[2:].startswith(n) for n in seas):
            rest = rest[2:]
        else:
            return found, rest.strip()


def _take_country(rest: str, data) -> tuple[str, str]:
    names = {}
    for k, c in data.countries.items():
        names[c.name] = k
        if c.seed_name:
            names[c.seed_name] = k
    for name in sorted(names, key=len, reverse=True):
        if rest.startswith(name + " "):
            return names[name], rest[len(name):].strip()
    raise AssertionError(f"no country at {rest[:30]!r}")


# ------------------------------------------------------------------------------ N.11-N.13


@needs_seed
def test_N_11_seven_sea_areas_and_five_colonial(data, seed):
    n11 = _segment(seed, "N.11 There are seven sea areas. They are", "N.12")
    main, _, colonial = n11.partition("If using the colonial variant")
    split = lambda s: [x.strip() for x in re.split(r",\s*(?:and\s+)?", s.strip().rstrip(".")) if x.strip()]  # noqa: E731
    main_names = [re.sub(r"^(and )?the ", "", x) for x in split(main)]
    col = colonial.split("are added")[0]
    col_names = [re.sub(r"^(and )?the ", "", x) for x in split(col)]
    assert [s.name for s in data.sea_areas.values() if not s.colonial] == main_names
    assert [s.name for s in data.sea_areas.values() if s.colonial] == col_names
    assert len(main_names) == 7 and len(col_names) == 5
    assert "five additional sea areas" in seed                               # C.11


@needs_seed
def test_N_12_thirty_five_ports_and_three_colonial(data, seed):
    m = re.search(r"There are ([\w-]+) ports\. They are the ([\w-]+) cities located in coastal "
                  r"hexes, plus ([\w-]+) cities located on estuaries and ([\w-]+) ports located "
                  r"off the map\. The colonial variant adds ([\w-]+) more ports", seed)
    total, coastal, estuary, off, colonial = (NUMBERS[x] for x in m.groups())
    ports = list(data.ports.values())
    main = [p for p in ports if not p.colonial]
    assert len(main) == total == 35
    assert sum(not p.off_map and not p.estuary for p in main) == coastal == 25
    assert sum(p.estuary for p in main) == estuary == 3
    assert sum(p.off_map for p in main) == off == 7
    assert [p.name for p in ports if p.colonial] == ["Sydney", "Panama", "San Diego"]
    assert len([p for p in ports if p.colonial]) == colonial == 3
    assert "three new off-map ports: Panama, San Diego, and Sydney" in seed      # C.11


@needs_seed
def test_N_12_ports_chart_rows_match_the_seed(data, seed):
    segment = _segment(seed, "Ports Durrazzo", "Beaches Ostend")
    segment = "Durrazzo " + segment
    ports = list(data.ports.values())
    rows = _rows(segment, [p.seed_name or p.name for p in ports])
    seas = _sea_names(data)
    for p, rest in zip(ports, rows):
        country, rest = _take_country(rest, data)
        sea, note = _take_seas(rest, seas)
        assert (p.key, country, sea) == (p.key, p.country, list(p.sea_areas))
        # every note that is a rule, as its field
        assert p.off_map == note.startswith("Off the map"), p.key
        assert p.colonial == ("used only with the colonial variant" in note), p.key
        hx = re.search(r"occupy hex (\w+)", note)
        assert p.closed_if_enemy_in == (hx.group(1) if hx else ""), p.key
        ov = re.search(r"overland connection is (?:with|through) hex (\w+)", note)
        assert p.overland == (ov.group(1) if ov else ""), p.key
        limit = "no more than one city and three land units" in note
        assert p.supply_source_limit == ((1, 3) if limit else (0, 0)), p.key
        assert bool(p.sortie_reveal_from) == ("revealed in detail" in note), p.key
        into = re.search(r"sorties into the (North Atlantic|Baltic Sea)", note)
        assert p.sortie_reveal_into == (seas[into.group(1)] if into else ""), p.key
        assert p.units_may_embark == ("American units and supply points may be sent" in note)
        assert p.starts_allied_supply == ("Starts the game as an Allied supply source" in note)
        assert (p.invasion_rule == "greek_entry") == ("Greek war entry" in note), p.key
        assert (p.belligerent_at == ("1914", "1915")) == ("Allied belligerent" in note), p.key
        assert bool(p.note) == bool(note), p.key


@needs_seed
def test_N_12_malta_calais_kiel_reveal_the_right_ports(data):
    adriatic = [k for k, p in data.ports.items() if "adriatic_sea" in p.sea_areas and k != "malta"]
    assert data.ports["malta"].sortie_reveal_from == tuple(adriatic)
    assert data.ports["malta"].sortie_reveal_into == ""
    # Calais: continental ports east of Calais with North Atlantic access
    assert set(data.ports["calais"].sortie_reveal_from) == {"antwerp", "bremen", "amsterdam",
                                                            "rotterdam"}
    # Kiel: ports west of Kiel with Baltic access (Scapa Flow is west of it too)
    baltic_west = {k for k, p in data.ports.items() if "baltic_sea" in p.sea_areas
                   and k in ("antwerp", "scapa_flow", "bremen", "hamburg", "amsterdam",
                             "rotterdam")}
    assert set(data.ports["kiel"].sortie_reveal_from) == baltic_west


def test_N_12_cetinje_montenegro_belligerent_only_at_the_1914_and_1915_starts():
    for key, at_war in (("campaign", True), ("1915", True), ("1916", False), ("1917", False),
                        ("1918", False)):
        mont = read_goa(f"goa/{key}").scenario.countries["montenegro"]
        assert (mont.side == "allied" and not mont.conquered) == at_war, key


@needs_seed
def test_N_13_eight_beaches_and_their_rows(data, seed):
    assert "There are eight beaches" in seed
    assert len(data.beaches) == 8
    segment = "Ostend " + _segment(seed, "Beaches Ostend", "Players may want")
    beaches = list(data.beaches.values())
    rows = _rows(segment, [b.seed_name or b.name for b in beaches])
    seas = _sea_names(data)
    for b, rest in zip(beaches, rows):
        m = re.match(r"\(hex (\w+)\) (.*)", rest)
        assert m.group(1) == b.hex, b.key
        country, rest = _take_country(m.group(2), data)
        sea, note = _take_seas(rest, seas)
        assert (country, sea) == (b.country, list(b.sea_areas)), b.key
        assert b.no_central_occupation == ("May not be occupied by Central Powers" in note)


# ------------------------------------------------------------------------------ C.11-C.12


def _place_names(data) -> dict[str, str]:
    out = {}
    for k, c in data.colonies.items():
        out[c.name] = k
        if c.seed_name:
            out[c.seed_name] = k
    for k, a in data.areas.items():
        out[a.name] = k
    out.update(PLACE_VARIANTS)
    return out


def _neighbours(text: str, names: dict[str, str]) -> list[str]:
    return [names[x.strip()] for x in text.split(",") if x.strip()]


@needs_seed
def test_C_11_forty_two_colonies_and_nine_areas(data, seed):
    m = re.search(r"There are ([\w-]+) colonies.*? and ([\w-]+) areas", seed)
    assert len(data.colonies) == NUMBERS[m.group(1)] == 42
    assert len(data.areas) == NUMBERS[m.group(2)] == 9


def _colony_rows(data, seed):
    segment = _segment(seed, "Colonies COLONY COUNTRY SEA AREAS NEIGHBORS DEFENSE VALUE",
                       "Areas AREA")
    colonies = list(data.colonies.values())
    return colonies, _rows(segment, [c.seed_name or c.name for c in colonies])


@needs_seed
def test_C_12_colonies_chart_rows_match_the_seed(data, seed):
    colonies, rows = _colony_rows(data, seed)
    seas, names = _sea_names(data), _place_names(data)
    for c, rest in zip(colonies, rows):
        country, rest = _take_country(rest, data)
        sea, rest = _take_seas(rest, seas)
        m = re.fullmatch(r"(.*?)\s*(\d+)", rest)
        printed = _neighbours(m.group(1), names)
        assert (country, sea, int(m.group(2))) == (c.country, list(c.sea_areas), c.defense), c.key
        assert printed == [x for x in c.neighbors if x not in c.ruled_neighbors], c.key


def _area_rows(data, seed):
    segment = _segment(seed, "Areas AREA SEA AREAS NEIGHBORS DEFENSE VALUE NOTES",
                       "DESIGNERS NOTES")
    areas = list(data.areas.values())
    return areas, _rows(segment, [a.name for a in areas])


@needs_seed
def test_C_12_areas_chart_rows_match_the_seed(data, seed):
    areas, rows = _area_rows(data, seed)
    seas, names = _sea_names(data), _place_names(data)
    for a, rest in zip(areas, rows):
        sea, rest = _take_seas(rest, seas)
        m = re.fullmatch(r"(.*?)\s*(\d+) (.*)", rest)
        printed = _neighbours(m.group(1), names)
        note = m.group(3)
        assert (sea, int(m.group(2))) == (list(a.sea_areas), a.defense), a.key
        assert printed == [x for x in a.neighbors if x not in a.ruled_neighbors], a.key
        kind = ("home" if "Place all new Japanese units" in note else
                "china" if "Part of China" in note else
                "turkish_opponent" if "colony of Turkish opponent" in note else
                "turkish_colony" if "considered Turkish colony" in note else
                "sovereign" if "Sovereign country" in note else "?")
        assert a.kind == kind, a.key
        activated = ("attack" if "activated only upon attack" in note else
                     "turkish_entry" if "Activated upon Turkish war entry" in note else
                     "occupation" if "without die roll" in note else "always")
        assert a.activated == activated, a.key
        assert a.occupy_without_roll == ("without die roll" in note), a.key
        assert a.invasion_limit == (6 if "up to six units" in note else 3), a.key
        assert a.new_units_here == ("Place all new" in note), a.key


@needs_seed
def test_C_12_neighbours_made_symmetric_exactly_where_the_charts_are_one_way(data, seed):
    names = _place_names(data)
    printed: dict[str, list[str]] = {}
    colonies, rows = _colony_rows(data, seed)
    seas = _sea_names(data)
    for c, rest in zip(colonies, rows):
        _, rest = _take_country(rest, data)
        _, rest = _take_seas(rest, seas)
        printed[c.key] = _neighbours(re.fullmatch(r"(.*?)\s*(\d+)", rest).group(1), names)
    areas, rows = _area_rows(data, seed)
    for a, rest in zip(areas, rows):
        _, rest = _take_seas(rest, seas)
        printed[a.key] = _neighbours(re.fullmatch(r"(.*?)\s*(\d+) (.*)", rest).group(1), names)
    one_way = sorted((a, b) for a, ns in printed.items() for b in ns if a not in printed[b])
    assert one_way == [("abyssinia", "kenya"), ("egypt", "cyrenaica"), ("somalia", "kenya")]
    added = sorted((b, a) for a, p in {**data.colonies, **data.areas}.items()
                   for b in p.ruled_neighbors)
    assert added == one_way


# ------------------------------------------------------------------------------ P._19 table


@needs_seed
def test_P_1_points_table(data, seed):
    table = _segment(seed, "Supply and Personnel Points Personnel Points Supply Points",
                     "VICTORY CONDITIONS")
    rows = re.findall(r"([A-Z][A-Za-z-]*(?: [A-Z][a-z]+)?) (\d+) (\d+)", table)
    assert len(rows) == 14
    by_name = {c.seed_name or c.name: c for c in data.countries.values()}
    for name, personnel, supply in rows:
        c = by_name[name]
        assert (c.personnel, c.supply, c.points_source) == (int(personnel), int(supply), "seed" if c.key != "japan" else c.points_source), name
    in_table = {by_name[name].key for name, _, _ in rows}
    assert {k for k in data.countries} - in_table == {"serbia", "bulgaria", "albania"}
    for k in ("serbia", "bulgaria", "albania"):
        assert data.countries[k].points_source.startswith("standin:")
    assert "C.26 Japan receives 19 personnel and 20 supply points" in seed


# ------------------------------------------------------------------------------ N.43 chart


@needs_seed
def test_N_43_naval_combat_chart_cells_are_the_seed_text_read_row_by_row(data, seed):
    """Reading R3 (docs/rulings.md): drop the die labels 1-6 and the vertical 'R o l l', and
    the seed's tokens are the chart read row by row - far-left cell, then the six gunnery
    cells - with each run of two or more dashes one dash short (the OCR merged a pair)."""
    text = _segment(seed, "Naval Combat Chart Combined Gunnery Factors", "COLONIES C.1")
    labels, tokens = ["1", "R", "2", "o", "3", "l", "4", "l", "5", "6"], []
    for t in text.split():                  # the die labels and 'Roll', in their reading order
        if labels and t == labels[0]:
            labels.pop(0)
        else:
            tokens.append(t)
    assert not labels
    ch = data.naval_combat_chart
    cells = []
    for die in range(6):
        cells += [ch.far_left[die]] + list(ch.damage[die])
    shown, run = [], 0
    for v in cells + [0]:
        if v == -1:
            run += 1
            continue
        shown += ["-"] * (run - 1 if run >= 2 else run)
        run = 0
        shown.append(str(v))
    assert shown[:-1] == tokens



# ------------------------------------------------------------------------------ C.21-C.25

CORPS = (4, 6, 4)
JAPAN_FORCE = {((4, 6, 4), 6), ((3, 5, 3), 6), ((3, 3, 5), 1), ((2, 2, 2), 2)}


def _land(data, start):
    """{(place, country): {((a, d, m), count)}} for one start."""
    out = {}
    for d in data.deployments_at(start):
        out.setdefault((d.place, d.country), set()).update((u[:3], u[3]) for u in d.units)
    return out


def _british(land):
    return {place: sum(n for _, n in units) for (place, c), units in land.items()
            if c == "britain"}


def _fleet(data, start):
    out = {}
    for s in data.squadrons_at(start, colonies=True):
        if s.colonial:
            out[(s.country, s.kind, s.base)] = out.get((s.country, s.kind, s.base), 0) + s.count
    return out


US_PACIFIC = {("united_states", "dreadnought", "san_diego"): 1,
              ("united_states", "battleship", "san_diego"): 2,
              ("united_states", "battleship", "philippines"): 1}


def test_C_21_colonial_deployment_of_august_1914(data):
    land = _land(data, "1914")
    assert _british(land) == {"biafra": 1, "cape_colony": 1, "kuwait": 1, "egypt": 1, "sydney": 1}
    assert all(units == {(CORPS, 1)} for (p, c), units in land.items() if c == "britain")
    assert land[("japan", "japan")] == JAPAN_FORCE
    japan = next(d for d in data.deployments_at("1914") if d.country == "japan")
    assert set(japan.alternatives) == {"formosa", "korea"}          # "in Japan or its colonies"
    assert _fleet(data, "1914") == {("britain", "battlecruiser", "sydney"): 1,
                                    ("germany", "battlecruiser", "tsingtao"): 1,
                                    ("japan", "dreadnought", "japan"): 1,
                                    ("japan", "battleship", "japan"): 1, **US_PACIFIC}
    assert data.scenario.colonies == {}


def test_C_22_colonial_deployment_of_1915():
    data = read_goa("goa/1915")
    land = _land(data, "1915")
    assert _british(land) == {"biafra": 1, "cape_colony": 1, "kuwait": 1, "egypt": 1, "uganda": 1}
    assert land[("caucasus", "russia")] == {((3, 5, 3), 3)}
    assert land[("japan", "japan")] == JAPAN_FORCE
    assert _fleet(data, "1915") == {("japan", "dreadnought", "japan"): 1,
                                    ("japan", "battleship", "japan"): 1, **US_PACIFIC}
    assert data.scenario.colonies == {"solomons": "allied", "tsingtao": "allied"}
    assert data.scenario.countries["japan"].side == "allied"


def test_C_23_colonial_deployment_of_1916():
    data = read_goa("goa/1916")
    land = _land(data, "1916")
    assert _british(land) == {"biafra": 1, "kuwait": 1, "egypt": 1, "uganda": 1, "zambia": 1}
    assert land[("caucasus", "russia")] == {((3, 5, 3), 3)}
    assert _fleet(data, "1916")[("japan", "dreadnought", "japan")] == 2
    assert data.scenario.colonies == {"solomons": "allied", "tsingtao": "allied",
                                      "namibia": "allied"}


def test_C_24_colonial_deployment_of_1917():
    data = read_goa("goa/1917")
    land = _land(data, "1917")
    assert _british(land) == {"kuwait": 1, "egypt": 2, "uganda": 1, "zambia": 1, "kenya": 1,
                              "persia": 1}
    assert land[("armenia", "russia")] == {((3, 5, 3), 3)}
    assert ("caucasus", "russia") not in land
    assert {p for (p, c) in land if c == "turkey"} == {"syria", "iraq"}
    assert _fleet(data, "1917")[("japan", "dreadnought", "japan")] == 2
    assert {k for k, v in data.scenario.colonies.items() if v == "allied"} >= {
        "kamerun", "darfur", "armenia", "solomons", "tsingtao", "namibia"}


def test_C_25_colonial_deployment_of_1918():
    data = read_goa("goa/1918")
    land = _land(data, "1918")
    # the corps once in Kuwait is now in Iraq; Russia is out of the war (ruling: its corps go)
    assert _british(land) == {"iraq": 1, "egypt": 2, "uganda": 1, "zambia": 1, "kenya": 1,
                              "persia": 1}
    assert not any(c == "russia" for (_, c) in land)
    # Turkish corps: Caucasus (C.25) and Syria; the one in Iraq is gone with Iraq (ruling)
    assert {p for (p, c) in land if c == "turkey"} == {"caucasus", "syria"}
    assert _fleet(data, "1918")[("japan", "dreadnought", "japan")] == 3
    col = data.scenario.colonies
    assert col["iraq"] == "allied" and col["caucasus"] == "central"
    assert "armenia" not in col                         # Turkish again: its owner's side
