"""Issue 17, a board readable from 1.5 m: units and arrows stand out on their own power's colour,
unit letters are 12 px at least at 1366x768, and a magnifier for crowded areas."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath
from PySide6.QtWidgets import QApplication, QGraphicsScene
from window_harness import Table

from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.engine.state import Unit
from diplomacy_desktop.gui.board import palette
from diplomacy_desktop.gui.board.map_scene import LETTER_RATIO, OrderItem, UnitItem

#: the land of the board's art (a pale sand) under a power's translucent ownership fill
LAND = QColor("#EFE6D2")
#: WCAG 2.1, 1.4.11 non-text contrast: graphical objects need 3:1 against what is next to them
NON_TEXT = 3.0

POWERS = ("austria", "england", "france", "germany", "italy", "russia", "turkey")


def _luminance(c: QColor) -> float:
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF())


def _contrast(a: QColor, b: QColor) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _own_land(power: str) -> QColor:
    """The ownership fill over the land, as painted on the board."""
    fill = palette.ownership_colour(power)
    a = fill.alphaF()
    return QColor.fromRgbF(*(a * f + (1 - a) * g for f, g in zip(fill.getRgbF()[:3], LAND.getRgbF()[:3], strict=True)))


def _render(item: object, ground: QColor, size: int = 120) -> QImage:
    scene = QGraphicsScene()
    scene.addItem(item)  # type: ignore[arg-type]
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(ground)
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, size, size), QRectF(-size / 2, -size / 2, size, size))
    painter.end()
    scene.removeItem(item)  # type: ignore[arg-type]
    return image


def _edge_contrast(image: QImage, ground: QColor, y: int, x0: int, x1: int) -> float:
    """The best contrast with the ground along a row, from outside the item inwards."""
    return max(_contrast(image.pixelColor(x, y), ground) for x in range(x0, x1))


def test_units_stand_out_on_their_own_powers_colour(qapp: QApplication) -> None:
    for power in POWERS:
        for kind in ("A", "F"):
            # the power's own land as the board shows it, and its full colour (a unit on a unit)
            for ground in (_own_land(power), palette.power_colour(power)):
                image = _render(UnitItem(Unit(power, kind, "par"), size=32.0), ground)
                # left of the unit's body, across its rim: a ring of strong contrast (dark or light)
                assert _edge_contrast(image, ground, 60, 20, 48) >= NON_TEXT, (power, kind, ground.name())


def _ring_contrast(power: str, kind: str, ground: QColor, scale: float) -> float:
    """How a unit stands out on ``ground`` as drawn at ``scale`` screen pixels per map unit: around
    its outline (16 sectors), the best contrast with the ground within 2 screen pixels outside its
    body, and of those the median sector's (a ring seen around most of the unit, not one spot)."""
    import math

    from PySide6.QtGui import QTransform

    item = UnitItem(Unit(power, kind, "par"), size=32.0)
    n = 64
    scene = QGraphicsScene()
    scene.addItem(item)
    image = QImage(n, n, QImage.Format.Format_ARGB32)
    image.fill(ground)
    painter = QPainter(image)
    side = n / scale
    scene.render(painter, QRectF(0, 0, n, n), QRectF(-side / 2, -side / 2, side, side))
    painter.end()
    scene.removeItem(item)
    body = QTransform().translate(n / 2, n / 2).scale(scale, scale).map(item.shape())
    inside = {(x, y) for x in range(n) for y in range(n) if body.contains(QPointF(x + 0.5, y + 0.5))}
    sectors = [1.0] * 16
    for x in range(n):
        for y in range(n):
            if (x, y) in inside:
                continue
            if not any((x + dx, y + dy) in inside for dx in (-2, -1, 0, 1, 2) for dy in (-2, -1, 0, 1, 2)
                       if dx * dx + dy * dy <= 4):
                continue
            sector = int((math.atan2(y + 0.5 - n / 2, x + 0.5 - n / 2) + math.pi) / (2 * math.pi) * 16) % 16
            sectors[sector] = max(sectors[sector], _contrast(image.pixelColor(x, y), ground))
    return sorted(sectors)[len(sectors) // 2]


def test_units_are_ringed_in_contrast_on_their_own_powers_colour_at_screen_size(qapp: QApplication) -> None:
    """At the whole board's scale on a 1366x768 screen (0.52 pixel per map unit), every power's army
    and fleet, on its own land and on its full colour, has a ring of 3:1 contrast around most of it
    (a white halo alone melted into pale ground and a thin dark line into dark ground)."""
    weak = {}
    for power in POWERS:
        for kind in ("A", "F"):
            for ground in (_own_land(power), palette.power_colour(power)):
                c = _ring_contrast(power, kind, ground, 0.52)
                if c < NON_TEXT:
                    weak[(power, kind, ground.name())] = round(c, 2)
    assert not weak, weak


def test_move_arrows_stand_out_on_their_own_powers_colour(qapp: QApplication) -> None:
    for power in POWERS:
        ground = _own_land(power)
        path = QPainterPath(QPointF(-50, 0))
        path.lineTo(QPointF(50, 0))
        item = OrderItem(Move(power, "A", "par", "bur"), path, "move", scale=1.28)
        image = _render(item, ground)
        assert max(_contrast(image.pixelColor(60, y), ground) for y in range(48, 61)) >= NON_TEXT, power


def test_unit_letters_are_at_least_12_px_at_1366_by_768(table: Table) -> None:
    t = table
    t.window.resize(1366, 768)
    QApplication.processEvents()
    t.window.view.fit_to_window()
    QApplication.processEvents()
    scene = t.window.scene
    item = scene.unit_items["par"]
    letter_px = item.letter_px * scene.view_scale
    assert letter_px >= 12.0, letter_px
    assert item.letter_px >= round(item.size * LETTER_RATIO)


def test_magnifier_zooms_to_small_targets_and_back(table: Table) -> None:
    t = table
    view = t.window.view
    zoom = t.window.target_zoom
    t.on_a_laptop()
    assert view.fitted
    t.click_unit("kie")  # Holland, Helgoland Bight, Denmark: small on a laptop's whole board
    assert zoom.zoomed and view.zoom > 1.25
    # every target is on screen, larger than before
    for space in t.window.interaction.mode.lit:
        x, y = t.geometry.unit_anchor(space)
        assert view.viewport().rect().contains(view.mapFromScene(QPointF(x, y))), space
    t.click("hol")
    assert t.orders("germany") == {"F Kie - Hol"}
    assert not zoom.zoomed and view.fitted and abs(view.zoom - 1.0) < 1e-6


def test_magnifier_leaves_the_board_still_during_a_drag(table: Table) -> None:
    t = table
    view = t.window.view
    t.on_a_laptop()
    it = t.window.interaction
    start = t.window.scene.unit_items["kie"].pos()
    it.drag_to(start, start + QPointF(20, 0))
    assert not t.window.target_zoom.zoomed and view.fitted
    it.drop(start, QPointF(*t.geometry.unit_anchor("den")))
    assert t.orders("germany") == {"F Kie - Den"}
    _ = Qt


def test_names_are_at_least_12_px_at_1366_by_768_crowded_too(table: Table) -> None:
    """Every name, crowded ones too (they used to shrink to 7-11 px: Ruhr, Holland, the Channel ...);
    tests/gui/test_label_sizes.py measures them through the view at both screen sizes."""
    t = table
    t.window.resize(1366, 768)
    QApplication.processEvents()
    t.window.view.fit_to_window()
    QApplication.processEvents()
    scene = t.window.scene
    sizes = {space: item.font_size * scene.view_scale for space, item in scene.label_items.items()}
    assert all(px >= 12.0 for px in sizes.values()), {s: px for s, px in sizes.items() if px < 12}


def _render_at(item: object, ground: QColor, view_scale: float, size: int = 120) -> QImage:
    """``item`` drawn as the view draws it at ``view_scale`` screen pixels per map unit."""
    scene = QGraphicsScene()
    scene.addItem(item)  # type: ignore[arg-type]
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(ground)
    painter = QPainter(image)
    source = size / view_scale
    scene.render(painter, QRectF(0, 0, size, size), QRectF(-source / 2, -source / 2, source, source))
    painter.end()
    scene.removeItem(item)  # type: ignore[arg-type]
    return image


def test_move_arrows_have_a_3_to_1_edge_at_the_whole_boards_screen_scale(qapp: QApplication) -> None:
    """At the whole board's scale on a 1366x768 screen (0.52 pixel per map unit) and a little
    larger, every power's move arrow, on its own land and on its full colour, has an edge of 3:1
    contrast across it: its dark outline and pale edge keep a least on-screen width (at the design
    width they fell to about a pixel each and antialiasing left 2.2-2.9:1)."""
    weak = {}
    for view_scale in (0.52, 0.75):
        for power in POWERS:
            for ground in (_own_land(power), palette.power_colour(power)):
                path = QPainterPath(QPointF(-50, 0))
                path.lineTo(QPointF(50, 0))
                item = OrderItem(Move(power, "A", "par", "bur"), path, "move", scale=1.28)
                image = _render_at(item, ground, view_scale)
                best = max(_contrast(image.pixelColor(60, y), ground) for y in range(120))
                if best < NON_TEXT:
                    weak[(view_scale, power, ground.name())] = round(best, 2)
    assert not weak, weak
