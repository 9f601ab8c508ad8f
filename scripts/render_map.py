#!/usr/bin/env python3
"""Render a map for review: `gwe map render`, plus a faint overlay of the real geography.

    python scripts/render_map.py brusilov --out /tmp/brusilov.png
    python scripts/render_map.py kaisers_battle --no-overlay --out /tmp/kb.svg
    python scripts/render_map.py brusilov/attack_on_schedule --state pos.npz --out /tmp/pos.png

The drawing is gwe_fast.render.render_map, the library code behind `gwe map render` (the
committed renders in docs/maps/ are made with that command, without the overlay). This script
only adds, as an extra layer, the digitised real rivers and the historical front of
scripts/geodata/<game>.py, projected with the calibration of scripts/build_maps.py, so that
each hex can be checked against them. The overlay needs the `maps` extra; without it the map
is drawn without the overlay.
"""
from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from gwe_fast import State, load_scenario
from gwe_fast.render import render_map

GAME_SCENARIOS = {"brusilov": "brusilov/historical", "kaisers_battle": "kaisers_battle/historical"}


def geography_layer(game: str):
    """A render layer drawing the real rivers (thin blue) and front (thin magenta) of a game."""
    import build_maps as bm

    g = importlib.import_module(f"geodata.{game}")
    b = bm.Builder(game)
    b.river_lines = []
    b.fit()
    b.rivers()
    front = [b.xy(p) for p in g.FRONT]

    def layer(ax):
        for _name, _kind, segs in b.river_lines:
            for seg in segs:
                xs, ys = zip(*[b.xy(p) for p in seg])
                ax.plot(xs, ys, color="#1f77b4", lw=0.5, alpha=0.55, zorder=5)
        fx, fy = zip(*front)
        ax.plot(fx, fy, color="#ff00ff", lw=0.7, alpha=0.7, zorder=5)

    return layer


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", help="brusilov, kaisers_battle, a bundled scenario name or a "
                                     "scenario file")
    ap.add_argument("--out", required=True, help="FILE.png or FILE.svg")
    ap.add_argument("--state", help="a game state saved by gwe_fast.State.save")
    ap.add_argument("--no-overlay", action="store_true", help="leave out the real geography")
    ap.add_argument("--dpi", type=int, default=None)
    a = ap.parse_args(argv)
    sc = load_scenario(GAME_SCENARIOS.get(a.scenario, a.scenario))
    layers = []
    game = sc.path.parent.name if sc.path is not None else ""
    if not a.no_overlay and (HERE / "geodata" / f"{game}.py").is_file():
        try:
            layers.append(geography_layer(game))
        except Exception as exc:  # noqa: BLE001 - the overlay is a convenience
            print(f"overlay skipped: {type(exc).__name__}: {exc}")
    state = State.load(a.state) if a.state else None
    out = render_map(sc, state, out=Path(a.out), dpi=a.dpi, layers=layers)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
