"""Issue 17, a magnifier for crowded areas: the loupe follows the pointer, shows the board under it
larger, and lets clicks through to the point under its cross."""

from __future__ import annotations

from conftest import Table
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QMouseEvent, QPainter
from PySide6.QtWidgets import QApplication

from diplomacy_desktop.gui.board.loupe import MAGNIFICATION
from diplomacy_desktop.gui.orders.interaction import UnitMode


def _hover(t: Table, pos: QPoint) -> None:
    viewport = t.window.view.viewport()
    event = QMouseEvent(QEvent.Type.MouseMove, QPointF(pos), QPointF(viewport.mapToGlobal(pos)),
                        Qt.MouseButton.NoButton, Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(viewport, event)
    QApplication.processEvents()


def test_loupe_follows_the_pointer_and_magnifies_the_board_under_it(table: Table) -> None:
    t = table
    w = t.window
    w.resize(1366, 768)
    QApplication.processEvents()
    w.view.fit_to_window()
    loupe = w.loupe
    assert not loupe.isVisible()
    w.act_loupe.trigger()  # View > Loupe (Ctrl+G)
    assert loupe.active and w.act_loupe.isChecked()
    for space in ("hol", "ser", "wal"):
        pos = t.screen_point(t.point_of(space))
        _hover(t, pos)
        assert loupe.isVisible()
        assert loupe.geometry().center().x() in range(pos.x() - 1, pos.x() + 2)
        assert loupe.geometry().center().y() in range(pos.y() - 1, pos.y() + 2)
        centre = loupe.centre
        assert centre is not None and (centre - t.point_of(space)).manhattanLength() < 2 / w.view.transform().m11()
        source = loupe.source_rect()
        # the glass shows a part of the board MAGNIFICATION times smaller than its own size on screen
        assert abs(source.width() * w.view.transform().m11() * MAGNIFICATION - loupe.width()) < 1e-6
        assert source.contains(t.point_of(space))
        # ... drawn from the scene itself at that scale: what the glass shows is the scene's own picture
        shown = loupe.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
        expected = QImage(loupe.width(), loupe.height(), QImage.Format.Format_RGB32)
        expected.fill(QColor("#3C4650"))
        painter = QPainter(expected)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        w.scene.render(painter, QRectF(0, 0, loupe.width(), loupe.height()), source,
                       Qt.AspectRatioMode.IgnoreAspectRatio)
        painter.end()
        c = loupe.width() // 2
        # compare a ring of points between the cross and the rim
        same = total = 0
        for dx in range(-60, 61, 6):
            for dy in range(-60, 61, 6):
                if 15 < abs(dx) + abs(dy) and dx * dx + dy * dy < 70 * 70:
                    total += 1
                    a, b = shown.pixelColor(c + dx, c + dy), expected.pixelColor(c + dx, c + dy)
                    same += abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < 30
        assert same >= total * 0.95, (space, same, total)
    # leaving the map hides it; switching it off too
    QApplication.sendEvent(w.view.viewport(), QEvent(QEvent.Type.Leave))
    assert not loupe.isVisible()
    _hover(t, t.screen_point(t.point_of("bel")))
    assert loupe.isVisible()
    w.act_loupe.trigger()
    assert not loupe.active and not loupe.isVisible()


def test_loupe_lets_clicks_through_to_the_point_under_its_cross(table: Table) -> None:
    t = table
    w = t.window
    w.act_loupe.trigger()
    pos = t.screen_point(w.scene.unit_items["kie"].pos())
    _hover(t, pos)
    assert w.loupe.isVisible() and w.loupe.geometry().contains(pos)
    # the viewport, not the glass, is the widget under the pointer: the glass takes no mouse events
    assert w.view.viewport().childAt(pos) is None
    assert w.loupe.testAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    t.click_scene(w.scene.unit_items["kie"].pos())
    assert isinstance(w.interaction.mode, UnitMode) and w.interaction.mode.unit == "kie"
    _hover(t, t.screen_point(t.point_of("hol")))
    t.click("hol")
    assert t.orders("germany") == {"F Kie - Hol"}
