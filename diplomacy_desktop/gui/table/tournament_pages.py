"""Pages for a tournament board, drawn with the board's own QPainter: the Move-the-pieces list
(printable), the supply-centre chart by year, and the one-page result sheet the players sign.

PySide6-Essentials has no QtCharts (it ships with PySide6-Addons, which the app does not require),
so the chart is painted here: one line per power in its colour, a year per step, the centre count
on the left axis with the victory line marked.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPageLayout, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...engine.board import Board
from ...table.pieces import PiecePlan
from ...table.results import TIE_BREAKS, BoardResult, result_sentence
from ...table.scoring import BY_KEY, SYSTEMS
from .. import override
from ..board import palette
from ..board.export import _painter, _pdf, _pdf_pages

INK = QColor("#1A1A1A")
GREY = QColor("#666666")
LIGHT = QColor("#DDDDDD")


def _font(pixels: float, *, bold: bool = False) -> QFont:
    font = QFont()
    font.setPixelSize(max(1, round(pixels)))
    font.setBold(bold)
    return font


# -- the supply-centre chart -----------------------------------------------------------------------------


def paint_centre_chart(painter: QPainter, rect: QRectF, board: Board, by_year: Mapping[int, Mapping[str, int]],
                       *, title: str = "Supply centres by year") -> None:
    """A line per power: its centres at the start and at the end of every year."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    h = rect.height()
    text_px = max(8.0, min(h * 0.05, rect.width() * 0.028))
    painter.setPen(INK)
    painter.setFont(_font(text_px * 1.15, bold=True))
    painter.drawText(QRectF(rect.left(), rect.top(), rect.width(), text_px * 1.8),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), title)
    years = sorted(by_year)
    legend_w = text_px * 7.5
    plot = QRectF(rect.left() + text_px * 2.6, rect.top() + text_px * 2.4,
                  rect.width() - text_px * 2.6 - legend_w - text_px, rect.height() - text_px * 4.6)
    top = max([board.victory_centres] + [c for y in years for c in by_year[y].values()])
    top = ((top + 4) // 5) * 5

    def at(i: int, value: float) -> QPointF:
        x = plot.left() + (plot.width() * i / max(1, len(years) - 1))
        return QPointF(x, plot.bottom() - plot.height() * value / max(1, top))

    painter.setFont(_font(text_px * 0.8))
    for v in range(0, top + 1, 5 if top > 10 else 1):
        p = at(0, v)
        painter.setPen(QPen(LIGHT, 1))
        painter.drawLine(QPointF(plot.left(), p.y()), QPointF(plot.right(), p.y()))
        painter.setPen(GREY)
        painter.drawText(QRectF(rect.left(), p.y() - text_px, text_px * 2.2, text_px * 2),
                         int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), str(v))
    # the victory line
    win = at(0, board.victory_centres)
    painter.setPen(QPen(QColor("#B00020"), max(1.0, text_px * 0.08), Qt.PenStyle.DashLine))
    painter.drawLine(QPointF(plot.left(), win.y()), QPointF(plot.right(), win.y()))
    step = max(1, len(years) // 10)
    for i, y in enumerate(years):
        if i % step and i != len(years) - 1:
            continue
        p = at(i, 0)
        painter.setPen(GREY)
        label = "start" if i == 0 else str(y)
        painter.drawText(QRectF(p.x() - text_px * 2, plot.bottom() + text_px * 0.2, text_px * 4, text_px * 1.4),
                         int(Qt.AlignmentFlag.AlignCenter), label)
    painter.setPen(QPen(INK, 1))
    painter.drawLine(plot.bottomLeft(), plot.bottomRight())
    painter.drawLine(plot.bottomLeft(), plot.topLeft())
    for n, power in enumerate(board.power_ids):
        colour = palette.power_colour(power)
        pen = QPen(colour.darker(115), max(1.5, text_px * 0.16))
        painter.setPen(pen)
        points = [at(i, by_year[y].get(power, 0)) for i, y in enumerate(years)]
        for a, b in itertools.pairwise(points):
            painter.drawLine(a, b)
        painter.setBrush(colour)
        for p in points:
            painter.drawEllipse(p, text_px * 0.18, text_px * 0.18)
        ly = plot.top() + n * text_px * 1.5
        lx = plot.right() + text_px
        painter.drawLine(QPointF(lx, ly + text_px * 0.6), QPointF(lx + text_px * 1.4, ly + text_px * 0.6))
        painter.setPen(INK)
        last = by_year[years[-1]].get(power, 0) if years else 0
        painter.setFont(_font(text_px * 0.85))
        painter.drawText(QRectF(lx + text_px * 1.7, ly, legend_w, text_px * 1.3),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         f"{board.power(power).name} {last}")
    painter.restore()


class CentreChart(QWidget):
    """The chart in a window (the end-of-game summary)."""

    def __init__(self, board: Board, by_year: Mapping[int, Mapping[str, int]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.board = board
        self.by_year = dict(by_year)
        self.setMinimumSize(420, 240)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAccessibleName("Supply-centre chart by year")

    @override
    def paintEvent(self, event: object) -> None:
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#FFFFFF"))
        paint_centre_chart(painter, QRectF(self.rect()).adjusted(8, 6, -8, -6), self.board, self.by_year)
        painter.end()


# -- Move the pieces, printed ----------------------------------------------------------------------------


@dataclass(slots=True)
class PiecesLayout:
    """Where each step of a printed list went: its page, and the box its wrapped words fill (the
    box is as tall as the words need: a long step wraps onto more lines, never cut)."""

    pages: int = 1
    #: (page, box of the words, height the words need) per step
    boxes: list[tuple[int, QRectF, float]] = field(default_factory=list)


def paint_pieces_pages(painter: QPainter, rect: QRectF, board: Board, plan: PiecePlan,
                       checked: Sequence[bool] = (), new_page: Callable[[], object] | None = None,
                       board_name: str = "") -> PiecesLayout:
    """The list on as many pages as it needs (``new_page`` starts the next one; without it, on one
    page, smaller type until it fits).  Every step's words wrap inside the page: none is cut.
    ``board_name``: the event, round and board, under the title."""
    layout = PiecesLayout()
    w, h = rect.width(), rect.height()
    pad = w * 0.05
    px = h * 0.016  # the steps' type; on one page only, smaller when the list is long
    if new_page is None and plan.steps:
        px = min(px, max(h * 0.006, (h * 0.8) / (len(plan.steps) * 2.6)))
    y = _pieces_header(painter, rect, plan, board_name)
    bottom = rect.bottom() - h * 0.07
    text_left = rect.left() + pad + px * 2.6
    text_w = rect.right() - pad - text_left
    flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
    page = 0
    for i, step in enumerate(plan.steps):
        font = _font(px, bold=step.action in ("lift", "place"))
        painter.setFont(font)
        text = f"{i + 1}. {step.text(board)}"
        need = painter.boundingRect(QRectF(text_left, 0, text_w, h), flags, text).height()
        if y + need > bottom and new_page is not None and y > rect.top() + h * 0.1:
            _pieces_footer(painter, rect)
            new_page()
            page += 1
            y = rect.top() + h * 0.04
            painter.setFont(font)
        done = i < len(checked) and checked[i]
        sq = QRectF(rect.left() + pad, y + px * 0.15, px, px)
        painter.setPen(QPen(INK, max(1.0, h * 0.001)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(sq)
        if done:
            painter.drawLine(sq.topLeft(), sq.bottomRight())
            painter.drawLine(sq.topRight(), sq.bottomLeft())
        painter.setBrush(palette.power_colour(step.power) if step.power in board.power_ids else QColor("#999999"))
        painter.drawEllipse(QPointF(sq.right() + px * 0.8, sq.center().y()), px * 0.3, px * 0.3)
        painter.setPen(INK)
        box = QRectF(text_left, y, text_w, need)
        painter.drawText(box, flags, text)
        layout.boxes.append((page, box, need))
        y += need + px * 0.45
    if plan.empty:
        painter.setFont(_font(h * 0.02))
        painter.drawText(QPointF(rect.left() + pad, y + h * 0.03), "Nothing to move: every piece stays where it is.")
    _pieces_footer(painter, rect)
    layout.pages = page + 1
    return layout


def _pieces_header(painter: QPainter, rect: QRectF, plan: PiecePlan, board_name: str = "") -> float:
    """The title, the board it is for (the event, round and board) and the note; returns where
    the steps begin."""
    w, h = rect.width(), rect.height()
    pad = w * 0.05
    painter.fillRect(rect, QColor("#FFFFFF"))
    y = rect.top() + h * 0.03
    painter.setPen(INK)
    painter.setFont(_font(h * 0.026, bold=True))
    flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
    title = f"Move the pieces \u2014 {plan.phase.label}"
    box = QRectF(rect.left() + pad, y, w - 2 * pad, h)
    used = painter.boundingRect(box, flags, title)
    painter.drawText(box, flags, title)
    y += used.height() + h * 0.01
    if board_name:  # several boards print at one event: each list says whose it is
        painter.setFont(_font(h * 0.016, bold=True))
        box = QRectF(rect.left() + pad, y, w - 2 * pad, h)
        used = painter.boundingRect(box, flags, board_name)
        painter.drawText(box, flags, board_name)
        y += used.height() + h * 0.006
    painter.setFont(_font(h * 0.013))
    note = ("Work down the list: no step puts a piece on an occupied space."
            + (" A ring of moves: lift the first piece into your hand, move the others round, put it down last."
               if plan.rings else ""))
    box = QRectF(rect.left() + pad, y, w - 2 * pad, h)
    used = painter.boundingRect(box, flags, note)
    painter.drawText(box, flags, note)
    return y + used.height() + h * 0.02


def _pieces_footer(painter: QPainter, rect: QRectF) -> None:
    w, h = rect.width(), rect.height()
    pad = w * 0.05
    painter.setPen(GREY)
    painter.setFont(_font(h * 0.013))
    painter.drawText(QRectF(rect.left() + pad, rect.bottom() - h * 0.05, w - 2 * pad, h * 0.04),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                     "The board matches: ______________________   (Diplomacy Desktop)")


def paint_pieces_page(painter: QPainter, rect: QRectF, board: Board, plan: PiecePlan,
                      checked: Sequence[bool] = ()) -> PiecesLayout:
    """The list on one page (the projector's and a picture's form): smaller type when it is long."""
    painter.save()
    try:
        return paint_pieces_pages(painter, rect, board, plan, checked)
    finally:
        painter.restore()


def pieces_pdf(board: Board, plan: PiecePlan, checked: Sequence[bool] = (), board_name: str = "") -> bytes:
    """The list as a PDF: as many A4 pages as its wrapped steps need; ``board_name`` (the event,
    round and board) under the title."""
    data, buffer, writer = _pdf(f"Move the pieces, {plan.phase.label}", QPageLayout.Orientation.Portrait)
    painter = _painter(writer)
    rect = QRectF(writer.pageLayout().paintRectPixels(writer.resolution()))
    rect.moveTo(0, 0)
    paint_pieces_pages(painter, rect, board, plan, checked, new_page=writer.newPage, board_name=board_name)
    painter.end()
    buffer.close()
    return bytes(data.data())


# -- the result sheet --------------------------------------------------------------------------------------


def _score_text(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def _signature_label(painter: QPainter, box: QRectF, label: str) -> QRectF:
    """A signer's name left of their line, wrapped onto a second line when long and smaller when
    even that does not hold it (a long name was cut at the line's start); the rectangle it took."""
    flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap)
    font = QFont(painter.font())
    used = painter.boundingRect(box, flags, label)
    while (used.width() > box.width() + 0.5 or used.height() > box.height() + 0.5) and font.pixelSize() > 4:
        font.setPixelSize(font.pixelSize() - 1)
        painter.setFont(font)
        used = painter.boundingRect(box, flags, label)
    painter.drawText(box, flags, label)
    return used


def paint_result_sheet(painter: QPainter, rect: QRectF, result: BoardResult,
                       measured: list[tuple[QRectF, QRectF]] | None = None) -> list[tuple[QRectF, QRectF]]:
    """One A4 page: the board, the result, a row per power (player, centres, year eliminated, every
    system's score), the chart, and a line for each player to sign.  Returns each signer's label's
    box and the room its words took (and, in ``measured`` when given, each heading's and table cell's: the
    room it had and the room its whole words would take)."""
    painter.save()
    painter.fillRect(rect, QColor("#FFFFFF"))
    board, o = result.board, result.outcome
    w, h = rect.width(), rect.height()
    pad = w * 0.05
    x0 = rect.left() + pad
    inner = w - 2 * pad
    y = rect.top() + h * 0.02
    painter.setPen(INK)
    painter.setFont(_font(h * 0.026, bold=True))
    head = "Board result" + (f" \u2014 {result.event}" if result.event else "")
    painter.drawText(QRectF(x0, y, inner, h * 0.04), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                     head)
    y += h * 0.04
    painter.setFont(_font(h * 0.014))
    where = ", ".join(part for part in (f"Round {result.round}" if result.round else "",
                                        f"Board {result.board_name}" if result.board_name else "",
                                        f"ended in {result.ended_label or result.ended}",
                                        f"written {result.written_at}" if result.written_at else "") if part)
    wrap = int(Qt.AlignmentFlag.AlignLeft | Qt.TextFlag.TextWordWrap)
    for line in (where, f"End: {result.end_rule}" if result.end_rule else "",
                 (f"Scored by {BY_KEY[result.event_system].name}; level scores: "
                 f"{TIE_BREAKS.get(result.tie_break, result.tie_break)}")):
        if line:
            box = QRectF(x0, y, inner, h * 0.1)
            used = painter.boundingRect(box, wrap, line)
            painter.drawText(box, wrap, line)
            y += used.height() + h * 0.004
    y += h * 0.008
    painter.setFont(_font(h * 0.018, bold=True))
    headline = result_sentence(result)
    box = QRectF(x0, y, inner, h * 0.06)
    used = painter.boundingRect(box, int(Qt.TextFlag.TextWordWrap), headline)
    painter.drawText(box, int(Qt.TextFlag.TextWordWrap), headline)
    y += used.height() + h * 0.012
    # the table: the power (with its colour), the player, centres, year eliminated, each system
    # the event's system on the sheet; every system's score on the next page and in the files
    systems = [BY_KEY[result.event_system]] if result.event_system in result.scores else []
    ranks, event_ranks = result.board_ranks(), result.event_ranks()
    cols = ["Power", "Player", "Centres", "Eliminated", "Board rank", *[s.name for s in systems], "Event rank"]
    widths = [0.13, 0.28, 0.09, 0.12, 0.12, 0.14, 0.12][: len(cols)]
    row_h = h * 0.026
    painter.setFont(_font(h * 0.011, bold=True))
    head_flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap)
    head_h = max(painter.boundingRect(QRectF(0, 0, inner * frac - h * 0.004, h), head_flags, text).height()
                 for text, frac in zip(cols, widths, strict=False))
    x = x0
    for text, frac in zip(cols, widths, strict=False):
        box = QRectF(x, y, inner * frac - h * 0.004, head_h)
        painter.drawText(box, head_flags, text)
        if measured is not None:
            measured.append((box, painter.boundingRect(box, head_flags, text)))
        x += inner * frac
    y += head_h + row_h * 0.2
    painter.setPen(QPen(INK, max(1.0, h * 0.0008)))
    painter.drawLine(QPointF(x0, y), QPointF(x0 + inner, y))
    order = sorted(o.powers, key=lambda p: (-o.count(p), -(o.eliminated.get(p) or 10_000), board.power_ids.index(p)))
    chip = h * 0.008
    cell_flags = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
    for p in order:
        cells = [board.power(p).name, result.players.get(p, "") or "\u2014", str(o.count(p)),
                 str(o.eliminated[p]) if p in o.eliminated else ""]
        cells.insert(4, ranks[p])
        cells += [_score_text(result.scores[s.key][p]) for s in systems] + [event_ranks[p]]
        # the player's name whole on the sheet they sign: wrapped when long, the row as tall as it needs
        painter.setFont(_font(h * 0.0115, bold=(o.winner == p)))
        name_box = QRectF(0, 0, inner * widths[1] - h * 0.004, h)
        row = max(row_h, painter.boundingRect(name_box, cell_flags | int(Qt.TextFlag.TextWordWrap), cells[1]).height()
                  + row_h * 0.3)
        painter.fillRect(QRectF(x0, y + row / 2 - row_h * 0.25, chip, row_h * 0.5), palette.power_colour(p))
        x = x0
        painter.setPen(INK)
        for i, (text, frac) in enumerate(zip(cells, widths, strict=False)):
            painter.setFont(_font(h * 0.0115, bold=(i == 0 or o.winner == p)))
            left = chip * 1.6 if i == 0 else 0.0
            width = inner * frac - left - h * 0.004
            flags = cell_flags | int(Qt.TextFlag.TextWordWrap) if i == 1 else cell_flags
            box = QRectF(x + left, y, width, row)
            if measured is not None:
                measured.append((box, painter.boundingRect(box, flags, text)))
            if i != 1:
                text = painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, int(width))
            painter.drawText(box, flags, text)
            x += inner * frac
        y += row
        painter.setPen(QPen(LIGHT, 1))
        painter.drawLine(QPointF(x0, y), QPointF(x0 + inner, y))
    y += h * 0.015
    chart_h = h * 0.28
    paint_centre_chart(painter, QRectF(x0, y, inner, chart_h), board, result.centres_by_year)
    y += chart_h + h * 0.015
    # signatures
    painter.setPen(INK)
    painter.setFont(_font(h * 0.014, bold=True))
    painter.drawText(QPointF(x0, y + h * 0.015), "We agree this is the board's result:")
    y += h * 0.025
    sign_h = min(h * 0.038, (rect.bottom() - h * 0.06 - y) / (len(o.powers) + 1))  # and the director's
    labels: list[tuple[QRectF, QRectF]] = []
    for p in o.powers:
        who = result.players.get(p, "")
        label = f"{board.power(p).name}" + (f" ({who})" if who else "")
        painter.setPen(INK)
        painter.setFont(_font(min(h * 0.012, sign_h * 0.45)))
        # the top fifth of each row left empty: a two-line label never touches the row above
        box = QRectF(x0, y + sign_h * 0.2, inner * 0.45, sign_h * 0.8)
        labels.append((box, _signature_label(painter, box, label)))
        painter.setPen(QPen(GREY, 1))
        painter.drawLine(QPointF(x0 + inner * 0.46, y + sign_h * 0.95), QPointF(x0 + inner, y + sign_h * 0.95))
        y += sign_h
    painter.setPen(INK)
    painter.setFont(_font(min(h * 0.013, sign_h * 0.5), bold=True))
    painter.drawText(QRectF(x0, y, inner * 0.45, sign_h), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom),
                     "Tournament director")
    painter.setPen(QPen(INK, 1))
    painter.drawLine(QPointF(x0 + inner * 0.46, y + sign_h * 0.95), QPointF(x0 + inner, y + sign_h * 0.95))
    painter.setPen(GREY)
    painter.setFont(_font(h * 0.0085))
    painter.drawText(QRectF(x0, rect.bottom() - h * 0.03, inner, h * 0.03), int(Qt.TextFlag.TextWordWrap),
                     f"{BY_KEY[result.event_system].name}: {BY_KEY[result.event_system].source}. "
                     "Every system's score is on the next page and in the CSV and JSON files.")
    painter.restore()
    return labels


def paint_result_map_page(painter: QPainter, rect: QRectF, result: BoardResult, scene: object | None) -> None:
    """The second page: the final position's map (when the map can be drawn) and every system's scores."""
    from ..board.export import paint_map
    painter.save()
    w, h = rect.width(), rect.height()
    x0, inner = rect.left() + w * 0.05, w * 0.9
    y = rect.top() + h * 0.02
    painter.setPen(INK)
    painter.setFont(_font(h * 0.02, bold=True))
    painter.drawText(QRectF(x0, y, inner, h * 0.035), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                     f"The final position \u2014 {result.ended_label or result.ended}")
    y += h * 0.04
    if scene is not None:
        paint_map(painter, scene, QRectF(x0, y, inner, h * 0.5), top=True, dpi=painter.device().logicalDpiX())  # type: ignore[arg-type]
    y += h * 0.52
    o = result.outcome
    systems = [s for s in SYSTEMS if s.key in result.scores]
    painter.setFont(_font(h * 0.012, bold=True))
    painter.drawText(QPointF(x0, y + h * 0.015), "Every system's score")
    y += h * 0.025
    col = inner / (len(o.powers) + 2)
    painter.setFont(_font(h * 0.0095, bold=True))
    for i, p in enumerate(o.powers):
        painter.drawText(QRectF(x0 + col * (i + 2), y, col, h * 0.018), int(Qt.AlignmentFlag.AlignRight),
                         result.board.power(p).name)
    y += h * 0.02
    painter.setFont(_font(h * 0.0095))
    for s in systems:
        painter.drawText(QRectF(x0, y, col * 2, h * 0.017), int(Qt.AlignmentFlag.AlignLeft), s.name)
        for i, p in enumerate(o.powers):
            painter.drawText(QRectF(x0 + col * (i + 2), y, col, h * 0.017), int(Qt.AlignmentFlag.AlignRight),
                             _score_text(result.scores[s.key][p]))
        y += h * 0.018
    painter.restore()


def _final_scene(result: BoardResult) -> object | None:
    """A map scene of the final position (the standard map; None for another map or no position)."""
    if result.final_state is None or result.board.name != "standard":
        return None
    from ..board.map_scene import current_picture
    from ..board.render import RenderError, picture_scene
    try:
        return picture_scene(current_picture(result.final_state, []))
    except RenderError:
        return None


def result_sheet_pdf(result: BoardResult) -> bytes:
    """Two A4 pages: the sheet to sign, then the final map and every system's scores."""
    scene = _final_scene(result)

    def paint(painter: QPainter, rect: QRectF, i: int) -> None:
        if i == 0:
            paint_result_sheet(painter, rect, result)
        else:
            paint_result_map_page(painter, rect, result, scene)

    return _pdf_pages("Board result", QPageLayout.Orientation.Portrait, 2, paint)


__all__ = [
    "CentreChart",
    "PiecesLayout",
    "paint_centre_chart",
    "paint_pieces_page",
    "paint_pieces_pages",
    "paint_result_sheet",
    "pieces_pdf",
    "result_sheet_pdf",
]
