"""Pictures and handouts: the board as PNG, SVG and PDF pages, and printable order sheets.

A *page* is the board drawn by :class:`MapScene` with, around it, the phase's name and a legend
of the orders and what became of them (read from the engine's result records).  One page goes to
a PNG or an SVG (Qt's ``QSvgGenerator``); any number go to a PDF, each starting a new sheet of
paper (Qt's ``QPdfWriter``).  An *order sheet* is a PDF page per power, for tables that write their orders on
paper: the power's name and colour, the phase, and a line per unit (per dislodged unit, with its
retreats; per build or removal owed, with the free home centres) with room to write the order.

A PDF is laid out for paper (A4 or Letter, portrait or landscape: by default the one in which
the map spans the whole printable width): a title line (the game and the phase), the map at the
full width, then the orders with their results, or with ``explanations`` every result explained
with its rule as the explanation panel shows it, in two columns flowing over as many pages as they
need.  In an SVG the province names are ``<text>`` (a browser's font list, with fallbacks), so a
browser or an editor shows and finds them as words.

Every file is made in memory and then put in place whole (a temporary file and a rename): a full
disk never leaves a truncated file.  What is drawn is what the caller hands in: the callers keep
the secrecy rules (unrevealed hot-seat orders are never in a picture they pass).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

from PySide6.QtCore import (QBuffer, QByteArray, QIODevice, QLocale, QMarginsF, QPointF, QRect, QRectF, QSize,
                            Qt)
from PySide6.QtGui import (QColor, QFont, QFontMetricsF, QImage, QPageLayout, QPageSize, QPainter, QPdfWriter,
                           QPen, QTextDocument)
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsItem

from ...engine.board import Board
from ...engine.orders import UnitOrder
from ...engine.results import OrderResult, Outcome
from ...engine.state import ADJUSTMENT, MOVEMENT, RETREAT, GameState
from ...engine.validation import retreat_destinations
from ...io.notation import format_order, location_label
from ...io.output import OutputError, is_stdout, write_output
from . import palette
from .map_art import LabelSpec
from .map_scene import BoardPicture, MapScene

#: the formats a page can be written in, by file extension
FORMATS = ("png", "svg", "pdf")

RESULT_WORDS = {Outcome.SUCCESS: "succeeds", Outcome.FAILURE: "fails", Outcome.ILLEGAL: "illegal",
                Outcome.VOID: "void"}
RESULT_COLOURS = {Outcome.SUCCESS: QColor("#1B6E20"), Outcome.FAILURE: QColor("#B00020"),
                  Outcome.ILLEGAL: QColor("#B00020"), Outcome.VOID: QColor("#8A6D00")}
INK = QColor("#1A1A1A")
GREY = QColor("#555555")


class ExportError(Exception):
    """The file cannot be made or written; the message is one line for the user."""


def format_of(path: Path) -> str:
    """The format chosen by ``path``'s extension (png, svg or pdf; the standard output: png).
    Raises ExportError."""
    if is_stdout(path):
        return "png"
    ext = path.suffix.lower().lstrip(".")
    if ext not in FORMATS:
        raise ExportError(f"{path.name}: the picture's name must end in .png, .svg or .pdf")
    return ext


# -- what a page says ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LegendLine:
    """One order on a page: its text, and after adjudication the result and why."""

    text: str
    outcome: Outcome | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class LegendBlock:
    """A power's orders on a page."""

    power: str
    name: str
    lines: tuple[LegendLine, ...]


@dataclass(frozen=True, slots=True)
class Page:
    """One page: the board picture, its title (the phase) and a subtitle (a case name, a note)."""

    picture: BoardPicture
    title: str
    subtitle: str = ""
    #: the game's name (a file's name), for a PDF's title line
    game: str = ""
    #: every result of the phase's adjudication (the explanations read the supports and rivals
    #: they name from these); None for a phase not adjudicated
    adjudication: tuple[OrderResult, ...] | None = None

    def legend(self) -> list[LegendBlock]:
        return legend_of(self.picture)

    @property
    def heading(self) -> str:
        """The title line: the game and the phase."""
        return f"{self.game} — {self.title}" if self.game else self.title


def page_for(picture: BoardPicture, subtitle: str = "", *, game: str = "",
             adjudication: Sequence[OrderResult] | None = None) -> Page:
    """A page for ``picture`` titled with its phase (and "results" once adjudicated);
    ``adjudication`` is every result of that phase's adjudication (for its explanations), None
    if the phase shown is not adjudicated."""
    label = picture.state.phase.label
    return Page(picture, f"{label} — results" if picture.has_results else label, subtitle, game,
                tuple(adjudication) if adjudication is not None else None)


def legend_of(picture: BoardPicture) -> list[LegendBlock]:
    """The orders of ``picture`` by power, with their results and reasons when it has them."""
    board = picture.state.board
    blocks: list[LegendBlock] = []
    for pid in board.power_ids:
        orders = [o for o in picture.orders if o.power == pid]
        if not orders:
            continue
        lines: list[LegendLine] = []
        for order in sorted(orders, key=lambda o: o.location if isinstance(o, UnitOrder) else "~"):
            key = (order.power, order.province if isinstance(order, UnitOrder) else "")
            result = picture.results.get(key)
            if result is None:
                lines.append(LegendLine(format_order(order)))
                continue
            reason = result.reason
            if result.dislodged and result.code != "dislodged":
                reason += f"; dislodged (by the unit from {location_label(result.dislodged_by or '')})"
            lines.append(LegendLine(format_order(order), result.outcome, reason))
        blocks.append(LegendBlock(pid, board.power(pid).name, tuple(lines)))
    return blocks


