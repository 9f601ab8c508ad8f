# cython: language_level=3
"""The Kaiser's Battle in compiled code (issue 28): the first phases of its core.

* ``KbTables(scenario)``: the tables the core reads, compiled once per scenario into one
  read-only record (``KbT``) that points into arrays the object keeps.
* ``KbCore(game)``: a ``KbGame`` seen from C: its state as pointers into the ``State``
  buffer (``KbS``: the record is fixed, so the pointers hold for the whole game), its dice
  streams and its policies' generators. ``run_phase(phase)`` plays a phase in C and returns
  True, or returns False without touching the game when the phase is not compiled yet or a
  side that decides in it has a policy that does not answer in the core (the Python engine
  then plays it).

The phases played here: the Weather Stage with the start of the Game-Turn (9.81, 9.82, 17.11,
11.1), the Reinforcement Stage (15.1, 15.2), the German Breakdown Phase (13.1) and the
Terminal Phase (9.35, 15.15, 15.16). Each does what the Python engine's function of the same
name does, in the same order, with the same dice and the same draws of the same generators,
so the games are identical (``tests/core/test_kb_core.py``). A player who picks at random is
answered here; every other policy is the Python engine's, for now.
"""

from functools import lru_cache

import numpy as np
cimport numpy as cnp
from cpython.ref cimport PyObject
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memcpy, memmove, memset

cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil   # GCC and Clang: the lowest set bit's index

from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t
from gwe_fast._core.board cimport fill_step_costs
from gwe_fast._core.codes cimport (KD_AIR_ALLOCATE, KD_AIR_GROUND_ATTACK_POINTS,
                                   KD_AIR_GROUND_ATTACK_TARGET, KD_AIR_INTERCEPTION,
                                   KD_ARTILLERY_COUNTER_BATTERY, KD_ARTILLERY_DRUMFIRE_POINTS,
                                   KD_ARTILLERY_DRUMFIRE_TARGET, KD_ARTILLERY_GAS_MARKERS,
                                   KD_ARTILLERY_GAS_POINTS, KD_ARTILLERY_GAS_TARGET,
                                   KD_DRUMFIRE_STEP_LOSS, KD_GROUND_ATTACK_STEP_LOSS,
                                   KP_AIR_STAGE, KP_ARTILLERY_STAGE)
from gwe_fast._core.codes cimport (KD_AIR_OBSERVATION, KD_COMBAT_ADVANCE, KD_COMBAT_LOSS,
                                   KD_COMBAT_RETREAT, KD_COMBAT_ROLLING, KD_COMBAT_SOS,
                                   KF_ADVANCED, KF_ATTACKED, KF_DEFENDED, KP_ALLIED_COMBAT,
                                   KP_GERMAN_COMBAT)
from gwe_fast._core.codes cimport (KD_BREAKDOWN_DIVISION, KD_GAS_STEP_LOSS, KD_MOVE_TO,
                                   KD_MOVE_UNIT, KD_REINFORCEMENT_HEX, KD_REINFORCEMENT_SERVICE,
                                   KD_STACKING_ELIMINATE, KF_ARRIVED, KF_FROM_DIVISION, KF_MOVED,
                                   KF_NO_MOVE, KF_OPENING, KF_SERVICE, KP_ALLIED_MOVEMENT,
                                   KP_GERMAN_BREAKDOWN, KP_GERMAN_MOVEMENT,
                                   KP_REINFORCEMENT_STAGE, KP_TERMINAL, KP_WEATHER_STAGE,
                                   SIDE_ALLIED, SIDE_CENTRAL, ST_ELIMINATED, ST_EXITED,
                                   ST_NOT_IN_PLAY, ST_ON_MAP, ST_PENDING, ST_POOL, UT_HQ)
from gwe_fast._core.play cimport (OBL_NEITHER, OBL_STOP, OBL_STUCK, exit_allowed, obl_alloc,
                                  obl_build, obl_random_declare, obl_release)
from gwe_fast._core.search cimport (RANGE_FAR, Range, SearchWorkspace, _sort_cells, range_alloc,
                                    range_cost, range_free, range_search, reached_cost)
from gwe_fast._core.hexdice cimport (DiceStream, bind_policies, bind_streams, policy_draw, roll,
                                     unbind_streams)

cnp.import_array()

#: the dice streams of the core, in the order of its DS_ codes
STREAM_NAMES = ("combat", "breakdown", "reinforcement", "weather", "artillery", "air", "gas",
                "opening")
#: the phases the core plays
COMPILED = frozenset({int(KP_WEATHER_STAGE), int(KP_AIR_STAGE), int(KP_ARTILLERY_STAGE),
                      int(KP_REINFORCEMENT_STAGE), int(KP_GERMAN_COMBAT), int(KP_ALLIED_COMBAT),
                      int(KP_GERMAN_BREAKDOWN), int(KP_GERMAN_MOVEMENT),
                      int(KP_ALLIED_MOVEMENT), int(KP_TERMINAL)})

cdef enum:
    ERR_NONE = 0
    ERR_NO_ENTRY_HEX = 1          # a reinforcement with no map-edge hex free of the enemy
    ERR_POOL = 2                  # a breakdown with fewer than three regiments in the pool
    ERR_NO_ENTRY_LETTER = 3       # a reinforcement whose entry letter has no hexes
    ERR_MEMORY = 4
    ERR_SUPPLY_BAND = 5           # a supply line no band of the supply states covers
    ERR_NO_DEFENCE = 6            # a defending stack with no strength
    ERR_OBLIGATIONS = 7           # attack obligations left that no attack can meet
    ERR_JOIN = 8                  # a unit that may neither join an attack nor stay out
    ALTERNATE_RADIUS = 3          # 15.13


def _u8(a) -> np.ndarray:
    return np.ascontiguousarray(np.asarray(a, dtype=bool).view(np.uint8))


cdef class KbTables:
    """The tables of a Kaiser's Battle scenario as the core reads them (``KbT``), compiled
    once from ``Scenario.core`` (``KbData``) and the scenario's text tables."""

    def __init__(self, scenario):
        from gwe_fast.games.kb.data import kb_data
        from gwe_fast.scenario.model import ENTRY_LETTERS

        if scenario.game != "kb":
            raise ValueError(f"scenario {scenario.key} is not a Kaiser's Battle scenario")
        data = kb_data(scenario)
        m, u, tables = scenario.map, scenario.units, scenario.tables
        keep = {}
        cdef KbT* t = &self.t
        t.n_cells = m.n_cells
        t.n_units = u.n
        keep["nbr"] = nbr = np.ascontiguousarray(m.neighbors, dtype=np.int32)
        keep["trench"] = trench = _u8(data.trench)
        keep["map_edge"] = edge = _u8(data.map_edge)
        # entry hexes, letter by letter (15.11), and the hex distance from each (15.13)
        letters = ENTRY_LETTERS[:MAX_ENTRIES]
        if any(k not in letters for k in data.entry):
            raise ValueError(f"the core knows the entry letters {letters} only")
        cells = []
        for e, letter in enumerate(letters):
            t.entry_start[e] = len(cells)
            cells += list(data.entry.get(letter, ()))
        t.entry_start[MAX_ENTRIES] = len(cells)
        keep["entry_cells"] = entry_cells = np.asarray(cells, dtype=np.int32)
        keep["edge_dist"] = edge_dist = np.ascontiguousarray(
            np.stack([m.distances_from(int(c)) for c in cells]) if cells
            else np.zeros((0, m.n_cells)), dtype=np.int32)
        keep["side"] = side = np.ascontiguousarray(u.side, dtype=np.int8)
        keep["utype"] = utype = np.ascontiguousarray(u.utype, dtype=np.int8)
        keep["arrival_turn"] = arrival = np.ascontiguousarray(u.arrival_turn, dtype=np.int16)
        keep["entry"] = entry = np.ascontiguousarray(u.entry, dtype=np.int8)
        keep["division"] = division = _u8(data.division)
        keep["replacement"] = replacement = _u8(data.replacement)
        keep["service"] = service = _u8(data.has_service_face)
        t.nbr = <const cell_t*>cnp.PyArray_DATA(nbr)
        t.trench = <const uint8_t*>cnp.PyArray_DATA(trench)
        t.map_edge = <const uint8_t*>cnp.PyArray_DATA(edge)
        t.entry_cells = <const int32_t*>cnp.PyArray_DATA(entry_cells)
        t.edge_dist = <const int32_t*>cnp.PyArray_DATA(edge_dist)
        t.side = <const int8_t*>cnp.PyArray_DATA(side)
        t.utype = <const int8_t*>cnp.PyArray_DATA(utype)
        t.arrival_turn = <const int16_t*>cnp.PyArray_DATA(arrival)
        t.entry = <const int8_t*>cnp.PyArray_DATA(entry)
        t.division = <const uint8_t*>cnp.PyArray_DATA(division)
        t.replacement = <const uint8_t*>cnp.PyArray_DATA(replacement)
        t.has_service_face = <const uint8_t*>cnp.PyArray_DATA(service)
        keep["exit_edge"] = exit_edge = _u8(data.exit_edge)
        entry_hex = np.zeros(m.n_cells, dtype=np.uint8)
        entry_hex[np.asarray(cells, dtype=np.int64)] = 1
        keep["entry_hex"] = entry_hex
        keep["enter_cost"] = enter_cost = np.ascontiguousarray(data.enter_cost, dtype=np.int16)
        keep["side_add"] = side_add = np.ascontiguousarray(data.side_add, dtype=np.int16)
        if side_add.shape != (m.n_cells, 6) or enter_cost.shape != (m.n_cells,):
            raise ValueError("the movement costs do not cover the map")
        keep["values"] = values = np.ascontiguousarray(u.values, dtype=np.int16)
        if values.ndim != 3 or values.shape[0] != u.n or values.shape[2] != 3:
            raise ValueError("the units' values are not [unit, step, 3]")
        t.n_rows = values.shape[1]
        keep["service_values"] = service_values = np.ascontiguousarray(data.service_values,
                                                                       dtype=np.int16)
        keep["stacking"] = stacking = np.ascontiguousarray(u.stacking, dtype=np.int8)
        keep["n_steps"] = n_steps = np.ascontiguousarray(u.n_steps, dtype=np.int8)
        keep["second_segment"] = second = np.ascontiguousarray(u.extra["second_segment"],
                                                               dtype=np.int16)
        t.exit_edge = <const uint8_t*>cnp.PyArray_DATA(exit_edge)
        keep["exit_cells"] = exit_cells = np.flatnonzero(exit_edge).astype(np.int32)
        t.exit_cells = <const int32_t*>cnp.PyArray_DATA(exit_cells)
        t.n_exit = exit_cells.shape[0]
        t.entry_hex = <const uint8_t*>cnp.PyArray_DATA(entry_hex)
        t.enter_cost = <const int16_t*>cnp.PyArray_DATA(enter_cost)
        t.side_add = <const int16_t*>cnp.PyArray_DATA(side_add)
        back = nbr[np.maximum(nbr, 0), (np.arange(6) + 3) % 6]      # the way back
        t.nbr_symmetric = bool(((nbr < 0) | (back == np.arange(m.n_cells)[:, None])).all())
        keep["open_steps"] = open_steps = np.empty((m.n_cells, 6), dtype=np.int16)
        fill_step_costs(t.nbr, t.n_cells, t.enter_cost, t.side_add, NULL, NULL, 0, False,
                        <stepcost_t*>cnp.PyArray_DATA(open_steps))
        t.open_steps = <const int16_t*>cnp.PyArray_DATA(open_steps)
        t.values = <const int16_t*>cnp.PyArray_DATA(values)
        t.service_values = <const int16_t*>cnp.PyArray_DATA(service_values)
        t.stacking = <const int8_t*>cnp.PyArray_DATA(stacking)
        t.n_steps = <const int8_t*>cnp.PyArray_DATA(n_steps)
        t.second_segment = <const int16_t*>cnp.PyArray_DATA(second)
        t.stack_limit = data.stack_limit
        from gwe_fast.games.kb.victory import _schedule

        schedule = _schedule(scenario)                 # 20.1, the first row of a cause counts
        t.exit_vp = schedule["german_unit_exited"]
        t.town_vp = schedule["town_west_of_vp_line"]
        t.trench_vp = schedule["allied_unit_in_trench"]
        keep["west_of_vp_line"] = west = _u8(data.west_of_vp_line)
        t.west_of_vp_line = <const uint8_t*>cnp.PyArray_DATA(west)
        om = tables["opening_movement"]
        t.german_t2_plus = int(om["german_turn_2_extra_units_die_plus"])
        t.allied_t1_plus = int(om["allied_turn_1_die_plus"])
        t.allied_t2_plus = int(om["allied_turn_2_die_plus"])
        first, second_corps = (f"british {c}" for c in om["allied_corps"])
        t.corps_first = data.corps_names.index(first) if first in data.corps_names else -2
        t.corps_second = (data.corps_names.index(second_corps)
                          if second_corps in data.corps_names else -2)
        t.gas_step_loss = int(tables["persistent_gas"]["step_loss_per_stack"])
        keep["die_mod"] = die_mod = np.ascontiguousarray(data.die_mod, dtype=np.int16)
        keep["q"] = q = np.ascontiguousarray(m.q, dtype=np.int16)
        keep["r"] = r = np.ascontiguousarray(m.r, dtype=np.int16)
        t.die_mod = <const int16_t*>cnp.PyArray_DATA(die_mod)
        t.q = <const int16_t*>cnp.PyArray_DATA(q)
        t.r = <const int16_t*>cnp.PyArray_DATA(r)
        # the cell at each axial position, to walk a disc of hexes (field_in_range)
        t.q0, t.r0 = int(q.min()), int(r.min())
        t.q_span, t.r_span = int(q.max()) - t.q0 + 1, int(r.max()) - t.r0 + 1
        keep["axial_cell"] = axial_cell = np.full((t.q_span, t.r_span), -1, dtype=np.int32)
        axial_cell[q.astype(np.int64) - t.q0, r.astype(np.int64) - t.r0] = np.arange(
            m.n_cells, dtype=np.int32)
        if (axial_cell >= 0).sum() != m.n_cells:
            raise ValueError("two hexes of the map share axial coordinates")
        t.axial_cell = <const int32_t*>cnp.PyArray_DATA(axial_cell)
        t.field_range = int(tables["artillery_points"]["field_range_from_hq"])
        cb = tables["counter_battery"]
        t.cb_first_turn = int(cb["first_turn"])
        t.cb_multiple = int(cb["allocation_multiple"])
        _fill(t.cb_points, [int(c) for c in cb["artillery_points"]])
        _fill(t.cb_die, [int(d) for d in cb["die"]])
        t.cb_cols, t.cb_rows = len(cb["artillery_points"]), len(cb["die"])
        for i, row in enumerate(cb["results"]):
            _fill(t.cb_result[i], [-1 if x == "-" else 0 if x.lower() == "all" else int(x)
                                   for x in (str(v) for v in row)])
        gas = tables["persistent_gas"]
        t.gas_first_turn = int(gas["first_turn"])
        t.gas_per_marker = int(gas["points_per_marker"])
        t.gas_min_distance = int(gas["min_distance_from_friendly"])
        t.gas_markers_table = int(gas["markers"])
        from gwe_fast.games.kb.artillery import _heading

        df = tables["drumfire_barrage"]
        t.df_turns = _bits(df["turns"])
        t.df_min, t.df_max = int(df["min_points"]), int(df["max_points"])
        heads = [_heading(h) for h in df["stacking_points"]]
        t.df_rows = len(heads)
        _fill(t.df_die, [int(d) for d in df["die"]])
        t.df_dice = len(df["die"])
        t.df_big_row = max(range(len(heads)), key=lambda i: heads[i][1])
        t.df_cols = 0
        for i, (lo, hi) in enumerate(heads):
            t.df_row[i][0], t.df_row[i][1] = lo, hi
            cols = df["artillery_points"]["sp_" + df["stacking_points"][i].replace("-", "_")]
            t.df_cols = max(t.df_cols, len(cols))
            if len(cols) > MAX_TABLE:
                raise ValueError("the drumfire table has too many columns")
            for j, text in enumerate(cols):
                span = _heading(text)
                t.df_col[i][j][0], t.df_col[i][j][1] = span if span is not None else (-1, -2)
            for j in range(len(cols), MAX_TABLE):
                t.df_col[i][j][0], t.df_col[i][j][1] = -1, -2
        for i, row in enumerate(df["results"]):
            _fill(t.df_result[i], [-1 if str(x).strip() == "-" else int(x) for x in row])
        keep["town"] = town = _u8(data.town)
        keep["hilltop"] = hilltop = _u8(data.hilltop)
        keep["side_mod"] = side_mod = np.ascontiguousarray(data.side_mod, dtype=np.int16)
        keep["stoss"] = stoss = np.ascontiguousarray(u.extra["stoss"], dtype=np.int16)
        t.town = <const uint8_t*>cnp.PyArray_DATA(town)
        keep["vp_towns"] = vp_towns = np.flatnonzero(
            (np.asarray(town) != 0) & (np.asarray(west) != 0)).astype(np.int32)
        t.vp_towns = <const int32_t*>cnp.PyArray_DATA(vp_towns)
        t.n_vp_towns = vp_towns.shape[0]
        t.hilltop = <const uint8_t*>cnp.PyArray_DATA(hilltop)
        t.side_mod = <const int16_t*>cnp.PyArray_DATA(side_mod)
        t.stoss = <const int16_t*>cnp.PyArray_DATA(stoss)
        lim = tables["barrage_limits"]
        obs = tables["observation"]
        for w_i, w_name in enumerate(("clear", "mist", "fog")):
            j = list(lim["weather"]).index(w_name)
            t.rolling[w_i] = int(lim["rolling"][j])
            t.rolling_observed[w_i] = int(lim["rolling_observed"][j])
            t.sos[w_i] = int(lim["sos"][j])
            t.hilltop_range[w_i] = int(obs["hilltop_range"][list(obs["weather"]).index(w_name)])
        t.rolling_die_per_point = int(lim["rolling_die_per_point"])
        t.sos_points_per_die = int(lim["sos_points_per_die"])
        t.fog_mod = _row_mod(tables["attacker_die_modifiers"], "fog")
        t.corps_mod = _row_mod(tables["defender_die_modifiers"], "attack_by_two_or_more_corps")
        ss = tables["supply_states"]
        states = ("in_supply", "out_of_communications", "out_of_supply", "isolated")
        if len(ss["band"]) > MAX_TABLE:
            raise ValueError("too many supply bands")
        t.n_bands = len(ss["band"])
        for i, band in enumerate(ss["band"]):
            t.band[i][0] = int(band.get("min", 0))
            t.band[i][1] = int(band.get("max", 10**9))
            t.band[i][2] = states.index(band["state"])
            t.band[i][3] = int(band["defender_die"])
        t.isolated_die = int(ss["isolated"]["defender_die"])
        adv = tables["advance_after_combat"]
        for i, kind in enumerate(("stosstruppen", "other_german", "allied")):
            j = list(adv["units"]).index(kind)
            t.advance_mult[0][i] = float(adv["die_multiplier"][j])
            t.advance_mult[1][i] = float(adv["die_multiplier_turns_1_2"][j])
        air = tables["air_points"]
        t.air_first_turn = int(air["first_turn"])
        t.air_points[SIDE_ALLIED] = int(air["allied"])
        t.air_points[SIDE_CENTRAL] = int(air["german"])
        for w_name, rule in zip(air["weather"], air["available"]):
            t.air_available[("clear", "mist", "fog").index(w_name)] = \
                {"all": 0, "half": 1, "none": 2}[rule]
        if air["observation_max"] != "half":
            raise ValueError(f"unknown observation_max rule {air['observation_max']!r}")
        t.air_divisor = int(air["interception_divisor"])
        t.ga_min = int(air["ground_attack_min_points"])
        t.ga_max = int(air["ground_attack_max_points"])
        t.first_turn, t.last_turn = scenario.first_turn, scenario.last_turn
        if not 0 <= t.first_turn <= t.last_turn < 32:
            raise ValueError("the core plays Game-Turns 0 to 31")
        # 11.1 weather
        w = tables["weather"]
        names = ("clear", "mist", "fog")
        t.weather_first_turn = int(w["first_turn"])
        t.pm_modifier = int(w["pm_modifier"])
        t.auto_fog = _bits(w["automatic_fog_turns"])
        t.pm_turns = _bits(data.pm_turns)
        rows = [int(d) for d in w["die"]]
        if not 0 < len(rows) <= MAX_WEATHER_ROWS:
            raise ValueError(f"the weather table has {len(rows)} rows")
        t.n_weather_rows = len(rows)
        for i, (d, r) in enumerate(zip(rows, w["result"])):
            t.weather_die[i] = d
            t.weather_result[i] = names.index(r)
        # 9.81, 9.82
        for s, key in ((SIDE_ALLIED, "allied"), (SIDE_CENTRAL, "german")):
            bands = tables["artillery_points"][key]
            if len(bands) > MAX_ARTY_BANDS:
                raise ValueError(f"more than {MAX_ARTY_BANDS} artillery bands")
            t.n_arty[s] = len(bands)
            for i, b in enumerate(bands):
                t.arty_band[s][i][0] = int(b["first_turn"])
                t.arty_band[s][i][1] = int(b.get("last_turn", 10**6))
                t.arty_band[s][i][2] = int(b["field"])
                t.arty_band[s][i][3] = int(b["heavy"])
        sv = tables["service_companies"]
        t.service_first_turn = int(sv["first_turn"])
        t.service_multiplier = int(sv["die_multiplier"])
        gas = tables["persistent_gas"]
        t.gas_removal = _bits(gas["removal_rolls"])
        from gwe_fast.games.kb.game import ENGINE_ARRAYS
        t.gas_markers = int(ENGINE_ARRAYS["gas"][1](scenario)[0])
        self._keep = keep


