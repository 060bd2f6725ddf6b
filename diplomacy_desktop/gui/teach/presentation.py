"""The projector view (F5): the map full screen with large units and names, and the results (or
the explanation panel, when there is one) in type read from the back of a room.

The window itself becomes the projector: menus, status bar and panels are put away, the map's
units and labels are drawn :data:`PROJECTOR_FACTOR` times larger, and a panel of large text
stands at the right.  The table's clock stays above the map, in larger type (the Wilson round,
"Round 2 of 5", and the time left are read from the back of the room).  F5 again, or Esc, gives the window back exactly as it was: its size and
place (or full screen, or maximised), its panels, the map's zoom and scroll.  The view shows
only what the window showed: the same scene, the same secrecy (unrevealed orders stay hidden;
results of adjudicated phases are public).
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QFontMetricsF, QKeyEvent, QKeySequence, QTransform
from PySide6.QtWidgets import QApplication, QDockWidget, QPushButton, QTextBrowser, QToolBar, QWidget

from ...table.changes import TableChange
from ...engine.game import HistoryEntry
from ...engine.orders import UnitOrder
from ...engine.results import Outcome
from ...io.notation import format_order, location_label
from .. import override
from ..board import palette
from ..board.label_layout import MIN_PX, PROJECTOR_PX
from ..board.map_overlay import MapOverlayFrame
from ..orders.results_dock import phase_notes
from ..table.clock import ClockWidget
from .explanations import BODY_POINTS, PROJECTOR_BODY_PX, MapHighlight, ScaledTextBrowser, projector_scale
from ..widgets import titled_column

if TYPE_CHECKING:
    from ..shell import WindowShell

#: units and labels on the projector, relative to the window's sizes
PROJECTOR_FACTOR = 1.4
#: the key that enters and leaves the projector view (in every mode)
PROJECTOR_KEY = "F5"
#: the text of the projector's panel and of the explanation panel on the projector (points)
PANEL_POINTS = 20
#: the bar over the map while a past phase is shown, on the projector: its text this many pixels
#: high per 1080 lines (it was the window's 9 pt, 12 px; issue 32), on one line in the map's
#: corner (its "Open in sandbox" put away: Ctrl+Shift+B still opens it)
BANNER_PX = 22
#: the map's names on the projector: their capitals at least this many pixels high per 1080 lines
#: of screen (issue 32: 24 px at 1920x1080, read from the back of a room; the names' font is
#: larger by the font's capital height), a name growing up to this many times the art's size
PROJECTOR_CAPITALS_PX = 24.0
PROJECTOR_GROWTH = 4.0
#: the share of the screen's width the explanation panel takes on the projector at least (pages
#: of it when it is longer: never a scroll bar), and the results panel's; either takes more where
#: the map, as high as the screen, leaves more (issue 32: the map as large as the screen allows,
#: for names of 24 px)
EXPLANATION_SHARE = 0.25
RESULTS_SHARE = 0.25

_WORDS = {Outcome.SUCCESS: "succeeds", Outcome.FAILURE: "fails", Outcome.ILLEGAL: "illegal", Outcome.VOID: "void"}
_COLOURS = {Outcome.SUCCESS: "#1B6E20", Outcome.FAILURE: "#B00020", Outcome.ILLEGAL: "#B00020",
            Outcome.VOID: "#8A6D00"}


def capital_ratio() -> float:
    """The height of the map names' capitals per pixel of their font (DejaVu Sans: 0.73)."""
    font = QFont("DejaVu Sans")
    font.setPixelSize(100)
    return QFontMetricsF(font).capHeight() / 100 or 0.73


@dataclass
class _Saved:
    """What the projector changed, to be put back."""

    geometry: QByteArray
    state: QByteArray
    full_screen: bool
    maximized: bool
    menu_bar: bool
    status_bar: bool
    hint: bool
    transform: QTransform
    fitted: bool
    scroll: tuple[int, int]
    size_factor: float
    rect: QRect
    #: the explanation panel's own font (None: it inherits the window's)
    explanation_font: QFont | None
    #: the least height of the map's names on screen (pixels), and how far they may grow for it
    label_min_px: float
    label_max_growth: float | None
    #: the bar over the map while a past phase is shown ("Results of Spring 1901 moves"): its style
    #: sheet, and its buttons of a fixed width (the arrows) with their widths
    banner_style: str = ""
    banner_widths: tuple[tuple[QPushButton, int], ...] = ()


