"""``OrderDock``: one power's orders in rulebook notation, and a box to type or paste orders.

Units without an order are flagged; an illegal order typed in is kept (as it would be on
paper) and shown with the reason it will fail; an unreadable or ambiguous one is refused with
the parser's message and left in the box to be corrected.  Nothing here is shown for a power
whose orders the controller says may not be seen.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping

from PySide6.QtCore import QEvent, QRectF, QSize, QStringListModel, Qt, Signal
from PySide6.QtGui import (QAbstractTextDocumentLayout, QBrush, QColor, QFocusEvent, QFont, QIcon, QKeyEvent,
                           QKeySequence, QPainter, QPaintEvent, QPalette, QPixmap, QResizeEvent, QShowEvent,
                           QTextDocument)
from PySide6.QtWidgets import (QApplication, QCompleter, QDockWidget, QHBoxLayout, QLabel, QLineEdit,
                               QListWidget, QListWidgetItem, QPushButton, QSizePolicy, QTabBar, QVBoxLayout,
                               QWidget)

from ...table.changes import TableChange
from ...engine.errors import AmbiguousOrderError, OrderError
from ...engine.options import power_options
from ...engine.orders import Build, Order, Remove, UnitOrder, Waive
from ...engine.state import ADJUSTMENT, MOVEMENT, RETREAT
from ...io.notation import format_order, location_label
from .. import override
from ..board import palette
from ..controller import GameController
from ..keys import is_undo_or_redo
from .interaction import OrderInteraction

WARN = QColor("#B45F00")
BAD = QColor("#B00020")


def power_icon(power: str, size: int = 18) -> QIcon:
    """A small disc in the power's colour with its letter (for tabs and lists)."""
    pix = QPixmap(size, size)
    pix.fill(Qt.GlobalColor.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setBrush(palette.power_colour(power))
    p.setPen(palette.OUTLINE)
    p.drawEllipse(1, 1, size - 2, size - 2)
    font = QFont()
    font.setBold(True)
    font.setPixelSize(int(size * 0.6))
    p.setFont(font)
    p.setPen(palette.power_ink(power))
    p.drawText(pix.rect(), Qt.AlignmentFlag.AlignCenter, palette.power_letter(power))
    p.end()
    return QIcon(pix)


_Line = tuple[str, QColor | None, str, str]  # a list line: text, colour, tooltip, key

class OrderLineEdit(QLineEdit):
    """A one-line order box; pasting several lines submits each of them."""

    pasted_lines = Signal(list)
    focused = Signal()

    @override
    def focusInEvent(self, event: QFocusEvent) -> None:
        self.focused.emit()
        super().focusInEvent(event)

    @override
    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.ShortcutOverride and isinstance(event, QKeyEvent) \
                and is_undo_or_redo(event):
            event.ignore()  # Ctrl+Z / Ctrl+Shift+Z / Ctrl+Y undo and redo the order edits, not the text
            return True
        return super().event(event)

    def forget(self) -> None:
        """Empty the box and its own undo history.  ``clear()`` is undoable: the next power at
        the keyboard could bring back what the last one typed with the box's right-click Undo."""
        self.setText("")

    @override
    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Paste):
            text = QApplication.clipboard().text()
            lines = [ln for ln in re.split(r"[\r\n;]+", text) if ln.strip()]
            if len(lines) > 1:
                self.pasted_lines.emit(lines)
                return
        super().keyPressEvent(event)


