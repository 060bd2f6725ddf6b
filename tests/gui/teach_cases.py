"""Helpers for the teaching tests: a lesson's position and orders put into the real window."""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QTextCursor
from window_harness import Table

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Hold, Move, Retreat, SupportHold, UnitOrder
from diplomacy_desktop.engine.rules import Edition, RuleSet
from diplomacy_desktop.gui.teach.explanations import order_at
from diplomacy_desktop.io.lessons import builtin_lessons, by_key
from diplomacy_desktop.io.notation import format_order, parse_order
from diplomacy_desktop.io.scenario import scenario_state

_LESSONS: dict[str, object] = {}


def load_case(table: Table, key: str, edition: Edition | None = None) -> None:
    """Put lesson ``key``'s position into the window's game and give its orders through the
    controller (illegal ones kept as written)."""
    c = table.controller
    if not _LESSONS:
        _LESSONS.update({lesson.key: lesson for lesson in builtin_lessons(c.board)})
    lesson = by_key(list(_LESSONS.values()), key)  # type: ignore[arg-type]
    state = scenario_state(lesson.scenario, c.board)
    c.replace_game(Game(c.board, RuleSet.for_edition(edition or lesson.edition), state))
    for line in lesson.scenario.orders:
        order = parse_order(line.text, line.power, state, case_file=True)
        c.set_order(order, allow_illegal=True)


def adjudicate(table: Table) -> None:
    table.window.view.setFocus()
    table.adjudicate()
    assert table.controller.viewing == len(table.controller.game.history) - 1


def click_result_row(table: Table, order_text: str) -> None:
    """Click an order's row in the Results panel (a real mouse click on its text)."""
    dock = table.window.results_dock
    dock.show()
    dock.raise_()
    dock.flush()
    browser = dock.results
    doc = browser.document()
    cursor = doc.find(order_text)
    # the row itself, not an order that mentions it ("A Bud S A Rum - Ser" for "A Rum - Ser")
    while not cursor.isNull() and not (cursor.selectionStart() == cursor.block().position()
                                       and cursor.selectionEnd() == cursor.block().position() + cursor.block().length() - 1):
        cursor = doc.find(order_text, cursor)
    assert not cursor.isNull(), f"{order_text!r} is not a row of the Results panel"
    at = QTextCursor(browser.document())
    at.setPosition(cursor.selectionStart() + 1)
    browser.setTextCursor(at)
    browser.ensureCursorVisible()
    rect = browser.cursorRect(at)
    table.qtbot.mouseClick(browser.viewport(), Qt.MouseButton.LeftButton,  # type: ignore[attr-defined]
                           pos=rect.center())


def arrow_point(table: Table, order_text: str) -> QPointF:
    """A point on the drawn order ``order_text`` (its arrow, line or ring)."""
    for item in table.window.scene.order_items_of():
        if format_order(item.order) == order_text:
            if isinstance(item.order, (Move, Retreat)):
                return item.path.pointAtPercent(0.35)
            if isinstance(item.order, Hold) or (isinstance(item.order, SupportHold) and item.ring is not None
                                                and item.path.isEmpty()):
                assert item.ring is not None
                return QPointF(item.ring.center().x(), item.ring.top() + 1)
            # a point of the line no other arrow covers
            for t in (0.4, 0.6, 0.25, 0.75, 0.5, 0.15, 0.85):
                point = item.path.pointAtPercent(t)
                if order_at(table.window.scene, point) == item.order:
                    return point
            return item.path.pointAtPercent(0.4)
    raise AssertionError(f"no arrow drawn for {order_text}")


def click_arrow(table: Table, order_text: str) -> None:
    table.click_scene(arrow_point(table, order_text))


def unit_orders(table: Table) -> list[str]:
    return [format_order(o) for o in table.controller.game.all_orders() if isinstance(o, UnitOrder)]
