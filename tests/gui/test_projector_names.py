"""Issue i32: the projector's names (F5, the explanation panel open) on a map about 1,240 px wide
at 1920x1080 (and 870 px at 1366x768): 37 of 76 names were drawn away from their provinces with a
leader line, up to 310 px long, and some stood inside another province ("Tun" over Italy, "Paris"
in the sea off southern France, "Tyr" in Spain), read there as that province's name.

Measured on the map as the projector shows it, with DATC 6.E.13 explained (its units standing):
no name's middle lies inside another province's outline (land or sea), and no leader line is longer
than :data:`MAX_LEADER_PX` screen pixels per 1080 lines, about four and a half of the projector's
names' heights (33 px at 1080 lines; the layout keeps its lines within three, a name pushed off a
unit may go half as far again): a line that long still points plainly at the province beside the
name, while the old lines of 200-310 px crossed two or three provinces on their way."""

from __future__ import annotations

import math

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from teach_cases import adjudicate, load_case
from test_label_sizes import _settle
from window_harness import Table

from diplomacy_desktop.gui.teach import explanations, presentation
from diplomacy_desktop.gui.teach.explanations import PROJECTOR_BODY_PX

#: the longest leader line allowed, in screen pixels at 1080 lines (scaled to the screen's lines)
MAX_LEADER_PX = 150.0


def _projecting(t: Table, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """DATC 6.E.13's fleet in the North Sea explained (the longest explanation), then F5 on a
    screen of ``size`` (the offscreen platform's screen is small: a window of that size stands in)."""
    w = t.window
    screen = w.screen()
    dpi = screen.logicalDotsPerInchY() if screen is not None else 96.0
    lines = size[1]

    def scale_for_lines(widget: object, base_points: float = explanations.BODY_POINTS) -> float:
        return max(1.0, PROJECTOR_BODY_PX * lines / 1080 / (base_points * dpi / 72))

    monkeypatch.setattr(explanations, "projector_scale", scale_for_lines)
    monkeypatch.setattr(presentation, "projector_scale", scale_for_lines)
    load_case(t, "6.E.13")
    adjudicate(t)
    entry = t.controller.game.history[-1]
    nth = next(r for r in entry.results if getattr(r.order, "province", "") == "nth")
    w.explanations.show_result(entry, nth)
    t.key(Qt.Key.Key_F5)
    _settle(t)
    w.showNormal()
    _settle(t)
    w.setGeometry(0, 0, *size)
    _settle(t)
    w.view.fit_to_window()
    _settle(t)
    assert w.projector.active and w.explanations.isVisible()


def _leader_px(rect: QRectF, end: QPointF, scale: float) -> float:
    dx = max(rect.left() - end.x(), 0.0, end.x() - rect.right())
    dy = max(rect.top() - end.y(), 0.0, end.y() - rect.bottom())
    return math.hypot(dx, dy) * scale


def measure(t: Table) -> tuple[list[str], float, list[tuple[str, str]]]:
    """The names drawn with a leader line, the longest line (screen px) and the names whose middle
    stands in another province: (name, that province)."""
    scene = t.window.scene
    scale = t.window.view.transform().m11()
    outlines = {s: scene.art.outline(s) for s in scene.label_items}
    displaced, longest, foreign = [], 0.0, []
    for space, item in scene.label_items.items():
        rect = item.mapRectToScene(item.text_rect())
        if item.leader is not None:
            displaced.append(space)
            longest = max(longest, _leader_px(rect, item.leader, scale))
        middle = rect.center()
        foreign += [(space, other) for other, outline in outlines.items()
                    if other != space and not outline.isEmpty() and outline.contains(middle)]
    return displaced, longest, foreign


@pytest.mark.parametrize("size", [(1920, 1080), (1366, 768)])
def test_projector_names_stand_in_or_near_their_own_province(table: Table, monkeypatch: pytest.MonkeyPatch,
                                                             size: tuple[int, int]) -> None:
    _projecting(table, monkeypatch, size)
    displaced, longest, foreign = measure(table)
    assert not foreign, foreign
    assert longest <= MAX_LEADER_PX * size[1] / 1080, (round(longest), displaced)
