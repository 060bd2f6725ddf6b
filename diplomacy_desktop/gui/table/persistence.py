"""Keeping the table's game safe: autosave, the offer to resume, recent files, Save / Open.

* ``Autosave``: the live game in one SQLite database, ``autosave.sqlite``, in the app's data folder
  (QStandardPaths.AppDataLocation; the store itself is ``table.autosave.Autosave``, the one
  ``serve`` uses: ``io.gamestore``), written by small transactions (an order given writes one
  row), so a crash or a pulled plug leaves the last committed game whole; an earlier version's
  ``autosave.json`` is migrated into it on first start.
* ``Autosaver``: writes it right after every adjudication (and its undo), and shortly after any
  other change (orders, seals, the clock), so very little can be lost (when: ``table.autosave.
  autosave_timing``).
* At start, ``Autosave.set_aside_if_damaged`` moves an autosave that cannot be read to
  ``autosave.damaged-<time>.sqlite`` (never over another file) so that the new game's autosave
  cannot overwrite it, and the table is told where it is; ``Autosave.clean_temp_files``
  removes the temporary files a kill mid-write left behind (only ours, only old ones).
* ``RecentFiles``: the Open Recent list, kept in QSettings.
* ``open_game_file`` / ``save_game_file``: Open and Save for the window; a ``SaveFileError`` (or
  an OS error) becomes a message, and the game on the table stays as it was.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, QStandardPaths, QTimer
from PySide6.QtWidgets import QDialog, QInputDialog, QLineEdit, QMenu, QMessageBox, QWidget

from ...io.savefile import OpenedGame, SaveFileError, WrongPassphraseError, is_secret_file, open_game
from ...io.vault import UNAUTHENTICATED_TEXT
from ...table.autosave import (
    NOW,
    ORDER,
    SOON,
    AutosaveInfo,
    autosave_timing,
)
from ...table.autosave import Autosave as FolderAutosave
from ...table.changes import WINDOW_KINDS

from ..controller import weak_listener
from ..widgets import answer_nothing_when_lost

if TYPE_CHECKING:
    from ...table.changes import TableChange
    from ..controller import GameController

#: set to a folder to keep the autosave somewhere else (portable installs, tests)
DATA_DIR_ENV = "DIPLOMACY_DESKTOP_DATA"

Message = Callable[[QWidget | None, str, str], None]


def show_warning(parent: QWidget | None, title: str, text: str) -> None:
    box = QMessageBox(QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, parent)
    answer_nothing_when_lost(box)  # destroyed from outside (under X): as OK, never blocking the window
    try:
        box.exec()
    finally:
        box.deleteLater()


def app_data_dir() -> Path:
    """Where the autosave lives: $DIPLOMACY_DESKTOP_DATA, else Qt's AppDataLocation."""
    override = os.environ.get(DATA_DIR_ENV)
    if override:
        return Path(override)
    location = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation)
    if not location:  # pragma: no cover - no home folder at all
        return Path.home() / ".diplomacy-desktop"
    return Path(location)


# -- autosave ------------------------------------------------------------------------------------




class Autosave(FolderAutosave):
    """The one autosave file, in the app's data folder unless another ``folder`` is given."""

    def __init__(self, folder: Path | str | None = None) -> None:
        super().__init__(folder if folder is not None else app_data_dir())


__all__ = ["Autosave"]


