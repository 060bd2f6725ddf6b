"""What a table of seven found at the laptop (issue 34): the writing clock runs out and the
table is told what happens next (finding 3), the seal code seen by the power that sealed
(finding 7), and a fresh game's clock (finding 8)."""

from __future__ import annotations

from host_stand_in import HOST_PIN
from PySide6.QtWidgets import QLabel
from test_secrecy import seal_next, start, write

from diplomacy_desktop.table.clock import EXPIRED, WRITING
from diplomacy_desktop.table import sealcodes
from diplomacy_desktop.table.hotseat import ENTERING, REVEALED


def run_out_the_writing_clock(f) -> None:  # type: ignore[no-untyped-def]
    """The clock is started and every period runs to its end (the talks, then the writing)."""
    clock = f.clock
    clock.start_button.click()
    while clock.model.status != EXPIRED:
        clock.skip_button.click()
    assert clock.model.periods[-1].kind == WRITING


# -- 3. the writing clock runs out: never a silent "TIME IS UP" ----------------------------------


def test_time_up_says_who_has_not_sealed_and_what_happens_next(table, features, host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    f.act_write.trigger()
    first, _orders = seal_next(t, f)
    run_out_the_writing_clock(f)
    c = t.controller
    late = [c.power_name(p) for p in f.flow.session.waiting]
    note = f.clock.note.text()
    assert "TIME IS UP" not in note
    assert all(name in note for name in late) and c.power_name(first) not in note
    told = f.strip.notice.toolTip()
    assert all(name in told for name in late) and "units hold" in told and "civil disorder" in told and "+1 min" in told
    notice = f.flow.curtain.notice_label  # on the curtain too, wrapped
    assert "hold" in notice.text() and notice.isVisibleTo(f.flow.curtain)
    # the host's choice is offered on the clock: Reveal now (asks the host, as F8 does) ...
    assert f.clock.skip_button.isEnabled() and f.clock.skip_button.text() == "Reveal now"
    host.typed = None  # the host cancels the host PIN's prompt: nothing is revealed
    f.clock.skip_button.click()
    assert host.prompts and "Reveal" in host.prompts[-1]
    assert f.flow.session.stage != REVEALED
    # ... or more time: +1 min, and the note is gone
    f.clock.add_button.click()
    assert f.clock.model.status != EXPIRED and "not sealed" not in f.clock.note.text()
    assert f.clock.skip_button.text() != "Reveal now"
    run_out_the_writing_clock(f)
    host.typed = HOST_PIN
    f.clock.skip_button.click()
    assert f.flow.session.stage == REVEALED or c.state.phase.short != "S1901M"


# -- 7. the seal code: large for the power that sealed, gone before the next one is called --------


def test_the_sealing_power_sees_its_seal_code_large_until_it_hides_it(table, features) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    f.act_write.trigger()
    first = f.flow.session.next_power
    write(t, f, first)
    f.strip.seal_button.click()
    c = t.controller
    code = sealcodes.code_of(c.table, first, c.state.phase.short)
    assert code
    curtain = f.flow.curtain
    assert curtain.isVisible() and curtain.showing_seal_code
    assert curtain.seal_code_label.text() == code and curtain.seal_code_label.isVisibleTo(curtain)
    assert curtain.seal_code_label.font().pointSize() >= 30  # large, not a 13 px line
    assert not curtain.open_button.isVisibleTo(curtain)  # the next player is not called yet
    # a wrong PIN message, or anything the table is told, does not take its place
    f.flow.tell("Wrong PIN")
    assert curtain.seal_code_label.text() == code and curtain.showing_seal_code
    # the table's strip says who sealed, not the code
    assert code not in f.strip.notice.toolTip()
    curtain.seal_done_button.click()
    assert not curtain.showing_seal_code and curtain.open_button.isVisibleTo(curtain)
    assert not any(code in w.text() for w in curtain.findChildren(QLabel) if w.isVisibleTo(curtain))
    # the next power writes and seals: its own code, never the first one's
    second = f.flow.session.next_power
    write(t, f, second)
    f.strip.seal_button.click()
    assert curtain.seal_code_label.text() == sealcodes.code_of(c.table, second, c.state.phase.short) != code



def test_a_power_that_sealed_sees_its_seal_code_again_behind_the_curtain_with_its_own_pin(table, features, host) -> None:  # type: ignore[no-untyped-def]
    """Issue 34, finding 7: "again behind the curtain on its own turn".  The power that sealed
    (and hid its code) asks for it on the curtain, types its own PIN and sees it large again;
    a wrong PIN shows nothing; nothing is opened: its orders stay sealed."""
    from test_hotseat_out_of_turn import PINS

    t, f = table, features
    c = t.controller
    start(f, pins=PINS)
    f.act_write.trigger()
    first, _orders = seal_next(t, f, PINS[f.flow.session.next_power])
    code = sealcodes.code_of(c.table, first, c.state.phase.short)
    curtain = f.flow.curtain
    assert code and not curtain.showing_seal_code  # it noted it and hid it; the next power is called
    # on the curtain: the power that sealed may see its code again
    assert curtain.code_button.isVisibleTo(curtain)
    assert curtain.code_combo.findData(first) >= 0
    curtain.code_combo.setCurrentIndex(curtain.code_combo.findData(first))
    host.typed = "1470"  # a wrong PIN: nothing shown
    curtain.code_button.click()
    assert not curtain.showing_seal_code and "Wrong PIN" in curtain.error_label.text()
    host.typed = PINS[first]
    curtain.code_button.click()
    assert curtain.showing_seal_code and curtain.seal_code_label.text() == code
    assert "your seal code" in curtain.seal_title.text()
    assert first in f.flow.session.sealed and f.flow.session.stage != ENTERING  # nothing opened
    assert code not in f.strip.notice.toolTip()  # the table is never told the code
    curtain.seal_done_button.click()
    assert not curtain.showing_seal_code and curtain.open_button.isVisibleTo(curtain)
    # a power that has not sealed has no code to see
    assert curtain.code_combo.findData(f.flow.session.next_power) < 0

# -- 3. the writing window is per power by default, and an event's late rule applies at time up --


def test_the_writing_window_is_two_minutes_for_each_power_writing_by_default(table, features) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.gui.table.dialogs.clock_settings import ClockSettingsBox
    from diplomacy_desktop.table.clock import ClockSettings
    from diplomacy_desktop.table.settings import TableSettings

    t, f = table, features
    start(f)  # New Game's standard settings
    writing = [p for p in f.clock.model.periods if p.kind == WRITING]
    assert len(writing) == 1 and writing[0].seconds == 2 * 60 * 7  # seven powers write: 14 minutes
    box = ClockSettingsBox(TableSettings().clock)
    assert box.per_power_box.isChecked() and box.writing_spin.value() == 2
    # settable: 10 minutes for the whole table
    box.per_power_box.setChecked(False)
    box.writing_spin.setValue(10)
    settings = box.settings()
    assert not settings.writing_per_power and settings.writing_seconds(7) == 600
    f.apply_clock_settings(settings)
    assert [p.seconds for p in f.clock.model.periods if p.kind == WRITING] == [600]
    # a save from before the choice keeps its window for all the powers
    old = ClockSettings.from_dict({"spring_minutes": 15, "fall_minutes": 15, "writing_minutes": 5})
    assert not old.writing_per_power and old.writing_seconds(7) == 300
    assert ClockSettings.from_dict(ClockSettings().to_dict()) == ClockSettings()
    assert t.controller.state.phase.short == "S1901M"


def test_with_fewer_powers_writing_the_window_is_shorter(table, features) -> None:  # type: ignore[no-untyped-def]
    from diplomacy_desktop.table.settings import TableSettings

    f = features
    f.start_new_game(TableSettings(powers=("england", "france", "germany")))
    writing = [p for p in f.clock.model.periods if p.kind == WRITING]
    assert [p.seconds for p in writing] == [2 * 60 * 3]


def test_at_time_up_the_events_late_rule_voids_the_late_orders(qtbot, table, features) -> None:  # type: ignore[no-untyped-def]
    """With an event's rules (late orders void after a grace), the writing clock running out is
    what applies them: the late powers are warned, then their units hold; the table is told."""
    from diplomacy_desktop.engine.orders import Hold, Move
    from diplomacy_desktop.table.event import LATE_VOID, EventRules

    t, f = table, features
    c = t.controller
    start(f)
    tour = t.window.tournament
    tour.apply_rules(EventRules(late_orders=LATE_VOID, late_grace_seconds=0))
    f.act_write.trigger()
    first, _orders = seal_next(t, f)
    if first != "france":
        c.game.set_order(Move("france", "A", "par", "bur"))
    run_out_the_writing_clock(f)
    told = f.strip.notice.toolTip()
    assert "Time is up" in told and "the event's rule" in told
    qtbot.waitUntil(lambda: not tour.late_timer.isActive(), timeout=5000)
    late = [p for p in c.board.power_ids if p != first]
    for power in late:
        assert all(isinstance(o, Hold) for o in c.game.orders_of(power)), power
    assert {x["power"] for x in c.table["late_orders"] if x["verdict"] == "void"} == set(late)
    assert "orders void (late); the units hold" in f.strip.notice.toolTip()
