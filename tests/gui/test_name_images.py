"""Issue 16 (the window's speed): province names drawn once per form and scale and kept as images
(in memory across zooms, on disk for the next start), their places kept the same way; the
magnifier zooms after the click's own frame.  The pictures must be those of drawing the names
directly, and a broken cache file must cost nothing but the time to draw again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import Table
from PySide6.QtCore import QEvent, QObject, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QTransform
from PySide6.QtWidgets import QApplication

from diplomacy_desktop.gui.board import label_layout, map_art, map_scene, palette
from diplomacy_desktop.gui.board.label_images import LabelImages
from diplomacy_desktop.gui.board.label_layout import LayoutMemo, Placement
from diplomacy_desktop.gui.board.map_scene import LabelItem, OwnershipItem
from diplomacy_desktop.resources import map_file


def _name(t: Table, space: str) -> LabelItem:
    return t.window.scene.label_items[space]


def _render(item: Any, scale: float, dx: float, dy: float, images: LabelImages | None,
            size: tuple[int, int] = (400, 200)) -> QImage:
    """``item`` (a name, a unit, an owned province: what ``images`` paints) painted at ``scale``
    with its origin at (dx, dy) on a transparent image: through ``images`` or (None) by drawing
    it directly."""
    out = QImage(size[0], size[1], QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(0)
    painter = QPainter(out)
    painter.setWorldTransform(QTransform(scale, 0, 0, scale, dx, dy))
    if images is None:
        item.draw(painter)
    else:
        assert images.paint(painter, item.form(), item.boundingRect(), item.draw)
    painter.end()
    return out


def _differences(a: QImage, b: QImage, tolerance: int) -> int:
    """How many pixels of ``a`` and ``b`` differ by more than ``tolerance`` in a channel."""
    count = 0
    for y in range(a.height()):
        for x in range(a.width()):
            p, q = a.pixel(x, y), b.pixel(x, y)
            if any(abs(((p >> s) & 255) - ((q >> s) & 255)) > tolerance for s in (0, 8, 16, 24)):
                count += 1
    return count


def _inked(image: QImage) -> int:
    return sum(1 for y in range(image.height()) for x in range(image.width()) if image.pixel(x, y) >> 24)


def test_a_name_painted_from_its_image_is_the_name_drawn_directly(table: Table) -> None:
    item = _name(table, "bur")
    images = LabelImages()
    for scale, dx, dy in ((0.7, 200.0, 100.0), (1.55, 200.5, 100.25), (2.3, 199.93, 100.61)):
        direct = _render(item, scale, dx, dy, None)
        cached = _render(item, scale, dx, dy, images)
        assert _inked(direct) > 50  # something was drawn
        # the same pixels, but for the origin rounded to a sixteenth of a pixel: antialiasing only
        assert _differences(direct, cached, 24) == 0, scale
        assert _differences(direct, cached, 2) < _inked(direct) * 0.2, scale
        again = _render(item, scale, dx, dy, images)  # from the image now
        assert _differences(cached, again, 0) == 0
    assert images.misses == 3 and images.hits == 3


def test_going_back_to_a_scale_draws_no_name_again(table: Table) -> None:
    item = _name(table, "hol")
    images = LabelImages()
    _render(item, 0.6, 200, 100, images)
    _render(item, 1.8, 200, 100, images)  # the magnifier zooms in ...
    _render(item, 0.6, 200, 100, images)  # ... and back
    _render(item, 0.6, 260, 40, images)  # a scroll moves whole pixels: the same image
    assert (images.misses, images.hits) == (2, 2)


def test_the_least_recently_used_images_go_first_past_the_limit(table: Table) -> None:
    item = _name(table, "stp")
    images = LabelImages(limit=1)
    _render(item, 1.0, 200, 100, images)
    _render(item, 2.0, 200, 100, images)
    assert len(images) == 1  # the first went to make room
    _render(item, 1.0, 200, 100, images)
    assert images.misses == 3


def test_a_painter_on_a_pdf_or_turned_gets_the_name_drawn_not_an_image(table: Table) -> None:
    item = _name(table, "bur")
    images = LabelImages()
    out = QImage(200, 200, QImage.Format.Format_ARGB32_Premultiplied)
    painter = QPainter(out)
    painter.setWorldTransform(QTransform().rotate(30))
    assert not images.paint(painter, item.form(), item.boundingRect(), item.draw)
    painter.end()
    assert len(images) == 0


def test_images_written_at_quit_are_read_at_the_next_start(table: Table, tmp_path: Path) -> None:
    item = _name(table, "lvn")
    images = LabelImages()
    first = _render(item, 0.9, 200.25, 100.5, images)
    path = tmp_path / "names.raw"
    images.save(path)
    later = LabelImages()  # the next start
    assert later.load(path) == 1
    assert later.bounds[item.form()] == images.bounds[item.form()]
    again = _render(item, 0.9, 200.25, 100.5, later)
    assert later.misses == 0 and later.hits == 1  # read, not drawn
    assert _differences(first, again, 0) == 0


def test_a_broken_names_file_is_ignored_and_the_names_drawn(table: Table, tmp_path: Path) -> None:
    item = _name(table, "lvn")
    images = LabelImages()
    _render(item, 0.9, 200, 100, images)
    path = tmp_path / "names.raw"
    images.save(path)
    data = path.read_bytes()
    for broken in (b"", b"not a names file", data[:40], data[:-10], data.replace(b'[[["', b'[[[1', 1)):
        path.write_bytes(broken)
        later = LabelImages()
        assert later.load(path) == 0
        _render(item, 0.9, 200, 100, later)
        assert later.misses == 1


def test_a_names_file_is_named_by_the_code_that_draws_the_names(table: Table, tmp_path: Path) -> None:
    from diplomacy_desktop.gui.board.label_images import cache_file

    def other(painter: QPainter) -> None:
        painter.drawLine(0, 0, 1, 1)

    assert cache_file(tmp_path, LabelItem.draw) == cache_file(tmp_path, LabelItem.draw)
    assert cache_file(tmp_path, LabelItem.draw) != cache_file(tmp_path, other)


def test_the_names_places_are_worked_out_once_per_size_and_read_back(table: Table, tmp_path: Path,
                                                                     monkeypatch: object) -> None:
    scene = table.window.scene
    memo = LayoutMemo()
    monkeypatch.setattr(label_layout, "LAYOUTS", memo)  # type: ignore[attr-defined]
    calls = []
    real = label_layout.place_labels

    def counting(*args: object, **kwargs: object) -> dict[str, Placement]:
        calls.append(1)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(label_layout, "place_labels", counting)  # type: ignore[attr-defined]
    layout = scene._label_layout(13.0)
    assert calls == [1]
    assert scene._label_layout(13.0) == layout and calls == [1]  # the same size: not searched again
    other = scene._label_layout(30.0)
    assert calls == [1, 1] and other != layout  # another size is another search
    path = tmp_path / "layouts.json"
    memo.save(path)
    later = LayoutMemo()  # the next start
    assert later.load(path) == 2
    monkeypatch.setattr(label_layout, "LAYOUTS", later)  # type: ignore[attr-defined]
    assert scene._label_layout(13.0) == layout and calls == [1, 1]  # read, the same places
    for broken in ("", "{", '{"k": [[1]]}', "[]"):
        path.write_text(broken, encoding="utf-8")
        assert LayoutMemo().load(path) == 0


def test_the_magnifier_zooms_after_the_frame_that_lights_the_targets(table: Table) -> None:
    t = table
    view = t.window.view
    zoom = t.window.target_zoom
    t.on_a_laptop()
    frames: list[tuple[float, frozenset[str]]] = []

    class Frames(QObject):
        def eventFilter(self, watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint:
                frames.append((view.zoom, t.window.scene.lit))
            return False

    spy = Frames()
    view.viewport().installEventFilter(spy)
    t.window.interaction.click_at(t.window.scene.unit_items["kie"].pos())  # small targets: Holland, Denmark
    assert not zoom.zoomed and zoom.pending is not None  # not before the click is on screen
    t.qtbot.waitUntil(lambda: zoom.zoomed, timeout=2000)  # type: ignore[attr-defined]
    first = next(i for i, (_, lit) in enumerate(frames) if "hol" in lit)
    assert abs(frames[first][0] - 1.0) < 1e-6  # the first frame with the targets lit: the player's view
    t.qtbot.waitUntil(lambda: any(z > 1.25 for z, _ in frames[first:]), timeout=2000)  # type: ignore[attr-defined]
    view.viewport().removeEventFilter(spy)


def test_a_press_before_the_magnifier_zooms_keeps_the_board_still(table: Table) -> None:
    t = table
    view = t.window.view
    zoom = t.window.target_zoom
    t.on_a_laptop()
    t.window.interaction.click_at(t.window.scene.unit_items["kie"].pos())
    assert zoom.pending is not None
    centre = view.viewport().rect().center()
    t.qtbot.mousePress(view.viewport(), Qt.MouseButton.LeftButton, pos=centre)  # type: ignore[attr-defined]
    assert zoom.pending is None
    for _ in range(5):
        QApplication.processEvents()
    assert not zoom.zoomed and view.fitted


def test_the_names_places_do_not_depend_on_which_names_were_drawn_before(table: Table, monkeypatch: object) -> None:
    scene = table.window.scene
    for item in scene.label_items.values():  # nothing measured or drawn yet
        item._paths.clear()
    monkeypatch.setattr(label_layout, "LAYOUTS", LayoutMemo())  # type: ignore[attr-defined]
    fresh = scene._label_layout(13.0)
    for item in scene.label_items.values():  # every name's forms drawn (as after a game's hovers and zooms)
        for text in {item.spec.text, label_layout.short_name(item.spec.space, item.spec.text, item.spec.italic)}:
            item.path_for(text, 23)
    table.window.view.viewport().grab()
    monkeypatch.setattr(label_layout, "LAYOUTS", LayoutMemo())  # type: ignore[attr-defined]
    assert scene._label_layout(13.0) == fresh



def _render_fill(item: OwnershipItem, scale: float, box: QRectF, images: LabelImages | None) -> QImage:
    """The owned province ``item`` painted at ``scale``, the corner of its ``box`` near the image's."""
    return _render(item, scale, 10 - box.left() * scale, 10 - box.top() * scale, images, (400, 300))


