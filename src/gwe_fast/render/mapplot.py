"""Draw a scenario's map, and the units of a position on it, to PNG or SVG.

Everything comes from the loaded ``Scenario`` (its ``HexMap`` arrays, ``places`` and
``entry``) and a ``State`` (``unit_cell``, ``unit_status``, ``unit_step``), so the same code
draws any bundled or user scenario and any saved game position.

The drawing works in *hex units*: adjacent hex centres are 1 apart, the centre of hex (c, r)
is ``x = (c - 1) * sqrt(3) / 2``, ``y = (r - 1) + 0.5`` when ``c`` is even, and ``y`` grows
downwards (row 01 at the top). Hexes are flat-topped, so each has a circumradius of
``1 / sqrt(3)``. This is the grid of docs/scenarios.md and of ``scripts/build_maps.py``, so
an extra layer (see ``render_map(layers=...)``) can draw in the same coordinates.

What a wargamer reads on it: each counter shows a NATO-style type symbol, its designation
and its printed values for its current step (attack-defense-movement in The Great War in the
East, with an HQ's attack shift, command strength and radius; combat-morale-movement in The
Kaiser's Battle, with an HQ's ranges); each town its Victory Points as the game scores them;
a compass rose shows where north is (the Brusilov map is turned a quarter turn, as printed).
The palette keeps the sides' counters apart from the map's symbols: rivers are blue, the
Central Powers' counters grey; each side's entrenchments are drawn in one colour (Allied
crimson, Central Powers black), and a counter's fill is never one of those.

matplotlib, a dependency of gwe_fast, is imported when ``render_map`` runs, never when this
module is imported.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from gwe_fast.enums import Feature, Hexside, Nationality, Side, Terrain, UnitType
from gwe_fast.hexmap import HexMap
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State, Status, initial_state

FORMATS = {".png": "png", ".svg": "svg"}
DEFAULT_DPI = 120            #: PNG resolution; one hex is about an inch, so about 120 px tall
INSTALL_HINT = ("drawing maps needs matplotlib, a dependency of gwe_fast that is missing "
                "here; install it with: pip install matplotlib")

SQ3 = math.sqrt(3.0)
RADIUS = 1.0 / SQ3           #: circumradius of a hex whose neighbours' centres are 1 apart
INCH_PER_UNIT = 1.0          #: figure scale: one hex unit is one inch
HEADER_LINE = 0.20           #: inches per line of the title and legend band

# vertex k of a flat-topped hex is at angle 60k degrees, y pointing down the page:
# 0 east, 1 lower right, 2 lower left, 3 west, 4 upper left, 5 upper right; the hexside
# towards direction d (N, NE, SE, S, SW, NW) joins vertices (4 + d) % 6 and (5 + d) % 6.
_ANGLES = np.radians(60.0 * np.arange(6))
_VX = RADIUS * np.cos(_ANGLES)
_VY = RADIUS * np.sin(_ANGLES)

TERRAIN_COLOURS = {
    Terrain.CLEAR: "#f3efd9", Terrain.FOREST: "#9cc98a", Terrain.WOODS: "#9cc98a",
    Terrain.SWAMP: "#a9d4d0", Terrain.ROUGH: "#d8bf94", Terrain.MOUNTAIN: "#b08d6a",
    Terrain.BROKEN: "#e0cfa8", Terrain.HILLTOP: "#d9a96a", Terrain.LAKE: "#7fb7e6",
    Terrain.SEA: "#7fb7e6",
}
GRID_COLOUR = "#8a8a8a"

#: the colour of each side's entrenchments (trenches, fieldworks, redoubts): no counter's fill
WORKS_COLOURS = {Side.ALLIED: "#c62828", Side.CENTRAL: "#111111"}
NEUTRAL_WORKS = "#6d6d6d"
#: hex features drawn as a rim inside the hex: (inset, line width, style); works of a side
#: take that side's colour, the others their own
RIM_SHAPES = {
    Feature.TRENCH_ALLIED: (0.88, 1.3, "-"),
    Feature.TRENCH_CENTRAL: (0.88, 1.3, "-"),
    Feature.FIELDWORK: (0.86, 1.3, (0, (4, 1.5))),
    Feature.REDOUBT: (0.80, 2.6, "-"),
    Feature.WIRE: (0.94, 1.1, (0, (1, 1.5))),
    Feature.FORTRESS: (0.70, 1.8, "-"),
    Feature.START_LINE: (0.82, 1.0, "--"),
}
RIM_COLOURS = {Feature.TRENCH_ALLIED: WORKS_COLOURS[Side.ALLIED],
               Feature.TRENCH_CENTRAL: WORKS_COLOURS[Side.CENTRAL],
               Feature.WIRE: NEUTRAL_WORKS, Feature.FORTRESS: "#000000",
               Feature.START_LINE: "#e74c3c"}
#: works whose side is the side set up in and around them (The Kaiser's Battle's trench
#: hexes serve both players, 5.32, but the printed map shows whose lines they are)
SIDED = (Feature.FIELDWORK, Feature.REDOUBT)


def rim_style(feature: Feature, side: Side | None = None) -> tuple[str, float, float, Any]:
    """``(colour, inset, line width, line style)`` of a hex feature drawn as a rim; a work of
    ``side`` takes that side's colour.

    >>> rim_style(Feature.FIELDWORK, Side.CENTRAL)[0], rim_style(Feature.FIELDWORK, Side.ALLIED)[0]
    ('#111111', '#c62828')
    """
    inset, lw, ls = RIM_SHAPES[feature]
    if feature in SIDED and side is not None:
        colour = WORKS_COLOURS[Side(side)]
    else:
        colour = RIM_COLOURS.get(feature, NEUTRAL_WORKS)
    return colour, inset, lw, ls


#: hexside kinds drawn along the hexside: (colour, line width, style), in drawing order
HEXSIDE_STYLES = {
    Hexside.MINOR_RIVER: ("#3b8ed8", 1.6, "-"),
    Hexside.MAJOR_RIVER: ("#1f5fbf", 3.2, "-"),
    Hexside.CANAL: ("#26a6b3", 2.2, (0, (6, 1.5))),
    Hexside.RIDGE: ("#784212", 2.0, "-"),
    Hexside.EXCAVATION: ("#6e2c00", 2.0, (0, (1, 1))),
    Hexside.ROADCUT: ("#7d6608", 1.5, (0, (3, 1))),
    Hexside.BLOCKED: ("#000000", 3.0, "-"),
    Hexside.VP_LINE: ("#8e44ad", 2.2, (0, (4, 2))),
    Hexside.START_LINE: ("#e74c3c", 2.0, (0, (3, 2))),
}
HEXSIDE_LABELS = {
    Hexside.MINOR_RIVER: "river", Hexside.MAJOR_RIVER: "major river", Hexside.CANAL: "canal",
    Hexside.RIDGE: "ridge", Hexside.EXCAVATION: "excavation", Hexside.ROADCUT: "roadcut",
    Hexside.BLOCKED: "blocked hexside", Hexside.VP_LINE: "VP line",
    Hexside.START_LINE: "start line",
}
RAIL_COLOUR = "#222222"

#: counters by nationality: (fill, text and symbol colour), in the colours wargames give
#: them (Russian olive, German field grey, Austro-Hungarian pike grey, British khaki, French
#: horizon blue), none of them a river's blue or an entrenchment's crimson or black
COUNTER_COLOURS = {
    Nationality.RUSSIAN: ("#4f6228", "#ffffff"),
    Nationality.GERMAN: ("#3f4a45", "#ffffff"),
    Nationality.AUSTRO_HUNGARIAN: ("#8c98a3", "#111820"),
    Nationality.BRITISH: ("#8c7440", "#ffffff"),
    Nationality.FRENCH: ("#7da2d8", "#0d1a2e"),
}
NATIONALITY_COLOURS = {nat: fill for nat, (fill, _) in COUNTER_COLOURS.items()}
SIDE_COLOURS = {Side.ALLIED: "#4f6228", Side.CENTRAL: "#3f4a45"}
ENTRY_COLOUR = "#6c3483"
VP_COLOUR = "#6a1b9a"        #: Victory Point values, in the VP line's purple

# counters, in hex units: a strip per counter, its type symbol, designation and values
COUNTER_W, COUNTER_H = 0.80, 0.135
COUNTER_TOP = -0.31          #: top edge of the first counter of a stack, from the hex centre
STACK_DX, STACK_GAP = 0.02, 0.012
STACK_SPAN = 0.58            #: the most a stack may spread downwards
MAX_SHOWN = 6                #: a bigger stack shows its first MAX_SHOWN-1 and a "+n" counter
SYMBOL_W, SYMBOL_H = 0.15, 0.088      #: the NATO-style box at the left of a counter
TEXT_MAX_PT = 4.6
GONE = Status.ELIMINATED | Status.PENDING | Status.NOT_IN_PLAY | Status.POOL | Status.EXITED

Layer = Callable[[Any], None]


def output_format(out: str | Path) -> str:
    """The image format of an output path from its suffix: ``"png"`` or ``"svg"``.

    >>> output_format("maps/brusilov.SVG")
    'svg'
    """
    suffix = Path(out).suffix.lower()
    if suffix not in FORMATS:
        raise ValueError(f"cannot draw a map to {str(out)!r}: the file name must end in .png "
                         f"or .svg")
    return FORMATS[suffix]


def hex_centres(hexmap: HexMap) -> tuple[np.ndarray, np.ndarray]:
    """Centres of every cell in hex units (see the module docstring), ``y`` down the page.

    >>> x, y = hex_centres(HexMap((1, 2), (1, 2)))
    >>> [(round(float(a), 3), float(b)) for a, b in zip(x, y)]
    [(0.0, 0.0), (0.0, 1.0), (0.866, 0.5), (0.866, 1.5)]
    """
    col = hexmap.col.astype(np.float64)
    x = (col - 1.0) * SQ3 / 2.0
    y = hexmap.row.astype(np.float64) - 1.0 + 0.5 * (hexmap.col % 2 == 0)
    return x, y


def _matplotlib():
    try:
        import matplotlib  # noqa: F401
        from matplotlib.figure import Figure
    except ImportError:
        raise RuntimeError(INSTALL_HINT) from None
    return Figure


def _check_state(scenario: Scenario, state: State) -> None:
    n, n_cells = scenario.units.n, scenario.map.n_cells
    for name in ("unit_cell", "unit_status", "unit_step"):
        arr = np.asarray(getattr(state, name))
        if arr.shape != (n,):
            raise ValueError(f"the game state's {name} holds {arr.size} units but scenario "
                             f"{scenario.key} has {n} counters, so the state was saved from "
                             f"another scenario")
    shown = _shown(state)
    bad = shown & ((state.unit_cell < 0) | (state.unit_cell >= n_cells))
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(f"the game state puts unit {scenario.units.ids[i]!r} on map cell "
                         f"{int(state.unit_cell[i])}, which scenario {scenario.key} does not "
                         f"have ({n_cells} cells), so the state was saved from another "
                         f"scenario")


def _shown(state: State) -> np.ndarray:
    """Units to draw: on the map, not eliminated, pending, exited or out of play."""
    status = np.asarray(state.unit_status).astype(np.int64)
    return ((status & int(Status.ON_MAP)) != 0) & ((status & int(GONE)) == 0)


def stacks(state: State) -> dict[int, list[int]]:
    """The units drawn, by map cell (ascending), each stack in manifest order.

    A unit is drawn when it is on the map and not eliminated, pending, exited, in a pool or
    out of play.

    >>> from gwe_fast import Game, load_scenario
    >>> g = Game(load_scenario("brusilov/historical"))
    >>> g.place("ru-xx-77", "0101")
    >>> [g.scenario.units.ids[i] for i in stacks(g.state)[g.scenario.map.cell("0101")]]
    ['ru-xx-77']
    """
    by_cell: dict[int, list[int]] = {}
    for i in np.flatnonzero(_shown(state)).tolist():
        by_cell.setdefault(int(state.unit_cell[i]), []).append(i)
    return dict(sorted(by_cell.items()))


def _pale(colour: str, amount: float = 0.55) -> str:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    r, g, b = (round(v + (255 - v) * amount) for v in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def _hexside_segments(hexmap: HexMap, x, y, bits: int, exclude: int = 0):
    """One segment per hexside carrying ``bits`` (and none of ``exclude``), once per pair."""
    hs = hexmap.hexsides.astype(np.int64)
    mask = ((hs & bits) != 0) & ((hs & exclude) == 0)
    cells, dirs = np.nonzero(mask)
    nb = hexmap.neighbors[cells, dirs]
    keep = (nb < 0) | (cells < nb)
    cells, dirs, nb = cells[keep], dirs[keep], nb[keep]
    a, b = (4 + dirs) % 6, (5 + dirs) % 6
    p = np.stack([x[cells] + _VX[a], y[cells] + _VY[a]], axis=1)
    q = np.stack([x[cells] + _VX[b], y[cells] + _VY[b]], axis=1)
    return cells, dirs, nb, p, q


def _rail_segments(hexmap: HexMap, x, y, bits: int, exclude: int = 0, offset: float = 0.0):
    """Centre-to-centre segments across each rail hexside (to the edge when off the map)."""
    cells, _dirs, nb, p, q = _hexside_segments(hexmap, x, y, bits, exclude)
    start = np.stack([x[cells], y[cells]], axis=1)
    mid = (p + q) / 2.0
    end = mid.copy()
    on = nb >= 0
    end[on] = np.stack([x[nb[on]], y[nb[on]]], axis=1)
    if offset:
        d = end - start
        norm = np.hypot(d[:, 0], d[:, 1])[:, None]
        perp = np.stack([-d[:, 1], d[:, 0]], axis=1) / np.where(norm > 0, norm, 1.0) * offset
        start, end = start + perp, end + perp
    return np.stack([start, end], axis=1)


def _map_meta(scenario: Scenario) -> dict:
    try:
        meta = scenario.raw["map"]["map"]
    except (KeyError, TypeError):
        return {}
    return dict(meta) if isinstance(meta, dict) else {}


def render_map(scenario: Scenario, state: State | None = None, out: str | Path | None = None,
               overlay_ids: bool = True, *, dpi: int | None = None,
               layers: Iterable[Layer] = (), title: str | None = None) -> Path:
    """Draw the map of ``scenario`` with the units of ``state`` and write it to ``out``.

    Parameters
    ----------
    scenario
        A loaded scenario (``gwe_fast.load_scenario``).
    state
        The position whose units to draw; the set-up (``initial_state``) when None. Units
        that are eliminated, pending, exited or out of play are not drawn.
    out
        The image file: ``.png`` or ``.svg`` (ValueError otherwise). Its folder is created.
    overlay_ids
        Print each hex's id ``XXYY`` at the top of the hex.
    dpi
        PNG resolution (default ``DEFAULT_DPI``); an SVG is vector and ignores it.
    layers
        Extra drawing steps, each called with the matplotlib ``Axes`` once the map is drawn
        and before saving. The axes work in hex units (see the module docstring); give
        artists a ``zorder`` between 5 (above rails) and 6 (below towns and units).
    title
        Replaces the first line of the heading.

    Returns the path written. Raises RuntimeError, with the command to install it, when
    matplotlib is missing.
    """
    if out is None:
        raise TypeError("render_map() needs out=, the .png or .svg file to write")
    out = Path(out)
    fmt = output_format(out)
    setup = state is None
    if state is None:
        state = initial_state(scenario)
    else:
        _check_state(scenario, state)
    Figure = _matplotlib()
    import matplotlib as mpl

    with mpl.rc_context({"svg.fonttype": "none", "svg.hashsalt": "gwe_fast",
                         "font.family": "DejaVu Sans"}):
        fig = _draw(Figure, scenario, state, overlay_ids, layers, title, setup)
        out.parent.mkdir(parents=True, exist_ok=True)
        metadata = {"Software": None} if fmt == "png" else {"Date": None, "Creator": None}
        fig.savefig(out, format=fmt, dpi=dpi or DEFAULT_DPI, metadata=metadata)
    return out


class FrameRenderer:
    """Draw many positions of one scenario quickly, to PNG: the map with its heading and
    legend is drawn once, and each frame puts back that background and draws only the units,
    the heading's position line and any highlighted hexes on it.

    A frame looks like ``render_map``'s PNG of the same state, except that the legend lists
    every kind of counter of the scenario rather than those on the map.

    >>> from gwe_fast import Game, load_scenario
    >>> g = Game(load_scenario("brusilov/historical"))
    >>> frames = FrameRenderer(g.scenario, dpi=20)
    >>> png = frames.render(g.state, caption="Set-up", highlight=[0])
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """

    HIGHLIGHT = ("#ff00aa", 0.93, 2.4)       #: colour, inset and line width of a marked hex

    def __init__(self, scenario: Scenario, overlay_ids: bool = True, *, dpi: int | None = None,
                 layers: Iterable[Layer] = (), title: str | None = None):
        Figure = _matplotlib()
        import matplotlib as mpl
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        self.scenario = scenario
        self.x, self.y = hex_centres(scenario.map)
        self._rc = {"font.family": "DejaVu Sans"}
        setup = initial_state(scenario)
        with mpl.rc_context(self._rc):
            self.fig = _draw(Figure, scenario, setup, overlay_ids, layers, title, True,
                             units=False)
            self.fig.set_dpi(dpi or DEFAULT_DPI)
            line = position_line(setup, True)
            self._line = next(t for t in self.fig.texts if t.get_text() == line)
            self._line.set_animated(True)            # drawn per frame, not in the background
            self.canvas = FigureCanvasAgg(self.fig)
            self.canvas.draw()
            self._background = self.canvas.copy_from_bbox(self.fig.bbox)
        self.ax = self.fig.axes[0]
        #: the background as an RGB array (height, width, 3): the map with no units
        self.background = np.asarray(self.canvas.buffer_rgba())[:, :, :3].copy()

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of a frame in pixels."""
        w, h = self.canvas.get_width_height()
        return int(w), int(h)

    def render(self, state: State, out: str | Path | None = None, *, caption: str | None = None,
               highlight: Iterable[int] = ()) -> bytes:
        """The PNG of one position (also written to ``out`` when given); the arguments are
        those of ``rgb``."""
        png = png_bytes(self.rgb(state, caption=caption, highlight=highlight))
        if out is not None:
            out = Path(out)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(png)
        return png

    def rgb(self, state: State, *, caption: str | None = None,
            highlight: Iterable[int] = ()) -> np.ndarray:
        """One position as a new RGB array of shape (height, width, 3).

        ``caption`` starts the heading's position line (default ``"Position: Game-Turn T"``);
        ``highlight`` lists map cells to outline (for example the hexes of a combat)."""
        import matplotlib as mpl
        from matplotlib.collections import PolyCollection

        _check_state(self.scenario, state)
        ax = self.ax
        with mpl.rc_context(self._rc):
            self.canvas.restore_region(self._background)
            n_texts, n_colls = len(ax.texts), len(ax.collections)
            cells = np.unique(np.asarray(list(highlight), dtype=np.int64))
            if cells.size:
                colour, inset, lw = self.HIGHLIGHT
                rim = np.stack([self.x[cells, None] + inset * _VX[None, :],
                                self.y[cells, None] + inset * _VY[None, :]], axis=2)
                ax.add_collection(PolyCollection(rim, facecolors="none", edgecolors=colour,
                                                 linewidths=lw, zorder=9.5))
            _draw_units(ax, self.scenario, state, self.x, self.y, PolyCollection)
            added = list(ax.collections[n_colls:]) + list(ax.texts[n_texts:])
            for artist in sorted(added, key=lambda a: a.get_zorder()):
                artist.set_animated(True)
                ax.draw_artist(artist)
            self._line.set_text(position_line(state, what=caption))
            self.fig.draw_artist(self._line)
            rgb = np.asarray(self.canvas.buffer_rgba())[:, :, :3].copy()
            for artist in added:
                artist.remove()
        return rgb