class Autosaver(QObject):
    """Writes the autosave after every phase and every order at once, and at most DELAY_MS
    after any other change."""

    DELAY_MS = 1500
    #: an order given at the laptop is saved at once when a save takes at most this long (seconds);
    #: a longer one (a game of many decades) would slow down writing orders: saved DELAY_MS later
    ORDER_SAVE_BUDGET = 0.15

    def __init__(self, controller: GameController, autosave: Autosave | None = None, *,
                 parent: QObject | None = None, message: Message | None = None,
                 window: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.autosave = autosave if autosave is not None else Autosave()
        self.message = message if message is not None else show_warning
        self.window = window
        self.enabled = True
        self.writes = 0
        self.last_write_seconds = 0.0
        self.last_error: str | None = None
        #: set while a phone's change is saved: a failure is shown once the phone has its answer
        self.message_later = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.DELAY_MS)
        self._timer.timeout.connect(self.save_now)
        controller.changed.connect(self._on_changed)
        controller.saved.connect(self._on_saved)
        #: the table service's durable write (a change on disk before anybody hears of it): the
        #: service's operations that no ``changed`` record saves at once (a wrong PIN) are written now
        controller.service.write = weak_listener(self._write_change)  # (no cycle with the controller)

    def _write_change(self, change: TableChange) -> None:
        """The service's write hook: every operation of the table service is written at once,
        before the window's views or the phones hear of it (``serve``'s rule: one store, one
        rule); an adjudication is written again once the table (clock, turn) has followed."""
        if not self.enabled:
            return
        self.save_now()
        if autosave_timing(change) == NOW:
            self._timer.start()

    def _on_changed(self, record: TableChange) -> None:
        if record.kind not in WINDOW_KINDS:
            return  # a table service change: written by ``_write_change`` before it was sent
        self._write_for(record)

    def _write_for(self, record: TableChange) -> None:
        if not self.enabled:
            return
        when = autosave_timing(record)
        if when == NOW:  # an adjudication or its undo: at once, and
            self.save_now()  # again once the table (clock, hot-seat turn) has followed
            self._timer.start()
        elif when == ORDER:  # (an order given through the service is written by ``_write_change``)
            if self.last_write_seconds <= self.ORDER_SAVE_BUDGET:
                self.save_now()
            else:
                self.schedule()
        elif when == SOON:
            self.schedule()

    def _on_saved(self, _path: str) -> None:
        """Saved under a name: the autosave learns the name at once (a resumed game keeps it)."""
        if self.enabled:
            self.save_now()

    def schedule(self) -> None:
        """Something outside the controller changed (the clock, a seal): save soon, at most
        DELAY_MS after the first change not yet saved (a change every half second does not put
        the save off: the timer is not restarted while it runs)."""
        if self.enabled and not self._timer.isActive():
            self._timer.start()

    def save_now(self) -> bool:
        self._timer.stop()
        if not self.enabled:
            return False
        started = time.perf_counter()
        try:
            self.autosave.write(self.controller.game, self.controller.table, self.controller.path,
                                vault=self.controller.vault)
        except OSError as exc:
            text = f"The autosave could not be written to {self.autosave.path}: {exc.strerror or exc}"
            if text != self.last_error:  # say it once, not after every phase
                if self.message_later:  # (a phone waits for its answer: not behind a modal box)
                    QTimer.singleShot(0, lambda: self.message(self.window, "Autosave failed", text))
                else:
                    self.message(self.window, "Autosave failed", text)
            self.last_error = text
            return False
        self.last_error = None
        self.writes += 1
        self.last_write_seconds = time.perf_counter() - started
        return True

    def flush(self) -> None:
        """Write a pending save now (on quit)."""
        if self._timer.isActive():
            self.save_now()

    def discard(self) -> None:
        """The table discarded the game (Discard on quit): no autosave offers it again."""
        self._timer.stop()
        self.enabled = False
        self.autosave.clear()


#: asks the host for a secret game's passphrase: (parent, text) -> the passphrase, or None
PassphrasePrompt = Callable[[QWidget | None, str], "str | None"]
LOCKED_TEXT = ("Without the passphrase the game opens with the public board only: this phase's orders, "
               "declarations, notes and the phones' links stay encrypted in the file (open it again with the "
               "passphrase to have them back). It opens without its file's name: Save asks for another, so that "
               "nothing is written over the secrets.")
#: why the table game does not open a secret save without its passphrase
NOT_OPENED_TEXT = ("without the passphrase its sealed orders, notes and the phones' links cannot be read, and a "
                   "game played on without them could not honour its seals: it was not opened (the file is "
                   "untouched; open it again with the passphrase)")


def ask_passphrase(parent: QWidget | None, text: str) -> str | None:
    """The app's passphrase prompt (the characters are not shown); its window destroyed from
    outside counts as Cancel (``answer_nothing_when_lost``)."""
    dialog = QInputDialog(parent)
    dialog.setWindowTitle("The game's passphrase")
    dialog.setInputMode(QInputDialog.InputMode.TextInput)
    dialog.setLabelText(text)
    dialog.setTextEchoMode(QLineEdit.EchoMode.Password)
    answer_nothing_when_lost(dialog)
    try:
        ok = dialog.exec() == QDialog.DialogCode.Accepted
        typed = dialog.textValue()
    finally:
        dialog.deleteLater()
    return typed if ok else None