# -- drawing a page -----------------------------------------------------------------------------


#: the pages' own text (titles, legends, sheets): not the map's family, whose glyphs Qt shares
#: between painters (text drawn in it first would change how the next map's names come out)
PAGE_FONT = "DejaVu Sans Condensed"


def _font(pixels: float, *, bold: bool = False) -> QFont:
    font = QFont(PAGE_FONT)
    font.setPixelSize(max(1, round(pixels)))
    font.setBold(bold)
    return font


def map_box(scene: MapScene, target: QRectF, *, top: bool = False) -> QRectF:
    """Where the board of ``scene`` lands in ``target``: aspect kept, centred (at the top with ``top``)."""
    source = scene.sceneRect()
    scale = min(target.width() / source.width(), target.height() / source.height())
    w, h = source.width() * scale, source.height() * scale
    return QRectF(target.x() + (target.width() - w) / 2,
                  target.y() if top else target.y() + (target.height() - h) / 2, w, h)


#: a screen's pixels per inch, what the window's sizes of units and names are meant for
SCREEN_DPI = 96.0


def paint_map(painter: QPainter, scene: MapScene, target: QRectF, *, top: bool = False,
              names: list[LabelSpec] | None = None, dpi: float = SCREEN_DPI) -> None:
    """The whole board of ``scene`` drawn into ``target`` (aspect kept, centred; at the top with
    ``top``), units and labels sized for the picture, the board art drawn from the SVG itself.
    ``dpi``: the painter's pixels per inch (paper: units and names as large as a screen's window
    of the same inches shows them).  With ``names`` the province names are not painted but added
    to that list, placed in the painter's coordinates (an SVG writes them as text)."""
    source = scene.sceneRect()
    box = map_box(scene, target, top=top)
    scale = box.width() / source.width()
    hover = scene.hover_item.isVisible()
    scene.hover_item.setVisible(False)
    view_scale = scene.view_scale
    scene.set_view_scale(scale * SCREEN_DPI / dpi)
    direct = scene.board_item.direct
    scene.board_item.direct = True
    # every item drawn afresh, as shapes: no cached pixmaps (a PDF or SVG keeps the text and units
    # as vectors, and a picture does not depend on what was drawn before it)
    cached = [(item, item.cacheMode()) for item in scene.items()
              if item.cacheMode() != QGraphicsItem.CacheMode.NoCache]
    for item, _mode in cached:
        item.setCacheMode(QGraphicsItem.CacheMode.NoCache)
    hidden = []
    if names is not None:
        for space, label in scene.label_items.items():
            if not label.isVisible():
                continue
            names.append(_place_name(space, label, painter, box, source, scale))
            label.setVisible(False)
            hidden.append(label)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    scene.render(painter, box, source, Qt.AspectRatioMode.KeepAspectRatio)
    painter.restore()
    for label in hidden:
        label.setVisible(True)
    for item, mode in cached:
        item.setCacheMode(mode)
    scene.board_item.direct = direct
    scene.set_view_scale(view_scale)
    scene.hover_item.setVisible(hover)


def _place_name(space: str, label: object, painter: QPainter, box: QRectF, source: QRectF,
                scale: float) -> LabelSpec:
    """A label item's name placed on the page (the painter's coordinates): drawn, as the item
    draws its outline, centred on the item's position with the baseline 0.35 of the size below."""
    from .map_scene import LabelItem

    assert isinstance(label, LabelItem)
    spec = label.spec
    pixels = max(1, round(spec.size * label.factor))  # the size LabelItem.path_at draws
    pos = label.pos()
    on_page = painter.transform().map(QPointF(box.left() + (pos.x() - source.left()) * scale,
                                              box.top() + (pos.y() + 0.35 * pixels - source.top()) * scale))
    size = pixels * scale * painter.transform().m22()
    # the name as drawn on the page: the middle of its baseline and its size in the page's units
    lines = tuple(label.text.split("\n")) if "\n" in label.text else ()  # a name the map breaks
    return replace(spec, space=space, x=on_page.x(), y=on_page.y(), size=size, lines=lines)


def _legend_rows(blocks: Sequence[LegendBlock]) -> list[tuple[str, object]]:
    """The legend as rows: ("power", block), ("order", line), ("reason", line)."""
    rows: list[tuple[str, object]] = []
    for block in blocks:
        rows.append(("power", block))
        for line in block.lines:
            rows.append(("order", line))
            if line.reason and line.outcome is not Outcome.SUCCESS:
                rows.append(("reason", line))
    return rows


def _wrapped_height(metrics: QFontMetricsF, text: str, width: float) -> float:
    return metrics.boundingRect(QRectF(0, 0, width, 1e6), int(Qt.TextFlag.TextWordWrap), text).height()


def paint_legend(painter: QPainter, rect: QRectF, blocks: Sequence[LegendBlock], base: float,
                 columns: int = 1) -> None:
    """The orders and results in ``rect``, in ``columns`` columns, in the largest size (up to
    ``base`` pixels) that fits."""
    rows = _legend_rows(blocks)
    if not rows:
        painter.setFont(_font(base))
        painter.setPen(GREY)
        painter.drawText(rect, int(Qt.TextFlag.TextWordWrap), "No orders.")
        return
    gap = base * 1.5
    width = (rect.width() - gap * (columns - 1)) / columns
    size = base
    while size > base * 0.3:
        if _flow(rows, width, size, rect.height(), columns) is not None:
            break
        size *= 0.92
    flowed = _flow(rows, width, size, rect.height(), columns) or [rows]
    for i, column in enumerate(flowed):
        _draw_legend(painter, QRectF(rect.left() + i * (width + gap), rect.top(), width, rect.height()), column, size)


