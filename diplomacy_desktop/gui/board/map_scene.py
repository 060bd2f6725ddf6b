"""``MapScene``: the board, its units, centre ownership, order arrows and results.

Scene coordinates are the map SVG's user units, the same as :class:`MapGeometry`'s, so a
point from the map data is a point on the scene.  What the scene shows is a
:class:`BoardPicture`: a position, the orders to draw and (for an adjudicated phase) their
results.  The scene knows nothing about the controller; the window and the render command
build pictures and hand them over.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPainterPathStroker,
                           QPen, QPolygonF)
from PySide6.QtWidgets import (QGraphicsItem, QGraphicsPathItem, QGraphicsRectItem, QGraphicsScene,
                               QStyleOptionGraphicsItem, QWidget)

from ...engine.board import province_of
from ...engine.game import HistoryEntry
from ...engine.orders import (Build, Convoy, Disband, Hold, Move, Order, Remove, Retreat, SupportHold,
                              SupportMove, UnitOrder)
from ...engine.results import OrderResult, Outcome
from ...engine.state import MOVEMENT, RETREAT, DislodgedUnit, GameState, Unit
from ...io.notation import format_order
from .. import override
from . import palette
from .label_images import IMAGES
from .label_layout import MIN_PX, Placement
from .map_art import LabelSpec, MapArt

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

    from ...mapdata import MapGeometry
from .board_image import BoardItem

#: the size (map units) units were designed at; strokes and marks scale with the unit size
UNIT_SIZE = 25.0
#: units are drawn about this many screen pixels across ...
UNIT_SCREEN_PX = 30.0
#: ... within these sizes in map units (larger ones would hide small provinces and their neighbours)
UNIT_MIN = 26.0
UNIT_MAX = 32.0
#: labels are drawn about this many screen pixels high, never smaller than the art's own size
LABEL_SCREEN_PX = 14.0
LABEL_MAX_FACTOR = 1.55  # names of 12 px at least on a 1366x768 screen
#: a unit's letter, as a share of the unit's size ...
LETTER_RATIO = 0.7
#: ... grown up to this share where that is needed for MIN_PX on screen (12 px at 1366x768)
LETTER_MAX_RATIO = 0.82
#: below this scale (pixels per map unit; a 1366x768 laptop shows the whole board at about 0.5)
#: names and letters are not held to their least size on screen
MIN_LAYOUT_SCALE = 0.4
#: a dislodged unit's size, as a share of the units standing
DISPLACED_RATIO = 0.8
#: a move arrow's shaft (without its head) is never shorter than this (times the unit scale)
MIN_SHAFT = 12.0

Z_BOARD = 0
Z_OWNERSHIP = 2
Z_LIT = 5
Z_HOVER = 6
Z_CENTRES = 8
#: a name's leader line to its province: under the orders' arrows and the units (a line over a
#: unit crossed its letter: France's "F" read "E", issue 32)
Z_LEADERS = 18
Z_ARROWS = 20
Z_UNITS = 30
Z_DISPLACED = 32
#: names above units (a unit never hides a name; the halo keeps both readable), under marks
Z_LABELS = 34
Z_MARKS = 40


def sizes_for_scale(scale: float, factor: float = 1.0) -> tuple[float, float]:
    """The unit size (map units) and label factor for a view drawing ``scale`` pixels per map unit.

    Units and labels keep a readable size on screen: at a small scale (a whole board in a window)
    they are drawn larger on the board, up to a limit; zoomed in they grow with the board.
    ``factor`` enlarges them all (the projector view, read from the back of a room).
    """
    if scale <= 0:
        return float(round(UNIT_MAX * factor)), round(factor * 20) / 20
    unit = round(min(UNIT_MAX * factor, max(UNIT_MIN * factor, UNIT_SCREEN_PX * factor / scale)))
    label = round(min(LABEL_MAX_FACTOR * factor, max(factor, LABEL_SCREEN_PX * factor / (14.5 * scale))) * 20) / 20
    return float(unit), label


# -- what to draw ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """One drawing of the board: a position, orders and, after adjudication, their results."""

    state: GameState
    orders: tuple[Order, ...] = ()
    #: results by (power, province of the ordered unit or build site)
    results: Mapping[tuple[str, str], OrderResult] = field(default_factory=dict)
    #: units drawn beside their space: dislodged, waiting to retreat (or, in results, just dislodged)
    displaced: tuple[DislodgedUnit, ...] = ()
    #: provinces left empty by a standoff (bounce marks)
    standoffs: frozenset[str] = frozenset()
    #: orders currently illegal (kept as written): keys (power, province)
    illegal: frozenset[tuple[str, str]] = frozenset()

    @property
    def has_results(self) -> bool:
        return bool(self.results)


def _order_key(order: Order) -> tuple[str, str]:
    return (order.power, order.province if isinstance(order, UnitOrder) else "")


def current_picture(state: GameState, orders: Iterable[Order], illegal: Iterable[Order] = ()) -> BoardPicture:
    """The phase being played, with the orders given so far (those that may be shown)."""
    # in a retreat phase, the spaces a standoff left empty (no retreat there, rules XI) are marked
    standoffs = frozenset(state.contested) if state.phase.kind == RETREAT else frozenset()
    return BoardPicture(state, tuple(orders), {}, tuple(state.dislodged), standoffs,
                        frozenset(_order_key(o) for o in illegal))


def results_picture(entry: HistoryEntry) -> BoardPicture:
    """An adjudicated phase: the position before it, every order and what became of it."""
    state = entry.state
    filed = {_order_key(o) for o in entry.orders}
    # units nobody ordered hold by default: no rings for those; removals and disbands the
    # rules imposed are still marked
    shown = [r for r in entry.results if isinstance(r.order, UnitOrder)
             and (_order_key(r.order) in filed or isinstance(r.order, (Disband, Remove)))]
    results = {_order_key(r.order): r for r in shown}
    orders = tuple(r.order for r in shown)
    if state.phase.kind == MOVEMENT:
        displaced = tuple(entry.after.dislodged)
        standoffs = frozenset(entry.after.contested)
    elif state.phase.kind == RETREAT:
        displaced = tuple(state.dislodged)
        standoffs = frozenset()
    else:
        displaced = ()
        standoffs = frozenset()
    return BoardPicture(state, orders, results, displaced, standoffs)


def orders_picture(state: GameState, orders: Iterable[Order], results: Iterable[OrderResult] = (),
                   after: GameState | None = None) -> BoardPicture:
    """A picture for a position and orders from outside a game (the render command)."""
    res = {(_order_key(r.order)): r for r in results if isinstance(r.order, UnitOrder)}
    shown = tuple(r.order for r in results if isinstance(r.order, UnitOrder)) if res else tuple(orders)
    if after is not None and state.phase.kind == MOVEMENT:
        displaced = tuple(after.dislodged)
        standoffs = frozenset(after.contested)
    else:
        displaced = tuple(state.dislodged)
        standoffs = frozenset()
    return BoardPicture(state, shown, res, displaced, standoffs)


# -- geometry helpers -----------------------------------------------------------------------


def path_from_geometry(geom: BaseGeometry) -> QPainterPath:
    """A Shapely (multi)polygon as a QPainterPath (holes kept with the odd-even rule)."""
    from shapely.geometry import MultiPolygon, Polygon  # not at import: the first picture needs no Shapely

    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    polys: list[Polygon]
    if isinstance(geom, Polygon):
        polys = [geom]
    elif isinstance(geom, MultiPolygon):
        polys = list(geom.geoms)
    else:
        polys = [g for g in getattr(geom, "geoms", ()) if isinstance(g, Polygon)]
    for poly in polys:
        for ring in (poly.exterior, *poly.interiors):
            pts = [QPointF(x, y) for x, y in ring.coords]
            if pts:
                path.addPolygon(QPolygonF(pts))
                path.closeSubpath()
    return path


def _bent_path(a: QPointF, b: QPointF, bend: float = 0.12) -> QPainterPath:
    """A gentle curve from a to b, bowing to the right of the direction of travel."""
    path = QPainterPath(a)
    line = QLineF(a, b)
    if line.length() < 1e-6:
        return path
    mid = (a + b) / 2
    nx, ny = -(b.y() - a.y()), (b.x() - a.x())
    norm = math.hypot(nx, ny)
    ctrl = QPointF(mid.x() + nx / norm * line.length() * bend, mid.y() + ny / norm * line.length() * bend)
    path.quadTo(ctrl, b)
    return path


def _ends_with_shaft(a: QPointF, b: QPointF, start: float, end: float, minimum: float) -> tuple[QPointF, QPointF]:
    """``a`` and ``b`` moved towards each other by ``start`` and ``end``, but keeping at least
    ``minimum`` between them (the start gives way first, then the end; they never pass a and b)."""
    length = QLineF(a, b).length()
    if length < 1e-6:
        return a, b
    spare = length - minimum
    if start + end > spare:
        start = min(start, max(0.0, spare - end))
        end = min(end, max(0.0, spare - start))
    ux, uy = (b.x() - a.x()) / length, (b.y() - a.y()) / length
    return QPointF(a.x() + ux * start, a.y() + uy * start), QPointF(b.x() - ux * end, b.y() - uy * end)


def _edge_point(centre: QPointF, ux: float, uy: float, rect: QRectF, gap: float) -> QPointF:
    """The point ``gap`` beyond where a ray from ``centre`` along (ux, uy) leaves ``rect`` (around
    ``centre``; an empty ``rect``: ``centre``)."""
    if rect.isEmpty() or (abs(ux) < 1e-9 and abs(uy) < 1e-9):
        return centre
    ts = []
    for u, low, high in ((ux, rect.left(), rect.right()), (uy, rect.top(), rect.bottom())):
        if u > 1e-9:
            ts.append(high / u)
        elif u < -1e-9:
            ts.append(low / u)
    t = min(ts) + gap
    return QPointF(centre.x() + ux * t, centre.y() + uy * t)


def _bowed_path(src: QPointF, dst: QPointF, start_rect: QRectF, end_rect: QRectF, size: float) -> QPainterPath:
    """A move between units that nearly touch: from the side of the unit at ``src`` (drawn over
    ``start_rect``) in a bow to the side of ``dst``'s (``end_rect``), clear of both."""
    line = QLineF(src, dst)
    length = max(line.length(), 1e-6)
    ux, uy = (dst.x() - src.x()) / length, (dst.y() - src.y()) / length
    nx, ny = -uy, ux  # to the right of the direction of travel
    c, s = 0.5, 0.866  # leave at 60 degrees from the line
    a = _edge_point(src, ux * c + nx * s, uy * c + ny * s, start_rect, size * 0.12)
    b = _edge_point(dst, -ux * c + nx * s, -uy * c + ny * s, end_rect, size * 0.12)
    mid = (a + b) / 2
    ctrl = QPointF(mid.x() + nx * size * 0.9, mid.y() + ny * size * 0.9)
    path = QPainterPath(a)
    path.quadTo(ctrl, b)
    return path


def _smooth_path(points: list[QPointF]) -> QPainterPath:
    """A smooth curve through every point (Catmull-Rom, drawn as cubic segments)."""
    path = QPainterPath(points[0])
    n = len(points)
    for i in range(n - 1):
        p0 = points[i - 1] if i > 0 else points[i]
        p1, p2 = points[i], points[i + 1]
        p3 = points[i + 2] if i + 2 < n else p2
        c1 = p1 + (p2 - p0) / 6
        c2 = p2 - (p3 - p1) / 6
        path.cubicTo(c1, c2, p2)
    return path


def _shorten(a: QPointF, b: QPointF, start: float, end: float) -> tuple[QPointF, QPointF]:
    line = QLineF(a, b)
    length = line.length()
    if length <= start + end + 1:
        return a, b
    ux, uy = (b.x() - a.x()) / length, (b.y() - a.y()) / length
    return QPointF(a.x() + ux * start, a.y() + uy * start), QPointF(b.x() - ux * end, b.y() - uy * end)


def drawn_extent(kind: str, size: float, *, displaced: bool = False, ghost: bool = False) -> QRectF:
    """What a unit of ``kind`` drawn ``size`` map units across paints around its spot: the token
    and its halo's dark edge; a dislodged unit's ring and badge; a new unit's ring and badge."""
    k = size / UNIT_SIZE
    halo = 3.7 * k + 0.5  # half the dark edge's pen (and its antialiasing)
    return token_extent(kind, size, displaced=displaced, ghost=ghost).adjusted(-halo, -halo, halo, halo)


def token_extent(kind: str, size: float, *, displaced: bool = False, ghost: bool = False) -> QRectF:
    """What a player sees as the unit: its token's outline (an army's disc, a fleet's hull), for a
    dislodged or a new unit the ring around it and its badge (without the thin halo around them)."""
    k = size / UNIT_SIZE
    rect = palette.unit_path(kind, size).boundingRect()
    if displaced or ghost:  # the red ring of a dislodged unit, the green one of a new unit
        r = size * 0.78 + 1.6 * k
        rect = rect.united(QRectF(-r, -r, 2 * r, 2 * r))
        r = size * 0.30
        rect = rect.united(QRectF(size * 0.55 - r, -size * 0.5 - r, 2 * r, 2 * r))
    return rect


