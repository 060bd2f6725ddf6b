"""Hot-seat secrecy, the Qt side: one laptop, each power writes its orders in turn behind a curtain.

The turn itself (open, curtain, entering, ready, revealed; who writes next; PINs; the host's
notices) is ``table.hotseat.HotSeatSession``, plain Python; its module says how the cycle goes.

``HotSeatFlow`` keeps a session, drives the controller's secrecy hook (``set_view``: who may be
seen and who is at the keyboard, one record), and shows the ``CurtainWidget``, the
``ReviewDialog`` and the ``SealStatusStrip``.  Its seals are operations of the table's
``TableSession`` (``table_session``), the one record the phone host reads too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QHideEvent,
    QIntValidator,
    QKeyEvent,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDockWidget,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ...engine.options import orders_needed
from ...engine.orders import Order
from ...io.notation import format_order
from ...io.pins import MAX_PIN_DIGITS, is_pin_hash, is_valid_pin, needs_upgrade, pin_matches
from ...table import sealcodes
from ...table.hotseat import (  # moved to the Qt-free table layer: importable here too
    CURTAIN,
    DECLARATIONS_ROUND,
    ENTERING,
    HOST_PIN_SET,
    NO_HOST_PIN,
    NO_HOST_PIN_CURTAIN,
    OPEN,
    ORDERS_ROUND,
    READY,
    REVEALED,
    ROUNDS,
    STAGES,
    HotSeatError,
    HotSeatSession,
    PinError,
    hash_pin,
)
from ...table.pins import HOST, PinGuard, PinWaitError
from ...table.review import (  # moved to the Qt-free table layer: importable here too
    _internment_warnings,
    _mismatch,
    _unit_label,
    review_warnings,
)
from ...table.seal_review import SealNotes, seal_notes
from ...table.session import LAPTOP, TableSession
from .. import override
from ..board.palette import power_colour, power_ink, power_letter
from .declarations import PENDING_KEY, DeclarationsForm, apply_declarations, pending_declarations

if TYPE_CHECKING:
    from ..controller import GameController

__all__ = [
    'CURTAIN',
    'DECLARATIONS_ROUND',
    'ENTERING',
    'HOST_PIN_SET',
    'NO_HOST_PIN',
    'NO_HOST_PIN_CURTAIN',
    'OPEN',
    'ORDERS_ROUND',
    'READY',
    'REVEALED',
    'ROUNDS',
    'STAGES',
    'HotSeatError',
    'HotSeatSession',
    'PinError',
    'hash_pin',
    'is_valid_pin',
    'pin_matches',
]


# -- what the review screen warns about ------------------------------------------------------------


__all__ += ['_internment_warnings', '_mismatch', '_unit_label', 'review_warnings']


# -- widgets -------------------------------------------------------------------------------------


def _sentence(text: str) -> str:
    """``text`` with a capital first letter (and the rest as it was: "PIN" stays "PIN")."""
    return text[:1].upper() + text[1:]


def _power_name(controller: GameController | None, power: str) -> str:
    if controller is None:
        return power.title()
    return controller.power_name(power)


def _player_suffix(controller: GameController | None, power: str) -> str:
    if controller is None:
        return ""
    name = controller.player_name(power)
    return f" ({name})" if name else ""


def seat_title(controller: GameController | None, seat: Sequence[str]) -> str:
    """"England", or for a player with several powers "Anna — England and France"."""
    names = [_power_name(controller, p) for p in seat]
    joined = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else (names[0] if names else "")
    if len(seat) < 2 or controller is None:
        return joined
    player = controller.player_name(seat[0])
    return f"{player} \u2014 {joined}" if player else joined


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
        self.notice_label = QLabel()  # "France's sealed orders were reopened by ...": the table is told
        self.host_label = QLabel()  # whether host actions need the host PIN
        self.clock_label = QLabel()  # the writing window's time left, when a clock runs
        self.clock_label.hide()

        big = QFont(self.font())
        big.setPointSize(40)
        big.setBold(True)
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
                                     self.other_combo, self.other_button, self.force_button, self.notice_label)
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
        pin_row = QHBoxLayout()
        pin_row.addStretch(1)
        pin_row.addWidget(self.pin_edit)
        pin_row.addStretch(1)
        box.addLayout(pin_row)
        box.addWidget(self.error_label)
        box.addWidget(self.action_stack)
        other_row = QHBoxLayout()
        other_row.addWidget(self.other_caption)
        other_row.addWidget(self.other_combo, 1)
        other_row.addWidget(self.other_button)
        box.addLayout(other_row)
        box.addWidget(self.sealed_label)
        box.addWidget(self.notice_label)
        host_row = QHBoxLayout()
        host_row.addWidget(self.host_label, 1)
        host_row.addWidget(self.force_button)
        box.addLayout(host_row)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        centre = QHBoxLayout()
        centre.addStretch(1)
        centre.addWidget(panel, 3)
        centre.addStretch(1)
        outer.addLayout(centre)
        outer.addStretch(2)

        self.open_button.clicked.connect(self._on_open)
        self.pin_edit.returnPressed.connect(self._on_open)
        self.other_button.clicked.connect(self._on_other)
        self.other_combo.currentIndexChanged.connect(lambda _i: self._update_pin_field())
        self.reveal_button.clicked.connect(self.reveal_requested)
        self.force_button.clicked.connect(self.force_requested)
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
        super().hideEvent(event)

    @override
    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._watch()  # also when the window comes back with the curtain still up

    # -- content -----------------------------------------------------------------------------

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
        others = [seat for seat in session.seats() if seat != here]
        self.other_combo.clear()
        for seat in others:
            suffix = " (sealed: reopen)" if any(p in session.sealed for p in seat) else ""
            self.other_combo.addItem(f"{seat_title(c, seat)}{suffix}", seat[0])
        self.other_caption.setText("Reopen:" if ready else "Someone else:")
        for w in (self.other_caption, self.other_combo, self.other_button):
            w.setVisible(bool(others))
        self._update_pin_field()
        sealed = [seat_title(c, seat) + (" (phone)" if any(p in session.phone_sealed for p in seat) else "")
                  for seat in session.seats() if all(p in session.sealed for p in seat)]
        self.sealed_label.setText(("Declarations sealed: " if session.declaring else "Sealed: ")
                                  + ("; ".join(sealed) if sealed else "nobody yet"))
        self.notice_label.setText("\n".join(session.notices[-3:]))
        self.notice_label.setVisible(bool(session.notices))
        self.host_label.setText(HOST_PIN_SET if host_pin else NO_HOST_PIN_CURTAIN)
        self.setStyleSheet(f"QWidget#curtain {{ background: {self._colour.name()}; }}"
                           " QWidget#curtain QLabel { color: #f4f6f8; }")
        self.update()

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
        if self.session is None or self.session.next_power is None or not self.open_button.isVisible():
            return
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


class HostPinDialog(QDialog):
    """Asks for the host PIN before a host action (the digits are checked by the caller)."""

    def __init__(self, title: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.text_label = QLabel(text)
        self.text_label.setWordWrap(True)
        self.note = QLabel("This is a host action: the host types the host PIN.")
        self.pin_edit = QLineEdit()
        self.pin_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin_edit.setMaxLength(MAX_PIN_DIGITS)
        self.pin_edit.setValidator(QIntValidator(0, 99_999_999, self))
        self.pin_edit.setPlaceholderText("Host PIN")
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.text_label)
        layout.addWidget(self.note)
        layout.addWidget(self.pin_edit)
        layout.addWidget(self.buttons)
        self.resize(440, 200)


def _ask_pin(parent: QWidget, title: str, text: str, *, own: bool) -> str | None:
    dialog = HostPinDialog(title, text, parent)
    if own:
        dialog.note.setText("The power's own PIN.")
        dialog.pin_edit.setPlaceholderText("PIN")
    try:
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.pin_edit.text()
    finally:
        dialog.deleteLater()


def ask_host_pin(parent: QWidget, title: str, text: str) -> str | None:
    """The app's host prompt: the typed PIN, or None when the host cancels."""
    return _ask_pin(parent, title, text, own=False)


