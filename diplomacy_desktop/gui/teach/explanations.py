"""The explanation panel: why an adjudicated order succeeded or failed, with the rule that decides it.

Click an order's row in the Results panel, its arrow (or its unit) on the map while an adjudicated
phase is shown, or the order in this panel's own list: the panel shows the text of
:func:`~diplomacy_desktop.engine.explain.explain` for that result (never recomputed here), the
rule's section and title in large type, and the units it names are ringed on the map.

Secrecy: only adjudicated history is explained.  The panel reads orders from
``controller.game.history`` alone, never the current phase's orders, and shows nothing while the
window's curtain is up.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QAction, QBrush, QColor, QFont, QPen, QTextDocument
from PySide6.QtWidgets import (QDockWidget, QGraphicsEllipseItem, QListWidget, QListWidgetItem,
                               QSplitter, QTextBrowser, QWidget)

from ...table.changes import TableChange
from ...engine.board import province_of
from ...engine.game import HistoryEntry
from ...engine.orders import Convoy, Move, Order, SupportHold, SupportMove, UnitOrder
from ...engine.results import OrderResult, Outcome
from ...io.notation import format_order
from .. import override
from ..board.map_scene import MapScene, OrderItem
from ..controller import GameController
from ..widgets import titled_column

if TYPE_CHECKING:
    from ...engine.explain import Explanation
    from ..shell import WindowShell

#: the highlight ring around a unit an explanation names (above units and arrows) ...
Z_HIGHLIGHT = 45
#: ... and on the projector under the names (above the units): its names are large and stand close
#: to the units, and a ring drawn over them crossed their letters ("Lon", "Bel", "Hol"; issue 32)
Z_HIGHLIGHT_UNDER_NAMES = 33
HIGHLIGHT_COLOUR = QColor("#FFB300")
SUBJECT_COLOUR = QColor("#E65100")
OUTCOME_COLOURS = {Outcome.SUCCESS: "#1B6E20", Outcome.FAILURE: "#B00020", Outcome.ILLEGAL: "#B00020",
                   Outcome.VOID: "#8A6D00"}


def provinces_named(result: OrderResult, results: Iterable[OrderResult] = ()) -> list[str]:
    """The provinces of the units a result's explanation names: the ordered unit first, then the
    units involved, the supports (counted or not), who dislodged it and the convoying fleets (for
    an army whose convoy failed, the fleets ordered to convoy it, read from ``results``)."""
    out: list[str] = []
    order = result.order
    if isinstance(order, UnitOrder):
        out.append(order.province)
    if isinstance(order, (SupportHold, SupportMove, Convoy)):
        out.append(province_of(order.target))
    out.extend(province_of(p) for p in result.involved)
    out.extend(province_of(p) for p in result.supports)
    out.extend(province_of(p) for p, _ in result.not_counted)
    if result.dislodged_by:
        out.append(province_of(result.dislodged_by))
    out.extend(province_of(p) for p in result.route)
    if isinstance(order, Move) and result.code == "no_convoy":
        out.extend(r.order.province for r in results if isinstance(r.order, Convoy)
                   and province_of(r.order.target) == order.province
                   and province_of(r.order.destination) == province_of(order.destination))
    seen: list[str] = []
    for p in out:
        if p and p not in seen:
            seen.append(p)
    return seen


def filed_results(entry: HistoryEntry) -> list[OrderResult]:
    """The results of the orders the players wrote (not the holds of units nobody ordered, unless
    something happened to them), in the order the powers come."""
    return filed_of(entry.orders, entry.results)


def filed_of(orders: Iterable[Order], results: Iterable[OrderResult]) -> list[OrderResult]:
    """:func:`filed_results` for ``orders`` given and the ``results`` of their adjudication."""
    filed = {(o.power, o.province) for o in orders if isinstance(o, UnitOrder)}
    out = []
    for r in results:
        order = r.order
        if isinstance(order, UnitOrder) and (order.power, order.province) not in filed \
                and r.code == "unordered" and not r.dislodged:
            continue
        out.append(r)
    return out


def explanation_of(entry: HistoryEntry, result: OrderResult) -> Explanation:
    """The engine's explanation of one result of an adjudicated phase."""
    from ...engine.explain import explain  # loaded when a result is first explained, not at every start

    return explain(result, entry.state, entry.results)


