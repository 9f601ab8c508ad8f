"""The Guns of August's ladder: ``passive`` (a floor: it declines every choice it may), ``greedy``
(each decision on its own, judged by the rules' own functions), ``historical`` (the choices
the belligerents made, greedy elsewhere).

A policy reads the game through ``view.t`` (the tables) and ``view.state`` (read-only
arrays) and evaluates options with the same rule functions the engine plays with
(``morale.outcomes``, ``land.column`` …): no rule is written here a second time.

Each decision kind has its own method, ``on_<kind>``; the codes of its options are those of
the rule module that made them (docs/api.md).
"""

from __future__ import annotations

from typing import Any

from gwe_fast.games.goa import economy, entry, land, morale, naval
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, NEUTRAL, Land, Morale, Ship, enemy
from gwe_fast.games.goa.world import port_control
from gwe_fast.policies.base import Decision, Policy, check_params

#: what each morale result costs the country's side (in its country weight)
MORALE_COST = {Morale.NONE: 0.0, Morale.RR: 0.25, Morale.D1: 1.0, Morale.D2: 2.0,
               Morale.SURRENDER: 12.0}


def weight(t, c: int) -> float:
    """A country's weight: its monthly points (the table), at least 1."""
    return max(1.0, float(t.c_personnel[c]) + float(t.c_supply[c])) / 10.0


class GoaPolicy(Policy):
    """Dispatch by decision kind: ``decision.kind`` is ``goa.<kind>``."""

    name = "goa"
    PARAMS: dict[str, Any] = {}

    def __init__(self, **params: Any):
        super().__init__(**params)
        self.p = check_params(self.PARAMS, params)
        self._orders: dict[tuple[int, int], dict] = {}

    def choose(self, decision: Decision, game: Any, rng) -> int:
        kind = decision.kind.split(".", 1)[1]
        return getattr(self, f"on_{kind}")(decision, game, rng)

    def default(self, d: Decision) -> int:
        """Decline: the option 0 (or -1, 'none') when there is one, else the first."""
        for none in (0, -1):
            if none in d.options:
                return list(d.options).index(none)
        return 0

    # every kind declines by default
    def __getattr__(self, name: str):
        if name.startswith("on_"):
            return lambda d, view, rng: self.default(d)
        raise AttributeError(name)


class GoaPassivePolicy(GoaPolicy):
    """A floor: never trades a roll, invades, declares, sails, sends or attacks; takes the
    first option where it must choose (the damage it designates)."""

    name = "passive"

    def core_level(self) -> int | None:
        """The ladder level of this policy's compiled twin (``_core/goa/ladder.pyx``), which
        answers inside the core; ``None`` for a subclass, which may choose otherwise."""
        if type(self) is not GoaPassivePolicy:
            return None
        from gwe_fast._core.goa.ladder import PASSIVE

        return PASSIVE


