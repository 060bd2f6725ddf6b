"""Move the pieces on the wall: the projector (F5) with "Hide the map" (issue 35, finding 7).

With the map hidden the projector has only two things to show: the table's clock and the piece
pusher's list.  Beside a hidden map the list stood in the right-hand panel, six tenths of the
screen wide, and the clock shared the rest: at 1366x768 about five steps could be read and the
clock's words wrapped onto three lines.  Here the clock keeps the whole width of the top of the
screen, in one row at the projector's size, and the list takes everything below it, its steps in
columns (down the first column, then the next) in the largest type at which every step fits, but
never smaller than the explanations' type on a projector (:data:`PROJECTOR_BODY_PX` per 1080
lines of screen, issue 18) nor larger than :data:`MAX_GROWTH` times that.

The list is the panel's own (:class:`~.tournament.MovePiecesDock`): ticking a step on the wall
ticks it in the panel.  The panel is put in the window's bottom area for the projector; leaving the
projector restores the window's panels (``ProjectorView.leave``), so it goes back beside the map.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QListView, QListWidget, QStyle, QWidget

from .. import override
from ..teach.explanations import PROJECTOR_BODY_PX

if TYPE_CHECKING:
    from ..shell import WindowShell
    from .tournament import MovePiecesDock

#: the steps' type may grow up to this many times the least size (a short list, read from afar)
MAX_GROWTH = 1.6
#: a column is at least this many times the type's height wide (a step of a few words per line)
MIN_COLUMN_EMS = 18
#: at most this many columns
MAX_COLUMNS = 4
#: room above and below a step's words in the list (pixels)
ITEM_PADDING = 2


def least_px(lines: int) -> float:
    """The least height of the steps' type on a screen of ``lines`` lines (issue 18's rule)."""
    return PROJECTOR_BODY_PX * lines / 1080


@dataclass(frozen=True)
class WallLayout:
    """How the steps stand on the wall: their type's pixel size, the columns and each step's height."""

    px: int
    columns: int
    column_width: int
    heights: tuple[int, ...]
    #: every step is inside the list's visible area
    fits: bool


def _steps_seen(heights: list[int], columns: int, height: int) -> int:
    """How many steps, laid down one column then the next (as the list lays them out), stand in
    ``columns`` columns of ``height`` pixels.  The list starts a new column when a step would
    reach its visible area's last pixel row."""
    used, column = 0, 1
    for seen, h in enumerate(heights):
        if used + h >= height and used > 0:
            column += 1
            used = 0
        used += h
        if used >= height or column > columns:
            return seen
    return len(heights)


def _heights(texts: list[tuple[str, bool]], font: QFont, text_width: int) -> list[int]:
    out = []
    for text, bold in texts:
        f = QFont(font)
        f.setBold(bold)
        rect = QFontMetrics(f).boundingRect(QRect(0, 0, max(1, text_width), 100_000),
                                            int(Qt.TextFlag.TextWordWrap), text)
        out.append(rect.height() + ITEM_PADDING)
    return out