#: the explanation body on a projector: at least this many pixels high at 1080 lines (issue 18)
PROJECTOR_BODY_PX = 28
#: the explanation body's size in the window (points), what the projector's scale multiplies
BODY_POINTS = 12


def projector_scale(widget: QWidget, base_points: float = BODY_POINTS) -> float:
    """How much larger text of ``base_points`` must be drawn on ``widget``'s screen so that it is
    at least :data:`PROJECTOR_BODY_PX` pixels high per 1080 lines of screen (never smaller)."""
    screen = widget.screen()
    if screen is None:
        return 1.0
    lines = screen.geometry().height()
    dpi = screen.logicalDotsPerInchY() or 96.0
    target_px = PROJECTOR_BODY_PX * lines / 1080
    return max(1.0, target_px / (base_points * dpi / 72))


_POINT_SIZE = re.compile(r"font-size:\s*(\d+(?:\.\d+)?)pt")


def scaled_html(text: str, scale: float) -> str:
    """``text`` with every point size in its styles multiplied by ``scale``."""
    if scale == 1.0:
        return text
    return _POINT_SIZE.sub(lambda m: f"font-size:{float(m.group(1)) * scale:.1f}pt", text)


class ScaledTextBrowser(QTextBrowser):
    """A text browser whose HTML is drawn ``scale`` times larger (the projector's scale): the
    point sizes written in the HTML are multiplied, so headings keep their proportions."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.scale = 1.0
        self._source = ""

    def setHtml(self, text: str) -> None:  # same signature, our own slot
        self._source = text
        super().setHtml(scaled_html(text, self.scale))

    def set_scale(self, scale: float) -> None:
        if scale == self.scale:
            return
        self.scale = scale
        base = QFont()
        if scale != 1.0:
            base.setPointSizeF(base.pointSizeF() * scale)
        self.document().setDefaultFont(base)
        if self._source:
            super().setHtml(scaled_html(self._source, scale))


def explanation_html(entry: HistoryEntry, result: OrderResult, *, size: int = BODY_POINTS) -> str:
    """The explanation as rich text: the order and its verdict, the reason, the details, and the
    rule's section and title large."""
    return result_html(explanation_of(entry, result), result, size=size)


def result_html(ex: Explanation, result: OrderResult, *, size: int = BODY_POINTS) -> str:
    """:func:`explanation_html` for an explanation ``ex`` of ``result`` already made (the PDF
    export's explanations are these very paragraphs)."""
    return "".join(result_parts(ex, result, size=size))


def result_parts(ex: Explanation, result: OrderResult, *, size: int = BODY_POINTS) -> list[str]:
    """The paragraphs of :func:`result_html`, the rule's heading and text as one (a page of the
    projector's explanation never cuts the rule off)."""
    order = html.escape(format_order(result.order))
    colour = OUTCOME_COLOURS[result.outcome]
    parts = [(f"<p style='font-size:{size + 4}pt; margin:0 0 6px 0'><b>{order}</b> "
             f"<span style='color:{colour}'><b>{html.escape(ex.verdict)}</b></span></p>"),
             f"<p style='font-size:{size + 1}pt; margin:0 0 8px 0'>{html.escape(_cap(ex.reason))}.</p>"]
    for line in ex.details:
        parts.append(f"<p style='font-size:{size}pt; margin:0 0 5px 0'>{html.escape(line)}</p>")
    if ex.rule:
        parts.append(f"<p style='font-size:{size + 3}pt; margin:10px 0 2px 0; color:#0D47A1'>"
                     f"<b>{html.escape(_rule_heading(ex))}</b></p>"
                     f"<p style='font-size:{size}pt; margin:0; color:#333'>{html.escape(ex.rule_text)}</p>")
    return parts


