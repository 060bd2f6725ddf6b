"""Step through an adjudication, and Predict the outcome.

``start_step_through(window, entry)`` reveals the decisions of an adjudicated phase one at a time
in a teaching order: illegal orders, then supports (cut, void, given), then convoys (disrupted,
paradoxes, carried), then moves from the strongest to the weakest, each after the moves that
decided it (a ring's standoff before the ring's failure), then the units that held, then
the dislodgements (for retreat and adjustment phases, their results one by one).  The map draws
every order and only the results revealed so far, rings the units of the current step, and the
text of the step is shown large in a panel under the map.  Keys: → Space Page Down forward,
← back, Home the start, End the end, Esc leave.

With ``predict=True`` the students first mark each order: click its arrow (or row) to choose it,
S succeeds, F fails, each moving on to the next order (Tab and the arrow keys move between
orders; a ↓ pressed right after a mark stays on the order the mark moved to, so it skips none);
Enter reveals the results, scores every mark and explains each one missed.

Every text is the engine's explanation of a result already adjudicated: nothing is recomputed.
"""

from __future__ import annotations

import dataclasses
import html
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QKeyEvent, QPen
from PySide6.QtWidgets import (QApplication, QDockWidget, QGraphicsSimpleTextItem, QHBoxLayout, QLabel,
                               QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget)

from ...table.changes import TableChange
from ...engine.board import province_of
from ...engine.boardindex import board_index
from ...engine.game import HistoryEntry
from ...engine.orders import Convoy, Hold, Move, SupportHold, SupportMove, UnitOrder
from ...engine.results import OrderResult, Outcome
from ...engine.state import MOVEMENT, RETREAT
from ...io.notation import format_order
from .. import override
from ..board.map_scene import BoardPicture, results_picture
from .explanations import (MapHighlight, ScaledTextBrowser, explanation_html, explanation_of, filed_results,
                           order_at, projector_scale, provinces_named)
from ..widgets import connect_all

if TYPE_CHECKING:
    from ..shell import WindowShell


@dataclass(frozen=True, slots=True)
class Step:
    """One decision revealed: what it is, the results it reveals, and the units it is about."""

    kind: str  # illegal, support, convoy, move, hold, dislodged, retreat, adjustment
    title: str
    #: the results this step reveals (their orders' outcome is drawn from this step on)
    results: tuple[OrderResult, ...]
    #: provinces whose unit is shown dislodged from this step on
    dislodged: tuple[str, ...]
    #: the units to ring, the subject first
    provinces: tuple[str, ...]
    #: the step's text (rich text), and as plain text
    html: str
    text: str


_SUPPORT_ORDER = {"cut": 0, "void": 1}
_CONVOY_ORDER = {"paradox": 0, "disrupted": 1, "convoy_unused": 2, "void": 3}


def _strength(r: OrderResult) -> int:
    return r.strength if r.strength is not None else 0


def _plain(entry: HistoryEntry, r: OrderResult) -> str:
    return explanation_of(entry, r).text(format_order(r.order))


def _step(entry: HistoryEntry, kind: str, title: str, r: OrderResult) -> Step:
    subject = r.order.province if isinstance(r.order, UnitOrder) else ""
    provinces = tuple(provinces_named(r, entry.results)) or ((subject,) if subject else ())
    return Step(kind, title, (r,), (), provinces, explanation_html(entry, r, size=15), _plain(entry, r))


