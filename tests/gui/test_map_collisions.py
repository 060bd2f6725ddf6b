"""Issue 34, finding 5: every name beside its own unit and nothing on the map over anything else.

Measured on the whole board in the real window, fitted to the view as the window does, at
1366x768 (also with a 32 px title bar and a 40 px taskbar) and 1920x1080: the starting position,
and positions with a unit in every space (armies on every coast, then fleets on every coast and
split coast) with dislodged units waiting beside a third of them.  What is measured is what is
drawn: a unit with its halo (a dislodged one with its ring and badge), a name's letters, a
supply-centre marker with its edge.  Then the short moves between neighbours, the support lines
and a build's ghost, as a table reads them across the room.
"""

from __future__ import annotations

import pytest
from conftest import Table
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QApplication

from diplomacy_desktop.engine.state import DislodgedUnit, GameState, Unit
from diplomacy_desktop.gui.board import palette
from diplomacy_desktop.gui.board.map_scene import BoardPicture, MapScene, OrderItem, UnitItem
from diplomacy_desktop.io.notation import parse_order

SIZES = [(1366, 768), (1366, 768 - 32 - 40), (1920, 1080)]


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


def _fit(t: Table, size: tuple[int, int]) -> None:
    t.window.resize(*size)
    _settle()
    t.window.view.fit_to_window()
    _settle()


def every_space_held(t: Table, fleets_on_coasts: bool) -> list[Unit]:
    """A unit in every space units may stand in: fleets at sea, armies inland, and on the coasts
    armies or fleets (split coasts: the first coast), powers taken in turn."""
    board = t.controller.board
    powers = list(board.power_ids)
    units = []
    for i, space in enumerate(sorted(s for s in board.spaces if "/" not in s)):
        coasts = sorted(loc for loc in board.fleet_moves if loc.startswith(space + "/"))
        fleet_at = coasts[0] if coasts else space if space in board.fleet_moves else None
        army = space in board.army_moves
        if fleet_at is None and not army:
            continue  # (a space no unit enters)
        fleet = fleet_at is not None and (board.is_sea(space) or fleets_on_coasts or not army)
        units.append(Unit(powers[i % len(powers)], "F" if fleet else "A", fleet_at if fleet and fleet_at else space))
    return units


def positions(t: Table) -> list[tuple[str, BoardPicture]]:
    start = t.controller.state
    found = [("start", BoardPicture(start))]
    for fleets in (False, True):
        units = every_space_held(t, fleets)
        state = GameState.build(start.board, start.phase, units, owners=start.owners)
        for part in range(8):  # a unit dislodged in every space, nine or ten of them at a time
            dislodged = tuple(DislodgedUnit(u) for i, u in enumerate(units) if i % 8 == part)
            name = f"{'fleets' if fleets else 'armies'} on the coasts, dislodged {part}"
            found.append((name, BoardPicture(state, displaced=dislodged)))
    return found


def drawn(scene: MapScene) -> tuple[list[tuple[str, QRectF]], list[tuple[str, QRectF]], list[tuple[str, QRectF]]]:
    """Names, units and markers as drawn (scene rectangles), each with what it is."""
    labels = [(f"name {s}", item.mapRectToScene(item.text_rect())) for s, item in scene.label_items.items()]
    units = [(f"unit {p}", item.mapRectToScene(item.token_rect())) for p, item in scene.unit_items.items()]
    units += [(f"dislodged {p}", item.mapRectToScene(item.token_rect())) for p, item in scene.displaced_items.items()]
    markers = [(f"centre {s}", item.mapRectToScene(item.token_rect())) for s, item in scene.centre_items.items()]
    return labels, units, markers


def collisions(scene: MapScene) -> list[tuple[str, str]]:
    labels, units, markers = drawn(scene)
    found = []
    pairs = [(labels, labels), (labels, units), (labels, markers), (units, units), (units, markers)]
    for group_a, group_b in pairs:
        for i, (a, ra) in enumerate(group_a):
            for b, rb in group_a[i + 1:] if group_a is group_b else group_b:
                if ra.intersects(rb):
                    found.append((a, b))
    return found


def _gap(a: QRectF, b: QRectF) -> float:
    dx = max(0.0, max(a.left(), b.left()) - min(a.right(), b.right()))
    dy = max(0.0, max(a.top(), b.top()) - min(a.bottom(), b.bottom()))
    return float((dx * dx + dy * dy) ** 0.5)


def beside_another_name(scene: MapScene) -> list[tuple[str, str]]:
    """Units with another province's name right beside them (within a quarter of a unit) and
    their own farther (Kiel's fleet drawn against "Ber", the army in Berlin beside "Kiel")."""
    labels = {s: item.mapRectToScene(item.text_rect()) for s, item in scene.label_items.items()}
    near = scene.unit_size * 0.25
    wrong = []
    for prov, item in scene.unit_items.items():
        rect = item.mapRectToScene(item.token_rect())
        own = _gap(rect, labels[prov])
        nearest = min((q for q in labels if q != prov), key=lambda q: _gap(rect, labels[q]))
        if _gap(rect, labels[nearest]) < min(own, near):
            wrong.append((prov, nearest))
    return wrong


