"""``DeferredGeometry``: draw the board at once, load the hit-testing shapes just after.

Loading :class:`~diplomacy_desktop.mapdata.MapGeometry` means importing Shapely and NumPy,
a fifth of a second at start-up.  The first picture needs none of it: only the view box, the
unit anchors and the centre markers (the SVG's circles ``anchor_<id>`` and ``sc_<id>``).
``DeferredGeometry`` reads those from the SVG's text, or, for art with transforms or other
shapes there, asks Qt's SVG renderer (which parses the whole file and measured each element:
a tenth of the window's start); it answers everything else (hit-testing, shapes, labels) from the full geometry, loaded when first needed
or when the window calls :meth:`DeferredGeometry.load` right after its first paint.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .map_art import circles_of, view_box_of

if TYPE_CHECKING:
    from PySide6.QtCore import QRectF
    from PySide6.QtSvg import QSvgRenderer

    from ...mapdata import MapGeometry

Point2 = tuple[float, float]

#: a transform (an attribute or a style) anywhere in the art: its circles may not be where they say
_TRANSFORM = re.compile(r"transform\s*[=:]")


def _svg_id(canonical: str) -> str:
    return canonical.replace("/", "_")


class DeferredGeometry:
    """The part of the map geometry a first picture needs, then the rest on demand."""

    def __init__(self, svg_path: Path | str, locations: Iterable[str], centres: Iterable[str],
                 check_ids: Iterable[str] | None = None) -> None:
        self.svg_path = Path(svg_path)
        self._check_ids = list(check_ids) if check_ids is not None else None
        self._full: MapGeometry | None = None
        try:
            text = self.svg_path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ValueError(f"cannot read the map {self.svg_path}: {exc}") from exc
        box = view_box_of(text)
        circles = {}
        if box is not None and _TRANSFORM.search(text) is None:
            # (a circle written another way than the art's is read by Qt's renderer, below)
            circles = {e: (round(x, 3), round(y, 3)) for e, (x, y) in circles_of(text).items()}
        wanted_anchors = {loc: f"anchor_{_svg_id(loc)}" for loc in locations}
        wanted_centres = {c: f"sc_{c}" for c in sorted(centres)}
        renderer: QSvgRenderer | None = None
        if box is None or not all(e in circles for e in (*wanted_anchors.values(), *wanted_centres.values())):
            # art the plain reading does not cover (moved groups, other shapes): Qt's renderer
            # reads it, as the board is drawn
            from PySide6.QtSvg import QSvgRenderer

            renderer = QSvgRenderer(str(self.svg_path))
            if not renderer.isValid():
                raise ValueError(f"cannot read the map {self.svg_path}")
            view = renderer.viewBoxF()
            self._view_box = (view.x(), view.y(), view.width(), view.height())
            circles = {e: p for e in (*wanted_anchors.values(), *wanted_centres.values())
                       if (p := self._centre_of(renderer, e)) is not None}
        else:
            self._view_box = box
        self._anchors = {loc: circles[e] for loc, e in wanted_anchors.items() if e in circles}
        self._centres = {c: circles[e] for c, e in wanted_centres.items() if e in circles}

    @staticmethod
    def _centre_of(renderer: QSvgRenderer, element: str) -> Point2 | None:
        if not renderer.elementExists(element):
            return None
        rect: QRectF = renderer.transformForElement(element).mapRect(renderer.boundsOnElement(element))
        centre = rect.center()
        return (round(centre.x(), 3), round(centre.y(), 3))

    # -- what the first picture needs ----------------------------------------------------------

    @property
    def view_box(self) -> tuple[float, float, float, float]:
        return self._full.view_box if self._full is not None else self._view_box

    @property
    def centre_ids(self) -> tuple[str, ...]:
        return self._full.centre_ids if self._full is not None else tuple(self._centres)

    def centre_point(self, space_id: str) -> Point2:
        if self._full is not None:
            return self._full.centre_point(space_id)
        return self._centres[space_id]

    def unit_anchor(self, location: str) -> Point2:
        if self._full is not None:
            return self._full.unit_anchor(location)
        if location in self._anchors:
            return self._anchors[location]
        return self.full.unit_anchor(location)

    def has_anchor(self, location: str) -> bool:
        """Whether ``location`` has a unit anchor (answered without loading the full geometry)."""
        if self._full is not None:
            try:
                self._full.unit_anchor(location)
            except KeyError:
                return False
            return True
        return location in self._anchors

    # -- everything else -----------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._full is not None

    def load(self) -> MapGeometry:
        """Load the full geometry now (Shapely, hit-testing index); raises MapGeometryError."""
        if self._full is None:
            from ...mapdata import MapGeometry

            self._full = MapGeometry.load(self.svg_path, self._check_ids)
        return self._full

    @property
    def full(self) -> MapGeometry:
        return self.load()

    def __getattr__(self, name: str) -> Any:
        # space_at, coast_at, coasts_of, polygon, label_point, space_ids, kind, ...
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.full, name)
