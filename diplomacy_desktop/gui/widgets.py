"""Small builders the window's panels and dialogs share: a column under a title, the phase buttons,
a combo box of choices, a panel that follows the game, signals wired to their slots, and a prompt
that counts as cancelled when its window is destroyed from outside."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (QComboBox, QDialog, QDockWidget, QHBoxLayout, QLabel, QPushButton, QVBoxLayout,
                               QWidget)

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from .controller import GameController


def connect_all(*pairs: tuple[SignalInstance, Callable[..., Any] | SignalInstance]) -> None:
    """Connect each signal to its slot (or to the signal it passes on)."""
    for signal, slot in pairs:
        signal.connect(slot)


def row(*items: QWidget | tuple[QWidget, int] | None) -> QHBoxLayout:
    """A row of widgets, left to right; ``(widget, stretch)`` gives one its share of the room and
    ``None`` is an empty stretch (two of them centre what stands between)."""
    layout = QHBoxLayout()
    for item in items:
        if item is None:
            layout.addStretch(1)
        elif isinstance(item, tuple):
            layout.addWidget(item[0], item[1])
        else:
            layout.addWidget(item)
    return layout


def bold_font(like: QFont, points: int) -> QFont:
    """``like`` (a widget's font), bold and ``points`` large: the big words of a page."""
    font = QFont(like)
    font.setPointSize(points)
    font.setBold(True)
    return font


def titled_column(side: int = 6, ends: int | None = None) -> tuple[QWidget, QVBoxLayout, QLabel]:
    """A widget laid out top to bottom whose first row is a word-wrapped title: the widget, its
    layout (for the rows below) and the title.  Margins: ``side`` left and right, ``ends`` top and
    bottom (the same as the sides unless given)."""
    body = QWidget()
    layout = QVBoxLayout(body)
    ends = side if ends is None else ends
    layout.setContentsMargins(side, ends, side, ends)
    title = QLabel()
    title.setWordWrap(True)
    layout.addWidget(title)
    return body, layout, title


def phase_buttons(controller: GameController, previous: str, following: str) -> tuple[QPushButton, QPushButton]:
    """The buttons that step back and forth through the phases played (Page Up, Page Down)."""
    back, forth = QPushButton(previous), QPushButton(following)
    back.setToolTip("Previous phase (Page Up)")
    forth.setToolTip("Next phase (Page Down)")
    back.clicked.connect(controller.view_previous)
    forth.clicked.connect(controller.view_next)
    return back, forth


def choice_combo(choices: Iterable[tuple[str, object]], current: object, name: str) -> QComboBox:
    """A combo box of (text, value) choices showing ``current`` (else the first); ``name`` is what
    a screen reader says."""
    combo = QComboBox()
    for text, value in choices:
        combo.addItem(text, value)
    combo.setCurrentIndex(max(0, combo.findData(current)))
    combo.setAccessibleName(name)
    return combo


def centre_on_page(page: QWidget, content: QWidget, share: int, margin: int | None = None) -> None:
    """Lay ``content`` out on ``page`` across ``share`` parts of its width (one part free on each
    side), a little above the middle (one part of the height above it, two below); ``margin``
    around it all (None: the style's)."""
    row = QHBoxLayout()
    row.addStretch(1)
    row.addWidget(content, share)
    row.addStretch(1)
    outer = QVBoxLayout(page)
    if margin is not None:
        outer.setContentsMargins(margin, margin, margin, margin)
    outer.addStretch(1)
    outer.addLayout(row)
    outer.addStretch(2)


class GameDock(QDockWidget):
    """A panel beside the map that follows the game: its title, its object name (the window's
    saved layout knows it by that) and the controller."""

    def __init__(self, title: str, name: str, controller: GameController, parent: QWidget | None = None) -> None:
        super().__init__(title, parent)
        self.setObjectName(name)
        self.controller = controller


_D = TypeVar("_D", bound=QDialog)


def open_kept(owner: object, attr: str, dialog: _D, finished: Callable[[int], object] | None = None) -> _D:
    """Open ``dialog`` (window-modal, without blocking), kept as ``owner.<attr>`` while it is open.
    When it closes it is let go (``owner.<attr>`` cleared unless another dialog took its place),
    then ``finished`` runs with its result, then the dialog is deleted."""
    setattr(owner, attr, dialog)

    def done(result: int) -> None:
        if getattr(owner, attr, None) is dialog:
            setattr(owner, attr, None)
        if finished is not None:
            finished(result)
        dialog.deleteLater()

    dialog.finished.connect(done)
    dialog.open()
    return dialog


def accepted(then: Callable[[], object]) -> Callable[[int], None]:
    """A ``finished`` for :func:`open_kept` that runs ``then`` only when the dialog was accepted."""

    def finished(result: int) -> None:
        if result == QDialog.DialogCode.Accepted:
            then()

    return finished


class _LostWatch(QObject):
    """Answers nothing for a shown dialog whose window went away without an answer (see
    ``answer_nothing_when_lost``)."""

    #: how long the dialog's window may stay unmapped, its parent's shown, before it counts as
    #: lost (a window manager hiding both, e.g. another desktop, unmaps them one after the other)
    GRACE_MS = 300

    def __init__(self, box: QDialog) -> None:
        super().__init__(box)
        self.box = box
        self.answered = False
        # connected before the owner's own slot: an answer is known before that slot runs (it may
        # open another prompt, whose event loop would otherwise run this watch's check meanwhile)
        box.finished.connect(self._finished)
        box.installEventFilter(self)
        self._watched_handle: QObject | None = None

    def _finished(self, _result: int) -> None:
        self.answered = True

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.box and event.type() == QEvent.Type.Show:
            handle = self.box.windowHandle()
            if handle is not None and handle is not self._watched_handle:
                handle.installEventFilter(self)  # its Expose events: the X window gone
                self._watched_handle = handle
        if not self.answered and event.type() in (QEvent.Type.Hide, QEvent.Type.Expose):
            QTimer.singleShot(0 if event.type() == QEvent.Type.Hide else self.GRACE_MS, self, self._check)
        return False

    def _check(self) -> None:
        box = self.box
        if self.answered:
            return
        if not box.isVisible():  # hidden without an answer, its platform window destroyed
            if box.internalWinId() == 0:
                box.done(QDialog.DialogCode.Rejected)
            return
        handle, parent = box.windowHandle(), box.parentWidget()
        owner = parent.window().windowHandle() if parent is not None else None
        if handle is None or handle.isExposed() or box.windowState() & Qt.WindowState.WindowMinimized:
            return
        if owner is None or owner.isExposed():  # the dialog alone is gone: its X window destroyed
            box.done(QDialog.DialogCode.Rejected)


def answer_nothing_when_lost(box: QDialog) -> None:
    """Call before connecting to ``box.finished`` and before showing it: if its window disappears
    without an answer (destroyed from outside, e.g. ``xdotool windowclose``, or hidden with its
    platform window) it is finished as rejected, as Escape (or Cancel) is, so that its owner asks
    again (red team, issue 31: the unfinished game's prompt, and then the passphrase prompt,
    destroyed at the X level stayed modal and invisible, and the app was blocked)."""
    _LostWatch(box)
