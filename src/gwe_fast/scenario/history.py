"""What happened in the real campaign, as scenario data: the ``[history]`` table.

A scenario may say when each of its towns changed hands historically and what each side
lost, every entry with its source and how sure it is, so that reports can set the games
beside history (docs/scenarios.md, "History"). Nothing here affects play: the table is left
out of the scenario's ``data_hash``, so adding or correcting history never makes an earlier
run of the same rules look like a run of other rules (``--resume`` goes on working).

Dates are turned into Game-Turns with the scenario's own calendar (``calendar`` says how);
``offset`` moves every Game-Turn of the table by that many turns, for a scenario that
inherits the history of another but opens later (Attack On Schedule: the same time after
the opening).

Examples
--------
>>> h = History(calendar="c", note="", offset=0, towns=(
...     TownHistory("Luck", 7, "taken", (2, 2), None, "7 June 1916", "a source", "high", ""),),
...     losses=())
>>> h.town("Luck").turns, h.town("Kowel")
((2, 2), None)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: what happened to a town: changed hands during the game's Game-Turns, only after the last
#: one, or never in the campaign
OUTCOMES = ("taken", "after", "never")
CONFIDENCE = ("high", "medium", "low")
SIDES = ("allied", "central")
HISTORY_KEYS = {"calendar", "note", "offset", "town", "loss"}
TOWN_KEYS = {"name", "outcome", "turn", "retaken", "date", "source", "confidence", "note"}
LOSS_KEYS = {"side", "men", "what", "period", "turns", "source", "confidence", "note"}


@dataclass(frozen=True)
class TownHistory:
    """One town's history. ``turns`` is the earliest and latest Game-Turn in which the town
    changed hands (the same number twice when the day is known), with the scenario's
    ``offset`` applied; None for a town never taken, and for one taken after the game unless
    the table says on which later Game-Turn. ``retaken``: the Game-Turn its first owner took
    it back, if that happened within the game."""

    name: str
    cell: int
    outcome: str
    turns: tuple[int, int] | None
    retaken: int | None
    date: str
    source: str
    confidence: str
    note: str


@dataclass(frozen=True)
class LossHistory:
    """What one side lost: ``low``-``high`` men (the same number twice when one figure is
    given), counted as ``what`` says, over ``period`` (Game-Turns ``turns`` on the scenario's
    calendar, which may run past its last Game-Turn)."""

    side: str
    low: int
    high: int
    what: str
    period: str
    turns: tuple[int, int]
    source: str
    confidence: str
    note: str


@dataclass(frozen=True)
class History:
    """A scenario's ``[history]`` table, checked (``Scenario.history``)."""

    calendar: str
    note: str
    offset: int
    towns: tuple[TownHistory, ...]
    losses: tuple[LossHistory, ...]

    def town(self, name: str) -> TownHistory | None:
        """The history of the town called ``name``, or None when the table has none."""
        for t in self.towns:
            if t.name == name:
                return t
        return None


def _text(chk, value: Any, key: str, required: bool = True) -> str:
    if value is None:
        if required:
            chk.fault(key.rsplit(".", 1)[0], f"missing required key {key.rsplit('.', 1)[1]!r}")
        return ""
    if not isinstance(value, str) or not value.strip():
        chk.fault(key, f"must be a non-empty string, not {value!r}")
        return ""
    return value.strip()


