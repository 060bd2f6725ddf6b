"""The game window hosting phones, for ``bench/bench_window_kills.py`` (not a test).

    python bench/window_host_driver.py DATA_FOLDER PORT

Starts the real main window (offscreen), with the table's features and its autosave in
DATA_FOLDER: the autosaved game is resumed when there is one (as "Resume" at start does), else a
new game is started; orders are opened ("Write orders") and hosting is turned on at PORT on
127.0.0.1.  Prints ``READY <base> <power>=<token> ...`` and runs until it is killed.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from PySide6.QtCore import QSettings

from diplomacy_desktop.gui.app import make_application
from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.gui.main_window import MainWindow
from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.gui.table.features import install_table_features
from diplomacy_desktop.gui.table.persistence import Autosave, resume_from_autosave
from diplomacy_desktop.io.gamelock import GameLock


def main() -> int:
    data, port = Path(sys.argv[1]), int(sys.argv[2])
    app = make_application()
    settings = QSettings(str(data / "settings.ini"), QSettings.Format.IniFormat)
    controller = GameController()
    window = MainWindow(controller, settings=settings, sharpen=False)
    window.ask_before_closing = False
    autosave = Autosave(data)
    lock = GameLock(autosave.path, "the kill bench's window")
    lock.acquire()
    lock.remove_abandoned_temp_files()
    features = install_table_features(window, autosave=autosave, rng=random.Random(1901), review=lambda d: True,
                                      confirm=lambda *a: True, host_prompt=lambda *a: None,
                                      message=lambda *a: print("MESSAGE", *a[1:], flush=True))
    window.show()
    if autosave.exists():
        assert resume_from_autosave(controller, autosave, message=lambda *a: print("MESSAGE", *a[1:]))
    else:
        features.start_new_game(TableSettings())
        features.act_write.trigger()
    hosting = features.turn_on(port, "127.0.0.1")
    host = features.phones.host
    tokens = " ".join(f"{p}={host.token_of(p)}" for p in controller.board.power_ids)
    print(f"READY {hosting.base_url} {controller.state.phase.short} {tokens}", flush=True)
    return int(app.exec())


if __name__ == "__main__":
    sys.exit(main())
