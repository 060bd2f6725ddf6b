"""Map data and geometry: the board's SVG as Shapely polygons, and hit-testing.  No Qt here."""

from __future__ import annotations

from .geometry import MapGeometry, MapGeometryError, default_cache_dir, standard_map_path
from .shapes import MapFileError, MapShapes, canonical_id, read_svg, svg_id

__all__ = [
    "MapFileError",
    "MapGeometry",
    "MapGeometryError",
    "MapShapes",
    "canonical_id",
    "default_cache_dir",
    "read_svg",
    "standard_map_path",
    "svg_id",
]
