"""A small hand-built Guns of August world for rule tests: every country the rules name, a
few cities, ports, areas, colonies and fronts. ``raw()`` returns the data as the scenario
files hold it; tests change what they need and compile it with ``tables.compile_tables``.
"""

from __future__ import annotations

import copy

COUNTRIES = {
    # key: (side, personnel, supply, conscription, group, may_join, army, overseas)
    "germany": ("central", 38, 32, True, "", ["central"], 200, False),
    "austria_hungary": ("central", 10, 15, True, "", ["central"], 120, False),
    "turkey": ("neutral", 6, 3, True, "east", ["allied", "central"], 60, False),
    "bulgaria": ("neutral", 4, 3, True, "east", ["allied", "central"], 40, False),
    "france": ("allied", 14, 20, True, "", ["allied"], 160, False),
    "russia": ("allied", 30, 20, True, "", ["allied"], 220, False),
    "britain": ("neutral", 8, 30, False, "west", ["allied"], 30, True),
    "belgium": ("neutral", 3, 5, True, "west", ["allied"], 20, False),
    "serbia": ("allied", 3, 2, True, "", ["allied"], 30, False),
    "montenegro": ("allied", 1, 1, True, "", ["allied"], 5, False),
    "italy": ("neutral", 10, 15, True, "west", ["allied", "central"], 100, False),
    "romania": ("neutral", 5, 4, True, "east", ["allied", "central"], 50, False),
    "greece": ("neutral", 4, 3, True, "east", ["allied", "central"], 25, False),
    "netherlands": ("neutral", 4, 5, True, "west", ["central"], 25, False),
    "united_states": ("neutral", 15, 45, False, "west", ["allied"], 10, True),
    "japan": ("neutral", 19, 20, True, "", ["allied", "central"], 0, True),
    "albania": ("neutral", 0, 0, False, "", [], 0, False),
}

CITIES = {
    # key: (country, objective, terrain)
    "berlin": ("germany", False, "city"), "frankfurt": ("germany", True, "city"),
    "metz": ("germany", True, "fort"), "konigsberg": ("germany", True, "city"),
    "hamburg": ("germany", False, "city"),
    "vienna": ("austria_hungary", True, "city"), "trieste": ("austria_hungary", True, "city"),
    "lemberg": ("austria_hungary", True, "city"),
    "paris": ("france", True, "city"), "verdun": ("france", True, "fort"),
    "calais": ("france", True, "city"),
    "warsaw": ("russia", True, "city"), "brest_litovsk": ("russia", True, "city"),
    "riga": ("russia", True, "city"), "petrograd": ("russia", False, "city"),
    "odessa": ("russia", False, "city"),
    "london": ("britain", False, "city"),
    "brussels": ("belgium", True, "city"), "antwerp": ("belgium", True, "fort"),
    "ypres": ("belgium", False, "city"),
    "belgrade": ("serbia", True, "city"), "nis": ("serbia", False, "city"),
    "cetinje": ("montenegro", False, "rough"),
    "venice": ("italy", True, "city"), "rome": ("italy", False, "city"),
    "constantinople": ("turkey", True, "city"), "sofia": ("bulgaria", True, "city"),
    "bucharest": ("romania", True, "city"), "iasi": ("romania", False, "city"),
    "athens": ("greece", False, "city"), "amsterdam": ("netherlands", False, "city"),
    "durazzo": ("albania", False, "city"),
}

AREAS = ["baltic_sea", "north_sea", "north_atlantic", "west_mediterranean", "adriatic_sea",
         "east_mediterranean", "black_sea", "south_atlantic", "indian_ocean", "east_pacific",
         "south_pacific", "west_pacific"]
COLONIAL_AREAS = set(AREAS[7:])

