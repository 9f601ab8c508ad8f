# cython: language_level=3
"""The Great War in the East in compiled code (issue 28): the first pieces of its core.

* ``GweTables(scenario)``: the tables the core reads, compiled once per scenario into one
  read-only record (``GweT``) that points into arrays the object keeps.
* ``GweCore(game)``: a ``GweGame`` seen from C: its state as pointers into the ``State``
  buffer (``GweS``: the record is fixed, so the pointers hold for the whole game), its dice
  streams and its policies' generators.

What it plays so far, each as the Python engine's function of the same name does, in the same
order, with the same dice and the same draws of the same generators (``tests/core/
test_gwe_core.py`` holds whole games to the Python engine):

* ``initial_supply``: the Initial Supply Segment (4.0 A1a, 9.11);
* ``command_segment``: the Command Control Segment of the Movement and of the Combat Phase
  (4.0 A1c, A3a; 10.3, 10.4, 21.2-21.4), when its player picks at random or allocates
  nothing (10.32);
* ``attrition_segment``: the Attrition Segment (4.0 A1e, 9.22-9.24, 19.41-19.43), with the
  step losses, eliminations and their victory points (8.5, 25.2, 25.13);
* ``withdrawal_phase``: the Cavalry Withdrawal Before Combat Phase (4.0 A2, 12.1, 23.31,
  24.2), when both players pick at random;
* ``replacement_phase``: the Step Replacement Phase (4.0 A4, 13.0, 22.0, 24.43), when its
  player picks at random;
* ``record_numbers``: the counts of the per-turn record (25.11, 25.12), and ``record_row``
  the whole row's numbers;
* ``play_turns``: ``engine.advance``'s turn loop, every phase in C, the dice bound once, when
  both players pick at random.

The rules these share are stated once here: a side's supply (``supply``, the kernel
``play.supply_run`` on the position's masks), occupation and zones of control (``occupied``,
``controlled``: counts per hex kept up to date as units move, ``sync_occupancy``), the command radii (``play.command_radii_run``) and a
random player's allocation (``play.allocation_run``), which the Python engine's kernels
also run, 25.13's "surrounded" (``is_surrounded``) and the accounting of a step lost
(``lose_steps``).
"""

from functools import lru_cache

import numpy as np
cimport numpy as cnp
from cpython.ref cimport PyObject
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc
from libc.math cimport INFINITY, fabs
from libc.string cimport memcmp, memcpy, memset

from gwe_fast._core._types cimport cell_t, dist_t, flag_t, stepcost_t
from gwe_fast._core.bitsearch cimport (StepBits, StepSets, bits_distances,
                                       bits_distances_work, bits_pack)
from gwe_fast._core.board cimport fill_step_costs, keep_step_costs_over
from gwe_fast._core.codes cimport (GF_ADVANCED, GF_ATTACKED, GF_ENTRY_BLOCKED, GF_PANICKED,
                                   GF_RAIL_COUNTED, GF_BROKEN_DOWN, GF_DEFENDED,
                                   GF_IN_COMBAT_LAST_TURN, GF_LIVING_OFF_LAND, GF_MOVED,
                                   GF_OUT_OF_RADIUS, GF_RETREATED_IN, GF_USED_RAIL, GP_COMBAT,
                                   GP_MOVEMENT, GP_REPLACEMENT, GP_WITHDRAWAL, SIDE_ALLIED,
                                   SIDE_CENTRAL, ST_ELIMINATED,
                                   ST_ENTRAINED, ST_ON_MAP, ST_OUT_OF_COMMAND, ST_OUT_OF_SUPPLY,
                                   ST_NOT_IN_PLAY, ST_PENDING, ST_POOL, ST_WITHHELD,
                                   UT_ARMORED_CAR, UT_CAVALRY, UT_DEPOT, UT_HQ)
from gwe_fast._core.hexdice cimport (bind_policies, bind_streams, policy_draw, roll,
                                     unbind_streams)
from gwe_fast._core.play cimport (_ALLOCATED, _FAR, _UNALLOCATED, MV_DETRAIN, MV_DONE,
                                  MV_ENTRAIN, MV_H_EZOC, MV_H_ENEMY,
                                  MV_H_ENEMY_HQ, MV_H_HQ_ALONE, MV_H_RAIL, MV_HEX_ROWS,
                                  MV_R_ALLOWANCE,
                                  MV_R_TABLE, MV_R_TRAITS, MV_R_UNIT, MV_ROSTER_COLUMNS,
                                  MV_T_HANDOVER, MV_T_HEXWISE, Atk, GweMoves, atk_candidates,
                                  atk_odds, atk_options, atk_row, atk_strength2, atk_target,
                                  attacker2, crosses_into, force2, track_carries,
                                  odds_reached, bit_parallel, command_radii_run, gwe_moves_run,
                                  hex_defenses_run, mv_allowance, allocation_run,
                                  roster_run,
                                  supply_run, withdrawals_run)
from gwe_fast._core.policy cimport (CellFacts, UnitTerms, gain_one, retreat_ways_run,
                                    score_one, surrounded_run)
from gwe_fast._core.search cimport SearchWorkspace

cnp.import_array()

cdef enum:
    LINE_STATUS = ST_ON_MAP | ST_ENTRAINED    # what a supply line reads of a unit's status

# a row of the per-turn record as the core counts it (record_row): the Game-Turn, the side
# whose Player-Turn ended, the VP, how many valued towns the Russian player controls and
# their VP, then RC_PER_SIDE columns for each side in turn (from RC_SIDES): its units on the
# map, of them out of supply, out of Command Control (ooc_count), the hexes it last held, the
# Stacking Points it lost (all causes), then its steps lost by cause (LOSS_CAUSES' order)
cdef enum:
    RC_TURN = 0
    RC_SIDE = 1
    RC_VP = 2
    RC_TOWNS = 3
    RC_TOWNS_VP = 4
    RC_SIDES = 5
    RC_UNITS = 0
    RC_OUT_OF_SUPPLY = 1
    RC_OUT_OF_COMMAND = 2
    RC_HEXES_HELD = 3
    RC_SP_LOST = 4
    RC_STEPS_LOST = 5
    RC_PER_SIDE = RC_STEPS_LOST + N_LOSS_CAUSES
    RC_WIDTH = RC_SIDES + 2 * RC_PER_SIDE

#: the columns of a row of ``GweCore.record_row`` and ``play_turns``
RECORD_COLUMNS = ("turn", "side", "vp", "towns", "towns_vp") + tuple(
    f"{what}_{side}" for side in ("allied", "central")
    for what in ("units", "out_of_supply", "out_of_command", "hexes_held", "sp_lost")
    + tuple(f"steps_lost_{i}" for i in range(N_LOSS_CAUSES)))

#: the dice streams of the core, in the order of its DS_ codes
STREAM_NAMES = ("attrition", "replacement", "command", "withdrawal", "combat", "breakdown")
# the streams each phase rolls (run_phase): the Command Control, Movement (23.52, 24.42) and
# Attrition Segments; 12.12; Command Control, combat and 9.23's attrition; 13.0
PHASE_STREAMS = {GP_MOVEMENT: (DS_COMMAND, DS_BREAKDOWN, DS_ATTRITION),
                 GP_WITHDRAWAL: (DS_WITHDRAWAL,),
                 GP_COMBAT: (DS_COMMAND, DS_COMBAT, DS_ATTRITION),
                 GP_REPLACEMENT: (DS_REPLACEMENT,)}


def _keep(owner: list, a, dtype) -> cnp.ndarray:
    # a as a C-ordered array of dtype, kept alive by owner
    out = np.ascontiguousarray(a, dtype=dtype)
    owner.append(out)
    return out


cdef const void* _ptr(cnp.ndarray a):
    return <const void*>cnp.PyArray_DATA(a)


#: the decisions the core may answer for a ladder player, by kind (Policy.core_answers)
LADDER_KINDS = {"gwe.command.allocate": LADDER_COMMAND,
                "gwe.replacement.attempt": LADDER_REPLACEMENT,
                "gwe.withdrawal.unit": LADDER_WITHDRAWAL_UNIT,
                "gwe.withdrawal.path": LADDER_WITHDRAWAL_PATH,
                "gwe.withdrawal.occupy": LADDER_WITHDRAWAL_OCCUPY}


cdef class GweTables:
    """A Great War in the East scenario's tables as the core reads them (``GweT``), made once
    per scenario from the same sources the Python engine reads (``gwe_data``, the supply
    module's fixed arrays, the replacement and attrition tables)."""

    cdef GweT t
    cdef list _keep

    def __init__(self, scenario):
        from gwe_fast.enums import Nationality
        from gwe_fast.games.gwe import (attrition, command, replacement, retreat, supply,
                                        withdrawal)
        from gwe_fast.games.gwe.combat import _fortresses
        from gwe_fast.games.gwe.data import gwe_data
        from gwe_fast.games.gwe.zoc import unit_masks

        cdef list keep = []
        self._keep = keep
        m, u = scenario.map, scenario.units
        data = gwe_data(scenario)
        fx = supply._fixed(scenario)
        cdef GweT* t = &self.t
        t.n_cells = m.n_cells
        t.nbr = <const cell_t*>_ptr(_keep(keep, m.neighbors, np.int32))
        t.zoc_blocked = <const uint8_t*>_ptr(_keep(keep, data.zoc_blocked, np.uint8))
        passable = _keep(keep, retreat._passable_steps(scenario), np.uint8)
        t.passable = <const uint8_t*>_ptr(passable)
        # and as bitboards: a step of 1 where passable (source_distance's breadth first)
        cdef StepSets passable_bits = StepSets(
            m.neighbors, np.where((passable != 0) & (m.neighbors >= 0), 1, -1))
        keep.append(passable_bits)
        t.passable_bits = &passable_bits.b
        t.rail_steps = <const stepcost_t*>_ptr(_keep(keep, fx.rail_steps, np.int16))
        t.line_steps = <const stepcost_t*>_ptr(_keep(keep, fx.line_steps, np.int16))
        # the two as bitboards, made once here rather than at each of the ~150 supplies of
        # a game (supply_run searches on them)
        cdef StepSets rail_bits = StepSets(m.neighbors, fx.rail_steps)
        cdef StepSets line_bits = StepSets(m.neighbors, fx.line_steps)
        cdef StepSets back_bits = StepSets(m.neighbors, fx.line_steps, True)
        keep += [rail_bits, line_bits, back_bits]
        t.rail_bits = &rail_bits.b
        t.line_bits = &line_bits.b
        t.back_bits = &back_bits.b
        # what a rail source search reads (supply_run's rail_keep): both sides' starts and
        # every hex a rail step leaves or enters
        rail_at = np.zeros(64 * rail_bits.b.nw, dtype=bool)
        rail_open = (np.asarray(fx.rail_steps) >= 0) & (m.neighbors >= 0)
        rail_at[:m.n_cells] = rail_open.any(axis=1)
        rail_at[m.neighbors[rail_open]] = True
        for s in (SIDE_ALLIED, SIDE_CENTRAL):
            rail_at[np.asarray(data.rail_edge[s], dtype=np.int64)] = True
        t.rail_cells = <const uint64_t*>_ptr(_keep(
            keep, np.packbits(rail_at, bitorder="little").view(np.uint64), np.uint64))
        forts = _fortresses(scenario)
        for s in (SIDE_ALLIED, SIDE_CENTRAL):
            t.friendly[s] = <const uint8_t*>_ptr(_keep(keep, fx.friendly[s], np.uint8))
            edge = _keep(keep, data.rail_edge[s], np.int32)
            t.rail_edge[s] = <const int32_t*>_ptr(edge) if edge.size else NULL
            t.n_rail_edge[s] = edge.size
            fc = _keep(keep, forts[s], np.int32)
            t.fortress_cells[s] = <const int32_t*>_ptr(fc) if fc.size else NULL
            t.n_fortress[s] = fc.size
        fa = _keep(keep, forts[2], np.int32)
        t.fortress_all = <const int32_t*>_ptr(fa) if fa.size else NULL
        t.n_fortress_all = fa.size
        side_add = _keep(keep, data.side_add, np.int16)
        t.side_add = <const int16_t*>_ptr(side_add)
        t.enter_cost = <const int16_t*>_ptr(_keep(keep, data.enter_cost, np.int16))
        t.n_tcr = side_add.shape[0]
        if ((data.tcr < 1) | (data.tcr > t.n_tcr)).any():
            raise ValueError("a unit's TCR has no row of the terrain costs")
        mountain, car = withdrawal._fixed(scenario)
        t.mountain = <const uint8_t*>_ptr(_keep(keep, mountain, np.uint8))
        t.car = <const uint8_t*>_ptr(_keep(keep, car, np.uint8))
        t.stack_limit = int(scenario.tables["stacking"]["max_points"])
        t.off_land_area = <const uint8_t*>_ptr(
            _keep(keep, attrition.living_off_land_area(scenario), np.uint8))
        most = scenario.tables["stacking"].get("living_off_land_max_points")
        t.off_land_max_points = -1 if most is None else int(most)

        t.n_units = u.n
        t.side = <const int8_t*>_ptr(_keep(keep, u.side, np.int8))
        t.utype = <const int8_t*>_ptr(_keep(keep, u.utype, np.int8))
        t.nationality = <const int8_t*>_ptr(_keep(keep, u.nationality, np.int8))
        t.n_steps = <const int8_t*>_ptr(_keep(keep, u.n_steps, np.int8))
        t.stacking = <const int8_t*>_ptr(_keep(keep, u.stacking, np.int8))
        not_hq, exerts = unit_masks(scenario)
        t.exerts = <const uint8_t*>_ptr(_keep(keep, exerts, np.uint8))
        t.not_hq = <const uint8_t*>_ptr(_keep(keep, not_hq, np.uint8))
        t.depot = <const uint8_t*>_ptr(_keep(keep, fx.depot, np.uint8))
        t.supply_range = <const int32_t*>_ptr(_keep(keep, fx.range, np.int32))
        t.layers = <const int32_t*>_ptr(_keep(keep, fx.layers, np.int32))
        for s in (SIDE_ALLIED, SIDE_CENTRAL):
            t.shortest[s] = fx.shortest[s]
        # victory.russian_towns reads the places with a value in the scenario's order
        towns = [(p.cell, p.vp) for p in scenario.places if p.vp > 0]
        tc = _keep(keep, [c for c, _ in towns], np.int32)
        tv = _keep(keep, [v for _, v in towns], np.int32)
        t.town_cells = <const int32_t*>_ptr(tc) if tc.size else NULL
        t.town_vp = <const int32_t*>_ptr(tv) if tv.size else NULL
        t.n_towns = tc.size
        kinds, _, _ = replacement._replaceable_kinds(scenario)
        t.repairable = <const uint8_t*>_ptr(_keep(keep, kinds, np.uint8))
        t.tcr = <const int8_t*>_ptr(_keep(keep, data.tcr, np.int8))

        # command (command.py's tables, read once)
        table, front_r, back_r = command._hq_radius_facts(scenario)
        t.hq_table = <const int32_t*>_ptr(_keep(keep, table, np.int32))
        t.radius_front = <const int32_t*>_ptr(_keep(keep, front_r, np.int32))
        t.radius_back = <const int32_t*>_ptr(_keep(keep, back_r, np.int32))
        front, back = command._ratings(scenario)
        t.strength_front = <const int32_t*>_ptr(
            _keep(keep, [f[1] for f in front], np.int32))
        t.strength_back = <const int32_t*>_ptr(
            _keep(keep, [(b or f)[1] for f, b in zip(front, back)], np.int32))
        stops, stops_ah = command._radius_stops(scenario)
        t.stops = <const uint8_t*>_ptr(_keep(keep, stops, np.uint8))
        t.stops_ah = <const uint8_t*>_ptr(_keep(keep, stops_ah, np.uint8))
        t.is_ah = <const uint8_t*>_ptr(
            _keep(keep, u.nationality == int(Nationality.AUSTRO_HUNGARIAN), np.uint8))
        tabs = _keep(keep, command._radius_tables(scenario), np.int16)
        t.radius_tables = <const stepcost_t*>_ptr(tabs)
        t.n_radius_tables = tabs.shape[0]
        # and as bitboards: the records side by side in a buffer kept here, their masks owned
        # by the StepSets kept with them
        radius_sets = [StepSets(m.neighbors, tab) for tab in tabs]
        keep.append(radius_sets)
        records = _keep(keep, np.zeros(len(radius_sets) * sizeof(StepBits) + 1, np.uint8),
                        np.uint8)
        for i, rs in enumerate(radius_sets):
            memcpy(<StepBits*>cnp.PyArray_DATA(records) + <Py_ssize_t>i,
                   &(<StepSets>rs).b, sizeof(StepBits))
        t.radius_bits = <const StepBits*>cnp.PyArray_DATA(records)
        if ((table < 0) | (table >= tabs.shape[0]))[u.utype == UT_HQ].any():
            raise ValueError("an HQ whose TCR has no command radius table")
        t.n_hqs = int((u.utype == UT_HQ).sum())
        t.first_turn = scenario.first_turn
        t.unlimited_command = bool(scenario.options.get("unlimited_command", False))
        t.russian_first_turn = command.RUSSIAN_FIRST_TURN_COMMAND
        t.depots_by_supply = command.DEPOTS_COMMANDED_BY_SUPPLY
        t.joint_command = command.JOINT_CENTRAL_COMMAND

        _combat_tables(t, keep, scenario, data)
        _reinforcement_tables(t, keep, scenario)
        _movement_tables(t, keep, scenario, data)

        t.attrition_rolls = _bits(scenario.tables["attrition"]["rolls"])
        if scenario.last_turn >= MAX_TURNS:
            raise ValueError(f"the core holds Game-Turns up to {MAX_TURNS - 1}, "
                             f"not {scenario.last_turn}")
        memset(t.replacement_rolls, 0, sizeof(t.replacement_rolls))
        for nat in sorted(set(u.nationality.tolist())):
            if not 0 <= nat < MAX_NATIONALITIES:
                raise ValueError(f"a nationality code {nat} beyond the core's tables")
            if Nationality(nat) not in replacement.NATIONALITY_KEYS:
                continue
            for turn in range(scenario.first_turn, scenario.last_turn + 1):
                t.replacement_rolls[nat][turn] = _bits(
                    replacement.replacement_rolls(scenario, nat, turn))


cdef int _combat_tables(GweT* t, list keep, scenario, data) except -1:
    # GweT's combat tables, from what combat.py reads
    from gwe_fast.enums import Feature, Nationality, Side
    from gwe_fast.games.gwe import command, panic
    from gwe_fast.games.gwe.combat import CAVALRY_FULL_AGAINST, SIDE_KEYS
    from gwe_fast.games.gwe.movement import ARMORED_CAR_BROKEN_DOWN

    m, u = scenario.map, scenario.units
    values = _keep(keep, u.values, np.int16)
    if values.ndim != 3 or values.shape[2] != 3 or values.shape[1] < 1:
        raise ValueError("the units' values are not [unit, step, attack-defense-movement]")
    t.values = <const int16_t*>_ptr(values)
    t.max_steps = values.shape[1]
    if (u.n_steps > t.max_steps).any():
        raise ValueError("a unit has more steps than rows of values")
    for i in range(3):
        t.car_back[i] = ARMORED_CAR_BROKEN_DOWN[i]
    t.q = <const int16_t*>_ptr(_keep(keep, m.q, np.int16))
    t.r = <const int16_t*>_ptr(_keep(keep, m.r, np.int16))
    t.east = <const uint8_t*>_ptr(_keep(keep, data.east, np.uint8))
    t.fortress_printed = <const uint8_t*>_ptr(
        _keep(keep, (m.features & int(Feature.FORTRESS)) != 0, np.uint8))
    ct = data.combat
    t.prohibited = <const uint8_t*>_ptr(_keep(keep, ct.prohibited, np.uint8))
    t.halved = <const uint8_t*>_ptr(_keep(keep, ct.halved, np.uint8))
    t.doubled = <const int8_t*>_ptr(_keep(keep, ct.doubled, np.int8))
    t.trench = <const int8_t*>_ptr(_keep(keep, ct.trench, np.int8))
    t.is_hq = <const uint8_t*>_ptr(_keep(keep, u.utype == UT_HQ, np.uint8))
    t.is_depot = <const uint8_t*>_ptr(_keep(keep, u.utype == UT_DEPOT, np.uint8))
    t.cavalry = <const uint8_t*>_ptr(_keep(keep, u.utype == UT_CAVALRY, np.uint8))
    t.cav_full_ok = <const uint8_t*>_ptr(
        _keep(keep, np.isin(u.utype, CAVALRY_FULL_AGAINST), np.uint8))
    t.hq_combat = <const int16_t*>_ptr(_keep(keep, u.extra["combat"], np.int16))
    t.heroic = <const uint8_t*>_ptr(_keep(keep, u.extra["heroic"] > 0, np.uint8))
    t.panics = <const uint8_t*>_ptr(_keep(keep, panic._subject(scenario), np.uint8))
    t.division = <const uint8_t*>_ptr(_keep(keep, u.size == panic._DIVISION, np.uint8))
    front, back = command._ratings(scenario)
    t.shift_front = <const int32_t*>_ptr(_keep(keep, [f[0] for f in front], np.int32))
    t.shift_back = <const int32_t*>_ptr(
        _keep(keep, [(b or f)[0] for f, b in zip(front, back)], np.int32))
    t.army_level = <const uint8_t*>_ptr(_keep(keep, u.size == command._ARMY, np.uint8))
    crt = data.crt
    ratios = _keep(keep, crt.ratios, np.int32)
    t.crt_ratios = <const int32_t*>_ptr(ratios)
    t.crt_cols = ratios.shape[1]
    t.crt_row_len = <const int32_t*>_ptr(_keep(keep, crt.row_len, np.int32))
    row_of_tcr = _keep(keep, crt.row_of_tcr, np.int32)
    if row_of_tcr.shape[0] <= int(data.tcr.max()):
        raise ValueError("a unit's TCR has no odds row")
    t.crt_row_of_tcr = <const int32_t*>_ptr(row_of_tcr)
    t.crt_joint = crt.joint
    t.german = int(Nationality.GERMAN)
    t.austro = int(Nationality.AUSTRO_HUNGARIAN)
    ma = scenario.tables["massed_artillery"]
    t.artillery_range = int(ma["range"])
    for s in (SIDE_ALLIED, SIDE_CENTRAL):
        t.defensive_artillery[s] = SIDE_KEYS[Side(s)] in ma["defensive_use"]
    t.hq_defensive_shift = command.HQ_DEFENSIVE_SHIFT
    t.artillery_multiplier = int(ma["multiplier"])
    from gwe_fast.enums import CRT_RESULT_NAMES
    from gwe_fast.games.gwe.combat import OPTION_EFFECTS
    results = _keep(keep, crt.results, np.int8)
    if results.ndim != 3 or results.shape[1] != t.crt_cols or results.shape[2] != 2:
        raise ValueError("the CRT's results and odds rows differ in columns")
    t.crt_results = <const int8_t*>_ptr(results)
    t.crt_die_min, t.crt_die_max = min(crt.die), max(crt.die)
    if t.crt_die_min < 0 or t.crt_die_max >= MAX_DIE:
        raise ValueError(f"a CRT die roll beyond the core's table: {crt.die}")
    for d in range(MAX_DIE):
        t.crt_die_row[d] = -1
    for d, row in crt.die_row.items():
        t.crt_die_row[d] = row
    for d in range(t.crt_die_min, t.crt_die_max + 1):
        if t.crt_die_row[d] < 0:
            raise ValueError(f"the CRT has no row for a die of {d}")
    if tuple(CRT_RESULT_NAMES) != ("-", "1", "2", "3", "E"):
        raise ValueError("the core reads the results -, 1, 2, 3, E")
    for r in range(N_RESULTS):
        name = CRT_RESULT_NAMES[r]
        opts = crt.defender_options.get(name, ())
        if len(opts) > MAX_OPTIONS:
            raise ValueError(f"result {name} has more options than the core holds")
        t.n_def_options[r] = len(opts)
        for i, o in enumerate(opts):
            half, whole, hexes = OPTION_EFFECTS[o]
            t.def_option[r][i] = ((OPT_HALF if half else 0) | (OPT_WHOLE if whole else 0)
                                  | (OPT_ELIMINATE_ALL if o == "eliminate_all" else 0)
                                  | (hexes << OPT_HEXES_SHIFT))
        a = crt.attacker_options.get(name)
        t.attacker_loses_all[r] = bool(a) and OPTION_EFFECTS[a[0]][1]
    # CrtTable.faces of every modifier and column, as they are (the same floats)
    lo, hi = crt.face_mods
    n_mods = hi - lo + 1
    face_n = np.zeros((n_mods, t.crt_cols), dtype=np.int8)
    face_p = np.zeros((n_mods, t.crt_cols, MAX_FACES), dtype=np.float64)
    face_a = np.zeros((n_mods, t.crt_cols, MAX_FACES), dtype=np.int8)
    face_d = np.zeros((n_mods, t.crt_cols, MAX_FACES), dtype=np.int8)
    for i in range(n_mods):
        for c in range(t.crt_cols):
            faces = crt.faces(c, lo + i)
            if len(faces) > MAX_FACES:
                raise ValueError("a column has more results than the core holds")
            face_n[i, c] = len(faces)
            for k, (p, a, d) in enumerate(faces):
                face_p[i, c, k] = p
                face_a[i, c, k] = CRT_RESULT_NAMES.index(a)
                face_d[i, c, k] = CRT_RESULT_NAMES.index(d)
    t.face_lo = lo
    t.n_face_mods = n_mods
    t.face_n = <const int8_t*>_ptr(_keep(keep, face_n, np.int8))
    t.face_p = <const double*>_ptr(_keep(keep, face_p, np.float64))
    t.face_a = <const int8_t*>_ptr(_keep(keep, face_a, np.int8))
    t.face_d = <const int8_t*>_ptr(_keep(keep, face_d, np.int8))
    if len(ct.die_exclusive) > MAX_DIE_MASKS or len(ct.die_any) > MAX_DIE_MASKS:
        raise ValueError("more die modifiers of terrain than the core holds")
    t.n_die_exclusive = len(ct.die_exclusive)
    for i, (mask, n) in enumerate(ct.die_exclusive):
        t.die_exclusive[i] = <const uint8_t*>_ptr(_keep(keep, mask, np.uint8))
        t.die_exclusive_n[i] = n
    t.n_die_any = len(ct.die_any)
    for i, (mask, n) in enumerate(ct.die_any):
        t.die_any[i] = <const uint8_t*>_ptr(_keep(keep, mask, np.uint8))
        t.die_any_n[i] = n
    return 0


cdef int _reinforcement_tables(GweT* t, list keep, scenario) except -1:
    # GweT's reinforcement tables, from what reinforcements.py and rail.py read
    from gwe_fast.enums import Terrain
    from gwe_fast.games.gwe import rail, reinforcements as rf

    m, u = scenario.map, scenario.units
    t.due_turn = <const int16_t*>_ptr(_keep(keep, rf.due_turns(scenario), np.int16))
    t.playable = <const uint8_t*>_ptr(_keep(keep, rf._playable(scenario), np.uint8))
    t.replaced = <const uint8_t*>_ptr(_keep(keep, rf.replaced_hqs(scenario), np.uint8))
    first, cells = [0], []
    for i in range(u.n):
        cells.extend(int(c) for c in rf.entry_cells(scenario, i))
        first.append(len(cells))
    t.entry_first = <const int32_t*>_ptr(_keep(keep, first, np.int32))
    t.entry_cells = <const int32_t*>_ptr(_keep(keep, cells + [0], np.int32))
    t.water = <const uint8_t*>_ptr(
        _keep(keep, np.isin(m.terrain, (Terrain.LAKE, Terrain.SEA)), np.uint8))
    for s in (SIDE_ALLIED, SIDE_CENTRAL):
        t.friendly_rail[s] = <const uint8_t*>_ptr(
            _keep(keep, rail.friendly_rail_hexes(scenario, s), np.uint8))
        edge = _keep(keep, rf._edge_cells(scenario, s), np.int32)
        t.edge[s] = <const int32_t*>_ptr(edge) if edge.size else NULL
        t.n_edge[s] = edge.size
        t.rail_capacity[s] = rail.rail_capacity(scenario, s)
        for turn in range(MAX_TURNS):
            t.depots_due[s][turn] = 0
        for turn in range(scenario.first_turn, scenario.last_turn + 1):
            n, _, most = rf.depot_schedule(scenario, s, turn)
            t.depots_due[s][turn] = n
            t.depots_most[s] = most
    for turn in range(MAX_TURNS):
        t.withhold_vp[turn] = NO_VP
    for turn in range(scenario.first_turn, scenario.last_turn + 1):
        vp = rf.withhold_vp(scenario, turn)
        if vp is not None:
            t.withhold_vp[turn] = vp
    return 0


cdef int _movement_tables(GweT* t, list keep, scenario, data) except -1:
    # GweT's movement tables, from what movement.py and rail.py read
    from gwe_fast.games.gwe import engine, movement, rail
    from gwe_fast.games.gwe.supply import friendly_ground

    n = scenario.map.n_cells
    base = np.empty((t.n_tcr, 2, n, 6), dtype=np.int16)
    for tc in range(t.n_tcr):
        for car in (0, 1):
            base[tc, car] = movement._base_table(scenario, tc, bool(car))
    t.move_base = <const stepcost_t*>_ptr(_keep(keep, base, np.int16))
    t.zoc_add = <const int32_t*>_ptr(_keep(keep, data.zoc_add[:t.n_tcr], np.int32))
    kind, n_keys = engine._roster_facts(scenario)         # the kernel's roster reads these
    t.move_kind = <const uint8_t*>_ptr(_keep(keep, kind, np.uint8))
    t.n_move_keys = n_keys
    limits = rail.line_limits(scenario)
    for s in (SIDE_ALLIED, SIDE_CENTRAL):
        one, lines = rail._rail_lines(scenario, s)
        t.rail_lines[s] = <const stepcost_t*>_ptr(_keep(keep, lines, np.int16))
        t.rail_ground[s] = <const uint8_t*>_ptr(
            _keep(keep, friendly_ground(scenario, s), np.uint8))
        t.track_limits[s] = <const int16_t*>_ptr(_keep(keep, limits[s], np.int16))
        t.rail_rate[s] = rail.rail_rate(scenario, s)
    t.rail_one = <const stepcost_t*>_ptr(_keep(keep, one, np.int16))
    t.track_on = rail.track_limits_on(scenario)
    ah = scenario.tables["reduced_austro_hungarian_movement"]
    t.ah_safe_hexes = int(ah["safe_hexes"])
    t.ah_safe_mp = int(ah["safe_movement_points"])
    t.ah_rolls_opening = _bits(ah["panic_turn_rolls"])
    t.ah_rolls_later = _bits(ah["later_rolls"])
    cb = scenario.tables["armored_car_breakdown"]
    t.car_safe_mp = int(cb["safe_movement_points"])
    rows = cb["row"]
    if len(rows) > MAX_CAR_ROWS:
        raise ValueError(f"the core holds {MAX_CAR_ROWS} rows of 24.42's table, "
                         f"not {len(rows)}")
    t.n_car_rows = len(rows)
    for i, r in enumerate(rows):
        t.car_row_mp[i] = int(r["movement_points"])
        t.car_row_rolls[i] = _bits(r["rolls"])
    return 0


cdef uint32_t _bits(values) except? 0:
    # bit d set for each die d of values (1 .. 31)
    cdef uint32_t out = 0
    for v in values:
        if not 0 <= int(v) < 32:
            raise ValueError(f"a die roll {v} the core cannot hold")
        out |= 1u << int(v)
    return out


#: the state's fields the core reads, with their dtypes
FIELDS = {
    "turn": np.int16, "phase": np.int16, "player": np.int8, "vp": np.int32,
    "unit_cell": np.int32, "unit_step": np.int8, "unit_status": np.uint16, "hex_last": np.int8,
    "flags": np.uint16, "vp_cause": np.int32, "steps_lost": np.int32, "sp_lost": np.int32,
    "fortress": np.int16, "hq_shift_used": np.int8, "mp_spent": np.int16,
    "rail_hexes": np.int16, "rail_used": np.int16, "rail_turn": np.int16,
    "rail_forced": np.int16, "track_used": np.int16, "depots_received": np.int16,
    "ooc_count": np.int16,
}


@lru_cache(maxsize=64)
def _field_starts(layout, n_units, n_cells):
    # where each field the core reads lies in a state record of this layout, checked once a
    # layout: there, of the dtype and shape the core reads
    where = {name: (np.dtype(dtype), tuple(shape), start)
             for name, dtype, shape, start, _ in layout}
    shapes = {"unit_cell": (n_units,), "unit_step": (n_units,), "unit_status": (n_units,),
              "flags": (n_units,), "hex_last": (n_cells,), "steps_lost": (2, N_LOSS_CAUSES),
              "sp_lost": (2, N_LOSS_CAUSES), "fortress": (n_cells, 4),
              "hq_shift_used": (n_units,), "mp_spent": (n_units,), "rail_hexes": (n_units,),
              "rail_used": (2,), "rail_turn": (2,), "rail_forced": (2,),
              "track_used": (n_cells, 6, 2), "depots_received": (2,), "ooc_count": (2,)}
    out = {}
    for name, want in FIELDS.items():
        if name not in where:
            raise ValueError(f"the state has no field {name}")
        dtype, shape, start = where[name]
        if dtype != np.dtype(want):
            raise ValueError(f"the state's {name} is {dtype}, the core reads {np.dtype(want)}")
        if name in shapes and shape != shapes[name]:
            raise ValueError(f"the state's {name} has shape {shape}, not {shapes[name]}")
        out[name] = start
    return out


