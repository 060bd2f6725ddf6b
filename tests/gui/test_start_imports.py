"""The window's cold start imports only what its first picture needs (issue 16, point 5).

The table's dialogs, the phones (the window's side, the host behind it and its web server), the
tournament's dialogs and pages, and teaching (the sandbox, step-through, the lessons, the engine's
explanations) are imported when the user first opens them, not at every start.  The start is
made as ``bench/bench_gui.py`` makes it: a new process, offscreen, the table game's features
installed, until the map's first paint; then the process lists what it imported.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]

#: imported only once the user asks for what they serve
NOT_AT_START = (
    # the phones: Table ▸ Phones… (the window's side, the host's table and server, the QR code)
    "aiohttp",
    "segno",
    "diplomacy_desktop.gui.table.phones",
    "diplomacy_desktop.host.table",
    "diplomacy_desktop.host.server",
    "diplomacy_desktop.host.qr",
    "diplomacy_desktop.host.phase_results",
    # the table's dialogs: New Game, clock settings, draw vote, game over, civil disorder, PIN change
    "diplomacy_desktop.gui.table.dialogs.new_game",
    "diplomacy_desktop.gui.table.dialogs.clock_settings",
    "diplomacy_desktop.gui.table.dialogs.draw_vote",
    "diplomacy_desktop.gui.table.dialogs.game_over",
    "diplomacy_desktop.gui.table.seating",
    "diplomacy_desktop.gui.table.pin_change",
    # private notes and Formal Diplomacy's declaration sheets: when first opened
    # the loupe (View ▸ Loupe), the typed orders' reader, the build phase's forfeits (rules XIII.2)
    "diplomacy_desktop.gui.board.loupe",
    "diplomacy_desktop.io.typed_orders",
    "diplomacy_desktop.engine.forfeits",
    "diplomacy_desktop.gui.table.notes",
    "diplomacy_desktop.gui.table.declarations",
    # the tournament: its dialogs, its printed pages (PDF), its rules, results and scores
    "diplomacy_desktop.gui.table.tournament_dialogs",
    "diplomacy_desktop.gui.table.tournament_pages",
    "diplomacy_desktop.table.event",
    "diplomacy_desktop.table.results",
    "diplomacy_desktop.table.scoring",
    "diplomacy_desktop.table.pieces",
    # the autosave's database (SQLite's library): when a game is first autosaved or resumed
    "_sqlite3",
    "sqlite3.dbapi2",
    # exports and printing (PDF)
    "diplomacy_desktop.gui.board.export",
    # teaching: the sandbox, step-through, the lesson library, the engine's explanations
    "diplomacy_desktop.gui.teach.sandbox",
    "diplomacy_desktop.gui.teach.step_through",
    "diplomacy_desktop.gui.teach.lessons_panel",
    "diplomacy_desktop.gui.teach.setup_palette",
    "diplomacy_desktop.engine.explain",
    # a power's review before sealing (its dialog and the table's notes and warnings): when a power first seals
    "diplomacy_desktop.gui.table.hotseat.review",
    "diplomacy_desktop.table.review",
    "diplomacy_desktop.table.seal_review",
    # the table's settings as the New Game dialog fills them (table/settings.py) and the outcome's
    # wording of a file that cannot be opened (io/output.py): when first needed
    "diplomacy_desktop.table.settings",
    "diplomacy_desktop.io.output",
    # the tournament's piece pusher's list on the projector (beside the map, or the map hidden)
    "diplomacy_desktop.gui.table.pieces_wall",
    # the computer players: when a computer seat first plays (issue 33; 1.12x the cold start)
    "diplomacy_desktop.bots",
    "diplomacy_desktop.bots.player",
    # ... and its worker thread (concurrent.futures): made when the computer is first asked
    "concurrent.futures",
    "concurrent.futures.thread",
)

#: what the start does need (so the check above is made on a window that really started)
AT_START = (
    "diplomacy_desktop.gui.main_window",
    "diplomacy_desktop.gui.table.features.mode",
    "diplomacy_desktop.gui.table.hotseat.flow",
    "diplomacy_desktop.gui.table.tournament",
    "diplomacy_desktop.gui.teach.explanations",
)

START = r"""
import json, os, sys
from diplomacy_desktop.gui.app import make_application
app = make_application()
from PySide6.QtCore import QEvent, QObject, QSettings, QTimer
from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.gui.main_window import MainWindow
from diplomacy_desktop.gui.table.features import install_table_features
window = MainWindow(GameController(), settings=QSettings(os.environ["START_SETTINGS"], QSettings.Format.IniFormat))
install_table_features(window)
window.ask_before_closing = False
drawn = []

