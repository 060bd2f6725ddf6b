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
    c.service.confirm_pieces([])
    for i in range(total):
        dock.check(i)
    dock.match_button.click()
    assert len(host.questions) == asked and "S1901M" in c.table["pieces_confirmed"]


def _ended_by_a_draw(features, table) -> None:  # type: ignore[no-untyped-def]
    features.start_new_game(TableSettings(secrecy=False))
    features.adjudicate()
    table.controller.game.declare_draw(table.controller.board.power_ids)


def test_board_details_entered_in_the_window_name_every_result_file(qtbot, table, features,  # type: ignore[no-untyped-def]
                                                                    tmp_path: Path) -> None:
    """Issue 35 (2): event, round and board could not be entered anywhere in the window; the files
    were always ``board-<phase>.*`` with those fields empty."""
    import csv
    import json

    from PySide6.QtWidgets import QDialog

    _ended_by_a_draw(features, table)
    tour = table.window.tournament
    tour.act_details.trigger()
    dialog = tour.details_dialog
    assert dialog is not None
    dialog.edits["event"].setText("Spring Open")
    dialog.edits["round"].setText("3")
    dialog.edits["board"].setText("7")
    dialog.done(QDialog.DialogCode.Accepted)
    assert table.controller.table["board_info"] == {"event": "Spring Open", "round": "3", "board": "7"}
    summary = tour.show_result()
    written = summary.write_files(tmp_path)
    assert len(written) == 5 and all(p.name.startswith("SpringOpen-r3-b7-") for p in written)
    data = json.loads(next(p for p in written if p.suffix == ".json").read_text(encoding="utf-8"))
    assert (data["event"], data["round"], data["board"]) == ("Spring Open", "3", "7")
    rows = list(csv.DictReader(next(p for p in written if p.name.endswith("-wdd-boards.csv")).open(encoding="utf-8")))
    assert {r["ROUND"] for r in rows} == {"3"} and {r["BOARD"] for r in rows} == {"7"}
    summary.reject()


def test_board_call_gives_the_boards_details(qtbot, table, features, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    features.start_new_game(TableSettings(secrecy=False))
    call = tmp_path / "call.csv"
    call.write_text("event;Spring Open\nround;2\nboard;5\n" + "".join(
        f"{p};N{i};P{i}\n" for i, p in enumerate(("Austria", "England", "France", "Germany", "Italy", "Russia",
                                                   "Turkey"))), encoding="utf-8")
    assert table.window.tournament.import_board_call(call)
    assert table.controller.table["board_info"] == {"event": "Spring Open", "round": "2", "board": "5"}


def test_result_files_never_replace_another_boards_without_asking_and_are_whole_or_none(  # type: ignore[no-untyped-def]
        qtbot, table, features, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 35 (2): two boards ending in the same phase overwrote each other silently, and a
    failed write could leave part of a result."""
    import os

    from PySide6.QtWidgets import QMessageBox

    from diplomacy_desktop.gui.table import tournament_dialogs

    _ended_by_a_draw(features, table)
    tour = table.window.tournament
    table.controller.service.set_board_info({"event": "Open", "round": "1", "board": "1"})
    summary = tour.show_result()
    tmp_path = tmp_path / "results"
    tmp_path.mkdir()
    first = summary.write_files(tmp_path)
    assert len(first) == 5
    before = {p.name: p.read_bytes() for p in first}
    asked: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(
        lambda _p, _t, text, *_a: (asked.append(text), QMessageBox.StandardButton.No)[1]))
    assert summary.write_files(tmp_path) == []
    assert asked and "already there" in asked[0]
    assert {p.name: p.read_bytes() for p in first} == before
    # a write that fails part way: nothing of the new result is left, the old files are back
    warned: list[str] = []
    monkeypatch.setattr(QMessageBox, "question", staticmethod(lambda *_a: QMessageBox.StandardButton.Yes))
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text: warned.append(text)))
    real = os.replace
    calls = {"n": 0}

    def flaky(src: object, dst: object) -> None:
        calls["n"] += 1
        if calls["n"] == 8:  # after the backups, part way through moving the new files in
            raise OSError(28, "No space left on device")
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", flaky)
    assert tournament_dialogs.write_result_files(summary.shown, tmp_path, parent=summary) == []
    monkeypatch.setattr(os, "replace", real)
    assert warned and "Nothing was written" in warned[0]
    assert {p.name: p.read_bytes() for p in first} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(before)
    summary.reject()


def test_event_rules_choose_the_scoring_system_tie_break_and_concession(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QDialog

    features.start_new_game(TableSettings(secrecy=False))
    tour = table.window.tournament
    dialog = tour.edit_rules()
    dialog.scoring_combo.setCurrentIndex(dialog.scoring_combo.findData("bangkok"))
    dialog.tie_combo.setCurrentIndex(dialog.tie_combo.findData("shared"))
    dialog.concession_combo.setCurrentIndex(dialog.concession_combo.findData("survivors"))
    dialog.accept()
    assert dialog.result() == QDialog.DialogCode.Accepted
    rules = tour.rules
    assert (rules.scoring, rules.tie_break, rules.concession_scored_as) == ("bangkok", "shared", "survivors")
    result = tour.result()
    assert result.event_system == "bangkok" and result.outcome.conceded_as == "survivors"
