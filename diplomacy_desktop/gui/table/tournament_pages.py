"""Pages for a tournament board, drawn with the board's own QPainter: the Move-the-pieces list
(printable), the supply-centre chart by year, and the one-page result sheet the players sign.

PySide6-Essentials has no QtCharts (it ships with PySide6-Addons, which the app does not require),
so the chart is painted here: one line per power in its colour, a year per step, the centre count
on the left axis with the victory line marked.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPageLayout, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from ...engine.board import Board
from ...table.pieces import PiecePlan
from ...table.results import BoardResult, result_sentence
from ...table.scoring import SYSTEMS
from .. import override
from ..board import palette
from ..board.export import _pdf_pages

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


def paint_pieces_page(painter: QPainter, rect: QRectF, board: Board, plan: PiecePlan,
                      checked: Sequence[bool] = ()) -> None:
    painter.save()
    painter.fillRect(rect, QColor("#FFFFFF"))
    w, h = rect.width(), rect.height()
    pad = w * 0.05
    y = rect.top() + h * 0.03
    painter.setPen(INK)
    painter.setFont(_font(h * 0.03, bold=True))
    painter.drawText(QPointF(rect.left() + pad, y + h * 0.03), f"Move the pieces \u2014 {plan.phase.label}")
    y += h * 0.055
    painter.setFont(_font(h * 0.014))
    note = ("Work down the list: no step puts a piece on an occupied space."
            + (" A ring of moves: lift the first piece into your hand, move the others round, put it down last."
               if plan.rings else ""))
    box = QRectF(rect.left() + pad, y, w - 2 * pad, h * 0.06)
    painter.drawText(box, int(Qt.TextFlag.TextWordWrap), note)
    y += h * 0.05
    if plan.empty:
        painter.setFont(_font(h * 0.02))
        painter.drawText(QPointF(rect.left() + pad, y + h * 0.03), "Nothing to move: every piece stays where it is.")
    step_h = min(h * 0.035, (rect.bottom() - y - h * 0.08) / max(1, len(plan.steps)))
    px = step_h * 0.5
    for i, step in enumerate(plan.steps):
        done = i < len(checked) and checked[i]
        sq = QRectF(rect.left() + pad, y + step_h * 0.2, px, px)
        painter.setPen(QPen(INK, max(1.0, h * 0.001)))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRect(sq)
        if done:
            painter.drawLine(sq.topLeft(), sq.bottomRight())
            painter.drawLine(sq.topRight(), sq.bottomLeft())
        painter.setBrush(palette.power_colour(step.power) if step.power in board.power_ids else QColor("#999999"))
        painter.drawEllipse(QPointF(sq.right() + px * 0.9, sq.center().y()), px * 0.3, px * 0.3)
        painter.setPen(INK)
        painter.setFont(_font(px * 0.95, bold=step.action in ("lift", "place")))
        painter.drawText(QRectF(sq.right() + px * 1.5, y, w - 2 * pad - px * 2.5, step_h),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                         f"{i + 1}. {step.text(board)}")
        y += step_h
    painter.setPen(GREY)
    painter.setFont(_font(h * 0.013))
    painter.drawText(QRectF(rect.left() + pad, rect.bottom() - h * 0.05, w - 2 * pad, h * 0.04),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter),
                     "The board matches: ______________________   (Diplomacy Desktop)")
    painter.restore()


def pieces_pdf(board: Board, plan: PiecePlan, checked: Sequence[bool] = ()) -> bytes:
    return _pdf_pages(f"Move the pieces, {plan.phase.label}", QPageLayout.Orientation.Portrait, 1,
                      lambda painter, rect, _i: paint_pieces_page(painter, rect, board, plan, checked))


# -- the result sheet --------------------------------------------------------------------------------------


def _score_text(x: float) -> str:
    return f"{x:.2f}".rstrip("0").rstrip(".")


def paint_result_sheet(painter: QPainter, rect: QRectF, result: BoardResult) -> None:
    """One A4 page: the board, the result, a row per power (player, centres, year eliminated, every
    system's score), the chart, and a line for each player to sign."""
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
                                        f"ended in {result.ended_label or result.ended}") if part)
    painter.drawText(QRectF(x0, y, inner, h * 0.025), int(Qt.AlignmentFlag.AlignLeft), where)
    y += h * 0.028
    painter.setFont(_font(h * 0.018, bold=True))
    headline = result_sentence(result)
    box = QRectF(x0, y, inner, h * 0.06)
    used = painter.boundingRect(box, int(Qt.TextFlag.TextWordWrap), headline)
    painter.drawText(box, int(Qt.TextFlag.TextWordWrap), headline)
    y += used.height() + h * 0.012
    # the table: the power (with its colour), the player, centres, year eliminated, each system
    systems = [s for s in SYSTEMS if s.key in result.scores]
    cols = ["Power", "Player", "Centres", "Eliminated", *[s.name for s in systems]]
    fixed = [0.14, 0.16, 0.08, 0.1]
    widths = fixed + [(1 - sum(fixed)) / max(1, len(systems))] * len(systems)
    row_h = h * 0.026
    painter.setFont(_font(h * 0.0095, bold=True))
    x = x0
    for text, frac in zip(cols, widths):
        painter.drawText(QRectF(x, y, inner * frac - h * 0.004, row_h * 1.4),
                         int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom | Qt.TextFlag.TextWordWrap), text)
        x += inner * frac
    y += row_h * 1.5
    painter.setPen(QPen(INK, max(1.0, h * 0.0008)))
    painter.drawLine(QPointF(x0, y), QPointF(x0 + inner, y))
    order = sorted(o.powers, key=lambda p: (-o.count(p), -(o.eliminated.get(p) or 10_000), board.power_ids.index(p)))
    chip = h * 0.008
    for p in order:
        painter.fillRect(QRectF(x0, y + row_h * 0.25, chip, row_h * 0.5), palette.power_colour(p))
        cells = [board.power(p).name, result.players.get(p, "") or "\u2014", str(o.count(p)),
                 str(o.eliminated[p]) if p in o.eliminated else ""]
        cells += [_score_text(result.scores[s.key][p]) for s in systems]
        x = x0
        painter.setPen(INK)
        for i, (text, frac) in enumerate(zip(cells, widths)):
            painter.setFont(_font(h * 0.0115, bold=(i == 0 or o.winner == p)))
            left = chip * 1.6 if i == 0 else 0.0
            painter.drawText(QRectF(x + left, y, inner * frac - left - h * 0.004, row_h),
                             int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), text)
            x += inner * frac
        y += row_h
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
    sign_h = min(h * 0.038, (rect.bottom() - h * 0.06 - y) / max(1, len(o.powers)))
    painter.setFont(_font(min(h * 0.012, sign_h * 0.45)))
    for p in o.powers:
        who = result.players.get(p, "")
        label = f"{board.power(p).name}" + (f" ({who})" if who else "")
        painter.setPen(INK)
        painter.drawText(QRectF(x0, y, inner * 0.35, sign_h), int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignBottom),
                         label)
        painter.setPen(QPen(GREY, 1))
        painter.drawLine(QPointF(x0 + inner * 0.36, y + sign_h * 0.95), QPointF(x0 + inner, y + sign_h * 0.95))
        y += sign_h
    painter.setPen(GREY)
    painter.setFont(_font(h * 0.0085))
    sources = "; ".join(f"{s.name}: {s.source}" for s in SYSTEMS if s.key in result.scores)
    painter.drawText(QRectF(x0, rect.bottom() - h * 0.05, inner, h * 0.05), int(Qt.TextFlag.TextWordWrap),
                     f"Scores as published \u2014 {sources}")
    painter.restore()


def result_sheet_pdf(result: BoardResult) -> bytes:
    return _pdf_pages("Board result", QPageLayout.Orientation.Portrait, 1,
                      lambda painter, rect, _i: paint_result_sheet(painter, rect, result))


__all__ = ["CentreChart", "paint_centre_chart", "paint_pieces_page", "paint_result_sheet", "pieces_pdf",
           "result_sheet_pdf"]
