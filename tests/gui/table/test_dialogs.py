"""New Game settings, the secret draw vote and the game-over screen."""

from __future__ import annotations

import json
from typing import Any

import pytest
from new_game import no_pins_and_a_passphrase
from widget_text import texts

from diplomacy_desktop.engine.game import Game, GameEnd
from diplomacy_desktop.engine.orders import Move
from diplomacy_desktop.engine.state import Phase
from diplomacy_desktop.table.clock import ClockSettings
from diplomacy_desktop.gui.table.dialogs import (
    DrawVote,
    DrawVoteDialog,
    DrawVoteError,
    GameOverDialog,
    NewGameDialog,
    TableSettings,
    end_headline,
    standings,
)
from diplomacy_desktop.io.pins import pin_matches
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.table.state import TableState

BOARD = load_board("standard")


@pytest.fixture
def features_seed() -> int:
    return 3


@pytest.fixture
def features_options() -> dict[str, Any]:
    """This file's table: questions answered yes, the app's own host prompt (no test sets a host PIN)."""
    return {"confirm": lambda *a: True}


def test_dialogs_new_game_defaults_are_the_standard_game(qtbot) -> None:
    d = NewGameDialog(BOARD)
    qtbot.addWidget(d)
    s = d.settings()
    assert s == TableSettings()
    assert s.powers_in_play(BOARD) == BOARD.power_ids
    assert s.edition == "classic" and s.end_year is None and s.secrecy
    assert s.clock.spring_minutes == 15 and s.clock.writing_minutes == 2 and s.clock.writing_per_power  # (issue 34)
    d.start_button.click()  # issue 20: secrecy asks for PINs (or "no PINs") and a passphrase
    assert d.result() != NewGameDialog.DialogCode.Accepted and "PIN" in d.error_label.text()
    no_pins_and_a_passphrase(d).start_button.click()
    assert d.result() == NewGameDialog.DialogCode.Accepted


def test_dialogs_new_game_collects_players_rules_length_clock_and_pins(qtbot) -> None:
    d = NewGameDialog(BOARD)
    qtbot.addWidget(d)
    d.play_boxes["italy"].setChecked(False)
    d.play_boxes["turkey"].setChecked(False)
    d.name_edits["france"].setText("Anna")
    d.pin_edits["france"].setText("2024")
    d.edition_combo.setCurrentIndex(d.edition_combo.findData("2023"))
    d.short_box.setChecked(True)
    d.end_year_spin.setValue(1907)
    d.spring_spin.setValue(18)
    d.writing_spin.setValue(4)
    d.secrecy_box.setChecked(False)
    s = d.settings()
    assert s.powers == ("austria", "england", "france", "germany", "russia")
    assert s.players == {"france": "Anna"}
    assert s.edition == "2023" and s.end_year == 1907 and not s.secrecy
    assert s.clock.spring_minutes == 18 and s.clock.writing_minutes == 4
    assert pin_matches(s.pins["france"], "2024")
    table = json.loads(json.dumps(s.to_table()))
    assert table["pins"]["france"].startswith("scrypt$")  # only the salted hash is kept
    back = TableSettings.from_table(TableState.from_table(table), edition="2023", end_year=1907)
    assert back == s


def test_dialogs_new_game_refuses_a_bad_pin_and_too_few_players(qtbot) -> None:
    d = NewGameDialog(BOARD)
    qtbot.addWidget(d)
    d.pin_edits["england"].setText("12")
    d.start_button.click()
    assert d.result() != NewGameDialog.DialogCode.Accepted and "4 to 8 digits" in d.error_label.text()
    d.pin_edits["england"].setText("")
    for p in BOARD.power_ids[1:]:
        d.play_boxes[p].setChecked(False)
    d.start_button.click()
    assert "two powers" in d.error_label.text()
    d.reset_to_defaults()
    assert d.settings().powers == ()


def test_dialogs_new_game_never_carries_earlier_pins(qtbot) -> None:
    # issue 8: a new game never carries the previous game's PINs (player PINs and host PIN)
    from diplomacy_desktop.table.hotseat import hash_pin

    stored = hash_pin("5555")
    d = NewGameDialog(BOARD, TableSettings(pins={"russia": stored}, clock=ClockSettings(spring_minutes=16),
                                           host_pin=hash_pin("9999")))
    qtbot.addWidget(d)
    s = d.settings()
    assert s.pins == {} and s.host_pin is None and s.clock.spring_minutes == 16
    assert d.pin_edits["russia"].placeholderText() == "none" and not d.host_pin_edit.text()
    assert "pins" not in s.to_table() or s.to_table()["pins"] == {}
    assert "host_pin" not in s.to_table()
    with pytest.raises(ValueError):
        TableSettings(pins={"russia": "5555"})  # a PIN, not a hash: refused


