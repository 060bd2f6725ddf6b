"""Issue 17: what a year played by hand through the real window at 1366x768 and 1920x1080 found on
the board (README, "A year played by hand"), one test per finding; the curtain's and New Game's are
in tests/gui/table/test_play_findings.py."""

from __future__ import annotations

from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication
from window_harness import Table

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Build
from diplomacy_desktop.engine.state import Phase, Unit
from diplomacy_desktop.gui.orders.interaction import IDLE, BuildMode, CoastMode
from diplomacy_desktop.mapdata.click_intent import coast_part


def _laptop(t: Table) -> None:
    t.window.resize(1366, 768)
    t.window.view.fit_to_window()
    QApplication.processEvents()


def _england_builds(t: Table) -> None:
    """Winter 1901: England owns Norway and Belgium with three units away from home: two builds,
    Liverpool (small on a laptop) and London empty."""
    c = t.controller
    game = Game.new(c.board)
    owners = dict(game.state.owners)
    owners["nwy"] = owners["bel"] = "england"
    units = {p: u for p, u in game.state.units.items() if p not in ("lon", "lvp", "edi")}
    units["nwy"] = Unit("england", "F", "nwy")
    units["bel"] = Unit("england", "F", "bel")
    units["edi"] = Unit("england", "A", "edi")
    game.state = game.state.evolve(phase=Phase(1901, "fall", "adjustment"), owners=owners, units=units)
    c.replace_game(game)


def test_build_click_on_a_small_centre_does_not_zoom_behind_the_menu(table: Table) -> None:
    # played: clicking "Lvp", "Kiel", "Nap" or "Brest" in Winter zoomed the map in while the army /
    # fleet menu opened where the click had been, so the menu stood over another part of the map
    # (the Ionian Sea for Naples) and the zoomed map moved the centre away from under it
    t = table
    _laptop(t)
    _england_builds(t)
    view = t.window.view
    assert view.fitted
    it = t.window.interaction
    t.click("lvp")
    assert isinstance(it.mode, BuildMode) and it.mode.unit == "lvp"
    assert not t.window.target_zoom.zoomed and view.fitted and abs(view.zoom - 1.0) < 1e-6
    t.key("A")
    assert Build("england", "A", "lvp") in t.controller.game.orders_of("england")
    assert it.mode is IDLE and view.fitted
    # (a unit's small targets still call the magnifier: test_board_readable.py)


def _fleet_in_mid_atlantic(t: Table) -> None:
    c = t.controller
    game = Game.new(c.board)
    units = dict(game.state.units)
    units.pop("bre")
    units["mao"] = Unit("france", "F", "mao")
    game.state = game.state.evolve(units=units)
    c.replace_game(game)


def _name_point(t: Table, space: str) -> QPointF:
    item = t.window.scene.label_items[space]
    return item.mapToScene(item.text_rect().center())


def test_a_fleet_sent_to_spains_name_is_asked_the_coast(table: Table) -> None:
    # played: F Mao dropped on the name "Spain" became F Mao - Spa/sc without a question: the name
    # is drawn in the south coast's part, so a player meaning the north coast got a misorder
    t = table
    _laptop(t)
    _fleet_in_mid_atlantic(t)
    name = _name_point(t, "spa")
    assert t.geometry.space_at(name.x(), name.y()) == "spa"
    assert coast_part(t.geometry, "spa", name.x(), name.y()) is not None  # the name lies in one coast's part
    for gesture in ("click", "drop"):
        it = t.window.interaction
        it.set_mode(IDLE)
        if gesture == "click":
            t.click_unit("mao")
            t.click_scene(name)
        else:
            it.drop(t.window.scene.unit_items["mao"].pos(), name)
        assert isinstance(it.mode, CoastMode), gesture
        assert t.orders("france") == set(), gesture
        t.key("N")
        assert t.orders("france") == {"F Mao - Spa/nc"}, gesture
        t.controller.clear_order("france", "mao")
    # a click on the land of the south coast's part still takes that coast (issue 17, point 2)
    sc = t.geometry.unit_anchor("spa/sc")
    nc = t.geometry.unit_anchor("spa/nc")
    south = QPointF(sc[0] * 0.7 + nc[0] * 0.3, sc[1] * 0.7 + nc[1] * 0.3)
    t.window.interaction.set_mode(IDLE)
    t.click_unit("mao")
    t.click_scene(south)
    assert t.orders("france") == {"F Mao - Spa/sc"}