PORTS = {
    # key: (country, areas, off_map, city)
    "hamburg": ("germany", ["baltic_sea", "north_sea"], False, "hamburg"),
    "konigsberg": ("germany", ["baltic_sea"], False, "konigsberg"),
    "trieste": ("austria_hungary", ["adriatic_sea", "east_mediterranean", "west_mediterranean"], False, "trieste"),
    "calais": ("france", ["north_sea", "north_atlantic"], False, "calais"),
    "london": ("britain", ["north_sea", "north_atlantic"], False, "london"),
    "scapa_flow": ("britain", ["baltic_sea", "north_sea", "north_atlantic"], True, ""),
    "odessa": ("russia", ["black_sea"], False, "odessa"),
    "gibraltar": ("britain", ["north_atlantic", "west_mediterranean"], True, ""),
    "antwerp": ("belgium", ["baltic_sea", "north_sea", "north_atlantic"], False, "antwerp"),
    "riga": ("russia", ["baltic_sea"], False, "riga"),
    "venice": ("italy", ["adriatic_sea", "east_mediterranean", "west_mediterranean"], False, "venice"),
    "constantinople": ("turkey", ["black_sea", "east_mediterranean"], False, "constantinople"),
    "norfolk": ("united_states", ["north_atlantic"], True, ""),
    "amsterdam": ("netherlands", ["baltic_sea", "north_sea", "north_atlantic"], False, "amsterdam"),
    "durazzo": ("albania", ["adriatic_sea", "east_mediterranean", "west_mediterranean"], False, "durazzo"),
    "sydney": ("britain", ["indian_ocean", "south_pacific"], True, ""),
    "san_diego": ("united_states", ["west_pacific"], True, ""),
}
#: off-map ports land units may embark at (N.84: an overland connection; C.54)
EMBARK = {"scapa_flow", "norfolk", "san_diego"}
COLONIAL_PORTS = {"sydney", "san_diego"}

FRONTS = [
    ("germany", "france", ["metz", "frankfurt", "berlin"], ["verdun", "calais", "paris"], ["britain", "united_states", "belgium"]),
    ("germany", "belgium", ["frankfurt"], ["brussels", "antwerp", "ypres"], ["britain", "france"]),
    ("germany", "russia", ["konigsberg", "berlin"], ["warsaw", "brest_litovsk", "riga", "petrograd"], ["austria_hungary"]),
    ("austria_hungary", "russia", ["lemberg", "vienna"], ["warsaw", "brest_litovsk"], ["germany"]),
    ("austria_hungary", "serbia", ["vienna"], ["belgrade", "nis"], ["germany", "bulgaria"]),
    ("austria_hungary", "montenegro", ["trieste"], ["cetinje"], []),
    ("austria_hungary", "italy", ["trieste", "vienna"], ["venice", "rome"], ["germany", "britain", "france"]),
    ("austria_hungary", "romania", ["vienna"], ["bucharest", "iasi"], ["germany", "russia", "bulgaria"]),
    ("bulgaria", "serbia", ["sofia"], ["nis", "belgrade"], ["germany", "austria_hungary"]),
    ("turkey", "bulgaria", ["constantinople"], ["sofia"], []),
]


