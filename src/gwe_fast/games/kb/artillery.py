"""Artillery (9.0): Artillery Points, their range and their tracks, and the fire of the
Artillery Stage.

The shared helpers here (``receive``, ``field_in_range``, ``spend``, ``barrage_choices``) are
used by every kind of fire: counter-battery (9.2), persistent gas (9.3), drumfire (9.4),
rolling (9.5) and SOS (9.6) barrages. The phases of the Artillery Stage are here
(``counter_battery_phase``, ``gas_phase``, ``drumfire_phase``), with the gas markers' step
losses and removal (``gas_step_losses``, ``gas_removal``) and the drumfire resolution that
ground attacks share (``drumfire_result``, ``barrage_attack``, 12.31); rolling and SOS
barrages are resolved by the combat module.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from gwe_fast import dtypes
from gwe_fast.enums import Side, UnitType
from gwe_fast.games.kb import units
from gwe_fast.games.kb.game import FIELD, HEAVY, MISSIONS, Flag, KbGame
from gwe_fast.state import Status

# plain ints: numpy probes an IntEnum operand through the enum metaclass (slow)
_CENTRAL = int(Side.CENTRAL)
_HQ = int(UnitType.HQ)


def schedule(game: KbGame, side: int, turn: int) -> tuple[int, int]:
    """(field, heavy) Artillery Points ``side`` receives on ``turn`` (9.81, 9.82)."""
    key = "german" if side == _CENTRAL else "allied"
    for band in game.scenario.tables["artillery_points"][key]:
        if band["first_turn"] <= turn <= band.get("last_turn", 10**6):
            return int(band["field"]), int(band["heavy"])
    return 0, 0


def receive(game: KbGame) -> None:
    """Set both Artillery Tracks to this Game-Turn's points; unused points are never carried
    over (9.0)."""
    arty = game.arr("arty")
    turn = int(game.state.turn)
    for side in (Side.ALLIED, Side.CENTRAL):
        arty[side] = schedule(game, side, turn)


def field_in_range(game: KbGame, side: int) -> np.ndarray:
    """Cells Field Artillery Points of ``side`` may fire at: within the field artillery range
    (10 hexes) of a friendly HQ (9.11[1])."""
    sc, st = game.scenario, game.state
    hq = np.flatnonzero((st.unit_status & Status.ON_MAP).astype(bool) & (sc.units.side == side)
                        & (sc.units.utype == _HQ))
    rng = int(sc.tables["artillery_points"]["field_range_from_hq"])
    return _within_any(sc, tuple(sorted({int(c) for c in st.unit_cell[hq]})), rng)


@lru_cache(maxsize=256)
def _within_any(scenario, cells: tuple[int, ...], radius: int) -> np.ndarray:
    """``bool[n_cells]``: within ``radius`` hexes of any of ``cells``; read-only and kept, as
    the HQs seldom move."""
    m = scenario.map
    out = np.zeros(m.n_cells, dtype=bool)
    for c in cells:
        out[m.within(c, radius)] = True
    out.flags.writeable = False
    return out


def barrage_choices(game: KbGame, side: int, cell: int, low: int, high: int,
                    field_ok: np.ndarray | None = None) -> list[tuple[int, int]]:
    """Every ``(field, heavy)`` mix of ``low``..``high`` points that ``side`` has left and may
    fire at ``cell`` (Field Points only within range, 9.11; both kinds may be mixed, 9.46,
    9.51, 9.61)."""
    f_left, h_left = (int(x) for x in game.arr("arty")[side])
    if field_ok is None:
        field_ok = field_in_range(game, side)
    if not field_ok[cell]:
        f_left = 0
    out = []
    for total in range(low, high + 1):
        for f in range(min(total, f_left), -1, -1):
            h = total - f
            if h <= h_left:
                out.append((f, h))
    return out


def spend(game: KbGame, side: int, field: int, heavy: int, mission: str) -> None:
    """Deduct points from the side's Artillery Track as the fire is declared (9.8)."""
    arty = game.arr("arty")
    if field < 0 or heavy < 0 or field > arty[side, FIELD] or heavy > arty[side, HEAVY]:
        raise ValueError(f"cannot spend {field} field and {heavy} heavy points: the track holds "
                         f"{int(arty[side, FIELD])} and {int(arty[side, HEAVY])}")
    arty[side, FIELD] -= field
    arty[side, HEAVY] -= heavy
    spent = game.arr("arty_spent")
    k = MISSIONS.index(mission)
    spent[side, k, FIELD] += field
    spent[side, k, HEAVY] += heavy
    game.event("artillery", side=side, mission=mission, field=field, heavy=heavy)


