"""``BoardNoteItem``: a short message drawn on the board beside a click, gone after a few seconds.

A refused click says why where the player is looking (the status line is far from the pointer
at a table).  The note keeps its size on screen whatever the zoom (it ignores the view's
transformations) and never takes a click.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsScene, QStyleOptionGraphicsItem, QWidget

from .. import override

#: how long a note stays on the board
NOTE_MS = 3500
#: its text, in screen pixels
NOTE_PX = 15
NOTE_WIDTH = 320.0
Z_NOTE = 60


class BoardNoteItem(QGraphicsItem):
    """A message in a rounded box, just above and right of ``point`` (scene coordinates)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text
        self.font = QFont("DejaVu Sans")
        self.font.setPixelSize(NOTE_PX)
        self.font.setBold(True)
        metrics = QFontMetricsF(self.font)
        flags = int(Qt.TextFlag.TextWordWrap)
        self._text_rect = metrics.boundingRect(QRectF(0, 0, NOTE_WIDTH, 1000), flags, text)
        pad = 7.0
        w, h = self._text_rect.width() + 2 * pad, self._text_rect.height() + 2 * pad
        self._box = QRectF(14.0, -h - 10.0, w, h)  # beside the pointer, not under it
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self.setZValue(Z_NOTE)

    @override
    def boundingRect(self) -> QRectF:
        return self._box.adjusted(-2, -2, 2, 2)

    @override
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(QColor("#7A1A00"), 2.0))
        painter.setBrush(QColor(255, 246, 224, 245))
        painter.drawRoundedRect(self._box, 6, 6)
        painter.setFont(self.font)
        painter.setPen(QColor("#3B1200"))
        inner = self._box.adjusted(7, 7, -7, -7)
        painter.drawText(inner, int(Qt.TextFlag.TextWordWrap), self.text)


class BoardNotes:
    """One note on a scene at a time: a new one replaces the last; each goes after ``NOTE_MS``."""

    def __init__(self, scene: QGraphicsScene) -> None:
        self.scene = scene
        self.item: BoardNoteItem | None = None
        self._timer = QTimer(scene)  # goes with the scene
        self._timer.setSingleShot(True)
        self._timer.setInterval(NOTE_MS)
        self._timer.timeout.connect(self.clear)

    def show(self, text: str, point: QPointF) -> BoardNoteItem:
        self.clear()
        item = BoardNoteItem(text)
        item.setPos(point)
        self.scene.addItem(item)
        self.item = item
        self._timer.start()
        return item

    @property
    def text(self) -> str | None:
        return self.item.text if self.item is not None else None

    def clear(self) -> None:
        item, self.item = self.item, None
        if item is not None and shiboken6.isValid(item) and shiboken6.isValid(self.scene) \
                and item.scene() is self.scene:
            self.scene.removeItem(item)


__all__ = ["NOTE_MS", "BoardNoteItem", "BoardNotes"]