def raw() -> dict:
    """The tiny world's data (a fresh copy)."""
    countries = {}
    for key, (side, pp, sp, consc, group, may_join, army, overseas) in COUNTRIES.items():
        countries[key] = {"name": key.replace("_", " ").title(), "side": side,
                          "major": key in ("germany", "austria_hungary", "france", "russia",
                                           "britain", "italy", "united_states"),
                          "personnel": pp, "supply": sp, "conscription": consc,
                          "entry": "never" if key == "albania" else "roll",
                          "may_join": may_join, "entry_group": group, "army": army,
                          "overseas": overseas, "hosts": []}
    countries["britain"]["hosts"] = ["france", "belgium", "italy"]
    countries["united_states"]["hosts"] = ["france"]
    cities = {k: {"name": k.title(), "country": c, "objective": o, "terrain": tr}
              for k, (c, o, tr) in CITIES.items()}
    ports = {k: {"name": k.title(), "country": c, "sea_areas": a, "off_map": off, "city": city,
                 "colonial": k in COLONIAL_PORTS, "units_may_embark": k in EMBARK}
             for k, (c, a, off, city) in PORTS.items()}
    ports["antwerp"]["closed_by"] = "netherlands"
    data = {
        "scenario": {"start": "1914-08", "last": "1918-12"},
        "countries": countries, "cities": cities,
        "objectives": {"swap_berlin_for": "brest_litovsk", "swap_london_for": "frankfurt"},
        "sea_areas": {a: {"name": a, "colonial": a in COLONIAL_AREAS} for a in AREAS},
        "ports": ports,
        "beaches": {"gallipoli": {"country": "turkey", "sea_areas": ["east_mediterranean"],
                                  "no_central_occupation": True, "target_city": "constantinople"}},
        "squadron_kinds": {**{c: {"gunnery": [6, 5, 3], "protection": [6, 4, 3]}
                              for c in ("germany", "britain", "russia", "austria_hungary",
                                        "italy", "turkey", "united_states", "japan")},
                           "france": {"gunnery": [5, 4, 2], "protection": [5, 3, 2]}},
        "squadrons": [
            {"country": "britain", "kind": "dreadnought", "base": "scapa_flow", "count": 4},
            {"country": "britain", "kind": "battlecruiser", "base": "scapa_flow", "count": 1},
            {"country": "britain", "kind": "battleship", "base": "london", "count": 2},
            {"country": "germany", "kind": "dreadnought", "base": "hamburg", "count": 3},
            {"country": "germany", "kind": "battlecruiser", "base": "hamburg", "count": 1},
            {"country": "germany", "kind": "battlecruiser", "base": "trieste", "count": 1},
            {"country": "germany", "kind": "battleship", "base": "konigsberg", "count": 1},
            {"country": "france", "kind": "battleship", "base": "calais", "count": 1},
            {"country": "russia", "kind": "battleship", "base": "riga", "count": 1},
            {"country": "austria_hungary", "kind": "dreadnought", "base": "trieste", "count": 1},
            {"country": "italy", "kind": "dreadnought", "base": "venice", "count": 1},
            {"country": "united_states", "kind": "dreadnought", "base": "norfolk", "count": 2},
            {"country": "united_states", "kind": "battleship", "base": "san_diego", "count": 2,
             "colonial": True},
            {"country": "japan", "kind": "dreadnought", "base": "japan", "factors_of": "france",
             "arrives": "1916-01", "if_neutral": True, "colonial": True},
        ],
        "naval_combat_chart": {
            "columns": [1, 8, 16, 24, 32, 40],
            "far_left": [4, 12, 20, 28, 36, 44],
            "damage": [[7, 7, 7, 7, 7, 7], [-1, 21, 21, 21, 21, 21], [-1, -1, 35, 35, 35, 35],
                       [-1, -1, -1, 45, 47, 47], [-1, -1, -1, -1, 61, 61],
                       [-1, -1, -1, -1, -1, 75]],
            "dash": "cap"},
        "repair": {"months_light": 1, "months_heavy": 2},
        "tenney": {"hit_divisor": 2, "heavy_divisor": 2},
        "colonies": {
            "egypt": {"country": "britain", "sea_areas": ["east_mediterranean", "indian_ocean"],
                      "neighbors": ["syria", "libya", "abyssinia"], "defense": 5},
            "kamerun": {"country": "germany", "sea_areas": ["north_atlantic", "south_atlantic"],
                        "neighbors": ["biafra"], "defense": 5},
            "biafra": {"country": "britain", "sea_areas": ["north_atlantic", "south_atlantic"],
                       "neighbors": ["kamerun"], "defense": 5},
            "syria": {"country": "turkey", "sea_areas": ["east_mediterranean"],
                      "neighbors": ["egypt", "arabia"], "defense": 6, "overland": ["turkey"]},
            "tsingtao": {"country": "germany", "sea_areas": ["east_pacific"],
                         "neighbors": [], "defense": 4},
            "caucasus": {"country": "russia", "sea_areas": ["black_sea"], "neighbors": ["persia"],
                         "defense": 6, "overland": ["russia"], "no_return": True},
            "korea": {"country": "japan", "sea_areas": ["east_pacific"],
                      "neighbors": ["manchuria"], "defense": 5},
            "hawaii": {"country": "united_states", "sea_areas": ["east_pacific", "west_pacific"],
                       "neighbors": [], "defense": 6},
        },
        "areas": {
            "japan": {"sea_areas": ["east_pacific"], "neighbors": [], "defense": 6,
                      "kind": "japan"},
            "persia": {"sea_areas": ["indian_ocean"], "neighbors": ["caucasus"], "defense": 4,
                       "kind": "sovereign"},
            "manchuria": {"sea_areas": [], "neighbors": ["korea"], "defense": 4, "kind": "china"},
            "abyssinia": {"sea_areas": [], "neighbors": ["egypt"], "defense": 6,
                          "kind": "sovereign"},
            "libya": {"sea_areas": [], "neighbors": ["egypt"], "defense": 6,
                      "kind": "turkish_entry"},
            "arabia": {"sea_areas": ["indian_ocean"], "neighbors": ["syria"], "defense": 6,
                       "kind": "turkish_opponent"},
        },
        "deployments": [
            {"start": "1914", "place": "egypt", "country": "britain", "units": [[4, 6, 4, 1]]},
            {"start": "1914", "place": "biafra", "country": "britain", "units": [[4, 6, 4, 1]]},
            {"start": "1914", "place": "sydney", "country": "britain", "units": [[4, 6, 4, 1]],
             "squadrons": [["battlecruiser", 1]]},
            {"start": "1914", "place": "tsingtao", "country": "germany",
             "squadrons": [["battlecruiser", 1]]},
            {"start": "1914", "place": "japan", "country": "japan", "factors_of": "france",
             "units": [[4, 6, 4, 6], [2, 2, 2, 2, 1]], "squadrons": [["dreadnought", 1]]},
        ],
        "land": {"corps_strength": 4, "entrenchment_from": "1915-01", "fort": -2,
                 "entrenchment": -1, "city": -1, "demoralized": 1, "supply_per_shift": 6,
                 "cap": 3, "main_share": 50, "upkeep": 10, "coast_share": 10,
                 "losses": {"AE": [20, 0], "AA": [10, 0], "AD": [5, 0], "BD": [5, 5],
                            "DD": [0, 5], "DX": [5, 10], "DE": [0, 20]}},
        "crt": {"rows": [["AE", "AA", "AA", "AD", "BD", "BD"], ["AA", "AA", "AD", "BD", "BD", "DD"],
                         ["AD", "AD", "BD", "BD", "DD", "DX"], ["BD", "BD", "BD", "DD", "DX", "DE"],
                         ["BD", "BD", "DD", "DX", "DE", "DE"], ["DD", "DD", "DX", "DE", "DE", "DE"],
                         ["DX", "DX", "DE", "DE", "DE", "DE"]]},
        "fronts": [{"a": a, "b": b, "a_cities": ac, "b_cities": bc, "helpers": h}
                   for a, b, ac, bc, h in FRONTS],
        "history": [
            {"city": "brussels", "month": "1914-08", "to": "central"},
            {"city": "antwerp", "month": "1914-10", "to": "central"},
            {"city": "warsaw", "month": "1915-08", "to": "central"},
            {"city": "brest_litovsk", "month": "1915-08", "to": "central"},
            {"city": "belgrade", "month": "1915-10", "to": "central"},
            {"city": "nis", "month": "1915-11", "to": "central"},
            {"city": "cetinje", "month": "1916-01", "to": "central"},
            {"city": "bucharest", "month": "1916-12", "to": "central"},
            {"city": "riga", "month": "1917-09", "to": "central"},
        ],
        "morale": {"roll_months": [2, 5, 8, 11], "year_modifier": [4, 3, 2, 1, 0, -1],
                   "effects": {"rr_personnel": 50, "d1_strength": 10, "d2_strength": 20,
                               "months": 1}},
        "entry": {"base": [
            {"country": "britain", "month": "1914-08", "side": "allied"},
            {"country": "turkey", "month": "1914-11", "side": "central"},
            {"country": "italy", "month": "1915-05", "side": "allied"},
            {"country": "bulgaria", "month": "1915-10", "side": "central"},
            {"country": "romania", "month": "1916-08", "side": "central"},
            {"country": "united_states", "month": "1917-04", "side": "allied"},
            {"country": "greece", "month": "1917-06", "side": "allied"},
        ]},
        "victory": {"base_checks": [{"month": "1916-01", "outside_objectives": 2}]},
        "production": {"supply_cap_months": 3, "repeal_disband": 20,
                       "us_reinforcements": [12, 8],
                       "japan_pool": [[4, 0, 6], [3, 0, 12], [2, 0, 18], [3, 0, 6], [3, 1, 3], [2, 1, 6]]},
        "naval": {"usw_from": "1915-01"},
    }
    return copy.deepcopy(data)


