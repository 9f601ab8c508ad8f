"""``gwe replay`` for The Guns of August: one game, month by month, as an HTML page.

Each month shows who is at war and on which side (entries and surrenders of the month
marked), the sea areas blockaded and by whom, unrestricted submarine warfare, the cities
and colonies that changed hands, the morale results, the squadrons lost, and each country's
land strength and supply. The game is replayed from its seed, so the page is exact.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

from gwe_fast.games.goa.codes import ALLIED, CENTRAL, NEUTRAL, RESULT_NAMES, Month, Morale, Result
from gwe_fast.games.goa.model import RESULT, RESULT_MONTH
from gwe_fast.games.goa.world import objectives_held

SIDE_WORD = {ALLIED: "Allied", CENTRAL: "Central Powers", NEUTRAL: "neutral"}
MORALE_WORD = {Morale.RR: "RR (reduced replacements)", Morale.D1: "D1", Morale.D2: "D2",
               Morale.SURRENDER: "surrender"}


@dataclass
class MonthFrame:
    month: int
    sides: list[int]
    limited: list[int]
    conquered: list[int]
    entered: list[int]
    cities: list[int]
    colonies: list[int]
    blockades: list[tuple[int, int]]
    usw: list[int]
    morale: list[list[int]]
    strength: list[int]
    supply: list[int]
    afloat: list[int]
    objectives_central: int
    notes: list[str] = field(default_factory=list)


@dataclass
class GoaReplay:
    scenario: object
    seed: int
    game_index: int
    policies: dict
    start: MonthFrame
    frames: list[MonthFrame]
    result: str
    result_month: int


def _snapshot(t, s, month: int) -> MonthFrame:
    afloat = [0, 0]
    for q in range(t.n_squadrons):
        if s.squadron_damage[q] < 3:
            side = int(s.side[s.squadron_country[q]])
            if side < 2:
                afloat[side] += 1
    return MonthFrame(
        month=month, sides=[int(x) for x in s.side], limited=[int(x) for x in s.limited],
        conquered=[int(x) for x in s.conquered], entered=[int(x) for x in s.entered],
        cities=[int(x) for x in s.city], colonies=[int(x) for x in s.colony],
        blockades=[(a, side) for a in range(t.n_areas) for side in (0, 1) if s.blockade[a, side]],
        usw=[int(x) for x in s.usw], morale=[[int(v) for v in row] for row in s.morale_results],
        strength=[int(s.army[c]) + int(s.abroad[c].sum()) for c in range(t.n_countries)],
        supply=[int(x) for x in s.supply], afloat=afloat,
        objectives_central=objectives_held(t, s, CENTRAL))


def replay_goa(scenario, seed: int, game_index: int, policies: dict | None = None) -> GoaReplay:
    """Play game ``game_index`` of seed ``seed`` again, keeping each month's position."""
    from gwe_fast.games.goa.driver import new_game

    g = new_game(scenario, seed, game_index, policies=policies)
    start = _snapshot(g.t, g.state, g.state.month - 1)
    frames: list[MonthFrame] = []
    g.play(lambda month: frames.append(_snapshot(g.t, g.state, month)))
    s = g.state
    return GoaReplay(scenario, seed, game_index, dict(policies or {}), start, frames,
                     RESULT_NAMES[Result(int(s.scalars[RESULT]))], int(s.scalars[RESULT_MONTH]))