def teaching_steps(entry: HistoryEntry) -> list[Step]:
    """The decisions of ``entry`` in the order a teacher reveals them."""
    rows = filed_results(entry)
    kind = entry.state.phase.kind
    if kind != MOVEMENT:
        return _later_steps(entry, rows, kind)
    illegal = [r for r in rows if r.outcome is Outcome.ILLEGAL]
    legal = [r for r in rows if r.outcome is not Outcome.ILLEGAL and isinstance(r.order, UnitOrder)]
    supports = sorted((r for r in legal if isinstance(r.order, (SupportHold, SupportMove))),
                      key=lambda r: (_SUPPORT_ORDER.get(r.code, 2), r.order.province))
    convoys = sorted((r for r in legal if isinstance(r.order, Convoy)),
                     key=lambda r: (_CONVOY_ORDER.get(r.code, 4), r.order.province))
    carried = [r for r in legal if isinstance(r.order, Move) and r.code == "no_convoy"]
    moves = _causes_first(sorted((r for r in legal if isinstance(r.order, Move) and r.code != "no_convoy"),
                                 key=lambda r: (-_strength(r), r.order.province)))
    holds = [r for r in legal if not isinstance(r.order, (SupportHold, SupportMove, Convoy, Move))
             and r.code != "dislodged"]
    steps: list[Step] = []
    steps += [_step(entry, "illegal", "An illegal order", r) for r in illegal]
    for r in supports:
        title = {"cut": "A support is cut", "void": "A support is void"}.get(r.code, "A support is given")
        steps.append(_step(entry, "support", title, r))
    for r in convoys:
        title = {"paradox": "A convoy paradox", "disrupted": "A convoy is disrupted",
                 "convoy_unused": "A convoy is not used", "void": "A convoy order is void"}.get(r.code, "A fleet convoys")
        steps.append(_step(entry, "convoy", title, r))
    steps += [_step(entry, "convoy", "The convoyed army stays", r) for r in carried]
    for r in moves:
        verdict = "succeeds" if r.succeeded else "fails"
        at = f" (strength {r.strength})" if r.strength and r.code != "own_unit" else ""
        steps.append(_step(entry, "move", f"A move {verdict}{at}", r))
    steps += [_step(entry, "hold", "A unit stands", r) for r in holds]
    steps += _dislodgements(entry, rows)
    return steps


def _causes_of(r: OrderResult, by_province: dict[str, OrderResult]) -> list[str]:
    """The moves whose failure made move ``r`` fail: the move of the unit in its destination,
    which failed to leave (not the one coming the other way: a head-to-head battle decides both
    at once), and the move that broke the ring of moves ``r`` was part of."""
    order = r.order
    if r.succeeded or not isinstance(order, Move):
        return []
    out = []
    blocker = by_province.get(province_of(order.destination))
    if blocker is not None and not blocker.succeeded and isinstance(blocker.order, Move) \
            and province_of(blocker.order.destination) != order.province:
        out.append(blocker.order.province)
    decision = r.decision
    if decision is not None and decision.ring_broken_at:
        out.append(decision.ring_broken_at)
    return [p for p in out if p in by_province and p != order.province]


def _causes_first(moves: list[OrderResult]) -> list[OrderResult]:
    """``moves`` (strongest first) with every move after the moves that decided it (issue 32: a
    ring's standoff before the ring's failure): each time, the first move whose causes are all
    shown already; in a circle of causes, the first move as it stands."""
    by_province = {r.order.province: r for r in moves if isinstance(r.order, Move)}
    shown: set[str] = set()
    out: list[OrderResult] = []
    pending = list(moves)
    while pending:
        n = next((n for n, r in enumerate(pending) if all(c in shown for c in _causes_of(r, by_province))), 0)
        r = pending.pop(n)
        out.append(r)
        if isinstance(r.order, Move):
            shown.add(r.order.province)
    return out