def _flow(rows: list[tuple[str, object]], width: float, size: float, height: float,
          columns: int) -> list[list[tuple[str, object]]] | None:
    """``rows`` shared out into at most ``columns`` columns of ``height`` (a power's heading never
    left alone at the foot of a column), or None if they do not fit."""
    out: list[list[tuple[str, object]]] = [[]]
    used = 0.0
    for i, row in enumerate(rows):
        h = _legend_height([row], width, size)
        follow = _legend_height([rows[i + 1]], width, size) if row[0] == "power" and i + 1 < len(rows) else 0.0
        if used + h + follow > height and out[-1]:
            out.append([])
            used = 0.0
            if len(out) > columns:
                return None
        if used + h > height:
            return None
        out[-1].append(row)
        used += h
    return out


def _row_fonts(size: float) -> dict[str, QFont]:
    return {"power": _font(size * 1.1, bold=True), "order": _font(size, bold=True), "reason": _font(size * 0.86),
            "word": _font(size * 0.9, bold=True)}


def _legend_height(rows: list[tuple[str, object]], width: float, size: float) -> float:
    fonts = _row_fonts(size)
    total = 0.0
    for kind, item in rows:
        metrics = QFontMetricsF(fonts[kind])
        text = item.text if isinstance(item, LegendLine) and kind == "order" else _row_text(kind, item)
        indent = 0.0 if kind == "power" else size * (0.8 if kind == "order" else 1.6)
        total += _wrapped_height(metrics, text, width - indent) + (size * 0.5 if kind == "power" else size * 0.12)
    return total


def _row_text(kind: str, item: object) -> str:
    if kind == "power":
        assert isinstance(item, LegendBlock)
        return item.name
    assert isinstance(item, LegendLine)
    if kind == "reason":
        return item.reason
    word = f"   {RESULT_WORDS[item.outcome]}" if item.outcome is not None else ""
    return item.text + word


def _draw_legend(painter: QPainter, rect: QRectF, rows: list[tuple[str, object]], size: float) -> None:
    fonts = _row_fonts(size)
    y = rect.top()
    wrap = int(Qt.TextFlag.TextWordWrap)
    for kind, item in rows:
        if kind == "power":
            assert isinstance(item, LegendBlock)
            y += size * 0.4
            r = size * 0.42
            painter.setPen(QPen(INK, max(1.0, size * 0.06)))
            painter.setBrush(palette.power_colour(item.power))
            painter.drawEllipse(QPointF(rect.left() + r, y + size * 0.62), r, r)
            painter.setFont(fonts["power"])
            box = QRectF(rect.left() + 2.6 * r, y, rect.width() - 2.6 * r, 1e6)
            used = painter.boundingRect(box, wrap, item.name)
            painter.setPen(INK)
            painter.drawText(box, wrap, item.name)
            y += used.height() + size * 0.1
            continue
        indent = size * (0.8 if kind == "order" else 1.6)
        box = QRectF(rect.left() + indent, y, rect.width() - indent, 1e6)
        if kind == "order":
            assert isinstance(item, LegendLine)
            painter.setFont(fonts["order"])
            painter.setPen(INK)
            used = painter.boundingRect(box, wrap, item.text)
            painter.drawText(box, wrap, item.text)
            if item.outcome is not None:
                after = painter.boundingRect(box, int(Qt.AlignmentFlag.AlignLeft), item.text)
                painter.setFont(fonts["word"])
                painter.setPen(RESULT_COLOURS[item.outcome])
                painter.drawText(QPointF(after.right() + size * 0.6, after.top() + QFontMetricsF(fonts["order"])
                                         .ascent()), RESULT_WORDS[item.outcome])
        else:
            painter.setFont(fonts[kind])
            painter.setPen(GREY)
            text = _row_text(kind, item)
            used = painter.boundingRect(box, wrap, text)
            painter.drawText(box, wrap, text)
        y += used.height() + size * 0.12


