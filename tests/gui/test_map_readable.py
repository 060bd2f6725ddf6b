"""A map a table can read from across the room: ownership, arrows, results, sizes, the window."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QApplication
from shapely.geometry import LineString, Point
from window_harness import Table, shared_geometry

from diplomacy_desktop.engine.rules import RuleSet
from diplomacy_desktop.gui.board import palette
from diplomacy_desktop.gui.board.map_scene import (
    MIN_SHAFT,
    BoardPicture,
    LabelItem,
    MapScene,
    OrderItem,
    sizes_for_scale,
)
from diplomacy_desktop.gui.board.render import _picture_from_scenario
from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.gui.main_window import MainWindow, first_window_rect
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.notation import parse_order
from diplomacy_desktop.resources import map_file

CONVOY_AND_DISLODGE = """\
CASE convoy through the Ionian, a dislodgement with supports
PRESTATE_SETPHASE Spring 1902, Movement
PRESTATE_SUPPLYCENTER_OWNERS
    France: spa
    Russia: swe
    Russia: rum
PRESTATE
    Italy: A apu
    Italy: F ion
    Italy: F tys
    Austria: A ser
    Austria: A bud
    Austria: A gal
    Russia: A rum
    England: A lvp
ORDERS
    Italy: A apu - tun
    Italy: F ion C A apu - tun
    Italy: F tys H
    Austria: A ser - rum
    Austria: A bud S A ser - rum
    Austria: A gal S A ser - rum
    Russia: A rum H
    England: A lvp - yor
