"""``delay``: an Allied defence of The Kaiser's Battle from human play, built to test a claim.

One player of The Kaiser's Battle wrote that with the right defence "the British rarely
lose" (issue 30). The defence he described, as this policy plays it in the Allied Movement
Phase:

* **fall back beyond reach.** The German units' *normal* movement range is every hex some
  German unit could reach in its next First Movement Segment: its printed Movement Allowance,
  the terrain and hexside costs of 5.32, one hex at least (5.15), the British units that are
  about to move not counted (they fall back out of the way). Every British unit falls back to
  a hex ``margin`` hexes beyond that range (1: the first hex no German can reach);
* **an unbroken line of zones of control.** The positions are chosen so that the British
  units and their zones of control cover every hex of the ring ``margin`` hexes beyond the
  range, from map edge to map edge: a German unit moving at the tripled rate of the Second
  Movement Segment must keep out of zones of control at all times (5.22) and so cannot pass
  the line, and one moving in the First Segment stops on entering it (6.21);
* **the mop-up of 20.13.** The line prefers fieldwork, redoubt and wire hexes (the Germans
  lose a Victory Point for each Allied unit left in one, 20.13, so they must come and clear
  it) and towns west of the VP line (20.11); with ``garrison`` the weakest units (Combat
  Strength at most ``garrison``) that stand in such a hex stay in it and must be mopped up;
* **the westernmost river line.** The river line is the edge of the ground the Allies can
  reach from their own (western) map edge without crossing a river, canal or excavation
  hexside (5.32): on the bundled map the Somme above Péronne, the Canal du Nord cut by Nesle
  and the Oise by Noyon. With ``river`` the Allied reinforcements (15.3) go to it and hold
  it, and the fall-back stops there: while no German unit stands west of it, the line runs
  along it wherever the Germans can reach it and ``margin`` beyond their range elsewhere.

Everything else is greedy's: combat, artillery, air, losses, retreats, the units that
cannot get out of reach (they are priced by ``position.Board``) and the last Allied
Player-Turn (``endgame``: nothing follows it, so the units fill trench hexes and retake towns
for the Victory Points of 20.11 and 20.13). ``delay`` plays the Allied side only: asked a
German decision it raises ``ValueError``, and the ladder's ``Delay`` refuses The Great War in
the East.

The plan of a Movement Phase (``plan_delay``) is made once, at its first decision: the
German range, the ring to cover, then a greedy cover of the ring from north to south, each
hex by the position and unit that cover most of the ring not yet covered, the better hex
(20.13, 20.11, the defender's die modifier, a water hexside in front) and the nearer unit
breaking ties; the units left over that stand within the German range fall back to the
best hex beyond it that they can reach, next to the line where they can. See
docs/policies.md ("delay") and results/balance/delay_claim.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar

import numpy as np

from gwe_fast.enums import Hexside, Side, UnitType
from gwe_fast.games.kb import movement, units
from gwe_fast.games.kb.game import Flag
from gwe_fast.policies.base import Decision
from gwe_fast.policies.gwe.scoring import hex_distances
from gwe_fast.policies.kb.greedy import KbGreedyPolicy
from gwe_fast.state import Status

_HQ = int(UnitType.HQ)
_ALLIED, _CENTRAL = int(Side.ALLIED), int(Side.CENTRAL)
#: the hexsides a river line is made of (5.32: River, the canals read as rivers, Excavation)
WATER = int(Hexside.MINOR_RIVER | Hexside.MAJOR_RIVER | Hexside.CANAL | Hexside.EXCAVATION)
FAR = 10_000


@dataclass(frozen=True)
class RiverLine:
    """``west``: the hexes reachable from the Allied map edge without crossing a water
    hexside; ``line``: those of them with a water hexside to a hex outside (the west bank).
    ``line`` is empty when the water does not close the ground off (no river line)."""

    west: np.ndarray
    line: np.ndarray


@lru_cache(maxsize=8)
def river_line(scenario) -> RiverLine:
    """The westernmost river line of the scenario's map (module docstring), read-only."""
    m = scenario.map
    nb, sides = m.neighbors, m.hexsides
    n = m.n_cells
    start = [int(c) for c in scenario.edges.get("allied", ())]
    west = np.zeros(n, dtype=bool)
    west[start] = True
    todo = list(start)
    while todo:
        c = todo.pop()
        for d in range(6):
            w = int(nb[c, d])
            if w >= 0 and not west[w] and not (int(sides[c, d]) & WATER):
                west[w] = True
                todo.append(w)
    line = np.zeros(n, dtype=bool)
    if not west.all():
        for c in np.flatnonzero(west):
            for d in range(6):
                w = int(nb[c, d])
                if w >= 0 and not west[w]:
                    line[c] = True
    for a in (west, line):
        a.flags.writeable = False
    return RiverLine(west, line)


