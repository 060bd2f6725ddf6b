"""Fixtures for the GUI tests: a real main window, offscreen, clicked at map coordinates."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from window_harness import TWO_CASES, FakeTime, Table, shared_geometry

from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.gui.main_window import MainWindow


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def always_yes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Answer Yes to every question box (the adjudicate-with-missing-orders prompt)."""
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *a, **k: QMessageBox.StandardButton.Yes))


@pytest.fixture
def table(qtbot: object, settings: QSettings, always_yes: None) -> Iterator[Table]:
    controller = GameController()
    window = MainWindow(controller, geometry=shared_geometry(controller), settings=settings, sharpen=False)
    window.ask_before_closing = False
    window.interaction.popup_menus = False
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    with qtbot.waitActive(window):  # type: ignore[attr-defined]  # window shortcuts need an active window
        window.activateWindow()
    window.view.setFocus()
    window.view.fit_to_window()
    yield Table(qtbot, window)
    window.close()


@pytest.fixture(autouse=True)
def _collect_garbage_while_qt_lives() -> Iterator[None]:
    yield
    import gc

    gc.collect()


@pytest.fixture
def scenario(tmp_path: Path) -> Path:
    """A scenario file of two cases (a bounce and a dislodgement; a convoy), for render and export."""
    path = tmp_path / "cases.txt"
    path.write_text(TWO_CASES, encoding="utf-8")
    return path


@pytest.fixture
def fake() -> FakeTime:
    return FakeTime()


@pytest.fixture
def table_features(table: Table, tmp_path: Path) -> Iterator[object]:
    """The table game on the test window, as the table tests set it up (one shared recipe): a
    seeded draw, reviews that seal, questions answered yes, the host PIN ``"4321"`` typed when
    asked, an autosave in ``tmp_path``; hosting is turned off afterwards."""
    import random

    from diplomacy_desktop.gui.table.features import install_table_features
    from diplomacy_desktop.gui.table.persistence import Autosave

    f = install_table_features(table.window, autosave=Autosave(tmp_path / "data"), rng=random.Random(1901),
                               review=lambda d: True, confirm=lambda *a: True, host_prompt=lambda *a: "4321",
                               message=lambda *a: None)
    yield f
    f.turn_off()
