"""The main window's conventions: remembered layout, clear messages for bad files, shortcuts."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMessageBox
from window_harness import Table, shared_geometry

from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.gui.main_window import MainWindow


def test_window_geometry_is_remembered(qtbot: object, settings: QSettings) -> None:
    c = GameController()
    w = MainWindow(c, geometry=shared_geometry(c), settings=settings, sharpen=False)
    w.ask_before_closing = False
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.resize(777, 530)  # the offscreen screen is 800 x 600
    w.show()
    w.close()
    assert settings.contains("window/geometry") and settings.contains("window/state")
    c2 = GameController()
    w2 = MainWindow(c2, geometry=shared_geometry(c2), settings=settings, sharpen=False)
    w2.ask_before_closing = False
    qtbot.addWidget(w2)  # type: ignore[attr-defined]
    assert (w2.width(), w2.height()) == (777, 530)


def test_a_broken_file_gives_a_message_and_changes_nothing(table: Table, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    t = table
    t.move("par", "bur")
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, title, text, *a: shown.append(text)))
    bad = tmp_path / "bad.json"
    bad.write_text("this is not a game", encoding="utf-8")
    assert not t.window.open_file(bad)
    assert shown and "bad.json" in shown[0] and "Traceback" not in shown[0]
    assert t.orders("france") == {"A Par - Bur"}  # the game at the table is untouched


def test_save_and_reopen_through_the_window(table: Table, tmp_path: Path) -> None:
    t = table
    t.move("par", "bur")
    t.adjudicate()
    path = tmp_path / "game.json"
    assert t.window._save_to(path)
    assert not t.controller.modified
    assert "game.json" in t.window.windowTitle()
    before = t.controller.game.state
    t.controller.new_game()
    assert t.window.open_file(path)
    assert t.controller.game.state == before
    assert len(t.controller.game.history) == 1


def test_zoom_keys_and_fit(table: Table) -> None:
    from PySide6.QtCore import Qt

    view = table.window.view
    view.setFocus()
    start = view.zoom
    # issue 17: zoom is Ctrl+plus / Ctrl+minus / Ctrl+0 (plain keys type an order)
    ctrl = Qt.KeyboardModifier.ControlModifier
    table.qtbot.keyClick(view, Qt.Key.Key_Plus, ctrl)
    assert view.zoom > start * 1.2
    table.qtbot.keyClick(view, Qt.Key.Key_Minus, ctrl)
    table.qtbot.keyClick(view, Qt.Key.Key_0, ctrl)
    assert abs(view.zoom - 1.0) < 1e-6


def test_deferred_geometry_agrees_with_the_map_data(qapp: object) -> None:
    from diplomacy_desktop.gui.main_window import deferred_geometry, load_geometry

    c = GameController()
    quick, full = deferred_geometry(c), load_geometry(c)
    assert quick.view_box == full.view_box
    assert quick.centre_ids == full.centre_ids
    for loc in c.board.locations():
        qx, qy = quick.unit_anchor(loc)
        fx, fy = full.unit_anchor(loc)
        assert abs(qx - fx) < 0.01 and abs(qy - fy) < 0.01, loc
    for sid in full.centre_ids:
        assert quick.centre_point(sid) == pytest.approx(full.centre_point(sid), abs=0.01)
    assert not quick.loaded
    assert quick.space_at(*full.label_point("par")) == "par"  # hit-testing loads the rest
    assert quick.loaded


def test_the_window_starts_without_shapely() -> None:
    """Start-up speed: the first picture must not wait for Shapely and NumPy."""
    import subprocess
    import sys

    code = ("import sys; import diplomacy_desktop.gui.main_window, diplomacy_desktop.gui.app; "
            "print('shapely' in sys.modules, 'numpy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_no_stray_tab_bar_is_left_over_the_map(qtbot: object, settings: QSettings) -> None:
    """Qt keeps copies of the tabbed panels' tab bars where the map is (they were repainted at
    every click); once shown, the window's only tab bars are those beside their panels."""
    from PySide6.QtWidgets import QTabBar

    c = GameController()
    w = MainWindow(c, geometry=shared_geometry(c), settings=settings, sharpen=False)
    w.ask_before_closing = False
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    w.show()

    def shown() -> list[QTabBar]:
        return [bar for bar in w.findChildren(QTabBar) if bar.parent() is w and bar.isVisible()]

    qtbot.waitUntil(lambda: len(shown()) == 2, timeout=3000)  # type: ignore[attr-defined]
    tabs = sorted(tuple(bar.tabText(i).split(" ")[0] for i in range(bar.count())) for bar in shown())
    assert tabs == [("Orders", "Results"), ("Supply", "Why?")]  # one bar per group of tabbed panels
    assert w.hide_stray_tab_bars() == []
    w.explanations.raise_()  # the panels' own tab bars still switch panels
    assert not w.explanations.visibleRegion().isEmpty()
