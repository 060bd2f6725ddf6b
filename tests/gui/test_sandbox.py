"""The sandbox (gui/teach/sandbox.py) and the lesson library, driven through the real window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QMessageBox
from window_harness import Table, shared_geometry

from diplomacy_desktop.engine.board import ARMY, FLEET
from diplomacy_desktop.engine.rules import Edition
from diplomacy_desktop.engine.state import RETREAT, Phase, Unit
from diplomacy_desktop.gui.teach.lessons_panel import LessonLibrary, library, open_lesson
from diplomacy_desktop.gui.teach.sandbox import (
    EDITION_NAMES,
    SandboxMode,
    empty_state,
    open_phase_in_sandbox,
    open_sandbox_window,
)
from diplomacy_desktop.io.caserun import expectation_mismatches
from diplomacy_desktop.io.lessons import Lesson
from diplomacy_desktop.io.scenario import read_scenarios


def menu_action(menu: QMenu, *path: str) -> QAction:
    """The action reached through ``path`` (submenu titles, then the action's text)."""
    actions = menu.actions()
    exact = [a for a in actions if a.text() == path[0]]
    for act in exact or actions:
        if act.text().startswith(path[0]):
            if len(path) == 1:
                return act
            sub = act.menu()
            assert isinstance(sub, QMenu), f"{path[0]} is not a submenu"
            return menu_action(sub, *path[1:])
    raise AssertionError(f"no {path[0]!r} in {[a.text() for a in menu.actions()]}")


class Sandbox(Table):
    """A sandbox window and the clicks that set it up."""

    def __init__(self, qtbot: object, mode: SandboxMode) -> None:
        super().__init__(qtbot, mode.window)
        self.mode = mode

    def setup_click(self, space: str, *path: str) -> None:
        """Click ``space`` with set-up on, and choose ``path`` in the menu that comes up."""
        self.mode.last_menu = None
        self.click(space)
        menu = self.mode.last_menu
        assert menu is not None, f"no set-up menu for {space}"
        menu_action(menu, *path).trigger()

    def drag(self, province: str, destination: str) -> None:
        start = self.screen_point(self.window.scene.unit_items[province].pos())
        end = self.screen_point(self.point_of(destination))
        vp = self.window.view.viewport()
        self.qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=start)  # type: ignore[attr-defined]
        middle = (start + end) / 2
        self.qtbot.mouseMove(vp, middle)  # type: ignore[attr-defined]
        self.qtbot.mouseMove(vp, end)  # type: ignore[attr-defined]
        self.qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=end)  # type: ignore[attr-defined]

    def units(self) -> set[tuple[str, str, str]]:
        return {(u.power, u.kind, u.location) for u in self.controller.state.units.values()}


@pytest.fixture
def sandbox(table: Table, qtbot: object) -> Sandbox:
    mode = open_sandbox_window(table.window, state=empty_state(table.controller.board))
    window = mode.window
    assert window is not table.window
    window.resize(1280, 800)
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    with qtbot.waitActive(window):  # type: ignore[attr-defined]
        window.activateWindow()
    window.view.setFocus()
    window.view.fit_to_window()
    yield Sandbox(qtbot, mode)
    window.close()


def test_sandbox_setup_by_clicks_places_moves_and_removes(sandbox: Sandbox) -> None:
    sandbox.mode.set_setup(True)
    sandbox.setup_click("par", "Place France", "Army")
    sandbox.setup_click("bre", "Place France", "Fleet")
    sandbox.setup_click("spa", "Place England", "Fleet (south coast)")
    sandbox.setup_click("mun", "Place Germany", "Army")
    assert sandbox.units() == {("france", ARMY, "par"), ("france", FLEET, "bre"), ("england", FLEET, "spa/sc"),
                               ("germany", ARMY, "mun")}
    assert set(sandbox.window.scene.unit_items) == {"par", "bre", "spa", "mun"}
    sandbox.drag("par", "bur")
    assert ("france", ARMY, "bur") in sandbox.units() and ("france", ARMY, "par") not in sandbox.units()
    assert sandbox.window.hint_label.text().startswith("Setting up")
    assert "bur" in sandbox.window.scene.unit_items
    sandbox.setup_click("mun", "Remove the German army")
    assert ("germany", ARMY, "mun") not in sandbox.units()
    sandbox.setup_click("par", "Centre owner", "Germany")
    assert sandbox.controller.state.owners["par"] == "germany"