def german_reach(view, within: np.ndarray | None = None) -> np.ndarray:
    """``bool[n_cells]``: the hexes some German unit on the map (standing in ``within``, if
    given) could reach in its next First Movement Segment (5.21): its Movement Allowance with
    the terrain and hexside costs of 5.32 (doubled in gas zones, 9.34) and one hex at least
    (5.15); the Allied units are not counted (module docstring). One search from every German
    hex at once: a unit's start cost is the largest allowance less its own, so the search's
    limit is each unit's."""
    sc, st = view.scenario, view.state
    m = sc.map
    on = (st.unit_status & Status.ON_MAP).astype(bool) & (sc.units.side == _CENTRAL)
    ger = np.flatnonzero(on)
    if within is not None:
        ger = ger[within[st.unit_cell[ger]]]
    reach = np.zeros(m.n_cells, dtype=bool)
    if ger.size == 0:
        return reach
    ma = units.movement_each(view, ger).astype(np.int32)
    cells = st.unit_cell[ger].astype(np.int32)
    top = int(ma.max())
    cost = movement.open_step_costs(view)
    dist, _ = m.k.search.bounded_search(m.neighbors, cost, cells,
                                        source_cost=(top - ma).astype(np.int32), limit=top)
    reach |= dist[0] >= 0
    reach[cells] = True
    nbs = m.neighbors[cells]
    ok = cost[cells] >= 0
    reach[nbs[ok & (nbs >= 0)]] = True                               # 5.15
    return reach


def _joined_to_edge(scenario, open_: np.ndarray) -> np.ndarray:
    """``bool[n_cells]``: the ``open_`` hexes joined to the Allied map edge through ``open_``
    hexes (a flood from the edge's open hexes)."""
    nb = scenario.map.neighbors
    out = np.zeros(open_.size, dtype=bool)
    start = [int(c) for c in scenario.edges.get("allied", ()) if open_[int(c)]]
    out[start] = True
    todo = list(start)
    while todo:
        c = todo.pop()
        for w in nb[c]:
            w = int(w)
            if w >= 0 and open_[w] and not out[w]:
                out[w] = True
                todo.append(w)
    return out


@dataclass
class DelayPlan:
    """A Movement Phase's plan: ``moves[unit] = (segment, destination)`` (the destination is
    the unit's own hex for a unit that holds), in the order to play them; ``ring``: the hexes
    the line must cover; ``covered``: those of them it covers; ``reach``: the German range;
    ``back``: how many hexes beyond ``margin`` the line stands (0: the claim's own line;
    -1: the river line alone)."""

    moves: dict[int, tuple[int, int]]
    ring: np.ndarray
    covered: np.ndarray
    reach: np.ndarray
    back: int = 0

    @property
    def gaps(self) -> int:
        """Hexes of the ring the line leaves uncovered."""
        return int((self.ring & ~self.covered).sum())


#: how many hexes further back than ``margin`` a line is tried when the units cannot close it
MAX_BACK = 6


