# cython: language_level=3
"""``CoreTables``: a ``GoaTables`` as one typed C record (``GoaT`` in ``tables.pxd``), built
once per scenario and options, with the per-scenario lists the rules read instead of scanning
(each country's cities, ports and fronts, each place's sea areas as a bit mask, the places a
squadron may move to ...). It also holds the byte offsets of the state's arrays (``GoaS``),
checked against ``model.state_layout``, and the state at the scenario's start, so that a new
game's state is one copy.

>>> import gwe_fast, pathlib, sys
>>> sys.path.insert(0, str(pathlib.Path(gwe_fast.__file__).parents[2] / "tests" / "games" / "goa"))
>>> import tiny
>>> from gwe_fast.games.goa.tables import compile_tables
>>> t = compile_tables(tiny.raw())
>>> ct = core_tables(t)
>>> ct is core_tables(t), ct.goa is t, ct.state_size == len(ct.initial)
(True, True, True)
"""

import weakref

import numpy as np
cimport numpy as cnp
from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint32_t, uint64_t

from gwe_fast.games.goa.model import state_layout

cnp.import_array()

I1, I2, I4 = np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.int32)

#: the state arrays in GoaS order: name, dtype, shape from the sizes (C, K, A, L, Q)
STATE_FIELDS = (
    ("scalars", I4, lambda C, K, A, L, Q: (8,)),
    ("side", I1, lambda C, K, A, L, Q: (C,)),
    ("limited", I1, lambda C, K, A, L, Q: (C,)),
    ("entered", I2, lambda C, K, A, L, Q: (C,)),
    ("conquered", I2, lambda C, K, A, L, Q: (C,)),
    ("army", I4, lambda C, K, A, L, Q: (C,)),
    ("abroad", I4, lambda C, K, A, L, Q: (C, C)),
    ("supply", I4, lambda C, K, A, L, Q: (C,)),
    ("personnel_last", I2, lambda C, K, A, L, Q: (C,)),
    ("supply_last", I2, lambda C, K, A, L, Q: (C,)),
    ("mobilized", I2, lambda C, K, A, L, Q: (C,)),
    ("conscription", I1, lambda C, K, A, L, Q: (C,)),
    ("since_roll", I1, lambda C, K, A, L, Q: (C,)),
    ("demoralized", I2, lambda C, K, A, L, Q: (C,)),
    ("reduced", I1, lambda C, K, A, L, Q: (C,)),
    ("suffered", I1, lambda C, K, A, L, Q: (C,)),
    ("fed", I1, lambda C, K, A, L, Q: (C,)),
    ("joined_with", I1, lambda C, K, A, L, Q: (C,)),
    ("invaded", I1, lambda C, K, A, L, Q: (C,)),
    ("entry_city", I1, lambda C, K, A, L, Q: (C, K)),
    ("gift_turkey", I1, lambda C, K, A, L, Q: (2,)),
    ("received", I1, lambda C, K, A, L, Q: (C,)),
    ("marines", I2, lambda C, K, A, L, Q: (6,)),
    ("shipped", I1, lambda C, K, A, L, Q: (C,)),
    ("screen", I1, lambda C, K, A, L, Q: (Q,)),
    ("moved", I1, lambda C, K, A, L, Q: (Q,)),
    ("in_combat", I1, lambda C, K, A, L, Q: (Q,)),
    ("supported", I1, lambda C, K, A, L, Q: (Q,)),
    ("hit_level", I1, lambda C, K, A, L, Q: (Q,)),
    ("returning", I2, lambda C, K, A, L, Q: (Q,)),
    ("return_port", I2, lambda C, K, A, L, Q: (Q,)),
    ("sortie_won", I1, lambda C, K, A, L, Q: (A,)),
    ("sunk", I2, lambda C, K, A, L, Q: (2,)),
    ("usw", I2, lambda C, K, A, L, Q: (2,)),
    ("usw_since_roll", I1, lambda C, K, A, L, Q: (2,)),
    ("city", I1, lambda C, K, A, L, Q: (K,)),
    ("garrison", I2, lambda C, K, A, L, Q: (K,)),
    ("colony", I1, lambda C, K, A, L, Q: (L,)),
    ("col_af", I2, lambda C, K, A, L, Q: (L, C)),
    ("col_units", I2, lambda C, K, A, L, Q: (L, C)),
    ("blockade", I1, lambda C, K, A, L, Q: (A, 2)),
    ("blockade_prev", I1, lambda C, K, A, L, Q: (A, 2)),
    ("med_blockade", I1, lambda C, K, A, L, Q: (2,)),
    ("squadron_country", I2, lambda C, K, A, L, Q: (Q,)),
    ("squadron_base", I2, lambda C, K, A, L, Q: (Q,)),
    ("squadron_sortie", I2, lambda C, K, A, L, Q: (Q,)),
    ("squadron_damage", I1, lambda C, K, A, L, Q: (Q,)),
    ("squadron_repair", I1, lambda C, K, A, L, Q: (Q,)),
    ("blockade_months", I2, lambda C, K, A, L, Q: (A, 2)),
    ("usw_months", I2, lambda C, K, A, L, Q: (2,)),
    ("morale_results", I2, lambda C, K, A, L, Q: (C, 5)),
    ("blockade_lost", I4, lambda C, K, A, L, Q: (C,)),
    ("colonies_taken", I2, lambda C, K, A, L, Q: (2,)),
    ("strength_lost", I4, lambda C, K, A, L, Q: (C,)),
)


