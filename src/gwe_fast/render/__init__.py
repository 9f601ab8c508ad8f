"""Pictures of a scenario's map and of any position on it (PNG or SVG).

Uses matplotlib, a dependency of gwe_fast. Importing this package does not import
matplotlib; ``render_map`` does, when it is called.
"""

from gwe_fast.render.mapplot import (
    DEFAULT_DPI,
    FORMATS,
    hex_centres,
    output_format,
    render_map,
    stacks,
)

__all__ = ["DEFAULT_DPI", "FORMATS", "hex_centres", "output_format", "render_map", "stacks"]
