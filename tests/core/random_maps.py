"""Random maps for the kernels' property tests: a grid of hexes with about one in ten left out
(never all of them)."""

from hypothesis import strategies as st

from gwe_fast import HexMap


def hex_map(draw, max_cols: int, max_rows: int) -> HexMap:
    """A map of 1..max_cols columns and 1..max_rows rows, some hexes absent (a hypothesis
    ``draw`` inside a ``st.composite``)."""
    ncols = draw(st.integers(1, max_cols))
    nrows = draw(st.integers(1, max_rows))
    absent = [f"{c:02d}{r:02d}" for c in range(1, ncols + 1) for r in range(1, nrows + 1)
              if draw(st.integers(0, 9)) == 0]
    if len(absent) == ncols * nrows:
        absent = absent[1:]
    return HexMap((1, ncols), (1, nrows), absent)