def paint_page(painter: QPainter, rect: QRectF, scene: MapScene, page: Page, *,
               names: list[LabelSpec] | None = None) -> None:
    """``page`` drawn into ``rect``: the title above, the board, and the legend beside it (or below
    it when the page is taller than wide).  ``names``: see :func:`paint_map`."""
    scene.show_picture(page.picture)
    painter.save()
    painter.fillRect(rect, QColor("#FFFFFF"))
    unit = min(rect.width(), rect.height())
    margin = unit * 0.025
    inner = rect.adjusted(margin, margin, -margin, -margin)
    title_px = unit * 0.036
    painter.setPen(INK)
    painter.setFont(_font(title_px, bold=True))
    title_h = QFontMetricsF(painter.font()).height()
    painter.drawText(QRectF(inner.left(), inner.top(), inner.width(), title_h),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), page.title)
    top = inner.top() + title_h
    if page.subtitle:
        painter.setFont(_font(title_px * 0.55))
        painter.setPen(GREY)
        sub_h = QFontMetricsF(painter.font()).height()
        painter.drawText(QRectF(inner.left(), top, inner.width(), sub_h),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), page.subtitle)
        top += sub_h
    top += margin * 0.5
    body = QRectF(inner.left(), top, inner.width(), inner.bottom() - top)
    source = scene.sceneRect()
    aspect = source.width() / source.height()
    base = unit * 0.022
    # the legend beside the map or below it, whichever leaves the map larger
    beside_w = min(body.height() * aspect, body.width() * 0.7)
    below_h = min(body.width() / aspect, body.height() * 0.7)
    if beside_w / aspect >= below_h:
        map_rect = QRectF(body.left(), body.top(), beside_w, body.height())
        legend_rect = QRectF(body.left() + beside_w + margin, body.top(), body.width() - beside_w - margin,
                             body.height())
        columns = max(1, int(legend_rect.width() // (base * 28)))
    else:
        map_rect = QRectF(body.left(), body.top(), body.width(), below_h)
        legend_rect = QRectF(body.left(), body.top() + below_h + margin, body.width(),
                             body.height() - below_h - margin)
        columns = max(1, int(legend_rect.width() // (base * 28)))
    paint_map(painter, scene, map_rect, top=True, names=names)
    paint_legend(painter, legend_rect, page.legend(), base, columns)
    painter.restore()


# -- files ----------------------------------------------------------------------------------------

#: a PDF's resolution (its painters' pixels per inch); order sheets are A4 portrait
PDF_DPI = 300


def _painter(device: object) -> QPainter:
    painter = QPainter()
    if not painter.begin(device):  # type: ignore[arg-type]
        raise ExportError("the picture could not be drawn")
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
    return painter


def png_bytes(scene: MapScene, page: Page, size: tuple[int, int]) -> bytes:
    image = QImage(size[0], size[1], QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(QColor("#FFFFFF"))
    painter = _painter(image)
    paint_page(painter, QRectF(0, 0, size[0], size[1]), scene, page)
    painter.end()
    return encode_png(image)


def encode_png(image: QImage) -> bytes:
    """``image`` as PNG bytes.  Raises ExportError."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = image.save(buffer, "PNG")  # type: ignore[call-overload]
    buffer.close()
    if not ok:
        raise ExportError("the picture could not be encoded")
    return bytes(data.data())


#: the fonts an SVG names, each with what a browser or an editor uses where it is missing: DejaVu
#: Sans has Verdana's metrics (both come from Bitstream Vera), every system has a sans-serif
SVG_FONTS = {
    "DejaVu Sans": "'DejaVu Sans', 'Bitstream Vera Sans', Verdana, 'Liberation Sans', Arial, sans-serif",
    "DejaVu Sans Condensed": ("'DejaVu Sans Condensed', 'Liberation Sans Narrow', 'Arial Narrow', 'DejaVu Sans', "
                              "Arial, sans-serif"),
}
_FONT_FAMILY = re.compile(r'font-family="([^"]*)"')
#: a name's halo, as LabelItem draws it: light blue on the sea, cream on land (colour, opacity)
_HALOS = {True: ("#d6e8f7", 220 / 255), False: ("#fcf9f0", 225 / 255)}


def _font_list(match: re.Match[str]) -> str:
    family = match.group(1)
    if "," in family:
        return match.group(0)  # already a list (the board art's own)
    fallback = SVG_FONTS.get(family, f"'{family}', sans-serif" if family.lower() not in ("sans serif", "sans-serif")
                             else "sans-serif")
    return f'font-family="{fallback}"'


def svg_place_names(names: Sequence[LabelSpec]) -> str:
    """The province names as SVG ``<text>``, one each, centred where the map draws them, with the
    halo the map draws (a stroke painted under the letters)."""
    out = [("<g id=\"place-names\" stroke-linejoin=\"round\" text-anchor=\"middle\" "
           f"font-family=\"{SVG_FONTS['DejaVu Sans']}\">")]
    for n in names:
        halo, opacity = _HALOS[n.italic]
        style = (f' font-weight="{"bold" if n.bold else "normal"}"'
                 + (' font-style="italic"' if n.italic else ""))
        # a name the map breaks over lines: a tspan a line (the words between them still read
        # "ENGLISH CHANNEL" to a search or a screen reader)
        body = " ".join(f'<tspan x="{n.x:.2f}" y="{y:.2f}">{xml_escape(line)}</tspan>' for line, y in n.baselines()) \
            if n.lines else xml_escape(n.text)
        out.append(f'<text id="name-{xml_escape(n.space.replace("/", "-"))}" x="{n.x:.2f}" y="{n.y:.2f}" '
                   f'font-size="{n.size:.2f}"{style} fill={quoteattr(n.colour)} stroke="{halo}" '
                   f'stroke-opacity="{opacity:.2f}" stroke-width="{n.size * 0.24:.2f}" paint-order="stroke">'
                   f"{body}</text>")
    out.append("</g>")
    return "\n".join(out)


def svg_bytes(scene: MapScene, page: Page, size: tuple[int, int]) -> bytes:
    """The page as SVG: drawn by Qt's ``QSvgGenerator``, then the province names added as text
    and every font given its fallbacks."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    generator.setOutputDevice(buffer)
    generator.setSize(QSize(*size))
    generator.setResolution(round(SCREEN_DPI))  # a browser opens it at its size in pixels
    generator.setViewBox(QRect(0, 0, *size))
    generator.setTitle(page.title)
    generator.setDescription(f"Diplomacy Desktop: {page.title}")
    painter = _painter(generator)
    names: list[LabelSpec] = []
    paint_page(painter, QRectF(0, 0, size[0], size[1]), scene, page, names=names)
    painter.end()
    buffer.close()
    text = bytes(data.data()).decode("utf-8")
    text = _FONT_FAMILY.sub(_font_list, text)
    end = text.rindex("</svg>")
    return (text[:end] + svg_place_names(names) + "\n" + text[end:]).encode("utf-8")


# -- PDF ------------------------------------------------------------------------------------------

#: paper sizes by name
PAPERS = {"a4": QPageSize.PageSizeId.A4, "letter": QPageSize.PageSizeId.Letter}
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
ORIENTATIONS = ("auto", "portrait", "landscape")
#: the printable area's margin on every side (millimetres)
PDF_MARGIN_MM = 10.0
#: the title line and the subtitle (points) and the text under the map (points; on paper 9 pt
#: is a book's small print, 8 pt the least for a grey note)
TITLE_PT = 14.0
SUBTITLE_PT = 9.5
TEXT_PT = 9.0
_PT_MM = 25.4 / 72


def default_paper() -> str:
    """Letter where the system's locale measures in US units (the USA, Canada's English ...), else A4."""
    return "letter" if QLocale.system().measurementSystem() == QLocale.MeasurementSystem.ImperialUSSystem else "a4"


@dataclass(frozen=True, slots=True)
class PdfOptions:
    """How a PDF of pages is laid out: the paper, the orientation ("auto": the one in which the map
    spans the printable width and is largest) and whether each result is explained."""

    paper: str = "a4"
    orientation: str = "auto"
    explanations: bool = False

    def __post_init__(self) -> None:
        if self.paper not in PAPERS:
            raise ExportError(f"the paper is A4 or Letter, not {self.paper!r}")
        if self.orientation not in ORIENTATIONS:
            raise ExportError(f"the orientation is auto, portrait or landscape, not {self.orientation!r}")


def _title_mm(pages: Sequence[Page]) -> float:
    """About how high the title line and subtitle stand (millimetres)."""
    sub = any(p.subtitle for p in pages)
    return (TITLE_PT * 1.25 + (SUBTITLE_PT * 1.25 if sub else 0.0)) * _PT_MM + 3.0


def page_orientation(options: PdfOptions, aspect: float, title_mm: float) -> QPageLayout.Orientation:
    """The orientation for a map ``aspect`` (width / height) under a title ``title_mm`` high:
    the one asked for, or (auto) of those in which the map fits at the full printable width, the
    one where it is widest; if it fits in neither, the one where it is largest."""
    portrait, landscape = QPageLayout.Orientation.Portrait, QPageLayout.Orientation.Landscape
    if options.orientation != "auto":
        return portrait if options.orientation == "portrait" else landscape
    size = QPageSize(PAPERS[options.paper]).size(QPageSize.Unit.Millimeter)
    short, long = sorted((size.width(), size.height()))
    best: tuple[bool, float, QPageLayout.Orientation] | None = None
    for orientation, (w, h) in ((portrait, (short, long)), (landscape, (long, short))):
        w, h = w - 2 * PDF_MARGIN_MM, h - 2 * PDF_MARGIN_MM - title_mm
        full = w / aspect <= h
        width = w if full else h * aspect
        key = (full, width, orientation)
        if best is None or key[:2] > best[:2]:
            best = key
    assert best is not None
    return best[2]


def _pdf(title: str, orientation: QPageLayout.Orientation,
         paper: QPageSize.PageSizeId = QPageSize.PageSizeId.A4) -> tuple[QByteArray, QBuffer, QPdfWriter]:
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buffer)
    writer.setResolution(PDF_DPI)
    writer.setTitle(title)
    writer.setCreator("Diplomacy Desktop")
    writer.setPageLayout(QPageLayout(QPageSize(paper), orientation,
                                     QMarginsF(PDF_MARGIN_MM, PDF_MARGIN_MM, PDF_MARGIN_MM, PDF_MARGIN_MM),
                                     QPageLayout.Unit.Millimeter))
    return data, buffer, writer


def _pdf_pages(title: str, orientation: QPageLayout.Orientation, count: int,
               paint: Callable[[QPainter, QRectF, int], None]) -> bytes:
    if count < 1:
        raise ExportError("there is nothing to put on a page")
    data, buffer, writer = _pdf(title, orientation)
    painter = _painter(writer)
    rect = QRectF(writer.pageLayout().paintRectPixels(writer.resolution()))
    rect.moveTo(0, 0)
    for i in range(count):
        if i:
            writer.newPage()
        paint(painter, rect, i)
    painter.end()
    buffer.close()
    return bytes(data.data())


def _css_colour(colour: QColor) -> str:
    return colour.name()


def legend_html(page: Page) -> list[str]:
    """The orders of ``page`` with their results (and, for those that did not succeed, why), as
    rich text: one piece per power (kept together on a page where it fits)."""
    pieces = []
    for block in page.legend():
        parts = [(f"<p style='margin:0 0 2pt 0; font-size:{TEXT_PT + 2}pt'>"
                 f"<span style='color:{_css_colour(palette.power_colour(block.power))}'>●</span> "
                 f"<b>{html.escape(block.name)}</b></p>")]
        for line in block.lines:
            word = ""
            if line.outcome is not None:
                word = (f" &nbsp;<b style='color:{_css_colour(RESULT_COLOURS[line.outcome])}'>"
                        f"{RESULT_WORDS[line.outcome]}</b>")
            parts.append(f"<p style='margin:0 0 0 8pt; font-size:{TEXT_PT}pt'><b>{html.escape(line.text)}</b>{word}</p>")
            if line.reason and line.outcome is not Outcome.SUCCESS:
                parts.append(f"<p style='margin:0 0 1pt 16pt; font-size:{TEXT_PT - 0.5}pt; color:#555555'>"
                             f"{html.escape(line.reason)}</p>")
        pieces.append("".join(parts))
    if not pieces:
        pieces.append(f"<p style='font-size:{TEXT_PT}pt; color:#555555'>No orders.</p>")
    return pieces


def explanations_html(page: Page) -> list[str]:
    """Every result of ``page``'s phase explained as the explanation panel shows it (the order
    and its verdict, the reason, the strengths and supports, the rule cited), a piece each, the
    powers' names above their own; a phase not adjudicated says it has nothing to explain."""
    from ...engine.explain import explain
    from ..teach.explanations import filed_of, result_html

    if page.adjudication is None:
        return [(f"<p style='font-size:{TEXT_PT}pt; color:#555555'>This phase is not adjudicated: there are no "
                "results to explain.</p>")]
    board = page.picture.state.board
    rank = {pid: i for i, pid in enumerate(board.power_ids)}
    filed = sorted(filed_of(page.picture.orders, page.adjudication),  # by power, as the legend: a heading each
                   key=lambda r: (rank.get(r.order.power, len(rank)),
                                  r.order.location if isinstance(r.order, UnitOrder) else "~"))
    if not filed:
        return [(f"<p style='font-size:{TEXT_PT}pt; color:#555555'>No order was given in this phase and no unit "
                "was affected: there is nothing to explain.</p>")]
    pieces = []
    power = None
    for result in filed:
        ex = explain(result, page.picture.state, page.adjudication)
        head = ""
        if result.order.power != power:
            power = result.order.power
            head = (f"<p style='margin:4pt 0 3pt 0; font-size:{TEXT_PT + 3}pt'>"
                    f"<span style='color:{_css_colour(palette.power_colour(power))}'>●</span> "
                    f"<b>{html.escape(board.power(power).name)}</b></p>")
        pieces.append(head + result_html(ex, result, size=round(TEXT_PT)))
    return pieces


@dataclass(slots=True)
class _Flow:
    """Pieces of rich text poured into columns down the page, then over new pages: a piece that
    fits in a column stays whole; a longer one is cut between lines."""

    writer: QPdfWriter
    painter: QPainter
    page: QRectF
    heading: str
    columns: int = 2
    gap: float = 0.0
    x: float = 0.0
    top: float = 0.0
    y: float = 0.0
    column: int = 0
    pages: int = 0

    @property
    def width(self) -> float:
        return (self.page.width() - self.gap * (self.columns - 1)) / self.columns

    def start(self, top: float) -> None:
        """Columns begin at ``top`` on the current page."""
        self.top = self.y = top
        self.column = 0
        self.x = self.page.left()

    def _next_column(self) -> None:
        if self.column + 1 < self.columns:
            self.column += 1
            self.x = self.page.left() + self.column * (self.width + self.gap)
            self.y = self.top
            return
        self.writer.newPage()
        self.pages += 1
        self.start(self.page.top() + self._continued())

    def _continued(self) -> float:
        """A grey line on a page the text runs over to: what it continues."""
        font = _font(SUBTITLE_PT * PDF_DPI / 72)
        self.painter.setFont(font)
        self.painter.setPen(GREY)
        h = QFontMetricsF(font).height()
        self.painter.drawText(QRectF(self.page.left(), self.page.top(), self.page.width(), h),
                              int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                              f"{self.heading} (continued)")
        return h * 1.6

    def document(self, text: str) -> QTextDocument:
        doc = QTextDocument()
        doc.documentLayout().setPaintDevice(self.writer)
        font = QFont(PAGE_FONT)
        font.setPointSizeF(TEXT_PT)
        doc.setDefaultFont(font)
        doc.setDocumentMargin(0)
        doc.setHtml(text)
        doc.setTextWidth(self.width)
        return doc

    def pour(self, text: str) -> None:
        doc = self.document(text)
        height = doc.size().height()
        bottom = self.page.bottom()
        if self.y + height > bottom and height <= bottom - self.top and self.y > self.top:
            self._next_column()
        start = 0.0
        while start < height - 0.5:
            room = bottom - self.y
            end = _cut(doc, start, room) if start + room < height else height
            if end <= start:  # not one more line fits here
                self._next_column()
                continue
            self.painter.save()
            self.painter.translate(self.x, self.y - start)
            doc.drawContents(self.painter, QRectF(0, start, self.width, end - start))
            self.painter.restore()
            self.y += end - start
            start = end
            if start < height - 0.5:
                self._next_column()
        self.y += TEXT_PT * 0.7 * PDF_DPI / 72  # a line's gap between pieces


def _cut(doc: QTextDocument, start: float, room: float) -> float:
    """The lowest line bottom of ``doc`` at most ``room`` below ``start`` (where to cut it so no
    line is split); ``start`` if no whole line fits."""
    layout = doc.documentLayout()
    limit = start + room
    best = start
    block = doc.begin()
    while block.isValid():
        rect = layout.blockBoundingRect(block)
        if rect.top() > limit:
            break
        lines = block.layout()
        for i in range(lines.lineCount()):
            line = lines.lineAt(i)
            bottom = rect.top() + line.y() + line.height()
            if start < bottom <= limit:
                best = max(best, bottom)
        block = block.next()
    return best


def _paint_pdf_page(flow: _Flow, scene: MapScene, page: Page, options: PdfOptions) -> None:
    """One phase: the title line, the map across the printable width, then its orders (or their
    explanations) in columns, over the next pages if need be."""
    painter, rect = flow.painter, flow.page
    scene.show_picture(page.picture)
    flow.heading = page.heading
    px = PDF_DPI / 72
    painter.save()
    painter.setPen(INK)
    painter.setFont(_font(TITLE_PT * px, bold=True))
    metrics = QFontMetricsF(painter.font())
    title_h = metrics.height()
    # a long file name gives way ("…") before the phase does
    phase_w = metrics.horizontalAdvance(f" — {page.title}")
    heading = page.heading if metrics.horizontalAdvance(page.heading) <= rect.width() or not page.game \
        else metrics.elidedText(page.game, Qt.TextElideMode.ElideMiddle, max(0.0, rect.width() - phase_w)) \
        + f" — {page.title}"
    painter.drawText(QRectF(rect.left(), rect.top(), rect.width(), title_h),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextSingleLine),
                     heading)
    top = rect.top() + title_h
    if page.subtitle:
        painter.setFont(_font(SUBTITLE_PT * px))
        painter.setPen(GREY)
        sub_h = QFontMetricsF(painter.font()).height()
        painter.drawText(QRectF(rect.left(), top, rect.width(), sub_h),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), page.subtitle)
        top += sub_h
    top += 2.0 / 25.4 * PDF_DPI
    source = scene.sceneRect()
    height = min(rect.width() * source.height() / source.width(), rect.bottom() - top)
    box = map_box(scene, QRectF(rect.left(), top, rect.width(), height), top=True)
    paint_map(painter, scene, box, top=True, dpi=PDF_DPI)
    painter.restore()
    flow.start(box.bottom() + 4.0 / 25.4 * PDF_DPI)
    for piece in (explanations_html(page) if options.explanations else legend_html(page)):
        flow.pour(piece)


def pdf_bytes(scene: MapScene, pages: Sequence[Page], options: PdfOptions | None = None) -> bytes:
    """Every page on paper (see :class:`PdfOptions`): a phase starts a new page, with its title
    line and the map across the printable width; its orders, or its explanations, follow."""
    options = options or PdfOptions()
    if not pages:
        raise ExportError("there is nothing to put on a page")
    title = pages[0].heading if len(pages) == 1 else f"{pages[0].heading} to {pages[-1].title}"
    source = scene.sceneRect()
    orientation = page_orientation(options, source.width() / source.height(), _title_mm(pages))
    data, buffer, writer = _pdf(title, orientation, PAPERS[options.paper])
    painter = _painter(writer)
    rect = QRectF(writer.pageLayout().paintRectPixels(writer.resolution()))
    rect.moveTo(0, 0)
    flow = _Flow(writer, painter, rect, "", columns=2 if rect.width() > 5 * PDF_DPI else 1, gap=0.25 * PDF_DPI)
    for i, page in enumerate(pages):
        if i:
            writer.newPage()
        _paint_pdf_page(flow, scene, page, options)
    painter.end()
    buffer.close()
    return bytes(data.data())


def pages_bytes(scene: MapScene, pages: Sequence[Page], fmt: str, size: tuple[int, int],
                options: PdfOptions | None = None) -> bytes:
    """``pages`` in ``fmt``: a PDF takes them all; a PNG or SVG is one picture (the only page)."""
    if not pages:
        raise ExportError("there is nothing to draw")
    if fmt == "pdf":
        return pdf_bytes(scene, pages, options)
    if len(pages) != 1:
        raise ExportError(f"a {fmt.upper()} picture is one page: choose a PDF for {len(pages)} pages")
    if fmt == "svg":
        return svg_bytes(scene, pages[0], size)
    return png_bytes(scene, pages[0], size)


def write_file(path: Path, data: bytes) -> None:
    """``data`` at ``path`` whole or not at all (or on the standard output for ``-``; never over
    a device, FIFO or folder).  Raises ExportError with a one-line message."""
    try:
        write_output(path, data)
    except OutputError as exc:
        raise ExportError(str(exc)) from exc


def export_pages(scene: MapScene, pages: Sequence[Page], path: Path, size: tuple[int, int] = (2400, 1500),
                 options: PdfOptions | None = None) -> int:
    """Write ``pages`` to ``path`` in the format its extension names (a PDF laid out by
    ``options``); returns how many pages were written (a PDF's text may run over several pages
    a phase).  Raises ExportError."""
    data = pages_bytes(scene, pages, format_of(path), size, options)
    write_file(path, data)
    return pdf_page_count(data) if data.startswith(b"%PDF") else 1


def pdf_page_count(data: bytes) -> int:
    """How many pages a PDF that Qt wrote has (its page objects)."""
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", data))


# -- order sheets ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SheetLine:
    """A line to write an order on: what it is for, and what may be written (retreat options)."""

    label: str
    note: str = ""


@dataclass(frozen=True, slots=True)
class OrderSheet:
    """A power's order sheet for one phase."""

    power: str
    name: str
    phase: str
    heading: str
    lines: tuple[SheetLine, ...]
    notes: tuple[str, ...] = ()


def _space_name(board: Board, loc: str) -> str:
    prov, _, coast = loc.partition("/")
    space = board.spaces.get(prov)
    name = space.name if space is not None else location_label(prov)
    return f"{name} ({coast} coast)" if coast else name


def _unit_words(board: Board, kind: str, loc: str) -> str:
    return f"{'Army' if kind == 'A' else 'Fleet'} {_space_name(board, loc)}  ({kind} {location_label(loc)})"


def order_sheets(state: GameState) -> list[OrderSheet]:
    """A sheet for every power with something to order this phase: units to move, dislodged units
    to retreat, builds or removals owed."""
    board = state.board
    sheets: list[OrderSheet] = []
    kind = state.phase.kind
    for pid in board.power_ids:
        name = board.power(pid).name
        lines: list[SheetLine] = []
        notes: list[str] = []
        heading = ""
        if kind == MOVEMENT:
            units = sorted(state.units_of(pid), key=lambda u: u.location)
            heading = f"{len(units)} unit{'s' if len(units) != 1 else ''}: write one order for each."
            lines = [SheetLine(_unit_words(board, u.kind, u.location)) for u in units]
        elif kind == RETREAT:
            for d in sorted((d for d in state.dislodged if d.unit.power == pid), key=lambda d: d.unit.location):
                options = [location_label(x) for x in retreat_destinations(state, d.province)]
                note = ("may retreat to " + ", ".join(options) + ", or disband") if options \
                    else "no retreat open: it is disbanded"
                by = f", dislodged by the unit from {location_label(d.attacker_from)}" if d.attacker_from else ""
                lines.append(SheetLine(_unit_words(board, d.unit.kind, d.unit.location) + by, note))
            heading = f"{len(lines)} dislodged unit{'s' if len(lines) != 1 else ''}: retreat or disband each."
        elif kind == ADJUSTMENT:
            delta = state.adjustment_delta(pid)
            if delta > 0:
                free = [c for c in board.home_centres.get(pid, ())
                        if state.owners.get(c) == pid and state.unit_in(c) is None]
                n = min(delta, len(free))
                heading = (f"{delta} build{'s' if delta != 1 else ''} owed "
                           f"({state.centre_counts().get(pid, 0)} centres, {state.unit_counts().get(pid, 0)} units).")
                notes.append("Free home centres: " + (", ".join(_space_name(board, c) for c in free) or "none")
                             + ".")
                if n < delta:
                    notes.append(f"Only {n} can be built (no more free home centres); the rest are waived.")
                lines = [SheetLine(f"Build {i + 1}", "army or fleet, and where (or waive)") for i in range(n)]
            elif delta < 0:
                units = sorted(state.units_of(pid), key=lambda u: u.location)
                heading = (f"{-delta} removal{'s' if delta != -1 else ''} owed "
                           f"({state.centre_counts().get(pid, 0)} centres, {len(units)} units).")
                notes.append("Units: " + ", ".join(f"{u.kind} {location_label(u.location)}" for u in units) + ".")
                lines = [SheetLine(f"Remove {i + 1}", "which unit") for i in range(-delta)]
        if lines:
            sheets.append(OrderSheet(pid, name, state.phase.label, heading, tuple(lines), tuple(notes)))
    return sheets


def paint_order_sheet(painter: QPainter, rect: QRectF, sheet: OrderSheet) -> None:
    """One power's sheet: a band in its colour with its name and the phase, then a ruled line per
    unit (or build, removal) with what it is for printed above it."""
    painter.save()
    painter.fillRect(rect, QColor("#FFFFFF"))
    w, h = rect.width(), rect.height()
    band = QRectF(rect.left(), rect.top(), w, h * 0.09)
    colour = palette.power_colour(sheet.power)
    painter.fillRect(band, colour)
    painter.setPen(QPen(INK, max(1.0, h * 0.0012)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(band)
    pad = w * 0.03
    painter.setPen(palette.power_ink(sheet.power))
    painter.setFont(_font(h * 0.04, bold=True))
    painter.drawText(band.adjusted(pad, 0, -pad, 0), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                     sheet.name)
    painter.setFont(_font(h * 0.022, bold=True))
    painter.drawText(band.adjusted(pad, 0, -pad, 0), int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                     f"Orders for {sheet.phase}")
    y = band.bottom() + h * 0.02
    wrap = int(Qt.TextFlag.TextWordWrap)
    painter.setPen(INK)
    for text, size, bold in [(sheet.heading, 0.017, True)] + [(n, 0.014, False) for n in sheet.notes]:
        painter.setFont(_font(h * size, bold=bold))
        box = QRectF(rect.left() + pad, y, w - 2 * pad, 1e6)
        used = painter.boundingRect(box, wrap, text)
        painter.drawText(box, wrap, text)
        y += used.height() + h * 0.006
    y += h * 0.012
    footer = h * 0.06
    room = rect.bottom() - footer - y
    step = min(h * 0.07, room / max(1, len(sheet.lines)))
    label_px = min(h * 0.015, step * 0.3)
    rule = QPen(GREY, max(1.0, h * 0.0008))
    for line in sheet.lines:
        painter.setPen(INK)
        painter.setFont(_font(label_px, bold=True))
        painter.drawText(QPointF(rect.left() + pad, y + label_px), line.label)
        if line.note:
            painter.setPen(GREY)
            painter.setFont(_font(label_px * 0.85))
            painter.drawText(QRectF(rect.left() + pad, y + label_px * 1.3, w - 2 * pad, label_px * 1.3),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextSingleLine), line.note)
        painter.setPen(rule)
        base = y + step * 0.9
        painter.drawLine(QPointF(rect.left() + pad, base), QPointF(rect.right() - pad, base))
        y += step
    painter.setPen(GREY)
    painter.setFont(_font(h * 0.013))
    painter.drawText(QRectF(rect.left() + pad, rect.bottom() - footer, w - 2 * pad, footer),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                     "Signed: ______________________    Handed in at: ________    (Diplomacy Desktop order sheet)")
    painter.restore()


def order_sheets_pdf(sheets: Sequence[OrderSheet]) -> bytes:
    """The sheets, one A4 portrait page each.  Raises ExportError when no power has anything to order."""
    if not sheets:
        raise ExportError("no power has anything to order in this phase: no sheet to print")
    return _pdf_pages(f"Order sheets, {sheets[0].phase}", QPageLayout.Orientation.Portrait, len(sheets),
                      lambda painter, rect, i: paint_order_sheet(painter, rect, sheets[i]))
