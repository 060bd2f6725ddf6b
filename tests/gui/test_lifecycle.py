"""A game's life around the window: Discard on quit forgets it, a resumed game keeps its file
name, and "Write orders now" starts the writing clock."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox
from window_harness import Table, shared_geometry

from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.gui.main_window import MainWindow
from diplomacy_desktop.table.clock import IDLE, RUNNING
from diplomacy_desktop.gui.table.features import TableFeatures, install_table_features
from diplomacy_desktop.gui.table.persistence import Autosave


def _features(window: MainWindow, data: Path) -> TableFeatures:
    return install_table_features(window, autosave=Autosave(data), rng=random.Random(5), review=lambda d: True,
                                  confirm=lambda *a: True, message=lambda *a: None)


def _answer(monkeypatch: pytest.MonkeyPatch, button: QMessageBox.StandardButton) -> list[str]:
    asked: list[str] = []

    def question(parent: object, title: str, text: str, *a: object, **k: object) -> QMessageBox.StandardButton:
        asked.append(title)
        return button

    monkeypatch.setattr(QMessageBox, "question", staticmethod(question))
    return asked


def _second_start(qtbot: object, table: Table, data: Path) -> tuple[MainWindow, TableFeatures]:
    """The app started again: a new controller and window, the same data folder and settings."""
    c2 = GameController()
    w2 = MainWindow(c2, geometry=shared_geometry(c2), settings=table.window.settings, sharpen=False)
    w2.ask_before_closing = False
    qtbot.addWidget(w2)  # type: ignore[attr-defined]
    return w2, _features(w2, data)


def test_lifecycle_discard_on_quit_leaves_no_autosave_to_resume(qtbot, table: Table, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    t = table
    data = tmp_path / "data"
    f = _features(t.window, data)
    f.toggle_secrecy()  # secrecy off: anyone orders
    t.move("par", "bur")
    f.autosaver.save_now()
    assert Autosave(data).info() is not None  # a crash now would offer it
    asked = _answer(monkeypatch, QMessageBox.StandardButton.Discard)
    t.window.ask_before_closing = True
    assert t.window.close()
    assert asked == ["Save the game?"]
    f.autosaver.flush()  # what quitting does next
    assert not Autosave(data).exists() and Autosave(data).info() is None
    _w2, f2 = _second_start(qtbot, t, data)
    f2.first_start()
    assert f2.resume_offer is None


def test_lifecycle_cancel_on_quit_keeps_the_game_and_its_autosave(table: Table, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    t = table
    data = tmp_path / "data"
    f = _features(t.window, data)
    f.toggle_secrecy()
    t.move("par", "bur")
    f.autosaver.save_now()
    _answer(monkeypatch, QMessageBox.StandardButton.Cancel)
    t.window.ask_before_closing = True
    assert not t.window.close()
    assert t.window.isVisible() and Autosave(data).info() is not None and f.autosaver.enabled
    t.window.ask_before_closing = False


def test_lifecycle_resumed_game_keeps_its_file_name_and_ctrl_s_saves_there(qtbot, table: Table,  # type: ignore[no-untyped-def]
                                                                         tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    t = table
    data = tmp_path / "data"
    f = _features(t.window, data)
    f.toggle_secrecy()
    game_file = tmp_path / "games" / "friday.json"
    game_file.parent.mkdir()
    assert t.window._save_to(game_file)
    t.move("par", "bur")  # a change after saving, then the crash
    f.autosaver.save_now()
    assert Autosave(data).origin() == game_file.resolve()

    w2, f2 = _second_start(qtbot, t, data)
    f2.first_start()
    assert f2.resume_offer is not None
    f2.resume_offer.resume_button.click()
    assert w2.controller.path == game_file.resolve()
    assert "friday.json" in w2.windowTitle()

    def no_dialog(*a: object, **k: object) -> tuple[str, str]:
        raise AssertionError("Ctrl+S asked for a file name")

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(no_dialog))
    w2.show()
    with qtbot.waitActive(w2):
        w2.activateWindow()
    w2.view.setFocus()
    qtbot.keyClick(w2.view, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert not w2.controller.modified
    from diplomacy_desktop.io.savefile import load_game

    saved, _table = load_game(game_file)
    assert [o for o in saved.orders_of("france")] == w2.controller.game.orders_of("france") != []
    w2.close()


def test_lifecycle_saving_tells_the_autosave_the_file_at_once(qtbot, table: Table, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    t = table
    data = tmp_path / "data"
    f = _features(t.window, data)
    f.toggle_secrecy()
    t.move("par", "bur")
    f.autosaver.save_now()
    assert Autosave(data).origin() is None
    assert t.window._save_to(tmp_path / "saved.json")  # and then the plug is pulled: no other change
    assert Autosave(data).origin() == (tmp_path / "saved.json").resolve()
    w2, f2 = _second_start(qtbot, t, data)
    f2.first_start()
    assert f2.resume_offer is not None
    f2.resume_offer.resume_button.click()
    assert w2.controller.path == (tmp_path / "saved.json").resolve()


def test_lifecycle_a_new_game_forgets_the_file_of_the_last_one(table: Table, tmp_path: Path) -> None:
    t = table
    data = tmp_path / "data"
    f = _features(t.window, data)
    assert t.window._save_to(tmp_path / "old.json")
    f.autosaver.save_now()
    assert Autosave(data).origin() is not None
    f.start_new_game()
    assert Autosave(data).origin() is None


def test_lifecycle_write_orders_now_starts_the_writing_clock(table: Table, tmp_path: Path) -> None:
    f = _features(table.window, tmp_path / "data")
    clock = f.clock
    assert clock.model.status == IDLE and clock.model.period is not None and clock.model.period.kind == "diplomacy"
    assert clock.skip_button.text() == "Write orders now"
    clock.skip_button.click()  # the talks were never timed: the table goes straight to writing
    assert clock.model.period is not None and clock.model.period.kind == "writing"
    assert clock.model.status == RUNNING
    assert "Press Start" not in clock.note.text()
    assert f.flow.curtain_up  # secrecy on: the laptop goes round, the clock counts on the curtain
    clock.tick()
    assert "write orders" in f.flow.curtain.clock_label.text()


@pytest.mark.parametrize("how", ["F6", "strip"])
def test_lifecycle_f6_and_the_write_button_start_the_writing_clock(table: Table, tmp_path: Path, how: str) -> None:
    """F6 (Table > Write orders) and the status strip's "Write orders" left the clock on the
    talks' 15:00, "Press Start": the writing time was never counted (found under Xvfb)."""
    f = _features(table.window, tmp_path / "data")
    clock = f.clock
    assert clock.model.status == IDLE and clock.model.period is not None and clock.model.period.kind == "diplomacy"
    if how == "F6":
        f.act_write.trigger()
    else:
        f.strip.write_button.click()
    assert f.flow.curtain_up
    assert clock.model.period is not None and clock.model.period.kind == "writing"
    assert clock.model.status == RUNNING
    assert "Press Start" not in clock.note.text()
    clock.tick()
    assert "write orders" in f.flow.curtain.clock_label.text()


def test_lifecycle_f6_with_no_writing_time_leaves_the_clock_alone(table: Table, tmp_path: Path) -> None:
    f = _features(table.window, tmp_path / "data")
    f.clock.model.periods = f.clock.model.periods[:1]  # the talks only, no writing period
    f.act_write.trigger()
    assert f.flow.curtain_up
    assert f.clock.model.status == IDLE and f.clock.model.period is not None and f.clock.model.period.kind == "diplomacy"


def test_lifecycle_write_orders_now_after_a_pause_starts_the_writing_clock(table: Table, tmp_path: Path) -> None:
    f = _features(table.window, tmp_path / "data")
    clock = f.clock
    clock.start_button.click()
    clock.start_button.click()  # paused during the talks
    clock.skip_button.click()
    assert clock.model.period is not None and clock.model.period.kind == "writing"
    assert clock.model.status == RUNNING
