"""How the war ends.

* Victory Conditions variant: the Central Powers win once they have held every objective city
  at once for a month; they lose the first month they hold none.
* Without it, the base game's conditions (stand-in, ``base_checks``): in each check month
  the Central Powers must hold at least so many objective cities outside Germany and
  Austria-Hungary, or the Allies win (the designer's notes: January 1916).
* Either way, a side with no belligerent left (every one conquered) has lost, and the game
  ends after its last month undecided.
"""

from __future__ import annotations

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, Result
from gwe_fast.games.goa.model import ALL_OBJECTIVES_SINCE, RESULT, RESULT_MONTH, GoaState, GoaTables
from gwe_fast.games.goa.world import at_war, n_objectives, objectives_held


def finish(s: GoaState, result: int, month: int) -> None:
    s.scalars[RESULT] = result
    s.scalars[RESULT_MONTH] = month


def side_beaten(t: GoaTables, s: GoaState, side: int) -> bool:
    """Every country that entered the war on ``side`` has been conquered."""
    entered = [c for c in range(t.n_countries) if s.side[c] == side and s.entered[c] >= 0]
    return bool(entered) and not any(at_war(s, c) for c in entered)


def check(t: GoaTables, s: GoaState, month: int) -> None:
    """The Inter-Player Turn's victory check."""
    if side_beaten(t, s, CENTRAL):
        return finish(s, Result.ALLIED_CONQUEST, month)
    if side_beaten(t, s, ALLIED):
        return finish(s, Result.CENTRAL_CONQUEST, month)
    if t.options["victory"]:
        held = objectives_held(t, s, CENTRAL)
        if held == 0:
            return finish(s, Result.ALLIED_OBJECTIVES, month)
        if held == n_objectives(t):
            if s.scalars[ALL_OBJECTIVES_SINCE] >= 0:
                return finish(s, Result.CENTRAL_OBJECTIVES, month)
            s.scalars[ALL_OBJECTIVES_SINCE] = month
        else:
            s.scalars[ALL_OBJECTIVES_SINCE] = -1
        return
    for i in range(t.base_checks.shape[0]):
        if int(t.base_checks[i, 0]) == month and outside_objectives(t, s) < int(t.base_checks[i, 1]):
            return finish(s, Result.BASE_ALLIED, month)


def outside_objectives(t: GoaTables, s: GoaState) -> int:
    """Objective cities the Central Powers hold outside Germany and Austria-Hungary."""
    return sum(1 for k in range(t.n_cities)
               if t.k_objective[k] and s.city[k] == CENTRAL
               and t.k_country[k] not in (t.germany, t.austria_hungary))


def end_of_game(t: GoaTables, s: GoaState, month: int) -> None:
    finish(s, Result.END, month)
