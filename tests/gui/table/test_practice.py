"""Practice: you against the computer (issue 33, build points 3 and the bots off the GUI thread).

One person, one power; the six others are computer seats.  No curtain, no PINs; the computer's
orders are written only at Adjudicate, in a worker thread (the window keeps running), and are
never applied when the game moved on meanwhile; every result is explained; the hint suggests the
club player's orders and enters nothing unless used; the save keeps it a practice game.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QTimer
from test_secrecy import assert_hidden

from diplomacy_desktop.engine.options import orders_needed
from diplomacy_desktop.engine.orders import Build, Waive
from diplomacy_desktop.gui.table import computer_worker
from diplomacy_desktop.gui.table.computer_worker import think_now
from diplomacy_desktop.gui.table.dialogs.new_game import PRACTICE_CHOSEN
from diplomacy_desktop.io.notation import format_order
from diplomacy_desktop.table.computer import COMPUTER_KEY, LEVEL_WORDS, computer_seats, computer_seed
from diplomacy_desktop.table.practice import PRACTICE_KEY, practice_power, practice_settings
from diplomacy_desktop.table.settings import TableSettings
from diplomacy_desktop.table.state import TableState

ME = "france"
OTHERS = ("austria", "england", "germany", "italy", "russia", "turkey")


@pytest.fixture
def features_options() -> dict[str, Any]:
    """This file's table: every question answered yes (adjudicate with units unordered)."""
    return {"confirm": lambda *a: True}


def _practice(f, level: str = "club") -> Any:  # type: ignore[no-untyped-def]
    f.start_practice(ME, level)
    return f.practice_play


def _adjudicate(t, f) -> None:  # type: ignore[no-untyped-def]
    """F8, and wait for the computer's answer (the adjudication follows it)."""
    before = len(t.controller.game.history)
    f.act_reveal.trigger()
    t.qtbot.waitUntil(lambda: len(t.controller.game.history) > before, timeout=30000)


def _bot_orders(c, state, power: str, level: str = "club") -> set[str]:  # type: ignore[no-untyped-def]
    return {format_order(o) for o in think_now(computer_seed(c.table), state, {power: level})[power]}


def test_practice_settings_are_six_computer_seats_without_secrecy() -> None:
    ids = ("austria", "england", "france", "germany", "italy", "russia", "turkey")
    s = practice_settings(ids, ME, "strong", 5)
    table = s.to_table()
    assert table[PRACTICE_KEY] == ME and table["secrecy"] is False and table["pins"] == {}
    assert table[COMPUTER_KEY] == {p: "strong" for p in OTHERS}
    state = TableState.from_table(table)
    assert practice_power(state, ids) == ME and TableSettings.from_table(state).practice == ME
    clock = table["clock"]  # no clock
    assert clock["wilson_rounds"] == 0 and all(clock[k] == 0 for k in (
        "spring_minutes", "fall_minutes", "writing_minutes", "retreat_minutes", "adjustment_minutes"))
    assert practice_power(TableState(), ids) is None and TableSettings.from_table(TableState()).practice is None
    with pytest.raises(ValueError):
        practice_settings(ids, "prussia", "club", 1)


