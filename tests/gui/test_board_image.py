"""The board's kept picture and the start's reading of the map art (issue 16: the window's start).

A window that drew the board before reads its picture from the cache folder and the anchors and
centres from the SVG's text; Qt's SVG renderer (which parses the whole file) is made only when a
picture has to be drawn, or when the art is not written the plain way.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QColor

from diplomacy_desktop.gui.board import board_image, map_points
from diplomacy_desktop.gui.board.board_image import BoardItem
from diplomacy_desktop.gui.board.map_points import DeferredGeometry
from diplomacy_desktop.gui.controller import GameController
from diplomacy_desktop.resources import map_file

ART = (b'<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30" viewBox="0 0 40 30">'
       b'<rect x="0" y="0" width="20" height="30" fill="#ff0000"/>'
       b'<rect x="20" y="0" width="20" height="30" fill="#0000ff"/></svg>')


def _no_renderer(*args: object, **kwargs: object) -> None:
    raise AssertionError("Qt's SVG renderer was made")


def test_board_image_a_kept_picture_is_read_back_whole(qapp: object, tmp_path: Path) -> None:
    first = BoardItem("art.svg", cache_dir=tmp_path, svg_data=ART, sharpen=False)
    drawn = first.base_image()
    kept = list(tmp_path.glob("art-*-board1x.raw"))
    assert len(kept) == 1
    again = BoardItem("art.svg", cache_dir=tmp_path, svg_data=ART, sharpen=False).base_image()
    assert again.size() == drawn.size() and again == drawn
    assert again.pixelColor(5, 5) == QColor("#ff0000") and again.pixelColor(35, 5) == QColor("#0000ff")
    # a file cut short (a crash while it was written) is drawn anew, never shown half read
    kept[0].write_bytes(kept[0].read_bytes()[:-7])
    assert board_image._read_raw(kept[0]) is None
    redrawn = BoardItem("art.svg", cache_dir=tmp_path, svg_data=ART, sharpen=False).base_image()
    assert redrawn == drawn
    read = board_image._read_raw(kept[0])
    assert read is not None and read[0] == drawn  # and kept again


def test_board_image_drawn_before_reads_no_svg_until_a_picture_is_drawn(
        qapp: object, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    BoardItem("art.svg", cache_dir=tmp_path, svg_data=ART, sharpen=False).base_image()
    monkeypatch.setattr(board_image, "_renderer", _no_renderer)
    item = BoardItem("art.svg", cache_dir=tmp_path, svg_data=ART, sharpen=False)
    assert (item.view_box.width(), item.view_box.height()) == (40, 30)
    assert item.base_image().pixelColor(35, 25) == QColor("#0000ff")
    monkeypatch.undo()
    item.direct = True  # a one-off drawing (the render command) draws the SVG itself
    assert item.renderer.isValid()


def test_board_image_art_qt_cannot_draw_fails_at_once(qapp: object, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot draw the map"):
        BoardItem("art.svg", cache_dir=tmp_path, svg_data=b"<svg this is not", sharpen=False)


def test_deferred_geometry_reads_plain_art_without_qts_renderer(
        qapp: object, monkeypatch: pytest.MonkeyPatch) -> None:
    import PySide6.QtSvg

    c = GameController()
    svg = map_file("standard", "standard.svg")
    monkeypatch.setattr(PySide6.QtSvg, "QSvgRenderer", _no_renderer)
    monkeypatch.setattr(map_points, "QSvgRenderer", _no_renderer, raising=False)
    quick = DeferredGeometry(svg, c.board.locations(), c.board.centres)
    assert quick.view_box == (0.0, 0.0, 1599.0, 1252.0)
    assert quick.unit_anchor("stp/nc") == (1160.9, 213.5)
    assert quick.centre_point("ank") == (1252.7, 972.4)
    assert len(quick.centre_ids) == 34


def test_deferred_geometry_art_with_transforms_is_read_by_qt(qapp: object, tmp_path: Path) -> None:
    """Art whose circles are moved by a transform is read by Qt's renderer, where they are drawn."""
    c = GameController()
    text = map_file("standard", "standard.svg").read_text(encoding="utf-8")
    plain = DeferredGeometry(map_file("standard", "standard.svg"), c.board.locations(), c.board.centres)
    moved = tmp_path / "moved.svg"
    moved.write_text(text.replace('<g id="anchors" fill', '<g transform="translate(10 0)" id="anchors" fill', 1),
                     encoding="utf-8")
    assert map_points._TRANSFORM.search(moved.read_text(encoding="utf-8"))
    geometry = DeferredGeometry(moved, c.board.locations(), c.board.centres)
    x, y = plain.unit_anchor("par")
    assert geometry.unit_anchor("par") == pytest.approx((x + 10, y))
    assert geometry.centre_point("par") == plain.centre_point("par")  # not in the moved group
    broken = tmp_path / "broken.svg"
    broken.write_text("<svg this is not", encoding="utf-8")
    with pytest.raises(ValueError, match="cannot read the map"):
        DeferredGeometry(broken, c.board.locations(), c.board.centres)


def test_the_view_box_is_read_from_the_svg_text_only_when_it_is_four_numbers() -> None:
    from diplomacy_desktop.gui.board.map_art import view_box_of

    assert view_box_of('<?xml version="1.0"?><svg xmlns="x" viewBox="0 0 1599 1252">') == (0, 0, 1599, 1252)
    assert view_box_of('<svg viewBox="0,0,40,30">') == (0, 0, 40, 30)
    assert view_box_of('<svg viewBox="0 0 40">') is None  # then Qt's renderer reads the art
    assert view_box_of('<svg viewBox="0 0 40 zero">') is None
    assert view_box_of('<svg viewBox="0 0 0 30">') is None
    assert view_box_of('<svg width="40" height="30">') is None
