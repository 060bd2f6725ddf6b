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
* the most crowded names are placed first (they have the fewest places to go);
* a name placed outside its own province gets a thin leader line to it.

The layout depends only on the sizes (not on the units standing), so it is worked out once per
size and kept (the view comes back to a few sizes): in memory, and in the user's cache folder for
the next start (:class:`LayoutMemo`, named by everything the search is given, the map's art and
this module's code; written when the application quits, as the names' images are).  No Shapely:
the art's outlines (QPainterPath) answer "inside the province" at the first paint already.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import CodeType
from typing import Any

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
    #: how much room the name's place has (distance to the nearest other name's place): the most
    #: crowded are placed first, having the fewest places to go
    room: float = 0.0


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


Box = tuple[float, float, float, float]  # left, top, right, bottom


class _Grid:
    """Boxes bucketed by cell, to find those near a box quickly (plain tuples: this runs for every
    candidate place of every name, and Qt's rectangles cost a call each through the binding)."""

    def __init__(self, cell: float) -> None:
        self.cell = cell
        self.cells: dict[tuple[int, int], list[tuple[float, float, float, float, int]]] = {}

    def add(self, box: Box, kind: int) -> None:
        c = self.cell
        entry = (*box, kind)
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                self.cells.setdefault((i, j), []).append(entry)

    def cost(self, box: Box, costs: Sequence[float]) -> float:
        """What covering the boxes under ``box`` costs (inf for a name)."""
        c = self.cell
        l, t, r, b = box
        total = 0.0
        cells = self.cells
        for i in range(int(l // c), int(r // c) + 1):
            for j in range(int(t // c), int(b // c) + 1):
                for el, et, er, eb, kind in cells.get((i, j), ()):
                    # (a box over two cells counts twice: a little more to pay, never less)
                    if el < r and l < er and et < b and t < eb:
                        total += costs[kind]
        return total


_LABEL, _UNIT, _CENTRE = 0, 1, 2
_COSTS = (math.inf, COST_UNIT, COST_CENTRE)
_OFFSETS: dict[float, list[tuple[int, int, float]]] = {}


def _offsets(w: float, h: float) -> list[tuple[int, int, float]]:
    """Moves of a name's middle, nearest first, in steps of a quarter of its width along its line
    and about half its height across; with each, its distance in heights."""
    aspect = round(w / h * 2) / 2
    steps = _OFFSETS.get(aspect)
    if steps is None:
        steps = [(dx, dy, math.hypot(dx * 0.25 * aspect, dy * 0.55)) for dx in range(-4, 5) for dy in range(-6, 7)
                 if abs(dx) % 2 == 0 or abs(dy) <= 2]
        steps.sort(key=lambda d: math.hypot(d[0] * 0.25 * aspect, d[1] * 0.55 * 1.4))
        _OFFSETS[aspect] = steps
    return steps


def _box(r: QRectF) -> Box:
    return (r.left(), r.top(), r.right(), r.bottom())


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
        grid.add((point.x() - unit * 0.78, point.y() - half - gap, point.x() + unit * 0.78, point.y() + half + gap),
                 _UNIT)
    for r in centres:
        grid.add(_box(r), _CENTRE)
    placed: dict[str, Placement] = {}
    x0, y0, x1, y1 = bounds.left() + 2, bounds.top() + 2, bounds.right() - 2, bounds.bottom() - 2
    for task in sorted(tasks, key=lambda t: (t.room, t.space)):
        best: tuple[float, QPointF, LabelForm] | None = None
        hx, hy = task.home.x(), task.home.y()
        for form in task.forms:
            if best is not None and form.penalty >= best[0]:
                break  # a shorter form cannot do better than what was found
            w, h = form.rect.width(), form.rect.height()
            start = _start(task, form, half + gap)
            sx, sy = start.x(), start.y()
            moved = math.hypot(sx - hx, sy - hy) * 0.3 / h
            fl, ft, fr, fb = _box(_footprint(form.rect, task))
            for dx, dy, distance in _offsets(w, h):
                cost = form.penalty + COST_DISTANCE * (distance + moved)
                if best is not None and cost >= best[0]:
                    break  # farther places only cost more
                mx, my = sx + dx * w * 0.25, sy + dy * h * 0.55
                box = (mx + fl, my + ft, mx + fr, my + fb)
                if box[0] < x0 or box[1] < y0 or box[2] > x1 or box[3] > y1:
                    continue
                cost += grid.cost(box, _COSTS)
                if best is not None and cost >= best[0]:
                    continue
                middle = QPointF(mx, my)
                if _outside(task, middle, h, inside):
                    cost += COST_OUTSIDE
                if best is None or cost < best[0]:
                    best = (cost, middle, form)
        if best is None:  # nowhere free (a board shrunk far below a window): the art's place
            placement = Placement(task.space, task.home, task.forms[0], None)
        else:
            _, middle, form = best
            outside = _outside(task, middle, form.rect.height(), inside)
            placement = Placement(task.space, middle, form, task.home if outside else None)
        placed[task.space] = placement
        grid.add(_box(_footprint(placement.rect, task)), _LABEL)
    return placed


def _outside(task: LabelTask, middle: QPointF, h: float, inside: Callable[[str, QPointF], bool] | None) -> bool:
    """Whether a name's middle is outside its province (near the art's place it never is: the
    outline is asked only farther away, which keeps the first layout quick)."""
    if inside is None or math.hypot(middle.x() - task.home.x(), middle.y() - task.home.y()) <= h * 1.2:
        return False
    return not inside(task.space, middle)


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







def layout_key(identity: str, sizes: tuple[float, ...], bounds: QRectF) -> str:
    """A name for one search: ``identity`` (what every search of one board is given: the art, its
    supply centres, the font and the code that measures and places, see ``MapScene``) and this
    search's sizes and bounds."""
    digest = hashlib.sha256(f"{identity}|{_CODE}|{sizes!r}|{bounds.getRect()!r}".encode())
    return digest.hexdigest()[:32]


@cache
def font_fingerprint() -> str:
    """The names' font as the machine has it (a font changed by an update changes every size;
    asked once per process)."""
    from PySide6.QtGui import QFont, QFontInfo, QFontMetricsF

    font = QFont("DejaVu Sans")
    font.setPixelSize(100)
    info = QFontInfo(font)
    metrics = QFontMetricsF(font)
    return f"{info.family()}|{info.styleName()}|{metrics.horizontalAdvance('Agwy')}|{metrics.height()}"


def _code_digest() -> str:
    """This module's compiled code (a change to the search never reads old layouts)."""
    digest = hashlib.sha256()
    module = sys.modules[__name__]
    for value in vars(module).values():
        code = getattr(value, "__code__", None)
        if code is not None and getattr(value, "__module__", None) == __name__:
            code_digest(code, digest)
    digest.update(repr((FULL, TWO_LINES, SHORT, COST_UNIT, COST_CENTRE, COST_OUTSIDE, COST_DISTANCE, MIN_PX,
                        PROJECTOR_PX, MAX_GROWTH)).encode())
    return digest.hexdigest()[:16]


def code_digest(code: CodeType, digest: Any) -> None:
    """Feed ``code`` (a function's compiled code, its nested functions too) to ``digest``: the same
    code gives the same bytes in every run (a nested code object's repr names its address)."""
    digest.update(code.co_code)
    digest.update(repr(code.co_names).encode())
    for const in code.co_consts:
        if isinstance(const, CodeType):
            code_digest(const, digest)
        else:
            digest.update(repr(const).encode())


class LayoutMemo:
    """Layouts by :func:`layout_key`, the last :attr:`keep` of them; read from and written to one
    file (JSON; a file that cannot be read is ignored and replaced)."""

    keep = 16

    def __init__(self) -> None:
        self._layouts: OrderedDict[str, dict[str, Placement]] = OrderedDict()
        self._loaded_from: Path | None = None
        #: the file read at the first look-up and written when the application quits
        self.path: Path | None = None
        self._dirty = False

    def get(self, key: str) -> dict[str, Placement] | None:
        if self.path is not None and self._loaded_from != self.path:
            self.load(self.path)
        layout = self._layouts.get(key)
        if layout is not None:
            self._layouts.move_to_end(key)
        return layout

    def put(self, key: str, layout: dict[str, Placement]) -> None:
        self._layouts[key] = layout
        self._layouts.move_to_end(key)
        while len(self._layouts) > self.keep:
            self._layouts.popitem(last=False)
        self._dirty = True

    def save(self, path: Path) -> None:
        if not self._dirty:
            return
        from .board_image import write_cache

        data = {key: [_placement_json(p) for p in layout.values()] for key, layout in self._layouts.items()}
        self._dirty = not write_cache(path, json.dumps(data, separators=(",", ":")).encode())

    def load(self, path: Path) -> int:
        self._loaded_from = path
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            got = {key: {p.space: p for p in map(_placement_from_json, items)} for key, items in data.items()}
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
            return 0
        for key, layout in got.items():
            if key not in self._layouts:
                self._layouts[key] = layout
                self._layouts.move_to_end(key, last=False)
        return len(got)


def _placement_json(p: Placement) -> list[object]:
    r = p.form.rect
    leader = None if p.leader is None else [p.leader.x(), p.leader.y()]
    return [p.space, p.middle.x(), p.middle.y(), p.form.text, [r.x(), r.y(), r.width(), r.height()],
            p.form.penalty, p.form.px, leader]


def _placement_from_json(item: list[Any]) -> Placement:
    space, mx, my, text, rect, penalty, px, leader = item
    x, y, w, h = (float(v) for v in rect)
    form = LabelForm(str(text), QRectF(x, y, w, h), float(penalty), int(px))
    end = None if leader is None else QPointF(float(leader[0]), float(leader[1]))
    return Placement(str(space), QPointF(float(mx), float(my)), form, end)


_CODE = _code_digest()
#: the application's layouts (every window's scene)
LAYOUTS = LayoutMemo()

__all__ = [
    "LAYOUTS",
    "MAX_GROWTH",
    "MIN_PX",
    "PROJECTOR_PX",
    "LabelForm",
    "LabelTask",
    "LayoutMemo",
    "Placement",
    "code_digest",
    "font_fingerprint",
    "layout_key",
    "marker_point",
    "place_labels",
    "short_name",
    "two_lines",
]