class ProjectorPanel(QDockWidget):
    """The projector's text: the phase, and the results of the phase shown (or the last one), large."""

    def __init__(self, window: WindowShell) -> None:
        super().__init__("Projector", window)
        self.setObjectName("ProjectorPanel")
        self.setFeatures(QDockWidget.DockWidgetFeature.NoDockWidgetFeatures)
        self.setTitleBarWidget(QWidget())  # no title bar on the wall
        self.window_ = window
        body, layout, self.title = titled_column(14, 10)
        font = QFont()
        font.setPointSize(round(PANEL_POINTS * 1.3))
        font.setBold(True)
        self.title.setFont(font)
        self.text = QTextBrowser()
        self.text.setFrameShape(QTextBrowser.Shape.NoFrame)
        self.text.setAccessibleName("Results, large")
        body_font = QFont()
        body_font.setPointSize(PANEL_POINTS)
        self.text.setFont(body_font)
        layout.addWidget(self.text, 1)
        self.setWidget(body)
        self.lines: list[str] = []

    def refresh(self) -> None:
        c = self.window_.controller
        entry = c.viewed_entry
        if entry is None and c.viewing is None and c.game.history:
            entry = c.game.history[-1]
            self.title.setText(f"{c.state.phase.label}<br><span style='font-size:small; font-weight:normal'>"
                               f"last results: {html.escape(entry.state.phase.label)}</span>")
        elif entry is not None:
            self.title.setText(f"Results of {html.escape(entry.state.phase.label)}")
        else:
            self.title.setText(html.escape(c.state.phase.label))
        if entry is None:
            self.lines = []
            self.text.setHtml("<p style='color:#555'>No phase adjudicated yet.</p>")
            return
        self.text.setHtml(self._results_html(entry))

    def _results_html(self, entry: HistoryEntry) -> str:
        board = self.window_.controller.board
        filed = {(o.power, o.province) for o in entry.orders if isinstance(o, UnitOrder)}
        parts: list[str] = []
        self.lines = []
        for line, note in phase_notes(board, entry):  # civil disorder, unused builds: as on the Results panel
            self.lines.append(line)
            parts.append(f"<p style='margin:4px 0 8px 0; color:#6b4a00'>{note}</p>")
        for pid in board.power_ids:
            rows = [r for r in entry.results if r.order.power == pid
                    and (not isinstance(r.order, UnitOrder) or (pid, r.order.province) in filed
                         or r.outcome is not Outcome.SUCCESS)]
            if not rows:
                continue
            colour = palette.power_colour(pid).name()
            parts.append(f"<p style='margin:10px 0 2px 0'><span style='color:{colour}'>●</span> "
                         f"<b>{html.escape(board.power(pid).name)}</b></p>")
            for r in sorted(rows, key=lambda r: r.order.location if isinstance(r.order, UnitOrder) else "~"):
                text = format_order(r.order)
                word = _WORDS[r.outcome]
                reason = r.reason
                if r.dislodged and r.code != "dislodged":
                    reason += f"; dislodged (by the unit from {location_label(r.dislodged_by or '')})"
                self.lines.append(f"{text} | {word}")
                why = (f"<br><span style='color:#444; font-size:small'>{html.escape(reason)}</span>"
                       if r.outcome is not Outcome.SUCCESS and reason else "")
                parts.append(f"<p style='margin:0 0 4px 16px'><b>{html.escape(text)}</b> "
                             f"<span style='color:{_COLOURS[r.outcome]}'>{word}</span>{why}</p>")
        return "".join(parts) or "<p style='color:#555'>No orders were given.</p>"