END
"""


def play(c: GameController, orders: dict[str, list[str]]) -> None:
    for power, lines in orders.items():
        for line in lines:
            c.set_order(parse_order(line, power, c.state))
    c.adjudicate()
    c.view_phase(None)  # back to the current phase (the window shows the results first)


SPRING_1901 = {"france": ["A mar - spa"], "russia": ["F stp/sc - bot"], "england": ["F edi - nwg"]}
FALL_1901 = {"france": ["A spa H"], "russia": ["F bot - swe"], "england": ["F nwg - nwy"]}


@pytest.fixture
def scene(qapp: QApplication) -> MapScene:
    board = load_board("standard")
    c = GameController()
    return MapScene(shared_geometry(c), map_file(board.name, f"{board.name}.svg"), sharpen=False)


def scenario_picture() -> BoardPicture:
    board = load_board("standard")
    picture = _picture_from_scenario(CONVOY_AND_DISLODGE, board, None, True, RuleSet.for_edition("classic"))
    assert isinstance(picture, BoardPicture)
    return picture


def item_for(scene: MapScene, text_province: str) -> OrderItem:
    items = [i for i in scene.order_items_of() if getattr(i.order, "province", None) == text_province]
    assert len(items) == 1, text_province
    return items[0]


# -- centre ownership -------------------------------------------------------------------------


def test_scene_owned_centre_fills_its_province_in_the_owners_colour(table: Table) -> None:
    t = table
    scene = t.window.scene
    # at the start: home centres in their power's colour, neutral ones unfilled
    assert scene.owner_fill("par") == palette.ownership_colour("france")
    assert scene.owner_fill("mos") == palette.ownership_colour("russia")
    assert scene.owner_fill("spa") is None and scene.owner_fill("swe") is None
    assert scene.centre_items["spa"].owner is None
    play(t.controller, SPRING_1901)
    play(t.controller, FALL_1901)  # captured centres change hands after the fall
    for centre, power in (("spa", "france"), ("swe", "russia"), ("nwy", "england")):
        assert scene.owner_fill(centre) == palette.ownership_colour(power), centre
        assert scene.centre_items[centre].owner == power
        fill = scene.ownership_items[centre]
        # the whole province is filled, not a dot: the fill covers the province's own outline
        assert fill.path().boundingRect() == scene.art.outline(centre).boundingRect()
        assert fill.path().boundingRect().width() > 40
    assert scene.owner_fill("bel") is None
    # browsing history shows the ownership of the phase looked at
    t.controller.view_phase(0)
    assert scene.owner_fill("spa") is None and scene.owner_fill("swe") is None
    t.controller.view_phase(None)
    assert scene.owner_fill("spa") == palette.ownership_colour("france")


def test_scene_ownership_colours_keep_the_colour_blind_palette_and_letters() -> None:
    for power, style in palette.POWER_STYLES.items():
        colour = palette.ownership_colour(power)
        assert colour.rgb() == palette.power_colour(power).rgb()  # the same Tol colour, translucent
        assert 0 < colour.alpha() < 255
        assert style.letter and palette.power_letter(power) == style.letter


# -- arrows -----------------------------------------------------------------------------------


def test_order_items_have_a_dark_outline_wider_than_their_stroke(scene: MapScene) -> None:
    scene.show_picture(scenario_picture())
    items = scene.order_items_of()
    assert {i.style for i in items} >= {"move", "support", "convoy", "hold"}
    for item in items:
        pen = item.outline_pen()
        assert pen.widthF() >= item.width + 2.5 * item.scale_factor, item.order
        assert pen.color().lightness() < 40, item.order


def test_support_and_convoy_lines_are_drawn_unlike_moves(scene: MapScene) -> None:
    scene.show_picture(scenario_picture())
    move = item_for(scene, "apu")
    support = item_for(scene, "bud")
    convoy = item_for(scene, "ion")
    assert not move.outline_pen().dashPattern() or move.failed
    assert support.outline_pen().dashPattern() and convoy.outline_pen().dashPattern()
    assert support.outline_pen().dashPattern() != convoy.outline_pen().dashPattern()
    # the support ends on the supported move's arrow
    supported = item_for(scene, "ser")
    tip = support.path.pointAtPercent(1.0)
    nearest = min((supported.path.pointAtPercent(i / 100) - tip).manhattanLength() for i in range(101))
    assert nearest < 2.0


def test_short_move_has_a_shaft_of_at_least_the_minimum(scene: MapScene) -> None:
    for scale in (0.4, 0.75, 2.0):
        scene.set_view_scale(scale)
        scene.show_picture(scenario_picture())
        arrow = item_for(scene, "lvp")
        k = scene.unit_scale
        assert arrow.shaft_length() >= MIN_SHAFT * k
        # what shows of the line (outside the unit it leaves, before the head) is a shaft too
        unit = scene.unit_items["lvp"]
        samples = [arrow.path.pointAtPercent(i / 400) for i in range(401)]
        outside = sum(not unit.contains(unit.mapFromScene(p)) for p in samples) / len(samples)
        assert outside * arrow.shaft_length() - 12.0 * k >= MIN_SHAFT * k * 0.75


# -- results ----------------------------------------------------------------------------------


def test_convoy_is_drawn_through_the_sea_of_the_fleet_that_carried_it(scene: MapScene) -> None:
    picture = scenario_picture()
    assert picture.results[("italy", "apu")].route == ("ion",)  # the adjudicator's record
    scene.show_picture(picture)
    geometry = scene.geometry
    arrow = item_for(scene, "apu")
    assert scene.convoy_route(arrow.order) == ("ion",)  # type: ignore[arg-type]
    points = [arrow.path.pointAtPercent(i / 200) for i in range(201)]
    inside = {sea: sum(geometry.polygon(sea).contains(Point(p.x(), p.y())) for p in points) for sea in ("ion", "tys")}
    assert inside["ion"] > 40
    assert inside["tys"] == 0


def test_dislodged_unit_is_marked_on_itself_not_at_a_support_tip(scene: MapScene) -> None:
    picture = scenario_picture()
    scene.show_picture(picture)
    assert "rum" in scene.displaced_items
    unit = scene.displaced_items["rum"]
    assert unit.displaced and unit.dislodged_by == "ser"
    # drawn beside its space's anchor but still inside its own province
    assert scene.art.outline("rum").contains(unit.pos())
    assert unit.pos() != scene.anchor("rum")
    assert "dislodged" in unit.toolTip()
    # by whom: the attack came from Serbia (not "dislodged from Serbia", read in the window as
    # the unit's own old place: "England fleet in Brest (dislodged from Paris)")
    assert unit.toolTip().endswith("(dislodged by the attack from Serbia)")
    # the badge is drawn by the unit itself, inside its own bounds
    assert unit.boundingRect().contains(unit.badge_point())
    # its hold order carries no cross, and no cross sits at the tip of a support
    assert item_for(scene, "rum").cross_at is None
    tips = [item_for(scene, p).path.pointAtPercent(1.0) for p in ("bud", "gal")]
    crosses = [i.cross_at for i in scene.order_items_of() if i.cross_at is not None]
    for tip in tips:
        for cross in crosses:
            assert (tip - cross).manhattanLength() > scene.unit_size
    # the supports succeeded and are drawn so
    assert not item_for(scene, "bud").failed and not item_for(scene, "gal").failed


# -- sizes ------------------------------------------------------------------------------------


def test_units_and_labels_keep_a_readable_size_on_screen(scene: MapScene) -> None:
    shown = []
    for scale in (0.5, 0.75, 1.0, 2.0, 4.0):
        unit, label = sizes_for_scale(scale)
        shown.append((unit * scale, label * 14.5 * scale))
    # on screen, units and labels never shrink as the view grows
    assert shown == sorted(shown)
    # a whole board on a 1920x1080 screen (about 0.75 pixel per map unit): units of 24 px at least
    unit, label = sizes_for_scale(0.75)
    assert unit * 0.75 >= 24 and label * 14.5 * 0.75 >= 13
    # the scene follows the view: a smaller view draws bigger units and labels on the board
    scene.show_picture(scenario_picture())
    scene.set_view_scale(1.5)
    small_unit = scene.unit_items["apu"].size
    small_label = scene.label_items["apu"].text_rect().height()
    scene.set_view_scale(0.5)
    assert scene.unit_items["apu"].size > small_unit
    assert scene.label_items["apu"].text_rect().height() > small_label


CROWDED = """\
CASE units where the names were covered
PRESTATE
    Russia: A rum
    France: A spa
    Russia: A war
    Germany: A mun
    England: A lvp
    England: A yor
    Russia: F swe
    Germany: A hol
    France: A bel
    England: F edi
    England: A cly
    Italy: A apu
    Italy: A nap
    Austria: A boh
    Germany: A sil
