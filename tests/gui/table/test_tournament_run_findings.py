"""What the issue-35 board run under Xvfb at 1366x768 showed (board call to signed sheet), each
through the window's own menu and buttons: the Event rules dialog ran off the bottom of the
screen (its OK button below the edge), a ballot's proposal with seven players' names ran off its
side, the printed Move the pieces did not say which board it was for, the board's result did not
say where its files went, and the sheet's end rule read "…; At 23:30…"."""

from __future__ import annotations

import itertools
import unicodedata
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog

from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.gui.table.dialogs import TableSettings

#: a laptop's screen less its panel (as tests/gui/test_map_readable.py has it)
SCREEN_W, SCREEN_H = 1366, 740


def _board_details(table, event: str, round_name: str, board: str) -> None:  # type: ignore[no-untyped-def]
    tour = table.window.tournament
    tour.act_details.trigger()
    dialog = tour.details_dialog
    for key, value in (("event", event), ("round", round_name), ("board", board)):
        dialog.edits[key].setText(value)
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()


def test_event_rules_dialog_fits_a_1366_by_768_screen(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    features.start_new_game(TableSettings(secrecy=False))
    tour = table.window.tournament
    tour.act_rules.trigger()
    dialog = tour.rules_dialog
    assert dialog is not None
    want = dialog.sizeHint()
    assert want.height() <= SCREEN_H and want.width() <= SCREEN_W, want
    dialog.reject()


def test_ballot_proposal_with_seven_long_names_fits_the_screen(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    features.start_new_game(TableSettings(secrecy=False, players={
        p: f"Maximilian Hoffmann-Schulz {i}" for i, p in enumerate(table.controller.board.power_ids)}))
    tour = table.window.tournament
    assert table.controller.player_name("germany").startswith("Maximilian")
    tour.act_ballot.trigger()
    dialog = tour.proposal_dialog
    assert dialog is not None and len(dialog.draw_boxes) == 7
    assert dialog.sizeHint().width() <= SCREEN_W, dialog.sizeHint()
    dialog.reject()


def test_printed_move_the_pieces_names_the_event_round_and_board(qtbot, table, features, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    c = table.controller
    features.start_new_game(TableSettings(secrecy=False))
    _board_details(table, "Winter Open 2026", "3", "7")
    c.game.set_order(Move("france", "A", "par", "bur"))
    features.adjudicate()
    tour = table.window.tournament
    tour.act_pieces.trigger()
    target = tmp_path / "pieces.pdf"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *_a, **_k: (str(target), "")))
    tour.pieces.print_button.click()
    text = " ".join(PdfReader(str(target)).pages[0].extract_text().split())
    assert "Winter Open 2026" in text and "Round 3" in text and "Board 7" in text


def test_board_result_says_where_its_files_went(qtbot, table, features, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from diplomacy_desktop.table.event import EventRules

    c = table.controller
    features.start_new_game(TableSettings(secrecy=False))
    _board_details(table, "Winter Open 2026", "3", "7")
    tour = table.window.tournament
    tour.apply_rules(EventRules(end_time="23:30"))
    features.adjudicate()
    c.game.declare_draw(c.board.power_ids)
    tour.act_result.trigger()
    dialog = tour.result_dialog
    assert dialog is not None
    folder = tmp_path / "results"
    folder.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *_a, **_k: str(folder)))
    dialog.write_button.click()
    said = dialog.written_label.text()
    assert dialog.written_label.isVisibleTo(dialog) and str(folder) in said
    names = sorted(p.name for p in folder.iterdir())
    assert len(names) == 5 and all(name in said for name in names)
    # the sheet's end rule reads as one sentence
    assert "; at 23:30 the game year under way is the last" in dialog.shown.end_rule
    dialog.reject()


def test_a_ballots_outcome_fits_the_status_bar_and_the_clock_drops_the_end_once_over(  # type: ignore[no-untyped-def]
        qtbot, table, features) -> None:
    """Seven players' names made the status bar's sentence run past its room ("…France (Cléo
    Martin)," and no outcome); once the draw passed, the clock still said "At 23:30 the game year
    under way is the last"."""
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QWidget

    from diplomacy_desktop.table.event import EventRules

    c = table.controller
    table.window.resize(1366, 768)
    features.start_new_game(TableSettings(secrecy=False, players={
        p: f"Maximilian Hoffmann-Schulz {i}" for i, p in enumerate(c.board.power_ids)}))
    tour = table.window.tournament
    tour.apply_rules(EventRules(end_time="23:30"))
    assert "23:30" in features.clock.note.text()
    tour.act_ballot.trigger()
    tour.proposal_dialog.vote_button.click()
    dialog = tour.ballot_dialog
    while dialog.ready_button.isVisible():
        dialog.ready_button.click()
        dialog.accept_button.click()
    bar = table.window.statusBar()
    message = bar.currentMessage()
    assert message.startswith("Ballot passed: a draw of 7"), message
    widgets = [w for w in bar.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
               if w.isVisible()]
    room = bar.width() - sum(w.width() for w in widgets)
    assert QFontMetrics(bar.font()).horizontalAdvance(message) <= room, (message, room)
    dialog.close_button.click()
    assert c.game.is_over
    assert "23:30" not in features.clock.note.text()


