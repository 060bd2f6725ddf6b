"""Wilson rounds on the table clock (seed 003: all talk open, at the table, in five-minute rounds),
driven by a fake time source: no test waits for real time."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from window_harness import FakeSound, FakeTime, Table

from diplomacy_desktop.engine.game import Game
from diplomacy_desktop.engine.state import Phase
from diplomacy_desktop.gui.table.clock import ClockWidget
from diplomacy_desktop.table.clock import (DECLARATION_MINUTES, EXPIRED, IDLE, MAX_ROUNDS, PAUSED, RUNNING,
                                           ClockModel, ClockSettings)
from diplomacy_desktop.gui.table.dialogs import ClockSettingsDialog, NewGameDialog, TableSettings
from diplomacy_desktop.table.hotseat import CURTAIN, OPEN
from diplomacy_desktop.gui.table.persistence import Autosave
from diplomacy_desktop.io.boardfile import load_board
from diplomacy_desktop.io.savefile import dumps, game_to_dict, loads
from diplomacy_desktop.io.saveschema import SaveFileError, check_shape

SPRING = Phase(1901, "spring", "movement")
FALL = Phase(1902, "fall", "movement")
RETREATS = Phase(1901, "spring", "retreat")
WILSON = ClockSettings(wilson_rounds=5, round_minutes=5, writing_minutes=4, writing_per_power=False)



# -- the settings and the periods ------------------------------------------------------------------


def test_clock_wilson_settings_default_off_and_old_saves_load_as_before() -> None:
    s = ClockSettings()
    assert (s.wilson_rounds, s.round_minutes, s.declaration_minutes) == (0, 5.0, DECLARATION_MINUTES)
    assert [p.kind for p in s.periods_for(SPRING)] == ["diplomacy", "writing"]
    old = {"spring_minutes": 12, "fall_minutes": 10, "writing_minutes": 5, "retreat_minutes": 0,
           "adjustment_minutes": 0}  # a save from before Wilson rounds
    back = ClockSettings.from_dict(old)
    assert back.wilson_rounds == 0 and back.spring_minutes == 12 and back.round_minutes == 5.0
    assert ClockSettings.from_dict(WILSON.to_dict()) == WILSON
    assert isinstance(ClockSettings.from_dict(json.loads(json.dumps(WILSON.to_dict()))).wilson_rounds, int)


@pytest.mark.parametrize("bad", [{"wilson_rounds": -1}, {"wilson_rounds": MAX_ROUNDS + 1}, {"wilson_rounds": 2.5},
                                 {"wilson_rounds": True}, {"wilson_rounds": 3, "round_minutes": 0},
                                 {"declaration_minutes": -2}])
def test_clock_wilson_settings_refuse_damage(bad: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        ClockSettings.from_dict(bad)


def test_clock_wilson_periods_are_m_rounds_then_writing() -> None:
    periods = WILSON.periods_for(SPRING)
    assert [(p.kind, p.seconds) for p in periods] == [("round", 300)] * 5 + [("writing", 240)]
    assert [p.title for p in periods[:2]] == ["Round 1 of 5 \u2014 Spring 1901", "Round 2 of 5 \u2014 Spring 1901"]
    assert periods[4].title == "Round 5 of 5 \u2014 Spring 1901"
    assert WILSON.periods_for(FALL)[0].title == "Round 1 of 5 \u2014 Fall 1902"  # both seasons
    assert WILSON.periods_for(RETREATS) == ()  # retreats and builds are not talked over


def test_clock_wilson_formal_adds_the_declarations_window() -> None:
    periods = WILSON.periods_for(SPRING, formal=True)
    assert [p.kind for p in periods] == ["round"] * 5 + ["declarations", "writing"]
    assert periods[5].title == "Declarations \u2014 Spring 1901" and periods[5].seconds == DECLARATION_MINUTES * 60
    # Formal Diplomacy without Wilson rounds: declarations after the one talks period
    assert [p.kind for p in ClockSettings().periods_for(SPRING, formal=True)] == ["diplomacy", "declarations",
                                                                                  "writing"]
    # a standard game never has one, whatever its length
    assert "declarations" not in [p.kind for p in ClockSettings(declaration_minutes=9).periods_for(SPRING)]


# -- the rounds, counted down ------------------------------------------------------------------------


def test_clock_wilson_rounds_advance_with_round_n_of_m(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, WILSON, now=fake)
    assert m.round_text == "Round 1 of 5" and m.status == IDLE and m.remaining_text == "5:00"
    m.start()
    fake.advance(300)
    events = m.tick()
    assert [(e.kind, e.period.kind) for e in events] == [("period_ended", "round")]
    assert m.round_text == "Round 2 of 5" and m.status == RUNNING and m.remaining == pytest.approx(300)
    assert m.in_talks and not m.last_round
    fake.advance(3 * 300)
    assert [e.kind for e in m.tick()] == ["period_ended"] * 3
    assert m.round_text == "Round 5 of 5" and m.last_round
    fake.advance(300)
    (end,) = m.tick()
    assert end.kind == "period_ended" and end.period.kind == "round"
    assert not m.in_talks and m.period is not None and m.period.kind == "writing" and m.round_text == ""
    fake.advance(240)
    assert [e.kind for e in m.tick()][-1] == "expired" and m.status == EXPIRED


def test_clock_wilson_warns_once_in_each_round(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, WILSON, now=fake)
    m.start()
    fake.advance(241)
    assert [(e.kind, e.period.title) for e in m.tick()] == [("warning", "Round 1 of 5 \u2014 Spring 1901")]
    assert m.in_warning
    fake.advance(59)
    assert [e.kind for e in m.tick()] == ["period_ended"]
    assert not m.in_warning  # round 2 starts with five minutes
    fake.advance(241)
    assert [(e.kind, e.period.title) for e in m.tick()] == [("warning", "Round 2 of 5 \u2014 Spring 1901")]


def test_clock_wilson_pause_add_minute_and_skip_work_per_round(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, WILSON, now=fake)
    m.start()
    fake.advance(100)
    m.pause()
    fake.advance(1000)  # paused: nothing counts, no round ends
    assert m.tick() == () and m.round_text == "Round 1 of 5" and m.remaining == pytest.approx(200)
    m.add_minute()
    assert m.remaining == pytest.approx(260)
    m.resume()
    fake.advance(260)
    assert [e.kind for e in m.tick()] == ["period_ended"]
    assert m.round_text == "Round 2 of 5" and m.remaining == pytest.approx(300)  # the minute was round 1's
    fake.advance(20)
    assert [e.kind for e in m.skip()] == ["period_ended"]  # the table is done with round 2
    assert m.round_text == "Round 3 of 5" and m.status == RUNNING and m.remaining == pytest.approx(300)
    assert m.plan()[0][2] == 360 and m.plan()[1][2] == 300  # the plan keeps the minute added to round 1


def test_clock_wilson_restart_round_and_reset_phase(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, WILSON, now=fake)
    m.start()
    fake.advance(400)
    m.tick()
    m.add_minute()
    m.restart_period()  # round 2 again, from its start, stopped
    assert m.round_text == "Round 2 of 5" and m.status == IDLE and m.remaining == 300
    assert m.plan()[1][2] == 300
    m.reset()
    assert m.round_text == "Round 1 of 5" and m.remaining == 300


def test_clock_wilson_one_more_round_renumbers(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, WILSON.__class__(wilson_rounds=3, round_minutes=4), now=fake, formal=True)
    m.start()
    fake.advance(240)
    m.tick()
    assert m.round_text == "Round 2 of 3"
    assert m.add_round()
    assert m.round_text == "Round 2 of 4" and m.remaining == pytest.approx(240)  # the round under way goes on
    assert [p.kind for p in m.periods] == ["round"] * 4 + ["declarations", "writing"]
    assert [p.title.split(" \u2014 ")[0] for p in m.periods[:4]] == [f"Round {n} of 4" for n in range(1, 5)]
    assert m.periods[3].seconds == 240
    fake.advance(3 * 240)
    m.tick()
    assert m.period is not None and m.period.kind == "declarations"
    assert not m.add_round()  # the talks are over: no more rounds
    plain = ClockModel.for_phase(SPRING, ClockSettings(), now=fake)
    assert not plain.add_round() and plain.rounds == 0  # no Wilson rounds: nothing to add
    many = ClockModel.for_phase(SPRING, ClockSettings(wilson_rounds=MAX_ROUNDS), now=fake)
    assert not many.add_round() and many.rounds == MAX_ROUNDS


def test_clock_wilson_end_talks_skips_every_round_left(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, WILSON, now=fake, formal=True)
    m.start()
    fake.advance(310)
    m.tick()
    events = m.end_talks()
    assert [(e.kind, e.period.kind) for e in events] == [("period_ended", "round")] * 4
    assert m.period is not None and m.period.kind == "declarations" and m.status == RUNNING
    assert m.end_talks() == ()  # over already


def test_clock_wilson_state_survives_to_dict_and_from_dict(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, WILSON, now=fake)
    m.start()
    fake.advance(330)
    m.tick()
    m.add_round()
    m.add_minute()
    data = json.loads(json.dumps(m.to_dict()))
    other = FakeTime()
    back = ClockModel.from_dict(data, now=other)
    assert back.round_text == "Round 2 of 6" and back.status == RUNNING
    assert back.remaining == pytest.approx(330) and back.plan() == m.plan()
    assert back.settings == WILSON
    # a state saved before Wilson rounds (no "added"): loads as it was
    del data["added"]
    assert ClockModel.from_dict(data, now=other).plan()[1][2] == 300


# -- the widget ----------------------------------------------------------------------------------------


def test_clock_wilson_widget_says_round_n_of_m_large(qtbot, fake: FakeTime) -> None:  # type: ignore[no-untyped-def]
    sound = FakeSound()
    w = ClockWidget(ClockModel.for_phase(SPRING, WILSON, now=fake), sound=sound)  # type: ignore[arg-type]
    qtbot.addWidget(w)
    w.show()
    assert w.round_label.text() == "Round 1 of 5" and w.round_label.isVisible()
    assert w.round_label.font().pointSize() >= 30 and w.round_label.font().bold()
    assert "Spring 1901" in w.title.text()
    assert w.skip_button.text() == "Next round" and w.reset_button.text() == "Restart round"
    assert w.round_button.isVisible() and w.round_button.isEnabled()
    w.start_button.click()
    fake.advance(300)
    with qtbot.waitSignal(w.period_ended, timeout=1000) as blocker:
        w.tick()
    assert blocker.args == ["round"] and sound.played == 1 and w.is_flashing  # each round's end chimes
    assert w.round_label.text() == "Round 2 of 5" and w.digits.text() == "5:00"
    w.round_button.click()
    assert w.round_label.text() == "Round 2 of 6"
    for _ in range(4):
        w.skip_button.click()
    assert w.round_label.text() == "Round 6 of 6" and w.skip_button.text() == "Write orders now"
    assert "Last round" in w.note.text()
    w.skip_button.click()
    assert not w.round_label.isVisible() and not w.round_button.isEnabled() and w.reset_button.text() == "Reset"
    compact = ClockWidget(ClockModel.for_phase(SPRING, WILSON, now=fake), sound=sound, compact=True)  # type: ignore[arg-type]
    qtbot.addWidget(compact)
    assert compact.round_label.text() == "Round 1 of 5" and compact.round_label.font().pointSize() >= 24
    formal = ClockWidget(ClockModel.for_phase(SPRING, WILSON, now=fake, formal=True), sound=sound)  # type: ignore[arg-type]
    qtbot.addWidget(formal)
    for _ in range(4):
        formal.skip_button.click()
    assert formal.skip_button.text() == "Declarations now"



def _lines(label) -> int:  # type: ignore[no-untyped-def]
    """How many lines ``label`` takes at its width (its words wrapped as it wraps them)."""
    from PySide6.QtCore import QRect
    from PySide6.QtGui import QFontMetrics

    metrics = QFontMetrics(label.font())
    flags = Qt.TextFlag.TextWordWrap if label.wordWrap() else Qt.TextFlag.TextSingleLine
    height = metrics.boundingRect(QRect(0, 0, label.width(), 10_000), flags, label.text()).height()
    return round(height / metrics.lineSpacing())


@pytest.mark.parametrize(("screen_width", "stacked"), [(1366, True), (1920, False)])
def test_clock_wilson_projector_bar_keeps_the_words_on_one_or_two_lines(qtbot, fake: FakeTime,  # type: ignore[no-untyped-def]
                                                                         screen_width: int, stacked: bool) -> None:
    """On the projector the bar above the map gets the screen less the results panel (30 %): at
    1366 wide the round goes above the digits, so the season stays on one line and the note on
    one or two (they wrapped onto four or five); at 1920 the round stays beside the digits."""
    from PySide6.QtWidgets import QApplication

    w = ClockWidget(ClockModel.for_phase(SPRING, WILSON, now=fake), sound=FakeSound(), compact=True)  # type: ignore[arg-type]
    qtbot.addWidget(w)
    w.set_projector(True)
    w.resize(screen_width - max(320, screen_width * 3 // 10) - 16, 200)
    w.show()
    for rounds_left in (4, 0):
        while w.model.round_number < 5 - rounds_left:
            w.skip_button.click()
        QApplication.processEvents()
        assert w.round_label.isVisible() and w.stacked is stacked
        assert _lines(w.title) == 1, w.title.text()
        assert _lines(w.note) <= 2, w.note.text()
        assert w.round_label.width() >= w.round_label.sizeHint().width()  # the round is never cut
        assert w.digits.width() >= w.digits.sizeHint().width()
        assert w.title.width() + w.round_label.width() <= w.width()
    assert w.note.text() == "Last round: then the talks end"
    w.set_projector(False)  # the window's bar again: round beside the digits
    QApplication.processEvents()
    assert not w.stacked


# -- the dialogs -------------------------------------------------------------------------------------


BOARD = load_board("standard")


def test_clock_wilson_new_game_dialog_switches_rounds_on(qtbot) -> None:  # type: ignore[no-untyped-def]
    d = NewGameDialog(BOARD)
    qtbot.addWidget(d)
    box = d.clock_box
    assert not box.wilson_box.isChecked() and not box.rounds_spin.isEnabled() and d.spring_spin.isEnabled()
    assert d.settings().clock.wilson_rounds == 0
    box.wilson_box.setChecked(True)
    assert box.rounds_spin.isEnabled() and not d.spring_spin.isEnabled()
    box.rounds_spin.setValue(4)
    box.round_spin.setValue(6)
    box.declaration_spin.setValue(2)
    s = d.settings()
    assert (s.clock.wilson_rounds, s.clock.round_minutes, s.clock.declaration_minutes) == (4, 6, 2)
    again = NewGameDialog(BOARD, TableSettings(clock=s.clock))
    qtbot.addWidget(again)
    assert again.clock_box.wilson_box.isChecked() and again.settings().clock == s.clock
    again.reset_to_defaults()
    assert again.settings().clock == ClockSettings()


# -- the table: the window, its save, its autosave -------------------------------------------------


def _features(window, tmp_path: Path, now: FakeTime):  # type: ignore[no-untyped-def]
    from diplomacy_desktop.gui.table.features import install_table_features

    return install_table_features(window, autosave=Autosave(tmp_path / "data"), rng=random.Random(3),
                                  review=lambda d: True, confirm=lambda *a: True, message=lambda *a: None,
                                  now=now, sound=FakeSound())


def test_clock_wilson_last_round_ends_the_talks_in_the_window(table: Table, tmp_path: Path,
                                                              fake: FakeTime) -> None:
    f = _features(table.window, tmp_path, fake)
    f.start_new_game(TableSettings(clock=ClockSettings(wilson_rounds=2, round_minutes=5)))
    assert f.clock.round_label.text() == "Round 1 of 2"
    f.clock.start_button.click()
    fake.advance(300)
    f.clock.tick()
    assert f.clock.round_label.text() == "Round 2 of 2"
    assert f.flow.session.stage == OPEN and not f.flow.curtain_up  # round 1's end: the talks go on
    fake.advance(300)
    f.clock.tick()
    assert f.flow.session.stage == CURTAIN and f.flow.curtain_up  # the last round's end: orders round
    assert f.clock.model.period is not None and f.clock.model.period.kind == "writing"
    assert "to write orders" in f.flow.curtain.clock_label.text()


def test_clock_wilson_write_orders_during_a_round_ends_every_round_left(table: Table, tmp_path: Path,
                                                                        fake: FakeTime) -> None:
    f = _features(table.window, tmp_path, fake)
    f.start_new_game(TableSettings(clock=WILSON))
    f.clock.start_button.click()
    fake.advance(301)
    f.clock.tick()
    f.clock.stop_flashing()
    f.act_write.trigger()  # F6 in round 2 of 5
    assert f.flow.curtain_up and f.clock.model.period is not None and f.clock.model.period.kind == "writing"
    assert f.clock.model.status == RUNNING and f.clock.model.remaining == pytest.approx(240)
    assert f.flow.curtain.clock_label.text() == "Clock: 4:00 to write orders"
    f.clock.reset_button.click()  # the host takes the clock back to the talks: the curtain says the round
    f.clock.start_button.click()
    fake.advance(60)
    f.clock.tick()
    assert f.flow.curtain.clock_label.text() == "Round 1 of 5: 4:00 left"
    f.clock.start_button.click()
    assert f.flow.curtain.clock_label.text() == "Round 1 of 5: 4:00 left (paused)"


def test_clock_wilson_formal_game_has_the_declarations_window(table: Table, tmp_path: Path,
                                                              fake: FakeTime) -> None:
    f = _features(table.window, tmp_path, fake)
    game = Game.new(BOARD, formal=True)
    path = tmp_path / "formal.dip"
    path.write_text(dumps(game, TableSettings(clock=ClockSettings(wilson_rounds=2)).to_table()), encoding="utf-8")
    table.controller.load(path)
    m = f.clock.model
    assert [p.kind for p in m.periods] == ["round", "round", "declarations", "writing"]
    f.clock.start_button.click()
    fake.advance(600)
    f.clock.tick()
    assert m.period is not None and m.period.kind == "declarations" and m.status == RUNNING
    assert f.flow.curtain_up and f.flow.session.declaring  # the talks are over: the declarations round
    assert f.flow.curtain.clock_label.text() == "Clock: 3:00 to declare"
    f.clock.skip_button.click()  # the host moves on from the declarations window
    assert m.period.kind == "writing"


def test_clock_wilson_plan_survives_save_and_load(table: Table, tmp_path: Path, fake: FakeTime) -> None:
    f = _features(table.window, tmp_path, fake)
    f.start_new_game(TableSettings(clock=WILSON))
    f.clock.start_button.click()
    fake.advance(300)
    f.clock.tick()
    f.act_round.trigger()  # one more round: 2 of 6
    f.act_minute.trigger()
    f.clock.start_button.click()  # paused
    c = table.controller
    plan = f.clock_plan("S1901M")
    assert plan is not None and len(plan) == 7 and plan[1][1].startswith("Round 2 of 6") and plan[1][2] == 360
    data = json.loads(dumps(c.game, c.table))
    check_shape(data)  # the table part is strict about the keys it knows
    bad = json.loads(json.dumps(data))
    bad["table"]["clock_plans"]["S1901M"][0][2] = "five"
    with pytest.raises(SaveFileError):
        check_shape(bad)
    bad = json.loads(json.dumps(data))
    bad["table"]["clock"]["wilson_rounds"] = 2.5
    with pytest.raises(SaveFileError):
        check_shape(bad)
    path = tmp_path / "wilson.dip"
    c.save(path)
    f.start_new_game(TableSettings())  # another game in between
    assert f.clock.model.rounds == 0 and f.clock_plan("S1901M") is not None and len(f.clock_plan("S1901M")) == 2
    c.load(path)
    m = f.clock.model
    assert m.round_text == "Round 2 of 6" and m.status == PAUSED and m.remaining == pytest.approx(360)
    assert f.clock.round_label.text() == "Round 2 of 6"
    assert f.clock_plan("S1901M") == plan
    _game, loaded = loads(path.read_text(encoding="utf-8"))
    assert loaded["clock"]["wilson_rounds"] == 5 and loaded["clock_plans"]["S1901M"] == plan


def test_clock_wilson_plan_of_each_phase_is_kept_and_survives_a_crash(qtbot, table: Table, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                      fake: FakeTime) -> None:
    from window_harness import shared_geometry

    from diplomacy_desktop.gui.controller import GameController
    from diplomacy_desktop.gui.main_window import MainWindow

    f = _features(table.window, tmp_path, fake)
    f.start_new_game(TableSettings(clock=ClockSettings(wilson_rounds=2), secrecy=False))
    f.act_round.trigger()  # spring: three rounds
    table.adjudicate()
    c = table.controller
    assert c.state.phase.short == "F1901M"
    f.clock.start_button.click()
    f.clock.skip_button.click()  # fall: round 2 of 2 under way
    f.autosaver.save_now()
    expected = game_to_dict(c.game, c.table)
    assert [p[0] for p in expected["table"]["clock_plans"]["S1901M"]] == ["round"] * 3 + ["writing"]
    assert [p[0] for p in expected["table"]["clock_plans"]["F1901M"]] == ["round"] * 2 + ["writing"]

    # kill -9: a new window on the same data folder resumes
    c2 = GameController()
    w2 = MainWindow(c2, geometry=shared_geometry(c2), settings=table.window.settings, sharpen=False)
    w2.ask_before_closing = False
    qtbot.addWidget(w2)
    f2 = _features(w2, tmp_path, fake)
    f2.first_start()
    assert f2.resume_offer is not None
    f2.resume_offer.resume_button.click()  # type: ignore[attr-defined]
    assert c2.table["clock_plans"] == expected["table"]["clock_plans"]
    assert f2.clock.model.round_text == "Round 2 of 2" and f2.clock.model.status == RUNNING


def test_clock_wilson_settings_during_a_game(table: Table, tmp_path: Path, fake: FakeTime) -> None:
    f = _features(table.window, tmp_path, fake)
    f.start_new_game(TableSettings())
    f.act_clock_settings.trigger()
    d = f.clock_dialog
    assert isinstance(d, ClockSettingsDialog) and not d.note.isVisibleTo(d)
    d.box.wilson_box.setChecked(True)
    d.box.rounds_spin.setValue(3)
    d.ok_button.click()
    assert table.controller.table["clock"]["wilson_rounds"] == 3
    assert f.clock.model.round_text == "Round 1 of 3"  # not started: planned again at once
    f.clock.start_button.click()
    f.act_clock_settings.trigger()
    d = f.clock_dialog
    assert isinstance(d, ClockSettingsDialog) and d.note.isVisibleTo(d) and "next phase" in d.note.text()
    d.box.wilson_box.setChecked(False)
    d.ok_button.click()
    assert f.clock.model.round_text == "Round 1 of 3"  # under way: this phase keeps its rounds
    assert table.controller.table["clock"]["wilson_rounds"] == 0
    f.clock.set_phase(Phase(1901, "fall", "movement"))
    assert f.clock.model.rounds == 0 and f.clock.model.period is not None \
        and f.clock.model.period.kind == "diplomacy"


def test_clock_wilson_projector_shows_the_round_large_and_gives_it_back(table: Table, tmp_path: Path,
                                                                        fake: FakeTime) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    f = _features(table.window, tmp_path, fake)
    f.start_new_game(TableSettings(clock=WILSON))
    clock = f.clock
    sizes = [w.font().pointSizeF() for w in (clock.round_label, clock.digits, clock.title)]
    table.key(Qt.Key.Key_F5)
    QApplication.processEvents()
    assert table.window.projector.active and clock.projecting and clock.isVisible()
    assert clock.round_label.isVisible() and clock.round_label.text() == "Round 1 of 5"
    assert clock.round_label.font().pointSizeF() >= 40 and clock.digits.font().pointSizeF() >= 60
    table.key(Qt.Key.Key_F5)
    QApplication.processEvents()
    assert not clock.projecting
    assert [w.font().pointSizeF() for w in (clock.round_label, clock.digits, clock.title)] == sizes


def test_clock_wilson_after_the_last_round_nothing_of_a_sealed_power_shows(table: Table, tmp_path: Path,
                                                                           fake: FakeTime) -> None:
    """Secrecy: the rounds' clock, its saved state and plans, the curtain's clock text and the
    projector carry no order of a power that sealed behind the curtain."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication
    from test_secrecy import assert_hidden, seal_next
    from widget_text import texts

    f = _features(table.window, tmp_path, fake)
    f.start_new_game(TableSettings(clock=ClockSettings(wilson_rounds=2, round_minutes=3)))
    f.clock.start_button.click()
    fake.advance(360)
    f.clock.tick()  # the last round ends: the laptop goes round
    assert f.flow.curtain_up
    sealed, written = seal_next(table, f)
    assert written and f.flow.curtain_up and f.flow.session.stage == CURTAIN
    fake.advance(30)
    f.clock.tick()
    shown = " ".join(texts(f.clock)) + " " + f.flow.curtain.clock_label.text()
    saved = json.dumps({k: table.controller.table.to_table().get(k) for k in ("clock", "clock_state", "clock_plans")})
    assert "to write orders" in shown
    for order in written:
        assert order not in shown and order not in saved
    table.key(Qt.Key.Key_F5)
    QApplication.processEvents()
    assert f.clock.projecting
    assert_hidden(table, sealed, written)
    table.key(Qt.Key.Key_F5)


def test_clock_wilson_buttons_keep_the_plain_clocks_places(qtbot, fake: FakeTime) -> None:  # type: ignore[no-untyped-def]
    """Issue 17 (finding 9): the Wilson clock's buttons moved compared with the plain clock's."""
    from PySide6.QtWidgets import QApplication

    places = []
    for settings in (ClockSettings(), WILSON):
        w = ClockWidget(ClockModel.for_phase(SPRING, settings, now=fake), sound=FakeSound(), compact=True)  # type: ignore[arg-type]
        qtbot.addWidget(w)
        w.resize(1000, 90)
        w.show()
        QApplication.processEvents()
        places.append([b.geometry().getRect() for b in (w.start_button, w.add_button, w.skip_button, w.reset_button)])
    assert places[0] == places[1]
