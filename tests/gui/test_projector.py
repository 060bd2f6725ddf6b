"""The projector view (issue 9): F5 in and out, Esc out, the window given back as it was, larger
units and names, the results (or the explanation panel) in large type."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QDockWidget, QTextBrowser, QVBoxLayout, QWidget
from window_harness import Table

from diplomacy_desktop.gui.orders.interaction import IDLE
from diplomacy_desktop.gui.teach.presentation import PANEL_POINTS, PROJECTOR_FACTOR


def _docks(t: Table) -> dict[str, bool]:
    return {d.objectName(): d.isVisible() for d in t.window.findChildren(QDockWidget)
            if d.objectName() != "ProjectorPanel"}


def _window_state(t: Table) -> tuple[object, ...]:
    w = t.window
    return (w.geometry(), w.isFullScreen(), w.menuBar().isVisible(), w.statusBar().isVisible(),
            w.hint_label.isVisible(), _docks(t), w.scene.unit_size, w.scene.label_factor, w.view.transform())


def _adjudicated_bounce(t: Table) -> None:
    t.move("par", "bur")
    t.move("mun", "bur")
    t.adjudicate()
    assert len(t.controller.game.history) == 1


def test_projector_f5_enters_and_f5_and_esc_leave_restoring_the_window(table: Table) -> None:
    t = table
    w = t.window
    _adjudicated_bounce(t)
    t.key(Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)  # a zoomed view, to be given back as it was
    before = _window_state(t)
    unit = w.scene.unit_size
    for leave in (Qt.Key.Key_F5, Qt.Key.Key_Escape):
        t.key(Qt.Key.Key_F5)
        QApplication.processEvents()
        assert w.projector.active and w.isFullScreen() and w.projector.act.isChecked()
        assert not w.menuBar().isVisible() and not w.statusBar().isVisible() and not w.hint_label.isVisible()
        assert not any(_docks(t).values())  # the panels are put away ...
        panel = w.projector.panel
        assert panel is not None and panel.isVisible()  # ... and the results come large
        assert "A Par - Bur | fails" in panel.lines and "A Mun - Bur | fails" in panel.lines
        assert panel.text.font().pointSize() == PANEL_POINTS
        assert w.scene.size_factor == PROJECTOR_FACTOR and w.scene.unit_size > unit
        assert w.view.zoom == 1.0  # the whole board
        t.key(leave)
        QApplication.processEvents()
        assert not w.projector.active and not w.projector.act.isChecked()
        assert _window_state(t) == before
        assert not panel.isVisible()


def test_projector_esc_first_takes_back_an_order_being_given(table: Table) -> None:
    t = table
    w = t.window
    t.key(Qt.Key.Key_F5)
    t.click_unit("par")
    assert w.interaction.mode is not IDLE
    t.key(Qt.Key.Key_Escape)
    assert w.interaction.mode is IDLE and w.projector.active  # one step back, still projecting
    t.key(Qt.Key.Key_Escape)
    assert not w.projector.active


def test_projector_results_panel_follows_the_phase_shown(table: Table) -> None:
    t = table
    w = t.window
    t.key(Qt.Key.Key_F5)
    panel = w.projector.panel
    assert panel is not None and panel.lines == [] and "Spring 1901" in panel.title.text()
    _adjudicated_bounce(t)  # orders given and adjudicated in the projector
    assert "A Par - Bur | fails" in panel.lines and "Results of Spring 1901" in panel.title.text()


class ExplanationDock(QDockWidget):
    """Stands in for gui/teach/explanations.py's panel (found by its class name)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__("Explanation", parent)
        self.setObjectName("ExplanationDock")
        body = QWidget()
        QVBoxLayout(body).addWidget(browser := QTextBrowser())
        browser.setPlainText("The army in Paris bounces: attack 1 against 1 (rule VI.4).")
        self.browser = browser
        self.setWidget(body)


def test_projector_shows_the_explanation_panel_large_when_there_is_one(table: Table) -> None:
    t = table
    w = t.window
    dock = ExplanationDock(w)
    w.add_panel(dock)
    dock.hide()
    size_before = dock.browser.font().pointSizeF()
    before = _window_state(t)
    t.key(Qt.Key.Key_F5)
    QApplication.processEvents()
    assert dock.isVisible() and dock.font().pointSize() == PANEL_POINTS
    assert dock.browser.font().pointSizeF() > size_before
    assert w.projector.panel is not None and not w.projector.panel.isVisible()
    assert [name for name, shown in _docks(t).items() if shown] == ["ExplanationDock"]
    t.key(Qt.Key.Key_F5)
    QApplication.processEvents()
    assert dock.font() == w.font() and dock.browser.font().pointSizeF() == size_before
    assert _window_state(t) == before and not dock.isVisible()


def test_projector_shows_the_real_explanation_large_only_while_it_explains(table: Table) -> None:
    t = table
    w = t.window
    _adjudicated_bounce(t)
    real = w.explanations
    t.key(Qt.Key.Key_F5)  # nothing explained yet: the results, large
    QApplication.processEvents()
    assert w.projector.panel is not None and w.projector.panel.isVisible() and not real.isVisible()
    t.key(Qt.Key.Key_F5)
    QApplication.processEvents()
    entry = t.controller.game.history[-1]
    par = next(r for r in entry.results if r.order.location == "par")  # type: ignore[attr-defined]
    real.show_result(entry, par)
    assert "Rule VIII" in real.explained_text()
    t.key(Qt.Key.Key_F5)  # explaining: the explanation, large
    QApplication.processEvents()
    assert real.isVisible() and real.font().pointSize() == PANEL_POINTS
    assert not w.projector.panel.isVisible()
    t.key(Qt.Key.Key_Escape)
    QApplication.processEvents()
    assert real.font().pointSize() != PANEL_POINTS


def test_projector_explanation_body_scales_with_the_screen(table: Table) -> None:
    """Issue 18: on the projector the explanation's body is at least 28 px per 1080 lines of
    screen (it stayed 12 pt while only the title grew); leaving gives the window's size back."""
    from PySide6.QtGui import QFontInfo

    from diplomacy_desktop.gui.teach.explanations import PROJECTOR_BODY_PX, projector_scale

    t = table
    w = t.window
    _adjudicated_bounce(t)
    real = w.explanations
    entry = t.controller.game.history[-1]
    par = next(r for r in entry.results if r.order.location == "par")  # type: ignore[attr-defined]
    real.show_result(entry, par)

    def body_px() -> int:
        """The pixel size of the text of a line of the body (its first fragment)."""
        doc = real.text.document()
        block = doc.findBlockByNumber(min(3, doc.blockCount() - 1))
        fragment = next(iter(block.begin())).fragment()
        return QFontInfo(fragment.charFormat().font()).pixelSize()

    before = body_px()
    t.key(Qt.Key.Key_F5)
    QApplication.processEvents()
    screen = w.screen()
    assert screen is not None
    lines = screen.geometry().height()
    assert real.text.scale == projector_scale(w) >= 1.0
    # at least 28 px per 1080 lines (never smaller than in the window)
    assert body_px() >= max(before, PROJECTOR_BODY_PX * lines / 1080 - 1)
    t.key(Qt.Key.Key_Escape)
    QApplication.processEvents()
    assert real.text.scale == 1.0 and body_px() == before