def _turn_pair(chk, value: Any, key: str) -> tuple[int, int] | None:
    """A Game-Turn ``t`` or a range ``[a, b]`` as ``(a, b)``; a fault and None if neither."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value, value
    if (isinstance(value, list) and len(value) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in value)):
        if value[1] < value[0]:
            chk.fault(key, f"the range {value} ends before it starts")
            return None
        return value[0], value[1]
    chk.fault(key, f"must be a Game-Turn (an integer) or a range [first, last], not {value!r}")
    return None


def check_history(data: Any, chk, places, first_turn: int | None,
                  last_turn: int | None) -> History | None:
    """The ``[history]`` table checked against the scenario's places and Game-Turns, or None
    when the scenario has none. Every fault goes to ``chk`` (a loader ``Checker``) with its
    key path: an unknown town, a town taken in the game without its Game-Turn, an entry without
    a source. The Game-Turns are history's, not checked against the game's length: a variant
    that shortens or lengthens the game keeps its history (a town taken after the variant's
    last Game-Turn is not taken in it)."""
    if data is None:
        return None
    if not isinstance(data, dict):
        chk.fault("history", "must be a table [history]")
        return None
    chk.keys(data, "history", HISTORY_KEYS, required=("calendar",))
    calendar = _text(chk, data.get("calendar"), "history.calendar", required=False)
    note = _text(chk, data.get("note"), "history.note", required=False)
    offset = data.get("offset", 0)
    if isinstance(offset, bool) or not isinstance(offset, int):
        chk.fault("history.offset", f"must be an integer number of Game-Turns, not {offset!r}")
        offset = 0
    by_name = {p.name: p for p in places}
    towns: list[TownHistory] = []
    seen: set[str] = set()
    town_list = data.get("town", [])
    if not isinstance(town_list, list):
        chk.fault("history.town", "must be an array of tables [[history.town]]")
        town_list = []
    for i, t in enumerate(town_list):
        key = f"history.town[{i}]"
        t = chk.table(t, key)
        if not t:
            continue
        chk.keys(t, key, TOWN_KEYS, required=("name", "outcome", "source"))
        name = t.get("name")
        place = None
        if isinstance(name, str):
            place = by_name.get(name)
            if place is None and places:
                near = ", ".join(sorted(by_name)[:8])
                chk.fault(f"{key}.name", f"no place named {name!r} on the map (places: {near}, "
                                         f"…)", name)
            elif name in seen:
                chk.fault(f"{key}.name", f"town {name!r} has two entries", name)
            seen.add(name)
        elif "name" in t:
            chk.fault(f"{key}.name", f"must be a place name, not {name!r}")
        outcome = t.get("outcome")
        if "outcome" in t and outcome not in OUTCOMES:
            chk.fault(f"{key}.outcome", f"{outcome!r} is not one of {', '.join(OUTCOMES)}",
                      outcome)
            outcome = None
        source = _text(chk, t.get("source"), f"{key}.source") if "source" in t else ""
        confidence = t.get("confidence", "medium")
        if confidence not in CONFIDENCE:
            chk.fault(f"{key}.confidence", f"{confidence!r} is not one of "
                                           f"{', '.join(CONFIDENCE)}", confidence)
        date = _text(chk, t.get("date"), f"{key}.date", required=False)
        tnote = _text(chk, t.get("note"), f"{key}.note", required=False)
        turns = None
        if "turn" in t:
            turns = _turn_pair(chk, t["turn"], f"{key}.turn")
            if turns is not None:
                turns = (turns[0] + offset, turns[1] + offset)
        retaken = t.get("retaken")
        if retaken is not None:
            if isinstance(retaken, bool) or not isinstance(retaken, int):
                chk.fault(f"{key}.retaken", f"must be a Game-Turn, not {retaken!r}")
                retaken = None
            else:
                retaken += offset
        shown = "" if turns is None else (f"Game-Turn {turns[0]}" if turns[0] == turns[1]
                                          else f"Game-Turns {turns[0]}-{turns[1]}")
        if offset and turns is not None:
            shown += f" (with the offset of {offset})"
        if outcome == "taken":
            if turns is None and "turn" not in t:
                chk.fault(key, "a town taken in the game needs the Game-Turn it changed hands "
                               "(turn = N, or turn = [first, last] when the day is uncertain)")
            if retaken is not None and turns is not None and retaken <= turns[0]:
                chk.fault(f"{key}.retaken", f"Game-Turn {retaken} is not after the town was "
                                            f"taken ({shown})")
        elif outcome == "after":
            if not date:
                chk.fault(key, "a town taken after the game needs its date (date = \"…\")")
        elif outcome == "never":
            if "turn" in t:
                chk.fault(f"{key}.turn", "a town never taken has no Game-Turn")
        if outcome != "taken" and retaken is not None:
            chk.fault(f"{key}.retaken", "only a town taken in the game can be retaken in it")
        if place is not None and outcome in OUTCOMES and source:
            towns.append(TownHistory(name, place.cell, outcome, turns, retaken, date, source,
                                     confidence if confidence in CONFIDENCE else "medium",
                                     tnote))
    losses: list[LossHistory] = []
    loss_list = data.get("loss", [])
    if not isinstance(loss_list, list):
        chk.fault("history.loss", "must be an array of tables [[history.loss]]")
        loss_list = []
    for i, x in enumerate(loss_list):
        key = f"history.loss[{i}]"
        x = chk.table(x, key)
        if not x:
            continue
        chk.keys(x, key, LOSS_KEYS, required=("side", "men", "what", "period", "turns",
                                              "source"))
        side = x.get("side")
        if "side" in x and side not in SIDES:
            chk.fault(f"{key}.side", f"{side!r} is not one of {', '.join(SIDES)}", side)
        men = x.get("men")
        low = high = None
        if isinstance(men, int) and not isinstance(men, bool) and men >= 0:
            low = high = men
        elif (isinstance(men, list) and len(men) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in men)
              and men[0] <= men[1]):
            low, high = men
        elif "men" in x:
            chk.fault(f"{key}.men", f"must be a number of men or a range [low, high], not "
                                    f"{men!r}")
        what = _text(chk, x.get("what"), f"{key}.what") if "what" in x else ""
        period = _text(chk, x.get("period"), f"{key}.period") if "period" in x else ""
        source = _text(chk, x.get("source"), f"{key}.source") if "source" in x else ""
        turns = _turn_pair(chk, x["turns"], f"{key}.turns") if "turns" in x else None
        if turns is not None:
            turns = (turns[0] + offset, turns[1] + offset)
            if first_turn is not None and turns[0] < first_turn:
                chk.fault(f"{key}.turns", f"Game-Turn {turns[0]} comes before the game's first "
                                          f"({first_turn})")
        confidence = x.get("confidence", "medium")
        if confidence not in CONFIDENCE:
            chk.fault(f"{key}.confidence", f"{confidence!r} is not one of "
                                           f"{', '.join(CONFIDENCE)}", confidence)
        lnote = _text(chk, x.get("note"), f"{key}.note", required=False)
        if side in SIDES and low is not None and what and period and source and turns:
            losses.append(LossHistory(side, low, high, what, period, turns, source,
                                      confidence if confidence in CONFIDENCE else "medium",
                                      lnote))
    return History(calendar, note, offset, tuple(towns), tuple(losses))
