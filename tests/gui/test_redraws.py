"""The window does each redraw once and rebuilds only what changed (issue 16, point 5).

These tests count calls and compare objects; they never time anything (the speed itself is
measured in ``bench/bench_gui.py`` and ``bench/bench_window_host.py``).  Each guards one cause
of the slowdown that was found by profiling:

* a seal announced two changes (who is visible, who is at the keyboard): every view redrew twice
  (now one record, ``GameController.set_view``);
* the results bar took a row above the map: the map was fitted again at another scale when it
  appeared, and every name, centre and unit was drawn anew;
* province names were set back and forth between two sizes at every redraw;
* every unit was made anew at every redraw, including those that had not moved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from window_harness import SPRING_1901_EVERY_UNIT

from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.gui.board.map_scene import MapScene, sizes_for_scale
from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.table.changes import TableChange


def _count(monkeypatch: pytest.MonkeyPatch, obj: object, name: str) -> list[int]:
    calls = [0]
    original: Callable[..., Any] = getattr(obj, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(obj, name, counted)
    return calls


def test_redraws_a_seal_is_one_change_and_one_scene_rebuild(table, table_features, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    t, f = table, table_features
    c: GameController = t.controller
    records: list[TableChange] = []
    c.changed.connect(records.append)
    f.act_write.trigger()
    power = f.flow.session.next_power
    f.flow.curtain.open_button.click()
    assert c.active_power == power
    assert power is not None
    pictures = _count(monkeypatch, t.window.scene, "show_picture")
    records.clear()
    f.strip.seal_button.click()
    assert power in f.flow.session.sealed
    assert len(records) == 1 and records[0].visibility  # one record: who is visible and at the keyboard
    assert pictures[0] == 1  # and the map is rebuilt once
    assert c.active_power is None and not c.can_see(power)  # and what it names is the final state


def test_redraws_the_views_hear_the_services_own_change(table) -> None:  # type: ignore[no-untyped-def]
    """Issue 30, one change type and one path: an order given at the laptop reaches the views as
    the very record the service told its listeners (the phones' host hears the same one); an
    adjudication's record names every power's orders for the views to look at again."""
    from diplomacy_desktop.table.changes import LAPTOP

    c: GameController = table.controller
    told: list[TableChange] = []
    records: list[TableChange] = []
    c.service.add_listener(told.append)
    c.changed.connect(records.append)
    c.set_order(Move("france", "A", "par", "bur"))
    assert [(r.kind, r.orders, r.initiator) for r in records] == [("orders", frozenset({"france"}), LAPTOP)]
    assert records[0] is told[-1]  # the same object: no second record made from it
    records.clear()
    c.adjudicate()
    (phase,) = records
    assert phase.kind == "phase" and phase.phase and phase.viewing and not phase.game
    assert phase.orders == frozenset(c.board.power_ids) and told[-1].powers is None


def test_redraws_the_results_bar_leaves_the_map_scale_and_names_alone(table, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    t = table
    c: GameController = t.controller
    c.set_order(Move("france", "A", "par", "bur"))
    scale = t.window.view.transform().m11()
    viewport = t.window.view.viewport().size()
    label_calls = _count(monkeypatch, MapScene, "_place_label_items")
    t.adjudicate()
    t.qtbot.waitUntil(lambda: t.window.banner.isVisible())
    assert t.window.banner.isVisible()
    assert t.window.view.viewport().size() == viewport and t.window.view.transform().m11() == scale
    # the bar floats over the map's top-left corner, within the map
    bar = t.window.banner.geometry()
    assert t.window.view.viewport().geometry().contains(bar)
    # the names were placed again only because units moved, not re-sized back and forth
    first = label_calls[0]
    t.window.scene.show_picture(t.window.scene.picture)  # the same picture again: nothing to redo
    assert label_calls[0] == first


def test_redraws_units_that_did_not_change_keep_their_items(table) -> None:  # type: ignore[no-untyped-def]
    t = table
    c: GameController = t.controller
    before = dict(t.window.scene.unit_items)
    c.set_order(Move("france", "A", "par", "bur"))
    t.adjudicate()
    c.view_phase(None)
    after = t.window.scene.unit_items
    assert "bur" in after and "par" not in after
    assert after["bur"] is not before["par"]  # the moved army is drawn anew, where it went
    kept = [p for p in before if p != "par"]
    assert kept and all(after[p] is before[p] for p in kept)  # the others keep their items
    assert all(item.scene() is t.window.scene for item in after.values())
    assert not any(item.scene() is not None for p, item in before.items() if p == "par")


def test_redraws_a_reveal_is_one_change_record(table, table_features, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 16, "one record per seal": revealing the sealed orders (everyone's orders shown, the
    phase adjudicated, the next phase's turn begun) reaches the views as one record."""
    from diplomacy_desktop.table.hotseat import OPEN, READY

    t, f = table, table_features
    c: GameController = t.controller
    f.act_write.trigger()
    while f.flow.session.stage != READY:
        f.flow.curtain.open_button.click()
        f.strip.seal_button.click()
    hidden = c.visible_powers
    assert hidden == frozenset() and c.active_power is None  # everything sealed, nobody's orders shown
    records: list[TableChange] = []
    c.changed.connect(records.append)
    pictures = _count(monkeypatch, t.window.scene, "show_picture")
    before = c.state.phase.short
    f.act_reveal.trigger()
    assert c.state.phase.short != before and f.flow.session.stage == OPEN  # revealed, adjudicated, next turn
    assert len(c.game.history) == 1 and c.game.history[-1].state.phase.short == before
    assert len(records) == 1, "\n".join(map(repr, records))
    assert records[0].phase and records[0].viewing and records[0].orders == frozenset(c.board.power_ids)
    assert pictures[0] == 1  # the map is rebuilt once
    # the revealed orders are the phase's results; the new phase's orders are hidden as before
    assert c.visible_powers == hidden and c.active_power is None


def test_redraws_a_reveal_without_adjudication_shows_everyone_in_one_record(table) -> None:  # type: ignore[no-untyped-def]
    """The reveal as one operation of the controller: with no adjudication to follow (the game is
    left where it is) every power's orders may be seen from then on, in one record; a second
    reveal changes nothing and says so (``None``)."""
    c: GameController = table.controller
    c.set_view(frozenset(), None)
    records: list[TableChange] = []
    c.changed.connect(records.append)
    record = c.reveal(adjudicate=False)
    assert record is not None and record.visibility and records == [record]
    assert all(c.can_see(p) for p in c.board.power_ids) and not c.game.history
    assert c.reveal(adjudicate=False) is None and records == [record]


def _repaint(t: Any) -> None:
    t.window.view.viewport().repaint()


def test_redraws_a_selected_unit_is_its_ring_over_a_copy_of_its_picture(table, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Selecting a unit repaints it: its halo's wide strokes are drawn once per look and scale
    (an image, kept with the names), and a click draws only the selection ring over a copy of it."""
    from diplomacy_desktop.gui.board.label_images import IMAGES
    from diplomacy_desktop.gui.board.map_scene import UnitItem

    t = table
    drawn: list[str] = []
    draw = UnitItem.draw

    def counted(item: UnitItem, painter: object) -> None:
        drawn.append(item.province)
        draw(item, painter)  # type: ignore[arg-type]

    monkeypatch.setattr(UnitItem, "draw", counted)
    _repaint(t)
    par = t.window.scene.unit_items["par"]
    assert par.form() in IMAGES.bounds  # the unit was drawn into its image at the first paint
    drawn.clear()
    for _ in range(2):
        t.click_unit("par")
        _repaint(t)
        assert t.window.scene.unit_items["par"].selected
        t.window.interaction.back()
        _repaint(t)
        assert not t.window.scene.unit_items["par"].selected
    assert drawn == []  # no unit drawn again: copied, ring or no ring


def test_redraws_the_unit_under_a_click_is_found_without_searching_the_scene(table, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The scene holds some 200 items (names, centres, owned provinces): a click asks the units
    only, and a hidden unit is not there to be clicked."""
    scene = table.window.scene
    item = scene.unit_items["par"]
    searched = _count(monkeypatch, scene, "items")
    assert scene.unit_item_at(item.pos()) is item
    assert scene.unit_item_at(item.pos() + item.boundingRect().topLeft() * 3) is None
    assert searched[0] == 0
    item.setVisible(False)
    assert scene.unit_item_at(item.pos()) is None


def test_redraws_the_window_builds_its_first_picture_once_as_it_opens(qtbot, settings, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The window hears of several changes as it opens (its own, the table's): the same picture
    at the same sizes is built once, not once per change."""
    from window_harness import shared_geometry

    from diplomacy_desktop.gui.main_window import MainWindow
    from diplomacy_desktop.gui.table.features import install_table_features

    built = _count(monkeypatch, MapScene, "_show_owners")
    controller = GameController()
    window = MainWindow(controller, geometry=shared_geometry(controller), settings=settings, sharpen=False)
    qtbot.addWidget(window)
    window.ask_before_closing = False
    install_table_features(window)
    # not before the window is on screen: the units' size depends on the view's scale, which the
    # window learns as it is laid out (drawn before, the board was drawn twice as it opened)
    assert built[0] == 0 and window.scene.unit_items == {}
    window.resize(1000, 700)
    window.show()
    qtbot.waitExposed(window)
    assert built[0] == 1 and len(window.scene.unit_items) == 22
    assert window.scene.unit_size == sizes_for_scale(window.scene.view_scale, window.scene.size_factor)[0]
    # a new picture is built (one with an order), and the same picture asked for directly (as
    # the sandbox does to put a dragged unit back) is built again
    from diplomacy_desktop.gui.board.map_scene import current_picture
    from diplomacy_desktop.io.notation import parse_order

    scene = window.scene
    picture = current_picture(controller.state, [parse_order("A Par - Bur", "france", controller.state)])
    scene.show_picture(picture, unless_drawn=True)
    assert built[0] == 2 and scene.order_items_of("france")
    scene.show_picture(picture, unless_drawn=True)
    assert built[0] == 2
    scene.show_picture(picture)
    assert built[0] == 3


def test_redraws_a_repaint_asks_only_the_items_where_it_paints(table) -> None:  # type: ignore[no-untyped-def]
    """A hover or a click repaints a small part of the map: the scene's index finds the items
    there, and the names, centres and units elsewhere are not asked for their extent (without an
    index, Qt asked all ~140 of them, each a call into Python, at every repaint)."""
    from PySide6.QtCore import QRect, QRectF
    from PySide6.QtWidgets import QGraphicsItem

    class Probe(QGraphicsItem):
        asked = 0

        def boundingRect(self) -> QRectF:
            Probe.asked += 1
            return QRectF(0, 0, 10, 10)

        def paint(self, painter, option, widget=None) -> None:  # type: ignore[no-untyped-def]
            pass

    t = table
    scene, view = t.window.scene, t.window.view
    probe = Probe()
    probe.setPos(40, 1200)  # the south-west corner of the map, far from Paris
    scene.addItem(probe)
    _repaint(t)
    t.qtbot.wait(10)
    Probe.asked = 0
    x, y = scene.geometry.unit_anchor("par")
    at = view.mapFromScene(x, y)
    view.viewport().repaint(QRect(at.x() - 20, at.y() - 20, 40, 40))
    assert Probe.asked == 0
    view.viewport().repaint(view.mapFromScene(QRectF(30, 1190, 30, 30)).boundingRect())  # and where it is: asked
    assert Probe.asked > 0
    scene.removeItem(probe)


def test_redraws_every_item_paints_with_its_own_pen_brush_and_font(table) -> None:  # type: ignore[no-untyped-def]
    """The map's view lets Qt skip saving the painter's state around each item (a tenth of a
    hover's repaint): that is only right if every item sets what it draws with.  Each kind of item
    painted after a painter left in an odd state draws the same pixels as on a fresh one."""
    from PySide6.QtCore import QPointF
    from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPen, QTransform
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    from diplomacy_desktop.engine.orders import SupportMove
    from diplomacy_desktop.gui.board.board_note import BoardNoteItem
    from diplomacy_desktop.gui.board.map_scene import BounceItem, MarkItem

    t = table
    c = t.controller
    c.set_order(Move("france", "A", "par", "bur"))
    c.set_order(SupportMove("france", "A", "mar", "A", "par", "bur"))
    scene = t.window.scene
    scene.unit_items["par"].set_selected(True)  # its ring is drawn straight onto the painter
    items = {
        "unit": scene.unit_items["par"], "centre": scene.centre_items["par"], "name": scene.label_items["bur"],
        "owned": scene.ownership_items["par"], "bounce": BounceItem("bur"), "mark": MarkItem(),
        "note": BoardNoteItem("A note on the board"),
        **{f"order {i}": item for i, item in enumerate(scene.order_items["france"])},
    }
    assert len(items) >= 9

    def picture(item, odd: bool) -> QImage:  # type: ignore[no-untyped-def]
        box = item.boundingRect()
        out = QImage(240, 240, QImage.Format.Format_ARGB32_Premultiplied)
        out.fill(0)
        painter = QPainter(out)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform)
        if odd:  # what an item painted before could leave behind
            painter.setPen(QPen(QColor("#00ff00"), 9))
            painter.setBrush(QBrush(QColor("#ff00ff")))
            big = QFont("DejaVu Serif")
            big.setPixelSize(40)
            painter.setFont(big)
            painter.drawEllipse(QPointF(-500, -500), 1, 1)  # (off the image: the state is what matters)
        scale = min(2.0, 200 / max(box.width(), box.height(), 1.0))
        painter.setWorldTransform(QTransform(scale, 0, 0, scale, 20 - box.left() * scale, 20 - box.top() * scale))
        item.paint(painter, QStyleOptionGraphicsItem(), None)
        painter.end()
        return out

    for name, item in items.items():
        fresh, after_odd = picture(item, False), picture(item, True)
        assert fresh != QImage() and fresh.pixel(0, 0) == 0
        assert fresh == after_odd, name


def test_redraws_the_order_panels_summary_changes_without_a_new_layout(table) -> None:  # type: ignore[no-untyped-def]
    """A click on another power's unit changes the order panel's summary (power, phase, counts):
    that repaints the summary only, as its size never depends on its text.  As a word-wrapped rich
    text label it asked the window for a new layout at each change, and each layout measured the
    rich text again (a twentieth of a click's work)."""
    from PySide6.QtCore import QEvent, QObject

    t = table
    dock = t.window.order_dock

    class Layouts(QObject):
        count = 0

        def eventFilter(self, obj: object, event: QEvent) -> bool:
            if event.type() == QEvent.Type.LayoutRequest:
                Layouts.count += 1
            return False

    watch = Layouts()
    widgets = [t.window, dock, dock.widget(), dock.summary.parentWidget()]
    for w in widgets:
        w.installEventFilter(watch)
    t.qtbot.wait(20)
    Layouts.count = 0
    before = dock.summary.size()
    dock.summary.setText("<b>Germany</b> \u2014 Spring 1901: 3 units, 3 orders to write")
    t.qtbot.wait(20)
    assert Layouts.count == 0
    assert dock.summary.size() == before
    t.click_unit("ber")  # Germany's army: the panel follows Germany
    assert "Germany" in dock.summary.text() and "unit" in dock.summary.text()
    assert dock.summary.size() == before
    for w in widgets:
        w.removeEventFilter(watch)


def _opening(t: Any) -> None:
    """Every power's opening orders (a phase whose results are longer than the results panel)."""
    from diplomacy_desktop.io.notation import parse_order

    c: GameController = t.controller
    for power, lines in SPRING_1901_EVERY_UNIT.items():
        for line in lines:
            c.set_order(parse_order(line, power, c.state))


def test_redraws_a_phase_s_results_are_laid_out_once(table) -> None:  # type: ignore[no-untyped-def]
    """The Results panel's text is laid out at the panel's width.  A scroll bar appearing when the
    results outgrew the panel made it narrower, and everything was laid out again (a sixth of an
    adjudication's work): its scroll bar is always there."""
    from PySide6.QtCore import QEvent, QObject

    t = table
    results = t.window.results_dock.results
    t.window.resize(1280, 720)
    t.qtbot.wait(20)

    class Resizes(QObject):
        count = 0  # changes of width (the text is laid out at the width; a taller panel is not laid out again)

        def eventFilter(self, obj: object, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Resize and event.size().width() != event.oldSize().width():  # type: ignore[attr-defined]
                Resizes.count += 1
            return False

    watch = Resizes()
    _opening(t)
    t.adjudicate()  # the first results raise the panel: it gets its size
    t.qtbot.wait(20)
    t.controller.undo_adjudication()
    results.viewport().installEventFilter(watch)
    for _ in range(2):
        t.adjudicate()
        t.qtbot.wait(20)
        assert results.document().size().height() > results.viewport().height()  # longer than the panel
        assert "succeeds" in results.toPlainText()
        t.controller.undo_adjudication()
        t.qtbot.wait(20)
    results.viewport().removeEventFilter(watch)
    assert Resizes.count == 0


def test_redraws_the_results_bar_measures_a_text_once(table, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The bar over the map is as wide as its text on one line, measured with a text document:
    once per text, not at every adjudication that shows the same text again."""
    from diplomacy_desktop.gui.board import map_overlay

    made = [0]
    real = map_overlay.QTextDocument

    def counted(*args: Any) -> Any:
        made[0] += 1
        return real(*args)

    monkeypatch.setattr(map_overlay, "QTextDocument", counted)
    t = table
    t.controller.set_order(Move("france", "A", "par", "bur"))
    t.adjudicate()
    t.qtbot.waitUntil(lambda: t.window.banner.isVisible())
    first = made[0]
    width = t.window.banner.width()
    assert first >= 1
    for _ in range(3):
        t.controller.undo_adjudication()
        t.adjudicate()
        t.qtbot.waitUntil(lambda: t.window.banner.isVisible())
    assert made[0] == first
    assert t.window.banner.width() == width


def test_redraws_the_order_panels_summary_is_laid_out_when_it_changes_not_at_each_paint(table) -> None:  # type: ignore[no-untyped-def]
    """Setting a text document's font or width lays it out again even when they are the same:
    the summary sets them only when they change, so a repaint (a click nearby) only draws it."""
    summary = table.window.order_dock.summary
    summary.repaint()
    layouts = [0]
    summary._doc.documentLayout().update.connect(lambda *_: layouts.__setitem__(0, layouts[0] + 1))
    for _ in range(3):
        summary.repaint()
    assert layouts[0] == 0
    summary.setText("<b>Germany</b> \u2014 Spring 1901 moves: 3 units")
    summary.repaint()
    assert layouts[0] >= 1  # a new text is laid out
