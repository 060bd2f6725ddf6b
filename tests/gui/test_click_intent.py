"""Issue 17, clicks by intent: names, near misses, refusals said on the board, builds anywhere in a
lit centre, arrowheads, a fleet's coast from where the click fell, and drag and drop."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtWidgets import QApplication
from window_harness import Table

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.orders import Build, Hold, Move
from diplomacy_desktop.engine.state import Phase, Unit
from diplomacy_desktop.gui.orders.interaction import IDLE, BuildMode, UnitMode
from diplomacy_desktop.mapdata.click_intent import coast_part, label_at, read_click


def label_point(t: Table, space: str, over: str | None = None, *, lenient: bool = False) -> QPointF:
    """A point on the name of ``space`` that lies over another space (``over``, or any other)."""
    item = t.window.scene.label_items[space]
    r = item.mapRectToScene(item.text_rect())
    steps = 12
    for i in range(1, steps):
        for j in range(1, 4):
            x, y = r.left() + r.width() * i / steps, r.top() + r.height() * j / 4
            under = t.geometry.space_at(x, y)
            if under != space and (over is None or under == over):
                return QPointF(x, y)
    if over is None or lenient:
        # names are placed clear of each other at every size: at this one it lies inside its own space
        return r.center()
    raise AssertionError(f"the name of {space} lies over no other space")


def test_click_on_a_name_goes_to_the_named_space(table: Table) -> None:
    t = table
    # the middle of "HEL" lies over Kiel: clicking it once gave F Kie a hold (or F Hol - Kie)
    # (each name is found after the unit is chosen: the magnifier may zoom, and names are placed
    # anew for the size they are drawn at)
    t.click_unit("kie")
    hel = label_point(t, "hel", "kie", lenient=True)
    t.click_scene(hel)
    assert t.orders("germany") == {"F Kie - Hel"}
    # the end of "Alb" lies over the Ionian Sea: it was refused as the Ionian Sea
    t.click_unit("tri")
    alb = label_point(t, "alb")
    t.click_scene(alb)
    assert t.orders("austria") == {"F Tri - Alb"}
    # "Rome" written over the Tyrrhenian Sea
    t.click_unit("ven")
    rom = label_point(t, "rom", "tys")
    t.click_scene(rom)
    assert t.orders("italy") == {"A Ven - Rom"}


def test_click_a_few_pixels_off_a_lit_space_is_taken_as_it(table: Table) -> None:
    t = table
    t.click_unit("rom")
    mode = t.window.interaction.mode
    assert isinstance(mode, UnitMode) and "nap" in mode.lit and "ion" not in mode.lit
    # a point in the Ionian Sea 4 screen pixels from Naples
    import shapely

    nap = t.geometry.polygon("nap")
    others = [t.geometry.polygon(s) for s in mode.lit if s != "nap"]
    scale = t.window.scene.view_scale
    point = None
    for x in range(0, 1300, 2):
        for y in range(0, 1100, 2):
            if t.geometry.space_at(x, y) == "ion":
                d = nap.distance(shapely.Point(x, y)) * scale
                clear = all(o.distance(shapely.Point(x, y)) * scale > 30 for o in others)
                if 3.0 <= d <= 5.0 and clear and t.window.interaction.unit_at(QPointF(x, y)) is None:
                    point = QPointF(x, y)
                    break
        if point is not None:
            break
    assert point is not None
    t.click_scene(point)
    assert t.orders("italy") == {"A Rom - Nap"}


def test_refused_click_says_why_on_the_board_and_a_retry_never_holds(table: Table) -> None:
    t = table
    t.click_unit("par")
    t.click("syr")  # far out of reach
    it = t.window.interaction
    assert isinstance(it.mode, UnitMode) and it.mode.unit == "par"  # still selected
    note = it.board_notes.item
    assert note is not None and note.scene() is t.window.scene
    assert "cannot move to Syria" in note.text
    # the player clicks the army again to "select it again": no hold
    t.click_unit("par")
    assert t.orders("france") == set()
    assert isinstance(it.mode, UnitMode) and it.mode.unit == "par"
    t.click("bur")
    assert t.orders("france") == {"A Par - Bur"}
    assert it.board_notes.item is None  # the note went with the next click


def test_unit_under_an_incoming_arrowhead_takes_its_click(table: Table) -> None:
    t = table
    c = t.controller
    c.set_order(Move("germany", "A", "mun", "ber"))  # the arrowhead ends on the army in Berlin
    scene = t.window.scene
    ber = scene.unit_items["ber"]
    heads = [i for i in scene.order_items_of("germany")]
    assert heads and any(h.sceneBoundingRect().intersects(ber.sceneBoundingRect()) for h in heads)
    # anywhere on its disc, not only its rim
    for dx, dy in ((0, 0), (-ber.size * 0.3, 0), (0, -ber.size * 0.3), (ber.size * 0.3, ber.size * 0.2)):
        t.window.interaction.set_mode(IDLE)
        t.click_scene(ber.pos() + QPointF(dx, dy))
        assert t.window.interaction.mode.unit == "ber", (dx, dy)


def _disc_points(item: object, step: int = 8) -> list[QPointF]:
    """Points spread over a unit's whole disc (its drawn size, not only its outline)."""
    size = item.size  # type: ignore[attr-defined]
    centre = item.pos()  # type: ignore[attr-defined]
    r = size * 0.45
    out = []
    for i in range(-step, step + 1):
        for j in range(-step, step + 1):
            p = QPointF(centre.x() + r * i / step, centre.y() + r * j / step)
            if (p - centre).x() ** 2 + (p - centre).y() ** 2 <= r * r:
                out.append(p)
    return out