def world(options: dict | None = None, data: dict | None = None):
    """``(tables, state)`` of the tiny world (or of ``data``) with these options, at the
    start."""
    from gwe_fast.games.goa.tables import compile_tables, initial_state

    t = compile_tables(data if data is not None else raw(), options)
    return t, initial_state(t)


def index(t, key: str) -> int:
    """A country, city, port, sea area or colony by its key (in that order of lookup)."""
    for keys in (t.c_key, t.k_key, t.p_key, t.a_key, t.l_key):
        if key in keys:
            return keys.index(key)
    raise KeyError(key)


def drive(gen, choose=None, limit: int = 100000):
    """Run an engine generator to its end. ``choose(ask)`` returns the option to take (a
    value of ``ask.options``; None takes the first); returns the asks seen."""
    seen = []
    try:
        ask = next(gen)
        while True:
            seen.append(ask)
            value = choose(ask) if choose else None
            i = 0 if value is None else ask.options.index(value)
            ask = gen.send(i)
            if len(seen) > limit:
                raise RuntimeError("too many decisions")
    except StopIteration as stop:
        seen.append(stop.value)
    return seen


class Dice:
    """Dice for rule tests: only the values given, in order; one more is an error (so a test
    also checks how many dice the rules roll)."""

    def __init__(self, *values: int):
        self.forced = [int(v) for v in values]

    def force(self, values) -> None:
        self.forced.extend(int(v) for v in values)

    def die(self) -> int:
        if not self.forced:
            raise AssertionError("the rules rolled a die the test did not give")
        return self.forced.pop(0)


def answers(table: dict):
    """A ``choose`` for ``drive``: ``table[(kind, subject)]`` or ``table[kind]`` is the value
    to take (a list is used up one value per ask); otherwise the first option."""

    def choose(ask):
        for key in ((ask.kind, ask.subject), ask.kind):
            if key in table:
                value = table[key]
                if isinstance(value, list):
                    return value.pop(0) if value else None
                return value
        return None

    return choose


def squadron(t, s, country: str, kind: int, nth: int = 0) -> int:
    """The ``nth`` squadron of ``country`` and kind (``codes.Ship``) in play."""
    c = index(t, country)
    found = [q for q in range(t.n_squadrons)
             if s.squadron_country[q] == c and t.q_kind[q] == kind and s.squadron_base[q] >= 0]
    return found[nth]
