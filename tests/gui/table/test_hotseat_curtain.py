"""Issue 17, PINs at the curtain: a power's own PIN reopens its own sealed orders on every path; no
PIN field for a power without one; the host's take-back keeps each power's seal unless the host
chooses "reopen all"."""

from __future__ import annotations

from host_stand_in import Host
from test_secrecy import CLICKS, HOST_PIN, seal_next, start

from diplomacy_desktop.table.hotseat import CURTAIN, ENTERING, OPEN, READY


def _seal_until(t, f, power: str, pin: str) -> None:  # type: ignore[no-untyped-def]
    while f.flow.session.next_power is not None and power not in f.flow.session.sealed:
        nxt = f.flow.session.next_power
        seal_next(t, f, pin if nxt == power else "")


def test_own_pin_reopens_own_sealed_orders_through_someone_else(table, features, host: Host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, pins={"france": "1470"})  # a host PIN is set too
    f.act_write.trigger()
    _seal_until(t, f, "france", "1470")
    curtain = f.flow.curtain
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData("france"))
    assert "(sealed: reopen)" in curtain.other_combo.currentText()
    host.typed = "1470"  # France types its own PIN when asked
    curtain.other_button.click()
    assert f.flow.session.stage == ENTERING and f.flow.session.current == "france"
    assert "France's PIN" in host.prompts[-1]
    assert "reopened with France's PIN" in f.strip.notice.toolTip()


def test_host_pin_also_reopens_a_power_with_a_pin_and_a_wrong_pin_does_not(table, features, host: Host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, pins={"france": "1470"})
    f.act_write.trigger()
    _seal_until(t, f, "france", "1470")
    curtain = f.flow.curtain
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData("france"))
    host.typed = "1111"
    curtain.other_button.click()
    assert "france" in f.flow.session.sealed and "Wrong PIN" in curtain.error_label.text()
    curtain.other_combo.setCurrentIndex(curtain.other_combo.findData("france"))
    host.typed = HOST_PIN
    curtain.other_button.click()
    assert f.flow.session.current == "france"
    assert "reopened by the host (host PIN) without France's PIN" in f.strip.notice.toolTip()


def test_no_pin_field_for_a_power_without_a_pin(table, features, host: Host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f, pins={p: "2580" for p in CLICKS if p != "italy"})
    f.act_write.trigger()
    curtain = f.flow.curtain
    while f.flow.session.next_power != "italy":
        seal_next(t, f, "2580")
    # Italy has no PIN: no PIN box, whichever power the "Someone else" list shows
    for i in range(curtain.other_combo.count()):
        curtain.other_combo.setCurrentIndex(i)
        assert curtain.pin_edit.isHidden(), curtain.other_combo.currentText()
    f.flow.curtain.open_button.click()
    assert f.flow.session.current == "italy"


def _reveal_spring(t, f) -> dict[str, set[str]]:  # type: ignore[no-untyped-def]
    f.act_write.trigger()
    while f.flow.session.next_power is not None:
        seal_next(t, f)
    assert f.flow.session.stage == READY
    sealed = {p: t.orders(p) for p in CLICKS}
    f.flow.curtain.reveal_button.click()
    assert t.controller.state.phase.short == "F1901M"
    return sealed


def test_take_back_keeps_every_seal_unless_the_host_reopens_all(table, features, host: Host) -> None:  # type: ignore[no-untyped-def]
    t, f = table, features
    start(f)
    spring = _reveal_spring(t, f)
    assert all(spring.values())
    host.typed = HOST_PIN
    host.answer = False  # "Reopen all?" No: the seals are kept
    t.window.act_undo_adj.trigger()
    s = f.flow.session
    assert t.controller.state.phase.short == "S1901M"
    assert s.stage == READY and s.sealed == set(CLICKS)
    assert {p: t.orders(p) for p in CLICKS} == spring
    assert f.flow.curtain_up and "Reopen all?" in host.questions[-1][0]
    # revealed again at once: the same adjudication
    f.flow.curtain.reveal_button.click()
    assert t.controller.state.phase.short == "F1901M"
    host.answer = True  # this time: reopen all
    t.window.act_undo_adj.trigger()
    assert s.stage in (OPEN, CURTAIN) and not s.sealed
