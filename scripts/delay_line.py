"""Does the Allied line of zones of control hold? (issue 30, the `delay` claim)

At the start of every German Movement Phase of The Kaiser's Battle this asks whether a German
unit moving in the Second Movement Segment (5.22: tripled, never entering an enemy zone of
control) could reach the Allied map edge with an unlimited allowance: a flood from the German
hexes through every hex that holds no British unit and lies in no British zone of control.
If it cannot, the British line is unbroken from edge to edge at that moment. The share of
games in which it holds is printed per Game-Turn for each Allied policy given, with the
German policy the same for all (the same seeds for each: common random numbers).

    python3 scripts/delay_line.py --allied greedy --allied delay --central greedy \\
        --games 30 --seed 2026

The line is measured before the German moves, so what breaks it in play (combat, advances
after combat, the First Segment moves that stop in it) is not counted against it: it
measures how often the Allied player managed to close it.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from gwe_fast import load_scenario
from gwe_fast.enums import Side
from gwe_fast.games.kb import engine
from gwe_fast.games.kb.driver import new_game
from gwe_fast.games.kb.zoc import controlled, occupied
from gwe_fast.policies.base import Policy
from gwe_fast.policies.registry import PolicyError, make_policy


def line_holds(view) -> bool:
    """Whether no German Second Segment move, however long, reaches the Allied map edge."""
    sc = view.scenario
    nb = sc.map.neighbors
    blocked = controlled(view, Side.ALLIED) | occupied(view, Side.ALLIED)
    seen = occupied(view, Side.CENTRAL).copy()
    todo = list(np.flatnonzero(seen))
    while todo:
        c = todo.pop()
        for w in nb[c]:
            w = int(w)
            if w >= 0 and not seen[w] and not blocked[w]:
                seen[w] = True
                todo.append(w)
    edge = [int(c) for c in sc.edges.get("allied", ())]
    return not seen[edge].any()


class Watch(Policy):
    """Plays as ``inner`` and notes, at the start of each German Movement Phase, whether the
    Allied line holds (``line_holds``)."""

    def __init__(self, inner: Policy):
        super().__init__()
        self.inner = inner
        self.name = inner.name
        self.seen: dict[int, bool] = {}

    def choose(self, decision, game, rng):
        return self.inner.choose(decision, game, rng)

    def begin_phase(self, view, side, phasing, phase, rng):
        if int(phase) == engine.GERMAN_MOVEMENT and int(side) == Side.CENTRAL:
            self.seen[int(view.state.turn)] = line_holds(view)
        if type(self.inner).begin_phase is not Policy.begin_phase:
            self.inner.begin_phase(view, side, phasing, phase, rng)


def measure(scenario, allied: str, central: str, games: int, seed: int) -> dict[int, list]:
    """``{turn: [holds in game 0, 1, …]}`` for the Allied policy ``allied``."""
    out: dict[int, list] = {}
    for i in range(games):
        watch = Watch(make_policy(central))
        g = new_game(scenario, seed, i, policies={0: make_policy(allied), 1: watch})
        engine.play(g)
        for turn, holds in watch.seen.items():
            out.setdefault(turn, []).append(holds)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--allied", action="append", default=None,
                    help="an Allied policy spec (repeatable; default greedy and delay)")
    ap.add_argument("--central", default="greedy", help="the German policy spec")
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--scenario", default="kaisers_battle/historical")
    args = ap.parse_args(argv)
    allied = args.allied or ["greedy", "delay"]
    if args.games < 1:
        print("delay_line: --games must be at least 1", file=sys.stderr)
        return 2
    try:
        sc = load_scenario(args.scenario)
        for spec in allied + [args.central]:
            make_policy(spec)
    except (PolicyError, ValueError) as exc:
        print(f"delay_line: {exc}", file=sys.stderr)
        return 2
    if sc.game != "kb":
        print(f"delay_line: {args.scenario} is not a Kaiser's Battle scenario", file=sys.stderr)
        return 2
    results = {a: measure(sc, a, args.central, args.games, args.seed) for a in allied}
    turns = sorted({t for r in results.values() for t in r})
    print(f"Share of games in which the Allied line holds at the start of the German Movement "
          f"Phase ({args.games} games, seed {args.seed}, German policy {args.central}):\n")
    print("| Game-Turn | " + " | ".join(f"`{a}`" for a in allied) + " |")
    print("|---|" + "---|" * len(allied))
    for t in turns:
        cells = []
        for a in allied:
            v = results[a].get(t, [])
            cells.append(f"{sum(v) / len(v):.2f} ({sum(v)}/{len(v)})" if v else "–")
        print(f"| {t} | " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
