"""The window hosts a mode: its game and phase actions, the results panel's undo and the end of the
game go through the mode's hooks, and the mode decides who may order what."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from PySide6.QtGui import QAction

from diplomacy_desktop.engine.game import GameEnd
from diplomacy_desktop.gui.main_window import MainWindow
from diplomacy_desktop.gui.mode import WindowMode

GUI = Path(__file__).resolve().parents[2] / "diplomacy_desktop" / "gui"


class RecordingMode(WindowMode):
    title = "Recording"

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.calls: list[str] = []
        self.extra = QAction("Step through", window)

    def may_order(self, power: str) -> bool:
        return power != "turkey"

    def phase_actions(self) -> list[QAction]:
        return [self.extra]

    def new_game(self) -> None:
        self.calls.append("new_game")

    def open_dialog(self) -> None:
        self.calls.append("open_dialog")

    def save(self) -> None:
        self.calls.append("save")

    def save_as(self) -> None:
        self.calls.append("save_as")

    def export_picture(self) -> None:
        self.calls.append("export_picture")

    def adjudicate(self) -> None:
        self.calls.append("adjudicate")

    def undo_adjudication(self) -> None:
        self.calls.append("undo_adjudication")

    def game_ended(self, end: GameEnd) -> None:
        self.calls.append("game_ended")

    def detach(self) -> None:
        self.calls.append("detach")


def test_mode_window_actions_go_through_the_mode(table) -> None:  # type: ignore[no-untyped-def]
    w = table.window
    mode = RecordingMode(w)
    w.set_mode(mode)
    for act in (w.act_new, w.act_open, w.act_save, w.act_save_as, w.act_export, w.act_adjudicate, w.act_undo_adj):
        act.trigger()
    w.results_dock.undo_adjudication_requested.emit()
    w.controller.game_ended.emit(GameEnd("victory", ("france",), "France wins"))
    assert mode.calls == ["new_game", "open_dialog", "save", "save_as", "export_picture", "adjudicate",
                          "undo_adjudication", "undo_adjudication", "game_ended"]
    assert w.controller.state.phase.year == 1901  # nothing was adjudicated behind the mode's back


def test_mode_decides_who_may_order(table) -> None:  # type: ignore[no-untyped-def]
    w = table.window
    assert w.controller.can_order("turkey")
    w.set_mode(RecordingMode(w))
    assert not w.controller.can_order("turkey") and w.controller.can_order("russia")
    assert "cannot be given orders here" in (w.controller.order_refusal("turkey") or "")
    table.click_unit("con")  # a Turkish army: clicking it starts no order
    table.click("bul")
    assert table.orders("turkey") == set()
    table.click_unit("war")  # a Russian one does
    table.click("gal")
    assert table.orders("russia") == {"A War - Gal"}


def test_mode_phase_menu_offers_the_modes_actions_and_a_new_mode_takes_them_away(table) -> None:  # type: ignore[no-untyped-def]
    w = table.window
    first = RecordingMode(w)
    w.set_mode(first)
    assert first.extra in w.phase_menu.actions()
    second = RecordingMode(w)
    w.set_mode(second)
    assert first.calls == ["detach"]
    assert first.extra not in w.phase_menu.actions() and second.extra in w.phase_menu.actions()
    w.set_mode(WindowMode(w))
    assert second.extra not in w.phase_menu.actions()
    assert w.controller.can_order("turkey")


def test_mode_no_module_reconnects_another_modules_signals() -> None:
    """A mode is called through hooks: nothing in gui/ disconnects a signal to take it over."""
    offenders = []
    for path in GUI.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "disconnect":
                target = ast.unparse(node.func.value)
                if not target.startswith(("self.", "app.")) or "window" in target or "controller" in target:
                    offenders.append(f"{path.name}: {ast.unparse(node)}")
    assert offenders == []


@pytest.mark.parametrize("room", ["board", "orders", "table", "teach"])
def test_mode_gui_rooms_are_packages_with_a_one_line_docstring(room: str) -> None:
    doc = ast.get_docstring(ast.parse((GUI / room / "__init__.py").read_text(encoding="utf-8")))
    assert doc and "\n" not in doc.strip()