def test_projector_results_say_who_was_in_civil_disorder(table: Table) -> None:
    # played (F5 at 1920x1080): Turkey sealed no orders and was in civil disorder; the Results
    # panel said so, the projector's large results (what the table reads) did not
    t = table
    t.move("par", "bur")
    t.controller.adjudicate(disorder={"turkey"})
    t.window.projector.enter()
    QApplication.processEvents()
    panel = t.window.projector.panel
    assert panel is not None
    html = panel.text.toPlainText()
    assert "In civil disorder (rules XIV.1): Turkey" in html
    assert "civil disorder | Turkey" in panel.lines
    t.window.projector.leave()



def _no_tip() -> None:
    """No tooltip left from an earlier test: the next one is made anew (a visible tip is reused)."""
    from PySide6.QtCore import QEvent

    for w in QApplication.topLevelWidgets():
        if w.inherits("QTipLabel"):
            w.close()
            w.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


class _TipWatch:
    """The map's tooltips: those shown, and how often one was hidden."""

    def __init__(self) -> None:
        from PySide6.QtCore import QEvent, QObject

        self.hidden = 0
        watch = self

        class Filter(QObject):
            def eventFilter(self, watched: QObject, event: QEvent) -> bool:
                if event.type() == QEvent.Type.Hide and watched.inherits("QTipLabel"):
                    watch.hidden += 1
                return False

        self.filter = Filter()
        QApplication.instance().installEventFilter(self.filter)  # type: ignore[union-attr]

    def close(self) -> None:
        QApplication.instance().removeEventFilter(self.filter)  # type: ignore[union-attr]

    @staticmethod
    def tips() -> list[object]:
        return [w for w in QApplication.topLevelWidgets() if w.inherits("QTipLabel") and w.isVisible()]

    @staticmethod
    def lets_clicks_through(tip: object) -> bool:
        from PySide6.QtCore import Qt

        window = tip.windowHandle()  # type: ignore[attr-defined]
        return window is not None and bool(window.flags() & Qt.WindowType.WindowTransparentForInput)


def test_the_maps_tooltip_lets_a_click_through_to_the_map(table: Table) -> None:
    # played at 1366x768 under X: A Paris clicked, then "Bur" clicked gave no order and said
    # nothing: the tooltip of Paris stood over Burgundy's name, and the click only closed it.
    # Played again by clicks (issue 34): after A Ber - Kie the tip of Kiel stood over the army in
    # Munich and the click on it did nothing.  The tip was made click-through by the widget's flag,
    # which hides the tip and makes its native window anew, and under X (Qt's xcb plugin) the new
    # window still took clicks: the tip's own window gets the flag, in place, never hidden
    t = table
    t.on_a_laptop()
    _no_tip()
    view = t.window.view
    point = t.point_of("par")
    watch = _TipWatch()
    try:
        text = t.window.interaction.hover_at(point, view.viewport().mapToGlobal(t.screen_point(point)),
                                             view.viewport())
    finally:
        watch.close()
    assert text and "Paris" in text
    tips = watch.tips()
    assert tips, "no tooltip shown"
    assert all(watch.lets_clicks_through(w) for w in tips)
    assert watch.hidden == 0, "the tip was hidden and shown again (a new native window, which under X takes clicks)"


def test_a_units_own_tooltip_lets_a_click_through_to_the_map(table: Table) -> None:
    # the units and the order arrows have tooltips of their own, which the scene shows when the
    # pointer rests on them (not through the hover's tip): they too stand where the next click goes
    from PySide6.QtCore import QEvent
    from PySide6.QtGui import QHelpEvent

    t = table
    t.on_a_laptop()
    _no_tip()
    view = t.window.view
    unit = t.window.scene.unit_items["mun"]
    assert unit.toolTip()
    pos = t.screen_point(unit.pos())
    QApplication.sendEvent(view.viewport(), QHelpEvent(QEvent.Type.ToolTip, pos, view.viewport().mapToGlobal(pos)))
    tips = _TipWatch.tips()
    assert tips, "no tooltip shown"
    assert all(_TipWatch.lets_clicks_through(w) for w in tips)
