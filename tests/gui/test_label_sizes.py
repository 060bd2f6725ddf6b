"""Issues 17 and 18: every province's name measured on screen, in the window at 1366x768 (12 px at
least) and on the projector at 1920x1080 (20 px at least), the whole board on screen with no
scroll bars, no name cut off and no two names over each other."""

from __future__ import annotations

import pytest
from conftest import Table
from PySide6.QtCore import QRectF
from PySide6.QtGui import QFont, QFontMetricsF
from PySide6.QtWidgets import QApplication

from diplomacy_desktop.gui.board.map_scene import LabelItem


def _settle(t: Table) -> None:
    for _ in range(3):
        QApplication.processEvents()


def projector_at_1080(t: Table) -> None:
    """The projector (on) shown on a 1920x1080 screen: the offscreen platform's screen is small,
    so a window of the projector's screen's size stands in."""
    w = t.window
    w.showNormal()
    _settle(t)
    w.setGeometry(0, 0, 1920, 1080)
    _settle(t)
    w.view.fit_to_window()
    _settle(t)
    assert w.projector.active and w.explanations.isVisible()


def _font(item: LabelItem) -> QFont:
    font = QFont("DejaVu Sans")
    font.setPixelSize(max(1, round(item.font_size)))
    font.setBold(item.spec.bold)
    font.setItalic(item.spec.italic)
    return font


def label_heights(t: Table) -> dict[str, float]:
    """Each name's height on screen in pixels: its font's pixel size (the em) and its capitals'
    height measured by QFontMetrics, through the view's transform; the smaller of the two per
    name is not what is asserted: the em is (a "12 px" name), the capitals must be 70 % of it."""
    view = t.window.view
    scale = view.transform().m11()
    assert abs(scale - view.transform().m22()) < 1e-9  # no stretch
    heights = {}
    for space, item in t.window.scene.label_items.items():
        metrics = QFontMetricsF(_font(item))
        px = max(1, round(item.font_size))  # the font's pixel size in map units
        assert metrics.capHeight() >= 0.7 * px, space
        # what Qt draws: the path's own glyph height per line, mapped to the screen
        lines = getattr(item, "text", item.spec.text).count("\n") + 1
        drawn = view.mapFromScene(item.mapRectToScene(item.text_rect())).boundingRect().height()
        assert drawn >= metrics.capHeight() * scale * lines - 2, space
        heights[space] = px * scale
    return heights


def every_province(t: Table) -> set[str]:
    board = t.controller.board
    return {s for s in board.spaces if "/" not in s}


def _on_screen(t: Table) -> None:
    """The whole board and every name are inside the map's viewport; no scroll bars; no overlaps."""
    view = t.window.view
    vp = view.viewport().rect()
    assert not view.horizontalScrollBar().isVisible() and not view.verticalScrollBar().isVisible()
    board = view.mapFromScene(view.sceneRect()).boundingRect()
    assert vp.adjusted(-1, -1, 1, 1).contains(board), (board, vp)
    rects: list[tuple[str, QRectF]] = []
    for space, item in t.window.scene.label_items.items():
        rect = item.mapRectToScene(item.text_rect())
        shown = view.mapFromScene(rect).boundingRect()
        assert vp.contains(shown), (space, shown, vp)
        rects.append((space, rect))
    overlapping = [(a, b) for i, (a, ra) in enumerate(rects) for b, rb in rects[i + 1:] if ra.intersects(rb)]
    assert not overlapping


@pytest.mark.parametrize("size", [(1366, 768), (1366, 740)])
def test_every_name_is_at_least_12_px_in_the_window_at_1366_by_768(table: Table, size: tuple[int, int]) -> None:
    t = table
    t.window.resize(*size)
    _settle(t)
    t.window.view.fit_to_window()
    _settle(t)
    heights = label_heights(t)
    assert every_province(t) <= set(heights)
    small = {s: round(h, 1) for s, h in heights.items() if h < 12.0}
    assert not small, small
    _on_screen(t)
    _letters_at_least(t, 12.0)


def _letters_at_least(t: Table, px: float) -> None:
    """Every unit's letter (its font's pixel size through the view) is at least ``px`` high."""
    scale = t.window.view.transform().m11()
    small = {p: u.letter_px * scale for p, u in t.window.scene.unit_items.items() if u.letter_px * scale < px}
    assert not small, small


def test_every_name_is_at_least_20_px_on_the_projector_at_1920_by_1080(table: Table) -> None:
    t = table
    w = t.window
    t.move("par", "bur")
    t.move("mun", "bur")
    t.adjudicate()
    entry = t.controller.game.history[-1]
    par = next(r for r in entry.results if getattr(r.order, "location", "") == "par")
    w.explanations.show_result(entry, par)
    w.projector.enter()
    _settle(t)
    projector_at_1080(t)
    heights = label_heights(t)
    assert every_province(t) <= set(heights)
    small = {s: round(h, 1) for s, h in heights.items() if h < 20.0}
    assert not small, small
    _on_screen(t)
    _letters_at_least(t, 20.0)
    # and at 1366x768, names scale with the screen (20 px per 1080 lines) and all fit
    w.setGeometry(0, 0, 1366, 768)
    _settle(t)
    w.view.fit_to_window()
    _settle(t)
    heights = label_heights(t)
    assert min(heights.values()) >= 20.0 * 768 / 1080 - 0.05
    _on_screen(t)
    w.projector.leave()
    _settle(t)
    assert t.window.scene.label_min_px == 12.0


def test_names_grow_with_the_view_when_zoomed(table: Table) -> None:
    t = table
    t.window.resize(1366, 768)
    _settle(t)
    t.window.view.fit_to_window()
    _settle(t)
    before = label_heights(t)
    t.window.view.zoom_by(2.0)
    _settle(t)
    after = label_heights(t)
    assert all(after[s] > before[s] for s in before), {s: (before[s], after[s]) for s in before if after[s] <= before[s]}