@pytest.mark.parametrize(("space", "kind", "reason"), [
    ("bur", FLEET, "a fleet cannot stand inland"),
    ("nth", ARMY, "an army cannot stand at sea"),
    ("swi", ARMY, "Switzerland is impassable"),
    ("spa", FLEET, "Spain has two coasts"),
    ("bre", ARMY, "two units cannot stand in one space"),
])
def test_sandbox_refuses_an_illegal_setup_with_its_reason(sandbox: Sandbox, space: str, kind: str,
                                                          reason: str) -> None:
    # issue 18: the set-up menu no longer offers these (tests/gui/test_sandbox_setup.py); placing
    # them another way is still refused with the reason
    sandbox.mode.set_setup(True)
    sandbox.setup_click("bre", "Place France", "Fleet")
    before = sandbox.controller.state
    assert not sandbox.mode.place_unit(Unit("austria", kind, space))
    assert sandbox.controller.state == before
    assert reason in sandbox.mode.panel.message.text()
    assert reason in sandbox.window.statusBar().currentMessage()


def test_sandbox_refuses_a_drag_onto_an_occupied_space(sandbox: Sandbox) -> None:
    sandbox.mode.set_setup(True)
    sandbox.setup_click("par", "Place France", "Army")
    sandbox.setup_click("bur", "Place Germany", "Army")
    sandbox.drag("par", "bur")
    assert sandbox.units() == {("france", ARMY, "par"), ("germany", ARMY, "bur")}
    assert "two units cannot stand in one space" in sandbox.mode.panel.message.text()
    # the unit dragged is drawn back where it stands
    item = sandbox.window.scene.unit_items["par"]
    spot = sandbox.window.scene.anchor("par")
    assert abs(item.pos().x() - spot.x()) < 1 and abs(item.pos().y() - spot.y()) < 1


def test_sandbox_orders_for_every_power_adjudicate_undo_and_try_again(sandbox: Sandbox) -> None:
    mode = sandbox.mode
    mode.set_setup(True)
    sandbox.setup_click("bur", "Place France", "Army")
    sandbox.setup_click("mar", "Place France", "Army")
    sandbox.setup_click("mun", "Place Germany", "Army")
    sandbox.setup_click("ruh", "Place Germany", "Army")
    mode.set_setup(False)
    sandbox.support("mar", "bur")  # France: A Mar S A Bur
    sandbox.move("mun", "bur")
    sandbox.hold("ruh")
    assert sandbox.orders("france") == {"A Mar S A Bur"}
    assert sandbox.orders("germany") == {"A Mun - Bur", "A Ruh H"}
    sandbox.adjudicate()
    assert len(mode.tried) == 1
    assert ("france", ARMY, "bur") in {(u.power, u.kind, u.location) for u in mode.tried[0].after.units.values()}
    # step back, change an order (Ruhr now supports the attack), adjudicate again
    mode.undo_adjudication()
    assert sandbox.controller.state.phase == Phase(1901, "spring", "movement")
    assert sandbox.orders("germany") == {"A Mun - Bur", "A Ruh H"}
    sandbox.support("ruh", "mun", "bur")
    sandbox.move("mar", "gas")  # and France's support is gone
    sandbox.adjudicate()
    second = mode.tried[1]
    assert ("germany", ARMY, "bur") in {(u.power, u.kind, u.location) for u in second.after.units.values()}
    assert [d.unit.location for d in second.after.dislodged] == ["bur"]
    # the first try is still there to look at
    assert mode.panel.tries.count() == 2
    assert "changed: A Mar - Gas, A Ruh S A Mun - Bur; no longer: A Mar S A Bur, A Ruh H" \
        in mode.panel.tries.item(1).text()
    mode.panel.tries.setCurrentRow(0)
    assert "Try 1" in sandbox.window.banner_label.text()
    assert "bur" in sandbox.window.scene.unit_items
    assert sandbox.window.scene.unit_items["bur"].unit.power == "france"


