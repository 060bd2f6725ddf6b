"""Issue 8, secrecy: the host role and every leak the first real table found, as regressions.

Each test drives the real main window with the table features installed and asserts on every
widget's text (``widget_text``), on the scene's order arrows and on the model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from host_stand_in import HOST_PIN  # the table tests' host PIN (other files import it from here)
from new_game import no_pins_and_a_passphrase
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QDockWidget, QMessageBox, QWidget
from widget_text import shows, texts

from diplomacy_desktop.gui.table.dialogs import DrawVoteDialog, NewGameDialog, TableSettings
from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING, OPEN, READY, hash_pin
from diplomacy_desktop.io.pins import pin_matches
from diplomacy_desktop.io.notation import format_order

CLICKS = {  # Spring 1901 by clicks on the map, per power
    "england": [("move", "lon", "nth"), ("move", "edi", "nwg"), ("move", "lvp", "yor")],
    "france": [("move", "par", "bur"), ("support", "mar", "par", "bur"), ("move", "bre", "mao")],
    "germany": [("move", "mun", "ruh"), ("move", "ber", "mun"), ("move", "kie", "den")],
    "italy": [("hold", "ven"), ("move", "rom", "apu"), ("move", "nap", "ion")],
    "austria": [("move", "vie", "gal"), ("move", "bud", "ser"), ("move", "tri", "alb")],
    "russia": [("move", "war", "gal"), ("move", "mos", "ukr"), ("move", "sev", "bla"), ("move", "stp", "bot")],
    "turkey": [("move", "ank", "bla"), ("move", "con", "bul"), ("move", "smy", "con")],
}


def start(features, *, host_pin: str | None = HOST_PIN, pins: dict[str, str] | None = None) -> None:  # type: ignore[no-untyped-def]
    settings = TableSettings(pins={p: hash_pin(v) for p, v in (pins or {}).items()},
                             host_pin=hash_pin(host_pin) if host_pin else None)
    features.start_new_game(settings)


def write(t, f, power: str, pin: str = "") -> set[str]:  # type: ignore[no-untyped-def]
    """``power`` takes the laptop (it must be next) and gives its Spring 1901 orders by clicks."""
    assert f.flow.session.next_power == power
    f.flow.curtain.pin_edit.setText(pin)
    f.flow.curtain.open_button.click()
    assert f.flow.session.stage == ENTERING and f.flow.session.current == power, f.flow.curtain.error_label.text()
    for step in CLICKS[power]:
        getattr(t, step[0])(*step[1:])
    return {format_order(o) for o in t.controller.game.orders_of(power)}


def seal_next(t, f, pin: str = "") -> tuple[str, set[str]]:  # type: ignore[no-untyped-def]
    power = f.flow.session.next_power
    written = write(t, f, power, pin)
    f.strip.seal_button.click()
    assert power in f.flow.session.sealed
    if f.flow.curtain.showing_seal_code:  # the player notes the seal code and hides it (issue 34)
        f.flow.curtain.seal_done_button.click()
    return power, written


def assert_hidden(t, power: str, orders: set[str]) -> None:  # type: ignore[no-untyped-def]
    """No widget of the window (dialogs included) and no arrow of the map shows ``power``'s orders."""
    assert orders
    for text in orders:
        assert not shows(t.window, text), (power, text)
    assert not t.window.scene.order_items_of(power), power
    assert not t.controller.can_see(power)


def assert_shown(t, power: str, orders: set[str]) -> None:  # type: ignore[no-untyped-def]
    assert t.controller.can_see(power)
    assert len(t.window.scene.order_items_of(power)) == len(orders)


# -- 1. anyone could lift secrecy --------------------------------------------------------------


def test_secrecy_lifting_needs_the_host_pin(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, pins={"turkey": "1111"})
    f.act_write.trigger()
    power, orders = seal_next(t, f)
    assert f.flow.curtain_up
    host.typed = "0000"  # a curious player guesses
    f.act_secrecy.trigger()
    assert f.secrecy and f.flow.enabled and f.act_secrecy.isChecked()
    assert host.prompts and host.prompts[0].startswith("Lift secrecy")
    assert shows(t.window, "Wrong host PIN")  # said where the table sees it
    assert_hidden(t, power, orders)
    assert f.flow.session.sealed == {power} and f.flow.curtain_up
    host.typed = None  # the host cancels
    f.act_secrecy.trigger()
    assert f.secrecy and f.flow.curtain_up
    assert_hidden(t, power, orders)