cdef class GweCore:
    """A ``GweGame`` seen from the compiled core (see the module). Made by the game
    (``GweGame.core``) when it plays without an event log; it holds pointers into the game's
    state buffer, so it lives no longer than the game."""

    cdef Gwe g
    cdef GweTables tables
    cdef object _game
    cdef object _ask                    # game.ask, which g.ask borrows
    cdef object _buffer
    cdef SearchWorkspace ws
    cdef list _streams
    cdef dict _spare                    # streams made for a phase and not rolled (hexdice)

    def __init__(self, game, GweTables tables=None):
        from gwe_fast import kernels

        if game.events is not None:
            raise ValueError("the compiled core keeps no event log: play with events off")
        if game.scenario.map.k.name != "cython":
            raise ValueError("the compiled core plays on the compiled kernels only")
        self.tables = GweTables(game.scenario) if tables is None else tables
        self._game = game
        st = game.state
        self._buffer = st.buffer
        cdef uint8_t[::1] buf = st.buffer
        cdef char* base = <char*>&buf[0] if buf.shape[0] else NULL
        cdef dict ptr = {name: <size_t>base + <size_t>start for name, start in
                         _field_starts(st.layout, game.scenario.units.n,
                                       game.scenario.map.n_cells).items()}
        cdef GweS* s = &self.g.s
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
        s.fortress = <int16_t*><size_t>ptr["fortress"]
        s.hq_shift_used = <int8_t*><size_t>ptr["hq_shift_used"]
        s.mp_spent = <int16_t*><size_t>ptr["mp_spent"]
        s.rail_hexes = <int16_t*><size_t>ptr["rail_hexes"]
        s.rail_used = <int16_t*><size_t>ptr["rail_used"]
        s.rail_turn = <int16_t*><size_t>ptr["rail_turn"]
        s.rail_forced = <int16_t*><size_t>ptr["rail_forced"]
        s.track_used = <int16_t*><size_t>ptr["track_used"]
        s.depots_received = <int16_t*><size_t>ptr["depots_received"]
        s.ooc_count = <int16_t*><size_t>ptr["ooc_count"]
        self.g.t = &self.tables.t
        bind_policies(self.g.pol, self.g.level, game)
        for side in range(2):
            answers = getattr(game.policies[side], "core_answers", None)
            self.g.ladder[side] = 0
            for kind, bit in LADDER_KINDS.items():
                if callable(answers) and answers("gwe", kind):
                    self.g.ladder[side] |= bit
            if self.g.ladder[side] & LADDER_WITHDRAWAL_UNIT:
                # the weights the answer weighs attacks with, as the policy's evaluations
                (material, ground, town), (per_sp, surrounded), withdraw_at = \
                    game.policies[side].core_answer_params(game)
                self.g.ladder_weights[side][:] = [material, ground, town]
                self.g.ladder_vp[side][:] = [per_sp[0], per_sp[1], surrounded[0],
                                             surrounded[1]]
                self.g.withdraw_at[side] = withdraw_at
        cdef Py_ssize_t nc = self.tables.t.n_cells, nu = self.tables.t.n_units, i
        self.g.mask_a = <flag_t*>malloc(4 * (nc + 1))
        self.g.mask_b = self.g.mask_a + (nc + 1)
        self.g.mask_c = self.g.mask_b + (nc + 1)
        self.g.mask_d = self.g.mask_c + (nc + 1)
        # the work: two lists of a hex each ([0, nc + 1) and [nc + 1, 2 nc + 2)), three of a
        # unit each (a phase's from 2 nc + 4, supply's from 2 nc + 8 + nu, a third from
        # 2 nc + 12 + 2 nu) and one of an HQ (from 2 nc + 16 + 3 nu)
        cdef Py_ssize_t nh = self.tables.t.n_hqs
        self.g.work = <int32_t*>malloc((2 * nc + 3 * nu + nh + 32) * sizeof(int32_t))
        self.g.sup.rail = <uint8_t*>malloc(2 * (nc + nu) + 2)
        self.g.town_value = <int32_t*>malloc((self.tables.t.n_towns + 1) * sizeof(int32_t))
        self.g.dist = <int32_t*>malloc((nc + 1) * sizeof(int32_t))
        self.g.dist_bits = <uint64_t*>malloc(
            (2 * self.tables.t.passable_bits.nw + bits_distances_work(self.tables.t.passable_bits)
             + 1) * sizeof(uint64_t))
        self.g.w_counts = <int32_t*>malloc((73 * nu + 2) * sizeof(int32_t))
        self.g.w_paths = self.g.w_counts + nu + 1
        self.g.unit_mask = <flag_t*>malloc(2 * (nu + 1))
        self.g.unit_mask_b = self.g.unit_mask + nu + 1
        self.g.radii = <uint8_t*>malloc(2 * nh * nc + 1)
        self.g.hq_cell = <int32_t*>malloc((10 * nh + 5 * nu + 8) * sizeof(int32_t))
        self.g.hq_stopped = <uint8_t*>malloc(2 * nh + nu * (nh + 1) + nu + 8)
        self.g.hq_slot = <int32_t*>malloc((2 * nh + 1) * sizeof(int32_t))
        self.g.radii_keep = <uint64_t*>malloc(
            (2 * nu * (1 + 4 * self.tables.t.rail_bits.nw) + 1) * sizeof(uint64_t))
        if (self.g.mask_a == NULL or self.g.work == NULL or self.g.sup.rail == NULL
                or self.g.unit_mask == NULL or self.g.radii == NULL or self.g.hq_cell == NULL
                or self.g.hq_stopped == NULL or self.g.town_value == NULL
                or self.g.hq_slot == NULL or self.g.radii_keep == NULL
                or self.g.dist == NULL or self.g.dist_bits == NULL
                or self.g.w_counts == NULL):
            raise MemoryError()
        for i in range(2 * nu):                    # each radius's slot empty: its key word 0
            self.g.radii_keep[i * (1 + 4 * self.tables.t.rail_bits.nw)] = 0
        self.g.sup.cells = self.g.sup.rail + nc + 1
        self.g.sup.depots = self.g.sup.cells + nc
        self.g.sup.units = self.g.sup.depots + nu + 1
        self.g.hq_tab = self.g.hq_cell + 2 * nh + 1
        self.g.hq_radius = self.g.hq_tab + 2 * nh + 1
        self.g.hq_left = self.g.hq_radius + 2 * nh + 1
        self.g.hq_of = self.g.hq_left + 2 * nh + 1
        self.g.alloc_picks = self.g.hq_of + 2 * nh + 1
        self.g.alloc_sp = self.g.alloc_picks + 2 * nu + 1
        self.g.cover = self.g.hq_stopped + 2 * nh + 1
        self.g.alloc_status = <int8_t*>(self.g.cover + nu * (nh + 1) + 1)
        self.g.occ = <Occupancy*>calloc(1, sizeof(Occupancy))
        if self.g.occ == NULL:
            raise MemoryError()
        self.g.occ.points = <int32_t*>malloc((2 * nc + 1) * sizeof(int32_t))
        self.g.occ.cell = <int32_t*>malloc(2 * (nu + 1) * sizeof(int32_t)
                                           + (6 * nc + 2 * nu + 2) * sizeof(int16_t))
        self.g.occ.zoc_on = <uint8_t*>malloc(nu + 1 + 6 * nc)
        if self.g.occ.cell == NULL or self.g.occ.zoc_on == NULL or self.g.occ.points == NULL:
            raise MemoryError()
        self.g.occ.all_f = self.g.occ.zoc_on + nu + 1
        self.g.occ.combat_f = self.g.occ.all_f + 2 * nc
        self.g.occ.zoc_f = self.g.occ.combat_f + 2 * nc
        self.g.occ.seen_cell = self.g.occ.cell + nu + 1
        self.g.occ.seen_status = <uint16_t*>(self.g.occ.seen_cell + nu + 1)
        self.g.occ.seen_flags = self.g.occ.seen_status + nu + 1
        self.g.occ.n_all = <int16_t*>(self.g.occ.seen_flags + nu + 1)
        self.g.occ.n_combat = self.g.occ.n_all + 2 * nc
        self.g.occ.n_zoc = self.g.occ.n_combat + 2 * nc
        cdef SupplyMemo* mm
        for side in range(2):
            mm = &self.g.memo[side]
            mm.valid = False
            mm.cell = <int32_t*>malloc((nu + 1) * sizeof(int32_t))
            mm.status = <uint16_t*>malloc(2 * (nu + 4) * sizeof(uint16_t))
            mm.unit_bytes = <uint8_t*>malloc(4 * (nu + 1) + 3 * (nc + 1))
            if mm.cell == NULL or mm.status == NULL or mm.unit_bytes == NULL:
                raise MemoryError()
            mm.off_land = mm.status + (nu + 4)
            mm.depots = mm.unit_bytes + (nu + 1)
            mm.units = mm.depots + (nu + 1)
            mm.hex_last = <int8_t*>(mm.units + (nu + 1))
            mm.rail = <uint8_t*>(mm.hex_last + (nc + 1))
            mm.cells = mm.rail + (nc + 1)
            mm.rail_keep = <uint64_t*>calloc(2 * self.tables.t.rail_bits.nw + 1,
                                             sizeof(uint64_t))
            mm.depot_keep = <uint64_t*>malloc(
                (nu * (1 + 3 * self.tables.t.rail_bits.nw) + 1) * sizeof(uint64_t))
            if mm.rail_keep == NULL or mm.depot_keep == NULL:
                raise MemoryError()
            for i in range(nu):                    # each slot empty: its key word 0
                mm.depot_keep[i * (1 + 3 * self.tables.t.rail_bits.nw)] = 0
        cdef Fight* f = &self.g.f
        f.e_units = <int32_t*>malloc((14 * (nu + 1) + 5 * (nc + 1)) * sizeof(int32_t))
        f.e_cav = <uint8_t*>malloc(4 * (nu + 1) + 9 * (nc + 1) + 8)
        f.values = <int16_t*>malloc((3 * nu + 3) * sizeof(int16_t))
        if f.e_units == NULL or f.e_cav == NULL or f.values == NULL:
            raise MemoryError()
        f.e_cell = f.e_units + (nu + 1)
        f.e_attack = f.e_cell + (nu + 1)
        f.e_nat = f.e_attack + (nu + 1)
        f.e_tcr = f.e_nat + (nu + 1)
        f.opt_units = f.e_tcr + (nu + 1)
        f.att = f.opt_units + (nu + 1)
        f.defenders = f.att + (nu + 1)
        f.steps = f.defenders + (nu + 1)
        f.atk.a = f.steps + (nu + 1)
        f.atk.b = f.atk.a + (nu + 1)
        f.atk.c = f.atk.b + (nu + 1)
        f.defense = f.atk.c + (nu + 1)
        f.total = f.defense + (nc + 1)
        f.targets = f.total + (nc + 1)
        f.opt_hexes = f.targets + (nc + 1)
        f.e_first = f.opt_hexes + (nc + 1)
        f.e_next = f.e_first + (nc + 1)
        f.n_listed = 0
        for i in range(nc):
            f.e_first[i] = -1
        f.e_hq = f.e_cav + (nu + 1)
        f.panicking = f.e_hq + (nu + 1)
        f.no_trench = f.panicking + (nu + 1)
        f.full = f.no_trench + (nu + 1)
        f.attackable = f.full + (nc + 1)
        f.within = f.attackable + (nc + 1)
        f.fort = f.within + (nc + 1)
        f.mark = f.fort + (nc + 1)
        f.live = <int32_t*>malloc((20 * (nu + 1) + 8 + MAX_PATHS * (MAX_PATH + 1)
                                   + 5 * (nc + 1)) * sizeof(int32_t))
        f.att_sup = <uint8_t*>malloc(2 * (nu + 1) + MAX_PATHS + 4 * (nc + 1))
        if f.live == NULL or f.att_sup == NULL:
            raise MemoryError()
        f.stk_units = f.live + (nu + 1)
        f.chosen = f.stk_units + (nu + 1)
        f.pool = f.chosen + (nu + 1)
        f.opts = f.pool + (nu + 9)
        f.paths = f.opts + 16 * (nu + 1)
        f.cand = f.paths + MAX_PATHS * MAX_PATH
        f.hexlist = f.cand + MAX_PATHS
        f.geo = f.hexlist + (nc + 1)
        f.queue = f.geo + (nc + 1)
        f.hdist = f.queue + (nc + 1)
        f.points = f.hdist + (nc + 1)
        f.snap = <int32_t*>malloc(((nu + 1) + (nu + 16) * (MAX_PATH + 1) + (nc + 1))
                                  * sizeof(int32_t))
        f.left_by = <uint8_t*>malloc(nc + 1)
        if f.snap == NULL or f.left_by == NULL:
            raise MemoryError()
        f.adv_opts = <int32_t*>malloc(2 * MAX_ROUTES * (nu + 1) * sizeof(int32_t))
        if f.adv_opts == NULL:
            raise MemoryError()
        f.queue_paths = f.snap + (nu + 1)
        f.forbid = f.queue_paths + (nu + 16) * (MAX_PATH + 1)
        f.def_sup = f.att_sup + (nu + 1)
        f.uses_zoc = f.def_sup + (nu + 1)
        f.near_a = f.uses_zoc + MAX_PATHS
        f.near_b = f.near_a + (nc + 1)
        f.bad = f.near_b + (nc + 1)
        f.zoc = f.bad + (nc + 1)
        cdef Judge* J = &self.g.j
        J.surrounded = <uint8_t*>calloc(3 * (nc + 1) + 2 * (nu + 1), 1)
        J.d_origin = <int16_t*>calloc(nc + 1, sizeof(int16_t))
        J.sdist = <int32_t*>calloc(2 * (nc + 1) + 18 * (nu + 1), sizeof(int32_t))
        if J.surrounded == NULL or J.d_origin == NULL or J.sdist == NULL:
            raise MemoryError()
        J.blocks = J.surrounded + (nc + 1)
        J.open_zoc = J.blocks + (nc + 1)
        J.oor = J.open_zoc + (nc + 1)
        J.outside = J.oor + (nu + 1)
        J.squeue = J.sdist + (nc + 1)
        J.poor = J.squeue + (nc + 1)
        J.cand = J.poor + (nu + 1)
        J.plan = J.cand + (nu + 1)
        J.rest = J.plan + (nu + 1)
        J.order = J.rest + (nu + 1)
        J.units = J.order + (nu + 1)
        J.d_units = J.units + (nu + 1)
        J.a_steps = J.d_units + (nu + 1)
        J.a_n_steps = J.a_steps + (nu + 1)
        J.a_sp = J.a_n_steps + (nu + 1)
        J.d_steps = J.a_sp + (nu + 1)
        J.d_n_steps = J.d_steps + (nu + 1)
        J.d_sp = J.d_n_steps + (nu + 1)
        J.left = J.d_sp + (nu + 1)
        J.taken = J.left + (nu + 1)
        J.alive = J.taken + (nu + 1)
        _bind_atk(&self.g)
        _bind_moves(&self.g)
        self._ask = game.ask
        self.g.ask = <PyObject*>self._ask
        self.ws = kernels.workspace(game.scenario.map, TCR1_ZOC_HEXES + 1)
        self._streams = [None] * N_DICE
        self._spare = {}

    def __dealloc__(self):
        if self.g.occ != NULL:
            free(self.g.occ.cell)
            free(self.g.occ.zoc_on)
            free(self.g.occ.points)
            free(self.g.occ)
        free(self.g.mask_a)
        free(self.g.work)
        free(self.g.sup.rail)
        free(self.g.unit_mask)
        free(self.g.town_value)
        free(self.g.dist)
        free(self.g.dist_bits)
        free(self.g.w_counts)
        free(self.g.radii)
        free(self.g.hq_cell)
        free(self.g.hq_stopped)
        free(self.g.hq_slot)
        free(self.g.radii_keep)
        free(self.g.f.e_units)
        free(self.g.f.e_cav)
        free(self.g.f.values)
        free(self.g.f.live)
        free(self.g.f.att_sup)
        free(self.g.f.snap)
        free(self.g.f.left_by)
        free(self.g.f.adv_opts)
        free(self.g.j.surrounded)
        free(self.g.j.d_origin)
        free(self.g.j.sdist)
        free(self.g.mv.tables)
        free(self.g.mv.was_closed)
        free(self.g.mv.hexes)
        free(self.g.mv.roster)
        free(self.g.mv.p.rail_list)
        for side in range(2):
            free(self.g.memo[side].cell)
            free(self.g.memo[side].status)
            free(self.g.memo[side].unit_bytes)
            free(self.g.memo[side].rail_keep)
            free(self.g.memo[side].depot_keep)

    @property
    def buffer(self):
        """The state buffer the core points into."""
        return self._buffer

    @property
    def supply_searches(self) -> int:
        """Supplies the core has worked out (those answered from the last one of the same
        position not counted)."""
        return self.g.supply_searches

    @property
    def decisions(self) -> int:
        """Decisions the core has asked (a single option is not asked)."""
        return self.g.decisions

    def in_supply(self, int side) -> np.ndarray:
        """``bool[n_units]``: ``supply.in_supply`` of the position as it stands, worked out
        by the core (for the tests)."""
        _check_side(side)
        supply(&self.g, self.ws, side)
        out = np.zeros(self.g.t.n_units, dtype=bool)
        cdef Py_ssize_t u
        for u in range(self.g.t.n_units):
            out[u] = self.g.sup.units[u] != 0
        return out

    def supply_sources(self, int side) -> tuple:
        """``(rail sources, supplied depots)`` of the position as it stands, as the core
        works them out (``bool[n_cells]``, ``bool[n_units]``; for the tests)."""
        _check_side(side)
        supply(&self.g, self.ws, side)
        rail = np.array(<uint8_t[:self.g.t.n_cells]>self.g.sup.rail, dtype=bool)
        depots = np.array(<uint8_t[:self.g.t.n_units]>self.g.sup.depots, dtype=bool)
        return rail, depots

    def command_radii(self, int side) -> tuple:
        """``(hqs, plain, ah)`` as ``command._Radii`` makes them: the side's HQs on the map,
        ascending, and each one's command radius (``bool[len(hqs), n_cells]``), for most
        units and for Austro-Hungarian ones (21.41), as the core traces them (for the
        tests)."""
        _check_side(side)
        cdef Py_ssize_t n = self.g.t.n_cells, n_x = 0, n_h, k, i
        cdef int32_t* others = self.g.work + 2 * n + 16 + 3 * self.g.t.n_units
        n_h = trace_radii(&self.g, self.ws, side, others, &n_x)
        rows = np.array(<uint8_t[:(n_h + n_x) * n]>self.g.radii if n_h else [],
                        dtype=bool).reshape(n_h + n_x, n)
        plain = rows[:n_h].copy()
        ah = plain.copy()
        for i in range(n_x):
            ah[others[i]] = rows[n_h + i]
        return [int(self.g.hq_of[k]) for k in range(n_h)], plain, ah

    def is_surrounded(self, int unit) -> bool:
        """``combat.is_surrounded`` of a unit in the position as it stands (for the tests)."""
        if not 0 <= unit < self.g.t.n_units:
            raise ValueError(f"no unit {unit}")
        return is_surrounded(&self.g, self.ws, unit) == 1

    def position_marks(self, int side) -> tuple:
        """``(occupied, occupied by units other than HQs, controlled)`` of ``side`` as the
        core's rules read them (``zoc.occupied`` and ``zoc.controlled``, kept up to date as
        units move): ``bool[n_cells]`` each (for the tests)."""
        _check_side(side)
        cdef Py_ssize_t n = self.g.t.n_cells
        out = np.zeros((3, n), dtype=np.uint8)
        cdef uint8_t[:, ::1] o = out
        occupied(&self.g, side, True, &o[0, 0])
        occupied(&self.g, side, False, &o[1, 0])
        controlled(&self.g, side, &o[2, 0])
        return tuple(out.astype(bool))

    def stacking_points(self, int side) -> tuple:
        """``(int32[n_cells], n)``: the Stacking Points of ``side``'s units on the map in
        each hex, and how many hexes are over the stacking limit (6.14), as the core keeps
        them up to date (for the tests)."""
        _check_side(side)
        sync_occupancy(&self.g)
        cdef Py_ssize_t n = self.g.t.n_cells
        out = np.empty(n, dtype=np.int32)
        cdef int32_t[::1] o = out
        memcpy(&o[0], self.g.occ.points + side * n, n * sizeof(int32_t))
        return out, int(self.g.occ.n_over[side])

    def record_numbers(self) -> tuple:
        """The numbers of a row of the per-turn record the core counts (``engine.snapshot``):
        the cells of the valued towns the Russian player controls (25.11-25.12,
        ``victory.russian_towns``), their VP, then for the Allied and the Central Powers side
        in turn: units on the map, of them out of supply, hexes the side last held."""
        cdef int32_t row[6]
        cdef Py_ssize_t i, n
        cdef int vp = 0
        cdef int32_t* cells = self.g.work + 2 * self.g.t.n_cells + 4
        n = russian_towns(&self.g, self.ws, cells)
        for i in range(n):
            vp += self.g.town_value[i]
        record_counts(&self.g, row)
        return ([cells[i] for i in range(n)], vp, *[row[i] for i in range(6)])

    def initial_supply(self, int side) -> bool:
        """The Initial Supply Segment (4.0 A1a) of ``side``'s Movement Phase, as
        ``engine.initial_supply``; True (it asks nothing and rolls nothing)."""
        _check_side(side)
        initial_supply(&self.g, self.ws, side)
        return True

    def attrition_segment(self, int side) -> bool:
        """The Attrition Segment (4.0 A1e) of ``side``, as ``attrition.attrition_segment``;
        False, with nothing done, when the attrition stream has forced dice queued (the tests
        force dice on the Python engine)."""
        _check_side(side)
        return self._run(DS_ATTRITION, side, False)

    def command_segment(self, int side, bint for_combat) -> bool:
        """The Command Control Segment (4.0 A1c, A3a) of ``side``, as ``command.
        command_segment``; False, with nothing done, when its player must allocate Command
        Strength and neither picks at random nor allocates as the ladder does (``Policy.
        core_answers``: the Python engine asks that policy), or the command stream has
        forced dice queued."""
        _check_side(side)
        if (self.g.level[side] != LEVEL_RANDOM and not self.g.ladder[side] & LADDER_COMMAND
                and not self.g.t.unlimited_command):
            return False
        return self._run(DS_COMMAND, side, for_combat)

    def withdrawal_phase(self, int side) -> bool:
        """The Cavalry Withdrawal Before Combat Phase (4.0 A2) of the non-phasing ``side``, as
        ``withdrawal.withdrawal_phase``; False, with nothing done, unless both players pick
        at random or answers as the ladder does (``Policy.core_answers``: the withdrawing
        player picks units and paths, the phasing player the units that occupy a vacated
        hex), or when the withdrawal stream has forced dice queued."""
        _check_side(side)
        cdef uint32_t withdrawing = LADDER_WITHDRAWAL_UNIT | LADDER_WITHDRAWAL_PATH
        if ((self.g.level[side] != LEVEL_RANDOM
             and self.g.ladder[side] & withdrawing != withdrawing)
                or (self.g.level[1 - side] != LEVEL_RANDOM
                    and not self.g.ladder[1 - side] & LADDER_WITHDRAWAL_OCCUPY)):
            return False
        return self._run(DS_WITHDRAWAL, side, False)

    def source_distance(self, int side) -> np.ndarray:
        """``retreat.source_distance`` of the position as it stands (for the tests)."""
        _check_side(side)
        source_distance(&self.g, self.ws, side)
        return np.array([self.g.dist[i] for i in range(self.g.t.n_cells)], dtype=np.int32)

    def replacement_phase(self, int side) -> bool:
        """The Step Replacement Phase (4.0 A4) of ``side``, as ``replacement.
        replacement_phase``; False, with nothing done, when its player neither picks at
        random nor answers as the ladder does (the Python engine asks that policy), or the
        replacement stream has forced dice queued."""
        _check_side(side)
        if self.g.level[side] != LEVEL_RANDOM and not self.g.ladder[side] & LADDER_REPLACEMENT:
            return False
        return self._run(DS_REPLACEMENT, side, False)

    def declare_attack(self, int side):
        """One step of ``side``'s Combat Resolution Segment up to the resolution, as
        ``combat.combat_phase`` asks it: the hexes that may be attacked, the attacker's pick
        or stop, the attack built (``declare_attack``) and its support (``choose_support``).
        ``(cells, attackers, depot, defense_depot, shift_right, shift_left)``, or False when
        the attacker stops or has nothing to attack; None, with nothing done, unless both
        players pick at random (the defender picks artillery and shifts)."""
        _check_side(side)
        if self.g.level[0] != LEVEL_RANDOM or self.g.level[1] != LEVEL_RANDOM:
            return None
        if not declare_attack(&self.g, self.ws, side):
            return False
        cdef Fight* f = &self.g.f
        cdef Py_ssize_t i
        return ([f.cells[i] for i in range(f.m)], [f.e_units[f.att[i]] for i in range(f.na)],
                f.depot, f.defense_depot, f.shift_right, f.shift_left)

    def resolve_declared(self, int side) -> bool:
        """``combat.resolve_attack`` of the attack ``declare_attack`` has just declared for
        ``side`` (with the panic of 23.1-23.2 in the Russian Combat Phase of the first
        Game-Turn); False, with nothing done, when the combat or attrition stream has forced
        dice queued: the Python engine then resolves it."""
        _check_side(side)
        return self._run(DS_COMBAT, side, False)

    def reinforcement_segment(self, int side) -> bool:
        """The Reinforcement Segment (4.0 A1b) of ``side``, as ``reinforcements.
        reinforcement_segment``; False, with nothing done, when its player does not pick at
        random (the Python engine asks that policy)."""
        _check_side(side)
        if self.g.level[side] != LEVEL_RANDOM:
            return False
        reinforcement_segment(&self.g, side)
        return True

    def displace_lone_hqs(self, int moving_side):
        """``command.displace_lone_hqs`` (10.52) after a move of ``moving_side``: the list of
        ``(hq, displaced)``; None, with nothing done, unless the other side's player picks
        at random (it picks where its HQs go)."""
        _check_side(moving_side)
        if self.g.level[1 - moving_side] != LEVEL_RANDOM:
            return None
        cdef int32_t* out = self.g.f.opts
        cdef Py_ssize_t n = displace_lone_hqs(&self.g, moving_side, out), i
        return [(int(out[2 * i]), bool(out[2 * i + 1])) for i in range(n)]

    def movement_segment(self, int side) -> bool:
        """The Movement Segment (4.0 A1d) of ``side``, as ``engine.movement_segment`` plays
        it (the random-moves kernel, the whole moves of reduced Austro-Hungarian units and
        armored cars, 23.52 and 24.42, and 10.52 after a move). A player who picks at
        random draws in C; any other player is asked through the game's ``ask``, with the
        options the Python engine would list, in its order: which unit (``gwe.move.unit``),
        each of its actions (``gwe.move.action``) and, for the owner of an HQ that 10.52
        displaces, where to (``gwe.hq.displace_to``). False, with nothing done, when the
        breakdown stream has forced dice queued."""
        _check_side(side)
        return self._run(DS_BREAKDOWN, side, False)

    def run_phase(self, int side, int phase) -> bool:
        """A whole phase of ``side``'s Player-Turn (``GwePhase``: movement, withdrawal,
        combat, replacement), then 6.14's stacking, as ``engine.run_phase`` and ``engine.
        enforce_stacking`` play them; False, with nothing done, unless both players pick at
        random, or when a dice stream has forced dice queued."""
        _check_side(side)
        if phase < GP_MOVEMENT or phase > GP_REPLACEMENT:
            raise ValueError(f"no phase {phase}")
        if self.g.level[0] != LEVEL_RANDOM or self.g.level[1] != LEVEL_RANDOM:
            return False
        cdef tuple used = PHASE_STREAMS[phase]
        fresh = bind_streams(self.g.dice, self._streams, self._game.dice, STREAM_NAMES, used,
                             self._spare)
        if fresh is None:
            return False
        try:
            run_phase(&self.g, self.ws, side, phase)
        finally:
            unbind_streams(self.g.dice, self._streams, self._game.dice, STREAM_NAMES, used,
                           fresh, self._spare)
        return True

    def play_turns(self, until=None):
        """Play the phases from the one the state says (``state.turn``, ``state.player``,
        ``state.phase``: ``engine.advance``'s resume rules) up to, not including, the phase
        ``until`` (``engine.position``'s ``(turn, k, phase)``), or to the end of the last
        Game-Turn, in C, as ``engine.advance`` does when every phase is the core's
        (``run_phase``) and no check is made; the state's turn, player and phase are left as
        it leaves them. The dice streams are bound once for the whole run.

        Returns the per-turn record's rows of the Player-Turns completed, as ``record_row``
        counts them (``int32[rows, len(RECORD_COLUMNS)]``); None, with nothing done, unless
        both players pick at random, or when a dice stream has forced values queued."""
        if self.g.level[0] != LEVEL_RANDOM or self.g.level[1] != LEVEL_RANDOM:
            return None
        cdef bint stop = until is not None
        cdef int64_t stop_turn = 0, stop_k = 0, stop_phase = 0
        if stop:
            stop_turn, stop_k, stop_phase = [int(x) for x in until]
        sc = self._game.scenario
        cdef int last = sc.last_turn
        cdef int order[2]
        order[0] = int(sc.first_player)
        order[1] = 1 - order[0]
        cdef GweS* s = &self.g.s
        cdef int turn = s.turn[0], k, side, phase, start, d, j, n_rows = 0
        cdef int resume_side = s.player[0], resume_phase = s.phase[0]
        cdef bint resume = resume_phase > 0, stopped = False
        # each phase's streams in the order run_phase binds them
        cdef int n_streams[GP_REPLACEMENT + 1]
        cdef int streams_of[GP_REPLACEMENT + 1][N_DICE]
        for phase, used in PHASE_STREAMS.items():
            n_streams[phase] = len(used)
            for j in range(len(used)):
                streams_of[phase][j] = used[j]
        rows = np.empty((2 * max(last - turn + 1, 0), RC_WIDTH), dtype=np.int32)
        cdef int32_t[:, ::1] row = rows
        dice = self._game.dice
        cdef tuple every = tuple(range(N_DICE))
        fresh = bind_streams(self.g.dice, self._streams, dice, STREAM_NAMES, every,
                             self._spare)
        if fresh is None:
            return None
        # the streams bound_streams made, until something rolls them; born: those rolled, in
        # the order the phases first rolled them (run_phase would have made each there)
        cdef bint unborn[N_DICE]
        for d in range(N_DICE):
            unborn[d] = d in fresh
        born = []
        try:
            while turn <= last:
                s.turn[0] = <int16_t>turn
                for k in range(2):
                    side = order[k]
                    start = GP_MOVEMENT
                    if resume:
                        if side != resume_side:
                            continue
                        start = resume_phase
                        resume = False
                    s.player[0] = <int8_t>side
                    for phase in range(GP_MOVEMENT, GP_REPLACEMENT + 1):
                        if phase < start:
                            continue
                        s.phase[0] = <int16_t>phase
                        if stop and _reached(turn, k, phase, stop_turn, stop_k, stop_phase):
                            stopped = True
                            break
                        run_phase(&self.g, self.ws, side, phase)
                        for j in range(n_streams[phase]):
                            d = streams_of[phase][j]
                            if unborn[d] and self.g.dice[d].rolled > 0:
                                unborn[d] = False
                                born.append(d)
                        if phase < GP_REPLACEMENT:
                            s.phase[0] = <int16_t>(phase + 1)
                        elif k == 0:                   # on to the second Player-Turn
                            s.player[0] = <int8_t>order[1]
                            s.phase[0] = GP_MOVEMENT
                        else:                          # on to the next Game-Turn
                            s.player[0] = <int8_t>order[0]
                            s.phase[0] = 0
                    if stopped:
                        break
                    record_row(&self.g, self.ws, turn, side, &row[n_rows, 0])
                    n_rows += 1
                if stopped:
                    break
                turn += 1
                if turn <= last:
                    s.turn[0] = <int16_t>turn
        finally:
            unbind_streams(self.g.dice, self._streams, dice, STREAM_NAMES, every, fresh,
                           self._spare)
            # the game's streams in the order the Python loop makes them: those there
            # before, then the ones made here in the order they were first rolled
            for d in born:
                name = STREAM_NAMES[d]
                dice._streams[name] = dice._streams.pop(name)
        return rows[:n_rows]

    def record_row(self, int turn, int side) -> np.ndarray:
        """The numbers of the per-turn record's row after ``side``'s Player-Turn of
        Game-Turn ``turn`` in the position as it stands (``engine.snapshot``), as
        ``int32[len(RECORD_COLUMNS)]``."""
        _check_side(side)
        out = np.empty(RC_WIDTH, dtype=np.int32)
        cdef int32_t[::1] row = out
        record_row(&self.g, self.ws, turn, side, &row[0])
        return out

    def enforce_stacking(self) -> bool:
        """``stacking.enforce_stacking`` at the end of a phase (6.14, 16.0): in every hex over
        the limit the owner eliminates units of his choice until it is within it; False,
        with nothing done, when such a hex belongs to a player who does not pick at random."""
        return enforce_stacking(&self.g, self.ws)

    def attack_targets(self, int side) -> list:
        """``combat.legal_targets`` of the position as it stands (for the tests)."""
        _check_side(side)
        attack_position(&self.g, self.ws, side)
        return [self.g.f.targets[i] for i in range(self.g.f.n_targets)]

    cdef bint _run(self, int stream, int side, bint for_combat) except -1:
        # the segment or phase of side (checked) that rolls the dice stream (its DS_ code
        # names it), its stream bound for it; False, with nothing done, when the stream has
        # forced dice
        cdef tuple used = (stream,)
        if stream == DS_COMBAT:
            used = (DS_COMBAT, DS_ATTRITION)
        fresh = bind_streams(self.g.dice, self._streams, self._game.dice, STREAM_NAMES, used,
                             self._spare)
        if fresh is None:
            return False
        try:
            if stream == DS_ATTRITION:
                attrition_segment(&self.g, self.ws, side)
            elif stream == DS_COMMAND:
                command_segment(&self.g, self.ws, side, for_combat)
            elif stream == DS_WITHDRAWAL:
                withdrawal_phase(&self.g, self.ws, side)
            elif stream == DS_COMBAT:
                resolve_attack(&self.g, self.ws, side)
            elif stream == DS_BREAKDOWN:
                movement_segment(&self.g, self.ws, side)
            else:
                replacement_phase(&self.g, self.ws, side)
        finally:
            unbind_streams(self.g.dice, self._streams, self._game.dice, STREAM_NAMES, used,
                           fresh, self._spare)
        return True



    def _judge(self, int side, targets, weights, params, vp):
        # the Judge's weights and parameters, from Python values; the targets as int32
        _check_side(side)
        cdef Judge* J = &self.g.j
        J.material, J.ground, J.town = [float(x) for x in weights]
        min_gain, min_exchange, trim, tolerance = params
        J.min_gain, J.min_exchange = float(min_gain), float(min_exchange)
        J.trim, J.trim_tolerance = bool(trim), float(tolerance)
        (J.per_sp[0], J.per_sp[1]), (J.per_sp_surrounded[0], J.per_sp_surrounded[1]) = vp
        cells = np.ascontiguousarray(targets, dtype=np.int32)
        if cells.size and (cells.min() < 0 or cells.max() >= self.g.t.n_cells):
            raise IndexError("a target is not a hex of the map")
        return cells

    def best_attack(self, int side, targets, weights, params, vp):
        """``PassivePolicy.best_attack`` in the position as it stands (``choose_attack``):
        ``targets`` the hexes offered, ``weights`` (material, ground, town), ``params``
        (min_gain, min_exchange, trim, trim_tolerance), ``vp`` the per-Stacking-Point
        victory points of each side, plain and surrounded (``scoring.VpValues``' first two).
        None when no attack is worth declaring, else ``(cell, attackers, expected,
        outcomes)``: the units in ascending order, ``expected`` the ``scoring.Expected``
        numbers (column, score, attacker_steps, defender_steps, vp, vacate), ``outcomes``
        per result (chance, attacker code, defender code, the defender's option as an index
        of his options, -1 for none)."""
        cdef int32_t[::1] cells = self._judge(side, targets, weights, params, vp)
        cdef Expected e
        cdef Py_ssize_t n_plan = 0, i
        cdef int32_t cell = choose_attack(&self.g, self.ws, side,
                                          &cells[0] if cells.shape[0] else NULL,
                                          cells.shape[0], &n_plan, &e)
        if cell < 0:
            return None
        return (int(cell), [int(self.g.f.e_units[self.g.j.plan[i]]) for i in range(n_plan)],
                _expected(&e), _outcomes(&e))

    def evaluate_attacks(self, int side, attackers, cells, weights, vp, variants):
        """``scoring.evaluate_attack`` of ``attackers`` (units of ``side``, in that order)
        on ``cells`` in the position as it stands, for each of ``variants``:
        ``(shift_right, shift_left, depot, defense_depot)``. A list of ``(expected,
        outcomes)`` as ``best_attack`` gives them; None when one of the attackers may not
        attack now (the core weighs the units ``attack_position`` lists) or there is none."""
        cdef int32_t[::1] hexes = self._judge(side, cells, weights, (0.0, 0.0, False, 0.0),
                                              vp)
        cdef Fight* f = &self.g.f
        cdef Judge* J = &self.g.j
        cdef Py_ssize_t i, j, ns = len(attackers), m = hexes.shape[0]
        cdef int32_t u
        cdef Expected e
        if ns == 0 or m == 0:
            return None
        attack_position(&self.g, self.ws, side)
        for i in range(ns):
            u = attackers[i]
            for j in range(f.atk.k):
                if f.e_units[j] == u:
                    J.plan[i] = <int32_t>j
                    break
            else:
                return None
        attack_facts(&self.g, self.ws, side)
        out = []
        for shift_right, shift_left, depot, defense_depot in variants:
            for x in (depot, defense_depot):
                if not -1 <= x < self.g.t.n_units:
                    raise IndexError(f"unit {x} is not a unit of the scenario")
            weigh_attack(&self.g, self.ws, side, J.plan, ns, &hexes[0], m, shift_right,
                         shift_left, depot, defense_depot, &e)
            out.append((_expected(&e), _outcomes(&e)))
        return out

    def weigh_attacks(self, int side, targets, weights, vp):
        """``PassivePolicy.attack_plans``: for each of ``targets`` that a unit may attack,
        ``(cell, attackers, expected, outcomes)`` as ``best_attack`` gives them (for the
        tests)."""
        cdef int32_t[::1] cells = self._judge(side, targets, weights, (0.0, 0.0, False, 0.0),
                                              vp)
        cdef Expected e
        cdef Py_ssize_t i, k, nc
        cdef int32_t c
        out = []
        attack_position(&self.g, self.ws, side)
        attack_facts(&self.g, self.ws, side)
        for i in range(cells.shape[0]):
            c = cells[i]
            nc = atk_candidates(&self.g.f.atk, &c, 1, self.g.j.cand)
            if nc == 0:
                continue
            weigh_attack(&self.g, self.ws, side, self.g.j.cand, nc, &c, 1, 0, 0, -1, -1, &e)
            out.append((int(c), [int(self.g.f.e_units[self.g.j.cand[k]]) for k in range(nc)],
                        _expected(&e), _outcomes(&e)))
        return out

    def move_plans(self, int side, units, pm, params, hooks, judge):
        """``PassivePolicy.on_move_unit``'s queue and plans (``may_move`` and ``unit_plan``
        of each of ``units``, sorted by gain) in the position as it stands, priced on the
        arrays of a ``PositionMap`` of ``side``, ``pm`` (``PositionMap.core_facts``: read in
        place, ``MovePlanner``).
        ``params``: (line_moves, min_move_gain, use_rail, rail_margin, hold, supply,
        command, attack, town weight); ``hooks``: the Python the plans still ask, as
        callables: (a unit's step costs; a unit's odds row as float ratios [k, 2]; an HQ's
        command radius; a unit's rail destinations, None when it may not go by rail);
        ``judge``: what the targets are priced with (``PositionMap.target``, in C:
        ``MovePlanner.price_target``), the weights (material, ground, town) and the
        per-Stacking-Point victory points of each side, plain and surrounded, as
        ``best_attack`` takes them. Returns ``(queue, plans, gains)``: the units in the
        order they move, their steps (``("move",)``, ``("entrain",)``, ``("rail",
        cell)``, ``("detrain",)``) and their gains, by unit."""
        return self.move_planner(side, pm, params, hooks, judge).plans(units)

    def move_planner(self, int side, pm, params, hooks, judge):
        """The ``MovePlanner`` of ``move_plans``, to keep for the segment: its ``plans``,
        then ``scores`` as the side's units move (``rebind`` after each refresh of the
        ``PositionMap``)."""
        _check_side(side)
        return MovePlanner(self, side, pm, params, hooks, judge)


