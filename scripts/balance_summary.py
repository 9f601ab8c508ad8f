"""One Markdown table of a balance study: every cell of several sweeps, side by side.

    python scripts/balance_summary.py results/balance/brusilov_historical_passive \
        results/balance/brusilov_historical_greedy ... > results/balance/SUMMARY.md

For each sweep folder (``gwe sweep --out``) and each of its cells: the games finished, the
errors, the Allied win rate (95 % Wilson; a draw counts half), the mean VP (95 % t), and
against the sweep's baseline cell, over the games both finished with the same seed and index
(common random numbers): the paired VP difference, and the same difference without the
cell's own VP adjustment (``vp_initial``: the VP a variation costs, 26.3, booked at the
start), which is the variation's effect on play. Numbers come from
``gwe_fast.analysis.report``, the code behind ``gwe report``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

from gwe_fast.analysis.report import (ReportError, _keyed, allied_rate, choose_baseline,
                                      load_cells, paired, vp_stats)
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
    return _iv(*paired_diff(play_a, play_b), signed=True)


def sweep_rows(folder: Path) -> tuple[dict, list[list[str]]]:
    manifest = json.loads((folder / "sweep.json").read_text())
    cells, baseline = load_cells([folder])
    base = choose_baseline(cells, None, baseline) or cells[0]
    rows = []
    for c in cells:
        rate = allied_rate(c)
        vp = vp_stats(c)["mean"]
        cost = float(np.mean(c.games["vp_initial"])) if "vp_initial" in c.games else 0.0
        if c is base:
            diff = eff = "baseline"
        else:
            p = paired(c, base)
            diff = _iv(p.vp.value, p.vp.low, p.vp.high, signed=True)
            eff = effect(c, base)
        rows.append([c.label.split("-", 1)[-1], f"{cost:+.0f}", str(c.n), str(c.errors),
                     "–" if rate is None else _iv(100 * rate.value, 100 * rate.low,
                                                  100 * rate.high),
                     _iv(vp.value, vp.low, vp.high), diff, eff])
    return manifest, rows


def main(folders: list[str]) -> int:
    head = ["cell", "VP adj.", "games", "errors", "Allied win % [95 %]", "mean VP [95 %]",
            "Δ VP vs baseline", "Δ VP in play"]
    out = []
    for f in folders:
        try:
            manifest, rows = sweep_rows(Path(f))
        except (OSError, ValueError, ReportError) as exc:
            print(f"balance_summary: {f}: {exc}", file=sys.stderr)
            return 1
        pol = manifest["cells"][0].get("policies", {})
        out.append(f"### {manifest['scenario']}, {pol.get('allied', '?')} (Allied) against "
                   f"{pol.get('central', '?')} (Central)\n")
        out.append(f"Sweep `{f}`, master seed {manifest['master_seed']}, baseline "
                   f"`{manifest.get('baseline') or rows[0][0]}`.\n")
        out.append("| " + " | ".join(head) + " |")
        out.append("|" + "---|" * len(head))
        out += ["| " + " | ".join(r) + " |" for r in rows]
        out.append("")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