class Painted(QObject):
    def eventFilter(self, obj, event):
        if event.type() == QEvent.Type.Paint and not drawn:
            drawn.append(True)
            QTimer.singleShot(0, app.quit)  # the paint event is handled, then the list is made
        return False

painted = Painted()
window.view.viewport().installEventFilter(painted)
QTimer.singleShot(60000, app.quit)
window.show()
app.exec()
print(json.dumps({"drawn": bool(drawn), "modules": sorted(sys.modules)}))
"""


def _start(script: str, tmp_path: Path) -> dict[str, Any]:
    """Run a start ``script`` in a new process, offscreen, with its settings and the user's
    folders in ``tmp_path``; the report it printed last."""
    env = dict(os.environ)
    env.update(QT_QPA_PLATFORM="offscreen", START_SETTINGS=str(tmp_path / "settings.ini"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, "-c", script], env=env, cwd=str(ROOT), capture_output=True, text=True,
                          timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    report: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return report


def test_start_imports_no_dialog_phone_tournament_or_teaching_module(tmp_path: Path) -> None:
    for name in NOT_AT_START:  # a module renamed away would make the check pass by itself
        if name.startswith("diplomacy_desktop."):
            assert importlib.util.find_spec(name) is not None, f"{name} no longer exists: update this list"
    report = _start(START, tmp_path)
    assert report["drawn"], "the map was never painted"
    modules = set(report["modules"])
    assert [m for m in AT_START if m not in modules] == []
    loaded = [m for m in NOT_AT_START if m in modules]
    assert loaded == [], (f"imported at start (before the user asked for them): {loaded}; "
                          "`python -X importtime` on the start shows who imports them")


#: the same start, reporting the garbage collector: paused from the application's creation until
#: the map's first frame, then back on with what the start made frozen out of later collections
START_GC = START.replace(
    "app = make_application()\n",
    "import gc\n"
    "collections = []\n"
    "gc.callbacks.append(lambda phase, info: collections.append(info['generation']) if phase == 'start' else None)\n"
    "app = make_application()\n"
    "paused = not gc.isenabled()\n",
).replace(
    "            drawn.append(True)\n            QTimer.singleShot(0, app.quit)",
    "            drawn.append((len(collections), gc.isenabled()))\n"
    "            QTimer.singleShot(200, app.quit)",
).replace(
    'print(json.dumps({"drawn": bool(drawn), "modules": sorted(sys.modules)}))',
    'print(json.dumps({"paused": paused, "drawn": drawn, "after": [gc.isenabled(), gc.get_freeze_count()],'
    ' "collections": len(collections)}))',
)


def test_start_pauses_garbage_collection_until_the_first_frame(tmp_path: Path) -> None:
    """Starting makes some 40,000 long-lived objects; the collector, examining them again and
    again, was a fifth of what the window's start cost on top of Python and Qt."""
    assert START_GC != START and "gc.get_freeze_count()" in START_GC
    report = _start(START_GC, tmp_path)
    assert report["paused"]  # from the application's creation
    [(collected_by_the_frame, enabled_at_the_frame)] = report["drawn"]
    assert not enabled_at_the_frame and collected_by_the_frame == 0  # none while the window was built
    enabled, frozen = report["after"]
    assert enabled and frozen > 10_000  # back on after the frame, the start's objects set aside
    assert report["collections"] >= 1  # what the start left was collected once