def ask_power_pin(parent: QWidget, title: str, text: str) -> str | None:
    """The app's prompt for a power's own PIN: the typed PIN, or None when cancelled."""
    return _ask_pin(parent, title, text, own=True)


class ReviewDialog(QDialog):
    """Before sealing: one power's own orders and what it may have overlooked."""

    def __init__(self, power: str, orders: Sequence[Order], warnings: Sequence[str],
                 parent: QWidget | None = None, *, power_name: str | None = None, has_pin: bool = True,
                 notes: SealNotes | None = None) -> None:
        super().__init__(parent)
        name = power_name or power.title()
        notes = notes if notes is not None else SealNotes()
        self.setWindowTitle(f"{name}: review and seal")
        self.power = power
        title = QLabel(f"{name}'s orders")
        f = QFont(title.font())
        f.setPointSize(16)
        f.setBold(True)
        title.setFont(f)
        self.order_list = QListWidget()
        for o in orders:
            self.order_list.addItem(format_order(o))
        if not orders:
            self.order_list.addItem("(no orders)")
        self.warning_list = QListWidget()
        for w in warnings:
            item = QListWidgetItem("\u26a0 " + w)
            item.setForeground(QColor("#8a4b00"))
            self.warning_list.addItem(item)
        self.warning_caption = QLabel("Check these:" if warnings else "No problems found.")
        self.warning_list.setVisible(bool(warnings))
        note = QLabel("Once sealed, your orders are hidden until everyone has sealed. "
                      + ("You can reopen them with your PIN before the reveal." if has_pin else
                         "Before the reveal, only the host can reopen them (you have no PIN)."))
        note.setWordWrap(True)
        self.buttons = QDialogButtonBox()
        self.seal_button = self.buttons.addButton("Seal my orders", QDialogButtonBox.ButtonRole.AcceptRole)
        self.back_button = self.buttons.addButton("Back to my orders", QDialogButtonBox.ButtonRole.RejectRole)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        # what the power may not mean, said first and plainly; Enter then goes back, not on
        self.notice = QLabel(" ".join(t for t in (notes.disorder, notes.holding_text()) if t))
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #8a1c00; font-weight: bold;" if notes.disorder else "font-weight: bold;")
        self.notice.setVisible(bool(self.notice.text()))
        if notes.disorder:
            self.seal_button.setText("Seal with no orders (civil disorder)")
        problem = bool(warnings) or notes.problem
        self.seal_button.setAutoDefault(not problem)
        self.back_button.setAutoDefault(problem)
        (self.back_button if problem else self.seal_button).setDefault(True)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(self.notice)
        layout.addWidget(self.order_list, 2)
        layout.addWidget(self.warning_caption)
        layout.addWidget(self.warning_list, 1)
        layout.addWidget(note)
        layout.addWidget(self.buttons)
        self.resize(520, 460)

    @property
    def warnings(self) -> list[str]:
        return [self.warning_list.item(i).text()[2:] for i in range(self.warning_list.count())]


class _ElidedLabel(QLabel):
    """A one-line label that shows as much of its text as its width allows, ending in "…", and
    yields its width to its neighbours (at most 300 pixels wide)."""

    MAX_WIDTH = 300

    def __init__(self) -> None:
        super().__init__()
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(40)

    def set_full_text(self, text: str) -> None:
        self._full = text
        self.updateGeometry()
        self._elide()

    def full_text(self) -> str:
        return self._full

    @override
    def sizeHint(self) -> QSize:
        hint = super().sizeHint()
        return QSize(min(self.MAX_WIDTH, self.fontMetrics().horizontalAdvance(self._full) + 4), hint.height())

    @override
    def minimumSizeHint(self) -> QSize:
        return QSize(40, super().minimumSizeHint().height())

    @override
    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        width = min(self.width(), self.MAX_WIDTH) if self.isVisible() else self.MAX_WIDTH
        self.setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, max(width - 4, 10)))


