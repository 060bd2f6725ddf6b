"""A tournament board through the real window: a board call, an event preset, orders from the
phones, Move the pieces on the projector, a ballot that fails and one that passes, the result files
and the result sheet (read back from the PDF)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtGui import QFontInfo
from test_phones_window import call, phone_orders, start_hosting

from diplomacy_desktop.gui.table.dialogs import TableSettings
from diplomacy_desktop.table.hotseat import READY
from diplomacy_desktop.gui.table.tournament import BallotVoteDialog, MovePiecesDock
from diplomacy_desktop.gui.teach.explanations import PROJECTOR_BODY_PX
from diplomacy_desktop.table.event import DRAW_PROPOSAL, Ballot, EventRules

CALL = "Power,Player,Player id\n" + "\n".join(
    f"{p},{n},P{i}" for i, (p, n) in enumerate([("Austria", "Ana"), ("England", "Bo"), ("France", "Cleo"),
                                                ("Germany", "Dieter"), ("Italy", "Elena"), ("Russia", "Fyodor"),
                                                ("Turkey", "Gul")], start=101)) + "\n"

SPRING = {
    "france": ["A Par - Bur", "F Bre - Mao", "A Mar - Spa"],
    "germany": ["F Kie - Hol", "A Ber - Kie", "A Mun - Ruh"],  # a chain: Kiel empties before Berlin moves in
    "austria": ["A Vie - Gal"], "russia": ["A War - Gal"],  # a bounce
    "turkey": ["A Con - Bul", "F Ank - Con"],
}
FALL = {"france": ["F Mao - Por", "A Bur - Bel"], "germany": ["A Kie - Den"], "turkey": ["F Con - Aeg"]}


@pytest.fixture
def features_seed() -> int:
    return 22


def phones_play(qtbot, f, base: str, orders: dict[str, list[str]]) -> None:  # type: ignore[no-untyped-def]
    """Every power gives its orders and seals on its phone; the laptop reveals."""
    c = f.controller
    phase = c.state.phase.short
    host = f.phones.host
    if f.flow.session.stage == "open":
        f.act_write.trigger()  # F6: the talks end, orders are written
    for power in c.board.power_ids:
        if power not in host.owing():
            continue
        token = host.token_of(power)
        phone_orders(qtbot, base, token, power, phase, orders.get(power, []))
        status, answer = call(qtbot, "POST", f"{base}/api/seal", token, {"power": power, "phase": phase})
        assert status == 200, answer
    assert f.flow.session.stage == READY
    f.adjudicate()  # F8


def pdf_text(path: Path) -> str:
    """The first page's words, one space apart (the PDF text comes out with tabs between words)."""
    return " ".join(PdfReader(str(path)).pages[0].extract_text().split())


def vote(dialog: BallotVoteDialog, answers: list[bool]) -> None:
    for yes in answers:
        dialog.ready_button.click()
        (dialog.accept_button if yes else dialog.decline_button).click()
    dialog.close_button.click()