class SummaryText(QWidget):
    """The panel's summary of the power shown (rich text, word-wrapped, a fixed three lines).

    Painted by itself rather than a QLabel: a label whose text changes asks for a new layout, and
    the summary changes at nearly every click (another power's unit, another count), which
    re-laid out the whole window each time (0.7 ms of a click's 4 to 5).  Its size never
    depends on its text, so a new text is only painted.
    """

    def __init__(self, lines: int = 3) -> None:
        super().__init__()
        self._text = ""
        self._doc = QTextDocument(self)
        self._doc.setDocumentMargin(0)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(lines * self.fontMetrics().lineSpacing() + 4)

    def text(self) -> str:
        return self._text

    def setText(self, text: str) -> None:
        if text == self._text:
            return
        self._text = text
        self._doc.setHtml(text)
        self.setAccessibleName(self._doc.toPlainText())  # what a screen reader says (a label's text)
        self.update()

    @override
    def sizeHint(self) -> QSize:
        return QSize(200, self.height())

    @override
    def minimumSizeHint(self) -> QSize:
        return QSize(0, self.height())

    @override
    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        # (each of these lays the text out again, even unchanged: set only when they change)
        if self._doc.defaultFont() != self.font():
            self._doc.setDefaultFont(self.font())
        if self._doc.textWidth() != self.width():
            self._doc.setTextWidth(self.width())
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(QPalette.ColorRole.Text, self.palette().color(QPalette.ColorRole.WindowText))
        context.clip = QRectF(self.rect())
        painter.setClipRect(self.rect())
        self._doc.documentLayout().draw(painter, context)
        painter.end()


class PowerTabs(QTabBar):
    """The powers' tabs, every one in sight whatever the panel's width (issue 34: a laptop's panel
    showed 3½ of 7, the rest behind scroll arrows): each power's full name while they all fit,
    else its first three letters, else its disc alone; the full name on hover."""

    def __init__(self) -> None:
        super().__init__()
        self.setExpanding(False)
        self.setUsesScrollButtons(False)
        self.setElideMode(Qt.TextElideMode.ElideNone)
        self.setDrawBase(False)
        self._names: list[str] = []
        self._form = -1

    def set_powers(self, icons: list[QIcon], names: list[str]) -> None:
        while self.count():
            self.removeTab(0)
        self._names = list(names)
        for icon, name in zip(icons, names, strict=True):
            index = self.addTab(icon, name)
            self.setTabToolTip(index, name)
        self._form = -1
        self._fit()

    def _texts(self, form: int) -> list[str]:
        return [name if form == 0 else name[:3] if form == 1 else "" for name in self._names]

    def _width(self, form: int) -> int:
        """How wide the tabs are with the names in ``form`` (0 full, 1 three letters, 2 none): each
        tab's width as the style sizes it now, its name's width swapped for the one in ``form``.
        (Asking the style its tab padding here instead would make Python's copies of all of
        ``QStyle``'s enumerations at the window's start: 5 ms of its 0.3 s.)"""
        metrics = self.fontMetrics()
        return sum(self.tabSizeHint(i).width() - metrics.horizontalAdvance(self.tabText(i))
                   + metrics.horizontalAdvance(text) for i, text in enumerate(self._texts(form)))

    def _fit(self) -> None:
        width = self.width() if self.isVisible() else 0
        form = next((f for f in (0, 1) if width and self._width(f) <= width), 2)
        if form != self._form:
            self._form = form
            for i, text in enumerate(self._texts(form)):
                self.setTabText(i, text)

    @override
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    @override
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._fit()

    @override
    def minimumSizeHint(self) -> QSize:
        return QSize(self._width(2), super().minimumSizeHint().height())

    @override
    def sizeHint(self) -> QSize:
        return QSize(self._width(0), super().sizeHint().height())