def test_sandbox_dislodged_unit_with_its_attacker_and_retreat(sandbox: Sandbox) -> None:
    mode = sandbox.mode
    mode.set_setup(True)
    sandbox.setup_click("bur", "Place Germany", "Army")
    mode.panel.kind.setCurrentIndex(mode.panel.kind.findData(RETREAT))
    mode.panel.set_phase_button.click()
    assert sandbox.controller.state.phase.kind == RETREAT
    dialog = mode.dislodged_dialog("bur")
    dialog.power.setCurrentIndex(dialog.power.findData("france"))
    dialog.attacker.setCurrentIndex(dialog.attacker.findData("mun"))
    dialog.accept()
    (d,) = sandbox.controller.state.dislodged
    assert (d.unit, d.attacker_from) == (Unit("france", ARMY, "bur"), "mun")
    assert "bur" in sandbox.window.scene.displaced_items
    mode.set_setup(False)
    sandbox.click_unit("bur")
    sandbox.click("mun")  # where the attacker came from: refused by the rules
    assert sandbox.orders("france") == set()
    sandbox.click("par")
    assert sandbox.orders("france") == {"A Bur - Par"}


def test_sandbox_refuses_an_impossible_phase(sandbox: Sandbox) -> None:
    mode = sandbox.mode
    before = sandbox.controller.state.phase
    assert not mode.set_phase(1905, "spring", "adjustment")
    assert sandbox.controller.state.phase == before
    assert "no adjustment phase in spring" in mode.panel.message.text()
    assert mode.set_phase(1905, "fall", "adjustment")
    assert sandbox.controller.state.phase.label == "Winter 1905 adjustments"


def test_sandbox_open_in_sandbox_copies_a_phase_and_leaves_the_game(table: Table) -> None:
    table.move("par", "bur")
    table.move("mar", "spa")
    table.adjudicate()
    game = table.controller.game
    before = (game.state, list(game.history))
    table.controller.view_phase(0)
    mode = open_phase_in_sandbox(table.window)
    assert mode is not None and mode.window is not table.window
    assert mode.controller.state == game.history[0].state
    assert {o for o in mode.controller.game.all_orders()} == set(game.history[0].orders)
    mode.controller.adjudicate()
    mode.controller.undo_adjudication()
    assert (game.state, list(game.history)) == before
    assert table.window.mode is not mode and not isinstance(table.window.mode, SandboxMode)
    mode.window.close()


def test_sandbox_save_and_open_scenario_round_trip(sandbox: Sandbox, tmp_path: Path) -> None:
    mode = sandbox.mode
    mode.set_setup(True)
    sandbox.setup_click("stp", "Place Russia", "Fleet (south coast)")
    sandbox.setup_click("bot", "Place Germany", "Fleet")
    sandbox.setup_click("fin", "Place Russia", "Army")
    sandbox.setup_click("stp", "Centre owner", "Russia")
    mode.set_setup(False)
    sandbox.move("bot", "swe")
    mode.set_edition(Edition.Y2023)
    path = tmp_path / "lesson.txt"
    assert mode.save_scenario(path)
    text = path.read_text()
    assert "PRESTATE" in text and "ORDERS" in text
    (sc,) = read_scenarios(text, sandbox.controller.board)
    mode.start(empty_state(sandbox.controller.board))
    assert not mode.controller.state.units
    assert mode.open_scenario(path)
    st = mode.controller.state
    assert {(u.power, u.kind, u.location) for u in st.units.values()} == {
        ("russia", FLEET, "stp/sc"), ("germany", FLEET, "bot"), ("russia", ARMY, "fin")}
    assert st.owners["stp"] == "russia"
    assert [(o.power, o.text) for o in sc.orders] == [("germany", "F Bot - Swe")]
    assert mode.controller.game.rules.edition == Edition.CLASSIC  # the case format does not carry the edition
    assert sandbox.orders("germany") == {"F Bot - Swe"}