cdef int _fill(int* out, values) except -1:
    if len(values) > MAX_TABLE:
        raise ValueError(f"a table of {len(values)} entries (the core holds {MAX_TABLE})")
    for i, v in enumerate(values):
        out[i] = v
    return 0


def _row_mod(table, cause: str) -> int:
    # combat._row_mod
    for row in table["row"]:
        if row["cause"] == cause:
            return int(row["mod"])
    raise KeyError(f"no row for {cause}")


cdef uint32_t _bits(values) except? 0:
    cdef uint32_t out = 0
    for v in values:
        if not 0 <= int(v) < 32:
            raise ValueError(f"{v} is out of the core's range 0-31")
        out |= (<uint32_t>1) << int(v)
    return out


# --- the game's record --------------------------------------------------------------------

#: the fields of a Kaiser's Battle State the core points at: name -> dtype (shapes checked
#: against the scenario by KbCore)
FIELDS = {
    "turn": np.int16, "phase": np.int16, "player": np.int8, "vp": np.int32,
    "unit_cell": np.int32, "unit_step": np.int8, "unit_status": np.uint16, "hex_last": np.int8,
    "flags": np.uint16, "vp_cause": np.int32, "steps_lost": np.int32, "sp_lost": np.int32,
    "corps": np.int16, "arty": np.int16, "arty_spent": np.int32, "weather": np.int8,
    "weather_turns": np.int16, "gas": np.int32, "gas_placed": np.int16, "air": np.int16,
    "observed": np.int8, "drumfired": np.int8, "move_quota": np.int16, "exited": np.int16,
    "broken_down": np.int16, "service_placed": np.int16, "arty_lost": np.int32,
    "arrival_hex": np.int16,
}


@lru_cache(maxsize=64)
def _field_starts(layout, n_units, n_cells):
    # where each field the core reads lies in a state record of this layout, checked once a
    # layout: there, of the dtype the core reads, one value a unit or a hex where it should be
    where = {name: (np.dtype(dtype), tuple(shape), start)
             for name, dtype, shape, start, _ in layout}
    out = {}
    for name, want in FIELDS.items():
        if name not in where:
            raise ValueError(f"the state has no field {name}")
        dtype, shape, start = where[name]
        if dtype != np.dtype(want):
            raise ValueError(f"the state's {name} is {dtype}, the core reads {np.dtype(want)}")
        out[name] = start
    for name in ("unit_cell", "unit_step", "unit_status", "flags", "corps"):
        if where[name][1] != (n_units,):
            raise ValueError(f"the state's {name} is not one value a unit")
    for name in ("hex_last", "observed", "drumfired", "arrival_hex"):
        if where[name][1] != (n_cells,):
            raise ValueError(f"the state's {name} is not one value a hex")
    return out


