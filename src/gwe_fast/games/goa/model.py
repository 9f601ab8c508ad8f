"""The two records of a Guns of August game: ``GoaTables`` (fixed) and ``GoaState`` (play).

``GoaTables`` is compiled once per scenario and options (``tables.compile_tables``) from the
validated data (``data.read_goa``): every chart, table and stand-in number as a numpy array
indexed by integer codes, plus the option switches. It never changes during play.

``GoaState`` is one fixed set of typed arrays: everything that changes in a game, and nothing
else. Its arrays keep their shapes and dtypes for the whole game, so the compiled core
(``_core/goa``) and the policies read them in place, and ``copy()`` is a cheap snapshot for
look-ahead. Counts of things (``n_countries`` …) are the tables'.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

I8, I16, I32 = np.dtype(np.int8), np.dtype(np.int16), np.dtype(np.int32)

#: index of the scalars in ``GoaState.scalars``
MONTH, RESULT, RESULT_MONTH, ALL_OBJECTIVES_SINCE, JAPAN_CONQUESTS, JAPAN_PERSONNEL, JAPAN_POOL = (
    range(7))
N_SCALARS = 8


@dataclass(frozen=True, eq=False)
class GoaTables:
    """Everything fixed about a game of The Guns of August, as arrays.

    Names: ``c_*`` countries, ``k_*`` cities, ``a_*`` sea areas, ``p_*`` ports (the first
    ``n_ports`` places), ``l_*`` colonies and areas (the places after the ports), ``b_*``
    beaches, ``q_*`` squadrons, ``f_*`` fronts, ``h_*`` historical land events. Country
    indices of the countries the rules name are attributes (``germany``, ``britain`` …; -1
    when absent).
    """

    # -- countries --------------------------------------------------------------------------
    c_key: tuple
    c_name: tuple
    c_side0: np.ndarray          #: int8[C]: side at the start of the scenario
    c_major: np.ndarray          #: int8[C]
    c_personnel: np.ndarray      #: int16[C]: the points table (P._19)
    c_supply: np.ndarray         #: int16[C]
    c_conscription0: np.ndarray  #: int8[C]: 1 conscription in effect at the start (P._18)
    c_table_conscription: np.ndarray  #: int8[C]: 1 the points table's personnel figure is
                                      #: with conscription (P._14, P._18: not Britain, USA)
    c_mobilized0: np.ndarray     #: int16[C]: month economic mobilization was declared, -1 (P._17)
    c_rolls: np.ndarray          #: int8[C]: 1 its entry is rolled for (V._1)
    c_may_join: np.ndarray       #: int8[C, 2]: may join that side voluntarily (V._9)
    c_group: np.ndarray          #: int8[C]: V._8 group: 0 west, 1 east, -1 none
    c_army0: np.ndarray          #: int32[C]: land strength points at the start
    c_overseas: np.ndarray       #: int8[C]: must ship land forces to fight on the continent
    c_host: np.ndarray           #: int8[C, C]: may ship land forces to that country
    c_home_ports: np.ndarray     #: int8[C, P]: ports land units of the country sail from
    c_entry0: np.ndarray         #: int16[C]: month it entered the war (-1: not at war)
    c_conquered0: np.ndarray     #: int16[C]: month it was conquered before the start, -1
    # -- cities -----------------------------------------------------------------------------
    k_key: tuple
    k_country: np.ndarray        #: int16[K]
    k_objective: np.ndarray      #: int8[K]: one of the objective cities (swaps applied)
    k_terrain: np.ndarray        #: int8[K]: codes.Terrain
    k_port: np.ndarray           #: int16[K]: its port, -1
    k_control0: np.ndarray       #: int8[K]: side controlling it at the start
    # -- sea areas, ports, beaches -------------------------------------------------------------
    a_key: tuple
    a_in_play: np.ndarray        #: int8[A]: 0 for the colonial areas without the colonies
    p_key: tuple
    p_country: np.ndarray        #: int16[P]
    p_area: np.ndarray           #: int8[P, A]
    p_off_map: np.ndarray        #: int8[P]
    p_in_play: np.ndarray        #: int8[P]: 0 for the colonial ports without the colonies
    p_city: np.ndarray           #: int16[P]: the city the port is, -1 off the map
    p_closed_by: np.ndarray      #: int16[P]: a country whose enemies close it (Antwerp: NL), -1
    b_key: tuple
    b_country: np.ndarray        #: int16[B]
    b_area: np.ndarray           #: int8[B, A]
    b_no_central: np.ndarray     #: int8[B]
    b_city: np.ndarray           #: int16[B]: the city a lodgement there threatens
    # -- colonies and areas ----------------------------------------------------------------------
    l_key: tuple
    l_owner: np.ndarray          #: int16[L]: country owning it in 1914, -1 for areas
    l_area: np.ndarray           #: int8[L, A]
    l_neighbor: np.ndarray       #: int8[L, L]
    l_defense: np.ndarray        #: int8[L]
    l_kind: np.ndarray           #: int8[L]: 0 colony, 1 sovereign, 2 China, 3 Turkish on entry,
                                 #: 4 Turkish opponent on entry (Arabia), 5 Japan
    l_control0: np.ndarray       #: int8[L]: side controlling it at the start
    l_overland: np.ndarray       #: int8[L, C]: C.52/C.64 links: may move or attack overland
    l_no_return: np.ndarray      #: int8[L]: C.44: battlecruisers based here may not return
    l_af0: np.ndarray            #: int16[L, C]: attack factors of land units (not support)
    l_units0: np.ndarray         #: int16[L, C]: land units
    # -- squadrons ---------------------------------------------------------------------------
    q_country0: np.ndarray       #: int16[Q]
    q_kind: np.ndarray           #: int8[Q]: codes.Ship
    q_base0: np.ndarray          #: int16[Q]: place (port, or P + colony), -1 not in play
    q_gunnery: np.ndarray        #: int8[Q]
    q_protection: np.ndarray     #: int8[Q]
    q_arrive: np.ndarray         #: int16[Q]: month it comes into play, -1 at the start
    q_neutral_only: np.ndarray   #: int8[Q]: comes only while its country is neutral (C.26)
    tenney: np.ndarray           #: int8[2]: N.4 stand-in: hit on die <= gunnery / [0];
                                 #: heavy damage on die > protection / [1]
    ncc_columns: np.ndarray      #: int16[6]: lowest combined gunnery of each column
    ncc_far_left: np.ndarray     #: int16[6]: far-left column by die 1..6 (N.45)
    ncc_damage: np.ndarray       #: int16[6, 6]: damage by die 1..6 and column (caps resolved)
    repair_months: np.ndarray    #: int8[3]: months to repair light, heavy damage (index 1, 2)
    # -- land ---------------------------------------------------------------------------------
    corps: int                   #: strength points of one corps-equivalent unit
    entrench_from: int           #: month entrenchment starts
    crt: np.ndarray              #: int8[7, 6]: codes.Land by modified die 0..6 and column
    land_mods: np.ndarray        #: int8[8]: fort, entrenchment, terrain, demoralized, per SP,
                                 #: cap, main share %, upkeep (strength per supply point)
    land_loss: np.ndarray        #: int8[7, 2]: % of the engaged strength lost (attacker, defender)
    supply_cap: int              #: months of supply a country may hold in stock
    repeal_disband: int          #: % of land strength disbanded on repealing conscription (P._15)
    us_reinforcements: np.ndarray  #: int16[2]: months after entry, strength a month (P._19)
    japan_pool: np.ndarray       #: int8[U, 2]: Japan's force pool in build order: attack, support
    f_a: np.ndarray              #: int16[F]: the country on side a of the front
    f_b: np.ndarray              #: int16[F]
    f_helper: np.ndarray         #: int8[F, C]
    f_chain: np.ndarray          #: int16[F, 2, M]: cities of a and of b from the border inward
    h_city: np.ndarray           #: int16[H]: land=historical events, by month
    h_month: np.ndarray          #: int16[H]
    h_to: np.ndarray             #: int8[H]
    # -- morale, entry, victory -----------------------------------------------------------------
    roll_months: np.ndarray      #: int8[13]: 1 where morale and entry rolls happen (1..12)
    colonial_months: np.ndarray  #: int8[13]: 1 where colonial combat is rolled (C.61)
    morale_effects: np.ndarray   #: int8[4]: RR % personnel, D1 %, D2 % strength lost, months
    morale_table: np.ndarray     #: int8[4]: the highest roll giving surrender, D2, D1, RR
    base_morale: np.ndarray      #: int8[5]: the base game's modifiers (tables.BASE_MORALE)
    usw0: np.ndarray             #: int16[2]: month each side's USW began before the start, -1
    ncc_below_one: int           #: 1: a chart roll below 1 does no damage; 0: read row 1
    heavy_home_port: int         #: 1: heavy damage is repaired only in a home port (N.5)
    year_modifier: np.ndarray    #: int8[6]: M._9 by year from 1914
    base_entry: np.ndarray       #: int16[E, 3]: (country, month, side) without variable entry
    base_checks: np.ndarray      #: int16[X, 2]: (month, objective cities outside DE/AH needed)
    # -- scenario -----------------------------------------------------------------------------
    first_month: int
    last_month: int
    options: dict = field(default_factory=dict)
    #: country indices the rules name (-1 when absent)
    named: dict = field(default_factory=dict)

    @property
    def n_countries(self) -> int:
        return len(self.c_key)

    @property
    def n_cities(self) -> int:
        return len(self.k_key)

    @property
    def n_areas(self) -> int:
        return len(self.a_key)

    @property
    def n_ports(self) -> int:
        return len(self.p_key)

    @property
    def n_colonies(self) -> int:
        return len(self.l_key)

    @property
    def n_places(self) -> int:
        return len(self.p_key) + len(self.l_key)

    @property
    def n_squadrons(self) -> int:
        return len(self.q_kind)

    @property
    def n_fronts(self) -> int:
        return len(self.f_a)

    def __getattr__(self, name):
        named = self.__dict__.get("named")
        if named is not None and name in named:
            return named[name]
        raise AttributeError(name)


#: the state arrays: name -> (dtype, shape from the tables)
STATE_ARRAYS = {
    "scalars": (I32, lambda t: (N_SCALARS,)),
    # countries
    "side": (I8, lambda t: (t.n_countries,)),
    "limited": (I8, lambda t: (t.n_countries,)),        #: Britain a limited participant (V._2)
    "entered": (I16, lambda t: (t.n_countries,)),       #: month of entry, -1
    "conquered": (I16, lambda t: (t.n_countries,)),     #: month conquered, -1
    "army": (I32, lambda t: (t.n_countries,)),          #: land strength at home / on its fronts
    "abroad": (I32, lambda t: (t.n_countries, t.n_countries)),  #: strength shipped to a host
    "supply": (I32, lambda t: (t.n_countries,)),        #: supply points in stock
    "personnel_last": (I16, lambda t: (t.n_countries,)),
    "supply_last": (I16, lambda t: (t.n_countries,)),
    "mobilized": (I16, lambda t: (t.n_countries,)),     #: month econ. mobilization declared, -1
    "conscription": (I8, lambda t: (t.n_countries,)),   #: 0 never, 1 in effect, 2 repealed
    "since_roll": (I8, lambda t: (t.n_countries,)),     #: bits: what happened since the last roll
    "demoralized": (I16, lambda t: (t.n_countries,)),   #: demoralized through this month, -1
    "reduced": (I8, lambda t: (t.n_countries,)),        #: RR until the next roll
    "suffered": (I8, lambda t: (t.n_countries,)),       #: has had a -1 or -2 result (M._8)
    "fed": (I8, lambda t: (t.n_countries,)),            #: consecutive months fed by sea (M._3)
    "joined_with": (I8, lambda t: (t.n_countries,)),    #: M._5 bonus: Italy, USA entered after
    "invaded": (I8, lambda t: (t.n_countries,)),        #: invaded by Germany (V._2)
    "entry_city": (I8, lambda t: (t.n_countries, t.n_cities)),  #: control at its entry (M._1)
    "gift_turkey": (I8, lambda t: (2,)),                #: squadron given to Turkey by side (V._4)
    "received": (I8, lambda t: (t.n_countries,)),       #: received supply by sea this month
    "marines": (I16, lambda t: (6,)),                   #: N.96: made, ready, due in 4 months
    "shipped": (I8, lambda t: (t.n_countries,)),        #: land units moved by sea this phase (N.85)
    # squadrons this month
    "screen": (I8, lambda t: (t.n_squadrons,)),         #: sortied without its gunnery (N.44)
    "moved": (I8, lambda t: (t.n_squadrons,)),
    "in_combat": (I8, lambda t: (t.n_squadrons,)),
    "supported": (I8, lambda t: (t.n_squadrons,)),      #: supported an invasion (N.94)
    "hit_level": (I8, lambda t: (t.n_squadrons,)),
    "returning": (I16, lambda t: (t.n_squadrons,)),     #: C.44: month its return began, -1
    "return_port": (I16, lambda t: (t.n_squadrons,)),   #: C.44: the port it returns to, -1
    "sortie_won": (I8, lambda t: (t.n_areas,)),         #: -1 no combat, side, 2 neither
    "sunk": (I16, lambda t: (2,)),
    "usw": (I16, lambda t: (2,)),                       #: month each side's USW began, -1
    "usw_since_roll": (I8, lambda t: (2,)),
    # cities, colonies
    "city": (I8, lambda t: (t.n_cities,)),              #: controlling side
    "garrison": (I16, lambda t: (t.n_cities,)),         #: units garrisoning (S._13, S._14)
    "colony": (I8, lambda t: (t.n_colonies,)),
    "col_af": (I16, lambda t: (t.n_colonies, t.n_countries)),
    "col_units": (I16, lambda t: (t.n_colonies, t.n_countries)),
    # sea
    "blockade": (I8, lambda t: (t.n_areas, 2)),         #: 1 side s blockades area a now
    "blockade_prev": (I8, lambda t: (t.n_areas, 2)),
    "med_blockade": (I8, lambda t: (2,)),               #: both Med areas since the last roll (V._3)
    "squadron_country": (I16, lambda t: (t.n_squadrons,)),
    "squadron_base": (I16, lambda t: (t.n_squadrons,)),
    "squadron_sortie": (I16, lambda t: (t.n_squadrons,)),
    "squadron_damage": (I8, lambda t: (t.n_squadrons,)),
    "squadron_repair": (I8, lambda t: (t.n_squadrons,)),
    # records (results columns)
    "blockade_months": (I16, lambda t: (t.n_areas, 2)),
    "usw_months": (I16, lambda t: (2,)),
    "morale_results": (I16, lambda t: (t.n_countries, 5)),
    "blockade_lost": (I32, lambda t: (t.n_countries,)),
    "colonies_taken": (I16, lambda t: (2,)),
    "strength_lost": (I32, lambda t: (t.n_countries,)),
}

#: ``since_roll`` bits (M._3, M._4): economic mobilization in effect at some time since the
#: last morale roll, repealed since, conscription in effect since, implemented since, supply
#: lost to a blockade since
MOBILIZED_SINCE, DEMOBILIZED_SINCE, CONSCRIPTED_SINCE, IMPLEMENTED_SINCE, BLOCKADE_LOSS_SINCE = (
    1, 2, 4, 8, 16)


def state_layout(t: GoaTables) -> tuple[list[tuple[str, np.dtype, tuple, int]], int]:
    """Where each state array lives in the one buffer: ``[(name, dtype, shape, offset)]``
    and the buffer's size in bytes (each array aligned to 8 bytes)."""
    layout = []
    offset = 0
    for name, (dtype, shape) in STATE_ARRAYS.items():
        shp = tuple(int(x) for x in shape(t))
        layout.append((name, dtype, shp, offset))
        size = int(np.prod(shp, dtype=np.int64)) * dtype.itemsize
        offset += (size + 7) // 8 * 8
    return layout, max(offset, 8)


