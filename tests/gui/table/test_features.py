"""A game year played through the real window: clicks on map coordinates, keys, typed orders."""

from __future__ import annotations

from PySide6.QtCore import Qt
from window_harness import Table

from diplomacy_desktop.engine.orders import Build, Move, Retreat
from diplomacy_desktop.engine.results import Outcome
from diplomacy_desktop.engine.state import Phase
from diplomacy_desktop.gui.board.map_scene import BounceItem, OrderItem
from diplomacy_desktop.gui.orders.interaction import IDLE, CoastMode, SupportTargetMode, UnitMode


def spring_1901_by_clicks(t: Table) -> None:
    # England
    t.move("lon", "nth")
    t.move("edi", "nwg")
    t.move("lvp", "yor")
    # France: a supported move
    t.move("par", "bur")
    t.support("mar", "par", "bur")
    t.move("bre", "mao")
    # Germany
    t.move("mun", "ruh")
    t.move("ber", "mun")
    t.move("kie", "den")
    # Italy: a hold by clicking the unit twice
    t.hold("ven")
    t.move("rom", "apu")
    t.move("nap", "ion")
    # Austria and Russia bounce in Galicia; Russia and Turkey in the Black Sea
    t.move("vie", "gal")
    t.move("bud", "ser")
    t.move("tri", "alb")
    t.move("war", "gal")
    t.move("mos", "ukr")
    t.move("sev", "bla")
    t.move("stp", "bot")
    t.move("ank", "bla")
    t.move("con", "bul")
    t.move("smy", "con")


def test_spring_1901_all_powers_by_clicks_then_bounces(table: Table) -> None:
    t = table
    spring_1901_by_clicks(t)
    assert t.orders("england") == {"F Lon - Nth", "F Edi - Nwg", "A Lvp - Yor"}
    assert t.orders("france") == {"A Par - Bur", "A Mar S A Par - Bur", "F Bre - Mao"}
    assert t.orders("italy") == {"A Ven H", "A Rom - Apu", "F Nap - Ion"}
    assert t.orders("russia") == {"A War - Gal", "A Mos - Ukr", "F Sev - Bla", "F StP/sc - Bot"}
    assert all(not t.controller.unordered(p) for p in t.controller.board.power_ids)
    # the orders are drawn: one item per order, in the power's colour
    assert len(t.window.scene.order_items_of()) == 22
    # and listed in rulebook notation, coast shown
    t.window.order_dock.show_power("russia")
    assert "F StP/sc - Bot" in t.window.order_dock.lines()

    t.adjudicate()
    c = t.controller
    assert c.state.phase == Phase(1901, "fall", "movement")
    state = c.state
    assert state.units["bur"].power == "france"
    assert "gal" not in state.units and "bla" not in state.units
    # the map shows the results of spring: bounce marks in Galicia and the Black Sea
    assert c.viewing == 0
    bounces = {i.province for i in t.window.scene.items() if isinstance(i, BounceItem)}
    assert bounces == {"gal", "bla"}
    failed = {i.order.location for i in t.window.scene.items() if isinstance(i, OrderItem) and i.failed}
    assert {"vie", "war", "sev", "ank"} <= failed
    assert not any(isinstance(i, OrderItem) and i.failed and i.order.location == "par"
                   for i in t.window.scene.items())
    texts = t.window.results_dock.result_texts()
    # issue 18: two equal moves into one space stood each other off (not "bounced with")
    assert any(line.startswith("A Vie - Gal | fails | stood off") for line in texts)
    assert t.window.banner.isVisible()
    # Continue: back to the current phase, units in their new places
    t.window.banner_continue.click()
    assert c.viewing is None
    assert set(t.window.scene.unit_items) == set(state.units)