@pytest.mark.parametrize("size", SIZES)
def test_nothing_on_the_whole_map_is_drawn_over_anything_else(table: Table, size: tuple[int, int]) -> None:
    _fit(table, size)
    scene = table.window.scene
    assert table.window.view.transform().m11() > 0.45  # the whole board, as a window shows it
    for name, picture in positions(table):
        scene.show_picture(picture)
        assert len(scene.unit_items) == len(picture.state.units) - len(picture.displaced), name
        assert len(scene.displaced_items) == len(picture.displaced), name
        assert collisions(scene) == [], name
        assert beside_another_name(scene) == [], name


def run_together(scene: MapScene) -> list[tuple[str, str, float]]:
    """Names on one line with less room between them than 0.4 of a letter's height: read
    from across the table as one word ("ParBur" at 1366x768, "BelHol", "PicBel": issue 34)."""
    names = [(s, item.mapRectToScene(item.text_rect())) for s, item in scene.label_items.items()]
    found = []
    for i, (a, ra) in enumerate(names):
        for b, rb in names[i + 1:]:
            height = min(ra.height(), rb.height())
            across = min(ra.bottom(), rb.bottom()) - max(ra.top(), rb.top())
            if across < height * 0.5:
                continue  # (one above the other, or apart: two lines)
            room = max(ra.left(), rb.left()) - min(ra.right(), rb.right())
            if room < height * 0.4:
                found.append((a, b, round(room / height, 2)))
    return found


@pytest.mark.parametrize("size", SIZES)
def test_no_two_names_on_a_line_run_together(table: Table, size: tuple[int, int]) -> None:
    _fit(table, size)
    scene = table.window.scene
    for name, picture in positions(table)[:3]:
        scene.show_picture(picture)
        assert run_together(scene) == [], name


# -- arrows, supports, builds --------------------------------------------------------------------

SHORT_MOVES = {"england": ["A lvp - yor"], "germany": ["A ber - kie", "A mun - ruh"], "italy": ["A rom - apu"]}


def _visible_length(item: OrderItem, covers: list[QRectF]) -> float:
    """How much of a move's line (and head) lies outside every unit drawn: sampled along it."""
    path = item.path
    steps = 200
    length = path.length()
    outside = sum(1 for i in range(steps + 1)
                  if not any(r.contains(path.pointAtPercent(i / steps)) for r in covers))
    return length * outside / (steps + 1)


@pytest.mark.parametrize("size", SIZES[::2])
def test_short_moves_between_neighbours_are_seen_outside_the_units(table: Table, size: tuple[int, int]) -> None:
    _fit(table, size)
    c = table.controller
    scene = table.window.scene
    orders = [parse_order(line, power, c.state) for power, lines in SHORT_MOVES.items() for line in lines]
    scene.show_picture(BoardPicture(c.state, tuple(orders)))
    covers = [item.mapRectToScene(item.drawn_rect()) for item in scene.unit_items.values()]
    for item in scene.order_items_of():
        visible = _visible_length(item, covers)
        # a shaft as long as a unit is wide, in the open
        assert visible >= scene.unit_size, (item.order, round(visible, 1))
        assert item.head is not None
        tip = item.head.boundingRect()
        assert not any(r.intersects(tip) for r in covers), item.order


def test_support_lines_are_as_readable_as_moves(table: Table) -> None:
    _fit(table, (1366, 768))
    c = table.controller
    scene = table.window.scene
    orders = [parse_order("A par - bur", "france", c.state), parse_order("A mar S A par - bur", "france", c.state),
              parse_order("F kie S A ber", "germany", c.state)]
    scene.show_picture(BoardPicture(c.state, tuple(orders)))
    scale = table.window.view.transform().m11()
    widths = {type(i.order).__name__: i.width for i in scene.order_items_of()}
    # at least 3 px of colour on the laptop's whole board, and not much thinner than a move
    assert widths["SupportMove"] * scale >= 3.0 and widths["SupportHold"] * scale >= 3.0
    assert widths["SupportMove"] >= 0.85 * widths["Move"]