def _csr(rows):
    """Lists as (start int32[n + 1], entries int32[...])."""
    start = np.zeros(len(rows) + 1, np.int32)
    for i, r in enumerate(rows):
        start[i + 1] = start[i] + len(r)
    flat = np.array([x for r in rows for x in r], np.int32)
    return start, flat


def _mask(row) -> int:
    m = 0
    for a, v in enumerate(row):
        if v:
            m |= 1 << a
    return m


cdef class CoreTables:
    """The C record of one ``GoaTables`` (see the module's docstring); ``core_tables(t)``
    builds it once and keeps it with ``t``."""

    def __init__(self, goa):
        from gwe_fast.games.goa.tables import initial_state

        t = goa
        self._goa = weakref.ref(goa)
        self._keep = []
        cdef GoaT* r = &self.t
        C, K, A, P, L, Q = (t.n_countries, t.n_cities, t.n_areas, t.n_ports, t.n_colonies,
                            t.n_squadrons)
        B, F = len(t.b_key), t.n_fronts
        if C > 120:
            raise ValueError(f"the compiled core handles at most 120 countries, not {C}")
        if P + L > 512:
            raise ValueError(f"the compiled core handles at most 512 ports and colonies, not {P + L}")
        if B > 512:
            raise ValueError(f"the compiled core handles at most 512 beaches, not {B}")
        if F > 64:
            raise ValueError(f"the compiled core handles at most 64 fronts, not {F}")
        if A > 32:
            raise ValueError(f"the compiled core handles at most 32 sea areas, not {A}")
        r.C, r.K, r.A, r.P, r.B, r.L, r.Q, r.F = C, K, A, P, B, L, Q, F
        r.M = t.f_chain.shape[2] if t.f_chain.ndim == 3 else 1
        r.H, r.U = len(t.h_month), t.japan_pool.shape[0]
        r.E, r.X = t.base_entry.shape[0], t.base_checks.shape[0]
        r.NPL = P + L
        r.n_ncc = len(t.ncc_columns)
        r.n_year = len(t.year_modifier)
        if r.n_year < 1:
            raise ValueError("the morale year modifiers are empty")
        r.corps, r.entrench_from = int(t.corps), int(t.entrench_from)
        r.supply_cap, r.repeal_disband = int(t.supply_cap), int(t.repeal_disband)
        r.first_month, r.last_month = int(t.first_month), int(t.last_month)
        r.usw_from, r.coast_share = int(t.usw_from), int(t.coast_share)
        o = t.options
        r.variable_entry, r.morale = bool(o["variable_entry"]), bool(o["morale"])
        r.production, r.victory = bool(o["production"]), bool(o["victory"])
        r.surrender, r.naval = bool(o["surrender"]), bool(o["naval"])
        r.colonies, r.chart = bool(o["colonies"]), bool(o["naval_combat_chart"])
        if o["land"] not in ("historical", "fronts"):
            raise ValueError(f"unknown land mode {o['land']!r}")
        r.fronts = o["land"] == "fronts"
        r.ncc_below_one = bool(t.ncc_below_one)
        r.heavy_home_port = bool(t.heavy_home_port)
        n = t.named
        r.germany, r.austria_hungary, r.turkey = n["germany"], n["austria_hungary"], n["turkey"]
        r.bulgaria, r.france, r.russia = n["bulgaria"], n["france"], n["russia"]
        r.britain, r.belgium, r.serbia = n["britain"], n["belgium"], n["serbia"]
        r.montenegro, r.italy, r.romania = n["montenegro"], n["italy"], n["romania"]
        r.greece, r.netherlands = n["greece"], n["netherlands"]
        r.united_states, r.japan, r.albania = n["united_states"], n["japan"], n["albania"]
        r.north_sea, r.north_atlantic, r.baltic_sea = (n["north_sea"], n["north_atlantic"],
                                                       n["baltic_sea"])
        r.east_med, r.west_med, r.adriatic_sea = n["east_med"], n["west_med"], n["adriatic_sea"]
        r.black_sea, r.south_atlantic = n["black_sea"], n["south_atlantic"]
        r.indian_ocean, r.east_pacific = n["indian_ocean"], n["east_pacific"]
        r.west_pacific, r.south_pacific = n["west_pacific"], n["south_pacific"]
        r.constantinople, r.constantinople_port = n["constantinople"], n["constantinople_port"]
        r.trieste_port, r.japan_area = n["trieste_port"], n["japan_area"]
        r.abyssinia, r.goeben = n["abyssinia"], n["goeben"]

        r.c_side0 = <const int8_t*>self._ptr(t.c_side0, I1, C)
        r.c_major = <const int8_t*>self._ptr(t.c_major, I1, C)
        r.c_personnel = <const int16_t*>self._ptr(t.c_personnel, I2, C)
        r.c_supply = <const int16_t*>self._ptr(t.c_supply, I2, C)
        r.c_conscription0 = <const int8_t*>self._ptr(t.c_conscription0, I1, C)
        r.c_table_conscription = <const int8_t*>self._ptr(t.c_table_conscription, I1, C)
        r.c_mobilized0 = <const int16_t*>self._ptr(t.c_mobilized0, I2, C)
        r.c_rolls = <const int8_t*>self._ptr(t.c_rolls, I1, C)
        r.c_may_join = <const int8_t*>self._ptr(t.c_may_join, I1, C * 2)
        r.c_group = <const int8_t*>self._ptr(t.c_group, I1, C)
        r.c_army0 = <const int32_t*>self._ptr(t.c_army0, I4, C)
        r.c_overseas = <const int8_t*>self._ptr(t.c_overseas, I1, C)
        r.c_host = <const int8_t*>self._ptr(t.c_host, I1, C * C)
        r.c_home_ports = <const int8_t*>self._ptr(t.c_home_ports, I1, C * P)
        r.c_entry0 = <const int16_t*>self._ptr(t.c_entry0, I2, C)
        r.c_conquered0 = <const int16_t*>self._ptr(t.c_conquered0, I2, C)
        r.k_country = <const int16_t*>self._ptr(t.k_country, I2, K)
        r.k_objective = <const int8_t*>self._ptr(t.k_objective, I1, K)
        r.k_terrain = <const int8_t*>self._ptr(t.k_terrain, I1, K)
        r.k_port = <const int16_t*>self._ptr(t.k_port, I2, K)
        r.k_control0 = <const int8_t*>self._ptr(t.k_control0, I1, K)
        r.a_in_play = <const int8_t*>self._ptr(t.a_in_play, I1, A)
        r.p_country = <const int16_t*>self._ptr(t.p_country, I2, P)
        r.p_area = <const int8_t*>self._ptr(t.p_area, I1, P * A)
        r.p_off_map = <const int8_t*>self._ptr(t.p_off_map, I1, P)
        r.p_in_play = <const int8_t*>self._ptr(t.p_in_play, I1, P)
        r.p_city = <const int16_t*>self._ptr(t.p_city, I2, P)
        r.p_closed_by = <const int16_t*>self._ptr(t.p_closed_by, I2, P)
        r.b_country = <const int16_t*>self._ptr(t.b_country, I2, B)
        r.b_area = <const int8_t*>self._ptr(t.b_area, I1, B * A)
        r.b_no_central = <const int8_t*>self._ptr(t.b_no_central, I1, B)
        r.b_city = <const int16_t*>self._ptr(t.b_city, I2, B)
        r.l_owner = <const int16_t*>self._ptr(t.l_owner, I2, L)
        r.l_area = <const int8_t*>self._ptr(t.l_area, I1, L * A)
        r.l_neighbor = <const int8_t*>self._ptr(t.l_neighbor, I1, L * L)
        r.l_defense = <const int8_t*>self._ptr(t.l_defense, I1, L)
        r.l_kind = <const int8_t*>self._ptr(t.l_kind, I1, L)
        r.l_control0 = <const int8_t*>self._ptr(t.l_control0, I1, L)
        r.l_overland = <const int8_t*>self._ptr(t.l_overland, I1, L * C)
        r.l_no_return = <const int8_t*>self._ptr(t.l_no_return, I1, L)
        r.l_af0 = <const int16_t*>self._ptr(t.l_af0, I2, L * C)
        r.l_units0 = <const int16_t*>self._ptr(t.l_units0, I2, L * C)
        r.q_country0 = <const int16_t*>self._ptr(t.q_country0, I2, Q)
        r.q_kind = <const int8_t*>self._ptr(t.q_kind, I1, Q)
        r.q_base0 = <const int16_t*>self._ptr(t.q_base0, I2, Q)
        r.q_gunnery = <const int8_t*>self._ptr(t.q_gunnery, I1, Q)
        r.q_protection = <const int8_t*>self._ptr(t.q_protection, I1, Q)
        r.q_arrive = <const int16_t*>self._ptr(t.q_arrive, I2, Q)
        r.q_neutral_only = <const int8_t*>self._ptr(t.q_neutral_only, I1, Q)
        r.tenney = <const int8_t*>self._ptr(t.tenney, I1, 2)
        r.ncc_columns = <const int16_t*>self._ptr(t.ncc_columns, I2, r.n_ncc)
        r.ncc_far_left = <const int16_t*>self._ptr(t.ncc_far_left, I2, 6)
        r.ncc_damage = <const int16_t*>self._ptr(t.ncc_damage, I2, 6 * r.n_ncc)
        r.repair_months = <const int8_t*>self._ptr(t.repair_months, I1, 3)
        r.crt = <const int8_t*>self._ptr(t.crt, I1, 7 * 6)
        r.land_mods = <const int8_t*>self._ptr(t.land_mods, I1, 8)
        r.land_loss = <const int8_t*>self._ptr(t.land_loss, I1, 7 * 2)
        r.us_reinforcements = <const int16_t*>self._ptr(t.us_reinforcements, I2, 2)
        r.japan_pool = <const int8_t*>self._ptr(t.japan_pool, I1, r.U * 2)
        r.f_a = <const int16_t*>self._ptr(t.f_a, I2, F)
        r.f_b = <const int16_t*>self._ptr(t.f_b, I2, F)
        r.f_helper = <const int8_t*>self._ptr(t.f_helper, I1, F * C)
        r.f_chain = <const int16_t*>self._ptr(t.f_chain, I2, F * 2 * r.M)
        r.h_city = <const int16_t*>self._ptr(t.h_city, I2, r.H)
        r.h_month = <const int16_t*>self._ptr(t.h_month, I2, r.H)
        r.h_to = <const int8_t*>self._ptr(t.h_to, I1, r.H)
        r.roll_months = <const int8_t*>self._ptr(t.roll_months, I1, 13)
        r.colonial_months = <const int8_t*>self._ptr(t.colonial_months, I1, 13)
        r.morale_effects = <const int8_t*>self._ptr(t.morale_effects, I1, 4)
        r.morale_table = <const int8_t*>self._ptr(t.morale_table, I1, 4)
        r.base_morale = <const int8_t*>self._ptr(t.base_morale, I1, 5)
        r.year_modifier = <const int8_t*>self._ptr(t.year_modifier, I1, r.n_year)
        r.base_entry = <const int16_t*>self._ptr(t.base_entry, I2, r.E * 3)
        r.base_checks = <const int16_t*>self._ptr(t.base_checks, I2, r.X * 2)

        # -- derived -----------------------------------------------------------------------
        p_area, l_area, in_play = np.asarray(t.p_area), np.asarray(t.l_area), np.asarray(t.a_in_play)
        r.n_objectives = int(np.count_nonzero(t.k_objective))
        place_rows = [p_area[p] for p in range(P)] + [l_area[l] for l in range(L)]
        pl_amask = np.array([_mask(row * in_play) for row in place_rows], np.uint32)
        r.pl_amask = <const uint32_t*>self._ptr(pl_amask, np.dtype(np.uint32), P + L)
        p_raw = np.array([_mask(p_area[p]) for p in range(P)], np.uint32)
        r.p_amask_raw = <const uint32_t*>self._ptr(p_raw, np.dtype(np.uint32), P)
        b_raw = np.array([_mask(t.b_area[b]) for b in range(B)], np.uint32)
        r.b_amask_raw = <const uint32_t*>self._ptr(b_raw, np.dtype(np.uint32), B)
        onmap = np.array([any(p_area[p, a] and not t.p_off_map[p] for p in range(P))
                          for a in range(A)], np.uint8)
        r.a_onmap_port = <const uint8_t*>self._ptr(onmap, np.dtype(np.uint8), A)
        offmap = np.array([any(t.p_off_map[p] and t.p_country[p] == c and t.p_in_play[p]
                               for p in range(P)) for c in range(C)], np.uint8)
        r.c_offmap_port = <const uint8_t*>self._ptr(offmap, np.dtype(np.uint8), C)
        r.a_in_play_mask = _mask(in_play)
        c_areas = np.array([_mask(np.any([p_area[p] * in_play for p in range(P)
                                          if t.p_country[p] == c and t.p_in_play[p]]
                                         or [np.zeros(A, np.int8)], axis=0))
                            for c in range(C)], np.uint32)
        r.c_port_areas = <const uint32_t*>self._ptr(c_areas, np.dtype(np.uint32), C)
        self._lists(&r.c_city_start, &r.c_city_list,
                    [[k for k in range(K) if t.k_country[k] == c] for c in range(C)])
        self._lists(&r.c_port_start, &r.c_port_list,
                    [[p for p in range(P) if t.p_country[p] == c] for c in range(C)])
        self._lists(&r.c_home_start, &r.c_home_list,
                    [[p for p in range(P) if t.c_home_ports[c, p]] for c in range(C)])
        self._lists(&r.c_front_start, &r.c_front_list,
                    [[f for f in range(F) if c in (t.f_a[f], t.f_b[f]) or t.f_helper[f, c]]
                     for c in range(C)])
        self._lists(&r.c_overland_start, &r.c_overland_list,
                    [[l for l in range(L) if t.l_overland[l, c]] for c in range(C)])
        self._lists(&r.pl_nb_start, &r.pl_nb_list,
                    [[d for d in range(P + L) if d != x and pl_amask[x] & pl_amask[d]]
                     for x in range(P + L)])
        self._lists(&r.l_out_start, &r.l_out_list,
                    [[x for x in range(L) if t.l_neighbor[l, x]] for l in range(L)])
        self._lists(&r.l_in_start, &r.l_in_list,
                    [[x for x in range(L) if t.l_neighbor[x, l]] for l in range(L)])
        NW = (P + L + 63) // 64
        r.NW = NW

        def bits(places):
            w = np.zeros(NW, np.uint64)
            for x in places:
                w[x // 64] |= np.uint64(1) << np.uint64(x % 64)
            return w

        area_places = np.array([bits([x for x in range(P + L) if pl_amask[x] >> a & 1])
                                for a in range(A)], np.uint64).reshape(A, NW)
        r.area_places = <const uint64_t*>self._ptr(area_places, np.dtype(np.uint64), A * NW)
        p_raw_l = [int(m) for m in p_raw]

        def coast(x, d):               # naval.coast_connected, without the map
            return (x < P and d < P and not t.p_off_map[x] and not t.p_off_map[d]
                    and t.p_country[x] == t.p_country[d] and p_raw_l[x] & p_raw_l[d])

        coast_nb = np.array([bits([d for d in range(P + L) if d != x and pl_amask[x] & pl_amask[d]
                                   and coast(x, d)]) for x in range(P + L)],
                            np.uint64).reshape(P + L, NW)
        r.coast_nb = <const uint64_t*>self._ptr(coast_nb, np.dtype(np.uint64), (P + L) * NW)
        objs = np.array([k for k in range(K) if t.k_objective[k]], np.int32)
        r.obj_list = <const int32_t*>self._ptr(objs, I4, len(objs))
        # the most options of any decision (each kind's bound, from the sizes)
        pairs = int(np.count_nonzero(t.l_neighbor))
        overland = int(np.count_nonzero(t.l_overland))
        n_rolls = 2 * C
        r.max_options = 16 + max(
            1 + n_rolls * n_rolls,                       # trade
            2 + Q,                                       # gift, designate, intercept
            1 + (P + L) + 3 * A,                         # squadron
            1 + P,                                       # return
            1 + 3 * C,                                   # send supply
            1 + 12 * C + 12 * L + 6 * L * L,             # ship
            1 + 4 * F,                                   # land
            1 + 6 * (B + P + L) * (1 + L + C),           # landing (by source)
            1 + 16 * overland + 8 * pairs,               # colonial
            8)

        # the state's layout, checked against the model's
        layout, size = state_layout(goa)
        by_name = {name: (dtype, shape, offset) for name, dtype, shape, offset in layout}
        known = {f[0] for f in STATE_FIELDS}
        unknown = sorted(set(by_name) - known)
        if unknown:
            raise RuntimeError(f"the compiled core does not know the state arrays {unknown}: "
                               "add them to _core/goa/tables (GoaS, STATE_FIELDS)")
        for i, (name, dtype, shape) in enumerate(STATE_FIELDS):
            want = shape(C, K, A, L, Q)
            if name not in by_name or by_name[name][0] != dtype or tuple(by_name[name][1]) != want:
                raise RuntimeError(f"the state array {name!r} is not the compiled core's "
                                   f"{dtype} {want}: update _core/goa/tables")
            self._off[i] = by_name[name][2]
        self.state_size = size
        self.layout = layout
        init = initial_state(goa).buffer.copy()
        init.flags.writeable = False
        self.initial = init

    cdef const void* _ptr(self, object a, object dtype, Py_ssize_t n) except NULL:
        arr = np.ascontiguousarray(a, dtype=dtype)
        if arr.size != n:
            raise ValueError(f"a table has {arr.size} entries where the core expects {n}")
        if arr.size == 0:
            arr = np.zeros(1, dtype)            # a valid pointer, never read
        self._keep.append(arr)
        return cnp.PyArray_DATA(arr)

    cdef int _lists(self, const int32_t** start, const int32_t** entries, list rows) except -1:
        st, flat = _csr(rows)
        start[0] = <const int32_t*>self._ptr(st, I4, len(st))
        entries[0] = <const int32_t*>self._ptr(flat, I4, len(flat))
        return 0

    cdef void bind(self, GoaS* s, uint8_t* b) noexcept nogil:
        cdef Py_ssize_t* o = self._off
        s.scalars = <int32_t*>(b + o[0])
        s.side = <int8_t*>(b + o[1])
        s.limited = <int8_t*>(b + o[2])
        s.entered = <int16_t*>(b + o[3])
        s.conquered = <int16_t*>(b + o[4])
        s.army = <int32_t*>(b + o[5])
        s.abroad = <int32_t*>(b + o[6])
        s.supply = <int32_t*>(b + o[7])
        s.personnel_last = <int16_t*>(b + o[8])
        s.supply_last = <int16_t*>(b + o[9])
        s.mobilized = <int16_t*>(b + o[10])
        s.conscription = <int8_t*>(b + o[11])
        s.since_roll = <int8_t*>(b + o[12])
        s.demoralized = <int16_t*>(b + o[13])
        s.reduced = <int8_t*>(b + o[14])
        s.suffered = <int8_t*>(b + o[15])
        s.fed = <int8_t*>(b + o[16])
        s.joined_with = <int8_t*>(b + o[17])
        s.invaded = <int8_t*>(b + o[18])
        s.entry_city = <int8_t*>(b + o[19])
        s.gift_turkey = <int8_t*>(b + o[20])
        s.received = <int8_t*>(b + o[21])
        s.marines = <int16_t*>(b + o[22])
        s.shipped = <int8_t*>(b + o[23])
        s.screen = <int8_t*>(b + o[24])
        s.moved = <int8_t*>(b + o[25])
        s.in_combat = <int8_t*>(b + o[26])
        s.supported = <int8_t*>(b + o[27])
        s.hit_level = <int8_t*>(b + o[28])
        s.returning = <int16_t*>(b + o[29])
        s.return_port = <int16_t*>(b + o[30])
        s.sortie_won = <int8_t*>(b + o[31])
        s.sunk = <int16_t*>(b + o[32])
        s.usw = <int16_t*>(b + o[33])
        s.usw_since_roll = <int8_t*>(b + o[34])
        s.city = <int8_t*>(b + o[35])
        s.garrison = <int16_t*>(b + o[36])
        s.colony = <int8_t*>(b + o[37])
        s.col_af = <int16_t*>(b + o[38])
        s.col_units = <int16_t*>(b + o[39])
        s.blockade = <int8_t*>(b + o[40])
        s.blockade_prev = <int8_t*>(b + o[41])
        s.med_blockade = <int8_t*>(b + o[42])
        s.squadron_country = <int16_t*>(b + o[43])
        s.squadron_base = <int16_t*>(b + o[44])
        s.squadron_sortie = <int16_t*>(b + o[45])
        s.squadron_damage = <int8_t*>(b + o[46])
        s.squadron_repair = <int8_t*>(b + o[47])
        s.blockade_months = <int16_t*>(b + o[48])
        s.usw_months = <int16_t*>(b + o[49])
        s.morale_results = <int16_t*>(b + o[50])
        s.blockade_lost = <int32_t*>(b + o[51])
        s.colonies_taken = <int16_t*>(b + o[52])
        s.strength_lost = <int32_t*>(b + o[53])

    @property
    def max_options(self) -> int:
        return self.t.max_options

    @property
    def goa(self):
        """The ``GoaTables`` (``None`` once it is gone)."""
        return self._goa()


#: each GoaTables' CoreTables, as long as the GoaTables lives (kept out of the GoaTables, so
#: that it pickles and copies as before)
_BUILT = weakref.WeakKeyDictionary()


def core_tables(goa) -> CoreTables:
    """The ``CoreTables`` of a ``GoaTables``, built on first use and kept while it lives."""
    ct = _BUILT.get(goa)
    if ct is None:
        ct = _BUILT[goa] = CoreTables(goa)
    return ct
