"""Helpers for the combat tests: a GweGame on a hand-built position, a scripted policy that
answers decisions by value and records every question, and a one-call attack."""

import numpy as np
from gwe_positions import position, start_line, unit  # noqa: F401  (re-exported for the tests)

from gwe_fast.games.gwe import combat
from gwe_fast.games.gwe.game import GweGame
from gwe_fast.policies.base import Policy


class Script(Policy):
    """Answers each decision kind from a queue of values (or callables ``f(options)``); a
    kind with nothing queued gets ``default(kind, options)`` (first option by default).
    Every question is kept in ``asked`` as ``(kind, options, context)``."""

    name = "script"

    def __init__(self, answers=None, default=None):
        super().__init__()
        self.answers = {k: list(v) for k, v in (answers or {}).items()}
        self.default = default
        self.asked = []

    def add(self, kind, *values):
        self.answers.setdefault(kind, []).extend(values)

    def choose(self, d, game, rng):
        self.asked.append((d.kind, list(d.options), dict(d.context)))
        queue = self.answers.get(d.kind)
        if queue:
            want = queue.pop(0)
            if callable(want):
                want = want(list(d.options))
            for i, o in enumerate(d.options):
                if _same(o, want):
                    return i
            raise AssertionError(f"{d.kind}: {want!r} is not among the options {d.options!r}")
        if self.default is not None:
            return self.default(d.kind, list(d.options))
        return 0

    def options(self, kind):
        """The options of every question of this kind, in order."""
        return [o for k, o, _ in self.asked if k == kind]


def _same(a, b):
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, tuple) or isinstance(b, tuple):
        return False
    return a == b


def game(units, turn=2, allied=None, central=None, **kw):
    """A GweGame on ``position(units, **kw)`` at Game-Turn ``turn`` (2 by default: no panic),
    with scripted policies (``g.allied`` and ``g.central``)."""
    g0 = position(units, **kw)
    allied = allied or Script()
    central = central or Script()
    g = GweGame(g0.scenario, seed=0, policies={0: allied, 1: central}, events=True)
    g.state.turn = np.int16(turn)
    g.allied, g.central = allied, central
    return g


def cell(g, hexid):
    return g.scenario.map.cell(hexid)


def hexid(g, c):
    return g.scenario.map.id_of(int(c))


def fight(g, attackers, hexes, die, depot=None, defense_depot=None, right=0, left=0):
    """Resolve one attack of ``attackers`` (ids) on ``hexes`` with the combat die forced."""
    u = [g.unit(a) for a in attackers]
    side = int(g.scenario.units.side[u[0]])
    c = combat.Combat(side=side, cells=[cell(g, h) for h in hexes], attackers=u,
                      depot=g.unit(depot) if depot else -1,
                      defense_depot=g.unit(defense_depot) if defense_depot else -1,
                      shift_right=right, shift_left=left)
    g.dice.force("combat", [die])
    return combat.resolve_attack(g, c)


def where(g, uid):
    """The unit's hex id, or "elim" / "off"."""
    from gwe_fast.state import Status

    i = g.unit(uid)
    st = g.state.unit_status[i]
    if st & Status.ELIMINATED:
        return "elim"
    if not st & Status.ON_MAP:
        return "off"
    return hexid(g, g.state.unit_cell[i])


def steps_lost(g, uid):
    return int(g.state.unit_step[g.unit(uid)])


def die_for(g, row, column, result):
    """A die (1-6) giving ``result`` at ``column`` of the CRT (no modifier)."""
    crt = g.scenario.tables["crt"]
    for i, d in enumerate(crt["die"]):
        if d <= 6 and crt["results"][i][column] == result:
            return d
    raise AssertionError(f"no die gives {result} in column {column}")


def column_of(g, row, odds):
    return list(g.scenario.tables["crt"]["odds"][row]).index(odds)


COLS, ROWS = (1, 7), (1, 8)
EAST_ROWS = 4


def board(units, turn=2, hexsides=None, **kw):
    """A 7 x 8 map: Russians on rows 1-4, Central Powers on rows 5-8 (start line between,
    18.27), a friendly rail line along each side's map edge (row 1, row 8), so that every
    unit within its supply range of its edge is in supply (9.15, 19.1)."""
    hs = {"start_line": start_line(EAST_ROWS, COLS),
          "rail_single": ["-".join(f"{c:02d}01" for c in range(1, 8)),
                          "-".join(f"{c:02d}08" for c in range(1, 8))]}
    for k, v in (hexsides or {}).items():
        hs[k] = hs.get(k, []) + list(v)
    edges = {"allied": [f"{c:02d}01" for c in range(1, 8)],
             "central": [f"{c:02d}08" for c in range(1, 8)]}
    return game(units, turn=turn, cols=COLS, rows=ROWS, hexsides=hs, edges=edges, **kw)


def combats(g):
    """The "combat" events of the game, in order."""
    return [e[2] for e in g.events if e[0] == "combat"]
