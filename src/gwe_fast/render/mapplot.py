"""Draw a scenario's map, and the units of a position on it, to PNG or SVG.

Everything comes from the loaded ``Scenario`` (its ``HexMap`` arrays, ``places`` and
``entry``) and a ``State`` (``unit_cell``, ``unit_status``, ``unit_step``), so the same code
draws any bundled or user scenario and any saved game position.

The drawing works in *hex units*: adjacent hex centres are 1 apart, the centre of hex (c, r)
is ``x = (c - 1) * sqrt(3) / 2``, ``y = (r - 1) + 0.5`` when ``c`` is even, and ``y`` grows
downwards (row 01 at the top). Hexes are flat-topped, so each has a circumradius of
``1 / sqrt(3)``. This is the grid of docs/scenarios.md and of ``scripts/build_maps.py``, so
an extra layer (see ``render_map(layers=...)``) can draw in the same coordinates.

matplotlib is an optional dependency (the ``render`` extra): it is imported when
``render_map`` runs, never when this module is imported.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np

from gwe_fast.enums import Feature, Hexside, Nationality, Side, Terrain
from gwe_fast.hexmap import HexMap
from gwe_fast.scenario.model import Scenario
from gwe_fast.state import State, Status, initial_state

FORMATS = {".png": "png", ".svg": "svg"}
DEFAULT_DPI = 120            #: PNG resolution; one hex is about an inch, so about 120 px tall
INSTALL_HINT = ('drawing maps needs matplotlib, which is not installed; install it with: '
                'pip install "gwe_fast[render]"')

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

#: hex features drawn as a coloured rim inside the hex: (colour, inset, line width, style)
RIMS = {
    Feature.TRENCH_ALLIED: ("#c0392b", 0.88, 1.1, "-"),
    Feature.TRENCH_CENTRAL: ("#2c3e50", 0.88, 1.1, "-"),
    Feature.FIELDWORK: ("#af601a", 0.88, 1.1, "-"),
    Feature.REDOUBT: ("#7b241c", 0.78, 1.6, "-"),
    Feature.WIRE: ("#555555", 0.95, 1.0, ":"),
    Feature.FORTRESS: ("#000000", 0.70, 1.8, "-"),
    Feature.START_LINE: ("#e74c3c", 0.82, 1.0, "--"),
}

#: hexside kinds drawn along the hexside: (colour, line width, style), in drawing order
HEXSIDE_STYLES = {
    Hexside.MINOR_RIVER: ("#2e86c1", 1.6, "-"),
    Hexside.MAJOR_RIVER: ("#1b4f72", 3.0, "-"),
    Hexside.CANAL: ("#5dade2", 2.2, "-"),
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

NATIONALITY_COLOURS = {
    Nationality.RUSSIAN: "#a93226", Nationality.BRITISH: "#a93226",
    Nationality.FRENCH: "#d35400", Nationality.GERMAN: "#1f3a5f",
    Nationality.AUSTRO_HUNGARIAN: "#3f77a8",
}
SIDE_COLOURS = {Side.ALLIED: "#a93226", Side.CENTRAL: "#1f3a5f"}
ENTRY_COLOUR = "#6c3483"
VP_COLOUR = "#8b0000"

# counters, in hex units
COUNTER_W, COUNTER_H = 0.46, 0.17
COUNTER_TOP = -0.31          #: top edge of the first counter of a stack, from the hex centre
STACK_DX, STACK_DY = 0.03, 0.12
STACK_SPAN = 0.56            #: the most a stack may spread downwards
MAX_SHOWN = 6                #: a bigger stack shows its first MAX_SHOWN-1 and a "+n" counter
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

    # hex features drawn as rims --------------------------------------------------------
    features = m.features.astype(np.int64)
    for feature, (colour, inset, lw, ls) in RIMS.items():
        cells = np.flatnonzero(features & int(feature))
        if cells.size == 0:
            continue
        rim = np.stack([x[cells, None] + inset * _VX[None, :],
                        y[cells, None] + inset * _VY[None, :]], axis=2)
        ax.add_collection(PolyCollection(rim, facecolors="none", edgecolors=colour,
                                         linewidths=lw, linestyles=ls, zorder=2))
        label = feature.name.lower().replace("_", " ")
        legend.append(Patch(facecolor="none", edgecolor=colour, linewidth=lw, linestyle=ls,
                            label=label.replace("allied", "(allied)")
                            .replace("central", "(central)")))

    # hexsides --------------------------------------------------------------------------
    for kind, (colour, lw, ls) in HEXSIDE_STYLES.items():
        *_, p, q = _hexside_segments(m, x, y, int(kind))
        if p.shape[0] == 0:
            continue
        ax.add_collection(LineCollection(np.stack([p, q], axis=1), colors=colour,
                                         linewidths=lw, linestyles=ls, capstyle="round",
                                         zorder=3))
        legend.append(Line2D([], [], color=colour, lw=lw, ls=ls, label=HEXSIDE_LABELS[kind]))

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
    any_vp = False
    for place in scenario.places:
        label = place.name + (f" ({place.vp})" if place.vp else "")
        any_vp |= bool(place.vp)
        style = {"ha": "center", "va": "center", "fontsize": 5.2,
                 "fontweight": "bold" if place.vp else "normal"}
        ax.text(x[place.cell], y[place.cell] + 0.36, label, color="white", zorder=6.9,
                path_effects=halo, **style)
        ax.text(x[place.cell], y[place.cell] + 0.36, label, zorder=7,
                color=VP_COLOUR if place.vp else "black", **style)
    if any_vp:
        legend.append(Line2D([], [], ls="none", marker="$(3)$", ms=9, color=VP_COLOUR,
                             label="victory points"))

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
                                                  .tolist()), "reduced": True}, Patch)
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
    per_col = 1.75                       # inches per legend entry
    ncol = max(1, min(len(handles), int((map_w - 0.3) // per_col)))
    nrows = math.ceil(len(handles) / ncol) if handles else 0
    head = HEADER_LINE * (2.6 + 1.15 * nrows)
    total_h = map_h + head
    fig.set_size_inches(map_w, total_h)
    ax.set_position((0, 0, 1, map_h / total_h))
    fig.text(0.15 / map_w, 1 - 0.22 / total_h, title, fontsize=9, fontweight="bold",
             ha="left", va="center")
    fig.text(0.15 / map_w, 1 - 0.44 / total_h, where, fontsize=7, ha="left", va="center")
    if handles:
        from matplotlib.legend_handler import HandlerTuple

        fig.legend(handles, labels, loc="upper left", ncol=ncol, fontsize=6.5, frameon=False,
                   bbox_to_anchor=(0.1 / map_w, 1 - 0.56 / total_h), handlelength=2.2,
                   columnspacing=1.2, handler_map={tuple: HandlerTuple(ndivide=1, pad=0)})
    return fig


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


def _draw_units(ax, scenario: Scenario, state: State, x, y, PolyCollection) -> dict:
    """Counters with their designations, stacked with an offset; returns what was drawn."""
    u = scenario.units
    steps = np.asarray(state.unit_step)
    boxes, faces, edges = [], [], []
    drawn = {"nationality": set(), "reduced": False}
    for cell, units in stacks(state).items():
        extra = 0
        if len(units) > MAX_SHOWN:
            extra = len(units) - (MAX_SHOWN - 1)
            units = units[:MAX_SHOWN - 1]
        k = len(units) + (1 if extra else 0)
        dy = STACK_DY if k <= 1 else min(STACK_DY, (STACK_SPAN - COUNTER_H) / (k - 1))
        for j in range(k):
            left = x[cell] - COUNTER_W / 2 + j * STACK_DX - (k - 1) * STACK_DX / 2
            top = y[cell] + COUNTER_TOP + j * dy
            boxes.append([(left, top), (left + COUNTER_W, top),
                          (left + COUNTER_W, top + COUNTER_H), (left, top + COUNTER_H)])
            if j < len(units):
                i = units[j]
                colour = NATIONALITY_COLOURS.get(Nationality(int(u.nationality[i])),
                                                 SIDE_COLOURS[Side(int(u.side[i]))])
                drawn["nationality"].add(int(u.nationality[i]))
                reduced = int(steps[i]) > 0
                drawn["reduced"] |= reduced
                faces.append(_pale(colour) if reduced else colour)
                edges.append(colour if reduced else "white")
                label, text_colour = u.names[i], colour if reduced else "white"
            else:
                faces.append("#777777")
                edges.append("white")
                label, text_colour = f"+{extra}", "white"
            size = min(5.0, COUNTER_W * 72 * 0.9 / (0.62 * max(len(label), 1)))
            ax.text(left + COUNTER_W / 2, top + 0.058, label, ha="center", va="center",
                    fontsize=size, color=text_colour, fontweight="bold", zorder=10.5)
    if boxes:
        ax.add_collection(PolyCollection(boxes, facecolors=faces, edgecolors=edges,
                                         linewidths=0.4, zorder=10))
    return drawn


def _legend_units(drawn: dict, Patch) -> list:
    out = []
    for nat in sorted(drawn["nationality"]):
        colour = NATIONALITY_COLOURS.get(Nationality(nat), "#777777")
        out.append(Patch(facecolor=colour, edgecolor="white",
                         label=f"{Nationality(nat).name.lower().replace('_', '-')} unit"))
    if drawn["reduced"]:
        out.append(Patch(facecolor=_pale("#777777"), edgecolor="#777777",
                         label="reduced unit (pale)"))
    return out