cdef tuple _expected(const Expected* e):
    return (int(e.column), e.score, e.attacker_steps, e.defender_steps, e.vp, e.vacate)


cdef list _outcomes(const Expected* e):
    return [(e.out_p[k], int(e.out_a[k]), int(e.out_d[k]), int(e.out_option[k]))
            for k in range(e.n_out)]


cdef inline bint _reached(int64_t turn, int64_t k, int64_t phase, int64_t stop_turn,
                          int64_t stop_k, int64_t stop_phase) noexcept nogil:
    # (turn, k, phase) >= (stop_turn, stop_k, stop_phase), as Python compares tuples
    if turn != stop_turn:
        return turn > stop_turn
    if k != stop_k:
        return k > stop_k
    return phase >= stop_phase


cdef int _check_side(int side) except -1:
    if side != SIDE_ALLIED and side != SIDE_CENTRAL:
        raise ValueError(f"no side {side}")
    return 0


# --- what every phase reads ---------------------------------------------------------------

cdef inline int64_t choose(Gwe* g, int side, int64_t n) noexcept nogil:
    # the index a side's policy picks among n options (a single option is not asked)
    if n <= 1:
        return 0
    g.decisions += 1
    return policy_draw(g.pol[side], n)


cdef inline bint on_map(const Gwe* g, Py_ssize_t u) noexcept nogil:
    return (g.s.unit_status[u] & ST_ON_MAP) != 0


cdef inline int steps_left(const Gwe* g, Py_ssize_t u) noexcept nogil:
    # 8.5: a corps has four, a division two, most others one (units.steps_left)
    if g.s.unit_status[u] & ST_ELIMINATED:
        return 0
    return g.t.n_steps[u] - g.s.unit_step[u]


cdef void occupied(const Gwe* g, int side, bint hq_only_counts, flag_t* out) noexcept nogil:
    # zoc.occupied: the hexes holding units of side on the map; without hq_only_counts a hex
    # holding only HQs does not count (9.17, 10.52)
    sync_occupancy(g)
    cdef Py_ssize_t n = g.t.n_cells
    memcpy(out, (g.occ.all_f if hq_only_counts else g.occ.combat_f) + side * n, n)


cdef void controlled(const Gwe* g, int side, flag_t* out) noexcept nogil:
    # zoc.controlled: the zones of control of side (7.11): not of HQs (7.26), of depots
    # (19.3), not of entrained units (5.36) nor of cavalry living off the land (19.43), not
    # across a prohibited hexside
    sync_occupancy(g)
    cdef Py_ssize_t n = g.t.n_cells
    memcpy(out, g.occ.zoc_f + side * n, n)


cdef inline void _count(int16_t* n, flag_t* f, Py_ssize_t i, int by) noexcept nogil:
    n[i] += by
    f[i] = n[i] > 0


cdef void _unit_counts(const Gwe* g, Py_ssize_t u, int32_t c, bint zoc, int by) noexcept nogil:
    # add (by 1) or take away (by -1) unit u's part in the facts of occupation: in hex c,
    # and its zone of control around c when zoc
    cdef const GweT* t = g.t
    cdef Occupancy* o = g.occ
    cdef Py_ssize_t base = t.side[u] * t.n_cells, k, d
    cdef int32_t v, before = o.points[base + c], after
    after = before + by * t.stacking[u]
    o.points[base + c] = after
    if before <= t.stack_limit < after:
        o.n_over[t.side[u]] += 1
    elif after <= t.stack_limit < before:
        o.n_over[t.side[u]] -= 1
    _count(o.n_all, o.all_f, base + c, by)
    if t.not_hq[u]:
        _count(o.n_combat, o.combat_f, base + c, by)
    if zoc:
        k = 6 * <Py_ssize_t>c
        for d in range(6):
            v = t.nbr[k + d]
            if v >= 0 and not t.zoc_blocked[k + d]:
                _count(o.n_zoc, o.zoc_f, base + v, by)


cdef inline uint64_t _word_at(const void* p) noexcept nogil:
    # eight bytes from p, wherever it points (one load)
    cdef uint64_t x
    memcpy(&x, p, 8)
    return x


cdef inline void _put_word(void* p, uint64_t x) noexcept nogil:
    memcpy(p, &x, 8)


#: a byte of 1 in each of a word's eight (the marks of hexes are bytes of 0 or 1)
cdef uint64_t ONES = 0x0101010101010101ULL


cdef void _and_not(flag_t* a, const flag_t* b, Py_ssize_t n) noexcept nogil:
    # a[c] = a[c] and not b[c] over marks of 0 or 1, eight hexes at a time
    cdef Py_ssize_t c, w = n >> 3
    for c in range(w):
        _put_word(a + 8 * c, _word_at(a + 8 * c) & ~_word_at(b + 8 * c))
    for c in range(8 * w, n):
        a[c] = a[c] and not b[c]


cdef void sync_occupancy(const Gwe* g) noexcept nogil:
    # bring the facts of occupation (Occupancy) up to the position: only the units whose hex,
    # presence on the map or zone of control changed since the last sync move their counts,
    # whoever moved them (the core, the Python engine, a state put in place). Nothing is read
    # again while the units' hexes, statuses and flags are as they were at the last sync.
    cdef const GweT* t = g.t
    cdef Occupancy* o = g.occ
    cdef Py_ssize_t u, n = t.n_cells, nu = t.n_units
    cdef const int32_t* cell = g.s.unit_cell
    cdef const uint16_t* status = g.s.unit_status
    cdef const uint16_t* flags = g.s.flags
    cdef const uint8_t* exerts = t.exerts
    cdef int32_t* was = o.cell
    cdef uint8_t* was_zoc = o.zoc_on
    cdef int32_t c
    cdef uint16_t st
    cdef bint zoc, every = not o.valid
    cdef Py_ssize_t at = 0, end
    if o.valid:
        if (memcmp(o.seen_cell, cell, nu * sizeof(int32_t)) == 0
                and memcmp(o.seen_status, status, nu * sizeof(uint16_t)) == 0
                and memcmp(o.seen_flags, flags, nu * sizeof(uint16_t)) == 0):
            return
    else:
        memset(o.n_all, 0, 6 * n * sizeof(int16_t))
        memset(o.all_f, 0, 6 * n)
        memset(o.points, 0, 2 * n * sizeof(int32_t))
        o.n_over[0] = o.n_over[1] = 0
        for u in range(nu):
            was[u] = -1
            was_zoc[u] = 0
        o.valid = True
    # four units at a time: those whose hexes, statuses and flags are as at the last sync
    # keep what it made of them
    while at < nu:
        end = at + 4
        if end > nu:
            end = nu
        elif not every and ((_word_at(cell + at) ^ _word_at(o.seen_cell + at))
                            | (_word_at(cell + at + 2) ^ _word_at(o.seen_cell + at + 2))
                            | (_word_at(status + at) ^ _word_at(o.seen_status + at))
                            | (_word_at(flags + at) ^ _word_at(o.seen_flags + at))) == 0:
            at = end
            continue
        for u in range(at, end):
            st = status[u]
            c = cell[u]
            if not st & ST_ON_MAP or c < 0 or c >= n:
                c = -1
            zoc = (c >= 0 and exerts[u] and not st & ST_ENTRAINED
                   and not flags[u] & GF_LIVING_OFF_LAND)
            if c == was[u] and zoc == was_zoc[u]:
                continue
            if was[u] >= 0:
                _unit_counts(g, u, was[u], was_zoc[u], -1)
            if c >= 0:
                _unit_counts(g, u, c, zoc, 1)
            was[u] = c
            was_zoc[u] = zoc
        at = end
    memcpy(o.seen_cell, cell, nu * sizeof(int32_t))
    memcpy(o.seen_status, status, nu * sizeof(uint16_t))
    memcpy(o.seen_flags, flags, nu * sizeof(uint16_t))


cdef int supply(Gwe* g, SearchWorkspace ws, int side, bint hexes=False,
                bint lines=True) except -1:
    # supply._supply(scenario, state, side): the side's rail sources, supplied depots and
    # units in supply into g.sup (9.12-9.17, 19.1), and with hexes the hexes a unit of the
    # side's shortest supply range could trace from (25.12, supply.supplied_cells); without
    # lines no unit's line is searched for (the units in supply are the supplied depots:
    # supply.sources_alone)
    cdef const GweT* t = g.t
    cdef Py_ssize_t u, k = 0
    cdef int32_t* mine = g.work + 2 * t.n_cells + 8 + t.n_units      # (the work's last part)
    cdef flag_t* ezoc = g.mask_a
    cdef flag_t* own = g.mask_b
    cdef flag_t* enemy_combat = g.mask_c
    cdef SupplyMemo* mm = &g.memo[side]
    cdef bint memo = lines
    # the Russian side's 25.12 hexes are worked out with every supply of its (the record
    # asks them at the end of each Player-Turn, most often of the position just supplied)
    cdef bint cells = hexes or (memo and side == SIDE_ALLIED)
    if memo and mm.valid and (mm.has_cells or not hexes) and _same_position(g, mm):
        memcpy(g.sup.rail, mm.rail, t.n_cells)
        memcpy(g.sup.depots, mm.depots, t.n_units)
        memcpy(g.sup.units, mm.units, t.n_units)
        if hexes:
            memcpy(g.sup.cells, mm.cells, t.n_cells)
        return 0
    g.supply_searches += 1
    for u in range(t.n_units):
        if t.side[u] == side and on_map(g, u) and (lines or t.depot[u]):
            mine[k] = <int32_t>u
            k += 1
    controlled(g, 1 - side, ezoc)
    occupied(g, side, True, own)
    occupied(g, 1 - side, False, enemy_combat)
    memset(g.sup.depots, 0, t.n_units)
    memset(g.sup.units, 0, t.n_units)
    supply_run(ws, t.rail_steps, t.line_steps, t.rail_bits, t.line_bits, t.back_bits,
               t.friendly[side], ezoc, own, enemy_combat, t.rail_edge[side],
               t.n_rail_edge[side], g.s.hex_last, 1 - side, mine, k, g.s.unit_cell, t.depot,
               t.supply_range, t.layers, TCR1_ZOC_HEXES, g.sup.rail, g.sup.depots,
               g.sup.units, t.shortest[side] if cells else -1, g.sup.cells, t.q, t.r,
               mm.rail_keep, t.rail_cells, mm.depot_keep)
    if memo:
        memcpy(mm.cell, g.s.unit_cell, t.n_units * sizeof(int32_t))
        for u in range(t.n_units):
            mm.status[u] = g.s.unit_status[u] & LINE_STATUS
            mm.off_land[u] = g.s.flags[u] & GF_LIVING_OFF_LAND
        mm.has_cells = cells
        if cells:
            memcpy(mm.cells, g.sup.cells, t.n_cells)
        memcpy(mm.hex_last, g.s.hex_last, t.n_cells)
        memcpy(mm.rail, g.sup.rail, t.n_cells)
        memcpy(mm.depots, g.sup.depots, t.n_units)
        memcpy(mm.units, g.sup.units, t.n_units)
        mm.valid = True
    return 0


cdef bint _same_position(const Gwe* g, const SupplyMemo* mm) noexcept nogil:
    # what a supply reads of the position is as the memo's was (its units' hexes, whether
    # each is on the map and entrained, LINE_STATUS, 19.43's marks, the hexes last held): its
    # answer holds
    cdef const GweT* t = g.t
    cdef Py_ssize_t u, nu = t.n_units
    # the bits read of four units' statuses and flags at a time
    cdef uint64_t lanes = 0x0001000100010001ULL
    cdef uint64_t st_bits = lanes * LINE_STATUS, fl_bits = lanes * GF_LIVING_OFF_LAND
    if memcmp(mm.cell, g.s.unit_cell, nu * sizeof(int32_t)) != 0:
        return False
    if memcmp(mm.hex_last, g.s.hex_last, t.n_cells) != 0:
        return False
    for u in range(0, nu - 3, 4):
        if ((_word_at(g.s.unit_status + u) & st_bits) != _word_at(mm.status + u)
                or (_word_at(g.s.flags + u) & fl_bits) != _word_at(mm.off_land + u)):
            return False
    for u in range(nu & ~3, nu):
        if (mm.status[u] != (g.s.unit_status[u] & LINE_STATUS)
                or mm.off_land[u] != (g.s.flags[u] & GF_LIVING_OFF_LAND)):
            return False
    return True


cdef int is_surrounded(Gwe* g, SearchWorkspace ws, Py_ssize_t unit) except -1:
    # 25.13 (combat.is_surrounded): 1 when the unit cannot trace a line of at most six hexes,
    # free of enemy units and enemy-controlled hexes, from its hex (not counted) to a
    # friendly supply source (a rail source, a supplied depot) or to a supplied friendly unit
    # in another hex; enemy HQs alone do not block it (10.52), a friendly unit or undestroyed
    # fortress negates an enemy zone in its hex (7.24), prohibited hexsides and terrain are
    # never crossed. 0 otherwise, and for a unit off the map.
    cdef const GweT* t = g.t
    cdef Py_ssize_t n = t.n_cells, u, i, head = 0, tail = 1, d
    cdef int side, enemy
    cdef int32_t cell, c, v
    if not on_map(g, unit):
        return 0
    side = t.side[unit]
    enemy = 1 - side
    cell = g.s.unit_cell[unit]
    supply(g, ws, side)
    cdef flag_t* target = g.sup.rail            # the rail sources, and now the targets too
    for u in range(t.n_units):
        if g.sup.depots[u]:
            target[g.s.unit_cell[u]] = 1
        if g.sup.units[u] and g.s.unit_cell[u] != cell:
            target[g.s.unit_cell[u]] = 1
    cdef flag_t* free_ = g.mask_a                # then: the hexes a line may enter
    cdef flag_t* negated = g.mask_b
    cdef flag_t* enemy_units = g.mask_c
    cdef flag_t* seen = g.mask_d
    occupied(g, side, True, negated)
    for i in range(t.n_fortress[side]):
        c = t.fortress_cells[side][i]
        if g.s.fortress[4 * <Py_ssize_t>c] < FORTRESS_STEPS:
            negated[c] = 1
    occupied(g, enemy, False, enemy_units)
    controlled(g, enemy, free_)
    for c in range(n):
        free_[c] = not enemy_units[c] and not (free_[c] and not negated[c])
    # breadth first from the unit's hex, SURROUNDED_LINE steps at most
    cdef int32_t* queue = g.work
    cdef int32_t* depth = g.work + n + 1
    memset(seen, 0, n)
    queue[0] = cell
    depth[0] = 0
    seen[cell] = 1
    while head < tail:
        c = queue[head]
        if target[c]:
            return 0
        if depth[head] < SURROUNDED_LINE:
            for d in range(6):
                v = t.nbr[6 * <Py_ssize_t>c + d]
                if v >= 0 and not seen[v] and t.passable[6 * <Py_ssize_t>c + d] and free_[v]:
                    seen[v] = 1
                    queue[tail] = v
                    depth[tail] = depth[head] + 1
                    tail += 1
        head += 1
    return 1


cdef inline void add_vp(Gwe* g, int cause, int vp) noexcept nogil:
    g.s.vp_cause[cause] += vp
    g.s.vp[0] += vp


cdef void eliminated(Gwe* g, Py_ssize_t u, int cause, bint surrounded) noexcept nogil:
    # units._eliminate: off the map with its stacking points booked, and the victory points
    # of 25.2 (twice for a unit surrounded, 25.13)
    cdef int side = g.t.side[u], sp = g.t.stacking[u], sign
    g.s.sp_lost[side * N_LOSS_CAUSES + cause] += sp
    g.s.unit_status[u] = ST_ELIMINATED
    g.s.unit_cell[u] = -1
    g.s.unit_step[u] = g.t.n_steps[u]
    sign = 1 if side == SIDE_CENTRAL else -1
    if g.t.utype[u] == UT_HQ:
        add_vp(g, VP_CP_HQ if side == SIDE_CENTRAL else VP_RU_HQ, sign)
    elif sp:
        if surrounded:
            add_vp(g, VP_CP_SP_SURROUNDED if side == SIDE_CENTRAL else VP_RU_SP_SURROUNDED,
                   2 * sign * sp)
        else:
            add_vp(g, VP_CP_SP if side == SIDE_CENTRAL else VP_RU_SP, sign * sp)


cdef int lose_steps(Gwe* g, Py_ssize_t u, int n, int cause, bint surrounded) noexcept nogil:
    # units.lose_steps: n steps from the unit, eliminating it when none are left; steps lost
    cdef int left, lost
    if n <= 0:
        return 0
    left = steps_left(g, u)
    lost = n if n < left else left
    g.s.steps_lost[g.t.side[u] * N_LOSS_CAUSES + cause] += lost
    if lost == left:
        eliminated(g, u, cause, surrounded)
    else:
        g.s.unit_step[u] += lost
    return lost


# --- the record (25.11, 25.12) -------------------------------------------------------------

cdef Py_ssize_t russian_towns(Gwe* g, SearchWorkspace ws, int32_t* out) except -1:
    # victory.russian_towns: the valued towns the Russian player controls (25.12): a Russian
    # unit last occupied or moved through it, or occupies it now, no Central Powers unit
    # occupies it, and a Russian unit there could trace supply. Their cells into out (in the
    # scenario's order of places) and their values into g.town_value; how many
    cdef const GweT* t = g.t
    cdef Py_ssize_t i, n = 0
    cdef int32_t c
    cdef flag_t* allied = g.mask_d
    if t.n_towns == 0:
        return 0
    occupied(g, SIDE_ALLIED, True, allied)
    occupied(g, SIDE_CENTRAL, True, g.mask_c)
    for i in range(t.n_towns):
        c = t.town_cells[i]
        if (g.s.hex_last[c] == SIDE_ALLIED or allied[c]) and not g.mask_c[c]:
            out[n] = i
            n += 1
    if n == 0:
        return 0
    supply(g, ws, SIDE_ALLIED, True)
    cdef Py_ssize_t m = 0
    for i in range(n):
        c = t.town_cells[out[i]]
        if g.sup.cells[c]:
            g.town_value[m] = t.town_vp[out[i]]
            out[m] = c
            m += 1
    return m


cdef void record_counts(Gwe* g, int32_t* row) noexcept nogil:
    # engine.snapshot's counts: for each side, its units on the map, those of them out of
    # supply, the hexes it last held
    cdef Py_ssize_t u, c
    cdef int s
    for s in range(6):
        row[s] = 0
    for u in range(g.t.n_units):
        if on_map(g, u):
            s = g.t.side[u]
            row[3 * s] += 1
            if g.s.unit_status[u] & ST_OUT_OF_SUPPLY:
                row[3 * s + 1] += 1
    for c in range(g.t.n_cells):
        if g.s.hex_last[c] == SIDE_ALLIED or g.s.hex_last[c] == SIDE_CENTRAL:
            row[3 * g.s.hex_last[c] + 2] += 1


cdef int record_row(Gwe* g, SearchWorkspace ws, int turn, int side, int32_t* row) except -1:
    # engine.snapshot's numbers after side's Player-Turn of Game-Turn turn, as RC_ columns:
    # the Russian player's towns (25.11-25.12) and their VP, record_counts' counts, and what
    # the row reads of the state
    cdef int32_t counts[6]
    cdef int32_t* cells = g.work + 2 * g.t.n_cells + 4
    cdef Py_ssize_t n = russian_towns(g, ws, cells), i
    cdef int32_t* mine
    cdef int s, c, sp
    row[RC_TURN] = turn
    row[RC_SIDE] = side
    row[RC_VP] = g.s.vp[0]
    row[RC_TOWNS] = <int32_t>n
    row[RC_TOWNS_VP] = 0
    for i in range(n):
        row[RC_TOWNS_VP] += g.town_value[i]
    record_counts(g, counts)
    for s in range(2):
        mine = row + RC_SIDES + RC_PER_SIDE * s
        mine[RC_UNITS] = counts[3 * s]
        mine[RC_OUT_OF_SUPPLY] = counts[3 * s + 1]
        mine[RC_OUT_OF_COMMAND] = g.s.ooc_count[s]
        mine[RC_HEXES_HELD] = counts[3 * s + 2]
        sp = 0
        for c in range(N_LOSS_CAUSES):
            mine[RC_STEPS_LOST + c] = g.s.steps_lost[N_LOSS_CAUSES * s + c]
            sp += g.s.sp_lost[N_LOSS_CAUSES * s + c]
        mine[RC_SP_LOST] = sp
    return 0


# --- the Movement Phase's segments --------------------------------------------------------

cdef int initial_supply(Gwe* g, SearchWorkspace ws, int side) except -1:
    # engine.initial_supply (4.0 A1a, 9.11): the phasing units out of supply marked for this
    # Movement Phase; never an HQ (10.35)
    cdef Py_ssize_t u
    supply(g, ws, side)
    for u in range(g.t.n_units):
        if g.t.side[u] == side and on_map(g, u):
            g.s.unit_status[u] &= ~ST_OUT_OF_SUPPLY
            if not g.sup.units[u] and g.t.utype[u] != UT_HQ:
                g.s.unit_status[u] |= ST_OUT_OF_SUPPLY
    return 0


cdef int attrition_segment(Gwe* g, SearchWorkspace ws, int side) except -1:
    # attrition.attrition_segment (4.0 A1e, 9.22-9.24, 19.41-19.43): supply determined now
    # and marked; cavalry living off the land marked and exempt; every other phasing unit out
    # of supply but HQs rolls once, in unit order (roll_attrition)
    cdef const GweT* t = g.t
    cdef Py_ssize_t u, k = 0, i
    cdef int32_t* out = g.work + 2 * t.n_cells + 4     # the units that roll
    cdef int32_t* points = g.work                      # [n_cells] Stacking Points (19.41)
    cdef uint8_t* off_land = g.unit_mask
    cdef bint any_cavalry = False
    supply(g, ws, side)
    for u in range(t.n_units):
        if t.side[u] == side and on_map(g, u):
            g.s.unit_status[u] &= ~ST_OUT_OF_SUPPLY
            if not g.sup.units[u] and t.utype[u] != UT_HQ:
                g.s.unit_status[u] |= ST_OUT_OF_SUPPLY
                if t.utype[u] == UT_CAVALRY:
                    any_cavalry = True
    # 19.41 (attrition.living_off_land): out of supply, in the area, at most the limit of
    # Stacking Points of the side's units in its hex
    memset(off_land, 0, t.n_units)
    if any_cavalry:
        memset(points, 0, t.n_cells * sizeof(int32_t))
        for u in range(t.n_units):
            if t.side[u] == side and on_map(g, u):
                points[g.s.unit_cell[u]] += t.stacking[u]
        for u in range(t.n_units):
            if (t.side[u] == side and on_map(g, u) and t.utype[u] == UT_CAVALRY
                    and g.s.unit_status[u] & ST_OUT_OF_SUPPLY
                    and t.off_land_area[g.s.unit_cell[u]]
                    and (t.off_land_max_points < 0
                         or points[g.s.unit_cell[u]] <= t.off_land_max_points)):
                off_land[u] = 1
    for u in range(t.n_units):
        if t.side[u] == side:
            g.s.flags[u] &= ~GF_LIVING_OFF_LAND
            if off_land[u]:
                g.s.flags[u] |= GF_LIVING_OFF_LAND
            elif on_map(g, u) and g.s.unit_status[u] & ST_OUT_OF_SUPPLY:
                out[k] = <int32_t>u
                k += 1
    for i in range(k):
        u = out[i]
        if not on_map(g, u):
            continue
        roll_attrition(g, ws, u)
    return 0


cdef int roll_attrition(Gwe* g, SearchWorkspace ws, Py_ssize_t u) except -1:
    # attrition.roll_attrition (9.22, 9.24): one die of the attrition stream; on a listed roll
    # half the steps left, rounded up (25.13 tested when that eliminates it); HQs roll none;
    # the steps lost
    cdef int left, die, n
    cdef bint sur
    if g.t.utype[u] == UT_HQ:
        return 0
    left = steps_left(g, u)
    if left <= 0:
        return 0
    die = roll(&g.dice[DS_ATTRITION])
    if not (g.t.attrition_rolls >> die) & 1:
        return 0
    n = (left + 1) // 2
    sur = n >= left and g.t.stacking[u] > 0 and is_surrounded(g, ws, u) == 1
    return lose_steps(g, u, n, LOSS_ATTRITION, sur)


# --- the Command Control Segment (10.3, 10.4, 21.2-21.4) ---------------------------------

cdef int command_segment(Gwe* g, SearchWorkspace ws, int side, bint for_combat) except -1:
    # command.command_segment: HQs in command; depots as their supply says (21.3); every
    # other unit within a radius allocated to an HQ with the strength left, as the owner picks
    # (a random player: play.allocation_run), or in command without asking under
    # 10.32; the rest roll (10.41), but not those out of every radius in a Combat Phase
    # (10.42); OUT_OF_COMMAND and OUT_OF_RADIUS marked. Every Russian unit is in command in
    # the Russian Combat Phase of the first Game-Turn (21.2).
    cdef const GweT* t = g.t
    cdef Py_ssize_t u, j, k, n_rest = 0, n_h = 0, n_x = 0, n_un = 0, draws
    cdef flag_t* in_cmd = g.unit_mask
    cdef flag_t* far = g.unit_mask_b
    cdef int32_t* rest = g.work + 2 * t.n_cells + 4
    cdef int32_t* unallocated = g.work + 2 * t.n_cells + 12 + 2 * t.n_units
    cdef int32_t* others = g.work + 2 * t.n_cells + 16 + 3 * t.n_units   # 21.41's HQs
    cdef bint first, any_depot = False
    cdef int32_t h
    if for_combat:
        memset(g.s.hq_shift_used, 0, t.n_units)       # 10.11 1, 21.13: once a Combat Phase
    memset(in_cmd, 0, t.n_units)
    memset(far, 0, t.n_units)
    first = (t.russian_first_turn and for_combat and side == SIDE_ALLIED
             and g.s.turn[0] == t.first_turn)
    for u in range(t.n_units):
        if t.side[u] != side or not on_map(g, u):
            continue
        if t.utype[u] == UT_HQ or first:
            in_cmd[u] = 1
        elif t.depots_by_supply and t.depot[u]:
            any_depot = True
        else:
            rest[n_rest] = <int32_t>u
            n_rest += 1
    if first:
        return _mark_command(g, side)
    if any_depot:
        # only the depots' supply is read here: in the Movement Phase, unless the side's last
        # supply was of this very position, it is worked out without the units' lines (the
        # rail sources and the depots' chain read no other unit); in the Combat Phase the
        # whole supply, which the declarations read next in the same position
        supply(g, ws, side, False, for_combat or (g.memo[side].valid
                                                  and _same_position(g, &g.memo[side])))
        for u in range(t.n_units):
            if t.side[u] == side and on_map(g, u) and t.depot[u] and t.utype[u] != UT_HQ:
                in_cmd[u] = g.sup.depots[u]
                far[u] = not g.sup.depots[u]
    if n_rest:
        n_h = trace_radii(g, ws, side, others, &n_x)          # command._Radii
        for k in range(n_h):
            h = g.hq_of[k]
            g.hq_left[k] = t.strength_back[h] if g.s.unit_step[h] > 0 else t.strength_front[h]
        for j in range(n_rest):                                 # Radii.cover
            u = rest[j]
            for k in range(n_h):
                g.cover[j * n_h + k] = covers(g, k, n_h, others, n_x, u)
            g.alloc_sp[j] = t.stacking[u]
        if not t.unlimited_command:
            if g.level[side] == LEVEL_RANDOM:
                draws = allocation_run(g.pol[side], g.cover, n_rest, n_h, g.alloc_sp,
                                       g.hq_left, g.alloc_status, g.alloc_picks, NULL)
            else:
                draws = ladder_allocation(g, side, for_combat, rest, n_rest, n_h)
            g.decisions += draws
            for j in range(n_rest):
                u = rest[j]
                if g.alloc_status[j] == _ALLOCATED:
                    in_cmd[u] = 1
                else:
                    far[u] = g.alloc_status[j] == _FAR
                    unallocated[n_un] = <int32_t>u
                    n_un += 1
        else:
            for j in range(n_rest):
                u = rest[j]
                far[u] = 1
                for k in range(n_h):
                    if g.cover[j * n_h + k]:
                        far[u] = 0
                        break
                if far[u]:
                    unallocated[n_un] = <int32_t>u
                    n_un += 1
                else:
                    in_cmd[u] = 1
    for j in range(n_un):                                       # 10.41, 10.42
        u = unallocated[j]
        if for_combat and far[u]:
            continue
        if roll(&g.dice[DS_COMMAND]) > t.tcr[u]:
            in_cmd[u] = 1
    return _mark_command(g, side)


cdef Py_ssize_t ladder_allocation(Gwe* g, int side, bint for_combat, const int32_t* rest,
                                  Py_ssize_t n_rest, Py_ssize_t n_h) except -1:
    # Step 2 of command_segment for a ladder player (``Policy.core_answers``): the plan of
    # position.command_plan, made at the start of the segment, then the engine's questions
    # unit by unit in counter order, each answered from the plan (PassivePolicy.
    # on_command_allocate; play.allocation_run). Reads g.cover and g.alloc_sp of the rest
    # and g.hq_left; g.alloc_status of each unit; returns the decisions asked.
    #
    # The plan: the side's units on the map other than HQs and depots, those that gain most
    # from command first. A unit's gain is the chance its 10.41 die fails (TCR in six) times
    # its stake, per stacking point (at least a half): in a Combat Phase its attack strength
    # plus one when an enemy unit other than an HQ is within one hex, else nothing; in a
    # Movement Phase its attack strength (at least 1), halved when such an enemy is near.
    # Each unit with a gain goes to the covering HQ with most strength left that can take
    # it (the first such HQ on a tie).
    cdef const GweT* t = g.t
    cdef Py_ssize_t j, i, k, e, n_e = 0
    cdef int32_t u, cell, need, best
    cdef bint near
    cdef double stake
    cdef int32_t* enemy_cells = g.work + 2 * t.n_cells + 8 + t.n_units    # (supply's list)
    cdef int32_t* left = g.hq_left + n_h                # the plan's strengths left
    cdef int32_t* plan = g.alloc_picks                  # [n_rest] the HQ index, or -1
    cdef int32_t* order = g.alloc_picks + n_rest
    cdef double* gain = <double*>malloc((n_rest + 1) * sizeof(double))
    if gain == NULL:
        raise MemoryError()
    for u in range(t.n_units):
        if t.side[u] != side and on_map(g, u) and t.utype[u] != UT_HQ:
            enemy_cells[n_e] = g.s.unit_cell[u]
            n_e += 1
    k = 0
    for j in range(n_rest):
        u = rest[j]
        plan[j] = -1
        if t.utype[u] == UT_DEPOT:
            continue
        near = False
        cell = g.s.unit_cell[u]
        for e in range(n_e):
            if hex_distance(t, cell, enemy_cells[e]) <= 1:
                near = True
                break
        if for_combat:
            stake = value_row(g, u)[0] + 1.0 if near else 0.0
        else:
            stake = (0.5 if near else 1.0) * max(<int>value_row(g, u)[0], 1)
        gain[j] = (t.tcr[u] / 6.0) * stake / max(<double>t.stacking[u], 0.5)
        # the order of most gain first, ties in counter order (a stable sort)
        i = k
        while i > 0 and gain[order[i - 1]] < gain[j]:
            order[i] = order[i - 1]
            i -= 1
        order[i] = <int32_t>j
        k += 1
    for i in range(n_h):
        left[i] = g.hq_left[i]
    for i in range(k):
        j = order[i]
        if gain[j] <= 0:
            break
        need = t.stacking[rest[j]]
        best = -1
        for e in range(n_h):
            if g.cover[j * n_h + e] and left[e] >= need and (best < 0 or left[e] > left[best]):
                best = <int32_t>e
        if best >= 0:
            left[best] -= need
            plan[j] = best
    free(gain)
    # the engine's questions, answered from the plan
    return allocation_run(NULL, g.cover, n_rest, n_h, g.alloc_sp, g.hq_left, g.alloc_status,
                          NULL, plan)


cdef int _mark_command(Gwe* g, int side) except -1:
    # command._mark: OUT_OF_COMMAND on the side's units on the map not in command, cleared on
    # the others; OUT_OF_RADIUS on those out of every radius
    cdef Py_ssize_t u
    for u in range(g.t.n_units):
        if g.t.side[u] != side or not on_map(g, u):
            continue
        g.s.unit_status[u] &= ~ST_OUT_OF_COMMAND
        g.s.flags[u] &= ~GF_OUT_OF_RADIUS
        if not g.unit_mask[u]:
            g.s.unit_status[u] |= ST_OUT_OF_COMMAND
        if g.unit_mask_b[u]:
            g.s.flags[u] |= GF_OUT_OF_RADIUS
    return 0


# --- the Cavalry Withdrawal Before Combat Phase (12.1, 23.31, 24.2) ----------------------

cdef int source_distance(Gwe* g, SearchWorkspace ws, int side) except -1:
    # retreat.source_distance into g.dist: hexes from each hex to the nearest friendly supply
    # source (a rail source or a supplied depot), never through a hex of enemy units other
    # than HQs, across a passable step; -1 where none is reached (8.63 priority 1). Breadth
    # first on the passable steps' bitboards (bitsearch), else (or for the tests that
    # compare) on a queue
    cdef const GweT* t = g.t
    cdef const StepBits* S = t.passable_bits
    cdef Py_ssize_t n = t.n_cells, u, head = 0, tail = 0, d, w
    cdef int32_t c, v
    cdef int32_t* queue = g.work
    cdef flag_t* at = g.sup.rail
    cdef uint64_t* b_src = g.dist_bits
    cdef uint64_t* b_in = g.dist_bits + S.nw
    supply(g, ws, side, False, False)
    for u in range(t.n_units):
        if g.sup.depots[u]:
            at[g.s.unit_cell[u]] = 1
    occupied(g, 1 - side, False, g.mask_c)
    if bit_parallel() and S.usable and S.unit and S.n == n:
        # the hexes a line may enter: those free of enemy units (the bits past n set too,
        # harmlessly: no step lands there)
        bits_pack(at, n, b_src)
        bits_pack(g.mask_c, n, b_in)
        for w in range(S.nw):
            b_in[w] = ~b_in[w]
        bits_distances(S, b_src, b_in, g.dist, b_in + S.nw)
        return 0
    for c in range(n):
        g.dist[c] = -1
        if at[c]:
            g.dist[c] = 0
            queue[tail] = c
            tail += 1
    while head < tail:                       # breadth first: a step costs one
        c = queue[head]
        head += 1
        for d in range(6):
            v = t.nbr[6 * <Py_ssize_t>c + d]
            if v >= 0 and g.dist[v] < 0 and t.passable[6 * <Py_ssize_t>c + d] \
                    and not g.mask_c[v]:
                g.dist[v] = g.dist[c] + 1
                queue[tail] = v
                tail += 1
    return 0


