"""The map as a flat cell index, with SPI hex ids for people.

Hexes are flat-topped and named ``XXYY`` (column, row); hexes of even-numbered columns sit
half a hex lower than those of odd-numbered columns. Cells are numbered in hex-id order.
Directions are N, NE, SE, S, SW, NW (0..5). See docs/scenarios.md for the full convention.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from gwe_fast import dtypes, kernels
from gwe_fast.enums import Direction, Feature, Hexside, Terrain


def parse_hex_id(text: str | int) -> int:
    """Parse ``"0809"`` (or 809) into the integer id 809; raise ValueError if malformed.

    >>> parse_hex_id("0809")
    809
    """
    if isinstance(text, int) and not isinstance(text, bool):
        value = text
    elif isinstance(text, str) and len(text) == 4 and text.isdigit():
        value = int(text)
    else:
        raise ValueError(f"{text!r} is not a four-digit hex id XXYY")
    if not 0 <= value <= 9999 or value % 100 == 0 and value // 100 == 0:
        raise ValueError(f"{text!r} is not a four-digit hex id XXYY")
    return value


def format_hex_id(value: int) -> str:
    """Format the integer id 809 as ``"0809"``.

    >>> format_hex_id(809)
    '0809'
    """
    return f"{int(value):04d}"


class HexMap:
    """A hex map: cells, neighbours, terrain, features and symmetric hexside masks.

    Parameters
    ----------
    columns, rows : (first, last)
        The rectangle of SPI columns and rows.
    absent : iterable of hex ids, optional
        Hexes inside the rectangle that are not on the map.
    impl : "cython" or "pure", optional
        Which kernels to use (see ``gwe_fast.kernels``).

    Examples
    --------
    >>> m = HexMap((1, 3), (1, 3))
    >>> m.n_cells
    9
    >>> m.id_of(m.cell("0202"))
    '0202'
    >>> [m.id_of(c) if c >= 0 else None for c in m.neighbors[m.cell("0202")]]
    ['0201', '0302', '0303', '0203', '0103', '0102']
    >>> m.distance("0101", "0302"), m.distance("0101", "0303")
    (2, 3)
    """

    def __init__(self, columns: tuple[int, int], rows: tuple[int, int],
                 absent: Iterable[int | str] = (), impl: str | None = None):
        self.k = kernels.get(impl)
        self.col0, self.col1 = int(columns[0]), int(columns[1])
        self.row0, self.row1 = int(rows[0]), int(rows[1])
        if not (0 <= self.col0 <= self.col1 <= 99 and 0 <= self.row0 <= self.row1 <= 99):
            raise ValueError(f"columns {columns} and rows {rows} must be ascending pairs in 0..99")
        self.nrows = self.row1 - self.row0 + 1
        ncols = self.col1 - self.col0 + 1
        present = np.ones(ncols * self.nrows, dtype=dtypes.FLAG)
        for hexid in absent:
            h = parse_hex_id(hexid)
            c, r = divmod(h, 100)
            if not (self.col0 <= c <= self.col1 and self.row0 <= r <= self.row1):
                raise ValueError(f"absent hex {format_hex_id(h)} is outside the map rectangle")
            present[(c - self.col0) * self.nrows + (r - self.row0)] = 0
        hg = self.k.hexgrid
        self.col, self.row, self.lookup = hg.build_cells(
            self.col0, self.col1, self.row0, self.row1, present)
        self.n_cells = int(self.col.shape[0])
        self.neighbors = hg.neighbor_table(self.col, self.row, self.lookup, self.col0, self.row0,
                                           self.nrows)
        self.q, self.r = hg.axial_coords(self.col, self.row)
        self.ids = (self.col.astype(dtypes.HEXID) * 100 + self.row).astype(dtypes.HEXID)
        self.terrain = np.zeros(self.n_cells, dtype=dtypes.TERRAIN)
        self.features = np.zeros(self.n_cells, dtype=dtypes.FEATURE)
        self.hexsides = np.zeros((self.n_cells, 6), dtype=dtypes.HEXSIDE)

    @property
    def neighbor_lists(self) -> list[list[int]]:
        """``neighbors`` as Python lists (-1 off the map), made on first use and shared: for
        rules and policies that read a few neighbours at a time, where numpy's indexing of
        one entry costs more than the list's. Read it, do not change it."""
        hit = self.__dict__.get("_neighbor_lists")
        if hit is None:
            hit = self.__dict__["_neighbor_lists"] = self.neighbors.tolist()
        return hit

    # ids and cells -----------------------------------------------------------------------
    def cell(self, hexid: int | str) -> int:
        """Cell index of a hex id; raise KeyError if the hex is not on the map."""
        h = parse_hex_id(hexid)
        c = int(self.k.hexgrid.ids_to_cells(np.array([h], dtype=dtypes.HEXID), self.lookup,
                                             self.col0, self.row0, self.nrows)[0])
        if c < 0:
            raise KeyError(f"hex {format_hex_id(h)} is not on the map")
        return c

    def cells(self, hexids: Iterable[int | str]) -> np.ndarray:
        """Cell indices of many hex ids, -1 for hexes not on the map."""
        ids = np.array([parse_hex_id(h) for h in hexids], dtype=dtypes.HEXID)
        return self.k.hexgrid.ids_to_cells(ids, self.lookup, self.col0, self.row0, self.nrows)

    def id_of(self, cell: int) -> str:
        """The four-digit hex id of a cell."""
        if not 0 <= cell < self.n_cells:
            raise IndexError(f"cell {cell} is not on a map of {self.n_cells} cells")
        return format_hex_id(int(self.ids[cell]))

    def contains(self, hexid: int | str) -> bool:
        try:
            self.cell(hexid)
        except KeyError:
            return False
        return True

    # geometry -----------------------------------------------------------------------------
    def _c(self, x: int | str) -> int:
        return self.cell(x) if isinstance(x, str) else int(x)

    def distance(self, a: int | str, b: int | str) -> int:
        """Hex distance, ignoring terrain (cells or hex ids)."""
        return int(self.k.hexgrid.hex_distance(self.q, self.r, self._c(a), self._c(b)))

    def distances_from(self, a: int | str) -> np.ndarray:
        return self.k.hexgrid.distances_from(self.q, self.r, self._c(a))

    def within(self, center: int | str, radius: int) -> np.ndarray:
        """Cells within ``radius`` hexes of ``center`` (inclusive), ascending."""
        return self.k.hexgrid.hex_range(self.col, self.row, self.lookup, self.col0, self.row0,
                                        self.nrows, self._c(center), radius)

    def ring(self, center: int | str, radius: int) -> np.ndarray:
        """Cells exactly ``radius`` hexes from ``center``, ascending."""
        return self.k.hexgrid.hex_ring(self.col, self.row, self.lookup, self.col0, self.row0,
                                       self.nrows, self._c(center), radius)

    def direction(self, a: int | str, b: int | str) -> int:
        """The direction from cell ``a`` to its neighbour ``b``; ValueError if not adjacent."""
        ca, cb = self._c(a), self._c(b)
        hits = np.flatnonzero(self.neighbors[ca] == cb)
        if hits.size == 0:
            raise ValueError(f"hexes {self.id_of(ca)} and {self.id_of(cb)} are not adjacent")
        return int(hits[0])

    # hexsides -----------------------------------------------------------------------------
    def set_hexside(self, a: int | str, b: int | str, bits: Hexside | int) -> None:
        """Set feature bits on the hexside between two adjacent hexes (both faces)."""
        ca = self._c(a)
        self.k.hexgrid.set_hexside(self.hexsides, self.neighbors, ca, self.direction(ca, b),
                                   int(bits))

    def set_edge_hexside(self, a: int | str, direction: Direction | int, bits: Hexside | int):
        """Set bits on a hexside by cell and direction (also at the map edge)."""
        self.k.hexgrid.set_hexside(self.hexsides, self.neighbors, self._c(a), int(direction),
                                   int(bits))

    def hexside(self, a: int | str, b: int | str) -> Hexside:
        ca = self._c(a)
        return Hexside(int(self.hexsides[ca, self.direction(ca, b)]))

    def check_symmetric(self) -> None:
        """Raise ValueError naming the first hexside whose two faces differ."""
        cell, d = self.k.hexgrid.find_asymmetry(self.hexsides, self.neighbors)
        if cell >= 0:
            other = int(self.neighbors[cell, d])
            raise ValueError(f"hexside {self.id_of(cell)}-{self.id_of(other)} differs on its two "
                             f"faces ({self.hexsides[cell, d]} vs "
                             f"{self.hexsides[other, (d + 3) % 6]})")

    # hexes --------------------------------------------------------------------------------
    def set_terrain(self, hexes: Iterable[int | str], terrain: Terrain) -> None:
        for h in hexes:
            self.terrain[self._c(h)] = int(terrain)

    def add_feature(self, hexes: Iterable[int | str], feature: Feature) -> None:
        for h in hexes:
            self.features[self._c(h)] |= int(feature)

    def has_feature(self, hexid: int | str, feature: Feature) -> bool:
        return bool(self.features[self._c(hexid)] & int(feature))