def test_convoy_retreat_and_builds_by_clicks(table: Table) -> None:
    t = table
    c = t.controller
    spring_1901_by_clicks(t)
    t.adjudicate()
    t.key(Qt.Key.Key_End)
    assert c.viewing is None
    # Fall 1901: England convoys the army in Yorkshire to Norway; Germany dislodges France from Burgundy
    t.convoy("nth", "yor", "nwy")
    t.move("yor", "nwy")
    assert t.orders("england") == {"F Nth C A Yor - Nwy", "A Yor - Nwy via convoy"}
    t.move("ruh", "bur")
    t.support("mun", "ruh", "bur")
    t.hold("bur")
    t.move("mar", "spa")
    t.move("mao", "por")
    t.move("bot", "swe")
    t.adjudicate()
    assert c.state.phase == Phase(1901, "fall", "retreat")
    assert c.state.units["nwy"].power == "england"
    t.key(Qt.Key.Key_End)
    # the dislodged French army is drawn beside Burgundy; click it, the retreats light up
    assert "bur" in t.window.scene.displaced_items
    t.click_unit("bur")
    mode = t.window.interaction.mode
    assert mode.unit == "bur"
    assert {"pic", "par", "gas", "bel", "mar"} <= mode.lit
    assert "ruh" not in mode.lit  # the attacker came from there
    t.click("pic")
    assert c.game.orders_of("france") == [Retreat("france", "A", "bur", "pic")]
    t.adjudicate()
    # Winter 1901: France, Germany, England and Russia build
    assert c.state.phase == Phase(1901, "fall", "adjustment")
    assert c.state.units["pic"].power == "france"
    t.key(Qt.Key.Key_End)
    t.click("par")  # an inland centre: the army is built at once
    assert Build("france", "A", "par") in c.game.orders_of("france")
    t.click("kie")  # a coastal centre: army or fleet?
    assert t.window.interaction.mode.lit == frozenset({"kie"})
    t.key("F")
    assert Build("germany", "F", "kie") in c.game.orders_of("germany")
    t.click("stp")  # two coasts: F asks which
    t.key("F")
    assert isinstance(t.window.interaction.mode, CoastMode)
    assert t.window.interaction.mode.lit == frozenset({"stp/nc", "stp/sc"})
    t.click_scene(t.point_of("stp/nc"))
    assert Build("russia", "F", "stp/nc") in c.game.orders_of("russia")
    assert len(t.window.scene.order_items_of()) == 0  # builds are drawn as ghost units, not arrows
    t.adjudicate()
    assert c.state.phase == Phase(1902, "spring", "movement")
    assert c.state.units["kie"].kind == "F" and c.state.units["stp"].location == "stp/nc"
    assert c.state.units["par"].power == "france"
    t.key(Qt.Key.Key_End)
    assert {"kie", "stp", "par"} <= set(t.window.scene.unit_items)


