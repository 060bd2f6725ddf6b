"""The window's keys: key sequences without duplicates, and keys that work whatever has focus.

Qt fires no shortcut when one sequence is claimed twice in a window ("Ambiguous shortcut
overload"), and a focused widget that accepts a key's ShortcutOverride (a text box takes
Ctrl+Z, a list or a text view takes Page Up) keeps the window's shortcut from firing at all.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit, QMenu, QMenuBar, QWidget

from . import override

Keys = str | QKeySequence | QKeySequence.StandardKey

#: order edits are undone and redone by these, also from inside the order box
UNDO_KEYS: list[Keys] = ["Ctrl+Z", QKeySequence.StandardKey.Undo]
REDO_KEYS: list[Keys] = ["Ctrl+Shift+Z", "Ctrl+Y", QKeySequence.StandardKey.Redo]

#: View ▸ Loupe: the glass that follows the pointer (``board.loupe``, imported when first used)
LOUPE_KEY = "Ctrl+G"
#: history browsing (previous phase, next phase, the current phase), whatever has focus
HISTORY_KEYS = frozenset({Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_End})


def key_sequences(keys: Keys | list[Keys]) -> list[QKeySequence]:
    """The key sequences of ``keys`` (standard keys expanded for this platform), each once."""
    out: list[QKeySequence] = []
    seen: set[str] = set()
    for key in keys if isinstance(keys, list) else [keys]:
        expanded = (QKeySequence.keyBindings(key) if isinstance(key, QKeySequence.StandardKey)
                    else [QKeySequence(key)])
        for seq in expanded:
            text = seq.toString(QKeySequence.SequenceFormat.PortableText)
            if text and text not in seen:
                seen.add(text)
                out.append(seq)
    return out


def menu_action(window: QWidget, menu: QMenu, text: str, slot: Callable[[], object],
                shortcut: Keys | list[Keys] | None = None, tip: str = "") -> QAction:
    """A menu entry of ``window``'s: ``slot`` on trigger, its shortcut(s) and status tip; the
    action is the window's too, so its shortcut works in full screen (menu bar hidden)."""
    act = QAction(text, window)
    if shortcut is not None:
        act.setShortcuts(key_sequences(shortcut))
    if tip:
        act.setStatusTip(tip)
    act.triggered.connect(lambda _checked=False: slot())
    menu.addAction(act)
    window.addAction(act)
    return act


def add_menu_before_help(bar: QMenuBar, menu: QMenu) -> None:
    """Put ``menu`` on the menu bar, before Help (which stays last, where every program has it)."""
    before = next((a for a in bar.actions() if a.text().replace("&", "") == "Help"), None)
    if before is not None:
        bar.insertMenu(before, menu)
    else:
        bar.addMenu(menu)


def event_keys(event: QKeyEvent) -> QKeySequence:
    """The key sequence a key event is (keypad flag dropped)."""
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return QKeySequence(event.key() | modifiers.value)


def is_one_of(event: QKeyEvent, keys: list[Keys]) -> bool:
    pressed = event_keys(event)
    return any(pressed.matches(seq) == QKeySequence.SequenceMatch.ExactMatch for seq in key_sequences(keys))


def is_undo_or_redo(event: QKeyEvent) -> bool:
    return is_one_of(event, UNDO_KEYS + REDO_KEYS)


class HistoryKeys(QObject):
    """An event filter for the focused widget of one window: Page Up, Page Down and End go to
    the window's history actions instead of being taken by the focused widget (a list
    scrolling, a text view moving its cursor).  In a text box with text in it End still moves
    the cursor.

    Qt sends the key's ShortcutOverride to the focused widget only, so only that one is watched
    (:meth:`follow`, at every change of focus): every other widget's events (each paint of
    each widget) would otherwise pass through this filter too."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._watched: QObject | None = None

    @property
    def watched(self) -> QObject | None:
        """The widget whose keys are filtered now (the window's focused widget)."""
        return self._watched

    def follow(self, widget: QObject | None) -> None:
        """Filter ``widget``'s keys instead of the widget watched until now."""
        if widget is self._watched:
            return
        if self._watched is not None:
            with contextlib.suppress(RuntimeError):  # that widget is gone (its C++ object deleted)
                self._watched.removeEventFilter(self)
        self._watched = widget
        if widget is not None:
            widget.installEventFilter(self)

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride or not isinstance(event, QKeyEvent):
            return False
        if event.key() not in HISTORY_KEYS:
            return False
        if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
            return False
        if event.key() == Qt.Key.Key_End and _has_text(watched):
            return False
        event.ignore()  # not overridden: the window's shortcut fires
        return True


def _has_text(widget: QObject) -> bool:
    if isinstance(widget, QLineEdit):
        return bool(widget.text())
    return isinstance(widget, QAbstractSpinBox)
