"""What a table of seven found at the laptop (issue 34): the writing clock runs out and the
table is told what happens next (finding 3), the seal code seen by the power that sealed
(finding 7), and a fresh game's clock (finding 8)."""

from __future__ import annotations

from host_stand_in import HOST_PIN
from PySide6.QtWidgets import QLabel
from test_secrecy import seal_next, start, write

from diplomacy_desktop.gui.table.clock import EXPIRED, WRITING
from diplomacy_desktop.table import sealcodes
from diplomacy_desktop.table.hotseat import REVEALED


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