def _dislodgements(entry: HistoryEntry, rows: list[OrderResult]) -> list[Step]:
    index = board_index(entry.state.board)
    by_province = {r.order.province: r for r in entry.results
                   if isinstance(r.order, UnitOrder) and r.outcome is not Outcome.ILLEGAL}
    out = []
    for r in rows:
        if not r.dislodged or not isinstance(r.order, UnitOrder):
            continue
        prov = r.order.province
        unit = entry.state.units.get(prov)
        name = index.describe(unit.kind, unit.location) if unit is not None else index.space_name(prov)
        attacker = by_province.get(province_of(r.dislodged_by or ""))
        by = f" by the unit from {index.space_name(r.dislodged_by)}" if r.dislodged_by else ""
        head = (f"<p style='font-size:19pt; margin:0 0 6px 0'><b>The {html.escape(name)} is dislodged"
                f"{html.escape(by)}.</b></p><p style='font-size:15pt'>It must retreat to an empty space next "
                "to it, or be disbanded.</p>")
        reveal: tuple[OrderResult, ...] = (r,) if r.code == "dislodged" else ()
        shown = r if r.code == "dislodged" else attacker
        body = explanation_html(entry, shown, size=15) if shown is not None else ""
        text = f"The {name} is dislodged{by}."
        if shown is not None:
            text += "\n" + _plain(entry, shown)
        provinces = [prov] + [p for p in provinces_named(shown, entry.results) if p != prov] if shown else [prov]
        out.append(Step("dislodged", "A unit is dislodged", reveal, (prov,), tuple(provinces), head + body, text))
    return out


def _later_steps(entry: HistoryEntry, rows: list[OrderResult], kind: str) -> list[Step]:
    failed = [r for r in rows if not r.succeeded]
    done = [r for r in rows if r.succeeded]
    step_kind = "retreat" if kind == RETREAT else "adjustment"
    out = []
    for r in failed + done:
        if kind == RETREAT:
            title = "A retreat succeeds" if r.succeeded and not isinstance(r.order, Hold) else "A retreat fails"
            if r.code == "disbanded":
                title = "A unit is disbanded"
        else:
            title = {"built": "A unit is built", "removed": "A unit is removed", "waived": "A build is waived"
                     }.get(r.code, "An adjustment " + ("is made" if r.succeeded else "fails"))
        out.append(_step(entry, step_kind, title, r))
    return out


def _key(r: OrderResult) -> tuple[str, str]:
    return (r.order.power, r.order.province if isinstance(r.order, UnitOrder) else "")


# -- the panel under the map ---------------------------------------------------------------------


class StepPanel(QDockWidget):
    """The step's title and text in large type, the buttons, and the orders to predict: beside the
    map, full height, in place of the other panels while a step-through runs."""

    def __init__(self, window: WindowShell) -> None:
        super().__init__("Step through", window)
        self.setObjectName("StepThroughDock")
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(10, 6, 10, 6)
        self.title = QLabel()
        self.title.setStyleSheet("font-size: 20pt; font-weight: bold;")
        self.title.setWordWrap(True)
        layout.addWidget(self.title)
        top = QHBoxLayout()
        self.counter = QLabel()
        self.counter.setStyleSheet("font-size: 14pt; color: #555;")
        top.addWidget(self.counter, 1)
        self.back_button = _button("◀ Back", "Back one step (←)")
        self.next_button = _button("Next ▶", "Next step (→, Space)")
        self.end_button = _button("End", "Everything revealed (End)")
        self.reveal_button = _button("Reveal", "Reveal the results and score (Enter)")
        self.leave_button = _button("Leave", "Leave the step-through (Esc)")
        for b in (self.back_button, self.next_button, self.end_button, self.reveal_button, self.leave_button):
            top.addWidget(b)
        layout.addLayout(top)
        self.list = QListWidget()
        self.list.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.list.setAccessibleName("Orders to predict")
        font = self.list.font()
        font.setPointSize(14)
        self.list.setFont(font)
        layout.addWidget(self.list, 2)
        self.text = ScaledTextBrowser()  # larger on a projector (gui/teach/presentation.py)
        self.text.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.text.setAccessibleName("The current step")
        layout.addWidget(self.text, 3)
        self.setWidget(body)