class ProjectorView(QObject):
    """F5 (View ▸ Projector view): the window as a projector, and back."""

    def __init__(self, window: WindowShell) -> None:
        super().__init__(window)
        self.window = window
        self.saved: _Saved | None = None
        self.panel: ProjectorPanel | None = None
        #: the explanation panel shown large while the projector is on (it was explaining a result)
        self.shown_explanation: QDockWidget | None = None
        self._title_bar: QWidget | None = None  # the explanation panel's own title bar, put back
        self.act = QAction("&Projector view", window)
        self.act.setCheckable(True)
        self.act.setShortcut(QKeySequence(PROJECTOR_KEY))
        self.act.setStatusTip("The map full screen with large units and names, the results in large type "
                              "(F5 or Esc to leave)")
        self.act.triggered.connect(lambda _checked=False: self.toggle())
        actions = window.view_menu.actions()
        after = window.act_full
        index = actions.index(after) + 1 if after in actions else len(actions)
        before = actions[index] if index < len(actions) else None
        window.view_menu.insertAction(before, self.act)  # type: ignore[arg-type]
        window.addAction(self.act)  # the key works with the menu bar hidden
        window.controller.changed.connect(self._on_changed)

    @property
    def active(self) -> bool:
        return self.saved is not None

    def toggle(self) -> None:
        if self.active:
            self.leave()
        else:
            self.enter()

    def explanation_dock(self) -> QDockWidget | None:
        """The explanation panel, when the window has one (gui/teach/explanations.py) and it is
        explaining a result: then it says why, better than a list; otherwise the results, large."""
        for dock in self.window.findChildren(QDockWidget):
            if type(dock).__name__ == "ExplanationDock" or dock.objectName() == "ExplanationDock":
                explaining = getattr(dock, "explained_text", None)
                if explaining is None or explaining():
                    return dock
        return None

    def enter(self) -> None:
        if self.active:
            return
        w = self.window
        view = w.view
        explanation = self.shown_explanation = self.explanation_dock()
        self.saved = _Saved(
            geometry=w.saveGeometry(), state=w.saveState(), full_screen=w.isFullScreen(), maximized=w.isMaximized(),
            menu_bar=w.menuBar().isVisibleTo(w), status_bar=w.statusBar().isVisibleTo(w),
            hint=w.hint_label.isVisibleTo(w), transform=view.transform(), fitted=view._fitted,
            scroll=(view.horizontalScrollBar().value(), view.verticalScrollBar().value()),
            size_factor=w.scene.size_factor, rect=w.geometry(),
            explanation_font=(QFont(explanation.font()) if explanation is not None
                              and explanation.testAttribute(Qt.WidgetAttribute.WA_SetFont) else None),
            label_min_px=w.scene.label_min_px, label_max_growth=w.scene.label_max_growth,
            banner_style=w.banner.styleSheet(),
            banner_widths=tuple((b, b.maximumWidth()) for b in w.banner.findChildren(QPushButton)
                                if b.minimumWidth() == b.maximumWidth()))
        if self.panel is None:
            self.panel = ProjectorPanel(w)
            w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.panel)
        for dock in w.findChildren(QDockWidget):
            if dock is not self.panel and dock is not explanation:
                dock.hide()
        for bar in w.findChildren(QToolBar):  # the sandbox's set-up palette (restoreState brings it back)
            bar.hide()
        w.menuBar().hide()
        w.statusBar().hide()
        w.hint_label.hide()
        if explanation is not None:  # the explanation panel, large: it says why, better than a list
            self.panel.hide()
            explanation.show()
            font = QFont(explanation.font())
            font.setPointSize(PANEL_POINTS)
            explanation.setFont(font)  # its texts inherit it
        else:
            self.panel.refresh()
            self.panel.show()
        w.scene.set_size_factor(PROJECTOR_FACTOR)
        self._size_labels()
        self._restack_rings()  # (the rings under the names)
        w.installEventFilter(self)  # the names follow the screen's size (a projector of another size)
        for clock in w.findChildren(ClockWidget):  # the table's clock (Round 2 of 5, the time left), large
            clock.set_projector(True)
        self.act.setChecked(True)
        w.showFullScreen()
        screen = w.screen()
        if screen is not None and w.geometry() != screen.geometry():
            w.setGeometry(screen.geometry())  # no window manager to do it (a bare X server)
        self._size_side()
        self._scale_texts(True, self.saved)
        if explanation is not None and hasattr(explanation, "set_paged"):
            self._title_bar = explanation.titleBarWidget()
            explanation.setTitleBarWidget(QWidget())  # no title bar on the wall (its title was cut off)
            explanation.set_paged(True)  # a page at a time, never a scroll bar (issue 32)
        app = QApplication.instance()
        if app is not None:
            app.installEventFilter(self)  # Page Down / Page Up turn the explanation's pages
        view.fit_to_window()
        view.setFocus()
        # the panels settle their widths once the window has laid itself out: fit the whole board then
        QTimer.singleShot(0, lambda: view.fit_to_window() if self.active else None)

    def _size_side(self) -> None:
        """The panel beside the map: the explanation a wider share of the screen than the results
        (its sentences are long), the map keeping the rest."""
        w = self.window
        explanation = self.shown_explanation
        side = self.panel if explanation is None else explanation
        if side is None:
            return
        share = RESULTS_SHARE if explanation is None else EXPLANATION_SHARE
        board = w.view.sceneRect()
        # (the map as wide as the whole board is when it is as high as the screen: no wider, it
        # would only add sea beside the board; the panel the rest)
        fitted = w.height() * board.width() / board.height() if board.height() > 0 else 0.0
        w.resizeDocks([side], [max(320, round(w.width() * share), math.ceil(w.width() - fitted))],
                      Qt.Orientation.Horizontal)

    def _size_labels(self) -> None:
        """Every name on the map with capitals at least :data:`PROJECTOR_CAPITALS_PX` pixels high
        per 1080 lines of screen (issue 32: 24 px at 1920x1080; before, 20 px names, capitals of
        14-15 px), never less than in a window."""
        lines = self.window.height()
        em = max(PROJECTOR_PX, PROJECTOR_CAPITALS_PX / capital_ratio())
        self.window.scene.set_label_min_px(max(MIN_PX, round(em * lines / 1080, 1)), PROJECTOR_GROWTH)

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if watched is self.window and kind == QEvent.Type.Resize and self.active:
            self._size_labels()
            QTimer.singleShot(0, lambda: self._size_side() if self.active else None)  # once laid out
            return False
        if kind in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) and isinstance(event, QKeyEvent):
            return self._page_key(event)
        return False

    def _page_key(self, event: QKeyEvent) -> bool:
        """Page Down / Page Up turn the projector's explanation's pages while there is a page that
        way (then the keys are the pages', not the phases')."""
        explanation = self.shown_explanation
        if not self.active or explanation is None or not getattr(explanation, "paged", False) \
                or event.modifiers() != Qt.KeyboardModifier.NoModifier:
            return False
        step = {Qt.Key.Key_PageDown: 1, Qt.Key.Key_PageUp: -1}.get(Qt.Key(event.key()))
        pages = getattr(explanation, "pages", [])
        page = getattr(explanation, "page", 0)
        if step is None or not 0 <= page + step < len(pages):
            return False
        if event.type() == QEvent.Type.ShortcutOverride:
            event.accept()  # the page's key, not the window's Next phase
            return True
        explanation.turn_page(step)  # type: ignore[attr-defined]
        return True

    def _scale_texts(self, on: bool, saved: _Saved | None = None) -> None:
        """The explanation's and the step-through's text, and the results, scaled with the screen:
        the explanation body at least 28 px high at 1080 lines (issue 18)."""
        w = self.window
        scale = projector_scale(w) if on else 1.0
        for browser in w.findChildren(ScaledTextBrowser):
            browser.set_scale(scale)
        explanation = self.shown_explanation
        if explanation is not None and hasattr(explanation, "repaginate"):
            explanation.repaginate()
        if saved is not None:  # the bar over the map ("Results of Spring 1901 moves", its buttons) large
            self._size_banner(saved, on)
        if self.panel is not None:
            font = self.panel.text.font()
            font.setPointSizeF(PANEL_POINTS * (projector_scale(w, PANEL_POINTS) if on else 1.0))
            self.panel.text.setFont(font)
            title = self.panel.title.font()
            title.setPointSizeF(font.pointSizeF() * 1.3)
            self.panel.title.setFont(title)

    def _restack_rings(self) -> None:
        """The explanation's rings under the map's names on the projector, over them in a window."""
        highlight = getattr(self.window.explanations, "highlight", None)
        if isinstance(highlight, MapHighlight):
            highlight.restack()

    def _size_banner(self, saved: _Saved, on: bool) -> None:
        """The bar over the map while a past phase is shown, its text as large as the explanation's
        body on the projector (it was the window's 9 pt: capitals of 11 px at 1080 lines), or back."""
        w = self.window
        w.banner_sandbox.setVisible(not on)
        if not on:
            w.banner.setStyleSheet(saved.banner_style)
            for button, width in saved.banner_widths:
                button.setFixedWidth(width)
        else:
            # (the explanation body's scale gives its points PROJECTOR_BODY_PX pixels per 1080 lines)
            points = BODY_POINTS * projector_scale(w) * BANNER_PX / PROJECTOR_BODY_PX
            w.banner.setStyleSheet(saved.banner_style + f" QLabel, QPushButton {{ font-size: {points:.1f}pt; }}")
            for button, _width in saved.banner_widths:  # (the arrows: as wide as their larger glyph)
                button.ensurePolished()
                button.setFixedWidth(button.fontMetrics().horizontalAdvance(button.text()) + 22)
        if isinstance(w.banner, MapOverlayFrame):
            w.banner.place()  # (its size follows its text)

    def leave(self) -> None:
        saved = self.saved
        if saved is None:
            return
        self.saved = None
        w = self.window
        view = w.view
        explanation, self.shown_explanation = self.shown_explanation, None
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        if explanation is not None and hasattr(explanation, "set_paged"):
            explanation.set_paged(False)
            explanation.setTitleBarWidget(self._title_bar)  # type: ignore[arg-type]  # None: its own again
        self._scale_texts(False, saved)
        if explanation is not None:
            # its own font again, or (if it had none) the one it inherits
            explanation.setFont(saved.explanation_font if saved.explanation_font is not None else QFont())
        if self.panel is not None:
            self.panel.hide()
        w.removeEventFilter(self)
        w.scene.set_size_factor(saved.size_factor)
        w.scene.set_label_min_px(saved.label_min_px, saved.label_max_growth)
        self._restack_rings()
        for clock in w.findChildren(ClockWidget):
            clock.set_projector(False)
        if saved.full_screen:
            w.showFullScreen()
        elif saved.maximized:
            w.showMaximized()
        else:
            w.showNormal()
        w.restoreGeometry(saved.geometry)
        w.restoreState(saved.state)
        if not (saved.full_screen or saved.maximized):
            w.setGeometry(saved.rect)  # not every platform puts it back from full screen by itself
        w.menuBar().setVisible(saved.menu_bar)
        w.statusBar().setVisible(saved.status_bar)
        w.hint_label.setVisible(saved.hint)
        if saved.fitted:
            view.fit_to_window()
        else:
            view._fitted = False
            view.setTransform(saved.transform)
            view.horizontalScrollBar().setValue(saved.scroll[0])
            view.verticalScrollBar().setValue(saved.scroll[1])
            view.zoom_changed.emit(view.zoom)
        self.act.setChecked(False)

    def _on_changed(self, record: TableChange) -> None:
        if self.active and self.panel is not None and self.panel.isVisible() and record.board_changed:
            self.panel.refresh()


def install_projector(window: WindowShell) -> ProjectorView:
    """Give ``window`` its projector view (View ▸ Projector view, F5)."""
    return ProjectorView(window)
