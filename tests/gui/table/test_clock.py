"""The negotiation clock, driven by a fake time source: no test waits for real time."""

from __future__ import annotations

import json
import wave

import pytest
from window_harness import FakeSound, FakeTime

from diplomacy_desktop.engine.state import Phase
from diplomacy_desktop.gui.table.clock import CHIME_FILE, ClockWidget
from diplomacy_desktop.table.clock import (EXPIRED, IDLE, OFF, PAUSED, RUNNING, ClockEvent, ClockModel,
                                           ClockSettings)
from diplomacy_desktop.resources import assets_dir

SPRING = Phase(1901, "spring", "movement")
FALL = Phase(1901, "fall", "movement")
RETREATS = Phase(1901, "spring", "retreat")
WINTER = Phase(1901, "fall", "adjustment")



def test_clock_settings_default_to_fifteen_minutes_and_two_to_write_for_each_power() -> None:
    s = ClockSettings()
    periods = s.periods_for(SPRING, writers=7)  # (issue 34: the writing window is per power)
    assert [(p.kind, p.seconds) for p in periods] == [("diplomacy", 900), ("writing", 7 * 120)]
    assert [p.seconds for p in s.periods_for(SPRING)][1:] == [120]  # (one power)
    assert s.periods_for(RETREATS) == ()  # retreats and adjustments: no clock by default
    assert s.periods_for(WINTER) == ()


def test_clock_settings_per_season_lengths() -> None:
    s = ClockSettings(spring_minutes=18, fall_minutes=16, writing_minutes=4, retreat_minutes=2)
    assert s.periods_for(SPRING)[0].seconds == 18 * 60
    assert s.periods_for(FALL)[0].seconds == 16 * 60
    assert [p.seconds for p in s.periods_for(RETREATS)] == [120]
    with pytest.raises(ValueError):
        ClockSettings(spring_minutes=-1)


def test_clock_counts_down(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, now=fake)
    assert m.status == IDLE and m.remaining_text == "15:00"
    fake.advance(30)  # not started: nothing moves
    assert m.remaining == 900
    m.start()
    fake.advance(61.5)
    assert m.tick() == ()
    assert m.remaining == pytest.approx(838.5)
    assert m.remaining_text == "13:59"
    assert 0.9 < m.fraction_left < 0.95


def test_clock_pause_and_resume(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, now=fake)
    m.start()
    fake.advance(100)
    m.pause()
    assert m.status == PAUSED
    fake.advance(500)  # paused time does not count
    assert m.remaining == pytest.approx(800)
    m.resume()
    assert m.status == RUNNING
    fake.advance(50)
    assert m.remaining == pytest.approx(750)


def test_clock_add_minute(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, now=fake)
    m.add_minute()
    assert m.remaining == 960  # before the start
    m.start()
    fake.advance(10)
    m.add_minute()
    assert m.remaining == pytest.approx(1010)


def test_clock_warns_once_at_one_minute(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, now=fake)
    heard: list[ClockEvent] = []
    m.subscribe(heard.append)
    m.start()
    fake.advance(900 - 61)
    assert m.tick() == () and not m.in_warning
    fake.advance(1)
    (event,) = m.tick()
    assert event.kind == "warning" and event.period.kind == "diplomacy"
    assert m.in_warning and m.remaining_text == "1:00"
    fake.advance(5)
    assert m.tick() == ()  # only once
    m.add_minute()  # back above a minute: the warning will come again
    fake.advance(61)
    assert [e.kind for e in m.tick()] == ["warning"]
    assert [e.kind for e in heard] == ["warning", "warning"]


def test_clock_diplomacy_ends_then_writing_window_then_expires(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, ClockSettings(writing_minutes=5, writing_per_power=False), now=fake)
    m.start()
    fake.advance(900)
    events = m.tick()
    assert [(e.kind, e.period.kind) for e in events] == [("period_ended", "diplomacy")]
    assert m.period is not None and m.period.kind == "writing" and m.status == RUNNING
    assert m.remaining == pytest.approx(300)
    fake.advance(300)
    events = m.tick()
    assert [e.kind for e in events] == ["warning", "expired"] or [e.kind for e in events] == ["expired"]
    assert m.status == EXPIRED and m.remaining == 0 and m.remaining_text == "0:00"
    assert m.tick() == ()  # the end is reported once


def test_clock_catches_up_after_a_long_sleep(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, now=fake)
    m.start()
    fake.advance(10_000)
    assert [e.kind for e in m.tick()] == ["period_ended", "expired"]


def test_clock_skip_ends_talks_early(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, ClockSettings(writing_minutes=5, writing_per_power=False), now=fake)
    m.start()
    fake.advance(200)
    assert [e.kind for e in m.skip()] == ["period_ended"]
    assert m.period is not None and m.period.kind == "writing"
    assert m.status == RUNNING and m.remaining == pytest.approx(300)


def test_clock_add_minute_after_the_end_reopens_paused(fake: FakeTime) -> None:
    m = ClockModel.for_phase(SPRING, now=fake)
    m.start()
    fake.advance(2000)
    m.tick()
    m.add_minute()
    assert m.status == PAUSED and m.remaining == 60


def test_clock_phase_without_periods_is_off(fake: FakeTime) -> None:
    m = ClockModel.for_phase(RETREATS, now=fake)
    assert m.status == OFF
    m.start()
    assert m.status == OFF and m.tick() == ()


