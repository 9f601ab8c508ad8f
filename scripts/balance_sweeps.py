"""Write the sweep files of the balance study (results/balance/*.toml).

The study plays every scenario of the two hex games at three strengths:

* ``random``: the floor, both sides picking uniformly among the legal options;
* ``greedy``: both sides greedy;
* ``lookahead``: both sides lookahead, at its default budget.

At the floor and at greedy every variation of both Brusilov scenarios is a cell (26.3 and
the two optional rules that change play, 10.32 and 18.3), and a second sweep of each Brusilov
scenario moves the value of every town worth 3 VP or more by half its value down and up
(rounded half away from zero: 3 -> 2 and 5), ``TOWN_GAMES`` games a cell unless
``TOWN_GAMES_SO_FAR`` says fewer. Random players do not read VP values, so at the floor a
town's value changes only the score of the same games, not play. At lookahead, whose games
cost about 36 s of CPU (18 s a side), the study plays the scenarios as printed only (docs in
results/balance/README.md).

Run from the repository root: python3 scripts/balance_sweeps.py   (rewrites the files)
"""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "results" / "balance"
SEED = 2026
GAMES = 250
TOWN_GAMES = 250
#: town sweeps played with fewer games so far, {(scenario stem, policy): games} (a sweep
#: extends its cells when its entry is raised or removed); none at present
TOWN_GAMES_SO_FAR: dict[tuple[str, str], int] = {}
LOOKAHEAD_GAMES = 40
FLOOR = "random"

VARIATIONS = [  # (cell, comment, options)
    ("sga_early", "26.31 early Special Guards Army", {"sga_early": True}),
    ("west_front", "26.32 West Front Offensive", {"west_front": True}),
    ("more_supply_rail", "26.33 more supply and rail", {"more_supply_rail": True}),
    ("better_commanders", "26.34 better commanders", {"better_commanders": True}),
    ("unlimited_command", "10.32 optional: unlimited Command Strength",
     {"unlimited_command": True}),
    ("no_track_limits", "18.3 optional: rail track limits off", {"track_limits": False}),
    ("combined", "26.31, 26.33 and 26.34 together (26.33 excludes 26.32)",
     {"sga_early": True, "more_supply_rail": True, "better_commanders": True}),
]
SCENARIOS = {"brusilov_historical": "brusilov/historical",
             "brusilov_attack_on_schedule": "brusilov/attack_on_schedule",
             "kaisers_battle": "kaisers_battle/historical"}


def half_away(x: float) -> int:
    """``x`` rounded to the nearest integer, halves away from zero."""
    return int(math.floor(abs(x) + 0.5)) * (1 if x >= 0 else -1)


def towns() -> list[tuple[int, str, int]]:
    """(index of its ``[[place]]``, name, VP) of every Brusilov town worth 3 VP or more."""
    places = tomllib.loads((ROOT / "src/gwe_fast/data/brusilov/map.toml").read_text())["place"]
    return [(i, p["name"], int(p["vp"])) for i, p in enumerate(places) if p.get("vp", 0) >= 3]


def value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return str(v)


def table(d: dict) -> str:
    return "{ " + ", ".join(f"{k} = {value(v)}" if "." not in k and "[" not in k
                            else f'"{k}" = {value(v)}' for k, v in d.items()) + " }"


def sweep_file(name: str, description: str, scenario: str, policy: str, games: int,
               per_turn: bool, cells: list[tuple[str, str, dict, dict]], why: str) -> str:
    lines = [f"# Balance study (issue 30): {why}",
             "# Written by scripts/balance_sweeps.py; run by results/balance/run.sh.",
             f"# gwe sweep results/balance/{name}.toml --workers 2 --out results/balance/{name}",
             "[sweep]", f'name = "{name}"', f'description = "{description}"',
             f'scenario = "{scenario}"', f"games = {games}", f"seed = {SEED}",
             f'baseline = "{cells[0][0]}"', f"per_turn = {value(per_turn)}", "",
             "[base]", f'policies = {{ allied = "{policy}", central = "{policy}" }}']
    for cell, comment, options, sets in cells:
        lines += ["", "[[cell]]" + (f"  # {comment}" if comment else ""), f'name = "{cell}"']
        if options:
            lines.append(f"options = {table(options)}")
        if sets:
            lines.append(f"set = {table(sets)}")
    return "\n".join(lines) + "\n"


def main() -> None:
    written = []
    printed = [("printed", "the scenario as printed", {}, {})]
    for stem, scenario in SCENARIOS.items():
        for policy in (FLOOR, "greedy"):
            strength = "the floor (random)" if policy == FLOOR else policy
            if stem.startswith("brusilov"):
                cells = printed + [(c, why, o, {}) for c, why, o in VARIATIONS]
                text = sweep_file(f"{stem}_{policy}", f"{scenario}: every variation, {policy} "
                                  f"against {policy}", scenario, policy, GAMES, True, cells,
                                  f"{scenario}, every variation at {strength}, paired with the "
                                  f"printed scenario on the same games")
                written.append((f"{stem}_{policy}", text))
                cells = printed[:]
                for i, town, vp in towns():
                    for label, new in (("minus", half_away(vp * 0.5)),
                                       ("plus", half_away(vp * 1.5))):
                        cells.append((f"{town}_{label}", f"{town} worth {new} VP instead of {vp}",
                                      {}, {f"map.place[{i}].vp": new}))
                text = sweep_file(f"{stem}_towns_{policy}", f"{scenario}: each town of 3 VP "
                                  f"or more at half its value down and up, {policy} against "
                                  f"{policy}", scenario, policy,
                                  TOWN_GAMES_SO_FAR.get((stem, policy), TOWN_GAMES), False, cells,
                                  f"{scenario}, town values at {strength}: every town worth "
                                  f"3 VP or more at -50 % and +50 % (rounded half away from "
                                  f"zero)")
                written.append((f"{stem}_towns_{policy}", text))
            else:
                text = sweep_file(f"{stem}_{policy}", f"{scenario}: {policy} against {policy}",
                                  scenario, policy, GAMES, True,
                                  [("historical", "the scenario as printed", {}, {})],
                                  f"{scenario} at {strength} (the game has no variations)")
                written.append((f"{stem}_{policy}", text))
        base = "historical" if stem == "kaisers_battle" else "printed"
        text = sweep_file(f"{stem}_lookahead", f"{scenario}: lookahead against lookahead",
                          scenario, "lookahead", LOOKAHEAD_GAMES, True,
                          [(base, "the scenario as printed", {}, {})],
                          f"{scenario} at lookahead, the scenario as printed only (a game "
                          f"costs about 36 s of CPU)")
        written.append((f"{stem}_lookahead", text))
    for name, text in written:
        (OUT / f"{name}.toml").write_text(text)
        print(f"results/balance/{name}.toml")


if __name__ == "__main__":
    main()