def _rule_heading(ex: Explanation) -> str:
    """"Rule IX.3 — Support ...", or a named rule's name alone (Formal Diplomacy's rules are
    named, not numbered: their name is their title)."""
    if ex.rule == ex.rule_title:
        return ex.rule_title
    return f"Rule {ex.rule} — {ex.rule_title}"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


class MapHighlight:
    """Rings on the map around the units an explanation or a step names; they follow the units
    when the scene draws them again (a zoom, the projector's larger units, a dislodged unit moved
    to make room)."""

    def __init__(self, scene: MapScene) -> None:
        self.scene = scene
        self.items: list[QGraphicsEllipseItem] = []
        #: the provinces ringed now, the subject first
        self.provinces: tuple[str, ...] = ()
        self.subject: str | None = None
        self._following = False

    def _follow(self) -> None:
        if self.items:
            self.show(self.provinces, subject=self.subject)

    def _point(self, province: str) -> QPointF:
        scene = self.scene
        item = scene.displaced_items.get(province) or scene.unit_items.get(province)
        if item is not None:
            return item.pos()
        return scene.anchor(province)

    def show(self, provinces: Sequence[str], *, subject: str | None = None) -> None:
        self.clear()
        self.provinces = tuple(provinces)
        self.subject = subject
        if not self._following:  # (only while rings are shown: a step-through's highlight goes with it)
            self.scene.picture_drawn.connect(self._follow)
            self._following = True
        r = self.scene.unit_size * 1.15
        width = max(2.5, self.scene.unit_size * 0.16)
        for prov in provinces:
            try:
                centre = self._point(prov)
            except (KeyError, ValueError):
                continue
            colour = SUBJECT_COLOUR if prov == subject else HIGHLIGHT_COLOUR
            ring = QGraphicsEllipseItem(QRectF(centre.x() - r, centre.y() - r, 2 * r, 2 * r))
            ring.setPen(QPen(colour, width))
            ring.setBrush(QBrush(Qt.BrushStyle.NoBrush))
            ring.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            ring.setData(0, prov)
            self.scene.addItem(ring)
            self.items.append(ring)
        self.restack()

    def restack(self) -> None:
        """The rings above the names in a window, under them on the projector (its names sized for
        it: the scene's ``label_max_growth``); asked again when the projector comes and goes."""
        z = Z_HIGHLIGHT if self.scene.label_max_growth is None else Z_HIGHLIGHT_UNDER_NAMES
        for ring in self.items:
            ring.setZValue(z)

    def clear(self) -> None:
        for item in self.items:
            if item.scene() is self.scene:
                self.scene.removeItem(item)
        self.items = []
        self.provinces = ()
        self.subject = None
        if self._following:
            self.scene.picture_drawn.disconnect(self._follow)
            self._following = False


def order_at(scene: MapScene, point: QPointF) -> Order | None:
    """The order drawn under ``point``: the order of a unit whose disc is clicked (an arrowhead or a
    support line ending on it does not take the click), else an arrow or line, else the order of
    the unit drawn there."""
    if scene.picture is not None:
        disc = _unit_disc_at(scene, point)
        if disc is not None:
            for order in scene.picture.orders:
                if isinstance(order, UnitOrder) and order.province == disc:
                    return order
    # where lines cross, the smaller drawing (a support line over a long convoyed arrow) wins
    hits = [item for item in scene.items(point) if isinstance(item, OrderItem)]
    if hits:
        best = min(hits, key=lambda i: i.boundingRect().width() * i.boundingRect().height())
        return best.order
    unit = scene.unit_item_at(point)
    if unit is not None and scene.picture is not None:
        for order in scene.picture.orders:
            if isinstance(order, UnitOrder) and order.province == unit.province:
                return order
    return None