def _coverage(item: UnitItem) -> tuple[int, int]:
    """Pixels a unit covers strongly (alpha over 200) drawn alone at 4x, and those of its own colour."""
    image = QImage(240, 240, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.translate(120, 120)
    painter.scale(4, 4)
    item.draw(painter)
    painter.end()
    colour = palette.power_colour(item.unit.power)
    strong = own = 0
    for y in range(0, 240, 2):
        for x in range(0, 240, 2):
            pixel = image.pixelColor(x, y)
            if pixel.alpha() > 200:
                strong += 1
                if abs(pixel.red() - colour.red()) + abs(pixel.green() - colour.green()) \
                        + abs(pixel.blue() - colour.blue()) < 30:
                    own += 1
    return strong, own


def test_a_builds_ghost_is_as_plain_to_see_as_a_unit(qapp: QApplication) -> None:
    for kind in ("A", "F"):
        unit = Unit("france", kind, "par")
        real = _coverage(UnitItem(unit, size=32))
        ghost = _coverage(UnitItem(unit, size=32, ghost=True))
        # as solid as a standing unit, in its full colour, and marked new around it
        assert ghost[0] >= real[0] * 1.1, (kind, ghost, real)
        assert ghost[1] >= real[1] * 0.95, (kind, ghost, real)


def test_drawn_extent_covers_what_a_unit_paints(qapp: QApplication) -> None:
    """The extent the tests above measure is the unit's whole drawing (halo, ring and badge)."""
    for kwargs in ({}, {"displaced": True}, {"ghost": True}):
        for kind in ("A", "F"):
            item = UnitItem(Unit("russia", kind, "mos"), size=32, **kwargs)  # type: ignore[arg-type]
            image = QImage(400, 400, QImage.Format.Format_ARGB32_Premultiplied)
            image.fill(Qt.GlobalColor.transparent)
            painter = QPainter(image)
            painter.translate(200, 200)
            painter.scale(2, 2)
            item.draw(painter)
            painter.end()
            rect = item.drawn_rect()
            painted = [(x, y) for y in range(400) for x in range(0, 400, 2) if image.pixelColor(x, y).alpha() > 60]
            for x, y in painted:
                point = QPointF((x - 200) / 2, (y - 200) / 2)
                assert rect.adjusted(-1, -1, 1, 1).contains(point), (kind, kwargs, point, rect)


def test_a_supply_centre_marker_is_a_star_not_a_small_unit(qapp: QApplication) -> None:
    """An owned marker used to be a disc in its owner's colour with the owner's letter: a small
    army.  It is a star: it covers well under its whole round extent (a disc: all of it)."""
    from diplomacy_desktop.gui.board.map_scene import CentreItem

    for owner in ("france", None):
        item = CentreItem("par", owner, size=1.5)
        image = QImage(200, 200, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.translate(100, 100)
        painter.scale(6, 6)
        item.paint(painter, None)  # type: ignore[arg-type]
        painter.end()
        r = item.token_rect().width() / 2 * 6
        inside = painted = 0
        for y in range(200):
            for x in range(200):
                if (x - 100) ** 2 + (y - 100) ** 2 <= r * r:
                    inside += 1
                    painted += image.pixelColor(x, y).alpha() > 128
        assert 0.25 < painted / inside < 0.7, (owner, painted / inside)


# -- a name in another land province reads as that province's --------------------------------------

#: where the units stand after the usual openings (Fall 1901 of bench/table_entry.py's table)
AFTER_OPENINGS = {"austria": ["A gal", "A ser", "F alb"], "england": ["F nth", "F nwg", "A yor"],
                  "france": ["A bur", "A spa", "F mao"], "germany": ["A kie", "A ruh", "F den"],
                  "italy": ["A tyr", "A apu", "F ion"], "russia": ["A ukr", "A war", "F bla", "F bot"],
                  "turkey": ["A bul", "A con", "F ank"]}


def names_in_other_land(scene: MapScene) -> list[tuple[str, str]]:
    """Names whose middle lies inside another land province ("Paris" drawn in Burgundy beside the
    army there, "Bel" in Munich, "Kiel" in Berlin): (name, the province it stands in)."""
    land = {s: scene.art.outline(s) for s, item in scene.label_items.items() if not item.spec.italic}
    found = []
    for space, item in scene.label_items.items():
        middle = item.mapRectToScene(item.text_rect()).center()
        found += [(space, other) for other, outline in land.items()
                  if other != space and not outline.isEmpty() and outline.contains(middle)]
    return found


@pytest.mark.parametrize("size", SIZES)
def test_no_name_stands_in_another_land_province(table: Table, size: tuple[int, int]) -> None:
    _fit(table, size)
    scene = table.window.scene
    start = table.controller.state
    units = [Unit(power, line[0], line[2:]) for power, lines in AFTER_OPENINGS.items() for line in lines]
    after = GameState.build(start.board, start.phase, units, owners=start.owners)
    for name, picture in [("start", BoardPicture(start)), ("after the openings", BoardPicture(after))]:
        scene.show_picture(picture)
        assert names_in_other_land(scene) == [], (name, names_in_other_land(scene))
        assert collisions(scene) == [], name