def test_tournament_board_plays_to_a_draw_with_phones_projector_and_ballots(qtbot, table, features,  # type: ignore[no-untyped-def]
                                                                           tmp_path: Path) -> None:
    t, f = table, features
    tour = t.window.tournament
    c = t.controller
    f.start_new_game(TableSettings())
    call_file = tmp_path / "call.csv"
    call_file.write_text(CALL, encoding="utf-8")
    assert tour.import_board_call(call_file)
    assert c.player_name("germany") == "Dieter" and c.table["player_ids"]["turkey"] == "P107"
    c.service.set_board_info({"event": "Test Open", "round": "2", "board": "5"})
    tour.apply_rules(EventRules(preset="talks15_write5", reveal_vetoes=True, end_year=1910))
    assert f.clock.model.settings.writing_minutes == 5 and c.game.end_year == 1910
    assert "The game ends after Fall 1910" in f.clock.note.text()
    base, host = start_hosting(f)

    # Spring 1901 on the phones; then Move the pieces
    phones_play(qtbot, f, base, SPRING)
    assert c.state.phase.short == "F1901M"
    tour.show_pieces()
    dock: MovePiecesDock = tour.pieces
    lines = [dock.list.item(i).text() for i in range(dock.list.count())]
    kiel = next(i for i, ln in enumerate(lines) if "from Kiel to Holland" in ln)
    berlin = next(i for i, ln in enumerate(lines) if "from Berlin to Kiel" in ln)
    assert kiel < berlin  # the chain from its free end
    assert not any("Vienna" in ln for ln in lines)  # the bounce moved nothing
    # the same list on every phone after the reveal
    status, state = call(qtbot, "GET", f"{base}/api/state", host.token_of("italy"))
    assert status == 200 and [s["text"] for s in state["results"]["pieces"]["steps"]] == [
        ln.split(". ", 1)[1] for ln in lines]
    # the projector shows the list, large
    t.window.projector.act.trigger()
    assert t.window.projector.active and dock.isVisible()
    assert QFontInfo(dock.list.font()).pixelSize() >= PROJECTOR_BODY_PX * t.window.height() / 1080  # issue 18's
    assert t.window.projector.panel is None or not t.window.projector.panel.isVisible()
    t.window.projector.act.trigger()
    assert not t.window.projector.active
    for i in range(dock.list.count()):
        dock.check(i)
    assert dock.progress.text() == f"{len(lines)} of {len(lines)} done"
    pdf = dock.print_pdf(tmp_path / "pieces.pdf")
    assert pdf is not None and "Move the pieces" in pdf_text(pdf)
    assert "from Kiel to Holland" in pdf_text(pdf)  # (the PDF's text has the fl ligature)
    dock.match_button.click()
    assert c.table["pieces_confirmed"] == ["S1901M"] and dock.is_confirmed()

    # Fall 1901: the reveal asks whether the board matches (answered yes by the fixture)
    phones_play(qtbot, f, base, FALL)
    assert c.state.phase.kind == "adjustment"
    assert not dock.is_confirmed() and "F1901M" not in c.table["pieces_confirmed"]
    assert "before the next reveal" in dock.status.text()
    phones_play(qtbot, f, base, {"france": ["Build A Par"], "germany": ["Build A Ber"],
                                  "turkey": ["Build A Smy"], "russia": ["Build A War"]})
    assert c.state.phase.short == "S1902M"
    assert "F1901M" in c.table["pieces_confirmed"]  # asked at the reveal, and the host said it matches
    lines = [dock.list.item(i).text() for i in range(dock.list.count())]
    assert any("Build a new army for France in Paris" in ln for ln in lines)

    # a ballot that fails (one secret No), then one that passes
    ballot = Ballot.open(tour.rules, c.state, "france", DRAW_PROPOSAL)
    dialog = tour.vote(ballot)
    vote(dialog, [True, True, True, False, True, True, True])
    assert not c.game.is_over
    assert "failed (1 against)" in dialog.result_note.text()
    dialog = tour.vote(Ballot.open(tour.rules, c.state, "germany", DRAW_PROPOSAL))
    vote(dialog, [True] * 7)
    assert c.game.is_over and c.game.ended is not None and c.game.ended.kind == "draw"
    ballots = c.table["ballots"]
    assert [b["passed"] for b in ballots] == [False, True] and ballots[0]["vetoes"] == 1
    assert all(set(b) == {"phase", "proposer", "proposal", "powers", "passed", "vetoes"} for b in ballots)

    # the board's result: the summary (from the game-over dialog), the files and the sheet
    assert f.game_over_dialog is not None and tour.result_button is not None
    tour.result_button.click()
    summary = tour.result_dialog
    assert summary is not None and summary.chart.by_year[1901]["france"] == 6
    written = summary.write_files(tmp_path)
    names = sorted(p.name for p in written)
    assert names == ["TestOpen-r2-b5-S1902M-sheet.pdf", "TestOpen-r2-b5-S1902M-wdd-boards.csv",
                     "TestOpen-r2-b5-S1902M-wdd-classification.csv", "TestOpen-r2-b5-S1902M.csv",
                     "TestOpen-r2-b5-S1902M.json"]
    data = json.loads((tmp_path / "TestOpen-r2-b5-S1902M.json").read_text(encoding="utf-8"))
    assert data["result"]["kind"] == "draw" and data["event"] == "Test Open"
    germany = next(p for p in data["players"] if p["power"] == "germany")
    assert germany["player"] == "Dieter" and germany["player_id"] == "P104"
    assert data["centres_by_year"]["1901"]["france"] == 6  # Spain, Portugal, Belgium taken
    rows = list(csv.DictReader((tmp_path / "TestOpen-r2-b5-S1902M.csv").open(encoding="utf-8")))
    assert {r["player"] for r in rows} == {"Ana", "Bo", "Cleo", "Dieter", "Elena", "Fyodor", "Gul"}
    text = pdf_text(tmp_path / "TestOpen-r2-b5-S1902M-sheet.pdf")
    for word in ("Board result", "Test Open", "Draw shared by", "Dieter", "Sum of Squares", "We agree",
                 "Tournament director", "Board rank", "Event rank"):
        assert word in text, word
    assert len(PdfReader(str(tmp_path / "TestOpen-r2-b5-S1902M-sheet.pdf")).pages) == 2
    summary.reject()