def plan_delay(view, p, side: int = _ALLIED) -> DelayPlan:
    """The delay defence's moves for the Allied Movement Phase about to start (module
    docstring). ``p``: the policy's parameters (``margin``, ``line``, ``garrison``,
    ``river``).

    The line is tried ``margin`` hexes beyond the German range first; when the units that
    can get there cannot cover the whole ring, one hex further back, and so on up to
    ``MAX_BACK`` hexes, then (with ``river``) along the river line alone; the first line
    without a gap is played, or else the one with the fewest gaps, the nearest first."""
    sc, st = view.scenario, view.state
    m, u, data = sc.map, sc.units, view.data
    n = m.n_cells
    nb = m.neighbors
    D = hex_distances(sc)
    flags = view.arr("flags")
    on = (st.unit_status & Status.ON_MAP).astype(bool)
    ger_units = np.flatnonzero(on & (u.side == 1 - side))
    ger_occ = np.zeros(n, dtype=bool)
    ger_occ[st.unit_cell[ger_units]] = True
    gzoc = np.zeros(n, dtype=bool)
    if ger_units.size:
        g_nb = nb[st.unit_cell[ger_units]]
        gzoc[g_nb[g_nb >= 0]] = True
    exempt = data.town | data.trench                                 # 8.13
    reach = german_reach(view)
    margin = max(1, int(p.margin))
    rl = river_line(sc)
    holding = bool(p.river) and bool(rl.line.any())
    if holding:
        # east of the river line the ground within the German range is given up; west of it
        # only the range of the German units already across (a bridgehead), if any
        conceded = (reach & ~rl.west) | (german_reach(view, rl.west) & rl.west)
    else:
        conceded = reach
    def dist_to(mask: np.ndarray) -> np.ndarray:
        if not mask.any():
            return np.full(n, FAR, dtype=np.int32)
        return D[:, np.flatnonzero(mask)].min(axis=1).astype(np.int32)

    dist_c = dist_to(conceded)
    west = rl.west if holding else np.zeros(n, dtype=bool)
    # west of a held river line only the Germans already across threaten a hex: the others
    # must first cross the line
    dist_b = dist_to(conceded & west)
    dist_e = dist_to(conceded & ~west)
    bank = rl.line & ~conceded if holding else np.zeros(n, dtype=bool)
    # never next to a German unit outside a town or trench hex (8.12: a forced attack), nor
    # in a gas zone (9.34[2]: a step lost at the end of the Movement Phase)
    no_attack = ~ger_occ & ~(gzoc & ~exempt) & ~movement.gas_zone(view)

    # the value of a hex to hold: 20.13, 20.11, the defender's modifier, water in front
    value = (1.0 * data.trench + 0.5 * (data.town & data.west_of_vp_line)
             + 0.3 * data.die_mod.astype(np.float64))
    front = np.zeros(n, dtype=bool)
    if conceded.any():
        for d in range(6):
            w = nb[:, d]
            ok = w >= 0
            front[ok] |= (data.side_mod[ok, d] > 0) & (dist_c[w[ok]] < dist_c[ok])
    value += 0.5 * front

    limit = float(data.stack_limit)
    mine = np.flatnonzero(on & (u.side == side))
    sp_cell = np.zeros(n)
    sp_of = {}
    for x in mine:
        sp_of[int(x)] = float(units.stacking(view, int(x)))
        sp_cell[int(st.unit_cell[x])] += sp_of[int(x)]
    service = (flags & Flag.SERVICE).astype(bool)
    free = [int(x) for x in mine if not flags[x] & (Flag.MOVED | Flag.NO_MOVE)]
    garrison = {x for x in free if not service[x] and data.trench[int(st.unit_cell[x])]
                and units.combat(view, x) <= int(p.garrison) and u.utype[x] != _HQ}
    reinforcement = {x for x in free if int(u.arrival_turn[x]) > 0}
    # where each free unit can end its move, and in which segment (the First when both)
    ends: dict[int, np.ndarray] = {}
    seg_of: dict[int, np.ndarray] = {}
    for x in free:
        here = int(st.unit_cell[x])
        d1, _ = movement.routes(view, x, movement.FIRST)
        can = d1 >= 0
        seg = np.where(can, movement.FIRST, 0).astype(np.int8)
        if not gzoc[here] and not (u.utype[x] == _HQ and int(u.extra["second_segment"][x])
                                   == 0):
            d2, _ = movement.routes(view, x, movement.SECOND)
            extra = (d2 >= 0) & ~can
            seg[extra] = movement.SECOND
            can = can | extra
        can[here] = True
        seg[here] = movement.FIRST
        ends[x], seg_of[x] = can, seg

    # the cover that stands whatever the line: garrisons (20.13) and units that cannot move
    base_cover = np.zeros(n, dtype=bool)
    base_moves: dict[int, tuple[int, int]] = {}
    base_sp = sp_cell.copy()

    def zone(c: int, into: np.ndarray) -> None:
        into[c] = True
        w = nb[c]
        into[w[w >= 0]] = True

    for x in sorted(garrison):
        c = int(st.unit_cell[x])
        base_moves[x] = (movement.FIRST, c)
        zone(c, base_cover)
    for x in mine:
        x = int(x)
        if x not in free and not service[x]:
            zone(int(st.unit_cell[x]), base_cover)
    pool = np.array([x for x in free if x not in garrison and not service[x]], dtype=np.int64)
    pool_here = st.unit_cell[pool].astype(np.int64) if pool.size else np.zeros(0, np.int64)
    pool_sp = np.array([sp_of[int(x)] for x in pool]) if pool.size else np.zeros(0)
    pool_rf = np.array([int(x) in reinforcement for x in pool], dtype=bool)
    reach_of = (np.stack([ends[int(x)] for x in pool]) if pool.size
                else np.zeros((0, n), dtype=bool))
    rows, cols = np.asarray(m.row), np.asarray(m.col)

    def line_for(ring: np.ndarray, allowed: np.ndarray):
        """The greedy cover of ``ring`` by positions in ``allowed`` (module docstring)."""
        moves = dict(base_moves)
        covered = base_cover.copy()
        sp = base_sp.copy()
        used = np.zeros(pool.size, dtype=bool)
        order = np.flatnonzero(ring & ~covered)
        order = order[np.lexsort((cols[order], rows[order]))]         # north to south
        for s_ in order.tolist():
            if covered[s_]:
                continue
            best = None
            for c in [s_] + [int(w) for w in nb[s_] if w >= 0]:
                if not allowed[c]:
                    continue
                ok = reach_of[:, c] & ~used & (pool_sp + sp[c] <= limit)
                if holding and not bank[c]:
                    ok &= ~pool_rf                # the reinforcements hold the river line
                if not ok.any():
                    continue
                w = nb[c]
                gain = int(ring[c] and not covered[c]) + int(
                    (ring[w[w >= 0]] & ~covered[w[w >= 0]]).sum())
                on_river = bool(bank[c])
                match = pool_rf == on_river       # the others east of it, if they can
                dist = D[pool_here, c].astype(np.float64)
                score = np.where(ok, 1e6 * match - 1e3 * dist - 1e-3 * np.arange(pool.size),
                                 -np.inf)
                k = int(np.argmax(score))
                key = (gain + (1.5 if on_river else 0.0), bool(match[k]), float(value[c]),
                       -float(dist[k]), -c)
                if best is None or key > best[0]:
                    best = (key, k, c)
            if best is None:
                continue
            _, k, c = best
            x = int(pool[k])
            used[k] = True
            here = int(pool_here[k])
            moves[x] = (int(seg_of[x][c]) if c != here else movement.FIRST, c)
            sp[here] -= pool_sp[k]
            sp[c] += pool_sp[k]
            zone(c, covered)
        return moves, covered, sp

    # the lines to try: ``margin + back`` hexes beyond the range east of the river line, the
    # bank wherever the Germans come within that of it, the same distance around a
    # bridgehead west of it; then the river line alone (everything east of it given up)
    inner = west & ~rl.line
    candidates = []
    if bool(p.line):
        for back in range(MAX_BACK + 1):
            d = margin + back
            ring = ((~west & (dist_c == d)) | (bank & ((dist_e <= d) | (dist_b <= d)))
                    | (inner & (dist_b == d)))
            allowed = (~west & (dist_c >= d)) | bank | (inner & (dist_b >= d))
            candidates.append((back, ring, allowed))
        if holding:
            ring = bank | (inner & (dist_b == margin))
            allowed = bank | (inner & (dist_b >= margin))
            candidates.append((-1, ring, allowed))
    chosen = None
    for back, ring, allowed in candidates:
        # only the part of the ring that faces the Allied map edge: the hexes joined to it
        # through open ground (pockets behind the German front stop nobody on the way west)
        ring = ring & ~ger_occ & _joined_to_edge(sc, (allowed | ring) & ~ger_occ)
        if not ring.any():
            continue
        moves, covered, sp = line_for(ring, allowed & no_attack)
        gaps = int((ring & ~covered).sum())
        if chosen is None or gaps < chosen[0]:
            chosen = (gaps, back, ring, allowed & no_attack, moves, covered, sp)
        if gaps == 0:
            break
    if chosen is None:
        allowed = ((~west & (dist_c >= margin)) | bank | (inner & (dist_b >= margin))) \
            & no_attack
        chosen = (0, 0, np.zeros(n, dtype=bool), allowed, dict(base_moves), base_cover, base_sp)
    _, back, ring, allowed, moves, covered, sp_cell = chosen
    depth = margin + max(0, back)

    def place(x: int, c: int) -> None:
        here = int(st.unit_cell[x])
        moves[x] = (int(seg_of[x][c]) if c != here else movement.FIRST, c)
        sp_cell[here] -= sp_of[x]
        sp_cell[c] += sp_of[x]
        if not service[x]:
            zone(c, covered)

    # reinforcements not on the line: to the river line, the nearest free bank hex
    for x in sorted(reinforcement):
        if x in moves or service[x] or not holding:
            continue
        cand = np.flatnonzero(ends[x] & bank & no_attack)
        cand = [int(c) for c in cand if sp_cell[c] + sp_of[x] <= limit]
        if cand:
            here = int(st.unit_cell[x])
            c = max(cand, key=lambda c: (not covered[c], value[c], -int(D[here, c]), -c))
            place(x, c)
    # the rest: out of the range if they stand in it, next to the line where they can
    line_cells = np.zeros(n, dtype=bool)
    for _, c in moves.values():
        line_cells[c] = True
    beside = line_cells.copy()
    for c in np.flatnonzero(line_cells):
        w = nb[c]
        beside[w[w >= 0]] = True
    to_bank = dist_to(bank) if holding else None
    for x in free:
        if x in moves:
            continue
        here = int(st.unit_cell[x])
        marching = holding and x in reinforcement and not service[x]
        if not (reach[here] or marching):
            continue                                      # out of reach already: it stays
        # a reinforcement on its way to the river goes anywhere out of the range; the
        # others to the positions of the line played
        where = ((dist_c >= margin) | bank) & no_attack if marching else allowed
        cand = np.flatnonzero(ends[x] & where)
        cand = [int(c) for c in cand if c == here or sp_cell[c] + sp_of[x] <= limit]
        if not cand:
            continue                                      # trapped: greedy's Board decides
        if marching:                                      # on its way to the river line
            c = min(cand, key=lambda c: (int(to_bank[c]), -value[c], int(D[here, c]), c))
        else:
            # next to the line, else just beyond the range (the line's distance from it),
            # the better hex, the shorter move
            c = max(cand, key=lambda c: (bool(beside[c]), -abs(int(dist_c[c]) - depth),
                                         value[c], -int(D[here, c]), -c))
        place(x, c)
    return DelayPlan(moves, ring, covered & ring, reach, back)


