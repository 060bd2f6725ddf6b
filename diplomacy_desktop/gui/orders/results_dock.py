"""Results and history: each adjudicated order with its reason, the phase list, centre counts.

``ResultsDock`` lists the phases played (and the current one); choosing one draws it on the
map with its orders and results.  The results list reads every reason from the engine's
result records, never recomputing anything.  ``CentresDock`` is the supply-centre table.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QBrush, QColor, QIcon, QTextDocumentFragment
from PySide6.QtWidgets import (QAbstractItemView, QHBoxLayout, QHeaderView, QLabel, QListWidget,
                               QListWidgetItem, QPushButton, QSplitter, QTableWidget, QTableWidgetItem,
                               QTextBrowser, QVBoxLayout, QWidget)

from ...table.changes import TableChange
from ...engine.board import Board
from ...engine.disorder import disorder_told
from ...engine.game import HistoryEntry
from ...engine.orders import Hold, UnitOrder
from ...engine.results import OrderResult, Outcome
from ...engine.state import ADJUSTMENT
from ...io.notation import format_order, location_label
from .. import override
from ..board import palette
from ..controller import GameController
from .order_dock import power_icon
from ..widgets import GameDock, phase_buttons, titled_column

OUTCOME_COLOURS = {
    Outcome.SUCCESS: QColor("#1B6E20"),
    Outcome.FAILURE: QColor("#B00020"),
    Outcome.ILLEGAL: QColor("#B00020"),
    Outcome.VOID: QColor("#8A6D00"),
}
OUTCOME_WORDS = {Outcome.SUCCESS: "succeeds", Outcome.FAILURE: "fails", Outcome.ILLEGAL: "illegal",
                 Outcome.VOID: "void"}



def phase_notes(board: Board, entry: HistoryEntry) -> list[tuple[str, str]]:
    """What the table is told of a phase besides its orders, as (plain line, HTML): who was in
    civil disorder (rules XIV.1) and the builds left unused (rules XIII.2).  The Results panel and
    the projector say the same."""
    out: list[tuple[str, str]] = []
    if entry.disorder:
        gone = [board.power(p).name for p in board.power_ids if p in entry.disorder]
        names = ", ".join(gone[:-1]) + " and " + gone[-1] if len(gone) > 1 else gone[0]
        told = disorder_told(entry.state.phase.kind)  # the same words on the phones (host/phase_results.py)
        out.append((f"civil disorder | {names}",
                    f"<b>In civil disorder (rules XIV.1):</b> {html.escape(names)} \u2014 {html.escape(told)}."))
    from ...engine.forfeits import unused_builds  # (rules XIII.2): when there are results to note

    for unused in unused_builds(entry.state, entry.results, entry.disorder):
        said = unused.text(board.power(unused.power).name)
        out.append((f"unused builds | {said}", html.escape(said)))
    return out

class RefreshedDock(GameDock):
    """A panel drawn again once, soon after each change of the board (after the map's redraw)."""

    def show_body(self, body: QWidget) -> None:
        """``body`` in the panel, drawn now and after every change of the board."""
        self.setWidget(body)
        self._refresh_timer = _soon(self, self.refresh)
        self.controller.changed.connect(self._on_changed)
        self.refresh()

    def _on_changed(self, record: TableChange) -> None:
        if record.board_changed:
            self._refresh_timer.start()  # after the map has been redrawn

    def flush(self) -> None:
        """Refresh now if a refresh is pending."""
        if self._refresh_timer.isActive():
            self._refresh_timer.stop()
            self.refresh()

    def refresh(self) -> None:
        raise NotImplementedError


class ResultsDock(RefreshedDock):
    undo_adjudication_requested = Signal()
    #: an order's row was clicked: (HistoryEntry, OrderResult) of the adjudicated phase shown
    result_clicked = Signal(object, object)

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__("Results and history", "ResultsDock", controller, parent)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        nav = QHBoxLayout()
        self.prev_button, self.next_button = phase_buttons(controller, "◀ Previous", "Next ▶")
        self.current_button = QPushButton("Current phase")
        self.current_button.setToolTip("Back to the phase being played (End)")
        self.current_button.clicked.connect(lambda: controller.view_phase(None))
        nav.addWidget(self.prev_button)
        nav.addWidget(self.next_button)
        nav.addWidget(self.current_button)
        layout.addLayout(nav)
        split = QSplitter(Qt.Orientation.Vertical)
        self.phases = QListWidget()
        self.phases.setAccessibleName("Phases played")
        self.phases.currentRowChanged.connect(self._phase_chosen)
        # a few phases in sight, the rest scroll: the results below get the room (issue 34: on a
        # laptop the results had 190 px, a Spring's 22 orders took four screens)
        self.phases.setMaximumHeight(4 * self.phases.fontMetrics().lineSpacing() + 14)
        split.addWidget(self.phases)
        results_box, rl, self.title = titled_column(0)
        self.results = QTextBrowser()
        self.results.setOpenLinks(False)
        self.results.setAccessibleName("Results of the phase")
        self.results.anchorClicked.connect(self._anchor_clicked)
        # the scroll bar is always there: a phase's results are longer than the panel, and a bar
        # appearing made the panel narrower, so every result was laid out twice (issue 16)
        self.results.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        self._lines: list[str] = []
        self._shown: HistoryEntry | None = None
        self._rows: list[OrderResult] = []
        rl.addWidget(self.results)
        split.addWidget(results_box)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 3)
        layout.addWidget(split, 1)
        self.undo_button = QPushButton("Undo last adjudication…")
        self.undo_button.setToolTip("The host takes back the last adjudication: its orders come back")
        self.undo_button.clicked.connect(self.undo_adjudication_requested)
        layout.addWidget(self.undo_button)
        self.show_body(body)

    @override
    def refresh(self) -> None:
        self._refresh_timer.stop()
        c = self.controller
        history = c.game.history
        self.phases.blockSignals(True)
        self.phases.clear()
        for past in history:
            item = QListWidgetItem(past.state.phase.label + (" \u2298" if past.disorder else ""))
            if past.disorder:
                item.setToolTip("In civil disorder: " + ", ".join(c.power_name(p) for p in c.board.power_ids
                                                                  if p in past.disorder))
            self.phases.addItem(item)
        current = QListWidgetItem(f"{c.state.phase.label} (now)")
        font = current.font()
        font.setBold(True)
        current.setFont(font)
        self.phases.addItem(current)
        row = c.viewing if c.viewing is not None else len(history)
        self.phases.setCurrentRow(row)
        self.phases.blockSignals(False)
        self.prev_button.setEnabled(bool(history) and (c.viewing is None or c.viewing > 0))
        self.next_button.setEnabled(c.viewing is not None)
        self.current_button.setEnabled(c.viewing is not None)
        self.undo_button.setEnabled(bool(history))
        entry = c.viewed_entry
        if entry is None and history and c.viewing is None:
            last = history[-1]
            self.title.setText(f"<b>Last results:</b> {last.state.phase.label}" + self._seal_codes(last))
            self._show_results(last)
        elif entry is not None:
            self.title.setText(f"<b>Results of {entry.state.phase.label}</b>" + self._seal_codes(entry))
            self._show_results(entry)
        else:
            self.title.setText("No phase adjudicated yet.")
            self.results.clear()
            self._lines = []
            self._shown = None
            self._rows = []

    def _seal_codes(self, entry: HistoryEntry) -> str:
        """The seal codes revealed with ``entry``'s orders (issue 20): each player checks that what
        was revealed is what they sealed."""
        from ...table.sealcodes import orders_by_power, revealed_verdict

        self.title.setToolTip("")
        verdict = revealed_verdict(self.controller.table, entry.state.phase.short, orders_by_power(entry.orders))
        if verdict is None or not verdict.codes:
            return ""
        c = self.controller
        text = "<br>Seal codes: " + "; ".join(f"{html.escape(c.power_name(p))} <b>{html.escape(code)}</b>"
                                              for p, code in verdict.codes.items())
        alarm = verdict.alarm(c.power_name)
        self.title.setToolTip(alarm)
        if alarm:  # recomputed from the revealed orders: what was revealed is not what was sealed
            # first, right under the title: a narrow panel may not show all its lines
            text = f"<br><b><span style='color:#b00020'>{html.escape(alarm)}</span></b>" + text
        return text

    def _show_results(self, entry: HistoryEntry) -> None:
        board = self.controller.board
        self._lines = []
        self._shown = entry
        self._rows = []
        parts: list[str] = self._interned(entry)  # Formal Diplomacy: first, where the table sees it
        interned = {u.province for u in entry.interned}
        filed = {(o.power, o.province) for o in entry.orders}
        for line, note in phase_notes(board, entry):
            self._lines.append(line)
            parts.append(f"<p style='margin:4px 0; color:#6b4a00'>{note}</p>")
        for pid in board.power_ids:
            # (an interned unit nobody ordered did not simply hold: its interning says what became of it)
            rows = [r for r in entry.results if r.order.power == pid
                    and not (isinstance(r.order, Hold) and (pid, r.order.province) not in filed
                             and r.order.province in interned)]
            if not rows:
                continue
            # units nobody ordered, that simply held: one line, not one each
            idle = [r for r in rows if isinstance(r.order, Hold) and (pid, r.order.province) not in filed
                    and r.outcome is Outcome.SUCCESS]
            rows = [r for r in rows if r not in idle]
            colour = palette.power_colour(pid).name()
            parts.append(f"<p style='margin:8px 0 2px 0'><span style='color:{colour}; font-size:large'>●</span> "
                         f"<b>{html.escape(board.power(pid).name)}</b></p>")
            for r in sorted(rows, key=lambda r: r.order.location if isinstance(r.order, UnitOrder) else "~"):
                reason = r.reason
                if r.rule and r.rule.startswith("Formal Diplomacy") and r.code != "interned":
                    reason += f" ({r.rule}, seed 003)"
                if r.dislodged and r.code != "dislodged":
                    reason += f"; the unit was dislodged (by the unit from {location_label(r.dislodged_by or '')})"
                word = "interned" if r.code == "interned" else OUTCOME_WORDS[r.outcome]
                text = format_order(r.order)
                self._lines.append(f"{text} | {word} | {reason}")
                # each row is a link: clicking it explains the order (the explanation panel)
                link = f"<a href='result:{len(self._rows)}' style='text-decoration:none'>"
                self._rows.append(r)
                # paragraphs, not a table: a table's cells take the text layout twice as long (issue 16)
                parts.append(f"<p style='margin:0 0 0 2px'>{link}<b style='color:#000'>{html.escape(text)}</b></a></p>"
                             f"<p style='margin:0 0 3px 14px; color:#444'>"
                             f"<span style='color:{OUTCOME_COLOURS[r.outcome].name()}'>{word}</span>: "
                             f"{link}<span style='color:#444'>{html.escape(reason)}</span></a></p>")
            if idle:
                names = ", ".join(format_order(r.order)[:-2] for r in idle)
                self._lines.append(f"{names} | held | no order")
                parts.append(f"<p style='color:#666; margin:2px 0 0 12px'>No orders, held: {html.escape(names)}</p>")
        self.results.setHtml("".join(parts))

    def _interned(self, entry: HistoryEntry) -> list[str]:
        """Formal Diplomacy: the units interned at the end of the phase, with the engine's reason."""
        if not entry.interned:
            return []
        board = self.controller.board
        reasons = {r.order.location: r.reason for r in entry.results
                   if r.code == "interned" and isinstance(r.order, UnitOrder)}
        parts = [("<p style='margin:10px 0 2px 0; color:#8a2b00'><b>Interned and disbanded</b> "
                   "(neutrality violation, Formal Diplomacy, seed 003)</p><ul style='margin-top:0'>")]
        for u in entry.interned:
            unit = f"{board.power(u.power).adjective} {'army' if u.kind == 'A' else 'fleet'} in " \
                   f"{board.spaces[u.province].name}"
            reason = reasons.get(u.location, "interned: it ended the phase in a neutral power's territory")
            self._lines.append(f"interned | {unit} | {reason}")
            parts.append(f"<li><b>{html.escape(unit)}</b>: {html.escape(reason)}</li>")
        parts.append("</ul>")
        return parts

    def _anchor_clicked(self, url: QUrl) -> None:
        text = url.toString()
        if not text.startswith("result:") or self._shown is None:
            return
        try:
            row = int(text.removeprefix("result:"))
        except ValueError:
            return
        if 0 <= row < len(self._rows):
            self.result_clicked.emit(self._shown, self._rows[row])

    def _phase_chosen(self, row: int) -> None:
        history = self.controller.game.history
        if row < 0:
            return
        self.controller.view_phase(None if row >= len(history) else row)

    def result_texts(self) -> list[str]:
        """Every result shown, as 'order | result | why' (for tests)."""
        self.flush()
        return list(self._lines)