def test_every_point_of_a_unit_under_arrows_takes_its_click_even_over_a_neighbour(table: Table) -> None:
    """The army in Liverpool is drawn mostly over Wales, Yorkshire and the Irish Sea (Liverpool is
    13 px wide at 1366x768) and arrows from Wales and Yorkshire end on it: a click anywhere on its
    disc or on the arrowheads drawn over it is the army (the neighbours' spaces, units and arrows
    must not take it)."""
    t = table
    c = t.controller
    game = Game.new(c.board)
    units = dict(game.state.units)
    units["wal"] = Unit("england", "A", "wal")
    units["yor"] = Unit("england", "A", "yor")
    game.state = game.state.evolve(units=units)
    c.replace_game(game)
    c.set_order(Move("england", "A", "wal", "lvp"))
    c.set_order(Move("england", "A", "yor", "lvp"))
    c.set_order(Move("england", "A", "lvp", "edi"))
    c.set_order(Move("england", "F", "edi", "nth"))
    t.window.resize(1366, 768)
    QApplication.processEvents()
    t.window.view.fit_to_window()
    QApplication.processEvents()
    scene = t.window.scene
    # the army in Liverpool, and the fleet in Edinburgh (whose hull is lower than its disc)
    for prov, arrivals in (("lvp", ("wal", "yor")), ("edi", ("lvp",))):
        unit = scene.unit_items[prov]
        points = _disc_points(unit)
        elsewhere = [p for p in points if t.geometry.space_at(p.x(), p.y()) != prov]
        if prov == "lvp":  # the premise: much of the disc lies over other spaces
            assert len(elsewhere) >= len(points) // 3
        else:  # ... and much of the fleet's disc lies outside its hull
            hull = [p for p in points if not unit.contains(unit.mapFromScene(p))]
            assert len(hull) >= 8
        arrows = [i for i in scene.order_items_of("england") if i.style == "move" and i.order.province in arrivals]
        assert len(arrows) == len(arrivals)
        assert all(a.sceneBoundingRect().intersects(unit.sceneBoundingRect()) for a in arrows), prov
        for p in points:
            t.window.interaction.set_mode(IDLE)
            t.click_scene(p)
            mode = t.window.interaction.mode
            assert isinstance(mode, UnitMode) and mode.unit == prov, (prov, p, t.geometry.space_at(p.x(), p.y()))


def test_fleet_coast_is_taken_from_the_part_of_spain_clicked(table: Table) -> None:
    t = table
    c = t.controller
    game = Game.new(c.board)
    units = dict(game.state.units)
    units["mao"] = units.pop("bre").__class__("france", "F", "mao")
    game.state = game.state.evolve(units=units)
    c.replace_game(game)
    # a point in southern Spain, well inside the province (not on the coast strip)
    sc_anchor = t.geometry.unit_anchor("spa/sc")
    nc_anchor = t.geometry.unit_anchor("spa/nc")
    south = QPointF(sc_anchor[0] * 0.7 + nc_anchor[0] * 0.3, sc_anchor[1] * 0.7 + nc_anchor[1] * 0.3)
    assert t.geometry.space_at(south.x(), south.y()) == "spa"
    assert coast_part(t.geometry, "spa", south.x(), south.y()) == "spa/sc"
    t.click_unit("mao")
    t.click_scene(south)
    assert t.orders("france") == {"F Mao - Spa/sc"}


def _winter(t: Table) -> None:
    c = t.controller
    game = Game.new(c.board)
    owners = dict(game.state.owners)
    owners["tun"] = "italy"
    units = {p: u for p, u in game.state.units.items() if p not in ("rom", "nap")}
    units["tun"] = game.state.units["nap"].__class__("italy", "A", "tun")
    game.state = game.state.evolve(phase=Phase(1901, "fall", "adjustment"), owners=owners, units=units)
    c.replace_game(game)  # Italy: 4 centres, 2 units, Rome and Naples empty: two builds


def test_build_by_clicking_a_lit_centre_or_its_name(table: Table) -> None:
    t = table
    _winter(t)
    it = t.window.interaction
    assert {"rom", "nap"} <= it.scene.lit
    rom = label_point(t, "rom", "tys")  # "Rome" drawn over the Tyrrhenian Sea
    t.click_scene(rom)
    assert isinstance(it.mode, BuildMode) and it.mode.unit == "rom"
    t.key("A")
    assert t.orders("italy") == {"Build A Rom"}
    nap = label_point(t, "nap")
    t.click_scene(nap)
    assert isinstance(it.mode, BuildMode) and it.mode.unit == "nap"
    t.key("F")
    assert Build("italy", "F", "nap") in t.controller.game.orders_of("italy")