def open_secret_file(path: Path, prompt: PassphrasePrompt, *, parent: QWidget | None = None,
                     message: Message | None = None, tries: int = 3, whole_only: bool = False) -> OpenedGame:
    """A saved game, with its secrets when the host gives the passphrase: asked up to ``tries``
    times; without it the public part (``locked``: the caller must not give it the file's name,
    so that no Save writes it over the secrets it could not read), and the host is told why.
    ``whole_only`` (the table game: a game played on without its secrets could not honour its
    seals): without the passphrase, SaveFileError, nothing opened.  SaveFileError: the file is
    not a saved game."""
    if not is_secret_file(path):
        return open_game(path)
    say = message or show_warning
    text = f"{path.name} keeps this phase's secrets encrypted. The host's passphrase:"
    for _ in range(tries):
        typed = prompt(parent, text)
        if typed is None:
            break
        try:
            opened = open_game(path, passphrase=typed)
        except WrongPassphraseError:
            text = f"That is not the passphrase of {path.name}. The host's passphrase:"
            continue
        if opened.unauthenticated:  # an earlier version's file: said once, its next save authenticates it
            say(parent, "Not authenticated", f"{path.name}: {UNAUTHENTICATED_TEXT}")
        return opened
    if whole_only:
        raise SaveFileError(NOT_OPENED_TEXT)
    opened = open_game(path)
    say(parent, "Opened without the secrets", LOCKED_TEXT)
    return opened


#: why a secret autosave was not resumed without its passphrase
KEPT_SEALED_TEXT = ("The unfinished game was not resumed: without the passphrase its sealed orders, notes and the "
                    "phones' links cannot be read, and a game that went on without them would lose them (the "
                    "sealed powers would be in civil disorder at the reveal). It stays in the autosave, encrypted "
                    "and untouched: resume it with the passphrase, or the host sets it aside with New game.")


def unlock_autosave(autosave: Autosave, prompt: PassphrasePrompt, *, parent: QWidget | None = None,
                    tries: int = 3) -> OpenedGame | None:
    """The autosaved secret game, whole, when the host gives the passphrase (asked up to
    ``tries`` times); ``None`` without it.  SaveFileError: the autosave cannot be read."""
    text = "The autosaved game keeps this phase's secrets encrypted. The host's passphrase:"
    for _ in range(tries):
        typed = prompt(parent, text)
        if typed is None:
            return None
        try:
            return autosave.open(passphrase=typed)
        except WrongPassphraseError:
            text = "That is not the autosaved game's passphrase. The host's passphrase:"
    return None


def resume_from_autosave(controller: GameController, autosave: Autosave, *, parent: QWidget | None = None,
                         message: Message | None = None, prompt: PassphrasePrompt | None = None) -> bool:
    """Replace the controller's game with the autosaved one; on a damaged autosave say so, keep
    the game.  A secret game is resumed only whole, with its passphrase: without it nothing is
    resumed, and the autosave is left exactly as it is (its seals cannot be honoured, and the
    writes of a game played on without its key would drop them)."""
    say = message or show_warning
    try:
        if autosave.is_secret():
            opened = unlock_autosave(autosave, prompt or ask_passphrase, parent=parent)
            if opened is None:
                say(parent, "Not resumed: the passphrase is needed", KEPT_SEALED_TEXT)
                return False
        else:
            opened = autosave.open()
    except SaveFileError as exc:
        say(parent, "Cannot resume", f"The autosaved game cannot be read: {exc}")
        return False
    if opened.unauthenticated:  # an earlier version's autosave: said once, the next write authenticates it
        say(parent, "Not authenticated", f"The autosaved game: {UNAUTHENTICATED_TEXT}")
    # Ctrl+S saves to its own file again
    controller.replace_game(opened.game, opened.table, autosave.origin(), vault=opened.vault)
    return True


