"""Issue 34, finding 6: nothing cut off on a 1366x768 laptop with a 32 px title bar and a 40 px
taskbar (1366x696 for a window's content).  The window is walked in the states the table saw cut:
the seven power tabs, the supply centres' title in an adjustment phase, "Why?", the out-of-turn
warning on the table's strip, a Spring's 22 results, and New Game (its Start row on the screen)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QApplication, QTabBar, QTextBrowser

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from widget_fit import cut_off
from window_harness import SPRING_1901_EVERY_UNIT

from diplomacy_desktop.io.notation import parse_order

#: the screen a window's content may use: 768 lines less a 40 px taskbar, below a 32 px title bar
TITLE, TASKBAR = 32, 40
SCREEN = QRect(0, 0, 1366, 768 - TASKBAR)
CONTENT = QRect(0, TITLE, 1366, 768 - TASKBAR - TITLE)


def _settle() -> None:
    for _ in range(4):
        QApplication.processEvents()


def _on_a_laptop(window: Any) -> QRect:
    """The window's content at 1366x696; the screen's part it may use (where the platform put it:
    the offscreen platform adds no title bar, and may move it by a frame's width)."""
    window.showNormal()
    window.setGeometry(CONTENT)
    _settle()
    window.view.fit_to_window()
    _settle()
    return QRect(window.mapToGlobal(window.rect().topLeft()), CONTENT.size())


def _play(c: Any, orders: dict[str, list[str]]) -> None:
    for power, lines in orders.items():
        for line in lines:
            c.set_order(parse_order(line, power, c.state))
    c.adjudicate()
    c.view_phase(None)


def test_the_window_cuts_nothing_off_at_1366_by_768_with_title_bar_and_taskbar(table: Any) -> None:
    w = table.window
    content = _on_a_laptop(w)
    assert w.width() == CONTENT.width() and w.height() == CONTENT.height()
    # the Orders panel: every power's tab whole, the panels' titles whole
    assert cut_off(w, content) == []
    # one tab bar per group of tabbed panels: no copy left over the status bar
    _settle()
    bars = [bar for bar in w.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
            if bar.isVisible()]
    assert len(bars) == 2, [bar.geometry() for bar in bars]
    tabs = w.order_dock.tabs
    assert tabs.count() == 7
    # Spring 1901 with an order for every unit: its results fill the Results panel, most in sight
    c = table.controller
    _play(c, SPRING_1901_EVERY_UNIT)
    w.results_dock.show()
    w.results_dock.raise_()
    c.view_phase(0)
    _settle()
    assert cut_off(w, content) == []
    results = w.results_dock.findChild(QTextBrowser)
    assert results is not None
    lines = results.viewport().height() // results.fontMetrics().lineSpacing()
    assert lines >= 15, lines
    # "Why?" raised
    c.view_phase(None)
    w.explanations.show()
    w.explanations.raise_()
    _settle()
    assert cut_off(w, content) == []
    # the winter's adjustments: the supply centres' title says so, whole
    assert "ser" in c.state.units  # (A Bud - Ser)
    _play(c, {"austria": ["A ser H"]})  # Fall 1901: Serbia is Austria's, a build to come
    _settle()
    assert c.state.phase.label.startswith("Winter 1901")
    w.centres_dock.raise_()
    _settle()
    assert "adjustments" in w.centres_dock.heading_text()
    assert cut_off(w, content) == []


def test_the_table_strip_warning_is_whole_at_1366_by_768(table: Any, features: Any, host: Any) -> None:
    from test_secrecy import start
    from test_secrecy_curious import not_next
    from host_stand_in import HOST_PIN

    w = table.window
    content = _on_a_laptop(w)
    f = features
    start(f)
    f.act_write.trigger()  # the talks end: the curtain calls the first writer
    other = not_next(f)
    curtain = f.flow.curtain
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData(other))
    host.typed = HOST_PIN
    curtain.other_button.click()
    _settle()
    name = table.controller.power_name(other)
    assert f.strip.notice.isVisible() and f"{name} was opened out of turn by the host" in f.strip.notice.text()
    assert cut_off(w, content) == []


def test_new_game_fits_the_laptop_with_its_start_row_in_sight(table: Any, features: Any,
                                                              monkeypatch: Any) -> None:
    from diplomacy_desktop.gui.table.dialogs import new_game

    monkeypatch.setattr(new_game, "screen_room", lambda _widget: SCREEN)
    dialog = new_game.NewGameDialog(table.controller.board, parent=table.window)
    dialog.show()
    _settle()
    dialog.move(SCREEN.left(), SCREEN.top() + TITLE)  # under its title bar, where a window manager puts it
    _settle()
    assert dialog.height() + TITLE <= SCREEN.height(), dialog.height()
    assert cut_off(dialog, CONTENT) == []
    start_button = dialog.start_button
    bottom = start_button.mapToGlobal(start_button.rect().bottomLeft()).y()
    assert start_button.isVisible() and bottom <= CONTENT.bottom()
    dialog.reject()
