"""The keys people use, sent as key events to whatever has focus: undo and redo, the history
keys, and no key sequence claimed twice (Qt then fires neither: "Ambiguous shortcut overload")."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget
from window_harness import Table

from diplomacy_desktop.gui.table.features import install_table_features
from diplomacy_desktop.gui.table.persistence import Autosave

CTRL = Qt.KeyboardModifier.ControlModifier
SHIFT = Qt.KeyboardModifier.ShiftModifier


def _shortcut_owners(window: QWidget) -> Counter[str]:
    seen: Counter[str] = Counter()
    for action in window.findChildren(QAction):
        for seq in action.shortcuts():
            seen[seq.toString(QKeySequence.SequenceFormat.PortableText)] += 1
    return seen


def test_main_window_no_two_actions_share_a_key_sequence(table: Table, tmp_path: Path) -> None:
    install_table_features(table.window, autosave=Autosave(tmp_path / "data"), message=lambda *a: None)
    seen = _shortcut_owners(table.window)
    assert seen["Ctrl+Z"] == 1 and seen["Ctrl+Shift+Z"] == 1 and seen["Ctrl+Y"] == 1
    assert {k: n for k, n in seen.items() if n > 1} == {}


def test_main_window_redo_action_has_both_keys_once(table: Table) -> None:
    keys = [k.toString(QKeySequence.SequenceFormat.PortableText) for k in table.window.act_redo.shortcuts()]
    assert "Ctrl+Shift+Z" in keys and "Ctrl+Y" in keys
    assert len(keys) == len(set(keys))


def _two_orders(t: Table) -> None:
    t.move("par", "bur")
    t.move("mun", "ruh")
    assert t.orders("france") == {"A Par - Bur"} and t.orders("germany") == {"A Mun - Ruh"}


def test_main_window_ctrl_z_undoes_and_ctrl_shift_z_and_ctrl_y_redo_by_key_events(table: Table) -> None:
    t = table
    _two_orders(t)
    t.key(Qt.Key.Key_Z, CTRL)
    assert t.orders("germany") == set()
    t.key(Qt.Key.Key_Z, CTRL)
    assert t.orders("france") == set()
    t.key(Qt.Key.Key_Z, CTRL | SHIFT)
    assert t.orders("france") == {"A Par - Bur"}
    t.key(Qt.Key.Key_Y, CTRL)
    assert t.orders("germany") == {"A Mun - Ruh"}


def test_order_box_ctrl_z_undoes_the_order_edit_not_the_text(table: Table) -> None:
    t = table
    dock = t.window.order_dock
    dock.show_power("france")
    t.key(Qt.Key.Key_L, CTRL)
    assert dock.entry.hasFocus()
    t.qtbot.keyClicks(dock.entry, "A Par - Bur")
    t.qtbot.keyClick(dock.entry, Qt.Key.Key_Return)
    assert t.orders("france") == {"A Par - Bur"}
    t.qtbot.keyClicks(dock.entry, "A Mar H")  # half-way through the next order
    t.qtbot.keyClick(dock.entry, Qt.Key.Key_Z, CTRL)
    assert t.orders("france") == set()  # the order edit was undone
    assert dock.entry.text() == "A Mar H"  # the text being typed is left alone
    t.qtbot.keyClick(dock.entry, Qt.Key.Key_Z, CTRL | SHIFT)
    assert t.orders("france") == {"A Par - Bur"}
    t.qtbot.keyClick(dock.entry, Qt.Key.Key_Z, CTRL)
    t.qtbot.keyClick(dock.entry, Qt.Key.Key_Y, CTRL)
    assert t.orders("france") == {"A Par - Bur"}


def _two_phases(t: Table) -> None:
    t.move("par", "bur")
    t.adjudicate()
    t.key(Qt.Key.Key_End)
    t.move("bur", "mun")
    t.adjudicate()
    t.key(Qt.Key.Key_End)
    assert len(t.controller.game.history) == 2 and t.controller.viewing is None


def _press(t: Table, widget: QWidget, key: Qt.Key) -> None:
    widget.setFocus()
    assert widget.hasFocus(), widget
    t.qtbot.keyClick(widget, key)


def test_history_keys_work_with_the_results_list_focused(table: Table) -> None:
    t = table
    c = t.controller
    _two_phases(t)
    dock = t.window.results_dock
    dock.show()
    dock.raise_()
    for widget in (dock.results, dock.phases):
        _press(t, widget, Qt.Key.Key_PageUp)
        assert c.viewing == 1, widget
        _press(t, widget, Qt.Key.Key_PageUp)
        assert c.viewing == 0, widget
        _press(t, widget, Qt.Key.Key_PageDown)
        assert c.viewing == 1, widget
        _press(t, widget, Qt.Key.Key_End)
        assert c.viewing is None, widget


def test_history_keys_work_from_the_order_list_and_the_empty_order_box(table: Table) -> None:
    t = table
    c = t.controller
    _two_phases(t)
    dock = t.window.order_dock
    _press(t, dock.list, Qt.Key.Key_PageUp)
    assert c.viewing == 1
    _press(t, dock.list, Qt.Key.Key_End)
    assert c.viewing is None
    _press(t, dock.entry, Qt.Key.Key_PageUp)
    assert c.viewing == 1
    assert not dock.entry.isEnabled()  # no orders while an earlier phase is shown
    _press(t, t.window.results_dock.results, Qt.Key.Key_End)
    assert c.viewing is None
    _press(t, dock.entry, Qt.Key.Key_PageUp)
    _press(t, dock.list, Qt.Key.Key_PageDown)
    assert c.viewing is None
    dock.entry.setText("A Mun H")
    dock.entry.setCursorPosition(0)
    _press(t, dock.entry, Qt.Key.Key_End)  # with text in it, End moves the text cursor
    assert dock.entry.cursorPosition() == len("A Mun H") and c.viewing is None


def test_key_sequences_never_repeat_a_key_the_platform_also_binds(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # On X11 the platform's Redo is Ctrl+Shift+Z alone: written next to it, it was claimed
    # twice, and Ctrl+Y not at all.  The same bindings here, whatever platform runs the test.
    x11 = {QKeySequence.StandardKey.Redo: [QKeySequence("Ctrl+Shift+Z")],
           QKeySequence.StandardKey.Undo: [QKeySequence("Ctrl+Z")]}
    real = QKeySequence.keyBindings
    monkeypatch.setattr(QKeySequence, "keyBindings", staticmethod(lambda key: x11.get(key) or real(key)))
    from diplomacy_desktop.gui.keys import REDO_KEYS, UNDO_KEYS, key_sequences

    redo = [k.toString(QKeySequence.SequenceFormat.PortableText) for k in key_sequences(REDO_KEYS)]
    undo = [k.toString(QKeySequence.SequenceFormat.PortableText) for k in key_sequences(UNDO_KEYS)]
    assert redo == ["Ctrl+Shift+Z", "Ctrl+Y"]
    assert undo == ["Ctrl+Z"]


def test_main_window_under_x11_bindings_redo_works_by_both_keys(qtbot, settings, always_yes,  # type: ignore[no-untyped-def]
                                                                monkeypatch) -> None:
    from window_harness import shared_geometry

    from diplomacy_desktop.gui.controller import GameController
    from diplomacy_desktop.gui.main_window import MainWindow

    x11 = {QKeySequence.StandardKey.Redo: [QKeySequence("Ctrl+Shift+Z")]}
    real = QKeySequence.keyBindings
    monkeypatch.setattr(QKeySequence, "keyBindings", staticmethod(lambda key: x11.get(key) or real(key)))
    controller = GameController()
    window = MainWindow(controller, geometry=shared_geometry(controller), settings=settings, sharpen=False)
    window.ask_before_closing = False
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitActive(window):
        window.activateWindow()
    assert {k: n for k, n in _shortcut_owners(window).items() if n > 1} == {}
    t = Table(qtbot, window)
    window.view.setFocus()
    t.move("par", "bur")
    t.key(Qt.Key.Key_Z, CTRL)
    assert t.orders("france") == set()
    t.key(Qt.Key.Key_Z, CTRL | SHIFT)
    assert t.orders("france") == {"A Par - Bur"}
    t.key(Qt.Key.Key_Z, CTRL)
    t.key(Qt.Key.Key_Y, CTRL)
    assert t.orders("france") == {"A Par - Bur"}
    window.close()


def test_main_window_f5_is_the_projector_in_every_mode_and_f4_the_table_clock(table: Table, tmp_path: Path) -> None:
    w = table.window
    assert [k.toString() for k in w.projector.act.shortcuts()] == ["F5"]
    features = install_table_features(w, autosave=Autosave(tmp_path / "data"), message=lambda *a: None)
    seen = _shortcut_owners(w)
    assert seen["F5"] == 1 and seen["F4"] == 1 and seen["Shift+F4"] == 1 and seen["Ctrl+F4"] == 1
    assert [k.toString() for k in features.act_clock.shortcuts()] == ["F4"]
    table.key(Qt.Key.Key_F5)  # the table game is on: F5 is still the projector
    assert w.projector.active
    table.key(Qt.Key.Key_F5)
    assert not w.projector.active


def test_main_window_under_x11_bindings_ctrl_d_is_only_the_draw(qtbot, settings, always_yes, tmp_path,  # type: ignore[no-untyped-def]
                                                                 monkeypatch) -> None:
    """On X11 the platform's Delete is Del and Ctrl+D: Clear order took both, Ctrl+D was claimed
    twice ("Ambiguous shortcut overload: Ctrl+D") and Propose a draw never came by key (found
    under Xvfb with the xcb platform; offscreen binds Delete to Del alone)."""
    from window_harness import shared_geometry

    from diplomacy_desktop.gui.controller import GameController
    from diplomacy_desktop.gui.main_window import MainWindow

    x11 = {QKeySequence.StandardKey.Delete: [QKeySequence("Del"), QKeySequence("Ctrl+D")],
           QKeySequence.StandardKey.Redo: [QKeySequence("Ctrl+Shift+Z")]}
    real = QKeySequence.keyBindings
    monkeypatch.setattr(QKeySequence, "keyBindings", staticmethod(lambda key: x11.get(key) or real(key)))
    controller = GameController()
    window = MainWindow(controller, geometry=shared_geometry(controller), settings=settings, sharpen=False)
    window.ask_before_closing = False
    qtbot.addWidget(window)
    features = install_table_features(window, autosave=Autosave(tmp_path / "data"), message=lambda *a: None)
    assert {k: n for k, n in _shortcut_owners(window).items() if n > 1} == {}
    clear = [k.toString(QKeySequence.SequenceFormat.PortableText) for k in window.act_clear.shortcuts()]
    assert clear == ["Del", "Backspace"]
    draw = [k.toString(QKeySequence.SequenceFormat.PortableText) for k in features.act_draw.shortcuts()]
    assert draw == ["Ctrl+D"]


def test_history_keys_watch_the_focused_widget_only(table: Table) -> None:
    """Only the focused widget gets the keys' ShortcutOverride: only it is watched (every other
    widget's paints and layouts would pass through the filter too)."""
    w = table.window
    dock = w.order_dock
    _press(table, dock.list, Qt.Key.Key_Down)
    assert w.history_keys.watched is dock.list
    w.view.setFocus()
    assert w.view.hasFocus() and w.history_keys.watched is w.view
