"""Issue 20: a curious player at the curtain, with the mouse and keyboard and the laptop's files.
Each test reproduces one finding against the real window (pytest-qt); each failed before the fix."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Any

import pytest
from host_stand_in import Host
from new_game import no_pins_and_a_passphrase
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog

from diplomacy_desktop.gui.table.dialogs import NewGameDialog, TableSettings
from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING, hash_pin
from diplomacy_desktop.gui.table.phones import PhonesDialog

HOST_PIN = "7391"
PASSPHRASE = "the host's long passphrase"


@pytest.fixture
def host() -> Host:
    return Host(typed=HOST_PIN, passphrase=PASSPHRASE)  # this file's host PIN and passphrase


@pytest.fixture
def features_options(host: Host) -> dict[str, Any]:
    return {"confirm": lambda *a: True, "host_prompt": host.prompt, "passphrase_prompt": host.passphrase_prompt}


def start(f, pins: dict[str, str] | None = None, *, passphrase: str | None = None) -> None:  # type: ignore[no-untyped-def]
    extra = {"passphrase": passphrase} if passphrase else {}
    f.start_new_game(TableSettings(pins={p: hash_pin(v) for p, v in (pins or {}).items()},
                                   host_pin=hash_pin(HOST_PIN), **extra))
    f.act_write.trigger()


def not_next(f, but: str = "") -> str:  # type: ignore[no-untyped-def]
    """A power the curtain did not call."""
    s = f.flow.session
    return next(p for p in s.order if p != s.next_power and p != but)


# -- finding 1: taking over a power without a PIN ---------------------------------------------------


def test_curious_someone_else_is_a_host_action_and_the_table_is_told(table, features, host) -> None:  # type: ignore[no-untyped-def]
    f = features
    start(f)
    other = not_next(f)
    curtain = f.flow.curtain
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData(other))
    host.typed = "0000"  # the curious player does not know the host PIN
    curtain.other_button.click()
    assert f.flow.session.stage == CURTAIN and host.prompts, "opened out of turn without the host"
    assert not table.controller.can_see(other)
    host.typed = HOST_PIN
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData(other))
    curtain.other_button.click()
    assert f.flow.session.current == other
    name = table.controller.power_name(other)
    assert f"{name} was opened out of turn by the host" in f.strip.notice.toolTip()
    f.flow.hide()
    assert "out of turn" in curtain.notice_label.text()


def test_curious_use_my_phone_only_after_the_seats_pin(table, features, host) -> None:  # type: ignore[no-untyped-def]
    f = features
    start(f)  # a table that plays without PINs: nobody proves who sits down
    f.turn_on(0, "127.0.0.1")
    try:
        f.flow.curtain.open_button.click()
        assert f.flow.session.stage == ENTERING
        assert f.open_my_phone() is None and f.strip.phone_button.isHidden()  # the link is not carried away
        f.flow.hide()
        start(f, {p: "5831" for p in table.controller.board.power_ids})
        f.turn_on(0, "127.0.0.1")
        nxt = f.flow.session.next_power
        f.flow.curtain.pin_edit.setText("5831")
        f.flow.curtain.open_button.click()
        assert f.flow.session.current == nxt and f.flow.proved
        dialog = f.open_my_phone()
        assert dialog is not None
        dialog.reject()
    finally:
        f.turn_off()


# -- finding 2: the sandbox stays on screen after the turn -------------------------------------------


def test_curious_the_sandbox_goes_when_the_player_hides_their_orders(table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    start(f)
    while f.flow.session.next_power != "austria":
        f.flow.open_power(f.flow.session.next_power)
        f.strip.seal_button.click()
    f.flow.curtain.open_button.click()
    table.move("vie", "gal")
    from diplomacy_desktop.gui.teach.sandbox import _WINDOWS

    table.window.act_open_in_sandbox.trigger()
    assert _WINDOWS and _WINDOWS[-1].isVisible()
    sandbox = _WINDOWS[-1]
    f.strip.hide_button.click()
    assert f.flow.curtain_up
    QApplication.processEvents()
    assert not sandbox.isVisible() if sandbox in _WINDOWS else True
    assert not any(w.isVisible() for w in _WINDOWS)


# -- finding 3: PINs can be guessed --------------------------------------------------------------------


def test_curious_the_curtain_makes_pin_guesses_wait(table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    start(f, {p: "5831" for p in table.controller.board.power_ids})
    curtain = f.flow.curtain
    for guess in range(16):
        curtain.pin_edit.setText(f"{1000 + guess}")
        curtain.open_button.click()
    assert f.flow.session.stage == CURTAIN
    assert "try again in" in curtain.error_label.text()
    curtain.pin_edit.setText("5831")  # even the right PIN waits now
    curtain.open_button.click()
    assert f.flow.session.stage == CURTAIN
    # the counter is the table's, in the save: the draw vote and the phones wait too
    power = f.flow.session.next_power
    assert table.controller.table["pin_failures"][power]["count"] == 3


def test_curious_new_game_refuses_common_pins_and_the_host_pin(table, features) -> None:  # type: ignore[no-untyped-def]
    d = features.offer_new_game()
    assert isinstance(d, NewGameDialog)
    no_pins_and_a_passphrase(d)
    d.no_pins_box.setChecked(False)
    for weak in ("1234", "0000", "1111", "1990"):
        d.pin_edits["france"].setText(weak)
        d.start_button.click()
        assert d.result() != NewGameDialog.DialogCode.Accepted, weak
    d.pin_edits["france"].setText("5831")
    d.host_pin_edit.setText("5831")
    d.start_button.click()
    assert "same as the host PIN" in d.error_label.text()
    d.host_pin_edit.setText("7391")
    d.start_button.click()
    assert "Give every player a PIN" in d.error_label.text()  # secrecy on: a PIN for every seat
    for p in d.pin_edits:
        d.pin_edits[p].setText("58314")  # 4 to 8 digits
    d.start_button.click()
    assert d.result() == NewGameDialog.DialogCode.Accepted, d.error_label.text()


# -- finding 6: hosting on and off by anyone ---------------------------------------------------------------


def test_curious_hosting_on_and_off_is_a_host_action(table, features, host) -> None:  # type: ignore[no-untyped-def]
    f = features
    start(f)
    f.phones_address = "127.0.0.1"
    dialog = f.show_phones()
    assert isinstance(dialog, PhonesDialog)
    dialog.port.setValue(0)
    host.typed = "0000"
    dialog.switch_button.click()
    assert f.phones is None and host.prompts[-1].startswith("Turn hosting on")
    host.typed = HOST_PIN
    dialog.switch_button.click()
    assert f.phones is not None
    host.typed = "0001"
    dialog.switch_button.click()
    assert f.phones is not None  # still on
    host.typed = HOST_PIN
    dialog.switch_button.click()
    assert f.phones is None
    dialog.reject()


# -- finding 8: Save As from behind the curtain -------------------------------------------------------------


def test_curious_save_as_is_a_host_action_and_writes_0600(table, features, host, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    f = features
    start(f)
    target = tmp_path / "carried-away.dipl"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    old = os.umask(0o022)
    try:
        f.flow.curtain.open_button.click()
        host.typed = "0000"
        table.window.act_save_as.trigger()
        assert not target.exists()
        assert f.flow.session.stage != ENTERING  # the curtain came down first
        host.typed = HOST_PIN
        table.window.act_save_as.trigger()
        assert target.exists()
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
    finally:
        os.umask(old)
    assert QApplication.testAttribute(Qt.ApplicationAttribute.AA_DontUseNativeDialogs)


# -- finding 13: every order one jq away in the autosave ---------------------------------------------------


def test_curious_the_autosave_holds_no_order_note_or_token(table, features, host) -> None:  # type: ignore[no-untyped-def]
    f = features
    c = table.controller
    start(f, passphrase=PASSPHRASE)
    c.table["notes_allowed"] = True
    f.flow.curtain.open_button.click()
    power = f.flow.session.current
    unit = next(iter(c.state.units_of(power)))
    table.hold(unit.province)
    from diplomacy_desktop.table.notes import add_note

    add_note(c.table, c.state.phase.short, power, [p for p in c.board.power_ids if p != power][:1],
             "Zanzibar plan", c.board.power_ids)
    f.strip.seal_button.click()
    f.turn_on(0, "127.0.0.1")
    token = f.phones.host.token_of("italy")
    f.turn_off()
    assert f.autosaver.save_now()
    where = f.autosaver.autosave.path  # (issue 21: a database; its log holds the latest rows)
    raw = b"".join(p.read_bytes() for p in (where, where.with_name(where.name + "-wal")) if p.exists())
    assert b"Zanzibar" not in raw and token.encode() not in raw and b'"hold"' not in raw
    assert stat.S_IMODE(f.autosaver.autosave.path.stat().st_mode) == 0o600
    # the restart after a crash: the passphrase restores everything
    from diplomacy_desktop.gui.table.persistence import resume_from_autosave

    f.autosaver.enabled = False  # (as at a start: the unfinished game stays on disk until answered)
    c.new_game()
    assert resume_from_autosave(c, f.autosaver.autosave, prompt=host.passphrase_prompt)
    f.autosaver.enabled = True
    assert [o.province for o in c.game.orders_of(power)] == [unit.province]
    assert c.table["notes"][0]["text"] == "Zanzibar plan" and c.table["phones"]["tokens"]["italy"] == token
    # without it: not resumed (issue 31, finding 9: a game played on without its key dropped the
    # seals), the host is told why, and the autosave keeps every secret, encrypted
    told: list[str] = []
    host.passphrase = None
    assert not resume_from_autosave(c, f.autosaver.autosave, prompt=host.passphrase_prompt,
                                    message=lambda _p, title, text: told.append(text))
    assert told and "untouched" in told[0]
    game, _ = f.autosaver.autosave.load()
    assert game.orders_of(power) == []  # (the public part: no order in the clear)
    whole = f.autosaver.autosave.open(passphrase=PASSPHRASE)
    assert [o.province for o in whole.game.orders_of(power)] == [unit.province]


# -- seal codes (build 5) -----------------------------------------------------------------------------------


def test_curious_seal_codes_shown_at_sealing_match_the_reveal(table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    c = table.controller
    start(f)
    codes = {}
    while f.flow.session.next_power is not None:
        f.flow.curtain.open_button.click()
        power = f.flow.session.current
        unit = next(iter(c.state.units_of(power)))
        table.hold(unit.province)
        f.strip.seal_button.click()
        curtain = f.flow.curtain  # the code, large, for the power that sealed (issue 34, finding 7)
        assert curtain.showing_seal_code
        codes[power] = curtain.seal_code_label.text()
        assert len(codes[power].split()) == 3
        curtain.seal_done_button.click()
    f.flow.curtain.reveal_button.click()
    table.window.results_dock.flush()
    title = table.window.results_dock.title.text()
    for power, code in codes.items():  # beside the revealed orders, the same codes
        assert f"{c.power_name(power)} <b>{code}</b>" in title, (power, code, title)


# -- finding 3: no PIN could be changed mid-game --------------------------------------------------------------


def test_curious_the_host_and_the_player_change_a_pin_mid_game(table, features, host) -> None:  # type: ignore[no-untyped-def]
    f = features
    c = table.controller
    start(f, {p: "5831" for p in c.board.power_ids})
    host.typed = "0000"
    assert f.change_pin() is None  # a host action: a wrong host PIN changes nothing
    host.typed = HOST_PIN
    d = f.change_pin()
    assert d is not None
    d.seat_combo.setCurrentIndex(d.seat_combo.findText("France"))
    d.pin_edit.setText("1234")
    d.again_edit.setText("1234")
    d.buttons.button(d.buttons.StandardButton.Ok).click()
    assert "run of digits" in d.error_label.text()  # a common PIN is refused
    d.pin_edit.setText("7391")
    d.again_edit.setText("7391")
    d.buttons.button(d.buttons.StandardButton.Ok).click()
    assert "host PIN" in d.error_label.text()
    d.pin_edit.setText("6047")
    d.again_edit.setText("6047")
    d.buttons.button(d.buttons.StandardButton.Ok).click()
    from diplomacy_desktop.io.pins import pin_matches

    assert pin_matches(c.table["pins"]["france"], "6047") and f.flow.session.check_pin("france", "6047")
    assert "France's PIN was changed by the host" in f.strip.notice.toolTip()
    # the player changes their own, behind the curtain, after opening with it
    nxt = f.flow.session.next_power
    f.flow.curtain.pin_edit.setText("6047" if nxt == "france" else "5831")
    f.flow.curtain.open_button.click()
    assert f.my_pin_button.isVisible() or f.my_pin_button.isVisibleTo(f.strip)
    own = f.change_pin(own=True)
    assert own is not None and own.seat == [nxt]
    own.pin_edit.setText("82046")
    own.again_edit.setText("82046")
    own.buttons.button(own.buttons.StandardButton.Ok).click()
    assert f.flow.session.stage == ENTERING  # changing it is not stepping away
    assert pin_matches(c.table["pins"][nxt], "82046")


def test_curious_the_draw_vote_shares_the_curtains_pin_counter(table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    c = table.controller
    start(f, {p: "5831" for p in c.board.power_ids})
    called = f.flow.session.next_power
    for guess in ("1000", "1001", "1002"):  # three wrong PINs at the curtain
        f.flow.curtain.pin_edit.setText(guess)
        f.flow.curtain.open_button.click()
    dialog = f.propose_draw()
    assert dialog is not None
    while dialog.vote.next_voter != called:  # the others vote first, with their PINs
        dialog.pin_edit.setText("5831")
        dialog.ready_button.click()
        dialog.accept_button.click()
    dialog.pin_edit.setText("5831")  # even the right PIN waits: one counter per power
    dialog.ready_button.click()
    assert "try again in" in dialog.pin_error.text() and dialog.stack.currentWidget() is dialog.pass_page
    dialog.reject()