def test_build_click_on_a_centre_that_is_no_home_centre_says_why(table: Table) -> None:
    t = table
    _winter(t)
    t.click("bel")
    note = t.window.interaction.board_notes.text
    assert note is not None and "not a home supply centre" in note and "XIII.2" in note


def test_drag_a_unit_onto_its_destination_gives_the_move(table: Table) -> None:
    t = table
    view = t.window.view
    vp = view.viewport()
    view.zoom_by(2.0)  # zoomed in, so a pan would move the scroll bars
    scroll = (view.horizontalScrollBar().value(), view.verticalScrollBar().value())
    for prov, dest in (("par", "bur"), ("mar", "spa"), ("bre", "mao")):
        start = t.screen_point(t.window.scene.unit_items[prov].pos())
        end = t.screen_point(t.point_of(dest))
        t.qtbot.mousePress(vp, Qt.MouseButton.LeftButton, pos=start)
        for k in range(1, 6):  # a real drag passes through points between
            p = start + (end - start) * (k / 5)
            from PySide6.QtGui import QMouseEvent
            from PySide6.QtWidgets import QApplication

            ev = QMouseEvent(QMouseEvent.Type.MouseMove, QPointF(p), QPointF(vp.mapToGlobal(p)),
                             Qt.MouseButton.NoButton, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
            QApplication.sendEvent(vp, ev)
        t.qtbot.mouseRelease(vp, Qt.MouseButton.LeftButton, pos=end)
    assert t.orders("france") == {"A Par - Bur", "A Mar - Spa", "F Bre - Mao"}
    # the view did not pan while dragging units
    assert (view.horizontalScrollBar().value(), view.verticalScrollBar().value()) == scroll


def test_drag_dropped_where_it_started_orders_nothing(table: Table) -> None:
    t = table
    it = t.window.interaction
    start = t.window.scene.unit_items["par"].pos()
    it.drop(start, start + QPointF(2, 2))
    assert t.orders("france") == set()
    assert not any(isinstance(o, Hold) for o in t.controller.game.orders_of("france"))


def test_read_click_prefers_the_label_and_snaps_to_lit(table: Table) -> None:
    g = table.geometry
    assert label_at([("hel", 0, 0, 10, 10), ("kie", 2, 2, 5, 5)], 3, 3) == "kie"
    nap = g.unit_anchor("nap")
    assert read_click(g, nap[0], nap[1]).space == "nap"
    far = read_click(g, 5, 5, lit=frozenset({"nap"}), tolerance=8)
    assert far.space != "nap"
    _ = QPoint  # keep the import used for readers copying the drag helper


def test_name_of_a_target_drawn_over_another_unit_goes_to_the_name(table: Table) -> None:
    t = table
    t.window.resize(1366, 768)
    QApplication.processEvents()
    t.window.view.fit_to_window()
    QApplication.processEvents()
    it = t.window.interaction
    item = t.window.scene.label_items["apu"]
    # names are now placed clear of every unit's spot; a name can still lie over a unit drawn off
    # its spot (a dislodged one beside its space), so the name is put over the fleet here
    fleet = t.window.scene.unit_items["nap"]
    item.set_form(item.text, item.font_size, None, fleet.pos() + QPointF(fleet.size * 0.3, 0))
    it._labels = None  # the interaction's copy of the names' rectangles, taken again
    r = item.mapRectToScene(item.text_rect())
    over = [QPointF(r.left() + r.width() * i / 10, r.top() + r.height() * j / 4)
            for i in range(1, 10) for j in range(1, 4)]
    over = [p for p in over if (u := it.unit_at(p)) is not None and u.province == "nap"]
    assert over, "the name of Apulia is not drawn over the fleet in Naples at this size"
    it.drop(t.window.scene.unit_items["rom"].pos(), over[0])  # the bench's Italian misorder
    assert t.orders("italy") == {"A Rom - Apu"}
    # with nothing selected, the same point still picks the fleet drawn there
    t.click_scene(over[0])
    assert it.mode.unit == "nap"


def test_read_click_a_lit_space_under_the_name_of_a_space_not_lit_is_the_lit_space(table: Table) -> None:
    g = table.geometry
    bur = g.unit_anchor("bur")
    paris_name = [("par", bur[0] - 20, bur[1] - 10, bur[0] + 20, bur[1] + 10)]  # "Paris" drawn over Burgundy
    # Burgundy is the legal target (France's support of A Par - Bur): the click there is Burgundy
    assert read_click(g, bur[0], bur[1], lit=frozenset({"bur", "gas"}), labels=paris_name).space == "bur"
    # with no step taken, or Paris itself lit, the name still names Paris
    assert read_click(g, bur[0], bur[1], labels=paris_name).space == "par"
    assert read_click(g, bur[0], bur[1], lit=frozenset({"par", "bur"}), labels=paris_name).space == "par"
