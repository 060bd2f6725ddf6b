"""What a table of seven found at the laptop (issue 34, "At the laptop" 1-8): each finding as
the players met it, through the real window."""

from __future__ import annotations

from PySide6.QtCore import QEvent, Qt
from window_harness import Table


def _type_lines(t: Table, *lines: str) -> None:
    """Type each line into the order box and press Enter, as a player does: the box is not
    cleared by hand between lines."""
    dock = t.window.order_dock
    t.window.focus_entry()
    for line in lines:
        t.qtbot.keyClicks(dock.entry, line)  # type: ignore[attr-defined]
        t.qtbot.keyClick(dock.entry, Qt.Key.Key_Return)  # type: ignore[attr-defined]


# -- 1. typed orders ---------------------------------------------------------------------------

def test_typed_orders_in_the_usual_forms_are_all_given(table: Table) -> None:
    t = table
    _type_lines(t, "a con bul", "A Smy-Con", "ank bla", "A Ven to Tri", "f stp/sc bot",
                "F Bre (nc) Mao", "a par s a mar bur")
    assert t.orders("turkey") == {"A Con - Bul", "A Smy - Con", "F Ank - Bla"}
    assert t.orders("italy") == {"A Ven - Tri"}
    assert t.orders("russia") == {"F StP/sc - Bot"}
    assert t.orders("france") == {"F Bre - Mao", "A Par S A Mar - Bur"}
    assert t.window.order_dock.entry.text() == ""


def test_a_refused_line_stays_on_its_own_line_and_is_not_glued_to_the_next(table: Table) -> None:
    t = table
    dock = t.window.order_dock
    _type_lines(t, "a bur par", "a smy con")
    assert t.orders("turkey") == {"A Smy - Con"}  # the next line replaced the refused one
    assert dock.entry.text() == ""
    said = dock.feedback.text().split("<br>")
    assert said[0].startswith("Given") and "A Smy - Con" in said[0]
    assert any("a bur par" in line and "Burgundy" in line for line in said[1:])  # with its reason


# -- 8. the minor ones -------------------------------------------------------------------------

def test_the_sandbox_has_a_close_item(table: Table) -> None:
    from PySide6.QtWidgets import QApplication

    from diplomacy_desktop.gui.teach.sandbox import open_sandbox_window

    mode = open_sandbox_window(table.window)
    window = mode.window
    window.ask_before_closing = False
    mode.ask_before_closing = False
    close = [a for a in window.findChildren(type(mode.act_setup)) if a.text().replace("&", "").startswith("Close")]
    assert close and close[0] in mode.phase_actions()
    assert window.isVisible()
    gone: list[bool] = []
    window.destroyed.connect(lambda *_a: gone.append(True))
    close[0].trigger()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    QApplication.processEvents()
    assert gone == [True]


# -- 2. no key or click moves the map under the pointer without its target --------------------

def test_s_or_c_never_moves_the_map_under_the_pointer(table: Table) -> None:
    from PySide6.QtGui import QCursor

    t = table
    t.on_a_laptop()
    view = t.window.view
    moved = 0
    for unit, key, aim in [("tri", "s", "alb"), ("vie", "s", "bud"), ("bud", "s", "ser"), ("nap", "c", "apu"),
                           ("ven", "s", "tri"), ("tri", "c", "ven")]:
        t.window.interaction.back()
        t.window.target_zoom.restore()
        t.click_unit(unit)
        aimed = t.point_of(aim)
        QCursor.setPos(view.viewport().mapToGlobal(t.screen_point(aimed)))
        before = view.transform()
        t.key(key.upper())
        t.window.target_zoom.settle()
        if view.transform() != before:
            moved += 1
        under = view.mapToScene(view.viewport().mapFromGlobal(QCursor.pos()))
        assert (under - aimed).manhattanLength() < 4, (unit, key, aim, under, aimed)
    assert moved  # the magnifier did zoom on a key: the pointer went with its target
