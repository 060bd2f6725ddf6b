"""Issue 17, type to order: a key typed on the map starts the order box; zoom is Ctrl+plus / Ctrl+minus;
the order box stays in one place for every power; the next power finds the board fitted."""

from __future__ import annotations

import random

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication
from window_harness import Table

from diplomacy_desktop.gui.orders.interaction import IDLE


def test_typing_on_the_map_starts_the_order_box(table: Table) -> None:
    t = table
    view = t.window.view
    entry = t.window.order_dock.entry
    view.setFocus()
    zoom = view.zoom
    for ch in "A Par - Bur":
        if ch == " ":
            t.qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Space)
        else:
            t.qtbot.keyClicks(QApplication.focusWidget(), ch)
    assert entry.hasFocus()
    assert entry.text() == "A Par - Bur"
    assert abs(view.zoom - zoom) < 1e-9  # "-" did not shrink the map
    t.qtbot.keyClick(entry, Qt.Key.Key_Return)
    assert t.orders("france") == {"A Par - Bur"}


def test_letters_still_give_order_kinds_while_a_unit_is_selected(table: Table) -> None:
    t = table
    t.click_unit("par")
    t.window.view.setFocus()
    t.key("H")
    assert t.orders("france") == {"A Par H"}
    assert t.window.interaction.mode is IDLE
    assert t.window.order_dock.entry.text() == ""


def test_plain_minus_on_the_map_does_not_zoom(table: Table) -> None:
    t = table
    view = t.window.view
    view.setFocus()
    zoom = view.zoom
    t.qtbot.keyClick(view, Qt.Key.Key_Minus)
    assert abs(view.zoom - zoom) < 1e-9
    assert t.window.order_dock.entry.text() == "-"
    view.setFocus()
    t.qtbot.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert view.zoom < zoom


def test_order_box_stays_in_one_place_for_every_power(table: Table) -> None:
    t = table
    dock = t.window.order_dock
    places = set()
    for power in t.controller.board.power_ids:
        dock.show_power(power)
        QApplication.processEvents()
        places.add(dock.entry.mapTo(t.window, QPoint(0, 0)).y())
    dock.feedback.setText("“A Par - Mos” is not a legal order: the army in Paris cannot reach Moscow, "
                          "which is not next to it and no convoy could carry it there.")
    QApplication.processEvents()
    places.add(dock.entry.mapTo(t.window, QPoint(0, 0)).y())
    assert len(places) == 1


def test_next_power_finds_the_board_fitted_not_the_last_zoom(table: Table, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.gui.table.dialogs import TableSettings
    from diplomacy_desktop.gui.table.features import install_table_features
    from diplomacy_desktop.gui.table.persistence import Autosave

    t = table
    f = install_table_features(t.window, autosave=Autosave(tmp_path / "data"), rng=random.Random(3),
                               review=lambda d: True, confirm=lambda *a: True, host_prompt=lambda *a: None,
                               message=lambda *a: None)
    f.start_new_game(TableSettings())
    f.act_write.trigger()
    f.flow.curtain.open_button.click()
    view = t.window.view
    view.zoom_by(0.5)
    assert not view.fitted
    f.strip.seal_button.click()  # sealed: the curtain for the next power
    assert f.flow.curtain_up
    assert view.fitted and abs(view.zoom - 1.0) < 1e-6


def test_winter_order_list_wraps_instead_of_clipping(table: Table) -> None:
    """Finding 9: the winter list's "build not chosen yet: click an empty home centre ..." ran off the panel."""
    from diplomacy_desktop.engine.game import Game
    from diplomacy_desktop.engine.state import Phase

    t = table
    c = t.controller
    game = Game.new(c.board)
    owners = dict(game.state.owners)
    owners["swe"] = "russia"
    units = {p: u for p, u in game.state.units.items() if p != "mos"}
    game.state = game.state.evolve(phase=Phase(1901, "fall", "adjustment"), owners=owners, units=units)
    c.replace_game(game)
    dock = t.window.order_dock
    dock.show_power("russia")
    QApplication.processEvents()
    lst = dock.list
    texts = [lst.item(i).text() for i in range(lst.count())]
    assert any("build" in x for x in texts)
    assert lst.wordWrap() and lst.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    for i in range(lst.count()):
        rect = lst.visualItemRect(lst.item(i))
        assert rect.right() <= lst.viewport().width(), texts[i]  # nothing runs off the panel