def _changes(t, before: MonthFrame, now: MonthFrame) -> list[str]:
    out = []
    for c, key in enumerate(t.c_name):
        if before.sides[c] == NEUTRAL and now.sides[c] != NEUTRAL:
            how = " as a limited participant" if now.limited[c] else ""
            out.append(f"{key} enters the war on the {SIDE_WORD[now.sides[c]]} side{how}")
        elif before.sides[c] != NEUTRAL and now.sides[c] == NEUTRAL:
            out.append(f"{key} leaves the war")
        elif before.limited[c] and not now.limited[c] and now.sides[c] != NEUTRAL:
            out.append(f"{key} becomes a full belligerent")
        if before.conquered[c] < 0 <= now.conquered[c]:
            out.append(f"{key} is conquered")
        for m in (Morale.RR, Morale.D1, Morale.D2):
            if now.morale[c][m] > before.morale[c][m]:
                out.append(f"{key}: morale result {MORALE_WORD[m]}")
    for k, key in enumerate(t.k_key):
        if before.cities[k] != now.cities[k]:
            out.append(f"{key.replace('_', ' ').title()} passes to the {SIDE_WORD[now.cities[k]]}")
    for l, key in enumerate(t.l_key):
        if before.colonies[l] != now.colonies[l]:
            out.append(f"{key.replace('_', ' ').title()} passes to the {SIDE_WORD[now.colonies[l]]}")
    for side in (0, 1):
        if before.usw[side] < 0 <= now.usw[side]:
            out.append(f"the {SIDE_WORD[side]} declare unrestricted submarine warfare")
        elif before.usw[side] >= 0 > now.usw[side]:
            out.append(f"the {SIDE_WORD[side]} end unrestricted submarine warfare")
        lost = before.afloat[side] - now.afloat[side]
        if lost > 0:
            out.append(f"the {SIDE_WORD[side]} lose {lost} squadron{'s' if lost > 1 else ''}")
    return out


def page_html(rp: GoaReplay) -> str:
    """The whole page."""
    t = rp.scenario.goa
    e = html.escape
    parts = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<title>{e(rp.scenario.key)} seed {rp.seed} game {rp.game_index}</title>",
        "<style>body{font-family:sans-serif;max-width:70em;margin:auto}"
        "table{border-collapse:collapse;font-size:90%}td,th{border:1px solid #bbb;padding:2px 6px}"
        ".a{background:#dde8ff}.c{background:#ffe0d0}.n{color:#777}h2{margin-top:1.5em}</style>",
        "</head><body>",
        f"<h1>{e(rp.scenario.name)}: game {rp.game_index} of seed {rp.seed}</h1>",
        f"<p>Options: {e(', '.join(f'{k}={v}' for k, v in rp.scenario.options.items()))}. "
        f"Policies: {e(', '.join(f'{k}={v}' for k, v in rp.policies.items()) or 'random')}.</p>",
        f"<p><b>Result: {e(rp.result)}</b> in {Month.name(rp.result_month)}; "
        f"{len(rp.frames)} months, one section per month.</p>",
    ]
    before = rp.start
    for f in rp.frames:
        parts.append(f"<h2>{Month.name(f.month)}</h2>")
        notes = _changes(t, before, f)
        if notes:
            parts.append("<ul>" + "".join(f"<li>{e(n)}</li>" for n in notes) + "</ul>")
        at_war = {side: [t.c_name[c] + (" (limited)" if f.limited[c] else "")
                         for c in range(t.n_countries)
                         if f.sides[c] == side and f.conquered[c] < 0] for side in (0, 1)}
        parts.append(f"<p><span class='a'>Allies</span>: {e(', '.join(at_war[0]) or 'none')}<br>"
                     f"<span class='c'>Central Powers</span>: {e(', '.join(at_war[1]) or 'none')}<br>"
                     f"Objective cities held by the Central Powers: {f.objectives_central}</p>")
        blk = ", ".join(f"{t.a_key[a].replace('_', ' ')} ({'Allied' if side == 0 else 'CP'})"
                        for a, side in f.blockades)
        parts.append(f"<p>Blockades: {e(blk or 'none')}. Squadrons afloat: Allies "
                     f"{f.afloat[0]}, Central Powers {f.afloat[1]}.</p>")
        rows = "".join(
            f"<tr class='{'a' if f.sides[c] == 0 else 'c' if f.sides[c] == 1 else 'n'}'>"
            f"<td>{e(t.c_name[c])}</td><td>{f.strength[c]}</td><td>{f.supply[c]}</td></tr>"
            for c in range(t.n_countries) if f.sides[c] != NEUTRAL and f.conquered[c] < 0)
        parts.append("<table><tr><th>country</th><th>land strength</th><th>supply</th></tr>"
                     + rows + "</table>")
        before = f
    parts.append("</body></html>")
    return "\n".join(parts)


def write_page(out: str | Path, text: str) -> Path:
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