def test_secrecy_lifting_asks_the_table_and_a_no_lifts_nothing(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    f.act_write.trigger()
    power, orders = seal_next(t, f)
    host.answer = False  # "Reveal all sealed orders now?" - the table says no
    f.act_secrecy.trigger()
    assert host.prompts[-1].startswith("Lift secrecy")
    title, text = host.questions[-1]
    assert title == "Reveal all sealed orders now?" and t.controller.power_name(power) in text
    assert f.secrecy and f.flow.enabled and f.flow.curtain_up and f.act_secrecy.isChecked()
    assert_hidden(t, power, orders)
    host.answer = True  # the table agrees: now, and only now, everything shows
    f.act_secrecy.trigger()
    assert not f.secrecy and not f.flow.curtain_up and not f.act_secrecy.isChecked()
    assert_shown(t, power, orders)


def test_secrecy_with_no_host_pin_says_anyone_may(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, host_pin=None)
    f.act_write.trigger()
    power, orders = seal_next(t, f)
    host.answer = False
    f.act_secrecy.trigger()
    assert not host.prompts  # no host PIN to ask for
    assert "anyone at the table may do this" in host.questions[-1][1]
    assert f.secrecy and f.flow.curtain_up
    assert_hidden(t, power, orders)
    assert shows(f.flow.curtain, "No host PIN is set: anyone at the table may use the host actions")


def test_secrecy_restoring_unseals_nobody_and_keeps_the_turn(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    f.act_write.trigger()
    first, _ = seal_next(t, f)
    second, _ = seal_next(t, f)
    f.act_secrecy.trigger()  # lifted (host PIN right, the table agreed)
    assert not f.flow.enabled
    host.typed = "1234"
    f.act_secrecy.trigger()  # restoring is a host action too
    assert not f.flow.enabled and host.prompts[-1].startswith("Restore secrecy")
    host.typed = HOST_PIN
    f.act_secrecy.trigger()
    s = f.flow.session
    assert f.flow.enabled and s.sealed == {first, second} and s.stage == CURTAIN and f.flow.curtain_up
    assert s.stage != OPEN and t.controller.game.orders_of(first)
    assert shows(t.window, "orders are being written")  # not silent: the table is told where it is
    for p in (first, second):
        assert not t.window.scene.order_items_of(p)


# -- 1. the draw vote showed the current writer's orders; so did every other dialog -------------


def test_secrecy_draw_vote_mid_writing_comes_behind_the_curtain(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    f.act_write.trigger()
    power = f.flow.session.next_power
    orders = write(t, f, power)
    assert_shown(t, power, orders)
    f.act_draw.trigger()
    d = f.draw_dialog
    assert isinstance(d, DrawVoteDialog) and d.isVisible()
    assert f.flow.curtain_up and f.flow.session.stage == CURTAIN
    assert_hidden(t, power, orders)  # the dialog is a child of the window: its texts are checked too
    assert t.controller.game.orders_of(power)  # kept, not sealed: the writer comes back to them
    for _ in d.vote.voters:  # each voter, at the pass screen and the vote screen
        assert_hidden(t, power, orders)
        d.ready_button.click()
        assert_hidden(t, power, orders)
        d.decline_button.click()
    d.close_button.click()
    assert t.controller.game.ended is None and f.flow.curtain_up
    assert_hidden(t, power, orders)


def _while_modal(qtbot, trigger: Callable[[], object], check: Callable[[QWidget], None]) -> None:  # type: ignore[no-untyped-def]
    """Trigger something that opens a modal dialog; check it while it is open, then close it."""
    seen: list[QWidget] = []

    def inspect() -> None:
        w = QApplication.activeModalWidget()
        if w is None:
            QTimer.singleShot(20, inspect)
            return
        seen.append(w)
        try:
            check(w)
        finally:
            if isinstance(w, QDialog):
                QTimer.singleShot(0, lambda: w.done(0))
            else:
                QTimer.singleShot(0, w.close)

    QTimer.singleShot(0, inspect)
    trigger()
    qtbot.waitUntil(lambda: bool(seen), timeout=5000)


@pytest.mark.parametrize("what", ["keys", "about", "save_as", "open", "export", "new_game", "undo_question"])
def test_secrecy_every_dialog_mid_writing_sits_behind_the_curtain(qtbot, table, features, host,
                                                                  what: str) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    w = t.window
    start(f)
    f.act_write.trigger()
    power = f.flow.session.next_power
    orders = write(t, f, power)
    failures: list[str] = []

    def check(_dialog: QWidget) -> None:
        if not f.flow.curtain_up:
            failures.append("the curtain is not up behind the dialog")
        for text in orders:
            if shows(w, text):
                failures.append(f"{text} shown")
        if w.scene.order_items_of(power):
            failures.append("arrows shown")

    if what == "new_game":
        f.new_game()
        assert isinstance(f.new_game_dialog, NewGameDialog)
        check(f.new_game_dialog)
        f.new_game_dialog.reject()
    elif what == "undo_question":
        box = QMessageBox(QMessageBox.Icon.Question, "A question", "Anything?", parent=w)
        box.open()  # any dialog of the window, shown while a power writes
        check(box)
        box.reject()
    else:
        action = {"keys": lambda: w.show_keys(), "about": lambda: w.show_about(),
                  "save_as": lambda: w.act_save_as.trigger(), "open": lambda: w.act_open.trigger(),
                  "export": lambda: w.act_export.trigger()}[what]
        _while_modal(qtbot, action, check)
    assert not failures, failures
    assert f.flow.session.stage == CURTAIN and t.controller.game.orders_of(power)


def test_secrecy_review_dialog_does_not_bring_the_curtain(table, features) -> None:  # type: ignore[no-untyped-def]
    """The writer's own review (before sealing) is the one dialog that shows the writer's orders."""
    t, f = table, features
    start(f)
    f.act_write.trigger()
    power = f.flow.session.next_power
    write(t, f, power)
    dialog = f.flow.review_dialog()
    assert dialog is not None
    dialog.open()
    assert f.flow.session.stage == ENTERING and not f.flow.curtain_up
    dialog.reject()


# -- 1. a power without a PIN could be reopened by anyone, and nobody was told --------------------


def test_secrecy_reopening_a_power_without_pin_is_the_hosts_and_the_table_is_told(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    f.act_write.trigger()
    power, orders = seal_next(t, f)
    curtain = f.flow.curtain
    name = t.controller.power_name(power)
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData(power))
    host.typed = "9999"
    curtain.other_button.click()
    assert f.flow.session.stage == CURTAIN and power in f.flow.session.sealed
    assert "Wrong host PIN" in curtain.error_label.text()
    assert_hidden(t, power, orders)
    host.typed = HOST_PIN
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData(power))
    curtain.other_button.click()
    assert f.flow.session.current == power and power not in f.flow.session.sealed
    notice = f"{name}'s sealed orders were reopened by the host"
    assert f.strip.notice.isVisible() and notice in f.strip.notice.toolTip()
    f.flow.hide()  # back behind the curtain: still told, on the curtain itself
    assert curtain.notice_label.isVisible() and notice in curtain.notice_label.text()
    assert f.flow.session.to_dict()["notices"]  # saved with the turn, and told again after a resume
    c = t.controller
    c.replace_game(c.game, json.loads(json.dumps(c.table.to_table())))
    assert f.flow.curtain_up and notice in f.flow.curtain.notice_label.text()


def test_secrecy_reopening_with_no_host_pin_says_anyone_and_tells_the_table(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, host_pin=None)
    f.act_write.trigger()
    power, orders = seal_next(t, f)
    curtain = f.flow.curtain
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData(power))
    host.answer = False
    curtain.other_button.click()
    assert "anyone at the table may do this" in host.questions[-1][1]
    assert power in f.flow.session.sealed
    assert_hidden(t, power, orders)
    host.answer = True
    curtain.other_button.click()
    assert f.flow.session.current == power
    assert "reopened by someone at the table (no host PIN is set)" in f.strip.notice.toolTip()


def test_secrecy_reopening_a_power_with_a_pin(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, host_pin=None, pins={p: "2580" for p in CLICKS})
    f.act_write.trigger()
    power, orders = seal_next(t, f, "2580")
    curtain = f.flow.curtain
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData(power))
    curtain.other_button.click()  # no PIN and no host PIN: nobody may
    assert power in f.flow.session.sealed and "protected by a PIN" in curtain.error_label.text()
    assert_hidden(t, power, orders)
    host.typed = "2580"  # the power itself, asked for its PIN (issue 17: not the next power's field)
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData(power))
    curtain.other_button.click()
    assert f.flow.session.current == power
    assert "reopened with" in f.strip.notice.toolTip()