cdef Py_ssize_t withdrawal_candidates(Gwe* g, int side, const flag_t* tried,
                                      int32_t* out) noexcept nogil:
    # withdrawal.withdrawal_candidates: cavalry (12.11) and the armored car (24.21) of side
    # on the map, not entrained, not yet tried, next to an enemy unit and with a withdrawal
    # (whatever the supply sources), but no Austro-Hungarian cavalry on the first Game-Turn
    # (23.31); into out, ascending; how many
    cdef const GweT* t = g.t
    cdef Py_ssize_t u, k = 0, d, i, n = t.n_cells, m = 0
    cdef int32_t c, v
    cdef bint first = g.s.turn[0] == t.first_turn
    cdef flag_t* near = g.mask_d
    for u in range(t.n_units):
        if (t.side[u] == side and on_map(g, u) and not g.s.unit_status[u] & ST_ENTRAINED
                and (t.utype[u] == UT_CAVALRY or t.utype[u] == UT_ARMORED_CAR)
                and not (first and t.utype[u] == UT_CAVALRY and t.is_ah[u])):
            out[k] = <int32_t>u
            k += 1
    if k == 0:
        return 0
    occupied(g, 1 - side, True, g.mask_a)
    memset(near, 0, n)
    for c in range(n):
        if g.mask_a[c]:
            for d in range(6):
                v = t.nbr[6 * <Py_ssize_t>c + d]
                if v >= 0:
                    near[v] = 1
    for i in range(k):
        u = out[i]
        if near[g.s.unit_cell[u]] and not tried[u]:
            out[m] = <int32_t>u
            m += 1
    if m == 0:
        return 0
    controlled(g, 1 - side, g.mask_b)
    for c in range(n):
        g.dist[c] = -1                    # no sources: every path kept
    withdrawals_run(t.nbr, n, t.side_add, t.enter_cost, t.mountain, g.mask_a, g.mask_b,
                    g.dist, out, m, g.s.unit_cell, t.tcr, t.car, g.w_counts, g.w_paths)
    k = 0
    for i in range(m):
        if g.w_counts[i] > 0:
            out[k] = out[i]
            k += 1
    return k


cdef int withdrawal_phase(Gwe* g, SearchWorkspace ws, int side) except -1:
    # withdrawal.withdrawal_phase (4.0 A2, 12.1, 24.2): the withdrawing side picks a unit at a
    # time (or stops); one die above its TCR (12.12; the armored car rolls none, 24.22); a
    # path of two hexes it picks among those toward a supply source (12.13); the phasing
    # player may then occupy the hex left empty (12.16)
    cdef const GweT* t = g.t
    cdef flag_t* tried = g.unit_mask_b
    cdef int32_t* cand = g.work + 2 * t.n_cells + 4
    cdef Py_ssize_t n_cand, u, i, n_paths, v
    cdef int32_t origin, via, dest
    cdef bint friends
    memset(tried, 0, t.n_units)
    while True:
        n_cand = withdrawal_candidates(g, side, tried, cand)
        if n_cand == 0:
            return 0
        if g.level[side] == LEVEL_RANDOM:
            i = choose(g, side, n_cand + 1)
        else:
            i = ladder_withdrawal_unit(g, ws, side, cand, n_cand)
        if i == 0:
            return 0
        u = cand[i - 1]
        tried[u] = 1
        if t.utype[u] != UT_ARMORED_CAR:                                   # 24.22
            if roll(&g.dice[DS_WITHDRAWAL]) <= t.tcr[u]:                    # 12.12
                continue
        source_distance(g, ws, side)
        occupied(g, 1 - side, True, g.mask_a)
        controlled(g, 1 - side, g.mask_b)
        cand[0] = <int32_t>u
        n_paths = withdrawals_run(t.nbr, t.n_cells, t.side_add, t.enter_cost, t.mountain,
                                  g.mask_a, g.mask_b, g.dist, cand, 1, g.s.unit_cell, t.tcr,
                                  t.car, g.w_counts, g.w_paths)
        if n_paths == 0:
            raise RuntimeError("a unit that may withdraw has no path (12.13)")
        if g.level[side] == LEVEL_RANDOM:
            i = choose(g, side, n_paths)
        else:
            i = ladder_safest(g, ws, side, g.w_paths + 1, n_paths, 2)
        via = g.w_paths[2 * i]
        dest = g.w_paths[2 * i + 1]
        origin = g.s.unit_cell[u]
        # withdrawal.withdraw: not a move (12.14); the hexes last moved through by its side;
        # RETREATED_IN when friendly units were already in the hex (12.17)
        friends = False
        for v in range(t.n_units):
            if on_map(g, v) and g.s.unit_cell[v] == dest and t.side[v] == side:
                friends = True
                break
        g.s.hex_last[via] = <int8_t>side
        g.s.hex_last[dest] = <int8_t>side
        g.s.unit_cell[u] = dest
        if friends:
            g.s.flags[u] |= GF_RETREATED_IN
        occupy_vacated(g, 1 - side, origin)


cdef int occupy_vacated(Gwe* g, int phasing, int32_t cell) except -1:
    # withdrawal.occupy_vacated (12.16): when the hex holds no unit any more, the phasing
    # player may move adjacent units into it, one at a time (or stop), each across a hexside
    # it may cross, into terrain it may enter, within the stacking limit (16.0)
    cdef const GweT* t = g.t
    cdef int32_t* opts = g.work + 2 * t.n_cells + 12 + 2 * t.n_units
    cdef Py_ssize_t u, k, d, i
    cdef int room, tr
    cdef int32_t c
    cdef bint alien
    for u in range(t.n_units):
        if on_map(g, u) and g.s.unit_cell[u] == cell:
            return 0
    while True:
        room = t.stack_limit
        alien = False
        for u in range(t.n_units):
            if on_map(g, u) and g.s.unit_cell[u] == cell:
                room -= t.stacking[u]
                if t.side[u] != phasing:
                    alien = True
        if alien:
            return 0
        k = 0
        for u in range(t.n_units):
            if t.side[u] != phasing or not on_map(g, u) or g.s.unit_status[u] & ST_ENTRAINED:
                continue
            c = g.s.unit_cell[u]
            for d in range(6):                  # the side of c toward the hex, if next to it
                if t.nbr[6 * <Py_ssize_t>c + d] == cell:
                    break
            else:
                continue
            tr = t.tcr[u] - 1
            if t.side_add[(tr * t.n_cells + c) * 6 + d] < 0:
                continue
            if t.enter_cost[tr * t.n_cells + cell] < 0 or (t.mountain[cell] and t.car[u]):
                continue
            if t.stacking[u] > room:
                continue
            opts[k] = <int32_t>u
            k += 1
        if k == 0 or g.level[phasing] != LEVEL_RANDOM:   # the ladder never occupies
            return 0
        i = choose(g, phasing, k + 1)
        if i == 0:
            return 0
        u = opts[i - 1]
        g.s.hex_last[cell] = <int8_t>t.side[u]
        g.s.unit_cell[u] = cell


cdef Py_ssize_t ladder_withdrawal_unit(Gwe* g, SearchWorkspace ws, int side, int32_t* cand,
                                       Py_ssize_t n_cand) except -1:
    # PassivePolicy.on_withdrawal_unit: of the units that may withdraw (cand[n_cand], the
    # options after "stop"), the one alone in its hex (HQs apart: with others it defends and
    # stays) on which the enemy's attack by every unit that may attack it is expected to
    # gain most (weigh_attack, as the policy's evaluations asks evaluate_attacks), when that
    # is above withdraw_at; its option (i + 1), or 0 (stop)
    cdef const GweT* t = g.t
    cdef Judge* J = &g.j
    cdef int enemy = 1 - side
    cdef Py_ssize_t i, u, nc, best = 0
    cdef int32_t x, cell
    cdef double worst = g.withdraw_at[side]
    cdef bint known = False, alone
    cdef Expected e
    # the candidates are in the phase's list, which attack_position rewrites: kept aside,
    # and put back for the phase
    cdef int32_t* units = <int32_t*>malloc((n_cand + 1) * sizeof(int32_t))
    if units == NULL:
        raise MemoryError()
    memcpy(units, cand, n_cand * sizeof(int32_t))
    try:
        for i in range(n_cand):
            x = units[i]
            cell = g.s.unit_cell[x]
            alone = True
            for u in range(t.n_units):
                if (u != x and t.side[u] == side and t.utype[u] != UT_HQ and on_map(g, u)
                        and g.s.unit_cell[u] == cell):
                    alone = False
                    break
            if not alone:
                continue
            if not known:                  # the enemy's attack position, once a decision
                J.material = g.ladder_weights[side][0]
                J.ground = g.ladder_weights[side][1]
                J.town = g.ladder_weights[side][2]
                J.per_sp[0], J.per_sp[1] = g.ladder_vp[side][0], g.ladder_vp[side][1]
                J.per_sp_surrounded[0] = g.ladder_vp[side][2]
                J.per_sp_surrounded[1] = g.ladder_vp[side][3]
                attack_position(g, ws, enemy)
                attack_facts(g, ws, enemy)
                known = True
            nc = atk_candidates(&g.f.atk, &cell, 1, J.cand)
            if nc == 0:
                continue
            weigh_attack(g, ws, enemy, J.cand, nc, &cell, 1, 0, 0, -1, -1, &e)
            if e.score > worst:
                best = i + 1
                worst = e.score
        memcpy(cand, units, n_cand * sizeof(int32_t))
    finally:
        free(units)
    return best


cdef Py_ssize_t ladder_safest(Gwe* g, SearchWorkspace ws, int side, const int32_t* cells,
                              Py_ssize_t n, Py_ssize_t stride) except -1:
    # passive._safest: the index of the first of the n hexes cells[i * stride] scoring best:
    # two in supply (supply.supplied_cells), plus its hexes from the nearest enemy unit other
    # than an HQ (at most three), a half among friendly units, less ten within two Stacking
    # Points of the limit (the sums in the policy's order; every term is exact)
    cdef const GweT* t = g.t
    cdef Py_ssize_t i, u, best = 0
    cdef int32_t c
    cdef int near, d, sp
    cdef double score, top = 0.0
    if n <= 1:
        return 0
    supply(g, ws, side, True)
    for i in range(n):
        c = cells[i * stride]
        near = 3
        sp = 0
        for u in range(t.n_units):
            if not on_map(g, u):
                continue
            if t.side[u] == side:
                if g.s.unit_cell[u] == c:
                    sp += t.stacking[u]
            elif t.utype[u] != UT_HQ:
                d = hex_distance(t, c, g.s.unit_cell[u])
                if d < near:
                    near = d
        score = 2.0 * (1 if g.sup.cells[c] else 0) + near
        score = score + 0.5 * (1 if sp > 0 else 0) - 10.0 * (1 if sp > t.stack_limit - 2 else 0)
        if i == 0 or score > top:
            best = i
            top = score
    return best


# --- the Step Replacement Phase -----------------------------------------------------------

