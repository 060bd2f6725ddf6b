"""Issue 35, finding 8: the event's time of day and "adjudicate on the next period's clock",
played through the real window: the rules set in Tournament ▸ Event rules… (its OK button), the
clock's own buttons and ticks, F8 for each adjudication, the table told on the clock and the strip.

The clock runs on a test's time (``FakeTime``); the time of day is a test's clock too."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from PySide6.QtWidgets import QDialogButtonBox
from window_harness import FakeSound, FakeTime

from diplomacy_desktop.table.clock import RUNNING, WRITING
from diplomacy_desktop.gui.table.dialogs import TableSettings


@pytest.fixture
def fake_time() -> FakeTime:
    return FakeTime()


@pytest.fixture
def features_options(host, fake_time: FakeTime) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    return {"confirm": host.confirm, "host_prompt": host.prompt, "now": fake_time, "sound": FakeSound()}


class WallClock:
    """The time of day at the event."""

    def __init__(self, start: dt.datetime) -> None:
        self.now = start

    def __call__(self) -> dt.datetime:
        return self.now


def set_rules(qtbot, table, **fields: Any) -> None:  # type: ignore[no-untyped-def]
    """Tournament ▸ Event rules…, the fields filled in, OK."""
    tour = table.window.tournament
    tour.act_rules.trigger()
    dialog = tour.rules_dialog
    assert dialog is not None and dialog.isVisible()
    for name, value in fields.items():
        if name == "preset":
            dialog.preset_combo.setCurrentIndex(dialog.preset_combo.findData(value))
        elif name == "end_time":
            dialog.end_time_edit.setText(value)
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok).click()
    assert tour.rules_dialog is None, dialog.error.text()


def reveal(features) -> str:  # type: ignore[no-untyped-def]
    """F8 (the menu's Reveal and adjudicate); the phase that follows."""
    features.act_reveal.trigger()
    return features.controller.state.phase.short


def confirm_board(table) -> None:  # type: ignore[no-untyped-def]
    """The piece pusher is done: every step ticked, "The board matches"."""
    dock = table.window.tournament.pieces
    table.window.tournament.act_pieces.trigger()
    for i in range(dock.list.count()):
        dock.check(i)
    dock.match_button.click()
    assert dock.is_confirmed()


def test_time_of_day_end_played_through_an_evening_round(qtbot, table, features, host) -> None:  # type: ignore[no-untyped-def]
    """An evening round whose time limit is 01:00, set at 21:30: not already past (it was: 21:40 is
    "after 01:00" as times of day, and the game ended after 1901); the limit falls during Spring
    1902's talks, and the table is told then, not at the next adjudication; 1902 is completed."""
    f, c = features, table.controller
    tour = table.window.tournament
    wall = tour.time_of_day = WallClock(dt.datetime(2026, 12, 5, 21, 30))
    f.start_new_game(TableSettings(secrecy=False))
    set_rules(qtbot, table, end_time="01:00")
    assert "At 01:00 the game year under way is the last" in f.clock.note.text()
    wall.now = dt.datetime(2026, 12, 5, 21, 40)
    assert reveal(f) == "F1901M"
    assert c.game.end_year is None and not c.game.is_over
    confirm_board(table)
    wall.now = dt.datetime(2026, 12, 5, 23, 55)
    phase = reveal(f)
    assert phase in ("W1901A", "S1902M") and not c.game.is_over
    if phase == "W1901A":
        confirm_board(table)
        assert reveal(f) == "S1902M"
    assert c.game.end_year is None
    # the limit falls during Spring 1902's talks: the table is told at once, on the clock and the strip
    assert tour.time_timer.isActive()
    tour.time_timer.setInterval(20)
    wall.now = dt.datetime(2026, 12, 6, 1, 0, 30)
    qtbot.waitUntil(lambda: c.game.end_year == 1902, timeout=3000)
    assert "Time is up (01:00): the game ends after Fall 1902" in f.clock.note.text()
    assert "Fall 1902" in f.strip.notice.toolTip() + f.strip.notice.text()
    assert not tour.time_timer.isActive()
    confirm_board(table)
    assert reveal(f) == "F1902M" and not c.game.is_over
    confirm_board(table)
    reveal(f)
    if not c.game.is_over:  # the year's builds are part of it
        assert c.state.phase.short == "W1902A"
        confirm_board(table)
        reveal(f)
    assert c.game.is_over and c.game.ended is not None and c.game.ended.kind == "short_game"
    result = tour.final_result()
    assert result.outcome.kind == "time_limit" and result.outcome.in_draw == c.board.power_ids


def test_a_time_limit_that_falls_at_an_adjudication_ends_the_year_just_played(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """The limit fell during Fall 1901's talks and nobody looked (the check missed it): found at
    Fall's adjudication, 1901 is the last year, even though the next phase is already 1902's."""
    f, c = features, table.controller
    tour = table.window.tournament
    wall = tour.time_of_day = WallClock(dt.datetime(2026, 12, 5, 16, 0))
    f.start_new_game(TableSettings(secrecy=False))
    set_rules(qtbot, table, end_time="17:00")
    assert reveal(f) == "F1901M"
    confirm_board(table)
    tour.time_timer.stop()  # the limit falls between two looks
    wall.now = dt.datetime(2026, 12, 5, 17, 5)
    reveal(f)
    if not c.game.is_over:
        assert c.state.phase.short == "W1901A" and c.game.end_year == 1901
        confirm_board(table)
        reveal(f)
    assert c.game.is_over and c.game.end_year == 1901 and c.state.phase.year == 1902


def test_adjudication_on_the_next_periods_clock_played_through(qtbot, table, features, fake_time) -> None:  # type: ignore[no-untyped-def]
    """"15 + 2, adjudication on the next clock" chosen in the dialog: Spring's talks and writing
    run out on the clock, F8 at once starts Fall's talks, and the minutes spent reading the
    orders and moving the pieces are Fall's; the plain "15 + 5" leaves the next clock stopped."""
    f, c = features, table.controller
    clock = f.clock
    f.start_new_game(TableSettings(secrecy=False))
    set_rules(qtbot, table, preset="talks15_write2_next")
    assert [p.seconds for p in clock.model.periods] == [15 * 60, 2 * 60]
    assert "adjudication on the next period's clock" in clock.toolTip()
    clock.start_button.click()
    fake_time.advance(15 * 60)
    clock.tick()
    assert clock.model.period is not None and clock.model.period.kind == WRITING
    fake_time.advance(2 * 60)
    clock.tick()
    assert reveal(f) == "F1901M"
    assert clock.model.status == RUNNING  # Fall's talks began with the adjudication
    fake_time.advance(90)  # the orders read out and the pieces moved
    clock.tick()
    assert clock.model.remaining_text == "13:30"
    confirm_board(table)
    # the plain preset: the next clock waits for the host
    set_rules(qtbot, table, preset="talks15_write5")
    clock.start_button.click() if clock.model.status != RUNNING else None
    reveal(f)
    assert c.state.phase.short in ("W1901A", "S1902M")
    assert clock.model.status != RUNNING


def test_a_time_limit_falling_mid_phase_keeps_the_running_clock_and_the_seals(  # type: ignore[no-untyped-def]
        qtbot, table, features, fake_time) -> None:
    """The issue-35 run under Xvfb: the time limit fell during Spring 1902's talks with 13:09 left on
    the clock, and the clock went back to 15:00, stopped ("Press Start when the table is ready"), as
    if the phase had begun again; with hot-seat secrecy the powers that had sealed were called to
    write again.  The limit only makes this year the last: the phase and its clock go on."""
    f, c = features, table.controller
    tour = table.window.tournament
    clock = f.clock
    wall = tour.time_of_day = WallClock(dt.datetime(2026, 12, 5, 21, 30))
    f.start_new_game(TableSettings())  # hot-seat secrecy, no PINs
    set_rules(qtbot, table, end_time="22:00")
    clock.start_button.click()
    clock.skip_button.click()  # Write orders now: the writing period runs
    assert clock.model.status == RUNNING and clock.model.period.kind == WRITING
    fake_time.advance(60)
    clock.tick()
    left = clock.model.remaining_text
    power = f.flow.session.next_power
    f.flow.curtain.open_button.click()
    f.strip.seal_button.click()
    if f.flow.curtain.showing_seal_code:
        f.flow.curtain.seal_done_button.click()
    assert power in f.flow.session.sealed
    # the limit falls while the writing runs; the window's look every ten seconds finds it
    tour.time_timer.setInterval(20)
    wall.now = dt.datetime(2026, 12, 5, 22, 0, 30)
    qtbot.waitUntil(lambda: c.game.end_year == 1901, timeout=3000)
    assert "Time is up (22:00)" in clock.note.text()
    assert power in f.flow.session.sealed
    assert clock.model.status == RUNNING and clock.model.period.kind == WRITING
    assert clock.model.remaining_text == left
