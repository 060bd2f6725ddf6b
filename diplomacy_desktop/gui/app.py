"""``run_app``: start the application, open the main window, and never show a traceback."""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from types import TracebackType

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication, QMessageBox

from ..resources import assets_dir

APP_NAME = "Diplomacy Desktop"
ORG_NAME = "Diplomacy Desktop"


def make_application(argv: list[str] | None = None) -> QApplication:
    """The QApplication (created once), named so QSettings has a home."""
    from . import startup

    app = QApplication.instance()
    if app is None:
        QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(argv if argv is not None else sys.argv[:1])
        startup.pause()  # no garbage collection until the map's first frame (gui/startup.py)
    startup.answer_imports_without_source()  # PySide reads no module's source (gui/startup.py)
    QCoreApplication.setOrganizationName(ORG_NAME)
    QCoreApplication.setApplicationName(APP_NAME)
    QGuiApplication.setApplicationDisplayName(APP_NAME)
    icon = assets_dir() / "icon.svg"
    if icon.exists():
        QGuiApplication.setWindowIcon(QIcon(str(icon)))
    assert isinstance(app, QApplication)
    return app


def install_error_handler() -> None:
    """Any error that escapes becomes a clear message box; the details go to stderr only."""

    def hook(kind: type[BaseException], exc: BaseException, tb: TracebackType | None) -> None:
        traceback.print_exception(kind, exc, tb, file=sys.stderr)
        if isinstance(exc, KeyboardInterrupt):
            QApplication.quit()
            return
        parent = QApplication.activeWindow()
        message = str(exc) or kind.__name__
        QMessageBox.critical(parent, "Something went wrong",
                             f"{message}\n\nThe game itself is unchanged; you can go on playing, "
                             "or save it and restart.")

    sys.excepthook = hook


def run_app(args: argparse.Namespace) -> int:
    app = make_application()
    install_error_handler()
    from .controller import GameController
    from .main_window import MainWindow

    controller = GameController()
    try:
        window = MainWindow(controller)
    except (ValueError, OSError) as exc:  # the map's own errors are ValueErrors
        QMessageBox.critical(None, APP_NAME, f"The map cannot be loaded: {exc}")
        return 2
    from .table.features.mode import install_table_features

    features = install_table_features(window)  # clock, hot-seat, dialogs, autosave, recent files
    from ..io.gamelock import GameLock, GameLockedError

    lock = GameLock(features.autosaver.autosave.path, "a Diplomacy Desktop window")
    try:
        lock.acquire()  # one window per autosave: a second one would write over the first one's game
    except GameLockedError as exc:
        QMessageBox.critical(None, APP_NAME, f"The table's game is already open: {exc}. Use that window, or "
                             "close it and start again.")
        return 2
    except OSError:
        pass  # a folder that cannot hold a lock: the window works as before
    lock.remove_abandoned_temp_files()  # autosaves a kill cut short (no other window writes here)
    window.game_lock = lock  # type: ignore[attr-defined]  # held until the app exits
    path = getattr(args, "file", None)
    window.show()  # first: a message about the file or the autosave then sits over the window
    features.check_autosave()  # a damaged autosave is kept aside before anything is autosaved
    if path:
        features.open_at_start(path)  # an unfinished game in the autosave is kept aside first
    if os.environ.get("DIPLOMACY_DESKTOP_QUIT_AFTER_SHOW"):  # for the start-up benchmark
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, app.quit)
    elif not path:
        features.first_start()  # offer to resume an unfinished game, or the New Game settings
    return int(app.exec())
