"""``TargetZoom``: the magnifier for crowded areas.

When a unit is selected (by a click) and the spaces it may go to are small on screen (the Low
Countries, the Balkans, Wales on a laptop), the view zooms to the unit and its targets; when the
order is given (or the selection dropped) it goes back to the view the player had.  A drag does
not zoom: the board must not move under a unit being dragged; nor does a build or a coast question
(the place is already chosen, and the menu opens where the click was).

The zoom follows the click's own frame: the unit and its lit targets are drawn at once, where the
player clicked (as quick as any click), and the view zooms once that frame is on screen (a zoom
draws every unit, name and province anew at the new scale: two or three frames).  A second click,
a drop or Escape before then cancels it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, QTimer
from PySide6.QtGui import QCursor

from ...engine.board import province_of
from .. import override
from ..board.map_view import MapView, ViewPlace
from .interaction import IDLE, BuildMode, CoastMode, Mode, OrderInteraction

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

#: a target whose widest inner circle is narrower than this on screen (pixels) calls for the
#: magnifier (at 1366x768 Liverpool is 13 px, Holland 22, Belgium 21, Albania 20, Wales 22) ...
SMALL_PX = 24.0
#: ... and it zooms so that the smallest is about this wide, within MAX_FACTOR of the view
WANT_PX = 44.0
MAX_FACTOR = 3.0
#: room around the unit and its targets (map units)
MARGIN = 30.0


def inner_width(shape: BaseGeometry) -> float:
    """The diameter of the widest circle inside ``shape`` (its largest part, for several)."""
    import shapely

    if hasattr(shapely, "maximum_inscribed_circle"):  # Shapely 2.1
        return 2.0 * float(shapely.maximum_inscribed_circle(shape, 1.0).length)
    from shapely.ops import polylabel  # Shapely 2.0

    parts = list(getattr(shape, "geoms", [shape]))
    largest = max(parts, key=lambda g: g.area)
    centre = polylabel(largest, 1.0)
    return 2.0 * float(largest.exterior.distance(centre))


class TargetZoom(QObject):
    """Zooms ``view`` to a selected unit's targets when they are small, and back."""

    def __init__(self, interaction: OrderInteraction, view: MapView) -> None:
        super().__init__(view)
        self.interaction = interaction
        self.view = view
        self.enabled = True
        #: the view before the magnifier zoomed; None when not zoomed
        self.saved: ViewPlace | None = None
        self._widths: dict[str, float] = {}
        #: target_rect by (unit, lit spaces): the map's shapes never move
        self._rects: dict[tuple[str | None, frozenset[str]], tuple[QRectF, float]] = {}
        #: the mode waiting for its frame to be drawn before the view zooms to it
        self.pending: Mode | None = None
        #: in case no frame is drawn (a window not shown): zoom anyway after this long
        self._fallback = QTimer(self)
        self._fallback.setSingleShot(True)
        self._fallback.setInterval(100)
        self._fallback.timeout.connect(self.settle)
        interaction.mode_changed.connect(self._mode_changed)

    @property
    def zoomed(self) -> bool:
        return self.saved is not None

    def _mode_changed(self, mode: Mode) -> None:
        if mode is IDLE or mode.unit is None or not mode.lit:
            self.restore()
            return
        if not self.enabled or self.interaction.dragging or self.saved is not None:
            self._wait_for(None)
        elif isinstance(mode, (BuildMode, CoastMode)):
            self._wait_for(None)  # the place is chosen: only army or fleet (or the coast) is asked, in a menu at the click
        elif self.plan(mode) is None:
            self._wait_for(None)  # large enough on screen as they are
        else:
            self._wait_for(mode)

    def _wait_for(self, mode: Mode | None) -> None:
        """Zoom to ``mode`` once its frame is drawn (None: zoom to nothing).  The viewport's events
        are watched only meanwhile (not every hover's)."""
        viewport = self.view.viewport()
        if mode is not None and self.pending is None:
            viewport.installEventFilter(self)
        elif mode is None and self.pending is not None:
            viewport.removeEventFilter(self)
        self.pending = mode
        if mode is None:
            self._fallback.stop()
        else:
            self._fallback.start()

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if self.pending is not None:
            kind = event.type()
            if kind == QEvent.Type.Paint:  # the frame with the lit targets is being drawn: zoom right after it
                QTimer.singleShot(0, self.settle)
            elif kind in (QEvent.Type.MouseButtonPress, QEvent.Type.Wheel):
                self._wait_for(None)  # the player is already on to the next thing: the board stays still
        return False

    def settle(self) -> None:
        """Zoom now for the selection waiting for it, if it is still the selection."""
        mode = self.pending
        self._wait_for(None)
        if mode is None or mode is not self.interaction.mode or self.saved is not None:
            return
        if not self.enabled or self.interaction.dragging:
            return
        self.magnify(mode)

    def target_rect(self, mode: Mode) -> tuple[QRectF, float]:
        """The scene rectangle of the unit and its lit targets, and the narrowest target's width."""
        key = (mode.unit, mode.lit)
        known = self._rects.get(key)
        if known is None:
            known = self._rects[key] = self._target_rect(mode)
        return QRectF(known[0]), known[1]

    def _target_rect(self, mode: Mode) -> tuple[QRectF, float]:
        geometry = self.interaction.geometry
        rect = QRectF()
        smallest = float("inf")
        for space in mode.lit:
            try:
                x0, y0, x1, y1 = geometry.polygon(space).bounds
            except KeyError:
                continue
            r = QRectF(x0, y0, x1 - x0, y1 - y0)
            rect = rect.united(r) if not rect.isNull() else r
            smallest = min(smallest, self.inner_width(space))
        if mode.unit is not None:
            x, y = self.interaction.scene.anchor(province_of(mode.unit)).toTuple()
            rect = rect.united(QRectF(x - 1, y - 1, 2, 2))
        return rect.adjusted(-MARGIN, -MARGIN, MARGIN, MARGIN), smallest

    def inner_width(self, space: str) -> float:
        """The diameter of the widest circle inside ``space`` (map units): how big a target it is."""
        width = self._widths.get(space)
        if width is None:
            width = self._widths[space] = inner_width(self.interaction.geometry.polygon(space))
        return width

    def plan(self, mode: Mode) -> tuple[float, QPointF] | None:
        """The zoom the mode's unit and targets call for (factor, scene point to centre on); None
        when they are large enough on screen as they are."""
        view = self.view
        rect, smallest = self.target_rect(mode)
        scale = view.transform().m11()
        if rect.isEmpty() or smallest == float("inf") or smallest * scale >= SMALL_PX:
            return None
        vp = view.viewport().rect()
        fit = min(vp.width() / rect.width(), vp.height() / rect.height())
        factor = min(fit / scale, WANT_PX / (smallest * scale), MAX_FACTOR)
        if factor < 1.25:
            return None
        return factor, rect.center()

    def magnify(self, mode: Mode) -> bool:
        """Zoom to the mode's unit and targets if they are small on screen; True if it zoomed."""
        planned = self.plan(mode)
        if planned is None:
            return False
        factor, centre = planned
        view = self.view
        self.saved = view.place()
        under = self._under_pointer()
        view.zoom_by(factor)
        view.centerOn(centre)
        self._follow(under)
        return True

    def _under_pointer(self) -> QPointF | None:
        """The scene point under the mouse pointer, when the pointer is over the map."""
        viewport = self.view.viewport()
        pos = viewport.mapFromGlobal(QCursor.pos())
        return self.view.mapToScene(pos) if viewport.rect().contains(pos) else None

    def _follow(self, under: QPointF | None) -> None:
        """The view moved (a key, a click): the pointer moves with what was under it, so the next
        click lands on the same unit or space (issue 34: S pressed, then a click on another
        power's fleet).  A point now off the map leaves the pointer where it is."""
        if under is None:
            return
        viewport = self.view.viewport()
        pos = self.view.mapFromScene(under)
        if viewport.rect().contains(pos):
            QCursor.setPos(viewport.mapToGlobal(pos))

    def restore(self) -> None:
        """Back to the view the player had before the magnifier zoomed (and no zoom waiting)."""
        self._wait_for(None)
        saved, self.saved = self.saved, None
        if saved is None:
            return
        under = self._under_pointer()
        self.view.go_back_to(saved)
        self._follow(under)
        self.view.sharpen_now()  # the board's picture of the view the player had is kept: drawn at once

    def centre(self) -> QPointF:
        return self.view.mapToScene(self.view.viewport().rect().center())


__all__ = ["TargetZoom"]