def test_sandbox_bad_scenario_file_is_refused_naming_the_line(sandbox: Sandbox, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text, *a: shown.append(text)))
    mode = sandbox.mode
    mode.set_setup(True)
    sandbox.setup_click("par", "Place France", "Army")
    before = mode.controller.state
    bad = tmp_path / "bad.txt"
    bad.write_text("CASE mine\nPRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tFrance: A Atlantis\n"
                   "ORDERS\nEND\n")
    assert not mode.open_scenario(bad)
    assert mode.controller.state == before
    assert shown and "line 4" in shown[0] and "bad.txt" in shown[0]


# -- lessons ------------------------------------------------------------------------------------------

def _lessons() -> list[Lesson]:
    from diplomacy_desktop.io.boardfile import load_board

    return library(load_board("standard"))


def test_lessons_every_lesson_has_an_expectation_or_is_known() -> None:
    lessons = _lessons()
    assert sum(1 for lesson in lessons if lesson.kind == "rulebook") >= 13
    assert sum(1 for lesson in lessons if lesson.kind == "datc") >= 150


@pytest.fixture(scope="module")
def lesson_window(qapp: object, tmp_path_factory: pytest.TempPathFactory) -> Sandbox:
    from PySide6.QtCore import QSettings

    from diplomacy_desktop.gui.controller import GameController
    from diplomacy_desktop.gui.main_window import MainWindow

    settings = QSettings(str(tmp_path_factory.mktemp("s") / "s.ini"), QSettings.Format.IniFormat)
    controller = GameController()
    window = MainWindow(controller, geometry=shared_geometry(controller), settings=settings, sharpen=False)
    window.ask_before_closing = False
    window.interaction.popup_menus = False
    from diplomacy_desktop.gui.teach.sandbox import enter_sandbox

    mode = enter_sandbox(window)
    window.resize(1000, 700)
    yield Sandbox(None, mode)
    window.close()


@pytest.mark.parametrize("lesson", _lessons(), ids=lambda lesson: lesson.key)
def test_lessons_open_in_the_sandbox_and_adjudicate_to_the_expected_result(lesson_window: Sandbox,
                                                                          lesson: Lesson) -> None:
    window = lesson_window.window
    mode = open_lesson(window, lesson)
    assert mode is lesson_window.mode
    assert mode.controller.game.rules.edition == lesson.edition
    assert lesson.scenario.name in mode.panel.lesson.toPlainText() or lesson.title in mode.panel.lesson.toPlainText()
    # issue 18: each lesson says which edition of the rules it is in
    assert f"Rules: {EDITION_NAMES[lesson.edition]}" in mode.panel.lesson.toPlainText()
    entry = mode.controller.adjudicate()
    mism = expectation_mismatches(lesson.scenario, entry.state, entry.after)
    assert mism == (), mism
    if lesson.scenario.has_expectation:
        assert "agrees with the expected result" in mode.panel.lesson.toPlainText()


def test_lessons_search_by_number_title_and_text(table: Table) -> None:
    dialog = LessonLibrary(table.window)
    everything = len(dialog.shown())
    dialog.search.setText("6.F.14")
    assert [lesson.key for lesson in dialog.shown()] == ["6.F.14"]
    dialog.search.setText("beleaguered")
    found = dialog.shown()
    assert found and all("beleaguered" in f"{lesson.title} {lesson.source} {lesson.text}".lower()
                             for lesson in found)
    assert len(found) < everything
    dialog.search.setText("Example 7")  # "7" is in other texts too ("IX.7"): the number asked for comes first
    assert dialog.shown()[0].key == "Example 7"
    assert dialog.list.currentRow() == 0
    dialog.search.setText("zzzz no such words")
    assert dialog.shown() == [] and not dialog.open_button.isEnabled()
    dialog.close()


