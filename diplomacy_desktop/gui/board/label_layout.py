"""Where each province's name goes: readable size on screen, clear of other names and of units.

Every name is drawn at least ``min_px`` screen pixels high (12 in a window, about 20 on a
projector at 1080 lines), whatever the scale of the whole board on screen.  At that size the
names of small provinces side by side (the Low Countries, the Balkans, Wales, the seas between
them) no longer fit where the art put them, so each name is placed by a small greedy search:

* the candidates are the art's own place (moved off its own unit's spot), then places around it
  at growing distances, for the full name, the name on two lines (names of two words), and the
  province's short name (``Ruh``, ``ENG``), the way small boards abbreviate;
* a candidate that covers a name already placed, or leaves the board, is refused; one that
  covers a unit's spot (any space's anchor, so that names never jump as units come and go), a
  supply-centre marker or another province costs more, and so does the distance from the art's
  place and a shorter form of the name;
* the smallest provinces are placed first (they have the fewest places to go);
* a name placed outside its own province gets a thin leader line to it.

The layout depends only on the sizes (not on the units standing), so it is worked out once per
size and kept (the view comes back to a few sizes).  No Shapely: the art's outlines
(QPainterPath) answer "inside the province" at the first paint already.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF

#: names are drawn at least this many screen pixels high in a window (issue 17: 12 px at 1366x768) ...
MIN_PX = 12.0
#: ... and on the projector at least this many per 1080 lines of screen (issue 18: 20 px at 1920x1080)
PROJECTOR_PX = 20.0
#: a name never grows beyond this factor of the art's own size to reach ``min_px`` (a board shrunk
#: far below a window's size gets smaller names rather than names covering the whole board)
MAX_GROWTH = 2.8

#: what each form of a name costs (the full name is best)
FULL, TWO_LINES, SHORT = 0.0, 3.0, 6.0
#: what covering something costs (a name over another name is refused outright)
COST_UNIT = 30.0
COST_CENTRE = 12.0
COST_OUTSIDE = 10.0
#: the cost of a name's distance from the art's place, per text height
COST_DISTANCE = 2.5


@dataclass(frozen=True, slots=True)
class LabelForm:
    """One way to write a name: its text (lines split by ``\\n``) and its extent around its middle."""

    text: str
    rect: QRectF
    penalty: float
    #: the font's pixel size (map units)
    px: int = 0


@dataclass(frozen=True, slots=True)
class LabelTask:
    """A name to place."""

    space: str
    #: the art's own place of the name's middle
    home: QPointF
    forms: tuple[LabelForm, ...]
    #: the province's unit spot (None: units never stand there), and the size of a unit
    anchor: QPointF | None
    #: a supply-centre marker drawn beside the name (radius; 0 for none), on this side (+1 right, -1 left)
    marker: float = 0.0
    marker_side: float = 1.0
    #: how big the province is (the smallest are placed first)
    area: float = 0.0


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a name went: its middle, its form and, when outside its province, the leader's end."""

    space: str
    middle: QPointF
    form: LabelForm
    leader: QPointF | None = None

    @property
    def rect(self) -> QRectF:
        return self.form.rect.translated(self.middle)


def short_name(space: str, text: str, sea: bool) -> str:
    """The province's short name: its three-letter id, as boards abbreviate (``Ruh``, ``ENG``)."""
    base = space.split("/")[0]
    return base.upper() if sea or text.isupper() else base.capitalize()


def two_lines(text: str) -> str | None:
    """``text`` broken at the space nearest its middle (None for a single word)."""
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    if not spaces:
        return None
    mid = len(text) / 2
    cut = min(spaces, key=lambda i: abs(i - mid))
    return text[:cut] + "\n" + text[cut + 1:]


class _Grid:
    """Rectangles bucketed by cell, to find those near a rectangle quickly."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[tuple[QRectF, str]]] = {}

    def _keys(self, r: QRectF) -> Iterable[tuple[int, int]]:
        c = self.cell
        for i in range(math.floor(r.left() / c), math.floor(r.right() / c) + 1):
            for j in range(math.floor(r.top() / c), math.floor(r.bottom() / c) + 1):
                yield i, j

    def add(self, r: QRectF, kind: str) -> None:
        for key in self._keys(r):
            self.cells.setdefault(key, []).append((r, kind))

    def near(self, r: QRectF) -> list[tuple[QRectF, str]]:
        seen: set[int] = set()
        out = []
        for key in self._keys(r):
            for item in self.cells.get(key, ()):
                if id(item) not in seen:
                    seen.add(id(item))
                    out.append(item)
        return out


def _offsets(w: float, h: float) -> list[tuple[float, float]]:
    """Moves of a name's middle, nearest first: along its line by half widths, across by heights."""
    steps = [(dx * w * 0.25, dy * h * 0.55) for dx in range(-5, 6) for dy in range(-7, 8)]
    return sorted(set(steps), key=lambda d: math.hypot(d[0], d[1] * 1.4))


