"""``MapOverlayFrame``: a bar that floats over the map's top-left corner instead of taking a row above it.

Why it floats (issue 16, point 5): a bar laid out above the map makes the map's area shorter
when it appears, so the board is fitted again at another scale, and every province name,
supply centre and unit -- all drawn at the view's exact resolution and cached so -- is drawn
anew, twice per adjudication (the results bar appears, then goes).  That was most of an
adjudication's redraw.  Floating over the map, the bar leaves the view's size, its scale and
the cached pictures alone.  It sits in the top-left corner, as wide as its content (at most
:data:`MAX_SHARE` of the map's width), where the standard board has open sea and no names.

The frame is a child of the view itself, not of its viewport: the viewport's children would be
moved along when the map is scrolled.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QAbstractScrollArea, QFrame, QLabel

from .. import override

#: the frame is at most this share of the map's width (the longest texts wrap)
MAX_SHARE = 0.62
#: its distance from the map's edges (pixels)
MARGIN = 6


class MapOverlayFrame(QFrame):
    """A frame kept in the top-left corner of a scroll area's viewport, sized to its content."""

    def __init__(self, area: QAbstractScrollArea) -> None:
        super().__init__(area)
        self.area = area
        #: each text's width on one line, by (text, format, font): a text is measured once, not at
        #: every adjudication that shows it again (a text document is laid out to measure it)
        self._one_line: dict[tuple[str, bool, str], float] = {}
        area.installEventFilter(self)
        self.setAutoFillBackground(True)

    def place(self) -> None:
        """Size the frame to its content (wrapping within the share allowed) and put it in the corner."""
        viewport = self.area.viewport().geometry()
        room = max(80, int(viewport.width() * MAX_SHARE))
        width = min(self.natural_width(), room)
        height = self.heightForWidth(width) if self.hasHeightForWidth() else -1
        if height < 0:
            height = self.sizeHint().height()
        self.setGeometry(viewport.x() + MARGIN, viewport.y() + MARGIN, width, height)
        self.raise_()

    def natural_width(self) -> int:
        """The width the content asks for with every wrapping label's text on one line."""
        width = self.sizeHint().width()
        for label in self.findChildren(QLabel):
            if label.wordWrap() and label.isVisibleTo(self) and label.text():
                one_line = math.ceil(self._width_on_one_line(label)) + 2 * label.margin() + 2
                width += max(0, one_line - label.sizeHint().width())
        return width

    def _width_on_one_line(self, label: QLabel) -> float:
        rich = label.textFormat() != Qt.TextFormat.PlainText
        key = (label.text(), rich, label.font().key())
        known = self._one_line.get(key)
        if known is None:
            doc = QTextDocument()
            doc.setDefaultFont(label.font())
            if rich:
                doc.setHtml(label.text())
            else:
                doc.setPlainText(label.text())
            doc.setDocumentMargin(0)
            if len(self._one_line) > 64:  # texts of phases long gone
                self._one_line.clear()
            known = self._one_line[key] = doc.idealWidth()
        return known

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.area and event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest) \
                and self.isVisible():
            self.place()
        return False

    @override
    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        if event.type() in (QEvent.Type.Show, QEvent.Type.LayoutRequest) and self.isVisible():
            self.place()  # shown, or its text changed
        return handled


__all__ = ["MAX_SHARE", "MapOverlayFrame"]