def test_keys_escape_delete_and_undo_redo(table: Table) -> None:
    t = table
    c = t.controller
    t.click_unit("mar")
    assert isinstance(t.window.interaction.mode, UnitMode)
    t.key("S")
    t.click_unit("par")
    assert isinstance(t.window.interaction.mode, SupportTargetMode)
    t.key(Qt.Key.Key_Escape)  # back to choosing whom to support
    t.key(Qt.Key.Key_Escape)  # back to the unit
    assert isinstance(t.window.interaction.mode, UnitMode)
    t.key(Qt.Key.Key_Escape)
    assert t.window.interaction.mode is IDLE
    t.move("par", "pic")
    t.move("bre", "eng")
    assert t.orders("france") == {"A Par - Pic", "F Bre - Eng"}
    t.key("Z", Qt.KeyboardModifier.ControlModifier)
    assert t.orders("france") == {"A Par - Pic"}
    t.key("Z", Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert t.orders("france") == {"A Par - Pic", "F Bre - Eng"}
    # clicking an ordered unit twice clears its order; Delete does too
    t.click_unit("par")
    t.click_unit("par")
    assert t.orders("france") == {"F Bre - Eng"}
    t.click_unit("bre")
    t.key(Qt.Key.Key_Delete)
    assert t.orders("france") == set()
    assert c.undo_stack.count() == 4
    # an illegal destination cannot be completed by clicking
    t.click_unit("mun")
    t.click("war")
    assert t.orders("germany") == set()


def test_typed_orders_kept_refused_and_completed(table: Table) -> None:
    t = table
    dock = t.window.order_dock
    dock.show_power("france")
    t.window.focus_entry()
    dock.update_completions()
    assert "A Par - Bur" in dock.completer_model.stringList()
    t.qtbot.keyClicks(dock.entry, "a par - bur")
    t.qtbot.keyClick(dock.entry, Qt.Key.Key_Return)
    assert t.orders("france") == {"A Par - Bur"}
    assert dock.entry.text() == ""
    # illegal: kept as written and marked with the reason
    dock.entry.setText("F Bre - Mun")
    t.qtbot.keyClick(dock.entry, Qt.Key.Key_Return)
    assert "F Bre - Mun" in t.orders("france")
    marked = [line for line in dock.lines() if "F Bre - Mun" in line]
    assert marked and "illegal" in marked[0]
    assert any(isinstance(i, OrderItem) and i.illegal for i in t.window.scene.items())
    # unreadable: refused, left in the box with the message
    dock.entry.setText("A Par flies to the moon")
    t.qtbot.keyClick(dock.entry, Qt.Key.Key_Return)
    assert dock.entry.text() == "A Par flies to the moon"
    assert "not accepted" in dock.feedback.text()
    # the adjudicator treats the illegal order as a hold, with the reason
    t.adjudicate()
    results = {r.order.location: r for r in t.controller.last_entry.results if hasattr(r.order, "location")}
    assert results["bre"].outcome is Outcome.ILLEGAL
    assert results["par"].outcome is Outcome.SUCCESS


def test_history_browsing_draws_each_phase(table: Table) -> None:
    t = table
    c = t.controller
    t.move("par", "bur")
    t.move("mun", "bur")
    t.adjudicate()
    t.key(Qt.Key.Key_End)
    t.move("mun", "ruh")
    t.adjudicate()
    assert len(c.game.history) == 2
    assert c.viewing == 1
    t.key(Qt.Key.Key_PageUp)
    assert c.viewing == 0
    # spring's orders are on the map: the bounce in Burgundy
    assert {i.province for i in t.window.scene.items() if isinstance(i, BounceItem)} == {"bur"}
    moves = {i.order for i in t.window.scene.order_items_of() if isinstance(i.order, Move)}
    assert Move("france", "A", "par", "bur") in moves
    t.window.results_dock.flush()
    assert t.window.results_dock.phases.currentRow() == 0
    t.key(Qt.Key.Key_PageDown)
    assert c.viewing == 1
    t.key(Qt.Key.Key_PageDown)
    assert c.viewing is None
    assert not t.window.banner.isVisible()
    # clicks on the map while looking at history do not order anything
    t.key(Qt.Key.Key_PageUp)
    t.click_unit("par")
    assert t.window.interaction.mode is IDLE
    # the host takes back the last adjudication: its orders come back
    t.qtbot.waitUntil(t.window.results_dock.undo_button.isEnabled)  # the panel refreshes after the map
    t.window.results_dock.undo_button.click()
    assert c.state.phase == Phase(1901, "fall", "movement")
    assert t.orders("germany") == {"A Mun - Ruh"}


def test_hover_highlights_and_describes_a_space(table: Table) -> None:
    t = table
    pos = t.screen_point(t.point_of("par"))
    t.qtbot.mouseMove(t.window.view.viewport(), pos)
    text = t.window.interaction.hover_at(t.point_of("par"))
    assert t.window.scene.hovered == "par"
    assert text is not None and "Paris" in text and "France" in text and "army" in text


def test_secrecy_hook_hides_other_powers_orders(table: Table) -> None:
    t = table
    c = t.controller
    t.move("par", "bur")
    t.move("mun", "ruh")
    c.set_visible_powers({"germany"})
    c.set_active_power("germany")
    drawn = {i.order.power for i in t.window.scene.order_items_of()}
    assert drawn == {"germany"}
    assert "A Par - Bur" not in t.window.interaction.describe_space("par")
    dock = t.window.order_dock
    assert dock.power == "germany"
    assert not any("Par - Bur" in line for line in dock.lines())
    # France cannot be ordered from the map while Germany is at the keyboard
    t.click_unit("mar")
    assert t.window.interaction.mode is IDLE
    c.set_visible_powers(None)
    c.set_active_power(None)
    assert {i.order.power for i in t.window.scene.order_items_of()} == {"france", "germany"}


def test_on_map_menu_builds_and_coast_keys(table: Table) -> None:
    t = table
    c = t.controller
    spring_1901_by_clicks(t)
    t.adjudicate()
    t.key(Qt.Key.Key_End)
    t.move("bot", "swe")
    t.adjudicate()
    t.key(Qt.Key.Key_End)
    assert c.state.phase == Phase(1901, "fall", "adjustment")
    t.window.interaction.popup_menus = True
    t.click("kie")
    menu = t.window.interaction._menu
    assert menu is not None
    labels = [a.text() for a in menu.actions()]
    assert labels[0] == "Build an &army" and "fleet" in labels[1]
    menu.actions()[1].trigger()  # the on-map menu, as a mouse user picks from it
    assert Build("germany", "F", "kie") in c.game.orders_of("germany")
    menu.close()
    t.window.interaction.popup_menus = False
    t.click("stp")
    t.key("S")  # the south coast, straight from the build prompt
    assert Build("russia", "F", "stp/sc") in c.game.orders_of("russia")


def test_keyboard_only_play(table: Table) -> None:
    t = table
    c = t.controller
    w = t.window
    t.key("L", Qt.KeyboardModifier.ControlModifier)
    assert w.order_dock.entry.hasFocus()
    w.order_dock.show_power("austria")
    for text in ("A Vie - Gal", "A Bud - Ser", "F Tri - Alb"):
        t.qtbot.keyClicks(w.order_dock.entry, text)
        t.qtbot.keyClick(w.order_dock.entry, Qt.Key.Key_Return)
    t.qtbot.keyClick(w.order_dock.entry, Qt.Key.Key_BracketRight, Qt.KeyboardModifier.ControlModifier)
    assert w.order_dock.power == "england"
    t.qtbot.keyClicks(w.order_dock.entry, "F Lon - Nth")
    t.qtbot.keyClick(w.order_dock.entry, Qt.Key.Key_Return)
    assert t.orders("austria") == {"A Vie - Gal", "A Bud - Ser", "F Tri - Alb"}
    assert t.orders("england") == {"F Lon - Nth"}
    t.qtbot.keyClick(w.order_dock.entry, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert c.state.phase == Phase(1901, "fall", "movement")
    assert c.viewing == 0


def test_removals_by_clicking_units(qtbot: object, settings: object, always_yes: None) -> None:
    from window_harness import shared_geometry

    from diplomacy_desktop.engine.game import Game
    from diplomacy_desktop.engine.orders import Remove
    from diplomacy_desktop.engine.rules import RuleSet
    from diplomacy_desktop.engine.state import GameState, Unit
    from diplomacy_desktop.gui.controller import GameController
    from diplomacy_desktop.gui.main_window import MainWindow
    from diplomacy_desktop.io.boardfile import load_board

    board = load_board()
    owners = {c: p for p, cs in board.home_centres.items() for c in cs}
    owners["mun"] = "france"  # Germany lost Munich: two centres, three units
    units = [Unit("germany", "A", "mun"), Unit("germany", "A", "ber"), Unit("germany", "F", "kie"),
             Unit("france", "A", "par")]
    state = GameState.build(board, Phase(1901, "fall", "adjustment"), units, owners)
    controller = GameController(Game(board, RuleSet.for_edition("classic"), state))
    window = MainWindow(controller, geometry=shared_geometry(controller), settings=settings, sharpen=False)
    window.ask_before_closing = False
    window.interaction.popup_menus = False
    qtbot.addWidget(window)  # type: ignore[attr-defined]
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)  # type: ignore[attr-defined]
    with qtbot.waitActive(window):  # type: ignore[attr-defined]
        window.activateWindow()
    window.view.setFocus()
    t = Table(qtbot, window)
    t.click_unit("kie")
    assert controller.game.orders_of("germany") == [Remove("germany", "F", "kie")]
    assert "1 unit to remove" in window.order_dock.summary.text()  # the panel follows Germany
    t.click_unit("ber")  # one removal owed: the second is refused
    assert controller.game.orders_of("germany") == [Remove("germany", "F", "kie")]
    t.click_unit("kie")  # clicking again takes the removal back
    assert controller.game.orders_of("germany") == []
    t.click_unit("ber")
    t.adjudicate()
    assert controller.state.phase == Phase(1902, "spring", "movement")
    assert "ber" not in controller.state.units and "kie" in controller.state.units
    window.close()


def test_undo_cannot_reach_another_powers_orders(table: Table) -> None:
    t = table
    c = t.controller
    c.set_visible_powers({"france"})
    c.set_active_power("france")
    t.move("par", "bur")
    assert "Par" in t.window.act_undo.text()
    c.set_visible_powers({"germany"})
    c.set_active_power("germany")
    assert not t.window.act_undo.isEnabled() and "Par" not in t.window.act_undo.text()
    t.key("Z", Qt.KeyboardModifier.ControlModifier)
    assert c.game.orders_of("france")  # Germany's Ctrl+Z did not take back France's order
    assert c.modified
    shown = [t.window.statusBar().currentMessage(), t.window.order_dock.feedback.text(),
             t.window.hint_label.text(), *t.window.order_dock.lines()]
    assert not any("Par" in text for text in shown)