def test_lessons_teachers_folder_is_added_and_remembered(table: Table, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text, *a: shown.append(text)))
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "hold.txt").write_text("# Two armies bounce in Burgundy.\nCASE My bounce\n"
                                     "PRESTATE_SETPHASE Spring 1901, Movement\nPRESTATE\n\tFrance: A Paris\n"
                                     "\tGermany: A Munich\nORDERS\n\tFrance: A Paris - Burgundy\n"
                                     "\tGermany: A Munich - Burgundy\nPOSTSTATE_SAME\nEND\n")
    dialog = LessonLibrary(table.window)
    assert dialog.set_folder(folder)
    assert table.window.settings.value("lessons/folder") == str(folder)
    dialog.search.setText("my bounce burgundy")
    assert [lesson.key for lesson in dialog.shown()] == ["My bounce"]
    mode = dialog.open_current()
    assert mode is not None and mode.window is not table.window
    assert "Two armies bounce in Burgundy" in mode.panel.lesson.toPlainText()
    mode.adjudicate()
    assert "agrees with the expected result" in mode.panel.lesson.toPlainText()
    # what if France stayed at home? The verdict says the result differs, and why that is no surprise
    mode.undo_adjudication()
    assert "Expected result" in mode.panel.lesson.toPlainText()
    assert "agrees" not in mode.panel.lesson.toPlainText()
    mode.controller.clear_order("france", "par")
    mode.adjudicate()
    said = mode.panel.lesson.toPlainText()
    assert "differs from the expected result" in said and "not the lesson's orders" in said
    assert "germany A bur is there but not expected" in said
    again = LessonLibrary(table.window)  # the folder is remembered
    assert any(lesson.key == "My bounce" for lesson in again.lessons)
    (folder / "broken.txt").write_text("CASE broken\nPRESTATE_SETPHASE Summer 1901\nEND\n")
    assert not again.set_folder(folder)
    assert shown and "broken.txt" in shown[0]
    assert any(lesson.kind == "datc" for lesson in again.lessons)  # the built-in lessons stay
    mode.window.close()
    again.close()
    dialog.close()


def test_sandbox_open_in_sandbox_from_the_results_banner(table: Table) -> None:
    table.move("par", "bur")
    table.adjudicate()
    assert table.window.banner.isVisible()
    from diplomacy_desktop.gui.teach import sandbox as sandbox_module

    count = len(sandbox_module._WINDOWS)
    table.window.banner_sandbox.click()
    assert len(sandbox_module._WINDOWS) == count + 1
    opened = sandbox_module._WINDOWS[-1]
    assert isinstance(opened.mode, SandboxMode)
    assert opened.controller.state == table.controller.game.history[0].state
    assert [str(o) for o in opened.controller.game.all_orders()] == [str(o) for o in table.controller.game.history[0].orders]
    assert table.window.mode is not opened.mode and table.controller.viewing == 0  # the game as it was
    opened.close()


@pytest.mark.parametrize("predict", [False, True])
def test_sandbox_step_through_adjudicates_and_hands_over_the_entry(sandbox: Sandbox, predict: bool,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types

    calls: list[tuple[object, object, bool]] = []
    fake = types.ModuleType("diplomacy_desktop.gui.teach.step_through")
    fake.start_step_through = lambda window, entry, *, predict=False: calls.append((window, entry, predict))  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "diplomacy_desktop.gui.teach.step_through", fake)
    mode = sandbox.mode
    mode.set_setup(True)
    sandbox.setup_click("par", "Place France", "Army")
    mode.set_setup(False)
    sandbox.move("par", "bur")
    (mode.act_predict if predict else mode.act_step).trigger()
    entry = sandbox.controller.last_entry
    assert entry is not None and calls == [(sandbox.window, entry, predict)]


def test_sandbox_step_through_missing_says_so(sandbox: Sandbox, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, title, text, *a: shown.append(title)))
    monkeypatch.setitem(sys.modules, "diplomacy_desktop.gui.teach.step_through", None)  # import fails
    sandbox.mode.act_step.trigger()
    assert shown == ["Step by step is not available"]