def test_an_owned_province_is_painted_from_its_image_and_read_back_without_its_outline(
        table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The owned centres' fills are kept with the names: the next start copies them and reads no
    province outline from the SVG (issue 16: the window's start)."""
    scene = table.window.scene
    fill = scene.ownership_items["par"]
    assert fill.isVisible() and fill.brush().color() == palette.ownership_colour("france")
    box = fill.path().boundingRect()
    images = LabelImages()
    direct = _render_fill(fill, 0.8, box, None)
    cached = _render_fill(fill, 0.8, box, images)
    assert _inked(direct) > 1000  # the whole province, not a dot
    assert _differences(direct, cached, 24) == 0
    assert _differences(direct, cached, 2) < _inked(direct) * 0.05
    path = tmp_path / "names.raw"
    images.save(path)
    # the next start: a scene of its own, its outlines unread
    monkeypatch.setattr(map_art, "outline_from_svg_path", lambda d: pytest.fail("an outline was read"))
    later = LabelImages()
    assert later.load(path) == 1
    monkeypatch.setattr(map_scene, "IMAGES", later)
    again = OwnershipItem(map_art.MapArt(map_file("standard", "standard.svg")), "par")
    again.set_colour(palette.ownership_colour("france"))
    assert again.boundingRect() == fill.boundingRect()
    assert _differences(cached, _render_fill(again, 0.8, box, later), 0) == 0
    assert (later.hits, later.misses) == (1, 0)
    # another owner is another picture: drawn from the outline (read now)
    monkeypatch.undo()
    monkeypatch.setattr(map_scene, "IMAGES", later)
    again.set_colour(palette.ownership_colour("germany"))
    _render_fill(again, 0.8, box, later)
    assert later.misses == 1


def test_a_unit_is_kept_with_the_names_for_the_next_start(table: Table, tmp_path: Path) -> None:
    """A unit's picture (without its selection ring) is kept on disk with the names: the next
    start copies the units instead of drawing their halos again."""
    unit = table.window.scene.unit_items["par"]
    images = LabelImages()
    _render(unit, 0.9, 100, 100, images, (200, 200))
    path = tmp_path / "names.raw"
    images.save(path)
    later = LabelImages()
    assert later.load(path) == 1
    assert later.bounds[unit.form()] == images.bounds[unit.form()]


def _scene_picture(scene: Any, box: QRectF, scale: float) -> QImage:
    """The scene's ``box`` painted at ``scale`` into an image, as a view of that scale paints it."""
    out = QImage(int(box.width() * scale), int(box.height() * scale), QImage.Format.Format_ARGB32_Premultiplied)
    out.fill(0)
    painter = QPainter(out)
    scene.render(painter, QRectF(out.rect()), box)
    painter.end()
    return out


def _lit_forms(images: LabelImages) -> set[object]:
    return {key[0] for key in images._images if key[0][0] in ("lit", "hover")}


def test_lit_spaces_and_the_hover_are_painted_from_images_and_not_kept_on_disk(
        table: Table, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A click lights two to six spaces and a hover one; their edges are wide antialiased strokes
    along detailed outlines, slow to draw at every repaint (issue 16: a click was 4.5 ms, two
    fifths of it stroking the lit spaces).  Each is an image per space and scale: lit again, or
    repainted, it is copied; it looks as drawn directly; and it is not written to disk."""
    images = LabelImages()
    monkeypatch.setattr(map_scene, "IMAGES", images)
    scene = table.window.scene
    box = QRectF(300, 600, 500, 400)  # France and the Low Countries
    scene.set_lit({"bur", "pic", "gas", "bel"})
    scene.set_hover("par")
    first = _scene_picture(scene, box, 0.75)
    assert {form[:2] for form in _lit_forms(images)} == {  # type: ignore[index]
        ("lit", "bur"), ("lit", "pic"), ("lit", "gas"), ("lit", "bel"), ("hover", "par")}
    drawn = images.misses
    scene.set_lit(set())
    scene.set_hover(None)
    assert _differences(first, _scene_picture(scene, box, 0.75), 0) > 1000  # the highlights are gone
    scene.set_lit({"bur", "pic", "gas", "bel"})
    scene.set_hover("par")
    again = _scene_picture(scene, box, 0.75)
    assert images.misses == drawn  # copied, not drawn again
    assert _differences(first, again, 0) == 0
    # as drawn directly (but for the origin rounded to a sixteenth of a pixel)
    lit = next(item for item in scene.items() if isinstance(item, map_scene.HighlightItem) and item.space == "bur")
    b = lit.boundingRect()
    direct = _render(lit, 0.75, 10 - b.left() * 0.75, 10 - b.top() * 0.75, None)
    cached = _render(lit, 0.75, 10 - b.left() * 0.75, 10 - b.top() * 0.75, LabelImages())
    assert _inked(direct) > 1000
    assert _differences(direct, cached, 24) == 0
    assert _differences(direct, cached, 2) < _inked(direct) * 0.05
    # what is lit changes with every click: never written with the names
    images.save(tmp_path / "names.raw")
    later = LabelImages()
    assert later.load(tmp_path / "names.raw") > 0
    assert not _lit_forms(later)


def _places(scene: map_scene.MapScene) -> dict[str, tuple[float, float, object]]:
    names = {f"n:{s}": (i.pos().x(), i.pos().y(), i.leader) for s, i in scene.label_items.items()}
    return names | {f"m:{s}": (i.pos().x(), i.pos().y(), None) for s, i in scene.centre_items.items()}


def test_the_names_fitted_to_the_units_are_worked_out_once_and_read_back(table: Table, tmp_path: Path,
                                                                         monkeypatch: object) -> None:
    """The units' spots, the markers' places and the names moved clear of the units standing are
    kept (in memory and in the cache folder) like the layouts: the next start reads them, and
    puts every name and marker exactly where working them out puts them; a stored value that is
    not what the board wrote is worked out again."""
    t = table
    t.on_a_laptop()
    scene = t.window.scene
    memo = label_layout.DiskMemo(keep=64)
    monkeypatch.setattr(label_layout, "GEOMETRY", memo)  # type: ignore[attr-defined]
    worked: list[int] = []
    real = map_scene.MapScene._work_out_fit

    def counting(self: map_scene.MapScene, layout: Any) -> None:
        worked.append(1)
        real(self, layout)

    monkeypatch.setattr(map_scene.MapScene, "_work_out_fit", counting)
    scene._fitted_for = None
    scene._fit_names_to_units()
    fresh = _places(scene)
    assert worked == [1]
    moved = [v for v in memo._values.values() if isinstance(v, dict) and any(k.startswith("n:") for k in v)]
    assert moved, "the start position moves some names off the units (Kiel's fleet, Trieste's...)"
    path = tmp_path / "fitted.json"
    memo.save(path)
    later = label_layout.DiskMemo(keep=64)  # the next start
    assert later.load(path) >= 1
    monkeypatch.setattr(label_layout, "GEOMETRY", later)  # type: ignore[attr-defined]
    scene._place_label_items(scene._layout_shown)  # (every name back at its layout's place)
    scene._fitted_for = None
    scene._fit_names_to_units()
    assert worked == [1] and _places(scene) == fresh  # read, not worked out: the same places
    for key in list(later._values):
        later._values[key] = {"n:par": [[1, 2]]}  # not what the board writes
    scene._fitted_for = None
    scene._fit_names_to_units()
    assert worked == [1, 1] and _places(scene) == fresh