def _button(text: str, tip: str) -> QPushButton:
    b = QPushButton(text)
    b.setToolTip(tip)
    b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    b.setStyleSheet("font-size: 12pt; padding: 4px 8px;")
    return b


_FORWARD = (Qt.Key.Key_Right, Qt.Key.Key_Space, Qt.Key.Key_PageDown, Qt.Key.Key_Down)
_BACK = (Qt.Key.Key_Left, Qt.Key.Key_PageUp, Qt.Key.Key_Up, Qt.Key.Key_Backspace)
_PREDICT_NEXT = (Qt.Key.Key_Tab, Qt.Key.Key_Down, Qt.Key.Key_Right)
_PREDICT_PREV = (Qt.Key.Key_Backtab, Qt.Key.Key_Up, Qt.Key.Key_Left)
_REVEAL = (Qt.Key.Key_Return, Qt.Key.Key_Enter)


#: Predict's keys, on the window's hint line
PREDICT_KEYS = ("Predict: S succeeds · F fails (each moves to the next order) · ↓ ↑ Tab: choose an order · "
                "Enter: reveal and score · Esc: leave")

#: step-through zooms to the units a step rings, at most this many times the whole board
STEP_ZOOM = 3.0


class StepThrough(QObject):
    """One step-through (or prediction) of an adjudicated phase in the window."""

    def __init__(self, window: WindowShell, entry: HistoryEntry, *, predict: bool = False) -> None:
        super().__init__(window)
        self.window = window
        self.entry = entry
        self.steps = teaching_steps(entry)
        #: how many steps are revealed (0: none yet, the orders only)
        self.position = 0
        self.predicting = predict
        self.active = True
        #: predict mode: the orders to mark, the marks (True succeeds, False fails, None not yet)
        self.to_predict: list[OrderResult] = [r for r in filed_results(entry) if isinstance(r.order, UnitOrder)
                                              and r.code != "unordered"]
        self.marks: list[bool | None] = [None] * len(self.to_predict)
        self.selected = 0
        #: predict: a mark just moved the choice on to the next order (see :meth:`next_order`)
        self._moved_on = False
        self.revealed = False  # predict: Enter pressed
        self.score: int | None = None
        self.highlight = MapHighlight(window.scene)
        view = window.view
        #: the view before the step-through framed its first step
        self._view_before = view.place()
        self._mark_items: list[QGraphicsSimpleTextItem] = []
        self._base: BoardPicture = results_picture(entry)
        c = window.controller
        if entry in c.game.history:
            c.view_phase(c.game.history.index(entry))
        self.panel = _panel(window)
        # the panels beside the map make way for the step's text (the Results panel's reasons
        # would tell the ending anyway)
        self._hidden = [d for d in window.findChildren(QDockWidget)
                        if d is not self.panel and d.isVisible() and not d.isFloating()]
        window.explanations.suspend(True)
        for dock in self._hidden:
            dock.hide()
        p = self.panel
        connect_all((p.back_button.clicked, self.back), (p.next_button.clicked, self.forward),
                    (p.end_button.clicked, self.to_end), (p.reveal_button.clicked, self.reveal),
                    (p.leave_button.clicked, self.leave), (p.list.currentRowChanged, self._row_chosen))
        p.show()
        p.raise_()
        window.resizeDocks([p], [max(380, window.width() * 2 // 5)], Qt.Orientation.Horizontal)
        window.hint_label.setText("Step through: → or Space next · ← back · End: everything · Esc: leave"
                                  if not predict else PREDICT_KEYS)
        c.changed.connect(self._on_changed)
        window.view.clicked.connect(self._map_clicked)
        app = QApplication.instance()
        assert app is not None
        app.installEventFilter(self)
        self._draw()

    # -- moving through ------------------------------------------------------------------------

    @property
    def current(self) -> Step | None:
        return self.steps[self.position - 1] if self.position > 0 else None

    def forward(self) -> None:
        if self.predicting and not self.revealed:
            return
        if self.position < len(self.steps):
            self.position += 1
            self._draw()

    def back(self) -> None:
        if self.predicting and not self.revealed:
            return
        if self.position > 0:
            self.position -= 1
            self._draw()

    def to_end(self) -> None:
        if self.predicting and not self.revealed:
            return
        self.position = len(self.steps)
        self._draw()

    def to_start(self) -> None:
        if self.predicting and not self.revealed:
            return
        self.position = 0
        self._draw()

    # -- predicting ----------------------------------------------------------------------------

    def select(self, index: int) -> None:
        self._moved_on = False
        if not self.to_predict:
            return
        self.selected = index % len(self.to_predict)
        self._draw()

    def mark(self, succeeds: bool | None) -> None:
        """Mark the selected order (predict mode, before the reveal) and go to the next one."""
        if not self.predicting or self.revealed or not self.to_predict:
            return
        self.marks[self.selected] = succeeds
        if self.selected + 1 < len(self.to_predict):
            self.selected += 1
            # the mark moved on already: a ↓ (Tab, →) pressed next, out of habit, chooses the
            # order now chosen instead of skipping it
            self._moved_on = True
        self._draw()

    def next_order(self) -> None:
        """Predict: the next order (↓, Tab, →), or the one a mark just moved on to."""
        if self._moved_on:
            self._moved_on = False
            return
        self.select(self.selected + 1)

    def reveal(self) -> None:
        """Score every mark and show the results; each one missed is explained."""
        if not self.predicting or self.revealed:
            return
        self.revealed = True
        self.score = sum(1 for r, m in zip(self.to_predict, self.marks, strict=True) if m is not None
                         and m == r.succeeded)
        self.position = len(self.steps)
        self._draw()

    def missed(self) -> list[OrderResult]:
        return [r for r, m in zip(self.to_predict, self.marks, strict=True) if m is None or m != r.succeeded]

    # -- leaving -------------------------------------------------------------------------------

    def leave(self) -> None:
        if not self.active:
            return
        self.active = False
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        w = self.window
        self.highlight.clear()
        self._clear_marks()
        self.panel.hide()
        self._frame(())  # the view the teacher had
        from ..board.map_source import picture_for

        w.scene.show_picture(picture_for(w.controller))
        for dock in self._hidden:
            dock.show()
        w.hint_label.setText(w.interaction.hint())
        w.explanations.suspend(False)
        if getattr(w, "step_through", None) is self:
            w.install_feature("step_through", None)
        self.deleteLater()  # and with it its connections to the window's signals

    def _on_changed(self, record: TableChange) -> None:
        if not self.active:
            return
        if record.board_changed and not (record.visibility and not (record.phase or record.game or record.viewing)):
            self.leave()  # another phase or game: this one is over
        elif record.visibility and self.window.mode.covered():
            self.leave()

    # -- drawing -------------------------------------------------------------------------------

    def picture(self) -> BoardPicture:
        """The map now: every order, and the results of the steps revealed so far."""
        base = self._base
        if self.predicting and not self.revealed:
            return dataclasses.replace(base, results={}, displaced=self._waiting(), standoffs=frozenset())
        shown = self.steps[:self.position]
        revealed = {_key(r) for s in shown for r in s.results}
        dislodged = {p for s in shown for p in s.dislodged}
        results = {k: r for k, r in base.results.items() if k in revealed}
        if self.entry.state.phase.kind == MOVEMENT:
            displaced = tuple(d for d in base.displaced if d.province in dislodged)
            moving_into: dict[str, list[tuple[str, str]]] = {}
            for r in self.entry.results:
                if isinstance(r.order, Move):
                    moving_into.setdefault(province_of(r.order.destination), []).append(_key(r))
            standoffs = frozenset(p for p in base.standoffs
                                  if all(k in revealed for k in moving_into.get(p, [])))
        else:
            displaced = base.displaced
            standoffs = base.standoffs
        return dataclasses.replace(base, results=results, displaced=displaced, standoffs=standoffs)

    def _waiting(self) -> tuple:  # type: ignore[type-arg]
        return self._base.displaced if self.entry.state.phase.kind == RETREAT else ()

    def _draw(self) -> None:
        w = self.window
        w.scene.show_picture(self.picture())
        p = self.panel
        phase = self.entry.state.phase.label
        predicting = self.predicting and not self.revealed
        p.back_button.setVisible(not predicting)
        p.next_button.setVisible(not predicting)
        p.end_button.setVisible(not predicting)
        p.reveal_button.setVisible(predicting)
        p.list.setVisible(self.predicting)
        self._clear_marks()
        if predicting:
            self._draw_predict(phase)
            return
        if self.predicting:
            self._draw_score(phase)
            return
        n = len(self.steps)
        p.counter.setText(f"{self.position} / {n}")
        step = self.current
        if step is None:
            p.title.setText(f"{phase}: the orders")
            p.text.setHtml(f"<p style='font-size:16pt'>Every order is drawn; their results are hidden. "
                           f"{n} decision{'s' if n != 1 else ''} to reveal, one at a time: illegal orders, then "
                           "supports, then convoys, then moves from the strongest (each after the moves that "
                           "decided it), then dislodgements.</p>"
                           "<p style='font-size:13pt; color:#555'>→ or Space: next · ← back · End: everything · "
                           "Esc: leave</p>")
            self.highlight.clear()
            self._frame(())
            return
        p.title.setText(step.title)
        p.text.setHtml(step.html)
        subject = step.provinces[0] if step.provinces else None
        self.highlight.show(step.provinces, subject=subject)
        self._frame(step.provinces)

    def _frame(self, provinces: tuple[str, ...] | list[str]) -> None:
        """Zoom the map to the units the step rings (issue 18: from the back of a classroom the
        units of a decision must be large), at most STEP_ZOOM times the whole board and never
        smaller than it; no provinces: the view as it was before the step-through."""
        w = self.window
        view = w.view
        scene = w.scene
        rect = QRectF()
        s = scene.unit_size
        for prov in provinces:
            item = scene.displaced_items.get(prov) or scene.unit_items.get(prov)
            point = item.pos() if item is not None else scene.anchor(prov)
            r = QRectF(point.x() - s, point.y() - s, 2 * s, 2 * s)
            rect = rect.united(r) if not rect.isNull() else r
        if rect.isNull():
            view.go_back_to(self._view_before)
            return
        margin = max(3 * s, 0.2 * max(rect.width(), rect.height()))
        rect = rect.adjusted(-margin, -margin, margin, margin)
        vp = view.viewport().rect()
        if vp.isEmpty():
            return
        fit = min(vp.width() / rect.width(), vp.height() / rect.height())
        target = max(1.0, min(STEP_ZOOM, fit / view.fit_scale()))
        view.zoom_by(target / view.zoom)
        view.centerOn(rect.center())

    def _draw_predict(self, phase: str) -> None:
        p = self.panel
        done = sum(1 for m in self.marks if m is not None)
        p.counter.setText(f"{done} / {len(self.to_predict)} marked")
        p.title.setText(f"Predict the outcome of {phase}")
        p.text.setHtml("<p style='font-size:16pt'>For each order: will it succeed or fail?</p>"
                       "<p style='font-size:14pt'>Click an order's arrow or row to choose it (or Tab / ↓ / ↑); "
                       "<b>S</b>: succeeds · <b>F</b>: fails — each marks the order and moves to the next one "
                       "(a ↓ right after a mark stays on it) · <b>Delete</b>: unmark · <b>Enter</b>: reveal and "
                       "score · Esc: leave</p>")
        self._fill_list(lambda i, r, m: f"{'✓ succeeds' if m else '✗ fails' if m is False else '?'}  —  "
                        f"{format_order(r.order)}", None)
        r = self.to_predict[self.selected] if self.to_predict else None
        if r is not None and isinstance(r.order, UnitOrder):
            self.highlight.show([r.order.province], subject=r.order.province)
        else:
            self.highlight.clear()
        self._draw_marks()

    def _draw_score(self, phase: str) -> None:
        p = self.panel
        total = len(self.to_predict)
        p.counter.setText("")
        p.title.setText(f"Score: {self.score} of {total} right")
        missed = self.missed()

        def line(i: int, r: OrderResult, m: bool | None) -> str:
            right = m is not None and m == r.succeeded
            said = "not marked" if m is None else ("said succeeds" if m else "said fails")
            verdict = "succeeded" if r.succeeded else "failed"
            return f"{'✓ right' if right else '✗ wrong'}  —  {format_order(r.order)} {verdict} ({said})"

        self._fill_list(line, lambda r, m: m is not None and m == r.succeeded)
        if not missed:
            p.text.setHtml(f"<p style='font-size:18pt; color:#1B6E20'><b>Every prediction right!</b></p>"
                           f"<p style='font-size:14pt'>All the results of {html.escape(phase)} are on the map.</p>")
        else:
            parts = [f"<p style='font-size:16pt'><b>Missed {len(missed)}:</b> why each went as it did.</p>"]
            for miss in missed:
                parts.append(explanation_html(self.entry, miss, size=14) + "<hr>")
            p.text.setHtml("".join(parts))
        chosen = self.to_predict[self.selected] if self.to_predict else None
        if chosen is not None:
            self.highlight.show(provinces_named(chosen, self.entry.results),
                                subject=chosen.order.province if isinstance(chosen.order, UnitOrder) else None)

    def _fill_list(self, text: object, good: object) -> None:
        lst = self.panel.list
        lst.blockSignals(True)
        lst.clear()
        for i, (r, m) in enumerate(zip(self.to_predict, self.marks, strict=True)):
            item = QListWidgetItem(text(i, r, m))  # type: ignore[operator]
            if good is not None:
                item.setForeground(QBrush(QColor("#1B6E20" if good(r, m) else "#B00020")))  # type: ignore[operator]
            lst.addItem(item)
        lst.setCurrentRow(self.selected)
        lst.blockSignals(False)

    def _draw_marks(self) -> None:
        scene = self.window.scene
        for r, m in zip(self.to_predict, self.marks, strict=True):
            if m is None or not isinstance(r.order, UnitOrder):
                continue
            unit = scene.unit_items.get(r.order.province)
            if unit is None:
                continue
            label = QGraphicsSimpleTextItem("✓" if m else "✗")
            font = QFont()
            font.setPixelSize(max(14, round(scene.unit_size * 1.8)))
            font.setBold(True)
            label.setFont(font)
            label.setBrush(QBrush(QColor("#1B6E20" if m else "#B00020")))
            label.setPen(QPen(QColor("white"), max(1.0, scene.unit_size * 0.06)))
            label.setPos(unit.pos() + QPointF(scene.unit_size * 0.5, -scene.unit_size * 2.0))
            label.setZValue(50)
            scene.addItem(label)
            self._mark_items.append(label)

    def _clear_marks(self) -> None:
        scene = self.window.scene
        for item in self._mark_items:
            if item.scene() is scene:
                scene.removeItem(item)
        self._mark_items = []

    def mark_texts(self) -> list[str]:
        """The panel's list, as shown (for tests)."""
        lst = self.panel.list
        return [lst.item(i).text() for i in range(lst.count())]

    # -- input ---------------------------------------------------------------------------------

    def _row_chosen(self, row: int) -> None:
        if 0 <= row < len(self.to_predict):
            self.select(row)

    def _map_clicked(self, point: QPointF, button: object = Qt.MouseButton.LeftButton) -> None:
        if not self.active or not self.predicting or button != Qt.MouseButton.LeftButton:
            return
        order = order_at(self.window.scene, point)
        for i, r in enumerate(self.to_predict):
            if order is not None and r.order == order:
                if self.revealed or i != self.selected:
                    self.select(i)
                else:  # a second click on the chosen order cycles its mark
                    cycle = {None: True, True: False, False: None}
                    self.marks[i] = cycle[self.marks[i]]
                    self._draw()
                return

    def handle_key(self, key: int, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> bool:
        """A key pressed in the window: True if the step-through used it."""
        if modifiers & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                        | Qt.KeyboardModifier.MetaModifier):
            return False
        if key == Qt.Key.Key_Escape:
            self.leave()
            return True
        if self.predicting and not self.revealed:
            if key in _PREDICT_NEXT:
                self.next_order()
            elif key in _PREDICT_PREV:
                self.select(self.selected - 1)
            elif key == Qt.Key.Key_S:
                self.mark(True)
            elif key == Qt.Key.Key_F:
                self.mark(False)
            elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Question):
                self.mark(None)
            elif key in _REVEAL:
                self.reveal()
            else:
                return False
            return True
        if self.predicting and key in (Qt.Key.Key_Tab, Qt.Key.Key_Backtab):
            self.select(self.selected + (1 if key == Qt.Key.Key_Tab else -1))
        elif key in _FORWARD:
            self.forward()
        elif key in _BACK:
            self.back()
        elif key == Qt.Key.Key_End:
            self.to_end()
        elif key == Qt.Key.Key_Home:
            self.to_start()
        else:
            return False
        return True

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind not in (QEvent.Type.ShortcutOverride, QEvent.Type.KeyPress) or not isinstance(event, QKeyEvent):
            return False
        if not isinstance(watched, QWidget) or watched.window() is not self.window:
            return False  # a dialog, or another window
        if not self._wants(event.key(), event.modifiers()):
            return False
        if kind == QEvent.Type.ShortcutOverride:
            event.accept()  # ours, not the window's shortcuts (S, F, End, Page Down, Esc ...)
            return True
        return self.handle_key(event.key(), event.modifiers())

    def _wants(self, key: int, modifiers: Qt.KeyboardModifier) -> bool:
        if modifiers & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier
                        | Qt.KeyboardModifier.MetaModifier):
            return False
        keys = {Qt.Key.Key_Escape, *_FORWARD, *_BACK, Qt.Key.Key_End, Qt.Key.Key_Home}
        if self.predicting:
            keys |= {*_PREDICT_NEXT, *_PREDICT_PREV, Qt.Key.Key_S, Qt.Key.Key_F, *_REVEAL, Qt.Key.Key_Delete,
                     Qt.Key.Key_Question, Qt.Key.Key_Tab, Qt.Key.Key_Backtab}
        return key in keys


def _panel(window: WindowShell) -> StepPanel:
    panel = getattr(window, "step_panel", None)
    if not isinstance(panel, StepPanel):
        panel = StepPanel(window)
        window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, panel)
        window.install_feature("step_panel", panel)
    projector = getattr(window, "projector", None)
    if projector is not None and getattr(projector, "active", False):  # made on the projector: its scale
        panel.text.set_scale(projector_scale(window))
    return panel


def start_step_through(window: WindowShell, entry: HistoryEntry, *, predict: bool = False) -> StepThrough | None:
    """Reveal the decisions of ``entry`` (an adjudicated phase) one at a time; with ``predict``,
    let the students mark every order first.  Refused (None) while the curtain is up."""
    if window.mode.covered():
        window.statusBar().showMessage("The board is covered: nothing can be stepped through now.", 5000)
        return None
    old = getattr(window, "step_through", None)
    if isinstance(old, StepThrough):
        old.leave()
    st = StepThrough(window, entry, predict=predict)
    window.install_feature("step_through", st)
    return st