class OrderDock(QDockWidget):
    """The order panel of one power at a time (tabs choose the power)."""

    def __init__(self, controller: GameController, interaction: OrderInteraction,
                 parent: QWidget | None = None) -> None:
        super().__init__("Orders", parent)
        self.setObjectName("OrderDock")
        self.controller = controller
        self.interaction = interaction
        self.power: str = controller.board.power_ids[0]
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        self.tabs = PowerTabs()
        self.tabs.currentChanged.connect(self._tab_changed)
        layout.addWidget(self.tabs)
        self.summary = SummaryText()
        layout.addWidget(self.summary)
        self.list = QListWidget()
        self.list.setAlternatingRowColors(True)
        self.list.setAccessibleName("Orders of the selected power")
        # long lines (a winter's "build not chosen yet: ...") wrap instead of running off the panel
        self.list.setWordWrap(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.list.itemActivated.connect(self._item_activated)
        self.list.itemClicked.connect(self._item_activated)
        layout.addWidget(self.list, 1)
        buttons = QHBoxLayout()
        self.kind_buttons: dict[str, QPushButton] = {}
        for letter, text in (("H", "Hold"), ("M", "Move"), ("S", "Support"), ("C", "Convoy"), ("D", "Disband")):
            b = QPushButton(text)
            b.setToolTip(f"{text} ({letter}) for the selected unit")
            b.setFocusPolicy(Qt.FocusPolicy.TabFocus)
            b.clicked.connect(lambda _=False, k=letter: self._kind(k))
            buttons.addWidget(b)
            self.kind_buttons[letter] = b
        layout.addLayout(buttons)
        row = QHBoxLayout()
        self.clear_button = QPushButton("Clear order")
        self.clear_button.clicked.connect(self._clear_selected)
        self.clear_all_button = QPushButton("Clear all")
        self.clear_all_button.clicked.connect(lambda: self.controller.clear_orders(self.power))
        self.waive_button = QPushButton("Waive a build")
        self.waive_button.clicked.connect(self._waive)
        row.addWidget(self.clear_button)
        row.addWidget(self.clear_all_button)
        row.addWidget(self.waive_button)
        layout.addLayout(row)
        self.entry = OrderLineEdit()
        self.entry.setPlaceholderText("Type an order, e.g. A Par - Bur   (Enter to give it)")
        self.entry.setAccessibleName("Order entry")
        self.entry.returnPressed.connect(self.submit_entry)
        self.entry.pasted_lines.connect(self.submit_lines)
        self.entry.focused.connect(self.update_completions)
        self.completer_model = QStringListModel(self)
        self.completer = QCompleter(self.completer_model, self)
        self.completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.completer.setFilterMode(Qt.MatchFlag.MatchContains)
        self.completer.setMaxVisibleItems(14)
        self.entry.setCompleter(self.completer)
        layout.addWidget(self.entry)
        self.feedback = QLabel()
        self.feedback.setWordWrap(True)
        # fixed heights above and below the box: it stays in one place for every power and message
        lines = self.feedback.fontMetrics().lineSpacing()
        self.feedback.setFixedHeight(3 * lines + 4)
        self.feedback.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.feedback.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.feedback)
        # one minimum width for every phase, the widest (the four move buttons): a minimum that
        # shrank in retreats and builds let the window widen the docks, and the map jumped
        self.kind_buttons["D"].hide()
        self.waive_button.hide()
        body.setMinimumWidth(body.minimumSizeHint().width())
        self.setWidget(body)
        self._completion_for: tuple[str, int, int] | None = None
        self._submitting = False  # an order typed in the box is being filed
        self._refused: list[str] = []  # the lines refused since the last order given, as HTML
        self._build_tabs()
        controller.changed.connect(self._on_changed)
        interaction.mode_changed.connect(self._mode_changed)
        self.refresh()

    # -- powers ------------------------------------------------------------------------------

    def _build_tabs(self) -> None:
        self.tabs.blockSignals(True)
        ids = list(self.controller.board.power_ids)
        self.tabs.set_powers([power_icon(pid) for pid in ids], [self.controller.power_name(pid) for pid in ids])
        ids = list(self.controller.board.power_ids)
        if self.power not in ids:
            self.power = ids[0]
        self.tabs.setCurrentIndex(ids.index(self.power))
        self.tabs.blockSignals(False)

    def _tab_changed(self, index: int) -> None:
        ids = self.controller.board.power_ids
        if 0 <= index < len(ids):
            self.show_power(ids[index])

    def show_power(self, power: str) -> None:
        if power == self.power:
            return
        self.power = power
        ids = list(self.controller.board.power_ids)
        self.tabs.blockSignals(True)
        self.tabs.setCurrentIndex(ids.index(power))
        self.tabs.blockSignals(False)
        if not self._submitting:  # (a typed order shows its power's tab: its refusals stay said)
            self._clear_feedback()
        self.refresh()

    # -- refresh -----------------------------------------------------------------------------

    def _on_changed(self, record: TableChange) -> None:
        if record.game:
            self._build_tabs()
        c = self.controller
        if record.visibility or record.game:
            self._clear_feedback()  # "Given: A Par - Bur" must not outlive the power that gave it
            self.entry.forget()  # nor what it typed, in the box's own undo history
        elif record.orders and not self._submitting:
            self._clear_feedback()  # an order made otherwise (a click, undo): the box's last word is stale
        if record.visibility and c.active_power is not None and self.power not in c.active_powers:
            self.show_power(c.active_power)
            return
        if not record.board_changed and len(record.orders) == 1 and c.active_power is None:
            (power,) = record.orders
            if power != self.power and c.can_see(power):
                self.show_power(power)  # show the power whose orders were just given
                return
        if record.board_changed or self.power in record.orders:
            self.refresh()

    def refresh(self) -> None:
        c = self.controller
        power = self.power
        state = c.state
        locked = c.active_power is not None
        for i, pid in enumerate(c.board.power_ids):
            self.tabs.setTabEnabled(i, not locked or pid in c.active_powers)
        self.list.clear()
        self._completion_for = None
        name = c.power_name(power)
        player = c.player_name(power)
        who = f"{name} ({player})" if player else name
        can_order = c.can_order(power)
        for b in self.kind_buttons.values():
            b.setEnabled(can_order)
        self.clear_button.setEnabled(can_order)
        self.clear_all_button.setEnabled(can_order)
        self.entry.setEnabled(can_order)
        kind = state.phase.kind
        self.kind_buttons["D"].setVisible(kind == RETREAT)
        for k in "HMSC":
            self.kind_buttons[k].setVisible(kind == MOVEMENT)
        self.waive_button.setVisible(kind == ADJUSTMENT and state.adjustment_delta(power) > 0)
        if c.viewing is not None:
            self.summary.setText(f"<b>{who}</b>: you are looking at an earlier phase; its orders and results "
                                 "are in the Results panel.")
            return
        if not c.can_see(power):
            why = ("while another power is at the keyboard" if c.active_power is not None
                   else "until they are revealed")
            self.summary.setText(f"<b>{who}</b>: orders are secret {why}.")
            return
        mine = c.orders_of(power)
        if kind == MOVEMENT:
            text, lines = self._movement_lines(mine)
        elif kind == RETREAT:
            text, lines = self._retreat_lines(mine)
        else:
            text, lines = self._adjustment_lines(mine)
        self.summary.setText(f"<b>{who}</b> — {state.phase.label}: {text}")
        for text, colour, tip, key in lines:
            item = QListWidgetItem(text)
            if colour is not None:
                item.setForeground(QBrush(colour))
            if tip:
                item.setToolTip(tip)
            item.setData(Qt.ItemDataRole.UserRole, key)
            self.list.addItem(item)
        self._sync_selection()

    def _movement_lines(self, mine: Mapping[str, Order]) -> tuple[str, list[_Line]]:
        """Each unit's order (or that it has none and will hold), and how many are still without one."""
        units = sorted(self.controller.state.units_of(self.power), key=lambda u: u.location)
        lines: list[_Line] = []
        missing = 0
        for u in units:
            order = mine.get(u.province)
            if order is None:
                missing += 1
                lines.append((f"⚠ {u.kind} {location_label(u.location)} — no order (will hold)", WARN,
                              "This unit has no order yet.", u.province))
            else:
                lines.append(self._line(order, u.province))
        text = (f"{len(units)} unit{'s' if len(units) != 1 else ''}, "
                + (f"<span style='color:{WARN.name()}'>{missing} without orders</span>" if missing else "all ordered"))
        return text, lines

    def _retreat_lines(self, mine: Mapping[str, Order]) -> tuple[str, list[_Line]]:
        """Each dislodged unit's retreat (or that it has none and will be disbanded)."""
        mine_dis = [d for d in self.controller.state.dislodged if d.unit.power == self.power]
        lines: list[_Line] = []
        for d in mine_dis:
            order = mine.get(d.province)
            if order is None:
                text = f"⚠ {d.unit.kind} {location_label(d.unit.location)} — dislodged, no order (disbanded)"
                lines.append((text, WARN, "", d.province))
            else:
                lines.append(self._line(order, d.province))
        text = (f"{len(mine_dis)} dislodged unit{'s' if len(mine_dis) != 1 else ''} to retreat"
                if mine_dis else "nothing to retreat")
        return text, lines

    def _adjustment_lines(self, mine: Mapping[str, Order]) -> tuple[str, list[_Line]]:
        """The builds or removals given, and how many are still owed."""
        c = self.controller
        delta = c.state.adjustment_delta(self.power)
        owed = c.orders_owed(self.power)
        given = list(mine.values())
        lines = [self._line(order, key) for key, order in sorted(mine.items())]
        if delta > 0:
            left = owed - sum(1 for o in given if isinstance(o, (Build, Waive)))
            text = (f"{delta} build{'s' if delta != 1 else ''} owed"
                    + (f" ({owed} possible: too few free home centres)" if owed < delta else "")
                    + (f"; <span style='color:{WARN.name()}'>{left} still to give</span>" if left > 0 else
                       "; all given"))
            lines += [("⚠ build not chosen yet: click an empty home centre (or waive)", WARN, "", "")] * max(0, left)
        elif delta < 0:
            left = owed - sum(1 for o in given if isinstance(o, Remove))
            text = (f"{-delta} unit{'s' if delta != -1 else ''} to remove"
                    + (f"; <span style='color:{WARN.name()}'>{left} still to choose</span> "
                       "(else the rules choose)" if left > 0 else "; all chosen"))
        else:
            text = "no adjustments"
        return text, lines

    def _line(self, order: Order, key: str) -> _Line:
        text = format_order(order)
        reason = self.controller.illegal_reason(order)
        if reason is not None:
            return (f"✗ {text} — illegal: {reason} (the unit will hold)", BAD, reason, key)
        return (text, None, "", key)

    def lines(self) -> list[str]:
        """The texts shown in the list (for tests and screen readers)."""
        return [self.list.item(i).text() for i in range(self.list.count())]

    def _mode_changed(self, mode: object) -> None:
        prov = self.interaction.mode.unit
        owner = self.interaction.owner_of(prov) if prov else None
        if owner is not None and owner != self.power and self.controller.can_see(owner):
            self.show_power(owner)
        self._sync_selection()

    def _sync_selection(self) -> None:
        prov = self.interaction.mode.unit
        self.list.blockSignals(True)
        self.list.clearSelection()
        for i in range(self.list.count()):
            item = self.list.item(i)
            if prov is not None and item.data(Qt.ItemDataRole.UserRole) == prov:
                item.setSelected(True)
                self.list.setCurrentItem(item)
        self.list.blockSignals(False)

    # -- buttons -----------------------------------------------------------------------------

    def _item_activated(self, item: QListWidgetItem) -> None:
        key = item.data(Qt.ItemDataRole.UserRole)
        if key and self.controller.can_order(self.power) and self.interaction.mode.unit != key:
            self.interaction.select_unit(key)

    def _selected_key(self) -> str | None:
        if self.interaction.mode.unit:
            return self.interaction.mode.unit
        item = self.list.currentItem()
        key = item.data(Qt.ItemDataRole.UserRole) if item else None
        return str(key) if key else None

    def _kind(self, letter: str) -> None:
        key = self._selected_key()
        if key is None:
            self.feedback.setText("Select a unit (click it on the map or in the list) first.")
            return
        if self.interaction.mode.unit != key:
            self.interaction.select_unit(key)
        self.interaction.key(letter)

    def _clear_selected(self) -> None:
        key = self._selected_key()
        if key is not None:
            self.controller.clear_order(self.power, key)
            self.interaction.back()

    def _waive(self) -> None:
        try:
            self.controller.set_order(Waive(self.power))
        except OrderError as exc:
            self.feedback.setText(str(exc))

    # -- typing ------------------------------------------------------------------------------

    def update_completions(self) -> None:
        """Every legal order of this power, as completions for the order box."""
        c = self.controller
        key = (self.power, c.state.phase.index, len(c.game.history))
        if key == self._completion_for:
            return
        self._completion_for = key
        texts: list[str] = []
        if c.can_order(self.power):
            for options in power_options(c.state, self.power).values():
                texts.extend(format_order(o) for o in options)
        self.completer_model.setStringList(texts)

    def submit_entry(self) -> None:
        text = self.entry.text().strip()
        if not text:
            return
        if self.submit_text(text):
            self.entry.clear()
        else:
            self.entry.selectAll()  # kept to be corrected, but the next line typed replaces it

    def submit_lines(self, lines: list[str]) -> None:
        """Pasted lines: each given or refused on its own; the first refused one is left in the
        box (selected), each refusal listed with its reason on a line of its own."""
        failed = [ln for ln in lines if not self.submit_text(ln)]
        self.entry.setText(failed[0].strip() if failed else "")
        self.entry.selectAll()

    def _clear_feedback(self) -> None:
        self._refused.clear()
        self.feedback.clear()

    def _say(self, html_text: str) -> None:
        """The box's last word, with the lines refused since (each on its own line, newest first,
        as many as the panel shows) under it."""
        self.feedback.setText("<br>".join([html_text, *self._refused[:2]]))

    def submit_text(self, text: str) -> bool:
        """Give one typed order; returns False (with the message shown) if it was refused.

        The order goes to the unit's owner (a build: the centre's home power), whichever
        power's tab is showing, when the typist may order for that power; otherwise, and for
        a unit that is not there, it is refused with the reason (nothing is filed).  The reading
        is ``io.typed_orders``' (the phones read typed orders the same way)."""
        from ...io.typed_orders import read_typed_order  # the order parser: at the first typed order

        c = self.controller
        try:
            typed = read_typed_order(text, self.power, c.state, self._refusal)
        except OrderError as exc:
            self._refuse(text, exc)
            return False
        for_whom = f" for {c.power_name(typed.power)}" if typed.power != self.power else ""
        self._submitting = True
        try:
            filed = c.set_order(typed.order, allow_illegal=bool(typed.illegal))
        except OrderError as exc:
            self._refuse(text, exc)
            return False
        finally:
            self._submitting = False
        if typed.illegal:  # (names a Formal Diplomacy rule and seed 003)
            self._say(f"<span style='color:{BAD.name()}'>Kept as written{for_whom}, but illegal: "
                      f"{html.escape(typed.illegal)}. The unit will hold.</span>")
            return True
        self._say(html.escape(f"Given{for_whom}: {format_order(filed)}", quote=False))
        return True

    def _refusal(self, power: str, written: Order) -> str | None:
        """Why the typist may not order for ``power`` (the unit's owner), naming whose unit it is."""
        refusal = self.controller.order_refusal(power)
        if refusal is None:
            return None
        if power != self.power and isinstance(written, UnitOrder):
            unit = f"{written.unit_kind} {location_label(written.location)}" if written.unit_kind \
                else location_label(written.location)
            return f"{unit} is {self.controller.board.power(power).adjective}: {refusal}"
        return refusal

    def _refuse(self, text: str, exc: Exception) -> None:
        what = "ambiguous" if isinstance(exc, AmbiguousOrderError) else "not accepted"
        line = f"<span style='color:{BAD.name()}'>{html.escape(f'“{text}” {what}: {exc}', quote=False)}</span>"
        self._refused = [line, *[r for r in self._refused if r != line]]
        self.feedback.setText("<br>".join(self._refused[:3]))