def test_tournament_hide_map_reaches_the_phones_and_the_projector(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    tour = t.window.tournament
    f.start_new_game(TableSettings())
    base, host = start_hosting(f)
    tour.act_hide_map.trigger()
    assert t.controller.table["hide_map"] is True
    status, state = call(qtbot, "GET", f"{base}/api/state", host.token_of("france"))
    assert status == 200 and state["map_hidden"] is True
    t.window.projector.act.trigger()
    assert not t.window.view.isVisible() and tour.pieces.isVisible()
    t.window.projector.act.trigger()
    assert t.window.view.isVisible()


def test_tournament_board_call_bad_file_says_why_and_changes_nothing(table, features, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtWidgets import QMessageBox

    said: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", staticmethod(lambda _p, _t, text: said.append(text)))
    f = features
    f.start_new_game(TableSettings())
    bad = tmp_path / "call.csv"
    bad.write_text("Prussia,Ann\n", encoding="utf-8")
    before = dict(table.controller.table.get("players") or {})
    assert not table.window.tournament.import_board_call(bad)
    assert "'Prussia' is not a power" in said[0]
    assert (table.controller.table.get("players") or {}) == before


def test_tournament_new_game_reads_the_board_call_into_its_players(qtbot, table, features,  # type: ignore[no-untyped-def]
                                                                   tmp_path: Path) -> None:
    from PySide6.QtWidgets import QDialog

    f = features
    call_file = tmp_path / "call.csv"
    call_file.write_text(CALL, encoding="utf-8")
    dialog = f.offer_new_game()
    assert dialog.call_button.text() == "Board call\u2026"
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"\xff\xfe\x00E")
    assert not dialog.import_board_call(str(bad))
    assert "not read" in dialog.error_label.text()
    assert dialog.import_board_call(str(call_file))
    assert dialog.name_edits["turkey"].text() == "Gul" and dialog.error_label.text() == ""
    dialog.done(QDialog.DialogCode.Accepted)
    c = table.controller
    assert c.player_name("austria") == "Ana" and c.table["player_ids"]["austria"] == "P101"


def test_tournament_two_players_vote_once_each_and_formal_games_take_presets_and_ballots(  # type: ignore[no-untyped-def]
        qtbot, table, features) -> None:
    f = features
    tour = table.window.tournament
    c = table.controller
    # two players (rules I: one holds England, Germany, Austria; the other Russia, Italy, France;
    # Turkey unplayed, in civil disorder)
    players = {"england": "Ann", "germany": "Ann", "austria": "Ann", "russia": "Bob", "italy": "Bob",
               "france": "Bob"}
    f.start_new_game(TableSettings(powers=list(players), players=players, formal=True))
    assert c.game.formal
    tour.apply_rules(EventRules(preset="central18"))
    assert f.clock.model.settings.spring_minutes == 18 and f.clock.model.settings.writing_minutes == 0
    voters = tour.voters()
    assert len(voters) == 2 and {c.player_name(p) for p in voters} == {"Ann", "Bob"}
    ballot = Ballot.open(tour.rules, c.state, "england", DRAW_PROPOSAL, voters=voters)
    dialog = tour.vote(ballot)
    assert dialog.pass_power.text().startswith(("Ann \u2014", "Bob \u2014"))
    vote(dialog, [True, False])
    assert not c.game.is_over and c.table["ballots"][-1]["passed"] is False
    dialog = tour.vote(Ballot.open(tour.rules, c.state, "russia", DRAW_PROPOSAL, voters=voters))
    vote(dialog, [True, True])
    assert c.game.is_over and c.game.ended is not None and len(c.game.ended.winners) == 7
    assert tour.final_result().outcome.kind == "draw"


def test_tournament_late_orders_warning_then_void_units_hold(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.engine.orders import Hold, Move
    from diplomacy_desktop.table.event import LATE_VOID

    f = features
    tour = table.window.tournament
    c = table.controller
    f.start_new_game(TableSettings())
    tour.apply_rules(EventRules(late_orders=LATE_VOID, late_grace_seconds=0))
    f.act_write.trigger()
    c.game.set_order(Move("france", "A", "par", "bur"))
    late = tour.late_powers()
    assert "france" in late and len(late) == 7
    tour._writing_ended()  # the clock ran out
    assert tour.late_timer.isActive()
    qtbot.waitUntil(lambda: not tour.late_timer.isActive(), timeout=5000)
    assert all(isinstance(o, Hold) for o in c.game.orders_of("france")) and len(c.game.orders_of("france")) == 3
    log = c.table["late_orders"]
    assert {(x["power"], x["verdict"]) for x in log} >= {("france", "warning"), ("france", "void")}
    assert tour.result().late_orders[0]["phase"] == "S1901M"


def test_tournament_a_damaged_player_id_is_left_out_of_the_result(table, features) -> None:  # type: ignore[no-untyped-def]
    """The table's player ids are a typed map: an id that is not text (a hand-edited save) is left
    out of the board's result (was: written as read, 3)."""
    features.start_new_game(TableSettings())
    table.controller.table["player_ids"] = {"france": "P101", "turkey": 3}
    assert dict(table.window.tournament.result().player_ids) == {"france": "P101"}


def test_tournament_adjudication_on_the_next_periods_clock(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    tour = table.window.tournament
    c = table.controller
    f.start_new_game(TableSettings(secrecy=False))
    tour.apply_rules(EventRules(preset="talks15_write2_next"))
    assert f.clock.model.settings.writing_minutes == 2
    assert not f.clock.model.is_running
    f.adjudicate()  # Spring 1901: everyone holds
    assert c.state.phase.short == "F1901M"
    assert f.clock.model.is_running  # Fall's talks began at once: the adjudication is on their clock
    tour.apply_rules(EventRules(preset="talks15_write5"))
    f.clock.model.pause()
    f.adjudicate()
    assert not f.clock.model.is_running


def test_tournament_time_limit_ends_the_game_after_the_year_under_way(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    tour = table.window.tournament
    c = table.controller
    f.start_new_game(TableSettings(secrecy=False))
    import datetime as dt
    now = [dt.datetime(2026, 12, 5, 23, 30)]
    tour.time_of_day = lambda: now[0]
    tour.apply_rules(EventRules(end_time="00:00"))  # set at 23:30: the limit is the coming midnight
    assert "At 00:00 the game year under way is the last" in f.clock.note.text()
    now[0] = dt.datetime(2026, 12, 6, 0, 1)
    f.adjudicate()  # Spring 1901: the time is found up; 1901 is the last year
    assert not c.game.is_over and c.game.end_year == 1901
    f.adjudicate()  # Fall 1901: the centres are counted, the game ends
    assert c.game.is_over and c.game.ended is not None and c.game.ended.kind == "short_game"
    result = tour.final_result()
    assert result.outcome.kind == "time_limit"
    assert result.outcome.in_draw == c.board.power_ids  # scored as the survivors' result


def test_tournament_proposal_dialog_follows_the_events_rules(qtbot) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.engine.state import GameState
    from diplomacy_desktop.gui.table.tournament import EventRulesDialog, ProposalDialog
    from diplomacy_desktop.io.boardfile import load_board
    from diplomacy_desktop.table.event import CUSTOM

    board = load_board()
    names = {p: board.power(p).name for p in board.power_ids}
    strict = ProposalDialog(GameState.initial(board), EventRules(), names)
    qtbot.addWidget(strict)
    assert not strict.draw_boxes["france"].isEnabled() and not strict.kind_concession.isEnabled()
    loose = ProposalDialog(GameState.initial(board), EventRules(draw_includes_all_survivors=False), names)
    qtbot.addWidget(loose)
    for p, box in loose.draw_boxes.items():
        box.setChecked(p == "france")
    loose.accept()
    assert loose.ballot is None and "two or more" in loose.error.text()
    loose.draw_boxes["germany"].setChecked(True)
    loose.accept()
    assert loose.ballot is not None and loose.ballot.powers == ("france", "germany")
    # the event rules dialog: a changed length makes the clock custom, and a bad time is refused
    dialog = EventRulesDialog(EventRules(), 1901)
    qtbot.addWidget(dialog)
    dialog.spins["fall_minutes"].setValue(12)
    assert dialog.preset_combo.currentData() == CUSTOM
    dialog.end_time_edit.setText("25:99")
    dialog.accept()
    assert dialog.rules_out is None and "HH:MM" in dialog.error.text()
    dialog.end_time_edit.setText("18:30")
    dialog.accept()
    assert dialog.rules_out is not None and dialog.rules_out.clock.fall_minutes == 12
    assert dialog.rules_out.end_time == "18:30"


def test_move_the_pieces_list_is_made_when_shown_not_while_hidden(qtbot, table, features, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    t = table
    dock = t.window.tournament.pieces
    made: list[str] = []
    refresh = dock.refresh
    monkeypatch.setattr(dock, "refresh", lambda: (made.append(dock.controller.state.phase.short), refresh())[1])
    assert not dock.isVisible()
    t.controller.service.confirm_pieces([])  # a change to the table: the hidden list waits
    assert made == []
    t.window.tournament.show_pieces()
    assert made and dock.isVisible() and dock.title.text() == "Move the pieces"
