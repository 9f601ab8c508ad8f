"""Hand-built Kaiser's Battle positions on the real map for the rules tests.

Every helper starts from the bundled historical scenario, takes every unit off the map (the
regimental replacement pool stays in its pool) and lets a test place the few it needs.
"""

from __future__ import annotations

import functools

import numpy as np

import gwe_fast
from gwe_fast.games.kb.game import KbGame
from gwe_fast.policies.base import Policy
from gwe_fast.state import NO_SIDE, Status


@functools.lru_cache(maxsize=1)
def kb_scenario():
    """The bundled scenario, loaded once (a Scenario is never changed by a game)."""
    return gwe_fast.load_scenario("kaisers_battle/historical")


def kb_empty_game(turn: int = 3, policies: dict | None = None, seed: int = 0,
                  events: bool = True) -> KbGame:
    """A KbGame on Game-Turn ``turn`` with no unit on the map and nothing pending; the
    replacement pool untouched; Artillery Tracks and air empty."""
    g = KbGame(kb_scenario(), seed=seed, policies=policies, events=events)
    st = g.state
    for i, uid in enumerate(g.scenario.units.ids):
        if st.unit_status[i] & (Status.ON_MAP | Status.PENDING):
            g.remove(uid)
    st.hex_last[:] = NO_SIDE
    st.turn = np.int16(turn)
    return g


def kb_put(game: KbGame, uid: str, hexid: str) -> int:
    """Place unit ``uid`` at ``hexid``; returns its index."""
    game.place(uid, hexid)
    return game.unit(uid)


class Scripted(Policy):
    """Answers each decision kind from a script: ``{kind: [option, option, ...]}`` (taken in
    order; an option is matched by equality) or ``{kind: callable(decision, game) -> option}``.
    A kind with no script (or a script run dry) takes ``default``: "first" (the first option),
    "last", "none" (the option None) or "fail" (raise). Every decision is kept in ``seen``."""

    def __init__(self, script: dict | None = None, default: str = "fail"):
        super().__init__()
        self.script = {k: (list(v) if isinstance(v, (list, tuple)) else v)
                       for k, v in (script or {}).items()}
        self.default = default
        self.seen = []

    def choose(self, decision, game, rng):
        self.seen.append(decision)
        opts = list(decision.options)
        s = self.script.get(decision.kind)
        want = _NOTHING
        if callable(s):
            want = s(decision, game)
        elif s:
            want = s.pop(0)
        if want is not _NOTHING:
            for i, o in enumerate(opts):
                if o == want:
                    return i
            raise AssertionError(f"{decision.kind}: scripted {want!r} is not among the "
                                 f"{len(opts)} legal options {opts[:12]}...")
        if self.default == "first":
            return 0
        if self.default == "last":
            return len(opts) - 1
        if self.default == "none" and None in opts:
            return opts.index(None)
        raise AssertionError(f"unscripted decision {decision.kind} with options {opts[:12]}")

    def kinds(self) -> list[str]:
        return [d.kind for d in self.seen]


_NOTHING = object()


class SecretSpy(Scripted):
    """A ``Scripted`` policy that, whenever it is asked a secret decision (``context["secret"]``),
    looks at everything a policy can reach and checks that no other side's pick of that
    decision is there yet. Give both sides' spies the same ``board`` (a dict): the first side
    asked a decision snapshots every engine array and the length of the event log; the second
    checks that nothing changed since (no pick of the first was stored anywhere), that the log
    has no entry of that kind, and that its context carries nothing but the secret flag.
    What each spy checked goes to ``looked``."""

    def __init__(self, script: dict | None = None, default: str = "fail",
                 board: dict | None = None):
        super().__init__(script, default)
        self.board = {} if board is None else board
        self.looked = []

    def choose(self, decision, game, rng):
        if decision.context.get("secret"):
            assert set(decision.context) == {"secret"}, dict(decision.context)
            key = (decision.kind, int(game.state.turn))
            if key not in self.board:                       # the first side asked
                self.board[key] = ({k: np.array(v, copy=True)
                                    for k, v in game.state.extra.items()},
                                   len(game.events or []))
                self.looked.append((decision.kind, decision.side, "first"))
            else:
                before, n_events = self.board[key]
                for k, v in game.state.extra.items():
                    if k in before:
                        assert np.array_equal(v, before[k]), f"{k} changed before the reveal"
                    else:
                        assert not np.any(v), f"{k} appeared before the reveal"
                new = (game.events or [])[n_events:]
                assert not [e for e in new if decision.kind in e], \
                    f"a pick of {decision.kind} is in the log before the reveal"
                self.looked.append((decision.kind, decision.side, "second"))
        return super().choose(decision, game, rng)


# --- added for the movement, zone of control, stacking, reinforcement and victory tests ------

def kb_service_company(game: KbGame, uid: str, hexid: str) -> int:
    """Place British battalion ``uid`` at ``hexid`` showing its service-company face (15.22)."""
    from gwe_fast.games.kb.game import Flag

    i = kb_put(game, uid, hexid)
    game.set_flag(i, Flag.SERVICE)
    return i


def kb_hexes(game: KbGame, mask) -> list[str]:
    """Sorted hex ids of the cells of a boolean mask (or of a list of cells)."""
    m = game.scenario.map
    mask = np.asarray(mask)
    cells = np.flatnonzero(mask) if mask.dtype == bool else mask.reshape(-1)
    return sorted(m.id_of(int(c)) for c in cells)


def kb_around(game: KbGame, hexid: str) -> list[str]:
    """Sorted hex ids of the (up to six) hexes adjacent to ``hexid``."""
    m = game.scenario.map
    nb = m.neighbors[m.cell(hexid)]
    return sorted(m.id_of(int(c)) for c in nb if c >= 0)


def kb_step_cost(game: KbGame, unit: int, a: str, b: str) -> int:
    """Movement Points for ``unit`` to step from hex ``a`` into the adjacent hex ``b``."""
    from gwe_fast.games.kb import movement

    m = game.scenario.map
    return int(movement.step_costs(game, unit)[m.cell(a), m.direction(a, b)])


def kb_without_gas_losses(monkeypatch) -> None:
    """Let ``engine.movement_phase`` run before ``artillery.gas_step_losses`` (9.34[2]) is
    written: a no-op stands in for it only while it is missing."""
    from gwe_fast.games.kb import artillery

    if not hasattr(artillery, "gas_step_losses"):
        monkeypatch.setattr(artillery, "gas_step_losses", lambda game, side: None,
                            raising=False)
