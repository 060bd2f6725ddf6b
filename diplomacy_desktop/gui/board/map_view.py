"""``MapView``: zoom (wheel, pinch, keys), pan (drag), fit to window; clicks and hover as signals.

The view does not interpret clicks: it reports them in scene coordinates (the map's own
units) and the interaction decides what they mean.  A press that moves more than a few pixels
becomes a pan and is not reported as a click.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QEvent, QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (QColor, QKeyEvent, QMouseEvent, QNativeGestureEvent, QPainter, QResizeEvent,
                           QShowEvent, QTransform, QWheelEvent)
from PySide6.QtWidgets import QApplication, QFrame, QGestureEvent, QGraphicsView, QPinchGesture, QWidget

from .. import override
from .map_scene import MapScene

MIN_ZOOM = 0.25  # relative to "fit to window"
MAX_ZOOM = 12.0
DRAG_THRESHOLD = 6  # px


#: what a view shows: (fitted to the window, zoom, horizontal scroll, vertical scroll)
ViewPlace = tuple[bool, float, int, int]


def let_clicks_through_tips() -> None:
    """Every tooltip shown now lets the mouse through to what is under it (the map's tips stand
    where the next click often goes: a click on one only closed it, and no order was given).

    The flag is set on the tip's own window, in place.  ``QWidget.setWindowFlag`` hid the tip and
    made its native window anew, and Qt's xcb plugin then kept the flag without giving the new X
    window its empty input region: under X the tip still took the click (issue 34, played by
    clicks at 1366x768: after A Ber - Kie the tip of Kiel stood over the army in Munich, and the
    click on that army did nothing)."""
    through = Qt.WindowType.WindowTransparentForInput
    for tip in QApplication.topLevelWidgets():
        if tip.inherits("QTipLabel") and tip.isVisible():
            window = tip.windowHandle()
            if window is not None and not window.flags() & through:
                window.setFlag(through, True)


class MapView(QGraphicsView):
    clicked = Signal(QPointF, object)  # scene point, Qt.MouseButton
    hovered = Signal(QPointF, QPoint)  # scene point, global screen point
    left = Signal()
    zoom_changed = Signal(float)
    #: a unit was dragged (press on it, release elsewhere): scene points of the press and the release
    dropped = Signal(QPointF, QPointF)
    #: while a unit is dragged: scene points of the press and the pointer now
    dragging = Signal(QPointF, QPointF)
    #: a printable key typed on the map (no Ctrl or Alt): the start of a typed order
    typed = Signal(str)
    #: drawn once (the first paint ends the start's pause of the garbage collector, gui/startup.py)
    _drawn = False

    def __init__(self, scene: MapScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.map_scene = scene
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform
                            | QPainter.RenderHint.TextAntialiasing)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        # every item's paint sets the pen, brush, font and hints it draws with (and restores a clip
        # or a transform it sets): Qt need not save and restore the painter around each item, which
        # for a hover's or a click's repaint of a few dozen items was a tenth of its time
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setBackgroundBrush(QColor("#3C4650"))
        self.viewport().grabGesture(Qt.GestureType.PinchGesture)
        self.setAccessibleName("Map")
        self._fitted = True  # keep fitting the board to the window until the user zooms
        self._press: QPoint | None = None
        self._press_button: Qt.MouseButton | None = None
        self._panning = False
        self._last_pan: QPoint | None = None
        #: asked at a left press (scene point): may a unit be dragged from there?  (drag and drop)
        self.drag_test: Callable[[QPointF], bool] | None = None
        self._unit_press = False  # the press was on a unit that may be dragged
        self._unit_drag = False  # ... and it is being dragged
        # when zooming or scrolling settles, ask for a sharp rendering of what is on screen
        self._settle = QTimer(self)
        self._settle.setSingleShot(True)
        self._settle.setInterval(120)
        self._settle.timeout.connect(self.sharpen)
        self.horizontalScrollBar().valueChanged.connect(self._schedule_sharpen)
        self.verticalScrollBar().valueChanged.connect(self._schedule_sharpen)
        self.zoom_changed.connect(self._schedule_sharpen)
        self.zoom_changed.connect(self._size_items)

    def _size_items(self, *_: object) -> None:
        """Units and labels keep a readable size on screen as the view grows, shrinks and zooms."""
        self.map_scene.set_view_scale(self.transform().m11())

    def _schedule_sharpen(self, *_: object) -> None:
        self._settle.start()

    def sharpen_now(self) -> None:
        """:meth:`sharpen` at once, not when the view has settled (a jump to a view the board has
        a picture for, such as the magnifier's way back, is drawn sharp in its first frame)."""
        self._settle.stop()
        self.sharpen()

    def sharpen(self) -> None:
        """Request the board art for the visible part at the screen's exact resolution."""
        scale = self.transform().m11() * self.devicePixelRatioF()
        self.map_scene.board_item.request_sharp(self.visible_scene_rect(), scale)

    # -- zoom --------------------------------------------------------------------------------

    def fit_scale(self) -> float:
        """The scale that shows the whole board.  Measured on the viewport without scroll bars:
        a fitted board needs none, so a zoomed view's scroll bars (gone as soon as it is fitted)
        do not make the fit smaller, and the view one resize (and one redraw) later."""
        rect = self.sceneRect()
        vp = self.maximumViewportSize()
        if rect.isEmpty() or vp.isEmpty():
            return 1.0
        return min(vp.width() / rect.width(), vp.height() / rect.height())

    @property
    def zoom(self) -> float:
        """The current scale relative to "fit to window"."""
        return self.transform().m11() / self.fit_scale()

    @property
    def fitted(self) -> bool:
        """Whether the whole board is shown, fitted to the window (nobody zoomed since)."""
        return self._fitted

    def fit_to_window(self) -> None:
        self._fitted = True
        self._fit()
        self.zoom_changed.emit(self.zoom)

    def _scroll_bars(self, wanted: bool) -> None:
        """Scroll bars as needed (a zoomed board), or none (a fitted board needs none): set before
        the scale changes, so the viewport has its size at once, not one redraw later."""
        policy = Qt.ScrollBarPolicy.ScrollBarAsNeeded if wanted else Qt.ScrollBarPolicy.ScrollBarAlwaysOff
        if self.horizontalScrollBarPolicy() != policy:
            self.setHorizontalScrollBarPolicy(policy)
            self.setVerticalScrollBarPolicy(policy)

    def _fit(self) -> None:
        """The whole board, as large as the window allows, centred."""
        self._scroll_bars(False)
        s = self.fit_scale()
        self.setTransform(QTransform.fromScale(s, s))
        self.centerOn(self.sceneRect().center())

    def place(self) -> ViewPlace:
        """What the view shows now, to come back to (:meth:`go_back_to`)."""
        return (self._fitted, self.zoom, self.horizontalScrollBar().value(), self.verticalScrollBar().value())

    def go_back_to(self, place: ViewPlace) -> None:
        """Show again what :meth:`place` said: the fitted board, or the same zoom and scroll."""
        fitted, zoom, sx, sy = place
        if fitted:
            self.fit_to_window()
            return
        self.zoom_by(zoom / self.zoom)
        self.horizontalScrollBar().setValue(sx)
        self.verticalScrollBar().setValue(sy)

    def zoom_by(self, factor: float, anchor: QPointF | None = None) -> None:
        current = self.zoom
        target = max(MIN_ZOOM, min(MAX_ZOOM, current * factor))
        if abs(target - current) < 1e-9:
            return
        self._fitted = False
        self._scroll_bars(True)
        f = target / current
        if anchor is not None:
            old = self.transformationAnchor()
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.NoAnchor)
            scene_before = self.mapToScene(anchor.toPoint())
            self.scale(f, f)
            scene_after = self.mapToScene(anchor.toPoint())
            delta = scene_after - scene_before
            self.translate(delta.x(), delta.y())
            self.setTransformationAnchor(old)
        else:
            old = self.transformationAnchor()
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
            self.scale(f, f)
            self.setTransformationAnchor(old)
        # the scroll bars a zoom calls for are laid out now, not after the next redraw (which
        # would then be one more redraw of the whole view, at its new size)
        QCoreApplication.sendPostedEvents(self, QEvent.Type.MetaCall)  # (a queued call in QAbstractScrollArea)
        self.zoom_changed.emit(self.zoom)

    def zoom_in(self) -> None:
        self.zoom_by(1.25)

    def zoom_out(self) -> None:
        self.zoom_by(0.8)

    def centre_on_space(self, space: str) -> None:
        x, y = self.map_scene.geometry.label_point(space)
        self.centerOn(QPointF(x, y))

    @override
    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta().y()
        if delta == 0:
            super().wheelEvent(event)
            return
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            super().wheelEvent(event)  # shift + wheel scrolls
            return
        self.zoom_by(1.0015 ** delta, event.position())
        event.accept()

    @override
    def viewportEvent(self, event: QEvent) -> bool:
        if not self._drawn and event.type() == QEvent.Type.Paint:
            self._drawn = True
            from .. import startup

            startup.resume_after_frame()  # the start's pause of the garbage collector ends
        if event.type() == QEvent.Type.Gesture:
            assert isinstance(event, QGestureEvent)
            pinch = event.gesture(Qt.GestureType.PinchGesture)
            if isinstance(pinch, QPinchGesture):
                centre = self.viewport().mapFromGlobal(pinch.centerPoint().toPoint())
                self.zoom_by(pinch.scaleFactor(), QPointF(centre))
                return True
        if event.type() == QEvent.Type.NativeGesture:
            assert isinstance(event, QNativeGestureEvent)
            if event.gestureType() == Qt.NativeGestureType.ZoomNativeGesture:
                self.zoom_by(1.0 + event.value(), event.position())
                return True
        if event.type() == QEvent.Type.ToolTip:  # a unit's or an arrow's own tip (the scene shows it)
            handled = super().viewportEvent(event)
            let_clicks_through_tips()
            return handled
        return super().viewportEvent(event)

    @override
    def keyPressEvent(self, event: QKeyEvent) -> None:
        # zoom is Ctrl+plus, Ctrl+minus, Ctrl+0 (and the wheel): plain keys are typing, and "-"
        # is half of every move ("A Par - Bur")
        key = event.key()
        mods = event.modifiers() & ~(Qt.KeyboardModifier.KeypadModifier | Qt.KeyboardModifier.ShiftModifier)
        ctrl = mods == Qt.KeyboardModifier.ControlModifier
        text = event.text()
        if ctrl and key in (Qt.Key.Key_Plus, Qt.Key.Key_Equal):
            self.zoom_in()
        elif ctrl and key in (Qt.Key.Key_Minus, Qt.Key.Key_Underscore):
            self.zoom_out()
        elif ctrl and key == Qt.Key.Key_0:
            self.fit_to_window()
        elif not mods and len(text) == 1 and text.isprintable() and not text.isspace():
            self.typed.emit(text)
            event.accept()
        else:
            super().keyPressEvent(event)

    @override
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._refit()

    @override
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._refit()

    def _refit(self) -> None:
        """The view's size changed (or it was shown): a fitted board is fitted again, and the
        items take their size for the new scale."""
        if self._fitted:
            self._fit()
        self._size_items()
        self._schedule_sharpen()

    # -- clicks, drags, hover ----------------------------------------------------------------

    @override
    def mousePressEvent(self, event: QMouseEvent) -> None:
        self._press = event.position().toPoint()
        self._press_button = event.button()
        self._panning = False
        self._last_pan = self._press
        self._unit_drag = False
        self._unit_press = bool(event.button() == Qt.MouseButton.LeftButton and self.drag_test is not None
                                and self.drag_test(self.mapToScene(self._press)))
        event.accept()

    @override
    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        pos = event.position().toPoint()
        if self._press is not None and self._unit_press and event.buttons() & Qt.MouseButton.LeftButton:
            if not self._unit_drag and (pos - self._press).manhattanLength() > DRAG_THRESHOLD:
                self._unit_drag = True
                self.viewport().setCursor(Qt.CursorShape.DragMoveCursor)
            if self._unit_drag:
                self.dragging.emit(self.mapToScene(self._press), self.mapToScene(pos))
                event.accept()
                return
        if self._press is not None and event.buttons() & (Qt.MouseButton.LeftButton | Qt.MouseButton.MiddleButton):
            if not self._panning and (pos - self._press).manhattanLength() > DRAG_THRESHOLD:
                self._panning = True
                self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            if self._panning and self._last_pan is not None:
                d = pos - self._last_pan
                self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - d.x())
                self.verticalScrollBar().setValue(self.verticalScrollBar().value() - d.y())
                self._last_pan = pos
                event.accept()
                return
        self.hovered.emit(self.mapToScene(pos), event.globalPosition().toPoint())
        event.accept()

    @override
    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        was_panning = self._panning
        press = self._press
        self._press = None
        self._panning = False
        self.viewport().unsetCursor()
        if self._unit_drag and press is not None:
            self._unit_drag = self._unit_press = False
            self.dropped.emit(self.mapToScene(press), self.mapToScene(event.position().toPoint()))
            event.accept()
            return
        self._unit_press = False
        if not was_panning and press is not None and event.button() == self._press_button:
            self.clicked.emit(self.mapToScene(event.position().toPoint()), event.button())
        event.accept()

    @override
    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        # a double click is two clicks for ordering purposes
        self.mousePressEvent(event)

    @override
    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        self.left.emit()

    def visible_scene_rect(self) -> QRectF:
        return self.mapToScene(self.viewport().rect()).boundingRect()
