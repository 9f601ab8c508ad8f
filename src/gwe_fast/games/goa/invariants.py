"""What must hold at the end of every month of a Guns of August game, whatever the players do.

``check(game, month)`` (``check_state(t, s, month)``) raises ``InvariantError`` naming the
first fact that does not hold. ``scripts/check_invariants.py --scenario goa/campaign`` plays
thousands of random games with it at every month; the suite plays a few.
"""

from __future__ import annotations

from gwe_fast.games.goa.codes import NEUTRAL, Damage
from gwe_fast.games.goa.model import RESULT, RESULT_MONTH, GoaState, GoaTables
from gwe_fast.games.goa.naval import place_areas


class InvariantError(AssertionError):
    """A rule of the game's bookkeeping was broken."""


def _fail(month: int, what: str) -> None:
    raise InvariantError(f"month {month}: {what}")


def check(game, month: int) -> None:
    """The driver's hook: ``check_state`` of a ``GoaGame``."""
    check_state(game.t, game.state, month)


def check_state(t: GoaTables, s: GoaState, month: int) -> None:
    C = t.n_countries
    for c in range(C):
        key = t.c_key[c]
        side = int(s.side[c])
        if side not in (0, 1, 2):
            _fail(month, f"{key} has side code {side}")
        if s.limited[c] and (c != t.britain or side != 0):
            _fail(month, f"{key} is a limited participant but is not an Allied Britain")
        if side != NEUTRAL and s.entered[c] < 0:
            _fail(month, f"{key} is at war but never entered it")
        if s.entered[c] > month:
            _fail(month, f"{key} entered the war in a later month ({s.entered[c]})")
        if s.conquered[c] >= 0:
            if side == NEUTRAL:
                _fail(month, f"{key} was conquered while neutral")
            if s.army[c] or s.abroad[c].any() or s.personnel_last[c] or s.supply_last[c]:
                _fail(month, f"conquered {key} still has forces or produces points")
            if s.col_units[:, c].any():
                _fail(month, f"conquered {key} still has colonial units")
        for name in ("army", "supply"):
            if getattr(s, name)[c] < 0:
                _fail(month, f"{key}'s {name} is negative ({getattr(s, name)[c]})")
        if (s.abroad[c] < 0).any():
            _fail(month, f"{key} has negative strength abroad")
        if side == NEUTRAL and s.abroad[c].any():
            _fail(month, f"neutral {key} has forces abroad")
    for k in range(t.n_cities):
        ctrl = int(s.city[k])
        owner = int(t.k_country[k])
        if ctrl not in (0, 1, 2):
            _fail(month, f"city {t.k_key[k]} has control code {ctrl}")
        if (s.side[owner] == NEUTRAL and s.conquered[owner] < 0 and ctrl != NEUTRAL
                and t.c_rolls[owner] and ctrl != t.k_control0[k]):
            _fail(month, f"city {t.k_key[k]} of neutral {t.c_key[owner]} is held by side {ctrl}")
        if s.side[owner] != NEUTRAL and ctrl == NEUTRAL:
            _fail(month, f"city {t.k_key[k]} of belligerent {t.c_key[owner]} is neutral")
        if s.garrison[k] < 0:
            _fail(month, f"city {t.k_key[k]} has a negative garrison")
    if (s.col_af < 0).any() or (s.col_units < 0).any():
        _fail(month, "negative colonial forces")
    if ((s.col_units == 0) & (s.col_af > 0)).any():
        _fail(month, "colonial attack factors without units")
    if (s.marines < 0).any():
        _fail(month, "negative marines")
    for q in range(t.n_squadrons):
        base, sortie, dmg = int(s.squadron_base[q]), int(s.squadron_sortie[q]), int(s.squadron_damage[q])
        if dmg == Damage.SUNK:
            if base != -1 or sortie != -1:
                _fail(month, f"sunk squadron {q} is still at place {base} / area {sortie}")
            continue
        if not 0 <= dmg <= 2:
            _fail(month, f"squadron {q} has damage code {dmg}")
        if base >= t.n_places:
            _fail(month, f"squadron {q} is at place {base}, beyond the {t.n_places} places")
        if sortie >= 0 and (base < 0 or sortie not in place_areas(t, base)):
            _fail(month, f"squadron {q} sortied into area {sortie}, not adjacent to its base")
        c = int(s.squadron_country[q])
        if s.conquered[c] >= 0:
            _fail(month, f"squadron {q} of conquered {t.c_key[c]} is afloat")
    if s.scalars[RESULT] and s.scalars[RESULT_MONTH] < 0:
        _fail(month, "the game ended in no month")