def _unit_disc_at(scene: MapScene, point: QPointF) -> str | None:
    """The province of the unit whose disc holds ``point`` (a dislodged one first, else the nearest)."""
    best: tuple[bool, float, str] | None = None
    for items, displaced in ((scene.displaced_items, True), (scene.unit_items, False)):
        for prov, item in items.items():
            d = math.hypot(item.pos().x() - point.x(), item.pos().y() - point.y())
            if d <= item.size * 0.5:
                key = (not displaced, d, prov)
                if best is None or key < best:
                    best = key
    return best[2] if best is not None else None


def result_for(entry: HistoryEntry, order: Order) -> OrderResult | None:
    for r in entry.results:
        if r.order == order:
            return r
    if isinstance(order, UnitOrder):
        for r in entry.results:
            if isinstance(r.order, UnitOrder) and r.order.power == order.power \
                    and r.order.province == order.province:
                return r
    return None


class ExplanationDock(QDockWidget):
    """Why an adjudicated order succeeded or failed: the list of the shown phase's orders, and the
    explanation of the one chosen."""

    def __init__(self, window: WindowShell) -> None:
        super().__init__("Why?", window)  # (the panel's tab: "Why? — explanations" was cut on a laptop)
        self.setObjectName("ExplanationDock")
        self.window_ = window
        self.controller: GameController = window.controller
        self.highlight = MapHighlight(window.scene)
        body, layout, self.heading = titled_column()
        split = QSplitter(Qt.Orientation.Vertical)
        self.list = QListWidget()
        self.list.setAccessibleName("Orders of the adjudicated phase")
        self.list.currentRowChanged.connect(self._row_chosen)
        split.addWidget(self.list)
        self.text = ScaledTextBrowser()
        self.text.setAccessibleName("Why the order succeeded or failed")
        self.text.setOpenLinks(False)
        split.addWidget(self.text)
        self.split = split
        self.text.viewport().installEventFilter(self)
        #: the projector shows the explanation a page at a time, each page without a scroll bar
        #: (issue 32): the paragraphs explained, the pages (their indexes) and the page shown
        self.paged = False
        self._parts: list[str] = []
        self.pages: list[list[int]] = []
        self.page = 0
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        layout.addWidget(split, 1)
        self.setWidget(body)
        #: the adjudicated phase whose orders are listed, and the result explained (None: none)
        self.entry: HistoryEntry | None = None
        self.result: OrderResult | None = None
        self._rows: list[OrderResult] = []
        #: a step-through owns the map and this panel while it runs
        self.suspended = False
        #: the position of the phase being played when the panel last looked (an edit changes it)
        self._position = self.controller.state
        self.controller.changed.connect(self._on_changed)
        window.view.clicked.connect(self.map_clicked)
        window.results_dock.result_clicked.connect(self._results_row_clicked)
        self.refresh()

    # -- what may be explained -----------------------------------------------------------------

    def shown_entry(self) -> HistoryEntry | None:
        """The adjudicated phase the window shows: the one browsed, else the last one (whose
        results the Results panel shows).  Never the current phase; nothing under the curtain."""
        c = self.controller
        if self.window_.mode.covered() or self.suspended:
            return None
        if c.viewed_entry is not None:
            return c.viewed_entry
        return c.last_entry

    def _on_changed(self, record: TableChange) -> None:
        state = self.controller.state
        if record.phase and self.controller.viewing is None and state is not self._position:
            # the position on the map changed (a sandbox's set-up edit, or its undo): rings drawn
            # for the explained order would name units of another position, so they go
            self.entry = None
        self._position = state
        if record.board_changed or record.visibility:
            self.refresh()

    def refresh(self) -> None:
        entry = self.shown_entry()
        if entry is self.entry and entry is not None and self.result is not None:
            self._draw_highlight()  # the map was redrawn: ring the units again
            return
        self.entry = entry
        self.result = None
        self.highlight.clear()
        self.list.blockSignals(True)
        self.list.clear()
        self._rows = []
        if entry is None:
            self.heading.setText("Adjudicate a phase, then click an order to read why it succeeded or failed."
                                 if not self.window_.mode.covered() else "")
            self.text.clear()
            self.list.blockSignals(False)
            return
        self.heading.setText(f"<b>{html.escape(entry.state.phase.label)}</b>: click an order (here, in the "
                             "Results panel or on the map) to read why.")
        for r in filed_results(entry):
            mark = {Outcome.SUCCESS: "✓", Outcome.FAILURE: "✗", Outcome.ILLEGAL: "✗", Outcome.VOID: "–"}[r.outcome]
            item = QListWidgetItem(f"{mark} {format_order(r.order)}")
            item.setForeground(QBrush(QColor(OUTCOME_COLOURS[r.outcome])))
            self.list.addItem(item)
            self._rows.append(r)
        self.list.setCurrentRow(-1)
        self.list.blockSignals(False)
        self.text.setHtml("<p style='color:#555'>Choose an order above to read why it succeeded or failed.</p>")

    # -- choosing an order -------------------------------------------------------------------

    def _row_chosen(self, row: int) -> None:
        if 0 <= row < len(self._rows) and self.entry is not None:
            self.show_result(self.entry, self._rows[row])

    def _results_row_clicked(self, entry: object, result: object) -> None:
        shown = self.shown_entry()
        if shown is None or entry is not shown or not isinstance(result, OrderResult):
            return
        self.show_result(shown, result)

    def map_clicked(self, point: QPointF, button: object = Qt.MouseButton.LeftButton) -> None:
        """A click on the map explains the order under it, only while an adjudicated phase is drawn."""
        c = self.controller
        if button != Qt.MouseButton.LeftButton or c.viewing is None:
            return  # the map shows the current phase: its orders are not results, maybe secret
        entry = self.shown_entry()
        if entry is None:
            return
        order = order_at(self.window_.scene, point)
        if order is None:
            return
        result = result_for(entry, order)
        if result is not None:
            self.show_result(entry, result)

    def show_result(self, entry: HistoryEntry, result: OrderResult) -> None:
        """Explain ``result`` (one of ``entry``'s, an adjudicated phase shown now)."""
        if entry is not self.shown_entry() or result not in entry.results:
            return
        if self.entry is not entry:
            self.refresh()
        self.result = result
        self._parts = result_parts(explanation_of(entry, result), result)
        self._show_text()
        if result in self._rows:
            self.list.blockSignals(True)
            self.list.setCurrentRow(self._rows.index(result))
            self.list.blockSignals(False)
        self._draw_highlight()
        self.show()
        self.raise_()
        self._make_room()
        self.window_.statusBar().showMessage(f"Why: {format_order(result.order)}", 4000)

    # -- pages, on the projector ---------------------------------------------------------------

    def set_paged(self, paged: bool) -> None:
        """On the projector: the explanation alone (the orders' list and the heading put away), a
        page at a time, every page whole without scrolling; off: as in the window."""
        self.paged = paged
        self.list.setVisible(not paged)
        self.heading.setVisible(not paged)
        self.text.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff if paged
                                             else Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.page = 0
        self._show_text()

    def repaginate(self) -> None:
        """Lay the pages out again for the panel's size and the text's scale (the page shown kept
        where it still exists)."""
        if self.paged and self.result is not None:
            self._show_text(keep_page=True)

    def turn_page(self, step: int) -> bool:
        """The next (``step`` 1) or previous (-1) page; False when there is none that way."""
        if not self.paged or not 0 <= self.page + step < len(self.pages):
            return False
        self.page += step
        self._show_page()
        return True

    def _show_text(self, *, keep_page: bool = False) -> None:
        if self.result is None or not self._parts:
            return
        if not self.paged:
            self.pages = [list(range(len(self._parts)))]
            self.page = 0
            self.text.setHtml("".join(self._parts))
            return
        self.pages = self._paginate()
        self.page = min(self.page, len(self.pages) - 1) if keep_page else 0
        self._show_page()

    def _show_page(self) -> None:
        self.text.setHtml(self._page_html(self.pages[self.page], self.page, len(self.pages)))

    def _page_html(self, parts: list[int], page: int, count: int) -> str:
        body = "".join(self._parts[i] for i in parts)
        if count == 1:
            return body
        more = "Page Down: the rest" if page + 1 < count else "Page Up: back"
        return body + (f"<p style='font-size:{BODY_POINTS}pt; margin:8px 0 0 0; color:#555'>"
                       f"Page {page + 1} of {count} — {more}</p>")

    def _fits(self, parts: list[int], count: int) -> bool:
        """Whether ``parts`` as one page (of ``count``) fit the text's viewport without scrolling."""
        doc = QTextDocument()
        source = self.text.document()
        doc.setDefaultFont(source.defaultFont())
        doc.setDocumentMargin(source.documentMargin())
        doc.setTextWidth(self.text.viewport().width())
        doc.setHtml(scaled_html(self._page_html(parts, 0, count), self.text.scale))
        return doc.size().height() <= self.text.viewport().height()

    def _paginate(self) -> list[list[int]]:
        """The paragraphs in pages: as many whole paragraphs on each page as fit, the rule's heading
        and text never parted (a paragraph taller than the panel is a page of its own)."""
        everything = list(range(len(self._parts)))
        if self._fits(everything, 1):
            return [everything]
        pages: list[list[int]] = []
        page: list[int] = []
        for i in everything:
            if page and not self._fits([*page, i], 2):
                pages.append(page)
                page = []
            page.append(i)
        pages.append(page)
        return pages

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.text.viewport() and event.type() == QEvent.Type.Resize and self.paged:
            self.repaginate()  # the text's room changed (the panel, or the list put away)
        return False

    def _make_room(self) -> None:
        """A panel too low to read the explanation in takes about half the window's height."""
        w = self.window_
        if self.isFloating() or w.dockWidgetArea(self) != w.dockWidgetArea(w.results_dock):
            return
        if self.height() < w.height() * 0.4:
            w.resizeDocks([w.results_dock, self], [w.height() * 4 // 10, w.height() * 6 // 10],
                          Qt.Orientation.Vertical)

    def _draw_highlight(self) -> None:
        result = self.result
        if result is None:
            self.highlight.clear()
            return
        subject = result.order.province if isinstance(result.order, UnitOrder) else None
        self.highlight.show(provinces_named(result, self.entry.results if self.entry else ()), subject=subject)

    def explained_text(self) -> str:
        """The explanation shown, as plain text (for tests): all of it, on the projector's pages too."""
        if self.result is None:
            return ""
        if not self.paged:
            return self.text.toPlainText()
        doc = QTextDocument()
        doc.setHtml("".join(self._parts))
        return doc.toPlainText()

    def suspend(self, suspended: bool) -> None:
        """A step-through takes the map (True) or gives it back (False)."""
        self.suspended = suspended
        self.entry = None
        self.refresh()


def install_explanations(window: WindowShell) -> ExplanationDock:
    """Give the window its explanation panel and Phase ▸ "Step through these results"."""
    dock = ExplanationDock(window)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, dock)
    # under the Results panel (its rows stay clickable), sharing the place of the centre counts
    window.tabifyDockWidget(window.centres_dock, dock)
    window.centres_dock.raise_()
    window.view_menu.addAction(dock.toggleViewAction())
    act = QAction("Step &through these results…", window)
    act.setStatusTip("Reveal the decisions of the adjudicated phase shown, one at a time")
    act.triggered.connect(lambda _checked=False: step_through_shown(window))
    window.phase_menu.insertAction(window.mode_phase_separator, act)
    window.addAction(act)
    window.install_feature("act_step_through", act)
    return dock


def step_through_shown(window: WindowShell, *, predict: bool = False) -> None:
    """Step through the adjudicated phase the window shows (its results are public)."""
    from .step_through import start_step_through

    entry = window.explanations.shown_entry()
    if entry is None:
        window.statusBar().showMessage("Nothing adjudicated to step through: adjudicate a phase first.", 5000)
        return
    start_step_through(window, entry, predict=predict)