class SealStatusStrip(QWidget):
    """Who has sealed, who is writing, who is waiting: names only, never an order."""

    write_requested = Signal()  # start the writing round (end of the diplomacy period)
    seal_requested = Signal()
    hide_requested = Signal()
    reveal_requested = Signal()
    notes_requested = Signal()
    phone_requested = Signal()

    def __init__(self, parent: QWidget | None = None, controller: GameController | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("sealStrip")
        self.controller = controller
        self._chips: dict[str, QLabel] = {}
        self.caption = QLabel()
        self.chip_row = QHBoxLayout()
        self.chip_row.setSpacing(4)
        self.write_button = QPushButton("Write orders")
        self.write_button.setToolTip("End the talks: pass the laptop round behind the curtain")
        self.seal_button = QPushButton("Review and seal\u2026")
        self.hide_button = QPushButton("Hide my orders")
        self.reveal_button = QPushButton("Reveal")
        self.notes_button = QPushButton("Notes\u2026")  # private notes, shown by the table mode
        self.notes_button.setToolTip("Your private notes: read those sent to you, write one")
        self.notes_button.hide()
        self.phone_button = QPushButton("Use my phone\u2026")  # hosting on: this seat's code, shown by the table mode
        self.phone_button.setToolTip("Your join code and link, to write your orders on your own phone")
        self.phone_button.hide()
        self.notice = _ElidedLabel()  # "France's sealed orders were reopened by ...": the table is told
        self.notice.setStyleSheet("color: #8a4b00; font-weight: bold;")
        self.notice.hide()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(4, 0, 4, 0)
        layout.addWidget(self.caption)
        layout.addLayout(self.chip_row)
        layout.addWidget(self.notice)
        layout.addStretch(1)
        for b in (self.phone_button, self.notes_button, self.write_button, self.seal_button, self.hide_button,
                  self.reveal_button):
            layout.addWidget(b)
        self.phone_button.clicked.connect(self.phone_requested)
        self.notes_button.clicked.connect(self.notes_requested)
        self.write_button.clicked.connect(self.write_requested)
        self.seal_button.clicked.connect(self.seal_requested)
        self.hide_button.clicked.connect(self.hide_requested)
        self.reveal_button.clicked.connect(self.reveal_requested)
        self.show_session(None)

    @staticmethod
    def _disorder_powers(c: GameController | None) -> list[str]:
        """Powers in civil disorder by the table's say (marked, or nobody plays them) that still
        have units or centres: shown on the strip so the table sees who is not written for."""
        if c is None:
            return []
        gone = c.marked_disorder() | c.unplayed_powers()
        return [p for p in c.board.power_ids if p in gone and not c.state.is_eliminated(p)]

    def show_notice(self, text: str) -> None:
        """The last thing the table must be told, cut to fit beside the chips (all of it on hover);
        it gives way to the chips, which always show their whole name."""
        self.notice.set_full_text(f"\u26a0 {text}" if text else "")
        self.notice.setToolTip(text)
        self.notice.setVisible(bool(text))

    def chip_text(self, power: str) -> str:
        chip = self._chips.get(power)
        return chip.text() if chip is not None else ""

    def show_session(self, session: HotSeatSession | None, *, secrecy: bool = True) -> None:
        for chip in self._chips.values():
            self.chip_row.removeWidget(chip)
            chip.hide()
            chip.deleteLater()
        self._chips = {}
        stage = session.stage if session is not None else None
        self.show_notice(session.notices[-1] if session is not None and session.notices else "")
        if session is None or not secrecy:
            self.caption.setText("Hot-seat secrecy off" if not secrecy else "")
            for b in (self.write_button, self.seal_button, self.hide_button, self.reveal_button):
                b.hide()
            return
        self.caption.setText({OPEN: "Talks \u2014 first to write:", CURTAIN: "Writing orders:",
                              ENTERING: "Writing orders:", READY: "All sealed:",
                              REVEALED: "Revealed:"}[session.stage] if not session.declaring else
                             {CURTAIN: "Declarations:", ENTERING: "Declarations:", READY: "All declared:"}
                             .get(session.stage, "Declarations:"))
        c = self.controller
        for p in session.order:
            if p in session.phone_sealed:
                mark, state = "\u2713\u260e", "sealed on a phone"
            elif p in session.part_declared and p not in session.current_seat:
                mark, state = "\u260e", "declared on a phone; the player's other powers have not yet"
            elif p in session.sealed:
                mark, state = "\u2713", "sealed"
            elif p in session.current_seat:  # every power of the player at the keyboard
                mark, state = "\u270e", "writing now"
            else:
                mark, state = "\u00b7", "waiting"
            if stage == OPEN and p != session.first_power:
                continue  # during the talks only the first writer is named
            name = _power_name(c, p)
            short = name if stage == OPEN else name[:3].upper()
            chip = QLabel(f"{mark} {short}")
            chip.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            chip.setToolTip(f"{_power_name(c, p)}{_player_suffix(c, p)}: {state}")
            colour = power_colour(p)
            ink = power_ink(p)
            border = "2px solid #1a1a1a" if p in session.current_seat else "1px solid #666"
            weight = "bold" if p in session.sealed or p in session.current_seat else "normal"
            chip.setStyleSheet(f"QLabel {{ background: {colour.name()}; color: {ink.name()}; border: {border};"
                               f" border-radius: 8px; padding: 1px 6px; font-weight: {weight}; }}")
            self.chip_row.addWidget(chip)
            self._chips[p] = chip
        for p in self._disorder_powers(c):
            chip = QLabel(f"\u2298 {_power_name(c, p)[:3].upper()}")
            chip.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
            chip.setToolTip(f"{_power_name(c, p)}: in civil disorder (no player): its units hold, "
                            "do not support each other, and it builds nothing")
            chip.setStyleSheet("QLabel { background: #d8d8d8; color: #555; border: 1px dashed #777;"
                               " border-radius: 8px; padding: 1px 6px; }")
            self.chip_row.addWidget(chip)
            self._chips[p] = chip
        self.write_button.setVisible(stage == OPEN and bool(session.order))
        self.seal_button.setVisible(stage == ENTERING)
        self.hide_button.setVisible(stage == ENTERING)
        self.reveal_button.setVisible(stage == READY)


# -- the flow ------------------------------------------------------------------------------------

Confirm = Callable[[QWidget, str, str], bool]
HostPrompt = Callable[[QWidget, str, str], "str | None"]  # parent, title, text -> typed PIN or None


def _ask(parent: QWidget, title: str, text: str) -> bool:
    answer = QMessageBox.question(parent, title, text,
                                  QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                  QMessageBox.StandardButton.No)
    return answer == QMessageBox.StandardButton.Yes


class HotSeatFlow(QObject):
    """Runs the hot-seat cycle around a controller: curtain, turns, review, seal, reveal.

    ``host`` is the widget the curtain covers (the main window).  ``review`` decides whether to
    seal (it receives the dialog and returns True to seal); tests replace it, the app shows the
    dialog modally.

    Host actions (``ask_host``) go through the game's host PIN (``table["host_pin"]``, a salted
    hash): ``host_prompt`` asks for it; with no host PIN set, ``confirm`` asks instead and says
    that anyone at the table may do it.  While a power is writing, any dialog of the window that
    appears (a draw vote, a question, a file dialog, help) brings the curtain down first: the
    writer steps away and nothing of theirs is left on screen behind the dialog.
    """

    stage_changed = Signal(str)
    sealed = Signal(str)
    revealed = Signal()
    #: Formal Diplomacy: the declarations were revealed together (declarations, relations before, after)
    declarations_revealed = Signal(object, object, object)
    #: the declarations sheet's "Use my phone…" (the table mode answers it)
    phone_requested = Signal()

    TABLE_KEY = "hotseat"

    def __init__(self, controller: GameController, host: QWidget, *, rng: random.Random | None = None,
                 strip: SealStatusStrip | None = None, enabled: bool = True,
                 review: Callable[[ReviewDialog], bool] | None = None,
                 confirm: Confirm | None = None, adjudicate_on_reveal: bool = True,
                 host_prompt: HostPrompt | None = None) -> None:
        super().__init__(host)
        self.controller = controller
        self.host = host
        self.session = HotSeatSession(rng if rng is not None else random.Random())
        #: checks before the orders are revealed (the tournament's "the board matches"); each may refuse
        self.before_reveal: list[Callable[[], bool]] = []
        self._table_session: TableSession | None = None
        self.curtain = CurtainWidget(host, controller)
        self.strip = strip if strip is not None else SealStatusStrip(None, controller)
        self.strip.controller = controller
        self.enabled = enabled
        self.review = review if review is not None else (lambda dialog: dialog.exec() == QDialog.DialogCode.Accepted)
        self.confirm = confirm if confirm is not None else _ask
        self.host_prompt: HostPrompt = host_prompt if host_prompt is not None else ask_host_pin
        #: asks for a power's own PIN (None: the app's dialog, or ``host_prompt`` where a test replaced it)
        self.pin_prompt: HostPrompt | None = None
        self._filtering = False
        self.adjudicate_on_reveal = adjudicate_on_reveal
        self.curtain.open_requested.connect(self.open_power)
        self.curtain.other_requested.connect(self.open_other)
        self.curtain.reveal_requested.connect(self.reveal)
        self.curtain.force_requested.connect(self.force_reveal)
        self.strip.write_requested.connect(self.start_writing)
        self.strip.seal_requested.connect(self.request_seal)
        self.strip.hide_requested.connect(self.hide)
        self.strip.reveal_requested.connect(self.reveal)
        #: the seat at the keyboard proved itself with its PIN this turn (then, and only then, it may
        #: take its phone link: "Use my phone…")
        self.proved = False
        #: what was on screen at the last refresh: a change of seat covers every other window
        self._seat_shown: tuple[str, ...] | None = None
        self._keep_window: QWidget | None = None
        self.declarations_form: DeclarationsForm | None = None  # made at the first declarations round
        #: the last turn before this phase (phase, order, sealed, round), and the one to restore at a
        #: take-back that keeps the seals
        self._last_turn: tuple[str, tuple[str, ...], frozenset[str], str] | None = None
        self._keep_seals: tuple[str, tuple[str, ...], frozenset[str], str] | None = None
        #: the powers of the seat at the keyboard that have filled in their declarations this turn (a
        #: player with several powers declares for each of them, one sheet after another, then one seal)
        self.declared_this_turn: list[str] = []

    @property
    def table_session(self) -> TableSession:
        """The one record of who has sealed or declared, for the game on the table: this flow's
        hot-seat turn, shared with the phone host (Table ▸ Phones) when hosting is on."""
        ts = self._table_session
        if ts is None or ts.table is not self.controller.table:
            ts = TableSession(self.controller.table, self.controller.board.power_ids, hotseat=self.session)
            self._table_session = ts
        return ts

    # -- which powers write this phase ---------------------------------------------------------

    def powers_in_play(self) -> tuple[str, ...]:
        table_powers = self.controller.table.get("powers")
        ids = self.controller.board.power_ids
        if isinstance(table_powers, list) and table_powers:
            return tuple(p for p in ids if p in table_powers)
        return tuple(ids)

    def powers_to_write(self) -> tuple[str, ...]:
        """Who passes behind the curtain this phase: played powers that owe orders and are not
        marked as in civil disorder (their units hold: rules XIV.1)."""
        state = self.controller.state
        marked = self.controller.marked_disorder()
        return tuple(p for p in self.powers_in_play() if p not in marked and orders_needed(state, p) > 0)

    def update_writers(self) -> None:
        """The host marked or unmarked civil disorder: the round goes on without (or with) them."""
        s = self.session
        if s.phase != self.controller.state.phase.short or s.stage == REVEALED:
            return
        self._sync_pins()
        s.set_writers(self.powers_to_write())
        self._apply()

    # -- phase boundaries ------------------------------------------------------------------------

    def set_enabled(self, enabled: bool) -> None:
        """Secrecy on or off.  Never unseals anyone and never sends the phase back to the talks:
        the turn goes on where it was (the power at the keyboard steps behind the curtain)."""
        self.enabled = enabled
        s = self.session
        if s.phase != self.controller.state.phase.short or s.stage == REVEALED:
            self.begin_phase()
            return
        self._sync_pins()
        if s.stage == ENTERING:
            s.close()
        self._apply()

    def set_pins(self, pins: Mapping[str, str]) -> None:
        """PIN hashes (from the New Game dialog), never PINs; kept in the table as ``pins``."""
        self.session.pins = dict(pins)
        self.controller.keep_in_table(pins=dict(pins))

    def _sync_pins(self) -> None:
        pins = self.controller.table.get("pins")
        # a game without PINs has none: never the previous game's
        self.session.pins = {str(k): str(v) for k, v in pins.items()} if isinstance(pins, dict) else {}
        players = self.controller.table.get("players")
        self.session.players = ({str(k): str(v) for k, v in players.items() if v}
                                if isinstance(players, dict) else {})

    def begin_phase(self, *_: object) -> None:
        """A phase begins (new game, after an adjudication or its undo): talks, board open.
        After the host's take-back with the seals kept (:meth:`keep_seals_on_take_back`), the
        phase taken back begins again with every seal it had: the curtain, ready to reveal."""
        self._sync_pins()
        s = self.session
        kept, self._keep_seals = self._keep_seals, None
        if s.phase:
            self._last_turn = (s.phase, s.order, frozenset(s.sealed), s.round)
        s.begin_turn(self.controller.state.phase.short, self.powers_to_write())
        if kept is not None and kept[0] == s.phase and kept[3] == ORDERS_ROUND and not s.declaring:
            s.order = tuple(p for p in kept[1] if p in s.order) + tuple(p for p in s.order if p not in kept[1])
            s.sealed = set(kept[2]) & set(s.order)
            if s.sealed:
                s.stage = READY if s.all_sealed else CURTAIN
        self.controller.keep_in_table(**{PENDING_KEY: None})  # a new turn: no declaration is pending
        self._apply()

    def keep_seals_on_take_back(self) -> None:
        """The host takes back the last adjudication and keeps the seals: when its phase begins
        again, each power that had sealed it is still sealed (its orders come back as they were)."""
        self._keep_seals = self._last_turn

    def restore(self) -> None:
        """After a file was opened: pick up the saved turn if it is for this phase."""
        saved = self.controller.table.get(self.TABLE_KEY)
        phase = self.controller.state.phase.short
        if isinstance(saved, dict):
            try:
                restored = HotSeatSession.from_dict(saved, rng=self.session.rng)
            except ValueError:
                restored = None
            if restored is not None:
                self.session.pins = restored.pins
                self._sync_pins()
                if restored.phase == phase and not self.controller.game.is_over:
                    self.session.phase, self.session.order = restored.phase, restored.order
                    self.session.sealed, self.session.stage = restored.sealed, restored.stage
                    self.session.notices = list(restored.notices)  # what the table was told stays told
                    self.session.round = restored.round
                    self.session.phone_sealed = set(restored.phone_sealed)
                    self.session.part_declared = set(restored.part_declared)
                    self.session.current = None
                    self._apply()
                    return
        self.begin_phase()

    def start_writing(self) -> None:
        if not self.enabled or self.session.stage != OPEN or self.controller.game.is_over:
            return
        if self.controller.viewing is not None:
            self.controller.view_phase(None)
        self.session.start_writing()
        self._apply()

    # -- Formal Diplomacy: the declarations round ---------------------------------------------------

    def start_declarations(self) -> None:
        """The talks are over in a Formal Diplomacy game: each power declares behind the curtain."""
        if not self.enabled or self.session.stage != OPEN or self.controller.game.is_over:
            return
        if self.controller.viewing is not None:
            self.controller.view_phase(None)
        self.controller.keep_in_table(**{PENDING_KEY: None})
        self.session.start_declarations()
        self._apply()

    def seal_declarations(self, power: str, said: Mapping[str, str]) -> None:
        """``power`` seals its declarations: kept in the table, secret, until all are revealed."""
        s = self.session
        if not s.declaring or s.stage != ENTERING or power != self.declaring_power:
            raise HotSeatError(f"{power} is not declaring now")
        pending = pending_declarations(self.controller.table)
        pending[power] = {o: r for o, r in said.items() if o != power and o in self.controller.board.power_ids}
        self.controller.keep_in_table(**{PENDING_KEY: pending})
        self.declared_this_turn.append(power)
        if self.declaring_power is not None:  # the next power of the same player declares
            self._show_declarations_form()
            return
        self.declared_this_turn = []
        self.seal(power)

    @property
    def declaring_power(self) -> str | None:
        """The power whose declarations sheet is up: the seat's powers in turn (None: all done)."""
        s = self.session
        if not (s.declaring and s.stage == ENTERING):
            return None
        return next((p for p in s.current_seat if p not in self.declared_this_turn), None)

    def _declarations_form(self) -> DeclarationsForm:
        if self.declarations_form is None:
            form = DeclarationsForm(self.curtain, self.controller.power_name)
            form.seal_requested.connect(self.seal_declarations)
            form.hide_requested.connect(self.hide)
            form.phone_requested.connect(self.phone_requested)
            self.declarations_form = form
        return self.declarations_form

    def _show_declarations_form(self) -> None:
        s = self.session
        if not (s.declaring and s.stage == ENTERING):
            self.declared_this_turn = []
        power = self.declaring_power
        if self.enabled and s.declaring and s.stage == ENTERING and power is not None:
            relations = self.controller.state.relations
            if relations is None:
                return
            mine = pending_declarations(self.controller.table).get(power)  # reopened: its sealed choices
            others = [p for p in self.controller.board.power_ids
                      if p != power and not self.controller.state.is_eliminated(p)]
            note = (f"{self.controller.power_name(power)} declared this on the phone: it is shown as it was sent. "
                    "Seal to keep it, or change it here first." if power in s.part_declared and mine else "")
            self._declarations_form().show_power(power, others, relations, mine, note=note)
        elif self.declarations_form is not None and (self.declarations_form.isVisible()
                                                     or self.declarations_form.power is not None):
            self.declarations_form.take_down()

    def reveal_declarations_now(self) -> bool:
        """Reveal the declarations as they stand (secrecy is being lifted: the host agreed)."""
        if not self.session.declaring or self.session.stage == REVEALED:
            return False
        self.step_away()
        self._reveal_declarations(force=True)
        return True

    def _reveal_declarations(self, *, force: bool) -> None:
        s = self.session
        c = self.controller
        s.reveal(force=force)
        counted = s.declared  # sealed, or declared on a phone (the rest of its seat not yet)
        pending = {p: d for p, d in pending_declarations(c.table).items() if p in counted}
        c.keep_in_table(**{PENDING_KEY: None})
        before, after, lines = apply_declarations(c, pending)
        notice = ("Declarations revealed: " + ("; ".join(lines) if lines else "no relation changed") + ".")[:1000]
        s.end_declarations()
        s.notices.append(notice)
        self._apply()
        self.declarations_revealed.emit(pending, before, after)
        self.tell(notice)

    # -- one power's turn -----------------------------------------------------------------------

    @property
    def pin_guard(self) -> PinGuard:
        """The table's one failure counter per power (shared with the draw vote and the phones)."""
        return PinGuard(self.controller.table)

    def _seat_pin_ok(self, power: str, pin: str) -> bool:
        """``power``'s seat PIN, through the failure counter: a wait, or a wrong PIN, is said on the
        curtain and counted; a right one clears the count (and an old save's hash is renewed)."""
        s = self.session
        name = seat_title(self.controller, s.seat_of(power))
        guard = self.pin_guard
        try:
            guard.check_allowed(power, name)
        except PinWaitError as exc:
            self.curtain.show_error(_sentence(str(exc)))
            return False
        if not pin:
            self.curtain.show_error("This power's orders are protected by a PIN")
            return False
        if not s.check_pin(power, pin):
            guard.failed(power)
            try:
                guard.check_allowed(power, name)
                self.curtain.show_error(f"Wrong PIN: {name}'s orders are protected by a PIN")
            except PinWaitError as exc:
                self.curtain.show_error(f"Wrong PIN. {_sentence(str(exc))}")
            return False
        guard.succeeded(power)
        self._renew_hashes(power, pin)
        return True

    def _renew_hashes(self, power: str, pin: str) -> None:
        pins = self.controller.table.get("pins")
        if not isinstance(pins, dict):
            return
        for p in self.session.seat_of(power):
            stored = pins.get(p)
            if isinstance(stored, str) and needs_upgrade(stored) and pin_matches(stored, pin):
                pins[p] = self.session.pins[p] = hash_pin(pin)

    def open_power(self, power: str, pin: str = "") -> bool:
        s = self.session
        try:
            s.verify_open_stage(power)
        except HotSeatError as exc:
            self.curtain.show_error(_sentence(str(exc)))
            return False
        if s.has_pin(power) and not self._seat_pin_ok(power, pin):
            return False
        try:
            s.open(power, pin or None, proved=s.has_pin(power))  # checked once just above
        except HotSeatError as exc:
            self.curtain.show_error(_sentence(str(exc)))
            return False
        self.proved = s.has_pin(power)
        self._forget_seals(power)
        self._apply()
        return True

    def _forget_seals(self, power: str) -> None:
        for p in self.session.seat_of(power):
            sealcodes.forget_seal(self.controller.table, p)

    def open_other(self, power: str, pin: str = "") -> bool:
        """"Someone else / Reopen": a power the curtain did not call.  A power's own PIN (asked
        when its button is pressed, checked through the failure counter) reopens its own written
        or sealed orders on every path.  Anything else out of turn is a host action: the host PIN
        (or, with none set, a question that says anyone may); the host may reopen written or sealed
        orders without the power's PIN, but a power with a PIN that has written nothing opens only
        with its PIN.  Every opening is told to the table on the curtain and the strip."""
        s = self.session
        c = self.controller
        try:
            s.verify_open_stage(power)
        except HotSeatError as exc:
            self.curtain.show_error(_sentence(str(exc)))
            return False
        seat = s.seat_of(power)
        name = seat_title(c, seat)
        called = s.next_power
        if called is not None and power in s.seat_of(called) and s.stage != READY:
            return self.open_power(power, pin)  # the curtain's own call, chosen from the list
        sealed = any(p in s.sealed for p in seat)
        written = not s.declaring and any(c.game.orders_of(p) for p in seat)
        what = f"sealed {s.round}" if sealed else ("orders written so far" if written else f"{s.round}")
        host_pin = self.host_pin()
        verb = "Reopen" if sealed or written else "Open"
        if s.has_pin(power) and not pin:
            # pressing the power's button asks for its own PIN (issue 17); where its orders are
            # written or sealed the host PIN is the host's way in without it
            by_host_ok = host_pin is not None and (sealed or written)
            text = (f"Type {name}'s PIN to {verb.lower()} {name}'s {what}."
                    + (" Or the host types the host PIN (the table will be told)." if by_host_ok else ""))
            typed = self._ask_power_pin(f"{verb} {name}", text)
            if not typed:
                self.curtain.show_error(f"{name}'s orders are protected by a PIN")
                return False
            if by_host_ok and host_pin is not None and pin_matches(host_pin, typed):
                return self._reopen_by_host(power, name, what)
            pin = typed
        own_pin = bool(s.has_pin(power) and pin)
        # the power's PIN first: a wrong one is counted before anything is asked
        if own_pin and not self._seat_pin_ok(power, pin):
            return False
        by_host = True
        if own_pin and (sealed or written):
            # a power's own PIN reopens its own orders on every path (issue 17); the table is told
            by_host = False
            notice = f"{name}'s {what} were reopened with {name}'s PIN."
        else:
            # anything else out of turn is a host action (issue 20), announced
            text = (f"{verb} {name} out of turn? Whoever opens it sees its {what} and can change them. "
                    "The table will be told.")
            if not self.ask_host(f"{verb} {name}", text):
                return False
            by = "the host (host PIN)" if host_pin is not None else "someone at the table (no host PIN is set)"
            if sealed or written:
                notice = (f"{name}'s {what} were reopened by {by}"
                          + (f" without {name}'s PIN." if s.has_pin(power) else "."))
            else:
                notice = (f"{name} was opened out of turn by {by}"
                          + (f" with {name}'s PIN." if own_pin else
                             f" without {name}'s PIN." if s.has_pin(power) else "."))
        try:
            s.open(power, pin or None, by_host=by_host, proved=own_pin)  # own_pin: checked once above
        except HotSeatError as exc:
            self.curtain.show_error(_sentence(str(exc)))
            return False
        self.proved = own_pin
        self._forget_seals(power)
        s.notices.append(notice)
        self.tell(notice)
        self._apply()
        return True

    def _ask_power_pin(self, title: str, text: str) -> str | None:
        """Ask for a power's own PIN (``pin_prompt``; tests that replace ``host_prompt`` answer it too)."""
        prompt = self.pin_prompt or (ask_power_pin if self.host_prompt is ask_host_pin else self.host_prompt)
        return prompt(self.host, title, text)

    def _reopen_by_host(self, power: str, name: str, what: str) -> bool:
        """The host, who typed the host PIN, reopens ``power`` (with a PIN of its own) without it."""
        s = self.session
        try:
            s.open(power, None, by_host=True)
        except HotSeatError as exc:
            self.curtain.show_error(_sentence(str(exc)))
            return False
        self.proved = False
        self._forget_seals(power)
        notice = f"{name}'s {what} were reopened by the host (host PIN) without {name}'s PIN."
        s.notices.append(notice)
        self.tell(notice)
        self._apply()
        return True

    def refresh(self) -> None:
        """The session changed from outside (a phone sealed): the curtain, the strip and the
        secrecy follow it."""
        self._apply(activate=False)

    def hide(self) -> None:
        if self.session.stage == ENTERING:
            self.session.close()
            self._apply()

    def step_away(self) -> None:
        """A dialog is about to appear: the power at the keyboard steps away (its orders are kept,
        not sealed) and the curtain covers the map, the orders and the lists first."""
        if self.enabled and self.session.stage == ENTERING:
            self.session.close()
            self._apply(activate=False)

    # -- the host -------------------------------------------------------------------------------

    def host_pin(self) -> str | None:
        """The host PIN's salted hash, or None when the game has no host PIN."""
        stored = self.controller.table.get("host_pin")
        return stored if is_pin_hash(stored) else None

    def ask_host(self, title: str, text: str) -> bool:
        """A host action: the host PIN when one is set; otherwise a question that says anyone at
        the table may do it.  A wrong PIN is said where the table sees it, and nothing is done."""
        stored = self.host_pin()
        if stored is None:
            return self.confirm(self.host, title, f"{text}\n\n{NO_HOST_PIN}")
        guard = self.pin_guard
        try:
            guard.check_allowed(HOST, "the host")
        except PinWaitError as exc:
            self.tell(f"{_sentence(str(exc))}: {title[:1].lower() + title[1:]} was not done.")
            return False
        pin = self.host_prompt(self.host, title, text)
        if pin is None:
            return False
        try:
            if guard.check(HOST, stored, pin, "the host"):
                return True
        except PinWaitError as exc:
            self.tell(f"{_sentence(str(exc))}: {title[:1].lower() + title[1:]} was not done.")
            return False
        self.tell(f"Wrong host PIN: {title[:1].lower() + title[1:]} was not done.")
        return False

    def tell(self, text: str) -> None:
        """A message for the whole table: on the curtain when it is up, and in the status bar."""
        if self.curtain.isVisible():
            self.curtain.show_error(text)
        self.strip.show_notice(text)
        bar = getattr(self.host, "statusBar", None)
        if callable(bar):
            bar().showMessage(text, 15000)

    # -- dialogs while a power writes -------------------------------------------------------------

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (event.type() == QEvent.Type.Show and isinstance(watched, QDialog) and watched.isWindow()
                and not isinstance(watched, ReviewDialog) and not watched.property("keeps_turn")
                and self._belongs(watched)):
            self._keep_window = watched
            try:
                self.step_away()
            finally:
                self._keep_window = None
        return False

    def _belongs(self, dialog: QWidget) -> bool:
        parent = dialog.parentWidget()
        return parent is not None and parent.window() is self.host.window()

    def _filter_dialogs(self, on: bool) -> None:
        app = QApplication.instance()
        if app is None or on == self._filtering:
            return
        if on:
            app.installEventFilter(self)
        else:
            app.removeEventFilter(self)
        self._filtering = on

    def review_dialog(self) -> ReviewDialog | None:
        power = self.session.current
        if power is None or self.session.stage != ENTERING:
            return None
        game = self.controller.game
        seat = self.session.current_seat
        orders = [o for p in seat for o in game.orders_of(p)]  # only the player at the keyboard
        warnings: list[str] = []
        for p in seat:
            said = review_warnings(game.state, p, game.orders_of(p))
            warnings.extend(f"{self.controller.power_name(p)}: {w}" if len(seat) > 1 else w for w in said)
        notes = seal_notes(game.state, seat, {p: game.orders_of(p) for p in seat}, self.controller.power_name,
                           disorder_rules=self.controller.civil_disorder_rules)
        return ReviewDialog(power, orders, warnings, self.host, power_name=seat_title(self.controller, seat),
                            has_pin=self.session.has_pin(power), notes=notes)

    def request_seal(self) -> bool:
        form = self.declarations_form
        if self.session.declaring:
            if self.session.stage != ENTERING or form is None or form.power != self.session.current:
                return False
            form.seal()
            return True
        dialog = self.review_dialog()
        if dialog is None:
            return False
        power = dialog.power
        try:
            if not self.review(dialog):
                return False
        finally:
            dialog.hide()
            shiboken6.delete(dialog)  # gone now, not at the next event loop turn: it held orders
        self.seal(power)
        return True

    def seal(self, power: str) -> None:
        """``power`` (and the rest of its seat) seals at the laptop: one operation of the table's
        session, which tells the phones; the seat's seal codes are recorded and the first shown."""
        seat = self.session.current_seat
        c = self.controller
        if self.table_session.seal(power, via=LAPTOP) is None:
            self.session.seal(power)  # not in the record's terms (declaring): the turn's own check
        code = self.record_seal_codes(seat)
        self._apply()
        if code:
            self.tell(f"{seat_title(c, seat)} sealed. Seal code: {code} (check it at the reveal).")
        self.sealed.emit(power)

    def record_seal_codes(self, seat: Sequence[str]) -> str:
        """The seat's seal codes (one per power, from what it sealed); the first is shown."""
        c = self.controller
        phase = c.state.phase.short
        codes = []
        for p in seat:
            if self.session.declaring:
                items: Any = dict(pending_declarations(c.table).get(p, {}))
            else:
                items = [format_order(o) for o in c.game.orders_of(p)]
            codes.append(sealcodes.record_seal(c.table, p, phase, items))
        return codes[0] if codes else ""

    def reveal_seal_codes(self) -> str:
        """The reveal: every seal's code, said to the table (and to every phone)."""
        c = self.controller
        codes = sealcodes.reveal_codes(c.table, c.state.phase.short)
        if not codes:
            return ""
        text = "Seal codes: " + "; ".join(f"{c.power_name(p)} {code}" for p, code in
                                          sorted(codes.items(), key=lambda x: c.board.power_ids.index(x[0])))
        self.session.notices.append(text[:1000])
        return text

    # -- the reveal -------------------------------------------------------------------------------

    def reveal(self) -> None:
        if self.session.stage != READY:
            return
        self._reveal(force=False)

    def force_reveal(self) -> bool:
        """The host reveals before everyone has sealed (a host action)."""
        self.step_away()
        if self.session.stage == REVEALED:
            return False
        waiting = [self.controller.power_name(p) for p in self.session.waiting]
        if self.session.declaring:
            text = ("Reveal all declarations now?\n\nNot sealed yet: " + ", ".join(waiting) +
                    ".\nThey declare nothing: their relations stay as they are (a war stays a war).") if waiting else \
                "Reveal all declarations now?"
            if not self.ask_host("Reveal the declarations now", text):
                return False
            self._reveal(force=True)
            return True
        text = ("Reveal all orders and adjudicate now?\n\nNot sealed yet: " + ", ".join(waiting) +
                ".\nTheir orders count as they are; units without orders hold.") if waiting else \
            "Reveal all orders and adjudicate now?"
        if not self.ask_host("Reveal now", text):
            return False
        self._reveal(force=True)
        return True

    def _reveal(self, *, force: bool) -> None:
        self.cover_windows()  # the reveal starts: nothing of anyone's turn is left on screen
        if self.session.declaring:
            self._reveal_declarations(force=force)
            return
        if not all(check() for check in self.before_reveal):  # e.g. the tournament's "the board matches"
            return
        self.session.reveal(force=force)
        codes = self.reveal_seal_codes()
        self._apply()
        if codes:
            self.tell(codes)
        self.revealed.emit()
        if self.adjudicate_on_reveal and not self.controller.game.is_over:
            self.controller.adjudicate()  # phase_advanced -> begin_phase, when connected

    # -- secrecy, curtain and strip follow the session ----------------------------------------------

    def _apply(self, *, activate: bool = True) -> None:
        c = self.controller
        s = self.session
        if not self.enabled:
            c.set_view(None, None)
            self.curtain.hide()
        else:
            # who may be seen and who is at the keyboard change together: one record, no moment
            # where too much is visible
            entering = s.stage == ENTERING and s.current is not None
            c.set_view(s.visible_powers, s.current if entering else None, seat=s.current_seat if entering else ())
            if s.stage in (CURTAIN, READY) or (s.declaring and s.stage == ENTERING):
                # (a power declaring writes inside the curtain: the window stays covered)
                self.curtain.show_session(s, host_pin=self.host_pin() is not None)
                self.curtain.cover(activate=activate)
            else:
                self.curtain.hide()
        self._show_declarations_form()
        seat_now = tuple(s.current_seat) if self.enabled and s.stage == ENTERING else None
        if seat_now != self._seat_shown:
            if self._seat_shown is not None:  # the seat at the keyboard left (stepped away, sealed, ...)
                self.cover_windows(keep=self._keep_window)
            if seat_now is None or self._seat_shown is None or set(seat_now) != set(self._seat_shown):
                self.proved = self.proved and seat_now is not None
            self._seat_shown = seat_now
        self._filter_dialogs(self.enabled and s.stage == ENTERING)
        self.strip.show_session(s, secrecy=self.enabled)
        table_value = s.to_dict()
        if c.table.get(self.TABLE_KEY) != table_value:
            c.keep_in_table(**{self.TABLE_KEY: table_value})
        self.table_session.turn_moved()
        self.stage_changed.emit(s.stage)

    def cover_windows(self, keep: QWidget | None = None) -> int:
        """Nothing of a player is left on screen (issue 20): every other window the app opened —
        a sandbox, an explanation, a lesson, a dialog — is closed when the seat at the keyboard
        changes, steps away, seals or the reveal starts.  Returns how many were closed."""
        app = QApplication.instance()
        if not isinstance(app, QApplication):
            return 0
        main = self.host.window()
        closed = 0
        for w in list(app.topLevelWidgets()):
            if (not shiboken6.isValid(w) or w is main or w is keep or w is self.curtain or not w.isVisible()
                    or isinstance(w, QDockWidget) or w.property("survives_seat_change")):
                continue
            if hasattr(w, "ask_before_closing"):  # another main window: a sandbox copy of this game
                w.ask_before_closing = False
            if isinstance(w, QDialog):
                w.reject()
            w.close()
            closed += 1
        return closed

    @property
    def curtain_up(self) -> bool:
        return self.curtain.isVisible()
