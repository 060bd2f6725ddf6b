"""Issue 18, point 5: a sandbox a teacher sets up in a minute (gui/teach/sandbox.py and
gui/teach/setup_palette.py), driven through the real window: New sandbox asks for the start, the
palette places a unit per click, menus offer only legal placements, every set-up edit is an undo
step, a standoff mark forbids a retreat and is saved, the Why? rings go when the board is edited."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton
from test_sandbox import Sandbox, menu_action
from window_harness import Table

from diplomacy_desktop.engine.board import ARMY, FLEET
from diplomacy_desktop.engine.state import GameState, Phase, Unit
from diplomacy_desktop.engine.validation import retreat_destinations
from diplomacy_desktop.gui.teach import sandbox as sandbox_module
from diplomacy_desktop.gui.teach.sandbox import SandboxMode, empty_state, open_sandbox_window
from diplomacy_desktop.gui.teach.setup_palette import MENU, OWNER, REMOVE, STANDOFF
from diplomacy_desktop.io.scenario import read_scenarios


@pytest.fixture
def sandbox(table: Table, qtbot: object) -> Iterator[Sandbox]:
    """An empty board in a sandbox window (as tests/gui/test_sandbox.py's)."""
    mode = open_sandbox_window(table.window, state=empty_state(table.controller.board))
    window = mode.window
    window.resize(1280, 800)
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    with qtbot.waitActive(window):  # type: ignore[attr-defined]
        window.activateWindow()
    window.view.setFocus()
    window.view.fit_to_window()
    yield Sandbox(qtbot, mode)
    window.close()


def units(mode: SandboxMode) -> set[tuple[str, str, str]]:
    return {(u.power, u.kind, u.location) for u in mode.controller.state.units.values()}


def paint(box: Sandbox, space: str, tool: str | None = None, power: str | None = None,
          at: QPointF | None = None) -> None:
    """Choose the palette's tool and power (if given) and click ``space`` once."""
    box.mode.palette.choose(tool, power)
    box.click_scene(at if at is not None else box.point_of(space))


# -- New sandbox: standard start or empty board ------------------------------------------------------


def answer_box(button_text: str | None) -> Callable[[], None]:
    """Answer the modal New sandbox box when it comes up: click ``button_text`` or press Escape
    (``None``)."""
    def answer() -> None:
        box = QApplication.activeModalWidget()
        if not isinstance(box, QMessageBox):
            QTimer.singleShot(20, answer)
            return
        if button_text is None:
            from PySide6.QtTest import QTest

            QTest.keyClick(box, Qt.Key.Key_Escape)
            return
        if button_text == "<Return>":
            from PySide6.QtTest import QTest

            QTest.keyClick(box, Qt.Key.Key_Return)
            return
        for b in box.findChildren(QPushButton):
            if b.text().replace("&", "") == button_text:
                b.click()
                return
        raise AssertionError(f"no button {button_text!r}")
    return answer


@pytest.fixture
def fresh_start_memory(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(sandbox_module, "_last_start", sandbox_module.STANDARD)
    yield


def test_sandbox_new_sandbox_asks_standard_or_empty_and_escape_cancels(table: Table, fresh_start_memory: None
                                                                        ) -> None:
    window = table.window
    before = len(sandbox_module._WINDOWS)
    QTimer.singleShot(0, answer_box(None))
    window.act_new_sandbox.trigger()
    assert len(sandbox_module._WINDOWS) == before  # Escape: nothing opened
    QTimer.singleShot(0, answer_box("Empty board"))
    window.act_new_sandbox.trigger()
    assert len(sandbox_module._WINDOWS) == before + 1
    opened = sandbox_module._WINDOWS[-1]
    assert isinstance(opened.mode, SandboxMode)
    assert not opened.controller.state.units and not opened.controller.state.owners
    assert opened.mode.setup  # an empty board is there to be set up
    # the next time, the session's last answer is the default: Return takes it
    QTimer.singleShot(0, answer_box("<Return>"))
    window.act_new_sandbox.trigger()
    again = sandbox_module._WINDOWS[-1]
    assert again is not opened and not again.controller.state.units
    QTimer.singleShot(0, answer_box("Standard start"))
    window.act_new_sandbox.trigger()
    standard = sandbox_module._WINDOWS[-1]
    assert standard.controller.state == GameState.initial(table.controller.board)
    assert table.window.mode is not standard.mode  # the game's window is not touched
    for w in (opened, again, standard):
        w.close()


def test_sandbox_new_inside_a_sandbox_asks_too(sandbox: Sandbox, fresh_start_memory: None) -> None:
    mode = sandbox.mode
    mode.place_unit(Unit("france", ARMY, "par"))
    QTimer.singleShot(0, answer_box(None))
    mode.new_game()
    assert units(mode) == {("france", ARMY, "par")}  # cancelled: the sandbox as it was
    QTimer.singleShot(0, answer_box("Standard start"))
    mode.new_game()
    assert mode.controller.state == GameState.initial(mode.board)


# -- clear the board -----------------------------------------------------------------------------------


def test_sandbox_clear_board_is_one_undo_step(sandbox: Sandbox) -> None:
    mode = sandbox.mode
    mode.start(GameState.initial(mode.board))
    sandbox.move("par", "bur")
    start = mode.controller.state
    assert mode.act_clear in mode.phase_actions() and mode.act_clear in mode.palette.actions()
    mode.act_clear.trigger()
    st = mode.controller.state
    assert not st.units and not st.owners and not st.dislodged and st.phase == start.phase
    assert not mode.controller.game.all_orders()
    sandbox.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert mode.controller.state == start
    assert sandbox.orders("france") == {"A Par - Bur"}  # the order comes back with its unit
    sandbox.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert not mode.controller.state.units


# -- the palette --------------------------------------------------------------------------------------


def test_sandbox_palette_places_one_unit_per_click(sandbox: Sandbox) -> None:
    mode = sandbox.mode
    paint(sandbox, "par", ARMY, "france")
    assert mode.setup  # choosing a tool switched set-up on
    for space in ("bur", "mar"):
        sandbox.click(space)
    paint(sandbox, "bre", FLEET)
    paint(sandbox, "mun", ARMY, "germany")
    sandbox.click("kie")
    assert units(mode) == {("france", ARMY, "par"), ("france", ARMY, "bur"), ("france", ARMY, "mar"),
                           ("france", FLEET, "bre"), ("germany", ARMY, "mun"), ("germany", ARMY, "kie")}
    # a split coast: the coast nearest the click
    paint(sandbox, "spa/nc", FLEET, "france")
    assert ("france", FLEET, "spa/nc") in units(mode)
    sandbox.click("spa/sc")  # the same fleet put on the other coast: one click
    assert ("france", FLEET, "spa/sc") in units(mode) and ("france", FLEET, "spa/nc") not in units(mode)
    # a click on another unit replaces it
    paint(sandbox, "kie", ARMY, "russia")
    assert ("russia", ARMY, "kie") in units(mode) and ("germany", ARMY, "kie") not in units(mode)
    # centre owner: a click gives it, a second makes it neutral
    paint(sandbox, "bel", OWNER, "england")
    assert mode.controller.state.owners.get("bel") == "england"
    sandbox.click("bel")
    assert "bel" not in mode.controller.state.owners
    paint(sandbox, "bur", REMOVE)
    assert ("france", ARMY, "bur") not in units(mode)
    assert "bur" not in sandbox.window.scene.unit_items
    # the Menu tool: a click opens the space's set-up menu again
    mode.palette.choose(MENU)
    sandbox.setup_click("hol", "Place Germany", "Army")
    assert ("germany", ARMY, "hol") in units(mode)


@pytest.mark.parametrize(("space", "tool", "reason"), [
    ("nth", ARMY, "an army cannot stand at sea"),
    ("bur", FLEET, "a fleet cannot stand inland"),
    ("ruh", OWNER, "Ruhr is not a supply centre"),
    ("pic", REMOVE, "there is nothing to remove in Picardy"),
    ("gas", STANDOFF, "a standoff mark only matters while units retreat"),
])
def test_sandbox_palette_refuses_with_the_reason_on_the_board(sandbox: Sandbox, space: str, tool: str,
                                                             reason: str) -> None:
    mode = sandbox.mode
    paint(sandbox, "par", ARMY, "france")
    before = mode.controller.state
    steps = mode.controller.undo_stack.count()
    paint(sandbox, space, tool)
    assert mode.controller.state == before
    assert mode.controller.undo_stack.count() == steps
    note = sandbox.window.interaction.board_notes.text
    assert note is not None and reason in note  # beside the click, on the board
    assert reason in mode.panel.message.text()


@pytest.mark.parametrize(("unit", "reason"), [
    (Unit("austria", ARMY, "swi"), "Switzerland is impassable"),
    (Unit("austria", FLEET, "spa"), "Spain has two coasts"),
    (Unit("germany", ARMY, "bre"), "two units cannot stand in one space"),
])
def test_sandbox_place_unit_still_refuses_what_cannot_stand(sandbox: Sandbox, unit: Unit, reason: str) -> None:
    mode = sandbox.mode
    mode.place_unit(Unit("france", FLEET, "bre"))
    before = mode.controller.state
    assert not mode.place_unit(unit)
    assert mode.controller.state == before
    assert reason in mode.panel.message.text()


# -- menus offer only what can stand there -----------------------------------------------------------


def _placements(mode: SandboxMode, space: str) -> list[str]:
    menu = mode.setup_menu(space)
    sub = menu_action(menu, "Place France").menu()
    assert sub is not None
    return [a.text() for a in sub.actions()]


def test_sandbox_setup_menu_offers_only_legal_placements(sandbox: Sandbox) -> None:
    mode = sandbox.mode
    assert _placements(mode, "nth") == ["Fleet"]  # no army at sea
    assert _placements(mode, "bur") == ["Army"]  # no fleet inland
    assert _placements(mode, "bre") == ["Army", "Fleet"]
    assert _placements(mode, "spa") == ["Army", "Fleet (north coast)", "Fleet (south coast)"]  # never coastless
    swi = [a.text() for a in mode.setup_menu("swi").actions()]
    assert not any(t.startswith("Place") for t in swi) and any("impassable" in t for t in swi)
    mode.place_unit(Unit("france", ARMY, "par"))
    occupied = [a.text() for a in mode.setup_menu("par").actions()]
    assert not any(t.startswith("Place") for t in occupied)  # the space is taken
    assert "Remove the French army in Paris" in occupied
    # the dislodged unit's dialog too
    mode.set_phase(1901, "spring", "retreat")
    dialog = mode.dislodged_dialog("nth")
    assert [dialog.unit.itemText(i) for i in range(dialog.unit.count())] == ["Fleet"]
    dialog.close()
    dialog = mode.dislodged_dialog("stp")
    assert [dialog.unit.itemText(i) for i in range(dialog.unit.count())] == \
        ["Army", "Fleet (north coast)", "Fleet (south coast)"]
    dialog.close()


# -- every set-up edit on the undo stack ---------------------------------------------------------------


def test_sandbox_every_setup_edit_is_an_undo_step(sandbox: Sandbox) -> None:
    mode = sandbox.mode
    c = mode.controller

    def undo() -> None:
        sandbox.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)

    def redo() -> None:
        sandbox.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)

    states = [c.state]
    sandbox.mode.set_setup(True)
    sandbox.setup_click("par", "Place France", "Army")
    states.append(c.state)
    sandbox.drag("par", "bur")
    states.append(c.state)
    sandbox.setup_click("bur", "Give it to", "Germany")
    states.append(c.state)
    sandbox.setup_click("par", "Centre owner", "Germany")
    states.append(c.state)
    mode.set_phase(1903, "fall", "retreat")
    states.append(c.state)
    dialog = mode.dislodged_dialog("mun")
    dialog.power.setCurrentIndex(dialog.power.findData("russia"))
    dialog.accept()
    states.append(c.state)
    mode.set_standoff("sil", True)
    states.append(c.state)
    sandbox.setup_click("bur", "Remove the German army")
    states.append(c.state)
    mode.act_clear.trigger()
    states.append(c.state)
    assert len({id(s) for s in states}) == len(states) and all(a != b for a, b in itertools.pairwise(states))
    assert c.undo_stack.count() == len(states) - 1
    for back in reversed(states[:-1]):
        undo()
        assert c.state == back
    for forward in states[1:]:
        redo()
        assert c.state == forward
    # an order given to a unit an edit removed comes back with the undo
    mode.start(empty_state(mode.board))
    mode.place_unit(Unit("france", ARMY, "par"))
    mode.set_setup(False)
    sandbox.move("par", "bur")
    mode.remove_unit("par")
    assert sandbox.orders("france") == set()
    undo()
    assert sandbox.orders("france") == {"A Par - Bur"}
    undo()  # the order itself
    assert sandbox.orders("france") == set() and units(mode) == {("france", ARMY, "par")}
    assert "place the French army in Paris" in sandbox.window.act_undo.text()


