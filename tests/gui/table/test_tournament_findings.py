"""Issue 35's findings, each through the real button or dialog of the window: Move the pieces
printed from its button and wrapped, "The board matches" asking first, the board's details (event,
round, board) entered in the window and kept in every result file, the files written whole or not
at all and never over another board's without asking, the board call's checks, and the result
files a tournament tool reads without help (rank, ties, in_draw, start, WDD)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.gui.table.dialogs import TableSettings


@pytest.fixture
def features_seed() -> int:
    return 22


def _spring_with_moves(features, table) -> None:  # type: ignore[no-untyped-def]
    """Spring 1901 adjudicated with a few moves (a chain, a bounce): a list of several steps."""
    c = table.controller
    features.start_new_game(TableSettings(secrecy=False))
    for order in (Move("germany", "F", "kie", "hol"), Move("germany", "A", "ber", "kie"),
                  Move("france", "A", "par", "bur"), Move("france", "F", "bre", "mao"),
                  Move("turkey", "A", "con", "bul"), Move("turkey", "F", "ank", "con"),
                  Move("russia", "A", "war", "gal"), Move("austria", "A", "vie", "gal")):
        c.game.set_order(order)
    features.adjudicate()
    assert c.state.phase.short == "F1901M"


def test_move_the_pieces_print_button_writes_the_pdf(qtbot, table, features, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35 (1): the button passed its ``checked`` (False) as the path: "expected str, bytes or
    os.PathLike object, not bool" every time."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    _spring_with_moves(features, table)
    tour = table.window.tournament
    tour.act_pieces.trigger()
    dock = tour.pieces
    target = tmp_path / "pieces.pdf"
    asked: list[str] = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        staticmethod(lambda *_a, **_k: (asked.append("path") or str(target), "")))
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text: warned.append(text)))
    dock.print_button.click()
    assert asked == ["path"] and warned == []
    assert target.exists()
    text = " ".join(PdfReader(str(target)).pages[0].extract_text().split())
    assert "Move the pieces" in text and "Berlin to Kiel" in text


def test_move_the_pieces_printed_steps_wrap_and_are_never_cut(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Issue 35 (1): the printed list cut long lines off (the ring, swap and set-aside steps).  Every
    step's box is as tall as its wrapped words need and stays inside its page; a long list goes on
    to more pages."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from diplomacy_desktop.engine.state import Phase
    from diplomacy_desktop.gui.table.tournament_pages import paint_pieces_pages, pieces_pdf
    from diplomacy_desktop.io.boardfile import load_board
    from diplomacy_desktop.table.pieces import ASIDE, LIFT, PiecePlan, PieceStep

    board = load_board()
    long_note = "a ring of three: lift it first, move the others round, put it down last; " * 3
    steps = tuple(PieceStep(LIFT if i % 3 == 0 else ASIDE, "turkey", "A", "ser", None,
                            long_note if i % 2 == 0 else "dislodged from Bulgaria", ring=1) for i in range(60))
    plan = PiecePlan(Phase(1903, "fall", "movement"), steps, rings=1)
    image = QImage(600, 850, QImage.Format.Format_RGB32)
    pages: list[int] = []
    painter = QPainter(image)
    rect = QRectF(0, 0, 600, 850)
    layout = paint_pieces_pages(painter, rect, board, plan, new_page=lambda: pages.append(1))
    painter.end()
    assert layout.pages == len(pages) + 1 > 1  # 60 steps, most of them long: more than one page
    for page, box, need in layout.boxes:
        assert box.height() >= need  # the words' full height
        assert box.right() <= rect.right() and box.bottom() <= rect.bottom()
    single_line = min(need for _p, _b, need in layout.boxes)
    assert max(need for _p, _b, need in layout.boxes) >= 2 * single_line  # the long steps wrapped
    pdf = pieces_pdf(board, plan)
    from io import BytesIO

    reader = PdfReader(BytesIO(pdf))
    assert len(reader.pages) == layout.pages
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    assert "60. Lift Turkey" in text


def test_the_board_matches_with_steps_not_ticked_asks_first(qtbot, table, features, host) -> None:  # type: ignore[no-untyped-def]
    """Issue 35 (4): "The board matches" was accepted with 2 of 20 steps ticked, without a question."""
    _spring_with_moves(features, table)
    c = table.controller
    tour = table.window.tournament
    tour.act_pieces.trigger()
    dock = tour.pieces
    total = dock.list.count()
    assert total >= 4
    dock.check(0)
    host.answer = False
    dock.match_button.click()
    assert host.questions[-1] == ("Move the pieces", (f"Only 1 of {total} steps are ticked. "
                                                      "Does the physical board match the game anyway?"))
    assert "S1901M" not in (c.table.get("pieces_confirmed") or []) and not dock.is_confirmed()
    host.answer = True
    dock.match_button.click()
    assert "S1901M" in c.table["pieces_confirmed"] and dock.is_confirmed()
    # every step ticked: no question
    asked = len(host.questions)
    c.update_table(pieces_confirmed=[])
    for i in range(total):
        dock.check(i)
    dock.match_button.click()
    assert len(host.questions) == asked and "S1901M" in c.table["pieces_confirmed"]
