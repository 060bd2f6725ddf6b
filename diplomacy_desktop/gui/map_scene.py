"""``MapScene``: the board, its units, centre ownership, order arrows and results.

Scene coordinates are the map SVG's user units, the same as :class:`MapGeometry`'s, so a
point from the map data is a point on the scene.  What the scene shows is a
:class:`BoardPicture`: a position, the orders to draw and (for an adjudicated phase) their
results.  The scene knows nothing about the controller; the window and the render command
build pictures and hand them over.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QPainter,
    QPainterPath,
    QPainterPathStroker,
    QPen,
    QPolygonF,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QWidget,
)

from ..engine.board import province_of
from ..engine.game import HistoryEntry
from ..engine.orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitOrder,
)
from ..engine.results import OrderResult, Outcome
from ..engine.state import MOVEMENT, RETREAT, DislodgedUnit, GameState, Unit
from ..io.notation import format_order
from . import override, palette

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

    from ..mapdata import MapGeometry
from .board_image import BoardItem

UNIT_SIZE = 25.0
DISPLACE = QPointF(UNIT_SIZE * 0.75, -UNIT_SIZE * 0.75)

Z_BOARD = 0
Z_LIT = 5
Z_HOVER = 6
Z_CENTRES = 8
Z_ARROWS = 20
Z_UNITS = 30
Z_DISPLACED = 32
Z_MARKS = 40


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
    return BoardPicture(state, tuple(orders), {}, tuple(state.dislodged), frozenset(),
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


def _shorten(a: QPointF, b: QPointF, start: float, end: float) -> tuple[QPointF, QPointF]:
    line = QLineF(a, b)
    length = line.length()
    if length <= start + end + 1:
        return a, b
    ux, uy = (b.x() - a.x()) / length, (b.y() - a.y()) / length
    return QPointF(a.x() + ux * start, a.y() + uy * start), QPointF(b.x() - ux * end, b.y() - uy * end)


# -- items ----------------------------------------------------------------------------------


class UnitItem(QGraphicsItem):
    """An army (disc) or fleet (hull) in its power's colour, with the power's letter."""

    def __init__(self, unit: Unit, *, displaced: bool = False, ghost: bool = False) -> None:
        super().__init__()
        self.unit = unit
        self.displaced = displaced
        self.ghost = ghost
        self.selected = False
        self._path = palette.unit_path(unit.kind, UNIT_SIZE)
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

    @override
    def boundingRect(self) -> QRectF:
        r = UNIT_SIZE * 0.95 + 4
        return self._path.boundingRect().united(QRectF(-r, -r, 2 * r, 2 * r))

    @override
    def shape(self) -> QPainterPath:
        return self._path

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        power = self.unit.power
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if self.selected:
            r = UNIT_SIZE * 0.95
            painter.setBrush(QColor(255, 212, 0, 90))
            painter.setPen(QPen(QColor(20, 20, 20, 220), 5.5))
            painter.drawEllipse(QPointF(0, 0), r, r)
            painter.setPen(QPen(palette.SELECTED_EDGE, 3.0))
            painter.drawEllipse(QPointF(0, 0), r, r)
        if not self.ghost:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(0, 0, 0, 70))
            painter.drawPath(self._path.translated(1.4, 1.8))
        fill = palette.power_colour(power)
        if self.ghost:
            fill.setAlpha(175)
        painter.setBrush(fill)
        pen = QPen(palette.FAILURE_MARK if self.displaced else palette.OUTLINE, 2.0 if self.displaced else 1.4)
        if self.ghost or self.displaced:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.drawPath(self._path)
        font = QFont("DejaVu Sans")
        font.setBold(True)
        font.setPixelSize(int(UNIT_SIZE * 0.62))
        painter.setFont(font)
        painter.setPen(palette.power_ink(power))
        rect = self._path.boundingRect()
        if self.unit.kind == "F":
            rect = QRectF(rect.left(), -UNIT_SIZE * 0.24, rect.width() - UNIT_SIZE * 0.2, UNIT_SIZE * 0.72)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, palette.power_letter(power))
        if self.ghost:  # a "new unit" badge
            c = QPointF(UNIT_SIZE * 0.55, -UNIT_SIZE * 0.5)
            r = UNIT_SIZE * 0.26
            painter.setPen(QPen(palette.OUTLINE, 1.2))
            painter.setBrush(QColor("#FFFFFF"))
            painter.drawEllipse(c, r, r)
            painter.setPen(QPen(QColor("#1B6E20"), 2.2))
            painter.drawLine(QPointF(c.x() - r * 0.6, c.y()), QPointF(c.x() + r * 0.6, c.y()))
            painter.drawLine(QPointF(c.x(), c.y() - r * 0.6), QPointF(c.x(), c.y() + r * 0.6))


class CentreItem(QGraphicsItem):
    """A supply-centre marker filled with its owner's colour (white when nobody owns it)."""

    RADIUS = 6.0

    def __init__(self, space: str, owner: str | None) -> None:
        super().__init__()
        self.space = space
        self.owner = owner
        self.setZValue(Z_CENTRES)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def set_owner(self, owner: str | None) -> None:
        if owner != self.owner:
            self.owner = owner
            self.update()

    @override

    @override
    def boundingRect(self) -> QRectF:
        r = self.RADIUS + 2
        return QRectF(-r, -r, 2 * r, 2 * r)

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(palette.OUTLINE, 1.6))
        painter.setBrush(palette.power_colour(self.owner) if self.owner else QColor("#FFFFFF"))
        painter.drawEllipse(QPointF(0, 0), self.RADIUS, self.RADIUS)
        if self.owner:
            painter.setPen(QPen(QColor("#FFFFFF"), 1.2))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawEllipse(QPointF(0, 0), self.RADIUS - 2.4, self.RADIUS - 2.4)


