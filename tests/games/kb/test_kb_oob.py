"""Order of battle of The Kaiser's Battle (SPI 1980): counters.toml against the rulebook.

Reads the scenario data with tomllib only. Every expected number below was tallied by hand
from the counter manifest, the set-up lists 18.1-18.2 and the schedule 15.3 of seed 002;
none is computed from the TOML. Corrections and rulings: docs/rulings_oob_kb.md.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
COUNTERS = ROOT / "src" / "gwe_fast" / "data" / "kaisers_battle" / "counters.toml"

NATIONALITIES = {"german", "british", "french"}
TYPES = {"infantry", "cavalry", "engineer", "hq", "replacement"}
SIZES = {"company", "battalion", "regiment", "brigade", "division"}
STACKING = {"company": 1, "battalion": 2, "regiment": 4, "brigade": 4, "division": 12}

# --------------------------------------------------------------------------- rule text
# 18.1 and 18.2 as printed in the rulebook (seed 002), OCR noise included.
RULE_18_1 = (
    "4203: 3xxx; 4204: 9xxx; 4308: 17xxx; 4614: 4Rxxx; 4623: Gaylxxx; 3902: 88/3; "
    "4101: 113/3; 3903: 28/3; 4102: 6/3; 4103: 206/3; 4104: 5/3; 4202: 23/3; 3804: 50/9; "
    "3806: 45R/9; 4105: 231/9; 4106: 5G/9; 4205: 1G/9; 3908: 238/17; 4109: 36/17; "
    "4310: 1B/17; 4207: 9/17; 4408: 10/17; 4407: 10R/17; 4508: 7R/17; 4610: 51R/17; "
    "4411: 34/4R; 4412: 37/4R; 4414: 103/4R; 4611: 33/4R; 4616: 15/13/Gyl; 4618: 60/13/Gyl; "
    "4520: 82/13/Gyl; 4525: 218/47/Gyl; 4426: 219/47/Gyl; 4328: 220/47/Gyl; 4523: 223/Gyl."
)
RULE_18_2 = (
    "3801: 5GH/61/18; 3802: 40B/61/18; 2902: 4BK/61/18; 3304: 478/18, 479/18, 6WA/61/18, "
    "5GL/61/18; 3104: 7WA/61/18, 9RS/61/18, 5DC/61/18, 476/18; 3803: 8WO/61/18; "
    "3202: 8AR/61/18; 0820: 59/20/18; 0720: 61/20/18; 2016: 60/20/18; 3321: 3xxx; "
    "2708: 18xxx; 3707: 2WL/30/18; 3009: 2GR/30/18; 2911: 17MN/30/18, 11SL/30/18, 200/18, "
    "201/18, 202/18; 2405: 89/30/18; 3107: 2BD/30/18; 2605: 2SF/30/18; 3705: 16MN/30/18; "
    "1303: 6/3Cv/18, 7/3Cv/18, Cd/3Cv/18; 3612: 11R/36/18; 3213: 21R/36/18, 91R/36/18, "
    "9IN/36/18; 4009: 151R/36/18; 4210: 121R/36/18; 3713: 11F/36/18; 3311: 11N/36/18; "
    "3808: 21N/36/18; 3811: 161R/36/18; 2016: 150/18; 2516: 83/18; 1615: 84/18; "
    "3013: 121/18; 2801: 103/18; 2402: 129/18; 4312: 8KR/14/3; 3914: 7RB/14/3; "
    "4115: 8RB/14/3, 11KN/14/3; 3618: 50B/14/3, 79/3; 4313: 9KR/14/3; 3321: 5/2Cv/3, "
    "9RB/14/3; 4315: 6SM/14/3; 3820: 9SR/14/3; 4216: 7KR/14/3; 4118: 10ES/18/3; "
    "4317: 8BK/18/3; 4319: 7WK/18/3; 2626: 54/18/3, 14E/3; 4122: 7QU/18/3; 4322: 7BF/18/3; "
    "3424: 8SY/18/3; 4120: 8SX/18/3; 4324: 2LN/58/3; 3827: 182/3, 503/3, 3LN/58/3; "
    "4226: 4LN/58/3, 4SK/58/3; 1727: 3/2Cv/3, 4/2Cv/3; 3317: 61/3, 62/3, 89/3; "
    "3623: 80/3, 92/3; 2223: 21E/3."
)
# OCR readings in 18.2 whose letters are digits (I read as 1, O read as 0); see rulings.
OCR_18_2 = {
    "40B/61/18": "4OB/61/18",
    "50B/14/3": "5OB/14/3",
    "11R/36/18": "1IR/36/18",
    "21R/36/18": "2IR/36/18",
    "91R/36/18": "9IR/36/18",
    "151R/36/18": "15IR/36/18",
    "121R/36/18": "12IR/36/18",
    "11F/36/18": "1IF/36/18",
    "11N/36/18": "1IN/36/18",
    "21N/36/18": "2IN/36/18",
    "161R/36/18": "16IR/36/18",
}
# 15.3 as printed.
RULE_15_3 = {
    2: "8LN/58/3(A), 149/50/19(C), 150/50/19(C), 19 Corps HQ(C)",
    3: "25/9/5(B), 26/9/5(B), 27/9/5(B), 5 Corps HQ(B)",
    4: "23/8/19(C), 24/8/19(C), 25/8/19(C), 17/24/19(D), 72/24/19(D), 73/24/19(D), "
       "1/1Cv/19(D), 2/1Cv/19(D), 9/1Cv/19(D)",
    6: "28/10/5(B), 29/10/5(B), 30/10/5(B)",
    7: "184/62/5(B), 185/62/5(B), 186/62/5(B), 64/22/5(B), 65/22/5(B), 66/22/5(B)",
}


def parse_setup(text: str, fixes: dict[str, str] | None = None) -> Counter:
    """'hex: a, b; hex: c.' -> Counter of (hex, name)."""
    fixes = fixes or {}
    out: Counter = Counter()
    for part in text.rstrip(".").split(";"):
        hex_, names = part.split(":")
        for name in names.split(","):
            name = name.strip()
            out[(hex_.strip(), fixes.get(name, name))] += 1
    return out


def parse_schedule() -> Counter:
    out: Counter = Counter()
    for turn, text in RULE_15_3.items():
        for item in text.split(","):
            m = re.fullmatch(r"\s*(.+?)\((\w)\)\s*", item)
            assert m, item
            name = re.sub(r"^(\d+) Corps HQ$", r"\1xxx", m.group(1))
            out[(name, turn, m.group(2))] += 1
    return out


# --------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def data() -> dict:
    with COUNTERS.open("rb") as fh:
        return tomllib.load(fh)


@pytest.fixture(scope="module")
def units(data) -> list[dict]:
    return data["unit"]


def by_nat(units, nat):
    return [u for u in units if u["nationality"] == nat]


# --------------------------------------------------------------------------- tests
def test_meta(data):
    assert data["meta"]["game"] == "kb"
    assert "seed 002" in data["meta"]["source"]


def test_ids_unique_and_well_formed(units):
    ids = [u["id"] for u in units]
    assert len(ids) == len(set(ids)) == 184
    prefix = {"german": "ge-", "british": "br-", "french": "fr-"}
    for u in units:
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", u["id"]), u["id"]
        assert u["id"].startswith(prefix[u["nationality"]]), u["id"]


def test_exactly_one_placement(units):
    for u in units:
        kinds = [k for k in ("setup", "turn", "pool") if k in u]
        assert len(kinds) == 1, (u["id"], kinds)
        if "setup" in u:
            assert re.fullmatch(r"\d{4}", u["setup"]) and "entry" not in u, u["id"]
        if "turn" in u:
            assert u["entry"] in {"A", "B", "C", "D"}, u["id"]
        else:
            assert "entry" not in u, u["id"]


def test_2_2_fields_and_vocabulary(units):
    for u in units:
        assert u["nationality"] in NATIONALITIES, u["id"]
        assert u["side"] == ("central" if u["nationality"] == "german" else "allied"), u["id"]
        assert u["type"] in TYPES, u["id"]
        assert u["size"] in SIZES, u["id"]
        assert isinstance(u["stoss"], bool), u["id"]
        assert u["name"], u["id"]


def test_2_22_counts_per_nationality(units):
    assert Counter(u["nationality"] for u in units) == {
        "german": 75, "british": 96, "french": 13}


def test_2_23_counts_per_type(units):
    assert Counter((u["nationality"], u["type"]) for u in units) == {
        ("german", "hq"): 5,
        ("german", "infantry"): 31,  # 25 divisions + 6 Gruppe Gayl regiments
        ("german", "replacement"): 39,
        ("british", "hq"): 3,
        ("british", "infantry"): 64,  # 48 bns + 2 entrenching bns + 13 brigades + 4SK coy
        ("british", "cavalry"): 9,
        ("british", "engineer"): 20,
        ("french", "hq"): 1,
        ("french", "infantry"): 12,
    }


def test_2_22_counts_per_size(units):
    assert Counter((u["nationality"], u["size"]) for u in units) == {
        ("german", "company"): 5,
        ("german", "division"): 25,
        ("german", "regiment"): 45,
        ("british", "company"): 24,
        ("british", "battalion"): 59,
        ("british", "brigade"): 13,
        ("french", "company"): 1,
        ("french", "regiment"): 12,
    }


def test_manifest_values(units):
    """Front and back values as printed (after the corrections in the rulings)."""
    got = Counter((u["nationality"], u["type"], u["size"], str(u["steps"])) for u in units)
    assert got == {
        ("german", "hq", "company", "[[1, 4, 4]]"): 5,
        ("german", "infantry", "division", "[[30, 4, 5], [20, 4, 5]]"): 15,
        ("german", "infantry", "division", "[[30, 3, 4], [20, 3, 4]]"): 8,
        ("german", "infantry", "division", "[[30, 5, 5], [20, 5, 5]]"): 1,
        ("german", "infantry", "division", "[[30, 4, 4], [20, 4, 4]]"): 1,
        ("german", "infantry", "regiment", "[[10, 3, 3], [5, 3, 3]]"): 6,
        ("german", "replacement", "regiment", "[[10, 3, 3]]"): 39,
        ("british", "hq", "company", "[[1, 4, 4]]"): 3,
        ("british", "infantry", "battalion", "[[3, 3, 4]]"): 43,
        ("british", "infantry", "battalion", "[[2, 3, 4]]"): 5,  # pioneer battalions
        ("british", "infantry", "battalion", "[[2, 2, 3]]"): 2,  # entrenching battalions
        ("british", "infantry", "brigade", "[[10, 4, 4], [5, 4, 4]]"): 7,
        ("british", "infantry", "brigade", "[[10, 5, 4], [5, 5, 4]]"): 3,
        ("british", "infantry", "brigade", "[[6, 3, 4], [3, 3, 4]]"): 3,
        ("british", "infantry", "company", "[[1, 3, 3]]"): 1,
        ("british", "cavalry", "battalion", "[[4, 4, 6]]"): 9,
        ("british", "engineer", "company", "[[1, 3, 3]]"): 20,
        ("french", "hq", "company", "[[1, 4, 4]]"): 1,
        ("french", "infantry", "regiment", "[[10, 4, 4], [5, 4, 4]]"): 12,
    }


def test_7_1_stacking_points(units):
    for u in units:
        assert u["stacking"] == STACKING[u["size"]], u["id"]
    for u in units:
        if u["type"] == "hq":  # 2.22 note 2 and 7.1[4]
            assert u["size"] == "company" and u["stacking"] == 1, u["id"]


def test_7_0_setup_stacks_within_12_points(units):
    stacks: Counter = Counter()
    for u in units:
        if "setup" in u:
            stacks[(u["side"], u["setup"])] += u["stacking"]
    assert max(stacks.values()) <= 12
    # 18.1 and 18.2 never put two sides in one hex
    hexes = Counter(h for (_, h) in stacks)
    assert all(n == 1 for n in hexes.values())


def test_8_5_steps(units):
    for u in units:
        steps = u["steps"]
        assert all(len(s) == 3 and all(isinstance(v, int) for v in s) for s in steps), u["id"]
        assert all(a[0] > b[0] for a, b in zip(steps, steps[1:])), u["id"]  # strongest first
        if u["size"] == "division":  # front, back; third step from the pool
            assert len(steps) == 2 and u["third_step"] == "regimental_replacement", u["id"]
        elif u["size"] in {"brigade", "regiment"} and u["type"] != "replacement":
            assert len(steps) == 2 and "third_step" not in u, u["id"]
        else:
            assert len(steps) == 1 and "third_step" not in u, u["id"]
    assert sum(len(u["steps"]) for u in units) == 184 + 25 + 6 + 13 + 12


def test_13_2_regimental_replacement_pool(units):
    pool = [u for u in units if u.get("pool") == "regimental_replacement"]
    assert len(pool) == 39
    for u in pool:
        assert u["nationality"] == "german" and u["type"] == "replacement", u["id"]
        assert u["size"] == "regiment" and u["steps"] == [[10, 3, 3]], u["id"]
        assert u["stoss"] is False  # 13.24
        assert "corps" not in u and "division" not in u, u["id"]
    assert {u.get("pool") for u in units} == {None, "regimental_replacement"}


def test_15_22_service_company_backs(units):
    backed = [u for u in units if "service_company" in u]
    assert len(backed) == 50
    for u in backed:
        assert u["nationality"] == "british" and u["type"] == "infantry", u["id"]
        assert u["size"] == "battalion" and u["service_company"] == [1, 1, 3], u["id"]
    # every British infantry battalion has one; nothing else does (cavalry, companies, HQs)
    assert {u["id"] for u in backed} == {
        u["id"] for u in units
        if u["nationality"] == "british" and u["type"] == "infantry" and u["size"] == "battalion"}


def test_15_2_no_variable_pool_counters(units):
    """Service companies are the reverse faces of battalions, not separate counters."""
    assert not [u for u in units if u.get("pool") == "variable"]
    assert not [u for u in units if u["type"] == "service"]


def test_16_0_corps_attachments(units):
    for u in units:
        if u["type"] == "replacement":
            continue
        assert u.get("corps"), u["id"]
        if u["size"] != "division" and u["type"] != "hq":
            assert u["name"].split("/")[-1] == u["corps"], u["id"]
    corps = Counter((u["nationality"], u["corps"]) for u in units if "corps" in u)
    assert corps == {
        ("german", "3"): 8, ("german", "9"): 6, ("german", "17"): 9, ("german", "4R"): 5,
        ("german", "Gyl"): 8,
        ("british", "18"): 47, ("british", "3"): 37, ("british", "19"): 12,
        ("french", "5"): 13,
    }
    hqs = {(u["nationality"], u["corps"]) for u in units if u["type"] == "hq"}
    assert hqs == set(corps)  # one HQ per corps, none without


def test_hq_values(units):
    hqs = [u for u in units if u["type"] == "hq"]
    assert len(hqs) == 9
    for u in hqs:
        assert u["steps"] == [[1, 4, 4]], u["id"]
        assert u["supply_range"] == 6 and u["communications_range"] == 12, u["id"]  # 14.13
        assert u["field_artillery_range"] == 10, u["id"]  # 9.11
        assert u["second_segment"] is False, u["id"]  # 5.23


def test_8_83_stosstruppen(units):
    stoss = sorted(u["name"] for u in units if u["stoss"])
    assert stoss == sorted([
        "88/3", "113/3", "28/3", "6/3", "5/3", "50/9", "45R/9", "5G/9",
        "238/17", "36/17", "1B/17", "9/17", "10/17", "34/4R", "37/4R", "103/4R",
    ])
    for u in units:
        if u["stoss"]:
            assert u["nationality"] == "german" and u["size"] == "division", u["id"]


def test_18_1_german_setup(units):
    expected = parse_setup(RULE_18_1)
    assert sum(expected.values()) == 36
    got = Counter((u["setup"], u["name"]) for u in by_nat(units, "german") if "setup" in u)
    assert got == expected
    assert not [u for u in by_nat(units, "german") if "turn" in u]


def test_18_2_allied_setup(units):
    expected = parse_setup(RULE_18_2, OCR_18_2)
    assert sum(expected.values()) == 83
    allied = [u for u in units if u["side"] == "allied"]
    got = Counter((u["setup"], u["name"]) for u in allied if "setup" in u)
    assert got == expected
    assert all(u["nationality"] == "british" for u in allied if "setup" in u)


def test_15_3_reinforcement_schedule(units):
    expected = parse_schedule()
    assert sum(expected.values()) == 26
    got = Counter((u["name"], u["turn"], u["entry"]) for u in units if "turn" in u)
    assert got == expected
    french = by_nat(units, "french")
    assert len(french) == 13 and all("turn" in u for u in french)
    assert Counter(u["nationality"] for u in units if "turn" in u) == {"british": 13, "french": 13}


def test_15_3_turns_and_entries(units):
    assert Counter(u["turn"] for u in units if "turn" in u) == {2: 4, 3: 4, 4: 9, 6: 3, 7: 6}
    assert Counter(u["entry"] for u in units if "entry" in u) == {"A": 1, "B": 13, "C": 6, "D": 6}


def test_ocr_corrections_applied(units):
    names = {u["name"] for u in units}
    for bad in ("15xxx", "56/9", "18/17", "148/50/19", "66/20/18", "40B/61/18", "50B/14/3",
                "48K/61/18", "2VWL/30/18", "28D/30/18", "11KM/14/3", "88K/18/3", "78F/18/3",
                "8SV/18/3", "47R/18"):
        assert bad not in names, bad
    by_name = {(u["nationality"], u["name"]): u for u in units}
    assert by_name[("british", "8AR/61/18")]["setup"] == "3202"
    assert by_name[("british", "2IN/36/18")]["setup"] == "3808"
    assert by_name[("british", "89/3")]["setup"] == "3317"
    assert by_name[("british", "89/3")]["size"] == "company"
    assert by_name[("british", "14E/3")]["size"] == "battalion"
    assert by_name[("french", "5xxx")]["side"] == "allied"