def test_result_sheet_signature_labels_hold_long_names(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """A signer's label stood in a box of a third of the page and was cut at its edge: a long
    name ("Germany (Alexandre-Benoît de la Rochefoucauld-Montbel)") lost its end."""
    from PySide6.QtCore import QRectF
    from PySide6.QtGui import QImage, QPainter

    from diplomacy_desktop.gui.table.tournament_pages import paint_result_sheet

    c = table.controller
    features.start_new_game(TableSettings(secrecy=False, players={
        p: f"Alexandre-Benoît de la Rochefoucauld-Montbel {i}" for i, p in enumerate(c.board.power_ids)}))
    c.game.declare_draw(c.board.power_ids)
    result = table.window.tournament.final_result()
    image = QImage(794, 1123, QImage.Format.Format_RGB32)  # A4 at 96 dpi
    painter = QPainter(image)
    labels = paint_result_sheet(painter, QRectF(0, 0, 794, 1123), result)
    painter.end()
    assert len(labels) == 7
    for box, used in labels:
        assert used.width() <= box.width() + 0.5 and used.height() <= box.height() + 0.5, (box, used)


def test_an_open_tables_f8_asks_whether_the_board_matches(qtbot, table, features, host) -> None:  # type: ignore[no-untyped-def]
    """The second issue-35 run (an open table, the director typing the orders): after Winter 1901
    the board was not confirmed ("The board matches" answered No), and F8 adjudicated Spring 1902
    without the question the hot-seat reveal asks."""
    c = table.controller
    features.start_new_game(TableSettings(secrecy=False))
    _board_details(table, "Winter Open 2026", "3", "7")  # an event's table: it plays on a board
    c.game.set_order(Move("france", "A", "par", "bur"))
    features.act_reveal.trigger()
    assert c.state.phase.short == "F1901M"
    tour = table.window.tournament
    tour.act_pieces.trigger()
    assert not tour.pieces.is_confirmed()
    host.answer = False
    features.act_reveal.trigger()
    assert host.questions and host.questions[-1][0] == "Move the pieces"
    assert c.state.phase.short == "F1901M"  # not adjudicated: the pieces first
    host.answer = True
    features.act_reveal.trigger()
    assert c.state.phase.short != "F1901M" and "S1901M" in c.table["pieces_confirmed"]


def test_the_signed_sheet_carries_every_players_whole_name(qtbot, table, features, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The second issue-35 run's sheet (Board result ▸ Write result files…): the table of the page
    to sign cut "Alexandre-Benoît de la…" and "Maximilian Hoffmann-…" while its Eliminated column
    stood empty; the sheet to sign names each player whole."""
    c = table.controller
    names = {"austria": "Alexandre-Benoît de la Rochefoucauld", "germany": "Maximilian Hoffmann-Schulz"}
    features.start_new_game(TableSettings(secrecy=False, players=names))
    _board_details(table, "Winter Open 2026", "3", "7")
    c.game.declare_draw(c.board.power_ids)
    tour = table.window.tournament
    tour.act_result.trigger()
    dialog = tour.result_dialog
    folder = tmp_path / "results"
    folder.mkdir()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", staticmethod(lambda *_a, **_k: str(folder)))
    dialog.write_button.click()
    sheet = next(folder.glob("*-sheet.pdf"))
    # (NFKC: the PDF's text keeps the font's ligatures, "Hoﬀmann")
    text = unicodedata.normalize("NFKC", " ".join(PdfReader(str(sheet)).pages[0].extract_text().split()))
    for name in names.values():
        assert text.count(name) == 2, (name, text)  # in the table and beside the signature line
    assert "\u2026" not in text
    dialog.reject()


def test_the_sheets_signature_rows_and_headings_stand_apart(qtbot, table, features, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """On the same sheet Germany's two-line label ("Germany (Maximilian Hoffmann-" / "Schulz)")
    stood right under "France (Cléo Martin)", touching it: the two read as one signer."""
    from PySide6.QtCore import QMarginsF, QRectF
    from PySide6.QtGui import QPageLayout, QPageSize, QPainter, QPdfWriter

    from diplomacy_desktop.gui.board.export import PDF_DPI, PDF_MARGIN_MM
    from diplomacy_desktop.gui.table.tournament_pages import paint_result_sheet

    c = table.controller
    features.start_new_game(TableSettings(secrecy=False, players={
        "austria": "Alexandre-Benoît de la Rochefoucauld", "england": "Siobhán Ní Dhomhnaill",
        "france": "Cléo Martin", "germany": "Maximilian Hoffmann-Schulz"}))
    c.game.declare_draw(c.board.power_ids)
    result = table.window.tournament.final_result()
    # painted as the file is: on a PDF writer at its resolution (a 96 dpi image's hinted type is narrower)
    writer = QPdfWriter(str(tmp_path / "sheet.pdf"))
    writer.setResolution(PDF_DPI)
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize.PageSizeId.A4), QPageLayout.Orientation.Portrait,
                                     QMarginsF(PDF_MARGIN_MM, PDF_MARGIN_MM, PDF_MARGIN_MM, PDF_MARGIN_MM),
                                     QPageLayout.Unit.Millimeter))
    page = QRectF(writer.pageLayout().paintRectPixels(writer.resolution()))
    page.moveTo(0, 0)
    painter = QPainter(writer)
    headers: list[tuple[QRectF, QRectF]] = []
    labels = paint_result_sheet(painter, page, result, headers)
    painter.end()
    for (box, used), (_next_box, next_used) in itertools.pairwise(labels):
        assert next_used.top() - used.bottom() >= 0.2 * box.height(), (used, next_used)
    # and its column headings and cells keep to their columns ("Eliminated" ran into "Board rank";
    # then, the columns retuned, "Germany" was cut to "Germa…")
    assert len(headers) == 7 * 8
    for box, used in headers:
        assert used.width() <= box.width() + 0.5, (box, used)


def test_an_events_game_over_says_the_events_result_not_a_rulebook_winner(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """The second issue-35 run ended by the event's time limit after 1902, France and Turkey on 6
    centres: the game-over dialog read "Tie: France (Cléo Martin) and Turkey (Ayşe Yılmaz)", "Won
    by most supply centres (rules XIV.4) … they share first place", with stars for the two, while
    the event scores a time limit as every survivor's result (the sheet: "Time limit reached:
    survivors …"); a director reading the dialog out would name two winners the event has not."""
    from PySide6.QtWidgets import QDialogButtonBox

    c = table.controller
    features.start_new_game(TableSettings(secrecy=False, players={"france": "Cléo Martin"}))
    tour = table.window.tournament
    tour.act_rules.trigger()
    rules = tour.rules_dialog
    rules.end_year_box.setChecked(True)
    rules.end_year_spin.setValue(1901)
    rules.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    c.game.set_order(Move("france", "A", "par", "bur"))
    features.act_reveal.trigger()
    c.game.set_order(Move("france", "A", "bur", "bel"))
    while not c.game.is_over:
        features.act_reveal.trigger()
    dialog = features.game_over_dialog
    assert dialog is not None and dialog.isVisible()
    assert c.game.ended.kind == "short_game" and "france" in c.game.ended.winners  # the rulebook's leaders
    said = " ".join(w.text() for w in (dialog.kicker, dialog.headline, dialog.subline, dialog.count_label)
                    if w.isVisibleTo(dialog))
    assert "survivors" in said and "wins" not in said and "leads" not in said and "first place" not in said, said
    assert not any("\u2605" in (dialog.table.item(r, 0).text()) for r in range(dialog.table.rowCount()))


def test_board_result_shows_the_events_score_and_rank_first(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """The second issue-35 run's Board result: the event's system stood among the fourteen in the
    catalogue's order (Detour, the twelfth, off the dialog's right edge at 1366x768), no event rank
    was shown, and the rows were numbered 1 to 7 although France and Turkey shared first place."""
    from diplomacy_desktop.table.event import EventRules

    c = table.controller
    features.start_new_game(TableSettings(secrecy=False))
    tour = table.window.tournament
    tour.apply_rules(EventRules(scoring="detour", tie_break="shared"))
    c.game.declare_draw(c.board.power_ids)
    tour.act_result.trigger()
    dialog = tour.result_dialog
    t = dialog.table
    heads = [t.horizontalHeaderItem(i).text() for i in range(t.columnCount())]
    assert heads[:4] == ["Power", "Centres", "Detour (the event's)", "Event rank"], heads
    assert not t.verticalHeader().isVisible()
    ranks = {t.item(r, 0).text().split(" (")[0]: t.item(r, 3).text() for r in range(t.rowCount())}
    assert ranks["Russia"] == "1" and ranks["France"] == ranks["Turkey"] == "2="
    assert heads.count("Detour") == 0  # not twice
    dialog.reject()


def test_the_clock_offers_no_start_once_the_game_is_over(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """After the time limit ended the second issue-35 run's game, the clock above the map read
    "Diplomacy — Spring 1903", "Press Start when the table is ready", with Start and "Write orders
    now" live: a talks clock for a year that is never played."""
    c = table.controller
    features.start_new_game(TableSettings(secrecy=False))
    clock = features.clock
    assert clock.start_button.isEnabled()
    c.set_end_year(1900)  # the limit already past: the game is over at once
    assert c.game.is_over
    assert not clock.start_button.isEnabled() and not clock.skip_button.isEnabled()
    assert "Press Start" not in clock.note.text() and "over" in clock.note.text()
    assert not features.act_clock.isEnabled()