_PLACES: dict[int, tuple[list, dict]] = {}


def _places(layout) -> dict[str, tuple[np.dtype, tuple, int, int]]:
    """``{name: (dtype, shape, first byte, end byte)}`` of a ``state_layout``, made once per
    layout (every game of a scenario shares its tables' layout)."""
    hit = _PLACES.get(id(layout))
    if hit is not None and hit[0] is layout:
        return hit[1]
    where = {}
    for name, dtype, shape, offset in layout:
        n = math.prod(shape)
        where[name] = (dtype, shape, offset, offset + n * dtype.itemsize)
    if len(_PLACES) >= 64:                       # layouts made per game (``zeros``) pass by
        _PLACES.clear()
    _PLACES[id(layout)] = (layout, where)        # the layout kept alive: its id stays its own
    return where


class GoaState:
    """The game in progress: the arrays of ``STATE_ARRAYS``, shapes fixed by the tables, all
    views of one contiguous buffer (``buffer``), so that a copy is one ``memcpy`` and the
    compiled core reads the state through one pointer and the offsets of ``state_layout``.

    A view is made when its array is first read (``__getattr__``), then kept: a game the
    compiled core plays reads a dozen of the 54 arrays, for its result row.
    """

    __slots__ = ("buffer", "_layout", "_where", *STATE_ARRAYS)

    def __init__(self, buffer: np.ndarray, layout):
        object.__setattr__(self, "buffer", buffer)
        object.__setattr__(self, "_layout", layout)
        object.__setattr__(self, "_where", _places(layout))

    def __getattr__(self, name):
        # only reached for an array not read yet (its slot is empty) or a name that is none
        try:
            dtype, shape, start, stop = self._where[name]
        except KeyError:
            raise AttributeError(f"GoaState has no field {name!r}") from None
        view = self.buffer[start:stop].view(dtype).reshape(shape)
        object.__setattr__(self, name, view)
        return view

    def __setattr__(self, name, value):
        if name in STATE_ARRAYS:
            getattr(self, name)[...] = value       # arrays are filled in place, never replaced
        elif isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
        else:
            raise AttributeError(f"GoaState has no field {name!r}")

    @classmethod
    def zeros(cls, t: GoaTables) -> GoaState:
        layout, size = state_layout(t)
        return cls(np.zeros(size, dtype=np.uint8), layout)

    @property
    def month(self) -> int:
        return int(self.scalars[MONTH])

    @property
    def japan_conquests(self) -> int:
        """Colonies and areas Japan has conquered (V._6)."""
        return int(self.scalars[JAPAN_CONQUESTS])

    @property
    def japan_personnel(self) -> int:
        """Japanese personnel points not yet spent on units (C.26)."""
        return int(self.scalars[JAPAN_PERSONNEL])

    @japan_personnel.setter
    def japan_personnel(self, value: int) -> None:
        self.scalars[JAPAN_PERSONNEL] = value

    def copy(self) -> GoaState:
        return GoaState(self.buffer.copy(), self._layout)

    def arrays(self) -> dict[str, np.ndarray]:
        return {name: getattr(self, name) for name in STATE_ARRAYS}

    def equals(self, other: GoaState) -> bool:
        return bool(np.array_equal(self.buffer, other.buffer))