class GoaGreedyPolicy(GoaPolicy):
    """Each decision on its own merits, by the expected value of its outcomes.

    Parameters: ``aggression`` (how much a city taken is worth against the strength lost
    taking it), ``caution`` (the morale margin kept before declaring mobilization or
    conscription, in die pips), and two switches a study sets to price a choice: ``usw``
    (-1 judge, 0 never, 1 always wage unrestricted submarine warfare once allowed) and
    ``gift`` (-1 judge, 0 never give a dreadnought to Turkey)."""

    name = "greedy"
    PARAMS = {"aggression": 1.0, "caution": 1, "usw": -1, "gift": -1}

    def core_level(self) -> int | None:
        """The ladder level of this policy's compiled twin (``_core/goa/ladder.pyx``), which
        answers inside the core with ``core_params()``; ``None`` for a subclass, which may
        choose otherwise."""
        if type(self) is not GoaGreedyPolicy:
            return None
        from gwe_fast._core.goa.ladder import GREEDY

        return GREEDY

    def core_params(self, t) -> dict:
        """What the compiled twin reads (``GoaCore.set_params``): the parameters."""
        return {name: self.p[name] for name in ("aggression", "caution", "usw", "gift")}

    # -- rolls -------------------------------------------------------------------------------
    def _roll_value(self, t, s, kind: int, c: int, modifier: int, side: int) -> float:
        """Expected value to ``side`` of one roll with this modifier."""
        total = 0.0
        for outcome in morale.outcomes(t, s, kind, c, modifier):
            total += self._outcome_value(t, s, kind, c, outcome, side)
        return total / 6.0

    def _outcome_value(self, t, s, kind: int, c: int, outcome, side: int) -> float:
        w = weight(t, c)
        if kind == morale.MORALE_ROLL:
            v = -MORALE_COST[outcome] * w
            return v if s.side[c] == side else -v
        joined, limited = outcome
        if joined == NEUTRAL:
            return 0.0
        v = w * (0.5 if limited else 1.0)
        return v if joined == side else -v

    def on_trade(self, d: Decision, view, rng) -> int:
        t, s = view.t, view.state
        from gwe_fast.games.goa.engine import month_rolls

        rolls = month_rolls(t, s, s.month)
        side = d.side
        n = len(rolls)
        base = [self._roll_value(t, s, k, c, m, side) for k, c, m in rolls]
        gain = [self._roll_value(t, s, k, c, m + morale.favour(t, s, k, c, side), side) - base[i]
                for i, (k, c, m) in enumerate(rolls)]
        loss = [self._roll_value(t, s, k, c, m + morale.favour(t, s, k, c, enemy(side)), side)
                - base[i] for i, (k, c, m) in enumerate(rolls)]
        best, best_i = 0.0, 0
        for idx, code in enumerate(d.options):
            if code == 0:
                continue
            i, j = divmod(code - 1, n)
            v = gain[i] + loss[j]
            if v > best + 1e-9:
                best, best_i = v, idx
        return best_i

    # -- reinforcement phase ------------------------------------------------------------------
    def on_gift(self, d: Decision, view, rng) -> int:
        t, s = view.t, view.state
        opts = list(d.options)
        if self.p["gift"] == 0:
            return opts.index(-1) if -1 in opts else 0
        if d.side == CENTRAL:
            return 1 if len(opts) > 1 else 0
        # the Allies give their weakest dreadnought while Turkey leans to the Central Powers
        if entry.entry_modifier(t, s, t.turkey) <= 0:
            return 0
        ships = [(int(t.q_gunnery[q]), q) for q in opts if q >= 0]
        return opts.index(min(ships)[1]) if ships else 0

    def on_invade(self, d: Decision, view, rng) -> int:
        """Invade Belgium (bit 0 of the options' list of invadable countries) once Britain is
        at war anyway; never the Netherlands, which may join the Central Powers."""
        t, s = view.t, view.state
        b = t.britain
        if b >= 0 and s.side[b] == ALLIED and t.belgium >= 0 and s.side[t.belgium] == NEUTRAL:
            order = entry.invadable(t, s)
            bit = 1 << order.index(t.belgium)
            if bit in d.options:
                return list(d.options).index(bit)
        return 0

    def _margin(self, t, s, c: int) -> int:
        """The worst modified morale roll the country could make now (die 1)."""
        return 1 + morale.morale_modifier(t, s, c, s.month)

    def on_economy(self, d: Decision, view, rng) -> int:
        t, s = view.t, view.state
        c = d.context["subject"]
        margin = self._margin(t, s, c)
        on = s.mobilized[c] >= 0
        if not on and margin - 1 >= 1 + self.p["caution"]:
            return 1
        if on and margin <= 0:
            return 1
        return 0

    def on_conscription(self, d: Decision, view, rng) -> int:
        t, s = view.t, view.state
        c = d.context["subject"]
        margin = self._margin(t, s, c)
        if s.conscription[c] != 1:
            return 1 if margin - 2 >= 1 + self.p["caution"] else 0
        return 1 if margin <= -2 and not t.c_conscription0[c] else 0

    def on_marines(self, d: Decision, view, rng) -> int:
        return len(d.options) - 1

    # -- naval ----------------------------------------------------------------------------------
    def _potential(self, t, s, a: int, side: int) -> int:
        """Gunnery of ``side``'s undamaged squadrons based where they could sortie into ``a``."""
        g = 0
        for q in range(t.n_squadrons):
            b = int(s.squadron_base[q])
            if b < 0 or s.squadron_damage[q] != 0 or s.side[s.squadron_country[q]] != side:
                continue
            if a in naval.place_areas(t, b):
                g += int(t.q_gunnery[q])
        return g

    def on_squadron(self, d: Decision, view, rng) -> int:
        t, s = view.t, view.state
        q = d.context["subject"]
        side = d.side
        key = (s.month, side)
        committed = self._orders.setdefault(key, {})
        opts = list(d.options)
        base = int(s.squadron_base[q])
        c = int(s.squadron_country[q])
        if s.squadron_damage[q] > 0:
            if base < t.n_ports and t.p_country[base] == c:
                return 0
            for i, code in enumerate(opts):
                if 0 < code < naval.SORTIE and code - 1 < t.n_ports and t.p_country[code - 1] == c:
                    return i
            return 0
        best, best_i = 0.0, 0
        for i, code in enumerate(opts):
            if code < naval.SORTIE:
                continue
            a = code % 10000
            mine = committed.get(a, 0) + int(t.q_gunnery[q])
            theirs = self._potential(t, s, a, enemy(side))
            ports = sum(1 for p in range(t.n_ports) if t.p_area[p, a]
                        and port_control(t, s, p) == enemy(side))
            if code >= naval.SCREEN:
                value = 0.5 if theirs > mine and t.q_kind[q] != Ship.BATTLESHIP else 0.0
            else:
                value = ports * (1.0 if mine >= 1.2 * theirs else -1.0)
            if value > best:
                best, best_i = value, i
        code = opts[best_i]
        if code >= naval.SORTIE:
            committed[code % 10000] = committed.get(code % 10000, 0) + int(t.q_gunnery[q])
        return best_i

    def on_designate(self, d: Decision, view, rng) -> int:
        t = view.t
        scores = [(naval.BLOCKADE_PLUS[int(t.q_kind[q])] * 10 + int(t.q_protection[q]), -i)
                  for i, q in enumerate(d.options)]
        return -max(scores)[1]

    def on_german_roll(self, d: Decision, view, rng) -> int:
        t, s = view.t, view.state
        a = d.context["subject"]
        mine = naval.gunnery(t, s, naval.sortied(t, s, a, CENTRAL))
        theirs = naval.gunnery(t, s, naval.sortied(t, s, a, ALLIED))
        return 1 if mine < theirs else 0

    def on_submarine(self, d: Decision, view, rng) -> int:
        t, s = view.t, view.state
        a = d.context["subject"]
        foe = enemy(d.side)
        return 1 if naval.blockade_modifier(t, s, a, foe, s.month) > 0 else 0

    def on_usw(self, d: Decision, view, rng) -> int:
        """Wage it while no neutral whose entry it moves (Britain, the USA: V._7) could be
        tipped into the war by it."""
        if self.p["usw"] in (0, 1):
            return int(self.p["usw"])
        t, s = view.t, view.state
        for c in (t.britain, t.united_states):
            if c < 0 or s.side[c] != NEUTRAL:
                continue
            m = entry.entry_modifier(t, s, c)
            shift = -1 if d.side == CENTRAL else 1
            if morale.might_affect(t, s, morale.ENTRY_ROLL, c, m, shift):
                return 0
        return 1

    def on_send_supply(self, d: Decision, view, rng) -> int:
        t, s = view.t, view.state
        c = d.context["subject"]
        best, best_i = 0.0, 0
        for i, code in enumerate(d.options):
            if code == 0:
                continue
            r, k = divmod(code - 1, 3)
            amount = economy.SEND_AMOUNTS[k]
            if s.supply[c] - amount < economy.supply_due(t, s, c, s.month):
                continue
            need = 2.0 if (r == t.russia and s.fed[r] < 3) else 0.0
            value = need - 0.1 * amount
            if value > best:
                best, best_i = value, i
        return best_i

    def on_ship(self, d: Decision, view, rng) -> int:
        """Send every unit it may to the host with the most active fronts."""
        t, s = view.t, view.state
        C = t.n_countries
        best, best_i = 0, 0
        for i, code in enumerate(d.options):
            if code == 0:
                continue
            dest, n = divmod(code - 1, 8)
            if dest >= C:
                continue
            fronts = sum(1 for f in range(t.n_fronts) if land.front_active(t, s, f)
                         and dest in (t.f_a[f], t.f_b[f]))
            score = fronts * 10 + n + 1
            if fronts and score > best:
                best, best_i = score, i
        return best_i

    def on_landing(self, d: Decision, view, rng) -> int:
        return 0

    # -- land ------------------------------------------------------------------------------------
    def on_land(self, d: Decision, view, rng) -> int:
        t, s = view.t, view.state
        c = d.context["subject"]
        side = int(s.side[c])
        best, best_i = 0.0, 0
        for i, code in enumerate(d.options):
            if code == 0:
                continue
            f, level = divmod(code - 1, 4)
            if level == 0:
                continue
            value = self._attack_value(t, s, c, f, side, land.COMMITS[level])
            if value > best:
                best, best_i = value, i
        return best_i

    def _attack_value(self, t, s, c: int, f: int, side: int, commit: int) -> float:
        k = land.target_city(t, s, f, side)
        if k < 0:
            return 0.0
        mine = sum(self._strength_on(t, s, d, f) for d in range(t.n_countries)
                   if s.side[d] == side and land.contributes(t, s, d, f))
        mine += int(s.army[c]) * int(t.land_mods[land.MAIN_SHARE]) // 100
        theirs = sum(self._strength_on(t, s, d, f) for d in range(t.n_countries)
                     if s.side[d] == enemy(side) and land.contributes(t, s, d, f))
        defenders = [d for d in range(t.n_countries)
                     if s.side[d] == enemy(side) and land.contributes(t, s, d, f)]
        col, shift = land.column(mine, theirs)
        mod = land.modifier(t, s, k, defenders, commit, s.month) + shift
        take = lost = 0.0
        for die in range(1, 7):
            r = int(t.crt[max(0, min(6, die + mod)), col])
            if r in (Land.DX, Land.DE):
                take += 1
            lost += int(t.land_loss[r, 0]) * mine / 100.0 - int(t.land_loss[r, 1]) * theirs / 100.0
        city = 3.0 if t.k_objective[k] else 1.0
        return (take / 6.0) * city * 10.0 * self.p["aggression"] - lost / 6.0 - commit / 6.0

    @staticmethod
    def _strength_on(t, s, d: int, f: int) -> int:
        fronts = land.fronts_of(t, s, d)
        if not fronts:
            return 0
        pool = int(s.army[d]) if not t.c_overseas[d] else int(s.abroad[d].sum())
        return pool // len(fronts)

    def on_garrison(self, d: Decision, view, rng) -> int:
        t, s = view.t, view.state
        total = sum(int(s.army[c]) for c in range(t.n_countries) if s.side[c] == CENTRAL)
        need = 3 * t.corps * sum(1 for k in range(t.n_cities)
                                 if t.k_country[k] == d.context["subject"])
        return 1 if total >= 4 * need else 0

    def on_colonial(self, d: Decision, view, rng) -> int:
        return 0

    def on_return(self, d: Decision, view, rng) -> int:
        return 1

    def on_intercept(self, d: Decision, view, rng) -> int:
        return len(d.options) - 1