def points_left(game: KbGame, side: int) -> tuple[int, int]:
    """``(field, heavy)`` Artillery Points ``side`` still has this Game-Turn (9.8)."""
    f, h = (int(x) for x in game.arr("arty")[side])
    return f, h


def _turn(game: KbGame) -> int:
    return int(game.state.turn)


# --- 9.2 counter-battery fire ----------------------------------------------------------------

def counter_battery_totals(game: KbGame, side: int) -> list[int]:
    """The totals ``side`` may allocate to counter-battery fire: multiples of 10 up to its Field
    and Heavy points together (9.21)."""
    mult = int(game.scenario.tables["counter_battery"]["allocation_multiple"])
    f, h = points_left(game, side)
    return list(range(0, (f + h) // mult * mult + 1, mult))


def split_choices(game: KbGame, side: int, total: int) -> list[tuple[int, int]]:
    """Every ``(field, heavy)`` split of ``total`` points ``side`` can pay; either kind may be
    used, without range restriction (9.24)."""
    f, h = points_left(game, side)
    return [(x, total - x) for x in range(min(total, f), max(0, total - h) - 1, -1)]


def counter_battery_result(game: KbGame, points: int, die: int) -> str:
    """The Counter-Battery Fire Table's result (9.25): ``"-"``, a divisor ``"2"``..``"5"`` or
    ``"All"``. Allocations beyond the last column (none is possible with the printed
    schedules) read the last column."""
    tab = game.scenario.tables["counter_battery"]
    cols = [int(c) for c in tab["artillery_points"]]
    col = max(i for i, c in enumerate(cols) if c <= points) if points >= cols[0] else None
    if col is None:
        return "-"
    return str(tab["results"][[int(d) for d in tab["die"]].index(die)][col])


def after_counter_battery(field: int, heavy: int, result: str) -> tuple[int, int]:
    """The enemy's points once a result is applied (9.23): divided, fractions dropped; none
    left on "All"; unchanged on "-"."""
    if result == "-":
        return field, heavy
    if result.lower() == "all":
        return 0, 0
    n = int(result)
    return field // n, heavy // n


def counter_battery_phase(game: KbGame) -> dict[int, str]:
    """The Counter-Battery Fire Phase (4.2 D1, 9.2), from Game-Turn 3.

    Both players allocate at once and in secret (9.21, 9.22): one choice of a Field/Heavy mix
    whose total is a multiple of 10 (``kb.artillery.counter_battery``), so that nothing of
    either allocation is known before both are made; both allocations are deducted together,
    then each player who fired rolls (German first) against the enemy's points remaining after
    allocation; both results are applied together (9.2: simultaneous).
    Returns ``{side: result}`` for the sides that fired."""
    tab = game.scenario.tables["counter_battery"]
    if _turn(game) < int(tab["first_turn"]):
        return {}
    sides = (Side.CENTRAL, Side.ALLIED)
    splits = game.ask_secret("kb.artillery.counter_battery",
                             {s: [mix for t in counter_battery_totals(game, s)
                                  for mix in split_choices(game, s, t)] for s in sides})
    totals = {s: sum(splits[s]) for s in sides}
    for s in sides:
        f, h = splits[s]
        if f or h:
            spend(game, s, f, h, "counter_battery")                   # 9.22
    results = {}
    for s in sides:
        if totals[s] > 0:                                             # 9.23
            die = game.roll("artillery", "9.23 counter-battery fire")
            results[s] = counter_battery_result(game, totals[s], die)
            game.event("counter_battery", side=int(s), points=totals[s], die=die,
                       result=results[s])
    arty = game.arr("arty")
    new = {}
    for s, res in results.items():
        enemy = 1 - int(s)
        new[enemy] = after_counter_battery(int(arty[enemy, FIELD]), int(arty[enemy, HEAVY]), res)
    lost = game.arr("arty_lost")
    for enemy, (f, h) in new.items():                                 # applied together
        lost[enemy, FIELD] += int(arty[enemy, FIELD]) - f
        lost[enemy, HEAVY] += int(arty[enemy, HEAVY]) - h
        arty[enemy] = (f, h)
    return results


# --- 9.3 persistent gas ----------------------------------------------------------------------

def _far_from(game: KbGame, side: int, distance: int) -> np.ndarray:
    """Cells at least ``distance`` hexes from every unit of ``side`` on the map (9.33)."""
    sc, st = game.scenario, game.state
    m = sc.map
    mine = (st.unit_status & Status.ON_MAP).astype(bool) & (sc.units.side == side)
    cells = np.unique(st.unit_cell[mine])
    if cells.size == 0 or distance <= 0:
        return np.ones(m.n_cells, dtype=bool)
    nb = m.neighbors
    cost = np.where(nb >= 0, 1, -1).astype(dtypes.STEPCOST)
    dist, _ = m.k.search.bounded_search(nb, cost, cells, limit=distance - 1)
    return dist[0] < 0


def gas_markers_free(game: KbGame) -> int:
    """Persistent Gas markers not on the map (9.36: a removed marker is available again)."""
    tab = game.scenario.tables["persistent_gas"]
    return int(tab["markers"]) - int((game.arr("gas") >= 0).sum())


def gas_targets(game: KbGame, field_ok: np.ndarray | None = None) -> np.ndarray:
    """Cells the German player may place a Persistent Gas marker on now (9.32, 9.33): any
    terrain, enemy-occupied or not, at least 6 hexes from the nearest German unit at the moment
    of placement, and payable with 15 points within range (Field only within 10 hexes of a
    German HQ, 9.11)."""
    tab = game.scenario.tables["persistent_gas"]
    per = int(tab["points_per_marker"])
    side = Side.CENTRAL
    f, h = points_left(game, side)
    if field_ok is None:
        field_ok = field_in_range(game, side)
    payable = (field_ok & (f + h >= per)) | (h >= per)
    return payable & _far_from(game, side, int(tab["min_distance_from_friendly"]))


def gas_phase(game: KbGame) -> int:
    """The Persistent Gas Fire Phase (4.2 D2, 9.3): German only, not on Game-Turns 1-2
    (17.21). The German player announces how many markers he fires (15 points each, 9.31;
    ``kb.artillery.gas_markers``, at most the markers off the map, 9.36), then places each on
    a target (``kb.artillery.gas_target``) with its Field/Heavy mix
    (``kb.artillery.gas_points``), deducted as it is placed. Returns the markers placed."""
    tab = game.scenario.tables["persistent_gas"]
    if _turn(game) < int(tab["first_turn"]):
        return 0
    side = Side.CENTRAL
    per = int(tab["points_per_marker"])
    f, h = points_left(game, side)
    most = min(gas_markers_free(game), (f + h) // per)
    if most <= 0:
        return 0
    n = game.ask("kb.artillery.gas_markers", side, list(range(most + 1)))
    field_ok = field_in_range(game, side)
    slots = game.arr("gas")
    placed = 0
    for _ in range(n):
        legal = np.flatnonzero(gas_targets(game, field_ok))
        if legal.size == 0:
            break
        cell = int(game.ask("kb.artillery.gas_target", side, [int(c) for c in legal]))
        mix = game.ask("kb.artillery.gas_points", side,
                       barrage_choices(game, side, cell, per, per, field_ok), cell=cell)
        spend(game, side, mix[0], mix[1], "gas")
        slots[int(np.flatnonzero(slots < 0)[0])] = cell
        game.arr("gas_placed")[0] += 1
        game.event("gas_placed", cell=cell)
        placed += 1
    return placed


def gas_step_losses(game: KbGame, side: int) -> int:
    """Each stack of ``side`` ending its Movement Phase in a gas zone loses one step, the owner
    choosing the unit (9.34[2]; several zones over a hex cost no more). Returns steps lost."""
    from gwe_fast.games.kb.movement import gas_zone

    zone = gas_zone(game)
    if not zone.any():
        return 0
    st, sc = game.state, game.scenario
    mine = (st.unit_status & Status.ON_MAP).astype(bool) & (sc.units.side == side)
    cells = [int(c) for c in np.unique(st.unit_cell[mine]) if zone[c]]
    n = int(game.scenario.tables["persistent_gas"]["step_loss_per_stack"])
    return sum(take_steps(game, c, n, "gas") for c in cells)


def gas_removal(game: KbGame) -> int:
    """At the start of the Terminal Phase a die for each marker; removed on a 1 (9.35).
    Returns the markers removed."""
    rolls = {int(r) for r in game.scenario.tables["persistent_gas"]["removal_rolls"]}
    slots = game.arr("gas")
    removed = 0
    for i in range(slots.shape[0]):
        if slots[i] < 0:
            continue
        die = game.roll("gas", "9.35 gas removal")
        if die in rolls:
            game.event("gas_removed", cell=int(slots[i]), die=die)
            slots[i] = -1
            removed += 1
    return removed


# --- 9.4 drumfire barrage (and 12.3 ground attacks) ------------------------------------------

def _heading(text: str) -> tuple[int, int] | None:
    if text.strip() == "-":
        return None
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)


def drumfire_column(game: KbGame, stacking_points: int, points: int) -> int | None:
    """The Drumfire Barrage Table's column (9.43, 9.48) for ``points`` against a target of
    ``stacking_points``; None where the table has no column (1 point against 1-6 Stacking
    Points: no effect). A stack above 12 Stacking Points reads the 7-12 row."""
    tab = game.scenario.tables["drumfire_barrage"]
    rows = [_heading(r) for r in tab["stacking_points"]]
    row = None
    for i, (lo, hi) in enumerate(rows):
        if lo <= stacking_points <= hi:
            row = i
    if row is None:                                   # above the largest row: read it
        row = max(range(len(rows)), key=lambda i: rows[i][1])
    key = "sp_" + tab["stacking_points"][row].replace("-", "_")
    for col, text in enumerate(tab["artillery_points"][key]):
        span = _heading(text)
        if span is not None and span[0] <= points <= span[1]:
            return col
    return None


def stack_morale(game: KbGame, cell: int) -> int:
    """A stack's Morale Value: the highest of its units (8.61)."""
    return max((units.morale(game, int(u)) for u in game.state.units_at(cell)), default=0)


def drumfire_result(game: KbGame, cell: int, points: int, die: int) -> int:
    """Steps the stack in ``cell`` loses to a drumfire barrage (or ground attack, 12.31) of
    ``points`` with ``die``: the table's number for the die plus the hex's terrain modifier
    (9.44; never a hexside's), compared with the stack's Morale Value; the excess is the loss
    (9.45). No column or "-": nothing."""
    here = game.state.units_at(cell)
    col = drumfire_column(game, units.stacking_points(game, here), points)
    if col is None or here.size == 0:
        return 0
    tab = game.scenario.tables["drumfire_barrage"]
    dice = [int(d) for d in tab["die"]]
    roll = min(max(die + int(game.data.die_mod[cell]), dice[0]), dice[-1])
    res = str(tab["results"][dice.index(roll)][col])
    if res.strip() == "-":
        return 0
    return max(0, int(res) - stack_morale(game, cell))


#: the decision of each step lost to a barrage or a gas zone, by cause (``take_steps``)
STEP_LOSS_KINDS = {"drumfire": "kb.drumfire.step_loss", "gas": "kb.gas.step_loss",
                   "ground_attack": "kb.ground_attack.step_loss"}


def take_steps(game: KbGame, cell: int, n: int, cause: str) -> int:
    """The stack in ``cell`` loses ``n`` steps, its owner choosing the unit for each
    (``kb.<cause>.step_loss``, ``STEP_LOSS_KINDS``); returns the steps lost."""
    lost = 0
    for _ in range(n):
        here = game.state.units_at(cell)
        if here.size == 0:
            break
        owner = int(game.scenario.units.side[here[0]])
        u = game.ask(STEP_LOSS_KINDS[cause], owner, [int(x) for x in here], cell=cell)
        lost += units.lose_steps(game, int(u), 1, cause)
    return lost


def barrage_targets(game: KbGame, side: int, hq_only_ok: bool = True) -> np.ndarray:
    """Enemy-occupied cells ``side`` may attack by drumfire barrage or ground attack: not yet
    attacked this phase (9.42), holding no reinforcement placed this Game-Turn (15.16), and for
    ground attacks not held solely by HQs (12.33). Enemy zones of control do not matter
    (9.47); range is checked by the caller (9.11)."""
    sc, st = game.scenario, game.state
    n = sc.map.n_cells
    enemy = (st.unit_status & Status.ON_MAP).astype(bool) & (sc.units.side == 1 - side)
    cells = st.unit_cell[enemy]
    occ = np.zeros(n, dtype=bool)
    occ[cells] = True
    arrived = np.zeros(n, dtype=bool)
    arrived[cells[(game.arr("flags")[enemy] & Flag.ARRIVED).astype(bool)]] = True
    out = occ & ~arrived & ~game.arr("drumfired").astype(bool)
    if not hq_only_ok:
        not_hq = np.zeros(n, dtype=bool)
        not_hq[cells[sc.units.utype[enemy] != int(UnitType.HQ)]] = True
        out &= not_hq
    return out


def barrage_attack(game: KbGame, cell: int, points: int, stream: str, cause: str) -> int:
    """Resolve one drumfire barrage (9.43-9.45) or ground attack (12.31) of ``points`` on the
    stack in ``cell``; the hex is marked attacked for the phase (9.42). The die is rolled only
    when the table has a column. Returns the steps lost."""
    game.arr("drumfired")[cell] = 1
    here = game.state.units_at(cell)
    if drumfire_column(game, units.stacking_points(game, here), points) is None:
        game.event(cause, cell=cell, points=points, die=0, steps=0)
        return 0
    die = game.roll(stream, f"9.43 {cause}")
    n = drumfire_result(game, cell, points, die)
    game.event(cause, cell=cell, points=points, die=die, steps=n)
    return take_steps(game, cell, n, cause) if n else 0


def drumfire_turns(game: KbGame) -> tuple[int, ...]:
    """Game-Turns of Drumfire Barrage (9.4, 17.22: Game-Turns 1 and 2 only), from the table."""
    return tuple(int(t) for t in game.scenario.tables["drumfire_barrage"]["turns"])


def drumfire_phase(game: KbGame) -> int:
    """The German Drumfire Barrage Phase (4.2 D3, 9.4), Game-Turns 1 and 2 only (17.22).

    Attacks one at a time (9.41): a target (``kb.artillery.drumfire_target``, None to stop):
    an Allied-occupied hex not attacked yet this phase (9.42), perhaps in a German zone of
    control (9.47), holding no reinforcement placed this Game-Turn (15.16), within range of
    the points left (9.11); then 1-6 points (``kb.artillery.drumfire_points``, Field and Heavy
    mixed, 9.46), deducted at once (9.41) and resolved at once (9.43). Returns steps lost."""
    game.arr("drumfired")[:] = 0
    if _turn(game) not in drumfire_turns(game):
        return 0
    side = Side.CENTRAL
    tab = game.scenario.tables["drumfire_barrage"]
    low, high = int(tab["min_points"]), int(tab["max_points"])
    field_ok = field_in_range(game, side)
    lost = 0
    while True:
        f, h = points_left(game, side)
        if f + h < low:
            break
        reach = field_ok if f >= 1 else np.zeros_like(field_ok)
        if h >= 1:
            reach = np.ones_like(field_ok)
        targets = np.flatnonzero(barrage_targets(game, side) & reach)
        if targets.size == 0:
            break
        cell = game.ask("kb.artillery.drumfire_target", side,
                        [None] + [int(c) for c in targets])
        if cell is None:
            break
        mix = game.ask("kb.artillery.drumfire_points", side,
                       barrage_choices(game, side, cell, low, high, field_ok), cell=cell)
        spend(game, side, mix[0], mix[1], "drumfire")
        lost += barrage_attack(game, cell, mix[0] + mix[1], "artillery", "drumfire")
    return lost