def test_clock_survives_to_dict_and_from_dict(fake: FakeTime) -> None:
    m = ClockModel.for_phase(FALL, ClockSettings(fall_minutes=17), now=fake)
    m.start()
    fake.advance(120)
    data = json.loads(json.dumps(m.to_dict()))  # what goes into the save file
    other_time = FakeTime()
    other_time.t = 5.0  # a new process: its clock reads something else entirely
    back = ClockModel.from_dict(data, now=other_time)
    assert back.status == RUNNING
    assert back.remaining == pytest.approx(17 * 60 - 120)
    assert back.settings.fall_minutes == 17
    assert back.period == m.period
    other_time.advance(60)
    assert back.remaining == pytest.approx(17 * 60 - 180)

    m.pause()
    paused = ClockModel.from_dict(m.to_dict(), now=other_time)
    other_time.advance(300)
    assert paused.status == PAUSED and paused.remaining == pytest.approx(17 * 60 - 120)


def test_clock_from_dict_refuses_damage() -> None:
    with pytest.raises(ValueError):
        ClockModel.from_dict({"periods": [["diplomacy", "x", 60]], "index": 4, "status": "idle"})
    with pytest.raises(ValueError):
        ClockModel.from_dict({"periods": [], "status": "sideways"})


def test_clock_widget_shows_big_digits_and_ticks(qtbot, fake: FakeTime) -> None:
    sound = FakeSound()
    w = ClockWidget(ClockModel.for_phase(SPRING, now=fake), sound=sound)  # type: ignore[arg-type]
    qtbot.addWidget(w)
    assert w.digits.text() == "15:00"
    assert w.digits.font().pointSize() >= 48
    assert "Diplomacy" in w.title.text() and "1901" in w.title.text()
    w.start_button.click()
    assert w.model.status == RUNNING and w.timer.isActive() and w.start_button.text() == "Pause"
    fake.advance(65)
    w.tick()
    assert w.digits.text() == "13:55"
    w.start_button.click()
    assert w.model.status == PAUSED and not w.timer.isActive() and w.start_button.text() == "Resume"
    w.add_button.click()
    assert w.digits.text() == "14:55"


def test_clock_widget_warning_colour_then_flash_and_sound(qtbot, fake: FakeTime) -> None:
    sound = FakeSound()
    w = ClockWidget(ClockModel.for_phase(SPRING, now=fake), sound=sound)  # type: ignore[arg-type]
    qtbot.addWidget(w)
    w.start_button.click()
    fake.advance(900 - 59)
    with qtbot.waitSignal(w.warned, timeout=1000):
        w.tick()
    assert w.state_name == "warning" and "One minute" in w.note.text()
    fake.advance(60)
    with qtbot.waitSignal(w.period_ended, timeout=1000) as blocker:
        w.tick()
    assert blocker.args == ["diplomacy"]
    assert w.is_flashing and sound.played == 1 and w.state_name == "flash"
    w._flash_step()
    assert w.state_name == "ended"  # flashing: red with white, then white with red
    w.stop_flashing()
    fake.advance(300)
    with qtbot.waitSignal(w.expired, timeout=1000):
        w.tick()
    assert sound.played == 2 and w.model.status == EXPIRED
    assert "TIME IS UP" in w.note.text() and w.digits.text() == "0:00"


def test_clock_widget_never_blocks(qtbot, fake: FakeTime) -> None:
    """The widget's own QTimer drives it: the event loop keeps running while it counts."""
    w = ClockWidget(ClockModel.for_phase(SPRING, now=fake), sound=FakeSound(), tick_ms=10)  # type: ignore[arg-type]
    qtbot.addWidget(w)
    w.model.start()
    w.refresh()
    fake.advance(901)
    with qtbot.waitSignal(w.period_ended, timeout=2000):
        pass  # no explicit tick: the timer does it


def test_clock_chime_is_a_short_wav_we_made() -> None:
    with wave.open(str(assets_dir() / CHIME_FILE), "rb") as f:
        assert f.getnchannels() == 1 and f.getsampwidth() == 2
        assert 0.5 < f.getnframes() / f.getframerate() < 3.0


def test_clock_widget_restyles_only_when_its_colours_change(qtbot, fake: FakeTime, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Every tick refreshes the clock; Qt polishes a widget and its children again at every style
    sheet set, so the sheet is set when the colours change (normal, warning, ended), not each second."""
    sheets: list[str] = []
    real = ClockWidget.setStyleSheet
    monkeypatch.setattr(ClockWidget, "setStyleSheet", lambda self, s: (sheets.append(s), real(self, s))[1])
    w = ClockWidget(ClockModel.for_phase(SPRING, now=fake), sound=FakeSound())  # type: ignore[arg-type]
    qtbot.addWidget(w)
    assert len(sheets) == 1  # made: its colours set once
    w.start_button.click()
    for _ in range(5):
        fake.advance(1)
        w.tick()
    assert len(sheets) == 1 and w.state_name == "normal"
    fake.advance(900 - 5 - 59)
    w.tick()
    assert w.state_name == "warning" and len(sheets) == 2 and sheets[-1] != sheets[0]
    assert sheets[-1] == w.styleSheet()