def place_labels(tasks: Sequence[LabelTask], *, bounds: QRectF, unit: float,
                 centres: Iterable[QRectF] = (),
                 inside: Callable[[str, QPointF], bool] | None = None,
                 anchors: Mapping[str, QPointF] | None = None) -> dict[str, Placement]:
    """Place every name (see the module's text); ``unit`` is the size of a unit (map units)."""
    grid = _Grid(max(40.0, unit * 2))
    half = unit * 0.5
    gap = unit * 0.06
    spots = anchors if anchors is not None else {t.space: t.anchor for t in tasks if t.anchor is not None}
    for point in spots.values():
        # a fleet's hull is the widest a unit is drawn
        grid.add(QRectF(point.x() - unit * 0.78, point.y() - half - gap, unit * 1.56, unit + 2 * gap), "unit")
    for r in centres:
        grid.add(r, "centre")
    placed: dict[str, Placement] = {}
    inner = bounds.adjusted(2, 2, -2, -2)
    for task in sorted(tasks, key=lambda t: t.area):
        best: tuple[float, Placement] | None = None
        for form in task.forms:
            if best is not None and form.penalty >= best[0]:
                break  # a shorter form cannot do better than what was found
            h = form.rect.height()
            start = _start(task, form, half + gap)
            for dx, dy in _offsets(form.rect.width(), h):
                distance = math.hypot(dx, dy) + math.hypot(start.x() - task.home.x(), start.y() - task.home.y()) * 0.3
                cost = form.penalty + COST_DISTANCE * distance / h
                if best is not None and cost >= best[0]:
                    break  # farther places only cost more
                middle = QPointF(start.x() + dx, start.y() + dy)
                rect = form.rect.translated(middle)
                foot = _footprint(rect, task)
                if not inner.contains(foot):
                    continue
                clash = False
                for other, kind in grid.near(foot):
                    if not foot.intersects(other):
                        continue
                    if kind == "label":
                        clash = True
                        break
                    cost += COST_UNIT if kind == "unit" else COST_CENTRE
                if clash or (best is not None and cost >= best[0]):
                    continue
                outside = inside is not None and not inside(task.space, middle)
                if outside:
                    cost += COST_OUTSIDE
                if best is None or cost < best[0]:
                    best = (cost, Placement(task.space, middle, form, _leader_end(task, rect) if outside else None))
        if best is None:  # nowhere free (a board shrunk far below a window): the art's place
            form = task.forms[0]
            best = (0.0, Placement(task.space, task.home, form, None))
        placement = best[1]
        placed[task.space] = placement
        grid.add(_footprint(placement.rect, task), "label")
    return placed


def _start(task: LabelTask, form: LabelForm, clearance: float) -> QPointF:
    """The art's place, moved above or below its own unit's spot (on the side the art chose)."""
    middle = task.home
    if task.anchor is None:
        return middle
    ax, ay = task.anchor.x(), task.anchor.y()
    rect = form.rect
    if abs(middle.x() - ax) >= rect.width() / 2 + clearance * 1.5:
        return middle
    if middle.y() >= ay and middle.y() + rect.top() < ay + clearance:
        return QPointF(middle.x(), ay + clearance - rect.top())
    if middle.y() < ay and middle.y() + rect.bottom() > ay - clearance:
        return QPointF(middle.x(), ay - clearance - rect.bottom())
    return middle


def _footprint(rect: QRectF, task: LabelTask) -> QRectF:
    """The name and the supply-centre marker that stands beside it."""
    if task.marker <= 0:
        return rect
    r = task.marker
    x = rect.right() + r * 0.4 if task.marker_side > 0 else rect.left() - 2.4 * r
    return rect.united(QRectF(x, rect.center().y() - r, 2 * r, 2 * r))


def marker_point(rect: QRectF, radius: float, side: float) -> QPointF:
    """Where a marker beside a name placed at ``rect`` stands (its centre)."""
    if side > 0:
        return QPointF(rect.right() + radius * 1.4, rect.center().y())
    return QPointF(rect.left() - radius * 1.4, rect.center().y())


def _leader_end(task: LabelTask, rect: QRectF) -> QPointF:
    """The point of the province a leader line from a name placed outside it ends on."""
    return task.home


__all__ = ["MAX_GROWTH", "MIN_PX", "PROJECTOR_PX", "LabelForm", "LabelTask", "Placement", "marker_point",
           "place_labels", "short_name", "two_lines"]
