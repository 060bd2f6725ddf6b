"""Issue 17: what a year played by hand through the real window found at the curtain and in New
Game (README, "A year played by hand"), one test per finding; the board's findings are in
tests/gui/test_table_play_findings.py."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication


def test_curtain_says_it_is_checking_the_pin_not_the_last_wrong_pin(table, features, monkeypatch):  # type: ignore[no-untyped-def]
    # played: after a wrong PIN, the right one took a few seconds to check (a slow hash, on purpose)
    # while the curtain still said "Wrong PIN: Turkey's orders are protected by a PIN"
    from test_secrecy import start

    from diplomacy_desktop.table.hotseat import HotSeatSession

    f = features
    start(f, pins={p: "2580" for p in ("austria", "england", "france", "germany", "italy", "russia", "turkey")})
    f.act_write.trigger()
    curtain = f.flow.curtain
    first = f.flow.session.next_power
    curtain.pin_edit.setText("1357")
    curtain.open_button.click()
    assert "Wrong PIN" in curtain.error_label.text()
    seen: list[tuple[str, bool]] = []
    check = HotSeatSession.check_pin

    def watched(self, power: str, pin: str | None) -> bool:  # type: ignore[no-untyped-def]
        seen.append((curtain.error_label.text(), QApplication.overrideCursor() is not None))
        return check(self, power, pin)

    monkeypatch.setattr(HotSeatSession, "check_pin", watched)
    curtain.pin_edit.setText("2580")
    curtain.open_button.click()
    assert seen == [("Checking the PIN\u2026", True)]  # checked once (it was hashed twice: ~3 s)
    assert f.flow.session.current == first and QApplication.overrideCursor() is None
    assert "Checking" not in curtain.error_label.text()


def test_new_game_refusal_follows_the_fixes_and_start_hashes_no_pin_twice(qtbot, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # played: Start refused "Give every player a PIN (Austria, England, ... has none)"; the message
    # stayed word for word while the PINs were typed in; and each check hashed the host PIN (a
    # second or more of scrypt) for nothing
    from new_game import PASSPHRASE

    from diplomacy_desktop.gui.table.dialogs import NewGameDialog, new_game
    from diplomacy_desktop.io.boardfile import load_board

    d = NewGameDialog(load_board("standard"))
    qtbot.addWidget(d)
    d.host_pin_edit.setText("2468")
    d.pin_edits["france"].setText("3917")
    hashed: list[str] = []
    real = new_game.hash_pin
    monkeypatch.setattr(new_game, "hash_pin", lambda pin: hashed.append(pin) or real(pin))
    d.start_button.click()
    assert d.result() != NewGameDialog.DialogCode.Accepted
    assert "Austria" in d.error_label.text() and "passphrase" in d.error_label.text()
    assert hashed == []  # refused without a slow hash
    d.pin_edits["austria"].setText("4071")
    assert "Austria" not in d.error_label.text() and "England" in d.error_label.text()
    for p, pin in (("england", "5193"), ("germany", "6284"), ("italy", "7305"), ("russia", "8426"),
                   ("turkey", "9538")):
        d.pin_edits[p].setText(pin)
    assert "PIN" not in d.error_label.text() and "passphrase" in d.error_label.text()
    d.passphrase_edit.setText(PASSPHRASE)
    d.passphrase_again.setText(PASSPHRASE)
    assert d.error_label.text() == ""
    assert hashed == []
    d.start_button.click()
    assert d.result() == NewGameDialog.DialogCode.Accepted


def test_new_game_fits_a_laptop_screen_with_start_game_in_sight(qtbot) -> None:  # type: ignore[no-untyped-def]
    # checked after the play: New Game for 2 players (its "Players:" row) at 1366x768 was taller than
    # the screen; Start game, Cancel and the refusal's reasons were below it, out of reach
    from diplomacy_desktop.gui.table.dialogs import NewGameDialog
    from diplomacy_desktop.io.boardfile import load_board

    d = NewGameDialog(load_board("standard"))
    qtbot.addWidget(d)
    d.players_spin.setValue(2)
    room = d.screen().availableGeometry().height()
    d.show()
    d.adjustSize()
    QApplication.processEvents()
    assert d.height() <= room, (d.height(), room)
    assert d.start_button.isVisible()
    bottom = d.start_button.mapTo(d, d.start_button.rect().bottomLeft()).y()
    assert bottom <= d.height() <= room
    d.start_button.click()  # refused (no PINs, no passphrase): the reasons are in sight too
    assert d.error_label.text() and d.error_label.isVisible()
    assert d.error_label.mapTo(d, d.error_label.rect().bottomLeft()).y() <= d.height()
