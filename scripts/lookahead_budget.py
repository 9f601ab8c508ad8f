"""Strength of the lookahead policy against its budget (plans x rollouts).

For each budget ``PxR`` it plays a ladder-only tournament of ``greedy`` and
``lookahead:plans=P,rollouts=R`` (``runner.tournament.run_tournament``: the lookahead in each
seat against greedy, and greedy against greedy, game indices 0..N-1 of one master seed, the
same dice in every pair) and tabulates, per budget, the play-outs per own Player-Turn, the
mean seconds per lookahead game, and the paired VP-margin gain over greedy from each side
(the ladder test of ``gwe tournament``). The default budget is named plain ``lookahead`` so
that the pair files of a full tournament can be reused.

Pair files live in ``<out stem>-games/<P>x<R>/``; ``--reuse DIR`` copies the pair files the
run needs from DIR first (the greedy mirror, and for the default budget the lookahead pairs
of a tournament with the same scenario, seed and game count), and an interrupted run picks
up where it stopped. Writes OUT (Markdown) and the same name with ``.json``.

Usage (from the project root):

    python3 scripts/lookahead_budget.py brusilov/historical --budgets 2x1,4x1,4x3,4x6 \\
        --games 60 --seed 2 --workers 2 --reuse results/tournament_brusilov-games \\
        --out results/lookahead_budget.md
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

from gwe_fast import load_scenario
from gwe_fast.policies.gwe.lookahead import LookaheadPolicy
from gwe_fast.runner.tournament import games_dir_for, pair_path, run_tournament
from gwe_fast.scenario.errors import ScenarioError

DEFAULT = (LookaheadPolicy.PARAMS["plans"], LookaheadPolicy.PARAMS["rollouts"])


def parse_budgets(text: str) -> list[tuple[int, int]]:
    out = []
    for part in text.split(","):
        try:
            p, r = (int(x) for x in part.strip().lower().split("x"))
        except ValueError:
            raise SystemExit(f"error: budget {part!r} is not PLANSxROLLOUTS (such as 4x3)")
        if not (1 <= p <= 4 and r >= 1):
            raise SystemExit(f"error: budget {part!r}: plans must be 1-4 and rollouts at least 1")
        out.append((p, r))
    return out


def spec_for(plans: int, rollouts: int) -> str:
    if (plans, rollouts) == DEFAULT:
        return "lookahead"
    return f"lookahead:plans={plans},rollouts={rollouts}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario")
    ap.add_argument("--budgets", default="2x1,4x1,4x3,4x6")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed", type=int, default=2)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--reuse", type=Path)
    ap.add_argument("--out", type=Path, required=True,
                    help="the Markdown file to write (the committed study is "
                         "results/lookahead_budget.md: name it to write it again)")
    args = ap.parse_args(argv)
    budgets = parse_budgets(args.budgets)
    try:
        scenario = load_scenario(args.scenario)
    except ScenarioError as exc:
        raise SystemExit(f"error: {exc}") from None
    if args.reuse and not args.reuse.is_dir():
        raise SystemExit(f"error: --reuse {args.reuse}: no such folder")
    root = games_dir_for(args.out)
    rows = []
    t0 = time.perf_counter()
    for plans, rollouts in budgets:
        spec = spec_for(plans, rollouts)
        gdir = root / f"{plans}x{rollouts}"
        gdir.mkdir(parents=True, exist_ok=True)
        needed = [("greedy", "greedy"), (spec, "greedy"), ("greedy", spec)]
        if args.reuse:
            for a, c in needed:
                src, dst = pair_path(args.reuse, a, c), pair_path(gdir, a, c)
                if src.exists() and not dst.exists():
                    shutil.copyfile(src, dst)
        print(f"budget {plans}x{rollouts}: {spec}", file=sys.stderr, flush=True)
        t = run_tournament(scenario, ["greedy", spec], args.games, args.seed, gdir,
                           workers=args.workers, resume=True, ladder_only=True)
        la = [t.pairs[(spec, "greedy")], t.pairs[("greedy", spec)]]
        gains = {r["side"]: r for r in t.ladder()}
        rows.append({
            "plans": plans, "rollouts": rollouts, "spec": spec,
            "playouts": plans * rollouts,
            "seconds_per_game": sum(p.seconds for p in la) / sum(p.games for p in la),
            "rejections": sum(sum(p.rejections) for p in t.pairs.values()),
            "errors": sum(1 for p in t.pairs.values() for e in p.errors if e),
            "gain": {side: {"diff": r["margin_diff"], "ci": r["margin_ci"],
                            "beats": r["beats"], "games": r["games"]}
                     for side, r in gains.items()},
        })
    seconds = time.perf_counter() - t0
    command = "python3 scripts/lookahead_budget.py " + " ".join(sys.argv[1:] if argv is None
                                                                  else argv)
    data = {"scenario": scenario.key, "seed": args.seed, "games": args.games,
            "command": command, "seconds": round(seconds, 1), "budgets": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(data, indent=1) + "\n")
    lines = [f"# Lookahead strength against its budget: {scenario.name}", "",
             "Made by:", "", "```sh", command, "```", "",
             f"Scenario `{scenario.key}`, master seed {args.seed}, game indices 0-"
             f"{args.games - 1} in every pair (the same dice in every pair). For each budget "
             "the lookahead played each seat against `greedy`; the gain is the paired "
             "difference of the side's VP margin against greedy in that seat (95 % t "
             "interval), the ladder test of `gwe tournament`. Seconds are the mean wall "
             "time of one lookahead game with the run's workers on the machine's cores.", "",
             "| budget (plans x rollouts) | play-outs per own Player-Turn | seconds per game "
             "| gain as allied | gain as central | illegal answers |",
             "|---|---:|---:|---|---|---:|"]
    for r in rows:
        cells = []
        for side in ("allied", "central"):
            g = r["gain"][side]
            cells.append(f"{g['diff']:+.1f} [{g['ci'][0]:+.1f}, {g['ci'][1]:+.1f}]"
                         + (" beats" if g["beats"] else ""))
        lines.append(f"| {r['plans']} x {r['rollouts']}"
                     + (" (default)" if (r["plans"], r["rollouts"]) == DEFAULT else "")
                     + f" | {r['playouts']} | {r['seconds_per_game']:.1f} | {cells[0]} | "
                     f"{cells[1]} | {r['rejections']} |")
    args.out.write_text("\n".join(lines) + "\n")
    print(args.out.read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())
