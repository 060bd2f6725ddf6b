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

from ...resources import write_cache

#: names are drawn at least this many screen pixels high in a window (issue 17: 12 px at 1366x768) ...
MIN_PX = 12.0
#: ... and on the projector at least this many per 1080 lines of screen (issue 18: 20 px at 1920x1080)
PROJECTOR_PX = 20.0
#: a name never grows beyond this factor of the art's own size to reach ``min_px`` (a board shrunk
#: far below a window's size gets smaller names rather than names covering the whole board)
MAX_GROWTH = 2.8

#: what each form of a name costs (the full name is best)
FULL, TWO_LINES, SHORT = 0.0, 3.0, 6.0
#: what covering something costs (a name over another name is refused outright; over a unit or
#: a marker only where there is no other place at all)
COST_UNIT = 30.0
COST_CENTRE = 14.0
#: a name right beside another province's unit spot (read as that unit's name: issue 34)
COST_BESIDE = 8.0
COST_OUTSIDE = 10.0
#: a name whose middle stands in another land province (read as that province's name: "Bel" in
#: Munich, "Paris" in Burgundy; issue 34) costs more than covering a unit's spot
COST_FOREIGN = 40.0
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
    #: whether the province has an outline (Switzerland has none: its name is never "outside" it,
    #: so it never gets a leader line, and on the projector stays within ``leader_reach`` of its place)
    outlined: bool = True


