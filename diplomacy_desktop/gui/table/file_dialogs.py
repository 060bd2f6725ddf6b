"""The file dialogs while a table game runs: no file operations in the data folder.

The data folder holds the autosave (every power's sealed orders, encrypted or not, the PIN
hashes): a player who reaches any file dialog in their own turn (the sandbox's Open, an export)
must not be able to rename or delete it, nor see when it last changed.  In table mode the file
dialogs are Qt's own (``AA_DontUseNativeDialogs``), so ``DataFolderGuard``, an application-wide
event filter (from the event loop's first turn: ``DataFolderGuard.watch``), sees every one as it is
shown, whichever module opened it, and:

* makes it read-only (``QFileDialog.Option.ReadOnly``: no Rename, Delete or New Folder anywhere);
* never shows what is in the data folder: the dialog is sent elsewhere (the home folder) whenever
  it opens there or is taken there (a double click, a typed path, Back, the look-in list); the
  folder itself is listed in the folder above it (a proxy model hiding it trips Qt's own views),
  but it cannot be opened, renamed or deleted;
* refuses a file name typed inside the data folder (its Open / Save button stays disabled, and
  Enter in the name, which accepts a Qt file dialog directly, does nothing).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QApplication,
    QDialogButtonBox,
    QFileDialog,
    QLineEdit,
    QPushButton,
)

from .. import override

#: set on a dialog once it is guarded (a dialog shown twice is set up once)
GUARDED = "data_folder_guarded"


def _forms(path: str | Path) -> tuple[str, ...]:
    """A path as written and as resolved (a link to the data folder is the data folder)."""
    forms = {os.path.normcase(os.path.normpath(os.path.abspath(path)))}
    with contextlib.suppress(OSError):  # a path that cannot be resolved: as written
        forms.add(os.path.normcase(os.path.normpath(str(Path(path).resolve()))))
    return tuple(sorted(forms))


class DataFolderGuard(QObject):
    """Guards every Qt file dialog of the application against the data ``folder`` (see the
    module documentation) for as long as it lives."""

    def __init__(self, folder: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.folder = Path(folder)
        self._forms = _forms(self.folder)
        #: whether it watches the application's events (from the event loop's first turn: see ``watch``)
        self.watching = False
        if QApplication.instance() is not None:
            QTimer.singleShot(0, self, self._watch_after_start)

    def _watch_after_start(self) -> None:
        from .. import startup

        startup.after_start(self._watch_if_alive)

    def _watch_if_alive(self) -> None:
        if shiboken6.isValid(self):  # (not deleted while the window started)
            self.watch()

    def watch(self) -> None:
        """Watch every file dialog shown from now on, and guard those already shown.

        Called when the event loop first turns, and in the window's start once its first frame is
        drawn (``startup.after_start``), not when the guard is made: while an application-wide event
        filter is installed, every event of an object of a class PySide has not loaded yet (a list
        widget's inner model...) makes PySide load all its classes first, some 12 ms of the window's
        start before its first frame, and the event loop's first turn comes before that frame (some
        400 events, 4 ms more).  No file dialog can be shown earlier but by a call made before the
        event loop runs, and that one is guarded here, as its own event loop first turns."""
        app = QApplication.instance()
        if self.watching or app is None:
            return
        app.installEventFilter(self)
        self.watching = True
        for widget in QApplication.topLevelWidgets():
            if isinstance(widget, QFileDialog) and widget.isVisible():
                self.guard(widget)

    def inside(self, path: str | Path) -> bool:
        """Whether ``path`` is the data folder or anything in it."""
        text = str(path)
        if not text:
            return False
        return any(c == f or c.startswith(f.rstrip(os.sep) + os.sep) for c in _forms(text) for f in self._forms)

    def elsewhere(self) -> str:
        """Where a dialog goes instead of the data folder: the home folder (or the folder above)."""
        home = Path.home()
        return str(home if not self.inside(home) else self.folder.parent)

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Show and isinstance(watched, QFileDialog):
            self.guard(watched)
        return False

    def guard(self, dialog: QFileDialog) -> None:
        """Make ``dialog`` read-only and keep it out of the data folder."""
        dialog.setOption(QFileDialog.Option.ReadOnly, True)
        if not dialog.property(GUARDED):
            dialog.setProperty(GUARDED, True)
            dialog.directoryEntered.connect(lambda path, d=dialog: self.keep_out(d, path))
            from PySide6.QtWidgets import QFileSystemModel  # (its type, and its enums, with the first dialog)

            model = dialog.findChild(QFileSystemModel)
            if model is not None:  # every way there (history, Back, the look-in list, a typed path)
                model.rootPathChanged.connect(
                    lambda path, d=dialog: QTimer.singleShot(0, lambda: self.keep_out(d, path)))
            _NameGuard(self, dialog)
        self.keep_out(dialog, dialog.directory().absolutePath())

    def keep_out(self, dialog: QFileDialog, path: str) -> None:
        if self.inside(path):
            dialog.setDirectory(self.elsewhere())

    def typed_inside(self, dialog: QFileDialog) -> bool:
        """Whether the file name typed in ``dialog`` is in the data folder."""
        edit = dialog.findChild(QLineEdit, "fileNameEdit")
        typed = edit.text().strip().strip('"') if edit is not None else ""
        if not typed:
            return False
        typed = os.path.expanduser(typed)
        where = Path(typed) if os.path.isabs(typed) else Path(dialog.directory().absolutePath()) / typed
        return self.inside(where)


def _accept_buttons(dialog: QFileDialog) -> list[QPushButton]:
    box = dialog.findChild(QDialogButtonBox, "buttonBox")
    if box is None:
        return []
    return [b for b in box.buttons()
            if isinstance(b, QPushButton) and box.buttonRole(b) == QDialogButtonBox.ButtonRole.AcceptRole]


class _NameGuard(QObject):
    """One dialog's file name: a name typed inside the data folder is never accepted (Enter in
    the name does nothing, the Open / Save button stays disabled whatever the dialog does)."""

    def __init__(self, guard: DataFolderGuard, dialog: QFileDialog) -> None:
        super().__init__(dialog)
        self.guard = guard
        self.dialog = dialog
        self.edit = dialog.findChild(QLineEdit, "fileNameEdit")
        if self.edit is not None:
            self.edit.installEventFilter(self)
            self.edit.textChanged.connect(lambda _text: self.refuse())
        for button in _accept_buttons(dialog):
            button.installEventFilter(self)

    def refuse(self) -> bool:
        """Disable the accept buttons when the typed name is in the data folder; whether it is."""
        inside = self.guard.typed_inside(self.dialog)
        if inside:
            for button in _accept_buttons(self.dialog):
                if button.isEnabled():
                    button.setEnabled(False)
            if self.edit is not None:
                self.edit.setToolTip("Files in the app's data folder cannot be chosen here.")
        return inside

    @override
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        kind = event.type()
        if kind == QEvent.Type.EnabledChange and isinstance(watched, QPushButton) and watched.isEnabled():
            QTimer.singleShot(0, self.refuse)  # the dialog enabled it again (a folder loaded)
        elif (kind == QEvent.Type.KeyPress and watched is self.edit and isinstance(event, QKeyEvent)
              and event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)):
            return self.refuse()  # Enter in the name accepts the dialog directly: not this name
        return False