def _soon(parent: QWidget, slot: object) -> QTimer:
    """A zero-delay single-shot timer: refresh once, after the current event (the map redraw)."""
    timer = QTimer(parent)
    timer.setSingleShot(True)
    timer.setInterval(0)
    timer.timeout.connect(slot)
    return timer


_ICONS: dict[str, QIcon] = {}


def _icon(power: str) -> QIcon:
    icon = _ICONS.get(power)
    if icon is None:
        icon = _ICONS[power] = power_icon(power)
    return icon


class CentresDock(RefreshedDock):
    """Supply centres per power: owned, units, and the adjustment that follows."""

    def __init__(self, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__("Supply centres", "CentresDock", controller, parent)
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Power", "Centres", "Units", "Adjust"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            self.table.horizontalHeader().setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)
            self.table.setColumnWidth(col, 64)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setAccessibleName("Supply centre counts")
        # the phase and the winning count in a line of their own, wrapped: in the panel's title
        # (its tab) they were cut to "Supply centres — Winter 1901 adjustments (18 t…" (issue 34)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(4, 2, 4, 0)
        layout.setSpacing(2)
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        layout.addWidget(self.table, 1)
        self.show_body(body)

    @override
    def refresh(self) -> None:
        self._refresh_timer.stop()
        c = self.controller
        state = c.viewed_state
        board = c.board
        centres = state.centre_counts()
        units = state.unit_counts()
        rows = sorted(board.power_ids, key=lambda p: (-centres.get(p, 0), p))
        if self.table.rowCount() != len(rows) + 1:
            self.table.setRowCount(len(rows) + 1)
        for r, pid in enumerate(rows):
            delta = centres.get(pid, 0) - units.get(pid, 0)
            forfeit = ""
            if delta > 0 and state.phase.kind == ADJUSTMENT:
                from ...engine.forfeits import buildable  # a build phase's rule: when one comes

                free = buildable(state, pid)
                if free < delta:
                    # builds with no free home centre to go to are forfeited (rules XIII.2): not "+1"
                    lost = delta - free
                    forfeit = (f"{lost} build{'s' if lost > 1 else ''} forfeited: no free home centre of its own "
                               "to build in (rules XIII.2)")
                    delta = free
            name = board.power(pid).name
            player = c.player_name(pid)
            cells = [f"{name} ({player})" if player else name, str(centres.get(pid, 0)), str(units.get(pid, 0)),
                     f"+{delta}" if delta > 0 else (str(delta) if delta < 0 else "")]
            for col, text in enumerate(cells):
                item = self._cell(r, col)
                item.setText(text)
                if col == 0:
                    item.setIcon(_icon(pid))
                item.setForeground(QBrush(QColor("#888888" if state.is_eliminated(pid) else "#000000")))
                if col == 3:
                    item.setToolTip(forfeit)
        owned = sum(centres.values())
        neutral = len(board.centres) - owned
        last = len(rows)
        for col, text in enumerate(["Not owned", str(neutral), "", ""]):
            item = self._cell(last, col)
            item.setText(text)
            item.setIcon(QIcon())
            item.setForeground(QBrush(QColor("#666666")))
        self.heading.setText(f"<b>{state.phase.label}</b> — {board.victory_centres} centres to win")

    def heading_text(self) -> str:
        """The phase and the count to win, as the panel shows them (plain text)."""
        return QTextDocumentFragment.fromHtml(self.heading.text()).toPlainText()

    def _cell(self, row: int, col: int) -> QTableWidgetItem:
        item = self.table.item(row, col)
        if item is None:
            item = QTableWidgetItem()
            if col:
                item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            self.table.setItem(row, col, item)
        return item

    def counts(self) -> dict[str, int]:
        self.flush()
        out = {}
        for r in range(self.table.rowCount() - 1):
            name, count = self.table.item(r, 0), self.table.item(r, 1)
            if name is not None and count is not None:
                out[name.text()] = int(count.text())
        return out

    def flush(self) -> None:
        if self._refresh_timer.isActive():
            self.refresh()
