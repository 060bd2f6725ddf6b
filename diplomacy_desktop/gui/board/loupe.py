"""``Loupe``: a magnifying glass that follows the pointer over the map (issue 17, crowded areas).

Switched on (View ▸ Loupe, Ctrl+G), a round glass centred on the pointer shows the board under
it :data:`MAGNIFICATION` times larger: the scene itself drawn again at that scale (names, units
and arrows sharp, not an enlarged picture of the screen).  The glass lets every mouse event
through to the map, and its centre, marked by a small cross, is the pointer's own point: a click
lands on what the cross is on, exactly as without the glass.  It hides when the pointer leaves the
map and while the board is panned.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPainterPath, QPaintEvent, QPen, QRegion
from PySide6.QtWidgets import QGraphicsView, QWidget

from .. import override
from ..keys import LOUPE_KEY  # the key that switches the glass on and off (View ▸ Loupe)

#: how much larger the glass shows the board than the view around it
MAGNIFICATION = 2.5
#: the glass's diameter (screen pixels)
DIAMETER = 230


class Loupe(QWidget):
    """A round magnifier over ``view``'s viewport, centred on the pointer (see the module's text)."""

    def __init__(self, view: QGraphicsView, *, diameter: int = DIAMETER, magnification: float = MAGNIFICATION) -> None:
        super().__init__(view.viewport())
        self.view = view
        self.diameter = diameter
        self.magnification = magnification
        self.active = False
        #: the scene point at the glass's centre (the pointer's), None while it is hidden
        self.centre: QPointF | None = None
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # clicks go to the map
        self.setAttribute(Qt.WidgetAttribute.WA_NoSystemBackground)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.resize(diameter, diameter)
        self.setMask(QRegion(QRect(0, 0, diameter, diameter), QRegion.RegionType.Ellipse))
        self.setAccessibleName("Loupe")
        self.hide()

    def set_active(self, on: bool) -> None:
        """Switch the glass on (it appears at the pointer, if the pointer is over the map) or off."""
        if on == self.active:
            return
        self.active = on
        viewport = self.view.viewport()
        if on:
            viewport.installEventFilter(self)
            pos = viewport.mapFromGlobal(self.cursor().pos())
            if viewport.rect().contains(pos):
                self.follow(pos)
        else:
            viewport.removeEventFilter(self)
            self.centre = None
            self.hide()

    def follow(self, pos: QPoint) -> None:
        """Centre the glass on the viewport point ``pos`` and show the board under it."""
        self.centre = self.view.mapToScene(pos)
        r = self.diameter // 2
        self.move(pos.x() - r, pos.y() - r)
        if not self.isVisible():
            self.show()
            self.raise_()
        self.update()

    def source_rect(self) -> QRectF:
        """The part of the scene the glass shows (scene units)."""
        assert self.centre is not None
        scale = self.view.transform().m11() * self.magnification
        side = self.diameter / scale
        return QRectF(self.centre.x() - side / 2, self.centre.y() - side / 2, side, side)

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.MouseMove and isinstance(event, QMouseEvent):
            if event.buttons() & (Qt.MouseButton.LeftButton | Qt.MouseButton.MiddleButton) and self.isVisible() \
                    and getattr(self.view, "_panning", False):
                self.hide()  # the board is being dragged: the glass would only smear
            else:
                self.follow(event.position().toPoint())
        elif kind == QEvent.Type.Leave:
            self.centre = None
            self.hide()
        elif kind in (QEvent.Type.Wheel, QEvent.Type.MouseButtonRelease) and self.isVisible():
            self.update()  # the board under it was zoomed or changed by the click
        return False

    @override
    def paintEvent(self, event: QPaintEvent) -> None:
        if self.centre is None:
            return
        scene = self.view.scene()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        d = float(self.diameter)
        circle = QPainterPath()
        circle.addEllipse(QRectF(1, 1, d - 2, d - 2))
        painter.fillPath(circle, self.view.backgroundBrush())
        painter.setClipPath(circle)
        if scene is not None:
            scene.render(painter, QRectF(0, 0, d, d), self.source_rect(), Qt.AspectRatioMode.IgnoreAspectRatio)
        painter.setClipping(False)
        # the cross at the centre: where a click lands
        c = d / 2
        for colour, width in ((QColor(255, 255, 255, 230), 4.0), (QColor(20, 20, 20, 230), 1.6)):
            painter.setPen(QPen(colour, width))
            painter.drawLine(QPointF(c - 9, c), QPointF(c - 3, c))
            painter.drawLine(QPointF(c + 3, c), QPointF(c + 9, c))
            painter.drawLine(QPointF(c, c - 9), QPointF(c, c - 3))
            painter.drawLine(QPointF(c, c + 3), QPointF(c, c + 9))
        # the rim: dark outside, light inside, so it shows on sea and land alike
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(20, 20, 20, 220), 3.0))
        painter.drawEllipse(QRectF(1.5, 1.5, d - 3, d - 3))
        painter.setPen(QPen(QColor(255, 255, 255, 230), 1.5))
        painter.drawEllipse(QRectF(4, 4, d - 8, d - 8))
        painter.end()


__all__ = ["DIAMETER", "LOUPE_KEY", "MAGNIFICATION", "Loupe"]
