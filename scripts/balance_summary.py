"""One Markdown table of a balance study: every cell of several sweeps, side by side.

    python scripts/balance_summary.py results/balance/brusilov_historical_random \
        results/balance/brusilov_historical_greedy ... > results/balance/SUMMARY.md

For each sweep folder (``gwe sweep --out``) and each of its cells: the games finished, the
errors, the Allied win rate (95 % Wilson; a draw counts half), the mean VP (95 % t), and
against the sweep's baseline cell, over the games both finished with the same seed and index
(common random numbers): the paired VP difference, and the same difference without the
cell's own VP adjustment (``vp_initial``: the VP a variation costs, 26.3, booked at the
start), which is the variation's effect on play; the paired change of the Allied win rate;
and the Holm-adjusted p-value of the VP difference, the sweep's comparisons taken as one
family ("no game differs" where every pair ended alike). First comes the even victory line
of each baseline cell (``runner.calibrate.even_line``, as ``gwe calibrate --knob
victory_line --from FILE``), except for the town-value and delay sweeps. Numbers come from
``gwe_fast.analysis.report``, the code behind ``gwe report``.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np

from gwe_fast.analysis.report import (ReportError, _keyed, _p, adjust_family, allied_rate,
                                      choose_baseline, load_cells, paired, vp_stats)
from gwe_fast.analysis.stats import paired_diff


def _iv(m: float, lo: float, hi: float, digits: int = 1, signed: bool = False) -> str:
    f = f"{{:{'+' if signed else ''}.{digits}f}}"
    return f"{f.format(m)} [{f.format(lo)}, {f.format(hi)}]"


def effect(cell, base) -> str:
    """Paired difference of ``vp - vp_initial`` (the VP earned in play)."""
    if "vp_initial" not in cell.games or "vp_initial" not in base.games:
        return "–"
    a, b = _keyed(cell), _keyed(base)
    common = sorted(set(a) & set(b))
    if len(common) < 2:
        return "–"
    ra, rb = [a[k] for k in common], [b[k] for k in common]
    play_a = cell.games["vp"][ra].astype(float) - cell.games["vp_initial"][ra]
    play_b = base.games["vp"][rb].astype(float) - base.games["vp_initial"][rb]
    if np.array_equal(play_a, play_b):       # as the report says it (analysis.report)
        return "no game differs"
    return _iv(*paired_diff(play_a, play_b), signed=True)


def _half(iv) -> float:
    return (iv.high - iv.low) / 2 if iv is not None and iv.n and not iv.no_difference else 0.0


def even(cell, scenario_ref: str) -> str:
    """The even victory line read off the cell's final VP (``runner.calibrate.even_line``,
    what ``gwe calibrate --knob victory_line --from FILE`` gives), with its interval."""
    from gwe_fast import load_scenario
    from gwe_fast.runner.calibrate import _vp_for, even_line, victory_line

    sc = load_scenario(scenario_ref)
    vp = cell.games["vp"][cell.finished]
    r = even_line(vp, _vp_for(sc), 0.5)
    if not r.found:
        return f"{victory_line(sc)} | none ({r.note})"
    return f"{victory_line(sc)} | {r.best} [{r.interval[0]}, {r.interval[1]}]"


def sweep_rows(folder: Path) -> tuple[dict, list[list[str]], str, str]:
    manifest = json.loads((folder / "sweep.json").read_text())
    cells, baseline = load_cells([folder])
    base = choose_baseline(cells, None, baseline) or cells[0]
    found = {id(c): paired(c, base) for c in cells if c is not base}
    m = adjust_family(list(found.values()))
    rows, widest = [], 0.0
    for c in cells:
        rate = allied_rate(c)
        vp = vp_stats(c)["mean"]
        cost = float(np.mean(c.games["vp_initial"])) if "vp_initial" in c.games else 0.0
        if c is base:
            diff = eff = win = holm_p = "baseline"
        else:
            p = found[id(c)]
            diff, win, holm_p = p.vp.num(1), p.allied.pct() if p.allied else "–", _p(p.vp_holm)
            eff = effect(c, base)
            widest = max(widest, _half(p.vp))
        rows.append([re.sub(r"^\d+-", "", c.label), f"{cost:+.0f}", str(c.n), str(c.errors),
                     "–" if rate is None else _iv(100 * rate.value, 100 * rate.low,
                                                  100 * rate.high),
                     _iv(vp.value, vp.low, vp.high), diff, eff, win, holm_p])
    note = (f"Widest 95 % interval of a Δ VP: ±{widest:.1f} VP. The {m} comparisons (Δ VP and "
            f"Δ win rate of each cell) are one family: p (Holm) is the paired t test's p-value "
            f"of Δ VP adjusted by Holm's method; call a difference measured only below 0.05."
            if m else "")
    return manifest, rows, even(base, manifest["scenario"]), note


def main(folders: list[str]) -> int:
    head = ["cell", "VP adj.", "games", "errors", "Allied win % [95 %]", "mean VP [95 %]",
            "Δ VP vs baseline", "Δ VP in play", "Δ Allied win rate", "p (Holm)"]
    out, lines = [], []
    for f in folders:
        try:
            manifest, rows, line, note = sweep_rows(Path(f))
        except (OSError, ValueError, ReportError) as exc:
            print(f"balance_summary: {f}: {exc}", file=sys.stderr)
            return 1
        pol = manifest["cells"][0].get("policies", {})
        strength = f"{pol.get('allied', '?')} (Allied) against {pol.get('central', '?')} (Central)"
        out.append(f"### {manifest['scenario']}, {strength}\n")
        out.append(f"Sweep `{f}`, master seed {manifest['master_seed']}, baseline "
                   f"`{manifest.get('baseline') or rows[0][0]}`.\n")
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        out += ["| " + " | ".join(r) + " |" for r in rows]
        if note:
            out += ["", note]
        out.append("")
        if "_towns_" not in Path(f).name and not Path(f).name.startswith("delay"):
            lines.append(f"| {manifest['scenario']} | {strength} | {rows[0][2]} | {line} |")
    if lines:
        out = ["### The even victory line of each scenario at each strength\n",
               "Read off the final VP of each baseline cell (`gwe calibrate --knob victory_line "
               "--from FILE`): the line from which the scoring side would win half the games, "
               "and the 95 % interval of lines at which an even game is not rejected.\n",
               "| scenario | strength | games | printed line | even line [95 %] |",
               "|---|---|---|---|---|", *lines, ""] + out
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