def test_dialogs_draw_vote_needs_everyone() -> None:
    v = DrawVote(("england", "france", "russia"))
    v.vote("england", True)
    with pytest.raises(DrawVoteError):
        v.vote("england", True)
    with pytest.raises(DrawVoteError):
        v.vote("russia", True)  # out of turn
    v.vote("france", False)
    v.vote("russia", True)
    assert v.complete and not v.accepted
    w = DrawVote(("england", "france"))
    w.vote("england", True)
    assert not w.accepted  # not complete
    w.vote("france", True)
    assert w.accepted


def test_dialogs_draw_vote_dialog_is_secret_and_passes_the_laptop(qtbot) -> None:
    names = {"england": "England", "france": "France", "russia": "Russia"}
    d = DrawVoteDialog(("england", "france", "russia"), names=names)
    qtbot.addWidget(d)
    for power, accept in (("england", True), ("france", False), ("russia", True)):
        assert d.stack.currentWidget() is d.pass_page and d.pass_power.text() == names[power]
        d.ready_button.click()
        assert d.stack.currentWidget() is d.vote_page
        (d.accept_button if accept else d.decline_button).click()
    assert d.stack.currentWidget() is d.result_page
    assert "not accepted" in d.result_label.text()
    shown = " ".join(texts(d))
    assert "declined" not in shown.replace("who declined", "")  # never who
    assert not d.accepted_draw


def test_dialogs_draw_vote_with_pins_and_all_accepting(qtbot) -> None:
    from diplomacy_desktop.table.hotseat import hash_pin

    d = DrawVoteDialog(("austria", "turkey"), pins={"turkey": hash_pin("8080")})
    qtbot.addWidget(d)
    d.ready_button.click()
    d.accept_button.click()
    assert not d.pin_edit.isHidden()
    d.pin_edit.setText("1111")
    d.ready_button.click()
    assert d.stack.currentWidget() is d.pass_page and d.pin_error.text() == "Wrong PIN"
    d.pin_edit.setText("8080")
    d.ready_button.click()
    d.accept_button.click()
    assert d.accepted_draw and "accepted" in d.result_label.text()
    with qtbot.waitSignal(d.accepted, timeout=1000):
        d.close_button.click()


def _game_with(owners: dict[str, str], year: int = 1905, end_year: int | None = None) -> Game:
    g = Game.new(BOARD, end_year=end_year)
    g.state = g.state.evolve(owners=owners, phase=Phase(year, "spring", "movement"))
    return g


def test_dialogs_game_over_victory(qtbot) -> None:
    centres = sorted(BOARD.centres)
    owners = {c: "france" for c in centres[:18]}
    owners.update({c: "england" for c in centres[18:]})
    g = _game_with(owners)
    end = g.ended
    assert end is not None and end.kind == "victory"
    d = GameOverDialog(end, g.state, names={"france": "Anna"})
    qtbot.addWidget(d)
    assert d.headline.text() == "France (Anna) wins!"
    assert d.table.item(0, 1).text().startswith("France") and d.table.item(0, 2).text() == "18"
    assert "\u2605" in d.table.item(0, 0).text()


def test_dialogs_game_over_short_game_shows_a_tie(qtbot) -> None:
    centres = sorted(BOARD.centres)
    owners = {c: "germany" for c in centres[:8]}
    owners.update({c: "russia" for c in centres[8:16]})
    owners.update({c: "italy" for c in centres[16:20]})
    g = _game_with(owners, year=1908, end_year=1907)
    end = g.ended
    assert end is not None and end.kind == "short_game" and set(end.winners) == {"germany", "russia"}
    d = GameOverDialog(end, g.state)
    qtbot.addWidget(d)
    assert d.headline.text() == "Tie: Germany and Russia"
    top = {d.table.item(r, 1).text() for r in range(2)}
    assert top == {"Germany", "Russia"}
    assert standings(g.state)[0][1] == 8


def test_dialogs_game_over_draw(qtbot) -> None:
    g = Game.new(BOARD)
    g.declare_draw(["turkey", "austria"])
    end = g.ended
    assert end is not None
    d = GameOverDialog(end, g.state)
    qtbot.addWidget(d)
    assert d.headline.text() == "A draw" and "Austria and Turkey" in d.subline.text()
    with qtbot.waitSignal(d.finished, timeout=1000) as blocker:
        d.new_button.click()
    assert blocker.args == [GameOverDialog.NEW_GAME]


def test_dialogs_end_headline_single_leader() -> None:
    end = GameEnd("short_game", ("england",), "The game ended after 1907: England leads with 9 centres")
    assert end_headline(end, BOARD) == ("England leads", end.text)


# -- in the real main window ----------------------------------------------------------------------


