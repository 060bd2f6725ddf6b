"""Map geometry: which space is under a point, and where things are drawn.

:class:`MapGeometry` is built from a map SVG (see :mod:`diplomacy_desktop.mapdata.shapes` for
what the SVG must hold).  Hit-testing uses an STRtree over the space polygons.  Reading the SVG
with svgelements takes about half a second, so :meth:`MapGeometry.load` keeps the parsed
shapes in a small cache file keyed by the SVG's SHA-256; a start then reads only that.

Coordinates are SVG user units (the view box), y pointing down.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Iterable
from pathlib import Path

import shapely
import shapely.errors
from shapely.geometry.base import BaseGeometry

from ..resources import cache_dir, map_file, write_cache
from .shapes import MapFileError, MapShapes, Point2, read_svg

CACHE_FORMAT = 1
_CELL = 32.0  # px: side of a hit-test cell


class MapGeometryError(ValueError):
    """The map art does not match the board (a space has no shape, anchor, ...)."""


def default_cache_dir() -> Path:
    """Where parsed maps are cached: ``$XDG_CACHE_HOME/diplomacy-desktop/maps``."""
    return cache_dir()


def standard_map_path() -> Path:
    """The shipped SVG of the standard board."""
    return map_file("standard", "standard.svg")


class MapGeometry:
    """The shapes of one board's spaces and the points where labels, units and centres go."""

    __slots__ = ("_cells", "_coasts_of", "_geoms", "_shapes", "_tree", "_tree_ids")

    def __init__(self, shapes: MapShapes) -> None:
        self._shapes = shapes
        ids = sorted(shapes.spaces)
        self._tree_ids: tuple[str, ...] = tuple(ids)
        geoms = [shapes.spaces[s] for s in ids]
        for g in geoms:
            shapely.prepare(g)
        self._geoms: tuple[BaseGeometry, ...] = tuple(geoms)
        self._tree = shapely.STRtree(geoms)
        # Hit-test cells, filled lazily from the STRtree: cell -> ((index, covers cell), ...).
        self._cells: dict[tuple[int, int], tuple[tuple[int, bool], ...]] = {}
        coasts_of: dict[str, list[tuple[str, BaseGeometry]]] = {}
        for cid in sorted(shapes.coasts):
            coasts_of.setdefault(cid.partition("/")[0], []).append((cid, shapes.coasts[cid]))
        self._coasts_of = coasts_of

    # -- construction ------------------------------------------------------------------------
    @classmethod
    def load(
        cls,
        svg_path: str | os.PathLike[str],
        board_space_ids: Iterable[str] | None = None,
        *,
        cache: bool = True,
        cache_dir: Path | None = None,
    ) -> MapGeometry:
        """Load a map SVG, checking that every id in ``board_space_ids`` has a shape.

        ``board_space_ids`` are canonical ids: provinces (``stp``) and, if given, coasts
        (``stp/nc``).  Every one must have a shape and a unit anchor, or
        :class:`MapGeometryError` names what is missing.  With ``cache`` (the default) the
        parsed shapes are kept in ``cache_dir`` (default :func:`default_cache_dir`) under the
        SVG's hash; an unreadable or unwritable cache is simply not used.
        """
        path = Path(svg_path)
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise MapFileError(f"cannot read map SVG {path}: {exc}") from exc
        shapes: MapShapes | None = None
        cache_file: Path | None = None
        if cache:
            digest = hashlib.sha256(data).hexdigest()
            folder = cache_dir if cache_dir is not None else default_cache_dir()
            cache_file = folder / f"{path.stem}-{digest[:32]}-v{CACHE_FORMAT}.json"
            try:
                shapes = MapShapes.from_json(cache_file.read_text(encoding="utf-8"))
            except (OSError, ValueError, KeyError, TypeError, shapely.errors.GEOSException):
                shapes = None
        if shapes is None:
            shapes = read_svg(path)
            if cache_file is not None:
                write_cache(cache_file, shapes.to_json())
        geometry = cls(shapes)
        if board_space_ids is not None:
            geometry.check_covers(board_space_ids, source=path.name)
        return geometry

    @classmethod
    def standard(cls, board_space_ids: Iterable[str] | None = None) -> MapGeometry:
        """The shipped standard board."""
        return cls.load(standard_map_path(), board_space_ids)

    def check_covers(self, space_ids: Iterable[str], *, source: str = "the map") -> None:
        """Raise :class:`MapGeometryError` naming every id without a shape or an anchor."""
        no_shape: list[str] = []
        no_anchor: list[str] = []
        for sid in sorted(set(space_ids)):
            has_shape = sid in self._shapes.coasts if "/" in sid else sid in self._shapes.spaces
            if not has_shape:
                no_shape.append(sid)
            elif sid not in self._shapes.anchors:
                no_anchor.append(sid)
        problems = []
        if no_shape:
            problems.append(f"no shape for {', '.join(no_shape)}")
        if no_anchor:
            problems.append(f"no unit anchor for {', '.join(no_anchor)}")
        if problems:
            raise MapGeometryError(f"{source} does not match the board: {'; '.join(problems)}")

    # -- what is where -----------------------------------------------------------------------
    @property
    def view_box(self) -> tuple[float, float, float, float]:
        """``(x, y, width, height)`` of the SVG's view box."""
        return self._shapes.view_box

    @property
    def size(self) -> tuple[float, float]:
        """Width and height of the view box."""
        return self._shapes.view_box[2], self._shapes.view_box[3]

    @property
    def space_ids(self) -> tuple[str, ...]:
        """Every space with a shape, sorted (split coasts not included)."""
        return self._tree_ids

    @property
    def coast_ids(self) -> tuple[str, ...]:
        """Every split coast with a shape (``spa/nc``), sorted."""
        return tuple(sorted(self._shapes.coasts))

    @property
    def centre_ids(self) -> tuple[str, ...]:
        """Spaces with a supply-centre marker, sorted."""
        return tuple(sorted(self._shapes.centres))

    def kind(self, space_id: str) -> str:
        """The element's class: ``land``, ``coast``, ``sea`` or ``impassable``."""
        return self._shapes.kinds[space_id]

    def space_at(self, x: float, y: float) -> str | None:
        """The space under ``(x, y)``, or None off the board and on decorative art."""
        key = (math.floor(x / _CELL), math.floor(y / _CELL))
        candidates = self._cells.get(key)
        if candidates is None:
            candidates = self._cell_candidates(key)
        for index, covers in candidates:
            if covers or shapely.intersects_xy(self._geoms[index], x, y):
                return self._tree_ids[index]
        return None

    def _cell_candidates(self, key: tuple[int, int]) -> tuple[tuple[int, bool], ...]:
        cx, cy = key
        cell = shapely.box(cx * _CELL, cy * _CELL, (cx + 1) * _CELL, (cy + 1) * _CELL)
        found = sorted(int(i) for i in self._tree.query(cell, predicate="intersects"))
        # A space covering the whole cell answers at once; only one space can.
        entries = tuple((i, bool(self._geoms[i].contains_properly(cell))) for i in found)
        entries = tuple(sorted(entries, key=lambda e: (not e[1], e[0])))
        self._cells[key] = entries
        return entries

    def coast_at(self, x: float, y: float, province: str) -> str | None:
        """For a split-coast province, the coast (``spa/nc``) nearest ``(x, y)``; else None."""
        coasts = self._coasts_of.get(province)
        if not coasts:
            return None
        point = shapely.Point(x, y)
        return min(coasts, key=lambda c: c[1].distance(point))[0]

    def coasts_of(self, province: str) -> tuple[str, ...]:
        """The split coasts drawn for ``province`` (empty for most provinces)."""
        return tuple(c for c, _ in self._coasts_of.get(province, ()))

    def polygon(self, space_id: str) -> BaseGeometry:
        """The (multi)polygon of a space, or of a split coast (``stp/nc``)."""
        if "/" in space_id:
            return self._shapes.coasts[space_id]
        return self._shapes.spaces[space_id]

    def label_point(self, space_id: str) -> Point2:
        """The middle of the space's label."""
        return self._shapes.labels[space_id]

    def unit_anchor(self, location: str) -> Point2:
        """Where a unit in ``location`` (a space, or a split coast such as ``stp/nc``) is drawn."""
        return self._shapes.anchors[location]

    def centre_point(self, space_id: str) -> Point2:
        """Where the supply-centre marker of ``space_id`` is (KeyError if it is no centre)."""
        return self._shapes.centres[space_id]

    @property
    def shapes(self) -> MapShapes:
        """The raw shapes, as read from the SVG."""
        return self._shapes

    def __repr__(self) -> str:
        w, h = self.size
        return f"<MapGeometry {len(self._tree_ids)} spaces, {w:g}x{h:g}>"