# -- 1. host actions needed no host ----------------------------------------------------------------


def test_secrecy_forced_reveal_needs_the_host_pin(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    f.act_write.trigger()
    power, orders = seal_next(t, f)
    for trigger in (lambda: t.adjudicate(), f.flow.curtain.force_button.click, f.act_reveal.trigger,
                    t.window.act_adjudicate.trigger):
        host.typed = "1000"
        trigger()
        assert not t.controller.game.history and f.flow.session.stage == CURTAIN
        assert_hidden(t, power, orders)
    # issue 20: the host prompt shares the PIN failure counter: after three wrong host PINs the
    # fourth try waits (not even asked), and says so
    assert len(host.prompts) == 3 and all(p.startswith("Reveal now") for p in host.prompts)
    assert "try again in" in f.strip.notice.toolTip()
    host.typed = HOST_PIN
    t.adjudicate()
    assert not t.controller.game.history  # the right PIN waits too
    t.controller.table["pin_failures"]["host"]["until"] = 0  # the wait is over
    t.adjudicate()
    assert len(t.controller.game.history) == 1


def test_secrecy_forced_reveal_while_a_power_writes_covers_it_first(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, host_pin=None)
    f.act_write.trigger()
    power = f.flow.session.next_power
    orders = write(t, f, power)
    host.answer = False
    t.adjudicate()  # Ctrl+Return mid-writing
    assert "anyone at the table may do this" in host.questions[-1][1]
    assert f.flow.curtain_up and not t.controller.game.history
    assert_hidden(t, power, orders)


def test_secrecy_undo_adjudication_needs_the_host_pin(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    t.adjudicate()  # the host forces an empty spring
    assert len(t.controller.game.history) == 1
    host.typed = "0001"
    t.window.act_undo_adj.trigger()
    assert len(t.controller.game.history) == 1 and host.prompts[-1].startswith("Undo the last adjudication")
    t.window.results_dock.undo_adjudication_requested.emit()  # the results panel's button
    assert len(t.controller.game.history) == 1
    host.typed = HOST_PIN
    t.window.results_dock.undo_adjudication_requested.emit()
    assert not t.controller.game.history


def test_secrecy_undo_adjudication_without_host_pin_says_anyone_may(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, host_pin=None)
    t.adjudicate()
    host.answer = False
    t.window.act_undo_adj.trigger()
    assert len(t.controller.game.history) == 1
    assert "anyone at the table may do this" in host.questions[-1][1]
    host.answer = True
    t.window.act_undo_adj.trigger()
    assert not t.controller.game.history


def test_secrecy_accepted_draw_ends_the_game_only_with_the_host(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)

    def vote() -> None:
        d = f.propose_draw()
        assert d is not None
        for _ in d.vote.voters:
            d.ready_button.click()
            d.accept_button.click()
        d.close_button.click()

    host.typed = "7777"
    vote()
    assert t.controller.game.ended is None and host.prompts[-1].startswith("End the game in a draw")
    host.typed = HOST_PIN
    vote()
    end = t.controller.game.ended
    assert end is not None and end.kind == "draw"


def test_secrecy_host_pin_is_stored_only_as_a_salted_hash(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    t.key(Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    d = f.new_game_dialog
    assert isinstance(d, NewGameDialog)
    no_pins_and_a_passphrase(d)
    d.host_pin_edit.setText("12")
    d.start_button.click()
    assert "host PIN is 4 to 8 digits" in d.error_label.text()
    d.host_pin_edit.setText("8642")
    d.start_button.click()
    stored = t.controller.table["host_pin"]
    assert stored.startswith("scrypt$") and pin_matches(stored, "8642")
    # the PIN is in the clear nowhere: the salt and the digest are random hex of fixed length (where
    # "8642" may turn up by chance: 1 run in about 700), the rest holds no PIN
    scheme, *cost, salt, digest = stored.split("$")
    assert re.fullmatch(r"[0-9a-f]{32}", salt) and re.fullmatch(r"[0-9a-f]{64}", digest)
    assert "8642" not in "$".join([scheme, *cost])
    assert f.flow.host_pin() == stored


# -- 5. New Game never carries the previous game's PINs --------------------------------------------


def test_secrecy_new_game_never_carries_the_pins(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, pins={"france": "1111", "turkey": "2222"})
    assert f.flow.session.pins and f.flow.host_pin()
    t.adjudicate()  # a game in progress: replacing it is the host's
    f.new_game()
    assert host.prompts[-1].startswith("Start a new game")
    d = f.new_game_dialog
    assert isinstance(d, NewGameDialog)
    assert all(not e.text() and e.placeholderText() == "none" for e in d.pin_edits.values())
    no_pins_and_a_passphrase(d).start_button.click()
    c = t.controller
    assert c.table.get("pins") == {} and c.table.get("host_pin") is None
    assert f.flow.session.pins == {} and f.flow.host_pin() is None
    # after the game is over: the game-over screen's "New game..." (no host question then)
    start(f, pins={"italy": "3333"})
    f.declare_draw(list(c.state.surviving_powers()))
    assert f.game_over_dialog is not None
    f.game_over_dialog.done(f.game_over_dialog.NEW_GAME)
    d = f.new_game_dialog
    assert isinstance(d, NewGameDialog)
    no_pins_and_a_passphrase(d).start_button.click()
    assert c.table.get("pins") == {} and "host_pin" not in c.table and f.flow.session.pins == {}
    # a game opened without any PINs does not inherit the open game's
    start(f, pins={"italy": "3333"})
    c.replace_game(c.game, {"secrecy": True})
    assert f.flow.session.pins == {}


# -- 6. Ctrl+L on the curtain; the curtain's buttons keep their places -----------------------------


def _covered(window: QWidget, curtain: QWidget, widget: QWidget) -> bool:
    """Whether the window's topmost widget at ``widget``'s centre belongs to the curtain."""
    centre = widget.mapTo(window, widget.rect().center())
    top = window.childAt(centre)
    return top is not None and (top is curtain or curtain.isAncestorOf(top))


def test_secrecy_ctrl_l_and_panels_stay_under_the_curtain(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    w = t.window
    start(f)
    f.act_write.trigger()
    seal_next(t, f)
    curtain = f.flow.curtain
    assert f.flow.curtain_up
    dock = w.order_dock
    assert _covered(w, curtain, dock.tabs)
    w.act_type.trigger()  # Ctrl+L
    assert _covered(w, curtain, dock.tabs) and _covered(w, curtain, dock.entry)
    focus = QApplication.focusWidget()
    assert focus is None or focus is curtain or curtain.isAncestorOf(focus)
    for d in (w.order_dock, w.results_dock, w.centres_dock):  # View ▸ panels, off and on again
        d.toggleViewAction().trigger()
        d.toggleViewAction().trigger()
        d.raise_()
        QApplication.processEvents()  # the window lays the panels out again
        assert d.isVisible()
        # every part of the window (panels, their tab bars, menu and status bars) is under the curtain
        for part in w.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if part is not curtain and part.isVisible() and not part.isWindow() \
                    and w.rect().contains(part.geometry().center()):
                assert _covered(w, curtain, part), (d.objectName(), part)
    w.act_next_power.trigger()
    assert _covered(w, curtain, dock.tabs)
    # a floating panel cannot be covered: it goes while the curtain is up, and comes back after
    w.results_dock.setFloating(True)
    w.results_dock.show()
    QApplication.processEvents()
    assert not w.results_dock.isVisible()
    f.flow.curtain.open_button.click()
    assert w.results_dock.isVisible() and isinstance(w.results_dock, QDockWidget)


def test_secrecy_curtain_buttons_keep_their_places(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, pins={"germany": "1234"})
    f.act_write.trigger()
    curtain = f.flow.curtain

    def places() -> tuple[QPoint, QPoint, QPoint]:
        QApplication.processEvents()
        return (curtain.action_stack.mapTo(curtain, QPoint(0, 0)), curtain.other_button.mapTo(curtain, QPoint(0, 0)),
                curtain.force_button.mapTo(curtain, QPoint(0, 0)))

    seen = set()
    while (power := f.flow.session.next_power) is not None:
        seen.add(places())
        curtain.show_error("Wrong PIN")
        seen.add(places())
        seal_next(t, f, "1234" if power == "germany" else "")
    assert f.flow.session.stage == READY
    seen.add(places())
    assert len(seen) == 1, seen
    assert curtain.reveal_button.isVisible()
    assert curtain.reveal_button.mapTo(curtain, QPoint(0, 0)) == curtain.action_stack.mapTo(curtain, QPoint(0, 0))


def test_secrecy_curtain_texts_name_no_order(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    f.act_write.trigger()
    _power, orders = seal_next(t, f)
    assert not any(o in " ".join(texts(f.flow.curtain)) for o in orders)
    assert "ask for the host PIN" in f.flow.curtain.host_label.text()


def test_secrecy_curtain_asks_the_pin_of_the_power_chosen_under_someone_else(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, pins={"france": "1470"})
    f.act_write.trigger()
    curtain = f.flow.curtain
    if f.flow.session.next_power == "france":
        seal_next(t, f, "1470")
    nxt = f.flow.session.next_power
    assert nxt != "france" and curtain.pin_edit.isHidden()
    # issue 17: the PIN of a power chosen under "Someone else" is asked when its button is pressed
    # (the curtain's PIN field is the next power's only, and hidden when that power has none)
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData("france"))
    assert curtain.pin_edit.isHidden()
    f.flow.host_prompt = lambda _parent, _title, _text: None  # asked, and cancelled
    curtain.other_button.click()
    assert "protected by a PIN" in curtain.error_label.text() and f.flow.session.stage == CURTAIN
    other = next(p for p in CLICKS if p not in ("france", nxt))
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData(other))
    assert curtain.pin_edit.isHidden()
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData("france"))
    # France out of turn: its own PIN, then the host's (issue 20: out of turn is a host action)
    f.flow.host_prompt = lambda _parent, _title, text: "1470" if "France's PIN" in text else HOST_PIN
    curtain.other_button.click()
    assert f.flow.session.current == "france"


@pytest.mark.parametrize("action", ["act_save_as", "act_export", "act_export_phases", "act_order_sheets", "act_save",
                                    "act_open"])
def test_secrecy_desktop_file_dialogs_mid_writing_come_behind_the_curtain(table, features, action: str,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    """A desktop's own file dialog is no Qt dialog the window sees appear: the actions step away first."""
    from PySide6.QtWidgets import QFileDialog

    t, f = table, features
    start(f)
    f.act_write.trigger()
    power = f.flow.session.next_power
    orders = write(t, f, power)
    seen: list[bool] = []

    def native(*_a: object, **_k: object) -> tuple[str, str]:
        seen.append(f.flow.curtain_up and not t.window.scene.order_items_of(power))
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(native))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(native))
    getattr(t.window, action).trigger()
    assert seen == [True]
    assert_hidden(t, power, orders)


def test_secrecy_curtain_keeps_floating_panels_away_after_the_window_is_hidden_and_shown(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    w = t.window
    start(f)
    w.results_dock.setFloating(True)
    w.results_dock.show()
    f.act_write.trigger()
    QApplication.processEvents()
    assert f.flow.curtain_up and not w.results_dock.isVisible()
    w.hide()  # minimised, say
    w.show()
    QApplication.processEvents()
    assert f.flow.curtain_up and not w.results_dock.isVisible()
    w.act_type.trigger()
    assert _covered(w, f.flow.curtain, w.order_dock.tabs)