# -- a standoff mark for a retreat lesson ----------------------------------------------------------------


def retreat_lesson(box: Sandbox) -> SandboxMode:
    """A German army dislodged from Munich by a French attack from Burgundy; Silesia is free."""
    mode = box.mode
    mode.place_unit(Unit("france", ARMY, "mun"))
    mode.set_phase(1901, "spring", "retreat")
    mode.place_dislodged(Unit("germany", ARMY, "mun"), "bur")
    return mode


def test_sandbox_standoff_mark_forbids_the_retreat_there(sandbox: Sandbox) -> None:
    mode = retreat_lesson(sandbox)
    st = mode.controller.state
    assert "sil" in retreat_destinations(st, "mun")
    paint(sandbox, "sil", STANDOFF)
    st = mode.controller.state
    assert st.contested == frozenset({"sil"})
    assert "sil" not in retreat_destinations(st, "mun")  # rules XI: left vacant by a standoff
    assert "boh" in retreat_destinations(st, "mun")
    assert any(getattr(m, "province", None) == "sil" for m in sandbox.window.scene.mark_items)  # drawn
    # through the window: the dislodged army cannot be sent there
    mode.set_setup(False)
    sandbox.click_unit("mun")
    assert "sil" not in sandbox.window.scene.lit
    sandbox.click("sil")
    assert "A Mun - Sil" not in sandbox.orders("germany")
    sandbox.controller.clear_orders("germany")
    sandbox.click_unit("mun")
    sandbox.click("boh")
    assert sandbox.orders("germany") == {"A Mun - Boh"}
    # undo takes the mark away (the order edits go first)
    while mode.controller.state.contested:
        assert mode.controller.undo_stack.canUndo()
        sandbox.key(Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert mode.controller.state.dislodged  # the step before the mark
    # the menu marks it too, and a unit placed there takes the mark away
    mode.set_setup(True)
    mode.palette.choose(MENU)
    sandbox.setup_click("sil", "Left empty by a standoff")
    assert mode.controller.state.contested == frozenset({"sil"})
    sandbox.setup_click("sil", "Remove the standoff mark")
    assert mode.controller.state.contested == frozenset()
    mode.set_standoff("sil", True)
    mode.place_unit(Unit("russia", ARMY, "sil"))
    assert mode.controller.state.contested == frozenset()
    assert not mode.set_standoff("sil", True)
    assert "a standoff leaves a space empty" in mode.panel.message.text()


def test_sandbox_standoff_mark_is_saved_with_the_scenario(sandbox: Sandbox, tmp_path: Path) -> None:
    mode = retreat_lesson(sandbox)
    mode.set_standoff("sil", True)
    mode.set_standoff("tyr", True)
    path = tmp_path / "retreat.txt"
    assert mode.save_scenario(path)
    text = path.read_text()
    assert "PRESTATE_STANDOFFS\n\tSilesia\n\tTyrolia\n" in text
    (sc,) = read_scenarios(text, mode.board)
    assert sc.standoffs == ["sil", "tyr"]  # type: ignore[union-attr]
    mode.start(empty_state(mode.board))
    assert mode.open_scenario(path)
    st = mode.controller.state
    assert st.contested == frozenset({"sil", "tyr"})
    assert st.phase == Phase(1901, "spring", "retreat")
    # the attacker's origin is saved as its move (PRESTATE_RESULTS): Burgundy stays closed
    assert "PRESTATE_RESULTS\n\tSUCCESS: France: A Bur - Mun\n" in text
    assert [(d.unit, d.attacker_from) for d in st.dislodged] == [(Unit("germany", ARMY, "mun"), "bur")]
    assert set(retreat_destinations(st, "mun")) == {"ber", "boh", "kie", "ruh"}
    # a file with no such section opens as before (no marks)
    plain = tmp_path / "plain.txt"
    plain.write_text(text.replace("PRESTATE_STANDOFFS\n\tSilesia\n\tTyrolia\n", ""))
    assert mode.open_scenario(plain)
    assert mode.controller.state.contested == frozenset()


# -- the Why? rings and units under arrowheads --------------------------------------------------------


def test_sandbox_why_rings_go_when_the_board_is_edited(sandbox: Sandbox) -> None:
    mode = sandbox.mode
    for u in (Unit("france", ARMY, "par"), Unit("france", ARMY, "mar"), Unit("germany", ARMY, "mun")):
        mode.place_unit(u)
    sandbox.move("par", "bur")
    sandbox.move("mun", "bur")
    sandbox.adjudicate()
    dock = sandbox.window.explanations
    entry = mode.controller.last_entry
    assert entry is not None
    dock.show_result(entry, entry.results[0])
    assert dock.highlight.items  # rings on the map
    sandbox.key(Qt.Key.Key_End)  # back to the current phase, to set it up again
    assert dock.highlight.items  # still explaining the phase just played
    mode.place_unit(Unit("italy", ARMY, "pie"))
    assert dock.highlight.items == [] and dock.result is None
    assert not any(item.scene() is sandbox.window.scene for item in dock.highlight.items)


def test_explanation_click_on_a_unit_under_an_arrowhead_explains_that_unit(sandbox: Sandbox) -> None:
    from diplomacy_desktop.gui.board.map_scene import OrderItem
    from diplomacy_desktop.gui.teach.explanations import order_at

    mode = sandbox.mode
    for u in (Unit("france", ARMY, "bur"), Unit("france", ARMY, "mar"), Unit("germany", ARMY, "mun")):
        mode.place_unit(u)
    sandbox.support("mar", "bur")  # a support to hold: its line ends on the army in Burgundy
    sandbox.move("bur", "pic")  # which moves instead
    sandbox.move("mun", "bur")
    sandbox.adjudicate()
    scene = sandbox.window.scene
    item = scene.unit_items["bur"]
    r = item.size * 0.45
    under = [QPointF(item.pos().x() + r * i / 8, item.pos().y() + r * j / 8)
             for i in range(-8, 9) for j in range(-8, 9) if i * i + j * j <= 64]
    covered = [p for p in under if any(isinstance(x, OrderItem) and x.order.province != "bur"
                                       for x in scene.items(p))]
    assert covered, "no arrow or line is drawn over the army in Burgundy"
    for p in covered:
        order = order_at(scene, p)
        assert order is not None and order.province == "bur", (p, order)
    sandbox.click_scene(covered[0])
    result = sandbox.window.explanations.result
    assert result is not None and result.order.province == "bur"  # A Bur - Pic, not Marseilles' support
    # with set-up on, the same click reaches the unit: its set-up menu
    sandbox.key(Qt.Key.Key_End)
    mode.set_setup(True)
    mode.last_menu = None
    sandbox.click_scene(covered[0])
    assert mode.last_menu is not None and mode.last_menu.actions()[0].text() == "Burgundy"


def test_sandbox_palette_leaves_the_projector_view_to_the_board(sandbox: Sandbox) -> None:
    window = sandbox.window
    palette = sandbox.mode.palette
    assert palette.isVisible()
    window.projector.enter()
    assert not palette.isVisible()  # F5: the map and the explanation, no set-up buttons
    window.projector.leave()
    assert palette.isVisible()