ORDERS
END
"""


@pytest.mark.parametrize("scale", [0.45, 0.75, 1.2])
def test_labels_are_clear_of_their_units(scene: MapScene, scale: float) -> None:
    board = load_board("standard")
    picture = _picture_from_scenario(CROWDED, board, None, False, RuleSet.for_edition("classic"))
    assert isinstance(picture, BoardPicture)
    scene.set_view_scale(scale)
    scene.show_picture(picture)
    assert len(scene.unit_items) == 15
    for prov, item in scene.unit_items.items():
        label = scene.label_items[prov]
        unit_rect = item.mapRectToScene(item.shape().boundingRect())
        text = label.mapRectToScene(label.text_rect())
        assert not unit_rect.intersects(text), prov
        assert label.zValue() > item.zValue()  # and drawn above units wherever they meet
    # neighbours close together still get units that do not overlap
    for a, b in (("lvp", "yor"), ("cly", "edi"), ("apu", "nap"), ("boh", "sil"), ("hol", "bel")):
        ra = scene.unit_items[a].mapRectToScene(scene.unit_items[a].shape().boundingRect())
        rb = scene.unit_items[b].mapRectToScene(scene.unit_items[b].shape().boundingRect())
        assert not ra.intersects(rb), (a, b)


@pytest.mark.parametrize("scale", [0.45, 0.75, 1.2])
def test_labels_do_not_grow_into_each_other(scene: MapScene, scale: float) -> None:
    board = load_board("standard")
    from diplomacy_desktop.engine.state import GameState

    scene.set_view_scale(scale)
    scene.show_picture(BoardPicture(GameState.initial(board)))
    rects = [(space, item.mapRectToScene(item.text_rect())) for space, item in scene.label_items.items()]
    overlapping = {(a, b) for i, (a, ra) in enumerate(rects) for b, rb in rects[i + 1:] if ra.intersects(rb)}
    assert not overlapping


def test_sweden_anchor_sends_arrows_to_the_skagerrak_clear_of_norway(scene: MapScene) -> None:
    geometry = scene.geometry
    swe, ska = geometry.unit_anchor("swe"), geometry.unit_anchor("ska")
    assert geometry.polygon("swe").contains(Point(*swe))
    assert not LineString([swe, ska]).intersects(geometry.polygon("nwy"))


def test_label_items_are_names_from_the_map(scene: MapScene) -> None:
    assert scene.label_items["swe"].spec.text == "Sweden"
    assert isinstance(scene.label_items["adr"], LabelItem)
    assert b'id="labels"' not in scene.art.board_svg  # the board images leave the names to the scene


# -- the window -------------------------------------------------------------------------------


def test_first_window_fits_a_1366_by_768_screen() -> None:
    available = QRect(0, 0, 1366, 740)  # a laptop with a panel
    rect = first_window_rect(available)
    assert available.contains(rect)
    assert rect.width() == 1366 and rect.height() >= 700


def test_window_content_fits_at_1366_by_768(qtbot: object, settings: object) -> None:
    c = GameController()
    w = MainWindow(c, geometry=shared_geometry(c), settings=settings, sharpen=False)  # type: ignore[arg-type]
    w.ask_before_closing = False
    qtbot.addWidget(w)  # type: ignore[attr-defined]
    screen = w.screen()
    assert screen is not None
    assert w.geometry() == first_window_rect(screen.availableGeometry())
    w.resize(1366, 768 - 32 - 28)  # a title bar and a panel
    w.show()
    qtbot.waitExposed(w)  # type: ignore[attr-defined]
    assert w.minimumSizeHint().width() <= 1366 and w.minimumSizeHint().height() <= 768 - 60
    for widget in (w.hint_label, w.statusBar(), w.view):
        top_left = widget.mapTo(w, widget.rect().topLeft())
        bottom = top_left.y() + widget.height()
        assert widget.isVisible() and bottom <= w.height(), widget
    w.close()


def test_docks_keep_their_width_between_orders_and_results(table: Table) -> None:
    w = table.window
    play(table.controller, SPRING_1901)
    w.order_dock.raise_()
    QApplication.processEvents()
    view_width = w.view.width()
    width = w.order_dock.width()
    for _ in range(2):
        w.results_dock.raise_()
        QApplication.processEvents()
        assert w.results_dock.width() == width
        assert w.view.width() == view_width
        w.order_dock.raise_()
        QApplication.processEvents()
        assert w.order_dock.width() == width
        assert w.view.width() == view_width


def test_render_paints_an_owned_centre_in_its_owners_colour(qapp: QApplication, tmp_path: Path) -> None:
    from PySide6.QtGui import QColor, QImage

    from diplomacy_desktop.cli import main

    case = tmp_path / "owned.txt"
    case.write_text(CONVOY_AND_DISLODGE, encoding="utf-8")
    out = tmp_path / "owned.png"
    assert main(["render", str(case), "-o", str(out), "--size", "1599x1252", "--map-only"]) == 0
    image = QImage(str(out))
    c = GameController()
    geometry = shared_geometry(c)
    svg = map_file("standard", "standard.svg").read_text(encoding="utf-8")
    france = palette.ownership_colour("france")
    a = france.alphaF()
    for centre, power in (("spa", "france"), ("swe", "russia")):
        colour = palette.ownership_colour(power)
        ground = QColor(svg.split(f'<path id="{centre}"')[1].split('fill="')[1].split('"')[0])
        expected = [round(x * a + g * (1 - a)) for x, g in ((colour.red(), ground.red()),
                                                              (colour.green(), ground.green()),
                                                              (colour.blue(), ground.blue()))]
        # a point of the province far from its name, marker and unit
        poly = geometry.polygon(centre)
        label = geometry.label_point(centre)
        anchor = geometry.unit_anchor(centre)
        inner = poly.buffer(-12)  # once, not per candidate point (it was most of this test's time)
        candidates = [Point(x, y) for x in range(0, 1599, 7) for y in range(0, 1252, 7)]
        spot = next(p for p in candidates if inner.contains(p)
                    and p.distance(Point(*label)) > 80 and p.distance(Point(*anchor)) > 60)
        pixel = QColor(image.pixel(round(spot.x), round(spot.y)))
        got = [pixel.red(), pixel.green(), pixel.blue()]
        assert all(abs(g - e) <= 12 for g, e in zip(got, expected, strict=True)), (centre, got, expected)
    # an unowned centre keeps the art's neutral ground
    poly = geometry.polygon("bel")
    spot = poly.representative_point()
    pixel = QColor(image.pixel(round(spot.x), round(spot.y)))
    assert pixel.name() != QColor(palette.power_colour("france")).name()



def test_first_picture_with_fills_and_names_needs_no_full_geometry(qapp: QApplication) -> None:
    from diplomacy_desktop.gui.board.map_scene import current_picture
    from diplomacy_desktop.gui.main_window import deferred_geometry, map_svg

    c = GameController()
    quick = deferred_geometry(c)
    scene = MapScene(quick, map_svg(c), sharpen=False)
    scene.set_view_scale(0.6)
    scene.show_picture(current_picture(c.state, []))
    assert scene.owner_fill("vie") == palette.ownership_colour("austria")
    assert not quick.loaded  # Shapely and the hit-testing shapes still wait for the first paint


def test_docks_keep_their_width_through_retreats_and_builds(table: Table) -> None:
    """The Orders dock's minimum shrank in a retreat phase (fewer buttons) and the docks widened:
    the map jumped to the left (found playing at 1366x768 under Xvfb)."""
    w, c = table.window, table.controller
    w.resize(1366, 740)
    QApplication.processEvents()
    order_width, view_width = w.order_dock.width(), w.view.width()
    play(c, {"germany": ["A mun - bur", "A ber - kie", "F kie - den"], "france": ["A par - gas", "F bre - mao"]})
    c.view_phase(None)
    play(c, {"germany": ["A bur h", "A kie - hol"], "france": ["A mar - bur", "A gas s A mar - bur", "F mao - por"]})
    assert c.state.phase.label == "Fall 1901 retreats"
    for viewing in (True, False):
        if not viewing:
            c.view_phase(None)
        for dock in (w.results_dock, w.order_dock):
            dock.raise_()
            QApplication.processEvents()
            assert (w.order_dock.width(), w.results_dock.width(), w.view.width()) == (order_width, order_width, view_width)
    play(c, {"germany": ["A bur - ruh"]})
    c.view_phase(None)
    assert c.state.phase.label == "Winter 1901 adjustments" and w.order_dock.waive_button.isVisibleTo(w)
    QApplication.processEvents()
    assert (w.order_dock.width(), w.view.width()) == (order_width, view_width)
