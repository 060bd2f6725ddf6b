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
from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QPainterPath, QPolygonF

_PATH = re.compile(r'<path id="([a-z]{3})" class="(?:land|coast|sea)"[^>]*?\sd="([^"]+)"')
_TEXT = re.compile(r'<text id="label_([a-z_]+)"([^>]*)>([^<]*)</text>')
_ANCHOR = re.compile(r'<circle id="anchor_([a-z_]+)"[^>]*?\scx="([-\d.]+)"\s+cy="([-\d.]+)"')
_ATTR = re.compile(r'([a-z-]+)="([^"]*)"')
_TOKEN = re.compile(r"[MmLlHhVvZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LABEL_GROUPS = re.compile(r'<g id="(?:label-halos|labels)"[^>]*>.*?</g>\n?', re.DOTALL)


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

    @property
    def middle(self) -> QPointF:
        """The middle of the text (the SVG's "label point")."""
        return QPointF(self.x, self.y - 0.35 * self.size)


def outline_from_svg_path(d: str) -> QPainterPath:
    """An SVG path of straight segments (M, L, H, V, Z, absolute or relative) as a QPainterPath."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.OddEvenFill)
    tokens = _TOKEN.findall(d)
    x = y = 0.0
    start = QPointF(0, 0)
    ring: list[QPointF] = []
    command = "M"
    i = 0

    def close() -> None:
        if len(ring) > 2:
            path.addPolygon(QPolygonF(ring))
            path.closeSubpath()
        ring.clear()

    while i < len(tokens):
        tok = tokens[i]
        if tok.isalpha():
            command = tok
            i += 1
            if command in "Zz":
                close()
                x, y = start.x(), start.y()
            continue
        if command in "Mm":
            dx, dy = float(tokens[i]), float(tokens[i + 1])
            i += 2
            close()
            x, y = (x + dx, y + dy) if command == "m" else (dx, dy)
            start = QPointF(x, y)
            ring.append(start)
            command = "l" if command == "m" else "L"  # later pairs are lines
        elif command in "Ll":
            dx, dy = float(tokens[i]), float(tokens[i + 1])
            i += 2
            x, y = (x + dx, y + dy) if command == "l" else (dx, dy)
            ring.append(QPointF(x, y))
        elif command in "Hh":
            v = float(tokens[i])
            i += 1
            x = x + v if command == "h" else v
            ring.append(QPointF(x, y))
        elif command in "Vv":
            v = float(tokens[i])
            i += 1
            y = y + v if command == "v" else v
            ring.append(QPointF(x, y))
        else:  # a curve command: the map art has none; skip its numbers
            i += 1
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
            space.replace("_", "/"): QPointF(float(x), float(y)) for space, x, y in _ANCHOR.findall(text)}
        #: the SVG the board images are drawn from: everything but the labels, which the scene draws
        self.board_svg: bytes = _LABEL_GROUPS.sub("", text).encode("utf-8") if self.labels else data

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


__all__ = ["LabelSpec", "MapArt", "outline_from_svg_path"]