@dataclass(frozen=True, slots=True)
class Placement:
    """Where a name went: its middle, its form and, when outside its province, the leader's end."""

    space: str
    middle: QPointF
    form: LabelForm
    leader: QPointF | None = None
    #: the side of the name its supply-centre marker stands on, when it stands beside the name
    marker_side: float = 1.0

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
        self.cells: dict[tuple[int, int], list[tuple[float, float, float, float, int, str]]] = {}

    def add(self, box: Box, kind: int, space: str = "") -> None:
        c = self.cell
        entry = (*box, kind, space)
        for i in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
            for j in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                self.cells.setdefault((i, j), []).append(entry)

    def cost(self, box: Box, costs: Sequence[float], own: str = "") -> float:
        """What covering the boxes under ``box`` costs (inf for a name); the room beside the unit
        spot of ``own`` (the name's own province) costs nothing."""
        c = self.cell
        l, t, r, b = box
        total = 0.0
        beside = 0.0
        cells = self.cells
        for i in range(int(l // c), int(r // c) + 1):
            for j in range(int(t // c), int(b // c) + 1):
                for el, et, er, eb, kind, space in cells.get((i, j), ()):
                    # (a box over two cells counts twice: a little more to pay, never less)
                    if el < r and l < er and et < b and t < eb:
                        if kind != _BESIDE:
                            total += costs[kind]
                        elif space != own:
                            beside = costs[kind]  # (beside other units: paid once)
        return total + beside


#: what a box in the grid is: the room around a name, a unit's spot, a supply-centre marker, the
#: room beside a unit's spot, a name's own letters (the projector's: see ``_SOFT_COSTS``)
_LABEL, _UNIT, _CENTRE, _BESIDE, _TEXT = 0, 1, 2, 3, 4
_COSTS = (math.inf, COST_UNIT, COST_CENTRE, COST_BESIDE, math.inf)
#: the projector's last resort: in the room around another name (each one costing this) near its
#: own province, never over its letters (before, over them a little: "Bur" over "Ruhr")
_SOFT_COSTS = (60.0, COST_UNIT, COST_CENTRE, COST_BESIDE, math.inf)
#: ... and failing that, with a leader line this many times as long (the same costs)
FARTHER = 1.5
#: the projector's passes over the names at most (see :func:`place_labels`), and its resorts
PASSES = 8
_LAST_RESORT = 4
_FARTHER_COSTS = (60.0, COST_UNIT, COST_CENTRE, COST_BESIDE, math.inf)
_OFFSETS: dict[tuple[float, int], list[tuple[int, int, float]]] = {}


def _offsets(w: float, h: float, reach: int = 1) -> list[tuple[int, int, float]]:
    """Moves of a name's middle, nearest first, in steps of a quarter of its width along its line
    and about half its height across; with each, its distance in heights.  ``reach`` 2 goes twice
    as far (for a name with no free place near its own)."""
    aspect = max(4.0, round(w / h * 2) / 2)  # (a short name moves by at least its height)
    steps = _OFFSETS.get((aspect, reach))
    if steps is None:
        steps = [(dx, dy, math.hypot(dx * 0.25 * aspect, dy * 0.55))
                 for dx in range(-4 * reach, 4 * reach + 1) for dy in range(-6 * reach, 6 * reach + 1)
                 if abs(dx) % 2 == 0 or abs(dy) <= 2]
        steps.sort(key=lambda d: math.hypot(d[0] * 0.25 * aspect, d[1] * 0.55 * 1.4))
        _OFFSETS[(aspect, reach)] = steps
    return steps


def _box(r: QRectF) -> Box:
    return (r.left(), r.top(), r.right(), r.bottom())


def place_labels(tasks: Sequence[LabelTask], *, bounds: QRectF, unit: float,
                 centres: Iterable[QRectF] = (),
                 inside: Callable[[str, QPointF], bool] | None = None,
                 anchors: Mapping[str, QPointF] | None = None,
                 spot: QRectF | None = None,
                 foreign: Callable[[str, QPointF], bool] | None = None,
                 leader_reach: float | None = None,
                 nearly_foreign: Callable[[str, QPointF], bool] | None = None) -> dict[str, Placement]:
    """Place every name (see the module's text); ``unit`` is the size of a unit (map units),
    ``spot`` what a unit covers around its spot (None: a fleet's hull ``unit`` wide) and
    ``foreign(space, point)`` whether ``point`` lies in another land province than ``space``.

    ``leader_reach`` (the projector's, issue i32): a name never stands in another province (what
    ``foreign`` says; the projector's counts the seas too) nor farther than this from the art's
    place (map units: its leader line's longest) -- such places are refused, not paid for; a name
    with no such place at all is placed by ``nearly_foreign`` instead of ``foreign`` (the projector's
    allows land in no province: Ireland), failing that a little over the room around another name,
    then with a line half as long again, and failing that as in a window (those places paid for).
    Of its passes (each placing first the names the last left with no place near their own) the
    one whose names went to the fewest and mildest of those resorts is kept."""
    first: tuple[str, ...] = ()
    tried = {first}
    best: tuple[tuple[int, ...], dict[str, Placement]] | None = None
    for _ in range(PASSES if leader_reach is not None else 1):
        stuck: dict[str, int] = {}
        placed = _place_all(tasks, bounds, unit, centres, anchors, spot, (inside, foreign, nearly_foreign),
                            leader_reach, first, stuck)
        # (the worse resorts first: as in a window, a line half as long again, over a name's room, ...)
        score = tuple(sum(level >= n for level in stuck.values()) for n in range(_LAST_RESORT, 0, -1))
        if best is None or score < best[0]:
            best = (score, placed)
        # (the projector: the names that found no place near their own placed first the next time,
        # the worst placed first, before those placed first this time)
        first = (*sorted(stuck, key=lambda s: (-stuck[s], s)), *(s for s in first if s not in stuck))
        if not stuck or first in tried:
            break
        tried.add(first)
    return best[1] if best is not None else {}


def _place_all(tasks: Sequence[LabelTask], bounds: QRectF, unit: float, centres: Iterable[QRectF],
               anchors: Mapping[str, QPointF] | None, spot: QRectF | None,
               asks: tuple[Callable[[str, QPointF], bool] | None, Callable[[str, QPointF], bool] | None,
                           Callable[[str, QPointF], bool] | None],
               leader_reach: float | None, first: tuple[str, ...], stuck: dict[str, int]) -> dict[str, Placement]:
    """:func:`place_labels`'s one pass, the names of ``first`` placed first; the names that found
    no place within ``leader_reach`` are added to ``stuck``, with the resort that placed them."""
    inside, foreign, nearly = asks
    grid = _Grid(max(40.0, unit * 2))
    half = unit * 0.5
    gap = unit * 0.06
    if spot is None:
        spot = QRectF(-unit * 0.78, -half - gap, unit * 1.56, unit + 2 * gap)
    spots = anchors if anchors is not None else {t.space: t.anchor for t in tasks if t.anchor is not None}
    near = unit * 0.3
    for name, point in spots.items():
        x, y = point.x(), point.y()
        box = (x + spot.left() - gap, y + spot.top() - gap, x + spot.right() + gap, y + spot.bottom() + gap)
        grid.add(box, _UNIT)
        grid.add((box[0] - near, box[1] - near, box[2] + near, box[3] + near), _BESIDE, name.split("/")[0])
    for r in centres:
        grid.add(_box(r), _CENTRE)
    placed: dict[str, Placement] = {}
    order = {space: i for i, space in enumerate(first)}
    # (on the projector a name without an outline, Switzerland's, first: it has no leader line to
    # say where it belongs, so it must find its place before the names around it take it)
    unmoored = leader_reach is not None
    for task in sorted(tasks, key=lambda t: (unmoored and t.outlined, order.get(t.space, len(order)), t.room,
                                             t.space)):
        placement = _place_one(task, grid, bounds, spot, gap, inside, foreign, leader_reach, stuck, nearly)
        placed[task.space] = placement
        # a little room around a placed name: two names never run together ("BelHol": issue 34)
        left, top, right, bottom = _box(_footprint(placement.rect, task, placement.marker_side))
        # (side by side, half a letter's height of room at least, or two names on one line read as
        # one word: "ParBur" at 1366x768; the projector keeps its own, tuned for its larger names)
        height = placement.form.rect.height()
        pad = height * 0.2
        across = pad if unmoored else height * 0.45
        grid.add((left - across, top - pad * 0.3, right + across, bottom + pad * 0.3), _LABEL)
        if unmoored:
            grid.add(_box(placement.rect), _TEXT)
    return placed


def _place_one(task: LabelTask, grid: _Grid, bounds: QRectF, spot: QRectF, gap: float,
               inside: Callable[[str, QPointF], bool] | None,
               foreign: Callable[[str, QPointF], bool] | None = None,
               leader_reach: float | None = None, stuck: dict[str, int] | None = None,
               nearly: Callable[[str, QPointF], bool] | None = None, costs: Sequence[float] = (),
               resort: int = 0) -> Placement:
    """The cheapest place of one name among its forms and the places around its start (a name
    with no place within ``leader_reach`` is added to ``stuck``, with the resort that placed it:
    1 land in no province, 2 the room around another name, 3 a longer line, 4 as in a window)."""
    best: tuple[float, QPointF, LabelForm, float] | None = None
    own = task.space.split("/")[0]
    sides = (task.marker_side, -task.marker_side) if task.marker > 0 else (task.marker_side,)
    for reach in (1, 2):
        if best is not None and best[0] < COST_UNIT * 0.75:
            break  # a free place near the name's own: no need to look farther
        for form in task.forms:
            if best is not None and form.penalty >= best[0]:
                break  # a shorter form cannot do better than what was found
            for side in sides:
                best = _search(task, form, side, reach, grid, bounds, spot, gap, (inside, foreign), own, best,
                               leader_reach, costs or _COSTS)
    if best is None and leader_reach is not None:
        # (the projector, no place in or near its own province: the places a window would take)
        if stuck is not None:
            stuck[task.space] = resort + 1
        if nearly is not None:
            return _place_one(task, grid, bounds, spot, gap, inside, nearly, leader_reach, stuck, costs=costs,
                              resort=1)
        if not costs:  # (in the room around another name, never over it, rather than in another province)
            return _place_one(task, grid, bounds, spot, gap, inside, foreign, leader_reach, stuck,
                              costs=_SOFT_COSTS, resort=2)
        if costs is _SOFT_COSTS:  # (then with a line half as long again: never a smaller name, issue 32)
            return _place_one(task, grid, bounds, spot, gap, inside, foreign, leader_reach * FARTHER, stuck,
                              costs=_FARTHER_COSTS, resort=3)
        return _place_one(task, grid, bounds, spot, gap, inside, foreign, stuck=stuck, resort=_LAST_RESORT)
    if best is None:  # nowhere free (a board shrunk far below a window): the art's place
        return Placement(task.space, task.home, task.forms[0], None, task.marker_side)
    _, middle, form, side = best
    outside = _outside(task, middle, form.rect.height(), inside)
    return Placement(task.space, middle, form, task.home if outside else None, side)


def _search(task: LabelTask, form: LabelForm, side: float, reach: int, grid: _Grid, bounds: QRectF, spot: QRectF,
            gap: float, asks: tuple[Callable[[str, QPointF], bool] | None, Callable[[str, QPointF], bool] | None],
            own: str, best: tuple[float, QPointF, LabelForm, float] | None, leader_reach: float | None = None,
            costs: Sequence[float] = ()) -> tuple[float, QPointF, LabelForm, float] | None:
    """The cheapest of ``best`` and the places around the name's start for ``form`` with its
    marker on ``side``; ``asks`` are :func:`place_labels`'s ``inside`` and ``foreign``, and
    ``leader_reach`` its bound (None: other provinces and distance are paid for, not refused)."""
    inside, foreign = asks
    x0, y0, x1, y1 = bounds.left() + 2, bounds.top() + 2, bounds.right() - 2, bounds.bottom() - 2
    w, h = form.rect.width(), form.rect.height()
    start = _start(task, form, spot, gap)
    sx, sy = start.x(), start.y()
    moved = math.hypot(sx - task.home.x(), sy - task.home.y()) * 0.3 / h
    fl, ft, fr, fb = _box(_footprint(form.rect, task, side))
    step = max(w, 4 * h) * 0.25
    for dx, dy, distance in _offsets(w, h, reach):
        cost = form.penalty + COST_DISTANCE * (distance + moved)
        if best is not None and cost >= best[0]:
            break  # farther places only cost more
        mx, my = sx + dx * step, sy + dy * h * 0.55
        box = (mx + fl, my + ft, mx + fr, my + fb)
        if box[0] < x0 or box[1] < y0 or box[2] > x1 or box[3] > y1:
            continue
        cost += grid.cost(box, costs or _COSTS, own)
        if (best is not None and cost >= best[0]) or (leader_reach is not None and cost == math.inf):
            continue
        middle = QPointF(mx, my)
        if _outside(task, middle, h, inside):
            if leader_reach is not None and _reach(_box(form.rect.translated(middle)), task.home) > leader_reach:
                continue  # (the projector: a leader line that long would cross other provinces)
            cost += COST_OUTSIDE + COST_DISTANCE * distance  # (a longer leader costs more)
        if leader_reach is not None and foreign is not None:
            if not task.outlined and _reach(_box(form.rect.translated(middle)), task.home) > leader_reach:
                continue  # (no leader line to say where it belongs: near its place)
            if foreign(own, middle + form.rect.center()):
                continue  # (the projector: read from across the room as that province's name)
            if best is None or cost < best[0]:
                best = (cost, middle, form, side)
            continue
        # (asked near the art's place too: a small province's name there may already stand in its
        # neighbour, and a space without an outline, Switzerland, is never "outside")
        if foreign is not None and (best is None or cost < best[0]) and foreign(own, middle + form.rect.center()):
            cost += COST_FOREIGN
        if best is None or cost < best[0]:
            best = (cost, middle, form, side)
    return best


def _reach(box: Box, point: QPointF) -> float:
    """How far ``point`` is from ``box`` (0 inside it): a leader line's length."""
    dx = max(box[0] - point.x(), 0.0, point.x() - box[2])
    dy = max(box[1] - point.y(), 0.0, point.y() - box[3])
    return math.hypot(dx, dy)


def _outside(task: LabelTask, middle: QPointF, h: float, inside: Callable[[str, QPointF], bool] | None) -> bool:
    """Whether a name's middle is outside its province (near the art's place it never is: the
    outline is asked only farther away, which keeps the first layout quick)."""
    if inside is None or math.hypot(middle.x() - task.home.x(), middle.y() - task.home.y()) <= h * 1.2:
        return False
    return not inside(task.space, middle)


def _start(task: LabelTask, form: LabelForm, spot: QRectF, gap: float) -> QPointF:
    """The art's place, moved above or below its own unit's spot (on the side the art chose)."""
    middle = task.home
    if task.anchor is None:
        return middle
    ax, ay = task.anchor.x(), task.anchor.y()
    rect = form.rect
    if middle.x() + rect.right() <= ax + spot.left() - gap or middle.x() + rect.left() >= ax + spot.right() + gap:
        return middle
    below, above = ay + spot.bottom() + gap, ay + spot.top() - gap
    if middle.y() >= ay and middle.y() + rect.top() < below:
        return QPointF(middle.x(), below - rect.top())
    if middle.y() < ay and middle.y() + rect.bottom() > above:
        return QPointF(middle.x(), above - rect.bottom())
    return middle


def _footprint(rect: QRectF, task: LabelTask, side: float) -> QRectF:
    """The name and the supply-centre marker that stands beside it (on ``side``)."""
    if task.marker <= 0:
        return rect
    r = task.marker
    x = rect.right() + r * 0.4 if side > 0 else rect.left() - 2.4 * r
    return rect.united(QRectF(x, rect.center().y() - r, 2 * r, 2 * r))


def marker_point(rect: QRectF, radius: float, side: float) -> QPointF:
    """Where a marker beside a name placed at ``rect`` stands (its centre)."""
    if side > 0:
        return QPointF(rect.right() + radius * 1.4, rect.center().y())
    return QPointF(rect.left() - radius * 1.4, rect.center().y())







def layout_key(identity: str, sizes: tuple[object, ...], bounds: QRectF) -> str:
    """A name for one search: ``identity`` (what every search of one board is given: the art, its
    supply centres, the font and the code that measures and places, see ``MapScene``) and this
    search's sizes (or whatever else one piece of the board's geometry is worked out from) and bounds."""
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
    digest.update(repr((FULL, TWO_LINES, SHORT, COST_UNIT, COST_CENTRE, COST_BESIDE, COST_OUTSIDE, COST_FOREIGN, COST_DISTANCE, MIN_PX,
                        PROJECTOR_PX, MAX_GROWTH, _COSTS, _SOFT_COSTS, FARTHER, PASSES)).encode())
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


class DiskMemo:
    """Values by key (a digest of everything they are worked out from), the last :attr:`keep` of
    them; read from and written to one file (JSON; a file that cannot be read is ignored and
    replaced).  The values are JSON as they stand; :class:`LayoutMemo` turns its own into JSON."""

    def __init__(self, keep: int = 16) -> None:
        #: how many values are kept (the last used)
        self.keep = keep
        self._values: OrderedDict[str, Any] = OrderedDict()
        self._loaded_from: Path | None = None
        #: the file read at the first look-up and written when the application quits
        self.path: Path | None = None
        self._dirty = False

    def get(self, key: str) -> Any:
        if self.path is not None and self._loaded_from != self.path:
            self.load(self.path)
        value = self._values.get(key)
        if value is not None:
            self._values.move_to_end(key)
        return value

    def put(self, key: str, value: Any) -> None:
        self._values[key] = value
        self._values.move_to_end(key)
        while len(self._values) > self.keep:
            self._values.popitem(last=False)
        self._dirty = True

    def save(self, path: Path) -> None:
        if not self._dirty:
            return
        data = {key: self._encode(value) for key, value in self._values.items()}
        self._dirty = not write_cache(path, json.dumps(data, separators=(",", ":")).encode())

    def load(self, path: Path) -> int:
        self._loaded_from = path
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            got = {key: self._decode(value) for key, value in data.items()}
        except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError):
            return 0
        for key, value in got.items():
            if key not in self._values:
                self._values[key] = value
                self._values.move_to_end(key, last=False)
        return len(got)

    def _encode(self, value: Any) -> Any:
        return value

    def _decode(self, data: Any) -> Any:
        if not isinstance(data, (list, dict)):
            raise TypeError("not a stored value")
        return data


class LayoutMemo(DiskMemo):
    """Layouts by :func:`layout_key` (see :class:`DiskMemo`)."""

    def get(self, key: str) -> dict[str, Placement] | None:
        layout: dict[str, Placement] | None = super().get(key)
        return layout

    def _encode(self, value: Any) -> Any:
        return [_placement_json(p) for p in value.values()]

    def _decode(self, data: Any) -> Any:
        return {p.space: p for p in map(_placement_from_json, data)}


def _placement_json(p: Placement) -> list[object]:
    r = p.form.rect
    leader = None if p.leader is None else [p.leader.x(), p.leader.y()]
    return [p.space, p.middle.x(), p.middle.y(), p.form.text, [r.x(), r.y(), r.width(), r.height()],
            p.form.penalty, p.form.px, leader, p.marker_side]


def _placement_from_json(item: list[Any]) -> Placement:
    space, mx, my, text, rect, penalty, px, leader, *rest = item
    x, y, w, h = (float(v) for v in rect)
    form = LabelForm(str(text), QRectF(x, y, w, h), float(penalty), int(px))
    end = None if leader is None else QPointF(float(leader[0]), float(leader[1]))
    return Placement(str(space), QPointF(float(mx), float(my)), form, end, float(rest[0]) if rest else 1.0)


_CODE = _code_digest()
#: the application's layouts (every window's scene)
LAYOUTS = LayoutMemo()
#: what else the board works out once per size and units standing (the units' spots, the markers'
#: places, the names moved clear of the units standing: ``MapScene``), JSON by key
GEOMETRY = DiskMemo(keep=64)

__all__ = [
    "GEOMETRY",
    "LAYOUTS",
    "MAX_GROWTH",
    "MIN_PX",
    "PROJECTOR_PX",
    "DiskMemo",
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