def test_start_a_second_application_or_a_collector_turned_off_is_left_alone(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import gc

    from diplomacy_desktop.gui import startup

    monkeypatch.setattr(startup, "_paused", False)
    was = gc.isenabled()
    try:
        gc.disable()
        startup.pause()  # someone else turned it off: not ours to turn on again
        assert not startup.paused()
        startup.resume()
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


#: the same start, reporting which source files were read and what PySide noted of two modules
START_SOURCES = START.replace(
    'print(json.dumps({"drawn": bool(drawn), "modules": sorted(sys.modules)}))',
    "import linecache\n"
    "noted = sys.modules['shibokensupport.feature'].pyside_feature_dict\n"
    'print(json.dumps({"drawn": bool(drawn), "read": sorted(f for f in linecache.cache if "diplomacy_desktop" in f),'
    ' "noted": [noted.get("diplomacy_desktop.gui.board.map_scene"), noted.get("diplomacy_desktop.engine.movement")]}))',
)


def test_start_reads_no_module_source_for_pyside(tmp_path: Path) -> None:
    """PySide asks, of every module imported after Qt, whether it uses PySide, and answered by
    reading the module's whole source file: 8 ms of the start's processor time for some 150
    modules (gui/startup.py).  The window answers from the module's names instead."""
    assert START_SOURCES != START
    report = _start(START_SOURCES, tmp_path)
    assert report["drawn"]
    # only what is imported with Qt, before the application exists (the window's command)
    before_the_application = ("diplomacy_desktop/__init__.py", "gui/__init__.py", "gui/app.py", "resources.py")
    assert [f for f in report["read"] if not f.endswith(before_the_application)] == []
    assert report["noted"] == [0, -1]  # the map's scene uses PySide, the adjudicator does not


def test_pyside_is_answered_from_a_module_s_names(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.gui import startup

    (tmp_path / "uses_qt.py").write_text("from PySide6.QtCore import QObject\n")
    (tmp_path / "uses_module.py").write_text("from PySide6 import QtGui\n")
    (tmp_path / "uses_package.py").write_text("import PySide6\n")
    (tmp_path / "plain.py").write_text("import json\nNAME = 'PySide6 in a string only'\n")
    (tmp_path / "lazy.py").write_text(
        "import importlib.util, sys\n"
        "spec = importlib.util.find_spec('plain')\n"
        "spec.loader = importlib.util.LazyLoader(spec.loader)\n"
        "later = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(later)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import importlib

    modules = {name: importlib.import_module(name) for name in ("uses_qt", "uses_module", "uses_package", "plain",
                                                                "lazy")}
    try:
        assert startup._holds_pyside(modules["uses_qt"]) and startup._holds_pyside(modules["uses_module"])
        assert startup._holds_pyside(modules["uses_package"])
        assert not startup._holds_pyside(modules["plain"])
        assert not startup._holds_pyside(modules["lazy"])
        assert type(modules["lazy"].later).__name__ == "_LazyModule"  # asking did not load a lazy module
        assert startup.answer_imports_without_source()
        assert sys.modules["shibokensupport.feature"]._mod_uses_pyside is startup._holds_pyside
    finally:
        for name in modules:
            sys.modules.pop(name, None)


#: the same start, reporting whether the table's file-dialog guard watched the application's events
#: (an application-wide event filter) as the window was shown and once the event loop turned
START_GUARD = START.replace("install_table_features(window)\n", "features = install_table_features(window)\n").replace(
    "window.show()\n", "window.show()\nshown = features.file_dialog_guard.watching\n").replace(
    "            drawn.append(True)\n            QTimer.singleShot(0, app.quit)",
    "            drawn.append(features.file_dialog_guard.watching)\n"
    "            QTimer.singleShot(100, app.quit)",
).replace(
    'print(json.dumps({"drawn": bool(drawn), "modules": sorted(sys.modules)}))',
    'print(json.dumps({"drawn": drawn, "shown": shown, "after": features.file_dialog_guard.watching}))',
)


def test_start_the_file_dialog_guard_filters_no_event_while_the_window_is_made_and_shown(tmp_path: Path) -> None:
    """While an application-wide event filter is installed, an event of an object of a class PySide
    has not loaded yet makes PySide load all its classes: installed before the first frame, the
    table's file-dialog guard (gui/table/file_dialogs.py) cost the start some 12 ms, most of it as the
    window was shown; installed at the event loop's first turn, some 4 ms more (the turn comes before
    the first frame): it watches once the first frame is drawn."""
    assert START_GUARD != START and "file_dialog_guard.watching" in START_GUARD
    report = _start(START_GUARD, tmp_path)
    assert report["drawn"] == [False]  # the first frame was drawn unfiltered
    assert report["shown"] is False  # the window was shown unfiltered
    assert report["after"] is True  # watching once the first frame is drawn