def fit_steps(texts: list[tuple[str, bool]], size: QSize, font: QFont, lines: int,
              indicator: int, max_columns: int = MAX_COLUMNS) -> WallLayout:
    """The largest type (from :data:`MAX_GROWTH` times the least down to the least) and the fewest
    columns at which every step (its text, bold or not) fits in ``size``; when none does, the
    size and columns that show the most steps at once (the list then scrolls sideways)."""
    low = max(1, round(least_px(lines) + 0.49))
    high = max(low, round(least_px(lines) * MAX_GROWTH))
    best: WallLayout | None = None
    best_seen = -1
    for px in range(high, low - 1, -1):
        f = QFont(font)
        f.setPixelSize(px)
        most = max(1, min(max_columns, size.width() // (MIN_COLUMN_EMS * px)))
        for columns in range(1, most + 1):
            width = size.width() // columns
            heights = _heights(texts, f, width - indicator)
            seen = _steps_seen(heights, columns, size.height())
            layout = WallLayout(px, columns, width, tuple(heights), seen == len(texts))
            if layout.fits:
                return layout
            if seen > best_seen:  # none fits: the most steps seen at once (the list scrolls sideways)
                best, best_seen = layout, seen
    assert best is not None
    return best


class PiecesWall(QObject):
    """The projector with the map hidden: the clock across the top, Move the pieces below it."""

    def __init__(self, window: WindowShell, dock: MovePiecesDock, clock: QWidget) -> None:
        super().__init__(dock)
        self.window = window
        self.dock = dock
        #: the table's clock, in the bar above the map: the wall leaves it the top of the screen
        self.clock = clock
        self.active = False
        self.layout: WallLayout | None = None
        self._fonts: list[QFont] = []
        #: the list's visible size the steps were last fitted to
        self._fitted_to = QSize()
        #: the panel's spacing between its rows, put back when the wall is left
        self._spacing = -1

    @property
    def steps(self) -> QListWidget:
        """The panel's list of steps."""
        return self.dock.list

    def enter(self) -> None:
        """The panel under the clock, across the screen; the list in columns."""
        w, dock = self.window, self.dock
        if not self.active:
            self.active = True
            self._fonts = [QFont(x.font()) for x in self._labels()]
            w.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)  # restoreState puts it back
            dock.setTitleBarWidget(QWidget())  # its title is said large inside it
            lst = self.steps
            lst.setFlow(QListView.Flow.TopToBottom)
            lst.setWrapping(True)
            lst.setResizeMode(QListView.ResizeMode.Adjust)
            lst.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            body = dock.widget().layout()
            if body is not None:  # the panel's rows closer together: the room goes to the steps
                self._spacing = body.spacing()
                body.setSpacing(2)
            w.installEventFilter(self)
            lst.viewport().installEventFilter(self)  # fitted again to the list's final size
            dock.refreshed.connect(self.fit)
        dock.show()
        self.arrange()
        QTimer.singleShot(0, self.window, self.arrange)  # again once full screen is laid out

    def leave(self) -> None:
        if not self.active:
            return
        self.active = False
        self.window.removeEventFilter(self)
        self.steps.viewport().removeEventFilter(self)
        self.dock.refreshed.disconnect(self.fit)
        self.dock.setTitleBarWidget(None)  # type: ignore[arg-type]  # Qt: None gives its own title back
        body = self.dock.widget().layout()
        if body is not None and self._spacing >= 0:
            body.setSpacing(self._spacing)
        lst = self.steps
        lst.setFlow(QListView.Flow.TopToBottom)
        lst.setWrapping(False)
        lst.setResizeMode(QListView.ResizeMode.Fixed)
        lst.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        for label, font in zip(self._labels(), self._fonts, strict=True):
            label.setFont(font)
        if self.window.projector.active:  # the map shown again on the projector: the panel beside it
            self.window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.dock)
        self.dock.refresh()  # the steps again, in the panel's type, without the wall's sizes

    def _labels(self) -> tuple[QWidget, ...]:
        d = self.dock
        return (d.title, d.note, d.progress, d.status, d.list)

    def arrange(self) -> None:
        """The panel takes the screen below the clock; the list's steps fitted to it."""
        if not self.active:
            return
        w = self.window
        lines = w.height()
        base = least_px(lines)
        for label, scale in zip(self._labels(), (1.3, 0.8, 0.8, 0.8, 1.0), strict=True):
            f = QFont(label.font())
            f.setPixelSize(max(1, round(base * scale)))
            f.setBold(label is self.dock.title)
            label.setFont(f)
        bar = self.clock.parentWidget()  # the bar above the map, the clock in it
        clock_height = (0 if not self.clock.isVisible() else
                        bar.sizeHint().height() if bar is not None else self.clock.sizeHint().height())
        w.resizeDocks([self.dock], [max(200, lines - clock_height)], Qt.Orientation.Vertical)
        self.fit()

    def fit(self) -> None:
        """Each step's height for the type and columns that fit the list's visible area."""
        if not self.active:
            return
        lst = self.steps
        count = lst.count()
        texts = [(lst.item(i).text(), lst.item(i).font().bold()) for i in range(count)]
        indicator = _indicator(lst)
        size = self._fitted_to = lst.viewport().size()
        size = QSize(size.width() - 2, size.height())
        layout = self.layout = fit_steps(texts, size, lst.font(), self.window.height(), indicator)
        # a list that fits has no scroll bar (one would take a row of the steps' room)
        lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff if layout.fits
                                         else Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        f = QFont(lst.font())
        f.setPixelSize(layout.px)
        lst.setFont(f)
        for i in range(count):
            item = lst.item(i)
            bold = item.font().bold()
            item_font = QFont(f)
            item_font.setBold(bold)
            item.setFont(item_font)
            item.setSizeHint(QSize(layout.column_width - 1, layout.heights[i]))
        lst.doItemsLayout()

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.active:
            if watched is self.window:
                QTimer.singleShot(0, self.window, self.arrange)
            elif watched is self.steps.viewport() and self.layout is not None:
                size = self.steps.viewport().size()
                if size != self._fitted_to:
                    QTimer.singleShot(0, self.window, self.fit)
        return False

    def visible_steps(self) -> int:
        """How many steps stand wholly inside the list's visible area."""
        lst = self.steps
        area = lst.viewport().rect()
        return sum(1 for i in range(lst.count()) if area.contains(lst.visualItemRect(lst.item(i))))