class KbDelayPolicy(KbGreedyPolicy):
    """The delay defence of the Allied side (module docstring); greedy in everything else."""

    name = "delay"
    PARAMS: ClassVar[dict[str, Any]] = {
        **KbGreedyPolicy.PARAMS,
        "margin": 1,         # hexes beyond the German units' normal movement range
        "line": True,        # keep an unbroken line of zones of control (5.22, 6.21)
        "garrison": 1,       # units of at most this Combat Strength hold trench hexes (20.13)
        "river": True,       # reinforcements hold the westernmost river line
    }

    def __init__(self, **params: Any):
        super().__init__(**params)
        if int(self.p.margin) < 1:
            raise TypeError(f"delay: margin must be at least 1 hex, not {self.p.margin!r}")
        if int(self.p.garrison) < 0:
            raise TypeError(f"delay: garrison must be a Combat Strength of 0 or more, not "
                            f"{self.p.garrison!r}")

    def choose(self, decision: Decision, game: Any, rng: np.random.Generator) -> int:
        if int(decision.side) != _ALLIED:
            raise ValueError("policy 'delay' is a defence for the Allied side of The Kaiser's "
                             "Battle; it cannot play the German side (give it as the allied "
                             "policy only)")
        return super().choose(decision, game, rng)

    # --- the plan of the Movement Phase ----------------------------------------------------
    def _delaying(self, view, side: int) -> bool:
        return not self.last_word(view, side, self.p)

    def delay_plan(self, view, side: int) -> DelayPlan:
        key = self.phase_key(view, "delay")[:3]          # one plan per Movement Phase
        hit = self.memory.get("delay")
        if hit is None or hit[0] != key:
            hit = self.memory["delay"] = (key, plan_delay(view, self.p, side))
        return hit[1]

    def on_move_unit(self, d, view, rng) -> int:
        if not self._delaying(view, d.side):
            return super().on_move_unit(d, view, rng)
        seg = int(d.context.get("segment", movement.FIRST))
        plan = self.delay_plan(view, d.side).moves
        here = view.state.unit_cell
        for x, (s, dest) in plan.items():
            if s == seg and dest != int(here[x]) and x in d.options:
                return self.index_of(d.options, x)
        # the units the plan leaves alone: greedy's choice among them
        rest = [x for x in d.options if x == -1 or int(x) not in plan]
        sub = Decision(d.kind, d.side, rest, d.context)
        return self.index_of(d.options, rest[super().on_move_unit(sub, view, rng)])

    def on_move_to(self, d, view, rng) -> int:
        unit = int(d.context["unit"])
        if self._delaying(view, d.side):
            plan = self.delay_plan(view, d.side).moves.get(unit)
            if plan is not None:
                dest = plan[1]
                if dest == int(view.state.unit_cell[unit]):
                    return self.index_of(d.options, ("stay",))
                i = self.index_of(d.options, ("move", dest), default=-1)
                if i >= 0:
                    return i
        return super().on_move_to(d, view, rng)
