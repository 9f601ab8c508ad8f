"""The ``historical`` policy of The Guns of August: the choices the belligerents made
(``historical.toml``, each with its source), the greedy policy's everywhere else.

Only choices the rules offer are taken: a country not at war, a measure the rules forbid
this month (P._19: the USA's conscription before its last reinforcement) or an offensive on
a front that is not active falls back on the greedy choice.
"""

from __future__ import annotations

import tomllib
import weakref
from functools import lru_cache
from pathlib import Path

from gwe_fast.games.goa import entry
from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Month
from gwe_fast.policies.goa.greedy import GoaGreedyPolicy

HISTORY = Path(__file__).with_name("historical.toml")


@lru_cache(maxsize=1)
def history() -> dict:
    """The historical choices, months as numbers."""
    data = tomllib.loads(HISTORY.read_text(encoding="utf-8"))
    out = {}
    for kind, rows in data.items():
        out[kind] = [dict(r, month=Month.of(r["month"]),
                          until=Month.of(r.get("until", r["month"]))) for r in rows]
    return out


#: the rows of ``history()`` compiled for the core, per ``GoaTables`` while it lives
_ROWS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def core_rows(t):
    """``history()`` as the compiled twin reads it (``_core.goa.ladder.history_rows``: country
    keys as ``t``'s indices), compiled once per scenario tables."""
    rows = _ROWS.get(t)
    if rows is None:
        from gwe_fast._core.goa.ladder import history_rows

        rows = history_rows(t, history())
        rows.flags.writeable = False                  # shared by every game of the scenario
        _ROWS[t] = rows
    return rows


class GoaHistoricalPolicy(GoaGreedyPolicy):
    """The historical choices; greedy where history says nothing."""

    name = "historical"

    def core_level(self) -> int | None:
        """The ladder level of this policy's compiled twin (``_core/goa/ladder.pyx``);
        ``None`` for a subclass, which may choose otherwise."""
        if type(self) is not GoaHistoricalPolicy:
            return None
        from gwe_fast._core.goa.ladder import HISTORICAL

        return HISTORICAL

    def core_params(self, t) -> dict:
        """The greedy parameters and the historical rows compiled against ``t``."""
        return {**super().core_params(t), "history": core_rows(t)}

    @staticmethod
    def _now(kind: str, month: int):
        return [r for r in history().get(kind, []) if r["month"] <= month <= r["until"]]

    def on_invade(self, d, view, rng):
        t, s = view.t, view.state
        order = entry.invadable(t, s)
        bits = 0
        for r in self._now("invade", s.month):
            c = t.c_key.index(r["country"]) if r["country"] in t.c_key else -1
            if c in order:
                bits |= 1 << order.index(c)
        return list(d.options).index(bits) if bits in d.options else 0

    def on_gift(self, d, view, rng):
        want = any(r["side"] == ("central" if d.side == CENTRAL else "allied")
                   for r in self._now("gift", view.state.month))
        return 1 if want and len(d.options) > 1 else 0

    def on_usw(self, d, view, rng):
        side = "central" if d.side == CENTRAL else "allied"
        return 1 if any(r["side"] == side for r in self._now("usw", view.state.month)) else 0

    def _measure(self, kind: str, d, view) -> int:
        t, s = view.t, view.state
        c = d.context["subject"]
        key = t.c_key[c]
        rows = [r for r in history().get(kind, []) if r["country"] == key]
        if not rows:
            return super().on_economy(d, view, None) if kind == "economy" else \
                super().on_conscription(d, view, None)
        on = (s.mobilized[c] >= 0) if kind == "economy" else (s.conscription[c] == 1)
        want = any(r["month"] <= s.month for r in rows)
        return 1 if want != on else 0

    def on_economy(self, d, view, rng):
        return self._measure("economy", d, view)

    def on_conscription(self, d, view, rng):
        return self._measure("conscription", d, view)

    def on_land(self, d, view, rng):
        t, s = view.t, view.state
        c = d.context["subject"]
        for r in self._now("offensive", s.month):
            if r["country"] != t.c_key[c] or r["against"] not in t.c_key:
                continue
            foe = t.c_key.index(r["against"])
            for i, code in enumerate(d.options):
                if code == 0:
                    continue
                f, level = divmod(code - 1, 4)
                if level >= 2 and foe in (t.f_a[f], t.f_b[f]):
                    return i
            for i, code in enumerate(d.options):
                if code and (code - 1) % 4 == 1 and foe in (t.f_a[(code - 1) // 4], t.f_b[(code - 1) // 4]):
                    return i
        return 0 if s.side[c] in (ALLIED, CENTRAL) else super().on_land(d, view, rng)
