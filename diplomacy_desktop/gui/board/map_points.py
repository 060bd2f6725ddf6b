"""``DeferredGeometry``: draw the board at once, load the hit-testing shapes just after.

Loading :class:`~diplomacy_desktop.mapdata.MapGeometry` means importing Shapely and NumPy,
a fifth of a second at start-up.  The first picture needs none of it: only the view box, the
unit anchors and the centre markers, which Qt's own SVG renderer reads from the same SVG
elements (``anchor_<id>``, ``sc_<id>``).  ``DeferredGeometry`` answers those from the SVG and
everything else (hit-testing, shapes, labels) from the full geometry, loaded when first needed
or when the window calls :meth:`DeferredGeometry.load` right after its first paint.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRectF
from PySide6.QtSvg import QSvgRenderer

if TYPE_CHECKING:
    from ...mapdata import MapGeometry

Point2 = tuple[float, float]


def _svg_id(canonical: str) -> str:
    return canonical.replace("/", "_")


class DeferredGeometry:
    """The part of the map geometry a first picture needs, then the rest on demand."""

    def __init__(self, svg_path: Path | str, locations: Iterable[str], centres: Iterable[str],
                 check_ids: Iterable[str] | None = None) -> None:
        self.svg_path = Path(svg_path)
        self._check_ids = list(check_ids) if check_ids is not None else None
        self._full: MapGeometry | None = None
        renderer = QSvgRenderer(str(self.svg_path))
        if not renderer.isValid():
            raise ValueError(f"cannot read the map {self.svg_path}")
        box = renderer.viewBoxF()
        self._view_box = (box.x(), box.y(), box.width(), box.height())
        self._anchors = {loc: p for loc in locations if (p := self._centre_of(renderer, f"anchor_{_svg_id(loc)}"))}
        self._centres = {c: p for c in sorted(centres) if (p := self._centre_of(renderer, f"sc_{c}"))}

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