def _indicator(lst: QListWidget) -> int:
    """The room a step's check box takes left of its words (pixels)."""
    style = lst.style()
    return (style.pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth)
            + 4 * style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin) + 8)


def set_step_fonts(lst: QListWidget, px: int) -> None:
    """The list's type and each step's (the ring's lift and place steps bold) at ``px`` pixels."""
    f = QFont(lst.font())
    f.setPixelSize(px)
    lst.setFont(f)
    for i in range(lst.count()):
        item = lst.item(i)
        item_font = QFont(f)
        item_font.setBold(item.font().bold())
        item.setFont(item_font)


class PiecesBeside(QObject):
    """The projector with the map shown and Move the pieces open: the list in the panel beside the
    map, in the largest type (from issue 18's least up to :data:`MAX_GROWTH` times it) at which all
    its steps fit, its title and notes in that least type.  At 1366x768 a fixed 24 points showed
    three or four steps and the title and note took seven lines."""

    def __init__(self, window: WindowShell, dock: MovePiecesDock) -> None:
        super().__init__(dock)
        self.window = window
        self.dock = dock
        self.active = False
        self.layout: WallLayout | None = None

    def enter(self) -> None:
        if not self.active:
            self.active = True
            self.dock.refreshed.connect(self.fit)
            self.dock.list.viewport().installEventFilter(self)
        base = least_px(self.window.height())
        d = self.dock
        for label, scale in ((d.title, 1.2), (d.note, 0.9), (d.status, 0.9), (d.progress, 0.9)):
            f = QFont(label.font())
            f.setPixelSize(max(1, round(base * scale)))
            f.setBold(label is d.title)
            label.setFont(f)
        self.fit()
        QTimer.singleShot(0, self.window, self.fit)  # again once the panel has its width

    def leave(self) -> None:
        if not self.active:
            return
        self.active = False
        self.dock.refreshed.disconnect(self.fit)
        self.dock.list.viewport().removeEventFilter(self)

    def fit(self) -> None:
        if not self.active:
            return
        lst = self.dock.list
        texts = [(lst.item(i).text(), lst.item(i).font().bold()) for i in range(lst.count())]
        size = lst.viewport().size()
        self.layout = fit_steps(texts, QSize(size.width() - 2, size.height()), lst.font(), self.window.height(),
                                _indicator(lst), max_columns=1)
        if lst.font().pixelSize() != self.layout.px or any(
                lst.item(i).font().pixelSize() != self.layout.px for i in range(lst.count())):
            set_step_fonts(lst, self.layout.px)

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.active and watched is self.dock.list.viewport():
            QTimer.singleShot(0, self.window, self.fit)
        return False