cdef class KbCore:
    """A ``KbGame`` seen from the compiled core (see the module). Made by the game
    (``KbGame.core``) when it plays without an event log; it holds pointers into the game's
    state buffer, so it lives no longer than the game."""

    def __init__(self, game, KbTables tables=None):
        if game.events is not None:
            raise ValueError("the compiled core keeps no event log: play with events off")
        self.tables = KbTables(game.scenario) if tables is None else tables
        self._game = game
        st = game.state
        self._buffer = st.buffer
        cdef uint8_t[::1] buf = st.buffer
        cdef char* base = <char*>&buf[0] if buf.shape[0] else NULL
        cdef dict ptr = {name: <size_t>base + <size_t>start for name, start in
                         _field_starts(st.layout, game.scenario.units.n,
                                       game.scenario.map.n_cells).items()}
        cdef KbS* s = &self.k.s
        s.turn = <int16_t*><size_t>ptr["turn"]
        s.phase = <int16_t*><size_t>ptr["phase"]
        s.player = <int8_t*><size_t>ptr["player"]
        s.vp = <int32_t*><size_t>ptr["vp"]
        s.unit_cell = <int32_t*><size_t>ptr["unit_cell"]
        s.unit_step = <int8_t*><size_t>ptr["unit_step"]
        s.unit_status = <uint16_t*><size_t>ptr["unit_status"]
        s.hex_last = <int8_t*><size_t>ptr["hex_last"]
        s.flags = <uint16_t*><size_t>ptr["flags"]
        s.vp_cause = <int32_t*><size_t>ptr["vp_cause"]
        s.steps_lost = <int32_t*><size_t>ptr["steps_lost"]
        s.sp_lost = <int32_t*><size_t>ptr["sp_lost"]
        s.corps = <int16_t*><size_t>ptr["corps"]
        s.arty = <int16_t*><size_t>ptr["arty"]
        s.arty_spent = <int32_t*><size_t>ptr["arty_spent"]
        s.weather = <int8_t*><size_t>ptr["weather"]
        s.weather_turns = <int16_t*><size_t>ptr["weather_turns"]
        s.gas = <int32_t*><size_t>ptr["gas"]
        s.gas_placed = <int16_t*><size_t>ptr["gas_placed"]
        s.air = <int16_t*><size_t>ptr["air"]
        s.observed = <int8_t*><size_t>ptr["observed"]
        s.drumfired = <int8_t*><size_t>ptr["drumfired"]
        s.move_quota = <int16_t*><size_t>ptr["move_quota"]
        s.exited = <int16_t*><size_t>ptr["exited"]
        s.broken_down = <int16_t*><size_t>ptr["broken_down"]
        s.service_placed = <int16_t*><size_t>ptr["service_placed"]
        s.arty_lost = <int32_t*><size_t>ptr["arty_lost"]
        s.arrival_hex = <int16_t*><size_t>ptr["arrival_hex"]
        if st.field("gas").shape[0] > 32:
            raise ValueError("more than 32 gas markers")
        self.k.t = &self.tables.t
        bind_policies(self.k.pol, self.k.level, game)
        self._ask = game.ask
        self.k.ask = <PyObject*>self._ask
        cdef Py_ssize_t nc = self.tables.t.n_cells, nu = self.tables.t.n_units, i
        self.k.mask_a = <flag_t*>malloc(nc + 1)
        self.k.mask_b = <flag_t*>malloc(nc + 1)
        self.k.work = <int32_t*>malloc((6 * nu + 4 * nc + 16) * sizeof(int32_t))
        self.k.line_seen = <flag_t*>malloc(nc + 1)
        self.k.line_closed = <flag_t*>malloc(nc + 1)
        self.k.line_want = <flag_t*>calloc(nc + 1, 1)
        self.k.occ = <uint8_t*>calloc(4 * nc + 1, 1)
        self.k.zoc = self.k.occ + 2 * nc
        self.k.line_ask = <int32_t*>malloc((nu + 1) * sizeof(int32_t))
        self.k.line_queue = <int32_t*>malloc((nc + 1) * sizeof(int32_t))
        self.k.line_dist = <int32_t*>malloc((nc + 1) * sizeof(int32_t))
        self.k.line_reached = <int32_t*>malloc((nc + 1) * sizeof(int32_t))
        if self.k.line_dist != NULL:
            for i in range(nc):                 # -1: no line (line_lengths)
                self.k.line_dist[i] = -1
        self.k.n_line_reached = 0
        self.k.attack = <int32_t*>malloc((3 * nu + nc + 16) * sizeof(int32_t))
        self.k.unit_mask = <flag_t*>malloc(nu + 1)
        self.k.obligated = <flag_t*>malloc(2 * nu + nc + 2)
        self.k.attacked = self.k.obligated + nu
        self.k.target = self.k.attacked + nu
        self.k.free_units = <int32_t*>malloc((nu + 2 * nc + 1) * sizeof(int32_t))
        self.k.obligated_stacks = self.k.free_units + nu
        self.k.defended = self.k.obligated_stacks + nc
        if (self.k.mask_a == NULL or self.k.mask_b == NULL or self.k.work == NULL
                or self.k.line_seen == NULL or self.k.line_closed == NULL
                or self.k.line_want == NULL or self.k.line_ask == NULL or self.k.occ == NULL
                or self.k.line_queue == NULL or self.k.line_dist == NULL
                or self.k.line_reached == NULL
                or self.k.attack == NULL or self.k.unit_mask == NULL
                or self.k.obligated == NULL or self.k.free_units == NULL):
            raise MemoryError()
        obl_alloc(&self.k.obl, nc, nu)
        self.k.steps = <stepcost_t*>malloc((6 * nc + 1) * sizeof(stepcost_t))
        self.k.patched = <int32_t*>malloc((12 * nc + 1) * sizeof(int32_t))
        self.k.was = <stepcost_t*>malloc((12 * nc + 1) * sizeof(stepcost_t))
        if self.k.steps == NULL or self.k.patched == NULL or self.k.was == NULL:
            raise MemoryError()
        memcpy(self.k.steps, self.tables.t.open_steps, 6 * nc * sizeof(stepcost_t))
        self.k.n_patched = 0
        range_alloc(&self.k.rng, nc)
        self.k.move_bits = <uint64_t*>calloc((nc + 63) // 64 + 1, sizeof(uint64_t))
        if self.k.move_bits == NULL:
            raise MemoryError()
        from gwe_fast import kernels
        if game.scenario.map.k.name != "cython":
            raise ValueError("the compiled core plays on the compiled kernels only")
        self.ws = kernels.workspace(game.scenario.map)
        self._streams = [None] * N_DICE

    def __dealloc__(self):
        free(self.k.mask_a)
        free(self.k.mask_b)
        free(self.k.work)
        free(self.k.line_seen)
        free(self.k.line_closed)
        free(self.k.line_want)
        free(self.k.occ)
        free(self.k.line_ask)
        free(self.k.line_queue)
        free(self.k.line_dist)
        free(self.k.line_reached)
        free(self.k.attack)
        free(self.k.unit_mask)
        free(self.k.obligated)
        free(self.k.free_units)
        obl_release(&self.k.obl)
        free(self.k.steps)
        free(self.k.patched)
        free(self.k.was)
        range_free(&self.k.rng)
        free(self.k.move_bits)

    def record_numbers(self) -> tuple:
        """The numbers of a row of the per-turn record as the position stands
        (``engine.snapshot``): the towns the German player holds west of the VP line (20.11),
        the German total if the game ended now (20.11, 20.13), the gas markers on the map,
        the units exited; then for the Allied and the German side in turn: units on the map,
        their Stacking Points, steps lost, steps lost by cause (``LOSS_CAUSES``) and the
        Artillery Points spent by mission (``MISSIONS``)."""
        cdef int32_t row[RECORD_MAX]
        cdef Py_ssize_t n, i
        recount(&self.k)
        n = record_numbers(&self.k, row)
        return tuple([row[i] for i in range(n)])

    def has_supply_line(self, int side, int cell) -> bool:
        """Whether a unit of ``side`` in ``cell`` traces a supply line of any length to a
        friendly HQ (``supply.line_lengths(game, side)[cell] >= 0``): for the tests."""
        if not 0 <= cell < self.k.t.n_cells or side not in (SIDE_ALLIED, SIDE_CENTRAL):
            raise ValueError(f"no cell {cell} or side {side}")
        recount(&self.k)
        return has_supply_line(&self.k, side, cell)

    @property
    def decisions(self) -> int:
        """Decisions the core has asked (a single option is not asked)."""
        return self.k.decisions

    def movement_segment(self, int side, int segment) -> bool:
        """One Movement Segment of ``side`` (``movement.FIRST`` or ``SECOND``), as
        ``engine.movement_segment`` plays it; a player who does not pick at random is asked
        through the game's ``ask``, with the options the Python engine lists, in its order:
        which unit (``kb.move.unit``), then where it goes (``kb.move.to``). The segment rolls
        no dice; True when played."""
        if side != SIDE_ALLIED and side != SIDE_CENTRAL:
            raise ValueError(f"no side {side}")
        if segment != SEG_FIRST and segment != SEG_SECOND:
            raise ValueError(f"no Movement Segment {segment}")
        self.k.error = ERR_NONE
        recount(&self.k)
        movement_segment(&self.k, side, segment)
        if self.k.error:
            raise RuntimeError(_ERRORS[self.k.error])
        return True

    def plays(self, int phase) -> bool:
        """Whether ``run_phase(phase)`` would play the phase here."""
        if phase not in COMPILED:
            return False
        if phase == KP_REINFORCEMENT_STAGE or phase == KP_AIR_STAGE or \
                phase == KP_ARTILLERY_STAGE or phase == KP_GERMAN_COMBAT or \
                phase == KP_ALLIED_COMBAT:
            return self.k.level[SIDE_ALLIED] == LEVEL_RANDOM and \
                self.k.level[SIDE_CENTRAL] == LEVEL_RANDOM
        if phase == KP_GERMAN_BREAKDOWN or phase == KP_GERMAN_MOVEMENT:
            return self.k.level[SIDE_CENTRAL] == LEVEL_RANDOM
        if phase == KP_ALLIED_MOVEMENT:
            return self.k.level[SIDE_ALLIED] == LEVEL_RANDOM
        return True

    def run_phase(self, int phase) -> bool:
        """Play the phase of the state's Game-Turn in C, as the Python engine's ``run_phase``
        would; False, with nothing done, when the core does not play it (``plays``), or when
        a dice stream it rolls has forced values queued (``GameDice.force``: the tests force
        dice on the Python engine)."""
        if not self.plays(phase):
            return False
        used = _STREAMS_OF.get(phase, ())
        fresh = self._bind(used)
        if fresh is None:
            return False
        self.k.error = ERR_NONE
        recount(&self.k)
        try:
            self._play(phase)
        finally:
            self._unbind(used, fresh)
        if self.k.error:
            raise RuntimeError(_ERRORS[self.k.error])
        return True

    def play_out(self, order, phasing) -> list | None:
        """Play from the phase the state says to the end of the last Game-Turn in C, as the
        Python engine's ``advance`` does with no stop and no check, when the core plays every
        phase (both players pick at random); the per-turn record's numbers after each Combat
        Phase, as ``(turn, side, vp, weather, *record_numbers())``. None, with nothing done,
        when it does not play them all or a dice stream has forced values queued. ``order``:
        the phases of a Game-Turn in playing order; ``phasing``: the phasing side of each
        (by phase code; a phase not in it is the German player's)."""
        cdef int n_order = len(order), i, start, turn, phase, side, rows = 0
        cdef int32_t rec[RECORD_MAX]
        cdef Py_ssize_t n, j
        cdef int ord_[16]
        cdef int who[16]
        if n_order > 16 or any(not self.plays(int(ph)) for ph in order):
            return None
        for i in range(n_order):
            ord_[i] = int(order[i])
            who[i] = int(phasing.get(ord_[i], SIDE_CENTRAL))
        used = tuple(sorted({d for ph in order for d in _STREAMS_OF.get(int(ph), ())}))
        fresh = self._bind(used)
        if fresh is None:
            return None
        out = []
        cdef KbS* st = &self.k.s
        start = 0
        if st.phase[0] > 0:
            start = -1
            for i in range(n_order):
                if ord_[i] == st.phase[0]:
                    start = i
            if start < 0:
                self._unbind(used, fresh)
                raise ValueError(f"the state's phase {st.phase[0]} is not a phase of the turn")
        self.k.error = ERR_NONE
        recount(&self.k)
        turn = st.turn[0]
        try:
            while turn <= self.k.t.last_turn:
                st.turn[0] = <int16_t>turn
                for i in range(start, n_order):
                    phase = ord_[i]
                    st.phase[0] = <int16_t>phase
                    st.player[0] = <int8_t>who[i]
                    self._play(phase)
                    if self.k.error:
                        return None
                    st.phase[0] = <int16_t>(ord_[i + 1] if i + 1 < n_order else 0)
                    if phase == KP_GERMAN_COMBAT or phase == KP_ALLIED_COMBAT:
                        n = record_numbers(&self.k, rec)
                        out.append((turn, who[i], st.vp[0], self.k.s.weather[0],
                                    *[rec[j] for j in range(n)]))
                start = 0
                turn += 1
                if turn <= self.k.t.last_turn:
                    st.turn[0] = <int16_t>turn
        finally:
            self._unbind(used, fresh)
            if self.k.error:
                raise RuntimeError(_ERRORS[self.k.error])
        return out

    cdef object _bind(self, used):
        return bind_streams(self.k.dice, self._streams, self._game.dice, STREAM_NAMES, used)

    cdef int _unbind(self, used, fresh) except -1:
        return unbind_streams(self.k.dice, self._streams, self._game.dice, STREAM_NAMES,
                              used, fresh)

    cdef int _play(self, int phase) except -1:
        cdef int side
        if phase == KP_WEATHER_STAGE:
            start_of_turn(&self.k)
            weather_stage(&self.k)
        elif phase == KP_REINFORCEMENT_STAGE:
            reinforcement_stage(&self.k)
        elif phase == KP_GERMAN_BREAKDOWN:
            breakdown_phase(&self.k)
        elif phase == KP_AIR_STAGE:
            air_stage(&self.k)
        elif phase == KP_ARTILLERY_STAGE:
            counter_battery_phase(&self.k)
            gas_phase(&self.k)
            drumfire_phase(&self.k)
        elif phase == KP_GERMAN_COMBAT or phase == KP_ALLIED_COMBAT:
            side = SIDE_CENTRAL if phase == KP_GERMAN_COMBAT else SIDE_ALLIED
            deploy_observation(&self.k, side)
            combat_phase(&self.k, self.ws, side)
        elif phase == KP_GERMAN_MOVEMENT:
            movement_phase(&self.k, SIDE_CENTRAL)
        elif phase == KP_ALLIED_MOVEMENT:
            movement_phase(&self.k, SIDE_ALLIED)
        else:
            gas_removal(&self.k)
            end_of_turn(&self.k)
        return 0


#: the dice streams each phase rolls
_STREAMS_OF = {int(KP_WEATHER_STAGE): (DS_WEATHER,),
               int(KP_REINFORCEMENT_STAGE): (DS_REINFORCEMENT,),
               int(KP_TERMINAL): (DS_GAS,),
               int(KP_GERMAN_MOVEMENT): (DS_OPENING,), int(KP_ALLIED_MOVEMENT): (DS_OPENING,),
               int(KP_AIR_STAGE): (DS_AIR,),
               int(KP_GERMAN_COMBAT): (DS_COMBAT,), int(KP_ALLIED_COMBAT): (DS_COMBAT,),
               int(KP_ARTILLERY_STAGE): (DS_ARTILLERY,)}


_ERRORS = {ERR_NO_ENTRY_HEX: "no map-edge hex free of the enemy for a reinforcement (15.13)",
           ERR_POOL: "the regimental replacement pool holds fewer than three units (13.11)",
           ERR_NO_ENTRY_LETTER: "a reinforcement's entry letter has no entry hexes (15.11)",
           ERR_MEMORY: "out of memory",
           ERR_SUPPLY_BAND: "a supply line that no supply state covers (14.13)",
           ERR_NO_DEFENCE: "a defending stack with no strength (8.0)",
           ERR_OBLIGATIONS: "combat obligations left that no attack can meet (8.11, 8.12)",
           ERR_JOIN: "a unit that may neither join an attack nor stay out (8.21)"}


# --- what every phase reads ---------------------------------------------------------------

cdef inline int64_t choose(Kb* k, int kind, int side, int64_t n) noexcept nogil:
    # the index a side's policy picks among n options (a single option is not asked)
    if n <= 1:
        return 0
    k.decisions += 1
    return policy_draw(k.pol[side], n)


cdef inline bint on_map(const Kb* k, Py_ssize_t u) noexcept nogil:
    return (k.s.unit_status[u] & ST_ON_MAP) != 0


cdef void occupied(Kb* k, int side, flag_t* out) noexcept nogil:
    # cells holding units of side (zoc.occupied): read off the counts kept up to date
    cdef Py_ssize_t c
    cdef const uint8_t* count = k.occ + side * k.t.n_cells
    for c in range(k.t.n_cells):
        out[c] = count[c] != 0


cdef void controlled(Kb* k, int side, flag_t* out) noexcept nogil:
    # the six hexes around every unit of side on the map; service companies exert none
    # (6.0, 6.11, 6.13, 15.24: zoc.controlled): read off the counts kept up to date
    cdef Py_ssize_t c
    cdef const uint8_t* count = k.zoc + side * k.t.n_cells
    for c in range(k.t.n_cells):
        out[c] = count[c] != 0


cdef void recount(Kb* k) noexcept nogil:
    # occupied and controlled from the state as it stands: made at every entry to the core
    # (the Python engine may have moved units since), then kept up to date by count_out and
    # count_in around every change of a unit's hex, status or service face
    cdef Py_ssize_t u
    memset(k.occ, 0, 2 * k.t.n_cells)
    memset(k.zoc, 0, 2 * k.t.n_cells)
    for u in range(k.t.n_units):
        count_in(k, u)


cdef inline void count_out(Kb* k, Py_ssize_t u) noexcept nogil:
    # take unit u's marks off the counts, if it is on the map: before it changes
    _mark(k, u, -1)


cdef inline void count_in(Kb* k, Py_ssize_t u) noexcept nogil:
    # put unit u's marks on the counts, if it is on the map: after it changed
    _mark(k, u, 1)


cdef inline void _mark(Kb* k, Py_ssize_t u, int by) noexcept nogil:
    cdef Py_ssize_t n = k.t.n_cells, base
    cdef int32_t c = k.s.unit_cell[u], v
    cdef int d, side = k.t.side[u]
    if not on_map(k, u) or c < 0 or c >= n:
        return
    k.occ[side * n + c] += by
    if k.s.flags[u] & KF_SERVICE:
        return
    base = 6 * <Py_ssize_t>c
    for d in range(6):
        v = k.t.nbr[base + d]
        if v >= 0:
            k.zoc[side * n + v] += by


cdef inline void place(Kb* k, Py_ssize_t u, int32_t cell) noexcept nogil:
    # reinforcements.place
    count_out(k, u)
    k.s.unit_cell[u] = cell
    k.s.unit_status[u] = ST_ON_MAP
    count_in(k, u)
    k.s.hex_last[cell] = k.t.side[u]


# --- 4.2 A: the start of the Game-Turn and the Weather Stage -------------------------------

cdef void start_of_turn(Kb* k) noexcept nogil:
    # both Artillery Tracks get this Game-Turn's points (9.0, 9.81, 9.82: artillery.receive);
    # on the first Game-Turn the German units in trench hexes are marked (17.11)
    cdef int turn = k.s.turn[0], side, i, f, h
    cdef Py_ssize_t u
    for side in range(2):
        f = h = 0
        for i in range(k.t.n_arty[side]):
            if k.t.arty_band[side][i][0] <= turn <= k.t.arty_band[side][i][1]:
                f = k.t.arty_band[side][i][2]
                h = k.t.arty_band[side][i][3]
                break
        k.s.arty[2 * side] = f
        k.s.arty[2 * side + 1] = h
    if turn == k.t.first_turn:
        for u in range(k.t.n_units):
            if on_map(k, u) and k.t.side[u] == SIDE_CENTRAL and \
                    k.t.trench[k.s.unit_cell[u] if k.s.unit_cell[u] >= 0 else 0]:
                k.s.flags[u] |= KF_OPENING


cdef void weather_stage(Kb* k) noexcept nogil:
    # 11.1 (weather.weather_stage): fog on the automatic turns and before the table's first
    # Game-Turn (11.13, 17.4); else the die, +1 on PM turns (11.12), kept within the table
    cdef int turn = k.s.turn[0], w, die, r, i
    if (turn >= 0 and (k.t.auto_fog >> turn) & 1) or turn < k.t.weather_first_turn:
        w = W_FOG
    else:
        die = roll(&k.dice[DS_WEATHER])
        r = die + (k.t.pm_modifier if (k.t.pm_turns >> turn) & 1 else 0)
        if r < k.t.weather_die[0]:
            r = k.t.weather_die[0]
        if r > k.t.weather_die[k.t.n_weather_rows - 1]:
            r = k.t.weather_die[k.t.n_weather_rows - 1]
        w = W_FOG
        for i in range(k.t.n_weather_rows):
            if k.t.weather_die[i] == r:
                w = k.t.weather_result[i]
                break
    k.s.weather[0] = w
    k.s.weather_turns[w] += 1


# --- 4.2 C: the Reinforcement Stage (15.0) --------------------------------------------------

cdef void reinforcement_stage(Kb* k) noexcept nogil:
    scheduled_segment(k)
    if k.error == ERR_NONE:
        service_segment(k)


cdef void scheduled_segment(Kb* k) noexcept nogil:
    # 15.11-15.13 (reinforcements.scheduled_segment): each unit due this Game-Turn, ascending,
    # in a hex of its entry letter free of the enemy's units and zones of control, else a
    # map-edge hex near it
    cdef int turn = k.s.turn[0], side, e
    cdef Py_ssize_t u, j, n_ok
    cdef int32_t c
    cdef int32_t* ok = k.work
    for u in range(k.t.n_units):
        if not (k.s.unit_status[u] & ST_PENDING) or k.t.arrival_turn[u] != turn:
            continue
        side = k.t.side[u]
        e = k.t.entry[u]
        if e < 0 or e >= MAX_ENTRIES or k.t.entry_start[e] == k.t.entry_start[e + 1]:
            k.error = ERR_NO_ENTRY_LETTER
            return
        occupied(k, 1 - side, k.mask_a)
        controlled(k, 1 - side, k.mask_b)
        n_ok = 0
        for j in range(k.t.entry_start[e], k.t.entry_start[e + 1]):
            c = k.t.entry_cells[j]
            if not k.mask_a[c] and not k.mask_b[c]:
                ok[n_ok] = c
                n_ok += 1
        if n_ok == 0:
            n_ok = alternate_hexes(k, e, ok)
        if n_ok == 0:
            k.error = ERR_NO_ENTRY_HEX
            return
        c = ok[choose(k, KD_REINFORCEMENT_HEX, side, n_ok)]
        place(k, u, c)
        k.s.flags[u] |= KF_ARRIVED
        k.s.arrival_hex[c] = turn                       # 15.15


cdef int32_t _entry_distance(Kb* k, int e, Py_ssize_t c) noexcept nogil:
    # hexes from c to the nearest entry hex of letter e; -1 for a hex that may not be used
    # (off the map edge, or the enemy's: masks a, b)
    cdef Py_ssize_t j
    cdef int32_t best = -1, d
    if not k.t.map_edge[c] or k.mask_a[c] or k.mask_b[c]:
        return -1
    for j in range(k.t.entry_start[e], k.t.entry_start[e + 1]):
        d = k.t.edge_dist[j * k.t.n_cells + c]
        if best < 0 or d < best:
            best = d
    return best


cdef Py_ssize_t alternate_hexes(Kb* k, int e, int32_t* out) noexcept nogil:
    # 15.13 (reinforcements.alternate_hexes): the map-edge hexes free of the enemy (masks a, b)
    # within 3 hexes of an entry hex of the letter, or within the nearest ring beyond that
    # holds any; ascending
    cdef Py_ssize_t c, n = 0
    cdef int32_t d, nearest = -1, radius
    for c in range(k.t.n_cells):
        d = _entry_distance(k, e, c)
        if d >= 0 and (nearest < 0 or d < nearest):
            nearest = d
    if nearest < 0:
        return 0
    radius = nearest if nearest > ALTERNATE_RADIUS else ALTERNATE_RADIUS
    for c in range(k.t.n_cells):
        d = _entry_distance(k, e, c)
        if d >= 0 and d <= radius:
            out[n] = <int32_t>c
            n += 1
    return n


cdef void service_segment(Kb* k) noexcept nogil:
    # 15.21-15.25 (reinforcements.service_segment): from the table's first Game-Turn, a die
    # (times the multiplier) of service companies, each the lowest eliminated British
    # battalion, on any Allied HQ's hex (ascending hexes, 15.23), while there are battalions
    cdef int turn = k.s.turn[0], n, i
    cdef Py_ssize_t u, n_cells = 0, company, j
    cdef int32_t c
    cdef int32_t* cells = k.work
    if turn < k.t.service_first_turn:
        return
    n = roll(&k.dice[DS_REINFORCEMENT]) * k.t.service_multiplier
    memset(k.mask_a, 0, k.t.n_cells)
    for u in range(k.t.n_units):
        if on_map(k, u) and k.t.side[u] == SIDE_ALLIED and k.t.utype[u] == UT_HQ:
            k.mask_a[k.s.unit_cell[u]] = 1
    for c in range(k.t.n_cells):
        if k.mask_a[c]:
            cells[n_cells] = c
            n_cells += 1
    if n_cells == 0:
        return
    for i in range(n):
        company = -1
        for u in range(k.t.n_units):
            if k.t.has_service_face[u] and (k.s.unit_status[u] & ST_ELIMINATED):
                company = u
                break
        if company < 0:
            return
        c = cells[choose(k, KD_REINFORCEMENT_SERVICE, SIDE_ALLIED, n_cells)]
        place(k, company, c)
        count_out(k, company)
        k.s.flags[company] = KF_SERVICE
        count_in(k, company)
        k.s.unit_step[company] = 0
        k.s.service_placed[0] += 1


# --- 4.2 E1: the German Breakdown Phase (13.1) ----------------------------------------------

cdef void breakdown_phase(Kb* k) noexcept nogil:
    # breakdown.breakdown_phase: from Game-Turn 3 (17.6), the eligible divisions (German, on
    # the map, outside the Allied zones of control as the phase began, 13.11, while the pool
    # holds three regiments, 13.23) are offered one at a time, with "none" first
    cdef Py_ssize_t u, n, i
    cdef int32_t* options = k.work
    if k.s.turn[0] < 3:
        return
    controlled(k, SIDE_ALLIED, k.mask_b)
    while True:
        n = 0
        if pool_free(k, NULL) >= REGIMENTS:
            for u in range(k.t.n_units):
                if on_map(k, u) and k.t.side[u] == SIDE_CENTRAL and k.t.division[u] \
                        and not k.mask_b[k.s.unit_cell[u]]:
                    options[n] = <int32_t>u
                    n += 1
        if n == 0:
            return
        i = choose(k, KD_BREAKDOWN_DIVISION, SIDE_CENTRAL, n + 1)
        if i == 0:
            return
        if break_down(k, options[i - 1]) < 0:
            return


cdef Py_ssize_t pool_free(Kb* k, int32_t* out) noexcept nogil:
    # the regimental replacement units waiting in the pool, ascending (units.pool_free)
    cdef Py_ssize_t u, n = 0
    for u in range(k.t.n_units):
        if k.t.replacement[u] and (k.s.unit_status[u] & ST_POOL):
            if out != NULL:
                out[n] = <int32_t>u
            n += 1
    return n


cdef int break_down(Kb* k, Py_ssize_t division) noexcept nogil:
    # breakdown.break_down: three regiments in the division's hex (13.11), unable to move in
    # the ensuing Movement Phase (13.12), of its corps (16.0); the division is gone (13.13)
    cdef int32_t regs[REGIMENTS]
    cdef Py_ssize_t u, n = 0, i
    cdef int32_t cell = k.s.unit_cell[division]
    for u in range(k.t.n_units):
        if k.t.replacement[u] and (k.s.unit_status[u] & ST_POOL):
            regs[n] = <int32_t>u
            n += 1
            if n == REGIMENTS:
                break
    if n < REGIMENTS:
        k.error = ERR_POOL
        return -1
    for i in range(REGIMENTS):
        u = regs[i]
        count_out(k, u)
        k.s.unit_cell[u] = cell
        k.s.unit_status[u] = ST_ON_MAP
        k.s.unit_step[u] = 0
        k.s.corps[u] = k.s.corps[division]
        k.s.flags[u] = KF_NO_MOVE
        count_in(k, u)
    count_out(k, division)
    k.s.unit_cell[division] = -1
    k.s.unit_status[division] = ST_NOT_IN_PLAY
    k.s.broken_down[0] += 1
    return 0


# --- 4.2 G: the Terminal Phase --------------------------------------------------------------

cdef void gas_removal(Kb* k) noexcept nogil:
    # 9.35 (artillery.gas_removal): a die for each marker on the map, in slot order; off on a
    # removing die
    cdef Py_ssize_t i
    cdef int die
    for i in range(k.t.gas_markers):
        if k.s.gas[i] < 0:
            continue
        die = roll(&k.dice[DS_GAS])
        if (k.t.gas_removal >> die) & 1:
            k.s.gas[i] = -1


cdef void end_of_turn(Kb* k) noexcept nogil:
    # engine.end_of_turn: arrivals count this Game-Turn only (15.15, 15.16); air points go
    cdef Py_ssize_t u
    for u in range(k.t.n_units):
        k.s.flags[u] &= ~KF_ARRIVED
    memset(k.s.air, 0, 6 * sizeof(int16_t))


# --- steps, faces and eliminations (units.py) ----------------------------------------------

cdef enum:
    # LOSS_CAUSES of game.py, in order
    LC_COMBAT = 0
    LC_RETREAT = 1
    LC_DRUMFIRE = 2
    LC_GROUND_ATTACK = 3
    LC_GAS = 4
    LC_STACKING = 5
    LC_OTHER = 6
    N_LOSS_CAUSES = 7
    # VP_CAUSES of game.py, in order
    VC_INITIAL = 0
    VC_TOWNS = 1
    VC_EXITS = 2
    VC_ALLIED_IN_TRENCHES = 3
    VC_DIVISIONS_REPLACED = 4
    # the faces' columns (units.COMBAT, MORALE, MOVEMENT)
    V_COMBAT = 0
    V_MORALE = 1
    V_MOVEMENT = 2


cdef inline void add_vp(Kb* k, int cause, int vp) noexcept nogil:
    # PlayedGame.add_vp
    k.s.vp_cause[cause] += vp
    k.s.vp[0] += vp


cdef inline int face_value(const Kb* k, Py_ssize_t u, int column) noexcept nogil:
    # units.face: a service company shows its reverse
    if k.s.flags[u] & KF_SERVICE:
        return k.t.service_values[3 * u + column]
    return k.t.values[(u * k.t.n_rows + k.s.unit_step[u]) * 3 + column]


cdef inline int stacking_of(const Kb* k, Py_ssize_t u) noexcept nogil:
    # units.stacking: a service company is a company (1)
    return 1 if k.s.flags[u] & KF_SERVICE else k.t.stacking[u]


cdef int steps_left(Kb* k, Py_ssize_t u) noexcept nogil:
    # units.steps_left: a division's third step counts while the pool can give it
    cdef int left
    if not on_map(k, u):
        return 0
    if k.s.flags[u] & KF_SERVICE:
        return 1
    left = k.t.n_steps[u] - k.s.unit_step[u]
    if k.t.division[u] and pool_free(k, NULL) > 0:
        left += 1
    return left


cdef void remove_unit(Kb* k, Py_ssize_t u, int cause) noexcept nogil:
    # units._remove: a replacement unit back to the pool (13.23), anything else eliminated
    # (a British battalion's reverse waiting as a service company, 15.22, 15.25)
    cdef int side = k.t.side[u]
    k.s.sp_lost[side * N_LOSS_CAUSES + cause] += stacking_of(k, u)
    count_out(k, u)
    k.s.unit_cell[u] = -1
    if k.t.replacement[u]:
        k.s.unit_status[u] = ST_POOL
        k.s.flags[u] = 0
        k.s.corps[u] = -1
    else:
        k.s.unit_status[u] = ST_ELIMINATED
        k.s.flags[u] &= ~KF_SERVICE
        k.s.unit_step[u] = 0 if k.t.has_service_face[u] else k.t.n_steps[u]


cdef int lose_steps(Kb* k, Py_ssize_t u, int n, int cause) noexcept nogil:
    # units.lose_steps: a division losing its last printed face is replaced by the pool's
    # lowest regimental replacement unit in its hex (8.5[1]), -1 VP (20.14), which takes any
    # further step; returns the steps lost
    cdef int lost = 0, side, printed_left
    cdef Py_ssize_t rep, r
    cdef int32_t cell
    while n > 0 and on_map(k, u):
        side = k.t.side[u]
        printed_left = k.t.n_steps[u] - k.s.unit_step[u]
        k.s.steps_lost[side * N_LOSS_CAUSES + cause] += 1
        n -= 1
        lost += 1
        if k.s.flags[u] & KF_SERVICE or printed_left > 1:
            if k.s.flags[u] & KF_SERVICE:
                remove_unit(k, u, cause)
            else:
                k.s.unit_step[u] += 1
            continue
        if k.t.division[u]:
            rep = -1
            for r in range(k.t.n_units):
                if k.t.replacement[r] and (k.s.unit_status[r] & ST_POOL):
                    rep = r
                    break
            if rep >= 0:                                   # 8.5[1], 13.21[2]
                cell = k.s.unit_cell[u]
                remove_unit(k, u, cause)
                count_out(k, rep)
                k.s.unit_cell[rep] = cell
                k.s.unit_status[rep] = ST_ON_MAP
                k.s.unit_step[rep] = 0
                k.s.corps[rep] = k.s.corps[u]
                k.s.flags[rep] = k.s.flags[u] | KF_FROM_DIVISION
                count_in(k, rep)
                k.s.sp_lost[side * N_LOSS_CAUSES + cause] -= stacking_of(k, rep)
                add_vp(k, VC_DIVISIONS_REPLACED, -1)      # 20.14
                u = rep
                continue
        remove_unit(k, u, cause)
    return lost


cdef int eliminate(Kb* k, Py_ssize_t u, int cause) noexcept nogil:
    # units.eliminate: every step left; a division removed whole is never replaced (20.14)
    cdef int n
    if not k.t.division[u] or not on_map(k, u):
        return lose_steps(k, u, steps_left(k, u), cause)
    n = steps_left(k, u)
    k.s.steps_lost[k.t.side[u] * N_LOSS_CAUSES + cause] += n
    remove_unit(k, u, cause)
    return n


cdef Py_ssize_t units_at(Kb* k, int32_t cell, int side, int32_t* out) noexcept nogil:
    # State.units_at, ascending; of one side only when side >= 0
    cdef Py_ssize_t u, n = 0
    for u in range(k.t.n_units):
        if k.s.unit_cell[u] == cell and on_map(k, u) and (side < 0 or k.t.side[u] == side):
            out[n] = <int32_t>u
            n += 1
    return n


cdef int take_steps(Kb* k, int32_t cell, int n, int cause, int kind) noexcept nogil:
    # artillery.take_steps: the stack loses n steps, its owner choosing the unit of each
    cdef int lost = 0, i
    cdef Py_ssize_t m
    cdef int32_t* here = k.work
    for i in range(n):
        m = units_at(k, cell, -1, here)
        if m == 0:
            break
        lost += lose_steps(k, here[choose(k, kind, k.t.side[here[0]], m)], 1, cause)
    return lost


# --- 7.21 stacking, 9.34 gas, 14.1 supply lines, 20.2 exits --------------------------------

cdef void enforce_stacking(Kb* k, int side) noexcept nogil:
    # stacking.enforce: each hex of side over the limit when the phase ends (7.21), ascending,
    # unless reinforcements placed this turn are in an entry hex or the hex they were placed
    # in (15.13, 15.15); the owner eliminates units until it is within the limit
    cdef Py_ssize_t u, n, j, n_over = 0
    cdef int32_t c, turn = k.s.turn[0]
    cdef int32_t* sp = k.work                        # [n_cells] then the hexes over the limit
    cdef int32_t* over = k.work + k.t.n_cells
    cdef int32_t* here
    cdef int points
    cdef bint exempt
    cdef Py_ssize_t n_cand = 0, i
    for u in range(k.t.n_units):               # sp: zero where read, then each hex's points
        if on_map(k, u) and k.t.side[u] == side:
            sp[k.s.unit_cell[u]] = 0
    for u in range(k.t.n_units):
        if on_map(k, u) and k.t.side[u] == side:
            sp[k.s.unit_cell[u]] += stacking_of(k, u)
    for u in range(k.t.n_units):               # the hexes over the limit, each once
        if on_map(k, u) and k.t.side[u] == side:
            c = k.s.unit_cell[u]
            if sp[c] > k.t.stack_limit:
                over[n_cand] = c
                n_cand += 1
                sp[c] = 0
    _sort_cells(over, n_cand)                  # ascending
    for i in range(n_cand):
        c = over[i]
        exempt = False
        if k.t.entry_hex[c] or k.s.arrival_hex[c] == turn:
            for u in range(k.t.n_units):
                if k.s.unit_cell[u] == c and on_map(k, u) and (k.s.flags[u] & KF_ARRIVED):
                    exempt = True
                    break
        if not exempt:
            over[n_over] = c
            n_over += 1
    # the hexes are kept past the scratch list the eliminations use
    cdef int32_t* cells = <int32_t*>malloc((n_over + 1) * sizeof(int32_t))
    if cells == NULL:
        k.error = ERR_MEMORY
        return
    for j in range(n_over):
        cells[j] = over[j]
    here = k.work
    for j in range(n_over):
        c = cells[j]
        while True:
            n = units_at(k, c, side, here)
            points = 0
            for u in range(n):
                points += stacking_of(k, here[u])
            if points <= k.t.stack_limit:
                break
            eliminate(k, here[choose(k, KD_STACKING_ELIMINATE, side, n)], LC_STACKING)
    free(cells)


cdef bint gas_zone(Kb* k, flag_t* out) noexcept nogil:
    # movement.gas_zone: each marker's hex and the six around it (9.34); False when none
    cdef Py_ssize_t i, d
    cdef int32_t c, w
    cdef bint any_ = False
    memset(out, 0, k.t.n_cells)
    for i in range(k.t.gas_markers):
        c = k.s.gas[i]
        if c < 0:
            continue
        any_ = True
        out[c] = 1
        for d in range(6):
            w = k.t.nbr[6 * c + d]
            if w >= 0:
                out[w] = 1
    return any_


cdef void gas_step_losses(Kb* k, int side) noexcept nogil:
    # artillery.gas_step_losses: each stack of side in a gas zone after its Movement Phase
    # loses the table's steps, ascending by hex, the owner choosing (9.34[2])
    cdef Py_ssize_t u, j, n = 0
    cdef int32_t c
    if not gas_zone(k, k.mask_a):
        return
    memset(k.mask_b, 0, k.t.n_cells)
    for u in range(k.t.n_units):
        if on_map(k, u) and k.t.side[u] == side and k.mask_a[k.s.unit_cell[u]]:
            k.mask_b[k.s.unit_cell[u]] = 1
    for c in range(k.t.n_cells):
        if k.mask_b[c]:
            take_steps(k, c, k.t.gas_step_loss, LC_GAS, KD_GAS_STEP_LOSS)


cdef void line_lengths(Kb* k, int side, int32_t* dist, const int32_t* want,
                       Py_ssize_t n_want) noexcept nogil:
    # supply.line_lengths: the shortest supply line (hexes) from each hex to a friendly HQ,
    # -1 where none: through hexes neither enemy-occupied nor enemy-controlled unless a
    # friendly unit is in them (6.31, 6.32, 14.12); such a hex ends a line but is not passed
    # through; terrain never matters. With n_want > 0 only the hexes of want are asked: the
    # search stops once they all have theirs (a breadth-first search gives a hex its length
    # when it first reaches it), and the other hexes' are not to be read
    # The hexes reached are kept (k.line_reached, in order reached: the queue) so that the
    # next search puts back -1 in those alone; dist is -1 elsewhere from the start. A hex is
    # closed, read off the counts, when the enemy occupies or controls it and no friendly
    # unit is in it.
    cdef Py_ssize_t u, head = 0, tail = 0, d, i, left = 0, n = k.t.n_cells
    cdef int32_t c, w
    cdef int32_t* queue = k.line_reached
    cdef flag_t* asked = k.line_want
    cdef const uint8_t* eocc = k.occ + (1 - side) * n
    cdef const uint8_t* ezoc = k.zoc + (1 - side) * n
    cdef const uint8_t* mocc = k.occ + side * n
    for i in range(k.n_line_reached):
        dist[queue[i]] = -1
    for u in range(k.t.n_units):
        if on_map(k, u) and k.t.side[u] == side and k.t.utype[u] == UT_HQ:
            c = k.s.unit_cell[u]
            if dist[c] < 0:
                dist[c] = 0
                queue[tail] = c
                tail += 1
    k.n_line_reached = tail
    for i in range(n_want):                    # the hexes asked that no HQ is in
        c = want[i]
        if dist[c] < 0 and not asked[c]:
            asked[c] = 1
            left += 1
    if n_want > 0 and left == 0:
        return
    while head < tail:
        c = queue[head]
        head += 1
        if (eocc[c] or ezoc[c]) and not mocc[c]:
            continue                           # closed: it ends a line, not passed through
        for d in range(6):
            w = k.t.nbr[6 * c + d]
            if w >= 0 and dist[w] < 0:
                dist[w] = dist[c] + 1
                queue[tail] = w
                tail += 1
                if asked[w]:
                    asked[w] = 0
                    left -= 1
                    if left == 0:
                        k.n_line_reached = tail
                        return
    k.n_line_reached = tail
    for i in range(n_want):                    # some asked hexes have no line: clear them
        asked[want[i]] = 0


cdef inline bint has_supply_line(Kb* k, int side, int32_t cell) noexcept nogil:
    line_lengths(k, side, k.line_dist, &cell, 1)
    return k.line_dist[cell] >= 0


cdef void exit_unit(Kb* k, Py_ssize_t u) noexcept nogil:
    # victory.exit_unit: a German unit off the western edge (20.2), 3 VP unless isolated as it
    # leaves (20.12, 14.13[4]; on Game-Turns 1 and 2 German units are in supply, 17.5)
    cdef int turn = k.s.turn[0]
    cdef bint isolated = False
    if not (k.t.side[u] == SIDE_CENTRAL and (turn == 1 or turn == 2)):
        isolated = not has_supply_line(k, k.t.side[u], k.s.unit_cell[u])
    count_out(k, u)
    k.s.unit_cell[u] = -1
    k.s.unit_status[u] = ST_EXITED
    k.s.exited[0] += 1
    if isolated:
        k.s.exited[1] += 1
    else:
        add_vp(k, VC_EXITS, k.t.exit_vp)


# --- 4.2 E2, F1: the Movement Phase (5.0, 17.1) ---------------------------------------------

cdef enum:
    Q_GERMAN = 0
    Q_ALLIED_FIRST = 1
    Q_ALLIED_SECOND = 2
    UNLIMITED = -1
    SEG_FIRST = 1
    SEG_SECOND = 2


cdef void set_quotas(Kb* k, int side) noexcept nogil:
    # engine.set_quotas: the 17.12 / 17.13 limits of Game-Turns 1 and 2
    cdef int turn = k.s.turn[0], plus, i
    for i in range(4):
        k.s.move_quota[i] = UNLIMITED
    if turn > 2:
        return
    if side == SIDE_CENTRAL:
        if turn == 2:
            k.s.move_quota[Q_GERMAN] = roll(&k.dice[DS_OPENING]) + k.t.german_t2_plus
        else:
            k.s.move_quota[Q_GERMAN] = 0
    else:
        plus = k.t.allied_t1_plus if turn == 1 else k.t.allied_t2_plus
        k.s.move_quota[Q_ALLIED_FIRST] = roll(&k.dice[DS_OPENING]) + plus
        k.s.move_quota[Q_ALLIED_SECOND] = roll(&k.dice[DS_OPENING]) + plus


cdef int quota_slot(Kb* k, Py_ssize_t u) noexcept nogil:
    # engine.quota_slots: the 17.1 limit a unit's move counts against, -1 none
    if k.s.turn[0] > 2:
        return -1
    if k.t.side[u] == SIDE_CENTRAL:
        return -1 if k.s.flags[u] & KF_OPENING else Q_GERMAN
    if k.s.flags[u] & KF_ARRIVED:
        return -1
    if k.s.corps[u] == k.t.corps_first:
        return Q_ALLIED_FIRST
    if k.s.corps[u] == k.t.corps_second:
        return Q_ALLIED_SECOND
    return -1


cdef inline void _patch(Kb* k, Py_ssize_t i, stepcost_t value) noexcept nogil:
    # set the segment's step i to value, logged to be put back (_unpatch)
    k.patched[k.n_patched] = <int32_t>i
    k.was[k.n_patched] = k.steps[i]
    k.n_patched += 1
    k.steps[i] = value


cdef void _unpatch(Kb* k) noexcept nogil:
    # the segment's steps back to the tables' open_steps, the log undone from its end
    cdef Py_ssize_t j = k.n_patched
    while j > 0:
        j -= 1
        k.steps[k.patched[j]] = k.was[j]
    k.n_patched = 0


cdef void segment_steps(Kb* k, flag_t* gas, const uint8_t* eocc, const uint8_t* ezoc,
                        bint second) noexcept nogil:
    # movement.open_step_costs then the hexes closed (movement.step_costs), as patches on
    # k.steps: with persistent gas a step into a gas hex costs its entry once more (9.34[1],
    # gas NULL for none); a step into a hex of an enemy unit is refused (5.12), and in the
    # Second Segment one into an enemy zone of control too (5.22). Each step into a hex is
    # found from the hex's neighbours, the way back (d + 3) % 6, on a map whose neighbour
    # table allows it, else by reading every step.
    cdef Py_ssize_t n = k.t.n_cells, c, c0, i, g
    cdef int d, e
    cdef cell_t w
    cdef uint64_t x, y
    cdef stepcost_t* steps = k.steps
    if k.t.nbr_symmetric:
        if gas != NULL:                        # the gas zone: each marker's hex and its six,
            for g in range(k.t.gas_markers):   # each hex once (gas[c] 1 -> 2 once patched)
                c = k.s.gas[g]
                if c < 0:
                    continue
                for e in range(7):
                    w = <cell_t>c if e == 6 else k.t.nbr[6 * c + e]
                    if w < 0 or gas[w] != 1:
                        continue
                    gas[w] = 2
                    for d in range(6):
                        i = k.t.nbr[6 * w + d]
                        if i >= 0:
                            i = 6 * i + (d + 3) % 6
                            _patch(k, i, <stepcost_t>(steps[i] + k.t.enter_cost[w]))
        c0 = 0
        while c0 < n:                          # the closed hexes, read eight at a time
            if c0 + 8 <= n:
                memcpy(&x, eocc + c0, 8)
                if second:
                    memcpy(&y, ezoc + c0, 8)
                    x |= y
                if x == 0:
                    c0 += 8
                    continue
            for c in range(c0, min(c0 + 8, n)):
                if eocc[c] or (second and ezoc[c]):
                    for d in range(6):
                        w = k.t.nbr[6 * c + d]
                        if w >= 0:
                            i = 6 * w + (d + 3) % 6
                            if steps[i] != -1:
                                _patch(k, i, -1)
            c0 += 8
        return
    for i in range(6 * n):
        w = k.t.nbr[i]
        if w < 0:
            continue
        if gas != NULL and gas[w]:
            _patch(k, i, <stepcost_t>(steps[i] + k.t.enter_cost[w]))
        if (eocc[w] or (second and ezoc[w])) and steps[i] != -1:
            _patch(k, i, -1)


cdef int movement_segment(Kb* k, int side, int segment) except -1:
    # engine.movement_segment (for a player who picks at random, engine.random_segment with
    # the kernel play.kb_random_moves): the units free to move (5.11, 13.12; in the Second
    # Segment not HQs barred by 5.23 nor units in an enemy zone of control, 5.22), offered
    # with "no more moves" first; each one's moves in cell order after "stay", then its
    # exits (20.2). Any other player is asked through the game's ask (_ask_move_unit,
    # _ask_move_to); no policy reaches the core's buffers from there (the Python policies
    # use the kernels' own), so the segment goes on from where it asked.
    cdef Py_ssize_t n = k.t.n_cells, u, j, m, i, d, n_moves, n_out, n_options, pick, to
    cdef Py_ssize_t here, dest, s, x, n_units = 0, n_words = (n + 63) >> 6
    cdef bint second = segment == SEG_SECOND
    cdef int kind, sl, n_ov
    cdef dist_t ma, dc
    cdef stepcost_t row[6]
    cdef cell_t ov_cell[6]
    cdef dist_t ov_dist[6]
    cdef cell_t w
    cdef const flag_t* stopp
    # the enemy's hexes and zones of control, read off the counts (non-zero: yes); the enemy
    # does not move in this segment
    cdef const uint8_t* ezoc = k.zoc + (1 - side) * n
    cdef const uint8_t* eocc = k.occ + (1 - side) * n
    cdef flag_t* gas = k.mask_a
    cdef stepcost_t* tab = k.steps
    cdef Range* R = &k.rng
    cdef int32_t* units = k.work               # [n_units]: the units free to move
    cdef int32_t* allowance = k.work + k.t.n_units
    cdef int8_t* slot = <int8_t*>(k.work + 2 * k.t.n_units)
    cdef cell_t* offered = <cell_t*>(k.work + 4 * k.t.n_units)
    cdef cell_t* outs = <cell_t*>(k.work + 5 * k.t.n_units + 1)
    cdef int16_t* exit_enter = <int16_t*>(outs + n)   # [n_exit] each exit hex's entry cost
    cdef bint gassed = gas_zone(k, gas)
    for x in range(k.t.n_exit):                # movement.enter_costs (9.34[1]), for 20.2
        s = k.t.exit_cells[x]
        exit_enter[x] = <int16_t>(2 * k.t.enter_cost[s]) if gassed and gas[s] \
            else k.t.enter_cost[s]
    for u in range(k.t.n_units):               # engine.free_to_move, movement.allowances
        if not on_map(k, u) or k.t.side[u] != side or k.s.flags[u] & (KF_MOVED | KF_NO_MOVE):
            continue
        if second and ((k.t.utype[u] == UT_HQ and k.t.second_segment[u] == 0)
                       or ezoc[k.s.unit_cell[u]]):
            continue
        units[n_units] = <int32_t>u
        allowance[n_units] = face_value(k, u, V_MOVEMENT) * (3 if second else 1)
        slot[n_units] = <int8_t>quota_slot(k, u)
        n_units += 1
    m = 0                                      # the units offered: not moved yet, their
    for j in range(n_units):                   # quota not used up (17.1), in unit order
        sl = slot[j]
        if sl < 0 or k.s.move_quota[sl] == UNLIMITED or k.s.move_quota[sl] > 0:
            offered[m] = <cell_t>j
            m += 1
    if m == 0:
        return 0
    # the segment's steps (closed: the enemy's hexes, and in the Second Segment its zones)
    segment_steps(k, gas if gassed else NULL, eocc, ezoc, second)
    stopp = NULL if second else <const flag_t*>ezoc     # 5.12: a zone of control ends a move
    try:
        while m > 0:
            if k.level[side] == LEVEL_RANDOM:
                pick = choose(k, KD_MOVE_UNIT, side, m + 1)
            else:
                pick = _ask_move_unit(k, side, segment, units, offered, m)
            if pick == 0:                      # "no more moves"
                return 0
            j = offered[pick - 1]
            memmove(&offered[pick - 1], &offered[pick], (m - pick) * sizeof(cell_t))
            m -= 1
            u = units[j]
            here = k.s.unit_cell[u]
            ma = allowance[j]
            # the unit's routes (movement.routes)
            for d in range(6):
                row[d] = tab[6 * here + d]
            if not second and ezoc[here]:      # 5.13: leaving an enemy zone of control
                for d in range(6):
                    w = k.t.nbr[6 * here + d]
                    if w >= 0 and ezoc[w]:
                        tab[6 * here + d] = -1
                    elif tab[6 * here + d] >= 0:
                        tab[6 * here + d] = <stepcost_t>(tab[6 * here + d] + ma // 2)
            try:
                range_search(R, k.t.nbr, tab, <cell_t>here, ma, stopp, k.move_bits)
                n_ov = _one_hex_steps(R, k.t.nbr, tab, here, ov_cell, ov_dist)     # 5.15
            finally:
                for d in range(6):
                    tab[6 * here + d] = row[d]
            # stay, the hexes in cell order, the exits
            n_moves = _destinations(R, ov_cell, ov_dist, n_ov, k.move_bits)
            n_out = 0
            if side == SIDE_CENTRAL:
                for x in range(k.t.n_exit):     # 20.2 (movement.exit_costs)
                    s = k.t.exit_cells[x]
                    dc = range_cost(R, s)
                    for i in range(n_ov):
                        if ov_cell[i] == s:
                            dc = ov_dist[i]
                    if exit_allowed(dc, exit_enter[x], ezoc[s] != 0, s == here, second, ma):
                        outs[n_out] = <cell_t>s
                        n_out += 1
            n_options = 1 + n_moves + n_out
            if k.level[side] == LEVEL_RANDOM:
                to = choose(k, KD_MOVE_TO, side, n_options)
            else:
                to = _ask_move_to(k, side, segment, u, n_words, outs, n_out)
            dest = _nth_cell(k.move_bits, n_words, to - 1) if 0 < to <= n_moves else -1
            memset(k.move_bits, 0, n_words * sizeof(uint64_t))
            if to == 0:
                continue
            if to <= n_moves:
                kind = 1
            else:
                kind = 2
                dest = outs[to - 1 - n_moves]
            _mark_path(R, here, dest, ov_cell, n_ov, k.s.hex_last, side)
            count_out(k, u)
            k.s.unit_cell[u] = <cell_t>dest
            count_in(k, u)
            k.s.flags[u] |= KF_MOVED
            sl = slot[j]
            if sl >= 0 and k.s.move_quota[sl] > 0:
                k.s.move_quota[sl] -= 1
                if k.s.move_quota[sl] == 0:    # the quota used up: its units offered no more
                    i = 0
                    for x in range(m):
                        if slot[offered[x]] != sl:
                            offered[i] = offered[x]
                            i += 1
                    m = i
            if kind == 2:
                exit_unit(k, u)                # 20.2 (its supply line has its own buffers)
    finally:
        _unpatch(k)
    return 0


cdef int movement_phase(Kb* k, int side) except -1:
    # engine.movement_phase: both Movement Segments (5.2), stacking (7.21), gas (9.34[2])
    cdef Py_ssize_t u
    for u in range(k.t.n_units):
        if k.t.side[u] == side:
            k.s.flags[u] &= ~KF_MOVED
    set_quotas(k, side)
    movement_segment(k, side, SEG_FIRST)
    movement_segment(k, side, SEG_SECOND)
    enforce_stacking(k, side)
    gas_step_losses(k, side)
    for u in range(k.t.n_units):
        if k.t.side[u] == side:
            k.s.flags[u] &= ~KF_NO_MOVE
    return 0


cdef Py_ssize_t _ask_move_unit(Kb* k, int side, int segment, const int32_t* units,
                               const cell_t* offered, Py_ssize_t m) except -1:
    # which unit, for a Python player: "no more moves", then the units offered, as
    # engine.movement_segment lists them, asked through the game's ask
    options = [-1] + [int(units[offered[x]]) for x in range(m)]
    k.decisions += 1
    return options.index((<object>k.ask)("kb.move.unit", side, options, segment=segment))


cdef Py_ssize_t _ask_move_to(Kb* k, int side, int segment, Py_ssize_t u, Py_ssize_t n_words,
                             const cell_t* outs, Py_ssize_t n_out) except -1:
    # where unit u goes, for a Python player: stay, the hexes of k.move_bits in cell order,
    # the exits, as engine.move_one lists them, asked through the game's ask
    cdef list options = [("stay",)]
    cdef Py_ssize_t w, x
    cdef uint64_t bits
    for w in range(n_words):
        bits = k.move_bits[w]
        while bits:
            options.append(("move", int(w * 64 + __builtin_ctzll(bits))))
            bits &= bits - 1
    options += [("exit", int(outs[x])) for x in range(n_out)]
    if len(options) > 1:
        k.decisions += 1
    return options.index((<object>k.ask)("kb.move.to", side, options, unit=int(u),
                                         segment=segment))


# a random segment's helpers on the unit's Range: the one-hex steps (5.15), the destinations,
# the drawn one, the path (play.pyx has its own on a SearchWorkspace, for kb_random_moves)

cdef int _one_hex_steps(const Range* R, const cell_t* nb, const stepcost_t* tab,
                        Py_ssize_t here, cell_t* ov_cell, dist_t* ov_dist) noexcept nogil:
    cdef int n_ov = 0, d
    cdef cell_t w
    for d in range(6):
        w = nb[6 * here + d]
        if w >= 0 and tab[6 * here + d] >= 0 and range_cost(R, w) < 0:
            ov_cell[n_ov] = w
            ov_dist[n_ov] = tab[6 * here + d]
            n_ov += 1
    return n_ov


cdef Py_ssize_t _destinations(const Range* R, const cell_t* ov_cell, const dist_t* ov_dist,
                              int n_ov, uint64_t* bits) noexcept nogil:
    # the hexes a unit may move to, as bits of a cell set: those its range reached at a cost
    # above 0 (range_search put them in), and its one-hex steps beyond it (5.15); how many
    cdef Py_ssize_t n_moves = R.n_touched - 1 - R.n_zero, i, s
    for i in range(n_ov):                      # not reached by the search: not set yet
        if ov_dist[i] > 0:
            s = ov_cell[i]
            bits[s >> 6] |= (<uint64_t>1) << (s & 63)
            n_moves += 1
    return n_moves


cdef inline int _popcount(uint64_t x) noexcept nogil:
    x = x - ((x >> 1) & 0x5555555555555555ULL)
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL
    return <int>((x * 0x0101010101010101ULL) >> 56)


cdef cell_t _nth_cell(const uint64_t* bits, Py_ssize_t n_words, Py_ssize_t k) noexcept nogil:
    # the k-th smallest (from 0) cell of the set, -1 if it has k or fewer
    cdef Py_ssize_t w
    cdef uint64_t x
    cdef int c
    for w in range(n_words):
        x = bits[w]
        if x == 0:
            continue
        c = _popcount(x)
        if k >= c:
            k -= c
            continue
        while k > 0:
            x &= x - 1                         # drop the lowest cell
            k -= 1
        return <cell_t>(w * 64 + __builtin_ctzll(x))
    return -1


cdef void _mark_path(const Range* R, Py_ssize_t here, Py_ssize_t dest,
                     const cell_t* ov_cell, int n_ov, int8_t* hex_last, int side) noexcept nogil:
    cdef Py_ssize_t s = dest, i
    cdef cell_t w
    while s >= 0 and s != here:
        hex_last[s] = <int8_t>side
        w = R.pred[s] if R.dist[s] != RANGE_FAR else -1
        for i in range(n_ov):
            if ov_cell[i] == s:
                w = <cell_t>here
        s = w


# --- 9.0 artillery: points, range, barrages ------------------------------------------------

cdef enum:
    FIELD = 0
    HEAVY = 1
    # MISSIONS of game.py
    M_COUNTER_BATTERY = 0
    M_GAS = 1
    M_DRUMFIRE = 2
    M_ROLLING = 3
    M_SOS = 4
    N_MISSIONS = 5
    # 12.0: OBSERVATION, GROUND_ATTACK, INTERCEPTION
    AIR_OBSERVATION = 0
    AIR_GROUND_ATTACK = 1
    AIR_INTERCEPTION = 2


cdef void field_in_range(Kb* k, int side, flag_t* out) noexcept nogil:
    # artillery.field_in_range: within the field range of one of the side's HQs (9.11[1]):
    # the hexes of the disc around each HQ, walked by axial coordinates
    cdef Py_ssize_t u
    cdef int32_t h, c
    cdef int R = k.t.field_range, dq, dr, lo, hi, qq, rr
    memset(out, 0, k.t.n_cells)
    if R < 0:
        return
    for u in range(k.t.n_units):
        if on_map(k, u) and k.t.side[u] == side and k.t.utype[u] == UT_HQ:
            h = k.s.unit_cell[u]
            for dq in range(-R, R + 1):        # |dq|, |dr|, |dq + dr| <= R
                qq = k.t.q[h] + dq - k.t.q0
                if qq < 0 or qq >= k.t.q_span:
                    continue
                lo = -R if -R > -R - dq else -R - dq
                hi = R if R < R - dq else R - dq
                for dr in range(lo, hi + 1):
                    rr = k.t.r[h] + dr - k.t.r0
                    if 0 <= rr < k.t.r_span:
                        c = k.t.axial_cell[qq * k.t.r_span + rr]
                        if c >= 0:
                            out[c] = 1


cdef bint field_reaches(Kb* k, int side, int32_t c) noexcept nogil:
    # field_in_range for one hex: within the field range of one of the side's HQs, the hex
    # distance max(|dq|, |dr|, |dq + dr|) by axial coordinates (the disc field_in_range walks)
    cdef Py_ssize_t u
    cdef int32_t h
    cdef int R = k.t.field_range, dq, dr, ds
    if R < 0:
        return False
    for u in range(k.t.n_units):
        if k.t.utype[u] == UT_HQ and k.t.side[u] == side and on_map(k, u):
            h = k.s.unit_cell[u]
            dq = k.t.q[c] - k.t.q[h]
            dr = k.t.r[c] - k.t.r[h]
            ds = dq + dr
            if -R <= dq <= R and -R <= dr <= R and -R <= ds <= R:
                return True
    return False


cdef Py_ssize_t barrage_choices(Kb* k, int side, bint field_ok, int low, int high,
                                int32_t* out) noexcept nogil:
    # artillery.barrage_choices: every (field, heavy) mix of low..high points the side has
    # left, field only in range; written as pairs, returns how many
    cdef int f_left = k.s.arty[2 * side + FIELD], h_left = k.s.arty[2 * side + HEAVY]
    cdef int total, f
    cdef Py_ssize_t n = 0
    if not field_ok:
        f_left = 0
    for total in range(low, high + 1):
        f = total if total < f_left else f_left
        while f >= 0:
            if total - f <= h_left:
                out[2 * n] = f
                out[2 * n + 1] = total - f
                n += 1
            f -= 1
    return n


cdef inline void spend(Kb* k, int side, int field, int heavy, int mission) noexcept nogil:
    # artillery.spend (the mixes offered are always payable)
    k.s.arty[2 * side + FIELD] -= field
    k.s.arty[2 * side + HEAVY] -= heavy
    k.s.arty_spent[(side * N_MISSIONS + mission) * 2 + FIELD] += field
    k.s.arty_spent[(side * N_MISSIONS + mission) * 2 + HEAVY] += heavy


cdef int drumfire_column(Kb* k, int points_stacked, int points) noexcept nogil:
    # artillery.drumfire_column: -1 where the table has none
    cdef int row = -1, i, j
    for i in range(k.t.df_rows):
        if k.t.df_row[i][0] <= points_stacked <= k.t.df_row[i][1]:
            row = i
    if row < 0:
        row = k.t.df_big_row
    for j in range(MAX_TABLE):
        if k.t.df_col[row][j][0] <= points <= k.t.df_col[row][j][1]:
            return j
    return -1


cdef int barrage_attack(Kb* k, int32_t cell, int points, int stream, int cause,
                        int kind) noexcept nogil:
    # artillery.barrage_attack with drumfire_result: the hex is marked (9.42); the die only
    # when the table has a column; the number for the die plus the hex's modifier (9.44)
    # above the stack's morale is the loss (9.45); returns the steps lost
    cdef int32_t* here = k.work
    cdef Py_ssize_t n, i
    cdef int sp = 0, col, die, r, res, morale = 0, v
    k.s.drumfired[cell] = 1
    n = units_at(k, cell, -1, here)
    for i in range(n):
        sp += stacking_of(k, here[i])
    col = drumfire_column(k, sp, points)
    if col < 0:
        return 0
    die = roll(&k.dice[stream])
    if n == 0:
        return 0
    r = die + k.t.die_mod[cell]
    if r < k.t.df_die[0]:
        r = k.t.df_die[0]
    if r > k.t.df_die[k.t.df_dice - 1]:
        r = k.t.df_die[k.t.df_dice - 1]
    res = -1
    for i in range(k.t.df_dice):
        if k.t.df_die[i] == r:
            res = k.t.df_result[i][col]
            break
    if res < 0:
        return 0
    for i in range(n):
        v = face_value(k, here[i], V_MORALE)
        if i == 0 or v > morale:
            morale = v
    res -= morale
    if res <= 0:
        return 0
    return take_steps(k, cell, res, cause, kind)


cdef Py_ssize_t barrage_targets(Kb* k, int side, bint hq_only_ok, int32_t* out) noexcept nogil:
    # artillery.barrage_targets: enemy-occupied hexes not attacked this phase (9.42), with no
    # reinforcement placed this turn (15.16), for ground attacks not held by HQs alone (12.33);
    # into out ascending, how many
    cdef Py_ssize_t u, i, n = 0, m = 0
    cdef int32_t c
    cdef flag_t* bad = k.mask_b          # bit 1: an arrival; bit 2: a unit other than an HQ;
    for u in range(k.t.n_units):         # bit 4: listed (zeroed first where it is read)
        if on_map(k, u) and k.t.side[u] == 1 - side:
            bad[k.s.unit_cell[u]] = 0
    for u in range(k.t.n_units):
        if on_map(k, u) and k.t.side[u] == 1 - side:
            c = k.s.unit_cell[u]
            if not bad[c] & 4:
                bad[c] |= 4
                out[n] = c
                n += 1
            if k.s.flags[u] & KF_ARRIVED:
                bad[c] |= 1
            if k.t.utype[u] != UT_HQ:
                bad[c] |= 2
    for i in range(n):
        c = out[i]
        if not ((bad[c] & 1) or k.s.drumfired[c] or (not hq_only_ok and not bad[c] & 2)):
            out[m] = c
            m += 1
    _sort_cells(out, m)
    return m


cdef int counter_battery_phase(Kb* k) noexcept nogil:
    # artillery.counter_battery_phase (9.2): both sides allocate at once and in secret one
    # mix of a multiple of 10 points; both are deducted; each side that fired rolls, German
    # first, against the enemy's points left; both results applied together
    cdef int sides[2]
    cdef int s, e, i, f, h, total, x, lo, n, pick, die, col, res, mult
    cdef int split[2][2]
    cdef int totals[2]
    cdef int result[2]
    cdef int new_f[2]
    cdef int new_h[2]
    cdef bint fired[2]
    if k.s.turn[0] < k.t.cb_first_turn:
        return 0
    sides[0], sides[1] = SIDE_CENTRAL, SIDE_ALLIED
    mult = k.t.cb_multiple
    for i in range(2):
        s = sides[i]
        f = k.s.arty[2 * s + FIELD]
        h = k.s.arty[2 * s + HEAVY]
        # the options: each total (0, 10, ... up to f + h), each split from the most field
        n = 0
        total = 0
        while total <= (f + h) // mult * mult:
            x = total if total < f else f
            lo = total - h if total - h > 0 else 0
            n += x - lo + 1 if x >= lo else 0
            total += mult
        pick = choose(k, KD_ARTILLERY_COUNTER_BATTERY, s, n)
        total = 0
        while True:
            x = total if total < f else f
            lo = total - h if total - h > 0 else 0
            if x >= lo and pick <= x - lo:
                split[s][0] = x - pick
                split[s][1] = total - (x - pick)
                break
            if x >= lo:
                pick -= x - lo + 1
            total += mult
    for i in range(2):
        s = sides[i]
        totals[s] = split[s][0] + split[s][1]
        if totals[s]:
            spend(k, s, split[s][0], split[s][1], M_COUNTER_BATTERY)      # 9.22
    for i in range(2):
        s = sides[i]
        fired[s] = totals[s] > 0
        if fired[s]:                                                      # 9.23
            die = roll(&k.dice[DS_ARTILLERY])
            res = -1
            if totals[s] >= k.t.cb_points[0]:
                col = 0
                for x in range(k.t.cb_cols):
                    if k.t.cb_points[x] <= totals[s]:
                        col = x
                for x in range(k.t.cb_rows):
                    if k.t.cb_die[x] == die:
                        res = k.t.cb_result[x][col]
            result[s] = res
    for s in range(2):
        if not fired[s]:
            continue
        e = 1 - s
        f = k.s.arty[2 * e + FIELD]
        h = k.s.arty[2 * e + HEAVY]
        if result[s] == 0:
            f = h = 0
        elif result[s] > 0:
            f = f // result[s]
            h = h // result[s]
        new_f[e], new_h[e] = f, h
    # applied together, in the order the results were made (German first)
    for i in range(2):
        s = sides[i]
        if not fired[s]:
            continue
        e = 1 - s
        k.s.arty_lost[2 * e + FIELD] += k.s.arty[2 * e + FIELD] - new_f[e]
        k.s.arty_lost[2 * e + HEAVY] += k.s.arty[2 * e + HEAVY] - new_h[e]
        k.s.arty[2 * e + FIELD] = new_f[e]
        k.s.arty[2 * e + HEAVY] = new_h[e]
    return 0


cdef void far_from(Kb* k, int side, int distance, flag_t* out) noexcept nogil:
    # artillery._far_from: hexes at least `distance` steps over the map from every unit of
    # the side (a search of distance - 1 steps from them)
    cdef Py_ssize_t u, head = 0, tail = 0, d
    cdef int32_t c, w
    cdef int32_t* queue = k.line_queue
    cdef int32_t* dist = k.work + 2 * k.t.n_units          # past the targets' scratch
    memset(out, 0, k.t.n_cells)
    for c in range(k.t.n_cells):
        dist[c] = -1
    for u in range(k.t.n_units):
        if on_map(k, u) and k.t.side[u] == side:
            c = k.s.unit_cell[u]
            if dist[c] < 0:
                dist[c] = 0
                queue[tail] = c
                tail += 1
    if tail == 0 or distance <= 0:
        memset(out, 1, k.t.n_cells)
        return
    while head < tail:
        c = queue[head]
        head += 1
        if dist[c] >= distance - 1:
            continue
        for d in range(6):
            w = k.t.nbr[6 * c + d]
            if w >= 0 and dist[w] < 0:
                dist[w] = dist[c] + 1
                queue[tail] = w
                tail += 1
    for c in range(k.t.n_cells):
        out[c] = dist[c] < 0


cdef int gas_phase(Kb* k) noexcept nogil:
    # artillery.gas_phase (9.3): German only, from the table's first Game-Turn; the markers
    # fired (at most those off the map and the points' worth), then each one's target and mix
    cdef int side = SIDE_CENTRAL, per = k.t.gas_per_marker, f, h, most, free_, n, i
    cdef Py_ssize_t c, n_t, n_mix, j, m
    cdef int32_t cell
    cdef int32_t* targets = k.work
    cdef int32_t* mixes = k.work + k.t.n_cells
    cdef flag_t* field_ok = k.line_seen
    cdef flag_t* far = k.line_closed
    if k.s.turn[0] < k.t.gas_first_turn:
        return 0
    f = k.s.arty[2 * side + FIELD]
    h = k.s.arty[2 * side + HEAVY]
    free_ = k.t.gas_markers_table
    for i in range(k.t.gas_markers):
        if k.s.gas[i] >= 0:
            free_ -= 1
    most = free_ if free_ < (f + h) // per else (f + h) // per
    if most <= 0:
        return 0
    n = <int>choose(k, KD_ARTILLERY_GAS_MARKERS, side, most + 1)
    field_in_range(k, side, field_ok)
    for i in range(n):
        f = k.s.arty[2 * side + FIELD]
        h = k.s.arty[2 * side + HEAVY]
        far_from(k, side, k.t.gas_min_distance, far)
        n_t = 0
        for c in range(k.t.n_cells):
            if ((field_ok[c] and f + h >= per) or h >= per) and far[c]:
                targets[n_t] = <int32_t>c
                n_t += 1
        if n_t == 0:
            break
        cell = targets[choose(k, KD_ARTILLERY_GAS_TARGET, side, n_t)]
        n_mix = barrage_choices(k, side, field_ok[cell], per, per, mixes)
        j = choose(k, KD_ARTILLERY_GAS_POINTS, side, n_mix)
        spend(k, side, mixes[2 * j], mixes[2 * j + 1], M_GAS)
        for m in range(k.t.gas_markers):
            if k.s.gas[m] < 0:
                k.s.gas[m] = cell
                break
        k.s.gas_placed[0] += 1
    return 0


cdef int drumfire_phase(Kb* k) noexcept nogil:
    # artillery.drumfire_phase (9.4): Game-Turns of the table only; a target ("none" first)
    # within reach of the points left, then 1-6 points, deducted and resolved at once
    cdef int side = SIDE_CENTRAL, f, h
    cdef Py_ssize_t c, n_t, n_mix, j, i, n_hit
    cdef int32_t cell
    cdef int32_t* targets
    cdef int32_t* mixes
    cdef flag_t* field_ok = k.line_seen
    memset(k.s.drumfired, 0, k.t.n_cells)
    if not (k.t.df_turns >> k.s.turn[0]) & 1:
        return 0
    field_in_range(k, side, field_ok)
    while True:
        f = k.s.arty[2 * side + FIELD]
        h = k.s.arty[2 * side + HEAVY]
        if f + h < k.t.df_min:
            break
        targets = k.work + k.t.n_units          # past take_steps' scratch
        n_hit = barrage_targets(k, side, True, targets)
        n_t = 0
        for i in range(n_hit):
            c = targets[i]
            if h >= 1 or (f >= 1 and field_ok[c]):
                targets[n_t] = <int32_t>c
                n_t += 1
        if n_t == 0:
            break
        j = choose(k, KD_ARTILLERY_DRUMFIRE_TARGET, side, n_t + 1)
        if j == 0:
            break
        cell = targets[j - 1]
        mixes = targets
        n_mix = barrage_choices(k, side, field_ok[cell], k.t.df_min, k.t.df_max, mixes)
        j = choose(k, KD_ARTILLERY_DRUMFIRE_POINTS, side, n_mix)
        f = mixes[2 * j]
        h = mixes[2 * j + 1]
        spend(k, side, f, h, M_DRUMFIRE)
        barrage_attack(k, cell, f + h, DS_ARTILLERY, LC_DRUMFIRE, KD_DRUMFIRE_STEP_LOSS)
    return 0


# --- 12.0 air operations -------------------------------------------------------------------

cdef int air_points_of(Kb* k, int side) noexcept nogil:
    # air.air_points: none before the table's first Game-Turn, then all, half or none by
    # the weather (12.1)
    cdef int n
    if k.s.turn[0] < k.t.air_first_turn:
        return 0
    n = k.t.air_points[side]
    if k.t.air_available[k.s.weather[0]] == 0:
        return n
    if k.t.air_available[k.s.weather[0]] == 1:
        return n // 2
    return 0


cdef int air_stage(Kb* k) noexcept nogil:
    # air.air_stage (12.0): allocation and interception, each secret and at once (German
    # first), then ground attacks, German first
    cdef int sides[2]
    cdef int i, s, e, n, o, g, pick, obs, gr, red, total, hi
    cdef int alloc[2][3]
    cdef int cut[2][2]
    memset(k.s.air, 0, 6 * sizeof(int16_t))
    if air_points_of(k, SIDE_CENTRAL) == 0 and air_points_of(k, SIDE_ALLIED) == 0:
        return 0
    sides[0], sides[1] = SIDE_CENTRAL, SIDE_ALLIED
    for i in range(2):                     # allocation_choices: o <= n // 2, then g
        s = sides[i]
        n = air_points_of(k, s)
        total = 0
        for o in range(n // 2 + 1):
            total += n - o + 1
        pick = choose(k, KD_AIR_ALLOCATE, s, total)
        for o in range(n // 2 + 1):
            if pick <= n - o:
                alloc[s][0] = o
                alloc[s][1] = pick
                alloc[s][2] = n - o - pick
                break
            pick -= n - o + 1
    for s in range(2):
        k.s.air[3 * s + 0] = alloc[s][0]
        k.s.air[3 * s + 1] = alloc[s][1]
        k.s.air[3 * s + 2] = alloc[s][2]
    for i in range(2):                     # interception_splits (12.41): most observation first
        s = sides[i]
        e = 1 - s
        obs = alloc[e][AIR_OBSERVATION]
        gr = alloc[e][AIR_GROUND_ATTACK]
        red = alloc[s][AIR_INTERCEPTION] // k.t.air_divisor
        total = red if red < obs + gr else obs + gr
        hi = obs if obs < total else total
        n = 0
        for o in range(hi, -1, -1):
            if total - o <= gr:
                n += 1
        pick = choose(k, KD_AIR_INTERCEPTION, s, n)
        for o in range(hi, -1, -1):
            if total - o <= gr:
                if pick == 0:
                    cut[s][0] = o
                    cut[s][1] = total - o
                    break
                pick -= 1
    for i in range(2):                     # 12.42, 12.23, 12.34
        s = sides[i]
        e = 1 - s
        k.s.air[3 * e + AIR_OBSERVATION] -= cut[s][0]
        k.s.air[3 * e + AIR_GROUND_ATTACK] -= cut[s][1]
    memset(k.s.drumfired, 0, k.t.n_cells)
    ground_attacks(k, SIDE_CENTRAL)
    ground_attacks(k, SIDE_ALLIED)
    return 0


cdef void ground_attacks(Kb* k, int side) noexcept nogil:
    # air.ground_attacks (12.3): attacks one at a time ("none" first), each of min..max points
    # of those left, anywhere; resolved as a drumfire barrage; unused points are not kept
    cdef Py_ssize_t c, n_t, j
    cdef int left, hi
    cdef int32_t cell
    cdef int32_t* targets = k.work + k.t.n_units
    while k.s.air[3 * side + AIR_GROUND_ATTACK] >= k.t.ga_min:
        n_t = barrage_targets(k, side, False, targets)
        if n_t == 0:
            break
        j = choose(k, KD_AIR_GROUND_ATTACK_TARGET, side, n_t + 1)
        if j == 0:
            break
        cell = targets[j - 1]
        left = k.s.air[3 * side + AIR_GROUND_ATTACK]
        hi = k.t.ga_max if k.t.ga_max < left else left
        j = choose(k, KD_AIR_GROUND_ATTACK_POINTS, side, hi - k.t.ga_min + 1)
        k.s.air[3 * side + AIR_GROUND_ATTACK] -= k.t.ga_min + j
        barrage_attack(k, cell, k.t.ga_min + <int>j, DS_AIR, LC_GROUND_ATTACK,
                       KD_GROUND_ATTACK_STEP_LOSS)
    k.s.air[3 * side + AIR_GROUND_ATTACK] = 0


# --- 8.0 combat ----------------------------------------------------------------------------

cdef enum:
    S_IN_SUPPLY = 0
    S_ISOLATED = 3
    PHASE_FLAGS = KF_ATTACKED | KF_DEFENDED | KF_ADVANCED


cdef void deploy_observation(Kb* k, int side) noexcept nogil:
    # air.deploy_observation (12.22): the side's observation points left become markers on
    # enemy stacks, one a stack, each offered with "none" first
    cdef int n = k.s.air[3 * side + AIR_OBSERVATION], i
    cdef Py_ssize_t u, c, m, j
    cdef int32_t* free_ = k.work
    cdef flag_t* stacks = k.mask_a
    k.s.air[3 * side + AIR_OBSERVATION] = 0
    if n <= 0:
        return
    memset(stacks, 0, k.t.n_cells)
    for u in range(k.t.n_units):
        if on_map(k, u) and k.t.side[u] == 1 - side:
            stacks[k.s.unit_cell[u]] = 1
    for i in range(n):
        m = 0
        for c in range(k.t.n_cells):
            if stacks[c] and not k.s.observed[c]:
                free_[m] = <int32_t>c
                m += 1
        if m == 0:
            break
        j = choose(k, KD_AIR_OBSERVATION, side, m + 1)
        if j == 0:
            break
        k.s.observed[free_[j - 1]] = 1


cdef int direction(Kb* k, int32_t a, int32_t b) noexcept nogil:
    # combat._direction
    cdef int d
    for d in range(6):
        if k.t.nbr[6 * a + d] == b:
            return d
    return -1


cdef bint observed(Kb* k, int side, const int32_t* att, Py_ssize_t n_att,
                   const int32_t* cells, Py_ssize_t n_cells) noexcept nogil:
    # combat.observed (9.7): never in fog; an observation marker on a defending hex; an
    # attacker on a hilltop; a line of at most the weather's range from an attacker to a
    # hilltop through hexes free of enemy units and zones of control (a friendly unit
    # negating the zone)
    cdef int w = k.s.weather[0], rng
    cdef Py_ssize_t i, head = 0, tail = 0, d, n = k.t.n_cells
    cdef int32_t c, v
    cdef int32_t* queue = k.line_reached         # line_lengths' buffers, kept as it keeps
    cdef int32_t* dist = k.line_dist             # them: -1 but where the queue reached
    cdef const uint8_t* eocc = k.occ + (1 - side) * n
    cdef const uint8_t* ezoc = k.zoc + (1 - side) * n
    cdef const uint8_t* mocc = k.occ + side * n
    if w == W_FOG:
        return False
    for i in range(n_cells):
        if k.s.observed[cells[i]] > 0:
            return True
    for i in range(n_att):
        if k.t.hilltop[k.s.unit_cell[att[i]]]:
            return True
    rng = k.t.hilltop_range[w]
    if rng <= 0:
        return False
    for i in range(k.n_line_reached):
        dist[queue[i]] = -1
    for i in range(n_att):
        c = k.s.unit_cell[att[i]]
        if dist[c] < 0:
            dist[c] = 0
            queue[tail] = c
            tail += 1
    k.n_line_reached = tail
    while head < tail:
        c = queue[head]
        head += 1
        if k.t.hilltop[c]:
            k.n_line_reached = tail
            return True
        if dist[c] >= rng:
            continue
        for d in range(6):
            # closed: an enemy unit, or its zone with no friendly unit to negate it
            v = k.t.nbr[6 * c + d]
            if v >= 0 and dist[v] < 0 and not (eocc[v] or (ezoc[v] and not mocc[v])):
                dist[v] = dist[c] + 1
                queue[tail] = v
                tail += 1
    k.n_line_reached = tail
    return False


cdef int rolling_barrage(Kb* k, int side, const int32_t* att, Py_ssize_t n_att,
                         const int32_t* cells, Py_ssize_t n_cells) noexcept nogil:
    # combat.rolling_barrage (9.5): the attacker's one barrage, up to the weather's limit
    # (more when observed), Field points only if a defending hex is in range
    cdef int w = k.s.weather[0], limit, f, h
    cdef Py_ssize_t i, n_mix, j
    cdef bint field_ok = False
    cdef int32_t* mixes = k.work
    if w == W_FOG:
        return 0
    limit = k.t.rolling_observed[w] if observed(k, side, att, n_att, cells, n_cells) \
        else k.t.rolling[w]
    if limit <= 0:
        return 0
    for i in range(n_cells):                   # a defending hex in range: Field points too
        if field_reaches(k, side, cells[i]):
            field_ok = True
            break
    n_mix = barrage_choices(k, side, field_ok, 0, limit, mixes)
    j = choose(k, KD_COMBAT_ROLLING, side, n_mix)
    f = mixes[2 * j]
    h = mixes[2 * j + 1]
    if f or h:
        spend(k, side, f, h, M_ROLLING)
    return f + h


cdef int sos_barrages(Kb* k, int side, const int32_t* cells, Py_ssize_t n_cells) noexcept nogil:
    # combat.sos_barrages (9.6): the defender's barrage on each defending hex, ascending;
    # returns the die modifier they give (each one's points // 2, 9.62)
    cdef int limit = k.t.sos[k.s.weather[0]], f, h, mod = 0
    cdef Py_ssize_t i, n_mix, j
    cdef int32_t* mixes = k.work
    if limit <= 0:
        return 0
    for i in range(n_cells):
        n_mix = barrage_choices(k, side, field_reaches(k, side, cells[i]), 0, limit, mixes)
        j = choose(k, KD_COMBAT_SOS, side, n_mix)
        f = mixes[2 * j]
        h = mixes[2 * j + 1]
        if f or h:
            spend(k, side, f, h, M_SOS)
        mod += (f + h) // k.t.sos_points_per_die
    return mod


cdef int supply_modifier(Kb* k, int side, const int32_t* att, Py_ssize_t n_att) noexcept nogil:
    # supply.worst_state and die_modifier (14.22-14.24; 17.5: German units are in supply on
    # Game-Turns 1 and 2); -1000 when a line fits no band (an error)
    cdef int worst = S_IN_SUPPLY, st, d, b, turn = k.s.turn[0]
    cdef Py_ssize_t i
    if n_att > 0 and not (side == SIDE_CENTRAL and (turn == 1 or turn == 2)):
        for i in range(n_att):
            k.line_ask[i] = k.s.unit_cell[att[i]]
        line_lengths(k, side, k.line_dist, k.line_ask, n_att)
        for i in range(n_att):
            d = k.line_dist[k.s.unit_cell[att[i]]]
            if d < 0:
                st = S_ISOLATED
            else:
                st = -1
                for b in range(k.t.n_bands):
                    if k.t.band[b][0] <= d <= k.t.band[b][1]:
                        st = k.t.band[b][2]
                        break
                if st < 0:
                    return -1000
            if st > worst:
                worst = st
    if worst == S_ISOLATED:
        return k.t.isolated_die
    for b in range(k.t.n_bands):
        if k.t.band[b][2] == worst:
            return k.t.band[b][3]
    return -1000


cdef Py_ssize_t take_losses(Kb* k, int owner, int32_t* pool, Py_ssize_t n_pool, int n,
                            int cause) noexcept nogil:
    # combat.take_losses: n steps from the pool's units, the owner picking each among them
    # in ascending order; a division's replacement unit takes its place at the pool's end
    # (combat._lose_one); returns the units left (pool rewritten)
    cdef int i
    cdef Py_ssize_t j, m, x
    cdef int32_t u, cell, r
    cdef int32_t* sorted_ = k.line_queue
    cdef uint16_t carried
    for i in range(n):
        if n_pool == 0:
            break
        for j in range(n_pool):                 # sorted(pool)
            sorted_[j] = pool[j]
        _sort_cells(sorted_, n_pool)
        u = sorted_[choose(k, KD_COMBAT_LOSS, owner, n_pool)]
        cell = k.s.unit_cell[u]
        # the units in the hex before the loss, to find a replacement unit placed in it
        memset(k.unit_mask, 0, k.t.n_units)
        for m in range(k.t.n_units):
            if k.s.unit_cell[m] == cell and on_map(k, m):
                k.unit_mask[m] = 1
        lose_steps(k, u, 1, cause)
        r = -1
        if on_map(k, u):
            r = u
        else:
            for m in range(k.t.n_units):
                if k.s.unit_cell[m] == cell and on_map(k, m) and not k.unit_mask[m]:
                    carried = k.s.flags[u] & PHASE_FLAGS
                    k.s.flags[m] |= carried
                    r = <int32_t>m
                    break
        for j in range(n_pool):                 # pool.remove(u)
            if pool[j] == u:
                for x in range(j, n_pool - 1):
                    pool[x] = pool[x + 1]
                n_pool -= 1
                break
        if r >= 0:
            pool[n_pool] = r
            n_pool += 1
    return n_pool


cdef Py_ssize_t retreat_options(Kb* k, int32_t cell, int side, int32_t* out) noexcept nogil:
    # combat.retreat_options (8.74): the adjacent hexes neither occupied nor controlled by
    # the enemy, in direction order (friendly units do not negate the zone here, 6.33)
    cdef Py_ssize_t n = 0, d
    cdef int32_t v
    occupied(k, 1 - side, k.mask_a)
    controlled(k, 1 - side, k.mask_b)
    for d in range(6):
        v = k.t.nbr[6 * cell + d]
        if v >= 0 and not k.mask_a[v] and not k.mask_b[v]:
            out[n] = v
            n += 1
    return n


cdef int advance(Kb* k, SearchWorkspace ws, int side, const int32_t* victors, Py_ssize_t n_v,
                 const int32_t* vacated, Py_ssize_t n_vac) except -1:
    # combat.advance (8.83-8.87): one die for all; each victor in turn picks where to end
    # (its own hex first: staying), along the route advance_routes found; ending next to an
    # enemy unit it may not fight again this phase (8.87)
    cdef int die = roll(&k.dice[DS_COMBAT]), turn = k.s.turn[0], kind, pts, d
    cdef Py_ssize_t i, j, c, n_src, n_opt, n_halt, pick, w, n = k.t.n_cells
    cdef Py_ssize_t n_words = (n + 63) >> 6
    cdef int32_t u, here, v, dest, s
    cdef bint stoss
    cdef uint64_t x
    cdef int32_t sources[6]
    cdef int32_t halts[6]                    # the vacated hexes a unit halts in at once
    cdef dist_t src_cost[6]
    # the enemy's zones and hexes, read off the counts (the enemy does not move while the
    # victors advance)
    cdef const uint8_t* ezoc = k.zoc + (1 - side) * n
    cdef const uint8_t* enemy_here = k.occ + (1 - side) * n
    cdef int32_t* opts = k.line_queue
    cdef uint64_t* bits = k.move_bits        # the hexes it may end in (empty between)
    cdef bint ready = False                  # the routes' step costs patched on k.steps
    cdef const stepcost_t* cost = k.steps
    try:
        for i in range(n_v):
            u = victors[i]
            if not on_map(k, u):
                continue
            here = k.s.unit_cell[u]
            if k.t.side[u] == SIDE_ALLIED:
                kind = 2
            else:
                kind = 0 if (k.t.stoss[u] != 0 and not k.t.replacement[u]) else 1
            pts = <int>(die * k.t.advance_mult[1 if turn == 1 or turn == 2 else 0][kind])
            stoss = kind == 0
            n_src = 0
            n_halt = 0
            if pts > 0 and not ready:            # combat.advance_routes: gas, enemy hexes
                segment_steps(k, k.mask_a if gas_zone(k, k.mask_a) else NULL, enemy_here,
                              ezoc, False)
                ready = True
            if pts > 0:
                for j in range(n_vac):           # the vacated hexes, ascending
                    v = vacated[j]
                    d = direction(k, here, v)
                    if d < 0 or cost[6 * here + d] < 0 or cost[6 * here + d] > pts:
                        continue                 # 8.84[1]
                    if not stoss and ezoc[v]:
                        halts[n_halt] = v        # 8.84[2]
                        n_halt += 1
                        continue
                    sources[n_src] = v
                    src_cost[n_src] = cost[6 * here + d]
                    n_src += 1
                if n_src:
                    ws.search(cost, sources, src_cost, n_src, pts,
                              NULL if stoss else <const flag_t*>ezoc, NULL, 0, False)
            # its own hex, then the hexes ascending: those the routes reach, and the halts
            if n_src:
                for j in range(ws.buf.n_touched):
                    c = ws.buf.touched[j]
                    bits[c >> 6] |= (<uint64_t>1) << (c & 63)
            for j in range(n_halt):
                c = halts[j]
                bits[c >> 6] |= (<uint64_t>1) << (c & 63)
            bits[here >> 6] &= ~((<uint64_t>1) << (here & 63))
            n_opt = 0
            opts[n_opt] = here
            n_opt += 1
            for w in range(n_words):
                x = bits[w]
                while x:
                    opts[n_opt] = <int32_t>(w * 64 + __builtin_ctzll(x))
                    n_opt += 1
                    x &= x - 1
                bits[w] = 0
            pick = choose(k, KD_COMBAT_ADVANCE, side, n_opt)
            dest = opts[pick]
            if dest == here:
                continue
            # units.move_unit along the path: every hex of it last passed through by the side
            for j in range(n_halt):
                if halts[j] == dest:
                    break
            else:
                j = -1
            if j >= 0:                           # a halt: there at once
                k.s.hex_last[dest] = <int8_t>side
            else:
                s = dest
                while s >= 0:
                    k.s.hex_last[s % n] = <int8_t>side
                    s = ws.pred_at(s)
            count_out(k, u)
            k.s.unit_cell[u] = dest
            count_in(k, u)
            for d in range(6):                   # next to an enemy unit (8.87)
                v = k.t.nbr[6 * dest + d]
                if v >= 0 and enemy_here[v]:
                    k.s.flags[u] |= KF_ADVANCED
                    break
    finally:
        _unpatch(k)
    return 0


cdef int combat_phase(Kb* k, SearchWorkspace ws, int side) except -1:
    # combat.combat_phase (8.0) for a player who picks at random: the obligations fixed at
    # the start (combat.obligations: units next to the enemy and not in a town or trench hex,
    # 8.12, 8.13, 10.0, and the enemy stacks next to them, 8.11); then attacks declared one at
    # a time (play.obl_random_declare on the position of _Obligations.refresh) and resolved,
    # until the player stops; then the Air Observation markers come off (12.22)
    cdef Py_ssize_t u, i, m, n_att, n_draws, n_stacks = 0, n_def = 0
    cdef int32_t c, w
    cdef int d, nd = 0
    cdef int32_t* att = k.attack
    cdef int32_t* cells = k.attack + 3 * k.t.n_units
    cdef flag_t* stacks = k.mask_a
    for u in range(k.t.n_units):
        k.s.flags[u] &= ~PHASE_FLAGS
    occupied(k, 1 - side, k.target)
    memset(k.obligated, 0, k.t.n_units)
    memset(k.attacked, 0, k.t.n_units)
    memset(stacks, 0, k.t.n_cells)
    for u in range(k.t.n_units):
        if not on_map(k, u) or k.t.side[u] != side:
            continue
        c = k.s.unit_cell[u]
        if k.t.town[c] or k.t.trench[c]:
            continue
        for d in range(6):
            w = k.t.nbr[6 * c + d]
            if w >= 0 and k.target[w]:
                k.obligated[u] = 1
                if not stacks[w]:
                    stacks[w] = 1
                    k.obligated_stacks[n_stacks] = w
                    n_stacks += 1
    _sort_cells(k.obligated_stacks, n_stacks)  # ascending
    while True:
        occupied(k, 1 - side, k.target)        # _Obligations.refresh: the position
        for i in range(n_def):
            k.target[k.defended[i]] = 0
        m = 0
        for u in range(k.t.n_units):
            if (on_map(k, u) and k.t.side[u] == side and not k.attacked[u]
                    and not k.s.flags[u] & (KF_ATTACKED | KF_ADVANCED)):
                k.free_units[m] = <int32_t>u
                m += 1
        obl_build(&k.obl, k.t.nbr, k.target, k.free_units, m, k.s.unit_cell, k.obligated,
                  k.obligated_stacks, n_stacks)
        n_att = obl_random_declare(&k.obl, k.pol[side], att, cells, &nd, NULL, &n_draws)
        k.decisions += n_draws
        if n_att == OBL_STUCK:
            k.error = ERR_OBLIGATIONS
            return 0
        if n_att == OBL_NEITHER:
            k.error = ERR_JOIN
            return 0
        if n_att == OBL_STOP:
            break
        for i in range(n_att):
            k.attacked[att[i]] = 1
        for i in range(nd):                    # a hex is attacked once (8.14): room for all
            k.defended[n_def] = cells[i]
            n_def += 1
        resolve_attack(k, ws, side, att, n_att, cells, nd)
        if k.error:
            return 0
    memset(k.s.observed, 0, k.t.n_cells)
    return 0


cdef int resolve_attack(Kb* k, SearchWorkspace ws, int side, int32_t* att, Py_ssize_t n_att,
                        int32_t* cells, Py_ssize_t n_cells) except -1:
    # combat.resolve_attack (8.0, 8.7, 8.8): the barrages, the modifiers, two dice, the result
    cdef int enemy = 1 - side, rolling, sos_mod, att_mod, def_mod, supply_mod, corps_mod = 0
    cdef int hex_mod, across, m, morale = 0, att_str = 0, def_str = 0, a, dd, q, steps, v, d
    cdef int64_t den
    cdef bint first
    cdef Py_ssize_t i, j, n_def = 0, x, n_left, n_stack, n_opt
    cdef int32_t u, c, dest
    cdef int32_t* defenders = k.attack + k.t.n_units
    cdef int32_t* stack = k.attack + 2 * k.t.n_units
    cdef int32_t* opts = k.work                # [6]
    cdef int32_t* home = k.work + 8            # [n_att] each attacker's hex
    cdef int32_t* homes = k.work + 8 + k.t.n_units   # the attackers' hexes
    cdef Py_ssize_t n_homes
    _sort_cells(att, n_att)
    _sort_cells(cells, n_cells)
    for u in range(k.t.n_units):              # combat._units_in
        if on_map(k, u):
            for j in range(n_cells):
                if k.s.unit_cell[u] == cells[j]:
                    defenders[n_def] = u
                    n_def += 1
                    break
    for i in range(n_att):
        k.s.flags[att[i]] |= KF_ATTACKED
    for i in range(n_def):
        k.s.flags[defenders[i]] |= KF_DEFENDED
    rolling = rolling_barrage(k, side, att, n_att, cells, n_cells)
    sos_mod = sos_barrages(k, enemy, cells, n_cells)
    # combat.attack_modifiers (8.3, 8.4)
    att_mod = (k.t.fog_mod if k.s.weather[0] == W_FOG else 0) + rolling * k.t.rolling_die_per_point
    supply_mod = supply_modifier(k, side, att, n_att)
    if supply_mod == -1000:
        k.error = ERR_SUPPLY_BAND
        return 0
    for i in range(1, n_att):
        if k.s.corps[att[i]] != k.s.corps[att[0]]:
            corps_mod = k.t.corps_mod
            break
    hex_mod = k.t.die_mod[cells[0]]
    for j in range(1, n_cells):
        if k.t.die_mod[cells[j]] > hex_mod:
            hex_mod = k.t.die_mod[cells[j]]
    across = 0
    first = True
    for i in range(n_att):                     # the attackers' hexes (a least: any order)
        c = k.s.unit_cell[att[i]]
        for j in range(n_cells):                # combat.terrain_modifier: "solely across"
            d = direction(k, cells[j], c)
            m = k.t.side_mod[6 * cells[j] + d] if d >= 0 else 0
            if first or m < across:
                across = m
            first = False
    for i in range(n_def):
        v = face_value(k, defenders[i], V_MORALE)
        if i == 0 or v > morale:
            morale = v
    def_mod = supply_mod + sos_mod + corps_mod + hex_mod + across
    for i in range(n_att):
        att_str += face_value(k, att[i], V_COMBAT)
    for i in range(n_def):
        def_str += face_value(k, defenders[i], V_COMBAT)
    a = roll(&k.dice[DS_COMBAT])
    dd = roll(&k.dice[DS_COMBAT])
    den = <int64_t>(dd + def_mod) * def_str
    if den <= 0:
        k.error = ERR_NO_DEFENCE
        return 0
    q = <int>_floordiv(<int64_t>(a + att_mod) * att_str, den)
    if q < 1:                                  # 8.71
        for i in range(n_att):
            if on_map(k, att[i]):
                eliminate(k, att[i], LC_COMBAT)
    elif q <= morale:                          # 8.72, 8.74: by the attackers' hexes, ascending
        # each attacker's hex as the result is applied (the groups do not change as stacks
        # retreat into each other's hexes), then the hexes ascending
        for i in range(n_att):
            home[i] = k.s.unit_cell[att[i]]
        n_homes = 0
        for i in range(n_att):
            for j in range(n_homes):
                if homes[j] == home[i]:
                    break
            else:
                homes[n_homes] = home[i]
                n_homes += 1
        _sort_cells(homes, n_homes)
        for j in range(n_homes):
            c = homes[j]
            n_stack = 0
            for i in range(n_att):
                if home[i] == c:
                    stack[n_stack] = att[i]
                    n_stack += 1
            n_stack = take_losses(k, side, stack, n_stack, 1, LC_COMBAT)
            if n_stack == 0:
                continue
            n_opt = retreat_options(k, c, side, opts)
            if n_opt:
                dest = opts[choose(k, KD_COMBAT_RETREAT, side, n_opt)]
                for i in range(n_stack):
                    k.s.hex_last[dest] = k.t.side[stack[i]]
                    count_out(k, stack[i])
                    k.s.unit_cell[stack[i]] = dest
                    count_in(k, stack[i])
            else:
                take_losses(k, side, stack, n_stack, 1, LC_RETREAT)
    else:                                      # 8.73, 8.75
        steps = q - morale
        n_left = take_losses(k, enemy, defenders, n_def, steps, LC_COMBAT)
        for i in range(n_left):
            k.s.flags[defenders[i]] |= KF_DEFENDED
        for u in range(k.t.n_units):
            if on_map(k, u):
                for j in range(n_cells):
                    if k.s.unit_cell[u] == cells[j]:
                        return 0                # the defenders' hexes are not vacated
        advance(k, ws, side, att, n_att, cells, n_cells)     # 8.83
    return 0


cdef inline int64_t _floordiv(int64_t a, int64_t b) noexcept nogil:
    # Python's a // b for b > 0
    cdef int64_t q = a // b
    if (a % b != 0) and (a < 0):
        q -= 1
    return q


# --- the per-turn record -----------------------------------------------------------------

cdef enum:
    RECORD_MAX = 4 + 2 * (3 + N_LOSS_CAUSES + N_MISSIONS)    # the numbers of a record row


cdef Py_ssize_t record_numbers(Kb* k, int32_t* out) noexcept nogil:
    # KbCore.record_numbers into out; how many
    cdef Py_ssize_t u, c, i, n = 4
    cdef int towns = 0, trench = 0, gas = 0, s, total
    cdef int units[2]
    cdef int points[2]
    cdef const uint8_t* german = k.occ + SIDE_CENTRAL * k.t.n_cells
    cdef const uint8_t* allied = k.occ + SIDE_ALLIED * k.t.n_cells
    for i in range(k.t.n_vp_towns):            # 20.11: occupied, or last passed and not
        c = k.t.vp_towns[i]                    # occupied by the Allies
        if german[c] or (k.s.hex_last[c] == SIDE_CENTRAL and not allied[c]):
            towns += 1
    units[0] = units[1] = points[0] = points[1] = 0
    for u in range(k.t.n_units):
        if on_map(k, u):
            s = k.t.side[u]
            units[s] += 1
            points[s] += stacking_of(k, u)
            if s == SIDE_ALLIED and k.t.trench[k.s.unit_cell[u]]:
                trench += 1
    for i in range(k.t.gas_markers):
        if k.s.gas[i] >= 0:
            gas += 1
    out[0] = towns
    out[1] = k.s.vp[0] + towns * k.t.town_vp + trench * k.t.trench_vp
    out[2] = gas
    out[3] = k.s.exited[0]
    for s in range(2):
        total = 0
        for i in range(N_LOSS_CAUSES):
            total += k.s.steps_lost[s * N_LOSS_CAUSES + i]
        out[n] = units[s]
        out[n + 1] = points[s]
        out[n + 2] = total
        n += 3
        for i in range(N_LOSS_CAUSES):
            out[n] = k.s.steps_lost[s * N_LOSS_CAUSES + i]
            n += 1
        for i in range(N_MISSIONS):
            out[n] = (k.s.arty_spent[(s * N_MISSIONS + i) * 2 + FIELD]
                      + k.s.arty_spent[(s * N_MISSIONS + i) * 2 + HEAVY])
            n += 1
    return n
