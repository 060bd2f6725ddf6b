"""``MapArt``: the parts of the board SVG that the scene draws itself.

The board art (coastlines, province colours) is drawn from images of the SVG (see
:mod:`.board_image`).  Two things are drawn by the scene instead, because they change with the
game or with the size of the view:

* the outline of each province, filled in its owner's colour when it is an owned supply centre;
* the province names, sized for the view and kept clear of the units (so they are left out of
  the board images: :attr:`MapArt.board_svg` is the SVG without its label groups).

Both are read straight from the SVG text (one ``<path>`` per space, straight segments only;
one ``<text id="label_<id>">`` per space), so the first picture needs neither Shapely nor the
full map geometry.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QPainterPath, QPolygonF

_PATH = re.compile(r'<path id="([a-z]{3})" class="(?:land|coast|sea)"[^>]*?\sd="([^"]+)"')
#: the land no unit enters (Switzerland): no province, but its name's land all the same
_IMPASSABLE = re.compile(r'<path id="([a-z]{3})" class="impassable"[^>]*?\sd="([^"]+)"')
_TEXT = re.compile(r'<text id="label_([a-z_]+)"([^>]*)>([^<]*)</text>')
_ATTR = re.compile(r'([a-z-]+)="([^"]*)"')
#: one path command and what follows it up to the next; the numbers in that
_COMMAND = re.compile(r"([A-DF-Za-df-z])([^A-DF-Za-df-z]*)")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LABEL_GROUPS = re.compile(r'<g id="(?:label-halos|labels)"[^>]*>.*?</g>\n?', re.DOTALL)
#: the root element's view box
_VIEW_BOX = re.compile(r'<svg\b[^>]*?\sviewBox="([^"]+)"')
#: a circle's id and centre, as the map art writes its unit anchors (``anchor_<id>``) and centre
#: markers (``sc_<id>``): ``id`` first, ``cx`` then ``cy``
_CIRCLE = re.compile(r'<circle\s+id="((?:anchor|sc)_[a-z_]+)"[^>]*?\scx="([-+\d.eE]+)"\s+cy="([-+\d.eE]+)"')


def view_box_of(text: str) -> tuple[float, float, float, float] | None:
    """The view box the SVG ``text`` declares on its root (x, y, width, height), if it reads as
    four numbers with a width and a height."""
    found = _VIEW_BOX.search(text)
    if found is None:
        return None
    try:
        x, y, w, h = (float(v) for v in found[1].replace(",", " ").split())
    except ValueError:
        return None
    return (x, y, w, h) if w > 0 and h > 0 else None


def circles_of(text: str) -> dict[str, tuple[float, float]]:
    """The centres of the anchors' and centre markers' circles in the SVG ``text``, by SVG id
    (``anchor_stp_nc``, ``sc_par``), as written (a transform around them is not applied)."""
    return {m[1]: (float(m[2]), float(m[3])) for m in _CIRCLE.finditer(text)}


@dataclass(frozen=True, slots=True)
class LabelSpec:
    """A province name as the map art places it: ``(x, y)`` is the middle of its baseline."""

    space: str
    text: str
    x: float
    y: float
    size: float
    colour: str
    italic: bool
    bold: bool
    #: the lines the name is drawn on where the map breaks it ("ENGLISH", "CHANNEL"); () for one
    lines: tuple[str, ...] = ()

    @property
    def middle(self) -> QPointF:
        """The middle of the text (the SVG's "label point")."""
        return QPointF(self.x, self.y - 0.35 * self.size)

    def baselines(self) -> list[tuple[str, float]]:
        """Each line drawn and the height of its baseline: a name on several lines is centred on
        its middle, the lines 1.05 of the size apart (as the map draws them)."""
        lines = self.lines or (self.text,)
        step = 1.05 * self.size
        return [(line, self.y + (i - (len(lines) - 1) / 2) * step) for i, line in enumerate(lines)]


def outline_from_svg_path(d: str) -> QPainterPath:
    """An SVG path of straight segments (M, L, H, V, Z, absolute or relative) as a QPainterPath.

    Read a command at a time (its numbers in one go, relative runs summed by ``accumulate``): the
    outlines of the owned centres are read as the window opens, a few thousand points."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    x = y = 0.0
    start_x = start_y = 0.0
    xs: list[float] = []
    ys: list[float] = []

    def close() -> None:
        if len(xs) > 2:
            path.addPolygon(QPolygonF(list(map(QPointF, xs, ys))))
            path.closeSubpath()
        xs.clear()
        ys.clear()

    for command, args in _COMMAND.findall(d):
        numbers = [float(n) for n in _NUMBER.findall(args)]
        if command in "Zz":
            close()
            x, y = start_x, start_y
            continue
        if command in "Mm":
            if len(numbers) < 2:
                continue
            close()
            x, y = (x + numbers[0], y + numbers[1]) if command == "m" else (numbers[0], numbers[1])
            start_x, start_y = x, y
            xs.append(x)
            ys.append(y)
            numbers = numbers[2:]  # later pairs are lines
            command = "l" if command == "m" else "L"
        if command in "Ll":
            pairs = len(numbers) // 2
            if command == "l":
                new_x = list(accumulate(numbers[0:2 * pairs:2], initial=x))[1:]
                new_y = list(accumulate(numbers[1:2 * pairs:2], initial=y))[1:]
            else:
                new_x, new_y = numbers[0:2 * pairs:2], numbers[1:2 * pairs:2]
            if pairs:
                xs.extend(new_x)
                ys.extend(new_y)
                x, y = new_x[-1], new_y[-1]
        elif command in "Hh":
            for v in numbers:
                x = x + v if command == "h" else v
                xs.append(x)
                ys.append(y)
        elif command in "Vv":
            for v in numbers:
                y = y + v if command == "v" else v
                xs.append(x)
                ys.append(y)
        # a curve command: the map art has none; its numbers are skipped
    close()
    return path


class MapArt:
    """Province outlines and labels read from the board SVG; the SVG without its labels."""

    def __init__(self, svg_path: Path | str) -> None:
        data = Path(svg_path).read_bytes()
        #: names the art (what is drawn from it may be kept under this name)
        self.digest = hashlib.sha256(data).hexdigest()[:32]
        text = data.decode("utf-8")
        self._d: dict[str, str] = dict(_PATH.findall(text))
        self._outlines: dict[str, QPainterPath] = {}
        self._impassable: dict[str, str] = dict(_IMPASSABLE.findall(text))
        self.labels: dict[str, LabelSpec] = {}
        for space, attrs, body in _TEXT.findall(text):
            a = dict(_ATTR.findall(attrs))
            try:
                self.labels[space] = LabelSpec(
                    space.replace("_", "/"), _unescape(body.strip()), float(a["x"]), float(a["y"]),
                    float(a.get("font-size", "14")), a.get("fill", "#24221f"),
                    a.get("font-style") == "italic", a.get("font-weight") == "bold")
            except (KeyError, ValueError):
                continue  # a label the art cannot place is left out rather than drawn wrong
        #: every unit spot (split coasts too, ``stp/nc``): where names must not go
        self.anchors: dict[str, QPointF] = {
            svg_id.removeprefix("anchor_").replace("_", "/"): QPointF(x, y)
            for svg_id, (x, y) in circles_of(text).items() if svg_id.startswith("anchor_")}
        #: the SVG the board images are drawn from: everything but the labels, which the scene draws
        self.board_svg: bytes = _LABEL_GROUPS.sub("", text).encode("utf-8") if self.labels else data

    def impassable(self) -> dict[str, QPainterPath]:
        """The outlines of the land no unit enters (Switzerland), by id: no province's, but a name
        standing there reads as its name."""
        return {space: outline_from_svg_path(d) for space, d in self._impassable.items()}

    def has_outline(self, space: str) -> bool:
        return space in self._d

    def outline(self, space: str) -> QPainterPath:
        """The province's outline (empty if the art has no such province)."""
        path = self._outlines.get(space)
        if path is None:
            d = self._d.get(space)
            path = self._outlines[space] = outline_from_svg_path(d) if d else QPainterPath()
        return path


def _unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")


__all__ = ["LabelSpec", "MapArt", "circles_of", "outline_from_svg_path", "view_box_of"]