def test_practice_starts_with_six_computer_seats_no_pins_no_curtain(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    _practice(f, "beginner")
    assert computer_seats(c.table, c.board.power_ids) == {p: "beginner" for p in OTHERS}
    assert f.flow.practice == ME and not f.flow.enabled and not c.table.get("pins")
    assert "host_pin" not in c.table and c.vault is None
    assert not f.flow.curtain_up and not f.flow.curtain.isVisible()
    # the person orders France only; nothing of the computer is written before the adjudication
    assert c.active_power == ME and c.can_order(ME) and not c.can_order("germany")
    assert not any(c.game.orders.get(p) for p in OTHERS)
    assert "Practice: you are France" in f.strip.caption.text()
    assert f.act_hint.isEnabled() and not f.act_secrecy.isEnabled() and not f.act_computer.isEnabled()


def test_practice_offers_no_pins_and_no_notes(table, features) -> None:  # type: ignore[no-untyped-def]
    """Table ▸ Change a PIN… was offered in a practice game, for any power, the computer's seats
    first ("Austria"), and Private notes between players with nobody to write to (seen in the
    window); a practice game has no PINs and one person.  A table game offers both."""
    f = features
    _practice(f)
    assert not f.act_change_pin.isEnabled() and not f.act_notes.isEnabled()
    f.start_new_game(TableSettings())
    assert f.act_change_pin.isEnabled() and f.act_notes.isEnabled()


def test_practice_adjudicate_writes_the_computer_then_explains(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    _practice(f)
    spring = c.state
    t.move("par", "bur")
    assert c.game.orders_of(ME)
    # before the adjudication: the computer's orders are nowhere, in no list, on no map
    for p in OTHERS:
        assert not c.game.orders.get(p) and not c.orders_of(p)
        assert_hidden(t, p, _bot_orders(c, spring, p))
    _adjudicate(t, f)
    entry = c.game.history[-1]
    assert entry.state.phase.short == "S1901M" and c.state.phase.short == "F1901M"
    assert {o.power for o in entry.orders} == set(c.board.power_ids)  # all seven powers ordered
    assert "A PAR - BUR" in {format_order(o).upper() for o in entry.orders}
    for p in OTHERS:  # the computer's orders are its seats' (deterministic for the game's seed)
        assert {format_order(o) for o in entry.orders if o.power == p} == _bot_orders(c, spring, p)
    dock = t.window.explanations
    assert dock.isVisible() and dock.entry is entry
    assert dock.result is not None and dock.result.order.power == ME
    assert "par" in dock.explained_text().lower() or "paris" in dock.explained_text().lower()
    assert len(dock._rows) >= 7  # every result is listed to explain


def test_practice_window_keeps_running_while_the_computer_thinks(table, features, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    _practice(f, "strong")
    # the computer is held in its thought until the window has shown it keeps running: how fast
    # the machine thinks decides nothing (a fast machine once answered within two timer ticks)
    release = threading.Event()

    def held(*args: Any) -> Any:
        assert release.wait(60), "the test never let the computer answer"
        return think_now(*args)

    monkeypatch.setattr(computer_worker, "think_now", held)
    ticks: list[bool] = []  # the timer fires: whether the computer was thinking then
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(f.practice_play.thinker.busy))
    timer.start(2)
    f.act_reveal.trigger()
    assert f.practice_play.thinker.busy and not c.game.history  # F8 returned while it thinks
    t.qtbot.waitUntil(lambda: len(ticks) >= 3, timeout=10000)
    assert all(ticks) and not c.game.history, "the event loop ran while the computer thought"
    release.set()
    t.qtbot.waitUntil(lambda: bool(c.game.history), timeout=60000)
    timer.stop()
    assert not f.practice_play.thinker.busy


def test_practice_answer_dropped_when_the_game_changed(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    play = _practice(f, "strong")
    f.act_reveal.trigger()
    assert play.thinker.busy
    f.start_practice(ME, "club")  # a new game while the computer thinks
    t.qtbot.waitUntil(lambda: not play.thinker.busy, timeout=60000)
    assert play.thinker.dropped == 1
    assert not c.game.history and not any(c.game.orders.get(p) for p in OTHERS)
    # and an undo of the adjudication meanwhile
    _adjudicate(t, f)
    assert c.state.phase.short == "F1901M"
    f.act_reveal.trigger()
    assert play.thinker.busy
    c.undo_adjudication()
    t.qtbot.waitUntil(lambda: not play.thinker.busy, timeout=60000)
    assert play.thinker.dropped == 2 and c.state.phase.short == "S1901M" and len(c.game.history) == 0


def test_practice_hint_suggests_and_enters_only_when_used(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    play = _practice(f)
    expected = _bot_orders(c, c.state, ME)
    f.act_hint.trigger()
    t.qtbot.waitUntil(lambda: play.hint_dialog is not None, timeout=30000)
    dialog = play.hint_dialog
    assert dialog.use_button.isDefault()  # Enter uses them
    assert all(o in dialog.text.text() for o in expected)
    assert not c.game.orders.get(ME)  # a suggestion: nothing entered
    dialog.reject()
    assert not c.game.orders.get(ME)
    f.act_hint.trigger()
    t.qtbot.waitUntil(lambda: play.hint_dialog is not None, timeout=30000)
    play.hint_dialog.use_button.click()
    assert {format_order(o) for o in c.game.orders_of(ME)} == expected
    c.undo_stack.undo()  # one undo step takes the suggestion back
    assert not c.game.orders.get(ME)


def test_practice_hint_after_an_adjudication_while_its_results_are_shown(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    play = _practice(f)
    _adjudicate(t, f)
    assert c.viewing is not None  # the results of Spring 1901 are on the map
    expected = _bot_orders(c, c.state, ME)
    f.act_hint.trigger()
    t.qtbot.waitUntil(lambda: play.hint_dialog is not None, timeout=30000)
    assert c.viewing is None and all(o in play.hint_dialog.text.text() for o in expected)
    play.hint_dialog.reject()


def test_practice_retreats_and_builds_by_hand_and_by_the_computer(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    _practice(f)
    _adjudicate(t, f)  # France holds all year
    while c.state.phase.short != "W1901A":
        _adjudicate(t, f)
    owing = [p for p in OTHERS if orders_needed(c.state, p) > 0]
    assert owing and not any(c.game.orders.get(p) for p in OTHERS)
    _adjudicate(t, f)
    entry = c.game.history[-1]
    for p in owing:  # the computer's builds (or removals) were given at the adjudication
        assert any(o.power == p for o in entry.orders)
    assert all(isinstance(o, Build | Waive) for o in entry.orders if o.power in owing
               and c.game.history[-1].state.adjustment_delta(o.power) > 0)
    assert c.state.phase.short == "S1902M"


def test_practice_saved_and_opened_stays_a_practice_game(table, features, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    c = t.controller
    _practice(f, "beginner")
    _adjudicate(t, f)
    path = tmp_path / "practice.dipl"
    c.save(path)
    f.start_new_game(TableSettings())
    assert f.flow.practice is None and not f.act_hint.isEnabled()
    assert f.open_recent(str(path))
    assert f.flow.practice == ME and f.table_settings.practice == ME
    assert computer_seats(c.table, c.board.power_ids) == {p: "beginner" for p in OTHERS}
    assert c.active_power == ME and not f.flow.enabled and f.act_hint.isEnabled()
    _adjudicate(t, f)  # and it plays on
    assert c.state.phase.short == "W1901A" or c.state.phase.short.startswith("F1901R")


def test_practice_from_the_new_game_dialog(table, features) -> None:  # type: ignore[no-untyped-def]
    f = features
    dialog = f.offer_new_game()
    assert "Practice: you against the computer" in dialog.practice_button.text()
    dialog.practice_button.click()
    assert dialog.result() == PRACTICE_CHOSEN
    chooser = f.practice_play.dialog
    assert chooser is not None and chooser.start_button.isDefault()  # Enter starts
    chooser.power_combo.setCurrentIndex(chooser.power_combo.findData("turkey"))
    chooser.level_combo.setCurrentIndex(chooser.level_combo.findData("strong"))
    chooser.accept()
    assert f.flow.practice == "turkey"
    assert computer_seats(table.controller.table, table.controller.board.power_ids)["france"] == "strong"
    # and Game ▸ New practice game… offers the same dialog
    f.act_practice.trigger()
    assert f.practice_play.dialog is not None
    f.practice_play.dialog.reject()


def test_practice_adjudicate_without_any_order_says_civil_disorder(table, features) -> None:  # type: ignore[no-untyped-def]
    """F8 with none of the person's units ordered puts the person's power in civil disorder (rules
    XIV.1: its units do not support each other, a dislodged unit is disbanded, no new units); the
    question before it says so, not only that the units hold (found playing to 1905 in the window:
    the results then named France in civil disorder, which the question had not said)."""
    t, f = table, features
    c = t.controller
    _practice(f)
    asked: list[str] = []

    def answer(_parent: Any, _title: str, text: str) -> bool:
        asked.append(text)
        return False

    f.flow.confirm = answer
    f.act_reveal.trigger()  # no order at all: refused, and nothing adjudicated
    assert len(asked) == 1 and not c.game.history and not f.practice_play.thinker.busy
    assert "civil disorder" in asked[0] and "XIV.1" in asked[0] and "disbanded" in asked[0]
    t.move("par", "bur")  # one order given: the others hold, no civil disorder
    f.act_reveal.trigger()
    assert len(asked) == 2 and "civil disorder" not in asked[1] and "hold" in asked[1]
    f.flow.confirm = lambda *a: True
    c.clear_orders(ME)
    _adjudicate(t, f)  # said yes: the results say the same
    assert c.game.history[-1].disorder == frozenset({ME})


def test_practice_caption_with_mixed_levels_names_no_single_level(table, features) -> None:  # type: ignore[no-untyped-def]
    """A practice game whose computer seats play at different levels (a save edited by hand: the
    dialog gives one level) was captioned with the first seat's level only, "the computer
    (beginner) the others" with England and Russia strong (found in the window)."""
    f = features
    c = table.controller
    ids = c.board.power_ids
    s = practice_settings(ids, ME, "club", 7)
    mixed = {"austria": "beginner", "england": "strong", "germany": "club", "italy": "beginner",
             "russia": "strong", "turkey": "club"}
    f.start_new_game(TableSettings(clock=s.clock, secrecy=False, computer=mixed, computer_seed=7, practice=ME))
    assert computer_seats(c.table, ids) == mixed and f.flow.practice == ME
    caption = f.strip.caption
    assert "Practice: you are France" in caption.text() and "(beginner)" not in caption.text()
    assert "mixed levels" in caption.text()
    assert caption.sizeHint().width() < 700  # one strip line on a laptop
    tip = caption.toolTip()
    assert all(f"{c.power_name(p)}: {LEVEL_WORDS[lvl]}" in tip for p, lvl in mixed.items())
    f.start_practice(ME, "strong")  # one level: named as before
    assert "the computer (strong) the others" in f.strip.caption.text()


def test_practice_start_message_fits_the_status_bar_on_a_laptop(table, features) -> None:  # type: ignore[no-untyped-def]
    """The message at the start of a practice game was cut: at 1366x768 it read "... Write your
    orders on the map, then" (and at 1920x1080 "... Ctrl+H: what would the c"), the strip beside
    it taking the rest of the bar.  The strip already says F8 and Ctrl+H: the message fits."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QFontMetrics
    from PySide6.QtWidgets import QApplication, QWidget

    table.on_a_laptop()
    features.start_practice(ME, "club")
    QApplication.processEvents()
    bar = table.window.statusBar()
    message = bar.currentMessage()
    assert message.startswith("Practice: you play France against the computer (club player)"), message
    widgets = [w for w in bar.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
               if w.isVisible()]
    room = bar.width() - sum(w.width() for w in widgets)
    assert QFontMetrics(bar.font()).horizontalAdvance(message) <= room, (message, room)


def test_practice_host_questions_say_nothing_of_a_host_pin(table, features) -> None:  # type: ignore[no-untyped-def]
    """A practice game has one person and no PINs by design: its host questions (undo the last
    adjudication, a new game) said "No host PIN is set for this game: anyone at the table may do
    this." (seen in the window); a table game without a host PIN still says it."""
    from diplomacy_desktop.table.hotseat import NO_HOST_PIN

    t, f = table, features
    c = t.controller
    asked: list[str] = []

    def answer(_parent: Any, _title: str, text: str) -> bool:
        asked.append(text)
        return True

    f.flow.confirm = answer
    _practice(f)
    _adjudicate(t, f)
    asked.clear()
    assert f.undo_adjudication() and not c.game.history
    assert f.may_end_game("Start a practice game")
    assert len(asked) == 2 and all(NO_HOST_PIN not in text for text in asked), asked
    asked.clear()
    f.start_new_game(TableSettings(secrecy=False))
    assert f.flow.ask_host("Undo", "Take back?") and NO_HOST_PIN in asked[-1]
    assert c.table.get("practice") is None