def resume_box(parent: QWidget | None, info: AutosaveInfo) -> QMessageBox:
    """The offer to resume (not shown yet: ``open()`` it, or ``exec()``); its ``resume_button``
    is the button that means yes, its ``new_game_button`` the host's New game (the unfinished
    game is then kept aside, never overwritten).  Escape and closing the box answer nothing:
    the question stays until the table chooses."""
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Question)
    box.setWindowTitle("Resume the last game?")
    box.setText(f"<b>A game was left unfinished</b><br>{info.text}")
    box.setInformativeText("Resume it, or start a new game? (A new game is a host action: the unfinished game "
                           "is then kept aside in the data folder, never overwritten.)")
    resume = box.addButton("Resume", QMessageBox.ButtonRole.AcceptRole)
    # an action, not a rejection: Escape (and the title bar's close) must not pick it
    new_game = box.addButton("New game\u2026", QMessageBox.ButtonRole.ActionRole)
    box.setDefaultButton(resume)
    box.resume_button = resume  # type: ignore[attr-defined]
    box.new_game_button = new_game  # type: ignore[attr-defined]
    return box


# -- recent files ----------------------------------------------------------------------------------


class RecentFiles:
    """The most recently opened or saved games, newest first, in QSettings."""

    KEY = "recent_files"
    LIMIT = 8

    def __init__(self, settings: QSettings | None = None) -> None:
        self.settings = settings if settings is not None else QSettings()

    def _raw(self) -> list[str]:
        value = self.settings.value(self.KEY, [])
        if isinstance(value, str):
            return [value] if value else []
        if isinstance(value, (list, tuple)):
            return [str(v) for v in value if v]
        return []

    def paths(self) -> list[Path]:
        """The list, without files that have disappeared since."""
        return [Path(p) for p in self._raw() if Path(p).is_file()]

    def add(self, path: Path | str) -> None:
        p = str(Path(path).resolve())
        items = [x for x in self._raw() if x != p]
        items.insert(0, p)
        self.settings.setValue(self.KEY, items[: self.LIMIT])
        self.settings.sync()

    def remove(self, path: Path | str) -> None:
        p = str(Path(path).resolve())
        self.settings.setValue(self.KEY, [x for x in self._raw() if x != p])
        self.settings.sync()

    def clear(self) -> None:
        self.settings.setValue(self.KEY, [])
        self.settings.sync()

    def fill_menu(self, menu: QMenu, open_path: Callable[[Path], object]) -> None:
        """Rebuild ``menu``: one entry per file (Alt+1..9), then "Clear the list"."""
        menu.clear()
        paths = self.paths()
        for i, p in enumerate(paths, start=1):
            act = menu.addAction(f"&{i}  {p.name}" if i < 10 else p.name)
            act.setToolTip(str(p))
            act.setStatusTip(str(p))
            act.triggered.connect(lambda _checked=False, path=p: open_path(path))
        if paths:
            menu.addSeparator()
            clear = menu.addAction("Clear the list")

            def clear_list(_checked: bool = False) -> None:
                self.clear()
                menu.setEnabled(False)
                QTimer.singleShot(0, lambda: self.fill_menu(menu, open_path))  # not inside its own signal

            clear.triggered.connect(clear_list)
        menu.setEnabled(bool(paths))


# -- Open and Save ----------------------------------------------------------------------------------


def open_game_file(controller: GameController, path: Path | str, *, parent: QWidget | None = None,
                   message: Message | None = None, recent: RecentFiles | None = None,
                   prompt: PassphrasePrompt | None = None) -> bool:
    """Open a saved game (a secret game asks for its passphrase).  A broken or foreign file gives
    a clear message; the game on the table and the file itself stay exactly as they were."""
    p = Path(path)
    try:
        # reads and checks everything before it replaces anything
        opened = open_secret_file(p, prompt or ask_passphrase, parent=parent, message=message, whole_only=True)
        controller.replace_game(opened.game, opened.table, p, vault=opened.vault)
    except SaveFileError as exc:
        (message or show_warning)(parent, "Cannot open the game", f"{p.name}: {exc}")
        if recent is not None and not p.is_file():
            recent.remove(p)
        return False
    except OSError as exc:
        (message or show_warning)(parent, "Cannot open the game", f"{p.name}: {exc.strerror or exc}")
        return False
    if recent is not None:
        recent.add(p)
    return True


def save_game_file(controller: GameController, path: Path | str, *, parent: QWidget | None = None,
                   message: Message | None = None, recent: RecentFiles | None = None) -> bool:
    """Save (atomically); a failure gives a message and leaves any earlier file whole."""
    p = Path(path)
    try:
        controller.save(p)
    except (OSError, SaveFileError) as exc:
        text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        (message or show_warning)(parent, "Cannot save the game", f"{p}: {text}")
        return False
    if recent is not None:
        recent.add(p)
    return True
