"""Compile the validated Guns of August data into one ``GoaTables`` record, once per scenario
and options, and build the state at the scenario's start.

``compile_tables(raw, options)`` reads the data as plain dicts in the layout of the scenario
files (docs/goa.md): ``countries``, ``cities``, ``objectives``, ``sea_areas``, ``ports``,
``beaches``, ``squadron_kinds``, ``squadrons``, ``naval_combat_chart``, ``repair``,
``tenney``, ``colonies``, ``areas``, ``deployments``, ``land``, ``crt``, ``fronts``,
``history``, ``morale``, ``entry``, ``victory``, ``production`` and the scenario's own
``scenario`` and ``start`` tables. The loader (``data.py``) validates first; this module
trusts its input.
"""

from __future__ import annotations

import numpy as np

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, NEUTRAL, Damage, Land, Month, Ship, Terrain
from gwe_fast.games.goa.model import (ALL_OBJECTIVES_SINCE, CONSCRIPTED_SINCE, MOBILIZED_SINCE,
                                      MONTH, GoaState, GoaTables)

SIDES = {"allied": ALLIED, "central": CENTRAL, "neutral": NEUTRAL}
KINDS = {"dreadnought": Ship.DREADNOUGHT, "battlecruiser": Ship.BATTLECRUISER,
         "battleship": Ship.BATTLESHIP}
TERRAIN = {"city": Terrain.CITY, "fort": Terrain.FORT, "rough": Terrain.ROUGH,
           "swamp": Terrain.SWAMP}
AREA_KINDS = {"colony": 0, "sovereign": 1, "china": 2, "turkish_entry": 3,
              "turkish_opponent": 4, "japan": 5}
RESULTS = {name: int(v) for name, v in Land.__members__.items()}
#: the base game's morale modifiers (morale.toml's keys) and their defaults
BASE_MORALE = (("enemy_held_city", -1), ("allied_blockade", -1), ("no_american_ally", -1),
               ("americans_on_map", 1), ("allies_hold_constantinople", 1))
#: the countries and places the rules name
NAMED_COUNTRIES = ("germany", "austria_hungary", "turkey", "bulgaria", "france", "russia",
                   "britain", "belgium", "serbia", "montenegro", "italy", "romania", "greece",
                   "netherlands", "united_states", "japan", "albania")
NAMED_AREAS = ("north_sea", "north_atlantic", "baltic_sea", "east_mediterranean",
               "west_mediterranean", "adriatic_sea", "black_sea", "south_atlantic",
               "indian_ocean", "east_pacific", "west_pacific", "south_pacific")
DEFAULT_OPTIONS = {"variable_entry": True, "morale": True, "production": True, "victory": True,
                   "surrender": True, "naval": True, "colonies": False,
                   "naval_combat_chart": False, "swap_berlin": False,
                   "swap_london": False, "land": "historical", "through_1919": False}


def _index(keys) -> dict[str, int]:
    return {k: i for i, k in enumerate(keys)}


def _i(values, dtype) -> np.ndarray:
    a = np.asarray(values, dtype=dtype)
    a.flags.writeable = False
    return a


def _key(lost) -> str:
    return lost["place"] if isinstance(lost, dict) else lost


def _conqueror(lost, li, l_owner, l_kind, side0, ci) -> int:
    """The side holding a colony or area a start lists as conquered (C.22-C.25): the ``by``
    side when given, else the enemy of its owner's side (Darfur and Libya count as Turkish,
    Arabia as Turkey's enemy's, C.66)."""
    if isinstance(lost, dict) and lost.get("by"):
        return SIDES[lost["by"]]
    i = li[_key(lost)]
    owner, kind = l_owner[i], l_kind[i]
    turkey = ci.get("turkey", -1)
    if owner < 0 and kind in (AREA_KINDS["turkish_entry"], AREA_KINDS["turkish_opponent"]) \
            and turkey >= 0 and side0[turkey] < 2:
        holder = side0[turkey] if kind == AREA_KINDS["turkish_entry"] else 1 - side0[turkey]
        return 1 - holder
    if owner < 0 or side0[owner] >= 2:
        raise ValueError(f"deployments: {_key(lost)!r} is listed as conquered but has no "
                         f"belligerent owner; give its conqueror as {{place, by}}")
    return 1 - side0[owner]