def test_dialogs_ctrl_n_opens_the_new_game_settings(table, features) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtCore import Qt

    t, f = table, features
    t.key(Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    d = f.new_game_dialog
    assert isinstance(d, NewGameDialog) and d.isVisible()
    d.name_edits["turkey"].setText("Dana")
    d.edition_combo.setCurrentIndex(d.edition_combo.findData("2023"))
    d.short_box.setChecked(True)
    d.end_year_spin.setValue(1905)
    d.fall_spin.setValue(12)
    d.secrecy_box.setChecked(False)
    d.start_button.click()
    c = t.controller
    assert c.game.rules.edition.value == "2023" and c.game.end_year == 1905
    assert c.player_name("turkey") == "Dana"
    assert not f.flow.enabled and not f.flow.curtain_up and c.visible_powers == frozenset(BOARD.power_ids)
    assert f.clock.model.settings.fall_minutes == 12


def test_dialogs_new_game_private_notes_option_off_by_default_and_saved(table, features, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.io.savefile import load_game

    t, f = table, features
    c = t.controller
    d = f.offer_new_game()
    assert not d.notes_box.isChecked() and not d.settings().notes  # off by default
    no_pins_and_a_passphrase(d).start_button.click()
    assert "notes_allowed" not in c.table and not f.act_notes.isChecked()
    d = f.offer_new_game()
    assert not d.notes_box.isChecked()
    d.notes_box.setChecked(True)
    no_pins_and_a_passphrase(d).start_button.click()
    assert c.table["notes_allowed"] is True and f.act_notes.isChecked()  # the Table menu agrees
    _, saved = f.autosaver.autosave.load()  # saved with the game (its public part)
    assert saved["notes_allowed"] is True
    path = tmp_path / "notes.dipl"
    c.save(path)
    _, saved = load_game(path)
    assert saved["notes_allowed"] is True
    # the next New Game starts from this table's choice; "Standard settings" turns it off
    d = f.offer_new_game()
    assert d.notes_box.isChecked() and d.settings().notes
    d.defaults_button.click()
    assert not d.notes_box.isChecked()
    d.reject()
    assert TableSettings.from_table(TableState.from_table({"notes_allowed": True})).notes
    assert not TableSettings.from_table(TableState.from_table({"notes_allowed": "yes"})).notes  # only a real true


def test_dialogs_draw_vote_through_the_table_menu(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    f.act_draw.trigger()
    d = f.draw_dialog
    assert isinstance(d, DrawVoteDialog) and len(d.vote.voters) == 7
    for _ in range(7):
        d.ready_button.click()
        d.accept_button.click()
    d.close_button.click()
    c = t.controller
    end = c.game.ended
    assert end is not None and end.kind == "draw" and len(end.winners) == 7
    over = f.game_over_dialog
    assert isinstance(over, GameOverDialog) and over.headline.text() == "A draw"
    assert not f.act_draw.isEnabled()


def test_dialogs_draw_vote_asks_no_pin_of_a_damaged_one(table, features) -> None:  # type: ignore[no-untyped-def]
    """The table's PINs are a typed map: a PIN hash that is not text (a hand-edited save) reads as
    none, for the voter and for the other powers of their seat (it was handed to the dialog as read)."""
    from diplomacy_desktop.io.pins import hash_pin

    t, f = table, features
    stored = hash_pin("1234")
    t.controller.table["pins"] = {"italy": 3, "france": stored}  # as a hand-edited save holds them
    d = f.propose_draw()
    assert d is not None and "italy" not in d.pins and d.pins["france"] == stored
    d.reject()


def test_dialogs_declined_draw_changes_nothing(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    d = f.propose_draw()
    assert d is not None
    for i in range(7):
        d.ready_button.click()
        (d.decline_button if i == 3 else d.accept_button).click()
    d.close_button.click()
    assert t.controller.game.ended is None and f.game_over_dialog is None


def test_dialogs_victory_shows_the_game_over_screen(table, features) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.engine.state import Unit

    t, f = table, features
    c = t.controller
    others = sorted(BOARD.centres - {"bel"})
    owners = {ctr: "france" for ctr in others[:17]}
    owners.update({ctr: "england" for ctr in others[17:]})
    units = {"bur": Unit("france", "A", "bur"), "nth": Unit("england", "F", "nth")}  # nobody else on the board
    c.game.state = c.game.state.evolve(owners=owners, units=units, phase=Phase(1901, "fall", "movement"))
    f.toggle_secrecy()  # the host plays this one openly
    assert not f.flow.enabled
    c.set_order(Move("france", "A", "bur", "bel"))
    t.adjudicate()
    end = c.game.ended
    assert end is not None and end.kind == "victory" and end.winners == ("france",)
    over = f.game_over_dialog
    assert over is not None and over.isVisible() and over.headline.text() == "France wins!"
    assert over.table.item(0, 2).text() == "18"