def png_bytes(pixels: np.ndarray) -> bytes:
    """An RGB or RGBA array (height, width, 3 or 4) of uint8 encoded as PNG."""
    import io

    from PIL import Image  # Pillow comes with matplotlib

    buf = io.BytesIO()
    Image.fromarray(np.ascontiguousarray(pixels, dtype=np.uint8)).save(buf, format="png")
    return buf.getvalue()


def position_line(state: State, setup: bool = False, what: str | None = None) -> str:
    """The second line of a map's heading: the position shown and how to read hex ids."""
    what = what or (f"{'Set-up' if setup else 'Position'}: Game-Turn {int(state.turn)}")
    return (f"{what}, VP {int(state.vp)}, {int(_shown(state).sum())} units on the map. "
            f"Hex ids XXYY: column then row; even columns sit half a hex lower.")


def _draw(Figure, scenario: Scenario, state: State, overlay_ids: bool, layers, title,
          setup: bool, units: bool = True):
    from matplotlib import patheffects
    from matplotlib.collections import LineCollection, PolyCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    m = scenario.map
    x, y = hex_centres(m)
    legend: list = []

    # the page: the map below a heading band of title and legend lines --------------------
    margin = 0.15
    x0, x1 = float(x.min()) - RADIUS - margin, float(x.max()) + RADIUS + margin
    y0, y1 = float(y.min()) - 0.5 - margin, float(y.max()) + 0.5 + margin
    map_w, map_h = (x1 - x0) * INCH_PER_UNIT, (y1 - y0) * INCH_PER_UNIT
    fig = Figure(figsize=(map_w, map_h), facecolor="white")   # height set once the legend is known
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(x0, x1)
    ax.set_ylim(y1, y0)
    ax.set_aspect("equal")
    ax.axis("off")

    # terrain ---------------------------------------------------------------------------
    verts = np.stack([x[:, None] + _VX[None, :], y[:, None] + _VY[None, :]], axis=2)
    terrain = m.terrain.astype(np.int64)
    colours = [TERRAIN_COLOURS.get(Terrain(t), "#ffffff") for t in terrain]
    ax.add_collection(PolyCollection(verts, facecolors=colours, edgecolors=GRID_COLOUR,
                                     linewidths=0.4, zorder=1))
    for t in sorted(set(terrain.tolist())):
        legend.append(Patch(facecolor=TERRAIN_COLOURS.get(Terrain(t), "#ffffff"),
                            edgecolor=GRID_COLOUR, label=Terrain(t).name.lower()))
    _terrain_symbols(ax, x, y, terrain, LineCollection)

    # hex features drawn as rims, the works of each side in its colour ----------------------
    features = m.features.astype(np.int64)
    side_of = works_sides(scenario)
    names = _side_labels(scenario)
    for feature in RIM_SHAPES:
        cells = np.flatnonzero(features & int(feature))
        if cells.size == 0:
            continue
        groups = ([(side, cells[[side_of.get(int(c), 1) == side for c in cells]])
                   for side in (Side.CENTRAL, Side.ALLIED)] if feature in SIDED
                  else [(None, cells)])
        for side, part in groups:
            if part.size == 0:
                continue
            colour, inset, lw, ls = rim_style(feature, side)
            rims = [inset] + ([inset - 0.12] if feature == Feature.REDOUBT else [])
            for k, at in enumerate(rims):         # a redoubt: a thick rim and a thin one
                rim = np.stack([x[part, None] + at * _VX[None, :],
                                y[part, None] + at * _VY[None, :]], axis=2)
                ax.add_collection(PolyCollection(rim, facecolors="none", edgecolors=colour,
                                                 linewidths=lw if k == 0 else 0.8,
                                                 linestyles=ls, zorder=2))
            kind = feature.name.lower().replace("_", " ")
            if feature in (Feature.TRENCH_ALLIED, Feature.TRENCH_CENTRAL):
                who = Side.ALLIED if feature == Feature.TRENCH_ALLIED else Side.CENTRAL
                label = f"{names[who]} trench"
            else:
                label = f"{names[side]} {kind}" if side is not None else kind
            legend.append(Patch(facecolor="none", edgecolor=colour, linewidth=lw, linestyle=ls,
                                label=label))

    # hexsides --------------------------------------------------------------------------
    for kind, (colour, lw, ls) in HEXSIDE_STYLES.items():
        *_, p, q = _hexside_segments(m, x, y, int(kind))
        if p.shape[0] == 0:
            continue
        ax.add_collection(LineCollection(np.stack([p, q], axis=1), colors=colour,
                                         linewidths=lw, linestyles=ls, capstyle="round",
                                         zorder=3))
        label = HEXSIDE_LABELS[kind]
        if kind == Hexside.VP_LINE:
            label = "VP line (towns west of it score)"
        legend.append(Line2D([], [], color=colour, lw=lw, ls=ls, label=label))

    # rails -----------------------------------------------------------------------------
    double = _rail_segments(m, x, y, int(Hexside.RAIL_DOUBLE))
    single = _rail_segments(m, x, y, int(Hexside.RAIL_SINGLE), exclude=int(Hexside.RAIL_DOUBLE))
    extra = _rail_segments(m, x, y, int(Hexside.RAIL_EXTRA), offset=0.07)
    if len(single):
        ax.add_collection(LineCollection(single, colors=RAIL_COLOUR, linewidths=1.1,
                                         capstyle="round", zorder=4))
        legend.append(Line2D([], [], color=RAIL_COLOUR, lw=1.1, label="rail, single track"))
    if len(double):
        ax.add_collection(LineCollection(double, colors=RAIL_COLOUR, linewidths=2.6,
                                         capstyle="round", zorder=4.1))
        ax.add_collection(LineCollection(double, colors="white", linewidths=0.8,
                                         capstyle="round", zorder=4.2))
    if len(extra):
        ax.add_collection(LineCollection(extra, colors=RAIL_COLOUR, linewidths=1.1,
                                         capstyle="round", zorder=4))
        legend.append(Line2D([], [], color=RAIL_COLOUR, lw=1.1, ls=(0, (5, 1)),
                             label="second single line"))
    if len(double):
        legend.append((Line2D([], [], color=RAIL_COLOUR, lw=2.6),
                       Line2D([], [], color="white", lw=0.8), "rail, double track"))

    # extra layers (for example a real-geography overlay) --------------------------------
    for layer in layers:
        layer(ax)

    # towns and cities ------------------------------------------------------------------
    # the white halo is a separate stroked copy below the label, so that in an SVG the label
    # itself stays text (searchable), not outlines
    halo = [patheffects.Stroke(linewidth=1.6, foreground="white")]
    kind_of = {}
    for cell in np.flatnonzero(features & int(Feature.TOWN)):
        kind_of[int(cell)] = "town"
    for cell in np.flatnonzero(features & int(Feature.CITY)):
        kind_of[int(cell)] = "city"
    for place in scenario.places:
        kind_of.setdefault(place.cell, place.kind)
    for kind, marker, size in (("town", "o", 14), ("city", "s", 30)):
        cells = [c for c, k in sorted(kind_of.items()) if k == kind]
        if cells:
            ax.scatter(x[cells], y[cells] + 0.22, marker=marker, s=size, c="black",
                       linewidths=0, zorder=6)
            legend.append(Line2D([], [], ls="none", marker=marker, ms=math.sqrt(size),
                                 mfc="black", mec="none", label=kind))
    values = town_values(scenario)
    for place in scenario.places:
        vp = values.get(place.cell, 0)
        label = place.name + (f" ({vp})" if vp else "")
        style = {"ha": "center", "va": "center", "fontsize": 5.2,
                 "fontweight": "bold" if vp else "normal"}
        ax.text(x[place.cell], y[place.cell] + 0.36, label, color="white", zorder=6.9,
                path_effects=halo, **style)
        ax.text(x[place.cell], y[place.cell] + 0.36, label, zorder=7,
                color=VP_COLOUR if vp else "black", **style)
    scoring = [c for c, v in values.items() if v]
    if scoring:
        ax.scatter(x[scoring], y[scoring] + 0.22, marker="o", s=60, facecolors="none",
                   edgecolors=VP_COLOUR, linewidths=0.9, zorder=6.1)
        vp_line = bool((m.hexsides.astype(np.int64) & int(Hexside.VP_LINE)).any())
        common = max(set(values.values()), key=list(values.values()).count)
        legend.append(Line2D([], [], ls="none", marker="o", ms=7, mfc="none", mec=VP_COLOUR,
                             label=(f"town west of the VP line: {common} VP" if vp_line
                                    else "town with its VP (3)")))

    # hex ids ---------------------------------------------------------------------------
    if overlay_ids:
        for cell in range(m.n_cells):
            ax.text(x[cell], y[cell] - 0.41, m.id_of(cell), ha="center", va="center",
                    fontsize=5.5, color="#555555", zorder=8)

    # entry hexes -----------------------------------------------------------------------
    for letter, cells in sorted(scenario.entry.items()):
        for cell in np.asarray(cells).tolist():
            ax.text(x[cell] - 0.36, y[cell], letter, ha="center", va="center", fontsize=6.5,
                    color="white", fontweight="bold", zorder=9,
                    bbox={"boxstyle": "circle,pad=0.15", "fc": ENTRY_COLOUR, "ec": "none"})
    if scenario.entry:
        legend.append((Line2D([], [], ls="none", marker="o", ms=9, mfc=ENTRY_COLOUR,
                              mec="none"),
                       Line2D([], [], ls="none", marker="$A$", ms=5, color="white"),
                       "entry hex (letter)"))

    # units -----------------------------------------------------------------------------
    if units:
        shown = _legend_units(_draw_units(ax, scenario, state, x, y, PolyCollection), Patch)
    else:                # a background for FrameRenderer: every kind of counter in the legend
        shown = _legend_units({"nationality": set(np.unique(scenario.units.nationality)
                                                  .tolist()), "reduced": True,
                               "types": set(np.unique(scenario.units.utype).tolist())}, Patch)
    legend.extend(shown)

    # heading: title, a second line, then the legend -------------------------------------
    meta = _map_meta(scenario)
    name = meta.get("name") or scenario.name
    hex_km = meta.get("hex_km")
    scale = f", {hex_km:g} km per hex" if isinstance(hex_km, int | float) else ""
    if title is None:
        full = scenario.name if scenario.name.startswith(name) else f"{name}: {scenario.name}"
        title = f"{full} — {scenario.key}{scale}"
    where = position_line(state, setup)
    handles, labels = [], []
    for item in legend:
        if isinstance(item, tuple):
            handles.append(item[:-1])
            labels.append(item[-1])
        else:
            handles.append(item)
            labels.append(item.get_label())
    key = counters_key(scenario)
    note = orientation_note(north_bearing(scenario))
    bearing = north_bearing(scenario)
    rose = 1.2 if bearing is not None else 0.0         # inches kept for the compass rose
    per_col = 1.75                       # inches per legend entry
    ncol = max(1, min(len(handles), int((map_w - 0.3 - rose) // per_col)))
    nrows = math.ceil(len(handles) / ncol) if handles else 0
    head = HEADER_LINE * (3.6 + 1.15 * nrows)
    head = max(head, rose + 0.2)
    total_h = map_h + head
    fig.set_size_inches(map_w, total_h)
    ax.set_position((0, 0, 1, map_h / total_h))
    fig.text(0.15 / map_w, 1 - 0.22 / total_h, title, fontsize=9, fontweight="bold",
             ha="left", va="center")
    fig.text(0.15 / map_w, 1 - 0.44 / total_h, where, fontsize=7, ha="left", va="center")
    fig.text(0.15 / map_w, 1 - 0.64 / total_h, " ".join(t for t in (note, key) if t),
             fontsize=7, ha="left", va="center")
    if handles:
        from matplotlib.legend_handler import HandlerTuple

        fig.legend(handles, labels, loc="upper left", ncol=ncol, fontsize=6.5, frameon=False,
                   bbox_to_anchor=(0.1 / map_w, 1 - 0.76 / total_h), handlelength=2.2,
                   columnspacing=1.2, handler_map={tuple: HandlerTuple(ndivide=1, pad=0)})
    if bearing is not None:
        _compass(fig, 1 - 0.65 / map_w, 1 - (rose / 2 + 0.1) / total_h, rose - 0.2, bearing)
    return fig


def counters_key(scenario: Scenario) -> str:
    """A sentence saying how to read a counter of this game."""
    values = VALUE_NAMES.get(scenario.game, "its values")
    hq = HQ_VALUE_NAMES.get(scenario.game)
    return (f"Counters: type symbol, designation, {values}; pale: reduced"
            + (f"; an HQ: {hq}." if hq else "."))


def _side_labels(scenario: Scenario) -> dict[Side, str]:
    """What to call each side's works on the map: the game's name for the side (Russian,
    Central Powers), or, when the game calls it by its alliance, the nationality most of its
    units have (British for The Kaiser's Battle's Allied side)."""
    try:
        from gwe_fast.games import driver

        names = dict(getattr(driver(scenario.game), "SIDE_NAMES", {}))
    except (ValueError, ImportError):
        names = {}
    out = {}
    u = scenario.units
    for side in Side:
        name = names.get(side.name.lower(), "")
        if not name or name.lower() == side.name.lower():
            nats = u.nationality[u.side == int(side)]
            if nats.size:
                common = int(np.bincount(nats.astype(np.int64)).argmax())
                name = Nationality(common).name.replace("_", "-").title()
            else:
                name = side.name.capitalize()
        out[side] = name
    return out


def _terrain_symbols(ax, x, y, terrain, LineCollection) -> None:
    """Small symbols in the lower half of the hex, as on the printed maps."""
    sy = 0.10
    for kinds, colour in (((Terrain.FOREST, Terrain.WOODS), "#2f6b2a"),):
        cells = np.flatnonzero(np.isin(terrain, [int(k) for k in kinds]))
        if cells.size:
            px = np.concatenate([x[cells] + dx for dx in (-0.15, 0.0, 0.15)])
            py = np.concatenate([y[cells] + sy] * 3)
            ax.scatter(px, py, marker="^", s=7, c=colour, linewidths=0, zorder=1.5)
    cells = np.flatnonzero(terrain == int(Terrain.HILLTOP))
    if cells.size:
        ax.scatter(x[cells], y[cells] + sy, marker="^", s=40, c="#8e5b1f", linewidths=0,
                   zorder=1.5)
    shapes = {
        Terrain.SWAMP: ([[(-0.18, 0.0), (0.18, 0.0)], [(-0.12, 0.08), (0.12, 0.08)]],
                        "#2f7f7a", 0.6, (0, (2, 2))),
        Terrain.ROUGH: ([[(-0.2, 0.04), (-0.1, -0.03), (0.0, 0.04), (0.1, -0.03),
                          (0.2, 0.04)]], "#8a6a40", 0.6, "-"),
        Terrain.MOUNTAIN: ([[(-0.2, 0.06), (-0.07, -0.08), (0.06, 0.06)],
                            [(0.0, 0.06), (0.12, -0.05), (0.24, 0.06)]], "#5a4020", 0.9, "-"),
        Terrain.LAKE: ([[(-0.15, 0.0), (-0.05, -0.03), (0.05, 0.0), (0.15, -0.03)]],
                       "#2e6da4", 0.6, "-"),
    }
    for kind, (strokes, colour, lw, ls) in shapes.items():
        cells = np.flatnonzero(terrain == int(kind))
        if cells.size == 0:
            continue
        lines = [[(x[c] + dx, y[c] + sy + dy) for dx, dy in stroke]
                 for c in cells for stroke in strokes]
        ax.add_collection(LineCollection(lines, colors=colour, linewidths=lw, linestyles=ls,
                                         zorder=1.5))


# --- counters --------------------------------------------------------------------------------

#: the NATO-style symbol of each unit type: names of the strokes ``_symbol`` draws
SYMBOLS = {
    UnitType.INFANTRY: ("x",), UnitType.SERVICE: ("x",),
    UnitType.CAVALRY: ("slash",),
    UnitType.ARMORED_CAR: ("oval", "slash"), UnitType.TANK: ("oval",),
    UnitType.ARTILLERY: ("dot",),
    UnitType.MACHINE_GUN: ("x", "top bar"),
    UnitType.MOUNTAIN: ("x", "peak"),
    UnitType.NAVAL_INFANTRY: ("x", "bottom bar"),
    UnitType.ENGINEER: ("bridge",),
    UnitType.HQ: ("flag",),
    UnitType.DEPOT: ("supply",),
    UnitType.REPLACEMENT: ("plus",),
}
SYMBOL_LABELS = {
    UnitType.INFANTRY: "infantry", UnitType.SERVICE: "service company",
    UnitType.CAVALRY: "cavalry", UnitType.ARMORED_CAR: "armored car", UnitType.TANK: "tank",
    UnitType.ARTILLERY: "artillery", UnitType.MACHINE_GUN: "machine gun",
    UnitType.MOUNTAIN: "mountain infantry", UnitType.NAVAL_INFANTRY: "naval infantry",
    UnitType.ENGINEER: "engineer", UnitType.HQ: "HQ", UnitType.DEPOT: "supply depot",
    UnitType.REPLACEMENT: "replacement",
}
#: what the three printed values of a counter are, by game system
VALUE_NAMES = {"gwe": "attack-defense-movement", "kb": "combat-morale-movement"}
HQ_VALUE_NAMES = {"gwe": "+attack shift command strength/radius, combat-movement (H heroic)",
                  "kb": "supply/communications/field artillery ranges"}


def _symbol(kind: str, x0: float, y0: float, w: float, h: float):
    """Strokes (polylines) and filled shapes (polygons) of one part of a symbol in the box
    ``(x0, y0, w, h)``, ``y`` down the page."""
    def at(fx, fy):
        return (x0 + fx * w, y0 + fy * h)

    def ring(cx, cy, rx, ry, n=14):
        t = np.linspace(0.0, 2 * np.pi, n + 1)
        return [at(cx + rx * math.cos(a), cy + ry * math.sin(a)) for a in t]

    lines: list = []
    fills: list = []
    if kind == "x":
        lines += [[at(0, 0), at(1, 1)], [at(0, 1), at(1, 0)]]
    elif kind == "slash":
        lines.append([at(0, 1), at(1, 0)])
    elif kind == "oval":
        lines.append(ring(0.5, 0.5, 0.32, 0.28))
    elif kind == "dot":
        fills.append(ring(0.5, 0.5, 0.14, 0.22, 10))
    elif kind == "top bar":
        lines.append([at(0.3, 0.2), at(0.7, 0.2)])
    elif kind == "bottom bar":
        lines.append([at(0.3, 0.82), at(0.7, 0.82)])
    elif kind == "peak":
        fills.append([at(0.36, 1.0), at(0.5, 0.62), at(0.64, 1.0)])
    elif kind == "bridge":
        lines.append([at(0.2, 0.35), at(0.8, 0.35)])
        lines += [[at(fx, 0.35), at(fx, 0.72)] for fx in (0.2, 0.5, 0.8)]
    elif kind == "flag":
        lines.append([at(0.3, 0.9), at(0.3, 0.12)])
        fills.append([at(0.3, 0.12), at(0.78, 0.3), at(0.3, 0.48)])
    elif kind == "supply":
        lines.append([at(0, 0.7), at(1, 0.7)])
    elif kind == "plus":
        lines += [[at(0.5, 0.15), at(0.5, 0.85)], [at(0.25, 0.5), at(0.75, 0.5)]]
    return lines, fills


def _legend_marker(utype: UnitType):
    """A matplotlib marker path of a type symbol (box and strokes), for the legend."""
    from matplotlib.path import Path as MPath

    verts, codes = [], []
    box = [(0, 0), (1, 0), (1, 0.6), (0, 0.6), (0, 0)]
    parts = [box]
    for kind in SYMBOLS.get(utype, ()):
        lines, fills = _symbol(kind, 0.0, 0.0, 1.0, 0.6)
        parts += lines + [list(f) + [f[0]] for f in fills]
    for part in parts:
        verts += [(x - 0.5, 0.3 - y) for x, y in part]
        codes += [MPath.MOVETO] + [MPath.LINETO] * (len(part) - 1)
    return MPath(verts, codes)


def counter_values(scenario: Scenario, unit: int, step: int) -> tuple[str, ...]:
    """The values printed on a counter at ``step`` (0: full strength): strengths and
    movement (``8-15-4``), and for an HQ its own values first (``+2 16/5`` then ``1-6`` in
    The Great War in the East; ``1-4-4`` then ``6/12/10`` in The Kaiser's Battle).

    >>> from gwe_fast import load_scenario
    >>> sc = load_scenario("brusilov/historical")
    >>> counter_values(sc, sc.units.index("ru-xxx-1gd"), 0)
    ('8-15-4',)
    >>> counter_values(sc, sc.units.index("ru-hq-8ka"), 0)
    ('+2 16/5', '1-6')
    """
    u = scenario.units
    step = int(min(max(step, 0), max(int(u.n_steps[unit]) - 1, 0)))
    a, b, m = (int(v) for v in u.values[unit, step])

    def extra(name: str) -> int:
        arr = u.extra.get(name)
        return int(np.asarray(arr[unit]).reshape(-1)[0]) if arr is not None else -1

    if int(u.utype[unit]) == int(UnitType.HQ) and extra("command_strength") >= 0:
        heroic = "H" if extra("heroic") > 0 else ""
        return (f"+{extra('attack_shift')} {extra('command_strength')}/"
                f"{extra('command_radius')}", f"{b}{heroic}-{m}")
    values = f"{a}-{b}-{m}"
    if int(u.utype[unit]) == int(UnitType.HQ) and extra("supply_range") >= 0:
        return (values, f"{extra('supply_range')}/{extra('communications_range')}/"
                        f"{extra('field_artillery_range')}")
    return (values,)


def _draw_units(ax, scenario: Scenario, state: State, x, y, PolyCollection) -> dict:
    """Counters, stacked with an offset: each a strip with its type symbol, designation and
    values; returns what was drawn (for the legend)."""
    from matplotlib.collections import LineCollection

    u = scenario.units
    steps = np.asarray(state.unit_step)
    levels: dict[int, dict[str, list]] = {}
    drawn: dict = {"nationality": set(), "reduced": False, "types": set()}
    for cell, units in stacks(state).items():
        extra = 0
        if len(units) > MAX_SHOWN:
            extra = len(units) - (MAX_SHOWN - 1)
            units = units[:MAX_SHOWN - 1]
        k = len(units) + (1 if extra else 0)
        dy = COUNTER_H + STACK_GAP
        if k > 1:
            dy = min(dy, (STACK_SPAN - COUNTER_H) / (k - 1))
        for j in range(k):
            level = levels.setdefault(j, {"boxes": [], "faces": [], "edges": [], "lines": [],
                                          "line_colours": [], "fills": [], "fill_colours": []})
            left = x[cell] - COUNTER_W / 2 + j * STACK_DX - (k - 1) * STACK_DX / 2
            top = y[cell] + COUNTER_TOP + j * dy
            level["boxes"].append([(left, top), (left + COUNTER_W, top),
                                   (left + COUNTER_W, top + COUNTER_H),
                                   (left, top + COUNTER_H)])
            mid = top + min(COUNTER_H, dy) * 0.48       # on the part a counter below leaves
            if j >= len(units):
                level["faces"].append("#777777")
                level["edges"].append("white")
                ax.text(left + COUNTER_W / 2, mid, f"+{extra} more", ha="center", va="center",
                        fontsize=TEXT_MAX_PT, color="white", fontweight="bold",
                        zorder=10.05 + 0.1 * j)
                continue
            i = units[j]
            nat = Nationality(int(u.nationality[i]))
            fill, ink = COUNTER_COLOURS.get(nat, (SIDE_COLOURS[Side(int(u.side[i]))],
                                                  "#ffffff"))
            drawn["nationality"].add(int(nat))
            utype = UnitType(int(u.utype[i]))
            drawn["types"].add(int(utype))
            reduced = int(steps[i]) > 0
            drawn["reduced"] |= reduced
            if reduced:                     # the back of the counter: pale, dark print
                level["faces"].append(_pale(fill))
                level["edges"].append(fill)
                ink = "#1b1b1b"
            else:
                level["faces"].append(fill)
                level["edges"].append("white")
            sx, sy = left + 0.02, mid - SYMBOL_H / 2
            level["lines"].append([(sx, sy), (sx + SYMBOL_W, sy), (sx + SYMBOL_W, sy + SYMBOL_H),
                                   (sx, sy + SYMBOL_H), (sx, sy)])
            level["line_colours"].append(ink)
            for kind in SYMBOLS.get(utype, ()):
                lines, fills = _symbol(kind, sx, sy, SYMBOL_W, SYMBOL_H)
                level["lines"] += lines
                level["line_colours"] += [ink] * len(lines)
                level["fills"] += fills
                level["fill_colours"] += [ink] * len(fills)
            name = u.names[i]
            values = " ".join(counter_values(scenario, i, int(steps[i])))
            room = COUNTER_W - SYMBOL_W - 0.02 - 0.04 - 0.03      # inches of text
            size = min(TEXT_MAX_PT, room * 72 / (0.60 * (len(name) + len(values) + 1)))
            z = 10.05 + 0.1 * j
            ax.text(sx + SYMBOL_W + 0.03, mid, name, ha="left", va="center", fontsize=size,
                    color=ink, fontweight="bold", zorder=z)
            ax.text(left + COUNTER_W - 0.03, mid, values, ha="right", va="center",
                    fontsize=size, color=ink, zorder=z)
    for j, level in sorted(levels.items()):
        z = 10 + 0.1 * j
        ax.add_collection(PolyCollection(level["boxes"], facecolors=level["faces"],
                                         edgecolors=level["edges"], linewidths=0.4, zorder=z))
        if level["lines"]:
            ax.add_collection(LineCollection(level["lines"], colors=level["line_colours"],
                                             linewidths=0.45, zorder=z + 0.05,
                                             gid="unit-symbols" if j == 0 else None))
        if level["fills"]:
            ax.add_collection(PolyCollection(level["fills"], facecolors=level["fill_colours"],
                                             edgecolors="none", zorder=z + 0.05))
    return drawn


def _legend_units(drawn: dict, Patch) -> list:
    from matplotlib.lines import Line2D

    out = []
    for nat in sorted(drawn["nationality"]):
        fill, _ = COUNTER_COLOURS.get(Nationality(nat), ("#777777", "white"))
        out.append(Patch(facecolor=fill, edgecolor="white",
                         label=f"{Nationality(nat).name.lower().replace('_', '-')} unit"))
    if drawn["reduced"]:
        out.append(Patch(facecolor=_pale("#777777"), edgecolor="#777777",
                         label="reduced unit (pale)"))
    for t in sorted(drawn.get("types", ())):
        utype = UnitType(t)
        out.append(Line2D([], [], ls="none", marker=_legend_marker(utype), ms=11, mew=0.7,
                          color="#222222", mfc="none", label=SYMBOL_LABELS[utype]))
    return out


# --- where things are -----------------------------------------------------------------------

def works_sides(scenario: Scenario) -> dict[int, int]:
    """The side of each fieldwork or redoubt hex, from the set-up: each connected group of
    hexes of one kind is the side that sets up the most units in it, or, for an empty group,
    the side of the nearest set-up unit (ties: the Central Powers, whose front line the
    bundled Kaiser's Battle draws as fieldworks)."""
    m, u = scenario.map, scenario.units
    feats = m.features.astype(np.int64)
    works = np.flatnonzero(feats & (int(Feature.FIELDWORK) | int(Feature.REDOUBT)))
    if works.size == 0:
        return {}
    setup = {}
    for i in range(u.n):
        c = int(u.setup_cell[i])
        if c >= 0:
            setup.setdefault(c, []).append(int(u.side[i]))
    nb = m.neighbors
    # the side of the nearest set-up unit for every cell, a ring of hexes at a time; a cell
    # that both sides reach in the same ring goes to the Central Powers
    near = np.full(m.n_cells, -1, dtype=np.int64)
    ring = {c: {int(max(set(sides), key=lambda s: (sides.count(s), s)))}
            for c, sides in setup.items()}
    while ring:
        for c, sides in ring.items():
            near[c] = max(sides)
        nxt: dict[int, set[int]] = {}
        for c in ring:
            for d in nb[c].tolist():
                if d >= 0 and near[d] < 0:
                    nxt.setdefault(d, set()).add(int(near[c]))
        ring = nxt
    kind = np.where(feats & int(Feature.REDOUBT), int(Feature.REDOUBT),
                    np.where(feats & int(Feature.FIELDWORK), int(Feature.FIELDWORK), 0))
    side_of: dict[int, int] = {}
    for start in works.tolist():
        if start in side_of:
            continue
        group, todo = [start], [start]           # the hexes of this kind joined to it
        seen = {start}
        while todo:
            c = todo.pop()
            for d in nb[c].tolist():
                if d >= 0 and kind[d] == kind[start] and d not in seen:
                    seen.add(d)
                    group.append(d)
                    todo.append(d)
        votes = [s for c in group for s in setup.get(c, [])]
        if votes:
            side = max(set(votes), key=lambda s: (votes.count(s), s))
            for c in group:
                side_of[c] = side
        else:
            for c in group:
                side_of[c] = int(near[c]) if near[c] >= 0 else int(Side.CENTRAL)
    return side_of


def town_values(scenario: Scenario) -> dict[int, int]:
    """The Victory Points each town or city is worth at the end of the game, by map cell, as
    the game's rules score them (its driver's ``town_values``): a place's own ``vp`` in The
    Great War in the East, a town west of the VP line in The Kaiser's Battle."""
    try:
        from gwe_fast.games import driver

        d = driver(scenario.game)
    except (ValueError, ImportError):
        d = None
    if d is not None and hasattr(d, "town_values"):
        return dict(d.town_values(scenario))
    return {p.cell: p.vp for p in scenario.places if p.vp}


def north_bearing(scenario: Scenario) -> float | None:
    """Degrees clockwise from the top of the map to true north (the map file's ``north``),
    or None when the map does not say."""
    value = _map_meta(scenario).get("north")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) \
        else None


def orientation_note(bearing: float | None) -> str:
    """A sentence saying where north is, for a map not drawn north-up; "" otherwise.

    >>> orientation_note(-92.13)
    'North is to the left: the map is turned 92° as printed.'
    >>> orientation_note(6.4)
    ''
    """
    if bearing is None or abs(bearing) < 20:
        return ""
    b = (bearing + 180) % 360 - 180
    where = ("to the right" if 45 <= b < 135 else "to the left" if -135 <= b < -45
             else "at the bottom" if abs(b) >= 135 else "up, turned")
    return f"North is {where}: the map is turned {abs(b):.0f}° as printed."


def _compass(fig, cx: float, cy: float, inches: float, bearing: float) -> None:
    """A compass rose ``inches`` across, centred at figure fraction ``(cx, cy)``: a ring, an
    arrow to true north with ``N`` at its tip, and ticks for the other three points."""
    from matplotlib.patches import Circle, FancyArrow

    w, h = fig.get_size_inches()
    ax = fig.add_axes((cx - inches / 2 / w, cy - inches / 2 / h, inches / w, inches / h))
    ax.set_xlim(-1.3, 1.3)
    ax.set_ylim(-1.3, 1.3)
    ax.set_aspect("equal")
    ax.axis("off")
    t = math.radians(bearing)
    ux, uy = math.sin(t), math.cos(t)               # north, y up
    ax.add_patch(Circle((0, 0), 0.82, fill=False, ec="#777777", lw=0.6))
    for k in (1, 2, 3):                              # east, south, west
        a = t + k * math.pi / 2
        ax.plot([0.68 * math.sin(a), 0.95 * math.sin(a)],
                [0.68 * math.cos(a), 0.95 * math.cos(a)], color="#777777", lw=0.6)
    ax.add_patch(FancyArrow(-0.7 * ux, -0.7 * uy, 1.45 * ux, 1.45 * uy, width=0.06,
                            head_width=0.3, head_length=0.35, length_includes_head=True,
                            color="#222222"))
    ax.text(1.12 * ux, 1.12 * uy, "N", ha="center", va="center", fontsize=8,
            fontweight="bold")