# -- items ----------------------------------------------------------------------------------


class UnitItem(QGraphicsItem):
    """An army (disc) or fleet (hull) in its power's colour, with the power's letter."""

    def __init__(self, unit: Unit, *, displaced: bool = False, ghost: bool = False, size: float = UNIT_SIZE,
                 dislodged_by: str = "", letter: int = 0) -> None:
        super().__init__()
        #: the letter's pixel size (map units; 0: the usual share of the unit's size)
        self.letter_px = letter or max(1, round(size * LETTER_RATIO))
        self.unit = unit
        self.displaced = displaced
        self.ghost = ghost
        self.selected = False
        self.size = size
        #: for a dislodged unit: the province the attack came from ("" if unknown)
        self.dislodged_by = dislodged_by
        self._path = palette.unit_path(unit.kind, size)
        r = size * 0.95 + 4 * size / UNIT_SIZE
        pad = 4.0 * size / UNIT_SIZE + 1  # the dark edge of the halo (and the shadow)
        self._bounds = self._path.boundingRect().adjusted(-pad, -pad, pad, pad).united(QRectF(-r, -r, 2 * r, 2 * r))
        self.setZValue(Z_DISPLACED if displaced else Z_UNITS)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)

    @property
    def location(self) -> str:
        return self.unit.location

    @property
    def province(self) -> str:
        return self.unit.province

    def set_selected(self, selected: bool) -> None:
        if selected != self.selected:
            self.selected = selected
            self.update()

    @override
    def boundingRect(self) -> QRectF:
        return self._bounds  # (the size never changes: a new size is a new item)

    @override
    def shape(self) -> QPainterPath:
        return self._path

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.selected:
            k = self.size / UNIT_SIZE
            r = self.size * 0.95
            painter.setRenderHint(QPainter.RenderHint.Antialiasing)
            painter.setBrush(QColor(255, 212, 0, 90))
            painter.setPen(QPen(QColor(20, 20, 20, 220), 5.5 * k))
            painter.drawEllipse(QPointF(0, 0), r, r)
            painter.setPen(QPen(palette.SELECTED_EDGE, 3.0 * k))
            painter.drawEllipse(QPointF(0, 0), r, r)
        # the unit itself (its halo's wide strokes are slow to draw) is an image per look and
        # screen scale, kept with the names: a click that selects it repaints the ring and copies
        # the rest, and the next start copies it too
        if not IMAGES.paint(painter, self.form(), self._bounds, self.draw):
            self.draw(painter)

    def form(self) -> tuple[object, ...]:
        """Everything the unit's pixels depend on but the view and the selection ring."""
        unit = self.unit
        style = palette.power_style(unit.power)
        return ("unit", unit.kind, style.colour, style.letter, style.ink, self.size, self.displaced, self.ghost,
                self.letter_px)

    def draw(self, painter: QPainter) -> None:
        """Draw the unit (without the selection ring) around the item's origin."""
        power = self.unit.power
        size = self.size
        k = size / UNIT_SIZE
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.displaced:  # a dislodged unit: a red ring around it, whatever the ground
            r = size * 0.78
            painter.setBrush(QColor(255, 255, 255, 150))
            painter.setPen(QPen(palette.FAILURE_MARK, 3.2 * k))
            painter.drawEllipse(QPointF(0, 0), r, r)
        if self.ghost:  # a new unit: a dashed green ring around it, clear on any ground
            r = size * 0.78
            painter.setBrush(QColor(255, 255, 255, 170))
            painter.setPen(QPen(QColor(20, 20, 20, 220), 4.0 * k))
            painter.drawEllipse(QPointF(0, 0), r, r)
            ring = QPen(QColor("#2E9E3A"), 2.6 * k)
            ring.setDashPattern([2.2, 1.2])
            painter.setPen(ring)
            painter.drawEllipse(QPointF(0, 0), r, r)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(0, 0, 0, 70))
        painter.drawPath(self._path.translated(1.4 * k, 1.8 * k))
        # a light halo edged in dark, so a unit stands out on its own power's colour too (and
        # on pale ground, where a white halo alone melts away)
        edge = QPen(QColor(20, 20, 20, 220), 7.4 * k)
        edge.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(edge)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self._path)
        halo = QPen(QColor(255, 255, 255, 250), 5.0 * k)
        halo.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(halo)
        painter.drawPath(self._path)
        painter.setBrush(palette.power_colour(power))
        pen = QPen(palette.OUTLINE, 1.6 * k)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(pen)
        painter.drawPath(self._path)
        font = QFont("DejaVu Sans")
        font.setBold(True)
        font.setPixelSize(self.letter_px)
        painter.setFont(font)
        painter.setPen(palette.power_ink(power))
        rect = self._path.boundingRect()
        if self.unit.kind == "F":
            rect = QRectF(rect.left(), -size * 0.24, rect.width() - size * 0.2, size * 0.72)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, palette.power_letter(power))
        if self.displaced:  # the mark of a dislodged unit: a red badge with a white cross, on the unit
            c = self.badge_point()
            r = size * 0.30
            painter.setPen(QPen(QColor("#FFFFFF"), 1.6 * k))
            painter.setBrush(palette.FAILURE_MARK)
            painter.drawEllipse(c, r, r)
            cross = QPen(QColor("#FFFFFF"), 2.4 * k)
            cross.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(cross)
            d = r * 0.5
            painter.drawLine(QPointF(c.x() - d, c.y() - d), QPointF(c.x() + d, c.y() + d))
            painter.drawLine(QPointF(c.x() - d, c.y() + d), QPointF(c.x() + d, c.y() - d))
        if self.ghost:  # a "new unit" badge
            c = QPointF(size * 0.55, -size * 0.5)
            r = size * 0.26
            painter.setPen(QPen(palette.OUTLINE, 1.2 * k))
            painter.setBrush(QColor("#FFFFFF"))
            painter.drawEllipse(c, r, r)
            painter.setPen(QPen(QColor("#1B6E20"), 2.2 * k))
            painter.drawLine(QPointF(c.x() - r * 0.6, c.y()), QPointF(c.x() + r * 0.6, c.y()))
            painter.drawLine(QPointF(c.x(), c.y() - r * 0.6), QPointF(c.x(), c.y() + r * 0.6))

    def badge_point(self) -> QPointF:
        """Where the dislodged badge sits, relative to the unit (its upper right)."""
        return QPointF(self.size * 0.55, -self.size * 0.5)

    def drawn_rect(self) -> QRectF:
        """What :meth:`draw` paints, around the item's origin: the token with its halo (a
        dislodged unit's ring and badge, a new unit's ring and badge too)."""
        return drawn_extent(self.unit.kind, self.size, displaced=self.displaced, ghost=self.ghost)

    def token_rect(self) -> QRectF:
        """What a player sees as the unit, around the item's origin (:func:`token_extent`)."""
        return token_extent(self.unit.kind, self.size, displaced=self.displaced, ghost=self.ghost)


class OwnershipItem(QGraphicsRectItem):
    """An owned supply centre's whole province in its owner's colour (hidden while unowned).

    Painted from an image of the fill, like the names (``label_images``): the images of the scale
    last drawn are kept on disk with them, so the next start copies each province's fill instead
    of reading its outline from the SVG and filling it anew (an antialiased fill of a province's
    outline is slow, and Qt hands it to its thread pool); the outline is read only to draw an image
    not kept, or to draw on a printer or into an SVG.  Its extent is Qt's rectangle (a repaint
    asks every item of the scene for its extent: Qt answers without calling Python).
    """

    def __init__(self, art: MapArt, space: str) -> None:
        super().__init__()
        self.art = art
        self.space = space
        self.colour: QColor | None = None
        self.setPen(QPen(Qt.PenStyle.NoPen))
        self.setZValue(Z_OWNERSHIP)
        # drawn once at the view's resolution, then copied: a hover or a click repaints a part
        # of the map, and a province's whole outline is slow to fill again and again
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setVisible(False)
        self.setData(0, space)

    def set_colour(self, colour: QColor | None) -> None:
        """Fill the province with ``colour`` (None: hide it)."""
        if colour is None:
            self.setVisible(False)
            return
        if colour != self.colour:
            self.colour = QColor(colour)
            known = _kept_extent(self.form())  # as drawn before: no outline to read
            self.setRect(QRectF(*known) if known is not None else self.path().boundingRect())
            self.update()
        self.setVisible(True)

    def brush(self) -> QBrush:
        return QBrush(self.colour) if self.colour is not None else QBrush()

    def path(self) -> QPainterPath:
        """The province's outline (read from the art when first asked for)."""
        return self.art.outline(self.space)

    def form(self) -> tuple[object, ...]:
        """Everything the fill's pixels depend on but the view (the key of its image)."""
        return ("owned", self.space, self.colour.rgba() if self.colour is not None else 0)

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.colour is not None and not IMAGES.paint(painter, self.form(), self.rect(), self.draw):
            self.draw(painter)

    def draw(self, painter: QPainter) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.fillPath(self.path(), QBrush(self.colour))


class HighlightItem(QGraphicsPathItem):
    """A space lit for a click (a place the selected unit may go) or the space under the pointer:
    its outline filled and edged.

    Painted from an image per space and screen scale (``label_images``, not kept on disk): the
    edge is a wide antialiased stroke along a province's detailed outline, and stroking it anew
    at every repaint was two fifths of a click's work (callgrind, 44 clicks: 377 M of 926 M
    instructions in the lit spaces' paint).  Its extent and shape are Qt's (a path item's).
    """

    def __init__(self, kind: str, z: float, fill: QColor, edge: QColor, width: float) -> None:
        super().__init__()
        self.kind = kind
        #: the space drawn (None: none yet)
        self.space: str | None = None
        self.setZValue(z)
        self.setBrush(fill)
        self.setPen(QPen(edge, width))
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def show_space(self, space: str, path: QPainterPath) -> None:
        """Draw ``space`` (whose outline is ``path``)."""
        if space != self.space:
            self.space = space
            self.setPath(path)
            self.setData(0, space)

    def form(self) -> tuple[object, ...]:
        """Everything the pixels depend on but the view (the key of the image)."""
        pen = self.pen()
        return (self.kind, self.space, self.brush().color().rgba(), pen.color().rgba(), pen.widthF())

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self.space is None or not IMAGES.paint(painter, self.form(), self.boundingRect(), self.draw,
                                                  keep=False):
            self.draw(painter)

    def draw(self, painter: QPainter) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(self.pen())
        painter.setBrush(self.brush())
        painter.drawPath(self.path())


class CentreItem(QGraphicsItem):
    """A supply-centre marker: white when nobody owns it, else the owner's colour and letter."""

    RADIUS = 6.0

    def __init__(self, space: str, owner: str | None, size: float = 1.0) -> None:
        super().__init__()
        self.space = space
        self.owner = owner
        self.size = size
        self._bounds = self._extent()
        self.setZValue(Z_CENTRES)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    @property
    def radius(self) -> float:
        return (self.RADIUS * 1.45 if self.owner else self.RADIUS) * self.size

    def _extent(self) -> QRectF:
        r = self.radius * 1.15 + 2 * self.size
        return QRectF(-r, -r, 2 * r, 2 * r)

    def set_owner(self, owner: str | None) -> None:
        if owner != self.owner:
            self.prepareGeometryChange()
            self.owner = owner
            self._bounds = self._extent()
            self.update()

    def set_size(self, size: float) -> None:
        if size != self.size:
            self.prepareGeometryChange()
            self.size = size
            self._bounds = self._extent()
            self.update()

    @override
    def boundingRect(self) -> QRectF:
        return self._bounds  # asked for at every paint of the view (and every search of the scene)

    def drawn_rect(self) -> QRectF:
        """What the marker paints, around its origin (its edges included)."""
        r = self.radius * 1.15 + 1.2 * self.size
        return QRectF(-r, -r, 2 * r, 2 * r)

    def token_rect(self) -> QRectF:
        """The star itself, around its origin (without its light edge)."""
        r = self.radius * 1.15 + 0.5 * self.size
        return QRectF(-r, -r, 2 * r, 2 * r)

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """A five-pointed star (a city), never a disc with a letter (which read as a small unit:
        issue 34): white when nobody owns it, else in its owner's colour (the province is filled
        in that colour too); a light edge under a dark one."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = self.radius * 1.15
        star = QPolygonF()
        for i in range(10):
            a = -math.pi / 2 + math.pi * i / 5
            d = r if i % 2 == 0 else r * 0.45
            star.append(QPointF(d * math.cos(a), d * math.sin(a)))
        light = QPen(QColor(255, 255, 255, 230), 2.2 * self.size)
        light.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(light)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPolygon(star)
        edge = QPen(palette.OUTLINE, 1.0 * self.size)
        edge.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(edge)
        painter.setBrush(palette.power_colour(self.owner) if self.owner else QColor("#FFFFFF"))
        painter.drawPolygon(star)


_METRICS: dict[tuple[int, bool, bool], QFontMetricsF] = {}


def _kept_extent(form: object) -> tuple[float, float, float, float] | None:
    """The extent of ``form``'s picture as drawn before (a name's, an owned province's), read from
    the images kept on disk (``label_images``); None if it was never drawn."""
    if IMAGES.path is not None and not IMAGES.loaded:
        IMAGES.load(IMAGES.path)
    return IMAGES.bounds.get(form)


def _metrics(px: int, bold: bool, italic: bool) -> QFontMetricsF:
    """The names' font's metrics at ``px`` (kept: every name of a size and style shares them)."""
    metrics = _METRICS.get((px, bold, italic))
    if metrics is None:
        font = QFont("DejaVu Sans")
        font.setPixelSize(px)
        font.setBold(bold)
        font.setItalic(italic)
        metrics = _METRICS[(px, bold, italic)] = QFontMetricsF(font)
    return metrics


def _distance(rect: QRectF, point: QPointF) -> float:
    """How far ``point`` is from ``rect`` (0 inside it): a name's box from the place its line points to."""
    return math.hypot(max(rect.left() - point.x(), 0.0, point.x() - rect.right()),
                      max(rect.top() - point.y(), 0.0, point.y() - rect.bottom()))