def compile_tables(raw: dict, options: dict | None = None) -> GoaTables:
    """One ``GoaTables`` from the data and the option values (defaults filled in)."""
    opts = dict(DEFAULT_OPTIONS)
    opts.update(options or {})
    scen = raw.get("scenario", {})
    start = raw.get("start", {})
    first = Month.of(scen.get("start", "1914-08"))
    last = Month.of(scen.get("last", "1918-12"))
    if opts["through_1919"]:
        last = max(last, Month.of("1919-12"))
    colonies_on = bool(opts["colonies"])

    countries = raw["countries"]
    ckeys = tuple(countries)
    ci = _index(ckeys)
    C = len(ckeys)
    cities = raw["cities"]
    kkeys = tuple(cities)
    ki = _index(kkeys)
    areas = raw["sea_areas"]
    akeys = tuple(areas)
    ai = _index(akeys)
    ports = raw["ports"]
    pkeys = tuple(ports)
    pi = _index(pkeys)
    beaches = raw.get("beaches", {})
    bkeys = tuple(beaches)
    places_l = {**raw.get("colonies", {}), **raw.get("areas", {})}
    lkeys = tuple(places_l)
    li = _index(lkeys)
    P, L, A, K = len(pkeys), len(lkeys), len(akeys), len(kkeys)

    def country(key):
        return ci[key] if key else -1

    # countries
    start_c = start.get("countries", {})
    side0, entry0, conq0, consc0, mob0 = [], [], [], [], []
    for key, c in countries.items():
        st = start_c.get(key, {})
        side0.append(SIDES[st.get("side", c["side"])])
        entered = st.get("entered", "1914-08" if c["side"] != "neutral" else "")
        entry0.append(Month.of(entered) if entered and side0[-1] != NEUTRAL else -1)
        cq = st.get("conquered", "")
        conq0.append(Month.of(cq) if cq else -1)
        consc0.append(1 if st.get("conscription", c.get("conscription", False)) else 0)
        mob = st.get("mobilized", "")
        mob0.append(Month.of(mob) if mob else -1)
    host = np.zeros((C, C), np.int8)
    home_ports = np.zeros((C, P), np.int8)
    for key, c in countries.items():
        for h in c.get("hosts", []):
            host[ci[key], ci[h]] = 1
    for key, p in ports.items():
        c = ci[p["country"]]
        if not p.get("off_map", False) or p.get("units_may_embark", False) or p.get("overland"):
            home_ports[c, pi[key]] = 1
    may_join = np.array([[1 if s in c.get("may_join", []) else 0 for s in ("allied", "central")]
                         for c in countries.values()], np.int8)
    groups = {"west": 0, "east": 1, "": -1}

    # cities and objectives
    objective = [1 if cities[k].get("objective", False) else 0 for k in kkeys]
    swaps = raw.get("objectives", {})
    if opts["swap_berlin"] and "berlin" in ki:
        objective[ki["berlin"]] = 1
        objective[ki[swaps.get("swap_berlin_for", "brest_litovsk")]] = 0
    if opts["swap_london"] and "london" in ki:
        objective[ki["london"]] = 1
        objective[ki[swaps.get("swap_london_for", "frankfurt")]] = 0
    city_port = [-1] * K
    for key, p in ports.items():
        if p.get("city"):
            city_port[ki[p["city"]]] = pi[key]
    start_k = start.get("cities", {})
    k_control0 = []
    for key in kkeys:
        if key in start_k:
            k_control0.append(SIDES[start_k[key]])
        else:
            k_control0.append(side0[ci[cities[key]["country"]]])

    # sea areas, ports, beaches
    a_in_play = [0 if areas[k].get("colonial", False) and not colonies_on else 1 for k in akeys]
    p_area = np.zeros((P, A), np.int8)
    for key, p in ports.items():
        for a in p["sea_areas"]:
            p_area[pi[key], ai[a]] = 1
    p_in_play = [0 if p.get("colonial", False) and not colonies_on else 1 for p in ports.values()]
    b_area = np.zeros((max(1, len(bkeys)), A), np.int8)[:len(bkeys)]
    for i, b in enumerate(beaches.values()):
        for a in b["sea_areas"]:
            b_area[i, ai[a]] = 1

    # colonies and areas
    l_area = np.zeros((L, A), np.int8)
    l_nb = np.zeros((L, L), np.int8)
    l_kind, l_owner, l_def, l_ctrl0 = [], [], [], []
    l_overland = np.zeros((L, C), np.int8)
    l_no_return = np.zeros(L, np.int8)
    start_l = start.get("colonies", {})
    for key, l in places_l.items():
        i = li[key]
        for a in l.get("sea_areas", []):
            l_area[i, ai[a]] = 1
        for n in l.get("neighbors", []):
            l_nb[i, li[n]] = l_nb[li[n], i] = 1
        owner = country(l.get("country", ""))
        l_owner.append(owner)
        l_kind.append(AREA_KINDS[l.get("kind", "colony")])
        l_def.append(int(l["defense"]))
        for c in l.get("overland", []):
            l_overland[i, ci[c]] = 1
        l_no_return[i] = 1 if l.get("no_return", False) else 0
        if key in start_l:
            l_ctrl0.append(SIDES[start_l[key]])
        elif owner >= 0 and l_kind[-1] == 0:
            l_ctrl0.append(side0[owner])
        elif l_kind[-1] == 5:                      # Japan: the home islands
            l_ctrl0.append(side0[ci["japan"]] if "japan" in ci else NEUTRAL)
        else:
            l_ctrl0.append(NEUTRAL)
    l_af0 = np.zeros((L, C), np.int16)
    l_units0 = np.zeros((L, C), np.int16)
    start_key = scen.get("start_key", "1914")

    # squadrons
    kinds = raw["squadron_kinds"]
    q_country, q_kind, q_base, q_gun, q_prot, q_arrive, q_neutral_only = [], [], [], [], [], [], []

    def place_index(name):
        if name in pi:
            return pi[name]
        return P + li[name]

    sunk_at_start = dict(start.get("squadrons_lost", {}))
    for sq in raw["squadrons"]:
        if sq.get("colonial", False) and not colonies_on:
            continue
        c = ci[sq["country"]]
        kind = KINDS[sq["kind"]]
        factors = kinds[sq.get("factors_of", sq["country"])]
        for _ in range(int(sq.get("count", 1))):
            lost_key = f"{sq['country']}.{sq['kind']}"
            arrive = Month.of(sq["arrives"]) if sq.get("arrives") else -1
            if sunk_at_start.get(lost_key, 0) > 0 and arrive < 0:
                sunk_at_start[lost_key] -= 1
                continue
            if 0 <= arrive < first and not sq.get("if_neutral", False):
                arrive = -1                              # arrived before this start
            q_country.append(c)
            q_kind.append(kind)
            q_base.append(place_index(sq["base"]))
            q_gun.append(int(factors["gunnery"][kind]))
            q_prot.append(int(factors["protection"][kind]))
            q_arrive.append(arrive)
            q_neutral_only.append(1 if sq.get("if_neutral", False) else 0)
    army0 = [int(c.get("army", 0)) for c in countries.values()]
    for dep in raw.get("deployments", []):
        if dep["start"] != start_key or not colonies_on:
            continue
        place = dep["place"]
        c = ci[dep["country"]]
        for attack, _defense, _move, n, *rest in dep.get("units", []):
            support = bool(rest[0]) if rest else False
            if place in li:
                l_units0[li[place], c] += n
                if not support:
                    l_af0[li[place], c] += attack * n
            else:
                # a port off the map (C.21: the corps in Sydney): the country's land forces,
                # which sail from its ports (docs/rulings.md, C.21)
                army0[c] += n * int(raw["land"]["corps_strength"])
        for kind, n in dep.get("squadrons", []):
            factors = kinds[dep.get("factors_of", dep["country"])]
            for _ in range(n):
                q_country.append(c)
                q_kind.append(KINDS[kind])
                q_base.append(place_index(place))
                q_gun.append(int(factors["gunnery"][KINDS[kind]]))
                q_prot.append(int(factors["protection"][KINDS[kind]]))
                q_arrive.append(-1)
                q_neutral_only.append(0)
        for lost in dep.get("conquered", []):
            l_ctrl0[li[_key(lost)]] = _conqueror(lost, li, l_owner, l_kind, side0, ci)

    ncc = raw["naval_combat_chart"]
    damage = np.array(ncc["damage"], np.int16)
    if ncc.get("dash", "cap") == "cap":
        for col in range(damage.shape[1]):
            above = 0
            for die in range(damage.shape[0]):
                if damage[die, col] < 0:
                    damage[die, col] = above
                above = damage[die, col]
    repair = raw["repair"]
    tenney = raw.get("tenney", {"hit_divisor": 2, "heavy_divisor": 2})

    # land
    land = raw["land"]
    crt_rows = raw["crt"]["rows"]
    crt = np.array([[RESULTS[x] for x in row] for row in crt_rows], np.int8)
    loss = np.zeros((7, 2), np.int8)
    for name, (att, dfn) in land["losses"].items():
        loss[RESULTS[name]] = (att, dfn)
    fronts = raw.get("fronts", [])
    M = max([1] + [max(len(f["a_cities"]), len(f["b_cities"])) for f in fronts])
    f_chain = np.full((len(fronts), 2, M), -1, np.int16)
    f_helper = np.zeros((len(fronts), C), np.int8)
    for i, f in enumerate(fronts):
        for j, key in enumerate(f["a_cities"]):
            f_chain[i, 0, j] = ki[key]
        for j, key in enumerate(f["b_cities"]):
            f_chain[i, 1, j] = ki[key]
        for h in f.get("helpers", []):
            f_helper[i, ci[h]] = 3
        for h in f.get("helpers_a", []):
            f_helper[i, ci[h]] |= 1
        for h in f.get("helpers_b", []):
            f_helper[i, ci[h]] |= 2
    hist = sorted(raw.get("history", []), key=lambda h: Month.of(h["month"]))
    morale = raw["morale"]
    months = np.zeros(13, np.int8)
    for m in morale["roll_months"]:
        months[m] = 1
    col_months = np.zeros(13, np.int8)
    for m in raw.get("colonial_months", [2, 5, 8, 11]):
        col_months[m] = 1
    eff = morale["effects"]
    table = morale.get("table", [-3, -2, -1, 0])
    base_mod = morale.get("base", {})
    base_morale = [base_mod.get(k, v) for k, v in BASE_MORALE]
    usw0 = [Month.of(start.get("usw", {}).get(side, "")) if start.get("usw", {}).get(side) else -1
            for side in ("allied", "central")]
    base_entry = [(ci[e["country"]], Month.of(e["month"]), SIDES[e["side"]])
                  for e in raw.get("entry", {}).get("base", [])]
    base_checks = [(Month.of(x["month"]), int(x["outside_objectives"]))
                   for x in raw.get("victory", {}).get("base_checks", [])]
    prod = raw.get("production", {})
    jpool = [(a, s) for a, s, n in prod.get("japan_pool", []) for _ in range(n)]

    named = {k: ci.get(k, -1) for k in NAMED_COUNTRIES}
    named.update({k.replace("mediterranean", "med"): ai.get(k, -1) for k in NAMED_AREAS})
    named["constantinople"] = ki.get("constantinople", -1)
    named["constantinople_port"] = pi.get("constantinople", -1)
    named["trieste_port"] = pi.get("trieste", -1)
    named["japan_area"] = li.get("japan", -1)
    named["abyssinia"] = li.get("abyssinia", -1)
    goeben = -1
    for q in range(len(q_kind)):
        if (named["germany"] >= 0 and q_country[q] == named["germany"]
                and q_kind[q] == Ship.BATTLECRUISER and q_base[q] in (
                    named["constantinople_port"], named["trieste_port"])):
            goeben = q
            break
    named["goeben"] = goeben
    named["usw_from"] = Month.of(raw.get("naval", {}).get("usw_from", "1915-01"))
    named["coast_share"] = int(land.get("coast_share", 10))

    return GoaTables(
        c_key=ckeys, c_name=tuple(c["name"] for c in countries.values()),
        c_side0=_i(side0, np.int8), c_major=_i([c.get("major", False) for c in countries.values()], np.int8),
        c_personnel=_i([c["personnel"] for c in countries.values()], np.int16),
        c_supply=_i([c["supply"] for c in countries.values()], np.int16),
        c_conscription0=_i(consc0, np.int8),
        c_table_conscription=_i([1 if c.get("conscription", False) else 0
                                 for c in countries.values()], np.int8),
        c_mobilized0=_i(mob0, np.int16),
        c_rolls=_i([1 if c.get("entry", "roll") in ("roll", "invasion") else 0 for c in countries.values()], np.int8),
        c_may_join=_i(may_join, np.int8),
        c_group=_i([groups[c.get("entry_group", "")] for c in countries.values()], np.int8),
        c_army0=_i(army0, np.int32),
        c_overseas=_i([1 if c.get("overseas", False) else 0 for c in countries.values()], np.int8),
        c_host=_i(host, np.int8), c_home_ports=_i(home_ports, np.int8),
        c_entry0=_i(entry0, np.int16), c_conquered0=_i(conq0, np.int16),
        k_key=kkeys, k_country=_i([ci[cities[k]["country"]] for k in kkeys], np.int16),
        k_objective=_i(objective, np.int8),
        k_terrain=_i([TERRAIN[cities[k].get("terrain", "city")] for k in kkeys], np.int8),
        k_port=_i(city_port, np.int16), k_control0=_i(k_control0, np.int8),
        a_key=akeys, a_in_play=_i(a_in_play, np.int8),
        p_key=pkeys, p_country=_i([ci[p["country"]] for p in ports.values()], np.int16),
        p_area=_i(p_area, np.int8), p_off_map=_i([1 if p.get("off_map", False) else 0 for p in ports.values()], np.int8),
        p_in_play=_i(p_in_play, np.int8),
        p_city=_i([ki[p["city"]] if p.get("city") else -1 for p in ports.values()], np.int16),
        p_closed_by=_i([country(p.get("closed_by", "")) for p in ports.values()], np.int16),
        b_key=bkeys, b_country=_i([ci[b["country"]] for b in beaches.values()], np.int16),
        b_area=_i(b_area, np.int8),
        b_no_central=_i([1 if b.get("no_central_occupation", False) else 0 for b in beaches.values()], np.int8),
        b_city=_i([ki[b["target_city"]] if b.get("target_city") else -1 for b in beaches.values()], np.int16),
        l_key=lkeys, l_owner=_i(l_owner, np.int16), l_area=_i(l_area, np.int8),
        l_neighbor=_i(l_nb, np.int8), l_defense=_i(l_def, np.int8), l_kind=_i(l_kind, np.int8),
        l_control0=_i(l_ctrl0, np.int8), l_af0=_i(l_af0, np.int16), l_units0=_i(l_units0, np.int16),
        l_overland=_i(l_overland, np.int8), l_no_return=_i(l_no_return, np.int8),
        q_country0=_i(q_country, np.int16), q_kind=_i(q_kind, np.int8), q_base0=_i(q_base, np.int16),
        q_gunnery=_i(q_gun, np.int8), q_protection=_i(q_prot, np.int8),
        q_arrive=_i(q_arrive, np.int16), q_neutral_only=_i(q_neutral_only, np.int8),
        ncc_columns=_i(ncc["columns"], np.int16), ncc_far_left=_i(ncc["far_left"], np.int16),
        ncc_damage=_i(damage, np.int16),
        repair_months=_i([0, repair["months_light"], repair["months_heavy"]], np.int8),
        tenney=_i([tenney["hit_divisor"], tenney["heavy_divisor"]], np.int8),
        corps=int(land["corps_strength"]), entrench_from=Month.of(land["entrenchment_from"]),
        crt=_i(crt, np.int8),
        land_mods=_i([land["fort"], land["entrenchment"], land["city"], land["demoralized"],
                      land["supply_per_shift"], land["cap"], land["main_share"], land["upkeep"]], np.int8),
        land_loss=_i(loss, np.int8),
        supply_cap=int(prod.get("supply_cap_months", 3)),
        repeal_disband=int(prod.get("repeal_disband", 20)),
        us_reinforcements=_i(prod.get("us_reinforcements", [12, 8]), np.int16),
        japan_pool=_i(np.array(jpool, np.int8).reshape(-1, 2), np.int8),
        f_a=_i([ci[f["a"]] for f in fronts], np.int16), f_b=_i([ci[f["b"]] for f in fronts], np.int16),
        f_helper=_i(f_helper, np.int8), f_chain=_i(f_chain, np.int16),
        h_city=_i([ki[h["city"]] for h in hist], np.int16),
        h_month=_i([Month.of(h["month"]) for h in hist], np.int16),
        h_to=_i([SIDES[h["to"]] for h in hist], np.int8),
        roll_months=_i(months, np.int8), colonial_months=_i(col_months, np.int8),
        morale_effects=_i([eff["rr_personnel"], eff["d1_strength"], eff["d2_strength"],
                           eff["months"]], np.int8),
        year_modifier=_i(morale["year_modifier"], np.int8),
        morale_table=_i(table, np.int8), base_morale=_i(base_morale, np.int8),
        usw0=_i(usw0, np.int16),
        ncc_below_one=1 if ncc.get("below_one", "row1") == "none" else 0,
        heavy_home_port=1 if repair.get("heavy_needs_home_port", True) else 0,
        base_entry=_i(np.array(base_entry, np.int16).reshape(-1, 3), np.int16),
        base_checks=_i(np.array(base_checks, np.int16).reshape(-1, 2), np.int16),
        first_month=first, last_month=last, options=opts, named=named,
    )