cdef int replacement_phase(Gwe* g, SearchWorkspace ws, int side) except -1:
    # replacement.replacement_phase (4.0 A4, 13.0, 22.0, 24.43): each eligible unit in turn,
    # the owner's choice to roll (options True, False), a listed roll restoring it to full
    # strength or repairing the armored car; IN_COMBAT_LAST_TURN cleared on the side's units
    cdef const GweT* t = g.t
    cdef Py_ssize_t u, k = 0, i, d
    cdef int32_t* units = g.work + 2 * t.n_cells + 4
    cdef flag_t* near = g.mask_d
    cdef int32_t c, v
    cdef int turn = g.s.turn[0], lost, die
    cdef uint32_t rolls
    cdef uint16_t busy = GF_IN_COMBAT_LAST_TURN | GF_ATTACKED | GF_DEFENDED | GF_MOVED
    # replacement.eligible: on the map, something to replace (_repairable), no combat since
    # the last phase and not moved (13.0 2-3) ...
    for u in range(t.n_units):
        if t.side[u] != side or not on_map(g, u) or g.s.flags[u] & busy:
            continue
        lost = g.s.unit_step[u]
        if ((t.repairable[u] and 0 < lost <= t.n_steps[u] // 2)
                or (t.utype[u] == UT_ARMORED_CAR and g.s.flags[u] & GF_BROKEN_DOWN)):
            units[k] = <int32_t>u
            k += 1
    if k:
        # ... not within a hex of an enemy unit (22.0, near_enemy), in supply, with a roll
        # that replaces on this Game-Turn
        occupied(g, 1 - side, True, g.mask_a)
        memset(near, 0, t.n_cells)
        for c in range(t.n_cells):
            if g.mask_a[c]:
                near[c] = 1
                for d in range(6):
                    v = t.nbr[6 * <Py_ssize_t>c + d]
                    if v >= 0:
                        near[v] = 1
        supply(g, ws, side)
        for i in range(k):
            u = units[i]
            c = g.s.unit_cell[u]
            if near[c if c > 0 else 0] or not g.sup.units[u] \
                    or not t.replacement_rolls[t.nationality[u]][turn]:
                units[i] = -1
    for i in range(k):
        u = units[i]
        if u < 0:
            continue
        if g.level[side] != LEVEL_RANDOM:            # the ladder always rolls
            g.decisions += 1
        elif choose(g, side, 2) != 0:                # False: no roll
            continue
        rolls = t.replacement_rolls[t.nationality[u]][turn]
        die = roll(&g.dice[DS_REPLACEMENT])
        if not (rolls >> die) & 1:
            continue
        if t.utype[u] == UT_ARMORED_CAR:
            g.s.flags[u] &= ~GF_BROKEN_DOWN                                        # 24.43
        else:
            g.s.unit_step[u] = 0                                                   # 13.0
    for u in range(t.n_units):
        if t.side[u] == side:
            g.s.flags[u] &= ~GF_IN_COMBAT_LAST_TURN
    return 0


# --- the Combat Phase: declaring an attack (8.1-8.2, 8.8, 10.2, 12.21, 17.0, 19.2, 21.1) -----

cdef void _bind_atk(Gwe* g) noexcept nogil:
    # the declaration record's tables (its arrays are the Fight's, bound by GweCore)
    cdef const GweT* t = g.t
    cdef Atk* p = &g.f.atk
    p.nb = t.nbr
    p.prohibited = t.prohibited
    p.halved = t.halved
    p.units = g.f.e_units
    p.cell = g.f.e_cell
    p.attack = g.f.e_attack
    p.cavalry = g.f.e_cav
    p.nat = g.f.e_nat
    p.tcr = g.f.e_tcr
    p.hq = g.f.e_hq
    p.defense = g.f.defense
    p.full = g.f.full
    p.ratios = t.crt_ratios
    p.n_cols = t.crt_cols
    p.row_len = t.crt_row_len
    p.row_of_tcr = t.crt_row_of_tcr
    p.joint_row = t.crt_joint
    p.german = t.german
    p.austro = t.austro
    p.k = 0
    p.n = t.n_cells
    p.first = g.f.e_first
    p.next_ = g.f.e_next


cdef void current_values(Gwe* g) noexcept nogil:
    # combat.current_values into g.f.values: each unit's printed (attack, defense, movement)
    # on its current step (value_row)
    cdef Py_ssize_t u, i
    cdef const int16_t* row
    for u in range(g.t.n_units):
        row = value_row(g, u)
        for i in range(3):
            g.f.values[3 * u + i] = row[i]


cdef inline const int16_t* value_row(const Gwe* g, Py_ssize_t u) noexcept nogil:
    # the unit's printed (attack, defense, movement) on its current step (8.52, 8.53); a
    # broken-down armored car shows its back (24.42)
    cdef const GweT* t = g.t
    cdef Py_ssize_t idx = g.s.unit_step[u]
    if idx > t.n_steps[u] - 1:
        idx = t.n_steps[u] - 1
    if idx < 0:
        idx = 0
    if t.car[u] and g.s.flags[u] & GF_BROKEN_DOWN:
        return t.car_back
    return t.values + 3 * (u * t.max_steps + idx)


cdef int hq_strength(const Gwe* g, Py_ssize_t hq, bint attacking, int32_t cell) noexcept nogil:
    # command.hq_combat_strength: the HQ's Combat Strength when stacked in cell with two or
    # more Stacking Points of friendly units other than HQs (defending: not those retreated
    # in, 8.66), else 0; only heroic leaders attack (8.12, 10.23, 10.51)
    cdef const GweT* t = g.t
    cdef Py_ssize_t u
    cdef int points = 0
    if attacking and not t.heroic[hq]:
        return 0
    for u in range(t.n_units):
        if (on_map(g, u) and g.s.unit_cell[u] == cell and t.side[u] == t.side[hq]
                and not t.is_hq[u]
                and (attacking or not g.s.flags[u] & GF_RETREATED_IN)):
            points += t.stacking[u]
    return t.hq_combat[hq] if points >= 2 else 0


cdef int unit_attack(const Gwe* g, Py_ssize_t u, bint supplied) noexcept nogil:
    # combat.unit_attack on g.f.values: printed, halved for being out of supply (9.21, 19.42)
    # and again out of Command Control (10.42), each time down but never below one; 0 stays
    # 0; a heroic leader's Combat Strength (10.23), never halved (10.51)
    cdef int a
    if g.t.is_hq[u]:
        return hq_strength(g, u, True, g.s.unit_cell[u])
    a = g.f.values[3 * u]
    if a <= 0:
        return 0
    a >>= (0 if supplied else 1) + (1 if g.s.unit_status[u] & ST_OUT_OF_COMMAND else 0)
    return a if a >= 1 else 1


cdef int fortress_steps(const Gwe* g, int32_t cell) noexcept nogil:
    # combat.fortress_steps: the steps a printed fortress has left (11.13), 0 where none
    if not g.t.fortress_printed[cell]:
        return 0
    cdef int left = FORTRESS_STEPS - g.s.fortress[4 * <Py_ssize_t>cell + F_LOST]
    return left if left > 0 else 0


cdef int fortress_defense(const Gwe* g, int32_t cell) noexcept nogil:
    # combat.fortress_defense: the printed Defense Strength, the smaller one after two steps
    # lost (11.11, 11.14)
    if fortress_steps(g, cell) <= 0:
        return 0
    cdef const int16_t* f = g.s.fortress + 4 * <Py_ssize_t>cell
    return f[F_WEAK] if f[F_LOST] >= FORTRESS_WEAKENED_AFTER else f[F_FULL]


cdef inline int fortress_side(const Gwe* g, int32_t cell) noexcept nogil:
    # combat.fortress_side: the side of the start line it stands on (18.27)
    return SIDE_ALLIED if g.t.east[cell] else SIDE_CENTRAL


cdef int attack_position(Gwe* g, SearchWorkspace ws, int side) except -1:
    # combat._Position of side in the position as it stands, into g.f: the units that may
    # attack (may_attack: 8.12, 8.14, 8.73, 5.34, 5.36, 10.51) with their unit_attack (9.21,
    # 10.42; a heroic leader's Combat Strength, 10.23), the hexes within their reach, the
    # enemy hexes' defenders (hex_facts, with 23.11 and 23.51 in the Russian Combat Phase of
    # the first Game-Turn) and fortresses (11.11), the hexes cavalry attacks at full strength
    # (12.21), and the hexes that may be attacked now (targets)
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef Py_ssize_t u, k = 0, n = t.n_cells, d, i, j
    cdef int32_t c, v
    cdef int a, enemy = 1 - side
    cdef bint panic = side == SIDE_ALLIED and g.s.turn[0] == t.first_turn
    cdef uint16_t gone = GF_ATTACKED | GF_ADVANCED
    supply(g, ws, side)
    current_values(g)
    for j in range(f.n_listed):             # the last position's units by hex, unlisted
        f.e_first[f.e_cell[j]] = -1
    for u in range(t.n_units):
        if t.side[u] != side or (g.s.unit_status[u] & (ST_ON_MAP | ST_ENTRAINED)) != ST_ON_MAP:
            continue
        if g.s.flags[u] & gone or (g.s.flags[u] & GF_USED_RAIL and t.tcr[u] != 1):
            continue
        c = g.s.unit_cell[u]
        if t.is_hq[u] and not t.heroic[u]:
            continue
        a = unit_attack(g, u, g.sup.units[u] != 0)
        if a <= 0:
            continue
        f.e_units[k] = <int32_t>u
        f.e_cell[k] = c
        f.e_attack[k] = a
        f.e_cav[k] = t.cavalry[u]
        f.e_nat[k] = t.nationality[u]
        f.e_tcr[k] = t.tcr[u]
        f.e_hq[k] = t.is_hq[u]
        k += 1
    f.atk.k = k
    f.n_targets = 0
    for j in range(k - 1, -1, -1):          # by hex, each hex's ascending (atk_candidates)
        f.e_next[j] = f.e_first[f.e_cell[j]]
        f.e_first[f.e_cell[j]] = <int32_t>j
    f.n_listed = k
    if k == 0:
        return 0
    memset(f.within, 0, n)
    for j in range(k):
        c = f.e_cell[j]
        for d in range(6):
            v = t.nbr[6 * <Py_ssize_t>c + d]
            if v >= 0 and not t.prohibited[6 * <Py_ssize_t>c + d]:
                f.within[v] = 1
    # hex_facts: the enemy's units on the map, ascending
    cdef int32_t* units = g.work + 2 * n + 4
    cdef Py_ssize_t n_units = 0
    for u in range(t.n_units):
        f.panicking[u] = panic and t.panics[u]
        f.no_trench[u] = (t.is_ah[u] and g.s.unit_step[u] > 0) or f.panicking[u]
        if t.side[u] == enemy and on_map(g, u):
            units[n_units] = <int32_t>u
            n_units += 1
    memset(f.fort, 0, n)
    for i in range(t.n_fortress[enemy]):
        c = t.fortress_cells[enemy][i]
        if g.s.fortress[4 * <Py_ssize_t>c + F_LOST] < FORTRESS_STEPS:
            f.fort[c] = 2 if g.s.fortress[4 * <Py_ssize_t>c + F_ATTACKED] != 0 else 1
    hex_defenses_run(units, n_units, g.s.unit_cell, t.is_hq, g.s.flags, g.s.unit_status,
                     f.values, 3, t.stacking, t.hq_combat, f.panicking, f.no_trench,
                     t.doubled, t.trench, f.fort, f.within, n, GF_RETREATED_IN, GF_DEFENDED,
                     ST_ENTRAINED, f.total, f.attackable, f.mark)
    # cavalry_full_hexes: no unit there but cavalry, depots and HQs, no fortress with steps
    memset(f.full, 1, n)
    for u in range(t.n_units):
        if on_map(g, u) and not t.cav_full_ok[u]:
            f.full[g.s.unit_cell[u]] = 0
    # _with_fortresses: each hex's own fortress added (11.11); where none is printed a hex
    # keeps its units' defense, and is full as it is
    memcpy(f.defense, f.total, n * sizeof(int32_t))
    for i in range(t.n_fortress_all):
        c = t.fortress_all[i]
        if fortress_steps(g, c) > 0:
            f.full[c] = 0
        if fortress_side(g, c) == enemy:
            f.defense[c] += fortress_defense(g, c)
    for c in range(n):
        if f.attackable[c] and atk_target(&f.atk, c):
            f.targets[f.n_targets] = c
            f.n_targets += 1
    return 0


cdef void within_range(Gwe* g, int32_t cell, int hexes, flag_t* out) noexcept nogil:
    # combat._range_mask: the hexes within hexes of cell over the map (nothing blocks a range)
    cdef const GweT* t = g.t
    cdef int32_t* queue = g.work
    cdef int32_t* depth = g.work + t.n_cells + 1
    cdef Py_ssize_t head = 0, tail = 1, d
    cdef int32_t c, v
    memset(out, 0, t.n_cells)
    queue[0] = cell
    depth[0] = 0
    out[cell] = 1
    while head < tail:
        c = queue[head]
        if depth[head] < hexes:
            for d in range(6):
                v = t.nbr[6 * <Py_ssize_t>c + d]
                if v >= 0 and not out[v]:
                    out[v] = 1
                    queue[tail] = v
                    depth[tail] = depth[head] + 1
                    tail += 1
        head += 1


cdef int hq_shift(const Gwe* g, Py_ssize_t hq) noexcept nogil:
    # hq_ratings' attack shift: the front's, or the reverse's once flipped (10.54)
    return g.t.shift_back[hq] if g.s.unit_step[hq] > 0 else g.t.shift_front[hq]


cdef Py_ssize_t trace_radii(Gwe* g, SearchWorkspace ws, int side, int32_t* others,
                            Py_ssize_t* n_others) except -1:
    # command._Radii: the side's HQs on the map, ascending, into g.hq_of, each radius traced
    # with its stop into g.radii, then again with the Austro-Hungarian stop for those where
    # it differs (21.41: their indices into others, the radii after the first n_h); n_h
    cdef const GweT* t = g.t
    cdef Py_ssize_t u, k, n_h = 0, n_x = 0, c, n = t.n_cells
    cdef int32_t h
    cdef flag_t* enemy = g.mask_a
    cdef flag_t* open_zoc = g.mask_b
    cdef flag_t* own = g.mask_c
    for u in range(t.n_units):
        if t.side[u] == side and t.utype[u] == UT_HQ and on_map(g, u):
            g.hq_of[n_h] = <int32_t>u
            n_h += 1
    for k in range(n_h):
        h = g.hq_of[k]
        if t.stops_ah[h] != t.stops[h]:
            others[n_x] = <int32_t>k
            n_x += 1
    for k in range(n_h + n_x):
        h = g.hq_of[k] if k < n_h else g.hq_of[others[k - n_h]]
        g.hq_cell[k] = g.s.unit_cell[h]
        g.hq_tab[k] = t.hq_table[h]
        g.hq_radius[k] = t.radius_back[h] if g.s.unit_step[h] > 0 else t.radius_front[h]
        g.hq_stopped[k] = t.stops[h] if k < n_h else t.stops_ah[h]
        g.hq_slot[k] = 2 * h + (0 if k < n_h else 1)
    occupied(g, 1 - side, True, enemy)
    controlled(g, 1 - side, open_zoc)
    occupied(g, side, True, own)
    _and_not(open_zoc, own, n)
    if n_h:
        command_radii_run(ws, t.radius_tables, t.n_radius_tables, t.radius_bits, enemy,
                          g.hq_cell, g.hq_tab, g.hq_radius, g.hq_stopped, open_zoc, n_h + n_x,
                          g.radii, g.radii_keep, g.hq_slot)
    n_others[0] = n_x
    return n_h


cdef bint covers(const Gwe* g, Py_ssize_t k, Py_ssize_t n_h, const int32_t* others,
                 Py_ssize_t n_x, Py_ssize_t u) noexcept nogil:
    # _Radii.cover: unit u stands within HQ k's radius (the Austro-Hungarian one for such a
    # unit, 21.41) and the HQ may command it (21.4)
    cdef const GweT* t = g.t
    cdef Py_ssize_t i, row = k
    if t.is_ah[u]:
        for i in range(n_x):
            if others[i] == k:
                row = n_h + i
                break
    if not g.radii[row * t.n_cells + g.s.unit_cell[u]]:
        return False
    return t.joint_command or t.nationality[g.hq_of[k]] == t.nationality[u]


cdef int choose_shifts(Gwe* g, SearchWorkspace ws, int side, const int32_t* force,
                       Py_ssize_t n_force, uint16_t engaged) except -1:
    # command._eligible and _choose: the HQs of side whose radius holds at least half the
    # force's steps, HQs and depots not counted (10.21), with a shift not used yet this
    # Combat Phase (10.11 1), a heroic leader lending its strength elsewhere excepted
    # (10.24); the owner picks at most one of each command level (10.22), the picks marked
    # used; the columns they shift
    cdef const GweT* t = g.t
    cdef int32_t* steps = g.f.steps
    cdef int32_t* others = g.work + 2 * t.n_cells + 16 + 3 * t.n_units
    cdef int32_t* army = g.alloc_picks
    cdef int32_t* corps = g.alloc_picks + t.n_hqs + 1
    cdef Py_ssize_t i, k, u, n_h, n_x = 0, n_army = 0, n_corps = 0
    cdef int64_t total = 0, near, inside, pick
    cdef int32_t h, hc, c
    cdef int radius, dq, dr, dist, out = 0
    cdef bint any_shift = False, in_force
    for i in range(n_force):
        u = force[i]
        steps[i] = 0 if (t.is_hq[u] or t.is_depot[u]) else steps_left(g, u)
        total += steps[i]
    if total == 0:
        return 0
    # _may_hold_half, by hex distances, before any radius is traced
    for u in range(t.n_units):
        if t.side[u] != side or t.utype[u] != UT_HQ or not on_map(g, u):
            continue
        if hq_shift(g, u) <= 0 or g.s.hq_shift_used[u]:
            continue
        radius = t.radius_back[u] if g.s.unit_step[u] > 0 else t.radius_front[u]
        hc = g.s.unit_cell[u]
        near = 0
        for i in range(n_force):
            c = g.s.unit_cell[force[i]]
            dq = t.q[c] - t.q[hc]
            dr = t.r[c] - t.r[hc]
            dist = (abs(dq) + abs(dr) + abs(dq + dr)) // 2
            if dist <= radius:
                near += steps[i]
        if 2 * near >= total:
            any_shift = True
            break
    if not any_shift:
        return 0
    n_h = trace_radii(g, ws, side, others, &n_x)
    for k in range(n_h):
        h = g.hq_of[k]
        if hq_shift(g, h) <= 0 or g.s.hq_shift_used[h]:
            continue
        if t.heroic[h] and g.s.flags[h] & engaged:
            in_force = False
            for i in range(n_force):
                if force[i] == h:
                    in_force = True
            if not in_force:
                continue                                               # 10.24
        inside = 0
        for i in range(n_force):
            if steps[i] and covers(g, k, n_h, others, n_x, force[i]):
                inside += steps[i]
        if 2 * inside >= total:
            if t.army_level[h]:
                army[n_army] = h
                n_army += 1
            else:
                corps[n_corps] = h
                n_corps += 1
    if n_army + n_corps == 0:
        return 0
    # _shift_options: (army or none) x (corps or none), the empty set first
    pick = choose(g, side, (n_army + 1) * (n_corps + 1))
    i = pick // (n_corps + 1)
    k = pick % (n_corps + 1)
    if i:
        h = army[i - 1]
        g.s.hq_shift_used[h] = 1
        out += hq_shift(g, h)
    if k:
        h = corps[k - 1]
        g.s.hq_shift_used[h] = 1
        out += hq_shift(g, h)
    return out


cdef Py_ssize_t counted_defenders(Gwe* g, int32_t cell, int side, int32_t* out) noexcept nogil:
    # combat.stack_at(cell, side).counted into out: the units other than HQs not retreated
    # or withdrawn in this phase (8.66, 12.17), or, when all were, those that have not
    # defended (12.15); how many
    cdef const GweT* t = g.t
    cdef Py_ssize_t u, k = 0
    for u in range(t.n_units):
        if (on_map(g, u) and g.s.unit_cell[u] == cell and t.side[u] == side
                and not t.is_hq[u] and not g.s.flags[u] & GF_RETREATED_IN):
            out[k] = <int32_t>u
            k += 1
    if k:
        return k
    for u in range(t.n_units):
        if (on_map(g, u) and g.s.unit_cell[u] == cell and t.side[u] == side
                and not t.is_hq[u] and not g.s.flags[u] & GF_DEFENDED):
            out[k] = <int32_t>u
            k += 1
    return k


cdef int artillery_pick(Gwe* g, int side, int owner, const int32_t* cells, Py_ssize_t m,
                        bint defending) noexcept nogil:
    # 19.21-19.24: the depots of owner that may fire for this attack, asked of owner among
    # "none" and them: the attacker's within range of an attacker (cells: the attackers'
    # hexes), the defender's not defending and not in a defending hex (cells), within range
    # of one of those; the depot picked, or -1
    cdef const GweT* t = g.t
    cdef int32_t* usable = g.alloc_sp
    cdef flag_t* near = g.mask_d
    cdef Py_ssize_t u, i, n_use = 0
    cdef int64_t pick
    cdef bint inside
    for u in range(t.n_units):
        if t.side[u] != owner or not t.is_depot[u] or not on_map(g, u):
            continue
        if defending:
            if g.s.flags[u] & GF_DEFENDED:
                continue
            inside = False
            for i in range(m):
                if cells[i] == g.s.unit_cell[u]:
                    inside = True
            if inside:
                continue
        within_range(g, g.s.unit_cell[u], t.artillery_range, near)
        for i in range(m):
            if near[cells[i]]:
                usable[n_use] = <int32_t>u
                n_use += 1
                break
    if n_use == 0:
        return -1
    pick = choose(g, owner, n_use + 1)
    return -1 if pick == 0 else usable[pick - 1]


cdef int declare_attack(Gwe* g, SearchWorkspace ws, int side) except -1:
    # combat.combat_phase's step: the hexes that may be attacked (8.8 note); the attacker
    # picks one or stops; builds the attack a unit or a hex at a time (declare_attack); then
    # choose_support: HQ shifts (10.21-10.22), massed artillery (19.21-19.22), the defender's
    # massed artillery (19.23-19.24) and shifts (21.1). 1 with the declaration in g.f, 0
    # when the attacker stops or has nothing to attack
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef Py_ssize_t n_units, n_hexes, n_opt, i, j
    cdef int64_t pick
    cdef bint done
    cdef int32_t* force = g.work + 2 * t.n_cells + 12 + 2 * t.n_units
    attack_position(g, ws, side)
    if f.n_targets == 0:
        return 0
    pick = choose(g, side, f.n_targets + 1)
    if pick == 0:
        return 0
    f.cells[0] = f.targets[pick - 1]
    f.m = 1
    f.na = 0
    while True:
        done = atk_options(&f.atk, f.cells, f.m, f.att, f.na, f.targets, f.n_targets,
                           f.opt_units, &n_units, f.opt_hexes, &n_hexes)
        n_opt = (1 if done else 0) + n_units + n_hexes
        if n_opt == 0:
            raise RuntimeError("no legal way to go on declaring this attack")
        pick = choose(g, side, n_opt)
        if done:
            if pick == 0:
                break
            pick -= 1
        if pick < n_units:
            f.att[f.na] = f.opt_units[pick]
            f.na += 1
        else:
            if f.m == 7:
                raise RuntimeError("an attack on more than seven hexes")
            f.cells[f.m] = f.opt_hexes[pick - n_units]
            f.m += 1
    for i in range(f.na):
        force[i] = f.e_units[f.att[i]]
    f.shift_right = choose_shifts(g, ws, side, force, f.na, GF_ATTACKED)
    for i in range(f.na):
        f.opt_units[i] = g.s.unit_cell[force[i]]
    f.depot = artillery_pick(g, side, side, f.opt_units, f.na, False)
    f.n_defenders = 0
    for j in range(f.m):
        f.n_defenders += counted_defenders(g, f.cells[j], 1 - side,
                                           f.defenders + f.n_defenders)
    f.defense_depot = -1
    if t.defensive_artillery[1 - side] and f.n_defenders:
        f.defense_depot = artillery_pick(g, side, 1 - side, f.cells, f.m, True)
    f.shift_left = 0
    if t.hq_defensive_shift and f.n_defenders:
        f.shift_left = choose_shifts(g, ws, 1 - side, f.defenders, f.n_defenders, GF_DEFENDED)
    return 1


# --- the Combat Phase: an attack weighed (the ladder's scoring.evaluate_attack, and
# PassivePolicy.best_attack's choice among the targets) ---------------------------------------

cdef int attack_facts(Gwe* g, SearchWorkspace ws, int side) except -1:
    # scoring.Snapshot's facts of the defender (1 - side) in the position as it stands, into
    # g.j: the hexes where his units would be surrounded (scoring.surrounded_cells: one search
    # from his rail sources, supplied depots and supplied units over the hexes free of enemy
    # units and of enemy zones he does not negate, 25.13), the hexes that block his retreats
    # (retreat.enemy_blocks) and the enemy zones of control no unit or fortress of his negates
    # (retreat.open_enemy_zoc, 8.64); his units out of radius are worked out when first asked
    cdef const GweT* t = g.t
    cdef Judge* J = &g.j
    cdef Py_ssize_t n = t.n_cells, u, i
    cdef int enemy = 1 - side
    cdef int32_t c
    cdef flag_t* own = g.mask_a
    cdef flag_t* target = g.mask_b
    cdef flag_t* negated = g.mask_c
    cdef flag_t* free_ = g.mask_d
    supply(g, ws, enemy)
    memcpy(own, g.sup.rail, n)
    for u in range(t.n_units):
        if g.sup.depots[u]:
            own[g.s.unit_cell[u]] = 1
    memcpy(target, own, n)
    for u in range(t.n_units):
        if g.sup.units[u]:
            target[g.s.unit_cell[u]] = 1
    occupied(g, enemy, True, negated)
    for i in range(t.n_fortress[enemy]):
        c = t.fortress_cells[enemy][i]
        if g.s.fortress[4 * <Py_ssize_t>c + F_LOST] < FORTRESS_STEPS:
            negated[c] = 1
    controlled(g, side, free_)
    occupied(g, side, False, J.blocks)             # (here: the enemy's units, HQs apart)
    for c in range(n):
        J.open_zoc[c] = free_[c] and not negated[c]
        free_[c] = not J.blocks[c] and not J.open_zoc[c]
    surrounded_run(n, t.nbr, t.passable, free_, target, own, SURROUNDED_LINE - 1, J.sdist,
                   J.squeue, J.surrounded)
    enemy_blocks(g, enemy, J.blocks)
    J.oor_known = False
    return 0


cdef int _out_of_radius(Gwe* g, SearchWorkspace ws, int enemy) except -1:
    # command.out_of_radius(enemy) of his units of TCR 3-4 (the only ones 10.43 reads) into
    # g.j.oor, once a position
    cdef const GweT* t = g.t
    cdef Judge* J = &g.j
    cdef Py_ssize_t u, k = 0, i
    for u in range(t.n_units):
        J.oor[u] = 0
        if t.side[u] == enemy and t.tcr[u] >= 3:
            J.poor[k] = <int32_t>u
            k += 1
    units_outside(g, ws, enemy, J.poor, k, J.outside)
    for i in range(k):
        J.oor[J.poor[i]] = J.outside[i]
    J.oor_known = True
    return 0


cdef double town_value(const GweT* t, int32_t cell) noexcept nogil:
    # scoring.town_values: the printed victory points of the valued town in the hex, else 0
    cdef Py_ssize_t i
    cdef double v = 0.0
    for i in range(t.n_towns):
        if t.town_cells[i] == cell:
            v = t.town_vp[i]
    return v


cdef inline double _per_vp(const Judge* J, const Troops* f) noexcept nogil:
    # the victory points a Stacking Point of the force costs its owner when eliminated
    return fabs(J.per_sp_surrounded[f.side] if f.surrounded else J.per_sp[f.side])


cdef inline double _step_material(const Judge* J, const Troops* f, Py_ssize_t i) noexcept nogil:
    # scoring.step_costs' material of one step of unit i
    return J.material * f.sp[i] / (f.n_steps[i] if f.n_steps[i] > 1 else 1)


cdef double cheapest_steps(const Judge* J, const Troops* f, int k, int32_t* taken) noexcept nogil:
    # scoring.cheapest_steps: k steps taken where they cost the owner least, each from the
    # unit where it costs least (its last step costing its victory points too), a fortress
    # step absorbing two (11.13) at material; the steps taken per unit into taken, the cost
    cdef Py_ssize_t i, best
    cdef double cost = 0.0, best_cost, c, per = _per_vp(J, f)
    cdef int fort = f.fortress
    for i in range(f.n):
        taken[i] = 0
    if k <= 0:
        return 0.0
    for i in range(f.n):
        J.left[i] = f.steps[i]
    while k > 0:
        best = -1
        best_cost = INFINITY
        for i in range(f.n):
            if J.left[i] > 0:
                c = _step_material(J, f, i) + (per * f.sp[i] if J.left[i] == 1 else 0.0)
                if c < best_cost:
                    best = i
                    best_cost = c
        if fort > 0 and J.material <= best_cost:
            fort -= 1
            k -= 2
            cost += J.material
        elif best >= 0:
            J.left[best] -= 1
            taken[best] += 1
            k -= 1
            cost += best_cost
        else:
            break
    return cost


cdef double wipe_value(const Judge* J, const Troops* f) noexcept nogil:
    # scoring.wipe_value: every unit of the force eliminated, and its fortress
    cdef Py_ssize_t i
    cdef double acc = 0.0, per = _per_vp(J, f)
    for i in range(f.n):
        if f.steps[i] > 0:
            acc += _step_material(J, f, i) * f.steps[i] + per * f.sp[i]
    return acc + J.material * f.fortress


cdef double vp_lost(const Judge* J, const Troops* f, const int32_t* taken) noexcept nogil:
    # scoring._vp_lost: the owner's victory points of the units the steps taken eliminate
    cdef Py_ssize_t i
    cdef double acc = 0.0, per = _per_vp(J, f)
    for i in range(f.n):
        if f.steps[i] > 0 and taken[i] >= f.steps[i]:
            acc += per * f.sp[i]
    return acc


cdef Outcome option_outcome(const Judge* J, int option, const Troops* f, int affected,
                            double hex_value) noexcept nogil:
    # scoring.option_outcome: what the option of 8.9 (OPT_ bits) costs the defender: steps
    # lost (half rounded up, or all affected), then the retreat, which eliminates the
    # survivors when no retreat of that length exists (8.64); hex_value when he leaves
    cdef bint half = (option & OPT_HALF) != 0, whole = (option & OPT_WHOLE) != 0
    cdef int hexes = option >> OPT_HEXES_SHIFT, total = f.fortress, loss, lost = 0
    cdef Py_ssize_t i
    cdef Outcome o
    cdef Troops rest
    for i in range(f.n):
        total += f.steps[i]
    if whole and total <= affected:
        o.value = wipe_value(J, f) + hex_value
        o.steps = total
        o.vp = vp_lost(J, f, f.steps)
        o.vacates = True
        return o
    loss = affected if whole else ((affected + 1) // 2 if half else 0)
    o.value = cheapest_steps(J, f, loss, J.taken)
    for i in range(f.n):
        lost += J.taken[i]
    o.steps = lost
    o.vp = vp_lost(J, f, J.taken)
    o.vacates = False
    if hexes:
        if not f.retreat[(hexes if hexes < 2 else 2) - 1]:          # 8.64: no way out
            rest = f[0]
            rest.steps = J.alive
            rest.fortress = 0
            rest.surrounded = True
            lost = 0
            for i in range(f.n):
                J.alive[i] = f.steps[i] - J.taken[i]
                lost += J.alive[i]
            o.value += wipe_value(J, &rest)
            o.vp += vp_lost(J, &rest, J.alive)
            o.steps += lost
        o.value += hex_value
        o.vacates = True
    elif loss >= total:
        o.value += hex_value
        o.vacates = True
    return o


cdef Outcome defender_choice(const GweT* t, const Judge* J, int code, const Troops* f,
                             int affected, double hex_value, int* chosen) noexcept nogil:
    # scoring.defender_choice: the cheapest option of 8.9 for a defender result (by value,
    # then steps; the first of equals), its index into chosen (-1: no result); E eliminates
    cdef Outcome o, best
    cdef int i, n
    chosen[0] = -1
    best.value = best.steps = best.vp = 0.0
    best.vacates = False
    if code == R_NONE:
        return best
    n = 1 if code == R_E else t.n_def_options[code]
    for i in range(n):
        o = option_outcome(J, OPT_WHOLE | OPT_ELIMINATE_ALL if code == R_E
                           else t.def_option[code][i], f, affected, hex_value)
        if i == 0 or o.value < best.value or (o.value == best.value and o.steps < best.steps):
            best = o
            chosen[0] = i
    return best


cdef void expected_attack(const GweT* t, const Judge* J, int column, int modifier,
                          const Troops* a, const Troops* d, bint a_pen, bint d_pen,
                          double hex_value, Expected* e) noexcept nogil:
    # scoring.expected_attack (column >= 0, after shifts): the exact expectation over the die
    # (the CRT's faces and their chances, worsened by 10.43's penalties as the engine does),
    # the defender taking the cheapest option, the attacker losing half the affected steps
    # or all, where they cost him least; the hex the defender leaves is the attacker's gain
    cdef int affected = 0, total = d.fortress, a_loss, a_code, d_code, opt, k
    cdef int sign_a = 1 if a.side == SIDE_ALLIED else -1
    cdef Py_ssize_t i, cell
    cdef int m = modifier - t.face_lo
    cdef double p, a_cost, a_vp, gain, a_taken
    cdef Outcome dout
    for i in range(a.n):
        affected += a.steps[i]
    for i in range(d.n):
        total += d.steps[i]
    if total < affected:
        affected = total
    if m < 0:
        m = 0
    if m > t.n_face_mods - 1:
        m = t.n_face_mods - 1
    cell = m * t.crt_cols + column
    e.column = column
    e.score = e.attacker_steps = e.defender_steps = e.vp = e.vacate = 0.0
    e.n_out = t.face_n[cell]
    for k in range(e.n_out):
        p = t.face_p[cell * MAX_FACES + k]
        a_code = t.face_a[cell * MAX_FACES + k]
        d_code = t.face_d[cell * MAX_FACES + k]
        if a_pen and a_code == R_ONE:                         # combat.WORSE_ATTACKER
            a_code = R_TWO
        if d_pen and d_code != R_NONE and d_code != R_E:      # combat.WORSE_DEFENDER
            d_code += 1
        dout = defender_choice(t, J, d_code, d, affected, hex_value, &opt)
        a_loss = 0
        if a_code != R_NONE:
            a_loss = affected if t.attacker_loses_all[a_code] else (affected + 1) // 2
        a_cost = cheapest_steps(J, a, a_loss, J.taken)
        a_taken = 0.0
        for i in range(a.n):
            a_taken += J.taken[i]
        a_vp = vp_lost(J, a, J.taken)
        gain = dout.value - a_cost + 0.0                   # (no advance_value)
        e.score += p * gain
        e.attacker_steps += p * a_taken
        e.defender_steps += p * dout.steps
        e.vp += p * sign_a * (dout.vp - a_vp)
        e.vacate += p * (1.0 if dout.vacates else 0.0)
        e.out_p[k] = p
        e.out_a[k] = a_code
        e.out_d[k] = d_code
        e.out_option[k] = opt


cdef int defending_force(Gwe* g, int enemy, const int32_t* cells, Py_ssize_t m,
                         const uint8_t* surrounded, const uint8_t* blocks,
                         const uint8_t* open_zoc, Troops* d) noexcept nogil:
    # scoring.defending_force of enemy's units in cells[m] into d (its arrays g.j's): each
    # hex's counted units (into g.j.d_units) and fortress, surrounded (25.13) where a hex
    # with units is, its retreats of one and two hexes (a stack of TCR 1 alone may cross
    # open zones, 8.64); on the defender's facts given (attack_facts' hexes that would be
    # surrounded, that block his retreats and the open zones, or a copy made earlier)
    cdef const GweT* t = g.t
    cdef Judge* J = &g.j
    cdef Py_ssize_t i, j, k
    cdef int dd, ee
    cdef int32_t u, w, x, c
    cdef bint tcr1, one, two
    d.side = enemy
    d.steps = J.d_steps
    d.n_steps = J.d_n_steps
    d.sp = J.d_sp
    d.n = 0
    d.fortress = 0
    d.surrounded = False
    d.retreat[0] = d.retreat[1] = True
    for j in range(m):
        c = cells[j]
        k = counted_defenders(g, c, enemy, J.d_units + d.n)
        if fortress_side(g, c) == enemy:
            d.fortress += fortress_steps(g, c)
        if k:
            d.surrounded = d.surrounded or surrounded[c] != 0
            tcr1 = True
            for i in range(d.n, d.n + k):
                if t.tcr[J.d_units[i]] != 1:
                    tcr1 = False
            if d.retreat[0] or d.retreat[1]:
                for dd in range(6):              # the hex distances retreat_ways reads
                    w = t.nbr[6 * <Py_ssize_t>c + dd]
                    if w < 0:
                        continue
                    for ee in range(6):
                        x = t.nbr[6 * <Py_ssize_t>w + ee]
                        if x >= 0:
                            J.d_origin[x] = hex_distance(t, c, x)
                retreat_ways_run(c, t.nbr, t.passable, blocks, open_zoc, tcr1,
                                 J.d_origin, &one, &two)
                d.retreat[0] = d.retreat[0] and one
                d.retreat[1] = d.retreat[1] and two
        d.n += k
    for i in range(d.n):
        u = J.d_units[i]
        d.steps[i] = steps_left(g, u)
        d.n_steps[i] = t.n_steps[u]
        d.sp[i] = t.stacking[u]
    return 0


cdef int weigh_attack(Gwe* g, SearchWorkspace ws, int side, const int32_t* s, Py_ssize_t ns,
                      const int32_t* cells, Py_ssize_t m, int shift_right, int shift_left,
                      int32_t depot, int32_t defense_depot, Expected* e) except -1:
    # scoring.evaluate_attack of the eligible units s[ns] (indices of attack_position's, in
    # the order given) attacking cells[m], in the position attack_position and attack_facts
    # made: the odds column (8.4, 8.8; the attacker's burnt depot and the defender's, 19.21,
    # 19.23), shifted by the HQs (10.21, 21.1) and the armored car (24.11) and clamped to the
    # table, the die modifier (5.4), the defending force (defending_force), 10.43's
    # penalties, the hexes' value to their holder
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef Judge* J = &g.j
    cdef Py_ssize_t i, j, n = 0
    cdef int enemy = 1 - side, column, modifier, row
    cdef int64_t defense = 0, extra = 0, attack2
    cdef int32_t u
    cdef bint a_pen, d_pen = False
    cdef double hex_value = 0.0
    cdef Troops a, d
    for i in range(ns):
        J.units[i] = f.e_units[s[i]]
    row = atk_row(&f.atk, s, ns)
    if row < 0:
        raise KeyError("the CRT has no odds row for this force's TCR")
    for j in range(m):                                 # combat.facts_defense
        defense += f.defense[cells[j]]
    if defense_depot >= 0:
        within_range(g, g.s.unit_cell[defense_depot], t.artillery_range, f.near_b)
        for j in range(m):
            if f.near_b[cells[j]]:
                extra += f.total[cells[j]]
        defense += (t.artillery_multiplier - 1) * extra
    if depot >= 0:
        within_range(g, g.s.unit_cell[depot], t.artillery_range, f.near_a)
    attack2 = atk_strength2(&f.atk, s, ns, cells, m, f.near_a if depot >= 0 else NULL,
                            t.artillery_multiplier)
    column = <int>atk_odds(&f.atk, row, attack2, defense)
    if column < 0:
        e.column = -1
        e.score = -INFINITY
        e.attacker_steps = e.defender_steps = e.vp = e.vacate = 0.0
        e.n_out = 0
        return 0
    column += shift_right + car_shift(g, J.units, ns) - shift_left
    if column > t.crt_cols - 1:
        column = <int>t.crt_cols - 1
    if column < 0:
        column = 0
    modifier = die_modifier(g, J.units, ns, cells, m)
    defending_force(g, enemy, cells, m, J.surrounded, J.blocks, J.open_zoc, &d)
    # the attacking force: its units other than HQs
    a.side = side
    a.steps = J.a_steps
    a.n_steps = J.a_n_steps
    a.sp = J.a_sp
    for i in range(ns):
        u = J.units[i]
        if t.is_hq[u]:
            continue
        a.steps[n] = steps_left(g, u)
        a.n_steps[n] = t.n_steps[u]
        a.sp[n] = t.stacking[u]
        n += 1
    a.n = n
    a.fortress = 0
    a.surrounded = False
    a.retreat[0] = a.retreat[1] = True
    a_pen = attacker_penalty(g, J.units, ns)
    for i in range(d.n):
        if t.tcr[J.d_units[i]] >= 3:
            if not J.oor_known:
                _out_of_radius(g, ws, enemy)
            if J.oor[J.d_units[i]]:
                d_pen = True
                break
    for j in range(m):
        hex_value += J.ground + J.town * town_value(t, cells[j])
    expected_attack(t, J, column, modifier, &a, &d, a_pen, d_pen, hex_value, e)
    return 0


cdef inline bint worth_attacking(const Judge* J, const Expected* e) noexcept nogil:
    # PassivePolicy.worth_attacking
    return e.score >= J.min_gain and e.defender_steps >= J.min_exchange * e.attacker_steps


cdef int32_t choose_attack(Gwe* g, SearchWorkspace ws, int side, const int32_t* targets,
                           Py_ssize_t n_targets, Py_ssize_t* n_plan, Expected* best) except -2:
    # PassivePolicy.best_attack in the position as it stands: each of targets with every
    # unit that may attack it (ascending) weighed (weigh_attack); the best (the first of
    # equals) if it is worth declaring (min_gain, min_exchange); with trim, each of the four
    # weakest attackers (printed attack, then index) dropped in turn when the attack without
    # it is worth as much less trim_tolerance. The hex, with the attack's units (eligible
    # indices) in g.j.plan[n_plan] and its expectation in best; -1 when none
    cdef Fight* f = &g.f
    cdef Judge* J = &g.j
    cdef Py_ssize_t i, j, k, nc, n0, nr
    cdef int32_t c, chosen = -1, x, y
    cdef Expected e
    n_plan[0] = 0
    attack_position(g, ws, side)
    attack_facts(g, ws, side)
    for i in range(n_targets):
        c = targets[i]
        nc = atk_candidates(&f.atk, &c, 1, J.cand)
        if nc == 0:
            continue
        weigh_attack(g, ws, side, J.cand, nc, &c, 1, 0, 0, -1, -1, &e)
        if chosen < 0 or e.score > best.score:
            chosen = c
            best[0] = e
            memcpy(J.plan, J.cand, nc * sizeof(int32_t))
            n_plan[0] = nc
    if chosen < 0 or not worth_attacking(J, best):
        return -1
    if not J.trim or n_plan[0] <= 1:
        return chosen
    n0 = n_plan[0]
    for i in range(n0):                  # by printed attack, then index (insertion sort)
        x = J.plan[i]
        j = i
        while j > 0 and _weaker(g, x, J.order[j - 1]):
            J.order[j] = J.order[j - 1]
            j -= 1
        J.order[j] = x
    for k in range(n0 if n0 < 4 else 4):
        x = J.order[k]
        nr = 0
        for i in range(n_plan[0]):
            y = J.plan[i]
            if y != x:
                J.rest[nr] = y
                nr += 1
        if nr == 0:
            break
        weigh_attack(g, ws, side, J.rest, nr, &chosen, 1, 0, 0, -1, -1, &e)
        if e.score >= best.score - J.trim_tolerance and worth_attacking(J, &e):
            memcpy(J.plan, J.rest, nr * sizeof(int32_t))
            n_plan[0] = nr
            best[0] = e
    return chosen


cdef inline bint _weaker(const Gwe* g, int32_t x, int32_t y) noexcept nogil:
    # eligible unit x before y: lower printed attack on its current step, then lower index
    cdef int32_t ux = g.f.e_units[x], uy = g.f.e_units[y]
    cdef int16_t ax = g.f.values[3 * ux], ay = g.f.values[3 * uy]
    return ax < ay or (ax == ay and ux < uy)


# --- the Combat Phase: resolving an attack (8.4-8.7, 8.9, 9.23, 10.43, 10.52-10.54, 11.1,
# 19.21) --------------------------------------------------------------------------------------

cdef int stacking_in(const Gwe* g, int32_t cell) noexcept nogil:
    # Game.stacking_in: the Stacking Points of the units on the map in the hex, both sides
    # (the counts sync_occupancy keeps)
    sync_occupancy(g)
    return g.occ.points[cell] + g.occ.points[g.t.n_cells + cell]


cdef void points_in_hexes(const Gwe* g, int32_t* out) noexcept nogil:
    # stacking.points_in_hexes: stacking_in of every hex at once
    cdef Py_ssize_t c, n = g.t.n_cells
    sync_occupancy(g)
    for c in range(n):
        out[c] = g.occ.points[c] + g.occ.points[n + c]


cdef bint fortress_standing(const Gwe* g, int side, int32_t cell) noexcept nogil:
    # combat.fortress_cells(side)[cell]: an undestroyed fortress of side's ground (11.15)
    cdef Py_ssize_t i
    for i in range(g.t.n_fortress[side]):
        if g.t.fortress_cells[side][i] == cell:
            return g.s.fortress[4 * <Py_ssize_t>cell + F_LOST] < FORTRESS_STEPS
    return False


cdef int fortress_lose(Gwe* g, int32_t cell, int n) noexcept nogil:
    # combat.fortress_lose: n fortress steps taken, never more than are left (11.13, 11.15)
    cdef int left = fortress_steps(g, cell)
    if n > left:
        n = left
    if n < 0:
        n = 0
    g.s.fortress[4 * <Py_ssize_t>cell + F_LOST] += n
    return n


cdef void eliminate_unit(Gwe* g, Py_ssize_t u, int cause, bint surrounded) noexcept nogil:
    # units.eliminate: the unit's remaining steps booked, then off the map (25.2)
    g.s.steps_lost[g.t.side[u] * N_LOSS_CAUSES + cause] += steps_left(g, u)
    eliminated(g, u, cause, surrounded)


cdef int combat_lose_steps(Gwe* g, SearchWorkspace ws, Py_ssize_t u, int n,
                           int cause) except -1:
    # combat.lose_steps: with 25.13's test when the loss eliminates the unit
    cdef bint sur = False
    if n <= 0:
        return 0
    if n >= steps_left(g, u):
        sur = is_surrounded(g, ws, u) == 1
    return lose_steps(g, u, n, cause, sur)


cdef Py_ssize_t displacement_targets(Gwe* g, Py_ssize_t hq, int32_t* out) except -1:
    # command.displacement_targets (10.52): the nearest hexes, by a displacement path, holding
    # a friendly unit other than HQs (or a fortress of its side's ground with no enemy unit)
    # with room under the stacking limit; never through enemy units other than HQs,
    # prohibited terrain or blocked hexsides, nor, for an HQ of TCR 2-4, an enemy-controlled
    # hex no friendly unit is in. None when the HQ is stacked with friendly units other than
    # HQs. Into out, ascending; how many
    cdef const GweT* t = g.t
    cdef Py_ssize_t u, n = t.n_cells, head = 0, tail = 1, d, k = 0
    cdef int side, tr, best = -1
    cdef int32_t here, c, v
    cdef int32_t* dist = g.f.hdist
    cdef int32_t* queue = g.f.queue
    cdef flag_t* enemy_here = g.mask_a
    cdef flag_t* open_zoc = g.mask_b
    cdef flag_t* own = g.mask_c
    if not on_map(g, hq):
        return 0
    side = t.side[hq]
    here = g.s.unit_cell[hq]
    for u in range(t.n_units):
        if on_map(g, u) and g.s.unit_cell[u] == here and t.side[u] == side and not t.is_hq[u]:
            return 0
    tr = t.tcr[hq] - 1
    occupied(g, 1 - side, False, enemy_here)
    if t.tcr[hq] != 1:
        controlled(g, 1 - side, open_zoc)
        occupied(g, side, True, own)
        for c in range(n):
            open_zoc[c] = open_zoc[c] and not own[c]
    for c in range(n):
        dist[c] = -1
    dist[here] = 0
    queue[0] = here
    while head < tail:
        c = queue[head]
        head += 1
        for d in range(6):
            v = t.nbr[6 * <Py_ssize_t>c + d]
            if v < 0 or dist[v] >= 0 or enemy_here[v]:
                continue
            if t.side_add[(tr * n + c) * 6 + d] < 0 or t.enter_cost[tr * n + v] < 0:
                continue
            if t.tcr[hq] != 1 and open_zoc[v]:
                continue
            dist[v] = dist[c] + 1
            queue[tail] = v
            tail += 1
    occupied(g, side, False, own)                     # friendly units other than HQs
    occupied(g, 1 - side, True, g.mask_d)
    points_in_hexes(g, g.f.points)
    for c in range(n):
        if dist[c] <= 0:
            continue
        if not (own[c] or (t.fortress_printed[c] and t.friendly[side][c] and not g.mask_d[c])):
            continue
        if g.f.points[c] + t.stacking[hq] > t.stack_limit:
            continue
        if best < 0 or dist[c] < best:
            best = dist[c]
            k = 0
        if dist[c] == best:
            out[k] = c
            k += 1
    return k


cdef bint displace_hq(Gwe* g, Py_ssize_t hq) except -1:
    # command.displace_hq (10.52): to the nearest friendly unit, the owner picking among
    # equally near hexes; False, nothing moved, when it cannot
    cdef Py_ssize_t n = displacement_targets(g, hq, g.f.hexlist)
    cdef int32_t to
    if n == 0:
        return False
    if g.level[g.t.side[hq]] == LEVEL_RANDOM:
        to = g.f.hexlist[choose(g, g.t.side[hq], n)]
    else:                       # a Python player (only in a segment that may ask it)
        to = g.f.hexlist[_ask_displace(g, hq, n)]
    g.s.unit_cell[hq] = to
    g.s.hex_last[to] = g.t.side[hq]
    return True


cdef int eliminate_hq_in_combat(Gwe* g, SearchWorkspace ws, Py_ssize_t hq,
                                bint surrounded) except -1:
    # command.eliminate_hq_in_combat (10.53, 10.54): an HQ with an unused reverse side that
    # can displace may flip and displace instead, as its owner picks (True first), the enemy
    # still scoring its victory points (25.2) and the flip a step lost in combat
    cdef int side = g.t.side[hq]
    if (g.t.n_steps[hq] >= 2 and g.s.unit_step[hq] == 0
            and displacement_targets(g, hq, g.f.hexlist) > 0 and choose(g, side, 2) == 0):
        lose_steps(g, hq, 1, LOSS_COMBAT, False)
        if side == SIDE_CENTRAL:
            add_vp(g, VP_CP_HQ, 1)
        else:
            add_vp(g, VP_RU_HQ, -1)
        displace_hq(g, hq)
        return 1
    eliminate_unit(g, hq, LOSS_COMBAT, surrounded)
    return 0


cdef int eliminate_units(Gwe* g, SearchWorkspace ws, const int32_t* units, Py_ssize_t k,
                         int cause) except -1:
    # combat.eliminate_units: those on the map, units other than HQs first, each with 25.13's
    # test; then the HQs (eliminate_hq_in_combat). units must not lie in the work the
    # eliminations use (g.work, g.f.hexlist and the like)
    cdef Py_ssize_t i
    cdef int32_t* live = g.f.opts + 8 * (g.t.n_units + 1)
    cdef Py_ssize_t n = 0
    cdef bint sur
    for i in range(k):
        if on_map(g, units[i]):
            live[n] = units[i]
            n += 1
    for i in range(n):
        if not g.t.is_hq[live[i]] and on_map(g, live[i]):
            sur = is_surrounded(g, ws, live[i]) == 1
            eliminate_unit(g, live[i], cause, sur)
    for i in range(n):
        if g.t.is_hq[live[i]] and on_map(g, live[i]):
            sur = is_surrounded(g, ws, live[i]) == 1
            eliminate_hq_in_combat(g, ws, live[i], sur)
    return 0


cdef int eliminate_one(Gwe* g, SearchWorkspace ws, int32_t unit, int cause) except -1:
    # eliminate_units of one unit (its list kept apart from the work)
    cdef int32_t one[1]
    one[0] = unit
    return eliminate_units(g, ws, one, 1, cause)


cdef int allocate_losses(Gwe* g, SearchWorkspace ws, int side, const int32_t* pool,
                         Py_ssize_t n_pool, int n, int cause, const int32_t* forts,
                         Py_ssize_t n_forts) except -1:
    # combat.allocate_losses: n combat steps from pool's units and forts (each fortress step
    # counts two, 11.13), a step at a time as the owner picks (units, then fortresses);
    # everything when the pool holds no more; the steps taken
    cdef const GweT* t = g.t
    cdef int32_t* units = g.f.opts + 12 * (t.n_units + 1)
    cdef int32_t* live_forts = units + t.n_units + 1
    cdef Py_ssize_t i, nu, nf
    cdef int taken = 0, room
    cdef int64_t pick
    while taken < n:
        nu = 0
        room = 0
        for i in range(n_pool):
            if on_map(g, pool[i]) and steps_left(g, pool[i]) > 0:
                units[nu] = pool[i]
                nu += 1
                room += steps_left(g, pool[i])
        nf = 0
        for i in range(n_forts):
            if fortress_steps(g, forts[i]) > 0:
                live_forts[nf] = forts[i]
                nf += 1
                room += 2 * fortress_steps(g, forts[i])
        if room == 0:
            break
        if room <= n - taken:
            for i in range(nu):
                taken += combat_lose_steps(g, ws, units[i], steps_left(g, units[i]), cause)
            for i in range(nf):
                taken += 2 * fortress_lose(g, live_forts[i], fortress_steps(g, live_forts[i]))
            break
        pick = choose(g, side, nu + nf)
        if pick < nu:
            taken += combat_lose_steps(g, ws, units[pick], 1, cause)
        else:
            taken += 2 * fortress_lose(g, live_forts[pick - nu], 1)
    return taken


cdef void _walk(Gwe* g, int32_t cell, int32_t* path, int i, int length, Py_ssize_t* n) noexcept nogil:
    # retreat.candidate_paths' walk: the i-th hex i hexes from the start, not blocked
    cdef const GweT* t = g.t
    cdef int d, j
    cdef int32_t w
    for d in range(6):
        w = t.nbr[6 * <Py_ssize_t>cell + d]
        if w < 0 or not t.passable[6 * <Py_ssize_t>cell + d] or g.f.geo[w] != i or g.f.bad[w]:
            continue
        path[i - 1] = w
        if i == length:
            if n[0] < MAX_PATHS:
                for j in range(length):
                    g.f.paths[n[0] * MAX_PATH + j] = path[j]
                n[0] += 1
        else:
            _walk(g, w, path, i + 1, length, n)


cdef void enemy_blocks(Gwe* g, int side, flag_t* out) noexcept nogil:
    # retreat.enemy_blocks: the hexes of the other side's units other than HQs (8.61, 10.52)
    # and its undestroyed fortresses (5.13)
    cdef Py_ssize_t i
    cdef int32_t c
    occupied(g, 1 - side, False, out)
    for i in range(g.t.n_fortress[1 - side]):
        c = g.t.fortress_cells[1 - side][i]
        if g.s.fortress[4 * <Py_ssize_t>c + F_LOST] < FORTRESS_STEPS:
            out[c] = 1


cdef Py_ssize_t candidate_paths(Gwe* g, int32_t origin, int length, int side) except -1:
    # retreat.candidate_paths: every path of length hexes from origin (8.61) into g.f.paths,
    # in the order of the walk; how many
    cdef const GweT* t = g.t
    cdef Py_ssize_t n = t.n_cells, head = 0, tail = 1, d, i, count = 0
    cdef int32_t c, v
    cdef int32_t path[MAX_PATH]
    if length > MAX_PATH:
        raise RuntimeError(f"a retreat of {length} hexes")
    for c in range(n):
        g.f.geo[c] = -1
    g.f.geo[origin] = 0
    g.f.queue[0] = origin
    while head < tail:
        c = g.f.queue[head]
        head += 1
        if g.f.geo[c] >= length:
            continue
        for d in range(6):
            v = t.nbr[6 * <Py_ssize_t>c + d]
            if v >= 0 and g.f.geo[v] < 0:
                g.f.geo[v] = g.f.geo[c] + 1
                g.f.queue[tail] = v
                tail += 1
    enemy_blocks(g, side, g.f.bad)
    for i in range(g.f.n_forbid):
        g.f.bad[g.f.forbid[i]] = 1
    if length > 0:
        _walk(g, origin, path, 1, length, &count)
    if count >= MAX_PATHS:
        raise RuntimeError("more retreat paths than the core holds")
    return count


cdef int retreat_overstack(Gwe* g, SearchWorkspace ws, int side, const int32_t* retreating,
                           Py_ssize_t k, int32_t cell) except -1:
    # stacking.retreat_overstack (6.15): while the hex is over the limit (16.0), the owner
    # eliminates retreating units of his choice there with Stacking Points
    cdef const GweT* t = g.t
    cdef int32_t* options = g.f.chosen
    cdef Py_ssize_t u, i, n
    cdef int points
    cdef bint sur
    if k == 0:
        return 0
    while True:
        points = 0
        n = 0
        for u in range(t.n_units):
            if on_map(g, u) and g.s.unit_cell[u] == cell and t.side[u] == side:
                points += t.stacking[u]
                if t.stacking[u] > 0:
                    for i in range(k):
                        if retreating[i] == u:
                            options[n] = <int32_t>u
                            n += 1
                            break
        if points <= t.stack_limit or n == 0:
            return 0
        u = options[choose(g, side, n)]
        sur = is_surrounded(g, ws, u) == 1
        eliminate_unit(g, u, LOSS_STACKING, sur)


cdef bint toward_source(const Gwe* g, const int32_t* path, int length, int32_t origin) noexcept nogil:
    # retreat.toward_source (8.63 priority 1): every hex nearer a supply source than the last
    cdef int last = g.dist[origin], d, i
    for i in range(length):
        d = g.dist[path[i]]
        if d < 0 or last < 0 or d >= last:
            return False
        last = d
    return True


cdef int retreat_stack(Gwe* g, SearchWorkspace ws, const int32_t* stack, Py_ssize_t n_stack,
                       int length, const int32_t* followers, Py_ssize_t n_followers,
                       int cause, bint crossers_all=False, int32_t* out_path=NULL) except -1:
    # retreat.retreat_stack (8.6, 6.15, 10.52-10.53, 24.41): the stack retreats length hexes
    # along a path its owner picks among those the narrowing leaves, its HQs following; 1,
    # or 0 when it had none and was eliminated. Units retreated are marked RETREATED_IN
    # (8.66); enemy HQs alone in a hex of the path displace or are eliminated (10.52).
    # crossers_all: every unit of the stack may enter enemy zones of control when no other
    # path exists (23.24); the hexes g.f.forbid[:n_forbid] are never entered (23.22); the
    # path taken into out_path
    cdef const GweT* t = g.t
    cdef Py_ssize_t nu1 = t.n_units + 1
    cdef int32_t* S = g.f.opts                       # the stack, then its followers, on the map
    cdef int32_t* F = g.f.opts + nu1
    cdef int32_t* both = g.f.opts + 2 * nu1
    cdef int32_t* doomed = g.f.opts + 3 * nu1
    cdef int32_t* cars = g.f.opts + 4 * nu1
    cdef int32_t* here = g.f.opts + 5 * nu1
    cdef Py_ssize_t ns = 0, nf = 0, i, j, n_paths, n_cand = 0, n_doomed = 0, n_tcr1 = 0
    cdef Py_ssize_t n_free = 0, n_cars = 0, k, u, n_here
    cdef int32_t origin, c
    cdef int side, sp
    cdef int32_t* p
    cdef bint flag, on_mountain
    cdef int32_t* cand = g.f.cand
    for i in range(n_stack):
        if on_map(g, stack[i]):
            S[ns] = stack[i]
            ns += 1
    for i in range(n_followers):
        if on_map(g, followers[i]):
            F[nf] = followers[i]
            nf += 1
    if ns == 0:
        return 0
    origin = g.s.unit_cell[S[0]]
    side = t.side[S[0]]
    n_paths = candidate_paths(g, origin, length, side)
    # retreat.open_enemy_zoc
    controlled(g, 1 - side, g.mask_a)
    occupied(g, side, True, g.mask_b)
    for i in range(t.n_fortress[side]):
        c = t.fortress_cells[side][i]
        if g.s.fortress[4 * <Py_ssize_t>c + F_LOST] < FORTRESS_STEPS:
            g.mask_b[c] = 1
    for i in range(n_paths):
        flag = False
        for j in range(length):
            c = g.f.paths[i * MAX_PATH + j]
            if g.mask_a[c] and not g.mask_b[c]:
                flag = True
        g.f.uses_zoc[i] = flag
        if not flag:
            n_free += 1
    cdef Py_ssize_t n_cross = 0
    for i in range(ns):
        if t.tcr[S[i]] == 1:
            n_tcr1 += 1
        if t.tcr[S[i]] == 1 or crossers_all:
            n_cross += 1
    if n_tcr1 == ns:
        for i in range(n_paths):
            cand[i] = <int32_t>i
        n_cand = n_paths                                     # 8.63 priority 2 below
    elif n_free:
        for i in range(n_paths):
            if not g.f.uses_zoc[i]:
                cand[n_cand] = <int32_t>i
                n_cand += 1
    elif n_cross and n_paths:                                # 8.64, 23.24: forced through
        for i in range(n_paths):
            cand[i] = <int32_t>i
        n_cand = n_paths
        for i in range(ns):
            if t.tcr[S[i]] != 1 and not crossers_all:
                doomed[n_doomed] = S[i]
                n_doomed += 1
    if n_cand == 0:
        for i in range(ns):
            both[i] = S[i]
        for i in range(nf):
            both[ns + i] = F[i]
        eliminate_units(g, ws, both, ns + nf, cause)
        return 0
    # 24.41: the armored car never enters a mountain hex
    for i in range(ns):
        if t.car[S[i]] and not _listed(doomed, n_doomed, S[i]):
            n_cars += 1
    if n_cars:
        k = 0
        for i in range(n_cand):
            if not _mountain_on(g, cand[i], length):
                k += 1
        if k:
            k = 0
            for i in range(n_cand):
                if not _mountain_on(g, cand[i], length):
                    cand[k] = cand[i]
                    k += 1
            n_cand = k
    # 6.15, 8.63: ending where the stack fits under the stacking limit
    sp = 0
    for i in range(ns):
        if not _listed(doomed, n_doomed, S[i]):
            sp += t.stacking[S[i]]
    points_in_hexes(g, g.f.points)
    k = 0
    for i in range(n_cand):
        if g.f.points[g.f.paths[cand[i] * MAX_PATH + length - 1]] + sp <= t.stack_limit:
            k += 1
    if k:
        k = 0
        for i in range(n_cand):
            if g.f.points[g.f.paths[cand[i] * MAX_PATH + length - 1]] + sp <= t.stack_limit:
                cand[k] = cand[i]
                k += 1
        n_cand = k
    if n_cand > 1:                                           # 8.63 priorities 1 and 2
        source_distance(g, ws, side)
        k = 0
        for i in range(n_cand):
            if toward_source(g, g.f.paths + cand[i] * MAX_PATH, length, origin):
                k += 1
        if k:
            k = 0
            for i in range(n_cand):
                if toward_source(g, g.f.paths + cand[i] * MAX_PATH, length, origin):
                    cand[k] = cand[i]
                    k += 1
            n_cand = k
        if n_tcr1 == ns:
            k = 0
            for i in range(n_cand):
                if not g.f.uses_zoc[cand[i]]:
                    k += 1
            if k:
                k = 0
                for i in range(n_cand):
                    if not g.f.uses_zoc[cand[i]]:
                        cand[k] = cand[i]
                        k += 1
                n_cand = k
    cdef int32_t path[MAX_PATH]
    k = cand[choose(g, side, n_cand)]
    for j in range(length):
        path[j] = g.f.paths[k * MAX_PATH + j]
        if out_path != NULL:
            out_path[j] = path[j]
    if n_doomed:
        eliminate_units(g, ws, doomed, n_doomed, cause)
    k = 0
    for i in range(ns):                                      # the movers
        if on_map(g, S[i]):
            S[k] = S[i]
            k += 1
    ns = k
    on_mountain = False
    for j in range(length):
        if t.mountain[path[j]]:
            on_mountain = True
    for i in range(ns + nf):
        u = S[i] if i < ns else F[i - ns]
        for j in range(length):                              # units.move_unit
            g.s.hex_last[path[j]] = t.side[u]
        g.s.unit_cell[u] = path[length - 1]
        g.s.flags[u] |= GF_RETREATED_IN
    for j in range(length):                                  # 10.52
        n_here = 0
        for u in range(t.n_units):
            if on_map(g, u) and g.s.unit_cell[u] == path[j]:
                here[n_here] = <int32_t>u
                n_here += 1
        for i in range(n_here):
            u = here[i]
            if t.side[u] != side and t.is_hq[u] and not displace_hq(g, u):
                eliminate_one(g, ws, <int32_t>u, cause)
    if on_mountain:                                          # 24.41
        n_cars = 0
        for i in range(ns):
            if t.car[S[i]]:
                cars[n_cars] = S[i]
                n_cars += 1
        if n_cars:
            eliminate_units(g, ws, cars, n_cars, cause)
    k = 0
    for i in range(ns):                                      # 6.15
        if on_map(g, S[i]):
            both[k] = S[i]
            k += 1
    retreat_overstack(g, ws, side, both, k, path[length - 1])
    return 1


cdef inline bint _listed(const int32_t* a, Py_ssize_t n, int32_t x) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(n):
        if a[i] == x:
            return True
    return False


cdef inline bint _mountain_on(const Gwe* g, int32_t p, int length) noexcept nogil:
    cdef int j
    for j in range(length):
        if g.t.mountain[g.f.paths[p * MAX_PATH + j]]:
            return True
    return False


cdef void make_stacks(Gwe* g, int enemy) noexcept nogil:
    # combat.stack_at of each defending hex: counted defenders (8.66, 12.15, 12.17), the
    # passengers, the HQs (10.53) and the fortress's steps (11.13)
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef Py_ssize_t j, u, k = 0
    cdef int32_t c
    for j in range(f.m):
        c = f.cells[j]
        f.stk_cell[j] = c
        f.stk_c0[j] = k
        k += counted_defenders(g, c, enemy, f.stk_units + k)
        f.stk_nc[j] = k - f.stk_c0[j]
        f.stk_p0[j] = k
        for u in range(t.n_units):
            if (on_map(g, u) and g.s.unit_cell[u] == c and t.side[u] == enemy
                    and not t.is_hq[u]
                    and not _listed(f.stk_units + f.stk_c0[j], f.stk_nc[j], <int32_t>u)):
                f.stk_units[k] = <int32_t>u
                k += 1
        f.stk_np[j] = k - f.stk_p0[j]
        f.stk_h0[j] = k
        for u in range(t.n_units):
            if on_map(g, u) and g.s.unit_cell[u] == c and t.side[u] == enemy and t.is_hq[u]:
                f.stk_units[k] = <int32_t>u
                k += 1
        f.stk_nh[j] = k - f.stk_h0[j]
        f.stk_fort[j] = fortress_steps(g, c) if fortress_side(g, c) == enemy else 0


cdef int64_t attack_strength2(Gwe* g, int side) noexcept nogil:
    # combat.attack_strength, in halves (play: attacker2, force2): each attacker's unit_attack,
    # halved across a river into a defending hex (5.4), multiplied within range of the burnt
    # depot (19.21-19.22); the cavalry's total cut unless every defending hex holds only
    # cavalry, depots or HQs (12.21)
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef Py_ssize_t i, u, j
    cdef int64_t cav2 = 0, other2 = 0, a2
    cdef int seen = 0
    cdef int32_t c
    cdef bint cut = False
    current_values(g)
    if f.depot >= 0:
        within_range(g, g.s.unit_cell[f.depot], t.artillery_range, f.near_a)
    for i in range(f.n_live):
        u = f.live[i]
        c = g.s.unit_cell[u]
        a2 = attacker2(unit_attack(g, u, f.att_sup[u] != 0),
                       crosses_into(t.nbr, t.halved, c, f.cells, f.m, &seen),
                       f.depot >= 0 and f.near_a[c], t.artillery_multiplier)
        if t.cavalry[u]:
            cav2 += a2
        else:
            other2 += a2
    if cav2:
        for j in range(f.m):                                   # cavalry_at_full
            c = f.cells[j]
            cut = t.fortress_printed[c] and fortress_steps(g, c) > 0
            if not cut:
                for u in range(t.n_units):
                    if on_map(g, u) and g.s.unit_cell[u] == c and not t.cav_full_ok[u]:
                        cut = True
                        break
            if cut:
                break
    return force2(cav2, other2, cut)


cdef int64_t defense_strength(Gwe* g, int side) noexcept nogil:
    # combat.defense_strength: each hex's counted defenders and HQs as they stand now
    # (unit_defense: 5.36, 5.4, 10.53, 23.51), doubled within range of a depot burnt for
    # defence (19.23), and its fortress's own strength, never doubled (11.11)
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef int enemy = 1 - side, d
    cdef int64_t total = 0
    cdef Py_ssize_t j, i, u, k
    cdef int32_t c
    cdef int32_t* here = g.f.chosen
    if f.defense_depot >= 0:
        within_range(g, g.s.unit_cell[f.defense_depot], t.artillery_range, f.near_b)
    for j in range(f.m):
        c = f.cells[j]
        k = counted_defenders(g, c, enemy, here)
        for u in range(t.n_units):
            if on_map(g, u) and g.s.unit_cell[u] == c and t.side[u] == enemy and t.is_hq[u]:
                here[k] = <int32_t>u
                k += 1
        for i in range(k):
            u = here[i]
            if t.is_hq[u]:
                d = hq_strength(g, u, False, c)
            else:
                d = 1 if (f.panic and t.panics[u]) else f.values[3 * u + 1]       # 23.11
                if g.s.unit_status[u] & ST_ENTRAINED:
                    d = d // 2
            d <<= t.doubled[c] + (0 if ((t.is_ah[u] and g.s.unit_step[u] > 0)
                                        or (f.panic and t.panics[u])) else t.trench[c])
            if f.defense_depot >= 0 and f.near_b[c]:
                d *= t.artillery_multiplier
            total += d
        if fortress_side(g, c) == enemy and fortress_steps(g, c) > 0:
            total += fortress_defense(g, c)
    return total


cdef int crt_row(const Gwe* g) except -1:
    # combat.crt_row of the attackers left: German and Austro-Hungarian units together the
    # joint row (17.0), else the row of the worst TCR (8.8); HQs count only when alone
    cdef const GweT* t = g.t
    cdef Py_ssize_t i, u, fighters = 0
    cdef bint ger = False, aus = False
    cdef int worst = -1
    for i in range(g.f.n_live):
        if not t.is_hq[g.f.live[i]]:
            fighters += 1
    for i in range(g.f.n_live):
        u = g.f.live[i]
        if fighters and t.is_hq[u]:
            continue
        ger = ger or t.nationality[u] == t.german
        aus = aus or t.nationality[u] == t.austro
        if t.tcr[u] > worst:
            worst = t.tcr[u]
    if ger and aus:
        return t.crt_joint
    if t.crt_row_of_tcr[worst] < 0:
        raise KeyError(f"the CRT has no odds row for TCR {worst}")
    return t.crt_row_of_tcr[worst]


cdef int die_modifier(const Gwe* g, const int32_t* units, Py_ssize_t n, const int32_t* cells,
                      Py_ssize_t m) noexcept nogil:
    # combat.die_modifier (5.4) of units[n] attacking cells[m]: +n when every attacker
    # attacks only across such hexsides, +n when any attacks across one
    cdef const GweT* t = g.t
    cdef Py_ssize_t k, i
    cdef int mod = 0, seen
    cdef bint every, any_
    for k in range(t.n_die_exclusive):
        seen = 0
        every = True
        for i in range(n):
            every = _all_across(g, g.s.unit_cell[units[i]], t.die_exclusive[k], cells, m,
                                &seen) and every
        if seen and every:
            mod += t.die_exclusive_n[k]
    for k in range(t.n_die_any):
        any_ = False
        seen = 0
        for i in range(n):
            if crosses_into(t.nbr, t.die_any[k], g.s.unit_cell[units[i]], cells, m, &seen):
                any_ = True
        if any_:
            mod += t.die_any_n[k]
    return mod


cdef inline bint _all_across(const Gwe* g, int32_t here, const uint8_t* mask,
                             const int32_t* cells, Py_ssize_t m, int* seen) noexcept nogil:
    # combat.crosses of a unit in here: all of its flags True (none: True)
    cdef Py_ssize_t i
    cdef int d
    for i in range(m):
        for d in range(6):
            if g.t.nbr[6 * <Py_ssize_t>here + d] == cells[i]:
                seen[0] += 1
                if not mask[6 * <Py_ssize_t>here + d]:
                    return False
                break
    return True


cdef int car_shift(const Gwe* g, const int32_t* units, Py_ssize_t n) noexcept nogil:
    # combat.armored_car_shift (24.11-24.12): one column right when the armored car attacks
    # with another unit of its nationality
    cdef const GweT* t = g.t
    cdef Py_ssize_t i, j
    cdef int cars = 0, nat
    for i in range(n):
        if t.car[units[i]]:
            nat = t.nationality[units[i]]
            for j in range(n):
                if t.nationality[units[j]] == nat:
                    cars += 1
            break
    return 1 if cars >= 2 else 0


cdef bint attacker_penalty(const Gwe* g, const int32_t* units, Py_ssize_t n) noexcept nogil:
    # command.command_penalty(units, phasing=True).any() (10.43): an attacker of TCR 3-4 out
    # of Command Control
    cdef Py_ssize_t i
    for i in range(n):
        if g.t.tcr[units[i]] >= 3 and g.s.unit_status[units[i]] & ST_OUT_OF_COMMAND:
            return True
    return False


cdef int units_outside(Gwe* g, SearchWorkspace ws, int side, const int32_t* units,
                       Py_ssize_t k, uint8_t* out) except -1:
    # command._outside: out[i] for each of units[k], whether it is a unit of side on the map,
    # not an HQ, outside the command radius of every friendly HQ that may command it (10.42,
    # 21.4); a supply depot is when it is out of supply, if depots are commanded by supply
    # (21.3). The depots' supply is traced only when a depot is asked, the radii only when
    # another unit is.
    cdef const GweT* t = g.t
    cdef Py_ssize_t i, u, n_h, n_x = 0, h
    cdef int32_t* others = g.work + 2 * t.n_cells + 16 + 3 * t.n_units
    cdef bint any_depot = False, any_rest = False, covered
    for i in range(k):
        out[i] = 0
        u = units[i]
        if not on_map(g, u) or t.side[u] != side or t.is_hq[u]:
            continue
        if t.depots_by_supply and t.is_depot[u]:
            any_depot = True
        else:
            any_rest = True
    if any_depot:
        supply(g, ws, side)
        for i in range(k):
            u = units[i]
            if (on_map(g, u) and t.side[u] == side and not t.is_hq[u]
                    and t.depots_by_supply and t.is_depot[u]):
                out[i] = not g.sup.units[u]
    if any_rest:
        n_h = trace_radii(g, ws, side, others, &n_x)
        for i in range(k):
            u = units[i]
            if (not on_map(g, u) or t.side[u] != side or t.is_hq[u]
                    or (t.depots_by_supply and t.is_depot[u])):
                continue
            covered = False
            for h in range(n_h):
                if covers(g, h, n_h, others, n_x, u):
                    covered = True
                    break
            out[i] = not covered
    return 0


cdef bint defender_penalty(Gwe* g, SearchWorkspace ws, int side, const int32_t* units,
                           Py_ssize_t k) except -1:
    # command.command_penalty(units, phasing=False).any() (10.43): a unit of TCR 3-4 of the
    # defending side out of every command radius (units_outside)
    cdef Py_ssize_t i, n = 0
    cdef int32_t* poor = g.j.poor
    for i in range(k):
        if g.t.tcr[units[i]] >= 3:
            poor[n] = units[i]
            n += 1
    if n == 0:
        return False
    units_outside(g, ws, side, poor, n, g.j.outside)
    for i in range(n):
        if g.j.outside[i]:
            return True
    return False


cdef int hq_fate(Gwe* g, SearchWorkspace ws, int32_t cell, int side) except -1:
    # combat._hq_fate (10.53): HQs left alone in a defending hex are eliminated (10.54)
    cdef const GweT* t = g.t
    cdef int32_t* here = g.f.chosen
    cdef Py_ssize_t u, k = 0
    for u in range(t.n_units):
        if on_map(g, u) and g.s.unit_cell[u] == cell and t.side[u] == side:
            if not t.is_hq[u]:
                return 0
            here[k] = <int32_t>u
            k += 1
    if k:
        eliminate_units(g, ws, here, k, LOSS_COMBAT)
    return 0


cdef int standard_defender(Gwe* g, SearchWorkspace ws, int side, const int32_t* std,
                           Py_ssize_t n_std, int code, int attacker_steps) except -1:
    # combat._standard_defender (8.9): the defender's option, the affected units of a larger
    # force of several hexes (8.9 Explanation), the step losses (fortress steps count two,
    # 11.13; 11.12), 8.66 for passengers, 8.75, the retreats (8.6). std: indices of the
    # stacks with counted defenders or a fortress
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef int enemy = 1 - side, option, d_steps = 0, affected, got, loss, hexes, per_hex
    cdef Py_ssize_t i, j, s, nu = 0, nf = 0, n_cu = 0, n_cf = 0, n_opts, n_cells = 0, nl
    cdef int64_t pick
    cdef bint half, whole, in_cells, moving_ah
    cdef int32_t path[MAX_PATH]
    cdef int32_t* units = g.f.pool                 # the counted defenders
    cdef int32_t forts[8]
    cdef int32_t chosen_forts[8]
    cdef int32_t cells[16]
    cdef int32_t* chosen = g.f.chosen
    cdef int32_t* keep = g.f.opts + 6 * (t.n_units + 1)      # lists kept over eliminations
    for i in range(n_std):
        s = std[i]
        for j in range(f.stk_nc[s]):
            units[nu] = f.stk_units[f.stk_c0[s] + j]
            d_steps += steps_left(g, units[nu])
            nu += 1
        if f.stk_fort[s]:
            forts[nf] = f.stk_cell[s]
            nf += 1
            d_steps += f.stk_fort[s]
    affected = attacker_steps if attacker_steps < d_steps else d_steps
    if code == R_E:
        option = t.def_option[R_E][0]
    else:
        option = t.def_option[code][choose(g, enemy, t.n_def_options[code])]
    half = (option & OPT_HALF) != 0
    whole = (option & OPT_WHOLE) != 0
    hexes = option >> OPT_HEXES_SHIFT
    if d_steps > affected and n_std > 1:                   # the owner picks the affected
        got = 0
        while got < affected:
            n_opts = 0
            for i in range(nu):
                if not _listed(chosen, n_cu, units[i]):
                    keep[n_opts] = units[i]
                    n_opts += 1
            j = n_opts
            for i in range(nf):
                if not _listed(chosen_forts, n_cf, forts[i]):
                    keep[n_opts] = -1 - forts[i]
                    n_opts += 1
            pick = choose(g, enemy, n_opts)
            if pick < j:
                chosen[n_cu] = keep[pick]
                n_cu += 1
                got += steps_left(g, keep[pick])
            else:
                chosen_forts[n_cf] = -1 - keep[pick]
                got += fortress_steps(g, chosen_forts[n_cf])
                n_cf += 1
    else:
        for i in range(nu):
            chosen[i] = units[i]
        n_cu = nu
        for i in range(nf):
            chosen_forts[i] = forts[i]
        n_cf = nf
    for i in range(n_cu):                                  # the hexes of the affected
        if n_cells < 16 and not _listed(cells, n_cells, g.s.unit_cell[chosen[i]]):
            cells[n_cells] = g.s.unit_cell[chosen[i]]
            n_cells += 1
    for i in range(n_cf):
        if n_cells < 16 and not _listed(cells, n_cells, chosen_forts[i]):
            cells[n_cells] = chosen_forts[i]
            n_cells += 1
    # the chosen units, kept apart from the work the losses use
    for i in range(n_cu):
        keep[i] = chosen[i]
    if whole and d_steps <= affected:                      # all affected eliminated
        eliminate_units(g, ws, keep, n_cu, LOSS_COMBAT)
        for i in range(n_cf):
            fortress_lose(g, chosen_forts[i], FORTRESS_STEPS)
    else:
        loss = affected if whole else ((affected + 1) // 2 if half else 0)
        allocate_losses(g, ws, enemy, keep, n_cu, loss, LOSS_COMBAT, chosen_forts, n_cf)
    if hexes:                                              # 11.12-11.13
        for i in range(n_cf):
            per_hex = 0
            for j in range(n_std):
                if f.stk_cell[std[j]] == chosen_forts[i]:
                    per_hex = (f.stk_fort[std[j]] + 1) // 2
            fortress_lose(g, chosen_forts[i], (hexes * per_hex + 1) // 2)
    for i in range(n_std):                                 # 8.66
        s = std[i]
        if not _listed(cells, n_cells, f.stk_cell[s]) or f.stk_np[s] == 0:
            continue
        nl = 0
        for j in range(f.stk_nc[s]):
            if on_map(g, f.stk_units[f.stk_c0[s] + j]):
                nl += 1
        for j in range(f.stk_np[s]):
            keep[j] = f.stk_units[f.stk_p0[s] + j]
        if hexes or nl == 0:
            eliminate_units(g, ws, keep, f.stk_np[s], LOSS_COMBAT)
        elif half:
            loss = 0
            for j in range(f.stk_np[s]):
                loss += steps_left(g, keep[j])
            allocate_losses(g, ws, enemy, keep, f.stk_np[s], (loss + 1) // 2, LOSS_COMBAT,
                            NULL, 0)
    if option & OPT_ELIMINATE_ALL and (code == R_TWO or code == R_THREE) and nu:     # 8.75
        f.holds = True
        for i in range(nu):
            if on_map(g, units[i]) or not f.def_sup[units[i]]:
                f.holds = False
                break
    if hexes:
        for i in range(n_std):
            s = std[i]
            if not _listed(cells, n_cells, f.stk_cell[s]):
                continue
            nl = 0
            for j in range(f.stk_nc[s]):
                if on_map(g, f.stk_units[f.stk_c0[s] + j]):
                    keep[nl] = f.stk_units[f.stk_c0[s] + j]
                    nl += 1
            if nl == 0:
                continue
            for j in range(f.stk_nh[s]):
                keep[nl + j] = f.stk_units[f.stk_h0[s] + j]
            moving_ah = False
            for j in range(nl):
                if t.is_ah[keep[j]]:
                    moving_ah = True
            if retreat_stack(g, ws, keep, nl, hexes, keep + nl, f.stk_nh[s], LOSS_RETREAT,
                             False, path):
                if f.stk_path_len[s] == 0:                 # the first path a hex saw
                    f.stk_path_len[s] = hexes
                    for j in range(hexes):
                        f.stk_path[s][j] = path[j]
                if moving_ah and not _listed(f.ah_from, f.n_ah_from, f.stk_cell[s]):
                    f.ah_from[f.n_ah_from] = f.stk_cell[s]
                    f.n_ah_from += 1
    return 0


cdef int panic_defenders(Gwe* g, SearchWorkspace ws, int code) except -1:
    # combat._defender_result's panic (23.1): in each defending hex the units subject to
    # panic retreat (panic.panic_retreat: PANIC_RETREAT hexes, 23.13; with the HQs when
    # nothing else defends there, 10.53), its passengers are eliminated (8.66), and the rest
    # stay to take the result (8.9)
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef int32_t* pan = g.f.opts + 6 * (t.n_units + 1)
    cdef int32_t* fol = pan + (t.n_units + 1) // 2
    cdef int32_t* keep = g.f.opts + 14 * (t.n_units + 1)
    cdef Py_ssize_t j, i, n_pan, n_rest, n_fol, x
    cdef int hexes = 4 if code == R_E else code
    cdef int32_t path[MAX_PATH]
    for j in range(f.m):
        n_pan = 0
        n_rest = 0
        for i in range(f.stk_nc[j]):
            x = f.stk_units[f.stk_c0[j] + i]
            if t.panics[x]:
                pan[n_pan] = <int32_t>x
                n_pan += 1
            else:
                keep[n_rest] = <int32_t>x
                n_rest += 1
        if n_pan == 0:
            continue
        n_fol = 0
        if n_rest == 0 and not f.stk_fort[j]:
            for i in range(f.stk_nh[j]):
                fol[i] = f.stk_units[f.stk_h0[j] + i]
            n_fol = f.stk_nh[j]
        if panic_retreat(g, ws, pan, n_pan, hexes, fol, n_fol, path):
            f.stk_path_len[j] = hexes
            f.stk_panicked[j] = True
            for i in range(hexes):
                f.stk_path[j][i] = path[i]
            f.ah_from[f.n_ah_from] = f.stk_cell[j]
            f.n_ah_from += 1
        for i in range(f.stk_np[j]):                    # 8.66, after the panic retreat
            keep[n_rest + i] = f.stk_units[f.stk_p0[j] + i]
        eliminate_units(g, ws, keep + n_rest, f.stk_np[j], LOSS_COMBAT)
        f.stk_np[j] = 0
        if n_fol:
            f.stk_nh[j] = 0
        for i in range(n_rest):                         # the rest stay counted
            f.stk_units[f.stk_c0[j] + i] = keep[i]
        f.stk_nc[j] = n_rest
    return 0


cdef int panic_retreat(Gwe* g, SearchWorkspace ws, const int32_t* stack, Py_ssize_t n,
                       int hexes, const int32_t* followers, Py_ssize_t n_followers,
                       int32_t* path) except -1:
    # panic.panic_retreat (23.12-23.15, 23.24): the units marked panicked retreat hexes
    # hexes, through open enemy zones of control when no other path exists; each division
    # then loses a step; 1 with the path in path, 0 when it had none and was eliminated
    cdef Py_ssize_t i
    cdef int moved
    for i in range(n):
        g.s.flags[stack[i]] |= GF_PANICKED
    moved = retreat_stack(g, ws, stack, n, hexes, followers, n_followers, LOSS_PANIC, True,
                          path)
    if moved:
        for i in range(n):
            if on_map(g, stack[i]) and g.t.division[stack[i]]:
                combat_lose_steps(g, ws, stack[i], 1, LOSS_PANIC)
    return moved


cdef int retreat_one(Gwe* g, SearchWorkspace ws, const int32_t* stack, Py_ssize_t n,
                     int32_t* path) except -1:
    # panic._retreat_one (23.21, 23.25): one hex of panic retreat, with the HQs of the hex
    # when the stack is all its units other than HQs (10.53); 1 when it retreated
    cdef const GweT* t = g.t
    cdef int32_t* hqs = g.f.opts + 7 * (t.n_units + 1)
    cdef Py_ssize_t u, nh = 0
    cdef int32_t cell
    cdef int side
    if n == 0:
        return 0
    cell = g.s.unit_cell[stack[0]]
    side = t.side[stack[0]]
    for u in range(t.n_units):
        if (on_map(g, u) and g.s.unit_cell[u] == cell and t.side[u] == side
                and not t.is_hq[u] and not _listed(stack, n, <int32_t>u)):
            nh = -1
            break
    if nh == 0:
        for u in range(t.n_units):
            if on_map(g, u) and g.s.unit_cell[u] == cell and t.side[u] == side and t.is_hq[u]:
                hqs[nh] = <int32_t>u
                nh += 1
    else:
        nh = 0
    return retreat_stack(g, ws, stack, n, 1, hqs, nh, LOSS_PANIC, True, path)


cdef inline bint _live(const Gwe* g, Py_ssize_t x) noexcept nogil:
    return on_map(g, x) and not g.s.flags[x] & GF_PANICKED


cdef int contagion(Gwe* g, SearchWorkspace ws, const int32_t* vacated,
                   Py_ssize_t n_vac) except -1:
    # panic.contagion (23.21-23.26) after a combat of the panic turn in which
    # Austro-Hungarian units retreated from the hexes g.f.ah_from: the units of the snapshot
    # next to those hexes (not defenders of the combat) retreat one hex, a division losing a
    # step first, stack by stack in the order of their hexes; then units in hexes an
    # Austro-Hungarian retreat passes into or through (not next to them at the moment of
    # combat) retreat one hex; each unit panics once; never into the hexes of the Russian
    # advance (the vacated hexes and the panic paths, 23.22). Then 23.23's hexes left
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef Py_ssize_t nu1 = t.n_units + 1, i, j, x, u, k, n_st, head = 0, tail = 0
    cdef int32_t* group = g.f.steps                   # each unit's hex of contagion, or -1
    cdef int32_t* stack = g.f.opts + 6 * nu1
    cdef int32_t* before = g.f.opts + 14 * nu1        # 23.23: the hexes before
    cdef flag_t* near = g.f.zoc
    cdef flag_t* src = g.f.near_b
    cdef int32_t c, v, prev
    cdef int32_t* q
    cdef int d, length
    cdef int32_t path[MAX_PATH]
    memset(near, 0, t.n_cells)
    memset(src, 0, t.n_cells)
    for i in range(f.n_ah_from):
        src[f.ah_from[i]] = 1
        for d in range(6):
            v = t.nbr[6 * <Py_ssize_t>f.ah_from[i] + d]
            if v >= 0:
                near[v] = 1
    f.n_forbid = 0
    for i in range(n_vac):
        f.forbid[f.n_forbid] = vacated[i]
        f.n_forbid += 1
    for j in range(f.m):
        if f.stk_panicked[j]:
            for i in range(f.stk_path_len[j]):
                if not _listed(f.forbid, f.n_forbid, f.stk_path[j][i]):
                    f.forbid[f.n_forbid] = f.stk_path[j][i]
                    f.n_forbid += 1
    for u in range(t.n_units):
        before[u] = g.s.unit_cell[u]
        group[u] = -1
        c = f.snap[u]
        if c >= 0 and near[c] and not src[c] and _live(g, u) and g.s.unit_cell[u] == c:
            group[u] = c
    # 1. contagion proper, hex by hex (ascending)
    prev = -1
    while True:
        c = -1
        for u in range(t.n_units):
            if group[u] > prev and (c < 0 or group[u] < c):
                c = group[u]
        if c < 0:
            break
        prev = c
        n_st = 0
        for u in range(t.n_units):
            if group[u] == c:
                stack[n_st] = <int32_t>u
                n_st += 1
        for i in range(n_st):
            g.s.flags[stack[i]] |= GF_PANICKED
            if t.division[stack[i]]:
                combat_lose_steps(g, ws, stack[i], 1, LOSS_PANIC)
        k = 0
        for i in range(n_st):
            if on_map(g, stack[i]):
                stack[k] = stack[i]
                k += 1
        if retreat_one(g, ws, stack, k, path):
            _push_path(g, &tail, path, 1)
    for i in range(f.n_ah_from):
        for j in range(f.m):
            if f.stk_cell[j] == f.ah_from[i] and f.stk_path_len[j]:
                _push_path(g, &tail, f.stk_path[j], f.stk_path_len[j])
    # 2. 23.25: the hexes an Austro-Hungarian retreat passes into or through
    while head < tail:
        q = f.queue_paths + head * (MAX_PATH + 1)
        head += 1
        length = q[0]
        for i in range(length):
            c = q[1 + i]
            k = 0
            for u in range(t.n_units):
                if (on_map(g, u) and g.s.unit_cell[u] == c and f.snap[u] >= 0
                        and not near[f.snap[u]] and _live(g, u)):
                    stack[k] = <int32_t>u
                    k += 1
            if k == 0:
                continue
            for j in range(k):
                g.s.flags[stack[j]] |= GF_PANICKED
            if retreat_one(g, ws, stack, k, path):
                _push_path(g, &tail, path, 1)
    f.n_forbid = 0
    for u in range(t.n_units):                             # 23.23
        if f.snap[u] >= 0 and g.s.unit_cell[u] != before[u] \
                and not _listed(f.cells, f.m, before[u]):
            f.left_by[before[u]] = 1
    return 0


cdef void _push_path(Gwe* g, Py_ssize_t* tail, const int32_t* path, int length) noexcept nogil:
    # a path onto contagion's queue
    cdef int32_t* q = g.f.queue_paths + tail[0] * (MAX_PATH + 1)
    cdef int i
    q[0] = length
    for i in range(length):
        q[1 + i] = path[i]
    tail[0] += 1


cdef int resolve_attack(Gwe* g, SearchWorkspace ws, int side) except -1:
    # combat.resolve_attack of the attack declared in g.f, outside the panic of 23.0 (see
    # GweCore.resolve_declared): 8.14's marks; supply now (9.11), 11.22; 9.23's attrition;
    # the strengths, row, column and shifts (8.4, 10.21, 21.1, 24.11); the die and its
    # modifiers (5.4); 10.43; the defender's result (8.54), then the attacker's; the advance
    # (8.7); 19.21's burnt depots
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef int enemy = 1 - side, row, base, col, n_cols, die, a_res, d_res
    cdef int attacker_steps = 0, defender_steps = 0, affected, loss
    cdef Py_ssize_t i, j, u, x, n_std = 0, n_vac = 0, k, n_counted = 0
    cdef int64_t attack2, defense, pick
    cdef int32_t std[8]
    cdef int32_t vacated[8]
    cdef int32_t c
    cdef const int8_t* res
    cdef int32_t* counted = g.f.pool
    cdef bint hungry, gone
    make_stacks(g, enemy)
    for i in range(f.na):
        u = f.e_units[f.att[i]]
        f.live[i] = <int32_t>u
        g.s.flags[u] |= GF_ATTACKED | GF_IN_COMBAT_LAST_TURN
    for j in range(f.m):
        for i in range(f.stk_nc[j] + f.stk_np[j] + f.stk_nh[j]):
            g.s.flags[f.stk_units[f.stk_c0[j] + i]] |= GF_DEFENDED | GF_IN_COMBAT_LAST_TURN
        if f.stk_fort[j]:
            g.s.fortress[4 * <Py_ssize_t>f.stk_cell[j] + F_ATTACKED] = 1
    f.panic = side == SIDE_ALLIED and g.s.turn[0] == t.first_turn          # 23.0
    f.n_forbid = 0
    f.n_ah_from = 0
    for j in range(f.m):
        f.stk_path_len[j] = 0
        f.stk_panicked[j] = False
    if f.panic:                                            # panic.adjacent_snapshot
        for u in range(t.n_units):
            f.snap[u] = g.s.unit_cell[u] if (t.panics[u] and on_map(g, u)
                                             and not g.s.flags[u] & GF_PANICKED) else -1
    supply(g, ws, side)
    for u in range(t.n_units):
        f.att_sup[u] = g.sup.units[u]
    supply(g, ws, enemy)
    for u in range(t.n_units):
        f.def_sup[u] = g.sup.units[u]
    for j in range(f.m):                                   # 11.22: one unit feeds off it
        if f.stk_fort[j]:
            for i in range(f.stk_nc[j]):
                u = f.stk_units[f.stk_c0[j] + i]
                if not f.def_sup[u]:
                    f.def_sup[u] = 1
                    break
    for i in range(f.na):                                  # 9.23
        u = f.live[i]
        if not t.is_hq[u] and not f.att_sup[u]:
            roll_attrition(g, ws, u)
    f.n_live = 0
    for i in range(f.na):
        if on_map(g, f.live[i]):
            f.live[f.n_live] = f.live[i]
            f.n_live += 1
    f.holds = False
    if f.n_live == 0:
        burn_depots(g)
        return 0
    attack2 = attack_strength2(g, side)
    defense = defense_strength(g, side)
    for j in range(f.m):                                   # 5.36: detrained when attacked
        for i in range(f.stk_nc[j]):
            g.s.unit_status[f.stk_units[f.stk_c0[j] + i]] &= ~ST_ENTRAINED
        for i in range(f.stk_nh[j]):
            g.s.unit_status[f.stk_units[f.stk_h0[j] + i]] &= ~ST_ENTRAINED
    row = crt_row(g)
    n_cols = t.crt_row_len[row]
    if defense <= 0:
        base = n_cols - 1
    else:
        base = -1
        for i in range(n_cols):
            if odds_reached(attack2, defense, t.crt_ratios + 2 * (row * t.crt_cols + i)):
                base = <int>i
    col = ((base if base > 0 else 0) + f.shift_right + car_shift(g, f.live, f.n_live)   # 24.11
           - f.shift_left)
    if col > n_cols - 1:
        col = n_cols - 1
    if col < 0:
        col = 0
    die = roll(&g.dice[DS_COMBAT]) + die_modifier(g, f.live, f.n_live, f.cells, f.m)
    if die < t.crt_die_min:
        die = t.crt_die_min
    if die > t.crt_die_max:
        die = t.crt_die_max
    res = t.crt_results + 2 * (t.crt_die_row[die] * t.crt_cols + col)
    a_res = res[0]
    d_res = res[1]
    if a_res == R_ONE and attacker_penalty(g, f.live, f.n_live):          # 10.43
        a_res = R_TWO
    for j in range(f.m):
        for i in range(f.stk_nc[j]):
            counted[n_counted] = f.stk_units[f.stk_c0[j] + i]
            n_counted += 1
    if (n_counted and d_res != R_NONE and d_res != R_E
            and defender_penalty(g, ws, enemy, counted, n_counted)):
        d_res += 1
    for i in range(f.n_live):
        if not t.is_hq[f.live[i]]:
            attacker_steps += steps_left(g, f.live[i])
    for i in range(n_counted):
        defender_steps += steps_left(g, counted[i])
    for j in range(f.m):
        defender_steps += f.stk_fort[j]
    affected = attacker_steps if attacker_steps < defender_steps else defender_steps
    # the defender's result (combat._defender_result)
    memset(f.left_by, 0, t.n_cells)
    if d_res != R_NONE:
        if f.panic:
            panic_defenders(g, ws, d_res)
        for j in range(f.m):
            if f.stk_nc[j] or f.stk_fort[j]:
                std[n_std] = <int32_t>j
                n_std += 1
        if n_std:
            standard_defender(g, ws, side, std, n_std, d_res, attacker_steps)
        for j in range(f.m):
            hq_fate(g, ws, f.stk_cell[j], enemy)
        for j in range(f.m):
            c = f.stk_cell[j]
            gone = not fortress_standing(g, enemy, c)
            for u in range(t.n_units):
                if on_map(g, u) and g.s.unit_cell[u] == c and t.side[u] == enemy:
                    gone = False
                    break
            if gone:
                vacated[n_vac] = c
                n_vac += 1
        if f.panic and f.n_ah_from:                          # 23.21-23.26
            contagion(g, ws, vacated, n_vac)
    # the attacker's result (combat._attacker_result)
    if a_res != R_NONE:
        loss = affected if t.attacker_loses_all[a_res] else (affected + 1) // 2
        k = 0
        for i in range(f.n_live):
            if not t.is_hq[f.live[i]]:
                f.chosen[k] = f.live[i]
                k += 1
        allocate_losses(g, ws, side, f.chosen, k, loss, LOSS_COMBAT, NULL, 0)
    if not f.holds and n_vac:
        advance(g, ws, side, vacated, n_vac)
    burn_depots(g)
    return 0


cdef int advance(Gwe* g, SearchWorkspace ws, int side, const int32_t* vacated,
                 Py_ssize_t n_vac) except -1:
    # combat._advance (8.71-8.73, 10.52, 23.16): surviving attackers may advance into each
    # vacated hex within the stacking limit, and after panicking units along their retreat
    # path, stopping before a hex of enemy units other than HQs or one contagion emptied
    # (23.23); one at a time as the attacker picks, or stop; an advanced unit is marked;
    # enemy HQs alone in a hex entered displace (or are eliminated)
    cdef const GweT* t = g.t
    cdef Fight* f = &g.f
    cdef int32_t* movers = g.f.pool
    cdef int32_t* here = g.f.chosen
    cdef Py_ssize_t i, j, k, n_m = f.n_live, n_opt, n_here, u, n_routes = 0, r
    cdef int64_t pick
    cdef int32_t x, c, v
    cdef int length
    cdef Py_ssize_t i2
    cdef bint blocked_known = False
    for i in range(n_vac):
        v = vacated[i]
        r = _route_of(f, n_routes, v)
        if r < 0:
            r = n_routes
            n_routes += 1
        f.route_dest[r] = v
        f.route_len[r] = 1
        f.route[r][0] = v
        for j in range(f.m):
            if f.stk_cell[j] != v or not f.stk_panicked[j]:
                continue
            if not blocked_known:
                enemy_blocks(g, side, g.f.bad)
                blocked_known = True
            length = 1
            for k in range(f.stk_path_len[j]):
                c = f.stk_path[j][k]
                if g.f.bad[c] or f.left_by[c]:
                    break
                length += 1
                if _route_of(f, n_routes, c) < 0:
                    if n_routes == MAX_ROUTES:
                        raise RuntimeError("more hexes of advance than the core holds")
                    f.route_dest[n_routes] = c
                    f.route_len[n_routes] = length
                    f.route[n_routes][0] = v
                    for i2 in range(1, length):
                        f.route[n_routes][i2] = f.stk_path[j][i2 - 1]
                    n_routes += 1
    for i in range(n_m):
        movers[i] = f.live[i]
    while True:
        n_opt = 0
        for i in range(n_m):
            x = movers[i]
            if not on_map(g, x):
                continue
            for r in range(n_routes):
                if stacking_in(g, f.route_dest[r]) + t.stacking[x] <= t.stack_limit:
                    f.adv_opts[2 * n_opt] = x
                    f.adv_opts[2 * n_opt + 1] = <int32_t>r
                    n_opt += 1
        if n_opt == 0:
            return 0
        pick = choose(g, side, n_opt + 1)
        if pick == 0:
            return 0
        x = f.adv_opts[2 * (pick - 1)]
        r = f.adv_opts[2 * (pick - 1) + 1]
        for k in range(f.route_len[r]):                  # units.move_unit
            g.s.hex_last[f.route[r][k]] = t.side[x]
        g.s.unit_cell[x] = f.route_dest[r]
        g.s.flags[x] |= GF_ADVANCED
        j = 0
        for i in range(n_m):
            if movers[i] != x:
                movers[j] = movers[i]
                j += 1
        n_m = j
        for k in range(f.route_len[r]):
            c = f.route[r][k]
            n_here = 0
            for u in range(t.n_units):
                if on_map(g, u) and g.s.unit_cell[u] == c:
                    here[n_here] = <int32_t>u
                    n_here += 1
            for i in range(n_here):
                u = here[i]
                if t.side[u] != side and t.is_hq[u] and not displace_hq(g, u):
                    eliminate_one(g, ws, <int32_t>u, LOSS_COMBAT)


cdef inline Py_ssize_t _route_of(const Fight* f, Py_ssize_t n, int32_t cell) noexcept nogil:
    cdef Py_ssize_t r
    for r in range(n):
        if f.route_dest[r] == cell:
            return r
    return -1


cdef void burn_depots(Gwe* g) noexcept nogil:
    # combat._burn (19.21): the depots used for massed artillery leave play, to the pool, not
    # eliminated; their steps and Stacking Points booked under massed_artillery
    cdef int32_t d
    cdef int k
    for k in range(2):
        d = g.f.depot if k == 0 else g.f.defense_depot
        if d < 0 or not on_map(g, d):
            continue
        g.s.steps_lost[g.t.side[d] * N_LOSS_CAUSES + LOSS_MASSED_ARTILLERY] += steps_left(g, d)
        g.s.sp_lost[g.t.side[d] * N_LOSS_CAUSES + LOSS_MASSED_ARTILLERY] += g.t.stacking[d]
        g.s.unit_status[d] = ST_POOL
        g.s.unit_cell[d] = -1
        g.s.unit_step[d] = 0


# --- the Reinforcement Segment (14.0, 20.2, 25.16, 26.34) --------------------------------

cdef void sync_rail_phase(Gwe* g, int side) noexcept nogil:
    # rail.sync_rail_phase: the side's rail counts started afresh when they belong to an
    # earlier Game-Turn (start_rail_phase)
    if g.s.rail_turn[side] != g.s.turn[0]:
        start_rail_phase(g, side)


cdef void start_rail_phase(Gwe* g, int side) noexcept nogil:
    # rail.start_rail_phase: the side's rail counts afresh (5.31, 18.21, 18.32)
    cdef Py_ssize_t u
    g.s.rail_turn[side] = g.s.turn[0]
    g.s.rail_used[side] = 0
    g.s.rail_forced[side] = 0
    memset(g.s.track_used, 0, g.t.n_cells * 12 * sizeof(int16_t))
    for u in range(g.t.n_units):
        if g.t.side[u] == side:
            g.s.rail_hexes[u] = 0
            g.s.flags[u] &= ~(GF_USED_RAIL | GF_RAIL_COUNTED)


cdef bint has_room(Gwe* g, Py_ssize_t u) noexcept nogil:
    # rail.has_room: counted toward Rail Capacity already, never (HQs, 5.31), or it fits
    cdef int side = g.t.side[u]
    if g.t.is_hq[u] or g.s.flags[u] & GF_RAIL_COUNTED:
        return True
    sync_rail_phase(g, side)
    return g.t.stacking[u] <= g.t.rail_capacity[side] - g.s.rail_used[side]


cdef void charge_capacity(Gwe* g, Py_ssize_t u) noexcept nogil:
    # rail.charge_capacity: the unit counted toward its side's Rail Capacity, once (5.31)
    cdef int side = g.t.side[u]
    sync_rail_phase(g, side)
    if not g.t.is_hq[u] and not g.s.flags[u] & GF_RAIL_COUNTED:
        g.s.rail_used[side] += g.t.stacking[u]
        g.s.flags[u] |= GF_RAIL_COUNTED


cdef void place_unit(Gwe* g, Py_ssize_t u, int32_t cell) noexcept nogil:
    # reinforcements._place (14.11, 14.12, 20.11): on the map, entrained where a friendly rail
    # line runs and then counted toward Rail Capacity
    cdef int side = g.t.side[u]
    cdef bint entrained = g.t.friendly_rail[side][cell] != 0
    g.s.unit_cell[u] = cell
    g.s.unit_status[u] = ST_ON_MAP | (ST_ENTRAINED if entrained else 0)
    g.s.unit_step[u] = 0
    g.s.hex_last[cell] = <int8_t>side
    g.s.mp_spent[u] = 0
    g.s.rail_hexes[u] = 0
    g.s.flags[u] = 0
    if entrained:
        charge_capacity(g, u)


cdef inline int hex_distance(const GweT* t, int32_t a, int32_t b) noexcept nogil:
    cdef int dq = t.q[a] - t.q[b], dr = t.r[a] - t.r[b]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


cdef Py_ssize_t alternate_hexes(Gwe* g, int side, Py_ssize_t unit, const flag_t* blocked,
                                int32_t* out) noexcept nogil:
    # reinforcements.alternate_hexes (14.22): for each scheduled entry hex, the nearest
    # unblocked hex of the side's map edge toward the nearest friendly unit (among the edge
    # hexes no farther from that unit than the scheduled hex, the nearest the scheduled hex,
    # then the unit); their union, ascending
    cdef const GweT* t = g.t
    cdef flag_t* friend_at = g.mask_d
    cdef flag_t* chosen = g.f.near_a
    cdef Py_ssize_t u, i, e, k = 0, n = t.n_cells
    cdef int32_t h, c, f, best_dh, best_df, dh_min, d
    cdef bint any_friend = False
    memset(friend_at, 0, n)
    for u in range(t.n_units):
        if t.side[u] == side and on_map(g, u):
            friend_at[g.s.unit_cell[u]] = 1
            any_friend = True
    if not any_friend:
        return 0
    memset(chosen, 0, n)
    for i in range(t.entry_first[unit], t.entry_first[unit + 1]):
        h = t.entry_cells[i]
        dh_min = -1                                        # the nearest friendly hexes to h
        for c in range(n):
            if friend_at[c]:
                d = hex_distance(t, h, c)
                if dh_min < 0 or d < dh_min:
                    dh_min = d
        # df[x] = the least distance from x to a nearest friend; ok: df[edge] <= df[h]
        best_dh = -1
        best_df = -1
        for e in range(t.n_edge[side]):
            c = t.edge[side][e]
            if blocked[c] or t.water[c]:
                continue
            if _df(g, friend_at, h, dh_min, c) > _df(g, friend_at, h, dh_min, h):
                continue
            d = hex_distance(t, h, c)
            f = _df(g, friend_at, h, dh_min, c)
            if best_dh < 0 or d < best_dh or (d == best_dh and f < best_df):
                best_dh = d
                best_df = f
        if best_dh < 0:
            continue
        for e in range(t.n_edge[side]):
            c = t.edge[side][e]
            if blocked[c] or t.water[c]:
                continue
            if _df(g, friend_at, h, dh_min, c) > _df(g, friend_at, h, dh_min, h):
                continue
            if hex_distance(t, h, c) == best_dh and _df(g, friend_at, h, dh_min, c) == best_df:
                chosen[c] = 1
    for c in range(n):
        if chosen[c]:
            out[k] = c
            k += 1
    return k


cdef int _df(Gwe* g, const flag_t* friend_at, int32_t h, int dh_min, int32_t x) noexcept nogil:
    # alternate_hexes' df[x]: the least distance from x to a friendly hex nearest h
    cdef Py_ssize_t c
    cdef int best = -1, d
    for c in range(g.t.n_cells):
        if friend_at[c] and hex_distance(g.t, h, c) == dh_min:
            d = hex_distance(g.t, x, c)
            if best < 0 or d < best:
                best = d
    return best


cdef int reinforcement_segment(Gwe* g, int side) except -1:
    # reinforcements.reinforcement_segment (4.0 A1b) for a random player: the depots due
    # (20.2), each entered at an open entry hex with Rail Capacity for it or declined; then, in
    # manifest order, each unit due now or delayed (14.2): entered, delayed, or withheld for
    # good (25.16); an HQ replaced by a Better Commanders HQ leaves play (26.34)
    cdef const GweT* t = g.t
    cdef flag_t* blocked = g.mask_c
    cdef int32_t* pool = g.f.pool
    cdef int32_t* opts = g.f.hexlist
    cdef Py_ssize_t u, i, k, n_pool = 0, n_opts, n_open
    cdef int turn = g.s.turn[0], n, on_map_depots = 0, vp
    cdef int64_t pick
    cdef int32_t c
    sync_rail_phase(g, side)
    occupied(g, 1 - side, True, g.mask_a)                  # blocked_entry (14.21)
    controlled(g, 1 - side, blocked)
    for c in range(t.n_cells):
        blocked[c] = blocked[c] or g.mask_a[c]
    # the depots (_receive_depots; depot_pool: the fresh ones, then those used)
    for u in range(t.n_units):
        if t.side[u] == side and t.is_depot[u] and on_map(g, u):
            on_map_depots += 1
    for k in range(2):
        for u in range(t.n_units):
            if (t.side[u] != side or not t.is_depot[u] or not t.playable[u]
                    or g.s.unit_status[u] & (ST_WITHHELD | ST_ON_MAP)):
                continue
            if (k == 0 and g.s.unit_status[u] & ST_PENDING) or (
                    k == 1 and g.s.unit_status[u] & (ST_ELIMINATED | ST_NOT_IN_PLAY | ST_POOL)):
                pool[n_pool] = <int32_t>u
                n_pool += 1
    n = t.depots_due[side][turn]
    if t.depots_most[side] - on_map_depots < n:
        n = t.depots_most[side] - on_map_depots
    if n_pool < n:
        n = <int>n_pool
    for k in range(n if n > 0 else 0):
        u = pool[k]
        n_opts = 0
        if has_room(g, u):
            for i in range(t.entry_first[u], t.entry_first[u + 1]):
                if not blocked[t.entry_cells[i]]:
                    opts[n_opts] = t.entry_cells[i]
                    n_opts += 1
        pick = choose(g, side, n_opts + 1)                 # ... then "decline"
        if pick < n_opts:
            place_unit(g, u, opts[pick])
            g.s.depots_received[side] += 1
    # the units due (due_units, _offer)
    for u in range(t.n_units):
        if (t.side[u] != side or not g.s.unit_status[u] & ST_PENDING or t.due_turn[u] < 0
                or t.due_turn[u] > turn):
            continue
        if t.replaced[u]:
            g.s.unit_status[u] = ST_NOT_IN_PLAY                                 # 26.34
            continue
        n_open = 0
        for i in range(t.entry_first[u], t.entry_first[u + 1]):
            if not blocked[t.entry_cells[i]]:
                n_open += 1
        n_opts = 0
        if n_open:
            if has_room(g, u):
                for i in range(t.entry_first[u], t.entry_first[u + 1]):
                    if not blocked[t.entry_cells[i]]:
                        opts[n_opts] = t.entry_cells[i]
                        n_opts += 1
        elif g.s.flags[u] & GF_ENTRY_BLOCKED:
            k = alternate_hexes(g, side, u, blocked, opts)
            if not has_room(g, u):                         # only those off the rail
                n_opts = 0
                for i in range(k):
                    if not t.friendly_rail[side][opts[i]]:
                        opts[n_opts] = opts[i]
                        n_opts += 1
            else:
                n_opts = k
        else:
            g.s.flags[u] |= GF_ENTRY_BLOCKED               # 14.22: delayed one Game-Turn
        vp = t.withhold_vp[turn] if side == SIDE_CENTRAL else NO_VP
        pick = choose(g, side, n_opts + 1 + (1 if vp != NO_VP else 0))
        if pick < n_opts:
            place_unit(g, u, opts[pick])
        elif pick == n_opts + 1:                            # withheld (25.16)
            g.s.unit_status[u] = ST_WITHHELD
            add_vp(g, VP_WITHHELD, vp)
    return 0


# --- 10.52 after a move, 6.14 at the end of a phase ----------------------------------------

cdef Py_ssize_t displace_lone_hqs(Gwe* g, int moving_side, int32_t* out) except -1:
    # command.displace_lone_hqs (10.52): every HQ of the side not moving, not stacked with a
    # friendly unit other than HQs, with an enemy unit other than an HQ next to it, displaces
    # now (displace_hq; one that cannot stays); for a random owner, (hq, displaced) pairs
    # into out and how many (0 for an owner asked in Python)
    cdef const GweT* t = g.t
    cdef int other = 1 - moving_side
    cdef flag_t* enemy = g.mask_d
    cdef flag_t* guarded = g.f.near_b
    cdef int32_t* hqs = g.f.opts + 4 * (t.n_units + 1)
    cdef Py_ssize_t u, k = 0, n = 0, i
    cdef int d
    cdef int32_t c, v
    cdef bint threatened
    occupied(g, moving_side, False, enemy)
    for u in range(t.n_units):
        if t.side[u] != other or not t.is_hq[u] or not on_map(g, u):
            continue
        c = g.s.unit_cell[u]
        threatened = False
        for d in range(6):
            v = t.nbr[6 * <Py_ssize_t>c + d]
            if v >= 0 and enemy[v]:
                threatened = True
                break
        if threatened:
            hqs[k] = <int32_t>u
            k += 1
    if k == 0:
        return 0
    occupied(g, other, False, guarded)
    if g.level[other] != LEVEL_RANDOM:
        # a Python owner answers where each goes (_ask_displace), and its code may reach the
        # scratch the list is in: the HQs to displace kept apart first (a displacement moves
        # only that HQ, so the hexes guarded stay as they are)
        todo = [int(hqs[i]) for i in range(k) if not guarded[g.s.unit_cell[hqs[i]]]]
        for u in todo:
            displace_hq(g, u)
        return 0                        # (the pairs are for a random owner: GweCore asks)
    for i in range(k):
        if guarded[g.s.unit_cell[hqs[i]]]:
            continue
        out[2 * n] = hqs[i]
        out[2 * n + 1] = displace_hq(g, hqs[i])
        n += 1
    return n


cdef bint enforce_stacking(Gwe* g, SearchWorkspace ws) except -1:
    # stacking.enforce_stacking (6.14, 16.0): for each side, in each hex where its units hold
    # more Stacking Points than the limit (ascending), the owner eliminates units of his
    # choice among his units there with Stacking Points, one at a time, until within it
    # (25.2 victory points, 25.13); False, nothing done, when such a hex is a player's who
    # does not pick at random
    cdef const GweT* t = g.t
    cdef int32_t* points = g.f.points
    cdef int32_t* cells = g.f.hexlist
    cdef int32_t* options = g.f.chosen
    cdef Py_ssize_t u, c, n_cells, i, n
    cdef int side, total
    cdef bint sur, over = False
    sync_occupancy(g)                  # the hexes over the limit, counted as units move
    for side in range(2):
        if g.occ.n_over[side] > 0:
            if g.level[side] != LEVEL_RANDOM:
                return False
            over = True
    if not over:
        return True
    for side in range(2):
        sync_occupancy(g)
        memcpy(points, g.occ.points + side * t.n_cells, t.n_cells * sizeof(int32_t))
        n_cells = 0
        for c in range(t.n_cells):
            if points[c] > t.stack_limit:
                cells[n_cells] = <int32_t>c
                n_cells += 1
        for i in range(n_cells):
            while True:                        # stacking._eliminate_until_within
                total = 0
                n = 0
                for u in range(t.n_units):
                    if on_map(g, u) and g.s.unit_cell[u] == cells[i] and t.side[u] == side:
                        total += t.stacking[u]
                        if t.stacking[u] > 0:
                            options[n] = <int32_t>u
                            n += 1
                if total <= t.stack_limit or n == 0:
                    break
                u = options[choose(g, side, n)]
                sur = is_surrounded(g, ws, u) == 1
                eliminate_unit(g, u, LOSS_STACKING, sur)
    return True


# --- the Movement Segment (5.0, 10.52, 23.52, 24.42) ---------------------------------------

cdef bint _survives(void* ctx, Py_ssize_t u, int hexes, int spent) noexcept nogil:
    # rail.reduced_ah_move_check after each hex a reduced Austro-Hungarian unit enters (23.52),
    # or rail.entrain's roll (23.53, hexes -1): it rolls once it has entered more than the safe
    # hexes and spent more than the safe points, and is eliminated on the dice of the turn
    cdef Gwe* g = <Gwe*>ctx
    cdef const GweT* t = g.t
    cdef uint32_t rolls
    if hexes >= 0 and (hexes <= t.ah_safe_hexes or spent <= t.ah_safe_mp):
        return True
    rolls = t.ah_rolls_opening if g.s.turn[0] == t.first_turn else t.ah_rolls_later
    if (rolls >> roll(&g.dice[DS_BREAKDOWN])) & 1:
        eliminate_unit(g, u, LOSS_BREAKDOWN, False)
        return False
    return True


cdef void _stopped(void* ctx, Py_ssize_t u) noexcept nogil:
    # rail.armored_car_breakdown when a unit the kernel would hand back stops (24.42): an
    # armored car that spent more than the safe points rolls on the row of the most points at
    # or below what it spent, and breaks down on its dice
    cdef Gwe* g = <Gwe*>ctx
    cdef const GweT* t = g.t
    cdef int spent, i, best = -1
    if not t.car[u] or not on_map(g, u) or g.s.flags[u] & GF_BROKEN_DOWN:
        return
    spent = g.s.mp_spent[u]
    for i in range(t.n_car_rows):
        if t.car_row_mp[i] <= spent and (best < 0 or t.car_row_mp[i] > t.car_row_mp[best]):
            best = i
    if spent <= t.car_safe_mp or best < 0:
        return
    if (t.car_row_rolls[best] >> roll(&g.dice[DS_BREAKDOWN])) & 1:
        g.s.flags[u] = <uint16_t>(g.s.flags[u] | GF_BROKEN_DOWN)


cdef Py_ssize_t movement_roster(Gwe* g, int side) except -1:
    # engine.movable and engine._roster: the units of side that may move this segment,
    # ascending, as the kernel's roster (gwe_roster), each with its step-cost table's index
    # into Moves.tables (an armored car's its own: 24.41, and its back's values once broken
    # down, 24.42), and the reduced Austro-Hungarian units marked to move hex by hex (23.52);
    # Moves.need marks the tables used; how many units
    cdef const GweT* t = g.t
    cdef Moves* mv = &g.mv
    cdef Py_ssize_t nu = t.n_units, k = 0, u, j, key
    cdef uint16_t st
    cdef int32_t* row
    # 18.1: on the opening turn only Russian HQs move (and never by rail); 4.0 A1d, 5.35: out of
    # Command Control only entrained units
    cdef bint first = g.s.turn[0] == t.first_turn and side == SIDE_ALLIED
    for u in range(nu):
        st = g.s.unit_status[u]
        if t.side[u] != side or not st & ST_ON_MAP or (first and not t.is_hq[u]):
            continue
        if st & ST_OUT_OF_COMMAND and not st & ST_ENTRAINED:
            continue
        mv.units[k] = <int32_t>u
        k += 1
    roster_run(mv.units, k, g.s.unit_step, g.s.unit_status, g.s.flags, t.values, t.max_steps, 3,
               t.tcr, t.stacking, t.move_kind, ST_OUT_OF_SUPPLY, ST_OUT_OF_COMMAND,
               GF_LIVING_OFF_LAND, first, mv.roster, mv.keys, t.n_move_keys, mv.rank)
    memset(mv.need, 0, 2 * t.n_move_keys)
    memset(mv.done, 0, nu)
    for j in range(k):
        row = mv.roster + j * MV_ROSTER_COLUMNS
        u = row[MV_R_UNIT]
        key = mv.keys[row[MV_R_TABLE]]
        if t.car[u]:
            if g.s.flags[u] & GF_BROKEN_DOWN:             # movement.printed_values
                row[MV_R_ALLOWANCE] = mv_allowance(t.car_back[2], g.s.unit_status[u],
                                                   g.s.flags[u], False, ST_OUT_OF_SUPPLY,
                                                   GF_LIVING_OFF_LAND)
                key = (t.tcr[u] - 1) * 2 + (1 if t.car_back[0] <= 0 else 0)
            key += t.n_move_keys
        elif row[MV_R_TRAITS] & MV_T_HANDOVER:
            row[MV_R_TRAITS] |= MV_T_HEXWISE
        row[MV_R_TABLE] = <int32_t>key
        mv.need[key] = 1
    return k


cdef void movement_facts(Gwe* g, int side) noexcept nogil:
    # what the enemy's position decides for the kernel (engine.random_segment): the step-cost
    # tables of the roster (movement.step_costs), the rail table (rail._rail_table on
    # rail_closed, by_last off), the hex masks and the lone enemy HQs; and the player's combat
    # units in each hex
    cdef const GweT* t = g.t
    cdef Moves* mv = &g.mv
    cdef Py_ssize_t n = t.n_cells, nu = t.n_units, key, tc, u, c, n_threats = 0
    cdef int enemy = 1 - side
    cdef uint8_t* ezoc = mv.hexes + MV_H_EZOC * n
    cdef uint8_t* anyone = mv.hexes + MV_H_ENEMY * n
    cdef uint8_t* alone = mv.hexes + MV_H_HQ_ALONE * n
    cdef uint8_t* hq_at = mv.hexes + MV_H_ENEMY_HQ * n
    cdef flag_t* closed = g.mask_a
    controlled(g, enemy, ezoc)
    occupied(g, enemy, True, anyone)
    occupied(g, enemy, False, mv.combat)
    cdef Py_ssize_t nk = 2 * t.n_move_keys, at
    # each side's tables are kept from its last segment: only the steps into the hexes whose
    # enemy marks changed since are made again
    mv.p.tables = mv.tables + side * nk * 6 * n
    mv.p.rail_table = mv.rail_table + side * 6 * n
    for key in range(nk):
        if mv.need[key]:
            tc = (key % t.n_move_keys) // 2
            at = side * (nk + 1) + key
            keep_step_costs_over(t.nbr, n, t.move_base + (tc * 2 + key // t.n_move_keys) * 6 * n,
                                 anyone if key % 2 else mv.combat, ezoc, t.zoc_add[tc],
                                 mv.was_closed + at * n, mv.was_zoc + at * n, mv.table_ok[at],
                                 mv.p.tables + key * 6 * n)
            mv.table_ok[at] = 1
    # (marks of 0 or 1, eight hexes at a time)
    cdef const uint8_t* ground = t.rail_ground[side]
    for c in range(n >> 3):
        _put_word(closed + 8 * c, ONES ^ (_word_at(ground + 8 * c) & ~_word_at(mv.combat + 8 * c)
                                          & ~_word_at(ezoc + 8 * c)))
        _put_word(alone + 8 * c, _word_at(anyone + 8 * c) & ~_word_at(mv.combat + 8 * c))
    for c in range(8 * (n >> 3), n):
        closed[c] = not (ground[c] and not mv.combat[c] and not ezoc[c])
        alone[c] = anyone[c] and not mv.combat[c]
    memset(hq_at, 0, n)
    for c in range(n):
        mv.p.here_count[c] = 0
    # the rail table (fill_step_costs on the closed hexes, strict): the side's table with no
    # hex closed, and the steps into the closed hexes shut
    at = side * (nk + 1) + nk
    keep_step_costs_over(t.nbr, n, mv.rail_base + side * 6 * n, closed, mv.no_zoc, 0,
                         mv.was_closed + at * n, mv.was_zoc + at * n, mv.table_ok[at],
                         mv.p.rail_table)
    mv.table_ok[at] = 1
    memcpy(mv.hexes + MV_H_RAIL * n, t.friendly_rail[side], n)
    for u in range(nu):
        if not on_map(g, u):
            continue
        c = g.s.unit_cell[u]
        if t.side[u] == enemy and t.is_hq[u]:
            hq_at[c] = 1
            if not mv.combat[c]:
                mv.threats[n_threats] = <int32_t>c
                n_threats += 1
        elif t.side[u] == side and not t.is_hq[u]:
            mv.p.here_count[c] += 1
    mv.p.n_threats = n_threats


cdef int entered_enemy_hq_hex(Gwe* g, Py_ssize_t unit) except -1:
    # engine.entered_enemy_hq_hex (10.52): the enemy HQs in the hex the unit entered displace
    # at once, or are eliminated when they cannot
    cdef const GweT* t = g.t
    cdef int32_t c = g.s.unit_cell[unit]
    cdef Py_ssize_t o
    for o in range(t.n_units):
        if (g.s.unit_cell[o] == c and on_map(g, o) and t.side[o] != t.side[unit]
                and t.is_hq[o]):
            if not displace_hq(g, o):
                eliminate_unit(g, o, LOSS_OTHER, False)
    return 0


cdef int movement_segment(Gwe* g, SearchWorkspace ws, int side) except -1:
    # engine.movement_segment: the kernel's segment (gwe_moves_run) with the whole moves of
    # the units it would hand back (23.52, 24.42) and 10.52 after a move played here
    # (engine.random_segment, move_one_unit); a player who does not pick at random is asked
    # (_ask_move)
    cdef const GweT* t = g.t
    cdef Moves* mv = &g.mv
    cdef GweMoves* p = &mv.p
    cdef int status
    p.k = movement_roster(g, side)
    p.bg = g.pol[side]
    p.decide = NULL
    if g.level[side] != LEVEL_RANDOM:
        p.decide = _ask_move
    p.pending = -1
    p.side = side
    p.rate = t.rail_rate[side]
    p.capacity = t.rail_capacity[side]
    p.limits = t.track_limits[side]
    p.track_on = t.track_on
    p.at, p.moved, p.hexes_moved = -1, -1, 0
    while True:
        movement_facts(g, side)
        p.rows = p.used = 0
        status = gwe_moves_run(p, ws)
        if status == MV_DONE:
            return 0
        if on_map(g, p.moved):                          # MV_MOVED: 10.52
            entered_enemy_hq_hex(g, p.moved)
        displace_lone_hqs(g, side, g.f.opts)


cdef int64_t _ask_move(void* ctx, Py_ssize_t u, const cell_t* moves, Py_ssize_t n_moves,
                       int last) except -1 nogil:
    # the kernel's decide for a Python player (GweMoves.decide)
    with gil:
        return _ask_move_py(<Gwe*>ctx, u, moves, n_moves, last)


cdef int64_t _ask_move_py(Gwe* g, Py_ssize_t u, const cell_t* moves, Py_ssize_t n_moves,
                          int last) except -1:
    # the options as engine.movement_segment and move_one_unit list them, asked through the
    # game's ask (which takes a single option without asking); the index of the answer
    cdef const GweMoves* p = &g.mv.p
    cdef Py_ssize_t j
    cdef list options
    if u < 0:                           # which unit: "no more moves" first, then by number
        options = [-1]
        options += [int(p.roster[moves[j] * MV_ROSTER_COLUMNS + MV_R_UNIT])
                    for j in range(n_moves)]
        choice = (<object>g.ask)("gwe.move.unit", p.side, options)
    else:                               # stop, the hexes in order, entrain or detrain
        kind = "rail" if g.s.unit_status[u] & ST_ENTRAINED else "move"
        options = [("stop",)]
        options += [(kind, c) for c in sorted([int(moves[j]) for j in range(n_moves)])]
        if last == MV_ENTRAIN:
            options.append(("entrain",))
        elif last == MV_DETRAIN:
            options.append(("detrain",))
        choice = (<object>g.ask)("gwe.move.action", p.side, options, unit=int(u))
    if len(options) > 1:
        g.decisions += 1
    return options.index(choice)


cdef Py_ssize_t _ask_displace(Gwe* g, Py_ssize_t hq, Py_ssize_t n) except -1:
    # displace_hq's pick for a Python player: the hexes of displacement_targets, in its
    # order, asked as command.displace_hq asks
    if g.ask == NULL:
        raise RuntimeError("the core has no player to ask where an HQ displaces")
    options = [int(g.f.hexlist[j]) for j in range(n)]
    if n > 1:
        g.decisions += 1
    return options.index((<object>g.ask)("gwe.hq.displace_to", int(g.t.side[hq]), options,
                                         hq=int(hq)))


cdef int _bind_moves(Gwe* g) except -1:
    # the Movement Segment's buffers (Moves) and the kernel's record pointing into them and
    # into the state
    cdef const GweT* t = g.t
    cdef Moves* mv = &g.mv
    cdef GweMoves* p = &mv.p
    cdef Py_ssize_t n = t.n_cells, nu = t.n_units, nk = 2 * t.n_move_keys
    mv.tables = <stepcost_t*>malloc((2 * nk + 5) * 6 * n * sizeof(stepcost_t))
    p.rail_list = <int32_t*>malloc((6 * n + 1) * sizeof(int32_t))
    mv.hexes = <uint8_t*>malloc((MV_HEX_ROWS + 1) * n + nk + nu + 8)
    mv.roster = <int32_t*>malloc((MV_ROSTER_COLUMNS * nu + 2 * nk + 3 * nu + 3 * n + 16)
                                 * sizeof(int32_t))
    mv.was_closed = <uint8_t*>calloc(2 * (2 * (nk + 1) * n + nk + 1) + n, 1)
    if (mv.tables == NULL or mv.hexes == NULL or mv.roster == NULL or p.rail_list == NULL
            or mv.was_closed == NULL):
        raise MemoryError()
    mv.was_zoc = mv.was_closed + 2 * (nk + 1) * n
    mv.table_ok = mv.was_zoc + 2 * (nk + 1) * n
    mv.no_zoc = mv.table_ok + 2 * (nk + 1)
    mv.rail_table = mv.tables + 2 * nk * 6 * n
    mv.rail_base = mv.rail_table + 2 * 6 * n
    mv.fit = mv.rail_base + 2 * 6 * n
    cdef int side
    for side in range(2):
        fill_step_costs(t.nbr, n, t.rail_one, t.rail_lines[side], NULL, NULL, 0, True,
                        mv.rail_base + side * 6 * n)
    # the steps either side's rail table may ever open (its table with no hex closed opens
    # them all), listed once: the kernel sets only them in its scratch table, shut elsewhere
    cdef Py_ssize_t i
    p.n_rail_fixed = 0
    for i in range(6 * n):
        mv.fit[i] = -1
        if t.nbr[i] >= 0 and (mv.rail_base[i] >= 0 or mv.rail_base[6 * n + i] >= 0):
            p.rail_list[p.n_rail_fixed] = <int32_t>i
            p.n_rail_fixed += 1
    mv.combat = mv.hexes + MV_HEX_ROWS * n
    mv.need = mv.combat + n
    mv.done = mv.need + nk
    mv.keys = mv.roster + MV_ROSTER_COLUMNS * nu
    mv.rank = mv.keys + nk // 2 + 1
    mv.units = mv.rank + nk // 2 + 1
    mv.threats = mv.units + nu + 1
    mv.offered = <cell_t*>(mv.threats + nu + 1)
    mv.here_count = <int32_t*>(mv.offered + nu + 1 + n)
    mv.paths = mv.here_count + n
    p.nb = t.nbr
    p.n = n
    p.tables = mv.tables
    p.n_tab = nk
    p.rail_table = mv.rail_table
    p.track_used = g.s.track_used
    p.roster = mv.roster
    p.done = mv.done
    p.hexes = mv.hexes
    p.threats = mv.threats
    p.rail_used = g.s.rail_used
    p.unit_cell = g.s.unit_cell
    p.unit_status = g.s.unit_status
    p.hex_last = g.s.hex_last
    p.flags = g.s.flags
    p.spent = g.s.mp_spent
    p.rail_hexes = g.s.rail_hexes
    p.log = NULL
    p.cap = 0
    p.paths = mv.paths
    p.n_paths = n + 2
    p.offered = mv.offered
    p.here_count = mv.here_count
    p.fit = mv.fit
    p.ctx = <void*>g
    p.survives = _survives
    p.stopped = _stopped
    return 0


# --- the phases of a Player-Turn (4.0), for two players who pick at random -----------------

cdef int run_phase(Gwe* g, SearchWorkspace ws, int side, int phase) except -1:
    # engine.run_phase, then engine.enforce_stacking (6.14)
    if phase == GP_MOVEMENT:
        movement_phase(g, ws, side)
    elif phase == GP_WITHDRAWAL:
        withdrawal_phase(g, ws, 1 - side)
    elif phase == GP_COMBAT:
        combat_phase(g, ws, side)
    else:
        replacement_phase(g, ws, side)
    enforce_stacking(g, ws)
    return 0


cdef void clear_command(Gwe* g, int side) noexcept nogil:
    # command.clear_command: the side's Out of Command Control markers and radius flags off
    cdef Py_ssize_t u
    for u in range(g.t.n_units):
        if g.t.side[u] == side:
            g.s.unit_status[u] &= ~ST_OUT_OF_COMMAND
            g.s.flags[u] &= ~GF_OUT_OF_RADIUS


cdef void end_rail_movement(Gwe* g, int side) noexcept nogil:
    # rail.end_rail_movement (5.31, 5.35): the side's units still entrained and not yet
    # counted count toward Rail Capacity, the owner choosing for each whether it stays
    # entrained (when there is room) or detrains (when in Command Control); one that may do
    # neither stays entrained and counts beyond the capacity
    cdef const GweT* t = g.t
    cdef Py_ssize_t u
    cdef int n
    cdef bint room, off
    sync_rail_phase(g, side)
    for u in range(t.n_units):
        if (t.side[u] != side or not on_map(g, u) or not g.s.unit_status[u] & ST_ENTRAINED
                or t.is_hq[u] or g.s.flags[u] & GF_RAIL_COUNTED):
            continue
        room = has_room(g, u)
        off = not g.s.unit_status[u] & ST_OUT_OF_COMMAND
        n = room + off
        if n == 0:
            g.s.rail_forced[side] += t.stacking[u]
        elif choose(g, side, n) != 0 or not room:                 # detrain
            g.s.unit_status[u] &= ~ST_ENTRAINED
            continue
        charge_capacity(g, u)


cdef int movement_phase(Gwe* g, SearchWorkspace ws, int side) except -1:
    # engine.movement_phase (4.0 A1)
    cdef const GweT* t = g.t
    cdef Py_ssize_t u
    cdef int ooc = 0
    for u in range(t.n_units):
        if t.side[u] == side:
            g.s.flags[u] &= ~(GF_MOVED | GF_USED_RAIL)
            g.s.mp_spent[u] = 0
    start_rail_phase(g, side)
    initial_supply(g, ws, side)                                     # A1a
    reinforcement_segment(g, side)                                  # A1b
    command_segment(g, ws, side, False)                             # A1c
    for u in range(t.n_units):
        if t.side[u] == side and g.s.unit_status[u] & ST_OUT_OF_COMMAND:
            ooc += 1
    g.s.ooc_count[side] = <int16_t>ooc
    movement_segment(g, ws, side)                                   # A1d
    end_rail_movement(g, side)                                      # 5.31
    clear_command(g, side)
    attrition_segment(g, ws, side)                                  # A1e
    return 0


cdef int combat_phase(Gwe* g, SearchWorkspace ws, int side) except -1:
    # engine.combat_phase and combat.combat_phase (4.0 A3): attacks declared and resolved one
    # at a time until the attacker stops or has nothing left to attack
    cdef const GweT* t = g.t
    cdef Py_ssize_t u, c
    cdef uint16_t fresh = GF_ATTACKED | GF_DEFENDED | GF_ADVANCED
    for u in range(t.n_units):
        g.s.flags[u] &= ~fresh
    command_segment(g, ws, side, True)                              # A3a (sets none of them)
    for c in range(t.n_cells):
        g.s.fortress[4 * c + F_ATTACKED] = 0
    while declare_attack(g, ws, side):                              # A3b
        resolve_attack(g, ws, side)
    clear_command(g, side)
    for u in range(t.n_units):
        g.s.flags[u] &= ~GF_RETREATED_IN
    return 0


# ---------------------------------------------------------------------------------------------
# The ladder's movement plans (PassivePolicy.on_move_unit, PositionMap)

cdef double PRICE_NEG = -1e9          # position.NEG: a hex the unit may not end in

cdef class MovePlanner:
    """The record of a ``PositionMap`` for one side and Movement Segment, as C pointers
    (``CellFacts``: the enemy's facts, the side's own sums by hex and attack strengths,
    the targets as they are priced), and ``unit_plan`` and ``may_move`` over it: the same
    searches, the same floating-point operations in the same order as the Python (built
    without contraction), so the same plans and gains, bit for bit. The targets are priced
    here (``price_target``) into the map's arrays. What has no C statement yet is asked of
    Python through ``hooks`` (see ``GweCore.move_plans``)."""

    cdef GweCore core
    cdef Gwe* g
    cdef int side
    cdef Py_ssize_t n
    cdef CellFacts f
    cdef list keep, own                # the arrays pointed at: fixed, and the side's own
    cdef const int16_t[:, ::1] D
    cdef const int64_t[:, ::1] vals
    cdef const double[::1] unit_att
    cdef const uint8_t[::1] my_combat, in_supply
    cdef const int64_t[::1] mine
    cdef const int32_t[::1] supply_range
    cdef double pull, limit
    cdef Py_ssize_t n_cols, n_enemy_cells
    cdef bint line_moves, use_rail
    cdef double min_move_gain, rail_margin, hold, supply_w, command_w, attack_w, town_w
    cdef object costs, row, radius, rail_cells
    # the targets priced (PositionMap.target): the map's arrays written in place, the weights
    # and victory points they are priced with, and the enemy's facts each as the Python's
    # Snapshot first reads it (made: each hex's defence, 25.13's hexes with the hexes that
    # block his retreats, the open zones of control)
    cdef double[::1] tgt_def
    cdef double[:, ::1] tgt_ev
    cdef uint8_t[::1] known
    cdef double judge_w[3]
    cdef double judge_vp[4]
    cdef int32_t[::1] hex_def
    cdef uint8_t[::1] e_sur, e_blocks, e_zoc
    cdef bint def_made, sur_made, zoc_made
    cdef dict tables                  # the step costs asked, by TCR and kind
    # scratch: the hexes priced, their prices, gains and extras, the targets seen, reach
    cdef int64_t[::1] cells
    cdef double[::1] out, gains, extra
    cdef uint8_t[::1] seen
    cdef int32_t[::1] reach
    # an HQ's cover (made on first use): friendly weight by hex, the hexes with some
    cdef double[::1] hq_per
    cdef int32_t[::1] hq_src
    cdef Py_ssize_t n_hq_src
    cdef bint hq_made
    # the rail questions (rail.can_entrain, rail_destinations), made once a plan: the enemy's
    # units (any, combat) and zones of control, the side's rail table on rail_closed (1 across
    # an open rail hexside, else -1), its open steps listed, and a copy for track limits
    cdef uint8_t[::1] r_any, r_combat, r_ezoc, r_closed
    cdef stepcost_t[::1] r_tab, r_fit
    cdef int32_t[::1] r_list
    cdef Py_ssize_t n_r_list
    cdef bint rail_made, r_alloc

    def __init__(self, GweCore core, int side, pm, params, hooks, judge):
        self.core, self.g, self.side = core, &core.g, side
        self.n = core.g.t.n_cells
        self.keep = []
        cdef CellFacts* f = &self.f
        cdef const cell_t[:, ::1] nb = self._kept(pm["nb"], np.int32)
        cdef const uint8_t[:, ::1] prohibited = self._kept(pm["prohibited"], np.uint8)
        cdef const uint8_t[:, ::1] halved = self._kept(pm["halved"], np.uint8)
        if nb.shape[0] != self.n or prohibited.shape[0] != self.n or halved.shape[0] != self.n:
            raise ValueError("the position map is not of this game's map")
        f.nb, f.prohibited, f.halved = &nb[0, 0], &prohibited[0, 0], &halved[0, 0]
        f.mult = self._doubles(pm["mult"])
        f.threat = self._doubles(pm["threat"])
        cdef const double[::1] need = self._kept(pm["need"], np.float64)
        cdef const double[::1] per_step = self._kept(pm["per_step"], np.float64)
        f.need, f.k = (&need[0] if need.shape[0] else NULL), need.shape[0]
        f.per_step, f.n_cols = (&per_step[0] if per_step.shape[0] else NULL), per_step.shape[0]
        cdef const int32_t[::1] dist_enemy = self._cells(pm["dist_enemy"], np.int32)
        f.dist_enemy = &dist_enemy[0]
        cdef const uint8_t[::1] b
        b = self._cells(pm["supplied"], np.uint8)
        f.supplied = &b[0]
        b = self._cells(pm["cover"], np.uint8)
        f.cover = &b[0]
        f.town = self._doubles(pm["town"])
        b = self._cells(pm["enemy_occ"], np.uint8)
        f.enemy_occ = &b[0]
        # filled in as targets are priced: read in place, never copied
        cdef double[::1] tgt_def = pm["tgt_def"]
        cdef double[:, ::1] tgt_ev = pm["tgt_ev"]
        cdef uint8_t[::1] known = pm["known"]
        if tgt_def.shape[0] != self.n or tgt_ev.shape[0] != self.n or known.shape[0] != self.n:
            raise ValueError("the targets' arrays must have one entry per cell")
        self.keep += [pm["tgt_def"], pm["tgt_ev"], pm["known"]]
        f.tgt_def, f.tgt_ev, f.ev_cols = &tgt_def[0], &tgt_ev[0, 0], tgt_ev.shape[1]
        f.known = &known[0]
        self.tgt_def, self.tgt_ev, self.known = tgt_def, tgt_ev, known
        self.D = self._kept(pm["D"], np.int16)
        nu = core.g.t.n_units
        self.vals = self._kept(pm["vals"], np.int64)
        self.in_supply = self._kept(pm["in_supply"], np.uint8)
        self.supply_range = self._kept(pm["supply_range"], np.int32)
        if (self.D.shape[0] != self.n or self.D.shape[1] != self.n
                or self.vals.shape[0] != nu or self.vals.shape[1] < 2
                or self.in_supply.shape[0] != nu or self.supply_range.shape[0] != nu):
            raise ValueError("the position map's unit arrays must have one entry per unit")
        self.own = []
        self.rebind(pm)
        self.pull, self.limit = float(pm["pull"]), float(pm["limit"])
        self.n_cols, self.n_enemy_cells = int(pm["n_cols"]), int(pm["n_enemy_cells"])
        if self.n_cols > f.ev_cols:
            raise ValueError("tgt_ev must have a column for each of the CRT's")
        (self.line_moves, self.min_move_gain, self.use_rail, self.rail_margin, self.hold,
         self.supply_w, self.command_w, self.attack_w, self.town_w) = params
        self.costs, self.row, self.radius, self.rail_cells = hooks
        weights, ((vp0, vp1), (sur0, sur1)) = judge
        self.judge_w[0], self.judge_w[1], self.judge_w[2] = [float(x) for x in weights]
        self.judge_vp[0], self.judge_vp[1] = float(vp0), float(vp1)
        self.judge_vp[2], self.judge_vp[3] = float(sur0), float(sur1)
        self.hex_def = np.zeros(self.n, dtype=np.int32)
        self.e_sur = np.zeros(self.n, dtype=np.uint8)
        self.e_blocks = np.zeros(self.n, dtype=np.uint8)
        self.e_zoc = np.zeros(self.n, dtype=np.uint8)
        self.def_made = self.sur_made = self.zoc_made = False
        self.cells = np.empty(self.n + 1, dtype=np.int64)
        self.out = np.empty(self.n + 1)
        self.gains = np.zeros(self.n + 1)
        self.extra = np.zeros(self.n + 1)
        self.seen = np.zeros(self.n, dtype=np.uint8)
        self.reach = np.empty(self.n, dtype=np.int32)
        self.hq_made = False
        self.rail_made = False
        self.tables = {}

    def rebind(self, pm):
        """Read the side's own arrays of ``pm`` (``PositionMap.core_own``) again, after its
        refresh: stacking points, defence, steps, combat units and attack strengths by hex,
        each unit's attack strength, the side's units on the map."""
        cdef CellFacts* f = &self.f
        cdef Py_ssize_t i
        kept, self.keep = self.keep, self.own
        self.own = []
        try:
            f.my_sp = self._doubles(pm["my_sp"])
            f.my_def = self._doubles(pm["my_def"])
            f.my_steps = self._doubles(pm["my_steps"])
            f.base_att = self._doubles(pm["base_att"])
            self.my_combat = self._cells(pm["my_combat"], np.uint8)
            self.unit_att = self._kept(pm["unit_att"], np.float64)
            if self.unit_att.shape[0] != self.g.t.n_units:
                raise ValueError("the attack strengths must have one entry per unit")
            self.mine = self._kept(pm["mine"], np.int64)
            for i in range(self.mine.shape[0]):
                if not 0 <= self.mine[i] < self.g.t.n_units:
                    raise IndexError("a unit of the side is not a unit of the scenario")
        finally:
            self.own, self.keep = self.keep, kept
        self.hq_made = False

    def scores(self, Py_ssize_t unit, cells, bint may_attack=True):
        """``PositionMap.scores``: the value of ``unit`` standing in each of ``cells`` at the
        end of its move, in the position as it stands."""
        cdef const int64_t[::1] cv = np.ascontiguousarray(cells, dtype=np.int64)
        cdef Py_ssize_t i, m = cv.shape[0]
        if not 0 <= unit < self.g.t.n_units:
            raise IndexError(f"unit {unit} is not a unit of the scenario")
        self._room(m)
        for i in range(m):
            if not 0 <= cv[i] < self.n:
                raise IndexError("a hex is not a hex of the map")
            self.cells[i] = cv[i]
        self.price(unit, 0, m, may_attack)
        return np.asarray(self.out[:m]).copy()

    cdef int _room(self, Py_ssize_t m) except -1:
        if m > self.cells.shape[0]:
            self.cells = np.empty(m, dtype=np.int64)
            self.out = np.empty(m)
            self.gains = np.zeros(m)
            self.extra = np.zeros(m)
        return 0

    cdef object _kept(self, a, dtype):
        # a C-contiguous array of dtype (the caller's when it is one already), kept alive
        a = np.ascontiguousarray(a, dtype=dtype)
        self.keep.append(a)
        return a

    cdef object _cells(self, a, dtype):
        a = self._kept(a, dtype)
        if a.ndim != 1 or a.shape[0] != self.n:
            raise ValueError("a per-cell array must have one entry per cell")
        return a

    cdef const double* _doubles(self, a) except NULL:
        cdef const double[::1] v = self._cells(a, np.float64)
        return &v[0]

    def plans(self, units):
        """``(queue, plans, gains)``: see ``GweCore.move_plans``."""
        cdef Py_ssize_t u
        gains, plans, by_unit = [], {}, {}
        self.rail_made = False              # the position as it stands now
        for x in units:
            u = x
            if u == -1:
                continue
            if not 0 <= u < self.g.t.n_units:
                raise IndexError(f"unit {u} is not a unit of the scenario")
            if not self.may_move(u):
                continue
            gain, steps = self.unit_plan(u)
            if steps and (gain > self.min_move_gain or steps[0] == ("detrain",)):
                gains.append((-gain, u))
                plans[u] = steps
                by_unit[u] = gain
        return [u for _, u in sorted(gains)], plans, by_unit

    cdef bint may_move(self, Py_ssize_t u) noexcept:
        # PassivePolicy.may_move
        cdef int32_t here = self.g.s.unit_cell[u]
        if self.line_moves or self.g.t.is_hq[u]:
            return True
        return (self.f.dist_enemy[here] > 1 or not self.f.supplied[here]
                or self.g.s.unit_status[u] & ST_ENTRAINED)

    cdef Py_ssize_t reachable(self, Py_ssize_t u) except -1:
        # PositionMap.reachable of a unit in command: the hexes it may end in other than its
        # own (dist > 0), ascending, into cells; how many
        cdef Gwe* g = self.g
        cdef int32_t here = g.s.unit_cell[u]
        cdef int spent = g.s.mp_spent[u]
        # the table is shared by the units of one TCR and kind (PositionMap.step_costs)
        cdef int key = 4 * g.t.tcr[u] + 2 * (g.t.car[u] != 0) + (value_row(g, u)[0] > 0)
        table = self.tables.get(key)
        if table is None:
            table = self.tables[key] = np.ascontiguousarray(self.costs(u), dtype=np.int16)
        cdef const stepcost_t[:, ::1] cost = table
        if cost.shape[0] != self.n or cost.shape[1] != 6:
            raise ValueError("a step-cost table must be [n_cells, 6]")
        cdef int ma = mv_allowance(value_row(g, u)[2], g.s.unit_status[u], g.s.flags[u],
                                   g.t.is_hq[u], ST_OUT_OF_SUPPLY, GF_LIVING_OFF_LAND)
        cdef int left = ma - spent if ma - spent > 0 else 0
        cdef cell_t src = here
        cdef Py_ssize_t c, d, k = 0
        cdef cell_t w
        cdef SearchWorkspace ws = self.core.ws
        ws.search(&cost[0, 0], &src, NULL, 1, left, NULL, NULL, 0, False)
        for c in range(self.n):
            self.reach[c] = ws.dist_at(c)
        if spent == 0:                                                  # 5.17
            for d in range(6):
                w = self.f.nb[6 * here + d]
                if w >= 0 and cost[here, d] >= 0 and self.reach[w] < 0:
                    self.reach[w] = cost[here, d]
        for c in range(self.n):
            if self.reach[c] > 0 and c != here:
                self.cells[k] = c
                k += 1
        return k

    cdef int price(self, Py_ssize_t u, Py_ssize_t start, Py_ssize_t m, bint may_attack
                   ) except -1:
        # PositionMap.scores of unit u in cells[start:start + m] into out[start:...]
        cdef Gwe* g = self.g
        cdef const GweT* t = g.t
        cdef CellFacts* f = &self.f
        cdef int32_t here = g.s.unit_cell[u]
        cdef double sp = <double>t.stacking[u]
        cdef Py_ssize_t i, end = start + m
        cdef int64_t c
        cdef double o, v
        cdef UnitTerms ut
        cdef bint has_gain = False
        if t.is_hq[u]:
            self.hq_scores(u, start, m)
            for i in range(start, end):
                c = self.cells[i]
                o = f.my_sp[c] - (sp if c == here else 0.0)
                v = PRICE_NEG if o + sp > self.limit else 0.0
                self.out[i] = v + self.out[i]
            return 0
        ut.here, ut.sp, ut.limit = here, sp, self.limit
        ut.steps = <double>(<int8_t>(t.n_steps[u] - g.s.unit_step[u]))
        ut.dfn = <double>self.vals[u, 1]
        ut.hex_last, ut.side, ut.hold = g.s.hex_last, self.side, self.hold
        ut.supply_pen = -self.supply_w * (sp if sp >= 1.0 else 1.0)
        ut.command_pen = -self.command_w * sp
        ut.town_w, ut.attack_w, ut.pull_c = self.town_w, self.attack_w, 0.05 * self.pull
        ut.use_pull = False
        if t.is_depot[u]:
            self.depot_scores(u, start, m)
            for i in range(start, end):
                self.out[i] = score_one(f, &ut, self.cells[i], True, self.extra[i], False, 0.0)
            return 0
        self.attack_gain(u, start, m, may_attack)
        ut.use_pull = self.pull > 0 and self.vals[u, 0] > 0
        for i in range(start, end):
            self.out[i] = score_one(f, &ut, self.cells[i], False, 0.0, True, self.gains[i])
        return 0

    cdef int attack_gain(self, Py_ssize_t u, Py_ssize_t start, Py_ssize_t m, bint may_attack
                         ) except -1:
        # PositionMap.attack_gain into gains[start:start + m]
        cdef CellFacts* f = &self.f
        cdef Py_ssize_t i, d, end = start + m
        cdef int64_t c
        cdef cell_t x
        cdef double a_u
        for i in range(start, end):
            self.gains[i] = 0.0
        if not may_attack or self.n_enemy_cells == 0:
            return 0
        a_u = self.unit_att[u] if self.unit_att[u] > 0 else \
            <double>(self.vals[u, 0] if self.vals[u, 0] > 0 else 0)
        if a_u <= 0:
            return 0
        # the targets in reach priced first, lazily and in ascending order (needed_targets)
        cdef Py_ssize_t found = 0
        for i in range(start, end):
            c = self.cells[i]
            if f.dist_enemy[c] != 1:
                continue
            for d in range(6):
                x = f.nb[6 * c + d]
                if (x >= 0 and f.enemy_occ[x] and not f.prohibited[6 * c + d]
                        and not f.known[x] and not self.seen[x]):
                    self.seen[x] = 1
                    found += 1
        if found:
            for x in range(self.n):
                if self.seen[x]:
                    self.seen[x] = 0
                    self.price_target(<int32_t>x)
        cdef const double[:, ::1] ab = np.ascontiguousarray(self.row(u), dtype=np.float64)
        cdef Py_ssize_t k = ab.shape[0]
        if k and ab.shape[1] != 2:
            raise ValueError("an odds row must be [k, 2]")
        cdef const int16_t* d_here = &self.D[g_cell(self.g, u), 0]
        cdef double att_u = self.unit_att[u]
        for i in range(start, end):
            c = self.cells[i]
            if f.dist_enemy[c] == 1:
                self.gains[i] = gain_one(f, c, d_here, a_u, att_u,
                                         &ab[0, 0] if k else NULL, k, self.n_cols)
        return 0

    cdef int price_target(self, int32_t x) except -1:
        # PositionMap.target of the enemy hex x into the targets' arrays: its defence
        # (combat.defense_strength: the hex's defenders and fortress) and the expectation of
        # an attack on it on each column of the CRT (_target_values: enough two-step
        # divisions of the side, no modifier nor penalty, the hex's value to the enemy).
        # The Python map's Snapshot reads each of the enemy's facts when first asked and
        # keeps it for the Movement Segment, while the side's units move: the hexes' defence
        # at the first target, 25.13's hexes and those that block his retreats at the first
        # with counted defenders, the open zones at the first whose units are not all of
        # TCR 1. So are they made here, each a copy of the core's at that moment
        cdef Gwe* g = self.g
        cdef const GweT* t = g.t
        cdef Judge* J = &g.j
        cdef int enemy = 1 - self.side
        cdef Py_ssize_t i, k, col, total, n_div
        cdef bint tcr1 = True
        cdef Troops a, d
        cdef Expected e
        cdef double hv
        if not self.def_made:
            attack_position(g, self.core.ws, self.side)
            memcpy(&self.hex_def[0], g.f.defense, self.n * sizeof(int32_t))
            self.def_made = True
        k = counted_defenders(g, x, enemy, J.d_units)
        for i in range(k):
            if t.tcr[J.d_units[i]] != 1:
                tcr1 = False
        if k and (not self.sur_made or (not tcr1 and not self.zoc_made)):
            attack_facts(g, self.core.ws, self.side)
            if not self.sur_made:
                memcpy(&self.e_sur[0], J.surrounded, self.n)
                memcpy(&self.e_blocks[0], J.blocks, self.n)
                self.sur_made = True
            if not tcr1 and not self.zoc_made:
                memcpy(&self.e_zoc[0], J.open_zoc, self.n)
                self.zoc_made = True
        # the Judge is the core's, shared with the attack choice: this policy's weights
        J.material, J.ground, J.town = self.judge_w[0], self.judge_w[1], self.judge_w[2]
        J.per_sp[0], J.per_sp[1] = self.judge_vp[0], self.judge_vp[1]
        J.per_sp_surrounded[0], J.per_sp_surrounded[1] = self.judge_vp[2], self.judge_vp[3]
        defending_force(g, enemy, &x, 1, &self.e_sur[0], &self.e_blocks[0], &self.e_zoc[0],
                        &d)
        total = d.fortress
        for i in range(d.n):
            total += d.steps[i]
        n_div = (total + 1) // 2
        if n_div < 1:
            n_div = 1
        if n_div > t.n_units + 1:                  # (the Judge's rows hold n_units + 1)
            raise ValueError("a target of more steps than the Judge has room for")
        a.side = self.side
        a.n = n_div
        a.steps, a.n_steps, a.sp = J.a_steps, J.a_n_steps, J.a_sp
        for i in range(n_div):
            a.steps[i] = a.n_steps[i] = a.sp[i] = 2
        a.fortress = 0
        a.surrounded = False
        a.retreat[0] = a.retreat[1] = True
        hv = J.ground + J.town * town_value(t, x)                   # scoring.hex_value
        for col in range(self.n_cols):
            expected_attack(t, J, <int>col, 0, &a, &d, False, False, hv, &e)
            self.tgt_ev[x, col] = e.score
        self.tgt_def[x] = <double>self.hex_def[x]
        self.known[x] = 1
        return 0

    cdef int hq_scores(self, Py_ssize_t u, Py_ssize_t start, Py_ssize_t m) except -1:
        # PositionMap._hq_scores into out[start:start + m]
        cdef Gwe* g = self.g
        cdef CellFacts* f = &self.f
        cdef Py_ssize_t i, j, x, end = start + m
        cdef int64_t c
        cdef int32_t w
        cdef double cover
        cdef bint guarded, danger
        cdef int radius = self.radius(u)
        if not self.hq_made:
            self.hq_made = True
            self.hq_per = np.zeros(self.n)
            for i in range(self.mine.shape[0]):
                x = self.mine[i]
                if g.t.is_hq[x]:
                    continue
                w = g.s.unit_cell[x]
                self.hq_per[w] += g.t.stacking[x] * (2.0 if f.dist_enemy[w] <= 2 else 1.0)
            self.hq_src = np.zeros(self.n, dtype=np.int32)
            self.n_hq_src = 0
            for j in range(self.n):
                if self.hq_per[j] > 0:
                    self.hq_src[self.n_hq_src] = <int32_t>j
                    self.n_hq_src += 1
        for i in range(start, end):
            c = self.cells[i]
            # whole numbers of stacking points: the sum is exact in any order
            cover = 0.0
            for j in range(self.n_hq_src):
                if self.D[self.hq_src[j], c] <= radius:
                    cover += self.hq_per[self.hq_src[j]]
            guarded = self.my_combat[c] != 0
            danger = f.dist_enemy[c] <= 1 and not guarded
            self.out[i] = 0.05 * cover - (5.0 if danger else 0.0) + (0.2 if guarded else 0.0)
        return 0

    cdef int depot_scores(self, Py_ssize_t u, Py_ssize_t start, Py_ssize_t m) except -1:
        # PositionMap._depot_scores into extra[start:start + m]
        cdef Gwe* g = self.g
        cdef CellFacts* f = &self.f
        cdef Py_ssize_t i, j, x, end = start + m, count
        cdef int64_t c
        cdef int rng = self.supply_range[u]
        cdef bint any_hungry = False
        cdef double e
        for i in range(start, end):
            c = self.cells[i]
            count = 0
            for j in range(self.mine.shape[0]):
                x = self.mine[j]
                if self.in_supply[x] or g.t.is_hq[x] or g.t.is_depot[x]:
                    continue
                any_hungry = True
                if self.D[g.s.unit_cell[x], c] <= rng:
                    count += 1
            e = 0.0
            if any_hungry:
                e += count * 0.5
            e -= 5.0 if f.dist_enemy[c] <= 1 else 0.0
            e += 0.5 if (f.dist_enemy[c] >= 2 and f.dist_enemy[c] <= 3) else 0.0
            self.extra[i] = e
        return 0

    cdef tuple unit_plan(self, Py_ssize_t u):
        # PassivePolicy.unit_plan: (gain, steps)
        cdef Gwe* g = self.g
        cdef uint16_t status = g.s.unit_status[u]
        cdef int32_t here = g.s.unit_cell[u]
        cdef bint tcr1 = g.t.tcr[u] == 1
        cdef bint entrained = status & ST_ENTRAINED
        cdef bint ooc = status & ST_OUT_OF_COMMAND
        cdef Py_ssize_t n_r = 0, i, j, first = 1
        cdef double stay, best
        steps = []
        if ooc:
            self.cells[0] = here
            self.price(u, 0, 1, not entrained)
            stay = self.out[0]
        else:
            # the reachable hexes from cells[1], here at cells[0]
            n_r = self.reachable(u)
            for i in range(n_r, 0, -1):
                self.cells[i] = self.cells[i - 1]
            self.cells[0] = here
            if entrained:
                self.price(u, 0, 1, False)
                stay = self.out[0]
                if n_r:
                    self.price(u, 1, n_r, True)
            else:                     # one call: each hex is priced on its own
                self.price(u, 0, 1 + n_r, True)
                stay = self.out[0]
        best = stay
        if not ooc:
            if n_r:
                j = first
                for i in range(first + 1, first + n_r):
                    if self.out[i] > self.out[j]:
                        j = i
                if self.out[j] > best:
                    best = self.out[j]
                    steps = ([("detrain",)] if entrained else []) + [("move",)]
            elif entrained:
                steps = [("detrain",)]
        if entrained and not ooc and not steps:
            steps = [("detrain",)]
        cdef Py_ssize_t m
        if self.use_rail and (entrained or self.may_entrain(u)):
            m = self.rail_destinations(u, entrained)
            if m == -2:                 # the engine would have to start the rail counts
                dest = self.rail_cells(u, entrained)
                m = 0
                if dest is not None and len(dest):
                    m = self.rail_plan(u, dest, tcr1)
            elif m > 0:
                self.rail_price(u, m, tcr1)
            if m > 0:
                j = 0
                for i in range(1, m):
                    if self.out[i] > self.out[j]:
                        j = i
                if self.out[j] > best:
                    best = self.out[j]
                    steps = ([] if entrained else [("entrain",)]) + [
                        ("rail", int(self.cells[j])), ("detrain",)]
        return best - stay, steps

    cdef bint may_entrain(self, Py_ssize_t u) noexcept:
        # what rail.can_entrain asks first, needing no rail facts (5.32, 5.35, 18.27): False
        # where it says False, True where it has more to ask (can_entrain asks it all)
        cdef Gwe* g = self.g
        cdef uint16_t status = g.s.unit_status[u]
        if not status & ST_ON_MAP or status & (ST_ENTRAINED | ST_OUT_OF_COMMAND):
            return False
        if not g.t.is_hq[u] and status & ST_OUT_OF_SUPPLY:
            return False
        return g.t.friendly_rail[g.t.side[u]][g.s.unit_cell[u]] != 0

    cdef Py_ssize_t rail_plan(self, Py_ssize_t u, dest, bint may_attack) except -1:
        # the rail destinations of the hook priced, less the rail margin, into out[:len(dest)]
        cdef const int64_t[::1] dv = np.ascontiguousarray(dest, dtype=np.int64)
        cdef Py_ssize_t i, m = dv.shape[0]
        self._room(m)
        for i in range(m):
            if not 0 <= dv[i] < self.n:
                raise IndexError("a rail destination is not a hex of the map")
            self.cells[i] = dv[i]
        self.rail_price(u, m, may_attack)
        return m

    cdef int rail_price(self, Py_ssize_t u, Py_ssize_t m, bint may_attack) except -1:
        # cells[:m] priced, less the rail margin, into out[:m]
        cdef Py_ssize_t i
        self.price(u, 0, m, may_attack)
        for i in range(m):
            self.out[i] = self.out[i] - self.rail_margin
        return 0

    def rail_cells_of(self, Py_ssize_t unit):
        """``passive._rail_cells`` of ``unit`` in the position as it stands: its rail
        destinations (``rail.rail_destinations``), ascending, None when it may neither entrain
        nor is entrained (``rail.can_entrain``); the hook's answer where the engine would have
        to start the side's rail counts."""
        if not 0 <= unit < self.g.t.n_units:
            raise IndexError(f"unit {unit} is not a unit of the scenario")
        cdef bint entrained = (self.g.s.unit_status[unit] & ST_ENTRAINED) != 0
        self.rail_made = False
        cdef Py_ssize_t m = self.rail_destinations(unit, entrained)
        if m == -2:
            return self.rail_cells(unit, entrained)
        if m == -1:
            return None
        return np.asarray(self.cells[:m]).copy()

    cdef int rail_facts(self) except -1:
        # rail._rail_table of the side on rail_closed in the position as it stands: a train
        # enters only its side's ground (18.27), no hex holding enemy combat units (5.13), nor
        # enemy-controlled (5.33), nor last occupied by the enemy unless his HQs alone are
        # there (5.33, 10.52); the enemy's units and zones kept for can_entrain and the ends
        cdef Gwe* g = self.g
        cdef const GweT* t = g.t
        cdef Py_ssize_t n = self.n, c, i
        cdef int side = self.side, enemy = 1 - self.side
        cdef cell_t w
        cdef const uint8_t* ground = t.rail_ground[side]
        cdef const stepcost_t* lines = t.rail_lines[side]
        if not self.r_alloc:                               # first use
            self.r_alloc = True
            self.r_any = np.zeros(n, dtype=np.uint8)
            self.r_combat = np.zeros(n, dtype=np.uint8)
            self.r_ezoc = np.zeros(n, dtype=np.uint8)
            self.r_closed = np.zeros(n, dtype=np.uint8)
            self.r_tab = np.empty(6 * n, dtype=np.int16)
            self.r_fit = np.empty(6 * n, dtype=np.int16)
            self.r_list = np.empty(6 * n, dtype=np.int32)
        cdef uint8_t* anyone = &self.r_any[0]
        cdef uint8_t* combat = &self.r_combat[0]
        cdef uint8_t* ezoc = &self.r_ezoc[0]
        occupied(g, enemy, True, anyone)
        occupied(g, enemy, False, combat)
        controlled(g, enemy, ezoc)
        cdef uint8_t* closed = &self.r_closed[0]
        for c in range(n):
            closed[c] = not (ground[c] and not combat[c] and not ezoc[c]
                             and (g.s.hex_last[c] != enemy or (anyone[c] and not combat[c])))
        self.n_r_list = 0
        for i in range(6 * n):
            w = t.nbr[i]
            if w >= 0 and lines[i] >= 0 and not closed[w]:
                self.r_tab[i] = 1
                self.r_list[self.n_r_list] = <int32_t>i
                self.n_r_list += 1
            else:
                self.r_tab[i] = -1
        self.rail_made = True
        return 0

    cdef bint rail_room(self, Py_ssize_t u) noexcept:
        # rail.has_room, the side's counts being this Game-Turn's: counted already, never
        # counted (an HQ, 5.31), or the capacity left holds it
        cdef Gwe* g = self.g
        cdef int side = g.t.side[u]
        if g.t.is_hq[u] or g.s.flags[u] & GF_RAIL_COUNTED:
            return True
        return g.t.stacking[u] <= g.t.rail_capacity[side] - g.s.rail_used[side]

    cdef bint first_turn_may_move(self, Py_ssize_t u) noexcept:
        # rail.first_turn_may_move (18.1): on the opening turn only Russian HQs move
        cdef Gwe* g = self.g
        return not (g.t.side[u] == SIDE_ALLIED and not g.t.is_hq[u]
                    and g.s.turn[0] == g.t.first_turn)

    cdef bint can_entrain(self, Py_ssize_t u) noexcept:
        # rail.can_entrain (5.32, 5.35, 18.1, 18.25-18.27), the rail facts made and the side's
        # counts this Game-Turn's
        cdef Gwe* g = self.g
        cdef const GweT* t = g.t
        cdef uint16_t status = g.s.unit_status[u]
        cdef int32_t cell = g.s.unit_cell[u]
        cdef int tcr = t.tcr[u], ma, spent
        if not self.may_entrain(u) or not self.first_turn_may_move(u):
            return False
        if tcr != 1 and self.r_ezoc[cell]:
            return False
        ma = mv_allowance(value_row(g, u)[2], status, g.s.flags[u], t.is_hq[u],
                          ST_OUT_OF_SUPPLY, GF_LIVING_OFF_LAND)
        spent = g.s.mp_spent[u]
        if ma >= tcr:
            if spent + tcr > ma:
                return False
        elif spent != 0 or g.s.flags[u] & GF_USED_RAIL:                 # 18.25
            return False
        return self.rail_room(u)

    cdef Py_ssize_t rail_destinations(self, Py_ssize_t u, bint entrained) except -3:
        # passive._rail_cells in C: -1 when the unit is not entrained and may not entrain
        # (None), else rail.rail_destinations' cells into cells[:k], ascending; k. -2 where
        # the side's rail counts are of an earlier Game-Turn (the engine would start them
        # afresh, a read-only view cannot: the hook answers as the Python does)
        cdef Gwe* g = self.g
        cdef const GweT* t = g.t
        cdef int side = t.side[u], sp = t.stacking[u], left
        cdef uint16_t status = g.s.unit_status[u]
        cdef cell_t here = g.s.unit_cell[u], src
        cdef Py_ssize_t c, i, j, k = 0
        cdef const int16_t* limits
        cdef const stepcost_t* tab
        if g.s.rail_turn[side] != g.s.turn[0]:
            return -2
        if not self.rail_made:
            self.rail_facts()
        if not entrained and not self.can_entrain(u):
            return -1
        # rail.may_move_by_rail
        if not status & ST_ON_MAP:
            return 0
        if not (self.first_turn_may_move(u) if status & ST_ENTRAINED else self.can_entrain(u)):
            return 0
        if not self.rail_room(u):
            return 0
        # rail._reach: within the rail hexes left of the rate (18.21)
        left = t.rail_rate[side] - g.s.rail_hexes[u]
        if left <= 0:
            return 0
        tab = &self.r_tab[0]
        if t.track_on and sp > 0:       # only across a line that can carry it (18.31, 18.33)
            limits = t.track_limits[side]
            memcpy(&self.r_fit[0], tab, 6 * self.n * sizeof(stepcost_t))
            for j in range(self.n_r_list):
                i = self.r_list[j]
                if not track_carries(limits, g.s.track_used, i, sp):
                    self.r_fit[i] = -1
            tab = &self.r_fit[0]
        src = here
        cdef SearchWorkspace ws = self.core.ws
        ws.search(tab, &src, NULL, 1, left, NULL, NULL, 0, False)
        # never the unit's own hex nor a hex holding enemy units (5.13)
        for c in range(self.n):
            if c != here and ws.dist_at(c) > 0 and not self.r_any[c]:
                self.cells[k] = c
                k += 1
        return k


cdef inline int32_t g_cell(const Gwe* g, Py_ssize_t u) noexcept nogil:
    return g.s.unit_cell[u]
