"""The Brusilov Offensive counter manifest, decoded into data/brusilov/counters.toml.

These tests read the TOML with ``tomllib`` only (no gwe_fast imports). Every expected
number below was tallied by hand from the OCR'd manifest (seed 001, "BRUSILOV OFFENSIVE
COUNTERS (FRONT)" / "(BACK)") and the exclusive rules; see docs/rulings.md (the
"Brusilov counter manifest" section) for each correction.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest

COUNTERS = Path(__file__).resolve().parents[3] / "src" / "gwe_fast" / "data" / "brusilov" / "counters.toml"

with COUNTERS.open("rb") as _fh:
    DATA = tomllib.load(_fh)
UNITS: list[dict] = DATA["unit"]

COMMON_KEYS = {"id", "name", "side", "nationality", "type", "size", "stacking", "steps",
               "setup", "turn", "entry", "option", "note"}
HQ_KEYS = {"attack_shift", "command_strength", "command_radius", "combat", "heroic", "army"}

# Every four-digit hex printed in the front manifest (units and depots).
MANIFEST_HEXES = set("""
0110 0111 0210 0211 0308 0310 0311 0409 0410 0415 0510 0511 0609 0610 0709 0710 0717 0808
0809 0810 0811 0812 0911 1010 1011 1107 1108 1110 1112 1113 1210 1211 1310 1311 1410 1411
1413 1511 1512 1611 1612 1710 1711 1712 1719 1811 1812 1907 1910 1912 1913 1914 2011 2012
2111 2112 2211 2212 2309 2310 2311 2312 2313 2408 2411 2412 2511 2512 2607 2609 2611 2705
2708 2709 2710 2807 2808 2903 2906 2907 2908 3005 3006 3007 3011 3106 3107 3108
""".split())


# Counters name the scenario options they need (26.31 sga_early, 26.34 better_commanders);
# the tests speak of the printed codes SGA and OP. GGU needs both options and prints OP.
OPTION_CODE = {"sga_early": "SGA", "better_commanders": "OP"}


def option_code(u: dict) -> str:
    opts = u["option"] if isinstance(u["option"], list) else [u["option"]]
    return OPTION_CODE[opts[0]]


def find(nationality: str, name: str, type_: str | None = None) -> dict:
    hits = [u for u in UNITS if u["nationality"] == nationality and u["name"] == name
            and (type_ is None or u["type"] == type_)]
    assert len(hits) == 1, f"{nationality} {name} {type_}: {len(hits)} matches"
    return hits[0]


def front(u: dict) -> list[int]:
    return u["steps"][0]


# --------------------------------------------------------------------------- file shape


def test_meta_block():
    assert DATA["meta"]["game"] == "gwe"
    assert "seed 001" in DATA["meta"]["source"]


def test_only_known_keys():
    for u in UNITS:
        allowed = COMMON_KEYS | (HQ_KEYS if u["type"] == "hq" else set())
        assert set(u) <= allowed, (u["id"], set(u) - allowed)
        if u["type"] == "hq":
            assert {"attack_shift", "command_strength", "command_radius", "combat", "heroic"} <= set(u), u["id"]


def test_ids_unique_and_well_formed():
    ids = [u["id"] for u in UNITS]
    assert len(ids) == len(set(ids))
    prefix = {"russian": "ru-", "german": "ge-", "austro_hungarian": "ah-"}
    for u in UNITS:
        assert re.fullmatch(r"[a-z0-9-]+", u["id"]), u["id"]
        assert u["id"].startswith(prefix[u["nationality"]]), u["id"]
        assert u["side"] == ("allied" if u["nationality"] == "russian" else "central"), u["id"]


def test_3_0_exactly_one_placement():
    for u in UNITS:
        kinds = [("setup" in u), ("turn" in u or "entry" in u), ("option" in u)]
        assert sum(kinds) == 1, u["id"]
        if "setup" in u:
            assert re.fullmatch(r"\d{4}", u["setup"]), u["id"]
        if "turn" in u or "entry" in u:
            assert isinstance(u["turn"], int) and 1 <= u["turn"] <= 14, u["id"]
            # 14.0/20.12: all Russian reinforcements enter at B, all Central Powers ones at A
            assert u["entry"] == ("B" if u["side"] == "allied" else "A"), u["id"]
        if "option" in u:
            assert option_code(u) in {"SGA", "OP"}, u["id"]
            assert u["nationality"] == "russian", u["id"]


def test_3_0_setup_hexes_appear_in_manifest():
    for u in UNITS:
        if "setup" in u:
            assert u["setup"] in MANIFEST_HEXES, (u["id"], u["setup"])


# --------------------------------------------------------------------------- counter mix


def test_2_6_counter_mix_by_nationality_and_type():
    # 200 printed counters = 182 units + 18 markers (3 RR, 2 VP, 2 Corps Reduction, 1 Game-Turn, 10 OCC).
    expected = {
        ("russian", "infantry"): 58,        # 4 SGA corps + 53 divisions + ST brigade
        ("russian", "cavalry"): 20,         # GD cavalry corps + 19 divisions
        ("russian", "armored_car"): 1,
        ("russian", "hq"): 7,               # 8KA 11SA 7SH 9LE GBZ 8KL GGU
        ("russian", "depot"): 11,           # 7 numbered + 4 blank
        ("german", "infantry"): 14,         # 11 divisions + BI, JA, 37
        ("german", "cavalry"): 3,           # brigades 1, 3, GR
        ("german", "hq"): 3,                # SA BH 10
        ("austro_hungarian", "infantry"): 40,  # 39 divisions + 202 brigade
        ("austro_hungarian", "cavalry"): 11,
        ("austro_hungarian", "hq"): 4,      # 4FE 1 2BE 7BA
        ("austro_hungarian", "depot"): 10,  # 4 numbered + 6 blank
    }
    got = Counter((u["nationality"], u["type"]) for u in UNITS)
    assert dict(got) == expected
    assert len(UNITS) == 182


def test_2_32_counter_mix_by_size():
    expected = {
        ("russian", "corps"): 5, ("russian", "division"): 72, ("russian", "brigade"): 1,
        ("russian", "army"): 7, ("russian", "none"): 12,
        ("german", "division"): 11, ("german", "brigade"): 6, ("german", "army"): 2, ("german", "none"): 1,
        ("austro_hungarian", "division"): 50, ("austro_hungarian", "brigade"): 1,
        ("austro_hungarian", "army"): 4, ("austro_hungarian", "none"): 10,
    }
    assert dict(Counter((u["nationality"], u["size"]) for u in UNITS)) == expected


def test_3_0_placement_mix():
    """Hand tally of the front manifest: set-up hexes, turn+letter, SGA, OP."""

    def kind(u):
        return "setup" if "setup" in u else "turn" if "turn" in u else option_code(u)

    expected = {
        # rows 1-10: 5 + 9 + 10 + 10 + 6 + 2 (ST, AC) + 10 + 5 cavalry + 7 depots + 4 HQs
        ("russian", "setup"): 68,
        # 13 infantry (1TU 2TU 9S 10S 45 46 22 24 27 117 8 10 108) + 4 cavalry (NC 3 UC TBC) + 4 blank depots
        ("russian", "turn"): 21,
        ("russian", "SGA"): 6,   # 1GD 2GD 1 30 (corps), GD cavalry corps, GBZ
        ("russian", "OP"): 2,    # 8KL GGU
        ("german", "setup"): 2,  # 48R, SA
        ("german", "turn"): 18,
        ("austro_hungarian", "setup"): 55,
        ("austro_hungarian", "turn"): 10,  # 61 48 44 59 + 6 blank depots
    }
    assert dict(Counter((u["nationality"], kind(u)) for u in UNITS)) == expected


# --------------------------------------------------------------------------- stacking and steps


def test_6_11_stacking_points():
    by_size = {"brigade": 1, "division": 2, "corps": 4}
    for u in UNITS:
        if u["type"] == "hq":
            assert u["stacking"] == 0, u["id"]            # 6.11 HQ units
        elif u["type"] == "depot":
            assert u["stacking"] == 2, u["id"]            # 18.24
        elif u["type"] == "armored_car":
            assert u["stacking"] == 0, u["id"]            # 24.31
        else:
            assert u["stacking"] == by_size[u["size"]], u["id"]


def test_18_24_depots_stack_2():
    depots = [u for u in UNITS if u["type"] == "depot"]
    assert depots and all(u["stacking"] == 2 and u["size"] == "none" for u in depots)


def test_24_31_armored_car():
    (ac,) = [u for u in UNITS if u["type"] == "armored_car"]
    assert ac["nationality"] == "russian" and ac["name"] == "AC"
    assert ac["stacking"] == 0
    assert ac["steps"] == [[1, 1, 6]]                     # 24.32: one step; the back is a breakdown state
    assert ac["setup"] == "3006"


def test_8_51_8_52_step_counts():
    for u in UNITS:
        n = len(u["steps"])
        if u["type"] in ("depot", "armored_car"):
            assert n == 1, u["id"]                        # 8.51, 24.32
        elif u["type"] == "hq":
            assert n in (1, 2), u["id"]                   # 10.54 reverse side
        elif u["size"] == "brigade":
            assert n == 1, u["id"]                        # every brigade back is blank in the manifest
        elif u["size"] == "division":
            assert n == 2, u["id"]                        # 8.52
        else:
            assert u["size"] == "corps" and n == 4, u["id"]  # 8.53
        for row in u["steps"]:
            assert len(row) == 3 and all(isinstance(x, int) and x >= 0 for x in row), u["id"]
        # strongest first
        for a, b in zip(u["steps"], u["steps"][1:]):
            assert a[0] >= b[0] and a[1] >= b[1], u["id"]


def test_8_53_corps_reduction_steps():
    expected = {
        ("1GD", "infantry"): [[8, 15, 4], [7, 14, 4], [4, 8, 4], [3, 7, 4]],
        ("2GD", "infantry"): [[8, 15, 4], [7, 14, 4], [4, 8, 4], [3, 7, 4]],
        ("1", "infantry"): [[7, 14, 4], [6, 13, 4], [3, 7, 4], [2, 6, 4]],
        ("30", "infantry"): [[6, 12, 4], [5, 11, 4], [2, 6, 4], [1, 5, 4]],
        ("GD", "cavalry"): [[3, 4, 6], [2, 3, 6], [1, 2, 6], [0, 1, 6]],
    }
    corps = [u for u in UNITS if u["size"] == "corps"]
    assert {(u["name"], u["type"]) for u in corps} == set(expected)
    for u in corps:
        assert u["steps"] == expected[(u["name"], u["type"])], u["id"]
        # the -1 marker takes one from attack and defense, never from movement
        assert u["steps"][1] == [u["steps"][0][0] - 1, u["steps"][0][1] - 1, u["steps"][0][2]]
        assert u["steps"][3] == [max(u["steps"][2][0] - 1, 0), u["steps"][2][1] - 1, u["steps"][2][2]]


def test_2_31_division_values_front_and_back():
    classes = Counter((u["nationality"], u["type"], tuple(map(tuple, u["steps"])))
                      for u in UNITS if u["size"] == "division")
    expected = {
        ("russian", "infantry", ((4, 5, 4), (2, 3, 4))): 2,    # 2RF 4RF
        ("russian", "infantry", ((3, 5, 4), (1, 3, 4))): 5,    # 102 125 101 1TU 2TU
        ("russian", "infantry", ((2, 4, 4), (1, 2, 4))): 46,
        ("russian", "cavalry", ((2, 2, 6), (1, 1, 6))): 2,     # 6DC 1DC
        ("russian", "cavalry", ((1, 2, 6), (0, 1, 6))): 17,
        ("german", "infantry", ((4, 6, 5), (2, 4, 5))): 11,
        ("austro_hungarian", "infantry", ((2, 5, 4), (1, 2, 4))): 5,   # 4 37 32 51 21RF
        ("austro_hungarian", "infantry", ((2, 4, 4), (0, 1, 4))): 32,
        ("austro_hungarian", "infantry", ((2, 3, 5), (0, 1, 5))): 1,   # PL
        ("austro_hungarian", "infantry", ((1, 3, 4), (0, 1, 4))): 1,   # 39
        ("austro_hungarian", "cavalry", ((1, 2, 6), (0, 1, 6))): 1,    # 11
        ("austro_hungarian", "cavalry", ((1, 1, 6), (0, 1, 6))): 10,
    }
    assert dict(classes) == expected


def test_2_31_brigade_values():
    got = {(u["nationality"], u["name"]): (u["type"], u["steps"]) for u in UNITS if u["size"] == "brigade"}
    assert got == {
        ("russian", "ST"): ("infantry", [[1, 2, 4]]),
        ("german", "BI"): ("infantry", [[2, 3, 5]]),
        ("german", "JA"): ("infantry", [[2, 3, 5]]),
        ("german", "37"): ("infantry", [[2, 3, 5]]),
        ("german", "1"): ("cavalry", [[1, 2, 6]]),
        ("german", "3"): ("cavalry", [[0, 1, 6]]),
        ("german", "GR"): ("cavalry", [[0, 1, 6]]),
        ("austro_hungarian", "202"): ("infantry", [[1, 3, 4]]),
    }


# --------------------------------------------------------------------------- HQs


HQ_TABLE = {
    # (nationality, name): (shift, strength, radius, combat, movement, placement, reverse shift-strength-radius)
    ("russian", "8KA"): (2, 16, 5, 1, 6, "0308", "1-12-4"),
    ("russian", "11SA"): (1, 12, 4, 1, 6, "1907", "0-8-3"),
    ("russian", "7SH"): (1, 12, 4, 1, 6, "2408", "0-8-3"),
    ("russian", "9LE"): (2, 16, 6, 1, 6, "2705", "1-12-4"),
    ("russian", "GBZ"): (1, 12, 5, 1, 6, "SGA", "0-8-4"),
    ("russian", "8KL"): (2, 16, 6, 1, 6, "OP", "1-14-5"),
    ("russian", "GGU"): (2, 16, 6, 1, 6, "OP", "1-12-5"),
    ("german", "SA"): (2, 24, 8, 1, 8, "1914", "1-16-6"),
    ("german", "BH"): (2, 20, 8, 1, 8, "3A", None),     # reverse exists, values lost in the OCR
    ("german", "10"): (1, 8, 3, 1, 8, "6A", None),
    ("austro_hungarian", "4FE"): (1, 14, 4, 1, 6, "0812", "0-10-3"),
    ("austro_hungarian", "1"): (1, 10, 3, 1, 6, "1113", "0-8-3"),
    ("austro_hungarian", "2BE"): (1, 12, 3, 1, 6, "1413", "0-10-3"),
    ("austro_hungarian", "7BA"): (1, 16, 4, 1, 6, "2313", "0-12-3"),
}


def placement(u: dict) -> str:
    if "setup" in u:
        return u["setup"]
    if "turn" in u:
        return f"{u['turn']}{u['entry']}"
    return option_code(u)


def test_10_11_hq_values():
    hqs = {(u["nationality"], u["name"]): u for u in UNITS if u["type"] == "hq"}
    assert set(hqs) == set(HQ_TABLE)
    for key, (shift, strength, radius, combat, ma, place, reverse) in HQ_TABLE.items():
        u = hqs[key]
        assert (u["attack_shift"], u["command_strength"], u["command_radius"]) == (shift, strength, radius), key
        assert u["combat"] == combat, key
        assert u["steps"][0] == [0, combat, ma], key          # not heroic: attack 0, defends with combat
        assert placement(u) == place, key
        if reverse:
            assert f"{reverse} shift-strength-radius" in u["note"], key


def test_10_12_no_heroic_leaders():
    # every HQ prints its combat strength in parentheses "(1)": 8.12/10.51, so no "H" leaders
    for u in UNITS:
        if u["type"] == "hq":
            assert u["heroic"] is False, u["id"]
            assert all(row[0] == 0 for row in u["steps"]), u["id"]


def test_10_54_reverse_sides():
    with_back = {(u["nationality"], u["name"]) for u in UNITS if u["type"] == "hq" and len(u["steps"]) == 2}
    assert with_back == set(HQ_TABLE) - {("german", "10")}
    for u in UNITS:
        if u["type"] == "hq":
            assert u["size"] == ("army" if len(u["steps"]) == 2 else "none"), u["id"]
            if len(u["steps"]) == 2:
                assert u["steps"][1] == u["steps"][0], u["id"]   # (1) and movement repeat on the back


def test_27_2_hq_armies():
    armies = {(u["nationality"], u["name"]): u.get("army") for u in UNITS if u["type"] == "hq"}
    assert armies == {
        ("russian", "8KA"): "8", ("russian", "11SA"): "11", ("russian", "7SH"): "7", ("russian", "9LE"): "9",
        ("russian", "GBZ"): "Guards", ("russian", "8KL"): "8", ("russian", "GGU"): "Guards",
        ("german", "SA"): "SA", ("german", "BH"): None, ("german", "10"): None,
        ("austro_hungarian", "4FE"): "4", ("austro_hungarian", "1"): "1",
        ("austro_hungarian", "2BE"): "2", ("austro_hungarian", "7BA"): "7",
    }


# --------------------------------------------------------------------------- depots


def test_20_23_depot_counters_equal_map_caps():
    ru = [u for u in UNITS if u["type"] == "depot" and u["nationality"] == "russian"]
    cp = [u for u in UNITS if u["type"] == "depot" and u["side"] == "central"]
    assert len(ru) == 11 and len(cp) == 10                  # 20.23 caps: 11 Russian, 10 Central Powers
    assert all(u["steps"] == [[0, 1, 3]] for u in ru)
    assert all(u["steps"] == [[0, 1, 2]] and u["nationality"] == "austro_hungarian" for u in cp)
    assert sorted(u["setup"] for u in ru if "setup" in u) == ["0308", "0308", "1110", "1910", "2310", "2607", "2903"]
    assert sorted(u["setup"] for u in cp if "setup" in u) == ["0415", "0812", "1719", "3011"]


def test_20_21_blank_depots_follow_supply_schedule():
    ru = sorted(u["turn"] for u in UNITS if u["type"] == "depot" and u["nationality"] == "russian" and "turn" in u)
    cp = sorted(u["turn"] for u in UNITS if u["type"] == "depot" and u["side"] == "central" and "turn" in u)
    assert ru == [2, 3, 4, 5]                  # one a turn from Game-Turn 2
    assert cp == [1, 2, 3, 3, 4, 4]            # one on turns 1 and 2, two a turn thereafter


# --------------------------------------------------------------------------- scenarios and special units


def test_26_21_attack_on_schedule_units():
    # 2-4-4: 95 (0907), 105 (0907), 45 (1007), 46 (1007) -- read as 9S and 10S (27.12 S = Siberian)
    for name in ("9S", "10S", "45", "46"):
        u = find("russian", name, "infantry")
        assert front(u) == [2, 4, 4] and u["size"] == "division"
        assert u["turn"] < 5                    # historical reinforcements already arrived by turn 5
    # 1-2-6 NC (0907)
    nc = find("russian", "NC", "cavalry")
    assert front(nc) == [1, 2, 6] and nc["turn"] < 5
    # 0-1-3 (0908), (2110): two spare generic Russian depots
    spare = [u for u in UNITS if u["type"] == "depot" and u["nationality"] == "russian" and "setup" not in u]
    assert len(spare) >= 2 and all(front(u) == [0, 1, 3] for u in spare)


def test_26_22_attack_on_schedule_reinforcements():
    # turn, values as printed in 26.22 (59 printed as 4-6-5; the manifest's 2-4-4 is kept), designations
    schedule = [
        (7, [2, 3, 5], ["BI", "JA"]), (7, "HQ", ["BH"]),
        (8, [1, 2, 6], ["1"]), (8, [4, 6, 5], ["108"]),
        (9, [0, 1, 6], ["3"]),
        (10, [2, 4, 4], ["61"]), (10, [0, 1, 6], ["GR"]),
        (11, [4, 6, 5], ["105"]),
        (12, "HQ", ["10"]), (12, [4, 6, 5], ["19", "20", "107"]),
        (13, [2, 4, 4], ["48"]), (13, [4, 6, 5], ["11B", "43R"]),
        (14, [2, 4, 4], ["44", "59"]), (14, [4, 6, 5], ["1R", "119"]),
        (15, [2, 3, 5], ["37"]), (15, [4, 6, 5], ["22"]),
    ]
    cp_reinforcements = {(u["nationality"], u["name"]) for u in UNITS
                         if u["side"] == "central" and "turn" in u and u["type"] != "depot"}
    seen = set()
    for aos_turn, values, names in schedule:
        for name in names:
            hits = [u for u in UNITS if u["side"] == "central" and u["name"] == name and "turn" in u
                    and u["type"] != "depot"]
            assert len(hits) == 1, name
            u = hits[0]
            if values == "HQ":
                assert u["type"] == "hq", name
            else:
                assert front(u) == values, name
            assert u["turn"] < aos_turn, name       # Attack on Schedule only delays them
            seen.add((u["nationality"], u["name"]))
    assert seen == cp_reinforcements               # 26.22 lists every Central Powers reinforcement


def test_14_0_historical_reinforcement_schedule():
    got = Counter((u["nationality"], u["turn"]) for u in UNITS if "turn" in u and u["type"] != "depot")
    assert dict(got) == {
        ("russian", 3): 3, ("russian", 4): 2, ("russian", 7): 2, ("russian", 9): 5,
        ("russian", 10): 3, ("russian", 11): 2,
        ("german", 3): 3, ("german", 4): 2, ("german", 5): 1, ("german", 6): 4, ("german", 7): 3,
        ("german", 8): 1, ("german", 10): 1, ("german", 11): 2, ("german", 12): 1,
        ("austro_hungarian", 5): 1, ("austro_hungarian", 8): 1, ("austro_hungarian", 11): 2,
    }


def test_23_42_sud_armee_units():
    # 23.42: 54, 55 (hex 2013 as printed; manifest 2012 kept), 38 (1914), 19, 32 (1812)
    expected = {"54": "2012", "55": "2012", "38": "1914", "19": "1812", "32": "1812"}
    for name, hex_ in expected.items():
        u = find("austro_hungarian", name, "infantry")
        assert u["size"] == "division" and u["setup"] == hex_, name
    assert find("german", "SA", "hq")["setup"] == "1914"
    assert find("german", "48R", "infantry")["setup"] == "1913"


def test_26_31_sga_units():
    sga = {(u["name"], u["type"], u["size"]) for u in UNITS if "option" in u and option_code(u) == "SGA"}
    assert sga == {("1GD", "infantry", "corps"), ("2GD", "infantry", "corps"), ("1", "infantry", "corps"),
                   ("30", "infantry", "corps"), ("GD", "cavalry", "corps"), ("GBZ", "hq", "army")}


def test_26_34_better_commanders():
    op = {u["name"] for u in UNITS if "option" in u and option_code(u) == "OP"}
    assert op == {"8KL", "GGU"}
    assert find("russian", "8KA", "hq")["setup"] == "0308"
    assert "0308" in find("russian", "8KL", "hq")["note"]          # takes 8KA's place
    assert find("russian", "GGU", "hq")["option"] == ["better_commanders", "sga_early"]  # only with the Guards option


def test_27_1_designations():
    names = {(u["nationality"], u["name"]) for u in UNITS}
    for key in [("german", "JA"), ("german", "BI"), ("german", "GR"), ("german", "11B"), ("german", "43R"),
                ("german", "1R"), ("austro_hungarian", "PL"), ("austro_hungarian", "21RF"),
                ("russian", "9S"), ("russian", "10S"), ("russian", "NC"), ("russian", "TBC"),
                ("russian", "UC"), ("russian", "VOL"), ("russian", "3TRF"), ("russian", "1TU")]:
        assert key in names, key
    # OCR forms that must not survive
    for key in [("german", "1A"), ("russian", "95"), ("austro_hungarian", "2FE"), ("austro_hungarian", "7EA"),
                ("russian", "GDB")]:
        assert key not in names, key
    assert sum(1 for u in UNITS if u["nationality"] == "austro_hungarian" and u["name"] == "61") == 1
    assert sum(1 for u in UNITS if u["nationality"] == "russian" and u["name"] == "46") == 1


@pytest.mark.parametrize("nationality", ["russian", "german", "austro_hungarian"])
def test_27_1_no_duplicate_designations_within_a_type(nationality):
    seen = Counter((u["type"], u["name"]) for u in UNITS
                   if u["nationality"] == nationality and u["type"] != "depot")
    assert all(n == 1 for n in seen.values()), [k for k, n in seen.items() if n > 1]
