"""Orders typed into the order box go to the unit's owner (when the typist may order for that
power) or are refused with the reason; nothing is filed for a unit that is not there, so no
arrow is ever drawn for an order nobody can carry out.  And the small things around the box
and the right-click menu."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu
from window_harness import Table

from diplomacy_desktop.engine.results import Outcome


def _type(t: Table, text: str) -> None:
    dock = t.window.order_dock
    t.window.focus_entry()
    dock.entry.clear()
    t.qtbot.keyClicks(dock.entry, text)
    t.qtbot.keyClick(dock.entry, Qt.Key.Key_Return)


def test_typed_order_on_another_powers_tab_goes_to_the_units_owner(table: Table) -> None:
    t = table
    dock = t.window.order_dock
    dock.show_power("germany")
    _type(t, "A Par - Bur")
    assert t.orders("france") == {"A Par - Bur"}
    assert t.orders("germany") == set()
    assert dock.power == "france"  # the panel shows whose order it became
    assert "for France" in dock.feedback.text() and "A Par - Bur" in dock.feedback.text()
    assert dock.entry.text() == ""
    # one arrow, France's: no German ghost
    assert [i.order.power for i in t.window.scene.order_items_of()] == ["france"]
    assert t.window.scene.order_items_of("germany") == []


def test_typed_order_for_another_power_is_adjudicated_once_as_theirs(table: Table) -> None:
    t = table
    t.window.order_dock.show_power("germany")
    _type(t, "A Ven - Pie")
    assert t.orders("italy") == {"A Ven - Pie"} and t.orders("germany") == set()
    t.adjudicate()
    entry = t.controller.last_entry
    assert entry is not None
    venice = [r for r in entry.results if getattr(r.order, "province", None) == "ven"]
    assert len(venice) == 1 and venice[0].order.power == "italy" and venice[0].outcome is Outcome.SUCCESS
    texts = t.window.results_dock.result_texts()
    assert not any("illegal" in line for line in texts)


def test_typed_order_for_a_missing_unit_is_refused_and_draws_nothing(table: Table) -> None:
    t = table
    dock = t.window.order_dock
    dock.show_power("germany")
    _type(t, "A Bur - Par")
    assert all(not t.orders(p) for p in t.controller.board.power_ids)
    assert "no unit in Burgundy" in dock.feedback.text()
    assert dock.entry.text() == "A Bur - Par"  # left in the box to be corrected
    assert t.window.scene.order_items_of() == []


def test_typed_illegal_order_for_own_unit_is_still_kept_as_written(table: Table) -> None:
    t = table
    dock = t.window.order_dock
    dock.show_power("germany")
    _type(t, "A Par - Mun")  # France's army, not adjacent: kept for France, marked illegal
    assert t.orders("france") == {"A Par - Mun"}
    assert t.orders("germany") == set()
    assert "for France" in dock.feedback.text() and "illegal" in dock.feedback.text()


def test_typed_order_for_a_power_not_at_the_keyboard_is_refused_saying_whose_unit(table: Table) -> None:
    t = table
    c = t.controller
    dock = t.window.order_dock
    c.set_visible_powers({"germany"})  # hot-seat: Germany behind the curtain
    c.set_active_power("germany")
    assert dock.power == "germany"
    _type(t, "A Par - Bur")
    assert c.game.orders_of("france") == [] and c.game.orders_of("germany") == []
    text = dock.feedback.text()
    assert "A Par is French" in text and "only Germany may give orders now" in text
    assert t.window.scene.order_items_of() == []
    _type(t, "A Mun - Bur")
    assert t.orders("germany") == {"A Mun - Bur"}


def test_order_box_error_is_cleared_when_the_order_is_then_made_by_clicking(table: Table) -> None:
    t = table
    dock = t.window.order_dock
    dock.show_power("france")
    _type(t, "A Par flies to Bur")
    assert "not accepted" in dock.feedback.text()
    t.window.view.setFocus()
    t.move("par", "bur")
    assert t.orders("france") == {"A Par - Bur"}
    assert dock.feedback.text() == ""


def _menu_texts(t: Table, province: str) -> list[str]:
    w = t.window
    w.interaction.popup_menus = True
    item = w.scene.unit_items[province]
    t.click_scene(item.pos(), Qt.MouseButton.RightButton)
    menu = w.interaction._menu
    assert isinstance(menu, QMenu)
    texts = [a.text() for a in menu.actions()]
    menu.close()
    w.interaction.popup_menus = False
    w.interaction.back()  # the unit stays unselected
    return texts


def test_right_click_menu_offers_convoy_only_to_a_fleet_at_sea(table: Table) -> None:
    t = table
    army = _menu_texts(t, "par")
    assert "Hold (H)" in army and "Support (S)" in army and "Convoy (C)" not in army
    coastal = _menu_texts(t, "lon")  # a fleet in port cannot convoy either
    assert "Convoy (C)" not in coastal
    t.move("lon", "nth")
    t.adjudicate()
    t.key(Qt.Key.Key_End)
    at_sea = _menu_texts(t, "nth")
    assert "Convoy (C)" in at_sea


def test_typed_ambiguous_order_lists_only_reachable_meanings_on_any_tab(table: Table) -> None:
    t = table
    dock = t.window.order_dock
    dock.show_power("italy")
    _type(t, "F Kie - Nor")  # Germany's fleet; no space called "Nor" is within its reach
    text = dock.feedback.text()
    assert "whichever space is meant" in text and "Italy cannot order" not in text
    assert "Naf" not in text and "Nao" not in text
    _type(t, "F Lon - Nor")  # England's fleet reaches one: the North Sea
    assert t.orders("england") == {"F Lon - Nth"}