class OrderItem(QGraphicsItem):
    """One order drawn on the board: a move or retreat arrow, a support or convoy line, a hold ring.

    ``outcome`` is None before adjudication; a failed, void or illegal order is drawn dashed
    and pale with a red cross.
    """

    def __init__(self, order: Order, path: QPainterPath, style: str, *, head: QPolygonF | None = None,
                 ring: QRectF | None = None, outcome: Outcome | None = None, illegal: bool = False,
                 cross_at: QPointF | None = None, tooltip: str = "") -> None:
        super().__init__()
        self.order = order
        self.style = style  # "move", "support", "convoy", "hold", "build", "remove"
        self.path = path
        self.head = head
        self.ring = ring
        self.outcome = outcome
        self.illegal = illegal
        self.cross_at = cross_at
        self.setZValue(Z_ARROWS if style not in ("remove", "build") else Z_MARKS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        if tooltip:
            self.setToolTip(tooltip)
        stroker = QPainterPathStroker()
        stroker.setWidth(8)
        shape = stroker.createStroke(path)
        if head is not None:
            shape.addPolygon(head)
        if ring is not None:
            shape.addEllipse(ring.adjusted(-4, -4, 4, 4))
        if cross_at is not None:
            shape.addEllipse(cross_at, 8, 8)
        self._shape = shape
        self._bounds = shape.boundingRect().adjusted(-6, -6, 6, 6)

    @property
    def failed(self) -> bool:
        return self.illegal or (self.outcome is not None and self.outcome is not Outcome.SUCCESS)

    @override

    @override
    def boundingRect(self) -> QRectF:
        return self._bounds

    @override
    def shape(self) -> QPainterPath:
        return self._shape

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = palette.power_colour(self.order.power)
        failed = self.failed
        if failed:
            colour = colour.lighter(125)
            colour.setAlpha(200)
        width = {"move": 4.0, "support": 2.6, "convoy": 2.6, "hold": 2.6}.get(self.style, 2.6)
        outline = QPen(QColor(20, 20, 20, 200 if not failed else 130), width + 2.4)
        outline.setCapStyle(Qt.PenCapStyle.RoundCap)
        outline.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        pen = QPen(colour, width)
        pen.setCapStyle(Qt.PenCapStyle.RoundCap)
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        if self.style == "support":
            pen.setDashPattern([2.2, 1.4])
            outline.setDashPattern([2.2 * width / (width + 2.4), 1.4 * width / (width + 2.4)])
        elif self.style == "convoy":
            pen.setDashPattern([0.6, 1.2])
            outline.setDashPattern([0.6 * width / (width + 2.4), 1.2 * width / (width + 2.4)])
        elif failed and self.style == "move":
            pen.setDashPattern([2.5, 1.5])
            outline.setDashPattern([2.5 * width / (width + 2.4), 1.5 * width / (width + 2.4)])
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if not self.path.isEmpty():
            painter.setPen(outline)
            painter.drawPath(self.path)
            painter.setPen(pen)
            painter.drawPath(self.path)
        if self.ring is not None:
            painter.setPen(QPen(QColor(20, 20, 20, 200), width + 2.4))
            painter.drawEllipse(self.ring)
            ring_pen = QPen(colour, width)
            if self.style == "support":
                ring_pen.setDashPattern([2.2, 1.4])
            painter.setPen(ring_pen)
            painter.drawEllipse(self.ring)
        if self.head is not None:
            painter.setPen(QPen(QColor(20, 20, 20, 220), 1.4))
            painter.setBrush(colour)
            painter.drawPolygon(self.head)
        if self.cross_at is not None:
            draw_cross(painter, self.cross_at, 6.0)


def draw_cross(painter: QPainter, at: QPointF, r: float) -> None:
    pen = QPen(QColor("#FFFFFF"), 5.0)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.drawLine(QPointF(at.x() - r, at.y() - r), QPointF(at.x() + r, at.y() + r))
    painter.drawLine(QPointF(at.x() - r, at.y() + r), QPointF(at.x() + r, at.y() - r))
    pen = QPen(palette.FAILURE_MARK, 2.8)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    painter.setPen(pen)
    painter.drawLine(QPointF(at.x() - r, at.y() - r), QPointF(at.x() + r, at.y() + r))
    painter.drawLine(QPointF(at.x() - r, at.y() + r), QPointF(at.x() + r, at.y() - r))


class BounceItem(QGraphicsItem):
    """A standoff: a red burst on a province that two or more moves bounced out of."""

    def __init__(self, province: str, tooltip: str = "") -> None:
        super().__init__()
        self.province = province
        self.setZValue(Z_MARKS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        if tooltip:
            self.setToolTip(tooltip)
        star = QPolygonF()
        for i in range(16):
            r = 13.0 if i % 2 == 0 else 6.0
            a = math.pi * i / 8
            star.append(QPointF(r * math.cos(a), r * math.sin(a)))
        self._star = star

    @override

    @override
    def boundingRect(self) -> QRectF:
        return QRectF(-15, -15, 30, 30)

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#FFFFFF"), 1.5))
        painter.setBrush(QColor(200, 0, 0, 220))
        painter.drawPolygon(self._star)


class MarkItem(QGraphicsItem):
    """A red cross over a unit: removed, disbanded or destroyed."""

    def __init__(self, tooltip: str = "") -> None:
        super().__init__()
        self.setZValue(Z_MARKS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        if tooltip:
            self.setToolTip(tooltip)

    @override

    @override
    def boundingRect(self) -> QRectF:
        return QRectF(-12, -12, 24, 24)

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        draw_cross(painter, QPointF(0, 0), 9.0)


# -- the scene ------------------------------------------------------------------------------


class MapScene(QGraphicsScene):
    """The board and everything drawn on it."""

    def __init__(self, geometry: MapGeometry | Any, svg_path: Path | str, parent: object | None = None, *,
                 sharpen: bool = True) -> None:
        super().__init__(parent)  # type: ignore[arg-type]
        self.geometry = geometry
        x, y, w, h = geometry.view_box
        self.setSceneRect(QRectF(x, y, w, h))
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.board_item = BoardItem(svg_path, sharpen=sharpen)
        self.board_item.setZValue(Z_BOARD)
        vb = self.board_item.view_box
        if vb.width() > 0 and (abs(vb.width() - w) > 0.5 or abs(vb.height() - h) > 0.5 or vb.x() != x or vb.y() != y):
            raise ValueError(f"the map art ({vb.width():g}x{vb.height():g}) and the map data ({w:g}x{h:g}) differ")
        self.addItem(self.board_item)
        self._paths: dict[str, QPainterPath] = {}
        self.hover_item = QGraphicsPathItem()
        self.hover_item.setZValue(Z_HOVER)
        self.hover_item.setBrush(palette.HOVER_FILL)
        self.hover_item.setPen(QPen(palette.HOVER_EDGE, 2.0))
        self.hover_item.setVisible(False)
        self.addItem(self.hover_item)
        self.hovered: str | None = None
        self.lit: frozenset[str] = frozenset()
        self._lit_items: list[QGraphicsPathItem] = []
        self.centre_items: dict[str, CentreItem] = {}
        for sid in geometry.centre_ids:
            item = CentreItem(sid, None)
            cx, cy = geometry.centre_point(sid)
            item.setPos(cx, cy)
            self.addItem(item)
            self.centre_items[sid] = item
        self.unit_items: dict[str, UnitItem] = {}  # by province
        self.displaced_items: dict[str, UnitItem] = {}  # by province
        self.order_items: dict[str, list[QGraphicsItem]] = {}  # by power
        self.mark_items: list[QGraphicsItem] = []
        self.picture: BoardPicture | None = None
        self.selected_province: str | None = None

    # -- spaces ------------------------------------------------------------------------------

    def space_path(self, space: str) -> QPainterPath:
        path = self._paths.get(space)
        if path is None:
            path = self._paths[space] = path_from_geometry(self.geometry.polygon(space))
        return path

    def anchor(self, location: str) -> QPointF:
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
            self.hover_item.setPath(self.space_path(space))
            self.hover_item.setVisible(True)

    def set_lit(self, spaces: Iterable[str]) -> None:
        """Light the spaces (or split coasts, ``stp/nc``) a click may choose now."""
        lit = frozenset(spaces)
        if lit == self.lit:
            return
        self.lit = lit
        for item in self._lit_items:
            self.removeItem(item)
        self._lit_items = []
        for space in sorted(lit):
            item = QGraphicsPathItem(self.space_path(space))
            item.setZValue(Z_LIT)
            item.setBrush(palette.LIT_FILL)
            item.setPen(QPen(palette.LIT_EDGE, 2.2))
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            item.setData(0, space)
            self.addItem(item)
            self._lit_items.append(item)

    def set_selected_unit(self, province: str | None) -> None:
        self.selected_province = province
        for prov, item in self.unit_items.items():
            item.set_selected(prov == province and province not in self.displaced_items)
        for prov, item in self.displaced_items.items():
            item.set_selected(prov == province)

    def unit_item_at(self, point: QPointF) -> UnitItem | None:
        """The unit drawn under ``point`` (displaced units first)."""
        best: UnitItem | None = None
        for item in self.items(point):
            if isinstance(item, UnitItem) and not item.ghost:
                if item.displaced:
                    return item
                if best is None:
                    best = item
        return best

    # -- pictures ----------------------------------------------------------------------------

    def show_picture(self, picture: BoardPicture) -> None:
        """Draw a whole picture: units, ownership, orders, results."""
        self.picture = picture
        state = picture.state
        for item in list(self.unit_items.values()) + list(self.displaced_items.values()):
            self.removeItem(item)
        self.unit_items = {}
        self.displaced_items = {}
        displaced = {d.province: d for d in picture.displaced}
        for prov, unit in state.units.items():
            if prov in displaced and displaced[prov].unit == unit:
                continue
            item = UnitItem(unit)
            item.setPos(self.anchor(unit.location))
            item.setToolTip(self._unit_tip(unit))
            self.addItem(item)
            self.unit_items[prov] = item
        for d in picture.displaced:
            moved = UnitItem(d.unit, displaced=True)
            moved.setPos(self.anchor(d.unit.location) + DISPLACE)
            moved.setToolTip(self._unit_tip(d.unit) + " (dislodged)")
            self.addItem(moved)
            self.displaced_items[d.province] = moved
        for sid, centre in self.centre_items.items():
            centre.set_owner(state.owners.get(sid))
        powers = set(self.order_items) | {o.power for o in picture.orders}
        for power in sorted(powers):
            self._draw_orders(power, [o for o in picture.orders if o.power == power])
        for mark in self.mark_items:
            self.removeItem(mark)
        self.mark_items = []
        for prov in sorted(picture.standoffs):
            bounce = BounceItem(prov, f"standoff in {self._name(prov)}: nobody moved in")
            bounce.setPos(self.anchor(prov))
            self.addItem(bounce)
            self.mark_items.append(bounce)
        if self.selected_province is not None:
            self.set_selected_unit(self.selected_province)

    def show_orders(self, power: str, orders: Iterable[Order], illegal: Iterable[Order] = ()) -> None:
        """Redraw one power's orders only (the others are untouched)."""
        if self.picture is None:
            return
        orders = tuple(orders)
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
        tip = self._order_tip(order, result, illegal)
        half = UNIT_SIZE * 0.55
        if isinstance(order, (Move, Retreat)):
            src = self._unit_point(order.location)
            dst = self.anchor(order.destination)
            a, b = _shorten(src, dst, half, half * (1.15 if province_of(order.destination) in self.unit_items
                                                    else 0.4))
            path = _bent_path(a, b, 0.10)
            head = _arrow_head(path, 11.0, 7.5)
            cross = path.pointAtPercent(0.82) if failed else None
            return OrderItem(order, path, "move", head=head, outcome=outcome, illegal=illegal,
                             cross_at=cross, tooltip=tip)
        if isinstance(order, Hold):
            centre = self._unit_point(order.location)
            ring = QRectF(centre.x() - UNIT_SIZE * 0.85, centre.y() - UNIT_SIZE * 0.85,
                          UNIT_SIZE * 1.7, UNIT_SIZE * 1.7)
            return OrderItem(order, QPainterPath(), "hold", ring=ring, outcome=outcome, illegal=illegal,
                             cross_at=QPointF(ring.right(), ring.top()) if failed else None, tooltip=tip)
        if isinstance(order, SupportHold):
            src = self._unit_point(order.location)
            tgt = self._unit_point(order.target)
            a, b = _shorten(src, tgt, half, UNIT_SIZE * 0.95)
            path = _bent_path(a, b, 0.0)
            ring = QRectF(tgt.x() - UNIT_SIZE * 0.95, tgt.y() - UNIT_SIZE * 0.95, UNIT_SIZE * 1.9, UNIT_SIZE * 1.9)
            return OrderItem(order, path, "support", ring=ring, outcome=outcome, illegal=illegal,
                             cross_at=path.pointAtPercent(0.5) if failed else None, tooltip=tip)
        if isinstance(order, (SupportMove, Convoy)):
            src = self._unit_point(order.location)
            tgt = self._unit_point(order.target)
            dst = self.anchor(order.destination)
            # end on the supported (or convoyed) move's arrow: its drawn curve if there is one
            target_move = moves.get(province_of(order.target))
            if (target_move is not None and isinstance(target_move, Move)
                    and province_of(target_move.destination) == province_of(order.destination)):
                ta, tb = _shorten(tgt, self.anchor(target_move.destination), half, half)
                end = _bent_path(ta, tb, 0.10).pointAtPercent(0.6)
            else:
                end = tgt + (dst - tgt) * 0.6
            a, _ = _shorten(src, end, half, 0)
            path = QPainterPath(a)
            path.lineTo(end)
            style = "support" if isinstance(order, SupportMove) else "convoy"
            head = _arrow_head(path, 8.0, 6.0) if style == "support" else _diamond(end, 5.0)
            return OrderItem(order, path, style, head=head, outcome=outcome, illegal=illegal,
                             cross_at=path.pointAtPercent(0.5) if failed else None, tooltip=tip)
        if isinstance(order, (Remove, Disband)):
            mark = MarkItem(tip)
            mark.setPos(self._unit_point(order.location))
            return mark
        if isinstance(order, Build):
            kind = order.unit_kind or "A"
            ghost = UnitItem(Unit(order.power, kind, order.location), ghost=True)
            ghost.setPos(self.anchor(order.location))
            ghost.setZValue(Z_MARKS)
            ghost.setToolTip(tip)
            return ghost
        return None

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
    "BoardPicture", "BounceItem", "CentreItem", "MapScene", "MarkItem", "OrderItem", "UnitItem",
    "current_picture", "orders_picture", "path_from_geometry", "results_picture",
]