def initial_state(t: GoaTables) -> GoaState:
    """The state at the scenario's start."""
    s = GoaState.zeros(t)
    s.scalars[MONTH] = t.first_month
    s.scalars[ALL_OBJECTIVES_SINCE] = -1
    s.side[:] = t.c_side0
    s.entered[:] = t.c_entry0
    s.conquered[:] = t.c_conquered0
    s.army[:] = t.c_army0
    s.mobilized[:] = t.c_mobilized0
    s.conscription[:] = t.c_conscription0
    # M._4, P._16: what is in effect at the start has been in effect "since the last roll"
    for c in range(t.n_countries):
        s.since_roll[c] = ((MOBILIZED_SINCE if s.mobilized[c] >= 0 else 0)
                           | (CONSCRIPTED_SINCE if s.conscription[c] == 1 else 0))
    s.demoralized[:] = -1
    s.usw[:] = t.usw0
    s.city[:] = t.k_control0
    for c in range(t.n_countries):
        if s.side[c] != NEUTRAL:
            s.entry_city[c, :] = t.k_control0
    s.colony[:] = t.l_control0
    s.col_af[:] = t.l_af0
    s.col_units[:] = t.l_units0
    s.squadron_country[:] = t.q_country0
    s.squadron_base[:] = np.where(t.q_arrive >= 0, -1, t.q_base0)
    s.squadron_sortie[:] = -1
    s.squadron_damage[:] = np.where(t.q_base0 < 0, Damage.SUNK, Damage.NONE)
    s.returning[:] = -1
    s.return_port[:] = -1
    s.sortie_won[:] = -1
    for c in range(t.n_countries):
        if s.conquered[c] >= 0:
            s.army[c] = 0
    return s