class LeaderItem(QGraphicsItem):
    """The thin line from a name placed outside its province to the province, with a dot at its
    end: an item of its own, under the arrows and the units (its name stays above them)."""

    def __init__(self, label: LabelItem) -> None:
        super().__init__()
        self.label = label
        self.setZValue(Z_LEADERS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.start = QPointF()
        self.end = QPointF()

    def follow(self) -> None:
        """The line of the name as it stands now (hidden when the name has none or is hidden)."""
        label = self.label
        if label.leader is None:
            self.setVisible(False)
            return
        rect = label.text_rect().translated(label.pos())
        end = QPointF(label.leader)
        start = QPointF(min(max(end.x(), rect.left()), rect.right()), min(max(end.y(), rect.top()), rect.bottom()))
        if (start, end) != (self.start, self.end):
            self.prepareGeometryChange()
            self.start, self.end = start, end
            self.update()
        self.setVisible(label.isVisible())

    @override
    def boundingRect(self) -> QRectF:
        m = self.label.font_px * 0.25 + 1
        return QRectF(self.start, self.end).normalized().adjusted(-m, -m, m, m)

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        label = self.label
        px = label.font_px
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        light = QColor(214, 232, 247, 220) if label.spec.italic else QColor(252, 249, 240, 225)
        painter.setPen(QPen(light, px * 0.22))
        painter.drawLine(self.start, self.end)
        colour = QColor(label.spec.colour)
        painter.setPen(QPen(colour, px * 0.08))
        painter.drawLine(self.start, self.end)
        painter.setBrush(colour)
        r = px * 0.14
        painter.drawEllipse(self.end, r, r)


class LabelItem(QGraphicsItem):
    """A province's name with a light halo, drawn by the scene (sized for the view, clear of units).

    The scene chooses its size, its form (the full name, on two lines, or the short name) and its
    place (see :mod:`.label_layout`); a name placed outside its province has a leader line to it.
    """

    def __init__(self, spec: LabelSpec, factor: float = 1.0) -> None:
        super().__init__()
        self.spec = spec
        self.setZValue(Z_LABELS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        # Qt's item cache copies the name at the view's scale without calling paint (a hover, a
        # click); a new scale (a zoom, the first paint) paints it from its image (label_images)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.factor = 0.0
        #: the font's pixel size in map units (on screen: times the view's scale)
        self.font_px = 0
        #: the name as drawn (lines split by "\n"): the art's, on two lines, or the short name
        self.text = spec.text
        #: where the leader line ends (scene point), for a name placed outside its province
        self.leader: QPointF | None = None
        #: the outline of the name as drawn and the item's extent: made when first asked for (a
        #: paint, the scene's index), so a name set to several sizes before it is drawn (the first
        #: layout at the art's size, then at the window's) has its outline made once
        self._text_path: QPainterPath | None = QPainterPath()
        self._bounds: QRectF | None = QRectF()
        self._paths: dict[tuple[str, int], QPainterPath] = {}
        #: the leader line, drawn under the units (added to the scene with the name)
        self.leader_item = LeaderItem(self)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.set_factor(factor)

    @property
    def font_size(self) -> float:
        """The font's pixel size, in map units."""
        return float(self.font_px)

    def set_factor(self, factor: float) -> None:
        """The art's name and place, ``factor`` times the art's size."""
        self.set_form(self.spec.text, self.spec.size * factor)

    def set_form(self, text: str, font_size: float, leader: QPointF | None = None,
                 middle: QPointF | None = None) -> None:
        """Draw ``text`` with a font of ``font_size`` map units (rounded up to whole units), its
        middle at ``middle`` (scene point; None: where it is), with a leader line to ``leader``."""
        px = max(1, math.ceil(font_size - 1e-6))
        if middle is not None and middle != self.pos():
            self.setPos(middle)
        elif (text, px, leader) == (self.text, self.font_px, self.leader):
            return
        self.prepareGeometryChange()
        self.text, self.font_px, self.leader = text, px, leader
        self.factor = px / self.spec.size
        self._text_path = None
        self._bounds = None
        self.update()
        self.leader_item.follow()

    @property
    def text_path(self) -> QPainterPath:
        """The outline of the name as drawn, its middle at the item's origin."""
        if self._text_path is None:
            self._text_path = self.path_for(self.text, self.font_px)
        return self._text_path

    def set_leader(self, leader: QPointF | None) -> None:
        self.set_form(self.text, self.font_px, leader)

    def path_for(self, text: str, px: int) -> QPainterPath:
        """The outline of ``text`` (one or more lines) at ``px``, its middle at the origin."""
        path = self._paths.get((text, px))
        if path is None:
            font = QFont("DejaVu Sans")
            font.setPixelSize(px)
            font.setBold(self.spec.bold)
            font.setItalic(self.spec.italic)
            metrics = _metrics(px, self.spec.bold, self.spec.italic)
            lines = text.split("\n")
            step = px * 1.05
            path = QPainterPath()
            for i, line in enumerate(lines):
                width = metrics.horizontalAdvance(line)
                middle = (i - (len(lines) - 1) / 2) * step
                path.addText(QPointF(-width / 2, middle + 0.35 * px), font, line)
            self._paths[(text, px)] = path
        return path

    def measure(self, text: str, px: int) -> QRectF:
        """The extent :meth:`path_for` gives ``text``: its outline's, always (the names are placed
        by these extents: a mix of outlines and font metrics made the layout depend on which
        names happened to have been drawn before)."""
        return self.path_for(text, px).boundingRect()

    def path_at(self, factor: float) -> QPainterPath:
        """The art's name at ``factor`` times the art's size."""
        return self.path_for(self.spec.text, max(1, math.ceil(self.spec.size * factor - 1e-6)))

    def text_rect(self) -> QRectF:
        """The text's extent around the item's origin."""
        return self.text_path.boundingRect()

    def text_rect_at(self, factor: float) -> QRectF:
        """The text's extent around the item's origin, drawn at ``factor``."""
        return self.path_at(factor).boundingRect()

    @override
    def boundingRect(self) -> QRectF:
        bounds = self._bounds  # asked for at every paint: kept
        if bounds is None and (known := _kept_extent(self.form())) is not None:
            bounds = self._bounds = QRectF(*known)  # as drawn before (label_images): no outline to make
        if bounds is None:
            m = self.font_px * 0.25 + 1
            bounds = self._bounds = self.text_path.boundingRect().adjusted(-m, -m, m, m)
        return bounds

    def form(self) -> tuple[object, ...]:
        """Everything the name's pixels depend on but the view (the key of its image; the leader
        line is its own item's, :class:`LeaderItem`: the last field, once its end, is None)."""
        spec = self.spec
        return (self.text, self.font_px, spec.bold, spec.italic, spec.colour, None)

    @override
    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:
        kind = QGraphicsItem.GraphicsItemChange
        if change == kind.ItemSceneHasChanged:
            scene, leader = self.scene(), self.leader_item
            if leader.scene() is not scene:
                if leader.scene() is not None:
                    leader.scene().removeItem(leader)
                if scene is not None:
                    scene.addItem(leader)
        if change in (kind.ItemPositionHasChanged, kind.ItemVisibleHasChanged, kind.ItemSceneHasChanged):
            self.leader_item.follow()
        return super().itemChange(change, value)

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if not IMAGES.paint(painter, self.form(), self.boundingRect(), self.draw):
            self.draw(painter)

    def draw(self, painter: QPainter) -> None:
        """Draw the name around the item's origin (its leader line is :class:`LeaderItem`'s)."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        sea = self.spec.italic
        light = QColor(214, 232, 247, 220) if sea else QColor(252, 249, 240, 225)
        halo = QPen(light, self.font_px * 0.24)
        halo.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        painter.setPen(halo)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(self.text_path)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(self.spec.colour))
        painter.drawPath(self.text_path)


class OrderItem(QGraphicsItem):
    """One order drawn on the board: a move or retreat arrow, a support or convoy line, a hold ring.

    Every stroke has a dark outline, so an arrow reads on any ground (its own power's colour too).
    Moves are solid; supports dashed, ending on the supported unit or arrow; convoys dotted with
    a diamond.  ``outcome`` is None before adjudication; a failed, void or illegal order is drawn
    dashed and pale with a red cross.
    """

    #: stroke widths (at the design unit size) by style
    WIDTHS: ClassVar[dict[str, float]] = {"move": 4.6, "support": 4.4, "convoy": 3.8, "hold": 3.0}
    #: the dark outline's width on each side of a stroke (at the design unit size)
    HALO = 1.7

    def __init__(self, order: Order, path: QPainterPath, style: str, *, head: QPolygonF | None = None,
                 ring: QRectF | None = None, outcome: Outcome | None = None, illegal: bool = False,
                 cross_at: QPointF | None = None, tooltip: str = "", scale: float = 1.0) -> None:
        super().__init__()
        self.order = order
        self.style = style  # "move", "support", "convoy", "hold", "build", "remove"
        self.path = path
        self.head = head
        self.ring = ring
        self.outcome = outcome
        self.illegal = illegal
        self.cross_at = cross_at
        self.scale_factor = scale
        self.setZValue(Z_ARROWS if style not in ("remove", "build") else Z_MARKS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        if tooltip:
            self.setToolTip(tooltip)
        # the bounds are worked out now (asked for at every paint); the exact shape only when
        # asked for (a tooltip, a click): stroking the path is the slow part of making an arrow
        self._shape: QPainterPath | None = None
        w = 4 * scale  # half the shape's stroke
        bounds = path.boundingRect().adjusted(-w, -w, w, w) if not path.isEmpty() else QRectF()
        if head is not None:
            bounds = bounds.united(head.boundingRect())
        if ring is not None:
            bounds = bounds.united(ring.adjusted(-w, -w, w, w))
        if cross_at is not None:
            bounds = bounds.united(QRectF(cross_at.x() - 2 * w, cross_at.y() - 2 * w, 4 * w, 4 * w))
        self._bounds = bounds.adjusted(-6 * scale, -6 * scale, 6 * scale, 6 * scale)


    @property
    def failed(self) -> bool:
        return self.illegal or (self.outcome is not None and self.outcome is not Outcome.SUCCESS)

    @property
    def width(self) -> float:
        """The width of the coloured stroke (map units)."""
        return self.WIDTHS.get(self.style, 3.0) * self.scale_factor

    #: the least on-screen width (device pixels) of each side of the dark outline and the pale
    #: edge: at the whole board's scale on a laptop (about 0.5 pixel per map unit) the design
    #: widths fall to about one pixel, which antialiasing spreads over two pale ones (2.2-2.9:1
    #: against the ground, under the 3:1 a graphical object needs)
    MIN_EDGE_PX = 2.0

    def _edge(self, design: float, device_scale: float) -> float:
        """One side's width in map units: the design width, or the least on-screen width,
        kept within the item's bounds (the coloured stroke's half plus two edges)."""
        k = self.scale_factor
        least = self.MIN_EDGE_PX / device_scale if device_scale > 0 else 0.0
        room = (5.0 * k - self.width / 2) / 2 + 2.5 * k  # half of what the bounds leave, per edge
        return max(design * k, min(least, room))

    def outline_pen(self, device_scale: float = 0.0) -> QPen:
        """The dark pen drawn under the coloured stroke (its outline); ``device_scale`` is the
        painter's pixels per map unit (0: the design width)."""
        width = self.width
        halo = self._edge(self.HALO, device_scale)
        outline = QPen(QColor(20, 20, 20, 215 if not self.failed else 150), width + 2 * halo)
        outline.setCapStyle(Qt.PenCapStyle.RoundCap)
        outline.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        dashes = self._dashes()
        if dashes:
            ratio = width / outline.widthF()
            outline.setDashPattern([d * ratio for d in dashes])
        return outline

    def _dashes(self) -> list[float]:
        if self.style == "support":
            return [2.6, 1.3]
        if self.style == "convoy":
            return [0.5, 1.4]
        if self.failed and self.style == "move":
            return [2.2, 1.4]
        return []

    def colour(self) -> QColor:
        colour = palette.power_colour(self.order.power)
        if self.failed:
            colour = colour.lighter(125)
            colour.setAlpha(210)
        return colour

    def shaft_length(self) -> float:
        """The length of the drawn line, without the arrow head."""
        return self.path.length()

    @override
    def boundingRect(self) -> QRectF:
        return self._bounds

    @override
    def shape(self) -> QPainterPath:
        if self._shape is None:
            stroker = QPainterPathStroker()
            stroker.setWidth(8 * self.scale_factor)
            shape = stroker.createStroke(self.path)
            if self.head is not None:
                shape.addPolygon(self.head)
            if self.ring is not None:
                w = 4 * self.scale_factor
                shape.addEllipse(self.ring.adjusted(-w, -w, w, w))
            if self.cross_at is not None:
                shape.addEllipse(self.cross_at, 8 * self.scale_factor, 8 * self.scale_factor)
            self._shape = shape
        return self._shape


    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = self.colour()
        width = self.width
        k = self.scale_factor
        device_scale = math.sqrt(abs(painter.worldTransform().determinant()))
        outline = self.outline_pen(device_scale)
        pen = QPen(colour, width)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        dashes = self._dashes()
        if dashes:
            pen.setDashPattern(dashes)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if not self.path.isEmpty():
            if self.style == "move" and not self.failed:  # a pale edge: the dark outline reads on dark ground too
                light = QPen(QColor(255, 255, 255, 240), outline.widthF() + 2 * self._edge(1.8, device_scale))
                light.setCapStyle(Qt.PenCapStyle.RoundCap)
                light.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
                painter.setPen(light)
                painter.drawPath(self.path)
            painter.setPen(outline)
            painter.drawPath(self.path)
            painter.setPen(pen)
            painter.drawPath(self.path)
        if self.ring is not None:
            ring_outline = QPen(outline)
            painter.setPen(ring_outline)
            painter.drawEllipse(self.ring)
            painter.setPen(pen)
            painter.drawEllipse(self.ring)
        if self.head is not None:
            head_pen = QPen(QColor(20, 20, 20, 230), 1.8 * k)
            head_pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
            painter.setPen(head_pen)
            painter.setBrush(QBrush(colour))
            painter.drawPolygon(self.head)
        if self.cross_at is not None:
            draw_cross(painter, self.cross_at, 6.0 * k, k)


def draw_cross(painter: QPainter, at: QPointF, r: float, k: float = 1.0) -> None:
    pen = QPen(QColor("#FFFFFF"), 5.0 * k)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.drawLine(QPointF(at.x() - r, at.y() - r), QPointF(at.x() + r, at.y() + r))
    painter.drawLine(QPointF(at.x() - r, at.y() + r), QPointF(at.x() + r, at.y() - r))
    pen = QPen(palette.FAILURE_MARK, 2.8 * k)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.drawLine(QPointF(at.x() - r, at.y() - r), QPointF(at.x() + r, at.y() + r))
    painter.drawLine(QPointF(at.x() - r, at.y() + r), QPointF(at.x() + r, at.y() - r))


class _Mark(QGraphicsItem):
    """A mark drawn over the map after an adjudication, ``RADIUS`` across at scale 1; it takes no
    clicks (the unit or province under it does) and says what it marks in its tooltip."""

    RADIUS = 12.0

    def __init__(self, tooltip: str = "", scale: float = 1.0) -> None:
        super().__init__()
        self.scale_factor = scale
        self.setZValue(Z_MARKS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        if tooltip:
            self.setToolTip(tooltip)

    @override
    def boundingRect(self) -> QRectF:
        r = self.RADIUS * self.scale_factor
        return QRectF(-r, -r, 2 * r, 2 * r)


class BounceItem(_Mark):
    """A standoff: a red burst on a province that two or more moves bounced out of."""

    RADIUS = 15.0

    def __init__(self, province: str, tooltip: str = "", scale: float = 1.0) -> None:
        super().__init__(tooltip, scale)
        self.province = province
        star = QPolygonF()
        for i in range(16):
            r = (13.0 if i % 2 == 0 else 6.0) * scale
            a = math.pi * i / 8
            star.append(QPointF(r * math.cos(a), r * math.sin(a)))
        self._star = star

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#FFFFFF"), 1.5 * self.scale_factor))
        painter.setBrush(QColor(200, 0, 0, 220))
        painter.drawPolygon(self._star)


class MarkItem(_Mark):
    """A red cross over a unit: removed, disbanded or destroyed."""

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        draw_cross(painter, QPointF(0, 0), 9.0 * self.scale_factor, self.scale_factor)


class MapScene(QGraphicsScene):
    """The board and everything drawn on it."""

    #: a picture was drawn (its units at their places for the sizes now): marks drawn over units
    #: elsewhere (an explanation's rings) follow them
    picture_drawn = Signal()

    def __init__(self, geometry: MapGeometry | Any, svg_path: Path | str, parent: object | None = None, *,
                 sharpen: bool = True) -> None:
        super().__init__(parent)  # type: ignore[arg-type]
        self.geometry = geometry
        x, y, w, h = geometry.view_box
        self.setSceneRect(QRectF(x, y, w, h))
        # Qt's own index (its default): a repaint of part of the map (a hover, a click) asks only the
        # items there for their extent; without one, Qt asked every name, centre and unit (some 140
        # calls into Python for each repaint, whatever its size).  Items whose extent changes say so
        # first (prepareGeometryChange).
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.BspTreeIndex)
        self.art = MapArt(svg_path)
        self.board_item = BoardItem(svg_path, sharpen=sharpen, svg_data=self.art.board_svg)
        self.board_item.setZValue(Z_BOARD)
        vb = self.board_item.view_box
        if vb.width() > 0 and (abs(vb.width() - w) > 0.5 or abs(vb.height() - h) > 0.5 or vb.x() != x or vb.y() != y):
            raise ValueError(f"the map art ({vb.width():g}x{vb.height():g}) and the map data ({w:g}x{h:g}) differ")
        self.addItem(self.board_item)
        #: units are drawn this size (map units); labels at this factor of the art's own size
        self.view_scale = 0.0
        #: units and labels are drawn this much larger than for a window (the projector view)
        self.size_factor = 1.0
        self.unit_size, self.label_factor = sizes_for_scale(self.view_scale)
        self._paths: dict[str, QPainterPath] = {}
        self.hover_item = HighlightItem("hover", Z_HOVER, palette.HOVER_FILL, palette.HOVER_EDGE, 2.0)
        self.hover_item.setVisible(False)
        self.addItem(self.hover_item)
        self.hovered: str | None = None
        self.lit: frozenset[str] = frozenset()
        #: the lit spaces' items by space, made when a space is first lit and hidden when not lit
        self._lit_items: dict[str, HighlightItem] = {}
        self.centre_items: dict[str, CentreItem] = {}
        #: owned supply centres: the whole province in its owner's colour (hidden while unowned)
        self.ownership_items: dict[str, OwnershipItem] = {}
        for sid in geometry.centre_ids:
            item = CentreItem(sid, None)
            cx, cy = geometry.centre_point(sid)
            item.setPos(cx, cy)
            self.addItem(item)
            self.centre_items[sid] = item
            fill = OwnershipItem(self.art, sid)
            self.addItem(fill)
            self.ownership_items[sid] = fill
        self.label_items: dict[str, LabelItem] = {}
        self._rooms: dict[str, float] | None = None
        self._lands: list[tuple[str, QRectF, QPainterPath]] | None = None  # (see _in_other_land)
        self._provinces: list[tuple[str, QRectF, QPainterPath]] | None = None  # (see _in_other_land)
        self._identity: str | None = None
        for space, spec in self.art.labels.items():
            label = LabelItem(spec, self.label_factor)
            label.setPos(spec.middle)
            self.addItem(label)
            self.label_items[space] = label
        self.unit_items: dict[str, UnitItem] = {}  # by province
        self.displaced_items: dict[str, UnitItem] = {}  # by province
        self.order_items: dict[str, list[QGraphicsItem]] = {}  # by power
        self.mark_items: list[QGraphicsItem] = []
        self.picture: BoardPicture | None = None
        #: the first picture, made once a view gives the scene its scale (show_picture_when_sized)
        self._first_picture: Callable[[], BoardPicture] | None = None
        #: what the picture was last drawn for (see show_picture's ``unless_drawn``)
        self._drawn_for: tuple[object, ...] | None = None
        self.selected_province: str | None = None
        #: names are drawn at least this many pixels high on screen (the projector asks for more)
        self.label_min_px = MIN_PX
        #: how far a name may grow beyond the art's own size to reach ``label_min_px`` (the
        #: projector allows more: its names are read from the back of a room)
        self.label_max_growth: float | None = None
        self._letter_drawn = 0
        #: what the labels were last placed for (label factor, unit size, least font size), and
        #: the layouts worked out so far, by the same key
        self._labels_placed_for: tuple[float, float, float, float | None] | None = None
        #: the layout the names were last placed by (None: the art's places, no view yet)
        self._layout_shown: Mapping[str, Placement] | None = None
        #: what the names were last fitted to (the layout and the units standing)
        self._fitted_for: object = None
        self._marker_cache: dict[tuple[float, float], dict[str, QPointF | None]] = {}
        self._spot_cache: dict[tuple[float, float], dict[str, QPointF]] = {}
        self._label_layouts: dict[tuple[float, float, float, float | None], dict[str, Placement]] = {}
        self._place_labels()

    @property
    def letter_px(self) -> int:
        """A unit's letter (pixel size in map units): at least :attr:`label_min_px` on screen,
        within the unit (between LETTER_RATIO and LETTER_MAX_RATIO of its size)."""
        size = self.unit_size
        need = math.ceil(self.label_min_px / self.view_scale - 1e-6) if self.view_scale >= MIN_LAYOUT_SCALE else 0
        return max(round(size * LETTER_RATIO), min(need, math.floor(size * LETTER_MAX_RATIO)))

    @property
    def unit_scale(self) -> float:
        """The unit size relative to the design size: strokes, heads and marks scale with it."""
        return self.unit_size / UNIT_SIZE

    def set_view_scale(self, scale: float) -> bool:
        """Size units and labels for a view drawing ``scale`` pixels per map unit; True if they changed."""
        self.view_scale = scale
        first, self._first_picture = self._first_picture, None
        if first is not None:  # (the board is drawn for the first time, at the view's scale)
            self.unit_size, self.label_factor = sizes_for_scale(scale, self.size_factor)
            self.show_picture(first())
            return True
        unit, label = sizes_for_scale(scale, self.size_factor)
        if (unit, label) == (self.unit_size, self.label_factor):
            placed = self._labels_placed_for
            self._place_labels()  # the names keep their least size on screen as the scale changes
            changed = placed != self._labels_placed_for
            if self.picture is not None and self._letter_drawn != self.letter_px:
                self.show_picture(self.picture)  # and so do the units' letters
                changed = True
            return changed
        self.unit_size, self.label_factor = unit, label
        if self.picture is not None:
            self.show_picture(self.picture)
        else:
            self._place_labels()
        return True

    def set_size_factor(self, factor: float) -> bool:
        """Draw units and labels ``factor`` times their usual size; True if they changed."""
        self.size_factor = factor
        return self.set_view_scale(self.view_scale)

    def owner_fill(self, centre: str) -> QColor | None:
        """The colour the centre's province is filled with (None while nobody owns it)."""
        item = self.ownership_items.get(centre)
        if item is None or not item.isVisible():
            return None
        return item.brush().color()

    def _show_owners(self, owners: Mapping[str, str]) -> None:
        for sid, centre in self.centre_items.items():
            owner = owners.get(sid)
            centre.set_owner(owner)
            centre.set_size(self.label_factor)
            self.ownership_items[sid].set_colour(None if owner is None else palette.ownership_colour(owner))

    def _place_labels(self) -> None:
        """Size every name for the view and place it clear of the others and of the units' spots.

        Each name is at least :attr:`label_min_px` screen pixels high (the art's size times the
        label factor where that is larger), and placed by :func:`.label_layout.place_labels`:
        at the art's place when it is free, else nearby, on two lines or by its short name, and
        with a leader line when it had to leave its province.  The layout depends only on the
        sizes, so names never jump as units come and go; it is kept for each size the view shows.
        """
        # a board drawn smaller than a laptop's whole board (a window still being laid out, or
        # zoomed out below "fit") cannot carry readable names: the art's sizes there
        need = self.label_min_px / self.view_scale if self.view_scale >= MIN_LAYOUT_SCALE else 0.0
        key = (self.label_factor, self.unit_size, math.ceil(need * 4) / 4, self.label_max_growth)
        if key == self._labels_placed_for:
            return  # nothing a label's size or place depends on has changed
        self._labels_placed_for = key
        if self.view_scale <= 0:  # no view yet: the art's names where the art has them
            self._layout_shown = None
            for item in self.label_items.values():
                item.set_form(item.spec.text, item.spec.size * self.label_factor, None, item.spec.middle)
            return
        layout = self._label_layouts.get(key)
        if layout is None:
            layout = self._label_layouts[key] = self._label_layout(key[2])
            if len(self._label_layouts) > 24:
                self._label_layouts.pop(next(iter(self._label_layouts)))
        self._layout_shown = layout
        self._place_label_items(layout)
        self._fitted_for = None
        if self.picture is not None:
            self._fit_names_to_units()

    def _fit_names_to_units(self) -> None:
        """The names the units standing now would cover, or stand right beside (read as their
        name: "Ber" against Kiel's fleet), moved just clear of them (issue 34): the layout keeps
        room for an army on every spot, but a fleet's hull is wider and a small province's name
        may have had nowhere else to go; a name moved for a unit returns when the unit has gone.
        A name moves to the nearest place (rings of growing distance around it) clear of every
        unit, marker and other name (and of the room beside other provinces' units when it can),
        its marker with it, with a leader line to its province if it left it."""
        layout = self._layout_shown
        if layout is None:
            return
        units_standing = tuple((prov, item.unit.kind, item.displaced, item.ghost, item.pos().x(), item.pos().y())
                               for prov, item in self.unit_items.items())
        standing = (id(layout), self.unit_size, units_standing)
        if standing == self._fitted_for:
            return  # the same units on the same layout: the names stand where they were fitted
        self._fitted_for = standing
        self._place_label_items(layout)  # (every name and marker at its layout's place first)
        # worked out once per layout and units standing, and kept for the next start (the start
        # position's is what every window first draws)
        from .label_layout import GEOMETRY, layout_key

        key = layout_key(self._layout_identity(), ("fit", self._labels_placed_for, units_standing),
                         self.sceneRect())
        known = _stored(GEOMETRY.get(key), self._read_fitted_places)
        if known is None:
            before = self._fitted_places()
            self._work_out_fit(layout)
            after = self._fitted_places()
            GEOMETRY.put(key, {space: place for space, place in after.items() if place != before.get(space)})
        else:
            for item, middle, leader in known:
                if isinstance(item, LabelItem):
                    item.set_form(item.text, item.font_px, leader, middle)
                else:
                    item.setPos(middle)

    def _fitted_places(self) -> dict[str, list[Any]]:
        """Where each name (its middle and leader line's end) and each marker stands, as JSON."""
        def point(p: QPointF | None) -> list[float] | None:
            return None if p is None else [p.x(), p.y()]

        places: dict[str, list[Any]] = {f"n:{space}": [point(item.pos()), point(item.leader)]
                                        for space, item in self.label_items.items()}
        places.update((f"m:{space}", [point(item.pos()), None]) for space, item in self.centre_items.items())
        return places

    def _read_fitted_places(self, places: Mapping[str, list[Any]]) -> list[tuple[LabelItem | CentreItem, QPointF,
                                                                                    QPointF | None]]:
        """The names and markers :meth:`_fitted_places` wrote, and where they stood (an error if
        ``places`` is not what it writes)."""
        out: list[tuple[LabelItem | CentreItem, QPointF, QPointF | None]] = []
        for name, (middle, leader) in places.items():
            kind, space = name.split(":", 1)
            item = self.label_items[space] if kind == "n" else self.centre_items[space]
            out.append((item, _point(middle), None if leader is None else _point(leader)))
        return out

    @property
    def _on_projector(self) -> bool:
        """Whether the names are sized for the projector (it allows them to grow more: F5)."""
        return self.label_max_growth is not None

    def _leader_reach(self, need: float) -> float:
        """The projector's longest leader line (map units), for names at least ``need`` high: three
        of their heights (a line that points plainly at the province beside the name)."""
        return 3.0 * need

    def _in_other_land(self, space: str, point: QPointF) -> bool:
        """Whether ``point`` lies inside a land province other than ``space`` (a name whose middle
        stands there reads as that province's: "Paris" in Burgundy, "Bel" in Munich; issue 34); on
        the projector inside any other province, a sea too ("Paris" in the Gulf of Lyon: issue i32),
        or in none (Ireland, Corsica)."""
        projector = self._on_projector
        lands = self._provinces if projector else self._lands
        if lands is None:
            lands = [(s, outline.boundingRect(), outline) for s, item in self.label_items.items()
                     if (projector or not item.spec.italic) and not (outline := self.art.outline(s)).isEmpty()]
            if projector:  # (and the land no unit enters, Switzerland: "Bel" there read as its name)
                self._provinces = lands = [*lands, *((s, outline.boundingRect(), outline)
                                                     for s, outline in self.art.impassable().items())]
            else:
                self._lands = lands
        own = space.split("/")[0]
        if not projector:
            return any(s != own and box.contains(point) and outline.contains(point) for s, box, outline in lands)
        # (on the projector no name stands in no province either: Ireland, Corsica, off the board,
        # but Switzerland's, which has no outline of its own)
        found = [s for s, box, outline in lands if box.contains(point) and outline.contains(point)]
        return any(s != own for s in found) or (not found and not self.art.outline(own).isEmpty())

    def _in_another_province(self, space: str, point: QPointF) -> bool:
        """Whether ``point`` lies inside a province (land or sea) other than ``space``."""
        self._in_other_land(space, point)  # (the projector's outlines, gathered once)
        own = space.split("/")[0]
        return any(s != own and box.contains(point) and outline.contains(point)
                   for s, box, outline in self._provinces or ())

    def _line_move(self, rect: QRectF, taken: list[QRectF], marker: QRectF | None,
                   accept: Callable[..., bool]) -> QPointF | None:
        """The projector's move of a name a unit covers, with no room in or near its own province:
        the nearest ``accept`` takes with a leader line within the layout's reach, else within half
        as much again (before, such a name shrank to 75 % first: issue 32)."""
        for longer in (1.0, 1.5):
            def takes(moved: QRectF, longer: float = longer) -> bool:
                return bool(accept(moved, longer=longer))

            move = _clear_move(rect, taken, self.sceneRect(), marker, reach=30, accept=takes)
            if move is not None:
                return move
        return None

    def _may_stand(self, space: str, moved: QRectF) -> bool:
        """Whether a name may stand at ``moved`` when it leaves its province for a unit: not in
        another land province (on the projector: no other province at all, and with a leader line
        no longer than :meth:`_leader_reach`)."""
        if self._in_other_land(space, moved.center()):
            return False
        if not self._on_projector or self.view_scale <= 0:
            return True
        item = self.label_items[space]
        if item.leader is None and self._in_own(space, moved.center()):
            return True  # (no leader line: a name in its own province)
        home = item.leader or item.spec.middle
        return _distance(moved, home) <= self._leader_reach(self.label_min_px / self.view_scale)

    def _in_own(self, space: str, point: QPointF) -> bool:
        """Whether ``point`` lies inside ``space``'s own outline (False for a space without one)."""
        outline = self.art.outline(space.split("/")[0])
        return not outline.isEmpty() and outline.contains(point)

    def _work_out_fit(self, layout: Mapping[str, Placement]) -> None:
        """:meth:`_fit_names_to_units`'s search, from every name and marker at its layout's place."""
        near = self.unit_size * 0.3
        units = {prov: item.mapRectToScene(item.token_rect()) for prov, item in self.unit_items.items()}
        beside = {prov: r.adjusted(-near, -near, near, near) for prov, r in units.items()}
        disc = token_extent("A", self.unit_size)
        discs = {loc: disc.translated(point) for loc, point in self.unit_spots().items()}
        markers = {space: item.mapRectToScene(item.token_rect()) for space, item in self.centre_items.items()}
        for space, rect in list(markers.items()):  # a marker under a fleet's hull: beside it, in its province
            if self._marker_side(space) is not None or not any(rect.intersects(u) for u in units.values()):
                continue
            outline = self.art.outline(space)

            def in_province(moved: QRectF, outline: QPainterPath = outline) -> bool:
                return _inside(outline, moved.center())

            move = _clear_move(rect, [*units.values(), *(r for s2, r in markers.items() if s2 != space)],
                               self.sceneRect(), None, reach=30, accept=in_province)
            if move is not None:
                centre = self.centre_items[space]
                centre.setPos(centre.pos() + move)
                markers[space] = rect.translated(move)
        names = {space: item.mapRectToScene(item.text_rect()) for space, item in self.label_items.items()}
        for space in self.label_items:
            own_marker = space if self._marker_side(space) is not None else ""
            others = [r for s2, r in markers.items() if s2 != own_marker]
            rect = names[space]
            wrong = [prov for prov, aura in beside.items() if prov != space and aura.intersects(rect)
                     and (prov not in names or _gap(units[prov], names[prov]) > _gap(units[prov], rect))]
            covered = any(rect.intersects(u) for u in units.values()) or any(rect.intersects(m) for m in others)
            # another province's spot, empty: a click there must not read this name
            on_spot = [d for p, d in discs.items() if p.split("/")[0] != space and d.intersects(rect)]
            if not wrong and not covered and not on_spot:
                continue
            hard = [*units.values(), *others, *(r for s2, r in names.items() if s2 != space)]
            auras = [aura for prov, aura in beside.items() if prov != space]
            spots = [d for p, d in discs.items() if p.split("/")[0] != space]
            marker = markers.get(own_marker) if own_marker else None

            def at_home(moved: QRectF, space: str = space) -> bool:
                return self._may_stand(space, moved)

            def inside(moved: QRectF, space: str = space) -> bool:
                return self._in_own(space, moved.center())

            def in_none(moved: QRectF, space: str = space, longer: float = 1.0) -> bool:
                """In no other province, with a leader line at most ``longer`` times the layout's."""
                far = _distance(moved, self.label_items[space].spec.middle)
                return far <= longer * self._leader_reach(self.label_min_px / self.view_scale) and \
                    not self._in_another_province(space, moved.center())

            # its own province first, else the nearest place in no other land province (the sea)
            move = _clear_move(rect, hard + auras + spots, self.sceneRect(), marker, accept=inside) or \
                _clear_move(rect, hard + spots, self.sceneRect(), marker, accept=inside) or \
                _clear_move(rect, hard + auras + spots, self.sceneRect(), marker, accept=at_home)
            if move is None and (covered or on_spot):  # (no room away from every unit: at least off them)
                move = _clear_move(rect, hard + spots, self.sceneRect(), marker, accept=at_home) or \
                    _clear_move(rect, hard + on_spot, self.sceneRect(), marker, accept=at_home)
                if move is None and self._on_projector:  # (a line to it, never a smaller name: issue 32)
                    move = self._line_move(rect, hard + on_spot, marker, in_none)
                elif move is None:  # (a window: anywhere off the unit; the projector rather leaves it there)
                    move = _clear_move(rect, hard + on_spot, self.sceneRect(), marker)
            if move is None:
                continue
            self._move_name(space, move, layout, names, markers)
        self._bring_names_beside(units, markers, names, layout)

    def _bring_names_beside(self, units: dict[str, QRectF], markers: dict[str, QRectF], names: dict[str, QRectF],
                            layout: Mapping[str, Placement]) -> None:
        """A unit whose nearest name is still another province's: its own name brought beside it,
        where that is clear of every unit, marker and name."""
        for prov, unit in units.items():
            if prov not in names:
                continue
            own = _gap(unit, names[prov])
            if all(_gap(unit, r) >= own for s2, r in names.items() if s2 != prov):
                continue
            nearest = min(_gap(unit, r) for s2, r in names.items() if s2 != prov)
            own_marker = prov if self._marker_side(prov) is not None else ""
            hard = [*units.values(), *(r for s2, r in markers.items() if s2 != own_marker),
                    *(r for s2, r in names.items() if s2 != prov)]
            target = unit.adjusted(-nearest, -nearest, nearest, nearest)
            near = self.unit_size * 0.3

            def fits(moved: QRectF, target: QRectF = target, prov: str = prov, near: float = near) -> bool:
                """Beside its unit, and not nearer another unit than that unit's own name."""
                return moved.intersects(target) and all(
                    _gap(u, moved) >= min(near, _gap(u, names[p])) for p, u in units.items()
                    if p != prov and p in names)

            def fits_at_home(moved: QRectF, prov: str = prov, fits: Callable[[QRectF], bool] = fits) -> bool:
                return fits(moved) and self._may_stand(prov, moved)

            # not into another land province where it can: else the other names pushed off the unit,
            # and only where neither can (a board crowded everywhere) into another province
            def fits_inside(moved: QRectF, fits: Callable[[QRectF], bool] = fits, prov: str = prov) -> bool:
                return fits(moved) and self._in_own(prov, moved.center())

            marker = markers.get(own_marker) if own_marker else None
            move = _clear_move(names[prov], hard, self.sceneRect(), marker, reach=24, accept=fits_inside) or \
                _clear_move(names[prov], hard, self.sceneRect(), marker, reach=24, accept=fits_at_home)
            if move is None and self._push_names_off(prov, units, markers, names, layout):
                continue
            move = move or _clear_move(names[prov], hard, self.sceneRect(), marker, reach=24,
                                       accept=fits_at_home if self._on_projector else fits)
            if move is not None:
                self._move_name(prov, move, layout, names, markers)

    def _push_names_off(self, prov: str, units: dict[str, QRectF], markers: dict[str, QRectF],
                        names: dict[str, QRectF], layout: Mapping[str, Placement]) -> bool:
        """The other provinces' names nearer ``prov``'s unit than its own name (and within a
        third of a unit) moved just farther off it, each in its own province and beside its
        own unit still; True if every one of them could be (then moved), False (none moved) if not."""
        unit = units[prov]
        near = self.unit_size * 0.3
        keep = min(_gap(unit, names[prov]), near)
        moves: list[tuple[str, QPointF]] = []
        for other in [q for q, r in names.items() if q != prov and _gap(unit, r) < keep]:
            own_marker = other if self._marker_side(other) is not None else ""
            hard = [*units.values(), *(r for s2, r in markers.items() if s2 != own_marker),
                    *(r for s2, r in names.items() if s2 != other)]
            # (its own unit, if any, still has no other name nearer than this one and within ``near``)
            rival = min((_gap(units[other], r) for q, r in names.items() if q != other), default=math.inf) \
                if other in units else math.inf

            def clear(moved: QRectF, other: str = other, rival: float = rival) -> bool:
                return _gap(unit, moved) >= keep and self._may_stand(other, moved) and \
                    (other not in units or rival >= min(_gap(units[other], moved), near)) and all(
                        _gap(u, moved) >= min(near, _gap(u, names[p])) for p, u in units.items()
                        if p not in (other, prov) and p in names)

            def clear_inside(moved: QRectF, clear: Callable[[QRectF], bool] = clear, other: str = other) -> bool:
                return clear(moved) and self._in_own(other, moved.center())

            marker = markers.get(own_marker) if own_marker else None
            move = _clear_move(names[other], hard, self.sceneRect(), marker, reach=12, accept=clear_inside) or \
                _clear_move(names[other], hard, self.sceneRect(), marker, reach=12, accept=clear)
            if move is None:
                return False
            moves.append((other, move))
        for other, move in moves:
            self._move_name(other, move, layout, names, markers)
        return True

    def _move_name(self, space: str, move: QPointF, layout: Mapping[str, Placement], names: dict[str, QRectF],
                   markers: dict[str, QRectF]) -> None:
        """Move ``space``'s name by ``move`` (and its marker, standing beside it), with a leader line
        to its province if it left it."""
        item = self.label_items[space]
        placement = layout.get(space)
        middle = item.pos() + move
        leader = placement.leader if placement is not None else None
        if leader is None and not _inside(self.art.outline(space), middle):
            leader = item.spec.middle
        item.set_form(item.text, item.font_px, leader, middle)
        names[space] = names[space].translated(move)
        if self._marker_side(space) is not None:
            centre = self.centre_items[space]
            centre.setPos(centre.pos() + move)
            markers[space] = markers[space].translated(move)

    @property
    def labels_key(self) -> object:
        """Changes whenever a name changes size, form or place (for those who cache their rectangles)."""
        return self._labels_placed_for

    def set_label_min_px(self, px: float, max_growth: float | None = None) -> bool:
        """Draw every name at least ``px`` screen pixels high, growing each at most ``max_growth``
        times the art's size (None: :data:`.label_layout.MAX_GROWTH`); True if the names changed."""
        if (px, max_growth) == (self.label_min_px, self.label_max_growth):
            return False
        self.label_min_px = px
        self.label_max_growth = max_growth
        if self.picture is not None and self._letter_drawn != self.letter_px:
            self.show_picture(self.picture)
        else:
            self._place_labels()
        return True

    def _label_rooms(self) -> dict[str, float]:
        """How crowded each name's place is: how near the nearest other name's place is (the art's
        places never move: worked out once, not at each new size)."""
        rooms = self._rooms
        if rooms is None:
            homes = [(item.spec.middle.x(), item.spec.middle.y()) for item in self.label_items.values()]
            rooms = {}
            for i, (space, (hx, hy)) in enumerate(zip(self.label_items, homes, strict=True)):
                rooms[space] = min((abs(hx - ox) + abs(hy - oy) for j, (ox, oy) in enumerate(homes) if j != i),
                                   default=0.0)
            self._rooms = rooms
        return rooms

    def _layout_identity(self) -> str:
        """What every layout of this board is worked out from, but the sizes (see
        :func:`.label_layout.layout_key`): the art, the supply centres' spots, the font and the
        code here that measures the names, moves the spots and makes the search's tasks."""
        identity = self._identity
        if identity is None:
            import hashlib

            from .label_layout import code_digest, font_fingerprint

            digest = hashlib.sha256(self.art.digest.encode())
            digest.update(repr(sorted((sid, self.geometry.centre_point(sid)) for sid in self.centre_items)).encode())
            digest.update(repr((font_fingerprint(), CentreItem.RADIUS, LABEL_MAX_FACTOR)).encode())
            for function in (MapScene._label_layout, MapScene._marker_side, MapScene._label_rooms, LabelItem.measure,
                             LabelItem.path_for, _metrics, MapScene.unit_spot, MapScene.unit_spots,
                             MapScene._marker_points, MapScene._marker_radius, token_extent, separate_spots,
                             _off_marker, _push, _clear_point, MapScene._fit_names_to_units,
                             MapScene._work_out_fit, MapScene._bring_names_beside, MapScene._move_name,
                             MapScene._fitted_places, MapScene._read_fitted_places, _clear_move, _gap,
                             MapScene._in_other_land, MapScene._push_names_off, MapScene._in_own,
                             MapScene._may_stand, MapScene._leader_reach, MapScene._in_another_province,
                             MapScene._line_move):
                code_digest(function.__code__, digest)
            identity = self._identity = digest.hexdigest()[:32]
        return identity

    def _label_layout(self, need: float) -> dict[str, Placement]:
        from .label_layout import (FULL, LAYOUTS, MAX_GROWTH, SHORT, TWO_LINES, LabelForm,
                                   LabelTask, layout_key, place_labels, short_name, two_lines)

        bounds = self.sceneRect()
        growth = self.label_max_growth or MAX_GROWTH
        key = layout_key(self._layout_identity(), (self.label_factor, self.size_factor, self.unit_size, need, growth),
                         bounds)
        known = LAYOUTS.get(key)
        if known is not None:
            return known
        tasks: list[LabelTask] = []
        # the projector (issue i32): no name in another province nor far from its own
        projector = self._on_projector and need > 0
        radius = self._marker_radius()
        spots = self.unit_spots()
        centres = [QRectF(p.x() - radius, p.y() - radius, 2 * radius, 2 * radius)
                   for p in self._marker_points().values() if p is not None]
        rooms = self._label_rooms()
        for space, item in self.label_items.items():
            spec = item.spec
            # the art's size, or larger for the least size on screen (the projector asks for that
            # least size, not for the same board's names grown by its factor: they would crowd it)
            size = max(spec.size * min(self.label_factor, LABEL_MAX_FACTOR / self.size_factor),
                       min(need, spec.size * growth))
            px = max(1, math.ceil(size - 1e-6))
            texts = [(spec.text, FULL)]
            if (split := two_lines(spec.text)) is not None:
                texts.append((split, TWO_LINES))
            short = short_name(space, spec.text, spec.italic)
            if len(short) < len(spec.text):
                texts.append((short, SHORT))
            forms = tuple(LabelForm(text, item.measure(text, px), penalty, px) for text, penalty in texts)
            side = self._marker_side(space)
            tasks.append(LabelTask(space, spec.middle, forms, spots.get(space),
                                   marker=radius if side is not None else 0.0, marker_side=side or 1.0,
                                   room=rooms[space], outlined=not self.art.outline(space).isEmpty()))

        def inside(space: str, point: QPointF) -> bool:
            return _inside(self.art.outline(space), point)

        # room for an army's disc on every spot (a fleet's hull, wider, or a dislodged unit, is
        # made room for when it stands there: _fit_names_to_units)
        gap = self.unit_size * 0.08
        disc = token_extent("A", self.unit_size).adjusted(-gap, -gap, gap, gap)
        layout = place_labels(tasks, bounds=bounds, unit=self.unit_size, centres=centres, inside=inside,
                              anchors=spots, spot=disc, foreign=self._in_other_land,
                              leader_reach=self._leader_reach(need) if projector else None,
                              nearly_foreign=self._in_another_province if projector else None)
        LAYOUTS.put(key, layout)
        return layout

    def _place_label_items(self, layout: Mapping[str, Placement]) -> None:
        from .label_layout import marker_point

        for space, item in self.label_items.items():
            placement = layout.get(space)
            if placement is None:
                continue
            item.set_form(placement.form.text, placement.form.px, placement.leader, placement.middle)
        radius = self._marker_radius()
        points = self._marker_points()
        for space, centre in self.centre_items.items():
            placement = layout.get(space)
            point = points.get(space)
            if point is None and placement is not None:
                point = marker_point(placement.rect, radius, placement.marker_side)
            centre.setPos(point if point is not None else QPointF(*self.geometry.centre_point(space)))

    def unit_spot(self) -> QRectF:
        """What a unit's token standing on a spot covers around it (an army's or a fleet's, the
        larger), with a small gap: where names and markers must not go."""
        size = self.unit_size
        gap = size * 0.08
        rect = token_extent("F", size).united(token_extent("A", size))
        return rect.adjusted(-gap, -gap, gap, gap)

    def unit_spots(self) -> dict[str, QPointF]:
        """Every unit spot of the art (split coasts too), moved off its own supply-centre marker
        and apart from its neighbours' where two units drawn at this size would touch, each within
        its own province (worked out once per size)."""
        key = (self.unit_size, self.label_factor)
        spots = self._spot_cache.get(key)
        if spots is None:
            from .label_layout import GEOMETRY, layout_key

            stored = layout_key(self._layout_identity(), ("spots", *key), self.sceneRect())
            spots = _stored(GEOMETRY.get(stored), lambda known: {loc: _point(p) for loc, p in known.items()})
            if spots is None:
                markers = {sid: QPointF(*self.geometry.centre_point(sid)) for sid in self.centre_items}
                spots = separate_spots(
                    self.art.anchors, self.unit_spot(), lambda space, p: _inside(self.art.outline(space), p),
                    markers, self._marker_radius())
                GEOMETRY.put(stored, {loc: [p.x(), p.y()] for loc, p in spots.items()})
            self._spot_cache[key] = spots
        return spots

    def _marker_points(self) -> dict[str, QPointF | None]:
        """Where each supply-centre marker stands: the art's place, or, where a unit standing on
        any spot would cover it, the nearest place inside its province clear of every spot (the
        art puts some cities on the unit's spot); None where its province has no such place (a
        small province its unit fills): the marker then stands beside the province's name."""
        key = (self.unit_size, self.label_factor)
        known = self._marker_cache.get(key)
        if known is None:
            from .label_layout import GEOMETRY, layout_key

            stored_key = layout_key(self._layout_identity(), ("markers", *key), self.sceneRect())
            known = _stored(GEOMETRY.get(stored_key),
                            lambda stored: {space: None if p is None else _point(p) for space, p in stored.items()})
            if known is None:
                gap = self.unit_size * 0.08
                spot = token_extent("A", self.unit_size).adjusted(-gap, -gap, gap, gap)  # (a fleet: the fitting)
                r = self._marker_radius()
                spots = [spot.translated(point) for point in self.unit_spots().values()]
                known = {space: _clear_point(QPointF(*self.geometry.centre_point(space)), r, spots,
                                             self.art.outline(space))
                         for space in self.centre_items}
                GEOMETRY.put(stored_key, {space: None if p is None else [p.x(), p.y()] for space, p in known.items()})
            self._marker_cache[key] = known
        return known

    def _marker_radius(self) -> float:
        """How far a marker is drawn around its middle (with its light edge)."""
        return CentreItem.RADIUS * 1.45 * 1.15 * self.label_factor + 1.2 * self.label_factor

    def _marker_side(self, space: str) -> float | None:
        """The side of its name a supply-centre marker stands on (1: right) when it stands beside
        the name; None for one standing on its own (:meth:`_marker_points`)."""
        if space not in self.centre_items or self._marker_points().get(space) is not None:
            return None
        return 1.0

    # -- spaces ------------------------------------------------------------------------------

    def space_path(self, space: str) -> QPainterPath:
        path = self._paths.get(space)
        if path is None:
            path = self._paths[space] = path_from_geometry(self.geometry.polygon(space))
        return path

    def _known_anchor(self, space: str) -> QPointF | None:
        """The space's unit anchor, or None for a space units never stand in (Switzerland)."""
        has = getattr(self.geometry, "has_anchor", None)
        if has is not None and not has(space):
            return None
        try:
            x, y = self.geometry.unit_anchor(space)
        except KeyError:
            return None
        return QPointF(x, y)

    def anchor(self, location: str) -> QPointF:
        """Where a unit in ``location`` is drawn: the art's spot, moved where a unit there would
        cover its centre's marker or touch a neighbour's unit (:meth:`unit_spots`)."""
        spots = self.unit_spots()
        point = spots.get(location)
        if point is None:
            point = spots.get(province_of(location))
        if point is not None:
            return QPointF(point)
        try:
            x, y = self.geometry.unit_anchor(location)
        except KeyError:
            x, y = self.geometry.unit_anchor(province_of(location))
        return QPointF(x, y)

    def set_hover(self, space: str | None) -> None:
        if space == self.hovered:
            return
        self.hovered = space
        if space is None:
            self.hover_item.setVisible(False)
        else:
            self.hover_item.show_space(space, self.space_path(space))
            self.hover_item.setVisible(True)

    def set_lit(self, spaces: Iterable[str]) -> None:
        """Light the spaces (or split coasts, ``stp/nc``) a click may choose now."""
        lit = frozenset(spaces)
        if lit == self.lit:
            return
        self.lit = lit
        for space, item in self._lit_items.items():
            if space not in lit:
                item.setVisible(False)
        for space in sorted(lit):
            known = self._lit_items.get(space)
            if known is None:
                known = self._lit_items[space] = HighlightItem("lit", Z_LIT, palette.LIT_FILL, palette.LIT_EDGE, 2.2)
                known.show_space(space, self.space_path(space))
                self.addItem(known)
            known.setVisible(True)

    def set_selected_unit(self, province: str | None) -> None:
        self.selected_province = province
        for prov, item in self.unit_items.items():
            item.set_selected(prov == province and province not in self.displaced_items)
        for prov, item in self.displaced_items.items():
            item.set_selected(prov == province)

    def unit_item_at(self, point: QPointF) -> UnitItem | None:
        """The unit drawn under ``point`` (displaced units first, then the topmost)."""
        # the units' own bounds and shapes, not a search of the whole scene (which asks each of
        # its 200 items, names and centres too, for its bounds); units are placed, never turned
        for items in (self.displaced_items, self.unit_items):
            for item in reversed(items.values()):
                local = point - item.pos()
                if item.isVisible() and item.boundingRect().contains(local) and item.contains(local):
                    return item
        return None

    # -- pictures ----------------------------------------------------------------------------

    def show_picture_when_sized(self, picture: Callable[[], BoardPicture]) -> None:
        """Draw the picture ``picture()`` makes: now, if a view has given the scene its scale
        (:meth:`set_view_scale`), else at the first scale it is given.  The units' size and the
        names' places depend on the scale, which a window learns only as it is laid out on screen:
        drawn before, the whole board was drawn twice as the window opened (5 ms of its start).
        Until then the scene holds no units; orders shown meanwhile are in ``picture()``."""
        if self.view_scale > 0 or self.picture is not None:
            self._first_picture = None
            self.show_picture(picture(), unless_drawn=True)
        else:
            self._first_picture = picture

    def show_picture(self, picture: BoardPicture, *, unless_drawn: bool = False) -> None:
        """Draw a whole picture: units, ownership, orders, results.  ``unless_drawn``: not if
        the scene shows that very picture at the same sizes already (the window is told of
        several changes at once as it opens; a caller that moved an item itself, as the sandbox's
        drag does, draws again without it)."""
        self._first_picture = None  # (a picture drawn is the first one)
        drawn_for = (picture, self.unit_size, self.letter_px, self.label_factor)
        if unless_drawn and drawn_for == self._drawn_for:
            return
        self._drawn_for = drawn_for
        self.picture = picture
        state = picture.state
        size = self.unit_size
        letter = self._letter_drawn = self.letter_px
        # a unit drawn the same as before keeps its item (and the picture Qt cached of it)
        old_units, old_displaced = self.unit_items, self.displaced_items
        self.unit_items = {}
        self.displaced_items = {}
        displaced = {d.province: d for d in picture.displaced}
        for prov, unit in state.units.items():
            if prov in displaced and displaced[prov].unit == unit:
                continue
            item = old_units.pop(prov, None)
            if item is None or item.unit != unit or item.size != size or item.letter_px != letter:
                if item is not None:
                    self.removeItem(item)
                item = UnitItem(unit, size=size, letter=letter)
                self.addItem(item)
            item.setPos(self.anchor(unit.location))
            tip = self._unit_tip(unit)
            if item.toolTip() != tip:
                item.setToolTip(tip)
            self.unit_items[prov] = item
        for item in list(old_units.values()):
            self.removeItem(item)
        self._show_owners(state.owners)
        placed = self._labels_placed_for
        self._place_labels()  # (names and markers first: a dislodged unit is placed clear of them)
        if placed == self._labels_placed_for:
            self._fit_names_to_units()  # (the same layout: fitted to the units standing now)
        self._show_displaced(picture, old_displaced, size, letter)
        powers = set(self.order_items) | {o.power for o in picture.orders}
        for power in sorted(powers):
            self._draw_orders(power, [o for o in picture.orders if o.power == power])
        for mark in self.mark_items:
            self.removeItem(mark)
        self.mark_items = []
        for prov in sorted(picture.standoffs):
            bounce = BounceItem(prov, f"standoff in {self._name(prov)}: nobody moved in", self.unit_scale)
            bounce.setPos(self.anchor(prov))
            self.addItem(bounce)
            self.mark_items.append(bounce)
        self.set_selected_unit(self.selected_province)  # kept items too: selected only if still chosen
        self.picture_drawn.emit()

    def _show_displaced(self, picture: BoardPicture, old: dict[str, UnitItem], size: float, letter: int) -> None:
        """Draw the dislodged units, each beside its space clear of what is drawn already."""
        by_whom = {r.order.province: r.dislodged_by or "" for r in picture.results.values()
                   if r.dislodged and isinstance(r.order, UnitOrder)}
        taken = self._drawn_rects() if picture.displaced else []  # (the names' outlines: measured only if needed)
        # a dislodged unit is drawn a little smaller than the units standing (its red ring makes it
        # as wide): it has to find room beside its space among them
        size = round(size * DISPLACED_RATIO)
        for d in picture.displaced:
            attacker = by_whom.get(d.province, "") or (d.attacker_from or "")
            moved = old.pop(d.province, None)
            if (moved is None or moved.unit != d.unit or moved.size != size or moved.dislodged_by != attacker
                    or moved.letter_px != min(letter, math.floor(size * LETTER_MAX_RATIO))):
                if moved is not None:
                    self.removeItem(moved)
                moved = UnitItem(d.unit, displaced=True, size=size, dislodged_by=attacker,
                                 letter=min(letter, math.floor(size * LETTER_MAX_RATIO)))
                self.addItem(moved)
            point = self.displaced_point(d.unit.location, taken, moved.token_rect())
            moved.setPos(point)
            taken.append(moved.token_rect().translated(point))
            tip = self._unit_tip(d.unit) + " (dislodged"
            tip += f" by the attack from {self._name(attacker)})" if attacker else ")"
            if moved.toolTip() != tip:
                moved.setToolTip(tip)
            self.displaced_items[d.province] = moved
        for item in old.values():
            self.removeItem(item)

    def _drawn_rects(self) -> list[QRectF]:
        """What is drawn on the board now that a dislodged unit must not cover: names, markers, units."""
        rects = [item.mapRectToScene(item.text_rect()) for item in self.label_items.values()]
        rects += [item.mapRectToScene(item.token_rect()) for item in self.centre_items.values()]
        rects += [item.mapRectToScene(item.token_rect()) for item in self.unit_items.values()]
        return rects

    def displaced_point(self, location: str, taken: Iterable[QRectF] = (), extent: QRectF | None = None) -> QPointF:
        """Where a dislodged unit is drawn: beside its space's spot, the nearest of the places
        around it (rings of growing distance) that is inside its own province and covers nothing
        of ``taken``; failing that inside its province covering the least."""
        anchor = self.anchor(location)
        outline = self.art.outline(province_of(location))
        s = self.unit_size
        if extent is None:
            extent = drawn_extent("F", s, displaced=True)
        taken = list(taken)
        best: tuple[int, QPointF] | None = None
        for ring in (1.25, 1.5, 1.8, 2.1, 2.5, 3.0, 3.5, 4.2):
            for i in range(40):
                a = math.pi * 2 * (i + 0.5 * (ring > 1.4)) / 40 - math.pi / 4
                point = anchor + QPointF(math.cos(a) * ring * s, math.sin(a) * ring * s * 0.8)
                box = extent.translated(point)
                # covering nothing inside its province is best; then covering nothing just outside it
                covered = sum(2 for r in taken if r.intersects(box)) + (0 if _inside(outline, point) else 1)
                if covered == 0:
                    return point
                if best is None or covered < best[0]:
                    best = (covered, point)
        return best[1] if best is not None else anchor + QPointF(0.8 * s, -0.8 * s)

    def show_orders(self, power: str, orders: Iterable[Order], illegal: Iterable[Order] = ()) -> None:
        """Redraw one power's orders only (the others are untouched)."""
        if self.picture is None:
            return
        orders = tuple(orders)
        self._drawn_for = None  # the picture drawn is no longer a whole one
        keep = tuple(o for o in self.picture.orders if o.power != power) + orders
        bad = {k for k in self.picture.illegal if k[0] != power} | {_order_key(o) for o in illegal}
        self.picture = BoardPicture(self.picture.state, keep, self.picture.results, self.picture.displaced,
                                    self.picture.standoffs, frozenset(bad))
        self._draw_orders(power, list(orders))

    def order_items_of(self, power: str | None = None) -> list[OrderItem]:
        items = self.order_items.values() if power is None else [self.order_items.get(power, [])]
        return [i for group in items for i in group if isinstance(i, OrderItem)]

    def _draw_orders(self, power: str, orders: list[Order]) -> None:
        for old in self.order_items.pop(power, []):
            self.removeItem(old)
        items: list[QGraphicsItem] = []
        assert self.picture is not None
        moves = {o.province: o for o in self.picture.orders if isinstance(o, (Move, Retreat))}
        for order in orders:
            item = self._order_item(order, moves)
            if item is not None:
                self.addItem(item)
                items.append(item)
        self.order_items[power] = items

    def _unit_point(self, location: str) -> QPointF:
        """Where the unit now standing (or waiting displaced) in ``location`` is drawn."""
        prov = province_of(location)
        if prov in self.displaced_items:
            return self.displaced_items[prov].pos()
        if prov in self.unit_items:
            return self.unit_items[prov].pos()
        return self.anchor(location)

    def _order_item(self, order: Order, moves: Mapping[str, Order]) -> QGraphicsItem | None:
        assert self.picture is not None
        key = _order_key(order)
        result = self.picture.results.get(key)
        outcome = result.outcome if result is not None else None
        illegal = key in self.picture.illegal
        failed = illegal or (outcome is not None and outcome is not Outcome.SUCCESS)
        # a dislodged unit carries its own mark (on the unit, beside its space): its order gets no cross
        crossed = failed and not (result is not None and result.dislodged)
        tip = self._order_tip(order, result, illegal)
        size = self.unit_size
        k = self.unit_scale
        half = size * 0.55
        if isinstance(order, (Move, Retreat)):
            path = self._move_path(order)
            head = _arrow_head(path, 12.0 * k, 8.0 * k)
            cross = path.pointAtPercent(0.5) if crossed else None
            return OrderItem(order, path, "move", head=head, outcome=outcome, illegal=illegal,
                             cross_at=cross, tooltip=tip, scale=k)
        if isinstance(order, Hold):
            centre = self._unit_point(order.location)
            ring = QRectF(centre.x() - size * 0.85, centre.y() - size * 0.85, size * 1.7, size * 1.7)
            return OrderItem(order, QPainterPath(), "hold", ring=ring, outcome=outcome, illegal=illegal,
                             cross_at=QPointF(ring.right(), ring.top()) if crossed else None, tooltip=tip, scale=k)
        if isinstance(order, SupportHold):
            src = self._unit_point(order.location)
            tgt = self._unit_point(order.target)
            a, b = _shorten(src, tgt, half, size * 0.95)
            path = _bent_path(a, b, 0.0)
            ring = QRectF(tgt.x() - size * 0.95, tgt.y() - size * 0.95, size * 1.9, size * 1.9)
            return OrderItem(order, path, "support", ring=ring, outcome=outcome, illegal=illegal,
                             cross_at=path.pointAtPercent(0.5) if crossed else None, tooltip=tip, scale=k)
        if isinstance(order, (SupportMove, Convoy)):
            src = self._unit_point(order.location)
            tgt = self._unit_point(order.target)
            dst = self.anchor(order.destination)
            # end on the supported (or convoyed) move's arrow: its drawn curve if there is one
            target_move = moves.get(province_of(order.target))
            if (target_move is not None and isinstance(target_move, Move)
                    and province_of(target_move.destination) == province_of(order.destination)):
                end = self._move_path(target_move).pointAtPercent(0.55)
            else:
                end = tgt + (dst - tgt) * 0.55
            a, _ = _shorten(src, end, half, 0)
            path = QPainterPath(a)
            path.lineTo(end)
            style = "support" if isinstance(order, SupportMove) else "convoy"
            head = _arrow_head(path, 9.0 * k, 6.5 * k) if style == "support" else _diamond(end, 6.0 * k)
            return OrderItem(order, path, style, head=head, outcome=outcome, illegal=illegal,
                             cross_at=path.pointAtPercent(0.5) if crossed else None, tooltip=tip, scale=k)
        if isinstance(order, (Remove, Disband)):
            mark = MarkItem(tip, k)
            mark.setPos(self._unit_point(order.location))
            return mark
        if isinstance(order, Build):
            kind = order.unit_kind or "A"
            ghost = UnitItem(Unit(order.power, kind, order.location), ghost=True, size=size, letter=self.letter_px)
            ghost.setPos(self.anchor(order.location))
            ghost.setZValue(Z_MARKS)
            ghost.setToolTip(tip)
            return ghost
        return None

    def _move_path(self, order: Move | Retreat) -> QPainterPath:
        """The line a move (or retreat) arrow follows: along its convoy's seas if it went by sea.

        The line leaves the unit's edge and stops short of the destination's unit, but its shaft
        is never shorter than :data:`MIN_SHAFT` plus a head, however close the two spaces are.
        """
        size = self.unit_size
        k = self.unit_scale
        half = size * 0.55
        src = self._unit_point(order.location)
        dst = self.anchor(order.destination)
        occupied = province_of(order.destination) in self.unit_items
        end_gap = half * (1.15 if occupied else 0.35)
        route = self.convoy_route(order) if isinstance(order, Move) else ()
        if route:
            points = [src, *(self._unit_point(sea) for sea in route), dst]
            a, _ = _shorten(points[0], points[1], half, 0)
            _, b = _shorten(points[-2], points[-1], 0, end_gap)
            return _smooth_path([a, *points[1:-1], b])
        minimum = (MIN_SHAFT + 12.0) * k
        prov = province_of(order.location)
        item = self.displaced_items.get(prov) or self.unit_items.get(prov)
        start_rect = item.drawn_rect() if item is not None else drawn_extent("A", size)
        target = self.unit_items.get(province_of(order.destination))
        end_rect = target.drawn_rect() if target is not None else QRectF()
        length = QLineF(src, dst).length()
        if length > 1e-6:
            ux, uy = (dst.x() - src.x()) / length, (dst.y() - src.y()) / length
            out = QLineF(src, _edge_point(src, ux, uy, start_rect, 0)).length()
            into = QLineF(dst, _edge_point(dst, -ux, -uy, end_rect, 0)).length()
            if length - out - into >= minimum:
                a, b = _ends_with_shaft(src, dst, max(half, out), max(end_gap, into), minimum)
                return _bent_path(a, b, 0.10)
        # neighbours whose units nearly touch (Lvp-Yor, Ber-Kie): a straight arrow would lie under
        # them; it leaves its unit's side and bows out round both, seen in the open
        return _bowed_path(src, dst, start_rect, end_rect, size)

    def convoy_route(self, order: Move) -> tuple[str, ...]:
        """The seas (in order) of the fleets that carried (or, before adjudication, are to carry) the army.

        After adjudication, the route in the move's result; otherwise read from the convoy
        orders of the same picture (after adjudication only those that succeeded); a move
        without convoy orders (or over land) has no route.
        """
        assert self.picture is not None
        result = self.picture.results.get(_order_key(order))
        if result is not None and result.route:  # the adjudicator's record of the way it went
            return result.route
        src, dst = province_of(order.location), province_of(order.destination)
        board = self.picture.state.board
        convoys = [o for o in self.picture.orders if isinstance(o, Convoy)
                   and province_of(o.target) == src and province_of(o.destination) == dst]
        if not convoys:
            return ()
        if self.picture.results:
            carried = [o for o in convoys if (r := self.picture.results.get(_order_key(o))) is not None
                       and r.outcome is Outcome.SUCCESS]
            convoys = carried or convoys
        seas = {o.province for o in convoys}
        if not board.is_sea(src) and dst in board.sea_neighbours(src) and not seas:
            return ()
        return board.convoy_chain(src, dst, seas)

    # -- text --------------------------------------------------------------------------------

    def _name(self, prov: str) -> str:
        space = self.picture.state.board.spaces.get(prov) if self.picture else None
        return space.name if space else prov

    def _unit_tip(self, unit: Unit) -> str:
        board = self.picture.state.board if self.picture else None
        power = board.power(unit.power).name if board and unit.power in board.power_ids else unit.power
        kind = "Army" if unit.kind == "A" else "Fleet"
        return f"{power} {kind.lower()} in {self._location_name(unit.location)}"

    def _location_name(self, loc: str) -> str:
        prov, _, coast = loc.partition("/")
        return f"{self._name(prov)} ({coast})" if coast else self._name(prov)

    def _order_tip(self, order: Order, result: OrderResult | None, illegal: bool) -> str:
        text = format_order(order)
        if result is not None:
            return f"{text}: {result.reason}"
        if illegal:
            return f"{text}: illegal, the unit will hold"
        return text


def _inside(outline: QPainterPath, point: QPointF) -> bool:
    return outline.isEmpty() or outline.contains(point)


def separate_spots(anchors: Mapping[str, QPointF], extent: QRectF, inside: Callable[[str, QPointF], bool],
                   markers: Mapping[str, QPointF] | None = None, radius: float = 0.0) -> dict[str, QPointF]:
    """``anchors`` (unit spots by location): a spot on its own province's supply-centre marker
    (``markers``, circles of ``radius``) moved off it where it can, then those of different
    provinces whose ``extent`` around them overlap pushed apart, a little at a time, each only as
    far as its province lets it go (a spot that would leave it stays and the other moves)."""
    spots = {loc: QPointF(p) for loc, p in anchors.items()}
    names = sorted(spots)
    for loc in names:
        centre = (markers or {}).get(loc.split("/")[0])
        if centre is not None:
            spots[loc] = _off_marker(loc, spots[loc], centre, extent, radius, inside)
    w, h = extent.width(), extent.height()
    for _ in range(40):
        moved = False
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                if a.split("/")[0] == b.split("/")[0]:
                    continue  # (coasts of one province never hold two units)
                pa, pb = spots[a], spots[b]
                dx, dy = pb.x() - pa.x(), pb.y() - pa.y()
                over_x, over_y = w - abs(dx), h - abs(dy)
                if over_x <= 0 or over_y <= 0:
                    continue
                if over_x * h < over_y * w:  # the shorter way apart: across or along
                    step = QPointF((over_x / 2 + 0.5) * (1 if dx >= 0 else -1), 0)
                else:
                    step = QPointF(0, (over_y / 2 + 0.5) * (1 if dy >= 0 else -1))
                moved |= _push(spots, a, b, step, inside)
        if not moved:
            break
    return spots


def _off_marker(loc: str, spot: QPointF, centre: QPointF, extent: QRectF, radius: float,
                inside: Callable[[str, QPointF], bool]) -> QPointF:
    """``spot`` moved the least way (left, right, up or down) that clears a marker at ``centre``
    and stays in its province, or where it was."""
    box = QRectF(centre.x() - radius, centre.y() - radius, 2 * radius, 2 * radius)
    if not extent.translated(spot).intersects(box):
        return spot
    moves = [QPointF(box.right() - (spot.x() + extent.left()) + 1, 0),
             QPointF(box.left() - (spot.x() + extent.right()) - 1, 0),
             QPointF(0, box.bottom() - (spot.y() + extent.top()) + 1),
             QPointF(0, box.top() - (spot.y() + extent.bottom()) - 1)]
    for move in sorted(moves, key=lambda m: abs(m.x()) + abs(m.y())):
        if inside(loc.split("/")[0], spot + move):
            return spot + move
    return spot


def _push(spots: dict[str, QPointF], a: str, b: str, step: QPointF, inside: Callable[[str, QPointF], bool]) -> bool:
    """Move ``a`` back by ``step`` and ``b`` on by it, each only if it stays in its province
    (one that cannot: the other takes its share too)."""
    na, nb = spots[a] - step, spots[b] + step
    ok_a, ok_b = inside(a.split("/")[0], na), inside(b.split("/")[0], nb)
    if ok_a and ok_b:
        spots[a], spots[b] = na, nb
        return True
    if ok_a and inside(a.split("/")[0], spots[a] - step * 2):
        spots[a] = spots[a] - step * 2
        return True
    if ok_b and inside(b.split("/")[0], spots[b] + step * 2):
        spots[b] = spots[b] + step * 2
        return True
    return False


_T = TypeVar("_T")


def _point(xy: Any) -> QPointF:
    """A point stored as [x, y] (an error for anything else)."""
    x, y = xy
    return QPointF(float(x), float(y))


def _stored(value: Any, read: Callable[[Any], _T]) -> _T | None:
    """``read(value)``, or None for no value or one that is not what ``read`` reads (a cache file
    from elsewhere or damaged costs the time to work it out again, nothing more)."""
    if value is None:
        return None
    try:
        return read(value)
    except (TypeError, ValueError, KeyError, AttributeError):
        return None


def _gap(a: QRectF, b: QRectF) -> float:
    """The distance between two rectangles (0 when they touch or overlap)."""
    dx = max(0.0, max(a.left(), b.left()) - min(a.right(), b.right()))
    dy = max(0.0, max(a.top(), b.top()) - min(a.bottom(), b.bottom()))
    return math.hypot(dx, dy)


def _clear_move(rect: QRectF, taken: list[QRectF], bounds: QRectF, marker: QRectF | None, *, reach: int = 15,
                accept: Callable[[QRectF], bool] | None = None) -> QPointF | None:
    """The shortest move (rings of growing distance, in steps of a third of ``rect``'s height) that
    takes ``rect`` (and ``marker``, moved with it) clear of every rectangle of ``taken`` and
    inside ``bounds`` (and that ``accept`` accepts); None if none within ``reach`` steps does."""
    h = rect.height()
    far = reach * h / 3 + (marker.width() + marker.height() if marker is not None else 0.0)
    area = rect.adjusted(-far, -far, far, far)
    taken = [t for t in taken if t.intersects(area)]  # (only what the moves can reach)
    for step in range(1, reach + 1):
        distance = step * h / 3
        count = 8 + 4 * step
        for i in range(count):
            a = math.pi * 2 * i / count
            move = QPointF(distance * math.cos(a), distance * math.sin(a) * 0.8)
            moved = rect.translated(move)
            boxes = [moved] if marker is None else [moved, marker.translated(move)]
            if all(bounds.contains(b) for b in boxes) and not any(b.intersects(t) for b in boxes for t in taken) \
                    and (accept is None or accept(moved)):
                return move
    return None


def _clear_point(home: QPointF, r: float, spots: list[QRectF], outline: QPainterPath) -> QPointF | None:
    """``home``, or the nearest point around it (rings of growing radius) where a circle of
    radius ``r`` is clear of every rectangle of ``spots`` and inside ``outline``; None if none is."""
    def clear(p: QPointF) -> bool:
        box = QRectF(p.x() - r, p.y() - r, 2 * r, 2 * r)
        return not any(box.intersects(s) for s in spots)

    if clear(home):
        return home
    for step in range(1, 16):
        distance = step * r * 0.6
        for i in range(24):
            a = math.pi * 2 * i / 24
            p = QPointF(home.x() + distance * math.cos(a), home.y() + distance * math.sin(a))
            if clear(p) and _inside(outline, p):
                return p
    return None


def _arrow_head(path: QPainterPath, length: float, half_width: float) -> QPolygonF:
    end = path.pointAtPercent(1.0)
    before = path.pointAtPercent(0.97) if path.length() > 0 else end
    dx, dy = end.x() - before.x(), end.y() - before.y()
    norm = math.hypot(dx, dy) or 1.0
    ux, uy = dx / norm, dy / norm
    base = QPointF(end.x() - ux * length, end.y() - uy * length)
    left = QPointF(base.x() - uy * half_width, base.y() + ux * half_width)
    right = QPointF(base.x() + uy * half_width, base.y() - ux * half_width)
    return QPolygonF([end, left, right])


def _diamond(at: QPointF, r: float) -> QPolygonF:
    return QPolygonF([QPointF(at.x(), at.y() - r), QPointF(at.x() + r, at.y()), QPointF(at.x(), at.y() + r),
                      QPointF(at.x() - r, at.y())])


__all__ = [
    "BoardPicture", "BounceItem", "CentreItem", "LabelItem", "MapScene", "MarkItem", "OrderItem", "UnitItem",
    "current_picture", "orders_picture", "path_from_geometry", "results_picture",
]
