"""``CurtainWidget``: covers the whole window while the laptop goes round ("Pass the laptop to France")."""

from __future__ import annotations

from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QHideEvent, QIntValidator, QKeyEvent, QShowEvent
from PySide6.QtWidgets import (QApplication, QComboBox, QDockWidget, QFrame, QLabel, QLineEdit,
                               QPushButton, QStackedWidget, QVBoxLayout, QWidget)

from ....io.pins import MAX_PIN_DIGITS
from ....table import sealcodes
from ....table.computer import computer_seats
from ....table.hotseat import HOST_PIN_SET, NO_HOST_PIN_CURTAIN, READY, HotSeatSession
from ... import override
from ...board.palette import power_colour, power_ink, power_letter
from .names import _player_suffix, _power_name, seat_title
from ...widgets import bold_font, centre_on_page, row

if TYPE_CHECKING:
    from ...controller import GameController


class CurtainWidget(QWidget):
    """Covers the whole window: "Pass the laptop to France".  Shows no order of anyone.

    It follows its parent's size (an event filter), takes keyboard focus, and offers: open the
    next power (with its PIN if it has one), let another power go first or reopen one (a host
    action), reveal when all have sealed, and the host's "reveal now".

    While it is up nothing of the window may come above it: a sibling that is raised or shown
    (Ctrl+L raises the Orders dock, View ▸ shows a panel) is put back under it at once, a
    floating panel is hidden until the curtain goes, and keyboard focus that wanders into the
    window behind comes back to the curtain.  Its buttons keep their places on every screen
    (hidden rows keep their room), so nobody presses the wrong one out of habit.
    """

    open_requested = Signal(str, str)  # power, pin ("" when none): the next power takes the laptop
    other_requested = Signal(str, str)  # power, pin: "Someone else / Reopen" (reopening is the host's)
    reveal_requested = Signal()
    force_requested = Signal()
    #: a power that sealed asks to see its seal code again (its own PIN is asked): power
    seal_code_requested = Signal(str)

    def __init__(self, parent: QWidget, controller: GameController | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("curtain")
        self.controller = controller
        self.session: HotSeatSession | None = None
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setAutoFillBackground(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._watched: list[QWidget] = []
        self._hidden_floating: list[QWidget] = []
        self._watching_focus = False

        self.heading = QLabel("Pass the laptop to")
        self.power_label = QLabel()
        self.player_label = QLabel()
        self.hint = QLabel()
        self.pin_edit = QLineEdit()
        self.pin_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin_edit.setMaxLength(MAX_PIN_DIGITS)
        self.pin_edit.setValidator(QIntValidator(0, 99_999_999, self))
        self.pin_edit.setPlaceholderText("PIN")
        self.pin_edit.setFixedWidth(120)
        self.pin_edit.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.error_label = QLabel()
        self.open_button = QPushButton()
        self.open_button.setDefault(True)
        self.open_button.setMinimumHeight(44)
        self.other_combo = QComboBox()
        self.other_button = QPushButton("Go")
        self.reveal_button = QPushButton("Reveal all orders and adjudicate")
        self.reveal_button.setMinimumHeight(44)
        self.force_button = QPushButton("Host: reveal now")
        self.force_button.setToolTip("Reveal and adjudicate without waiting for everyone to seal")
        self.sealed_label = QLabel()
        # a power that sealed sees its seal code again here, with its own PIN (issue 34, finding 7)
        self.code_caption = QLabel("My seal code:")
        self.code_combo = QComboBox()
        self.code_combo.setAccessibleName("The power that sealed and wants to see its seal code again")
        self.code_button = QPushButton("Show it")
        self.code_button.setToolTip("The power that sealed sees its seal code again, large (its own PIN is asked; "
                                    "everyone else looks away)")
        self.notice_label = QLabel()  # "France's sealed orders were reopened by ...": the table is told
        self.host_label = QLabel()  # whether host actions need the host PIN
        self.clock_label = QLabel()  # the writing window's time left, when a clock runs
        self.clock_label.hide()

        big = bold_font(self.font(), 40)
        self.power_label.setFont(big)
        mid = QFont(self.font())
        mid.setPointSize(16)
        for w in (self.heading, self.player_label, self.hint, self.sealed_label, self.clock_label):
            w.setFont(mid)
            w.setWordWrap(True)
        for w in (self.heading, self.power_label, self.player_label, self.hint, self.error_label,
                  self.sealed_label, self.clock_label, self.notice_label, self.host_label):
            w.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.notice_label.setWordWrap(True)
        self.host_label.setWordWrap(True)
        self.error_label.setStyleSheet("color: #ffb4b4;")
        self.notice_label.setStyleSheet("color: #ffd27a; font-weight: bold;")
        # every row keeps its height on every screen: the buttons never move
        line = QFontMetrics(mid).lineSpacing()
        small = QFontMetrics(self.font()).lineSpacing()
        for w, lines in ((self.clock_label, 1), (self.heading, 1), (self.player_label, 1), (self.hint, 3),
                         (self.sealed_label, 2)):
            w.setFixedHeight(lines * line + 6)
        self.power_label.setFixedHeight(QFontMetrics(big).lineSpacing() + 16)
        for w, lines in ((self.error_label, 1), (self.notice_label, 3), (self.host_label, 2)):
            w.setFixedHeight(lines * small + 6)
        kept: tuple[QWidget, ...] = (self.clock_label, self.player_label, self.pin_edit, self.error_label,
                                     self.other_combo, self.other_button, self.force_button, self.notice_label,
                                     self.code_caption, self.code_combo, self.code_button)
        for widget in kept:
            policy = widget.sizePolicy()
            policy.setRetainSizeWhenHidden(True)
            widget.setSizePolicy(policy)
        self.other_caption = QLabel("Someone else:")
        caption_policy = self.other_caption.sizePolicy()
        caption_policy.setRetainSizeWhenHidden(True)
        self.other_caption.setSizePolicy(caption_policy)
        self.other_caption.setFixedWidth(QFontMetrics(self.font()).horizontalAdvance("Someone else:") + 8)
        # the open button and the reveal button share one place
        self.action_stack = QStackedWidget()
        self.action_stack.addWidget(self.open_button)
        self.action_stack.addWidget(self.reveal_button)
        self.action_stack.setFixedHeight(48)

        panel = QFrame(self)
        panel.setObjectName("curtainPanel")
        panel.setMaximumWidth(640)
        box = QVBoxLayout(panel)
        box.setSpacing(12)
        box.addWidget(self.clock_label)
        box.addWidget(self.heading)
        box.addWidget(self.power_label, 0, Qt.AlignmentFlag.AlignHCenter)
        box.addWidget(self.player_label)
        box.addWidget(self.hint)
        box.addLayout(row(None, self.pin_edit, None))
        box.addWidget(self.error_label)
        box.addWidget(self.action_stack)
        box.addLayout(row(self.other_caption, (self.other_combo, 1), self.other_button))
        box.addWidget(self.sealed_label)
        box.addLayout(row(self.code_caption, (self.code_combo, 1), self.code_button))
        box.addWidget(self.notice_label)
        box.addLayout(row((self.host_label, 1), self.force_button))
        # the seal code of the power that just sealed, large, in place of the panel until that
        # power hides it (issue 34, finding 7): the next player never finds it on the curtain
        self.seal_page = QFrame(self)
        self.seal_page.setObjectName("sealCodePage")
        self.seal_page.setMaximumWidth(640)
        self.seal_title = QLabel()
        self.seal_title.setFont(mid)
        self.seal_title.setWordWrap(True)
        self.seal_code_label = QLabel()
        code_font = bold_font(self.font(), 44)
        code_font.setStyleHint(QFont.StyleHint.Monospace)
        self.seal_code_label.setFont(code_font)
        self.seal_code_label.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.seal_code_label.setWordWrap(True)
        self.seal_hint = QLabel()
        self.seal_hint.setFont(mid)
        self.seal_hint.setWordWrap(True)
        for w in (self.seal_title, self.seal_code_label, self.seal_hint):
            w.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.seal_done_button = QPushButton("I have noted it \u2014 hide my code")
        self.seal_done_button.setMinimumHeight(44)
        self.seal_done_button.clicked.connect(self.hide_seal_code)
        seal_box = QVBoxLayout(self.seal_page)
        seal_box.setSpacing(16)
        for item in (self.seal_title, self.seal_code_label, self.seal_hint, self.seal_done_button):
            seal_box.addWidget(item)
        self.seal_power = ""  # whose code is shown ("" when none)
        self.panel = panel
        self.pages = QStackedWidget()
        self.pages.addWidget(panel)
        self.pages.addWidget(self.seal_page)
        centre_on_page(self, self.pages, 3)

        self.open_button.clicked.connect(self._on_open)
        self.pin_edit.returnPressed.connect(self._on_open)
        self.other_button.clicked.connect(self._on_other)
        self.other_combo.currentIndexChanged.connect(lambda _i: self._update_pin_field())
        self.reveal_button.clicked.connect(self.reveal_requested)
        self.force_button.clicked.connect(self.force_requested)
        self.code_button.clicked.connect(self._on_code)
        self._colour = QColor("#20262e")
        parent.installEventFilter(self)
        self.setGeometry(parent.rect())
        self.hide()

    # -- covering the parent -----------------------------------------------------------------

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        parent = self.parentWidget()
        kind = event.type()
        if parent is not None and watched is parent and kind in (QEvent.Type.Resize, QEvent.Type.Show):
            self.setGeometry(parent.rect())
            if self.isVisible():
                self.raise_()
        elif parent is not None and watched is parent and kind == QEvent.Type.ChildAdded and self.isVisible():
            # a new panel or tab bar of the window would come above us: watch it and stay on top
            self.raise_()
            QTimer.singleShot(0, self._rewatch)
        elif self.isVisible() and watched is not self and isinstance(watched, QWidget) \
                and kind in (QEvent.Type.ZOrderChange, QEvent.Type.Show):
            if isinstance(watched, QDockWidget) and watched.isFloating():
                # a floating panel cannot be covered: it goes while the curtain is up
                if watched not in self._hidden_floating:
                    self._hidden_floating.append(watched)
                QTimer.singleShot(0, self._hide_floating)
            elif not watched.isWindow():  # (dialogs over the curtain are left alone)
                self.raise_()  # Ctrl+L, View ▸ Orders: nothing comes above the curtain
        return False

    @override
    def keyPressEvent(self, event: QKeyEvent) -> None:
        event.accept()  # keys never reach the board underneath

    def _siblings(self) -> list[QWidget]:
        parent = self.parentWidget()
        if parent is None:
            return []
        return [w for w in parent.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
                if w is not self and (not w.isWindow() or isinstance(w, QDockWidget))]

    def _hide_floating(self) -> None:
        if not self.isVisible():
            return
        for w in self._hidden_floating:
            if shiboken6.isValid(w) and w.isVisible():
                w.hide()

    def _watch(self) -> None:
        """While up: watch every sibling (docks, menu bar, central widget) and the focus."""
        for w in self._siblings():
            if w not in self._watched:
                w.installEventFilter(self)
                self._watched.append(w)
            if isinstance(w, QDockWidget) and w.isFloating() and w.isVisible() and w not in self._hidden_floating:
                self._hidden_floating.append(w)
        self._hide_floating()
        app = QApplication.instance()
        if isinstance(app, QApplication) and not self._watching_focus:
            app.focusChanged.connect(self._on_focus_changed)
            self._watching_focus = True

    def _rewatch(self) -> None:
        if self.isVisible():
            self._watch()
            self.raise_()

    def _unwatch(self) -> None:
        for w in self._watched:
            if shiboken6.isValid(w):
                w.removeEventFilter(self)
        self._watched = []
        app = QApplication.instance()
        if isinstance(app, QApplication) and self._watching_focus:
            app.focusChanged.disconnect(self._on_focus_changed)
            self._watching_focus = False
        floating, self._hidden_floating = self._hidden_floating, []
        for w in floating:
            if shiboken6.isValid(w):
                w.show()

    def _on_focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if new is None or not self.isVisible() or new is self or self.isAncestorOf(new):
            return
        parent = self.parentWidget()
        if parent is not None and (new is parent or parent.isAncestorOf(new)):
            self._take_focus()  # the order box (Ctrl+L) or a panel behind the curtain: back here

    def _take_focus(self) -> None:
        if not self.pin_edit.isHidden():
            self.pin_edit.setFocus()
        elif not self.open_button.isHidden() and self.open_button.isVisibleTo(self):
            self.open_button.setFocus()
        else:
            self.setFocus()

    def cover(self, *, activate: bool = True) -> None:
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
        # a popup of the window behind (the order box's completions: the orders being typed) is a
        # window of its own, above the curtain: closed first
        for _ in range(8):
            popup = QApplication.activePopupWidget()
            if popup is None or popup is self or not popup.isVisible():
                break
            popup.close()
        self.show()
        self.raise_()
        self._watch()
        if activate:
            self.activateWindow()
        self._take_focus()

    @override
    def hideEvent(self, event: QHideEvent) -> None:
        parent = self.parentWidget()
        if parent is None or not self.isVisibleTo(parent):  # taken down, not just minimised with the window
            self._unwatch()
            self.hide_seal_code()  # a seal code never comes back with the curtain
        super().hideEvent(event)

    @override
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._watch()  # also when the window comes back with the curtain still up

    # -- content -----------------------------------------------------------------------------

    def show_seal_code(self, power: str, name: str, code: str, *, again: bool = False) -> None:
        """``name`` (``power``'s seat) sees its seal code, large, until it hides it."""
        self.seal_power = power
        self.seal_title.setText(f"{name}: your seal code" if again else f"{name} sealed. Your seal code:")
        self.seal_code_label.setText(code)
        self.seal_hint.setText("Note it down: at the reveal every power's code is read out, and yours "
                               "must match it. Hide it before you pass the laptop on.")
        self.pages.setCurrentWidget(self.seal_page)
        self.seal_done_button.setFocus()

    def hide_seal_code(self) -> None:
        """The code is hidden: the curtain calls the next player."""
        self.seal_power = ""
        self.seal_code_label.clear()
        self.pages.setCurrentWidget(self.panel)
        if self.isVisible():
            self.pin_edit.setFocus()

    @property
    def showing_seal_code(self) -> bool:
        return bool(self.seal_power) and self.pages.currentWidget() is self.seal_page

    def show_session(self, session: HotSeatSession, *, host_pin: bool = False) -> None:
        self.session = session
        self.error_label.clear()
        self.pin_edit.clear()
        nxt = session.next_power
        ready = session.stage == READY or nxt is None
        c = self.controller
        what = session.round  # "orders" or (Formal Diplomacy) "declarations"
        self.reveal_button.setText("Reveal all declarations together" if session.declaring
                                   else "Reveal all orders and adjudicate")
        if ready:
            self.heading.setText(f"Every power has sealed its {what}")
            self.power_label.setText("Reveal")
            self._colour = QColor("#20262e")
            self.power_label.setStyleSheet("color: #f4f6f8; background: transparent;")
            self.player_label.setText("")
            self.hint.setText("Gather round: all declarations will be shown together, then orders are written."
                              if session.declaring else "Gather round: all orders will be shown and adjudicated.")
        else:
            assert nxt is not None
            seat = session.seat_of(nxt)
            self.heading.setText("Declarations — pass the laptop to" if session.declaring else "Pass the laptop to")
            action = "write my declarations" if session.declaring else "show my orders"
            if len(seat) > 1:  # one player, several powers: one turn for all of them
                player = c.player_name(nxt) if c is not None else None
                self.power_label.setText(f" {player or seat_title(c, seat)} ")
                self.power_label.setStyleSheet("color: #f4f6f8; background: #3a4452; border-radius: 14px;"
                                               " padding: 4px 18px;")
                names = [_power_name(c, p) for p in seat]
                self.player_label.setText(", ".join(names[:-1]) + " and " + names[-1])
                self.open_button.setText(f"I am {player or 'this player'}: {action} ({len(seat)} powers)")
            else:
                self.power_label.setText(f" {power_letter(nxt)} \u00b7 {_power_name(c, nxt)} ")
                self.power_label.setStyleSheet(f"color: {power_ink(nxt).name()}; "
                                               f"background: {power_colour(nxt).name()};"
                                               " border-radius: 14px; padding: 4px 18px;")
                self.player_label.setText(_player_suffix(c, nxt).strip(" ()"))
                self.open_button.setText(f"I am {_power_name(c, nxt)}: {action}")
            self.hint.setText("Everyone else: look away from the screen."
                              + (f" Enter your PIN to see your {what}." if session.has_pin(nxt) else ""))
        self.action_stack.setCurrentWidget(self.reveal_button if ready else self.open_button)
        self.force_button.setVisible(not ready)
        here = session.seat_of(nxt) if nxt is not None and not ready else ()
        computer = computer_seats(c.table, c.board.power_ids) if c is not None else {}
        others = [seat for seat in session.seats() if seat != here and seat[0] not in computer]
        self.other_combo.clear()
        for seat in others:
            suffix = " (sealed: reopen)" if any(p in session.sealed for p in seat) else ""
            self.other_combo.addItem(f"{seat_title(c, seat)}{suffix}", seat[0])
        self.other_caption.setText("Reopen:" if ready else "Someone else:")
        for w in (self.other_caption, self.other_combo, self.other_button):
            w.setVisible(bool(others))
        self._update_pin_field()
        sealed = [seat_title(c, seat) + (" (phone)" if any(p in session.phone_sealed for p in seat) else
                                         " (computer)" if seat[0] in computer else "")
                  for seat in session.seats() if all(p in session.sealed for p in seat)]
        self.sealed_label.setText(("Declarations sealed: " if session.declaring else "Sealed: ")
                                  + ("; ".join(sealed) if sealed else "nobody yet"))
        self._show_code_choices(session, computer)
        self.notice_label.setText("\n".join(session.notices[-3:]))
        self.notice_label.setVisible(bool(session.notices))
        self.host_label.setText(HOST_PIN_SET if host_pin else NO_HOST_PIN_CURTAIN)
        self.setStyleSheet(f"QWidget#curtain {{ background: {self._colour.name()}; }}"
                           " QWidget#curtain QLabel { color: #f4f6f8; }")
        self.update()

    def _show_code_choices(self, session: HotSeatSession, computer: dict[str, str]) -> None:
        """The seats that sealed at the laptop this phase and have a seal code to see again."""
        c = self.controller
        self.code_combo.clear()
        if c is not None:
            phase = c.state.phase.short
            for seat in session.seats():
                if seat[0] in computer or not all(p in session.sealed for p in seat):
                    continue
                if any(sealcodes.code_of(c.table, p, phase) for p in seat):
                    self.code_combo.addItem(seat_title(c, seat), seat[0])
        for w in (self.code_caption, self.code_combo, self.code_button):
            w.setVisible(self.code_combo.count() > 0)

    def _on_code(self) -> None:
        power = self.code_combo.currentData()
        if power:
            self.seal_code_requested.emit(str(power))

    def _update_pin_field(self) -> None:
        """The PIN field shows only when the next power has a PIN.  A power chosen under "Someone
        else" that has a PIN is asked for it when its button is pressed (HotSeatFlow.open_other)."""
        s = self.session
        if s is None:
            return
        nxt = s.next_power
        ready = s.stage == READY or nxt is None
        self.pin_edit.setVisible(not ready and nxt is not None and s.has_pin(nxt))

    def set_clock_text(self, text: str) -> None:
        """Show the clock's time left on the curtain (the clock itself is covered)."""
        self.clock_label.setText(text)
        self.clock_label.setVisible(bool(text))

    def show_error(self, text: str) -> None:
        self.error_label.setText(text)
        self.pin_edit.selectAll()

    def _on_open(self) -> None:
        if self.session is None or self.session.next_power is None or not self.isVisible() \
                or self.action_stack.currentWidget() is not self.open_button:
            return
        self.hide_seal_code()  # (the button is not on screen while a code is: never both)
        pin = self.pin_edit.text()
        if not pin or self.pin_edit.isHidden():
            self.open_requested.emit(self.session.next_power, pin)
            return
        # the check takes a second or more (a slow hash, on purpose): say so, not the last "Wrong PIN"
        checking = "Checking the PIN\u2026"
        self.error_label.setText(checking)
        self.error_label.repaint()
        QApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self.open_requested.emit(self.session.next_power, pin)
        finally:
            QApplication.restoreOverrideCursor()
            if self.error_label.text() == checking:
                self.error_label.clear()

    def _on_other(self) -> None:
        power = self.other_combo.currentData()
        if power:  # the PIN field is the next power's: another power is asked for its own PIN
            nxt = self.session.next_power if self.session is not None else None
            self.other_requested.emit(str(power), self.pin_edit.text() if power == nxt else "")