# -- from the validated data files -----------------------------------------------------------

def _support(attack: int, defense: int, move: int) -> bool:
    """The seed's field artillery (2-2-2, 3-3-3) are the support units C.68 leaves out: the
    units whose three factors are equal (docs/rulings.md, C.68)."""
    return attack == defense == move


def raw_from_data(data) -> dict:
    """The layout ``compile_tables`` reads, from a validated ``data.GoaData``."""
    sc = data.scenario
    first = sc.start
    start_countries = {}
    for key, st in sc.countries.items():
        start_countries[key] = {
            "side": st.side, "entered": st.entered,
            "conquered": Month.name(Month.of(first) - 1) if st.conquered else "",
            "conscription": st.conscription_since != "",
            "mobilized": st.mobilization_since, "usw": st.usw_since}
    countries = {}
    for key, c in data.countries.items():
        countries[key] = {
            "name": c.name, "side": c.side, "major": c.major, "personnel": c.personnel,
            "supply": c.supply, "conscription": c.conscription,
            "entry": "roll" if c.entry == "roll" else "never", "may_join": list(c.may_join),
            "entry_group": c.entry_group, "army": c.army, "overseas": c.overseas,
            "hosts": list(c.ship_to)}
    city_of_port = {c.port: key for key, c in data.cities.items() if c.port}
    cities = {key: {"name": c.name, "country": c.country, "objective": c.objective,
                    "terrain": c.terrain} for key, c in data.cities.items()}
    closers = {"K7": "netherlands"}          # the Scheldt: see docs/rulings.md (Ports chart)
    ports = {}
    for key, p in data.ports.items():
        ports[key] = {"name": p.name, "country": p.country, "sea_areas": list(p.sea_areas),
                      "off_map": p.off_map, "colonial": p.colonial,
                      "city": city_of_port.get(key, ""),
                      "closed_by": closers.get(p.closed_if_enemy_in, ""),
                      "units_may_embark": p.units_may_embark, "overland": p.overland}
    beaches = {key: {"country": b.country, "sea_areas": list(b.sea_areas),
                     "no_central_occupation": b.no_central_occupation,
                     "target_city": b.target_city} for key, b in data.beaches.items()}
    kinds = data.squadron_kinds
    factors = {}
    for country, f in kinds.factors.items():
        by_kind = dict(zip(kinds.kinds, range(len(kinds.kinds))))
        order = ("dreadnought", "battlecruiser", "battleship")
        factors[country] = {"gunnery": [f.gunnery[by_kind[k]] for k in order],
                            "protection": [f.protection[by_kind[k]] for k in order]}
    colonies_on = True                        # filtered by compile_tables
    squadrons = []
    for s in data.squadrons_at(sc.setup, colonies_on):
        squadrons.append({"country": s.country, "kind": s.kind, "base": s.base,
                          "count": s.count, "colonial": s.colonial,
                          "factors_of": s.country if s.country in factors else "britain"})
    for a in data.arrivals:
        squadrons.append({"country": a.country, "kind": a.kind, "base": a.base,
                          "count": a.count, "colonial": a.colonial, "arrives": a.month,
                          "if_neutral": a.while_neutral,
                          "factors_of": a.country if a.country in factors else "britain"})
    ncc = data.naval_combat_chart
    colonies = {key: {"country": c.country, "sea_areas": list(c.sea_areas),
                      "neighbors": list(c.neighbors), "defense": c.defense}
                for key, c in data.colonies.items()}
    area_kind = {"sovereign": "sovereign", "china": "china", "turkish_colony": "turkish_entry",
                 "turkish_opponent": "turkish_opponent", "home": "japan"}
    areas = {key: {"sea_areas": list(a.sea_areas), "neighbors": list(a.neighbors),
                   "defense": a.defense, "kind": area_kind.get(a.kind, "sovereign")}
             for key, a in data.areas.items()}
    overland = {"the_caucasus": ["russia"], "vladivostok": ["russia"],
                "armenia": ["turkey"], "iraq": ["turkey"], "syria": ["turkey"]}   # C.52, C.64
    for key, links in overland.items():
        if key in colonies:
            colonies[key]["overland"] = links
        if key in ("armenia", "the_caucasus") and key in colonies:
            colonies[key]["no_return"] = True                                  # C.44
    deployments = []
    for d in data.deployments_at(sc.setup):
        deployments.append({"start": d.start, "place": d.place, "country": d.country,
                            "units": [[a, df, mv, n, 1 if _support(a, df, mv) else 0]
                                      for a, df, mv, n in d.units]})
    mods = data.crt.modifiers
    rules = data.rules
    land = {"corps_strength": data.land.corps_strength,
            "entrenchment_from": data.land.entrenchment_from,
            "fort": mods.get("fort", -2), "entrenchment": mods.get("entrenchment", -1),
            "city": mods.get("city", -1), "demoralized": mods.get("demoralized_defender", 1),
            "supply_per_shift": mods.get("artillery_points_per_plus_one", 6),
            "cap": mods.get("cap", 3), "main_share": rules.main_share,
            "upkeep": rules.upkeep, "coast_share": rules.coast_share,
            "losses": {k: list(v) for k, v in rules.losses.items()}}
    fronts = [{"a": f.a, "b": f.b, "a_cities": list(f.a_cities), "b_cities": list(f.b_cities),
               "helpers_a": list(f.helpers_a), "helpers_b": list(f.helpers_b)}
              for f in data.fronts.values()]
    m = data.morale
    effects = m.effects
    results = {name: at for at, name in m.results}
    start_usw = {side: "" for side in ("allied", "central")}
    for key, st in sc.countries.items():
        if st.usw_since and st.side in start_usw:
            start_usw[st.side] = min(filter(None, (start_usw[st.side], st.usw_since)))
    return {
        "scenario": {"start": sc.start, "last": sc.last, "start_key": sc.setup},
        "start": {"countries": start_countries, "cities": dict(sc.cities),
                  "colonies": dict(sc.colonies), "usw": start_usw},
        "countries": countries, "cities": cities,
        "objectives": {"swap_berlin_for": data.objectives.swap_berlin_for,
                       "swap_london_for": data.objectives.swap_london_for},
        "sea_areas": {k: {"name": a.name, "colonial": a.colonial} for k, a in data.sea_areas.items()},
        "ports": ports, "beaches": beaches, "squadron_kinds": factors, "squadrons": squadrons,
        "naval_combat_chart": {"columns": list(ncc.columns), "far_left": list(ncc.far_left),
                               "damage": [list(r) for r in ncc.damage], "dash": ncc.dash,
                               "below_one": ncc.dice_below_one},
        "repair": {"months_light": data.repair.months_light,
                   "months_heavy": data.repair.months_heavy,
                   "heavy_needs_home_port": data.repair.heavy_needs_home_port},
        "tenney": {"hit_divisor": rules.tenney[0], "heavy_divisor": rules.tenney[1]},
        "colonies": colonies, "areas": areas, "deployments": deployments,
        "land": land, "crt": {"rows": [list(r) for r in data.crt.rows]},
        "fronts": fronts,
        "history": [{"city": h.city, "month": h.month, "to": h.to} for h in data.history],
        "morale": {"roll_months": list(m.months), "year_modifier": list(rules.morale_years),
                   "table": [results.get(n, -99) for n in ("surrender", "D2", "D1", "RR")],
                   "effects": {"rr_personnel": effects["RR"].personnel_factor_pct,
                               "d1_strength": effects["D1"].strength_loss_pct,
                               "d2_strength": effects["D2"].strength_loss_pct,
                               "months": effects["D1"].no_attack_months},
                   "base": {mod.key: mod.value for mod in m.modifiers}},
        "entry": {"base": [{"country": c, "month": mo, "side": side}
                           for c, mo, side in rules.base_entry]},
        "victory": {"base_checks": [{"month": mo, "outside_objectives": n}
                                    for mo, n in rules.base_victory]},
        "production": {"supply_cap_months": rules.supply_cap_months,
                       "repeal_disband": rules.repeal_disband,
                       "us_reinforcements": list(rules.us_reinforcements),
                       "japan_pool": [list(r) for r in rules.japan_pool]},
        "naval": {"usw_from": rules.usw_from},
        "colonial_months": list(rules.colonial_months),
    }
